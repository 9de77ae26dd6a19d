"use strict";
var _a;
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChangeCapture = exports.VERSION_KEY = void 0;
const errors_1 = require("../errors");
const sql_text_1 = require("../engine/sql-text");
const values_1 = require("../engine/values");
const clock_sql_1 = require("./clock-sql");
const cluster_ids_1 = require("./cluster-ids");
const key_rule_1 = require("./key-rule");
const pk_1 = require("./pk");
/** The meta key of this agent's highest db_version. */
exports.VERSION_KEY = 'db_version';
const ID_KEY = 'id_high_water';
/** Stands for a row that exists but was not read (its values are not wanted). */
const NOT_READ = [];
/** The columns of a Touch. */
const TOUCH = 'rowid, tbl, pk, alive_before, alive_after, tbl || char(0) || hex(pk)';
/**
 * Change capture: clock tables and triggers on every schema table with a primary key, the
 * transaction's db_version, and the changeset built at commit and published on the feed.
 */
class ChangeCapture {
    siteId;
    /** The site id as hex: the actor id of this agent's changesets. */
    actor;
    /** patina_id(): keys no other agent makes. */
    ids;
    #db;
    #feed;
    #setVersion;
    #tables = new Map();
    #capturing = true;
    /** The highest version committed. */
    #lastVersion;
    /**
     * The highest version given to a unit of the open transaction (a group commit has several). The
     * triggers stamp the open unit's clocks with the version kept in __patina_capture, always this + 1.
     */
    #assigned;
    /** The row changes the triggers noted (clock-sql.ts) after a rowid, and the last rowid a unit took. */
    #touchedAfter;
    #clearTouched;
    /** Appends the change log entries of the unit's touched rows (clock-sql.ts). */
    #logTouched;
    #lastTouch = 0n;
    /**
     * Whether a changed row of the table is read back for the changeset's values. The agent answers from
     * its live queries (only their wake index reads values); a change nobody wants the values of says
     * its kind and key, with values null. Asked at commit, in the turn the changeset is published.
     */
    rowsWanted = () => true;
    /** Change log entries written since the compactor last asked (see change-log.ts). */
    logged = 0;
    /** The next unit's version and seqs: after a unit that changed rows. */
    #nextUnit;
    /** The open unit's version and next seq (after a commit, and at a switch between units sharing a transaction, enterUnit: that one gives the left unit's seq back). */
    #setUnit;
    #switchUnit;
    /** The version of the last touched row (afterUnitStatement). */
    #lastTouchVersion;
    #touchedAll;
    #logTouchedAll;
    /** The version the next unit sharing the open transaction to change rows gets (beginShared). */
    #sharedNext = 0;
    #setCapturing;
    constructor(engine, feed) {
        this.#db = engine.writer.db;
        this.#feed = feed;
        this.siteId = engine.meta.siteId();
        this.actor = this.siteId.toString('hex');
        const v = engine.meta.get(exports.VERSION_KEY);
        this.#lastVersion = v === undefined || v === null ? 0 : Number(v);
        this.#assigned = this.#lastVersion;
        this.#setVersion = (ver) => engine.meta.set(exports.VERSION_KEY, ver);
        const ids = engine.meta.get(ID_KEY);
        this.ids = new cluster_ids_1.ClusterIds(this.siteId, ids === undefined || ids === null ? null : BigInt(ids), (hw) => engine.meta.set(ID_KEY, hw));
    }
    /** Installs capture on the engine's writer: functions, clock tables and triggers (now and on every reload), commit hooks. */
    static install(engine, feed) {
        const c = new _a(engine, feed);
        c.#registerFunctions();
        c.#createState();
        engine.onSchema((schema, db) => c.#applySchema(schema, db));
        engine.writer.setHooks(c);
        return c;
    }
    /** The highest db_version this agent has given a transaction (0 before any). */
    get version() {
        return this.#lastVersion;
    }
    /** Runs `fn` with the triggers quiet: for merges of remote changes, which write clocks themselves. */
    withoutCapture(fn) {
        const was = this.#capturing;
        if (was)
            this.#quiet(true);
        try {
            return fn();
        }
        finally {
            if (was)
                this.#quiet(false);
        }
    }
    #quiet(quiet) {
        this.#capturing = !quiet;
        this.#setCapturing.run(quiet ? 0 : 1);
    }
    quietly(fn) {
        return this.withoutCapture(fn);
    }
    quietUntilRollback() {
        if (this.#capturing)
            this.#setCapturing.run(0);
    }
    /** What POST /v1/transactions reports of a transaction's change. */
    describe(change) {
        return { version: change ? change.version : null, actor_id: this.actor };
    }
    endUnit() {
        const touched = this.#touchedAfter.all(this.#lastTouch);
        if (touched.length === 0)
            return null;
        const v = this.#assigned + 1;
        this.logged += this.#logTouched.run(this.siteId, v, this.#lastTouch).changes;
        this.#lastTouch = touched[touched.length - 1][0];
        const change = this.#changeOf(touched, v);
        this.#nextUnit.run();
        this.#assigned = v;
        return change;
    }
    beginShared() {
        this.#sharedNext = this.#assigned + 1;
    }
    enterUnit(from, to) {
        const left = to.version === null
            ? this.#switchUnit.get(BigInt(this.#sharedNext), 0n)
            : this.#switchUnit.get(BigInt(to.version), BigInt(to.seq));
        if (from?.version != null)
            from.seq = Number(left);
    }
    afterUnitStatement(unit) {
        if (unit.version !== null)
            return;
        // a unit with no version yet stamps the next one: it is the unit's once a statement touched a row
        const last = this.#lastTouchVersion.get();
        if (last !== undefined && Number(last) === this.#sharedNext)
            unit.version = this.#sharedNext++;
    }
    endSharedUnits(units) {
        // every row the transaction touched is a unit's (a statement that touched rows gave its unit
        // a version at once): one read of them and one append to the change log for all units
        const byVersion = new Map();
        const alive = new Map(); // whether each row is alive at the end: its last touch says
        for (const t of this.#touchedAll.all()) {
            const v = Number(t[6]);
            let rows = byVersion.get(v);
            if (!rows)
                byVersion.set(v, (rows = []));
            rows.push(t); // the version after the Touch's columns is not read
            alive.set(t[5], t[4]);
            this.#lastTouch = t[0];
        }
        if (byVersion.size > 0)
            this.logged += this.#logTouchedAll.run(this.siteId).changes;
        const changes = [];
        const rows = new Map(); // rows several units touched are read once
        for (const u of [...units].filter((x) => x.version !== null).sort((a, b) => a.version - b.version)) {
            const v = u.version;
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
    #changeOf(touched, v, rows, alive) {
        // a row's first touch, its alive-after then set from its last touch (nothing else reads it)
        const first = new Map();
        for (const t of touched) {
            const f = first.get(t[5]);
            if (f === undefined)
                first.set(t[5], t);
            else
                f[4] = t[4];
        }
        const changes = [];
        let wanted = null; // the last table found wanted, and one found not
        let unwanted = null;
        for (const [key, [, table, pkBytes, aliveBefore, aliveAfter]] of first) {
            const ct = this.#tables.get(table);
            if (!ct)
                continue;
            const pk = (0, pk_1.decodePk)(pkBytes);
            let raw;
            if (rows?.has(key))
                raw = rows.get(key);
            else {
                const want = table === wanted || (table !== unwanted && this.rowsWanted(table));
                if (want)
                    wanted = table;
                else
                    unwanted = table;
                if (want)
                    raw = ct.read.get(...pk);
                else
                    raw = (alive ? alive.get(key) : aliveAfter) === 1n ? NOT_READ : undefined;
                rows?.set(key, raw);
            }
            changes.push({
                table,
                pk: pk.map((v) => (typeof v === 'bigint' ? (0, values_1.narrowInteger)(v) : v)),
                kind: !raw ? 'delete' : aliveBefore === 1n ? 'update' : 'insert',
                values: raw && raw !== NOT_READ ? rowOf(ct.names, raw) : null,
            });
        }
        return { actor: this.actor, version: v, origin: 'local', changes, seq: 0 };
    }
    /** Nothing to forget: the savepoint's rollback undid what the unit's triggers gathered (temp tables). */
    unitRolledBack() { }
    /** Nothing to do, for the same reason: the touched rows left are those still changed. */
    rolledBackToSavepoint() { }
    beforeCommit() {
        if (this.#lastTouch > 0n) {
            this.#clearTouched.run();
            this.#lastTouch = 0n;
        }
        this.ids.beforeCommit();
        if (this.#assigned > this.#lastVersion)
            this.#setVersion(BigInt(this.#assigned));
    }
    afterCommit(changes) {
        this.#lastVersion = this.#assigned;
        for (const cs of changes)
            this.#feed.publish(cs);
    }
    afterRollback() {
        // The rollback took __patina_capture back to the last commit's next version, and emptied
        // __patina_touched as it was then.
        this.#assigned = this.#lastVersion;
        this.#lastTouch = 0n;
    }
    /** The writer's temp tables the triggers keep the open unit's state in (clock-sql.ts). */
    #createState() {
        const db = this.#db;
        for (const sql of [...clock_sql_1.CAPTURE_STATE_DDL, key_rule_1.KEY_MARK_DDL, clock_sql_1.CHANGE_LOG_DDL])
            db.exec(sql);
        db.prepare('INSERT OR REPLACE INTO temp.__patina_capture (id, capturing, version, seq) VALUES (1, 1, ?, 0)').run(BigInt(this.#assigned + 1));
        this.#setCapturing = db.prepare('UPDATE temp.__patina_capture SET capturing = ?');
        this.#nextUnit = db.prepare('UPDATE temp.__patina_capture SET version = version + 1, seq = 0');
        this.#touchedAfter = db
            .prepare(`SELECT ${TOUCH} FROM temp.__patina_touched WHERE rowid > ? ORDER BY rowid`)
            .raw(true)
            .safeIntegers(true);
        this.#clearTouched = db.prepare('DELETE FROM temp.__patina_touched');
        this.#setUnit = db.prepare('UPDATE temp.__patina_capture SET version = ?, seq = ?');
        // SET's right-hand sides read the row as it was: left_seq takes the seq of the unit being left
        this.#switchUnit = db
            .prepare('UPDATE temp.__patina_capture SET left_seq = seq, version = ?, seq = ? RETURNING left_seq')
            .pluck()
            .safeIntegers(true);
        this.#lastTouchVersion = db
            .prepare('SELECT version FROM temp.__patina_touched ORDER BY rowid DESC LIMIT 1')
            .pluck()
            .safeIntegers(true);
        this.#touchedAll = db
            .prepare(`SELECT ${TOUCH}, version FROM temp.__patina_touched ORDER BY rowid`)
            .raw(true)
            .safeIntegers(true);
        this.#logTouchedAll = db.prepare(`INSERT OR IGNORE INTO main.${clock_sql_1.CHANGE_LOG} (site_id, db_version, tbl, pk) SELECT ?, version, tbl, pk FROM temp.__patina_touched`);
        this.#logTouched = db.prepare(`INSERT OR IGNORE INTO main.${clock_sql_1.CHANGE_LOG} (site_id, db_version, tbl, pk) SELECT ?, ?, tbl, pk FROM temp.__patina_touched WHERE rowid > ?`);
    }
    #registerFunctions() {
        const db = this.#db;
        // A REAL key value's bytes (pk.ts); the triggers encode every other type in SQL.
        db.function('patina_pk_real', { deterministic: true }, (v) => (0, pk_1.encodePk)([v]).toString('hex', 1));
        db.function('patina_id', { deterministic: false }, () => this.ids.next());
    }
    /**
     * A file of an older agent: its clock table has the (site_id, db_version) index instead of entries
     * in the change log. Makes the entries from the clock rows, then drops the index (once; a table
     * of n clock rows takes a read of them at that start).
     */
    static #migrateClockIndex(db, table) {
        const index = (0, clock_sql_1.legacyClockIndex)(table);
        if (!db.prepare("SELECT 1 FROM main.sqlite_master WHERE type = 'index' AND name = ?").get(index))
            return;
        db.prepare(`INSERT OR IGNORE INTO main.${clock_sql_1.CHANGE_LOG} (site_id, db_version, tbl, pk) SELECT site_id, db_version, ?, pk FROM main.${(0, sql_text_1.quoteIdentifier)((0, clock_sql_1.clockTableName)(table))}`).run(table);
        db.exec(`DROP INDEX main.${(0, sql_text_1.quoteIdentifier)(index)}`);
    }
    /** Creates clock tables and (re)creates triggers for the tables of `schema`; inside a transaction. */
    #applySchema(schema, db) {
        const install = () => {
            const tables = new Map();
            for (const t of schema.tables.values()) {
                if (t.primaryKey.length === 0)
                    continue; // not replicated: no identity to merge on
                if (t.columns.some((c) => c.name === clock_sql_1.SENTINEL)) {
                    throw new errors_1.PatinaError('user', `table "${t.name}": the column name "${clock_sql_1.SENTINEL}" is reserved by change capture`);
                }
                for (const sql of [...(0, clock_sql_1.legacyTriggerDrops)(t), ...(0, clock_sql_1.captureDdl)(t, this.siteId), ...(0, key_rule_1.keyRuleDdl)(t)])
                    db.exec(sql);
                _a.#migrateClockIndex(db, t.name);
                const where = t.primaryKey.map((c) => `${(0, sql_text_1.quoteIdentifier)(c)} IS ?`).join(' AND ');
                const read = db.prepare(`SELECT * FROM main.${(0, sql_text_1.quoteIdentifier)(t.name)} WHERE ${where}`).raw(true);
                tables.set(t.name, { def: t, read, names: read.columns().map((c) => c.name) });
            }
            this.#tables = tables;
        };
        if (db.inTransaction)
            install();
        else
            db.transaction(install).immediate();
    }
}
exports.ChangeCapture = ChangeCapture;
_a = ChangeCapture;
/** The row as an object by column name, integers narrowed where exact. */
function rowOf(names, raw) {
    const row = {};
    for (let i = 0; i < names.length; i++) {
        const v = raw[i];
        row[names[i]] = typeof v === 'bigint' ? (0, values_1.narrowInteger)(v) : v;
    }
    return row;
}
//# sourceMappingURL=capture.js.map