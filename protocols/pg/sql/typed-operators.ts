// What PostgreSQL's parse tree tells that the tokens do not, marked on the statement's tokens for the
// translation (translate/typed-arithmetic.ts, translate/casts.ts):
// - operators whose meaning depends on their operands' types: date and time arithmetic (`date + 1`,
//   `date - date`, `timestamp - timestamp`, `interval * 2`, `x ± interval` either way round), `^`, `#`,
//   and the division of numerics. SQLite holds dates as text and would add 1 to the year
//   ('2024-01-31' + 1 = 2025), subtract text as numbers (0) and divide a NUMERIC holding a whole
//   number as an integer (2 / 4 = 0), silently;
// - `x AT TIME ZONE z` by the type of x; a boolean, float, date or timestamp made text by a cast,
//   `||`, concat or format, as PostgreSQL prints its type (`true`, not SQLite's 1; `-2`, not `-2.0`).
// A combination PostgreSQL has no operator for (`timestamp + integer`) is 42883 as there, and a set
// operation SQLite would group otherwise (`a UNION b INTERSECT c`) 0A000, at analysis, instead of
// another answer.
import { textSearchMark } from './text-search-operators';
import { parseTree } from './parse';
import type { Schema } from '../../../src/engine/schema/model';
import { pgError } from '../sqlstate';
import { OID, OTHER_TYPE_DISPLAY, TYPE_DISPLAY } from '../types/oids';
import { relationNames } from '../types/relation-names';
import { Typer, jsonbMinusLiteral, withParamTypes } from './expression-types';
import { type Ctes, type Scope, ctesOf, scopeOf, selectTypes } from './select-types';
import { arrayLiterals, checkArrayOperands, noElementConcat } from './array-operands';
import { arrayOperatorError } from './array-arithmetic';
import { byteaCallMark } from './bytea-values';
import { builderValueMark } from './json-builders';
import { markComparedLiterals } from './compared-literals';
import { tableColumn } from './text-columns';

export { tableColumn };
import {
  exactChoice,
  exactMarks,
  exactText,
  markExactColumns,
  markExactComparisons,
  ownScalesText,
} from './exact-columns';
import { isAggregateCall } from './grouping';
import { figuredName } from './column-names';
import { TEXT_FUNCTIONS, textKind } from './text-kinds';
import { COMPARISONS, KEYED_FUNCTIONS, NAN_MATH } from './typed-operators-hint';
import { FLOATS, strings, typeNameOid } from './type-signatures';
import { arrayOidOf, elementOidOf } from '../types/registry';
import { isDateUnit, isTruncUnit } from '../../../src/engine/dates';
import { lookup } from '../../../src/lookup';
import { markZonedAssignments } from './zoned-assignments';
import { markNumericElements } from './numeric-elements';
import { checkIntConstants, intArithmeticMark, intDivisionMark } from './int-overflow';
import { isGroupedOutput, markCharPadding, markChoicePadding, markSetOpPadding } from './char-padding';
import { markInstantChoices, markInstantSetColumns } from './instant-choices';
import { jsonInputError } from '../types/json-input';
import { checkWindowRefs, markFrameOffsets } from './window-frames';
import { noteWindowCalls } from './month-frames';
import { checkWindowDefault } from './literal-input';
import { markOrderedSetKey } from './ordered-set-keys';
import { markJsonbDistinctAggregate, markJsonbWindowKeys } from './jsonb-keys';
import { noFunctionFor } from './function-arguments';
import { declaredColumnType } from './cast-paths';
import { arrayFillError } from './array-fill';
import { rowInMark, rowKeyMark } from './row-keys';
import { windowedDistinctMark } from './windowed-distinct';
import {
  checkArrayOfText,
  checkCommonType,
  checkOperandTypes,
  checkSubqueryOperands,
  declaredNumber,
  numberLiterals,
  setOperationLiterals,
} from './operand-types';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const INTS = new Set<number>([OID.int2, OID.int4, OID.int8]);
export const NUMBERS = new Set<number>([OID.int2, OID.int4, OID.int8, OID.float4, OID.float8, OID.numeric]);
const INSTANTS = new Set<number>([OID.timestamp, OID.timestamptz]);
export const DATETIMES = new Set<number>([OID.date, OID.time, OID.timestamp, OID.timestamptz, OID.interval]);
const TEXT_TYPES = new Set<number>([OID.text, OID.varchar, OID.bpchar]);
/** The types jsonb casts to by its scalar's value, by the name PostgreSQL's errors give them. */
const JSONB_SCALARS: Record<number, string> = {
  [OID.int2]: 'smallint',
  [OID.int4]: 'integer',
  [OID.int8]: 'bigint',
  [OID.numeric]: 'numeric',
  [OID.float4]: 'real',
  [OID.float8]: 'double precision',
  [OID.bool]: 'boolean',
};
/** The integer types, by the name PostgreSQL's errors give them. */
const INT_NAMES: Record<number, string> = { [OID.int2]: 'smallint', [OID.int4]: 'integer', [OID.int8]: 'bigint' };

/** Whether a whole number fits an integer type, by its OID. */
const INT_RANGES: Record<number, (n: bigint) => boolean> = {
  [OID.int2]: (n) => n >= -32768n && n <= 32767n,
  [OID.int4]: (n) => n >= -2147483648n && n <= 2147483647n,
  [OID.int8]: (n) => n >= -9223372036854775808n && n <= 9223372036854775807n,
};

/**
 * An untyped string literal compared with a number, read as PostgreSQL reads it there: the number's
 * text (`count(*) > '5'` compares with 5), or 22P02 when it is none.
 */
export function literalAsNumber(text: string, type: number): string {
  const t = text.trim();
  // numeric's NaN, which the PG front end stores as the text NaN
  // (and a double's)
  if ((type === OID.numeric || FLOATS.has(type)) && /^nan$/i.test(t)) return "'NaN'";
  // an infinity of numeric or a double: SQLite's REAL infinity, which a literal 9e999 is
  const inf = /^([+-]?)inf(inity)?$/i.exec(t);
  if (inf && (type === OID.numeric || type === OID.float8 || type === OID.float4))
    return inf[1] === '-' ? '-9e999' : '9e999';
  const integer = INTS.has(type);
  const ok = integer ? /^[+-]?\d+$/.test(t) : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t);
  if (!ok) throw pgError('22P02', `invalid input syntax for type ${PG_NAMES[type] ?? 'numeric'}: "${text}"`);
  // (an integer's range checked as its input function checks it: '9223372036854775807' beside an int4)
  if (integer && !INT_RANGES[type](BigInt(t)))
    throw pgError('22003', `value "${text}" is out of range for type ${PG_NAMES[type]}`);
  return t.replace(/^\+/, '');
}

/**
 * Of date_part(unit, x) or date_trunc(unit, x) whose unit is a string no date or time type takes
 * ('abc'): the type PostgreSQL's 22023 names, that of x as the call reads it (date_part reads a date
 * as a timestamp, date_trunc as a timestamptz). Undefined for any other call.
 */
function badUnitType(f: Node, typer: Typer): string | undefined {
  const name = f?.args?.length === 2 ? strings(f.funcname).pop()?.toLowerCase() : undefined;
  const unit = f?.args?.[0]?.A_Const?.sval?.sval;
  const known = name === 'date_part' ? isDateUnit : name === 'date_trunc' ? isTruncUnit : undefined;
  if (!known || typeof unit !== 'string' || known(unit)) return undefined;
  const t = typer.type(f.args[1]);
  if (t === OID.date) return name === 'date_part' ? PG_NAMES[OID.timestamp] : PG_NAMES[OID.timestamptz];
  return t === OID.timestamp || t === OID.timestamptz || t === OID.interval || (t === OID.time && name === 'date_part')
    ? PG_NAMES[t]
    : undefined;
}

/** Whether a string is numeric's or a double's infinity ('Infinity', '-inf', ...). */
const isInfinityText = (s: string) => /^\s*[+-]?inf(inity)?\s*$/i.test(s);

/** The prefix operators that are SQLite functions (translate/typed-arithmetic.ts calls them). */
const PREFIX_CALLS: Record<string, string> = lookup({
  '@': 'abs',
  '|/': 'sqrt',
  '||/': 'cbrt',
  // tsquery's negation (src/engine/pg-text-search-functions.ts)
  '!!': '__pg_tsquery_not',
});
/**
 * The left operand's type of an integer shift (`a << b`, `a >> b`), 0 when it is none: integers on
 * both sides, or a string literal read as an integer beside one (the count is an integer; a literal
 * shifted by an integer is one too, PostgreSQL's integer << integer).
 */
function shiftLeftType(typer: Typer, e: Node): number {
  const lit = (n: Node) => n?.A_Const?.sval !== undefined;
  const [l, r] = [typer.type(e.lexpr), typer.type(e.rexpr)];
  if (INTS.has(l) && (INTS.has(r) || lit(e.rexpr))) return l;
  return lit(e.lexpr) && r === OID.int4 ? OID.int4 : 0;
}

/** String literals read as jsonb: PostgreSQL's 22P02 (its wording and DETAIL, at the literal) for one that is no JSON. */
function checkJsonbLiterals(xs: Node[]): void {
  for (const x of xs) {
    const text = x?.A_Const?.sval?.sval;
    const bad = text === undefined ? null : jsonInputError(text, true);
    if (bad) throw placed(() => bad, x.A_Const.location);
  }
}

/** Whether `a < b` (or `a = b`) compares jsonb: one side jsonb, the other jsonb or read as it (an untyped literal or parameter). */
function ordersJsonb(typer: Typer, a: Node, b: Node, declared: number[]): boolean {
  const [l, r] = [typer.type(a), typer.type(b)];
  return (l === OID.jsonb && (r === OID.jsonb || untyped(b, declared))) || (r === OID.jsonb && untyped(a, declared));
}

/** text_pattern_ops' operators, as the comparison each makes of the bytes (SQLite's BINARY collation). */
const PATTERN_COMPARISONS: Record<string, string> = lookup({ '~<~': '<', '~<=~': '<=', '~>~': '>', '~>=~': '>=' });
/** An integer type's width, which PostgreSQL's shifts take the count modulo (int2's is promoted to int's). */
const INT_BITS: Record<number, string> = { [OID.int2]: '16', [OID.int4]: '32', [OID.int8]: '64' };

const PG_NAMES: Record<number, string> = {
  [OID.date]: 'date',
  [OID.time]: 'time without time zone',
  [OID.timestamp]: 'timestamp without time zone',
  [OID.timestamptz]: 'timestamp with time zone',
  [OID.interval]: 'interval',
  [OID.int2]: 'smallint',
  [OID.int4]: 'integer',
  [OID.int8]: 'bigint',
  [OID.numeric]: 'numeric',
  [OID.float4]: 'real',
  [OID.float8]: 'double precision',
  [OID.text]: 'text',
  [OID.bool]: 'boolean',
};

/**
 * The type PostgreSQL's operator resolution gives an operand of unknown type (an untyped string
 * literal or parameter) beside a date or time of type `known`, `side` the unknown one's: the other
 * type itself where an operator takes it on both sides (`$1 - now()`, `interval '1 day' - $1`), an
 * interval added to a time or timestamp (`$1 + interval '1 day'` is interval + interval), a double
 * scaling an interval (`interval * $1`, `interval / $1`); 0 where it has no operator (`date * $1`,
 * 42883) and -1 where it has several (`date + $1`, 42725: an integer, an interval or a time).
 */
export function unknownDateOperand(op: string, known: number, side: 'l' | 'r'): number {
  if (!DATETIMES.has(known)) return 0;
  if (op === '+') return known === OID.date ? -1 : OID.interval;
  if (op === '-') return known;
  // (a time multiplies as the interval it casts to)
  if (op === '*' || (op === '/' && side === 'r')) return known === OID.interval || known === OID.time ? OID.float8 : 0;
  return 0;
}

const JSON_TYPES = new Set<number>([OID.json, OID.jsonb]);
/** Types no comparison of PostgreSQL's takes beside jsonb (numbers, text, boolean): a typed value, not an untyped literal. */
const NOT_BESIDE_JSONB = new Set<number>([...NUMBERS, OID.text, OID.varchar, OID.bpchar, OID.bool]);

/** An operand's type, 0 for an untyped string literal or parameter (read as the other side's type). */
function typedOf(n: Node, typer: Typer, declared: number[]): number {
  return untyped(n, declared) ? 0 : typer.type(n);
}

/**
 * `x BETWEEN a AND b` where a date stands beside a timestamp or timestamptz: 'date-between:' and, for
 * x, a and b, what each is cast to in its comparisons ('-' nothing, 's' timestamp, 'z' timestamptz,
 * x's two as 'x1x2'); null when no comparison mixes them.
 */
function dateBetweenKind(e: Node, typer: Typer, declared: number[]): string | null {
  const [low, high] = e.rexpr?.List?.items ?? [];
  if (!low || !high) return null;
  const [x, a, b] = [e.lexpr, low, high].map((v) => typedOf(v, typer, declared));
  const code = (from: number, beside: number) =>
    from === OID.date && INSTANTS.has(beside) ? (beside === OID.timestamp ? 's' : 'z') : '-';
  const kind = `${code(x, a)}${code(x, b)}:${code(a, x)}:${code(b, x)}`;
  return /[sz]/.test(kind) ? `date-between:${kind}` : null;
}

/** Whether one side is a date and the other a timestamp or timestamptz (both typed). */
function dateBesideInstant(l: number, r: number): boolean {
  return (l === OID.date && INSTANTS.has(r)) || (r === OID.date && INSTANTS.has(l));
}

/** Whether one side is jsonb and the other a typed value no jsonb comparison takes (`j = 1`, `j IN (1, 2)`). */
function jsonbBesideOther(l: number, r: number): boolean {
  return (l === OID.jsonb && NOT_BESIDE_JSONB.has(r)) || (r === OID.jsonb && NOT_BESIDE_JSONB.has(l));
}

/** A type's name in PostgreSQL's messages (`timestamp without time zone`), `unknown` for -1 or 0. */
export function pgTypeName(t: number): string {
  return PG_NAMES[t] ?? TYPE_DISPLAY[t] ?? 'unknown';
}

/** PostgreSQL's 42883 for an operator of these operand types, with its HINT (`unknown` for -1 or 0). */
export function noOperator(l: number, op: string, r: number): Error {
  const name = pgTypeName;
  const err = pgError('42883', `operator does not exist: ${name(l)} ${op} ${name(r)}`);
  err.hint = 'No operator matches the given name and argument types. You might need to add explicit type casts.';
  return err;
}

