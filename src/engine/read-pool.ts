import path from 'node:path';
import { PatinaError } from '../errors';
import { BoundedReads } from './bounded-reads';
import { type PinnedClock, withClock } from './micro-clock';
import { type PoolSlot, ProcessPool } from './process-pool';
import type { ColumnInfo, FromWorker, ReadAnswer, RowBatch, RowFormat, ToWorker } from './read-protocol';
import type { SqlParams } from './values';

export interface ReadRequest {
  sql: string;
  params?: SqlParams;
  format: RowFormat;
  /** Interrupt the read after this long (the cursor then fails with a 'timeout' error). */
  timeoutMs?: number;
  /** The timeout error's message, when not the default (a PG session's statement_timeout words it as PostgreSQL). */
  timeoutMessage?: string;
  /** The PG session's now() and statement_timestamp() (micro-clock.ts), when the SQL reads them. */
  clock?: PinnedClock;
}

export interface ReadHead {
  columns: ColumnInfo[];
  /** Seconds SQLite took to run the query up to its first row. */
  time: number;
}

export interface ReadPoolOptions {
  /** Workers kept open while idle. */
  minWorkers: number;
  /** Workers at the most; reads beyond that wait their turn. */
  maxWorkers: number;
}

const BATCH_ROWS = 512;
const BATCH_BYTES = 64 * 1024;
const CREDIT_WINDOW = 2;

type Slot = PoolSlot<ReadCursor>;

/**
 * Read connections in worker processes (read-worker.ts, run by a ProcessPool), so that no read blocks
 * the event loop and a long read does not delay another: each read gets an idle worker, a new one if
 * none is idle (up to maxWorkers). Bounded point reads are answered in-process (bounded-reads.ts).
 */
export class ReadPool {
  readonly #workers: ProcessPool<ReadCursor, FromWorker>;
  #nextId = 1;
  #bounded: BoundedReads | null;
  /** Reads answered in-process and reads run on a worker, since start. */
  readonly #counts = { inProcess: 0, onWorkers: 0 };
  /** Told of every read a worker finished: its SQL and seconds from start to last row (slow-query log). */
  onWorkerRead: ((sql: string, seconds: number) => void) | null = null;

