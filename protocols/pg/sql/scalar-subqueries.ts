// A scalar subquery (`SELECT (SELECT x FROM u) FROM t`) of more than one row is PostgreSQL's 21000
// `more than one row returned by a subquery used as an expression`; SQLite takes the first row.
// Guarding one costs a second, bounded run of its FROM and WHERE (translate/one-row.ts counts at
// most two rows), so only those that may give many rows are guarded: not one PostgreSQL's shape
// already holds to one row (a LIMIT or OFFSET, an aggregate without GROUP BY, no FROM) nor one whose
// WHERE fixes a key of its one table (`WHERE u.id = t.u_id`, the ORMs' related-row lookup). A
// subquery whose rows are not its FROM's (SELECT DISTINCT, a set operation, a WITH clause, VALUES)
// is guarded whole: its body runs again, for two rows at most.
import { parseTree } from './parse';
import type { Schema } from '../../../src/engine/schema/model';
import { isAggregateCall } from './grouping';
import type { PgToken } from './lexer';
import { isPunct, isWord } from './tokens';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Whether the tokens may hold a subquery in parentheses: a cheap test before parsing. */
export function maySubquery(sig: PgToken[]): boolean {
  for (let i = 0; i + 1 < sig.length; i++)
    if (
      isPunct(sig[i], '(') &&
      (isWord(sig[i + 1], 'SELECT') || isWord(sig[i + 1], 'WITH') || isWord(sig[i + 1], 'VALUES'))
    )
      return true;
  return false;
}

/** A scalar subquery to guard: the offset of its '(' and whether it is guarded whole (translate/one-row.ts). */
export interface ManyRowScalar {
  at: number;
  whole: boolean;
}

/** Each scalar subquery in `sql` that may give more than one row. */
export function manyRowScalars(sql: string, schema: Schema): ManyRowScalar[] {
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return [];
  }
  const out: ManyRowScalar[] = [];
  const visit = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    // (`SET (a, b) = (SELECT ...)`'s query is guarded by translate/row-queries.ts, its rows whole;
    // what it holds is looked into once)
    const multi = n.MultiAssignRef;
    if (multi) {
      if (multi.colno === 1) visit(multi.source?.SubLink?.subselect ?? multi.source);
      return;
    }
    const s = n.SubLink?.subLinkType === 'EXPR_SUBLINK' ? n.SubLink.subselect?.SelectStmt : undefined;
    const many = s ? mayGiveMany(s, schema, new Set()) : 'one';
    if (many !== 'one') out.push({ at: n.SubLink.location, whole: many === 'whole' });
    for (const k in n) visit(n[k]);
  };
  visit(tree.stmts ?? []);
  return out;
}

/**
 * Whether a subquery may give more than one row: 'one' when not, 'rows' when its rows are its FROM
 * and WHERE's (guarded by counting those), 'whole' when they are not (DISTINCT, a set operation, a
 * WITH clause, VALUES: guarded by counting the subquery's own rows). `ctes`: WITH queries in reach,
 * which are no schema tables.
 */
