import type Database from 'better-sqlite3';
import type { ChangeFeed, Changeset, RowChange } from '../bus/changeset';
import type { Engine } from '../engine/engine';
import { PatinaError } from '../errors';
import type { Schema, TableDef } from '../engine/schema/model';
import { quoteIdentifier as q } from '../engine/sql-text';
import { type SqlValue, narrowInteger } from '../engine/values';
import type { CommitHooks, SharedUnit } from '../engine/writer';
import {
  CAPTURE_STATE_DDL,
  CHANGE_LOG,
  CHANGE_LOG_DDL,
  SENTINEL,
  captureDdl,
  clockTableName,
  legacyClockIndex,
  legacyTriggerDrops,
} from './clock-sql';
import { ClusterIds } from './cluster-ids';
import { KEY_MARK_DDL, keyRuleDdl } from './key-rule';
import { decodePkHex, encodePk } from './pk';

/** The meta key of this agent's highest db_version. */
export const VERSION_KEY = 'db_version';
const ID_KEY = 'id_high_water';

/** Statements of one captured table, prepared once per schema. */
interface CapturedTable {
  def: TableDef;
  /** The row as it is now, by primary key: its values in `names` order (raw, no object built by the driver). */
  read: Database.Statement;
  names: string[];
}

/** Stands for a row that exists but was not read (its values are not wanted). */
const NOT_READ: SqlValue[] = [];

/**
 * A touched row (clock-sql.ts): its rowid, table, encoded key as hex, whether it was alive before and
 * after (0 or 1), and the row's identity as a string (table, NUL, the key's hex), made here. Read as
 * plain numbers and strings: a Buffer per touched row (its own backing store) and BigInts cost more
 * than the rest of reading the touches (measured: 16 touches of a TPC-B group commit, 24 µs read as
 * blobs and BigInts, 10 as text and numbers). A rowid of the temp table (emptied at each commit) and
 * a db_version stay far below 2^53.
 */
type Touch = [number, string, string, number, number, string];
/** The columns of a Touch but the identity. */
const TOUCH = 'rowid, tbl, hex(pk), alive_before, alive_after';

/** A Touch from its row (the identity added). */
function touchOf(r: unknown[]): Touch {
  return [r[0] as number, r[1] as string, r[2] as string, r[3] as number, r[4] as number, `${r[1]}\u0000${r[2]}`];
}

/**
 * Change capture: clock tables and triggers on every schema table with a primary key, the
 * transaction's db_version, and the changeset built at commit and published on the feed.
 */
export class ChangeCapture implements CommitHooks<Changeset> {
  readonly siteId: Buffer;
  /** The site id as hex: the actor id of this agent's changesets. */
  readonly actor: string;
  /** patina_id(): keys no other agent makes. */
  readonly ids: ClusterIds;
  readonly #db: Database.Database;
  readonly #feed: ChangeFeed;
  readonly #setVersion: (v: bigint) => void;
  #tables = new Map<string, CapturedTable>();
  #capturing = true;
  /** The highest version committed. */
  #lastVersion: number;
  /**
   * The highest version given to a unit of the open transaction (a group commit has several). The
   * triggers stamp the open unit's clocks with the version kept in __patina_capture, always this + 1.
   */
  #assigned: number;
  /** The row changes the triggers noted (clock-sql.ts) after a rowid, and the last rowid a unit took. */
  #touchedAfter!: Database.Statement;
  #clearTouched!: Database.Statement;
  /** Appends the change log entries of the unit's touched rows (clock-sql.ts). */
  #logTouched!: Database.Statement;
  #lastTouch = 0;
  /**
   * Whether a changed row of the table is read back for the changeset's values. The agent answers from
   * its live queries (only their wake index reads values); a change nobody wants the values of says
   * its kind and key, with values null. Asked at commit, in the turn the changeset is published.
   */
  rowsWanted: (table: string) => boolean = () => true;
  /** Change log entries written since the compactor last asked, but those compacted for inside their transaction (see change-log.ts). */
  logged = 0;
  /** Change log entries the open transaction's local units wrote. */
  #loggedNow = 0;
  /** Walks the change log inside a transaction about to commit, for the `logged` entries it wrote (ChangeLogCompactor.inside). */
  compactInside: ((db: Database.Database, logged: number) => void) | null = null;
  /** The next unit's version and seqs: after a unit that changed rows. */
  #nextUnit!: Database.Statement;
  /** The open unit's version and next seq (after a commit, and at a switch between units sharing a transaction, enterUnit), and its seq read back. */
  #setUnit!: Database.Statement;
  #seq!: Database.Statement;
  /** The version of the last touched row (afterUnitStatement). */
  #lastTouchVersion!: Database.Statement;
  #touchedAll!: Database.Statement;
  #logTouchedAll!: Database.Statement;
  /** The version the next unit sharing the open transaction to change rows gets (beginShared). */
  #sharedNext = 0;
  #setCapturing!: Database.Statement;

