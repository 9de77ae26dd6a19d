// Casts as PostgreSQL means them: `x::type` and `CAST(x AS type)` become SQLite expressions with
// PostgreSQL's rules (strict integer and float parsing, booleans from their words, bytea from hex,
// dates and times converted once when the operand is a literal, else per row by __pg_* functions).
// CAST(x AS BLOB) and other SQLite spellings are left to SQLite.
import {
  castDate,
  castInterval,
  castTime,
  castTimestamp,
  castTimetz,
  roundFraction,
} from '../../../../src/engine/dates';
import { type ElementKind, arrayInput, uuidIn } from '../../../../src/engine/pg-array-input';
import { pgError } from '../../sqlstate';
import { regclassOidOrFail, regnamespaceOid, regtypeOid } from '../../types/reg-input';
import { checkRegprocLiteral } from '../../catalog/builtin-procs';
// (regproc's and regprocedure's codecs, for the columns these casts make)
import { regprocedureText } from '../../catalog/regproc-codecs';
import { regconfigOid } from '../../catalog/regconfig';
import { quoteString } from '../lexer';
import { charTypeName } from '../char-type';
import { castTimestamptzHere, sessionZone } from '../session-zone';
import { inputStyleArgument } from '../session-styles';
import {
  type Tok,
  closerAfter,
  endsOperand,
  isOp,
  isPunct,
  isWord,
  joinTokens,
  operandStart,
  readType,
} from '../tokens';
import { rewriteDateArithmetic } from './typed-arithmetic';
import { textOfKind } from '../text-kinds';
import { lookup } from '../../../../src/lookup';
import { jsonbText } from '../../../../src/engine/jsonb';
import { jsonPathText } from '../../../../src/engine/pg-jsonpath-functions';
import { tsQueryText, tsVectorText } from '../../../../src/engine/pg-text-search-functions';

const TIME_CASTS = new Set(['timestamp', 'timestamptz', 'time', 'timetz']);

/**
 * PostgreSQL's data types Patina has no values of (network addresses, money, geometry, bit strings,
 * text search, ranges): a cast to one is refused by name. It passed the text through unchecked
 * (`'x'::inet` answered x where PostgreSQL's input fails, `CAST('x' AS inet)` was SQLite's 0).
 */
const ABSENT_TYPES = new Set([
  'inet',
  'cidr',
  'macaddr',
  'macaddr8',
  'money',
  'point',
  'line',
  'lseg',
  'box',
  'path',
  'polygon',
  'circle',
  'bit',
  'varbit',
  'int4range',
  'int8range',
  'numrange',
  'tsrange',
  'tstzrange',
  'daterange',
  'int4multirange',
  'int8multirange',
  'nummultirange',
  'tsmultirange',
  'tstzmultirange',
  'datemultirange',
  'txid_snapshot',
  'pg_snapshot',
]);

