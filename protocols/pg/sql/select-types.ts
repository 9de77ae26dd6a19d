// The columns of a SELECT (names, types, type modifiers and numeric scales, from PostgreSQL's parse
// tree: its list over its FROM list's sources, a set operation's branches, a VALUES statement) and
// the sources themselves: tables, subqueries, VALUES lists, WITH queries, set-returning functions.
// expression-types.ts types each expression over them.
import { commonInstant } from './instant-choices';
import { parseTree } from './parse';
import { type UsingEdits, jsonbUsingEdits } from './jsonb-using';
import type { Schema } from '../../../src/engine/schema/model';
import { OID, oidOfDeclType, typmodOfDeclType } from '../types/oids';
import { elementOidOf } from '../types/registry';
import { relationNames } from '../types/relation-names';
import { Typer } from './expression-types';
import { isExpandArrayCall } from './expandarray-fields';
import { charTypmodOf, charWidthOf } from './char-widths';
import { noteTextColumn, renamedColumn } from './text-columns';
import { castTypmod, isComputed, keepsOwnScales, minimumScaleOf, scaleOf } from './numeric-scale';
import type { ResultColumn } from './result-types';
import {
  ONE_COLUMN_SET_RETURNING,
  RECORD_SET_RETURNING,
  SCALAR_IN_FROM,
  isNumber,
  commonNumber,
  strings,
  typeNameOid,
} from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/**
 * The sources of a FROM list: alias (or name) → a table name (lower case), or the columns of a
 * subquery or VALUES list in FROM (`(VALUES (1, 'a')) AS v(n, s)`), typed as PostgreSQL types them.
 */
export type Scope = Map<string, string | ResultColumn[]>;

/**
 * The sources that are a function returning one value (`unnest(a) AS u(v)`, `generate_series`):
 * their name alone is that value, of its type, as in PostgreSQL (a record for any other source).
 */
export const SCALAR_SOURCES = new WeakSet<ResultColumn[]>();

/** One column of a function returning a scalar, marked as such (SCALAR_SOURCES). */
function scalarSource(column: ResultColumn): ResultColumn[] {
  const cols = [column];
  SCALAR_SOURCES.add(cols);
  return cols;
}

/** A schema table's columns renamed by its alias's list (`t AS x(a, b)`): the table, whose row x still is. */
export const RENAMED_TABLES = new WeakMap<ResultColumn[], string>();

/** The names a scope's USING and NATURAL joins merge (expression-types.ts: such a name is no ambiguity). */
export const MERGED_NAMES = new WeakMap<Scope, Set<string>>();

export function scopeOf(from: Node[] | undefined, scope: Scope, schema: Schema, ctes: Ctes = NO_CTES): void {
  for (const f of from ?? []) {
    if (f.RangeVar) {
      const rel = String(f.RangeVar.relname).toLowerCase();
      // a WITH query's name (unqualified) is that query's columns
      const cte = f.RangeVar.schemaname ? undefined : ctes.get(rel);
      // `t AS x(a, b)`: the first columns renamed (translate/values-alias.ts reads it so)
      const renamed = strings(f.RangeVar.alias?.colnames);
      const cols = renamed.length > 0 ? sourceColumns(cte ?? rel, schema) : null;
      const listed = cols ? cols.map((c, k) => (k < renamed.length ? renamedColumn(c, renamed[k]) : c)) : null;
      if (listed && !cte) RENAMED_TABLES.set(listed, rel);
      scope.set((f.RangeVar.alias?.aliasname ?? rel).toLowerCase(), listed ?? cte ?? rel);
    } else if (f.JoinExpr) {
      const j = f.JoinExpr;
      const before = new Set(scope.keys());
      scopeOf([j.larg], scope, schema, ctes);
      const middle = new Set(scope.keys());
      scopeOf([j.rarg], scope, schema, ctes);
      if (!j.usingClause && !j.isNatural) continue;
      // (the names a USING or NATURAL join merges: one column each to an unqualified reference)
      const names = (keys: string[]) =>
        new Set(keys.flatMap((k) => (sourceColumns(scope.get(k), schema) ?? []).map((c) => c.name.toLowerCase())));
      const left = names([...middle].filter((k) => !before.has(k)));
      const right = names([...scope.keys()].filter((k) => !middle.has(k)));
      const merged = j.usingClause
        ? strings(j.usingClause).map((n) => n.toLowerCase())
        : [...left].filter((n) => right.has(n));
      const set = MERGED_NAMES.get(scope) ?? new Set<string>();
      for (const n of merged) set.add(n);
      MERGED_NAMES.set(scope, set);
    } else if (f.RangeFunction && f.RangeFunction.functions?.length === 1) {
      const source = functionSource(f.RangeFunction, schema, scope);
      if (source)
        scope.set(source[0], f.RangeFunction.ordinality ? withOrdinality(source[1], f.RangeFunction) : source[1]);
    } else if (f.RangeFunction && f.RangeFunction.functions?.length > 1) {
      // ROWS FROM (f(...), g(...)): each function's column side by side (translate/rows-from.ts)
      const rf = f.RangeFunction;
      const names = strings(rf.alias?.colnames);
      const cols: ResultColumn[] = [];
      for (const fn of rf.functions) {
        const source = functionSource({ functions: [fn] }, schema, scope);
        if (source?.[1].length !== 1) break;
        cols.push({ ...source[1][0], name: names[cols.length] ?? source[1][0].name });
      }
      if (cols.length < rf.functions.length) continue;
      scope.set(
        String(rf.alias?.aliasname ?? '__pg_rows_from').toLowerCase(),
        rf.ordinality ? withOrdinality(cols, rf) : cols,
      );
    } else if (f.RangeSubselect?.alias) {
      const cols = f.RangeSubselect.lateral
        ? lateralColumns(f.RangeSubselect.subquery?.SelectStmt, scope, schema, ctes)
        : subqueryColumns(f.RangeSubselect.subquery?.SelectStmt, schema, ctes);
      if (!cols) continue;
      const names = strings(f.RangeSubselect.alias.colnames);
      scope.set(
        String(f.RangeSubselect.alias.aliasname).toLowerCase(),
        cols.map((c, i) => renamedColumn(c, names[i] ?? c.name)),
      );
    }
  }
}

