import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';
import {
  type Instant,
  formatInstant,
  isoWeek,
  offsetText,
  parseInstant,
  sessionOffsetMs,
  zoneAbbreviation,
} from './dates';
import { parseDecimal } from './decimal';
import { lookup } from '../lookup';
import { intervalToChar } from './interval-to-char';

// to_char(value, format): PostgreSQL's formatting of timestamps, dates and numbers, as reports and
// BI tools call it (`to_char(created_at, 'YYYY-MM')`, `to_char(total, 'FM999,999.00')`). A value is
// a timestamp when it is text that reads as one (Patina keeps timestamps as text), else a number.
// The session time zone is UTC, as everywhere in Patina. Patterns and their padding are PostgreSQL
// 15's, checked against it in test/pg/to-char-oracle.test.ts (an interval's: interval-to-char.ts);
// what is not here (RN, EEEE, V, L, localized TM names) is refused with 0A000 naming it rather than
// printed differently.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];

/** Date/time patterns, longest first where one begins another, as PostgreSQL matches them. */
const DATE_PATTERNS = [
  'A.D.',
  'A.M.',
  'AD',
  'AM',
  'B.C.',
  'BC',
  'CC',
  'DAY',
  'DDD',
  'DD',
  'DY',
  'Day',
  'Dy',
  'D',
  'FF1',
  'FF2',
  'FF3',
  'FF4',
  'FF5',
  'FF6',
  'FX',
  'HH24',
  'HH12',
  'HH',
  'IDDD',
  'ID',
  'IW',
  'IYYY',
  'IYY',
  'IY',
  'I',
  'J',
  'MI',
  'MM',
  'MONTH',
  'MON',
  'MS',
  'Month',
  'Mon',
  'OF',
  'P.M.',
  'PM',
  'Q',
  'RM',
  'SSSSS',
  'SSSS',
  'SS',
  'TZH',
  'TZM',
  'TZ',
  'US',
  'WW',
  'W',
  'Y,YYY',
  'YYYY',
  'YYY',
  'YY',
  'Y',
];
/** Lower-case spellings PostgreSQL also takes (names and AM/PM then print in lower case). */
const LOWER_PATTERNS = DATE_PATTERNS.filter((p) => p === p.toUpperCase() && !['TZH', 'TZM'].includes(p)).map((p) =>
  p.toLowerCase(),
);
const ALL_DATE_PATTERNS = [...DATE_PATTERNS, ...LOWER_PATTERNS];

export interface DatePiece {
  pattern: string;
  fm: boolean;
  th: 'TH' | 'th' | null;
}

/** The text of a double-quoted part of a format starting at `i` (\\ takes the next character as is), and where it ends. */
function quoted(fmt: string, i: number): { text: string; end: number } {
  let text = '';
  let k = i + 1;
  while (k < fmt.length && fmt[k] !== '"') {
    if (fmt[k] === '\\' && k + 1 < fmt.length) k++;
    text += fmt[k++];
  }
  return { text, end: k + 1 };
}

/** Splits a date/time format into patterns (with FM/TM prefixes, TH/th suffixes) and literal text. */
export function parseDateFormat(fmt: string): (DatePiece | string)[] {
  const out: (DatePiece | string)[] = [];
  let i = 0;
  while (i < fmt.length) {
    let fm = false;
    let j = i;
    for (;;) {
      const two = fmt.slice(j, j + 2);
      if (two === 'FM' || two === 'fm') fm = true;
      else if (two !== 'TM' && two !== 'tm') break;
      j += 2;
    }
    const pattern = ALL_DATE_PATTERNS.find((p) => fmt.startsWith(p, j));
    if (pattern) {
      j += pattern.length;
      const suffix = fmt.slice(j, j + 2);
      const th = suffix === 'TH' || suffix === 'th' ? suffix : null;
      if (th) j += 2;
      out.push({ pattern, fm, th });
      i = j;
      continue;
    }
    if (j > i) {
      // FM or TM before no pattern: PostgreSQL drops the prefix
      i = j;
      continue;
    }
    const c = fmt[i];
    if (c === '"') {
      const q = quoted(fmt, i);
      out.push(q.text);
      i = q.end;
    } else if (c === '\\' && fmt[i + 1] === '"') {
      out.push('"');
      i += 2;
    } else {
      out.push(c);
      i++;
    }
  }
  return out;
}

