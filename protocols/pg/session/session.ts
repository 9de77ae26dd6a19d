// One PostgreSQL session: where each statement runs, and its transaction.
//
// Where a statement runs: catalog queries on the front end's local connection; other reads through
// engine.read (point reads in-process, the rest on a cancellable read worker); reads after a write inside a transaction on the
// writer (to see their own writes); writes through the writer, one engine transaction per
// autocommit statement; a BEGIN block's statements on the transaction it holds while nothing else
// writes (Writer.hold), else tried out and replayed at COMMIT (deferred-block.ts), or on a lease
// from its first write to its COMMIT (SAVEPOINT, RETURNING, COPY, long blocks).
// What a statement is comes from the session's Analyzer (sql/analyze.ts).
import { checkWriteStatement } from '../../../src/engine/classify';
import type { ReadCursor } from '../../../src/engine/read-pool';
import type { Schema } from '../../../src/engine/schema/model';
import type { SqlValue } from '../../../src/engine/values';
import type { Statement, StatementResult, WriterLease } from '../../../src/engine/writer';
import { PatinaError } from '../../../src/errors';
import type { LocalDb, SessionFacts } from '../catalog/local-db';
import { columnConverters } from '../copy/format';
import { type CopyIn, copyIntoTable } from '../copy/copy-in';
import { Analyzer } from '../sql/analyze';
import type { Analyzed, ColumnDesc } from '../sql/analyzed';
import { pgError } from '../sqlstate';
import { blockCounts } from '../statement-counts';
import { pgConstraintError } from './constraint-errors';
import { SqlCursors } from './cursors';
import { DEFERRED_STEPS, DeferredBlock, tablesNamed } from './deferred-block';
import { BlockRows, CLAIM_WAIT_MS, type PointRow, pointRow, rowClaimsOf } from './row-claims';
import type { Outcome, PgEngine } from './engine';
import { explainLines } from './explain';
import { notifyArguments } from './notifications';
import { GUC_DEFAULTS, VERSION_TEXT, applySetting, showRows } from './settings';

/** LISTEN/NOTIFY as a session uses them; the connection wires them to the agent's channels. */
export interface SessionChannels {
  listen(channel: string): void;
  /** null: every channel (UNLISTEN *). */
  unlisten(channel: string | null): void;
  notify(channel: string, payload: string): void;
}

export type TxState = 'idle' | 'open' | 'failed';

/** Table names of each schema, lower case (deferred blocks ask for them at every statement). */
const TABLE_NAMES = new WeakMap<Schema, ReadonlySet<string>>();

const complete = (columns: ColumnDesc[] | null, all: unknown[][]): Outcome => ({ columns, all, rows: null });
const NONE: Outcome = Object.freeze({ columns: null, all: [], rows: null }) as Outcome;

export class Session {
  readonly #engine: PgEngine;
  readonly #local: LocalDb;
  readonly #readonlyListener: boolean;
  readonly #timeoutMs: number;
  readonly facts: SessionFacts;
  /** What each statement is, cached by its text. */
  readonly analyzer: Analyzer;
  tx: TxState = 'idle';
  /** The open transaction is the implicit one of a multi-statement simple query (BEGIN makes it explicit). */
  implicit = false;
  #lease: WriterLease<unknown> | null = null;
  /** #lease is the block's held transaction (Writer.hold): its statements run once, on it, and it may be preempted. */
  #held = false;
  /** The open block's statements since its first write, when it does not hold the writer (session/deferred-block.ts). */
  #block: DeferredBlock | null = null;
  /** The rows the open block read and wrote by key, so that blocks that would fail each other wait (session/row-claims.ts). */
  #rows: BlockRows | null = null;
  #cursor: ReadCursor | null = null;
  #closed = false;
  /** LISTEN/NOTIFY; null until the connection wires them. */
  channels: SessionChannels | null = null;
  /** NOTIFYs of the open transaction, delivered at its commit. */
  readonly #notifies: [string, string][] = [];
  readonly #cursors = new SqlCursors<ColumnDesc[] | null>();
  /** Notices (WARNING) for the connection to send. */
  onNotice: (code: string, message: string) => void = () => undefined;

