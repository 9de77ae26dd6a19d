"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// A schema change on a replicated table of 100,000 rows: `patina reload` adding a nullable column on
// every agent must not make a change per row (a backfill that every agent would then send to all
// others); the agents exchange nothing for it, and a later write of the new column travels as one.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const cluster_1 = require("../helpers/cluster");
const http_1 = require("../helpers/http");
const metrics_1 = require("../helpers/metrics");
const wait_1 = require("../helpers/wait");
const ROWS = 100_000;
const BATCH = 10_000;
/** What moved between agents, from /metrics: changesets merged here, and pushed from here. */
async function traffic(base) {
    const s = await (0, metrics_1.scrape)(base);
    return {
        merged: (0, metrics_1.value)(s, 'patina_replication_changesets_merged_total'),
        pushed: (0, metrics_1.value)(s, 'patina_replication_changesets_pushed_total'),
    };
}
/** Each origin's head version as this agent knows it. */
async function heads(base) {
    return Object.fromEntries((await (0, cluster_1.syncStatus)(base)).origins.map((o) => [o.actor_id, o.head]));
}
describe('a column added on every agent of a cluster', function () {
    this.timeout(180_000);
    let c;
    before(async () => {
        c = await cluster_1.TestCluster.start(2, { schema: cluster_1.SCHEMA });
    });
    after(() => c?.dispose());
    it('sends no change per row: nothing moves for the reload, and a write of the new column is one changeset', async () => {
        const [a, b] = c.nodes;
        for (let first = 1; first <= ROWS; first += BATCH)
            await (0, cluster_1.exec)(a.http, [
                [
                    `INSERT INTO kv (k, v, n) WITH RECURSIVE s(x) AS (SELECT ? UNION ALL SELECT x + 1 FROM s WHERE x < ?) SELECT x, 'row', x FROM s`,
                    [first, first + BATCH - 1],
                ],
            ]);
        await (0, cluster_1.eventually)('every row at b', 120_000, async () => {
            const [[n]] = await (0, cluster_1.rows)(b.http, 'SELECT count(*) FROM kv');
            return Number(n) === ROWS || `${n} rows`;
        });
        await (0, cluster_1.converged)(c.nodes, ['kv'], 60_000);
        const before = await Promise.all(c.nodes.map((n) => traffic(n.http)));
        const headsBefore = await Promise.all(c.nodes.map((n) => heads(n.http)));
        const grown = cluster_1.SCHEMA.replace('b BLOB)', 'b BLOB, note TEXT)');
        strict_1.default.notEqual(grown, cluster_1.SCHEMA);
        for (const n of c.nodes) {
            node_fs_1.default.writeFileSync(node_path_1.default.join(n.agent.dir, 'schema.sql'), grown);
            const r = await (0, http_1.request)(n.http, 'POST', '/v1/admin/reload');
            strict_1.default.equal(r.status, 200, r.text);
        }
        // Several sync rounds (every 2 s) and push opportunities.
        await (0, wait_1.sleep)(6000);
        const after = await Promise.all(c.nodes.map((n) => traffic(n.http)));
        strict_1.default.deepEqual(after, before, 'no changeset was pushed or merged for the reload');
        strict_1.default.deepEqual(await Promise.all(c.nodes.map((n) => heads(n.http))), headsBefore, 'no agent made a version');
        strict_1.default.deepEqual(await (0, cluster_1.rows)(b.http, 'SELECT count(*), count(note) FROM kv'), [[ROWS, 0]]);
        await (0, cluster_1.exec)(a.http, [["UPDATE kv SET note = 'one' WHERE k = 77"]]);
        await (0, cluster_1.eventually)('the write of the new column at b', 20_000, async () => {
            const r = await (0, cluster_1.rows)(b.http, 'SELECT note FROM kv WHERE k = 77');
            return r[0]?.[0] === 'one' || JSON.stringify(r);
        });
        const last = await traffic(b.http);
        strict_1.default.equal(last.merged - after[1].merged, 1, 'b merged exactly one changeset');
        strict_1.default.deepEqual(await (0, cluster_1.rows)(b.http, 'SELECT count(note) FROM kv'), [[1]]);
    });
});
//# sourceMappingURL=schema-growth.test.js.map