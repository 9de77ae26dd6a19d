"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.float8Codec = exports.float4Codec = exports.storedFloat = exports.floatText = void 0;
exports.floatOf = floatOf;
// float4 and float8 codecs: the text PostgreSQL 15 prints (src/engine/float-text.ts, shared with a
// float cast to text in SQL) and their IEEE 754 binary forms.
const float_text_1 = require("../../../src/engine/float-text");
Object.defineProperty(exports, "floatText", { enumerable: true, get: function () { return float_text_1.floatText; } });
const codec_1 = require("./codec");
/** A stored value as a float: a number, a bigint, or float text ('NaN', 'Infinity', '1.5'). */
function floatOf(v, type) {
    if (typeof v === 'number')
        return v;
    if (typeof v === 'bigint')
        return Number(v);
    if (typeof v === 'string') {
        const t = v.trim().toLowerCase();
        if (t === 'nan')
            return Number.NaN;
        if (t === 'infinity' || t === 'inf' || t === '+infinity')
            return Infinity;
        if (t === '-infinity' || t === '-inf')
            return -Infinity;
        const n = Number(t);
        if (t !== '' && !Number.isNaN(n))
            return n;
    }
    return (0, codec_1.notA)(type, v);
}
/** A float that binds to SQLite as itself; NaN as the text 'NaN' (SQLite would make a NULL of it). */
const storedFloat = (n) => (Number.isNaN(n) ? 'NaN' : n);
exports.storedFloat = storedFloat;
exports.float4Codec = {
    oid: 700,
    name: 'float4',
    text: (v) => (0, float_text_1.floatText)(Math.fround(floatOf(v, 'float4')), true),
    binary: (v) => {
        const b = (0, codec_1.bytes)(4);
        b.writeFloatBE(floatOf(v, 'float4'));
        return b;
    },
    textOfBinary: (raw) => {
        (0, codec_1.expectLength)(raw, 4, 'float4');
        return (0, float_text_1.floatText)(raw.readFloatBE(0), true);
    },
    fromBinary: (raw) => {
        (0, codec_1.expectLength)(raw, 4, 'float4');
        return (0, exports.storedFloat)(raw.readFloatBE(0));
    },
};
exports.float8Codec = {
    oid: 701,
    name: 'float8',
    text: (v) => (0, float_text_1.floatText)(floatOf(v, 'float8')),
    binary: (v) => {
        const b = (0, codec_1.bytes)(8);
        b.writeDoubleBE(floatOf(v, 'float8'));
        return b;
    },
    textOfBinary: (raw) => {
        (0, codec_1.expectLength)(raw, 8, 'float8');
        return (0, float_text_1.floatText)(raw.readDoubleBE(0));
    },
    fromBinary: (raw) => {
        (0, codec_1.expectLength)(raw, 8, 'float8');
        return (0, exports.storedFloat)(raw.readDoubleBE(0));
    },
};
//# sourceMappingURL=float.js.map