// `LIMIT -1` and `OFFSET -5`: PostgreSQL refuses a negative count (2201W `LIMIT must not be
// negative`, 2201X `OFFSET must not be negative`), where SQLite reads a negative LIMIT as no limit
// and a negative OFFSET as none, so a client passing -1 for "all rows" got every row. Read off the
// tokens for a negative number written as the whole count; a parameter's value is not seen here.
import { pgError } from '../sqlstate';
import type { PgToken } from './lexer';

/** Words after which a LIMIT or OFFSET count has ended. */
const COUNT_ENDS = new Set(['OFFSET', 'LIMIT', 'FETCH', 'FOR', 'ROWS', 'ROW', 'UNION', 'EXCEPT', 'INTERSECT']);

/** Throws PostgreSQL's error for a LIMIT or OFFSET of a negative number. */
export function checkLimitSigns(sig: readonly PgToken[]): void {
  for (let i = 0; i + 2 < sig.length; i++) {
    const t = sig[i];
    if (t.type !== 'word') continue;
    const w = t.text.toUpperCase();
    if (w === 'FETCH') {
      checkFetchCount(sig, i);
      continue;
    }
    if (w !== 'LIMIT' && w !== 'OFFSET') continue;
    if (sig[i + 1].type !== 'op' || sig[i + 1].text !== '-' || sig[i + 2].type !== 'number') continue;
    // (-0.4 rounds to 0, as PostgreSQL turns the numeric into the count)
    if (roundedCount(sig[i + 2].text) === 0n) continue;
    const next = sig[i + 3];
    const ended =
      next === undefined ||
      (next.type === 'punct' && (next.text === ')' || next.text === ';')) ||
      (next.type === 'word' && COUNT_ENDS.has(next.text.toUpperCase()));
    if (!ended) continue;
    throw w === 'LIMIT'
      ? pgError('2201W', 'LIMIT must not be negative')
      : pgError('2201X', 'OFFSET must not be negative');
  }
}

/**
 * `FETCH FIRST -1 ROWS ...` is 2201W as a negative LIMIT is; `FETCH FIRST NULL ROWS WITH TIES` is
 * PostgreSQL's 2201W too (a NULL count with ONLY is no limit, as LIMIT NULL).
 */
function checkFetchCount(sig: readonly PgToken[], i: number): void {
  const w = (k: number) => (sig[k]?.type === 'word' ? sig[k].text.toUpperCase() : '');
  if (w(i + 1) !== 'FIRST' && w(i + 1) !== 'NEXT') return;
  const rows = (k: number) => w(k) === 'ROW' || w(k) === 'ROWS';
  const negative = sig[i + 2]?.type === 'op' && sig[i + 2].text === '-' && sig[i + 3]?.type === 'number';
  if (negative && roundedCount(sig[i + 3].text) !== 0n && rows(i + 4))
    throw pgError('2201W', 'LIMIT must not be negative');
  if (w(i + 2) === 'NULL' && rows(i + 3) && w(i + 4) === 'WITH' && w(i + 5) === 'TIES')
    throw pgError('2201W', 'row count cannot be null in FETCH FIRST ... WITH TIES clause');
}

/** The unsigned decimal or exponent literal `text` rounded half up to a whole number. */
export function roundedCount(text: string): bigint {
  if (/[eE]/.test(text)) {
    const n = Math.round(Number(text));
    return Number.isFinite(n) ? BigInt(n) : 2n ** 64n;
  }
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole === '' ? '0' : whole) + (fraction[0] !== undefined && fraction[0] >= '5' ? 1n : 0n);
}
