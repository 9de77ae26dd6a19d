import Database from 'better-sqlite3';
import type { Schema, TableDef } from '../engine/schema/model';
import { quoteLiteral as lit, quoteIdentifier as q } from '../engine/sql-text';
import type { SqlValue } from '../engine/values';
import { CHANGE_LOG, SENTINEL, clockTableName } from '../crdt/clock-sql';
import { decodePk } from '../crdt/pk';
import { Pace } from '../engine/pace';
import { encodeValue, type WireRow } from './wire';

interface TableReads {
  def: TableDef;
  /** Clock entries of one origin in a version range, with the row's causal length. */
  clocks: Database.Statement;
  row: Database.Statement;
}

/**
 * Reads what an origin wrote at given versions back out of the clock tables, as wire rows with the
 * current values, on its own read-only connection (a consistent snapshot per call, never the
 * writer's open transaction). Changes since overwritten are gone: a version may come back empty.
 */
export class ChangeReader {
  readonly #db: Database.Database;
  readonly #schema: () => Schema;
  #seen: Schema | null = null;
  #tables: TableReads[] = [];
  /** The read under way (reads take turns on the one connection). */
  #queue: Promise<unknown> = Promise.resolve();
  #closing = false;

  constructor(path: string, schema: () => Schema) {
    this.#db = new Database(path, { readonly: true, fileMustExist: true });
    this.#db.defaultSafeIntegers(true);
    this.#db.pragma('busy_timeout = 5000');
    this.#schema = schema;
  }

  /**
   * Per version in from..to (ascending), the rows `actor` wrote there that still stand; empty versions
   * are absent. One read at a time (its read transaction stays open while the event loop turns
   * between slices: a version of 100,000 rows is seconds of reading, pace.ts).
   */
  read(actor: string, from: number, to: number): Promise<Map<number, WireRow[]>> {
    const run = this.#queue.then(() => this.#read(actor, from, to));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #read(actor: string, from: number, to: number): Promise<Map<number, WireRow[]>> {
    if (this.#closing) throw new Error('the change reader is closed');
    this.#refresh();
    const pace = new Pace();
    const site = Buffer.from(actor, 'hex');
    const out = new Map<number, WireRow[]>();
    this.#db.exec('BEGIN');
    try {
      for (const t of this.#tables) {
        const byRow = new Map<string, WireRow>();
        let current: Record<string, SqlValue> | undefined;
        for (const [pk, cid, colVersion, dbVersion, seq, cl] of t.clocks.iterate(site, from, to) as Iterable<
          [Buffer, string, bigint, bigint, bigint, bigint | null]
        >) {
          const v = Number(dbVersion);
          const key = v + ':' + pk.toString('latin1');
          let row = byRow.get(key);
          if (!row) {
            if (cl === null) continue; // no sentinel: nothing consistent to send
            row = [t.def.name, pk.toString('base64'), Number(cl), -1];
            byRow.set(key, row);
            let list = out.get(v);
            if (!list) out.set(v, (list = []));
            list.push(row);
            current = undefined;
          }
          if (pace.due()) {
            await pace.breathe();
            if (this.#closing) throw new Error('the change reader is closed');
          }
          if (cid === SENTINEL) {
            row[3] = Number(seq);
            continue;
          }
          current ??= t.row.get(...decodePk(pk)) as Record<string, SqlValue> | undefined;
          if (!current) continue;
          row.push(cid, encodeValue(current[cid]), Number(colVersion), Number(seq));
        }
      }
    } finally {
      this.#db.exec('COMMIT');
    }
    return new Map([...out.entries()].sort((a, b) => a[0] - b[0]));
  }

  #refresh(): void {
    const schema = this.#schema();
    if (schema === this.#seen) return;
    this.#seen = schema;
    this.#tables = [];
    for (const def of schema.tables.values()) {
      if (def.primaryKey.length === 0) continue;
      const clock = q(clockTableName(def.name));
      try {
        this.#tables.push({
          def,
          // The change log names the rows; their clocks still stamped with that origin and version
          // are what stands of the change. Ordered by version then key then seq, so one row's
          // entries come together.
          clocks: this.#db
            .prepare(
              `SELECT c.pk, c.cid, c.col_version, c.db_version, c.seq, s.col_version FROM main.${CHANGE_LOG} l` +
                ` JOIN ${clock} c ON c.pk = l.pk AND c.site_id = l.site_id AND c.db_version = l.db_version` +
                ` LEFT JOIN ${clock} s ON s.pk = c.pk AND s.cid = '${SENTINEL}'` +
                ` WHERE l.site_id = ? AND l.db_version BETWEEN ? AND ? AND l.tbl = ${lit(def.name)} ORDER BY l.db_version, c.pk, c.seq`,
            )
            .raw(true),
          row: this.#db.prepare(
            `SELECT * FROM ${q(def.name)} WHERE ${def.primaryKey.map((c) => `${q(c)} IS ?`).join(' AND ')}`,
          ),
        });
      } catch {
        // The clock table is not there yet (capture installs it with the schema): nothing to read.
        this.#seen = null;
      }
    }
  }

  /** Closes the connection once the read under way (if any) has stopped at its next turn. */
  close(): void {
    this.#closing = true;
    void this.#queue.then(() => this.#db.close());
  }
}
