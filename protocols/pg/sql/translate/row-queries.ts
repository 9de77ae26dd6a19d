// A multiple-column SET from a sub-SELECT (`UPDATE t SET (a, arr[1]) = (SELECT x, y FROM u ...)`,
// `(WITH ...)`, also ON CONFLICT's DO UPDATE SET). PostgreSQL assigns each column its value of the
// query's row as `SET a = x` assigns it (an integer column rounds 2.5 to 3, a numeric(p, s) rounds
// to s digits, a text column prints the value as its type prints it), NULL when the query has no
// row, and refuses more than one row with 21000; an element target is set into its column's old
// value. SQLite assigned the first row's values as they were (it has no element targets at all).
// The query becomes a WITH query of numbered columns, read in one row of its own and guarded as
// translate/one-row.ts guards a scalar subquery:
//   (a, arr) = (WITH __pg_sub(__pg_c1, __pg_c2) AS (<query>) SELECT CASE WHEN (SELECT count(*)
//   FROM (SELECT 1 FROM __pg_sub LIMIT 2)) > 1 THEN __pg_raise('21000', ...) ELSE <a's value> END,
//   <arr's value> FROM (SELECT 1) LEFT JOIN __pg_sub ON true)
// where a column's value is `__pg_cK` converted for the column as typed-assignments.ts converts
// `SET a = x` (judged by the query's own item, whose text mark it reads: sql/zoned-assignments.ts),
// and an element's is `__pg_array_set(arr, (1), (__pg_c2))` (element-assignments.ts).
import { pgError } from '../../sqlstate';
import { type Tok, closerAfter, identText, isOp, isPunct, isWord, topLevelItems, topLevelWord } from '../tokens';
import { type Assign, asText, assignment, textMark, zoneMark } from './assignment';
import { elementTarget, setCalls } from './element-assignments';
import type { DialectContext } from './translate';
import { setClause } from './update-defaults';

const punct = (text: string): Tok => ({ type: 'punct', text });
const word = (text: string): Tok => ({ type: 'word', text });
const list = (items: Tok[][]): Tok[] => items.flatMap((x, k) => (k > 0 ? [punct(','), ...x] : x));

/** Words that end a SELECT's items at its top level. */
const ITEMS_END = ['FROM', 'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR'];
const SET_OPS = ['UNION', 'INTERSECT', 'EXCEPT'];

/**
 * The items of a plain query (`SELECT x, y FROM ...`, `WITH ... SELECT ...`), each its tokens; null
 * for a set operation, VALUES or `*` (their values are judged by the column alone).
 */
function queryItems(query: Tok[], width: number): Tok[][] | null {
  const select = topLevelWord(query, 0, query.length, 'SELECT');
  if (select < 0 || SET_OPS.some((w) => topLevelWord(query, select, query.length, w) >= 0)) return null;
  let from = select + 1;
  if (isWord(query[from], 'ALL')) from++;
  else if (isWord(query[from], 'DISTINCT')) {
    from++;
    if (isWord(query[from], 'ON') && isPunct(query[from + 1], '(')) from = closerAfter(query, from + 1) + 1;
  }
  const ends = ITEMS_END.map((w) => topLevelWord(query, from, query.length, w)).filter((k) => k >= 0);
  const to = ends.length ? Math.min(...ends) : query.length;
  const items = topLevelItems(query, from, to).map(([a, b]) => {
    let item = query.slice(a, b);
    // (an alias after it: `x AS a`, `x a`)
    const n = item.length;
    // (an item misread here is only judged, never written: its value is the query's column)
    if (n > 2 && isWord(item[n - 2], 'AS')) item = item.slice(0, n - 2);
    else if (
      (item[n - 1]?.type === 'word' || item[n - 1]?.type === 'quoted') &&
      !isWord(item[n - 1], 'END') &&
      (n === 2 || isPunct(item[n - 2], ')'))
    )
      item = item.slice(0, n - 1);
    return item;
  });
  if (items.length !== width || items.some((x) => x.length === 0 || isOp(x[x.length - 1], '*'))) return null;
  return items;
}

/**
 * `value` (the column's value of the query's row) converted for its column as `SET a = <item>`
 * would be: the conversion of the item, with `value` in the item's place.
 */
function converted(wrap: Assign | null, value: Tok[], item: Tok[] | undefined): Tok[] {
  if (!wrap) return value;
  if (!item) return wrap(value);
  const out = wrap(item, false, zoneMark(item));
  const at = out.indexOf(item[0]);
  if (at >= 0 && item.every((t, k) => out[at + k] === t))
    return [...out.slice(0, at), ...value, ...out.slice(at + item.length)];
  // (a literal the conversion wrote in its stored form: the value converted alike)
  return wrap(value, false, zoneMark(item));
}