/** 'st', 'nd', 'rd' or 'th' for the number a text ends with (11th, 12th, 13th). */
export function ordinal(s: string, upper: boolean): string {
  const last = s.charCodeAt(s.length - 1) - 48;
  const teen = s.length > 1 && s[s.length - 2] === '1';
  const suffix = teen || last < 1 || last > 3 ? 'th' : ['st', 'nd', 'rd'][last - 1];
  return upper ? suffix.toUpperCase() : suffix;
}

const zeros = (n: number, width: number, fm: boolean) => (fm ? String(n) : String(n).padStart(width, '0'));

/** Same case as the pattern: 'MONTH' upper, 'month' lower, 'Month' as written. */
export function cased(pattern: string, word: string): string {
  if (pattern === pattern.toUpperCase()) return word.toUpperCase();
  if (pattern === pattern.toLowerCase()) return word.toLowerCase();
  return word;
}

/** The ISO year, a year BC as its number BC (PostgreSQL's ADJUST_YEAR). */
function isoYearOfEra(d: Date): number {
  const y = isoWeek(d).year;
  return y > 0 ? y : 1 - y;
}

/** One date/time pattern's text for the instant `t`. */
function datePattern(p: DatePiece, t: Instant, d: Date): string {
  const fm = p.fm;
  const y = d.getUTCFullYear();
  const yearOfEra = y > 0 ? y : 1 - y;
  const month = d.getUTCMonth();
  const hour = d.getUTCHours();
  const micros = d.getUTCMilliseconds() * 1000 + t.us;
  const dayStart = Math.floor(t.ms / 86_400_000) * 86_400_000;
  const doy = Math.round((dayStart - new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(y)) / 86_400_000) + 1;
  const upper = p.pattern.toUpperCase();
  switch (upper) {
    case 'A.D.':
    case 'B.C.':
      return cased(p.pattern, y > 0 ? 'A.D.' : 'B.C.');
    case 'AD':
    case 'BC':
      return cased(p.pattern, y > 0 ? 'AD' : 'BC');
    case 'A.M.':
    case 'P.M.':
      return cased(p.pattern, hour >= 12 ? 'P.M.' : 'A.M.');
    case 'AM':
    case 'PM':
      return cased(p.pattern, hour >= 12 ? 'PM' : 'AM');
    case 'CC': {
      // a century BC counts down from -01 (Math.trunc: C's division in PostgreSQL's DCH_CC)
      const cc = y > 0 ? Math.floor((y - 1) / 100) + 1 : Math.trunc(y / 100) - 1;
      return cc >= 0 ? zeros(cc, 2, fm) : `-${zeros(-cc, 2, fm)}`;
    }
    case 'DAY':
      return fm ? cased(p.pattern, DAYS[d.getUTCDay()]) : cased(p.pattern, DAYS[d.getUTCDay()]).padEnd(9);
    case 'DY':
      return cased(p.pattern, DAYS[d.getUTCDay()].slice(0, 3));
    case 'DDD':
      return zeros(doy, 3, fm);
    case 'DD':
      return zeros(d.getUTCDate(), 2, fm);
    case 'D':
      return String(d.getUTCDay() + 1);
    case 'FF1':
    case 'FF2':
    case 'FF3':
    case 'FF4':
    case 'FF5':
    case 'FF6': {
      const n = Number(upper[2]);
      return String(Math.floor(micros / 10 ** (6 - n))).padStart(n, '0');
    }
    case 'FX':
      return '';
    case 'HH24':
      return zeros(hour, 2, fm);
    case 'HH12':
    case 'HH':
      return zeros(hour % 12 === 0 ? 12 : hour % 12, 2, fm);
    case 'IDDD': {
      const w = isoWeek(d).week;
      return zeros((w - 1) * 7 + (d.getUTCDay() === 0 ? 7 : d.getUTCDay()), 3, fm);
    }
    case 'ID':
      return String(d.getUTCDay() === 0 ? 7 : d.getUTCDay());
    case 'IW':
      return zeros(isoWeek(d).week, 2, fm);
    case 'IYYY':
      return zeros(isoYearOfEra(d), 4, fm);
    case 'IYY':
      return zeros(isoYearOfEra(d) % 1000, 3, fm);
    case 'IY':
      return zeros(isoYearOfEra(d) % 100, 2, fm);
    case 'I':
      return String(isoYearOfEra(d) % 10);
    case 'J':
      return String(Math.floor(dayStart / 86_400_000) + 2_440_588);
    case 'MI':
      return zeros(d.getUTCMinutes(), 2, fm);
    case 'MM':
      return zeros(month + 1, 2, fm);
    case 'MONTH':
      return fm ? cased(p.pattern, MONTHS[month]) : cased(p.pattern, MONTHS[month]).padEnd(9);
    case 'MON':
      return cased(p.pattern, MONTHS[month].slice(0, 3));
    case 'MS':
      return zeros(Math.floor(micros / 1000), 3, fm);
    case 'OF':
      if (t.shown) return offsetText(t.shown.offsetMs);
      return fm ? '+0' : '+00';
    case 'Q':
      return String(Math.floor(month / 3) + 1);
    case 'RM': {
      const r = cased(p.pattern, ROMAN[month]);
      return fm ? r : r.padEnd(4);
    }
    case 'SSSSS':
    case 'SSSS':
      return String(hour * 3600 + d.getUTCMinutes() * 60 + d.getUTCSeconds());
    case 'SS':
      return zeros(d.getUTCSeconds(), 2, fm);
    case 'TZH':
      return t.shown ? offsetText(t.shown.offsetMs).slice(0, 3) : '+00';
    case 'TZM':
      return t.shown ? String((Math.abs(t.shown.offsetMs) / 60_000) % 60).padStart(2, '0') : '00';
    case 'TZ':
      if (t.shown) return cased(p.pattern, t.shown.abbreviation);
      return t.tz ? cased(p.pattern, 'UTC') : '';
    case 'US':
      return zeros(micros, 6, fm);
    case 'WW':
      return zeros(Math.floor((doy - 1) / 7) + 1, 2, fm);
    case 'W':
      return String(Math.floor((d.getUTCDate() - 1) / 7) + 1);
    // a year BC prints as its number BC (y is astronomical: 0 is 1 BC), as PostgreSQL's ADJUST_YEAR
    case 'Y,YYY':
      return `${Math.floor(yearOfEra / 1000)},${String(yearOfEra % 1000).padStart(3, '0')}`;
    case 'YYYY':
      return zeros(yearOfEra, 4, fm);
    case 'YYY':
      return zeros(yearOfEra % 1000, 3, fm);
    case 'YY':
      return zeros(yearOfEra % 100, 2, fm);
    default:
      return String(yearOfEra % 10); // Y
  }
}

