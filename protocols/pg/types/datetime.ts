// date, time, timestamp, timestamptz and interval. They are stored as the text PostgreSQL prints
// (UTC); the binary forms count from 2000-01-01: date in int32 days, timestamps in int64
// microseconds, time in int64 microseconds since midnight, interval as int64 microseconds, int32
// days, int32 months. 'infinity' and '-infinity' are the extreme values, as in PostgreSQL.
import {
  formatInterval,
  parseInterval,
  pgDateBinary,
  pgDateFromBinary,
  pgDateText,
  timestamptzTextIn,
} from '../../../src/engine/dates';
import { BadBinary, type Codec, bytes, expectLength, notA } from './codec';
import { plainText } from './text';

type DateKind = 'date' | 'timestamp' | 'timestamptz' | 'time';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);
const DAY_MICROS = 86_400_000_000n;

/** The infinity a stored value names, if any. */
function infinityOf(v: unknown): 1 | -1 | 0 {
  if (typeof v !== 'string') return 0;
  const w = v.trim().toLowerCase();
  return w === 'infinity' || w === '+infinity' ? 1 : w === '-infinity' ? -1 : 0;
}

function dateTimeCodec(oid: number, name: string, kind: DateKind): Codec {
  const size = kind === 'date' ? 4 : 8;
  return {
    oid,
    name,
    text: (v) => {
      if (typeof v !== 'string') return plainText(v);
      const inf = kind === 'time' ? 0 : infinityOf(v);
      if (inf) return inf > 0 ? 'infinity' : '-infinity';
      return pgDateText(v, kind) ?? v;
    },
    binary: (v) => {
      const inf = kind === 'time' ? 0 : infinityOf(v);
      if (inf) {
        const b = bytes(size);
        if (size === 4) b.writeInt32BE(inf > 0 ? INT32_MAX : INT32_MIN);
        else b.writeBigInt64BE(inf > 0 ? INT64_MAX : INT64_MIN);
        return b;
      }
      const b = typeof v === 'string' ? pgDateBinary(v, kind) : null;
      return b ?? notA(name, v);
    },
    textOfBinary: (raw) => {
      expectLength(raw, size, name);
      if (size === 4) {
        const days = raw.readInt32BE(0);
        if (days === INT32_MAX) return 'infinity';
        if (days === INT32_MIN) return '-infinity';
        // JavaScript's dates reach 275760 years either side of 1970
        if (Math.abs(days) > 100_000_000) throw new BadBinary(`date out of range (${days} days from 2000-01-01)`);
      } else {
        const micros = raw.readBigInt64BE(0);
        if (kind === 'time') {
          if (micros < 0n || micros > DAY_MICROS) throw new BadBinary(`time out of range (${micros} microseconds)`);
          if (micros === DAY_MICROS) return '24:00:00';
        } else {
          if (micros === INT64_MAX) return 'infinity';
          if (micros === INT64_MIN) return '-infinity';
          if (micros > 8_000_000_000_000_000_000n || micros < -8_000_000_000_000_000_000n)
            throw new BadBinary(`timestamp out of range (${micros} microseconds from 2000-01-01)`);
        }
      }
      const text = pgDateFromBinary(raw, kind);
      return kind === 'timestamptz' ? text + '+00' : text;
    },
  };
}

export const dateCodec = dateTimeCodec(1082, 'date', 'date');
export const timeCodec = dateTimeCodec(1083, 'time', 'time');
export const timestampCodec = dateTimeCodec(1114, 'timestamp', 'timestamp');
export const timestamptzCodec = dateTimeCodec(1184, 'timestamptz', 'timestamptz');

const ZONED = new Map<string, Codec>();

/**
 * timestamptz's codec for a session whose TimeZone is `zone` (not UTC): its text is the wall time
 * there with the offset ('2024-01-02 04:04:05+01'); its binary form is UTC microseconds, unchanged.
 */
export function zonedTimestamptzCodec(zone: string): Codec {
  let c = ZONED.get(zone);
  if (!c) {
    c = {
      ...timestamptzCodec,
      text: (v) => {
        if (typeof v !== 'string') return plainText(v);
        const inf = infinityOf(v);
        if (inf) return inf > 0 ? 'infinity' : '-infinity';
        return timestamptzTextIn(v, zone) ?? v;
      },
    };
    if (ZONED.size < 1000) ZONED.set(zone, c);
  }
  return c;
}

/** An interval value from stored text; null when it does not read as one. */
function intervalOf(v: unknown) {
  if (typeof v !== 'string') return null;
  try {
    return parseInterval(v);
  } catch {
    return null;
  }
}

export const intervalCodec: Codec = {
  oid: 1186,
  name: 'interval',
  text: (v) => {
    const iv = intervalOf(v);
    return iv ? formatInterval(iv) : plainText(v);
  },
  binary: (v) => {
    const iv = intervalOf(v);
    if (!iv) return notA('interval', v);
    const b = bytes(16);
    b.writeBigInt64BE(BigInt(iv.micros), 0);
    b.writeInt32BE(iv.days, 8);
    b.writeInt32BE(iv.months, 12);
    return b;
  },
  textOfBinary: (raw) => {
    expectLength(raw, 16, 'interval');
    const micros = raw.readBigInt64BE(0);
    if (micros > BigInt(Number.MAX_SAFE_INTEGER) || micros < BigInt(Number.MIN_SAFE_INTEGER))
      throw new BadBinary(`interval out of range (${micros} microseconds)`);
    return formatInterval({ micros: Number(micros), days: raw.readInt32BE(8), months: raw.readInt32BE(12) });
  },
};
