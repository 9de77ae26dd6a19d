"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.readSecret = readSecret;
const node_fs_1 = __importDefault(require("node:fs"));
const errors_1 = require("../errors");
/**
 * Reads a secret from where the config says it is. Errors name the file or variable, never the
 * value; a file's trailing newline is not part of the secret (`echo secret > file`).
 */
function readSecret(source, what) {
    if ('value' in source)
        return source.value;
    if ('file' in source) {
        let text;
        try {
            text = node_fs_1.default.readFileSync(source.file, 'utf8');
        }
        catch (err) {
            throw new errors_1.PatinaError('user', `${what}: cannot read ${source.file}: ${err.code ?? 'unreadable'}`);
        }
        const secret = text.replace(/\r?\n$/, '');
        if (secret === '')
            throw new errors_1.PatinaError('user', `${what}: ${source.file} is empty`);
        return secret;
    }
    const v = process.env[source.env];
    if (v === undefined || v === '')
        throw new errors_1.PatinaError('user', `${what}: the environment variable ${source.env} is not set`);
    return v;
}
//# sourceMappingURL=secrets.js.map