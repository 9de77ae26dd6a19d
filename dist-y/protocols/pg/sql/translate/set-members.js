"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteSetMembers = rewriteSetMembers;
// `TABLE t` (PostgreSQL's short form of SELECT * FROM t) and queries in parentheses that are a whole
// statement or a member of a set operation (`(SELECT ... LIMIT 1) UNION ALL (SELECT ... LIMIT 1)`,
// what SQLAlchemy writes for a union of limited selects): SQLite reads neither (a syntax error near
// "(" or "table"), so they become SELECT * FROM t and SELECT * FROM (query), the same rows under the
// same column names. test/pg/semantics-oracle.test.ts runs them on PostgreSQL too.
const tokens_1 = require("../tokens");
const SET_OPS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);
const QUERY_STARTS = new Set(['SELECT', 'VALUES', 'WITH', 'TABLE']);
const isSetOp = (t) => t?.type === 'word' && SET_OPS.has(t.text.toUpperCase());
/** Whether toks[i] stands where a query begins: the statement's start, after `(`, or after a set operator. */
function memberPosition(toks, i) {
    const prev = toks[i - 1];
    if (i === 0 || (0, tokens_1.isPunct)(prev, '(') || isSetOp(prev))
        return true;
    return ((0, tokens_1.isWord)(prev, 'ALL') || (0, tokens_1.isWord)(prev, 'DISTINCT')) && isSetOp(toks[i - 2]);
}
/** Whether the '(' at toks[i] opens a query (SELECT, VALUES, WITH, TABLE or another parenthesis of one). */
function opensQuery(toks, i) {
    let k = i + 1;
    while ((0, tokens_1.isPunct)(toks[k], '('))
        k++;
    const t = toks[k];
    return t?.type === 'word' && QUERY_STARTS.has(t.text.toUpperCase());
}
function rewriteSetMembers(toks) {
    if (!((0, tokens_1.isPunct)(toks[0], '(') || toks.some((t) => (0, tokens_1.isWord)(t, 'TABLE')) || toks.some(isSetOp)))
        return toks;
    const out = [];
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i];
        // (also after a WITH clause's last query: `WITH v AS (...) TABLE v`)
        const afterWith = (0, tokens_1.isPunct)(toks[i - 1], ')') && (0, tokens_1.isWord)(toks[0], 'WITH');
        const named = toks[i + 1]?.type === 'word' || toks[i + 1]?.type === 'quoted';
        if ((0, tokens_1.isWord)(t, 'TABLE') && (memberPosition(toks, i) || afterWith) && named) {
            out.push({ type: 'word', text: 'SELECT' }, { type: 'op', text: '*' }, { type: 'word', text: 'FROM' });
            continue;
        }
        if ((0, tokens_1.isPunct)(t, '(') && opensQuery(toks, i)) {
            const end = (0, tokens_1.closer)(toks, i);
            const next = toks[end + 1];
            // the statement, a right-hand member, or a left-hand one inside parentheses (not `IN (SELECT ...) UNION ...`,
            // where the UNION is the outer query's)
            const left = (0, tokens_1.isPunct)(toks[i - 1], '(') && isSetOp(next);
            if (end > 0 && memberPosition(toks, i) && (i === 0 || !(0, tokens_1.isPunct)(toks[i - 1], '(') || left))
                out.push({ type: 'word', text: 'SELECT' }, { type: 'op', text: '*' }, { type: 'word', text: 'FROM' });
        }
        out.push(t);
    }
    return out;
}
//# sourceMappingURL=set-members.js.map