"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteTypedAssignments = rewriteTypedAssignments;
// What PostgreSQL does to a value written into a column with a type modifier: numeric(p, s) rounds
// it to s digits (22003 when it needs more than p - s before the point), varchar(n) and char(n)
// refuse one longer than n characters (22001; trailing spaces are cut instead). SQLite keeps any
// value, so the values of INSERT ... VALUES, INSERT ... SELECT (insert-select.ts) and of UPDATE's
// and ON CONFLICT's SET go through __pg_numeric, __pg_varchar and __pg_char
// (src/engine/pg-functions.ts) for such columns. COPY FROM does the same (copy/format.ts).
const tokens_1 = require("../tokens");
const assignment_1 = require("./assignment");
const insert_defaults_1 = require("./insert-defaults");
const insert_select_1 = require("./insert-select");
/** Rewrites toks[from, to) (a SET list) in place of itself: `col = expr` with expr wrapped for typmod columns. */
function setList(toks, from, to, table, ctx) {
    const out = [];
    for (const [a, b] of (0, tokens_1.topLevelItems)(toks, from, to)) {
        if (out.length)
            out.push({ type: 'punct', text: ',' });
        let col = a;
        if ((0, tokens_1.isPunct)(toks[a + 1], '.'))
            col = a + 2; // alias.col
        const wrap = (0, tokens_1.isOp)(toks[col + 1], '=') ? (0, assignment_1.assignment)(ctx.columnType?.(table, (0, tokens_1.identText)(toks[col])) ?? null) : null;
        if (!wrap || col + 2 >= b || (0, tokens_1.isWord)(toks[col + 2], 'DEFAULT'))
            out.push(...toks.slice(a, b));
        else
            out.push(...toks.slice(a, col + 2), ...wrap(toks.slice(col + 2, b)));
    }
    return out;
}
/** toks[set + 1, end) is a SET list: `end` where it stops (FROM, WHERE, RETURNING, `;` outside parentheses). */
function setListEnd(toks, set, ends) {
    let depth = 0;
    for (let k = set + 1; k < toks.length; k++) {
        if ((0, tokens_1.isPunct)(toks[k], '('))
            depth++;
        else if ((0, tokens_1.isPunct)(toks[k], ')'))
            depth--;
        else if (depth === 0 &&
            ((0, tokens_1.isPunct)(toks[k], ';') || (toks[k].type === 'word' && ends.has(toks[k].text.toUpperCase()))))
            return k;
    }
    return toks.length;
}
const UPDATE_SET_ENDS = new Set(['FROM', 'WHERE', 'RETURNING']);
const CONFLICT_SET_ENDS = new Set(['WHERE', 'RETURNING']);
/** INSERT ... VALUES: each value for a typmod column wrapped, a column list added when rows are short. */
function valuesRows(toks, target, ctx) {
    let i = target.at + 1;
    if (!(0, tokens_1.isPunct)(toks[i], '('))
        return toks;
    const first = (0, tokens_1.closer)(toks, i);
    if (first < 0)
        return toks;
    const width = (0, tokens_1.topLevelItems)(toks, i + 1, first).length;
    (0, assignment_1.checkWidth)(target, width);
    const names = target.names.slice(0, width);
    const wraps = names.map((n) => (0, assignment_1.assignment)(ctx.columnType?.(target.name, n) ?? null));
    if (!wraps.some(Boolean) && (target.listed || width === target.columns.length))
        return toks;
    const out = [...(0, assignment_1.withColumnList)(toks, target, names), toks[target.at]];
    while ((0, tokens_1.isPunct)(toks[i], '(')) {
        const close = (0, tokens_1.closer)(toks, i);
        if (close < 0)
            return toks;
        out.push(toks[i]);
        (0, tokens_1.topLevelItems)(toks, i + 1, close).forEach(([a, b], k) => {
            if (k > 0)
                out.push({ type: 'punct', text: ',' });
            const wrap = wraps[k];
            out.push(...(wrap && !(0, tokens_1.isWord)(toks[a], 'DEFAULT') && b > a ? wrap(toks.slice(a, b)) : toks.slice(a, b)));
        });
        out.push(toks[close]);
        i = close + 1;
        if (!(0, tokens_1.isPunct)(toks[i], ','))
            break;
        out.push(toks[i]);
        i++;
    }
    return out.concat(toks.slice(i));
}
function rewriteTypedAssignments(toks, ctx) {
    if (!ctx.columnType || !ctx.columns)
        return toks;
    const update = (0, tokens_1.isWord)(toks[0], 'WITH') ? (0, tokens_1.topLevelWord)(toks, 1, toks.length, 'UPDATE') : 0;
    if (update >= 0 && (0, tokens_1.isWord)(toks[update], 'UPDATE')) {
        let i = update + 1;
        if ((0, tokens_1.isWord)(toks[i], 'ONLY'))
            i++;
        if ((0, tokens_1.isPunct)(toks[i + 1], '.'))
            i += 2;
        const table = toks[i] ? (0, tokens_1.identText)(toks[i]) : '';
        if (!ctx.columns(table))
            return toks;
        const set = toks.findIndex((t, k) => k > i && (0, tokens_1.isWord)(t, 'SET'));
        if (set < 0)
            return toks;
        const end = setListEnd(toks, set, UPDATE_SET_ENDS);
        return [...toks.slice(0, set + 1), ...setList(toks, set + 1, end, table, ctx), ...toks.slice(end)];
    }
    const target = (0, insert_defaults_1.insertTarget)(toks, ctx);
    if (!target)
        return toks;
    const source = toks[target.at];
    let out = toks;
    if ((0, tokens_1.isWord)(source, 'VALUES'))
        out = valuesRows(toks, target, ctx);
    else if ((0, tokens_1.isWord)(source, 'SELECT') || (0, tokens_1.isWord)(source, 'WITH') || (0, tokens_1.isPunct)(source, '('))
        out = (0, insert_select_1.rewriteInsertSelect)(toks, target, ctx);
    // ON CONFLICT ... DO UPDATE SET ...
    const doAt = out.findIndex((t, k) => (0, tokens_1.isWord)(t, 'DO') && (0, tokens_1.isWord)(out[k + 1], 'UPDATE') && (0, tokens_1.isWord)(out[k + 2], 'SET'));
    if (doAt < 0)
        return out;
    const set = doAt + 2;
    const end = setListEnd(out, set, CONFLICT_SET_ENDS);
    return [...out.slice(0, set + 1), ...setList(out, set + 1, end, target.name, ctx), ...out.slice(end)];
}
//# sourceMappingURL=typed-assignments.js.map