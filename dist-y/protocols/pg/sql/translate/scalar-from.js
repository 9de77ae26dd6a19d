"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteScalarFrom = rewriteScalarFrom;
// A function of one value in FROM, which PostgreSQL reads as a one-row table (TypeORM connects with
// `SELECT * FROM current_schema()`; `FROM now() AS t(at)`): SQLite knows only tables and
// table-valued functions there ("no such table"), so the call becomes a one-row subquery whose
// column the alias names (its column list, else the alias, else the function):
//   FROM current_schema()   ->   FROM (SELECT current_schema() AS "current_schema") AS "current_schema"
const type_signatures_1 = require("../type-signatures");
const tokens_1 = require("../tokens");
const quoted = (name) => ({ type: 'quoted', text: `"${name.replace(/"/g, '""')}"` });
function rewriteScalarFrom(toks) {
    if (!toks.some((t, i) => t.type === 'word' && type_signatures_1.SCALAR_IN_FROM.has(t.text.toLowerCase()) && (0, tokens_1.isPunct)(toks[i + 1], '(')))
        return toks;
    const out = [];
    const itemStarts = (0, tokens_1.fromItemStarts)();
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i];
        // the item's start: after FROM, JOIN, or a comma of a FROM list (pg_catalog.f too)
        const starts = itemStarts(toks, i);
        let at = i;
        if ((0, tokens_1.isWord)(t, 'PG_CATALOG') && (0, tokens_1.isPunct)(toks[i + 1], '.'))
            at = i + 2;
        const f = toks[at];
        if (!starts ||
            f?.type !== 'word' ||
            !type_signatures_1.SCALAR_IN_FROM.has(f.text.toLowerCase()) ||
            !(0, tokens_1.isPunct)(toks[at + 1], '(') ||
            inCallSyntax(toks, i)) {
            out.push(t);
            continue;
        }
        const close = (0, tokens_1.closer)(toks, at + 1);
        if (close < 0) {
            out.push(t);
            continue;
        }
        // [AS] alias [(column)]
        let j = close + 1;
        if ((0, tokens_1.isWord)(toks[j], 'AS'))
            j++;
        let alias = f.text.toLowerCase();
        let column = null;
        const a = toks[j];
        if ((a?.type === 'word' && !tokens_1.NOT_FROM_ALIAS.has(a.text.toUpperCase())) || a?.type === 'quoted') {
            alias = (0, tokens_1.identText)(a);
            j++;
            if ((0, tokens_1.isPunct)(toks[j], '(')) {
                const end = (0, tokens_1.closer)(toks, j);
                if (end > j + 1)
                    column = (0, tokens_1.identText)(toks[j + 1]);
                j = end + 1;
            }
        }
        else
            j = close + 1;
        out.push({ type: 'punct', text: '(' }, { type: 'word', text: 'SELECT' }, ...toks.slice(at, close + 1), { type: 'word', text: 'AS' }, quoted(column ?? alias), { type: 'punct', text: ')' }, { type: 'word', text: 'AS' }, quoted(alias));
        i = j - 1;
    }
    return out;
}
/** The calls whose arguments SQL writes with FROM: `extract(epoch FROM now())` is no FROM list. */
const FROM_CALLS = new Set(['EXTRACT', 'SUBSTRING', 'TRIM', 'OVERLAY', 'POSITION']);
/** Whether toks[i] stands inside such a call's parentheses (the '(' it is in follows its name). */
function inCallSyntax(toks, i) {
    let depth = 0;
    for (let k = i - 1; k >= 0; k--) {
        if ((0, tokens_1.isPunct)(toks[k], ')'))
            depth++;
        else if ((0, tokens_1.isPunct)(toks[k], '(') && depth-- === 0)
            return toks[k - 1]?.type === 'word' && FROM_CALLS.has(toks[k - 1].text.toUpperCase());
    }
    return false;
}
//# sourceMappingURL=scalar-from.js.map