"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteSetReturning = rewriteSetReturning;
// Set-returning functions in FROM as SQLite runs them, on the tokens of the translated statement
// (the last passes in translate.ts; groups earlier passes wrote are read back into tokens first):
//  - `FROM generate_series(1, 3) AS i`, `unnest(x) u`, `regexp_split_to_table(s, ',') r`, the JSON
//    ones: in PostgreSQL the alias of a function in FROM names its value, so the call becomes a
//    subquery with one column of that name, `(SELECT value AS i FROM generate_series(1, 3)) i`;
//    string_to_array, one array value, `(SELECT string_to_array(s, ',') AS a) a`. After JOIN or a
//    comma, a call whose arguments read a column (`, jsonb_array_elements(t.tags) e`, an earlier
//    FROM item's) stays the table-valued function SQLite runs per row (a subquery could not see t),
//    and a bare `e` elsewhere becomes `e.value`.
//  - on the catalog connection (`local`), unnest and generate_series with a one-name column list
//    that function-columns.ts did not take (`pg_catalog.generate_series(1, 32) pos(n)`, pgjdbc's
//    getImportedKeys) or with no alias at all, whose column is then named after the function.
//  - `SELECT unnest(x) a, generate_subscripts(x, 1) b FROM t u` (SQLAlchemy's primary-key query): a
//    join with the table-valued __pg_elems (value, 0-based key).
// A call is a FROM item when it follows FROM, JOIN, or a comma of a FROM list (tracked per
// parenthesis depth, as in scalar-from.ts).
const tokens_1 = require("../tokens");
/** The functions whose alias names their value (the JSON ones as words.ts renames them). */
const ALIASED = new Set([
    'generate_series', 'string_to_array', 'unnest', 'regexp_split_to_table', '__pg_json_array_elements',
    '__pg_jsonb_array_elements', '__pg_json_array_elements_text', '__pg_jsonb_array_elements_text',
    '__pg_json_object_keys', '__pg_jsonb_object_keys', '__pg_regexp_matches',
]); // biome-ignore format: a word list
/** What may follow a catalog statement's bare `unnest(...)`/`generate_series(...)` for it to take the function's name. */
const BARE_ENDS = new Set(['WHERE', 'ORDER', 'GROUP', 'LIMIT', 'UNION']);
const word = (text) => ({ type: 'word', text });
const punct = (text) => ({ type: 'punct', text });
/** A name that can be a FROM item's alias. */
const isAlias = (t) => t !== undefined && ((t.type === 'word' && !tokens_1.NOT_FROM_ALIAS.has(t.text.toUpperCase())) || t.type === 'quoted');
/** A name compared as the old text rewrite compared it: quotes off, case folded. */
const folded = (t) => (t.type === 'quoted' ? t.text.slice(1, -1) : t.text).toLowerCase();
const callsOne = (toks) => (t, i) => t.type === 'word' &&
    (0, tokens_1.isPunct)(toks[i + 1], '(') &&
    (ALIASED.has(t.text.toLowerCase()) || (0, tokens_1.isWord)(t, 'GENERATE_SUBSCRIPTS'));
