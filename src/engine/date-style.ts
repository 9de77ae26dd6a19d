// PostgreSQL's DateStyle: the order numeric dates are read in ('01/02/2024' is January 2 in MDY,
// February 1 in DMY) and the style dates and timestamps are printed in (ISO '2024-01-02', SQL
// '01/02/2024', Postgres 'Tue Jan 02 10:00:00 2024 PST', German '02.01.2024'), as its
// EncodeDateOnly and EncodeDateTime print them. Values are stored in the ISO form whatever the style.
import { parseInstant, sessionOffsetMs, zoneAbbreviation } from './dates';

/** DateStyle's field order for input (and for the SQL and Postgres output styles). */
export type DateOrder = 'mdy' | 'dmy' | 'ymd';
/** DateStyle's output style. */
export type DateOutput = 'iso' | 'sql' | 'postgres' | 'german';

/** A session's DateStyle. */
export interface DateStyle {
  readonly output: DateOutput;
  readonly order: DateOrder;
  /** The abbreviation of a session zone that is UTC under another name ('GMT'), when it is not 'UTC'. */
  readonly utc?: string;
}

/** PostgreSQL's default, `ISO, MDY`: the stored text is printed as it is. */
export const ISO_MDY: DateStyle = Object.freeze({ output: 'iso', order: 'mdy' });

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

type Kind = 'date' | 'timestamp' | 'timestamptz';

/**
 * Stored date, timestamp or timestamptz text as PostgreSQL prints it under `style` other than ISO;
 * a timestamptz in `zone` (null: UTC, by the style's name of it) with the zone's abbreviation. Null when the text is no such
 * value (the caller prints it as it is); 'infinity' and '-infinity' are the same in every style.
 */
export function styledDateText(stored: string, kind: Kind, style: DateStyle, zone: string | null): string | null {
  if (/^\s*-?infinity\s*$/i.test(stored)) return stored.trim().toLowerCase();
  let t: ReturnType<typeof parseInstant>;
  try {
    t = parseInstant(stored, kind === 'date' ? 'date' : 'timestamp', 'output', kind !== 'timestamptz');
  } catch {
    return null;
  }
  if (!t) return null;
  const offset = kind === 'timestamptz' && zone !== null ? sessionOffsetMs(zone, t.ms) : 0;
  const d = new Date(t.ms + offset);
  const y = d.getUTCFullYear();
  const f = {
    year: pad(y > 0 ? y : 1 - y, 4),
    mon: d.getUTCMonth(),
    day: pad(d.getUTCDate()),
    bc: y <= 0 ? ' BC' : '',
  };
  if (kind === 'date') return dateText(f, style) + f.bc;
  const clock = clockText(d, t.us);
  const tz =
    kind === 'timestamptz' ? (zone === null ? (style.utc ?? 'UTC') : zoneAbbreviation(zone, t.ms, offset)) : null;
  if (style.output === 'postgres') {
    const dm = style.order === 'dmy' ? `${f.day} ${MONTHS[f.mon]}` : `${MONTHS[f.mon]} ${f.day}`;
    return `${WEEKDAYS[d.getUTCDay()]} ${dm} ${clock} ${f.year}${tz === null ? '' : ` ${tz}`}${f.bc}`;
  }
  return `${dateText(f, style)} ${clock}${tz === null ? '' : ` ${tz}`}${f.bc}`;
}

/** The date part: EncodeDateOnly's (the Postgres style's date alone is '01-02-2024'). */
function dateText(f: { year: string; mon: number; day: string }, style: DateStyle): string {
  const mon = pad(f.mon + 1);
  switch (style.output) {
    case 'german':
      return `${f.day}.${mon}.${f.year}`;
    case 'sql':
      return style.order === 'dmy' ? `${f.day}/${mon}/${f.year}` : `${mon}/${f.day}/${f.year}`;
    case 'postgres':
      return style.order === 'dmy' ? `${f.day}-${mon}-${f.year}` : `${mon}-${f.day}-${f.year}`;
    default:
      return `${f.year}-${mon}-${f.day}`;
  }
}

/** The time of day with its fraction, trailing zeros cut: '10:00:00.5'. */
function clockText(d: Date, us: number): string {
  const s = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const micros = d.getUTCMilliseconds() * 1000 + us;
  return micros > 0 ? `${s}.${pad(micros, 6).replace(/0+$/, '')}` : s;
}
