"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteCatalogForms = rewriteCatalogForms;
// What catalog queries ask that the agent's catalog tables answer another way, on the tokens of a
// statement for the catalog connection (translate.ts's last passes; groups read back into tokens):
//  - pgjdbc's getPrimaryKeys and getIndexInfo select `information_schema._pg_expandarray(i.indkey)`,
//    a set-returning call in a select list (one row per element), and read its fields as
//    `(information_schema._pg_expandarray(i.indkey)).n` or, through an alias `AS "keys"`, as
//    `(i.keys).x`. The call becomes a join with __pg_elems (value, 0-based key) at the end of its
//    SELECT's FROM clause; `AS "keys"` becomes the two columns "keys.x" and "keys.n".
//  - `c.tableoid` (pg_dump keys every object by it) is a system column, no column of the catalog
//    tables: it becomes the OID of the catalog table the alias names; a bare `tableoid` that of the
//    first catalog table of its own SELECT.
//  - `proc.oid = typ.typreceive` (Npgsql's type loading query, what .NET clients and Power BI run
//    when they connect): pg_type's function columns hold the function's name here (a regproc prints
//    as one), so the join compares pg_proc's name. Both orders.
const relation_oids_1 = require("../../catalog/relation-oids");
const tokens_1 = require("../tokens");
const PROC_COLUMNS = new Set(['TYPINPUT', 'TYPOUTPUT', 'TYPRECEIVE', 'TYPSEND']);
/** Words that end a FROM clause: the join goes before the first. */
const FROM_CLAUSE_ENDS = new Set(['WHERE', 'GROUP', 'ORDER', 'LIMIT', 'HAVING', 'UNION', 'WINDOW', 'OFFSET']);
const SET_OPERATIONS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);
const word = (text) => ({ type: 'word', text });
const punct = (text) => ({ type: 'punct', text });
const isName = (t) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
const wanted = (t) => t.type === 'word' &&
    ((0, tokens_1.isWord)(t, '_PG_EXPANDARRAY') || (0, tokens_1.isWord)(t, 'TABLEOID') || PROC_COLUMNS.has(t.text.toUpperCase()));
