// Literals of a simple query lifted out into parameters, so that `... WHERE aid = 48213` and
// `... WHERE aid = 7` share one analysis, one SQLite statement and one point-read verdict (pgbench
// -M simple, dashboards that inline their filters), and so do `INSERT ... VALUES (7, 'x')` and
// `UPDATE t SET v = 'x' WHERE id = 7` (psycopg2, and the ORMs on it, write every value into the SQL
// text). Only spots where a bound value means exactly what the literal meant are taken: an integer or
// string compared with a column in a WHERE clause (or its BETWEEN bounds), a whole item of an
// INSERT's VALUES rows, a whole value of an UPDATE's SET, an integer added to or taken from the
// column a SET assigns (`SET abalance = abalance + -1234`, pgbench's TPC-B). A literal assigned to a column is an
// untyped value PostgreSQL reads with the column's type, as it reads a parameter the analysis typed
// from that column; typedLiterals() converts each one as Bind does, and when a value does not
// fit its type the caller analyses the statement as written instead (its error is the literal's).
import { PatinaError } from '../../../src/errors';
import { decimalText, parseDecimal } from '../../../src/engine/decimal';
import type { SqlValue } from '../../../src/engine/values';
import { OID } from '../types/oids';
import { elementKindOf } from '../types/element-kind';
import { elementOidOf } from '../types/registry';
import { jsonInputError } from '../types/json-input';
import { paramValue } from '../types/values';
import { catalogRelations, hasNoFrom } from './local-statements';
import { isOp, isPunct, isWord, joinTokens } from './tokens';
import type { PgToken } from './lexer';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);
/** What may follow a lifted literal: the end, a closing parenthesis, or a word that ends the operand. */
const ENDS = new Set([
  'AND',
  'OR',
  'ORDER',
  'LIMIT',
  'GROUP',
  'OFFSET',
  'HAVING',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'WINDOW',
  'FETCH',
  'FOR',
  'RETURNING',
]);
/** What may follow a value of an UPDATE's SET list. */
const SET_ENDS = new Set(['WHERE', 'RETURNING', 'FROM']);

/** An integer literal beyond 64 bits assigned to a column (PostgreSQL reads it as a numeric). */
export class WideInteger {
  constructor(readonly text: string) {}
}

export interface Lifted {
  /** The statement's text with `$n` where the literals stood: the cache key of its analysis. */
  key: string;
  tokens: PgToken[];
  values: (SqlValue | WideInteger)[];
  /** Per value: true when it is assigned to a column (VALUES, SET), false when compared with one. */
  assigned: boolean[];
  /** Per value: true for an assigned decimal (`1.5`, `-2.50`, `1e3`), kept as its text in `values`. */
  decimal: boolean[];
  /** Per value: true for an integer operand of `SET col = col + n` (bound only where col is an integer). */
  operand: boolean[];
}

