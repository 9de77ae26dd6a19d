"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseStatement = parseStatement;
const errors_1 = require("../../src/errors");
const sql_text_1 = require("../../src/engine/sql-text");
const values_1 = require("../../src/engine/values");
/**
 * Reads one statement from a request: a SQL string, `[sql, [params]]`, `[sql, {":name": v}]`, or
 * `{"query": sql, "params": [...], "named_params": {...}}`. `where` names it in errors.
 */
function parseStatement(v, where) {
    if (typeof v === 'string')
        return { sql: v };
    if (Array.isArray(v)) {
        if (v.length < 1 || v.length > 2 || typeof v[0] !== 'string') {
            throw new errors_1.PatinaError('user', `${where}: expected a SQL string, [sql, [params]] or [sql, {named params}]`);
        }
        return v.length === 2 && v[1] !== null
            ? { sql: v[0], params: positional(v[0], (0, values_1.toSqlParams)(v[1], where), where) }
            : { sql: v[0] };
    }
    if (v !== null && typeof v === 'object') {
        const o = v;
        for (const k of Object.keys(o)) {
            if (k !== 'query' && k !== 'params' && k !== 'named_params')
                throw new errors_1.PatinaError('user', `${where}: unknown key ${JSON.stringify(k)}; expected query, params or named_params`);
        }
        if (typeof o.query !== 'string')
            throw new errors_1.PatinaError('user', `${where}: "query" must be a SQL string`);
        if (o.params !== undefined && o.named_params !== undefined)
            throw new errors_1.PatinaError('user', `${where}: give params or named_params, not both`);
        if (o.params !== undefined) {
            if (!Array.isArray(o.params))
                throw new errors_1.PatinaError('user', `${where}: "params" must be an array`);
            return { sql: o.query, params: positional(o.query, (0, values_1.toSqlParams)(o.params, where), where) };
        }
        if (o.named_params !== undefined) {
            if (o.named_params === null || typeof o.named_params !== 'object' || Array.isArray(o.named_params)) {
                throw new errors_1.PatinaError('user', `${where}: "named_params" must be an object`);
            }
            return { sql: o.query, params: (0, values_1.toSqlParams)(o.named_params, where) };
        }
        return { sql: o.query };
    }
    throw new errors_1.PatinaError('user', `${where}: expected a SQL string, [sql, [params]] or {"query": sql, ...}, got ${v === null ? 'null' : typeof v}`);
}
/**
 * SQLite's `?NNN` placeholders are named to the driver (better-sqlite3 binds them from an object
 * keyed by the number), so an array given to a statement that uses them binds ?1 to its first value.
 */
const NUMBERED_HINT = /\?\d/;
function positional(sql, params, where) {
    // Most statements have no `?NNN` at all: skip tokenizing them (a cheap test of the text first).
    if (!Array.isArray(params) || !NUMBERED_HINT.test(sql))
        return params;
    const { plain, numbered } = (0, sql_text_1.positionalPlaceholders)(sql);
    if (!numbered)
        return params;
    if (plain)
        throw new errors_1.PatinaError('user', `${where}: the SQL mixes ? and ?NNN placeholders; use one kind`);
    return Object.fromEntries(params.map((p, i) => [String(i + 1), p]));
}
//# sourceMappingURL=statements.js.map