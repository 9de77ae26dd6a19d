import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';
import { decimalText, parseDecimal } from './decimal';
import { scaledOf } from './pg-exact-division';

// PostgreSQL's math functions of a double (and numeric's of the same names) that SQLite has too but
// answers otherwise: SQLite's make a NaN argument or result NULL (acos(2) is NULL, ln(0) NULL, and
// the PG front end's NaN, kept as the text NaN, reads as 0: abs('NaN'::float8) was 0), where
// PostgreSQL computes NaN of NaN and raises its errors for what has no value (22003 `input is out
// of range`, 2201E `cannot take logarithm of zero`). The PG front end calls these as __pg_math_<name>
// (protocols/pg/sql/translate/words.ts renames the calls); SQLite's own stay as they are for the
// HTTP API's SQL. NULL in, NULL out; a NaN result is the text NaN, as the front end keeps it.

/** A NaN as the PG front end keeps it (SQLite makes a NaN double NULL). */
const NAN = 'NaN';

type Out = number | bigint | string | null;

const outOfRange = () => sqlStateError('22003', 'input is out of range');
const overflow = () => sqlStateError('22003', 'value out of range: overflow');
const underflow = () => sqlStateError('22003', 'value out of range: underflow');

/** An argument as a double: integers, doubles, numeric text (its NaN, Infinity) as PostgreSQL reads them. */
function double(x: unknown, type = 'double precision'): number {
  if (typeof x === 'number') return x;
  if (typeof x === 'bigint') return Number(x);
  const s = String(x).trim().toLowerCase();
  if (s === 'nan') return Number.NaN;
  if (/^[+-]?inf(inity)?$/.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(s)) return Number(s);
  throw sqlStateError('22P02', `invalid input syntax for type ${type}: "${String(x)}"`);
}

/** A double result as the front end keeps it: NaN as its text. */
const result = (v: number): number | string => (Number.isNaN(v) ? NAN : v);

/** ln and log10: 2201E for zero and negative numbers (-Infinity too), NaN of NaN. */
function logarithm(x: number, f: (v: number) => number): number {
  if (x === 0) throw sqlStateError('2201E', 'cannot take logarithm of zero');
  if (x < 0) throw sqlStateError('2201E', 'cannot take logarithm of a negative number');
  return f(x);
}

/** sin, cos, tan, cot: NaN of NaN, 22003 for an infinity. */
function trig(f: (v: number) => number): (x: number) => number {
  return (x) => {
    if (Number.isNaN(x)) return x;
    if (!Number.isFinite(x)) throw outOfRange();
    return f(x);
  };
}

/** exp as PostgreSQL's dexp: exp(-Infinity) is 0, a finite argument past a double's range 22003. */
function exp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === -Infinity) return 0;
  const v = Math.exp(x);
  if (!Number.isFinite(v)) throw overflow();
  if (v === 0) throw underflow();
  return v;
}

/** log(b, x) (numeric's): of NaN NaN, 2201E for zero and negatives, 22012 for base 1, log(Inf, Inf) NaN. */
function logBase(b: number, x: number): number {
  if (Number.isNaN(b) || Number.isNaN(x)) return Number.NaN;
  // (with an infinity a negative operand is looked at first, else the base's ln fails first, as numeric.c's)
  const special = !Number.isFinite(b) || !Number.isFinite(x);
  for (const v of special ? [Math.min(b, x)] : [b, x]) logarithm(v, (y) => y);
  if (special && (b === 0 || x === 0)) throw sqlStateError('2201E', 'cannot take logarithm of zero');
  if (b === Infinity) return x === Infinity ? Number.NaN : 0;
  if (x === Infinity) return Infinity;
  if (b === 1) throw sqlStateError('22012', 'division by zero');
  // (log10's quotient: log(10, 1000) is exactly 3, where ln's is 2.9999999999999996)
  return Math.log10(x) / Math.log10(b);
}

/** Functions of one double. */
const UNARY: Record<string, (x: number) => number> = {
  acos: (x) => {
    if (x < -1 || x > 1) throw outOfRange();
    return Math.acos(x);
  },
  asin: (x) => {
    if (x < -1 || x > 1) throw outOfRange();
    return Math.asin(x);
  },
  atan: Math.atan,
  acosh: (x) => {
    if (x < 1) throw outOfRange();
    return Math.acosh(x);
  },
  asinh: Math.asinh,
  atanh: (x) => {
    if (x < -1 || x > 1) throw outOfRange();
    return x === 1 ? Infinity : x === -1 ? -Infinity : Math.atanh(x);
  },
  sin: trig(Math.sin),
  cos: trig(Math.cos),
  tan: trig(Math.tan),
  cot: trig((x) => 1 / Math.tan(x)),
  sinh: Math.sinh,
  cosh: Math.cosh,
  tanh: Math.tanh,
  cbrt: Math.cbrt,
  degrees: (x) => {
    const v = x / (Math.PI / 180);
    if (!Number.isFinite(v) && Number.isFinite(x)) throw overflow();
    return v;
  },
  radians: (x) => x * (Math.PI / 180),
  exp,
  ln: (x) => logarithm(x, Math.log),
  log10: (x) => logarithm(x, Math.log10),
  sqrt: (x) => {
    if (x < 0) throw sqlStateError('2201F', 'cannot take square root of a negative number');
    return Math.sqrt(x);
  },
};

