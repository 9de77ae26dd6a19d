"use strict";
// Decimal numbers as text, exactly: what PostgreSQL's numeric reads and prints (also jsonb's numbers).
Object.defineProperty(exports, "__esModule", { value: true });
exports.isZero = void 0;
exports.parseDecimal = parseDecimal;
exports.decimalText = decimalText;
exports.decimalAtScale = decimalAtScale;
const DECIMAL_RE = /^\s*([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;
/** Reads numeric input text ('1.50', '-1e30', ' NaN ', 'Infinity'); null when it is no number. */
function parseDecimal(s) {
    const m = DECIMAL_RE.exec(s);
    if (!m) {
        const w = s.trim().toLowerCase();
        if (w === 'nan')
            return { neg: false, int: '', frac: '', special: 'NaN' };
        if (w === 'infinity' || w === '+infinity' || w === 'inf' || w === '+inf')
            return { neg: false, int: '', frac: '', special: 'Infinity' };
        if (w === '-infinity' || w === '-inf')
            return { neg: true, int: '', frac: '', special: '-Infinity' };
        return null;
    }
    const intDigits = m[2];
    const fracDigits = m[3] ?? '';
    if (intDigits === '' && fracDigits === '')
        return null;
    const exp = m[4] ? Number(m[4]) : 0;
    if (!Number.isSafeInteger(exp) || Math.abs(exp) > 1000)
        return null;
    let int = intDigits;
    let frac = fracDigits;
    if (exp > 0) {
        const moved = frac.slice(0, exp).padEnd(exp, '0');
        int += moved;
        frac = frac.slice(exp);
    }
    else if (exp < 0) {
        const k = -exp;
        const padded = int.padStart(k, '0');
        frac = padded.slice(padded.length - k) + frac;
        int = padded.slice(0, padded.length - k);
    }
    int = int.replace(/^0+/, '');
    return { neg: m[1] === '-', int, frac };
}
const isZero = (d) => !/[1-9]/.test(d.int) && !/[1-9]/.test(d.frac);
exports.isZero = isZero;
/** PostgreSQL's text of a decimal. */
function decimalText(d) {
    if (d.special)
        return d.special;
    const body = (d.int || '0') + (d.frac ? '.' + d.frac : '');
    return d.neg && !(0, exports.isZero)(d) ? '-' + body : body;
}
/**
 * A decimal at exactly `scale` fraction digits, rounded half away from zero as PostgreSQL rounds a
 * value into numeric(p, s) (1.005 is 1.01, 2.5 at scale 0 is 3); zeros added to a shorter fraction.
 */
function decimalAtScale(d, scale) {
    if (d.special || d.frac.length === scale)
        return d;
    if (d.frac.length < scale)
        return { ...d, frac: d.frac.padEnd(scale, '0') };
    const up = d.frac.charCodeAt(scale) >= 53; // the first digit cut is 5 or more
    let digits = (d.int + d.frac.slice(0, scale)).split('');
    if (up) {
        let i = digits.length - 1;
        while (i >= 0 && digits[i] === '9')
            digits[i--] = '0';
        if (i >= 0)
            digits[i] = String(Number(digits[i]) + 1);
        else
            digits = ['1', ...digits];
    }
    const intLen = digits.length - scale;
    return { neg: d.neg, int: digits.slice(0, intLen).join('').replace(/^0+/, ''), frac: digits.slice(intLen).join('') };
}
//# sourceMappingURL=decimal.js.map