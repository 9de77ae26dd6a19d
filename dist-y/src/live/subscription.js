"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Subscription = void 0;
const node_perf_hooks_1 = require("node:perf_hooks");
const values_1 = require("../engine/values");
const events_1 = require("./events");
const keys_1 = require("./keys");
const query_plan_1 = require("./query-plan");
const statement_cache_1 = require("./statement-cache");
const elapsed_1 = require("../engine/elapsed");
const MAX_KEYS = 256;
/** Rows handled between two looks at the slicer. */
const PAGE = 256;
/**
 * One live query: its plan, its head (next row id, last change id) and its listeners. The rows and
 * change log live in the SubscriptionStore; every method that changes them runs inside the caller's
 * store transaction, pausing between pages of work (see slicer.ts), and returns the new head, which
 * the caller adopts only once that transaction committed (a listener never sees a head ahead of the
 * committed log).
 */
class Subscription {
    id;
    uuid;
    key;
    plan;
    clients = new Set();
    /** Listeners about to attach, waiting for its stored result to catch up: it is matched as if listened. */
    awaited = 0;
    nextRowId;
    lastChange;
    listenedAt;
    /** Seconds the last full run of the query took (shown as eoq.time). */
    queryTime = 0;
    /** The commit position (Writer.commits) of the database state the stored result reflects. */
    position = 0;
    /** Told of every row entering (+1) or leaving (-1) the stored result, by identity key. */
    onRow = null;
    #store;
    #stmts = new WeakMap();
    constructor(stored, plan, store) {
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
    identityParts(key) {
        return (0, keys_1.identityParts)(key, this.plan.occurrences.length);
    }
    /** Stores the current result of a new subscription (no change is logged); the caller adopts the head after its commit. */
    async initialize(db, slicer) {
        const batch = new Batch(this, this.#store, false);
        const t0 = node_perf_hooks_1.performance.now();
        let n = 0;
        for (const row of this.#run(db, this.plan.fullSql, {}, true).iterate()) {
            if (this.plan.mode === 'multiset') {
                const cells = (0, values_1.rowToJson)(row);
                batch.insert(cells, cells);
            }
            else {
                batch.insert(this.identity(row), (0, values_1.rowToJson)(row.slice(0, this.plan.columns.length)));
            }
            if (++n % PAGE === 0)
                await slicer.pause();
        }
        this.queryTime = (0, elapsed_1.secondsSince)(t0);
        return batch.finish();
    }
    /**
     * Works out and stores what a changeset changed in the result, `MAX_KEYS` changed keys at a time
     * (so the work follows the changed rows and pauses between chunks); the caller adopts the head
     * after its commit and delivers the records.
     */
    async apply(db, changed, now, slicer) {
        if (this.plan.mode !== 'restricted')
            return this.reconcile(db, now, slicer);
        const affected = new Map();
        const entry = (k) => {
            let e = affected.get(k);
            if (!e)
                affected.set(k, (e = {}));
            return e;
        };
        const ncols = this.plan.columns.length;
        for (let i = 0; i < this.plan.occurrences.length; i++) {
            const o = this.plan.occurrences[i];
            const keys = changed.get(o.table.toLowerCase());
            if (!keys)
                continue;
            const pks = [...keys.values()].filter((pk) => pk.every((v) => v !== null));
            for (let at = 0; at < pks.length; at += MAX_KEYS) {
                for (const row of this.#restricted(db, i, pks.slice(at, at + MAX_KEYS)))
                    entry(this.identity(row)).now = (0, values_1.rowToJson)(row.slice(0, ncols));
                await slicer.pause();
            }
            let n = 0;
            for (const part of keys.keys()) {
                if (this.plan.occurrences.length === 1) {
                    for (const r of this.#store.rowsByKey(this.id, part))
                        entry(r.key).old = r;
                }
                else {
                    for (const rowId of this.#store.refs(this.id, i, part)) {
                        const r = this.#store.row(this.id, rowId);
                        if (r)
                            entry(r.key).old = r;
                    }
                }
                if (++n % PAGE === 0)
                    await slicer.pause();
            }
        }
        return this.resolveAll(affected, now, slicer);
    }
    /**
     * Stores and logs what changed for the rows a changeset affected: by identity key, the stored row
     * (if any) and the row's fresh cells (if it is in the result now). The caller adopts the head.
     */
    async resolveAll(affected, now, slicer) {
        const batch = new Batch(this, this.#store, true, now);
        let n = 0;
        for (const [key, e] of affected) {
            batch.resolve(key, e.old, e.now);
            if (++n % PAGE === 0)
                await slicer.pause();
        }
        return batch.finish();
    }
    /** Re-runs the whole query and diffs it against the stored result (start-up, and non-restricted plans without a runner). */
    async reconcile(db, now, slicer) {
        const t0 = node_perf_hooks_1.performance.now();
        const rows = [];
        for (const row of this.#run(db, this.plan.fullSql, {}, true).iterate()) {
            rows.push(row);
            if (rows.length % PAGE === 0)
                await slicer.pause();
        }
        this.queryTime = (0, elapsed_1.secondsSince)(t0);
        return this.diffAll(rows, now, slicer);
    }
    /** Diffs a full result of `fullSql` (run here or elsewhere) against the stored result, a page at a time. */
    async diffAll(rows, now, slicer) {
        const batch = new Batch(this, this.#store, true, now);
        const stored = [];
        for (let after = 0;;) {
            const page = this.#store.rowsPage(this.id, after, PAGE * 8);
            if (page.length === 0)
                break;
            for (const r of page)
                stored.push(r);
            after = page[page.length - 1].rowId;
            await slicer.pause();
        }
        if (this.plan.mode === 'multiset') {
            const old = new Map();
            for (const r of stored) {
                const ids = old.get(r.cells);
                if (ids)
                    ids.push(r.rowId);
                else
                    old.set(r.cells, [r.rowId]);
            }
            await slicer.pause();
            const added = [];
            for (let i = 0; i < rows.length; i++) {
                const cells = (0, values_1.rowToJson)(rows[i]);
                const ids = old.get(cells);
                if (ids && ids.length > 0)
                    ids.pop();
                else
                    added.push(cells);
                if (i % PAGE === 0)
                    await slicer.pause();
            }
            const removed = [];
            for (const [cells, ids] of old)
                for (const rowId of ids)
                    removed.push({ rowId, key: cells, cells });
            // A value that went and one that came are reported as one update of the same row id.
            const n = Math.min(added.length, removed.length);
            for (let i = 0; i < n; i++) {
                batch.resolve(added[i], removed[i], added[i], true);
                if (i % PAGE === 0)
                    await slicer.pause();
            }
            for (let i = n; i < removed.length; i++) {
                batch.resolve(removed[i].key, removed[i], undefined);
                if (i % PAGE === 0)
                    await slicer.pause();
            }
            for (let i = n; i < added.length; i++) {
                batch.resolve(added[i], undefined, added[i]);
                if (i % PAGE === 0)
                    await slicer.pause();
            }
            return batch.finish();
        }
        const ncols = this.plan.columns.length;
        const fresh = new Map();
        for (let i = 0; i < rows.length; i++) {
            fresh.set(this.identity(rows[i]), (0, values_1.rowToJson)(rows[i].slice(0, ncols)));
            if (i % PAGE === 0)
                await slicer.pause();
        }
        const old = new Map();
        for (const r of stored)
            old.set(r.key, r);
        let n = 0;
        for (const [key, r] of old) {
            batch.resolve(key, r, fresh.get(key));
            if (++n % PAGE === 0)
                await slicer.pause();
        }
        for (const [key, cells] of fresh) {
            if (!old.has(key))
                batch.resolve(key, undefined, cells);
            if (++n % PAGE === 0)
                await slicer.pause();
        }
        return batch.finish();
    }
    /** Takes the head of an outcome whose store transaction committed. */
    adopt(outcome) {
        this.nextRowId = outcome.nextRowId;
        this.lastChange = outcome.lastChange;
    }
    /** Lines of the given records, for the clients. */
    deliver(records) {
        if (records.length === 0 || this.clients.size === 0)
            return;
        const first = records[0].changeId;
        const last = records[records.length - 1].changeId;
        let lines = null;
        let sizes = [];
        let bytes = 0;
        for (const c of this.clients) {
            // A client that attached after these were logged has them already (snapshot or backfill).
            if (c.after >= last)
                continue;
            if (!lines) {
                lines = records.map((r) => (0, events_1.changeLine)(r.kind, r.rowId, r.cells, r.changeId));
                sizes = lines.map((l) => Buffer.byteLength(l));
                for (const n of sizes)
                    bytes += n;
            }
            if (c.after >= first) {
                const skip = c.after - first + 1;
                c.push(lines.slice(skip), sizes.slice(skip).reduce((a, b) => a + b, 0));
            }
            else {
                c.push(lines, bytes);
            }
            c.after = last;
        }
    }
    /** The identity key of a result row: key parts of each source occurrence, from the hidden key columns after the query's own. */
    identity(row) {
        let at = this.plan.columns.length;
        const occurrences = this.plan.occurrences;
        // one table with a one-column key (most queries): the key part alone, made without arrays
        if (occurrences.length === 1 && occurrences[0].pk.length === 1)
            return (0, keys_1.encodeValue)(row[at]);
        const parts = this.plan.occurrences.map((o) => {
            const part = (0, keys_1.encodeKey)(row.slice(at, at + o.pk.length));
            at += o.pk.length;
            return part;
        });
        return (0, keys_1.identityKey)(parts);
    }
    #restricted(db, occ, pks) {
        let n = 1;
        while (n < pks.length)
            n *= 2;
        const keys = {};
        for (let k = 0; k < n; k++) {
            const pk = pks[Math.min(k, pks.length - 1)];
            pk.forEach((v, j) => (keys[(0, query_plan_1.keyParam)(k, j)] = v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v));
        }
        return this.#run(db, this.plan.restrictedSql(occ, n), keys).all();
    }
    /**
     * A cached statement with the query's parameters and `extra` named ones bound. `once` (the full
     * query, run when the subscription is made and at start-up re-runs): from a cache shared by every
     * subscription, by SQL text, rather than kept by each; 10,000 subscriptions of one SQL otherwise
     * kept 10,000 prepared copies of it, about 40 MB.
     */
    #run(db, sql, extra, once = false) {
        let st;
        if (once) {
            st = fullStatements.get(db, sql);
        }
        else {
            let stmts = this.#stmts.get(db);
            if (!stmts)
                this.#stmts.set(db, (stmts = new Map()));
            st = stmts.get(sql);
            if (!st) {
                st = db.prepare(sql).raw(true);
                stmts.set(sql, st);
            }
        }
        const p = this.plan.params;
        const hasExtra = Object.keys(extra).length > 0;
        const args = p === undefined
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
    openSnapshot() {
        return this.#store.openSnapshot(this.id);
    }
}
exports.Subscription = Subscription;
/** Full-query statements kept per connection, by SQL text. */
const fullStatements = new statement_cache_1.StatementCache(256);
/** The changes of one evaluation, written to the store as they are found; the head moves on finish. */
class Batch {
    #sub;
    #store;
    #log;
    #records = [];
    #refs;
    #now;
    #nextRowId;
    #lastChange;
    constructor(sub, store, log, now = 0) {
        this.#now = now;
        this.#sub = sub;
        this.#store = store;
        this.#log = log;
        this.#refs = sub.plan.mode === 'restricted' && sub.plan.occurrences.length > 1;
        this.#nextRowId = sub.nextRowId;
        this.#lastChange = sub.lastChange;
    }
    /** Compares a stored row with its fresh cells under one identity key. */
    resolve(key, old, cells, rekey = false) {
        if (old && cells !== undefined) {
            if (old.cells === cells && !rekey)
                return;
            this.#store.updateRow(this.#sub.id, { rowId: old.rowId, key, cells });
            if (old.key !== key && this.#sub.onRow) {
                this.#sub.onRow(old.key, -1);
                this.#sub.onRow(key, 1);
            }
            this.#record('update', old.rowId, cells);
        }
        else if (old) {
            this.#store.deleteRow(this.#sub.id, old.rowId);
            this.#sub.onRow?.(old.key, -1);
            if (this.#refs)
                this.#sub.plan.occurrences.forEach((_o, i) => this.#store.deleteRef(this.#sub.id, i, (0, keys_1.identityParts)(old.key, this.#sub.plan.occurrences.length)[i], old.rowId));
            this.#record('delete', old.rowId, old.cells);
        }
        else if (cells !== undefined) {
            this.insert(key, cells);
        }
    }
    insert(key, cells) {
        const rowId = this.#nextRowId++;
        this.#store.insertRow(this.#sub.id, { rowId, key, cells });
        this.#sub.onRow?.(key, 1);
        if (this.#refs) {
            const parts = (0, keys_1.identityParts)(key, this.#sub.plan.occurrences.length);
            parts.forEach((part, i) => this.#store.insertRef(this.#sub.id, i, part, rowId));
        }
        this.#record('insert', rowId, cells);
    }
    #record(kind, rowId, cells) {
        if (!this.#log)
            return;
        const r = { kind, rowId, cells, changeId: ++this.#lastChange };
        this.#store.appendChange(this.#sub.id, r, this.#now);
        this.#records.push(r);
    }
    /** Stores the new head; returns what the caller adopts after its commit. */
    finish() {
        if (this.#nextRowId !== this.#sub.nextRowId || this.#lastChange !== this.#sub.lastChange) {
            this.#store.setHead(this.#sub.id, this.#nextRowId, this.#lastChange);
        }
        return { records: this.#records, nextRowId: this.#nextRowId, lastChange: this.#lastChange };
    }
}
//# sourceMappingURL=subscription.js.map