function formatInstantAs(t: Instant, fmt: string): string {
  const d = new Date(t.ms);
  let out = '';
  for (const piece of parseDateFormat(fmt)) {
    if (typeof piece === 'string') {
      out += piece;
      continue;
    }
    const s = datePattern(piece, t, d);
    out += piece.th && /\d$/.test(s) ? s + ordinal(s, piece.th === 'TH') : s;
  }
  return out;
}

/** A numeric format: its items in order and what they add up to. */
interface NumberFormat {
  items: string[];
  /** Digit positions before and after the decimal point. */
  pre: number;
  post: number;
  decimal: boolean;
  fm: boolean;
  /** The first integer position that prints 0 rather than blank (a '0' in the format), or -1. */
  zeroStart: number;
  /** Fraction digits FM keeps: up to the last '0' after the point. */
  zeroEnd: number;
  /** Where the sign goes: before the first digit, S before/after the number, MI/PL/SG items, <> for PR. */
  sign: 'default' | 'S-pre' | 'S-post' | 'items' | 'PR';
  /** PL without MI or SG: the default sign is written too (a blank before a positive number). */
  plOnly: boolean;
  th: 'TH' | 'th' | null;
}

const NUMBER_ITEMS = ['FM', 'fm', 'MI', 'mi', 'PL', 'pl', 'SG', 'sg', 'PR', 'pr', 'TH', 'th'];
const REFUSED_NUMBER_ITEMS = ['EEEE', 'eeee', 'RN', 'rn', 'V', 'v', 'L', 'l'];