function rewriteSetReturning(input, local) {
    if (!input.some((t, i) => t.type === 'group' || callsOne(input)(t, i)))
        return input;
    const toks = (0, tokens_1.ungroup)(input);
    if (!toks.some(callsOne(toks)))
        return input;
    const out = sqlalchemyKeys(fromItems(toks, local));
    return out === toks ? input : out;
}
/** `(SELECT value AS column FROM call) alias`. */
const valueColumn = (call, column, alias) => [
    punct('('),
    word('SELECT'),
    word('value'),
    word('AS'),
    column,
    word('FROM'),
    ...call,
    punct(')'),
    alias,
];
/** Whether a call's arguments toks[from, to) name a column (a name that is no function, outside strings). */
function correlated(toks, from, to) {
    for (let k = from; k < to; k++) {
        const t = toks[k];
        if ((t.type === 'word' || t.type === 'quoted') && !(0, tokens_1.isPunct)(toks[k - 1], '.') && !(0, tokens_1.isPunct)(toks[k + 1], '('))
            return true;
    }
    return false;
}
function fromItems(toks, local) {
    const out = [];
    const renames = [];
    let changed = false;
    const itemStarts = (0, tokens_1.fromItemStarts)();
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i];
        const starts = itemStarts(toks, i);
        const fn = t.type === 'word' ? t.text.toLowerCase() : '';
        const close = starts && ALIASED.has(fn) && (0, tokens_1.isPunct)(toks[i + 1], '(') ? (0, tokens_1.closer)(toks, i + 1) : -1;
        if (close < 0) {
            out.push(t);
            continue;
        }
        const call = toks.slice(i, close + 1);
        let j = close + 1;
        if ((0, tokens_1.isWord)(toks[j], 'AS'))
            j++;
        const alias = isAlias(toks[j]) ? toks[j] : undefined;
        if (local && (fn === 'unnest' || fn === 'generate_series')) {
            // alias(column)
            if (alias && (0, tokens_1.isPunct)(toks[j + 1], '(') && isAlias(toks[j + 2]) && (0, tokens_1.isPunct)(toks[j + 3], ')')) {
                out.push(...valueColumn(call, toks[j + 2], alias));
                i = j + 3;
                changed = true;
                continue;
            }
            // no alias: PostgreSQL names the column after the function
            const next = toks[close + 1];
            if (next === undefined ||
                (0, tokens_1.isPunct)(next, ';') ||
                (0, tokens_1.isPunct)(next, ')') ||
                (next.type === 'word' && BARE_ENDS.has(next.text.toUpperCase()))) {
                out.push(...valueColumn(call, word(fn), word(fn)));
                i = close;
                changed = true;
                continue;
            }
        }
        // a column list other passes left, or a select list's call made a join (standard-forms.ts reads __pg_srf.value)
        if (!alias || (0, tokens_1.isPunct)(toks[j + 1], '(') || alias.text === '"__pg_srf"') {
            out.push(t);
            continue;
        }
        if (fn !== 'string_to_array' && !(0, tokens_1.isWord)(toks[i - 1], 'FROM') && correlated(toks, i + 2, close)) {
            renames.push(alias);
            out.push(t);
            continue;
        }
        out.push(...(fn === 'string_to_array'
            ? [punct('('), word('SELECT'), ...call, word('AS'), alias, punct(')'), alias]
            : valueColumn(call, alias, alias)));
        i = j;
        changed = true;
    }
    if (renames.length === 0)
        return changed ? out : toks;
    // a bare alias read as a column: not a qualifier (`e.x`), a qualified name (`x.e`), a call, or a
    // name being defined (`... ) AS e`, `x AS e`)
    const byName = new Map(renames.map((a) => [folded(a), a]));
    return out.flatMap((t, k) => {
        const a = t.type === 'word' || t.type === 'quoted' ? byName.get(folded(t)) : undefined;
        const bare = a !== undefined &&
            !(0, tokens_1.isPunct)(out[k - 1], '.') &&
            !(0, tokens_1.isPunct)(out[k + 1], '.') &&
            !(0, tokens_1.isPunct)(out[k + 1], '(') &&
            !(0, tokens_1.isPunct)(out[k - 1], ')') &&
            !(0, tokens_1.isWord)(out[k - 1], 'AS');
        return bare ? [a, punct('.'), word('value')] : [t];
    });
}
/** A dotted name `a.b.c` of words starting at toks[i]: the index after it, or -1. */
function dottedEnd(toks, i) {
    if (toks[i]?.type !== 'word')
        return -1;
    while ((0, tokens_1.isPunct)(toks[i + 1], '.') && toks[i + 2]?.type === 'word')
        i += 2;
    return i + 1;
}
const sameTokens = (a, b) => a.length === b.length && a.every((t, k) => t.type === b[k].type && t.text.toLowerCase() === b[k].text.toLowerCase());
/**
 * `SELECT unnest(x) a, generate_subscripts(x, 1) b FROM t u` (SQLAlchemy's primary-key query) →
 * `SELECT __e.value AS a, __e.key + 1 AS b FROM t u, __pg_elems(x) __e`.
 */
function sqlalchemyKeys(toks) {
    if (!toks.some((t) => (0, tokens_1.isWord)(t, 'GENERATE_SUBSCRIPTS')))
        return toks;
    let out = toks;
    for (let s = 0; s < out.length; s++) {
        if (!(0, tokens_1.isWord)(out[s], 'SELECT') || !(0, tokens_1.isWord)(out[s + 1], 'UNNEST') || !(0, tokens_1.isPunct)(out[s + 2], '('))
            continue;
        const xEnd = dottedEnd(out, s + 3);
        if (xEnd < 0 || !(0, tokens_1.isPunct)(out[xEnd], ')'))
            continue;
        const x = out.slice(s + 3, xEnd);
        let k = xEnd + 1;
        if ((0, tokens_1.isWord)(out[k], 'AS'))
            k++;
        const a = out[k];
        if (!isAlias(a) || a.type !== 'word' || !(0, tokens_1.isPunct)(out[k + 1], ',') || !(0, tokens_1.isWord)(out[k + 2], 'GENERATE_SUBSCRIPTS'))
            continue;
        k += 3;
        if (!(0, tokens_1.isPunct)(out[k], '(') || !sameTokens(out.slice(k + 1, k + 1 + x.length), x))
            continue;
        k += 1 + x.length;
        if (!(0, tokens_1.isPunct)(out[k], ',') || out[k + 1]?.text !== '1' || !(0, tokens_1.isPunct)(out[k + 2], ')'))
            continue;
        k += 3;
        if ((0, tokens_1.isWord)(out[k], 'AS'))
            k++;
        const b = out[k];
        if (!isAlias(b) || b.type !== 'word' || !(0, tokens_1.isWord)(out[k + 1], 'FROM'))
            continue;
        const tEnd = dottedEnd(out, k + 2);
        const u = out[tEnd];
        if (tEnd < 0 || !isAlias(u) || u.type !== 'word')
            continue;
        const e = word('__e');
        out = [
            ...out.slice(0, s + 1),
            ...[e, punct('.'), word('value'), word('AS'), a, punct(',')],
            ...[e, punct('.'), word('key'), { type: 'op', text: '+' }, { type: 'number', text: '1' }],
            ...[
                word('AS'),
                b,
                ...out.slice(k + 1, tEnd + 1),
                punct(','),
                word('__pg_elems'),
                punct('('),
                ...x,
                punct(')'),
                e,
            ],
            ...out.slice(tEnd + 1),
        ];
    }
    return out;
}
//# sourceMappingURL=set-returning.js.map