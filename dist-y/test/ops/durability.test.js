"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const SCHEMA = 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT, b BLOB);\n';
describe('durability', function () {
    this.timeout(120000);
    let dir;
    let agent;
    before(() => {
        dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-durability-'));
    });
    after(async () => {
        await agent?.kill();
        node_fs_1.default.rmSync(dir, { recursive: true, force: true });
    });
    it('keeps every acknowledged write across a SIGKILL right after the acknowledgements', async () => {
        agent = await new agent_1.AgentProcess({ dir, schema: SCHEMA }).start();
        const n = 300;
        const acked = [];
        // Many small transactions, 16 at a time, as concurrent clients would send them.
        for (let i = 0; i < n; i += 16) {
            const batch = Array.from({ length: Math.min(16, n - i) }, (_, k) => i + k);
            const rs = await Promise.all(batch.map((id) => (0, http_1.postJson)(agent.http, '/v1/transactions', [
                ['INSERT INTO t (id, v, b) VALUES (?, ?, ?)', [id, `row ${id}`, [id % 256, 1, 2]]],
            ])));
            rs.forEach((r, k) => {
                strict_1.default.equal(r.status, 200, r.text);
                acked.push(batch[k]);
            });
        }
        // One larger transaction last, acknowledged just before the kill.
        const big = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
            [
                "INSERT INTO t (id, v) SELECT 100000 + value, 'bulk' FROM json_each(?)",
                [JSON.stringify(Array.from({ length: 2000 }, (_, i) => i))],
            ],
        ]);
        strict_1.default.equal(big.status, 200, big.text);
        await agent.kill();
        strict_1.default.ok(node_fs_1.default.existsSync(agent.dbPath + '-wal'), 'the WAL was left as it was: the agent had no chance to checkpoint');
        agent = await new agent_1.AgentProcess({ dir, schema: SCHEMA }).start();
        const r = await (0, http_1.postJson)(agent.http, '/v1/queries', "SELECT count(*), sum(id < 100000), sum(v = 'bulk') FROM t");
        strict_1.default.deepEqual(r.lines[1].row, [1, [n + 2000, n, 2000]]);
        const some = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT v, b FROM t WHERE id = ?', [257]]);
        strict_1.default.deepEqual(some.lines[1].row, [1, ['row 257', [1, 1, 2]]]);
    });
    it('loses no acknowledged write when killed while writes are still arriving', async () => {
        const n = 200;
        const acked = [];
        let killed = false;
        const writes = Array.from({ length: n }, (_, i) => (0, http_1.postJson)(agent.http, '/v1/transactions', [['INSERT INTO t (id, v) VALUES (?, ?)', [200000 + i, 'racing']]]).then((r) => {
            if (r.status === 200)
                acked.push(200000 + i);
            if (acked.length === 50 && !killed) {
                killed = true;
                agent.proc.kill('SIGKILL');
            }
        }, () => undefined));
        await Promise.all(writes);
        await agent.kill();
        strict_1.default.ok(acked.length >= 50);
        agent = await new agent_1.AgentProcess({ dir, schema: SCHEMA }).start();
        const r = await (0, http_1.postJson)(agent.http, '/v1/queries', "SELECT id FROM t WHERE v = 'racing'");
        const present = new Set(r.lines.slice(1, -1).map((e) => e.row[1][0]));
        const lost = acked.filter((id) => !present.has(id));
        strict_1.default.deepEqual(lost, [], 'acknowledged writes missing after the restart');
    });
    it('starts the WAL over while writes never pause, and loses none of them across a SIGKILL', async () => {
        // About 400 MB of WAL frames (6,000 rows of 64 KiB) from 16 writers back to back: without the WAL
        // starting over (src/engine/checkpoint-worker.ts) the file grows by all of it, and without end.
        const n = 6000;
        let next = 0;
        let largest = 0;
        const wal = `${agent.dbPath}-wal`;
        // The WAL header's checkpoint sequence number (bytes 12..15) goes up each time the WAL starts over.
        const restarts = () => {
            const fd = node_fs_1.default.openSync(wal, 'r');
            try {
                const head = Buffer.alloc(16);
                node_fs_1.default.readSync(fd, head, 0, 16, 0);
                return head.readUInt32BE(12);
            }
            finally {
                node_fs_1.default.closeSync(fd);
            }
        };
        const before = restarts();
        await Promise.all(Array.from({ length: 16 }, async () => {
            while (next < n) {
                const id = 300000 + next++;
                const r = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
                    ["INSERT INTO t (id, v, b) VALUES (?, 'unpaused', randomblob(65536))", [id]],
                ]);
                strict_1.default.equal(r.status, 200, r.text);
                largest = Math.max(largest, node_fs_1.default.statSync(wal).size);
            }
        }));
        // Before, it never did (0 times, the file reached about 540 MiB); the copy into the database file
        // runs at the disk's pace, so how often it does here depends on the machine.
        const started = restarts() - before;
        strict_1.default.ok(started >= 1, `the WAL never started over while ~400 MiB were written (its file reached ${(largest / 1048576).toFixed(0)} MiB)`);
        await agent.kill();
        agent = await new agent_1.AgentProcess({ dir, schema: SCHEMA }).start();
        const r = await (0, http_1.postJson)(agent.http, '/v1/queries', "SELECT count(*), sum(length(b)), min(id), max(id), count(DISTINCT id) FROM t WHERE v = 'unpaused'");
        strict_1.default.deepEqual(r.lines[1].row, [1, [n, n * 65536, 300000, 300000 + n - 1, n]]);
    });
});
//# sourceMappingURL=durability.test.js.map