"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.columnOid = columnOid;
exports.expressionOid = expressionOid;
exports.pgColumnName = pgColumnName;
exports.selectListNames = selectListNames;
// Names and types of result columns where SQLite does not declare them: PostgreSQL's name for an
// unaliased expression column, the type an expression has whatever its values (a bare parameter,
// a cast to boolean), and at last the type guessed from a value; catalog queries answered with no
// rows name their columns from the select list.
const oids_1 = require("../types/oids");
const lexer_1 = require("./lexer");
const select_list_1 = require("./select-list");
/** The type OID of a result column from its declared type, or a guess from its expression. */
function columnOid(c, sample) {
    if (c.declType)
        return (0, oids_1.oidOfDeclType)(c.declType);
    if (c.oid)
        return c.oid;
    if (sample !== undefined && sample !== null) {
        if (typeof sample === 'bigint' || (typeof sample === 'number' && Number.isInteger(sample)))
            return oids_1.OID.int8;
        if (typeof sample === 'number')
            return oids_1.OID.float8;
        if (sample instanceof Uint8Array)
            return oids_1.OID.bytea;
        return oids_1.OID.text;
    }
    if (/^(count|length|octet_length|char_length)\(/i.test(c.name))
        return oids_1.OID.int8;
    return oids_1.OID.text;
}
/**
 * The type an expression column has whatever its values: a bare parameter has the parameter's
 * type, a cast to boolean (__pg_bool) is bool. 0 when the values must tell.
 */
function expressionOid(sqliteName, paramTypes) {
    const p = /^\$(\d+)$/.exec(sqliteName);
    if (p)
        return paramTypes[Number(p[1]) - 1] ?? 0;
    if (/^__pg_bool\(.*\)$/.test(sqliteName))
        return oids_1.OID.bool;
    return 0;
}
/** PostgreSQL's name for an unaliased expression column: the function's name, else ?column?. */
function pgColumnName(name, sql) {
    if (/^[A-Za-z_][A-Za-z0-9_$]*$/.test(name) || sql.includes(`"${name}"`))
        return name;
    if (/^__pg_bool\(.*\)$/.test(name))
        return 'bool';
    const f = /^(?:\w+\.)?(\w+)\s*\(/.exec(name);
    if (f?.[1].startsWith('__pg_'))
        return INTERNAL_NAMES[f[1]] ?? '?column?'; // what the dialect wrote, not the user
    if (f && f[1].toUpperCase() !== 'CAST')
        return f[1].toLowerCase();
    const c = /^CAST\(.* AS (\w+)\)$/i.exec(name);
    if (c)
        return c[1].toLowerCase();
    return '?column?';
}
const INTERNAL_NAMES = {
    __pg_int: 'int4',
    __pg_float: 'float8',
    __pg_typeof: 'pg_typeof',
    __pg_date: 'date',
    __pg_timestamp: 'timestamp',
    __pg_timestamptz: 'timestamptz',
    __pg_time: 'time',
    __pg_interval: 'interval',
    __pg_substr: 'substr',
};
/** Column names of a select list, read from the SQL (for catalog queries answered with no rows). */
function selectListNames(tokens) {
    const items = (0, select_list_1.selectListItems)(tokens.filter((t) => t.type !== 'space' && t.type !== 'comment')) ?? [];
    return items
        .filter((item) => item.length > 0)
        .map((item) => {
        const last = item[item.length - 1];
        const asAt = item.length >= 2 && item[item.length - 2].text.toUpperCase() === 'AS';
        if ((last.type === 'word' || last.type === 'quoted') &&
            (asAt ||
                item.length === 1 ||
                item[item.length - 2].text === '.' ||
                (item[item.length - 2].type === 'punct' && item[item.length - 2].text === ')') ||
                item[item.length - 2].type === 'word'))
            return (0, lexer_1.identName)(last);
        if (item[0].type === 'word' && item[1]?.text === '(')
            return item[0].text.toLowerCase();
        return '?column?';
    });
}
//# sourceMappingURL=result-columns.js.map