// SELECT DISTINCT ON (keys) ...: the first row of each group of equal keys, in the ORDER BY's order
// (Django's distinct('field'), "the latest row per customer"). SQLite has no such clause; the
// statement becomes a numbered subquery and the rows numbered 1:
//
//   SELECT c1 AS name1, ... FROM (
//     SELECT expr1 AS c1, ..., sort1 AS o1, ...,
//            row_number() OVER (PARTITION BY keys ORDER BY sort1, ...) AS rn
//     FROM ... WHERE ... GROUP BY ... HAVING ...
//   ) WHERE rn = 1 ORDER BY o1, ... LIMIT ... OFFSET ...
//
// Keys and sort items that are output names or positions (`DISTINCT ON (1)`, `ORDER BY total`) are
// read as the select list's expressions, as PostgreSQL reads them. `*` and `t.*` are spelled out
// from the schema when FROM names tables. The statement or a subquery in parentheses may start
// with it; a DISTINCT ON in a branch of a set operation stays 0A000 (sql/unsupported.ts).
import { pgError } from '../../sqlstate';
import { type Tok, closer, isPunct, isWord, joinTokens, topLevelItems } from '../tokens';

const CLAUSES = new Set(['FROM', 'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH']);
const SET_OPS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);

interface Item {
  expr: Tok[];
  /** The output name: the alias, or the column a bare reference names; null for `?column?`. */
  name: Tok | null;
}

const q = (text: string): Tok => ({ type: 'quoted', text: `"${text}"` });
const w = (text: string): Tok => ({ type: 'word', text });
const p = (text: string): Tok => ({ type: 'punct', text });

/** The items of toks[from, to) between top-level commas. */
const splitTop = (toks: Tok[], from: number, to: number): Tok[][] =>
  topLevelItems(toks, from, to).map(([a, b]) => toks.slice(a, b));

const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');

/** An item of the select list: its expression and its output name. */
function readItem(toks: Tok[]): Item {
  const n = toks.length;
  if (n >= 3 && isWord(toks[n - 2], 'AS') && isName(toks[n - 1])) return { expr: toks.slice(0, -2), name: toks[n - 1] };
  // `expr alias`: a name after something that ends an expression (not after `.`, `::` or an operator)
  const before = toks[n - 2];
  if (
    n >= 2 &&
    toks[n - 1].type === 'word' &&
    before !== undefined &&
    (isName(before) || isPunct(before, ')') || before.type === 'number' || before.type === 'string') &&
    !isPunct(before, '.')
  )
    return { expr: toks.slice(0, -1), name: toks[n - 1] };
  const last = toks[n - 1];
  const bare = toks.every((t, i) => (i % 2 === 0 ? isName(t) : isPunct(t, '.')));
  return { expr: toks, name: bare && isName(last) ? last : null };
}

/** Table names by alias (and by name) in a FROM list of plain tables, for spelling out `*`. */
function fromTables(toks: Tok[]): Map<string, string> | null {
  const map = new Map<string, string>();
  for (const part of splitTop(toks, 0, toks.length)) {
    // JOIN ... ON ...: each table of the join, by its own words
    const words = part.map((t) => (t.type === 'word' ? t.text.toUpperCase() : ''));
    let i = 0;
    while (i < part.length) {
      if (!isName(part[i])) return null;
      const table = identOf(part[i]);
      let j = i + 1;
      if (isPunct(part[j], '.')) return null; // schema-qualified: leave it
      if (isWord(part[j], 'AS')) j++;
      const alias =
        isName(part[j]) &&
        !['JOIN', 'ON', 'LEFT', 'RIGHT', 'INNER', 'FULL', 'CROSS', 'NATURAL', 'USING'].includes(words[j])
          ? identOf(part[j++])
          : table;
      map.set(alias, table);
      // skip to the next JOIN's table
      while (j < part.length && words[j] !== 'JOIN') j++;
      i = j + 1;
      if (j >= part.length) break;
    }
  }
  return map;
}

