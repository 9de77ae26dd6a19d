// SQL's interval qualifier (`interval hour`, `day to second`, `minute to second(0)`): the interval
// PostgreSQL's interval input and AdjustIntervalForTypmod make of a literal's text under it. A bare number counts
// the range's last field, `a:b` under MINUTE TO SECOND is minutes and seconds, and the fields below
// the range's last are cut off (the seconds rounded to the precision). Read at analysis for a literal
// (protocols/pg/sql/translate/interval-fields.ts); anything else is read as a plain interval and
// cut per row (__pg_interval_fields).
import { type Interval, formatInterval, parseInterval } from './dates';
import { sqlStateError } from '../errors';

export const INTERVAL_FIELDS = ['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'];
const UNIT_OF: Record<string, string> = {
  YEAR: 'years',
  MONTH: 'months',
  DAY: 'days',
  HOUR: 'hours',
  MINUTE: 'minutes',
  SECOND: 'seconds',
};
const PER_MICROS: Record<string, number> = { HOUR: 3.6e9, MINUTE: 6e7 };

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
  return cutInterval(readInterval(input, text), last, precision);
}

/** The interval of `input`, PostgreSQL's 22007 naming `text` when it is none. */
function readInterval(input: string, text: string): Interval {
  const iv = parseInterval(input);
  if (iv === null) throw sqlStateError('22007', `invalid input syntax for type interval: "${text}"`);
  return iv;
}

/** An interval cut to a range ending in `last` and rounded to `precision`, as AdjustIntervalForTypmod. */
function cutInterval(iv: Interval, last: string | null, precision: number | null): Interval {
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

/**
 * A value of a column, parameter or expression cast to interval with the qualifier, as an interval's
 * text; null stays null. Unlike a literal's, its text is read as a plain interval first and then cut
 * (PostgreSQL's I/O cast reads it without the qualifier: a text '12' under HOUR is 12 seconds, cut to
 * 00:00:00).
 */
export function qualifyInterval(x: unknown, last: string, precision: number | null): string | null {
  if (x === null || x === undefined) return null;
  return formatInterval(cutInterval(readInterval(String(x), String(x)), last, precision));
}