/** SQLite spelling of a PostgreSQL cast of `x` to `type` (lower case, no schema) with its modifiers. */
function castTo(
  x: string,
  type: string,
  isArray: boolean,
  mods: number[] = [],
  fields?: { first: string; last: string },
): string {
  if (ABSENT_TYPES.has(type))
    throw pgError(
      '0A000',
      `type ${type}${isArray ? '[]' : ''} is not supported: Patina has no values of it (cast to text, or keep the text in a text column)`,
    );
  if (isArray) {
    // numeric(p, s)[], varchar(n)[], char(n)[]: each element as its type modifier makes it
    const kind = ['numeric', 'decimal'].includes(type)
      ? 'numeric'
      : ['varchar', 'character varying'].includes(type)
        ? 'varchar'
        : ['char', 'character', 'bpchar'].includes(type)
          ? 'char'
          : null;
    return kind && mods.length > 0
      ? `__pg_array_typmod(${arrayCast(x, type)}, '${kind}', ${mods[0]}, ${mods[1] ?? 0})`
      : arrayCast(x, type);
  }
  // `x::interval hour`, `CAST(x AS interval day to second(0))` of anything but a literal (which
  // interval-fields.ts reads): cut per row to the qualifier's last field, as PostgreSQL's typmod cuts
  // (SQLite read the qualifier as the column's alias: the value was uncut)
  if (type === 'interval' && fields) return `__pg_interval_fields(${x}, '${fields.last}', ${mods[0] ?? 'NULL'})`;
  if (mods.length > 0) {
    // numeric(p, s): rounded to s digits, 22003 past p; varchar(n), char(n): cut to n characters
    if (type === 'numeric' || type === 'decimal') return `__pg_numeric(${x}, ${mods[0]}, ${mods[1] ?? 0})`;
    if (['varchar', 'character varying', 'char', 'character', 'bpchar'].includes(type))
      return `substr(CAST(${x} AS TEXT), 1, ${mods[0]})`;
    // interval(0): its seconds rounded to that many digits
    if (type === 'interval' && mods.length === 1 && mods[0] < 6)
      return `__pg_round_interval(${castTo(x, type, false)}, ${mods[0]})`;
    // timestamp(0), time(3): rounded to that many fractional digits (a literal here, else per row)
    if (TIME_CASTS.has(type) && mods[0] < 6) {
      const cast = castTo(x, type, false);
      return /^'(?:[^']|'')*'$/.test(cast)
        ? quoteString(roundFraction(cast.slice(1, -1).split("''").join("'"), mods[0]))
        : `__pg_round_time(${cast}, ${mods[0]})`;
    }
  }
  switch (type) {
    // PostgreSQL's strict casts ('abc'::int is 22P02, not SQLite's 0): src/engine/pg-functions.ts
    case 'int2':
    case 'smallint':
      return `__pg_int(${x}, 'smallint')`;
    case 'int':
    case 'int4':
    case 'integer':
    case 'serial':
      return `__pg_int(${x}, 'integer')`;
    case 'int8':
    case 'bigint':
    case 'bigserial':
      return `__pg_int(${x}, 'bigint')`;
    case 'oid':
      // 'now'::regproc::oid (psql's \sf): a function's name is looked up (regproc keeps the text)
      // (a negative int4 wraps past 2^32, as PostgreSQL's binary-compatible cast reads it: __pg_oid)
      // a regproc cast of a parameter or column (`+(x)` below: pgspecial's \sf sends
      // `%(pattern)s::regproc::oid`) is looked up too (it was __pg_oid of the name: 0)
      if (/^\+\(.*\)$/s.test(x)) return `__pg_regproc(${x.slice(2, -1)})`;
      return /^'(?!\d+')[^']*'$/.test(x) ? `__pg_regproc(${x})` : /^\d+$/.test(x) ? x : `__pg_oid(${x})`;
    case 'xid':
    case 'cid':
      return `CAST(${x} AS INTEGER)`;
    case 'float4':
    case 'real':
      return `__pg_float(${x}, 'real')`;
    case 'float8':
    case 'double precision':
    case 'float':
      return `__pg_float(${x}, 'double precision')`;
    case 'numeric':
    case 'decimal':
      return `__pg_to_numeric(${x})`;
    case 'bool':
    case 'boolean':
      return `__pg_bool(${x})`;
    case 'bytea': {
      const hex = /^'\\x([0-9a-fA-F]*)'$/.exec(x);
      return hex ? `X'${hex[1]}'` : `__pg_bytea(${x})`;
    }
    // a name written in the statement is resolved here, once, as PostgreSQL's parser does ('t'::regclass
    // is 42P01 before a row is read): the OID is a constant, which every connection runs (the
    // functions are the catalog connection's only); an OID is one already; anything else per row
    case 'regclass':
      return regLiteral(x, regclassOidOrFail) ?? `__pg_regclass(${x})`;
    case 'regtype':
      return regLiteral(x, regtypeOid) ?? `__pg_regtype(${x})`;
    case 'regnamespace':
      return regLiteral(x, regnamespaceOid) ?? `__pg_regnamespace(${x})`;
    // (a text search configuration's OID; an expression's value, a name or an OID, is kept, the text
    // search functions take either: SQLite's no-op + so that an oid column's declared type does not
    // type the result, which prints as the configuration's name)
    case 'regconfig':
      return regLiteral(x, regconfigOid) ?? `+(${x})`;
    case 'regproc':
    case 'regprocedure':
      // a name written in the statement is looked up, as PostgreSQL's parser does ('nosuch'::regproc
      // is 42883, 'upper'::regproc 42725: four functions have that name); it keeps its text
      if (/^'(?:[^']|'')*'$/.test(x)) {
        const written = x.slice(1, -1).split("''").join("'");
        const io = checkRegprocLiteral(written, type === 'regprocedure');
        // (a regprocedure prints its argument types by their names: 'abs(int4)' is abs(integer))
        if (type === 'regprocedure' && !io && !/^\s*\d+\s*$/.test(written))
          return quoteString(regprocedureText(written));
      }
      // pg_type.typinput holds 'array_in': pgjdbc compares it with 'pg_catalog.array_in'::regproc
      if (/^'(?:[^']|'')*'$/.test(x)) return x.replace(/^'pg_catalog\.(\w+)'$/, "'$1'");
      // (an OID column cast, `oid::regproc`: SQLite's no-op + so that the column's declared oid type
      // does not type the result, which prints as the function's name)
      return `+(${x})`;
    // "char": a string's first character, an integer's character of that code (char-type.ts)
    case '"char"':
      return `__pg_char(${x})`;
    case 'text':
    case 'varchar':
    case 'character varying':
    case 'char':
    case 'character':
    case 'bpchar':
    case 'name':
    case 'citext':
      return `CAST(${x} AS TEXT)`;
    case 'date':
      return dateCast(x, '__pg_date', castDate);
    case 'timestamp':
      return dateCast(x, '__pg_timestamp', castTimestamp);
    case 'timestamptz':
      // (a literal without an offset is read in the session's zone; an expression per row in UTC: it
      // may be a stored timestamptz, whose text has no offset, which this cast cannot tell from text)
      return dateCast(x, '__pg_timestamptz', castTimestamptzHere);
    case 'time':
      refuseDateAlone(x);
      return dateCast(x, '__pg_time', castTime);
    case 'timetz': {
      // a time of day with its offset (the session zone's when it has none), as PostgreSQL prints it
      refuseDateAlone(x, 'time with time zone');
      const zone = sessionZone() ?? 'UTC';
      const cast = dateCast(x, '__pg_timetz', (v) => castTimetz(v, zone));
      return cast === `__pg_timetz(${x})` ? `__pg_timetz(${x}, ${quoteString(zone)})` : cast;
    }
    case 'interval':
      return dateCast(x, '__pg_interval', castInterval);
    case 'json':
      // text that is no JSON is 22P02, as PostgreSQL's input function says (a literal at analysis)
      return dateCast(x, '__pg_json_in', jsonIn);
    case 'jsonb':
      // jsonb is a value, printed with its own spacing, keys sorted, the last of duplicate keys
      // (`js::jsonb::json` and a json column's `js::jsonb` written to a json column kept the json
      // text as written)
      return dateCast(x, '__pg_jsonb_in', (v) => {
        const text = jsonIn(v);
        return text === null ? null : (jsonbText(text) ?? text);
      });
    case 'jsonpath':
      // read and printed as PostgreSQL prints the path ('$.a' is $."a"); a bad one is 42601
      return dateCast(x, '__pg_jsonpath_in', (v) => jsonPathText(String(v)));
    case 'tsvector':
      // sorted, merged and printed as PostgreSQL prints it ('b:2 a:1' is 'a':1 'b':2); a bad one is 42601
      return dateCast(x, '__pg_tsvector_in', (v) => tsVectorText(String(v)));
    case 'tsquery':
      return dateCast(x, '__pg_tsquery_in', (v) => tsQueryText(String(v)));
    case 'uuid':
      // checked and printed as PostgreSQL's input does ('x'::uuid passed as it was; an upper-case
      // literal then matched no stored uuid)
      return dateCast(x, '__pg_uuid', (v) => uuidIn(String(v)));
    default: // xml, ...: SQLite keeps them as text already
      return x;
  }
}

