"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_perf_hooks_1 = require("node:perf_hooks");
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const line_client_1 = require("../helpers/line-client");
const pg_1 = require("../helpers/pg");
const subscriptions_1 = require("../helpers/subscriptions");
// Live queries under load, driven as a user would: real agents, real sockets, real clients. Timings
// are never asserted as speed; only generous bounds where responsiveness is the behaviour ("answered
// within a second while heavy work runs", "stopped within a few seconds").
const SCHEMA = 'CREATE TABLE sandwiches (pk INTEGER NOT NULL PRIMARY KEY, sandwich TEXT);\n';
/** One transaction inserting pk from..from+n-1 with `text` as sandwich. */
function insertRows(from, n, text) {
    const values = Array.from({ length: n }, () => '(?, ?)').join(', ');
    const params = [];
    for (let i = 0; i < n; i++)
        params.push(from + i, text);
    return [[`INSERT INTO sandwiches (pk, sandwich) VALUES ${values}`, params]];
}
async function mustWrite(base, statements) {
    const t0 = node_perf_hooks_1.performance.now();
    const r = await (0, http_1.postJson)(base, '/v1/transactions', statements);
    strict_1.default.equal(r.status, 200, r.text.slice(0, 500));
    return node_perf_hooks_1.performance.now() - t0;
}
async function fill(base, rows) {
    for (let at = 0; at < rows; at += 5000)
        await mustWrite(base, insertRows(at, Math.min(5000, rows - at), `s${at}`));
}
/** Whether the agent's end of a TCP connection (local port agentPort, peer port clientPort) is still open. */
function established(agentPort, clientPort) {
    const hex = (n) => n.toString(16).toUpperCase().padStart(4, '0');
    const lines = node_fs_1.default.readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1);
    // Columns: sl local_address rem_address st ...; state 01 is ESTABLISHED.
    return lines.some((l) => {
        const f = l.trim().split(/\s+/);
        return f.length > 3 && f[1].endsWith(`:${hex(agentPort)}`) && f[2].endsWith(`:${hex(clientPort)}`) && f[3] === '01';
    });
}
function subscribeBody(sql, params) {
    return JSON.stringify(params ? [sql, params] : sql);
}
/** Point reads every `everyMs` over HTTP and PostgreSQL until stopped; the slowest answer of each. */
function pointReads(agent, everyMs) {
    let running = true;
    let worstHttp = 0;
    let worstPg = 0;
    let count = 0;
    const client = (0, pg_1.pgClient)(agent.pg.port);
    let failure = null;
    const loop = (async () => {
        await client.connect();
        for (let i = 0; running; i++) {
            const pk = (i * 7919) % 1000;
            let t0 = node_perf_hooks_1.performance.now();
            const r = await (0, http_1.request)(agent.http, 'POST', '/v1/queries', JSON.stringify(['SELECT sandwich FROM sandwiches WHERE pk = ?', [pk]]));
            worstHttp = Math.max(worstHttp, node_perf_hooks_1.performance.now() - t0);
            strict_1.default.equal(r.status, 200, r.text);
            t0 = node_perf_hooks_1.performance.now();
            const q = await client.query('SELECT sandwich FROM sandwiches WHERE pk = $1', [pk]);
            worstPg = Math.max(worstPg, node_perf_hooks_1.performance.now() - t0);
            strict_1.default.equal(q.rows.length, 1);
            count++;
            await (0, subscriptions_1.sleep)(everyMs);
        }
        await client.end();
    })().catch((err) => {
        failure = err;
    });
    return {
        async stop() {
            running = false;
            await loop;
            if (failure)
                throw failure;
            return { http: worstHttp, pg: worstPg, count };
        },
    };
}
/** An agent with 20,000 rows and four range subscriptions (20,000, 19,000, 18,000, 17,000 rows), each with a fast client. */
async function heavyAgent(opts = {}) {
    const agent = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'], ...opts });
    await fill(agent.http, 20000);
    const bounds = [0, 1000, 2000, 3000];
    const clients = [];
    for (const n of bounds) {
        const c = await line_client_1.LineClient.open(agent.http, 'POST', '/v1/subscriptions', subscribeBody('SELECT pk, sandwich FROM sandwiches WHERE pk >= ?', [n]), { kind: 'fast' });
        clients.push(c);
        await c.until(() => c.eoq, 30000, 'eoq');
        strict_1.default.equal(c.rows, 20000 - n);
    }
    return { agent, clients, sizes: bounds.map((n) => 20000 - n) };
}
/** Sends a signal; resolves with the exit code and the milliseconds it took. */
function exitOf(agent) {
    return new Promise((resolve) => agent.proc.once('exit', (code) => resolve({ code, at: node_perf_hooks_1.performance.now() })));
}
describe('live subscriptions under load', function () {
    this.timeout(180000);
    it('20 writes of 1000 rows of 2 KB: a fast client sees all 20,000 changes, a slow one and one that stops reading are cut off by bytes, every write is acknowledged in seconds', async () => {
        const agent = await (0, agent_1.startAgent)({ schema: SCHEMA, config: '[subscriptions]\nclient_buffer_bytes = "2MiB"\n' });
        const clients = [];
        try {
            const sql = 'SELECT pk, sandwich FROM sandwiches WHERE pk >= 10000';
            const fast = await line_client_1.LineClient.open(agent.http, 'POST', '/v1/subscriptions', subscribeBody(sql), { kind: 'fast' });
            clients.push(fast);
            await fast.until(() => fast.eoq, 10000, 'eoq');
            const slow = await line_client_1.LineClient.open(agent.http, 'GET', `/v1/subscriptions/${fast.queryId}`, undefined, {
                kind: 'slow',
                everyMs: 25,
            });
            const stalled = await line_client_1.LineClient.open(agent.http, 'GET', `/v1/subscriptions/${fast.queryId}`, undefined, {
                kind: 'stalled',
            });
            clients.push(slow, stalled);
            await slow.until(() => slow.eoq, 10000, 'eoq of the slow client');
            const text = 'x'.repeat(2048);
            const acks = [];
            for (let t = 0; t < 20; t++)
                acks.push(await mustWrite(agent.http, insertRows(10000 + t * 1000, 1000, text)));
            // Acknowledged in seconds: never held behind the subscriptions' work (30 s in the report).
            for (const [i, ms] of acks.entries())
                strict_1.default.ok(ms < 10000, `write ${i + 1} took ${Math.round(ms)} ms to be acknowledged`);
            await fast.until(() => fast.changes >= 20000, 60000, 'all 20,000 changes at the fast client');
            strict_1.default.equal(fast.changes, 20000);
            strict_1.default.equal(fast.fault, null);
            strict_1.default.equal(fast.error, null);
            strict_1.default.equal(fast.lastChange, 20000);
            await slow.until(() => slow.ended, 60000, 'the slow client cut off');
            strict_1.default.match(String(slow.error), /fell behind: more than 2097152 bytes/);
            strict_1.default.ok(slow.changes < 20000, 'the slow client did not get everything');
            strict_1.default.equal(slow.fault, null, 'what the slow client got before the cut is contiguous');
            // A client that stopped reading never sees its error line: the agent closes its end of the
            // connection (the client, not reading, cannot notice; the kernel's socket table can).
            const agentPort = Number(new URL(agent.http).port);
            const clientPort = stalled.req.socket.localPort;
            const deadline = Date.now() + 30000;
            while (established(agentPort, clientPort) && Date.now() < deadline)
                await (0, subscriptions_1.sleep)(200);
            strict_1.default.ok(!established(agentPort, clientPort), 'the agent closed the connection of the client that stopped reading');
            const h = (await (0, http_1.request)(agent.http, 'GET', '/v1/health')).json;
            strict_1.default.equal(h.subscriptions.clients, 1, 'only the fast client is still listening');
        }
        finally {
            for (const c of clients)
                c.close();
            await agent.dispose();
        }
    });
    it('HTTP and PostgreSQL point reads are answered within a second while 80,000 changes of one UPDATE are matched, and every subscription gets all of them', async () => {
        const { agent, clients, sizes } = await heavyAgent();
        const bounds = sizes.map((n) => 20000 - n);
        try {
            const reads = pointReads(agent, 10);
            await (0, subscriptions_1.sleep)(100);
            await mustWrite(agent.http, [["UPDATE sandwiches SET sandwich = 'new' || pk"]]);
            const acked = node_perf_hooks_1.performance.now();
            for (const [i, c] of clients.entries())
                await c.until(() => c.changes >= 20000 - bounds[i], 120000, `all changes of subscription ${i}`);
            const matchedMs = node_perf_hooks_1.performance.now() - acked;
            const { http: worstHttp, pg: worstPg, count } = await reads.stop();
            for (const [i, c] of clients.entries()) {
                strict_1.default.equal(c.changes, 20000 - bounds[i]);
                strict_1.default.equal(c.fault, null);
            }
            strict_1.default.ok(count > 0, 'point reads ran');
            strict_1.default.ok(worstHttp < 1000, `an HTTP point read waited ${Math.round(worstHttp)} ms (matching took ${Math.round(matchedMs)} ms)`);
            strict_1.default.ok(worstPg < 1000, `a PostgreSQL point read waited ${Math.round(worstPg)} ms (matching took ${Math.round(matchedMs)} ms)`);
        }
        finally {
            for (const c of clients)
                c.close();
            await agent.dispose();
        }
    });
    it('refuses a write with 503 and Retry-After (HTTP) or 53000 (PostgreSQL) while the matcher is behind, keeps the connection, and takes it once caught up', async () => {
        // No wait before the refusal: it does not depend on how fast this machine matches.
        const { agent, clients, sizes } = await heavyAgent({
            config: '[subscriptions]\nmax_backlog_rows = 1000\nadmit_wait_seconds = 0\n',
        });
        const pg = (0, pg_1.pgClient)(agent.pg.port);
        try {
            await pg.connect();
            await mustWrite(agent.http, [["UPDATE sandwiches SET sandwich = 'new' || pk"]]);
            // 80,000 changes are being matched, and 20,000 changed rows wait.
            const r = await (0, http_1.postJson)(agent.http, '/v1/transactions', [["INSERT INTO sandwiches VALUES (99999, 'late')"]]);
            strict_1.default.equal(r.status, 503, r.text);
            strict_1.default.equal(r.headers['retry-after'], '1');
            strict_1.default.match(r.json.error, /20000 written rows are waiting to be matched against live subscriptions \(subscriptions.max_backlog_rows is 1000\)/);
            // The PG port holds writes back the same way: an autocommit write and a block's write fail
            // with 53000, nothing is written, and the session goes on.
            const busy = async (sql) => {
                const err = (await pg.query(sql).then(() => null, (e) => e));
                strict_1.default.ok(err, `${sql} was taken while the matcher was behind`);
                strict_1.default.equal(err.code, '53000', err.message);
                strict_1.default.match(err.message ?? '', /written rows are waiting to be matched against live subscriptions \(subscriptions.max_backlog_rows is 1000\); retry after 1 s/);
            };
            await busy("INSERT INTO sandwiches VALUES (99998, 'late pg')");
            await pg.query('BEGIN');
            await busy("INSERT INTO sandwiches VALUES (99998, 'late pg')");
            await pg.query('ROLLBACK');
            strict_1.default.deepEqual((await pg.query('SELECT count(*) AS n FROM sandwiches WHERE pk >= 99998')).rows, [{ n: '0' }]);
            for (const [i, c] of clients.entries())
                await c.until(() => c.changes >= sizes[i], 120000, `all changes of subscription ${i}`);
            await mustWrite(agent.http, [["INSERT INTO sandwiches VALUES (99999, 'late')"]]);
            await pg.query("INSERT INTO sandwiches VALUES (99998, 'late pg')");
            for (const c of clients)
                await c.until(() => c.changes === sizes[clients.indexOf(c)] + 2, 10000, 'the late inserts');
            const h = (await (0, http_1.request)(agent.http, 'GET', '/v1/health')).json;
            strict_1.default.equal(h.subscriptions.queued_rows, 0);
        }
        finally {
            await pg.end().catch(() => undefined);
            for (const c of clients)
                c.close();
            await agent.dispose();
        }
    });
    it('offered writes much faster than 300 same-SQL subscriptions with a watcher: no reset, only 200 or 503 with Retry-After, and every acknowledged change reaches the watcher', async () => {
        const agent = await (0, agent_1.startAgent)({ schema: SCHEMA, config: '[subscriptions]\nmax_backlog_rows = 50\n' });
        const clients = [];
        try {
            const watcher = await line_client_1.LineClient.open(agent.http, 'POST', '/v1/subscriptions', subscribeBody('SELECT pk FROM sandwiches'), { kind: 'fast' });
            clients.push(watcher);
            await watcher.until(() => watcher.eoq, 10000, 'eoq');
            for (let g = 0; g < 300; g++) {
                // Made, then left without a listener: it lives on (idle_seconds) and is matched all the same.
                const c = await line_client_1.LineClient.open(agent.http, 'POST', '/v1/subscriptions', subscribeBody('SELECT pk, sandwich FROM sandwiches WHERE pk % 300 = ?', [g]), { kind: 'fast' });
                await c.until(() => c.eoq, 10000, 'eoq');
                c.close();
            }
            const total = 1500;
            let next = 0;
            const statuses = new Map();
            const refusals = [];
            const worker = async () => {
                while (next < total) {
                    const pk = next++;
                    for (;;) {
                        // A reset would reject here and fail the test.
                        const r = await (0, http_1.request)(agent.http, 'POST', '/v1/transactions', JSON.stringify([['INSERT INTO sandwiches VALUES (?, ?)', [pk, `s${pk}`]]]));
                        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
                        if (r.status === 200)
                            break;
                        strict_1.default.equal(r.status, 503, r.text);
                        strict_1.default.equal(r.headers['retry-after'], '1');
                        refusals.push(r.text);
                        await (0, subscriptions_1.sleep)(1000);
                    }
                }
            };
            await Promise.all(Array.from({ length: 60 }, worker));
            strict_1.default.deepEqual([...statuses.keys()].filter((s) => s !== 200 && s !== 503), []);
            strict_1.default.equal(statuses.get(200), total);
            await watcher.until(() => watcher.changes >= total, 60000, 'every acknowledged insert at the watcher');
            strict_1.default.equal(watcher.changes, total);
            strict_1.default.equal(watcher.fault, null);
        }
        finally {
            for (const c of clients)
                c.close();
            await agent.dispose();
        }
    });
    it('SIGTERM stops the agent within a few seconds while 80,000 changes are being matched; after a restart every subscription resumes with all its changes', async () => {
        const { agent, clients, sizes } = await heavyAgent();
        try {
            await mustWrite(agent.http, [["UPDATE sandwiches SET sandwich = 'new' || pk"]]);
            const exit = exitOf(agent);
            const t0 = node_perf_hooks_1.performance.now();
            agent.proc.kill('SIGTERM');
            const { code, at } = await exit;
            strict_1.default.equal(code, 0, agent.output);
            strict_1.default.ok(at - t0 < 6000, `stopped in ${Math.round(at - t0)} ms`);
            strict_1.default.match(agent.output, /SIGTERM, stopping/);
            const seen = clients.map((c) => ({ id: c.queryId, last: c.lastChange, changes: c.changes }));
            for (const c of clients)
                c.close();
            await agent.start();
            for (const [i, s] of seen.entries()) {
                const c = await line_client_1.LineClient.open(agent.http, 'GET', `/v1/subscriptions/${s.id}?from=${s.last}`, undefined, { kind: 'fast' }, s.last);
                clients.push(c);
                await c.until(() => s.changes + c.changes >= sizes[i], 120000, `the rest of subscription ${i}'s changes`);
                strict_1.default.equal(s.changes + c.changes, sizes[i]);
                strict_1.default.equal(c.fault, null);
                strict_1.default.equal(c.error, null);
            }
        }
        finally {
            for (const c of clients)
                c.close();
            await agent.dispose();
        }
    });
    it('a second signal stops the agent at once, and what was acknowledged is there after a restart', async () => {
        const { agent, clients } = await heavyAgent();
        try {
            // A client that does not read a large answer holds the clean stop for its grace period (2 s).
            const stalled = await line_client_1.LineClient.open(agent.http, 'POST', '/v1/queries', subscribeBody('SELECT a.pk, b.sandwich FROM sandwiches a, sandwiches b'), { kind: 'stalled' });
            clients.push(stalled);
            await mustWrite(agent.http, [["UPDATE sandwiches SET sandwich = 'new' || pk"]]);
            const exit = exitOf(agent);
            agent.proc.kill('SIGTERM');
            await (0, subscriptions_1.sleep)(300);
            const t1 = node_perf_hooks_1.performance.now();
            agent.proc.kill('SIGINT');
            const { code, at } = await exit;
            strict_1.default.ok(at - t1 < 1000, `stopped ${Math.round(at - t1)} ms after the second signal`);
            strict_1.default.equal(code, 1);
            strict_1.default.match(agent.output, /SIGINT again, stopping now/);
            for (const c of clients)
                c.close();
            await agent.start();
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', "SELECT count(*) FROM sandwiches WHERE sandwich = 'new' || pk");
            strict_1.default.deepEqual(r.lines[1].row[1], [20000]);
        }
        finally {
            for (const c of clients)
                c.close();
            await agent.dispose();
        }
    });
});
//# sourceMappingURL=load.test.js.map