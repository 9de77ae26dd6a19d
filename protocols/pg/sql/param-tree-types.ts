// The type of each $n from where it stands in PostgreSQL's parse tree, as PostgreSQL resolves a
// parameter the client sent no type for: the type of what it is compared with (`=`, `<`, IN lists,
// BETWEEN, IS DISTINCT FROM, a row's field; the array of it for `= ANY($1)`), combined with by
// arithmetic, assigned to (INSERT's VALUES and SELECT, UPDATE SET, ON CONFLICT SET), cast to; text
// for LIKE and the string functions; bool for a condition; int8 for LIMIT and OFFSET; the type of a
// CASE's or COALESCE's other branches. Clients such as asyncpg encode each argument by the type
// ParameterDescription names, so a parameter left `text` made `d BETWEEN $1 AND $2` refuse a datetime.
// 0 where the tree does not tell; param-types.ts's reading of the tokens then has its say. Where
// PostgreSQL makes an unknown text and then finds no operator for it (`id = ANY(ARRAY[$1, $2])`,
// `id IN (SELECT $1)`, `CASE $1 WHEN 1`), or an unknown beside a type with no arithmetic (`$1 +
// bool_col`), the analysis fails with its 42883 (refuse), as there.
import { textSearchOperandType } from './text-search-operators';
import { parseTree } from './parse';
import type { Schema } from '../../../src/engine/schema/model';
import { OID, oidOfDeclType } from '../types/oids';
import { elementOidOf } from '../types/registry';
import { Typer, withParamTypes } from './expression-types';
import { type Ctes, type Scope, ctesOf, scopeOf } from './select-types';
import { commonNumber, isNumber, strings, typeNameOid } from './type-signatures';
import { noOperator, pgTypeName, unknownDateOperand } from './typed-operators';
import { pgError } from '../sqlstate';
import { arrayInArithmetic } from './array-arithmetic';
import { declaredColumnType } from './cast-paths';
import { signatureParamTypes } from './signature-params';
import { ARRAY_OPERATORS, type ParamSink, anyOperands, arrayFunctionParams, arrayOperands } from './array-param-types';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const COMPARE = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', '+', '-', '*', '/', '%']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);
const TEXT_OPS = new Set(['~~', '~~*', '!~~', '!~~*', '~', '~*', '!~', '!~*']);
/** The type of the operand beside a jsonb for jsonb's operators, as PostgreSQL resolves an unknown one. */
const JSONB_OPERANDS: Record<string, number> = {
  '@>': OID.jsonb,
  '<@': OID.jsonb,
  '||': OID.jsonb,
  '?': OID.text,
  '->': OID.text,
  '->>': OID.text,
  '-': OID.text,
  '?|': OID.textArray,
  '?&': OID.textArray,
  '#>': OID.textArray,
  '#>>': OID.textArray,
  '#-': OID.textArray,
  '@?': OID.jsonpath,
  '@@': OID.jsonpath,
};
const DATETIMES = new Set<number>([OID.date, OID.time, OID.timestamp, OID.timestamptz, OID.interval]);
/** Functions whose parameters are text. */
const TEXT_ARGUMENT_FUNCTIONS = new Set([
  'lower',
  'upper',
  'trim',
  'btrim',
  'ltrim',
  'rtrim',
  'length',
  'char_length',
  'initcap',
  'md5',
  'reverse',
  'strpos',
  'starts_with',
  'replace',
]);

/**
 * Functions whose unknown argument PostgreSQL resolves to a double (of their numeric and double
 * forms, the preferred type of the numeric category): `abs($1)`, `sqrt($1)`, `to_timestamp($1)`;
 * `round($1)` too, while `round($1, 2)` is numeric's only (they were text).
 */
const FLOAT_ARGUMENT_FUNCTIONS = new Set([
  'abs',
  'ceil',
  'ceiling',
  'floor',
  'sign',
  'sqrt',
  'cbrt',
  'exp',
  'ln',
  'degrees',
  'radians',
  'to_timestamp',
]);

/** The string types, which an unknown made text is compared with (`tx = ANY(ARRAY[$1, $2])`). */
const STRINGS = new Set<number>([OID.text, OID.varchar, OID.bpchar, OID.name]);
/** A window frame in RANGE mode (parsenodes.h), whose offsets are of its ORDER BY key's type. */
const FRAMEOPTION_RANGE = 0x2;
/** Types with no `+`, `-`, `*`, `/` or `%` of any operand. */
const NO_ARITHMETIC = new Set<number>([OID.bool, ...STRINGS]);

/**
 * The parameters' types (declared ones kept); null when the text does not parse. Throws PostgreSQL's
 * 42883 (with the tree's `location`) where an unknown it makes text is compared with another type
 * (ParamWalker.refuse).
 */
export function treeParamTypes(sql: string, schema: Schema, n: number, declared: number[]): number[] | null {
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return null;
  }
  const types = Array.from({ length: n }, (_, i) => declared[i] ?? 0);
  const walker = new ParamWalker(schema, types);
  // twice, so that `$1 = $2 AND $2 = a` types both
  // (the last pass gives text to what nothing else typed where PostgreSQL does: array_append($1, $2))
  for (let pass = 0; pass < 2; pass++) {
    walker.last = pass === 1;
    for (const s of tree.stmts ?? []) walker.walk(s.stmt, new Typer(schema, new Map()));
  }
  if (walker.refusal) throw walker.refusal;
  return types;
}

