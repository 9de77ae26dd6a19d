"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.inlineLateralRows = inlineLateralRows;
exports.inlineLateralSubqueries = inlineLateralSubqueries;
exports.dropLateralOfCalls = dropLateralOfCalls;
const lexer_1 = require("../lexer");
const tokens_1 = require("../tokens");
/** The top-level comma-separated items of toks[from, to). */
function items(toks, from, to) {
    const out = [[]];
    let depth = 0;
    for (let i = from; i < to; i++) {
        const t = toks[i];
        if ((0, tokens_1.isPunct)(t, '('))
            depth++;
        else if ((0, tokens_1.isPunct)(t, ')'))
            depth--;
        if (depth === 0 && (0, tokens_1.isPunct)(t, ','))
            out.push([]);
        else
            out[out.length - 1].push(t);
    }
    return out;
}
/**
 * Rewrites `[CROSS] JOIN LATERAL (SELECT e1, ...) [AS] alias (c1, ...)` (no FROM in the subquery)
 * into references to the expressions themselves; tokens without a LATERAL come back unchanged.
 */
function inlineLateralRows(toks) {
    if (!toks.some((t) => (0, tokens_1.isWord)(t, 'LATERAL')))
        return toks;
    for (let i = 0; i < toks.length; i++) {
        if (!(0, tokens_1.isWord)(toks[i], 'LATERAL') || !(0, tokens_1.isPunct)(toks[i + 1], '(') || !(0, tokens_1.isWord)(toks[i + 2], 'SELECT'))
            continue;
        const start = (0, tokens_1.isWord)(toks[i - 1], 'JOIN') ? ((0, tokens_1.isWord)(toks[i - 2], 'CROSS') ? i - 2 : i - 1) : -1;
        const close = (0, tokens_1.closer)(toks, i + 1);
        if (start < 0 || close < 0)
            continue;
        const body = items(toks, i + 3, close);
        let depth = 0;
        const hasFrom = toks
            .slice(i + 3, close)
            .some((t) => (0, tokens_1.isPunct)(t, '(') ? (depth++, false) : (0, tokens_1.isPunct)(t, ')') ? (depth--, false) : depth === 0 && (0, tokens_1.isWord)(t, 'FROM'));
        let j = close + 1;
        if ((0, tokens_1.isWord)(toks[j], 'AS'))
            j++;
        const alias = toks[j];
        if (hasFrom || !alias || (alias.type !== 'word' && alias.type !== 'quoted') || !(0, tokens_1.isPunct)(toks[j + 1], '('))
            continue;
        const colsEnd = (0, tokens_1.closer)(toks, j + 1);
        if (colsEnd < 0)
            continue;
        const cols = items(toks, j + 2, colsEnd).map((c) => (c.length === 1 ? (0, lexer_1.identName)(c[0]) : ''));
        if (cols.length !== body.length || cols.includes(''))
            continue;
        let end = colsEnd + 1;
        if ((0, tokens_1.isWord)(toks[end], 'ON') && (0, tokens_1.isWord)(toks[end + 1], 'TRUE'))
            end += 2;
        const name = (0, lexer_1.identName)(alias);
        const rest = [...toks.slice(0, start), ...toks.slice(end)];
        const out = [];
        for (let k = 0; k < rest.length; k++) {
            const t = rest[k];
            const col = (t.type === 'word' || t.type === 'quoted') && (0, lexer_1.identName)(t) === name && (0, tokens_1.isPunct)(rest[k + 1], '.') && rest[k + 2]
                ? cols.indexOf((0, lexer_1.identName)(rest[k + 2]))
                : -1;
            if (col >= 0) {
                out.push({ type: 'punct', text: '(' }, ...body[col], { type: 'punct', text: ')' });
                k += 2;
            }
            else
                out.push(t);
        }
        return inlineLateralRows(out);
    }
    return toks;
}
/** Aggregates: a SELECT of one of these and no GROUP BY yields exactly one row. */
const AGGREGATES = new Set([
    'count', 'sum', 'avg', 'min', 'max', 'json_agg', 'jsonb_agg', 'array_agg', 'string_agg', 'json_object_agg',
    'jsonb_object_agg', 'bool_and', 'bool_or', 'every',
]); // biome-ignore format: a word list
/** Whether the select list toks[from, to) calls an aggregate outside any subquery (and not as a window). */
function aggregates(toks, from, to) {
    const subquery = [];
    for (let i = from; i < to; i++) {
        const t = toks[i];
        if ((0, tokens_1.isPunct)(t, '('))
            subquery.push((0, tokens_1.isWord)(toks[i + 1], 'SELECT'));
        else if ((0, tokens_1.isPunct)(t, ')'))
            subquery.pop();
        else if (t.type === 'word' &&
            AGGREGATES.has(t.text.toLowerCase()) &&
            (0, tokens_1.isPunct)(toks[i + 1], '(') &&
            !subquery.includes(true) &&
            !(0, tokens_1.isWord)(toks[(0, tokens_1.closer)(toks, i + 1) + 1], 'OVER'))
            return true;
    }
    return false;
}
/**
 * The body toks[from, to) (SELECT ... FROM ...) when a `LIMIT 1` keeps it, or the one subquery it
 * reads from, to one row; null when it may give more (lateral-json.ts takes those).
 */
