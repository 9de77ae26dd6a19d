"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.uuidCodec = exports.byteaCodec = exports.jsonbCodec = exports.jsonCodec = exports.xmlCodec = exports.unknownCodec = exports.charCodec = exports.nameCodec = exports.bpcharCodec = exports.varcharCodec = exports.textCodec = void 0;
exports.utf8Of = utf8Of;
exports.plainText = plainText;
exports.uuidText = uuidText;
// The types whose binary form is their text in UTF-8 (text, varchar, bpchar, name, "char", json,
// unknown), jsonb (a version byte 1, then the text), bytea (the bytes themselves) and uuid (16 bytes).
const codec_1 = require("./codec");
const float_1 = require("./float");
const jsonb_1 = require("./jsonb");
const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** Binary text as a string; bytes that are no UTF-8 are refused as PostgreSQL refuses them (22021). */
function utf8Of(raw, type) {
    try {
        return UTF8.decode(raw);
    }
    catch {
        throw new codec_1.BadBinary(`invalid byte sequence for encoding "UTF8" in a ${type} value`, '22021');
    }
}
/** Any stored value as text: strings as they are, numbers as PostgreSQL prints them, blobs in bytea's hex. */
function plainText(v) {
    if (typeof v === 'string')
        return v;
    if (typeof v === 'number')
        return Number.isInteger(v) ? String(v) : (0, float_1.floatText)(v);
    if (v instanceof Uint8Array)
        return '\\x' + Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
    return String(v);
}
function textLike(oid, name) {
    return {
        oid,
        name,
        text: plainText,
        binary: (v) => Buffer.from(plainText(v), 'utf8'),
        textOfBinary: (raw) => utf8Of(raw, name),
    };
}
exports.textCodec = textLike(25, 'text');
exports.varcharCodec = textLike(1043, 'varchar');
exports.bpcharCodec = textLike(1042, 'bpchar');
exports.nameCodec = textLike(19, 'name');
exports.charCodec = textLike(18, 'char');
exports.unknownCodec = textLike(705, 'unknown');
exports.xmlCodec = textLike(142, 'xml');
/** Text that parses as JSON, else a 22P02 refusal as PostgreSQL's json input gives. */
function checkedJson(s, type) {
    try {
        JSON.parse(s);
    }
    catch {
        throw new codec_1.BadBinary(`invalid input syntax for type ${type}`, '22P02');
    }
    return s;
}
exports.jsonCodec = {
    oid: 114,
    name: 'json',
    text: plainText,
    binary: (v) => Buffer.from(plainText(v), 'utf8'),
    textOfBinary: (raw) => checkedJson(utf8Of(raw, 'json'), 'json'),
};
/** A stored jsonb value as PostgreSQL prints it; text that is no JSON as it is. */
const jsonbOut = (v) => {
    const s = plainText(v);
    return (0, jsonb_1.jsonbText)(s) ?? s;
};
exports.jsonbCodec = {
    oid: 3802,
    name: 'jsonb',
    text: jsonbOut,
    binary: (v) => {
        const s = jsonbOut(v);
        const b = (0, codec_1.bytes)(1 + Buffer.byteLength(s));
        b[0] = 1;
        b.write(s, 1);
        return b;
    },
    textOfBinary: (raw) => {
        if (raw.length === 0 || raw[0] !== 1)
            throw new codec_1.BadBinary(`unsupported jsonb version number ${raw.length ? raw[0] : 'missing'}`);
        return checkedJson(utf8Of(raw.subarray(1), 'jsonb'), 'jsonb');
    },
};
/** The bytes of a stored bytea value: a blob, or text in bytea's hex form ('\x0102'), else the text's UTF-8. */
function byteaOf(v) {
    if (v instanceof Uint8Array)
        return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    const s = plainText(v);
    if (/^\\x([0-9a-fA-F]{2})*$/.test(s))
        return Buffer.from(s.slice(2), 'hex');
    return Buffer.from(s, 'utf8');
}
exports.byteaCodec = {
    oid: 17,
    name: 'bytea',
    text: (v) => '\\x' + byteaOf(v).toString('hex'),
    binary: byteaOf,
    textOfBinary: (raw) => '\\x' + raw.toString('hex'),
    fromBinary: (raw) => Buffer.from(raw),
};
const UUID_RE = /^\{?([0-9a-f]{4}-?){7}[0-9a-f]{4}\}?$/i;
/** The 32 hex digits of a uuid in any spelling PostgreSQL reads; null when it is none. */
function uuidHex(v) {
    if (v instanceof Uint8Array && v.length === 16)
        return Buffer.from(v).toString('hex');
    if (typeof v !== 'string')
        return null;
    const s = v.trim();
    if (!UUID_RE.test(s) || s.startsWith('{') !== s.endsWith('}'))
        return null;
    return s.replace(/[{}-]/g, '').toLowerCase();
}
const hyphenated = (h) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
/** A uuid as PostgreSQL prints it (lowercase, hyphenated); null when `v` is no uuid. */
function uuidText(v) {
    const h = uuidHex(v);
    return h === null ? null : hyphenated(h);
}
exports.uuidCodec = {
    oid: 2950,
    name: 'uuid',
    text: (v) => uuidText(v) ?? plainText(v),
    binary: (v) => {
        const h = uuidHex(v);
        return h === null ? (0, codec_1.notA)('uuid', v) : Buffer.from(h, 'hex');
    },
    textOfBinary: (raw) => {
        (0, codec_1.expectLength)(raw, 16, 'uuid');
        return hyphenated(raw.toString('hex'));
    },
};
//# sourceMappingURL=text.js.map