import type Database from 'better-sqlite3';
import type { ChangeFeed, Changeset, RowChange } from '../bus/changeset';
import type { Engine } from '../engine/engine';
import { PatinaError } from '../errors';
import type { Schema, TableDef } from '../engine/schema/model';
import { quoteIdentifier as q } from '../engine/sql-text';
import { type SqlValue, narrowInteger } from '../engine/values';
import type { CommitHooks } from '../engine/writer';
import { SENTINEL, captureDdl, clockTableName } from './clock-sql';
import { ClusterIds } from './cluster-ids';
import { keyRuleDdl } from './key-rule';
import { decodePk, encodePk } from './pk';

const VERSION_KEY = 'db_version';
const ID_KEY = 'id_high_water';

/** A row the triggers saw change in the open transaction (first touch wins). */
interface Touch {
  table: string;
  pk: Buffer;
  /** The row was alive when the transaction first touched it. */
  aliveBefore: boolean;
}

/** Statements of one captured table, prepared once per schema. */
interface CapturedTable {
  def: TableDef;
  /** The row as it is now, by primary key. */
  read: Database.Statement;
  /** Whether this transaction left a clock row for a key (a savepoint may have undone it). */
  recorded: Database.Statement;
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
  /** The highest version given to a unit of the open transaction (a group commit has several). */
  #assigned: number;
  // State of the open unit.
  #txVersion = 0;
  #seq = 0;
  readonly #touched = new Map<string, Touch>();
  /** The unit rolled back to a savepoint of the client's: a touched row may have no clock of this version. */
  #partlyUndone = false;

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
    this.ids = new ClusterIds(this.siteId, ids === undefined || ids === null ? null : BigInt(ids as number | bigint), (hw) => engine.meta.set(ID_KEY, hw));
  }

  /** Installs capture on the engine's writer: functions, clock tables and triggers (now and on every reload), commit hooks. */
  static install(engine: Engine<Changeset>, feed: ChangeFeed): ChangeCapture {
    const c = new ChangeCapture(engine, feed);
    c.#registerFunctions();
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
    this.#capturing = false;
    try {
      return fn();
    } finally {
      this.#capturing = was;
    }
  }

  quietly<T>(fn: () => T): T {
    return this.withoutCapture(fn);
  }

  /** What POST /v1/transactions reports of a transaction's change. */
  describe(change: Changeset | null): { version: number | null; actor_id: string } {
    return { version: change ? change.version : null, actor_id: this.actor };
  }

  endUnit(): Changeset | null {
    if (this.#txVersion === 0 || this.#touched.size === 0) {
      this.#resetUnit();
      return null;
    }
    const version = BigInt(this.#txVersion);
    const changes: RowChange[] = [];
    for (const t of this.#touched.values()) {
      const ct = this.#tables.get(t.table);
      if (!ct || (this.#partlyUndone && ct.recorded.get(t.pk, version) === undefined)) continue;
      const pk = decodePk(t.pk);
      const row = ct.read.get(...pk) as Record<string, SqlValue> | undefined;
      const values = row ? narrowRow(row) : null;
      changes.push({
        table: t.table,
        pk: pk.map((v) => (typeof v === 'bigint' ? narrowInteger(v) : v)),
        kind: !row ? 'delete' : t.aliveBefore ? 'update' : 'insert',
        values,
      });
    }
    const v = this.#txVersion;
    this.#resetUnit();
    if (changes.length === 0) return null;
    this.#assigned = v;
    return { actor: this.actor, version: v, origin: 'local', changes, seq: 0 };
  }

  unitRolledBack(): void {
    this.#resetUnit();
  }

  rolledBackToSavepoint(): void {
    this.#partlyUndone = true;
  }

  beforeCommit(): void {
    this.ids.beforeCommit();
    if (this.#assigned > this.#lastVersion) this.#setVersion(BigInt(this.#assigned));
  }

  afterCommit(changes: Changeset[]): void {
    this.#lastVersion = this.#assigned;
    for (const cs of changes) this.#feed.publish(cs);
  }

  afterRollback(): void {
    this.#assigned = this.#lastVersion;
    this.#resetUnit();
  }

  #resetUnit() {
    this.#partlyUndone = false;
    this.#txVersion = 0;
    this.#seq = 0;
    this.#touched.clear();
  }

  #registerFunctions() {
    const db = this.#db;
    const site = this.siteId;
    db.function('patina_capturing', { deterministic: false }, () => (this.#capturing ? 1n : 0n));
    db.function('patina_pk', { deterministic: true, varargs: true, safeIntegers: true }, (...vals: unknown[]) => encodePk(vals));
    db.function('patina_site', { deterministic: true }, () => site);
    db.function('patina_version', { deterministic: false }, () => {
      if (this.#txVersion === 0) this.#txVersion = this.#assigned + 1;
      return BigInt(this.#txVersion);
    });
    db.function('patina_id', { deterministic: false }, () => this.ids.next());
    // The key rule's triggers (key-rule.ts): what the row being inserted read as, per table.
    const picked = new Map<string, boolean>();
    db.function('patina_key_mark', { deterministic: false }, (table: unknown, p: unknown) => {
      picked.set(table as string, p === 1 || p === 1n);
      return null;
    });
    db.function('patina_key_picked', { deterministic: false }, (table: unknown) => (picked.get(table as string) ? 1n : 0n));
    db.function('patina_seq', { deterministic: false }, () => BigInt(this.#seq++));
    db.function('patina_touch', { deterministic: false, safeIntegers: true }, (table: unknown, op: unknown, pk: unknown, clBefore: unknown) => {
      const buf = pk as Buffer;
      const key = (table as string) + '\u0000' + buf.toString('latin1');
      if (!this.#touched.has(key)) {
        const aliveBefore = op === 'insert' ? typeof clBefore === 'bigint' && clBefore % 2n === 1n : true;
        this.#touched.set(key, { table: table as string, pk: Buffer.from(buf), aliveBefore });
      }
      return null;
    });
  }

  /** Creates clock tables and (re)creates triggers for the tables of `schema`; inside a transaction. */
  #applySchema(schema: Schema, db: Database.Database) {
    const install = () => {
      const tables = new Map<string, CapturedTable>();
      for (const t of schema.tables.values()) {
        if (t.primaryKey.length === 0) continue; // not replicated: no identity to merge on
        if (t.columns.some((c) => c.name === SENTINEL)) {
          throw new PatinaError('user', `table "${t.name}": the column name "${SENTINEL}" is reserved by change capture`);
        }
        for (const sql of [...captureDdl(t), ...keyRuleDdl(t)]) db.exec(sql);
        const where = t.primaryKey.map((c) => `${q(c)} IS ?`).join(' AND ');
        tables.set(t.name, {
          def: t,
          read: db.prepare(`SELECT * FROM ${q(t.name)} WHERE ${where}`),
          recorded: db.prepare(`SELECT 1 FROM ${q(clockTableName(t.name))} WHERE pk = ? AND db_version = ? LIMIT 1`).pluck(),
        });
      }
      this.#tables = tables;
    };
    if (db.inTransaction) install();
    else db.transaction(install).immediate();
  }
}

function narrowRow(row: Record<string, SqlValue>): Record<string, SqlValue> {
  for (const k in row) {
    const v = row[k];
    if (typeof v === 'bigint') row[k] = narrowInteger(v);
  }
  return row;
}
