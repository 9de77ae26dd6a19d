"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.BoundedReads = void 0;
const node_perf_hooks_1 = require("node:perf_hooks");
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const functions_1 = require("./functions");
const errors_1 = require("../errors");
const read_job_1 = require("./read-job");
const values_1 = require("./values");
const elapsed_1 = require("./elapsed");
const lru_1 = require("../lru");
/**
 * Opcodes of statements that run in bounded time: straight-line programs that seek at most one row
 * per cursor (point lookups by key), with no loop, sort, aggregate, subroutine or function call.
 */
const STRAIGHT_LINE = new Set([
    'Init',
    'Transaction',
    'TableLock',
    'OpenRead',
    'Close',
    'Halt',
    'Noop',
    'Explain',
    'ColumnsUsed',
    'ReleaseReg',
    'SeekRowid',
    'NotExists',
    'SeekGE',
    'SeekGT',
    'SeekLE',
    'SeekLT',
    'IdxGT',
    'IdxGE',
    'IdxLT',
    'IdxLE',
    'DeferredSeek',
    'IdxRowid',
    'Rowid',
    'Column',
    'ResultRow',
    'Variable',
    'Integer',
    'Int64',
    'Real',
    'String8',
    'String',
    'Null',
    'Blob',
    'Copy',
    'SCopy',
    'IntCopy',
    'IsNull',
    'NotNull',
    'Affinity',
    'RealAffinity',
    'Cast',
    'TypeCheck',
    'MustBeInt',
    'CollSeq',
    'Eq',
    'Ne',
    'Lt',
    'Le',
    'Gt',
    'Ge',
    'If',
    'IfNot',
    'And',
    'Or',
    'Not',
    'BitAnd',
    'BitOr',
    'BitNot',
    'ShiftLeft',
    'ShiftRight',
    'Add',
    'Subtract',
    'Multiply',
    'Divide',
    'Remainder',
    'Concat',
]);
const CACHE = 512;
/**
 * Point reads run here, on a read-only connection of the agent's own thread: a round trip to a read
 * worker costs far more than the lookup. Only statements whose program provably runs in bounded
 * time (no loop: at most one row per cursor) are taken; everything else goes to the workers, which
 * can be interrupted. The verdict is kept per SQL text.
 */
