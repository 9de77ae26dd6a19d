// PostgreSQL's 42703 for a column no FROM item in reach has comes with a HINT naming what the user
// may have meant (parse_relation.c's errorMissingColumn): `Perhaps you meant to reference the
// column "t.name".` for a name a Levenshtein distance or two away, two such columns when two are
// equally near, or `There is a column named "x" in table "t", but it cannot be referenced from
// this part of the query.` when the name is a column of a range table entry out of reach (the
// target of INSERT ... VALUES, a FROM item left of a subquery not marked LATERAL). SQLite says only
// `no such column: nme`; here the statement is read again as PostgreSQL's parser reads it, in its
// order, to find the reference that fails, the range tables it sees from there, and the hint.
import type { Schema, TableDef } from '../../../src/engine/schema/model';
import { PatinaError } from '../../../src/errors';
import { PgError, pgErrorAt, sqlstateOf } from '../sqlstate';
import { parseTree } from './parse';
import {
  Level,
  type NsItem,
  type Rte,
  addCtes,
  fromItem,
  queryColumns,
  sameName,
  tableColumns,
  tableNamed,
} from './range-table';
import { figuredName } from './column-names';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** PostgreSQL's MAX_FUZZY_DISTANCE: a name more than this many edits away is never suggested. */
const MAX_FUZZY_DISTANCE = 3;

/** The system columns a table's range table entry answers to (scanRTEForColumn). */
const SYSTEM_COLUMNS = new Set(['ctid', 'xmin', 'cmin', 'xmax', 'cmax', 'tableoid']);

/**
 * `err` with PostgreSQL's HINT when it is a 42703 `column "x" does not exist` (or `column t.x does
 * not exist`) of `sql`, its name as PostgreSQL's parser folds it and its position at the
 * reference that fails; `err` itself when the reference or what it could have meant is not known
 * here (a catalog relation in reach, a function of no known columns).
 */
export function withColumnHint(err: unknown, sql: string, schema: Schema): unknown {
  if (!(err instanceof PatinaError) && !/^SQLITE/.test(String((err as { code?: unknown } | null)?.code ?? '')))
    return err;
  // (one placed already is PostgreSQL's own, quoted-names.ts's with the exact names' HINT)
  if (err instanceof PgError && err.position !== undefined) return err;
  const { code, message } = sqlstateOf(err);
  // (SQLite's `no such table: t` of `t.*` where no FROM item is named t: PostgreSQL's 42P01 of the reference)
  const star = code === '42P01' ? /^relation "([^".]+)" does not exist$/.exec(message) : null;
  const m = code === '42703' ? /^column (?:"(.+)"|([^\s".]+)\.([^\s".]+)) does not exist$/.exec(message) : null;
  if (!m && !star) return err;
  const fields = star ? [star[1], ''] : m![1] !== undefined ? [m![1]] : [m![2], m![3]];
  let found: Missing | null;
  try {
    found = missingColumn(parseTree(sql), schema, fields);
  } catch {
    return err;
  }
  if (!found) return err;
  const [alias, name] = found.fields.length === 2 ? found.fields : [null, found.fields[0]];
  const e = found.variables
    ? new PgError('user', `argument of ${found.variables} must not contain variables`, '42P10')
    : found.noFrom
      ? new PgError(
          'user',
          found.entry
            ? `invalid reference to FROM-clause entry for table "${alias}"`
            : `missing FROM-clause entry for table "${alias}"`,
          '42P01',
        )
      : new PgError(
          'user',
          alias === null ? `column "${name}" does not exist` : `column ${alias}.${name} does not exist`,
          '42703',
        );
  if (found.hint) e.hint = found.hint;
  e.position = Buffer.from(sql).subarray(0, found.location).toString().length;
  return e;
}

/**
 * Whether a reference to `fields` in `sql` resolves nowhere as PostgreSQL reads the statement (an
 * output alias SQLite would read inside an ORDER BY expression: `ORDER BY x + 1`). False when the
 * text does not parse or the reference cannot be placed here.
 */
export function failsToResolve(sql: string, schema: Schema, fields: string[]): boolean {
  try {
    return missingColumn(parseTree(sql), schema, fields) !== null;
  } catch {
    return false;
  }
}

