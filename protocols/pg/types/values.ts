// Values to and from the wire: a result cell in text or binary format as PostgreSQL prints or
// encodes the column's type (the codecs of this folder), and a Bind parameter in either format
// decoded to the SQLite value it binds as (22P02 or 22P03 for one that is no value of its type).
import { badUtf8 } from '../../../src/engine/utf8';
import type { Charset } from '../../../src/engine/encodings/client-encodings';
import { invalidUtf8 } from '../wire/utf8';
import { castDate, castTimestamp, castTimestamptz, castTimestamptzIn, dateTimeInput } from '../../../src/engine/dates';
import { type Json, jsonOperand, printJsonb } from '../../../src/engine/jsonb';
import { arrayInput } from '../../../src/engine/pg-array-input';
import { pgBool, toDouble } from '../../../src/engine/pg-functions';
import { byteaInput } from '../../../src/engine/pg-strings';
import type { SqlValue } from '../../../src/engine/values';
import { PatinaError } from '../../../src/errors';
import { PgError } from '../sqlstate';
import { arrayCodec } from './array';
import { BadBinary, type Codec, NotEncodable, TRAILING_BYTES } from './codec';
import { zonedTimestamptzCodec } from './datetime';
import { elementKindOf } from './element-kind';
import { jsonInputError } from './json-input';
import { decimalAtTypmod, decimalBinary, decimalText, parseDecimal } from './numeric';
import { keptNumber } from '../../../src/engine/numeric-kept';
import { OID } from './oids';
import { DEFAULT_STYLES, type OutputStyles, styledCodec } from './output-styles';
import { codecOf, elementOidOf } from './registry';
import { plainText, uuidText } from './text';

/**
 * A cell in text format, as PostgreSQL prints the column's type; null stays null. A value that is
 * no value of the type goes as it is. `typmod` is the column's (numeric(p, s) prints s digits,
 * char(n) is padded to n), -1 for none; `styles` the session's IntervalStyle and bytea_output.
 */
export function textOf(
  v: unknown,
  oid: number,
  typmod = -1,
  zone: string | null = null,
  styles: OutputStyles = DEFAULT_STYLES,
): string | null {
  if (v === null || v === undefined) return null;
  const codec = codecIn(oid, zone, styles);
  if (codec === undefined) return plainText(v);
  try {
    if (typmod >= 4) {
      if (oid === OID.numeric) return decimalText(decimalAtTypmod(v, typmod));
      if (oid === OID.bpchar) return codec.text(v).padEnd(typmod - 4, ' ');
    }
    return codec.text(v);
  } catch (err) {
    if (err instanceof NotEncodable) return plainText(v);
    throw err;
  }
}

/** The codec printing a type as the session does: timestamptz in its TimeZone (`zone`, null for UTC), intervals, bytea and dates in its styles. */
function codecIn(oid: number, zone: string | null, styles: OutputStyles): Codec | undefined {
  const styled = styles !== DEFAULT_STYLES ? styledCodec(oid, styles, zone) : undefined;
  if (styled) return styled;
  if (zone !== null && (oid === OID.timestamptz || oid === TIMESTAMPTZ_ARRAY)) return zonedCodec(oid, zone);
  return codecOf(oid);
}

const TIMESTAMPTZ_ARRAY = 1185;
const ZONED_ARRAYS = new Map<string, Codec>();

/** timestamptz's or timestamptz[]'s codec printing in `zone`. */
function zonedCodec(oid: number, zone: string): Codec {
  if (oid === OID.timestamptz) return zonedTimestamptzCodec(zone);
  let c = ZONED_ARRAYS.get(zone);
  if (!c) {
    c = arrayCodec(TIMESTAMPTZ_ARRAY, '_timestamptz', zonedTimestamptzCodec(zone));
    if (ZONED_ARRAYS.size < 1000) ZONED_ARRAYS.set(zone, c);
  }
  return c;
}

/** Whether results of a type can go in binary format (else the column is announced, and sent, as text). */
export const hasBinary = (oid: number): boolean => codecOf(oid) !== undefined;

/**
 * The types whose binary form is their text (PostgreSQL's textsend and textrecv, and json's, name's,
 * varchar's, bpchar's, unknown's; jsonb's after its version byte): in the client's encoding, as
 * PostgreSQL's pq_sendtext and pq_getmsgtext convert it.
 */
