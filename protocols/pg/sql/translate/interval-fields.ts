// An interval literal with SQL's field qualifier or a precision (`interval '1:30' hour to minute`,
// `'1 day 02:03'::interval day to hour`, `CAST('90 minutes' AS interval hour)`, `interval '1.5' day`,
// `interval(0) '1.7 seconds'`): the value PostgreSQL's interval input and typmod make of it, worked
// out here and written as a plain interval literal (SQLite's grammar has no such qualifier: they were
// syntax errors, and a qualified text other than a bare number was 22007). As PostgreSQL's
// DecodeInterval and AdjustIntervalForTypmod: a bare number counts the range's last field, `a:b` under
// MINUTE TO SECOND is minutes and seconds, and the fields below the range's last are cut off (the
// seconds rounded to the precision). A qualifier of anything but a string literal is left alone.
import { type Interval, formatInterval, parseInterval } from '../../../../src/engine/dates';
import { pgError } from '../../sqlstate';
import { quoteString } from '../lexer';
import { type Tok, isOp, isPunct, isWord } from '../tokens';

const FIELDS = ['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'];
const UNIT_OF: Record<string, string> = {
  YEAR: 'years',
  MONTH: 'months',
  DAY: 'days',
  HOUR: 'hours',
  MINUTE: 'minutes',
  SECOND: 'seconds',
};
const PER_MICROS: Record<string, number> = { HOUR: 3.6e9, MINUTE: 6e7 };

/** The qualifier at toks[i]: its fields and precision and the index after it; null when none is there. */
function qualifier(
  toks: Tok[],
  i: number,
): { first: string; last: string; precision: number | null; end: number } | null {
  const field = (k: number) => (isWord(toks[k]) ? toks[k].text.toUpperCase() : '');
  const first = field(i);
  if (!FIELDS.includes(first)) return null;
  let last = first;
  let end = i + 1;
  if (isWord(toks[end], 'TO') && FIELDS.includes(field(end + 1))) {
    last = field(end + 1);
    end += 2;
    if (FIELDS.indexOf(last) <= FIELDS.indexOf(first)) return null; // (PostgreSQL's syntax error stays SQLite's)
  }
  let precision: number | null = null;
  if (last === 'SECOND' && isPunct(toks[end], '(') && toks[end + 1]?.type === 'number' && isPunct(toks[end + 2], ')')) {
    precision = Number(toks[end + 1].text);
    end += 3;
  }
  return { first, last, precision, end };
}

/** The interval PostgreSQL makes of `text` under the qualifier (first..last, precision). */
export function qualifiedInterval(
  text: string,
  first: string | null,
  last: string | null,
  precision: number | null,
): Interval {
  const t = text.trim();
  let input = t;
  if (last !== null && /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t)) input = `${t} ${UNIT_OF[last]}`;
  else if (first === 'MINUTE' && last === 'SECOND') {
    const ms = /^([+-]?)(\d+):(\d+(?:\.\d+)?)$/.exec(t);
    if (ms) input = `${ms[1]}${ms[2]} minutes ${ms[1]}${ms[3]} seconds`;
  }
  const iv = parseInterval(input);
  if (iv === null) throw pgError('22007', `invalid input syntax for type interval: "${text}"`);
  const out = { ...iv };
  if (last === 'YEAR') {
    out.months = Math.trunc(out.months / 12) * 12;
    out.days = 0;
    out.micros = 0;
  } else if (last === 'MONTH') {
    out.days = 0;
    out.micros = 0;
  } else if (last === 'DAY') out.micros = 0;
  else if (last === 'HOUR' || last === 'MINUTE') {
    const per = PER_MICROS[last];
    out.micros = Math.trunc(out.micros / per) * per;
  }
  if (precision !== null && precision < 6) {
    const unit = 10 ** (6 - precision);
    out.micros = Math.sign(out.micros) * Math.floor((Math.abs(out.micros) + unit / 2) / unit) * unit;
  }
  return out;
}

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