/**
 * A literal of a date alone cast to time has no time of day: 22007, as time's input says (it was
 * 00:00:00). Per row such text stays midnight: a stored timestamp may be such text.
 */
function refuseDateAlone(x: string, type = 'time'): void {
  const date = /^[(\s]*'(\s*(?:\d{4}-\d{1,2}-\d{1,2}|\d{8}|today|tomorrow|yesterday)\s*)'[)\s]*$/i.exec(x);
  if (date) throw pgError('22007', `invalid input syntax for type ${type}: "${date[1]}"`);
}

/** The OID a literal names (`'integer'`, by `oidOf`) or is (`23`), as SQL; null for anything else. */
function regLiteral(x: string, oidOf: (name: string) => number): string | null {
  if (/^\d+$/.test(x)) return x;
  if (!/^'(?:[^']|'')*'$/.test(x)) return null;
  const text = x.slice(1, -1).split("''").join("'");
  return String(/^\s*\d+\s*$/.test(text) ? Number(text) : oidOf(text));
}

/** Element types by the names a cast spells them with, for arrays kept in PostgreSQL's form. */
const ELEMENT_KINDS: Record<string, ElementKind> = lookup({
  int2: 'smallint',
  smallint: 'smallint',
  int: 'integer',
  int4: 'integer',
  integer: 'integer',
  int8: 'bigint',
  bigint: 'bigint',
  numeric: 'numeric',
  decimal: 'numeric',
  float4: 'real',
  real: 'real',
  float8: 'double precision',
  'double precision': 'double precision',
  float: 'double precision',
  bool: 'boolean',
  boolean: 'boolean',
  text: 'text',
  varchar: 'text',
  'character varying': 'text',
  char: 'text',
  character: 'text',
  bpchar: 'text',
  name: 'text',
  citext: 'text',
  uuid: 'uuid',
  date: 'date',
  timestamp: 'timestamp without time zone',
  timestamptz: 'timestamp with time zone',
  time: 'time without time zone',
  json: 'json',
  jsonb: 'jsonb',
  interval: 'interval',
  bytea: 'bytea',
});

