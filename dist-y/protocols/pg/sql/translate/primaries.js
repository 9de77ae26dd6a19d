"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.nameTok = exports.OPERAND_ENDS = void 0;
exports.bracketAfter = bracketAfter;
exports.primaryStart = primaryStart;
exports.primaryEnd = primaryEnd;
// Primary expressions on tokens, for the passes that must find an operand exactly (LIKE's pattern,
// jsonb's operators): a literal, parameter, group, (qualified) name or call, a parenthesised group,
// ARRAY[...], each with its subscripts and `::type` casts.
const tokens_1 = require("../tokens");
/** Words that end an operand (a pattern, an ORDER BY term) rather than name a column. */
exports.OPERAND_ENDS = new Set([
    'AND', 'OR', 'NOT', 'IS', 'IN', 'BETWEEN', 'LIKE', 'ILIKE', 'GLOB', 'ESCAPE', 'SIMILAR', 'THEN', 'WHEN',
    'ELSE', 'END', 'FROM', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION',
    'EXCEPT', 'INTERSECT', 'RETURNING', 'ON', 'USING', 'ASC', 'DESC', 'NULLS', 'AS', 'COLLATE', 'WINDOW',
    'ROWS', 'RANGE', 'GROUPS', 'SELECT', 'SET', 'VALUES', 'DO', 'ANY', 'ALL', 'SOME', 'JOIN', 'LEFT',
    'RIGHT', 'INNER', 'OUTER', 'CROSS', 'FULL', 'NATURAL',
]); // biome-ignore format: a word list
/** Index of the opener matching the closer at ts[j] (')' or ']'), scanning back; -1 when none. */
function openerBefore(ts, j) {
    const close = ts[j].text;
    const open = close === ')' ? '(' : '[';
    let depth = 0;
    for (let k = j; k >= 0; k--) {
        if ((0, tokens_1.isPunct)(ts[k], close))
            depth++;
        else if ((0, tokens_1.isPunct)(ts[k], open) && --depth === 0)
            return k;
    }
    return -1;
}
/** Index of the ']' matching the '[' at ts[i]; -1 when none. */
function bracketAfter(ts, i) {
    let depth = 0;
    for (let k = i; k < ts.length; k++) {
        if ((0, tokens_1.isPunct)(ts[k], '['))
            depth++;
        else if ((0, tokens_1.isPunct)(ts[k], ']') && --depth === 0)
            return k;
    }
    return -1;
}
const nameTok = (t) => t !== undefined && (t.type === 'quoted' || (t.type === 'word' && !exports.OPERAND_ENDS.has(t.text.toUpperCase())));
exports.nameTok = nameTok;
/** Start of the primary expression (with casts and subscripts) that ends at ts[end - 1]; -1 when none. */
function primaryStart(ts, end) {
    let j = end - 1;
    for (;;) {
        // a cast's type at the end: ::name, ::name(n), ::name[]
        let k = j;
        while ((0, tokens_1.isPunct)(ts[k], ']') && (0, tokens_1.isPunct)(ts[k - 1], '['))
            k -= 2;
        if ((0, tokens_1.isPunct)(ts[k], ')')) {
            const o = openerBefore(ts, k);
            if (o > 1 && (0, exports.nameTok)(ts[o - 1]) && (0, tokens_1.isOp)(ts[o - 2], '::'))
                k = o - 1;
        }
        if ((0, exports.nameTok)(ts[k]) && (0, tokens_1.isOp)(ts[k - 1], '::')) {
            j = k - 2;
            continue;
        }
        break;
    }
    const t = ts[j];
    if (t === undefined)
        return -1;
    if ((0, tokens_1.isPunct)(t, ']')) {
        const o = openerBefore(ts, j);
        if (o < 0)
            return -1;
        if ((0, tokens_1.isWord)(ts[o - 1], 'ARRAY'))
            return o - 1;
        return primaryStart(ts, o); // a subscript of what comes before
    }
    if ((0, tokens_1.isPunct)(t, ')')) {
        let s = openerBefore(ts, j);
        if (s < 0)
            return -1;
        if ((0, exports.nameTok)(ts[s - 1])) {
            s--; // a function call
            while ((0, tokens_1.isPunct)(ts[s - 1], '.') && (0, exports.nameTok)(ts[s - 2]))
                s -= 2;
        }
        return s;
    }
    if (t.type === 'string' || t.type === 'number' || t.type === 'param' || t.type === 'group')
        return j;
    if ((0, exports.nameTok)(t)) {
        let s = j;
        while ((0, tokens_1.isPunct)(ts[s - 1], '.') && (0, exports.nameTok)(ts[s - 2]))
            s -= 2;
        return s;
    }
    return -1;
}
/** End (exclusive) of the primary expression starting at ts[i], with subscripts and casts; i when none. */
function primaryEnd(ts, i) {
    let j = i;
    if ((0, tokens_1.isOp)(ts[j], '-') || (0, tokens_1.isOp)(ts[j], '+'))
        j++;
    const t = ts[j];
    if (t === undefined)
        return i;
    if ((0, tokens_1.isPunct)(t, '('))
        j = (0, tokens_1.closer)(ts, j) + 1;
    else if ((0, tokens_1.isWord)(t, 'ARRAY') && (0, tokens_1.isPunct)(ts[j + 1], '['))
        j = bracketAfter(ts, j + 1) + 1;
    else if (t.type === 'string' || t.type === 'number' || t.type === 'param' || t.type === 'group')
        j++;
    else if ((0, exports.nameTok)(t)) {
        j++;
        while ((0, tokens_1.isPunct)(ts[j], '.') && (0, exports.nameTok)(ts[j + 1]))
            j += 2;
        if ((0, tokens_1.isPunct)(ts[j], '('))
            j = (0, tokens_1.closer)(ts, j) + 1;
    }
    else
        return i;
    if (j <= 0)
        return i; // an unclosed bracket
    for (;;) {
        if ((0, tokens_1.isPunct)(ts[j], '[')) {
            const c = bracketAfter(ts, j);
            if (c < 0)
                return i;
            j = c + 1;
        }
        else if ((0, tokens_1.isOp)(ts[j], '::') && (0, exports.nameTok)(ts[j + 1])) {
            j += 2;
            if ((0, tokens_1.isPunct)(ts[j], '(')) {
                const c = (0, tokens_1.closer)(ts, j);
                if (c < 0)
                    return i;
                j = c + 1;
            }
            while ((0, tokens_1.isPunct)(ts[j], '[') && (0, tokens_1.isPunct)(ts[j + 1], ']'))
                j += 2;
        }
        else
            return j;
    }
}
//# sourceMappingURL=primaries.js.map