"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.jsonbConcat = jsonbConcat;
exports.installPgJsonFunctions = installPgJsonFunctions;
const errors_1 = require("../errors");
const jsonb_1 = require("./jsonb");
// PostgreSQL's JSON functions that SQLite has no equivalent of, or one of the same name that means
// something else (SQLite's jsonb_set returns its own binary JSONB, its json_each has other columns):
// the PG front end calls these as __pg_<name> (protocols/pg/sql/translate/words.ts renames them).
// The set-returning ones are table-valued functions, so `FROM jsonb_array_elements(t.tags) e` and
// `SELECT * FROM jsonb_each(x)` run as joins. jsonb's object keys come in its order (shorter first,
// then by bytes), json's in the document's.
/** The text value of a JSON value as ->> gives it: strings unquoted, null as NULL, containers as JSON. */
function asText(v) {
    if (v === null)
        return null;
    if (typeof v === 'string')
        return v;
    return (0, jsonb_1.printJsonb)(v);
}
function entries(v, jsonb, fn) {
    if (!(v instanceof Map))
        throw (0, errors_1.sqlStateError)('22023', `cannot call ${fn} on a non-object`);
    const keys = [...v.keys()];
    if (jsonb)
        keys.sort(jsonb_1.byKey);
    return keys.map((k) => [k, v.get(k)]);
}
function elements(v, fn) {
    if (!Array.isArray(v))
        throw (0, errors_1.sqlStateError)('22023', v instanceof Map ? 'cannot extract elements from an object' : 'cannot extract elements from a scalar');
    return v;
}
/** jsonb_set(target, path, value [, create_missing]): the value at the path replaced (or added). */
function setPath(target, path, value, create) {
    if (path.length === 0)
        return value;
    const [head, ...rest] = path;
    if (target instanceof Map) {
        if (!target.has(head) && (!create || rest.length > 0))
            return target;
        const out = new Map(target);
        out.set(head, rest.length === 0 ? value : setPath(target.get(head), rest, value, create));
        return out;
    }
    if (Array.isArray(target)) {
        if (!/^-?\d+$/.test(head))
            throw (0, errors_1.sqlStateError)('22P02', `path element is not an integer: "${head}"`);
        let i = Number(head);
        if (i < 0)
            i += target.length;
        const out = [...target];
        if (i >= 0 && i < target.length)
            out[i] = rest.length === 0 ? value : setPath(target[i], rest, value, create);
        else if (create && rest.length === 0) {
            if (i < 0)
                out.unshift(value);
            else
                out.push(value);
        }
        return out;
    }
    return target;
}
function stripNulls(v) {
    if (Array.isArray(v))
        return v.map(stripNulls);
    if (v instanceof Map) {
        const out = new Map();
        for (const [k, x] of v)
            if (x !== null)
                out.set(k, stripNulls(x));
        return out;
    }
    return v;
}
function pretty(v, indent = '') {
    const inner = `${indent}    `;
    // an empty container puts its closing bracket on a line of its own, as PostgreSQL prints it
    if (Array.isArray(v))
        return v.length === 0 ? `[\n${indent}]` : `[\n${v.map((x) => inner + pretty(x, inner)).join(',\n')}\n${indent}]`;
    if (v instanceof Map) {
        if (v.size === 0)
            return `{\n${indent}}`;
        const keys = [...v.keys()].sort(jsonb_1.byKey);
        return `{\n${keys.map((k) => `${inner}${(0, jsonb_1.printJsonb)(k)}: ${pretty(v.get(k), inner)}`).join(',\n')}\n${indent}}`;
    }
    return (0, jsonb_1.printJsonb)(v);
}
function pathOf(args) {
    return args.map((a) => String(a));
}
function extractPath(v, path) {
    let cur = v;
    for (const p of path) {
        if (cur instanceof Map)
            cur = cur.get(p);
        else if (Array.isArray(cur) && /^-?\d+$/.test(p)) {
            const i = Number(p);
            cur = cur[i < 0 ? cur.length + i : i];
        }
        else
            return undefined;
        if (cur === undefined)
            return undefined;
    }
    return cur;
}
/**
 * jsonb `a || b` as PostgreSQL's jsonb_concat: two objects merge (b's keys win), two arrays join, an
 * array takes the other value as an element at its end or start, any other two become an array.
 */
