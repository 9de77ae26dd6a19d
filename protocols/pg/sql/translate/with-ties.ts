// `ORDER BY k [OFFSET o] FETCH FIRST n ROWS WITH TIES`, which SQLite has no limit for: the rows from
// o + 1 to o + n in the order, and after them those sorting equal to the last (its peers). A row at
// place p (row_number over the ORDER BY) is kept when p > o and its rank (1 + the rows sorting
// before it) is at most o + n, so the query becomes
//   SELECT <its columns> FROM (SELECT <items>, rank() OVER (ORDER BY k) AS __pg_tie_rank,
//     row_number() OVER (ORDER BY k) AS __pg_tie_row FROM ...) AS __pg_ties
//   WHERE __pg_tie_row > o AND __pg_tie_rank <= o + n AND n > 0 ORDER BY __pg_tie_row
// on PostgreSQL's tokens, before the other passes, which translate it as any query. An ORDER BY key
// naming a result column (by alias or position) is that item's expression in the window. Left as it
// is (and refused, sql/unsupported.ts) for a DISTINCT, DISTINCT ON or set operation ordered by other
// than its result columns, an item
// selecting `*` whose columns SQLite cannot list, or a query SQLite cannot prepare on its own (a
// subquery naming the query around it).
import { roundedCount } from '../limit-signs';
import { type Tok, closer, isOp, isPunct, isWord, topLevelItems } from '../tokens';

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });
const quoted = (name: string): Tok => ({ type: 'quoted', text: `"${name.replace(/"/g, '""')}"` });
const num = (text: string): Tok => ({ type: 'number', text });

/** Words after an expression that are no alias written without AS. */
const NOT_ALIAS = new Set(['END', 'NULL', 'TRUE', 'FALSE', 'ZONE', 'PRECISION', 'VARYING', 'DISTINCT', 'ALL']);

export function rewriteWithTies<T extends Tok>(toks: T[], columns: (query: Tok[]) => string[] | null): T[] {
  if (!toks.some((t) => isWord(t, 'TIES'))) return toks;
  let out = toks;
  // from the last; after a rewrite, from the end again (each takes one WITH TIES away, and one
  // nested in the FROM of another has moved)
  for (let i = out.length - 1; i >= 0; i--) {
    if (!isWord(out[i], 'TIES') || !isWord(out[i - 1], 'WITH')) continue;
    if (!isWord(out[i - 2], 'ROW') && !isWord(out[i - 2], 'ROWS')) continue; // (`WITH ties AS (...)`)
    const done = rewriteLevel(out, i, columns);
    if (done) {
      out = done as T[];
      i = out.length;
    }
  }
  return out;
}

