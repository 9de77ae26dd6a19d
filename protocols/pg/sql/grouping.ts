// A grouped query (GROUP BY, or an aggregate in its select list or HAVING) may name a column outside
// an aggregate only when it is grouped, or when its table's primary key is grouped (PostgreSQL's
// functional dependency); otherwise PostgreSQL refuses it with 42803. SQLite answers a "bare
// column" from an arbitrary row of each group instead (`SELECT id, count(*) FROM t` gave one row
// with some id), silently. Checked on PostgreSQL's parse tree, over the schema's tables only: a
// query reading a subquery, a function or a catalog relation, or naming something this check does
// not place, is left alone rather than refused on a guess.
import { isPlaceKey, parseTree } from './parse';
import type { Schema } from '../../../src/engine/schema/model';
import { PgError, pgError } from '../sqlstate';
import type { PatinaError } from '../../../src/errors';
import { writtenAt } from './type-names';
import type { PgToken } from './lexer';
import { expandGroupingSets, treeElement } from './grouping-sets';
import { strings } from './type-signatures';
import { figuredName } from './column-names';
import { Level, fromItem } from './range-table';
import { type Ctes, withReach } from './with-reach';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** PostgreSQL's aggregate functions (and SQLite's own, which the PG port also runs). */
export const AGGREGATES = new Set([
  'count', 'sum', 'avg', 'min', 'max', 'array_agg', 'string_agg', 'json_agg', 'jsonb_agg', 'json_object_agg',
  'jsonb_object_agg', 'bool_and', 'bool_or', 'every', 'bit_and', 'bit_or', 'bit_xor', 'stddev', 'stddev_samp',
  'stddev_pop', 'variance', 'var_samp', 'var_pop', 'corr', 'covar_pop', 'covar_samp', 'regr_slope',
  'regr_intercept', 'regr_count', 'regr_r2', 'regr_avgx', 'regr_avgy', 'regr_sxx', 'regr_syy', 'regr_sxy',
  'percentile_cont', 'percentile_disc', 'mode', 'group_concat', 'total', 'xmlagg',
]); // biome-ignore format: a word list

/** Whether the tokens may hold a grouped query (GROUP BY, HAVING, or an aggregate call): a cheap test before parsing. */
export function mayGroup(sig: PgToken[]): boolean {
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    if (t.type !== 'word') continue;
    const w = t.text.toLowerCase();
    if (w === 'group' || w === 'having' || w === 'over' || (AGGREGATES.has(w) && sig[i + 1]?.text === '(')) return true;
  }
  return false;
}

/** Words after a `)` that are no alias of what it closes. */
const NOT_ALIAS = new Set(
  'WHERE ON JOIN LEFT RIGHT INNER FULL CROSS NATURAL GROUP ORDER LIMIT OFFSET HAVING UNION EXCEPT INTERSECT AND OR USING FROM WINDOW FOR FETCH RETURNING THEN ELSE END WHEN IS NOT IN LIKE ILIKE BETWEEN ASC DESC NULLS FILTER OVER WITHIN COLLATE AT SET VALUES DO'.split(
    ' ',
  ),
);

/** Whether a token after a `)` may be an alias (`AS`, a quoted name, a word that is no keyword there). */
const isAlias = (t: PgToken | undefined) =>
  t !== undefined && (t.type === 'quoted' || (t.type === 'word' && !NOT_ALIAS.has(t.text.toUpperCase())));

/**
 * Whether the tokens may name a qualified column inside a subquery (two SELECTs, or a write with
 * one, and a `.`), where an inner FROM may hide an outer alias, or of a join with an alias of its
 * own (`JOIN ... ) AS j`, whose name may be on both sides): a cheap test before parsing.
 */
export function mayNestAliases(sig: PgToken[]): boolean {
  let selects = 0;
  let dot = false;
  let join = false;
  let aliased = false;
  sig.forEach((t, i) => {
    if (t.type === 'punct' && t.text === '.') dot = true;
    else if (t.type === 'word' && t.text.toUpperCase() === 'SELECT') selects++;
    else if (t.type === 'word' && t.text.toUpperCase() === 'JOIN') join = true;
    else if (t.type === 'punct' && t.text === ')' && isAlias(sig[i + 1])) aliased = true;
  });
  const write = sig[0]?.type === 'word' && /^(update|delete|insert)$/i.test(sig[0].text);
  return dot && (selects >= (write ? 1 : 2) || (join && aliased));
}

/**
 * Throws 42703 for a qualified column its innermost FROM naming the alias lacks (checkQualified),
 * and, when `grouping`, 42803 for a column a grouped query names outside its groups and aggregates
 * and for an aggregate where none may be. Returns the offsets in `sql` of the scalar subqueries an
 * outer aggregate makes many rows (manyRowSubqueries).
 */
