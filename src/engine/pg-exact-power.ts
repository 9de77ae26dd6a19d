// PostgreSQL's numeric power (numeric.c's numeric_power, power_var, power_var_int), exactly: the
// result scale PostgreSQL picks and its digits, given back as text (`power(2::numeric, 0.5)` is
// 1.4142135623730950, `power(n, 2)` of 12.50 is 156.2500000000000000; a double printed
// 1.4142135623730951 and 156.25). An integer exponent multiplies exactly (fixed point past the
// result's scale when the digits would grow large); any other goes by exp(y * ln(x)) in fixed point
// with guard digits, rounded half away from zero at the result's scale. The PG front end uses it where
// an exact value may be (sql/exact-columns.ts: a result column, a value made text).
import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';
import { atScale, scaledOf } from './pg-exact-division';

/** A decimal as digits × 10^-scale. */
interface Scaled {
  digits: bigint;
  scale: number;
}

const NUMERIC_MIN_SIG_DIGITS = 16;
const NUMERIC_MAX_DISPLAY_SCALE = 1000;
const NUMERIC_MAX_RESULT_SCALE = 2000;

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** log10 |x| of a non-zero decimal, as a double (no overflow for any size). */
function log10Of(x: Scaled): number {
  const s = abs(x.digits).toString();
  const lead = Number(`0.${s.slice(0, 17)}`);
  return Math.log10(lead) + s.length - x.scale;
}

/** x (a decimal) in fixed point at scale w, truncated. */
export function fixed(x: Scaled, w: number): bigint {
  return w >= x.scale ? x.digits * pow10(w - x.scale) : x.digits / pow10(x.scale - w);
}

/** The integer square root (floor) of a non-negative BigInt: Newton's steps down from a power of two above it. */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** ln of a positive fixed-point value at scale w (1 ≤ v < 10 or so: the caller takes out powers of ten). */
function lnFixed(v: bigint, w: number): bigint {
  const one = pow10(w);
  let k = 0;
  // square roots until v is within 1% of 1, then 2·atanh((v-1)/(v+1)), times 2^k
  while (abs(v - one) * 100n > one) {
    v = isqrt(v * one);
    k++;
  }
  const t = ((v - one) * one) / (v + one);
  const t2 = (t * t) / one;
  let sum = t;
  let term = t;
  for (let n = 3n; ; n += 2n) {
    term = (term * t2) / one;
    const s = term / n;
    if (s === 0n) break;
    sum += s;
  }
  return (2n * sum) << BigInt(k);
}

/** ln 10 at scale w, kept per scale (a statement asks for the same scale row after row). */
const LN10 = new Map<number, bigint>();
function ln10(w: number): bigint {
  let v = LN10.get(w);
  if (v === undefined) {
    v = lnFixed(10n * pow10(w + 10), w + 10) / pow10(10);
    if (LN10.size > 64) LN10.clear();
    LN10.set(w, v);
  }
  return v;
}

/** ln of a positive decimal, in fixed point at scale w. */
export function lnOf(x: Scaled, w: number): bigint {
  // x = m · 10^e with 1 ≤ m < 10: ln m + e · ln 10
  const s = x.digits.toString();
  const e = s.length - x.scale - 1;
  const m = fixed({ digits: x.digits, scale: s.length - 1 }, w);
  return lnFixed(m, w) + BigInt(e) * ln10(w);
}

/** exp of a fixed-point value at scale w, in fixed point at scale w. */
export function expFixed(z: bigint, w: number): bigint {
  const one = pow10(w);
  // halve until |z| < 0.01, the series, then square back
  let k = 0;
  while (abs(z) * 100n > one) {
    z /= 2n;
    k++;
  }
  let sum = one;
  let term = one;
  for (let n = 1n; ; n++) {
    term = (term * z) / (one * n);
    if (term === 0n) break;
    sum += term;
  }
  for (let i = 0; i < k; i++) sum = (sum * sum) / one;
  return sum;
}

/** A fixed-point value at scale w rounded half away from zero to `scale` digits, as text. */
function roundedText(v: bigint, w: number, scale: number): string {
  return atScale({ digits: v, scale: w }, scale);
}

/** Zero at a scale, as numeric prints it. */
const zeroAt = (scale: number) => (scale > 0 ? `0.${'0'.repeat(scale)}` : '0');