/**
 * A cast to an array type: the text in PostgreSQL's form, each element read as its type (`'{ a ,
 * b }'::text[]` is '{a,b}', `ARRAY['1','x']::bigint[]` 22P02): a literal here, as array_in reads
 * text; anything else per row, where a decimal into an integer type rounds (ARRAY[1.5]::bigint[]).
 * Arrays of other types (money, inet, ...) are kept as written.
 */
function arrayCast(x: string, type: string): string {
  // (catalog connection: pgcli's `proargtypes::regtype[]`)
  if (type === 'regtype') return `__pg_regtype_array(${x})`;
  const kind = ELEMENT_KINDS[type];
  if (!kind) return x;
  if (/^'(?:[^']|'')*'$/.test(x)) return quoteString(arrayInput(x.slice(1, -1).split("''").join("'"), kind));
  // (dates and intervals read in the session's input style)
  const order = kind === 'date' || kind === 'interval' || kind.startsWith('timestamp') ? inputStyleArgument() : '';
  return `__pg_array_in(${x}, '${kind}', 1${order})`;
}

/**
 * A cast to a date or time type: a literal is converted here (once), anything else per row by `fn`.
 * Dates and timestamps are SQLite text ('2026-11-22 05:13:36'), so comparisons are text comparisons.
 */
/** JSON text as a json or jsonb value: the text itself, 22P02 when it does not parse. */
export function jsonIn(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const text = String(v);
  try {
    JSON.parse(text);
  } catch {
    throw pgError('22P02', 'invalid input syntax for type json', 'user', `Token "${text.slice(0, 40)}" is invalid.`);
  }
  return text;
}

function dateCast(x: string, fn: string, convert: (v: unknown) => string | null): string {
  if (/^'(?:[^']|'')*'$/.test(x)) {
    try {
      const v = convert(x.slice(1, -1).split("''").join("'"));
      if (v === null) return 'NULL';
      if (fn === '__pg_interval') return `${fn}(${quoteString(v)})`; // still an interval to rewriteDateArithmetic
      // A timestamptz literal is nearly always compared with stored UTC text ('2026-11-01 00:00:00'),
      // which '+00' would sort after: the literal is that text, converted to UTC.
      return quoteString(fn === '__pg_timestamptz' ? v.replace(/\+00$/, '') : v);
    } catch (err) {
      // bad JSON or a bad uuid is refused at once, as PostgreSQL reads a typed literal; a bad date is
      // reported by the function when the statement runs
      if (fn === '__pg_json_in' || fn === '__pg_jsonb_in' || fn === '__pg_uuid' || fn === '__pg_jsonpath_in') throw err;
      if (fn === '__pg_tsvector_in' || fn === '__pg_tsquery_in') throw err;
    }
  }
  // (text read per row in the session's input style, when it is not MDY: '01/02/2024' in DMY,
  // '-1 2:00:00' under IntervalStyle sql_standard)
  if (fn === '__pg_date' || fn === '__pg_timestamp' || fn === '__pg_timestamptz' || fn === '__pg_interval')
    return `${fn}(${x}${inputStyleArgument()})`;
  return `${fn}(${x})`;
}

