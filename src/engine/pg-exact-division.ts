// PostgreSQL's numeric division and avg, exactly: the operands as scaled integers (BigInt), the
// quotient at the scale PostgreSQL's select_div_scale (numeric.c) picks, rounded half away from
// zero, and given back as text so that no double cuts its digits (`1 / 3::numeric` is
// 0.33333333333333333333, `avg` of 1 and 2 is 1.5000000000000000). The PG front end uses them
// only where the value is a result column, made text, or compared by __pg_numeric_cmp in HAVING
// (sql/exact-columns.ts), since text would compare and sort as text inside SQLite.
import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';
import { parseDecimal } from './decimal';

/** A decimal as digits × 10^-scale. */
interface Scaled {
  digits: bigint;
  scale: number;
}

/** PostgreSQL's numeric's minimum significant digits of a quotient, and its base-10000 digit. */
const MIN_SIG_DIGITS = 16;
const DEC_DIGITS = 4;
const MAX_DISPLAY_SCALE = 1000;

/**
 * A SQLite value as a decimal: an integer exactly (a whole double past 2^53 by its shortest
 * digits), a double by its 15 significant digits (as
 * PostgreSQL converts float8 to numeric, so a sum of cents 32.790000000000006 is 32.79), numeric
 * text exactly. Null for NULL; 22P02 for text that is no number.
 */
export function scaledOf(v: unknown): Scaled | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return { digits: v, scale: 0 };
  const text =
    typeof v === 'number'
      ? Number.isSafeInteger(v)
        ? BigInt(v).toString()
        : // (a whole double past 2^53 by its shortest digits: 1e300 is 1e300, not the binary
          // expansion 1000000000000000052504760255204420248704468581108159154915854115...)
          Number.isInteger(v)
          ? String(v)
          : Number.isFinite(v)
            ? v.toPrecision(15)
            : ''
      : String(v);
  const d = parseDecimal(text);
  if (!d || d.special) throw sqlStateError('22P02', `invalid input syntax for type numeric: "${text}"`);
  const frac = typeof v === 'number' ? d.frac.replace(/0+$/, '') : d.frac;
  const digits = BigInt((d.int || '0') + frac);
  return { digits: d.neg ? -digits : digits, scale: frac.length };
}

/** The weight (power of 10000) and value of the first non-zero base-10000 digit; 0, 0 for zero. */
function firstDigit(x: Scaled): [number, number] {
  if (x.digits === 0n) return [0, 0];
  const abs = x.digits < 0n ? -x.digits : x.digits;
  // the leading digit's power of ten, and the base-10000 digit (aligned at the point) it falls in
  const e = abs.toString().length - x.scale - 1;
  const weight = Math.floor(e / DEC_DIGITS);
  const shift = x.scale + weight * DEC_DIGITS;
  return [weight, Number(shift >= 0 ? abs / 10n ** BigInt(shift) : abs * 10n ** BigInt(-shift))];
}

/** The result scale of var1 / var2, as numeric.c's select_div_scale. */
export function divScale(a: Scaled, b: Scaled): number {
  const [w1, d1] = firstDigit(a);
  const [w2, d2] = firstDigit(b);
  let qweight = w1 - w2;
  if (d1 <= d2) qweight--;
  let rscale = MIN_SIG_DIGITS - qweight * DEC_DIGITS;
  rscale = Math.max(rscale, a.scale, b.scale, 0);
  return Math.min(rscale, MAX_DISPLAY_SCALE);
}

/** a / b at `scale` digits, rounded half away from zero, as PostgreSQL's text. */
export function divideText(a: Scaled, b: Scaled, scale: number): string {
  if (b.digits === 0n) throw sqlStateError('22012', 'division by zero');
  // a / b = (A / 10^sa) / (B / 10^sb); times 10^scale: A * 10^(sb + scale) / (B * 10^sa)
  let num = a.digits * 10n ** BigInt(b.scale + scale);
  let den = b.digits * 10n ** BigInt(a.scale);
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  let q = num / den;
  const r = num % den;
  if ((r < 0n ? -r : r) * 2n >= den) q += num < 0n ? -1n : 1n;
  const neg = q < 0n;
  const s = (neg ? -q : q).toString().padStart(scale + 1, '0');
  const body = scale > 0 ? `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}` : s;
  return neg ? `-${body}` : body;
}

