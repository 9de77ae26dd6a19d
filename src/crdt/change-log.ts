import type Database from 'better-sqlite3';
import type { Changeset } from '../bus/changeset';
import type { Engine } from '../engine/engine';
import type { Schema } from '../engine/schema/model';
import { quoteLiteral as lit, quoteIdentifier as q } from '../engine/sql-text';
import type { ChangeCapture } from './capture';
import { CHANGE_LOG, clockTableName } from './clock-sql';
import { errorFields, log } from '../observability/log';

/** Entries looked at per writer transaction: a few milliseconds of the writer at most. */
const SLICE = 1024;
/** Entries looked at per pass, at most. */
const MAX_PER_PASS = 65536;

type Entry = [Buffer, bigint, string, Buffer];
/** Below every entry: site ids are 16 bytes, and an empty blob sorts before any other. */
const FIRST: Entry = [Buffer.alloc(0), -1n, '', Buffer.alloc(0)];

interface Statements {
  schema: Schema;
  /** The entry `limit - 1` places after a position (the slice's last), if the log goes that far. */
  end: Database.Statement;
  /** The DELETE of the stale entries of every table in a range, and after a position to the end (null: no table). */
  bounded: Database.Statement | null;
  open: Database.Statement | null;
}

/**
 * Keeps the change log (clock-sql.ts) from growing with every write: an entry whose row's clocks all
 * moved on to later versions (the row was written again, or deleted and its column clocks dropped)
 * names nothing the sync reader would send, and is removed. The walk goes through the log from where
 * it last stopped (wrapping around), looking at about twice as many entries as were written, so it
 * keeps up with the writes and the log stays within about twice its live entries.
 *
 * A local write transaction that logged n entries looks at 2n more inside itself, right before its
 * COMMIT (capture's beforeCommit calls `inside`): no lease, transaction or commit of its own. Taken
 * apart, a slice's lease had kept PG blocks from sharing a held transaction, and preempted one, about
 * 30 times a second under TPC-B. The entries merges log are walked by a pass each second, as are,
 * once the writes pause, those the writes logged (again: their walk passed entries that later writes
 * of the same rows made stale). A pass holds the writer a slice at a time, yielding between slices;
 * it changes no data, so it commits outside the commit count and the feed. An entry of a table no
 * longer in the schema stays (schema changes only add).
 */
export class ChangeLogCompactor {
  readonly #engine: Engine<Changeset>;
  readonly #capture: ChangeCapture;
  readonly #timer: NodeJS.Timeout;
  #cursor: Entry | null = null;
  #prepared: Statements | null = null;
  #passing: Promise<void> | null = null;
  /** Entries transactions logged and walked for inside their commits since the writes last paused (at most MAX_PER_PASS). */
  #owed = 0;
  /** Whether a transaction walked the log inside its commit since the last pass. */
  #walkedInside = false;
  #closed = false;
  /** Entries removed since start. */
  removed = 0;

