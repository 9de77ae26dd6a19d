// What a NUMERIC column keeps of a value written into it. SQLite has no decimal type: a NUMERIC
// column holds a 64-bit integer or a double, so a value written with more digits than a double
// keeps (`12345678901234567890.12`, an 18-decimal token amount) was stored as the nearest double
// (`12345678901234567000`), silently, and replicated to every agent so. A value the client wrote
// (a literal, a parameter, a COPY field) that the column cannot keep is refused instead, 22003
// naming it; a value Patina computed (`1::numeric / 3`) is kept at a double's digits, as documented
// (docs/postgres.md, NUMERIC). A decimal is kept when it is an integer within 64 bits, or when the
// nearest double reads back as the same decimal (`0.1`, `1.50`, `0.30000000000000004`).
import { type Decimal, decimalText, isZero, parseDecimal } from './decimal';
import { sqlStateError } from '../errors';

const INT64_MIN = -9223372036854775808n;
const INT64_MAX = 9223372036854775807n;

/** The decimal's value without its sign's and zeros' spelling: `-1.50` and `-001.5` are one. */
function canonical(d: Decimal): string {
  const frac = d.frac.replace(/0+$/, '');
  const int = d.int.replace(/^0+/, '');
  const body = `${int}.${frac}`;
  return d.neg && !isZero(d) ? `-${body}` : body;
}

/**
 * The value SQLite is to store for a written decimal: a bigint for an integer within 64 bits, the
 * nearest double when it reads back as the same decimal, null when the column cannot keep it.
 * (NaN and the infinities are kept as they are written; the caller passes finite decimals.)
 */
export function keptNumber(d: Decimal): number | bigint | null {
  if (!/[1-9]/.test(d.frac)) {
    const n = BigInt((d.neg ? '-' : '') + (d.int || '0'));
    if (n >= INT64_MIN && n <= INT64_MAX) return n;
  }
  const x = Number(decimalText(d));
  if (!Number.isFinite(x)) return null;
  const back = parseDecimal(String(x));
  return back !== null && canonical(back) === canonical(d) ? x : null;
}

/**
 * PostgreSQL's 22003 for a written value a NUMERIC column here cannot keep; `stored` is what the
 * column would have held (the nearest double).
 */
export function numericNotKept(text: string): Error {
  const d = parseDecimal(text);
  const near = d ? Number(decimalText(d)) : Number.NaN;
  const err = sqlStateError(
    '22003',
    `numeric value ${text.trim()} has more significant digits than a NUMERIC column keeps here`,
  );
  err.detail = `Patina keeps a NUMERIC as a 64-bit integer or a double (15 to 17 significant digits)${Number.isFinite(near) ? `: it would be stored as ${String(near)}` : ''}.`;
  err.hint = 'Round the value to 15 significant digits, or keep it in a TEXT column.';
  return err;
}

/**
 * A written decimal's text as SQLite is to store it (see keptNumber); the 22003 of numericNotKept
 * when it cannot be kept. Text that is no finite decimal is returned as it is, for the caller's own
 * checks (NaN, Infinity, bad input).
 */
export function keptNumeric(text: string): number | bigint | string {
  const d = parseDecimal(text);
  if (d === null || d.special) return text;
  const kept = keptNumber(d);
  if (kept === null) throw numericNotKept(text);
  return kept;
}
