"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChangeMerger = void 0;
exports.compareValues = compareValues;
const sql_text_1 = require("../engine/sql-text");
const values_1 = require("../engine/values");
const clock_sql_1 = require("./clock-sql");
const pk_1 = require("./pk");
class Deferred extends Error {
}
/**
 * Merges remote changesets into the database, identically on every agent (DESIGN.md): higher causal
 * length wins and an even one deletes; at equal causal length the higher col_version wins, then the
 * greater value (INTEGER > REAL > TEXT > BLOB > NULL, then by value), then the greater site id. The
 * winner's clock keeps the origin's site id, db_version and seq. Each changeset is applied whole or
 * not at all (a savepoint each), a batch in one transaction through the writer lease, with capture's
 * triggers quiet; the rows that changed here are published on the feed as origin 'remote'.
 */
class ChangeMerger {
    #engine;
    #capture;
    #feed;
    #schema = null;
    #tables = new Map();
    /** Notes a merged row in the change log under its origin's version (clock-sql.ts). */
    #log = null;
    constructor(engine, capture, feed) {
        this.#engine = engine;
        this.#capture = capture;
        this.#feed = feed;
    }
    /**
     * Merges `batch` and marks `cleared` (versions with nothing left to send) seen, all in one
     * transaction; `begin` opens the version bookkeeping for it.
     */
    async merge(batch, cleared, begin) {
        const result = { applied: 0, duplicate: 0, deferred: [], failed: [] };
        if (batch.length === 0 && cleared.length === 0)
            return result;
        const lease = await this.#engine.lease();
        try {
            const db = lease.db;
            this.#refresh(db);
            const seen = begin();
            const published = [];
            lease.begin();
            try {
                this.#capture.withoutCapture(() => {
                    for (const cs of batch) {
                        if (cs.actor === this.#capture.actor || seen.has(cs.actor, cs.version)) {
                            result.duplicate++;
                            continue;
                        }
                        db.exec('SAVEPOINT patina_merge');
                        try {
                            const changes = this.#mergeOne(cs);
                            seen.mark(cs.actor, cs.version, cs.version);
                            db.exec('RELEASE patina_merge');
                            result.applied++;
                            if (changes.length > 0)
                                published.push({ actor: cs.actor, version: cs.version, origin: 'remote', changes, seq: 0 });
                        }
                        catch (err) {
                            db.exec('ROLLBACK TO patina_merge');
                            db.exec('RELEASE patina_merge');
                            const entry = { actor: cs.actor, version: cs.version, reason: err.message };
                            (err instanceof Deferred ? result.deferred : result.failed).push(entry);
                        }
                    }
                    for (const c of cleared)
                        if (c.actor !== this.#capture.actor)
                            seen.mark(c.actor, c.from, c.to);
                });
                lease.commit();
            }
            catch (err) {
                lease.rollback();
                throw err;
            }
            seen.commit();
            // Still holding the writer: remote changesets take their place in commit order.
            for (const cs of published)
                this.#feed.publish(cs);
            return result;
        }
        finally {
            lease.release();
        }
    }
    #mergeOne(cs) {
        // Check the whole changeset first: one unknown table or column defers all of it.
        for (const r of cs.rows) {
            const t = this.#tables.get(r.table);
            if (!t)
                throw new Deferred(`unknown table ${JSON.stringify(r.table)}`);
            for (const c of r.cols)
                if (!t.columns.has(c.cid))
                    throw new Deferred(`unknown column ${JSON.stringify(c.cid)} of table ${JSON.stringify(r.table)}`);
        }
        const site = Buffer.from(cs.actor, 'hex');
        const out = [];
        for (const r of cs.rows) {
            const change = this.#mergeRow(this.#tables.get(r.table), r, cs.version, site);
            if (change)
                out.push(change);
        }
        return out;
    }
    #mergeRow(t, r, version, site) {
        const localCl = Number(t.sentinel.get(r.pk) ?? 0n);
        if (r.cl < localCl)
            return null;
        const pkValues = (0, pk_1.decodePk)(r.pk);
        const before = t.row.get(...pkValues);
        let winners;
        if (r.cl > localCl) {
            // A newer life of the row (or its death): the old column clocks are void.
            const seq = r.sentinelSeq ?? r.cols[0]?.seq ?? 0;
            t.putClock.run(r.pk, clock_sql_1.SENTINEL, r.cl, version, site, seq);
            this.#logRow(t, r.pk, version, site);
            t.dropColumnClocks.run(r.pk);
            if (r.cl % 2 === 0) {
                if (!before)
                    return null;
                t.deleteRow.run(...pkValues);
                return { table: t.def.name, pk: pkValues.map(narrow), kind: 'delete', values: null };
            }
            winners = r.cols;
        }
        else {
            if (r.cl % 2 === 0)
                return null;
            winners = r.cols.filter((c) => this.#columnWins(t, r.pk, c, before, site));
            if (winners.length === 0 && before)
                return null;
        }
        for (const c of winners)
            t.putClock.run(r.pk, c.cid, c.colVersion, version, site, c.seq);
        if (winners.length > 0)
            this.#logRow(t, r.pk, version, site);
        this.#upsert(t, pkValues, winners);
        const after = t.row.get(...pkValues);
        for (const k in after)
            after[k] = narrow(after[k]);
        return { table: t.def.name, pk: pkValues.map(narrow), kind: before ? 'update' : 'insert', values: after };
    }
    #logRow(t, pk, version, site) {
        this.#capture.logged += this.#log.run(site, version, t.def.name, pk).changes;
    }
    #columnWins(t, pk, c, before, site) {
        const local = t.clock.get(pk, c.cid);
        if (!local)
            return true;
        const lv = Number(local.col_version);
        if (c.colVersion !== lv)
            return c.colVersion > lv;
        const byValue = compareValues(c.val, before ? before[c.cid] : null);
        if (byValue !== 0)
            return byValue > 0;
        return Buffer.compare(site, local.site_id) > 0;
    }
    #upsert(t, pkValues, cols) {
        const key = cols.map((c) => c.cid).join('\u0000');
        let st = t.upserts.get(key);
        if (!st) {
            const pk = t.def.primaryKey;
            const names = [...pk, ...cols.map((c) => c.cid)];
            const set = cols.map((c) => `${(0, sql_text_1.quoteIdentifier)(c.cid)} = excluded.${(0, sql_text_1.quoteIdentifier)(c.cid)}`).join(', ');
            st = this.#engine.writer.db.prepare(`INSERT INTO ${(0, sql_text_1.quoteIdentifier)(t.def.name)} (${names.map(sql_text_1.quoteIdentifier).join(', ')}) VALUES (${names.map(() => '?').join(', ')})` +
                ` ON CONFLICT (${pk.map(sql_text_1.quoteIdentifier).join(', ')}) DO ${cols.length ? `UPDATE SET ${set}` : 'NOTHING'}`);
            t.upserts.set(key, st);
        }
        st.run(...pkValues, ...cols.map((c) => c.val));
    }
    /** Prepares statements for the tables of the current schema (again after a reload). */
    #refresh(db) {
        const schema = this.#engine.schema;
        if (schema === this.#schema)
            return;
        this.#schema = schema;
        this.#tables = new Map();
        this.#log = db.prepare(`INSERT OR IGNORE INTO main.${clock_sql_1.CHANGE_LOG} (site_id, db_version, tbl, pk) VALUES (?, ?, ?, ?)`);
        for (const def of schema.tables.values()) {
            if (def.primaryKey.length === 0)
                continue;
            const clock = (0, sql_text_1.quoteIdentifier)((0, clock_sql_1.clockTableName)(def.name));
            const where = def.primaryKey.map((c) => `${(0, sql_text_1.quoteIdentifier)(c)} IS ?`).join(' AND ');
            this.#tables.set(def.name, {
                def,
                columns: new Set([clock_sql_1.SENTINEL, ...def.columns.map((c) => c.name).filter((c) => !def.primaryKey.includes(c))]),
                sentinel: db.prepare(`SELECT col_version FROM ${clock} WHERE pk = ? AND cid = '${clock_sql_1.SENTINEL}'`).pluck(),
                clock: db.prepare(`SELECT col_version, site_id FROM ${clock} WHERE pk = ? AND cid = ?`),
                putClock: db.prepare(`INSERT INTO ${clock} (pk, cid, col_version, db_version, site_id, seq) VALUES (?, ?, ?, ?, ?, ?)` +
                    ' ON CONFLICT (pk, cid) DO UPDATE SET col_version = excluded.col_version, db_version = excluded.db_version, site_id = excluded.site_id, seq = excluded.seq'),
                dropColumnClocks: db.prepare(`DELETE FROM ${clock} WHERE pk = ? AND cid <> '${clock_sql_1.SENTINEL}'`),
                row: db.prepare(`SELECT * FROM ${(0, sql_text_1.quoteIdentifier)(def.name)} WHERE ${where}`),
                deleteRow: db.prepare(`DELETE FROM ${(0, sql_text_1.quoteIdentifier)(def.name)} WHERE ${where}`),
                upserts: new Map(),
            });
        }
    }
}
exports.ChangeMerger = ChangeMerger;
const narrow = (v) => (typeof v === 'bigint' ? (0, values_1.narrowInteger)(v) : v);
function typeRank(v) {
    if (v === null || v === undefined)
        return 0;
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
function compareValues(a, b) {
    const ra = typeRank(a);
    const rb = typeRank(b);
    if (ra !== rb)
        return ra > rb ? 1 : -1;
    switch (ra) {
        case 4:
        case 3:
            return a > b ? 1 : a < b ? -1 : 0;
        case 2:
            return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
        case 1:
            return Buffer.compare(a, b);
    }
    return 0;
}
//# sourceMappingURL=merge.js.map