const isColumn = (t: PgToken | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');

/**
 * The value a liftable literal token stands for; undefined when it is not one (an unclosed string, a
 * decimal compared with a column: its text form matters against TEXT columns). An assigned decimal
 * is its text, read by typedLiterals() as its column's float or numeric.
 */
function literalValue(t: PgToken, negative: boolean, assigned: boolean): SqlValue | WideInteger | undefined {
  if (t.type === 'number') {
    if (/^\d+$/.test(t.text)) {
      const n = BigInt(negative ? `-${t.text}` : t.text); // bound as INTEGER, as the literal was (a JS number binds as REAL)
      if (n >= INT64_MIN && n <= INT64_MAX) return n;
      // beyond 64 bits SQLite cannot bind it ("too big") and PostgreSQL reads a numeric: one assigned
      // is lifted as its text (typedLiterals() reads it by its column), one compared is left as written
      return assigned ? new WideInteger(n.toString()) : undefined;
    }
    if (assigned && /^(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t.text)) return negative ? `-${t.text}` : t.text;
    return undefined;
  }
  if (t.type !== 'string' || negative || t.text.length < 2 || t.text[0] !== "'" || !t.text.endsWith("'"))
    return undefined;
  // (an infinity compared with a numeric or double column is read as one by the analysis, a number
  // SQLite's affinity would not make of the bound text)
  if (!assigned && /^'\s*[+-]?inf(inity)?\s*'$/i.test(t.text)) return undefined;
  return t.text.slice(1, -1).split("''").join("'");
}

/** The statement with its liftable literals as parameters; null when there are none. */
export function liftLiterals(tokens: PgToken[]): Lifted | null {
  const sig = tokens.filter((t) => t.type !== 'space' && t.type !== 'comment');
  if (sig.length < 4 || sig[0].type !== 'word') return null;
  const first = sig[0].text.toUpperCase();
  if (first !== 'SELECT' && first !== 'INSERT' && first !== 'UPDATE' && first !== 'DELETE') return null;
  if (sig.some((t) => t.type === 'param') || catalogRelations(sig)) return null;
  if (first === 'SELECT' && hasNoFrom(sig)) return null;
  const values: (SqlValue | WideInteger)[] = [];
  const assigned: boolean[] = [];
  const decimal: boolean[] = [];
  const operand: boolean[] = [];
  const out = sig.slice();
  /** Lifts the literal at i (with a minus sign before it when `negative`) if it is one. */
  const lift = (i: number, negative: boolean, isAssigned: boolean, isOperand = false) => {
    const value = literalValue(sig[i], negative, isAssigned);
    if (value === undefined) return;
    values.push(value);
    assigned.push(isAssigned);
    decimal.push(sig[i].type === 'number' && typeof value === 'string');
    operand.push(isOperand);
    out[i] = { type: 'param', text: `$${values.length}` };
    if (negative) out[i - 1] = { type: 'space', text: '' };
  };
  const where = sig.findIndex((t) => isWord(t, 'WHERE'));
  if (first === 'INSERT') liftValuesRows(sig, lift);
  if (first === 'UPDATE') liftSetValues(sig, where < 0 ? sig.length : where, lift);
  if (where >= 0) liftComparisons(sig, where, lift);
  if (values.length === 0) return null;
  const kept = out.filter((t) => t.type !== 'space');
  return { key: joinTokens(kept), tokens: kept, values, assigned, decimal, operand };
}

type Lift = (i: number, negative: boolean, assigned: boolean, operand?: boolean) => void;

/** WHERE-clause literals compared with a column: `col = 5`, `col BETWEEN 'a' AND 'b'`. */
function liftComparisons(sig: PgToken[], where: number, lift: Lift) {
  /** Whether an operand ends before t: the end, a closing parenthesis, or a word that ends it. */
  const endsBefore = (t: PgToken | undefined) =>
    !t || isPunct(t, ')') || isPunct(t, ';') || (t.type === 'word' && ENDS.has(t.text.toUpperCase()));
  const literal = (t: PgToken | undefined) => t !== undefined && (t.type === 'number' || t.type === 'string');
  for (let i = where + 2; i < sig.length; i++) {
    if (!literal(sig[i])) continue;
    const op = sig[i - 1];
    const col = sig[i - 2];
    const next = sig[i + 1];
    if (op.type === 'op' && COMPARISONS.has(op.text) && isColumn(col) && endsBefore(next)) lift(i, false, false);
    else if (
      isWord(op, 'BETWEEN') &&
      isColumn(col) &&
      isWord(next, 'AND') &&
      literal(sig[i + 2]) &&
      endsBefore(sig[i + 3])
    ) {
      // both bounds, when the upper one is a plain literal too
      lift(i, false, false);
      lift(i + 2, false, false);
      i += 2;
    }
  }
}

/** Whole items of an INSERT's VALUES rows: `VALUES (7, 'x', -3), (8, 'y', 0)`. */
function liftValuesRows(sig: PgToken[], lift: Lift) {
  const v = sig.findIndex((t) => isWord(t, 'VALUES'));
  if (v < 0 || !isPunct(sig[v + 1], '(')) return;
  // a SELECT (or a WITH) before VALUES: not the rows of this INSERT
  if (sig.slice(0, v).some((t) => isWord(t, 'SELECT') || isWord(t, 'WITH'))) return;
  let depth = 0;
  for (let i = v + 1; i < sig.length; i++) {
    const t = sig[i];
    // (an element of ARRAY[...] is no item: 'b' of ARRAY['a', 'b', 'c'] lifted alone hid the array's type)
    if (isPunct(t, '(') || isPunct(t, '[')) depth++;
    else if (isPunct(t, ']')) depth--;
    else if (isPunct(t, ')')) {
      if (--depth === 0 && !isPunct(sig[i + 1], ',')) return; // the last row ended
    } else if (depth === 1 && (t.type === 'number' || t.type === 'string')) {
      const prev = sig[i - 1];
      const negative = isOp(prev, '-');
      const before = negative ? sig[i - 2] : prev;
      const next = sig[afterCast(sig, i)];
      if ((isPunct(before, '(') || isPunct(before, ',')) && (isPunct(next, ',') || isPunct(next, ')')))
        lift(i, negative, true);
    } else if (depth === 0 && !isPunct(t, ',')) return;
  }
}

/** Types a quoted literal may be cast to and still be lifted: `'2024-01-15T10:30:00'::timestamp`. */
const LIFTED_CASTS = new Set([
  'date',
  'timestamp',
  'timestamptz',
  'time',
  'interval',
  'uuid',
  'bytea',
  'json',
  'jsonb',
  'numeric',
  'float',
  'float4',
  'float8',
  'real',
]);

/**
 * The index after the literal at i and the cast that may follow it: psycopg2 writes a datetime as
 * `'2024-01-15T10:30:00'::timestamp`, a date, time, timedelta, bytes or NaN with their casts. The
 * string is lifted and the cast kept (`$1::timestamp`): the parameter takes the cast's type, as
 * PostgreSQL infers it, and the cast reads it as it read the literal. A cast with a type modifier
 * or an array type is not lifted.
 */
function afterCast(sig: PgToken[], i: number): number {
  const c = sig[i + 1];
  const type = sig[i + 2];
  if (sig[i].type !== 'string' || !isOp(c, '::') || type?.type !== 'word') return i + 1;
  return LIFTED_CASTS.has(type.text.toLowerCase()) ? i + 3 : i + 1;
}

/** Whole values of an UPDATE's SET list: `SET a = 'x', b = -2 WHERE ...`. */
function liftSetValues(sig: PgToken[], end: number, lift: Lift) {
  const set = sig.findIndex((t) => isWord(t, 'SET'));
  if (set < 0) return;
  let depth = 0;
  for (let i = set + 1; i < end; i++) {
    const t = sig[i];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0 && (t.type === 'number' || t.type === 'string')) {
      const prev = sig[i - 1];
      const negative = isOp(prev, '-');
      const eq = negative ? sig[i - 2] : prev;
      const col = negative ? sig[i - 3] : sig[i - 2];
      const before = negative ? sig[i - 4] : sig[i - 3];
      const next = sig[afterCast(sig, i)];
      const ends =
        !next ||
        isPunct(next, ',') ||
        isPunct(next, ';') ||
        (next.type === 'word' && SET_ENDS.has(next.text.toUpperCase()));
      // `col = 'x'` right after SET or a comma (not `a.b = ...`, not a row `(a, b) = ...`)
      if (isOp(eq, '=') && isColumn(col) && (isWord(before, 'SET') || isPunct(before, ',')) && ends)
        lift(i, negative, true);
      else if (ends && t.type === 'number' && /^\d+$/.test(t.text)) {
        // `col = col + 5`, `col = col - -5`: an integer operand of the assigned column itself
        const signed = negative && (isOp(sig[i - 2], '+') || isOp(sig[i - 2], '-'));
        const at = signed ? i - 2 : i - 1; // the + or -
        const op = sig[at];
        if (
          (isOp(op, '+') || isOp(op, '-')) &&
          sameColumn(sig[at - 1], sig[at - 3]) &&
          isOp(sig[at - 2], '=') &&
          (isWord(sig[at - 4], 'SET') || isPunct(sig[at - 4], ','))
        )
          lift(i, signed, false, true);
      }
    }
  }
}