function mayGiveMany(s: Node, schema: Schema, ctes: Set<string>, scalar = true): 'one' | 'rows' | 'whole' {
  if (s.limitCount || s.limitOffset || s.lockingClause) return 'one';
  if (s.op && s.op !== 'SETOP_NONE') {
    // UNION of two rows is two rows; INTERSECT and EXCEPT give at most the left side's rows
    if (s.op === 'SETOP_UNION') return 'whole';
    return mayGiveMany(s.larg, schema, ctes, scalar) === 'one' ? 'one' : 'whole';
  }
  if (s.valuesLists) return s.valuesLists.length > 1 ? 'whole' : 'one';
  if (s.withClause) {
    const inner = new Set(ctes);
    for (const c of s.withClause.ctes ?? []) inner.add(String(c.CommonTableExpr?.ctename).toLowerCase());
    return mayGiveMany({ ...s, withClause: undefined }, schema, inner, scalar) === 'one' ? 'one' : 'whole';
  }
  if (!s.fromClause?.length) return 'one';
  if (scalar) {
    // (a scalar subquery of other than one column is PostgreSQL's error, a star not looked into)
    const item = s.targetList?.length === 1 ? s.targetList[0].ResTarget?.val : undefined;
    if (!item || item.ColumnRef?.fields?.some((f: Node) => f.A_Star)) return 'one';
  }
  if (!s.groupClause && (aggregates(s.targetList) || aggregates(s.havingClause))) return 'one';
  if (keyFixed(s, schema, ctes)) return 'one';
  // `(SELECT to_json(obj) FROM (SELECT ... WHERE pet.id = t.pet_id) AS obj)` (Kysely's jsonObjectFrom):
  // as many rows as its one subquery in FROM gives
  const sub = s.fromClause.length === 1 ? s.fromClause[0].RangeSubselect : undefined;
  const inner = sub && !s.whereClause && !s.groupClause ? sub.subquery?.SelectStmt : undefined;
  if (inner && mayGiveMany(inner, schema, ctes, false) === 'one') return 'one';
  return s.distinctClause ? 'whole' : 'rows';
}

/** Whether e calls an aggregate outside subqueries. */
function aggregates(e: Node): boolean {
  if (e === null || typeof e !== 'object') return false;
  if (Array.isArray(e)) return e.some(aggregates);
  if (e.SubLink || e.SelectStmt) return false;
  if (e.FuncCall && !e.FuncCall.over && isAggregateCall(e.FuncCall)) return true;
  for (const k in e) if (k !== 'location' && aggregates(e[k])) return true;
  return false;
}

/** Whether the WHERE of a subquery over one schema table fixes each column of its primary key or of a unique index by `=`. */
function keyFixed(s: Node, schema: Schema, ctes: Set<string>): boolean {
  const r = s.fromClause.length === 1 && !s.groupClause ? s.fromClause[0].RangeVar : undefined;
  const name = r && !r.schemaname ? String(r.relname).toLowerCase() : '';
  const table = name && !ctes.has(name) ? schema.tables.get(name) : undefined;
  if (!table) return false;
  const alias = String(r.alias?.aliasname ?? r.relname).toLowerCase();
  const columns = new Set(table.columns.map((c) => c.name.toLowerCase()));
  /** The column of this table a reference names, or null. */
  const own = (e: Node): string | null => {
    const f = e?.ColumnRef && !e.ColumnRef.fields?.some((x: Node) => x.A_Star) ? strings(e.ColumnRef.fields) : [];
    const c = f[f.length - 1]?.toLowerCase();
    if (f.length === 2 && f[0].toLowerCase() === alias && columns.has(c)) return c;
    return f.length === 1 && columns.has(c) ? c : null;
  };
  const readsTable = (e: Node): boolean => {
    if (e === null || typeof e !== 'object') return false;
    if (Array.isArray(e)) return e.some(readsTable);
    if (e.ColumnRef) {
      const f = strings(e.ColumnRef.fields);
      return own(e) !== null || (f.length === 2 && f[0].toLowerCase() === alias);
    }
    if (e.SubLink) return true; // not followed
    for (const k in e) if (k !== 'location' && readsTable(e[k])) return true;
    return false;
  };
  const fixed = new Set<string>();
  const conjuncts = (e: Node): Node[] =>
    e?.BoolExpr?.boolop === 'AND_EXPR' ? e.BoolExpr.args.flatMap(conjuncts) : e ? [e] : [];
  for (const c of conjuncts(s.whereClause)) {
    const x = c.A_Expr;
    if (x?.kind !== 'AEXPR_OP' || strings(x.name).at(-1) !== '=') continue;
    for (const [col, other] of [
      [x.lexpr, x.rexpr],
      [x.rexpr, x.lexpr],
    ]) {
      const name = own(col);
      if (name && !readsTable(other)) fixed.add(name);
    }
  }
  const keys = [table.primaryKey, ...table.indexes.filter((i) => i.unique).map((i) => i.columns)];
  return keys.some((k) => k.length > 0 && k.every((c) => fixed.has(c.toLowerCase())));
}