/**
 * A function in FROM as a source: its alias (or name) and its columns (`generate_series(1, 10) [AS g
 * [(x)]]`, `unnest(array)`: one column, named by the alias or the function); null when not known.
 * Its arguments are typed with the FROM items before it, which they may name (`FROM t,
 * generate_series(1, t.n)` is a bigint series when t.n is a bigint; it was typed int4).
 */
function functionSource(rf: Node, schema: Schema, before: Scope): [string, ResultColumn[]] | null {
  const typer = () => new Typer(schema, new Map(before));
  const item = rf.functions[0]?.List?.items?.[0];
  const call = item?.FuncCall;
  const alias = rf.alias;
  // greatest, least and coalesce are expressions of their own in the tree, not calls
  const form = item?.MinMaxExpr
    ? item.MinMaxExpr.op === 'IS_GREATEST'
      ? 'greatest'
      : 'least'
    : item?.CoalesceExpr
      ? 'coalesce'
      : null;
  if (form) {
    const name = strings(alias?.colnames)[0] ?? alias?.aliasname ?? form;
    return [String(alias?.aliasname ?? form).toLowerCase(), [{ name, oid: typer().type(item) }]];
  }
  const fn = strings(call?.funcname).pop()?.toLowerCase();
  const each = fn && /^jsonb?_each(_text)?$/.exec(fn);
  if (each) {
    // FROM jsonb_each(x) [AS e [(k, v)]]: key text, value jsonb (json, text)
    const value = each[1] ? OID.text : fn.startsWith('jsonb') ? OID.jsonb : OID.json;
    const names = strings(alias?.colnames);
    return [
      String(alias?.aliasname ?? fn).toLowerCase(),
      [
        { name: names[0] ?? 'key', oid: OID.text },
        { name: names[1] ?? 'value', oid: value },
      ],
    ];
  }
  if (fn && /^jsonb?_to_record(set)?$/.test(fn) && rf.coldeflist) {
    // json_to_recordset(x) AS r(a int, b text): the columns the list defines (translate/json-records.ts)
    return [
      String(alias?.aliasname ?? fn).toLowerCase(),
      rf.coldeflist.map((d: Node) => ({ name: String(d.ColumnDef?.colname), oid: typeNameOid(d.ColumnDef?.typeName) })),
    ];
  }
  const populated = fn && /^jsonb?_populate_record(set)?$/.test(fn) ? call.args?.[0]?.TypeCast : null;
  if (populated && !alias?.colnames) {
    // json_populate_recordset(NULL::t, x): t's columns (translate/json-records.ts)
    const cols = sourceColumns(strings(populated.typeName?.names).pop()?.toLowerCase(), schema);
    return cols ? [String(alias?.aliasname ?? fn).toLowerCase(), cols] : null;
  }
  if (fn === 'unnest' && call.args?.length > 1) {
    // unnest(a, b, ...): a column per array, of its element type (translate/unnest.ts)
    const types = typer();
    const names = strings(alias?.colnames);
    return [
      String(alias?.aliasname ?? fn).toLowerCase(),
      call.args.map((a: Node, i: number) => ({ name: names[i] ?? 'unnest', oid: elementOidOf(types.type(a)) ?? 0 })),
    ];
  }
  if (fn && SCALAR_IN_FROM.has(fn)) {
    // a function of one value in FROM: one row, its column named by the alias (translate/scalar-from.ts)
    const name = strings(alias?.colnames)[0] ?? alias?.aliasname ?? fn;
    return [String(alias?.aliasname ?? fn).toLowerCase(), scalarSource({ name, oid: typer().func(call) })];
  }
  if (!fn || !ONE_COLUMN_SET_RETURNING.has(fn)) return null;
  // jsonb_array_elements names its column value (its OUT parameter, which an alias does not rename)
  const name = strings(alias?.colnames)[0] ?? (fn.includes('array_elements') ? 'value' : (alias?.aliasname ?? fn));
  return [String(alias?.aliasname ?? fn).toLowerCase(), scalarSource({ name, oid: typer().func(call) })];
}

/**
 * A function's columns WITH ORDINALITY (translate/ordinality.ts): then a bigint numbering its rows,
 * named by the alias list after the function's own columns, else ordinality. Its alias alone is then
 * a row, no longer the value (so a new list, not among SCALAR_SOURCES).
 */
function withOrdinality(columns: ResultColumn[], rf: Node): ResultColumn[] {
  const name = strings(rf.alias?.colnames)[columns.length] ?? 'ordinality';
  return [...columns, { name, oid: OID.int8 }];
}

/**
 * A LATERAL subquery's columns: its select list sees the FROM items before it (`LATERAL (SELECT
 * ARRAY[t.id] AS a) x` is an int4[], where it was not known), its own FROM items first.
 */
