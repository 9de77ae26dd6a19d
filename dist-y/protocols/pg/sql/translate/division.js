"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteDivision = rewriteDivision;
// Division by zero as PostgreSQL reports it: the divisor of `/` and `%` goes through __pg_divisor,
// which raises 22012 where SQLite would answer NULL.
const tokens_1 = require("../tokens");
/**
 * The divisor of `/` and `%` goes through __pg_divisor, which raises 22012 division_by_zero where
 * SQLite would answer NULL. Both bind tighter than + and -, so the divisor is one operand: a sign,
 * then a literal, parameter, name, call, CASE ... END or parenthesized group (casts are groups by now).
 */
function rewriteDivision(toks) {
    for (let i = 1; i < toks.length - 1; i++) {
        const t = toks[i];
        if (!((0, tokens_1.isOp)(t, '/') || (0, tokens_1.isOp)(t, '%')) || !(0, tokens_1.endsOperand)(toks[i - 1]))
            continue;
        if ('arith' in t && t.arith === 'num/')
            continue; // its divisor is __pg_real_divisor already
        const end = (0, tokens_1.operandEnd)(toks, i + 1);
        if (end < 0)
            continue;
        const operand = toks.slice(i + 1, end + 1);
        toks.splice(i + 1, end - i, { type: 'word', text: '__pg_divisor' }, { type: 'punct', text: '(' }, ...operand, {
            type: 'punct',
            text: ')',
        });
    }
    return toks;
}
//# sourceMappingURL=division.js.map