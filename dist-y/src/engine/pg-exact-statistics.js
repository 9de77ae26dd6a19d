"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.installExactStatistics = installExactStatistics;
const pg_exact_division_1 = require("./pg-exact-division");
const isNaNText = (v) => typeof v === 'string' && v.trim().toLowerCase() === 'nan';
function add(a, b, sign) {
    const scale = Math.max(a.scale, b.scale);
    return {
        digits: a.digits * 10n ** BigInt(scale - a.scale) + sign * b.digits * 10n ** BigInt(scale - b.scale),
        scale,
    };
}
const mul = (a, b) => ({ digits: a.digits * b.digits, scale: a.scale + b.scale });
/** The integer square root of n ≥ 0 (Newton's, on BigInt). */
function isqrt(n) {
    if (n < 2n)
        return n;
    let x = BigInt(Math.floor(Math.sqrt(Number(n))));
    for (;;) {
        const y = (x + n / x) >> 1n;
        if (y >= x) {
            // Newton's from a double's guess may stop one off either way
            while (x * x > n)
                x--;
            while ((x + 1n) * (x + 1n) <= n)
                x++;
            return x;
        }
        x = y;
    }
}
/** sqrt(v) rounded half away from zero to `scale` digits, as text. */
function sqrtText(v, scale) {
    // sqrt(D·10^-s) = sqrt(D·10^(2k - s))·10^-k with k = scale + 1: one digit more, then rounded
    const k = scale + 1;
    const e = 2 * k - v.scale;
    const r = isqrt(e >= 0 ? v.digits * 10n ** BigInt(e) : v.digits / 10n ** BigInt(-e));
    const q = (r + 5n) / 10n;
    const s = q.toString().padStart(scale + 1, '0');
    return scale > 0 ? `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}` : s;
}
/** numeric_stddev_internal: the variance or its root, sample or population, as text; null when too few rows. */
function result(st, variance, sample) {
    // too few rows is NULL even when one is NaN, as PostgreSQL answers
    if (st.n + BigInt(st.nan) <= (sample ? 1n : 0n))
        return null;
    if (st.nan > 0)
        return 'NaN';
    const n = { digits: st.n, scale: 0 };
    const numerator = add(mul(n, st.sxx), mul(st.sx, st.sx), -1n);
    if (numerator.digits <= 0n)
        return '0';
    const den = { digits: st.n * (sample ? st.n - 1n : st.n), scale: 0 };
    const scale = (0, pg_exact_division_1.divScale)(numerator, den);
    const v = (0, pg_exact_division_1.divideText)(numerator, den, scale);
    if (variance)
        return v;
    const [int, frac = ''] = v.split('.');
    return sqrtText({ digits: BigInt(int + frac), scale: frac.length }, scale);
}
const FORMS = {
    stddev: [false, true],
    stddev_samp: [false, true],
    stddev_pop: [false, false],
    variance: [true, true],
    var_samp: [true, true],
    var_pop: [true, false],
};
/** __pg_numeric_stddev, __pg_numeric_var_pop and the others (also window functions). */
function installExactStatistics(db) {
    const step = (sign) => (st, v) => {
        if (v === null)
            return st;
        if (isNaNText(v))
            return { ...st, nan: st.nan + Number(sign) };
        const x = (0, pg_exact_division_1.scaledOf)(v);
        return { n: st.n + sign, sx: add(st.sx, x, sign), sxx: add(st.sxx, mul(x, x), sign), nan: st.nan };
    };
    for (const [name, [variance, sample]] of Object.entries(FORMS))
        db.aggregate(`__pg_numeric_${name}`, {
            safeIntegers: true,
            start: () => ({ n: 0n, sx: { digits: 0n, scale: 0 }, sxx: { digits: 0n, scale: 0 }, nan: 0 }),
            step: step(1n),
            inverse: step(-1n),
            result: (st) => result(st, variance, sample),
        });
}
//# sourceMappingURL=pg-exact-statistics.js.map