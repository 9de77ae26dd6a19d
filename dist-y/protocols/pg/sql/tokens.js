"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NOT_FUNCTIONS = exports.FROM_ENDS = exports.NOT_FROM_ALIAS = exports.isOp = exports.isPunct = exports.isWord = void 0;
exports.fromItemStarts = fromItemStarts;
exports.topLevelItems = topLevelItems;
exports.closer = closer;
exports.topLevelWord = topLevelWord;
exports.readType = readType;
exports.openerBefore = openerBefore;
exports.closerAfter = closerAfter;
exports.closerIndex = closerIndex;
exports.ungroup = ungroup;
exports.joinTokens = joinTokens;
exports.identText = identText;
exports.operandStart = operandStart;
exports.endsOperand = endsOperand;
exports.operandEnd = operandEnd;
// Tokens as the translation passes (sql/translate/) see them: tests of one token, matching
// brackets, where an operand starts and ends, a type name after `::`, and tokens joined back into SQL.
const lexer_1 = require("./lexer");
const isWord = (t, w) => t !== undefined && t.type === 'word' && (w === undefined || t.text.toUpperCase() === w);
exports.isWord = isWord;
const isPunct = (t, p) => t !== undefined && t.type === 'punct' && t.text === p;
exports.isPunct = isPunct;
const isOp = (t, o) => t !== undefined && t.type === 'op' && t.text === o;
exports.isOp = isOp;
/** Words that follow a FROM item and are no alias (of a table, a subquery, a function). */
exports.NOT_FROM_ALIAS = new Set([
    'WHERE', 'ON', 'JOIN', 'LEFT', 'RIGHT', 'INNER', 'OUTER', 'FULL', 'CROSS', 'NATURAL', 'GROUP', 'ORDER',
    'LIMIT', 'OFFSET', 'HAVING', 'UNION', 'EXCEPT', 'INTERSECT', 'USING', 'WINDOW', 'FETCH', 'WITH', 'RETURNING',
    'SET', 'FOR', 'LATERAL',
]); // biome-ignore format: a word list
/** Words that end a FROM clause (and those that start another clause a FROM list is not in). */
exports.FROM_ENDS = new Set([
    'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION', 'EXCEPT',
    'INTERSECT', 'RETURNING', 'SET', 'SELECT', 'VALUES',
]); // biome-ignore format: a word list
/**
 * Where FROM items start, for a pass walking a statement's tokens: right after FROM, JOIN, or a
 * comma of a FROM list (whether a clause is a FROM list is kept per parenthesis depth). Call the
 * returned function with each index the pass visits, in order.
 */
