"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Change capture: (1) insert throughput through POST /v1/transactions with capture against the
// same inserts on an agent started with capture off (Agent.start's bench-only switch); (2)
// commit-to-notify latency at 1000 writes/s with 100 open update streams, against the write
// round trip measured in the same run.
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_http_1 = __importDefault(require("node:http"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const node_perf_hooks_1 = require("node:perf_hooks");
const agent_1 = require("./agent");
const util_1 = require("./util");
const now = () => node_perf_hooks_1.performance.timeOrigin + node_perf_hooks_1.performance.now();
function startAgent(capture, commits = false) {
    const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-bench-'));
    const proc = (0, node_child_process_1.fork)(node_path_1.default.join(__dirname, 'capture-agent.js'), [dir, capture, commits ? 'commits' : ''], {
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    return (0, agent_1.whenReady)(proc, dir, /ready (\S+)/);
}
const keepAlive = new node_http_1.default.Agent({ keepAlive: true, maxSockets: 64 });
function post(url, body) {
    return new Promise((resolve, reject) => {
        const req = node_http_1.default.request(url + '/v1/transactions', { method: 'POST', agent: keepAlive, headers: { 'content-type': 'application/json' } }, (res) => {
            res.resume();
            res.on('end', () => res.statusCode === 200 ? resolve(res.statusCode) : reject(new Error(`status ${res.statusCode}`)));
        });
        req.on('error', reject);
        req.end(body);
    });
}
const insert = (id) => JSON.stringify([
    ['INSERT INTO items (id, name, qty, note) VALUES (?, ?, ?, ?)', [id, `item ${id}`, id % 100, 'some note text']],
]);
/** Inserts n rows, one transaction each, `concurrency` requests in flight; rows per second. */
async function throughput(url, first, n, concurrency) {
    let next = first;
    const t0 = node_perf_hooks_1.performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < first + n)
            await post(url, insert(next++));
    }));
    return n / ((node_perf_hooks_1.performance.now() - t0) / 1000);
}
async function throughputFigures() {
    const on = await startAgent('on');
    const off = await startAgent('off');
    const rates = { on: [], off: [] };
    try {
        await throughput(on.url, 1, 500, 8); // warm-up
        await throughput(off.url, 1, 500, 8);
        for (let round = 0; round < 5; round++) {
            const first = 1000 + round * 3000;
            rates.off.push(await throughput(off.url, first, 3000, 8));
            rates.on.push(await throughput(on.url, first, 3000, 8));
        }
    }
    finally {
        await (0, agent_1.stopAgent)(on);
        await (0, agent_1.stopAgent)(off);
    }
    (0, util_1.report)('inserts/s with capture (HTTP, 1 row per transaction, 8 in flight)', (0, util_1.median)(rates.on), 'rows/s', 'without capture', (0, util_1.median)(rates.off));
    (0, util_1.report)('time per insert with capture', 1e6 / (0, util_1.median)(rates.on), 'us', 'without capture', 1e6 / (0, util_1.median)(rates.off));
}
async function latencyFigures() {
    const agent = await startAgent('on', true);
    const commitAt = new Map();
    agent.proc.on('message', (m) => {
        const [id, t] = m;
        commitAt.set(id, t);
    });
    const notifyLatency = [];
    const pending = [];
    const streams = [];
    let received = 0;
    for (let i = 0; i < 100; i++) {
        await new Promise((resolve, reject) => {
            const req = node_http_1.default.request(agent.url + '/v1/updates/items', { method: 'POST', agent: false }, (res) => {
                let buf = '';
                res.setEncoding('utf8');
                res.on('data', (d) => {
                    const t = now();
                    buf += d;
                    let nl;
                    while ((nl = buf.indexOf('\n')) >= 0) {
                        const m = /\[(\d+)\]/.exec(buf.slice(0, nl));
                        buf = buf.slice(nl + 1);
                        if (m) {
                            pending.push([Number(m[1]), t]);
                            received++;
                        }
                    }
                });
                resolve();
            });
            req.on('error', reject);
            req.end();
            streams.push(req);
        });
    }
    const rate = 1000;
    const seconds = 10;
    const total = rate * seconds;
    const roundTrip = [];
    let sent = 0;
    const inflight = [];
    const t0 = node_perf_hooks_1.performance.now();
    await new Promise((resolve) => {
        const tick = setInterval(() => {
            const due = Math.min(total, Math.floor(((node_perf_hooks_1.performance.now() - t0) / 1000) * rate));
            while (sent < due) {
                const id = 1_000_000 + ++sent;
                const ts = node_perf_hooks_1.performance.now();
                inflight.push(post(agent.url, insert(id)).then(() => void roundTrip.push(node_perf_hooks_1.performance.now() - ts)));
            }
            if (sent >= total) {
                clearInterval(tick);
                resolve();
            }
        }, 5);
    });
    await Promise.all(inflight);
    const achieved = total / ((node_perf_hooks_1.performance.now() - t0) / 1000);
    const deadline = Date.now() + 20000;
    while (received < total * streams.length && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    for (const [id, t] of pending) {
        const c = commitAt.get(id);
        if (c !== undefined)
            notifyLatency.push(t - c);
    }
    for (const s of streams)
        s.destroy();
    await (0, agent_1.stopAgent)(agent);
    process.stdout.write(`writes: ${total} at ${achieved.toFixed(0)}/s; notify events received: ${received} of ${total * streams.length}\n`);
    (0, util_1.report)('commit-to-notify p50 (100 update streams, 1000 writes/s)', (0, util_1.median)(notifyLatency), 'ms', 'write round trip p50', (0, util_1.median)(roundTrip));
    (0, util_1.report)('commit-to-notify p99 (100 update streams, 1000 writes/s)', (0, util_1.percentile)(notifyLatency, 99), 'ms', 'write round trip p99', (0, util_1.percentile)(roundTrip, 99));
}
async function main() {
    await throughputFigures();
    await latencyFigures();
    keepAlive.destroy();
}
main().catch((err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
});
//# sourceMappingURL=capture.bench.js.map