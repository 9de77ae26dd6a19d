// A table's name written before its column list, `INSERT INTO log (id, what)` or
// `WITH upper (x) AS (...)`, reads like a call to the passes that rewrite functions by name
// (translate/words.ts made it __pg_math_log(id, what), 42601 where PostgreSQL inserts). Such a
// name becomes a quoted token, folded as PostgreSQL folds it, before any other pass: no pass takes
// a quoted name for a function, and the ones that look a table up read quoted names too.
import type { PgToken } from '../lexer';
import { closer, isPunct, isWord } from '../tokens';

/** The name folded to lower case and quoted: the same table to SQLite, and no word a pass rewrites. */
const quoted = (t: PgToken): PgToken => ({ ...t, type: 'quoted', text: `"${t.text.toLowerCase()}"` });

/** Whether the word at i, before a '(', is the target of INSERT INTO (`INTO log (`, `INTO public.log (`). */
function insertTarget(toks: readonly PgToken[], i: number): boolean {
  if (isWord(toks[i - 1], 'INTO')) return true;
  return isPunct(toks[i - 1], '.') && isWord(toks[i - 3], 'INTO');
}

/** Whether the word at i, before a '(', names a WITH query with its column list (`WITH log (x) AS (`). */
function withQueryName(toks: readonly PgToken[], i: number): boolean {
  const before = toks[i - 1];
  if (!isWord(before, 'WITH') && !isWord(before, 'RECURSIVE') && !isPunct(before, ',')) return false;
  const close = closer(toks, i + 1);
  if (close < 0 || !isWord(toks[close + 1], 'AS')) return false;
  const after = toks[close + 2];
  return isPunct(after, '(') || isWord(after, 'MATERIALIZED') || isWord(after, 'NOT');
}

export function quoteListedNames(toks: PgToken[]): PgToken[] {
  let out = toks;
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i];
    if (t.type !== 'word' || !isPunct(toks[i + 1], '(')) continue;
    if (!insertTarget(toks, i) && !withQueryName(toks, i)) continue;
    if (out === toks) out = [...toks];
    out[i] = quoted(t);
  }
  return out;
}
