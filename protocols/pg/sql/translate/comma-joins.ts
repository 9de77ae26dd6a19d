// A comma binds looser than JOIN in PostgreSQL: `FROM u, v NATURAL JOIN w` joins v and w, then
// pairs each of their rows with each of u's. SQLite reads the list from the left, `(u, v) NATURAL
// JOIN w`, so a USING or NATURAL join after a comma also matched the columns of the items before
// the comma (`u.id` and `u.b` against w's): fewer rows, wrong ones. Such a join chain after a comma
// is put in parentheses, which SQLite joins first as PostgreSQL does. Only a chain of tables and
// subqueries (no function, no LATERAL item, which read the items left of them: SQLite's
// parentheses would hide those). A chain joined by ON is put in parentheses too: its ON conditions
// see its own items only, as in PostgreSQL, so one naming an item before the comma (`FROM u, v JOIN
// w ON u.id = w.id`) is SQLite's no such column, PostgreSQL's 42P01 `invalid reference to
// FROM-clause entry` then (missing-column.ts); it ran, the same as `FROM u, v JOIN w ON ...` read left to right.
import { pgError } from '../../sqlstate';
import { FROM_ENDS, type Tok, isPunct, isWord } from '../tokens';

const JOIN_WORDS = new Set(['JOIN', 'NATURAL', 'LEFT', 'RIGHT', 'FULL', 'INNER', 'OUTER', 'CROSS']);

export function rewriteCommaJoins(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'NATURAL') || isWord(t, 'USING') || isWord(t, 'ON'))) return toks;
  const opens = new Map<number, number>(); // where a '(' goes: the number of them
  const closes = new Map<number, number>(); // before which a ')' goes
  for (let i = 0; i < toks.length; i++) {
    if (!isWord(toks[i], 'FROM') || isWord(toks[i - 1], 'DELETE')) continue;
    // the FROM list: to its clause's end, a ')' closing it, or the end
    let depth = 0;
    let end = i + 1;
    for (; end < toks.length; end++) {
      const t = toks[end];
      if (isPunct(t, '(')) depth++;
      else if (isPunct(t, ')') && --depth < 0) break;
      else if (
        depth === 0 &&
        (isPunct(t, ';') || (t.type === 'word' && (FROM_ENDS.has(t.text.toUpperCase()) || isWord(t, 'FROM'))))
      )
        break;
    }
    let start = i + 1;
    let first = true;
    depth = 0;
    for (let k = i + 1; k <= end; k++) {
      const t = toks[k];
      if (k < end && isPunct(t, '(')) depth++;
      else if (k < end && isPunct(t, ')')) depth--;
      else if (k === end || (depth === 0 && isPunct(t, ','))) {
        if (!first && lateralMerging(toks, start, k))
          throw pgError(
            '0A000',
            'a NATURAL or USING join of a LATERAL subquery after a comma is not supported: join it with ON (FROM a, LATERAL (...) s JOIN b ON b.id = s.id)',
          );
        if (!first && mergingChain(toks, start, k)) {
          opens.set(start, (opens.get(start) ?? 0) + 1);
          closes.set(k, (closes.get(k) ?? 0) + 1);
        }
        first = false;
        start = k + 1;
      }
    }
  }
  if (opens.size === 0) return toks;
  const out: Tok[] = [];
  for (let i = 0; i <= toks.length; i++) {
    for (let n = closes.get(i) ?? 0; n > 0; n--) out.push({ type: 'punct', text: ')' });
    for (let n = opens.get(i) ?? 0; n > 0; n--) out.push({ type: 'punct', text: '(' });
    if (i < toks.length) out.push(toks[i]);
  }
  return out;
}

/**
 * Whether toks[from, to) is a join chain with a USING or NATURAL join beside a LATERAL subquery of
 * many rows (lateral-json.ts made it `"json_each"((SELECT ...)) AS s`): SQLite would match the
 * columns of the items before the comma and json_each's own (`id`, `key`) too, wrong rows.
 */
function lateralMerging(toks: readonly Tok[], from: number, to: number): boolean {
  let depth = 0;
  let merging = false;
  let lateral = false;
  for (let k = from; k < to; k++) {
    const t = toks[k];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth > 0) continue;
    else if (isWord(t, 'NATURAL') || isWord(t, 'USING')) merging = true;
    else if (t.type === 'quoted' && t.text === '"json_each"' && isPunct(toks[k + 1], '(') && isPunct(toks[k + 2], '('))
      lateral = true;
  }
  return merging && lateral;
}

/**
 * Whether toks[from, to) is a join chain with a USING or NATURAL join whose items are tables and
 * subqueries only (a `name(` outside its ON conditions is a function, a group a rewritten item).
 */
function mergingChain(toks: readonly Tok[], from: number, to: number): boolean {
  let depth = 0;
  let merging = false;
  let inOn = false;
  for (let k = from; k < to; k++) {
    const t = toks[k];
    if (isPunct(t, '(')) {
      if (depth === 0 && !inOn) {
        const before = toks[k - 1];
        const opensItem = k === from || isWord(before, 'JOIN') || isWord(before, 'USING');
        if (!opensItem) return false;
      }
      depth++;
    } else if (isPunct(t, ')')) depth--;
    else if (depth > 0) continue;
    else if (t.type === 'group' && !inOn) return false;
    else if (isWord(t, 'LATERAL')) return false;
    else if (isWord(t, 'ON')) {
      // (an ON condition sees the chain's own items only, as in PostgreSQL: one naming an item
      // before the comma is refused, 42P01 `invalid reference to FROM-clause entry`)
      inOn = true;
      merging = true;
    } else if (t.type === 'word' && JOIN_WORDS.has(t.text.toUpperCase())) {
      inOn = false;
      if (isWord(t, 'NATURAL')) merging = true;
    } else if (isWord(t, 'USING')) {
      inOn = false;
      merging = true;
    }
  }
  return merging && depth === 0;
}
