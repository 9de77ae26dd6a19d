"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// What the per-request HTTP metrics cost: point-select throughput through POST /v1/queries on an
// agent that records them, against the same build with them off (the anchor), in alternating
// rounds of the same run; and the cost of one scrape of GET /metrics against one point select.
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const http_1 = require("../test/helpers/http");
const agent_1 = require("./agent");
const util_1 = require("./util");
const ROWS = 10_000;
const CONNECTIONS = 16;
const ROUNDS = 3;
const ROUND_MS = 2000;
const SQL = 'SELECT id, v FROM t WHERE id = ?';
async function start(metrics) {
    const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-bench-metrics-'));
    const proc = (0, node_child_process_1.spawn)(process.execPath, [node_path_1.default.join(__dirname, 'metrics-agent.js'), dir, metrics], {
        stdio: ['ignore', 'pipe', 'inherit'],
    });
    const a = await (0, agent_1.whenReady)(proc, dir, /ready (http:\/\/\S+)/);
    const r = await (0, http_1.postJson)(a.url, '/v1/transactions', [
        `INSERT INTO t (id, v) WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${ROWS}) SELECT x, 'value ' || x FROM c`,
    ]);
    if (r.status !== 200)
        throw new Error(r.text);
    return a;
}
/** Requests per second: CONNECTIONS keep-alive clients posting point selects for `ms`. */
function drive(base, ms) {
    return (0, util_1.postLoop)(base, '/v1/queries', CONNECTIONS, ms, () => `["${SQL}",[${1 + Math.floor(Math.random() * ROWS)}]]`);
}
async function main() {
    const on = await start('on');
    const off = await start('off');
    try {
        await drive(on.url, 500); // warm up both
        await drive(off.url, 500);
        const withMetrics = [];
        const without = [];
        for (let i = 0; i < ROUNDS; i++) {
            withMetrics.push(await drive(on.url, ROUND_MS));
            without.push(await drive(off.url, ROUND_MS));
        }
        process.stdout.write(`point select, ${CONNECTIONS} keep-alive connections, median of ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s\n`);
        (0, util_1.report)('POST /v1/queries with request metrics', (0, util_1.median)(withMetrics), 'req/s', 'same build without them', (0, util_1.median)(without));
        // One scrape against one point select, each timed sequentially on the agent with metrics.
        const scrapes = [];
        const selects = [];
        for (let i = 0; i < 50; i++) {
            let t0 = performance.now();
            await (0, http_1.request)(on.url, 'GET', '/metrics');
            scrapes.push(performance.now() - t0);
            t0 = performance.now();
            await (0, http_1.postJson)(on.url, '/v1/queries', [SQL, [1 + i]]);
            selects.push(performance.now() - t0);
        }
        (0, util_1.report)('GET /metrics round trip', (0, util_1.median)(scrapes), 'ms', 'point select round trip', (0, util_1.median)(selects));
    }
    finally {
        await (0, agent_1.stopAgent)(on);
        await (0, agent_1.stopAgent)(off);
    }
}
void main().then(() => process.exit(0), (err) => {
    console.error(err);
    process.exit(1);
});
//# sourceMappingURL=metrics.bench.js.map