function parseNumberFormat(fmt: string): NumberFormat {
  const f: NumberFormat = {
    items: [],
    pre: 0,
    post: 0,
    decimal: false,
    fm: false,
    zeroStart: -1,
    zeroEnd: 0,
    sign: 'default',
    plOnly: false,
    th: null,
  };
  let minus = false;
  let plus = false;
  let i = 0;
  while (i < fmt.length) {
    const refused = REFUSED_NUMBER_ITEMS.find((p) => fmt.startsWith(p, i));
    if (refused) throw sqlStateError('0A000', `to_char: the number pattern ${refused.toUpperCase()} is not supported`);
    const two = NUMBER_ITEMS.find((p) => fmt.startsWith(p, i));
    const c = fmt[i];
    if (two) {
      const u = two.toUpperCase();
      i += 2;
      if (u === 'FM') f.fm = true;
      else if (u === 'TH') f.th = two as 'TH' | 'th';
      else {
        if (u === 'MI' || u === 'SG') minus = true;
        if (u === 'PL' || u === 'SG') plus = true;
        if (u === 'PR') f.sign = 'PR';
        f.items.push(u);
      }
    } else if (c === '9' || c === '0') {
      if (c === '0' && !f.decimal && f.zeroStart < 0) f.zeroStart = f.pre;
      if (f.decimal) {
        f.post++;
        if (c === '0') f.zeroEnd = f.post;
      } else f.pre++;
      f.items.push(c);
      i++;
    } else if (c === '.' || c === 'D' || c === 'd') {
      if (f.decimal) throw sqlStateError('42601', 'multiple decimal points');
      f.decimal = true;
      f.items.push('.');
      i++;
    } else if (c === ',' || c === 'G' || c === 'g') {
      f.items.push(',');
      i++;
    } else if (c === 'S' || c === 's') {
      f.sign = f.pre === 0 && !f.decimal ? 'S-pre' : 'S-post';
      f.items.push('S');
      i++;
    } else if (c === '"') {
      const q = quoted(fmt, i);
      f.items.push(`"${q.text}`);
      i = q.end;
    } else {
      f.items.push(`"${c === '\\' && fmt[i + 1] === '"' ? fmt[++i] : c}`);
      i++;
    }
  }
  if (minus || plus) {
    if (f.sign !== 'default') throw sqlStateError('42601', 'cannot use "S" and "PL"/"MI"/"SG"/"PR" together');
    f.sign = 'items';
    f.plOnly = plus && !minus;
  }
  return f;
}

/** `int.frac` of |value| rounded half away from zero to `post` digits, and its sign. */
function roundedDigits(v: unknown, post: number): { neg: boolean; int: string; frac: string } {
  let text: string;
  if (typeof v === 'bigint') text = v.toString();
  else if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw sqlStateError('0A000', `to_char of ${v} is not supported`);
    text = Math.abs(v) >= 1e21 ? BigInt(Math.trunc(v)).toString() : v.toFixed(Math.min(100, post + 2));
  } else text = String(v);
  const dec = parseDecimal(text);
  if (!dec) throw sqlStateError('22P02', `to_char: ${JSON.stringify(text)} is neither a number nor a timestamp`);
  if (dec.special) throw sqlStateError('0A000', `to_char of ${dec.special} is not supported`);
  let digits = (dec.int.replace(/^0+/, '') || '0') + dec.frac.padEnd(post, '0');
  const extra = Math.max(0, dec.frac.length - post);
  if (extra > 0) {
    const dropped = digits.slice(digits.length - extra);
    digits = digits.slice(0, digits.length - extra);
    if (dropped[0] >= '5') {
      // add one to the last kept digit, carrying
      const arr = digits.split('');
      let k = arr.length - 1;
      while (k >= 0 && arr[k] === '9') arr[k--] = '0';
      if (k >= 0) arr[k] = String(Number(arr[k]) + 1);
      else arr.unshift('1');
      digits = arr.join('');
    }
  }
  const cut = digits.length - post;
  const int = digits.slice(0, cut).replace(/^0+(?=\d)/, '');
  const frac = digits.slice(cut);
  const neg = dec.neg && /[1-9]/.test(int + frac);
  return { neg, int, frac };
}