/** The level of the query whose `WITH TIES` ends at toks[ties] rewritten; null when it is left. */
function rewriteLevel(toks: Tok[], ties: number, columns: (query: Tok[]) => string[] | null): Tok[] | null {
  // the level: from the '(' around it (or the start) to its ')' (or the end)
  let start = 0;
  for (let k = ties, depth = 0; k >= 0; k--) {
    if (isPunct(toks[k], ')')) depth++;
    else if (isPunct(toks[k], '(') && depth-- === 0) {
      start = k + 1;
      break;
    }
  }
  let end = toks.length;
  for (let k = ties, depth = 0; k < toks.length; k++) {
    if (isPunct(toks[k], '(')) depth++;
    else if ((isPunct(toks[k], ')') && depth-- === 0) || (depth === 0 && isPunct(toks[k], ';'))) {
      end = k;
      break;
    }
  }
  // a locking clause after it: kept after the query (translate/locking.ts takes it out, the read runs on the writer)
  let locking: Tok[] = [];
  for (let k = ties + 1, depth = 0; k < end; k++) {
    if (isPunct(toks[k], '(')) depth++;
    else if (isPunct(toks[k], ')')) depth--;
    else if (depth === 0 && isWord(toks[k], 'FOR')) {
      locking = toks.slice(k, end);
      break;
    }
  }
  const after = end;
  end -= locking.length;
  // the level's clauses at its own depth
  const at: Record<string, number> = {};
  let selects = 0;
  let firstSelect = -1;
  // a set operation or SELECT DISTINCT: its rows numbered in a query around it (wrapped below)
  let wrapped = false;
  let distinctOn = false;
  for (let k = start, depth = 0; k < end; k++) {
    const t = toks[k];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0 && t.type === 'word') {
      const w = t.text.toUpperCase();
      if (w === 'SELECT') {
        selects++;
        if (firstSelect < 0) firstSelect = k;
        at.SELECT = k;
      } else if (['UNION', 'INTERSECT', 'EXCEPT'].includes(w)) wrapped = true;
      else if (w === 'DISTINCT' && isWord(toks[k - 1], 'SELECT')) {
        // (DISTINCT ON keeps one row of each group, by its ORDER BY: kept in the query wrapped)
        distinctOn = isWord(toks[k + 1], 'ON');
        wrapped = true;
      } else if (at[w] === undefined && ['FROM', 'ORDER', 'OFFSET', 'FETCH'].includes(w)) at[w] = k;
    }
  }
  if (
    (selects !== 1 && !wrapped) ||
    at.ORDER === undefined ||
    at.FETCH === undefined ||
    !isWord(toks[at.ORDER + 1], 'BY')
  )
    return null;
  if (at.FROM !== undefined && at.FROM < at.SELECT) at.FROM = undefined as unknown as number;
  const fetch = at.FETCH;
  const offset = at.OFFSET;
  // FETCH {FIRST|NEXT} [n] {ROW|ROWS} WITH TIES
  if (!isWord(toks[fetch + 1], 'FIRST') && !isWord(toks[fetch + 1], 'NEXT')) return null;
  let rows = fetch + 2;
  while (rows < ties && !(isWord(toks[rows], 'ROW') || isWord(toks[rows], 'ROWS'))) rows++;
  if (rows !== ties - 2) return null;
  const count: Tok[] = rows > fetch + 2 ? toks.slice(fetch + 2, rows) : [num('1')];
  // (a count or offset written with a fraction is rounded to a whole one, as PostgreSQL's, limit-signs.ts)
  if (count.length === 1 && count[0].type === 'number') count[0] = num(String(roundedCount(count[0].text)));
  // OFFSET o [ROW|ROWS], before the FETCH or after it
  let skip: Tok[] = [num('0')];
  let offsetEnd = -1;
  if (offset !== undefined) {
    offsetEnd = offset + 1;
    while (
      offsetEnd < end &&
      offsetEnd !== fetch &&
      !isWord(toks[offsetEnd], 'ROW') &&
      !isWord(toks[offsetEnd], 'ROWS')
    )
      offsetEnd++;
    skip = toks.slice(offset + 1, offsetEnd);
    if (skip.length === 1 && skip[0].type === 'number') skip = [num(String(roundedCount(skip[0].text)))];
    if (isWord(toks[offsetEnd], 'ROW') || isWord(toks[offsetEnd], 'ROWS')) offsetEnd++;
    if (offset > fetch && offsetEnd !== end) return null;
    if (skip.length === 0) return null;
  }
  const keysEnd = Math.min(offset ?? end, fetch);
  // nothing after WITH TIES but an OFFSET
  const later = offset !== undefined && offset > fetch;
  if (later ? offset !== ties + 1 || offsetEnd !== end : ties + 1 !== end) return null;
  const around = (query: Tok[]) => [...toks.slice(0, start), ...query, ...locking, ...toks.slice(after)];
  if (wrapped) {
    const query = wrappedLevel(toks, start, firstSelect, at.ORDER, keysEnd, skip, count, columns, distinctOn);
    return query && around(query);
  }
  const itemsEnd = at.FROM ?? at.ORDER;
  const items = topLevelItems(toks, at.SELECT + 1, itemsEnd).map(([a, b]) => toks.slice(a, b));
  const body = toks.slice(itemsEnd, at.ORDER); // FROM ... WHERE ... GROUP BY ... HAVING ... WINDOW ...
  const head = toks.slice(start, at.SELECT); // WITH ... (its queries)
  // each item aliased for the query around it, a `*` by the columns SQLite lists for it
  const inner: Tok[][] = [];
  const outer: Tok[][] = [];
  const seen = new Map<string, number>();
  const take = (name: string): string => {
    const key = name.toLowerCase();
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n === 0 ? name : `${name}:${n}`;
  };
  for (const [k, item] of items.entries()) {
    const star = isOp(item.at(-1), '*') && (item.length === 1 || isPunct(item.at(-2), '.'));
    if (star) {
      const names = columns([...head, word('SELECT'), ...item, ...body]);
      if (!names || names.length === 0) return null;
      inner.push(item);
      // (each under the name it had: a repeated one's is numbered in the subquery, id:1)
      for (const n of names) outer.push([word('__pg_ties'), punct('.'), quoted(take(n)), word('AS'), quoted(n)]);
      continue;
    }
    const { expr, alias } = splitAlias(item);
    const own = `__pg_c${k + 1}`;
    take(own);
    inner.push([...expr, word('AS'), quoted(own)]);
    const name = alias ?? columnName(expr);
    outer.push([word('__pg_ties'), punct('.'), quoted(own), ...(name ? [word('AS'), name] : [])]);
  }
  // the ORDER BY keys, a result column's name or place read as its expression
  const keys = topLevelItems(toks, at.ORDER + 2, keysEnd).map(([a, b]) => {
    const key = toks.slice(a, b);
    const n = keyLength(key);
    const expr = key.slice(0, n);
    const byPlace = expr.length === 1 && expr[0].type === 'number' ? Number(expr[0].text) : 0;
    const byName =
      expr.length === 1 && (expr[0].type === 'word' || expr[0].type === 'quoted')
        ? items.findIndex((it) => sameName(splitAlias(it).alias, expr[0]))
        : -1;
    const k = byPlace > 0 ? byPlace - 1 : byName;
    if (k >= 0 && k < items.length && !isOp(items[k].at(-1), '*'))
      return [...splitAlias(items[k]).expr, ...key.slice(n)];
    return key;
  });
  return around(tiedQuery(head, outer, inner, keys, body, skip, count));
}

