import type Database from 'better-sqlite3';
import type { ChangeFeed, Changeset, RowChange } from '../bus/changeset';
import type { Engine } from '../engine/engine';
import type { Schema, TableDef } from '../engine/schema/model';
import { quoteIdentifier as q } from '../engine/sql-text';
import { Pace } from '../engine/pace';
import { type SqlValue, narrowInteger } from '../engine/values';
import type { ChangeCapture } from './capture';
import { CHANGE_LOG, SENTINEL, clockTableName } from './clock-sql';
import { decodePk } from './pk';

/** One column of a remote row change: its new value and clock. */
export interface RemoteColumn {
  cid: string;
  val: SqlValue;
  colVersion: number;
  seq: number;
}

/** The clock entries of one row in one remote changeset. */
export interface RemoteRow {
  table: string;
  /** The encoded primary key (pk.ts). */
  pk: Buffer;
  /** The row's causal length at the origin: odd alive, even deleted. */
  cl: number;
  /** The seq of the row sentinel's change, when this changeset changed the sentinel. */
  sentinelSeq: number | null;
  cols: RemoteColumn[];
}

/** One transaction of another agent (possibly with parts already overwritten there). */
export interface RemoteChangeset {
  /** Origin site id, hex. */
  actor: string;
  version: number;
  rows: RemoteRow[];
}

/** The bookkeeping of versions seen, written inside the merge's transaction. */
export interface SeenVersions {
  has(actor: string, v: number): boolean;
  mark(actor: string, from: number, to: number): void;
  /** After COMMIT: the in-memory view may now change. */
  commit(): void;
}

export interface MergeResult {
  /** Changesets merged and recorded (some may have changed nothing here). */
  applied: number;
  /** Already seen: skipped. */
  duplicate: number;
  /** Naming a table or column this agent does not have yet: not recorded, retried later. */
  deferred: { actor: string; version: number; reason: string }[];
  /** Failed for another reason (logged; not recorded). */
  failed: { actor: string; version: number; reason: string }[];
}

interface TableStatements {
  def: TableDef;
  columns: Set<string>;
  sentinel: Database.Statement;
  clock: Database.Statement;
  putClock: Database.Statement;
  dropColumnClocks: Database.Statement;
  row: Database.Statement;
  deleteRow: Database.Statement;
  upserts: Map<string, Database.Statement>;
}

class Deferred extends Error {}

/** The agent stops: the batch under merge is rolled back whole (peers send it again after the restart). */
class Stopping extends Error {}

/**
 * Merges remote changesets into the database, identically on every agent (DESIGN.md): higher causal
 * length wins and an even one deletes; at equal causal length the higher col_version wins, then the
 * greater value (INTEGER > REAL > TEXT > BLOB > NULL, then by value), then the greater site id. The
 * winner's clock keeps the origin's site id, db_version and seq. Each changeset is applied whole or
 * not at all (a savepoint each), a batch in one transaction through the writer lease, with capture's
 * triggers quiet; the rows that changed here are published on the feed as origin 'remote'.
 */
export class ChangeMerger {
  readonly #engine: Engine<Changeset>;
  readonly #capture: ChangeCapture;
  readonly #feed: ChangeFeed;
  #schema: Schema | null = null;
  #tables = new Map<string, TableStatements>();
  /** Notes a merged row in the change log under its origin's version (clock-sql.ts). */
  #log: Database.Statement | null = null;

  #stopping = false;

  constructor(engine: Engine<Changeset>, capture: ChangeCapture, feed: ChangeFeed) {
    this.#engine = engine;
    this.#capture = capture;
    this.#feed = feed;
  }

  /**
   * Merges `batch` and marks `cleared` (versions with nothing left to send) seen, all in one
   * transaction; `begin` opens the version bookkeeping for it.
   */
  /**
   * The agent stops: a merge under way stops at its next turn of the event loop and rolls its batch
   * back (a 100,000-row changeset is seconds of merging; SIGTERM does not wait for it), and none starts.
   */
  stop(): void {
    this.#stopping = true;
  }

