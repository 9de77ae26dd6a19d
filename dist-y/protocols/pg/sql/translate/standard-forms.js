"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteStandardCalls = rewriteStandardCalls;
exports.rewriteFetchFirst = rewriteFetchFirst;
exports.rewriteSelectListSeries = rewriteSelectListSeries;
// SQL-standard spellings PostgreSQL reads and SQLite's grammar lacks, as ORMs and query builders
// write them: `position(a IN b)`, `substring(x FROM a FOR b)`, `trim(BOTH c FROM x)`,
// `OFFSET n ROWS FETCH FIRST m ROWS ONLY` (SQLAlchemy's fetch(), Hibernate, jOOQ) and an OFFSET
// without a LIMIT (SQLite needs one). Each becomes the SQLite call or clause of the same meaning.
const sqlstate_1 = require("../../sqlstate");
const tokens_1 = require("../tokens");
const type_signatures_1 = require("../type-signatures");
const word = (text) => ({ type: 'word', text });
const punct = (text) => ({ type: 'punct', text });
/** Indexes of the top-level (depth 0) words `w` inside toks[from, to). */
function topLevel(toks, from, to, w) {
    const at = [];
    let depth = 0;
    for (let i = from; i < to; i++) {
        if ((0, tokens_1.isPunct)(toks[i], '('))
            depth++;
        else if ((0, tokens_1.isPunct)(toks[i], ')'))
            depth--;
        else if (depth === 0 && (0, tokens_1.isWord)(toks[i], w))
            at.push(i);
    }
    return at;
}
const call = (name, args) => [
    word(name),
    punct('('),
    ...args.flatMap((a, k) => (k === 0 ? a : [punct(','), ...a])),
    punct(')'),
];
/** The SQLite call for a `position`, `substring`, `overlay` or `trim` whose arguments use keywords, or null. */
function standardCall(name, args) {
    const end = args.length;
    if (name === 'POSITION') {
        const at = topLevel(args, 0, end, 'IN');
        if (at.length !== 1)
            return null;
        return call('instr', [args.slice(at[0] + 1), args.slice(0, at[0])]);
    }
    if (name === 'SUBSTRING') {
        const from = topLevel(args, 0, end, 'FROM');
        const forAt = topLevel(args, 0, end, 'FOR');
        if (from.length > 1 || forAt.length > 1 || (from.length === 0 && forAt.length === 0))
            return null;
        const x = args.slice(0, from[0] ?? forAt[0]);
        const start = from.length ? args.slice(from[0] + 1, forAt[0] ?? end) : [{ type: 'number', text: '1' }];
        // substring(x FROM 'pattern') is a regular expression match in PostgreSQL: the first
        // parenthesised group's text, or the whole match
        if (start.length === 1 && start[0].type === 'string')
            return forAt.length ? null : call('__pg_substring_regex', [x, start]);
        return call('__pg_substr', forAt.length ? [x, start, args.slice(forAt[0] + 1)] : [x, start]);
    }
    if (name === 'OVERLAY') {
        // overlay(x PLACING y FROM a [FOR b])
        const placing = topLevel(args, 0, end, 'PLACING');
        const from = topLevel(args, 0, end, 'FROM');
        const forAt = topLevel(args, 0, end, 'FOR');
        if (placing.length !== 1 || from.length !== 1 || forAt.length > 1)
            return null;
        const x = args.slice(0, placing[0]);
        const y = args.slice(placing[0] + 1, from[0]);
        const a = args.slice(from[0] + 1, forAt[0] ?? end);
        return call('__pg_overlay', forAt.length ? [x, y, a, args.slice(forAt[0] + 1)] : [x, y, a]);
    }
    if (name === 'TRIM') {
        let i = 0;
        let fn = 'trim';
        if ((0, tokens_1.isWord)(args[0], 'BOTH') || (0, tokens_1.isWord)(args[0], 'LEADING') || (0, tokens_1.isWord)(args[0], 'TRAILING')) {
            fn = (0, tokens_1.isWord)(args[0], 'LEADING') ? 'ltrim' : (0, tokens_1.isWord)(args[0], 'TRAILING') ? 'rtrim' : 'trim';
            i = 1;
        }
        const from = topLevel(args, i, end, 'FROM');
        if (from.length !== 1)
            return i === 0 ? null : call(fn, [args.slice(i)]);
        const chars = args.slice(i, from[0]);
        const x = args.slice(from[0] + 1);
        return call(fn, chars.length ? [x, chars] : [x]);
    }
    return null;
}
/** Indexes of the top-level commas inside toks. */
function topLevelCommas(toks) {
    const at = [];
    let depth = 0;
    toks.forEach((t, i) => {
        if ((0, tokens_1.isPunct)(t, '('))
            depth++;
        else if ((0, tokens_1.isPunct)(t, ')'))
            depth--;
        else if (depth === 0 && (0, tokens_1.isPunct)(t, ','))
            at.push(i);
    });
    return at;
}
const sameTokens = (a, b) => a.length === b.length && a.every((t, k) => t.type === b[k].type && t.text.toLowerCase() === b[k].text.toLowerCase());
/**
 * string_agg(DISTINCT x, sep [ORDER BY x [ASC|DESC]]) → __pg_string_agg_distinct[_desc](x, sep): SQLite
 * takes DISTINCT with one argument only. PostgreSQL drops repeats by sorting, so the values come out
 * sorted; an ORDER BY of anything but x is PostgreSQL's 42P10.
 */
