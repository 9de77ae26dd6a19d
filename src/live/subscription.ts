import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import type { ChangeKind } from '../bus/changeset';
import type { SqlValue } from '../engine/values';
import { rowToJson } from '../engine/values';
import type { ClientStream } from './client-stream';
import { changeLine } from './events';
import { encodeKey, encodeValue, identityKey, identityParts } from './keys';
import { type QueryPlan, keyParam } from './query-plan';
import { StatementCache } from './statement-cache';
import type { StoreSnapshot, StoredRow, StoredSubscription, SubscriptionStore } from './store';

import type { Slicer } from './slicer';
import type { ChangedKeys } from './wake-index';
import { secondsSince } from '../engine/elapsed';

/** One change of a subscription's result, with its change id. */
export interface ChangeRecord {
  kind: ChangeKind;
  rowId: number;
  cells: string;
  changeId: number;
}

const MAX_KEYS = 256;
/** Rows handled between two looks at the slicer. */
const PAGE = 256;

/** A row a changeset affected: as stored (if it was in the result) and its fresh cells (if it is now). */
export interface Affected {
  old?: StoredRow;
  now?: string;
}

/** What one evaluation changed: the records to deliver and the head to adopt once the store commits. */
export interface Outcome {
  records: ChangeRecord[];
  nextRowId: number;
  lastChange: number;
}

/**
 * One live query: its plan, its head (next row id, last change id) and its listeners. The rows and
 * change log live in the SubscriptionStore; every method that changes them runs inside the caller's
 * store transaction, pausing between pages of work (see slicer.ts), and returns the new head, which
 * the caller adopts only once that transaction committed (a listener never sees a head ahead of the
 * committed log).
 */
export class Subscription {
  readonly id: number;
  readonly uuid: string;
  readonly key: string;
  readonly plan: QueryPlan;
  readonly clients = new Set<ClientStream>();
  /** Listeners about to attach, waiting for its stored result to catch up: it is matched as if listened. */
  awaited = 0;
  nextRowId: number;
  lastChange: number;
  listenedAt: number;
  /** Seconds the last full run of the query took (shown as eoq.time). */
  queryTime = 0;
  /** The commit position (Writer.commits) of the database state the stored result reflects. */
  position = 0;
  /** Told of every row entering (+1) or leaving (-1) the stored result, by identity key. */
  onRow: ((key: string, delta: number) => void) | null = null;
  readonly #store: SubscriptionStore;
  readonly #stmts = new WeakMap<Database.Database, Map<string, Database.Statement>>();

  constructor(stored: StoredSubscription, plan: QueryPlan, store: SubscriptionStore) {
    this.id = stored.id;
    this.uuid = stored.uuid;
    this.key = stored.key;
    this.plan = plan;
    this.nextRowId = stored.nextRowId;
    this.lastChange = stored.lastChange;
    this.listenedAt = stored.listenedAt;
    this.#store = store;
  }

  /** The per-occurrence key parts of a row identity of this subscription. */
  identityParts(key: string): string[] {
    return identityParts(key, this.plan.occurrences.length);
  }

