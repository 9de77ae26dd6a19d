"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.quotedName = exports.exactSortKey = void 0;
exports.rewriteExactAliases = rewriteExactAliases;
// ORDER BY of a result column computed exactly (sql/exact-columns.ts: a numeric division, avg,
// stddev or variance, handed to SQLite as text so that no double cuts its digits): by its number,
// not its text ('10.5' after '9.25'), NaN above every number as in PostgreSQL. An item sorted by
// position gets PostgreSQL's name for it as its alias ('num-alias:name'), so the ORDER BY can name it.
const tokens_1 = require("../tokens");
/** What an exact column named `ref` (SQL text) sorts by: its double, or the text NaN, which SQLite sorts above numbers. */
const exactSortKey = (ref) => `(CASE WHEN ${ref} = 'NaN' THEN 'NaN' ELSE CAST(${ref} AS REAL) END)`;
exports.exactSortKey = exactSortKey;
/** A name as a quoted SQLite identifier. */
const quotedName = (name) => `"${name.replace(/"/g, '""')}"`;
exports.quotedName = quotedName;
/** Words that end a select list item at its own depth. */
const ITEM_ENDS = new Set([
    'FROM', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET', 'WINDOW', 'UNION', 'INTERSECT', 'EXCEPT', 'FETCH',
    'FOR', 'INTO',
]); // biome-ignore format: a word list
/** Each select item marked 'num-alias:name' (its first token) with `AS "name"` after it. */
function rewriteExactAliases(toks) {
    if (!toks.some((t) => 'sortKey' in t && t.sortKey?.startsWith('num-alias:')))
        return toks;
    const out = toks.slice();
    for (let i = out.length - 1; i >= 0; i--) {
        const t = out[i];
        if (!('sortKey' in t) || !t.sortKey?.startsWith('num-alias:'))
            continue;
        let depth = 0;
        let end = i;
        for (; end < out.length; end++) {
            const x = out[end];
            if ((0, tokens_1.isPunct)(x, '('))
                depth++;
            else if ((0, tokens_1.isPunct)(x, ')') && --depth < 0)
                break;
            else if (depth === 0 && ((0, tokens_1.isPunct)(x, ',') || (0, tokens_1.isPunct)(x, ';')))
                break;
            else if (depth === 0 && x.type === 'word' && ITEM_ENDS.has(x.text.toUpperCase()))
                break;
        }
        out.splice(end, 0, { type: 'word', text: 'AS' }, { type: 'quoted', text: (0, exports.quotedName)(t.sortKey.slice(10)) });
    }
    return out;
}
//# sourceMappingURL=exact-order.js.map