"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// HTTPS on the HTTP API with curl, client certificates, certificate reload, and the CLI over HTTPS.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const agent_1 = require("../helpers/agent");
const cli_1 = require("../helpers/cli");
const http_1 = require("../helpers/http");
const tls_1 = require("../helpers/tls");
const SCHEMA = 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);';
const TOKEN = 'https-admin-token-2f7a';
function curl(args) {
    const r = (0, node_child_process_1.spawnSync)('curl', ['-sS', '--max-time', '10', ...args], { encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
describe('HTTPS on the HTTP API', function () {
    this.timeout(60000);
    let certs;
    let agent;
    before(async () => {
        certs = tls_1.TestCerts.generate('agent1');
        agent = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: `[api.tls]\n${certs.pair('agent1')}[api.auth]\ntokens = [{ token = "${TOKEN}", role = "admin" }]\n`,
        });
    });
    after(async () => {
        await agent?.dispose();
        certs?.dispose();
    });
    it('prints an https address and serves curl with the CA and a token', () => {
        strict_1.default.match(agent.http, /^https:\/\/127\.0\.0\.1:\d+$/);
        const w = curl([
            '--cacert',
            certs.file('ca.crt'),
            '-H',
            `authorization: Bearer ${TOKEN}`,
            '-H',
            'content-type: application/json',
            '-d',
            `["INSERT INTO t (id, v) VALUES (1, 'tls')"]`,
            `${agent.http}/v1/transactions`,
        ]);
        strict_1.default.equal(w.status, 0, w.stderr);
        strict_1.default.match(w.stdout, /"rows_affected":1/);
        const r = curl([
            '--cacert',
            certs.file('ca.crt'),
            '-H',
            `authorization: Bearer ${TOKEN}`,
            '-H',
            'content-type: application/json',
            '-d',
            '"SELECT v FROM t"',
            `${agent.http.replace('127.0.0.1', 'localhost')}/v1/queries`,
        ]);
        strict_1.default.equal(r.status, 0, r.stderr);
        strict_1.default.match(r.stdout, /\{"row":\[1,\["tls"\]\]\}/);
        const noToken = curl(['--cacert', certs.file('ca.crt'), '-i', `${agent.http}/v1/cluster/members`]);
        strict_1.default.match(noToken.stdout, /^HTTP\/1\.1 401/);
        strict_1.default.match(noToken.stdout, /www-authenticate: Bearer/i);
    });
    it('refuses plain HTTP on the HTTPS port, and curl refuses an untrusted certificate', () => {
        const plain = curl([`${agent.http.replace('https://', 'http://')}/v1/health`]);
        strict_1.default.notEqual(plain.stdout.startsWith('{"status":"ok"'), true);
        const untrusted = curl([`${agent.http}/v1/health`]);
        strict_1.default.notEqual(untrusted.status, 0);
        strict_1.default.match(untrusted.stderr, /certificate/i);
    });
    it('the CLI reaches it with https:// and NODE_EXTRA_CA_CERTS', async () => {
        const r = await (0, cli_1.runCli)(['query', 'SELECT v FROM t', '--api-addr', agent.http, '--api-token', TOKEN], {
            env: { NODE_EXTRA_CA_CERTS: certs.file('ca.crt') },
        });
        strict_1.default.equal(r.code, 0, r.stderr);
        strict_1.default.equal(r.stdout, 'tls\n');
    });
    it('re-reads the certificate on reload: new connections get the new one', async () => {
        const serial = () => {
            const r = (0, node_child_process_1.spawnSync)('bash', [
                '-c',
                `openssl s_client -connect ${agent.http.replace('https://', '')} -CAfile ${certs.file('ca.crt')} </dev/null 2>/dev/null | openssl x509 -noout -serial`,
            ], { encoding: 'utf8' });
            return r.stdout.trim();
        };
        const before = serial();
        strict_1.default.match(before, /^serial=/);
        certs.add('agent1'); // a new certificate and key from the same CA, in the same files
        const r = await (0, http_1.request)(agent.http, 'POST', '/v1/admin/reload', undefined, { authorization: `Bearer ${TOKEN}` }, { ca: certs.read('ca.crt') });
        strict_1.default.equal(r.status, 200, r.text);
        const after = serial();
        strict_1.default.match(after, /^serial=/);
        strict_1.default.notEqual(after, before);
        const h = await (0, http_1.request)(agent.http, 'GET', '/v1/health', undefined, {}, { ca: certs.read('ca.crt') });
        strict_1.default.equal(h.status, 200);
    });
});
describe('HTTPS with client certificates', function () {
    this.timeout(60000);
    it('asks for a client certificate signed by client_ca_file and refuses connections without one', async () => {
        const certs = tls_1.TestCerts.generate('agent1', 'client');
        const strangers = tls_1.TestCerts.generate('client');
        const agent = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: `[api.tls]\n${certs.pair('agent1')}client_ca_file = "${certs.file('ca.crt')}"\n`,
        });
        try {
            const ok = curl([
                '--cacert',
                certs.file('ca.crt'),
                '--cert',
                certs.file('client.crt'),
                '--key',
                certs.file('client.key'),
                `${agent.http}/v1/health`,
            ]);
            strict_1.default.equal(ok.status, 0, ok.stderr);
            strict_1.default.match(ok.stdout, /"status":"ok"/);
            const none = curl(['--cacert', certs.file('ca.crt'), `${agent.http}/v1/health`]);
            strict_1.default.notEqual(none.status, 0);
            const foreign = curl([
                '--cacert',
                certs.file('ca.crt'),
                '--cert',
                strangers.file('client.crt'),
                '--key',
                strangers.file('client.key'),
                `${agent.http}/v1/health`,
            ]);
            strict_1.default.notEqual(foreign.status, 0);
            strict_1.default.ok(!foreign.stdout.includes('"status"'));
            // and the agent lives on
            const again = await (0, http_1.request)(agent.http, 'GET', '/v1/health', undefined, {}, { ca: certs.read('ca.crt'), cert: certs.read('client.crt'), key: certs.read('client.key') });
            strict_1.default.equal(again.status, 200);
        }
        finally {
            await agent.dispose();
            certs.dispose();
            strangers.dispose();
        }
    });
    it('stops start-up when a certificate file cannot be read, naming it', async () => {
        const certs = tls_1.TestCerts.generate('agent1');
        try {
            node_fs_1.default.rmSync(certs.file('agent1.key'));
            await strict_1.default.rejects((0, agent_1.startAgent)({ schema: SCHEMA, config: `[api.tls]\n${certs.pair('agent1')}` }), /api\.tls\.key_file: cannot read .*agent1\.key: ENOENT/);
        }
        finally {
            certs.dispose();
        }
    });
});
//# sourceMappingURL=https.test.js.map