const BINARY_TEXT = new Set<number>([OID.text, OID.varchar, OID.bpchar, OID.name, OID.unknown, OID.json, OID.jsonb]);

/** A binary form of one of BINARY_TEXT's types (UTF-8) converted by `convert` (to or from the client's encoding). */
function converted(b: Buffer, oid: number, convert: (text: Buffer) => Buffer): Buffer {
  if (oid !== OID.jsonb || b.length === 0) return convert(b);
  return Buffer.concat([b.subarray(0, 1), convert(b.subarray(1))]);
}

/** A binary value of type `oid` from a client whose encoding is `charset`, its text as UTF-8 (22021, 22P05 for bytes it cannot read). */
export function binaryFromClient(raw: Buffer, oid: number, charset: Charset | null): Buffer {
  if (charset === null || !BINARY_TEXT.has(oid)) return raw;
  return converted(raw, oid, (text) => Buffer.from(charset.decode(text)));
}

/**
 * A cell in binary format, exactly as PostgreSQL encodes the type; refused (22P03) when the value is
 * no value of it. Text in it is in `charset` (a client encoding that is not UTF-8), PostgreSQL's
 * 22P05 for a character it has none for.
 */
export function binaryOf(
  v: unknown,
  oid: number,
  column: string,
  typmod = -1,
  charset: Charset | null = null,
): Buffer | null {
  if (v === null || v === undefined) return null;
  const codec = codecOf(oid) ?? codecOf(OID.text)!;
  try {
    if (typmod >= 4 && oid === OID.numeric) return decimalBinary(decimalAtTypmod(v, typmod));
    // (char(n) padded to n, as in text: textOf)
    const b = typmod >= 4 && oid === OID.bpchar ? codec.binary(codec.text(v).padEnd(typmod - 4, ' ')) : codec.binary(v);
    if (charset === null || !(BINARY_TEXT.has(oid) || codec.oid === OID.text)) return b;
    return converted(b, oid, (text) => charset.encode(text.toString('utf8')));
  } catch (err) {
    if (err instanceof NotEncodable)
      throw new PatinaError(
        'user',
        `column "${column}": ${err.message}, so it has no binary form; read it in text format or correct the value`,
        undefined,
        '22P03',
      );
    throw err;
  }
}

/** The integer types, whose parameters SQLite gets as INTEGERs. */
const INTEGER_OIDS: ReadonlySet<number> = new Set([OID.int2, OID.int4, OID.int8, OID.oid]);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The input type names of the integer types, as PostgreSQL's errors name them. */
const INT_NAMES: Record<number, string> = {
  [OID.int2]: 'smallint',
  [OID.int4]: 'integer',
  [OID.int8]: 'bigint',
  [OID.oid]: 'oid',
};

/**
 * The values each integer type's input takes: int2's and int4's as their sizes; oid's as
 * PostgreSQL's oidin (strtoul's) takes them, a negative one down to -2^31 standing for 2^32 + it.
 */
const INT_RANGES: Record<number, readonly [bigint, bigint]> = {
  [OID.int2]: [-(2n ** 15n), 2n ** 15n - 1n],
  [OID.int4]: [-(2n ** 31n), 2n ** 31n - 1n],
  [OID.int8]: [INT64_MIN, INT64_MAX],
  [OID.oid]: [-(2n ** 31n), 2n ** 32n - 1n],
};

/** Whether `n` is one of int2's, int4's or oid's values as it is (a negative oid is not: it wraps). */
function inRange(n: number, oid: number): boolean {
  const [min, max] = INT_RANGES[oid];
  return n >= (oid === OID.oid ? 0 : Number(min)) && n <= Number(max);
}

function parseInteger(s: string, param: number, oid: number): bigint {
  const t = s.trim();
  if (!/^[-+]?\d+$/.test(t))
    throw new PatinaError(
      'user',
      `invalid input syntax for type ${INT_NAMES[oid] ?? 'integer'}: "${s}"`,
      undefined,
      '22P02',
    );
  const b = BigInt(t);
  // past its type's range PostgreSQL's input fails (22003), naming the type: a smallint parameter of
  // 70000 was taken as it was (beyond 64 bits SQLite could not even bind it: "too big", 42000)
  const [min, max] = INT_RANGES[oid] ?? INT_RANGES[OID.int8];
  if (b < min || b > max)
    throw new PatinaError('user', `value "${s}" is out of range for type ${INT_NAMES[oid]}`, undefined, '22003');
  return oid === OID.oid && b < 0n ? b + 2n ** 32n : b;
}

