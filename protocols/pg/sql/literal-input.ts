// A string literal cast to a number, boolean, uuid or json type (`'abc'::int`, `int4 'x'`,
// `CAST('x' AS bool)`) is read by the type's input function at analysis, as PostgreSQL's parser
// reads such a constant: a bad one is its error (22P02, 22003) with the position of the literal
// (psql's caret under it). The translation read it when the statement ran, and the error had no
// position. The same functions read it (src/engine/pg-functions.ts, translate/casts.ts), so the
// values and messages are theirs; dates and times, read in the session's styles, are left to them.
import { uuidIn } from '../../../src/engine/pg-array-input';
import { pgBool, pgFloat, pgInteger, pgToNumeric } from '../../../src/engine/pg-functions';
import { PatinaError } from '../../../src/errors';
import { PgError } from '../sqlstate';
import { markComparedLiterals } from './compared-literals';
import { OID } from '../types/oids';
import type { PgToken } from './lexer';
import { parseTree } from './parse';
import { jsonIn } from './translate/casts';
import { jsonPathText } from '../../../src/engine/pg-jsonpath-functions';
import { tsQueryText, tsVectorText } from '../../../src/engine/pg-text-search-functions';
import { typeNameOid } from './type-signatures';
import { writtenAt } from './type-names';
import { REGCONFIG, regconfigOid } from '../catalog/regconfig';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The input functions by the type's OID (a scalar's: an array literal is read by its translation). */
const INPUTS: Record<number, (text: string) => unknown> = {
  [OID.int2]: (t) => pgInteger(t, 'smallint'),
  [OID.int4]: (t) => pgInteger(t, 'integer'),
  [OID.int8]: (t) => pgInteger(t, 'bigint'),
  [OID.float4]: (t) => pgFloat(t, 'real'),
  [OID.float8]: (t) => pgFloat(t, 'double precision'),
  [OID.numeric]: (t) => pgToNumeric(t),
  [OID.bool]: (t) => pgBool(t),
  [OID.uuid]: (t) => uuidIn(t),
  [OID.json]: (t) => jsonIn(t),
  [OID.jsonb]: (t) => jsonIn(t),
  [OID.jsonpath]: (t) => jsonPathText(t),
  [OID.tsvector]: (t) => tsVectorText(t),
  [OID.tsquery]: (t) => tsQueryText(t),
  [REGCONFIG]: (t) => regconfigOid(t),
};

/**
 * lag's or lead's default written as a string literal (`lag(n, 1, 'x')`): PostgreSQL reads it as the
 * value's type, and a bad one is that type's input error (22P02 `invalid input syntax for type
 * integer: "x"`); SQLite handed the text over in the integer column. Dates and times are left.
 */
export function checkWindowDefault(f: Node, valueType: number, out: Map<number, string>): void {
  const name = String(f?.funcname?.at(-1)?.String?.sval ?? '').toLowerCase();
  const d = f?.args?.length === 3 && (name === 'lag' || name === 'lead') && f.over ? f.args[2] : undefined;
  if (d?.A_Const?.sval === undefined) return;
  // (a good one as the value it reads as: ' 7 ' is 7, 'yes' true; a date's as it is stored)
  markComparedLiterals([d], valueType, out);
  const input = INPUTS[valueType];
  if (!input) return;
  let v: unknown;
  try {
    v = input(String(d.A_Const.sval.sval ?? ''));
  } catch (err) {
    if (!(err instanceof PatinaError) || !err.sqlstate) return;
    throw new PgError('user', err.message, err.sqlstate, err.detail);
  }
  if (!out.has(d.A_Const.location) && (typeof v === 'bigint' || (typeof v === 'number' && Number.isFinite(v))))
    out.set(d.A_Const.location, `num:${v}`);
}

/** Throws the input function's error, at the literal, for the first string literal of the statement its cast's type refuses. */
export function checkLiteralInput(text: string, tokens: readonly PgToken[]): void {
  let tree: Node;
  try {
    tree = parseTree(text);
  } catch {
    return; // (the parser's refusal is reported where the statement is translated)
  }
  const visit = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    const c = n.TypeCast;
    const input = c?.arg?.A_Const?.sval !== undefined ? INPUTS[typeNameOid(c.typeName)] : undefined;
    if (input) {
      try {
        input(String(c.arg.A_Const.sval.sval ?? ''));
      } catch (err) {
        // (anything else is left to the statement, which reads the literal again)
        if (!(err instanceof PatinaError) || !err.sqlstate) return;
        const at = writtenAt(Buffer.from(text).subarray(0, c.arg.A_Const.location).toString().length, tokens);
        const placed = new PgError('user', err.message, err.sqlstate, err.detail);
        placed.position = at;
        throw placed;
      }
    }
    // a number written past a double's range cast to one (`1e400::float8`): float8in's 22003 of the
    // numeric's text, as PostgreSQL's numeric_float8 reads it (SQLite read Infinity, or 0)
    const target = c?.arg?.A_Const?.fval !== undefined ? typeNameOid(c.typeName) : 0;
    if (target === OID.float8 || target === OID.float4) {
      const written = String(c.arg.A_Const.fval.fval);
      try {
        pgFloat(plainDecimal(written), target === OID.float4 ? 'real' : 'double precision');
      } catch (err) {
        if (err instanceof PatinaError && err.sqlstate === '22003') throw new PgError('user', err.message, '22003');
      }
    }
    for (const k in n) if (k !== 'location') visit(n[k]);
  };
  visit(tree.stmts);
}

/** A numeric literal as numeric_out prints it: `1e3` is 1000, `1.50e-2` 0.0150 (its scale kept). */
export function plainDecimal(literal: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(literal.trim());
  if (!m) return literal;
  const [, sign, int, frac = '', e = '0'] = m;
  const exp = Number(e);
  const digits = int + frac;
  const point = int.length + exp; // how many digits are before the point
  const scale = Math.max(0, frac.length - exp);
  const whole =
    point <= 0
      ? '0'
      : digits
          .padEnd(point, '0')
          .slice(0, point)
          .replace(/^0+(?=\d)/, '');
  const fraction = (point >= 0 ? digits.slice(point) : '0'.repeat(-point) + digits).padEnd(scale, '0').slice(0, scale);
  return `${sign === '-' && /[1-9]/.test(digits) ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}
