// A session's transaction: its state (idle, open, failed; the implicit one of a simple query of
// several statements), and where an explicit block's statements go: on the transaction the block
// holds while nothing else writes (Writer.hold), each statement run once and COMMIT committing it;
// else a deferred block that does not hold the writer and runs again at COMMIT (deferred-block.ts),
// with the rows it claimed so that blocks that would fail each other wait (row-claims.ts); or the
// writer's lease, taken when the block has to hold it (a write returning rows, SAVEPOINT, COPY, a
// long block) and kept to its end.
import type { Schema } from '../../../src/engine/schema/model';
import type { SqlValue } from '../../../src/engine/values';
import type { Statement, StatementResult, WriterLease } from '../../../src/engine/writer';
import { PatinaError } from '../../../src/errors';
import type { Analyzed } from '../sql/analyzed';
import { blockCounts } from '../statement-counts';
import { DEFERRED_STEPS, DeferredBlock, tablesNamed } from './deferred-block';
import { NO_OUTCOME, type Outcome, type PgEngine } from './engine';
import { BlockRows, CLAIM_WAIT_MS, type PointRow, pointRow, rowClaimsOf } from './row-claims';

export type TxState = 'idle' | 'open' | 'failed';

/** Table names of each schema, lower case (deferred blocks ask for them at every statement). */
const TABLE_NAMES = new WeakMap<Schema, ReadonlySet<string>>();

export class Transaction {
  state: TxState = 'idle';
  /** The open transaction is the implicit one of a multi-statement simple query (BEGIN makes it explicit). */
  implicit = false;
  readonly #engine: PgEngine;
  readonly #timeoutMs: number;
  /** The end of every transaction (the session delivers its NOTIFYs and closes its cursors). */
  readonly #ended: (committed: boolean) => void;
  readonly #closed: () => boolean;
  #lease: WriterLease<unknown> | null = null;
  /** #lease is the block's held transaction (Writer.hold): its statements run once, on it, and it may be preempted. */
  #held = false;
  /** The open block's statements since its first write, when it does not hold the writer (deferred-block.ts). */
  #block: DeferredBlock | null = null;
  /** The rows the open block read and wrote by key, so that blocks that would fail each other wait (row-claims.ts). */
  #rows: BlockRows | null = null;

  constructor(engine: PgEngine, timeoutMs: number, ended: (committed: boolean) => void, closed: () => boolean) {
    this.#engine = engine;
    this.#timeoutMs = timeoutMs;
    this.#ended = ended;
    this.#closed = closed;
  }

  /** The writer, when the open block holds it (a lease, or its held transaction). */
  get lease(): WriterLease<unknown> | null {
    return this.#lease;
  }

  /** The lease is the block's held transaction: its reads go through runDeferred too (they may be kept for a replay). */
  get held(): boolean {
    return this.#held;
  }

  /** The open block has statements that run again at COMMIT (its reads go through runDeferred too). */
  get deferred(): boolean {
    return this.#block !== null;
  }

  /** Ends the implicit transaction: commits when every statement succeeded, else rolls back. */
  endImplicit(ok: boolean): void {
    this.implicit = false;
    this.#finish(ok && this.state === 'open');
  }

