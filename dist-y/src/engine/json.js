"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseJsonExact = parseJsonExact;
const lossless_json_1 = require("lossless-json");
const errors_1 = require("../errors");
/**
 * Parses JSON keeping 64-bit integers exact: integers that a double cannot hold become bigint,
 * every other number a plain number. JSON.parse would round 9223372036854775807.
 * With `integers: 'bigint'` every number written without a fraction or exponent is a bigint, so
 * that SQL parameters bind it as INTEGER and the rest (a JS number) as REAL: request bodies.
 */
function parseJsonExact(text, opts = {}) {
    const all = opts.integers === 'bigint';
    try {
        return (0, lossless_json_1.parse)(text, null, (digits) => {
            if (/^-?\d+$/.test(digits) && (all || !(0, lossless_json_1.isSafeNumber)(digits)))
                return BigInt(digits);
            return Number(digits);
        });
    }
    catch (err) {
        throw new errors_1.PatinaError('user', `malformed JSON: ${err.message}`);
    }
}
//# sourceMappingURL=json.js.map