function distinctStringAgg(args) {
    const commas = topLevelCommas(args);
    if (commas.length !== 1)
        throw (0, sqlstate_1.pgError)('42883', 'string_agg(DISTINCT ...) takes two arguments: the value and the delimiter');
    const x = args.slice(0, commas[0]);
    let sep = args.slice(commas[0] + 1);
    let desc = false;
    const order = topLevel(sep, 0, sep.length, 'ORDER');
    if (order.length > 0) {
        const by = sep.slice(order[0] + 2);
        sep = sep.slice(0, order[0]);
        let key = by;
        const last = by[by.length - 1];
        if (last && ((0, tokens_1.isWord)(last, 'ASC') || (0, tokens_1.isWord)(last, 'DESC'))) {
            desc = (0, tokens_1.isWord)(last, 'DESC');
            key = by.slice(0, -1);
        }
        if (!sameTokens(key, x))
            throw (0, sqlstate_1.pgError)('42P10', 'in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list');
    }
    return call(desc ? '__pg_string_agg_distinct_desc' : '__pg_string_agg_distinct', [x, sep]);
}
/**
 * position(a IN b), substring(x FROM a FOR b), substring(x FROM 'regex'), overlay(x PLACING y FROM a
 * [FOR b]), trim([BOTH|LEADING|TRAILING] [c] FROM x), innermost
 * first; string_agg(DISTINCT x, sep).
 */
function rewriteStandardCalls(toks) {
    for (let i = toks.length - 3; i >= 0; i--)
        if ((0, tokens_1.isWord)(toks[i], 'STRING_AGG') && (0, tokens_1.isPunct)(toks[i + 1], '(') && (0, tokens_1.isWord)(toks[i + 2], 'DISTINCT')) {
            const close = (0, tokens_1.closer)(toks, i + 1);
            if (close > 0)
                toks.splice(i, close - i + 1, ...distinctStringAgg(toks.slice(i + 3, close)));
        }
    const standard = (t) => (0, tokens_1.isWord)(t, 'POSITION') || (0, tokens_1.isWord)(t, 'SUBSTRING') || (0, tokens_1.isWord)(t, 'TRIM') || (0, tokens_1.isWord)(t, 'OVERLAY');
    if (!toks.some(standard))
        return toks;
    for (let i = toks.length - 2; i >= 0; i--) {
        const t = toks[i];
        if (!standard(t) || !(0, tokens_1.isPunct)(toks[i + 1], '('))
            continue;
        if ((0, tokens_1.isPunct)(toks[i - 1], '.'))
            continue;
        const close = (0, tokens_1.closer)(toks, i + 1);
        if (close < 0)
            continue;
        const repl = standardCall(t.text.toUpperCase(), toks.slice(i + 2, close));
        if (repl)
            toks.splice(i, close - i + 1, ...repl);
    }
    return toks;
}
/**
 * `OFFSET n ROW[S]` and `FETCH {FIRST|NEXT} [n] ROW[S] ONLY` → SQLite's `LIMIT n OFFSET m`; an
 * OFFSET with no LIMIT gets `LIMIT -1` (no limit), which SQLite's grammar requires before it, as
 * does `LIMIT ALL`.
 */
