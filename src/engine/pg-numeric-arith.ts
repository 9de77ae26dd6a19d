import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';

// numeric's `+`, `-`, `*`, unary `-`, sum() and avg() with PostgreSQL's NaN (and Infinity, a REAL
// infinity in SQLite: Infinity - Infinity is NaN, as there, where SQLite's gives NULL): the PG front end keeps
// a numeric NaN as the text NaN (SQLite makes a NaN double NULL), which SQLite's own operators and
// sum() read as 0 ('NaN'::numeric + 1 was 1). These give NaN for a NaN operand or input, and what
// SQLite's own give otherwise: integers exactly (a result past 64 bits becomes a double, as SQLite
// makes it), doubles as doubles, and sum()/avg() with SQLite's Kahan-Babuska-Neumaier summation
// (func.c), step for step, so that their digits do not change. The PG front end calls them where the
// parse tree types an operand numeric (protocols/pg/sql/typed-operators.ts).

const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;
/** 2^52: past it SQLite's summation splits an integer in two (kahanBabuskaNeumaierStepInt64). */
const SPLIT = 4503599627370496n;
const NUMBER_PREFIX = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/;

type Operand = bigint | number | 'NaN' | null;

/** numeric's NaN as the PG front end stores it. */
export const isNaNText = (v: unknown): boolean => typeof v === 'string' && /^\s*nan\s*$/i.test(v);

/** A value as SQLite's arithmetic reads it (text as its leading number, an integer exactly), or NaN. */
function operand(v: unknown): Operand {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  const s = Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
  if (isNaNText(s)) return 'NaN';
  if (/^\s*[+-]?\d+\s*$/.test(s)) {
    const n = BigInt(s.trim());
    if (n >= INT8_MIN && n <= INT8_MAX) return n;
  }
  const m = NUMBER_PREFIX.exec(s);
  return m ? Number(m[0]) : 0;
}

type Op = '+' | '-' | '*';

function arith(op: Op, a: unknown, b: unknown): bigint | number | string | null {
  const x = operand(a);
  const y = operand(b);
  if (x === null || y === null) return null;
  if (x === 'NaN' || y === 'NaN') return 'NaN';
  if (typeof x === 'bigint' && typeof y === 'bigint') {
    const r = op === '+' ? x + y : op === '-' ? x - y : x * y;
    if (r >= INT8_MIN && r <= INT8_MAX) return r;
  }
  const fx = Number(x);
  const fy = Number(y);
  const r = op === '+' ? fx + fy : op === '-' ? fx - fy : fx * fy;
  // (Infinity - Infinity, Infinity * 0: numeric's NaN; SQLite would make a NaN double NULL)
  return Number.isNaN(r) ? 'NaN' : r;
}

/** SQLite's SumCtx: an exact integer sum until a double or an overflow, then a compensated double sum. */
interface Sum {
  cnt: number;
  nan: number;
  /** Infinities summed (kept out of the double sum, from which a window could not take them back). */
  pinf: number;
  ninf: number;
  approx: boolean;
  ovrfl: boolean;
  iSum: bigint;
  rSum: number;
  rErr: number;
}

const start = (): Sum => ({
  cnt: 0,
  nan: 0,
  pinf: 0,
  ninf: 0,
  approx: false,
  ovrfl: false,
  iSum: 0n,
  rSum: 0,
  rErr: 0,
});

/** +1 or -1 for an infinite operand, else 0. */
const infinite = (x: bigint | number): number => (typeof x === 'number' && !Number.isFinite(x) ? Math.sign(x) : 0);

/** A sum's or avg's special answer (NaN, Infinity, -Infinity, as numeric's), null when it is a number. */
function specialResult(p: Sum): string | null {
  if (p.nan > 0 || (p.pinf > 0 && p.ninf > 0)) return 'NaN';
  return p.pinf > 0 ? 'Infinity' : p.ninf > 0 ? '-Infinity' : null;
}

function kbnStep(p: Sum, r: number): void {
  const s = p.rSum;
  const t = s + r;
  if (Math.abs(s) > Math.abs(r)) p.rErr += s - t + r;
  else p.rErr += r - t + s;
  p.rSum = t;
}

function kbnStepInt(p: Sum, v: bigint): void {
  if (v <= -SPLIT || v >= SPLIT) {
    const small = v % 16384n;
    kbnStep(p, Number(v - small));
    kbnStep(p, Number(small));
  } else kbnStep(p, Number(v));
}

function kbnInit(p: Sum, v: bigint): void {
  if (v <= -SPLIT || v >= SPLIT) {
    const small = v % 16384n;
    p.rSum = Number(v - small);
    p.rErr = Number(small);
  } else {
    p.rSum = Number(v);
    p.rErr = 0;
  }
}

