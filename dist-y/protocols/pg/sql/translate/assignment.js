"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.assignment = assignment;
exports.checkWidth = checkWidth;
exports.withColumnList = withColumnList;
// What a value written into a column becomes, for typed-assignments.ts and insert-select.ts: the
// call that converts it for the column's type modifier, and the checks of an INSERT's width.
const dates_1 = require("../../../../src/engine/dates");
const pg_array_input_1 = require("../../../../src/engine/pg-array-input");
const element_kind_1 = require("../../types/element-kind");
const sqlstate_1 = require("../../sqlstate");
const lexer_1 = require("../lexer");
const oids_1 = require("../../types/oids");
const tokens_1 = require("../tokens");
/** A value that is an integer already: an integer literal (signed), a parameter (bound by its type), NULL. */
const isInteger = (v) => {
    const t = v.length === 2 && ((0, tokens_1.isOp)(v[0], '-') || (0, tokens_1.isOp)(v[0], '+')) ? v[1] : v.length === 1 ? v[0] : undefined;
    return t !== undefined && ((t.type === 'number' && /^\d+$/.test(t.text)) || t.type === 'param' || (0, tokens_1.isWord)(t, 'NULL'));
};
const DATE_KINDS = {
    [oids_1.OID.date]: 'date',
    [oids_1.OID.timestamp]: 'timestamp',
    [oids_1.OID.timestamptz]: 'timestamptz',
    [oids_1.OID.time]: 'time',
    [oids_1.OID.interval]: 'interval',
};
/**
 * A value for a date or time column in the form the column keeps ('2024-03-10 23:30:00-05' as the
 * UTC '2024-03-11 04:30:00'): a literal converted here, an expression by __pg_store_dt per row; a
 * parameter is converted when it is bound.
 */
function dateAssignment(kind) {
    return (v) => {
        if (v.length === 1 && v[0].type === 'string') {
            const text = v[0].text.slice(1, -1).split("''").join("'");
            const stored = (0, dates_1.storedDateTime)(kind, text);
            return stored === text ? v : [{ type: 'string', text: (0, lexer_1.quoteString)(String(stored)) }];
        }
        if (isInteger(v))
            return v;
        // SQLite's CURRENT_TIMESTAMP is UTC text in the form a timestamp or timestamptz column keeps
        // already: no call per row (pgbench's and ORMs' INSERTs write it)
        if (v.length === 1 && (0, tokens_1.isWord)(v[0], 'CURRENT_TIMESTAMP') && (kind === 'timestamp' || kind === 'timestamptz'))
            return v;
        return [
            { type: 'word', text: '__pg_store_dt' },
            { type: 'punct', text: '(' },
            { type: 'string', text: `'${kind}'` },
            { type: 'punct', text: ',' },
            ...v,
            { type: 'punct', text: ')' },
        ];
    };
}
/**
 * A value for an array column in PostgreSQL's form ('{ a , b }' as '{a,b}'; a parameter was read so
 * by Bind): a literal read here as array_in reads it, an expression per row by __pg_array_in, where
 * a decimal into an integer array rounds as PostgreSQL's assignment of numeric[] does.
 */
function arrayAssignment(kind) {
    return (v) => {
        if (v.length === 1 && (v[0].type === 'param' || (0, tokens_1.isWord)(v[0], 'NULL')))
            return v;
        if (v.length === 1 && v[0].type === 'string' && /^'(?:[^']|'')*'$/.test(v[0].text))
            return [{ type: 'string', text: (0, lexer_1.quoteString)((0, pg_array_input_1.arrayInput)(v[0].text.slice(1, -1).split("''").join("'"), kind)) }];
        return [
            { type: 'word', text: '__pg_array_in' },
            { type: 'punct', text: '(' },
            ...v,
            { type: 'punct', text: ',' },
            { type: 'string', text: `'${kind}'` },
            { type: 'punct', text: ',' },
            { type: 'number', text: '1' },
            { type: 'punct', text: ')' },
        ];
    };
}
/** The call that gives a value PostgreSQL's meaning in a column of this declared type; null for none. */
function assignment(decl) {
    const dated = DATE_KINDS[(0, oids_1.oidOfDeclType)(decl)];
    if (dated)
        return dateAssignment(dated);
    const kind = (0, element_kind_1.declaredElementKind)(decl);
    if (kind)
        return arrayAssignment(kind);
    // an integer column (int8 here) takes a fraction rounded and text strictly (2.5 was stored as 2.5)
    if ((0, oids_1.oidOfDeclType)(decl) === oids_1.OID.int8)
        return (v) => isInteger(v)
            ? v
            : [{ type: 'word', text: '__pg_int_assign' }, { type: 'punct', text: '(' }, ...v, { type: 'punct', text: ')' }];
    const m = (0, oids_1.declaredModifier)(decl);
    if (!m)
        return null;
    const fn = m.type === 'numeric' ? '__pg_numeric' : m.type === 'varchar' ? '__pg_varchar' : '__pg_char';
    const args = (m.type === 'numeric' ? [m.precision, m.scale] : [m.precision]).flatMap((n) => [
        { type: 'punct', text: ',' },
        { type: 'number', text: String(n) },
    ]);
    return (v) => [{ type: 'word', text: fn }, { type: 'punct', text: '(' }, ...v, ...args, { type: 'punct', text: ')' }];
}
/** PostgreSQL's refusal of an INSERT whose rows do not have as many values as it names columns. */
function checkWidth(target, width) {
    if (width > target.names.length)
        throw (0, sqlstate_1.pgError)('42601', 'INSERT has more expressions than target columns');
    if (target.listed && width < target.names.length)
        throw (0, sqlstate_1.pgError)('42601', 'INSERT has more target columns than expressions');
}
/**
 * The tokens before `at` with a column list of `names` added when the statement had none (SQLite
 * wants a value for every column then; PostgreSQL fills the columns left out with their defaults).
 */
function withColumnList(toks, target, names) {
    const head = toks.slice(0, target.at);
    if (target.listed || names.length === target.columns.length)
        return head;
    const list = names.map((n) => `"${n.replace(/"/g, '""')}"`).join(', ');
    return [...head, { type: 'group', text: `(${list})` }];
}
//# sourceMappingURL=assignment.js.map