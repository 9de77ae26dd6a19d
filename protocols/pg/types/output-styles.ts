// How a session prints the types whose text its settings choose: intervals by IntervalStyle (Rails
// sets iso_8601), bytea by bytea_output (Drupal 7 sets escape). Result cells in text format and
// COPY's text and CSV follow them; binary forms do not change.
import { formatIntervalIn, type IntervalStyle, parseInterval } from '../../../src/engine/dates';
import { byteaEscapeText } from '../../../src/engine/pg-strings';
import { arrayCodec } from './array';
import type { Codec } from './codec';
import { intervalCodec } from './datetime';
import { OID } from './oids';
import { arrayOidOf } from './registry';
import { byteaCodec } from './text';

/** The session's IntervalStyle and bytea_output. */
export interface OutputStyles {
  readonly interval: IntervalStyle;
  readonly bytea: 'hex' | 'escape';
}

/** PostgreSQL's defaults, whose text is the codecs' own (the rows' fast path). */
export const DEFAULT_STYLES: OutputStyles = Object.freeze({ interval: 'postgres', bytea: 'hex' });

const STYLES = new Map<string, OutputStyles>([['postgres/hex', DEFAULT_STYLES]]);

/** The styles the settings choose: one object per combination, so that a cache may compare them by identity. */
export function outputStylesOf(settings: ReadonlyMap<string, string>): OutputStyles {
  const interval = (settings.get('intervalstyle') ?? 'postgres') as IntervalStyle;
  const bytea = settings.get('bytea_output') === 'escape' ? 'escape' : 'hex';
  const key = `${interval}/${bytea}`;
  let s = STYLES.get(key);
  if (!s) {
    s = Object.freeze({ interval, bytea });
    STYLES.set(key, s);
  }
  return s;
}

const CODECS = new Map<string, Codec>();

/** The codec printing a type (or an array of it) in a style other than the default; undefined for types the styles do not touch. */
export function styledCodec(oid: number, styles: OutputStyles): Codec | undefined {
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
