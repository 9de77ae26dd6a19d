"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteInsertSelect = rewriteInsertSelect;
// INSERT ... SELECT as PostgreSQL runs it: the query's k-th column goes into the k-th column named
// (or of the table), converted as an assignment (numeric(p, s) rounded, varchar(n) and char(n)
// checked; typed-assignments.ts), the columns left out take their defaults, and ON CONFLICT may
// follow. SQLite has no way to name a query's columns by position, so the query becomes a CTE with
// a column list:
//
//   INSERT INTO t (a, b) WITH __pg_src(c1, c2) AS (<query>) SELECT c1, __pg_numeric(c2, 10, 2)
//   FROM __pg_src WHERE true [ON CONFLICT ...] [RETURNING ...]
//
// (`WHERE true` because SQLite would read ON CONFLICT after a FROM as a join's ON.) The query's
// width comes from SQLite itself (DialectContext.selectWidth prepares the translated query).
const tokens_1 = require("../tokens");
const assignment_1 = require("./assignment");
/** Where the query of INSERT ... SELECT ends: ON CONFLICT, RETURNING or `;` outside parentheses. */
function queryEnd(toks, from) {
    let depth = 0;
    for (let k = from; k < toks.length; k++) {
        const t = toks[k];
        if ((0, tokens_1.isPunct)(t, '('))
            depth++;
        else if ((0, tokens_1.isPunct)(t, ')'))
            depth--;
        else if (depth === 0 &&
            (((0, tokens_1.isWord)(t, 'ON') && (0, tokens_1.isWord)(toks[k + 1], 'CONFLICT')) || (0, tokens_1.isWord)(t, 'RETURNING') || (0, tokens_1.isPunct)(t, ';')))
            return k;
    }
    return toks.length;
}
const word = (text) => ({ type: 'word', text });
const punct = (text) => ({ type: 'punct', text });
/** INSERT ... SELECT (or WITH ... / a parenthesised query) rewritten as above; the tokens as they are when nothing needs it. */
function rewriteInsertSelect(toks, target, ctx) {
    const end = queryEnd(toks, target.at);
    let query = toks.slice(target.at, end);
    if ((0, tokens_1.isPunct)(query[0], '(') && (0, tokens_1.closer)(query, 0) === query.length - 1)
        query = query.slice(1, -1);
    // the query with the statement's own WITH clause, which it may read
    const width = ctx.selectWidth?.([...toks.slice(0, target.verb), ...query]) ?? null;
    if (width === null)
        return toks; // it does not prepare: SQLite's error will say why
    (0, assignment_1.checkWidth)(target, width);
    const names = target.names.slice(0, width);
    const wraps = names.map((n) => (0, assignment_1.assignment)(ctx.columnType?.(target.name, n) ?? null));
    const onConflict = (0, tokens_1.isWord)(toks[end], 'ON');
    if (!wraps.some(Boolean) && !onConflict)
        return target.listed || width === target.columns.length
            ? toks
            : [...(0, assignment_1.withColumnList)(toks, target, names), ...toks.slice(target.at)];
    const cols = names.map((_, k) => `c${k + 1}`);
    const out = [...(0, assignment_1.withColumnList)(toks, target, names), word('WITH'), word('__pg_src'), punct('(')];
    cols.forEach((c, k) => out.push(...(k > 0 ? [punct(','), word(c)] : [word(c)])));
    out.push(punct(')'), word('AS'), punct('('), ...query, punct(')'), word('SELECT'));
    cols.forEach((c, k) => {
        if (k > 0)
            out.push(punct(','));
        const wrap = wraps[k];
        out.push(...(wrap ? wrap([word(c)]) : [word(c)]));
    });
    out.push(word('FROM'), word('__pg_src'), word('WHERE'), word('true'));
    return out.concat(toks.slice(end));
}
//# sourceMappingURL=insert-select.js.map