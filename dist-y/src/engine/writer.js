"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WriterLease = exports.Writer = exports.HeldMember = exports.HOLD_WAIT_MS = void 0;
const node_perf_hooks_1 = require("node:perf_hooks");
const errors_1 = require("../errors");
const values_1 = require("./values");
const elapsed_1 = require("./elapsed");
const literals_1 = require("./literals");
const lru_1 = require("../lru");
/** Most writes one group commit takes; the rest wait for the next. */
const GROUP_LIMIT = 512;
/**
 * How long other writers wait for a block that holds the writer between its statements (hold())
 * before its transaction is rolled back and it goes on without the writer.
 */
exports.HOLD_WAIT_MS = 5;
/** One block of a held transaction (Writer.hold). */
class HeldMember {
    held;
    preempted;
    /** Asked to commit: waits for the other members (or for a preemption). */
    finished = false;
    /** Settles the member's wait for the shared commit: true committed, false preempted. */
    waiter = null;
    /** Its own unit of the shared transaction: its own version and changeset. */
    unit = { version: null, seq: 0 };
    constructor(held, preempted) {
        this.held = held;
        this.preempted = preempted;
    }
    /** The shared transaction (its statements run on it). */
    get lease() {
        return this.held.lease;
    }
}
exports.HeldMember = HeldMember;
const STMT_CACHE = 256;
/**
 * The one writer connection. A lease holds it for one transaction at a time; everything that writes
 * (HTTP, PG sessions, merges, schema changes) takes a lease, so writes are serialized.
 */