export function checkGrouping(sql: string, schema: Schema, grouping = true, tokens?: readonly PgToken[]): number[] {
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return []; // the translation or SQLite reports it
  }
  const guards: number[] = [];
  const ctes: Ctes = new Map();
  try {
    checkQualified(tree.stmts ?? [], schema, ctes, []);
    if (grouping) visit(tree.stmts ?? [], schema, ctes, guards);
  } catch (err) {
    // the place PostgreSQL points at: the offending reference (the tree's offsets are bytes of sql,
    // which is `tokens` joined by single spaces when they are given)
    const location = LOCATIONS.get(err as object);
    if (location !== undefined && err instanceof PgError) {
      const at = Buffer.from(sql).subarray(0, location).toString().length;
      err.position = tokens ? writtenAt(at, tokens) : at;
    }
    throw err;
  }
  return guards;
}

/** The first call of `e` (outside subqueries) that `test` takes, as its FuncCall (with its location). */
function firstCall(e: Node, test: (call: Node) => boolean): Node | null {
  if (e === null || typeof e !== 'object') return null;
  if (Array.isArray(e)) {
    for (const x of e) {
      const f = firstCall(x, test);
      if (f) return f;
    }
    return null;
  }
  if (e.SubLink || e.SelectStmt) return null;
  if (e.FuncCall && test(e.FuncCall)) return e.FuncCall;
  for (const k in e) {
    if (k === 'location') continue;
    const f = firstCall(e[k], test);
    if (f) return f;
  }
  return null;
}

/** The tree offsets of the errors thrown at a reference, made their positions by checkGrouping. */
const LOCATIONS = new WeakMap<object, number>();

/** `err` placed at a node's `location` (none when the tree gives none). */
function located(err: PatinaError, location: number | undefined): PatinaError {
  if (typeof location === 'number' && location >= 0) LOCATIONS.set(err, location);
  return err;
}

/** Every SELECT of the tree (subqueries, WITH queries, set operations' arms), and UPDATE and DELETE. */
function visit(n: Node, schema: Schema, ctes: Ctes, guards: number[]): void {
  if (n === null || typeof n !== 'object') return;
  if (Array.isArray(n)) {
    for (const x of n) visit(x, schema, ctes, guards);
    return;
  }
  const stmt = n.SelectStmt ?? n.InsertStmt ?? n.UpdateStmt ?? n.DeleteStmt;
  if (stmt) {
    // (each WITH query with those it reaches, the rest with all of them)
    const reach = withReach(stmt, ctes, schema, (q, r) => visit(q, schema, r, guards));
    if (n.SelectStmt && (!stmt.op || stmt.op === 'SETOP_NONE')) check(stmt, schema, reach, guards);
    if (n.UpdateStmt) checkWrite(stmt, 'UPDATE', schema, reach);
    if (n.DeleteStmt) checkWrite(stmt, 'DELETE', schema, reach);
    for (const k in stmt) if (k !== 'withClause') visit(stmt[k], schema, reach, guards);
    return;
  }
  for (const k in n) visit(n[k], schema, ctes, guards);
}

/**
 * An aggregate or window function in an UPDATE's or DELETE's JOIN conditions, WHERE, RETURNING or
 * SET (an aggregate of its rows also in a subquery there: `SET x = (SELECT sum(t.v) FROM u)`):
 * PostgreSQL's 42803 `aggregate functions are not allowed in WHERE` (`UPDATE`, ...) and 42P20, in
 * the order it reads the clauses (SQLite ran it, or refused with 'misuse of aggregate').
 */
function checkWrite(w: Node, kind: 'UPDATE' | 'DELETE', schema: Schema, ctes: Ctes): void {
  const from: Node[] = [{ RangeVar: w.relation }, ...(w.fromClause ?? w.usingClause ?? [])];
  const tables = new Map<string, string>();
  const known = tablesOf(from, schema, ctes, tables);
  const calls = (e: Node, window: boolean): Node | null =>
    firstCall(e, (f) => (window ? !!f.over : !f.over && isAggregateCall(f)));
  const joinConditions = (items: Node[]): Node[] =>
    items.flatMap((f: Node) =>
      f?.JoinExpr ? [...joinConditions([f.JoinExpr.larg, f.JoinExpr.rarg]), f.JoinExpr.quals] : [],
    );
  const set = kind === 'UPDATE' ? (w.targetList ?? []).map((t: Node) => t.ResTarget?.val) : null;
  const returning = (w.returningClause?.exprs ?? w.returningList ?? []).map((t: Node) => t.ResTarget?.val);
  for (const [clause, where] of [
    [joinConditions(from), 'JOIN conditions'],
    [w.whereClause, 'WHERE'],
    [returning, 'RETURNING'],
    [set, 'UPDATE'],
  ] as const) {
    const aggregate = calls(clause, false) ?? (known ? outerAggregate(clause, tables, schema, ctes, []) : null);
    if (aggregate)
      throw located(pgError('42803', `aggregate functions are not allowed in ${where}`), aggregate.location);
    const window = calls(clause, true);
    if (window) throw located(pgError('42P20', `window functions are not allowed in ${where}`), window.location);
  }
}

