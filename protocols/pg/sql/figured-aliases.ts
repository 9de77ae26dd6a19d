// A subquery's or WITH query's column written without AS has PostgreSQL's figured name to the query
// around it (column-names.ts): `SELECT s.doc FROM (SELECT doc::json FROM t) s`, `WITH c AS (SELECT
// count(*) FROM t) SELECT count FROM c`. SQLite names such a column by its text (`count(*)`), so
// the item gets that name as an alias. So does an item of the statement's own select list that its
// ORDER BY names (`SELECT count(*) FROM t ORDER BY count`), which PostgreSQL looks for among the
// result's names first; the statement's other items keep SQLite's names, which the analysis reads.
import { isPunct, isWord } from './tokens';
import type { PgToken } from './lexer';
import { figuredName } from './column-names';
import { parseTree } from './parse';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Whether a statement may have a subquery, a WITH query or an ORDER BY (a cheap test before the tree's). */
export function mayFigureNames(sig: PgToken[]): boolean {
  return sig.some(
    (t, i) => (isPunct(t, '(') && (isWord(sig[i + 1], 'SELECT') || isWord(sig[i + 1], 'WITH'))) || isWord(t, 'ORDER'),
  );
}

/** The byte offset in `sql` of each select item to be named → its name (none when `sql` does not parse). */
export function figuredAliases(sql: string): Map<number, string> {
  const out = new Map<number, string>();
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return out;
  }
  const visit = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    if (n.RangeSubselect) nameItems(n.RangeSubselect.subquery?.SelectStmt, out, () => true);
    if (n.CommonTableExpr) nameItems(n.CommonTableExpr.ctequery?.SelectStmt, out, () => true);
    for (const k in n) visit(n[k]);
  };
  for (const raw of tree.stmts ?? []) {
    const top = raw.stmt?.SelectStmt;
    if (top?.sortClause) nameItems(top, out, orderedNames(top));
    visit(raw.stmt);
  }
  return out;
}

/**
 * Adds the unaliased items of a query's select list (its first branch's, for a set operation)
 * whose figured name `wanted` accepts. A bare column keeps its name in SQLite too: it is left as is.
 */
function nameItems(q: Node, out: Map<number, string>, wanted: (name: string) => boolean): void {
  while (q?.op && q.op !== 'SETOP_NONE') q = q.larg;
  for (const t of q?.targetList ?? []) {
    const r = t.ResTarget;
    if (!r || r.name || r.val?.ColumnRef || !(r.location >= 0)) continue;
    const name = figuredName(r.val);
    if (wanted(name)) out.set(r.location, name);
  }
}

/**
 * Whether a name is one the query's ORDER BY names bare (`ORDER BY count`) and no item of its
 * select list has already (by AS or as its column), which SQLite finds without help.
 */
function orderedNames(top: Node): (name: string) => boolean {
  const names = new Set<string>();
  for (const s of top.sortClause) {
    const f = s.SortBy?.node?.ColumnRef?.fields;
    if (f?.length === 1 && f[0].String) names.add(f[0].String.sval);
  }
  let q = top;
  while (q?.op && q.op !== 'SETOP_NONE') q = q.larg;
  for (const t of q?.targetList ?? []) {
    const r = t.ResTarget;
    const f = r?.val?.ColumnRef?.fields;
    names.delete(r?.name ?? f?.[f.length - 1]?.String?.sval);
  }
  return (name) => names.has(name);
}
