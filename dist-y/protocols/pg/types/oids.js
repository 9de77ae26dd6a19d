"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TYPE_DISPLAY = exports.PG_TYPES = exports.OID = void 0;
exports.oidOfDeclType = oidOfDeclType;
exports.oidOfValue = oidOfValue;
exports.typeSize = typeSize;
exports.declaredModifier = declaredModifier;
exports.typmodOfDeclType = typmodOfDeclType;
// PostgreSQL types by OID: the OIDs Patina answers with, the pg_type rows of each (name, size,
// category), the names pg_typeof and the catalog show, and the OID of a SQLite declared type or of
// a value when nothing declares it.
const codec_1 = require("./codec");
const registry_1 = require("./registry");
exports.OID = {
    bool: 16,
    bytea: 17,
    char: 18,
    name: 19,
    int8: 20,
    int2: 21,
    int2vector: 22,
    int4: 23,
    regproc: 24,
    text: 25,
    oid: 26,
    json: 114,
    xml: 142,
    float4: 700,
    float8: 701,
    unknown: 705,
    varchar: 1043,
    bpchar: 1042,
    date: 1082,
    time: 1083,
    timestamp: 1114,
    timestamptz: 1184,
    interval: 1186,
    numeric: 1700,
    regclass: 2205,
    regtype: 2206,
    record: 2249,
    uuid: 2950,
    jsonb: 3802,
    textArray: 1009,
    oidArray: 1028,
    int2Array: 1005,
    charArray: 1002,
    nameArray: 1003,
};
/** Type rows of pg_type: oid, name, length, category. */
exports.PG_TYPES = [
    [16, 'bool', 1, 'B'],
    [17, 'bytea', -1, 'U'],
    [18, 'char', 1, 'S'],
    [19, 'name', 64, 'S'],
    [20, 'int8', 8, 'N'],
    [21, 'int2', 2, 'N'],
    [22, 'int2vector', -1, 'A'],
    [23, 'int4', 4, 'N'],
    [24, 'regproc', 4, 'N'],
    [25, 'text', -1, 'S'],
    [26, 'oid', 4, 'N'],
    [114, 'json', -1, 'U'],
    [142, 'xml', -1, 'U'],
    [700, 'float4', 4, 'N'],
    [701, 'float8', 8, 'N'],
    [705, 'unknown', -2, 'X'],
    [1042, 'bpchar', -1, 'S'],
    [1043, 'varchar', -1, 'S'],
    [1082, 'date', 4, 'D'],
    [1083, 'time', 8, 'D'],
    [1114, 'timestamp', 8, 'D'],
    [1184, 'timestamptz', 8, 'D'],
    [1186, 'interval', 16, 'T'],
    [1700, 'numeric', -1, 'N'],
    [2205, 'regclass', 4, 'N'],
    [2206, 'regtype', 4, 'N'],
    [2249, 'record', -1, 'P'],
    [2950, 'uuid', 16, 'U'],
    [3802, 'jsonb', -1, 'U'],
    [30, 'oidvector', -1, 'A'],
    ...registry_1.ARRAY_TYPES.map(([oid, name]) => [oid, name, -1, 'A']),
];
/** format_type(): the SQL name PostgreSQL shows for a type. */
exports.TYPE_DISPLAY = {
    16: 'boolean',
    17: 'bytea',
    18: '"char"',
    19: 'name',
    20: 'bigint',
    21: 'smallint',
    23: 'integer',
    25: 'text',
    26: 'oid',
    114: 'json',
    700: 'real',
    701: 'double precision',
    1042: 'character',
    1043: 'character varying',
    1082: 'date',
    1083: 'time without time zone',
    1114: 'timestamp without time zone',
    1184: 'timestamp with time zone',
    1186: 'interval',
    1700: 'numeric',
    2950: 'uuid',
    3802: 'jsonb',
    22: 'int2vector',
    24: 'regproc',
    2205: 'regclass',
    2206: 'regtype',
    2249: 'record',
    1005: 'smallint[]',
    1009: 'text[]',
    1028: 'oid[]',
    1002: '"char"[]',
    1003: 'name[]',
    30: 'oidvector',
};
for (const [oid, , elem] of registry_1.ARRAY_TYPES)
    exports.TYPE_DISPLAY[oid] ??= `${exports.TYPE_DISPLAY[elem] ?? 'text'}[]`;