/**
 * A qualified column `a.c` is looked for only in the innermost query whose FROM names `a`, as
 * PostgreSQL resolves it: when that FROM item is a schema table without the column, it is 42703
 * (SQLite went on to an outer query's `a`: `(SELECT sum(o.v) FROM u o) FROM t o` summed t's v).
 * `scopes` are the FROM lists around n, innermost last.
 */
function checkQualified(n: Node, schema: Schema, ctes: Ctes, scopes: Scope[]): void {
  if (n === null || typeof n !== 'object') return;
  if (Array.isArray(n)) {
    for (const x of n) checkQualified(x, schema, ctes, scopes);
    return;
  }
  const sel = n.SelectStmt;
  if (sel) {
    ctes = withReach(sel, ctes, schema, (q, reach) => checkQualified(q, schema, reach, scopes));
    if (sel.op && sel.op !== 'SETOP_NONE') {
      checkQualified([{ SelectStmt: sel.larg }, { SelectStmt: sel.rarg }], schema, ctes, scopes);
      return;
    }
    const scope: Scope = new Map();
    scopeOf(sel.fromClause, schema, ctes, scope);
    const inner = [...scopes, scope];
    const from = (f: Node): void => {
      if (f?.JoinExpr) {
        from(f.JoinExpr.larg);
        from(f.JoinExpr.rarg);
        checkQualified(f.JoinExpr.quals, schema, ctes, inner);
      } else if (f?.RangeSubselect)
        checkQualified(f.RangeSubselect.subquery, schema, ctes, f.RangeSubselect.lateral ? inner : scopes);
    };
    for (const f of sel.fromClause ?? []) from(f);
    for (const k in sel) if (k !== 'fromClause' && k !== 'withClause') checkQualified(sel[k], schema, ctes, inner);
    return;
  }
  const write = n.InsertStmt ?? n.UpdateStmt ?? n.DeleteStmt;
  if (write) {
    const reach = withReach(write, ctes, schema, (q, r) => checkQualified(q, schema, r, scopes));
    for (const k in write) if (k !== 'withClause') checkQualified(write[k], schema, reach, scopes);
    return;
  }
  if (n.ColumnRef) {
    const fields = n.ColumnRef.fields?.some((f: Node) => f.A_Star) ? [] : strings(n.ColumnRef.fields);
    if (fields.length !== 2) return;
    const alias = fields[0].toLowerCase();
    const at = [...scopes].reverse().find((sc) => sc.has(alias));
    const columns = at?.get(alias);
    const column = fields[1].toLowerCase();
    if (columns && !columns.has(column) && !(columns.table && column === 'tableoid'))
      throw pgError('42703', `column ${fields[0]}.${fields[1]} does not exist`);
    // (a name on both sides of a join with an alias of its own)
    if (columns?.twice?.has(fields[1].toLowerCase())) {
      const err = new PgError('user', `column reference "${fields[1]}" is ambiguous`, '42702');
      err.positionName = `${fields[0]}.${fields[1]}`; // (PostgreSQL points at the reference, `j.n`)
      throw err;
    }
    return;
  }
  for (const k in n) if (k !== 'location') checkQualified(n[k], schema, ctes, scopes);
}

/** alias → table name of a FROM list of schema tables and joins of them; null for anything else. */
export function tablesOf(from: Node[] | undefined, schema: Schema, ctes: Ctes, out: Map<string, string>): boolean {
  for (const f of from ?? []) {
    if (f.JoinExpr) {
      if (f.JoinExpr.usingClause || f.JoinExpr.isNatural) return false; // merged columns: not placed here
      if (!tablesOf([f.JoinExpr.larg, f.JoinExpr.rarg], schema, ctes, out)) return false;
    } else if (f.RangeVar && !f.RangeVar.schemaname) {
      const name = String(f.RangeVar.relname).toLowerCase();
      if (!schema.tables.has(name) || ctes.has(name)) return false;
      out.set(String(f.RangeVar.alias?.aliasname ?? name).toLowerCase(), name);
    } else return false;
  }
  return true;
}

/** Whether a call is an aggregate or a window function. */
export const isAggregateCall = (f: Node) =>
  f.over !== undefined ||
  f.agg_star ||
  f.agg_within_group || // (an ordered-set or hypothetical-set aggregate: `rank(3) WITHIN GROUP (ORDER BY x)`)
  AGGREGATES.has(strings(f.funcname).pop()?.toLowerCase() ?? '');

/**
 * A FROM item's column names; `twice`: those a join with an alias of its own has on both sides;
 * `table`: a table's, whose rows have the system column tableoid too (translate/table-oids.ts).
 */
type Columns = Set<string> & { twice?: Set<string>; table?: boolean };

