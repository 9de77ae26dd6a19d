"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseJson = parseJson;
exports.byKey = byKey;
exports.printJsonb = printJsonb;
exports.jsonOperand = jsonOperand;
exports.jsonbText = jsonbText;
exports.jsonbContains = jsonbContains;
exports.jsonbHasKey = jsonbHasKey;
exports.jsonbPath = jsonbPath;
exports.jsonbMinus = jsonbMinus;
exports.jsonbDeletePath = jsonbDeletePath;
// JSON values as jsonb models them: objects as Maps (the last of duplicate keys kept), numbers as
// their text (exact, 64-bit integers and long decimals included). jsonb's text as PostgreSQL prints
// it: keys sorted (shorter first, then by bytes), ', ' and ': ' between items, numbers as numeric
// prints them ('2e2' is 200), strings re-escaped.
const errors_1 = require("../errors");
const decimal_1 = require("./decimal");
/** Reads JSON keeping each number's text; throws on anything else. */
function parseJson(s) {
    let i = 0;
    const space = () => {
        while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r'))
            i++;
    };
    const fail = () => {
        throw new SyntaxError(`invalid JSON at ${i}`);
    };
    const value = () => {
        space();
        const c = s[i];
        if (c === '{') {
            i++;
            const m = new Map();
            space();
            if (s[i] === '}')
                return (i++, m);
            for (;;) {
                space();
                if (s[i] !== '"')
                    fail();
                const k = string();
                space();
                if (s[i++] !== ':')
                    fail();
                m.delete(k); // the last of duplicate keys wins
                m.set(k, value());
                space();
                if (s[i] === '}')
                    return (i++, m);
                if (s[i++] !== ',')
                    fail();
            }
        }
        if (c === '[') {
            i++;
            const a = [];
            space();
            if (s[i] === ']')
                return (i++, a);
            for (;;) {
                a.push(value());
                space();
                if (s[i] === ']')
                    return (i++, a);
                if (s[i++] !== ',')
                    fail();
            }
        }
        if (c === '"')
            return string();
        for (const [word, v] of [
            ['true', true],
            ['false', false],
            ['null', null],
        ])
            if (s.startsWith(word, i))
                return ((i += word.length), v);
        const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(s.slice(i, i + 400));
        if (!m)
            fail();
        i += m[0].length;
        return { num: m[0] };
    };
    const string = () => {
        const m = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(s.slice(i));
        if (!m)
            fail();
        i += m[0].length;
        return JSON.parse(m[0]);
    };
    const v = value();
    space();
    if (i !== s.length)
        fail();
    return v;
}
const ESCAPES = {
    '"': '\\"',
    '\\': '\\\\',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
};
function quote(s) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what gets escaped
    return `"${s.replace(/["\\\u0000-\u001f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
/** jsonb's order of object keys: shorter first, then by bytes. */
function byKey(a, b) {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length - y.length || Buffer.compare(x, y);
}
function printJsonb(v) {
    if (v === null)
        return 'null';
    if (v === true)
        return 'true';
    if (v === false)
        return 'false';
    if (typeof v === 'string')
        return quote(v);
    if (Array.isArray(v))
        return `[${v.map(printJsonb).join(', ')}]`;
    if (v instanceof Map)
        return `{${[...v.keys()]
            .sort(byKey)
            .map((k) => `${quote(k)}: ${printJsonb(v.get(k))}`)
            .join(', ')}}`;
    return (0, decimal_1.decimalText)((0, decimal_1.parseDecimal)(v.num));
}
/** A json or jsonb operand: its parsed value, or 22P02 as PostgreSQL answers text that is no JSON. */
function jsonOperand(x) {
    try {
        return parseJson(typeof x === 'string' ? x : String(x));
    }
    catch {
        throw (0, errors_1.sqlStateError)('22P02', `invalid input syntax for type json: ${JSON.stringify(String(x)).slice(0, 80)}`);
    }
}
/** jsonb's text of JSON text; null when it is no JSON. */
function jsonbText(s) {
    try {
        return printJsonb(parseJson(s));
    }
    catch {
        return null;
    }
}
// jsonb's operators that SQLite lacks (PostgreSQL's jsonb_contains, jsonb_exists, jsonb_extract_path
// and jsonb_delete_path), on parsed values. protocols/pg/sql/translate/pg-semantics.ts turns `a @> b` and the
// others into calls of the SQL functions src/engine/pg-functions.ts makes of these.
/** A number's value as text without an exponent or trailing zeros ('1.50' and '15e-1' are '1.5'). */
function numberKey(text) {
    const d = (0, decimal_1.parseDecimal)(text);
    return (0, decimal_1.decimalText)({ ...d, frac: d.frac.replace(/0+$/, '') });
}
function sameScalar(a, b) {
    if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object')
        return a === b;
    if (Array.isArray(a) || a instanceof Map || Array.isArray(b) || b instanceof Map)
        return false;
    return numberKey(a.num) === numberKey(b.num);
}
const isContainer = (v) => Array.isArray(v) || v instanceof Map;
/**
 * `a @> b`: every key and value of an object in b is in a's object, every element of an array in b is
 * in a's array (containers contained by some container of a), scalars equal. At the top level an
 * array contains a scalar that is one of its elements (PostgreSQL stores a lone scalar as an array).
 */
function jsonbContains(a, b) {
    if (Array.isArray(a) && !isContainer(b))
        return a.some((x) => !isContainer(x) && sameScalar(x, b));
    return contains(a, b);
}
function contains(a, b) {
    if (a instanceof Map) {
        if (!(b instanceof Map))
            return false;
        for (const [k, v] of b) {
            if (!a.has(k))
                return false;
            const x = a.get(k);
            if (isContainer(v) ? !contains(x, v) : isContainer(x) || !sameScalar(x, v))
                return false;
        }
        return true;
    }
    if (Array.isArray(a)) {
        if (!Array.isArray(b))
            return false;
        return b.every((v) => isContainer(v) ? a.some((x) => contains(x, v)) : a.some((x) => !isContainer(x) && sameScalar(x, v)));
    }
    return !isContainer(b) && sameScalar(a, b);
}
/** `a ? key`: a key of a's object, a string element of its array, or a's string itself. */
function jsonbHasKey(a, key) {
    if (a instanceof Map)
        return a.has(key);
    if (Array.isArray(a))
        return a.some((x) => x === key);
    return a === key;
}
/** The element of an array a path step names ('-1' is the last), or undefined. */
function arrayIndex(a, step) {
    if (!/^\s*[+-]?\d+\s*$/.test(step))
        return undefined;
    const n = Number(step);
    const i = n < 0 ? a.length + n : n;
    return i >= 0 && i < a.length ? i : undefined;
}
/** `a #> path`: the value at the path (object keys, array indexes), or undefined when there is none. */
function jsonbPath(a, path) {
    let v = a;
    for (const step of path) {
        if (v instanceof Map)
            v = v.get(step);
        else if (Array.isArray(v)) {
            const i = arrayIndex(v, step);
            v = i === undefined ? undefined : v[i];
        }
        else
            return undefined;
        if (v === undefined)
            return undefined;
    }
    return v;
}
/**
 * `a - key`, `a - keys` (text[]) and `a - index`: an object without those keys, an array without
 * its string elements equal to one of them or without the element at the index ('-1' the last).
 */
