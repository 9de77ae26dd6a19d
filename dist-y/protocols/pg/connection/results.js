"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.describedFields = describedFields;
exports.fieldsOf = fieldsOf;
exports.tagOf = tagOf;
const result_columns_1 = require("../sql/result-columns");
const sqlstate_1 = require("../sqlstate");
const oids_1 = require("../types/oids");
const numeric_1 = require("../types/numeric");
const values_1 = require("../types/values");
const backend_1 = require("../wire/backend");
const portal_1 = require("./portal");
/**
 * RowDescription fields and their message bytes. When no column's type depends on the values (all
 * declared or known from the expression) they are computed once per statement and result formats.
 */
function describedFields(columns, formats, sample) {
    if (formats.length > 1 && formats.length !== columns.length)
        throw (0, sqlstate_1.pgError)('08P01', `bind message has ${formats.length} result formats but query has ${columns.length} columns`);
    const key = formats.length === 0 ? '' : formats.length === 1 && formats[0] === 0 ? '0' : formats.join(',');
    // only fixed types are cached: a hit needs no check of the columns
    const hit = FIELD_CACHE.get(columns)?.get(key);
    if (hit)
        return hit;
    const fixed = columns.every(typeIsKnown);
    const fields = fieldsOf(columns, formats, sample);
    const w = new backend_1.ByteWriter(256);
    backend_1.backend.rowDescription(w, fields);
    const d = { fields, message: w.take() };
    if (fixed) {
        let byFormat = FIELD_CACHE.get(columns);
        if (!byFormat)
            FIELD_CACHE.set(columns, (byFormat = new Map()));
        if (byFormat.size < 8)
            byFormat.set(key, d);
    }
    return d;
}
function typeIsKnown(c) {
    return Boolean(c.declType || c.oid);
}
const FIELD_CACHE = new WeakMap();
/** RowDescription fields: type from the declared type, else from the first rows' values. */
function fieldsOf(columns, formats, sample) {
    return columns.map((c, i) => {
        // the first value tells, but a column of numbers is float8 if any value at hand has a fraction
        // (SQLite's REAL 4.0 reaches us as the integer 4: sum(amount) would else be int8 and '6.5' in it)
        let v;
        if (sample) {
            for (const row of sample) {
                const x = row[i];
                if (x === null || x === undefined)
                    continue;
                if (v === undefined)
                    v = x;
                if (typeof x === 'number' && !Number.isInteger(x))
                    v = x;
                if ((typeof v !== 'number' && typeof v !== 'bigint') || !Number.isInteger(v))
                    break;
            }
        }
        const format = (0, portal_1.formatOf)(formats, i);
        // a binary column's type is what Describe of the statement announced (asyncpg and pgjdbc decode
        // by it), so never the values' guess; a type without a binary form is announced and sent as text
        let typeOid = (0, result_columns_1.columnOid)(c, format === 1 ? undefined : v);
        if (format === 1 && !(0, values_1.hasBinary)(typeOid))
            typeOid = oids_1.OID.text;
        // a table column's numeric(p, s), varchar(n), char(n): announced (pgjdbc's getScale, a BI tool's
        // format) and kept in the values (numeric(10,2) prints 12.50, as PostgreSQL stored it)
        const typeMod = c.typmod !== undefined && (typeOid === oids_1.OID.numeric || typeOid === oids_1.OID.varchar || typeOid === oids_1.OID.bpchar)
            ? c.typmod
            : c.declType &&
                (typeOid === oids_1.OID.numeric || typeOid === oids_1.OID.varchar || typeOid === oids_1.OID.bpchar) &&
                (0, oids_1.oidOfDeclType)(c.declType) === typeOid
                ? (0, oids_1.typmodOfDeclType)(c.declType)
                : -1;
        // sum(amount) of a numeric(10,2) prints 2 digits as PostgreSQL's numeric carries them, with no modifier announced
        // (a minimum scale, `amount + $1`, as the precision MIN_SCALE_PRECISION: the value's own digits beyond it print too)
        const valueMod = typeMod < 0 && typeOid === oids_1.OID.numeric && c.scale !== undefined
            ? ((c.scaleIsMinimum ? numeric_1.MIN_SCALE_PRECISION : 1000) << 16) + c.scale + 4
            : undefined;
        return {
            name: c.name,
            tableOid: 0,
            column: 0,
            typeOid,
            typeSize: (0, oids_1.typeSize)(typeOid),
            typeMod,
            format,
            ...(valueMod !== undefined ? { valueMod } : {}),
        };
    });
}
function tagOf(an, outcome, rows) {
    if (outcome?.tag)
        return outcome.tag;
    const n = outcome?.affected ?? rows;
    switch (an.command) {
        case 'INSERT':
            return countTag(INSERT_TAGS, n);
        case 'UPDATE':
            return countTag(UPDATE_TAGS, n);
        case 'DELETE':
            return countTag(DELETE_TAGS, n);
        case 'SELECT':
        case 'WITH':
            return countTag(SELECT_TAGS, rows);
        case 'START TRANSACTION':
            return 'START TRANSACTION';
        default:
            return an.kind === 'sql' && an.columns ? countTag(SELECT_TAGS, rows) : an.command;
    }
}
/** Tags with small counts are made once: a point select's 'SELECT 1' is no new string, and the statement counts know it. */
const SMALL_COUNTS = 64;
function tags(prefix) {
    return { prefix, small: Array.from({ length: SMALL_COUNTS }, (_, i) => `${prefix} ${i}`) };
}
const INSERT_TAGS = tags('INSERT 0');
const UPDATE_TAGS = tags('UPDATE');
const DELETE_TAGS = tags('DELETE');
const SELECT_TAGS = tags('SELECT');
function countTag(tags, n) {
    return n < SMALL_COUNTS ? tags.small[n] : `${tags.prefix} ${n}`;
}
//# sourceMappingURL=results.js.map