function identOf(t: Tok): string {
  return t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase();
}

/** A key or sort expression that names an output column (`total`) or its position (`1`): that item's expression. */
function resolve(expr: Tok[], items: Item[]): Tok[] {
  if (expr.length !== 1) return expr;
  const t = expr[0];
  if (t.type === 'number' && /^\d+$/.test(t.text)) return items[Number(t.text) - 1]?.expr ?? expr;
  if (isName(t)) {
    const hit = items.find(
      (it) =>
        it.name && identOf(it.name) === identOf(t) && !(it.expr.length === 1 && identOf(it.expr[0]) === identOf(t)),
    );
    if (hit) return hit.expr;
  }
  return expr;
}

/**
 * `SELECT DISTINCT ON (...) ...` as a numbered subquery; other statements as they are.
 * `columns` lists a schema table's columns in order (for `*`); null when it has no such table.
 */
export function rewriteDistinctOn(toks: Tok[], columns: (table: string) => string[] | null): Tok[] {
  if (!toks.some((t, i) => isWord(t, 'DISTINCT') && isWord(toks[i + 1], 'ON'))) return toks;
  // the statement, or a subquery in parentheses, that starts with SELECT DISTINCT ON
  for (let i = toks.length - 1; i >= 0; i--) {
    if (!(isWord(toks[i], 'SELECT') && isWord(toks[i + 1], 'DISTINCT') && isWord(toks[i + 2], 'ON'))) continue;
    if (i === 0) return rewriteOne(toks, columns);
    if (!isPunct(toks[i - 1], '(')) continue;
    const close = closer(toks, i - 1);
    if (close < 0) continue;
    toks = [...toks.slice(0, i), ...rewriteOne(toks.slice(i, close), columns), ...toks.slice(close)];
  }
  return toks;
}

