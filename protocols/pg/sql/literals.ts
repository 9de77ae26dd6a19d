// Literals of a simple-query SELECT lifted out into parameters, so that `... WHERE aid = 48213` and
// `... WHERE aid = 7` share one analysis, one SQLite statement and one point-read verdict (pgbench
// -M simple, dashboards that inline their filters). Only spots where a bound value means exactly
// what the literal meant are taken: an integer or string compared with a column in the WHERE clause.
import type { SqlValue } from '../../../src/engine/values';
import { OID } from '../types/oids';
import { paramValue } from '../types/values';
import { catalogRelations, hasNoFrom } from './local-statements';
import { joinTokens } from './tokens';
import type { PgToken } from './lexer';

const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);
/** What may follow a lifted literal: the end, a closing parenthesis, or a word that ends the operand. */
const ENDS = new Set([
  'AND',
  'OR',
  'ORDER',
  'LIMIT',
  'GROUP',
  'OFFSET',
  'HAVING',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'WINDOW',
  'FETCH',
  'FOR',
]);

export interface Lifted {
  /** The statement's text with `$n` where the literals stood: the cache key of its analysis. */
  key: string;
  tokens: PgToken[];
  values: SqlValue[];
}

/** The statement with its WHERE-clause comparison literals as parameters; null when there are none. */
export function liftLiterals(tokens: PgToken[]): Lifted | null {
  const sig = tokens.filter((t) => t.type !== 'space' && t.type !== 'comment');
  if (sig.length < 4 || sig[0].type !== 'word' || sig[0].text.toUpperCase() !== 'SELECT') return null;
  if (sig.some((t) => t.type === 'param') || hasNoFrom(sig) || catalogRelations(sig)) return null;
  const where = sig.findIndex((t) => t.type === 'word' && t.text.toUpperCase() === 'WHERE');
  if (where < 0) return null;
  const values: SqlValue[] = [];
  const out = sig.slice();
  for (let i = where + 2; i < sig.length; i++) {
    const t = sig[i];
    if (t.type !== 'number' && t.type !== 'string') continue;
    const op = sig[i - 1];
    const col = sig[i - 2];
    const next = sig[i + 1];
    if (op.type !== 'op' || !COMPARISONS.has(op.text) || (col.type !== 'word' && col.type !== 'quoted')) continue;
    if (
      next &&
      !(next.type === 'punct' && (next.text === ')' || next.text === ';')) &&
      !(next.type === 'word' && ENDS.has(next.text.toUpperCase()))
    )
      continue;
    let value: SqlValue;
    if (t.type === 'number') {
      if (!/^\d+$/.test(t.text)) continue; // a decimal's text form matters against TEXT columns; leave it
      value = BigInt(t.text); // bound as INTEGER, as the literal was (a JS number binds as REAL)
    } else {
      value = t.text.slice(1, -1).split("''").join("'");
    }
    values.push(value);
    out[i] = { type: 'param', text: `$${values.length}` };
  }
  if (values.length === 0) return null;
  return { key: joinTokens(out), tokens: out, values };
}

const DATED = new Set<number>([OID.date, OID.time, OID.timestamp, OID.timestamptz, OID.bool]);

/**
 * The lifted values as the analysis typed their parameters: a string compared with a boolean, date
 * or time column as that type stores it ('t' as 1) (`ts > '2024-01-15 10:30'` compares with '2024-01-15 10:30:00';
 * SQLite compares the text, where '2024-01-15 10:30:00' is the greater), as a bound parameter is.
 */
export function typedLiterals(values: SqlValue[], types: readonly number[]): SqlValue[] {
  return values.map((v, k) =>
    typeof v === 'string' && DATED.has(types[k]) ? paramValue(Buffer.from(v), types[k], 0, k) : v,
  );
}
