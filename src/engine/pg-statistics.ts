import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';
import { lookup } from '../lookup';
import { formatInterval, intervalKey, parseInterval, scaledInterval } from './dates';
import { floatText } from './float-text';
import { atScale, scaledOf } from './pg-exact-division';
import { arrayElements, arrayText } from './pg-functions';

// PostgreSQL's statistical aggregates, which SQLite lacks (a BI tool's "standard deviation"):
// stddev/variance in their sample and population forms over one column, and the two-column
// corr, covar_* and regr_* (arguments Y, X, as PostgreSQL takes them). Sums and sums of squared
// deviations as PostgreSQL keeps them (Youngs-Cramer), with the inverse step, so each also works as
// a window function over a moving frame. A row with a NULL argument is skipped; too few rows give NULL, as there.

interface Moments {
  n: number;
  sx: number;
  sy: number;
  sxx: number;
  syy: number;
  sxy: number;
  /** NaN inputs (numeric's NaN is the text NaN): any makes the answer NaN, as in PostgreSQL. */
  nan: number;
}

const num = (x: unknown): number => {
  if (typeof x === 'number') return x;
  if (typeof x === 'bigint') return Number(x);
  const s = String(x).trim();
  const v = Number(s);
  if (s === '' || Number.isNaN(v))
    throw sqlStateError('22P02', `invalid input syntax for type double precision: "${x}"`);
  return v;
};

// PostgreSQL's float8_accum (one column, in sy/syy) and float8_regr_accum (Y, X): the Youngs-Cramer
// sums, operation for operation, so the last digit agrees too (Welford's running means did not:
// var_samp 6.515624999999999 where PostgreSQL prints 6.515625)
function add1(m: Moments, y: number): Moments {
  const n0 = m.n;
  m.n = n0 + 1;
  m.sy += y;
  if (n0 > 0) {
    const t = y * m.n - m.sy;
    m.syy += (t * t) / (m.n * n0);
  }
  return m;
}

function add2(m: Moments, y: number, x: number): Moments {
  const n0 = m.n;
  m.n = n0 + 1;
  m.sx += x;
  m.sy += y;
  if (n0 > 0) {
    const tx = x * m.n - m.sx;
    const ty = y * m.n - m.sy;
    const scale = 1 / (m.n * n0);
    m.sxx += tx * tx * scale;
    m.syy += ty * ty * scale;
    m.sxy += tx * ty * scale;
  }
  return m;
}

/** The inverse of add2 (add1 with x = 0), for a window's moving frame. */
function remove(m: Moments, y: number, x: number): Moments {
  if (m.n <= 1) return { ...start(), nan: m.nan };
  const n = m.n;
  const tx = x * n - m.sx;
  const ty = y * n - m.sy;
  const scale = 1 / (n * (n - 1));
  m.sxx -= tx * tx * scale;
  m.syy -= ty * ty * scale;
  m.sxy -= tx * ty * scale;
  m.n = n - 1;
  m.sx -= x;
  m.sy -= y;
  return m;
}

const start = (): Moments => ({ n: 0, sx: 0, sy: 0, sxx: 0, syy: 0, sxy: 0, nan: 0 });
const isNaNInput = (x: unknown) => typeof x === 'string' && /^\s*nan\s*$/i.test(x);
const nan = (m: Moments, k: number): Moments => ({ ...m, nan: m.nan + k });
/** The answer with NaN among the inputs: NaN, but NULL still where too few rows give NULL, as PostgreSQL answers. */
function withNaN(m: Moments, result: (m: Moments) => number | null): number {
  if (m.nan === 0) return result(m) as number;
  // (sums of squares of 1: only the count decides)
  const counted = result({ ...start(), n: m.n + m.nan, sxx: 1, syy: 1 });
  return (counted === null ? null : 'NaN') as unknown as number;
}
/** A sum of squares cannot be below 0; rounding in the inverse step can make it a hair negative. */
const sq = (v: number) => Math.max(v, 0);

const ONE: Record<string, (m: Moments) => number | null> = lookup({
  var_samp: (m) => (m.n < 2 ? null : sq(m.syy) / (m.n - 1)),
  var_pop: (m) => (m.n < 1 ? null : sq(m.syy) / m.n),
  stddev_samp: (m) => (m.n < 2 ? null : Math.sqrt(sq(m.syy) / (m.n - 1))),
  stddev_pop: (m) => (m.n < 1 ? null : Math.sqrt(sq(m.syy) / m.n)),
});
ONE.variance = ONE.var_samp;
ONE.stddev = ONE.stddev_samp;