/** The reference that fails: its fields as the parser has them, where it stands, PostgreSQL's hint. */
interface Missing {
  fields: string[];
  location: number;
  hint?: string;
  /** `a.c` whose relation a is in no FROM (PostgreSQL's 42P01, not 42703). */
  noFrom?: boolean;
  /** ... while a range table entry of it is out of reach (`invalid reference to FROM-clause entry`). */
  entry?: string;
  /** A column of the query's own in its LIMIT or OFFSET (the clause): 42P10, not 42703. */
  variables?: string;
}

/**
 * A column reference of the statement with a quoted name holding upper-case letters (`"Id"`,
 * `t."NAME"`, `"T".id`) that reaches no column, or no relation, of that exact case: PostgreSQL's
 * 42703 (with its HINT) or 42P01 `missing FROM-clause entry`, SQLite having matched it without
 * case. Null when every such reference resolves or one on the way cannot be placed here.
 * (A table or WITH query named so throws its 42P01 from range-table.ts's tableNamed.)
 */
export function quotedMiss(tree: Node, schema: Schema): Missing | null {
  const stmt = tree.stmts?.length === 1 ? tree.stmts[0].stmt : null;
  try {
    statement(stmt, new Level(schema, null, true), QUOTED);
  } catch (e) {
    if (e instanceof Stop) return e.found;
    throw e;
  }
  return null;
}

/** The `want` of quotedMiss: every reference with a field of upper-case letters. */
const QUOTED: string[] = [];

/** Stops the reading: the reference was found, or something on the way is not known here. */
class Stop {
  constructor(readonly found: Missing | null) {}
}

/**
 * The first reference to `fields` (matched without case: SQLite's message keeps the text's) that
 * resolves nowhere, in the order PostgreSQL's parser reads the statement, with its hint; null when
 * none is found or one on the way cannot be placed.
 */
function missingColumn(tree: Node, schema: Schema, fields: string[]): Missing | null {
  const stmt = tree.stmts?.length === 1 ? tree.stmts[0].stmt : null;
  const want = fields.map((f) => f.toLowerCase());
  try {
    statement(stmt, new Level(schema, null), want);
  } catch (e) {
    if (e instanceof Stop) return e.found;
    throw e;
  }
  return null;
}

/** Reads one statement (and what it holds) on the outermost level. */
function statement(s: Node, at: Level, want: string[]): void {
  if (s?.SelectStmt) select(s.SelectStmt, at, want);
  else if (s?.InsertStmt) insert(s.InsertStmt, at, want);
  else if (s?.UpdateStmt) update(s.UpdateStmt, at, want);
  else if (s?.DeleteStmt) del(s.DeleteStmt, at, want);
  else if (s?.ExplainStmt) statement(s.ExplainStmt.query, at, want);
  else if (s?.DeclareCursorStmt) statement(s.DeclareCursorStmt.query, at, want);
  else throw new Stop(null);
}

/** A query read on a level of its own under `parent` (a subquery, a WITH query, a set operation's branch). */
function subquery(q: Node, parent: Level, want: string[]): void {
  const s = q?.SelectStmt ?? q;
  // (a write in WITH: not placed here)
  if (s && Object.keys(s).some((k) => k.endsWith('Stmt'))) throw new Stop(null);
  select(s, new Level(parent.schema, parent), want);
}

/** The walk of FROM items on behalf of the hint: subqueries and expressions are searched too. */
const walkFor = (want: string[]) => ({
  subquery: (q: Node, at: Level) => subquery(q, at, want),
  expr: (e: Node, at: Level) => expr(e, at, want),
});

/** Reads a FROM list onto `level`, its items visible to what follows once it is read. */
function fromList(from: Node[] | undefined, level: Level, want: string[], before: NsItem[] = []): void {
  const ns: NsItem[] = [];
  const saved = level.visible;
  level.visible = [];
  for (const f of from ?? []) ns.push(...fromItem(f, level, walkFor(want), ns));
  level.visible = [...saved, ...before, ...ns];
}