/** Whether two tokens name the same column (a word in any case, a quoted name exactly). */
function sameColumn(a: PgToken | undefined, b: PgToken | undefined): boolean {
  if (!isColumn(a) || !isColumn(b) || a!.type !== b!.type) return false;
  return a!.type === 'quoted' ? a!.text === b!.text : a!.text.toLowerCase() === b!.text.toLowerCase();
}

/** The range of each integer type an operand is bound as (beyond it the statement runs as written). */
const INTEGER_RANGES: Record<number, bigint> = {
  [OID.int2]: 32767n,
  [OID.int4]: 2147483647n,
  [OID.int8]: 2n ** 63n - 1n,
};

const DATED = new Set<number>([OID.date, OID.time, OID.timestamp, OID.timestamptz, OID.bool]);
/** Types a decimal literal is assigned to as the same number. */
const DECIMALS = new Set<number>([OID.float4, OID.float8, OID.numeric]);
/** Types an integer literal is assigned to as the same number. */
const NUMBERS = new Set<number>([OID.int2, OID.int4, OID.int8, OID.oid, OID.float4, OID.float8, OID.numeric]);
const INTEGERS = new Set<number>([OID.int2, OID.int4, OID.int8, OID.oid]);
/** Types a string literal is assigned to as the same text. */
const TEXTS = new Set<number>([0, OID.text, OID.varchar, OID.bpchar, OID.name]);
/** Types PostgreSQL compares with no number. */
const NOT_BESIDE_NUMBERS = new Set<number>([
  OID.text,
  OID.varchar,
  OID.bpchar,
  OID.name,
  OID.date,
  OID.time,
  OID.timestamp,
  OID.timestamptz,
  OID.interval,
]);

