// Two FROM items of one query under one name (`FROM t, t`, `FROM log JOIN log USING (id)`, `FROM
// t, u AS t`, `UPDATE t ... FROM t`, `DELETE FROM t USING t`) are PostgreSQL's 42712 `table name
// "t" specified more than once`, without a position (parse_relation.c's checkNameSpaceConflicts);
// SQLite ran most of them, or failed later on an ambiguous column. PostgreSQL checks as it reads
// the FROM clause, each item against those before it and a join's right side against its left,
// after reading the WITH queries and before the select list, so a relation that does not exist
// before the clash is its 42P01 instead: the walk stops (silent) at a name it cannot place.
// Two tables of one name in different schemas do not clash when neither has an alias (the SQL
// rule); Patina's tables are all in public.
import type { Schema } from '../../../src/engine/schema/model';
import { PgError, pgError } from '../sqlstate';
import { type PgToken, identName } from './lexer';
import { parseTree } from './parse';
import { writtenAt } from './type-names';
import { strings } from './type-signatures';
import { isWord } from './tokens';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** A namespace item visible by name: its name and, for a table named without alias, its schema. */
interface Named {
  name: string;
  schema: string | null;
}

/** Stops the walk: a name on the way is not known here (PostgreSQL's error for it comes first). */
class Stop {}

/** Reserved words that end a FROM list at its depth (no alias can be one unquoted). */
const FROM_LIST_ENDS = new Set([
  'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION', 'EXCEPT',
  'INTERSECT', 'RETURNING', 'ON',
]); // biome-ignore format: a word list

/**
 * Whether some query may have two FROM items (or a target and one): a JOIN, a USING, an UPDATE
 * beside a FROM, or a comma of a FROM list (whether a clause is one kept per parenthesis depth).
 * Most statements have one FROM item a query; they need not be read for names at all.
 */
function mayHaveTwoItems(tokens: readonly PgToken[]): boolean {
  const inFrom: boolean[] = [false];
  let update = false;
  let from = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'punct') {
      // a FROM item's column list (`log AS x(log)`, `log x(log)`): two of its names may be alike
      if (t.text === '(' && inFrom[inFrom.length - 1] && isAliasName(tokens, i - 1)) return true;
      if (t.text === '(') inFrom.push(false);
      else if (t.text === ')') inFrom.length > 1 && inFrom.pop();
      else if (t.text === ',' && inFrom[inFrom.length - 1]) return true;
    } else if (t.type === 'word') {
      if (isWord(t, 'JOIN') || isWord(t, 'USING')) return true;
      if (isWord(t, 'FROM')) {
        inFrom[inFrom.length - 1] = true;
        from = true;
      } else if (isWord(t, 'UPDATE')) update = true;
      else if (FROM_LIST_ENDS.has(t.text.toUpperCase())) inFrom[inFrom.length - 1] = false;
    }
  }
  return update && from;
}

/** Whether token `i` is an alias after AS or after a relation's name (a word after a word), not a called function's name. */
function isAliasName(tokens: readonly PgToken[], i: number): boolean {
  const w = tokens[i];
  const before = tokens[i - 1];
  if (!w || (w.type !== 'word' && w.type !== 'quoted') || !before) return false;
  if (before.type === 'word' && isWord(before, 'AS')) return true;
  return (before.type === 'word' || before.type === 'quoted') && !isWord(before, 'FROM') && !isWord(before, 'LATERAL');
}

/** Whether two FROM items may share a name: some query may have two, and some name is written twice (the cheap test before the tree's). */
export function mayNameTwice(tokens: readonly PgToken[]): boolean {
  if (!mayHaveTwoItems(tokens)) return false;
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.type !== 'word' && t.type !== 'quoted') continue;
    const name = identName(t);
    if (seen.has(name)) return true;
    seen.add(name);
  }
  return false;
}

/**
 * Throws PostgreSQL's 42712 for the first query of `text` (the tokens joined) naming two FROM items
 * alike, its 42702 for a reference to a name a FROM item's column list gives two columns.
 */
export function checkFromNames(text: string, schema: Schema, tokens: readonly PgToken[]): void {
  let tree: Node;
  try {
    tree = parseTree(text);
  } catch {
    return;
  }
  if (tree.stmts?.length !== 1) return;
  try {
    visit(tree.stmts[0].stmt, schema, []);
  } catch (e) {
    if (e instanceof Stop) return;
    const at = (e as { location?: number }).location;
    if (e instanceof PgError && at !== undefined)
      e.position = writtenAt(Buffer.from(text).subarray(0, at).toString().length, tokens);
    throw e;
  }
}

/** Reads `n` in PostgreSQL's order; `ctes` are the WITH query names in reach. */
function visit(n: Node, schema: Schema, ctes: string[]): void {
  if (n === null || typeof n !== 'object') return;
  if (Array.isArray(n)) {
    for (const x of n) visit(x, schema, ctes);
    return;
  }
  const q = n.SelectStmt ?? n.UpdateStmt ?? n.DeleteStmt;
  if (!q) {
    for (const k of Object.keys(n)) visit(n[k], schema, ctes);
    return;
  }
  const inner = withQueries(q.withClause, schema, ctes);
  const namespace: Named[] = [];
  // a column list naming two columns alike (`log AS x(log)` of a table (id, log)): a reference is 42702
  if (n.SelectStmt) twiceNamedColumns(q, schema);
  // (an UPDATE's or DELETE's target is in the namespace its FROM or USING items are checked against)
  if (n.UpdateStmt || n.DeleteStmt) namespace.push(...item({ RangeVar: q.relation }, schema, inner));
  for (const f of q.fromClause ?? q.usingClause ?? []) {
    const mine = item(f, schema, inner);
    clash(namespace, mine);
    namespace.push(...mine);
  }
  for (const k of Object.keys(q))
    if (k === 'larg' || k === 'rarg') visit({ SelectStmt: q[k] }, schema, inner);
    else if (k !== 'withClause' && k !== 'fromClause' && k !== 'usingClause' && k !== 'relation')
      visit(q[k], schema, inner);
}

