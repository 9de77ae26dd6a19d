"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WideInteger = void 0;
exports.liftLiterals = liftLiterals;
exports.typedLiterals = typedLiterals;
// Literals of a simple query lifted out into parameters, so that `... WHERE aid = 48213` and
// `... WHERE aid = 7` share one analysis, one SQLite statement and one point-read verdict (pgbench
// -M simple, dashboards that inline their filters), and so do `INSERT ... VALUES (7, 'x')` and
// `UPDATE t SET v = 'x' WHERE id = 7` (psycopg2, and the ORMs on it, write every value into the SQL
// text). Only spots where a bound value means exactly what the literal meant are taken: an integer or
// string compared with a column in a WHERE clause (or its BETWEEN bounds), a whole item of an
// INSERT's VALUES rows, a whole value of an UPDATE's SET. A literal assigned to a column is an
// untyped value PostgreSQL reads with the column's type, as it reads a parameter the analysis typed
// from that column; typedLiterals() converts each one as Bind does, and when a value does not
// fit its type the caller analyses the statement as written instead (its error is the literal's).
const errors_1 = require("../../../src/errors");
const decimal_1 = require("../../../src/engine/decimal");
const oids_1 = require("../types/oids");
const element_kind_1 = require("../types/element-kind");
const registry_1 = require("../types/registry");
const values_1 = require("../types/values");
const local_statements_1 = require("./local-statements");
const tokens_1 = require("./tokens");
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);
/** What may follow a lifted literal: the end, a closing parenthesis, or a word that ends the operand. */
const ENDS = new Set([
    'AND',
    'OR',
    'ORDER',
    'LIMIT',
    'GROUP',
    'OFFSET',
    'HAVING',
    'UNION',
    'EXCEPT',
    'INTERSECT',
    'WINDOW',
    'FETCH',
    'FOR',
    'RETURNING',
]);
/** What may follow a value of an UPDATE's SET list. */
const SET_ENDS = new Set(['WHERE', 'RETURNING', 'FROM']);
/** An integer literal beyond 64 bits assigned to a column (PostgreSQL reads it as a numeric). */
class WideInteger {
    text;
    constructor(text) {
        this.text = text;
    }
}
exports.WideInteger = WideInteger;
const isColumn = (t) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
/**
 * The value a liftable literal token stands for; undefined when it is not one (an unclosed string, a
 * decimal compared with a column: its text form matters against TEXT columns). An assigned decimal
 * is its text, read by typedLiterals() as its column's float or numeric.
 */
