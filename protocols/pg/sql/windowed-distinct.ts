// SELECT DISTINCT beside a window function (`SELECT DISTINCT jb, count(*) OVER () FROM t`) of items
// PostgreSQL tells apart by value, not by SQLite's text: jsonb (`1.50` and `1.5` one row), numeric
// and boolean arrays, intervals (`1 day` and `24 hours`). A plain DISTINCT of them becomes a GROUP BY
// (translate/interval-distinct.ts), but a window is computed after the grouping, so here the query
// runs as it is inside a subquery (its windows over every row), and its rows are grouped outside,
// each such item by its key, then sorted and limited:
//
//   SELECT DISTINCT jb, count(*) OVER () AS n FROM t ORDER BY n
//     →  SELECT "__pg_d1" AS "jb", "__pg_d2" AS "n" FROM (SELECT jb AS "__pg_d1", count(*) OVER ()
//        AS "__pg_d2" FROM t) AS "__pg_d" GROUP BY "__pg_d1" (by its key), "__pg_d2" ORDER BY n
//
// The analysis (sql/typed-operators.ts) marks the first item 'win-distinct:' with each item's name,
// alias and group kind (JSON); an ORDER BY naming a table (`t.jb`) is left as before.
import { type Tok, isPunct, isWord, topLevelItems } from './tokens';
import { figuredName } from './column-names';
import { quotedName } from './translate/exact-order';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

interface Item {
  /** The output column's name. */
  name: string;
  /** The item's own alias, written after it. */
  alias?: string;
  /** 'iv-group' or 'arr-group:kind' for an item grouped by its key; '' for another. */
  group: string;
}

/** The FuncCalls of a tree, not those of its subqueries. */
function calls(n: Node, out: Node[] = []): Node[] {
  if (n === null || typeof n !== 'object' || n.SelectStmt || n.SubLink) return out;
  if (n.FuncCall) out.push(n.FuncCall);
  for (const k in n) if (k !== 'location') calls(n[k], out);
  return out;
}

/** Whether a tree has a qualified column reference (`t.jb`). */
function qualified(n: Node): boolean {
  if (n === null || typeof n !== 'object') return false;
  if (n.ColumnRef) return n.ColumnRef.fields.length > 1;
  for (const k in n) if (qualified(n[k])) return true;
  return false;
}

/**
 * The 'win-distinct:' mark of a plain SELECT DISTINCT whose items have window functions and no
 * aggregate, with an item `group` gives a kind; null for another.
 */
export function windowedDistinctMark(
  select: Node,
  items: Node[],
  isAggregate: (f: Node) => boolean,
  group: (n: Node) => string | null,
): string | null {
  const found = calls(items);
  if (!found.some((f) => f.over) || found.some((f) => !f.over && isAggregate(f))) return null;
  // (the outer query sees the items' names only: no call or qualified name in its ORDER BY)
  if (calls(select.sortClause ?? []).length > 0 || qualified(select.sortClause)) return null;
  const marked: Item[] = items.map((r) => ({
    name: r.name ?? figuredName(r.val),
    ...(r.name ? { alias: r.name } : {}),
    group: group(r.val) ?? '',
  }));
  return marked.some((m) => m.group) ? `win-distinct:${JSON.stringify(marked)}` : null;
}

const mark = (t: Tok | undefined): string | undefined =>
  t && 'sortKey' in t && t.sortKey?.startsWith('win-distinct:') ? t.sortKey : undefined;

const identOf = (t: Tok) => (t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase());

/** Where the select list ends, and where the query's ORDER BY, LIMIT, ... start and end, at its depth. */
function clauses(toks: Tok[], from: number): { list: number; tail: number; end: number } | null {
  let depth = 0;
  let list = -1;
  let tail = -1;
  for (let i = from; i < toks.length; i++) {
    const t = toks[i];
    if (isPunct(t, '(') || isPunct(t, '[')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']')) {
      if (depth-- === 0) return list < 0 ? null : { list, tail: tail < 0 ? i : tail, end: i };
    } else if (depth === 0 && isPunct(t, ';')) return list < 0 ? null : { list, tail: tail < 0 ? i : tail, end: i };
    else if (depth === 0 && t.type === 'word') {
      const w = t.text.toUpperCase();
      if (w === 'UNION' || w === 'EXCEPT' || w === 'INTERSECT' || w === 'INTO' || w === 'FOR') return null;
      if (list < 0 && w === 'FROM') list = i;
      if (list >= 0 && tail < 0 && ['ORDER', 'LIMIT', 'OFFSET', 'FETCH'].includes(w)) tail = i;
    }
  }
  return list < 0 ? null : { list, tail: tail < 0 ? toks.length : tail, end: toks.length };
}

/** Each marked SELECT DISTINCT as the grouping of its rows, run in a subquery. */
export function rewriteWindowedDistinct(toks: Tok[]): Tok[] {
  if (!toks.some((t) => mark(t) !== undefined)) return toks;
  const out = toks.slice();
  for (let a = out.length - 1; a >= 2; a--) {
    const m = mark(out[a]);
    if (m === undefined) continue;
    out[a] = { ...out[a], sortKey: undefined } as Tok;
    if (!isWord(out[a - 1], 'DISTINCT') || !isWord(out[a - 2], 'SELECT')) continue;
    const at = clauses(out, a);
    const listed = JSON.parse(m.slice('win-distinct:'.length)) as Item[];
    const items = at ? topLevelItems(out, a, at.list) : [];
    if (!at || items.length !== listed.length) continue;
    const inner: Tok[] = [];
    const outer: Tok[] = [];
    const terms: Tok[] = [];
    items.forEach(([from, to], k) => {
      const x = listed[k];
      // the item without its alias (`jb AS j`, `jb j`; an earlier pass may have named it `AS "count"`)
      if (to - from >= 3 && isWord(out[to - 2], 'AS')) to -= 2;
      else if (x.alias && to - from >= 2 && identOf(out[to - 1]) === x.alias) to--;
      const column = `"__pg_d${k + 1}"`;
      const sep: Tok[] = k > 0 ? [{ type: 'punct', text: ',' }] : [];
      inner.push(...sep, ...out.slice(from, to), { type: 'word', text: 'AS' }, { type: 'quoted', text: column });
      outer.push(...sep, { type: 'quoted', text: column }, { type: 'word', text: 'AS' });
      outer.push({ type: 'quoted', text: quotedName(x.name) });
      terms.push(...sep, { type: 'quoted', text: column, ...(x.group ? { sortKey: x.group } : {}) } as Tok);
    });
    const query: Tok[] = [
      out[a - 2],
      ...outer,
      { type: 'word', text: 'FROM' },
      { type: 'punct', text: '(' },
      out[a - 2],
      ...inner,
      ...out.slice(at.list, at.tail),
      { type: 'punct', text: ')' },
      { type: 'word', text: 'AS' },
      { type: 'quoted', text: '"__pg_d"' },
      { type: 'word', text: 'GROUP' },
      { type: 'word', text: 'BY' },
      ...terms,
      ...out.slice(at.tail, at.end),
    ];
    out.splice(a - 2, at.end - (a - 2), ...query);
  }
  return out;
}