function sumStep(p: Sum, v: unknown): Sum {
  const x = operand(v);
  if (x === null) return p;
  if (x === 'NaN') {
    p.nan++;
    return p;
  }
  p.cnt++;
  if (infinite(x) !== 0) {
    if (infinite(x) > 0) p.pinf++;
    else p.ninf++;
    return p;
  }
  if (!p.approx) {
    if (typeof x !== 'bigint') {
      kbnInit(p, p.iSum);
      p.approx = true;
      kbnStep(p, x);
    } else {
      const s = p.iSum + x;
      if (s >= INT8_MIN && s <= INT8_MAX) p.iSum = s;
      else {
        p.ovrfl = true;
        kbnInit(p, p.iSum);
        p.approx = true;
        kbnStepInt(p, x);
      }
    }
  } else if (typeof x === 'bigint') kbnStepInt(p, x);
  else {
    p.ovrfl = false;
    kbnStep(p, x);
  }
  return p;
}

function sumInverse(p: Sum, v: unknown): Sum {
  const x = operand(v);
  if (x === null) return p;
  if (x === 'NaN') {
    p.nan--;
    return p;
  }
  p.cnt--;
  if (infinite(x) !== 0) {
    if (infinite(x) > 0) p.pinf--;
    else p.ninf--;
    return p;
  }
  if (!p.approx) {
    const s = p.iSum - (typeof x === 'bigint' ? x : BigInt(Math.trunc(x)));
    if (s >= INT8_MIN && s <= INT8_MAX) p.iSum = s;
    else {
      p.ovrfl = true;
      p.approx = true;
    }
  } else if (typeof x === 'bigint') kbnStepInt(p, -x);
  else kbnStep(p, -x);
  return p;
}

/** The sum as SQLite's sumFinalize gives it; NaN when a NaN was summed. */
function sumResult(p: Sum): bigint | number | string | null {
  if (p.nan > 0) return 'NaN';
  if (p.cnt <= 0) return null;
  // (Infinity and -Infinity summed: numeric's NaN; SQLite's sum would be NULL)
  const inf = specialResult(p);
  if (inf !== null) return inf;
  if (!p.approx) return p.iSum;
  if (p.ovrfl) throw new Error('integer overflow');
  return Number.isFinite(p.rErr) ? p.rSum + p.rErr : p.rSum;
}

/** The average as SQLite's avgFinalize gives it (a double); NaN when a NaN was among the inputs. */
function avgResult(p: Sum): number | string | null {
  if (p.nan > 0) return 'NaN';
  if (p.cnt <= 0) return null;
  const inf = specialResult(p);
  if (inf !== null) return inf;
  const r = !p.approx ? Number(p.iSum) : Number.isFinite(p.rErr) ? p.rSum + p.rErr : p.rSum;
  return r / p.cnt;
}

/** __pg_num_add/sub/mul/neg and the __pg_numeric_sum and __pg_numeric_avg_double aggregates (also window functions). */
export function installNumericArithmetic(db: Database.Database): void {
  const opts = { deterministic: true, safeIntegers: true };
  db.function('__pg_num_add', opts, (a: unknown, b: unknown) => arith('+', a, b) as number);
  db.function('__pg_num_sub', opts, (a: unknown, b: unknown) => arith('-', a, b) as number);
  db.function('__pg_num_mul', opts, (a: unknown, b: unknown) => arith('*', a, b) as number);
  db.function('__pg_num_neg', opts, (a: unknown) => {
    const x = operand(a);
    if (x === null || x === 'NaN') return x as never;
    return (typeof x === 'bigint' && x !== INT8_MIN ? -x : -Number(x)) as never;
  });
  // a numeric division: as a double (SQLite divides two integers as integers), NaN of NaN, 22012 by zero
  db.function('__pg_num_div', opts, (a: unknown, b: unknown) => {
    const x = operand(a);
    const y = operand(b);
    if (x === null || y === null) return null;
    if (x === 'NaN' || y === 'NaN') return 'NaN' as never;
    if (Number(y) === 0) throw sqlStateError('22012', 'division by zero');
    const r = Number(x) / Number(y);
    return (Number.isNaN(r) ? 'NaN' : r) as never;
  });
  // a ^ b with a or b NaN, as PostgreSQL's numeric_power (POSIX pow): NaN ^ 0 and 1 ^ NaN are 1, the rest NaN
  db.function('__pg_nan_power', opts, (a: unknown, b: unknown) => {
    const x = operand(a);
    const y = operand(b);
    if (x === null || y === null) return null;
    if (x === 'NaN') return (y !== 'NaN' && Number(y) === 0 ? 1 : 'NaN') as never;
    if (y === 'NaN') return (Number(x) === 1 ? 1 : 'NaN') as never;
    return null;
  });
  for (const [name, result] of [
    ['__pg_numeric_sum', sumResult],
    ['__pg_numeric_avg_double', avgResult],
  ] as const)
    db.aggregate(name, {
      safeIntegers: true,
      start,
      step: sumStep,
      inverse: sumInverse,
      result: result as (p: Sum) => number,
    });
}
