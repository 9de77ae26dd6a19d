"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const cluster_1 = require("../helpers/cluster");
const http_1 = require("../helpers/http");
/** `n` one-row transactions on `base`, `parallel` at a time, keys from `first`. */
async function writeMany(base, first, n, parallel = 16) {
    let next = first;
    const end = first + n;
    await Promise.all(Array.from({ length: parallel }, async () => {
        while (next < end) {
            const k = next++;
            await (0, cluster_1.exec)(base, [
                [
                    'INSERT INTO kv (k, v, n) VALUES (?, ?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v, n = excluded.n',
                    [k, `v${k}`, k],
                ],
            ]);
        }
    }));
}
describe('replication through faults', function () {
    this.timeout(120_000);
    let c;
    before(async () => {
        c = await cluster_1.TestCluster.start(3, { schema: cluster_1.SCHEMA });
    });
    after(async () => c?.dispose());
    it('catches up an agent killed with SIGKILL while thousands of changesets were written, once restarted', async () => {
        const [a, b, cc] = c.nodes;
        await (0, cluster_1.exec)(a.http, [['INSERT INTO kv (k, v) VALUES (1, ?)', ['before']]]);
        await (0, cluster_1.converged)(c.nodes, ['kv']);
        await cc.agent.kill();
        await Promise.all([writeMany(a.http, 10_000, 1500), writeMany(b.http, 20_000, 1500)]);
        await (0, cluster_1.eventually)('the killed agent is seen down', 15_000, async () => (await (0, cluster_1.members)(a.http)).some((m) => m.state === 'down') || 'not yet');
        await cc.start();
        await (0, cluster_1.converged)(c.nodes, ['kv'], 60_000);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(cc.http, 'SELECT count(*) FROM kv'), [[3001]]);
        await (0, cluster_1.eventually)('the restarted agent is alive again for its peers', 15_000, async () => (await (0, cluster_1.members)(a.http)).every((m) => m.state === 'alive') || 'not yet');
    });
    it('brings an agent started empty up to date with a loaded cluster', async () => {
        const d = await c.add();
        await (0, cluster_1.converged)(c.nodes, ['kv', 'pairs'], 60_000);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(d.http, 'SELECT count(*) FROM kv'), [[3001]]);
        const st = await (0, cluster_1.syncStatus)(d.http);
        strict_1.default.equal(st.gaps, 0);
    });
    it('catches up a peer whose traffic a proxy dropped, after the cut heals', async () => {
        const [a, b, cc] = c.nodes;
        c.cut(cc);
        await (0, cluster_1.exec)(a.http, [['INSERT INTO kv (k, v) VALUES (40, ?)', ['written during the cut on a']]]);
        await (0, cluster_1.exec)(cc.http, [['INSERT INTO kv (k, v) VALUES (41, ?)', ['written during the cut on c']]]);
        await writeMany(b.http, 30_000, 300);
        await (0, cluster_1.eventually)('the cut-off agent is seen down', 20_000, async () => {
            const m = await (0, cluster_1.members)(a.http);
            return m.some((x) => x.addr === cc.proxy.addr && x.state === 'down') || JSON.stringify(m);
        });
        // Nothing crosses the cut.
        strict_1.default.deepEqual(await (0, cluster_1.rows)(cc.http, 'SELECT k FROM kv WHERE k = 40'), []);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(a.http, 'SELECT k FROM kv WHERE k = 41'), []);
        c.heal(cc);
        await (0, cluster_1.converged)(c.nodes, ['kv'], 60_000);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(a.http, 'SELECT v FROM kv WHERE k = 41'), [['written during the cut on c']]);
    });
    it('defers a changeset for a table this agent does not have yet, and merges it once its schema catches up', async () => {
        const [a, b] = c.nodes;
        const extra = cluster_1.SCHEMA + '\nCREATE TABLE later (id INTEGER NOT NULL PRIMARY KEY, note TEXT);\n';
        node_fs_1.default.writeFileSync(node_path_1.default.join(a.agent.dir, 'schema.sql'), extra);
        strict_1.default.equal((await (0, http_1.request)(a.http, 'POST', '/v1/admin/reload')).status, 200);
        await (0, cluster_1.exec)(a.http, [
            ['INSERT INTO later (id, note) VALUES (1, ?)', ['ahead']],
            ['INSERT INTO kv (k, v) VALUES (50, ?)', ['same transaction']],
        ]);
        await (0, cluster_1.exec)(a.http, [['INSERT INTO kv (k, v) VALUES (51, ?)', ['next transaction']]]);
        await (0, cluster_1.eventually)('the next transaction arrives', 15_000, async () => (await (0, cluster_1.rows)(b.http, 'SELECT k FROM kv WHERE k = 51')).length === 1 || 'not yet');
        // Whole or nothing: the row of kv written with the unknown table is not there either; a gap says so.
        strict_1.default.deepEqual(await (0, cluster_1.rows)(b.http, 'SELECT k FROM kv WHERE k = 50'), []);
        strict_1.default.ok((await (0, cluster_1.syncStatus)(b.http)).gaps >= 1);
        for (const n of c.nodes.slice(1)) {
            node_fs_1.default.writeFileSync(node_path_1.default.join(n.agent.dir, 'schema.sql'), extra);
            strict_1.default.equal((await (0, http_1.request)(n.http, 'POST', '/v1/admin/reload')).status, 200);
        }
        await (0, cluster_1.converged)(c.nodes, ['kv', 'later'], 30_000);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(b.http, 'SELECT note FROM later'), [['ahead']]);
    });
    it('refuses the changes of an agent with another cluster id', async () => {
        const [a] = c.nodes;
        const stranger = new agent_1.AgentProcess({
            schema: cluster_1.SCHEMA,
            config: `[gossip]\naddr = "127.0.0.1:0"\ncluster_id = 7\nbootstrap = ["${a.proxy.addr}"]\n`,
        });
        try {
            await stranger.start();
            await (0, cluster_1.exec)(stranger.http, [['INSERT INTO kv (k, v) VALUES (60, ?)', ['stranger']]]);
            await (0, cluster_1.exec)(a.http, [['INSERT INTO kv (k, v) VALUES (61, ?)', ['member']]]);
            await (0, cluster_1.sleep)(3000);
            strict_1.default.deepEqual(await (0, cluster_1.rows)(a.http, 'SELECT k FROM kv WHERE k = 60'), []);
            strict_1.default.deepEqual(await (0, cluster_1.rows)(stranger.http, 'SELECT k FROM kv WHERE k >= 61'), []);
            strict_1.default.deepEqual(await (0, cluster_1.members)(stranger.http), []);
            strict_1.default.ok((await (0, cluster_1.members)(a.http)).every((m) => m.state === 'alive'));
            strict_1.default.match(stranger.output, /cluster/);
        }
        finally {
            await stranger.dispose();
        }
    });
});
//# sourceMappingURL=faults.test.js.map