  /** COMMIT: the deferred block again as one unit of a group commit, or the lease's commit; ROLLBACK's tag when the block failed. */
  commit(): Outcome | Promise<Outcome> {
    const failed = this.state === 'failed';
    if (!failed && this.#held) return this.#commitHeld();
    if (!failed && this.#block && !this.#lease) return this.#commitDeferred(this.#block);
    this.#finish(!failed);
    return failed ? { ...NO_OUTCOME, tag: 'ROLLBACK' } : NO_OUTCOME;
  }

  rollback(): void {
    this.#endLease();
    this.#block = null;
    this.#releaseRows();
    this.state = 'idle';
    this.#ended(false);
  }

  /** Ends the transaction: commits the writer's block or rolls it back. */
  #finish(commit: boolean) {
    this.state = 'idle';
    this.#block = null;
    this.#unheld();
    this.#releaseRows();
    this.#ended(commit);
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
    this.state = 'idle';
    this.#block = null;
    const rows = this.#rows;
    try {
      if (rows) {
        await rowClaimsOf(this.#engine.writer).beforeCommit(rows, this.#claimWaitMs());
        if (this.#closed()) throw new PatinaError('unavailable', 'the connection was closed');
      }
      await this.#engine.group((lease) => block.replay(lease));
      blockCounts.replayed++;
    } catch (err) {
      this.#ended(false);
      throw err;
    } finally {
      if (this.#rows === rows) this.#releaseRows();
    }
    this.#ended(true);
    return NO_OUTCOME;
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
    return NO_OUTCOME;
  }

  /** SAVEPOINT, RELEASE, ROLLBACK TO: on the writer, which the block takes for them (none on a read-only listener). */
  async savepoint(an: Analyzed, readonlyListener: boolean): Promise<Outcome> {
    if (!readonlyListener) {
      await this.ensureLease();
      try {
        this.#lease!.savepoint(an.sql, an.command === 'ROLLBACK');
      } catch (err) {
        throw new PatinaError('user', (err as Error).message, undefined, '3B001');
      }
    }
    if (an.command === 'ROLLBACK') this.state = 'open';
    return NO_OUTCOME;
  }

  /**
   * Whether a write of an explicit block goes on without the writer (deferred-block.ts). Not for the
   * implicit transaction of one simple query (no round trip to wait for), a block already holding
   * the writer, a write returning rows (a default such as patina_id() gives other values each run),
   * nor a block past DEFERRED_STEPS statements.
   */
  defers(an: Analyzed): boolean {
    if (this.implicit || (this.#lease && !this.#held) || an.columns !== null) return false;
    return (this.#block?.size ?? 0) < DEFERRED_STEPS;
  }

  /**
   * A statement of a block that does not take the writer for good: on the block's held transaction
   * when it has one, or opens one when nothing else writes (its first write); else tried out on the
   * writer after the block's earlier statements (deferred-block.ts).
   */
  async runDeferred(an: Analyzed, statement: Statement): Promise<Outcome> {
    const block = (this.#block ??= new DeferredBlock((sql) => tablesNamed(sql, this.#tableNames())));
    if (block.size >= DEFERRED_STEPS && !this.#held) {
      await this.ensureLease();
      const r = this.#lease!.run(statement, 'statement');
      return { columns: an.columns ?? r.columns ?? null, all: r.rows ?? [], rows: null, affected: r.rowsAffected };
    }
    const row = pointRow(statement.sql, statement.params as Record<string, SqlValue> | undefined, this.#engine.schema);
    if (row) {
      const wait = rowClaimsOf(this.#engine.writer).note((this.#rows ??= new BlockRows()), row, this.#claimWaitMs());
      if (wait) {
        this.#preemptHeld(); // holding the writer while waiting for another block would hold its COMMIT back
        await wait;
        if (this.#closed()) throw new PatinaError('unavailable', 'the connection was closed');
      }
    }
    const writes = !an.readonly;
    if (!this.#held && !this.#lease && block.size === 0 && writes) {
      const lease = await this.#engine.hold(() => this.#heldPreempted());
      if (lease && this.#closed()) {
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
  async ensureLease() {
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
    if (this.#closed()) {
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

  /** The connection ended: the block is rolled back, the writer and the rows' claims let go. */
  close() {
    this.#endLease();
    this.#block = null;
    this.#releaseRows();
    this.state = 'idle';
  }

  /** The schema's table names, lower case (kept per schema). */
  #tableNames(): ReadonlySet<string> {
    const schema = this.#engine.schema;
    let names = TABLE_NAMES.get(schema);
    if (!names) TABLE_NAMES.set(schema, (names = new Set([...schema.tables.keys()].map((t) => t.toLowerCase()))));
    return names;
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
}
