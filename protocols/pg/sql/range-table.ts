// What a query's FROM holds as PostgreSQL's parser sees it (parse_relation.c): the range table
// entries in the order it adds them (a join's sides before the join, a subquery after its own
// query), each with its name and column names, and the namespace items an expression may name
// (a join without an alias shows its sides by name but its columns only through the join; one with
// an alias hides its sides). A catalog relation has PostgreSQL 15's columns (catalog/catalog-relation.ts).
// Columns not known here (a function of no known shape) are null, so a caller can stay silent
// rather than guess.
import type { Schema, TableDef } from '../../../src/engine/schema/model';
import { type CatalogRelation, catalogRelation } from '../catalog/catalog-relation';
import { pgErrorAt } from '../sqlstate';
import { figuredName } from './column-names';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** A range table entry: its name (alias, else the table's, WITH query's or function's) and columns. */
export interface Rte {
  alias: string;
  columns: string[] | null;
  /** A table of the schema or the catalog (its rows have system columns too). */
  table: boolean;
  /** The table or WITH query a FROM item names (`orders` of `orders o`). */
  relname?: string;
}

/** A namespace item: what a name may reach (`rel`: as a relation, `cols`: its columns unqualified). */
export interface NsItem {
  alias: string | null;
  columns: string[] | null;
  rel: boolean;
  cols: boolean;
  table: boolean;
}

/** One query level: its range table so far, what its expressions see, its WITH queries. */
export class Level {
  readonly rtable: Rte[] = [];
  visible: NsItem[] = [];
  readonly ctes = new Map<string, string[] | null>();
  /**
   * Names are matched as PostgreSQL matches them where the user quoted one with upper-case letters
   * (quoted-names.ts): such a name reaches only the name of that case, and a table's columns keep
   * the schema's case. Off, every name is the parser's folded one matched as Patina's lookups do.
   */
  readonly exact: boolean;
  constructor(
    readonly schema: Schema,
    readonly parent: Level | null,
    exact?: boolean,
  ) {
    this.exact = exact ?? parent?.exact ?? false;
  }

  /** The columns of the WITH query `name` in reach (undefined: none of that name). */
  cte(name: string): string[] | null | undefined {
    for (let l: Level | null = this; l; l = l.parent) if (l.ctes.has(name)) return l.ctes.get(name);
    return undefined;
  }
}

/** What reading a FROM item calls back for: a subquery (on a level of its own) and an expression. */
export interface Walk {
  /** A subquery of FROM (`lateral`: it sees the items left of it). */
  subquery?(q: Node, at: Level, lateral: boolean): void;
  /** An expression on `at` (a JOIN's ON with its sides visible, a function's arguments). */
  expr?(e: Node, at: Level): void;
}

/**
 * Reads FROM item `f` onto `at`: adds its range table entries and returns its namespace items
 * (PostgreSQL's transformFromClauseItem). `left` are the items left of it, which a LATERAL
 * subquery and a function's arguments see.
 */
export function fromItem(f: Node, at: Level, walk: Walk, left: NsItem[]): NsItem[] {
  if (f?.RangeVar) {
    const r = f.RangeVar;
    const name = String(r.relname);
    const cte = r.schemaname ? undefined : at.cte(name);
    const table = cte === undefined && (!r.schemaname || r.schemaname === 'public') ? tableNamed(at, r) : undefined;
    const catalog = cte === undefined && !table ? catalogNamed(r) : undefined;
    const base = cte !== undefined ? cte : table ? tableColumns(table, at) : (catalog?.columns ?? null);
    const system = !!table || catalog?.view === false;
    return [leaf(at, String(r.alias?.aliasname ?? name), renamed(base, r.alias), system, name)];
  }
  if (f?.RangeSubselect) {
    const s = f.RangeSubselect;
    const saved = at.visible;
    at.visible = s.lateral ? left : [];
    walk.subquery?.(s.subquery, at, !!s.lateral);
    at.visible = saved;
    const cols = queryColumns(s.subquery, at);
    return [leaf(at, String(s.alias?.aliasname ?? 'unnamed_subquery'), renamed(cols, s.alias), false)];
  }
  if (f?.RangeFunction) {
    const rf = f.RangeFunction;
    const saved = at.visible;
    at.visible = left; // (a function in FROM is LATERAL without the word)
    walk.expr?.(rf.functions, at);
    at.visible = saved;
    const call = rf.functions?.length === 1 ? rf.functions[0]?.List?.items?.[0]?.FuncCall : undefined;
    const fname = call ? strings(call.funcname).pop() : undefined;
    const alias = String(rf.alias?.aliasname ?? fname ?? 'unnamed_function');
    return [leaf(at, alias, renamed(functionColumns(rf, call, fname, alias), rf.alias), false)];
  }
  if (f?.JoinExpr) {
    const j = f.JoinExpr;
    const l = fromItem(j.larg, at, walk, left);
    const r = fromItem(j.rarg, at, walk, [...left, ...l]);
    const mine = [...l, ...r];
    if (j.quals) {
      // ON sees the join's two sides only (and outer queries)
      const saved = at.visible;
      at.visible = mine.map((n) => ({ ...n }));
      walk.expr?.(j.quals, at);
      at.visible = saved;
    }
    const lc = l[l.length - 1]?.columns ?? null;
    const rc = r[r.length - 1]?.columns ?? null;
    let columns: string[] | null = null;
    if (lc && rc) {
      const merged = j.isNatural ? lc.filter((n) => rc.includes(n)) : strings(j.usingClause);
      columns = [...merged, ...lc.filter((n) => !merged.includes(n)), ...rc.filter((n) => !merged.includes(n))];
    }
    const item: NsItem = {
      alias: j.alias ? String(j.alias.aliasname) : null,
      columns: renamed(columns, j.alias),
      rel: !!j.alias,
      cols: true,
      table: false,
    };
    return j.alias ? [item] : [...mine.map((n) => ({ ...n, cols: false })), item];
  }
  // (TABLESAMPLE, XMLTABLE, JSON_TABLE: columns not listed here)
  const other = f?.RangeTableSample?.relation ?? f;
  const alias =
    other?.RangeVar?.alias?.aliasname ?? other?.RangeVar?.relname ?? other?.[Object.keys(other)[0]]?.alias?.aliasname;
  return [leaf(at, String(alias ?? ''), null, false)];
}

/**
 * Whether a name as the parser has it (`written`) names `actual` the way Patina matches names: a
 * name with upper-case letters was quoted (the parser folds the others) and matches only its own
 * case; any other matches without case (a schema file may declare `CREATE TABLE Users`, which
 * users reach unquoted).
 */
export function sameName(written: string, actual: string): boolean {
  return written === written.toLowerCase() ? written === actual.toLowerCase() : written === actual;
}

/** A table's column names on `at` (lower case, or the schema's own where names match exactly). */
export function tableColumns(table: TableDef, at: Level): string[] {
  return table.columns.map((c) => (at.exact ? c.name : c.name.toLowerCase()));
}

/**
 * The schema table a RangeVar names (public or no schema). Where names match exactly, a quoted
 * name whose case differs from every table's and WITH query's is PostgreSQL's 42P01 at the name
 * (SQLite found the table without case).
 */
export function tableNamed(at: Level, r: Node): TableDef | undefined {
  const name = String(r.relname);
  const exact = at.schema.tables.get(name);
  if (!at.exact || exact) return exact;
  const loose = [...at.schema.tables.values()].find((t) => t.name.toLowerCase() === name.toLowerCase());
  if (name === name.toLowerCase()) return loose;
  let cte = false;
  if (!r.schemaname)
    for (let l: Level | null = at; l && !cte; l = l.parent)
      cte = [...l.ctes.keys()].some((k) => k.toLowerCase() === name.toLowerCase());
  if (loose || cte) {
    const shown = r.schemaname ? `${r.schemaname}.${name}` : name;
    throw pgErrorAt('42P01', `relation "${shown}" does not exist`, Number(r.location ?? 0));
  }
  return undefined;
}

/**
 * The catalog relation a RangeVar names: pg_catalog's (searched first, as PostgreSQL's search_path
 * is, when no schema is written) or information_schema's, with PostgreSQL 15's columns; undefined
 * for any other name (a schema table, or one PostgreSQL lacks too).
 */
function catalogNamed(r: Node): CatalogRelation | undefined {
  const name = String(r.relname);
  if (!r.schemaname || r.schemaname === 'pg_catalog') return catalogRelation('pg_catalog', name);
  return r.schemaname === 'information_schema' ? catalogRelation('information_schema', name) : undefined;
}

/** Adds a range table entry and returns its namespace item (visible by name and by its columns). */
function leaf(at: Level, alias: string, columns: string[] | null, table: boolean, relname?: string): NsItem {
  at.rtable.push({ alias, columns, table, relname });
  return { alias, columns, rel: true, cols: true, table };
}

/** Columns renamed by an alias's column list (`AS s(a, b)`: the first ones). */
function renamed(columns: string[] | null, alias: Node): string[] | null {
  const own = strings(alias?.colnames);
  if (!columns || own.length === 0) return columns;
  return [...own, ...columns.slice(own.length)];
}

/** Set-returning functions of a known record shape: their OUT columns. */
const RECORD_FUNCTIONS: Record<string, string[]> = {
  json_each: ['key', 'value'],
  jsonb_each: ['key', 'value'],
  json_each_text: ['key', 'value'],
  jsonb_each_text: ['key', 'value'],
  json_array_elements: ['value'],
  jsonb_array_elements: ['value'],
  json_array_elements_text: ['value'],
  jsonb_array_elements_text: ['value'],
};

/** Functions of one column of no name of its own: the column takes the alias (else the function's name). */
const SCALAR_FUNCTIONS = new Set([
  'generate_series',
  'generate_subscripts',
  'regexp_split_to_table',
  'regexp_matches',
  'json_object_keys',
  'jsonb_object_keys',
  'jsonb_path_query',
  'string_to_table',
]);

/** A function in FROM's columns, before an alias's list renames them (null when not known here). */
function functionColumns(rf: Node, call: Node, fname: string | undefined, alias: string): string[] | null {
  if (!call || rf.is_rowsfrom) return null;
  const defs: Node[] = rf.coldeflist ?? rf.functions[0]?.List?.items?.[1]?.List?.items ?? [];
  let columns: string[] | null;
  if (defs.length > 0) columns = defs.map((d: Node) => String(d.ColumnDef?.colname));
  else if (fname && RECORD_FUNCTIONS[fname]) columns = [...RECORD_FUNCTIONS[fname]];
  else if (fname && (SCALAR_FUNCTIONS.has(fname) || (fname === 'unnest' && call.args?.length === 1))) columns = [alias];
  else return null;
  return rf.ordinality ? [...columns, 'ordinality'] : columns;
}

/**
 * A query's column names as PostgreSQL names them (a set operation's from its first branch): by
 * AS, a column's name or the figured name of an expression, `*` spread over what its FROM holds.
 * `at` is the level the query is read under. Null when not known here.
 */
export function queryColumns(q: Node, at: Level): string[] | null {
  const s = q?.SelectStmt ?? q;
  // (a write in WITH, `WITH d AS (DELETE ... RETURNING *)`: not listed here)
  if (!s || Object.keys(s).some((k) => k.endsWith('Stmt'))) return null;
  const level = new Level(at.schema, at);
  addCtes(s.withClause, level, {});
  if (s.op && s.op !== 'SETOP_NONE') return queryColumns(s.larg, level);
  if (s.valuesLists) return (s.valuesLists[0]?.List?.items ?? []).map((_: Node, i: number) => `column${i + 1}`);
  const ns = fromNamespace(s.fromClause, level);
  const out: string[] = [];
  for (const t of s.targetList ?? []) {
    const r = t.ResTarget;
    if (!r) return null;
    const star = spread(r.val, ns);
    if (star === null) return null;
    out.push(...(star ? star.map((c) => c.column) : [r.name ?? figuredName(r.val)]));
  }
  return out;
}

/** The namespace items of a FROM list read onto `level` (nothing searched on the way). */
export function fromNamespace(from: Node[] | undefined, level: Level): NsItem[] {
  const ns: NsItem[] = [];
  for (const f of from ?? []) ns.push(...fromItem(f, level, {}, ns));
  return ns;
}

/**
 * The columns a select item `*` or `a.*` spreads over (each with the name of the item it comes
 * from, null for a join without one); undefined when the item is no star, null when not known here.
 */
export function spread(val: Node, ns: NsItem[]): { alias: string | null; column: string }[] | null | undefined {
  const f = val?.ColumnRef?.fields;
  if (!f?.[f.length - 1]?.A_Star) return undefined;
  if (f.length > 2) return null;
  const named = f.length === 2 ? String(f[0].String?.sval) : null;
  const items = named === null ? ns.filter((n) => n.cols) : ns.filter((n) => n.rel && n.alias === named).slice(-1);
  if (items.length === 0) return null;
  const out: { alias: string | null; column: string }[] = [];
  for (const n of items) {
    if (!n.columns) return null;
    for (const column of n.columns) out.push({ alias: n.alias, column });
  }
  return out;
}

/**
 * Reads a WITH clause onto `level` (its queries are read under it, `walk.subquery` called for each
 * first): each query's name then reaches its columns, those of its own column list first.
 */
export function addCtes(withClause: Node, level: Level, walk: Walk): void {
  const recursive = !!withClause?.recursive;
  for (const c of withClause?.ctes ?? []) {
    const cte = c.CommonTableExpr;
    if (!cte) continue;
    const name = String(cte.ctename);
    const own = strings(cte.aliascolnames);
    // (a recursive query sees itself: its columns are its first branch's)
    if (recursive) level.ctes.set(name, own.length > 0 ? own : null);
    walk.subquery?.(cte.ctequery, level, false);
    const cols = queryColumns(cte.ctequery, level);
    level.ctes.set(name, own.length > 0 ? [...own, ...(cols?.slice(own.length) ?? [])] : cols);
  }
}