/** A text parameter read as the cast reads its type (src/engine); its error an input error (22P02 unless it says). */
function asParam<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof PatinaError)) throw err;
    const named = new PatinaError('user', err.message, undefined, err.sqlstate ?? '22P02');
    if (err.hint !== undefined) named.hint = err.hint;
    throw named;
  }
}

/**
 * An error reading Bind's parameter `param` (0-based) of `portal`, with PostgreSQL's CONTEXT line
 * naming the parameter: `unnamed portal parameter $1 = '...'` (the value elided, as PostgreSQL's
 * default log_parameter_max_length_on_error = 0 prints it; no value for a binary parameter or
 * bytes that are no text, which PostgreSQL has no string of).
 */
export function atParameter(err: unknown, portal: string, param: number, sent: Buffer | null): unknown {
  if (!(err instanceof PatinaError) || err.kind !== 'user') return err;
  // (bytes that are not text in the client's encoding fail before PostgreSQL has the value to show:
  // 22021, and 22P05 without a CONTEXT of its own, which jsonb's \u0000 has; an empty value is shown whole)
  const unread = err.sqlstate === '22021' || (err.sqlstate === '22P05' && !(err instanceof PgError && err.where));
  const value = sent === null || unread ? '' : sent.length === 0 ? " = ''" : " = '...'";
  const where = `${portal === '' ? 'unnamed portal' : `portal "${portal}"`} parameter $${param + 1}${value}`;
  const e = err instanceof PgError ? err : new PgError(err.kind, err.message, err.sqlstate ?? '22P02');
  if (e !== err && err.hint !== undefined) e.hint = err.hint;
  e.where = e.where ? `${e.where}\n${where}` : where;
  return e;
}

/**
 * A numeric or float parameter as SQLite keeps it: an integer exactly (a bigint beyond 2^53), other
 * numbers as doubles, NaN as the text 'NaN' (SQLite would make a NULL of a NaN double).
 */
function parseNumber(s: string, oid: number, param: number): SqlValue {
  const t = s.trim();
  if (oid === OID.numeric && /^[-+]?\d+$/.test(t)) {
    const b = BigInt(t);
    if (b >= INT64_MIN && b <= INT64_MAX) return Number.isSafeInteger(Number(b)) ? Number(b) : b;
  }
  const d = parseDecimal(t);
  if (d === null)
    throw new PatinaError(
      'user',
      `invalid input syntax for type ${oid === OID.numeric ? 'numeric' : oid === OID.float4 ? 'real' : 'double precision'}: "${s}"`,
      undefined,
      '22P02',
    );
  if (d.special === 'NaN') return 'NaN';
  if (d.special) return d.special === 'Infinity' ? Infinity : -Infinity;
  // (a real is the nearest single-precision value, as its input function reads it; a double past
  // its range is float8in's 22003, it was Infinity)
  if (oid === OID.float4) return Math.fround(Number(t));
  if (oid === OID.float8) return toDouble(t, s);
  // a numeric with more digits than a double keeps is bound as its text, so that a write into a
  // NUMERIC column refuses it (__pg_numeric_param, __pg_numeric; src/engine/numeric-kept.ts); a
  // comparison or arithmetic reads the text as SQLite reads it, the nearest double, as before
  const n = Number(t);
  return keptNumber(d) === null ? decimalText(d) : n;
}

/**
 * The text that is a plain decimal integer, an optional minus and up to 15 digits without
 * a leading zero (exact as a number, and what an unknown-typed parameter takes as a number); else null.
 */
function plainInteger(raw: Buffer): number | null {
  const len = raw.length;
  const neg = len > 0 && raw[0] === 45;
  const from = neg ? 1 : 0;
  const digits = len - from;
  // (`-0` is no integer's text: an unknown-typed one stays the text PostgreSQL would print)
  if (digits === 0 || digits > 15 || (raw[from] === 48 && (digits > 1 || neg))) return null;
  let n = 0;
  for (let i = from; i < len; i++) {
    const d = raw[i] - 48;
    if (d < 0 || d > 9) return null;
    n = n * 10 + d;
  }
  return neg ? -n : n;
}

/** PostgreSQL's 22021 for a binary value of one of BINARY_TEXT's types whose text is no UTF-8 (from a UTF8 client), or null. */
export function binaryTextNotUtf8(raw: Buffer, oid: number): Error | null {
  if (!BINARY_TEXT.has(oid)) return null;
  const bad = badUtf8(oid === OID.jsonb ? raw.subarray(1) : raw);
  return bad === null ? null : invalidUtf8(bad);
}