  constructor(engine: Engine<Changeset>, capture: ChangeCapture, intervalMs = 1000) {
    this.#engine = engine;
    this.#capture = capture;
    capture.compactInside = (db, logged) => this.inside(db, logged);
    this.#timer = setInterval(() => {
      this.#passing ??= this.#pass().finally(() => (this.#passing = null));
    }, intervalMs);
    this.#timer.unref();
  }

  async #pass(): Promise<void> {
    let budget = 2 * this.#capture.logged;
    this.#capture.logged = 0;
    // The writes paused: the walk goes once more over what they logged, for the entries their own
    // walk passed before a later write of their rows made them stale.
    if (!this.#walkedInside) {
      budget += 2 * this.#owed;
      this.#owed = 0;
    }
    this.#walkedInside = false;
    budget = Math.min(MAX_PER_PASS, budget);
    while (budget > 0 && !this.#closed) {
      const lease = await this.#engine.lease();
      let seen: number;
      try {
        if (this.#closed) return;
        seen = this.#slice(lease.db, Math.min(SLICE, budget));
      } catch (err) {
        log.warn(errorFields(err), 'change log compaction failed (it will try again)');
        return;
      } finally {
        lease.release();
      }
      budget -= seen;
      await new Promise<void>((r) => setImmediate(r));
    }
  }

  /**
   * Looks at twice the `logged` entries a write transaction wrote, after the cursor, inside that
   * transaction (open on `db`, about to commit): a failure is logged and leaves the transaction as it
   * was (the DELETE is one statement: SQLite undoes it alone).
   */
  inside(db: Database.Database, logged: number): void {
    if (this.#closed) return;
    this.#walkedInside = true;
    this.#owed = Math.min(MAX_PER_PASS, this.#owed + logged);
    try {
      this.#look(db, Math.min(SLICE, 2 * logged));
    } catch (err) {
      log.warn(errorFields(err), 'change log compaction failed (it will try again)');
    }
  }

  /** Looks at up to `limit` entries after the cursor in a transaction of its own; returns how many it looked at (`limit`). */
  #slice(db: Database.Database, limit: number): number {
    db.exec('BEGIN IMMEDIATE');
    try {
      this.#look(db, limit);
      db.exec('COMMIT');
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw err;
    }
    // The end of the log counts as a whole slice: the budget shrinks even when the log is short.
    return limit;
  }

  /**
   * Up to `limit` entries after the cursor, in the open transaction: one DELETE over that range
   * (SQLite checks each entry against its table's clock table; no entry comes to JavaScript).
   */
  #look(db: Database.Database, limit: number): void {
    const st = this.#statements(db);
    const from: Entry = this.#cursor ?? FIRST;
    const to = st.end.get(...from, limit - 1) as Entry | undefined;
    this.#cursor = to ?? null;
    if (to && st.bounded) this.removed += st.bounded.run(...from, ...to).changes;
    else if (!to && st.open) this.removed += st.open.run(...from).changes;
  }

  /** The statements of the current schema (prepared again after a reload). */
  #statements(db: Database.Database): Statements {
    const schema = this.#engine.schema;
    if (this.#prepared?.schema === schema) return this.#prepared;
    const key = '(site_id, db_version, tbl, pk)';
    const range = `${key} > (?, ?, ?, ?)`;
    // An entry is stale when its table's clock table has no row at its key, origin and version; an
    // entry of a table no longer in the schema is kept (ELSE 0).
    const stale = (table: string) =>
      `WHEN ${lit(table)} THEN NOT EXISTS (SELECT 1 FROM main.${q(clockTableName(table))} c` +
      ` WHERE c.pk = ${CHANGE_LOG}.pk AND c.site_id = ${CHANGE_LOG}.site_id AND c.db_version = ${CHANGE_LOG}.db_version)`;
    const cases = [...schema.tables.values()].filter((t) => t.primaryKey.length > 0).map((t) => stale(t.name));
    const isStale = `CASE tbl ${cases.join(' ')} ELSE 0 END`;
    const some = cases.length > 0;
    this.#prepared = {
      schema,
      end: db
        .prepare(
          `SELECT site_id, db_version, tbl, pk FROM main.${CHANGE_LOG} WHERE ${range} ORDER BY ${key.slice(1, -1)} LIMIT 1 OFFSET ?`,
        )
        .raw(true)
        .safeIntegers(true),
      bounded: some
        ? db.prepare(`DELETE FROM main.${CHANGE_LOG} WHERE ${range} AND ${key} <= (?, ?, ?, ?) AND ${isStale}`)
        : null,
      open: some ? db.prepare(`DELETE FROM main.${CHANGE_LOG} WHERE ${range} AND ${isStale}`) : null,
    };
    return this.#prepared;
  }

  /** Stops; a pass under way ends after its slice. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#passing;
  }
}
