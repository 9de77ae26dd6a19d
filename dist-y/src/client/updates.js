"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.tableUpdates = tableUpdates;
const backoff_js_1 = require("./backoff.js");
const errors_js_1 = require("./errors.js");
const ndjson_js_1 = require("./ndjson.js");
const wire_js_1 = require("./wire.js");
/**
 * POST /v1/updates/{table} as an async iterable. The stream is read as fast as the agent sends (so
 * a slow consumer is not cut off by the agent), reconnecting after a dropped connection with
 * backoff and jitter until `retry.giveUpAfterMs` of failures (then a PatinaError of kind
 * 'gave-up'). An unknown table is a PatinaError at once. Leaving the loop closes the stream.
 */
async function* tableUpdates(t, table, opts = {}) {
    if (typeof table !== 'string' || table === '')
        throw new errors_js_1.PatinaError('request', 'updates needs a table name');
    const reader = new UpdateReader(t, table, opts);
    try {
        yield* reader.events();
    }
    finally {
        reader.close();
    }
}
class UpdateReader {
    #t;
    #table;
    #opts;
    #stop = new AbortController();
    #max;
    #queue = [];
    #wake = null;
    #done = false;
    #error = null;
    #onAbort = null;
    constructor(t, table, opts) {
        this.#t = t;
        this.#table = table;
        this.#opts = opts;
        this.#max = opts.maxBufferedEvents ?? 100_000;
        const signal = opts.signal;
        const onAbort = () => this.#fail(new errors_js_1.PatinaError('aborted', `the update stream of ${table} was aborted`, 0, { cause: signal?.reason }));
        if (signal?.aborted)
            onAbort();
        else {
            signal?.addEventListener('abort', onAbort, { once: true });
            this.#onAbort = onAbort;
            void this.#run();
        }
    }
    async *events() {
        for (;;) {
            const ev = this.#queue.shift();
            if (ev) {
                yield ev;
                continue;
            }
            if (this.#done) {
                if (this.#error)
                    throw this.#error;
                return;
            }
            await new Promise((r) => (this.#wake = r));
        }
    }
    close() {
        this.#done = true;
        if (this.#onAbort)
            this.#opts.signal?.removeEventListener('abort', this.#onAbort);
        this.#stop.abort();
        this.#wakeUp();
    }
    #fail(err) {
        if (this.#done)
            return;
        this.#error = err;
        this.close();
    }
    #push(ev) {
        if (this.#done)
            return;
        if (this.#queue.length >= this.#max)
            this.#queue = [{ type: 'gap', reason: 'overflow' }];
        this.#queue.push(ev);
        this.#wakeUp();
    }
    #wakeUp() {
        const w = this.#wake;
        this.#wake = null;
        w?.();
    }
    async #run() {
        const t = this.#t;
        const backoff = new backoff_js_1.Backoff(this.#opts.retry);
        let lastError = null;
        const heartbeat = this.#opts.heartbeat ?? 10;
        if (!Number.isInteger(heartbeat) || heartbeat < 0 || heartbeat > 3600)
            return this.#fail(new errors_js_1.PatinaError('request', `heartbeat must be whole seconds from 0 to 3600, got ${heartbeat}`));
        while (!this.#done) {
            const conn = new AbortController();
            const stop = () => conn.abort(this.#stop.signal.reason);
            this.#stop.signal.addEventListener('abort', stop, { once: true });
            // The agent answers an update stream's headers at once: they are watched too.
            const watchdog = (0, ndjson_js_1.streamWatchdog)(conn, t.base);
            watchdog.expect(heartbeat);
            try {
                const res = await t.send('POST', `/v1/updates/${encodeURIComponent(this.#table)}${heartbeat ? `?heartbeat=${heartbeat}` : ''}`, undefined, conn.signal);
                backoff.connected();
                if (lastError)
                    this.#push({ type: 'gap', reason: 'reconnected', error: lastError });
                watchdog.response(res);
                for await (const line of (0, ndjson_js_1.ndjsonLines)(res.body, watchdog.touch)) {
                    if (this.#done)
                        return;
                    const ev = (0, wire_js_1.parseLine)(line, t.ints);
                    if ('notify' in ev) {
                        backoff.progressed();
                        this.#push({ type: 'notify', kind: ev.notify[0], key: ev.notify[1] });
                    }
                    else if ('error' in ev)
                        throw new errors_js_1.PatinaError('stream', ev.error, res.status);
                }
                throw new errors_js_1.PatinaError('network', `the agent at ${t.base} closed the update stream of ${this.#table}`, res.status);
            }
            catch (err) {
                if (this.#done)
                    return;
                const e = watchdog.error() ?? (0, errors_js_1.fetchError)(err, t.base, this.#stop.signal);
                if (e.kind === 'aborted' || e.kind === 'request')
                    return this.#fail(e);
                lastError = e;
            }
            finally {
                watchdog.stop();
                this.#stop.signal.removeEventListener('abort', stop);
            }
            const wait = backoff.next();
            if (wait === null) {
                return this.#fail(new errors_js_1.PatinaError('gave-up', `gave up on the update stream of ${this.#table} after ${Math.round(backoff.failingForMs / 1000)} s of failed attempts (${backoff.attempt}); last error: ${lastError.message}`, lastError.status, { cause: lastError }));
            }
            await (0, backoff_js_1.sleep)(wait, this.#stop.signal);
        }
    }
}
//# sourceMappingURL=updates.js.map