class ParamWalker {
  last = false;
  /** Parameters PostgreSQL made text by their first use, `$1 = ANY($2)` of unknowns (numbers from 1). */
  textByUse = new Set<number>();
  /** The first use PostgreSQL refuses (see refuseText), found on the first pass, in its order of analysis. */
  refusal: Error | null = null;

  constructor(
    readonly schema: Schema,
    readonly types: number[],
  ) {}

  /**
   * The type of an expression: a parameter's as found so far, else the typer's, reading the
   * parameters found so far (`array_append($1, 1) || $2`: $2 of the call's int4[]).
   */
  typeOf(typer: Typer, x: Node): number {
    if (x?.ParamRef) return this.types[x.ParamRef.number - 1] ?? 0;
    return withParamTypes(this.types, () => typer.type(x));
  }

  /** typeOf and assign for the helpers of array-param-types.ts. */
  sink(typer: Typer): ParamSink {
    return { typeOf: (x) => this.typeOf(typer, x), assign: (x, oid) => this.assign(x, oid) };
  }

  /** Whether `x` is a parameter nothing has typed yet (on the first pass: none before it, in the walk's order). */
  untyped(x: Node): boolean {
    return !this.last && x?.ParamRef !== undefined && this.types[x.ParamRef.number - 1] === 0;
  }

  /**
   * An unknown PostgreSQL made text (an ARRAY of unknowns only, a subquery's bare item, a simple
   * CASE's operand) compared with `other`, of a type with no operator with text: its 42883 at
   * `location` (`bigint = text`; `text` on the left when `textLeft`). Patina typed the parameter by
   * the other side and ran the statement.
   */
  refuseText(other: number, op: string, location: number | undefined, textLeft = false): void {
    if (other === 0 || STRINGS.has(other)) return;
    if (textLeft) this.refuse(OID.text, op, other, location);
    else this.refuse(other, op, OID.text, location);
  }

  /** PostgreSQL's 42883 for `l op r` (0: unknown) at `location`, unless one was found before. */
  refuse(l: number, op: string, r: number, location: number | undefined): void {
    if (this.refusal) return;
    const err = noOperator(l, op, r);
    (err as { location?: number }).location = location ?? 0;
    this.refusal = err;
  }

  /** Whether the one column of a subquery is an unknown PostgreSQL makes text (`(SELECT $1)`: madeText). */
  bareItem(sub: Node): boolean {
    return width(sub) === 1 && this.madeText(sub, 0, sub);
  }

  /**
   * Whether column `i` of subquery `sub` is unknowns only, which PostgreSQL makes text when the
   * subquery ends: a parameter nothing typed (its only use in `root`), a UNION of such and string
   * literals (`IN (SELECT $1 UNION SELECT $2)`), or the column of a subquery in FROM that is one
   * (`(SELECT x FROM (SELECT $1 AS x) s)`).
   */
  madeText(sub: Node, i: number, root: Node): boolean {
    const s = sub?.SelectStmt;
    if (!s || s.valuesLists) return false;
    if (s.op && s.op !== 'SETOP_NONE') {
      const leaves = leavesOf(s);
      const items = leaves.map((l) => (l.valuesLists ? undefined : l.targetList?.[i]?.ResTarget?.val));
      // (each branch's parameter its only use in that branch: `SELECT $1 UNION SELECT $1` is text too)
      const param = (x: Node, k: number) => this.untyped(x) && uses(leaves[k], x.ParamRef.number) === 1;
      return items.every((x, k) => param(x, k) || x?.A_Const?.sval !== undefined) && items.some(param);
    }
    const item = s.targetList?.[i]?.ResTarget?.val;
    if (this.untyped(item)) return uses(root, item.ParamRef.number) === 1;
    // a column of a subquery in FROM, by its name (qualified by the subquery's alias or not)
    const fields: string[] = (item?.ColumnRef?.fields ?? []).map((f: Node) => f?.String?.sval);
    if (fields.length === 0 || fields.length > 2 || fields.some((f) => f === undefined)) return false;
    const name = fields[fields.length - 1];
    // (used elsewhere in this query, `WHERE x > 1`, PostgreSQL refuses that use first: left as it was)
    if (columnUses({ ...s, fromClause: undefined }, name) !== 1) return false;
    for (const from of s.fromClause ?? []) {
      const r = from?.RangeSubselect;
      if (!r || (fields.length === 2 && r.alias?.aliasname !== fields[0])) continue;
      const inner = r.subquery?.SelectStmt;
      const first = inner?.op && inner.op !== 'SETOP_NONE' ? leavesOf(inner)[0] : inner;
      const k = (first?.targetList ?? []).findIndex((t: Node) => t.ResTarget?.name === name);
      if (k >= 0 && !r.alias?.colnames) return this.madeText(r.subquery, k, root);
    }
    return false;
  }

  /** Gives `x` the type `oid` when it is a parameter not typed yet. */
  assign(x: Node, oid: number): void {
    const k = (x?.ParamRef?.number ?? 0) - 1;
    if (k >= 0 && k < this.types.length && this.types[k] === 0 && oid) this.types[k] = oid;
  }

