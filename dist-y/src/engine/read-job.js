"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ReadJob = void 0;
exports.prepareRead = prepareRead;
exports.readErrorKind = readErrorKind;
const node_perf_hooks_1 = require("node:perf_hooks");
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const sql_text_1 = require("./sql-text");
const values_1 = require("./values");
const elapsed_1 = require("./elapsed");
const errors_1 = require("../errors");
/** A batch is also cut once it has taken this long to fill, so slow rows go out as they come. */
const BATCH_MS = 50;
const WRITES = () => Object.assign(new Error('statement writes; a read may not change the database, and writes go to POST /v1/transactions'), { code: 'PATINA_WRITES' });
const WRITE_WORDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']);
/**
 * Prepares a read on a read-only connection. A write can fail to prepare there (the change-capture
 * triggers call functions only the writer defines); such a failure is reported as the write it is.
 */
function prepareRead(db, sql) {
    let stmt;
    try {
        stmt = db.prepare(sql);
    }
    catch (err) {
        if (err instanceof better_sqlite3_1.default.SqliteError &&
            (0, sql_text_1.significant)((0, sql_text_1.tokenize)(sql)).some((t) => t.type === 'word' && WRITE_WORDS.has(t.text.toUpperCase())))
            throw WRITES();
        throw err;
    }
    if (!stmt.reader)
        throw Object.assign(new Error('statement is not a query (it returns no rows); a read must be a SELECT, and writes go to POST /v1/transactions'), { code: 'PATINA_NOT_A_QUERY' });
    if (!stmt.readonly)
        throw WRITES();
    return stmt;
}
/** The error kind of a failure in a read. */
function readErrorKind(err) {
    if (err instanceof errors_1.PatinaError)
        return err.kind === 'timeout' || err.kind === 'internal' ? err.kind : 'user';
    const code = err.code;
    if (code === 'SQLITE_INTERRUPT')
        return 'timeout';
    if (typeof code === 'string')
        return code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CORRUPT' ? 'internal' : 'user';
    return err instanceof RangeError || err instanceof TypeError ? 'user' : 'internal';
}
function narrowRow(row) {
    for (let i = 0; i < row.length; i++)
        if (typeof row[i] === 'bigint')
            row[i] = (0, values_1.narrowInteger)(row[i]);
    return row;
}
/**
 * One read being stepped: runs the query to its first row on start, then hands out rows in
 * batches (NDJSON `row` lines with rowids 1..n, or cell arrays).
 */
class ReadJob {
    columns;
    /** Seconds the query took to its first row. */
    time;
    #iter;
    #format;
    #batchRows;
    #batchBytes;
    #rowid = 0;
    #pending;
    /** A step that failed after rows of the same batch were read: thrown after those rows went out. */
    #failure = undefined;
    constructor(stmt, params, format, batchRows, batchBytes) {
        const t0 = node_perf_hooks_1.performance.now();
        stmt.raw(true);
        const p = params;
        this.#iter = (p === undefined ? stmt.iterate() : Array.isArray(p) ? stmt.iterate(...p) : stmt.iterate(p));
        this.#format = format;
        this.#batchRows = batchRows;
        this.#batchBytes = batchBytes;
        // The first step runs the query; the time reported is that, not the iteration of the rest.
        this.#pending = this.#iter.next();
        this.time = (0, elapsed_1.secondsSince)(t0);
        // Columns after the first step: a connection whose schema was stale re-prepares the statement
        // there (a reload may have added columns that `SELECT *` now returns).
        this.columns = stmt.columns().map((c) => ({ name: c.name, declType: c.type }));
    }
    /** Steps for one batch; says whether the result is exhausted. */
    nextBatch() {
        let text = '';
        const rows = [];
        let count = 0;
        const started = node_perf_hooks_1.performance.now();
        if (this.#failure !== undefined)
            throw this.#failure;
        for (;;) {
            let r;
            try {
                r = this.#pending ?? this.#iter.next();
            }
            catch (err) {
                if (count === 0)
                    throw err;
                // The rows read before the failing one go out first; the error follows with the next batch.
                this.#failure = err;
                return { batch: { count, text, rows }, done: false };
            }
            this.#pending = null;
            if (r.done)
                return { batch: { count, text, rows }, done: true };
            count++;
            if (this.#format === 'ndjson')
                text += '{"row":[' + ++this.#rowid + ',' + (0, values_1.rowToJson)(r.value) + ']}\n';
            else
                rows.push(narrowRow(r.value));
            if (count >= this.#batchRows || text.length >= this.#batchBytes || node_perf_hooks_1.performance.now() - started >= BATCH_MS) {
                // Look one row ahead so the last batch carries `done` and a point read costs one message.
                try {
                    const ahead = this.#iter.next();
                    if (ahead.done)
                        return { batch: { count, text, rows }, done: true };
                    this.#pending = ahead;
                }
                catch (err) {
                    this.#failure = err;
                }
                return { batch: { count, text, rows }, done: false };
            }
        }
    }
    close() {
        try {
            this.#iter.return?.();
        }
        catch {
            // the cursor is being dropped anyway
        }
    }
}
exports.ReadJob = ReadJob;
//# sourceMappingURL=read-job.js.map