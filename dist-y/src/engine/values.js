"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.toSqlValue = toSqlValue;
exports.toSqlParams = toSqlParams;
exports.narrowInteger = narrowInteger;
exports.cellToJson = cellToJson;
exports.rowToJson = rowToJson;
const errors_1 = require("../errors");
/**
 * Turns a parsed JSON value into a SQLite value: a bigint binds as INTEGER (64-bit, exact), a JS
 * number as REAL (request bodies give integers as bigint, see json.ts); an array of byte values
 * (0-255) is a BLOB; booleans are the INTEGERs 1 and 0. `where` names the value in errors.
 */
function toSqlValue(v, where) {
    if (v === null)
        return null;
    switch (typeof v) {
        case 'number':
            if (!Number.isFinite(v))
                throw new errors_1.PatinaError('user', `${where}: ${v} is not a finite number`);
            return v;
        case 'bigint':
            if (v > 9223372036854775807n || v < -9223372036854775808n) {
                throw new errors_1.PatinaError('user', `${where}: ${v} does not fit a 64-bit integer`);
            }
            return v;
        case 'string':
            return v;
        case 'boolean':
            return v ? 1n : 0n;
    }
    if (Array.isArray(v)) {
        const bytes = Buffer.alloc(v.length);
        for (let i = 0; i < v.length; i++) {
            const b = typeof v[i] === 'bigint' ? Number(v[i]) : v[i];
            if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b > 255) {
                throw new errors_1.PatinaError('user', `${where}: a BLOB is an array of byte values 0-255; element ${i} is ${JSON.stringify(String(b))}`);
            }
            bytes[i] = b;
        }
        return bytes;
    }
    throw new errors_1.PatinaError('user', `${where}: expected a number, string, boolean, null or array of bytes, got an object`);
}
/** Turns JSON parameters (an array, or an object of named values) into SQLite parameters. */
function toSqlParams(params, where) {
    if (Array.isArray(params))
        return params.map((p, i) => toSqlValue(p, `${where} parameter ${i + 1}`));
    if (params !== null && typeof params === 'object') {
        const named = {};
        for (const [k, v] of Object.entries(params)) {
            // better-sqlite3 wants names without their prefix; `:a`, `@a` and `$a` all bind `a`.
            const name = /^[:@$]/.test(k) ? k.slice(1) : k;
            if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
                throw new errors_1.PatinaError('user', `${where}: bad parameter name ${JSON.stringify(k)}`);
            named[name] = toSqlValue(v, `${where} parameter ${k}`);
        }
        return named;
    }
    throw new errors_1.PatinaError('user', `${where}: parameters must be an array or an object of named values`);
}
/** Narrows a SQLite integer read with safe integers on: a number when exact, else the bigint. */
function narrowInteger(v) {
    return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}
/** One cell as JSON text: integers exact (bigint digits unquoted), BLOBs as arrays of byte values. */
function cellToJson(v) {
    if (v === null || v === undefined)
        return 'null';
    switch (typeof v) {
        case 'bigint':
            return v.toString();
        case 'number':
            return Number.isFinite(v) ? String(v) : 'null';
        case 'string':
            return JSON.stringify(v);
        case 'boolean':
            return v ? 'true' : 'false';
    }
    if (v instanceof Uint8Array) {
        let s = '[';
        for (let i = 0; i < v.length; i++)
            s += (i ? ',' : '') + v[i];
        return s + ']';
    }
    if (Array.isArray(v))
        return '[' + v.map(cellToJson).join(',') + ']';
    if (typeof v === 'object') {
        return ('{' +
            Object.entries(v)
                .map(([k, x]) => JSON.stringify(k) + ':' + cellToJson(x))
                .join(',') +
            '}');
    }
    return JSON.stringify(String(v));
}
/** A row of cells as a JSON array. */
function rowToJson(cells) {
    let s = '[';
    for (let i = 0; i < cells.length; i++)
        s += (i ? ',' : '') + cellToJson(cells[i]);
    return s + ']';
}
//# sourceMappingURL=values.js.map