  constructor(
    engine: PgEngine,
    local: LocalDb,
    opts: {
      readonly: boolean;
      timeoutMs: number;
      user: string;
      database: string;
      pid: number;
      applicationName: string;
    },
  ) {
    this.#engine = engine;
    this.#local = local;
    this.#readonlyListener = opts.readonly;
    this.#timeoutMs = opts.timeoutMs;
    this.facts = {
      user: opts.user,
      database: opts.database,
      version: VERSION_TEXT,
      pid: opts.pid,
      settings: new Map(Object.entries(GUC_DEFAULTS)),
    };
    this.facts.settings.set('application_name', opts.applicationName);
    this.analyzer = new Analyzer(engine, local, { user: opts.user, database: opts.database, version: VERSION_TEXT });
  }

  /** Starts the implicit transaction of a simple query of several statements (as PostgreSQL does). */
  beginImplicit(): void {
    this.tx = 'open';
    this.implicit = true;
  }

  /** Ends the implicit transaction: commits when every statement succeeded, else rolls back. */
  endImplicit(ok: boolean): void {
    this.implicit = false;
    this.#finish(ok && this.tx === 'open');
  }

  /** Ends the transaction: commits the writer's block or rolls it back. */
  #finish(commit: boolean) {
    this.tx = 'idle';
    this.#block = null;
    this.#unheld();
    this.#releaseRows();
    this.#transactionEnded(commit);
    const lease = this.#lease;
    this.#lease = null;
    if (!lease) return;
    try {
      if (commit) lease.commit();
      else lease.rollback();
    } finally {
      lease.release();
    }
  }

  /** COMMIT of a block that did not hold the writer: the whole block again, as one unit of a group commit. */
  async #commitDeferred(block: DeferredBlock): Promise<Outcome> {
    this.tx = 'idle';
    this.#block = null;
    const rows = this.#rows;
    try {
      if (rows) {
        await rowClaimsOf(this.#engine.writer).beforeCommit(rows, this.#claimWaitMs());
        if (this.#closed) throw new PatinaError('unavailable', 'the connection was closed');
      }
      await this.#engine.group((lease) => block.replay(lease));
      blockCounts.replayed++;
    } catch (err) {
      this.#transactionEnded(false);
      throw err;
    } finally {
      if (this.#rows === rows) this.#releaseRows();
    }
    this.#transactionEnded(true);
    return NONE;
  }

  /** COMMIT of a block that holds its transaction: commits it as it is, unless a block that read a row it writes is open. */
  #commitHeld(): Outcome | Promise<Outcome> {
    const rows = this.#rows;
    if (rows && rowClaimsOf(this.#engine.writer).commitBlocked(rows)) {
      // waiting while holding the writer would hold that block's COMMIT back too: go on without it
      this.#preemptHeld();
      return this.#commitDeferred(this.#block!);
    }
    this.#finish(true);
    blockCounts.direct++;
    return NONE;
  }

  /**
   * Runs an analyzed statement with bound parameters. The outcome comes synchronously when nothing
   * has to wait (point reads, catalog queries, transaction control), so that a connection can answer
   * a pipelined batch without a promise per message; writes and streamed reads return a promise.
   */
  execute(an: Analyzed, params: SqlValue[]): Outcome | Promise<Outcome> {
    try {
      const r = this.#execute(an, params);
      if (r instanceof Promise) {
        return r.catch((err) => {
          if (this.tx === 'open') this.tx = 'failed';
          throw err;
        });
      }
      return r;
    } catch (err) {
      if (this.tx === 'open') this.tx = 'failed';
      throw err;
    }
  }

  #execute(an: Analyzed, params: SqlValue[]): Outcome | Promise<Outcome> {
    const none = NONE;
    if (
      this.tx === 'failed' &&
      an.kind !== 'rollback' &&
      an.kind !== 'commit' &&
      !(an.kind === 'savepoint' && an.command === 'ROLLBACK')
    ) {
      throw pgError('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
    }
    switch (an.kind) {
      case 'empty':
        return none;
      case 'begin':
        if (this.implicit) this.implicit = false;
        else if (this.tx !== 'idle') this.onNotice('25001', 'there is already a transaction in progress');
        else this.tx = 'open';
        return none;
      case 'commit': {
        this.implicit = false;
        if (this.tx === 'idle') this.onNotice('25P01', 'there is no transaction in progress');
        const failed = this.tx === 'failed';
        if (!failed && this.#held) return this.#commitHeld();
        if (!failed && this.#block && !this.#lease) return this.#commitDeferred(this.#block);
        this.#finish(!failed);
        return failed ? { ...none, tag: 'ROLLBACK' } : none;
      }
      case 'rollback':
        this.implicit = false;
        if (this.tx === 'idle') this.onNotice('25P01', 'there is no transaction in progress');
        this.#endLease();
        this.#block = null;
        this.#releaseRows();
        this.tx = 'idle';
        this.#transactionEnded(false);
        return none;
      case 'savepoint':
        if (this.tx === 'idle')
          throw pgError(
            '25P01',
            `${an.command === 'ROLLBACK' ? 'ROLLBACK TO SAVEPOINT' : an.command} can only be used in transaction blocks`,
          );
        return this.#savepoint(an);
      case 'set':
        applySetting(this.facts.settings, an.setting);
        return none;
      case 'show':
        return complete(an.columns, showRows(this.facts.settings, an.setting!.name));
      case 'noop':
        return none;
      case 'sql':
        return this.#runSql(an, params);
      case 'explain':
        return this.#runExplain(an, params);
      case 'listen':
        if (!this.channels) throw pgError('0A000', 'LISTEN is not available on this connection');
        this.channels.listen(an.channel!.name!);
        return none;
      case 'unlisten':
        this.channels?.unlisten(an.channel!.name);
        return none;
      case 'notify': {
        // NOTIFY ch, 'x' or SELECT pg_notify(ch, x), whose arguments may be parameters
        const [name, payload] = notifyArguments(an.channel!, params);
        if (this.tx === 'open')
          this.#notifies.push([name, payload]); // delivered at commit, as in PostgreSQL
        else this.channels?.notify(name, payload);
        return an.columns ? complete(an.columns, [['']]) : none;
      }
      case 'copy':
        throw pgError(
          '0A000',
          'COPY through the extended query protocol is not supported by Patina: send it as a simple query (psql, pg-copy-streams and psycopg2 do)',
        );
      case 'declare':
        return this.#declareCursor(an, params);
      case 'fetch':
        return this.#fetchCursor(an);
      case 'close-cursor': {
        const name = an.cursor!.name;
        if (!this.#cursors.close(name)) throw pgError('34000', `cursor "${name}" does not exist`);
        return none;
      }
    }
  }

  async #declareCursor(an: Analyzed, params: SqlValue[]): Promise<Outcome> {
    const { name, hold, inner } = an.cursor!;
    if (this.tx === 'idle' && !hold) throw pgError('25P01', 'DECLARE CURSOR can only be used in transaction blocks');
    if (this.#cursors.has(name!)) throw pgError('42P03', `cursor "${name}" already exists`);
    const out = await this.#runSql(inner!, params);
    this.#cursor = null; // a later CancelRequest is for a later statement, not this cursor's read
    this.#cursors.open(name!, hold!, out.columns, out.all, out.rows);
    return NONE;
  }

  async #fetchCursor(an: Analyzed): Promise<Outcome> {
    const { name, count, move } = an.cursor!;
    const { columns, rows, moved } = await this.#cursors.fetch(name!, count!, move!);
    if (move) return { columns: null, all: [], rows: null, affected: moved, tag: `MOVE ${moved}` };
    return { columns, all: rows, rows: null, tag: `FETCH ${rows.length}` };
  }

  /** The columns a statement answers with: its own, or for FETCH those of its cursor (34000 if none). */
  resultColumns(an: Analyzed): ColumnDesc[] | null {
    if (an.kind !== 'fetch' || an.cursor!.move) return an.columns;
    const columns = this.#cursors.columnsOf(an.cursor!.name!);
    if (columns === undefined) throw pgError('34000', `cursor "${an.cursor!.name}" does not exist`);
    return columns;
  }

  /** The end of a transaction: NOTIFYs of a committed one go out, cursors without HOLD close. */
  #transactionEnded(committed: boolean) {
    const notifies = this.#notifies.splice(0);
    if (committed) for (const [ch, payload] of notifies) this.channels?.notify(ch, payload);
    this.#cursors.transactionEnded();
  }

  /** COPY TO STDOUT: the rows of its read, streamed. */
  copyOut(an: Analyzed): Outcome | Promise<Outcome> {
    if (this.tx === 'failed')
      throw pgError('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
    return this.#runSql(an.copy!.read!, []);
  }

  /** COPY FROM STDIN: takes the writer (or the open block's lease) and returns where the rows go. */
  async copyIn(an: Analyzed): Promise<CopyIn> {
    if (this.tx === 'failed')
      throw pgError('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
    if (this.#readonlyListener) throw pgError('25006', 'cannot execute COPY FROM in a read-only transaction');
    const { stmt, columns } = an.copy!;
    const table = stmt.table!;
    const def = this.#engine.schema.tables.get(table)!;
    const convert = columnConverters(def, columns);
    const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
    checkWriteStatement(sql, 'statement');
    const inBlock = this.tx === 'open';
    let lease: WriterLease<unknown>;
    if (inBlock) {
      await this.#ensureLease();
      lease = this.#lease!;
    } else {
      lease = await this.#engine.lease();
      if (this.#closed) {
        lease.release();
        throw new PatinaError('unavailable', 'the connection was closed');
      }
      lease.begin();
    }
    return copyIntoTable({
      lease,
      inBlock,
      schema: this.#engine.schema,
      table,
      columns,
      sql,
      convert,
      failBlock: () => {
        this.tx = 'failed';
      },
    });
  }

  async #runExplain(an: Analyzed, list: SqlValue[]): Promise<Outcome> {
    const { inner, run } = an.explain!;
    const params = paramRecord(list);
    const eqp = `EXPLAIN QUERY PLAN ${inner.sql}`;
    let plan: unknown[][];
    try {
      plan = this.#local.run(this.#local.prepare(eqp), params, this.facts);
    } catch {
      // a write to a captured table prepares only on the writer (its triggers call the agent's functions)
      const lease = this.#lease ?? (await this.#engine.lease());
      try {
        plan = lease.run({ sql: eqp, params }, 'statement').rows ?? [];
      } finally {
        if (lease !== this.#lease) lease.release();
      }
    }
    const lines = explainLines(plan, inner);
    if (run) {
      const t0 = performance.now();
      const out = await this.#runSql(inner, list);
      let rows = out.all?.length ?? 0;
      if (out.rows) for (let batch = await out.rows.next(); batch; batch = await out.rows.next()) rows += batch.length;
      if (out.affected !== undefined && inner.command !== 'SELECT') rows = out.affected;
      const ms = performance.now() - t0;
      lines[0] += ` (actual rows=${rows} loops=1)`;
      lines.push(`Execution Time: ${ms.toFixed(3)} ms`);
    }
    return complete(
      an.columns,
      lines.map((l) => [l]),
    );
  }

  async #savepoint(an: Analyzed): Promise<Outcome> {
    if (!this.#readonlyListener) {
      await this.#ensureLease();
      try {
        this.#lease!.savepoint(an.sql, an.command === 'ROLLBACK');
      } catch (err) {
        throw new PatinaError('user', (err as Error).message, undefined, '3B001');
      }
    }
    if (an.command === 'ROLLBACK') this.tx = 'open';
    return NONE;
  }

  #runSql(an: Analyzed, list: SqlValue[]): Outcome | Promise<Outcome> {
    if (an.empty) return complete(an.columns, []);
    const params = paramRecord(list);
    if (an.local) return complete(an.columns, this.#local.run(this.#local.prepare(an.sql), params, this.facts));
    if (!an.readonly) return this.#write(an, params);
    if (this.#lease && !this.#held) {
      const r = this.#lease.run({ sql: an.sql, params }, 'statement');
      return complete(an.columns ?? r.columns ?? null, r.rows ?? []);
    }
    if (this.#block) return this.#runDeferred(an, { sql: an.sql, params });
    const rows = this.#engine.pointRead(an.sql, params); // point reads answer at once, in-process
    if (rows) return complete(an.columns, rows);
    return this.#stream(an, this.#engine.read({ sql: an.sql, params, format: 'values', timeoutMs: this.#timeoutMs }));
  }

  async #stream(an: Analyzed, cursor: ReadCursor): Promise<Outcome> {
    this.#cursor = cursor;
    try {
      await cursor.head();
    } catch (err) {
      this.#cursor = null;
      throw err;
    }
    return {
      columns: an.columns,
      all: null,
      rows: {
        next: async () => {
          const r = await cursor.next();
          if (r.done) this.#cursor = null;
          return r.done ? null : (r.value.rows ?? []);
        },
        cancel: () => {
          cursor.cancel('the portal was closed');
          this.#cursor = null;
        },
      },
    };
  }

  async #write(an: Analyzed, params: Record<string, SqlValue> | undefined): Promise<Outcome> {
    if (this.#readonlyListener) throw pgError('25006', `cannot execute ${an.command} in a read-only transaction`);
    const statements = (an.batch ?? [an.sql]).map((sql) => {
      checkWriteStatement(sql, 'statement');
      return { sql, params };
    });
    let r: StatementResult;
    try {
      if (this.tx === 'open' && !an.batch && this.#defers(an)) {
        return await this.#runDeferred(an, statements[0]);
      } else if (this.tx === 'open') {
        await this.#ensureLease();
        for (const s of statements) r = this.#lease!.run(s, 'statement');
      } else {
        r = (await this.#engine.transaction(statements)).results[0];
      }
    } catch (err) {
      throw pgConstraintError(err, {
        schema: this.#engine.schema,
        sql: an.sql,
        params,
        keyExists: (table, cols, values) => this.#keyExists(table, cols, values),
      });
    }
    return { columns: an.columns, all: r!.rows ?? [], rows: null, affected: r!.rowsAffected };
  }

  /** Whether a row with this key exists, as this session sees the data (its open transaction, or the last commit). */
  #keyExists(table: string, columns: string[], values: SqlValue[]): boolean {
    const sql = `SELECT 1 FROM "${table}" WHERE ${columns.map((c) => `"${c}" = ?`).join(' AND ')}`;
    const db = this.#lease?.db ?? this.#local.db;
    return db.prepare(sql).get(...values) !== undefined;
  }

  /**
   * Whether a write of an explicit block goes on without the writer (session/deferred-block.ts). Not for the
   * implicit transaction of one simple query (no round trip to wait for), a block already holding
   * the writer, a write returning rows (a default such as patina_id() gives other values each run),
   * nor a block past DEFERRED_STEPS statements.
   */
  #defers(an: Analyzed): boolean {
    if (this.implicit || (this.#lease && !this.#held) || an.columns !== null) return false;
    return (this.#block?.size ?? 0) < DEFERRED_STEPS;
  }

  /** The schema's table names, lower case (kept per schema). */
  #tableNames(): ReadonlySet<string> {
    const schema = this.#engine.schema;
    let names = TABLE_NAMES.get(schema);
    if (!names) TABLE_NAMES.set(schema, (names = new Set([...schema.tables.keys()].map((t) => t.toLowerCase()))));
    return names;
  }

  /**
   * A statement of a block that does not take the writer for good: on the block's held transaction
   * when it has one, or opens one when nothing else writes (its first write); else tried out on the
   * writer after the block's earlier statements (session/deferred-block.ts).
   */
  async #runDeferred(an: Analyzed, statement: Statement): Promise<Outcome> {
    const block = (this.#block ??= new DeferredBlock((sql) => tablesNamed(sql, this.#tableNames())));
    if (block.size >= DEFERRED_STEPS && !this.#held) {
      await this.#ensureLease();
      const r = this.#lease!.run(statement, 'statement');
      return { columns: an.columns ?? r.columns ?? null, all: r.rows ?? [], rows: null, affected: r.rowsAffected };
    }
    const row = pointRow(statement.sql, statement.params as Record<string, SqlValue> | undefined, this.#engine.schema);
    if (row) {
      const wait = rowClaimsOf(this.#engine.writer).note((this.#rows ??= new BlockRows()), row, this.#claimWaitMs());
      if (wait) {
        this.#preemptHeld(); // holding the writer while waiting for another block would hold its COMMIT back
        await wait;
        if (this.#closed) throw new PatinaError('unavailable', 'the connection was closed');
      }
    }
    const writes = !an.readonly;
    if (!this.#held && !this.#lease && block.size === 0 && writes) {
      const lease = await this.#engine.hold(() => this.#heldPreempted());
      if (lease && this.#closed) {
        lease.release();
        throw new PatinaError('unavailable', 'the connection was closed');
      }
      if (lease) {
        this.#lease = lease;
        this.#held = true;
        rowClaimsOf(this.#engine.writer).holder = this.#rows ??= new BlockRows();
      }
    }
    if (this.#held) return this.#runHeld(an, block, statement, writes);
    const r = await this.#engine.tryOut((lease) => block.runNext(lease, statement, writes), this.#mayReadInHold(row));
    return { columns: an.columns ?? r.columns ?? null, all: r.rows ?? [], rows: null, affected: r.rowsAffected };
  }

  /**
   * Whether a try-out may run inside another block's held transaction: not a read of a row that
   * block wrote and has not committed (it would tell what may never commit), which waits for its end.
   */
  #mayReadInHold(row: PointRow | null): (() => boolean) | undefined {
    if (!row?.reads) return undefined;
    const claims = rowClaimsOf(this.#engine.writer);
    const mine = this.#rows;
    return () => {
      const holder = claims.holder;
      return !holder || holder === mine || !holder.written.has(row.key);
    };
  }

  /** Runs a statement once, on the block's held transaction; kept in the block in case the transaction is preempted. */
  #runHeld(an: Analyzed, block: DeferredBlock, statement: Statement, writes: boolean): Outcome {
    let r: StatementResult;
    try {
      r = this.#lease!.run(statement, 'statement');
    } catch (err) {
      // the block has failed: nothing of it stays, and the writer is free for the others now
      this.#endLease();
      this.#block = null;
      throw err;
    }
    block.record(statement, r, writes);
    return { columns: an.columns ?? r.columns ?? null, all: r.rows ?? [], rows: null, affected: r.rowsAffected };
  }

  /** The writer rolled back the block's held transaction (others waited too long): the block goes on deferred. */
  #heldPreempted() {
    blockCounts.preempted++;
    this.#lease = null;
    this.#unheld();
  }

  /** The block's transaction is no longer held (ended, preempted or kept as a lease). */
  #unheld() {
    if (!this.#held) return;
    this.#held = false;
    const claims = rowClaimsOf(this.#engine.writer);
    if (claims.holder === this.#rows) claims.holder = null;
  }

  #preemptHeld() {
    if (this.#held) this.#engine.writer.preempt(this.#lease!);
  }

  /** Takes the writer for the rest of the block; a deferred block's statements so far are run on it first. */
  async #ensureLease() {
    if (this.#lease) {
      if (this.#held) {
        // the block's held transaction becomes its lease until COMMIT, no longer preempted
        this.#engine.writer.keep(this.#lease);
        this.#unheld();
        this.#block = null;
      }
      return;
    }
    const lease = await this.#engine.lease();
    if (this.#closed) {
      lease.release();
      throw new PatinaError('unavailable', 'the connection was closed');
    }
    lease.begin();
    if (this.#block) {
      try {
        this.#block.replay(lease);
      } catch (err) {
        lease.release();
        throw err;
      }
      this.#block = null;
    }
    this.#lease = lease;
  }

  /** How long a statement of a block waits for other blocks' row claims at most. */
  #claimWaitMs(): number {
    return Math.min(CLAIM_WAIT_MS, this.#timeoutMs);
  }

  /** The open block ended: other blocks no longer wait for the rows it read. */
  #releaseRows() {
    const rows = this.#rows;
    this.#rows = null;
    if (rows) rowClaimsOf(this.#engine.writer).release(rows);
  }

  #endLease() {
    const lease = this.#lease;
    this.#lease = null;
    this.#unheld();
    lease?.release();
  }

  /** CancelRequest: interrupts a read running on a worker (writes are short and run to the end). */
  cancel(): void {
    this.#cursor?.cancel('canceling statement due to user request');
    this.#cursor = null;
  }

  /** The connection ended: stop its read, roll back its transaction. */
  close(): void {
    this.#closed = true;
    this.cancel();
    this.#cursors.close(null);
    this.#notifies.length = 0;
    this.#endLease();
    this.#block = null;
    this.#releaseRows();
    this.tx = 'idle';
  }
}

/** Positional parameters as SQLite's named ones ($1 is "1"); undefined when there are none. */
function paramRecord(list: SqlValue[]): Record<string, SqlValue> | undefined {
  // literals for the common counts: adding indexed properties one by one goes through V8's runtime
  switch (list.length) {
    case 0:
      return undefined;
    case 1:
      return { 1: list[0] };
    case 2:
      return { 1: list[0], 2: list[1] };
    case 3:
      return { 1: list[0], 2: list[1], 3: list[2] };
  }
  const params: Record<string, SqlValue> = {};
  for (let i = 0; i < list.length; i++) params[i + 1] = list[i];
  return params;
}