function literalValue(t, negative, assigned) {
    if (t.type === 'number') {
        if (/^\d+$/.test(t.text)) {
            const n = BigInt(negative ? `-${t.text}` : t.text); // bound as INTEGER, as the literal was (a JS number binds as REAL)
            if (n >= INT64_MIN && n <= INT64_MAX)
                return n;
            // beyond 64 bits SQLite cannot bind it ("too big") and PostgreSQL reads a numeric: one assigned
            // is lifted as its text (typedLiterals() reads it by its column), one compared is left as written
            return assigned ? new WideInteger(n.toString()) : undefined;
        }
        if (assigned && /^(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t.text))
            return negative ? `-${t.text}` : t.text;
        return undefined;
    }
    if (t.type !== 'string' || negative || t.text.length < 2 || t.text[0] !== "'" || !t.text.endsWith("'"))
        return undefined;
    return t.text.slice(1, -1).split("''").join("'");
}
/** The statement with its liftable literals as parameters; null when there are none. */
function liftLiterals(tokens) {
    const sig = tokens.filter((t) => t.type !== 'space' && t.type !== 'comment');
    if (sig.length < 4 || sig[0].type !== 'word')
        return null;
    const first = sig[0].text.toUpperCase();
    if (first !== 'SELECT' && first !== 'INSERT' && first !== 'UPDATE' && first !== 'DELETE')
        return null;
    if (sig.some((t) => t.type === 'param') || (0, local_statements_1.catalogRelations)(sig))
        return null;
    if (first === 'SELECT' && (0, local_statements_1.hasNoFrom)(sig))
        return null;
    const values = [];
    const assigned = [];
    const decimal = [];
    const out = sig.slice();
    /** Lifts the literal at i (with a minus sign before it when `negative`) if it is one. */
    const lift = (i, negative, isAssigned) => {
        const value = literalValue(sig[i], negative, isAssigned);
        if (value === undefined)
            return;
        values.push(value);
        assigned.push(isAssigned);
        decimal.push(sig[i].type === 'number' && typeof value === 'string');
        out[i] = { type: 'param', text: `$${values.length}` };
        if (negative)
            out[i - 1] = { type: 'space', text: '' };
    };
    const where = sig.findIndex((t) => (0, tokens_1.isWord)(t, 'WHERE'));
    if (first === 'INSERT')
        liftValuesRows(sig, lift);
    if (first === 'UPDATE')
        liftSetValues(sig, where < 0 ? sig.length : where, lift);
    if (where >= 0)
        liftComparisons(sig, where, lift);
    if (values.length === 0)
        return null;
    const kept = out.filter((t) => t.type !== 'space');
    return { key: (0, tokens_1.joinTokens)(kept), tokens: kept, values, assigned, decimal };
}
/** WHERE-clause literals compared with a column: `col = 5`, `col BETWEEN 'a' AND 'b'`. */
function liftComparisons(sig, where, lift) {
    /** Whether an operand ends before t: the end, a closing parenthesis, or a word that ends it. */
    const endsBefore = (t) => !t || (0, tokens_1.isPunct)(t, ')') || (0, tokens_1.isPunct)(t, ';') || (t.type === 'word' && ENDS.has(t.text.toUpperCase()));
    const literal = (t) => t !== undefined && (t.type === 'number' || t.type === 'string');
    for (let i = where + 2; i < sig.length; i++) {
        if (!literal(sig[i]))
            continue;
        const op = sig[i - 1];
        const col = sig[i - 2];
        const next = sig[i + 1];
        if (op.type === 'op' && COMPARISONS.has(op.text) && isColumn(col) && endsBefore(next))
            lift(i, false, false);
        else if ((0, tokens_1.isWord)(op, 'BETWEEN') &&
            isColumn(col) &&
            (0, tokens_1.isWord)(next, 'AND') &&
            literal(sig[i + 2]) &&
            endsBefore(sig[i + 3])) {
            // both bounds, when the upper one is a plain literal too
            lift(i, false, false);
            lift(i + 2, false, false);
            i += 2;
        }
    }
}
/** Whole items of an INSERT's VALUES rows: `VALUES (7, 'x', -3), (8, 'y', 0)`. */
function liftValuesRows(sig, lift) {
    const v = sig.findIndex((t) => (0, tokens_1.isWord)(t, 'VALUES'));
    if (v < 0 || !(0, tokens_1.isPunct)(sig[v + 1], '('))
        return;
    // a SELECT (or a WITH) before VALUES: not the rows of this INSERT
    if (sig.slice(0, v).some((t) => (0, tokens_1.isWord)(t, 'SELECT') || (0, tokens_1.isWord)(t, 'WITH')))
        return;
    let depth = 0;
    for (let i = v + 1; i < sig.length; i++) {
        const t = sig[i];
        // (an element of ARRAY[...] is no item: 'b' of ARRAY['a', 'b', 'c'] lifted alone hid the array's type)
        if ((0, tokens_1.isPunct)(t, '(') || (0, tokens_1.isPunct)(t, '['))
            depth++;
        else if ((0, tokens_1.isPunct)(t, ']'))
            depth--;
        else if ((0, tokens_1.isPunct)(t, ')')) {
            if (--depth === 0 && !(0, tokens_1.isPunct)(sig[i + 1], ','))
                return; // the last row ended
        }
        else if (depth === 1 && (t.type === 'number' || t.type === 'string')) {
            const prev = sig[i - 1];
            const negative = (0, tokens_1.isOp)(prev, '-');
            const before = negative ? sig[i - 2] : prev;
            const next = sig[afterCast(sig, i)];
            if (((0, tokens_1.isPunct)(before, '(') || (0, tokens_1.isPunct)(before, ',')) && ((0, tokens_1.isPunct)(next, ',') || (0, tokens_1.isPunct)(next, ')')))
                lift(i, negative, true);
        }
        else if (depth === 0 && !(0, tokens_1.isPunct)(t, ','))
            return;
    }
}
/** Types a quoted literal may be cast to and still be lifted: `'2024-01-15T10:30:00'::timestamp`. */
const LIFTED_CASTS = new Set([
    'date',
    'timestamp',
    'timestamptz',
    'time',
    'interval',
    'uuid',
    'bytea',
    'json',
    'jsonb',
    'numeric',
    'float',
    'float4',
    'float8',
    'real',
]);
/**
 * The index after the literal at i and the cast that may follow it: psycopg2 writes a datetime as
 * `'2024-01-15T10:30:00'::timestamp`, a date, time, timedelta, bytes or NaN with their casts. The
 * string is lifted and the cast kept (`$1::timestamp`): the parameter takes the cast's type, as
 * PostgreSQL infers it, and the cast reads it as it read the literal. A cast with a type modifier
 * or an array type is not lifted.
 */
