"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteLateralJson = rewriteLateralJson;
// LATERAL subqueries of any number of rows (top-N per group, `CROSS JOIN LATERAL (SELECT ... WHERE
// b.a_id = a.id ORDER BY ... LIMIT 3) x`, PostgREST's and Hasura's embeddings), which SQLite has no
// syntax for: a subquery in FROM cannot read the FROM items before it, but a table-valued function's
// argument can. So the subquery's rows become a JSON array built by a correlated scalar subquery, and
// the join reads it through json_each:
//   a CROSS JOIN LATERAL (SELECT title, price FROM books b WHERE b.author_id = a.id LIMIT 2) AS x
// becomes
//   a CROSS JOIN json_each((SELECT json_group_array(json_array("title", "price"))
//                           FROM (SELECT title, price FROM books b WHERE ... LIMIT 2) AS __lj)) AS x
// and `x.title` becomes `json_extract(x.value, '$[0]')` (a bare `title` too, unless a table the
// statement names has such a column). LEFT JOIN LATERAL ... ON ... keeps its ON (no row: NULLs), a
// comma or CROSS JOIN drops an outer row the subquery gives nothing for, as in PostgreSQL. Values go
// through JSON: numbers, text and NULL as they were (a blob cannot: SQLite refuses it). The
// one-row forms that need no JSON are rewritten before (lateral.ts). `x.*` in a select list and
// `SELECT *` spread the subquery's columns by name (among the other FROM items' `a.*`); a subquery
// that selects `*` itself, or `x.*` inside an expression, stays refused (0A000): its columns are not
// listed here.
const lexer_1 = require("../lexer");
const tokens_1 = require("../tokens");
const select_items_1 = require("./select-items");
/** The output names of a select list toks[from, to) as PostgreSQL names them; null when one is `*`. */
function outputNames(toks, from, to) {
    const names = [];
    const aliased = [];
    for (const [a, b] of (0, tokens_1.topLevelItems)(toks, from, to)) {
        const last = toks[b - 1];
        if (isStar(last))
            return null;
        if (b - a >= 3 && (0, tokens_1.isWord)(toks[b - 2], 'AS') && (last.type === 'word' || last.type === 'quoted')) {
            names.push((0, lexer_1.identName)(last));
            aliased.push(true);
            continue;
        }
        aliased.push(false);
        // a column (t.c or c), a call (its function's name), else ?column?
        if ((last.type === 'word' || last.type === 'quoted') && (b - a === 1 || (0, tokens_1.isPunct)(toks[b - 2], '.')))
            names.push((0, lexer_1.identName)(last));
        else if (toks[a].type === 'word' && (0, tokens_1.isPunct)(toks[a + 1], '('))
            names.push(toks[a].text.toLowerCase());
        else
            names.push('?column?');
    }
    return { names, aliased };
}
const isStar = (t) => t !== undefined && t.text === '*' && (t.type === 'op' || t.type === 'punct');
const q = (name) => `"${name.replace(/"/g, '""')}"`;
/**
 * The names of a query's FROM items in order (an alias, else the table's name), from its top-level
 * FROM at `from`; null when an item is not of a form read here.
 */
