// `ROWS FROM (f(...))` in FROM: PostgreSQL's form for set-returning functions whose rows are zipped
// side by side. Of one function it is that function's rows (`FROM ROWS FROM (generate_series(1, 3))
// AS x(a)` is `FROM generate_series(1, 3) AS x(a)`), which the passes after this one translate;
// of several it is 0A000 naming it (SQLite read it as `near "FROM": syntax error`).
import { pgError } from '../../sqlstate';
import { type Tok, closerAfter, isPunct, isWord } from '../tokens';

/** `ROWS FROM (f(...))` as `f(...)`; several functions refused by name. */
export function rewriteRowsFrom<T extends Tok>(toks: T[]): T[] {
  if (!toks.some((t, i) => isWord(t, 'ROWS') && isWord(toks[i + 1], 'FROM') && isPunct(toks[i + 2], '('))) return toks;
  const out: T[] = [];
  for (let i = 0; i < toks.length; i++) {
    if (!(isWord(toks[i], 'ROWS') && isWord(toks[i + 1], 'FROM') && isPunct(toks[i + 2], '('))) {
      out.push(toks[i]);
      continue;
    }
    const close = closerAfter(toks, i + 2);
    // one call: a name and its parenthesized arguments filling the list
    const call = isPunct(toks[i + 4], '(') ? closerAfter(toks, i + 4) : -1;
    if (call !== close - 1)
      throw pgError(
        '0A000',
        'ROWS FROM (...) of several functions (or with a column definition list) is not supported: call each in FROM with WITH ORDINALITY and join them on the number, or unnest several arrays with unnest(a, b)',
      );
    out.push(...toks.slice(i + 3, close));
    i = close;
  }
  return out;
}
