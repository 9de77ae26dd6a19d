"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteOrderedSet = rewriteOrderedSet;
// The ordered-set aggregates BI tools use for medians and quantiles: `percentile_cont(f) WITHIN
// GROUP (ORDER BY x)`, `percentile_disc(f) WITHIN GROUP (...)` and `mode() WITHIN GROUP (...)`
// become the agent's aggregates __pg_percentile_cont(f, x), __pg_percentile_disc(f, x) and
// __pg_mode(x) (src/engine/pg-statistics.ts); ORDER BY x DESC reads the fraction from the other end.
// Other WITHIN GROUP forms (hypothetical-set rank() WITHIN GROUP, ...) are left to be refused as 0A000.
const sqlstate_1 = require("../../sqlstate");
const tokens_1 = require("../tokens");
const ORDERED_SET = new Set(['PERCENTILE_CONT', 'PERCENTILE_DISC', 'MODE']);
function rewriteOrderedSet(toks) {
    if (!toks.some((t) => (0, tokens_1.isWord)(t, 'WITHIN')))
        return toks;
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i];
        if (t.type !== 'word' || !ORDERED_SET.has(t.text.toUpperCase()) || !(0, tokens_1.isPunct)(toks[i + 1], '('))
            continue;
        const argsEnd = (0, tokens_1.closer)(toks, i + 1);
        if (argsEnd < 0 || !(0, tokens_1.isWord)(toks[argsEnd + 1], 'WITHIN') || !(0, tokens_1.isWord)(toks[argsEnd + 2], 'GROUP'))
            continue;
        const open = argsEnd + 3;
        if (!(0, tokens_1.isPunct)(toks[open], '(') || !(0, tokens_1.isWord)(toks[open + 1], 'ORDER') || !(0, tokens_1.isWord)(toks[open + 2], 'BY'))
            continue;
        const close = (0, tokens_1.closer)(toks, open);
        if (close < 0)
            continue;
        let key = toks.slice(open + 3, close);
        let desc = false;
        const last = key[key.length - 1];
        if ((0, tokens_1.isWord)(last, 'DESC') || (0, tokens_1.isWord)(last, 'ASC')) {
            desc = (0, tokens_1.isWord)(last, 'DESC');
            key = key.slice(0, -1);
        }
        if (key.some((k, j) => (0, tokens_1.isPunct)(k, ',') && !inParens(key, j)))
            throw (0, sqlstate_1.pgError)('0A000', `${t.text.toLowerCase()}() WITHIN GROUP with more than one ORDER BY key is not supported`);
        const name = t.text.toLowerCase();
        const args = toks.slice(i + 2, argsEnd);
        const call = [
            { type: 'word', text: `__pg_${name}` },
            { type: 'punct', text: '(' },
        ];
        if (name !== 'mode') {
            if (args.length === 0)
                throw (0, sqlstate_1.pgError)('42883', `function ${name}() needs a fraction`);
            call.push({ type: 'punct', text: '(' }, ...args, { type: 'punct', text: ')' }, { type: 'punct', text: ',' });
            call.push({ type: 'number', text: desc ? '1' : '0' }, { type: 'punct', text: ',' });
        }
        else if (args.length > 0)
            throw (0, sqlstate_1.pgError)('42883', 'function mode() takes no argument before WITHIN GROUP');
        call.push(...key, { type: 'punct', text: ')' });
        toks = [...toks.slice(0, i), ...call, ...toks.slice(close + 1)];
    }
    return toks;
}
/** Whether toks[j] is inside parentheses within `key`. */
function inParens(key, j) {
    let depth = 0;
    for (let k = 0; k < j; k++) {
        if ((0, tokens_1.isPunct)(key[k], '('))
            depth++;
        else if ((0, tokens_1.isPunct)(key[k], ')'))
            depth--;
    }
    return depth > 0;
}
//# sourceMappingURL=ordered-set.js.map