"use strict";
// float4 and float8 as PostgreSQL 15 prints them: the shortest digits that read back to the same
// value, in plain notation for decimal exponents from -4 up to 14 (float8) or 5 (float4), else
// '1e+15' notation. The PG front end's codecs (protocols/pg/types/float.ts) and a float cast to text
// in SQL (__pg_text, pg-functions.ts) print with it.
Object.defineProperty(exports, "__esModule", { value: true });
exports.floatText = floatText;
/** The shortest digits of `v` (as a float4 when `single`) and the decimal exponent of the first one. */
function shortest(v, single) {
    let e = v.toExponential();
    if (single) {
        for (let p = 0; p < 9; p++) {
            const t = v.toExponential(p);
            if (Math.fround(Number(t)) === v) {
                e = t;
                break;
            }
        }
    }
    const at = e.indexOf('e');
    return { digits: e.slice(0, at).replace('.', '').replace('-', ''), exp: Number(e.slice(at + 1)) };
}
/** PostgreSQL's text of a float. */
function floatText(v, single = false) {
    if (Number.isNaN(v))
        return 'NaN';
    if (v === Infinity)
        return 'Infinity';
    if (v === -Infinity)
        return '-Infinity';
    if (v === 0)
        return Object.is(v, -0) ? '-0' : '0';
    const sign = v < 0 ? '-' : '';
    const { digits, exp } = shortest(Math.abs(v), single);
    if (exp < -4 || exp >= (single ? 6 : 15)) {
        const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
        const ex = Math.abs(exp);
        return `${sign}${mant}e${exp < 0 ? '-' : '+'}${ex < 10 ? '0' : ''}${ex}`;
    }
    if (exp < 0)
        return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    if (digits.length <= exp + 1)
        return sign + digits + '0'.repeat(exp + 1 - digits.length);
    return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}
//# sourceMappingURL=float-text.js.map