/** A SELECT, in PostgreSQL's order: WITH, FROM, the select list, WHERE, HAVING, ORDER BY, GROUP BY, ... */
function select(s: Node, level: Level, want: string[]): void {
  if (!s) return;
  addCtes(s.withClause, level, walkFor(want));
  if (s.op && s.op !== 'SETOP_NONE') {
    subquery(s.larg, level, want);
    subquery(s.rarg, level, want);
    // (ORDER BY of a set operation reads its result's columns: not placed here)
    if (refersTo(s.sortClause, want)) throw new Stop(null);
    expr([s.limitOffset, s.limitCount], level, want);
    return;
  }
  if (s.valuesLists) {
    expr(s.valuesLists, level, want);
    return;
  }
  fromList(s.fromClause, level, want);
  const targets: Node[] = (s.targetList ?? []).map((t: Node) => t.ResTarget);
  expr(
    targets.map((t) => t?.val),
    level,
    want,
  );
  expr(s.whereClause, level, want);
  expr(s.havingClause, level, want);
  // ORDER BY, GROUP BY and DISTINCT ON: a bare name may be a select item's
  const outputs = new Set(targets.map((t) => (t ? (t.name ?? figuredName(t.val)) : '')));
  const term = (n: Node) => {
    const f = n?.ColumnRef?.fields;
    if (f?.length === 1 && f[0].String && outputs.has(f[0].String.sval)) return;
    // (in ROLLUP, CUBE and GROUPING SETS, and rows of them, too: `ROLLUP (x, (y, z))`)
    if (n?.GroupingSet) for (const c of n.GroupingSet.content ?? []) term(c);
    else if (n?.RowExpr) for (const c of n.RowExpr.args ?? []) term(c);
    else expr(n, level, want);
  };
  for (const o of s.sortClause ?? []) term(o.SortBy?.node);
  for (const g of s.groupClause ?? []) term(g);
  // (DISTINCT ON's too: findTargetlistEntrySQL92 reads it as it reads ORDER BY)
  for (const d of s.distinctClause ?? []) term(d);
  limitArgument(s.limitOffset, 'OFFSET', level, want);
  limitArgument(s.limitCount, 'LIMIT', level, want);
  expr(s.windowClause, level, want);
}

/**
 * LIMIT's or OFFSET's count: read as any expression, then, where it names a column of this query's
 * own FROM (`LIMIT id`, `LIMIT n + 1`; SQLite has no row there and says `no such column`),
 * PostgreSQL's 42P10 `argument of LIMIT must not contain variables` at that reference
 * (checkExprHasNoVars). An outer query's column is a constant there, as in PostgreSQL.
 */
function limitArgument(n: Node, clause: string, level: Level, want: string[]): void {
  expr(n, level, want);
  const own = Object.assign(new Level(level.schema, null, level.exact), { visible: level.visible });
  const first = (x: Node): Node | undefined => {
    if (x === null || typeof x !== 'object' || x.SubLink) return undefined;
    if (Array.isArray(x)) return x.map(first).find((r) => r);
    if (x.ColumnRef) return resolves(strings(x.ColumnRef.fields), own) === 'yes' ? x.ColumnRef : undefined;
    for (const k in x) {
      const r = first(x[k]);
      if (r) return r;
    }
    return undefined;
  };
  const ref = first(n);
  if (ref) throw new Stop({ fields: [], location: ref.location, variables: clause });
}

/** INSERT: its target is in the range table but out of reach of VALUES and the SELECT. */
function insert(s: Node, level: Level, want: string[]): void {
  addCtes(s.withClause, level, walkFor(want));
  const rel = s.relation;
  const name = String(rel.relname);
  const tableDef = !rel.schemaname || rel.schemaname === 'public' ? tableNamed(level, rel) : undefined;
  const target: Rte = {
    alias: String(rel.alias?.aliasname ?? name),
    columns: tableDef ? tableColumns(tableDef, level) : null,
    table: !!tableDef,
  };
  // (the column list is read before VALUES and the SELECT, as checkInsertTargets is)
  if (tableDef) targetColumns(s.cols, tableDef, level);
  const q = s.selectStmt?.SelectStmt;
  const general =
    q && (!q.valuesLists || q.sortClause || q.limitOffset || q.limitCount || q.lockingClause || q.withClause);
  level.rtable.push(target);
  if (general) {
    subquery(q, level, want);
    level.rtable.push({ alias: '*SELECT*', columns: queryColumns(q, level), table: false });
  } else if (q) {
    expr(q.valuesLists, level, want);
    const n = q.valuesLists.length > 1 ? (q.valuesLists[0]?.List?.items?.length ?? 0) : 0;
    if (n > 0)
      level.rtable.push({
        alias: '*VALUES*',
        columns: Array.from({ length: n }, (_, i) => `column${i + 1}`),
        table: false,
      });
  }
  const item = (r: Rte): NsItem => ({ ...r, rel: true, cols: true });
  const conflict = s.onConflictClause;
  if (conflict) {
    level.visible = [item(target)];
    const update = conflict.action === 'ONCONFLICT_UPDATE';
    // (excluded is in the range table before the arbiter is read: PostgreSQL's hint may name it)
    const excluded: Rte = { alias: 'excluded', columns: target.columns, table: false };
    if (update) level.rtable.push(excluded);
    arbiter(conflict.infer, level, want);
    if (update) {
      level.visible = [item(target), item(excluded)];
      expr(
        (conflict.targetList ?? []).map((t: Node) => t.ResTarget?.val),
        level,
        want,
      );
      // (DO UPDATE SET's columns after their values, as transformUpdateTargetList reads them)
      if (tableDef) targetColumns(conflict.targetList, tableDef, level);
      expr(conflict.whereClause, level, want);
    }
  }
  level.visible = [item(target)];
  expr(returning(s), level, want);
}