function rewriteOne(toks: Tok[], columns: (table: string) => string[] | null): Tok[] {
  if (!(isWord(toks[0], 'SELECT') && isWord(toks[1], 'DISTINCT') && isWord(toks[2], 'ON') && isPunct(toks[3], '(')))
    return toks;
  const keysEnd = closer(toks, 3);
  if (keysEnd < 0) return toks;
  // the clauses at the top level
  const at: Record<string, number> = {};
  let depth = 0;
  let end = toks.length;
  for (let i = keysEnd + 1; i < toks.length; i++) {
    const t = toks[i];
    if (isPunct(t, '(') || isPunct(t, '[')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']')) depth--;
    else if (depth === 0 && t.type === 'word') {
      const up = t.text.toUpperCase();
      if (SET_OPS.has(up))
        throw pgError(
          '0A000',
          `SELECT DISTINCT ON in a branch of ${up} is not supported: put that SELECT in a subquery (SELECT * FROM (...) AS s)`,
        );
      if (CLAUSES.has(up) && at[up] === undefined) at[up] = i;
    } else if (depth === 0 && isPunct(t, ';')) {
      end = i;
      break;
    }
  }
  const listEnd = Math.min(
    ...['FROM', 'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH'].map((c) => at[c] ?? end),
  );
  const orderAt = at.ORDER;
  const tailAt = Math.min(at.LIMIT ?? end, at.OFFSET ?? end, at.FETCH ?? end);
  const bodyEnd = orderAt ?? tailAt;
  if (orderAt !== undefined && !isWord(toks[orderAt + 1], 'BY')) return toks;
  if (orderAt !== undefined && tailAt < orderAt) return toks;

  // the select list, with * and t.* spelled out from the schema
  const fromEnd = Math.min(
    ...['WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH'].map((c) => at[c] ?? end),
  );
  const tables = at.FROM !== undefined ? fromTables(toks.slice(at.FROM + 1, fromEnd)) : new Map<string, string>();
  const items: Item[] = [];
  for (const raw of splitTop(toks, keysEnd + 1, listEnd)) {
    const star = raw.length === 1 && raw[0].text === '*';
    const qualified = raw.length === 3 && isName(raw[0]) && isPunct(raw[1], '.') && raw[2].text === '*';
    if (!star && !qualified) {
      items.push(readItem(raw));
      continue;
    }
    if (!tables) return toks;
    const sources = star ? [...tables.entries()] : [[identOf(raw[0]), tables.get(identOf(raw[0]))] as const];
    for (const [alias, table] of sources) {
      const cols = table ? columns(table) : null;
      if (!cols) return toks;
      for (const c of cols) items.push({ expr: [q(alias), p('.'), q(c)], name: q(c) });
    }
  }
  if (items.length === 0 || items.some((it) => it.expr.length === 0)) return toks;

  const keys = splitTop(toks, 4, keysEnd).map((k) => resolve(k, items));
  const sorts =
    orderAt === undefined
      ? []
      : splitTop(toks, orderAt + 2, tailAt).map((s) => {
          // expression, then ASC/DESC and NULLS FIRST/LAST
          let j = s.length;
          while (
            j > 0 &&
            ['ASC', 'DESC', 'NULLS', 'FIRST', 'LAST'].includes(s[j - 1].text.toUpperCase()) &&
            s[j - 1].type === 'word'
          )
            j--;
          return { expr: resolve(s.slice(0, j), items), dir: s.slice(j) };
        });

  // PostgreSQL wants the leftmost ORDER BY items to be the DISTINCT ON keys
  const keyTexts = new Set(keys.map((k) => joinTokens(k).toLowerCase()));
  for (let i = 0; i < Math.min(keys.length, sorts.length); i++)
    if (!keyTexts.has(joinTokens(sorts[i].expr).toLowerCase()))
      throw pgError('42P10', 'SELECT DISTINCT ON expressions must match initial ORDER BY expressions');

  const inner: Tok[] = [w('SELECT')];
  items.forEach((it, i) => inner.push(...(i ? [p(',')] : []), ...it.expr, w('AS'), q(`__pg_c${i + 1}`)));
  sorts.forEach((s, i) => inner.push(p(','), ...s.expr, w('AS'), q(`__pg_o${i + 1}`)));
  inner.push(p(','), w('row_number'), p('('), p(')'), w('OVER'), p('('), w('PARTITION'), w('BY'));
  keys.forEach((k, i) => inner.push(...(i ? [p(',')] : []), ...k));
  if (sorts.length) {
    inner.push(w('ORDER'), w('BY'));
    sorts.forEach((s, i) => inner.push(...(i ? [p(',')] : []), ...s.expr, ...s.dir));
  }
  inner.push(p(')'), w('AS'), q('__pg_rn'), ...toks.slice(listEnd, bodyEnd));

  const out: Tok[] = [w('SELECT')];
  items.forEach((it, i) => out.push(...(i ? [p(',')] : []), q(`__pg_c${i + 1}`), w('AS'), it.name ?? q('?column?')));
  out.push(
    w('FROM'),
    p('('),
    ...inner,
    p(')'),
    w('AS'),
    q('__pg_d'),
    w('WHERE'),
    q('__pg_rn'),
    { type: 'op', text: '=' },
    { type: 'number', text: '1' },
  );
  if (sorts.length) {
    out.push(w('ORDER'), w('BY'));
    // an interval sorted by its length inside (null-order.ts) is sorted so outside too, a jsonb
    // value or an array by its key ('arr-order:kind')
    const keyed = (s: { expr: Tok[] }) =>
      s.expr
        .map((t) => ('sortKey' in t ? t.sortKey : undefined))
        .find((k) => k === 'iv-order' || /^arr-order:\w+$/.test(k ?? ''));
    sorts.forEach((s, i) => {
      const sortKey = keyed(s);
      out.push(
        ...(i ? [p(',')] : []),
        sortKey ? ({ ...q(`__pg_o${i + 1}`), sortKey } as Tok) : q(`__pg_o${i + 1}`),
        ...s.dir,
      );
    });
  }
  out.push(...toks.slice(tailAt, toks.length));
  return out;
}