/** Reads a WITH clause's queries (each sees those before it, all of them under RECURSIVE); the names after it. */
function withQueries(w: Node, schema: Schema, ctes: string[]): string[] {
  if (!w) return ctes;
  const names = (w.ctes ?? []).map((c: Node) => String(c.CommonTableExpr?.ctename));
  (w.ctes ?? []).forEach((c: Node, i: number) => {
    visit(c.CommonTableExpr?.ctequery, schema, [...ctes, ...(w.recursive ? names : names.slice(0, i))]);
  });
  return [...ctes, ...names];
}

/** Reads FROM item `f` and returns the namespace items it shows by name (transformFromClauseItem). */
function item(f: Node, schema: Schema, ctes: string[]): Named[] {
  if (f?.RangeVar) {
    const r = f.RangeVar;
    const name = String(r.relname);
    const cte = !r.schemaname && ctes.includes(name);
    const table =
      !cte &&
      (!r.schemaname || r.schemaname === 'public') &&
      [...schema.tables.keys()].some((k) => k.toLowerCase() === name.toLowerCase());
    if (!cte && !table) throw new Stop();
    if (r.alias) return [{ name: String(r.alias.aliasname), schema: null }];
    return [{ name, schema: cte ? null : 'public' }];
  }
  if (f?.RangeSubselect) {
    visit(f.RangeSubselect.subquery, schema, ctes);
    const alias = f.RangeSubselect.alias?.aliasname;
    return alias === undefined ? [] : [{ name: String(alias), schema: null }];
  }
  if (f?.RangeFunction) {
    const rf = f.RangeFunction;
    const call = rf.functions?.length === 1 ? rf.functions[0]?.List?.items?.[0]?.FuncCall : undefined;
    const name = rf.alias?.aliasname ?? (call ? strings(call.funcname).pop() : undefined);
    return name === undefined ? [] : [{ name: String(name), schema: null }];
  }
  if (f?.JoinExpr) {
    const j = f.JoinExpr;
    const l = item(j.larg, schema, ctes);
    const r = item(j.rarg, schema, ctes);
    clash(l, r);
    visit(j.quals, schema, ctes);
    if (j.alias) return [{ name: String(j.alias.aliasname), schema: null }];
    const mine = [...l, ...r];
    if (j.join_using_alias) {
      const using = { name: String(j.join_using_alias.aliasname), schema: null };
      clash([using], mine);
      mine.push(using);
    }
    return mine;
  }
  // (TABLESAMPLE, XMLTABLE, ...: not read here)
  throw new Stop();
}

/** PostgreSQL's checkNameSpaceConflicts: a name in both lists, unless two tables of different schemas. */
function clash(a: Named[], b: Named[]): void {
  for (const x of a)
    for (const y of b)
      if (x.name === y.name && !(x.schema !== null && y.schema !== null && x.schema !== y.schema))
        throw pgError('42712', `table name "${x.name}" specified more than once`);
}

/**
 * `FROM log AS x(log)` of a table (id, log): the list renames id to log, and a reference to `log` or
 * `x.log` in the query's lists is PostgreSQL's 42702 `column reference "log" is ambiguous` at it
 * (SQLite read the first). Subqueries are not read.
 */
function twiceNamedColumns(q: Node, schema: Schema): void {
  const twice = new Map<string, string>(); // name -> the FROM item's name
  const known = new Set<string>(); // every column name of the FROM list, when all are tables
  let all = true;
  for (const f of q.fromClause ?? []) {
    const r = f?.RangeVar;
    const table =
      r === undefined
        ? undefined
        : [...schema.tables.values()].find((t) => t.name.toLowerCase() === String(r.relname).toLowerCase());
    if (!table) {
      all = false;
      continue;
    }
    const renamed = strings(r.alias?.colnames);
    const names = table.columns.map((c, k) => (k < renamed.length ? renamed[k] : c.name.toLowerCase()));
    for (const name of names) known.add(name);
    for (const name of names)
      if (names.indexOf(name) !== names.lastIndexOf(name)) twice.set(name, String(r.alias.aliasname));
  }
  if (twice.size === 0) return;
  // (PostgreSQL reads the select list first: a name there no column has is its 42703, not ours)
  let unknown = !all;
  const look = (x: Node): void => {
    if (x === null || typeof x !== 'object' || x.SubLink || x.SelectStmt || x.RangeSubselect) return;
    if (Array.isArray(x)) {
      for (const y of x) look(y);
      return;
    }
    const fields = x.ColumnRef ? strings(x.ColumnRef.fields) : [];
    const name = fields[fields.length - 1];
    if (name !== undefined && !known.has(name)) unknown = true;
    const item = name === undefined ? undefined : twice.get(name);
    if (item !== undefined && (fields.length === 1 || (fields.length === 2 && fields[0] === item))) {
      const err = pgError('42702', `column reference "${name}" is ambiguous`);
      (err as { location?: number }).location = x.ColumnRef.location;
      throw err;
    }
    for (const k of Object.keys(x)) look(x[k]);
  };
  look(q.targetList);
  if (!unknown) for (const k of ['whereClause', 'groupClause', 'havingClause', 'sortClause']) look(q[k]);
}