function lateralColumns(s: Node, outer: Scope, schema: Schema, ctes: Ctes): ResultColumn[] | null {
  if (!s?.targetList || (s.op && s.op !== 'SETOP_NONE') || s.withClause) return subqueryColumns(s, schema, ctes);
  const own: Scope = new Map();
  scopeOf(s.fromClause, own, schema, ctes);
  // (an unqualified name both hold is typed by neither, as for two FROM items of one query)
  return selectTypes(s, schema, new Map([...outer, ...own]), ctes);
}

/** The queries of a WITH clause by name, with their columns (typed as far as the tree tells). */
export type Ctes = ReadonlyMap<string, ResultColumn[]>;
const NO_CTES: Ctes = new Map();

/** The WITH query (its CommonTableExpr) whose columns a Ctes entry is, for what SQLite names them. */
const cteNodes = new WeakMap<ResultColumn[], Node>();

/** The columns of the queries of a statement's own WITH clause, by name. */
export const ctesOf = (withClause: Node, schema: Schema): Ctes => cteColumns(withClause, schema, NO_CTES);

/**
 * The columns of each query of a WITH clause, after those of the enclosing ones (`outer`); a
 * recursive one typed by its first branch, as PostgreSQL types it.
 */
export function cteColumns(w: Node, schema: Schema, outer: Ctes): Ctes {
  if (!w?.ctes?.length) return outer;
  const out = new Map(outer);
  for (const c of w.ctes) {
    const e = c.CommonTableExpr;
    let q = e?.ctequery?.SelectStmt;
    if (!q) continue;
    if (w.recursive && q.op && q.op !== 'SETOP_NONE') q = q.larg;
    const cols = subqueryColumns(q, schema, out);
    if (!cols) continue;
    const names = strings(e.aliascolnames);
    const named = cols.map((col, i) => renamedColumn(col, names[i] ?? col.name));
    cteNodes.set(named, e);
    out.set(String(e.ctename).toLowerCase(), named);
  }
  return out;
}

/** The columns of a subquery in FROM: a VALUES list (column1, ... typed by its rows) or a SELECT. */
function subqueryColumns(s: Node, schema: Schema, ctes: Ctes = NO_CTES): ResultColumn[] | null {
  if (!s) return null;
  if (s.valuesLists) {
    const typer = new Typer(schema, new Map());
    const rows: Node[][] = s.valuesLists.map((r: Node) => r.List?.items ?? []);
    const width = rows[0]?.length ?? 0;
    if (rows.some((r) => r.length !== width)) return null;
    return rows[0].map((_, i) => {
      const oid = rows.map((r) => typer.type(r[i])).reduce((a, b) => (a === b ? a : commonNumber(a, b)));
      // (a column of char(n) casts of one n keeps it, as PostgreSQL's select_common_typmod: printed
      // padded to n, `VALUES ('ab'::char(4))` is `ab  `; it was `ab`)
      // (a NULL among them: padded, no modifier announced, as PostgreSQL's NULL has none)
      const items = rows.map((r) => r[i]).filter((x) => !x?.A_Const?.isnull);
      const mods = items.map((x) => (castTypmod(x) >= 0 ? castTypmod(x) : (charTypmodOf(typer, x) ?? -1)));
      const one = oid === OID.bpchar && mods[0] >= 5 && mods.every((m) => m === mods[0]);
      const typmod = one && items.length === rows.length ? mods[0] : undefined;
      const pad = one && typmod === undefined ? mods[0] - 4 : undefined;
      return {
        name: `column${i + 1}`,
        oid,
        ...(typmod !== undefined ? { typmod } : {}),
        ...(pad !== undefined ? { pad } : {}),
      };
    });
  }
  return selectTypes(s, schema, undefined, ctes);
}

/**
 * The columns of a UNION, INTERSECT or EXCEPT: named by its first branch, typed as PostgreSQL
 * resolves the branches (one type, or numbers promoted; 0 when they differ otherwise). `setop`
 * tells the caller that SQLite's declared type (the first branch's column) does not hold.
 */
