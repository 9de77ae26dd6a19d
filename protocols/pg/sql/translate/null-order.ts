// NULLs sort last in ascending order and first in descending order (SQLite: the other way round):
// each ORDER BY term without NULLS FIRST/LAST gets the one PostgreSQL implies, except a column
// every table declares NOT NULL (so an index still gives the order).
// SQLite would answer the same text otherwise, silently; test/pg/semantics-oracle.test.ts runs it on both.
import { type Tok, isPunct, isWord } from '../tokens';
import { exactSortKey, quotedName } from './exact-order';
import { OPERAND_ENDS } from './primaries';

/** Words that follow an ORDER BY term's expression. */
const TERM_TAIL = new Set(['ASC', 'DESC', 'NULLS', 'USING']);

/** 'kind:name' as its kind and name (no name: undefined). */
function splitOnce(s: string): [string, string | undefined] {
  const at = s.indexOf(':');
  return at < 0 ? [s, undefined] : [s.slice(0, at), s.slice(at + 1)];
}

/**
 * A term the analysis marked to sort by another key than its value (an interval by its length,
 * typed-operators.ts markIntervalOrder): its expression wrapped in that key's function.
 */
function sortKeyed(term: Tok[]): Tok[] {
  const exact = term[0] && 'sortKey' in term[0] ? term[0].sortKey : undefined;
  if (exact?.startsWith('num-order:') && term[0].type === 'number')
    // ORDER BY 2 of an exact numeric column: by its number (exact-order.ts)
    return [{ type: 'group', text: exactSortKey(quotedName(exact.slice(10))) }, ...term.slice(1)];
  const mark = term.find((t) => 'sortKey' in t && /^(iv|arr)-order/.test(t.sortKey ?? ''));
  if (!mark || !('sortKey' in mark)) return term;
  // an array of numbers or booleans by its elements' values, a jsonb value in jsonb's order
  // (typed-operators.ts markIntervalOrder)
  const [array, arrayItem] = mark.sortKey?.startsWith('arr-order:') ? splitOnce(mark.sortKey.slice(10)) : [];
  const named = array ? arrayItem : mark.sortKey?.slice('iv-order:'.length);
  if (array === 'jsonb' && named?.startsWith('=')) {
    // (an alias that is a table's column name too: by the column the item reads, typed-operators.ts' jsonbShadowed)
    const ref = (JSON.parse(named.slice(1)) as string[]).map((f) => `"${f.replace(/"/g, '""')}"`).join('.');
    const tail = term.findIndex((t, k) => k > 0 && isWord(t, undefined) && TERM_TAIL.has(t.text.toUpperCase()));
    return [{ type: 'group', text: `__pg_jsonb_sortkey(${ref})` }, ...(tail < 0 ? [] : term.slice(tail))];
  }
  if (named && mark.type === 'number')
    // ORDER BY 2: the select item by its name
    return [
      {
        type: 'group',
        text:
          array === 'jsonb'
            ? `__pg_jsonb_sortkey("${named.replace(/"/g, '""')}")`
            : array
              ? `__pg_array_sortkey('${array}', "${named.replace(/"/g, '""')}")`
              : `__pg_interval_key("${named.replace(/"/g, '""')}")`,
      },
      ...term.slice(1),
    ];
  let end = term.length;
  for (let k = 0; k < term.length; k++)
    if (isWord(term[k], undefined) && TERM_TAIL.has(term[k].text.toUpperCase()) && k > 0) {
      end = k;
      break;
    }
  return [
    {
      type: 'word',
      text: array === 'jsonb' ? '__pg_jsonb_sortkey' : array ? '__pg_array_sortkey' : '__pg_interval_key',
    },
    { type: 'punct', text: '(' },
    ...(array && array !== 'jsonb' ? [{ type: 'group', text: `'${array}',` } as Tok] : []),
    ...term.slice(0, end),
    { type: 'punct', text: ')' },
    ...term.slice(end),
  ];
}

/** Words that end a GROUP BY item or an aggregate's argument. */
const ITEM_ENDS = new Set([
  'HAVING',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'WINDOW',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'FETCH',
  'FOR',
  'FILTER',
]);

/**
 * GROUP BY items and count(DISTINCT ...) arguments the analysis marked 'iv-group' (intervals):
 * each wrapped in __pg_interval_key, so that `1 day` and `24 hours` are one group or one value;
 * 'arr-group:kind' (numeric and boolean arrays) in __pg_array_key, `{1.50}` and `{1.5}` likewise,
 * and jsonb ('arr-group:jsonb') in __pg_jsonb_sortkey, `1.50` and `1.5` likewise.
 */
