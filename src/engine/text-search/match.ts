// tsvector @@ tsquery as PostgreSQL 15 runs it (tsvector_op.c's TS_execute): &, | and ! over the
// lexemes found (a prefix operand :* finds every lexeme it starts, weights keep the positions of
// those weights), and under a phrase operator the positions themselves: each match's end position,
// "everywhere but these" for a negation, and MAYBE where a lexeme has no positions (true at the top).
import type { QueryNode, TsQuery } from './tsquery';
import { type TsVector, compareWords, posOf, weightOf } from './tsvector';

export type Ternary = 'yes' | 'no' | 'maybe';
export type Operand = Extract<QueryNode, { t: 'val' }>;
export interface PhraseData {
  pos: number[];
  negate: boolean;
  width: number;
}

/** The lexemes an operand finds (its word, or the words it starts when a prefix). */
function found(v: TsVector, n: Operand) {
  if (!n.prefix) {
    let lo = 0;
    let hi = v.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const d = compareWords(n.word, v[mid].word);
      if (d === 0) return [v[mid]];
      if (d > 0) lo = mid + 1;
      else hi = mid;
    }
    return [];
  }
  return v.filter((l) => l.word.startsWith(n.word));
}

/**
 * What TS_execute asks of an operand (its callback): YES/NO (MAYBE where positions are wanted but
 * unknown), and the operand's sorted positions in `data` when given.
 */
export type CheckOperand = (n: Operand, data: PhraseData | null) => Ternary;

/** checkcondition_str: YES/NO, and the positions (filtered by weight) when `data` wants them. */
function checkOperand(v: TsVector, n: Operand, data: PhraseData | null): Ternary {
  let res: Ternary = 'no';
  const all: number[] = [];
  for (const l of found(v, n)) {
    let sub: Ternary;
    let pos: number[] = [];
    if (l.pos.length > 0) {
      pos = n.weight ? l.pos.filter((p) => n.weight & (1 << weightOf(p))) : l.pos;
      sub = pos.length > 0 ? 'yes' : 'no';
    } else sub = data ? 'maybe' : 'yes'; // no positions: a stripped lexeme matches whatever the weight
    if (sub === 'no') continue;
    if (data) {
      if (sub === 'maybe') return 'maybe';
      all.push(...pos.map(posOf));
      res = 'yes';
    } else if (sub === 'yes' || res === 'no') res = sub;
  }
  if (data && res === 'yes') data.pos = [...new Set(all)].sort((a, b) => a - b);
  return res;
}

const L_ONLY = 1;
const R_ONLY = 2;
const BOTH = 4;

/** TS_phrase_output: the two sorted position lists merged as `emit` says. */
function phraseOutput(
  data: PhraseData | null,
  L: PhraseData,
  R: PhraseData,
  emit: number,
  loff: number,
  roff: number,
): Ternary {
  let li = 0;
  let ri = 0;
  const out: number[] = [];
  while (li < L.pos.length || ri < R.pos.length) {
    let lp: number;
    let rp: number;
    if (li < L.pos.length) lp = L.pos[li] + loff;
    else {
      if (!(emit & R_ONLY)) break;
      lp = Number.MAX_SAFE_INTEGER;
    }
    if (ri < R.pos.length) rp = R.pos[ri] + roff;
    else {
      if (!(emit & L_ONLY)) break;
      rp = Number.MAX_SAFE_INTEGER;
    }
    let o = 0;
    if (lp < rp) {
      if (emit & L_ONLY) o = lp;
      li++;
    } else if (lp === rp) {
      if (emit & BOTH) o = rp;
      li++;
      ri++;
    } else {
      if (emit & R_ONLY) o = rp;
      ri++;
    }
    if (o > 0) {
      if (!data) return 'yes';
      out.push(o);
    }
  }
  if (data && out.length > 0) {
    data.pos = out;
    return 'yes';
  }
  return 'no';
}

const fresh = (): PhraseData => ({ pos: [], negate: false, width: 0 });

