"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isNaNText = void 0;
exports.installNumericArithmetic = installNumericArithmetic;
const errors_1 = require("../errors");
// numeric's `+`, `-`, `*`, unary `-`, sum() and avg() with PostgreSQL's NaN: the PG front end keeps
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
/** numeric's NaN as the PG front end stores it. */
const isNaNText = (v) => typeof v === 'string' && /^\s*nan\s*$/i.test(v);
exports.isNaNText = isNaNText;
/** A value as SQLite's arithmetic reads it (text as its leading number, an integer exactly), or NaN. */
function operand(v) {
    if (v === null || v === undefined)
        return null;
    if (typeof v === 'bigint' || typeof v === 'number')
        return v;
    const s = Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
    if ((0, exports.isNaNText)(s))
        return 'NaN';
    if (/^\s*[+-]?\d+\s*$/.test(s)) {
        const n = BigInt(s.trim());
        if (n >= INT8_MIN && n <= INT8_MAX)
            return n;
    }
    const m = NUMBER_PREFIX.exec(s);
    return m ? Number(m[0]) : 0;
}
function arith(op, a, b) {
    const x = operand(a);
    const y = operand(b);
    if (x === null || y === null)
        return null;
    if (x === 'NaN' || y === 'NaN')
        return 'NaN';
    if (typeof x === 'bigint' && typeof y === 'bigint') {
        const r = op === '+' ? x + y : op === '-' ? x - y : x * y;
        if (r >= INT8_MIN && r <= INT8_MAX)
            return r;
    }
    const fx = Number(x);
    const fy = Number(y);
    return op === '+' ? fx + fy : op === '-' ? fx - fy : fx * fy;
}
const start = () => ({ cnt: 0, nan: 0, approx: false, ovrfl: false, iSum: 0n, rSum: 0, rErr: 0 });
function kbnStep(p, r) {
    const s = p.rSum;
    const t = s + r;
    if (Math.abs(s) > Math.abs(r))
        p.rErr += s - t + r;
    else
        p.rErr += r - t + s;
    p.rSum = t;
}
function kbnStepInt(p, v) {
    if (v <= -SPLIT || v >= SPLIT) {
        const small = v % 16384n;
        kbnStep(p, Number(v - small));
        kbnStep(p, Number(small));
    }
    else
        kbnStep(p, Number(v));
}
function kbnInit(p, v) {
    if (v <= -SPLIT || v >= SPLIT) {
        const small = v % 16384n;
        p.rSum = Number(v - small);
        p.rErr = Number(small);
    }
    else {
        p.rSum = Number(v);
        p.rErr = 0;
    }
}
function sumStep(p, v) {
    const x = operand(v);
    if (x === null)
        return p;
    if (x === 'NaN') {
        p.nan++;
        return p;
    }
    p.cnt++;
    if (!p.approx) {
        if (typeof x !== 'bigint') {
            kbnInit(p, p.iSum);
            p.approx = true;
            kbnStep(p, x);
        }
        else {
            const s = p.iSum + x;
            if (s >= INT8_MIN && s <= INT8_MAX)
                p.iSum = s;
            else {
                p.ovrfl = true;
                kbnInit(p, p.iSum);
                p.approx = true;
                kbnStepInt(p, x);
            }
        }
    }
    else if (typeof x === 'bigint')
        kbnStepInt(p, x);
    else {
        p.ovrfl = false;
        kbnStep(p, x);
    }
    return p;
}
function sumInverse(p, v) {
    const x = operand(v);
    if (x === null)
        return p;
    if (x === 'NaN') {
        p.nan--;
        return p;
    }
    p.cnt--;
    if (!p.approx) {
        const s = p.iSum - (typeof x === 'bigint' ? x : BigInt(Math.trunc(x)));
        if (s >= INT8_MIN && s <= INT8_MAX)
            p.iSum = s;
        else {
            p.ovrfl = true;
            p.approx = true;
        }
    }
    else if (typeof x === 'bigint')
        kbnStepInt(p, -x);
    else
        kbnStep(p, -x);
    return p;
}
/** The sum as SQLite's sumFinalize gives it; NaN when a NaN was summed. */
function sumResult(p) {
    if (p.nan > 0)
        return 'NaN';
    if (p.cnt <= 0)
        return null;
    if (!p.approx)
        return p.iSum;
    if (p.ovrfl)
        throw new Error('integer overflow');
    return Number.isFinite(p.rErr) ? p.rSum + p.rErr : p.rSum;
}
/** The average as SQLite's avgFinalize gives it (a double); NaN when a NaN was among the inputs. */
function avgResult(p) {
    if (p.nan > 0)
        return 'NaN';
    if (p.cnt <= 0)
        return null;
    const r = !p.approx ? Number(p.iSum) : Number.isFinite(p.rErr) ? p.rSum + p.rErr : p.rSum;
    return r / p.cnt;
}
/** __pg_num_add/sub/mul/neg and the __pg_numeric_sum and __pg_numeric_avg_double aggregates (also window functions). */
function installNumericArithmetic(db) {
    const opts = { deterministic: true, safeIntegers: true };
    db.function('__pg_num_add', opts, (a, b) => arith('+', a, b));
    db.function('__pg_num_sub', opts, (a, b) => arith('-', a, b));
    db.function('__pg_num_mul', opts, (a, b) => arith('*', a, b));
    db.function('__pg_num_neg', opts, (a) => {
        const x = operand(a);
        if (x === null || x === 'NaN')
            return x;
        return (typeof x === 'bigint' && x !== INT8_MIN ? -x : -Number(x));
    });
    // a numeric division: as a double (SQLite divides two integers as integers), NaN of NaN, 22012 by zero
    db.function('__pg_num_div', opts, (a, b) => {
        const x = operand(a);
        const y = operand(b);
        if (x === null || y === null)
            return null;
        if (x === 'NaN' || y === 'NaN')
            return 'NaN';
        if (Number(y) === 0)
            throw (0, errors_1.sqlStateError)('22012', 'division by zero');
        return Number(x) / Number(y);
    });
    // a ^ b with a or b NaN, as PostgreSQL's numeric_power (POSIX pow): NaN ^ 0 and 1 ^ NaN are 1, the rest NaN
    db.function('__pg_nan_power', opts, (a, b) => {
        const x = operand(a);
        const y = operand(b);
        if (x === null || y === null)
            return null;
        if (x === 'NaN')
            return (y !== 'NaN' && Number(y) === 0 ? 1 : 'NaN');
        if (y === 'NaN')
            return (Number(x) === 1 ? 1 : 'NaN');
        return null;
    });
    for (const [name, result] of [
        ['__pg_numeric_sum', sumResult],
        ['__pg_numeric_avg_double', avgResult],
    ])
        db.aggregate(name, {
            safeIntegers: true,
            start,
            step: sumStep,
            inverse: sumInverse,
            result: result,
        });
}
//# sourceMappingURL=pg-numeric-arith.js.map