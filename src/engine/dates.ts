import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';
import { FIXED_ABBREVIATIONS, ZONE_ABBREVIATIONS } from './tz-abbreviations';
import { zoneFileAbbreviation } from './tz-file';
import { type PosixZone, posixAbbreviation, posixLeapSeconds, posixOffsetMs, posixZone } from './posix-zone';
import type { DateOrder } from './date-style';
import { clockMicrosText, clockStoredText, statementClockText, transactionClockText } from './micro-clock';
import { lookup } from '../lookup';

// PostgreSQL's date and time functions over SQLite's text timestamps ('2026-11-22 05:13:36'), for
// the PG dialect (date_trunc, extract, casts to date and timestamp, interval arithmetic, typed
// literals) and for anyone's SQL. Times are UTC: the session time zone is UTC. A timestamp with a
// zone ('...+02', '...Z') is converted to UTC and printed with '+00', as timestamptz is.

/** A point in time: whole milliseconds UTC, microseconds beyond them, and whether it carries a zone. */
export interface Instant {
  ms: number;
  us: number;
  tz: boolean;
  /** to_char's TZ and OF in a session zone other than UTC: the offset (ms shows the wall time) and the zone's abbreviation. */
  shown?: { offsetMs: number; abbreviation: string };
}

/** An error with a PostgreSQL SQLSTATE, as a user error (the PG front end reports the code). */
function pgFail(code: string, message: string): never {
  throw sqlStateError(code, message);
}

const TS_RE =
  /^\s*(\/?\d{4,})-(\d{1,2})-(\d{1,2})(?:(?:T|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*([+-]\d{1,2}(?::?\d{2})?|[a-z][\w/+-]*)?\s*$/i;
const TIME_RE = /^\s*(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*([+-]\d{1,2}(?::?\d{2})?|[a-z]+)?\s*$/i;

/** The days in month m (1-12) of astronomical year y (Date.UTC would read 0-99 as 1900-1999). */
function daysIn(y: number, m: number): number {
  if (m !== 2) return MONTH_DAYS[m - 1];
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
}
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Midnight of a day of astronomical year y (month 1-12), UTC milliseconds. */
const dayStart = (y: number, m: number, d: number) =>
  y >= 100 ? Date.UTC(y, m - 1, d) : new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(y, m - 1, d);

/** The first instant PostgreSQL's date and timestamp hold: 4714-11-24 BC, midnight UTC. */
const MIN_MS = new Date(Date.UTC(2000, 10, 24)).setUTCFullYear(-4713);
/** JavaScript's last instant, 275760-09-13 00:00 UTC (a Date after it is invalid). */
const MAX_MS = 8.64e15;
const DAY_MS = 86_400_000;

/** The zone whose date 'today', 'tomorrow' and 'yesterday' name (the PG session's while its statement is read); null: UTC. */
let dayZone: string | null = null;

/** Sets the zone of 'today' (null: UTC); returns the one before, to put back. */
export function setDayZone(zone: string | null): string | null {
  const before = dayZone;
  dayZone = zone;
  return before;
}

/**
 * How a PG session's text is read: DateStyle's field order for numeric dates ('01/02/2024'), and
 * '+sql' after it when IntervalStyle is sql_standard, where a leading minus carries over every field
 * of an interval that has no sign of its own ('-1 2:00:00' is -1 day -2 hours), as PostgreSQL's
 * DecodeInterval reads it. 'mdy' is PostgreSQL's default.
 */
export type InputStyle = DateOrder | `${DateOrder}+sql`;

/** The session's input style while its text is read. */
let dateOrder: DateOrder = 'mdy';
let sqlStandardIntervals = false;

/** An input style from SQL text (a per-row function's argument): 'mdy' for anything else. */
export function inputStyleOf(text: unknown): InputStyle {
  return typeof text === 'string' && /^(mdy|dmy|ymd)(\+sql)?$/.test(text) ? (text as InputStyle) : 'mdy';
}

/**
 * Runs `fn` (synchronous) reading text in input style `style`, as PostgreSQL's input under the
 * session's DateStyle and IntervalStyle: a statement's literals, Bind's parameters, COPY's rows, a
 * cast per row.
 */
export function withInputStyle<T>(style: InputStyle, fn: () => T): T {
  const order = style.slice(0, 3) as DateOrder;
  const sql = style.length > 3;
  if (order === dateOrder && sql === sqlStandardIntervals) return fn();
  const before = [dateOrder, sqlStandardIntervals] as const;
  dateOrder = order;
  sqlStandardIntervals = sql;
  try {
    return fn();
  } finally {
    [dateOrder, sqlStandardIntervals] = before;
  }
}

/** Whether text is a word whose value is the clock's ('now', 'today', 'tomorrow', 'yesterday'): read anew each time. */
export function isClockWord(text: string): boolean {
  return /^\s*(now|today|tomorrow|yesterday)\s*$/i.test(text);
}

/**
 * Special words of date and time input ('epoch', 'now', 'today', 'tomorrow', 'yesterday') as an
 * instant; undefined for other text. ('infinity' has no instant: the casts keep it as text.)
 */
function specialInstant(word: string): Instant | undefined {
  const c = word.charCodeAt(0);
  if (c >= 48 && c <= 57) return undefined; // a digit: the usual case, no word
  const now = Date.now();
  const today = Math.floor((dayZone === null ? now : now + sessionOffsetMs(dayZone, now)) / DAY_MS) * DAY_MS;
  switch (word) {
    case 'epoch':
      return { ms: 0, us: 0, tz: false };
    case 'now':
      return { ms: Date.now(), us: 0, tz: true };
    case 'today':
      return { ms: today, us: 0, tz: false };
    case 'tomorrow':
      return { ms: today + DAY_MS, us: 0, tz: false };
    case 'yesterday':
      return { ms: today - DAY_MS, us: 0, tz: false };
  }
  return undefined;
}

/** 'infinity' or '-infinity' (as PostgreSQL prints them) for text that names one, else undefined. */
function infinityWord(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const w = v.trim().toLowerCase();
  return w === 'infinity' ? 'infinity' : w === '-infinity' ? '-infinity' : undefined;
}

/**
 * The era ('BC', 'AD') and meridiem ('AM', 'PM') words taken out of date and time text, as
 * PostgreSQL reads them after the date or the time: '0044-03-15 10:30 PM BC' → '0044-03-15 10:30'.
 */
function takeEraAndMeridiem(s: string): { rest: string; bc: boolean; pm: boolean | undefined } {
  if (!/[a-z]{2}/i.test(s)) return { rest: s, bc: false, pm: undefined }; // no word: the usual case
  let bc = false;
  let pm: boolean | undefined;
  let rest = s.replace(/\s+(bc|ad)(?=\s|$)/i, (_, w: string) => {
    bc = w.toLowerCase() === 'bc';
    return '';
  });
  rest = rest.replace(/(\d)\s*(am|pm)(?=\s|[+-]|$)/i, (_, d: string, w: string) => {
    pm = w.toLowerCase() === 'pm';
    return d;
  });
  return { rest, bc, pm };
}

/** The hour on a 24-hour clock from one with AM or PM after it; 22008 above 12, as PostgreSQL. */
function meridiemHour(h: number, pm: boolean | undefined, v: string): number {
  if (pm === undefined) return h;
  if (h > 12) pgFail('22008', `date/time field value out of range: "${v}"`);
  return pm ? (h === 12 ? 12 : h + 12) : h === 12 ? 0 : h;
}

/**
 * The instant of a wall time (UTC milliseconds as if the zone were UTC) read in the zone the text
 * names: an offset ('+05:30', '+0530', '-8'), an abbreviation of PostgreSQL's 'Default' set ('EST',
 * 'CEST', 'Z'; 'MSK' and the others it defines by a zone, with the offset the zone used under it at
 * that time), or a zone name ('Europe/Berlin', 'Japan'). 22007 (`type`'s invalid input) for a word
 * that is none of these, 22023 for a name with a '/' that no zone has, as PostgreSQL answers.
 */
function zonedInstant(zone: string, wall: number, type: string, v: string): number {
  const num = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(zone);
  if (num) return wall - (num[1] === '-' ? -1 : 1) * (Number(num[2]) * 60 + Number(num[3] ?? 0)) * 60_000;
  const word = zone.toLowerCase();
  const fixed = FIXED_ABBREVIATIONS[word];
  if (fixed !== undefined) return wall - fixed * 1000;
  const dynamic = ZONE_ABBREVIATIONS[word];
  if (dynamic) {
    // PostgreSQL's pg_interpret_timezone_abbrev: the meaning in use at or last before the instant
    // the wall time is in the zone, else the first after; the zone's own offset when never used
    const at = wallTimeInstant(dynamic.zone, wall);
    if (dynamic.history.length === 0) return at;
    let off = dynamic.history[0][1];
    for (const [from, o] of dynamic.history) if (from * 1000 <= at) off = o;
    return wall - off * 1000;
  }
  if (/^[a-z]+$/.test(word)) {
    // an unknown word is tried as a zone name ('Japan'), then refused as PostgreSQL's input is
    try {
      return wallTimeInstant(zone, wall);
    } catch {
      pgFail('22007', `invalid input syntax for type ${type}: "${v}"`);
    }
  }
  try {
    return wallTimeInstant(zone, wall);
  } catch {
    pgFail('22023', `time zone "${word}" not recognized`);
  }
}

/**
 * Reads a timestamp, a date or PostgreSQL's special words; `type` names the type in errors. With
 * `dropZone` a zone in the text is ignored, as PostgreSQL's date, time and timestamp inputs do. Years
 * BC ('0044-03-15 BC', or the stored form '/9956-03-15') are astronomical years in the instant (1 BC
 * is year 0), as JavaScript's dates count them.
 */
export function parseInstant(v: unknown, type: string, fn: string, dropZone = false): Instant | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') {
    const what = typeof v === 'number' || typeof v === 'bigint' ? `the number ${v}` : 'a blob';
    pgFail(
      '22007',
      `${fn}: expected a ${type} (text such as '2026-11-22 05:13:36'), got ${what}; to_timestamp() turns epoch seconds into a timestamp`,
    );
  }
  const special = specialInstant(v.trim().toLowerCase());
  if (special) return special;
  const { rest, pm, bc: era } = takeEraAndMeridiem(v);
  const bc = era && !/^\s*(?:j|jd|julian)\s*\d/i.test(rest); // a Julian day ignores BC, as PostgreSQL's
  const text = basicTimeText(rest);
  // (a basic time's fields are not checked: PostgreSQL's DecodeNumberField carries them over,
  // '20240229 236000' is the next midnight)
  const basic = text !== rest;
  const m = TS_RE.exec(text) ?? TS_RE.exec(isoDateText(text, bc));
  if (!m) pgFail('22007', `invalid input syntax for type ${type}: "${v}"`);
  const [mo, d, h, mi, s] = [+m[2], +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)];
  const stored = m[1].startsWith('/');
  // the stored form of a year BC is 10000 minus it after a '/' (so that text order is time order)
  let y = stored ? 1 - (10_000 - Number(m[1].slice(1))) : Number(m[1]);
  if (bc) y = stored || y === 0 ? Number.NaN : 1 - y;
  const hour = meridiemHour(h, pm, v);
  const micros = m[7] ? Math.round(Number(`0.${m[7]}`) * 1e6) : 0; // rounded to microseconds, as PostgreSQL does
  const outOfRange = `date/time field value out of range: "${v}"`;
  if (
    Number.isNaN(y) ||
    (y === 0 && !bc && !stored) ||
    (!basic && (hour > 24 || mi > 59 || s > 60 || (hour === 24 && (mi > 0 || s > 0 || micros > 0))))
  ) {
    pgFail('22008', outOfRange);
  }
  // a month or day no month has (not a day past this month's end) may be the fields read in the
  // wrong order: PostgreSQL's DTERR_MD_FIELD_OVERFLOW, with its HINT
  if (mo < 1 || mo > 12 || d < 1 || d > 31)
    throw sqlStateError('22008', outOfRange, 'user', 'Perhaps you need a different "datestyle" setting.');
  if (d > daysIn(y, mo)) pgFail('22008', outOfRange);
  // (a date is its date fields, whatever the time: '2024-02-29 24:00'::date is 2024-02-29, as date_in reads it)
  const wall =
    type === 'date'
      ? dayStart(y, mo, d)
      : dayStart(y, mo, d) + ((hour * 60 + mi) * 60 + s) * 1000 + Math.floor(micros / 1000);
  const zone = m[8];
  // a zone is read even where it is dropped, so a word that is none is refused as PostgreSQL does
  const zoned = zone ? zonedInstant(zone, wall, type, v) : wall;
  const ms = dropZone ? wall : zoned;
  if (ms < MIN_MS || wall < MIN_MS) pgFail('22008', `${type === 'date' ? 'date' : 'timestamp'} out of range: "${v}"`);
  // past JavaScript's last instant (275760-09-13) a Date has no fields: the value was stored as
  // '/0NaN-NaN-NaN'. Past PostgreSQL's last date (5874897-12-31) or timestamp (294276-12-31) it is
  // 22008 as there; between the two Patina has no form for it (nor one that sorts after 9999)
  if (!(ms <= MAX_MS) || !(wall <= MAX_MS)) {
    if (y > (type === 'date' ? 5874897 : 294276))
      pgFail('22008', `${type === 'date' ? 'date' : 'timestamp'} out of range: "${v}"`);
    pgFail('0A000', `${type} "${v}" is not supported: Patina's dates and timestamps end at 275760-09-13`);
  }
  return { ms, us: micros % 1000, tz: zone !== undefined };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * ISO 8601's basic time after a date (its digits run together or ISO's): '20240229 103000',
 * '20240229T1030', '2024-02-29T103000.5Z', as PostgreSQL's DecodeNumberField reads six digits
 * (hours, minutes, seconds) or four (hours, minutes), with the time in ISO's extended form; other
 * text unchanged.
 */
function basicTimeText(v: string): string {
  return v.replace(
    /^(\s*(?:\d{6}|\d{8}|\d{4}-\d\d-\d\d))(?:\s*T|\s+T?)(\d\d)(\d\d)(\d\d)?(?=$|[.\s+-]|z$)/i,
    (_, date: string, h: string, mi: string, s: string | undefined) => `${date} ${h}:${mi}:${s ?? '00'}`,
  );
}

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** A month's number from its name or its abbreviation of three letters ('sept' too), as PostgreSQL's datetktbl names them; 0 when none. */
function monthNumber(w: string): number {
  const l = w.toLowerCase();
  if (l === 'sept') return 9;
  return MONTH_NAMES.findIndex((n) => n === l || n.slice(0, 3) === l) + 1;
}