/**
 * A binary parameter as the value its text form would be stored as; refused (22P03) when it does not
 * decode. Text in it is in `charset` when that is not null (22021, 22P05 for bytes it cannot read).
 */
function binaryParam(raw: Buffer, oid: number, param: number, charset: Charset | null): SqlValue {
  // no type given nor found: the statement described it as text (ParameterDescription), and the
  // client encoded it so; its bytes kept as they came were stored as a blob (asyncpg's `SELECT $1`
  // of 'a' read back \x61)
  if (oid === 0) oid = OID.text;
  raw = binaryFromClient(raw, oid, charset);
  // (a zero byte is no character of the server's encoding: PostgreSQL's 22021; it was kept, so an
  // int4 sent untyped where the statement leaves its parameter text was stored as its four bytes)
  if (BINARY_TEXT.has(oid) && raw.indexOf(0, oid === OID.jsonb ? 1 : 0) !== -1) throw invalidUtf8('0x00');
  const codec = codecOf(oid);
  if (codec === undefined)
    throw new PatinaError(
      'user',
      `incorrect binary data format in bind parameter $${param + 1}: type OID ${oid} has no binary format in Patina (send it as text)`,
      undefined,
      '22P03',
    );
  try {
    if (codec.fromBinary) {
      const v = codec.fromBinary(raw) as SqlValue;
      // (an integer as an INTEGER, as textParam makes it)
      return typeof v === 'number' && INTEGER_OIDS.has(oid) ? BigInt(v) : v;
    }
    return textParam(codec.textOfBinary(raw), oid, param);
  } catch (err) {
    // (text that is no UTF-8: worded as PostgreSQL's textrecv words it, CONTEXT naming the parameter)
    if (err instanceof BadBinary && err.code === '22021') throw binaryTextNotUtf8(raw, oid) ?? err;
    // (a receive function's own error, elog's XX000 or pq_getmsg*'s 08P01, as it is; unread bytes as Bind words them)
    if (err instanceof BadBinary && (err.code === 'XX000' || err.code === '08P01'))
      throw new PatinaError('user', err.message, undefined, err.code);
    if (err instanceof BadBinary && err.message === TRAILING_BYTES)
      throw new PatinaError('user', `incorrect binary data format in bind parameter ${param + 1}`, undefined, '22P03');
    if (err instanceof BadBinary)
      throw new PatinaError(
        'user',
        `incorrect binary data format in bind parameter $${param + 1} (${codec.name}): ${err.message}`,
        undefined,
        err.code,
      );
    throw err;
  }
}

/** Parameter `param` (0-based) from the wire to a SQLite value, by its type OID and format (0 text, 1 binary). */
export function paramValue(
  raw: Buffer | null,
  oid: number,
  format: number,
  param: number,
  zone: string | null = null,
  charset: Charset | null = null,
): SqlValue {
  if (raw === null) return null;
  if (format === 1) return binaryParam(raw, oid, param, charset);
  if (format !== 0)
    throw new PatinaError(
      'user',
      `incorrect binary data format in bind parameter $${param + 1}: unsupported format code ${format} (0 is text, 1 binary)`,
      undefined,
      '22P03',
    );
  if (INTEGER_OIDS.has(oid) || oid === 0) {
    // the usual key parameter, read from its bytes: no string, no regular expression (one past an
    // int2's, int4's or oid's range, or a negative oid, is textParam's to refuse or wrap)
    const n = plainInteger(raw);
    if (n !== null && (oid === 0 || oid === OID.int8 || inRange(n, oid))) return BigInt(n);
  }
  // a zero byte: no character of any encoding, PostgreSQL's 22021 whatever the type (it was kept)
  if (raw.includes(0)) throw invalidUtf8('0x00');
  const text = raw.toString('utf8');
  // bytes that are no UTF-8 (a LATIN1 client's é): PostgreSQL's 22021, not the replacement character
  if (text.includes('\uFFFD')) {
    const bad = badUtf8(raw);
    if (bad !== null) throw invalidUtf8(bad);
  }
  // (text without an offset is a wall time in the session's TimeZone when it is not UTC)
  if (zone !== null && oid === OID.timestamptz)
    return asParam(() => castTimestamptzIn(text, zone)!).replace(/\+00$/, '');
  return textParam(text, oid, param);
}

