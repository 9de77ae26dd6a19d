import { hiddenName } from './sql-text';
import { qualifyInterval } from './interval-qualifier';
import { jsonbSortKey } from './jsonb-sort-key';
import { sqlStateError } from '../errors';
import type Database from 'better-sqlite3';
import { formatIntervalIn, type IntervalStyle, parseIntervalOrNull, pgDateText, timestamptzTextIn } from './dates';
import { type DateOrder, type DateOutput, styledDateText } from './date-style';
import { decimalAtScale, decimalText, parseDecimal } from './decimal';
import { keptNumber, keptNumeric } from './numeric-kept';
import { floatText } from './float-text';
import {
  type ArrayTree,
  type ElementKind,
  arrayInput,
  isElementKind,
  mapArrayText,
  arrayBounds,
  parseArrayText,
  parseArrayTree,
  treeText,
  uuidIn,
} from './pg-array-input';
import { installExactDivision } from './pg-exact-division';
import { installExactLogs } from './pg-exact-logs';
import { installExactPower } from './pg-exact-power';
import { installExactStatistics } from './pg-exact-statistics';
import { installPgArrayFunctions } from './pg-arrays';
import { installPgJsonArrays, jsonTimestamp } from './pg-json-arrays';
import { installPgJsonGet } from './pg-json-get';
import { installPgJsonNumbers } from './pg-json-numbers';
import { installJsonbDistinctAggregates } from './jsonb-distinct-agg';
import { installJsonObjectDistinctAgg } from './json-object-distinct-agg';
import { installPgJsonFunctions } from './pg-json-functions';
import { installJsonPathFunctions } from './pg-jsonpath-functions';
import { installTextSearchFunctions } from './pg-text-search-functions';
import { printJsonLayout, VERBATIM_MARK } from './pg-json-layout';
import { installPgFloatMath, truncAt } from './pg-float-math';
import { installPgMathFunctions } from './pg-math';
import { installNumericArithmetic } from './pg-numeric-arith';
import { installPgStatistics } from './pg-statistics';
import { byteaEscapeText, installPgStringFunctions } from './pg-strings';
import { installSimilarSubstring } from './pg-similar-substring';
import { installPgByteaFunctions } from './pg-bytea';
import { installToChar } from './to-char';
import {
  type Json,
  compareJsonb,
  jsonOperand,
  jsonbContains,
  jsonbDeletePath,
  jsonbHasKey,
  jsonbMinus,
  jsonbElement,
  jsonbPath,
  jsonbText,
  jsonPathKey,
  printJsonb,
  safeKey,
} from './jsonb';
import { lookup } from '../lookup';

// PostgreSQL's strict arithmetic and casts, which the PG dialect writes in place of SQLite's
// forgiving ones (SQLite answers 1/0 with NULL and 'abc' cast to INTEGER with 0). They are on every
// connection a PG statement can run on (writer, read workers, point reads, the catalog connection).
// An error carries PostgreSQL's SQLSTATE in its `sqlstate` field; the PG front end reports it.

/** An error a function raises with PostgreSQL's SQLSTATE. */
function pgFail(state: string, message: string): Error {
  return sqlStateError(state, message);
}

const INT_RANGES: Record<string, [bigint, bigint]> = lookup({
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n],
});

const isZero = (x: unknown) => x === 0 || x === 0n || (typeof x === 'string' && x.trim() !== '' && Number(x) === 0);

/**
 * An interval's time of day, as PostgreSQL's interval_time takes it: its time part (not its days
 * or months) modulo a day, a negative one counted back from midnight ('1 day 2 hours' is 02:00:00).
 */