class Writer {
    db;
    #hooks = null;
    #tail = Promise.resolve();
    #cache = new lru_1.Lru(STMT_CACHE);
    /** Statements that ran as the shared statement of their shape. */
    sharedRuns = 0;
    /** Shapes of literal writes that did not prepare (a literal where SQL wants one, e.g. VARCHAR(10)). */
    #unshaped = new lru_1.Lru(STMT_CACHE);
    #changes;
    #totalChanges;
    /** The transaction control statements every write runs, prepared once (exec parses them each time). */
    control;
    #commits = 0;
    #persistCommits = null;
    #commitListeners = [];
    /** Writes waiting for the next group commit, and whether one is scheduled. */
    #queue = [];
    #groupScheduled = false;
    /** The block holding the writer between its statements, if any (hold()). */
    #held = null;
    /** A held transaction being opened (hold() waits for the writer): blocks that come meanwhile join it. */
    #forming = null;
    #heldPassScheduled = false;
    /** Leases asked for by others than the group commit and hold(), not yet released. */
    #outsideLeases = 0;
    constructor(db) {
        this.db = db;
        this.#changes = db.prepare('SELECT changes()');
        this.#totalChanges = db.prepare('SELECT total_changes()').pluck();
        this.control = {
            begin: db.prepare('BEGIN IMMEDIATE'),
            commit: db.prepare('COMMIT'),
            rollback: db.prepare('ROLLBACK'),
            savepoint: db.prepare('SAVEPOINT patina_unit'),
            release: db.prepare('RELEASE patina_unit'),
            rollbackTo: db.prepare('ROLLBACK TO patina_unit'),
        };
    }
    /**
     * Counts, from `initial`, the committed transactions that changed rows; `persist` writes the new
     * count inside the transaction itself, so the count on disk always names the data beside it.
     */
    countCommits(initial, persist) {
        this.#commits = initial;
        this.#persistCommits = persist;
    }
    /**
     * How many transactions that changed rows have committed (persisted): the position of the
     * committed state. Between two JS tasks it always names what a new read transaction sees.
     */
    get commits() {
        return this.#commits;
    }
    setHooks(hooks) {
        this.#hooks = hooks;
    }
    /** Calls `fn` right after every COMMIT of the writer (before the change is published). */
    onCommit(fn) {
        this.#commitListeners.push(fn);
    }
    _notifyCommit() {
        for (const fn of this.#commitListeners)
            fn();
    }
    /** Waits for the writer and holds it until the lease is released. */
    lease() {
        this.#outsideLeases++;
        this.#waitForHolder();
        return this.#lease(() => this.#outsideLeases--);
    }
    #lease(onRelease) {
        let release;
        const held = new Promise((r) => (release = r));
        const ready = this.#tail.then(() => new WriterLease(this, () => {
            onRelease?.();
            release();
        }));
        this.#tail = this.#tail.then(() => held);
        return ready;
    }
    /**
     * A transaction for a PG block that runs its statements on it directly, held between them, when
     * nothing else waits to write; null when something does. While it is held, other blocks'
     * statements are tried out inside it (Writer.tryOut, rolled back to a savepoint), and everything
     * that commits or takes a lease waits for its end, at most HOLD_WAIT_MS: then the transaction is
     * rolled back and `preempted` is called (its holder goes on without the writer). When `join`,
     * a block may also join the transaction other blocks hold (a member): they commit together
     * (finishHeld), and a preemption ends them all.
     */
    async hold(preempted, join = false) {
        const now = this.#held;
        if (now) {
            if (!join || !this.#joinable(now))
                return null;
            const member = new HeldMember(now, preempted);
            now.members.push(member);
            return member;
        }
        const forming = this.#forming;
        if (forming) {
            // the transaction is being opened: join it, once open
            if (!join)
                return null;
            const member = new HeldMember(forming.held, preempted);
            forming.held.members.push(member);
            return (await forming.open) ? member : null;
        }
        if (!this.#idle())
            return null;
        const held = {
            lease: null,
            members: [],
            timer: null,
            closed: false,
            current: null,
        };
        const member = new HeldMember(held, preempted);
        held.members.push(member);
        held.current = member; // the unit BEGIN leaves open is the first member's
        const open = this.#openHeld(held);
        this.#forming = { held, open };
        try {
            return (await open) ? member : null;
        }
        finally {
            if (this.#forming?.held === held)
                this.#forming = null;
        }
    }
    /** Opens the transaction `held`'s members will share, once the writer is free; false when something else wants it by then. */
    async #openHeld(held) {
        const lease = await this.#lease(null);
        this.#forming = null;
        if (!this.#idle() || !this.db.open) {
            lease.release();
            return false;
        }
        try {
            lease.begin();
            this.#hooks?.beginShared();
        }
        catch (err) {
            lease.release();
            throw err;
        }
        held.lease = lease;
        this.#held = held;
        lease._onRelease(() => this.#unhold(held));
        if (this.#queue.length > 0)
            this.#scheduleHeldPass();
        return true;
    }
    /** Nothing holds, takes or waits for the writer to commit (try-outs may wait: they run inside a hold). */
    #idle() {
        return this.#held === null && this.#outsideLeases === 0 && !this.#queue.some((m) => !m.discard);
    }
    /** Another block may join the held transaction: nothing else waits for it, and no member asked to commit yet. */
    #joinable(held) {
        return (!held.closed &&
            held.timer === null &&
            this.#outsideLeases === 0 &&
            !held.members.some((m) => m.finished) &&
            !this.#queue.some((m) => !m.discard));
    }
    /** No other block joins the held transaction of `member` from now on. */
    closeHeld(member) {
        member.held.closed = true;
    }
    /**
     * Runs one statement of `member`'s block on its held transaction, as part of its own unit (a
     * statement that cannot write, `writes` false, stamps no clock: capture's unit is not switched).
     */
    runHeld(member, s, where, writes = true) {
        const held = member.held;
        if (!writes)
            return held.lease.run(s, where);
        if (held.current !== member) {
            this.#hooks?.enterUnit(held.current?.unit ?? null, member.unit);
            held.current = member;
        }
        const r = held.lease.run(s, where);
        if (r.rowsAffected > 0)
            this.#hooks?.afterUnitStatement(member.unit);
        return r;
    }
    /** How many blocks share the held transaction of `member` now (0: it no longer holds). */
    sharing(member) {
        return this.#held === member.held ? member.held.members.length : 0;
    }
    /** Rolls back the held transaction of `member` now (every member goes on without the writer). */
    preempt(member) {
        if (this.#held === member.held)
            this.#preempt(member.held);
    }
    /**
     * Keeps the held transaction of `member` as an ordinary lease (others wait for it without bound,
     * as for any lease): true when it is the only member; else the transaction is preempted, false.
     */
    keep(member) {
        const held = member.held;
        if (this.#held !== held)
            return false;
        if (held.members.length > 1) {
            this.#preempt(held);
            return false;
        }
        this.#unhold(held);
        this.#outsideLeases++;
        held.lease._onRelease(() => this.#outsideLeases--);
        return true;
    }
    /**
     * The member's block asked to commit. When every member has, the shared transaction commits now
     * as one unit (true; throws when COMMIT fails); else the member waits for the others: true once
     * they committed, false when the transaction was preempted (the block then commits by replay).
     */
    finishHeld(member) {
        const held = member.held;
        if (this.#held !== held)
            return false;
        member.finished = true;
        if (!held.members.every((m) => m.finished)) {
            this.#waitForHolder(); // a member that went idle holds the others back HOLD_WAIT_MS at most
            return new Promise((resolve, reject) => (member.waiter = { resolve, reject }));
        }
        this.#unhold(held);
        const waiting = held.members.filter((m) => m !== member);
        try {
            held.lease.commitShared(held.members.map((m) => m.unit));
        }
        catch (err) {
            for (const m of waiting)
                m.waiter?.reject(err);
            throw err;
        }
        finally {
            held.lease.release();
        }
        for (const m of waiting)
            m.waiter?.resolve(true);
        return true;
    }
    /** The member's block ends without committing (rollback, failure, closed connection): the transaction is rolled back. */
    leaveHeld(member) {
        const held = member.held;
        if (this.#held !== held)
            return;
        if (held.members.length === 1) {
            held.lease.release(); // rolls back
            return;
        }
        held.members.splice(held.members.indexOf(member), 1);
        member.waiter?.reject(new errors_1.PatinaError('unavailable', 'the connection was closed'));
        this.#preempt(held);
    }
    #preempt(held) {
        if (this.#held !== held)
            return;
        this.#unhold(held);
        held.lease.rollback();
        for (const m of held.members) {
            m.preempted();
            m.waiter?.resolve(false);
        }
        held.lease.release();
    }
    #unhold(held) {
        if (this.#held !== held)
            return;
        this.#held = null;
        if (held.timer)
            clearTimeout(held.timer);
        // try-outs that came after the last pass go to a group commit now
        if (this.#queue.length > 0 && !this.#groupScheduled) {
            this.#groupScheduled = true;
            setImmediate(() => void this.#commitGroup());
        }
    }
    /** Something waits to commit or to take a lease: the holder has HOLD_WAIT_MS to end. */
    #waitForHolder() {
        const held = this.#held;
        if (!held || held.timer)
            return;
        held.timer = setTimeout(() => this.#preempt(held), exports.HOLD_WAIT_MS);
    }
    #scheduleHeldPass() {
        if (this.#heldPassScheduled)
            return;
        this.#heldPassScheduled = true;
        setImmediate(() => {
            this.#heldPassScheduled = false;
            this.#runHeldTryOuts();
        });
    }
    /** Runs the waiting try-outs inside the held transaction, each rolled back to its savepoint. */
    #runHeldTryOuts() {
        const held = this.#held;
        if (!held)
            return;
        const now = (m) => m.discard && (!m.inHold || m.inHold());
        const tryOuts = this.#queue.filter(now);
        if (tryOuts.length < this.#queue.filter((m) => m.discard).length)
            this.#waitForHolder(); // some wait for its end
        if (tryOuts.length === 0)
            return;
        this.#queue = this.#queue.filter((m) => !now(m));
        const left = held.lease.tryOuts(tryOuts, () => this.#held === held);
        if (left.length > 0) {
            // the held transaction was lost (a statement rolled it back): the rest go to a group
            this.#queue.unshift(...left);
            if (this.#held === held)
                this.#preempt(held);
            return;
        }
        if (!this.db.inTransaction)
            this.#preempt(held);
    }
    /**
     * Runs statements in one transaction, all or nothing; errors name the failing statement (1-based).
     *
     * Group commit: writes that arrive in the same turn of the event loop (and those that arrive while
     * the writer is held by someone else) run in one SQLite transaction, each in its own savepoint, so
     * that one COMMIT (one WAL append) acknowledges them all. Each is still its own unit: a failing
     * write rolls back only its savepoint, and each gets its own change and version. A write is
     * answered only after the COMMIT that holds it.
     */
    async transaction(statements) {
        const { value, change } = await this.group((lease) => statements.map((s, i) => lease.run(s, `statement ${i + 1}`)));
        return { results: value, change };
    }
    /** Runs `run` as one unit of the next group commit (see transaction); answers after its COMMIT. */
    group(run) {
        return this.#enqueue(run, false);
    }
    /**
     * Runs `run` on the writer and undoes it (a savepoint of the next group commit rolled back, capture
     * quiet): what statements would do now, changing nothing. It may see writes of the same group
     * that are not committed yet; whoever relies on the answer checks it again when it commits
     * (protocols/pg/session/deferred-block.ts). While a block holds the writer (hold()), it runs inside
     * that block's transaction when `inHold` says it may (by default), else after it.
     */
    async tryOut(run, inHold) {
        return (await this.#enqueue(run, true, inHold)).value;
    }
    #enqueue(run, discard, inHold) {
        return new Promise((resolve, reject) => {
            this.#queue.push({ run, discard, inHold, resolve: resolve, reject, settled: false });
            if (this.#held) {
                if (discard)
                    return this.#scheduleHeldPass();
                this.#waitForHolder();
            }
            if (!this.#groupScheduled) {
                this.#groupScheduled = true;
                setImmediate(() => void this.#commitGroup());
            }
        });
    }
    async #commitGroup() {
        let lease;
        try {
            lease = await this.#lease(null);
        }
        catch (err) {
            this.#failQueue(err);
            return;
        }
        try {
            const members = this.#queue.splice(0, GROUP_LIMIT);
            if (this.#queue.length > 0)
                setImmediate(() => void this.#commitGroup());
            else
                this.#groupScheduled = false;
            if (!this.db.open) {
                for (const m of members)
                    m.reject(new errors_1.PatinaError('unavailable', 'the database is closed'));
                return;
            }
            try {
                lease.runGroup(members);
            }
            catch (err) {
                for (const m of members)
                    if (!m.settled)
                        m.reject(err);
            }
        }
        finally {
            lease.release();
        }
    }
    #failQueue(err) {
        const q = this.#queue;
        this.#queue = [];
        this.#groupScheduled = false;
        for (const m of q)
            m.reject(err);
    }
    /**
     * The statement that runs `sql` with `args`. A write with its values in the text and no
     * parameters runs as the statement of its shape with the values bound (see literals.ts), so that
     * distinct texts do not each leave a prepared statement behind; everything else by its text.
     */
    statement(sql, args) {
        const exact = this.#cache.get(sql);
        if (exact)
            return { st: exact, args };
        if (args.length === 0) {
            const shape = (0, literals_1.shareLiterals)(sql);
            if (shape) {
                const st = this.#shape(shape.sql);
                if (st) {
                    this.sharedRuns++;
                    return { st, args: shape.values };
                }
            }
        }
        return { st: this.prepare(sql), args };
    }
    /** The statement of a shape, or null (remembered) when the shape does not prepare: its text runs instead. */
    #shape(sql) {
        const st = this.#cache.get(sql);
        if (st)
            return st;
        if (this.#unshaped.get(sql))
            return null;
        try {
            return this.#add(sql, this.db.prepare(sql));
        }
        catch {
            this.#unshaped.set(sql, true);
            return null;
        }
    }
    /** A prepared statement, cached by its text. */
    prepare(sql) {
        const st = this.#cache.get(sql);
        if (st)
            return st;
        const shape = (0, literals_1.shareLiterals)(sql);
        if (shape) {
            // described by its shape: same columns, and no statement left behind per text
            const shaped = this.#shape(shape.sql);
            if (shaped)
                return shaped;
        }
        return this.#add(sql, this.db.prepare(sql));
    }
    #add(sql, st) {
        this.#cache.set(sql, st);
        return st;
    }
    /** How many prepared statements the cache holds (for /metrics). */
    get cachedStatements() {
        return this.#cache.size;
    }
    /** Forgets prepared statements; the schema changed. */
    clearCache() {
        this.#cache.clear();
        this.#unshaped.clear();
    }
    _hooks() {
        return this.#hooks;
    }
    _changes() {
        return Number(this.#changes.pluck().get());
    }
    _totalChanges() {
        return Number(this.#totalChanges.get());
    }
    /** Inside the transaction, before COMMIT: persists the next count if rows changed since `since`. */
    _countCommit(since) {
        if (!this.#persistCommits || (since !== null && this._totalChanges() === since))
            return null;
        const next = this.#commits + 1;
        this.#persistCommits(next);
        return next;
    }
    _committed(n) {
        if (n !== null)
            this.#commits = n;
    }
}
exports.Writer = Writer;
/** A statement's result columns, kept per prepared statement (read-only: shared by its results). */
const COLUMNS = new WeakMap();
function columnsOf(st) {
    let columns = COLUMNS.get(st);
    if (!columns)
        COLUMNS.set(st, (columns = st.columns().map((c) => ({ name: c.name, declType: c.type }))));
    return columns;
}
/** The writer, held: begin, run statements, commit or roll back, release. */
class WriterLease {
    #w;
    #release;
    #onRelease = null;
    #released = false;
    /** total_changes() at BEGIN (null when the transaction was begun some other way). */
    #changesAtBegin = null;
    constructor(w, release) {
        this.#w = w;
        this.#release = release;
    }
    get db() {
        return this.#w.db;
    }
    get inTransaction() {
        return this.#w.db.inTransaction;
    }
    begin() {
        this.#w.control.begin.run();
        this.#changesAtBegin = this.#w._totalChanges();
    }
    /** Runs one statement; SQLite errors come back as PatinaErrors prefixed with `where`. */
    run(s, where) {
        const t0 = node_perf_hooks_1.performance.now();
        const p = s.params;
        let st;
        let args = p === undefined ? [] : Array.isArray(p) ? p : [p];
        try {
            ({ st, args } = this.#w.statement(s.sql, args));
        }
        catch (err) {
            // better-sqlite3 refuses more than one statement in one text with a RangeError, not a SqliteError
            if (err instanceof RangeError)
                throw new errors_1.PatinaError('user', `${where}: ${err.message}; give each statement on its own`);
            throw (0, errors_1.fromSqliteError)(err, `${where}: `);
        }
        try {
            if (st.reader) {
                const rows = st.raw(true).all(...args);
                for (const row of rows)
                    for (let i = 0; i < row.length; i++)
                        if (typeof row[i] === 'bigint')
                            row[i] = (0, values_1.narrowInteger)(row[i]);
                const columns = columnsOf(st);
                const rowsAffected = st.readonly ? 0 : this.#w._changes();
                return { rowsAffected, time: (0, elapsed_1.secondsSince)(t0), columns, rows };
            }
            const info = st.run(...args);
            return { rowsAffected: info.changes, time: (0, elapsed_1.secondsSince)(t0) };
        }
        catch (err) {
            if (err instanceof RangeError || err instanceof TypeError)
                throw new errors_1.PatinaError('user', `${where}: ${err.message}`);
            throw (0, errors_1.fromSqliteError)(err, `${where}: `);
        }
    }
    /** Commits the transaction as one unit; returns what change capture gathered (null when nothing changed). */
    commit() {
        const hooks = this.#w._hooks();
        let change = null;
        try {
            if (hooks)
                change = hooks.endUnit(this.#w.db);
        }
        catch (err) {
            this.rollback();
            throw (0, errors_1.fromSqliteError)(err, 'commit: ');
        }
        this.commitUnits(change === null ? [] : [change]);
        return change;
    }
    /** Commits a transaction whose units interleaved (Writer.hold's blocks sharing it), each its own change. */
    commitShared(units) {
        const hooks = this.#w._hooks();
        let changes = [];
        try {
            if (hooks)
                changes = hooks.endSharedUnits(units);
        }
        catch (err) {
            this.rollback();
            throw (0, errors_1.fromSqliteError)(err, 'commit: ');
        }
        this.commitUnits(changes);
        return changes;
    }
    /** Commits a transaction whose units already ended (see unit()); publishes their changes in order. */
    commitUnits(changes) {
        const hooks = this.#w._hooks();
        let counted = null;
        try {
            hooks?.beforeCommit(this.#w.db);
            counted = this.#w._countCommit(this.#changesAtBegin);
            this.#w.control.commit.run();
        }
        catch (err) {
            this.rollback();
            throw (0, errors_1.fromSqliteError)(err, 'commit: ');
        }
        finally {
            this.#changesAtBegin = null;
        }
        this.#w._committed(counted);
        this.#w._notifyCommit();
        if (hooks && changes.length > 0)
            hooks.afterCommit(changes);
    }
    /**
     * Runs `fn` as one unit inside the open transaction: in a savepoint when `savepoint` (a failure then
     * undoes this unit only), its change taken at its end. A failure without a savepoint, or one that
     * made SQLite roll back the whole transaction, leaves no transaction open.
     */
    unit(fn, savepoint, discard = false) {
        const db = this.#w.db;
        const hooks = this.#w._hooks();
        const c = this.#w.control;
        if (savepoint)
            c.savepoint.run();
        try {
            if (discard) {
                // Without a savepoint (a try-out alone in its group), the group's ROLLBACK undoes it, and
                // capture's quiet switch with it.
                hooks?.quietUntilRollback();
                const value = fn();
                if (savepoint) {
                    c.rollbackTo.run();
                    c.release.run();
                }
                return { ok: true, value, change: null };
            }
            const value = fn();
            const change = hooks ? hooks.endUnit(db) : null;
            if (savepoint)
                c.release.run();
            return { ok: true, value, change };
        }
        catch (error) {
            if (savepoint && db.inTransaction) {
                c.rollbackTo.run();
                c.release.run();
                hooks?.unitRolledBack();
            }
            else
                this.rollback();
            return { ok: false, error };
        }
    }
    /**
     * Runs try-outs inside the open transaction, each undone at once, capture quiet: one savepoint for
     * all of them, rolled back to after each (ROLLBACK TO keeps it open, and undoes the quiet switch).
     * Settles each member; returns those not run because the transaction was lost (a failing
     * statement made SQLite roll it back) or `still()` said the transaction is no longer theirs.
     */
    tryOuts(members, still) {
        const db = this.#w.db;
        const hooks = this.#w._hooks();
        const c = this.#w.control;
        let i = 0;
        c.savepoint.run();
        try {
            for (; i < members.length; i++) {
                if (!still() || !db.inTransaction)
                    break;
                const m = members[i];
                let r;
                try {
                    hooks?.quietUntilRollback();
                    r = { ok: true, value: m.run(this), change: null };
                }
                catch (error) {
                    r = { ok: false, error };
                }
                if (db.inTransaction)
                    c.rollbackTo.run();
                else
                    this.rollback();
                m.settled = true;
                if (r.ok)
                    m.resolve({ value: r.value, change: null });
                else
                    m.reject(r.error);
            }
        }
        finally {
            if (db.inTransaction)
                c.release.run();
        }
        return members.slice(i);
    }
    /** Runs one of the client's own SAVEPOINT, RELEASE or ROLLBACK TO statements (a PG block holding the writer). */
    savepoint(sql, rollsBack) {
        this.#w.db.exec(sql);
        if (rollsBack)
            this.#w._hooks()?.rolledBackToSavepoint();
    }
    /**
     * One group commit: each member's statements as one unit, then one COMMIT, then each member is
     * answered. When a member's failure rolled back the whole transaction (INSERT OR ROLLBACK), the
     * members before it are run again in a new one: none of them was answered yet.
     */
    runGroup(members) {
        const db = this.#w.db;
        for (;;) {
            const live = members.filter((m) => !m.settled);
            if (live.length === 0)
                return;
            this.begin();
            const done = [];
            let lost = false;
            for (const m of live) {
                const r = this.unit(() => m.run(this), live.length > 1, m.discard);
                if (r.ok) {
                    done.push({ m, value: r.value, change: r.change });
                    continue;
                }
                m.settled = true;
                m.reject(r.error);
                if (!db.inTransaction) {
                    lost = live.length > 1 || m.discard;
                    break;
                }
            }
            if (lost) {
                this.#w._hooks()?.afterRollback();
                continue;
            }
            if (!db.inTransaction)
                return; // the one member failed and rolled back
            if (done.every((d) => d.m.discard)) {
                // Only try-outs: nothing to keep. A COMMIT would write the pages they touched and undid to the
                // WAL again, and count a commit that changed nothing.
                this.rollback();
                for (const d of done)
                    d.m.resolve({ value: d.value, change: null });
                return;
            }
            try {
                this.commitUnits(done.flatMap((d) => (d.change === null ? [] : [d.change])));
            }
            catch (err) {
                for (const d of done)
                    d.m.reject(err);
                return;
            }
            for (const d of done)
                d.m.resolve({ value: d.value, change: d.change });
            return;
        }
    }
    rollback() {
        if (this.#w.db.inTransaction)
            this.#w.control.rollback.run();
        this.#changesAtBegin = null;
        this.#w._hooks()?.afterRollback();
    }
    /** Gives the writer back; rolls back a transaction left open (a client that went away). */
    release() {
        if (this.#released)
            return;
        this.#released = true;
        if (this.#w.db.inTransaction)
            this.rollback();
        this.#onRelease?.();
        this.#release();
    }
    _onRelease(fn) {
        this.#onRelease = fn;
    }
}
exports.WriterLease = WriterLease;
//# sourceMappingURL=writer.js.map