function formatNumberAs(v: unknown, fmt: string): string {
  const f = parseNumberFormat(fmt);
  let { neg, int, frac } = roundedDigits(v, f.post);
  if (int.length > f.pre) {
    int = '#'.repeat(f.pre);
    frac = '#'.repeat(f.post);
  }
  const sign = neg ? '-' : '+';
  const spaces = Math.max(0, f.pre - int.length);
  // FM drops fraction digits after the last non-zero one, but not those a '0' asks for
  let keepFrac = f.post;
  if (f.fm) {
    keepFrac = frac.replace(/0+$/, '').length;
    if (frac.startsWith('#')) keepFrac = f.post;
    keepFrac = Math.max(keepFrac, f.zeroEnd);
  }
  // a zero integer part prints blank when the number has a fraction and no '0' asks for it
  const blankZero = int === '0' && f.post > 0 && f.zeroStart < 0;
  let out = '';
  let signWritten = f.sign === 'items' && !f.plOnly;
  if (f.sign === 'default' && !neg && f.fm) signWritten = true;
  const bracket = f.sign === 'PR' && !(f.fm && !neg);
  let digitWritten = false;
  let slot = 0; // digit position in the format, integer positions then fraction ones
  let intPos = 0; // next character of `int`
  let fracPos = 0;
  const lastSlot = f.pre + (f.fm ? keepFrac : f.post) - 1;
  const writeSign = () => {
    if (signWritten) return;
    signWritten = true;
    if (f.sign === 'S-pre') out += sign;
    else if (bracket) out += neg ? '<' : ' ';
    else if (f.sign === 'S-post' || f.sign === 'PR') return;
    else if (neg) out += '-';
    else if (!f.fm) out += ' ';
  };
  const endOfNumber = () => {
    if (f.sign === 'S-post') out += sign;
    else if (bracket) out += neg ? '>' : ' ';
  };
  for (const item of f.items) {
    if (item === '9' || item === '0') {
      if (slot < f.pre) {
        const i = slot;
        if (i < spaces) {
          if (f.zeroStart >= 0 && i >= f.zeroStart) {
            writeSign();
            out += '0';
            digitWritten = true;
          } else if (!f.fm) out += ' ';
        } else {
          const ch = int[intPos++];
          if (blankZero) {
            if (!f.fm) out += ' ';
            else if (keepFrac === 0) out += '0';
          } else {
            writeSign();
            out += ch;
            digitWritten = true;
          }
        }
      } else {
        const k = slot - f.pre;
        if (k < keepFrac || item === '0') {
          out += frac[fracPos];
          digitWritten = true;
        }
        fracPos++;
      }
      if (slot === lastSlot) endOfNumber();
      slot++;
    } else if (item === '.') {
      writeSign();
      out += '.';
      if (f.pre + (f.fm ? keepFrac : f.post) === f.pre && slot === f.pre) endOfNumber();
    } else if (item === ',') {
      if (digitWritten) out += ',';
      else if (!f.fm) out += ' ';
    } else if (item === 'S') {
      // written beside the number
    } else if (item === 'MI') {
      if (neg) out += '-';
      else if (!f.fm) out += ' ';
    } else if (item === 'PL') {
      if (!neg) out += '+';
      else if (!f.fm) out += ' ';
    } else if (item === 'SG') out += sign;
    else if (item === 'PR') {
      // the brackets are written around the number
    } else out += item.slice(1);
  }
  if (f.th && !neg && /\d$/.test(int) && !f.decimal) out += ordinal(int, f.th === 'TH');
  return out;
}

/**
 * to_char(value, format); NULL in either gives NULL. `instant` when the value is a timestamp with
 * time zone (kept as UTC text without its '+00', so TZ must print UTC by the type); `utcName` the
 * abbreviation TZ prints when the session's zone is UTC under another name ('GMT' for 'GMT').
 */
