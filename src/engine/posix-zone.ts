// POSIX time zones with summer time, as PostgreSQL's tzparse reads them (`SET TIME ZONE
// 'CET-1CEST,M3.5.0,M10.5.0/3'`, `'XYZ-2ABC'`): a standard name and offset west of Greenwich, a
// summer name with its own offset (one hour ahead when left out), and the rules of its start and
// end (`Mm.w.d`, `Jn`, `n`, each with a local time, 02:00 when left out); without rules the US ones,
// PostgreSQL's TZDEFRULESTRING `,M3.2.0,M11.1.0`. Intl knows no such zone: dates.ts asks here first.
// (A zone without summer time, `UTC+3`, is a fixed offset: dates.ts's fixedOffsetMs.)

/** A day rule: the m-th month's w-th (5: last) weekday d, day n of 1..365 without Feb 29 (Jn), or day n of 0..365. */
type DayRule = { kind: 'M'; month: number; week: number; weekday: number } | { kind: 'J' | 'n'; day: number };

export interface PosixZone {
  /** Abbreviations, as PostgreSQL prints them (the zone name is kept in upper case). */
  std: string;
  dst: string;
  /** Offsets east of Greenwich, in milliseconds. */
  stdOffset: number;
  dstOffset: number;
  start: DayRule;
  end: DayRule;
  /** Local times of the changes, in milliseconds after the day's midnight (the start's in standard time, the end's in summer time). */
  startTime: number;
  endTime: number;
}

const ZONES = new Map<string, PosixZone | null>();

const NAME = /^(?:<([A-Za-z0-9+-]*)>|([A-Za-z]+))/;
/** [+-]hh[:mm[:ss]], hours up to `max`; milliseconds (the sign as written) or null. */
function readOffset(s: string, max: number): [number, string] | null {
  const m = /^([+-]?)(\d{1,3})(?::([0-5]\d)(?::([0-5]\d))?)?/.exec(s);
  if (!m || Number(m[2]) > max) return null;
  const ms = ((Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60 + Number(m[4] ?? 0)) * 1000;
  return [m[1] === '-' ? -ms : ms, s.slice(m[0].length)];
}

function readRule(s: string): [DayRule, number, string] | null {
  let rule: DayRule;
  let m = /^M(\d{1,2})\.(\d)\.(\d)/.exec(s);
  if (m) {
    const [month, week, weekday] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (month < 1 || month > 12 || week < 1 || week > 5 || weekday > 6) return null;
    rule = { kind: 'M', month, week, weekday };
  } else if ((m = /^J(\d{1,3})/.exec(s))) {
    if (Number(m[1]) < 1 || Number(m[1]) > 365) return null;
    rule = { kind: 'J', day: Number(m[1]) };
  } else if ((m = /^(\d{1,3})/.exec(s))) {
    if (Number(m[1]) > 365) return null;
    rule = { kind: 'n', day: Number(m[1]) };
  } else return null;
  let rest = s.slice(m[0].length);
  let time = 2 * 3600_000;
  if (rest.startsWith('/')) {
    const t = readOffset(rest.slice(1), 167);
    if (!t) return null;
    [time, rest] = t;
  }
  return [rule, time, rest];
}

/** The POSIX zone a name with summer time is, or null (a name without summer time, any other text). */
export function posixZone(name: string): PosixZone | null {
  let z = ZONES.get(name);
  if (z !== undefined) return z;
  z = parse(name.toUpperCase());
  if (ZONES.size < 1000) ZONES.set(name, z);
  return z;
}

function parse(s: string): PosixZone | null {
  const std = NAME.exec(s);
  if (!std) return null;
  const so = readOffset(s.slice(std[0].length), 167);
  if (!so) return null;
  let rest = so[1];
  const dst = NAME.exec(rest);
  if (!dst) return null;
  if (dst[0] === '') return null;
  rest = rest.slice(dst[0].length);
  let dstWest = so[0] - 3600_000;
  if (rest !== '' && !rest.startsWith(',')) {
    const o = readOffset(rest, 167);
    if (!o) return null;
    [dstWest, rest] = o;
  }
  if (rest === '') rest = ',M3.2.0,M11.1.0';
  if (!rest.startsWith(',')) return null;
  const start = readRule(rest.slice(1));
  if (!start?.[2].startsWith(',')) return null;
  const end = readRule(start[2].slice(1));
  if (end?.[2] !== '') return null;
  return {
    std: std[1] ?? std[2],
    dst: dst[1] ?? dst[2],
    stdOffset: -so[0],
    dstOffset: -dstWest,
    start: start[0],
    end: end[0],
    startTime: start[1],
    endTime: end[1],
  };
}

const DAY = 86_400_000;
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Midnight (as UTC milliseconds of the wall clock) of the day a rule names in year y. */
function ruleDay(r: DayRule, y: number): number {
  const yearStart = new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(y);
  if (r.kind !== 'M') return yearStart + (r.kind === 'n' ? r.day : r.day - 1 + (leap(y) && r.day >= 60 ? 1 : 0)) * DAY;
  const first = new Date(Date.UTC(2000, r.month - 1, 1)).setUTCFullYear(y);
  const days = r.month === 2 ? (leap(y) ? 29 : 28) : [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][r.month - 1];
  let d = 1 + ((r.weekday - new Date(first).getUTCDay() + 7) % 7) + (r.week - 1) * 7;
  while (d > days) d -= 7;
  return first + (d - 1) * DAY;
}

/** Whether summer time is in force at an instant (UTC milliseconds). */
function inSummer(z: PosixZone, ms: number): boolean {
  const y = new Date(ms + z.stdOffset).getUTCFullYear();
  const start = ruleDay(z.start, y) + z.startTime - z.stdOffset;
  const end = ruleDay(z.end, y) + z.endTime - z.dstOffset;
  return start < end ? ms >= start && ms < end : ms < end || ms >= start;
}

/**
 * Whether a POSIX zone (with summer time or without) is off UTC by a number of seconds on
 * 2000-01-01: PostgreSQL's pg_tz_acceptable refuses it ("appears to use leap seconds").
 */
export function posixLeapSeconds(name: string): boolean {
  const s = name.trim().toUpperCase();
  const ruled = posixZone(s);
  if (ruled) return posixOffsetMs(ruled, Date.UTC(2000, 0, 1)) % 60_000 !== 0;
  const std = NAME.exec(s);
  const offset = std ? readOffset(s.slice(std[0].length), 167) : null;
  return offset !== null && offset[1] === '' && offset[0] % 60_000 !== 0;
}

/** The zone's offset east of Greenwich at an instant, in milliseconds. */
export function posixOffsetMs(z: PosixZone, ms: number): number {
  return inSummer(z, ms) ? z.dstOffset : z.stdOffset;
}

/** The zone's abbreviation at an instant (CET, CEST). */
export function posixAbbreviation(z: PosixZone, ms: number): string {
  return inSummer(z, ms) ? z.dst : z.std;
}
