// String literals compared with a boolean, date, time, timestamp, bytea, char(n) or a number's infinity, read as that type (SQLite
// holds booleans as 1 and 0, dates as text and bytea as blobs, and would compare the literal's text
// with them).
import { castDate, castTime, castTimestamp } from '../../../src/engine/dates';
import { castTimestamptzHere } from './session-zone';
import { pgBool } from '../../../src/engine/pg-functions';
import { byteaInput } from '../../../src/engine/pg-strings';
import { OID } from '../types/oids';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const DATE_INPUT: Record<number, (v: unknown) => string | null> = {
  [OID.date]: castDate,
  [OID.timestamp]: castTimestamp,
  [OID.timestamptz]: (v) => castTimestamptzHere(v)?.replace(/\+00$/, '') ?? null,
  [OID.time]: castTime,
};

/**
 * String literals compared with a boolean ('t', 'yes': `num:1`, SQLite holds booleans as 1 and 0
 * and compared the text), or with a date, time or timestamp (`ts > '2024-01-15 10:30'`, BETWEEN, IN):
 * 'str:' and the literal as the type stores it ('2024-01-15 10:30:00'), since SQLite compares the
 * text and '2024-01-15 10:30:00' > '2024-01-15 10:30' there; bad input is PostgreSQL's error.
 */
export function markComparedLiterals(items: Node[], type: number, out: Map<number, string>): void {
  if (type === OID.bool) {
    for (const lit of items)
      if (typeof lit?.A_Const?.sval?.sval === 'string')
        out.set(lit.A_Const.location, `num:${pgBool(lit.A_Const.sval.sval) ? 1 : 0}`);
    return;
  }
  if (type === OID.bytea) {
    for (const lit of items)
      if (typeof lit?.A_Const?.sval?.sval === 'string')
        out.set(lit.A_Const.location, `blob:${byteaInput(lit.A_Const.sval.sval).toString('hex')}`);
    return;
  }
  if (type === OID.numeric || type === OID.float8 || type === OID.float4) {
    // an infinity ('Infinity', '-inf') as SQLite's REAL infinity, which its affinity does not make of the text
    for (const lit of items) {
      const m = /^\s*([+-]?)inf(inity)?\s*$/i.exec(lit?.A_Const?.sval?.sval ?? '');
      if (m) out.set(lit.A_Const.location, `num:${m[1] === '-' ? '-9e999' : '9e999'}`);
    }
    return;
  }
  if (type === OID.bpchar) {
    // beside a char(n) column, whose values are kept without their trailing spaces, which bpchar's
    // comparison ignores (`ch = 'ab  '`, the padded value a client read, matched no row)
    for (const lit of items) {
      const text = lit?.A_Const?.sval?.sval;
      if (typeof text === 'string' && / $/.test(text)) out.set(lit.A_Const.location, `str:${text.replace(/ +$/, '')}`);
    }
    return;
  }
  const input = DATE_INPUT[type];
  if (!input) return;
  for (const lit of items) {
    const text = lit?.A_Const?.sval?.sval;
    if (typeof text !== 'string') continue;
    const v = input(text);
    if (v !== null) out.set(lit.A_Const.location, `str:${v}`);
  }
}
