"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.LineClient = void 0;
const node_http_1 = __importDefault(require("node:http"));
const json_1 = require("../../src/engine/json");
/**
 * A streaming HTTP client of one subscription that keeps counts, not events: change ids must be
 * contiguous, the change count and the last error line are kept, and so is whether the stream ended
 * and whether the connection was closed. Light enough to read tens of MiB of changes.
 */
class LineClient {
    req;
    res;
    status = 0;
    queryId = '';
    rows = 0;
    changes = 0;
    lastChange = 0;
    eoq = false;
    error = null;
    ended = false;
    closed = false;
    /** A problem the client saw (a gap in change ids, an unparsable line). */
    fault = null;
    #buf = '';
    #timer = null;
    #waiters = [];
    constructor(req) {
        this.req = req;
    }
    /** `after`: the change id the client resumes after (GET with from=). */
    static open(base, method, path, body, mode, after = 0) {
        const url = new URL(path, base);
        return new Promise((resolve, reject) => {
            const req = node_http_1.default.request(url, { method, headers: body !== undefined ? { 'content-type': 'application/json' } : {}, agent: false }, (res) => {
                c.res = res;
                c.status = res.statusCode ?? 0;
                c.queryId = String(res.headers['patina-query-id'] ?? '');
                c.#read(mode);
                resolve(c);
            });
            const c = new LineClient(req);
            c.lastChange = after;
            req.on('error', (err) => {
                c.closed = true;
                c.#wake();
                reject(err);
            });
            if (body !== undefined)
                req.write(body);
            req.end();
        });
    }
    #read(mode) {
        const res = this.res;
        res.setEncoding('utf8');
        const end = () => {
            this.ended = true;
            this.#wake();
        };
        res.on('end', end);
        res.on('error', () => undefined);
        res.on('close', () => {
            this.closed = true;
            if (this.#timer)
                clearInterval(this.#timer);
            end();
        });
        if (mode.kind === 'fast') {
            res.on('data', (d) => this.#take(d));
        }
        else if (mode.kind === 'slow') {
            res.pause();
            this.#timer = setInterval(() => {
                // at most 16 KiB a tick (read() alone returns all that is buffered, which can be far more,
                // and a slow client then kept up on a slow machine)
                const d = (res.read(16384) ?? res.read());
                if (d !== null)
                    this.#take(d);
            }, mode.everyMs);
        }
        else {
            res.pause();
        }
    }
    #take(d) {
        this.#buf += d;
        let nl;
        let from = 0;
        while ((nl = this.#buf.indexOf('\n', from)) >= 0) {
            this.#line(this.#buf.slice(from, nl));
            from = nl + 1;
        }
        this.#buf = this.#buf.slice(from);
        this.#wake();
    }
    #line(l) {
        if (l.startsWith('{"change":')) {
            // Only the change id is needed: the last number of the line.
            const id = Number(/,(\d+)\]\}$/.exec(l)?.[1]);
            if (id !== this.lastChange + 1 && this.fault === null)
                this.fault = `change id ${id} after ${this.lastChange}`;
            this.lastChange = id;
            this.changes++;
            return;
        }
        if (l.startsWith('{"row":')) {
            this.rows++;
            return;
        }
        let e;
        try {
            e = (0, json_1.parseJsonExact)(l);
        }
        catch {
            this.fault ??= `unparsable line ${l.slice(0, 80)}`;
            return;
        }
        if ('eoq' in e) {
            this.eoq = true;
            this.lastChange = Number(e.eoq.change_id);
        }
        else if ('error' in e) {
            this.error = String(e.error);
        }
    }
    #wake() {
        for (const w of this.#waiters.splice(0))
            w();
    }
    /** Waits until `pred()` holds, or fails after timeoutMs saying `what`. */
    async until(pred, timeoutMs, what) {
        const deadline = Date.now() + timeoutMs;
        while (!pred()) {
            const left = deadline - Date.now();
            if (left <= 0)
                throw new Error(`timed out waiting for ${what}: rows ${this.rows}, changes ${this.changes}, error ${this.error}, ended ${this.ended}, closed ${this.closed}`);
            await new Promise((r) => {
                const t = setTimeout(r, Math.min(left, 200));
                this.#waiters.push(() => {
                    clearTimeout(t);
                    r();
                });
            });
        }
    }
    close() {
        if (this.#timer)
            clearInterval(this.#timer);
        this.req.destroy();
        this.res?.destroy();
    }
}
exports.LineClient = LineClient;
//# sourceMappingURL=line-client.js.map