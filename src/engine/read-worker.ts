// A read connection in its own process: prepares, checks and steps one read at a time, sending rows
// in batches only as far as the agent has granted credit, so memory stays bounded. A process, not a
// thread, because better-sqlite3 cannot interrupt a running statement and a thread stuck in one
// cannot be stopped; a process can be killed (timeouts, cancels).
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { FromWorker, RowBatch, ToWorker } from './read-protocol';
import { narrowInteger, rowToJson } from './values';
import { significant, tokenize } from './sql-text';

const port = {
  postMessage: (m: FromWorker) => process.send!(m),
  on: (ev: 'message', fn: (m: ToWorker) => void) => process.on(ev, fn),
};
// When the agent dies (even by SIGKILL) this process must not live on, and its main thread may be
// stuck in a statement: a watchdog thread notices the new parent and kills the process.
const parent = process.ppid;
new Worker(
  `setInterval(() => { if (process.ppid !== ${parent}) process.kill(process.pid, 'SIGKILL'); }, 500);`,
  { eval: true },
).unref();
process.on('disconnect', () => process.exit(0));
const db = new Database(process.argv[2], { readonly: true, fileMustExist: true });
db.defaultSafeIntegers(true);
db.pragma('busy_timeout = 5000');

const BATCH_MS = 50;

interface Job {
  id: number;
  iter: IterableIterator<unknown[]>;
  format: 'ndjson' | 'values';
  credits: number;
  batchRows: number;
  batchBytes: number;
  rowid: number;
  pending: IteratorResult<unknown[]> | null;
  /** A step that failed after rows of the same batch were read: sent after those rows. */
  failure: unknown;
}
let job: Job | null = null;

const post = (m: FromWorker) => port.postMessage(m);

function narrowRow(row: unknown[]): unknown[] {
  for (let i = 0; i < row.length; i++) if (typeof row[i] === 'bigint') row[i] = narrowInteger(row[i] as bigint);
  return row;
}

/** Steps the cursor for one batch; returns the batch and whether the result is exhausted. */
function nextBatch(j: Job): { batch: RowBatch; done: boolean } {
  let text = '';
  const rows: unknown[][] = [];
  let count = 0;
  const started = performance.now();
  if (j.failure !== undefined) throw j.failure;
  for (;;) {
    let r: IteratorResult<unknown[]>;
    try {
      r = j.pending ?? j.iter.next();
    } catch (err) {
      if (count === 0) throw err;
      // The rows read before the failing one go out first; the error follows with the next batch.
      j.failure = err;
      return { batch: { count, text, rows }, done: false };
    }
    j.pending = null;
    if (r.done) return { batch: { count, text, rows }, done: true };
    count++;
    if (j.format === 'ndjson') text += '{"row":[' + ++j.rowid + ',' + rowToJson(r.value) + ']}\n';
    else rows.push(narrowRow(r.value));
    // Slow rows go out as they come: a batch is also cut once it has taken BATCH_MS to fill.
    if (count >= j.batchRows || text.length >= j.batchBytes || performance.now() - started >= BATCH_MS) {
      // Look one row ahead so the last batch carries `done` and a point read costs one message.
      try {
        const ahead = j.iter.next();
        if (ahead.done) return { batch: { count, text, rows }, done: true };
        j.pending = ahead;
      } catch (err) {
        j.failure = err;
      }
      return { batch: { count, text, rows }, done: false };
    }
  }
}

function fail(id: number, err: unknown) {
  const e = err as { message?: string; code?: string };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const kind = code === 'SQLITE_INTERRUPT' ? 'timeout' : code && !code.startsWith('SQLITE_IOERR') && code !== 'SQLITE_CORRUPT' ? 'user' : err instanceof RangeError || err instanceof TypeError ? 'user' : 'internal';
  post({ type: 'error', id, kind, message: e.message ?? String(err), code });
  if (job && job.id === id) closeJob();
}

function closeJob() {
  if (!job) return;
  try {
    job.iter.return?.();
  } catch {
    // the cursor is being dropped anyway
  }
  job = null;
}

function pump() {
  const j = job;
  if (!j) return;
  try {
    while (j.credits > 0) {
      j.credits--;
      const { batch, done } = nextBatch(j);
      if (done) closeJob();
      post({ type: 'rows', id: j.id, batch, done });
      if (done) return;
    }
  } catch (err) {
    fail(j.id, err);
  }
}

const WRITES = () => Object.assign(new Error('statement writes; a read may not change the database, and writes go to POST /v1/transactions'), { code: 'PATINA_WRITES' });
const WRITE_WORDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']);

/**
 * Prepares a read. A write can fail to prepare on this connection (the change-capture triggers call
 * functions only the writer defines); such a failure is reported as the write it is.
 */
function prepare(sql: string): Database.Statement {
  try {
    return db.prepare(sql);
  } catch (err) {
    if (err instanceof Database.SqliteError && significant(tokenize(sql)).some((t) => t.type === 'word' && WRITE_WORDS.has(t.text.toUpperCase()))) throw WRITES();
    throw err;
  }
}

function run(m: Extract<ToWorker, { type: 'run' }>) {
  const t0 = performance.now();
  try {
    const stmt = prepare(m.sql);
    if (!stmt.reader) throw Object.assign(new Error('statement is not a query (it returns no rows); a read must be a SELECT, and writes go to POST /v1/transactions'), { code: 'PATINA_NOT_A_QUERY' });
    if (!stmt.readonly) throw WRITES();
    stmt.raw(true);
    const columns = stmt.columns().map((c) => ({ name: c.name, declType: c.type }));
    const p = m.params;
    const iter = (p === undefined ? stmt.iterate() : Array.isArray(p) ? stmt.iterate(...p) : stmt.iterate(p)) as IterableIterator<unknown[]>;
    job = { id: m.id, iter, format: m.format, credits: m.credits, batchRows: m.batchRows, batchBytes: m.batchBytes, rowid: 0, pending: null, failure: undefined };
    // The first step runs the query; the time reported is that, not the iteration of the rest.
    job.pending = iter.next();
    const time = (performance.now() - t0) / 1000;
    const { batch, done } = nextBatch(job);
    if (done) closeJob();
    post({ type: 'head', id: m.id, columns, time, batch, done });
    if (!done) pump();
  } catch (err) {
    fail(m.id, err);
  }
}

port.on('message', (m: ToWorker) => {
  switch (m.type) {
    case 'run':
      if (job) closeJob(); // the pool sends one job at a time; a stale one is dropped
      run(m);
      break;
    case 'credit':
      if (job && job.id === m.id) {
        job.credits += m.n;
        pump();
      }
      break;
    case 'cancel':
      if (job && job.id === m.id) {
        closeJob();
        post({ type: 'done', id: m.id });
      }
      break;
  }
});
