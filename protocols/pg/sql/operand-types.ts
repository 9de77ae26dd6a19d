// Operators PostgreSQL has no form of for their operands' types, which SQLite's loose typing runs:
// arithmetic of text or a boolean (`name + 1` was 1, `b + 1` 2), a text, name, date or time
// compared with a number (`d = 5` was false, `ts > 5` true), `||` of two numbers (`1 || 2` was
// '12'), a date compared with text (`d < name`), an integer with a subquery's text (`id IN (SELECT
// name ...)`). PostgreSQL's 42883 `operator does not exist: text + integer` at the operator, with its
// HINT. Values given one type (COALESCE, CASE, VALUES, UNION) of two type categories: its 42804.
// A column declared with no type (or one Patina shows as text for want of another: ANY) holds what
// SQLite stores and is not judged: only one declared TEXT, VARCHAR, CHAR or NAME is text here.
import { OID } from '../types/oids';
import { Typer } from './expression-types';
import { type Ctes, type Scope, ctesOf, scopeOf } from './select-types';
import { commonNumber } from './type-signatures';
import { pgError } from '../sqlstate';
import { markComparedLiterals } from './compared-literals';
import { judgedText, tableColumn } from './text-columns';
import { rowTypeOf, rowsMismatch } from './set-operation-rows';
import { commonInstant } from './instant-choices';
import {
  DATETIMES,
  firstLocation,
  literalAsNumber,
  NUMBERS,
  noOperator,
  pgTypeName,
  untyped,
  withSources,
} from './typed-operators';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const STRINGS = new Set<number>([OID.text, OID.varchar, OID.bpchar, OID.name]);
const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);
const ARITHMETIC = new Set(['+', '-', '*', '/']);
/** INTEGER and SMALLINT columns, int8 here, are named as PostgreSQL declares them. */
const INT4_DECL = /^\s*(int|integer|int4)\s*$/i;
const INT2_DECL = /^\s*(smallint|int2)\s*$/i;

/**
 * An operand's type as PostgreSQL's operator resolution sees it: -1 for an untyped string literal
 * or parameter (`unknown`), 0 where it is not known here or not judged (a column of no declared
 * text type holding text), an INTEGER column int4.
 */
function operandType(n: Node, typer: Typer, declared: number[]): number {
  if (untyped(n, declared)) return -1;
  // a scalar subquery: its column's type, by the same rule (`id = (SELECT name FROM t)`)
  if (n?.SubLink?.subLinkType === 'EXPR_SUBLINK') {
    const t = typer.type(n);
    return subqueryColumn(n.SubLink.subselect, typer) || (STRINGS.has(t) ? 0 : t);
  }
  const t = n.ParamRef ? (declared[n.ParamRef.number - 1] ?? 0) : typer.type(n);
  if (!n.ColumnRef || (!STRINGS.has(t) && t !== OID.int8)) return t;
  if (t !== OID.int8) return judgedText(n.ColumnRef, typer) ? t : 0;
  const decl = tableColumn(n.ColumnRef, typer)?.type ?? '';
  return INT4_DECL.test(decl) ? OID.int4 : INT2_DECL.test(decl) ? OID.int2 : t;
}

/**
 * A one-column subquery's type as operandType reads it, in the subquery's own FROM list (then the
 * outer query's); 0 where it is not known here.
 */
function subqueryColumn(sub: Node, typer: Typer): number {
  const s = sub?.SelectStmt;
  if (!s || (s.op && s.op !== 'SETOP_NONE') || s.valuesLists || s.targetList?.length !== 1) return 0;
  const v = s.targetList[0].ResTarget?.val;
  // (an untyped literal there is text, as PostgreSQL resolves a subquery's column)
  if (v?.A_Const?.sval !== undefined) return OID.text;
  if (!v || v.A_Const || v.ColumnRef?.fields?.some((f: Node) => f.A_Star)) return 0;
  // (the subquery's FROM list alone first: its names hide the outer query's)
  const ctes = ctesOf(s.withClause, typer.schema);
  const scope: Scope = new Map();
  scopeOf(s.fromClause, scope, typer.schema, ctes);
  const own = new Typer(typer.schema, scope);
  const inner = v.ColumnRef && !own.type(v) ? withSources(typer, s.fromClause ?? [], ctes) : own;
  return Math.max(operandType(v, inner, []), 0);
}

/**
 * `x IN (SELECT ...)`, `x < ALL (SELECT ...)`: PostgreSQL's operator of the value and the subquery's
 * column, 42883 at IN (or the operator) where it has none of their types (`id IN (SELECT name ...)`).
 */
