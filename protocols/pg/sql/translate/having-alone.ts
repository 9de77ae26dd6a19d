// HAVING without GROUP BY (`SELECT 1 FROM t HAVING count(*) > 1`): PostgreSQL groups the rows into
// one group (one even of no rows), whatever the select list holds; SQLite takes HAVING only in an
// aggregate query, one whose select list calls an aggregate, and refused the statement ("HAVING
// clause on a non-aggregate query", sent as 42000). The first select item `e` becomes
// `coalesce(e, min(NULL))`: its value, and an aggregate for SQLite (one more in a list that has
// some changes nothing). The analysis has already refused a column outside an aggregate (42803),
// so the items are constants, parameters and aggregates, alike in one group.
import { type Tok, closer, endsOperand, isPunct, isWord, topLevelItems } from '../tokens';

/** Words that end a select list at its own level. */
const LIST_ENDS = new Set(['FROM', 'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION', 'INTERSECT', 'EXCEPT', 'INTO']); // biome-ignore format: a word list
/** Words that end a SELECT at its own level. */
const SELECT_ENDS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);
/** Words that may end an expression and are no alias. */
const NOT_ALIAS = new Set(['END', 'NULL', 'TRUE', 'FALSE', 'PRECISION', 'ZONE', 'VARYING']);

export function rewriteHavingAlone(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'HAVING'))) return toks;
  // where each first item is wrapped: [start, end of its expression)
  const wraps: [number, number][] = [];
  for (let s = 0; s < toks.length; s++) {
    if (!isWord(toks[s], 'SELECT')) continue;
    const at = clauses(toks, s);
    if (at.having < 0 || at.group >= 0) continue;
    let from = s + 1;
    if (isWord(toks[from], 'ALL')) from++;
    else if (isWord(toks[from], 'DISTINCT')) continue; // (DISTINCT ON's list would be read as the first item)
    const [first] = topLevelItems(toks, from, at.listEnd);
    if (!first || first[1] <= first[0]) continue;
    const [a, b] = first;
    // `*` and `t.*` are columns, which the analysis refuses
    if (toks[b - 1].text === '*' && (b - a === 1 || isPunct(toks[b - 2], '.'))) continue;
    wraps.push([a, expressionEnd(toks, a, b)]);
  }
  if (wraps.length === 0) return toks;
  const out: Tok[] = [];
  const starts = new Map(wraps.map(([a, e]) => [a, e]));
  const ends = new Map<number, number>();
  for (const [, e] of wraps) ends.set(e, (ends.get(e) ?? 0) + 1);
  for (let i = 0; i <= toks.length; i++) {
    for (let n = ends.get(i) ?? 0; n > 0; n--)
      out.push(
        { type: 'punct', text: ',' },
        { type: 'group', text: 'min' },
        { type: 'punct', text: '(' },
        { type: 'word', text: 'NULL' },
        { type: 'punct', text: ')' },
        { type: 'punct', text: ')' },
      );
    if (i === toks.length) break;
    if (starts.has(i)) out.push({ type: 'group', text: 'coalesce' }, { type: 'punct', text: '(' });
    out.push(toks[i]);
  }
  return out;
}

/** The end of the select list and the places of GROUP and HAVING at the level of the SELECT at toks[s] (-1 when none). */
function clauses(toks: Tok[], s: number): { listEnd: number; group: number; having: number } {
  let listEnd = -1;
  let group = -1;
  let having = -1;
  let i = s + 1;
  for (; i < toks.length; i++) {
    const t = toks[i];
    if (isPunct(t, '(') || isPunct(t, '[')) {
      i = closer(toks, i);
      if (i < 0) break;
      continue;
    }
    if (isPunct(t, ')') || isPunct(t, ';')) break;
    if (t.type !== 'word') continue;
    const w = t.text.toUpperCase();
    if (listEnd < 0 && LIST_ENDS.has(w)) listEnd = i;
    if (SELECT_ENDS.has(w)) break;
    if (w === 'GROUP' && isWord(toks[i + 1], 'BY')) group = i;
    if (w === 'HAVING') having = i;
  }
  return { listEnd: listEnd < 0 ? (i < 0 ? toks.length : i) : listEnd, group, having };
}

/** Where the expression of the select item toks[a, b) ends: before `AS name` or a bare alias. */
export function expressionEnd(toks: Tok[], a: number, b: number): number {
  let depth = 0;
  for (let k = a; k < b; k++) {
    if (isPunct(toks[k], '(') || isPunct(toks[k], '[')) depth++;
    else if (isPunct(toks[k], ')') || isPunct(toks[k], ']')) depth--;
    else if (depth === 0 && isWord(toks[k], 'AS')) return k;
  }
  const last = toks[b - 1];
  const bare =
    b - a >= 2 &&
    (last.type === 'quoted' || (last.type === 'word' && !NOT_ALIAS.has(last.text.toUpperCase()))) &&
    endsOperand(toks[b - 2]) &&
    !isPunct(toks[b - 2], '.');
  return bare ? b - 1 : b;
}
