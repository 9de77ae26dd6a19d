// A VALUES list in FROM names its columns in its alias, `(VALUES (1, 'a')) AS v(n, s)`, which
// SQLite's grammar lacks: it becomes `(SELECT column1 AS n, column2 AS s FROM (VALUES ...)) AS v`.
// test/pg/semantics-oracle.test.ts compares it with PostgreSQL 15.
import { type Tok, closer, isPunct, isWord } from '../tokens';

/** `(VALUES ...) [AS] v(a, b)` as a subquery that names SQLite's column1, column2, ... a, b. */
export function rewriteValuesAlias(toks: Tok[]): Tok[] {
  if (!toks.some((t, i) => isWord(t, 'VALUES') && isPunct(toks[i - 1], '('))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const c = isPunct(t, '(') && isWord(toks[i + 1], 'VALUES') ? closer(toks, i) : -1;
    if (c < 0) {
      out.push(t);
      continue;
    }
    let j = c + 1;
    if (isWord(toks[j], 'AS')) j++;
    const alias = toks[j];
    const names: Tok[] = [];
    const listEnd =
      alias && (alias.type === 'word' || alias.type === 'quoted') && isPunct(toks[j + 1], '(')
        ? closer(toks, j + 1)
        : -1;
    if (listEnd > 0) {
      for (let k = j + 2; k < listEnd; k += 2) {
        const n = toks[k];
        if (!(n.type === 'word' || n.type === 'quoted') || !(k + 1 === listEnd || isPunct(toks[k + 1], ','))) {
          names.length = 0;
          break;
        }
        names.push(n);
      }
    }
    if (names.length === 0) {
      // no column names: the inner tokens go on as they are (nested VALUES lists included)
      out.push(t, ...rewriteValuesAlias(toks.slice(i + 1, c)), toks[c]);
      i = c;
      continue;
    }
    const word = (text: string): Tok => ({ type: 'word', text });
    const punct = (text: string): Tok => ({ type: 'punct', text });
    out.push(punct('('), word('SELECT'));
    names.forEach((n, k) => {
      if (k > 0) out.push(punct(','));
      out.push(word(`column${k + 1}`), word('AS'), n);
    });
    out.push(word('FROM'), ...toks.slice(i, c + 1), punct(')'), word('AS'), alias);
    i = listEnd;
  }
  return out;
}
