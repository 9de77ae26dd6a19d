// How a session prints the types whose text its settings choose: intervals by IntervalStyle (Rails
// sets iso_8601), bytea by bytea_output (Drupal 7 sets escape), dates and timestamps by DateStyle
// (initdb sets `ISO, DMY` for many locales; its order is also how numeric dates are read). Result
// cells in text format and COPY's text and CSV follow them; binary forms do not change.
import {
  formatIntervalIn,
  type InputStyle,
  type IntervalStyle,
  isUtcZone,
  parseInterval,
  utcZoneAbbreviation,
} from '../../../src/engine/dates';
import {
  type DateOrder,
  type DateOutput,
  type DateStyle,
  ISO_MDY,
  styledDateText,
} from '../../../src/engine/date-style';
import { byteaEscapeText } from '../../../src/engine/pg-strings';
import { arrayCodec } from './array';
import type { Codec } from './codec';
import { dateCodec, intervalCodec, timestampCodec, timestamptzCodec } from './datetime';
import { OID } from './oids';
import { arrayOidOf } from './registry';
import { byteaCodec } from './text';

/** The session's IntervalStyle, bytea_output and DateStyle. */
export interface OutputStyles {
  readonly interval: IntervalStyle;
  readonly bytea: 'hex' | 'escape';
  readonly date: DateStyle;
  /** The abbreviation of a session zone that is UTC under another name ('GMT'), which to_char's TZ prints; absent for UTC's own. */
  readonly utcName?: string;
  /** default_text_search_config when it is not english (the one-argument to_tsvector and text's @@ read it). */
  readonly textSearch?: string;
}

/** PostgreSQL's defaults, whose text is the codecs' own (the rows' fast path). */
export const DEFAULT_STYLES: OutputStyles = Object.freeze({ interval: 'postgres', bytea: 'hex', date: ISO_MDY });

const STYLES = new Map<string, OutputStyles>([['postgres/hex/ISO, MDY//', DEFAULT_STYLES]]);

/** The styles the settings choose: one object per combination, so that a cache may compare them by identity (the session keeps its last one). */
export function outputStylesOf(settings: ReadonlyMap<string, string>): OutputStyles {
  const interval = (settings.get('intervalstyle') ?? 'postgres') as IntervalStyle;
  const bytea = settings.get('bytea_output') === 'escape' ? 'escape' : 'hex';
  // (the setting as SHOW prints it, 'SQL, DMY': settings.ts keeps it so)
  const dateStyle = settings.get('datestyle') ?? 'ISO, MDY';
  // a zone that is UTC under another name prints its own abbreviation after a timestamptz in
  // the styles other than ISO ('GMT'; the rows' fast path prints UTC's)
  const zone = settings.get('timezone') ?? 'UTC';
  const zoneName = isUtcZone(zone) ? utcZoneAbbreviation(zone) : 'UTC';
  const utcName = zoneName === 'UTC' ? '' : zoneName;
  const utc = dateStyle.startsWith('ISO') ? '' : utcName;
  const search = settings.get('default_text_search_config') ?? 'pg_catalog.english';
  const textSearch = /^(pg_catalog\.)?english$/i.test(search.trim()) ? '' : search;
  const key = `${interval}/${bytea}/${dateStyle}/${utc}/${utcName}${textSearch ? `/${textSearch}` : ''}`;
  let s = STYLES.get(key);
  if (!s) {
    const [output, order] = dateStyle.toLowerCase().split(', ') as [DateOutput, DateOrder];
    const date =
      output === 'iso' && order === 'mdy' ? ISO_MDY : Object.freeze(utc ? { output, order, utc } : { output, order });
    const base: OutputStyles = utcName ? { interval, bytea, date, utcName } : { interval, bytea, date };
    s = Object.freeze(textSearch ? { ...base, textSearch } : base);
    STYLES.set(key, s);
  }
  return s;
}

/**
 * How text is read under the styles: DateStyle's order, '+sql' under IntervalStyle sql_standard (a
 * leading minus then carries over an interval's unsigned fields), as PostgreSQL's input reads it.
 */
export const inputStyleIn = (s: OutputStyles): InputStyle =>
  s.interval === 'sql_standard' ? `${s.date.order}+sql` : s.date.order;

const CODECS = new Map<string, Codec>();

/** The codec printing a type (or an array of it) in a style other than the default; undefined for types the styles do not touch. */
export function styledCodec(oid: number, styles: OutputStyles, zone: string | null = null): Codec | undefined {
  const dated = DATED.get(oid);
  if (dated) return styles.date.output === 'iso' ? undefined : datedCodec(oid, dated, styles.date, zone);
  const isInterval = oid === OID.interval || oid === INTERVAL_ARRAY;
  const isBytea = oid === OID.bytea || oid === BYTEA_ARRAY;
  if (isInterval ? styles.interval === 'postgres' : !isBytea || styles.bytea === 'hex') return undefined;
  const key = `${oid}/${isInterval ? styles.interval : styles.bytea}`;
  let c = CODECS.get(key);
  if (!c) {
    const base = isInterval ? intervalIn(styles.interval) : escapedBytea;
    c = oid === base.oid ? base : arrayCodec(oid, `_${base.name}`, base);
    CODECS.set(key, c);
  }
  return c;
}

const INTERVAL_ARRAY = arrayOidOf(OID.interval)!;

type DatedKind = 'date' | 'timestamp' | 'timestamptz';
/** The types (and arrays of them) DateStyle prints: time and timetz, intervals print the same in every style. */
const DATED = new Map<number, DatedKind>();
for (const [oid, kind] of [
  [OID.date, 'date'],
  [OID.timestamp, 'timestamp'],
  [OID.timestamptz, 'timestamptz'],
] as const) {
  DATED.set(oid, kind);
  DATED.set(arrayOidOf(oid)!, kind);
}
const BASE_CODECS = { date: dateCodec, timestamp: timestampCodec, timestamptz: timestamptzCodec };

/** A date, timestamp or timestamptz codec (or an array's) printing in DateStyle `style`, a timestamptz in `zone` (null: UTC). */
function datedCodec(oid: number, kind: DatedKind, style: DateStyle, zone: string | null): Codec {
  const key = `${oid}/${style.output}/${style.order}/${kind === 'timestamptz' ? (zone ?? style.utc ?? '') : ''}`;
  let c = CODECS.get(key);
  if (!c) {
    const base = BASE_CODECS[kind];
    const element: Codec = {
      ...base,
      text: (v) => (typeof v === 'string' ? (styledDateText(v, kind, style, zone) ?? v) : base.text(v)),
    };
    c = oid === base.oid ? element : arrayCodec(oid, `_${base.name}`, element);
    if (CODECS.size < 1000) CODECS.set(key, c);
  }
  return c;
}
const BYTEA_ARRAY = arrayOidOf(OID.bytea)!;

/** interval's codec printing in `style`. */
function intervalIn(style: IntervalStyle): Codec {
  return {
    ...intervalCodec,
    text: (v) => {
      const iv = typeof v === 'string' ? readInterval(v) : null;
      return iv ? formatIntervalIn(iv, style) : intervalCodec.text(v);
    },
  };
}

function readInterval(v: string) {
  try {
    return parseInterval(v);
  } catch {
    return null;
  }
}

/** bytea's codec printing the escape format. */
const escapedBytea: Codec = {
  ...byteaCodec,
  text: (v) => byteaEscapeText(byteaCodec.binary(v)),
};