  constructor(dbPath: string, opts: ReadPoolOptions) {
    this.#workers = new ProcessPool<ReadCursor, FromWorker>(
      { script: path.join(__dirname, 'read-worker.js'), args: [dbPath], name: 'read worker', ...opts },
      {
        start: (cursor, slot) => cursor._start(slot),
        receive: (cursor, m) => m.type !== 'ready' && cursor.id === m.id && cursor._receive(m),
        fail: (cursor, err) => cursor._fail(err),
        finished: (cursor, seconds) => this.onWorkerRead?.(cursor.sql, seconds),
      },
    );
    this.#bounded = new BoundedReads(dbPath);
  }

  /** Starts a read; rows come through the returned cursor, which must be drained or cancelled. */
  query(req: ReadRequest): ReadCursor {
    if (this.#workers.closed) throw new PatinaError('unavailable', 'the agent is shutting down');
    const cursor = new ReadCursor(this.#nextId++, req, this);
    const answer = withClock(req.clock, () => this.#bounded?.tryRun(cursor.id, req.sql, req.params, req.format));
    if (answer) {
      this.#counts.inProcess++;
      cursor._receive(answer);
      return cursor;
    }
    this.#counts.onWorkers++;
    cursor._arm();
    this.#workers.submit(cursor);
    return cursor;
  }

  /** The rows of a bounded point read, run in-process; null when the read needs a worker (then use query). */
  pointRead(sql: string, params: SqlParams | undefined): unknown[][] | null {
    if (this.#workers.closed) throw new PatinaError('unavailable', 'the agent is shutting down');
    const rows = this.#bounded?.runValues(sql, params) ?? null;
    if (rows) this.#counts.inProcess++;
    return rows;
  }

  async close(): Promise<void> {
    const stopped = this.#workers.close(); // (closed from here on: no read starts)
    this.#bounded?.close();
    this.#bounded = null;
    await stopped;
  }

  /** The writer committed: in-process reads must see it. */
  committed(): void {
    this.#bounded?.endSnapshot();
  }

  /** The schema changed: forget what was prepared for in-process reads. */
  schemaChanged(): void {
    this.#bounded?.clear();
  }

  /** Statements the in-process reads keep prepared. */
  get cachedStatements(): number {
    return this.#bounded?.cachedStatements ?? 0;
  }

  /** How many workers exist and how many are running a read. */
  stats(): { workers: number; busy: number; waiting: number; in_process_total: number; on_workers_total: number } {
    const { workers, busy, waiting } = this.#workers.stats();
    return {
      workers,
      busy,
      waiting,
      in_process_total: this.#counts.inProcess,
      on_workers_total: this.#counts.onWorkers,
    };
  }

  /** Stops a worker stuck in a statement: better-sqlite3 cannot interrupt a step, so the process goes. */
  _kill(slot: Slot) {
    this.#workers.kill(slot);
  }

  _unqueue(cursor: ReadCursor) {
    this.#workers.unqueue(cursor);
  }
}

type Waiter = { resolve: (r: IteratorResult<RowBatch>) => void; reject: (e: unknown) => void };

/** The rows of one read, pulled batch by batch; pulling grants the worker credit for the next batch. */
export class ReadCursor implements AsyncIterableIterator<RowBatch> {
  readonly id: number;
  readonly #req: ReadRequest;
  readonly #pool: ReadPool;
  #slot: Slot | null = null;
  #timer: NodeJS.Timeout | null = null;
  #head: Promise<ReadHead>;
  #resolveHead!: (h: ReadHead) => void;
  #rejectHead!: (e: unknown) => void;
  readonly #batches: RowBatch[] = [];
  #ended = false;
  #error: PatinaError | null = null;
  #waiter: Waiter | null = null;
  #headSeen = false;

  constructor(id: number, req: ReadRequest, pool: ReadPool) {
    this.id = id;
    this.#req = req;
    this.#pool = pool;
    this.#head = new Promise((res, rej) => {
      this.#resolveHead = res;
      this.#rejectHead = rej;
    });
    this.#head.catch(() => undefined); // a caller that never asks for the head still sees the error in next()
  }

  get sql(): string {
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
  head(): Promise<ReadHead> {
    return this.#head;
  }

  _start(slot: Slot) {
    this.#slot = slot;
    const msg: ToWorker = {
      type: 'run',
      id: this.id,
      sql: this.#req.sql,
      params: this.#req.params,
      format: this.#req.format,
      ...(this.#req.clock ? { clock: this.#req.clock } : {}),
      credits: CREDIT_WINDOW,
      batchRows: BATCH_ROWS,
      batchBytes: BATCH_BYTES,
    };
    slot.worker.send(msg);
  }

  /** Takes a worker message; returns true when the worker is free again. */
  _receive(m: ReadAnswer): boolean {
    switch (m.type) {
      case 'head':
        this.#headSeen = true;
        this.#resolveHead({ columns: m.columns, time: m.time });
        if (m.batch && m.batch.count > 0) this.#push(m.batch);
        if (m.done) this.#end();
        return m.done;
      case 'rows':
        if (m.batch.count > 0) this.#push(m.batch);
        if (m.done) this.#end();
        return m.done;
      case 'done':
        this.#end();
        return true;
      case 'error': {
        const kind = m.kind === 'timeout' ? 'timeout' : m.kind;
        // Rows the worker read before the failure are still delivered, then the error.
        const err = new PatinaError(kind, m.message, m.code, m.sqlstate);
        if (m.hint !== undefined) err.hint = m.hint;
        if (m.detail !== undefined) err.detail = m.detail;
        this._fail(err, true);
        return true;
      }
    }
  }

  #push(batch: RowBatch) {
    if (this.#waiter) {
      const w = this.#waiter;
      this.#waiter = null;
      w.resolve({ value: batch, done: false });
      this.#credit();
    } else {
      this.#batches.push(batch);
    }
  }

  #credit() {
    if (this.#slot && !this.#ended) this.#slot.worker.send({ type: 'credit', id: this.id, n: 1 } satisfies ToWorker);
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

  _fail(err: PatinaError, keepBatches = false) {
    if (this.#ended && !this.#waiter) {
      if (!this.#headSeen) this.#rejectHead(err);
      return;
    }
    this.#error = err;
    this.#ended = true;
    this.#slot = null;
    this.#clearTimer();
    if (!keepBatches) this.#batches.length = 0;
    if (!this.#headSeen) this.#rejectHead(err);
    if (this.#waiter) {
      const w = this.#waiter;
      this.#waiter = null;
      w.reject(err);
    }
  }

  #clearTimer() {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #timeout() {
    const secs = (this.#req.timeoutMs ?? 0) / 1000;
    const err = new PatinaError(
      'timeout',
      this.#req.timeoutMessage ?? `query interrupted: it ran longer than the timeout of ${secs} s`,
      'SQLITE_INTERRUPT',
    );
    const slot = this.#slot;
    this._fail(err);
    this.#pool._unqueue(this);
    if (slot) this.#pool._kill(slot);
  }

  /** Every batch, when the whole result has already arrived without error; else null (stream it). */
  takeComplete(): RowBatch[] | null {
    if (!this.#ended || this.#error) return null;
    return this.#batches.splice(0);
  }

  next(): Promise<IteratorResult<RowBatch>> {
    const b = this.#batches.shift();
    if (b) {
      this.#credit();
      return Promise.resolve({ value: b, done: false });
    }
    if (this.#error) return Promise.reject(this.#error);
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  /** Stops the read early (the client went away); frees its worker. */
  async return(): Promise<IteratorResult<RowBatch>> {
    this.cancel();
    return { value: undefined, done: true };
  }

  cancel(reason = 'the read was cancelled'): void {
    if (this.#ended) return;
    const slot = this.#slot;
    this._fail(new PatinaError('timeout', reason, 'SQLITE_INTERRUPT'));
    this.#pool._unqueue(this);
    if (!slot) return;
    if (this.#headSeen) slot.worker.send({ type: 'cancel', id: this.id } satisfies ToWorker);
    else this.#pool._kill(slot); // still inside its first step, which may take long
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
