"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteOneRow = rewriteOneRow;
// A scalar subquery that may give more than one row: one an aggregate of the outer query's columns
// makes many rows, one per row of its FROM (`SELECT (SELECT sum(t.v) FROM u) FROM t`: sum(t.v) is
// the outer query's aggregate, as PostgreSQL and SQLite both read it; sql/grouping.ts), or one
// nothing holds to one row (`(SELECT x FROM u)`; sql/scalar-subqueries.ts). PostgreSQL refuses more
// than one row there with 21000; SQLite takes the first. The subquery (its '(' marked 'one-row')
// becomes `(SELECT CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM ... LIMIT 2)) > 1 THEN
// __pg_raise('21000', ...) ELSE x END FROM ...)`: its FROM and WHERE run again, for two rows at most.
const lexer_1 = require("../lexer");
const tokens_1 = require("../tokens");
const word = (text) => ({ type: 'word', text });
const punct = (text) => ({ type: 'punct', text });
function rewriteOneRow(toks) {
    if (!toks.some((t) => 'arith' in t && t.arith === 'one-row'))
        return toks;
    const out = toks.slice();
    for (let i = out.length - 1; i >= 0; i--) {
        const t = out[i];
        if (!('arith' in t && t.arith === 'one-row') || !(0, tokens_1.isPunct)(t, '(') || !(0, tokens_1.isWord)(out[i + 1], 'SELECT'))
            continue;
        const close = (0, tokens_1.closer)(out, i);
        const from = close < 0 ? -1 : (0, tokens_1.topLevelWord)(out, i + 2, close, 'FROM');
        if (from < 0)
            continue;
        let item = out.slice(i + 2, from);
        let alias = [];
        const n = item.length;
        if (n > 2 && (0, tokens_1.isWord)(item[n - 2], 'AS'))
            [item, alias] = [item.slice(0, n - 2), item.slice(n - 2)];
        else if (n > 1 && (item[n - 1].type === 'word' || item[n - 1].type === 'quoted') && (0, tokens_1.isPunct)(item[n - 2], ')'))
            [item, alias] = [item.slice(0, n - 1), item.slice(n - 1)];
        const order = (0, tokens_1.topLevelWord)(out, from, close, 'ORDER');
        const rows = out.slice(from, order < 0 ? close : order);
        const guarded = [
            punct('('),
            word('SELECT'),
            word('CASE'),
            word('WHEN'),
            punct('('),
            word('SELECT'),
            word('count'),
            punct('('),
            { type: 'op', text: '*' },
            punct(')'),
            word('FROM'),
            punct('('),
            word('SELECT'),
            { type: 'number', text: '1' },
            ...rows,
            word('LIMIT'),
            { type: 'number', text: '2' },
            punct(')'),
            punct(')'),
            { type: 'op', text: '>' },
            { type: 'number', text: '1' },
            word('THEN'),
            word('__pg_raise'),
            punct('('),
            { type: 'string', text: (0, lexer_1.quoteString)('21000') },
            punct(','),
            { type: 'string', text: (0, lexer_1.quoteString)('more than one row returned by a subquery used as an expression') },
            punct(')'),
            word('ELSE'),
            punct('('),
            ...item,
            punct(')'),
            word('END'),
            ...alias,
            ...out.slice(from, close + 1),
        ];
        out.splice(i, close + 1 - i, ...guarded);
    }
    return out;
}
//# sourceMappingURL=one-row.js.map