export function intervalTime(x: unknown): string | null {
  if (x === null || x === undefined) return null;
  const iv = parseIntervalOrNull(String(x));
  if (!iv) throw pgFail('22007', `invalid input syntax for type interval: "${x}"`);
  const day = 86_400_000_000;
  const us = ((iv.micros % day) + day) % day;
  const pad = (n: number) => String(n).padStart(2, '0');
  const s = Math.floor(us / 1e6);
  const frac = us % 1e6;
  const clock = `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
  return frac > 0 ? `${clock}.${String(frac).padStart(6, '0').replace(/0+$/, '')}` : clock;
}

/**
 * A jsonb value cast to a number or boolean type (`type` as PostgreSQL names it): its number (a
 * number type's cast then reads it, rounding as numeric does: '1.50'::jsonb::int is 2) or its
 * boolean as 1 or 0; any other kind 22023 'cannot cast jsonb string to type integer', as PostgreSQL.
 */
export function jsonbScalar(x: unknown, type: string): number | string | null {
  if (x === null || x === undefined) return null;
  let v: unknown;
  try {
    v = JSON.parse(String(x));
  } catch {
    throw pgFail('22P02', 'invalid input syntax for type json');
  }
  const kind =
    v === null
      ? 'null'
      : Array.isArray(v)
        ? 'array'
        : typeof v === 'object'
          ? 'object'
          : typeof v === 'number'
            ? 'numeric'
            : typeof v;
  // (numeric reads its digits as written, exactly; the others the number, which an integer's cast rounds)
  if (kind === 'numeric' && type !== 'boolean') return type === 'numeric' ? String(x).trim() : (v as number);
  if (kind === 'boolean' && type === 'boolean') return v ? 1 : 0;
  throw pgFail('22023', `cannot cast jsonb ${kind} to type ${type}`);
}

/** An interval into interval(n): its seconds rounded to n digits, half away from zero, as PostgreSQL's typmod does. */
export function roundInterval(x: unknown, digits: number): string | null {
  if (x === null || x === undefined) return null;
  const iv = parseIntervalOrNull(String(x));
  if (!iv) return String(x);
  const scale = 10 ** (6 - digits);
  const micros = Math.sign(iv.micros) * Math.round(Math.abs(iv.micros) / scale) * scale;
  return formatIntervalIn({ ...iv, micros }, 'postgres');
}

/** A double rounded half to even, as the C library's rint (2.5 is 2, -3.5 is -4). */
function rint(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  return d < 0.5 ? f : d > 0.5 ? f + 1 : f % 2 === 0 ? f : f + 1;
}

/**
 * `x` to a PostgreSQL integer type: text must read as an integer, a fraction rounds half away from
 * zero (numeric's rule), the range is checked. A double's (`fromDouble`) rounds half to even, as
 * PostgreSQL's dtoi4 does with rint, its NaN and infinities (kept as text) out of range.
 */
export function pgInteger(x: unknown, type: string, fromDouble = false): unknown {
  if (x === null || x === undefined) return null;
  const range = INT_RANGES[type] ?? INT_RANGES.bigint;
  let n: bigint;
  if (fromDouble && typeof x === 'string' && /^\s*[+-]?(nan|inf(inity)?)\s*$/i.test(x))
    throw pgFail('22003', `${type} out of range`);
  if (fromDouble && typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x))) x = Number(x);
  if (typeof x === 'bigint') n = x;
  else if (typeof x === 'number') {
    if (!Number.isFinite(x)) throw pgFail('22003', `${type} out of range`);
    n = BigInt(fromDouble ? rint(x) : Math.sign(x) * Math.round(Math.abs(x)));
  } else if (typeof x === 'string') {
    const s = x.trim();
    if (!/^[+-]?\d+$/.test(s)) throw pgFail('22P02', `invalid input syntax for type ${type}: "${x}"`);
    n = BigInt(s);
    if (n < range[0] || n > range[1]) throw pgFail('22003', `value "${x}" is out of range for type ${type}`);
  } else throw pgFail('42846', `cannot cast type bytea to ${type}`);
  if (n < range[0] || n > range[1]) throw pgFail('22003', `${type} out of range`);
  return n;
}

/**
 * A value into varchar(n) (`type` 'character varying') or char(n) ('character'): 22001 past n
 * characters, as PostgreSQL refuses it; trailing spaces past n are cut instead (all of char(n)'s:
 * Patina keeps it as text, unpadded). Blobs pass.
 */
export function pgCharacters(x: unknown, max: number, type: string): unknown {
  if (x === null || x === undefined || x instanceof Uint8Array) return x ?? null;
  // char(n)'s trailing spaces mean nothing in PostgreSQL (length, ||, = ignore them): kept without
  const s = type === 'character' ? String(x).replace(/ +$/, '') : typeof x === 'string' ? x : String(x);
  if (s.length <= max) return s;
  const cs = [...s];
  if (cs.length <= max) return s;
  if (cs.slice(max).every((c) => c === ' ')) return cs.slice(0, max).join('');
  throw pgFail('22001', `value too long for type ${type}(${max})`);
}

/**
 * A double's decimal digits as PostgreSQL's float8 to numeric conversion takes them: 15 significant
 * digits (DBL_DIG), so a numeric computed as a double (1.005 * 3 = 3.0149999999999997) rounds as
 * the exact 3.015 would; integers exactly.
 */
export function doubleDigits(v: number): string {
  return Number.isInteger(v) || !Number.isFinite(v) ? String(v) : v.toPrecision(15);
}

/**
 * A numeric computed as a double, as PostgreSQL's exact numeric would have it: its 15 significant
 * digits (0.1 * 3 is 0.30000000000000004 as a double, 0.3 in numeric); integers and NaN as they are.
 */
export function computedNumeric(v: number): number {
  return Number.isInteger(v) || !Number.isFinite(v) ? v : Number(v.toPrecision(15));
}

/**
 * A value into numeric(p, s): rounded half away from zero to s digits, 22003 when it needs more
 * than p - s digits before the point (text is read exactly, a double by doubleDigits).
 */
export function pgNumericTypmod(
  x: unknown,
  p: number,
  scale: number,
  written = false,
): number | bigint | string | null {
  const text = numericTypmodText(x, p, scale, written);
  if (text === null || text === 'NaN') return text;
  // a value the client wrote (a literal, a parameter, a COPY field) that the column cannot keep is
  // 22003 (numeric-kept.ts); an integer past 2^53 is kept as the 64-bit integer it is
  if (written) return keptNumeric(text);
  const n = Number(text);
  if (Number.isSafeInteger(n) || !Number.isInteger(n)) return n;
  return keptNumber(parseDecimal(text)!) ?? n;
}

/** pgNumericTypmod's value as numeric's text at the scale (12.5 into numeric(4,2) is 12.50). */
function numericTypmodText(x: unknown, p: number, scale: number, written = false): string | null {
  if (x === null || x === undefined) return null;
  const exact = typeof x === 'string' ? parseDecimal(x) : typeof x === 'bigint' ? parseDecimal(String(x)) : null;
  // (a written double is a parameter Bind found a double keeps: all its digits, not a computed
  // double's 15, or 12345678901234.56 into numeric(30, 2) was 12345678901234.60)
  const digits = written && typeof x === 'number' ? String : doubleDigits;
  const d0 = exact && !exact.special ? exact : parseDecimal(digits(pgFloat(x, 'numeric') as number));
  if (!d0 || d0.special) {
    if (d0?.special === 'NaN') return 'NaN';
    throw pgFail('22003', 'numeric field overflow');
  }
  const d = decimalAtScale(d0, scale);
  if (d.int.length > p - scale) {
    const err = sqlStateError('22003', 'numeric field overflow');
    err.detail = `A field with precision ${p}, scale ${scale} must round to an absolute value less than 10^${p - scale}.`;
    throw err;
  }
  return decimalText(d);
}

/**
 * An array cast to numeric(p, s)[], varchar(n)[] or char(n)[]: each element as the element's type
 * modifier makes it (1 is 1.0 in numeric(4,1)[], 'abc' ab in varchar(2)[], 'a' `a  ` in char(3)[]),
 * as PostgreSQL's array_map of the typmod cast; it kept the elements as they were.
 */
export function arrayTypmod(arr: unknown, kind: string, a: number, b: number): unknown {
  if (arr === null || arr === undefined) return null;
  const tree = parseArrayTree(String(arr));
  if (tree === null) return arr;
  const chars = (x: string) => [...x].slice(0, a).join('');
  return treeText(tree, (x) =>
    kind === 'numeric' ? String(numericTypmodText(x, a, b)) : kind === 'char' ? chars(x).padEnd(a, ' ') : chars(x),
  );
}

/**
 * A double into real: the nearest single-precision value (0.1::float4 is 0.10000000149011612, which
 * float4 prints 0.1 and float8 prints in full, as PostgreSQL's float4 is), 22003 when it is too large
 * or too small for one, as float8's cast to float4 says.
 */
function toReal(v: number, text?: string): number {
  const f = Math.fround(v);
  if ((Number.isFinite(v) && !Number.isFinite(f)) || (v !== 0 && f === 0))
    throw pgFail(
      '22003',
      text !== undefined
        ? `"${text}" is out of range for type real`
        : `value out of range: ${f === 0 ? 'underflow' : 'overflow'}`,
    );
  return f;
}

/**
 * Decimal text as a double, PostgreSQL's 22003 `"1e400" is out of range for type double precision`
 * for text past the double's range, or so small it reads as 0 (float8in; a subnormal is kept).
 */
export function toDouble(s: string, text: string): number {
  const v = Number(s);
  if (!Number.isFinite(v) || (v === 0 && /[1-9]/.test(s.replace(/e.*$/i, ''))))
    throw pgFail('22003', `"${text}" is out of range for type double precision`);
  return v;
}

/** `x` to double precision, real (`type` 'real': 22003 past its range) or numeric: text must read as a number. */
export function pgFloat(x: unknown, type: string): unknown {
  if (x === null || x === undefined) return null;
  if (typeof x === 'number') return type === 'real' ? toReal(x) : x;
  if (typeof x === 'bigint') return type === 'real' ? toReal(Number(x)) : Number(x);
  if (typeof x === 'string') {
    const s = x.trim().toLowerCase();
    if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(s)) return type === 'real' ? toReal(Number(s), x) : toDouble(s, x);
    if (/^[+-]?(inf|infinity)$/.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
    // NaN as the text NaN (as an INSERT stores it): SQLite would make a NaN double NULL. As text it
    // equals itself and sorts above every number, as PostgreSQL's NaN does.
    if (s === 'nan') return 'NaN';
    throw pgFail('22P02', `invalid input syntax for type ${type}: "${x}"`);
  }
  throw pgFail('42846', `cannot cast type bytea to ${type}`);
}

const INT64_LIMIT = 2 ** 63;

/**
 * `x::oid` of an integer or integer text: an unsigned 32-bit value, a negative int4 wrapped past
 * 2^32 as PostgreSQL's binary-compatible int4 cast and oidin read it (-1 is 4294967295), 22003
 * beyond -2^31 .. 2^32 - 1 (it kept -1 and 2^53). Other text as SQLite's CAST AS INTEGER reads it
 * (a catalog regproc column's name is 0).
 */
export function pgOid(x: unknown): bigint | null {
  if (x === null || x === undefined) return null;
  let v: bigint;
  if (typeof x === 'bigint') v = x;
  else if (typeof x === 'number' && Number.isInteger(x)) v = BigInt(x);
  else if (typeof x === 'string' && /^\s*[+-]?\d+\s*$/.test(x)) {
    v = BigInt(x.trim());
    if (v < -(2n ** 31n) || v >= 2n ** 32n) throw pgFail('22003', `value "${x}" is out of range for type oid`);
  } else {
    const lead = /^\s*([+-]?\d+)/.exec(typeof x === 'string' ? x : String(x));
    return lead ? BigInt(lead[1]) : 0n;
  }
  if (v < -(2n ** 31n) || v >= 2n ** 32n) throw pgFail('22003', 'OID out of range');
  return v < 0n ? v + 2n ** 32n : v;
}

/**
 * A double (or a real) as numeric: its `digits` significant digits (15, or 6 for a real), as
 * PostgreSQL's float8_numeric and float4_numeric print it with %.*g and read that back (so
 * 0.1::float4::numeric is 0.1, 16777217::float4::numeric 16777200). A whole number within 64 bits
 * as an integer of those digits (a double's exact value would add digits past them).
 */
export function floatNumeric(x: unknown, digits: number): bigint | number | string | null {
  if (typeof x !== 'number' || !Number.isFinite(x)) return x as string | null;
  const v = Number(x.toPrecision(digits));
  return Number.isInteger(v) && Math.abs(v) < INT64_LIMIT ? BigInt(String(v)) : v;
}

/**
 * `x::numeric`: a number (an INTEGER when whole and within 64 bits, as SQLite's CAST AS NUMERIC
 * makes it; integers and integer text exactly), or the text NaN. Text must read as a number (22P02).
 */
export function pgToNumeric(x: unknown): bigint | number | string | null {
  if (x === null || x === undefined) return null;
  if (typeof x === 'bigint') return x;
  if (typeof x === 'string' && /^\s*[+-]?\d+\s*$/.test(x)) {
    const n = BigInt(x.trim());
    if (n >= -(2n ** 63n) && n < 2n ** 63n) return n;
  }
  const v = pgFloat(x, 'numeric');
  if (typeof v !== 'number') return v as string;
  return Number.isInteger(v) && Math.abs(v) < INT64_LIMIT ? BigInt(v) : v;
}

/** A GLOB character that stands for itself. */
const globLiteral = (c: string) => (c === '*' ? '[*]' : c === '?' ? '[?]' : c === '[' ? '[[]' : c);

/** A GLOB class of the characters PostgreSQL's ILIKE takes for `c` (those with the same lower case). */
function globFolded(c: string): string {
  const lower = c.toLowerCase();
  const chars = [...new Set([c, lower, c.toUpperCase()])].filter(
    (x) => [...x].length === 1 && x.toLowerCase() === lower,
  );
  return chars.length > 1 ? `[${chars.join('')}]` : globLiteral(c);
}

/**
 * A LIKE pattern (PostgreSQL's: % and _, `escape` before a character takes it literally) as a GLOB
 * pattern; `insensitive` for ILIKE, which compares the lower case of both sides (Unicode, as
 * PostgreSQL does in UTF8), so each letter becomes the class of its cases.
 */
export function likeToGlob(pattern: string, esc = '\\', insensitive = false): string {
  if ([...esc].length > 1)
    throw pgFail('22025', 'invalid escape string: an ESCAPE string must be empty or one character');
  const literal = insensitive ? globFolded : globLiteral;
  const chars = [...pattern];
  let out = '';
  for (let k = 0; k < chars.length; k++) {
    const c = chars[k];
    if (esc !== '' && c === esc) {
      k++;
      if (k >= chars.length)
        throw pgFail('22025', 'invalid escape string: LIKE pattern must not end with escape character');
      out += literal(chars[k]);
    } else if (c === '%') out += '*';
    else if (c === '_') out += '?';
    else out += literal(c);
  }
  return out;
}

/** PostgreSQL's name of the type of a value SQLite holds (what pg_typeof says when the SQL does not tell). */
function typeOfValue(x: unknown): string {
  if (x === null || x === undefined) return 'unknown';
  if (typeof x === 'bigint' || (typeof x === 'number' && Number.isInteger(x))) return 'bigint';
  if (typeof x === 'number') return 'double precision';
  if (typeof x === 'string') return 'text';
  return 'bytea';
}

/** Elements of an array as the catalog stores it: '{a,b}', an int2vector '1 2', or JSON '[...]'. */
export function arrayElements(v: unknown): unknown[] {
  if (v === null || v === undefined) return [];
  const s = String(v).trim();
  let parts: string[];
  // (an array with its bounds, `[0:2]={1,2,3}`: its elements in order)
  const bounded = s.startsWith('[') ? arrayBounds(s) : null;
  if (bounded) return arrayElements(bounded.body);
  if (s.startsWith('[')) {
    try {
      return JSON.parse(s) as unknown[];
    } catch {
      return [];
    }
  } else if (s.startsWith('{')) {
    // array_in's reading (white space around elements dropped: '{ a }' is 'a'); the split below for
    // what it does not read (more dimensions) or refuses
    try {
      const xs = parseArrayText(s);
      if (xs) return xs.map((p) => (p !== null && /^-?\d+$/.test(p) ? integer(p) : p));
    } catch {}
    const inner = s.slice(1, -1);
    parts =
      inner === ''
        ? []
        : (inner.match(/"(?:[^"\\]|\\.)*"|[^,]+/g) ?? []).map((p) =>
            p.startsWith('"') ? p.slice(1, -1).replace(/\\(.)/g, '$1') : p,
          );
  } else {
    parts = s === '' ? [] : s.split(/\s+/);
  }
  return parts.map((p) => (/^-?\d+$/.test(p) ? integer(p) : p === 'NULL' ? null : p));
}

/**
 * An array as PostgreSQL prints it: `{1,NULL,"a b"}` (elements with separators, quotes or spaces
 * quoted). A blob element (a bytea) is its hex text, as a bytea[] column keeps it: its UTF-8 reading
 * lost the bytes that are no UTF-8 (array_agg of '\x41ff' was {"\\x41efbfbd"}).
 */
export function arrayText(xs: unknown[]): string {
  const item = (v: unknown) => {
    const x = v instanceof Uint8Array ? byteaHex(v) : v;
    return x === null || x === undefined
      ? 'NULL'
      : typeof x === 'string' && /[,{}"\\\s]|^$|^null$/i.test(x)
        ? '"' + x.replace(/["\\]/g, '\\$&') + '"'
        : String(x);
  };
  return `{${xs.map(item).join(',')}}`;
}

/** bytea's hex text (`\\x41ff`), as a bytea element of an array is kept. */
export const byteaHex = (b: Uint8Array): string =>
  `\\x${Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex')}`;

/**
 * The bytes of a bytea value as SQLite holds it: a blob, or the hex text an array keeps an element
 * in (`\\x41ff`, what a subscript or unnest of a bytea[] gives); other text as its UTF-8.
 */
export function byteaOfValue(x: unknown): Buffer {
  if (x instanceof Uint8Array) return Buffer.from(x.buffer, x.byteOffset, x.length);
  const t = String(x);
  return /^\\x([0-9a-f]{2})*$/i.test(t) ? Buffer.from(t.slice(2), 'hex') : Buffer.from(t, 'utf8');
}

function arrayTreeOrNull(text: string): ArrayTree | null {
  try {
    return parseArrayTree(text);
  } catch {
    return null;
  }
}

/** An aggregate that collects its values (array_agg and the ARRAY(...) constructor). */
const collect = {
  start: () => [] as unknown[],
  step: (acc: unknown[], v: unknown) => (acc.push(v), acc),
  result: (acc: unknown[]) => arrayText(acc),
};

function integer(p: string): number | bigint {
  const n = Number(p);
  return Number.isSafeInteger(n) ? n : BigInt(p);
}

interface DistinctText {
  seen: Set<string>;
  sep: string;
}

/** The distinct non-NULL texts joined by the separator, sorted ascending or descending; NULL over none. */
function distinctJoin(desc: boolean) {
  return {
    start: (): DistinctText => ({ seen: new Set<string>(), sep: '' }),
    step: (acc: DistinctText, ...[v, sep]: unknown[]) => {
      if (v === null || v === undefined) return acc;
      acc.seen.add(typeof v === 'string' ? v : String(v));
      if (sep !== null && sep !== undefined) acc.sep = String(sep);
      return acc;
    },
    result: (acc: DistinctText) => {
      if (acc.seen.size === 0) return null;
      const sorted = [...acc.seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return (desc ? sorted.reverse() : sorted).join(acc.sep);
    },
  };
}

/**
 * A cast to boolean as PostgreSQL reads it: t/true/y/yes/on/1 and f/false/n/no/off/0 (any case,
 * unique prefixes, spaces around), numbers by being non-zero; anything else is 22P02 (it was false).
 */
export function pgBool(x: unknown): number | null {
  if (x === null || x === undefined) return null;
  if (typeof x === 'number' || typeof x === 'bigint') return x === 0 || x === 0n ? 0 : 1;
  if (typeof x !== 'string') throw pgFail('42846', 'cannot cast type bytea to boolean');
  const w = x.trim().toLowerCase();
  const prefixOf = (word: string, min = 1) => w.length >= min && word.startsWith(w);
  if (prefixOf('true') || prefixOf('yes') || w === 'on' || w === '1') return 1;
  if (prefixOf('false') || prefixOf('no') || prefixOf('off', 2) || w === '0') return 0;
  throw pgFail('22P02', `invalid input syntax for type boolean: "${x}"`);
}

/** A date, timestamp or timestamptz (or an array of them) made text in a DateStyle other than ISO, as __pg_text's kind says. */
function styledKindText(kind: string, x: string): string {
  const hash = kind.indexOf('#');
  const at = kind.indexOf('@', hash);
  // ('timestamptz#sql,dmy,GMT': a session zone that is UTC under another name, by its abbreviation)
  const [output, order, utc] = kind.slice(hash + 1, at < 0 ? undefined : at).split(',') as [
    DateOutput,
    DateOrder,
    string | undefined,
  ];
  const zone = at < 0 ? null : kind.slice(at + 1);
  const base = kind.slice(0, hash);
  const type = (base.startsWith('datearray:') ? base.slice(10) : base) as 'date' | 'timestamp' | 'timestamptz';
  const text = (e: string) => styledDateText(e, type, { output, order, utc }, zone) ?? e;
  return base === type ? text(x) : mapArrayText(x, text);
}

export function installPgFunctions(db: Database.Database): void {
  // the elements of an array value (PostgreSQL's text form or JSON): `x = ANY($1)` reads them
  db.table('__pg_elems', {
    columns: ['value', 'key'],
    parameters: ['arr'].map(hiddenName),
    *rows(arr: unknown) {
      const xs = arrayElements(arr);
      for (let i = 0; i < xs.length; i++) yield [xs[i] as never, i];
    },
  });
  // the divisor of `/` and `%`: PostgreSQL's division_by_zero where SQLite would answer NULL
  db.function('__pg_divisor', { deterministic: true }, (x: unknown) => {
    if (isZero(x)) throw pgFail('22012', 'division by zero');
    return x as number;
  });
  // the same with its dividend's NULLness: NULL / 0 is NULL, as PostgreSQL's strict division answers
  db.function('__pg_divisor_of', { deterministic: true }, (x: unknown, dividendNull: unknown) => {
    if (isZero(x) && !(dividendNull === 1 || dividendNull === 1n)) throw pgFail('22012', 'division by zero');
    return x as number;
  });
  // a LIMIT (limit 1) or OFFSET (0) count given as a parameter: NULL is no limit (-1) or no offset
  // (0), a negative count PostgreSQL's 2201W or 2201X (SQLite read a negative LIMIT as no limit); a
  // count with a fraction (`LIMIT 0.5 + 1`) the bigint PostgreSQL's numeric rounds it to, half away
  // from zero (SQLite's 42804 datatype mismatch)
  db.function('__pg_limit_count', { deterministic: true }, (given: unknown, limit: unknown) => {
    const isLimit = limit === 1 || limit === 1n;
    const x =
      typeof given === 'number' && !Number.isInteger(given) ? Math.sign(given) * Math.round(Math.abs(given)) : given;
    if (x === null) return isLimit ? -1 : 0;
    if ((typeof x === 'number' || typeof x === 'bigint') && x < 0)
      throw isLimit ? pgFail('2201W', 'LIMIT must not be negative') : pgFail('2201X', 'OFFSET must not be negative');
    return x as number;
  });
  db.function('__pg_bool', { deterministic: true }, (x: unknown) => pgBool(x));
  db.function(
    'num_nulls',
    { deterministic: true, varargs: true },
    (...a: unknown[]) => a.filter((x) => x === null).length,
  );
  db.function(
    'num_nonnulls',
    { deterministic: true, varargs: true },
    (...a: unknown[]) => a.filter((x) => x !== null).length,
  );
  // a cast to uuid: the uuid as PostgreSQL prints it, 22P02 when the text is none (it passed as it was)
  db.function('__pg_uuid', { deterministic: true }, (x: unknown) =>
    x === null ? null : uuidIn(Buffer.isBuffer(x) ? x.toString('utf8') : String(x)),
  );
  // a cast to json or jsonb: the text, 22P02 when it is no JSON (as PostgreSQL's json_in)
  db.function('__pg_json_in', { deterministic: true }, (x: unknown) => {
    if (x === null) return null;
    const text = Buffer.isBuffer(x) ? x.toString('utf8') : String(x);
    try {
      JSON.parse(text);
    } catch {
      throw pgFail('22P02', 'invalid input syntax for type json');
    }
    return text;
  });
  // a cast to jsonb: jsonb's text of it (spacing, keys sorted, the last of duplicate keys), 22P02 as above
  db.function('__pg_jsonb_in', { deterministic: true }, (x: unknown) => {
    if (x === null) return null;
    const text = Buffer.isBuffer(x) ? x.toString('utf8') : String(x);
    const printed = jsonbText(text);
    if (printed === null) throw pgFail('22P02', 'invalid input syntax for type json');
    return printed;
  });
  // a value of a known type made text as PostgreSQL prints that type (`x::text`, `'a' || x`):
  // booleans true/false (SQLite's text is 1/0), floats without SQLite's '.0' ('-2', '1e+20'),
  // dates and timestamps in full ('2024-02-10 00:00:00' for a timestamp stored as '2024-02-10', a
  // timestamptz with its '+00')
  db.function('__pg_text', { deterministic: true }, (kind: unknown, x: unknown) => {
    if (x === null || x === undefined) return null;
    // 'date#sql,dmy', 'timestamptz#german,dmy@Europe/Berlin', 'datearray:date#postgres,mdy': in the session's DateStyle
    if (typeof kind === 'string' && kind.includes('#') && typeof x === 'string') return styledKindText(kind, x);
    // 'timestamptz@Europe/Paris': a timestamptz with the session in that zone prints its wall time there
    if (typeof kind === 'string' && kind.startsWith('timestamptz@') && typeof x === 'string') {
      const inf = pgDateText(x, 'timestamptz');
      return inf === 'infinity' || inf === '-infinity' ? inf : (timestamptzTextIn(x, kind.slice(12)) ?? x);
    }
    switch (kind) {
      case 'bool':
      case 'boolout': {
        // a cast to text says true/false; concat and format print the output function's t/f
        const no = x === 0 || x === 0n || x === '0' || x === 'f' || x === 'false';
        return kind === 'bool' ? (no ? 'false' : 'true') : no ? 'f' : 't';
      }
      case 'float8':
      case 'float4':
        return typeof x === 'number' ? floatText(kind === 'float4' ? Math.fround(x) : x, kind === 'float4') : String(x);
      case 'date':
      case 'timestamp':
      case 'timestamptz':
      case 'time':
        return typeof x === 'string' ? (pgDateText(x, kind) ?? x) : String(x);
      // jsonb prints its normalised text ('{"a": 1, "b": 2}', keys sorted, 1.50 kept), as its output does
      case 'jsonb':
        return typeof x === 'string' ? (jsonbText(x) ?? x) : String(x);
      // bytea prints in hex ('\x41'), as bytea_output = hex does; 'bytea@escape' as escape does ('A\377')
      case 'bytea':
        return Buffer.isBuffer(x) ? `\\x${x.toString('hex')}` : String(x);
      case 'bytea@escape':
        return byteaEscapeText(byteaOfValue(x));
      // a bytea[] (its elements kept in hex) with each element in the escape format
      case 'byteaarray@escape':
        return mapArrayText(String(x), (e) => byteaEscapeText(byteaOfValue(e)));
    }
    // 'interval@sql_standard': an interval (stored in the postgres style) in the session's IntervalStyle
    if (typeof kind === 'string' && kind.startsWith('interval@') && typeof x === 'string') {
      const iv = parseIntervalOrNull(x);
      return iv ? formatIntervalIn(iv, kind.slice(9) as IntervalStyle) : x;
    }
    // 'datearray:<kind>': an array of dates or timestamps made text, each element as its type prints
    // it ('0044-03-15 BC' for the stored '/9956-03-15', a timestamptz with its '+00')
    if (typeof kind === 'string' && kind.startsWith('datearray:timestamptz@') && typeof x === 'string') {
      const zone = kind.slice(22);
      return mapArrayText(x, (e) => (/^-?infinity$/i.test(e) ? e : (timestamptzTextIn(e, zone) ?? e)));
    }
    if (typeof kind === 'string' && kind.startsWith('datearray:') && typeof x === 'string')
      return mapArrayText(x, (e) => pgDateText(e, kind.slice(10) as 'date') ?? e);
    // 'boolarray': a boolean array made text[] (ARRAY[true]::text[]), each element as boolean's cast
    // to text says it: {true,false}
    if (kind === 'boolarray' && typeof x === 'string') {
      const xs = parseArrayText(x);
      if (xs) return arrayText(xs.map((e) => (e === null ? null : pgBool(e) ? 'true' : 'false')));
    }
    // 'array': a one-dimensional array as PostgreSQL prints it (elements quoted only where they must be)
    if (kind === 'array') {
      const a = String(x).trim();
      if (a.startsWith('[')) return arrayText(arrayElements(a));
      if (!a.startsWith('{') || a.slice(1, -1).includes('{')) return a;
      const inner = a.slice(1, -1);
      const parts = inner === '' ? [] : (inner.match(/"(?:[^"\\]|\\.)*"|[^,]+/g) ?? []);
      return arrayText(
        parts.map((p) => (p.startsWith('"') ? p.slice(1, -1).replace(/\\(.)/g, '$1') : p === 'NULL' ? null : p)),
      );
    }
    // 'array:<element>': an array an expression built (array_agg of booleans gave {1,0}, of doubles
    // {100000000000000000000}) printed as its element type prints ({t,f}, {1e+20})
    if (
      typeof kind === 'string' &&
      kind.startsWith('array:') &&
      isElementKind(kind.slice(6)) &&
      typeof x === 'string'
    ) {
      try {
        return arrayInput(x, kind.slice(6) as ElementKind, true);
      } catch {
        return x;
      }
    }
    // 'bpchar:n': a char(n) value padded to n
    if (typeof kind === 'string' && kind.startsWith('bpchar:')) return String(x).padEnd(Number(kind.slice(7)), ' ');
    // 'numeric': a computed numeric whose scale is not known here, a double at its 15 significant digits
    if (kind === 'numeric' && typeof x === 'number' && Number.isFinite(x) && !Number.isInteger(x))
      return decimalText(parseDecimal(String(computedNumeric(x)))!);
    if (kind === 'numeric' && typeof x === 'number' && !Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
    // (a whole one in full: 1e20 is 100000000000000000000, as numeric prints it, not SQLite's 1.0e+20)
    if (kind === 'numeric' && typeof x === 'number') return decimalText(parseDecimal(String(x))!);
    // 'numeric:s': a numeric(p, s) value at its scale (12.5 prints 12.50)
    if (typeof kind === 'string' && /^numeric:\d+$/.test(kind) && (typeof x === 'number' || typeof x === 'bigint')) {
      const d = parseDecimal(String(x));
      if (d) return decimalText(decimalAtScale(d, Number(kind.slice(8))));
    }
    return String(x);
  });
  // a whole row (`SELECT t FROM t`) as PostgreSQL's record text: `(1,abc,)`, each field made text
  // by the caller (__pg_text), NULL empty, a field that is empty or holds a quote, backslash,
  // parenthesis, comma or white space in double quotes with quotes and backslashes doubled
  db.function('__pg_record', { deterministic: true, varargs: true, safeIntegers: true }, (...fields: unknown[]) => {
    const text = fields.map((x) => {
      if (x === null || x === undefined) return '';
      const v = Buffer.isBuffer(x) ? `\\x${x.toString('hex')}` : String(x);
      return v === '' || /["\\(),\s]/.test(v) ? `"${v.replace(/(["\\])/g, '$1$1')}"` : v;
    });
    return `(${text.join(',')})`;
  });
  // the divisor of a numeric division as a double (a NUMERIC holding a whole number, or a sum, is an
  // integer to SQLite, which would divide integers), and PostgreSQL's 22012 for zero
  db.function('__pg_real_divisor', { deterministic: true }, (x: unknown) => {
    if (x === null || x === undefined) return null;
    if (isZero(x)) throw pgFail('22012', 'division by zero');
    return typeof x === 'string' ? (x as never) : Number(x);
  });
  db.function(
    '__pg_int',
    { deterministic: true, varargs: true },
    (x: unknown, type: unknown, fromDouble?: unknown) =>
      pgInteger(x, String(type), fromDouble === 1 || fromDouble === 1n) as number,
  );
  // a cast to "char" (protocols/pg/sql/char-type.ts): a string's first character (charin), an
  // integer's character of that code, 22003 past -128..127 (i4tochar; 0 is the empty string)
  db.function('__pg_char', { deterministic: true, safeIntegers: true }, (x: unknown) => {
    if (x === null) return null;
    if (typeof x !== 'bigint') return String(x instanceof Uint8Array ? Buffer.from(x).toString() : x).slice(0, 1);
    if (x < -128n || x > 127n) throw sqlStateError('22003', '"char" out of range');
    return x === 0n ? '' : String.fromCharCode(Number(x < 0n ? x + 256n : x));
  });
  // a value written into an integer column: a fraction rounded half away from zero (as numeric to
  // integer), text read strictly, 64-bit integers exactly
  db.function('__pg_int_assign', { deterministic: true, safeIntegers: true }, (x: unknown) =>
    typeof x === 'bigint' ? x : (pgInteger(x, 'bigint') as bigint),
  );
  // ... of a double or real (the parse tree says so): rounded half to even, as float8 to int8 is
  db.function('__pg_int_assign', { deterministic: true, safeIntegers: true }, (x: unknown, _fromDouble: unknown) =>
    typeof x === 'bigint' ? x : (pgInteger(x, 'bigint', true) as bigint),
  );
  // a computed value written into a plain NUMERIC column: a double taken at its 15 significant digits,
  // as PostgreSQL's numeric would hold the exact result (0.1 * 3 is 0.3, not 0.30000000000000004)
  db.function('__pg_numeric_assign', { deterministic: true, safeIntegers: true }, (x: unknown) =>
    typeof x === 'number' ? computedNumeric(x) : (x as number),
  );
  db.function('__pg_interval_time', { deterministic: true }, (x: unknown) => intervalTime(x));
  // x::interval hour, CAST(x AS interval day to second(0)) of a column or parameter
  db.function('__pg_interval_fields', { deterministic: true }, (x: unknown, last: unknown, p: unknown) =>
    qualifyInterval(x, String(last), p === null ? null : Number(p)),
  );
  db.function('__pg_round_interval', { deterministic: true }, (x: unknown, digits: unknown) =>
    roundInterval(x, Number(digits)),
  );
  db.function('__pg_jsonb_scalar', { deterministic: true }, (x: unknown, type: unknown) =>
    jsonbScalar(x, String(type)),
  );
  db.function('__pg_oid', { deterministic: true, safeIntegers: true }, (x: unknown) => pgOid(x) as never);
  db.function('__pg_float', { deterministic: true }, (x: unknown, type: unknown) => pgFloat(x, String(type)) as number);
  db.function('__pg_float_numeric', { deterministic: true }, (x: unknown, digits: unknown) =>
    floatNumeric(x, Number(digits)),
  );
  // numeric's NaN cast to an integer type: 0A000 as PostgreSQL (the cast itself would say 22P02)
  db.function('__pg_not_nan', { deterministic: true, safeIntegers: true }, (x: unknown, type: unknown) => {
    if (typeof x === 'string' && x.trim().toLowerCase() === 'nan')
      throw pgFail('0A000', `cannot convert NaN to ${type}`);
    // (a numeric's Infinity, a REAL infinity in SQLite: PostgreSQL's 0A000 too)
    if (typeof x === 'number' && !Number.isFinite(x)) throw pgFail('0A000', `cannot convert infinity to ${type}`);
    return x as number;
  });
  db.function('__pg_to_numeric', { deterministic: true, safeIntegers: true }, (x: unknown) => pgToNumeric(x) as number);
  for (const [name, insensitive] of [
    ['__pg_like_glob', false],
    ['__pg_ilike_glob', true],
  ] as const)
    db.function(name, { deterministic: true, varargs: true }, (p: unknown, e?: unknown) =>
      p === null || p === undefined || e === null
        ? null
        : likeToGlob(String(p), e === undefined ? '\\' : String(e), insensitive),
    );
  db.function('__pg_typeof', { deterministic: true }, (x: unknown) => typeOfValue(x));
  // a % b of numerics and doubles: the remainder with the dividend's sign (SQLite's % makes integers of both)
  db.function('__pg_mod', { deterministic: true }, (a: unknown, b: unknown) => {
    if (a === null || b === null) return null;
    const x = Number(pgFloat(a, 'numeric'));
    const y = Number(pgFloat(b, 'numeric'));
    if (Number.isNaN(x) || Number.isNaN(y)) return 'NaN'; // numeric's NaN (the text NaN)
    if (y === 0) throw pgFail('22012', 'division by zero');
    // (Infinity % y: NaN, as numeric's; x % Infinity is x)
    return Number.isFinite(x) ? (Number.isFinite(y) ? x % y : x) : 'NaN';
  });
  // round(double): half to even, as PostgreSQL's (the C library's rint); SQLite's round goes away from zero
  db.function('__pg_round_even', { deterministic: true }, (x: unknown) => {
    if (x === null || x === undefined) return null;
    const v = Number(pgFloat(x, 'double precision'));
    if (Number.isNaN(v)) return 'NaN'; // (as the front end keeps it: a NaN double would be NULL)
    return Math.abs(v % 1) === 0.5 ? 2 * Math.round(v / 2) : Math.round(v);
  });
  // round(numeric, n): the decimal (a double by its 15 digits, as PostgreSQL reads float8) rounded
  // half away from zero, so round(1.005, 2) is 1.01; n may be negative (round(1234, -2) is 1200)
  db.function('__pg_round_numeric', { deterministic: true }, (x: unknown, n: unknown) => {
    if (x === null || x === undefined || n === null || n === undefined) return null;
    const v = Number(pgFloat(x, 'numeric'));
    const k = Number(n);
    if (Number.isNaN(v)) return 'NaN';
    if (!Number.isFinite(v)) return v;
    // numeric text (an exact avg or stddev) exactly, a double by its 15 digits
    const d = (typeof x === 'string' ? parseDecimal(x) : null) ?? parseDecimal(doubleDigits(v))!;
    if (k >= 0) return Number(decimalText(decimalAtScale(d, k)));
    const digits = d.int.padStart(-k, '0');
    const at = digits.length + k;
    const shifted = decimalAtScale({ ...d, int: digits.slice(0, at), frac: digits.slice(at) + d.frac }, 0);
    return Number(decimalText(shifted)) * 10 ** -k;
  });
  // trunc(x, n): cut toward zero at n digits after the point (SQLite's trunc takes one argument)
  db.function('trunc', { deterministic: true }, (x: unknown, n: unknown) =>
    x === null || n === null ? null : (truncAt(x, n) as number),
  );
  // a value written into a varchar(n) or char(n) column: 22001 past n characters, as PostgreSQL
  // refuses it (trailing spaces past n are cut instead)
  db.function('__pg_varchar', { deterministic: true }, (x: unknown, n: unknown) =>
    pgCharacters(x, Number(n), 'character varying'),
  );
  db.function('__pg_char', { deterministic: true }, (x: unknown, n: unknown) =>
    pgCharacters(x, Number(n), 'character'),
  );
  // x::numeric(p, s) and a value written into a numeric(p, s) column
  db.function(
    '__pg_numeric',
    { deterministic: true, varargs: true, safeIntegers: true },
    (x: unknown, p: unknown, s: unknown, written?: unknown) =>
      pgNumericTypmod(x, Number(p), Number(s), written !== undefined) as number,
  );
  // a parameter written into a plain NUMERIC column: 22003 when the column cannot keep its digits
  // (a numeric parameter past a double's digits is bound as its text: types/values.ts)
  db.function('__pg_numeric_param', { deterministic: true, safeIntegers: true }, (x: unknown) =>
    typeof x === 'string' ? (keptNumeric(x) as number) : (x as number),
  );
  db.function(
    '__pg_array_typmod',
    { deterministic: true },
    (x: unknown, kind: unknown, a: unknown, b: unknown) => arrayTypmod(x, String(kind), Number(a), Number(b)) as string,
  );
  // a # b, PostgreSQL's bitwise XOR of integers (SQLite has & and | but no XOR)
  db.function('__pg_xor', { deterministic: true, safeIntegers: true }, (a: unknown, b: unknown) => {
    if (a === null || b === null) return null;
    if (typeof a !== 'bigint' || typeof b !== 'bigint')
      throw pgFail('42883', 'operator does not exist: # on non-integers');
    return a ^ b;
  });
  // a << n and a >> n of integers as PostgreSQL's C computes them: the count modulo the width the
  // left operand is promoted to (int2's to int's 32 bits), the result of the left operand's type
  // (SQLite shifts a negative count the other way and a count past 64 to 0 or -1)
  db.function(
    '__pg_shift',
    { deterministic: true, safeIntegers: true },
    (op: unknown, bits: unknown, a: unknown, b: unknown) => {
      if (a === null || b === null) return null;
      const width = Number(bits);
      const count = BigInt(b as bigint) & BigInt(width === 64 ? 63 : 31);
      const x = BigInt(a as bigint);
      const shifted = op === '<<' ? BigInt.asIntN(width === 64 ? 64 : 32, x << count) : x >> count;
      return BigInt.asIntN(width, shifted);
    },
  );
  // PostgreSQL's random() is a float8 in [0, 1); SQLite's is a 64-bit integer
  db.function('__pg_random', { deterministic: false }, () => Math.random());
  // ARRAY[...], ARRAY(SELECT ...) and array_agg, whose values are PostgreSQL's array text
  db.function('__pg_array', { deterministic: true, varargs: true }, (...xs: unknown[]) => arrayText(xs));
  db.aggregate('__pg_array_agg', collect);
  // string_agg of bytea (the analysis renames the call): the bytes joined, each value after the
  // first preceded by its row's delimiter, as PostgreSQL's bytea_string_agg (group_concat made text of them)
  db.aggregate('__pg_bytea_string_agg', {
    varargs: true,
    start: () => null as Buffer[] | null,
    step: (acc: Buffer[] | null, ...[v, sep]: unknown[]) => {
      if (v === null || v === undefined) return acc;
      const parts = acc ?? [];
      if (acc !== null && sep !== null && sep !== undefined) parts.push(byteaOfValue(sep));
      parts.push(byteaOfValue(v));
      return parts;
    },
    result: (acc: Buffer[] | null) => (acc === null ? null : Buffer.concat(acc)),
  } as never);
  // array_agg over no rows is NULL (ARRAY(SELECT ...) of none is the empty array: __pg_array_agg);
  // over a window the frame's values in order, dropped oldest first (inverse: SQLite's 42000 without it)
  db.aggregate('array_agg', {
    ...collect,
    inverse: (acc: unknown[]) => (acc.shift(), acc),
    result: (acc: unknown[]) => (acc.length === 0 ? null : arrayText(acc)),
  });
  // bool_and/every and bool_or skip NULLs, and are NULL over no rows
  for (const [name, and] of [
    ['bool_and', true],
    ['every', true],
    ['bool_or', false],
  ] as const)
    db.aggregate(name, {
      start: () => null as number | null,
      step: (acc: number | null, v: unknown) =>
        v === null ? acc : and ? (acc ?? 1) && (Number(v) ? 1 : 0) : (acc ?? 0) || (Number(v) ? 1 : 0),
    });
  // string_agg(DISTINCT x, sep [ORDER BY x [DESC]]): PostgreSQL sorts the values to drop repeats, so
  // they come out in order (code point order, as the C and C.UTF-8 collations sort); NULLs skipped
  for (const desc of [false, true])
    db.aggregate(desc ? '__pg_string_agg_distinct_desc' : '__pg_string_agg_distinct', {
      ...distinctJoin(desc),
      varargs: true,
    } as never);
  // a timestamp as json_build_object() and json_agg() print it: ISO 8601 with a T, timestamptz with its zone
  db.function('__pg_json_timestamp', { deterministic: true }, (v: unknown, tz: unknown) =>
    v === null || typeof v !== 'string' ? (v as never) : jsonTimestamp(v, tz),
  );
  // an error with PostgreSQL's SQLSTATE where a translation checks what SQLite does not (translate/one-row.ts's 21000)
  db.function('__pg_raise', { deterministic: true }, (code: unknown, message: unknown) => {
    throw pgFail(String(code), String(message));
  });
  // a date as the JSON builders print it: PostgreSQL's text, a year BC ('/9956-03-15') as '0044-03-15 BC'
  db.function('__pg_json_date', { deterministic: true }, (x: unknown) =>
    typeof x === 'string' ? (pgDateText(x, 'date') ?? x) : (x as never),
  );
  // a bytea as the JSON builders print it: its hex text (\\x0102ff), as bytea_output = hex prints it
  db.function('__pg_json_bytea', { deterministic: true }, (x: unknown) =>
    Buffer.isBuffer(x) ? `\\x${x.toString('hex')}` : (x as never),
  );
  // a bytea[] as the JSON builders put it in: an array of its elements' text in the session's
  // bytea_output ('hex' or 'escape'), NULL elements null, as many levels as it has
  db.function('__pg_json_bytea_array', { deterministic: true }, (x: unknown, style: unknown) => {
    if (x === null || x === undefined) return null;
    const tree = typeof x === 'string' ? arrayTreeOrNull(x) : null;
    if (tree === null) return JSON.stringify(String(x)); // explicit bounds: its text, as before
    const text = (b: Buffer) => (style === 'escape' ? byteaEscapeText(b) : byteaHex(b));
    const json = (xs: ArrayTree): unknown[] =>
      xs.map((e) => (e === null ? null : Array.isArray(e) ? json(e) : text(byteaOfValue(e))));
    return JSON.stringify(json(tree));
  });
  // a value of a type the translation does not know in a json builder: a blob (a bytea) as its text
  // in the session's bytea_output ('hex' or 'escape'), anything else as it is
  db.function('__pg_json_blob', { deterministic: true }, (x: unknown, style: unknown) =>
    x instanceof Uint8Array ? (style === 'escape' ? byteaEscapeText(x) : byteaHex(x)) : (x as never),
  );
  // a double as JSON: PostgreSQL's float text (-2, 1e+20, not SQLite's -2.0), a string when not
  // finite; a real's (`single`) as float4 prints it
  db.function('__pg_json_float', { deterministic: true, varargs: true }, (x: unknown, single?: unknown) => {
    // (NaN, kept as the text NaN: "NaN", as PostgreSQL writes it; it was null)
    if (typeof x === 'string' && x.trim().toLowerCase() === 'nan') return '"NaN"';
    if (typeof x !== 'number') return x as never;
    const text = single ? floatText(Math.fround(x), true) : floatText(x);
    return Number.isFinite(x) ? text : JSON.stringify(text);
  });
  installPgStringFunctions(db);
  installSimilarSubstring(db);
  installPgByteaFunctions(db);
  installPgStatistics(db);
  installExactDivision(db);
  installExactPower(db);
  installExactLogs(db);
  installExactStatistics(db);
  installPgArrayFunctions(db);
  installPgJsonArrays(db);
  installPgJsonNumbers(db);
  installJsonbDistinctAggregates(db);
  installJsonObjectDistinctAgg(db);
  installPgJsonGet(db);
  installPgMathFunctions(db);
  installPgFloatMath(db);
  installNumericArithmetic(db);
  installPgJsonFunctions(db, (x) => arrayElements(x) ?? []);
  installJsonPathFunctions(db);
  installTextSearchFunctions(db);
  // a json builder's document with PostgreSQL's spacing (sql/json-layout.ts reads the layout)
  db.function('__pg_json_layout', { deterministic: true }, (doc: unknown, layout: unknown) =>
    doc === null ? null : printJsonLayout(String(doc), String(layout)),
  );
  // a json value a builder keeps as written: its text marked, a string in SQLite's document
  db.function('__pg_json_verbatim', { deterministic: true }, (doc: unknown) =>
    doc === null ? null : VERBATIM_MARK + String(doc),
  );
  installToChar(db);
  installJsonbOperators(db);
}

/** json_typeof: object, array, string, number, boolean or null, as PostgreSQL names them. */
function jsonTypeof(v: Json): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'array';
  return v instanceof Map ? 'object' : 'number';
}

/** A text[] operand (a path, a list of keys), or null when one of its elements is NULL. */
function textArray(x: unknown): string[] | null {
  const xs = arrayElements(x);
  return xs.some((e) => e === null) ? null : xs.map(String);
}

/** `@>`, `<@`, `?`, `?|`, `?&`, `#>`, `#>>`, `#-` and `-` (protocols/pg/sql/translate/jsonb-ops.ts calls them), and json(b)_typeof. */
function installJsonbOperators(db: Database.Database): void {
  const fn = (name: string, f: (a: unknown, b: unknown) => unknown) =>
    db.function(name, { deterministic: true }, (a: unknown, b: unknown) =>
      a === null || b === null ? null : (f(a, b) as number),
    );
  const bool = (b: boolean) => (b ? 1 : 0);
  // record_cmp's order of two jsonb fields (translate/json-values.ts): -1, 0 or 1, a NULL after any value
  db.function('__pg_jsonb_cmp', { deterministic: true }, (a: unknown, b: unknown) =>
    a === null || b === null
      ? Number(a === null) - Number(b === null)
      : Math.sign(compareJsonb(jsonOperand(a), jsonOperand(b))),
  );
  // jsonb's <, <=, >, >= (translate/typed-arithmetic.ts): -1, 0 or 1 in jsonb's order, NULL with a NULL
  fn('__pg_jsonb_order', (a, b) => Math.sign(compareJsonb(jsonOperand(a), jsonOperand(b))));
  // ORDER BY a jsonb value (translate/null-order.ts): a key whose bytes sort in jsonb's order
  db.function('__pg_jsonb_sortkey', { deterministic: true }, (a: unknown) =>
    a === null ? null : jsonbSortKey(jsonOperand(a)),
  );
  fn('__pg_jsonb_contains', (a, b) => bool(jsonbContains(jsonOperand(a), jsonOperand(b))));
  fn('__pg_jsonb_contained', (a, b) => bool(jsonbContains(jsonOperand(b), jsonOperand(a))));
  fn('__pg_jsonb_exists', (a, k) => bool(jsonbHasKey(jsonOperand(a), String(k))));
  fn('__pg_jsonb_exists_any', (a, ks) => {
    const v = jsonOperand(a);
    return bool(arrayElements(ks).some((k) => k !== null && jsonbHasKey(v, String(k))));
  });
  fn('__pg_jsonb_exists_all', (a, ks) => {
    const v = jsonOperand(a);
    return bool(arrayElements(ks).every((k) => k === null || jsonbHasKey(v, String(k))));
  });
  fn('__pg_jsonb_path', (a, p) => {
    const path = textArray(p);
    const v = path && jsonbPath(jsonOperand(a), path);
    return v === undefined || path === null ? null : printJsonb(v);
  });
  fn('__pg_jsonb_path_text', (a, p) => {
    const path = textArray(p);
    const v = path && jsonbPath(jsonOperand(a), path);
    if (v === undefined || v === null || path === null) return null;
    return typeof v === 'string' ? v : printJsonb(v);
  });
  // jsonb's x -> i and x ->> i of an integer i (translate/jsonb-ops.ts, marked 'jsonb-elem'): a
  // scalar answers index 0 and -1 as PostgreSQL's jsonb does (SQLite's -> gave NULL)
  fn('__pg_jsonb_elem', (a, i) => {
    const v = jsonbElement(jsonOperand(a), Number(i));
    return v === undefined ? null : printJsonb(v);
  });
  fn('__pg_jsonb_elem_text', (a, i) => {
    const v = jsonbElement(jsonOperand(a), Number(i));
    if (v === undefined || v === null) return null;
    return typeof v === 'string' ? v : printJsonb(v);
  });
  // the key of jsonb's x -> k that is no literal (translate/jsonb-ops.ts): an index as it is, a
  // text SQLite's -> would read as a path ('', '$a') or miss ('"q') the path of that one key
  db.function('__pg_json_key', { deterministic: true, safeIntegers: true }, (k: unknown) => {
    if (typeof k !== 'string') return k as never;
    return safeKey(k) ? k : jsonPathKey(k);
  });
  // x ->> k as PostgreSQL answers it, from SQLite's x -> k (the value's JSON text): a string
  // unquoted, JSON null NULL, true/false, numbers and containers as jsonb prints them
  db.function('__pg_json_text', { deterministic: true }, (j: unknown) => {
    if (j === null) return null;
    const s = String(j);
    if (s === 'null') return null;
    if (s[0] === '"') return JSON.parse(s) as string;
    if (s === 'true' || s === 'false' || /^-?[1-9]\d{0,14}$/.test(s)) return s;
    return printJsonb(jsonOperand(s)); // containers with jsonb's spacing, numbers as numeric prints them (1e2: 100)
  });
  // a jsonb value as PostgreSQL prints it, for a document that embeds it (json_build_object, json_agg)
  db.function('__pg_jsonb_text', { deterministic: true }, (a: unknown) =>
    a === null ? null : printJsonb(jsonOperand(a)),
  );
  for (const name of ['json_typeof', 'jsonb_typeof'])
    db.function(name, { deterministic: true }, (a: unknown) => (a === null ? null : jsonTypeof(jsonOperand(a))));
  // `a - k`: k a key (text), keys (text[]) or an array index (int), as the analysis typed it
  db.function('__pg_jsonb_minus', { deterministic: true }, (kind: unknown, a: unknown, k: unknown) => {
    if (a === null || k === null) return null;
    if (kind === 'int') return printJsonb(jsonbMinus(jsonOperand(a), null, Number(k)));
    // (a NULL among the keys is skipped, as PostgreSQL's jsonb_delete_array skips it)
    const keys =
      kind === 'arr'
        ? arrayElements(k)
            .filter((e) => e !== null)
            .map(String)
        : [String(k)];
    return printJsonb(jsonbMinus(jsonOperand(a), keys, null));
  });
  // (a NULL in the path is 22004 where the walk reaches it, as PostgreSQL's setPath)
  fn('__pg_jsonb_delete_path', (a, p) =>
    printJsonb(
      jsonbDeletePath(
        jsonOperand(a),
        arrayElements(p).map((e) => (e === null ? null : String(e))),
      ),
    ),
  );
}