function setOperationTypes(s: Node, schema: Schema, ctes: Ctes): ResultColumn[] | null {
  const branch = (b: Node) =>
    b?.op && b.op !== 'SETOP_NONE' ? setOperationTypes(b, schema, ctes) : selectTypes(b, schema, undefined, ctes);
  const l = branch(s.larg);
  const r = branch(s.rarg);
  if (!l || !r || l.length !== r.length) return null;
  return l.map((c, i) => {
    const a = c.oid;
    const b = r[i].oid;
    // (a bare NULL takes the other branches' type, as PostgreSQL resolves it: `SELECT avg(x) ... UNION SELECT NULL`)
    // (and a string literal beside jsonb is jsonb: `SELECT doc ... UNION SELECT '1.5'`; other types
    // keep SQLite's text of the literal, so they are left as they were)
    // (and beside a char(n) bpchar: `SELECT ch ... UNION SELECT 'zz'`, char-padding.ts pads the column)
    const jsonb = (x: ResultColumn, y: ResultColumn) => x.untypedString && y.oid === OID.jsonb;
    const bpchar = (x: ResultColumn, y: ResultColumn) => x.untypedString && y.oid === OID.bpchar;
    // (and beside a boolean, a number, a date or time: of its type, the literal read as one,
    // operand-types.ts' setOperationLiterals; `SELECT true UNION SELECT 'yes'` was bigint)
    const read = (x: ResultColumn, y: ResultColumn) => x.untypedString && !y.untypedString && READ_AS.has(y.oid);
    const oid =
      a === b
        ? a
        : jsonb(c, r[i]) || jsonb(r[i], c)
          ? OID.jsonb
          : bpchar(c, r[i]) || bpchar(r[i], c)
            ? OID.bpchar
            : read(c, r[i]) || read(r[i], c)
              ? read(c, r[i])
                ? b
                : a
              : c.untypedNull && !r[i].untypedNull
                ? b
                : r[i].untypedNull && !c.untypedNull
                  ? a
                  : a && b && isNumber(a) && isNumber(b)
                    ? commonNumber(a, b)
                    : commonInstant(a, b); // (a date beside a timestamp: a timestamp; instant-choices.ts converts it)
    // a numeric's scale where every branch gives the same (`n + 1 UNION SELECT n` of a numeric(10,2)
    // prints 13.50, each value at its own scale as there; it printed 13.5): else each value's digits
    const scale =
      oid === OID.numeric &&
      c.scale !== undefined &&
      c.scale === r[i].scale &&
      !c.scaleIsMinimum &&
      !r[i].scaleIsMinimum
        ? c.scale
        : undefined;
    // a char(n)'s width where every branch's values have the same (a NULL branch has none to add)
    const pads = [c, r[i]]
      .filter((x) => !x.untypedNull)
      .map((x) => x.pad ?? (x.typmod !== undefined && x.typmod >= 5 ? x.typmod - 4 : undefined));
    const pad = oid === OID.bpchar && pads.length > 0 && pads.every((p) => p === pads[0]) ? pads[0] : undefined;
    // (and its modifier where every branch has the same, as PostgreSQL's select_common_typmod)
    const typmod = oid === OID.bpchar && c.typmod !== undefined && c.typmod === r[i].typmod ? c.typmod : undefined;
    return {
      name: c.name,
      oid,
      setop: true,
      ...(scale !== undefined ? { scale } : {}),
      ...(pad !== undefined ? { pad } : {}),
      ...(typmod !== undefined ? { typmod } : {}),
      ...(c.untypedNull && r[i].untypedNull ? { untypedNull: true } : {}),
      ...(c.untypedString && r[i].untypedString ? { untypedString: true } : {}),
      // (the rows of one table in every branch: that table's row type, as PostgreSQL resolves them)
      ...(oid === OID.record && c.rowOf && c.rowOf === r[i].rowOf ? { rowOf: c.rowOf } : {}),
    };
  });
}

/** The types a set operation's untyped literal beside them is read as (operand-types.ts' setOperationLiterals). */
const READ_AS = new Set<number>([
  OID.bool, OID.int2, OID.int4, OID.int8, OID.numeric, OID.float4, OID.float8,
  OID.date, OID.timestamp, OID.timestamptz, OID.time,
]); // biome-ignore format: a type list

/** A column the statement hands out: a table's row passed up (`rowOf`) typed as that table's row type. */
function rowTyped(c: ResultColumn): ResultColumn {
  const { rowOf, ...column } = c;
  const oid = rowOf ? relationNames().typeOid(rowOf) : undefined;
  return oid === undefined ? c : { ...column, oid };
}

