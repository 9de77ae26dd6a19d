// Whether PostgreSQL has a cast from the operand's type to the target's, as its parser decides it
// (find_coerce_pathway for an explicit cast): the same type, a row of pg_cast
// (types/pg-cast-rows.ts), or I/O conversion when either type is a string type (text, varchar,
// bpchar, name: the value printed by one's output function, read by the other's input function).
// Any other pair is 42846 `cannot cast type smallint to boolean` at the cast, before anything runs.
// Patina's translation cast anyway: `0::int2::bool` answered false, `1::int4::date` 22007 and
// `d::int4` of a date 22P02 per row. Checked where the tree tells the operand's type for certain (a
// literal, a typed literal, a table's column, a cast, a parameter of a declared type, minus one of
// those, ARRAY[...] of them); elsewhere the translation casts as before.
import type { Schema } from '../../../src/engine/schema/model';
import { pgErrorAt } from '../sqlstate';
import { OID, TYPE_DISPLAY } from '../types/oids';
import { PG_CAST_ROWS } from '../types/pg-cast-rows';
import type { Typer } from './expression-types';
import type { PgToken } from './lexer';
import { firstInStatement } from './scoped-walk';
import { TYPE_NAMES, typeNameOid } from './type-signatures';
import { firstLocation, tableColumn } from './typed-operators';
import { arrayOidOf, elementOidOf } from '../types/registry';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const CASTS = new Set(PG_CAST_ROWS.map(([, s, t]) => `${s}:${t}`));
/** The string category, whose types convert to and from any other by I/O. */
const STRINGS = new Set<number>([OID.text, OID.varchar, OID.bpchar, OID.name]);
const NUMBERS = new Set<number>([OID.int2, OID.int4, OID.int8, OID.float4, OID.float8, OID.numeric]);
/** The built-in scalar types Patina names (domains, enums and arrays are left to the translation). */
const CHECKED = new Set<number>(Object.values(TYPE_NAMES));

/**
 * Whether PostgreSQL has an explicit cast from `source` to `target`; true when either is not a type
 * this checks (0, a domain, an enum, a type Patina does not name). An array casts to an array when
 * its element casts to the element; an array and a scalar only through a string type.
 */
export function castExists(source: number, target: number): boolean {
  if (source === target || STRINGS.has(source) || STRINGS.has(target)) return true;
  const [se, te] = [elementOidOf(source), elementOidOf(target)];
  const checked = (t: number, e: number | undefined) => CHECKED.has(e ?? t);
  if (!checked(source, se) || !checked(target, te)) return true;
  if (se !== undefined && te !== undefined) return castExists(se, te);
  if (se !== undefined || te !== undefined) return false;
  return CASTS.has(`${source}:${target}`);
}

/** The pairs PostgreSQL converts in an assignment: pg_cast's implicit and assignment rows. */
const ASSIGNMENTS = new Set(PG_CAST_ROWS.filter((r) => r[4] !== 'e').map(([, s, t]) => `${s}:${t}`));

/**
 * Whether PostgreSQL assigns a value of the scalar type `source` to a column of the scalar type
 * `target` (find_coerce_pathway in an assignment): the same type, anything into a string type (by
 * I/O), or an implicit or assignment row of pg_cast; true when either is not a type this checks.
 * From a string type only the explicit cast converts: text into an integer column is refused.
 */
export function assignmentExists(source: number, target: number): boolean {
  if (source === target || STRINGS.has(target)) return true;
  if (!CHECKED.has(source) || !CHECKED.has(target)) return true;
  return ASSIGNMENTS.has(`${source}:${target}`);
}

/** Whether the statement may cast: a `::` or a CAST. */
export function mayCast(sig: readonly PgToken[]): boolean {
  return sig.some(
    (t) => (t.type === 'op' && t.text === '::') || (t.type === 'word' && t.text.toUpperCase() === 'CAST'),
  );
}

/**
 * Throws 42846 for the first cast of the statement (innermost first, as PostgreSQL transforms) that
 * PostgreSQL has no path for. `text` is `tokens` joined by single spaces (the tree's offsets are in it).
 */
