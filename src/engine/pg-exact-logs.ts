// PostgreSQL's numeric exp, ln, log, log10 and sqrt (numeric.c's numeric_exp, numeric_ln,
// numeric_log, numeric_sqrt), exactly: the result scale PostgreSQL picks from the argument (at least
// 16 significant digits, at least the argument's scale: exp(0::numeric) is 1.0000000000000000,
// sqrt(2::numeric) 1.414213562373095) and its digits, rounded half away from zero, given back as
// text. Computed in fixed point with guard digits (pg-exact-power.ts's ln and exp). The PG front end
// uses them where an exact value may be (sql/exact-columns.ts: a result column, a value made
// text); elsewhere the same calls are doubles (src/engine/pg-float-math.ts).
import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';
import { atScale, scaledOf } from './pg-exact-division';
import { expFixed, fixed, isqrt, lnOf, nbase } from './pg-exact-power';

/** A decimal as digits × 10^-scale. */
interface Scaled {
  digits: bigint;
  scale: number;
}

const MIN_SIG_DIGITS = 16;
const MAX_DISPLAY_SCALE = 1000;
const MAX_RESULT_SCALE = 2000;
/** Guard digits past the result's scale. */
const GUARD = 30;

const pow10 = (n: number): bigint => 10n ** BigInt(n);
/** A result scale kept within numeric's display range. */
const clampScale = (s: number, ...atLeast: number[]) => Math.min(Math.max(s, ...atLeast, 0), MAX_DISPLAY_SCALE);

const logOfZero = () => sqlStateError('2201E', 'cannot take logarithm of zero');
const logOfNegative = () => sqlStateError('2201E', 'cannot take logarithm of a negative number');

/** NaN, Infinity or -Infinity of a value, else null. */
function special(v: unknown): 'NaN' | 'Infinity' | '-Infinity' | null {
  if (typeof v === 'number')
    return Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : null;
  if (typeof v !== 'string') return null;
  const s = v.trim().toLowerCase();
  if (s === 'nan') return 'NaN';
  return /^[+]?inf(inity)?$/.test(s) ? 'Infinity' : /^-inf(inity)?$/.test(s) ? '-Infinity' : null;
}

/** numeric.c's estimate_ln_dweight: about the decimal weight of ln(x), from x's first digits. */
function lnDweight(x: Scaled): number {
  if (x.digits <= 0n) return 0;
  const one = pow10(x.scale);
  // 0.9 <= x <= 1.1: ln(x) is about x - 1, whose first digit tells
  if (x.digits * 10n >= 9n * one && x.digits * 10n <= 11n * one) {
    const d = nbase({ digits: x.digits - one, scale: x.scale });
    return d.digits.length === 0 ? 0 : d.weight * 4 + Math.trunc(Math.log10(d.digits[0]));
  }
  const nb = nbase(x);
  let digits = nb.digits[0];
  let dweight = nb.weight * 4;
  if (nb.digits.length > 1) {
    digits = digits * 10000 + nb.digits[1];
    dweight -= 4;
  }
  return Math.trunc(Math.log10(Math.abs(Math.log(digits) + dweight * 2.302585092994046)));
}

/** A positive decimal's ln at scale w, 2201E for zero or a negative number. */
function lnChecked(x: Scaled, w: number): bigint {
  if (x.digits === 0n) throw logOfZero();
  if (x.digits < 0n) throw logOfNegative();
  return lnOf(x, w);
}

/** exp(x) of a numeric. */
export function numericExp(v: unknown): string | number {
  const sp = special(v);
  if (sp === 'NaN' || sp === 'Infinity') return sp;
  if (sp === '-Infinity') return '0';
  const x = scaledOf(v)!;
  const approx = Number(x.digits) / 10 ** x.scale;
  if (Math.abs(approx) >= MAX_RESULT_SCALE * 3) {
    if (approx > 0) throw sqlStateError('22003', 'value overflows numeric format');
  }
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: numeric.c's own constant, whose truncation picks the scale
  const val = Math.min(Math.max(approx * 0.434294481903252, -MAX_RESULT_SCALE), MAX_RESULT_SCALE);
  const rscale = clampScale(MIN_SIG_DIGITS - Math.trunc(val), x.scale);
  if (Math.abs(approx) >= MAX_RESULT_SCALE * 3) return atScale({ digits: 0n, scale: 0 }, rscale);
  const w = rscale + Math.max(0, Math.ceil(val)) + GUARD;
  return atScale({ digits: expFixed(fixed(x, w), w), scale: w }, rscale);
}