const TWO: Record<string, (m: Moments) => number | null> = lookup({
  corr: (m) => (m.n < 1 || m.sxx === 0 || m.syy === 0 ? null : m.sxy / Math.sqrt(sq(m.sxx) * sq(m.syy))),
  covar_pop: (m) => (m.n < 1 ? null : m.sxy / m.n),
  covar_samp: (m) => (m.n < 2 ? null : m.sxy / (m.n - 1)),
  regr_count: (m) => m.n,
  regr_avgx: (m) => (m.n < 1 ? null : m.sx / m.n),
  regr_avgy: (m) => (m.n < 1 ? null : m.sy / m.n),
  regr_sxx: (m) => (m.n < 1 ? null : sq(m.sxx)),
  regr_syy: (m) => (m.n < 1 ? null : sq(m.syy)),
  regr_sxy: (m) => (m.n < 1 ? null : m.sxy),
  regr_slope: (m) => (m.n < 1 || m.sxx === 0 ? null : m.sxy / m.sxx),
  regr_intercept: (m) => (m.n < 1 || m.sxx === 0 ? null : (m.sy - (m.sx * m.sxy) / m.sxx) / m.n),
  regr_r2: (m) => (m.n < 1 || m.sxx === 0 ? null : m.syy === 0 ? 1 : (m.sxy * m.sxy) / (m.sxx * m.syy)),
});

export function installPgStatistics(db: Database.Database): void {
  installOrderedSetAggregates(db);
  for (const [name, result] of Object.entries(ONE))
    db.aggregate(name, {
      start,
      step: (m: Moments, v: unknown) => (v === null ? m : isNaNInput(v) ? nan(m, 1) : add1(m, num(v))),
      inverse: (m: Moments, v: unknown) => (v === null ? m : isNaNInput(v) ? nan(m, -1) : remove(m, num(v), 0)),
      result: (m: Moments) => withNaN(m, result),
    });
  // two arguments: better-sqlite3 counts them from step's parameters (its typings know of one)
  for (const [name, result] of Object.entries(TWO))
    db.aggregate(name, {
      start,
      step: (m: Moments, y: unknown, x: unknown) =>
        y === null || x === null ? m : isNaNInput(y) || isNaNInput(x) ? nan(m, 1) : add2(m, num(y), num(x)),
      inverse: (m: Moments, y: unknown, x: unknown) =>
        y === null || x === null ? m : isNaNInput(y) || isNaNInput(x) ? nan(m, -1) : remove(m, num(y), num(x)),
      result: (m: Moments) => (name === 'regr_count' ? m.n + m.nan : withNaN(m, result)),
    } as never);
}

/** Numbers to sort for percentile_cont: NULLs skipped. */
function sortedNumbers(xs: unknown[]): number[] {
  return xs
    .filter((x) => x !== null)
    .map(num)
    .sort((a, b) => a - b);
}

/** The fraction of percentile_cont/percentile_disc: one number in [0, 1]. */
function fraction(f: unknown): number {
  const v = num(f);
  if (!(v >= 0 && v <= 1)) throw sqlStateError('22003', `percentile value ${v} is not between 0 and 1`);
  return v;
}

