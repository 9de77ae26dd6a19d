"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Writes whose values are written into the SQL text, each text new: the agent's resident memory
// stays bounded over HTTP and over the PostgreSQL simple protocol (before, every distinct text left
// a prepared statement with the compiled capture triggers behind: +430 MB over 20,000 HTTP texts,
// +730 MB over 20,000 PG texts). The figures over minutes are in bench/memory.bench.ts.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const metrics_1 = require("../helpers/metrics");
const pg_1 = require("../helpers/pg");
const SCHEMA = 'CREATE TABLE sandwiches (pk INTEGER NOT NULL PRIMARY KEY, sandwich TEXT, price INTEGER);';
const ROWS = 20_000;
const TEXTS = 20_000;
const BOUND_MB = 100;
function rssMb(pid) {
    const m = /VmRSS:\s+(\d+)/.exec(node_fs_1.default.readFileSync(`/proc/${pid}/status`, 'utf8'));
    strict_1.default.ok(m, 'VmRSS in /proc');
    return Number(m[1]) / 1024;
}
describe('writes with their values in the SQL text', function () {
    this.timeout(180_000);
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\n' });
        for (let i = 0; i < ROWS; i += 2000) {
            const batch = [];
            for (let k = i; k < i + 2000; k++)
                batch.push(['INSERT INTO sandwiches VALUES (?, ?, ?)', [k, `s${k}`, k % 100]]);
            await (0, http_1.write)(agent.http, batch);
        }
    });
    after(() => agent?.dispose());
    /** Runs `n` distinct texts from `from` through `one`, 4 at a time. */
    async function run(from, n, one, lanes = 4) {
        let next = from;
        const lane = async () => {
            while (next < from + n)
                await one(next++);
        };
        await Promise.all(Array.from({ length: lanes }, lane));
    }
    const http = async (k) => {
        const r = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
            `UPDATE sandwiches SET sandwich = 'v${k}', price = ${k % 1000} WHERE pk = ${k % ROWS}`,
        ]);
        strict_1.default.equal(r.status, 200, r.text);
    };
    it(`keep the agent's memory within ${BOUND_MB} MB over ${TEXTS} new texts on HTTP and on PG`, async () => {
        const pg = (0, pg_1.pgClient)(agent.pg.port);
        await pg.connect();
        try {
            const pgOne = async (k) => {
                const r = await pg.query(`UPDATE sandwiches SET sandwich = 'p${k}', price = ${k % 1000} WHERE pk = ${k % ROWS}`);
                strict_1.default.equal(r.rowCount, 1);
            };
            await run(0, 2000, http); // warm up: caches fill, the heap finds its size
            await run(2000, 2000, pgOne, 1);
            const before = rssMb(agent.proc.pid);
            await run(4000, TEXTS, http);
            const afterHttp = rssMb(agent.proc.pid);
            await run(4000 + TEXTS, TEXTS, pgOne, 1);
            const after = rssMb(agent.proc.pid);
            strict_1.default.ok(after - before <= BOUND_MB, `resident memory ${before.toFixed(0)} MB → ${afterHttp.toFixed(0)} MB after HTTP → ${after.toFixed(0)} MB after PG`);
            const last = 4000 + 2 * TEXTS - 1;
            const row = await pg.query(`SELECT sandwich, price FROM sandwiches WHERE pk = ${last % ROWS}`);
            strict_1.default.deepEqual(row.rows, [{ sandwich: `p${last}`, price: String(last % 1000) }]); // int8 comes as a string
        }
        finally {
            await pg.end();
        }
        const m = await (0, metrics_1.scrape)(agent.http);
        strict_1.default.ok((0, metrics_1.value)(m, 'patina_statement_cache_entries{cache="writer"}') <= 256);
        // HTTP texts share an engine statement; PG texts have their literals lifted by the front end
        // (one analysis, one statement for the shape)
        strict_1.default.ok((0, metrics_1.value)(m, 'patina_writes_shared_statement_total') >= TEXTS);
        strict_1.default.ok((0, metrics_1.value)(m, 'patina_pg_analysis_cache_total{result="hit"}') >= TEXTS);
        strict_1.default.ok((0, metrics_1.value)(m, 'patina_pg_analysis_cache_total{result="miss"}') < 100);
    });
    it('run texts whose literals are syntax, ORDER BY positions and refusals as written', async () => {
        // the 8 of a type name cannot be a parameter: the text runs as it is
        await (0, http_1.write)(agent.http, ["UPDATE sandwiches SET sandwich = CAST('42abc' AS UNSIGNED BIG INT(8)) WHERE pk = 1"]);
        await (0, http_1.write)(agent.http, [
            "INSERT INTO sandwiches (pk, sandwich) SELECT pk + 100000, 'copy' FROM sandwiches WHERE pk < 3 ORDER BY 1 DESC",
        ]);
        const r = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT pk, sandwich FROM sandwiches WHERE pk IN (1, 100000, 100002) ORDER BY pk');
        strict_1.default.equal(r.status, 200, r.text);
        strict_1.default.match(r.text, /\{"row":\[1,\[1,"42"\]\]\}/);
        strict_1.default.match(r.text, /\{"row":\[2,\[100000,"copy"\]\]\}/);
        strict_1.default.match(r.text, /\{"row":\[3,\[100002,"copy"\]\]\}/);
        const dup = await (0, http_1.postJson)(agent.http, '/v1/transactions', ["INSERT INTO sandwiches VALUES (5, 'dup', 1)"]);
        strict_1.default.equal(dup.status, 409, dup.text);
        strict_1.default.match(dup.text, /UNIQUE constraint failed: sandwiches\.pk/);
        const bad = await (0, http_1.postJson)(agent.http, '/v1/transactions', ["UPDATE sandwiches SET nope = 'x' WHERE pk = 1"]);
        strict_1.default.equal(bad.status, 400, bad.text);
        strict_1.default.match(bad.text, /no such column: nope/);
    });
});
//# sourceMappingURL=literal-writes-memory.test.js.map