function rewriteFetchFirst(toks) {
    // LIMIT ALL and LIMIT NULL (no limit) are SQLite's LIMIT -1, OFFSET NULL is 0, and a parameter
    // there may be NULL too (SQLite's datatype mismatch otherwise)
    if (toks.some((t, i) => (0, tokens_1.isWord)(toks[i - 1], 'LIMIT') || (0, tokens_1.isWord)(toks[i - 1], 'OFFSET')))
        toks = toks.map((t, i) => {
            const limit = (0, tokens_1.isWord)(toks[i - 1], 'LIMIT');
            if (!limit && !(0, tokens_1.isWord)(toks[i - 1], 'OFFSET'))
                return t;
            const none = limit ? '-1' : '0';
            if ((limit && (0, tokens_1.isWord)(t, 'ALL')) || (0, tokens_1.isWord)(t, 'NULL'))
                return { type: 'number', text: none };
            if (t.type === 'param' && (toks[i + 1] === undefined || toks[i + 1].type !== 'op'))
                return { type: 'group', text: `coalesce(${t.text}, ${none})` };
            return t;
        });
    if (!toks.some((t) => (0, tokens_1.isWord)(t, 'OFFSET') || (0, tokens_1.isWord)(t, 'FETCH')))
        return toks;
    const depthAt = [];
    let depth = 0;
    for (const t of toks) {
        if ((0, tokens_1.isPunct)(t, ')'))
            depth--;
        depthAt.push(depth);
        if ((0, tokens_1.isPunct)(t, '('))
            depth++;
    }
    /** The index where the clauses of the query level of toks[i] begin (after its '(' or at 0). */
    const levelStart = (i) => {
        let k = i;
        while (k > 0 && !(depthAt[k - 1] < depthAt[i]))
            k--;
        return k;
    };
    /** The end of an expression at toks[i] in this level: up to ROW(S), a clause word, ')' or ';'. */
    const valueEnd = (i) => {
        let k = i;
        while (k < toks.length &&
            depthAt[k] >= depthAt[i] &&
            !(depthAt[k] === depthAt[i] &&
                ((0, tokens_1.isPunct)(toks[k], ')') ||
                    (0, tokens_1.isPunct)(toks[k], ';') ||
                    ['ROW', 'ROWS', 'FETCH', 'OFFSET', 'LIMIT', 'FOR', 'UNION', 'EXCEPT', 'INTERSECT'].some((w) => (0, tokens_1.isWord)(toks[k], w)))))
            k++;
        return k;
    };
    const out = [];
    // Positions in `out` of the OFFSET of each level (by the index where the level starts)
    const offsetAt = new Map();
    const limited = new Set();
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i];
        if (!(0, tokens_1.isWord)(t, 'LIMIT') && !(0, tokens_1.isWord)(t, 'OFFSET') && !(0, tokens_1.isWord)(t, 'FETCH')) {
            out.push(t);
            continue;
        }
        const level = levelStart(i);
        if ((0, tokens_1.isWord)(t, 'LIMIT')) {
            limited.add(level);
            const off = offsetAt.get(level);
            const end = valueEnd(i + 1);
            const all = end === i + 2 && (0, tokens_1.isWord)(toks[i + 1], 'ALL');
            const limit = all ? [t, { type: 'number', text: '-1' }] : toks.slice(i, end);
            // OFFSET n LIMIT m, which PostgreSQL reads too: the LIMIT goes first
            if (off !== undefined && (0, tokens_1.isWord)(out[off], 'LIMIT'))
                out.splice(off, 2, ...limit);
            else
                out.push(...limit);
            i = end - 1;
            continue;
        }
        if ((0, tokens_1.isWord)(t, 'OFFSET')) {
            const end = valueEnd(i + 1);
            offsetAt.set(level, out.length);
            out.push(...(limited.has(level) ? [] : [word('LIMIT'), { type: 'number', text: '-1' }]), t);
            out.push(...toks.slice(i + 1, end));
            i = end - 1;
            if ((0, tokens_1.isWord)(toks[end], 'ROW') || (0, tokens_1.isWord)(toks[end], 'ROWS'))
                i = end;
            continue;
        }
        if ((0, tokens_1.isWord)(t, 'FETCH') && ((0, tokens_1.isWord)(toks[i + 1], 'FIRST') || (0, tokens_1.isWord)(toks[i + 1], 'NEXT'))) {
            let k = i + 2;
            const end = (0, tokens_1.isWord)(toks[k], 'ROW') || (0, tokens_1.isWord)(toks[k], 'ROWS') ? k : valueEnd(k);
            const count = end > k ? toks.slice(k, end) : [{ type: 'number', text: '1' }];
            k = end;
            if ((0, tokens_1.isWord)(toks[k], 'ROW') || (0, tokens_1.isWord)(toks[k], 'ROWS'))
                k++;
            if (!(0, tokens_1.isWord)(toks[k], 'ONLY')) {
                out.push(t);
                continue; // WITH TIES: left for SQLite to refuse
            }
            const limit = [word('LIMIT'), ...(count.length > 1 ? [punct('('), ...count, punct(')')] : count)];
            const off = offsetAt.get(level);
            // the OFFSET came first: the LIMIT goes before it (in place of the LIMIT -1 it was given)
            if (off !== undefined && (0, tokens_1.isWord)(out[off], 'LIMIT'))
                out.splice(off, 2, ...limit);
            else if (off !== undefined)
                out.splice(off, 0, ...limit);
            else
                out.push(...limit);
            limited.add(level);
            i = k;
            continue;
        }
        out.push(t);
    }
    return out;
}
/** The clause word (SELECT, FROM, JOIN, ...) that toks[i] belongs to, at its own depth. */
function clauseOf(toks, i) {
    let depth = 0;
    for (let k = i - 1; k >= 0; k--) {
        if ((0, tokens_1.isPunct)(toks[k], ')'))
            depth++;
        else if ((0, tokens_1.isPunct)(toks[k], '(')) {
            if (depth === 0)
                return '(';
            depth--;
        }
        else if (depth === 0 && toks[k].type === 'word') {
            const w = toks[k].text.toUpperCase();
            if (['SELECT', 'FROM', 'JOIN', 'WHERE', 'ON', 'GROUP', 'HAVING', 'ORDER', 'RETURNING', 'SET'].includes(w))
                return w;
        }
    }
    return '';
}
/**
 * `SELECT generate_series(a, b[, step]) [AS x]` or `SELECT unnest(array) [AS x]` alone: one row per value, as PostgreSQL gives, by
 * selecting from the table function. Elsewhere in a select list (beside other items, or with a FROM)
 * a set-returning call has no translation: 0A000, rather than SQLite's one row or none.
 */
