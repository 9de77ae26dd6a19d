// A VALUES list with ORDER BY, LIMIT, OFFSET or FETCH (`VALUES (1, 'a'), (2, 'b') ORDER BY 1 DESC`),
// which PostgreSQL reads as a query of its own, is a syntax error to SQLite, whose VALUES takes none
// of those: the list becomes `SELECT * FROM (VALUES ...)` with the clauses after it (its columns
// keep SQLite's and PostgreSQL's names, column1, column2, ...).
import { type Tok, closer, isPunct, isWord } from '../tokens';

const AFTER_ROWS = new Set(['ORDER', 'LIMIT', 'OFFSET', 'FETCH']);
const SET_OPS = new Set(['UNION', 'INTERSECT', 'EXCEPT', 'ALL', 'DISTINCT']);
const word = (t: Tok | undefined) => (t?.type === 'word' ? t.text.toUpperCase() : '');

export function rewriteValuesOrder(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'VALUES'))) return toks;
  let out = toks;
  for (let i = 0; i < out.length; i++) {
    // a VALUES that stands as a query: the statement's, in parentheses (a subquery, a WITH query), or
    // a set operation's last branch (whose ORDER BY is the whole operation's: the same rows either way)
    if (!isWord(out[i], 'VALUES') || !(i === 0 || isPunct(out[i - 1], '(') || SET_OPS.has(word(out[i - 1])))) continue;
    let k = i + 1;
    while (isPunct(out[k], '(')) {
      const close = closer(out, k);
      if (close < 0) return out;
      k = close + 1;
      if (!isPunct(out[k], ',')) break;
      k++;
    }
    if (!AFTER_ROWS.has(word(out[k]))) continue;
    const w = (text: string): Tok => ({ type: 'word', text });
    out = [
      ...out.slice(0, i),
      w('SELECT'),
      { type: 'op', text: '*' },
      w('FROM'),
      { type: 'punct', text: '(' },
      ...out.slice(i, k),
      { type: 'punct', text: ')' },
      ...out.slice(k),
    ];
    i = k + 5;
  }
  return out;
}