/** alias → its columns (null when not known here) of a subquery's FROM list. */
type Scope = Map<string, Columns | null>;

/** The column names of a join's side (`list`, in order, a name once a side's column), null when not known. */
function joinSide(f: Node, scope: Scope, schema: Schema, ctes: Ctes): string[] | null {
  if (f?.RangeVar) {
    const cols = scope.get(String(f.RangeVar.alias?.aliasname ?? f.RangeVar.relname).toLowerCase());
    return cols ? [...cols] : null;
  }
  if (f?.RangeFunction) return fromItem(f, new Level(schema, null), {}, [])[0].columns;
  if (f?.RangeSubselect) {
    const names = queryNames(f.RangeSubselect.subquery?.SelectStmt, schema, ctes);
    const own = strings(f.RangeSubselect.alias?.colnames);
    return names && own.length <= names.length
      ? [...own, ...names.slice(own.length)].map((n) => n.toLowerCase())
      : null;
  }
  const j = f?.JoinExpr;
  if (!j || j.alias) return null;
  const l = joinSide(j.larg, scope, schema, ctes);
  const r = joinSide(j.rarg, scope, schema, ctes);
  if (!l || !r) return null;
  const merged = j.isNatural ? l.filter((n) => r.includes(n)) : strings(j.usingClause).map((n) => n.toLowerCase());
  return [...merged, ...l.filter((n) => !merged.includes(n)), ...r.filter((n) => !merged.includes(n))];
}

/**
 * A subquery's column names (its first branch's, for a set operation), as PostgreSQL names them:
 * by AS, a column's name, or the figured name of an expression; `*` spread over what its FROM
 * holds. Null when not known here.
 */
function queryNames(q: Node, schema: Schema, around: Ctes): string[] | null {
  const ctes = withReach(q, around, schema);
  while (q?.op && q.op !== 'SETOP_NONE') q = q.larg;
  if (!q) return null;
  if (q.valuesLists) return (q.valuesLists[0]?.List?.items ?? []).map((_: Node, i: number) => `column${i + 1}`);
  const scope: Scope = new Map();
  scopeOf(q.fromClause, schema, ctes, scope);
  const out: string[] = [];
  for (const t of q.targetList ?? []) {
    const r = t.ResTarget;
    const f = r?.val?.ColumnRef?.fields;
    if (!r) return null;
    if (f?.[f.length - 1]?.A_Star) {
      const items =
        f.length === 1
          ? (q.fromClause ?? []).map((x: Node) => joinSide(x, scope, schema, ctes))
          : [scope.get(String(f[0].String?.sval).toLowerCase())];
      if (f.length > 2 || items.some((x: Iterable<string> | null | undefined) => !x)) return null;
      for (const x of items) out.push(...(x as Iterable<string>));
    } else out.push(r.name ?? figuredName(r.val));
  }
  return out;
}

function scopeOf(from: Node[] | undefined, schema: Schema, ctes: Ctes, out: Scope): void {
  for (const f of from ?? []) {
    if (f.JoinExpr) {
      scopeOf([f.JoinExpr.larg, f.JoinExpr.rarg], schema, ctes, out);
      if (f.JoinExpr.alias) {
        // its columns, when both sides are tables (or joins of them) known here
        const names = f.JoinExpr.alias.colnames?.length
          ? null
          : joinSide({ JoinExpr: { ...f.JoinExpr, alias: undefined } }, out, schema, ctes);
        const cols: Columns | null = names ? new Set(names) : null;
        if (cols && names) cols.twice = new Set(names.filter((n, i) => names.indexOf(n) !== i));
        out.set(String(f.JoinExpr.alias.aliasname).toLowerCase(), cols);
      }
    } else if (f.RangeVar) {
      const name = String(f.RangeVar.relname).toLowerCase();
      const cte = f.RangeVar.schemaname ? undefined : ctes.get(name);
      const table = !f.RangeVar.schemaname && !ctes.has(name) ? schema.tables.get(name) : undefined;
      // (a table's columns, a WITH query's, renamed by the alias's list: `t AS x(a, b)`)
      const own = strings(f.RangeVar.alias?.colnames);
      const names = table?.columns.map((c) => c.name);
      let columns: Columns | null = names
        ? new Set([...own, ...names.slice(own.length)].map((c) => c.toLowerCase()))
        : null;
      if (columns) columns.table = true;
      if (cte) columns = new Set([...own, ...cte.slice(own.length)].map((c) => c.toLowerCase()));
      out.set(String(f.RangeVar.alias?.aliasname ?? name).toLowerCase(), columns);
    } else if (f.RangeFunction) {
      // a function of known columns (generate_series, unnest, json_each, a column definition list)
      const [item] = fromItem(f, new Level(schema, null), {}, []);
      out.set(
        String(item.alias).toLowerCase(),
        item.columns ? new Set(item.columns.map((c) => c.toLowerCase())) : null,
      );
    } else {
      const alias = f.RangeSubselect?.alias ?? f.RangeFunction?.alias;
      // an item without a name of its own still holds columns this check cannot list
      out.set(alias ? String(alias.aliasname).toLowerCase() : '', null);
    }
  }
}

