"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ReadCursor = exports.ReadPool = void 0;
const node_path_1 = __importDefault(require("node:path"));
const node_child_process_1 = require("node:child_process");
const errors_1 = require("../errors");
const bounded_reads_1 = require("./bounded-reads");
const BATCH_ROWS = 512;
const BATCH_BYTES = 64 * 1024;
const CREDIT_WINDOW = 2;
/** A worker above minWorkers idle this long is stopped: each is a whole process (tens of MiB). */
const IDLE_RETIRE_MS = 30_000;
/**
 * Read connections in worker processes, so that no read blocks the event loop and a long read does
 * not delay another: each read gets an idle worker, a new one if none is idle (up to maxWorkers).
 */
class ReadPool {
    #dbPath;
    #opts;
    #slots = new Set();
    #idle = [];
    #waiting = [];
    #nextId = 1;
    #bounded;
    #closed = false;
    #trimTimer = null;
    /** Reads answered in-process and reads run on a worker, since start. */
    #counts = { inProcess: 0, onWorkers: 0 };
    /** Told of every read a worker finished: its SQL and seconds from start to last row (slow-query log). */
    onWorkerRead = null;
    constructor(dbPath, opts) {
        this.#dbPath = dbPath;
        this.#opts = opts;
        for (let i = 0; i < opts.minWorkers; i++)
            this.#idle.push(this.#spawn());
        this.#bounded = new bounded_reads_1.BoundedReads(dbPath);
    }
    /** Starts a read; rows come through the returned cursor, which must be drained or cancelled. */
    query(req) {
        if (this.#closed)
            throw new errors_1.PatinaError('unavailable', 'the agent is shutting down');
        const cursor = new ReadCursor(this.#nextId++, req, this);
        const answer = this.#bounded?.tryRun(cursor.id, req.sql, req.params, req.format);
        if (answer) {
            this.#counts.inProcess++;
            cursor._receive(answer);
            return cursor;
        }
        this.#counts.onWorkers++;
        cursor._arm();
        this.#waiting.push(cursor);
        this.#dispatch();
        return cursor;
    }
    /** The rows of a bounded point read, run in-process; null when the read needs a worker (then use query). */
    pointRead(sql, params) {
        if (this.#closed)
            throw new errors_1.PatinaError('unavailable', 'the agent is shutting down');
        const rows = this.#bounded?.runValues(sql, params) ?? null;
        if (rows)
            this.#counts.inProcess++;
        return rows;
    }
    async close() {
        this.#closed = true;
        this.#bounded?.close();
        this.#bounded = null;
        if (this.#trimTimer)
            clearTimeout(this.#trimTimer);
        for (const c of this.#waiting.splice(0))
            c._fail(new errors_1.PatinaError('unavailable', 'the agent is shutting down'));
        await Promise.all([...this.#slots].map((s) => new Promise((resolve) => {
            if (s.worker.exitCode !== null || s.worker.signalCode !== null)
                return resolve();
            s.worker.once('exit', () => resolve());
            s.worker.kill('SIGKILL');
        })));
        this.#slots.clear();
        this.#idle.length = 0;
    }
    /** The writer committed: in-process reads must see it. */
    committed() {
        this.#bounded?.endSnapshot();
    }
    /** The schema changed: forget what was prepared for in-process reads. */
    schemaChanged() {
        this.#bounded?.clear();
    }
    /** Statements the in-process reads keep prepared. */
    get cachedStatements() {
        return this.#bounded?.cachedStatements ?? 0;
    }
    /** How many workers exist and how many are running a read. */
    stats() {
        return {
            workers: this.#slots.size,
            busy: this.#slots.size - this.#idle.length,
            waiting: this.#waiting.length,
            in_process_total: this.#counts.inProcess,
            on_workers_total: this.#counts.onWorkers,
        };
    }
    #spawn() {
        const worker = (0, node_child_process_1.fork)(node_path_1.default.join(__dirname, 'read-worker.js'), [this.#dbPath], {
            serialization: 'advanced', // structured clone: bigint and Buffer cells cross intact
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
            execArgv: [],
        });
        const slot = { worker, cursor: null, idleSince: Date.now(), startedAt: 0 };
        worker.on('message', (m) => {
            const c = slot.cursor;
            if (!c || c.id !== m.id)
                return;
            if (c._receive(m))
                this.#release(slot);
        });
        worker.on('error', (err) => {
            slot.cursor?._fail(new errors_1.PatinaError('internal', `read worker failed: ${err.message}`));
            this.#retire(slot);
        });
        worker.on('exit', () => this.#retire(slot));
        worker.unref();
        worker.channel?.unref();
        this.#slots.add(slot);
        return slot;
    }
    #dispatch() {
        while (this.#waiting.length > 0 && !this.#closed) {
            let slot = this.#idle.pop();
            if (!slot) {
                if (this.#slots.size >= this.#opts.maxWorkers)
                    return;
                slot = this.#spawn();
            }
            const cursor = this.#waiting.shift();
            slot.cursor = cursor;
            slot.startedAt = performance.now();
            cursor._start(slot);
        }
    }
    #release(slot) {
        if (slot.cursor)
            this.onWorkerRead?.(slot.cursor.sql, (performance.now() - slot.startedAt) / 1000);
        slot.cursor = null;
        if (!this.#slots.has(slot))
            return;
        slot.idleSince = Date.now();
        this.#idle.push(slot);
        this.#dispatch();
        this.#scheduleTrim();
    }
    /** Stops workers beyond minWorkers that stayed idle; #idle is used last-in first-out, so its front is the oldest. */
    #scheduleTrim() {
        if (this.#trimTimer || this.#closed || this.#slots.size <= this.#opts.minWorkers || this.#idle.length === 0)
            return;
        const due = Math.max(1000, this.#idle[0].idleSince + IDLE_RETIRE_MS - Date.now());
        this.#trimTimer = setTimeout(() => {
            this.#trimTimer = null;
            const now = Date.now();
            while (this.#slots.size > this.#opts.minWorkers &&
                this.#idle.length > 0 &&
                now - this.#idle[0].idleSince >= IDLE_RETIRE_MS) {
                const slot = this.#idle.shift();
                this.#slots.delete(slot);
                slot.worker.kill('SIGKILL');
            }
            this.#scheduleTrim();
        }, due);
        this.#trimTimer.unref();
    }
    #retire(slot) {
        if (!this.#slots.delete(slot))
            return;
        const i = this.#idle.indexOf(slot);
        if (i >= 0)
            this.#idle.splice(i, 1);
        slot.cursor?._fail(new errors_1.PatinaError('internal', 'read worker exited'));
        slot.cursor = null;
        if (!this.#closed) {
            while (this.#slots.size < this.#opts.minWorkers)
                this.#idle.push(this.#spawn());
            this.#dispatch();
        }
    }
    /** Stops a worker stuck in a statement: better-sqlite3 cannot interrupt a step, so the process goes. */
    _kill(slot) {
        this.#retire(slot);
        slot.worker.kill('SIGKILL');
    }
    _unqueue(cursor) {
        const i = this.#waiting.indexOf(cursor);
        if (i >= 0)
            this.#waiting.splice(i, 1);
    }
}
exports.ReadPool = ReadPool;
/** The rows of one read, pulled batch by batch; pulling grants the worker credit for the next batch. */
class ReadCursor {
    id;
    #req;
    #pool;
    #slot = null;
    #timer = null;
    #head;
    #resolveHead;
    #rejectHead;
    #batches = [];
    #ended = false;
    #error = null;
    #waiter = null;
    #headSeen = false;
    constructor(id, req, pool) {
        this.id = id;
        this.#req = req;
        this.#pool = pool;
        this.#head = new Promise((res, rej) => {
            this.#resolveHead = res;
            this.#rejectHead = rej;
        });
        this.#head.catch(() => undefined); // a caller that never asks for the head still sees the error in next()
    }
    get sql() {
        return this.#req.sql;
    }
    /** Arms the timeout; only reads that go to a worker need one. */
    _arm() {
        const ms = this.#req.timeoutMs;
        if (ms !== undefined && ms > 0 && !this.#ended) {
            this.#timer = setTimeout(() => this.#timeout(), ms);
            this.#timer.unref();
        }
    }
    /** Columns and execution time, once the query has run to its first row. Rejects on bad SQL. */
    head() {
        return this.#head;
    }
    _start(slot) {
        this.#slot = slot;
        const msg = {
            type: 'run',
            id: this.id,
            sql: this.#req.sql,
            params: this.#req.params,
            format: this.#req.format,
            credits: CREDIT_WINDOW,
            batchRows: BATCH_ROWS,
            batchBytes: BATCH_BYTES,
        };
        slot.worker.send(msg);
    }
    /** Takes a worker message; returns true when the worker is free again. */
    _receive(m) {
        switch (m.type) {
            case 'head':
                this.#headSeen = true;
                this.#resolveHead({ columns: m.columns, time: m.time });
                if (m.batch && m.batch.count > 0)
                    this.#push(m.batch);
                if (m.done)
                    this.#end();
                return m.done;
            case 'rows':
                if (m.batch.count > 0)
                    this.#push(m.batch);
                if (m.done)
                    this.#end();
                return m.done;
            case 'done':
                this.#end();
                return true;
            case 'error': {
                const kind = m.kind === 'timeout' ? 'timeout' : m.kind;
                // Rows the worker read before the failure are still delivered, then the error.
                this._fail(new errors_1.PatinaError(kind, m.message, m.code, m.sqlstate), true);
                return true;
            }
        }
    }
    #push(batch) {
        if (this.#waiter) {
            const w = this.#waiter;
            this.#waiter = null;
            w.resolve({ value: batch, done: false });
            this.#credit();
        }
        else {
            this.#batches.push(batch);
        }
    }
    #credit() {
        if (this.#slot && !this.#ended)
            this.#slot.worker.send({ type: 'credit', id: this.id, n: 1 });
    }
    #end() {
        this.#ended = true;
        this.#slot = null;
        this.#clearTimer();
        if (this.#waiter && this.#batches.length === 0) {
            const w = this.#waiter;
            this.#waiter = null;
            w.resolve({ value: undefined, done: true });
        }
    }
    _fail(err, keepBatches = false) {
        if (this.#ended && !this.#waiter) {
            if (!this.#headSeen)
                this.#rejectHead(err);
            return;
        }
        this.#error = err;
        this.#ended = true;
        this.#slot = null;
        this.#clearTimer();
        if (!keepBatches)
            this.#batches.length = 0;
        if (!this.#headSeen)
            this.#rejectHead(err);
        if (this.#waiter) {
            const w = this.#waiter;
            this.#waiter = null;
            w.reject(err);
        }
    }
    #clearTimer() {
        if (this.#timer)
            clearTimeout(this.#timer);
        this.#timer = null;
    }
    #timeout() {
        const secs = (this.#req.timeoutMs ?? 0) / 1000;
        const err = new errors_1.PatinaError('timeout', `query interrupted: it ran longer than the timeout of ${secs} s`, 'SQLITE_INTERRUPT');
        const slot = this.#slot;
        this._fail(err);
        this.#pool._unqueue(this);
        if (slot)
            this.#pool._kill(slot);
    }
    /** Every batch, when the whole result has already arrived without error; else null (stream it). */
    takeComplete() {
        if (!this.#ended || this.#error)
            return null;
        return this.#batches.splice(0);
    }
    next() {
        const b = this.#batches.shift();
        if (b) {
            this.#credit();
            return Promise.resolve({ value: b, done: false });
        }
        if (this.#error)
            return Promise.reject(this.#error);
        if (this.#ended)
            return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => {
            this.#waiter = { resolve, reject };
        });
    }
    /** Stops the read early (the client went away); frees its worker. */
    async return() {
        this.cancel();
        return { value: undefined, done: true };
    }
    cancel(reason = 'the read was cancelled') {
        if (this.#ended)
            return;
        const slot = this.#slot;
        this._fail(new errors_1.PatinaError('timeout', reason, 'SQLITE_INTERRUPT'));
        this.#pool._unqueue(this);
        if (!slot)
            return;
        if (this.#headSeen)
            slot.worker.send({ type: 'cancel', id: this.id });
        else
            this.#pool._kill(slot); // still inside its first step, which may take long
    }
    [Symbol.asyncIterator]() {
        return this;
    }
}
exports.ReadCursor = ReadCursor;
//# sourceMappingURL=read-pool.js.map