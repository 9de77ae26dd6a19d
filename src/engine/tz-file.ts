// Time zone abbreviations from the system's zone database (/usr/share/zoneinfo, the TZif files
// Debian's PostgreSQL reads too): what PostgreSQL prints for `to_char(t, 'TZ')` and timeofday()
// (MSK, CST, IST, -03). Node's Intl names few zones' abbreviations (Europe/Moscow is `GMT+3`);
// without the files the caller keeps its own answer.
import fs from 'node:fs';
import path from 'node:path';

const ZONEINFO = '/usr/share/zoneinfo';

interface ZoneFile {
  /** Transition instants, seconds since the epoch, ascending. */
  times: number[];
  /** The local time type in force from each transition. */
  types: number[];
  /** Each local time type's offset (seconds east of UTC) and abbreviation. */
  infos: { offset: number; abbreviation: string }[];
}

const FILES = new Map<string, ZoneFile | null>();

/** A TZif file's last data block (64-bit times from version 2 on); null when it is none. */
export function readZoneFile(buf: Buffer): ZoneFile | null {
  if (buf.length < 44 || buf.toString('latin1', 0, 4) !== 'TZif') return null;
  const counts = (at: number) => [0, 1, 2, 3, 4, 5].map((k) => buf.readUInt32BE(at + 20 + 4 * k));
  let at = 0;
  let [isut, isstd, leap, timecnt, typecnt, charcnt] = counts(0);
  let size = 4;
  if (buf[4] >= 0x32) {
    // skip the version 1 block to the 64-bit one
    at = 44 + timecnt * 5 + typecnt * 6 + charcnt + leap * 8 + isstd + isut;
    if (buf.length < at + 44 || buf.toString('latin1', at, at + 4) !== 'TZif') return null;
    [isut, isstd, leap, timecnt, typecnt, charcnt] = counts(at);
    size = 8;
  }
  let p = at + 44;
  if (buf.length < p + timecnt * (size + 1) + typecnt * 6 + charcnt) return null;
  const times: number[] = [];
  for (let k = 0; k < timecnt; k++, p += size)
    times.push(size === 8 ? Number(buf.readBigInt64BE(p)) : buf.readInt32BE(p));
  const types = [...buf.subarray(p, p + timecnt)];
  p += timecnt;
  const raw = [];
  for (let k = 0; k < typecnt; k++, p += 6) raw.push({ offset: buf.readInt32BE(p), index: buf[p + 5] });
  const chars = buf.toString('latin1', p, p + charcnt);
  const infos = raw.map((r) => ({
    offset: r.offset,
    abbreviation: chars.slice(r.index, chars.indexOf('\0', r.index)),
  }));
  if (infos.length === 0 || types.some((t) => t >= infos.length)) return null;
  return { times, types, infos };
}

function zoneFile(zone: string): ZoneFile | null {
  let f = FILES.get(zone);
  if (f !== undefined) return f;
  // (a name in another case, 'europe/moscow', is the file of Intl's spelling of it)
  f = readNamed(zone) ?? readNamed(canonical(zone));
  if (FILES.size < 1000) FILES.set(zone, f);
  return f;
}

function readNamed(zone: string | null): ZoneFile | null {
  // (a zone name is a path below the database: no `..`, nothing but its characters)
  if (zone === null || !/^[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone)) return null;
  try {
    return readZoneFile(fs.readFileSync(path.join(ZONEINFO, zone)));
  } catch {
    return null;
  }
}

function canonical(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * The zone's abbreviation at instant `ms` whose offset is `offsetMs` (the offset the caller computed):
 * the local time type in force then, else the nearest one of that offset (an instant past the file's
 * last transition follows its last rules); undefined when the zone database has no such file.
 */
export function zoneFileAbbreviation(zone: string, ms: number, offsetMs: number): string | undefined {
  const f = zoneFile(zone);
  if (!f) return undefined;
  const t = Math.floor(ms / 1000);
  let lo = 0;
  let hi = f.times.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (f.times[mid] <= t) {
      at = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const matches = (k: number) => f.infos[f.types[k]].offset * 1000 === offsetMs;
  for (let k = at; k >= 0; k--) if (matches(k)) return f.infos[f.types[k]].abbreviation;
  for (let k = at + 1; k < f.times.length; k++) if (matches(k)) return f.infos[f.types[k]].abbreviation;
  return f.infos.find((i) => i.offset * 1000 === offsetMs)?.abbreviation;
}
