"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.scramSecret = scramSecret;
const node_crypto_1 = __importDefault(require("node:crypto"));
const ITERATIONS = 4096;
const hmac = (key, data) => node_crypto_1.default.createHmac('sha256', key).update(data).digest();
const sha256 = (data) => node_crypto_1.default.createHash('sha256').update(data).digest();
function scramSecret(password) {
    const salt = node_crypto_1.default.randomBytes(16);
    const salted = node_crypto_1.default.pbkdf2Sync(password.normalize('NFKC'), salt, ITERATIONS, 32, 'sha256');
    return {
        salt,
        iterations: ITERATIONS,
        storedKey: sha256(hmac(salted, 'Client Key')),
        serverKey: hmac(salted, 'Server Key'),
    };
}
//# sourceMappingURL=scram-secret.js.map