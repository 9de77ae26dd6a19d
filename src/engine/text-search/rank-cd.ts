// ts_rank_cd as PostgreSQL 15 computes it (tsrank.c's calc_rank_cd, "cover density"): the positions
// the query's operands find, in order; each shortest extent of them that satisfies the query (a
// cover) adds its weights' harmonic mean over 1 + the words inside it the query does not name;
// then the normalisation bits (1 divides by the natural log of the length here, not log2 as
// ts_rank). Its arithmetic is double, the result a real.
import { type Operand, type PhraseData, operands, tsExecute } from './match';
import type { QueryNode, TsQuery } from './tsquery';
import { type TsVector, posOf, weightOf } from './tsvector';

/** One position of the document the query finds, with the operands found there. */
interface DocEntry {
  pos: number;
  lexeme: number;
  items: Operand[];
}

/** get_docrep: each position an operand finds (of its weights; lexemes without positions are left out), sorted. */
function docOf(v: TsVector, q: QueryNode): DocEntry[] {
  const raw: DocEntry[] = [];
  for (const item of operands(q))
    v.forEach((l, lexeme) => {
      if (item.prefix ? !l.word.startsWith(item.word) : l.word !== item.word) return;
      for (const p of l.pos)
        if (item.weight === 0 || item.weight & (1 << weightOf(p))) raw.push({ pos: p, lexeme, items: [item] });
    });
  raw.sort((a, b) => posOf(a.pos) - posOf(b.pos) || weightOf(a.pos) - weightOf(b.pos) || a.lexeme - b.lexeme);
  const doc: DocEntry[] = [];
  for (const e of raw) {
    const last = doc[doc.length - 1];
    if (last && last.pos === e.pos && last.lexeme === e.lexeme) last.items.push(...e.items);
    else doc.push({ ...e, items: [...e.items] });
  }
  return doc;
}

interface Extent {
  pos: number;
  begin: number;
  end: number;
  p: number;
  q: number;
}

/** Cover: the next cover from ext.pos (its entries begin..end, its positions p..q). */
function cover(doc: DocEntry[], q: QueryNode, ext: Extent): boolean {
  for (;;) {
    // the positions each operand has been seen at, as the scan goes (QueryRepresentation)
    const seen = new Map<Operand, number[]>();
    const fill = (e: DocEntry, reverse: boolean) => {
      for (const item of e.items) {
        const list = seen.get(item);
        if (!list) seen.set(item, [posOf(e.pos)]);
        else if (reverse ? list[0] !== posOf(e.pos) : list[list.length - 1] !== posOf(e.pos)) {
          if (reverse) list.unshift(posOf(e.pos));
          else list.push(posOf(e.pos));
        }
      }
    };
    const check = (n: Operand, data: PhraseData | null) => {
      const list = seen.get(n);
      if (!list) return 'no' as const;
      if (data) data.pos = [...list];
      return 'yes' as const;
    };
    ext.begin = Number.MAX_SAFE_INTEGER;
    ext.end = -1;
    ext.p = Number.MAX_SAFE_INTEGER;
    ext.q = 0;
    let lastpos = ext.pos;
    let found = false;
    for (let i = ext.pos; i < doc.length; i++) {
      fill(doc[i], false);
      if (tsExecute(q, check)) {
        if (posOf(doc[i].pos) > ext.q) {
          ext.q = posOf(doc[i].pos);
          ext.end = i;
          lastpos = i;
          found = true;
        }
        break;
      }
    }
    if (!found) return false;
    seen.clear();
    let i: number;
    for (i = lastpos; i >= ext.pos; i--) {
      fill(doc[i], true);
      if (tsExecute(q, check)) {
        if (posOf(doc[i].pos) < ext.p) {
          ext.begin = i;
          ext.p = posOf(doc[i].pos);
        }
        break;
      }
    }
    if (ext.p <= ext.q) {
      ext.pos = i + 1;
      return true;
    }
    ext.pos++;
  }
}

/** The number of positions (a lexeme without any counts one: cnt_length). */
const lengthOf = (v: TsVector) => v.reduce((n, l) => n + Math.max(l.pos.length, 1), 0);

/** calc_rank_cd with the weights of D, C, B and A (already checked). */
export function tsRankCd(w: number[], v: TsVector, q: TsQuery, method: number): number {
  const invws = w.map((x) => 1.0 / x);
  const doc = q === null ? [] : docOf(v, q);
  if (q === null || doc.length === 0) return 0;
  const ext: Extent = { pos: 0, begin: 0, end: 0, p: 0, q: 0 };
  let wdoc = 0;
  let sumDist = 0;
  let prevExtPos = 0;
  let nExtent = 0;
  while (cover(doc, q, ext)) {
    let invSum = 0;
    for (let i = ext.begin; i <= ext.end; i++) invSum += invws[weightOf(doc[i].pos)];
    const cpos = (ext.end - ext.begin + 1) / invSum;
    // (a big document's positions stop at 16383: then the noise is taken as half the cover)
    let nNoise = ext.q - ext.p - (ext.end - ext.begin);
    if (nNoise < 0) nNoise = Math.trunc((ext.end - ext.begin) / 2);
    wdoc += cpos / (1 + nNoise);
    const curExtPos = (ext.q + ext.p) / 2.0;
    if (nExtent > 0 && curExtPos > prevExtPos) sumDist += 1.0 / (curExtPos - prevExtPos);
    prevExtPos = curExtPos;
    nExtent++;
  }
  if (method & 0x01 && v.length > 0) wdoc /= Math.log(lengthOf(v) + 1);
  if (method & 0x02) {
    const len = lengthOf(v);
    if (len > 0) wdoc /= len;
  }
  if (method & 0x04 && nExtent > 0 && sumDist > 0) wdoc /= nExtent / sumDist;
  if (method & 0x08 && v.length > 0) wdoc /= v.length;
  if (method & 0x10 && v.length > 0) wdoc /= Math.log(v.length + 1) / Math.log(2.0);
  if (method & 0x20) wdoc /= wdoc + 1;
  return Math.fround(wdoc);
}