/**
 * ON CONFLICT's arbiter: a bare column name (IndexElem's name, no expression) is read as a column
 * reference placed at the parenthesis, as resolve_unique_index_expr makes one; then its WHERE.
 */
function arbiter(infer: Node, level: Level, want: string[]): void {
  if (!infer) return;
  for (const e of infer.indexElems ?? []) {
    const name = e.IndexElem?.name;
    if (typeof name === 'string')
      expr({ ColumnRef: { fields: [{ String: { sval: name } }], location: infer.location } }, level, want);
    else expr(e.IndexElem?.expr, level, want);
  }
  expr(infer.whereClause, level, want);
}

/** UPDATE: the target, then FROM (which does not see it), WHERE, RETURNING and the SET values. */
function update(s: Node, level: Level, want: string[]): void {
  addCtes(s.withClause, level, walkFor(want));
  const target = fromItem({ RangeVar: s.relation }, level, {}, []);
  fromList(s.fromClause, level, want, target);
  expr(s.whereClause, level, want);
  expr(returning(s), level, want);
  expr(
    (s.targetList ?? []).map((t: Node) => t.ResTarget?.val),
    level,
    want,
  );
  // (the SET columns are looked up after their values are read, as transformUpdateTargetList does)
  const tableDef =
    !s.relation.schemaname || s.relation.schemaname === 'public' ? tableNamed(level, s.relation) : undefined;
  if (tableDef) targetColumns(s.targetList, tableDef, level);
}

/**
 * Where names match exactly: an INSERT column list's or an UPDATE SET's quoted name of another case
 * than every column of the table is PostgreSQL's 42703 `column "Id" of relation "t" does not exist`.
 */
function targetColumns(targets: Node[] | undefined, table: TableDef, level: Level): void {
  if (!level.exact) return;
  for (const t of targets ?? []) {
    const name = t.ResTarget?.name;
    if (typeof name !== 'string' || name === name.toLowerCase()) continue;
    if (!table.columns.some((c) => sameName(name, c.name)))
      throw pgErrorAt('42703', `column "${name}" of relation "${table.name}" does not exist`, t.ResTarget.location);
  }
}

/** DELETE: the target, USING, WHERE, RETURNING. */
function del(s: Node, level: Level, want: string[]): void {
  addCtes(s.withClause, level, walkFor(want));
  const target = fromItem({ RangeVar: s.relation }, level, {}, []);
  fromList(s.usingClause, level, want, target);
  expr(s.whereClause, level, want);
  expr(returning(s), level, want);
}

/** A write's RETURNING expressions (libpg-query's tree has held them under two names). */
const returning = (s: Node): Node[] =>
  (s.returningClause?.exprs ?? s.returningList ?? []).map((t: Node) => t.ResTarget?.val);

/** Whether `n` holds a column reference to `want`. */
function refersTo(n: Node, want: string[]): boolean {
  if (n === null || typeof n !== 'object') return false;
  if (Array.isArray(n)) return n.some((x) => refersTo(x, want));
  if (n.ColumnRef && sameFields(n.ColumnRef.fields, want)) return true;
  for (const k in n) if (k !== 'location' && refersTo(n[k], want)) return true;
  return false;
}

