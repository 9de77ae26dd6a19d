// A subquery's `*` and `t.*` spelled out as its tables' columns (`SELECT * FROM t` read as `SELECT
// t.id, t.doc, ... FROM t`), for the analysis of json text (json-layout.ts) to read a subquery's or
// WITH query's columns by name: a json column of `(SELECT * FROM t) s` keeps its text in a builder
// as one of `(SELECT id, doc FROM t) s` does. The tree is only read: a copy is made.
import type { Schema } from '../../../src/engine/schema/model';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The query with each `*` and `t.*` of its select list made its tables' columns; the query itself when one cannot be. */
export function starsSpelled(q: Node, schema: Schema | undefined): Node {
  const list: Node[] | undefined = q?.targetList;
  if (!schema || !list?.some((t) => starOf(t) !== undefined)) return q;
  const tables = fromTables(q.fromClause ?? [], schema);
  if (!tables) return q;
  const out: Node[] = [];
  for (const t of list) {
    const star = starOf(t);
    if (star === undefined) {
      out.push(t);
      continue;
    }
    const from = star === null ? tables : tables.filter(([alias]) => alias === star);
    if (from.length === 0) return q;
    for (const [alias, table] of from)
      for (const c of schema.tables.get(table)?.columns ?? [])
        out.push({
          ResTarget: { val: { ColumnRef: { fields: [str(alias), str(c.name)], location: -1 } }, location: -1 },
        });
  }
  return { ...q, targetList: out };
}

const str = (sval: string) => ({ String: { sval } });

/** A select item's star: null for `*`, the qualifier of `t.*`, undefined for any other item. */
function starOf(t: Node): string | null | undefined {
  const fields: Node[] | undefined = t?.ResTarget?.val?.ColumnRef?.fields;
  if (!fields?.at(-1)?.A_Star) return undefined;
  return fields.length === 1 ? null : String(fields[0]?.String?.sval ?? '').toLowerCase();
}

/** The FROM list's tables in order, [alias, table]; null when an item is no table of the schema or a join merges columns (USING, NATURAL). */
function fromTables(from: Node[], schema: Schema): [string, string][] | null {
  const out: [string, string][] = [];
  for (const f of from) {
    const j = f.JoinExpr;
    if (j) {
      if (j.usingClause?.length || j.isNatural) return null;
      const inner = fromTables([j.larg, j.rarg], schema);
      if (!inner) return null;
      out.push(...inner);
      continue;
    }
    const rv = f.RangeVar;
    const table = rv && !rv.schemaname ? String(rv.relname).toLowerCase() : undefined;
    if (table === undefined || !schema.tables.has(table)) return null;
    out.push([String(rv.alias?.aliasname ?? rv.relname).toLowerCase(), table]);
  }
  return out;
}