  /**
   * A value assigned to a column of type `oid`: a parameter takes it; ARRAY[$1, $2] of parameters
   * and string literals alone is a text[] in PostgreSQL (its elements text, whatever the column;
   * assignments.ts refuses it for a column of another array type, as PostgreSQL does).
   */
  assignValue(x: Node, oid: number): void {
    const elements: Node[] | undefined = x?.A_ArrayExpr?.elements;
    if (elements?.length && elements.every((e) => e.ParamRef || e.A_Const?.sval !== undefined || e.A_Const?.isnull))
      for (const e of elements) this.assign(e, OID.text);
    else this.assign(x, oid);
  }

  /**
   * Each of `xs` that is a parameter takes the type the others resolve to: one type, numbers
   * promoted (`a IN ($1, 5)`), a string literal yielding to the other type; none when they disagree.
   */
  together(typer: Typer, xs: Node[]): void {
    this.togetherIn(
      typer,
      xs.map(() => typer),
      xs,
    );
  }

  /** together() of expressions each of its own query (`typers[i]` types `xs[i]`): a set operation's column. */
  togetherIn(typer: Typer, typers: Typer[], xs: Node[]): void {
    let common = 0;
    for (const [i, x] of xs.entries()) {
      const t = this.typeOf(typers[i] ?? typer, x);
      if (t === 0 || t === common || (x?.A_Const?.sval !== undefined && common !== 0)) continue;
      if (common === 0 || (common === OID.text && xs.some((y) => y?.A_Const?.sval !== undefined))) common = t;
      else if (isNumber(common) && isNumber(t)) common = commonNumber(common, t);
      else return;
    }
    for (const x of xs) this.assign(x, common);
  }

  /**
   * A parameter beside a jsonb or a date, time or interval, typed by the operator PostgreSQL picks
   * for it: `j @> $1`, `j || $1` jsonb, `j ? $1`, `j -> $1`, `j - $1` text, `j ?| $1`, `j #> $1`
   * text[]; beside a date or time the type PostgreSQL's operator resolution gives an unknown operand
   * (typed-operators.ts' unknownDateOperand: `$1 - now()` timestamptz, `ts + $1` and `$1 + interval`
   * an interval, `interval * $1` a double). True when the operator is one of these.
   */
  operand(typer: Typer, op: string, l: Node, r: Node): boolean {
    const [lt, rt] = [this.typeOf(typer, l), this.typeOf(typer, r)];
    if (lt === OID.jsonb || rt === OID.jsonb) {
      const other = lt === OID.jsonb ? r : l;
      const type = JSONB_OPERANDS[op];
      if (type === undefined) return false;
      // (the key operators take their key on the right only)
      if (other === r || type === OID.jsonb) this.assign(other, type);
      return true;
    }
    // beside a tsvector or tsquery: `vec @@ $1` a tsquery, `q && $1` a tsquery (text-search-operators.ts)
    const search = textSearchOperandType(op, lt) || textSearchOperandType(op, rt);
    if (search) {
      this.assign(textSearchOperandType(op, lt) ? r : l, search);
      return true;
    }
    // (either side: `$1 - now()` is timestamptz - timestamptz, `$1 + interval '1 day'` interval + interval)
    const [forR, forL] = [unknownDateOperand(op, lt, 'r'), unknownDateOperand(op, rt, 'l')];
    if (forR > 0 && r?.ParamRef) this.assign(r, forR);
    else if (forL > 0 && l?.ParamRef) this.assign(l, forL);
    else return false;
    return true;
  }

  /** A table's column types in order, or by the names INSERT lists. */
  targetTypes(relation: Node, cols: Node[] | undefined): number[] {
    const table = this.schema.tables.get(String(relation?.relname ?? '').toLowerCase());
    if (!table) return [];
    const byName = (name: string) => table.columns.find((c) => c.name.toLowerCase() === name);
    if (!cols?.length) return table.columns.map((c) => oidOfDeclType(c.type));
    return cols.map((c) => {
      const col = byName(String(c.ResTarget?.name ?? '').toLowerCase());
      return col ? targetType(oidOfDeclType(col.type), c.ResTarget?.indirection) : 0;
    });
  }