function rewriteCatalogForms(input) {
    if (!input.some((t) => t.type === 'group' || wanted(t)))
        return input;
    const toks = (0, tokens_1.ungroup)(input);
    if (!toks.some(wanted))
        return input;
    const out = procJoins(tableOids(expandArrays(toks)));
    return out === toks ? input : out;
}
/** The parenthesis that opens the SELECT toks[at] belongs to (the innermost enclosing one that starts with SELECT), or -1 for the statement. */
function selectOpen(toks, at) {
    let depth = 0;
    for (let i = at - 1; i >= 0; i--) {
        if ((0, tokens_1.isPunct)(toks[i], ')'))
            depth++;
        else if ((0, tokens_1.isPunct)(toks[i], '(')) {
            if (depth === 0 && (0, tokens_1.isWord)(toks[i + 1], 'SELECT'))
                return i;
            depth = Math.max(0, depth - 1);
        }
    }
    return -1;
}
/** The first index in toks[from, to) at parenthesis depth 0 (counted from `from`) that `test` accepts, after `after`; -1 when none. */
function topLevel(toks, from, to, after, test) {
    let depth = 0;
    for (let i = from; i < to; i++) {
        if ((0, tokens_1.isPunct)(toks[i], '('))
            depth++;
        else if ((0, tokens_1.isPunct)(toks[i], ')'))
            depth--;
        else if (depth === 0 && i > after && test(toks[i]))
            return i;
    }
    return -1;
}
/** Whether toks[i] starts `information_schema._pg_expandarray(arg)`: the index of its ')', or -1. */
function expandCall(toks, i, arg) {
    if (!(0, tokens_1.isWord)(toks[i], 'INFORMATION_SCHEMA') || !(0, tokens_1.isPunct)(toks[i + 1], '.'))
        return -1;
    if (!(0, tokens_1.isWord)(toks[i + 2], '_PG_EXPANDARRAY') || !(0, tokens_1.isPunct)(toks[i + 3], '('))
        return -1;
    const close = (0, tokens_1.closer)(toks, i + 3);
    if (close < 0 || arg === undefined)
        return close;
    const same = close - (i + 4) === arg.length &&
        arg.every((t, k) => t.type === toks[i + 4 + k].type && t.text.toLowerCase() === toks[i + 4 + k].text.toLowerCase());
    return same ? close : -1;
}
function expandArrays(toks) {
    for (let n = 0;; n++) {
        const at = toks.findIndex((_, i) => expandCall(toks, i) >= 0);
        if (at < 0)
            return toks;
        const argEnd = expandCall(toks, at);
        const arg = toks.slice(at + 4, argEnd);
        const open = selectOpen(toks, at);
        const scopeEnd = open < 0 ? toks.length : (0, tokens_1.closer)(toks, open);
        if (scopeEnd < 0)
            return toks;
        const from = topLevel(toks, open + 1, scopeEnd, at, (t) => (0, tokens_1.isWord)(t, 'FROM'));
        if (from < 0)
            return toks;
        const end = topLevel(toks, from, scopeEnd, from, (t) => t.type === 'word' && FROM_CLAUSE_ENDS.has(t.text.toUpperCase()));
        const fromEnd = end < 0 ? scopeEnd : end;
        const e = word(`__x${n}`);
        const out = toks.slice(0, open + 1);
        let moved = false;
        for (let i = open + 1; i < scopeEnd; i++) {
            if (i === fromEnd)
                out.push(word('JOIN'), word('__pg_elems'), punct('('), ...arg, punct(')'), e);
            // (call).n, (call).x
            const inner = (0, tokens_1.isPunct)(toks[i], '(') ? expandCall(toks, i + 1, arg) : -1;
            const field = toks[inner + 3];
            if (inner >= 0 &&
                (0, tokens_1.isPunct)(toks[inner + 1], ')') &&
                (0, tokens_1.isPunct)(toks[inner + 2], '.') &&
                ((0, tokens_1.isWord)(field, 'N') || (0, tokens_1.isWord)(field, 'X'))) {
                out.push(...((0, tokens_1.isWord)(field, 'N')
                    ? [
                        punct('('),
                        e,
                        punct('.'),
                        word('key'),
                        { type: 'op', text: '+' },
                        { type: 'number', text: '1' },
                        punct(')'),
                    ]
                    : [e, punct('.'), word('value')]));
                moved ||= i + 1 === at;
                i = inner + 3;
                continue;
            }
            // call AS "k"
            const close = expandCall(toks, i, arg);
            const k = toks[close + 2];
            if (close >= 0 && (0, tokens_1.isWord)(toks[close + 1], 'AS') && k?.type === 'quoted') {
                const name = k.text.slice(1, -1);
                out.push(e, punct('.'), word('value'), word('AS'), { type: 'quoted', text: `"${name}.x"` }, punct(','));
                out.push(e, punct('.'), word('key'), { type: 'op', text: '+' }, { type: 'number', text: '1' });
                out.push(word('AS'), { type: 'quoted', text: `"${name}.n"` });
                moved ||= i === at;
                i = close + 2;
                continue;
            }
            out.push(toks[i]);
        }
        if (fromEnd === scopeEnd)
            out.push(word('JOIN'), word('__pg_elems'), punct('('), ...arg, punct(')'), e);
        if (!moved)
            return toks; // nothing we know how to move
        toks = [...out, ...toks.slice(scopeEnd)];
        // (i.keys).x: a field of the alias AS "keys" named, now the column "keys.x"
        toks = fieldsOfAliases(toks);
    }
}
/** `(a.k).x` and `(a.k).n` → `a."k.x"`, `a."k.n"`. */
function fieldsOfAliases(toks) {
    const out = [];
    for (let i = 0; i < toks.length; i++) {
        const [a, dot, k, close, dot2, f] = toks.slice(i + 1, i + 7);
        if ((0, tokens_1.isPunct)(toks[i], '(') &&
            a?.type === 'word' &&
            (0, tokens_1.isPunct)(dot, '.') &&
            k?.type === 'word' &&
            (0, tokens_1.isPunct)(close, ')') &&
            (0, tokens_1.isPunct)(dot2, '.') &&
            f?.type === 'word' &&
            (f.text === 'x' || f.text === 'n')) {
            out.push(a, dot, { type: 'quoted', text: `"${k.text}.${f.text}"` });
            i += 6;
        }
        else
            out.push(toks[i]);
    }
    return out;
}
/** The OID of the catalog table toks[i] names (after an optional `pg_catalog.`), with the index of its name; null when none. */
function catalogTable(toks, i) {
    const at = (0, tokens_1.isWord)(toks[i], 'PG_CATALOG') && (0, tokens_1.isPunct)(toks[i + 1], '.') ? i + 2 : i;
    const t = toks[at];
    const name = t?.type === 'word' ? t.text.toLowerCase() : '';
    if (!name.startsWith('pg_') || (0, tokens_1.isPunct)(toks[at + 1], '(') || !Object.hasOwn(relation_oids_1.CATALOG_RELATION_OIDS, name))
        return null;
    return { oid: relation_oids_1.CATALOG_RELATION_OIDS[name], name: at };
}
function tableOids(toks) {
    if (!toks.some((t) => (0, tokens_1.isWord)(t, 'TABLEOID')))
        return toks;
    // each FROM item that is a catalog table: where it stands, at what depth, and the names it goes by
    const depth = [];
    let d = 0;
    for (const t of toks) {
        if ((0, tokens_1.isPunct)(t, ')'))
            d--;
        depth.push(d);
        if ((0, tokens_1.isPunct)(t, '('))
            d++;
    }
    const items = [];
    const names = new Map();
    for (let i = 1; i < toks.length; i++) {
        const before = toks[i - 1];
        if (!(0, tokens_1.isWord)(before, 'FROM') && !(0, tokens_1.isWord)(before, 'JOIN') && !(0, tokens_1.isPunct)(before, ','))
            continue;
        const table = catalogTable(toks, i);
        if (!table)
            continue;
        items.push({ at: i, oid: table.oid });
        names.set(toks[table.name].text.toLowerCase(), table.oid);
        let j = table.name + 1;
        if ((0, tokens_1.isWord)(toks[j], 'AS'))
            j++;
        const a = toks[j];
        if ((a?.type === 'word' && !tokens_1.NOT_FROM_ALIAS.has(a.text.toUpperCase())) || a?.type === 'quoted')
            names.set((0, tokens_1.identText)(a).toLowerCase(), table.oid);
    }
    if (items.length === 0)
        return toks;
    // a bare tableoid: the first catalog table of its own SELECT (between the SELECT and the next set
    // operation at that depth), else the statement's first
    const ownTable = (b) => {
        const open = selectOpen(toks, b);
        const inside = open < 0 ? 0 : depth[open] + 1;
        let start = open;
        for (let i = b - 1; i > open; i--)
            if (depth[i] === inside && (0, tokens_1.isWord)(toks[i], 'SELECT')) {
                start = i;
                break;
            }
        let end = toks.length;
        for (let i = b + 1; i < toks.length; i++)
            if (depth[i] < inside ||
                (depth[i] === inside && toks[i].type === 'word' && SET_OPERATIONS.has(toks[i].text.toUpperCase()))) {
                end = i;
                break;
            }
        return (items.find((it) => it.at > start && it.at < end && depth[it.at] === inside) ?? items[0]).oid;
    };
    const out = [];
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i];
        if (isName(t) && (0, tokens_1.isPunct)(toks[i + 1], '.') && (0, tokens_1.isWord)(toks[i + 2], 'TABLEOID')) {
            const oid = names.get((0, tokens_1.identText)(t).toLowerCase());
            if (oid !== undefined) {
                out.push({ type: 'number', text: String(oid) });
                i += 2;
                continue;
            }
            out.push(t, toks[i + 1], toks[i + 2]);
            i += 2;
            continue;
        }
        if ((0, tokens_1.isWord)(t, 'TABLEOID') && !(0, tokens_1.isPunct)(toks[i - 1], '.'))
            out.push({ type: 'number', text: String(ownTable(i)) });
        else
            out.push(t);
    }
    return out;
}
function procJoins(toks) {
    if (!toks.some((t) => t.type === 'word' && PROC_COLUMNS.has(t.text.toUpperCase())))
        return toks;
    const out = [...toks];
    let changed = false;
    const column = (i, test) => isName(out[i]) && (0, tokens_1.isPunct)(out[i + 1], '.') && test(out[i + 2]);
    const isOid = (t) => (0, tokens_1.isWord)(t, 'OID');
    const isProc = (t) => t.type === 'word' && PROC_COLUMNS.has(t.text.toUpperCase());
    for (let i = 0; i + 6 < out.length; i++) {
        if (!(out[i + 3].type === 'op' && out[i + 3].text === '='))
            continue;
        if (column(i, isOid) && column(i + 4, isProc))
            out[i + 2] = word('proname');
        else if (column(i, isProc) && column(i + 4, isOid))
            out[i + 6] = word('proname');
        else
            continue;
        changed = true;
    }
    return changed ? out : toks;
}
//# sourceMappingURL=catalog-forms.js.map