// Primary expressions on tokens, for the passes that must find an operand exactly (LIKE's pattern,
// jsonb's operators): a literal, parameter, group, (qualified) name or call, a parenthesised group,
// ARRAY[...], each with its subscripts and `::type` casts.
import { type Tok, closer, isOp, isPunct, isWord } from '../tokens';

/** Words that end an operand (a pattern, an ORDER BY term) rather than name a column. */
export const OPERAND_ENDS = new Set([
  'AND', 'OR', 'NOT', 'IS', 'IN', 'BETWEEN', 'LIKE', 'ILIKE', 'GLOB', 'ESCAPE', 'SIMILAR', 'THEN', 'WHEN',
  'ELSE', 'END', 'FROM', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION',
  'EXCEPT', 'INTERSECT', 'RETURNING', 'ON', 'USING', 'ASC', 'DESC', 'NULLS', 'AS', 'COLLATE', 'WINDOW',
  'ROWS', 'RANGE', 'GROUPS', 'SELECT', 'SET', 'VALUES', 'DO', 'ANY', 'ALL', 'SOME', 'JOIN', 'LEFT',
  'RIGHT', 'INNER', 'OUTER', 'CROSS', 'FULL', 'NATURAL',
]); // biome-ignore format: a word list

/** Index of the opener matching the closer at ts[j] (')' or ']'), scanning back; -1 when none. */
function openerBefore(ts: readonly Tok[], j: number): number {
  const close = ts[j].text;
  const open = close === ')' ? '(' : '[';
  let depth = 0;
  for (let k = j; k >= 0; k--) {
    if (isPunct(ts[k], close)) depth++;
    else if (isPunct(ts[k], open) && --depth === 0) return k;
  }
  return -1;
}

/** Index of the ']' matching the '[' at ts[i]; -1 when none. */
export function bracketAfter(ts: readonly Tok[], i: number): number {
  let depth = 0;
  for (let k = i; k < ts.length; k++) {
    if (isPunct(ts[k], '[')) depth++;
    else if (isPunct(ts[k], ']') && --depth === 0) return k;
  }
  return -1;
}

export const nameTok = (t: Tok | undefined) =>
  t !== undefined && (t.type === 'quoted' || (t.type === 'word' && !OPERAND_ENDS.has(t.text.toUpperCase())));

/** Start of the primary expression (with casts and subscripts) that ends at ts[end - 1]; -1 when none. */
export function primaryStart(ts: readonly Tok[], end: number): number {
  let j = end - 1;
  for (;;) {
    // a cast's type at the end: ::name, ::name(n), ::name[]
    let k = j;
    while (isPunct(ts[k], ']') && isPunct(ts[k - 1], '[')) k -= 2;
    if (isPunct(ts[k], ')')) {
      const o = openerBefore(ts, k);
      if (o > 1 && nameTok(ts[o - 1]) && isOp(ts[o - 2], '::')) k = o - 1;
    }
    if (nameTok(ts[k]) && isOp(ts[k - 1], '::')) {
      j = k - 2;
      continue;
    }
    break;
  }
  const t = ts[j];
  if (t === undefined) return -1;
  if (isPunct(t, ']')) {
    const o = openerBefore(ts, j);
    if (o < 0) return -1;
    if (isWord(ts[o - 1], 'ARRAY')) return o - 1;
    return primaryStart(ts, o); // a subscript of what comes before
  }
  if (isPunct(t, ')')) {
    let s = openerBefore(ts, j);
    if (s < 0) return -1;
    if (nameTok(ts[s - 1])) {
      s--; // a function call
      while (isPunct(ts[s - 1], '.') && nameTok(ts[s - 2])) s -= 2;
    }
    return s;
  }
  if (t.type === 'string' || t.type === 'number' || t.type === 'param' || t.type === 'group') return j;
  if (nameTok(t)) {
    let s = j;
    while (isPunct(ts[s - 1], '.') && nameTok(ts[s - 2])) s -= 2;
    return s;
  }
  return -1;
}

/** End (exclusive) of the primary expression starting at ts[i], with subscripts and casts; i when none. */
export function primaryEnd(ts: readonly Tok[], i: number): number {
  let j = i;
  if (isOp(ts[j], '-') || isOp(ts[j], '+')) j++;
  const t = ts[j];
  if (t === undefined) return i;
  if (isPunct(t, '(')) j = closer(ts, j) + 1;
  else if (isWord(t, 'ARRAY') && isPunct(ts[j + 1], '[')) j = bracketAfter(ts, j + 1) + 1;
  else if (t.type === 'string' || t.type === 'number' || t.type === 'param' || t.type === 'group') j++;
  else if (nameTok(t)) {
    j++;
    while (isPunct(ts[j], '.') && nameTok(ts[j + 1])) j += 2;
    if (isPunct(ts[j], '(')) j = closer(ts, j) + 1;
  } else return i;
  if (j <= 0) return i; // an unclosed bracket
  for (;;) {
    if (isPunct(ts[j], '[')) {
      const c = bracketAfter(ts, j);
      if (c < 0) return i;
      j = c + 1;
    } else if (isOp(ts[j], '::') && nameTok(ts[j + 1])) {
      j += 2;
      if (isPunct(ts[j], '(')) {
        const c = closer(ts, j);
        if (c < 0) return i;
        j = c + 1;
      }
      while (isPunct(ts[j], '[') && isPunct(ts[j + 1], ']')) j += 2;
    } else return j;
  }
}
