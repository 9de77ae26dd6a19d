"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.hasBinary = void 0;
exports.textOf = textOf;
exports.binaryOf = binaryOf;
exports.paramValue = paramValue;
// Values to and from the wire: a result cell in text or binary format as PostgreSQL prints or
// encodes the column's type (the codecs of this folder), and a Bind parameter in either format
// decoded to the SQLite value it binds as (22P02 or 22P03 for one that is no value of its type).
const dates_1 = require("../../../src/engine/dates");
const jsonb_1 = require("../../../src/engine/jsonb");
const pg_array_input_1 = require("../../../src/engine/pg-array-input");
const pg_functions_1 = require("../../../src/engine/pg-functions");
const pg_strings_1 = require("../../../src/engine/pg-strings");
const errors_1 = require("../../../src/errors");
const codec_1 = require("./codec");
const element_kind_1 = require("./element-kind");
const numeric_1 = require("./numeric");
const oids_1 = require("./oids");
const registry_1 = require("./registry");
const text_1 = require("./text");
/**
 * A cell in text format, as PostgreSQL prints the column's type; null stays null. A value that is
 * no value of the type goes as it is. `typmod` is the column's (numeric(p, s) prints s digits,
 * char(n) is padded to n), -1 for none.
 */
function textOf(v, oid, typmod = -1) {
    if (v === null || v === undefined)
        return null;
    const codec = (0, registry_1.codecOf)(oid);
    if (codec === undefined)
        return (0, text_1.plainText)(v);
    try {
        if (typmod >= 4) {
            if (oid === oids_1.OID.numeric)
                return (0, numeric_1.decimalText)((0, numeric_1.decimalAtTypmod)(v, typmod));
            if (oid === oids_1.OID.bpchar)
                return codec.text(v).padEnd(typmod - 4, ' ');
        }
        return codec.text(v);
    }
    catch (err) {
        if (err instanceof codec_1.NotEncodable)
            return (0, text_1.plainText)(v);
        throw err;
    }
}
/** Whether results of a type can go in binary format (else the column is announced, and sent, as text). */
const hasBinary = (oid) => (0, registry_1.codecOf)(oid) !== undefined;
exports.hasBinary = hasBinary;
/** A cell in binary format, exactly as PostgreSQL encodes the type; refused (22P03) when the value is no value of it. */
function binaryOf(v, oid, column, typmod = -1) {
    if (v === null || v === undefined)
        return null;
    const codec = (0, registry_1.codecOf)(oid) ?? (0, registry_1.codecOf)(oids_1.OID.text);
    try {
        if (typmod >= 4 && oid === oids_1.OID.numeric)
            return (0, numeric_1.decimalBinary)((0, numeric_1.decimalAtTypmod)(v, typmod));
        return codec.binary(v);
    }
    catch (err) {
        if (err instanceof codec_1.NotEncodable)
            throw new errors_1.PatinaError('user', `column "${column}": ${err.message}, so it has no binary form; read it in text format or correct the value`, undefined, '22P03');
        throw err;
    }
}
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
function parseInteger(s, param) {
    const t = s.trim();
    if (!/^[-+]?\d+$/.test(t))
        throw new errors_1.PatinaError('user', `invalid input syntax for type integer: "${s}" (parameter $${param + 1})`, undefined, '22P02');
    const n = Number(t);
    if (Number.isSafeInteger(n))
        return n;
    const b = BigInt(t);
    // beyond 64 bits PostgreSQL's input fails (22003); SQLite could not bind it ("too big", 42000)
    if (b < INT64_MIN || b > INT64_MAX)
        throw new errors_1.PatinaError('user', `value "${s}" is out of range for type bigint (parameter $${param + 1})`, undefined, '22003');
    return b;
}
/** A text parameter read as the cast reads its type (src/engine), its error naming the parameter. */
function asParam(read, param) {
    try {
        return read();
    }
    catch (err) {
        if (!(err instanceof errors_1.PatinaError))
            throw err;
        throw new errors_1.PatinaError('user', `${err.message} (parameter $${param + 1})`, undefined, err.sqlstate ?? '22P02');
    }
}
/**
 * A numeric or float parameter as SQLite keeps it: an integer exactly (a bigint beyond 2^53), other
 * numbers as doubles, NaN as the text 'NaN' (SQLite would make a NULL of a NaN double).
 */
function parseNumber(s, oid, param) {
    const t = s.trim();
    if (oid === oids_1.OID.numeric && /^[-+]?\d+$/.test(t)) {
        const b = BigInt(t);
        if (b >= INT64_MIN && b <= INT64_MAX)
            return Number.isSafeInteger(Number(b)) ? Number(b) : b;
    }
    const d = (0, numeric_1.parseDecimal)(t);
    if (d === null)
        throw new errors_1.PatinaError('user', `invalid input syntax for type ${oid === oids_1.OID.numeric ? 'numeric' : oid === oids_1.OID.float4 ? 'real' : 'double precision'}: "${s}" (parameter $${param + 1})`, undefined, '22P02');
    if (d.special === 'NaN')
        return 'NaN';
    if (d.special)
        return d.special === 'Infinity' ? Infinity : -Infinity;
    return Number(t);
}
/**
 * The text that is a plain decimal integer, an optional minus and up to 15 digits without
 * a leading zero (exact as a number, and what an unknown-typed parameter takes as a number); else null.
 */
