"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
// Point reads (one row by its key) are answered on the agent's own thread, the rest by read workers;
// from outside both must look the same.
describe('point reads answered in-process', () => {
    let agent;
    const schema = 'CREATE TABLE kv (k INTEGER NOT NULL PRIMARY KEY, v TEXT);\nCREATE TABLE pair (a TEXT NOT NULL, b INTEGER NOT NULL, v TEXT, PRIMARY KEY (a, b));\n';
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema, args: ['--pg-addr', '127.0.0.1:0'] });
    });
    after(async () => agent.dispose());
    it('see a write acknowledged just before, for single and composite keys', async () => {
        for (let i = 1; i <= 20; i++) {
            const w = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
                ['INSERT INTO kv (k, v) VALUES (?, ?)', [i, `v${i}`]],
                ['INSERT INTO pair VALUES (?, ?, ?)', ['x', i, `p${i}`]],
            ]);
            strict_1.default.equal(w.status, 200, w.text);
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT v FROM kv WHERE k = ?', [i]]);
            strict_1.default.deepEqual(r.lines, [
                { columns: ['v'] },
                { row: [1, [`v${i}`]] },
                { eoq: { time: r.lines[2].eoq.time } },
            ]);
            const p = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT v FROM pair WHERE a = ? AND b = ?', ['x', i]]);
            strict_1.default.deepEqual(p.lines[1], { row: [1, [`p${i}`]] });
        }
    });
    it('do not see a PostgreSQL transaction until it commits, and see it right after', async () => {
        const point = async () => (await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT v FROM kv WHERE k = ?', [500]])).lines.slice(1, -1);
        const client = (0, pg_1.pgClient)(agent.pg.port);
        await client.connect();
        try {
            strict_1.default.deepEqual(await point(), []);
            await client.query('BEGIN');
            await client.query("INSERT INTO kv (k, v) VALUES (500, 'in pg')");
            strict_1.default.deepEqual(await point(), [], 'an uncommitted write is visible to a point read');
            await client.query('COMMIT');
            strict_1.default.deepEqual(await point(), [{ row: [1, ['in pg']] }]);
            await client.query("UPDATE kv SET v = 'again' WHERE k = 500");
            strict_1.default.deepEqual(await point(), [{ row: [1, ['again']] }]);
        }
        finally {
            await client.end();
        }
    });
    it('answer every row of a read by keys that has more than one result row (UNION ALL), over HTTP and PostgreSQL', async () => {
        const w = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
            ['INSERT INTO kv (k, v) VALUES (?, ?)', [701, 'a']],
            ['INSERT INTO kv (k, v) VALUES (?, ?)', [702, 'b']],
        ]);
        strict_1.default.equal(w.status, 200, w.text);
        const sql = 'SELECT v FROM kv WHERE k = ? UNION ALL SELECT v FROM kv WHERE k = ?';
        const r = await (0, http_1.postJson)(agent.http, '/v1/queries', [sql, [701, 702]]);
        strict_1.default.deepEqual(r.lines.slice(1, -1), [{ row: [1, ['a']] }, { row: [2, ['b']] }]);
        const client = (0, pg_1.pgClient)(agent.pg.port);
        await client.connect();
        try {
            const both = await client.query(sql.replace('?', '$1').replace('?', '$2'), [701, 702]);
            strict_1.default.deepEqual(both.rows, [{ v: 'a' }, { v: 'b' }]);
            strict_1.default.deepEqual((await client.query('SELECT v FROM kv WHERE k = $1', [702])).rows, [{ v: 'b' }]);
        }
        finally {
            await client.end();
        }
    });
    it('give an empty result for a missing key, and 64-bit keys exactly', async () => {
        const r = await (0, http_1.request)(agent.http, 'POST', '/v1/queries', '["SELECT k FROM kv WHERE k = ?", [9223372036854775807]]');
        strict_1.default.equal(r.status, 200);
        strict_1.default.equal(r.lines.length, 2);
        const w = await (0, http_1.request)(agent.http, 'POST', '/v1/transactions', '[["INSERT INTO kv (k, v) VALUES (?, ?)", [9223372036854775807, "max"]]]');
        strict_1.default.equal(w.status, 200, w.text);
        const again = await (0, http_1.request)(agent.http, 'POST', '/v1/queries', '["SELECT k, v FROM kv WHERE k = ?", [9223372036854775807]]');
        strict_1.default.match(again.text, /\{"row":\[1,\[9223372036854775807,"max"\]\]\}/);
    });
    it('refuse parameters that do not bind with a 400 naming the fault', async () => {
        const r = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT v FROM kv WHERE k = ?', [1, 2]]);
        strict_1.default.equal(r.status, 400);
        strict_1.default.match(r.json.error, /parameter/i);
    });
    it('show columns added by a schema reload in SELECT *', async () => {
        const before = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT * FROM kv WHERE k = ?', [1]]);
        strict_1.default.deepEqual(before.lines[0], { columns: ['k', 'v'] });
        node_fs_1.default.writeFileSync(node_path_1.default.join(agent.dir, 'schema.sql'), schema.replace('v TEXT);', "v TEXT, w TEXT DEFAULT 'new');"));
        const rl = await (0, http_1.request)(agent.http, 'POST', '/v1/admin/reload');
        strict_1.default.equal(rl.status, 200, rl.text);
        strict_1.default.match(rl.text, /kv\.w/);
        const after = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT * FROM kv WHERE k = ?', [1]]);
        strict_1.default.deepEqual(after.lines.slice(0, 2), [{ columns: ['k', 'v', 'w'] }, { row: [1, [1, 'v1', 'new']] }], after.text);
        // The same through a read worker (a scan, not a point read).
        const scan = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT * FROM kv ORDER BY k LIMIT 1');
        strict_1.default.deepEqual(scan.lines.slice(0, 2), [{ columns: ['k', 'v', 'w'] }, { row: [1, [1, 'v1', 'new']] }], scan.text);
    });
});
//# sourceMappingURL=point-reads.test.js.map