function jsonbConcat(a, b) {
    if (a instanceof Map && b instanceof Map)
        return new Map([...a, ...b]);
    const items = (v) => (Array.isArray(v) ? v : [v]);
    return [...items(a), ...items(b)];
}
function installPgJsonFunctions(db, arrayElements) {
    db.function('__pg_jsonb_concat', { deterministic: true }, (a, b) => a === null || b === null ? null : (0, jsonb_1.printJsonb)(jsonbConcat((0, jsonb_1.jsonOperand)(a), (0, jsonb_1.jsonOperand)(b))));
    for (const jsonb of [true, false]) {
        const p = jsonb ? 'jsonb' : 'json';
        db.table(`__pg_${p}_each`, {
            columns: ['key', 'value'],
            parameters: ['j'],
            *rows(j) {
                if (j === null || j === undefined)
                    return;
                for (const [k, v] of entries((0, jsonb_1.jsonOperand)(j), jsonb, `${p}_each`))
                    yield [k, (0, jsonb_1.printJsonb)(v)];
            },
        });
        db.table(`__pg_${p}_each_text`, {
            columns: ['key', 'value'],
            parameters: ['j'],
            *rows(j) {
                if (j === null || j === undefined)
                    return;
                for (const [k, v] of entries((0, jsonb_1.jsonOperand)(j), jsonb, `${p}_each_text`))
                    yield [k, asText(v)];
            },
        });
        db.table(`__pg_${p}_array_elements`, {
            columns: ['value'],
            parameters: ['j'],
            *rows(j) {
                if (j === null || j === undefined)
                    return;
                for (const v of elements((0, jsonb_1.jsonOperand)(j), `${p}_array_elements`))
                    yield [(0, jsonb_1.printJsonb)(v)];
            },
        });
        db.table(`__pg_${p}_array_elements_text`, {
            columns: ['value'],
            parameters: ['j'],
            *rows(j) {
                if (j === null || j === undefined)
                    return;
                for (const v of elements((0, jsonb_1.jsonOperand)(j), `${p}_array_elements_text`))
                    yield [asText(v)];
            },
        });
        db.table(`__pg_${p}_object_keys`, {
            columns: ['value'],
            parameters: ['j'],
            *rows(j) {
                if (j === null || j === undefined)
                    return;
                for (const [k] of entries((0, jsonb_1.jsonOperand)(j), jsonb, `${p}_object_keys`))
                    yield [k];
            },
        });
        const fn = (name, f) => db.function(name, { deterministic: true, varargs: true }, (...args) => args[0] === null || args[0] === undefined ? null : f(...args));
        fn(`__pg_${p}_strip_nulls`, (j) => (0, jsonb_1.printJsonb)(stripNulls((0, jsonb_1.jsonOperand)(j))));
        fn(`__pg_${p}_extract_path`, (j, ...path) => {
            if (path.some((x) => x === null))
                return null;
            const v = extractPath((0, jsonb_1.jsonOperand)(j), pathOf(path));
            return v === undefined ? null : (0, jsonb_1.printJsonb)(v);
        });
        fn(`__pg_${p}_extract_path_text`, (j, ...path) => {
            if (path.some((x) => x === null))
                return null;
            const v = extractPath((0, jsonb_1.jsonOperand)(j), pathOf(path));
            return v === undefined ? null : asText(v);
        });
    }
    db.function('__pg_jsonb_pretty', { deterministic: true }, (j) => j === null || j === undefined ? null : pretty((0, jsonb_1.jsonOperand)(j)));
    db.function('__pg_jsonb_set', { deterministic: true, varargs: true }, (...args) => {
        const [target, path, value, create] = args;
        if (args.length < 3 || args.length > 4)
            throw (0, errors_1.sqlStateError)('42883', 'function jsonb_set takes 3 or 4 arguments (target, path, value, create_missing)');
        if (target === null || path === null || value === null)
            return null;
        const keys = arrayElements(path).map((k) => String(k));
        return (0, jsonb_1.printJsonb)(setPath((0, jsonb_1.jsonOperand)(target), keys, (0, jsonb_1.jsonOperand)(value), create === undefined || Number(create) !== 0));
    });
}
//# sourceMappingURL=pg-json-functions.js.map