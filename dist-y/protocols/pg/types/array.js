"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.arrayElements = arrayElements;
exports.arrayCodec = arrayCodec;
// One-dimensional arrays of any type with a codec, and int2vector/oidvector (the catalog's arrays,
// printed '1 2 3' and counted from 0). Stored as PostgreSQL's text '{a,"b c",NULL}' (or, in the
// catalog, JSON '[...]' or '1 2'); binary: int32 dimensions, int32 has-nulls flag, element type OID,
// per dimension int32 length and lower bound, then each element as int32 length (-1 for NULL) and bytes.
const codec_1 = require("./codec");
const text_1 = require("./text");
/** The elements of stored array text, as strings (null for NULL); null when `v` is no array. */
function arrayElements(v) {
    if (typeof v !== 'string')
        return null;
    const s = v.trim();
    if (s.startsWith('[')) {
        try {
            const xs = JSON.parse(s);
            if (!Array.isArray(xs))
                return null;
            return xs.map((x) => (x !== null && typeof x === 'object' ? JSON.stringify(x) : x));
        }
        catch {
            return null;
        }
    }
    if (!s.startsWith('{'))
        return /^-?\d+(\s+-?\d+)*$/.test(s) ? s.split(/\s+/) : s === '' ? [] : null;
    return parseBraces(s);
}
/** PostgreSQL's one-dimensional array text: '{a,"b,c",NULL,"NULL"}'. */
function parseBraces(s) {
    if (!s.endsWith('}'))
        return null;
    const out = [];
    let i = 1;
    const end = s.length - 1;
    const space = (c) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
    while (i < end && space(s[i]))
        i++;
    if (i === end)
        return out;
    for (;;) {
        while (i < end && space(s[i]))
            i++;
        let item = '';
        let quoted = false;
        if (s[i] === '"') {
            quoted = true;
            i++;
            while (i < end && s[i] !== '"') {
                if (s[i] === '\\')
                    i++;
                item += s[i++];
            }
            if (s[i] !== '"')
                return null;
            i++;
            while (i < end && space(s[i]))
                i++;
        }
        else {
            while (i < end && s[i] !== ',') {
                if (s[i] === '{' || s[i] === '}' || s[i] === '"')
                    return null; // nested or malformed
                if (s[i] === '\\')
                    i++;
                item += s[i++];
            }
            item = item.trimEnd();
            if (item === '')
                return null;
        }
        out.push(!quoted && item.toUpperCase() === 'NULL' ? null : item);
        if (i === end)
            return out;
        if (s[i] !== ',')
            return null;
        i++;
    }
}
/** An element in array text, quoted where PostgreSQL quotes it. */
function quoted(t) {
    if (t === '' || /[{}",\\\s]/.test(t) || t.toUpperCase() === 'NULL')
        return `"${t.replace(/["\\]/g, '\\$&')}"`;
    return t;
}
/** The binary array of `elements` (each already encoded, null for NULL). */
function arrayBinary(elemOid, elements, lbound) {
    let size = elements.length === 0 ? 12 : 20;
    for (const e of elements)
        size += 4 + (e ? e.length : 0);
    const b = Buffer.allocUnsafe(size);
    b.writeInt32BE(elements.length === 0 ? 0 : 1, 0);
    b.writeInt32BE(elements.includes(null) ? 1 : 0, 4);
    b.writeUInt32BE(elemOid, 8);
    let at = 12;
    if (elements.length > 0) {
        b.writeInt32BE(elements.length, 12);
        b.writeInt32BE(lbound, 16);
        at = 20;
    }
    for (const e of elements) {
        b.writeInt32BE(e ? e.length : -1, at);
        at += 4;
        if (e)
            at += e.copy(b, at);
    }
    return b;
}
/** The elements of a binary array of `elem` (null for NULL), checked as array_recv checks them. */
function elementsOfBinary(raw, elem, lbound, name) {
    const need = (n, at) => {
        if (raw.length < at + n)
            throw new codec_1.BadBinary(`${name} value ends early (${raw.length} bytes)`);
    };
    need(12, 0);
    const ndim = raw.readInt32BE(0);
    const flags = raw.readInt32BE(4);
    const elemOid = raw.readUInt32BE(8);
    if (ndim < 0)
        throw new codec_1.BadBinary(`invalid number of dimensions: ${ndim}`);
    if (ndim > 1)
        throw new codec_1.BadBinary(`${name} takes one dimension, got ${ndim} (multi-dimensional arrays are not supported)`);
    if (flags !== 0 && flags !== 1)
        throw new codec_1.BadBinary(`invalid array flags ${flags}`);
    if (elemOid !== elem.oid)
        throw new codec_1.BadBinary(`binary data has array element type ${elemOid} instead of expected ${elem.oid} (${elem.name})`, '42804');
    if (ndim === 0) {
        if (raw.length !== 12)
            throw new codec_1.BadBinary(`an empty ${name} takes 12 bytes, got ${raw.length}`);
        return [];
    }
    need(8, 12);
    const n = raw.readInt32BE(12);
    const lb = raw.readInt32BE(16);
    if (n < 0 || n > 10_000_000)
        throw new codec_1.BadBinary(`invalid array length ${n}`);
    if (lbound !== null ? lb !== lbound : lb !== 1)
        throw new codec_1.BadBinary(`${name} takes lower bound ${lbound ?? 1}, got ${lb} (custom bounds are not supported)`);
    const out = [];
    let at = 20;
    for (let k = 0; k < n; k++) {
        need(4, at);
        const len = raw.readInt32BE(at);
        at += 4;
        if (len === -1) {
            out.push(null);
            continue;
        }
        if (len < 0)
            throw new codec_1.BadBinary(`invalid element length ${len}`);
        need(len, at);
        out.push(raw.subarray(at, at + len));
        at += len;
    }
    if (at !== raw.length)
        throw new codec_1.BadBinary(`${name} has ${raw.length - at} bytes after its last element`);
    return out;
}
/** The array codec of `elem`; `vector` for int2vector/oidvector (space-separated text, lower bound 0, no NULLs). */
function arrayCodec(oid, name, elem, vector = false) {
    const lbound = vector ? 0 : 1;
    const elementText = (x) => (x === null ? 'NULL' : quoted(elem.text(x)));
    return {
        oid,
        name,
        text: (v) => {
            const xs = arrayElements(v);
            if (xs === null)
                return (0, text_1.plainText)(v);
            return vector ? xs.map((x) => elem.text(x)).join(' ') : `{${xs.map(elementText).join(',')}}`;
        },
        binary: (v) => {
            const xs = arrayElements(v);
            if (xs === null)
                return (0, codec_1.notA)(name, v);
            return arrayBinary(elem.oid, xs.map((x) => (x === null ? null : elem.binary(x))), lbound);
        },
        textOfBinary: (raw) => {
            const xs = elementsOfBinary(raw, elem, vector ? 0 : null, name);
            if (vector) {
                if (xs.includes(null))
                    throw new codec_1.BadBinary(`${name} has a NULL element`);
                return xs.map((x) => elem.textOfBinary(x)).join(' ');
            }
            return `{${xs.map((x) => (x === null ? 'NULL' : quoted(elem.textOfBinary(x)))).join(',')}}`;
        },
    };
}
//# sourceMappingURL=array.js.map