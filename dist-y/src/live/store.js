"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.StoreSnapshot = exports.SubscriptionStore = exports.MAX_PAIRS = void 0;
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const checkpointer_1 = require("../engine/checkpointer");
/** Pairs per lookup of rowsByKeys and refRowsByParts. */
exports.MAX_PAIRS = 256;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS subscriptions (
  id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, key TEXT NOT NULL UNIQUE, sql TEXT NOT NULL,
  params TEXT, columns TEXT NOT NULL, next_row_id INTEGER NOT NULL, last_change INTEGER NOT NULL,
  listened_at INTEGER NOT NULL, stale INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS rows (
  sub INTEGER NOT NULL, row_id INTEGER NOT NULL, key TEXT NOT NULL, cells TEXT NOT NULL,
  PRIMARY KEY (sub, row_id)) WITHOUT ROWID;
DROP INDEX IF EXISTS rows_by_key;
CREATE INDEX IF NOT EXISTS rows_by_source ON rows (key, sub);
CREATE TABLE IF NOT EXISTS refs (
  sub INTEGER NOT NULL, occ INTEGER NOT NULL, part TEXT NOT NULL, row_id INTEGER NOT NULL,
  PRIMARY KEY (sub, occ, part, row_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS changes (
  sub INTEGER NOT NULL, change_id INTEGER NOT NULL, kind TEXT NOT NULL, row_id INTEGER NOT NULL,
  cells TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (sub, change_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS state (key TEXT NOT NULL PRIMARY KEY, value) WITHOUT ROWID;
`;
/**
 * Every subscription's current result (rows by row id, with their identity key), the index from
 * source keys to rows of joins, and the change log, in one SQLite file beside the database (never in
 * the replicated data file). WAL with synchronous NORMAL: a commit survives a SIGKILL of the agent.
 */
class SubscriptionStore {
    db;
    file;
    #st;
    /**
     * Checkpoints on a thread of their own, as for the data file: SQLite's automatic checkpoint ran
     * inside every ~150th matcher commit, with its fsyncs, on the agent's thread.
     */
    #checkpointer;
    #listStmts = new Map();
    constructor(file) {
        this.file = file;
        if (file !== ':memory:')
            node_fs_1.default.mkdirSync(node_path_1.default.dirname(node_path_1.default.resolve(file)), { recursive: true });
        this.db = new better_sqlite3_1.default(file);
        this.db.pragma('journal_mode = WAL');
        this.db.pragma('synchronous = NORMAL');
        // The checkpoint thread holds the write lock for a moment when it makes the WAL start over.
        this.db.pragma('busy_timeout = 5000');
        // 64 MiB at most, taken as pages are used, as for the data file's writer: at SQLite's default
        // (2 MiB) the result rows and change log of 10,000 subscriptions, written at scattered places,
        // were read back from the OS on most inserts (measured alone: 8.4-8.6 -> 7.0-7.2 µs of CPU a
        // write's two inserts).
        this.db.pragma('cache_size = -65536');
        this.db.exec(SCHEMA);
        // stores made before the stale mark existed
        const cols = this.db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('subscriptions');
        if (!cols.includes('stale'))
            this.db.exec('ALTER TABLE subscriptions ADD COLUMN stale INTEGER NOT NULL DEFAULT 0');
        this.#checkpointer = file === ':memory:' ? null : new checkpointer_1.Checkpointer(file, this.db);
        const p = (sql) => this.db.prepare(sql);
        this.#st = {
            list: p('SELECT * FROM subscriptions ORDER BY id'),
            // Prepared once: the matcher begins and commits one transaction per batch.
            begin: p('BEGIN IMMEDIATE'),
            commit: p('COMMIT'),
            insertSub: p('INSERT INTO subscriptions (uuid, key, sql, params, columns, next_row_id, last_change, listened_at) VALUES (?, ?, ?, ?, ?, 1, 0, ?)'),
            deleteSub: p('DELETE FROM subscriptions WHERE id = ?'),
            deleteRows: p('DELETE FROM rows WHERE sub = ?'),
            deleteRefs: p('DELETE FROM refs WHERE sub = ?'),
            deleteChanges: p('DELETE FROM changes WHERE sub = ?'),
            setHead: p('UPDATE subscriptions SET next_row_id = ?, last_change = ? WHERE id = ?'),
            setListened: p('UPDATE subscriptions SET listened_at = ? WHERE id = ?'),
            setStale: p('UPDATE subscriptions SET stale = ? WHERE id = ?'),
            // INDEXED BY: without statistics SQLite prefers the primary key's (sub) prefix, a walk of the
            // whole result per changed row.
            rowsByKey: p('SELECT row_id AS rowId, key, cells FROM rows INDEXED BY rows_by_source WHERE key = ? AND sub = ?'),
            row: p('SELECT row_id AS rowId, key, cells FROM rows WHERE sub = ? AND row_id = ?'),
            allRows: p('SELECT row_id AS rowId, key, cells FROM rows WHERE sub = ?'),
            rowsPage: p('SELECT row_id AS rowId, key, cells FROM rows WHERE sub = ? AND row_id > ? ORDER BY row_id LIMIT ?'),
            insertRow: p('INSERT INTO rows (sub, row_id, key, cells) VALUES (?, ?, ?, ?)'),
            updateRow: p('UPDATE rows SET key = ?, cells = ? WHERE sub = ? AND row_id = ?'),
            deleteRow: p('DELETE FROM rows WHERE sub = ? AND row_id = ?'),
            refs: p('SELECT row_id FROM refs WHERE sub = ? AND occ = ? AND part = ?').pluck(),
            insertRef: p('INSERT OR IGNORE INTO refs (sub, occ, part, row_id) VALUES (?, ?, ?, ?)'),
            deleteRef: p('DELETE FROM refs WHERE sub = ? AND occ = ? AND part = ? AND row_id = ?'),
            appendChange: p('INSERT INTO changes (sub, change_id, kind, row_id, cells, at) VALUES (?, ?, ?, ?, ?, ?)'),
            changes: p('SELECT change_id AS changeId, kind, row_id AS rowId, cells FROM changes WHERE sub = ? AND change_id > ? AND change_id <= ? ORDER BY change_id LIMIT ?'),
            minChange: p('SELECT min(change_id) FROM changes WHERE sub = ?').pluck(),
            prune: p('DELETE FROM changes WHERE sub = ? AND change_id <= ? AND at < ?'),
            getState: p('SELECT value FROM state WHERE key = ?').pluck(),
            setState: p('INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
        };
    }
    list() {
        return this.#st.list.all().map((r) => ({
            id: r.id,
            uuid: r.uuid,
            key: r.key,
            sql: r.sql,
            params: r.params,
            columns: JSON.parse(r.columns),
            nextRowId: r.next_row_id,
            lastChange: r.last_change,
            listenedAt: r.listened_at,
            stale: r.stale === 1,
        }));
    }
    insertSubscription(uuid, key, sql, params, columns, now) {
        return Number(this.#st.insertSub.run(uuid, key, sql, params, JSON.stringify(columns), now).lastInsertRowid);
    }
    /** Removes a subscription with its rows and change log. */
    deleteSubscription(sub) {
        this.transaction(() => {
            this.#st.deleteRows.run(sub);
            this.#st.deleteRefs.run(sub);
            this.#st.deleteChanges.run(sub);
            this.#st.deleteSub.run(sub);
        });
    }
    setHead(sub, nextRowId, lastChange) {
        this.#st.setHead.run(nextRowId, lastChange, sub);
    }
    setListened(sub, at) {
        this.#st.setListened.run(at, sub);
    }
    setStale(sub, stale) {
        this.#st.setStale.run(stale ? 1 : 0, sub);
    }
    /** The query plan of a store statement, by its name (for the tests that check lookups stay keyed). */
    explain(name, ...args) {
        const sql = this.#st[name].source;
        return this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args).map((r) => r.detail);
    }
    rowsByKey(sub, key) {
        return this.#st.rowsByKey.all(key, sub);
    }
    row(sub, rowId) {
        return this.#st.row.get(sub, rowId);
    }
    allRows(sub) {
        return this.#st.allRows.all(sub);
    }
    /** Rows with row id above `after`, by row id, at most `limit`. */
    rowsPage(sub, after, limit) {
        return this.#st.rowsPage.all(sub, after, limit);
    }
    insertRow(sub, r) {
        this.#st.insertRow.run(sub, r.rowId, r.key, r.cells);
    }
    updateRow(sub, r) {
        this.#st.updateRow.run(r.key, r.cells, sub, r.rowId);
    }
    deleteRow(sub, rowId) {
        this.#st.deleteRow.run(sub, rowId);
    }
    /**
     * The stored rows of every subscription with one of these identity keys (single-table results,
     * whose identity is the source key): one probe per key, whichever subscriptions hold it (the
     * shared evaluation of same-SQL subscriptions). At most MAX_PAIRS keys.
     */
    rowsByKeys(keys) {
        return this.#listed('rows', keys.map((k) => [k]), [], (v) => `WITH v(key) AS (VALUES ${v}) SELECT r.sub AS sub, r.row_id AS rowId, r.key AS key, r.cells AS cells FROM v CROSS JOIN rows AS r INDEXED BY rows_by_source WHERE r.key = v.key`);
    }
    /** Stored rows built from the given source keys of occurrence `occ`, for many (subscription, key part) pairs (joins). */
    refRowsByParts(occ, pairs) {
        return this.#listed('refs', pairs, [occ], (v) => `WITH v(sub, part) AS (VALUES ${v}) SELECT v.sub AS sub, r.row_id AS rowId, r.key AS key, r.cells AS cells FROM v CROSS JOIN refs AS f CROSS JOIN rows AS r WHERE f.sub = v.sub AND f.occ = ? AND f.part = v.part AND r.sub = f.sub AND r.row_id = f.row_id`);
    }
    /** Runs a statement over a VALUES list, padded to a power of two with its last entry (cached statements). */
    #listed(kind, list, extra, sql) {
        if (list.length === 0)
            return [];
        if (list.length > exports.MAX_PAIRS)
            throw new Error(`at most ${exports.MAX_PAIRS} entries per lookup`);
        let n = 1;
        while (n < list.length)
            n *= 2;
        const key = `${kind}:${n}`;
        let st = this.#listStmts.get(key);
        if (!st) {
            const row = `(${list[0].map(() => '?').join(', ')})`;
            this.#listStmts.set(key, (st = this.db.prepare(sql(Array.from({ length: n }, () => row).join(', ')))));
        }
        const args = [];
        for (let k = 0; k < n; k++)
            args.push(...list[Math.min(k, list.length - 1)]);
        return st.all(...args, ...extra);
    }
    /** The query plan of a lookup of `n` keys or pairs (for the tests that check lookups stay keyed). */
    explainListed(kind, n) {
        const pairs = Array.from({ length: n }, (_, k) => [k + 1, `k${k}`]);
        if (kind === 'rows')
            this.rowsByKeys(pairs.map((p) => p[1]));
        else
            this.refRowsByParts(0, pairs);
        const st = this.#listStmts.get(`${kind}:${n}`);
        const args = kind === 'rows' ? pairs.map((p) => p[1]) : [...pairs.flat(), 0];
        return this.db.prepare(`EXPLAIN QUERY PLAN ${st.source}`).all(...args).map((r) => r.detail);
    }
    refs(sub, occ, part) {
        return this.#st.refs.all(sub, occ, part);
    }
    insertRef(sub, occ, part, rowId) {
        this.#st.insertRef.run(sub, occ, part, rowId);
    }
    deleteRef(sub, occ, part, rowId) {
        this.#st.deleteRef.run(sub, occ, part, rowId);
    }
    appendChange(sub, c, at) {
        this.#st.appendChange.run(sub, c.changeId, c.kind, c.rowId, c.cells, at);
    }
    /** Changes with after < change id <= upTo, oldest first, at most `limit`. */
    changes(sub, after, upTo, limit) {
        return this.#st.changes.all(sub, after, upTo, limit);
    }
    /** The oldest change id still kept, or null when none is. */
    minChange(sub) {
        return this.#st.minChange.get(sub);
    }
    /** Drops changes up to `upTo` that are older than `before` (ms). */
    prune(sub, upTo, before) {
        return this.#st.prune.run(sub, upTo, before).changes;
    }
    /**
     * The data's commit position (Writer.commits) at which every stored result was last known to equal
     * its query, or null. Start-up re-runs nothing when the data is still at that position.
     */
    matched() {
        const v = this.#st.getState.get('matched');
        return v === undefined || v === null ? null : Number(v);
    }
    setMatched(position) {
        this.#st.setState.run('matched', position);
    }
    transaction(fn) {
        const nested = this.db.inTransaction;
        const out = this.db.transaction(fn)();
        if (!nested)
            this.#checkpointer?.committed();
        return out;
    }
    /**
     * A store transaction that spans several turns of the event loop (the matcher's sliced work).
     * What others write meanwhile with transaction() nests in it as a savepoint and commits with it.
     */
    begin() {
        this.#st.begin.run();
    }
    commit() {
        if (!this.db.inTransaction)
            return;
        this.#st.commit.run();
        this.#checkpointer?.committed();
    }
    rollback() {
        if (this.db.inTransaction)
            this.db.exec('ROLLBACK');
    }
    /**
     * A consistent read of one subscription's rows on its own connection: the head as of now, then
     * the rows page by page while writes go on. Null for an in-memory store (the caller reads at once).
     */
    openSnapshot(sub) {
        if (this.file === ':memory:')
            return null;
        const db = new better_sqlite3_1.default(this.file, { readonly: true });
        try {
            db.exec('BEGIN');
            const head = db.prepare('SELECT last_change FROM subscriptions WHERE id = ?').pluck().get(sub);
            return new StoreSnapshot(db, sub, head ?? 0);
        }
        catch (err) {
            db.close();
            throw err;
        }
    }
    close() {
        void this.#checkpointer?.close();
        try {
            this.db.pragma('wal_checkpoint(TRUNCATE)');
        }
        catch {
            // a snapshot reader still holds the WAL
        }
        this.db.close();
    }
}
exports.SubscriptionStore = SubscriptionStore;
/** Rows of one subscription as of one moment, read in pages by row id. */
class StoreSnapshot {
    lastChange;
    #db;
    #page;
    #sub;
    #after = 0;
    constructor(db, sub, lastChange) {
        this.#db = db;
        this.#sub = sub;
        this.lastChange = lastChange;
        this.#page = db.prepare('SELECT row_id AS rowId, cells FROM rows WHERE sub = ? AND row_id > ? ORDER BY row_id LIMIT ?');
    }
    /** The next page of rows; empty at the end. */
    next(limit) {
        const rows = this.#page.all(this.#sub, this.#after, limit);
        if (rows.length > 0)
            this.#after = rows[rows.length - 1].rowId;
        return rows;
    }
    close() {
        if (!this.#db.open)
            return;
        try {
            this.#db.exec('COMMIT');
        }
        catch {
            // nothing to end
        }
        this.#db.close();
    }
}
exports.StoreSnapshot = StoreSnapshot;
//# sourceMappingURL=store.js.map