/** A decimal's base-10000 digits as numeric.c holds them (no leading or trailing zero digit), and the weight of the first. */
export function nbase(x: Scaled): { weight: number; digits: number[] } {
  if (x.digits === 0n) return { weight: 0, digits: [] };
  let text = abs(x.digits).toString();
  if (text.length <= x.scale) text = '0'.repeat(x.scale - text.length + 1) + text;
  let int = text.slice(0, text.length - x.scale);
  let frac = text.slice(text.length - x.scale);
  int = '0'.repeat((4 - (int.length % 4)) % 4) + int;
  frac += '0'.repeat((4 - (frac.length % 4)) % 4);
  const all = int + frac;
  const digits: number[] = [];
  for (let i = 0; i < all.length; i += 4) digits.push(Number(all.slice(i, i + 4)));
  let weight = int.length / 4 - 1;
  while (digits[0] === 0) {
    digits.shift();
    weight--;
  }
  while (digits[digits.length - 1] === 0) digits.pop();
  return { weight, digits };
}

/** x rounded half away from zero to `scale` digits (numeric.c's round_var), as a decimal of that scale. */
function roundTo(x: Scaled, scale: number): Scaled {
  if (x.scale <= scale) return { digits: x.digits * pow10(scale - x.scale), scale };
  const d = pow10(x.scale - scale);
  let q = x.digits / d;
  const r = x.digits % d;
  if (abs(r) * 2n >= d) q += x.digits < 0n ? -1n : 1n;
  return { digits: q, scale };
}

/** a · b at `rscale` digits, as numeric.c's mul_var rounds it. */
const mulVar = (a: Scaled, b: Scaled, rscale: number): Scaled =>
  roundTo({ digits: a.digits * b.digits, scale: a.scale + b.scale }, rscale);

/**
 * base ^ exp for an integer exponent that fits an int4, at rscale, step for step as numeric.c's
 * power_var_int (its products rounded at the scales it picks, so a result of many digits has
 * PostgreSQL's digits, not the exact power's).
 */
function powerInt(a: Scaled, e: number, rscale: number): string {
  if (e === 0) return atScale({ digits: 1n, scale: 0 }, rscale);
  if (e === 1) return atScale(a, rscale);
  if (e === -1) return divided(a, rscale);
  if (e === 2) return atScale(mulVar(a, a, rscale), rscale);
  if (a.digits === 0n) {
    if (e < 0) throw sqlStateError('22012', 'division by zero');
    return zeroAt(rscale);
  }
  // the result's decimal weight, as power_var_int estimates it from the first 16 or so digits
  const nb = nbase(a);
  let f0 = nb.digits[0];
  let p = nb.weight * 4;
  for (let i = 1; i < nb.digits.length && i * 4 < 16; i++) {
    f0 = f0 * 10000 + nb.digits[i];
    p -= 4;
  }
  const f = e * (Math.log10(f0) + p);
  if (f > 3 * 32767 * 4) throw sqlStateError('22003', 'value overflows numeric format');
  if (f + 1 < -rscale || f + 1 < -NUMERIC_MAX_DISPLAY_SCALE) return zeroAt(rscale);
  const sig = 1 + rscale + Math.trunc(f) + Math.trunc(Math.log(Math.abs(e))) + 8;
  const weight = (x: Scaled) => nbase(x).weight;
  let mask = Math.abs(e);
  let baseProd: Scaled = a;
  let result: Scaled = mask & 1 ? a : { digits: 1n, scale: 0 };
  let neg = e < 0;
  while ((mask >>= 1) > 0) {
    let lr = sig - 2 * weight(baseProd) * 4;
    lr = Math.max(Math.min(lr, 2 * baseProd.scale), 0);
    baseProd = mulVar(baseProd, baseProd, lr);
    if (mask & 1) {
      lr = sig - (weight(baseProd) + weight(result)) * 4;
      lr = Math.max(Math.min(lr, baseProd.scale + result.scale), 0);
      result = mulVar(baseProd, result, lr);
    }
    if (weight(baseProd) > 32767 || weight(result) > 32767) {
      // past numeric's range: an overflow, or 0 for a negative exponent
      if (!neg) throw sqlStateError('22003', 'value overflows numeric format');
      result = { digits: 0n, scale: 0 };
      neg = false;
      break;
    }
  }
  return neg ? divided(result, rscale) : atScale(result, rscale);
}