/**
 * Other forms PostgreSQL's date input reads, as ISO text for TS_RE: digits run together ('20240229',
 * '990108': the last two the day, two before them the month), a month's name with two numbers
 * ('January 8, 1999', '1999-Jan-08', '08-Jan-99', monthDateText), a year and its day of the year
 * ('1999.008'), three numbers in DateStyle's order ('02/29/2024', '29.02.2024', numericDateText),
 * each with a time and a zone after it or not; 'Tue Jan 02 10:00:00 2024 PST' (DateStyle Postgres's
 * output); a Julian day. `bc`: the text said BC, whose year of two digits is that year (99 BC), as
 * PostgreSQL's ValidateDate. The text unchanged when it is none of these (the caller then refuses it).
 */
function isoDateText(v: string, bc: boolean): string {
  let s = v.trim();
  let m: RegExpExecArray | null;
  let md: ReturnType<typeof monthDate>;
  if ((m = /^(\d{2,4})(\d{2})(\d{2})(?=$|[T\s])(.*)$/.exec(s)))
    // (a time run together after 'T' too: '20240229T103000')
    s = `${pad(twoDigitYear(m[1], bc), 4)}-${m[2]}-${m[3]}${m[4].replace(/^T(\d\d)(\d\d)(\d\d)(?=$|[.\s+-])/i, ' $1:$2:$3')}`;
  else if ((md = monthDate(s)) && md.month) s = monthDateText(md.month, md.a, md.b, md.rest, bc);
  else if ((m = /^(\d+)[/.-](\d{3})(?=$|\s)(.*)$/.exec(s))) s = dayOfYearText(m[1], Number(m[2]), m[3], bc) ?? s;
  else if ((m = /^(\d{1,4})([/.-])(\d{1,4})\2(\d{1,4})(?=$|\s)(.*)$/.exec(s))) s = numericDateText(m, bc);
  else if ((m = POSTGRES_STYLE.exec(s)) && monthNumber(m[1] ?? m[4]))
    s = `${m[6]}-${pad(monthNumber(m[1] ?? m[4]))}-${pad(Number(m[2] ?? m[3]))} ${m[5]}${m[7]}`;
  else if ((m = /^(?:j|jd|julian)\s*(\d+)(\.\d+)?(?=$|\s)(.*)$/i.exec(s))) s = julianText(m[1], m[2], m[3]);
  return s;
}

/**
 * A month's name and two numbers: the name first ('Jan 08, 1999', 'Jan-08-99', 'January 8 99') or
 * between them ('08-Jan-1999', '1999 Jan 08', '1999/Jan/08'), apart or in one word, whose separators
 * are '-', '/' or '.' (one of them throughout when a number begins it), as PostgreSQL's ParseDateTime
 * reads a date's word; null for other text. The numbers in their order, then the rest.
 */
function monthDate(s: string): { month: number; a: string; b: string; rest: string } | null {
  const m =
    /^([a-z]{3,9})(?:[/.-](\d+)[/.-]|\.?\s+(\d+),?\s+)(\d+)(?=$|\s)(.*)$/i.exec(s) ??
    /^(\d+)(?:([/.-])([a-z]{3,9})\2|\s+([a-z]{3,9})\.?\s+)(\d+)(?=$|\s)(.*)$/i.exec(s);
  if (!m) return null;
  if (m.length === 6) return { month: monthNumber(m[1]), a: m[2] ?? m[3], b: m[4], rest: m[5] };
  return { month: monthNumber(m[3] ?? m[4]), a: m[1], b: m[5], rest: m[6] };
}

/**
 * A date of a month's name and two numbers as ISO text, read as PostgreSQL's DecodeNumber reads them
 * with a textual month: the first number is the year when it has three digits or more or in YMD, else
 * the day; the second is then the other, except that a year of two digits before one of three or more
 * was the day after all ('Jan 08 1999' in YMD). A year of two digits is 1970-2069 (not with BC).
 */
function monthDateText(month: number, a: string, b: string, rest: string, bc: boolean): string {
  let [year, day] = a.length >= 3 || dateOrder === 'ymd' ? [a, b] : [b, a];
  if (year === a && year.length <= 2 && b.length >= 3) [year, day] = [b, a];
  return `${pad(twoDigitYear(year, bc), 4)}-${pad(month)}-${dayField(day)}${rest}`;
}

/**
 * A year and a day of it ('1999.008', '2024-032': the day of the year has three digits, 1-366, and
 * may run into the next year) as ISO text, where the first number is a year (three digits or more,
 * or any in YMD), as PostgreSQL's DecodeNumber reads it; undefined otherwise (refused: no day).
 */
function dayOfYearText(y: string, doy: number, rest: string, bc: boolean): string | undefined {
  if ((y.length < 3 && dateOrder !== 'ymd') || doy < 1 || doy > 366) return undefined;
  const d = new Date(dayStart(twoDigitYear(y, bc), 1, 1) + (doy - 1) * DAY_MS);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}${rest}`;
}

/** A year as written: one of one or two digits is 1970-2069, as PostgreSQL reads it (not with BC: '99 BC'). */
function twoDigitYear(y: string, bc: boolean): number {
  const n = Number(y);
  return y.length <= 2 && !bc ? n + (n < 70 ? 2000 : 1900) : n;
}

/** A month or day field: two digits; one of three digits or more is out of range, as PostgreSQL says (22008 with its HINT). */
const dayField = (x: string) => (x.length > 2 ? '00' : pad(Number(x)));

/**
 * DateStyle Postgres's output, read back: 'Tue Jan 02 10:00:00.5 2024 PST' (MDY, YMD) and 'Tue 02
 * Jan 10:00:00 2024' (DMY), the day of the week left out or not.
 */
const POSTGRES_STYLE =
  /^(?:(?:sun|mon|tue|wed|thu|fri|sat)[a-z]*,?\s+)?(?:([a-z]{3,9})\.?\s+(\d{1,2})|(\d{1,2})\s+([a-z]{3,9})\.?)\s+(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s+(\d{4,})(?=$|\s)(.*)$/i;

/**
 * A date of three numbers ('01/02/2024', '02.01.24', '2024/01/02') as ISO text, read as
 * PostgreSQL's DecodeNumber reads them: a first field of three digits or more is the year, else
 * the fields are in the session's DateStyle order; a year of one or two digits is 1970-2069.
 */
function numericDateText(m: RegExpExecArray, bc: boolean): string {
  const [a, b, c] = [m[1], m[3], m[4]];
  const [y, mo, d] = a.length >= 3 || dateOrder === 'ymd' ? [a, b, c] : dateOrder === 'dmy' ? [c, b, a] : [c, a, b];
  return `${pad(twoDigitYear(y, bc), 4)}-${dayField(mo)}-${dayField(d)}${m[5]}`;
}

/**
 * A Julian day ('J2451187', 'J2451187.5': day 0 is 4714-11-24 BC, its fraction the time of day), as
 * PostgreSQL's date input reads it, in the form TS_RE reads (a year BC stored as '/dddd'), `rest` after it.
 */
function julianText(day: string, fraction: string | undefined, rest: string): string {
  const d = new Date((Number(day) - 2_440_588) * DAY_MS);
  // past JavaScript's dates (275760 years): let the caller refuse the text
  if (Number.isNaN(d.getTime())) return `J${day}`;
  const date = `${yearText(d.getUTCFullYear())}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (fraction === undefined) return date + rest;
  const us = Math.round(Number(`0${fraction}`) * 86_400_000_000);
  const clock = `${pad(Math.floor(us / 3.6e9))}:${pad(Math.floor(us / 6e7) % 60)}:${pad(Math.floor(us / 1e6) % 60)}`;
  return `${date} ${clock}.${pad(us % 1e6, 6)}${rest}`;
}

/**
 * A year as stored: four digits AD; a year BC as '/' and 10000 minus it ('/9956' for 44 BC), so that
 * the text order of stored dates is their time order ('-infinity' < BC < AD < 'infinity').
 */
function yearText(y: number): string {
  if (y > 0) return pad(y, 4);
  if (y < -4713) pgFail('22008', 'date out of range');
  return `/${pad(10_000 - (1 - y), 4)}`;
}