function check(s: Node, schema: Schema, ctes: Ctes, guards: number[]): void {
  const tables = new Map<string, string>();
  if (!tablesOf(s.fromClause, schema, ctes, tables) || tables.size === 0) return;
  const targets: Node[] = (s.targetList ?? []).map((t: Node) => t.ResTarget);
  if (targets.some((t) => !t)) return;
  manyRowSubqueries(
    targets.map((t) => t.val),
    tables,
    schema,
    ctes,
    guards,
  );
  // with grouping sets (ROLLUP, CUBE): every expression of any set is grouped, and a primary key
  // carries its table's columns only when it is in every set (PostgreSQL's common grouping)
  const sets = expandGroupingSets<Node>((s.groupClause ?? []).map(treeElement));
  if (!sets) return;
  const groups: Node[] = [...new Set(sets.flat())];
  /** [alias, column] of a column reference, null when it names no column of these tables (an output alias). */
  const place = (fields: string[]): [string, string] | null => {
    const column = fields[fields.length - 1]?.toLowerCase();
    if (fields.length === 2) {
      const alias = fields[0].toLowerCase();
      const table = tables.get(alias);
      return table && hasColumn(schema, table, column) ? [alias, column] : null;
    }
    if (fields.length !== 1) return null;
    const found = [...tables].filter(([, table]) => hasColumn(schema, table, column));
    return found.length === 1 ? [found[0][0], column] : null;
  };
  // this query's aggregates: not one over columns of an outer query only (`sum(t.v)` in a subquery
  // over u is t's query's, which makes that query grouped and leaves this one as it is)
  const ownAggregate = (e: Node): Node | null =>
    firstCall(e, (f) => {
      if (f.over || !isAggregateCall(f)) return false;
      const refs = aggregateRefs(f);
      return refs.length === 0 || refs.some((r) => r.length !== 2 || tables.has(r[0].toLowerCase()));
    });
  const ownAggregates = (e: Node): boolean => ownAggregate(e) !== null;
  // an aggregate of this query's rows in its JOIN conditions, WHERE or GROUP BY, also one over its
  // columns in a subquery there (`WHERE EXISTS (SELECT sum(t.v) FROM u)`): PostgreSQL's 42803, in
  // the order it reads the clauses (SQLite ran the subquery's as an aggregate of its own, or refused
  // with another message)
  const aggregateIn = (e: Node): Node | null => ownAggregate(e) ?? outerAggregate(e, tables, schema, ctes, []);
  const joinConditions = (from: Node[] | undefined): Node[] =>
    (from ?? []).flatMap((f: Node) =>
      f.JoinExpr ? [...joinConditions([f.JoinExpr.larg, f.JoinExpr.rarg]), f.JoinExpr.quals] : [],
    );
  // a window function there is PostgreSQL's 42P20 (SQLite's 'misuse of window function')
  const windowIn = (e: Node): Node | null => firstCall(e, (f) => !!f.over);
  /**
   * The select item a GROUP BY term names by its position or its alias (a name no column of the
   * FROM has: PostgreSQL reads it as a column first); undefined for another term, null for a
   * position past the list.
   */
  const itemOf = (g: Node): Node | null | undefined => {
    // (the tree leaves out a zero: `GROUP BY 0`'s ival is {}, no position of the list)
    if (g?.A_Const?.ival) return targets[Number(g.A_Const.ival.ival ?? 0) - 1]?.val ?? null;
    const fields = g?.ColumnRef ? strings(g.ColumnRef.fields) : [];
    if (fields.length !== 1 || place(fields)) return undefined;
    return targets.find((t) => t.name?.toLowerCase() === fields[0].toLowerCase())?.val;
  };
  // (an aggregate or window function in the item a GROUP BY term names is refused as one written
  // there, `SELECT 2, max(x) ... GROUP BY 2`, at the call: SQLite's `aggregate functions are not
  // allowed in the GROUP BY clause`, `misuse of window function`)
  const named = (g: Node): Node =>
    g?.GroupingSet
      ? { GroupingSet: { ...g.GroupingSet, content: (g.GroupingSet.content ?? []).map(named) } }
      : (itemOf(g) ?? g);
  for (const [clause, where] of [
    [joinConditions(s.fromClause), 'JOIN conditions'],
    [s.whereClause, 'WHERE'],
    [(s.groupClause ?? []).map(named), 'GROUP BY'],
  ] as const) {
    const aggregate = aggregateIn(clause);
    if (aggregate)
      throw located(pgError('42803', `aggregate functions are not allowed in ${where}`), aggregate.location);
    const window = windowIn(clause);
    if (window) throw located(pgError('42P20', `window functions are not allowed in ${where}`), window.location);
  }
  const aggregated =
    [...targets.map((t) => t.val), s.havingClause].some((e) => ownAggregates(e)) ||
    targets.some((t) => outerAggregate(t.val, tables, schema, ctes, []));
  if (groups.length === 0 && !aggregated && !s.havingClause) return;

  const key = (e: Node): string =>
    JSON.stringify(e, (k, v) => {
      if (isPlaceKey(k)) return undefined;
      if (v?.ColumnRef && !v.ColumnRef.fields?.some((f: Node) => f.A_Star)) {
        const at = place(strings(v.ColumnRef.fields));
        return at ? { column: at.join('.') } : v;
      }
      return v;
    });

  // the grouped expressions: as written, by an output column's position or by its alias
  const grouped = new Set<string>();
  const groupKey = (g: Node): string | null => {
    const e = itemOf(g);
    return e === null ? null : key(e ?? g);
  };
  // a GROUP BY column none of the tables has (nor an item's alias): PostgreSQL's 42703 comes first,
  // which SQLite gives (with the hint, missing-column.ts), where this check would refuse another column
  const unknownColumn = (e: Node): boolean => {
    if (e === null || typeof e !== 'object') return false;
    if (Array.isArray(e)) return e.some(unknownColumn);
    if (e.SubLink) return false;
    if (e.ColumnRef && !e.ColumnRef.fields?.some((f: Node) => f.A_Star)) {
      const fields = strings(e.ColumnRef.fields);
      const alias = fields.length === 1 && targets.some((t) => t.name?.toLowerCase() === fields[0].toLowerCase());
      return !alias && !place(fields) && !(fields.length === 1 && tables.has(fields[0].toLowerCase()));
    }
    for (const k in e) if (k !== 'location' && unknownColumn(e[k])) return true;
    return false;
  };
  if (groups.some(unknownColumn)) return;
  for (const g of groups) {
    const k = groupKey(g);
    if (k === null) return;
    grouped.add(k);
  }
  const common = new Set(
    sets.length === 1
      ? grouped
      : sets[0].map(groupKey).filter((k) => sets.every((set) => set.some((g) => groupKey(g) === k))),
  );
  // tables whose primary key is grouped: each of their columns is (functional dependency)
  const dependent = new Set<string>();
  for (const [alias, table] of tables) {
    const pk = schema.tables.get(table)?.primaryKey ?? [];
    if (pk.length > 0 && pk.every((c) => common.has(JSON.stringify({ column: `${alias}.${c.toLowerCase()}` }))))
      dependent.add(alias);
  }

  const walk = (e: Node): void => {
    if (e === null || typeof e !== 'object') return;
    if (Array.isArray(e)) {
      for (const x of e) walk(x);
      return;
    }
    if (grouped.has(key(e))) return;
    if (e.SubLink) {
      // the expression it tests belongs to this query; the subquery may name this query's columns
      walk(e.SubLink.testexpr);
      sublink(e.SubLink.subselect, []);
      return;
    }
    if (e.SelectStmt) return;
    if (e.FuncCall?.over) {
      // a window function runs over the groups: its arguments, PARTITION BY and ORDER BY name
      // grouped columns or aggregates (`sum(sum(v)) OVER (ORDER BY k)`), as in PostgreSQL
      const { args, agg_filter, over } = e.FuncCall;
      walk([args, agg_filter, over.partitionClause, over.orderClause]);
      return;
    }
    if ((e.FuncCall && isAggregateCall(e.FuncCall)) || e.GroupingFunc) return;
    if (e.ColumnRef) {
      const fields = strings(e.ColumnRef.fields);
      if (e.ColumnRef.fields?.some((f: Node) => f.A_Star)) return;
      const ref = place(fields);
      if (ref && !dependent.has(ref[0]))
        throw located(
          pgError(
            '42803',
            `column "${ref.join('.')}" must appear in the GROUP BY clause or be used in an aggregate function`,
          ),
          e.ColumnRef.location,
        );
      return;
    }
    for (const k in e) if (k !== 'location') walk(e[k]);
  };
  /**
   * A subquery's references to this query's columns (PostgreSQL's "subquery uses ungrouped column
   * ... from outer query"): `scopes` are the FROM lists of the queries between this one and the
   * reference, innermost last. A name resolves to the innermost query holding it, as PostgreSQL
   * resolves it; one this check cannot place (a FROM item whose columns it does not know) is left.
   */
  const resolve = (fields: string[], scopes: Scope[]): { level: number } | [string, string] | 'unknown' => {
    const column = fields[fields.length - 1]?.toLowerCase();
    if (fields.length > 2) return 'unknown';
    for (let level = scopes.length - 1; level >= 0; level--) {
      for (const [alias, columns] of scopes[level]) {
        if (fields.length === 2 && alias === fields[0].toLowerCase()) return { level };
        if (fields.length === 1 && (columns === null || columns.has(column))) return columns ? { level } : 'unknown';
      }
    }
    return place(fields) ?? 'unknown';
  };
  /** The column references of e, outside subqueries. */
  const refs = (e: Node, out: string[][]): string[][] => {
    if (e === null || typeof e !== 'object') return out;
    if (Array.isArray(e)) for (const x of e) refs(x, out);
    else if (e.ColumnRef) {
      if (!e.ColumnRef.fields?.some((f: Node) => f.A_Star)) out.push(strings(e.ColumnRef.fields));
    } else if (!e.SubLink && !e.SelectStmt) for (const k in e) if (k !== 'location') refs(e[k], out);
    return out;
  };
  const sublink = (q: Node, outer: Scope[], around: Ctes = ctes): void => {
    const sel = q?.SelectStmt;
    if (!sel) return;
    const reach = withReach(sel, around, schema);
    if (sel.op && sel.op !== 'SETOP_NONE') {
      sublink({ SelectStmt: sel.larg }, outer, reach);
      sublink({ SelectStmt: sel.rarg }, outer, reach);
      return;
    }
    const scope: Scope = new Map();
    scopeOf(sel.fromClause, schema, reach, scope);
    const scopes = [...outer, scope];
    const inner = (e: Node): void => {
      if (e === null || typeof e !== 'object') return;
      if (Array.isArray(e)) {
        for (const x of e) inner(x);
        return;
      }
      const query = e.SelectStmt
        ? e
        : (e.SubLink?.subselect ?? e.RangeSubselect?.subquery ?? e.CommonTableExpr?.ctequery);
      if (query) {
        inner(e.SubLink?.testexpr);
        sublink(query, scopes, reach);
        return;
      }
      if (e.FuncCall && isAggregateCall(e.FuncCall) && !e.FuncCall.over) {
        // an aggregate over no column of this subquery belongs to an outer query (PostgreSQL's
        // aggregate level): `(SELECT ... WHERE u.x = max(t.v))` aggregates t's rows
        const levels = refs([e.FuncCall.args, e.FuncCall.agg_filter, e.FuncCall.agg_order], []).map((f) =>
          resolve(f, scopes),
        );
        if (!levels.some((l) => !Array.isArray(l) && l !== 'unknown' && l.level === scopes.length - 1)) return;
      }
      if (e.ColumnRef) {
        if (e.ColumnRef.fields?.some((f: Node) => f.A_Star)) return;
        const ref = resolve(strings(e.ColumnRef.fields), scopes);
        if (Array.isArray(ref) && !dependent.has(ref[0]) && !grouped.has(key(e)))
          throw located(
            pgError('42803', `subquery uses ungrouped column "${ref.join('.')}" from outer query`),
            e.ColumnRef.location,
          );
        return;
      }
      for (const k in e) if (k !== 'location') inner(e[k]);
    };
    // ORDER BY and GROUP BY may name the subquery's own output columns
    const names = new Set((sel.targetList ?? []).map((t: Node) => t.ResTarget?.name?.toLowerCase()));
    const own = (n: Node) => {
      const fields = n?.ColumnRef ? strings(n.ColumnRef.fields) : [];
      return fields.length === 1 && names.has(fields[0].toLowerCase());
    };
    for (const k in sel) {
      if (k === 'sortClause') for (const o of sel.sortClause) own(o.SortBy?.node) || inner(o);
      else if (k === 'groupClause') for (const g of sel.groupClause) own(g) || inner(g);
      else inner(sel[k]);
    }
  };
  for (const t of targets) walk(t.val);
  walk(s.havingClause);
  for (const o of s.sortClause ?? []) {
    // ORDER BY an output column's name sorts by that column (PostgreSQL reads the name so first)
    const n = o.SortBy?.node;
    const fields = n?.ColumnRef ? strings(n.ColumnRef.fields) : [];
    if (fields.length === 1 && targets.some((t) => t.name?.toLowerCase() === fields[0].toLowerCase())) continue;
    walk(n);
  }
}