/** 1 / p at `scale`, rounded half away from zero. */
function divided(p: Scaled, scale: number): string {
  // 1 / (D / 10^s) = 10^s / D: times 10^scale, rounded
  let num = pow10(p.scale + scale);
  let den = p.digits;
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  let q = num / den;
  const r = num % den;
  if (abs(r) * 2n >= den) q += num < 0n ? -1n : 1n;
  return atScale({ digits: q, scale }, scale);
}

/** numeric ^ numeric as PostgreSQL 15 computes and prints it; null with a NULL. */
export function numericPower(x: unknown, y: unknown): string | number | null {
  if (x === null || y === null) return null;
  const nanX = typeof x === 'string' && x.trim().toLowerCase() === 'nan';
  const nanY = typeof y === 'string' && y.trim().toLowerCase() === 'nan';
  if (nanX || nanY) {
    // NaN ^ 0 and 1 ^ NaN are 1, as POSIX pow and PostgreSQL
    if (nanX && !nanY && scaledOf(y)!.digits === 0n) return '1';
    if (nanY && !nanX && isOne(scaledOf(x)!)) return '1';
    return 'NaN';
  }
  const special = (v: unknown) => typeof v === 'number' && !Number.isFinite(v);
  if (
    special(x) ||
    special(y) ||
    (typeof x === 'string' && /inf/i.test(x)) ||
    (typeof y === 'string' && /inf/i.test(y))
  )
    // (±Infinity: a double's answer, as before)
    return Number(x) ** Number(y);
  const a = scaledOf(x)!;
  const b = scaledOf(y)!;
  const bInt = b.digits % pow10(b.scale) === 0n;
  if (a.digits === 0n && b.digits < 0n) throw sqlStateError('2201F', 'zero raised to a negative power is undefined');
  if (a.digits < 0n && !bInt)
    throw sqlStateError('2201F', 'a negative number raised to a non-integer power yields a complex result');
  const dscaleA = a.scale;
  if (bInt) {
    const e = b.digits / pow10(b.scale);
    if (e >= -2147483648n && e <= 2147483647n) {
      const rscale = Math.min(Math.max(NUMERIC_MIN_SIG_DIGITS, dscaleA), NUMERIC_MAX_DISPLAY_SCALE);
      return powerInt(a, Number(e), rscale);
    }
  }
  if (a.digits === 0n) return zeroAt(NUMERIC_MIN_SIG_DIGITS);
  // (a negative base here has an integer exponent past int4: its sign by the exponent's parity)
  const negative = a.digits < 0n && (b.digits / pow10(b.scale)) % 2n !== 0n;
  const base = { digits: abs(a.digits), scale: a.scale };
  // the result's decimal weight, as PostgreSQL estimates it (exp · ln(base) · log10(e))
  const lnBase = log10Of(base) * Math.LN10;
  const bNum = Number(b.digits) / 10 ** b.scale;
  let val = bNum * lnBase;
  if (Math.abs(val) > NUMERIC_MAX_RESULT_SCALE * 3.01) {
    if (val > 0) throw sqlStateError('22003', 'value overflows numeric format');
    return zeroAt(NUMERIC_MAX_DISPLAY_SCALE);
  }
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: numeric.c's own constant, whose truncation picks the scale
  val *= 0.434294481903252;
  let rscale = NUMERIC_MIN_SIG_DIGITS - Math.trunc(val);
  rscale = Math.min(Math.max(rscale, dscaleA, b.scale, 0), NUMERIC_MAX_DISPLAY_SCALE);
  // fixed point with the answer's digits, those before its point, the exponent's and guard digits
  const w = rscale + Math.max(0, Math.ceil(val)) + 30 + Math.max(0, Math.ceil(Math.log10(Math.abs(bNum) + 1)));
  const z = (lnOf(base, w) * b.digits) / pow10(b.scale);
  const text = roundedText(expFixed(z, w), w, rscale);
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

const isOne = (v: Scaled) => v.digits === pow10(v.scale);

/** __pg_numeric_power(a, b): numeric's power, as text. */
export function installExactPower(db: Database.Database): void {
  db.function('__pg_numeric_power', { deterministic: true, safeIntegers: true }, (x: unknown, y: unknown) =>
    numericPower(x, y),
  );
}
