// PostgreSQL's functions that take a tsvector or tsquery apart or rebuild one (tsvector_op.c,
// tsquery_op.c, tsquery_cleanup.c): setweight of some lexemes, ts_delete, ts_filter,
// tsvector_to_array, array_to_tsvector; tsquery's @> (tsq_mcontains), querytree and
// tsquery_phrase.
import { sqlStateError } from '../../errors';
import type { QueryNode, TsQuery } from './tsquery';
import { type TsVector, compareWords, normaliseLexemes, posOf } from './tsvector';

const WEIGHT_CODES: Record<string, number> = { a: 3, b: 2, c: 1, d: 0 };

/** A weight's code (D 0 .. A 3): PostgreSQL's internal error names the "char" by its code, or (of some lexemes) as itself. */
export function weightCode(w: string, byChar = false): number {
  const code = WEIGHT_CODES[w.toLowerCase()];
  if (code === undefined)
    throw sqlStateError('XX000', `unrecognized weight: ${byChar ? w.charAt(0) : (Buffer.from(w)[0] ?? 0)}`);
  return code;
}

/** setweight: every position's weight, or only the positions of the lexemes named (NULLs among them ignored). */
export function setWeight(v: TsVector, code: number, lexemes?: (string | null)[]): TsVector {
  const only = lexemes ? new Set(lexemes.filter((l) => l !== null)) : null;
  return v.map((l) =>
    only && !only.has(l.word) ? l : { word: l.word, pos: l.pos.map((p) => (code << 14) | posOf(p)) },
  );
}

/** ts_delete: the vector without these lexemes (NULLs ignored). */
export function deleteLexemes(v: TsVector, lexemes: (string | null)[]): TsVector {
  const gone = new Set(lexemes);
  return v.filter((l) => !gone.has(l.word));
}

/** ts_filter: each lexeme's positions of these weights ("char": each element's first character); lexemes left without any dropped. */
export function filterWeights(v: TsVector, weights: (string | null)[]): TsVector {
  let mask = 0;
  for (const w of weights) {
    if (w === null) throw sqlStateError('22004', 'weight array may not contain nulls');
    const c = w.charAt(0);
    const code = WEIGHT_CODES[c.toLowerCase()];
    if (code === undefined) throw sqlStateError('22023', `unrecognized weight: "${c}"`);
    mask |= 1 << code;
  }
  return v
    .map((l) => ({ word: l.word, pos: l.pos.filter((p) => mask & (1 << (p >> 14))) }))
    .filter((l) => l.pos.length > 0);
}

/** array_to_tsvector: the lexemes, sorted and each once, without positions. */
export function arrayToTsVector(lexemes: (string | null)[]): TsVector {
  for (const l of lexemes) {
    if (l === null) throw sqlStateError('22004', 'lexeme array may not contain nulls');
    if (l === '') throw sqlStateError('2200F', 'lexeme array may not contain empty strings');
  }
  return normaliseLexemes((lexemes as string[]).map((word) => ({ word, pos: [] })));
}

/** The query's operands' words, each once, sorted (collectTSQueryValues). */
function queryWords(q: TsQuery): string[] {
  const out = new Set<string>();
  const walk = (n: QueryNode) => {
    if (n.t === 'val') out.add(n.word);
    else if (n.t === 'not') walk(n.arg);
    else if (n.t !== 'stop') {
      walk(n.l);
      walk(n.r);
    }
  };
  if (q) walk(q);
  return [...out].sort(compareWords);
}

/** tsquery @> tsquery: whether every word of `ex` is a word of `q` (operators, weights and prefixes not compared). */
export function queryContains(q: TsQuery, ex: TsQuery): boolean {
  const words = new Set(queryWords(q));
  return queryWords(ex).every((w) => words.has(w));
}

/**
 * querytree: the query without its negations (clean_NOT): an & or a phrase keeps the side left,
 * an | with a negated side goes whole; 'T' when nothing is left, '' for the empty query.
 */
export function queryTree(q: TsQuery): TsQuery | 'T' {
  const clean = (n: QueryNode): QueryNode | null => {
    if (n.t === 'val' || n.t === 'stop') return n;
    if (n.t === 'not') return null;
    const l = clean(n.l);
    if (n.t === 'or') {
      if (l === null) return null;
      const r = clean(n.r);
      return r === null ? null : { ...n, l, r };
    }
    const r = clean(n.r);
    return l === null ? r : r === null ? l : { ...n, l, r };
  };
  if (q === null) return null;
  return clean(q) ?? 'T';
}

/** tsquery_phrase(a, b [, distance]): a <distance> b, an empty side giving the other. */
export function queryPhrase(a: TsQuery, b: TsQuery, dist = 1): TsQuery {
  if (!Number.isInteger(dist) || dist < 0 || dist > 16384)
    throw sqlStateError(
      '22023',
      'distance in phrase operator must be an integer value between zero and 16384 inclusive',
    );
  return a && b ? { t: 'phrase', l: a, r: b, dist } : (a ?? b);
}
