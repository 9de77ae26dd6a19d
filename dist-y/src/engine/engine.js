"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Engine = void 0;
const node_perf_hooks_1 = require("node:perf_hooks");
const errors_1 = require("../errors");
const checkpointer_1 = require("./checkpointer");
const classify_1 = require("./classify");
const database_1 = require("./database");
const meta_1 = require("./meta");
const read_pool_1 = require("./read-pool");
const introspect_1 = require("./schema/introspect");
const load_1 = require("./schema/load");
const diff_1 = require("./schema/diff");
const writer_1 = require("./writer");
/**
 * The shared query engine behind every front end: reads in worker processes (point reads
 * in-process), writes through the one writer, and the schema from the schema files. It knows
 * nothing of HTTP or PG.
 */
class Engine {
    knex;
    writer;
    meta;
    path;
    #opts;
    #reads;
    #checkpointer;
    #schema;
    #schemaListeners = [];
    /** What opening applied of the schema files (new tables, columns, indexes), for the start-up log. */
    appliedAtOpen = null;
    /** Told of every write transaction run through `transaction`: seconds from call to commit (or failure), and the first statement. */
    onWrite = null;
    constructor(opts, knex, db, schema) {
        this.#opts = opts;
        this.path = opts.path;
        this.knex = knex;
        this.writer = new writer_1.Writer(db);
        this.meta = meta_1.MetaStore.open(knex, db);
        this.writer.countCommits(Number(this.meta.get(meta_1.COMMITS_KEY) ?? 0), (n) => this.meta.set(meta_1.COMMITS_KEY, n));
        this.#schema = schema;
        this.#reads = new read_pool_1.ReadPool(opts.path, { minWorkers: opts.readWorkers.min, maxWorkers: opts.readWorkers.max });
        this.writer.onCommit(() => this.#reads.committed());
        const hold = async () => {
            const lease = await this.writer.lease();
            return () => lease.release();
        };
        this.#checkpointer = opts.path === ':memory:' ? null : new checkpointer_1.Checkpointer(opts.path, db, hold);
        const checkpointer = this.#checkpointer;
        if (checkpointer)
            this.writer.onCommit(() => checkpointer.committed());
    }
    /** Opens the database, applies the schema files (refusing destructive changes) and starts the readers. */
    static async open(opts) {
        const desired = (0, load_1.loadSchema)(opts.schemaPaths);
        const { knex, db } = await (0, database_1.openDatabase)(opts.path);
        try {
            const plan = (0, diff_1.planSchema)((0, introspect_1.introspect)(db), desired);
            applyPlan(db, plan);
            const engine = new Engine(opts, knex, db, mergeWhere((0, introspect_1.introspect)(db), desired));
            engine.appliedAtOpen = plan;
            return engine;
        }
        catch (err) {
            await knex.client.releaseConnection(db);
            await knex.destroy();
            throw err;
        }
    }
    /** The cluster's tables as they are now. */
    get schema() {
        return this.#schema;
    }
    /** Calls `fn` with the schema now and after every reload. */
    onSchema(fn) {
        this.#schemaListeners.push(fn);
        fn(this.#schema, this.writer.db, {
            statements: [],
            createdTables: [...this.#schema.tables.keys()],
            addedColumns: [],
            createdIndexes: [],
            droppedIndexes: [],
        });
    }
    /** Re-reads the schema files and applies what is new, in one transaction, between writes. */
    async reloadSchema() {
        const desired = (0, load_1.loadSchema)(this.#opts.schemaPaths);
        const lease = await this.writer.lease();
        try {
            const plan = (0, diff_1.planSchema)((0, introspect_1.introspect)(lease.db), desired);
            lease.db.exec('BEGIN IMMEDIATE');
            try {
                for (const sql of plan.statements)
                    lease.db.exec(sql);
                const schema = mergeWhere((0, introspect_1.introspect)(lease.db), desired);
                for (const fn of this.#schemaListeners)
                    fn(schema, lease.db, plan);
                lease.db.exec('COMMIT');
                this.#schema = schema;
            }
            catch (err) {
                if (lease.db.inTransaction)
                    lease.db.exec('ROLLBACK');
                throw err;
            }
            this.writer.clearCache();
            this.#reads.schemaChanged();
            return plan;
        }
        finally {
            lease.release();
        }
    }
    /** Starts a read: in-process when provably bounded (point reads), else on a worker process. */
    read(req) {
        (0, classify_1.checkReadReach)(req.sql, 'query');
        return this.#reads.query(req);
    }
    /** A point read's rows at once, in-process; null when the read is not provably bounded (use read). */
    pointRead(sql, params) {
        (0, classify_1.checkReadReach)(sql, 'query');
        return this.#reads.pointRead(sql, params);
    }
    /** Checks and runs write statements in one transaction, all or nothing. */
    async transaction(statements) {
        if (statements.length === 0)
            throw new errors_1.PatinaError('user', 'a transaction needs at least one statement');
        statements.forEach((s, i) => (0, classify_1.checkWriteStatement)(s.sql, `statement ${i + 1}`));
        const t0 = node_perf_hooks_1.performance.now();
        let ok = false;
        try {
            const r = await this.writer.transaction(statements);
            ok = true;
            return r;
        }
        finally {
            this.onWrite?.((node_perf_hooks_1.performance.now() - t0) / 1000, ok, statements[0].sql);
        }
    }
    /** Runs `run` on the writer as one unit of the next group commit (a PG block's COMMIT). */
    group(run) {
        return this.writer.group(run);
    }
    /** Runs `run` on the writer in a transaction that is always rolled back (a PG block's statement, tried out). */
    tryOut(run, inHold) {
        return this.writer.tryOut(run, inHold);
    }
    /** A transaction a PG block holds between its statements while nothing else writes (Writer.hold). */
    hold(preempted, join = false) {
        return this.writer.hold(preempted, join);
    }
    /** Holds the writer for an interactive transaction (the PG front end). */
    lease() {
        return this.writer.lease();
    }
    /** What the statement caches hold, and how many writes ran as the shared statement of their shape. */
    statementStats() {
        return {
            writer: this.writer.cachedStatements,
            bounded_reads: this.#reads.cachedStatements,
            shared_writes_total: this.writer.sharedRuns,
        };
    }
    readStats() {
        return this.#reads.stats();
    }
    /** Told of every read a worker finished (SQL and seconds), for the slow-query log. */
    set onWorkerRead(fn) {
        this.#reads.onWorkerRead = fn;
    }
    async close() {
        await this.#reads.close();
        await this.#checkpointer?.close();
        const lease = await this.writer.lease();
        try {
            this.writer.db.pragma('wal_checkpoint(TRUNCATE)');
        }
        catch {
            // a reader still holds the WAL; it is checkpointed on next open
        }
        lease.release();
        await this.knex.client.releaseConnection(this.writer.db);
        await this.knex.destroy();
    }
}
exports.Engine = Engine;
function applyPlan(db, plan) {
    if (plan.statements.length === 0)
        return;
    db.transaction(() => {
        for (const sql of plan.statements)
            db.exec(sql);
    }).immediate();
}
/** The database's schema with the file and line each table came from. */
function mergeWhere(actual, desired) {
    for (const t of actual.tables.values()) {
        const d = desired.tables.get(t.name);
        if (d) {
            t.file = d.file;
            t.line = d.line;
        }
    }
    return actual;
}
//# sourceMappingURL=engine.js.map