// pg_typeof's regtype: the type's name as text ('integer'), its OID in binary
const TYPE_OIDS = new Map(Object.entries(exports.TYPE_DISPLAY).map(([oid, name]) => [name, Number(oid)]));
(0, registry_1.registerCodec)({
    oid: 2206,
    name: 'regtype',
    text: (v) => String(v),
    binary(v) {
        const oid = TYPE_OIDS.get(String(v));
        if (oid === undefined)
            return (0, codec_1.notA)('regtype', v);
        const b = (0, codec_1.bytes)(4);
        b.writeUInt32BE(oid, 0);
        return b;
    },
    textOfBinary(raw) {
        (0, codec_1.expectLength)(raw, 4, 'regtype');
        const oid = raw.readUInt32BE(0);
        return exports.TYPE_DISPLAY[oid] ?? String(oid);
    },
});
/**
 * The OID of a column from its declared type. SQLite integers are 64-bit, so every integer type is
 * int8; the rest follow SQLite's affinity rules, with the date, time, JSON and UUID names kept.
 */
function oidOfDeclType(decl) {
    if (!decl)
        return exports.OID.text;
    const t = decl.toLowerCase().replace(/\(.*$/, '').trim();
    if (t.endsWith('[]'))
        return (0, registry_1.arrayOidOf)(oidOfDeclType(t.slice(0, -2))) ?? exports.OID.text;
    if (t.startsWith('_'))
        return exports.PG_TYPES.find((r) => r[1] === t)?.[0] ?? exports.OID.text;
    switch (t) {
        case 'bool':
        case 'boolean':
            return exports.OID.bool;
        case 'date':
            return exports.OID.date;
        case 'time':
        case 'time without time zone':
            return exports.OID.time;
        case 'timestamp':
        case 'datetime':
        case 'timestamp without time zone':
            return exports.OID.timestamp;
        case 'timestamptz':
        case 'timestamp with time zone':
            return exports.OID.timestamptz;
        case 'json':
            return exports.OID.json;
        case 'jsonb':
            return exports.OID.jsonb;
        case 'uuid':
            return exports.OID.uuid;
        case 'interval':
            return exports.OID.interval;
        case 'varchar':
        case 'character varying':
            return exports.OID.varchar;
        case 'bpchar':
            return exports.OID.bpchar;
        // the catalog's own columns
        case 'oid':
        case 'regproc':
        case 'regclass':
            return exports.OID.oid;
        case 'name':
            return exports.OID.name;
        case '"char"':
        case 'char1':
            return exports.OID.char;
        case 'int2vector':
            return exports.OID.int2vector;
        case 'int8':
            return exports.OID.int8;
        case 'int2':
            return exports.OID.int2;
        case 'int4':
            return exports.OID.int4;
        case 'float4':
            return exports.OID.float4;
    }
    if (t.includes('int'))
        return exports.OID.int8;
    if (t.includes('char') || t.includes('clob') || t.includes('text'))
        return exports.OID.text;
    if (t.includes('blob') || t === 'bytea')
        return exports.OID.bytea;
    if (t.includes('real') || t.includes('floa') || t.includes('doub'))
        return exports.OID.float8;
    if (t.includes('numeric') || t.includes('decimal'))
        return exports.OID.numeric;
    return exports.OID.text;
}
/** The OID of a value when nothing declares it. */
function oidOfValue(v) {
    if (typeof v === 'bigint')
        return exports.OID.int8;
    if (typeof v === 'number')
        return Number.isInteger(v) ? exports.OID.int8 : exports.OID.float8;
    if (v instanceof Uint8Array)
        return exports.OID.bytea;
    return exports.OID.text;
}
/** Type size PostgreSQL reports in RowDescription. */
function typeSize(oid) {
    const row = exports.PG_TYPES.find((r) => r[0] === oid);
    return row ? row[2] : -1;
}
/** The modifier of a declared `numeric(p, s)`, `varchar(n)` or `char(n)` (n as precision, scale 0); null for none. */
function declaredModifier(decl) {
    if (!decl)
        return null;
    const m = /^\s*(numeric|decimal|varchar|character varying|char|character|bpchar)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)\s*$/i.exec(decl);
    if (!m)
        return null;
    const kind = m[1].toLowerCase();
    const type = kind === 'numeric' || kind === 'decimal' ? 'numeric' : /var/.test(kind) ? 'varchar' : 'char';
    return { type, precision: Number(m[2]), scale: Number(m[3] ?? 0) };
}
/**
 * The type modifier PostgreSQL keeps for a declared type: numeric(p, s) and decimal(p, s) as
 * ((p << 16) | s) + 4, varchar(n) and char(n) as n + 4; -1 when the declaration has none.
 */
function typmodOfDeclType(decl) {
    const m = declaredModifier(decl);
    if (!m)
        return -1;
    const n = m.precision;
    if (m.type === 'numeric') {
        if (n < 1 || n > 1000 || m.scale > n)
            return -1;
        return ((n << 16) | m.scale) + 4;
    }
    return n >= 1 && n <= 10485760 ? n + 4 : -1;
}
//# sourceMappingURL=oids.js.map