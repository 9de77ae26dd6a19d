"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const agent_1 = require("../helpers/agent");
const cluster_1 = require("../helpers/cluster");
const http_1 = require("../helpers/http");
describe('replication between three agents', function () {
    this.timeout(90_000);
    let c;
    before(async () => {
        c = await cluster_1.TestCluster.start(3, { schema: cluster_1.SCHEMA });
        await (0, cluster_1.eventually)('every agent sees two alive peers', 15_000, async () => {
            const ms = await Promise.all(c.nodes.map((n) => (0, cluster_1.members)(n.http)));
            return ms.every((m) => m.length === 2 && m.every((x) => x.state === 'alive')) || JSON.stringify(ms);
        });
    });
    after(async () => c?.dispose());
    it('makes writes on each agent readable on all, 64-bit integers and blobs exact', async () => {
        const [a, b, cc] = c.nodes;
        await (0, cluster_1.exec)(a.http, [
            ['INSERT INTO kv (k, v, n, r, b) VALUES (?, ?, ?, ?, ?)', [1, 'from a', 9223372036854775807n, 1.5, [0, 1, 255]]],
        ]);
        await (0, cluster_1.exec)(b.http, [['INSERT INTO kv (k, v, n, r) VALUES (?, ?, ?, ?)', [2, 'from b', -9223372036854775808n, 3]]]);
        await (0, cluster_1.exec)(cc.http, [['INSERT INTO pairs (a, b, x) VALUES (?, ?, ?)', ['p', 7, 'from c']]]);
        await (0, cluster_1.converged)(c.nodes, ['kv', 'pairs']);
        const got = await (0, cluster_1.rows)(cc.http, 'SELECT k, v, n, r, typeof(r), b FROM kv ORDER BY k');
        strict_1.default.deepEqual(got, [
            [1, 'from a', 9223372036854775807n, 1.5, 'real', [0, 1, 255]],
            [2, 'from b', -9223372036854775808n, 3, 'real', null],
        ]);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(a.http, 'SELECT * FROM pairs'), [['p', 7, 'from c']]);
        // Point reads are answered in-process on a snapshot that the writer's commits end; a merge is
        // such a commit, so a point read that ran before the merge does not hide the merged row after.
        strict_1.default.deepEqual(await (0, cluster_1.rows)(cc.http, 'SELECT v FROM kv WHERE k = 99'), []);
        await (0, cluster_1.exec)(a.http, [["INSERT INTO kv (k, v) VALUES (99, 'merged')"]]);
        let seen = [];
        for (let i = 0; i < 100 && seen.length === 0; i++) {
            seen = await (0, cluster_1.rows)(cc.http, 'SELECT v FROM kv WHERE k = 99');
            if (seen.length === 0)
                await new Promise((r) => setTimeout(r, 100));
        }
        strict_1.default.deepEqual(seen, [['merged']]);
    });
    it('converges concurrent conflicting updates to identical tables; updates of different columns both survive', async () => {
        const [a, b, cc] = c.nodes;
        await (0, cluster_1.exec)(a.http, [['INSERT INTO kv (k, v, n) VALUES (10, ?, 0), (11, ?, 0)', ['x', 'y']]]);
        await (0, cluster_1.converged)(c.nodes, ['kv']);
        await Promise.all([
            (0, cluster_1.exec)(a.http, [
                ['UPDATE kv SET v = ? WHERE k = 10', ['a wins?']],
                ['UPDATE kv SET v = ? WHERE k = 11', ['a']],
            ]),
            (0, cluster_1.exec)(b.http, [['UPDATE kv SET v = ? WHERE k = 10', ['b wins?']], ['UPDATE kv SET n = 42 WHERE k = 11']]),
            (0, cluster_1.exec)(cc.http, [['UPDATE kv SET v = ? WHERE k = 10', ['c wins?']]]),
        ]);
        await (0, cluster_1.converged)(c.nodes, ['kv']);
        const [[v10], [v11, n11]] = [
            (await (0, cluster_1.rows)(a.http, 'SELECT v FROM kv WHERE k = 10'))[0],
            (await (0, cluster_1.rows)(a.http, 'SELECT v, n FROM kv WHERE k = 11'))[0],
        ];
        // The writes race with replication: when all three are concurrent (equal col_versions) the
        // greater value, 'c wins?', wins; when one agent saw another's first, its later write wins.
        // Either way every agent holds the same winner (converged checks that); the tie-break itself
        // is proven deterministically in replication-merge.test.ts.
        strict_1.default.ok(['a wins?', 'b wins?', 'c wins?'].includes(v10), String(v10));
        for (const n of c.nodes)
            strict_1.default.deepEqual(await (0, cluster_1.rows)(n.http, 'SELECT v FROM kv WHERE k = 10'), [[v10]]);
        strict_1.default.deepEqual([v11, n11], ['a', 42]);
    });
    it('lets a delete beat a concurrent update, and a later re-insert beat the delete', async () => {
        const [a, b, cc] = c.nodes;
        await (0, cluster_1.exec)(a.http, [['INSERT INTO kv (k, v) VALUES (20, ?)', ['doomed']]]);
        await (0, cluster_1.converged)(c.nodes, ['kv']);
        await Promise.all([
            (0, cluster_1.exec)(a.http, [['DELETE FROM kv WHERE k = 20']]),
            (0, cluster_1.exec)(b.http, [['UPDATE kv SET v = ?, n = 5 WHERE k = 20', ['updated']]]),
        ]);
        await (0, cluster_1.converged)(c.nodes, ['kv']);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(cc.http, 'SELECT * FROM kv WHERE k = 20'), []);
        await (0, cluster_1.exec)(cc.http, [['INSERT INTO kv (k, v) VALUES (20, ?)', ['back']]]);
        await (0, cluster_1.converged)(c.nodes, ['kv']);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(b.http, 'SELECT v, n FROM kv WHERE k = 20'), [['back', null]]);
    });
    it('shows writes made on one agent to an update stream on another', async () => {
        const [a, b] = c.nodes;
        const stream = await (0, http_1.openStream)(b.http, 'POST', '/v1/updates/kv');
        try {
            strict_1.default.equal(stream.status, 200);
            await (0, cluster_1.exec)(a.http, [['INSERT INTO kv (k, v) VALUES (30, ?)', ['streamed']]]);
            await (0, cluster_1.exec)(a.http, [['DELETE FROM kv WHERE k = 30']]);
            const events = await stream.until((e) => e.length >= 2, 15_000);
            strict_1.default.deepEqual(events.slice(0, 2), [{ notify: ['update', [30]] }, { notify: ['delete', [30]] }]);
        }
        finally {
            stream.close();
        }
    });
    it('replicates a 100,000-row transaction in chunks, applied whole', async () => {
        const [a, b] = c.nodes;
        const body = [
            [
                'WITH RECURSIVE s(i) AS (SELECT 1000 UNION ALL SELECT i + 1 FROM s WHERE i < 100999) INSERT INTO kv (k, v, n) SELECT i, printf(?, i), i * 2 FROM s',
                ['row %d'],
            ],
        ];
        const { version } = await (0, cluster_1.exec)(a.http, body);
        strict_1.default.ok(version);
        // Never a part of it: either none of the rows or all of them.
        await (0, cluster_1.eventually)('100,000 rows on every agent', 60_000, async () => {
            const counts = await Promise.all(c.nodes.map(async (n) => (await (0, cluster_1.rows)(n.http, 'SELECT count(*) FROM kv WHERE k >= 1000'))[0][0]));
            for (const n of counts)
                strict_1.default.ok(n === 0 || n === 100_000, `a partial transaction is visible: ${counts}`);
            return counts.every((n) => n === 100_000) || String(counts);
        });
        strict_1.default.deepEqual(await (0, cluster_1.rows)(b.http, 'SELECT v, n FROM kv WHERE k = 100999'), [['row 100999', 201998]]);
    });
    it('reports members, sync status and health', async () => {
        const [a] = c.nodes;
        await (0, cluster_1.converged)(c.nodes, ['kv', 'pairs']);
        // right after the 100,000-row test a busy peer may be briefly suspect: it answers again soon
        let out = '';
        await (0, cluster_1.eventually)('both peers alive, each probed once', 15_000, async () => {
            out = (0, node_child_process_1.execFileSync)(process.execPath, [agent_1.CLI, 'cluster', 'members', '--api-addr', a.http.replace('http://', '')], {
                encoding: 'utf8',
            });
            return (out.match(/ alive /g)?.length === 2 && (out.match(/\d+\.\d\d ms/g)?.length ?? 0) === 2) || out;
        });
        strict_1.default.match(out, /ADDR\s+ACTOR\s+STATE\s+RTT/);
        const st = (0, node_child_process_1.execFileSync)(process.execPath, [agent_1.CLI, 'sync', 'status', '--api-addr', a.http.replace('http://', '')], {
            encoding: 'utf8',
        });
        strict_1.default.match(st, /\(self\)/);
        strict_1.default.match(st, /gaps: 0/);
        const h = (await (0, http_1.request)(a.http, 'GET', '/v1/health')).json;
        strict_1.default.equal(h.members.length, 2);
        strict_1.default.equal(h.gaps, 0);
        strict_1.default.equal(typeof h.replication_lag_versions, 'number');
        const s = await (0, cluster_1.syncStatus)(a.http);
        strict_1.default.equal(s.origins.length, 3);
    });
});
//# sourceMappingURL=basic.test.js.map