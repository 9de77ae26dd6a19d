// LATERAL subqueries of one row, which SQLite has no syntax for. pgbench's catalog probe (PostgreSQL
// 15, before every built-in workload) joins
//   CROSS JOIN LATERAL (SELECT pg_catalog.array_position(pg_catalog.current_schemas(true), n.nspname)) AS o(n)
// and reads o.n. A FROM-less select yields exactly one row per outer row, so the join changes no row
// count and each `o.n` is its expression: the join is dropped and every `o.col` becomes `(expr)`.
import type { PgToken } from '../lexer';
import { identName } from '../lexer';
import { closer, isPunct, isWord, topLevelWord } from '../tokens';

/** The top-level comma-separated items of toks[from, to). */
function items(toks: PgToken[], from: number, to: number): PgToken[][] {
  const out: PgToken[][] = [[]];
  let depth = 0;
  for (let i = from; i < to; i++) {
    const t = toks[i];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    if (depth === 0 && isPunct(t, ',')) out.push([]);
    else out[out.length - 1].push(t);
  }
  return out;
}

/**
 * Whether the statement outside toks[from, to) (the join being inlined) reads the subquery named
 * `name` as a whole: `name.*`, the bare name (`row_to_json(name)`), or a select item `*` at the
 * join's depth. Such a read needs the subquery's columns as a FROM item's, so the join is not
 * inlined (lateral-json.ts spreads them; inlined, `*` left them out).
 */
function readsWhole(toks: PgToken[], name: string, from: number, to: number): boolean {
  let at = 0; // (the join's depth)
  for (let k = 0; k < from; k++) at += isPunct(toks[k], '(') ? 1 : isPunct(toks[k], ')') ? -1 : 0;
  let depth = 0;
  for (let k = 0; k < toks.length; k++) {
    if (k === from) {
      k = to - 1;
      continue;
    }
    const t = toks[k];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    const star = t.text === '*' && (t.type === 'op' || t.type === 'punct');
    if (
      star &&
      depth === at &&
      ['SELECT', 'DISTINCT', 'ALL'].some((w) => isWord(toks[k - 1], w) || isPunct(toks[k - 1], ','))
    )
      return true;
    if ((t.type !== 'word' && t.type !== 'quoted') || identName(t) !== name || isPunct(toks[k - 1], '.')) continue;
    const next = toks[k + 2];
    if (!isPunct(toks[k + 1], '.') || (next && next.text === '*' && (next.type === 'op' || next.type === 'punct')))
      return true;
  }
  return false;
}

/**
 * Rewrites `[CROSS] JOIN LATERAL (SELECT e1, ...) [AS] alias (c1, ...)` (no FROM in the subquery)
 * into references to the expressions themselves; tokens without a LATERAL come back unchanged.
 */
export function inlineLateralRows(toks: PgToken[]): PgToken[] {
  if (!toks.some((t) => isWord(t, 'LATERAL'))) return toks;
  for (let i = 0; i < toks.length; i++) {
    if (!isWord(toks[i], 'LATERAL') || !isPunct(toks[i + 1], '(') || !isWord(toks[i + 2], 'SELECT')) continue;
    const start = isWord(toks[i - 1], 'JOIN') ? (isWord(toks[i - 2], 'CROSS') ? i - 2 : i - 1) : -1;
    const close = closer(toks, i + 1);
    if (start < 0 || close < 0) continue;
    // (an item's own `AS name`: the column list names it)
    const body = items(toks, i + 3, close).map((c) => (isWord(c[c.length - 2], 'AS') ? c.slice(0, -2) : c));
    let depth = 0;
    const hasFrom = toks
      .slice(i + 3, close)
      .some((t) =>
        isPunct(t, '(') ? (depth++, false) : isPunct(t, ')') ? (depth--, false) : depth === 0 && isWord(t, 'FROM'),
      );
    let j = close + 1;
    if (isWord(toks[j], 'AS')) j++;
    const alias = toks[j];
    if (hasFrom || !alias || (alias.type !== 'word' && alias.type !== 'quoted') || !isPunct(toks[j + 1], '(')) continue;
    const colsEnd = closer(toks, j + 1);
    if (colsEnd < 0) continue;
    const cols = items(toks, j + 2, colsEnd).map((c) => (c.length === 1 ? identName(c[0]) : ''));
    if (cols.length !== body.length || cols.includes('')) continue;
    let end = colsEnd + 1;
    if (isWord(toks[end], 'ON') && isWord(toks[end + 1], 'TRUE')) end += 2;
    const name = identName(alias);
    if (readsWhole(toks, name, start, end)) continue;
    const rest = [...toks.slice(0, start), ...toks.slice(end)];
    const out: PgToken[] = [];
    for (let k = 0; k < rest.length; k++) {
      const t = rest[k];
      const col =
        (t.type === 'word' || t.type === 'quoted') && identName(t) === name && isPunct(rest[k + 1], '.') && rest[k + 2]
          ? cols.indexOf(identName(rest[k + 2]))
          : -1;
      if (col >= 0) {
        out.push({ type: 'punct', text: '(' }, ...body[col], { type: 'punct', text: ')' });
        k += 2;
      } else out.push(t);
    }
    return inlineLateralRows(out);
  }
  return toks;
}

