// PostgreSQL types: OIDs, the OID of a SQLite declared type, and values to and from the wire.
import { pgDateBinary, pgDateFromBinary, pgDateText } from '../../src/engine/dates';
import { PatinaError } from '../../src/errors';
import type { SqlValue } from '../../src/engine/values';

export const OID = {
  bool: 16,
  bytea: 17,
  char: 18,
  name: 19,
  int8: 20,
  int2: 21,
  int2vector: 22,
  int4: 23,
  regproc: 24,
  text: 25,
  oid: 26,
  json: 114,
  xml: 142,
  float4: 700,
  float8: 701,
  unknown: 705,
  varchar: 1043,
  bpchar: 1042,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  numeric: 1700,
  regclass: 2205,
  uuid: 2950,
  jsonb: 3802,
  textArray: 1009,
  oidArray: 1028,
  int2Array: 1005,
  charArray: 1002,
  nameArray: 1003,
} as const;

/** Type rows of pg_type: oid, name, length, category. */
export const PG_TYPES: [number, string, number, string][] = [
  [16, 'bool', 1, 'B'],
  [17, 'bytea', -1, 'U'],
  [18, 'char', 1, 'S'],
  [19, 'name', 64, 'S'],
  [20, 'int8', 8, 'N'],
  [21, 'int2', 2, 'N'],
  [22, 'int2vector', -1, 'A'],
  [23, 'int4', 4, 'N'],
  [24, 'regproc', 4, 'N'],
  [25, 'text', -1, 'S'],
  [26, 'oid', 4, 'N'],
  [114, 'json', -1, 'U'],
  [700, 'float4', 4, 'N'],
  [701, 'float8', 8, 'N'],
  [705, 'unknown', -2, 'X'],
  [1042, 'bpchar', -1, 'S'],
  [1043, 'varchar', -1, 'S'],
  [1082, 'date', 4, 'D'],
  [1083, 'time', 8, 'D'],
  [1114, 'timestamp', 8, 'D'],
  [1184, 'timestamptz', 8, 'D'],
  [1186, 'interval', 16, 'T'],
  [1700, 'numeric', -1, 'N'],
  [2205, 'regclass', 4, 'N'],
  [2950, 'uuid', 16, 'U'],
  [3802, 'jsonb', -1, 'U'],
  [1000, '_bool', -1, 'A'],
  [1005, '_int2', -1, 'A'],
  [1007, '_int4', -1, 'A'],
  [1016, '_int8', -1, 'A'],
  [1009, '_text', -1, 'A'],
  [1028, '_oid', -1, 'A'],
  [1002, '_char', -1, 'A'],
  [1003, '_name', -1, 'A'],
  [1021, '_float4', -1, 'A'],
  [1022, '_float8', -1, 'A'],
];

/** format_type(): the SQL name PostgreSQL shows for a type. */
export const TYPE_DISPLAY: Record<number, string> = {
  16: 'boolean',
  17: 'bytea',
  18: '"char"',
  19: 'name',
  20: 'bigint',
  21: 'smallint',
  23: 'integer',
  25: 'text',
  26: 'oid',
  114: 'json',
  700: 'real',
  701: 'double precision',
  1042: 'character',
  1043: 'character varying',
  1082: 'date',
  1083: 'time without time zone',
  1114: 'timestamp without time zone',
  1184: 'timestamp with time zone',
  1186: 'interval',
  1700: 'numeric',
  2950: 'uuid',
  3802: 'jsonb',
  22: 'int2vector',
  24: 'regproc',
  2205: 'regclass',
  1005: 'smallint[]',
  1009: 'text[]',
  1028: 'oid[]',
  1002: '"char"[]',
  1003: 'name[]',
};

/**
 * The OID of a column from its declared type. SQLite integers are 64-bit, so every integer type is
 * int8; the rest follow SQLite's affinity rules, with the date, time, JSON and UUID names kept.
 */