/** time with time zone's OID (types/timetz.ts). */
const TIMETZ = 1266;

/**
 * The kind of a date or time operator (a name dates.ts's __pg_date_arith knows), its result type,
 * or null when no operand is a date or time. `unknown` marks an untyped string literal or parameter
 * operand, which takes the type PostgreSQL's operator resolution gives it (unknownDateOperand).
 * Integers of any width count (PostgreSQL wants int4 for `date + n`, but the schema's integer
 * columns are int8).
 */
export function dateOperator(
  l: number,
  op: string,
  r: number,
  unknown: 'l' | 'r' | null = null,
): { kind: string; oid: number } | null {
  // (a timetz is its text here, which the date arithmetic does not read: 22007 for its input)
  if ((l === TIMETZ || r === TIMETZ) && (op === '+' || op === '-'))
    throw pgError('0A000', 'arithmetic on time with time zone is not supported: cast it to time first');
  if (
    unknown === 'l' ? !DATETIMES.has(r) : unknown === 'r' ? !DATETIMES.has(l) : !DATETIMES.has(l) && !DATETIMES.has(r)
  )
    return null;
  if (unknown === null && (l === 0 || r === 0)) return null; // an operand of unknown type: SQLite decides, as before
  const resolved = unknown ? unknownDateOperand(op, unknown === 'l' ? r : l, unknown) : 0;
  if (resolved === -1) {
    const err = pgError(
      '42725',
      `operator is not unique: ${unknown === 'l' ? 'unknown' : PG_NAMES[l]} ${op} ${unknown === 'r' ? 'unknown' : PG_NAMES[r]}`,
    );
    err.hint = 'Could not choose a best candidate operator. You might need to add explicit type casts.';
    throw err;
  }
  const lt = unknown === 'l' ? resolved : l;
  const rt = unknown === 'r' ? resolved : r;
  const found = knownDateOperator(lt, op, rt);
  if (found) return found;
  throw noOperator(unknown === 'l' ? 0 : lt, op, unknown === 'r' ? 0 : rt);
}

/** dateOperator of two known types: its kind and result, or null for none in PostgreSQL. */
function knownDateOperator(lt: number, op: string, rt: number): { kind: string; oid: number } | null {
  const date = OID.date;
  const iv = OID.interval;
  const instant = (x: number) => INSTANTS.has(x);
  // a time beside a timestamp (`ts + time '01:00'`, `ts - t`), or taken from a date, is the
  // interval it casts to implicitly: PostgreSQL has no such operator of a time, but one of an interval
  if ((op === '+' || op === '-') && rt === OID.time && (instant(lt) || (op === '-' && lt === date))) rt = iv;
  if (op === '+' && lt === OID.time && instant(rt)) lt = iv;
  if (op === '+') {
    if (lt === date && INTS.has(rt)) return { kind: 'date+int', oid: date };
    if (INTS.has(lt) && rt === date) return { kind: 'int+date', oid: date };
    if (lt === date && rt === OID.time) return { kind: 'date+time', oid: OID.timestamp };
    if (lt === OID.time && rt === date) return { kind: 'time+date', oid: OID.timestamp };
    // (a timestamptz's kinds are its own: in a session zone other than UTC a day is the zone's)
    if (instant(lt) && rt === iv) return { kind: lt === OID.timestamptz ? 'tstz+iv' : 'ts+iv', oid: lt };
    if (lt === iv && instant(rt)) return { kind: rt === OID.timestamptz ? 'iv+tstz' : 'iv+ts', oid: rt };
    if (lt === date && rt === iv) return { kind: 'date+iv', oid: OID.timestamp };
    if (lt === iv && rt === date) return { kind: 'iv+date', oid: OID.timestamp };
    if (lt === OID.time && rt === iv) return { kind: 'time+iv', oid: OID.time };
    if (lt === iv && rt === OID.time) return { kind: 'iv+time', oid: OID.time };
    if (lt === iv && rt === iv) return { kind: 'iv+iv', oid: iv };
  } else if (op === '-') {
    if (lt === date && INTS.has(rt)) return { kind: 'date-int', oid: date };
    if (lt === date && rt === date) return { kind: 'date-date', oid: OID.int4 };
    if (instant(lt) && rt === iv) return { kind: lt === OID.timestamptz ? 'tstz-iv' : 'ts-iv', oid: lt };
    if ((lt === date || instant(lt)) && (instant(rt) || rt === date)) return { kind: 'ts-ts', oid: iv };
    if (lt === date && rt === iv) return { kind: 'date-iv', oid: OID.timestamp };
    if (lt === OID.time && rt === iv) return { kind: 'time-iv', oid: OID.time };
    if (lt === OID.time && rt === OID.time) return { kind: 'time-time', oid: iv };
    if (lt === iv && rt === iv) return { kind: 'iv-iv', oid: iv };
  } else if (op === '*') {
    // (a time scales as the interval it casts to implicitly: time '10:00' * 2 is 20:00:00)
    if ((lt === iv || lt === OID.time) && NUMBERS.has(rt)) return { kind: 'iv*num', oid: iv };
    if (NUMBERS.has(lt) && (rt === iv || rt === OID.time)) return { kind: 'num*iv', oid: iv };
  } else if (op === '/') {
    if ((lt === iv || lt === OID.time) && NUMBERS.has(rt)) return { kind: 'iv/num', oid: iv };
  }
  return null;
}

/**
 * What `f` answers; its error placed at `location` (a byte offset in the statement's text, which
 * analyze.ts makes PostgreSQL's position in the text as written), as PostgreSQL places an
 * operator's 42883 and 42725 at the operator.
 */
function placed<T>(f: () => T | Error, location: number): T {
  let out: T | Error;
  try {
    out = f();
  } catch (err) {
    out = err as Error;
  }
  if (!(out instanceof Error)) return out;
  (out as { location?: number }).location ??= location;
  throw out;
}

/**
 * The operators to rewrite in one statement, by the byte offset of the operator in `sql`: a date
 * operator's kind, or `pow` for `^`. Null when the text does not parse (SQLite then reports it).
 * Throws 42883 for a date or time combination PostgreSQL has no operator for.
 */
export function typedOperators(sql: string, schema: Schema, declared: number[] = []): Map<number, string> | null {
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return null;
  }
  const out = new Map<number, string>();
  const late = new Map<number, string>();
  // (the typer reads a parameter by its type: declared, or given by param-tree-types.ts)
  withParamTypes(declared, () => marksOf(tree, schema, declared, out, late));
  for (const [at, kind] of late) out.set(at, kind);
  return out;
}

function marksOf(tree: Node, schema: Schema, declared: number[], out: Map<number, string>, late: Map<number, string>) {
  for (const s of tree.stmts ?? []) {
    // (int4 and int2 arithmetic of constants past its range: 22003 as PostgreSQL folds it, int-overflow.ts)
    const literals = new Typer(schema, new Map());
    checkIntConstants(s.stmt, (x) => literals.type(x));
    walk(s.stmt, new Typer(schema, new Map()), out, declared, late);
    const select = s.stmt?.SelectStmt;
    if (select) {
      // (a subquery the statement passes on is typed with the statement's WITH queries)
      const ctes = ctesOf(select.withClause, schema);
      const typerOf = (q: Node) => withSources(new Typer(schema, new Map()), q.fromClause ?? [], ctes);
      markExactColumns(select, typerOf, out, declared);
      // a result column that is json's -> or #>: the value's text as written (markJsonGets)
      if (!select.op || select.op === 'SETOP_NONE')
        for (const [k, item] of (select.targetList ?? []).entries()) {
          markJsonGets(item.ResTarget?.val, typerOf(select), out);
          // (coalesce(ch, 'z'): ch padded; grouped by, 'z' too)
          markChoicePadding(item.ResTarget?.val, typerOf(select), out, isGroupedOutput(select, k));
        }
      else markSetOpPadding(select, typerOf, out); // (SELECT ch ... UNION SELECT 'zz': ch padded)
    }
  }
}

const JSON_GETS = new Set(['->', '->>', '#>', '#>>']);

/**
 * json's (not jsonb's) ->, ->>, #> and #>> whose value is text where it goes (a result column, ->>
 * and #>>, and the json reads they are of: `doc -> 'a' ->> 'b'`), marked 'json-get': their value's
 * text as written, as PostgreSQL slices it (src/engine/pg-json-get.ts; SQLite's -> compacts it).
 * Elsewhere (a builder's value) SQLite's document stays, which its JSON functions embed.
 */
function markJsonGets(n: Node, typer: Typer, out: Map<number, string>): void {
  const ats: number[] = [];
  let e = n?.A_Expr;
  for (; e; e = e.lexpr?.A_Expr) {
    const op = e.kind === 'AEXPR_OP' && e.lexpr && e.rexpr ? strings(e.name).pop() : undefined;
    if (!op || !JSON_GETS.has(op) || typer.type(e.lexpr) !== OID.json) return;
    ats.push(e.location);
    if (!e.lexpr.A_Expr) break;
  }
  // (only of json as stored or sent: a table's column, a cast of a literal, a parameter or a column;
  // a builder's document is SQLite's, whose text these would print compacted)
  let base = e?.lexpr;
  while (base?.TypeCast) base = base.TypeCast.arg;
  const stored = base?.ParamRef || base?.A_Const?.sval || (base?.ColumnRef && isTableColumn(base.ColumnRef, typer));
  if (stored) for (const at of ats) out.set(at, 'json-get');
}

/** Whether a column reference names a column of a table of the schema (not of a subquery). */
export function isTableColumn(ref: Node, typer: Typer): boolean {
  return tableColumn(ref, typer) !== undefined;
}

export function withSources(typer: Typer, sources: Node[], ctes?: Ctes): Typer {
  const scope: Scope = new Map(typer.scope);
  scopeOf(sources, scope, typer.schema, ctes);
  return new Typer(typer.schema, scope);
}

/** `x AT TIME ZONE z`, which the parser makes pg_catalog.timezone(z, x). */
function isAtTimeZone(f: Node): boolean {
  const names = f?.funcname;
  return (
    f?.funcformat === 'COERCE_SQL_SYNTAX' &&
    names?.[names.length - 1]?.String?.sval === 'timezone' &&
    f.args?.length === 2
  );
}

/** Whether `+`, `-` or `*` of these operand types is numeric's (one numeric, the other a numeric, an integer or untyped). */
function numericArithmetic(l: number, r: number): boolean {
  const fits = (t: number) => t === OID.numeric || INTS.has(t) || t === 0;
  return (l === OID.numeric || r === OID.numeric) && fits(l) && fits(r);
}

/**
 * Whether `+`, `-`, `*` or `/` of these operand types is a double's (one float4 or float8, the other a
 * number or untyped): its NaN is the text NaN too, which SQLite's operators read as 0, and a NaN
 * result (Infinity - Infinity, 0 * Infinity, Infinity / Infinity) SQLite makes NULL.
 */
function floatArithmetic(l: number, r: number): boolean {
  const fits = (t: number) => NUMBERS.has(t) || t === 0;
  return (FLOATS.has(l) || FLOATS.has(r)) && fits(l) && fits(r);
}

/**
 * Whether `+`, `-`, `*` or `/` has a string literal beside a numeric or a double (`f * 'Infinity'`,
 * `n + 'NaN'`): PostgreSQL reads the literal as that type.
 */
function untypedNumberOperand(e: Node, unknown: 'l' | 'r' | null, l: number, r: number): boolean {
  const literal = unknown === 'l' ? e.lexpr : unknown === 'r' ? e.rexpr : undefined;
  const other = unknown === 'l' ? r : l;
  return literal?.A_Const?.sval !== undefined && (other === OID.numeric || FLOATS.has(other));
}

/** The integer types PostgreSQL casts to integer implicitly (json's -> takes an int4 index). */
const INT4_NAMES = /^(int|integer|int4|smallint|int2)$/i;

/**
 * Of an operator whose left operand is an untyped string literal, PostgreSQL's error where its
 * operator resolution finds several candidates or none (parse_oper.c's oper_select_candidate):
 * json's and jsonb's ->, ->>, #> and #>> each take the literal (`'{"a":1}' -> 'a'`, `'[1]' -> 0`:
 * 42725), as do the containment operators of jsonb, arrays and ranges beside another untyped
 * literal, and arithmetic's of every number type (`'5' - '3'`); `->` of another type of index
 * (`'[1]' -> 1.5`) has none, 42883. Nothing where one operator is found (`'{"a":1}' ? 'a'` is
 * jsonb's, `'[1]' @> j` that of j's type, `'1' + n` n's).
 */
function untypedLeftOperand(op: string, right: Node, typer: Typer): void {
  const unknown = right?.A_Const?.sval !== undefined;
  const r = unknown ? 0 : typer.type(right);
  let name = unknown ? 'unknown' : (PG_NAMES[r] ?? TYPE_DISPLAY[r]);
  // (a column declared INTEGER is int8 here, an integer in PostgreSQL)
  const declared = right?.ColumnRef ? tableColumn(right.ColumnRef, typer)?.type.trim() : undefined;
  if (r === OID.int8 && declared && INT4_NAMES.test(declared))
    name = /^(smallint|int2)$/i.test(declared) ? 'smallint' : 'integer';
  let several = false;
  if (op === '->' || op === '->>') {
    if (!unknown && (r === 0 || !name)) return;
    several =
      unknown || r === OID.int2 || r === OID.int4 || name === 'integer' || name === 'smallint' || TEXT_TYPES.has(r);
    if (!several) throw noOperator(0, op, r);
  } else if (op === '#>' || op === '#>>') several = unknown || r === arrayOidOf(OID.text);
  else if (op === '@>' || op === '<@' || op === '&&' || ['+', '-', '*', '/'].includes(op)) several = unknown;
  if (!several) return;
  const err = pgError('42725', `operator is not unique: unknown ${op} ${name}`);
  err.hint = 'Could not choose a best candidate operator. You might need to add explicit type casts.';
  throw err;
}

/** An operand's type, an INTEGER[] column's named integer[] there, as PostgreSQL declares it. */
const typeOfOperand = (x: Node, typer: Typer): number => (x.ColumnRef ? declaredColumnType(x, typer) : typer.type(x));

/** An operand's type as PostgreSQL's 42883 names it: a string literal's is `unknown`. */
const operandName = (n: Node, type: number): string =>
  n?.A_Const?.sval !== undefined ? 'unknown' : (PG_NAMES[type] ?? 'unknown');

