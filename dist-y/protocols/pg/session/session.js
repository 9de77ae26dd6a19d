"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Session = void 0;
// One PostgreSQL session: where each statement runs, and its transaction.
//
// Where a statement runs: catalog queries on the front end's local connection; other reads through
// engine.read (point reads in-process, the rest on a cancellable read worker); reads after a write inside a transaction on the
// writer (to see their own writes); writes through the writer, one engine transaction per
// autocommit statement; a BEGIN block's statements on the transaction it holds while nothing else
// writes (Writer.hold), else tried out and replayed at COMMIT (deferred-block.ts), or on a lease
// from its first write to its COMMIT (SAVEPOINT, RETURNING, COPY, long blocks).
// What a statement is comes from the session's Analyzer (sql/analyze.ts); the transaction, and
// where an open block's writes go, is transaction.ts's.
const classify_1 = require("../../../src/engine/classify");
const errors_1 = require("../../../src/errors");
const format_1 = require("../copy/format");
const oids_1 = require("../types/oids");
const copy_in_1 = require("../copy/copy-in");
const analyze_1 = require("../sql/analyze");
const sqlstate_1 = require("../sqlstate");
const constraint_errors_1 = require("./constraint-errors");
const cursors_1 = require("./cursors");
const engine_1 = require("./engine");
const explain_1 = require("./explain");
const notifications_1 = require("./notifications");
const params_1 = require("./params");
const upsert_rows_1 = require("../sql/upsert-rows");
const settings_1 = require("./settings");
const transaction_1 = require("./transaction");
const complete = (columns, all) => ({ columns, all, rows: null });
const NONE = engine_1.NO_OUTCOME;
class Session {
    #engine;
    #local;
    #readonlyListener;
    #timeoutMs;
    facts;
    /** What each statement is, cached by its text. */
    analyzer;
    #t;
    #cursor = null;
    #closed = false;
    /** LISTEN/NOTIFY; null until the connection wires them. */
    channels = null;
    /** NOTIFYs of the open transaction, delivered at its commit. */
    #notifies = [];
    #cursors = new cursors_1.SqlCursors();
    /** Notices (WARNING) for the connection to send. */
    onNotice = () => undefined;
    constructor(engine, local, opts) {
        this.#engine = engine;
        this.#local = local;
        this.#readonlyListener = opts.readonly;
        this.#timeoutMs = opts.timeoutMs;
        this.facts = {
            user: opts.user,
            database: opts.database,
            version: settings_1.VERSION_TEXT,
            pid: opts.pid,
            settings: new Map(Object.entries(settings_1.GUC_DEFAULTS)),
        };
        this.facts.settings.set('application_name', opts.applicationName);
        this.analyzer = new analyze_1.Analyzer(engine, local, { user: opts.user, database: opts.database, version: settings_1.VERSION_TEXT });
        this.#t = new transaction_1.Transaction(engine, opts.timeoutMs, (committed) => this.#transactionEnded(committed), () => this.#closed);
    }
    /** The transaction's state, as ReadyForQuery tells it. */
    get tx() {
        return this.#t.state;
    }
    /** A statement's error fails the open block (the connection marks it so). */
    set tx(state) {
        this.#t.state = state;
    }
    /** The open transaction is the implicit one of a multi-statement simple query. */
    get implicit() {
        return this.#t.implicit;
    }
    /** Starts the implicit transaction of a simple query of several statements (as PostgreSQL does). */
    beginImplicit() {
        this.#t.state = 'open';
        this.#t.implicit = true;
    }
    /** Ends the implicit transaction: commits when every statement succeeded, else rolls back. */
    endImplicit(ok) {
        this.#t.endImplicit(ok);
    }
    /**
     * Runs an analyzed statement with bound parameters. The outcome comes synchronously when nothing
     * has to wait (point reads, catalog queries, transaction control), so that a connection can answer
     * a pipelined batch without a promise per message; writes and streamed reads return a promise.
     */
    execute(an, params) {
        try {
            const r = this.#execute(an, params);
            if (r instanceof Promise) {
                return r.catch((err) => {
                    if (this.#t.state === 'open')
                        this.#t.state = 'failed';
                    throw err;
                });
            }
            return r;
        }
        catch (err) {
            if (this.#t.state === 'open')
                this.#t.state = 'failed';
            throw err;
        }
    }
    #execute(an, params) {
        const t = this.#t;
        if (an.kind === 'sql' && t.state !== 'failed')
            return this.#runSql(an, params); // the common case, first
        const none = NONE;
        if (t.state === 'failed' &&
            an.kind !== 'rollback' &&
            an.kind !== 'commit' &&
            !(an.kind === 'savepoint' && an.command === 'ROLLBACK')) {
            throw (0, sqlstate_1.pgError)('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
        }
        switch (an.kind) {
            case 'empty':
                return none;
            case 'begin':
                if (t.implicit)
                    t.implicit = false;
                else if (t.state !== 'idle') {
                    this.onNotice('25001', 'there is already a transaction in progress');
                    return none;
                }
                else
                    t.state = 'open';
                // READ ONLY / READ WRITE, else the session's default_transaction_read_only
                this.facts.settings.set('transaction_read_only', an.setting?.value ?? ((0, settings_1.settingOn)(this.facts.settings.get('default_transaction_read_only')) ? 'on' : 'off'));
                return none;
            case 'commit':
                t.implicit = false;
                if (t.state === 'idle')
                    this.onNotice('25P01', 'there is no transaction in progress');
                this.facts.settings.set('transaction_read_only', 'off');
                return t.commit();
            case 'rollback':
                t.implicit = false;
                if (t.state === 'idle')
                    this.onNotice('25P01', 'there is no transaction in progress');
                this.facts.settings.set('transaction_read_only', 'off');
                t.rollback();
                return none;
            case 'savepoint':
                if (t.state === 'idle')
                    throw (0, sqlstate_1.pgError)('25P01', `${an.command === 'ROLLBACK' ? 'ROLLBACK TO SAVEPOINT' : an.command} can only be used in transaction blocks`);
                return t.savepoint(an, this.#readonlyListener);
            case 'set':
                if (an.setting?.name === 'transaction_read_only' && (t.state === 'idle' || t.implicit)) {
                    this.onNotice('25P01', 'SET TRANSACTION can only be used in transaction blocks');
                    return none;
                }
                (0, settings_1.applySetting)(this.facts.settings, an.setting);
                return none;
            case 'show':
                return complete(an.columns, (0, settings_1.showRows)(this.facts.settings, an.setting.name));
            case 'noop':
                return none;
            case 'sql':
                return this.#runSql(an, params);
            case 'explain':
                return this.#runExplain(an, params);
            case 'listen':
                if (!this.channels)
                    throw (0, sqlstate_1.pgError)('0A000', 'LISTEN is not available on this connection');
                this.channels.listen(an.channel.name);
                return none;
            case 'unlisten':
                this.channels?.unlisten(an.channel.name);
                return none;
            case 'notify': {
                // NOTIFY ch, 'x' or SELECT pg_notify(ch, x), whose arguments may be parameters
                const [name, payload] = (0, notifications_1.notifyArguments)(an.channel, params);
                if (t.state === 'open')
                    this.#notifies.push([name, payload]); // delivered at commit, as in PostgreSQL
                else
                    this.channels?.notify(name, payload);
                return an.columns ? complete(an.columns, [['']]) : none;
            }
            case 'copy':
                throw (0, sqlstate_1.pgError)('0A000', 'COPY through the extended query protocol is not supported by Patina: send it as a simple query (psql, pg-copy-streams and psycopg2 do)');
            case 'declare':
                return this.#declareCursor(an, params);
            case 'fetch':
                return this.#fetchCursor(an);
            case 'close-cursor': {
                const name = an.cursor.name;
                if (!this.#cursors.close(name))
                    throw (0, sqlstate_1.pgError)('34000', `cursor "${name}" does not exist`);
                return none;
            }
        }
    }
    async #declareCursor(an, params) {
        const { name, hold, inner } = an.cursor;
        if (this.#t.state === 'idle' && !hold)
            throw (0, sqlstate_1.pgError)('25P01', 'DECLARE CURSOR can only be used in transaction blocks');
        if (this.#cursors.has(name))
            throw (0, sqlstate_1.pgError)('42P03', `cursor "${name}" already exists`);
        const out = await this.#runSql(inner, params);
        this.#cursor = null; // a later CancelRequest is for a later statement, not this cursor's read
        this.#cursors.open(name, hold, out.columns, out.all, out.rows);
        return NONE;
    }
    async #fetchCursor(an) {
        const { name, count, move } = an.cursor;
        const { columns, rows, moved } = await this.#cursors.fetch(name, count, move);
        if (move)
            return { columns: null, all: [], rows: null, affected: moved, tag: `MOVE ${moved}` };
        return { columns, all: rows, rows: null, tag: `FETCH ${rows.length}` };
    }
    /** The columns a statement answers with: its own, or for FETCH those of its cursor (34000 if none). */
    resultColumns(an) {
        if (an.kind !== 'fetch' || an.cursor.move)
            return an.columns;
        const columns = this.#cursors.columnsOf(an.cursor.name);
        if (columns === undefined)
            throw (0, sqlstate_1.pgError)('34000', `cursor "${an.cursor.name}" does not exist`);
        return columns;
    }
    /** The end of a transaction: NOTIFYs of a committed one go out, cursors without HOLD close. */
    #transactionEnded(committed) {
        const notifies = this.#notifies.splice(0);
        if (committed)
            for (const [ch, payload] of notifies)
                this.channels?.notify(ch, payload);
        this.#cursors.transactionEnded();
    }
    /** COPY TO STDOUT: the rows of its read, streamed. */
    copyOut(an) {
        if (this.#t.state === 'failed')
            throw (0, sqlstate_1.pgError)('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
        return this.#runSql(an.copy.read, []);
    }
    /** COPY FROM STDIN: takes the writer (or the open block's lease) and returns where the rows go. */
    async copyIn(an) {
        if (this.#t.state === 'failed')
            throw (0, sqlstate_1.pgError)('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
        if (this.#readOnly())
            throw (0, sqlstate_1.pgError)('25006', 'cannot execute COPY FROM in a read-only transaction');
        const { stmt, columns } = an.copy;
        const table = stmt.table;
        const def = this.#engine.schema.tables.get(table);
        const convert = (0, format_1.columnConverters)(def, columns);
        const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
        (0, classify_1.checkWriteStatement)(sql, 'statement');
        const inBlock = this.#t.state === 'open';
        let lease;
        if (inBlock) {
            await this.#t.ensureLease();
            lease = this.#t.lease;
        }
        else {
            lease = await this.#engine.lease();
            if (this.#closed) {
                lease.release();
                throw new errors_1.PatinaError('unavailable', 'the connection was closed');
            }
            lease.begin();
        }
        return (0, copy_in_1.copyIntoTable)({
            lease,
            inBlock,
            schema: this.#engine.schema,
            table,
            columns,
            oids: columns.map((c) => (0, oids_1.oidOfDeclType)(def.columns.find((d) => d.name === c)?.type)),
            sql,
            convert,
            failBlock: () => {
                this.#t.state = 'failed';
            },
        });
    }
    async #runExplain(an, list) {
        const { inner } = an.explain;
        const params = (0, params_1.paramRecord)(list);
        const eqp = `EXPLAIN QUERY PLAN ${inner.sql}`;
        let plan;
        try {
            plan = this.#local.run(this.#local.prepare(eqp), params, this.facts);
        }
        catch {
            // a write to a captured table prepares only on the writer (its triggers call the agent's functions)
            const lease = this.#t.lease ?? (await this.#engine.lease());
            try {
                plan = lease.run({ sql: eqp, params }, 'statement').rows ?? [];
            }
            finally {
                if (lease !== this.#t.lease)
                    lease.release();
            }
        }
        const lines = await (0, explain_1.explainText)(plan, an.explain, () => this.#runSql(inner, list));
        return complete(an.columns, lines.map((l) => [l]));
    }
    #runSql(an, list) {
        if (an.empty)
            return complete(an.columns, []);
        // SELECT ... FOR UPDATE in a block: on the writer, held to COMMIT (translate/locking.ts)
        if (an.locks && this.#t.state === 'open')
            return this.#write(an, (0, params_1.paramRecord)(list));
        if (an.positional !== undefined && an.readonly && !this.#t.lease && !this.#t.deferred) {
            // a point read binds its values by position: no object of named parameters to build and look up
            const rows = this.#engine.pointRead(an.positional, list);
            if (rows)
                return complete(an.columns, rows);
        }
        const params = (0, params_1.paramRecord)(list);
        if (an.local)
            return complete(an.columns, this.#local.run(this.#local.prepare(an.sql), params, this.facts));
        if (!an.readonly)
            return this.#write(an, params);
        const lease = this.#t.lease;
        if (lease && !this.#t.held) {
            const r = lease.run({ sql: an.sql, params }, 'statement');
            return complete(an.columns ?? r.columns ?? null, r.rows ?? []);
        }
        if (this.#t.deferred)
            return this.#t.runDeferred(an, { sql: an.sql, params });
        const rows = an.positional === undefined ? this.#engine.pointRead(an.sql, params) : null; // in-process, at once
        if (rows)
            return complete(an.columns, rows);
        return this.#stream(an, this.#engine.read({ sql: an.sql, params, format: 'values', timeoutMs: this.#timeoutMs }));
    }
    async #stream(an, cursor) {
        this.#cursor = cursor;
        try {
            await cursor.head();
        }
        catch (err) {
            this.#cursor = null;
            throw err;
        }
        return {
            columns: an.columns,
            all: null,
            rows: {
                next: async () => {
                    const r = await cursor.next();
                    if (r.done)
                        this.#cursor = null;
                    return r.done ? null : (r.value.rows ?? []);
                },
                cancel: () => {
                    cursor.cancel('the portal was closed');
                    this.#cursor = null;
                },
            },
        };
    }
    /**
     * Whether a write must be refused with 25006: a read-only listener, a transaction begun READ ONLY
     * (or SET TRANSACTION READ ONLY), or outside a transaction block default_transaction_read_only
     * (SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY, what BI tools set for safety).
     */
    #readOnly() {
        if (this.#readonlyListener)
            return true;
        const t = this.#t;
        const explicit = t.state !== 'idle' && !t.implicit;
        return (0, settings_1.settingOn)(this.facts.settings.get(explicit ? 'transaction_read_only' : 'default_transaction_read_only'));
    }
    #write(an, params) {
        if (this.#readOnly())
            throw (0, sqlstate_1.pgError)('25006', `cannot execute ${an.locks ? 'SELECT FOR UPDATE' : an.command} in a read-only transaction`);
        if (an.upsertKeys)
            (0, upsert_rows_1.checkUpsertKeys)(an.upsertKeys, params);
        const statements = (an.batch ?? [an.sql]).map((sql) => {
            (0, classify_1.checkWriteStatement)(sql, 'statement');
            return { sql, params };
        });
        const t = this.#t;
        if (t.state === 'open' && !an.batch && t.defers(an)) {
            // a block's write on the transaction it holds answers at once: no promise per statement
            let r;
            try {
                r = t.runDeferred(an, statements[0]);
            }
            catch (err) {
                throw this.#constraintError(err, an, params);
            }
            if (!(r instanceof Promise))
                return r;
            return r.catch((err) => {
                throw this.#constraintError(err, an, params);
            });
        }
        return this.#writeOnLease(an, statements, params);
    }
    async #writeOnLease(an, statements, params) {
        const t = this.#t;
        let r;
        try {
            if (t.state === 'open') {
                await t.ensureLease();
                for (const s of statements)
                    r = t.lease.run(s, 'statement');
            }
            else {
                r = (await this.#engine.transaction(statements)).results[0];
            }
        }
        catch (err) {
            throw this.#constraintError(err, an, params);
        }
        return { columns: an.columns, all: r.rows ?? [], rows: null, affected: r.rowsAffected };
    }
    /** A write's failure as PostgreSQL reports it (constraint errors named as PostgreSQL names them). */
    #constraintError(err, an, params) {
        return (0, constraint_errors_1.pgConstraintError)(err, {
            schema: this.#engine.schema,
            sql: an.sql,
            params,
            keyExists: (table, cols, values) => this.#keyExists(table, cols, values),
        });
    }
    /** Whether a row with this key exists, as this session sees the data (its open transaction, or the last commit). */
    #keyExists(table, columns, values) {
        const sql = `SELECT 1 FROM "${table}" WHERE ${columns.map((c) => `"${c}" = ?`).join(' AND ')}`;
        const db = this.#t.lease?.db ?? this.#local.db;
        return db.prepare(sql).get(...values) !== undefined;
    }
    /** CancelRequest: interrupts a read running on a worker (writes are short and run to the end). */
    cancel() {
        this.#cursor?.cancel('canceling statement due to user request');
        this.#cursor = null;
    }
    /** The connection ended: stop its read, roll back its transaction. */
    close() {
        this.#closed = true;
        this.cancel();
        this.#cursors.close(null);
        this.#notifies.length = 0;
        this.#t.close();
    }
}
exports.Session = Session;
//# sourceMappingURL=session.js.map