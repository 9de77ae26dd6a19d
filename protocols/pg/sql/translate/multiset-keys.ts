// EXCEPT ALL and INTERSECT ALL (multiset-operations.ts) with a numeric column exact in some member or
// of several scales: sql/exact-columns.ts hands such a column over as text at each value's scale
// (`0.10` beside `2`) and marks it 'x' in the operation's 'iv-union:' mark on its first item. Its
// copies are numbered and matched by their number (__pg_numeric_key: `0.10` and `0.1` are one value,
// as PostgreSQL's numeric compares them; the texts were compared), and an ORDER BY of it sorts by
// its number (the texts sorted `-0.01` before `-0.50`).
import { type Tok, closer, isPunct, isWord, topLevelItems } from '../tokens';
import { exactSortKey, quotedName } from './exact-order';
import { termIndex } from './interval-distinct';

/** The set operation's column kinds and names, from the 'iv-union:' mark in its first query's select list; null when none has an exact column. */
export function exactColumns(first: Tok[]): { kinds: string; names: string[] } | null {
  for (const t of first) {
    if (isWord(t, 'FROM')) return null;
    const mark = 'sortKey' in t ? t.sortKey : undefined;
    const m = mark ? /^iv-union:[gsxe]([inxmbjt]+):(.*)$/.exec(mark) : null;
    if (!m) continue;
    if (!m[1].includes('x')) return null;
    const listed = JSON.parse(m[2]) as (string | { as: string })[];
    return { kinds: m[1], names: listed.map((x) => (typeof x === 'string' ? x : x.as)) };
  }
  return null;
}

/**
 * The numbered copies of table `l` kept (INTERSECT) or dropped (EXCEPT) by those of `r`, matched by
 * their number and their values, a keyed column's by its number: the query after the UNION ALL of
 * multiset-operations.ts's form, one group.
 */
export function keyedMatch(op: string, cols: string[], keys: boolean[], l: string, r: string, k: number): Tok {
  const key = (c: string, i: number) => (keys[i] ? `__pg_numeric_key(${c})` : c);
  const [a, b] = [`__pg_msa${k}`, `__pg_msb${k}`];
  const numbered = (table: string, alias: string) =>
    `(SELECT ${cols.join(', ')}, row_number() OVER (PARTITION BY ${cols.map(key).join(', ')}) AS __pg_n FROM ${table}) AS ${alias}`;
  const same = cols.map((c, i) => `${key(`${b}.${c}`, i)} IS ${key(`${a}.${c}`, i)}`).join(' AND ');
  const text =
    `SELECT ${cols.map((c) => `${a}.${c}`).join(', ')} FROM ${numbered(l, a)} WHERE ` +
    `${op === 'EXCEPT' ? 'NOT ' : ''}EXISTS (SELECT 1 FROM ${numbered(r, b)} WHERE ${b}.__pg_n = ${a}.__pg_n AND ${same})`;
  return { type: 'group', text };
}

/** The operation's ORDER BY (`tail`) with a keyed column named by its position or name sorted by its number. */
export function exactOrder(tail: Tok[], kinds: string, names: string[]): Tok[] {
  if (!isWord(tail[0], 'ORDER') || !isWord(tail[1], 'BY')) return tail;
  let end = tail.length;
  for (let i = 2; i < tail.length; i++) {
    if (isPunct(tail[i], '(')) i = Math.max(i, closer(tail, i));
    else if (
      isWord(tail[i], 'LIMIT') ||
      isWord(tail[i], 'OFFSET') ||
      isWord(tail[i], 'FETCH') ||
      isPunct(tail[i], ';')
    ) {
      end = i;
      break;
    }
  }
  const out = tail.slice();
  for (const [a, b] of topLevelItems(tail, 2, end).reverse()) {
    const t = tail[a];
    const single = b === a + 1 || (b > a + 1 && tail[a + 1].type === 'word' && !isPunct(tail[a + 1], '.'));
    if (!single) continue;
    const k = termIndex(t, names);
    if (k >= 0 && kinds[k] === 'x') out[a] = { type: 'group', text: exactSortKey(quotedName(names[k])) };
  }
  return out;
}
