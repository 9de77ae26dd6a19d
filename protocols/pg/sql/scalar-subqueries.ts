// A scalar subquery (`SELECT (SELECT x FROM u) FROM t`) of more than one row is PostgreSQL's 21000
// `more than one row returned by a subquery used as an expression`; SQLite takes the first row.
// Guarding one costs a second, bounded run of its FROM and WHERE (translate/one-row.ts counts at
// most two rows), so only those that may give many rows are guarded: not one PostgreSQL's shape
// already holds to one row (a LIMIT or OFFSET, an aggregate without GROUP BY, no FROM) nor one whose
// WHERE fixes a key of its one table (`WHERE u.id = t.u_id`, the ORMs' related-row lookup).
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
  for (let i = 0; i + 1 < sig.length; i++) if (isPunct(sig[i], '(') && isWord(sig[i + 1], 'SELECT')) return true;
  return false;
}

/** Calls whose value is a JSON document, which translate/json-values.ts reads off a subquery's select list. */
const DOCUMENTS = /^(json|jsonb)_|^(to_json|to_jsonb|row_to_json|array_to_json)$/;

/** The offsets in `sql` of the '(' of each scalar subquery that may give more than one row. */
export function manyRowScalars(sql: string, schema: Schema): number[] {
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return [];
  }
  const out: number[] = [];
  const visit = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    const s = n.SubLink?.subLinkType === 'EXPR_SUBLINK' ? n.SubLink.subselect?.SelectStmt : undefined;
    if (s && mayGiveMany(s, schema)) out.push(n.SubLink.location);
    for (const k in n) visit(n[k]);
  };
  visit(tree.stmts ?? []);
  return out;
}

function mayGiveMany(s: Node, schema: Schema): boolean {
  if ((s.op && s.op !== 'SETOP_NONE') || s.withClause || !s.fromClause?.length) return false;
  if (s.limitCount || s.limitOffset || s.distinctClause || s.lockingClause || s.targetList?.length !== 1) return false;
  const item = s.targetList[0].ResTarget?.val;
  if (!item || item.ColumnRef?.fields?.some((f: Node) => f.A_Star)) return false;
  // a document the JSON builders read off the subquery's list: left as it was
  const call = item.FuncCall ?? item.TypeCast?.arg?.FuncCall;
  const cast = strings(item.TypeCast?.typeName?.names).pop()?.toLowerCase();
  if (cast === 'json' || cast === 'jsonb') return false;
  if (call && DOCUMENTS.test(strings(call.funcname).pop()?.toLowerCase() ?? '')) return false;
  if (!s.groupClause && (aggregates(s.targetList) || aggregates(s.havingClause))) return false;
  return !keyFixed(s, schema);
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
function keyFixed(s: Node, schema: Schema): boolean {
  const r = s.fromClause.length === 1 && !s.groupClause ? s.fromClause[0].RangeVar : undefined;
  const table = r && !r.schemaname ? schema.tables.get(String(r.relname).toLowerCase()) : undefined;
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
    if (x?.kind !== 'AEXPR_OP' || strings(x.name).join() !== '=') continue;
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