/** ln(x) of a numeric. */
export function numericLn(v: unknown): string | number {
  const sp = special(v);
  if (sp === '-Infinity') throw logOfNegative();
  if (sp) return sp;
  const x = scaledOf(v)!;
  const rscale = clampScale(MIN_SIG_DIGITS - lnDweight(x), x.scale);
  const w = rscale + GUARD;
  return atScale({ digits: lnChecked(x, w), scale: w }, rscale);
}

/** log(b, x) of numerics (log10(x) and log(x) are log(10, x)). */
export function numericLog(b: unknown, v: unknown): string | number {
  const sb = special(b);
  const sx = special(v);
  if (sb || sx) {
    if (sb === 'NaN' || sx === 'NaN') return 'NaN';
    const sign = (s: string | null, u: unknown) =>
      s ? (s === '-Infinity' ? -1 : 1) : Number(scaledOf(u)!.digits > 0n) - Number(scaledOf(u)!.digits < 0n);
    const [s1, s2] = [sign(sb, b), sign(sx, v)];
    if (s1 < 0 || s2 < 0) throw logOfNegative();
    if (s1 === 0 || s2 === 0) throw logOfZero();
    if (sb === 'Infinity') return sx === 'Infinity' ? 'NaN' : '0';
    return 'Infinity';
  }
  const base = scaledOf(b)!;
  const x = scaledOf(v)!;
  const rscale = clampScale(MIN_SIG_DIGITS - (lnDweight(x) - lnDweight(base)), base.scale, x.scale);
  // ln of each with digits enough for the quotient at rscale (its size, guard digits)
  const w = rscale + GUARD + Math.max(0, lnDweight(x)) + Math.max(0, -lnDweight(base));
  const lb = lnChecked(base, w);
  const lx = lnChecked(x, w);
  if (lb === 0n) throw sqlStateError('22012', 'division by zero');
  return atScale({ digits: (lx * pow10(w)) / lb, scale: w }, rscale);
}

/** sqrt(x) of a numeric. */
export function numericSqrt(v: unknown): string | number {
  const sp = special(v);
  const negative = () => sqlStateError('2201F', 'cannot take square root of a negative number');
  if (sp === '-Infinity') throw negative();
  if (sp) return sp;
  const x = scaledOf(v)!;
  if (x.digits < 0n) throw negative();
  const weight = nbase(x).weight;
  // numeric.c's C integer division: (weight + 1) * 4 / 2 - 1
  const sweight = Math.trunc(((weight + 1) * 4) / 2) - 1;
  const rscale = clampScale(MIN_SIG_DIGITS - sweight, x.scale);
  const w = rscale + GUARD;
  return atScale({ digits: isqrt(fixed(x, 2 * w)), scale: w }, rscale);
}

/** __pg_numeric_<fn>_exact: the functions above, NULL with a NULL. */
export function installExactLogs(db: Database.Database): void {
  const fn = (name: string, f: (...args: unknown[]) => string | number) =>
    db.function(name, { deterministic: true, varargs: true, safeIntegers: true }, (...args: unknown[]) =>
      args.some((a) => a === null || a === undefined) ? null : (f(...args) as never),
    );
  fn('__pg_numeric_exp_exact', numericExp);
  fn('__pg_numeric_ln_exact', numericLn);
  fn('__pg_numeric_log10_exact', (x) => numericLog(10n, x));
  fn('__pg_numeric_log_exact', (...args) =>
    args.length === 2 ? numericLog(args[0], args[1]) : numericLog(10n, args[0]),
  );
  fn('__pg_numeric_sqrt_exact', numericSqrt);
}