export function oidOfDeclType(decl: string | null | undefined): number {
  if (!decl) return OID.text;
  const t = decl.toLowerCase().replace(/\(.*$/, '').trim();
  if (t.endsWith('[]')) return OID.text;
  if (t.startsWith('_')) return PG_TYPES.find((r) => r[1] === t)?.[0] ?? OID.text;
  switch (t) {
    case 'bool':
    case 'boolean':
      return OID.bool;
    case 'date':
      return OID.date;
    case 'time':
    case 'time without time zone':
      return OID.time;
    case 'timestamp':
    case 'datetime':
    case 'timestamp without time zone':
      return OID.timestamp;
    case 'timestamptz':
    case 'timestamp with time zone':
      return OID.timestamptz;
    case 'json':
      return OID.json;
    case 'jsonb':
      return OID.jsonb;
    case 'uuid':
      return OID.uuid;
    case 'interval':
      return OID.interval;
    case 'varchar':
    case 'character varying':
      return OID.varchar;
    // the catalog's own columns
    case 'oid':
    case 'regproc':
    case 'regclass':
      return OID.oid;
    case 'name':
      return OID.name;
    case '"char"':
    case 'char1':
      return OID.char;
    case 'int2vector':
      return OID.int2vector;
    case 'int8':
      return OID.int8;
    case 'int2':
      return OID.int2;
    case 'int4':
      return OID.int4;
    case 'float4':
      return OID.float4;
  }
  if (t.includes('int')) return OID.int8;
  if (t.includes('char') || t.includes('clob') || t.includes('text')) return OID.text;
  if (t.includes('blob') || t === 'bytea') return OID.bytea;
  if (t.includes('real') || t.includes('floa') || t.includes('doub')) return OID.float8;
  if (t.includes('numeric') || t.includes('decimal')) return OID.numeric;
  return OID.text;
}

/** The OID of a value when nothing declares it. */
export function oidOfValue(v: unknown): number {
  if (typeof v === 'bigint') return OID.int8;
  if (typeof v === 'number') return Number.isInteger(v) ? OID.int8 : OID.float8;
  if (v instanceof Uint8Array) return OID.bytea;
  return OID.text;
}

/** Type size PostgreSQL reports in RowDescription. */
export function typeSize(oid: number): number {
  const row = PG_TYPES.find((r) => r[0] === oid);
  return row ? row[2] : -1;
}

function floatText(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  return String(v);
}

/** A cell in text format, as PostgreSQL prints the column's type; null stays null. */
export function textOf(v: unknown, oid: number): string | null {
  if (v === null || v === undefined) return null;
  if (oid === OID.bool) {
    if (v === 1 || v === 1n) return 't';
    if (v === 0 || v === 0n) return 'f';
  }
  if (typeof v === 'number') return floatText(v);
  if (typeof v === 'bigint') return v.toString();
  // a date or time column prints as PostgreSQL would, whatever its stored spelling ('...T...Z' from
  // JavaScript made psycopg2 read 30.000Z as 4200 microseconds); text that is no date goes as it is
  if (typeof v === 'string') {
    const kind = DATE_KINDS[oid];
    if (kind) return pgDateText(v, kind) ?? v;
  }
  if (v instanceof Uint8Array) return '\\x' + Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
  return String(v);
}

const DATE_KINDS: Record<number, 'date' | 'timestamp' | 'timestamptz' | 'time'> = {
  [OID.date]: 'date',
  [OID.timestamp]: 'timestamp',
  [OID.timestamptz]: 'timestamptz',
  [OID.time]: 'time',
};

/** A cell in binary format for the common types; other types are sent as their text bytes. */
export function binaryOf(v: unknown, oid: number): Buffer | null {
  if (v === null || v === undefined) return null;
  const num =
    typeof v === 'bigint'
      ? v
      : typeof v === 'number'
        ? v
        : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))
          ? Number(v)
          : null;
  switch (oid) {
    case OID.bool:
      return Buffer.from([num !== null && Number(num) !== 0 ? 1 : 0]);
    case OID.int2:
    case OID.int4:
    case OID.int8:
    case OID.oid: {
      if (num === null) break;
      const b = Buffer.alloc(oid === OID.int2 ? 2 : oid === OID.int8 ? 8 : 4);
      if (oid === OID.int2) b.writeInt16BE(Number(num));
      else if (oid === OID.int8) b.writeBigInt64BE(typeof num === 'bigint' ? num : BigInt(Math.trunc(num)));
      else if (oid === OID.oid) b.writeUInt32BE(Number(num) >>> 0);
      else b.writeInt32BE(Number(num));
      return b;
    }
    case OID.float4:
    case OID.float8: {
      if (num === null) break;
      const b = Buffer.alloc(oid === OID.float4 ? 4 : 8);
      if (oid === OID.float4) b.writeFloatBE(Number(num));
      else b.writeDoubleBE(Number(num));
      return b;
    }
    case OID.bytea:
      if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
      break;
    case OID.date:
    case OID.timestamp:
    case OID.timestamptz:
    case OID.time: {
      const b = typeof v === 'string' ? pgDateBinary(v, DATE_KINDS[oid]) : null;
      if (b) return b;
      break;
    }
  }
  return Buffer.from(textOf(v, oid) ?? '', 'utf8');
}

function parseInteger(s: string, param: number): number | bigint {
  const t = s.trim();
  if (!/^[-+]?\d+$/.test(t))
    throw new PatinaError(
      'user',
      `invalid input syntax for type integer: "${s}" (parameter $${param + 1})`,
      'PG_22P02',
    );
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : BigInt(t);
}

