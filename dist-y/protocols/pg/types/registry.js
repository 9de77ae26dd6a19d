"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ARRAY_TYPES = void 0;
exports.registerCodec = registerCodec;
exports.codecOf = codecOf;
exports.arrayOidOf = arrayOidOf;
exports.elementOidOf = elementOidOf;
// Every codec by type OID: a lookup in a plain array, cheap enough for each cell of each row.
const array_1 = require("./array");
const datetime_1 = require("./datetime");
const float_1 = require("./float");
const integer_1 = require("./integer");
const numeric_1 = require("./numeric");
const text_1 = require("./text");
/** Base types and the OIDs of their array types, as pg_type has them. */
const BASES = [
    [integer_1.boolCodec, 1000, '_bool'],
    [text_1.byteaCodec, 1001, '_bytea'],
    [text_1.charCodec, 1002, '_char'],
    [text_1.nameCodec, 1003, '_name'],
    [integer_1.int2Codec, 1005, '_int2'],
    [integer_1.int4Codec, 1007, '_int4'],
    [text_1.textCodec, 1009, '_text'],
    [integer_1.oidCodec, 1028, '_oid'],
    [text_1.bpcharCodec, 1014, '_bpchar'],
    [text_1.varcharCodec, 1015, '_varchar'],
    [integer_1.int8Codec, 1016, '_int8'],
    [float_1.float4Codec, 1021, '_float4'],
    [float_1.float8Codec, 1022, '_float8'],
    [text_1.jsonCodec, 199, '_json'],
    [text_1.xmlCodec, 143, '_xml'],
    [datetime_1.dateCodec, 1182, '_date'],
    [datetime_1.timeCodec, 1183, '_time'],
    [datetime_1.timestampCodec, 1115, '_timestamp'],
    [datetime_1.timestamptzCodec, 1185, '_timestamptz'],
    [datetime_1.intervalCodec, 1187, '_interval'],
    [numeric_1.numericCodec, 1231, '_numeric'],
    [text_1.uuidCodec, 2951, '_uuid'],
    [text_1.jsonbCodec, 3807, '_jsonb'],
];
const CODECS = [];
for (const [c, arrayOid, arrayName] of BASES) {
    CODECS[c.oid] = c;
    CODECS[arrayOid] = (0, array_1.arrayCodec)(arrayOid, arrayName, c);
}
CODECS[text_1.unknownCodec.oid] = text_1.unknownCodec;
// regproc and regclass columns of the catalog hold OIDs
CODECS[24] = { ...integer_1.oidCodec, oid: 24, name: 'regproc' };
CODECS[2205] = { ...integer_1.oidCodec, oid: 2205, name: 'regclass' };
CODECS[22] = (0, array_1.arrayCodec)(22, 'int2vector', integer_1.int2Codec, true);
CODECS[30] = (0, array_1.arrayCodec)(30, 'oidvector', integer_1.oidCodec, true);
/** Adds a codec defined where the type names are (regtype, in oids.ts, which imports this module). */
function registerCodec(c) {
    CODECS[c.oid] = c;
}
/** The codec of a type, or undefined when it has none (then its values go as text). */
function codecOf(oid) {
    return CODECS[oid];
}
/** The array types with codecs: OID, name, element OID (for pg_type). */
exports.ARRAY_TYPES = [
    ...BASES.map(([c, oid, name]) => [oid, name, c.oid]),
];
const ARRAY_OF = Object.fromEntries(BASES.map(([c, oid]) => [c.oid, oid]));
/** The OID of the array type of an element type, if it has one. */
function arrayOidOf(elemOid) {
    return ARRAY_OF[elemOid];
}
const ELEMENT_OF = Object.fromEntries(BASES.map(([c, oid]) => [oid, c.oid]));
/** The element type of an array type, if it is one. */
function elementOidOf(arrayOid) {
    return ELEMENT_OF[arrayOid];
}
//# sourceMappingURL=registry.js.map