/** Aggregates: a SELECT of one of these and no GROUP BY yields exactly one row. */
const AGGREGATES = new Set([
  'count', 'sum', 'avg', 'min', 'max', 'json_agg', 'jsonb_agg', 'array_agg', 'string_agg', 'json_object_agg',
  'jsonb_object_agg', 'bool_and', 'bool_or', 'every',
]); // biome-ignore format: a word list

/** Whether the select list toks[from, to) calls an aggregate outside any subquery (and not as a window). */
function aggregates(toks: PgToken[], from: number, to: number): boolean {
  const subquery: boolean[] = [];
  for (let i = from; i < to; i++) {
    const t = toks[i];
    if (isPunct(t, '(')) subquery.push(isWord(toks[i + 1], 'SELECT'));
    else if (isPunct(t, ')')) subquery.pop();
    else if (
      t.type === 'word' &&
      AGGREGATES.has(t.text.toLowerCase()) &&
      isPunct(toks[i + 1], '(') &&
      !subquery.includes(true) &&
      !isWord(toks[closer(toks, i + 1) + 1], 'OVER')
    )
      return true;
  }
  return false;
}

/**
 * The body toks[from, to) (SELECT ... FROM ...) when a `LIMIT 1` keeps it, or the one subquery it
 * reads from, to one row; null when it may give more (lateral-json.ts takes those).
 */
function oneRowBody(toks: PgToken[], from: number, to: number): PgToken[] | null {
  const limited = (a: number, b: number): PgToken[] | null => {
    const at = topLevelWord(toks, a, b, 'LIMIT');
    if (at < 0) return null;
    const v = toks[at + 1];
    const after = at + 2;
    if (!(after === b || isWord(toks[after], 'OFFSET'))) return null;
    return v?.type === 'number' && Number(v.text) <= 1 ? toks.slice(a, b) : null;
  };
  const own = limited(from, to);
  if (own) return own;
  const f = topLevelWord(toks, from, to, 'FROM');
  if (f < 0 || !isPunct(toks[f + 1], '(') || !isWord(toks[f + 2], 'SELECT')) return null;
  const close = closer(toks, f + 1);
  let a = close + 1;
  if (isWord(toks[a], 'AS')) a++;
  const rest = a + 1;
  if (!(rest === to || isWord(toks[rest], 'WHERE'))) return null;
  const inner = limited(f + 2, close);
  return inner ? [...toks.slice(from, f + 2), ...inner, ...toks.slice(close, to)] : null;
}

/**
 * `LEFT JOIN LATERAL (SELECT e1 AS c1, ... FROM ...) alias ON true`, as Drizzle's relational queries
 * send it, when the subquery gives at most one row: an aggregate with no GROUP BY (a related list,
 * `coalesce(json_agg(...), '[]')`), or a LIMIT of 1 (a related row). Such a join adds no row and
 * drops none, so it goes, and each `alias.ck` becomes the scalar subquery `(SELECT ek FROM ...)`.
 * An aggregate may also be a CROSS JOIN LATERAL or `JOIN LATERAL ... ON true` (exactly one row).
 */
