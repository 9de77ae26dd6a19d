"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Point-select throughput through POST /v1/queries on a real agent process, against the same
// statement run in-process with better-sqlite3 and against a bare node:http server returning the
// same NDJSON bytes (driven by the same client code); and the agent's peak RSS (agent plus its read
// worker processes) while a client streams a 1M-row result, against the idle agent's RSS.
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_http_1 = __importDefault(require("node:http"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const agent_1 = require("../test/helpers/agent");
const http_1 = require("../test/helpers/http");
const util_1 = require("./util");
const ROWS = 10_000;
const CONNECTIONS = 16;
const ROUNDS = 3;
const ROUND_MS = 2000;
const SQL = 'SELECT id, v FROM t WHERE id = ?';
const MILLION = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000) SELECT x, 'row ' || x AS label FROM c";
// ---- the bare server, run in its own process like the agent ----
if (process.argv[2] === 'bare-server') {
    const body = Buffer.from(process.argv[3], 'base64');
    const server = node_http_1.default.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
            res.writeHead(200, { 'content-type': 'application/x-ndjson', 'content-length': body.length });
            res.end(body);
        });
    });
    server.keepAliveTimeout = 65_000;
    server.listen(0, '127.0.0.1', () => process.send(server.address().port));
}
else {
    void main().then(() => process.exit(0), (err) => {
        console.error(err);
        process.exit(1);
    });
}
/** Requests per second: CONNECTIONS keep-alive clients posting point selects for `ms`. */
function drive(base, ms) {
    return (0, util_1.postLoop)(base, '/v1/queries', CONNECTIONS, ms, () => `["${SQL}",[${1 + Math.floor(Math.random() * ROWS)}]]`);
}
/** The same statement in-process: statements per second for `ms`. */
function inProcess(dbPath, ms) {
    const db = new better_sqlite3_1.default(dbPath, { readonly: true });
    db.defaultSafeIntegers(true);
    const st = db.prepare(SQL).raw(true);
    let n = 0;
    const t0 = performance.now();
    const end = t0 + ms;
    while (performance.now() < end) {
        for (let i = 0; i < 256; i++)
            st.get(1 + Math.floor(Math.random() * ROWS));
        n += 256;
    }
    const secs = (performance.now() - t0) / 1000;
    db.close();
    return n / secs;
}
/** The agent's process and its children (the read workers). */
function processTree(pid) {
    const out = [pid];
    for (const tid of node_fs_1.default.readdirSync(`/proc/${pid}/task`)) {
        let kids = '';
        try {
            kids = node_fs_1.default.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
        }
        catch {
            continue;
        }
        for (const k of kids.split(/\s+/).filter(Boolean))
            out.push(...processTree(Number(k)));
    }
    return out;
}
/** Sum over the agent's processes of a /proc status field (VmRSS now, VmHWM peak), in MiB. */
function memory(pid, field) {
    let kb = 0;
    for (const p of processTree(pid)) {
        try {
            const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(node_fs_1.default.readFileSync(`/proc/${p}/status`, 'utf8'));
            if (m)
                kb += Number(m[1]);
        }
        catch {
            // the process went away meanwhile
        }
    }
    return kb / 1024;
}
function field(pid, name) {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(node_fs_1.default.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
}
const rssOf = (pid) => field(pid, 'VmRSS');
const hwmOf = (pid) => field(pid, 'VmHWM');
/** Streams the 1M-row result, reading as fast as it comes (or pausing, to play a slow client). */
function stream(base, opts = {}) {
    return new Promise((resolve, reject) => {
        const req = node_http_1.default.request(new URL('/v1/queries', base), { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
            let bytes = 0;
            let rows = 0;
            let paused = false;
            res.on('data', (d) => {
                bytes += d.length;
                for (let i = d.indexOf(10); i >= 0; i = d.indexOf(10, i + 1))
                    rows++;
                if (!paused && opts.pauseAfterBytes !== undefined && bytes >= opts.pauseAfterBytes) {
                    paused = true;
                    res.pause();
                    setTimeout(() => res.resume(), opts.pauseMs ?? 2000);
                }
            });
            res.on('end', () => resolve({ rows: rows - 2, bytes }));
            res.on('error', reject);
        });
        req.on('error', reject);
        req.end(JSON.stringify(MILLION));
    });
}
async function main() {
    const agent = await new agent_1.AgentProcess({
        schema: 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);\n',
    }).start();
    const bare = { proc: null };
    try {
        const pid = agent.proc.pid;
        await new Promise((r) => setTimeout(r, 500)); // the first read workers finish starting
        const idle = memory(pid, 'VmRSS');
        // ---- RSS while a client streams 1M rows ----
        const idleAgentOnly = rssOf(pid);
        let peakNow = idle;
        const sampler = setInterval(() => (peakNow = Math.max(peakNow, memory(pid, 'VmRSS'))), 25);
        const t0 = performance.now();
        const fast = await stream(agent.http);
        const streamSecs = (performance.now() - t0) / 1000;
        const fastPeak = peakNow;
        peakNow = 0;
        const slow = await stream(agent.http, { pauseAfterBytes: 4 * 1024 * 1024, pauseMs: 2000 });
        clearInterval(sampler);
        const hwm = memory(pid, 'VmHWM');
        if (fast.rows !== 1_000_000 || slow.rows !== 1_000_000)
            throw new Error(`streamed ${fast.rows} and ${slow.rows} rows`);
        process.stdout.write(`1M-row stream: ${(0, util_1.fmt)(fast.bytes / 1024 / 1024)} MiB of NDJSON in ${(0, util_1.fmt)(streamSecs)} s (${(0, util_1.fmt)(1_000_000 / streamSecs)} rows/s)\n`);
        (0, util_1.report)('agent RSS while a client streams 1M rows (sampled peak, agent + read workers)', fastPeak, 'MiB', 'idle agent RSS', idle);
        (0, util_1.report)('agent RSS while a client stalls 2 s after 4 MiB of a 1M-row result (sampled peak)', peakNow, 'MiB', 'idle agent RSS', idle);
        (0, util_1.report)('agent peak RSS over both streams (sum of VmHWM, agent + read workers)', hwm, 'MiB', 'idle agent RSS', idle);
        (0, util_1.report)('  of which the agent process alone (VmHWM)', hwmOf(pid), 'MiB', 'idle agent process alone', idleAgentOnly);
        // ---- point selects per second ----
        const values = Array.from({ length: ROWS }, (_, i) => i + 1);
        const w = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
            ["INSERT INTO t (id, v) SELECT value, 'value ' || value FROM json_each(?)", [JSON.stringify(values)]],
        ]);
        if (w.status !== 200)
            throw new Error(w.text);
        const sample = await (0, http_1.postJson)(agent.http, '/v1/queries', [SQL, [4242]]);
        bare.proc = (0, node_child_process_1.fork)(__filename, ['bare-server', Buffer.from(sample.text).toString('base64')], {
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        const barePort = await new Promise((r) => bare.proc.once('message', (m) => r(m)));
        const bareBase = `http://127.0.0.1:${barePort}`;
        await drive(agent.http, 1000); // warm-up: read workers spawned, statements prepared
        await drive(bareBase, 500);
        const a = [];
        const b = [];
        const s = [];
        for (let r = 0; r < ROUNDS; r++) {
            a.push(await drive(agent.http, ROUND_MS));
            b.push(await drive(bareBase, ROUND_MS));
            s.push(inProcess(agent.dbPath, ROUND_MS / 2));
        }
        process.stdout.write(`point select, ${CONNECTIONS} keep-alive connections, median of ${ROUNDS} rounds of ${ROUND_MS / 1000} s; ${(0, util_1.fmt)(sample.text.length)} bytes of NDJSON per answer\n`);
        (0, util_1.report)('agent POST /v1/queries', (0, util_1.median)(a), 'req/s', 'bare node:http server, same bytes', (0, util_1.median)(b));
        (0, util_1.report)('agent POST /v1/queries', (0, util_1.median)(a), 'req/s', 'same statement in-process (better-sqlite3)', (0, util_1.median)(s));
        const after = memory(pid, 'VmRSS');
        (0, util_1.report)(`agent RSS after the throughput rounds (agent + ${processTree(pid).length - 1} read workers)`, after, 'MiB', 'idle agent RSS', idle);
        await new Promise((r) => setTimeout(r, 32_000)); // idle read workers beyond the minimum are stopped after 30 s
        (0, util_1.report)(`agent RSS 32 s later (agent + ${processTree(pid).length - 1} read workers)`, memory(pid, 'VmRSS'), 'MiB', 'idle agent RSS', idle);
    }
    finally {
        bare.proc?.kill('SIGKILL');
        await agent.dispose();
    }
}
//# sourceMappingURL=http.bench.js.map