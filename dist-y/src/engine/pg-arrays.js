"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.installPgArrayFunctions = installPgArrayFunctions;
const errors_1 = require("../errors");
const dates_1 = require("./dates");
const pg_array_input_1 = require("./pg-array-input");
const pg_functions_1 = require("./pg-functions");
// PostgreSQL's array functions over Patina's arrays (PostgreSQL's text '{a,b}', see
// protocols/pg/types/array.ts): on every connection a PG statement runs on, so that `tags[1]` and
// array_length(tags, 1) work on a table's rows as on the catalog.
function installPgArrayFunctions(db) {
    const fn = (name, f) => db.function(name, { varargs: true, deterministic: true }, f);
    // an array cast to, or written into a column of, an array type: in PostgreSQL's form, each element
    // read as its type (src/engine/pg-array-input.ts); `lenient` for one an expression built
    db.function('__pg_array_in', { deterministic: true }, (arr, kind, lenient) => {
        if (arr === null || arr === undefined)
            return null;
        const k = String(kind);
        const text = typeof arr === 'string' ? arr : String(arr);
        // the catalog's int2vector ('1 2') and JSON arrays are left to the functions that read them
        if (!(0, pg_array_input_1.isElementKind)(k) || /^\s*(-?\d+(\s+-?\d+)*)?\s*$/.test(text))
            return arr;
        return (0, pg_array_input_1.arrayInput)(text, k, lenient === 1 || lenient === 1n);
    });
    // a || b of arrays ('aa'), an array and an element ('as') or an element and an array ('sa')
    db.function('__pg_array_cat', { deterministic: true }, (kind, a, b) => {
        const k = String(kind);
        // '?': a side of unknown type, an array when its value reads as one (or is NULL)
        const isArray = (c, v) => c === 'a' || (c === '?' && (v === null || (typeof v === 'string' && /^\s*\{.*\}\s*$/s.test(v))));
        const elements = (v) => {
            if (v === null)
                return [];
            if (typeof v === 'string' && !/^\s*[{[]/.test(v))
                throw (0, errors_1.sqlStateError)('22P02', `malformed array literal: "${v.slice(0, 80)}"`);
            return (0, pg_functions_1.arrayElements)(v);
        };
        const left = isArray(k[0], a) ? elements(a) : [a];
        const right = isArray(k[1], b) ? elements(b) : [b];
        if (k === 'aa' && a === null && b === null)
            return null;
        return (0, pg_functions_1.arrayText)([...left, ...right]);
    });
    fn('string_to_array', (str, sep) => str === null ? null : (0, pg_functions_1.arrayText)(sep === null ? [...String(str)] : String(str).split(String(sep))));
    fn('array_to_string', (arr, sep, nullStr) => arr === null
        ? null
        : (0, pg_functions_1.arrayElements)(arr)
            .map((e) => (e === null ? (nullStr ?? null) : String(e)))
            .filter((e) => e !== null)
            .join(String(sep)));
    fn('array_position', (arr, elem) => {
        if (arr === null || elem === null)
            return null;
        const at = (0, pg_functions_1.arrayElements)(arr).findIndex((e) => e !== null && String(e) === String(elem));
        return at < 0 ? null : at + 1;
    });
    fn('array_upper', (arr) => (arr === null ? null : (0, pg_functions_1.arrayElements)(arr).length || null));
    fn('array_lower', (arr) => (arr === null ? null : (0, pg_functions_1.arrayElements)(arr).length ? 1 : null));
    fn('array_length', (arr) => (arr === null ? null : (0, pg_functions_1.arrayElements)(arr).length || null));
    fn('cardinality', (arr) => (arr === null ? null : (0, pg_functions_1.arrayElements)(arr).length));
    // int2vector and oidvector (stored '1 2') count from 0, arrays ('{1,2}') from 1
    fn('__pg_elem', (arr, i) => arr === null || i === null
        ? null
        : ((0, pg_functions_1.arrayElements)(arr)[Number(i) - (/^\s*[{[]/.test(String(arr)) ? 1 : 0)] ?? null));
    // arr[lo:hi] ('lu' says which bounds were written; an omitted one is the array's end): the
    // elements between them, counted from 1 again; NULL when a written bound is NULL
    db.function('__pg_slice', { deterministic: true }, (arr, lo, hi, given) => {
        const g = String(given);
        if (arr === null || (g.includes('l') && lo === null) || (g.includes('u') && hi === null))
            return null;
        const xs = (0, pg_functions_1.arrayElements)(arr);
        const from = g.includes('l') ? Math.max(1, Number(lo)) : 1;
        const to = g.includes('u') ? Math.min(xs.length, Number(hi)) : xs.length;
        return (0, pg_functions_1.arrayText)(from > to ? [] : xs.slice(from - 1, to));
    });
    fn('array_append', (arr, x) => (0, pg_functions_1.arrayText)([...(arr === null ? [] : (0, pg_functions_1.arrayElements)(arr)), x]));
    fn('array_prepend', (x, arr) => (0, pg_functions_1.arrayText)([x, ...(arr === null ? [] : (0, pg_functions_1.arrayElements)(arr))]));
    fn('array_cat', (a, b) => a === null && b === null
        ? null
        : (0, pg_functions_1.arrayText)([...(a === null ? [] : (0, pg_functions_1.arrayElements)(a)), ...(b === null ? [] : (0, pg_functions_1.arrayElements)(b))]));
    fn('array_replace', (arr, from, to) => arr === null
        ? null
        : (0, pg_functions_1.arrayText)((0, pg_functions_1.arrayElements)(arr).map((e) => (from === null ? e === null : e !== null && String(e) === String(from)) ? to : e)));
    // @>, <@ and && of arrays (the analysis tells them from jsonb's @> by their operands' types): NULL
    // elements match nothing, as in PostgreSQL; numeric and boolean elements by their value ('kind',
    // from the analysis: 1.50 is 1.5, true is t)
    const keyOf = (kind) => (0, pg_array_input_1.isKeyedKind)(kind) ? (e) => (0, pg_array_input_1.elementKey)(e, kind) : (e) => String(e);
    const members = (arr, key) => new Set((0, pg_functions_1.arrayElements)(arr)
        .filter((e) => e !== null)
        .map(key));
    const contains = (a, b, kind) => {
        if (a === null || b === null)
            return null;
        const key = keyOf(kind);
        const have = members(a, key);
        return (0, pg_functions_1.arrayElements)(b).every((e) => e !== null && have.has(key(e))) ? 1 : 0;
    };
    fn('__pg_array_contains', (a, b, kind) => contains(a, b, kind));
    fn('__pg_array_contained', (a, b, kind) => contains(b, a, kind));
    fn('__pg_array_overlap', (a, b, kind) => {
        if (a === null || b === null)
            return null;
        const key = keyOf(kind);
        const have = members(a, key);
        return (0, pg_functions_1.arrayElements)(b).some((e) => e !== null && have.has(key(e))) ? 1 : 0;
    });
    // numeric and boolean arrays compared (=, <>) by their elements' values: '{1.50}' = '{1.5}'
    db.function('__pg_array_key', { deterministic: true }, (kind, arr) => arr === null || arr === undefined || !(0, pg_array_input_1.isKeyedKind)(kind) ? arr : (0, pg_array_input_1.arrayKey)(String(arr), kind));
    // <, >, ORDER BY of arrays of numbers, booleans and text: by their elements ('{9}' < '{10}', '{}' first)
    db.function('__pg_array_sortkey', { deterministic: true }, (kind, arr) => arr === null || arr === undefined || !((0, pg_array_input_1.isKeyedKind)(kind) || kind === 'text')
        ? arr
        : (0, pg_array_input_1.arraySortKey)(String(arr), kind));
    // the elements x = ANY (arr) and x > ALL (arr) compare with: one NULL for a NULL array (x'00', as
    // translate/arrays.ts passes it: SQLite calls no table-valued function with NULL; the comparison is NULL, as in PostgreSQL, not false or true over no elements); of a numeric or
    // boolean array as SQLite holds such values (numbers, 1 and 0), so that 1.5 finds '1.50' and true 't'
    db.table('__pg_elems_as', {
        columns: ['value'],
        parameters: ['arr', 'kind'],
        *rows(arr, kind) {
            if (Buffer.isBuffer(arr) && arr.length === 1 && arr[0] === 0)
                return yield [null];
            for (const x of (0, pg_functions_1.arrayElements)(arr))
                yield [(x === null ? null : asValue(x, kind))];
        },
    });
    // array_position, array_replace and array_remove of a numeric or boolean array (the analysis
    // renames the call): elements matched by value, a boolean written back as t or f
    for (const kind of ['numeric', 'boolean']) {
        const key = (e) => (0, pg_array_input_1.elementKey)(e, kind);
        const out = (x) => (x === null || kind !== 'boolean' ? x : key(x));
        fn(`__pg_array_position_${kind}`, (arr, elem) => {
            if (arr === null || elem === null)
                return null;
            const k = key(elem);
            const at = (0, pg_functions_1.arrayElements)(arr).findIndex((e) => e !== null && key(e) === k);
            return at < 0 ? null : at + 1;
        });
        fn(`__pg_array_replace_${kind}`, (arr, from, to) => {
            if (arr === null)
                return null;
            const k = from === null ? null : key(from);
            return (0, pg_functions_1.arrayText)((0, pg_functions_1.arrayElements)(arr).map((e) => ((k === null ? e === null : e !== null && key(e) === k) ? out(to) : e)));
        });
        fn(`__pg_array_remove_${kind}`, (arr, x) => {
            if (arr === null)
                return null;
            const k = x === null ? null : key(x);
            return (0, pg_functions_1.arrayText)((0, pg_functions_1.arrayElements)(arr).filter((e) => (k === null ? e !== null : e === null || key(e) !== k)));
        });
    }
    // the set-returning unnest and generate_series as table-valued functions, on every connection so
    // that a write may read them (INSERT ... SELECT ... FROM generate_series(1, 100) g)
    db.table('unnest', {
        columns: ['value'],
        parameters: ['arr'],
        *rows(arr) {
            for (const x of (0, pg_functions_1.arrayElements)(arr))
                yield [x];
        },
    });
    const num = (v) => (typeof v === 'bigint' ? Number(v) : v);
    db.table('generate_series', {
        columns: ['value'],
        parameters: ['start', 'stop', 'step'],
        *rows(start, stop, step) {
            if (start === null || stop === null || step === null)
                return;
            if (typeof start === 'string' && !/^\s*[-+]?\d+\s*$/.test(start)) {
                // timestamps, a step of an interval (PostgreSQL's timestamp form)
                const end = (0, dates_1.addInterval)(stop, '00:00:00', 1);
                const next = (v) => (0, dates_1.addInterval)(v, step ?? '1 day', 1);
                let v = (0, dates_1.addInterval)(start, '00:00:00', 1);
                if (v === null || end === null)
                    return;
                const first = next(v);
                if (first === null || first === v)
                    return;
                const up = first > v;
                while (up ? v <= end : v >= end) {
                    yield [v];
                    const n = next(v);
                    if (n === null)
                        return;
                    v = n;
                }
                return;
            }
            const st = step === null || step === undefined ? 1 : num(step);
            if (st === 0)
                return;
            // integers as integers (a JS number would be a REAL: 'x' || g was 'x1.0')
            for (let i = num(start); st > 0 ? i <= num(stop) : i >= num(stop); i += st)
                yield [(Number.isInteger(i) ? BigInt(i) : i)];
        },
    });
    fn('array_remove', (arr, x) => arr === null
        ? null
        : (0, pg_functions_1.arrayText)((0, pg_functions_1.arrayElements)(arr).filter((e) => (x === null ? e !== null : String(e) !== String(x)))));
}
/** An element of a numeric or boolean array as SQLite holds such a value: a number (NaN as its text), 1 or 0. */
function asValue(x, kind) {
    if (kind === 'boolean')
        return (0, pg_array_input_1.elementKey)(x, 'boolean') === 't' ? 1 : 0;
    if (kind !== 'numeric' || typeof x !== 'string')
        return x;
    const k = (0, pg_array_input_1.elementKey)(x, 'numeric');
    if (!/^-?\d+(\.\d+)?$/.test(k))
        return k; // NaN, Infinity
    if (k.includes('.'))
        return Number(k);
    const n = BigInt(k);
    return n >= -(2n ** 63n) && n < 2n ** 63n ? n : Number(k);
}
//# sourceMappingURL=pg-arrays.js.map