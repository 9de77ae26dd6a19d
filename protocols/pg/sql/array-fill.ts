// array_fill(anyelement, integer[] [, integer[]]) as PostgreSQL resolves it. Its dimensions and lower
// bounds must be integer[]: an array of text (`ARRAY['2']`, `ARRAY[$1]` of a parameter sent without a
// type, which PostgreSQL makes text[]), of numerics or of bigints has no implicit cast there, so the
// call is 42883 `function array_fill(integer, text[]) does not exist` at the call. Its value must
// have a type: a string literal or an untyped parameter is 42804 `could not determine polymorphic
// type because input has type unknown` (no position, as PostgreSQL's). Patina filled the array with
// the dimension's text (`array_fill($1, ARRAY[$2])` was a text column of `{a,a}`). A dimension of a
// type the analysis cannot tell passes, as does an INTEGER column's (int4 there, int8 here).
import { pgError } from '../sqlstate';
import { OID, TYPE_DISPLAY } from '../types/oids';
import { arrayOidOf, elementOidOf } from '../types/registry';
import { declaredColumnType } from './cast-paths';
import type { Typer } from './expression-types';
import { strings } from './type-signatures';
import { untyped } from './typed-operators';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const INTEGERS = new Set<number>([OID.int2, OID.int4]);

/** A value's type as PostgreSQL's resolution names it: 0 for unknown (a string literal, an untyped parameter). */
function argType(a: Node, typer: Typer, declared: number[]): number {
  if (untyped(a, declared) || a?.A_Const?.isnull) return 0;
  if (a?.ColumnRef) return declaredColumnType(a, typer);
  if (a?.ParamRef) return declared[a.ParamRef.number - 1] ?? 0;
  const elements: Node[] | undefined = a?.A_ArrayExpr?.elements;
  if (elements && elements.length > 0) {
    // ARRAY[...] of unknowns alone is text[]; else its typed elements' type (an INTEGER column int4)
    const typed = elements.map((e) => argType(e, typer, declared)).filter((t) => t !== 0);
    if (typed.length === 0) return elements.every((e) => untyped(e, declared)) ? arrayOidOf(OID.text)! : 0;
    if (typed.every((t) => INTEGERS.has(t))) return arrayOidOf(OID.int4)!;
    const nonInteger = typed.find((t) => !INTEGERS.has(t) && t !== OID.int8);
    return arrayOidOf(nonInteger ?? OID.int8) ?? 0;
  }
  return typer.type(a);
}

/** The error PostgreSQL gives for this array_fill call (see above); undefined for one it resolves. */
export function arrayFillError(f: Node, typer: Typer, declared: number[]): Error | undefined {
  const names = strings(f.funcname).map((n) => n.toLowerCase());
  const args: Node[] = f.args ?? [];
  if (names.at(-1) !== 'array_fill' || (names.length > 1 && names[0] !== 'pg_catalog')) return undefined;
  if (args.length < 2 || args.length > 3 || args.some((a) => a?.NamedArgExpr)) return undefined;
  const types = args.map((a) => argType(a, typer, declared));
  const misfit = types.slice(1).some((t) => {
    const e = elementOidOf(t);
    return t !== 0 && (e === undefined || !INTEGERS.has(e));
  });
  if (misfit) {
    const shown = types.map((t) => (t === 0 ? 'unknown' : (TYPE_DISPLAY[t] ?? 'unknown')));
    const err = pgError('42883', `function ${strings(f.funcname).join('.')}(${shown.join(', ')}) does not exist`);
    err.hint = 'No function matches the given name and argument types. You might need to add explicit type casts.';
    (err as { location?: number }).location = f.location;
    return err;
  }
  if (untyped(args[0], declared))
    return pgError('42804', 'could not determine polymorphic type because input has type unknown');
  return undefined;
}
