"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.STRICT_TO_JSON = void 0;
exports.rewriteStrictToJson = rewriteStrictToJson;
// to_json and to_jsonb are strict in PostgreSQL: of NULL they are SQL NULL, where SQLite's json_quote
// answers the JSON text null. The words pass renames them __pg_to_json; this one, after it, writes
// `(CASE WHEN (x) IS NULL THEN NULL ELSE json_quote(x) END)`, which keeps json_quote's JSON subtype
// (a json_build_object of it embeds the value, not its text). The argument is written twice, so a
// volatile one (random(), nextval) is evaluated twice.
const tokens_1 = require("../tokens");
exports.STRICT_TO_JSON = '__pg_to_json';
const punct = (text) => ({ type: 'punct', text });
const word = (text) => ({ type: 'word', text });
function rewriteStrictToJson(toks) {
    if (!toks.some((t) => (0, tokens_1.isWord)(t, exports.STRICT_TO_JSON.toUpperCase())))
        return toks;
    let out = toks;
    // last first: an inner call is rewritten before the outer one copies it
    for (let i = out.length - 1; i >= 0; i--) {
        if (!(0, tokens_1.isWord)(out[i], exports.STRICT_TO_JSON.toUpperCase()) || !(0, tokens_1.isPunct)(out[i + 1], '('))
            continue;
        const c = (0, tokens_1.closer)(out, i + 1);
        if (c < 0)
            continue;
        const arg = out.slice(i + 2, c);
        const rewritten = [
            punct('('),
            word('CASE'),
            word('WHEN'),
            punct('('),
            ...arg,
            punct(')'),
            word('IS'),
            word('NULL'),
            word('THEN'),
            word('NULL'),
            word('ELSE'),
            word('json_quote'),
            punct('('),
            ...arg,
            punct(')'),
            word('END'),
            punct(')'),
        ];
        out = [...out.slice(0, i), ...rewritten, ...out.slice(c + 1)];
    }
    return out;
}
//# sourceMappingURL=strict-json.js.map