/** ceil, floor and abs: integers stay integers (exactly, as SQLite's), NaN stays NaN. */
function integral(name: 'ceil' | 'floor' | 'abs', x: unknown): Out {
  if (typeof x === 'bigint') {
    if (name !== 'abs' || x >= 0n) return x;
    if (x === -(2n ** 63n)) throw sqlStateError('22003', 'bigint out of range');
    return -x;
  }
  const v = double(x);
  return result(name === 'ceil' ? Math.ceil(v) : name === 'floor' ? Math.floor(v) : Math.abs(v));
}

/**
 * mod(a, b): integers exactly (22012 by zero), numerics as decimals (the remainder of the operands'
 * digits, a double by its 15 significant digits: mod(0.3, 0.1) is 0, not 0.09999999999999998);
 * NaN of NaN, NaN of an infinite dividend, the dividend itself for an infinite divisor.
 */
function mod(a: unknown, b: unknown): Out {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (b === 0n) throw sqlStateError('22012', 'division by zero');
    return a % b;
  }
  const x = double(a);
  const y = double(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return NAN;
  if (y === 0) throw sqlStateError('22012', 'division by zero');
  if (!Number.isFinite(x)) return NAN;
  if (!Number.isFinite(y)) return x;
  const p = scaledOf(a);
  const q = scaledOf(b);
  if (!p || !q) return x % y;
  const scale = Math.max(p.scale, q.scale);
  const r = (p.digits * 10n ** BigInt(scale - p.scale)) % (q.digits * 10n ** BigInt(scale - q.scale));
  return Number(`${r}e-${scale}`);
}

