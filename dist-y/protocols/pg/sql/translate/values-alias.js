"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteSubqueryAlias = rewriteSubqueryAlias;
exports.rewriteValuesAlias = rewriteValuesAlias;
// A VALUES list or a subquery in FROM names its columns in its alias, `(VALUES (1, 'a')) AS v(n, s)`,
// `(SELECT id, name FROM t) AS s(k, v)`, which SQLite's grammar lacks. A VALUES list becomes
// `(SELECT column1 AS n, column2 AS s FROM (VALUES ...)) AS v`; a subquery a query over a CTE with
// a column list, `(WITH __pg_cols(k, v) AS (SELECT ...) SELECT * FROM __pg_cols) AS s`, which keeps
// the columns' affinity and may be correlated. Fewer names than columns name the first ones, the
// others keep the names SQLite gives them (DialectContext.selectColumns).
// test/pg/semantics-oracle.test.ts compares both with PostgreSQL 15.
const sqlstate_1 = require("../../sqlstate");
const tokens_1 = require("../tokens");
/** The names of an alias's column list, `v(a, b)` from `alias` at j; null when there is none. */
function aliasNames(toks, j) {
    const alias = toks[j];
    if (!alias || !(alias.type === 'word' || alias.type === 'quoted') || !(0, tokens_1.isPunct)(toks[j + 1], '('))
        return null;
    const end = (0, tokens_1.closer)(toks, j + 1);
    if (end < 0)
        return null;
    const names = [];
    for (let k = j + 2; k < end; k += 2) {
        const n = toks[k];
        if (!(n.type === 'word' || n.type === 'quoted') || !(k + 1 === end || (0, tokens_1.isPunct)(toks[k + 1], ',')))
            return null;
        names.push(n);
    }
    return names.length > 0 ? { names, end } : null;
}
const word = (text) => ({ type: 'word', text });
const punct = (text) => ({ type: 'punct', text });
const quoted = (name) => ({ type: 'quoted', text: `"${name.replaceAll('"', '""')}"` });
/**
 * `(SELECT ...) [AS] s(a, b)` in FROM (or after JOIN, LATERAL or a comma there) as a query over a
 * CTE with that column list. `columns` gives the query's column names as SQLite prepares it (null
 * when it does not prepare alone: then the names must be as many as its columns).
 */
function rewriteSubqueryAlias(toks, columns) {
    if (!toks.some((t, i) => (0, tokens_1.isPunct)(t, '(') && ((0, tokens_1.isWord)(toks[i + 1], 'SELECT') || (0, tokens_1.isWord)(toks[i + 1], 'WITH'))))
        return toks;
    const out = [];
    let inFrom = false;
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i];
        if ((0, tokens_1.isWord)(t, 'FROM') || (0, tokens_1.isWord)(t, 'JOIN'))
            inFrom = true;
        else if ((0, tokens_1.isWord)(t, 'WHERE') || (0, tokens_1.isWord)(t, 'SELECT') || (0, tokens_1.isWord)(t, 'GROUP') || (0, tokens_1.isWord)(t, 'ORDER'))
            inFrom = false;
        const before = toks[i - 1];
        const placed = (0, tokens_1.isWord)(before, 'FROM') || (0, tokens_1.isWord)(before, 'JOIN') || (0, tokens_1.isWord)(before, 'LATERAL') || ((0, tokens_1.isPunct)(before, ',') && inFrom);
        const c = placed && (0, tokens_1.isPunct)(t, '(') && ((0, tokens_1.isWord)(toks[i + 1], 'SELECT') || (0, tokens_1.isWord)(toks[i + 1], 'WITH'))
            ? (0, tokens_1.closer)(toks, i)
            : -1;
        if (c < 0) {
            out.push(t);
            continue;
        }
        const inner = rewriteSubqueryAlias(toks.slice(i + 1, c), columns);
        let j = c + 1;
        if ((0, tokens_1.isWord)(toks[j], 'AS'))
            j++;
        const list = aliasNames(toks, j);
        if (!list) {
            out.push(t, ...inner, toks[c]);
            i = c;
            continue;
        }
        const names = [...list.names];
        const known = columns(inner);
        if (known && known.length < names.length) {
            const alias = toks[j].type === 'quoted' ? toks[j].text.slice(1, -1).replaceAll('""', '"') : toks[j].text;
            throw (0, sqlstate_1.pgError)('42P10', `table "${alias}" has ${known.length} columns available but ${names.length} columns specified`);
        }
        if (known && known.length > names.length)
            for (const n of known.slice(names.length))
                names.push(quoted(n));
        out.push(punct('('), word('WITH'), word('__pg_cols'), punct('('));
        names.forEach((n, k) => out.push(...(k > 0 ? [punct(','), n] : [n])));
        out.push(punct(')'), word('AS'), punct('('), ...inner, punct(')'));
        out.push(word('SELECT'), punct('*'), word('FROM'), word('__pg_cols'), punct(')'), word('AS'), toks[j]);
        i = list.end;
    }
    return out;
}
/** `(VALUES ...) [AS] v(a, b)` as a subquery that names SQLite's column1, column2, ... a, b. */
function rewriteValuesAlias(toks) {
    if (!toks.some((t, i) => (0, tokens_1.isWord)(t, 'VALUES') && (0, tokens_1.isPunct)(toks[i - 1], '(')))
        return toks;
    const out = [];
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i];
        const c = (0, tokens_1.isPunct)(t, '(') && (0, tokens_1.isWord)(toks[i + 1], 'VALUES') ? (0, tokens_1.closer)(toks, i) : -1;
        if (c < 0) {
            out.push(t);
            continue;
        }
        let j = c + 1;
        if ((0, tokens_1.isWord)(toks[j], 'AS'))
            j++;
        const alias = toks[j];
        const names = [];
        const listEnd = alias && (alias.type === 'word' || alias.type === 'quoted') && (0, tokens_1.isPunct)(toks[j + 1], '(')
            ? (0, tokens_1.closer)(toks, j + 1)
            : -1;
        if (listEnd > 0) {
            for (let k = j + 2; k < listEnd; k += 2) {
                const n = toks[k];
                if (!(n.type === 'word' || n.type === 'quoted') || !(k + 1 === listEnd || (0, tokens_1.isPunct)(toks[k + 1], ','))) {
                    names.length = 0;
                    break;
                }
                names.push(n);
            }
        }
        if (names.length === 0) {
            // no column names: the inner tokens go on as they are (nested VALUES lists included)
            out.push(t, ...rewriteValuesAlias(toks.slice(i + 1, c)), toks[c]);
            i = c;
            continue;
        }
        out.push(punct('('), word('SELECT'));
        names.forEach((n, k) => {
            if (k > 0)
                out.push(punct(','));
            out.push(word(`column${k + 1}`), word('AS'), n);
        });
        out.push(word('FROM'), ...toks.slice(i, c + 1), punct(')'), word('AS'), alias);
        i = listEnd;
    }
    return out;
}
//# sourceMappingURL=values-alias.js.map