/**
 * How each of `args` is made text where PostgreSQL prints it with its type's output function
 * (concat's arguments, a record's fields): a textKind, `boolout` for a boolean's t/f when
 * `boolOut` (a cast to text says true/false), `-` for a value that is its own text.
 */
function outputKinds(
  args: Node[],
  typer: Typer,
  declared: number[],
  late: Map<number, string>,
  boolOut: boolean,
): string[] {
  return args.map((a) => {
    const kind = exactText(a, typer, declared, late) ? null : textKind(typer, a);
    return kind === 'bool' && boolOut ? 'boolout' : (kind ?? '-');
  });
}

/** Whether an operand of numeric (or double) arithmetic may be NaN: never (a number, an integer), a column or parameter, or an expression. */
function nanOperand(n: Node, type: number): 'never' | 'ref' | 'expr' {
  if (type !== OID.numeric && !FLOATS.has(type) && type !== 0) return 'never';
  if (n.A_Const && !n.A_Const.sval) return 'never';
  return n.ColumnRef || n.ParamRef ? 'ref' : 'expr';
}

/** 'numeric' or 'boolean' for an array of those (compared by the elements' values, not their text), else null. */
function keyedKind(...types: number[]): 'numeric' | 'boolean' | null {
  for (const t of types) {
    const e = elementOidOf(t);
    if (e === OID.numeric) return 'numeric';
    if (e === OID.bool) return 'boolean';
  }
  return null;
}

/**
 * keyedKind's kinds, and 'jsonb' for jsonb: what GROUP BY, DISTINCT, a UNION and IN (SELECT ...)
 * tell apart by a key of the value (jsonb's is __pg_jsonb_sortkey, one for `1.50` and `1.5`), not by
 * its stored text.
 */
const groupedKind = (...types: number[]): 'numeric' | 'boolean' | 'jsonb' | null =>
  keyedKind(...types) ?? (types.includes(OID.jsonb) ? 'jsonb' : null);

/**
 * 'numeric' for an array of numbers of any type, 'boolean' for one of booleans, 'text' for one of
 * text: arrays ordered by their elements (`<`, ORDER BY), which their text does not ('{10}' <
 * '{9}', '{}' after '{a}'); 'timetz' for a timetz, ordered by its instant in UTC and then its
 * offset (`'10:00+02' < '08:00+00'`), which its text is not either; else null.
 */
function orderedKind(...types: number[]): 'numeric' | 'boolean' | 'text' | 'timetz' | null {
  for (const t of types) {
    if (t === TIMETZ) return 'timetz';
    const e = elementOidOf(t);
    if (e !== undefined && NUMBERS.has(e)) return 'numeric';
    if (e === OID.bool) return 'boolean';
    if (e !== undefined && TEXT_TYPES.has(e)) return 'text';
  }
  return null;
}

/**
 * jsonb compared with ANY or ALL of a jsonb array (or an untyped literal or parameter, which
 * PostgreSQL reads as one): `= ANY` and `<> ALL` 'arr-in:jsonb', keyed as an IN (translate/arrays.ts),
 * another comparison 'jb-quant', each element compared by its key; null for another operator. An
 * array of another element type is PostgreSQL's 42883 `jsonb = text` at the operator (SQLite
 * compared the stored text).
 */
function jsonbAnyMark(e: Node, typer: Typer, declared: number[]): string | null {
  const op = strings(e.name).pop() ?? '';
  if (!/^(?:[<>]=?|=|<>|!=)$/.test(op)) return null;
  const element = elementOidOf(typer.type(e.rexpr));
  if (element !== undefined && element !== OID.jsonb)
    throw placed(() => noOperator(OID.jsonb, op === '!=' ? '<>' : op, element), e.location);
  if (element !== OID.jsonb && !untyped(e.rexpr, declared)) return null;
  const inList = e.kind === 'AEXPR_OP_ANY' ? op === '=' : op === '<>' || op === '!=';
  return inList ? 'arr-in:jsonb' : 'jb-quant';
}

/** Whether one type is a date or timestamp and the other an interval (no comparison of them in PostgreSQL). */
function instantAndInterval(l: number, r: number): boolean {
  const instant = (t: number) => t === OID.date || INSTANTS.has(t);
  return (instant(l) && r === OID.interval) || (l === OID.interval && instant(r));
}

/** Whether an operand is untyped: a string literal, or a parameter the client sent no type for. */
export function untyped(n: Node, declared: number[] = []): boolean {
  return n?.A_Const?.sval !== undefined || (n?.ParamRef !== undefined && !declared[n.ParamRef.number - 1]);
}

/** Whether an operand is a parameter the client sent no type for. */
function untypedParam(n: Node, declared: number[]): boolean {
  return n?.ParamRef !== undefined && !declared[n.ParamRef.number - 1];
}

/** Whether a comparison's operands are intervals (one may be an untyped literal or parameter). */
function comparesIntervals(typer: Typer, l: Node, r: Node, declared: number[]): boolean {
  const lt = untyped(l, declared) ? -1 : typer.type(l);
  const rt = untyped(r, declared) ? -1 : typer.type(r);
  return (lt === OID.interval && (rt === OID.interval || rt === -1)) || (rt === OID.interval && lt === -1);
}

/**
 * ORDER BY terms that are intervals, marked at their first token ('iv-order'): translate/null-order.ts
 * sorts them by their length; a term by position (ORDER BY 2) names its select item ('iv-order:name').
 */
function markIntervalOrder(select: Node, typer: Typer, out: Map<number, string>): void {
  // (jsonb too, 'arr-order:jsonb': in jsonb's order, numbers by value, which its stored text is not)
  const sorted = (t: number) => (t === OID.jsonb ? 'jsonb' : orderedKind(t));
  // (a set operation's ORDER BY names its columns only, which SQLite would not sort by an expression of)
  if (select.op && select.op !== 'SETOP_NONE') return;
  for (const s of select.sortClause ?? []) {
    const e = s.SortBy?.node;
    const position = e?.A_Const?.ival ? e.A_Const.ival.ival : undefined;
    if (position !== undefined) {
      // ORDER BY 2: by the select item's name (SQLite reads an alias inside an ORDER BY expression)
      const item = select.targetList?.[position - 1]?.ResTarget;
      const fields = item?.val?.ColumnRef?.fields;
      const name = item?.name ?? (fields ? strings(fields).pop() : undefined);
      // (a jsonb column aliased with a name a table's column has: by the column it reads, not the name)
      const shadowed = jsonbShadowed(item?.name, item?.val, typer);
      if (shadowed) out.set(orderMarkKey(e.A_Const.location), shadowed);
      else if (name && typer.type(item.val) === OID.interval)
        out.set(orderMarkKey(e.A_Const.location), `iv-order:${name}`);
      else if (name && sorted(typer.type(item.val)))
        out.set(orderMarkKey(e.A_Const.location), `arr-order:${sorted(typer.type(item.val))}:${name}`);
      continue;
    }
    if (!e || e.A_Const) continue;
    // ORDER BY a name: the select item of that name first, as PostgreSQL looks (`data AS d ...
    // ORDER BY d` sorts as data's type; `data::text ... ORDER BY data` as text); a name that is also
    // a table's column is left alone, as SQLite would read that column inside the key's call
    const item = namedItem(select, e);
    const shadowed = item && item !== e ? jsonbShadowed(strings(e.ColumnRef.fields)[0], item, typer) : null;
    if (shadowed) {
      const at = firstLocation(e);
      if (at >= 0) out.set(orderMarkKey(at), shadowed);
      continue;
    }
    if (item && item !== e && isTableColumn(e.ColumnRef, typer)) continue;
    const type = typer.type(item ?? e);
    if (type === OID.interval) {
      const at = firstLocation(e);
      if (at >= 0) out.set(orderMarkKey(at), 'iv-order');
    } else if (sorted(type)) {
      // arrays of numbers and booleans by their elements' values ('{9}' before '{10}')
      const at = firstLocation(e);
      if (at >= 0) out.set(orderMarkKey(at), `arr-order:${sorted(type)}`);
    }
  }
}

/**
 * A jsonb column reference a select item aliases with the name of a table's column (`data AS id`):
 * 'arr-order:jsonb:=' and the reference's names (JSON), for translate/null-order.ts to sort by that
 * column, since SQLite reads the name inside the key's call as the table's column; else null.
 */
function jsonbShadowed(alias: string | undefined, val: Node, typer: Typer): string | null {
  if (!alias || !val?.ColumnRef || typer.type(val) !== OID.jsonb) return null;
  if (!isTableColumn({ fields: [{ String: { sval: alias } }] }, typer)) return null;
  const fields = strings(val.ColumnRef.fields);
  return fields.length === val.ColumnRef.fields.length ? `arr-order:jsonb:=${JSON.stringify(fields)}` : null;
}

/**
 * The expression of the one select item an ORDER BY term of a bare name names (its alias, or the
 * name PostgreSQL figures for it: `data::text` is data), else undefined.
 */
/**
 * json (not jsonb) has no ordering or equality operator in PostgreSQL: sorted (`ORDER BY doc`, by
 * position or alias too), grouped, DISTINCT or deduplicated by a set operation it is 42883 `could not
 * identify an ordering (equality) operator for type json` at the term; SQLite went by the stored text.
 */
function checkJsonOrdering(select: Node, typer: Typer): void {
  const itemAt = (e: Node): Node => {
    const position = e?.A_Const?.ival ? e.A_Const.ival.ival : undefined;
    if (position !== undefined) return select.targetList?.[position - 1]?.ResTarget?.val ?? e;
    return namedItem(select, e) ?? e;
  };
  const refuse = (operator: string, at: Node) =>
    placed(() => {
      const err = pgError('42883', `could not identify an ${operator} operator for type json`);
      if (operator === 'ordering') err.hint = 'Use an explicit ordering operator or modify the query.';
      return err;
    }, firstLocation(at));
  const setOp = select.op && select.op !== 'SETOP_NONE';
  if (!setOp)
    for (const s of select.sortClause ?? []) {
      const e = s.SortBy?.node;
      if (e && !s.SortBy.useOp && typer.type(itemAt(e)) === OID.json) refuse('ordering', e);
    }
  for (const g of select.groupClause ?? [])
    if (!g.GroupingSet && typer.type(itemAt(g)) === OID.json) refuse('equality', g);
  if (setOp && !select.all) {
    // (a UNION, INTERSECT or EXCEPT deduplicates: its leftmost query's items name the columns)
    let left = select;
    while (left.op && left.op !== 'SETOP_NONE' && left.larg) left = left.larg;
    const t = withSources(typer, left.fromClause ?? [], ctesOf(left.withClause, typer.schema));
    for (const item of left.targetList ?? [])
      if (item.ResTarget?.val && t.type(item.ResTarget.val) === OID.json) refuse('equality', item.ResTarget.val);
  }
  const distinct =
    select.distinctClause?.length > 0 && select.distinctClause.every((d: Node) => Object.keys(d).length === 0);
  if (distinct)
    for (const t of select.targetList ?? [])
      if (t.ResTarget?.val && typer.type(t.ResTarget.val) === OID.json) refuse('equality', t.ResTarget.val);
}

function namedItem(select: Node, e: Node): Node | undefined {
  const fields = e.ColumnRef?.fields;
  if (fields?.length !== 1 || !fields[0].String) return undefined;
  const name = fields[0].String.sval;
  const items = (select.targetList ?? [])
    .map((x: Node) => x.ResTarget)
    .filter((r: Node) => r?.val && (r.name ?? figuredName(r.val)) === name);
  if (items.length !== 1) return undefined;
  // (the item that is the column itself is the term)
  const val = items[0].val;
  return val.ColumnRef?.fields?.length === 1 && val.ColumnRef.fields[0].String?.sval === name ? e : val;
}

/**
 * GROUP BY items and count(DISTINCT ...) arguments that are intervals, marked at their first token
 * ('iv-group', kept where ORDER BY's marks are): translate/null-order.ts groups and counts them by
 * their length (`1 day` and `24 hours` are one group, as in PostgreSQL).
 */
function markIntervalGroups(select: Node, typer: Typer, out: Map<number, string>): void {
  // (and numeric and boolean arrays, 'arr-group:kind': by their elements' values, {1.50} and {1.5} one group)
  const mark = (n: Node) => {
    const type = typer.type(n);
    const keyed = groupedKind(type);
    if (type !== OID.interval && !keyed) return;
    const at = firstLocation(n);
    if (at >= 0) out.set(orderMarkKey(at), keyed ? `arr-group:${keyed}` : 'iv-group');
  };
  for (const g of select.groupClause ?? []) {
    if (g.GroupingSet) continue;
    if (!g.A_Const) {
      // (GROUP BY d of `data AS d`: a name no FROM item has is the select item's alias there)
      const alias =
        g.ColumnRef?.fields?.length === 1 && typer.type(g) === 0 ? g.ColumnRef.fields[0].String?.sval : null;
      const items = (select.targetList ?? []).filter((x: Node) => alias && x.ResTarget?.name === alias);
      if (items.length === 1) {
        const type = typer.type(items[0].ResTarget.val);
        const keyed = groupedKind(type);
        if (keyed || type === OID.interval)
          out.set(orderMarkKey(firstLocation(g)), keyed ? `arr-group:${keyed}` : 'iv-group');
      } else mark(g);
      continue;
    }
    // GROUP BY 2: by the select item's name, as ORDER BY 2 ('iv-group:name', 'arr-group:kind:name';
    // SQLite reads an alias inside a GROUP BY expression, unless a table has a column of that name)
    const position = g.A_Const.ival?.ival;
    const item = position ? select.targetList?.[position - 1]?.ResTarget : undefined;
    const fields = item?.val?.ColumnRef?.fields;
    const name: string | undefined = item?.name ?? (fields ? strings(fields).pop() : undefined);
    if (!name || (item.name && isTableColumn({ fields: [{ String: { sval: name } }] }, typer))) continue;
    const type = typer.type(item.val);
    const keyed = groupedKind(type);
    if (type === OID.interval || keyed)
      out.set(orderMarkKey(g.A_Const.location), keyed ? `arr-group:${keyed}:${name}` : `iv-group:${name}`);
  }
  const visit = (x: Node) => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    if (x.SelectStmt || x.SubLink) return; // its own scope
    const f = x.FuncCall;
    // (of jsonb, count's only: another aggregate, array_agg(DISTINCT jb), would collect the keys)
    if (
      f?.agg_distinct &&
      f.args?.length === 1 &&
      (typer.type(f.args[0]) !== OID.jsonb || strings(f.funcname).pop()?.toLowerCase() === 'count')
    )
      mark(f.args[0]);
    for (const k in x) if (k !== 'location') visit(x[k]);
  };
  visit(select.targetList);
  visit(select.havingClause);
}