  /** Stores the current result of a new subscription (no change is logged); the caller adopts the head after its commit. */
  async initialize(db: Database.Database, slicer: Slicer): Promise<Outcome> {
    const batch = new Batch(this, this.#store, false);
    const t0 = performance.now();
    let n = 0;
    for (const row of this.#run(db, this.plan.fullSql, {}, true).iterate() as IterableIterator<unknown[]>) {
      if (this.plan.mode === 'multiset') {
        const cells = rowToJson(row);
        batch.insert(cells, cells);
      } else {
        batch.insert(this.identity(row), rowToJson(row.slice(0, this.plan.columns.length)));
      }
      if (++n % PAGE === 0) await slicer.pause();
    }
    this.queryTime = secondsSince(t0);
    return batch.finish();
  }

  /**
   * Works out and stores what a changeset changed in the result, `MAX_KEYS` changed keys at a time
   * (so the work follows the changed rows and pauses between chunks); the caller adopts the head
   * after its commit and delivers the records.
   */
  async apply(db: Database.Database, changed: ChangedKeys, now: number, slicer: Slicer): Promise<Outcome> {
    if (this.plan.mode !== 'restricted') return this.reconcile(db, now, slicer);
    const affected = new Map<string, Affected>();
    const entry = (k: string) => {
      let e = affected.get(k);
      if (!e) affected.set(k, (e = {}));
      return e;
    };
    const ncols = this.plan.columns.length;
    for (let i = 0; i < this.plan.occurrences.length; i++) {
      const o = this.plan.occurrences[i];
      const keys = changed.get(o.table.toLowerCase());
      if (!keys) continue;
      const pks = [...keys.values()].filter((pk) => pk.every((v) => v !== null));
      for (let at = 0; at < pks.length; at += MAX_KEYS) {
        for (const row of this.#restricted(db, i, pks.slice(at, at + MAX_KEYS)))
          entry(this.identity(row)).now = rowToJson(row.slice(0, ncols));
        await slicer.pause();
      }
      let n = 0;
      for (const part of keys.keys()) {
        if (this.plan.occurrences.length === 1) {
          for (const r of this.#store.rowsByKey(this.id, part)) entry(r.key).old = r;
        } else {
          for (const rowId of this.#store.refs(this.id, i, part)) {
            const r = this.#store.row(this.id, rowId);
            if (r) entry(r.key).old = r;
          }
        }
        if (++n % PAGE === 0) await slicer.pause();
      }
    }
    return this.resolveAll(affected, now, slicer);
  }

  /**
   * Stores and logs what changed for the rows a changeset affected: by identity key, the stored row
   * (if any) and the row's fresh cells (if it is in the result now). The caller adopts the head.
   */
  async resolveAll(affected: Map<string, Affected>, now: number, slicer: Slicer): Promise<Outcome> {
    const batch = new Batch(this, this.#store, true, now);
    let n = 0;
    for (const [key, e] of affected) {
      batch.resolve(key, e.old, e.now);
      if (++n % PAGE === 0) await slicer.pause();
    }
    return batch.finish();
  }

  /** Re-runs the whole query and diffs it against the stored result (start-up, and non-restricted plans without a runner). */
  async reconcile(db: Database.Database, now: number, slicer: Slicer): Promise<Outcome> {
    const t0 = performance.now();
    const rows: unknown[][] = [];
    for (const row of this.#run(db, this.plan.fullSql, {}, true).iterate() as IterableIterator<unknown[]>) {
      rows.push(row);
      if (rows.length % PAGE === 0) await slicer.pause();
    }
    this.queryTime = secondsSince(t0);
    return this.diffAll(rows, now, slicer);
  }

  /** Diffs a full result of `fullSql` (run here or elsewhere) against the stored result, a page at a time. */
  async diffAll(rows: unknown[][], now: number, slicer: Slicer): Promise<Outcome> {
    const batch = new Batch(this, this.#store, true, now);
    const stored: StoredRow[] = [];
    for (let after = 0; ; ) {
      const page = this.#store.rowsPage(this.id, after, PAGE * 8);
      if (page.length === 0) break;
      for (const r of page) stored.push(r);
      after = page[page.length - 1].rowId;
      await slicer.pause();
    }
    if (this.plan.mode === 'multiset') {
      const old = new Map<string, number[]>();
      for (const r of stored) {
        const ids = old.get(r.cells);
        if (ids) ids.push(r.rowId);
        else old.set(r.cells, [r.rowId]);
      }
      await slicer.pause();
      const added: string[] = [];
      for (let i = 0; i < rows.length; i++) {
        const cells = rowToJson(rows[i]);
        const ids = old.get(cells);
        if (ids && ids.length > 0) ids.pop();
        else added.push(cells);
        if (i % PAGE === 0) await slicer.pause();
      }
      const removed: StoredRow[] = [];
      for (const [cells, ids] of old) for (const rowId of ids) removed.push({ rowId, key: cells, cells });
      // A value that went and one that came are reported as one update of the same row id.
      const n = Math.min(added.length, removed.length);
      for (let i = 0; i < n; i++) {
        batch.resolve(added[i], removed[i], added[i], true);
        if (i % PAGE === 0) await slicer.pause();
      }
      for (let i = n; i < removed.length; i++) {
        batch.resolve(removed[i].key, removed[i], undefined);
        if (i % PAGE === 0) await slicer.pause();
      }
      for (let i = n; i < added.length; i++) {
        batch.resolve(added[i], undefined, added[i]);
        if (i % PAGE === 0) await slicer.pause();
      }
      return batch.finish();
    }
    const ncols = this.plan.columns.length;
    const fresh = new Map<string, string>();
    for (let i = 0; i < rows.length; i++) {
      fresh.set(this.identity(rows[i]), rowToJson(rows[i].slice(0, ncols)));
      if (i % PAGE === 0) await slicer.pause();
    }
    const old = new Map<string, StoredRow>();
    for (const r of stored) old.set(r.key, r);
    let n = 0;
    for (const [key, r] of old) {
      batch.resolve(key, r, fresh.get(key));
      if (++n % PAGE === 0) await slicer.pause();
    }
    for (const [key, cells] of fresh) {
      if (!old.has(key)) batch.resolve(key, undefined, cells);
      if (++n % PAGE === 0) await slicer.pause();
    }
    return batch.finish();
  }

  /** Takes the head of an outcome whose store transaction committed. */
  adopt(outcome: Outcome): void {
    this.nextRowId = outcome.nextRowId;
    this.lastChange = outcome.lastChange;
  }

  /** Lines of the given records, for the clients. */
  deliver(records: readonly ChangeRecord[]): void {
    if (records.length === 0 || this.clients.size === 0) return;
    const first = records[0].changeId;
    const last = records[records.length - 1].changeId;
    let lines: string[] | null = null;
    let sizes: number[] = [];
    let bytes = 0;
    for (const c of this.clients) {
      // A client that attached after these were logged has them already (snapshot or backfill).
      if (c.after >= last) continue;
      if (!lines) {
        lines = records.map((r) => changeLine(r.kind, r.rowId, r.cells, r.changeId));
        sizes = lines.map((l) => Buffer.byteLength(l));
        for (const n of sizes) bytes += n;
      }
      if (c.after >= first) {
        const skip = c.after - first + 1;
        c.push(
          lines.slice(skip),
          sizes.slice(skip).reduce((a, b) => a + b, 0),
        );
      } else {
        c.push(lines, bytes);
      }
      c.after = last;
    }
  }

  /** The identity key of a result row: key parts of each source occurrence, from the hidden key columns after the query's own. */
  identity(row: unknown[]): string {
    let at = this.plan.columns.length;
    const occurrences = this.plan.occurrences;
    // one table with a one-column key (most queries): the key part alone, made without arrays
    if (occurrences.length === 1 && occurrences[0].pk.length === 1) return encodeValue(row[at]);
    const parts = this.plan.occurrences.map((o) => {
      const part = encodeKey(row.slice(at, at + o.pk.length));
      at += o.pk.length;
      return part;
    });
    return identityKey(parts);
  }

  #restricted(db: Database.Database, occ: number, pks: SqlValue[][]): unknown[][] {
    let n = 1;
    while (n < pks.length) n *= 2;
    const keys: Record<string, SqlValue> = {};
    for (let k = 0; k < n; k++) {
      const pk = pks[Math.min(k, pks.length - 1)];
      pk.forEach(
        (v, j) => (keys[keyParam(k, j)] = v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v),
      );
    }
    return this.#run(db, this.plan.restrictedSql(occ, n), keys).all() as unknown[][];
  }

  /**
   * A cached statement with the query's parameters and `extra` named ones bound. `once` (the full
   * query, run when the subscription is made and at start-up re-runs): from a cache shared by every
   * subscription, by SQL text, rather than kept by each; 10,000 subscriptions of one SQL otherwise
   * kept 10,000 prepared copies of it, about 40 MB.
   */
  #run(
    db: Database.Database,
    sql: string,
    extra: Record<string, SqlValue>,
    once = false,
  ): { all(): unknown[]; iterate(): IterableIterator<unknown> } {
    let st: Database.Statement | undefined;
    if (once) {
      st = fullStatements.get(db, sql);
    } else {
      let stmts = this.#stmts.get(db);
      if (!stmts) this.#stmts.set(db, (stmts = new Map()));
      st = stmts.get(sql);
      if (!st) {
        st = db.prepare(sql).raw(true);
        stmts.set(sql, st);
      }
    }
    const p = this.plan.params;
    const hasExtra = Object.keys(extra).length > 0;
    const args: unknown[] =
      p === undefined
        ? hasExtra
          ? [extra]
          : []
        : Array.isArray(p)
          ? hasExtra
            ? [...p, extra]
            : p
          : [{ ...p, ...extra }];
    const s = st;
    return { all: () => s.all(...args), iterate: () => s.iterate(...args) };
  }

  /** A consistent view of the stored rows for a new listener, or null for an in-memory store. */
  openSnapshot(): StoreSnapshot | null {
    return this.#store.openSnapshot(this.id);
  }
}

/** Full-query statements kept per connection, by SQL text. */
const fullStatements = new StatementCache(256);

/** The changes of one evaluation, written to the store as they are found; the head moves on finish. */
class Batch {
  readonly #sub: Subscription;
  readonly #store: SubscriptionStore;
  readonly #log: boolean;
  readonly #records: ChangeRecord[] = [];
  readonly #refs: boolean;
  readonly #now: number;
  #nextRowId: number;
  #lastChange: number;

  constructor(sub: Subscription, store: SubscriptionStore, log: boolean, now = 0) {
    this.#now = now;
    this.#sub = sub;
    this.#store = store;
    this.#log = log;
    this.#refs = sub.plan.mode === 'restricted' && sub.plan.occurrences.length > 1;
    this.#nextRowId = sub.nextRowId;
    this.#lastChange = sub.lastChange;
  }

  /** Compares a stored row with its fresh cells under one identity key. */
  resolve(key: string, old: StoredRow | undefined, cells: string | undefined, rekey = false): void {
    if (old && cells !== undefined) {
      if (old.cells === cells && !rekey) return;
      this.#store.updateRow(this.#sub.id, { rowId: old.rowId, key, cells });
      if (old.key !== key && this.#sub.onRow) {
        this.#sub.onRow(old.key, -1);
        this.#sub.onRow(key, 1);
      }
      this.#record('update', old.rowId, cells);
    } else if (old) {
      this.#store.deleteRow(this.#sub.id, old.rowId);
      this.#sub.onRow?.(old.key, -1);
      if (this.#refs)
        this.#sub.plan.occurrences.forEach((_o, i) =>
          this.#store.deleteRef(
            this.#sub.id,
            i,
            identityParts(old.key, this.#sub.plan.occurrences.length)[i],
            old.rowId,
          ),
        );
      this.#record('delete', old.rowId, old.cells);
    } else if (cells !== undefined) {
      this.insert(key, cells);
    }
  }

  insert(key: string, cells: string): void {
    const rowId = this.#nextRowId++;
    this.#store.insertRow(this.#sub.id, { rowId, key, cells });
    this.#sub.onRow?.(key, 1);
    if (this.#refs) {
      const parts = identityParts(key, this.#sub.plan.occurrences.length);
      parts.forEach((part, i) => this.#store.insertRef(this.#sub.id, i, part, rowId));
    }
    this.#record('insert', rowId, cells);
  }

  #record(kind: ChangeKind, rowId: number, cells: string) {
    if (!this.#log) return;
    const r = { kind, rowId, cells, changeId: ++this.#lastChange };
    this.#store.appendChange(this.#sub.id, r, this.#now);
    this.#records.push(r);
  }

  /** Stores the new head; returns what the caller adopts after its commit. */
  finish(): Outcome {
    if (this.#nextRowId !== this.#sub.nextRowId || this.#lastChange !== this.#sub.lastChange) {
      this.#store.setHead(this.#sub.id, this.#nextRowId, this.#lastChange);
    }
    return { records: this.#records, nextRowId: this.#nextRowId, lastChange: this.#lastChange };
  }
}
