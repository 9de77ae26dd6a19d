import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type Database from 'better-sqlite3';
import { PatinaError } from '../errors';
import { Checkpointer } from './checkpointer';
import { checkReadReach, checkWriteStatement } from './classify';
import { openDatabase } from './database';
import { COMMITS_KEY, MetaStore } from './meta';
import { ReadPool, type ReadCursor, type ReadRequest } from './read-pool';
import { introspect } from './schema/introspect';
import type { SqlParams } from './values';
import { loadSchema } from './schema/load';
import { rebuildNumericTextColumns } from './schema/text-rebuild';
import type { Schema } from './schema/model';
import { type SchemaPlan, planSchema } from './schema/diff';
import { type HeldMember, type Statement, type StatementResult, Writer, type WriterLease } from './writer';

export interface EngineOptions {
  path: string;
  schemaPaths: string[];
  readWorkers: { min: number; max: number };
}

/** Listens for schema changes (change capture installs triggers for new tables and columns). */
export type SchemaListener = (schema: Schema, db: Database.Database, plan: SchemaPlan) => void;

/**
 * The shared query engine behind every front end: reads in worker processes (point reads
 * in-process), writes through the one writer, and the schema from the schema files. It knows
 * nothing of HTTP or PG.
 */
export class Engine<C = unknown> {
  readonly knex: Knex;
  readonly writer: Writer<C>;
  readonly meta: MetaStore;
  readonly path: string;
  readonly #opts: EngineOptions;
  readonly #reads: ReadPool;
  readonly #checkpointer: Checkpointer | null;
  #schema: Schema;
  readonly #schemaListeners: SchemaListener[] = [];
  /** What opening applied of the schema files (new tables, columns, indexes), for the start-up log. */
  appliedAtOpen: SchemaPlan | null = null;
  /** Told of every write transaction run through `transaction`: seconds from call to commit (or failure), and the first statement. */
  onWrite: ((seconds: number, ok: boolean, firstSql: string) => void) | null = null;

