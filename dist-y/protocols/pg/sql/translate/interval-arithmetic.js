"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.negateIntervals = negateIntervals;
exports.rewriteIntervalArithmetic = rewriteIntervalArithmetic;
// Calendar arithmetic on timestamps, which SQLite holds as text: `x + INTERVAL '7 days'` and
// `now() - '1 hour'::interval` (the interval already a __pg_interval(...) group from the casts)
// become __pg_add_interval(x, interval, sign); a unary minus negates the interval (before the
// operators the analysis typed take their operands: translate/typed-arithmetic.ts).
const tokens_1 = require("../tokens");
/** A unary minus before an interval (`x + - interval '1 day'`): the interval negated. */
function negateIntervals(toks) {
    for (let i = 0; i + 1 < toks.length; i++) {
        const next = toks[i + 1];
        if ((0, tokens_1.isOp)(toks[i], '-') &&
            next.type === 'group' &&
            next.text.startsWith('__pg_interval(') &&
            !(0, tokens_1.endsOperand)(toks[i - 1])) {
            toks.splice(i, 2, { type: 'group', text: `__pg_interval(${next.text} || ' ago')` });
        }
    }
    return toks;
}
/** x + INTERVAL '7 days', now() - '1 hour'::interval: calendar arithmetic on text timestamps. */
function rewriteIntervalArithmetic(toks) {
    const out = [];
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i];
        const next = toks[i + 1];
        if (((0, tokens_1.isOp)(t, '+') || (0, tokens_1.isOp)(t, '-')) &&
            next?.type === 'group' &&
            next.text.startsWith('__pg_interval(') &&
            (0, tokens_1.endsOperand)(out[out.length - 1])) {
            const left = out.splice((0, tokens_1.operandStart)(out));
            out.push({
                type: 'group',
                text: `__pg_add_interval(${(0, tokens_1.joinTokens)(left)}, ${next.text}, ${(0, tokens_1.isOp)(t, '-') ? -1 : 1})`,
            });
            i++;
            continue;
        }
        out.push(t);
    }
    return out;
}
//# sourceMappingURL=interval-arithmetic.js.map