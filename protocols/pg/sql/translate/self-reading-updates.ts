// An UPDATE whose new values read the table it changes (`UPDATE t SET v = (SELECT v FROM t t2 WHERE
// t2.id = t.id - 1)`): PostgreSQL computes every new value from the table as it was before the
// statement, but SQLite evaluates each row's SET expressions as it updates that row, so a subquery
// sees the rows the same statement already changed (that UPDATE stored NULL, NULL, NULL for
// PostgreSQL's NULL, 1, 2: wrong values, replicated everywhere). SQLite's UPDATE ... FROM first fills
// a temporary table with every row's new values, then writes them (update.c, updateFromSelect): a
// FROM of one row, `FROM (SELECT 1) AS __pg_once`, gives such an UPDATE that snapshot, and joins each
// row once. Only an UPDATE with no FROM of its own (one with a FROM already has it) whose SET list
// holds a subquery naming the target table is so written; the others keep SQLite's one pass.
import { type Tok, identText, isPunct, isWord, topLevelWord } from '../tokens';

const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');

/** Whether a token is, or holds, the word SELECT (a group token carries text already written). */
const holdsSelect = (t: Tok) => isWord(t, 'SELECT') || (t.type === 'group' && /\bselect\b/i.test(t.text));

export function materializeSelfReads(toks: Tok[]): Tok[] {
  const verb = isWord(toks[0], 'WITH') ? topLevelWord(toks, 1, toks.length, 'UPDATE') : 0;
  if (verb < 0 || !isWord(toks[verb], 'UPDATE')) return toks;
  let i = verb + 1;
  if (isWord(toks[i], 'OR')) i += 2; // (UPDATE OR REPLACE: not PostgreSQL's, left as written)
  if (isWord(toks[i], 'ONLY')) i++;
  if (isPunct(toks[i + 1], '.') && isName(toks[i + 2])) i += 2; // main.t, public.t
  if (!isName(toks[i])) return toks;
  const table = identText(toks[i]).toLowerCase();
  const set = topLevelWord(toks, i + 1, toks.length, 'SET');
  if (set < 0 || topLevelWord(toks, set + 1, toks.length, 'FROM') >= 0) return toks;
  const ends = ['WHERE', 'RETURNING'].map((w) => topLevelWord(toks, set + 1, toks.length, w)).filter((k) => k >= 0);
  const end = ends.length ? Math.min(...ends) : toks.length;
  const list = toks.slice(set + 1, end);
  if (!list.some(holdsSelect)) return toks;
  const named = list.some(
    (t) =>
      (isName(t) && identText(t).toLowerCase() === table) ||
      (t.type === 'group' && new RegExp(`(^|[^\\w$])"?${reEscape(table)}"?($|[^\\w$])`, 'i').test(t.text)),
  );
  if (!named) return toks;
  const once: Tok[] = [
    { type: 'word', text: 'FROM' },
    { type: 'group', text: '(SELECT 1)' },
    { type: 'word', text: 'AS' },
    { type: 'word', text: '__pg_once' },
  ];
  return [...toks.slice(0, end), ...once, ...toks.slice(end)];
}

function reEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
