// time with time zone: stored as the text PostgreSQL prints (`10:00:00+02`, `10:00:01.5-03:30`,
// what `::timetz`, current_time and their arithmetic make); its binary form is the time's (int64
// microseconds since midnight) then the offset as int32 seconds west of UTC, as timetz_send writes
// it. Its columns were typed text.
import { BadBinary, type Codec, bytes, expectLength, notA } from './codec';
import { timeCodec } from './datetime';
import { plainText } from './text';

/** The time of day and the offset (seconds east of UTC) of a stored timetz; null when it is none. */
function parts(v: unknown): { time: string; east: number } | null {
  if (typeof v !== 'string') return null;
  const m = /^\s*(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?\s*$/.exec(v);
  if (!m) return null;
  const east = Number(m[3]) * 3600 + Number(m[4] ?? 0) * 60 + Number(m[5] ?? 0);
  return { time: m[1], east: m[2] === '-' ? -east : east };
}

/** An offset as PostgreSQL prints it: +02, -03:30, +05:45:10. */
function offsetText(east: number): string {
  const sign = east < 0 ? '-' : '+';
  const a = Math.abs(east);
  const [h, m, s] = [Math.floor(a / 3600), Math.floor((a % 3600) / 60), a % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${sign}${pad(h)}${m || s ? `:${pad(m)}` : ''}${s ? `:${pad(s)}` : ''}`;
}

export const timetzCodec: Codec = {
  oid: 1266,
  name: 'timetz',
  text: (v) => {
    const p = parts(v);
    return p ? timeCodec.text(p.time) + offsetText(p.east) : plainText(v);
  },
  binary: (v) => {
    const p = parts(v);
    if (!p) return notA('timetz', v);
    const b = bytes(12);
    timeCodec.binary(p.time).copy(b, 0);
    b.writeInt32BE(-p.east, 8);
    return b;
  },
  textOfBinary: (raw) => {
    expectLength(raw, 12, 'timetz');
    const west = raw.readInt32BE(8);
    // (PostgreSQL's limit on a zone's offset: 15:59:59)
    if (Math.abs(west) > 15 * 3600 + 59 * 60 + 59) throw new BadBinary(`time zone displacement out of range: ${west}`);
    return timeCodec.textOfBinary(raw.subarray(0, 8)) + offsetText(-west);
  },
};
