"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteArrays = rewriteArrays;
// PostgreSQL arrays, which Patina keeps as PostgreSQL's text form ('{a,b}'): ARRAY[...] and
// ARRAY(SELECT ...) build that text, `= ANY(...)` and `<> ALL(...)` become IN and NOT IN over the
// elements, `x < ANY (array)` and `x >= ALL (array)` the largest or smallest truth over them, and `x[n]` takes the n-th element (1-based), through the agent's __pg_* functions.
const sqlstate_1 = require("../../sqlstate");
const tokens_1 = require("../tokens");
const ORDER_OPS = new Set(['<', '>', '<=', '>=']);
/** The bracket closing toks[i]; an unclosed one is PostgreSQL's syntax error (the statement ends inside it). */
function closed(toks, i, open, close) {
    const at = (0, tokens_1.closerIndex)(toks, i, open, close);
    if (at < 0)
        throw (0, sqlstate_1.pgError)('42601', 'syntax error at end of input');
    return at;
}
/** ARRAY[...], ARRAY(SELECT ...), = ANY(...), <> ALL(...). Arrays are PostgreSQL text ('{a,b}'). */
function rewriteArrays(toks) {
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i];
        if (((0, tokens_1.isOp)(t, '=') || (0, tokens_1.isOp)(t, '<>') || (0, tokens_1.isOp)(t, '!=')) &&
            ((0, tokens_1.isWord)(toks[i + 1], 'ANY') || (0, tokens_1.isWord)(toks[i + 1], 'SOME') || (0, tokens_1.isWord)(toks[i + 1], 'ALL')) &&
            (0, tokens_1.isPunct)(toks[i + 2], '(')) {
            const negate = !(0, tokens_1.isOp)(t, '=');
            const close = closed(toks, i + 2, '(', ')');
            const inner = toks.slice(i + 3, close);
            let repl;
            if ((0, tokens_1.isWord)(inner[0], 'SELECT') || (0, tokens_1.isWord)(inner[0], 'WITH') || (0, tokens_1.isWord)(inner[0], 'VALUES')) {
                // x = ANY (SELECT ...): the subquery form, which is IN (SELECT ...)
                repl = [{ type: 'punct', text: '(' }, ...inner, { type: 'punct', text: ')' }];
            }
            else if ((0, tokens_1.isWord)(inner[0], 'ARRAY') && (0, tokens_1.isPunct)(inner[1], '[')) {
                repl = [
                    { type: 'punct', text: '(' },
                    ...inner.slice(2, closed(inner, 1, '[', ']')),
                    { type: 'punct', text: ')' },
                ];
            }
            else {
                repl = [
                    { type: 'group', text: `(SELECT value FROM ${elems(t)}(` },
                    ...inner,
                    { type: 'group', text: `${kindArg(t)})` },
                ];
            }
            const op = negate
                ? [
                    { type: 'word', text: 'NOT' },
                    { type: 'word', text: 'IN' },
                ]
                : [{ type: 'word', text: 'IN' }];
            toks.splice(i, close - i + 1, ...op, ...repl);
            continue;
        }
        // x < ANY (array), x >= ALL (array): whether the comparison holds for some or every element
        if (t.type === 'op' &&
            ORDER_OPS.has(t.text) &&
            ((0, tokens_1.isWord)(toks[i + 1], 'ANY') || (0, tokens_1.isWord)(toks[i + 1], 'SOME') || (0, tokens_1.isWord)(toks[i + 1], 'ALL')) &&
            (0, tokens_1.isPunct)(toks[i + 2], '(') &&
            !(0, tokens_1.isWord)(toks[i + 3], 'SELECT') &&
            !(0, tokens_1.isWord)(toks[i + 3], 'WITH') &&
            !(0, tokens_1.isWord)(toks[i + 3], 'VALUES')) {
            const all = (0, tokens_1.isWord)(toks[i + 1], 'ALL');
            const close = closed(toks, i + 2, '(', ')');
            const start = (0, tokens_1.operandStart)(toks.slice(0, i));
            if (start < 0 || start >= i)
                throw (0, sqlstate_1.pgError)('42601', `syntax error at or near "${t.text}"`);
            const left = toks.slice(start, i);
            // true when some (every) element compares true; else NULL when one compared NULL; else false.
            // Over no elements ANY is false and ALL true, as in PostgreSQL.
            const c = () => [
                { type: 'punct', text: '(' },
                ...left,
                { type: 'op', text: t.text }, // (without the analysis's mark, which this pass has read)
                { type: 'word', text: 'value' },
                { type: 'punct', text: ')' },
            ];
            const w = (text) => ({ type: 'word', text });
            const pu = (text) => ({ type: 'punct', text });
            const repl = [
                pu('('),
                w('SELECT'),
                w('CASE'),
                w('WHEN'),
                ...(all
                    ? [w('min'), ...c(), { type: 'op', text: '=' }, { type: 'number', text: '0' }]
                    : [w('max'), ...c()]),
                w('THEN'),
                { type: 'number', text: all ? '0' : '1' },
                w('WHEN'),
                w('count'),
                ...c(),
                { type: 'op', text: '<' },
                w('count'),
                pu('('),
                { type: 'op', text: '*' },
                pu(')'),
                w('THEN'),
                w('NULL'),
                w('ELSE'),
                { type: 'number', text: all ? '1' : '0' },
                w('END'),
                w('FROM'),
                { type: 'group', text: elems(t) },
                pu('('),
                ...toks.slice(i + 3, close),
                { type: 'group', text: kindArg(t) },
                pu(')'),
            ];
            toks.splice(start, close - start + 1, ...repl);
            i = start;
            continue;
        }
        if ((0, tokens_1.isWord)(t, 'ARRAY') && (0, tokens_1.isPunct)(toks[i + 1], '[')) {
            const close = closed(toks, i + 1, '[', ']');
            toks.splice(i, close - i + 1, { type: 'word', text: '__pg_array' }, { type: 'punct', text: '(' }, ...booleanElements(toks.slice(i + 2, close)), { type: 'punct', text: ')' });
            continue;
        }
        // (expr)[n] and name[n]: an element of a PostgreSQL array (text '{a,b}'), 1-based; [a:b] a slice
        if ((0, tokens_1.isPunct)(t, '[') &&
            !(0, tokens_1.isPunct)(toks[i + 1], ']') &&
            i > 0 &&
            ((0, tokens_1.isPunct)(toks[i - 1], ')') ||
                ((toks[i - 1].type === 'word' || toks[i - 1].type === 'quoted') && !(0, tokens_1.isWord)(toks[i - 1], 'ARRAY')))) {
            const close = closed(toks, i, '[', ']');
            let start = i - 1;
            if ((0, tokens_1.isPunct)(toks[start], ')')) {
                start = (0, tokens_1.openerBefore)(toks, start, '(', ')');
                if (start > 0 && toks[start - 1].type === 'word' && !tokens_1.NOT_FUNCTIONS.has(toks[start - 1].text.toUpperCase()))
                    start--;
            }
            while (start > 1 &&
                (0, tokens_1.isPunct)(toks[start - 1], '.') &&
                (toks[start - 2].type === 'word' || toks[start - 2].type === 'quoted'))
                start -= 2;
            // x[a:b], x[:b], x[a:]: a slice, the elements between the bounds given
            let depth = 0;
            let colon = -1;
            for (let k = i + 1; k < close && colon < 0; k++) {
                if ((0, tokens_1.isPunct)(toks[k], '(') || (0, tokens_1.isPunct)(toks[k], '['))
                    depth++;
                else if ((0, tokens_1.isPunct)(toks[k], ')') || (0, tokens_1.isPunct)(toks[k], ']'))
                    depth--;
                else if (depth === 0 && (0, tokens_1.isPunct)(toks[k], ':'))
                    colon = k;
            }
            const bound = (a, b) => (a < b ? toks.slice(a, b) : [{ type: 'word', text: 'NULL' }]);
            const elem = colon < 0
                ? [
                    { type: 'word', text: '__pg_elem' },
                    { type: 'punct', text: '(' },
                    ...toks.slice(start, i),
                    { type: 'punct', text: ',' },
                    ...toks.slice(i + 1, close),
                    { type: 'punct', text: ')' },
                ]
                : [
                    { type: 'word', text: '__pg_slice' },
                    { type: 'punct', text: '(' },
                    ...toks.slice(start, i),
                    { type: 'punct', text: ',' },
                    ...bound(i + 1, colon),
                    { type: 'punct', text: ',' },
                    ...bound(colon + 1, close),
                    { type: 'punct', text: ',' },
                    { type: 'string', text: `'${colon > i + 1 ? 'l' : ''}${close > colon + 1 ? 'u' : ''}'` },
                    { type: 'punct', text: ')' },
                ];
            toks.splice(start, close - start + 1, ...elem);
            i = start;
            continue;
        }
        if ((0, tokens_1.isWord)(t, 'ARRAY') && (0, tokens_1.isPunct)(toks[i + 1], '(')) {
            const close = closed(toks, i + 1, '(', ')');
            // balanced parentheses as tokens, so that a later pass takes the whole as one operand
            toks.splice(i, close - i + 1, { type: 'punct', text: '(' }, { type: 'word', text: 'WITH' }, { type: 'group', text: '__a(v)' }, { type: 'word', text: 'AS' }, { type: 'punct', text: '(' }, ...toks.slice(i + 2, close), { type: 'punct', text: ')' }, { type: 'group', text: 'SELECT __pg_array_agg(v) FROM __a' }, { type: 'punct', text: ')' });
        }
    }
    return toks;
}
/**
 * The elements of `op ANY (arr)` (src/engine/pg-arrays.ts's __pg_elems_as: one NULL for a NULL
 * array, given as x'00' since a table-valued function is not called with NULL, so that the
 * comparison is NULL as in PostgreSQL); of a numeric or boolean array
 * (typed-operators.ts's `elems:kind`) as SQLite holds such values.
 */
const elemsKind = (op) => ('arith' in op && op.arith?.startsWith('elems:') ? op.arith.slice(6) : '');
const elems = (_op) => '__pg_elems_as(ifnull';
const kindArg = (op) => `, x'00'), '${elemsKind(op)}')`;
/**
 * ARRAY[true, false, NULL]'s elements as a boolean array keeps them, 't' and 'f' (SQLite's 1 and 0
 * made '{1,0}', which neither equals a stored '{t,f}' nor prints as PostgreSQL's text).
 */
function booleanElements(elements) {
    const words = elements.filter((e) => !(0, tokens_1.isPunct)(e, ','));
    const bool = (e) => (0, tokens_1.isWord)(e, 'TRUE') || (0, tokens_1.isWord)(e, 'FALSE');
    if (words.length !== Math.ceil(elements.length / 2) || !words.some(bool))
        return elements;
    if (!words.every((e) => bool(e) || (0, tokens_1.isWord)(e, 'NULL')))
        return elements;
    return elements.map((e) => (bool(e) ? { type: 'string', text: (0, tokens_1.isWord)(e, 'TRUE') ? "'t'" : "'f'" } : e));
}
//# sourceMappingURL=arrays.js.map