class BoundedReads {
    #db;
    #verdicts = new lru_1.Lru(CACHE);
    constructor(dbPath) {
        this.#db = new better_sqlite3_1.default(dbPath, { readonly: true, fileMustExist: true });
        this.#db.defaultSafeIntegers(true);
        (0, functions_1.installReadFunctions)(this.#db);
    }
    /**
     * Runs the read here when it is bounded, answering as a worker would (one 'head' message with all
     * rows, or an 'error'); null when it must go to a worker.
     */
    tryRun(id, sql, params, format) {
        const b = this.#statement(sql, params);
        if (!b)
            return null;
        try {
            const t0 = node_perf_hooks_1.performance.now();
            const rows = this.#run(b, params);
            const time = (0, elapsed_1.secondsSince)(t0);
            let text = '';
            for (let r = 0; r < rows.length; r++) {
                const row = rows[r];
                if (format === 'ndjson')
                    text += '{"row":[' + (r + 1) + ',' + (0, values_1.rowToJson)(row) + ']}\n';
                else
                    for (let i = 0; i < row.length; i++)
                        if (typeof row[i] === 'bigint')
                            row[i] = (0, values_1.narrowInteger)(row[i]);
            }
            return {
                type: 'head',
                id,
                columns: b.columns,
                time,
                batch: { count: rows.length, text, rows: format === 'values' ? rows : [] },
                done: true,
            };
        }
        catch (err) {
            const e = err;
            return {
                type: 'error',
                id,
                kind: (0, read_job_1.readErrorKind)(err),
                message: e.message ?? String(err),
                code: typeof e.code === 'string' ? e.code : undefined,
                sqlstate: e.sqlstate,
            };
        }
    }
    /**
     * The rows of a bounded read, run here (integers narrowed to numbers where exact); null when it must
     * go to a worker. A failing statement throws the error a worker would report. For callers that want
     * the rows and nothing else (the PG front end): no message object, no cursor, no clock.
     */
    runValues(sql, params) {
        const b = this.#statement(sql, params);
        if (!b)
            return null;
        let rows;
        try {
            rows = this.#run(b, params);
        }
        catch (err) {
            const e = err;
            throw new errors_1.PatinaError((0, read_job_1.readErrorKind)(err), e.message ?? String(err), typeof e.code === 'string' ? e.code : undefined, e.sqlstate);
        }
        for (let r = 0; r < rows.length; r++) {
            const row = rows[r];
            for (let i = 0; i < row.length; i++)
                if (typeof row[i] === 'bigint')
                    row[i] = (0, values_1.narrowInteger)(row[i]);
        }
        return rows;
    }
    /** Runs a bounded statement inside the shared read transaction. */
    #run(b, params) {
        // One read transaction serves every point read until the writer's next commit ends it: all
        // writes go through this process's writer, so its snapshot is the latest committed state, and
        // taking the WAL read lock once instead of per statement is most of a point read's cost.
        if (!this.#db.inTransaction)
            this.#db.exec('BEGIN');
        let rows;
        if (b.single) {
            const row = (params === undefined ? b.stmt.get() : Array.isArray(params) ? b.stmt.get(...params) : b.stmt.get(params));
            rows = row === undefined ? [] : [row];
        }
        else
            rows = (params === undefined ? b.stmt.all() : Array.isArray(params) ? b.stmt.all(...params) : b.stmt.all(params));
        // A statement prepared before a reload is re-prepared by SQLite on its step; its columns follow.
        if (rows.length > 0 && rows[0].length !== b.columns.length)
            b.columns = columnsOf(b.stmt);
        return rows;
    }
    /** Ends the shared read transaction: the writer committed (called synchronously after COMMIT). */
    endSnapshot() {
        if (this.#db.inTransaction)
            this.#db.exec('COMMIT');
    }
    /** How many verdicts (with their statements) are kept. */
    get cachedStatements() {
        return this.#verdicts.size;
    }
    /** Forgets verdicts and statements: the schema changed (a `SELECT *` may have new columns). */
    clear() {
        this.endSnapshot();
        this.#verdicts.clear();
        this.#db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get(); // a read brings this connection's schema up to date
    }
    close() {
        this.endSnapshot();
        this.#db.close();
    }
    /** The prepared statement when `sql` is a bounded read, else null (also for SQL that fails to prepare). */
    #statement(sql, params) {
        const known = this.#verdicts.get(sql);
        if (known !== undefined)
            return known;
        let verdict = null;
        try {
            const stmt = (0, read_job_1.prepareRead)(this.#db, sql);
            const args = params === undefined ? [] : Array.isArray(params) ? params : [params];
            const program = this.#db
                .prepare('EXPLAIN ' + sql)
                .safeIntegers(false)
                .all(...args);
            const bounded = program.every((op) => STRAIGHT_LINE.has(op.opcode) || (op.opcode === 'Goto' && (op.p2 > op.addr || op.p2 === 1)));
            const single = program.filter((op) => op.opcode === 'ResultRow').length === 1;
            verdict = bounded ? { stmt: stmt.raw(true), columns: columnsOf(stmt), single } : null;
        }
        catch {
            verdict = null; // a worker reports the error
        }
        this.#verdicts.set(sql, verdict);
        return verdict;
    }
}
exports.BoundedReads = BoundedReads;
function columnsOf(stmt) {
    return stmt.columns().map((c) => ({ name: c.name, declType: c.type }));
}
//# sourceMappingURL=bounded-reads.js.map