function oneRowBody(toks, from, to) {
    const limited = (a, b) => {
        const at = (0, tokens_1.topLevelWord)(toks, a, b, 'LIMIT');
        if (at < 0)
            return null;
        const v = toks[at + 1];
        const after = at + 2;
        if (!(after === b || (0, tokens_1.isWord)(toks[after], 'OFFSET')))
            return null;
        return v?.type === 'number' && Number(v.text) <= 1 ? toks.slice(a, b) : null;
    };
    const own = limited(from, to);
    if (own)
        return own;
    const f = (0, tokens_1.topLevelWord)(toks, from, to, 'FROM');
    if (f < 0 || !(0, tokens_1.isPunct)(toks[f + 1], '(') || !(0, tokens_1.isWord)(toks[f + 2], 'SELECT'))
        return null;
    const close = (0, tokens_1.closer)(toks, f + 1);
    let a = close + 1;
    if ((0, tokens_1.isWord)(toks[a], 'AS'))
        a++;
    const rest = a + 1;
    if (!(rest === to || (0, tokens_1.isWord)(toks[rest], 'WHERE')))
        return null;
    const inner = limited(f + 2, close);
    return inner ? [...toks.slice(from, f + 2), ...inner, ...toks.slice(close, to)] : null;
}
/**
 * `LEFT JOIN LATERAL (SELECT e1 AS c1, ... FROM ...) alias ON true`, as Drizzle's relational queries
 * send it, when the subquery gives at most one row: an aggregate with no GROUP BY (a related list,
 * `coalesce(json_agg(...), '[]')`), or a LIMIT of 1 (a related row). Such a join adds no row and
 * drops none, so it goes, and each `alias.ck` becomes the scalar subquery `(SELECT ek FROM ...)`.
 * An aggregate may also be a CROSS JOIN LATERAL or `JOIN LATERAL ... ON true` (exactly one row).
 */