/**
 * The first call in a subquery of e of an aggregate over this query's columns only (`(SELECT sum(t.v)
 * FROM u)` in a query over t), or null: PostgreSQL's aggregate level makes it this query's aggregate, and this
 * query a grouped one. `scopes` are the FROM lists of the subqueries around e; a name they may hold
 * (or that this query's tables lack) is not this query's.
 */
function outerAggregate(
  e: Node,
  tables: Map<string, string>,
  schema: Schema,
  ctes: Ctes,
  scopes: Scope[],
): Node | null {
  if (e === null || typeof e !== 'object') return null;
  const inner = (x: Node, sc: Scope[]) => outerAggregate(x, tables, schema, ctes, sc);
  if (Array.isArray(e)) {
    for (const x of e) {
      const f = inner(x, scopes);
      if (f) return f;
    }
    return null;
  }
  const sel = e.SubLink?.subselect?.SelectStmt;
  if (sel) {
    const tested = inner(e.SubLink.testexpr, scopes);
    if (tested) return tested;
    if (sel.op && sel.op !== 'SETOP_NONE') return null;
    const scope: Scope = new Map();
    scopeOf(sel.fromClause, schema, withReach(sel, ctes, schema), scope);
    return inner([sel.targetList, sel.whereClause, sel.havingClause], [...scopes, scope]);
  }
  if (e.SelectStmt || e.RangeSubselect) return null;
  if (scopes.length > 0 && e.FuncCall && !e.FuncCall.over && isAggregateCall(e.FuncCall))
    return aggregateIsOuter(e.FuncCall, tables, schema, scopes) ? e.FuncCall : null;
  for (const k in e) {
    if (k === 'location') continue;
    const f = inner(e[k], scopes);
    if (f) return f;
  }
  return null;
}

