"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteGreatestLeast = rewriteGreatestLeast;
// greatest() and least() ignore NULLs (SQLite's max(a, b) is NULL when one is).
// SQLite would answer the same text otherwise, silently; test/pg/semantics-oracle.test.ts runs it on both.
const tokens_1 = require("../tokens");
/** greatest(a, b, ...) and least(...) as max()/min() of rotated coalesces, so that NULLs are skipped. */
function rewriteGreatestLeast(toks) {
    if (!toks.some((t) => (0, tokens_1.isWord)(t, 'GREATEST') || (0, tokens_1.isWord)(t, 'LEAST')))
        return toks;
    const out = [];
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i];
        const c = (0, tokens_1.isPunct)(toks[i + 1], '(') && !(0, tokens_1.isPunct)(toks[i - 1], '.') ? (0, tokens_1.closer)(toks, i + 1) : -1;
        if (!((0, tokens_1.isWord)(t, 'GREATEST') || (0, tokens_1.isWord)(t, 'LEAST')) || c < 0) {
            out.push(t);
            continue;
        }
        const args = [[]];
        let depth = 0;
        for (const a of rewriteGreatestLeast(toks.slice(i + 2, c))) {
            if ((0, tokens_1.isPunct)(a, '('))
                depth++;
            else if ((0, tokens_1.isPunct)(a, ')'))
                depth--;
            if (depth === 0 && (0, tokens_1.isPunct)(a, ','))
                args.push([]);
            else
                args[args.length - 1].push(a);
        }
        const fn = (0, tokens_1.isWord)(t, 'GREATEST') ? 'max' : 'min';
        const open = { type: 'punct', text: '(' };
        const close = { type: 'punct', text: ')' };
        const comma = { type: 'punct', text: ',' };
        if (args.length === 1)
            out.push(open, ...args[0], close);
        else {
            out.push({ type: 'word', text: fn }, open);
            args.forEach((_, k) => {
                if (k > 0)
                    out.push(comma);
                out.push({ type: 'word', text: 'coalesce' }, open);
                for (let m = 0; m < args.length; m++) {
                    if (m > 0)
                        out.push(comma);
                    out.push(open, ...args[(k + m) % args.length], close);
                }
                out.push(close);
            });
            out.push(close);
        }
        i = c;
    }
    return out;
}
//# sourceMappingURL=greatest-least.js.map