/**
 * A cast to text the analysis typed (sql/typed-operators.ts, `text:kind`): the operand as __pg_text
 * prints that kind (`true`, not 1; `100`, not 100.0; 1.50 at its scale; a timestamp in full). A
 * numeric cast to an integer (`nan-int:type`): its NaN refused with 0A000, as PostgreSQL does.
 */
function asText(t: Tok, operand: string): string {
  if ('arith' in t && t.arith?.startsWith('nan-int:')) return `__pg_not_nan(${operand}, '${t.arith.slice(8)}')`;
  if (!('arith' in t) || !t.arith?.startsWith('text:')) return operand;
  // a timestamptz prints its wall time in the session's zone, when that is not UTC
  return textOfKind(t.arith.slice(5), operand);
}

/**
 * A timestamptz cast to a date, timestamp or time (marked so): its wall time in the session's zone,
 * when that is not UTC; toward a time of day an infinity is NULL (a timestamp's too), as
 * PostgreSQL's timestamptz_time and timestamp_time give (it was 22007).
 */
function wallIfMarked(t: Tok, operand: string, name: string): string {
  const mark = 'arith' in t ? t.arith : undefined;
  const time = name === 'time' || name === 'time without time zone';
  if (mark === 'ts-time-cast' || (mark === 'tz-wall-cast' && time && sessionZone() === null))
    return `__pg_finite(${operand})`;
  if (mark !== 'tz-wall-cast' || sessionZone() === null) return operand;
  return `__pg_wall_in(${operand}, ${quoteString(sessionZone()!)}${time ? ', 1' : ''})`;
}

/** A timestamptz cast to timetz (marked so): its time of day and offset in the session's zone (`14:00:00+02`); NULL of an infinity. */
function timetzCast(t: Tok, operand: string, mods: number[]): string | null {
  if (!('arith' in t) || t.arith !== 'tz-timetz-cast') return null;
  const digits = mods.length > 0 && mods[0] < 6 ? `, ${mods[0]}` : '';
  return `__pg_timetz_in(${operand}, ${quoteString(sessionZone() ?? 'UTC')}${digits})`;
}

/**
 * Text cast to timestamptz per row (marked so: `(d || ' 12:00')::timestamptz`, a text column's),
 * with the session in a zone other than UTC: read as a wall time there, as PostgreSQL reads it (it
 * was read in UTC); null for any other cast.
 */
function zonedTextCast(t: Tok, operand: string, name: string, isArray: boolean, mods: number[]): string | null {
  if (isArray || !('arith' in t) || t.arith !== 'tz-text-cast' || sessionZone() === null) return null;
  if (name !== 'timestamptz' && name !== 'timestamp with time zone') return null;
  const cast = `__pg_timestamptz_in(${operand}, ${quoteString(sessionZone()!)}${inputStyleArgument()})`;
  return mods.length > 0 && mods[0] < 6 ? `__pg_round_time(${cast}, ${mods[0]})` : cast;
}

/**
 * A double cast to an integer (marked so): rounded half to even, its NaN and infinities 22003. A
 * double or real cast to numeric (marked so): its 15 or 6 significant digits. An
 * interval cast to time: its time of day, rounded to time(n)'s digits (it was 22007). A jsonb cast to
 * a number or boolean: its scalar (src/engine/pg-functions.ts), cast. Null for any other cast.
 */
function markedCast(t: Tok, operand: string, name: string, mods: number[]): string | null {
  if (!('arith' in t)) return null;
  // (a cast to char(n) PostgreSQL prints, sql/bpchar-casts.ts: padded to n, `concat('ab'::char(4))`)
  if (t.arith === 'bpchar-pad' && mods.length > 0)
    return `substr(CAST(${operand} AS TEXT) || '${' '.repeat(mods[0])}', 1, ${mods[0]})`;
  if (t.arith?.startsWith('float-int:')) return `__pg_int(${operand}, '${t.arith.slice(10)}', 1)`;
  if (t.arith?.startsWith('float-numeric:'))
    return castTo(`__pg_float_numeric(${operand}, ${Number(t.arith.slice(14))})`, name, false, mods);
  if (t.arith?.startsWith('jsonb-scalar:'))
    return castTo(`__pg_jsonb_scalar(${operand}, '${t.arith.slice(13)}')`, name, false, mods);
  if (t.arith !== 'iv-time') return null;
  const time = `__pg_interval_time(${operand})`;
  return mods.length > 0 && mods[0] < 6 ? `__pg_round_time(${time}, ${mods[0]})` : time;
}

