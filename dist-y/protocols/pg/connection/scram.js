"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ScramExchange = void 0;
// SCRAM-SHA-256 (RFC 5802/7677) as PostgreSQL speaks it: no channel binding, user name from startup.
// The keys come from src/auth (the password store); this file only speaks the exchange.
const node_crypto_1 = __importDefault(require("node:crypto"));
/** The value of attribute `name` in a SCRAM attribute list (`a=..,r=..`), or undefined. Values hold no comma. */
function attribute(list, name) {
    for (const part of list.split(','))
        if (part.length > 1 && part[0] === name && part[1] === '=')
            return part.slice(2);
    return undefined;
}
const hmac = (key, data) => node_crypto_1.default.createHmac('sha256', key).update(data).digest();
const sha256 = (data) => node_crypto_1.default.createHash('sha256').update(data).digest();
/** One exchange: the client's first message gives the server's; the client's final is verified. */
class ScramExchange {
    #secret;
    #clientFirstBare = '';
    #serverFirst = '';
    #nonce = '';
    #known;
    /** `known` false: the user does not exist; the exchange runs on a decoy and always fails. */
    constructor(secret, known = true) {
        this.#secret = secret;
        this.#known = known;
    }
    /** Takes SASLInitialResponse's data; returns server-first-message, or null if malformed. */
    first(clientFirst) {
        const m = /^([ny]),(?:a=[^,]*)?,(.*)$/.exec(clientFirst);
        if (!m)
            return null;
        this.#clientFirstBare = m[2];
        const nonce = attribute(this.#clientFirstBare, 'r');
        if (!nonce)
            return null;
        this.#nonce = nonce + node_crypto_1.default.randomBytes(18).toString('base64');
        this.#serverFirst = `r=${this.#nonce},s=${this.#secret.salt.toString('base64')},i=${this.#secret.iterations}`;
        return this.#serverFirst;
    }
    /** Takes the client's final message; returns server-final-message when the proof is right. */
    final(clientFinal) {
        const i = clientFinal.lastIndexOf(',p=');
        if (i < 0)
            return null;
        const withoutProof = clientFinal.slice(0, i);
        const proof = Buffer.from(clientFinal.slice(i + 3), 'base64');
        // The nonce is compared as a string: a client's nonce may hold any printable character but a comma.
        if (attribute(withoutProof, 'r') !== this.#nonce)
            return null;
        const authMessage = `${this.#clientFirstBare},${this.#serverFirst},${withoutProof}`;
        const signature = hmac(this.#secret.storedKey, authMessage);
        if (proof.length !== signature.length)
            return null;
        const clientKey = Buffer.alloc(proof.length);
        for (let k = 0; k < proof.length; k++)
            clientKey[k] = proof[k] ^ signature[k];
        if (!node_crypto_1.default.timingSafeEqual(sha256(clientKey), this.#secret.storedKey) || !this.#known)
            return null;
        return `v=${hmac(this.#secret.serverKey, authMessage).toString('base64')}`;
    }
}
exports.ScramExchange = ScramExchange;
//# sourceMappingURL=scram.js.map