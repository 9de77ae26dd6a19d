// stddev and variance of integers and numerics as PostgreSQL computes them (numeric.c's
// numeric_stddev_internal): exact sums of x and x² (BigInt), then (N·Σx² − (Σx)²) / (N·(N−1)) at the
// scale select_div_scale picks, rounded, and its square root at that scale, given back as text
// with PostgreSQL's digits (`stddev` of 1, 2, 3, 4 is 1.2909944487358056). The PG front end uses
// them only where a result column is such an aggregate itself, as the exact avg
// (pg-exact-division.ts): text would compare and sort as text inside SQLite.
import type Database from 'better-sqlite3';
import { divScale, divideText, scaledOf, special } from './pg-exact-division';
import { lookup } from '../lookup';

interface Scaled {
  digits: bigint;
  scale: number;
}

/** Count, Σx and Σx² of the inputs, exactly; how many were NaN or infinite (any makes the answer NaN). */
interface Sums {
  n: bigint;
  sx: Scaled;
  sxx: Scaled;
  nan: number;
}

const isNaNText = (v: unknown) => typeof v === 'string' && v.trim().toLowerCase() === 'nan';

function add(a: Scaled, b: Scaled, sign: bigint): Scaled {
  const scale = Math.max(a.scale, b.scale);
  return {
    digits: a.digits * 10n ** BigInt(scale - a.scale) + sign * b.digits * 10n ** BigInt(scale - b.scale),
    scale,
  };
}

const mul = (a: Scaled, b: Scaled): Scaled => ({ digits: a.digits * b.digits, scale: a.scale + b.scale });

/** The integer square root of n ≥ 0 (Newton's, on BigInt). */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) {
      // Newton's from a double's guess may stop one off either way
      while (x * x > n) x--;
      while ((x + 1n) * (x + 1n) <= n) x++;
      return x;
    }
    x = y;
  }
}

/** sqrt(v) rounded half away from zero to `scale` digits, as text. */
function sqrtText(v: Scaled, scale: number): string {
  // sqrt(D·10^-s) = sqrt(D·10^(2k - s))·10^-k with k = scale + 1: one digit more, then rounded
  const k = scale + 1;
  const e = 2 * k - v.scale;
  const r = isqrt(e >= 0 ? v.digits * 10n ** BigInt(e) : v.digits / 10n ** BigInt(-e));
  const q = (r + 5n) / 10n;
  const s = q.toString().padStart(scale + 1, '0');
  return scale > 0 ? `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}` : s;
}

/** numeric_stddev_internal: the variance or its root, sample or population, as text; null when too few rows. */
function result(st: Sums, variance: boolean, sample: boolean): string | null {
  // too few rows is NULL even when one is NaN, as PostgreSQL answers
  if (st.n + BigInt(st.nan) <= (sample ? 1n : 0n)) return null;
  if (st.nan > 0) return 'NaN';
  const n: Scaled = { digits: st.n, scale: 0 };
  const numerator = add(mul(n, st.sxx), mul(st.sx, st.sx), -1n);
  if (numerator.digits <= 0n) return '0';
  const den: Scaled = { digits: st.n * (sample ? st.n - 1n : st.n), scale: 0 };
  const scale = divScale(numerator, den);
  const v = divideText(numerator, den, scale);
  if (variance) return v;
  const [int, frac = ''] = v.split('.');
  return sqrtText({ digits: BigInt(int + frac), scale: frac.length }, scale);
}

const FORMS: Record<string, [variance: boolean, sample: boolean]> = lookup({
  stddev: [false, true],
  stddev_samp: [false, true],
  stddev_pop: [false, false],
  variance: [true, true],
  var_samp: [true, true],
  var_pop: [true, false],
});

/** __pg_numeric_stddev, __pg_numeric_var_pop and the others (also window functions). */
export function installExactStatistics(db: Database.Database): void {
  const step = (sign: bigint) => (st: Sums, v: unknown) => {
    if (v === null) return st;
    // (an infinite input makes the answer NaN too, as numeric_stddev_internal's)
    if (isNaNText(v) || special(v) !== null) return { ...st, nan: st.nan + Number(sign) };
    const x = scaledOf(v)!;
    return { n: st.n + sign, sx: add(st.sx, x, sign), sxx: add(st.sxx, mul(x, x), sign), nan: st.nan };
  };
  for (const [name, [variance, sample]] of Object.entries(FORMS))
    db.aggregate(`__pg_numeric_${name}`, {
      safeIntegers: true,
      start: () => ({ n: 0n, sx: { digits: 0n, scale: 0 }, sxx: { digits: 0n, scale: 0 }, nan: 0 }) as Sums,
      step: step(1n),
      inverse: step(-1n),
      result: (st: Sums) => result(st, variance, sample),
    } as never);
}