function inlineLateralSubqueries(toks) {
    if (!toks.some((t) => (0, tokens_1.isWord)(t, 'LATERAL')))
        return toks;
    for (let i = 0; i < toks.length; i++) {
        if (!(0, tokens_1.isWord)(toks[i], 'LATERAL') || !(0, tokens_1.isPunct)(toks[i + 1], '(') || !(0, tokens_1.isWord)(toks[i + 2], 'SELECT'))
            continue;
        if (!(0, tokens_1.isWord)(toks[i - 1], 'JOIN'))
            continue;
        const left = (0, tokens_1.isWord)(toks[i - 2], 'LEFT') || ((0, tokens_1.isWord)(toks[i - 2], 'OUTER') && (0, tokens_1.isWord)(toks[i - 3], 'LEFT'));
        const start = i -
            1 -
            ((0, tokens_1.isWord)(toks[i - 2], 'OUTER') ? 2 : ['LEFT', 'CROSS', 'INNER'].some((w) => (0, tokens_1.isWord)(toks[i - 2], w)) ? 1 : 0);
        const close = (0, tokens_1.closer)(toks, i + 1);
        if (close < 0)
            continue;
        let j = close + 1;
        if ((0, tokens_1.isWord)(toks[j], 'AS'))
            j++;
        const alias = toks[j];
        if (!alias || (alias.type !== 'word' && alias.type !== 'quoted'))
            continue;
        let end = j + 1;
        if ((0, tokens_1.isWord)(toks[end], 'ON') && (0, tokens_1.isWord)(toks[end + 1], 'TRUE'))
            end += 2;
        else if (!(0, tokens_1.isWord)(toks[i - 2], 'CROSS'))
            continue;
        const listStart = (0, tokens_1.isWord)(toks[i + 3], 'DISTINCT') ? -1 : i + 3;
        const fromAt = (0, tokens_1.topLevelWord)(toks, i + 3, close, 'FROM');
        if (listStart < 0 || fromAt < 0 || (0, tokens_1.topLevelWord)(toks, fromAt, close, 'GROUP') >= 0)
            continue;
        const aggregate = aggregates(toks, listStart, fromAt);
        const body = aggregate ? toks.slice(fromAt, close) : left ? oneRowBody(toks, fromAt, close) : null;
        if (!body)
            continue;
        const cols = new Map();
        for (const item of items(toks, listStart, fromAt)) {
            const n = item.length;
            const named = n >= 3 && (0, tokens_1.isWord)(item[n - 2], 'AS');
            const last = item[n - 1];
            if (!last || (last.type !== 'word' && last.type !== 'quoted'))
                break;
            cols.set((0, lexer_1.identName)(last), named ? item.slice(0, n - 2) : item);
        }
        if (cols.size !== items(toks, listStart, fromAt).length)
            continue;
        const name = (0, lexer_1.identName)(alias);
        const rest = [...toks.slice(0, start), ...toks.slice(end)];
        const out = [];
        for (let k = 0; k < rest.length; k++) {
            const t = rest[k];
            const expr = (t.type === 'word' || t.type === 'quoted') && (0, lexer_1.identName)(t) === name && (0, tokens_1.isPunct)(rest[k + 1], '.') && rest[k + 2]
                ? cols.get((0, lexer_1.identName)(rest[k + 2]))
                : undefined;
            if (expr && !(0, tokens_1.isPunct)(rest[k - 1], '.')) {
                out.push({ type: 'punct', text: '(' }, { type: 'word', text: 'SELECT' }, ...expr, ...body, {
                    type: 'punct',
                    text: ')',
                });
                k += 2;
            }
            else
                out.push(t);
        }
        return inlineLateralSubqueries(out);
    }
    return toks;
}
/**
 * `CROSS JOIN LATERAL jsonb_array_elements(t.tags) AS e`, `, LATERAL unnest(t.xs) u`: LATERAL before
 * a function call says what SQLite's table-valued functions do anyway (their arguments may read
 * earlier FROM items), so the word goes. LATERAL before a subquery is left to the rewrites above.
 */
function dropLateralOfCalls(toks) {
    if (!toks.some((t) => (0, tokens_1.isWord)(t, 'LATERAL')))
        return toks;
    return toks.filter((t, i) => !((0, tokens_1.isWord)(t, 'LATERAL') && toks[i + 1]?.type === 'word' && (0, tokens_1.isPunct)(toks[i + 2], '(')));
}
//# sourceMappingURL=lateral.js.map