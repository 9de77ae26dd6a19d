import type Database from 'better-sqlite3';
import type { Changeset } from '../bus/changeset';
import type { Engine } from '../engine/engine';
import { quoteIdentifier as q } from '../engine/sql-text';
import type { ChangeCapture } from './capture';
import { CHANGE_LOG, clockTableName } from './clock-sql';

/** Entries looked at per writer transaction: a few milliseconds of the writer at most. */
const SLICE = 512;
/** Entries looked at per pass, at most. */
const MAX_PER_PASS = 65536;

type Entry = [Buffer, bigint, string, Buffer];

/**
 * Keeps the change log (clock-sql.ts) from growing with every write: an entry whose row's clocks all
 * moved on to later versions (the row was written again, or deleted and its column clocks dropped)
 * names nothing the sync reader would send, and is removed. Each pass walks the log from where the
 * last one stopped (wrapping around), looking at about twice as many entries as were written since,
 * so the walk keeps up with the writes and the log stays within about twice its live entries. It
 * holds the writer a slice at a time, yielding between slices; it changes no data, so it commits
 * outside the commit count and the feed.
 */
export class ChangeLogCompactor {
  readonly #engine: Engine<Changeset>;
  readonly #capture: ChangeCapture;
  readonly #timer: NodeJS.Timeout;
  #cursor: Entry | null = null;
  #passing: Promise<void> | null = null;
  #closed = false;
  /** Entries removed since start. */
  removed = 0;

  constructor(engine: Engine<Changeset>, capture: ChangeCapture, intervalMs = 1000) {
    this.#engine = engine;
    this.#capture = capture;
    this.#timer = setInterval(() => {
      this.#passing ??= this.#pass().finally(() => (this.#passing = null));
    }, intervalMs);
    this.#timer.unref();
  }

  async #pass(): Promise<void> {
    let budget = Math.min(MAX_PER_PASS, 2 * this.#capture.logged);
    this.#capture.logged = 0;
    while (budget > 0 && !this.#closed) {
      const lease = await this.#engine.lease();
      let seen: number;
      try {
        if (this.#closed) return;
        seen = this.#slice(lease.db, Math.min(SLICE, budget));
      } catch (err) {
        process.stderr.write(`patina: change log compaction failed (it will try again): ${(err as Error).message}\n`);
        return;
      } finally {
        lease.release();
      }
      budget -= seen;
      await new Promise<void>((r) => setImmediate(r));
    }
  }

  /** Looks at up to `limit` entries after the cursor in one transaction; returns how many it looked at. */
  #slice(db: Database.Database, limit: number): number {
    const cursor = this.#cursor;
    const page = (
      cursor
        ? db.prepare(`SELECT site_id, db_version, tbl, pk FROM main.${CHANGE_LOG} WHERE (site_id, db_version, tbl, pk) > (?, ?, ?, ?) ORDER BY site_id, db_version, tbl, pk LIMIT ?`).raw(true).safeIntegers(true).all(...cursor, limit)
        : db.prepare(`SELECT site_id, db_version, tbl, pk FROM main.${CHANGE_LOG} ORDER BY site_id, db_version, tbl, pk LIMIT ?`).raw(true).safeIntegers(true).all(limit)
    ) as Entry[];
    this.#cursor = page.length < limit ? null : page[page.length - 1];
    if (page.length === 0) return 0;
    const tables = this.#engine.schema.tables;
    const live = new Map<string, Database.Statement>();
    const remove = db.prepare(`DELETE FROM main.${CHANGE_LOG} WHERE site_id = ? AND db_version = ? AND tbl = ? AND pk = ?`);
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const e of page) {
        let st = live.get(e[2]);
        if (!st && tables.has(e[2])) {
          st = db.prepare(`SELECT 1 FROM main.${q(clockTableName(e[2]))} WHERE pk = ? AND site_id = ? AND db_version = ? LIMIT 1`);
          live.set(e[2], st);
        }
        if (st?.get(e[3], e[0], e[1])) continue;
        remove.run(...e);
        this.removed++;
      }
      db.exec('COMMIT');
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw err;
    }
    return page.length;
  }

  /** Stops; a pass under way ends after its slice. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#passing;
  }
}
