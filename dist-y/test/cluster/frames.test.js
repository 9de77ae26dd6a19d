"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Pings and pushes go over one framed connection per peer, opened by an HTTP upgrade on the gossip
// port: the upgrade is checked as any peer request (another cluster gets 409), and an agent that
// does not offer it (`frames = false`, as an agent from before it) is called over HTTP both ways.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_http_1 = __importDefault(require("node:http"));
const cluster_1 = require("../helpers/cluster");
const http_1 = require("../helpers/http");
const N = 3;
async function connections(base) {
    const r = await (0, http_1.request)(base, 'GET', '/v1/sync/status');
    return r.json.peer_connections;
}
/** Asks `addr` for the framed connection as agent `from` of cluster `clusterId`. */
function upgrade(addr, clusterId, from) {
    const [host, port] = addr.split(':');
    return new Promise((resolve, reject) => {
        const req = node_http_1.default.request({
            host,
            port: Number(port),
            method: 'GET',
            path: '/peer/v1/frames',
            agent: false,
            headers: {
                connection: 'Upgrade',
                upgrade: 'patina-frames/1',
                'x-patina-cluster': String(clusterId),
                'x-patina-actor': from.actor,
                'x-patina-addr': from.addr,
            },
        });
        req.on('upgrade', (res, socket, head) => resolve({ status: res.statusCode ?? 0, cluster: res.headers['x-patina-cluster'], socket, head }));
        req.on('response', (res) => {
            res.resume();
            resolve({
                status: res.statusCode ?? 0,
                cluster: res.headers['x-patina-cluster'],
                socket: null,
                head: Buffer.alloc(0),
            });
        });
        req.on('error', reject);
        req.end();
    });
}
/** Sends frames on `socket` and collects `count` answers. */
function exchange(socket, head, frames, count) {
    for (const f of frames) {
        const body = Buffer.from(JSON.stringify(f));
        const len = Buffer.alloc(4);
        len.writeUInt32BE(body.length);
        socket.write(Buffer.concat([len, body]));
    }
    return new Promise((resolve, reject) => {
        let buf = head;
        const out = [];
        const take = (d) => {
            buf = Buffer.concat([buf, d]);
            while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
                const n = buf.readUInt32BE(0);
                out.push(JSON.parse(buf.toString('utf8', 4, 4 + n)));
                buf = buf.subarray(4 + n);
            }
            if (out.length >= count)
                resolve(out);
        };
        socket.on('data', take);
        socket.on('error', reject);
        take(Buffer.alloc(0));
    });
}
describe('peer messages over one framed connection per peer', function () {
    this.timeout(60_000);
    const nodes = [];
    before(async () => {
        // the third agent does not offer the framed connection, as an agent from before it
        await (0, cluster_1.startMesh)(nodes, N, (i) => `[gossip]\nsync_interval = 3600\n${i === 2 ? 'frames = false\n' : ''}`);
    });
    after(async () => {
        for (const n of nodes)
            await n.dispose();
    });
    it('uses one connection each way between agents that offer it, and HTTP with one that does not', async () => {
        for (let i = 0; i < N; i++)
            await (0, cluster_1.exec)(nodes[i].http, [['INSERT INTO kv (k, v) VALUES (?, ?)', [i + 1, `from ${i}`]]]);
        await (0, cluster_1.eventually)('every agent has every write (pushed: sync is once an hour)', 20_000, async () => {
            const counts = await Promise.all(nodes.map((n) => (0, cluster_1.rows)(n.http, 'SELECT count(*) FROM kv')));
            return counts.every((c) => JSON.stringify(c) === `[[${N}]]`) || JSON.stringify(counts);
        });
        strict_1.default.deepEqual(await connections(nodes[0].http), { out: 1, in: 1 });
        strict_1.default.deepEqual(await connections(nodes[1].http), { out: 1, in: 1 });
        strict_1.default.deepEqual(await connections(nodes[2].http), { out: 0, in: 0 });
        const seen = await Promise.all(nodes.map((n) => (0, cluster_1.members)(n.http)));
        for (const m of seen)
            strict_1.default.deepEqual(m.map((x) => x.state), ['alive', 'alive']);
    });
    it('refuses the upgrade of another cluster with 409, and answers frames of its own cluster', async () => {
        const agent1 = (await (0, cluster_1.members)(nodes[0].http)).find((m) => m.addr === nodes[1].gossip);
        const from = { actor: agent1.actor_id, addr: nodes[1].gossip };
        const other = await upgrade(nodes[0].gossip, 7, from);
        strict_1.default.equal(other.status, 409);
        strict_1.default.equal(other.cluster, '0');
        strict_1.default.equal(other.socket, null);
        const old = await upgrade(nodes[2].gossip, 0, from);
        strict_1.default.equal(old.status, 404, 'an agent without frames answers the upgrade as a plain request');
        const ok = await upgrade(nodes[0].gossip, 0, from);
        strict_1.default.equal(ok.status, 101);
        strict_1.default.equal(ok.cluster, '0');
        const answers = await exchange(ok.socket, ok.head, [
            { i: 1, r: 'changes', b: { cs: [] } },
            { i: 2, r: 'no-such-route', b: {} },
        ], 2);
        ok.socket.destroy();
        answers.sort((a, b) => a.i - b.i); // answers come in any order
        strict_1.default.deepEqual(answers[0], { i: 1, b: {} });
        strict_1.default.equal(answers[1].i, 2);
        strict_1.default.match(answers[1].e, /no peer route/);
    });
});
//# sourceMappingURL=frames.test.js.map