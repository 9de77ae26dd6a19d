// An interval literal with SQL's field qualifier or a precision (`interval '1:30' hour to minute`,
// `'1 day 02:03'::interval day to hour`, `CAST('90 minutes' AS interval hour)`, `interval '1.5' day`,
// `interval(0) '1.7 seconds'`): the value PostgreSQL's interval input and typmod make of it, worked
// out here and written as a plain interval literal (SQLite's grammar has no such qualifier: they were
// syntax errors, and a qualified text other than a bare number was 22007). As PostgreSQL's
// DecodeInterval and AdjustIntervalForTypmod: a bare number counts the range's last field, `a:b` under
// MINUTE TO SECOND is minutes and seconds, and the fields below the range's last are cut off (the
// seconds rounded to the precision: src/engine/interval-qualifier.ts). A qualifier of anything but a
// string literal is read by the cast (translate/casts.ts), which makes it per row.
import { type Interval, formatInterval } from '../../../../src/engine/dates';
import { qualifiedInterval } from '../../../../src/engine/interval-qualifier';
import { quoteString } from '../lexer';
import { type Tok, intervalQualifier as qualifier, isOp, isPunct, isWord } from '../tokens';

/** The interval literal as text PostgreSQL's interval input reads back to the same value. */
const literal = (iv: Interval): Tok => ({ type: 'string', text: quoteString(formatInterval(iv)) });
const unquote = (s: string) => s.slice(1, -1).replace(/''/g, "'");

/**
 * `INTERVAL [(p)] 'text' [qualifier]`, `'text'::interval [(p)|qualifier]` and `CAST('text' AS interval
 * qualifier)` as `'value'::interval`; everything else as it was.
 */
export function rewriteIntervalFields(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'INTERVAL'))) return toks;
  const out: Tok[] = [];
  const cast = (iv: Interval): Tok[] => [literal(iv), { type: 'op', text: '::' }, { type: 'word', text: 'interval' }];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    // INTERVAL [(p)] 'text' [qualifier]
    if (isWord(t, 'INTERVAL') && !isOp(toks[i - 1], '::') && !isWord(toks[i - 1], 'AS')) {
      let k = i + 1;
      let precision: number | null = null;
      if (isPunct(toks[k], '(') && toks[k + 1]?.type === 'number' && isPunct(toks[k + 2], ')')) {
        precision = Number(toks[k + 1].text);
        k += 3;
      }
      const s = toks[k];
      const q = s?.type === 'string' ? qualifier(toks, k + 1) : null;
      if (s?.type === 'string' && (q || precision !== null)) {
        out.push(
          ...cast(qualifiedInterval(unquote(s.text), q?.first ?? null, q?.last ?? null, q?.precision ?? precision)),
        );
        i = (q?.end ?? k + 1) - 1;
        continue;
      }
    }
    // 'text'::interval qualifier, 'text'::interval(p)
    if (t.type === 'string' && isOp(toks[i + 1], '::') && isWord(toks[i + 2], 'INTERVAL')) {
      const q = qualifier(toks, i + 3);
      const p =
        !q && isPunct(toks[i + 3], '(') && toks[i + 4]?.type === 'number' && isPunct(toks[i + 5], ')')
          ? Number(toks[i + 4].text)
          : null;
      if (q || p !== null) {
        out.push(...cast(qualifiedInterval(unquote(t.text), q?.first ?? null, q?.last ?? null, q?.precision ?? p)));
        i = (q?.end ?? i + 6) - 1;
        continue;
      }
    }
    // CAST('text' AS interval qualifier)
    if (
      isWord(t, 'CAST') &&
      isPunct(toks[i + 1], '(') &&
      toks[i + 2]?.type === 'string' &&
      isWord(toks[i + 3], 'AS') &&
      isWord(toks[i + 4], 'INTERVAL')
    ) {
      const q = qualifier(toks, i + 5);
      if (q && isPunct(toks[q.end], ')')) {
        out.push(
          { type: 'punct', text: '(' },
          ...cast(qualifiedInterval(unquote(toks[i + 2].text), q.first, q.last, q.precision)),
          { type: 'punct', text: ')' },
        );
        i = q.end;
        continue;
      }
    }
    out.push(t);
  }
  return out;
}
