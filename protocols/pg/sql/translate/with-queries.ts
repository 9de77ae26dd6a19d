// The WITH queries of a statement's tokens, for translate/json-values.ts to build a WITH query's
// whole row (`WITH x AS (...) SELECT json_agg(x) FROM x`) from its columns as it builds a
// subquery's: where each is defined, its column list, and the tokens of its first SELECT (a
// recursive query's columns are its first branch's, as PostgreSQL types them).
import { type Tok, closer, isPunct, isWord } from '../tokens';

/** One WITH query: its name, the '(' and ')' of its query, its column list, the query level holding the WITH. */
export interface WithQuery {
  name: string;
  open: number;
  close: number;
  /** `WITH x(a, b) AS ...`: the names given; null when none are. */
  names: string[] | null;
  recursive: boolean;
  /** The '(' of the query level the WITH belongs to (-1 for the statement). */
  level: number;
  /** toks[first, end) is its first SELECT (before a top-level UNION, INTERSECT or EXCEPT); first -1 when it is no SELECT. */
  first: number;
  end: number;
}

const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
const nameOf = (t: Tok) => (t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase());

/** Every WITH query of the tokens; `levelOf(k)` is the '(' of the query level enclosing toks[k], -1 for the statement. */
export function withQueries(toks: readonly Tok[], levelOf: (k: number) => number): WithQuery[] {
  const out: WithQuery[] = [];
  for (let w = 0; w < toks.length; w++) {
    if (!isWord(toks[w], 'WITH') || !(w === 0 || isPunct(toks[w - 1], '('))) continue;
    const recursive = isWord(toks[w + 1], 'RECURSIVE');
    let k = recursive ? w + 2 : w + 1;
    for (;;) {
      if (!isName(toks[k])) break;
      const name = nameOf(toks[k]);
      let names: string[] | null = null;
      k++;
      if (isPunct(toks[k], '(')) {
        const c = closer(toks, k);
        if (c < 0) break;
        names = toks
          .slice(k + 1, c)
          .filter((t, i) => i % 2 === 0 && isName(t))
          .map(nameOf);
        k = c + 1;
      }
      if (!isWord(toks[k], 'AS')) break;
      k++;
      if (isWord(toks[k], 'NOT')) k++;
      if (isWord(toks[k], 'MATERIALIZED')) k++;
      const close = isPunct(toks[k], '(') ? closer(toks, k) : -1;
      if (close < 0) break;
      const first = isWord(toks[k + 1], 'SELECT') ? k + 1 : -1;
      out.push({
        name,
        open: k,
        close,
        names,
        recursive,
        level: levelOf(w),
        first,
        end: firstBranchEnd(toks, k + 1, close),
      });
      k = close + 1;
      if (!isPunct(toks[k], ',')) break;
      k++;
    }
  }
  return out;
}

/** The first top-level UNION, INTERSECT or EXCEPT in toks[from, to), else `to`. */
function firstBranchEnd(toks: readonly Tok[], from: number, to: number): number {
  let depth = 0;
  for (let i = from; i < to; i++) {
    if (isPunct(toks[i], '(')) depth++;
    else if (isPunct(toks[i], ')')) depth--;
    else if (depth === 0 && (isWord(toks[i], 'UNION') || isWord(toks[i], 'INTERSECT') || isWord(toks[i], 'EXCEPT')))
      return i;
  }
  return to;
}
