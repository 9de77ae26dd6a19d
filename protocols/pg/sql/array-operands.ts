// Arrays of element types PostgreSQL cannot compare: `ARRAY[1] = ARRAY['a']`, an integer[] column
// against a text[] one. PostgreSQL's array operators take two arrays of one type, so it refuses
// them with 42883 `operator does not exist: integer[] = text[]`; Patina keeps arrays as text and
// compared the texts (false, or true for `ARRAY[1] = ARRAY['1']`). Refused here where the element
// types fall in different categories (numbers, strings, booleans, dates and times, intervals, and
// each other type apart), or are numbers of two types not both integers (numeric[] and
// integer[]) written as columns, casts or ARRAY[...] of them, and no parameter is inside (whose type
// the client may leave to the server). Arrays of integers of two widths, of text and varchar, of
// dates and timestamps are still compared: the schema's integer[] columns are bigint[] here, where
// PostgreSQL would see two integer[] operands.
import { pgError } from '../sqlstate';
import { PG_TYPES, TYPE_DISPLAY } from '../types/oids';
import { elementOidOf } from '../types/registry';
import { elementKindOf } from '../types/element-kind';
import { arrayInput } from '../../../src/engine/pg-array-input';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The operators PostgreSQL has between two arrays of one type. */
export const ARRAY_OPERATORS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', '@>', '<@', '&&', '||']);

const CATEGORY = new Map(PG_TYPES.map(([oid, , , cat]) => [oid, cat === 'U' ? String(oid) : cat]));

const INTEGERS = new Set([20, 21, 23]);

/** Whether an operand's type is sure: a column, a cast, or ARRAY[...] of literals, columns and casts. */
const direct = (n: Node): boolean =>
  n?.ColumnRef !== undefined ||
  n?.TypeCast !== undefined ||
  (n?.A_ArrayExpr !== undefined &&
    (n.A_ArrayExpr.elements ?? []).every(
      (x: Node) => x.A_Const !== undefined || x.ColumnRef !== undefined || x.TypeCast !== undefined,
    ));

/** Whether a tree holds a parameter ($1). */
function hasParam(n: Node): boolean {
  if (n === null || typeof n !== 'object') return false;
  if (Array.isArray(n)) return n.some(hasParam);
  if (n.ParamRef) return true;
  for (const k in n) if (k !== 'location' && hasParam(n[k])) return true;
  return false;
}

/** 42883 for `l op r` of arrays whose element types PostgreSQL has no operator between (see above). */
export function checkArrayOperands(op: string, lt: number, rt: number, l: Node, r: Node): void {
  const [le, re] = [elementOidOf(lt), elementOidOf(rt)];
  if (le === undefined || re === undefined || !ARRAY_OPERATORS.has(op)) return;
  const [lc, rc] = [CATEGORY.get(le), CATEGORY.get(re)];
  if (lc === undefined || rc === undefined || lc === 'X' || rc === 'X' || lc === 'P' || rc === 'P') return;
  // numbers of two types, not both integers (numeric[] and integer[]), where each side's type is
  // sure: a column, a cast, ARRAY[...] of literals, columns and casts
  // (|| takes arrays of compatible types, ARRAY[1] || ARRAY[1.5] is numeric[])
  const numbers = op !== '||' && lc === 'N' && rc === 'N' && le !== re && !(INTEGERS.has(le) && INTEGERS.has(re));
  if ((lc === rc && !(numbers && direct(l) && direct(r))) || hasParam(l) || hasParam(r)) return;
  const name = (e: number) => `${TYPE_DISPLAY[e] ?? 'unknown'}[]`;
  const err = pgError('42883', `operator does not exist: ${name(le)} ${op === '!=' ? '<>' : op} ${name(re)}`);
  err.hint = 'No operator matches the given name and argument types. You might need to add explicit type casts.';
  throw err;
}

/**
 * A string literal beside an array in one of its operators: an array of its elements' type, read as
 * array_in reads it (`ints @> '{a}'` is 22P02 for a, `ints = '{1, 2}'` equal to {1,2}; it was
 * compared as text). Each such literal's location and text in PostgreSQL's form ('{1,2}').
 */
export function arrayLiterals(op: string, lt: number, rt: number, l: Node, r: Node): [number, string][] {
  const out: [number, string][] = [];
  for (const [lit, other] of [
    [l, rt],
    [r, lt],
  ] as const) {
    const kind = ARRAY_OPERATORS.has(op) ? elementKindOf(elementOidOf(other) ?? 0) : undefined;
    const text = lit?.A_Const?.sval?.sval;
    if (kind && typeof text === 'string') out.push([lit.A_Const.location, arrayInput(text, kind)]);
  }
  return out;
}

/**
 * Whether `l || r` of an array and a value of another category of type (`1 || '{a,b}'::text[]`,
 * `text_col || int_array`) has no operator in PostgreSQL: its anycompatible || anycompatiblearray
 * (either way round) finds no common type, 42883, where Patina appended the value's text. Only
 * where both types are sure (columns, casts, literals, ARRAY[...] of them) and no parameter is in.
 */
export function noElementConcat(op: string, lt: number, rt: number, l: Node, r: Node): boolean {
  if (op !== '||' || hasParam(l) || hasParam(r)) return false;
  const [le, re] = [elementOidOf(lt), elementOidOf(rt)];
  if ((le === undefined) === (re === undefined)) return false;
  const [elem, value, valueNode] = le !== undefined ? [le, rt, r] : [re as number, lt, l];
  const sure = (n: Node) =>
    direct(n) || (n?.A_Const !== undefined && n.A_Const.sval === undefined && !n.A_Const.isnull);
  if (!sure(l) || !sure(r) || valueNode?.A_Const?.sval !== undefined) return false;
  const [ec, vc] = [CATEGORY.get(elem), CATEGORY.get(value)];
  if (ec === undefined || vc === undefined || [ec, vc].some((c) => c === 'X' || c === 'P' || c === 'A')) return false;
  return ec !== vc;
}
