"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rewriteNamedArguments = rewriteNamedArguments;
// Named arguments (`make_interval(days => 2, hours => 3)`), as positions, for the functions whose
// parameter names PostgreSQL documents: SQLite's functions take positions only (`=>` was a syntax
// error). A name the function has not is 42883, as PostgreSQL finds no such function.
const sqlstate_1 = require("../../sqlstate");
const tokens_1 = require("../tokens");
/** Parameter names in order, and what a left-out one is. */
const PARAMS = {
    make_interval: { names: ['years', 'months', 'weeks', 'days', 'hours', 'mins', 'secs'], missing: '0' },
};
function rewriteNamedArguments(toks) {
    if (!toks.some((t) => t.type === 'op' && t.text === '=>'))
        return toks;
    for (let i = toks.length - 2; i >= 0; i--) {
        const fn = toks[i].type === 'word' ? PARAMS[toks[i].text.toLowerCase()] : undefined;
        if (!fn || !(0, tokens_1.isPunct)(toks[i + 1], '('))
            continue;
        const close = (0, tokens_1.closer)(toks, i + 1);
        if (close < 0)
            continue;
        const items = (0, tokens_1.topLevelItems)(toks, i + 2, close).filter(([a, b]) => b > a);
        if (!items.some(([a]) => toks[a + 1]?.type === 'op' && toks[a + 1].text === '=>'))
            continue;
        const args = [];
        items.forEach(([a, b], k) => {
            const named = toks[a + 1]?.type === 'op' && toks[a + 1].text === '=>';
            const at = named ? fn.names.indexOf(toks[a].text.toLowerCase()) : k;
            if (at < 0)
                throw (0, sqlstate_1.pgError)('42883', `function ${toks[i].text.toLowerCase()}(${toks[a].text} => ...) does not exist: its parameters are ${fn.names.join(', ')}`);
            args[at] = toks.slice(named ? a + 2 : a, b);
        });
        const body = [];
        for (let k = 0; k < args.length; k++) {
            if (k > 0)
                body.push({ type: 'punct', text: ',' });
            body.push(...(args[k] ?? [{ type: 'number', text: fn.missing }]));
        }
        toks = [...toks.slice(0, i + 2), ...body, ...toks.slice(close)];
    }
    return toks;
}
//# sourceMappingURL=named-args.js.map