  async merge(
    batch: RemoteChangeset[],
    cleared: { actor: string; from: number; to: number }[],
    begin: () => SeenVersions,
  ): Promise<MergeResult> {
    const result: MergeResult = { applied: 0, duplicate: 0, deferred: [], failed: [] };
    if (batch.length === 0 && cleared.length === 0) return result;
    if (this.#stopping) throw new Stopping('the agent is stopping');
    const lease = await this.#engine.lease();
    try {
      const db = lease.db;
      this.#refresh(db);
      const seen = begin();
      const published: Changeset[] = [];
      lease.begin();
      try {
        await this.#capture.withoutCaptureAsync(async () => {
          const pace = new Pace();
          for (const cs of batch) {
            if (cs.actor === this.#capture.actor || seen.has(cs.actor, cs.version)) {
              result.duplicate++;
              continue;
            }
            db.exec('SAVEPOINT patina_merge');
            try {
              const changes = await this.#mergeOne(cs, pace);
              seen.mark(cs.actor, cs.version, cs.version);
              db.exec('RELEASE patina_merge');
              result.applied++;
              if (changes.length > 0)
                published.push({ actor: cs.actor, version: cs.version, origin: 'remote', changes, seq: 0 });
            } catch (err) {
              db.exec('ROLLBACK TO patina_merge');
              db.exec('RELEASE patina_merge');
              if (err instanceof Stopping) throw err;
              const entry = { actor: cs.actor, version: cs.version, reason: (err as Error).message };
              (err instanceof Deferred ? result.deferred : result.failed).push(entry);
            }
          }
          for (const c of cleared) if (c.actor !== this.#capture.actor) seen.mark(c.actor, c.from, c.to);
        });
        lease.commit();
      } catch (err) {
        lease.rollback();
        throw err;
      }
      seen.commit();
      // Still holding the writer: remote changesets take their place in commit order.
      for (const cs of published) this.#feed.publish(cs);
      return result;
    } finally {
      lease.release();
    }
  }

  async #mergeOne(cs: RemoteChangeset, pace: Pace): Promise<RowChange[]> {
    // Check the whole changeset first: one unknown table or column defers all of it.
    for (const r of cs.rows) {
      const t = this.#tables.get(r.table);
      if (!t) throw new Deferred(`unknown table ${JSON.stringify(r.table)}`);
      for (const c of r.cols)
        if (!t.columns.has(c.cid))
          throw new Deferred(`unknown column ${JSON.stringify(c.cid)} of table ${JSON.stringify(r.table)}`);
    }
    const site = Buffer.from(cs.actor, 'hex');
    const out: RowChange[] = [];
    for (const r of cs.rows) {
      const change = this.#mergeRow(this.#tables.get(r.table)!, r, cs.version, site);
      if (change) out.push(change);
      if (pace.due()) {
        await pace.breathe();
        if (this.#stopping) throw new Stopping('the agent is stopping');
      }
    }
    return out;
  }

  #mergeRow(t: TableStatements, r: RemoteRow, version: number, site: Buffer): RowChange | null {
    const localCl = Number((t.sentinel.get(r.pk) as bigint | undefined) ?? 0n);
    if (r.cl < localCl) return null;
    const pkValues = decodePk(r.pk);
    const before = t.row.get(...pkValues) as Record<string, SqlValue> | undefined;
    let winners: RemoteColumn[];
    if (r.cl > localCl) {
      // A newer life of the row (or its death): the old column clocks are void.
      const seq = r.sentinelSeq ?? r.cols[0]?.seq ?? 0;
      t.putClock.run(r.pk, SENTINEL, r.cl, version, site, seq);
      this.#logRow(t, r.pk, version, site);
      t.dropColumnClocks.run(r.pk);
      if (r.cl % 2 === 0) {
        if (!before) return null;
        t.deleteRow.run(...pkValues);
        return { table: t.def.name, pk: pkValues.map(narrow), kind: 'delete', values: null };
      }
      winners = r.cols;
    } else {
      if (r.cl % 2 === 0) return null;
      winners = r.cols.filter((c) => this.#columnWins(t, r.pk, c, before, site));
      if (winners.length === 0 && before) return null;
    }
    for (const c of winners) t.putClock.run(r.pk, c.cid, c.colVersion, version, site, c.seq);
    if (winners.length > 0) this.#logRow(t, r.pk, version, site);
    this.#upsert(t, pkValues, winners);
    const after = t.row.get(...pkValues) as Record<string, SqlValue>;
    for (const k in after) after[k] = narrow(after[k]);
    return { table: t.def.name, pk: pkValues.map(narrow), kind: before ? 'update' : 'insert', values: after };
  }