/** Whether a ColumnRef's fields are `want` (without case; QUOTED: any with upper-case letters). */
function sameFields(fields: Node[] | undefined, want: string[]): boolean {
  // (`"T".*` too: its relation is looked for)
  if (want === QUOTED)
    return (
      !!fields?.every((f, i) => f.String || (f.A_Star && i > 0 && i === fields.length - 1)) &&
      strings(fields).some((f) => f !== f.toLowerCase())
    );
  // (`t.*` is wanted as [t, ''])
  const star = (f: Node, i: number) => f.A_Star && i === want.length - 1 && want[i] === '';
  if (!fields || fields.length !== want.length || fields.some((f, i) => !f.String && !star(f, i))) return false;
  return strings(fields).every((f, i) => f.toLowerCase() === want[i]);
}

/** Searches an expression on `level`: a subquery is read on a level of its own. */
function expr(n: Node, level: Level, want: string[]): void {
  if (n === null || typeof n !== 'object') return;
  if (Array.isArray(n)) {
    for (const x of n) expr(x, level, want);
    return;
  }
  if (n.SubLink) {
    // (the subquery is read before the expression it is compared with)
    subquery(n.SubLink.subselect, level, want);
    expr(n.SubLink.testexpr, level, want);
    return;
  }
  if (n.SelectStmt) {
    subquery(n, level, want);
    return;
  }
  if (n.ColumnRef) {
    if (!sameFields(n.ColumnRef.fields, want)) return;
    const fields = strings(n.ColumnRef.fields);
    const found = resolves(fields, level);
    if (found === 'unknown') throw new Stop(null);
    if (found === 'no') throw new Stop(missing(fields, n.ColumnRef.location, level));
    if (found === 'noFrom')
      throw new Stop({ fields, location: n.ColumnRef.location, noFrom: true, ...missingRte(fields[0], level) });
    return;
  }
  for (const k in n) if (k !== 'location') expr(n[k], level, want);
}

/** Whether a reference reaches a column from `level` (colNameToVar, or the relation of `a.c`). */
function resolves(fields: string[], level: Level): 'yes' | 'no' | 'noFrom' | 'unknown' {
  const same = level.exact ? sameName : (a: string, b: string) => a === b;
  const has = (n: NsItem, c: string) =>
    n.columns === null ? null : n.columns.some((x) => same(c, x)) || (n.table && SYSTEM_COLUMNS.has(c));
  // (`public.t.c` where names match exactly: t's relation named with its schema)
  if (level.exact && fields.length === 3) {
    if (fields[0] !== 'public') return 'unknown';
    const r = resolves(fields.slice(1), level);
    return r === 'noFrom' ? 'unknown' : r;
  }
  if (fields.length === 1) {
    const [c] = fields;
    for (let l: Level | null = level; l; l = l.parent) {
      for (const n of l.visible.filter((x) => x.cols)) {
        const h = has(n, c);
        if (h === null) return 'unknown';
        if (h) return 'yes';
      }
    }
    // (a relation's name alone is its whole row)
    for (let l: Level | null = level; l; l = l.parent)
      if (l.visible.some((n) => n.rel && n.alias !== null && same(c, n.alias))) return 'yes';
    return 'no';
  }
  if (fields.length !== 2) return 'unknown';
  const [a, c] = fields;
  for (let l: Level | null = level; l; l = l.parent) {
    const n = l.visible.filter((x) => x.rel && x.alias !== null && same(a, x.alias)).pop();
    if (!n) continue;
    const h = c === '' ? true : has(n, c); // ('' : `a.*`)
    return h === null ? 'unknown' : h ? 'yes' : 'no';
  }
  if (!level.exact) return 'noFrom'; // (no such relation: PostgreSQL's 42P01)
  // a quoted name of another case than every relation's in reach (SQLite found it without case)
  for (let l: Level | null = level; l; l = l.parent)
    if (l.visible.some((x) => x.rel && x.alias?.toLowerCase() === a.toLowerCase())) return 'noFrom';
  return 'yes';
}