/** `(SELECT CASE WHEN ... > 1 THEN __pg_raise('21000', ...) ELSE <first> END`: the first value guarded. */
function guarded(first: Tok[]): Tok[] {
  return [
    word('CASE'),
    word('WHEN'),
    ...[punct('('), word('SELECT'), word('count'), punct('('), { type: 'op', text: '*' } as Tok, punct(')')],
    ...[word('FROM'), punct('('), word('SELECT'), { type: 'number', text: '1' } as Tok, word('FROM')],
    ...[word('__pg_sub'), word('LIMIT'), { type: 'number', text: '2' } as Tok, punct(')'), punct(')')],
    ...[{ type: 'op', text: '>' } as Tok, { type: 'number', text: '1' } as Tok, word('THEN'), word('__pg_raise')],
    punct('('),
    { type: 'string', text: "'21000'" },
    punct(','),
    { type: 'string', text: "'more than one row returned by a subquery used as an expression'" },
    punct(')'),
    word('ELSE'),
    ...first,
    word('END'),
  ];
}

/** The SET item of `targets` (toks' ranges) from `query`: `(a, arr) = (WITH __pg_sub ... )`. */
function rowQuery(toks: Tok[], targets: [number, number][], query: Tok[], table: string, ctx: DialectContext): Tok[] {
  const width = ctx.selectWidth?.(query) ?? null;
  if (width !== null && width !== targets.length)
    throw pgError('42601', 'number of columns does not match number of values');
  const items = queryItems(query, targets.length);
  const columns: { name: Tok; sets: { subs: Tok[][]; value: Tok[] }[]; plain?: number }[] = [];
  targets.forEach(([a, b], k) => {
    const target = b > a + 1 ? elementTarget(toks, a, b) : null;
    const name = target?.name ?? toks[a];
    // (an element's value printed as its query's item is marked to be: element-assignments.ts)
    const kind = target && items ? textMark(items[k]) : undefined;
    const value = kind ? asText(kind, [word(`__pg_c${k + 1}`)]) : [word(`__pg_c${k + 1}`)];
    const found = columns.find((c) => identText(c.name) === identText(name));
    if (found && (found.plain !== undefined || !target))
      throw pgError('42601', `multiple assignments to same column "${identText(name)}"`);
    if (found) found.sets.push({ subs: (target as { subs: Tok[][] }).subs, value });
    else columns.push(target ? { name, sets: [{ subs: target.subs, value }] } : { name, sets: [], plain: k });
  });
  const values = columns.map((c) => {
    const item = c.plain === undefined ? undefined : items?.[c.plain];
    const printed = item !== undefined && zoneMark(item)?.startsWith('text:') === true;
    const wrap = assignment(ctx.columnType?.(table, identText(c.name)) ?? null, printed);
    if (c.plain !== undefined) return converted(wrap, [word(`__pg_c${c.plain + 1}`)], item);
    const set = setCalls([c.name], c.sets);
    return wrap ? wrap(set) : set;
  });
  values[0] = guarded(values[0]);
  return [
    punct('('),
    ...list(columns.map((c) => [c.name])),
    punct(')'),
    { type: 'op', text: '=' },
    punct('('),
    word('WITH'),
    word('__pg_sub'),
    punct('('),
    ...list(targets.map((_, k) => [word(`__pg_c${k + 1}`)])),
    punct(')'),
    word('AS'),
    punct('('),
    ...query,
    punct(')'),
    word('SELECT'),
    ...list(values),
    ...[word('FROM'), punct('('), word('SELECT'), { type: 'number', text: '1' } as Tok, punct(')')],
    ...[word('LEFT'), word('JOIN'), word('__pg_sub'), word('ON'), word('true'), punct(')')],
  ];
}

export function rewriteRowQueries(toks: Tok[], ctx: DialectContext): Tok[] {
  if (!toks.some((t, i) => isPunct(t, '(') && (isWord(toks[i + 1], 'SELECT') || isWord(toks[i + 1], 'WITH'))))
    return toks;
  const clause = setClause(toks, ctx);
  if (!clause) return toks;
  const { table, set, end } = clause;
  let out: Tok[] | null = null;
  for (const [from, to] of topLevelItems(toks, set + 1, end).reverse()) {
    const close = isPunct(toks[from], '(') ? closerAfter(toks, from) : -1;
    const open = close + 2;
    if (close < 0 || !isOp(toks[close + 1], '=') || !isPunct(toks[open], '(') || closerAfter(toks, open) !== to - 1)
      continue;
    if (!isWord(toks[open + 1], 'SELECT') && !isWord(toks[open + 1], 'WITH')) continue;
    const targets = topLevelItems(toks, from + 1, close);
    out ??= toks.slice();
    out.splice(from, to - from, ...rowQuery(toks, targets, toks.slice(open + 1, to - 1), table, ctx));
  }
  return out ?? toks;
}
