// Date and time syntax SQLite's grammar lacks: EXTRACT(field FROM x), typed literals (DATE '...',
// TIMESTAMP WITH TIME ZONE '...', INTERVAL '3' DAY) turned into casts of the string, and
// `AT TIME ZONE 'UTC'`, which is the session's zone already and so dropped; `(a, b) OVERLAPS (c, d)`.
import { quoteString } from '../lexer';
import { sessionZone } from '../session-zone';
import { type Tok, closer, isOp, isPunct, isWord, openerBefore, readType, topLevelItems } from '../tokens';

const TYPED_LITERALS = new Set(['DATE', 'TIMESTAMP', 'TIMESTAMPTZ', 'TIME', 'TIMETZ', 'INTERVAL']);

/**
 * EXTRACT(field FROM x) → date_part('field', x); typed literals (DATE '2026-01-01', TIMESTAMP WITH
 * TIME ZONE '...', INTERVAL '7 days') → casts of the string, which rewriteCasts then converts.
 */
export function rewriteDateSyntax(toks: Tok[]): Tok[] {
  toks = rewriteOverlaps(toks);
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const prev = out[out.length - 1];
    if (
      isWord(t, 'EXTRACT') &&
      isPunct(toks[i + 1], '(') &&
      (isWord(toks[i + 2]) || toks[i + 2]?.type === 'string') &&
      isWord(toks[i + 3], 'FROM')
    ) {
      const field = toks[i + 2].type === 'string' ? toks[i + 2].text : quoteString(toks[i + 2].text.toLowerCase());
      // a result column's extract(epoch ...) of a timestamp or interval, marked exact (exact-columns.ts)
      const exact = 'arith' in t && t.arith === 'epoch-x';
      // of a timestamptz with the session in a zone other than UTC: read on its wall clock, the zone a third argument
      const end = 'arith' in t && t.arith === 'dpart-tz' && sessionZone() !== null ? closer(toks, i + 1) : -1;
      if (end > 0)
        toks = [
          ...toks.slice(0, end),
          { type: 'punct', text: ',' },
          { type: 'string', text: quoteString(sessionZone()!) },
          ...toks.slice(end),
        ];
      out.push(
        { type: 'word', text: exact ? '__pg_exact_epoch' : end > 0 ? '__pg_date_part_in' : 'date_part' },
        toks[i + 1],
        { type: 'string', text: field },
        { type: 'punct', text: ',' },
      );
      i += 3;
      continue;
    }
    // x AT TIME ZONE 'UTC' of an operand the analysis could not type: the session's zone already
    // (a typed one is marked, and typed-arithmetic.ts converts it)
    if (
      isWord(t, 'AT') &&
      !('arith' in t && t.arith) &&
      isWord(toks[i + 1], 'TIME') &&
      isWord(toks[i + 2], 'ZONE') &&
      toks[i + 3]?.type === 'string' &&
      /^'(utc|gmt|etc\/utc|z|\+00(:00)?)'$/i.test(toks[i + 3].text)
    ) {
      i += 3;
      continue;
    }
    if (t.type === 'word' && TYPED_LITERALS.has(t.text.toUpperCase()) && !isPunct(prev, '.') && !isOp(prev, '::')) {
      const { name, end: typeEnd } = readType(toks, i);
      const end = typeEnd;
      if (toks[end]?.type === 'string') {
        // (the SQL-standard INTERVAL '3' DAY was made a plain literal by translate/interval-fields.ts)
        out.push(toks[end], { type: 'op', text: '::' }, { type: 'word', text: name });
        i = end;
        continue;
      }
    }
    out.push(t);
  }
  return out;
}

/**
 * `(start, end) OVERLAPS (start, end)` (an end may be an interval from its start) → __pg_overlaps(a,
 * b, c, d), which compares the periods as PostgreSQL does (src/engine/dates.ts); SQLite has no such
 * operator (a syntax error near "(").
 */
function rewriteOverlaps(toks: Tok[]): Tok[] {
  for (let i = toks.length - 1; i > 0; i--) {
    if (!isWord(toks[i], 'OVERLAPS') || !isPunct(toks[i - 1], ')') || !isPunct(toks[i + 1], '(')) continue;
    const open = openerBefore(toks, i - 1, '(', ')');
    const close = closer(toks, i + 1);
    if (open < 0 || close < 0) continue;
    const left = topLevelItems(toks, open + 1, i - 1);
    const right = topLevelItems(toks, i + 2, close);
    if (left.length !== 2 || right.length !== 2) continue;
    const args: Tok[] = [];
    for (const [a, b] of [...left, ...right]) {
      if (args.length > 0) args.push({ type: 'punct', text: ',' });
      args.push(...toks.slice(a, b));
    }
    toks = [
      ...toks.slice(0, open),
      { type: 'word', text: '__pg_overlaps' },
      { type: 'punct', text: '(' },
      ...args,
      { type: 'punct', text: ')' },
      ...toks.slice(close + 1),
    ];
    i = open;
  }
  return toks;
}