  walk(n: Node, typer: Typer): void {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) this.walk(x, typer);
      return;
    }
    let t = typer;
    if (n.SelectStmt) {
      const s = n.SelectStmt;
      // (a WITH query's columns typed: `WITH x AS (SELECT $1::int AS v) SELECT v + $2 FROM x`, $2 int4)
      t = withSources(typer, s.fromClause ?? [], s.withClause ? ctesOf(s.withClause, this.schema) : undefined);
      this.assign(s.limitCount, OID.int8);
      this.assign(s.limitOffset, OID.int8);
      this.assign(s.whereClause, OID.bool);
      this.assign(s.havingClause, OID.bool);
      // a set operation's or VALUES' column: one type for all its branches or rows (`SELECT id FROM t
      // UNION SELECT $1` is t.id's, `VALUES (1, 2), ($1, 3)` integer; they were text)
      const branches = s.op && s.op !== 'SETOP_NONE' ? rowsOf(s, typer) : s.valuesLists ? rowsOf(s, typer) : [];
      const width = Math.max(0, ...branches.map((b) => b.items.length));
      for (let i = 0; i < width && branches.length > 1; i++)
        this.togetherIn(
          typer,
          branches.map((b) => b.typer),
          branches.map((b) => b.items[i]),
        );
    } else if (n.UpdateStmt) {
      const u = n.UpdateStmt;
      t = withSources(typer, [{ RangeVar: u.relation }, ...(u.fromClause ?? [])]);
      this.assignColumns(u.relation, u.targetList);
      this.assign(u.whereClause, OID.bool);
    } else if (n.DeleteStmt) {
      t = withSources(typer, [{ RangeVar: n.DeleteStmt.relation }, ...(n.DeleteStmt.usingClause ?? [])]);
      this.assign(n.DeleteStmt.whereClause, OID.bool);
    } else if (n.InsertStmt) {
      const ins = n.InsertStmt;
      t = withSources(typer, [
        { RangeVar: ins.relation },
        { RangeVar: { ...ins.relation, alias: { aliasname: 'excluded' } } },
      ]);
      const targets = this.targetTypes(ins.relation, ins.cols);
      const sel = ins.selectStmt?.SelectStmt;
      for (const row of sel?.valuesLists ?? [])
        (row.List?.items ?? []).forEach((x: Node, i: number) => this.assignValue(x, targets[i]));
      (sel?.valuesLists ? [] : (sel?.targetList ?? [])).forEach((r: Node, i: number) =>
        this.assignValue(r.ResTarget?.val, targets[i]),
      );
      this.assignColumns(ins.relation, ins.onConflictClause?.targetList);
    } else if (n.A_Expr?.kind === 'AEXPR_OP' && !n.A_Expr.lexpr && strings(n.A_Expr.name).pop() === '+')
      // a prefix plus, numbers' only: the preferred double (a prefix minus of one is 42725, untyped-params.ts)
      this.assign(n.A_Expr.rexpr, OID.float8);
    else if (n.A_Expr) this.expr(n.A_Expr, typer);
    else if (n.BoolExpr) for (const x of n.BoolExpr.args ?? []) this.assign(x, OID.bool);
    // `$1 IS TRUE`, `IS NOT FALSE`, `IS UNKNOWN`: a boolean's tests (it was text)
    else if (n.BooleanTest) this.assign(n.BooleanTest.arg, OID.bool);
    else if (n.TypeCast) this.assign(n.TypeCast.arg, typeNameOid(n.TypeCast.typeName));
    else if (n.CoalesceExpr) this.together(typer, n.CoalesceExpr.args ?? []);
    else if (n.MinMaxExpr) this.together(typer, n.MinMaxExpr.args ?? []);
    // ARRAY[$1::int, $2]: one element type (of unknown elements only, text: assignValue, the tree's default)
    else if (n.A_ArrayExpr) {
      const elements: Node[] = n.A_ArrayExpr.elements ?? [];
      this.together(typer, elements);
      // (of unknowns only, text[] as PostgreSQL makes it: its parameters text, where they were left
      // open and a binary one read as bytes, `ARRAY[$1, $2]` of asyncpg's 'a' printed `\x61`)
      if (this.last && elements.every((x) => x?.ParamRef || x?.A_Const?.sval !== undefined || x?.A_Const?.isnull))
        for (const x of elements) this.assign(x, OID.text);
    }
    // x IN (SELECT $1), x > ALL (SELECT $1): the subquery's unknown item is text when it ends
    else if (n.SubLink && (n.SubLink.subLinkType === 'ANY_SUBLINK' || n.SubLink.subLinkType === 'ALL_SUBLINK')) {
      const sub = n.SubLink;
      const fields: Node[] = sub.testexpr?.RowExpr?.args ?? [sub.testexpr];
      const items = plainItems(sub.subselect);
      const op = strings(sub.operName).pop() ?? '=';
      const inner = withSources(typer, sub.subselect?.SelectStmt?.fromClause ?? []);
      if (width(sub.subselect) === fields.length)
        fields.forEach((f, i) => {
          // (a subquery that types its item itself, `(SELECT $1 WHERE $1 = 1)`, is 42P08 there: untyped-params.ts)
          if (this.madeText(sub.subselect, i, sub.subselect)) this.refuseText(this.typeOf(typer, f), op, sub.location);
          // `$1 IN (SELECT i4 FROM t)`: the item's type (it was text)
          else if (items.length === fields.length) this.assign(f, this.typeOf(inner, items[i]));
        });
    } else if (n.WindowDef) this.frame(n.WindowDef, typer);
    // a[$1], a[$1:$2]: int4 subscripts
    else if (n.A_Indices) {
      this.assign(n.A_Indices.lidx, OID.int4);
      this.assign(n.A_Indices.uidx, OID.int4);
    } else if (n.CaseExpr) {
      const c = n.CaseExpr;
      const whens: Node[] = (c.args ?? []).map((w: Node) => w.CaseWhen);
      // (an unknown operand is made text before its WHEN values are compared: `CASE $1 WHEN 1` is
      // 42883 `text = integer` at the WHEN)
      if (this.untyped(c.arg))
        for (const w of whens) this.refuseText(this.typeOf(typer, w?.expr), '=', w?.location, true);
      if (c.arg) this.together(typer, [c.arg, ...whens.map((w) => w?.expr)]);
      else for (const w of whens) this.assign(w?.expr, OID.bool);
      this.together(typer, [...whens.map((w) => w?.result), ...(c.defresult ? [c.defresult] : [])]);
    } else if (n.FuncCall) {
      if (n.FuncCall.over) this.frame(n.FuncCall.over, typer);
      const fn = strings(n.FuncCall.funcname).pop()?.toLowerCase() ?? '';
      const args: Node[] = n.FuncCall.args ?? [];
      if (arrayFunctionParams(this.sink(typer), fn, args, this.last)) {
        // (array_append($1, 1) int4[], array_position(a, $1) a's element: array-param-types.ts)
      } else if (TEXT_ARGUMENT_FUNCTIONS.has(fn)) for (const a of args) this.assign(a, OID.text);
      else if (FLOAT_ARGUMENT_FUNCTIONS.has(fn) && args.length === 1) this.assign(args[0], OID.float8);
      else if (fn === 'round') this.assign(args[0], args.length === 1 ? OID.float8 : OID.numeric);
      // percentile_cont($1) WITHIN GROUP (ORDER BY x): a double fraction of a number x (it was text)
      else if ((fn === 'percentile_cont' || fn === 'percentile_disc') && n.FuncCall.agg_within_group)
        this.percentile(typer, n.FuncCall, fn);
      // lag(x, n, default), lead: the default of x's type, the offset an int4 (the default was text)
      else if ((fn === 'lag' || fn === 'lead') && args.length === 3) {
        this.assign(args[1], OID.int4);
        this.assign(args[2], this.typeOf(typer, args[0]));
      }
      // mod(a, b) of one type, as an operator (`mod($1, 3)` is integer's)
      else if (fn === 'mod' && args.length === 2) this.together(typer, args);
      else if (fn === 'generate_series' && (args.length === 2 || args.length === 3)) this.series(typer, args);
      // overlay(s placing r from n [for k]): r of s's type (text where neither tells), n and k int4
      else if (fn === 'overlay' && args.length >= 3) {
        this.together(typer, args.slice(0, 2));
        args.slice(0, 2).forEach((a) => this.last && this.assign(a, OID.text));
        args.slice(2).forEach((a) => this.assign(a, OID.int4));
      }
      // date_bin(stride, source, origin): an interval stride, the timestamps of one type
      // age(a, b): two of one type (`age($1, ts)` ts's; they were text)
      else if (fn === 'date_bin' && args.length === 3) {
        this.assign(args[0], OID.interval);
        this.together(typer, args.slice(1));
      } else if (fn === 'age' && args.length === 2) this.together(typer, args);
      // x AT TIME ZONE z is timezone(z, x): z a text beside a known x, an unknown x the preferred
      // timestamptz (`$1 AT TIME ZONE 'UTC'` was text, which asyncpg refused a datetime for)
      else if (fn === 'timezone' && args.length === 2) {
        this.assign(args[0], OID.text);
        this.assign(args[1], OID.timestamptz);
      } else if (fn === 'date_trunc' || fn === 'date_part' || fn === 'to_char')
        this.assign(args[fn === 'to_char' ? 1 : 0], OID.text);
      else if (fn === 'make_interval')
        // make_interval(years, months, weeks, days, hours, mins int4, secs float8), by position or name
        args.forEach((a, i) => {
          const name = a.NamedArgExpr?.name;
          const secs = name === undefined ? i === 6 : name === 'secs';
          this.assign(a.NamedArgExpr?.arg ?? a, secs ? OID.float8 : OID.int4);
        });
      // and what is left, the type all of pg_proc's signatures of that arity agree on
      // (signature-params.ts: `round(x, $1)` int4, `left($1, $2)` text and int4)
      const types = args.some((a) => a?.NamedArgExpr) ? null : signatureParamTypes(fn, args.length);
      if (types) args.forEach((a, i) => this.assign(a, types[i]));
    }
    for (const k in n) if (k !== 'location') this.walk(n[k], t);
  }

  /**
   * generate_series(start, stop[, step]) as PostgreSQL picks its form for an unknown argument: of
   * timestamps (a bound one, or an interval step) the bound's type, timestamptz when none is known,
   * and an interval step; else the numbers' together (`generate_series(1, $1)` int4,
   * `generate_series(1.5, $1)` numeric). They were text, which asyncpg refused an int for. All
   * unknown is 42725 (untyped-params.ts).
   */
  series(typer: Typer, args: Node[]): void {
    const [start, stop, step] = args;
    const bound = this.typeOf(typer, start) || this.typeOf(typer, stop);
    const stepType = step ? this.typeOf(typer, step) : 0;
    if (bound === OID.timestamp || bound === OID.timestamptz || bound === OID.date || stepType === OID.interval) {
      const type = bound === OID.timestamp ? OID.timestamp : OID.timestamptz;
      this.assign(start, type);
      this.assign(stop, type);
      if (step) this.assign(step, OID.interval);
    } else this.together(typer, args);
  }

  /**
   * ROWS or GROUPS BETWEEN $1 PRECEDING AND $2 FOLLOWING: int8 counts; RANGE's of the ORDER BY key's
   * type when it is a number (`ORDER BY amount RANGE $1 PRECEDING` numeric), as PostgreSQL's in_range
   * of the key's own type takes them (they were text). A date or time key's interval offset is
   * refused where it is not a literal (window-frames.ts).
   */
  frame(w: Node, typer: Typer): void {
    let type: number = OID.int8;
    if (w.frameOptions & FRAMEOPTION_RANGE) {
      const keys: Node[] = w.orderClause ?? [];
      const key = keys.length === 1 ? this.typeOf(typer, keys[0]?.SortBy?.node) : 0;
      if (!isNumber(key)) return;
      // (a real has only double's in_range)
      type = key === OID.float4 ? OID.float8 : key;
    }
    this.assign(w.startOffset, type);
    this.assign(w.endOffset, type);
  }

  /**
   * percentile_cont($1) / percentile_disc($1) WITHIN GROUP (ORDER BY x): of a number x the double
   * fraction; of another x PostgreSQL cannot choose between the fraction's and the array's forms
   * (42725 `function percentile_disc(unknown, text) is not unique`), or percentile_cont, of numbers
   * and intervals only, has none (42883).
   */
  percentile(typer: Typer, call: Node, fn: string): void {
    const fraction = call.args?.[0];
    const key = this.typeOf(typer, call.agg_order?.[0]?.SortBy?.node);
    if (isNumber(key)) this.assign(fraction, OID.float8);
    else if (key !== 0 && this.untyped(fraction) && call.agg_order.length === 1 && !this.refusal) {
      const signature = `function ${fn}(unknown, ${pgTypeName(key)})`;
      const none = fn === 'percentile_cont' && key !== OID.interval;
      const err = none
        ? pgError('42883', `${signature} does not exist`)
        : pgError('42725', `${signature} is not unique`);
      err.hint = `${none ? 'No function matches the given name and argument types' : 'Could not choose a best candidate function'}. You might need to add explicit type casts.`;
      (err as { location?: number }).location = call.location ?? 0;
      this.refusal = err;
    }
  }

  /** SET col = $1 (UPDATE, ON CONFLICT DO UPDATE): the column's type. */
  assignColumns(relation: Node, targets: Node[] | undefined): void {
    const table = this.schema.tables.get(String(relation?.relname ?? '').toLowerCase());
    for (const r of targets ?? []) {
      const name = String(r.ResTarget?.name ?? '').toLowerCase();
      const col = table?.columns.find((c) => c.name.toLowerCase() === name);
      if (!col) continue;
      // SET (a, b) = ($1, $2) or ROW($1, $2): each field the type of its column (they were left
      // open, and a binary int4 sent untyped was read as the text of its four bytes)
      const multi = r.ResTarget.val?.MultiAssignRef;
      const value = multi ? multi.source?.RowExpr?.args?.[multi.colno - 1] : r.ResTarget.val;
      this.assignValue(value, targetType(oidOfDeclType(col.type), r.ResTarget.indirection));
    }
  }

  expr(e: Node, typer: Typer): void {
    const op = strings(e.name).pop() ?? '';
    const items = (x: Node): Node[] => (Array.isArray(x) ? x : (x?.List?.items ?? [x]));
    switch (e.kind) {
      case 'AEXPR_OP':
      case 'AEXPR_DISTINCT':
      case 'AEXPR_NOT_DISTINCT':
      case 'AEXPR_NULLIF': {
        if (!e.lexpr || !e.rexpr) return;
        if (TEXT_OPS.has(op)) {
          this.assign(e.lexpr, OID.text);
          this.assign(e.rexpr, OID.text);
          return;
        }
        if (e.kind === 'AEXPR_OP') {
          // nor an array: `arr + $1` is 42883 `integer[] + unknown` (array-arithmetic.ts; $1 was read as an array)
          const [lt, rt] = [e.lexpr, e.rexpr].map((x) =>
            x.ColumnRef ? declaredColumnType(x, typer) : this.typeOf(typer, x),
          );
          if (this.untyped(e.lexpr) && arrayInArithmetic(op, 0, rt)) this.refuse(0, op, rt, e.location);
          if (this.untyped(e.rexpr) && arrayInArithmetic(op, lt, 0)) this.refuse(lt, op, 0, e.location);
        }
        if (e.kind === 'AEXPR_OP' && ARITHMETIC.has(op)) {
          // a boolean or a string has no arithmetic: `$1 + bool_col` is 42883 `unknown + boolean`
          // (Patina typed $1 boolean and ran it)
          const [lt, rt] = [this.typeOf(typer, e.lexpr), this.typeOf(typer, e.rexpr)];
          // (a string literal is unknown too: `'a' + $1` is 42725, untyped-params.ts)
          const known = (x: Node, t: number) => NO_ARITHMETIC.has(t) && x?.A_Const?.sval === undefined;
          if (this.untyped(e.lexpr) && known(e.rexpr, rt)) this.refuse(0, op, rt, e.location);
          if (this.untyped(e.rexpr) && known(e.lexpr, lt)) this.refuse(lt, op, 0, e.location);
        }
        if (e.kind === 'AEXPR_OP' && this.operand(typer, op, e.lexpr, e.rexpr)) return;
        if (e.kind === 'AEXPR_OP' && ARRAY_OPERATORS.has(op) && arrayOperands(this.sink(typer), e.lexpr, e.rexpr))
          return;
        if (e.kind === 'AEXPR_OP' && op === '^') {
          // power has a double and a numeric form: an unknown operand is numeric beside a numeric,
          // else the numbers' preferred double (`2 ^ $1`, `$1 ^ $2`; they were text)
          const [lt, rt] = [this.typeOf(typer, e.lexpr), this.typeOf(typer, e.rexpr)];
          const power = (other: number) => (other === OID.numeric ? OID.numeric : OID.float8);
          if (rt === 0 || isNumber(rt)) this.assign(e.lexpr, power(rt));
          if (lt === 0 || isNumber(lt)) this.assign(e.rexpr, power(lt));
          return;
        }
        if (e.kind === 'AEXPR_OP' && !COMPARE.has(op)) return;
        // x = (SELECT $1): the subquery's unknown item is text when it ends
        if (e.kind === 'AEXPR_OP' && this.bareItem(e.rexpr?.SubLink?.subselect))
          this.refuseText(this.typeOf(typer, e.lexpr), op, e.location);
        if (e.kind === 'AEXPR_OP' && this.bareItem(e.lexpr?.SubLink?.subselect))
          this.refuseText(this.typeOf(typer, e.rexpr), op, e.location, true);
        // (a, b) = ($1, $2): field by field
        if (e.lexpr.RowExpr && e.rexpr.RowExpr) {
          const [l, r] = [e.lexpr.RowExpr.args ?? [], e.rexpr.RowExpr.args ?? []];
          l.forEach((x: Node, i: number) => this.together(typer, [x, r[i]]));
          return;
        }
        const [lt, rt] = [this.typeOf(typer, e.lexpr), this.typeOf(typer, e.rexpr)];
        // (a parameter made text before, `$1 = ANY($2) AND $1 = id`: 42883 `text = bigint`, where
        // Patina typed it by the later use)
        if (this.textByUse.has(e.lexpr?.ParamRef?.number)) this.refuseText(rt, op, e.location, true);
        if (this.textByUse.has(e.rexpr?.ParamRef?.number)) this.refuseText(lt, op, e.location);
        // date and time arithmetic has operands of other types (date + 1, timestamp - interval), and
        // what operand() left is no operator of the type with itself (`$1 * date`: unknown * date, 42883)
        if (ARITHMETIC.has(op) && (DATETIMES.has(lt) || DATETIMES.has(rt))) return;
        this.assign(e.lexpr, rt);
        this.assign(e.rexpr, lt);
        return;
      }
      case 'AEXPR_OP_ANY':
      case 'AEXPR_OP_ALL': {
        // ARRAY[$1, $2] of unknowns only is a text[] (`id = ANY(ARRAY[$1, $2])`: bigint = text)
        const elements: Node[] | undefined = e.rexpr?.A_ArrayExpr?.elements;
        const unknownElement = (x: Node) => this.untyped(x) || x?.A_Const?.sval !== undefined || x?.A_Const?.isnull;
        if (elements?.length && elements.every(unknownElement) && elements.some((x) => this.untyped(x)))
          this.refuseText(this.typeOf(typer, e.lexpr), op, e.location);
        // (two parameters nothing typed yet are text and text[] from here on, in PostgreSQL's order)
        if (this.untyped(e.lexpr) && this.untyped(e.rexpr)) {
          this.textByUse.add(e.lexpr.ParamRef.number);
          this.assign(e.lexpr, OID.text);
          this.assign(e.rexpr, OID.textArray);
        }
        anyOperands(this.sink(typer), e.lexpr, e.rexpr, TEXT_OPS.has(op), this.last);
        return;
      }
      case 'AEXPR_IN': {
        // (a, b) IN (($1, $2), ...): field by field, as each field is compared
        const list = items(e.rexpr);
        const fields: Node[] | undefined = e.lexpr?.RowExpr?.args;
        if (fields && list.every((x: Node) => x?.RowExpr?.args?.length === fields.length)) {
          fields.forEach((f, i) => this.together(typer, [f, ...list.map((x: Node) => x.RowExpr.args[i])]));
          return;
        }
        this.together(typer, [e.lexpr, ...list]);
        return;
      }
      case 'AEXPR_LIKE':
      case 'AEXPR_ILIKE':
      case 'AEXPR_SIMILAR':
        this.assign(e.lexpr, OID.text);
        for (const x of items(e.rexpr)) this.assign(x, OID.text);
        return;
      case 'AEXPR_BETWEEN':
      case 'AEXPR_NOT_BETWEEN':
      case 'AEXPR_BETWEEN_SYM':
      case 'AEXPR_NOT_BETWEEN_SYM': {
        // `x >= low AND x <= high`, compared in that order: `$1 BETWEEN 1 AND 2.5` is int4 by its
        // low bound (it was numeric, the three together), `ts BETWEEN $1 AND $1 + interval '1 day'`
        // ts's type by the first comparison (it was interval by the second)
        const [low, high] = items(e.rexpr);
        // (of two unknowns the first comparison is text's, `$1 BETWEEN $2 AND 3`: then 42883 `text <= integer`)
        const unknown = (x: Node) => this.untyped(x) || x?.A_Const?.sval !== undefined;
        if (unknown(e.lexpr) && unknown(low) && (this.untyped(e.lexpr) || this.untyped(low))) {
          const not = e.kind === 'AEXPR_NOT_BETWEEN' || e.kind === 'AEXPR_NOT_BETWEEN_SYM';
          this.refuseText(this.typeOf(typer, high), not ? '>' : '<=', e.location, true);
          if (this.typeOf(typer, high) !== 0) for (const x of [e.lexpr, low]) this.assign(x, OID.text);
        }
        this.together(typer, [e.lexpr, low]);
        this.together(typer, [e.lexpr, high]);
        // (a bound of a parameter's arithmetic that makes an interval, `ts BETWEEN now() - $1 AND
        // now()`, timestamptz - timestamptz there: 42883 `timestamp without time zone >= interval`)
        const not = e.kind === 'AEXPR_NOT_BETWEEN' || e.kind === 'AEXPR_NOT_BETWEEN_SYM';
        for (const [bound, op] of [
          [low, not ? '<' : '>='],
          [high, not ? '>' : '<='],
        ] as const) {
          const [xt, bt] = [this.typeOf(typer, e.lexpr), this.typeOf(typer, bound)];
          const instant = (t: number) => t === OID.date || t === OID.timestamp || t === OID.timestamptz;
          if (!this.last && bound?.A_Expr && hasParam(bound) && instant(xt) && bt === OID.interval)
            this.refuse(xt, op, bt, e.location);
        }
        return;
      }
    }
  }
}