/** sign: -1, 0 or 1; a double's NaN is 0 (PostgreSQL's dsign: NaN is neither above nor below 0). */
function sign(x: unknown): Out {
  if (typeof x === 'bigint') return x > 0n ? 1n : x < 0n ? -1n : 0n;
  const v = double(x);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/** trunc(x): toward zero, integers as they are, NaN NaN. */
function trunc(x: unknown): Out {
  return typeof x === 'bigint' ? x : result(Math.trunc(double(x)));
}

/** trunc(x, n): cut toward zero at n digits after the point (before it for a negative n); NaN NaN. */
export function truncAt(x: unknown, n: unknown): number | string {
  const v = double(x, 'numeric');
  const k = Number(n);
  if (Number.isNaN(v)) return NAN;
  if (k < 0) return Math.trunc(v / 10 ** -k) * 10 ** -k;
  const d = (typeof x === 'string' ? parseDecimal(x) : null) ?? parseDecimal(String(v));
  return d ? Number(decimalText({ ...d, frac: d.frac.slice(0, k) })) : v;
}

const powerError = (message: string) => sqlStateError('2201F', message);

/**
 * x ^ y as PostgreSQL's dpow (POSIX pow): NaN ^ 0 and 1 ^ NaN are 1, other NaN operands NaN; 0 to
 * a negative power and a negative number to a fraction 2201F; a finite result past a double's
 * range 22003. (JavaScript's 1 ** NaN is NaN; SQLite's power made NaN NULL.)
 */
function power(x: number, y: number): number {
  if (Number.isNaN(x)) return Number.isNaN(y) || y !== 0 ? Number.NaN : 1;
  if (Number.isNaN(y)) return x !== 1 ? Number.NaN : 1;
  if (x === 0 && y < 0) throw powerError('zero raised to a negative power is undefined');
  if (x < 0 && Math.floor(y) !== y)
    throw powerError('a negative number raised to a non-integer power yields a complex result');
  if (!Number.isFinite(y)) {
    const ax = Math.abs(x);
    if (ax === 1) return 1;
    return y > 0 ? (ax > 1 ? y : 0) : ax > 1 ? 0 : -y;
  }
  if (!Number.isFinite(x)) {
    if (y === 0) return 1;
    if (x > 0) return y > 0 ? x : 0;
    const odd = Math.floor(y / 2) !== y / 2;
    return y > 0 ? (odd ? x : -x) : odd ? -0 : 0;
  }
  const v = x ** y;
  if (!Number.isFinite(v)) throw overflow();
  if (v === 0 && x !== 0) throw underflow();
  return v;
}

/**
 * The functions whose value is the C library's (as PostgreSQL's, which calls it): the translation
 * passes SQLite's own result after the arguments (`__pg_math_sin(x, sin(x))`; cot's as 1.0 / tan(x)),
 * taken when both it and this file's are finite numbers. JavaScript's Math differs from glibc's in
 * the last digit now and then (sin(-2.5) is -0.5984721441039564 here, -0.5984721441039565 there);
 * the checks and the NaN, infinite and error cases are this file's. The others are exact here
 * (floor, abs, mod, ...) or computed as PostgreSQL computes them, not as SQLite's (degrees).
 */
const SQLITE_VALUED: Record<string, string> = {
  ...Object.fromEntries(
    'acos asin atan acosh asinh atanh sin cos tan sinh cosh tanh exp ln log10 log atan2 power pow'
      .split(' ')
      .map((f) => [f, f]),
  ),
  cot: '1.0 / tan',
};

/** SQLite's spelling of PostgreSQL's function `name` whose value the translation passes on, or undefined. */
export const sqliteValued = (name: string): string | undefined =>
  Object.hasOwn(SQLITE_VALUED, name) ? SQLITE_VALUED[name] : undefined;

/**
 * A double's `+`, `-`, `*` and `/` as PostgreSQL's float8pl and its kin (float.h): NaN of NaN,
 * 22012 dividing by zero (not NaN), and 22003 `value out of range: overflow` for an infinite result
 * of finite operands, `underflow` for a zero product or quotient of nonzero ones (SQLite's gave
 * Infinity and 0). Infinities in are the IEEE answer (Infinity - Infinity NaN).
 */
export function floatArith(op: string, x: number, y: number): number {
  if (op === '/' && y === 0 && !Number.isNaN(x)) throw sqlStateError('22012', 'division by zero');
  const v = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : x / y;
  const finiteIn = op === '/' ? Number.isFinite(x) || Number.isNaN(x) : !isInfinite(x) && !isInfinite(y);
  if (isInfinite(v) && finiteIn) throw overflow();
  if (v === 0 && (op === '*' ? x !== 0 && y !== 0 : op === '/' ? x !== 0 && !isInfinite(y) : false)) throw underflow();
  return v;
}

const isInfinite = (v: number) => v === Infinity || v === -Infinity;

export function installPgFloatMath(db: Database.Database): void {
  const fn = (name: string, f: (...args: unknown[]) => Out) => {
    const valued = sqliteValued(name.slice('__pg_math_'.length)) !== undefined;
    db.function(name, { deterministic: true, varargs: true, safeIntegers: true }, (...args: unknown[]) => {
      // (the last argument of a valued one is SQLite's result, NULL where its function had no value)
      const r = valued ? args.pop() : undefined;
      if (args.some((a) => a === null || a === undefined)) return null;
      const v = f(...args);
      return (
        typeof r === 'number' && Number.isFinite(r) && typeof v === 'number' && Number.isFinite(v) ? r : v
      ) as never;
    });
  };
  for (const [name, f] of Object.entries(UNARY)) fn(`__pg_math_${name}`, (x) => result(f(double(x))));
  fn('__pg_math_atan2', (y, x) => result(Math.atan2(double(y), double(x))));
  // log(x) is log10(x); log(b, x) numeric's logarithm to base b
  fn('__pg_math_log', (...args) =>
    result(args.length === 2 ? logBase(double(args[0]), double(args[1])) : UNARY.log10(double(args[0]))),
  );
  fn('__pg_math_ceil', (x) => integral('ceil', x));
  fn('__pg_math_ceiling', (x) => integral('ceil', x));
  fn('__pg_math_floor', (x) => integral('floor', x));
  fn('__pg_math_abs', (x) => integral('abs', x));
  fn('__pg_math_mod', mod);
  fn('__pg_math_sign', sign);
  fn('__pg_math_trunc', (x, n) => (n === undefined ? trunc(x) : truncAt(x, n)));
  fn('__pg_math_power', (x, y) => result(power(double(x), double(y))));
  fn('__pg_math_pow', (x, y) => result(power(double(x), double(y))));
  // a double's arithmetic of an operand that is an expression (translate/typed-arithmetic.ts); SQLite's
  // own operator runs for columns and numbers, behind tests
  for (const [name, op] of [
    ['add', '+'],
    ['sub', '-'],
    ['mul', '*'],
    ['div', '/'],
  ])
    fn(`__pg_float_${name}`, (x, y) => result(floatArith(op, double(x), double(y))));
  // SQLite's result of columns or numbers (the last argument) where it is infinite or zero: PostgreSQL's
  // 22003 when the operands make that an overflow or underflow, else that result
  db.function('__pg_float_check', { deterministic: true, safeIntegers: true }, (op, x, y, v) => {
    if (x !== null && y !== null) floatArith(String(op), double(x), double(y));
    return v as never;
  });
}

/** The calls words.ts gives these names (by their lower-case PostgreSQL name). */
export const PG_FLOAT_MATH = [
  ...Object.keys(UNARY),
  ...['atan2', 'log', 'ceil', 'ceiling', 'floor', 'abs', 'mod', 'sign', 'trunc', 'power', 'pow'],
];
