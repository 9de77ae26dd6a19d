// ts_rank as PostgreSQL 15 computes it (tsrank.c's calc_rank): by the query's top operator, the
// words' weights (calc_rank_or) or their pairs' distances (calc_rank_and), then the normalisation
// bits. Its arithmetic is C's float (each single-precision step rounded: Math.fround) where
// PostgreSQL's is, double where a double constant makes it so.
import type { QueryNode, TsQuery } from './tsquery';
import { MAX_POS, type TsVector, compareWords, posOf, weightOf } from './tsvector';

const f = Math.fround;
/** PostgreSQL's default weights of D, C, B and A (as C floats). */
export const DEFAULT_WEIGHTS = [f(0.1), f(0.2), f(0.4), f(1.0)];

type Operand = Extract<QueryNode, { t: 'val' }>;

/** The query's operands sorted by their words, each word once (SortAndUniqItems); NOT's too. */
function operands(q: QueryNode): Operand[] {
  const all: Operand[] = [];
  const walk = (n: QueryNode) => {
    if (n.t === 'val') all.push(n);
    else if (n.t === 'not') walk(n.arg);
    else if (n.t !== 'stop') {
      walk(n.l);
      walk(n.r);
    }
  };
  walk(q);
  // (a stable sort: the first of equal words is kept, as near as qsort's order matters here)
  all.sort((a, b) => compareWords(a.word, b.word));
  return all.filter((o, k) => k === 0 || all[k - 1].word !== o.word);
}

/** The lexemes an operand finds: its word, or each lexeme it starts when a prefix (find_wordentry). */
function entries(v: TsVector, o: Operand) {
  return o.prefix ? v.filter((l) => l.word.startsWith(o.word)) : v.filter((l) => l.word === o.word);
}

function wordDistance(w: number): number {
  if (w > 100) return f(1e-30);
  return f(1.0 / (1.005 + 0.05 * Math.exp(f(w) / 1.5 - 2)));
}

function rankOr(w: number[], v: TsVector, q: QueryNode): number {
  const items = operands(q);
  let res = f(0);
  for (const o of items)
    for (const e of entries(v, o)) {
      const post = e.pos.length > 0 ? e.pos : [0];
      let resj = f(0);
      let wjm = f(-1);
      let jm = 0;
      for (let j = 0; j < post.length; j++) {
        const wp = w[weightOf(post[j])];
        resj = f(resj + f(wp / ((j + 1) * (j + 1))));
        if (wp > wjm) {
          wjm = wp;
          jm = j;
        }
      }
      res = f(res + f(f(wjm + resj) - f(wjm / ((jm + 1) * (jm + 1)))) / 1.64493406685);
    }
  if (items.length > 0) res = f(res / items.length);
  return res;
}

function rankAnd(w: number[], v: TsVector, q: QueryNode): number {
  const items = operands(q);
  if (items.length < 2) return rankOr(w, v, q);
  const NULL_POS = [MAX_POS]; // a lexeme without positions: at 16383, weight D
  const pos: (number[] | undefined)[] = [];
  let res = f(-1);
  for (let i = 0; i < items.length; i++)
    for (const e of entries(v, items[i])) {
      const post = e.pos.length > 0 ? e.pos : NULL_POS;
      pos[i] = post;
      for (let k = 0; k < i; k++) {
        const ct = pos[k];
        if (!ct) continue;
        for (const pl of post)
          for (const pc of ct) {
            let dist = Math.abs(posOf(pl) - posOf(pc));
            if (dist || post === NULL_POS || ct === NULL_POS) {
              if (!dist) dist = MAX_POS + 1;
              const curw = f(Math.sqrt(f(f(w[weightOf(pl)] * w[weightOf(pc)]) * wordDistance(dist))));
              res = res < 0 ? curw : f(1.0 - (1.0 - res) * (1.0 - curw));
            }
          }
      }
    }
  return res;
}

/** The number of positions (a lexeme without any counts one: cnt_length). */
const lengthOf = (v: TsVector) => v.reduce((n, l) => n + Math.max(l.pos.length, 1), 0);

/** calc_rank: 0 for an empty vector or query. */
export function tsRank(w: number[], v: TsVector, q: TsQuery, method: number): number {
  if (v.length === 0 || q === null) return 0;
  let res = q.t === 'and' || q.t === 'phrase' ? rankAnd(w, v, q) : rankOr(w, v, q);
  if (res < 0) res = f(1e-20);
  if (method & 0x01) res = f(res / (Math.log(lengthOf(v) + 1) / Math.log(2.0)));
  if (method & 0x02) {
    const len = lengthOf(v);
    if (len > 0) res = f(res / f(len));
  }
  if (method & 0x08) res = f(res / f(v.length));
  if (method & 0x10) res = f(res / (Math.log(v.length + 1) / Math.log(2.0)));
  if (method & 0x20) res = f(res / f(res + 1));
  return res;
}