function phraseExecute(v: CheckOperand, n: QueryNode, data: PhraseData | null): Ternary {
  if (n.t === 'val') return v(n, data);
  if (n.t === 'stop') return 'no';
  const d = data ?? fresh();
  if (n.t === 'not') {
    const r = phraseExecute(v, n.arg, d);
    if (r === 'no') {
      d.negate = true;
      return 'yes';
    }
    if (r === 'yes') {
      if (d.pos.length > 0) {
        d.negate = !d.negate;
        return 'yes';
      }
      d.negate = false;
      return 'no';
    }
    return 'maybe';
  }
  const L = fresh();
  const R = fresh();
  if (n.t === 'phrase' || n.t === 'and') {
    const lm = phraseExecute(v, n.l, L);
    if (lm === 'no') return 'no';
    const rm = phraseExecute(v, n.r, R);
    if (rm === 'no') return 'no';
    if (lm === 'maybe' || rm === 'maybe') return 'maybe';
    let loff: number;
    let roff: number;
    if (n.t === 'phrase') {
      loff = n.dist + R.width;
      roff = 0;
      if (data) data.width = n.dist + L.width + R.width;
    } else {
      const max = Math.max(L.width, R.width);
      loff = max - L.width;
      roff = max - R.width;
      if (data) data.width = max;
    }
    if (L.negate && R.negate) {
      phraseOutput(data, L, R, BOTH | L_ONLY | R_ONLY, loff, roff);
      if (data) data.negate = true;
      return 'yes';
    }
    if (L.negate) return phraseOutput(data, L, R, R_ONLY, loff, roff);
    if (R.negate) return phraseOutput(data, L, R, L_ONLY, loff, roff);
    return phraseOutput(data, L, R, BOTH, loff, roff);
  }
  // or
  const lm = phraseExecute(v, n.l, L);
  const rm = phraseExecute(v, n.r, R);
  if (lm === 'no' && rm === 'no') return 'no';
  if (lm === 'maybe' || rm === 'maybe') return 'maybe';
  if (lm === 'no') L.width = 0;
  if (rm === 'no') R.width = 0;
  const max = Math.max(L.width, R.width);
  const loff = max - L.width;
  const roff = max - R.width;
  d.width = max;
  if (L.negate && R.negate) {
    phraseOutput(d, L, R, BOTH, loff, roff);
    d.negate = true;
    return 'yes';
  }
  if (L.negate) {
    phraseOutput(d, L, R, L_ONLY, loff, roff);
    d.negate = true;
    return 'yes';
  }
  if (R.negate) {
    phraseOutput(d, L, R, R_ONLY, loff, roff);
    d.negate = true;
    return 'yes';
  }
  return phraseOutput(d, L, R, BOTH | L_ONLY | R_ONLY, loff, roff);
}

function execute(v: CheckOperand, n: QueryNode): Ternary {
  switch (n.t) {
    case 'val':
      return v(n, null);
    case 'stop':
      return 'no';
    case 'not': {
      const r = execute(v, n.arg);
      return r === 'no' ? 'yes' : r === 'yes' ? 'no' : 'maybe';
    }
    case 'and': {
      const l = execute(v, n.l);
      if (l === 'no') return 'no';
      const r = execute(v, n.r);
      return r === 'no' ? 'no' : r === 'yes' ? l : 'maybe';
    }
    case 'or': {
      const l = execute(v, n.l);
      if (l === 'yes') return 'yes';
      const r = execute(v, n.r);
      return r === 'no' ? l : r === 'yes' ? 'yes' : 'maybe';
    }
    case 'phrase': {
      // a MAYBE at the topmost phrase operator is no match (TS_EXEC_PHRASE_NO_POS is not set)
      const r = phraseExecute(v, n, null);
      return r === 'maybe' ? 'no' : r;
    }
  }
}

/** TS_execute with an operand callback (ts_headline's words, ts_rank_cd's cover): false for the empty query. */
export function tsExecute(q: TsQuery, check: CheckOperand): boolean {
  return q !== null && execute(check, q) !== 'no';
}

/** ts_match_vq: the empty query matches nothing. */
export function tsMatch(v: TsVector, q: TsQuery): boolean {
  return tsExecute(q, (n, data) => checkOperand(v, n, data));
}

/** The query's operands in PostgreSQL's storage order (an operator, its right side, its left). */
export function operands(q: QueryNode, out: Operand[] = []): Operand[] {
  if (q.t === 'val') out.push(q);
  else if (q.t === 'not') operands(q.arg, out);
  else if (q.t !== 'stop') {
    operands(q.r, out);
    operands(q.l, out);
  }
  return out;
}
