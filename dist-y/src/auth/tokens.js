"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.TokenStore = void 0;
const node_crypto_1 = __importDefault(require("node:crypto"));
const secrets_1 = require("./secrets");
const digest = (s) => node_crypto_1.default.createHash('sha256').update(s, 'utf8').digest();
/**
 * The HTTP API's bearer tokens with their roles. Only digests are kept; a presented token is
 * compared with every one in constant time, so neither timing nor order tells how close it was.
 */
class TokenStore {
    #entries = [];
    /** Reads every token (inline, file or environment variable); throws naming the first it cannot read. */
    static load(tokens) {
        const s = new TokenStore();
        s.#entries = tokens.map((t, i) => ({
            digest: digest((0, secrets_1.readSecret)(t.source, `api.auth.tokens[${i}]`)),
            role: t.role,
        }));
        return s;
    }
    get size() {
        return this.#entries.length;
    }
    /** The role of a presented token, or null when it is none of ours. */
    roleOf(token) {
        const d = digest(token);
        let found = null;
        for (const e of this.#entries)
            if (node_crypto_1.default.timingSafeEqual(d, e.digest) && found === null)
                found = e.role;
        return found;
    }
}
exports.TokenStore = TokenStore;
//# sourceMappingURL=tokens.js.map