function afterCast(sig, i) {
    const c = sig[i + 1];
    const type = sig[i + 2];
    if (sig[i].type !== 'string' || !(0, tokens_1.isOp)(c, '::') || type?.type !== 'word')
        return i + 1;
    return LIFTED_CASTS.has(type.text.toLowerCase()) ? i + 3 : i + 1;
}
/** Whole values of an UPDATE's SET list: `SET a = 'x', b = -2 WHERE ...`. */
function liftSetValues(sig, end, lift) {
    const set = sig.findIndex((t) => (0, tokens_1.isWord)(t, 'SET'));
    if (set < 0)
        return;
    let depth = 0;
    for (let i = set + 1; i < end; i++) {
        const t = sig[i];
        if ((0, tokens_1.isPunct)(t, '('))
            depth++;
        else if ((0, tokens_1.isPunct)(t, ')'))
            depth--;
        else if (depth === 0 && (t.type === 'number' || t.type === 'string')) {
            const prev = sig[i - 1];
            const negative = (0, tokens_1.isOp)(prev, '-');
            const eq = negative ? sig[i - 2] : prev;
            const col = negative ? sig[i - 3] : sig[i - 2];
            const before = negative ? sig[i - 4] : sig[i - 3];
            const next = sig[afterCast(sig, i)];
            const ends = !next ||
                (0, tokens_1.isPunct)(next, ',') ||
                (0, tokens_1.isPunct)(next, ';') ||
                (next.type === 'word' && SET_ENDS.has(next.text.toUpperCase()));
            // `col = 'x'` right after SET or a comma (not `a.b = ...`, not a row `(a, b) = ...`)
            if ((0, tokens_1.isOp)(eq, '=') && isColumn(col) && ((0, tokens_1.isWord)(before, 'SET') || (0, tokens_1.isPunct)(before, ',')) && ends)
                lift(i, negative, true);
        }
    }
}
const DATED = new Set([oids_1.OID.date, oids_1.OID.time, oids_1.OID.timestamp, oids_1.OID.timestamptz, oids_1.OID.bool]);
/** Types a decimal literal is assigned to as the same number. */
const DECIMALS = new Set([oids_1.OID.float4, oids_1.OID.float8, oids_1.OID.numeric]);
/** Types an integer literal is assigned to as the same number. */
const NUMBERS = new Set([oids_1.OID.int2, oids_1.OID.int4, oids_1.OID.int8, oids_1.OID.oid, oids_1.OID.float4, oids_1.OID.float8, oids_1.OID.numeric]);
const INTEGERS = new Set([oids_1.OID.int2, oids_1.OID.int4, oids_1.OID.int8, oids_1.OID.oid]);
/** Types a string literal is assigned to as the same text. */
const TEXTS = new Set([0, oids_1.OID.text, oids_1.OID.varchar, oids_1.OID.bpchar, oids_1.OID.name]);
/**
 * The lifted values as the analysis typed their parameters: a string compared with a boolean, date
 * or time column as that type stores it ('t' as 1) (`ts > '2024-01-15 10:30'` compares with '2024-01-15 10:30:00';
 * SQLite compares the text, where '2024-01-15 10:30:00' is the greater), as a bound parameter is; a
 * value assigned to a column read by its type as Bind reads a text parameter, failing as PostgreSQL
 * fails the literal ('maybe' for a boolean: 22P02). Null when an integer is assigned to a column of
 * another type (1 for a boolean), a decimal to one that is no float or numeric, or a conversion fails
 * otherwise: the statement then runs as written.
 */