/**
 * Sum and count of avg's inputs, exactly; how many were NaN (any makes the average NaN), Infinity
 * and -Infinity (the sum's, or NaN when both were summed, as PostgreSQL's numeric_avg).
 */
interface AvgState {
  sum: Scaled;
  n: bigint;
  nan: number;
  pinf?: number;
  ninf?: number;
}

/** The special answer of a sum or avg (NaN, Infinity, -Infinity), null when it is a number. */
function specialSum(st: AvgState): string | null {
  const [p, m] = [st.pinf ?? 0, st.ninf ?? 0];
  if (st.nan > 0 || (p > 0 && m > 0)) return 'NaN';
  return p > 0 ? 'Infinity' : m > 0 ? '-Infinity' : null;
}

/** numeric's NaN, which the PG front end stores as the text NaN. */
const isNaNText = (v: unknown) => typeof v === 'string' && v.trim().toLowerCase() === 'nan';

function add(s: Scaled, x: Scaled, sign: bigint): Scaled {
  const scale = Math.max(s.scale, x.scale);
  const digits = s.digits * 10n ** BigInt(scale - s.scale) + sign * x.digits * 10n ** BigInt(scale - x.scale);
  return { digits, scale };
}

/** A scaled decimal as PostgreSQL's text, all its scale's digits kept. */
function scaledText(x: Scaled): string {
  const neg = x.digits < 0n;
  const s = (neg ? -x.digits : x.digits).toString().padStart(x.scale + 1, '0');
  const body = x.scale > 0 ? `${s.slice(0, s.length - x.scale)}.${s.slice(s.length - x.scale)}` : s;
  return neg ? `-${body}` : body;
}

/**
 * numeric's special values as numbers: NaN, and ±Infinity (a double's, as extract(epoch ...) of an
 * infinite timestamp gives it, or the text); null for a finite value.
 */
export function special(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? null : v;
  if (typeof v !== 'string') return null;
  const t = v.trim().toLowerCase();
  if (t === 'nan') return Number.NaN;
  if (t === 'infinity' || t === '+infinity' || t === 'inf' || t === '+inf') return Number.POSITIVE_INFINITY;
  if (t === '-infinity' || t === '-inf') return Number.NEGATIVE_INFINITY;
  return null;
}

