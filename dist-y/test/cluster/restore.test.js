"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const cluster_1 = require("../helpers/cluster");
const cli_1 = require("../helpers/cli");
const http_1 = require("../helpers/http");
async function actorOf(base) {
    const r = await (0, http_1.request)(base, 'GET', '/v1/sync/status');
    return r.json.actor_id;
}
// A restored agent gets a new actor id and keeps the backup's actor as an origin: it must converge
// with the cluster (fetching what its old self wrote after the backup from the peers that have it).
describe('replication after a restore', function () {
    this.timeout(180_000);
    let c;
    let tmp;
    before(async () => {
        tmp = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-restore-'));
        c = await cluster_1.TestCluster.start(2, { schema: cluster_1.SCHEMA });
    });
    after(async () => {
        await c?.dispose();
        node_fs_1.default.rmSync(tmp, { recursive: true, force: true });
    });
    it('a restored agent rejoins under a new actor id, gets what its old self wrote after the backup, and converges', async () => {
        const [a, b] = c.nodes;
        for (let i = 1; i <= 5; i++)
            await (0, cluster_1.exec)(a.http, [[`INSERT INTO kv (k, v) VALUES (?, 'before backup')`, [i]]]);
        await (0, cluster_1.converged)(c.nodes, ['kv']);
        const oldActor = await actorOf(a.http);
        const file = node_path_1.default.join(tmp, 'a.db');
        const bk = await (0, cli_1.runCli)(['backup', file, '--api-addr', a.http.replace('http://', '')], { timeoutMs: 60_000 });
        strict_1.default.equal(bk.code, 0, bk.stderr);
        // Written by A after the backup: the backup lacks them, B has them.
        for (let i = 6; i <= 10; i++)
            await (0, cluster_1.exec)(a.http, [[`INSERT INTO kv (k, v) VALUES (?, 'after backup')`, [i]]]);
        await (0, cluster_1.exec)(b.http, [["INSERT INTO kv (k, v) VALUES (100, 'from b')"]]);
        await (0, cluster_1.converged)(c.nodes, ['kv']);
        await a.agent.stop();
        const r = await (0, cli_1.runCli)(['restore', file, '--db-path', a.agent.dbPath]);
        strict_1.default.equal(r.code, 0, r.stderr);
        strict_1.default.match(r.stdout, new RegExp(`the backup's actor ${oldActor} \\(versions 1\\.\\.5\\) is kept as a remote origin`));
        await a.start();
        const newActor = await actorOf(a.http);
        strict_1.default.notEqual(newActor, oldActor);
        await (0, cluster_1.converged)(c.nodes, ['kv']);
        strict_1.default.equal((await (0, cluster_1.rows)(a.http, 'SELECT count(*) FROM kv'))[0][0], 11);
        const mine = (await (0, cluster_1.syncStatus)(a.http)).origins.find((o) => o.actor_id === oldActor);
        strict_1.default.equal(mine?.head, 10, 'the old actor is an origin whose versions 6..10 came by sync');
        // Its new writes reach B under the new actor id, numbered from 1.
        const w = await (0, cluster_1.exec)(a.http, [["UPDATE kv SET v = 'restored a' WHERE k = 1"]]);
        strict_1.default.equal(w.version, 1);
        await (0, cluster_1.converged)(c.nodes, ['kv']);
        const onB = (await (0, cluster_1.syncStatus)(b.http)).origins.find((o) => o.actor_id === newActor);
        strict_1.default.equal(onB?.head, 1);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(b.http, 'SELECT v FROM kv WHERE k = 1'), [['restored a']]);
    });
    it('a backup restored onto a new empty agent catches up by sync', async () => {
        const [, b] = c.nodes;
        const file = node_path_1.default.join(tmp, 'b.db');
        const bk = await (0, cli_1.runCli)(['backup', file, '--api-addr', b.http.replace('http://', '')], { timeoutMs: 60_000 });
        strict_1.default.equal(bk.code, 0, bk.stderr);
        for (let i = 200; i < 220; i++)
            await (0, cluster_1.exec)(b.http, [[`INSERT INTO kv (k, v) VALUES (?, 'after b backup')`, [i]]]);
        const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-restored-'));
        const r = await (0, cli_1.runCli)(['restore', file, '--db-path', node_path_1.default.join(dir, 'patina.db')]);
        strict_1.default.equal(r.code, 0, r.stderr);
        const n = await c.add([], dir);
        strict_1.default.notEqual(await actorOf(n.http), await actorOf(b.http));
        await (0, cluster_1.converged)(c.nodes, ['kv', 'pairs']);
        strict_1.default.equal((await (0, cluster_1.rows)(n.http, "SELECT count(*) FROM kv WHERE v = 'after b backup'"))[0][0], 20);
        await (0, cluster_1.eventually)('the new agent reports no lag', 20_000, async () => {
            const h = (await (0, http_1.request)(n.http, 'GET', '/v1/health')).json;
            return (h.replication_lag_versions === 0 && h.replication_lag_seconds === 0) || JSON.stringify(h);
        });
    });
});
//# sourceMappingURL=restore.test.js.map