/**
 * `a.c` whose relation a no FROM item in reach names, as PostgreSQL's errorMissingRTE words it: a
 * range table entry of the table a, or named a, out of reach (`SELECT orders.id FROM orders o`, a
 * FROM item left of a subquery not marked LATERAL) makes it `invalid reference to FROM-clause entry`
 * with a HINT naming the alias to use, or saying the entry cannot be referenced from there.
 */
function missingRte(a: string, level: Level): { entry?: string; hint?: string } {
  for (let l: Level | null = level; l; l = l.parent) {
    const rte = l.rtable.find((r) => r.relname === a || r.alias === a);
    if (!rte) continue;
    return {
      entry: a,
      hint:
        rte.alias !== a
          ? `Perhaps you meant to reference the table alias "${rte.alias}".`
          : `There is an entry for table "${a}", but it cannot be referenced from this part of the query.`,
    };
  }
  return {};
}

/** The reference that failed with PostgreSQL's hint (searchRangeTableForCol, errorMissingColumn). */
function missing(fields: string[], location: number, level: Level): Missing {
  const [alias, name] = fields.length === 2 ? fields : [null, fields[0]];
  const found: Missing = { fields, location };
  const st: Fuzzy = { distance: MAX_FUZZY_DISTANCE + 1 };
  for (let l: Level | null = level; l; l = l.parent) {
    for (const rte of l.rtable) {
      if (rte.columns === null) return found; // (a relation whose columns are not known here)
      const penalty = alias === null ? 0 : levenshtein(alias, rte.alias);
      let exact = false;
      for (const c of rte.columns) {
        if (l.exact ? sameName(name, c) : c === name) exact = true;
        fuzzy(penalty, st, rte, c, name);
      }
      if (!exact && rte.table && SYSTEM_COLUMNS.has(name)) exact = true;
      if (exact && penalty === 0) {
        found.hint = `There is a column named "${name}" in table "${rte.alias}", but it cannot be referenced from this part of the query.`;
        return found;
      }
    }
  }
  const hint = fuzzyHint(st);
  if (hint) found.hint = hint;
  return found;
}

/** errorMissingColumn's HINT of the nearest columns found, undefined for none. */
function fuzzyHint(st: Fuzzy): string | undefined {
  if (st.first && st.second)
    return `Perhaps you meant to reference the column "${st.first.rte.alias}.${st.first.column}" or the column "${st.second.rte.alias}.${st.second.column}".`;
  if (st.first) return `Perhaps you meant to reference the column "${st.first.rte.alias}.${st.first.column}".`;
  return undefined;
}

/**
 * PostgreSQL's HINT for a bare name no column of `rtes` (range table entries of known columns, in
 * order) is: the one or two nearest columns, as the search above words them; undefined for none.
 */
export function nearestColumnHint(name: string, rtes: Rte[]): string | undefined {
  const st: Fuzzy = { distance: MAX_FUZZY_DISTANCE + 1 };
  for (const rte of rtes) for (const c of rte.columns ?? []) fuzzy(0, st, rte, c, name);
  return fuzzyHint(st);
}

/** The nearest columns so far (FuzzyAttrMatchState): at most two at the lowest distance. */
interface Fuzzy {
  distance: number;
  first?: { rte: Rte; column: string };
  second?: { rte: Rte; column: string };
}

/** PostgreSQL's updateFuzzyAttrMatchState: whether column `actual` is a nearest match for `match`. */
function fuzzy(penalty: number, st: Fuzzy, rte: Rte, actual: string, match: string): void {
  if (penalty > st.distance || actual === '') return;
  let d = levenshtein(actual, match);
  // more than half the characters (bytes, as PostgreSQL counts them) different: no suggestion
  if (d > Math.floor(Buffer.byteLength(match) / 2)) return;
  d += penalty;
  if (d < st.distance) {
    st.distance = d;
    st.first = { rte, column: actual };
    st.second = undefined;
  } else if (d === st.distance) {
    if (st.second) {
      // a third as near: none is suggested, and only a nearer one may be
      st.first = undefined;
      st.second = undefined;
      st.distance = d - 1;
    } else if (st.first) st.second = { rte, column: actual };
    else if (st.distance <= MAX_FUZZY_DISTANCE) st.first = { rte, column: actual };
  }
}

/**
 * The Levenshtein distance of two names, in characters, each insertion, deletion and substitution
 * costing 1 (PostgreSQL bounds it by what could still matter; the bound never changes an outcome).
 */
function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length];
}