/** A plain `char` or `character` (not the quoted "char") is char(1), as PostgreSQL's grammar makes it: `'ab'::char` is `a`. */
const charMods = (type: Tok | undefined, name: string, mods: number[]): number[] =>
  mods.length === 0 && type?.type === 'word' && (name === 'char' || name === 'character') ? [1] : mods;

export function rewriteCasts(toks: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (!isOp(t, '::')) {
      out.push(t);
      continue;
    }
    // PostgreSQL's parser refuses a cast with nothing to cast or no type, as the grammar does
    if (!endsOperand(out.at(-1))) throw pgError('42601', 'syntax error at or near "::"');
    const type = toks[i + 1];
    if (type === undefined) throw pgError('42601', 'syntax error at end of input');
    if (type.type !== 'word' && type.type !== 'quoted')
      throw pgError('42601', `syntax error at or near "${type.text}"`);
    const { name: read, isArray, end, mods: written, fields } = readType(toks, i + 1);
    const name = charTypeName(toks, i + 1, read); // ("char", char-type.ts)
    const mods = charMods(type, name, written);
    const operand = wallIfMarked(t, joinTokens(rewriteDateArithmetic(out.splice(operandStart(out)))), name);
    out.push({
      type: 'group',
      text:
        timetzCast(t, operand, mods) ??
        markedCast(t, operand, name, mods) ??
        zonedTextCast(t, operand, name, isArray, mods) ??
        castTo(asText(t, operand), name, isArray, mods, fields),
    });
    i = end - 1;
  }
  return out;
}

/** Types whose CAST(x AS type) PostgreSQL means differently from SQLite (which reads the name for an affinity only). */
const PG_CAST_TYPES = new Set([
  '"char"',
  'int',
  'int2',
  'int4',
  'int8',
  'integer',
  'bigint',
  'smallint',
  'float4',
  'float8',
  'real',
  'double precision',
  'float',
  'numeric',
  'decimal',
  'bool',
  'boolean',
  'bytea',
  'regclass',
  'regtype',
  'regnamespace',
  'regconfig',
  'regproc',
  'regprocedure',
  'text',
  'varchar',
  'character varying',
  'char',
  'character',
  'bpchar',
  'name',
  'citext',
  'date',
  'timestamp',
  'timestamptz',
  'time',
  'timetz',
  'interval',
  'json',
  'jsonb',
  'jsonpath',
  'tsvector',
  'tsquery',
  'uuid',
]);

/** CAST(x AS type) as PostgreSQL means it (SQLite's CAST AS date would make '2026-11-03' the number 2026); innermost first. */
export function rewriteCastCalls(toks: Tok[]): Tok[] {
  for (let i = toks.length - 2; i >= 0; i--) {
    if (!isWord(toks[i], 'CAST') || !isPunct(toks[i + 1], '(')) continue;
    const close = closerAfter(toks, i + 1);
    let as = -1;
    let depth = 0;
    for (let k = i + 2; k < close; k++) {
      if (isPunct(toks[k], '(')) depth++;
      else if (isPunct(toks[k], ')')) depth--;
      else if (depth === 0 && isWord(toks[k], 'AS')) as = k;
    }
    if (as < 0) continue;
    const { name: read, isArray, mods: written, fields } = readType(toks, as + 1);
    const name = charTypeName(toks, as + 1, read); // ("char", char-type.ts)
    const mods = charMods(toks[as + 1], name, written);
    // CAST(x AS BLOB) and other SQLite spellings run as SQLite's
    if (!isArray && !PG_CAST_TYPES.has(name) && !ABSENT_TYPES.has(name)) continue;
    const operand = wallIfMarked(toks[i], joinTokens(rewriteDateArithmetic(toks.slice(i + 2, as))), name);
    toks.splice(i, close - i + 1, {
      type: 'group',
      text:
        timetzCast(toks[i], operand, mods) ??
        markedCast(toks[i], operand, name, mods) ??
        zonedTextCast(toks[i], operand, name, isArray, mods) ??
        castTo(asText(toks[i], operand), name, isArray, mods, fields),
    });
  }
  return toks;
}
