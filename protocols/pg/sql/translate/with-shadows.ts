// A WITH query named as a table that it reads, `WITH u AS (SELECT * FROM u WHERE ...) SELECT ...
// FROM u`: in PostgreSQL a query of a WITH without RECURSIVE sees only the WITH queries before it,
// so its own name (and a later one's) in its FROM is the table; SQLite sees every WITH query of the
// list there (it was 42000 `circular reference: u`). Such a FROM item becomes `main.u`, the table,
// which no WITH query's name matches in SQLite. On the translated tokens (words.ts has dropped
// `public.`), in translate.ts after the passes that read table names.
import { type Tok, closer, enclosing, fromItemStarts, isPunct, isWord } from '../tokens';

/** The name a word or quoted token writes, folded as PostgreSQL folds it; null for other tokens. */
function nameOf(t: Tok | undefined): string | null {
  if (t?.type === 'word') return t.text.toLowerCase();
  if (t?.type === 'quoted') return t.text.slice(1, -1).split('""').join('"');
  return null;
}

interface WithQuery {
  name: string;
  /** Its body's '(' and ')'. */
  open: number;
  close: number;
}

/** The queries of the WITH list at toks[at] (the word WITH, not RECURSIVE), or null when it reads otherwise. */
function withList(toks: readonly Tok[], at: number): WithQuery[] | null {
  const list: WithQuery[] = [];
  let i = at + 1;
  for (;;) {
    const name = nameOf(toks[i]);
    if (name === null) return null;
    i++;
    if (isPunct(toks[i], '(')) i = closer(toks, i) + 1;
    if (i <= 0 || !isWord(toks[i], 'AS')) return null;
    i++;
    if (isWord(toks[i], 'NOT')) i++;
    if (isWord(toks[i], 'MATERIALIZED')) i++;
    if (!isPunct(toks[i], '(')) return null;
    const close = closer(toks, i);
    if (close < 0) return null;
    list.push({ name, open: i, close });
    i = close + 1;
    if (!isPunct(toks[i], ',')) return list;
    i++;
  }
}

export function qualifyWithShadows(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'WITH'))) return toks;
  // each WITH list's names and the parentheses they are in reach within (a nested WITH's hide an outer one's)
  const lists: { at: number; list: WithQuery[]; from: number; to: number }[] = [];
  for (let w = 0; w < toks.length; w++) {
    if (!isWord(toks[w], 'WITH')) continue;
    const recursive = isWord(toks[w + 1], 'RECURSIVE');
    const list = withList(toks, recursive ? w + 1 : w);
    const open = enclosing(toks, w);
    if (list !== null)
      lists.push({ at: recursive ? -1 : w, list, from: open, to: open < 0 ? toks.length : closer(toks, open) });
  }
  let out = toks;
  for (const { at, list } of lists) {
    if (at < 0) continue;
    list.forEach((q, k) => {
      const unseen = new Set(list.slice(k).map((x) => x.name));
      const starts = fromItemStarts();
      for (let i = q.open + 1; i < q.close; i++) {
        const from = starts(toks, i);
        const name = nameOf(toks[i]);
        if (!from || name === null || !unseen.has(name) || isPunct(toks[i + 1], '.') || isPunct(toks[i + 1], '('))
          continue;
        // (a WITH query of the same name nearer, within this one's body, is what the name means)
        if (lists.some((n) => n.from > q.open && n.from < i && i < n.to && n.list.some((x) => x.name === name)))
          continue;
        if (out === toks) out = [...toks];
        out[i] = { type: 'group', text: `main.${toks[i].type === 'quoted' ? toks[i].text : `"${name}"`}` };
      }
    });
  }
  return out;
}