  private constructor(opts: EngineOptions, knex: Knex, db: Database.Database, schema: Schema) {
    this.#opts = opts;
    this.path = opts.path;
    this.knex = knex;
    this.writer = new Writer<C>(db);
    this.meta = MetaStore.open(knex, db);
    this.writer.countCommits(Number(this.meta.get(COMMITS_KEY) ?? 0), (n) => this.meta.set(COMMITS_KEY, n));
    this.#schema = schema;
    this.#reads = new ReadPool(opts.path, { minWorkers: opts.readWorkers.min, maxWorkers: opts.readWorkers.max });
    this.writer.onCommit(() => this.#reads.committed());
    const hold = async () => {
      const lease = await this.writer.lease();
      return () => lease.release();
    };
    this.#checkpointer = opts.path === ':memory:' ? null : new Checkpointer(opts.path, db, hold);
    const checkpointer = this.#checkpointer;
    if (checkpointer) this.writer.onCommit(() => checkpointer.committed());
  }

  /** Opens the database, applies the schema files (refusing destructive changes) and starts the readers. */
  static async open<C>(opts: EngineOptions): Promise<Engine<C>> {
    const desired = loadSchema(opts.schemaPaths);
    const { knex, db } = await openDatabase(opts.path);
    try {
      const plan = planSchema(introspect(db), desired);
      applyPlan(db, plan);
      // before change capture's triggers exist: the rebuild is local storage, not a write
      rebuildNumericTextColumns(db);
      const engine = new Engine<C>(opts, knex, db, mergeWhere(introspect(db), desired));
      engine.appliedAtOpen = plan;
      return engine;
    } catch (err) {
      await knex.client.releaseConnection(db);
      await knex.destroy();
      throw err;
    }
  }

  /** The cluster's tables as they are now. */
  get schema(): Schema {
    return this.#schema;
  }

  /** Calls `fn` with the schema now and after every reload. */
  onSchema(fn: SchemaListener): void {
    this.#schemaListeners.push(fn);
    fn(this.#schema, this.writer.db, {
      statements: [],
      createdTables: [...this.#schema.tables.keys()],
      addedColumns: [],
      createdIndexes: [],
      droppedIndexes: [],
    });
  }

  /** Re-reads the schema files and applies what is new, in one transaction, between writes. */
  async reloadSchema(): Promise<SchemaPlan> {
    const desired = loadSchema(this.#opts.schemaPaths);
    const lease = await this.writer.lease();
    try {
      const plan = planSchema(introspect(lease.db), desired);
      lease.db.exec('BEGIN IMMEDIATE');
      try {
        for (const sql of plan.statements) lease.db.exec(sql);
        const schema = mergeWhere(introspect(lease.db), desired);
        for (const fn of this.#schemaListeners) fn(schema, lease.db, plan);
        lease.db.exec('COMMIT');
        this.#schema = schema;
      } catch (err) {
        if (lease.db.inTransaction) lease.db.exec('ROLLBACK');
        throw err;
      }
      this.writer.clearCache();
      this.#reads.schemaChanged();
      return plan;
    } finally {
      lease.release();
    }
  }

  /** Starts a read: in-process when provably bounded (point reads), else on a worker process. */
  read(req: ReadRequest): ReadCursor {
    checkReadReach(req.sql, 'query');
    return this.#reads.query(req);
  }

  /** A point read's rows at once, in-process; null when the read is not provably bounded (use read). */
  pointRead(sql: string, params: SqlParams | undefined): unknown[][] | null {
    checkReadReach(sql, 'query');
    return this.#reads.pointRead(sql, params);
  }

  /** Checks and runs write statements in one transaction, all or nothing. */
  async transaction(statements: Statement[]): Promise<{ results: StatementResult[]; change: C | null }> {
    if (statements.length === 0) throw new PatinaError('user', 'a transaction needs at least one statement');
    statements.forEach((s, i) => checkWriteStatement(s.sql, `statement ${i + 1}`));
    const t0 = performance.now();
    let ok = false;
    try {
      const r = await this.writer.transaction(statements);
      ok = true;
      return r;
    } finally {
      this.onWrite?.((performance.now() - t0) / 1000, ok, statements[0].sql);
    }
  }

  /** Runs `run` on the writer as one unit of the next group commit (a PG block's COMMIT). */
  group<T>(run: (lease: WriterLease<C>) => T): Promise<{ value: T; change: C | null }> {
    return this.writer.group(run);
  }

  /** Runs `run` on the writer in a transaction that is always rolled back (a PG block's statement, tried out). */
  tryOut<T>(run: (lease: WriterLease<C>) => T, inHold?: () => boolean): Promise<T> {
    return this.writer.tryOut(run, inHold);
  }

  /** A transaction a PG block holds between its statements while nothing else writes (Writer.hold). */
  hold(preempted: () => void, join = false): Promise<HeldMember<C> | null> {
    return this.writer.hold(preempted, join);
  }

  /** Holds the writer for an interactive transaction (the PG front end). */
  lease(): Promise<WriterLease<C>> {
    return this.writer.lease();
  }

  /** What the statement caches hold, and how many writes ran as the shared statement of their shape. */
  statementStats(): { writer: number; bounded_reads: number; shared_writes_total: number } {
    return {
      writer: this.writer.cachedStatements,
      bounded_reads: this.#reads.cachedStatements,
      shared_writes_total: this.writer.sharedRuns,
    };
  }

  readStats() {
    return this.#reads.stats();
  }

  /** Told of every read a worker finished (SQL and seconds), for the slow-query log. */
  set onWorkerRead(fn: ((sql: string, seconds: number) => void) | null) {
    this.#reads.onWorkerRead = fn;
  }

  async close(): Promise<void> {
    await this.#reads.close();
    await this.#checkpointer?.close();
    const lease = await this.writer.lease();
    try {
      this.writer.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // a reader still holds the WAL; it is checkpointed on next open
    }
    lease.release();
    await this.knex.client.releaseConnection(this.writer.db);
    await this.knex.destroy();
  }
}

function applyPlan(db: Database.Database, plan: SchemaPlan) {
  if (plan.statements.length === 0) return;
  db.transaction(() => {
    for (const sql of plan.statements) db.exec(sql);
  }).immediate();
}

/** The database's schema with the file and line each table came from. */
function mergeWhere(actual: Schema, desired: Schema): Schema {
  for (const t of actual.tables.values()) {
    const d = desired.tables.get(t.name);
    if (d) {
      t.file = d.file;
      t.line = d.line;
    }
  }
  return actual;
}