/**
 * The lifted values as the analysis typed their parameters: a string compared with a boolean, date
 * or time column as that type stores it ('t' as 1) (`ts > '2024-01-15 10:30'` compares with '2024-01-15 10:30:00';
 * SQLite compares the text, where '2024-01-15 10:30:00' is the greater), as a bound parameter is; a
 * value assigned to a column read by its type as Bind reads a text parameter, failing as PostgreSQL
 * fails the literal ('maybe' for a boolean: 22P02). Null when an integer is assigned to a column of
 * another type (1 for a boolean), a decimal to one that is no float or numeric, or a conversion fails
 * otherwise: the statement then runs as written.
 */
export function typedLiterals(lifted: Lifted, types: readonly number[], zone: string | null = null): SqlValue[] | null {
  const out: SqlValue[] = [];
  for (let k = 0; k < lifted.values.length; k++) {
    const v = lifted.values[k];
    const type = types[k] ?? 0;
    if (v instanceof WideInteger) {
      // into an integer column it is out of range as PostgreSQL finds it; into a text column it is
      // its digits; into any other the statement runs as written
      if (INTEGERS.has(type)) throw new PatinaError('user', 'bigint out of range', undefined, '22003');
      if (!TEXTS.has(type)) return null;
      out.push(v.text);
    } else if (lifted.operand[k]) {
      // `col + n` with col an integer: n is the same integer bound; any other type (a timestamp reads
      // '5' as an interval, a numeric or float as another type) and the statement runs as written
      const max = INTEGER_RANGES[type];
      if (typeof v !== 'bigint' || max === undefined || v > max || v < -max - 1n) return null;
      out.push(v);
    } else if (!lifted.assigned[k]) {
      // compared with jsonb, a number (`doc = 1`: 42883, jsonb = integer) or a string that is no JSON
      // (`doc = 'x'`: 22P02 with its DETAIL and position) is the statement's error as written
      if (type === OID.jsonb && (typeof v !== 'string' || jsonInputError(v, true))) return null;
      // a number compared with text, a name, a date or a time (`name = 1`, `d = 5`) is 42883 as
      // written (operand-types.ts), where the bound value would be compared as the column's text
      if (typeof v === 'bigint' && NOT_BESIDE_NUMBERS.has(type)) return null;
      // an array compared in PostgreSQL's form, as the column keeps it (`tags = '{a, b}'` finds '{a,b}')
      // (and a string compared with an integer or a bytea read as one: `id = 'x'` is 22P02, and
      // `data = '\\x00ff'` the bytes, where SQLite compared the text; PHP's PDO with emulated
      // prepares quotes every bound value so; and one compared with a char(n) without its trailing
      // spaces, as the column keeps it and bpchar compares: `ch = 'ab  '` finds 'ab')
      const typed =
        typeof v === 'string' &&
        (DATED.has(type) || keptArray(type) || INTEGERS.has(type) || type === OID.bytea || type === OID.bpchar);
      if (!typed) out.push(v);
      // (an integer beyond int4's: as written, where an INTEGER column's is 22003 at the literal,
      // typed-operators.ts; the bigint it was bound as found no row)
      else if (INTEGERS.has(type) && beyondInt4(v)) return null;
      else {
        const read = literalAs(v, type, k, zone);
        if (read === undefined) return null;
        out.push(read);
      }
    } else if (lifted.decimal[k]) {
      // 1.50 into a float or numeric column, read as Bind reads '1.50'; into a text column its
      // numeric's text ('1.50', 1e3 as '1000'; SQLite's REAL made it '1.5'); an integer column
      // rounds it, and that runs as written
      const d = type !== 0 && TEXTS.has(type) ? parseDecimal(v as string) : null;
      if (d) out.push(decimalText(d));
      else if (DECIMALS.has(type)) out.push(paramValue(Buffer.from(v as string), type, 0, k));
      else return null;
    } else if (typeof v !== 'string') {
      if (!NUMBERS.has(type)) return null;
      out.push(v);
    } else if (TEXTS.has(type)) {
      out.push(v);
    } else {
      const read = literalAs(v, type, k, zone);
      if (read === undefined) return null;
      out.push(read);
    }
  }
  return out;
}

/** Whether a string is an integer beyond int4's range (`'99999999999'`). */
const beyondInt4 = (v: string) =>
  /^\s*[-+]?\d{10,}\s*$/.test(v) && (BigInt(v.trim()) > 2147483647n || BigInt(v.trim()) < -2147483648n);

/** Whether a type is an array kept in PostgreSQL's form (a literal of it is read as Bind reads it). */
const keptArray = (type: number) => {
  const elem = elementOidOf(type);
  return elem !== undefined && elementKindOf(elem) !== undefined;
};

/**
 * String literal `k` read as Bind reads a text parameter of `type`; undefined when that fails other
 * than as the literal's input (the statement then runs as written).
 */
function literalAs(v: string, type: number, k: number, zone: string | null): SqlValue | undefined {
  try {
    return paramValue(Buffer.from(v), type, 0, k, zone);
  } catch (err) {
    // the input error PostgreSQL gives the literal ('maybe' for a boolean: 22P02); an integer's is
    // the statement's as written (typed-operators.ts: at the literal, an INTEGER column's type
    // named integer, where Bind's named the bigint Patina stores and had no position)
    if (err instanceof PatinaError && err.sqlstate?.startsWith('22') && !INTEGERS.has(type)) throw err;
    return undefined;
  }
}
