"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Mutual TLS between agents: members of the cluster's CA replicate; a rogue agent (another CA's
// certificate, or none) cannot join, push or sync, and its changes never land.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_https_1 = __importDefault(require("node:https"));
const agent_1 = require("../helpers/agent");
const node_child_process_1 = require("node:child_process");
const http_1 = require("../helpers/http");
const tls_1 = require("../helpers/tls");
const wait_1 = require("../helpers/wait");
const SCHEMA = 'CREATE TABLE kv (k INTEGER NOT NULL PRIMARY KEY, v TEXT);';
function gossipConfig(certs, name) {
    return (`[gossip]\naddr = "127.0.0.1:0"\n` +
        (certs ? `[gossip.tls]\n${certs.pair(name)}ca_file = "${certs.file('ca.crt')}"\n` : ''));
}
async function values(agent) {
    const r = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT v FROM kv ORDER BY k');
    strict_1.default.equal(r.status, 200, r.text);
    return r.lines.slice(1, -1).map((e) => e.row[1][0]);
}
/** A peer request straight to an agent's gossip port, with the TLS options given. */
function peerPost(addr, route, body, tls) {
    const [host, port] = addr.split(':');
    return new Promise((resolve, reject) => {
        const payload = JSON.stringify(body);
        const req = node_https_1.default.request({
            host,
            port: Number(port),
            method: 'POST',
            path: `/peer/v1/${route}`,
            headers: {
                'content-type': 'application/json',
                'x-patina-cluster': '0',
                'x-patina-actor': 'ff'.repeat(16),
                'x-patina-addr': '127.0.0.1:1',
            },
            checkServerIdentity: () => undefined,
            ...tls,
        }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(payload);
    });
}
describe('peers over mutual TLS', function () {
    this.timeout(90000);
    let cluster;
    let rogueCa;
    const agents = [];
    before(() => {
        cluster = tls_1.TestCerts.generate('a', 'b');
        rogueCa = tls_1.TestCerts.generate('rogue');
    });
    after(async () => {
        await Promise.all(agents.map((a) => a.dispose()));
        cluster?.dispose();
        rogueCa?.dispose();
    });
    it('agents with certificates of the cluster CA replicate; a rogue agent can neither join nor get its writes in', async () => {
        const a = await (0, agent_1.startAgent)({ schema: SCHEMA, config: gossipConfig(cluster, 'a') });
        agents.push(a);
        const b = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: gossipConfig(cluster, 'b'),
            args: ['--bootstrap', a.gossip],
        });
        agents.push(b);
        strict_1.default.equal((await (0, http_1.postJson)(a.http, '/v1/transactions', ["INSERT INTO kv (k, v) VALUES (1, 'from a')"])).status, 200);
        await (0, wait_1.eventually)('b has the write of a', 15_000, async () => (await values(b)).includes('from a'));
        const rogueTls = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: gossipConfig(rogueCa, 'rogue'),
            args: ['--bootstrap', `${a.gossip},${b.gossip}`],
        });
        agents.push(rogueTls);
        const roguePlain = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: gossipConfig(null, 'x'),
            args: ['--bootstrap', `${a.gossip},${b.gossip}`],
        });
        agents.push(roguePlain);
        strict_1.default.equal((await (0, http_1.postJson)(rogueTls.http, '/v1/transactions', ["INSERT INTO kv (k, v) VALUES (66, 'rogue tls')"])).status, 200);
        strict_1.default.equal((await (0, http_1.postJson)(roguePlain.http, '/v1/transactions', ["INSERT INTO kv (k, v) VALUES (67, 'rogue plain')"]))
            .status, 200);
        strict_1.default.equal((await (0, http_1.postJson)(b.http, '/v1/transactions', ["INSERT INTO kv (k, v) VALUES (2, 'from b')"])).status, 200);
        await (0, wait_1.eventually)('a has the later write of b', 15_000, async () => (await values(a)).includes('from b'));
        // several ping and sync rounds (1 s and 2 s) pass
        await new Promise((r) => setTimeout(r, 5000));
        for (const x of [a, b]) {
            strict_1.default.deepEqual(await values(x), ['from a', 'from b']);
        }
        for (const rogue of [rogueTls, roguePlain]) {
            const mine = await values(rogue);
            strict_1.default.ok(!mine.includes('from a') && !mine.includes('from b'), `a rogue agent synced the cluster's data: ${mine}`);
        }
        const listed = await fetch(`${a.http}/v1/cluster/members`).then((r) => r.json());
        const alive = listed.members.filter((m) => m.state === 'alive').map((m) => m.addr);
        strict_1.default.deepEqual(alive, [b.gossip], `members of a: ${JSON.stringify(listed.members)}`);
    });
    it('refuses a direct push without a certificate of the cluster CA, and takes one with it', async () => {
        const a = agents[0];
        const push = { cs: [] };
        await strict_1.default.rejects(peerPost(a.gossip, 'changes', push, {
            ca: cluster.read('ca.crt'),
            cert: rogueCa.read('rogue.crt'),
            key: rogueCa.read('rogue.key'),
        }));
        await strict_1.default.rejects(peerPost(a.gossip, 'changes', push, { ca: cluster.read('ca.crt') }));
        await strict_1.default.rejects(peerPost(a.gossip, 'sync', { heads: {} }, { rejectUnauthorized: false }));
        strict_1.default.equal(await peerPost(a.gossip, 'changes', push, {
            ca: cluster.read('ca.crt'),
            cert: cluster.read('b.crt'),
            key: cluster.read('b.key'),
        }), 200);
    });
});
describe('peer certificates on reload', function () {
    this.timeout(60000);
    it('serves a re-read gossip certificate to the next handshake after patina reload', async () => {
        const certs = tls_1.TestCerts.generate('a', 'b');
        const a = await (0, agent_1.startAgent)({ schema: SCHEMA, config: gossipConfig(certs, 'a') });
        try {
            const serial = () => (0, node_child_process_1.spawnSync)('bash', [
                '-c',
                `openssl s_client -connect ${a.gossip} -CAfile ${certs.file('ca.crt')} -cert ${certs.file('b.crt')} -key ${certs.file('b.key')} </dev/null 2>/dev/null | openssl x509 -noout -serial`,
            ], { encoding: 'utf8' }).stdout.trim();
            const before = serial();
            strict_1.default.match(before, /^serial=/);
            certs.add('a');
            strict_1.default.equal((await (0, http_1.request)(a.http, 'POST', '/v1/admin/reload')).status, 200);
            const after = serial();
            strict_1.default.match(after, /^serial=/);
            strict_1.default.notEqual(after, before);
            strict_1.default.equal(await peerPost(a.gossip, 'changes', { cs: [] }, { ca: certs.read('ca.crt'), cert: certs.read('b.crt'), key: certs.read('b.key') }), 200);
        }
        finally {
            await a.dispose();
            certs.dispose();
        }
    });
});
describe('plaintext gossip off loopback', () => {
    it('is refused unless gossip.plaintext = true', async () => {
        const refused = new agent_1.AgentProcess({ schema: SCHEMA, args: ['--gossip-addr', '0.0.0.0:0'] });
        await strict_1.default.rejects(refused.start(), /gossip would listen on 0\.0\.0\.0:0, which is not loopback, in plaintext; configure \[gossip\.tls\]/);
        await refused.dispose();
        const allowed = await (0, agent_1.startAgent)({ schema: SCHEMA, config: '[gossip]\naddr = "0.0.0.0:0"\nplaintext = true\n' });
        await allowed.dispose();
    });
    it('[gossip.tls] needs ca_file', async () => {
        const certs = tls_1.TestCerts.generate('a');
        try {
            await strict_1.default.rejects((0, agent_1.startAgent)({ schema: SCHEMA, config: `[gossip]\naddr = "127.0.0.1:0"\n[gossip.tls]\n${certs.pair('a')}` }), /gossip\.tls\.ca_file: missing/);
        }
        finally {
            certs.dispose();
        }
    });
});
//# sourceMappingURL=peer-tls.test.js.map