const isSetReturning = (t) => t.type === 'word' && type_signatures_1.ONE_COLUMN_SET_RETURNING.has(t.text.toLowerCase());
function rewriteSelectListSeries(toks) {
    if (!toks.some(isSetReturning))
        return toks;
    for (let i = 1; i < toks.length; i++) {
        const t = toks[i];
        if (!isSetReturning(t) || !(0, tokens_1.isPunct)(toks[i + 1], '('))
            continue;
        if (clauseOf(toks, i) !== 'SELECT')
            continue;
        const close = (0, tokens_1.closer)(toks, i + 1);
        let end = close + 1;
        let alias = { type: 'quoted', text: `"${t.text.toLowerCase()}"` };
        if ((0, tokens_1.isWord)(toks[end], 'AS'))
            end++;
        if (toks[end] && (toks[end].type === 'word' || toks[end].type === 'quoted') && !(0, tokens_1.isWord)(toks[end], 'FROM'))
            alias = toks[end++];
        // alone: the whole statement (`SELECT unnest(...)`) or a whole subquery (`IN (SELECT unnest($1))`)
        const whole = i === 1 && (end === toks.length || ((0, tokens_1.isPunct)(toks[end], ';') && end + 1 === toks.length));
        const sub = i >= 2 && (0, tokens_1.isPunct)(toks[i - 2], '(') && (0, tokens_1.isPunct)(toks[end], ')') && (0, tokens_1.closer)(toks, i - 2) === end;
        const alone = (0, tokens_1.isWord)(toks[i - 1], 'SELECT') && (whole || sub) && close >= 0;
        // unnest beside generate_subscripts: SQLAlchemy's primary-key query, which set-returning.ts joins
        if ((0, tokens_1.isWord)(t, 'UNNEST') && !alone && toks.some((x) => (0, tokens_1.isWord)(x, 'GENERATE_SUBSCRIPTS')))
            continue;
        if (!alone) {
            const joined = close >= 0 ? setReturningAsJoin(toks, i, close) : null;
            if (joined) {
                toks = joined;
                continue;
            }
            const fn = t.text.toLowerCase();
            throw (0, sqlstate_1.pgError)('0A000', `${fn}() in a select list is supported alone, or once in a SELECT without aggregates, GROUP BY or DISTINCT; write FROM ${fn}(...) AS x`);
        }
        // FROM generate_series(...) AS x names its value x (translate/set-returning.ts)
        toks = [
            ...toks.slice(0, i),
            alias,
            { type: 'word', text: 'FROM' },
            ...toks.slice(i, close + 1),
            { type: 'word', text: 'AS' },
            alias,
            ...toks.slice(whole ? toks.length : end),
        ];
        i += 4 + (close - i);
    }
    return toks;
}
const AGGREGATES = new Set([
    'COUNT',
    'SUM',
    'AVG',
    'MIN',
    'MAX',
    'ARRAY_AGG',
    'STRING_AGG',
    'JSON_AGG',
    'JSONB_AGG',
    'JSON_OBJECT_AGG',
    'JSONB_OBJECT_AGG',
    'BOOL_AND',
    'BOOL_OR',
    'EVERY',
    'STDDEV',
    'VARIANCE',
]);
const CLAUSE_ENDS = new Set(['WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR']);
/**
 * `SELECT id, jsonb_array_elements_text(tags) AS tag FROM t`: a set-returning call beside other items
 * gives one row per value of each row, which is a join with the table-valued function:
 * `SELECT id, "__pg_srf".value AS tag FROM t, jsonb_array_elements_text(tags) AS "__pg_srf"`. Only
 * for the statement's own SELECT with one such call and no aggregate, window, GROUP BY, HAVING,
 * DISTINCT or set operation (PostgreSQL runs the call after those); null otherwise.
 */
