"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.insertTarget = insertTarget;
exports.rewriteInsertDefaults = rewriteInsertDefaults;
// DEFAULT in an INSERT's VALUES, which SQLite does not read: each becomes the column's default
// expression from the schema (NULL when it has none, as in PostgreSQL). ORMs send it for a column
// left out (Drizzle, Kysely).
const tokens_1 = require("../tokens");
function insertTarget(toks, ctx) {
    if (!ctx.columns)
        return null;
    const verb = (0, tokens_1.isWord)(toks[0], 'WITH') ? (0, tokens_1.topLevelWord)(toks, 1, toks.length, 'INSERT') : 0;
    if (verb < 0 || !(0, tokens_1.isWord)(toks[verb], 'INSERT'))
        return null;
    let i = verb + 1;
    while (i < toks.length && !(0, tokens_1.isWord)(toks[i], 'INTO'))
        i++;
    i++;
    if (toks[i + 1] && (0, tokens_1.isPunct)(toks[i + 1], '.'))
        i += 2; // public.t
    const nameTok = toks[i];
    if (!nameTok || (nameTok.type !== 'word' && nameTok.type !== 'quoted'))
        return null;
    const name = (0, tokens_1.identText)(nameTok);
    const columns = ctx.columns(name);
    if (!columns)
        return null;
    i++;
    if ((0, tokens_1.isWord)(toks[i], 'AS'))
        i += 2;
    let names = columns.map((c) => c.name);
    const listed = (0, tokens_1.isPunct)(toks[i], '(') && !(0, tokens_1.isWord)(toks[i + 1], 'SELECT') && !(0, tokens_1.isWord)(toks[i + 1], 'WITH');
    if (listed) {
        const close = (0, tokens_1.closerAfter)(toks, i);
        names = toks
            .slice(i + 1, close)
            .filter((t) => t.type === 'word' || t.type === 'quoted')
            .map(tokens_1.identText);
        i = close + 1;
    }
    return { name, columns, names, listed, verb, at: i };
}
/**
 * `INSERT INTO t (a, b) VALUES (1, DEFAULT)`: SQLite has no DEFAULT in VALUES, so each DEFAULT
 * becomes the column's default expression from the schema (NULL when it has none, as in
 * PostgreSQL). What ORMs send for a column left out (Drizzle, Kysely).
 */
function rewriteInsertDefaults(toks, ctx) {
    if (!toks.some((t) => (0, tokens_1.isWord)(t, 'DEFAULT')))
        return toks;
    const target = insertTarget(toks, ctx);
    if (!target)
        return toks;
    const table = target.columns;
    const names = target.names;
    let i = target.at;
    if (!(0, tokens_1.isWord)(toks[i], 'VALUES'))
        return toks;
    const out = toks.slice(0, i + 1);
    i++;
    while ((0, tokens_1.isPunct)(toks[i], '(')) {
        const close = (0, tokens_1.closerAfter)(toks, i);
        out.push(toks[i]);
        let col = 0;
        let depth = 0;
        for (let k = i + 1; k < close; k++) {
            const t = toks[k];
            if ((0, tokens_1.isPunct)(t, '(') || (0, tokens_1.isPunct)(t, '['))
                depth++;
            else if ((0, tokens_1.isPunct)(t, ')') || (0, tokens_1.isPunct)(t, ']'))
                depth--;
            if (depth === 0 && (0, tokens_1.isPunct)(t, ','))
                col++;
            const alone = (0, tokens_1.isPunct)(toks[k - 1], '(') || (0, tokens_1.isPunct)(toks[k - 1], ',');
            const ends = k + 1 === close || (0, tokens_1.isPunct)(toks[k + 1], ',');
            if (depth === 0 && (0, tokens_1.isWord)(t, 'DEFAULT') && alone && ends) {
                const def = table.find((c) => c.name.toLowerCase() === names[col]?.toLowerCase())?.defaultSql;
                out.push({ type: 'group', text: def ? `(${def})` : 'NULL' });
            }
            else
                out.push(t);
        }
        out.push(toks[close]);
        i = close + 1;
        if (!(0, tokens_1.isPunct)(toks[i], ','))
            break;
        out.push(toks[i]);
        i++;
    }
    return out.concat(toks.slice(i));
}
//# sourceMappingURL=insert-defaults.js.map