// A GROUP BY or ORDER BY term SQLite's parser folds into an integer, which it then reads as a select
// list position where PostgreSQL reads an expression: a literal's null test (`'x' IS NULL`,
// `('2024-01-01'::timestamp IS NOT NULL)` once its cast is a literal, `1 ISNULL`, SQLite made them
// 0 or 1 as it parsed) and a unary plus (`+1`, an expression in PostgreSQL's tree, no constant).
// SQLite refused the statement (`1st GROUP BY term out of range`, `aggregate functions are not
// allowed in the GROUP BY clause`) or grouped or sorted by the first item (`ORDER BY ('x' IS NOT
// NULL), i DESC` sorted by i ascending). Such a term is written `(term) + 0`, the same constant and
// no position. Last, over the tokens the other passes wrote.
import { type Tok, closer, isOp, isPunct, isWord, topLevelItems } from '../tokens';

/** Words that end a GROUP BY or ORDER BY list at its own level (a window's frame too). */
const LIST_ENDS = new Set([
  'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION', 'INTERSECT', 'EXCEPT', 'RETURNING',
  'ROWS', 'RANGE', 'GROUPS', 'ON', 'DO',
]); // biome-ignore format: a word list
/** Words after an ORDER BY term's expression. */
const SORT_WORDS = new Set(['ASC', 'DESC', 'NULLS', 'COLLATE', 'USING']);

export function rewriteFoldedTerms(toks: Tok[]): Tok[] {
  // where a term's expression starts, and where it ends
  const wraps = new Map<number, number>();
  for (let i = 0; i + 1 < toks.length; i++) {
    if (!(isWord(toks[i], 'GROUP') || isWord(toks[i], 'ORDER')) || !isWord(toks[i + 1], 'BY')) continue;
    const from = i + 2;
    const to = listEnd(toks, from);
    for (const [a, b] of topLevelItems(toks, from, to)) {
      let e = a;
      while (e < b && !(toks[e].type === 'word' && SORT_WORDS.has(toks[e].text.toUpperCase()))) {
        e = isPunct(toks[e], '(') ? closer(toks, e) + 1 : e + 1;
        if (e <= 0) break;
      }
      if (e > a && e <= b && folds(toks, a, e)) wraps.set(a, e);
    }
  }
  if (wraps.size === 0) return toks;
  const out: Tok[] = [];
  const ends = new Map<number, number>();
  for (const e of wraps.values()) ends.set(e, (ends.get(e) ?? 0) + 1);
  for (let i = 0; i <= toks.length; i++) {
    for (let n = ends.get(i) ?? 0; n > 0; n--)
      out.push({ type: 'punct', text: ')' }, { type: 'op', text: '+' }, { type: 'number', text: '0' });
    if (i === toks.length) break;
    if (wraps.has(i)) out.push({ type: 'punct', text: '(' });
    out.push(toks[i]);
  }
  return out;
}

/** The end of the list starting at toks[from]: a word of LIST_ENDS, `)` or `;` at its level. */
function listEnd(toks: Tok[], from: number): number {
  for (let i = from; i < toks.length; i++) {
    const t = toks[i];
    if (isPunct(t, '(')) {
      const c = closer(toks, i);
      if (c < 0) return toks.length;
      i = c;
    } else if (isPunct(t, ')') || isPunct(t, ';')) return i;
    else if (t.type === 'word' && LIST_ENDS.has(t.text.toUpperCase())) return i;
  }
  return toks.length;
}

/** Whether a token is a literal SQLite folds a null test of: a number or a string (or a pass's group of one). */
const literal = (t: Tok) =>
  t.type === 'number' ||
  t.type === 'string' ||
  (t.type === 'group' && /^(?:'(?:[^']|'')*'|\d+(?:\.\d*)?(?:e[+-]?\d+)?)$/i.test(t.text));

/** Whether toks[a, e) is one literal in parentheses and signs, with a `+` among them when `plus`. */
function signedLiteral(toks: Tok[], a: number, e: number, plus: boolean, integer: boolean): boolean {
  let found = 0;
  let plusSeen = false;
  for (let i = a; i < e; i++) {
    const t = toks[i];
    if (isPunct(t, '(') || isPunct(t, ')') || isOp(t, '-')) continue;
    if (isOp(t, '+')) plusSeen = true;
    else if (literal(t) && (!integer || /^\d+$/.test(t.text))) found++;
    else return false;
  }
  return found === 1 && (plusSeen || !plus);
}

/** Whether SQLite's parser makes the expression toks[a, e) an integer PostgreSQL's does not. */
function folds(toks: Tok[], a: number, e: number): boolean {
  while (isPunct(toks[a], '(') && closer(toks, a) === e - 1) {
    a++;
    e--;
  }
  if (e <= a) return false;
  // `+1`: a position to SQLite, an expression to PostgreSQL (`-1` is a position, 42P10, to both)
  if (signedLiteral(toks, a, e, true, true)) return true;
  // `lit ISNULL`, `lit NOTNULL`, `lit NOT NULL`, `lit IS [NOT] NULL`, `lit IS [NOT] DISTINCT FROM NULL`
  if (isWord(toks[e - 1], 'ISNULL') || isWord(toks[e - 1], 'NOTNULL'))
    return signedLiteral(toks, a, e - 1, false, false);
  if (!isWord(toks[e - 1], 'NULL')) return false;
  let op = e - 1;
  if (isWord(toks[op - 1], 'FROM') && isWord(toks[op - 2], 'DISTINCT')) op -= 2;
  if (isWord(toks[op - 1], 'NOT')) op--;
  if (isWord(toks[op - 1], 'IS')) op--;
  else if (op === e - 1 || !isWord(toks[op], 'NOT')) return false; // (`lit NOT NULL` alone, without IS)
  return op > a && signedLiteral(toks, a, op, false, false);
}