function formatDate(d: Date): string {
  return `${yearText(d.getUTCFullYear())}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** The time of day: '05:13:36.25'. */
function clockText(t: Instant, d = new Date(t.ms)): string {
  const s = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const micros = d.getUTCMilliseconds() * 1000 + t.us;
  return micros > 0 ? `${s}.${pad(micros, 6).replace(/0+$/, '')}` : s;
}

/** The stored text form: '2026-11-22 05:13:36.25', with '+00' for a timestamp with a zone. */
export function formatInstant(t: Instant, withZone = t.tz): string {
  const d = new Date(t.ms);
  const s = `${formatDate(d)} ${clockText(t, d)}`;
  return withZone ? s + '+00' : s;
}

/** Stored date or timestamp text as PostgreSQL prints it: a year BC ('/9956-03-15') as '0044-03-15 BC'. */
function printedText(stored: string): string {
  if (!stored.startsWith('/')) return stored;
  return `${pad(10_000 - Number(stored.slice(1, 5)), 4)}${stored.slice(5)} BC`;
}

/** Unit names as PostgreSQL reads them (singular, plural and abbreviations) → one canonical name. */
const UNITS: Record<string, string> = lookup({});
for (const [canon, names] of Object.entries({
  microseconds: ['microsecond', 'microseconds', 'usec', 'usecs', 'us'],
  milliseconds: ['millisecond', 'milliseconds', 'msec', 'msecs', 'ms'],
  second: ['second', 'seconds', 'sec', 'secs', 's'],
  minute: ['minute', 'minutes', 'min', 'mins', 'm'],
  hour: ['hour', 'hours', 'hr', 'hrs', 'h'],
  day: ['day', 'days', 'd'],
  week: ['week', 'weeks', 'w'],
  month: ['month', 'months', 'mon', 'mons'],
  quarter: ['quarter', 'quarters', 'qtr'],
  year: ['year', 'years', 'yr', 'yrs', 'y'],
  decade: ['decade', 'decades', 'dec'],
  century: ['century', 'centuries', 'c', 'cent'],
  millennium: ['millennium', 'millennia', 'mil', 'mils'],
}))
  for (const n of names) UNITS[n] = canon;

/** Words PostgreSQL's date_part and date_trunc know besides the units above: fields, and the reserved words. */
const OTHER_UNIT_WORDS = new Set(
  'dow doy isodow isoyear julian j jd epoch timezone timezone_h timezone_m timezone_hour timezone_minute now today tomorrow yesterday infinity -infinity allballs'.split(
    ' ',
  ),
);

/** Whether date_part or date_trunc knows the word as a unit (one they may still not take for a type: 0A000). */
export function isDateUnit(word: string): boolean {
  const w = word.trim().toLowerCase();
  return UNITS[w] !== undefined || OTHER_UNIT_WORDS.has(w);
}

/** Whether date_trunc knows the word as a unit (its table has no fields such as dow, nor reserved words). */
export function isTruncUnit(word: string): boolean {
  const w = word.trim().toLowerCase();
  return UNITS[w] !== undefined || /^timezone(_h|_m|_hour|_minute)?$/.test(w);
}

/**
 * PostgreSQL's error for a unit date_part or date_trunc does not take for `type` (its name as
 * format_type prints it): 22023 `unit "abc" not recognized for type ...` for a word it does not
 * know, 0A000 `... not supported for type ...` for a unit of another type. The unit as PostgreSQL
 * prints it: its ASCII letters lower-cased, nothing trimmed.
 */
function unitFail(unit: unknown, type: string, known = isDateUnit): never {
  const shown = String(unit).replace(/[A-Z]/g, (c) => c.toLowerCase());
  return known(String(unit))
    ? pgFail('0A000', `unit "${shown}" not supported for type ${type}`)
    : pgFail('22023', `unit "${shown}" not recognized for type ${type}`);
}

/** The type a date or time value's error names when the statement does not tell: an interval's text, else a timestamp. */
const typeOfTimeValue = (v: unknown): string =>
  typeof v === 'string' && !TS_RE.test(v) && !specialInstant(v.trim().toLowerCase()) && !infinityWord(v)
    ? 'interval'
    : 'timestamp without time zone';

function unitOf(v: unknown, type: string): string {
  const u = UNITS[String(v).trim().toLowerCase()];
  if (!u) unitFail(v, type, isTruncUnit);
  return u;
}

/**
 * date_trunc(unit, interval) as PostgreSQL's interval_trunc cuts it: the interval split into years,
 * months, days, hours, minutes, seconds and microseconds (each with its own sign, as C divides),
 * the fields below `unit` zeroed. A time is cut as the interval it casts to (`date_trunc('hour',
 * time '10:30')` is the interval 10:00:00). A week is no unit of an interval (0A000 with DETAIL).
 */
function intervalTrunc(unit: unknown, v: unknown): string | null {
  const u = unitOf(unit, 'interval');
  const iv = parseInterval(v);
  if (!iv) return null;
  if (u === 'week') {
    const err = sqlStateError('0A000', 'unit "week" not supported for type interval');
    err.detail = 'Months usually have fractional weeks.';
    throw err;
  }
  let year = Math.trunc(iv.months / 12);
  let mon = iv.months % 12;
  let days = iv.days;
  let hour = Math.trunc(iv.micros / 3_600_000_000);
  let min = Math.trunc((iv.micros % 3_600_000_000) / 60_000_000);
  let sec = Math.trunc((iv.micros % 60_000_000) / 1_000_000);
  let fsec = iv.micros % 1_000_000;
  const order = ['millennium', 'century', 'decade', 'year', 'quarter', 'month', 'day', 'hour', 'minute', 'second'];
  const from = order.indexOf(u);
  // (each unit cuts its own field and falls through to those below, as interval_trunc's switch)
  const cuts: (() => void)[] = [
    () => (year = Math.trunc(year / 1000) * 1000),
    () => (year = Math.trunc(year / 100) * 100),
    () => (year = Math.trunc(year / 10) * 10),
    () => (mon = 0),
    () => (mon = 3 * Math.trunc(mon / 3)),
    () => (days = 0),
    () => (hour = 0),
    () => (min = 0),
    () => (sec = 0),
    () => (fsec = 0),
  ];
  if (from >= 0) for (const cut of cuts.slice(from)) cut();
  else if (u === 'milliseconds') fsec = Math.trunc(fsec / 1000) * 1000;
  return formatInterval({
    months: year * 12 + mon,
    days,
    micros: ((hour * 60 + min) * 60 + sec) * 1_000_000 + fsec,
  });
}

/** date_trunc(unit, timestamp): the timestamp with everything below `unit` zeroed. */
export function dateTrunc(unit: unknown, v: unknown, type?: string): string | null {
  if (unit === null || v === null || v === undefined) return null;
  // (of an interval or a time, marked so by the analysis: typed-operators.ts)
  if (type === 'interval') return intervalTrunc(unit, v);
  // an infinity is itself, its unit not read (PostgreSQL's timestamp_trunc; it was 22007)
  const inf = infinityWord(v);
  if (inf) return inf;
  const u = unitOf(unit, type ?? typeOfTimeValue(v));
  const t = parseInstant(v, 'timestamp', 'date_trunc');
  if (!t) return null;
  if (u === 'microseconds') return formatInstant(t);
  const d = new Date(t.ms);
  const y = d.getUTCFullYear();
  const start = (yy: number, mo = 0, dd = 1) => {
    const x = new Date(Date.UTC(2000, mo, dd));
    x.setUTCFullYear(yy);
    return x.getTime();
  };
  let ms: number;
  switch (u) {
    case 'milliseconds':
      ms = t.ms;
      break;
    case 'second':
      ms = Math.floor(t.ms / 1000) * 1000;
      break;
    case 'minute':
      ms = Math.floor(t.ms / 60_000) * 60_000;
      break;
    case 'hour':
      ms = Math.floor(t.ms / 3_600_000) * 3_600_000;
      break;
    case 'day':
      ms = Math.floor(t.ms / 86_400_000) * 86_400_000;
      break;
    case 'week':
      ms = (Math.floor(t.ms / 86_400_000) - ((d.getUTCDay() + 6) % 7)) * 86_400_000;
      break; // Monday
    case 'month':
      ms = start(y, d.getUTCMonth());
      break;
    case 'quarter':
      ms = start(y, Math.floor(d.getUTCMonth() / 3) * 3);
      break;
    case 'year':
      ms = start(y);
      break;
    case 'decade':
      ms = start(Math.floor(y / 10) * 10);
      break;
    case 'century':
      ms = start(Math.floor((y - 1) / 100) * 100 + 1);
      break;
    default:
      ms = start(Math.floor((y - 1) / 1000) * 1000 + 1);
      break; // millennium
  }
  return formatInstant({ ms, us: 0, tz: t.tz });
}

/**
 * extract(epoch from x) of a timestamp or an interval as exact decimal text with microseconds'
 * digits ('-62135596799.999999'), as PostgreSQL's numeric gives it: a double's 17 digits cannot
 * hold that far from 1970. An interval counts a year as 365.25 days and a month as 30, as there.
 */
export function exactEpoch(v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  let micros: bigint;
  if (typeof v === 'string' && !TS_RE.test(v) && !specialInstant(v.trim().toLowerCase())) {
    if (infinityWord(v)) return datePart('epoch', v);
    const iv = parseInterval(v)!;
    const years = BigInt(Math.trunc(iv.months / 12));
    const days = 1461n * years + 120n * BigInt(iv.months % 12) + 4n * BigInt(iv.days); // in quarter days
    micros = days * 21_600_000_000n + BigInt(iv.micros);
  } else {
    const t = parseInstant(v, 'timestamp', 'date_part');
    if (!t) return null;
    micros = BigInt(t.ms) * 1000n + BigInt(t.us);
  }
  const neg = micros < 0n;
  const abs = (neg ? -micros : micros).toString().padStart(7, '0');
  return `${neg ? '-' : ''}${abs.slice(0, -6)}.${abs.slice(-6)}`;
}

/** ISO 8601 week number and its year. */
export function isoWeek(d: Date): { week: number; year: number } {
  const day = Math.floor(d.getTime() / 86_400_000) * 86_400_000;
  const thursday = new Date(day + (3 - ((d.getUTCDay() + 6) % 7)) * 86_400_000);
  const jan1 = new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(thursday.getUTCFullYear()); // Date.UTC reads 0-99 as 1900s
  return { week: Math.floor((thursday.getTime() - jan1) / 86_400_000 / 7) + 1, year: thursday.getUTCFullYear() };
}

/** date_part(field, timestamp) and EXTRACT(field FROM timestamp). */
export function datePart(field: unknown, v: unknown, type?: string): number | null {
  if (field === null || v === null || v === undefined) return null;
  const f = String(field).trim().toLowerCase();
  // (a word no type takes: PostgreSQL's 22023 naming the value's type, before anything else)
  if (!isDateUnit(f)) unitFail(field, type ?? typeOfTimeValue(v));
  // an infinite timestamp: the fields that grow with time are infinite too, the others NULL, as in PostgreSQL
  const inf = infinityWord(v);
  if (inf !== undefined)
    return ['epoch', 'julian', 'year', 'isoyear', 'decade', 'century', 'millennium'].includes(UNITS[f] ?? f)
      ? inf === 'infinity'
        ? Number.POSITIVE_INFINITY
        : Number.NEGATIVE_INFINITY
      : null;
  // an interval ('1 day 02:00:00', what timestamp - timestamp gives): its fields, as PostgreSQL reads them
  if (typeof v === 'string' && !TS_RE.test(v) && !specialInstant(v.trim().toLowerCase()))
    return intervalPart(f, field, v);
  const t = parseInstant(v, 'timestamp', 'date_part');
  if (!t) return null;
  const d = new Date(t.ms);
  const y = d.getUTCFullYear();
  const secs = d.getUTCSeconds() + d.getUTCMilliseconds() / 1000 + t.us / 1e6;
  switch (
    f === 'epoch' ||
    f === 'dow' ||
    f === 'isodow' ||
    f === 'doy' ||
    f === 'isoyear' ||
    f === 'julian' ||
    f.startsWith('timezone')
      ? f
      : UNITS[f]
  ) {
    case 'epoch':
      return t.ms / 1000 + t.us / 1e6;
    case 'microseconds':
      return d.getUTCSeconds() * 1e6 + d.getUTCMilliseconds() * 1000 + t.us;
    case 'milliseconds':
      return d.getUTCSeconds() * 1000 + d.getUTCMilliseconds() + t.us / 1000;
    case 'second':
      return secs;
    case 'minute':
      return d.getUTCMinutes();
    case 'hour':
      return d.getUTCHours();
    case 'day':
      return d.getUTCDate();
    case 'dow':
      return d.getUTCDay();
    case 'isodow':
      return d.getUTCDay() === 0 ? 7 : d.getUTCDay();
    case 'doy':
      // (Date.UTC would read years 0-99 as 1900-1999)
      return Math.floor(t.ms / DAY_MS) - Math.floor(new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(y) / DAY_MS) + 1;
    case 'week':
      return isoWeek(d).week;
    case 'isoyear': {
      const iy = isoWeek(d).year;
      return iy > 0 ? iy : iy - 1;
    }
    case 'month':
      return d.getUTCMonth() + 1;
    case 'quarter':
      return Math.floor(d.getUTCMonth() / 3) + 1;
    // years BC count down from -1 (y is astronomical: 0 is 1 BC), as PostgreSQL's timestamp_part
    case 'year':
      return y > 0 ? y : y - 1;
    case 'decade':
      return y > 0 ? Math.floor(y / 10) : -Math.floor((8 - (y - 1)) / 10);
    case 'century':
      return y > 0 ? Math.floor((y + 99) / 100) : -Math.floor((99 - (y - 1)) / 100);
    case 'millennium':
      return y > 0 ? Math.floor((y + 999) / 1000) : -Math.floor((999 - (y - 1)) / 1000);
    case 'julian':
      // the Julian day: 2440588 is 1970-01-01, and the time of day its fraction
      return (
        2_440_588 +
        Math.floor(t.ms / 86_400_000) +
        (((t.ms % 86_400_000) + 86_400_000) % 86_400_000) / 86_400_000 +
        t.us / 8.64e10
      );
    case 'timezone':
    case 'timezone_hour':
    case 'timezone_minute':
      return 0;
    default:
      return unitFail(field, type ?? 'timestamp without time zone');
  }
}

/** date_part of an interval: epoch counts a year as 365.25 days and a month as 30, as PostgreSQL does. */
function intervalPart(f: string, field: unknown, v: string): number {
  const iv = parseInterval(v)!;
  const secs = Math.trunc(iv.micros / 1e6);
  const fracUs = iv.micros - secs * 1e6;
  const years = Math.trunc(iv.months / 12);
  switch (f === 'epoch' ? f : UNITS[f]) {
    case 'epoch':
      return iv.micros / 1e6 + years * 365.25 * 86_400 + (iv.months % 12) * 30 * 86_400 + iv.days * 86_400;
    case 'microseconds':
      return (secs % 60) * 1e6 + fracUs;
    case 'milliseconds':
      return (secs % 60) * 1000 + fracUs / 1000;
    case 'second':
      return (secs % 60) + fracUs / 1e6;
    case 'minute':
      return Math.trunc(secs / 60) % 60;
    case 'hour':
      return Math.trunc(secs / 3600);
    case 'day':
      return iv.days;
    case 'month':
      return iv.months % 12;
    case 'quarter':
      return Math.trunc((iv.months % 12) / 3) + 1;
    case 'year':
      return years;
    case 'decade':
      return Math.trunc(years / 10);
    case 'century':
      return Math.trunc(years / 100);
    case 'millennium':
      return Math.trunc(years / 1000);
    default:
      return unitFail(field, 'interval');
  }
}

/** An interval as PostgreSQL keeps it: months, days and microseconds, each signed. */
export interface Interval {
  months: number;
  days: number;
  micros: number;
}

const PER_UNIT: Record<string, [keyof Interval, number]> = lookup({
  microseconds: ['micros', 1],
  milliseconds: ['micros', 1000],
  second: ['micros', 1e6],
  minute: ['micros', 6e7],
  hour: ['micros', 3.6e9],
  day: ['days', 1],
  week: ['days', 7],
  month: ['months', 1],
  quarter: ['months', 3],
  year: ['months', 12],
  decade: ['months', 120],
  century: ['months', 1200],
  millennium: ['months', 12000],
});

/** Reads PostgreSQL interval text: '7 days', '-30 day', '1 month - 1 day', '1 year 2 mons', '1 day 02:00:00', '@ 3 hours ago'. */
export function parseInterval(v: unknown): Interval | null {
  if (v === null || v === undefined) return null;
  const text = String(v);
  const iso = isoInterval(text);
  if (iso !== undefined) return iso;
  const iv: Interval = { months: 0, days: 0, micros: 0 };
  // a sign may stand apart from its number ('1 month - 1 day', what Metabase writes for a month's end)
  const words = text
    .trim()
    .toLowerCase()
    .replace(/^@\s*/, '')
    .replace(/(^|\s)([+-])\s+(?=[\d.])/g, '$1$2')
    .split(/\s+/)
    .filter(Boolean);
  const bad = () => pgFail('22007', `invalid input syntax for type interval: "${text}"`);
  if (words.length === 0) bad();
  // IntervalStyle sql_standard: a leading minus with no other sign in the text is every field's
  // ('-1 2:00:00', which that style prints for -1 day -2 hours, reads back so); read unsigned, then negated
  const negateAll =
    sqlStandardIntervals && words[0].startsWith('-') && !words.slice(1).some((w) => w[0] === '-' || w[0] === '+');
  if (negateAll) words[0] = words[0].slice(1);
  // each field once, as PostgreSQL's DecodeInterval allows it ('1 day 2 days', '1 hour 02:00' refused)
  const seen = new Set<string>();
  const take = (...fields: string[]) => {
    for (const f of fields) if (seen.has(f)) bad();
    for (const f of fields) seen.add(f);
  };
  let ago = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === 'ago' && i === words.length - 1) {
      ago = true;
      continue;
    }
    const clock = /^([+-])?(\d+):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/.exec(w);
    if (clock) {
      take('hour', 'minute', 'second', 'milliseconds', 'microseconds');
      const us =
        ((Number(clock[2]) * 60 + Number(clock[3])) * 60 + Number(clock[4] ?? 0)) * 1e6 +
        Number((clock[5] ?? '').slice(0, 6).padEnd(6, '0'));
      iv.micros += clock[1] === '-' ? -us : us;
      continue;
    }
    // SQL's year-month ('1-2' is 1 year 2 months, '-1-2' minus both), a unit word after it ignored
    const ym = /^([+-]?)(\d+)-(\d+)$/.exec(w);
    if (ym) {
      if (Number(ym[3]) >= 12) pgFail('22015', `interval field value out of range: "${text}"`);
      take('month');
      const months = Number(ym[2]) * 12 + Number(ym[3]);
      iv.months += ym[1] === '-' ? -months : months;
      if (UNITS[words[i + 1]] !== undefined) i++;
      continue;
    }
    // '7 days' or '7days'
    const m = /^([+-]?\d+(?:\.\d+)?)([a-z]*)$/.exec(w);
    if (!m) bad();
    // a number with no unit after it is read as PostgreSQL reads it, from the right: seconds at the
    // end ('0', '10', '1 day 10'), days before a time of day ('3 4:05:06', SQL's day-time form); before
    // another number it would be that one's unit twice, which PostgreSQL refuses ('3 4')
    const next = words[i + 1];
    const bare = !m![2] && (next === undefined || UNITS[next] === undefined);
    if (bare && next !== undefined && next !== 'ago' && /^[+-]?[\d.]/.test(next) && !next.includes(':')) bad();
    const unit = bare ? (next?.includes(':') ? 'day' : 'second') : m![2] || words[++i];
    const per = unit === undefined ? undefined : PER_UNIT[UNITS[unit] ?? ''];
    if (!per) bad();
    const n = Number(m![1]);
    const canon = UNITS[unit!];
    if (canon === 'second' && !Number.isInteger(n)) take('second', 'milliseconds', 'microseconds');
    else take(canon);
    const [field, scale] = per!;
    const total = n * scale;
    // fractions spill into the smaller field, as PostgreSQL does (1.5 months = 1 month 15 days)
    if (field !== 'micros' && !Number.isInteger(total)) {
      const whole = Math.trunc(total);
      iv[field] += whole;
      if (field === 'months') iv.days += Math.round((total - whole) * 30);
      else iv.micros += Math.round((total - whole) * 8.64e10);
      continue;
    }
    iv[field] += Math.round(total);
  }
  if (ago !== negateAll) {
    // ('ago' negates everything, after the leading minus did)
    iv.months = -iv.months;
    iv.days = -iv.days;
    iv.micros = -iv.micros;
  }
  return iv;
}

/** C's rint: to the nearest integer, halves to the even one. */
function rint(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * An ISO 8601 interval as PostgreSQL's DecodeISO8601Interval reads it, undefined for text that does
 * not begin with 'P' (it is then no ISO interval): designators ('P1Y2M3DT4H5M6.5S', 'P2W', 'P1.5D'),
 * the alternative form, extended ('P0001-02-03T04:05:06') or basic ('P00010203T040506'), and the two
 * mixed ('P1DT04:05'). 'PT' is a zero interval there, 'P' is refused; fractions spill into the
 * smaller fields as PostgreSQL's Adjust* functions spill them.
 */
function isoInterval(text: string): Interval | undefined {
  if (text.charCodeAt(0) !== 80 /* P */) return undefined;
  const bad = () => pgFail('22007', `invalid input syntax for type interval: "${text}"`);
  if (text.length < 2) bad();
  const iv: Interval = { months: 0, days: 0, micros: 0 };
  let at = 1;
  // ParseISO8601Number: strtod's number (a sign '-' only), split into its whole part and fraction
  const number = (): [number, number] => {
    const m = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(at));
    if (!m) bad();
    at += m![0].length;
    const v = Number(m![0]);
    if (!Number.isFinite(v) || Math.abs(v) > 9.2e18) pgFail('22015', `interval field value out of range: "${text}"`);
    return [Math.trunc(v), v - Math.trunc(v)];
  };
  const fracMicros = (f: number, scale: number) => {
    const x = f * scale;
    iv.micros += Math.trunc(x) + rint(x - Math.trunc(x));
  };
  const fracDays = (f: number, scale: number) => {
    const x = f * scale;
    iv.days += Math.trunc(x);
    fracMicros(x - Math.trunc(x), 86_400_000_000);
  };
  const years = (v: number, f: number) => {
    iv.months += v * 12 + Math.round(f * 12);
  };
  const months = (v: number, f: number) => {
    iv.months += v;
    fracDays(f, 30);
  };
  const time = (v: number, f: number, scale: number) => {
    iv.micros += v * scale;
    fracMicros(f, scale);
  };
  // the digits of a field (after its sign): 8 of them alone are the basic date, 6 the basic time
  const width = (from: number) => /^-?(\d*)/.exec(text.slice(from))![1].length;
  let datePart = true;
  let haveField = false;
  while (at < text.length) {
    if (text[at] === 'T') {
      datePart = false;
      haveField = false;
      at++;
      continue;
    }
    const fieldStart = at;
    const [v, f] = number();
    const unit = text[at++] ?? '';
    if (datePart) {
      switch (unit) {
        case 'Y':
          years(v, f);
          break;
        case 'M':
          months(v, f);
          break;
        case 'W':
          iv.days += v * 7;
          fracDays(f, 7);
          break;
        case 'D':
          iv.days += v;
          fracMicros(f, 86_400_000_000);
          break;
        case 'T':
        case '':
        case '-': {
          if (unit !== '-' && width(fieldStart) === 8 && !haveField) {
            years(Math.trunc(v / 10_000), 0);
            iv.months += Math.trunc(v / 100) % 100;
            iv.days += v % 100;
            fracDays(f, 1);
          } else {
            // the extended form: years, then months and days after '-'
            if (haveField) bad();
            years(v, f);
            if (unit === '-') {
              months(...number());
              if (text[at] === '-') {
                at++;
                const [d, df] = number();
                iv.days += d;
                fracMicros(df, 86_400_000_000);
              }
              if (at < text.length && text[at] !== 'T') bad();
            }
          }
          if (unit === 'T') at--; // the loop reads the 'T'

          if (at >= text.length) return iv;
          continue;
        }
        default:
          bad();
      }
    } else {
      switch (unit) {
        case 'H':
          time(v, f, 3_600_000_000);
          break;
        case 'M':
          time(v, f, 60_000_000);
          break;
        case 'S':
          time(v, f, 1_000_000);
          break;
        case '':
        case ':':
          if (unit === '' && width(fieldStart) === 6 && !haveField) {
            time(Math.trunc(v / 10_000), 0, 3_600_000_000);
            time(Math.trunc(v / 100) % 100, 0, 60_000_000);
            time(v % 100, 0, 1_000_000);
            fracMicros(f, 1); // PostgreSQL's scale here: the fraction of a microsecond
            return iv;
          }
          // the extended form: hours, then minutes and seconds after ':'
          if (haveField) bad();
          time(v, f, 3_600_000_000);
          if (unit === '') return iv;
          time(...number(), 60_000_000);
          if (at >= text.length) return iv;
          if (text[at++] !== ':') bad();
          time(...number(), 1_000_000);
          if (at < text.length) bad();
          return iv;
        default:
          bad();
      }
    }
    haveField = true;
  }
  return iv;
}

/**
 * An interval's place in PostgreSQL's order (interval_cmp): its months as 30 days and its days as 24
 * hours, in microseconds ('1 day' = '24 hours', '10 days' > '9 days', which their texts are not).
 * A double: exact to the microsecond within about 285 years.
 */
export function intervalKey(v: unknown): number | null {
  const iv = parseInterval(v);
  return iv ? (iv.months * 30 + iv.days) * 86_400_000_000 + iv.micros : null;
}

/** PostgreSQL's text form of an interval: '1 year 2 mons 3 days 04:05:06'. */
export function formatInterval(iv: Interval): string {
  const parts: string[] = [];
  const years = Math.trunc(iv.months / 12);
  const months = iv.months % 12;
  // a field after a negative one carries its '+' ('-1 days +02:00:00'), as PostgreSQL's EncodeInterval
  let before = false;
  const plural = (n: number, one: string, many: string) => {
    parts.push(`${before && n > 0 ? '+' : ''}${n} ${n === 1 ? one : many}`); // '-1 days', as PostgreSQL prints it
    before = n < 0;
  };
  if (years) plural(years, 'year', 'years');
  if (months) plural(months, 'mon', 'mons');
  if (iv.days) plural(iv.days, 'day', 'days');
  if (iv.micros || parts.length === 0) {
    const neg = iv.micros < 0;
    const us = Math.abs(iv.micros);
    const secs = Math.floor(us / 1e6);
    let clock = `${pad(Math.floor(secs / 3600))}:${pad(Math.floor(secs / 60) % 60)}:${pad(secs % 60)}`;
    if (us % 1e6) clock += '.' + pad(us % 1e6, 6).replace(/0+$/, '');
    parts.push((neg ? '-' : before ? '+' : '') + clock);
  }
  return parts.join(' ');
}

/**
 * An interval in ISO 8601's format with designators, as PostgreSQL prints it under IntervalStyle
 * iso_8601 (what Rails sets): 'P1Y2M3DT4H5M6.5S', 'PT0S', each field with its own sign ('P-1DT2H').
 */
export function formatIntervalIso(iv: Interval): string {
  const years = Math.trunc(iv.months / 12);
  const months = iv.months % 12;
  const us = Math.abs(iv.micros);
  const sign = iv.micros < 0 ? -1 : 1;
  const hours = sign * Math.floor(us / 3_600_000_000);
  const minutes = sign * (Math.floor(us / 60_000_000) % 60);
  const secUs = us % 60_000_000;
  if (!years && !months && !iv.days && !iv.micros) return 'PT0S';
  const part = (n: number, d: string) => (n ? `${n}${d}` : '');
  let out = `P${part(years, 'Y')}${part(months, 'M')}${part(iv.days, 'D')}`;
  if (iv.micros) out += `T${part(hours, 'H')}${part(minutes, 'M')}`;
  if (secUs) {
    const frac = secUs % 1e6 ? `.${pad(secUs % 1e6, 6).replace(/0+$/, '')}` : '';
    out += `${sign < 0 ? '-' : ''}${Math.floor(secUs / 1e6)}${frac}S`;
  }
  return out;
}

/** PostgreSQL's IntervalStyle settings: how an interval is printed. */
export type IntervalStyle = 'postgres' | 'postgres_verbose' | 'sql_standard' | 'iso_8601';

/** An interval as PostgreSQL prints it under IntervalStyle `style`. */
export function formatIntervalIn(iv: Interval, style: IntervalStyle): string {
  if (style === 'iso_8601') return formatIntervalIso(iv);
  if (style === 'sql_standard') return formatIntervalSql(iv);
  if (style === 'postgres_verbose') return formatIntervalVerbose(iv);
  return formatInterval(iv);
}

/** An interval's fields as PostgreSQL's interval2itm splits it: the time's each with the sign of the microseconds. */
function intervalFields(iv: Interval) {
  const us = iv.micros;
  return {
    year: Math.trunc(iv.months / 12),
    mon: iv.months % 12,
    day: iv.days,
    hour: Math.trunc(us / 3_600_000_000),
    min: Math.trunc(us / 60_000_000) % 60,
    sec: Math.trunc(us / 1_000_000) % 60,
    usec: us % 1_000_000,
  };
}

/** Seconds without their sign, as PostgreSQL's AppendSeconds: two digits when `fill`, a fraction without trailing zeros. */
function secondsText(sec: number, usec: number, fill: boolean): string {
  const whole = fill ? pad(Math.abs(sec)) : String(Math.abs(sec));
  return usec ? `${whole}.${pad(Math.abs(usec), 6).replace(/0+$/, '')}` : whole;
}

/**
 * IntervalStyle sql_standard: '1-2' (years-months), '3 4:05:06' (days and time), one sign in front
 * ('-1 0:00:00'); an interval mixing years or months with days or time, or signs, gives each part
 * its sign ('+1-2 +3 +4:05:06.7', '+0-0 +1 -0:00:01'), as PostgreSQL's EncodeInterval.
 */
function formatIntervalSql(iv: Interval): string {
  const { year, mon, day, hour, min, sec, usec } = intervalFields(iv);
  const fields = [year, mon, day, hour, min, sec, usec];
  const negative = fields.some((n) => n < 0);
  const positive = fields.some((n) => n > 0);
  if (!negative && !positive) return '0';
  const yearMonth = year !== 0 || mon !== 0;
  const clock = `${Math.abs(hour)}:${pad(Math.abs(min))}:${secondsText(sec, usec, true)}`;
  if ((negative && positive) || (yearMonth && (day !== 0 || iv.micros !== 0))) {
    const sign = (neg: boolean) => (neg ? '-' : '+');
    return `${sign(year < 0 || mon < 0)}${Math.abs(year)}-${Math.abs(mon)} ${sign(day < 0)}${Math.abs(day)} ${sign(iv.micros < 0)}${clock}`;
  }
  const sign = negative ? '-' : '';
  if (yearMonth) return `${sign}${Math.abs(year)}-${Math.abs(mon)}`;
  return day ? `${sign}${Math.abs(day)} ${clock}` : sign + clock;
}

/**
 * IntervalStyle postgres_verbose: '@ 1 year 2 mons 3 days 4 hours 5 mins 6.7 secs'; a negative first
 * part makes the whole 'ago', a later part of the other sign is negative ('@ 1 day -1 sec').
 */
function formatIntervalVerbose(iv: Interval): string {
  const { year, mon, day, hour, min, sec, usec } = intervalFields(iv);
  let out = '@';
  let zero = true;
  let ago = false;
  const part = (n: number, unit: string) => {
    if (n === 0) return;
    if (zero) ago = n < 0;
    const shown = zero ? Math.abs(n) : ago ? -n : n;
    out += ` ${shown} ${unit}${shown === 1 ? '' : 's'}`;
    zero = false;
  };
  part(year, 'year');
  part(mon, 'mon');
  part(day, 'day');
  part(hour, 'hour');
  part(min, 'min');
  if (sec || usec) {
    const negative = sec < 0 || (sec === 0 && usec < 0);
    if (negative && zero) ago = true;
    const minus = negative ? !zero && !ago : ago;
    out += ` ${minus ? '-' : ''}${secondsText(sec, usec, false)} sec${Math.abs(sec) !== 1 || usec ? 's' : ''}`;
    zero = false;
  }
  return out + (zero ? ' 0' : '') + (ago ? ' ago' : '');
}

/** timestamp + sign × interval: months by the calendar (the day clamped to the month's end), then days, then time. */
export function addInterval(v: unknown, interval: unknown, sign: unknown): string | null {
  // an infinite timestamp stays itself (PostgreSQL's timestamp_pl_interval; it was 22007)
  const inf = infinityWord(v);
  if (inf) return interval === null || interval === undefined ? null : inf;
  const t = parseInstant(v, 'timestamp', 'timestamp + interval');
  const iv = parseInterval(interval);
  if (!t || !iv) return null;
  const k = Number(sign) < 0 ? -1 : 1;
  const d = new Date(t.ms);
  if (iv.months) {
    const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + k * iv.months;
    const y = Math.floor(total / 12);
    const mo = total - y * 12;
    const day = Math.min(d.getUTCDate(), daysIn(y, mo + 1));
    const x = new Date(
      Date.UTC(2000, mo, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()),
    );
    x.setUTCFullYear(y);
    d.setTime(x.getTime());
  }
  let us = t.us + k * (iv.micros % 1000);
  let ms = d.getTime() + k * iv.days * 86_400_000 + k * Math.trunc(iv.micros / 1000);
  ms += Math.floor(us / 1000);
  us = ((us % 1000) + 1000) % 1000;
  return formatInstant({ ms, us, tz: t.tz });
}

/**
 * timestamptz ± interval with the session in `zone`, as PostgreSQL's timestamptz_pl_interval: the
 * months and days on the zone's wall clock (the result read there again: a day across a DST change
 * is 23 or 25 hours), then the time part on the instant.
 */
function addIntervalIn(v: unknown, interval: unknown, sign: number, zone: string): string | null {
  const iv = parseInterval(interval);
  const wall = iv && (iv.months || iv.days) ? wallTextIn(v, zone) : null;
  if (!iv || wall === null) return addInterval(v, interval, sign);
  const moved = addInterval(wall, formatInterval({ months: iv.months, days: iv.days, micros: 0 }), sign);
  const instant = moved === null ? null : castTimestamptzIn(moved, zone)?.replace(/\+00$/, '');
  if (!instant) return null;
  return iv.micros ? addInterval(instant, formatInterval({ months: 0, days: 0, micros: iv.micros }), sign) : instant;
}

/**
 * date_bin(stride, source, origin): the start of the stride-long bin holding source, counted from
 * origin (PostgreSQL 14's); a stride of months or years is 0A000 there and here, one not above 0 22008.
 */
export function dateBin(stride: unknown, source: unknown, origin: unknown): string | null {
  const iv = parseInterval(stride);
  const t = parseInstant(source, 'timestamp', 'date_bin');
  const o = parseInstant(origin, 'timestamp', 'date_bin');
  if (!iv || !t || !o) return null;
  if (iv.months !== 0) pgFail('0A000', 'timestamps cannot be binned into intervals containing months or years');
  const step = iv.days * 86_400_000_000 + iv.micros;
  if (step <= 0) pgFail('22008', 'stride must be greater than zero');
  const at = (x: Instant) => x.ms * 1000 + x.us;
  const diff = at(t) - at(o);
  const bin = at(o) + Math.floor(diff / step) * step;
  return formatInstant({ ms: Math.floor(bin / 1000), us: ((bin % 1000) + 1000) % 1000, tz: t.tz });
}

/**
 * (s1, e1) OVERLAPS (s2, e2), as PostgreSQL's overlaps_timestamp: each period from its earlier end
 * to its later one, an end given as an interval counted from the start; NULL where an end that
 * decides it is NULL.
 */
export function overlaps(s1: unknown, e1: unknown, s2: unknown, e2: unknown): number | null {
  const at = (v: unknown) => {
    const t = parseInstant(v, 'timestamp', 'OVERLAPS');
    return t ? t.ms * 1000 + t.us : null;
  };
  const end = (start: unknown, v: unknown) =>
    v !== null && typeof v === 'string' && parseIntervalOrNull(v) ? at(addInterval(start, v, 1)) : at(v);
  let [a1, b1, a2, b2] = [at(s1), end(s1, e1), at(s2), end(s2, e2)];
  if (a1 === null || a2 === null) return null;
  if (b1 !== null && b1 < a1) [a1, b1] = [b1, a1];
  if (b2 !== null && b2 < a2) [a2, b2] = [b2, a2];
  if (a1 > a2) return b2 === null ? null : a1 < b2 ? 1 : 0;
  if (a1 < a2) return b1 === null ? null : a2 < b1 ? 1 : 0;
  return 1;
}

/** An interval's parts, or null when the text is no interval (a timestamp, say). */
export function parseIntervalOrNull(v: string): Interval | null {
  if (TS_RE.test(v)) return null;
  try {
    return parseInterval(v);
  } catch {
    return null;
  }
}

/** make_interval(years, months, weeks, days, hours, mins, secs), each 0 when left out. */
export function makeInterval(...args: unknown[]): string | null {
  if (args.some((a) => a === null)) return null;
  const [y, mo, w, d, h, mi, sec] = Array.from({ length: 7 }, (_, i) => Number(args[i] ?? 0));
  // (seconds of Infinity or NaN, the text NaN: PostgreSQL's 22008; it printed Infinity:NaN:NaN)
  if (!Number.isFinite(sec)) pgFail('22008', 'interval out of range');
  return formatInterval({
    months: y * 12 + mo,
    days: w * 7 + d,
    micros: Math.round(((h * 60 + mi) * 60 + sec) * 1e6),
  });
}

/**
 * The date and time operators whose operand types the PG front end read off the parse tree
 * (sql/typed-operators.ts names the kinds): `date + 1`, `date - date`, `timestamp - timestamp`,
 * `date + time`, `interval * 2`, `interval + interval`, `x ± interval` either way round. Each kind is
 * one signature of PostgreSQL's, so the values are read as those types and never guessed.
 */
export function dateArithmetic(kind: unknown, a: unknown, b: unknown): string | number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  // 'tstz+iv@Europe/Paris': a timestamptz ± interval with the session in that zone
  const at = typeof kind === 'string' ? kind.indexOf('@') : -1;
  if (at > 0) {
    const k = (kind as string).slice(0, at);
    const zone = (kind as string).slice(at + 1);
    return k === 'iv+tstz' ? addIntervalIn(b, a, 1, zone) : addIntervalIn(a, b, k === 'tstz-iv' ? -1 : 1, zone);
  }
  switch (kind) {
    case 'tstz+iv':
    case 'tstz-iv':
    case 'iv+tstz':
      return dateArithmetic(kind === 'tstz+iv' ? 'ts+iv' : kind === 'tstz-iv' ? 'ts-iv' : 'iv+ts', a, b);
    case 'date+int':
      return addDays(a, b, 1);
    case 'int+date':
      return addDays(b, a, 1);
    case 'date-int':
      return addDays(a, b, -1);
    case 'date-date': {
      // (each side read first: text that is no date is 22007 before an infinity's 22008, as there)
      const [x, y] = [a, b].map((v) => (infinityWord(v) ? null : parseInstant(v, 'date', 'date - date', true)!));
      if (x === null || y === null) pgFail('22008', 'cannot subtract infinite dates');
      return Math.round(
        (Math.floor(x.ms / 86_400_000) * 86_400_000 - Math.floor(y.ms / 86_400_000) * 86_400_000) / 86_400_000,
      );
    }
    case 'date+time':
      return dateAndTime(a, b);
    case 'time+date':
      return dateAndTime(b, a);
    case 'ts+iv':
      return addInterval(a, b, 1);
    case 'ts-iv':
      return addInterval(a, b, -1);
    case 'iv+ts':
      return addInterval(b, a, 1);
    case 'date+iv':
    case 'date-iv':
      return addInterval(castTimestamp(a), b, kind === 'date+iv' ? 1 : -1);
    case 'iv+date':
      return addInterval(castTimestamp(b), a, 1);
    case 'time+iv':
    case 'time-iv':
    case 'iv+time': {
      const [t, iv] = kind === 'iv+time' ? [b, a] : [a, b];
      const time = formatInterval({ months: 0, days: 0, micros: parseInterval(iv)!.micros }); // a time wraps at midnight
      const moved = addInterval(`2000-01-01 ${castTime(t)}`, time, kind === 'time-iv' ? -1 : 1);
      return moved?.slice(11) ?? null;
    }
    case 'time-time': {
      // the microseconds between two times of day, as an interval of no days (-02:30:00 the other way)
      const x = parseInstant(`2000-01-01 ${castTime(a)}`, 'timestamp', 'time - time')!;
      const y = parseInstant(`2000-01-01 ${castTime(b)}`, 'timestamp', 'time - time')!;
      return formatInterval({ months: 0, days: 0, micros: (x.ms - y.ms) * 1000 + (x.us - y.us) });
    }
    case 'ts-ts': {
      const [x, y] = [a, b].map((v) =>
        infinityWord(v) ? null : parseInstant(v, 'timestamp', 'timestamp - timestamp')!,
      );
      if (x === null || y === null) pgFail('22008', 'cannot subtract infinite timestamps');
      // days and the time apart, both toward zero as PostgreSQL's justify: exact (the microseconds
      // between years far apart pass 2^53)
      const ms = x.ms - y.ms;
      let days = Math.trunc(ms / DAY_MS);
      let micros = (ms - days * DAY_MS) * 1000 + (x.us - y.us);
      if (days > 0 && micros < 0) [days, micros] = [days - 1, micros + 86_400_000_000];
      else if (days < 0 && micros > 0) [days, micros] = [days + 1, micros - 86_400_000_000];
      return formatInterval({ months: 0, days, micros });
    }
    case 'iv+iv':
    case 'iv-iv': {
      const x = parseInterval(a)!;
      const y = parseInterval(b)!;
      const k = kind === 'iv+iv' ? 1 : -1;
      return formatInterval({
        months: x.months + k * y.months,
        days: x.days + k * y.days,
        micros: x.micros + k * y.micros,
      });
    }
    case 'iv*num':
      return scaleInterval(a, Number(b));
    case 'num*iv':
      return scaleInterval(b, Number(a));
    case 'iv/num': {
      const n = Number(b);
      if (n === 0) pgFail('22012', 'division by zero');
      return scaleInterval(a, n, true);
    }
  }
  pgFail('42883', `operator kind ${String(kind)} is not known`);
}

/** PostgreSQL's first and last dates (4714-11-24 BC, 5874897-12-31) as days from 1970-01-01. */
const FIRST_DAY = -2_440_588;
const LAST_DAY = 2_145_042_905;

function addDays(date: unknown, n: unknown, sign: number): string | null {
  const days = Number(n);
  if (!Number.isInteger(days)) pgFail('22P02', `invalid input syntax for type integer: "${String(n)}"`);
  // an infinite date stays itself (PostgreSQL's date_pli and date_mii; it was 22007)
  const inf = infinityWord(date);
  if (inf) return inf;
  const t = parseInstant(date, 'date', 'date + integer', true)!;
  const day = Math.floor(t.ms / 86_400_000) + sign * days;
  // past either end it is 22008 as there (a day past JavaScript's last one printed '/0NaN-NaN-NaN',
  // one before 4714-11-24 BC a wrong BC year)
  if (day < FIRST_DAY || day > LAST_DAY) pgFail('22008', 'date out of range');
  if (day * 86_400_000 > MAX_MS)
    pgFail('0A000', "a date after 275760-09-13 is not supported: Patina's dates and timestamps end there");
  return formatDate(new Date(day * 86_400_000));
}

function dateAndTime(date: unknown, time: unknown): string | null {
  const t = castTime(time);
  // an infinite date is an infinite timestamp, the time not added (PostgreSQL's datetime_timestamp)
  const inf = infinityWord(date);
  if (inf) return t && inf;
  const d = castDate(date);
  return d && t && castTimestamp(`${d} ${t}`);
}

/** interval × f (÷ f with `divide`) as PostgreSQL multiplies and divides it (scaledInterval). */
function scaleInterval(v: unknown, f: number, divide = false): string | null {
  const iv = parseInterval(v)!;
  if (!Number.isFinite(divide ? 1 / f : f)) pgFail('22008', 'interval out of range');
  return formatInterval(scaledInterval(iv, f, divide));
}

/**
 * An interval times (or divided by) a double as PostgreSQL 15's interval_mul and interval_div
 * compute it: whole months and days kept, a month's fraction cascaded into days (30 each) and a
 * day's into seconds apart, each rounded to microseconds (TSROUND), the time rounded half to even:
 * (1 day - 1 mon) * 0.6 is `-18 days +14:24:00` (the days summed before truncating gave `-17 days
 * -09:36:00`).
 */
export function scaledInterval(iv: Interval, f: number, divide = false): Interval {
  const by = (x: number) => (divide ? x / f : x * f);
  const tsround = (x: number) => rint(x * 1e6) / 1e6;
  const months = Math.trunc(by(iv.months));
  let days = Math.trunc(by(iv.days));
  const monthDays = tsround((by(iv.months) - months) * 30);
  let secs = tsround((by(iv.days) - days + monthDays - Math.trunc(monthDays)) * 86_400);
  if (Math.abs(secs) >= 86_400) {
    days += Math.trunc(secs / 86_400);
    secs -= Math.trunc(secs / 86_400) * 86_400;
  }
  days += Math.trunc(monthDays);
  return { months, days, micros: rint(by(iv.micros) + secs * 1e6) };
}

const ZONES = new Map<string, Intl.DateTimeFormat>();

/** The offset of a time zone from UTC at an instant, in milliseconds; 22023 for a zone that is not known. */
function zoneOffsetMs(zone: string, ms: number): number {
  let f = ZONES.get(zone);
  if (!f) {
    const ruled = ruledZone(zone);
    if (ruled) return posixOffsetMs(ruled, ms);
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        era: 'short',
      });
    } catch {
      pgFail('22023', `time zone "${zone}" not recognized`);
    }
    if (ZONES.size < 1000) ZONES.set(zone, f);
  }
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(new Date(ms))) p[x.type] = x.value;
  const year = p.era === 'BC' || p.era === 'B' ? 1 - Number(p.year) : Number(p.year);
  const wall = new Date(
    Date.UTC(2000, Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)),
  ).setUTCFullYear(year);
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

const RULED = new Map<string, PosixZone | null>();
/**
 * A POSIX zone with summer time ('CET-1CEST,M3.5.0,M10.5.0/3', 'XYZ-2ABC'; posix-zone.ts) that
 * the zone database does not name ('EST5EDT' is the database's), as PostgreSQL tries its files
 * first; else null.
 */
function ruledZone(zone: string): PosixZone | null {
  let z = RULED.get(zone);
  if (z === undefined) {
    z = posixZone(zone);
    if (z !== null && (zoneDatabaseName(zone) !== null || posixLeapSeconds(zone))) z = null;
    if (RULED.size < 1000) RULED.set(zone, z);
  }
  return z;
}

/**
 * The instant whose wall time in zone z is `wall` (a wall time as UTC milliseconds), with the offsets
 * in force a day before and after: a wall time that happens twice (clocks set back) is the later
 * instant, one that never happens (clocks set forward) is read with the offset before the change, as
 * PostgreSQL reads them. 22023 for a zone that is not known.
 */
function wallTimeInstant(z: string, wall: number): number {
  const before = wall - zoneOffsetMs(z, wall - 86_400_000);
  const after = wall - zoneOffsetMs(z, wall + 86_400_000);
  const fits = (m: number) => zoneOffsetMs(z, m) === wall - m;
  return fits(before) && fits(after) ? Math.max(before, after) : fits(after) && !fits(before) ? after : before;
}

/**
 * x AT TIME ZONE z: 'tz-local' reads a timestamp's wall time in zone z and gives the instant (a
 * timestamp with time zone, printed in UTC); 'tz-wall' gives an instant's (or a date's midnight's)
 * wall time in z, a timestamp.
 */
export function atTimeZone(kind: unknown, v: unknown, zone: unknown): string | null {
  if (v === null || v === undefined || zone === null || zone === undefined) return null;
  // an infinity is itself in any zone, the zone not read (PostgreSQL's timestamptz_zone; it was 22007)
  const inf = infinityWord(v);
  if (inf) return inf;
  const z = String(zone).trim();
  const utc = /^(utc|gmt|z|etc\/utc|etc\/gmt|\+00(:00)?)$/i.test(z);
  if (kind === 'tz-local') {
    // (in the form a timestamptz column keeps, UTC text without its +00, so that it compares with
    // columns and casts: `(ts AT TIME ZONE 'UTC') = tz` was false)
    const t = parseInstant(v, 'timestamp', 'AT TIME ZONE', true)!;
    const ms = utc ? t.ms : wallTimeInstant(z, t.ms);
    return formatInstant({ ms, us: t.us, tz: true }, true).replace(/\+00$/, '');
  }
  const t = parseInstant(v, 'timestamp with time zone', 'AT TIME ZONE')!;
  if (utc) return formatInstant(t, false);
  return formatInstant({ ms: t.ms + zoneOffsetMs(z, t.ms), us: t.us, tz: false }, false);
}

/**
 * justify_hours (24 hours → 1 day), justify_days (30 days → 1 month) and justify_interval (both,
 * with the signs of the parts made to agree), as PostgreSQL's interval_justify_* do.
 */
export function justify(kind: 'hours' | 'days' | 'interval', v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const iv = { ...parseInterval(v)! };
  if (kind !== 'days') timeIntoDays(iv);
  if (kind !== 'hours') daysIntoMonths(iv, kind === 'interval');
  if (kind !== 'days') borrowDay(iv);
  return formatInterval(iv);
}

const DAY_US = 86_400_000_000;

/** Whole days out of the time part. */
function timeIntoDays(iv: Interval): void {
  const whole = Math.trunc(iv.micros / DAY_US);
  iv.days += whole;
  iv.micros -= whole * DAY_US;
}

/** Whole 30-day months out of the days, then one month borrowed so months and days (and time) share a sign. */
function daysIntoMonths(iv: Interval, withTime: boolean): void {
  const whole = Math.trunc(iv.days / 30);
  iv.months += whole;
  iv.days -= whole * 30;
  const rest = (sign: number) =>
    Math.sign(iv.days) === sign || (withTime && iv.days === 0 && Math.sign(iv.micros) === sign);
  if (iv.months > 0 && rest(-1)) {
    iv.days += 30;
    iv.months--;
  } else if (iv.months < 0 && rest(1)) {
    iv.days -= 30;
    iv.months++;
  }
}

/** One day borrowed so that days and time share a sign. */
function borrowDay(iv: Interval): void {
  if (iv.days > 0 && iv.micros < 0) {
    iv.micros += DAY_US;
    iv.days--;
  } else if (iv.days < 0 && iv.micros > 0) {
    iv.micros -= DAY_US;
    iv.days++;
  }
}

/** make_date(year, month, day). */
export function makeDate(y: unknown, m: unknown, d: unknown): string | null {
  if (y === null || m === null || d === null) return null;
  const [year, month, day] = [y, m, d].map(Number);
  if (
    ![year, month, day].every(Number.isInteger) ||
    year === 0 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysIn(year < 0 ? year + 1 : year, month)
  )
    pgFail('22008', `date field value out of range: ${String(y)}-${pad(month)}-${pad(day)}`);
  // a negative year is a year BC, as PostgreSQL's make_date reads it
  return castDate(`${pad(Math.abs(year), 4)}-${pad(month)}-${pad(day)}${year < 0 ? ' BC' : ''}`);
}

/**
 * make_time(hour, min, sec): 22008 for a field out of range (24:00:00 is a time, 60 seconds the next
 * minute, as PostgreSQL's), the seconds rounded to the microsecond.
 */
export function makeTime(h: unknown, mi: unknown, sec: unknown): string | null {
  if (h === null || mi === null || sec === null) return null;
  const [hour, minute, second] = [h, mi, sec].map(Number);
  const us = (hour * 60 + minute) * 60_000_000 + Math.round(second * 1e6);
  if (!(hour >= 0 && hour <= 24 && minute >= 0 && minute <= 59 && second >= 0 && second <= 60) || us > DAY_MS * 1000) {
    // (the seconds as C's %02g prints them: 5 is 05, 1.5 is 1.5)
    const g = Number.isInteger(second) ? pad(second) : String(Number(second.toPrecision(6)));
    pgFail('22008', `time field value out of range: ${hour}:${pad(minute)}:${g}`);
  }
  const secs = Math.floor(us / 1e6);
  const frac = us % 1e6 ? `.${pad(us % 1e6, 6).replace(/0+$/, '')}` : '';
  return `${pad(Math.floor(secs / 3600))}:${pad(Math.floor(secs / 60) % 60)}:${pad(secs % 60)}${frac}`;
}

/** make_timestamp(year, month, day, hour, min, sec): sec may have a fraction. */
export function makeTimestamp(
  y: unknown,
  mo: unknown,
  d: unknown,
  h: unknown,
  mi: unknown,
  sec: unknown,
): string | null {
  const date = makeDate(y, mo, d);
  if (date === null || h === null || mi === null || sec === null) return null;
  const [hour, minute, second] = [h, mi, sec].map(Number);
  if (
    !Number.isInteger(hour) ||
    !Number.isInteger(minute) ||
    hour < 0 ||
    hour > 24 ||
    minute < 0 ||
    minute > 59 ||
    !(second >= 0 && second <= 60)
  )
    pgFail('22008', `time field value out of range: ${pad(hour)}:${pad(minute)}:${pad(Math.floor(second))}`);
  const whole = Math.floor(second);
  const frac = String(Math.round((second - whole) * 1e6))
    .padStart(6, '0')
    .replace(/0+$/, '');
  return castTimestamp(`${date} ${pad(hour)}:${pad(minute)}:${pad(whole)}${frac ? `.${frac}` : ''}`);
}

/**
 * age(a, b): the difference as years, months and days by the calendar ('1 year 2 mons 3 days'),
 * as PostgreSQL's timestamp_age counts it (a day short borrows the earlier month's days).
 */
export function age(a: unknown, b: unknown): string | null {
  const x = parseInstant(a, 'timestamp', 'age');
  const y = parseInstant(b, 'timestamp', 'age');
  if (!x || !y) return null;
  const fields = (t: Instant) => {
    const d = new Date(t.ms);
    return {
      y: d.getUTCFullYear(),
      mo: d.getUTCMonth() + 1,
      d: d.getUTCDate(),
      us:
        ((d.getUTCHours() * 60 + d.getUTCMinutes()) * 60 + d.getUTCSeconds()) * 1e6 +
        d.getUTCMilliseconds() * 1000 +
        t.us,
    };
  };
  const f1 = fields(x);
  const f2 = fields(y);
  const neg = x.ms * 1000 + x.us < y.ms * 1000 + y.us;
  const k = neg ? -1 : 1;
  let us = k * (f1.us - f2.us);
  let days = k * (f1.d - f2.d);
  let months = k * (f1.mo - f2.mo);
  let years = k * (f1.y - f2.y);
  while (us < 0) {
    us += 86_400_000_000;
    days--;
  }
  const earlier = neg ? f1 : f2;
  while (days < 0) {
    days += daysIn(earlier.y, earlier.mo);
    months--;
  }
  while (months < 0) {
    months += 12;
    years--;
  }
  return formatInterval({ months: k * (years * 12 + months), days: k * days, micros: k * us });
}

// The PostgreSQL wire's forms of dates and times, for the PG front end: text as PostgreSQL prints
// it, and the binary forms (days, or microseconds, since 2000-01-01). Values that do not read as a
// date are left to the caller (null here).

const EPOCH_2000 = Date.UTC(2000, 0, 1);

/** The text stored as PostgreSQL would print it for `type`; null when it does not read as one. */
export function pgDateText(v: string, type: 'date' | 'timestamp' | 'timestamptz' | 'time'): string | null {
  try {
    const text =
      type === 'date'
        ? castDate(v)
        : type === 'timestamp'
          ? castTimestamp(v)
          : type === 'timestamptz'
            ? castTimestamptz(v)
            : castTime(v);
    return text === null ? null : printedText(text);
  } catch {
    return null;
  }
}

/** Binary form: date as int32 days, timestamp(tz) as int64 microseconds since 2000-01-01, time as int64 microseconds since midnight. */
export function pgDateBinary(v: string, type: 'date' | 'timestamp' | 'timestamptz' | 'time'): Buffer | null {
  let t: Instant | null;
  try {
    if (type === 'time') {
      const text = castTime(v)!;
      t = parseInstant(`2000-01-01 ${text}`, 'time', 'time');
    } else t = parseInstant(v, type, type, type !== 'timestamptz');
  } catch {
    return null;
  }
  if (!t) return null;
  if (type === 'date') {
    const b = Buffer.alloc(4);
    b.writeInt32BE(Math.floor((t.ms - EPOCH_2000) / 86_400_000));
    return b;
  }
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt(t.ms - EPOCH_2000) * 1000n + BigInt(t.us));
  return b;
}

/** A binary date or time parameter as the text SQLite keeps (timestamptz in UTC without '+00', as literals are). */
export function pgDateFromBinary(raw: Buffer, type: 'date' | 'timestamp' | 'timestamptz' | 'time'): string {
  if (type === 'date') return formatDate(new Date(EPOCH_2000 + raw.readInt32BE(0) * 86_400_000));
  const micros = raw.readBigInt64BE(0);
  const ms = Number(micros / 1000n) - (micros % 1000n < 0n ? 1 : 0);
  const us = Number(((micros % 1000n) + 1000n) % 1000n);
  const t = { ms: EPOCH_2000 + ms, us, tz: false };
  return type === 'time' ? clockText(t) : formatInstant(t);
}

/**
 * The casts: ::date, ::timestamp, ::timestamptz, ::time, ::interval. Each gives the stored form
 * (a year BC as '/9956', a timestamptz in UTC with '+00'); 'infinity' and '-infinity' as they are.
 */
export const castDate = (v: unknown): string | null => {
  const inf = infinityWord(v);
  if (inf) return inf;
  const t = parseInstant(v, 'date', 'cast to date', true);
  return t && formatDate(new Date(t.ms));
};
export const castTimestamp = (v: unknown): string | null => {
  const inf = infinityWord(v);
  if (inf) return inf;
  const t = parseInstant(v, 'timestamp', 'cast to timestamp', true);
  return t && formatInstant(t, false);
};
export const castTimestamptz = (v: unknown): string | null => {
  const inf = infinityWord(v);
  if (inf) return inf;
  const t = parseInstant(v, 'timestamp with time zone', 'cast to timestamptz');
  return t && formatInstant(t, true);
};
// The session's TimeZone (SET TIME ZONE, the startup parameter): timestamptz text is printed in it
// and text without an offset read in it, as PostgreSQL does. A zone is a name Node's Intl knows
// ('Europe/Paris', 'utc'), or PostgreSQL's form of a fixed offset ('<+05:30>-05:30', what SET TIME
// ZONE 5.5 shows: POSIX's sign is the other way round).

/**
 * Offsets of zones by UTC day, where the zone keeps one offset all day (the same at its start,
 * middle and end: zones change a few times a year at most); null for a day with a change.
 */
const DAYS = new Map<string, number | null>();

/** The offset of a session's zone from UTC at an instant, in milliseconds (Intl's answers kept by day). */
export function sessionOffsetMs(zone: string, ms: number): number {
  const fixed = fixedOffsetMs(zone);
  if (fixed !== null) return fixed;
  const start = Math.floor(ms / DAY_MS) * DAY_MS;
  const key = `${zone} ${start}`;
  let off = DAYS.get(key);
  if (off === undefined) {
    const a = zoneOffsetMs(zone, start);
    off = a === zoneOffsetMs(zone, start + DAY_MS / 2) && a === zoneOffsetMs(zone, start + DAY_MS - 1) ? a : null;
    if (DAYS.size >= 10_000) DAYS.clear();
    DAYS.set(key, off);
  }
  return off ?? zoneOffsetMs(zone, ms);
}

/**
 * The offset of a session zone that has one for ever, in milliseconds: a POSIX zone without summer
 * time, its abbreviation (letters, or anything in angle brackets) and its offset west of Greenwich,
 * the sign optional: `UTC+3` and `EST5` are UTC-3 and UTC-5, `<+03>-3` and PostgreSQL's own
 * `<+05:30>-05:30` east; hours up to 167, as PostgreSQL's tzparse; else null.
 */
function fixedOffsetMs(zone: string): number | null {
  const posix = /^(?:[A-Za-z]+|<[A-Za-z0-9:+-]*>)([+-]?)(\d{1,3})(?::([0-5]\d))?$/.exec(zone);
  if (!posix || Number(posix[2]) > 167) return null;
  return (posix[1] === '-' ? 1 : -1) * (Number(posix[2]) * 60 + Number(posix[3] ?? 0)) * 60_000;
}

/**
 * A SET TIME ZONE value as the session keeps and SHOW prints it: a zone name as written, hours
 * (`-7`, `5.5`) as PostgreSQL's fixed zone `<-07>+07`; null when it names no zone.
 */
export function sessionZoneName(value: string): string | null {
  const v = value.trim();
  // INTERVAL '+05:30' HOUR TO MINUTE (Sequelize's SET TIME ZONE INTERVAL '+00:00' HOUR TO MINUTE)
  const iv = /^interval\s+([+-]?)\s*(\d{1,2}):(\d{2})(?:\s+hour\s+to\s+minute)?$/i.exec(v);
  const hours = iv ? [v, iv[1], String(Number(iv[2]) + Number(iv[3]) / 60)] : /^([+-]?)\s*(\d{1,2}(?:\.\d+)?)$/.exec(v);
  if (hours) {
    const minutes = Math.round(Number(hours[2]) * 60);
    if (minutes > 15 * 60) return null;
    const sign = hours[1] === '-' ? '-' : '+';
    const text = `${pad(Math.floor(minutes / 60))}${minutes % 60 ? `:${pad(minutes % 60)}` : ''}`;
    return `<${sign}${text}>${sign === '-' ? '+' : '-'}${text}`;
  }
  if (/^<[+-]\d\d(?::\d\d)?>[+-]\d\d(?::\d\d)?$/.test(v)) return v;
  // 'localtime', the server's own zone (UTC); a zone the database names (GMT0, EST5EDT) as it does
  if (v === 'localtime') return v;
  const named = /^[A-Za-z][\w/+-]*$/.test(v) ? zoneDatabaseName(v) : null;
  if (named !== null) return named;
  // a POSIX zone with an offset ('UTC+3', 'EST5', '<+03>-3'), or with summer time and its rules
  // ('CET-1CEST,M3.5.0,M10.5.0/3'), upper case as PostgreSQL keeps it
  if (fixedOffsetMs(v) !== null || ruledZone(v) !== null) return v.toUpperCase();
  return null;
}

/** A zone's name as the database spells it ('europe/paris' is Europe/Paris), as written when Intl spells it otherwise; null when Intl knows no such zone. */
function zoneDatabaseName(v: string): string | null {
  try {
    // in the zone database's case where Intl spells the same name ('europe/paris' is Europe/Paris)
    const name = new Intl.DateTimeFormat('en-US', { timeZone: v }).resolvedOptions().timeZone;
    return name.toLowerCase() === v.toLowerCase() ? name : v;
  } catch {
    return null;
  }
}

/** Whether a session's zone is UTC itself (timestamptz text is then the stored form: the fast path). */
export const isUtcZone = (zone: string): boolean =>
  /^(?:etc\/)?(?:utc|uct|gmt0?|zulu|universal|greenwich)$|^z$|^localtime$|^(?:[a-z]+|<[a-z0-9:+-]*>)[+-]?0{1,3}(?::00)?$/i.test(
    zone,
  );

/**
 * The abbreviation a UTC session zone prints after a timestamptz in DateStyles other than ISO, as
 * PostgreSQL prints it: the zone's own ('GMT' for 'GMT', 'Greenwich', 'Etc/GMT0'; 'UTC' for 'UTC',
 * 'Zulu', 'Universal'), a POSIX name's letters ('ABC+0' is ABC), '+00' for SET TIME ZONE 0.
 */
export function utcZoneAbbreviation(zone: string): string {
  if (zone.startsWith('<')) return zone.slice(1, zone.indexOf('>'));
  const posix = /^([a-z]+)[+-]?\d/i.exec(zone);
  if (posix) return posix[1].toUpperCase();
  return /gmt|greenwich/i.test(zone) ? 'GMT' : 'UTC';
}

const ABBREVIATIONS = new Map<string, string>();
/** Locales whose short zone names are the zone database's abbreviations (CET, IST, NST, EST, BST, AEST, SAST, NZDT, HKT, JST). */
const ABBREVIATING = ['en-US', 'en-GB', 'en-IN', 'en-CA', 'en-AU', 'en-ZA', 'en-NZ', 'en-HK', 'ja-JP'];

/**
 * A session zone's abbreviation at an instant, as to_char's TZ prints it: the zone database's
 * ('MSK', 'CST', '+04', '-03'; tz-file.ts), else, without the database's files, Intl's short name in
 * an English locale that has one ('CET', 'CEST'), else the offset ('+04', '+0530'); a fixed offset
 * SET TIME ZONE made ('<+05:30>-05:30') by its name, '+05:30', as PostgreSQL's.
 */
export function zoneAbbreviation(zone: string, ms: number, offsetMs: number): string {
  // (a POSIX zone with summer time: its standard or summer name then)
  const ruled = ruledZone(zone);
  if (ruled) return posixAbbreviation(ruled, ms);
  if (zone.startsWith('<')) return zone.slice(1, zone.indexOf('>'));
  // the zone database's, as PostgreSQL prints it, at the instant (Moscow's +04 was MSD in 1990, MSK in 2012)
  const named = fixedOffsetMs(zone) === null ? zoneFileAbbreviation(zone, ms, offsetMs) : undefined;
  if (named) return named;
  // without the database's files: Intl's names, by offset
  const key = `${zone} ${offsetMs}`;
  let a = ABBREVIATIONS.get(key);
  if (a === undefined) {
    a = '';
    if (fixedOffsetMs(zone) === null)
      for (const locale of ABBREVIATING) {
        const name = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' })
          .formatToParts(ms)
          .find((p) => p.type === 'timeZoneName')?.value;
        if (name && /^[A-Z]{2,5}$/.test(name) && name !== 'GMT' && name !== 'UTC') {
          a = name;
          break;
        }
        if (name === 'GMT' || name === 'UTC') a = offsetMs === 0 ? name : '';
        if (a) break;
      }
    // (a POSIX name with an offset is abbreviated by its letters: 'UTC+3' by UTC)
    if (!a) a = /^([A-Za-z]+)[+-]?\d/.exec(zone)?.[1] ?? offsetText(offsetMs).replace(':', '');
    if (ABBREVIATIONS.size < 10_000) ABBREVIATIONS.set(key, a);
  }
  return a;
}

/** An offset as PostgreSQL prints it after a timestamptz: '+01', '+05:30', '-03:30', '+00:09:21'. */
export function offsetText(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  const m = Math.floor(s / 60) % 60;
  const text = `${ms < 0 ? '-' : '+'}${pad(Math.floor(s / 3600))}`;
  return s % 60 ? `${text}:${pad(m)}:${pad(s % 60)}` : m ? `${text}:${pad(m)}` : text;
}

/** Stored timestamptz text as PostgreSQL prints it in `zone` ('2024-01-02 04:04:05+01'); null when it does not read as one. */
export function timestamptzTextIn(v: string, zone: string): string | null {
  try {
    const t = parseInstant(v, 'timestamp with time zone', 'output');
    if (!t) return null;
    const off = sessionOffsetMs(zone, t.ms);
    return printedText(formatInstant({ ms: t.ms + off, us: t.us, tz: false }, false) + offsetText(off));
  } catch {
    return null;
  }
}

/** ::timestamptz with the session in `zone`: text without an offset is a wall time there (castTimestamptz reads it in UTC). */
export function castTimestamptzIn(v: unknown, zone: string): string | null {
  const inf = infinityWord(v);
  if (inf) return inf;
  // ('today' is the zone's date)
  const before = setDayZone(zone);
  let t: Instant | null;
  try {
    t = parseInstant(v, 'timestamp with time zone', 'cast to timestamptz');
  } finally {
    setDayZone(before);
  }
  if (!t) return null;
  if (t.tz || String(v).trim().toLowerCase() === 'epoch') return formatInstant(t, true);
  const fixed = fixedOffsetMs(zone);
  const ms = fixed !== null ? t.ms - fixed : wallTimeInstant(zone, t.ms);
  return formatInstant({ ms, us: t.us, tz: true }, true);
}
/** A stored timestamptz's wall time in a session's zone, as timestamp text; null for an infinity or no value. */
function wallTextIn(v: unknown, zone: string): string | null {
  if (typeof v !== 'string' || /infinity/i.test(v)) return null;
  const t = parseInstant(v, 'timestamp with time zone', 'AT TIME ZONE');
  return t && formatInstant({ ms: t.ms + sessionOffsetMs(zone, t.ms), us: t.us, tz: false }, false);
}

/**
 * A timestamptz cast to timetz: its time of day in `zone` and the offset there then (`14:00:00+02`),
 * rounded to `digits` fractional digits when given; NULL of an infinity (PostgreSQL's timestamptz_timetz).
 */
function timetzIn(v: unknown, zone: string, digits?: number): string | null {
  if (typeof v !== 'string' || infinityWord(v)) return null;
  const t = parseInstant(v, 'timestamp with time zone', 'cast to timetz');
  if (!t) return null;
  const off = sessionOffsetMs(zone, t.ms);
  let wall = formatInstant({ ms: t.ms + off, us: t.us, tz: false }, false);
  if (digits !== undefined) wall = roundFraction(wall, digits);
  return wall.replace(/ BC$/, '').slice(wall.indexOf(' ') + 1) + offsetText(off);
}

/** date_trunc(unit, x) of a timestamptz with the session in `zone`: cut on the wall clock there, as PostgreSQL does. */
export function dateTruncIn(unit: unknown, v: unknown, zone: string): string | null {
  const wall = wallTextIn(v, zone);
  if (wall === null || unit === null) return dateTrunc(unit, v, 'timestamp with time zone');
  const cut = dateTrunc(unit, wall, 'timestamp with time zone');
  if (cut === null) return null;
  // below a day the offset stays the value's own (its hour in a DST change is not read again)
  if (/^(hour|minute|second|milliseconds|microseconds)$/.test(unitOf(unit, 'timestamp with time zone'))) {
    const t = parseInstant(v, 'timestamp with time zone', 'date_trunc')!;
    const c = parseInstant(cut, 'timestamp', 'date_trunc')!;
    return formatInstant({ ms: c.ms - sessionOffsetMs(zone, t.ms), us: c.us, tz: false }, false);
  }
  return castTimestamptzIn(cut, zone)?.replace(/\+00$/, '') ?? null;
}

/** date_part(field, x) and EXTRACT of a timestamptz with the session in `zone`: its fields on the wall clock there (the epoch unchanged). */
export function datePartIn(field: unknown, v: unknown, zone: string): number | null {
  const wall = /^\s*epoch\s*$/i.test(String(field)) ? null : wallTextIn(v, zone);
  return datePart(field, wall ?? v, 'timestamp with time zone');
}

/**
 * ::time: '10:30', '10:30:00.5 PM', 'allballs' (midnight), with a zone after it that is read and
 * dropped, as PostgreSQL's time input does; or the time of day of a timestamp.
 */
export function castTime(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') {
    const word = v.trim().toLowerCase();
    if (word === 'allballs') return '00:00:00';
    if (word === 'now') return clockText({ ms: Date.now(), us: 0, tz: false });
    const { rest, bc, pm } = takeEraAndMeridiem(v);
    const m = bc ? null : TIME_RE.exec(rest);
    if (m) {
      const h = meridiemHour(Number(m[1]), pm, v);
      const micros = m[4] ? Math.round(Number(`0.${m[4]}`) * 1e6) : 0;
      const total = ((h * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1e6 + micros;
      if (Number(m[2]) > 59 || Number(m[3] ?? 0) > 60 || total > 24 * 3600 * 1e6)
        pgFail('22008', `date/time field value out of range: "${v}"`);
      // a zone after a time alone must be an offset or an abbreviation (a name needs a date)
      if (m[5] && !/^[+-]/.test(m[5]) && !isAbbreviation(m[5]))
        pgFail('22007', `invalid input syntax for type time: "${v}"`);
      if (total === 24 * 3600 * 1e6) return '24:00:00';
      const ms = Math.floor(total / 1000);
      return clockText({ ms, us: total - ms * 1000, tz: false });
    }
  }
  const t = parseInstant(v, 'time', 'cast to time', true)!;
  return clockText(t);
}
/** PostgreSQL's TZDISP_LIMIT: an offset of a timetz past 15:59:59 either way is 22009. */
const TZDISP_LIMIT_MS = ((15 * 60 + 59) * 60 + 59) * 1000;

/**
 * Text cast to timetz as PostgreSQL's timetz_in reads a time of day: the time and the offset it is
 * written with (a number or an abbreviation, today's meaning of one a zone defines), the offset of
 * the session's zone now when it has none; printed as PostgreSQL prints a timetz ('12:00:00+03',
 * '12:00:00-05:30'). An offset past 15:59:59 is 22009. Text with a date keeps its time alone, as
 * before (PostgreSQL's offset of that date is not read here).
 */
export function castTimetz(v: unknown, zone: string): string | null {
  let time: string | null;
  try {
    time = castTime(v);
  } catch (err) {
    // (the input function's error names its own type)
    if (err instanceof Error) err.message = err.message.replace('for type time:', 'for type time with time zone:');
    throw err;
  }
  if (time === null || typeof v !== 'string') return time;
  const m = TIME_RE.exec(takeEraAndMeridiem(v).rest);
  if (!m) return time;
  const now = Date.now();
  let off: number;
  if (m[5]) {
    const [h, mi, sec] = time.split(':').map(Number);
    const wall = Math.floor(now / DAY_MS) * DAY_MS + ((h * 60 + mi) * 60 + Math.floor(sec)) * 1000;
    off = wall - zonedInstant(m[5], wall, 'time with time zone', v);
  } else off = sessionOffsetMs(zone, now);
  if (Math.abs(off) > TZDISP_LIMIT_MS) pgFail('22009', `time zone displacement out of range: "${v}"`);
  return time + offsetText(off);
}

/** A timetz as castTimetz prints it: the time of day and the offset east of UTC. */
const TIMETZ_TEXT = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?$/;

/**
 * A timetz's key whose bytes sort as PostgreSQL's timetz_cmp orders: by the instant in UTC (the time
 * less its offset), then by the offset, east first (`10:00+02` before `08:00+00`, one instant; both
 * before `09:00+00`). Equal keys are equal timetz values (the same time and offset), as timetz_eq's.
 * Text that is no timetz yet (an untyped literal compared with one) is read as timetz input is, an
 * offset missing taken from `zone`.
 */
export function timetzSortKey(v: unknown, zone: string): string | null {
  if (v === null || v === undefined) return null;
  let m = TIMETZ_TEXT.exec(String(v));
  if (!m) {
    const text = castTimetz(String(v), zone);
    m = text === null ? null : TIMETZ_TEXT.exec(text);
    if (!m) return null;
  }
  const micros = ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1e6 + Number((m[4] ?? '').padEnd(6, '0'));
  const east = (m[5] === '-' ? -1 : 1) * ((Number(m[6]) * 60 + Number(m[7] ?? 0)) * 60 + Number(m[8] ?? 0));
  // (both made positive and padded: the UTC instant spans -16h to 40h, the offset under 16h either way)
  const utc = String(micros - east * 1e6 + 1e11).padStart(12, '0');
  return `${utc}${String(60000 - east).padStart(6, '0')}`;
}

/** Whether a word is an abbreviation of PostgreSQL's 'Default' set ('EST', 'z', 'MSK'). */
const isAbbreviation = (w: string) =>
  FIXED_ABBREVIATIONS[w.toLowerCase()] !== undefined || ZONE_ABBREVIATIONS[w.toLowerCase()] !== undefined;
export const castInterval = (v: unknown): string | null => {
  const iv = parseInterval(v);
  return iv && formatInterval(iv);
};

/** to_timestamp(epoch seconds): a timestamp with time zone. */
export function toTimestamp(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  // a double's NaN (kept as the text NaN) and infinities, as PostgreSQL's float8_timestamptz takes them
  if (typeof v === 'string' && /^\s*nan\s*$/i.test(v)) pgFail('22008', 'timestamp cannot be NaN');
  if (v === Infinity || v === -Infinity) return v > 0 ? 'infinity' : '-infinity';
  const n = Number(v);
  if (typeof v === 'string' ? v.trim() === '' || Number.isNaN(n) : typeof v !== 'number' && typeof v !== 'bigint') {
    pgFail('22P02', `to_timestamp: expected epoch seconds (a number), got ${JSON.stringify(String(v))}`);
  }
  if (!Number.isFinite(n) || Math.abs(n) > 8.64e12) pgFail('22008', `timestamp out of range: "${String(v)}"`);
  const micros = Math.round(n * 1e6);
  const ms = Math.floor(micros / 1000);
  return formatInstant({ ms, us: micros - ms * 1000, tz: true });
}

const STORED: Record<string, (v: unknown) => string | null> = lookup({
  date: castDate,
  timestamp: castTimestamp,
  timestamptz: (v) => castTimestamptz(v)?.replace(/\+00$/, '') ?? null,
  time: castTime,
  interval: castInterval,
});

/**
 * A text written into a date or time column of `kind` in the form the column keeps; PostgreSQL's
 * error for text that is none. A kind may carry the column's fractional digits, `timestamp(0)`,
 * `timestamptz(3)`, `time(2)`: the value is rounded to them as PostgreSQL's column keeps it.
 */
export function dateTimeInput(kind: string, v: string): string {
  const p = kind.indexOf('(');
  if (p < 0) return STORED[kind](v) as string;
  const out = STORED[kind.slice(0, p)](v);
  return out === null ? (out as unknown as string) : roundFraction(out, Number(kind.slice(p + 1, -1)));
}

/**
 * A stored timestamp or time text with its seconds rounded to `digits` fractional digits, as
 * PostgreSQL's AdjustTimestampForTypmod does: to the nearest, a half away from 2000-01-01 (its
 * epoch: a half rounds up after it, down before it); a time may round up to 24:00:00.
 */
export function roundFraction(text: string, digits: number): string {
  const m = /^(.*?\d{2}:\d{2}:\d{2})\.(\d+)(.*)$/.exec(text);
  if (!m || digits >= 6 || m[2].length <= digits) return text;
  const [, whole, frac, rest] = m;
  const dropped = frac.slice(digits);
  const half = /^50*$/.test(dropped);
  const beforeEpoch = /^\d{4}-/.test(whole) && (whole < '2000-01-01' || rest.endsWith(' BC'));
  const up = dropped[0] > '5' || (dropped[0] === '5' && !(half && beforeEpoch));
  // the digits kept, one more when rounding up; no trailing zeros, as PostgreSQL prints them
  let kept = digits > 0 ? Number(frac.slice(0, digits)) + (up ? 1 : 0) : up ? 1 : 0;
  const carry = kept >= 10 ** digits;
  if (carry) kept = 0;
  const fraction = kept === 0 ? '' : `.${String(kept).padStart(digits, '0').replace(/0+$/, '')}`;
  if (!carry) return `${whole}${fraction}${rest}`;
  // the fraction carries into the seconds
  const time = /^(\d{2}):(\d{2}):(\d{2})$/.exec(whole);
  if (time) {
    const secs = Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3]) + 1;
    const two = (n: number) => String(n).padStart(2, '0');
    return `${two(Math.floor(secs / 3600))}:${two(Math.floor(secs / 60) % 60)}:${two(secs % 60)}${rest}`;
  }
  return addInterval(`${whole}${rest}`, '00:00:01', 1) ?? text;
}

/**
 * A value written into a date, time, timestamp, timestamptz or interval column in the form the
 * column keeps (UTC text without '+00' for timestamptz, '10:30:00', '1 day 02:00:00'), so that
 * comparisons, casts and aggregates read it; text this parser does not read is kept as sent.
 */
export function storedDateTime(kind: string, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  // 'date~dmy', 'interval~mdy+sql': text read in that input style (the session's, when it is not MDY)
  const tilde = kind.indexOf('~');
  if (tilde >= 0) {
    return withInputStyle(inputStyleOf(kind.slice(tilde + 1)), () => storedDateTime(kind.slice(0, tilde), v));
  }
  try {
    // 'timestamptz@Europe/Paris': text without an offset is a wall time in the session's zone;
    // 'timestamp(0)', 'timestamptz(2)@...': rounded to the column's fractional digits
    const at = kind.indexOf('@');
    const typed = at < 0 ? kind : kind.slice(0, at);
    const open = typed.indexOf('(');
    const base = open < 0 ? typed : typed.slice(0, open);
    const out =
      base === 'timestamptz' && at >= 0
        ? castTimestamptzIn(v, kind.slice(at + 1))?.replace(/\+00$/, '')
        : STORED[base]?.(v);
    if (out === null || out === undefined) return v;
    return open < 0 ? out : roundFraction(out, Number(typed.slice(open + 1, -1)));
  } catch {
    return v;
  }
}

/**
 * Registers the functions on a connection: date_trunc, date_part, to_timestamp under their
 * PostgreSQL names; the casts and interval arithmetic under __pg_* names the dialect writes.
 * Deterministic (now() is a value the dialect puts in), cheap and bounded: safe on the writer too.
 */
export function installDateFunctions(db: Database.Database): void {
  const det = { deterministic: true };
  db.function('date_trunc', det, (u: unknown, v: unknown) => dateTrunc(u, v));
  // date_trunc(unit, timestamptz, zone): cut on the wall clock of that zone (its name read first, as there)
  db.function('date_trunc', det, (u: unknown, v: unknown, z: unknown) => {
    if (u === null || v === null || z === null) return null;
    sessionOffsetMs(String(z), 0);
    return dateTruncIn(u, v, String(z));
  });
  db.function('date_part', det, (f: unknown, v: unknown) => datePart(f, v));
  // (with the type a unit's error names, where the analysis found a unit no type takes: translate/words.ts)
  db.function('__pg_date_part_typed', det, (f: unknown, v: unknown, type: unknown) => datePart(f, v, String(type)));
  db.function('__pg_date_trunc_typed', det, (u: unknown, v: unknown, type: unknown) => dateTrunc(u, v, String(type)));
  // (of a timestamptz with the session in a zone other than UTC: sql/session-zone.ts writes the zone in)
  db.function('__pg_date_trunc_in', det, (u: unknown, v: unknown, z: unknown) => dateTruncIn(u, v, String(z)));
  db.function('__pg_wall_in', det, (v: unknown, z: unknown) => (v === null ? null : (wallTextIn(v, String(z)) ?? v)));
  // (a timestamp or timestamptz toward a time of day: an infinity has none, NULL as PostgreSQL's
  // timestamp_time and timestamptz_time give)
  db.function('__pg_finite', det, (v: unknown) => (infinityWord(v) ? null : v));
  db.function('__pg_timetz_in', det, (v: unknown, z: unknown) => timetzIn(v, String(z)));
  db.function('__pg_timetz_in', det, (v: unknown, z: unknown, digits: unknown) =>
    timetzIn(v, String(z), Number(digits)),
  );
  db.function('__pg_wall_in', det, (v: unknown, z: unknown, _time: unknown) =>
    v === null || infinityWord(v) ? null : (wallTextIn(v, String(z)) ?? v),
  );
  db.function('__pg_date_part_in', det, (f: unknown, v: unknown, z: unknown) => datePartIn(f, v, String(z)));
  db.function('__pg_exact_epoch', det, (_: unknown, v: unknown) => exactEpoch(v));
  // a window's ORDER BY key of a date, timestamp or timestamptz as microseconds since 1970, for a
  // RANGE frame offset of an interval (translate/frame-offsets.ts gives the offset in microseconds:
  // SQLite's offsets are numbers); the infinities sort at either end, as there
  db.function('__pg_frame_epoch', det, (v: unknown) => {
    if (v === null) return null;
    const inf = infinityWord(v);
    if (inf) return inf === 'infinity' ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    const t = parseInstant(v, 'timestamp', 'window frame');
    return t ? t.ms * 1000 + t.us : null;
  });
  // that key moved by an interval (sign -1: less it), as microseconds since 1970: a bound of a RANGE
  // frame of months (protocols/pg/sql/month-frames.ts), by PostgreSQL's date arithmetic
  db.function('__pg_frame_bound', det, (v: unknown, iv: unknown, sign: unknown) => {
    if (v === null) return null;
    const moved = addInterval(v, iv, sign);
    const inf = infinityWord(moved);
    if (inf) return inf === 'infinity' ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    const t = moved === null ? null : parseInstant(moved, 'timestamp', 'window frame');
    return t ? t.ms * 1000 + t.us : null;
  });
  db.function('to_timestamp', det, (v: unknown) => toTimestamp(v));
  db.function('__pg_add_interval', det, (v: unknown, iv: unknown, sign: unknown) => addInterval(v, iv, sign));
  db.function('__pg_date', det, (v: unknown) => castDate(v));
  db.function('__pg_timestamp', det, (v: unknown) => castTimestamp(v));
  // (per row: the form a timestamptz column keeps, UTC text without its +00, so that it compares
  // with columns and literals, which are kept so: `s::timestamptz = '2024-01-01 12:00'` was false)
  const storedTz = (v: unknown) => castTimestamptz(v)?.replace(/\+00$/, '') ?? null;
  db.function('__pg_timestamptz', det, storedTz);
  // (text cast per row with the session in a zone other than UTC: a wall time there)
  const storedTzIn = (v: unknown, z: unknown) => castTimestamptzIn(v, String(z))?.replace(/\+00$/, '') ?? null;
  db.function('__pg_timestamptz_in', det, storedTzIn);
  // the same with the session's input style after them, when it is not MDY ('dmy', 'ymd+sql')
  const read = <T>(o: unknown, fn: () => T) => withInputStyle(inputStyleOf(o), fn);
  db.function('__pg_date', det, (v: unknown, o: unknown) => read(o, () => castDate(v)));
  db.function('__pg_timestamp', det, (v: unknown, o: unknown) => read(o, () => castTimestamp(v)));
  db.function('__pg_timestamptz', det, (v: unknown, o: unknown) => read(o, () => storedTz(v)));
  db.function('__pg_timestamptz_in', det, (v: unknown, z: unknown, o: unknown) => read(o, () => storedTzIn(v, z)));
  db.function('__pg_interval', det, (v: unknown, o: unknown) => read(o, () => castInterval(v)));
  db.function('__pg_time', det, (v: unknown) => castTime(v));
  // (text cast to timetz per row; without an offset it takes the session zone's: translate/casts.ts)
  db.function('__pg_timetz', det, (v: unknown, z: unknown) => castTimetz(v, String(z)));
  db.function('__pg_interval', det, (v: unknown) => castInterval(v));
  db.function('__pg_store_dt', det, (kind: unknown, v: unknown) => storedDateTime(String(kind), v) as string);
  db.function('__pg_round_time', det, (v: unknown, digits: unknown) =>
    typeof v === 'string' ? roundFraction(v, Number(digits)) : (v as null),
  );
  // sum and avg of intervals (SQLite's would add their texts as numbers): months, days and
  // microseconds summed apart, as PostgreSQL's interval_pl; avg divides the sum as interval_div
  for (const avg of [false, true])
    db.aggregate(avg ? '__pg_interval_avg' : '__pg_interval_sum', {
      start: () => ({ months: 0, days: 0, micros: 0, n: 0 }),
      step: (a: Interval & { n: number }, v: unknown) => {
        const iv = parseInterval(v);
        if (!iv) return a;
        return { months: a.months + iv.months, days: a.days + iv.days, micros: a.micros + iv.micros, n: a.n + 1 };
      },
      inverse: (a: Interval & { n: number }, v: unknown) => {
        const iv = parseInterval(v);
        if (!iv) return a;
        return { months: a.months - iv.months, days: a.days - iv.days, micros: a.micros - iv.micros, n: a.n - 1 };
      },
      result: (a: Interval & { n: number }) =>
        a.n === 0 ? null : avg ? scaleInterval(formatInterval(a), a.n, true) : formatInterval(a),
    });
  // compared and sorted by their length, not their text (the analysis wraps both sides, or the sort key)
  db.function('__pg_interval_key', det, (v: unknown) => intervalKey(v));
  // greatest() and least() of intervals (by length) and timetz values (by instant, then offset:
  // kind 'timetz@zone', a literal with no offset in that zone): NULLs skipped, the first of equal
  // values kept, as PostgreSQL's MinMaxExpr keeps it; SQLite's max() and min() picked by the text
  for (const greatest of [false, true])
    db.function(greatest ? '__pg_keyed_greatest' : '__pg_keyed_least', { ...det, varargs: true }, (kind, ...vs) => {
      const zone = String(kind).startsWith('timetz') ? String(kind).slice(7) || 'UTC' : null;
      const key = (v: unknown) => (zone === null ? intervalKey(v) : timetzSortKey(v, zone));
      let best: unknown = null;
      let bestKey: number | string | null = null;
      for (const v of vs) {
        const k = v === null || v === undefined ? null : key(v);
        if (k === null) continue;
        if (bestKey === null || (greatest ? k > bestKey : k < bestKey)) [best, bestKey] = [v, k];
      }
      return best as string | null;
    });
  // min and max of intervals likewise (SQLite's would pick by the text: max('9 days', '10 days') is '9 days')
  for (const max of [false, true])
    db.aggregate(max ? '__pg_interval_max' : '__pg_interval_min', {
      start: () => ({ key: null as number | null, value: null as unknown }),
      step: (a: { key: number | null; value: unknown }, v: unknown) => {
        const key = intervalKey(v);
        // (of equal lengths the last, as PostgreSQL's interval_larger and interval_smaller keep it)
        if (key === null || (a.key !== null && (max ? key < a.key : key > a.key))) return a;
        return { key, value: v };
      },
      result: (a: { value: unknown }) => (a.value ?? null) as string | null,
    });
  // over a window: the frame's values kept in order, as the frame drops its oldest first (inverse)
  for (const max of [false, true])
    db.aggregate(max ? '__pg_interval_max_w' : '__pg_interval_min_w', {
      start: () => [] as [number, unknown][],
      step: (a: [number, unknown][], v: unknown) => {
        const key = intervalKey(v);
        a.push([key ?? Number.NaN, v]);
        return a;
      },
      inverse: (a: [number, unknown][]) => {
        a.shift();
        return a;
      },
      result: (a: [number, unknown][]) => {
        let best: [number, unknown] | null = null;
        for (const e of a)
          if (!Number.isNaN(e[0]) && (best === null || (max ? e[0] >= best[0] : e[0] <= best[0]))) best = e;
        return (best?.[1] ?? null) as string | null;
      },
    });
  db.function('__pg_overlaps', det, (a: unknown, b: unknown, c: unknown, d: unknown) => overlaps(a, b, c, d));
  db.function('date_bin', det, (s: unknown, v: unknown, o: unknown) => dateBin(s, v, o));
  db.function('make_interval', { deterministic: true, varargs: true }, (...a: unknown[]) => makeInterval(...a));
  db.function('make_date', det, (y: unknown, m: unknown, d: unknown) => makeDate(y, m, d));
  db.function('make_timestamp', det, (y: unknown, m: unknown, d: unknown, h: unknown, mi: unknown, s: unknown) =>
    makeTimestamp(y, m, d, h, mi, s),
  );
  db.function('make_time', det, (h: unknown, mi: unknown, s: unknown) => makeTime(h, mi, s));
  // make_timestamptz(..., zone): the wall time in that zone (the translation gives the session's
  // zone to the six-argument form when it is not UTC: translate/words.ts)
  db.function('make_timestamptz', { deterministic: true, varargs: true }, (...a: unknown[]) => {
    if (a.length < 6 || a.length > 7 || a.some((x) => x === null)) return null;
    const wall = makeTimestamp(a[0], a[1], a[2], a[3], a[4], a[5]);
    if (wall === null) return null;
    if (a.length === 6) return castTimestamptz(wall);
    // a numeric offset is ISO 8601's, east of Greenwich positive ('+02' is UTC+2), as there
    if (/^\s*[+-]\d{1,2}(:?\d{2}){0,2}\s*$/.test(String(a[6]))) return castTimestamptz(wall + String(a[6]).trim());
    sessionOffsetMs(String(a[6]), 0); // (22023 for a zone it does not know)
    return castTimestamptzIn(wall, String(a[6]));
  });
  db.function('age', det, (a: unknown, b: unknown) => age(a, b));
  // age(x): from today's midnight, as PostgreSQL counts it (so not deterministic)
  db.function('age', (a: unknown) => age(formatDate(new Date()), a));
  // the clock to the microsecond (timeofday(); SQLite's has milliseconds), read anew each call
  db.function('__pg_clock_us', () => clockMicrosText());
  // now() and statement_timestamp(): what the PG session pinned for its transaction and statement
  db.function('__pg_now', () => transactionClockText());
  db.function('__pg_statement_now', () => statementClockText());
  db.function('__pg_clock_now', () => clockStoredText());
  for (const kind of ['hours', 'days', 'interval'] as const)
    db.function(`justify_${kind}`, det, (v: unknown) => justify(kind, v));
  db.function('__pg_at_zone', det, (kind: unknown, v: unknown, zone: unknown) => atTimeZone(kind, v, zone));
  // timezone(z, x), AT TIME ZONE called by name
  db.function('__pg_timezone_local', det, (zone: unknown, v: unknown) => atTimeZone('tz-local', v, zone));
  db.function('__pg_timezone_wall', det, (zone: unknown, v: unknown) => atTimeZone('tz-wall', v, zone));
  db.function('__pg_date_arith', det, (kind: unknown, a: unknown, b: unknown) => dateArithmetic(kind, a, b));
}