function fromItemStarts() {
    const inFrom = [false];
    return (toks, i) => {
        const t = toks[i];
        const depth = inFrom.length - 1;
        if ((0, exports.isPunct)(t, '('))
            inFrom.push(false);
        else if ((0, exports.isPunct)(t, ')'))
            inFrom.length > 1 && inFrom.pop();
        else if ((0, exports.isWord)(t, 'FROM') || (0, exports.isWord)(t, 'JOIN'))
            inFrom[depth] = true;
        else if (t.type === 'word' && exports.FROM_ENDS.has(t.text.toUpperCase()))
            inFrom[depth] = false;
        const before = toks[i - 1];
        return (0, exports.isWord)(before, 'FROM') || (0, exports.isWord)(before, 'JOIN') || ((0, exports.isPunct)(before, ',') && inFrom[depth]);
    };
}
/** The items of toks[from, to) between commas outside parentheses and brackets, as [start, end) pairs. */
function topLevelItems(toks, from, to) {
    const out = [];
    let depth = 0;
    let start = from;
    for (let k = from; k < to; k++) {
        const t = toks[k];
        if ((0, exports.isPunct)(t, '(') || (0, exports.isPunct)(t, '['))
            depth++;
        else if ((0, exports.isPunct)(t, ')') || (0, exports.isPunct)(t, ']'))
            depth--;
        else if (depth === 0 && (0, exports.isPunct)(t, ',')) {
            out.push([start, k]);
            start = k + 1;
        }
    }
    out.push([start, to]);
    return out;
}
/** Index of the ')' matching the '(' at toks[i], or -1 when it is not closed. */
function closer(toks, i) {
    let depth = 0;
    for (; i < toks.length; i++) {
        if ((0, exports.isPunct)(toks[i], '('))
            depth++;
        else if ((0, exports.isPunct)(toks[i], ')') && --depth === 0)
            return i;
    }
    return -1;
}
/** The index of the word `w` in toks[from, to) outside any parentheses, or -1. */
function topLevelWord(toks, from, to, w) {
    let depth = 0;
    for (let i = from; i < to; i++) {
        if ((0, exports.isPunct)(toks[i], '('))
            depth++;
        else if ((0, exports.isPunct)(toks[i], ')'))
            depth--;
        else if (depth === 0 && (0, exports.isWord)(toks[i], w))
            return i;
    }
    return -1;
}
/** Words that end an operand rather than name a function before '('. */
exports.NOT_FUNCTIONS = new Set([
    'AND',
    'OR',
    'NOT',
    'IN',
    'SELECT',
    'WHERE',
    'ON',
    'FROM',
    'AS',
    'THEN',
    'ELSE',
    'WHEN',
    'IS',
    'EXISTS',
    'VALUES',
    'BY',
    'LIKE',
    'CASE',
    'RETURNING',
    'SET',
    'INTO',
    'JOIN',
    'USING',
    'HAVING',
    'ANY',
    'ALL',
]);
const MULTIWORD_TYPES = [
    [['DOUBLE', 'PRECISION'], 'double precision'],
    [['CHARACTER', 'VARYING'], 'character varying'],
    [['TIMESTAMP', 'WITH', 'TIME', 'ZONE'], 'timestamptz'],
    [['TIMESTAMP', 'WITHOUT', 'TIME', 'ZONE'], 'timestamp'],
    [['TIME', 'WITH', 'TIME', 'ZONE'], 'timetz'],
    [['TIME', 'WITHOUT', 'TIME', 'ZONE'], 'time'],
];
/** Reads a type name at toks[i] (after '::'): returns the name, its modifiers (`numeric(10, 2)`) and the index after it. */
function readType(toks, i) {
    if ((0, exports.isWord)(toks[i], 'PG_CATALOG') && (0, exports.isPunct)(toks[i + 1], '.'))
        i += 2;
    let name = toks[i] ? (toks[i].type === 'quoted' ? (0, lexer_1.identName)(toks[i]) : toks[i].text.toLowerCase()) : '';
    let end = i + 1;
    for (const [words, n] of MULTIWORD_TYPES) {
        if (words.every((w, k) => (0, exports.isWord)(toks[i + k], w))) {
            name = n;
            end = i + words.length;
            break;
        }
    }
    const mods = [];
    if ((0, exports.isPunct)(toks[end], '(')) {
        while (end < toks.length && !(0, exports.isPunct)(toks[end], ')')) {
            if (toks[end].type === 'number')
                mods.push(Number(toks[end].text));
            end++;
        }
        end++;
    }
    let isArray = false;
    while ((0, exports.isPunct)(toks[end], '[') && (0, exports.isPunct)(toks[end + 1], ']')) {
        isArray = true;
        end += 2;
    }
    return { name, isArray, end, mods };
}
/** Index of the '(' matching the ')' at out[j], scanning back. */
function openerBefore(out, j, open, close) {
    let depth = 0;
    for (; j >= 0; j--) {
        if ((0, exports.isPunct)(out[j], close))
            depth++;
        else if ((0, exports.isPunct)(out[j], open) && --depth === 0)
            return j;
    }
    return 0;
}
/** Index of the ')' matching the '(' at toks[i]. */
function closerAfter(toks, i, open = '(', close = ')') {
    const at = closerIndex(toks, i, open, close);
    return at < 0 ? toks.length - 1 : at;
}
/** Index of the bracket closing the one at toks[i]; -1 when the statement ends first. */
function closerIndex(toks, i, open = '(', close = ')') {
    let depth = 0;
    for (; i < toks.length; i++) {
        if ((0, exports.isPunct)(toks[i], open))
            depth++;
        else if ((0, exports.isPunct)(toks[i], close) && --depth === 0)
            return i;
    }
    return -1;
}
/**
 * The tokens with every group read back into the tokens of its text, for the late passes that look
 * at the structure earlier passes wrote as text (a subquery, a call's arguments); `toks` itself when
 * it holds no group.
 */
