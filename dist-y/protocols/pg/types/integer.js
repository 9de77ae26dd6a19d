"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.boolCodec = exports.int8Codec = exports.oidCodec = exports.int4Codec = exports.int2Codec = void 0;
exports.readInt8 = readInt8;
// The integer types (int2, int4, int8, oid) and bool: fixed-width big-endian binary forms, range
// checked both ways. int8 stays exact: a value beyond 2^53 is a bigint, never a rounded number.
const codec_1 = require("./codec");
const float_1 = require("./float");
const sqlstate_1 = require("../sqlstate");
const TWO_32 = 2 ** 32;
/** A stored value as an integer within [min, max]: a number, a bigint or integer text. */
function integerOf(v, type, min, max) {
    let n = null;
    if (typeof v === 'number')
        n = Number.isInteger(v) ? v : null;
    else if (typeof v === 'bigint')
        n = v;
    else if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v))
        n = BigInt(v.trim());
    if (n === null || n < min || n > max)
        return (0, codec_1.notA)(type, v);
    return n;
}
/** Text of an integer column's value: integers as digits, anything else as PostgreSQL would print it. */
function integerText(v) {
    if (typeof v === 'number')
        return Number.isInteger(v) ? String(v) : (0, float_1.floatText)(v);
    return String(v);
}
/**
 * An integer beyond int2 or int4 in a column of that type is arithmetic that overflowed (`2147483647 + 1`:
 * SQLite's integers are 64-bit): PostgreSQL's 22003, in text as in binary, not a number the type cannot hold.
 */
function inRange(v, name, min, max) {
    if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint') {
        if (v < min || v > max)
            throw (0, sqlstate_1.pgError)('22003', `${name === 'int2' ? 'smallint' : 'integer'} out of range`);
    }
    return v;
}
function fixedInt(oid, name, size, min, max) {
    const checked = oid !== 26;
    const read = (raw) => {
        (0, codec_1.expectLength)(raw, size, name);
        return size === 2 ? raw.readInt16BE(0) : oid === 26 ? raw.readUInt32BE(0) : raw.readInt32BE(0);
    };
    return {
        oid,
        name,
        text: checked ? (v) => integerText(inRange(v, name, min, max)) : integerText,
        binary: (v) => {
            if (checked)
                inRange(v, name, min, max);
            const n = Number(integerOf(v, name, BigInt(min), BigInt(max)));
            const b = (0, codec_1.bytes)(size);
            if (size === 2)
                b.writeInt16BE(n);
            else if (oid === 26)
                b.writeUInt32BE(n);
            else
                b.writeInt32BE(n);
            return b;
        },
        textOfBinary: (raw) => String(read(raw)),
        fromBinary: read,
    };
}
exports.int2Codec = fixedInt(21, 'int2', 2, -32768, 32767);
exports.int4Codec = fixedInt(23, 'int4', 4, -2147483648, 2147483647);
exports.oidCodec = fixedInt(26, 'oid', 4, 0, 4294967295);
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;
/** An int8 from 8 bytes: a number when exact, else a bigint. */
function readInt8(raw) {
    const hi = raw.readInt32BE(0);
    const lo = raw.readUInt32BE(4);
    // |hi| < 2^21 keeps hi·2^32 + lo within Number's exact integers
    if (hi >= -0x200000 && hi < 0x200000)
        return hi * TWO_32 + lo;
    return raw.readBigInt64BE(0);
}
/**
 * A double beyond 64 bits in an int8 column is integer arithmetic that overflowed (SQLite makes a
 * double of it): PostgreSQL's 22003, not the double's digits as if they were the integer.
 */
function overflowed(v) {
    if (typeof v === 'number' && Math.abs(v) >= 2 ** 63)
        throw (0, sqlstate_1.pgError)('22003', 'bigint out of range');
    return v;
}
exports.int8Codec = {
    oid: 20,
    name: 'int8',
    text: (v) => integerText(overflowed(v)),
    binary: (v) => {
        const b = (0, codec_1.bytes)(8);
        overflowed(v);
        if (typeof v === 'number' && Number.isSafeInteger(v)) {
            const hi = Math.floor(v / TWO_32);
            b.writeInt32BE(hi, 0);
            b.writeUInt32BE(v - hi * TWO_32, 4);
        }
        else
            b.writeBigInt64BE(BigInt(integerOf(v, 'int8', INT8_MIN, INT8_MAX)));
        return b;
    },
    textOfBinary: (raw) => {
        (0, codec_1.expectLength)(raw, 8, 'int8');
        return String(readInt8(raw));
    },
    fromBinary: (raw) => {
        (0, codec_1.expectLength)(raw, 8, 'int8');
        return readInt8(raw);
    },
};
const TRUE_WORDS = new Set(['t', 'true', 'y', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['f', 'false', 'n', 'no', 'off', '0']);
/** A stored boolean (1 and 0, as booleans bind; or a boolean word) as true or false; null when it is none. */
function boolOf(v) {
    if (v === 1 || v === 1n || v === true)
        return true;
    if (v === 0 || v === 0n || v === false)
        return false;
    if (typeof v === 'string') {
        const w = v.trim().toLowerCase();
        if (TRUE_WORDS.has(w))
            return true;
        if (FALSE_WORDS.has(w))
            return false;
    }
    return null;
}
const TRUE_BYTE = Buffer.from([1]);
const FALSE_BYTE = Buffer.from([0]);
exports.boolCodec = {
    oid: 16,
    name: 'bool',
    text: (v) => {
        const b = boolOf(v);
        return b === null ? integerText(v) : b ? 't' : 'f';
    },
    binary: (v) => {
        const b = boolOf(v);
        if (b === null)
            return (0, codec_1.notA)('bool', v);
        return b ? TRUE_BYTE : FALSE_BYTE;
    },
    textOfBinary: (raw) => (exports.boolCodec.fromBinary(raw) === 1n ? 't' : 'f'),
    // booleans bind as INTEGER 1 and 0, as text parameters do
    fromBinary: (raw) => {
        (0, codec_1.expectLength)(raw, 1, 'bool');
        return raw[0] !== 0 ? 1n : 0n; // any byte but 0 is true, as boolrecv reads it
    },
};
//# sourceMappingURL=integer.js.map