/** A special result as numeric's text (NaN, Infinity, -Infinity). */
const specialText = (x: number) => (Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity');

/** The sign of a finite operand (-1, 0, 1), for arithmetic with an infinite one. */
function signOf(v: unknown): number {
  const d = scaledOf(v)!.digits;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** a + b, a - b, a * b, a / b where one is special, as PostgreSQL's numeric (Infinity - Infinity is NaN). */
function specialArith(op: '+' | '-' | '*' | '/', x: unknown, y: unknown): string | null {
  const a = special(x);
  const b = special(y);
  if (a === null && b === null) return null;
  const l = a ?? signOf(x);
  const r = b ?? signOf(y);
  if (op === '/' && b === null && r === 0 && !Number.isNaN(l)) throw sqlStateError('22012', 'division by zero');
  // a finite operand stands for its sign: a special's result then depends on nothing else
  // (x / Infinity is 0 for a finite x)
  if (op === '/' && a === null) return Number.isNaN(r) ? 'NaN' : '0';
  const v = op === '+' ? l + r : op === '-' ? l - r : op === '*' ? l * r : l / r;
  return specialText(v);
}

/** a + b, a - b, a * b of numerics, exactly at the scale PostgreSQL's numeric gives them (the larger, the sum). */
function exactArith(op: '+' | '-' | '*', x: unknown, y: unknown): string | null {
  if (x === null || y === null) return null;
  if (isNaNText(x) || isNaNText(y)) return 'NaN';
  const inf = specialArith(op, x, y);
  if (inf !== null) return inf;
  const a = scaledOf(x)!;
  const b = scaledOf(y)!;
  if (op === '*') return scaledText({ digits: a.digits * b.digits, scale: a.scale + b.scale });
  return scaledText(add(a, b, op === '+' ? 1n : -1n));
}

/** x at `scale` digits, rounded half away from zero (numeric's rounding), as text. */
export function atScale(x: Scaled, scale: number): string {
  if (x.scale <= scale) return scaledText({ digits: x.digits * 10n ** BigInt(scale - x.scale), scale });
  return divideText(x, { digits: 1n, scale: 0 }, scale);
}

/** The state of an exact min or max: the rows that may still be the answer, by their row number; the next row's and the oldest's numbers. */
interface MinMaxState {
  deque: { at: number; v: unknown }[];
  next: number;
  oldest: number;
}

/** -1, 0 or 1 as numeric compares two values: NaN above all, then Infinity, -Infinity below all. */
function compare(x: unknown, y: unknown): number {
  const [xn, yn] = [isNaNText(x), isNaNText(y)];
  if (xn || yn) return xn && yn ? 0 : xn ? 1 : -1;
  const [a, b] = [special(x), special(y)];
  if (a !== null || b !== null) {
    const [l, r] = [a ?? 0, b ?? 0];
    return l === r ? 0 : l < r ? -1 : 1;
  }
  const d = add(scaledOf(x)!, scaledOf(y)!, -1n).digits;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** An avg's or sum's state with one more (sign 1) or one fewer (-1) input. */
function step(st: AvgState, v: unknown, sign: 1n | -1n): AvgState {
  if (isNaNText(v)) return { ...st, nan: st.nan + Number(sign) };
  const inf = v === null ? null : special(v);
  if (inf !== null)
    return inf > 0 ? { ...st, pinf: (st.pinf ?? 0) + Number(sign) } : { ...st, ninf: (st.ninf ?? 0) + Number(sign) };
  const x = scaledOf(v);
  if (x === null) return st;
  return { ...st, sum: add(st.sum, x, sign), n: st.n + sign };
}

/** __pg_numeric_div(a, b) and the __pg_numeric_avg aggregate (also a window function). */
export function installExactDivision(db: Database.Database): void {
  db.function('__pg_numeric_div', { deterministic: true, safeIntegers: true }, (x: unknown, y: unknown) => {
    if (x === null || y === null) return null;
    if (isNaNText(x) || isNaNText(y)) return 'NaN';
    const inf = specialArith('/', x, y);
    if (inf !== null) return inf;
    const a = scaledOf(x);
    const b = scaledOf(y);
    if (a === null || b === null) return null;
    if (b.digits === 0n) throw sqlStateError('22012', 'division by zero');
    return divideText(a, b, divScale(a, b));
  });
  // a numeric operand of one of these whose scale is known: SQLite holds 12.50 as 12.5
  db.function('__pg_numeric_at', { deterministic: true, safeIntegers: true }, (x: unknown, s: unknown) => {
    if (x === null) return null;
    const inf = special(x);
    if (inf !== null) return specialText(inf);
    return atScale(scaledOf(x)!, Number(s));
  });
  // abs() of one (`abs(avg(x) - x)`), its digits kept
  db.function('__pg_numeric_abs_exact', { deterministic: true, safeIntegers: true }, (x: unknown) => {
    if (x === null) return null;
    const inf = special(x);
    if (inf !== null) return specialText(Math.abs(inf));
    const a = scaledOf(x)!;
    return scaledText({ digits: a.digits < 0n ? -a.digits : a.digits, scale: a.scale });
  });
  // a comparison in HAVING of an exact avg or division, or a numeric (`HAVING avg(x) = 0.15`):
  // -1, 0 or 1 as PostgreSQL's numeric compares (NaN equal to NaN, above every number); the
  // doubles compared 0.15000000000000002 with 0.15
  db.function('__pg_numeric_cmp', { deterministic: true, safeIntegers: true }, (x: unknown, y: unknown) => {
    if (x === null || y === null) return null;
    return compare(x, y);
  });
  // greatest() and least() of numerics whose values keep their own scales (the analysis hands a
  // numeric of known scale over as its text, '2.50'): the winner by value, as it is; SQLite's max
  // and min would put any text above every number. The first of equal values, as PostgreSQL keeps it
  for (const greatest of [false, true])
    db.function(
      greatest ? '__pg_numeric_greatest' : '__pg_numeric_least',
      { deterministic: true, safeIntegers: true, varargs: true },
      (...xs: unknown[]) => {
        let best: unknown = null;
        for (const x of xs)
          if (
            x !== null &&
            x !== undefined &&
            (best === null || (greatest ? compare(x, best) > 0 : compare(x, best) < 0))
          )
            best = x;
        return best as never;
      },
    );
  // an exact value made a double (a set operation's float8 column): JavaScript reads the decimal
  // correctly rounded, as PostgreSQL's float8 of a numeric
  db.function('__pg_numeric_real', { deterministic: true, safeIntegers: true }, (x: unknown) => {
    if (x === null || typeof x !== 'string') return x;
    // (NaN as its text, which the float8 column prints and sorts above numbers: SQLite makes a NaN double NULL)
    const inf = special(x);
    return inf !== null ? (Number.isNaN(inf) ? 'NaN' : inf) : Number(x);
  });
  // a numeric's value as one text whatever its scale ('1.5' for 1.50, 1.5000 and the double 1.5;
  // NaN): what a set operation groups exact columns by, and `HAVING avg(x) IN (SELECT ...)` compares
  db.function('__pg_numeric_key', { deterministic: true, safeIntegers: true }, (x: unknown) => {
    if (x === null) return null;
    if (isNaNText(x)) return 'NaN';
    const inf = special(x);
    if (inf !== null) return specialText(inf);
    let { digits, scale } = scaledOf(x)!;
    while (scale > 0 && digits % 10n === 0n) {
      digits /= 10n;
      scale--;
    }
    return scaledText({ digits, scale });
  });
  // +, -, * inside an exact result column (`stddev(x) * 2`): text, as the division
  for (const [name, op] of [
    ['__pg_numeric_add_exact', '+'],
    ['__pg_numeric_sub_exact', '-'],
    ['__pg_numeric_mul_exact', '*'],
  ] as const)
    db.function(name, { deterministic: true, safeIntegers: true }, (x: unknown, y: unknown) => exactArith(op, x, y));
  // sum of exact values (of extract(epoch ...): microseconds' digits past a double's), as text
  db.aggregate('__pg_numeric_sum_exact', {
    safeIntegers: true,
    start: () => ({ sum: { digits: 0n, scale: 0 }, n: 0n, nan: 0 }) as AvgState,
    step: (st: AvgState, v: unknown) => step(st, v, 1n),
    inverse: (st: AvgState, v: unknown) => step(st, v, -1n),
    result: (st: AvgState) => (st.n === 0n && !specialSum(st) ? null : (specialSum(st) ?? scaledText(st.sum))),
  } as never);
  // min and max of exact values (of extract(epoch ...): a double cut its microseconds), by number;
  // over a window frame too: the frame's rows in a deque of those no later row beats, oldest first
  // (a row leaving the frame is the oldest), so each row costs O(1) on average
  for (const [name, sign] of [
    ['__pg_numeric_min_exact', -1],
    ['__pg_numeric_max_exact', 1],
  ] as const)
    db.aggregate(name, {
      safeIntegers: true,
      start: () => ({ deque: [] as { at: number; v: unknown }[], next: 0, oldest: 0 }),
      step: (st: MinMaxState, v: unknown) => {
        const at = st.next++;
        if (v === null) return st;
        while (st.deque.length > 0 && compare(v, st.deque[st.deque.length - 1].v) * sign >= 0) st.deque.pop();
        st.deque.push({ at, v });
        return st;
      },
      inverse: (st: MinMaxState) => {
        st.oldest++;
        while (st.deque.length > 0 && st.deque[0].at < st.oldest) st.deque.shift();
        return st;
      },
      result: (st: MinMaxState) => st.deque[0]?.v ?? null,
    } as never);
  db.aggregate('__pg_numeric_avg', {
    safeIntegers: true,
    start: () => ({ sum: { digits: 0n, scale: 0 }, n: 0n, nan: 0 }) as AvgState,
    step: (st: AvgState, v: unknown) => step(st, v, 1n),
    inverse: (st: AvgState, v: unknown) => step(st, v, -1n),
    result: (st: AvgState) => {
      const inf = specialSum(st);
      if (inf) return inf;
      if (st.n === 0n) return null;
      const count: Scaled = { digits: st.n, scale: 0 };
      return divideText(st.sum, count, divScale(st.sum, count));
    },
  } as never);
}