function plainInteger(raw) {
    const len = raw.length;
    const neg = len > 0 && raw[0] === 45;
    const from = neg ? 1 : 0;
    const digits = len - from;
    if (digits === 0 || digits > 15 || (raw[from] === 48 && digits > 1))
        return null;
    let n = 0;
    for (let i = from; i < len; i++) {
        const d = raw[i] - 48;
        if (d < 0 || d > 9)
            return null;
        n = n * 10 + d;
    }
    return neg ? -n : n;
}
/** A binary parameter as the value its text form would be stored as; refused (22P03) when it does not decode. */
function binaryParam(raw, oid, param) {
    if (oid === 0)
        return Buffer.from(raw); // no type given: the bytes the client sent
    const codec = (0, registry_1.codecOf)(oid);
    if (codec === undefined)
        throw new errors_1.PatinaError('user', `incorrect binary data format in bind parameter $${param + 1}: type OID ${oid} has no binary format in Patina (send it as text)`, undefined, '22P03');
    try {
        if (codec.fromBinary)
            return codec.fromBinary(raw);
        return textParam(codec.textOfBinary(raw), oid, param);
    }
    catch (err) {
        if (err instanceof codec_1.BadBinary)
            throw new errors_1.PatinaError('user', `incorrect binary data format in bind parameter $${param + 1} (${codec.name}): ${err.message}`, undefined, err.code);
        throw err;
    }
}
/** Parameter `param` (0-based) from the wire to a SQLite value, by its type OID and format (0 text, 1 binary). */
function paramValue(raw, oid, format, param) {
    if (raw === null)
        return null;
    if (format === 1)
        return binaryParam(raw, oid, param);
    if (format !== 0)
        throw new errors_1.PatinaError('user', `incorrect binary data format in bind parameter $${param + 1}: unsupported format code ${format} (0 is text, 1 binary)`, undefined, '22P03');
    if (oid === oids_1.OID.int2 || oid === oids_1.OID.int4 || oid === oids_1.OID.int8 || oid === oids_1.OID.oid || oid === 0) {
        // the usual key parameter, read from its bytes: no string, no regular expression
        const n = plainInteger(raw);
        if (n !== null)
            return n;
    }
    return textParam(raw.toString('utf8'), oid, param);
}
/** A text parameter of type `oid` as SQLite keeps it. */
function textParam(s, oid, param) {
    switch (oid) {
        case oids_1.OID.int2:
        case oids_1.OID.int4:
        case oids_1.OID.int8:
        case oids_1.OID.oid:
            return parseInteger(s, param);
        case oids_1.OID.float4:
        case oids_1.OID.float8:
        case oids_1.OID.numeric:
            return parseNumber(s, oid, param);
        case oids_1.OID.bool:
            // booleans bind as INTEGER 1 and 0 (a JS number would bind as REAL 1.0, which `lower()` spells '1.0')
            return asParam(() => BigInt((0, pg_functions_1.pgBool)(s)), param);
        case oids_1.OID.bytea:
            return asParam(() => (0, pg_strings_1.byteaInput)(s), param);
        case oids_1.OID.uuid: {
            const u = (0, text_1.uuidText)(s);
            if (u === null)
                throw new errors_1.PatinaError('user', `invalid input syntax for type uuid: "${s}" (parameter $${param + 1})`, undefined, '22P02');
            return u;
        }
        // stored as the UTC text comparisons expect (node-postgres sends a Date as '2026-11-01T01:00:00.000+01:00')
        case oids_1.OID.date:
        case oids_1.OID.timestamp:
        case oids_1.OID.timestamptz: {
            // read as the cast reads it ('infinity', '... EST', '0044-03-15 BC'); text that is no date
            // fails as PostgreSQL's input does ('2024-02-30': 22008), where it used to be stored as sent
            const cast = oid === oids_1.OID.date ? dates_1.castDate : oid === oids_1.OID.timestamp ? dates_1.castTimestamp : dates_1.castTimestamptz;
            return asParam(() => cast(s), param).replace(/\+00$/, '');
        }
        // a time and an interval as an INSERT's literal is kept ('10:30' as '10:30:00'); text that is
        // none fails as PostgreSQL's input does ('10:30 FOO': 22007), where it used to be stored as sent
        case oids_1.OID.time:
            return asParam(() => (0, dates_1.dateTimeInput)('time', s), param);
        case oids_1.OID.interval:
            return asParam(() => (0, dates_1.dateTimeInput)('interval', s), param);
        // text that is no JSON fails as PostgreSQL's json_in does (22P02), where it used to be stored as sent
        case oids_1.OID.json:
        case oids_1.OID.jsonb:
            asParam(() => (0, jsonb_1.jsonOperand)(s), param);
            // jsonb keeps its strings as text, which cannot hold a NUL: PostgreSQL refuses \u0000 (22P05)
            if (oid === oids_1.OID.jsonb && /(?<!\\)(?:\\\\)*\\u0000/.test(s))
                throw new errors_1.PatinaError('user', `unsupported Unicode escape sequence: \\u0000 cannot be converted to text (parameter $${param + 1})`, undefined, '22P05');
            return s;
        case 0: // unknown: a number when it reads as one exactly (SQLite compares numbers and text unequal)
            if (/^-?(0|[1-9]\d{0,14})$/.test(s))
                return Number(s);
            if (/^-?(0|[1-9]\d*)\.\d*[1-9]$/.test(s) && String(Number(s)) === s)
                return Number(s);
            return s;
        default: {
            const elem = (0, registry_1.elementOidOf)(oid);
            if (elem === undefined)
                return s;
            const kind = (0, element_kind_1.elementKindOf)(elem);
            return kind ? asParam(() => (0, pg_array_input_1.arrayInput)(s, kind), param) : s;
        }
    }
}
//# sourceMappingURL=values.js.map