export function checkCastPaths(text: string, tokens: readonly PgToken[], schema: Schema, declared: number[]): void {
  const bad = firstInStatement(text, tokens, schema, (n, t) => missingCast(n, t, declared));
  if (!bad) return;
  const { source, target } = bad.found;
  throw pgErrorAt('42846', `cannot cast type ${TYPE_DISPLAY[source]} to ${TYPE_DISPLAY[target]}`, bad.at);
}

interface Missing {
  source: number;
  target: number;
  location: number;
}

/** The cast at `n` when PostgreSQL has no path for it (firstInScope's visit). */
function missingCast(n: Node, t: Typer, declared: number[]): Missing | null {
  if (n.TypeCast) {
    const target = typeNameOid(n.TypeCast.typeName);
    const arg = n.TypeCast.arg;
    // ARRAY[...]::t[] casts each element to t, and an element that cannot be is the error, at it
    if (arg?.A_ArrayExpr && elementOidOf(target) !== undefined)
      return missingElement(arg.A_ArrayExpr.elements ?? [], elementOidOf(target)!, t, declared);
    const source = knownType(arg, t, declared);
    if (!castExists(source, target)) return { source, target, location: n.TypeCast.location };
  }
  return null;
}

/** The first element of ARRAY[...] (nested ones' too) with no cast to `target`, at the element. */
function missingElement(elements: Node[], target: number, typer: Typer, declared: number[]): Missing | null {
  for (const e of elements) {
    const f = e?.A_ArrayExpr
      ? missingElement(e.A_ArrayExpr.elements ?? [], target, typer, declared)
      : castExists(knownType(e, typer, declared), target)
        ? null
        : { source: knownType(e, typer, declared), target, location: firstLocation(e) };
    if (f) return f;
  }
  return null;
}

/**
 * A column's type as PostgreSQL has it: an INTEGER or SMALLINT column, which Patina keeps as int8, is
 * the type it is declared (`flag::bool` of an INTEGER column is int4's cast, which PostgreSQL has;
 * an error naming the argument says `integer`), and so is an INTEGER[] or SMALLINT[] one (`integer[]`).
 */
export function declaredColumnType(ref: Node, typer: Typer): number {
  const column = tableColumn(ref.ColumnRef, typer);
  const written = column?.type.trim().toLowerCase() ?? '';
  const array = /\[\s*\]$/.test(written);
  const declared = TYPE_NAMES[array ? written.replace(/\[\s*\]$/, '').trim() : written];
  if (declared !== OID.int4 && declared !== OID.int2) return typer.type(ref);
  return array ? (arrayOidOf(declared) ?? typer.type(ref)) : declared;
}

/** The type of an operand the tree tells for certain, 0 otherwise. */
function knownType(n: Node, typer: Typer, declared: number[]): number {
  if (!n) return 0;
  // (a string literal is of type unknown, which its target's input function reads)
  if (n.A_Const) return n.A_Const.sval !== undefined || n.A_Const.isnull ? 0 : typer.type(n);
  if (n.TypeCast) return typeNameOid(n.TypeCast.typeName);
  // ARRAY[1, 2]: an array of its elements' type, when each tells it
  if (n.A_ArrayExpr?.elements?.length > 0 && n.A_ArrayExpr.elements.every((e: Node) => knownType(e, typer, declared)))
    return typer.type(n);
  if (n.ColumnRef) return tableColumn(n.ColumnRef, typer) ? declaredColumnType(n, typer) : 0;
  if (n.ParamRef) return declared[n.ParamRef.number - 1] ?? 0;
  // -32768::int2, -2.5::float8: the sign applied to a number of that type
  const e = n.A_Expr;
  if (e?.kind === 'AEXPR_OP' && !e.lexpr && ['-', '+'].includes(e.name?.at(-1)?.String?.sval)) {
    const inner = knownType(e.rexpr, typer, declared);
    return NUMBERS.has(inner) ? inner : 0;
  }
  return 0;
}