/** The column references of an aggregate call's arguments and FILTER, as name parts (not inside subqueries). */
function aggregateRefs(f: Node): string[][] {
  const refs: string[][] = [];
  const collect = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) n.forEach(collect);
    else if (n.ColumnRef) refs.push(strings(n.ColumnRef.fields));
    else if (!n.SubLink) for (const k in n) if (k !== 'location') collect(n[k]);
  };
  collect([f.args, f.agg_filter]);
  return refs;
}

/** Whether an aggregate call in a subquery (`scopes` the FROM lists around it) is over this query's columns only. */
function aggregateIsOuter(f: Node, tables: Map<string, string>, schema: Schema, scopes: Scope[]): boolean {
  const refs = aggregateRefs(f);
  const ours = (f: string[]) => {
    const column = f[f.length - 1]?.toLowerCase();
    if (f.length === 2) {
      const alias = f[0].toLowerCase();
      return !scopes.some((sc) => sc.has(alias)) && tables.has(alias) && hasColumn(schema, tables.get(alias)!, column);
    }
    if (f.length !== 1) return false;
    if (scopes.some((sc) => [...sc.values()].some((cols) => cols === null || cols.has(column)))) return false;
    return [...tables.values()].some((t) => hasColumn(schema, t, column));
  };
  return refs.length > 0 && refs.every(ours);
}

