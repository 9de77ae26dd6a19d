// A RANGE frame offset of an interval over a date, timestamp or timestamptz key (`OVER (ORDER BY ts
// RANGE BETWEEN interval '1 day' PRECEDING AND CURRENT ROW)`): SQLite's frame offsets are numbers over a
// numeric key, so the key the analysis marked 'frame-epoch' (sql/window-frames.ts) becomes
// `__pg_frame_epoch(key)`, its microseconds since 1970, and each offset marked 'frame-offset:µs' that
// number of microseconds. The same rows fall in the frame: the order is the key's, the lengths fixed
// (months, and days of a timestamptz away from UTC, were refused at analysis).
import { type Tok, isPunct, isWord } from '../tokens';

const KEY_ENDS = new Set(['ASC', 'DESC', 'NULLS', 'USING', 'RANGE', 'ROWS', 'GROUPS']);

const mark = (t: Tok | undefined) => (t && 'sortKey' in t ? t.sortKey : undefined);

export function rewriteFrameOffsets(toks: Tok[]): Tok[] {
  if (!toks.some((t) => mark(t)?.startsWith('frame-'))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const m = mark(toks[i]);
    if (m === 'frame-epoch') {
      const end = endOf(toks, i, (t) => isWord(t) && KEY_ENDS.has(t.text.toUpperCase()));
      out.push({ type: 'word', text: '__pg_frame_epoch' }, { type: 'punct', text: '(' });
      out.push({ ...toks[i], sortKey: undefined } as Tok, ...toks.slice(i + 1, end), { type: 'punct', text: ')' });
      i = end - 1;
    } else if (m?.startsWith('frame-offset:')) {
      out.push({ type: 'number', text: m.slice('frame-offset:'.length) } as Tok);
      i = endOf(toks, i, (t) => isWord(t, 'PRECEDING') || isWord(t, 'FOLLOWING')) - 1;
    } else out.push(toks[i]);
  }
  return out;
}

/** Where the expression starting at toks[i] ends: the first token at its depth that `stop` takes, `,` or `)`. */
function endOf(toks: Tok[], i: number, stop: (t: Tok) => boolean): number {
  let depth = 0;
  for (let k = i; k < toks.length; k++) {
    const t = toks[k];
    if (isPunct(t, '(') || isPunct(t, '[')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']')) {
      if (depth === 0) return k;
      depth--;
    } else if (depth === 0 && k > i && (isPunct(t, ',') || stop(t))) return k;
  }
  return toks.length;
}
