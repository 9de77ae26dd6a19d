"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.TestCerts = exports.GENERATE = void 0;
// Certificates for tests, made by the same openssl recipe users run (examples/tls/generate.sh).
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
exports.GENERATE = node_path_1.default.resolve(__dirname, '..', '..', '..', 'examples', 'tls', 'generate.sh');
/** A CA and named certificates in a folder: `file('ca.crt')`, `file('agent1.key')`. */
class TestCerts {
    dir;
    constructor(dir) {
        this.dir = dir;
    }
    /** Generates a fresh CA and a certificate for each name (openssl). */
    static generate(...names) {
        const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-certs-'));
        (0, node_child_process_1.execFileSync)('bash', [exports.GENERATE, dir, ...names], { stdio: 'pipe' });
        return new TestCerts(dir);
    }
    /** Adds certificates signed by the same CA. */
    add(...names) {
        (0, node_child_process_1.execFileSync)('bash', [exports.GENERATE, this.dir, ...names], { stdio: 'pipe' });
    }
    file(name) {
        return node_path_1.default.join(this.dir, name);
    }
    read(name) {
        return node_fs_1.default.readFileSync(this.file(name));
    }
    /** TOML lines `cert_file`/`key_file` for a name. */
    pair(name) {
        return `cert_file = "${this.file(`${name}.crt`)}"\nkey_file = "${this.file(`${name}.key`)}"\n`;
    }
    /**
     * A PostgreSQL listener's TOML that requires TLS with this certificate and names these users (each
     * a role and a `password = "..."` or `password_file = "..."` line).
     */
    pgListener(name, users) {
        const entries = users.map((u) => `[[api.pg.users]]\nname = "${u.name}"\n${u.secret}\nrole = "${u.role}"\n`);
        return `[api.pg]\naddr = "127.0.0.1:0"\nrequire_tls = true\n[api.pg.tls]\n${this.pair(name)}${entries.join('')}`;
    }
    dispose() {
        node_fs_1.default.rmSync(this.dir, { recursive: true, force: true });
    }
}
exports.TestCerts = TestCerts;
//# sourceMappingURL=tls.js.map