export function toChar(
  v: unknown,
  fmt: unknown,
  instant = false,
  zone: string | null = null,
  utcName: string | null = null,
): string | null {
  if (v === null || v === undefined || fmt === null || fmt === undefined) return null;
  // an empty format: '' for a number, NULL for a date, time or interval, as PostgreSQL answers them
  if (fmt === '') return typeof v !== 'string' || /^\s*[+-]?(\d+\.?\d*|\.\d+|nan|inf(inity)?)\s*$/i.test(v) ? '' : null;
  const format = String(fmt);
  // a date or timestamp as stored (a year BC as '/9956')
  if (typeof v === 'string' && /^\s*(?:-?\d{4,}|\/\d{4})-\d/.test(v)) {
    const t = parseInstant(v, 'timestamp', 'to_char');
    if (!t) return null;
    // a date is formatted as a timestamp with time zone at midnight, as PostgreSQL's to_char(date) is
    if (instant || /^\s*(?:-?\d{4,}|\/\d{4})-\d{1,2}-\d{1,2}\s*$/.test(v)) t.tz = true;
    // a timestamptz with the session in a zone other than UTC: its wall time there
    if (instant && zone !== null) {
      const offsetMs = sessionOffsetMs(zone, t.ms);
      const shown = { offsetMs, abbreviation: zoneAbbreviation(zone, t.ms, offsetMs) };
      return formatInstantAs({ ms: t.ms + offsetMs, us: t.us, tz: true, shown }, format);
    }
    if (instant && utcName !== null)
      return formatInstantAs({ ...t, shown: { offsetMs: 0, abbreviation: utcName } }, format);
    return formatInstantAs(t, format);
  }
  // an infinite date or timestamp (kept as PostgreSQL prints it, lower case): NULL, as PostgreSQL's
  // to_char answers (a numeric's infinity is `Infinity`)
  if (v === 'infinity' || v === '-infinity') return null;
  // an interval as PostgreSQL prints it ('1 day 02:00:00', '-1 mons', '00:00:00'): its fields (interval-to-char.ts)
  if (typeof v === 'string' && /^\s*(@|[+-]?\d+\s+(day|mon|year|hour|min|sec)|[+-]?\d+:\d{2})/i.test(v))
    return intervalToChar(v, format);
  if (v instanceof Uint8Array) throw sqlStateError('42883', 'function to_char(bytea, text) does not exist');
  return formatNumberAs(v, format);
}

// to_date(text, format) and to_timestamp(text, format): the reverse, as PostgreSQL reads text by a
// format outside FX mode: spaces before a field skipped, a separator in the format matching any one
// separator of the text, a field followed at once by another field read at its width (YYYYMMDD).

const FIELD_WIDTH: Record<string, number> = lookup({
  YYYY: 4, YYY: 3, YY: 2, Y: 1, MM: 2, DD: 2, DDD: 3, HH24: 2, HH12: 2, HH: 2, MI: 2, SS: 2, MS: 3, US: 6,
  FF1: 1, FF2: 2, FF3: 3, FF4: 4, FF5: 5, FF6: 6,
}); // biome-ignore format: a table

const NAME_PATTERNS = new Set(['MONTH', 'MON', 'DAY', 'DY']);
const MERIDIANS = new Set(['AM', 'PM', 'A.M.', 'P.M.']);

/** The fields read from `text` by `fmt`; 22007 naming the field where the text does not fit. */
function readByFormat(text: string, fmt: string, fn: string) {
  // (no year field is year 0, astronomical: 1 BC, as PostgreSQL's to_date('', '') prints it)
  const f = {
    year: 0,
    hasYear: false,
    month: 1,
    day: 1,
    doy: 0,
    hour: 0,
    minute: 0,
    second: 0,
    micros: 0,
    pm: null as boolean | null,
  };
  const pieces = parseDateFormat(fmt);
  let at = 0;
  const isSep = (c: string | undefined) => c !== undefined && !/[\p{L}\p{N}]/u.test(c);
  for (let k = 0; k < pieces.length; k++) {
    const p = pieces[k];
    if (typeof p === 'string') {
      for (const c of p) {
        if (isSep(c)) {
          if (isSep(text[at])) at++;
        } else if (text[at]?.toLowerCase() === c.toLowerCase()) at++;
      }
      continue;
    }
    while (text[at] === ' ') at++;
    const up = p.pattern.toUpperCase();
    if (NAME_PATTERNS.has(up)) {
      const names = up.startsWith('MON') ? MONTHS : DAYS;
      const rest = text.slice(at).toLowerCase();
      const i = names.findIndex((n) =>
        rest.startsWith(up.length === 3 || up === 'DY' ? n.slice(0, 3).toLowerCase() : n.toLowerCase()),
      );
      if (i < 0) throw sqlStateError('22007', `invalid value "${text.slice(at, at + 9)}" for "${p.pattern}"`);
      at += up === 'MON' || up === 'DY' ? 3 : names[i].length;
      if (up.startsWith('MON')) f.month = i + 1;
      continue;
    }
    if (MERIDIANS.has(up)) {
      const m = /^([ap])\.?m\.?/i.exec(text.slice(at));
      if (!m) throw sqlStateError('22007', `invalid value "${text.slice(at, at + 4)}" for "${p.pattern}"`);
      f.pm = m[1].toLowerCase() === 'p';
      at += m[0].length;
      continue;
    }
    const width = FIELD_WIDTH[up];
    if (width === undefined) throw sqlStateError('0A000', `${fn}: the format pattern "${p.pattern}" is not supported`);
    const next = pieces[k + 1];
    const fixed = next !== undefined && typeof next !== 'string';
    const m = (fixed ? new RegExp(`^[+-]?\\d{1,${width}}`) : /^[+-]?\d+/).exec(text.slice(at));
    if (!m) throw sqlStateError('22007', `invalid value "${text.slice(at, at + width) || '(end)'}" for "${p.pattern}"`);
    at += m[0].length;
    const n = Number(m[0]);
    switch (up) {
      case 'YYYY':
      case 'YYY':
      case 'Y':
        f.year = n;
        f.hasYear = true;
        break;
      case 'YY':
        f.year = m[0].length <= 2 ? (n < 70 ? 2000 + n : 1900 + n) : n;
        f.hasYear = true;
        break;
      case 'MM':
        f.month = n;
        break;
      case 'DD':
        f.day = n;
        break;
      case 'DDD':
        f.doy = n;
        break;
      case 'HH24':
        f.hour = n;
        break;
      case 'HH':
      case 'HH12':
        if (n < 1 || n > 12)
          throw sqlStateError('22008', `hour "${n}" is invalid for the 12-hour clock; use the 24-hour clock`);
        f.hour = n % 12;
        break;
      case 'MI':
        f.minute = n;
        break;
      case 'SS':
        f.second = n;
        break;
      case 'MS':
        f.micros = Number(m[0].padEnd(3, '0')) * 1000;
        break;
      default: // US, FF1-FF6
        f.micros = Number(m[0].padEnd(6, '0').slice(0, 6));
    }
  }
  if (f.pm !== null) f.hour = (f.hour % 12) + (f.pm ? 12 : 0);
  return f;
}