/**
 * SELECT DISTINCT and DISTINCT ON of intervals, which SQLite would tell apart by their text (`1 day`,
 * `24 hours`): a DISTINCT ON key is marked 'iv-group' (translate/distinct-on.ts partitions by it,
 * null-order.ts by its length); a plain DISTINCT's interval items 'iv-distinct' (with the item's
 * alias, 'iv-distinct:name'), which translate/interval-distinct.ts makes a GROUP BY. Only a
 * DISTINCT with no GROUP BY, HAVING, aggregate, window function or `*` is rewritten.
 */
function markIntervalDistinct(select: Node, typer: Typer, out: Map<number, string>): void {
  const distinct: Node[] | undefined = select.distinctClause;
  if (!distinct?.length || (select.op && select.op !== 'SETOP_NONE')) return;
  const plain = distinct.length === 1 && Object.keys(distinct[0]).length === 0;
  if (!plain) {
    for (const k of distinct) {
      // (numeric and boolean arrays and jsonb by their values too, 'arr-group:kind': `1.50` and `1.5` one key)
      const keyed = k.A_Const ? null : groupedKind(typer.type(k));
      if (k.A_Const || (typer.type(k) !== OID.interval && !keyed)) continue;
      const at = firstLocation(k);
      if (at >= 0) out.set(orderMarkKey(at), keyed ? `arr-group:${keyed}` : 'iv-group');
    }
    return;
  }
  if (select.groupClause || select.havingClause) return;
  const items: Node[] = (select.targetList ?? []).map((x: Node) => x.ResTarget);
  if (items.some((r) => !r?.val || r.val.ColumnRef?.fields?.some((f: Node) => f.A_Star))) return;
  // beside a window function: grouped outside a subquery of the query (windowed-distinct.ts)
  const kind = (n: Node) => {
    const k = groupedKind(typer.type(n));
    return k ? `arr-group:${k}` : typer.type(n) === OID.interval ? 'iv-group' : null;
  };
  const windowed = windowedDistinctMark(select, items, isAggregateCall, kind);
  if (windowed && firstLocation(items[0].val) >= 0) out.set(orderMarkKey(firstLocation(items[0].val)), windowed);
  if (hasAggregate(select.targetList)) return;
  for (const r of items) {
    // (numeric and boolean arrays likewise, 'arr-distinct:kind[:name]': {1.50} and {1.5} one row)
    const type = typer.type(r.val);
    const keyed = groupedKind(type);
    if (type !== OID.interval && !keyed) continue;
    const at = firstLocation(r.val);
    const mark = keyed ? `arr-distinct:${keyed}` : 'iv-distinct';
    if (at >= 0) out.set(orderMarkKey(at), r.name ? `${mark}:${r.name}` : mark);
  }
}

/**
 * A set operation whose columns hold intervals, which SQLite would tell apart and sort by their
 * text: the first item of its first member is marked 'iv-union:', `g` to group (a chain of UNIONs
 * whose last is not ALL: it removes the repeats of all of them), `x` or `e` (an INTERSECT or
 * EXCEPT, not ALL, of two queries) or `s` only to sort (any other with an ORDER BY), one letter per column (`i` an interval, `m` and `b` a numeric and a boolean
 * array, grouped by their elements' values, `j` jsonb, by its value, `t` timetz, sorted by its instant, `n` another), then the columns' names;
 * translate/interval-distinct.ts groups the members' UNION ALL by them and sorts by length. Only
 * where the first member names every column.
 */
function markIntervalUnion(select: Node, typer: Typer, out: Map<number, string>): void {
  if (!select.op || select.op === 'SETOP_NONE') return;
  const group = select.op === 'SETOP_UNION' && !select.all;
  // an INTERSECT or EXCEPT of two queries ('x', 'e'): each left row kept or dropped by the right's
  // rows of the same lengths (translate/interval-distinct.ts)
  const pair =
    (select.op === 'SETOP_INTERSECT' || select.op === 'SETOP_EXCEPT') &&
    !select.all &&
    (select.larg?.op ?? 'SETOP_NONE') === 'SETOP_NONE' &&
    (select.rarg?.op ?? 'SETOP_NONE') === 'SETOP_NONE';
  if (!group && !pair && !select.sortClause?.length) return;
  const members: Node[] = [];
  for (let x = select; x; x = x.larg) {
    if (x.op === 'SETOP_NONE' || !x.op) {
      members.unshift(x);
      break;
    }
    if ((group && x.op !== 'SETOP_UNION') || x.rarg?.op !== 'SETOP_NONE') return;
    members.unshift(x.rarg);
  }
  const mode = group ? 'g' : pair ? (select.op === 'SETOP_INTERSECT' ? 'x' : 'e') : 's';
  const first: Node[] = (members[0]?.targetList ?? []).map((x: Node) => x.ResTarget);
  const names = first.map((r) => r?.name ?? (r?.val?.ColumnRef ? strings(r.val.ColumnRef.fields).pop() : undefined));
  if (names.some((n) => !n) || new Set(names).size !== names.length) return;
  // (a numeric array 'm', a boolean one 'b': a UNION groups them by their elements' values)
  const kinds = first.map((_, k) => {
    const types = members.map((m) => {
      const item = m.targetList?.[k]?.ResTarget?.val;
      return item ? withSources(typer, m.fromClause ?? []).type(item) : 0;
    });
    if (types.includes(OID.interval)) return 'i';
    if (types.includes(TIMETZ)) return 't';
    const keyed = groupedKind(...types);
    return keyed === 'numeric' ? 'm' : keyed === 'boolean' ? 'b' : keyed === 'jsonb' ? 'j' : 'n';
  });
  // (jsonb sorted in jsonb's order too, `7` before `100`; timetz by its instant, then its offset)
  if (!kinds.some((k) => 'ijt'.includes(k)) && !(mode !== 's' && kinds.some((k) => k !== 'n'))) return;
  const at = firstLocation(first[0].val);
  // the walk comes to a chain's inner set operations after the whole one: the outermost's mark stays
  if (at >= 0 && !out.get(orderMarkKey(at))?.startsWith('iv-union:'))
    out.set(orderMarkKey(at), `iv-union:${mode}${kinds.join('')}:${JSON.stringify(names)}`);
}

/** Whether a select list calls an aggregate or window function (outside subqueries). */
function hasAggregate(n: Node): boolean {
  if (n === null || typeof n !== 'object') return false;
  if (Array.isArray(n)) return n.some(hasAggregate);
  if (n.SelectStmt || n.SubLink) return false;
  if (n.FuncCall && isAggregateCall(n.FuncCall)) return true;
  for (const k in n) if (k !== 'location' && hasAggregate(n[k])) return true;
  return false;
}

/** Where a mark for an ORDER BY term's first token is kept: apart from that token's own mark (sum(x) is both). */
export const orderMarkKey = (at: number) => -(at + 1);

/** The smallest location in a tree: where its text starts (an operator's location is the operator's). */
export function firstLocation(n: Node): number {
  let min = -1;
  const visit = (x: Node) => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    for (const k in x) {
      if (k === 'location' && typeof x[k] === 'number' && x[k] >= 0) min = min < 0 ? x[k] : Math.min(min, x[k]);
      else visit(x[k]);
    }
  };
  visit(n);
  return min;
}

/**
 * Marks what the statement's operators and calls compute, walking its tree; `late` takes the marks
 * of exact parts made text (exactText), which replace the marks the walk sets on those parts after it.
 */
/** Text search's @@, && or || (sql/text-search-operators.ts): its mark; 42883 where no such operator takes these types. */
function textSearch(e: Node, typer: Typer, declared: number[]): string | null {
  const op = strings(e.name).pop() ?? '';
  const [l, r] = [typer.type(e.lexpr), typer.type(e.rexpr)];
  // (a NULL is of the other side's type too)
  const unknown = (x: Node) => untyped(x, declared) || x.A_Const?.isnull === true;
  // tsquery @> and <@ tsquery: whether one's words are all the other's
  if ((op === '@>' || op === '<@') && (l === OID.tsquery || r === OID.tsquery)) {
    if ((l === OID.tsquery || unknown(e.lexpr)) && (r === OID.tsquery || unknown(e.rexpr))) return `tsq${op}`;
    throw placed(
      () => noOperator(typedOf(e.lexpr, typer, declared), op, typedOf(e.rexpr, typer, declared)),
      e.location,
    );
  }
  // tsquery's <-> (FOLLOWED BY) is tsquery_phrase; no other type Patina has takes it (PostgreSQL's are
  // geometric): 42883 where SQLite's parser read `<` `->` and gave 42601
  if (op === '<->') {
    const q = (x: Node, t: number) => t === OID.tsquery || unknown(x);
    if ((l === OID.tsquery || r === OID.tsquery) && q(e.lexpr, l) && q(e.rexpr, r)) return 'tsq<->';
    const named = (x: Node) => (x.ColumnRef ? declaredColumnType(x, typer) : typedOf(x, typer, declared));
    if (untyped(e.lexpr, declared) && untyped(e.rexpr, declared)) {
      const err = pgError('42725', 'operator is not unique: unknown <-> unknown');
      err.hint = 'Could not choose a best candidate operator. You might need to add explicit type casts.';
      throw placed(() => err, e.location);
    }
    if (!typedOf(e.lexpr, typer, declared) && !typedOf(e.rexpr, typer, declared)) return null;
    throw placed(() => noOperator(named(e.lexpr), op, named(e.rexpr)), e.location);
  }
  if (op !== '@@' && op !== '&&' && op !== '||') return null;
  const mark = textSearchMark(op, l, unknown(e.lexpr), r, unknown(e.rexpr));
  if (mark === 'none')
    throw placed(
      () => noOperator(typedOf(e.lexpr, typer, declared), op, typedOf(e.rexpr, typer, declared)),
      e.location,
    );
  return mark;
}

/**
 * Whether `n` is a node's fields rather than a node: libpg-query's nodes are `{ Kind: fields }`, a
 * kind capitalized, and fields are named in lower case (a tree's top, `{ stmts, version }`, too).
 */
function nodeFields(n: object): boolean {
  for (const k in n) {
    const c = k.charCodeAt(0);
    return c >= 97 && c <= 122;
  }
  return true;
}

/** The VALUES rows of INSERTs: typed by their target columns, not by each other. */
const INSERTED_ROWS = new WeakSet<Node>();