/** Whether e calls, outside subqueries, an aggregate of the subquery it is in (`scopes` around it). */
function ownAggregate(e: Node, tables: Map<string, string>, schema: Schema, scopes: Scope[]): boolean {
  if (e === null || typeof e !== 'object') return false;
  if (Array.isArray(e)) return e.some((x) => ownAggregate(x, tables, schema, scopes));
  if (e.SubLink || e.SelectStmt) return false;
  if (e.FuncCall && !e.FuncCall.over && isAggregateCall(e.FuncCall))
    return !aggregateIsOuter(e.FuncCall, tables, schema, scopes);
  for (const k in e) if (k !== 'location' && ownAggregate(e[k], tables, schema, scopes)) return true;
  return false;
}

/**
 * The scalar subqueries in e that an aggregate of this query's columns makes many rows, one per
 * row of their FROM (`(SELECT sum(t.v) FROM u)`: no aggregate of their own, no GROUP BY, no
 * LIMIT): the offsets of their '(' in `guards`, for translate/one-row.ts's 21000 when they give more
 * than one, as PostgreSQL's "more than one row returned by a subquery used as an expression".
 */
function manyRowSubqueries(e: Node, tables: Map<string, string>, schema: Schema, ctes: Ctes, guards: number[]): void {
  if (e === null || typeof e !== 'object') return;
  if (Array.isArray(e)) {
    for (const x of e) manyRowSubqueries(x, tables, schema, ctes, guards);
    return;
  }
  const sel = e.SubLink?.subselect?.SelectStmt;
  if (sel) {
    if (
      e.SubLink.subLinkType === 'EXPR_SUBLINK' &&
      (!sel.op || sel.op === 'SETOP_NONE') &&
      sel.fromClause?.length > 0 &&
      !sel.groupClause &&
      !sel.havingClause &&
      !sel.limitCount &&
      !sel.limitOffset &&
      !sel.distinctClause
    ) {
      const scope: Scope = new Map();
      const reach = withReach(sel, ctes, schema);
      scopeOf(sel.fromClause, schema, reach, scope);
      if (
        outerAggregate(sel.targetList, tables, schema, reach, [scope]) &&
        !ownAggregate(sel.targetList, tables, schema, [scope])
      )
        guards.push(e.SubLink.location);
    }
    return;
  }
  if (e.SelectStmt) return;
  for (const k in e) if (k !== 'location') manyRowSubqueries(e[k], tables, schema, ctes, guards);
}

function hasColumn(schema: Schema, table: string, column: string): boolean {
  return schema.tables.get(table)?.columns.some((c) => c.name.toLowerCase() === column) ?? false;
}
