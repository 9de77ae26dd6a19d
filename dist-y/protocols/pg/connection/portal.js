"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NO_FORMATS = exports.NO_PARAMS = exports.formatOf = void 0;
exports.checkFormats = checkFormats;
exports.cancelPortal = cancelPortal;
exports.sentScale = sentScale;
exports.portalColumns = portalColumns;
exports.newPortal = newPortal;
const sqlstate_1 = require("../sqlstate");
/** The result format of column i from Bind's result format codes. */
const formatOf = (formats, i) => formats.length === 0 ? 0 : formats.length === 1 ? formats[0] : (formats[i] ?? 0);
exports.formatOf = formatOf;
/** Bind's parameter format codes: none (all text), one for all, or one per parameter. */
function checkFormats(formats, params) {
    if (formats.length > 1 && formats.length !== params)
        throw (0, sqlstate_1.pgError)('08P01', `bind message has ${formats.length} parameter formats but ${params} parameters`);
}
exports.NO_PARAMS = [];
exports.NO_FORMATS = [];
/** Ends a portal's streamed read, if it has one. */
function cancelPortal(p) {
    p.outcome?.rows?.cancel();
}
/**
 * The scale of a numeric parameter as sent: its text's digits after the point (less an exponent's),
 * or the display scale of its binary form; 0 for anything else.
 */
function sentScale(raw, format) {
    if (raw === null)
        return 0;
    if (format === 1)
        return raw.length >= 8 ? Math.max(0, raw.readInt16BE(6)) : 0;
    const m = /^\s*[+-]?\d*\.(\d+)(?:[eE]([+-]?\d+))?\s*$/.exec(raw.toString('latin1'));
    return m ? Math.max(0, m[1].length - Number(m[2] ?? 0)) : 0;
}
/**
 * The result columns as a portal prints them: a numeric whose scale is at least its parameters'
 * (`$1::numeric`, `amount + $1`) at the larger of its own and theirs as bound, as PostgreSQL's
 * numeric keeps the digits sent ('1.500' is 1.500; the value reaches SQLite as the double 1.5).
 */
function portalColumns(p, columns) {
    const sent = p.paramScales;
    if (!sent)
        return columns;
    let out;
    columns.forEach((c, i) => {
        if (!c.scaleParams)
            return;
        const scale = Math.max(c.scale ?? 0, ...c.scaleParams.map((k) => sent[k - 1] ?? 0));
        if (scale === c.scale)
            return;
        out ??= columns.slice();
        out[i] = { ...c, scale };
    });
    return out ?? columns;
}
function newPortal(an, params, formats) {
    return { an, params, formats, fields: null, outcome: null, pending: NO_ROWS, at: 0, sent: 0, done: false };
}
const NO_ROWS = [];
//# sourceMappingURL=portal.js.map