/** Orders values as SQLite does (numbers before text), for percentile_disc and mode over any type. */
function compare(a: unknown, b: unknown): number {
  const na = typeof a === 'number' || typeof a === 'bigint';
  const nb = typeof b === 'number' || typeof b === 'bigint';
  if (na && nb) return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  if (na !== nb) return na ? -1 : 1;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * The ordered-set aggregates (protocols/pg/sql/translate/ordered-set.ts writes them for
 * `percentile_cont(f) WITHIN GROUP (ORDER BY x [DESC])` and the like): the values are kept and
 * sorted at the end, as PostgreSQL does.
 */
export function installOrderedSetAggregates(db: Database.Database): void {
  interface Acc {
    f: unknown;
    desc: boolean;
    xs: unknown[];
  }
  const start = (): Acc => ({ f: null, desc: false, xs: [] });
  const step = (a: Acc, f: unknown, desc: unknown, x: unknown) => {
    a.f = f;
    a.desc = Number(desc) === 1;
    if (x !== null) a.xs.push(x);
    return a;
  };
  // (the fraction may be an array, `percentile_cont(ARRAY[0.25, 0.75])`: the array of each one's
  // value, a NULL fraction's NULL, as PostgreSQL's percentile_cont_multi_final)
  const each = <T>(f: unknown, one: (p: number) => T, item: (v: T) => unknown): unknown => {
    if (typeof f !== 'string' || !f.trim().startsWith('{')) return one(fraction(f));
    return arrayText(arrayElements(f).map((p) => (p === null ? null : item(one(fraction(p))))));
  };
  db.aggregate('__pg_percentile_cont', {
    start,
    step,
    result: (a: Acc) => {
      const xs = sortedNumbers(a.xs);
      if (xs.length === 0 || a.f === null) return null;
      if (a.desc) xs.reverse(); // interpolated in the order asked for, as PostgreSQL rounds
      const one = (p: number) => {
        const at = p * (xs.length - 1);
        const lo = Math.floor(at);
        const hi = Math.ceil(at);
        return xs[lo] + (xs[hi] - xs[lo]) * (at - lo);
      };
      return each(a.f, one, (v) => floatText(v)) as never;
    },
  } as never);
  // of intervals (the analysis marks a key of that type: translate/ordered-set.ts): sorted by their
  // length, the value between two neighbours `lo + (hi - lo) * f` with interval arithmetic, as
  // PostgreSQL's interval_lerp (a month's fraction spilt into days, a day's into time)
  db.aggregate('__pg_percentile_cont_interval', {
    start,
    step,
    result: (a: Acc) => {
      const xs = a.xs
        .map((x) => [intervalKey(x), x] as const)
        .filter((e) => e[0] !== null)
        .sort((p, q) => (p[0] as number) - (q[0] as number))
        .map((e) => e[1]);
      if (xs.length === 0 || a.f === null) return null;
      if (a.desc) xs.reverse();
      const one = (p: number) => {
        const at = p * (xs.length - 1);
        const lo = Math.floor(at);
        const hi = Math.ceil(at);
        if (lo === hi) return formatInterval(parseInterval(xs[lo])!);
        const l = parseInterval(xs[lo])!;
        const h = parseInterval(xs[hi])!;
        const diff = formatInterval({
          months: h.months - l.months,
          days: h.days - l.days,
          micros: h.micros - l.micros,
        });
        const d = scaledInterval(parseInterval(diff)!, at - lo);
        return formatInterval({ months: l.months + d.months, days: l.days + d.days, micros: l.micros + d.micros });
      };
      return each(a.f, one, (v) => v) as never;
    },
  } as never);
  db.aggregate('__pg_percentile_disc', {
    start,
    step,
    result: (a: Acc) => {
      if (a.xs.length === 0 || a.f === null) return null;
      const xs = [...a.xs].sort(compare);
      if (a.desc) xs.reverse();
      // the first value whose position in the order reaches the fraction
      const one = (p: number) => xs[Math.max(0, Math.ceil(p * xs.length) - 1)];
      return each(a.f, one, (v) => (typeof v === 'number' ? floatText(v) : v)) as never;
    },
  } as never);
  // of an array of fractions over a numeric(p, s) key (`percentile_disc(ARRAY[0.5, 1]) WITHIN GROUP
  // (ORDER BY price)`): the values at the key's scale s, as PostgreSQL's array prints them ({2.50},
  // where the doubles printed {2.5}); the translation passes s (translate/ordered-set.ts)
  db.aggregate('__pg_percentile_disc_at', {
    start: () => ({ ...start(), scale: 0 }),
    step: (a: Acc & { scale: number }, f: unknown, desc: unknown, x: unknown, scale: unknown) => {
      a.scale = Number(scale);
      return step(a, f, desc, x);
    },
    result: (a: Acc & { scale: number }) => {
      if (a.xs.length === 0 || a.f === null) return null;
      const xs = [...a.xs].sort(compare);
      if (a.desc) xs.reverse();
      const one = (p: number) => xs[Math.max(0, Math.ceil(p * xs.length) - 1)];
      const at = (v: unknown) => {
        const x = typeof v === 'number' || typeof v === 'bigint' ? scaledOf(v) : null;
        return x ? atScale(x, a.scale) : v;
      };
      return each(a.f, one, at) as never;
    },
  } as never);
  db.aggregate('__pg_mode', {
    start: () => [] as unknown[],
    step: (xs: unknown[], x: unknown) => {
      if (x !== null) xs.push(x);
      return xs;
    },
    result: (xs: unknown[]) => {
      // the most frequent value; among equals the first in the order, as PostgreSQL returns it
      const sorted = [...xs].sort(compare);
      let best: unknown = null;
      let bestN = 0;
      for (let i = 0; i < sorted.length; ) {
        let j = i;
        while (j < sorted.length && compare(sorted[j], sorted[i]) === 0) j++;
        if (j - i > bestN) {
          best = sorted[i];
          bestN = j - i;
        }
        i = j;
      }
      return best as never;
    },
  });
}
