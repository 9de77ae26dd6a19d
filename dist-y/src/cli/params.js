"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PARAM_HELP = exports.PARAM_OPTIONS = void 0;
exports.joinParamValues = joinParamValues;
exports.paramsJson = paramsJson;
const json_1 = require("../engine/json");
/** Flags that give a statement's positional parameters, in the order they are written. */
exports.PARAM_OPTIONS = {
    param: { type: 'string', multiple: true },
    'param-json': { type: 'string', multiple: true },
    null: { type: 'boolean', multiple: true },
};
exports.PARAM_HELP = `      --param V            a parameter: a number when V reads exactly as a JSON number
                           (5 and -0 INTEGER, 5.0 and 1e3 REAL), else the text V
                           (00123, null and true are text)
      --param-json J       a parameter given as JSON: "00123" text, null, true, [1,2] a BLOB
      --null               a NULL parameter
                           (the three are repeatable and count in the order written)`;
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/;
/**
 * `--param -5` would read as an unknown option -5: a flag that always takes a value takes the next
 * argument whatever it starts with, so it is joined to it before parsing.
 */
function joinParamValues(argv) {
    const out = [];
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if ((a === '--param' || a === '--param-json') && i + 1 < argv.length && argv[i + 1].startsWith('-'))
            out.push(`${a}=${argv[++i]}`);
        else
            out.push(a);
    }
    return out;
}
/** The JSON text of each parameter, from parseArgs tokens (`tokens: true`), in the order written. */
function paramsJson(tokens) {
    const out = [];
    for (const t of tokens) {
        if (t.kind !== 'option')
            continue;
        if (t.name === 'null')
            out.push('null');
        else if (t.name === 'param')
            out.push(JSON_NUMBER.test(t.value) ? t.value : JSON.stringify(t.value));
        else if (t.name === 'param-json') {
            try {
                (0, json_1.parseJsonExact)(t.value);
            }
            catch {
                throw new Error(`--param-json ${JSON.stringify(t.value)} is not JSON; text is written with quotes: --param-json '"abc"'`);
            }
            out.push(t.value);
        }
    }
    return out;
}
//# sourceMappingURL=params.js.map