function typedLiterals(lifted, types) {
    const out = [];
    for (let k = 0; k < lifted.values.length; k++) {
        const v = lifted.values[k];
        const type = types[k] ?? 0;
        if (v instanceof WideInteger) {
            // into an integer column it is out of range as PostgreSQL finds it; into a text column it is
            // its digits; into any other the statement runs as written
            if (INTEGERS.has(type))
                throw new errors_1.PatinaError('user', 'bigint out of range', undefined, '22003');
            if (!TEXTS.has(type))
                return null;
            out.push(v.text);
        }
        else if (!lifted.assigned[k]) {
            // an array compared in PostgreSQL's form, as the column keeps it (`tags = '{a, b}'` finds '{a,b}')
            const typed = typeof v === 'string' && (DATED.has(type) || keptArray(type));
            if (!typed)
                out.push(v);
            else {
                const read = literalAs(v, type, k);
                if (read === undefined)
                    return null;
                out.push(read);
            }
        }
        else if (lifted.decimal[k]) {
            // 1.50 into a float or numeric column, read as Bind reads '1.50'; into a text column its
            // numeric's text ('1.50', 1e3 as '1000'; SQLite's REAL made it '1.5'); an integer column
            // rounds it, and that runs as written
            const d = type !== 0 && TEXTS.has(type) ? (0, decimal_1.parseDecimal)(v) : null;
            if (d)
                out.push((0, decimal_1.decimalText)(d));
            else if (DECIMALS.has(type))
                out.push((0, values_1.paramValue)(Buffer.from(v), type, 0, k));
            else
                return null;
        }
        else if (typeof v !== 'string') {
            if (!NUMBERS.has(type))
                return null;
            out.push(v);
        }
        else if (TEXTS.has(type)) {
            out.push(v);
        }
        else {
            const read = literalAs(v, type, k);
            if (read === undefined)
                return null;
            out.push(read);
        }
    }
    return out;
}
/** Whether a type is an array kept in PostgreSQL's form (a literal of it is read as Bind reads it). */
const keptArray = (type) => {
    const elem = (0, registry_1.elementOidOf)(type);
    return elem !== undefined && (0, element_kind_1.elementKindOf)(elem) !== undefined;
};
/**
 * String literal `k` read as Bind reads a text parameter of `type`; undefined when that fails other
 * than as the literal's input (the statement then runs as written).
 */
function literalAs(v, type, k) {
    try {
        return (0, values_1.paramValue)(Buffer.from(v), type, 0, k);
    }
    catch (err) {
        // the input error PostgreSQL gives the literal ('maybe' for a boolean: 22P02), without
        // Bind's "(parameter $n)": the statement has none
        const suffix = ` (parameter $${k + 1})`;
        if (err instanceof errors_1.PatinaError && err.sqlstate?.startsWith('22') && err.message.endsWith(suffix))
            throw new errors_1.PatinaError(err.kind, err.message.slice(0, -suffix.length), undefined, err.sqlstate);
        return undefined;
    }
}
//# sourceMappingURL=literals.js.map