export function checkSubqueryOperands(sub: Node, typer: Typer, declared: number[]): void {
  if (sub.subLinkType !== 'ANY_SUBLINK' && sub.subLinkType !== 'ALL_SUBLINK') return;
  if (!sub.testexpr || sub.testexpr.RowExpr) return;
  const op = sub.operName?.[sub.operName.length - 1]?.String?.sval ?? '=';
  const rexpr = { SubLink: { subLinkType: 'EXPR_SUBLINK', subselect: sub.subselect } };
  checkOperandTypes(op, { lexpr: sub.testexpr, rexpr, location: sub.location }, typer, declared);
}

/**
 * `id = ANY (ARRAY['1', '2'])`: an ARRAY of string literals alone is text[] in PostgreSQL, and a
 * number, date or time has no operator with text: its 42883 `operator does not exist: integer = text`
 * at the operator (SQLite compared the texts and found the row).
 */
export function checkArrayOfText(e: Node, typer: Typer, declared: number[]): void {
  const items: Node[] | undefined = e.rexpr?.A_ArrayExpr?.elements;
  if (!items?.length || !items.every((a) => a?.A_Const?.sval !== undefined)) return;
  const op = e.name?.[e.name.length - 1]?.String?.sval;
  if (!COMPARISONS.has(op)) return;
  const l = operandType(e.lexpr, typer, declared);
  if (!NUMBERS.has(l) && !DATETIMES.has(l)) return;
  const err = noOperator(l, op === '!=' ? '<>' : op, OID.text);
  (err as { location?: number }).location = e.location;
  throw err;
}

/** An operand's type as PostgreSQL declares it (an INTEGER column int4), 0 where not known here. */
export function declaredNumber(n: Node, typer: Typer): number {
  return operandType(n, typer, []);
}

/**
 * Throws PostgreSQL's 42883 for `l op r` (an A_Expr) when PostgreSQL has no such operator of
 * these operand types and SQLite would run it.
 */
export function checkOperandTypes(op: string, e: Node, typer: Typer, declared: number[]): void {
  if (!ARITHMETIC.has(op) && !COMPARISONS.has(op) && op !== '||') return;
  // (a parameter in arithmetic with an untyped string or another parameter: `declared` holds the
  // type the tree gave it, but PostgreSQL sees two unknowns there, its 42725 at Parse, untyped-params.ts)
  const loose = (n: Node) => n?.ParamRef !== undefined || n?.A_Const?.sval !== undefined;
  if (ARITHMETIC.has(op) && (e.lexpr?.ParamRef || e.rexpr?.ParamRef) && loose(e.lexpr) && loose(e.rexpr)) return;
  const l = operandType(e.lexpr, typer, declared);
  const r = operandType(e.rexpr, typer, declared);
  if (l === 0 || r === 0) return;
  // (jsonb less a key, and an untyped value less text, jsonb's `-`: PostgreSQL reads the value as jsonb)
  if (op === '-' && (l === OID.jsonb || (l === -1 && STRINGS.has(r)))) return;
  const refused = (a: number, b: number) => {
    // text or a boolean in arithmetic: PostgreSQL has none of either, beside anything
    if (ARITHMETIC.has(op)) return STRINGS.has(a) || a === OID.bool;
    // two numbers or booleans joined (`1 || 2`): || takes text or an array on a side
    if (op === '||') return (NUMBERS.has(a) || a === OID.bool) && (NUMBERS.has(b) || b === OID.bool);
    // text, a name, a date or time compared with a number; a date or time compared with text
    return (NUMBERS.has(b) && (STRINGS.has(a) || DATETIMES.has(a))) || (STRINGS.has(b) && DATETIMES.has(a));
  };
  if (!refused(l, r) && !refused(r, l)) return;
  const err = noOperator(Math.max(l, 0), op === '!=' ? '<>' : op, Math.max(r, 0));
  (err as { location?: number }).location = e.location;
  throw err;
}

/**
 * Untyped string literals among numbers where PostgreSQL gives them all one type (`ARRAY[1, 'a']`,
 * `nullif('a', 1)`, a VALUES column, an IN list, COALESCE, CASE): read as the numbers' common type,
 * marked `num:` with the number; 22P02 `invalid input syntax for type integer: "a"` at the literal
 * where one is none (SQLite kept the text beside the numbers). Nothing where a value of another
 * type, or of one not known here, is among them.
 */
export function numberLiterals(items: Node[], typer: Typer, out: Map<number, string>): void {
  const lits = items.filter((a) => a?.A_Const?.sval !== undefined);
  if (lits.length === 0) return;
  let type = 0;
  for (const a of items) {
    if (!a || a.A_Const?.sval !== undefined || a.A_Const?.isnull) continue;
    const t = operandType(a, typer, []);
    // (an untyped parameter takes the common type, as the literals do: `x BETWEEN 'a' AND $1`)
    if (t === -1) continue;
    if (!NUMBERS.has(t)) return;
    type = type ? commonNumber(type, t) : t;
  }
  if (!type) return;
  for (const lit of lits) {
    let v: string;
    try {
      v = literalAsNumber(lit.A_Const.sval.sval ?? '', type);
    } catch (err) {
      (err as { location?: number }).location = lit.A_Const.location;
      throw err;
    }
    out.set(lit.A_Const.location, `num:${v}`);
  }
}