function walk(n: Node, typer: Typer, out: Map<number, string>, declared: number[], late: Map<number, string>): void {
  if (n === null || typeof n !== 'object') return;
  if (Array.isArray(n)) {
    for (const x of n) walk(x, typer, out, declared, late);
    return;
  }
  // a node's fields (`{ lexpr, rexpr, location }`), no node (`{ A_Expr: ... }`): nothing below asks
  // anything of them but their values, walked (half the objects of a tree; each was read for every
  // kind of node below)
  if (nodeFields(n)) {
    for (const k in n) if (k !== 'location') walk(n[k], typer, out, declared, late);
    return;
  }
  let t = typer;
  // (the window calls of a select list, for a frame of months: month-frames.ts)
  if (n.SelectStmt) noteWindowCalls(n.SelectStmt);
  const frame = n.WindowDef ?? n.FuncCall?.over;
  // RANGE frames with an offset: checked as PostgreSQL does, an interval offset marked (window-frames.ts)
  if (frame) markFrameOffsets(frame, typer, out, firstLocation, orderMarkKey);
  // jsonb partitioned and sorted in a window, sorted in an aggregate: by jsonb's order (jsonb-keys.ts)
  if (frame || n.FuncCall?.agg_order) markJsonbWindowKeys(n, typer, out, firstLocation, orderMarkKey);
  // array_agg(DISTINCT doc) and jsonb_agg(DISTINCT doc): repeats by jsonb's equality (jsonb-keys.ts)
  if (n.FuncCall?.agg_distinct) markJsonbDistinctAggregate(n.FuncCall, typer, out, firstLocation, orderMarkKey);
  // json_agg(DISTINCT arr) of numbers, booleans or text: the order PostgreSQL's DISTINCT sorts them
  // in is the arrays' (`{9}` before `{10}`), not their text's (translate/distinct-aggregates.ts)
  // (those aggregates alone: count(DISTINCT nums) has a mark of its own there)
  const distinctOf =
    n.FuncCall?.agg_distinct &&
    !n.FuncCall.agg_order &&
    /^(array_agg|json_agg|jsonb_agg)$/.test(strings(n.FuncCall.funcname).pop()?.toLowerCase() ?? '')
      ? n.FuncCall.args
      : undefined;
  if (distinctOf?.length === 1 && elementOidOf(typer.type(distinctOf[0])) !== undefined) {
    const kind = orderedKind(typer.type(distinctOf[0]));
    const at = orderMarkKey(firstLocation(distinctOf[0]));
    if (kind && firstLocation(distinctOf[0]) >= 0 && !out.has(at)) out.set(at, `arr-distinct:${kind}`);
  }
  // count(DISTINCT doc) of json: no equality operator there either (checkJsonOrdering)
  if (n.FuncCall?.agg_distinct)
    for (const a of n.FuncCall.args ?? [])
      if (typer.type(a) === OID.json)
        throw placed(() => pgError('42883', 'could not identify an equality operator for type json'), firstLocation(a));
  markCharPadding(n, typer, out); // (concat(ch), to_json(ch), ch LIKE p: padded; ch = vc)
  markNumericElements(n, typer, out); // (ARRAY[price], array_agg(price): each at its scale)
  // a string literal among numbers in ARRAY[...], NULLIF or a VALUES column (not an INSERT's, whose
  // rows take the table's types): read as their type, 22P02 where it is none (operand-types.ts)
  if (n.A_ArrayExpr) numberLiterals(n.A_ArrayExpr.elements ?? [], typer, out);
  if (n.A_Expr?.kind === 'AEXPR_NULLIF') numberLiterals([n.A_Expr.lexpr, n.A_Expr.rexpr], typer, out);
  // an array in arithmetic or under a prefix operator (`arr + '1'`, `- arr`): no such operator (array-arithmetic.ts)
  const arrayOp = n.A_Expr?.kind === 'AEXPR_OP' && arrayOperatorError(n.A_Expr, (x) => typeOfOperand(x, typer));
  if (arrayOp) throw arrayOp;
  if (n.InsertStmt?.selectStmt?.SelectStmt) INSERTED_ROWS.add(n.InsertStmt.selectStmt.SelectStmt);
  const rows: Node[][] | undefined = n.SelectStmt?.valuesLists?.map((r: Node) => r.List?.items ?? []);
  if (rows && rows.length > 1 && !INSERTED_ROWS.has(n.SelectStmt))
    for (let k = 0; k < rows[0].length; k++) {
      checkCommonType(
        'VALUES',
        rows.map((r) => r[k]),
        typer,
      );
      numberLiterals(
        rows.map((r) => r[k]),
        typer,
        out,
      );
    }
  // ARRAY(SELECT arr ...) of arrays: one more dimension, as array_agg's (translate/arrays.ts)
  if (n.SubLink?.subLinkType === 'ARRAY_SUBLINK' && n.SubLink.subselect?.SelectStmt && !out.has(n.SubLink.location)) {
    const cols = selectTypes(n.SubLink.subselect.SelectStmt, typer.schema);
    if (cols?.length === 1 && elementOidOf(cols[0].oid) !== undefined) out.set(n.SubLink.location, 'sub-arrays');
  }
  // a date beside a timestamp in COALESCE, GREATEST, LEAST, CASE, IN or a set operation: its midnight
  markInstantChoices(n, typer, out, firstLocation);
  if (n.SelectStmt?.op && n.SelectStmt.op !== 'SETOP_NONE') {
    // (an untyped string literal beside a number literal: read as it, 22P02 where it is none; the
    // tree's branches are its own nodes, not SelectStmt ones, so each operation is read once, whole)
    setOperationLiterals(n.SelectStmt, typer, out);
    const ctes = ctesOf(n.SelectStmt.withClause, typer.schema);
    const columns = selectTypes(n.SelectStmt, typer.schema, undefined, ctes);
    if (columns)
      markInstantSetColumns(
        n.SelectStmt,
        columns,
        (b) => selectTypes(b, typer.schema, undefined, ctes),
        out,
        firstLocation,
      );
  }
  // lag's or lead's default as a string literal, read as the value's type (literal-input.ts)
  if (n.FuncCall?.over && n.FuncCall.args?.length === 3)
    checkWindowDefault(n.FuncCall, typer.type(n.FuncCall.args[0]), out);
  // percentile_cont's key by its type (ordered-set-keys.ts)
  if (n.FuncCall?.agg_within_group) markOrderedSetKey(n.FuncCall, typer, out, orderMarkKey);
  if (n.SelectStmt) {
    // (a query of its own WITH clause typed by its columns)
    t = withSources(typer, n.SelectStmt.fromClause ?? [], ctesOf(n.SelectStmt.withClause, typer.schema));
    checkWindowRefs(n.SelectStmt);
    checkJsonOrdering(n.SelectStmt, t);
    markIntervalOrder(n.SelectStmt, t, out);
    markIntervalGroups(n.SelectStmt, t, out);
    markIntervalDistinct(n.SelectStmt, t, out);
    markIntervalUnion(n.SelectStmt, typer, out);
    markExactComparisons(n.SelectStmt, t, declared, late);
    // ROW(a, b) or (a, b) as a result column: PostgreSQL's record text, each field as its type's
    // output function prints it (translate/row-items.ts)
    for (const item of n.SelectStmt.targetList ?? []) {
      const row = item.ResTarget?.val?.RowExpr;
      if (row) out.set(row.location, `row:${outputKinds(row.args ?? [], t, declared, late, true).join(',')}`);
    }
  } else if (n.UpdateStmt) {
    // (and its own WITH queries, which FROM may read)
    t = withSources(
      typer,
      [{ RangeVar: n.UpdateStmt.relation }, ...(n.UpdateStmt.fromClause ?? [])],
      ctesOf(n.UpdateStmt.withClause, typer.schema),
    );
    markZonedAssignments(n, typer, t, withSources, firstLocation, out, declared, late);
  } else if (n.DeleteStmt)
    t = withSources(typer, [{ RangeVar: n.DeleteStmt.relation }, ...(n.DeleteStmt.usingClause ?? [])]);
  else if (n.InsertStmt) {
    const rel = n.InsertStmt.relation;
    // ON CONFLICT ... DO UPDATE reads the new row as `excluded`
    t = withSources(typer, [{ RangeVar: rel }, { RangeVar: { ...rel, alias: { aliasname: 'excluded' } } }]);
    markZonedAssignments(n, typer, t, withSources, firstLocation, out, declared, late);
  } else if (
    n.FuncCall?.args?.length >= 2 &&
    KEYED_FUNCTIONS.has(strings(n.FuncCall.funcname).pop()?.toLowerCase() ?? '') &&
    keyedKind(typer.type(n.FuncCall.args[0]))
  ) {
    // array_position(nums, 1.5) finds '1.50', array_replace(bs, true, false) finds 't' and writes 'f'
    const fn = strings(n.FuncCall.funcname).pop()!.toLowerCase().slice(6);
    out.set(n.FuncCall.location, `arr-${fn}-${keyedKind(typer.type(n.FuncCall.args[0]))}`);
  } else if (isAtTimeZone(n.FuncCall)) {
    const t = typer.type(n.FuncCall.args[1]);
    if (t === OID.timestamp) out.set(n.FuncCall.location, 'tz-local');
    else if (t === OID.timestamptz) out.set(n.FuncCall.location, 'tz-wall');
    // (a date is its midnight in the session's zone first: translate/typed-arithmetic.ts)
    else if (t === OID.date) out.set(n.FuncCall.location, 'tz-wall-date');
  } else if (n.FuncCall?.args?.length === 2 && strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'timezone') {
    // timezone(z, x), the call AT TIME ZONE is: the same by the type of x
    const t = typer.type(n.FuncCall.args[1]);
    if (t === OID.timestamp) out.set(n.FuncCall.location, 'tzcall-local');
    else if (t === OID.timestamptz || t === OID.date) out.set(n.FuncCall.location, 'tzcall-wall');
  } else if (
    n.FuncCall?.args?.length === 2 &&
    strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'to_char' &&
    typer.type(n.FuncCall.args[0]) === OID.timestamptz
  ) {
    out.set(n.FuncCall.location, 'to-char-tz'); // its TZ is UTC by the type (the stored text has no zone)
  } else if (
    n.FuncCall?.args?.length === 2 &&
    strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'date_trunc' &&
    (typer.type(n.FuncCall.args[1]) === OID.interval || typer.type(n.FuncCall.args[1]) === OID.time)
  ) {
    // an interval's fields cut (a time's as the interval it casts to): dates.ts's intervalTrunc
    out.set(n.FuncCall.location, 'unit:interval');
  } else if (badUnitType(n.FuncCall, typer)) {
    // a unit no type takes: the error names the value's type (translate/words.ts passes it on)
    out.set(n.FuncCall.location, `unit:${badUnitType(n.FuncCall, typer)}`);
  } else if (
    (n.FuncCall?.args?.length ?? 0) >= 2 &&
    strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'array_to_string' &&
    textKind(typer, n.FuncCall.args[0])?.startsWith('datearray:')
  ) {
    // array_to_string of dates or timestamps: each element as its type prints it, in the session's
    // DateStyle and zone (translate/words.ts makes the array text first, as ::text[] does)
    out.set(n.FuncCall.location, `ats:${textKind(typer, n.FuncCall.args[0])}`);
  } else if (
    n.FuncCall?.args?.length === 2 &&
    /^(date_trunc|date_part|extract)$/.test(strings(n.FuncCall.funcname).pop()?.toLowerCase() ?? '') &&
    typer.type(n.FuncCall.args[1]) === OID.timestamptz &&
    !out.has(n.FuncCall.location)
  ) {
    // cut or read on the wall clock of the session's zone, when it is not UTC (translate/words.ts)
    out.set(
      n.FuncCall.location,
      strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'date_trunc' ? 'dtrunc-tz' : 'dpart-tz',
    );
  } else if (
    n.FuncCall?.args?.length === 3 &&
    strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'generate_series' &&
    typer.type(n.FuncCall.args[0]) === OID.timestamptz
  ) {
    out.set(n.FuncCall.location, 'series-tz'); // its days are the session zone's (translate/words.ts)
  } else if (
    n.TypeCast &&
    (typeNameOid(n.TypeCast.typeName) === OID.date ||
      typeNameOid(n.TypeCast.typeName) === OID.timestamp ||
      typeNameOid(n.TypeCast.typeName) === OID.time) &&
    typer.type(n.TypeCast.arg) === OID.timestamptz
  ) {
    // the date, wall time or time of day in the session's zone (translate/casts.ts)
    out.set(n.TypeCast.location, 'tz-wall-cast');
  } else if (
    n.TypeCast &&
    strings(n.TypeCast.typeName?.names).pop() === 'timetz' &&
    !n.TypeCast.typeName.arrayBounds &&
    typer.type(n.TypeCast.arg) === OID.timestamptz
  ) {
    out.set(n.TypeCast.location, 'tz-timetz-cast'); // its time of day and offset in the session's zone (translate/casts.ts)
  } else if (
    n.TypeCast &&
    typeNameOid(n.TypeCast.typeName) === OID.time &&
    typer.type(n.TypeCast.arg) === OID.timestamp
  ) {
    out.set(n.TypeCast.location, 'ts-time-cast'); // of an infinity NULL, as there (translate/casts.ts)
  } else if (
    n.TypeCast &&
    typeNameOid(n.TypeCast.typeName) === OID.timestamptz &&
    !n.TypeCast.arg?.A_Const &&
    (TEXT_TYPES.has(typer.type(n.TypeCast.arg)) ||
      typer.type(n.TypeCast.arg) === OID.timestamp ||
      typer.type(n.TypeCast.arg) === OID.date)
  ) {
    // text, a timestamp or a date read per row as a wall time in the session's zone (translate/casts.ts;
    // `ts::timestamptz` and `current_date::timestamptz` were read in UTC)
    out.set(n.TypeCast.location, 'tz-text-cast');
  } else if (
    n.FuncCall?.args?.length === 2 &&
    /^pow(er)?$/.test(strings(n.FuncCall.funcname).pop()?.toLowerCase() ?? '') &&
    n.FuncCall.args.some((a: Node) => typer.type(a) === OID.numeric)
  ) {
    out.set(n.FuncCall.location, 'num-pow'); // NaN ^ x is NaN (1 when x is 0); SQLite's power made it NULL
  } else if (
    n.FuncCall?.args?.length === 2 &&
    strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'mod' &&
    n.FuncCall.args.some((a: Node) => FLOATS.has(typer.type(a)))
  ) {
    // as `%`: PostgreSQL has no mod of a double (SQLite's mod computes one)
    const [a, b] = n.FuncCall.args.map((x: Node) => operandName(x, typer.type(x)));
    throw pgError('42883', `function mod(${a}, ${b}) does not exist`);
  } else if (n.FuncCall?.args?.length === 2 && strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'round') {
    // round(numeric, n) rounds the decimal half away from zero (1.005 to 1.01); SQLite's round
    // rounds the double 1.00499999999999989... to 1.0
    // (an untyped parameter is numeric there, the only round of two arguments: param-tree-types.ts)
    const t = untypedParam(n.FuncCall.args[0], declared) ? OID.numeric : typer.type(n.FuncCall.args[0]);
    if (t === OID.numeric || INTS.has(t)) out.set(n.FuncCall.location, 'round-numeric');
  } else if (n.FuncCall?.args?.length === 1) {
    const fn = strings(n.FuncCall.funcname).pop()?.toLowerCase();
    const arg = n.FuncCall.args[0];
    // PostgreSQL has no min or max of json or jsonb (no btree order of json; jsonb's is not offered
    // to them): 42883 at the call, where SQLite picked by the stored text
    if ((fn === 'min' || fn === 'max') && JSON_TYPES.has(typer.type(arg))) {
      const err = pgError('42883', `function ${fn}(${typer.type(arg) === OID.json ? 'json' : 'jsonb'}) does not exist`);
      err.hint = 'No function matches the given name and argument types. You might need to add explicit type casts.';
      throw placed(() => err, n.FuncCall.location);
    }
    if (fn === 'pg_typeof') {
      // (a string literal is `unknown` there, which translate/typeof.ts answers)
      const t = arg.A_Const?.sval !== undefined ? 0 : typer.type(arg);
      // a table's whole row: its composite type, named as the table (catalog/table-rows.ts)
      const table = t === OID.record ? typer.wholeRowTable(arg) : undefined;
      const names = relationNames();
      const row = table === undefined ? undefined : names.typeName(names.typeOid(table) ?? 0);
      if (row) out.set(n.FuncCall.location, `typeof:${row}`);
      // (a catalog row's system column: xid, cid, tid)
      else if (t && (TYPE_DISPLAY[t] ?? OTHER_TYPE_DISPLAY[t]))
        out.set(n.FuncCall.location, `typeof:${TYPE_DISPLAY[t] ?? OTHER_TYPE_DISPLAY[t]}`);
    } else if ((fn === 'sum' || fn === 'avg') && (typer.type(arg) === OID.numeric || FLOATS.has(typer.type(arg)))) {
      // numeric's NaN (the text NaN) makes them NaN; SQLite's read it as 0 (an exact avg's mark
      // replaces this); a double's too. Of a plain column SQLite's own, unless max(x IS 'NaN'), which costs less
      const f = n.FuncCall;
      const plain = (arg.ColumnRef || arg.ParamRef) && !f.over && !f.agg_filter && !f.agg_distinct;
      out.set(f.location, plain ? `num-${fn}-col` : `num-${fn}`);
    } else if (fn && NAN_MATH.has(fn) && typer.type(arg) === OID.numeric && (arg.ColumnRef || arg.ParamRef)) {
      out.set(n.FuncCall.location, 'num-fn-col'); // of NaN NaN (SQLite's read it as 0)
    } else if (fn && NAN_MATH.has(fn) && typer.type(arg) === OID.numeric && !arg.A_Const) {
      out.set(n.FuncCall.location, 'num-fn'); // of an expression: the same, the expression read twice
    } else if ((fn === 'sum' || fn === 'avg') && typer.type(arg) === OID.interval) {
      out.set(n.FuncCall.location, `${fn}-iv`); // SQLite's would add the texts as numbers
    } else if ((fn === 'min' || fn === 'max') && typer.type(arg) === OID.interval) {
      out.set(n.FuncCall.location, `${fn}-iv${n.FuncCall.over ? '-w' : ''}`); // SQLite's would pick by the text
    } else if (fn === 'array_agg' && elementOidOf(typer.type(arg)) !== undefined && !out.has(n.FuncCall.location)) {
      // of arrays: an array of one more dimension ({{1,2},{3,4}}), not an array of their texts
      out.set(n.FuncCall.location, 'agg-arrays');
    } else if ((fn === 'min' || fn === 'max') && orderedKind(typer.type(arg))) {
      // of an array of numbers, booleans or text: by its elements ('{10}' above '{9}'), not its text
      out.set(n.FuncCall.location, `arr-${fn}-${orderedKind(typer.type(arg))}${n.FuncCall.over ? '-w' : ''}`);
    } else if (fn === 'to_hex' && typer.type(arg) === OID.int4) {
      out.set(n.FuncCall.location, 'hex32'); // to_hex(integer): a negative one in 32-bit two's complement
    } else if (fn === 'round') {
      // round() of a double rounds half to even, as the C library's rint (SQLite's rounds half away from zero);
      // an untyped parameter is a double there, as PostgreSQL resolves it (param-tree-types.ts)
      const t = untypedParam(arg, declared) ? OID.float8 : typer.type(arg);
      if (t === OID.float8 || t === OID.float4) out.set(n.FuncCall.location, 'round-even');
    }
  } else if (n.CoalesceExpr || n.MinMaxExpr || n.CaseExpr) {
    // a simple CASE's WHEN values are compared with its operand: a string one read as the operand's
    // type (`CASE a.attnotnull WHEN 't' THEN 0 ...`, DBD::Pg's column_info, matched no boolean)
    if (n.CaseExpr?.arg) {
      const whens = (n.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.expr).filter(Boolean);
      const type = typer.type(n.CaseExpr.arg);
      if (NUMBERS.has(type))
        for (const lit of whens.filter((a: Node) => a.A_Const?.sval !== undefined))
          out.set(lit.A_Const.location, `num:${literalAsNumber(lit.A_Const.sval.sval ?? '', type)}`);
      else if (type) markComparedLiterals(whens, type, out);
    }
    // an untyped string among typed values takes their type (least(n, '3') is 3; SQLite's min of
    // 4 and '3' was 4, numbers sorting before text), 22P02 when it is none
    const c = n.CaseExpr;
    const args: Node[] = c
      ? [...(c.args ?? []).map((w: Node) => w.CaseWhen?.result), c.defresult]
      : (n.CoalesceExpr ?? n.MinMaxExpr).args;
    // (text beside a number, ...: 42804, operand-types.ts; PostgreSQL resolves a CASE's ELSE first)
    const context = c ? 'CASE' : n.CoalesceExpr ? 'COALESCE' : n.MinMaxExpr.op === 'IS_GREATEST' ? 'GREATEST' : 'LEAST';
    checkCommonType(context, c ? [c.defresult, ...args.slice(0, -1)] : args, typer);
    const lits = args.filter((a) => a?.A_Const?.sval !== undefined);
    const type =
      lits.length > 0 && lits.length < args.filter((a) => a && !a.A_Const?.isnull).length ? typer.type(n) : 0;
    // (22P02 at the literal, an INTEGER column's type named integer: operand-types.ts)
    if (NUMBERS.has(type)) numberLiterals(args, typer, out);
    else if (type) markComparedLiterals(lits, type, out);
    // greatest() and least() of intervals by their length, of timetz by instant and offset
    // (translate/greatest-least.ts; SQLite's max() and min() picked by the text)
    const kind = n.MinMaxExpr ? typer.type(n) : 0;
    if (kind === OID.interval || kind === TIMETZ)
      out.set(
        n.MinMaxExpr.location,
        `key-${n.MinMaxExpr.op === 'IS_GREATEST' ? 'greatest' : 'least'}:${kind === TIMETZ ? 'timetz' : 'interval'}`,
      );
  } else if (n.TypeCast && INT_NAMES[typeNameOid(n.TypeCast.typeName)] && typer.type(n.TypeCast.arg) === OID.numeric) {
    // numeric's NaN to an integer is 0A000 in PostgreSQL (text 'NaN' there is 22P02, as the cast reads it)
    out.set(n.TypeCast.location, `nan-int:${INT_NAMES[typeNameOid(n.TypeCast.typeName)]}`);
  } else if (
    n.TypeCast &&
    JSONB_SCALARS[typeNameOid(n.TypeCast.typeName)] &&
    typer.type(n.TypeCast.arg) === OID.jsonb
  ) {
    // a jsonb number or boolean read as one, another kind 22023 (translate/casts.ts)
    out.set(n.TypeCast.location, `jsonb-scalar:${JSONB_SCALARS[typeNameOid(n.TypeCast.typeName)]}`);
  } else if (
    n.TypeCast &&
    typeNameOid(n.TypeCast.typeName) === OID.time &&
    typer.type(n.TypeCast.arg) === OID.interval
  ) {
    out.set(n.TypeCast.location, 'iv-time'); // an interval's time of day (translate/casts.ts)
  } else if (
    n.TypeCast &&
    typeNameOid(n.TypeCast.typeName) === OID.numeric &&
    !n.TypeCast.typeName.arrayBounds &&
    FLOATS.has(typer.type(n.TypeCast.arg))
  ) {
    // a double to numeric keeps its 15 significant digits, a real its 6, as float8_numeric and
    // float4_numeric print them (0.30000000000000004::float8::numeric is 0.3; translate/casts.ts)
    out.set(n.TypeCast.location, `float-numeric:${typer.type(n.TypeCast.arg) === OID.float4 ? 6 : 15}`);
  } else if (n.TypeCast && INT_NAMES[typeNameOid(n.TypeCast.typeName)] && FLOATS.has(typer.type(n.TypeCast.arg))) {
    // a double to an integer rounds half to even, as rint does ((-2.5)::float8::int is -2), its NaN 22003
    out.set(n.TypeCast.location, `float-int:${INT_NAMES[typeNameOid(n.TypeCast.typeName)]}`);
  } else if (
    n.TypeCast &&
    TEXT_TYPES.has(elementOidOf(typeNameOid(n.TypeCast.typeName)) ?? 0) &&
    keyedKind(typer.type(n.TypeCast.arg)) === 'boolean'
  ) {
    out.set(n.TypeCast.location, 'text:boolarray'); // ARRAY[true]::text[] is {true}, as boolean's cast to text says
  } else if (
    n.TypeCast &&
    TEXT_TYPES.has(elementOidOf(typeNameOid(n.TypeCast.typeName)) ?? 0) &&
    textKind(typer, n.TypeCast.arg)?.startsWith('datearray:')
  ) {
    // ARRAY[d]::text[]: each element as date's cast to text prints it, in the session's DateStyle
    // and zone ({02/01/2024}, {"2024-01-02 05:00:00-05"}; it kept the stored text)
    out.set(n.TypeCast.location, `text:${textKind(typer, n.TypeCast.arg)}`);
  } else if (
    n.TypeCast &&
    (typeNameOid(n.TypeCast.typeName) === OID.text || typeNameOid(n.TypeCast.typeName) === OID.varchar) &&
    typer.type(n.TypeCast.arg) === OID.bpchar
  ) {
    out.set(n.TypeCast.location, 'text:rtrim'); // char(n) to text drops its trailing spaces ('ab  '::char(4)::text is ab)
  } else if (n.TypeCast && TEXT_TYPES.has(typeNameOid(n.TypeCast.typeName))) {
    // a cast to text prints as PostgreSQL: `true` (SQLite's CAST gives 1), a double's shortest digits
    // (100, not 100.0), a numeric at its scale (1.50, not 1.5), a timestamp in full
    const kind = textKind(typer, n.TypeCast.arg);
    markJsonGets(n.TypeCast.arg, typer, out); // (json's -> made text: its text as written)
    if (!exactText(n.TypeCast.arg, typer, declared, late) && !ownScalesText(n.TypeCast.arg, typer, late) && kind)
      out.set(n.TypeCast.location, `text:${kind}`);
  } else if (n.A_Expr?.kind === 'AEXPR_IN' && rowInMark(n.A_Expr, typer)) {
    // a row with timetz fields in a list of rows: each such field by its key (row-keys.ts)
    out.set(n.A_Expr.location, rowInMark(n.A_Expr, typer) as string);
  } else if (/^AEXPR_(NOT_)?BETWEEN$|^AEXPR_IN$/.test(n.A_Expr?.kind ?? '') && n.A_Expr.lexpr) {
    const type = typer.type(n.A_Expr.lexpr);
    // intervals between bounds by their length (the mark on BETWEEN, or NOT of NOT BETWEEN)
    if (type === OID.interval) out.set(n.A_Expr.location, n.A_Expr.kind === 'AEXPR_IN' ? 'iv-in' : 'iv-between');
    // jsonb between bounds in jsonb's order ('jb-between'; SQLite compared the stored text): a bound
    // that is a number, text or boolean is 42883 for the comparison it makes (`jsonb >= integer`)
    else if (type === OID.jsonb && n.A_Expr.kind !== 'AEXPR_IN') {
      const bounds: Node[] = n.A_Expr.rexpr?.List?.items ?? [];
      const bad = bounds.findIndex((x) => jsonbBesideOther(type, typedOf(x, typer, declared)));
      if (bad >= 0) {
        const not = n.A_Expr.kind === 'AEXPR_NOT_BETWEEN';
        const op = bad === 0 ? (not ? '<' : '>=') : not ? '>' : '<=';
        const err = noOperator(type, op, typer.type(bounds[bad]));
        throw placed(() => err, n.A_Expr.location);
      }
      if (bounds.every((x) => untyped(x, declared) || typer.type(x) === OID.jsonb)) {
        checkJsonbLiterals(bounds);
        out.set(n.A_Expr.location, 'jb-between');
      }
    }
    // timetz between bounds by its instant, then its offset (SQLite compared the text), in a list by
    // its key (a literal read as timetz input)
    else if (type === TIMETZ) out.set(n.A_Expr.location, n.A_Expr.kind === 'AEXPR_IN' ? 'arr-in:timetz' : 'tz-between');
    // a timestamp between dates (or a date between timestamps): each comparison's date at midnight,
    // as `x >= a AND x <= b` casts it (translate/typed-arithmetic.ts' dateBetween)
    else if (n.A_Expr.kind !== 'AEXPR_IN' && dateBetweenKind(n.A_Expr, typer, declared))
      out.set(n.A_Expr.location, dateBetweenKind(n.A_Expr, typer, declared)!);
    // numeric and boolean arrays in a list by their elements' values ('{1.50}' IN ('{1.5}'))
    else if (n.A_Expr.kind === 'AEXPR_IN' && keyedKind(type)) out.set(n.A_Expr.location, `arr-in:${keyedKind(type)}`);
    // jsonb in a list holding a number, text or boolean: `jsonb = integer`, no such operator (42883)
    else if (
      n.A_Expr.kind === 'AEXPR_IN' &&
      (n.A_Expr.rexpr?.List?.items ?? []).some((x: Node) => jsonbBesideOther(type, typedOf(x, typer, declared)))
    ) {
      const items = n.A_Expr.rexpr.List.items as Node[];
      const other = items.find((x) => jsonbBesideOther(type, typedOf(x, typer, declared)));
      const err = noOperator(type, '=', typer.type(other));
      throw placed(() => err, n.A_Expr.location);
    }
    // jsonb in a list of jsonb or of literals read as it: equal as jsonb is (a stored 1.50 IN ('1.5'))
    else if (
      n.A_Expr.kind === 'AEXPR_IN' &&
      type === OID.jsonb &&
      (n.A_Expr.rexpr?.List?.items ?? []).every((x: Node) => untyped(x, declared) || typer.type(x) === OID.jsonb)
    ) {
      checkJsonbLiterals(n.A_Expr.rexpr?.List?.items ?? []);
      out.set(n.A_Expr.location, 'arr-in:jsonb');
    } else if (NUMBERS.has(type)) numberLiterals([n.A_Expr.lexpr, ...(n.A_Expr.rexpr?.List?.items ?? [])], typer, out);
    else markComparedLiterals(n.A_Expr.rexpr?.List?.items ?? [], type, out);
  } else if (/^AEXPR_(NOT_)?BETWEEN_SYM$/.test(n.A_Expr?.kind ?? '') && n.A_Expr.lexpr) {
    // BETWEEN SYMMETRIC's bounds are ordered by SQLite's min and max (translate/between-symmetric.ts):
    // a literal compared as the type stores it; intervals and jsonb, which have their own order, are refused
    const type = typer.type(n.A_Expr.lexpr);
    if (type === OID.interval || type === OID.jsonb)
      throw placed(
        () =>
          pgError(
            '0A000',
            `BETWEEN SYMMETRIC of ${TYPE_DISPLAY[type]} is not supported: write x BETWEEN a AND b OR x BETWEEN b AND a`,
          ),
        n.A_Expr.location,
      );
    // a timestamp between dates (or a date between timestamps), the bounds of one type: each
    // comparison's date at midnight, as for BETWEEN (min and max of the bounds' text keep their order)
    const dated = dateBetweenKind(n.A_Expr, typer, declared);
    const [xs, a, b] = dated?.slice('date-between:'.length).split(':') ?? [];
    if (dated && a === b && xs[0] === xs[1]) out.set(n.A_Expr.location, dated);
    else markComparedLiterals(n.A_Expr.rexpr?.List?.items ?? [], type, out);
  } else if (
    n.A_Expr?.kind === 'AEXPR_OP' &&
    !n.A_Expr.lexpr &&
    strings(n.A_Expr.name).pop() === '-' &&
    (typer.type(n.A_Expr.rexpr) === OID.numeric || FLOATS.has(typer.type(n.A_Expr.rexpr)))
  ) {
    out.set(n.A_Expr.location, 'num-neg'); // -NaN is NaN (SQLite's -'NaN' is 0), numeric's or a double's
  } else if (
    n.A_Expr?.kind === 'AEXPR_OP' &&
    !n.A_Expr.lexpr &&
    strings(n.A_Expr.name).pop() === '-' &&
    typer.type(n.A_Expr.rexpr) === OID.interval
  ) {
    out.set(n.A_Expr.location, 'iv-neg'); // -iv negates each field (SQLite's -'1 day' is -1)
  } else if (
    (n.A_Expr?.kind === 'AEXPR_LIKE' || n.A_Expr?.kind === 'AEXPR_OP') &&
    /^!?~~$/.test(strings(n.A_Expr.name).pop() ?? '') &&
    n.A_Expr.lexpr &&
    (typer.type(n.A_Expr.lexpr) === OID.bytea ||
      (typer.type(n.A_Expr.rexpr) === OID.bytea && untyped(n.A_Expr.lexpr, declared)))
  ) {
    out.set(n.A_Expr.location, 'bytea-like'); // bytes matched (translate/like.ts), not the blob read as text
  } else if (n.A_Expr?.kind === 'AEXPR_OP' && !n.A_Expr.lexpr && PREFIX_CALLS[strings(n.A_Expr.name).pop() ?? '']) {
    // `@ x`, `|/ x`, `||/ x`: abs, sqrt and cbrt, which SQLite has as functions only
    out.set(n.A_Expr.location, `pre:${PREFIX_CALLS[strings(n.A_Expr.name).pop() ?? '']}`);
  } else if (
    (n.A_Expr?.kind === 'AEXPR_OP_ANY' || n.A_Expr?.kind === 'AEXPR_OP_ALL') &&
    typer.type(n.A_Expr.lexpr) === OID.jsonb &&
    jsonbAnyMark(n.A_Expr, typer, declared)
  ) {
    // jsonb = ANY (array) and <> ALL (array): an IN and a NOT IN keyed as jsonb is (a stored 1.50 is
    // = ANY ('{1.5}')); < ANY, = ALL and the other quantified comparisons each element by its key
    out.set(n.A_Expr.location, jsonbAnyMark(n.A_Expr, typer, declared) as string);
  } else if (
    (n.A_Expr?.kind === 'AEXPR_OP_ANY' || n.A_Expr?.kind === 'AEXPR_OP_ALL') &&
    keyedKind(typer.type(n.A_Expr.rexpr))
  ) {
    // 1.5 = ANY (nums) finds '1.50', true = ANY (bs) finds 't': the elements as SQLite holds such values
    out.set(n.A_Expr.location, `elems:${keyedKind(typer.type(n.A_Expr.rexpr))}`);
  } else if (
    (n.A_Expr?.kind === 'AEXPR_OP_ANY' || n.A_Expr?.kind === 'AEXPR_OP_ALL') &&
    typer.type(n.A_Expr.lexpr) === OID.bpchar &&
    (untyped(n.A_Expr.rexpr, declared) || elementOidOf(typer.type(n.A_Expr.rexpr)) === OID.bpchar)
  ) {
    // ch = ANY ($1) of a char(n) column: its elements are bpchar, compared without their trailing
    // spaces as the column's stored values are (an ORM loading by the padded keys it read found none)
    out.set(n.A_Expr.location, 'elems:bpchar');
  } else if (
    (n.A_Expr?.kind === 'AEXPR_OP_ANY' || n.A_Expr?.kind === 'AEXPR_OP_ALL') &&
    elementOidOf(typer.type(n.A_Expr.rexpr)) === OID.bytea
  ) {
    out.set(n.A_Expr.location, 'elems:bytea'); // b = ANY (bs): the elements (kept as hex text) as blobs
  } else if (
    n.A_Expr?.kind === 'AEXPR_OP' &&
    n.A_Expr.lexpr &&
    n.A_Expr.rexpr &&
    textSearch(n.A_Expr, typer, declared)
  ) {
    out.set(n.A_Expr.location, textSearch(n.A_Expr, typer, declared) as string);
  } else if (n.A_Expr?.kind === 'AEXPR_OP' && n.A_Expr.lexpr && n.A_Expr.rexpr) {
    const e = n.A_Expr;
    const op = e.name?.[e.name.length - 1]?.String?.sval;
    const [la, ra] = [e.lexpr, e.rexpr].map((x) => typeOfOperand(x, typer));
    placed(() => checkArrayOperands(op, la, ra, e.lexpr, e.rexpr), e.location);
    // text or a boolean in arithmetic, a date compared with a number, ...: 42883 (operand-types.ts)
    checkOperandTypes(op, e, typer, declared);
    if (noElementConcat(op, la, ra, e.lexpr, e.rexpr)) throw placed(() => noOperator(la, op, ra), e.location);
    // jsonb compared with a number, text or boolean: no such operator in PostgreSQL (SQLite compared
    // the stored text with the value: `j = 1` false, never an error)
    const [lt, rt] = [typedOf(e.lexpr, typer, declared), typedOf(e.rexpr, typer, declared)];
    if (/^(?:[<>]=?|=|<>|!=)$/.test(op) && jsonbBesideOther(lt, rt))
      throw placed(() => noOperator(lt, op === '!=' ? '<>' : op, rt), e.location);
    // an untyped string literal on the left of an operator several types have: PostgreSQL's 42725
    // or 42883 where SQLite computed with the text ('{"a":1}' -> 'a', '5' - '3')
    if (e.lexpr.A_Const?.sval !== undefined) placed(() => untypedLeftOperand(op, e.rexpr, typer), e.location);
    for (const [at, text] of arrayLiterals(op, typer.type(e.lexpr), typer.type(e.rexpr), e.lexpr, e.rexpr))
      out.set(at, `str:${text}`);
    // json's ->> and #>> (text): the value's text as written, and so the json reads they are of
    if (op === '->>' || op === '#>>') markJsonGets(n, typer, out);
    const keyed = keyedKind(typer.type(e.lexpr), typer.type(e.rexpr));
    if ((op === '->' || op === '->>') && typer.type(e.lexpr) === OID.jsonb && INTS.has(typer.type(e.rexpr)))
      // an element of jsonb by its index, a scalar's own at 0 and -1 (SQLite's -> gave NULL there)
      out.set(e.location, 'jsonb-elem');
    else if (op === '^')
      out.set(
        e.location,
        typer.type(e.lexpr) === OID.numeric || typer.type(e.rexpr) === OID.numeric ? 'num-pow' : 'pow',
      );
    else if (COMPARISONS.has(op) && rowKeyMark(e, typer))
      // rows with timetz fields: each such field by its key (row-keys.ts; SQLite compared its text)
      out.set(e.location, rowKeyMark(e, typer) as string);
    else if ((op === '=' || op === '<>') && keyed) {
      // numeric arrays equal by their elements' values ('{1.50}' = '{1.5}'), boolean ones by truth
      out.set(e.location, `arr-cmp:${keyed}`);
    } else if ((op === '=' || op === '<>') && orderedKind(typer.type(e.lexpr), typer.type(e.rexpr)) === 'timetz') {
      // timetz equal as timetz_eq, the same time and offset: by its key, a literal read as timetz
      // input (`tz = '8:00+00'` of 08:00:00+00; the texts differed)
      out.set(e.location, 'arr-ord:timetz');
    } else if (
      (op === '<' || op === '>' || op === '<=' || op === '>=') &&
      orderedKind(typer.type(e.lexpr), typer.type(e.rexpr))
    ) {
      // arrays of numbers and booleans ordered by their elements' values ('{9}' < '{10}')
      out.set(e.location, `arr-ord:${orderedKind(typer.type(e.lexpr), typer.type(e.rexpr))}`);
    } else if ((op === '<<' || op === '>>') && shiftLeftType(typer, e)) {
      // integer shifts as C shifts them in PostgreSQL (the count taken modulo the width, the
      // result of the left operand's type); SQLite's shift a negative count the other way.
      // A string literal beside an integer is an integer as PostgreSQL reads it (`i << '-7'`,
      // `'-7' << i`: the count, or an integer shifted by one; 22P02 or 22003 when it is none)
      for (const side of [e.lexpr, e.rexpr])
        if (side.A_Const?.sval !== undefined)
          out.set(side.A_Const.location, `num:${literalAsNumber(side.A_Const.sval.sval ?? '', OID.int4)}`);
      out.set(e.location, `shift:${op}${INT_BITS[shiftLeftType(typer, e)]}`);
    } else if (op === '^@' || PATTERN_COMPARISONS[op]) {
      // starts-with and text_pattern_ops' byte-wise comparisons, which SQLite has no operator for
      out.set(e.location, op === '^@' ? 'starts' : `pat:${PATTERN_COMPARISONS[op]}`);
    } else if (op === '#') {
      // bitwise XOR of integers, which SQLite has no operator for
      const l = typer.type(e.lexpr);
      const r = typer.type(e.rexpr);
      // (a string literal beside an integer is read as one: `x # '3'`, 22P02 when it is none)
      const lit = e.lexpr.A_Const?.sval ? e.lexpr : e.rexpr.A_Const?.sval ? e.rexpr : null;
      const other = lit === e.lexpr ? r : l;
      if (lit && INTS.has(other)) {
        out.set(lit.A_Const.location, `num:${literalAsNumber(lit.A_Const.sval.sval ?? '', other)}`);
        out.set(e.location, 'xor');
      } else if ((INTS.has(l) || l === 0) && (INTS.has(r) || r === 0)) out.set(e.location, 'xor');
    } else if (COMPARISONS.has(op) && instantAndInterval(typer.type(e.lexpr), typer.type(e.rexpr))) {
      // `placed_at > $1 - interval '1 hour'`, where $1 - interval is interval - interval: no such
      // comparison in PostgreSQL (SQLite compared the texts)
      const err = noOperator(typer.type(e.lexpr), op, typer.type(e.rexpr));
      throw placed(() => err, e.location);
    } else if (/^(?:[<>]=?|=|<>|!=)$/.test(op) && ordersJsonb(typer, e.lexpr, e.rexpr, declared)) {
      // jsonb ordered as jsonb orders (objects above arrays above scalars, ...), not by its text, and
      // equal as jsonb is: numbers by value (a stored '1.50' = '1.5', '[1e2]' = '[100]')
      checkJsonbLiterals([e.lexpr, e.rexpr]);
      out.set(e.location, 'ord-jsonb');
    } else if (COMPARISONS.has(op) && comparesIntervals(typer, e.lexpr, e.rexpr, declared)) {
      // intervals compare by their length ('1 day' = '24 hours'), not their text
      out.set(e.location, 'iv-cmp');
    } else if (
      COMPARISONS.has(op) &&
      dateBesideInstant(typedOf(e.lexpr, typer, declared), typedOf(e.rexpr, typer, declared))
    ) {
      // a date beside a timestamp or timestamptz is that type at midnight, as PostgreSQL casts it
      // (`placed_at = current_date`, `d <= placed_at`); SQLite compared '2024-01-02' with
      // '2024-01-02 00:00:00' as text: never equal, and later
      const l = typedOf(e.lexpr, typer, declared);
      const instant = l === OID.date ? typedOf(e.rexpr, typer, declared) : l;
      out.set(e.location, `date-cmp:${l === OID.date ? 'l' : 'r'}:${instant === OID.timestamp ? 'ts' : 'tstz'}`);
    } else if (COMPARISONS.has(op)) {
      const lit = e.lexpr.A_Const?.sval ? e.lexpr : e.rexpr.A_Const?.sval ? e.rexpr : null;
      const other = lit === e.lexpr ? e.rexpr : e.lexpr;
      const type = lit ? typer.type(other) : 0;
      // (of a column, its affinity reads a number's text, but not 'Infinity': that one too)
      if (lit && NUMBERS.has(type) && (!other.ColumnRef || isInfinityText(lit.A_Const.sval.sval ?? '')))
        out.set(
          lit.A_Const.location,
          `num:${placed(() => literalAsNumber(lit.A_Const.sval.sval ?? '', type), lit.A_Const.location)}`,
        );
      // an integer column's affinity reads a numeric text as the number; any other is PostgreSQL's
      // 22P02, where SQLite compared the text and found no row (PDO's emulated prepares quote every
      // bound value: `id = 'not a number'`)
      // (at the literal, an INTEGER column's type named integer and its range int4's, as there)
      else if (lit && INTS.has(type))
        placed(
          () => literalAsNumber(lit.A_Const.sval.sval ?? '', declaredNumber(other, typer) || type),
          lit.A_Const.location,
        );
      else if (lit) markComparedLiterals([lit], type, out);
    } else if (op === '||') {
      // array concatenation, which SQLite would make text concatenation ('{1,2}3')
      const lt = typer.type(e.lexpr);
      const rt = typer.type(e.rexpr);
      const l = elementOidOf(lt) !== undefined;
      const r = elementOidOf(rt) !== undefined;
      // a side of unknown type beside an array ('?'): an array when its value is one (a catalog's text[])
      // and an untyped string literal beside an array is an array literal, as PostgreSQL reads it
      const side = (isArray: boolean, t: number, n: Node) =>
        isArray || n.A_Const?.sval !== undefined ? 'a' : t === 0 ? '?' : 's';
      if (l || r) out.set(e.location, `arr||${side(l, lt, e.lexpr)}${side(r, rt, e.rexpr)}`);
      else if (lt === OID.jsonb || rt === OID.jsonb) out.set(e.location, 'jsonb||');
      // bytea || bytea, or bytea beside an untyped literal or parameter (read as bytea): bytes, as
      // PostgreSQL's byteacat (`'b=' || b` is \x623d..., not the text 'b=\x...')
      else if (
        (lt === OID.bytea && (rt === OID.bytea || untyped(e.rexpr, declared))) ||
        (rt === OID.bytea && untyped(e.lexpr, declared))
      )
        out.set(e.location, 'bytea||');
      else {
        // text || a boolean, a double, a numeric or a date: that side as its cast to text prints it
        // ('x' || true is 'xtrue', not 'x1'; 1.50, not 1.5)
        // (an exact side is text already: avg(x), sum(extract(epoch ...)))
        const a = exactText(e.lexpr, typer, declared, late) ? '' : (textKind(typer, e.lexpr) ?? '');
        const b = exactText(e.rexpr, typer, declared, late) ? '' : (textKind(typer, e.rexpr) ?? '');
        // and PostgreSQL's precedence: `'n=' || 1 + 2` is 'n=3' (SQLite binds || tighter than +)
        out.set(e.location, `txt||${a};${b}`);
      }
    } else if (op === '@>' || op === '<@' || op === '&&') {
      // of arrays (jsonb's otherwise); numeric and boolean elements matched by their values
      if (elementOidOf(typer.type(e.lexpr)) !== undefined || elementOidOf(typer.type(e.rexpr)) !== undefined)
        out.set(e.location, keyed ? `arr:${keyed}` : 'arr');
    } else if (op === '%') {
      // the remainder of a numeric or a double: SQLite's % casts both to integers (7.5 % 2 is 1)
      const l = typer.type(e.lexpr);
      const r = typer.type(e.rexpr);
      // PostgreSQL has no remainder of a double (float8 does not cast to numeric implicitly)
      if (FLOATS.has(l) || FLOATS.has(r))
        throw pgError('42883', `operator does not exist: ${operandName(e.lexpr, l)} % ${operandName(e.rexpr, r)}`);
      if ((NUMBERS.has(l) && !INTS.has(l)) || (NUMBERS.has(r) && !INTS.has(r))) out.set(e.location, 'num%');
    } else if (op === '+' || op === '-' || op === '*' || op === '/') {
      const unknown = untyped(e.lexpr, declared) ? 'l' : untyped(e.rexpr, declared) ? 'r' : null;
      const type = (x: Node) => (x.ParamRef ? (declared[x.ParamRef.number - 1] ?? 0) : typer.type(x));
      const r = type(e.rexpr);
      const l = type(e.lexpr);
      // a string literal minus text or text[] is jsonb's (PostgreSQL's only `-` taking text on the right)
      const jsonbMinus = op === '-' && (l === OID.jsonb || jsonbMinusLiteral(e, r));
      const found = jsonbMinus ? null : placed(() => dateOperator(l, op, r, unknown), e.location);
      // a string literal beside a number is read as that number's type: text that is none is 22P02
      // (`x - 'abc'`; SQLite computed with 0). NaN and infinities are left to the arithmetic below
      const lit = e.lexpr.A_Const?.sval ? e.lexpr : e.rexpr.A_Const?.sval ? e.rexpr : null;
      const beside = lit === e.lexpr ? r : l;
      const text = lit?.A_Const.sval.sval ?? '';
      // (an integer has neither: `i + 'infinity'` is 22P02)
      if (!found && lit && NUMBERS.has(beside) && (INTS.has(beside) || !/^\s*[+-]?(nan|inf(inity)?)\s*$/i.test(text)))
        literalAsNumber(text, beside);
      if (found) out.set(e.location, found.kind);
      else if (op === '-' && l === OID.json)
        throw pgError(
          '42883',
          `operator does not exist: json - ${unknown === 'r' ? 'unknown' : (PG_NAMES[r] ?? 'unknown')}; PostgreSQL has no such operator (cast to jsonb)`,
        );
      // jsonb without a key, keys or an array element (SQLite would subtract numbers: 0)
      else if (jsonbMinus) {
        // (the literal read as jsonb: 22P02 with PostgreSQL's DETAIL where it is none)
        const bad = l === OID.jsonb ? null : jsonInputError(e.lexpr.A_Const.sval.sval ?? '', true);
        if (bad) throw bad;
        out.set(e.location, `jsonb-${INTS.has(r) ? 'int' : elementOidOf(r) !== undefined ? 'arr' : 'text'}`);
      }
      // numeric's NaN (the text NaN) makes them NaN; SQLite's read it as 0. A numeric division
      // divides by a double: SQLite divides two stored integers (a whole NUMERIC, a sum) as integers
      else if (
        (op === '/' && (l === OID.numeric || r === OID.numeric)) ||
        (op !== '/' && numericArithmetic(l, r)) ||
        floatArithmetic(l, r) ||
        untypedNumberOperand(e, unknown, l, r)
      ) {
        // a string literal operand is read as the other operand's type, as PostgreSQL reads it
        // (`f * 'Infinity'`, `f + 'NaN'`: SQLite's operator read that text as 0), 22P02 when it is none
        const literal = unknown === 'l' ? e.lexpr : unknown === 'r' ? e.rexpr : undefined;
        if (literal?.A_Const?.sval !== undefined)
          out.set(
            literal.A_Const.location,
            `num:${literalAsNumber(literal.A_Const.sval.sval ?? '', unknown === 'l' ? r : l)}`,
          );
        // SQLite's own operator where each operand that may be NaN is a column or a parameter
        // (`iif(x IS 'NaN', 'NaN', x + 1)`: no function call per row), the function otherwise
        const [lt, rt] = literal ? (unknown === 'l' ? [r, r] : [l, l]) : [l, r];
        const [a, b] = [nanOperand(e.lexpr, lt), nanOperand(e.rexpr, rt)];
        // (of a double, 'flt': its range checked too, 22003 where PostgreSQL's overflows)
        const kind = FLOATS.has(lt) || FLOATS.has(rt) ? 'flt' : 'num';
        // (a double's quotient through the function always: SQLite's would call __pg_real_divisor anyway)
        if (a === 'expr' || b === 'expr' || (kind === 'flt' && op === '/')) out.set(e.location, `${kind}${op}`);
        else if (a === 'ref' || b === 'ref' || op === '/')
          out.set(e.location, `${kind}${op}:${a === 'ref' ? 'l' : ''}${b === 'ref' ? 'r' : ''}`);
      } else if (intArithmeticMark(op, l, r))
        out.set(e.location, intArithmeticMark(op, l, r) as string); // int-overflow.ts
      else if (op === '/' && intDivisionMark(e, l, r, (x) => typer.type(x)))
        out.set(e.location, intDivisionMark(e, l, r, (x) => typer.type(x)) as string);
    }
  }
  // jsonb IN (SELECT 'x'), = ANY (SELECT textcol ...): a subquery's column of text (a string literal
  // is text there), a number or a boolean beside jsonb is PostgreSQL's 42883 (SQLite compared the text)
  if (
    (n.SubLink?.subLinkType === 'ANY_SUBLINK' || n.SubLink?.subLinkType === 'ALL_SUBLINK') &&
    n.SubLink.testexpr &&
    typer.type(n.SubLink.testexpr) === OID.jsonb
  ) {
    const sub = n.SubLink.subselect?.SelectStmt;
    const item = sub && (sub.op ?? 'SETOP_NONE') === 'SETOP_NONE' ? sub.targetList?.[0]?.ResTarget?.val : undefined;
    const column =
      item?.A_Const?.sval !== undefined || item?.A_Const?.isnull
        ? OID.text
        : item
          ? withSources(typer, sub.fromClause ?? [], ctesOf(sub.withClause, typer.schema)).type(item)
          : 0;
    const op = n.SubLink.operName ? strings(n.SubLink.operName).pop()! : '=';
    if (NOT_BESIDE_JSONB.has(column))
      throw placed(() => noOperator(OID.jsonb, op === '!=' ? '<>' : op, column), n.SubLink.location);
  }
  // x IN (SELECT name ...) of an integer: no such operator (operand-types.ts)
  if (n.SubLink) checkSubqueryOperands(n.SubLink, typer, declared);
  // id = ANY (ARRAY['1', '2']) of an integer: text[], no such operator (operand-types.ts)
  if (n.A_Expr?.kind === 'AEXPR_OP_ANY' || n.A_Expr?.kind === 'AEXPR_OP_ALL')
    checkArrayOfText(n.A_Expr, typer, declared);
  if (n.SubLink?.subLinkType === 'ANY_SUBLINK' && !n.SubLink.operName && n.SubLink.testexpr) {
    // x IN (SELECT ...) of intervals by their length, of numeric and boolean arrays by their
    // elements' values (the mark on IN, or NOT), as an IN list
    const type = typer.type(n.SubLink.testexpr);
    if (type === OID.interval) out.set(n.SubLink.location, 'iv-in');
    else if (groupedKind(type)) out.set(n.SubLink.location, `arr-in:${groupedKind(type)}`);
  }
  // jsonb = ANY (SELECT ...) and <> ALL (SELECT ...), an IN and a NOT IN (the mark on the operator)
  const quantifier = n.SubLink?.operName ? strings(n.SubLink.operName).pop() : undefined;
  if (
    ((n.SubLink?.subLinkType === 'ANY_SUBLINK' && quantifier === '=') ||
      (n.SubLink?.subLinkType === 'ALL_SUBLINK' && quantifier === '<>')) &&
    typer.type(n.SubLink.testexpr) === OID.jsonb
  )
    out.set(n.SubLink.location, 'arr-in:jsonb');
  // to_tsvector of json or jsonb indexes its strings only, not the document's text (translate/text-search-calls.ts)
  if (
    n.FuncCall?.args?.length &&
    strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'to_tsvector' &&
    (typer.type(n.FuncCall.args.at(-1)) === OID.json || typer.type(n.FuncCall.args.at(-1)) === OID.jsonb)
  )
    out.set(n.FuncCall.location, 'call:__pg_json_string_to_tsvector');
  // length(tsvector) counts its lexemes (translate/text-search-calls.ts); SQLite's counted its text
  if (
    n.FuncCall?.args?.length === 1 &&
    strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'length' &&
    typer.type(n.FuncCall.args[0]) === OID.tsvector
  )
    out.set(n.FuncCall.location, 'call:__pg_tsvector_length');
  // ts_headline without a configuration (document, query [, options]): the default configuration's
  // call (translate/text-search-calls.ts); of json or jsonb (its strings highlighted) Patina has not
  // ts_delete of an array of lexemes (of one lexeme, a string literal among them, it is the text's)
  if (
    n.FuncCall?.args?.length === 2 &&
    strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'ts_delete' &&
    elementOidOf(typer.type(n.FuncCall.args[1])) !== undefined
  )
    out.set(n.FuncCall.location, 'call:__pg_ts_delete_arr');
  // unnest of a tsvector gives rows of (lexeme, positions, weights), which Patina has not: it would unnest its text
  if (
    n.FuncCall?.args?.length === 1 &&
    strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'unnest' &&
    typer.type(n.FuncCall.args[0]) === OID.tsvector
  )
    throw placed(
      () => pgError('0A000', 'unnest of a tsvector is not supported: unnest(tsvector_to_array(...)) gives its lexemes'),
      n.FuncCall.location,
    );
  if (n.FuncCall?.args?.length >= 2 && strings(n.FuncCall.funcname).pop()?.toLowerCase() === 'ts_headline') {
    const args: Node[] = n.FuncCall.args;
    // (three arguments: (config, document, query) or (document, query, options), by their types)
    const unknownArg = (a: Node) => untyped(a, declared) || a?.A_Const?.isnull === true;
    if (args.length === 3 && args.every(unknownArg))
      throw placed(() => {
        const err = pgError('42725', 'function ts_headline(unknown, unknown, unknown) is not unique');
        err.hint = 'Could not choose a best candidate function. You might need to add explicit type casts.';
        return err;
      }, n.FuncCall.location);
    const first = unknownArg(args[0]) ? 0 : typer.type(args[0]);
    const configured =
      args.length === 4 ||
      (args.length === 3 &&
        typer.type(args[1]) !== OID.tsquery &&
        !new Set<number>([OID.text, OID.varchar, OID.bpchar, OID.json, OID.jsonb]).has(first));
    const doc = typer.type(args[configured ? 1 : 0]);
    if (doc === OID.json || doc === OID.jsonb)
      throw placed(
        () => pgError('0A000', 'ts_headline of json or jsonb is not supported: pass the text of its strings'),
        n.FuncCall.location,
      );
    if (!configured) out.set(n.FuncCall.location, 'call:__pg_ts_headline_d');
  }
  if (n.FuncCall?.args && TEXT_FUNCTIONS.has(strings(n.FuncCall.funcname).pop()?.toLowerCase() ?? '')) {
    // concat(true, -2::float8) is 't-2': each argument as PostgreSQL prints its type
    // (these print a boolean with its output function: t and f, where a cast to text says true and
    // false, as quote_literal's, which casts its value to text: quote_literal(1.50) is '1.50')
    const cast = /^quote_/.test(strings(n.FuncCall.funcname).pop()?.toLowerCase() ?? '');
    const kinds = outputKinds(n.FuncCall.args, typer, declared, late, !cast);
    if (kinds.some((k) => k !== '-')) out.set(n.FuncCall.location, `textargs:${kinds.join(',')}`);
  }
  // string_agg of bytea joins bytes (bytea-values.ts); a bytea or an array in a json builder is
  // JSON as PostgreSQL writes it (json-builders.ts)
  // (an avg or numeric division there computed exactly, as text: its marks into `late`; also
  // coalesce or CASE of one, `coalesce(avg(price), 0)`, and a scalar subquery's one such column,
  // `(SELECT avg(price) FROM t)`)
  const exactValue = (a: Node) => {
    const inner = a?.SubLink?.subLinkType === 'EXPR_SUBLINK' ? a.SubLink.subselect?.SelectStmt : undefined;
    if (inner?.targetList?.length === 1) {
      const marks = new Map<number, string>();
      const exact = markExactColumns(inner, (q) => withSources(t, q.fromClause ?? []), marks, declared);
      for (const [at, kind] of marks) late.set(at, kind);
      return exact.size === 1;
    }
    const marks = exactMarks(a, t, declared) ?? exactChoice(a, t, declared);
    for (const [at, kind] of marks ?? []) late.set(at, kind);
    return marks !== null;
  };
  // a string function of a number, round(double, n), sum of text: no such function (function-arguments.ts)
  const noFunction = n.FuncCall ? noFunctionFor(n.FuncCall, t) : undefined;
  if (noFunction) placed(() => noFunction, n.FuncCall.location);
  // array_fill(x, ARRAY[$1]) of text dimensions, or of an unknown value (array-fill.ts)
  const fill = n.FuncCall ? arrayFillError(n.FuncCall, t, declared) : undefined;
  if (fill) throw fill;
  const bytea = n.FuncCall ? (byteaCallMark(n.FuncCall, t) ?? builderValueMark(n.FuncCall, t, exactValue)) : undefined;
  if (bytea) out.set(n.FuncCall.location, bytea);
  if (n.SelectStmt) {
    // a subquery in FROM sees the enclosing queries' sources, not its siblings' (but LATERAL):
    // with them, `iv` of `FROM (SELECT DISTINCT iv FROM t) s` was ambiguous, of no type
    const from = (x: Node): void => {
      if (x?.RangeSubselect && !x.RangeSubselect.lateral) walk(x, typer, out, declared, late);
      else if (x?.JoinExpr) {
        from(x.JoinExpr.larg);
        from(x.JoinExpr.rarg);
        walk(x.JoinExpr.quals, t, out, declared, late);
      } else walk(x, t, out, declared, late);
    };
    for (const k in n.SelectStmt) {
      if (k === 'fromClause') for (const x of n.SelectStmt.fromClause) from(x);
      // a set operation's members: each a SELECT of its own sources (they were typed by none)
      else if (k === 'larg' || k === 'rarg') walk({ SelectStmt: n.SelectStmt[k] }, typer, out, declared, late);
      else if (k !== 'location') walk(n.SelectStmt[k], t, out, declared, late);
    }
    return;
  }
  for (const k in n) if (k !== 'location') walk(n[k], t, out, declared, late);
}