export function rewriteIntervalGroups(toks: Tok[]): Tok[] {
  const grouped = (t: Tok) =>
    'sortKey' in t && (t.sortKey === 'iv-group' || /^(iv-group|arr-group):/.test(t.sortKey ?? ''));
  if (!toks.some(grouped)) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (!grouped(t)) {
      out.push(t);
      continue;
    }
    // a numeric or boolean array ('arr-group:kind'): by __pg_array_key, its elements' values
    const mark = 'sortKey' in t ? (t.sortKey ?? '') : '';
    const [array, named] = mark.startsWith('arr-group:')
      ? splitOnce(mark.slice(10))
      : [undefined, mark.startsWith('iv-group:') ? mark.slice(9) : undefined];
    if (named !== undefined && t.type === 'number') {
      // GROUP BY 2: the select item by its name
      const name = `"${named.replace(/"/g, '""')}"`;
      const key =
        array === 'jsonb'
          ? `__pg_jsonb_sortkey(${name})`
          : array
            ? `__pg_array_key('${array}', ${name})`
            : `__pg_interval_key(${name})`;
      out.push({ type: 'group', text: key });
      continue;
    }
    // the item: to a comma, a closing parenthesis or a clause word at its own depth
    let depth = 0;
    let end = i;
    for (; end < toks.length; end++) {
      const x = toks[end];
      if (isPunct(x, '(')) depth++;
      else if (isPunct(x, ')') && depth-- === 0) break;
      else if (
        depth === 0 &&
        (isPunct(x, ',') || isPunct(x, ';') || (x.type === 'word' && ITEM_ENDS.has(x.text.toUpperCase())))
      )
        break;
    }
    out.push(
      { type: 'word', text: array === 'jsonb' ? '__pg_jsonb_sortkey' : array ? '__pg_array_key' : '__pg_interval_key' },
      { type: 'punct', text: '(' },
      ...(array && array !== 'jsonb' ? [{ type: 'group', text: `'${array}',` } as Tok] : []),
      ...toks.slice(i, end),
      { type: 'punct', text: ')' },
    );
    i = end - 1;
  }
  return out;
}

/** Words after which an ORDER BY list ends. */
const ORDER_ENDS = new Set([
  'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION', 'EXCEPT', 'INTERSECT', 'ROWS', 'RANGE', 'GROUPS', 'WINDOW',
  'RETURNING',
]); // biome-ignore format: a word list

/** Keywords a column or table name follows that are not the end of an expression. */
const NOT_BEFORE_ALIAS = new Set(['BY', 'DISTINCT', 'INTO', 'UPDATE', 'TABLE', 'CASE', 'WITH', 'RECURSIVE', 'ONLY']);

/** Words that end an expression, so that a name after them is an alias (`SELECT f(x) id`). */
const aliasBefore = (t: Tok | undefined) =>
  t !== undefined &&
  (isWord(t, 'AS') ||
    isPunct(t, ')') ||
    t.type === 'string' ||
    t.type === 'number' ||
    t.type === 'quoted' ||
    (t.type === 'word' && !OPERAND_ENDS.has(t.text.toUpperCase()) && !NOT_BEFORE_ALIAS.has(t.text.toUpperCase())));

const identName = (t: Tok) => (t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase());

/**
 * ORDER BY terms with PostgreSQL's NULL order made explicit. `notNull(name)` says whether every
 * table with a column of that name declares it NOT NULL: such a term is left as written, unless the
 * statement also uses the name as an alias.
 */
export function rewriteNullOrder(toks: Tok[], notNull: (column: string) => boolean): Tok[] {
  if (!toks.some((t) => isWord(t, 'ORDER'))) return toks;
  const aliased = new Set<string>();
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i];
    if ((t.type === 'word' || t.type === 'quoted') && aliasBefore(toks[i - 1]) && !isPunct(toks[i + 1], '.'))
      aliased.add(identName(t));
  }
  const out: Tok[] = [];
  const depthAt: number[] = []; // depth of each token
  let depth = 0;
  for (const t of toks) {
    if (isPunct(t, ')')) depth--;
    depthAt.push(depth);
    if (isPunct(t, '(')) depth++;
  }
  let i = 0;
  while (i < toks.length) {
    if (!(isWord(toks[i], 'ORDER') && isWord(toks[i + 1], 'BY'))) {
      out.push(toks[i++]);
      continue;
    }
    out.push(toks[i], toks[i + 1]);
    const d = depthAt[i];
    i += 2;
    let term: Tok[] = [];
    const flush = () => {
      // ORDER BY x USING < / USING >: ascending and descending, which is what they sort by
      const using = term.findIndex((t) => isWord(t, 'USING'));
      if (using > 0 && term[using + 1]?.type === 'op' && (term[using + 1].text === '<' || term[using + 1].text === '>'))
        term.splice(using, 2, { type: 'word', text: term[using + 1].text === '<' ? 'ASC' : 'DESC' });
      out.push(...sortKeyed(term));
      const words = term.filter((t, k) => depthAt[i - term.length + k] === d);
      const last = words[words.length - 1];
      const bare = term.filter((t) => !isWord(t, 'ASC') && !isWord(t, 'DESC'));
      const column = bare.length === 1 ? bare[0] : bare.length === 3 && isPunct(bare[1], '.') ? bare[2] : undefined;
      const keeps =
        column !== undefined &&
        (column.type === 'word' || column.type === 'quoted') &&
        !aliased.has(identName(column)) &&
        notNull(identName(column));
      if (term.length > 0 && !words.some((t) => isWord(t, 'NULLS') || isWord(t, 'USING')) && !keeps) {
        out.push({ type: 'word', text: 'NULLS' }, { type: 'word', text: isWord(last, 'DESC') ? 'FIRST' : 'LAST' });
      }
      term = [];
    };
    while (i < toks.length) {
      const t = toks[i];
      if (
        depthAt[i] < d ||
        (depthAt[i] === d && (isPunct(t, ';') || (t.type === 'word' && ORDER_ENDS.has(t.text.toUpperCase()))))
      )
        break;
      if (depthAt[i] === d && isPunct(t, ',')) {
        flush();
        out.push(t);
        i++;
        continue;
      }
      term.push(t);
      i++;
    }
    flush();
  }
  return out;
}