/** PostgreSQL's type categories (pg_type.typcategory) of the types judged here. */
function category(t: number): string {
  if (NUMBERS.has(t)) return 'N';
  if (STRINGS.has(t)) return 'S';
  if (t === OID.bool) return 'B';
  if (t === OID.interval) return 'T';
  return DATETIMES.has(t) ? 'D' : '';
}

/**
 * Values PostgreSQL gives one type (COALESCE's, GREATEST's and LEAST's arguments, a CASE's results
 * with its ELSE first, a VALUES column), as its select_common_type resolves them: a typed value of
 * another category than those before (`coalesce(id, name)`, integer beside text) is 42804 `COALESCE
 * types integer and text cannot be matched` at it (SQLite's loose typing ran them). Nothing where a
 * value's type is not known here or not judged (a column declared with no type).
 */
export function checkCommonType(context: string, items: Node[], typer: Typer): void {
  const types = items.map((a) => (!a || a.A_Const?.isnull ? -1 : operandType(a, typer, [])));
  if (types.some((t) => t === 0 || (t > 0 && !category(t)))) return;
  let prev = -1;
  for (let k = 0; k < items.length; k++) {
    const t = types[k];
    if (t === -1 || t === prev) continue;
    if (prev !== -1 && category(t) !== category(prev)) {
      const err = pgError('42804', `${context} types ${pgTypeName(prev)} and ${pgTypeName(t)} cannot be matched`);
      (err as { location?: number }).location = firstLocation(items[k]);
      throw err;
    }
    // (within a category the preferred type wins; the name is all that is reported)
    if (prev === -1 || NUMBERS.has(t)) prev = NUMBERS.has(t) && NUMBERS.has(prev) ? commonNumber(prev, t) : t;
  }
}

/** A set operation's column as resolved so far: its type (-1 `unknown` literals), the literals read as it, the value that gave it. */
type SetColumn = { type: number; lits: Node[]; at: Node; row?: string } | null;

/**
 * A set operation's columns (`SELECT 1 UNION SELECT 'a'`, `SELECT id FROM t UNION SELECT name FROM
 * t`): PostgreSQL resolves each pair of branches, left to right, to a common type, an untyped
 * literal beside a number read as that number (marked `num:`, so `1 UNION '1'` is one row), 22P02
 * at the literal where it is none; two untyped ones are text; values of two categories (integer
 * and text) are 42804 `UNION types integer and text cannot be matched` at the right one. A value
 * whose type is not known here (a column declared with no type, a CTE's) leaves its column alone.
 */
export function setOperationLiterals(s: Node, typer: Typer, out: Map<number, string>): void {
  const first = leftmost(s);
  const width = first?.targetList?.length ?? first?.valuesLists?.[0]?.List?.items?.length ?? 0;
  const ctes = ctesOf(s.withClause, typer.schema);
  for (let k = 0; k < width; k++) {
    const c = setColumn(s, k, typer, ctes);
    if (c && c.type > 0 && NUMBERS.has(c.type))
      for (const lit of c.lits)
        out.set(lit.A_Const.location, `num:${literalAsNumber(lit.A_Const.sval.sval ?? '', c.type)}`);
    // (beside a boolean: read as one, 'yes' true; 22P02 at a literal that is none; beside a date,
    // time or timestamp as that type stores it, '2024-5-6' 2024-05-06; 22007 at one that is none)
    if (c && (c.type === OID.bool || SET_DATETIMES.has(c.type)))
      for (const lit of c.lits)
        try {
          markComparedLiterals([lit], c.type, out);
        } catch (err) {
          const e = err as { sqlstate?: string; message: string };
          const placed = pgError(e.sqlstate ?? '22P02', e.message);
          (placed as { location?: number }).location = lit.A_Const.location;
          throw placed;
        }
  }
}

function leftmost(s: Node): Node {
  return s?.op && s.op !== 'SETOP_NONE' ? leftmost(s.larg) : s;
}

const SET_OPERATIONS: Record<string, string> = {
  SETOP_UNION: 'UNION',
  SETOP_INTERSECT: 'INTERSECT',
  SETOP_EXCEPT: 'EXCEPT',
};

/** The date and time types whose literals a set operation's column reads as its (compared-literals.ts). */
const SET_DATETIMES = new Set<number>([OID.date, OID.timestamp, OID.timestamptz, OID.time]);