/** A text parameter of type `oid` as SQLite keeps it. */
function textParam(s: string, oid: number, param: number): SqlValue {
  switch (oid) {
    case OID.int2:
    case OID.int4:
    case OID.int8:
    case OID.oid: {
      // an INTEGER to SQLite: better-sqlite3 binds a JS number as a REAL, which a cast to text spells
      // `11.0` and `/` divides as a double (`PREPARE d (int) AS SELECT $1 / 2` gave 5.5, PostgreSQL 5)
      return parseInteger(s, param, oid);
    }
    case OID.float4:
    case OID.float8:
    case OID.numeric:
      return parseNumber(s, oid, param);
    // char(n) is kept without its trailing spaces, which bpchar ignores (a client sends back the
    // padded 'ab  ' it read from a char(4) key: `WHERE ch = $1` matched no row)
    case OID.bpchar:
      return s.replace(/ +$/, '');
    case OID.bool:
      // booleans bind as INTEGER 1 and 0 (a JS number would bind as REAL 1.0, which `lower()` spells '1.0')
      return asParam(() => BigInt(pgBool(s)!));
    case OID.bytea:
      return asParam(() => byteaInput(s));
    case OID.uuid: {
      // (PostgreSQL's uuid_in takes no space around the value, where uuidText trims it)
      const u = /^\s|\s$/.test(s) ? null : uuidText(s);
      if (u === null) throw new PatinaError('user', `invalid input syntax for type uuid: "${s}"`, undefined, '22P02');
      return u;
    }
    // stored as the UTC text comparisons expect (node-postgres sends a Date as '2026-11-01T01:00:00.000+01:00')
    case OID.date:
    case OID.timestamp:
    case OID.timestamptz: {
      // read as the cast reads it ('infinity', '... EST', '0044-03-15 BC'); text that is no date
      // fails as PostgreSQL's input does ('2024-02-30': 22008), where it used to be stored as sent
      const cast = oid === OID.date ? castDate : oid === OID.timestamp ? castTimestamp : castTimestamptz;
      return asParam(() => cast(s)!).replace(/\+00$/, '');
    }
    // a time and an interval as an INSERT's literal is kept ('10:30' as '10:30:00'); text that is
    // none fails as PostgreSQL's input does ('10:30 FOO': 22007), where it used to be stored as sent
    case OID.time:
      return asParam(() => dateTimeInput('time', s));
    case OID.interval:
      return asParam(() => dateTimeInput('interval', s));
    // text that is no JSON fails as PostgreSQL's json_in does (22P02), where it used to be stored as
    // sent, with its DETAIL and CONTEXT (json-input.ts; Patina's parser only says whether it is JSON)
    case OID.json:
    case OID.jsonb: {
      let parsed: Json;
      try {
        parsed = jsonOperand(s);
      } catch {
        // (text Patina's parser refuses and PostgreSQL's would take has no words of PostgreSQL's)
        throw (
          jsonInputError(s, oid === OID.jsonb) ??
          new PatinaError('user', 'invalid input syntax for type json', undefined, '22P02')
        );
      }
      // jsonb keeps its strings de-escaped as text, which holds no NUL nor a lone surrogate:
      // PostgreSQL refuses \u0000 (22P05) and \ud800 alone (22P02)
      if (oid === OID.jsonb && s.includes('\\u')) {
        const err = jsonInputError(s, true);
        if (err) throw err;
      }
      // jsonb as its value's text, keys sorted, as a jsonb column keeps it: `j = $1` of the same
      // object with its keys in another order matched nothing, `$1::text` printed it as sent
      return oid === OID.jsonb ? printJsonb(parsed) : s;
    }
    // unknown: a number when it reads as one exactly (SQLite compares numbers and text unequal), an
    // integer as an INTEGER (as a JS number it was a REAL: `$1 || $1` of 1 gave '1.01.0')
    case 0:
      if (/^(0|-?[1-9]\d{0,14})$/.test(s)) return BigInt(s);
      if (/^-?(0|[1-9]\d*)\.\d*[1-9]$/.test(s) && String(Number(s)) === s) return Number(s);
      return s;
    default: {
      const elem = elementOidOf(oid);
      if (elem === undefined) return s;
      const kind = elementKindOf(elem);
      return kind ? asParam(() => arrayInput(s, kind)) : s;
    }
  }
}