  private constructor(engine: Engine<Changeset>, feed: ChangeFeed) {
    this.#db = engine.writer.db;
    this.#feed = feed;
    this.siteId = engine.meta.siteId();
    this.actor = this.siteId.toString('hex');
    const v = engine.meta.get(VERSION_KEY);
    this.#lastVersion = v === undefined || v === null ? 0 : Number(v);
    this.#assigned = this.#lastVersion;
    this.#setVersion = (ver) => engine.meta.set(VERSION_KEY, ver);
    const ids = engine.meta.get(ID_KEY);
    this.ids = new ClusterIds(
      this.siteId,
      ids === undefined || ids === null ? null : BigInt(ids as number | bigint),
      (hw) => engine.meta.set(ID_KEY, hw),
    );
  }

  /** Installs capture on the engine's writer: functions, clock tables and triggers (now and on every reload), commit hooks. */
  static install(engine: Engine<Changeset>, feed: ChangeFeed): ChangeCapture {
    const c = new ChangeCapture(engine, feed);
    c.#registerFunctions();
    c.#createState();
    engine.onSchema((schema, db) => c.#applySchema(schema, db));
    engine.writer.setHooks(c);
    return c;
  }

  /** The highest db_version this agent has given a transaction (0 before any). */
  get version(): number {
    return this.#lastVersion;
  }

  /** Runs `fn` with the triggers quiet: for merges of remote changes, which write clocks themselves. */
  withoutCapture<T>(fn: () => T): T {
    const was = this.#capturing;
    if (was) this.#quiet(true);
    try {
      return fn();
    } finally {
      if (was) this.#quiet(false);
    }
  }

  /**
   * withoutCapture for work that awaits between statements (a merge that lets the event loop turn):
   * the caller holds the writer lease throughout, so nothing else writes while the triggers are quiet.
   */
  async withoutCaptureAsync<T>(fn: () => Promise<T>): Promise<T> {
    const was = this.#capturing;
    if (was) this.#quiet(true);
    try {
      return await fn();
    } finally {
      if (was) this.#quiet(false);
    }
  }

  #quiet(quiet: boolean) {
    this.#capturing = !quiet;
    this.#setCapturing.run(quiet ? 0 : 1);
  }

  quietly<T>(fn: () => T): T {
    return this.withoutCapture(fn);
  }