export function inlineLateralSubqueries(toks: PgToken[]): PgToken[] {
  if (!toks.some((t) => isWord(t, 'LATERAL'))) return toks;
  for (let i = 0; i < toks.length; i++) {
    if (!isWord(toks[i], 'LATERAL') || !isPunct(toks[i + 1], '(') || !isWord(toks[i + 2], 'SELECT')) continue;
    if (!isWord(toks[i - 1], 'JOIN')) continue;
    const left = isWord(toks[i - 2], 'LEFT') || (isWord(toks[i - 2], 'OUTER') && isWord(toks[i - 3], 'LEFT'));
    const start =
      i -
      1 -
      (isWord(toks[i - 2], 'OUTER') ? 2 : ['LEFT', 'CROSS', 'INNER'].some((w) => isWord(toks[i - 2], w)) ? 1 : 0);
    const close = closer(toks, i + 1);
    if (close < 0) continue;
    let j = close + 1;
    if (isWord(toks[j], 'AS')) j++;
    const alias = toks[j];
    if (!alias || (alias.type !== 'word' && alias.type !== 'quoted')) continue;
    let end = j + 1;
    if (isWord(toks[end], 'ON') && isWord(toks[end + 1], 'TRUE')) end += 2;
    else if (!isWord(toks[i - 2], 'CROSS')) continue;
    const listStart = isWord(toks[i + 3], 'DISTINCT') ? -1 : i + 3;
    const fromAt = topLevelWord(toks, i + 3, close, 'FROM');
    if (listStart < 0 || fromAt < 0 || topLevelWord(toks, fromAt, close, 'GROUP') >= 0) continue;
    const aggregate = aggregates(toks, listStart, fromAt);
    const body = aggregate ? toks.slice(fromAt, close) : left ? oneRowBody(toks, fromAt, close) : null;
    if (!body) continue;
    const cols = new Map<string, PgToken[]>();
    for (const item of items(toks, listStart, fromAt)) {
      const n = item.length;
      const named = n >= 3 && isWord(item[n - 2], 'AS');
      const last = item[n - 1];
      if (!last || (last.type !== 'word' && last.type !== 'quoted')) break;
      cols.set(identName(last), named ? item.slice(0, n - 2) : item);
    }
    if (cols.size !== items(toks, listStart, fromAt).length) continue;
    const name = identName(alias);
    if (readsWhole(toks, name, start, end)) continue;
    const rest = [...toks.slice(0, start), ...toks.slice(end)];
    const out: PgToken[] = [];
    for (let k = 0; k < rest.length; k++) {
      const t = rest[k];
      const expr =
        (t.type === 'word' || t.type === 'quoted') && identName(t) === name && isPunct(rest[k + 1], '.') && rest[k + 2]
          ? cols.get(identName(rest[k + 2]))
          : undefined;
      if (expr && !isPunct(rest[k - 1], '.')) {
        out.push({ type: 'punct', text: '(' }, { type: 'word', text: 'SELECT' }, ...expr, ...body, {
          type: 'punct',
          text: ')',
        });
        k += 2;
      } else out.push(t);
    }
    return inlineLateralSubqueries(out);
  }
  return toks;
}

/**
 * `CROSS JOIN LATERAL jsonb_array_elements(t.tags) AS e`, `, LATERAL unnest(t.xs) u`: LATERAL before
 * a function call says what SQLite's table-valued functions do anyway (their arguments may read
 * earlier FROM items), so the word goes. LATERAL before a subquery is left to the rewrites above.
 */
export function dropLateralOfCalls(toks: PgToken[]): PgToken[] {
  if (!toks.some((t) => isWord(t, 'LATERAL'))) return toks;
  return toks.filter((t, i) => !(isWord(t, 'LATERAL') && toks[i + 1]?.type === 'word' && isPunct(toks[i + 2], '(')));
}