/** The query keeping the tied rows: `head SELECT outer FROM (SELECT inner, rank() ..., row_number() ... body) AS __pg_ties WHERE ...`. */
function tiedQuery(
  head: Tok[],
  outer: Tok[][],
  inner: Tok[][],
  keys: Tok[][],
  body: Tok[],
  skip: Tok[],
  count: Tok[],
): Tok[] {
  const order = keys.flatMap((k, i) => (i === 0 ? k : [punct(','), ...k]));
  const window = (fn: string, as: string): Tok[] => [
    punct(','),
    word(fn),
    punct('('),
    punct(')'),
    word('OVER'),
    punct('('),
    word('ORDER'),
    word('BY'),
    ...order,
    punct(')'),
    word('AS'),
    quoted(as),
  ];
  const o = [punct('('), ...skip, punct(')')];
  const n = [punct('('), ...count, punct(')')];
  return [
    ...head,
    word('SELECT'),
    ...outer.flatMap((x, i) => (i === 0 ? x : [punct(','), ...x])),
    word('FROM'),
    punct('('),
    word('SELECT'),
    ...inner.flatMap((x, i) => (i === 0 ? x : [punct(','), ...x])),
    ...window('rank', '__pg_tie_rank'),
    ...window('row_number', '__pg_tie_row'),
    ...body,
    punct(')'),
    word('AS'),
    word('__pg_ties'),
    word('WHERE'),
    quoted('__pg_tie_row'),
    { type: 'op', text: '>' },
    ...o,
    word('AND'),
    quoted('__pg_tie_rank'),
    { type: 'op', text: '<=' },
    ...o,
    { type: 'op', text: '+' },
    ...n,
    word('AND'),
    ...n,
    { type: 'op', text: '>' },
    num('0'),
    word('ORDER'),
    word('BY'),
    quoted('__pg_tie_row'),
  ];
}

/**
 * A set operation's or SELECT DISTINCT's level as a query: its rows (`__pg_q`) numbered by the ORDER BY, whose
 * keys must name result columns (by place, name or, after DISTINCT, the item's expression), as
 * PostgreSQL requires of them there; null when one does not or SQLite cannot list the columns.
 */
function wrappedLevel(
  toks: Tok[],
  start: number,
  firstSelect: number,
  orderAt: number,
  keysEnd: number,
  skip: Tok[],
  count: Tok[],
  columns: (query: Tok[]) => string[] | null,
  distinctOn = false,
): Tok[] | null {
  const withHead = isWord(toks[start], 'WITH');
  if (withHead && firstSelect < 0) return null;
  const head = withHead ? toks.slice(start, firstSelect) : [];
  // (a DISTINCT ON query keeps its ORDER BY, which picks each group's row)
  const query = toks.slice(start + head.length, distinctOn ? keysEnd : orderAt);
  const names = columns([...head, ...query]);
  if (!names || names.length === 0) return null;
  // the names SQLite gives the columns of the query as a subquery (a repeated one numbered: id, id:1)
  const seen = new Map<string, number>();
  const own = names.map((name) => {
    const key = name.toLowerCase();
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n === 0 ? name : `${name}:${n}`;
  });
  // (a SELECT DISTINCT's items, for a key written as one of them; after DISTINCT ON's list)
  const first = distinctOn ? closer(query, 3) + 1 : 2;
  const items = isWord(query[0], 'SELECT')
    ? topLevelItems(query, first, topLevelIndex(query, 'FROM') ?? topLevelIndex(query, 'ORDER') ?? query.length).map(
        ([a, b]) => splitAlias(query.slice(a, b)).expr,
      )
    : [];
  const keys: Tok[][] = [];
  for (const [a, b] of topLevelItems(toks, orderAt + 2, keysEnd)) {
    const key = toks.slice(a, b);
    const n = keyLength(key);
    const expr = key.slice(0, n);
    let k = -1;
    if (expr.length === 1 && expr[0].type === 'number') k = Number(expr[0].text) - 1;
    else {
      const name = columnName(expr);
      const fold = (t: Tok) => (t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase());
      if (name)
        k = names.findIndex((x) => (name.type === 'quoted' ? x === fold(name) : x.toLowerCase() === fold(name)));
      if (k < 0) k = items.findIndex((it) => sameTokens(it, expr));
    }
    if (!(k >= 0 && k < names.length)) return null;
    keys.push([word('__pg_q'), punct('.'), quoted(own[k]), ...key.slice(n)]);
  }
  const outer = own.map((x, i) => [word('__pg_ties'), punct('.'), quoted(x), word('AS'), quoted(names[i])]);
  const inner = [[word('__pg_q'), punct('.'), { type: 'op', text: '*' } as Tok]];
  const body = [word('FROM'), punct('('), ...query, punct(')'), word('AS'), word('__pg_q')];
  return tiedQuery(head, outer, inner, keys, body, skip, count);
}

