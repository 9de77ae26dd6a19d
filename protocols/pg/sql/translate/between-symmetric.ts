// `x [NOT] BETWEEN SYMMETRIC a AND b`, which SQLite's grammar lacks: `x [NOT] BETWEEN min(a, b) AND
// max(a, b)`. PostgreSQL reads it as `(x >= a AND x <= b) OR (x >= b AND x <= a)`: a NULL bound makes
// that NULL whatever x is (one side unknown, the other false or unknown), as SQLite's min and max of
// several arguments are NULL when one is. `BETWEEN ASYMMETRIC`, the plain form spelled out, drops its word.
import { type Tok, closer, isOp, isPunct, isWord } from '../tokens';
import { OPERAND_ENDS, bracketAfter } from './primaries';

/** Operators that bind looser than BETWEEN: the upper bound ends before them. */
const LOOSER_OPS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);

/** Words of a type name after its first (`double precision`, `timestamp with time zone`, `character varying`). */
const TYPE_WORDS = new Set(['PRECISION', 'VARYING', 'WITH', 'WITHOUT', 'TIME', 'ZONE']);

export function rewriteBetweenSymmetric(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'SYMMETRIC') || isWord(t, 'ASYMMETRIC'))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const kind = isWord(toks[i - 1], 'BETWEEN') ? t : undefined;
    if (isWord(kind, 'ASYMMETRIC')) continue;
    const and = isWord(kind, 'SYMMETRIC') ? boundAnd(toks, i + 1) : -1;
    const end = and < 0 ? -1 : boundEnd(toks, and + 1);
    if (end < 0) {
      out.push(t);
      continue;
    }
    // (each bound rewritten too: a BETWEEN SYMMETRIC inside a call's arguments)
    const low = rewriteBetweenSymmetric(toks.slice(i + 1, and));
    const high = rewriteBetweenSymmetric(toks.slice(and + 1, end));
    const call = (fn: string): Tok[] => [
      { type: 'word', text: fn },
      { type: 'punct', text: '(' },
      ...low,
      { type: 'punct', text: ',' },
      ...high,
      { type: 'punct', text: ')' },
    ];
    out.push(...call('min'), toks[and], ...call('max'));
    i = end - 1;
  }
  return out;
}

/** The AND that ends BETWEEN's lower bound (starting at toks[from]), outside parentheses and CASE; -1 when none. */
function boundAnd(toks: Tok[], from: number): number {
  let cases = 0;
  for (let i = from; i < toks.length; i++) {
    if (isPunct(toks[i], '(')) {
      i = closer(toks, i);
      if (i < 0) return -1;
    } else if (isWord(toks[i], 'CASE')) cases++;
    else if (isWord(toks[i], 'END') && cases > 0) cases--;
    else if (cases === 0 && isWord(toks[i], 'AND')) return i > from ? i : -1;
    else if (cases === 0 && (isPunct(toks[i], ')') || isPunct(toks[i], ',') || isPunct(toks[i], ';'))) return -1;
  }
  return -1;
}

/**
 * The index just past the upper bound that starts at toks[from]: operands joined by the operators
 * binding tighter than BETWEEN (arithmetic, ||, ->>, ...), each with its casts, subscripts and
 * typed literals; -1 when the bound is no such expression or is not followed by what ends one.
 */
function boundEnd(toks: Tok[], from: number): number {
  let i = from;
  for (;;) {
    while (isOp(toks[i], '-') || isOp(toks[i], '+')) i++;
    const t = toks[i];
    if (t === undefined) return -1;
    if (isPunct(t, '(')) i = closer(toks, i) + 1;
    else if (isWord(t, 'CASE')) {
      let depth = 0;
      for (; i < toks.length; i++) {
        if (isWord(toks[i], 'CASE')) depth++;
        else if (isWord(toks[i], 'END') && --depth === 0) break;
      }
      i++;
    } else if (isWord(t, 'ARRAY') && isPunct(toks[i + 1], '[')) i = bracketAfter(toks, i + 1) + 1;
    else if (t.type === 'word' || t.type === 'quoted') {
      if (t.type === 'word' && OPERAND_ENDS.has(t.text.toUpperCase())) return -1;
      i++;
      while (isPunct(toks[i], '.') && (toks[i + 1]?.type === 'word' || toks[i + 1]?.type === 'quoted')) i += 2;
      if (isPunct(toks[i], '(')) i = closer(toks, i) + 1;
      else if (toks[i]?.type === 'string') i++; // a typed literal: date '2024-01-01'
    } else if (['string', 'number', 'param', 'group'].includes(t.type)) i++;
    else return -1;
    if (i <= 0) return -1;
    // casts, subscripts and AT TIME ZONE after the operand
    for (;;) {
      if (isOp(toks[i], '::') && toks[i + 1]?.type === 'word') {
        i += 2;
        while (isWord(toks[i]) && TYPE_WORDS.has(toks[i].text.toUpperCase())) i++;
        if (isPunct(toks[i], '(')) i = closer(toks, i) + 1;
        while (isPunct(toks[i], '[') && isPunct(toks[i + 1], ']')) i += 2;
        if (i <= 0) return -1;
      } else if (isPunct(toks[i], '[')) {
        i = bracketAfter(toks, i) + 1;
        if (i <= 0) return -1;
      } else if (isWord(toks[i], 'AT') && isWord(toks[i + 1], 'TIME') && isWord(toks[i + 2], 'ZONE')) {
        // (a zone that is one token: 'UTC', a parameter, a column)
        if (!['string', 'param', 'word', 'quoted'].includes(toks[i + 3]?.type ?? '')) return -1;
        i += 4;
      } else break;
    }
    const next = toks[i];
    if (next?.type === 'op' && !LOOSER_OPS.has(next.text)) {
      i++;
      continue;
    }
    // what may follow an expression: the end, a closing bracket or comma, a comparison, a keyword
    if (
      next === undefined ||
      isPunct(next, ')') ||
      isPunct(next, ',') ||
      isPunct(next, ';') ||
      (next.type === 'op' && LOOSER_OPS.has(next.text)) ||
      (next.type === 'word' && OPERAND_ENDS.has(next.text.toUpperCase()))
    )
      return i;
    return -1;
  }
}
