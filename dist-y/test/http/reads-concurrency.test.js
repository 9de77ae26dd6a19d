"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_http_1 = __importDefault(require("node:http"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const http_2 = require("../helpers/http");
const SCHEMA = 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);\n';
/** A read that never ends by itself. */
const FOREVER = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
const MILLION = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000) SELECT x, 'row ' || x AS label FROM c";
/** Starts a request that may take long; `done` turns true when it is answered, `abort()` goes away. */
function longRequest(base, sql) {
    const state = { done: false, abort: () => req.destroy() };
    const req = node_http_1.default.request(new URL('/v1/queries', base), { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false }, (res) => {
        res.resume();
        res.on('end', () => (state.done = true));
    });
    req.on('error', () => (state.done = true));
    req.end(JSON.stringify(sql));
    return state;
}
const health = (agent) => (0, http_2.health)(agent.http);
/** Polls until the agent reports no read running (the worker of a cancelled read was freed). */
async function readsIdle(agent) {
    for (let i = 0; i < 200; i++) {
        const h = await health(agent);
        if (h.reads.busy === 0 && h.reads.waiting === 0)
            return;
        await new Promise((r) => setTimeout(r, 50));
    }
    strict_1.default.fail(`reads still running: ${JSON.stringify(await health(agent))}`);
}
/** A raw POST whose response is counted line by line as it arrives, never held whole. */
function countLines(base, sql) {
    return new Promise((resolve, reject) => {
        const req = node_http_1.default.request(new URL('/v1/queries', base), { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false }, (res) => {
            let rest = '';
            let rows = 0;
            let lastRowid = 0;
            let first = '';
            let last = '';
            let chunks = 0;
            let rowsBeforeEnd = false;
            res.setEncoding('utf8');
            res.on('data', (d) => {
                chunks++;
                const parts = (rest + d).split('\n');
                rest = parts.pop();
                for (const l of parts) {
                    if (first === '')
                        first = l;
                    if (l.startsWith('{"row":[')) {
                        rows++;
                        lastRowid = Number(l.slice(8, l.indexOf(',')));
                        if (lastRowid !== rows)
                            reject(new Error(`rowid ${lastRowid} at row ${rows}`));
                    }
                    else
                        last = l;
                }
                // Rows arrived in more than one piece: the result was streamed, not sent at the end.
                if (chunks > 1 && rows > 0)
                    rowsBeforeEnd = true;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, rows, lastRowid, first, last: rest || last, rowsBeforeEnd }));
            res.on('error', reject);
        });
        req.on('error', reject);
        req.end(JSON.stringify(sql));
    });
}
describe('reads and concurrency', function () {
    this.timeout(60000);
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA });
        const w = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
            [
                "INSERT INTO t (id, v) SELECT value, 'v' || value FROM json_each(?)",
                [JSON.stringify(Array.from({ length: 1000 }, (_, i) => i))],
            ],
        ]);
        strict_1.default.equal(w.status, 200, w.text);
    });
    after(async () => agent.dispose());
    it('answers point reads, writes and health while a long read is running', async () => {
        const slow = longRequest(agent.http, FOREVER);
        // Wait until the long read holds a worker.
        for (let i = 0; i < 100 && (await health(agent)).reads.busy === 0; i++)
            await new Promise((r) => setTimeout(r, 20));
        strict_1.default.equal((await health(agent)).reads.busy, 1);
        for (let round = 0; round < 5; round++) {
            const [p, w] = await Promise.all([
                (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT v FROM t WHERE id = ?', [round]]),
                (0, http_1.postJson)(agent.http, '/v1/transactions', [
                    ['UPDATE t SET v = ? WHERE id = ?', [`updated ${round}`, 500 + round]],
                ]),
            ]);
            strict_1.default.equal(p.status, 200);
            strict_1.default.deepEqual(p.lines[1].row, [1, [`v${round}`]]);
            strict_1.default.equal(w.status, 200, w.text);
            strict_1.default.equal(slow.done, false, 'the point read returned while the long read was still running');
        }
        // A second long read runs beside the first, and point reads still go through.
        const slow2 = longRequest(agent.http, FOREVER);
        for (let i = 0; i < 100 && (await health(agent)).reads.busy < 2; i++)
            await new Promise((r) => setTimeout(r, 20));
        const p = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT count(*) FROM t');
        strict_1.default.deepEqual(p.lines[1].row, [1, [1000]]);
        strict_1.default.equal(slow.done, false);
        strict_1.default.equal(slow2.done, false);
        // The point read sees the writes made meanwhile.
        const u = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT v FROM t WHERE id = 504');
        strict_1.default.deepEqual(u.lines[1].row, [1, ['updated 4']]);
        slow.abort();
        slow2.abort();
        await readsIdle(agent);
    });
    it('frees the worker of a long read whose client goes away', async () => {
        const s = longRequest(agent.http, FOREVER);
        for (let i = 0; i < 100 && (await health(agent)).reads.busy === 0; i++)
            await new Promise((r) => setTimeout(r, 20));
        strict_1.default.equal((await health(agent)).reads.busy, 1);
        s.abort();
        await readsIdle(agent);
        strict_1.default.equal(s.done, true);
    });
    it('streams a 1M-row result, every row once with rowids 1..n', async () => {
        const r = await countLines(agent.http, MILLION);
        strict_1.default.equal(r.status, 200);
        strict_1.default.equal(r.first, '{"columns":["x","label"]}');
        strict_1.default.equal(r.rows, 1_000_000);
        strict_1.default.equal(r.lastRowid, 1_000_000);
        strict_1.default.match(r.last, /^\{"eoq":\{"time":[0-9.e-]+\}\}$/);
        strict_1.default.ok(r.rowsBeforeEnd, 'rows arrived as they were read');
    });
    it('shows the first rows of a large result before the result is complete', async () => {
        const s = await (0, http_1.openStream)(agent.http, 'POST', '/v1/queries', JSON.stringify(MILLION));
        await s.count(2);
        strict_1.default.equal(s.ended, false, 'the response is still open when the first row arrives');
        strict_1.default.deepEqual(s.events[1], { row: [1, [1, 'row 1']] });
        s.close();
    });
    it('stays responsive while a client stops reading a large result, and frees the read when it goes', async () => {
        const s = await (0, http_1.openStream)(agent.http, 'POST', '/v1/queries', JSON.stringify(MILLION.replace('1000000', '100000000')));
        await s.count(2);
        s.res.pause(); // reads no more; the agent must not buffer the rest
        const before = (await health(agent)).reads.busy;
        for (let i = 0; i < 10; i++) {
            const p = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT v FROM t WHERE id = ?', [i]]);
            strict_1.default.deepEqual(p.lines[1].row, [1, [`v${i}`]]);
        }
        const w = await (0, http_1.postJson)(agent.http, '/v1/transactions', ["UPDATE t SET v = 'during stall' WHERE id = 999"]);
        strict_1.default.equal(w.status, 200);
        strict_1.default.ok(before >= 1);
        s.close();
        for (let i = 0; i < 200; i++) {
            if ((await health(agent)).reads.busy < before)
                break;
            await new Promise((r) => setTimeout(r, 50));
        }
        strict_1.default.ok((await health(agent)).reads.busy < before, 'the stalled read was cancelled once its client went');
    });
    it('runs many concurrent point reads, all answered correctly', async () => {
        const rs = await Promise.all(Array.from({ length: 64 }, (_, i) => (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT id, v FROM t WHERE id = ?', [i * 7]])));
        rs.forEach((r, i) => {
            strict_1.default.equal(r.status, 200, r.text);
            strict_1.default.deepEqual(r.lines[1].row[1][0], i * 7);
        });
    });
    it('ends with no read running', async () => {
        await readsIdle(agent);
    });
});
//# sourceMappingURL=reads-concurrency.test.js.map