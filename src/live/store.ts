import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { errorFields, log } from '../observability/log';
import { OpBuffer, Op, applyOps, prepareWrites, type WriteStatements } from './store-ops';
import { APPLIED, CLOSED, DONE, STATE_WORDS, type StoreAck, type StoreChunk } from './store-writer-protocol';

/** A subscription's row as persisted. */
export interface StoredSubscription {
  id: number;
  uuid: string;
  /** Hash of the SQL and parameters: the same pair finds the same subscription. */
  key: string;
  sql: string;
  /** The parameters, encoded by encodeParams. */
  params: string | null;
  columns: string[];
  nextRowId: number;
  lastChange: number;
  listenedAt: number;
}

export interface StoredRow {
  rowId: number;
  key: string;
  cells: string;
}

/** A stored row found for one of many subscriptions. */
export interface PairedRow extends StoredRow {
  sub: number;
}

/** Pairs per lookup of rowsByKeys and refRowsByParts. */
export const MAX_PAIRS = 256;

export interface StoredChange {
  changeId: number;
  kind: string;
  rowId: number;
  cells: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS subscriptions (
  id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, key TEXT NOT NULL UNIQUE, sql TEXT NOT NULL,
  params TEXT, columns TEXT NOT NULL, next_row_id INTEGER NOT NULL, last_change INTEGER NOT NULL,
  listened_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS rows (
  sub INTEGER NOT NULL, row_id INTEGER NOT NULL, key TEXT NOT NULL, cells TEXT NOT NULL,
  PRIMARY KEY (sub, row_id)) WITHOUT ROWID;
DROP INDEX IF EXISTS rows_by_key;
CREATE INDEX IF NOT EXISTS rows_by_source ON rows (key, sub);
CREATE TABLE IF NOT EXISTS refs (
  sub INTEGER NOT NULL, occ INTEGER NOT NULL, part TEXT NOT NULL, row_id INTEGER NOT NULL,
  PRIMARY KEY (sub, occ, part, row_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS changes (
  sub INTEGER NOT NULL, change_id INTEGER NOT NULL, kind TEXT NOT NULL, row_id INTEGER NOT NULL,
  cells TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (sub, change_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS state (key TEXT NOT NULL PRIMARY KEY, value) WITHOUT ROWID;
`;

/** Operations past which a transaction's gathered writes go to the writer thread before its commit. */
const CHUNK_OPS = 60_000;
/**
 * Messages of operations the writer thread may have waiting before sliced work pauses for it to catch
 * up (see behind): a large batch's writes then wait in SQLite, not in this thread's memory.
 */
const MAX_MESSAGES_AHEAD = 4;
/** How long a read waits for the writer thread before it gives up (it never takes this long). */
const DRAIN_TIMEOUT_MS = 60_000;

/**
 * Every subscription's current result (rows by row id, with their identity key), the index from
 * source keys to rows of joins, and the change log, in one SQLite file beside the database (never in
 * the replicated data file). WAL with synchronous NORMAL: a commit survives a SIGKILL of the agent.
 *
 * Writes are not made on the agent's thread: each write method only records an operation (see
 * store-ops.ts), and a transaction's operations go, at its commit, to a thread of its own
 * (store-writer.ts) that owns the store's write connection and commits them there, in order, one
 * SQLite transaction each (a large one is sent in chunks as it grows). commit() answers a promise
 * that settles once that transaction is committed: the matcher hands changes to clients only then.
 * Every read first waits until every transaction sent is committed (usually at once: the thread is
 * done long before), so what the agent reads here is always everything it wrote, and never part of a
 * transaction. Reads inside a transaction do not see its own uncommitted writes (none needs to).
 * An in-memory store (tests) runs the same operations on the agent's thread at commit.
 */
export class SubscriptionStore {
  readonly db: Database.Database;
  readonly file: string;
  readonly #st: Record<string, Database.Statement>;
  readonly #listStmts = new Map<string, Database.Statement>();
  /** The write statements of an in-memory store (run here). */
  readonly #writes: WriteStatements | null;
  /** The writer thread of a store in a file, and the words it shares with this thread (see store-writer-protocol.ts). */
  readonly #worker: Worker | null;
  readonly #state: Int32Array | null;
  /** Operations of the open transaction not sent yet. */
  #ops = new OpBuffer();
  /** Depth of transaction() calls, plus one while begin() holds a transaction open. */
  #depth = 0;
  /** Whether begin() opened the transaction (only such a one is sent in chunks as it grows). */
  #begun = false;
  /** Whether chunks of the open transaction were sent already (the thread holds it open). */
  #chunked = false;
  /** Transactions sent to the thread (their sequence numbers), and those it told the outcome of. */
  #sent = 0;
  /** Messages of operations sent (chunks and commits), to compare with what the thread ran. */
  #messages = 0;
  readonly #waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  #nextId: number;
  #closed = false;
  /** The writer thread is gone: reads no longer wait for it. */
  #dead = false;

  constructor(file: string) {
    this.file = file;
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    // The writer thread's checkpoints hold the write lock for a moment when they make the WAL start over.
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    this.#nextId = ((this.db.prepare('SELECT max(id) FROM subscriptions').pluck().get() as number | null) ?? 0) + 1;
    if (file === ':memory:') {
      this.#writes = prepareWrites(this.db);
      this.#worker = null;
      this.#state = null;
    } else {
      this.#writes = null;
      const shared = new SharedArrayBuffer(STATE_WORDS * 4);
      this.#state = new Int32Array(shared);
      this.#worker = new Worker(path.join(__dirname, 'store-writer.js'), { workerData: { file, shared } });
      this.#worker.unref();
      this.#worker.on('message', (m: StoreAck) => this.#acked(m));
      this.#worker.on('error', (err) => {
        log.error(errorFields(err), 'the subscription store writer thread failed');
        this.#failAll(err);
      });
      this.#worker.on('exit', () => {
        this.#dead = true;
        this.#failAll(new Error('the subscription store writer thread exited'));
      });
    }
    const p = (sql: string) => this.db.prepare(sql);
    this.#st = {
      list: p('SELECT * FROM subscriptions ORDER BY id'),
      // INDEXED BY: without statistics SQLite prefers the primary key's (sub) prefix, a walk of the
      // whole result per changed row.
      rowsByKey: p('SELECT row_id AS rowId, key, cells FROM rows INDEXED BY rows_by_source WHERE key = ? AND sub = ?'),
      row: p('SELECT row_id AS rowId, key, cells FROM rows WHERE sub = ? AND row_id = ?'),
      allRows: p('SELECT row_id AS rowId, key, cells FROM rows WHERE sub = ?'),
      rowsPage: p('SELECT row_id AS rowId, key, cells FROM rows WHERE sub = ? AND row_id > ? ORDER BY row_id LIMIT ?'),
      refs: p('SELECT row_id FROM refs WHERE sub = ? AND occ = ? AND part = ?').pluck(),
      changes: p(
        'SELECT change_id AS changeId, kind, row_id AS rowId, cells FROM changes WHERE sub = ? AND change_id > ? AND change_id <= ? ORDER BY change_id LIMIT ?',
      ),
      minChange: p('SELECT min(change_id) FROM changes WHERE sub = ?').pluck(),
      getState: p('SELECT value FROM state WHERE key = ?').pluck(),
    };
  }

  list(): StoredSubscription[] {
    this.#drain();
    return (this.#st.list.all() as Record<string, unknown>[]).map((r) => ({
      id: r.id as number,
      uuid: r.uuid as string,
      key: r.key as string,
      sql: r.sql as string,
      params: r.params as string | null,
      columns: JSON.parse(r.columns as string) as string[],
      nextRowId: r.next_row_id as number,
      lastChange: r.last_change as number,
      listenedAt: r.listened_at as number,
    }));
  }

  /** Records a new subscription; its id is given here at once (ids are never reused while the store is open). */
  insertSubscription(
    uuid: string,
    key: string,
    sql: string,
    params: string | null,
    columns: string[],
    now: number,
  ): number {
    const id = this.#nextId++;
    const cols = JSON.stringify(columns);
    this.#open();
    this.#ops.nums.push(Op.InsertSubscription, id, now, uuid.length, key.length, sql.length);
    this.#ops.nums.push(params === null ? -1 : params.length, cols.length);
    this.#ops.strs.push(uuid, key, sql);
    if (params !== null) this.#ops.strs.push(params);
    this.#ops.strs.push(cols);
    this.#wrote();
    return id;
  }

  /** Removes a subscription with its rows and change log. */
  deleteSubscription(sub: number): void {
    this.#open();
    this.#ops.nums.push(Op.DeleteSubscription, sub);
    this.#wrote();
  }

  setHead(sub: number, nextRowId: number, lastChange: number): void {
    this.#open();
    this.#ops.nums.push(Op.SetHead, sub, nextRowId, lastChange);
    this.#wrote();
  }

  setListened(sub: number, at: number): void {
    this.#open();
    this.#ops.nums.push(Op.SetListened, sub, at);
    this.#wrote();
  }

  /** The query plan of a store statement, by its name (for the tests that check lookups stay keyed). */
  explain(name: string, ...args: unknown[]): string[] {
    const sql = this.#st[name].source;
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail);
  }

  rowsByKey(sub: number, key: string): StoredRow[] {
    this.#drain();
    return this.#st.rowsByKey.all(key, sub) as StoredRow[];
  }

  row(sub: number, rowId: number): StoredRow | undefined {
    this.#drain();
    return this.#st.row.get(sub, rowId) as StoredRow | undefined;
  }

  allRows(sub: number): StoredRow[] {
    this.#drain();
    return this.#st.allRows.all(sub) as StoredRow[];
  }

  /** Rows with row id above `after`, by row id, at most `limit`. */
  rowsPage(sub: number, after: number, limit: number): StoredRow[] {
    this.#drain();
    return this.#st.rowsPage.all(sub, after, limit) as StoredRow[];
  }

  insertRow(sub: number, rowId: number, key: string, cells: string): void {
    this.#open();
    this.#ops.nums.push(Op.InsertRow, sub, rowId, key.length, cells.length);
    this.#ops.strs.push(key, cells);
    this.#wrote();
  }

  updateRow(sub: number, rowId: number, key: string, cells: string): void {
    this.#open();
    this.#ops.nums.push(Op.UpdateRow, sub, rowId, key.length, cells.length);
    this.#ops.strs.push(key, cells);
    this.#wrote();
  }

  deleteRow(sub: number, rowId: number): void {
    this.#open();
    this.#ops.nums.push(Op.DeleteRow, sub, rowId);
    this.#wrote();
  }

  /**
   * The stored rows of every subscription with one of these identity keys (single-table results,
   * whose identity is the source key): one probe per key, whichever subscriptions hold it (the
   * shared evaluation of same-SQL subscriptions). At most MAX_PAIRS keys.
   */
  rowsByKeys(keys: readonly string[]): PairedRow[] {
    return this.#listed(
      'rows',
      keys.map((k) => [k]),
      [],
      (v) =>
        `WITH v(key) AS (VALUES ${v}) SELECT r.sub AS sub, r.row_id AS rowId, r.key AS key, r.cells AS cells FROM v CROSS JOIN rows AS r INDEXED BY rows_by_source WHERE r.key = v.key`,
    );
  }

  /** Stored rows built from the given source keys of occurrence `occ`, for many (subscription, key part) pairs (joins). */
  refRowsByParts(occ: number, pairs: readonly [number, string][]): PairedRow[] {
    return this.#listed(
      'refs',
      pairs,
      [occ],
      (v) =>
        `WITH v(sub, part) AS (VALUES ${v}) SELECT v.sub AS sub, r.row_id AS rowId, r.key AS key, r.cells AS cells FROM v CROSS JOIN refs AS f CROSS JOIN rows AS r WHERE f.sub = v.sub AND f.occ = ? AND f.part = v.part AND r.sub = f.sub AND r.row_id = f.row_id`,
    );
  }

  /** Runs a statement over a VALUES list, padded to a power of two with its last entry (cached statements). */
  #listed(
    kind: string,
    list: readonly (readonly unknown[])[],
    extra: unknown[],
    sql: (values: string) => string,
  ): PairedRow[] {
    if (list.length === 0) return [];
    if (list.length > MAX_PAIRS) throw new Error(`at most ${MAX_PAIRS} entries per lookup`);
    this.#drain();
    let n = 1;
    while (n < list.length) n *= 2;
    const key = `${kind}:${n}`;
    let st = this.#listStmts.get(key);
    if (!st) {
      const row = `(${list[0].map(() => '?').join(', ')})`;
      this.#listStmts.set(key, (st = this.db.prepare(sql(Array.from({ length: n }, () => row).join(', ')))));
    }
    const args: unknown[] = [];
    for (let k = 0; k < n; k++) args.push(...list[Math.min(k, list.length - 1)]);
    return st.all(...args, ...extra) as PairedRow[];
  }

  /** The query plan of a lookup of `n` keys or pairs (for the tests that check lookups stay keyed). */
  explainListed(kind: 'rows' | 'refs', n: number): string[] {
    const pairs = Array.from({ length: n }, (_, k): [number, string] => [k + 1, `k${k}`]);
    if (kind === 'rows') this.rowsByKeys(pairs.map((p) => p[1]));
    else this.refRowsByParts(0, pairs);
    const st = this.#listStmts.get(`${kind}:${n}`)!;
    const args = kind === 'rows' ? pairs.map((p) => p[1]) : [...pairs.flat(), 0];
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${st.source}`).all(...args) as { detail: string }[]).map(
      (r) => r.detail,
    );
  }

  refs(sub: number, occ: number, part: string): number[] {
    this.#drain();
    return this.#st.refs.all(sub, occ, part) as number[];
  }

  insertRef(sub: number, occ: number, part: string, rowId: number): void {
    this.#open();
    this.#ops.nums.push(Op.InsertRef, sub, occ, rowId, part.length);
    this.#ops.strs.push(part);
    this.#wrote();
  }

  deleteRef(sub: number, occ: number, part: string, rowId: number): void {
    this.#open();
    this.#ops.nums.push(Op.DeleteRef, sub, occ, rowId, part.length);
    this.#ops.strs.push(part);
    this.#wrote();
  }

  appendChange(sub: number, c: StoredChange, at: number): void {
    this.#open();
    this.#ops.nums.push(Op.AppendChange, sub, c.changeId, c.rowId, at, c.kind.length, c.cells.length);
    this.#ops.strs.push(c.kind, c.cells);
    this.#wrote();
  }

  /** Changes with after < change id <= upTo, oldest first, at most `limit`. */
  changes(sub: number, after: number, upTo: number, limit: number): StoredChange[] {
    this.#drain();
    return this.#st.changes.all(sub, after, upTo, limit) as StoredChange[];
  }

  /** The oldest change id still kept, or null when none is. */
  minChange(sub: number): number | null {
    this.#drain();
    return this.#st.minChange.get(sub) as number | null;
  }

  /** Drops changes up to `upTo` that are older than `before` (ms). */
  prune(sub: number, upTo: number, before: number): void {
    this.#open();
    this.#ops.nums.push(Op.Prune, sub, upTo, before);
    this.#wrote();
  }

  /**
   * The data's commit position (Writer.commits) at which every stored result was last known to equal
   * its query, or null. Start-up re-runs nothing when the data is still at that position.
   */
  matched(): number | null {
    this.#drain();
    const v = this.#st.getState.get('matched') as number | null | undefined;
    return v === undefined || v === null ? null : Number(v);
  }

  setMatched(position: number): void {
    this.#open();
    this.#ops.nums.push(Op.SetMatched, position);
    this.#wrote();
  }

  /**
   * Runs `fn`, whose writes commit together (inside a transaction that begin() holds open, with
   * it); if `fn` throws, none of its writes is made. Returns once they are sent, not committed.
   */
  transaction<T>(fn: () => T): T {
    const mark = this.#ops.mark();
    this.#depth++;
    let out: T;
    try {
      out = fn();
    } catch (err) {
      this.#ops.truncate(mark);
      this.#depth--;
      throw err;
    }
    this.#depth--;
    if (this.#depth === 0) void this.#send(true).catch(() => undefined); // failures are logged
    return out;
  }

  /** Before a write's operation is recorded. */
  #open(): void {
    if (this.#closed) throw new Error('the subscription store is closed');
  }

  /** After a write's operation was recorded: sent as a transaction of its own, or part of the open one. */
  #wrote(): void {
    if (this.#depth === 0)
      void this.#send(true).catch(() => undefined); // failures are logged
    // not inside a nested transaction(), whose writes must be droppable until it returns
    else if (this.#begun && this.#depth === 1 && this.#worker && this.#ops.size >= CHUNK_OPS) void this.#send(false);
  }

  /**
   * A store transaction that spans several turns of the event loop (the matcher's sliced work).
   * What others write meanwhile with transaction() joins it and commits with it.
   */
  begin(): void {
    if (this.#depth > 0) throw new Error('a subscription store transaction is already open');
    this.#depth = 1;
    this.#begun = true;
  }

  /**
   * Ends the transaction begin() opened: its writes are sent to be committed. The promise settles
   * once they are (an in-memory store commits before this returns); it rejects if they could not be.
   */
  commit(): Promise<void> {
    if (!this.#begun) return Promise.resolve();
    this.#depth = 0;
    this.#begun = false;
    return this.#send(true);
  }

  /** Ends the transaction begin() opened without any of its writes. */
  rollback(): void {
    if (!this.#begun) return;
    this.#depth = 0;
    this.#begun = false;
    this.#ops = new OpBuffer();
    if (this.#chunked) {
      this.#chunked = false;
      this.#worker!.postMessage({ seq: 0, rollback: true } satisfies StoreChunk);
    }
  }

  /** Sends (or, in memory, runs) the gathered operations; `commit`: they end a transaction. */
  #send(commit: boolean): Promise<void> {
    if (this.#ops.size === 0 && !this.#chunked) return Promise.resolve();
    const { nums, text } = this.#ops.take();
    if (!this.#worker) {
      const st = this.#writes!;
      try {
        this.db.transaction(() => applyOps(st, nums, text))();
      } catch (err) {
        log.warn(errorFields(err), 'subscription store write failed');
        return Promise.reject(err);
      }
      return Promise.resolve();
    }
    if (!commit) {
      this.#chunked = true;
      this.#messages++;
      this.#worker.postMessage({ seq: 0, nums, text } satisfies StoreChunk, [nums.buffer as ArrayBuffer]);
      return Promise.resolve();
    }
    this.#chunked = false;
    const seq = ++this.#sent;
    this.#messages++;
    this.#worker.postMessage({ seq, nums, text } satisfies StoreChunk, [nums.buffer as ArrayBuffer]);
    return new Promise<void>((resolve, reject) => this.#waiting.set(seq, { resolve, reject }));
  }

  #acked(m: StoreAck) {
    const w = this.#waiting.get(m.seq);
    this.#waiting.delete(m.seq);
    if (m.error === undefined) return w?.resolve();
    const err = new Error(`the subscription store could not commit: ${m.error}`);
    log.warn(errorFields(err), 'subscription store write failed');
    w?.reject(err);
  }

  #failAll(err: Error) {
    for (const w of this.#waiting.values()) w.reject(err);
    this.#waiting.clear();
  }

  /**
   * Whether the writer thread has more than a few messages of operations still to run: sliced work
   * that produces writes waits for it (Slicer) rather than pile them up here.
   */
  get behind(): boolean {
    const state = this.#state;
    return state !== null && (((this.#messages | 0) - Atomics.load(state, APPLIED)) | 0) > MAX_MESSAGES_AHEAD;
  }

  /** Waits (blocking this thread) until every transaction sent is committed: reads see all of them. */
  #drain(): void {
    const state = this.#state;
    if (!state) return;
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    for (;;) {
      const done = Atomics.load(state, DONE);
      if ((((this.#sent | 0) - done) | 0) <= 0) return;
      if (this.#dead || Date.now() > deadline || Atomics.load(state, CLOSED) !== 0)
        throw new Error('the subscription store writer thread does not answer');
      Atomics.wait(state, DONE, done, 1000);
    }
  }

  /**
   * A consistent read of one subscription's rows on its own connection: the head as of now, then
   * the rows page by page while writes go on. Null for an in-memory store (the caller reads at once).
   */
  openSnapshot(sub: number): StoreSnapshot | null {
    if (this.file === ':memory:') return null;
    this.#drain();
    const db = new Database(this.file, { readonly: true });
    try {
      db.exec('BEGIN');
      const head = db.prepare('SELECT last_change FROM subscriptions WHERE id = ?').pluck().get(sub) as
        | number
        | undefined;
      return new StoreSnapshot(db, sub, head ?? 0);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** Commits what was sent, stops the writer thread (it checkpoints the WAL) and closes. */
  close(): void {
    if (this.#closed) return;
    this.rollback();
    try {
      this.#drain();
    } finally {
      this.#closed = true;
      if (this.#worker && this.#state && !this.#dead) {
        this.#worker.postMessage({ seq: 0, close: true } satisfies StoreChunk);
        const deadline = Date.now() + 10_000;
        while (Atomics.load(this.#state, CLOSED) === 0 && Date.now() < deadline)
          Atomics.wait(this.#state, CLOSED, 0, 100);
      }
      try {
        this.db.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // a snapshot reader still holds the WAL
      }
      this.db.close();
    }
  }
}

/** Rows of one subscription as of one moment, read in pages by row id. */
export class StoreSnapshot {
  readonly lastChange: number;
  readonly #db: Database.Database;
  readonly #page: Database.Statement;
  readonly #sub: number;
  #after = 0;

  constructor(db: Database.Database, sub: number, lastChange: number) {
    this.#db = db;
    this.#sub = sub;
    this.lastChange = lastChange;
    this.#page = db.prepare(
      'SELECT row_id AS rowId, cells FROM rows WHERE sub = ? AND row_id > ? ORDER BY row_id LIMIT ?',
    );
  }

  /** The next page of rows; empty at the end. */
  next(limit: number): { rowId: number; cells: string }[] {
    const rows = this.#page.all(this.#sub, this.#after, limit) as { rowId: number; cells: string }[];
    if (rows.length > 0) this.#after = rows[rows.length - 1].rowId;
    return rows;
  }

  close(): void {
    if (!this.#db.open) return;
    try {
      this.#db.exec('COMMIT');
    } catch {
      // nothing to end
    }
    this.#db.close();
  }
}
