// ORDER BY of a result column computed exactly (sql/exact-columns.ts: a numeric division, avg,
// stddev or variance, handed to SQLite as text so that no double cuts its digits): by its number,
// not its text ('10.5' after '9.25'), NaN above every number as in PostgreSQL. An item sorted by
// position gets PostgreSQL's name for it as its alias ('num-alias:name'), so the ORDER BY can name it.
import { type Tok, isPunct, isWord } from '../tokens';

/** What an exact column named `ref` (SQL text) sorts by: its double, or the text NaN, which SQLite sorts above numbers. */
export const exactSortKey = (ref: string): string =>
  `(CASE WHEN ${ref} = 'NaN' THEN 'NaN' ELSE CAST(${ref} AS REAL) END)`;

/** A name as a quoted SQLite identifier. */
export const quotedName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Words that end a select list item at its own depth. */
const ITEM_ENDS = new Set([
  'FROM', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET', 'WINDOW', 'UNION', 'INTERSECT', 'EXCEPT', 'FETCH',
  'FOR', 'INTO',
]); // biome-ignore format: a word list

/** Each select item marked 'num-alias:name' (its first token) with `AS "name"` after it. */
export function rewriteExactAliases(toks: Tok[]): Tok[] {
  if (!toks.some((t) => 'sortKey' in t && t.sortKey?.startsWith('num-alias:'))) return toks;
  const out = toks.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    const t = out[i];
    if (!('sortKey' in t) || !t.sortKey?.startsWith('num-alias:')) continue;
    const end = valueEnd(out, i, ITEM_ENDS);
    const alias: Tok[] = [
      { type: 'word', text: 'AS' },
      { type: 'quoted', text: quotedName(t.sortKey.slice(10)) },
    ];
    // (an item given its figured name already, sql/figured-aliases.ts: this name in its place)
    const given = out.slice(i, end).findIndex((x, k) => isWord(x, 'AS') && i + k + 2 === end);
    out.splice(given < 0 ? end : i + given, given < 0 ? 0 : 2, ...alias);
  }
  return out;
}

/**
 * Where the value starting at toks[i] ends: a ')' closing its parenthesis, a ',' or ';', or one of
 * `ends` at its depth (a CASE's WHEN ... END inside the value are at a depth of their own).
 */
function valueEnd(toks: Tok[], i: number, ends: ReadonlySet<string>): number {
  let depth = 0;
  let end = i;
  for (; end < toks.length; end++) {
    const x = toks[end];
    if (isPunct(x, '(') || isWord(x, 'CASE')) depth++;
    else if (isWord(x, 'END') && depth > 0) depth--;
    else if (isPunct(x, ')') && --depth < 0) break;
    else if (depth === 0 && (isPunct(x, ',') || isPunct(x, ';'))) break;
    else if (depth === 0 && x.type === 'word' && ends.has(x.text.toUpperCase())) break;
  }
  return end;
}

/** Words that end a CASE's value, a call's argument or a select item (before its alias) at its own depth. */
const VALUE_ENDS = new Set(['WHEN', 'THEN', 'ELSE', 'END', 'AS', ...ITEM_ENDS]);

/**
 * A value of a CASE or coalesce beside exact ones (sql/exact-columns.ts), a numeric of known scale
 * marked 'numx-at:s' on its first token: `__pg_numeric_at(value, s)`, its text at that scale (SQLite
 * holds 0.10 as 0.1; the exact values are text already).
 */
export function rewriteNumericAt(toks: Tok[]): Tok[] {
  const marked = (t: Tok) => 'sortKey' in t && (t.sortKey?.startsWith('numx-at:') || t.sortKey === 'numx-real');
  if (!toks.some(marked)) return toks;
  const out = toks.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    const t = out[i];
    if (!marked(t) || !('sortKey' in t) || !t.sortKey) continue;
    // ('numx-real': an exact value of a set operation's float8 column, as a double)
    const real = t.sortKey === 'numx-real';
    // ('numx-at:2:n': a set operation's first member's bare column `n`, which keeps its name)
    const [scale, name] = real ? [] : t.sortKey.slice(8).split(':');
    const end = valueEnd(out, i, VALUE_ENDS);
    const alias: Tok[] = name
      ? [
          { type: 'word', text: 'AS' },
          { type: 'quoted', text: quotedName(name) },
        ]
      : [];
    const tail: Tok[] = real
      ? [{ type: 'punct', text: ')' }]
      : [{ type: 'punct', text: ',' }, { type: 'number', text: scale }, { type: 'punct', text: ')' }, ...alias];
    out.splice(end, 0, ...tail);
    const call = real ? '__pg_numeric_real' : '__pg_numeric_at';
    out.splice(i, 1, { type: 'word', text: call }, { type: 'punct', text: '(' }, { ...t, sortKey: undefined } as Tok);
  }
  return out;
}