  quietUntilRollback(): void {
    if (this.#capturing) this.#setCapturing.run(0);
  }

  /** What POST /v1/transactions reports of a transaction's change. */
  describe(change: Changeset | null): { version: number | null; actor_id: string } {
    return { version: change ? change.version : null, actor_id: this.actor };
  }

  endUnit(): Changeset | null {
    const touched = (this.#touchedAfter.all(this.#lastTouch) as unknown[][]).map(touchOf);
    if (touched.length === 0) return null;
    const v = this.#assigned + 1;
    this.#loggedNow += this.#logTouched.run(this.siteId, v, this.#lastTouch).changes;
    this.#lastTouch = touched[touched.length - 1][0];
    const change = this.#changeOf(touched, v);
    this.#nextUnit.run();
    this.#assigned = v;
    return change;
  }

  beginShared(): void {
    this.#sharedNext = this.#assigned + 1;
  }

  enterUnit(from: SharedUnit | null, to: SharedUnit): void {
    // A read and an update: one UPDATE ... RETURNING did both, but RETURNING builds and drops two
    // temporary b-trees per run, twice the cost of the two statements (1.6 µs against 0.8, measured;
    // a TPC-B transaction of PG blocks sharing a held one switches units about 3.5 times).
    if (from?.version != null) from.seq = this.#seq.get() as number;
    if (to.version === null) this.#setUnit.run(this.#sharedNext, 0);
    else this.#setUnit.run(to.version, to.seq);
  }

  afterUnitStatement(unit: SharedUnit): void {
    if (unit.version !== null) return;
    // a unit with no version yet stamps the next one: it is the unit's once a statement touched a row
    const last = this.#lastTouchVersion.get() as number | undefined;
    if (last === this.#sharedNext) unit.version = this.#sharedNext++;
  }

  endSharedUnits(units: SharedUnit[]): Changeset[] {
    // every row the transaction touched is a unit's (a statement that touched rows gave its unit
    // a version at once): one read of them and one append to the change log for all units
    const byVersion = new Map<number, Touch[]>();
    const alive = new Map<string, number>(); // whether each row is alive at the end: its last touch says
    for (const r of this.#touchedAll.all() as unknown[][]) {
      const v = r[5] as number;
      const t = touchOf(r);
      let rows = byVersion.get(v);
      if (!rows) byVersion.set(v, (rows = []));
      rows.push(t);
      alive.set(t[5], t[4]);
      this.#lastTouch = t[0];
    }
    if (byVersion.size > 0) this.#loggedNow += this.#logTouchedAll.run(this.siteId).changes;
    const changes: Changeset[] = [];
    const rows = new Map<string, SqlValue[] | undefined>(); // rows several units touched are read once
    for (const u of [...units].filter((x) => x.version !== null).sort((a, b) => a.version! - b.version!)) {
      const v = u.version!;
      changes.push(this.#changeOf(byVersion.get(v) ?? [], v, rows, alive));
      this.#assigned = v;
    }
    this.#setUnit.run(BigInt(this.#assigned + 1), 0);
    return changes;
  }

  /**
   * A unit's changeset from its touched rows (the first touch of a row gives its kind), the rows as
   * they are now: read back when their values are wanted, else alive or not as the row's last touch
   * of the transaction (`alive`; by default the last in `touched`) left it.
   */
  #changeOf(
    touched: Touch[],
    v: number,
    rows?: Map<string, SqlValue[] | undefined>,
    alive?: Map<string, number>,
  ): Changeset {
    // a row's first touch, its alive-after then set from its last touch (nothing else reads it)
    const first = new Map<string, Touch>();
    for (const t of touched) {
      const f = first.get(t[5]);
      if (f === undefined) first.set(t[5], t);
      else f[4] = t[4];
    }
    const changes: RowChange[] = [];
    let wanted: string | null = null; // the last table found wanted, and one found not
    let unwanted: string | null = null;
    for (const [key, [, table, pkHex, aliveBefore, aliveAfter]] of first) {
      const ct = this.#tables.get(table);
      if (!ct) continue;
      const pk = decodePkHex(pkHex);
      let raw: SqlValue[] | undefined;
      if (rows?.has(key)) raw = rows.get(key);
      else {
        const want = table === wanted || (table !== unwanted && this.rowsWanted(table));
        if (want) wanted = table;
        else unwanted = table;
        if (want) raw = ct.read.get(...pk) as SqlValue[] | undefined;
        else raw = (alive ? alive.get(key) : aliveAfter) === 1 ? NOT_READ : undefined;
        rows?.set(key, raw);
      }
      changes.push({
        table,
        pk: pk.map((v) => (typeof v === 'bigint' ? narrowInteger(v) : v)),
        kind: !raw ? 'delete' : aliveBefore === 1 ? 'update' : 'insert',
        values: raw && raw !== NOT_READ ? rowOf(ct.names, raw) : null,
      });
    }
    return { actor: this.actor, version: v, origin: 'local', changes, seq: 0 };
  }

  /** Nothing to forget: the savepoint's rollback undid what the unit's triggers gathered (temp tables). */
  unitRolledBack(): void {}

  /** Nothing to do, for the same reason: the touched rows left are those still changed. */
  rolledBackToSavepoint(): void {}

  beforeCommit(): void {
    if (this.#lastTouch > 0) {
      this.#clearTouched.run();
      this.#lastTouch = 0;
    }
    this.ids.beforeCommit();
    if (this.#assigned > this.#lastVersion) this.#setVersion(BigInt(this.#assigned));
    const logged = this.#loggedNow;
    this.#loggedNow = 0;
    if (logged === 0) return;
    if (this.compactInside) this.compactInside(this.#db, logged);
    else this.logged += logged;
  }

  afterCommit(changes: Changeset[]): void {
    this.#lastVersion = this.#assigned;
    for (const cs of changes) this.#feed.publish(cs);
  }

  afterRollback(): void {
    // The rollback took __patina_capture back to the last commit's next version, and emptied
    // __patina_touched as it was then.
    this.#assigned = this.#lastVersion;
    this.#lastTouch = 0;
    this.#loggedNow = 0;
  }

  /** The writer's temp tables the triggers keep the open unit's state in (clock-sql.ts). */
  #createState() {
    const db = this.#db;
    for (const sql of [...CAPTURE_STATE_DDL, KEY_MARK_DDL, CHANGE_LOG_DDL]) db.exec(sql);
    db.prepare('INSERT OR REPLACE INTO temp.__patina_capture (id, capturing, version, seq) VALUES (1, 1, ?, 0)').run(
      BigInt(this.#assigned + 1),
    );
    this.#setCapturing = db.prepare('UPDATE temp.__patina_capture SET capturing = ?');
    this.#nextUnit = db.prepare('UPDATE temp.__patina_capture SET version = version + 1, seq = 0');
    this.#touchedAfter = db
      .prepare(`SELECT ${TOUCH} FROM temp.__patina_touched WHERE rowid > ? ORDER BY rowid`)
      .raw(true)
      .safeIntegers(false);
    this.#clearTouched = db.prepare('DELETE FROM temp.__patina_touched');
    this.#setUnit = db.prepare('UPDATE temp.__patina_capture SET version = ?, seq = ?');
    this.#seq = db.prepare('SELECT seq FROM temp.__patina_capture').pluck().safeIntegers(false);
    this.#lastTouchVersion = db
      .prepare('SELECT version FROM temp.__patina_touched ORDER BY rowid DESC LIMIT 1')
      .pluck()
      .safeIntegers(false);
    this.#touchedAll = db
      .prepare(`SELECT ${TOUCH}, version FROM temp.__patina_touched ORDER BY rowid`)
      .raw(true)
      .safeIntegers(false);
    this.#logTouchedAll = db.prepare(
      `INSERT OR IGNORE INTO main.${CHANGE_LOG} (site_id, db_version, tbl, pk) SELECT ?, version, tbl, pk FROM temp.__patina_touched`,
    );
    this.#logTouched = db.prepare(
      `INSERT OR IGNORE INTO main.${CHANGE_LOG} (site_id, db_version, tbl, pk) SELECT ?, ?, tbl, pk FROM temp.__patina_touched WHERE rowid > ?`,
    );
  }

  #registerFunctions() {
    const db = this.#db;
    // A REAL key value's bytes (pk.ts); the triggers encode every other type in SQL.
    db.function('patina_pk_real', { deterministic: true }, (v: unknown) => encodePk([v]).toString('hex', 1));
    db.function('patina_id', { deterministic: false }, () => this.ids.next());
  }

  /**
   * A file of an older agent: its clock table has the (site_id, db_version) index instead of entries
   * in the change log. Makes the entries from the clock rows, then drops the index (once; a table
   * of n clock rows takes a read of them at that start).
   */
  static #migrateClockIndex(db: Database.Database, table: string) {
    const index = legacyClockIndex(table);
    if (!db.prepare("SELECT 1 FROM main.sqlite_master WHERE type = 'index' AND name = ?").get(index)) return;
    db.prepare(
      `INSERT OR IGNORE INTO main.${CHANGE_LOG} (site_id, db_version, tbl, pk) SELECT site_id, db_version, ?, pk FROM main.${q(clockTableName(table))}`,
    ).run(table);
    db.exec(`DROP INDEX main.${q(index)}`);
  }

  /** Creates clock tables and (re)creates triggers for the tables of `schema`; inside a transaction. */
  #applySchema(schema: Schema, db: Database.Database) {
    const install = () => {
      const tables = new Map<string, CapturedTable>();
      for (const t of schema.tables.values()) {
        if (t.primaryKey.length === 0) continue; // not replicated: no identity to merge on
        if (t.columns.some((c) => c.name === SENTINEL)) {
          throw new PatinaError(
            'user',
            `table "${t.name}": the column name "${SENTINEL}" is reserved by change capture`,
          );
        }
        for (const sql of [...legacyTriggerDrops(t), ...captureDdl(t, this.siteId), ...keyRuleDdl(t)]) db.exec(sql);
        ChangeCapture.#migrateClockIndex(db, t.name);
        const where = t.primaryKey.map((c) => `${q(c)} IS ?`).join(' AND ');
        const read = db.prepare(`SELECT * FROM main.${q(t.name)} WHERE ${where}`).raw(true);
        tables.set(t.name, { def: t, read, names: read.columns().map((c) => c.name) });
      }
      this.#tables = tables;
    };
    if (db.inTransaction) install();
    else db.transaction(install).immediate();
  }
}

/** The row as an object by column name, integers narrowed where exact. */
function rowOf(names: string[], raw: SqlValue[]): Record<string, SqlValue> {
  const row: Record<string, SqlValue> = {};
  for (let i = 0; i < names.length; i++) {
    const v = raw[i];
    row[names[i]] = typeof v === 'bigint' ? narrowInteger(v) : v;
  }
  return row;
}