function fromFields(f: ReturnType<typeof readByFormat>, text: string): Instant {
  if (f.doy) {
    if (!f.hasYear) throw sqlStateError('22007', 'cannot calculate day of year without year information');
    f.month = 1;
    f.day = f.doy;
  } else if (f.month < 1 || f.month > 12 || f.day < 1 || f.day > daysInMonth(f.year, f.month))
    throw sqlStateError('22008', `date/time field value out of range: "${text}"`);
  if (f.hour > 24 || f.minute > 59 || f.second > 60)
    throw sqlStateError('22008', `date/time field value out of range: "${text}"`);
  const ms = new Date(
    Date.UTC(2000, f.month - 1, f.day, f.hour, f.minute, f.second, Math.floor(f.micros / 1000)),
  ).setUTCFullYear(f.year);
  return { ms, us: f.micros % 1000, tz: true };
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];

/** to_date(text, format). */
export function toDate(v: unknown, fmt: unknown): string | null {
  if (v === null || v === undefined || fmt === null || fmt === undefined) return null;
  const t = fromFields(readByFormat(String(v), String(fmt), 'to_date'), String(v));
  return formatInstant(t, false).split(' ')[0];
}

/** to_timestamp(text, format): a timestamp with time zone (UTC). */
export function toTimestampByFormat(v: unknown, fmt: unknown): string | null {
  if (v === null || v === undefined || fmt === null || fmt === undefined) return null;
  return formatInstant(fromFields(readByFormat(String(v), String(fmt), 'to_timestamp'), String(v)), true);
}

export function installToChar(db: Database.Database): void {
  db.function('to_char', { deterministic: true }, (v: unknown, fmt: unknown) => toChar(v, fmt));
  db.function('__pg_to_char_tz', { deterministic: true }, (v: unknown, fmt: unknown) => toChar(v, fmt, true));
  // (with the session's zone when it is UTC under another name, 'GMT': TZ prints that name)
  db.function('__pg_to_char_tz', { deterministic: true }, (v: unknown, fmt: unknown, utcName: unknown) =>
    toChar(v, fmt, true, null, String(utcName)),
  );
  // (with the session's zone when it is not UTC: sql/session-zone.ts writes it in)
  db.function('__pg_to_char_in', { deterministic: true }, (v: unknown, fmt: unknown, zone: unknown) =>
    toChar(v, fmt, true, String(zone)),
  );
  db.function('to_date', { deterministic: true }, (v: unknown, fmt: unknown) => toDate(v, fmt));
  db.function('to_timestamp', { deterministic: true }, (v: unknown, fmt: unknown) => toTimestampByFormat(v, fmt));
}