function setReturningAsJoin(toks, i, close) {
    if (!(0, tokens_1.isWord)(toks[0], 'SELECT') || (0, tokens_1.isWord)(toks[1], 'DISTINCT'))
        return null;
    let depth = 0;
    let listEnd = toks.length;
    let from = -1;
    let fromEnd = toks.length;
    for (let k = 1; k < toks.length; k++) {
        const t = toks[k];
        if ((0, tokens_1.isPunct)(t, '('))
            depth++;
        else if ((0, tokens_1.isPunct)(t, ')'))
            depth--;
        if (depth < 0)
            return null;
        const up = t.type === 'word' ? t.text.toUpperCase() : '';
        if (k >= i && k <= close)
            continue;
        if (up === 'OVER' || (AGGREGATES.has(up) && (0, tokens_1.isPunct)(toks[k + 1], '(')))
            return null;
        if (isSetReturning(t) && (0, tokens_1.isPunct)(toks[k + 1], '('))
            return null; // two calls: PostgreSQL runs them in step
        if (depth !== 0)
            continue;
        if (['UNION', 'INTERSECT', 'EXCEPT', 'GROUP', 'HAVING'].includes(up))
            return null;
        if (up === 'SELECT' && k > 0)
            return null;
        if (up === 'FROM' && from < 0) {
            if (k < i)
                return null;
            from = k;
            listEnd = k;
        }
        else if (from < 0 && CLAUSE_ENDS.has(up) && k > close) {
            listEnd = Math.min(listEnd, k);
        }
        else if (from >= 0 && fromEnd === toks.length && CLAUSE_ENDS.has(up))
            fromEnd = k;
        if ((0, tokens_1.isPunct)(t, ';') && k > close) {
            listEnd = Math.min(listEnd, k);
            if (from >= 0 && fromEnd === toks.length)
                fromEnd = k;
        }
    }
    const alias = { type: 'quoted', text: '"__pg_srf"' };
    const call = toks.slice(i, close + 1);
    const ref = [alias, { type: 'punct', text: '.' }, { type: 'word', text: 'value' }];
    const item = [...call, { type: 'word', text: 'AS' }, alias];
    const at = from >= 0 ? fromEnd : listEnd;
    const tail = toks.slice(at);
    const head = [...toks.slice(0, i), ...ref, ...toks.slice(close + 1, at)];
    return from >= 0
        ? [...head, { type: 'punct', text: ',' }, ...item, ...tail]
        : [...head, { type: 'word', text: 'FROM' }, ...item, ...tail];
}
//# sourceMappingURL=standard-forms.js.map