/** The columns of a SelectStmt, or null when its list has a `*`. */
export function selectTypes(
  s: Node,
  schema: Schema,
  sources?: Scope,
  outer: Ctes = NO_CTES,
  statement = false,
): ResultColumn[] | null {
  const ctes = cteColumns(s.withClause, schema, outer);
  if (s.op && s.op !== 'SETOP_NONE') {
    const cols = setOperationTypes(s, schema, ctes);
    return statement && cols ? cols.map(rowTyped) : cols;
  }
  // a VALUES statement: column1, ... typed by its rows
  if (s.valuesLists) return subqueryColumns(s, schema, ctes);
  if (!s.targetList) return null;
  const scope: Scope = sources ?? new Map();
  if (!sources) scopeOf(s.fromClause, scope, schema, ctes);
  const typer = new Typer(schema, scope);
  const out: ResultColumn[] = [];
  for (const t of s.targetList) {
    const r = t.ResTarget;
    const fields: Node[] | undefined = r?.val?.ColumnRef?.fields;
    // `(json_each(x)).*`: its key (text) and value (json, jsonb, or text of the _text forms)
    const ind = r?.val?.A_Indirection;
    const fn = ind?.arg?.FuncCall ? strings(ind.arg.FuncCall.funcname).pop()?.toLowerCase() : undefined;
    if (fn && RECORD_SET_RETURNING.has(fn) && ind.indirection?.length === 1 && ind.indirection[0].A_Star) {
      const value = fn.endsWith('_text') ? OID.text : fn.startsWith('jsonb') ? OID.jsonb : OID.json;
      out.push({ name: 'key', oid: OID.text }, { name: 'value', oid: value });
      continue;
    }
    if (fields?.some((f: Node) => f.A_Star)) {
      // `*` (or `v.*`): the columns of the FROM list's items (a join's merged columns first), where
      // all are known here and SQLite spreads them in the same order
      // (else, as before, the sources when all are subqueries, VALUES lists or functions)
      const all = [...scope.values()];
      const cols =
        fields.length === 1
          ? (starColumns(s.fromClause, scope, schema) ??
            (all.every((x) => Array.isArray(x)) ? (all as ResultColumn[][]).flat() : null))
          : (sourceColumns(scope.get(String(fields[0].String?.sval).toLowerCase()), schema) ??
            joinColumns(s.fromClause, String(fields[0].String?.sval).toLowerCase(), scope, schema));
      if (!cols || cols.length === 0) return null;
      // (a subquery's column that is a table's row: that table's row type in the statement's list)
      out.push(...(statement ? cols.map(rowTyped) : cols));
      continue;
    }
    if (!r) return null;
    let oid = typer.type(r.val);
    // (a char(n) column passed on keeps its modifier: a subquery's, a set operation's branches')
    const typmod = castTypmod(r.val) >= 0 ? castTypmod(r.val) : (charTypmodOf(typer, r.val) ?? -1);
    // a table's whole row as a result column (`SELECT t FROM t`, or passed up through a subquery):
    // the table's row type, as PostgreSQL types it (it was record); inside the statement it stays a
    // record for what reads it, the table noted for the statement's own list
    const whole = oid === OID.record ? typer.wholeRowTable(r.val) : undefined;
    if (statement && whole !== undefined) oid = relationNames().typeOid(whole) ?? oid;
    // (a choice of values of different scales, a column of the statement itself, prints each at its
    // own: exact-columns.ts's exactChoice hands them over as text; a subquery's keeps the largest)
    const own = statement && keepsOwnScales(typer, r.val);
    const scale = oid === OID.numeric && typmod < 0 && !own ? scaleOf(typer, r.val) : undefined;
    const least = oid === OID.numeric && typmod < 0 && scale === undefined ? minimumScaleOf(typer, r.val) : undefined;
    const pad = oid === OID.bpchar && typmod < 0 ? charWidthOf(typer, r.val) : undefined;
    const column: ResultColumn = {
      name: r.name ?? typer.name(r.val),
      oid,
      ...(r.val?.A_Const?.isnull ? { untypedNull: true } : {}),
      ...(r.val?.A_Const?.sval !== undefined ? { untypedString: true } : {}),
      ...(typmod >= 0 ? { typmod } : {}),
      ...(scale !== undefined ? { scale } : {}),
      ...(pad !== undefined ? { pad } : {}),
      ...(least !== undefined ? { scale: least.scale, scaleIsMinimum: true, scaleParams: least.params } : {}),
      ...(least?.offsets.some((k) => k > 0) ? { scaleOffsets: least.offsets } : {}),
      // (a computed numeric of no known scale prints the double's 15 significant digits: 0.01 + 0.2 is 0.21)
      ...(oid === OID.numeric && typmod < 0 && scale === undefined && !least && isComputed(r.val)
        ? { computed: true }
        : {}),
      ...(!statement && whole !== undefined ? { rowOf: whole } : {}),
      ...(!statement && isExpandArrayCall(r.val) ? { expands: typer.type(r.val.FuncCall.args?.[0]) } : {}),
    };
    // (text as PostgreSQL's, for what compares it with a number: text-columns.ts)
    if (STRING_OIDS.has(oid)) noteTextColumn(column, r.val, typer);
    out.push(column);
  }
  return out;
}

const STRING_OIDS = new Set<number>([OID.text, OID.varchar, OID.bpchar, OID.name]);

/** The columns of one source of a scope: a table's (by its declared types), a subquery's; null when unknown. */
function sourceColumns(x: string | ResultColumn[] | undefined, schema: Schema): ResultColumn[] | null {
  if (Array.isArray(x)) return x;
  const table = x === undefined ? undefined : schema.tables.get(x);
  // (a numeric(p, s) keeps its modifier: read through a LATERAL subquery's JSON, `LATERAL (SELECT *
  // FROM t ...) x`, its value prints at its scale only so)
  return table
    ? table.columns.map((c) => {
        const oid = oidOfDeclType(c.type);
        const typmod = oid === OID.numeric ? typmodOfDeclType(c.type) : -1;
        return { name: c.name, oid, ...(typmod >= 0 ? { typmod } : {}) };
      })
    : null;
}

/** An aliased join written as a subquery: its alias and the select list it gets. */
export interface JoinList {
  alias: string;
  list: string;
}

/** A column `*` spreads: the SQL that reads it (`"alias"."name"`, or an expression when not plain) and its place in SQLite's spread. */
interface Spread extends ResultColumn {
  ref: string;
  plain: boolean;
  at: number;
}