function jsonbMinus(a, keys, index) {
    if (!isContainer(a))
        throw (0, errors_1.sqlStateError)('22023', 'cannot delete from scalar');
    if (index !== null) {
        if (!Array.isArray(a))
            throw (0, errors_1.sqlStateError)('22023', 'cannot delete from object using integer index');
        const i = index < 0 ? a.length + index : index;
        return i >= 0 && i < a.length ? a.filter((_, k) => k !== i) : a;
    }
    const drop = new Set(keys);
    if (Array.isArray(a))
        return a.filter((x) => typeof x !== 'string' || !drop.has(x));
    return new Map([...a].filter(([k]) => !drop.has(k)));
}
/** `a #- path`: a without the value at the path (a itself when there is none). */
function jsonbDeletePath(a, path) {
    if (!isContainer(a))
        throw (0, errors_1.sqlStateError)('22023', 'cannot delete path in scalar');
    return deletePath(a, path, 0);
}
function deletePath(a, path, at) {
    if (at >= path.length || !isContainer(a))
        return a;
    const step = path[at];
    const last = at === path.length - 1;
    if (a instanceof Map) {
        if (!a.has(step))
            return a;
        const out = new Map(a);
        if (last)
            out.delete(step);
        else
            out.set(step, deletePath(a.get(step), path, at + 1));
        return out;
    }
    if (!/^\s*[+-]?\d+\s*$/.test(step))
        throw (0, errors_1.sqlStateError)('22P02', `path element at position ${at + 1} is not an integer: "${step}"`);
    const i = arrayIndex(a, step);
    if (i === undefined)
        return a;
    const out = [...a];
    if (last)
        out.splice(i, 1);
    else
        out[i] = deletePath(a[i], path, at + 1);
    return out;
}
//# sourceMappingURL=jsonb.js.map