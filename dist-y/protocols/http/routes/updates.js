"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.handleUpdates = handleUpdates;
const values_1 = require("../../../src/engine/values");
const ndjson_1 = require("../ndjson");
// One update reaches many streams: render its line once.
const rendered = new WeakMap();
function render(u) {
    let s = rendered.get(u);
    if (s === undefined) {
        s = (0, ndjson_1.line)('notify', `[${JSON.stringify(u.kind)},${(0, values_1.rowToJson)(u.pk)}]`);
        rendered.set(u, s);
    }
    return s;
}
/**
 * POST /v1/updates/{table}: an NDJSON stream of `{"notify":[kind,[pk...]]}` for changes committed
 * after the request, open while the connection lives. The table name is only looked up in the
 * schema, never put into SQL. A client that leaves too much unread gets an error line and is cut off, so it
 * cannot make the agent's memory grow.
 */
function handleUpdates(svc, opts) {
    return (ctx) => {
        const res = ctx.res;
        const heartbeat = (0, ndjson_1.heartbeatParam)(ctx);
        const stream = new UpdateStream(res, opts.maxBufferedBytes, () => svc.cutOff?.(ctx.params.table, opts.maxBufferedBytes));
        stream.stop = svc.watch(ctx.params.table, stream); // before any header: an unknown table is a plain 404
        ctx.status = 200;
        ctx.set('content-type', 'application/x-ndjson');
        ctx.set('cache-control', 'no-store');
        ctx.respond = false;
        res.flushHeaders();
        let beat;
        if (heartbeat !== undefined)
            beat = setInterval(() => stream.heartbeat(heartbeat), Math.max(250, heartbeat / 4));
        res.on('close', () => {
            clearInterval(beat);
            stream.stop();
        });
    };
}
/**
 * One open update stream. Lines are gathered and written once per turn of the event loop (many
 * commits of one turn become one write); when the socket pushes back (write returns false) they wait
 * for 'drain'. At most maxBytes wait (the rendered lines are shared with the other streams of the
 * table); past that the client is cut off.
 */
class UpdateStream {
    #res;
    #max;
    #done = false;
    #pending = [];
    #bytes = 0;
    #waiting = 'no';
    stop = () => { };
    #onCutOff;
    constructor(res, max, onCutOff) {
        this.#res = res;
        this.#max = max;
        this.#onCutOff = onCutOff;
    }
    #lastWrite = Date.now();
    /** An empty line when nothing was written for `ms` (and nothing waits to be). */
    heartbeat(ms) {
        if (this.#done || this.#waiting !== 'no' || Date.now() - this.#lastWrite < ms)
            return;
        this.#lastWrite = Date.now();
        this.#res.write('\n');
    }
    update(u) {
        if (this.#done)
            return;
        const s = render(u);
        if (this.#bytes + s.length > this.#max) {
            this.#onCutOff();
            this.stop();
            this.fail(`update stream closed: the client left more than ${this.#max} bytes of updates unread; read faster or reconnect`);
            return;
        }
        this.#pending.push(s);
        this.#bytes += s.length;
        if (this.#waiting === 'no') {
            this.#waiting = 'turn';
            setImmediate(() => this.#flush());
        }
    }
    #flush() {
        this.#waiting = 'no';
        if (this.#done)
            return;
        this.#lastWrite = Date.now();
        const q = this.#pending;
        let i = 0;
        while (i < q.length) {
            // Up to 64 KiB per write: few syscalls, and the socket's own buffer stays small.
            let chunk = '';
            while (i < q.length && chunk.length < 65536)
                chunk += q[i++];
            this.#bytes -= chunk.length;
            if (!this.#res.write(chunk)) {
                this.#pending = q.slice(i);
                this.#waiting = 'drain';
                this.#res.once('drain', () => this.#flush());
                return;
            }
        }
        this.#pending = [];
        this.#bytes = 0;
    }
    fail(message) {
        if (this.#done)
            return;
        this.#done = true;
        this.#pending = [];
        this.#res.end((0, ndjson_1.errorLine)(message));
        this.#cutOffLater();
    }
    end() {
        if (this.#done)
            return;
        this.#done = true;
        this.#pending = [];
        this.#res.end();
        this.#cutOffLater();
    }
    // A client that does not read never lets the end through: cut it shortly after.
    #cutOffLater() {
        setTimeout(() => {
            if (!this.#res.writableFinished)
                this.#res.destroy();
        }, 1000).unref();
    }
}
//# sourceMappingURL=updates.js.map