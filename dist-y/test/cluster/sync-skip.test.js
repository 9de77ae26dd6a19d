"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Anti-entropy passes over peers that hold what this agent holds: each agent's heads digest rides on
// its membership messages, and a sync round pulls only from peers heard to differ (or never heard).
// Here the writer pushes nothing (push_max_rows = 0), so its writes reach the others only by sync:
// they must still arrive while idle rounds sync far less than before.
const strict_1 = __importDefault(require("node:assert/strict"));
const cluster_1 = require("../helpers/cluster");
const N = 3;
const stats = async (n) => (await (0, cluster_1.syncStatus)(n.http)).stats;
describe('anti-entropy skips peers whose heads match', function () {
    this.timeout(60_000);
    const nodes = [];
    before(async () => {
        await (0, cluster_1.startMesh)(nodes, N, (i) => `[gossip]\nsync_interval = 0.2\nping_interval = 0.2\n${i === 0 ? 'push_max_rows = 0\n' : ''}`, 20_000);
    });
    after(async () => {
        for (const n of nodes)
            await n.dispose();
    });
    it('syncs less than once a round while idle, and still brings a write that was not pushed', async () => {
        await new Promise((r) => setTimeout(r, 1000));
        const before = await Promise.all(nodes.map(stats));
        await new Promise((r) => setTimeout(r, 2000));
        const after = await Promise.all(nodes.map(stats));
        for (let i = 0; i < N; i++) {
            const rounds = after[i].syncRounds - before[i].syncRounds;
            const synced = after[i].synced - before[i].synced;
            strict_1.default.ok(rounds >= 5, `agent ${i}: ${rounds} sync rounds in 2 s`);
            // without the digests each round pulls from both other agents: 2 syncs a round
            strict_1.default.ok(synced < rounds, `agent ${i}: ${synced} syncs in ${rounds} rounds`);
            strict_1.default.ok(after[i].syncSkipped > before[i].syncSkipped, `agent ${i} skipped none`);
        }
        for (let k = 1; k <= 5; k++)
            await (0, cluster_1.exec)(nodes[0].http, [['INSERT INTO kv (k, v) VALUES (?, ?)', [k, 'synced']]]);
        await (0, cluster_1.eventually)('every agent has the 5 rows', 15_000, async () => {
            const counts = await Promise.all(nodes.map((n) => (0, cluster_1.rows)(n.http, 'SELECT count(*) FROM kv')));
            return counts.every((c) => JSON.stringify(c) === '[[5]]') || JSON.stringify(counts);
        });
        strict_1.default.equal((await stats(nodes[1])).synced > after[1].synced, true);
    });
});
//# sourceMappingURL=sync-skip.test.js.map