function fromItems(toks, from) {
    const names = [];
    let i = from + 1;
    for (;;) {
        // one item: name [. name], (subquery), or name(args); then [AS] alias [(columns)]
        let last;
        if ((0, tokens_1.isPunct)(toks[i], '(')) {
            i = (0, tokens_1.closer)(toks, i) + 1;
            if (i === 0)
                return null;
        }
        else if (toks[i]?.type === 'word' || toks[i]?.type === 'quoted') {
            last = toks[i++];
            while ((0, tokens_1.isPunct)(toks[i], '.') && (toks[i + 1]?.type === 'word' || toks[i + 1]?.type === 'quoted')) {
                last = toks[i + 1];
                i += 2;
            }
            if ((0, tokens_1.isPunct)(toks[i], '(')) {
                i = (0, tokens_1.closer)(toks, i) + 1;
                if (i === 0)
                    return null;
            }
        }
        else
            return null;
        if ((0, tokens_1.isWord)(toks[i], 'AS'))
            i++;
        const a = toks[i];
        const upper = a?.type === 'word' ? a.text.toUpperCase() : '';
        if ((a?.type === 'word' && !tokens_1.NOT_FROM_ALIAS.has(upper)) || a?.type === 'quoted') {
            last = a;
            i++;
            if ((0, tokens_1.isPunct)(toks[i], '('))
                i = (0, tokens_1.closer)(toks, i) + 1;
        }
        if (!last)
            return null;
        names.push((0, tokens_1.identText)(last));
        // ON ... / USING (...) up to the next item
        let depth = 0;
        for (; i < toks.length; i++) {
            const t = toks[i];
            if ((0, tokens_1.isPunct)(t, '('))
                depth++;
            else if ((0, tokens_1.isPunct)(t, ')')) {
                if (depth-- === 0)
                    return names;
            }
            else if (depth === 0 && ((0, tokens_1.isPunct)(t, ',') || (0, tokens_1.isPunct)(t, ';')))
                break;
            else if (depth === 0 && t.type === 'word' && (tokens_1.FROM_ENDS.has(t.text.toUpperCase()) || (0, tokens_1.isWord)(t, 'JOIN')))
                break;
        }
        if (i >= toks.length || (0, tokens_1.isPunct)(toks[i], ';'))
            return names;
        if (toks[i].type === 'word' && tokens_1.FROM_ENDS.has(toks[i].text.toUpperCase()))
            return names;
        i++; // past the comma or JOIN
    }
}
const word = (text) => ({ type: 'word', text });
const punct = (text) => ({ type: 'punct', text });
function rewriteLateralJson(toks, hasColumn) {
    if (!toks.some((t, i) => (0, tokens_1.isWord)(t, 'LATERAL') && (0, tokens_1.isPunct)(toks[i + 1], '(')))
        return toks;
    for (let i = 0; i < toks.length; i++) {
        if (!(0, tokens_1.isWord)(toks[i], 'LATERAL') || !(0, tokens_1.isPunct)(toks[i + 1], '(') || !(0, tokens_1.isWord)(toks[i + 2], 'SELECT'))
            continue;
        if (!((0, tokens_1.isWord)(toks[i - 1], 'JOIN') || (0, tokens_1.isPunct)(toks[i - 1], ',')))
            continue;
        const close = (0, tokens_1.closer)(toks, i + 1);
        if (close < 0)
            continue;
        // the subquery's select list (of its first SELECT, before any UNION)
        let depth = 0;
        let listEnd = close;
        for (let k = i + 3; k < close; k++) {
            if ((0, tokens_1.isPunct)(toks[k], '('))
                depth++;
            else if ((0, tokens_1.isPunct)(toks[k], ')'))
                depth--;
            else if (depth === 0 &&
                toks[k].type === 'word' &&
                ['FROM', 'WHERE', 'GROUP', 'ORDER', 'LIMIT', 'UNION', 'HAVING', 'WINDOW'].includes(toks[k].text.toUpperCase())) {
                listEnd = k;
                break;
            }
        }
        const listStart = (0, tokens_1.isWord)(toks[i + 3], 'DISTINCT') ? i + 4 : i + 3;
        const out = outputNames(toks, listStart, listEnd);
        let j = close + 1;
        if ((0, tokens_1.isWord)(toks[j], 'AS'))
            j++;
        const alias = toks[j];
        if (!out ||
            !alias ||
            (alias.type !== 'word' && alias.type !== 'quoted') ||
            tokens_1.NOT_FROM_ALIAS.has(alias.text.toUpperCase()))
            continue;
        let end = j + 1;
        let names = out.names;
        if ((0, tokens_1.isPunct)(toks[end], '(')) {
            const c = (0, tokens_1.closer)(toks, end);
            const given = (0, tokens_1.topLevelItems)(toks, end + 1, c).map(([a]) => (0, lexer_1.identName)(toks[a]));
            names = names.map((n, k) => given[k] ?? n);
            end = c + 1;
        }
        // the subquery with a name for each unnamed column, read by name into a JSON array per row
        const inner = [];
        const items = (0, tokens_1.topLevelItems)(toks, listStart, listEnd);
        inner.push(...toks.slice(i + 2, listStart));
        items.forEach(([a, b], k) => {
            if (k > 0)
                inner.push({ type: 'punct', text: ',' });
            inner.push(...toks.slice(a, b));
            if (!out.aliased[k])
                inner.push({ type: 'word', text: 'AS' }, { type: 'quoted', text: q(`__lj${k}`) });
        });
        inner.push(...toks.slice(listEnd, close));
        const cols = [];
        items.forEach((_, k) => {
            if (k > 0)
                cols.push(punct(','));
            cols.push({ type: 'quoted', text: out.aliased[k] ? q(out.names[k]) : q(`__lj${k}`) });
        });
        const name = (0, tokens_1.identText)(alias);
        const replaced = [
            { type: 'quoted', text: '"json_each"' }, // SQLite's own (words.ts renames the bare name to PostgreSQL's)
            punct('('),
            punct('('),
            word('SELECT'),
            word('json_group_array'),
            punct('('),
            word('json_array'),
            punct('('),
            ...cols,
            punct(')'),
            punct(')'),
            word('FROM'),
            punct('('),
            ...inner,
            punct(')'),
            word('AS'),
            word('__lj'),
            punct(')'),
            punct(')'),
            word('AS'),
            { type: 'quoted', text: q(name) },
        ];
        const rest = [...toks.slice(0, i), ...replaced, ...toks.slice(end)];
        const from = i;
        const to = i + replaced.length;
        // the references to its columns, outside the subquery itself
        const named = new Set(rest.filter((t) => t.type === 'word' || t.type === 'quoted').map(tokens_1.identText));
        const isColumn = (column) => [...named].some((table) => hasColumn(table, column));
        const result = [];
        const extract = (k) => [
            word('json_extract'),
            punct('('),
            { type: 'quoted', text: q(name) },
            punct('.'),
            word('value'),
            punct(','),
            { type: 'string', text: `'$[${k}]'` },
            punct(')'),
        ];
        const allColumns = () => names.flatMap((n, k) => [
            ...(k > 0 ? [punct(',')] : []),
            ...extract(k),
            word('AS'),
            { type: 'quoted', text: q(n) },
        ]);
        const selectItems = new select_items_1.SelectItems();
        for (let k = 0; k < rest.length; k++) {
            const t = rest[k];
            selectItems.step(rest, k);
            if (k >= from && k < to) {
                result.push(t);
                continue;
            }
            const isName = t.type === 'word' || t.type === 'quoted';
            if (isName && (0, tokens_1.identText)(t) === name && (0, tokens_1.isPunct)(rest[k + 1], '.') && !(0, tokens_1.isPunct)(rest[k - 1], '.')) {
                const col = rest[k + 2];
                if (isStar(col)) {
                    // x.*: each of its columns, by name
                    if (!selectItems.inList())
                        return toks; // (count(x.*) and the like: refused as before)
                    result.push(...allColumns());
                    k += 2;
                    continue;
                }
                const at = col && (col.type === 'word' || col.type === 'quoted') ? names.indexOf((0, tokens_1.identText)(col)) : -1;
                if (at >= 0) {
                    result.push(...extract(at), ...selectItems.keepName(rest, k, 3, names[at]));
                    k += 2;
                    continue;
                }
            }
            const at = isName &&
                !(0, tokens_1.isPunct)(rest[k - 1], '.') &&
                !(0, tokens_1.isPunct)(rest[k + 1], '.') &&
                !(0, tokens_1.isPunct)(rest[k + 1], '(') &&
                !(0, tokens_1.isWord)(rest[k - 1], 'AS')
                ? names.indexOf((0, tokens_1.identText)(t))
                : -1;
            if (at >= 0 && !isColumn((0, tokens_1.identText)(t))) {
                result.push(...extract(at), ...selectItems.keepName(rest, k, 1, names[at]));
                continue;
            }
            result.push(t);
        }
        // SELECT *: each FROM item's columns in order, the subquery's by name (refused when an item's
        // name is not found)
        const top = (0, tokens_1.topLevelWord)(result, 0, result.length, 'FROM');
        const star = top > 0
            ? result.findIndex((t, k) => k < top &&
                isStar(t) &&
                ['SELECT', 'DISTINCT', 'ALL'].some((w) => (0, tokens_1.isWord)(result[k - 1], w) || (0, tokens_1.isPunct)(result[k - 1], ',')))
            : -1;
        if (star >= 0) {
            const items = fromItems(result, top);
            if (!items)
                return toks;
            const spread = items.flatMap((a, k) => [
                ...(k > 0 ? [punct(',')] : []),
                ...(a === name ? allColumns() : [{ type: 'quoted', text: q(a) }, punct('.'), punct('*')]),
            ]);
            result.splice(star, 1, ...spread);
        }
        return rewriteLateralJson(result, hasColumn);
    }
    return toks;
}
//# sourceMappingURL=lateral-json.js.map