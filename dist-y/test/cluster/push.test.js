"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Push, the fast path of replication: a committed changeset goes straight to every alive peer (up to
// push_direct of them) or down a tree of them, so each agent gets one copy, and an agent whose child
// in the tree does not answer covers that child's part itself. Anti-entropy is set to once an hour
// here, so what arrives came by push. Agent 0 has the default push_direct (32: it sends its writes
// to the 7 others itself); the others have push_direct = 0, the tree of ln(N) + 1 branches.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_net_1 = __importDefault(require("node:net"));
const cluster_1 = require("../helpers/cluster");
const http_1 = require("../helpers/http");
const N = 8;
async function pushStats(base) {
    const r = await (0, http_1.request)(base, 'GET', '/v1/sync/status');
    return r.json.stats;
}
async function pushReceived(base) {
    return (await pushStats(base)).pushReceived;
}
/** Per agent, pushed and received copies since `before`. */
async function pushedSince(nodes, before) {
    const now = await Promise.all(nodes.map((n) => pushStats(n.http)));
    return {
        sent: now.map((x, i) => x.pushed - before[i].pushed),
        received: now.map((x, i) => x.pushReceived - before[i].pushReceived),
    };
}
describe('push of changesets to the peers, straight or down a tree', function () {
    this.timeout(120_000);
    const nodes = [];
    before(async () => {
        await (0, cluster_1.startMesh)(nodes, N, (i) => `[gossip]\nsync_interval = 3600\n${i === 0 ? '' : 'push_direct = 0\n'}`, 30_000);
    });
    after(async () => {
        for (const n of nodes)
            await n.dispose();
    });
    it(`sends a write straight to each of the ${N - 1} others in a cluster of up to push_direct + 1 agents`, async () => {
        const before = await Promise.all(nodes.map((n) => pushStats(n.http)));
        for (let k = 1; k <= 5; k++)
            await (0, cluster_1.exec)(nodes[0].http, [['INSERT INTO kv (k, v) VALUES (?, ?)', [k, 'pushed']]]);
        await (0, cluster_1.eventually)('every agent has the 5 rows', 20_000, async () => {
            const counts = await Promise.all(nodes.map((n) => (0, cluster_1.rows)(n.http, 'SELECT count(*) FROM kv WHERE k <= 5')));
            return counts.every((c) => JSON.stringify(c) === '[[5]]') || JSON.stringify(counts);
        });
        const d = await pushedSince(nodes, before);
        strict_1.default.deepEqual(d.received, [0, ...Array(N - 1).fill(5)]);
        strict_1.default.deepEqual(d.sent, [5 * (N - 1), ...Array(N - 1).fill(0)], 'the origin sent every copy, no one passed one on');
    });
    it(`gives each of ${N} agents one copy of every write down a tree (push_direct = 0)`, async () => {
        const before = await Promise.all(nodes.map((n) => pushStats(n.http)));
        for (let k = 11; k <= 15; k++)
            await (0, cluster_1.exec)(nodes[1].http, [['INSERT INTO kv (k, v) VALUES (?, ?)', [k, 'pushed']]]);
        await (0, cluster_1.eventually)('every agent has the 5 rows', 20_000, async () => {
            const counts = await Promise.all(nodes.map((n) => (0, cluster_1.rows)(n.http, 'SELECT count(*) FROM kv WHERE k BETWEEN 11 AND 15')));
            return counts.every((c) => JSON.stringify(c) === '[[5]]') || JSON.stringify(counts);
        });
        const d = await pushedSince(nodes, before);
        strict_1.default.deepEqual(d.received, [5, 0, ...Array(N - 2).fill(5)]);
        // ln(8) + 1 = 4 branches at the origin, the rest handed on by the first of each
        strict_1.default.equal(d.sent[1], 5 * 4, 'the origin sent one copy per branch');
        strict_1.default.equal(d.sent.reduce((a, b) => a + b, 0), 5 * (N - 1), 'one copy per agent in all');
    });
    it("passes a changeset on only to members it knows, each once, whatever a peer's list says", async () => {
        // a listener that is no member, named in the list (twice), with members named many times over
        const stranger = node_net_1.default.createServer((s) => {
            strangerConnections++;
            s.destroy();
        });
        let strangerConnections = 0;
        await new Promise((resolve) => stranger.listen(0, '127.0.0.99', resolve));
        const strangerAddr = `127.0.0.99:${stranger.address().port}`;
        try {
            const before = await Promise.all(nodes.map((n) => pushReceived(n.http)));
            const member = nodes[2].gossip;
            // sent as agent 0, with a part of its first write, which every agent holds already
            const first = (await (0, cluster_1.members)(nodes[1].http)).find((m) => m.addr === nodes[0].gossip);
            const actor = first.actor_id;
            const body = JSON.stringify({
                cs: [
                    {
                        a: 'ffffffffffffffffffffffffffffffff',
                        v: 1,
                        part: 1,
                        end: false,
                        r: [],
                        to: [strangerAddr, strangerAddr, ...Array(50).fill(member)],
                    },
                ],
            });
            const r = await (0, http_1.request)(`http://${nodes[1].gossip}`, 'POST', '/peer/v1/changes', body, {
                'x-patina-cluster': '0',
                'x-patina-actor': actor,
                'x-patina-addr': nodes[0].gossip,
            });
            strict_1.default.equal(r.status, 200, r.text);
            await (0, cluster_1.eventually)('the member got it once', 10_000, async () => {
                const now = await pushReceived(nodes[2].http);
                return now - before[2] >= 1 || 'not yet';
            });
            await (0, cluster_1.sleep)(500);
            strict_1.default.equal((await pushReceived(nodes[2].http)) - before[2], 1, 'one copy, not fifty');
            strict_1.default.equal(strangerConnections, 0, 'nothing was sent to an address that is no member');
        }
        finally {
            stranger.close();
        }
    });
    it('reaches the agents below a killed one in the tree, before anyone takes it for down', async () => {
        const killed = nodes[N - 1];
        await killed.kill();
        for (let k = 101; k <= 110; k++)
            await (0, cluster_1.exec)(nodes[1].http, [['INSERT INTO kv (k, v) VALUES (?, ?)', [k, 'pushed']]]);
        const live = nodes.slice(0, N - 1);
        await (0, cluster_1.eventually)('every live agent has the 10 rows', 20_000, async () => {
            const counts = await Promise.all(live.map((n) => (0, cluster_1.rows)(n.http, 'SELECT count(*) FROM kv WHERE k > 100')));
            return counts.every((c) => JSON.stringify(c) === '[[10]]') || JSON.stringify(counts);
        });
    });
});
//# sourceMappingURL=push.test.js.map