/** How many times parameter `k` stands in `n`. */
function uses(n: Node, k: number): number {
  if (n === null || typeof n !== 'object') return 0;
  if (n.ParamRef) return n.ParamRef.number === k ? 1 : 0;
  let count = 0;
  for (const v of Array.isArray(n) ? n : Object.values(n)) count += uses(v, k);
  return count;
}

/** Whether a parameter stands in `n`. */
function hasParam(n: Node): boolean {
  if (n === null || typeof n !== 'object') return false;
  if (n.ParamRef) return true;
  return (Array.isArray(n) ? n : Object.values(n)).some(hasParam);
}

/** How many column references in `n` end in `name`. */
function columnUses(n: Node, name: string): number {
  if (n === null || typeof n !== 'object') return 0;
  const fields = n.ColumnRef?.fields;
  if (fields) return fields[fields.length - 1]?.String?.sval === name ? 1 : 0;
  let count = 0;
  for (const v of Array.isArray(n) ? n : Object.values(n)) count += columnUses(v, name);
  return count;
}

/** The plain SELECTs (and VALUES) a set operation is made of, left to right. */
function leavesOf(s: Node): Node[] {
  if (s?.op && s.op !== 'SETOP_NONE') return [...leavesOf(s.larg), ...leavesOf(s.rarg)];
  return [s];
}

