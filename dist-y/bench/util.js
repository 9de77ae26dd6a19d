"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.median = median;
exports.percentile = percentile;
exports.report = report;
exports.fmt = fmt;
exports.postLoop = postLoop;
exports.startFloor = startFloor;
const node_child_process_1 = require("node:child_process");
const node_net_1 = __importDefault(require("node:net"));
const node_path_1 = __importDefault(require("node:path"));
const node_tls_1 = __importDefault(require("node:tls"));
const node_perf_hooks_1 = require("node:perf_hooks");
const figures_1 = require("./figures");
/** Helpers shared by the benchmarks: medians, percentiles and the ratio line every figure is printed as. */
function median(xs) {
    return percentile(xs, 50);
}
function percentile(xs, p) {
    if (xs.length === 0)
        return NaN;
    const s = [...xs].sort((a, b) => a - b);
    const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
    return s[i];
}
/**
 * Prints a figure beside its anchor, measured in the same run, as a ratio (and the goal for that
 * ratio, if given), and records it for the bench's chart (bench/figures.ts).
 */
function report(name, value, unit, anchorName, anchor, goal) {
    (0, figures_1.recordFigure)({ name, value, unit, anchorName, anchor, goal });
    const ratio = value / anchor;
    process.stdout.write(`${name}: ${fmt(value)} ${unit} | ${anchorName}: ${fmt(anchor)} ${unit} | ratio ${ratio.toFixed(3)}${goalText(goal)}\n`);
}
function goalText(goal) {
    return !goal ? '' : 'atMost' in goal ? ` (goal <= ${goal.atMost})` : ` (goal >= ${goal.atLeast})`;
}
function fmt(n) {
    return n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toPrecision(3);
}
/**
 * Requests per second: `connections` keep-alive clients POSTing `body()` to `base + path` back to
 * back for `ms`; any status but 200 fails the bench. `opts.https` makes it HTTPS (a CA), `headers`
 * adds headers (a token), `rate` paces the requests (per second, over all connections).
 *
 * The client shares the machine's cores with the agent it measures, so it is kept cheap: one socket
 * per connection, the request written as one prebuilt string, and the answer read by its
 * Content-Length (what wrk or autocannon do), instead of node's http.request, which cost some
 * 65-90 µs of CPU per request here, as much as half of what the agent spends answering it.
 */
async function postLoop(base, path, connections, ms, body, opts = {}) {
    const url = new URL(path, base);
    const secure = url.protocol === 'https:';
    const headers = { host: url.host, 'content-type': 'application/json', ...opts.headers };
    const head = `POST ${url.pathname}${url.search} HTTP/1.1\r\n` +
        Object.entries(headers)
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join('');
    const sockets = await Promise.all(Array.from({ length: connections }, () => connect(url, secure, opts.https)));
    let done = 0;
    let issued = 0;
    const end = Date.now() + ms;
    const t0 = node_perf_hooks_1.performance.now();
    try {
        await Promise.all(sockets.map(async (socket) => {
            const answers = new ResponseReader(socket);
            while (Date.now() < end) {
                if (opts.rate) {
                    // paced: request n leaves no earlier than n / rate seconds after the start
                    const due = t0 + (issued++ * 1000) / opts.rate - node_perf_hooks_1.performance.now();
                    if (due > 0)
                        await new Promise((r) => setTimeout(r, due));
                }
                const b = body();
                socket.write(`${head}content-length: ${Buffer.byteLength(b)}\r\n\r\n${b}`);
                const status = await answers.next();
                if (status !== 200)
                    throw new Error(`status ${status}`);
                done++;
            }
        }));
    }
    finally {
        for (const s of sockets)
            s.destroy();
    }
    return done / ((node_perf_hooks_1.performance.now() - t0) / 1000);
}
function connect(url, secure, tlsOptions = {}) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (secure ? 443 : 80));
    return new Promise((resolve, reject) => {
        const socket = secure
            ? node_tls_1.default.connect({ host, port, ...tlsOptions }, () => resolve(socket))
            : node_net_1.default.connect({ host, port }, () => resolve(socket));
        socket.setNoDelay(true);
        socket.once('error', reject);
    });
}
/** Reads HTTP/1.1 responses with a Content-Length off one socket, one at a time: their statuses. */
class ResponseReader {
    #buf = Buffer.alloc(0);
    #waiting = null;
    #failed = null;
    constructor(socket) {
        socket.on('data', (chunk) => {
            this.#buf = this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk]);
            this.#settle();
        });
        const fail = (err) => {
            this.#failed = err;
            this.#waiting?.reject(err);
            this.#waiting = null;
        };
        socket.on('error', fail);
        socket.on('close', () => fail(new Error('the server closed the connection')));
    }
    next() {
        if (this.#failed)
            return Promise.reject(this.#failed);
        return new Promise((resolve, reject) => {
            this.#waiting = { resolve, reject };
            this.#settle();
        });
    }
    #settle() {
        if (!this.#waiting)
            return;
        const headEnd = this.#buf.indexOf('\r\n\r\n');
        if (headEnd < 0)
            return;
        const head = this.#buf.toString('latin1', 0, headEnd);
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        if (!length) {
            this.#waiting.reject(new Error(`a response without Content-Length: ${head}`));
            this.#waiting = null;
            return;
        }
        const total = headEnd + 4 + Number(length[1]);
        if (this.#buf.length < total)
            return;
        this.#buf = this.#buf.subarray(total);
        const w = this.#waiting;
        this.#waiting = null;
        w.resolve(Number(head.slice(9, 12)));
    }
}
/**
 * Starts the Node floor responder (pg-floor.ts) on a SQLite file, in `procs` processes: the
 * point-select floor of the pgbench bench, or with `write` the one-row UPDATE floor of the writes bench.
 */
function startFloor(dbPath, procs, mode = 'read') {
    const proc = (0, node_child_process_1.spawn)(process.execPath, [node_path_1.default.join(__dirname, 'pg-floor.js'), dbPath, String(procs), mode], {
        stdio: ['ignore', 'pipe', 'inherit'],
    });
    return new Promise((resolve, reject) => {
        let out = '';
        proc.stdout.on('data', (d) => {
            out += d.toString();
            const m = /port (\d+)/.exec(out);
            if (m)
                resolve({ port: Number(m[1]), proc });
        });
        proc.once('exit', (code) => reject(new Error(`the Node floor responder exited (${code})`)));
    });
}
//# sourceMappingURL=util.js.map