import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { PatinaError, fromSqliteError } from '../errors';
import type { ColumnInfo } from './read-protocol';
import { type SqlParams, narrowInteger } from './values';
import { secondsSince } from './elapsed';

/** One statement with its parameters. */
export interface Statement {
  sql: string;
  params?: SqlParams;
}

/** What one statement did: rows changed, time taken, and rows for statements that return them. */
export interface StatementResult {
  rowsAffected: number;
  time: number;
  columns?: ColumnInfo[];
  rows?: unknown[][];
}

/** Hooks of change capture around a write transaction (src/crdt implements them). */
export interface CommitHooks<C> {
  /** Inside the transaction, before COMMIT: what changed, or null when nothing did. */
  beforeCommit(db: Database.Database): C | null;
  /** After COMMIT, in commit order. */
  afterCommit(change: C): void;
  /** After a rollback, to forget what beforeCommit or the triggers gathered. */
  afterRollback(): void;
}

const STMT_CACHE = 256;

/**
 * The one writer connection. A lease holds it for one transaction at a time; everything that writes
 * (HTTP, PG sessions, merges, schema changes) takes a lease, so writes are serialized.
 */
export class Writer<C = unknown> {
  readonly db: Database.Database;
  #hooks: CommitHooks<C> | null = null;
  #tail: Promise<void> = Promise.resolve();
  readonly #cache = new Map<string, Database.Statement>();
  #changes: Database.Statement;
  #totalChanges: Database.Statement;
  #commits = 0;
  #persistCommits: ((n: number) => void) | null = null;
  readonly #commitListeners: (() => void)[] = [];

  constructor(db: Database.Database) {
    this.db = db;
    this.#changes = db.prepare('SELECT changes()');
    this.#totalChanges = db.prepare('SELECT total_changes()').pluck();
  }

  /**
   * Counts, from `initial`, the committed transactions that changed rows; `persist` writes the new
   * count inside the transaction itself, so the count on disk always names the data beside it.
   */
  countCommits(initial: number, persist: (n: number) => void): void {
    this.#commits = initial;
    this.#persistCommits = persist;
  }

  /**
   * How many transactions that changed rows have committed (persisted): the position of the
   * committed state. Between two JS tasks it always names what a new read transaction sees.
   */
  get commits(): number {
    return this.#commits;
  }

  setHooks(hooks: CommitHooks<C>): void {
    this.#hooks = hooks;
  }

  /** Calls `fn` right after every COMMIT of the writer (before the change is published). */
  onCommit(fn: () => void): void {
    this.#commitListeners.push(fn);
  }

  _notifyCommit(): void {
    for (const fn of this.#commitListeners) fn();
  }

  /** Waits for the writer and holds it until the lease is released. */
  lease(): Promise<WriterLease<C>> {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const ready = this.#tail.then(() => new WriterLease<C>(this, release));
    this.#tail = this.#tail.then(() => held);
    return ready;
  }

  /** Runs statements in one transaction, all or nothing; errors name the failing statement (1-based). */
  async transaction(statements: Statement[]): Promise<{ results: StatementResult[]; change: C | null }> {
    const lease = await this.lease();
    try {
      lease.begin();
      const results: StatementResult[] = [];
      try {
        statements.forEach((s, i) => results.push(lease.run(s, `statement ${i + 1}`)));
      } catch (err) {
        lease.rollback();
        throw err;
      }
      const change = lease.commit();
      return { results, change };
    } finally {
      lease.release();
    }
  }

  /** A prepared statement, cached by its text. */
  prepare(sql: string): Database.Statement {
    let st = this.#cache.get(sql);
    if (st) {
      this.#cache.delete(sql);
      this.#cache.set(sql, st);
      return st;
    }
    st = this.db.prepare(sql);
    this.#cache.set(sql, st);
    if (this.#cache.size > STMT_CACHE) this.#cache.delete(this.#cache.keys().next().value as string);
    return st;
  }

  /** Forgets prepared statements; the schema changed. */
  clearCache(): void {
    this.#cache.clear();
  }

  _hooks(): CommitHooks<C> | null {
    return this.#hooks;
  }

  _changes(): number {
    return Number(this.#changes.pluck().get() as bigint);
  }

  _totalChanges(): number {
    return Number(this.#totalChanges.get() as bigint);
  }

  /** Inside the transaction, before COMMIT: persists the next count if rows changed since `since`. */
  _countCommit(since: number | null): number | null {
    if (!this.#persistCommits || (since !== null && this._totalChanges() === since)) return null;
    const next = this.#commits + 1;
    this.#persistCommits(next);
    return next;
  }

  _committed(n: number | null): void {
    if (n !== null) this.#commits = n;
  }
}

/** The writer, held: begin, run statements, commit or roll back, release. */
export class WriterLease<C> {
  readonly #w: Writer<C>;
  readonly #release: () => void;
  #released = false;
  /** total_changes() at BEGIN (null when the transaction was begun some other way). */
  #changesAtBegin: number | null = null;

  constructor(w: Writer<C>, release: () => void) {
    this.#w = w;
    this.#release = release;
  }

  get db(): Database.Database {
    return this.#w.db;
  }

  get inTransaction(): boolean {
    return this.#w.db.inTransaction;
  }

  begin(): void {
    this.#w.db.exec('BEGIN IMMEDIATE');
    this.#changesAtBegin = this.#w._totalChanges();
  }

  /** Runs one statement; SQLite errors come back as PatinaErrors prefixed with `where`. */
  run(s: Statement, where: string): StatementResult {
    const t0 = performance.now();
    let st: Database.Statement;
    try {
      st = this.#w.prepare(s.sql);
    } catch (err) {
      throw fromSqliteError(err, `${where}: `);
    }
    const p = s.params;
    const args = p === undefined ? [] : Array.isArray(p) ? p : [p];
    try {
      if (st.reader) {
        const rows = st.raw(true).all(...args) as unknown[][];
        for (const row of rows) for (let i = 0; i < row.length; i++) if (typeof row[i] === 'bigint') row[i] = narrowInteger(row[i] as bigint);
        const columns = st.columns().map((c) => ({ name: c.name, declType: c.type }));
        const rowsAffected = st.readonly ? 0 : this.#w._changes();
        return { rowsAffected, time: secondsSince(t0), columns, rows };
      }
      const info = st.run(...args);
      return { rowsAffected: info.changes, time: secondsSince(t0) };
    } catch (err) {
      if (err instanceof RangeError || err instanceof TypeError) throw new PatinaError('user', `${where}: ${err.message}`);
      throw fromSqliteError(err, `${where}: `);
    }
  }

  /** Commits; returns what change capture gathered (null when nothing changed). */
  commit(): C | null {
    const hooks = this.#w._hooks();
    let change: C | null = null;
    let counted: number | null = null;
    try {
      if (hooks) change = hooks.beforeCommit(this.#w.db);
      counted = this.#w._countCommit(this.#changesAtBegin);
      this.#w.db.exec('COMMIT');
    } catch (err) {
      this.rollback();
      throw fromSqliteError(err, 'commit: ');
    } finally {
      this.#changesAtBegin = null;
    }
    this.#w._committed(counted);
    this.#w._notifyCommit();
    if (change !== null && hooks) hooks.afterCommit(change);
    return change;
  }

  rollback(): void {
    if (this.#w.db.inTransaction) this.#w.db.exec('ROLLBACK');
    this.#w._hooks()?.afterRollback();
  }

  /** Gives the writer back; rolls back a transaction left open (a client that went away). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    if (this.#w.db.inTransaction) this.rollback();
    this.#release();
  }
}