  #logRow(t: TableStatements, pk: Buffer, version: number, site: Buffer): void {
    this.#capture.logged += this.#log!.run(site, version, t.def.name, pk).changes;
  }

  #columnWins(
    t: TableStatements,
    pk: Buffer,
    c: RemoteColumn,
    before: Record<string, SqlValue> | undefined,
    site: Buffer,
  ): boolean {
    const local = t.clock.get(pk, c.cid) as { col_version: bigint; site_id: Buffer } | undefined;
    if (!local) return true;
    const lv = Number(local.col_version);
    if (c.colVersion !== lv) return c.colVersion > lv;
    const byValue = compareValues(c.val, before ? before[c.cid] : null);
    if (byValue !== 0) return byValue > 0;
    return Buffer.compare(site, local.site_id) > 0;
  }

  #upsert(t: TableStatements, pkValues: SqlValue[], cols: RemoteColumn[]): void {
    const key = cols.map((c) => c.cid).join('\u0000');
    let st = t.upserts.get(key);
    if (!st) {
      const pk = t.def.primaryKey;
      const names = [...pk, ...cols.map((c) => c.cid)];
      const set = cols.map((c) => `${q(c.cid)} = excluded.${q(c.cid)}`).join(', ');
      st = this.#engine.writer.db.prepare(
        `INSERT INTO ${q(t.def.name)} (${names.map(q).join(', ')}) VALUES (${names.map(() => '?').join(', ')})` +
          ` ON CONFLICT (${pk.map(q).join(', ')}) DO ${cols.length ? `UPDATE SET ${set}` : 'NOTHING'}`,
      );
      t.upserts.set(key, st);
    }
    st.run(...pkValues, ...cols.map((c) => c.val));
  }

  /** Prepares statements for the tables of the current schema (again after a reload). */
  #refresh(db: Database.Database): void {
    const schema = this.#engine.schema;
    if (schema === this.#schema) return;
    this.#schema = schema;
    this.#tables = new Map();
    this.#log = db.prepare(
      `INSERT OR IGNORE INTO main.${CHANGE_LOG} (site_id, db_version, tbl, pk) VALUES (?, ?, ?, ?)`,
    );
    for (const def of schema.tables.values()) {
      if (def.primaryKey.length === 0) continue;
      const clock = q(clockTableName(def.name));
      const where = def.primaryKey.map((c) => `${q(c)} IS ?`).join(' AND ');
      this.#tables.set(def.name, {
        def,
        columns: new Set([SENTINEL, ...def.columns.map((c) => c.name).filter((c) => !def.primaryKey.includes(c))]),
        sentinel: db.prepare(`SELECT col_version FROM ${clock} WHERE pk = ? AND cid = '${SENTINEL}'`).pluck(),
        clock: db.prepare(`SELECT col_version, site_id FROM ${clock} WHERE pk = ? AND cid = ?`),
        putClock: db.prepare(
          `INSERT INTO ${clock} (pk, cid, col_version, db_version, site_id, seq) VALUES (?, ?, ?, ?, ?, ?)` +
            ' ON CONFLICT (pk, cid) DO UPDATE SET col_version = excluded.col_version, db_version = excluded.db_version, site_id = excluded.site_id, seq = excluded.seq',
        ),
        dropColumnClocks: db.prepare(`DELETE FROM ${clock} WHERE pk = ? AND cid <> '${SENTINEL}'`),
        row: db.prepare(`SELECT * FROM ${q(def.name)} WHERE ${where}`),
        deleteRow: db.prepare(`DELETE FROM ${q(def.name)} WHERE ${where}`),
        upserts: new Map(),
      });
    }
  }
}

const narrow = (v: SqlValue): SqlValue => (typeof v === 'bigint' ? narrowInteger(v) : v);

function typeRank(v: SqlValue | undefined): number {
  if (v === null || v === undefined) return 0;
  switch (typeof v) {
    case 'bigint':
      return 4;
    case 'number':
      return 3;
    case 'string':
      return 2;
  }
  return 1;
}

/** The merge's total order of values: INTEGER > REAL > TEXT > BLOB > NULL, then by value (text and blobs bytewise). */
export function compareValues(a: SqlValue | undefined, b: SqlValue | undefined): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra > rb ? 1 : -1;
  switch (ra) {
    case 4:
    case 3:
      return (a as number) > (b as number) ? 1 : (a as number) < (b as number) ? -1 : 0;
    case 2:
      return Buffer.compare(Buffer.from(a as string, 'utf8'), Buffer.from(b as string, 'utf8'));
    case 1:
      return Buffer.compare(a as Uint8Array, b as Uint8Array);
  }
  return 0;
}