/** A USING or NATURAL join's merged columns: each by its name, its two sides and the SQL that reads the merged value. */
interface Merge {
  join: Node;
  pairs: { name: string; left: Spread; right: Spread; ref: string }[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The columns `*` gives over a FROM list, in PostgreSQL's order: each item's, a join's `USING` or
 * NATURAL columns once and first (the left side's value after an inner or left join, the right
 * side's after a right join, coalesce of both after a full one; a merged column of two types has
 * type 0: its values decide). `named`: SQLite names every column as PostgreSQL does, so
 * `"alias"."name"` reads it (a table's columns, a subquery's or WITH query's aliased or bare column
 * references, or its other items once `aliases` gives them PostgreSQL's names: the offset of each
 * such item → its name). Null when a source's columns are not known here.
 */
function joinSpread(
  from: Node[] | undefined,
  scope: Scope,
  schema: Schema,
): {
  cols: Spread[];
  named: boolean;
  aliases: Map<number, string>;
  renames: Map<number, string>;
  joins: Map<number, JoinList>;
  joined: Map<string, Spread[]>;
  merges: Merge[];
} | null {
  let named = true;
  const merges: Merge[] = [];
  const aliases = new Map<number, string>();
  const renames = new Map<number, string>();
  const joins = new Map<number, JoinList>();
  // each aliased join's columns, which its `j.*` spreads
  const joined = new Map<string, Spread[]>();
  const lower = (c: ResultColumn) => c.name.toLowerCase();
  const ofSource = (alias: string, query: Node | null, colnames: string[]): Spread[] | null => {
    const cols = sourceColumns(scope.get(alias), schema);
    if (!cols) return null;
    const names = query ? sqliteNames(query, colnames, cols, aliases, renames) : null;
    if (query && !names) named = false;
    return cols.map((c, at) => {
      const name = names?.[at] ?? c.name;
      return { ...c, ref: `${quote(alias)}.${quote(name)}`, plain: name === c.name, at };
    });
  };
  const item = (f: Node): Spread[] | null => {
    if (f.RangeVar) {
      // (pg_catalog.x, information_schema.x: not the schema's tables)
      const ns = f.RangeVar.schemaname ? String(f.RangeVar.schemaname).toLowerCase() : 'public';
      if (ns !== 'public') return null;
      const alias = String(f.RangeVar.alias?.aliasname ?? f.RangeVar.relname).toLowerCase();
      const x = scope.get(alias);
      const cte = Array.isArray(x) ? cteNodes.get(x) : undefined;
      if (Array.isArray(x) && !cte) {
        named = false;
        return ofSource(alias, null, []);
      }
      return ofSource(alias, cte?.ctequery?.SelectStmt ?? null, strings(cte?.aliascolnames));
    }
    const sub = f.RangeSubselect;
    if (sub?.alias && !sub.lateral)
      return ofSource(
        String(sub.alias.aliasname).toLowerCase(),
        sub.subquery?.SelectStmt ?? {},
        strings(sub.alias.colnames),
      );
    // (a LATERAL subquery: translate/lateral-json.ts spreads its columns in their place, by their
    // names; typed so, a numeric(p, s) prints at its scale as under `x.*`. It was not known: float8)
    if (sub?.alias) {
      named = false;
      return ofSource(String(sub.alias.aliasname).toLowerCase(), null, []);
    }
    // (json_to_recordset(x) AS r(a int, ...): a subquery of those columns, a LATERAL one when x reads
    // an item before it, translate/json-records.ts and lateral-records.ts)
    const rf = f.RangeFunction;
    const fn = strings(rf?.functions?.[0]?.List?.items?.[0]?.FuncCall?.funcname).pop()?.toLowerCase();
    if (rf?.alias && rf.coldeflist && fn && /^jsonb?_to_record(set)?$/.test(fn)) {
      named = false;
      return ofSource(String(rf.alias.aliasname).toLowerCase(), null, []);
    }
    // (a function of one column, `unnest(kv.tags) [AS t(x)]`: named after the function or the alias,
    // where SQLite's `*` names the table-valued function's column value)
    if (rf && !rf.ordinality && rf.functions?.length === 1 && fn && ONE_COLUMN_SET_RETURNING.has(fn)) {
      named = false;
      const cols = ofSource(String(rf.alias?.aliasname ?? fn).toLowerCase(), null, []);
      return cols?.length === 1 ? cols : null;
    }
    const j = f.JoinExpr;
    if (!j) return null;
    const l = item(j.larg);
    const r = item(j.rarg);
    if (!l || !r) return null;
    const merged = j.isNatural
      ? l.map(lower).filter((n) => r.some((c) => lower(c) === n))
      : strings(j.usingClause).map((n) => n.toLowerCase());
    const byAt = (a: Spread, b: Spread) => a.at - b.at;
    const rest = (side: Spread[]) => side.filter((c) => !merged.includes(lower(c)));
    // SQLite spreads the left side's columns where they are and drops the right side's merged ones
    const sqlite = [...[...l].sort(byAt), ...rest(r).sort(byAt)];
    const at = new Map(sqlite.map((c, i) => [c, i]));
    const place = (c: Spread): Spread => ({ ...c, at: at.get(c)! });
    let cols: Spread[];
    if (merged.length === 0) cols = [...l, ...r].map(place);
    else {
      const first: Spread[] = [];
      const pairs: Merge['pairs'] = [];
      merges.push({ join: j, pairs });
      for (const n of merged) {
        const left = l.filter((c) => lower(c) === n);
        const right = r.filter((c) => lower(c) === n);
        if (left.length !== 1 || right.length !== 1) return null;
        const [a, b] = [left[0], right[0]];
        const oid = b.oid === a.oid ? a.oid : 0;
        const value =
          j.jointype === 'JOIN_RIGHT'
            ? { ref: b.ref, plain: b.plain }
            : j.jointype === 'JOIN_FULL'
              ? { ref: `coalesce(${a.ref}, ${b.ref})`, plain: false }
              : { ref: a.ref, plain: a.plain };
        first.push({ ...place(a), ...value, name: a.name, oid });
        pairs.push({ name: n, left: a, right: b, ref: value.ref });
      }
      cols = [...first, ...rest(l).map(place), ...rest(r).map(place)];
    }
    if (!j.alias) return cols;
    // `(a JOIN b USING (q)) AS j`: SQLite reads it as a subquery of its `*`, in SQLite's order,
    // its columns by their names
    const alias = String(j.alias.aliasname).toLowerCase();
    if (j.alias.colnames?.length) return null;
    const names = cols.map(lower);
    if (new Set(names).size === names.length) {
      const own = cols.map((c) => ({ ...c, ref: `${quote(alias)}.${quote(c.name)}`, plain: true }));
      joined.set(alias, own);
      return own;
    }
    // a name twice (SQLite's `*` of it is 42702 ambiguous): written as a subquery of PostgreSQL's
    // list, each column a name of its own (`"u"."id" AS "id__4"`), at the '(' before its first table
    let leaf = j.larg;
    while (leaf?.JoinExpr && !leaf.JoinExpr.alias) leaf = leaf.JoinExpr.larg;
    const first = leaf?.RangeVar?.location;
    if (!named || typeof first !== 'number' || first < 0) return null;
    const own: string[] = [];
    const seen = new Set<string>();
    for (const c of cols) {
      let n = c.name;
      for (let k = 2; seen.has(n.toLowerCase()); k++) n = `${c.name}__${k}`;
      seen.add(n.toLowerCase());
      own.push(n);
    }
    joins.set(first, { alias, list: cols.map((c, i) => `${c.ref} AS ${quote(own[i])}`).join(', ') });
    const spread = cols.map((c, i) => ({
      ...c,
      ref: `${quote(alias)}.${quote(own[i])}`,
      plain: own[i] === c.name,
      at: i,
    }));
    joined.set(alias, spread);
    return spread;
  };
  const out: Spread[] = [];
  for (const f of from ?? []) {
    const cols = item(f);
    if (!cols) return null;
    const base = out.length;
    out.push(...cols.map((c) => ({ ...c, at: base + c.at })));
  }
  return { cols: out, named, aliases, renames, joins, joined, merges };
}

/**
 * The names SQLite gives a subquery's or WITH query's columns (`cols`, PostgreSQL's) so that
 * `"alias"."name"` reads each: its alias list's, an item's alias, a bare column's name, a `*`'s
 * columns; another item (`sum(n)` without AS) is given PostgreSQL's name through `aliases` (the
 * offset of the item → the name), and a name PostgreSQL gives twice a name of its own there
 * (`sum__3`), an item whose alias an earlier one has through `renames` (its alias replaced by
 * `v__2`). Null when they cannot be told or made distinct.
 */
function sqliteNames(
  s: Node,
  colnames: string[],
  cols: ResultColumn[],
  aliases: Map<number, string>,
  renames: Map<number, string>,
): string[] | null {
  const pg = cols.map((c) => c.name);
  const distinct = (names: string[]) => new Set(names.map((n) => n.toLowerCase())).size === names.length;
  if (colnames.length >= cols.length) return distinct(pg) ? pg : null;
  let first = s;
  while (first?.op && first.op !== 'SETOP_NONE') first = first.larg;
  if (first?.valuesLists) return colnames.length === 0 && distinct(pg) ? pg : null; // column1, ... on both
  const list: Node[] | undefined = first?.targetList;
  if (!list) return null;
  if (list.some((t) => t.ResTarget?.val?.ColumnRef?.fields?.some((f: Node) => f.A_Star)))
    return colnames.length === 0 && list.length === 1 && distinct(pg) ? pg : null;
  if (list.length !== cols.length) return null;
  const names = pg.slice();
  // the items an alias may be given (SQLite's name of another is PostgreSQL's)
  const open = new Set<number>();
  for (let i = colnames.length; i < list.length; i++) {
    const r = list[i].ResTarget;
    if (!r || r.name) continue;
    if (typeof r.location !== 'number' || r.location < 0) return null;
    if (!r.val?.ColumnRef) open.add(i);
    else if (!distinct(pg)) open.add(i);
  }
  const taken = new Set<string>();
  // items whose alias an earlier item has (`x AS v, n AS v`): given one of their own in its place
  const renamed = new Set<number>();
  for (let i = 0; i < names.length; i++) {
    if (open.has(i)) continue;
    const key = names[i].toLowerCase();
    const r = list[i].ResTarget;
    if (taken.has(key) && i >= colnames.length && r?.name && typeof r.location === 'number' && r.location >= 0)
      renamed.add(i);
    else if (taken.has(key)) return null;
    taken.add(key);
  }
  const edits: [number, string][] = [];
  for (const i of [...open, ...renamed]) {
    let name = names[i];
    for (let k = i + 1; taken.has(name.toLowerCase()); k++) name = `${names[i]}__${k}`;
    taken.add(name.toLowerCase());
    names[i] = name;
    if (renamed.has(i)) renames.set(list[i].ResTarget.location, name);
    else if (name !== pg[i] || !list[i].ResTarget.val?.ColumnRef) edits.push([list[i].ResTarget.location, name]);
  }
  // (a partial alias list names the query's other columns by SQLite's names, which the edits give)
  for (const [at, name] of edits) aliases.set(at, name);
  return names;
}

/**
 * The columns `*` gives over a FROM list, in PostgreSQL's order; null when not known here, or when
 * SQLite's order differs and usingStarLists cannot write them out in PostgreSQL's.
 */
function starColumns(from: Node[] | undefined, scope: Scope, schema: Schema): ResultColumn[] | null {
  const spread = joinSpread(from, scope, schema);
  if (!spread) return null;
  if (!spread.named && spread.cols.some((c, i) => c.at !== i)) return null;
  return spread.cols.map(({ ref: _r, plain: _p, at: _a, ...c }) => c);
}

/** The columns `j.*` of an aliased join gives, in PostgreSQL's order; null when not known here. */
function joinColumns(from: Node[] | undefined, alias: string, scope: Scope, schema: Schema): ResultColumn[] | null {
  if (!hasAliasedJoin(from)) return null;
  const spread = joinSpread(from, scope, schema);
  const cols = spread?.named ? spread.joined.get(alias) : undefined;
  return cols ? cols.map(({ ref: _r, plain: _p, at: _a, ...c }) => c) : null;
}

/** Whether a FROM list holds a join with an alias of its own. */
function hasAliasedJoin(from: Node[] | undefined): boolean {
  return (from ?? []).some(
    (f: Node) => f.JoinExpr && (f.JoinExpr.alias || hasAliasedJoin([f.JoinExpr.larg, f.JoinExpr.rarg])),
  );
}

/** What usingStarLists edits, each by a byte offset in the statement's text. */
export interface StarEdits {
  stars: Map<number, string>;
  aliases: Map<number, string>;
  /** A select item's offset → the alias it gets in place of its own. */
  renames: Map<number, string>;
  joins: Map<number, JoinList>;
  /** USING and NATURAL joins over jsonb columns written with ON (jsonb-using.ts). */
  usings: UsingEdits;
}

/** Whether a FROM list holds a USING or NATURAL join. */
function hasMergingJoin(from: Node[] | undefined): boolean {
  return (from ?? []).some(
    (f: Node) =>
      f.JoinExpr &&
      (f.JoinExpr.usingClause || f.JoinExpr.isNatural || hasMergingJoin([f.JoinExpr.larg, f.JoinExpr.rarg])),
  );
}

/**
 * The `*` of each SELECT in a statement (subqueries and WITH queries too) that SQLite would spread
 * in another order than PostgreSQL's (a join's USING or NATURAL columns not the left side's first):
 * its offset in `sql` → the column list in PostgreSQL's order (`"m"."q", "m"."id", "s"."f"`); and
 * the items of the subqueries and WITH queries it reads that SQLite would name otherwise (`sum(n)`
 * without AS): their offset → PostgreSQL's name, for an alias; an aliased join whose columns
 * SQLite cannot spread (a name twice): the offset of its first table → the list it is written with.
 */
export function usingStarLists(sql: string, schema: Schema): StarEdits {
  const out = new Map<number, string>();
  const aliases = new Map<number, string>();
  const renames = new Map<number, string>();
  const joins = new Map<number, JoinList>();
  const usings: UsingEdits = { ons: new Map(), refs: new Map(), names: new Map() };
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return { stars: out, aliases, renames, joins, usings };
  }
  const visit = (n: Node, ctes: Ctes): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x, ctes);
      return;
    }
    const s = n.SelectStmt;
    if (s?.targetList && s.fromClause) {
      const inner = cteColumns(s.withClause, schema, ctes);
      const stars = (s.targetList as Node[]).filter((t) => {
        const f = t.ResTarget?.val?.ColumnRef?.fields;
        return f?.length === 1 && f[0].A_Star;
      });
      // `j.*` of an aliased join (SQLite's is `no such table: j`)
      const qualified = (s.targetList as Node[]).filter((t) => {
        const f = t.ResTarget?.val?.ColumnRef?.fields;
        return f?.length === 2 && f[0].String && f[1].A_Star;
      });
      const merging = hasMergingJoin(s.fromClause);
      if (stars.length > 0 || merging || (qualified.length > 0 && hasAliasedJoin(s.fromClause))) {
        const scope: Scope = new Map();
        scopeOf(s.fromClause, scope, schema, inner);
        const spread = joinSpread(s.fromClause, scope, schema);
        const listOf = (cols: Spread[]) =>
          cols.map((c) => (c.plain ? c.ref : `${c.ref} AS ${quote(c.name)}`)).join(', ');
        // (joins written with ON spread each side's columns: `*` is written out whatever the order)
        // (a subquery reading a merged name: what its own FROM list names, tables and joins of them alone)
        const own = (sub: Node) => {
          const plain = (f: Node): boolean =>
            !!f?.RangeVar || (!!f?.JoinExpr && plain(f.JoinExpr.larg) && plain(f.JoinExpr.rarg));
          if (!(sub.fromClause ?? []).every(plain)) return null;
          const mine: Scope = new Map();
          scopeOf(sub.fromClause, mine, schema, inner);
          const names = new Set<string>();
          for (const v of mine.values()) {
            const cols = sourceColumns(v, schema);
            if (!cols) return null;
            for (const c of cols) names.add(c.name.toLowerCase());
          }
          return { names, sources: new Set(mine.keys()) };
        };
        const rewritten =
          merging &&
          spread !== null &&
          jsonbUsingEdits(s, spread.merges, spread.named, spread.cols, usings, own, new Set(scope.keys()));
        if (stars.length > 0 && spread?.named && (rewritten || spread.cols.some((c, i) => c.at !== i))) {
          const list = listOf(spread.cols);
          for (const t of stars) out.set(t.ResTarget.val.ColumnRef.location, list);
          for (const [at, name] of spread.aliases) aliases.set(at, name);
          for (const [at, name] of spread.renames) renames.set(at, name);
        }
        if (spread?.named)
          for (const t of qualified) {
            const ref = t.ResTarget.val.ColumnRef;
            const cols = spread.joined.get(String(ref.fields[0].String.sval).toLowerCase());
            if (cols && ref.location >= 0) {
              out.set(ref.location, listOf(cols));
              for (const [at, name] of spread.aliases) aliases.set(at, name);
              for (const [at, name] of spread.renames) renames.set(at, name);
            }
          }
        // (an aliased join SQLite cannot spread is written out whatever the order)
        if (spread?.named) for (const [at, j] of spread.joins) joins.set(at, j);
      }
      for (const k in s) visit(s[k], inner);
      return;
    }
    for (const k in n) visit(n[k], ctes);
  };
  visit(tree.stmts ?? [], NO_CTES);
  return { stars: out, aliases, renames, joins, usings };
}