/** The index of the word `w` in toks outside parentheses; undefined when none. */
function topLevelIndex(toks: Tok[], w: string): number | undefined {
  for (let k = 0, depth = 0; k < toks.length; k++) {
    if (isPunct(toks[k], '(')) depth++;
    else if (isPunct(toks[k], ')')) depth--;
    else if (depth === 0 && isWord(toks[k], w)) return k;
  }
  return undefined;
}

const sameTokens = (a: Tok[], b: Tok[]) =>
  a.length === b.length && a.every((t, k) => t.type === b[k].type && t.text.toLowerCase() === b[k].text.toLowerCase());

/** A select item's expression and its alias (with AS, or a name right after the expression). */
function splitAlias(item: Tok[]): { expr: Tok[]; alias: Tok | null } {
  let depth = 0;
  for (let k = 0; k < item.length; k++) {
    if (isPunct(item[k], '(') || isPunct(item[k], '[')) depth++;
    else if (isPunct(item[k], ')') || isPunct(item[k], ']')) depth--;
    else if (depth === 0 && isWord(item[k], 'AS') && k === item.length - 2)
      return { expr: item.slice(0, k), alias: item[k + 1] };
  }
  const last = item.at(-1);
  const before = item.at(-2);
  const name = last?.type === 'quoted' || (last?.type === 'word' && !NOT_ALIAS.has(last.text.toUpperCase()));
  const ends =
    before !== undefined &&
    (isPunct(before, ')') ||
      before.type === 'quoted' ||
      before.type === 'string' ||
      before.type === 'number' ||
      before.type === 'param' ||
      (before.type === 'word' &&
        !['IS', 'NOT', 'AND', 'OR', 'AS', 'ZONE', 'CASE'].includes(before.text.toUpperCase())));
  if (item.length > 1 && name && ends && !isOp(item.at(-2), '::'))
    return { expr: item.slice(0, -1), alias: last ?? null };
  return { expr: item, alias: null };
}

/** The name PostgreSQL gives a column reference item (`o.id` → id); null for another expression. */
function columnName(expr: Tok[]): Tok | null {
  const last = expr.at(-1);
  const plain = (t: Tok | undefined) => t?.type === 'word' || t?.type === 'quoted';
  if (!plain(last)) return null;
  for (let k = expr.length - 2; k >= 0; k -= 2) if (!isPunct(expr[k], '.') || !plain(expr[k - 1])) return null;
  return last ?? null;
}

function sameName(alias: Tok | null, t: Tok): boolean {
  if (!alias) return false;
  const fold = (x: Tok) => (x.type === 'quoted' ? x.text.slice(1, -1).replace(/""/g, '"') : x.text.toLowerCase());
  return fold(alias) === fold(t);
}

/** How many tokens of an ORDER BY key are its expression (before ASC, DESC, NULLS ..., USING op). */
function keyLength(key: Tok[]): number {
  let depth = 0;
  for (let k = 0; k < key.length; k++) {
    if (isPunct(key[k], '(')) depth++;
    else if (isPunct(key[k], ')')) depth--;
    else if (
      depth === 0 &&
      (isWord(key[k], 'ASC') || isWord(key[k], 'DESC') || isWord(key[k], 'NULLS') || isWord(key[k], 'USING'))
    )
      return k;
  }
  return key.length;
}
