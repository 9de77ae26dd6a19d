"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SelectItems = void 0;
// Whether a reference is a whole item of a select list, for passes that replace a column reference
// with an expression (translate/function-columns.ts, translate/lateral-json.ts): such an item then
// needs `AS name` to keep the column's name (`SELECT s.r FROM (...)` is still a column r to the
// query around it).
const tokens_1 = require("../tokens");
class SelectItems {
    /** Per parenthesis depth: whether the tokens there are a select list. */
    #lists = [false];
    /** Follows toks[i] (call for every token, in order). */
    step(toks, i) {
        const t = toks[i];
        if ((0, tokens_1.isPunct)(t, '('))
            this.#lists.push((0, tokens_1.isWord)(toks[i + 1], 'SELECT'));
        else if ((0, tokens_1.isPunct)(t, ')'))
            this.#lists.length > 1 && this.#lists.pop();
        else if ((0, tokens_1.isWord)(t, 'SELECT'))
            this.#lists[this.#lists.length - 1] = true;
        else if ((0, tokens_1.isWord)(t, 'FROM'))
            this.#lists[this.#lists.length - 1] = false;
    }
    /** Whether the token last stepped over is in a select list (not in a call or subquery inside it). */
    inList() {
        return this.#lists[this.#lists.length - 1];
    }
    /** `AS "name"` when toks[i, i + n) is a whole select item, else nothing. */
    keepName(toks, i, n, name) {
        const whole = this.#lists[this.#lists.length - 1] &&
            ((0, tokens_1.isWord)(toks[i - 1], 'SELECT') || (0, tokens_1.isWord)(toks[i - 1], 'DISTINCT') || (0, tokens_1.isPunct)(toks[i - 1], ',')) &&
            ((0, tokens_1.isPunct)(toks[i + n], ',') || (0, tokens_1.isWord)(toks[i + n], 'FROM') || i + n >= toks.length);
        return whole
            ? [
                { type: 'word', text: 'AS' },
                { type: 'quoted', text: `"${name.replace(/"/g, '""')}"` },
            ]
            : [];
    }
}
exports.SelectItems = SelectItems;
//# sourceMappingURL=select-items.js.map