// The type of a parameter beside an array, as PostgreSQL resolves an unknown argument of its
// anycompatible array functions and operators: `array_append($1, 1)` is int4[], `array_position(a,
// $1)` the element of a's type, `a && $1` and `$1 || a` a's array type, `$1 = ANY(a)` its element,
// and where nothing else tells (`array_append($1, $2)`, `$1 = ANY($2)`) text and text[]. pgjdbc and
// asyncpg encode each argument by the type ParameterDescription names: these were all text.
import { OID } from '../types/oids';
import { arrayOidOf, elementOidOf } from '../types/registry';
import { commonNumber, isNumber } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Which arguments of each function are the array, which its elements, which an int4 (a start). */
const ROLES: Record<string, { arrays: number[]; elements: number[]; ints?: number[] }> = {
  array_append: { arrays: [0], elements: [1] },
  array_prepend: { arrays: [1], elements: [0] },
  array_cat: { arrays: [0, 1], elements: [] },
  array_remove: { arrays: [0], elements: [1] },
  array_replace: { arrays: [0], elements: [1, 2] },
  array_position: { arrays: [0], elements: [1], ints: [2] },
  array_positions: { arrays: [0], elements: [1] },
};

/** The array operators whose unknown side takes the other side's array type (`||` prefers array || array). */
export const ARRAY_OPERATORS = new Set(['||', '@>', '<@', '&&']);

/** What the parameter walker gives: the type found so far, and the assignment of a parameter. */
export interface ParamSink {
  typeOf(x: Node): number;
  assign(x: Node, oid: number): void;
}

/** An untyped argument: a parameter not typed yet, a string literal, NULL. */
const unknown = (sink: ParamSink, x: Node) =>
  x?.A_Const?.sval !== undefined || x?.A_Const?.isnull || (x?.ParamRef && sink.typeOf(x) === 0);

/**
 * The parameters among an array function's arguments: the element type the typed ones resolve to
 * (numbers promoted), or text when all are unknown and `last` (the walk's last pass, so a use found
 * later still types them first). False when `fn` is none of these functions.
 */
export function arrayFunctionParams(sink: ParamSink, fn: string, args: Node[], last: boolean): boolean {
  const roles = ROLES[fn];
  if (!roles) return false;
  for (const i of roles.ints ?? []) sink.assign(args[i], OID.int4);
  let element = 0;
  for (const i of [...roles.arrays, ...roles.elements]) {
    const x = args[i];
    if (x === undefined || unknown(sink, x)) continue;
    const t = roles.arrays.includes(i) ? elementOidOf(sink.typeOf(x)) : sink.typeOf(x);
    if (!t) return true; // (a type the analysis does not know: leave them)
    if (element === 0 || element === t) element = t;
    else if (isNumber(element) && isNumber(t)) element = commonNumber(element, t);
    else return true; // no common type: PostgreSQL refuses the call
  }
  if (element === 0 && !last) return true;
  element ||= OID.text;
  for (const i of roles.arrays) sink.assign(args[i], arrayOidOf(element) ?? 0);
  for (const i of roles.elements) sink.assign(args[i], element);
  return true;
}

/** `a || $1`, `$1 && a`: a parameter beside an array takes its type. True when one side is an array. */
export function arrayOperands(sink: ParamSink, l: Node, r: Node): boolean {
  const [lt, rt] = [sink.typeOf(l), sink.typeOf(r)];
  if (elementOidOf(lt) !== undefined) sink.assign(r, lt);
  else if (elementOidOf(rt) !== undefined) sink.assign(l, rt);
  else return false;
  return true;
}

/**
 * `x = ANY($1)`: the array of x's type; `$1 = ANY(a)` a's element; `$1 = ANY($2)` of two unknowns
 * text and text[] on the last pass.
 */
export function anyOperands(sink: ParamSink, l: Node, r: Node, textOperator: boolean, last: boolean): void {
  if (r?.A_ArrayExpr) {
    // the array is resolved first (`id = ANY(ARRAY[$1, 3])` is int4's, the parameter walk's ARRAY
    // rule), and $1 = ANY(ARRAY[1, 2]) takes its element; of unknowns only they take x's type (a
    // text[] in PostgreSQL: beside a string the same, beside another type 42883, which
    // param-tree-types.ts' refuseText raises, `id = ANY(ARRAY[$1, $2])`)
    const elements: Node[] = r.A_ArrayExpr.elements ?? [];
    if (elements.every((x) => unknown(sink, x))) for (const x of elements) sink.assign(x, sink.typeOf(l));
    sink.assign(l, elementOidOf(sink.typeOf(r)) ?? 0);
    return;
  }
  const [lt, rt] = [sink.typeOf(l), sink.typeOf(r)];
  if (textOperator) sink.assign(r, OID.textArray);
  else if (lt) sink.assign(r, arrayOidOf(lt) ?? 0);
  const element = elementOidOf(rt);
  if (element !== undefined) sink.assign(l, element);
  else if (last && l?.ParamRef && r?.ParamRef && !lt && !rt) {
    sink.assign(l, OID.text);
    sink.assign(r, OID.textArray);
  }
}