/** How many columns a subquery has (its first SELECT's select list), 0 for VALUES or another query. */
function width(sub: Node): number {
  const first = sub?.SelectStmt ? leavesOf(sub.SelectStmt)[0] : undefined;
  return first?.valuesLists ? 0 : (first?.targetList?.length ?? 0);
}

/** The select list of a plain SELECT (no set operation, no VALUES); none for another query. */
function plainItems(sub: Node): Node[] {
  const s = sub?.SelectStmt;
  if (!s || (s.op && s.op !== 'SETOP_NONE') || s.valuesLists) return [];
  return (s.targetList ?? []).map((r: Node) => r.ResTarget?.val);
}

/** The rows a set operation or VALUES makes its columns of: each branch's select list (or VALUES row) with its typer. */
function rowsOf(s: Node, typer: Typer): { typer: Typer; items: Node[] }[] {
  if (s.op && s.op !== 'SETOP_NONE') return [...rowsOf(s.larg ?? {}, typer), ...rowsOf(s.rarg ?? {}, typer)];
  if (s.valuesLists) return s.valuesLists.map((row: Node) => ({ typer, items: row.List?.items ?? [] }));
  const t = withSources(typer, s.fromClause ?? []);
  return [{ typer: t, items: (s.targetList ?? []).map((r: Node) => r.ResTarget?.val) }];
}

function withSources(typer: Typer, sources: Node[], ctes?: Ctes): Typer {
  const scope: Scope = new Map(typer.scope);
  scopeOf(sources, scope, typer.schema, ctes);
  return new Typer(typer.schema, scope);
}

/**
 * The type a value assigned to a column takes: the column's, an element's for `arr[n]` (`SET
 * nums[2] = $1` is int8 of a bigint[] column; it was the array's, and '20' failed as array input).
 */
function targetType(column: number, indirection: Node[] | undefined): number {
  if (!indirection?.length) return column;
  const element = indirection.every((i) => i.A_Indices && !i.A_Indices.is_slice);
  return element ? (elementOidOf(column) ?? 0) : indirection.every((i) => i.A_Indices) ? column : 0;
}