/**
 * A VALUES branch's column: typed as PostgreSQL resolves the VALUES list first, its untyped literals
 * alone text (`EXCEPT VALUES ('x')` beside a number is 42804, no position: the list's column has
 * none); null where a value's type is not known here or its rows' categories differ (VALUES' own check).
 */
function valuesColumn(s: Node, k: number, typer: Typer): SetColumn {
  let type = 0;
  for (const row of s.valuesLists) {
    const v = row.List?.items?.[k];
    if (!v) return null;
    if (v.A_Const?.isnull || v.A_Const?.sval !== undefined) continue;
    const t = operandType(v, typer, []);
    if (t <= 0 || !category(t) || (type && category(t) !== category(type))) return null;
    type = type && NUMBERS.has(t) ? commonNumber(type, t) : type || t;
  }
  const literal = s.valuesLists.some((row: Node) => row.List?.items?.[k]?.A_Const?.sval !== undefined);
  return type || literal ? { type: type || OID.text, lits: [], at: null } : null;
}

function setColumn(s: Node, k: number, typer: Typer, ctes: Ctes): SetColumn {
  if (!s) return null;
  if ((!s.op || s.op === 'SETOP_NONE') && s.valuesLists && !s.withClause) return valuesColumn(s, k, typer);
  if (!s.op || s.op === 'SETOP_NONE') {
    const v = s.valuesLists || s.withClause ? null : s.targetList?.[k]?.ResTarget?.val;
    if (!v || v.ColumnRef?.fields?.some((f: Node) => f.A_Star)) return null;
    if (v.A_Const?.sval !== undefined) return { type: -1, lits: [v], at: v };
    // (a bare NULL is as untyped as a literal: `SELECT NULL UNION SELECT 'a'` is text)
    if (v.A_Const?.isnull) return { type: -1, lits: [], at: v };
    // (the branch's own FROM list types its columns)
    const scope: Scope = new Map();
    if (!v.A_Const) scopeOf(s.fromClause, scope, typer.schema, ctes);
    const branch = v.A_Const ? typer : new Typer(typer.schema, scope);
    // (a whole row: a table's row type or a record, set-operation-rows.ts)
    const row = rowTypeOf(v, branch);
    if (row) return { type: OID.record, lits: [], at: v, row };
    const t = operandType(v, branch, []);
    return t > 0 && category(t) ? { type: t, lits: [], at: v } : null;
  }
  const l = setColumn(s.larg, k, typer, ctes);
  const r = setColumn(s.rarg, k, typer, ctes);
  if (!l || !r) return null;
  if (l.row || r.row) {
    // (a row beside an untyped literal is of the row's type; beside another type or row, its error)
    if (l.type === -1 || r.type === -1) return l.type === -1 ? r : l;
    const [ln, rn] = [l, r].map((c) => ({ row: c.row, typeName: pgTypeName(c.type) }));
    const err = rowsMismatch(SET_OPERATIONS[s.op] ?? 'UNION', ln, rn, firstLocation(r.at));
    if (err) throw err;
    return l;
  }
  // (two untyped branches are text, as PostgreSQL resolves them)
  if (l.type === -1 && r.type === -1) return { type: OID.text, lits: [], at: l.at };
  if (l.type > 0 && r.type > 0 && category(l.type) !== category(r.type)) {
    const context = SET_OPERATIONS[s.op] ?? 'UNION';
    const err = pgError('42804', `${context} types ${pgTypeName(l.type)} and ${pgTypeName(r.type)} cannot be matched`);
    if (r.at) (err as { location?: number }).location = firstLocation(r.at);
    throw err;
  }
  const type =
    l.type === -1
      ? r.type
      : r.type === -1
        ? l.type
        : NUMBERS.has(l.type)
          ? commonNumber(l.type, r.type)
          : commonInstant(l.type, r.type) || l.type; // (a date beside a timestamp is a timestamp)
  // (of two date or time types the literals are left: a date beside a timestamp is a timestamp)
  const datetime = SET_DATETIMES.has(type) && (l.type === -1 || r.type === -1 || l.type === r.type);
  if (type === OID.bool || datetime) return { type, lits: [...l.lits, ...r.lits], at: l.type === -1 ? r.at : l.at };
  if (!NUMBERS.has(type)) return { type, lits: [], at: l.type === -1 ? r.at : l.at };
  const lits = [...l.lits, ...r.lits];
  for (const lit of lits)
    try {
      literalAsNumber(lit.A_Const.sval.sval ?? '', type);
    } catch (err) {
      (err as { location?: number }).location = lit.A_Const.location;
      throw err;
    }
  return { type, lits, at: l.type === -1 ? r.at : l.at };
}
