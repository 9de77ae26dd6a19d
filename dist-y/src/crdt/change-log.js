"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChangeLogCompactor = void 0;
const sql_text_1 = require("../engine/sql-text");
const clock_sql_1 = require("./clock-sql");
const log_1 = require("../observability/log");
/** Entries looked at per writer transaction: a few milliseconds of the writer at most. */
const SLICE = 1024;
/** Entries looked at per pass, at most. */
const MAX_PER_PASS = 65536;
/** Below every entry: site ids are 16 bytes, and an empty blob sorts before any other. */
const FIRST = [Buffer.alloc(0), -1n, '', Buffer.alloc(0)];
/**
 * Keeps the change log (clock-sql.ts) from growing with every write: an entry whose row's clocks all
 * moved on to later versions (the row was written again, or deleted and its column clocks dropped)
 * names nothing the sync reader would send, and is removed. Each pass walks the log from where the
 * last one stopped (wrapping around), looking at about twice as many entries as were written since,
 * so the walk keeps up with the writes and the log stays within about twice its live entries. It
 * holds the writer a slice at a time, yielding between slices; it changes no data, so it commits
 * outside the commit count and the feed. An entry of a table no longer in the schema stays (schema
 * changes only add).
 */
class ChangeLogCompactor {
    #engine;
    #capture;
    #timer;
    #cursor = null;
    #prepared = null;
    #passing = null;
    #closed = false;
    /** Entries removed since start. */
    removed = 0;
    constructor(engine, capture, intervalMs = 1000) {
        this.#engine = engine;
        this.#capture = capture;
        this.#timer = setInterval(() => {
            this.#passing ??= this.#pass().finally(() => (this.#passing = null));
        }, intervalMs);
        this.#timer.unref();
    }
    async #pass() {
        let budget = Math.min(MAX_PER_PASS, 2 * this.#capture.logged);
        this.#capture.logged = 0;
        while (budget > 0 && !this.#closed) {
            const lease = await this.#engine.lease();
            let seen;
            try {
                if (this.#closed)
                    return;
                seen = this.#slice(lease.db, Math.min(SLICE, budget));
            }
            catch (err) {
                log_1.log.warn((0, log_1.errorFields)(err), 'change log compaction failed (it will try again)');
                return;
            }
            finally {
                lease.release();
            }
            budget -= seen;
            await new Promise((r) => setImmediate(r));
        }
    }
    /**
     * Looks at up to `limit` entries after the cursor in one transaction, one DELETE over that range
     * (SQLite checks each entry against its table's clock table; no entry comes to JavaScript);
     * returns how many it looked at (`limit`).
     */
    #slice(db, limit) {
        const st = this.#statements(db);
        const from = this.#cursor ?? FIRST;
        const to = st.end.get(...from, limit - 1);
        this.#cursor = to ?? null;
        db.exec('BEGIN IMMEDIATE');
        try {
            if (to && st.bounded)
                this.removed += st.bounded.run(...from, ...to).changes;
            else if (!to && st.open)
                this.removed += st.open.run(...from).changes;
            db.exec('COMMIT');
        }
        catch (err) {
            if (db.inTransaction)
                db.exec('ROLLBACK');
            throw err;
        }
        // The end of the log counts as a whole slice: the budget shrinks even when the log is short.
        return limit;
    }
    /** The statements of the current schema (prepared again after a reload). */
    #statements(db) {
        const schema = this.#engine.schema;
        if (this.#prepared?.schema === schema)
            return this.#prepared;
        const key = '(site_id, db_version, tbl, pk)';
        const range = `${key} > (?, ?, ?, ?)`;
        // An entry is stale when its table's clock table has no row at its key, origin and version; an
        // entry of a table no longer in the schema is kept (ELSE 0).
        const stale = (table) => `WHEN ${(0, sql_text_1.quoteLiteral)(table)} THEN NOT EXISTS (SELECT 1 FROM main.${(0, sql_text_1.quoteIdentifier)((0, clock_sql_1.clockTableName)(table))} c` +
            ` WHERE c.pk = ${clock_sql_1.CHANGE_LOG}.pk AND c.site_id = ${clock_sql_1.CHANGE_LOG}.site_id AND c.db_version = ${clock_sql_1.CHANGE_LOG}.db_version)`;
        const cases = [...schema.tables.values()].filter((t) => t.primaryKey.length > 0).map((t) => stale(t.name));
        const isStale = `CASE tbl ${cases.join(' ')} ELSE 0 END`;
        const some = cases.length > 0;
        this.#prepared = {
            schema,
            end: db
                .prepare(`SELECT site_id, db_version, tbl, pk FROM main.${clock_sql_1.CHANGE_LOG} WHERE ${range} ORDER BY ${key.slice(1, -1)} LIMIT 1 OFFSET ?`)
                .raw(true)
                .safeIntegers(true),
            bounded: some
                ? db.prepare(`DELETE FROM main.${clock_sql_1.CHANGE_LOG} WHERE ${range} AND ${key} <= (?, ?, ?, ?) AND ${isStale}`)
                : null,
            open: some ? db.prepare(`DELETE FROM main.${clock_sql_1.CHANGE_LOG} WHERE ${range} AND ${isStale}`) : null,
        };
        return this.#prepared;
    }
    /** Stops; a pass under way ends after its slice. */
    async close() {
        this.#closed = true;
        clearInterval(this.#timer);
        await this.#passing;
    }
}
exports.ChangeLogCompactor = ChangeLogCompactor;
//# sourceMappingURL=change-log.js.map