/** Booleans bind as INTEGER 1 and 0 (a JS number would bind as REAL 1.0, which `lower()` spells '1.0'). */
function parseBool(s: string, param: number): bigint {
  const t = s.trim().toLowerCase();
  if (['t', 'true', 'y', 'yes', 'on', '1'].includes(t)) return 1n;
  if (['f', 'false', 'n', 'no', 'off', '0'].includes(t)) return 0n;
  throw new PatinaError('user', `invalid input syntax for type boolean: "${s}" (parameter $${param + 1})`, 'PG_22P02');
}

/** Bytea text input: hex (\x...) or the escape format. */
function parseBytea(s: string): Buffer {
  if (s.startsWith('\\x')) return Buffer.from(s.slice(2), 'hex');
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && s[i + 1] === '\\') out.push(92), i++;
    else if (s[i] === '\\' && /^[0-7]{3}$/.test(s.slice(i + 1, i + 4)))
      out.push(parseInt(s.slice(i + 1, i + 4), 8)), (i += 3);
    else out.push(...Buffer.from(s[i], 'utf8'));
  }
  return Buffer.from(out);
}

/**
 * The value of text that is a plain decimal integer, an optional minus and up to 15 digits without
 * a leading zero (exact as a number, and what an unknown-typed parameter takes as a number); else null.
 */
function plainInteger(raw: Buffer): number | null {
  const len = raw.length;
  const neg = len > 0 && raw[0] === 45;
  const from = neg ? 1 : 0;
  const digits = len - from;
  if (digits === 0 || digits > 15 || (raw[from] === 48 && digits > 1)) return null;
  let n = 0;
  for (let i = from; i < len; i++) {
    const d = raw[i] - 48;
    if (d < 0 || d > 9) return null;
    n = n * 10 + d;
  }
  return neg ? -n : n;
}

/** Parameter `param` (0-based) from the wire to a SQLite value, by its type OID and format (0 text, 1 binary). */
export function paramValue(raw: Buffer | null, oid: number, format: number, param: number): SqlValue {
  if (raw === null) return null;
  if (format === 1) {
    switch (oid) {
      case OID.bool:
        return raw[0] ? 1n : 0n;
      case OID.int2:
        return raw.readInt16BE(0);
      case OID.int4:
        return raw.readInt32BE(0);
      case OID.oid:
        return raw.readUInt32BE(0);
      case OID.int8: {
        const b = raw.readBigInt64BE(0);
        return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
      }
      case OID.float4:
        return raw.readFloatBE(0);
      case OID.float8:
        return raw.readDoubleBE(0);
      case OID.bytea:
      case 0:
        return Buffer.from(raw);
      case OID.date:
      case OID.timestamp:
      case OID.timestamptz:
      case OID.time:
        return pgDateFromBinary(raw, DATE_KINDS[oid]);
      default:
        return raw.toString('utf8');
    }
  }
  if (oid === OID.int2 || oid === OID.int4 || oid === OID.int8 || oid === OID.oid || oid === 0) {
    // the usual key parameter, read from its bytes: no string, no regular expression
    const n = plainInteger(raw);
    if (n !== null) return n;
  }
  const s = raw.toString('utf8');
  switch (oid) {
    case OID.int2:
    case OID.int4:
    case OID.int8:
    case OID.oid:
      return parseInteger(s, param);
    case OID.float4:
    case OID.float8:
    case OID.numeric: {
      const n = Number(s);
      if (s.trim() === '' || (Number.isNaN(n) && s.trim().toLowerCase() !== 'nan'))
        throw new PatinaError(
          'user',
          `invalid input syntax for type numeric: "${s}" (parameter $${param + 1})`,
          'PG_22P02',
        );
      return n;
    }
    case OID.bool:
      return parseBool(s, param);
    case OID.bytea:
      return parseBytea(s);
    // stored as the UTC text comparisons expect (node-postgres sends a Date as '2026-11-01T01:00:00.000+01:00')
    case OID.date:
    case OID.timestamp:
    case OID.timestamptz: {
      const t = pgDateText(s, DATE_KINDS[oid]);
      return t === null ? s : t.replace(/\+00$/, '');
    }
    case 0: // unknown: a number when it reads as one exactly (SQLite compares numbers and text unequal)
      if (/^-?(0|[1-9]\d{0,14})$/.test(s)) return Number(s);
      if (/^-?(0|[1-9]\d*)\.\d*[1-9]$/.test(s) && String(Number(s)) === s) return Number(s);
      return s;
    default:
      return s;
  }
}
