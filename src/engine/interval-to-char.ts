// to_char(interval, format): PostgreSQL 15's interval_to_char. The interval's fields, not a date:
// years and months of its months (`14 mons` is 1 year 2 months), its days as they are, and its time
// as hours past 24 (`26:05:00` prints HH24 26), each keeping its sign; the date patterns print those
// numbers (MM the months, DD the days, DDD the whole span in days at 30 a month), and the patterns
// that name a calendar day, a month's name, an era or a zone are PostgreSQL's 22007. The ISO week
// patterns and J (computed there from the fields taken as a date) are refused by name.
import { sqlStateError } from '../errors';
import { parseInterval } from './dates';
import { type DatePiece, cased, ordinal, parseDateFormat } from './to-char';

/** The fields PostgreSQL's interval2itm takes of an interval (C's truncating division, signs kept). */
interface IntervalFields {
  year: number;
  mon: number;
  mday: number;
  hour: number;
  min: number;
  sec: number;
  usec: number;
  yday: number;
}

function fieldsOf(months: number, days: number, micros: number): IntervalFields {
  const hour = Math.trunc(micros / 3_600_000_000);
  let rest = micros - hour * 3_600_000_000;
  const min = Math.trunc(rest / 60_000_000);
  rest -= min * 60_000_000;
  const sec = Math.trunc(rest / 1_000_000);
  const year = Math.trunc(months / 12);
  const mon = months % 12;
  // (the whole span in days, a month 30 of them: PostgreSQL's tm_yday for an interval)
  return { year, mon, mday: days, hour, min, sec, usec: rest - sec * 1_000_000, yday: (year * 12 + mon) * 30 + days };
}

/** C's sprintf("%0*d", width, n): zeros after the sign, the sign counting in the width. */
function padded(n: number, width: number): string {
  const digits = String(Math.abs(n));
  return n < 0 ? `-${digits.padStart(width - 1, '0')}` : digits.padStart(width, '0');
}

/** A number at a pattern's width (width+1 when negative), none with FM. */
const num = (n: number, width: number, fm: boolean) => (fm ? String(n) : padded(n, n >= 0 ? width : width + 1));

/** The Roman months from December down, as PostgreSQL's rm_months_upper. */
const ROMAN_DOWN = ['XII', 'XI', 'X', 'IX', 'VIII', 'VII', 'VI', 'V', 'IV', 'III', 'II', 'I'];

/** Patterns of a calendar date or a zone: no interval has them (PostgreSQL's INVALID_FOR_INTERVAL). */
const CALENDAR = new Set([
  'TZ', 'TZH', 'TZM', 'OF', 'A.D.', 'B.C.', 'AD', 'BC', 'MONTH', 'MON', 'DAY', 'DY', 'D', 'ID',
]); // biome-ignore format: a word list
/** Patterns PostgreSQL computes from the fields taken as a date; not done here. */
const REFUSED = new Set(['IDDD', 'IW', 'IYYY', 'IYY', 'IY', 'I', 'J']);

function intervalPattern(p: DatePiece, f: IntervalFields): string {
  const upper = p.pattern.toUpperCase();
  const fm = p.fm;
  if (CALENDAR.has(upper)) {
    const err = sqlStateError('22007', 'invalid format specification for an interval value');
    (err as { hint?: string }).hint = 'Intervals are not tied to specific calendar dates.';
    throw err;
  }
  if (REFUSED.has(upper))
    throw sqlStateError('0A000', `to_char of an interval: the pattern ${p.pattern} is not supported`);
  switch (upper) {
    case 'A.M.':
    case 'P.M.':
      return cased(p.pattern, f.hour % 24 >= 12 ? 'P.M.' : 'A.M.');
    case 'AM':
    case 'PM':
      return cased(p.pattern, f.hour % 24 >= 12 ? 'PM' : 'AM');
    case 'HH':
    case 'HH12':
      // (a 12-hour clock's, even for an interval; the width by the hours' sign, as there)
      return fm
        ? String(f.hour % 12 === 0 ? 12 : f.hour % 12)
        : padded(f.hour % 12 === 0 ? 12 : f.hour % 12, f.hour >= 0 ? 2 : 3);
    case 'HH24':
      return num(f.hour, 2, fm);
    case 'MI':
      return num(f.min, 2, fm);
    case 'SS':
      return num(f.sec, 2, fm);
    case 'MS':
      return padded(Math.trunc(f.usec / 1000), 3);
    case 'US':
      return padded(f.usec, 6);
    case 'FF1':
    case 'FF2':
    case 'FF3':
    case 'FF4':
    case 'FF5':
    case 'FF6': {
      const n = Number(upper[2]);
      return padded(Math.trunc(f.usec / 10 ** (6 - n)), n);
    }
    case 'SSSS':
    case 'SSSSS':
      return String(f.hour * 3600 + f.min * 60 + f.sec);
    case 'MM':
      return num(f.mon, 2, fm);
    case 'DDD':
      return fm ? String(f.yday) : padded(f.yday, 3);
    case 'DD':
      return fm ? String(f.mday) : padded(f.mday, 2);
    case 'WW':
      return fm ? String(Math.trunc((f.yday - 1) / 7) + 1) : padded(Math.trunc((f.yday - 1) / 7) + 1, 2);
    case 'W':
      return String(Math.trunc((f.mday - 1) / 7) + 1);
    case 'Q':
      return f.mon === 0 ? '' : String(Math.trunc((f.mon - 1) / 3) + 1);
    case 'CC': {
      const c = Math.trunc(f.year / 100);
      return c <= 99 && c >= -99 ? num(c, 2, fm) : String(c);
    }
    case 'Y,YYY': {
      const k = Math.trunc(f.year / 1000);
      return `${k},${padded(f.year - k * 1000, 3)}`;
    }
    case 'YYYY':
      return fm ? String(f.year) : padded(f.year, f.year >= 0 ? 4 : 5);
    case 'YYY':
      return fm ? String(f.year % 1000) : padded(f.year % 1000, f.year >= 0 ? 3 : 4);
    case 'YY':
      return fm ? String(f.year % 100) : padded(f.year % 100, f.year >= 0 ? 2 : 3);
    case 'Y':
      return String(f.year % 10);
    case 'RM': {
      if (f.mon === 0 && f.year === 0) return '';
      const at = f.mon === 0 ? (f.year >= 0 ? 0 : 11) : f.mon < 0 ? -(f.mon + 1) : 12 - f.mon;
      const r = p.pattern === 'rm' ? ROMAN_DOWN[at].toLowerCase() : ROMAN_DOWN[at];
      return fm ? r : r.padEnd(4);
    }
    default:
      return ''; // FX
  }
}

/** to_char of an interval's text by a format, as PostgreSQL's interval_to_char prints it. */
export function intervalToChar(v: string, fmt: string): string {
  const iv = parseInterval(v);
  if (!iv) return '';
  const f = fieldsOf(iv.months, iv.days, iv.micros);
  let out = '';
  for (const piece of parseDateFormat(fmt)) {
    if (typeof piece === 'string') {
      out += piece;
      continue;
    }
    const s = intervalPattern(piece, f);
    out += piece.th && /\d$/.test(s) ? s + ordinal(s, piece.th === 'TH') : s;
  }
  return out;
}
