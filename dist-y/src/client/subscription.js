"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Subscription = void 0;
const backoff_js_1 = require("./backoff.js");
const errors_js_1 = require("./errors.js");
const ndjson_js_1 = require("./ndjson.js");
const wire_js_1 = require("./wire.js");
// Errors on a resumed stream after which resuming again from the same change id is right.
const TRANSIENT = /fell behind|shutting down/;
/**
 * A live query kept by the client: the current rows by row id, the columns, the last change id and
 * the query id. It reads the agent's stream as fast as it comes (so a slow consumer is never cut
 * off by the agent), resumes after a dropped connection or an agent restart from the last change
 * id with exponential backoff and jitter, re-reads the whole result when the agent no longer keeps
 * the missed changes, and gives up after `retry.giveUpAfterMs` with a PatinaError of kind 'gave-up'.
 */
class Subscription {
    sql;
    /** The current rows: row id -> cells. */
    rows = new Map();
    columns = [];
    /** The last change id applied to `rows`. */
    changeId = 0;
    /** The agent's query id, once known. */
    queryId;
    /** Resolves once the initial result is in `rows`; rejects if it never comes. */
    ready;
    /** Why the subscription ended, when it failed. */
    error;
    #t;
    #body;
    #backoff;
    #stop = new AbortController();
    #max;
    #heartbeat;
    #queue = [];
    #wake = null;
    #done = false;
    #iterating = false;
    #isReady = false;
    #ready;
    constructor(transport, sql, body, opts) {
        this.#t = transport;
        this.sql = sql;
        this.#body = body;
        this.#backoff = new backoff_js_1.Backoff(opts.retry);
        this.#max = opts.maxBufferedEvents ?? 100_000;
        this.#heartbeat = opts.heartbeat ?? 10;
        if (!Number.isInteger(this.#heartbeat) || this.#heartbeat < 0 || this.#heartbeat > 3600)
            throw new errors_js_1.PatinaError('request', `heartbeat must be whole seconds from 0 to 3600, got ${opts.heartbeat}`);
        this.queryId = opts.id;
        this.ready = new Promise((resolve, reject) => (this.#ready = { resolve, reject }));
        this.ready.catch(() => { }); // a caller who only iterates must not get an unhandled rejection
        if (opts.from !== undefined) {
            if (!Number.isSafeInteger(opts.from) || opts.from < 0)
                throw new errors_js_1.PatinaError('request', `from must be a change id (a non-negative integer), got ${opts.from}`);
            if (opts.id === undefined)
                throw new errors_js_1.PatinaError('request', 'from needs the id of the subscription to resume');
            this.changeId = opts.from;
            if (opts.rows)
                for (const [k, v] of opts.rows)
                    this.rows.set(k, v);
            if (opts.columns)
                this.columns = [...opts.columns];
        }
        const signal = opts.signal;
        if (signal?.aborted) {
            this.#fail(new errors_js_1.PatinaError('aborted', 'the subscription was aborted', 0, { cause: signal.reason }));
            return;
        }
        signal?.addEventListener('abort', () => this.#fail(new errors_js_1.PatinaError('aborted', 'the subscription was aborted', 0, { cause: signal.reason })), { once: true });
        void this.#run(opts.id === undefined ? 'post' : opts.from !== undefined ? 'from' : 'full');
    }
    /** Stops listening and ends iteration; the agent keeps the subscription for a later resume. */
    close() {
        if (this.#done)
            return;
        this.#done = true;
        this.#stop.abort();
        if (!this.#isReady)
            this.#ready.reject(new errors_js_1.PatinaError('aborted', 'the subscription was closed before its first result'));
        this.#wakeUp();
    }
    get closed() {
        return this.#done;
    }
    async *[Symbol.asyncIterator]() {
        if (this.#iterating)
            throw new errors_js_1.PatinaError('request', 'a subscription has one consumer at a time; it is already being iterated');
        this.#iterating = true;
        try {
            for (;;) {
                const ev = this.#queue.shift();
                if (ev) {
                    yield ev;
                    continue;
                }
                if (this.#done) {
                    if (this.error)
                        throw this.error;
                    return;
                }
                await new Promise((r) => (this.#wake = r));
            }
        }
        finally {
            this.#iterating = false;
            // Leaving the loop (break, return, throw) ends the subscription.
            this.close();
        }
    }
    #emit(ev) {
        if (this.#done)
            return;
        if (this.#queue.length >= this.#max && ev.type === 'change') {
            this.#queue = [];
            ev = {
                type: 'reset',
                reason: `the consumer fell behind: more than ${this.#max} events were waiting; these are the current rows`,
                columns: this.columns,
                rows: this.rows,
                changeId: this.changeId,
            };
        }
        this.#queue.push(ev);
        this.#wakeUp();
    }
    #wakeUp() {
        const w = this.#wake;
        this.#wake = null;
        w?.();
    }
    #fail(err) {
        if (this.#done)
            return;
        this.error = err;
        if (!this.#isReady)
            this.#ready.reject(err);
        this.close();
    }
    /** The reconnection loop: one connection at a time until closed, failed or given up. */
    async #run(first) {
        let mode = first;
        let reason = '';
        let again = false; // the last attempt also ended in a straight re-request
        while (!this.#done) {
            let outcome;
            try {
                outcome = await this.#connect(mode, reason);
            }
            catch (err) {
                outcome = { retry: mode, error: (0, errors_js_1.fetchError)(err, this.#t.base, this.#stop.signal) };
            }
            if (this.#done)
                return;
            if ('fatal' in outcome)
                return this.#fail(outcome.fatal);
            if ('now' in outcome && !again) {
                // Straight to another request (re-read or re-subscribe); no wait needed the first time.
                mode = outcome.now;
                reason = outcome.reason;
                again = true;
                continue;
            }
            // Twice in a row: wait like any failure, so that an agent that keeps refusing is not hammered.
            if ('now' in outcome)
                reason = outcome.reason;
            again = 'now' in outcome;
            mode = 'now' in outcome ? outcome.now : outcome.retry;
            const error = 'now' in outcome ? new errors_js_1.PatinaError('protocol', outcome.reason) : outcome.error;
            const wait = this.#backoff.next();
            if (wait === null) {
                const where = this.queryId ? ` ${this.queryId}` : '';
                const resume = this.queryId && this.#isReady
                    ? `; to go on later, subscribe with { id: '${this.queryId}', from: ${this.changeId} } and the rows kept`
                    : '';
                return this.#fail(new errors_js_1.PatinaError('gave-up', `gave up on subscription${where} after ${Math.round(this.#backoff.failingForMs / 1000)} s of failed attempts (${this.#backoff.attempt}); last error: ${error.message}${resume}`, error.status, { cause: error }));
            }
            this.#emit({ type: 'disconnected', error, retryInMs: Math.round(wait), attempt: this.#backoff.attempt });
            await (0, backoff_js_1.sleep)(wait, this.#stop.signal);
        }
    }
    /** One request and its stream, until it ends; says what to do next. */
    async #connect(mode, reason) {
        const conn = new AbortController();
        const stop = () => conn.abort(this.#stop.signal.reason);
        this.#stop.signal.addEventListener('abort', stop, { once: true });
        try {
            return await this.#stream(mode, reason, conn);
        }
        finally {
            this.#stop.signal.removeEventListener('abort', stop);
        }
    }
    async #stream(mode, reason, conn) {
        const t = this.#t;
        const signal = this.#stop.signal;
        const params = [
            mode === 'from' ? `from=${this.changeId}` : '',
            this.#heartbeat ? `heartbeat=${this.#heartbeat}` : '',
        ]
            .filter((p) => p !== '')
            .join('&');
        const query = params ? `?${params}` : '';
        // A GET is answered at once (a POST may first run the query): its headers are watched too.
        const watchdog = (0, ndjson_js_1.streamWatchdog)(conn, t.base);
        if (mode !== 'post')
            watchdog.expect(this.#heartbeat);
        let res;
        try {
            res =
                mode === 'post'
                    ? await t.send('POST', `/v1/subscriptions${query}`, this.#body, conn.signal)
                    : await t.send('GET', `/v1/subscriptions/${encodeURIComponent(this.queryId)}${query}`, undefined, conn.signal);
        }
        catch (err) {
            watchdog.stop();
            const e = watchdog.error() ?? (0, errors_js_1.fetchError)(err, t.base, signal);
            if (e.kind === 'request') {
                if (mode !== 'post' && e.status === 404)
                    return {
                        now: 'post',
                        reason: `the agent no longer has subscription ${this.queryId} (${e.message}); subscribed again`,
                    };
                if (mode === 'from' && e.status !== 401 && e.status !== 403)
                    return {
                        now: 'full',
                        reason: `resuming after change ${this.changeId} was refused (${e.message}); read the whole result again`,
                    };
                return { fatal: e };
            }
            return { retry: mode, error: e };
        }
        this.#backoff.connected();
        const id = res.headers.get('patina-query-id');
        if (id)
            this.queryId = id;
        if (mode === 'from') {
            if (!this.#isReady) {
                // Resumed with the caller's own rows: they are the initial result.
                this.#isReady = true;
                this.#emit({ type: 'ready', columns: this.columns, rows: this.rows, changeId: this.changeId, time: 0 });
                this.#ready.resolve();
            }
            else
                this.#emit({ type: 'resumed', changeId: this.changeId });
        }
        // A full result is gathered apart and takes the place of `rows` at its eoq.
        let fresh = mode === 'from' ? null : new Map();
        let freshColumns = this.columns;
        let changesHere = 0;
        watchdog.response(res);
        try {
            for await (const line of (0, ndjson_js_1.ndjsonLines)(res.body, watchdog.touch)) {
                if (this.#done)
                    return { retry: mode, error: new errors_js_1.PatinaError('aborted', 'closed') };
                const ev = (0, wire_js_1.parseLine)(line, t.ints);
                if ('change' in ev) {
                    if (fresh)
                        return {
                            retry: mode,
                            error: new errors_js_1.PatinaError('protocol', 'a change came before the end of the initial result', res.status),
                        };
                    const [kind, rowId, cells, changeId] = ev.change;
                    changesHere++;
                    if (changeId <= this.changeId)
                        continue; // already applied: never twice
                    if (changeId !== this.changeId + 1)
                        return {
                            now: 'full',
                            reason: `change ${changeId} came after ${this.changeId}; read the whole result again`,
                        };
                    const previous = this.rows.get(rowId);
                    if (kind === 'delete')
                        this.rows.delete(rowId);
                    else
                        this.rows.set(rowId, cells);
                    this.changeId = changeId;
                    this.#backoff.progressed();
                    this.#emit(previous === undefined
                        ? { type: 'change', kind, rowId, cells, changeId }
                        : { type: 'change', kind, rowId, cells, previous, changeId });
                }
                else if ('row' in ev) {
                    if (!fresh)
                        return { retry: mode, error: new errors_js_1.PatinaError('protocol', 'a row came on a resumed stream', res.status) };
                    fresh.set(ev.row[0], ev.row[1]);
                }
                else if ('columns' in ev) {
                    freshColumns = ev.columns;
                }
                else if ('eoq' in ev) {
                    if (!fresh)
                        continue;
                    this.rows = fresh;
                    this.columns = freshColumns;
                    this.changeId = ev.eoq.change_id ?? 0;
                    fresh = null;
                    this.#backoff.progressed();
                    if (!this.#isReady) {
                        this.#isReady = true;
                        this.#emit({
                            type: 'ready',
                            columns: this.columns,
                            rows: this.rows,
                            changeId: this.changeId,
                            time: ev.eoq.time,
                        });
                        this.#ready.resolve();
                    }
                    else {
                        this.#emit({
                            type: 'reset',
                            reason: reason || 'read the whole result again',
                            columns: this.columns,
                            rows: this.rows,
                            changeId: this.changeId,
                        });
                    }
                }
                else if ('error' in ev) {
                    const e = new errors_js_1.PatinaError('stream', ev.error, res.status);
                    if (fresh)
                        return { retry: mode, error: e };
                    // A resume refused before anything came (changes no longer kept, or a change id the agent
                    // does not have): only the whole result can put the rows right.
                    if (mode === 'from' && changesHere === 0 && !TRANSIENT.test(ev.error))
                        return { now: 'full', reason: `${ev.error}; read the whole result again` };
                    return { retry: 'from', error: e };
                }
            }
        }
        catch (err) {
            return { retry: fresh ? mode : 'from', error: watchdog.error() ?? (0, errors_js_1.fetchError)(err, t.base, signal) };
        }
        finally {
            watchdog.stop();
        }
        return {
            retry: fresh ? mode : 'from',
            error: new errors_js_1.PatinaError('network', `the agent at ${t.base} closed the stream`, res.status),
        };
    }
}
exports.Subscription = Subscription;
//# sourceMappingURL=subscription.js.map