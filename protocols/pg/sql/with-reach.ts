// Which WITH queries a query of a statement reaches, as PostgreSQL's parser scopes them
// (parse_cte.c): a statement's body sees its WITH queries and those of the statements around it (an
// inner one hides an outer one of its name); a WITH query sees only those before it in its list
// (without RECURSIVE), so `WITH u AS (SELECT ... FROM t JOIN u AS a ...)` reads the table u. The
// checks of sql/grouping.ts read the WITH queries so, where they took every WITH query of the
// statement as in reach everywhere (42703 `column a.x does not exist` for the table's column).
import type { Schema } from '../../../src/engine/schema/model';
import { Level, queryColumns } from './range-table';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** WITH queries in reach by name (lower case): their columns, null when not known here. */
export type Ctes = ReadonlyMap<string, string[] | null>;

/**
 * The WITH queries the body of `stmt` (a SELECT, INSERT, UPDATE or DELETE of the tree) reaches:
 * `outer`'s and those of its WITH clause. `each` is called with each of its WITH queries and the
 * WITH queries that one reaches.
 */
export function withReach(stmt: Node, outer: Ctes, schema: Schema, each?: (query: Node, reach: Ctes) => void): Ctes {
  const list: Node[] = stmt?.withClause?.ctes ?? [];
  if (list.length === 0) return outer;
  const recursive = !!stmt.withClause.recursive;
  const out = new Map(outer);
  const mine = new Set<string>();
  const level = new Level(schema, null);
  const columns = (q: Node): string[] | null => {
    level.ctes.clear();
    for (const [k, v] of out) level.ctes.set(k, v);
    return queryColumns(q, level);
  };
  const queries = list.map((c: Node) => c.CommonTableExpr).filter(Boolean);
  // (under RECURSIVE every query of the list sees every other, itself too: its own list's columns first)
  if (recursive)
    for (const c of queries) {
      const own = strings(c.aliascolnames);
      out.set(String(c.ctename).toLowerCase(), own.length > 0 ? own : null);
    }
  for (const c of queries) {
    const name = String(c.ctename).toLowerCase();
    if (!recursive) each?.(c.ctequery, new Map(out));
    const own = strings(c.aliascolnames);
    const cols = columns(c.ctequery);
    // (two WITH queries of one name: not known here)
    out.set(name, mine.has(name) ? null : own.length > 0 ? [...own, ...(cols?.slice(own.length) ?? [])] : cols);
    mine.add(name);
  }
  if (recursive) for (const c of queries) each?.(c.ctequery, out);
  return out;
}
