"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.pgDefaultExpr = pgDefaultExpr;
// A column's DEFAULT as PostgreSQL prints it (pg_get_expr on pg_attrdef.adbin): string literals carry
// their type's cast (`''::text`), numbers and booleans print bare. pg_dump writes this text into the
// CREATE TABLE it emits, and psql's \d, pgjdbc's COLUMN_DEF and SQLAlchemy show it.
const oids_1 = require("../types/oids");
/** The default expression of a column of type `oid` in PostgreSQL's words. */
function pgDefaultExpr(defaultSql, oid) {
    const d = defaultSql.trim().replace(/^\((.*)\)$/s, '$1');
    if (/^'(?:[^']|'')*'$/.test(d)) {
        if (oid === oids_1.OID.bool)
            return /^'(t|true|y|yes|on|1)'$/i.test(d) ? 'true' : 'false';
        return `${d}::${oids_1.TYPE_DISPLAY[oid] ?? 'text'}`;
    }
    if (/^(true|false)$/i.test(d))
        return d.toLowerCase();
    if (oid === oids_1.OID.bool && /^[01]$/.test(d))
        return d === '1' ? 'true' : 'false';
    // a number literal keeps its own type: integer within int4, else bigint, numeric with a point;
    // PostgreSQL folds a minus sign or a bigint into a quoted constant with a cast
    if (/^-?\d+$/.test(d)) {
        const int4 = BigInt(d) >= -2147483648n && BigInt(d) <= 2147483647n;
        if (!int4)
            return `'${d}'::bigint`;
        return d.startsWith('-') ? `'${d}'::integer` : d;
    }
    if (/^-\d*\.\d+$/.test(d))
        return `'${d}'::numeric`;
    if (/^null$/i.test(d))
        return 'NULL';
    if (/^current_timestamp$/i.test(d))
        return 'CURRENT_TIMESTAMP';
    return d;
}
//# sourceMappingURL=column-defaults.js.map