function ungroup(toks) {
    if (!toks.some((t) => t.type === 'group'))
        return toks;
    return toks.flatMap((t) => (t.type === 'group' ? groupTokens(t.text) : [t]));
}
/** The tokens of a group's text; SQLite's blob literal `X'01'` (casts.ts writes it) stays one token. */
function groupTokens(text) {
    const out = [];
    const lexed = (0, lexer_1.lexPg)(text);
    for (let k = 0; k < lexed.length; k++) {
        const t = lexed[k];
        if ((t.text === 'X' || t.text === 'x') && t.type === 'word' && lexed[k + 1]?.type === 'string') {
            out.push({ type: 'string', text: t.text + lexed[++k].text });
        }
        else if (t.type !== 'space' && t.type !== 'comment')
            out.push(t);
    }
    return out;
}
/** Joins tokens with spaces where SQL needs them. */
function joinTokens(toks) {
    let s = '';
    let prev;
    for (const t of toks) {
        const tight = prev === undefined ||
            (0, exports.isPunct)(t, '.') ||
            (0, exports.isPunct)(prev, '.') ||
            (0, exports.isPunct)(t, ',') ||
            (0, exports.isPunct)(t, ')') ||
            (0, exports.isPunct)(prev, '(') ||
            (0, exports.isPunct)(t, ']') ||
            (0, exports.isPunct)(prev, '[') ||
            ((0, exports.isPunct)(t, '(') && (prev.type === 'word' || prev.type === 'quoted'));
        s += (tight ? '' : ' ') + t.text;
        prev = t;
    }
    return s;
}
/** An identifier token as PostgreSQL reads it: quoted kept, bare folded to lower case. */
function identText(t) {
    return t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase();
}
/** Where the operand that ends `out` starts: a call or parenthesized group, a subscript, a (dotted) name or a literal. */
function operandStart(out) {
    let j = out.length - 1;
    for (;;) {
        if ((0, exports.isPunct)(out[j], ')')) {
            j = openerBefore(out, j, '(', ')');
            // a call's FILTER (...) or OVER (...): the call before it is part of the operand
            if (j > 1 && ((0, exports.isWord)(out[j - 1], 'OVER') || (0, exports.isWord)(out[j - 1], 'FILTER')) && (0, exports.isPunct)(out[j - 2], ')')) {
                j -= 2;
                continue;
            }
            if (j > 0 && out[j - 1].type === 'word' && !exports.NOT_FUNCTIONS.has(out[j - 1].text.toUpperCase()))
                j--;
        }
        else if ((0, exports.isPunct)(out[j], ']')) {
            j = openerBefore(out, j, '[', ']');
            if (j > 0)
                j--;
        }
        // OVER a named window (`sum(x) OVER w`)
        if (j > 1 && out[j].type === 'word' && (0, exports.isWord)(out[j - 1], 'OVER') && (0, exports.isPunct)(out[j - 2], ')')) {
            j -= 2;
            continue;
        }
        // a qualified name (a.b, s.f(x)) or a field of a parenthesised value (f(a).b): one operand
        const before = out[j - 2];
        if (j > 1 &&
            (0, exports.isPunct)(out[j - 1], '.') &&
            (before.type === 'word' || before.type === 'quoted' || (0, exports.isPunct)(before, ')'))) {
            j -= 2;
            continue;
        }
        return j;
    }
}
/** Whether a token can end a left operand (not a keyword, '(' or ',': then the sign is unary). */
function endsOperand(t) {
    if (t === undefined)
        return false;
    if (t.type === 'punct')
        return t.text === ')' || t.text === ']';
    if (t.type === 'word')
        return (!exports.NOT_FUNCTIONS.has(t.text.toUpperCase()) &&
            !['SELECT', 'DISTINCT', 'BETWEEN', 'ELSE', 'RETURN'].includes(t.text.toUpperCase()));
    return t.type !== 'op';
}
/**
 * The index of the last token of the operand that starts at toks[j] (after any signs): a literal,
 * parameter or group, a parenthesized group, CASE ... END, or a (dotted) name or call; -1 at the end.
 */
function operandEnd(toks, j) {
    while ((0, exports.isOp)(toks[j], '-') || (0, exports.isOp)(toks[j], '+'))
        j++;
    const t = toks[j];
    if (t === undefined)
        return -1;
    let end = j;
    if ((0, exports.isPunct)(t, '('))
        end = closerAfter(toks, j);
    else if ((0, exports.isWord)(t, 'CASE')) {
        for (let depth = 0; end < toks.length; end++) {
            if ((0, exports.isWord)(toks[end], 'CASE'))
                depth++;
            else if ((0, exports.isWord)(toks[end], 'END') && --depth === 0)
                break;
        }
    }
    else if (t.type === 'word' || t.type === 'quoted') {
        while ((0, exports.isPunct)(toks[end + 1], '.') &&
            toks[end + 2] &&
            (toks[end + 2].type === 'word' || toks[end + 2].type === 'quoted'))
            end += 2;
        if ((0, exports.isPunct)(toks[end + 1], '(')) {
            end = closerAfter(toks, end + 1);
            // an aggregate's FILTER (...) and a window call's OVER (...) or OVER name belong to it
            if ((0, exports.isWord)(toks[end + 1], 'FILTER') && (0, exports.isPunct)(toks[end + 2], '('))
                end = closerAfter(toks, end + 2);
            if ((0, exports.isWord)(toks[end + 1], 'OVER'))
                end = (0, exports.isPunct)(toks[end + 2], '(') ? closerAfter(toks, end + 2) : Math.min(end + 2, toks.length - 1);
        }
    }
    return end;
}
//# sourceMappingURL=tokens.js.map