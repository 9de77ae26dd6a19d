"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadTls = loadTls;
const node_fs_1 = __importDefault(require("node:fs"));
const node_tls_1 = __importDefault(require("node:tls"));
const errors_1 = require("../errors");
function readPem(file, what) {
    try {
        return node_fs_1.default.readFileSync(file);
    }
    catch (err) {
        throw new errors_1.PatinaError('user', `${what}: cannot read ${file}: ${err.code ?? 'unreadable'}`);
    }
}
/**
 * Reads and checks TLS files (a key that does not match its certificate, or a file that is not
 * PEM, is refused here, naming the files, rather than at the first handshake).
 */
function loadTls(files, what) {
    const m = {
        cert: readPem(files.certFile, `${what}.cert_file`),
        key: readPem(files.keyFile, `${what}.key_file`),
    };
    if (files.caFile)
        m.ca = readPem(files.caFile, `${what} CA file`);
    try {
        node_tls_1.default.createSecureContext(m);
    }
    catch (err) {
        // OpenSSL's reason (e.g. "key values mismatch") names no secret
        throw new errors_1.PatinaError('user', `${what}: ${files.certFile} and ${files.keyFile}${files.caFile ? ` (CA ${files.caFile})` : ''} are not a usable certificate and key: ${err.message}`);
    }
    return m;
}
//# sourceMappingURL=tls-material.js.map