"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Transaction = void 0;
const errors_1 = require("../../../src/errors");
const statement_counts_1 = require("../statement-counts");
const deferred_block_1 = require("./deferred-block");
const engine_1 = require("./engine");
const row_claims_1 = require("./row-claims");
/** Table names of each schema, lower case (deferred blocks ask for them at every statement). */
const TABLE_NAMES = new WeakMap();
class Transaction {
    state = 'idle';
    /** The open transaction is the implicit one of a multi-statement simple query (BEGIN makes it explicit). */
    implicit = false;
    #engine;
    #timeoutMs;
    /** The end of every transaction (the session delivers its NOTIFYs and closes its cursors). */
    #ended;
    #closed;
    #lease = null;
    /**
     * The block's part in a held transaction (Writer.hold), #lease then being that transaction: its
     * statements run once, on it, and it may be preempted; other blocks may share it.
     */
    #member = null;
    /** The open block's statements since its first write, when it does not hold the writer (deferred-block.ts). */
    #block = null;
    /** The rows the open block read and wrote by key, so that blocks that would fail each other wait (row-claims.ts). */
    #rows = null;
    constructor(engine, timeoutMs, ended, closed) {
        this.#engine = engine;
        this.#timeoutMs = timeoutMs;
        this.#ended = ended;
        this.#closed = closed;
    }
    /** The writer, when the open block holds it (a lease, or its held transaction). */
    get lease() {
        return this.#lease;
    }
    /** The lease is the block's held transaction: its reads go through runDeferred too (they may be kept for a replay). */
    get held() {
        return this.#member !== null;
    }
    /** The open block has statements that run again at COMMIT (its reads go through runDeferred too). */
    get deferred() {
        return this.#block !== null;
    }
    /** Ends the implicit transaction: commits when every statement succeeded, else rolls back. */
    endImplicit(ok) {
        this.implicit = false;
        this.#finish(ok && this.state === 'open');
    }
    /** COMMIT: the deferred block again as one unit of a group commit, or the lease's commit; ROLLBACK's tag when the block failed. */
    commit() {
        const failed = this.state === 'failed';
        if (!failed && this.#member)
            return this.#commitHeld(this.#member);
        if (!failed && this.#block && !this.#lease)
            return this.#commitDeferred(this.#block);
        this.#finish(!failed);
        return failed ? { ...engine_1.NO_OUTCOME, tag: 'ROLLBACK' } : engine_1.NO_OUTCOME;
    }
    rollback() {
        this.#endLease();
        this.#block = null;
        this.#releaseRows();
        this.state = 'idle';
        this.#ended(false);
    }
    /** Ends the transaction: commits the writer's block or rolls it back. */
    #finish(commit) {
        this.state = 'idle';
        this.#block = null;
        if (this.#member) {
            this.#endLease(); // (a held block commits through #commitHeld)
            this.#releaseRows();
            this.#ended(false);
            return;
        }
        this.#releaseRows();
        this.#ended(commit);
        const lease = this.#lease;
        this.#lease = null;
        if (!lease)
            return;
        try {
            if (commit)
                lease.commit();
            else
                lease.rollback();
        }
        finally {
            lease.release();
        }
    }
    /** COMMIT of a block that did not hold the writer: the whole block again, as one unit of a group commit. */
    async #commitDeferred(block) {
        this.state = 'idle';
        this.#block = null;
        const rows = this.#rows;
        try {
            if (rows) {
                await (0, row_claims_1.rowClaimsOf)(this.#engine.writer).beforeCommit(rows, this.#claimWaitMs());
                if (this.#closed())
                    throw new errors_1.PatinaError('unavailable', 'the connection was closed');
            }
            await this.#engine.group((lease) => block.replay(lease));
            statement_counts_1.blockCounts.replayed++;
        }
        catch (err) {
            this.#ended(false);
            throw err;
        }
        finally {
            if (this.#rows === rows)
                this.#releaseRows();
        }
        this.#ended(true);
        return engine_1.NO_OUTCOME;
    }
    /**
     * COMMIT of a block that holds its transaction: commits it as it is, unless a block that read a row
     * it writes is open; when other blocks share it, once they all asked to commit (if it is preempted
     * meanwhile, the block commits by replay).
     */
    #commitHeld(member) {
        const rows = this.#rows;
        const block = this.#block;
        const claims = (0, row_claims_1.rowClaimsOf)(this.#engine.writer);
        if (rows && claims.commitBlocked(rows, claims.holders)) {
            // waiting while holding the writer would hold that block's COMMIT back too: go on without it
            this.#preemptHeld();
            return this.#commitDeferred(block);
        }
        let done;
        try {
            done = this.#engine.writer.finishHeld(member);
        }
        catch (err) {
            this.#heldEnded(false);
            throw err;
        }
        if (done === true)
            return this.#heldEnded(true);
        if (done === false)
            return this.#commitDeferred(block);
        return done.then((committed) => (committed ? this.#heldEnded(true) : this.#commitDeferred(block)), (err) => {
            this.#heldEnded(false);
            throw err;
        });
    }
    /** The held transaction of the block committed (or failed to): the block is over. */
    #heldEnded(committed) {
        this.state = 'idle';
        this.#block = null;
        this.#lease = null;
        this.#unheld();
        this.#releaseRows();
        this.#ended(committed);
        if (committed)
            statement_counts_1.blockCounts.direct++;
        return engine_1.NO_OUTCOME;
    }
    /** SAVEPOINT, RELEASE, ROLLBACK TO: on the writer, which the block takes for them (none on a read-only listener). */
    async savepoint(an, readonlyListener) {
        if (!readonlyListener) {
            await this.ensureLease();
            try {
                this.#lease.savepoint(an.sql, an.command === 'ROLLBACK');
            }
            catch (err) {
                throw new errors_1.PatinaError('user', err.message, undefined, '3B001');
            }
        }
        if (an.command === 'ROLLBACK')
            this.state = 'open';
        return engine_1.NO_OUTCOME;
    }
    /**
     * Whether a write of an explicit block goes on without the writer (deferred-block.ts). Not for the
     * implicit transaction of one simple query (no round trip to wait for), a block already holding
     * the writer, a write returning rows (a default such as patina_id() gives other values each run),
     * nor a block past DEFERRED_STEPS statements.
     */
    defers(an) {
        if (this.implicit || (this.#lease && !this.#member) || an.columns !== null)
            return false;
        return (this.#block?.size ?? 0) < deferred_block_1.DEFERRED_STEPS;
    }
    /**
     * A statement of a block that does not take the writer for good: on the block's held transaction
     * when it has one, or opens one when nothing else writes (its first write); else tried out on the
     * writer after the block's earlier statements (deferred-block.ts).
     */
    runDeferred(an, statement) {
        const block = (this.#block ??= new deferred_block_1.DeferredBlock((sql) => (0, deferred_block_1.tablesNamed)(sql, this.#tableNames())));
        if (block.size >= deferred_block_1.DEFERRED_STEPS && !this.#member)
            return this.#runOnLease(an, statement);
        const row = (0, row_claims_1.pointRow)(statement.sql, statement.params, this.#engine.schema);
        if (row) {
            const wait = (0, row_claims_1.rowClaimsOf)(this.#engine.writer).note((this.#rows ??= new row_claims_1.BlockRows()), row, this.#claimWaitMs());
            if (wait) {
                this.#preemptHeld(); // holding the writer while waiting for another block would hold its COMMIT back
                return wait.then(() => {
                    if (this.#closed())
                        throw new errors_1.PatinaError('unavailable', 'the connection was closed');
                    return this.#runNoted(an, block, statement, row);
                });
            }
        }
        return this.#runNoted(an, block, statement, row);
    }
    /**
     * runDeferred once the statement's row is noted: on the block's held transaction at once when it
     * holds one (the common case, synchronous), else after taking one or as a try-out.
     */
    #runNoted(an, block, statement, row) {
        const writes = !an.readonly;
        if (!this.#member && !this.#lease && block.size === 0 && writes)
            return this.#holdThenRun(an, block, statement, row);
        if (this.#member) {
            const shape = this.#shared(this.#member, statement, row);
            if (this.#member)
                return this.#runHeld(an, block, statement, writes, shape);
        }
        return this.#tryOut(an, block, statement, row);
    }
    /** A block's first write when nothing else writes: opens a held transaction (or joins one) and runs there. */
    async #holdThenRun(an, block, statement, row) {
        const join = (0, row_claims_1.sharedShape)(statement.sql, this.#engine.schema) !== null;
        const member = await this.#engine.hold(() => this.#heldPreempted(), join);
        if (member && this.#closed()) {
            this.#engine.writer.leaveHeld(member);
            throw new errors_1.PatinaError('unavailable', 'the connection was closed');
        }
        if (member) {
            this.#lease = member.lease;
            this.#member = member;
            (0, row_claims_1.rowClaimsOf)(this.#engine.writer).holders.add((this.#rows ??= new row_claims_1.BlockRows()));
            const shape = this.#shared(member, statement, row);
            if (this.#member)
                return this.#runHeld(an, block, statement, true, shape);
        }
        return this.#tryOut(an, block, statement, row);
    }
    /** The statement tried out on the writer after the block's earlier statements (deferred-block.ts). */
    async #tryOut(an, block, statement, row) {
        const writes = !an.readonly;
        const r = await this.#engine.tryOut((lease) => block.runNext(lease, statement, writes), this.#mayReadInHold(row));
        return { columns: an.columns ?? r.columns ?? null, all: r.rows ?? [], rows: null, affected: r.rowsAffected };
    }
    /** A block past DEFERRED_STEPS statements: on the writer, taken for good. */
    async #runOnLease(an, statement) {
        await this.ensureLease();
        const r = this.#lease.run(statement, 'statement');
        return { columns: an.columns ?? r.columns ?? null, all: r.rows ?? [], rows: null, affected: r.rowsAffected };
    }
    /**
     * Whether a try-out may run inside another block's held transaction: not a read of a row that
     * block wrote and has not committed (it would tell what may never commit), which waits for its end.
     */
    #mayReadInHold(row) {
        if (!row?.reads)
            return undefined;
        const claims = (0, row_claims_1.rowClaimsOf)(this.#engine.writer);
        const mine = this.#rows;
        return () => {
            for (const holder of claims.holders)
                if (holder !== mine && holder.written.has(row.key))
                    return false;
            return true;
        };
    }
    /**
     * Before a statement of a block holding its transaction: whether it may run there while other
     * blocks share it (its shape, see SharedShape), its row noted in the order they commit in
     * (SharedRows). When it may not, the transaction is preempted (#member is null after) unless the
     * block holds it alone; then no other block joins it any more.
     */
    #shared(member, statement, row) {
        const writer = this.#engine.writer;
        const shape = (0, row_claims_1.sharedShape)(statement.sql, this.#engine.schema);
        if (!shape) {
            if (writer.sharing(member) > 1)
                this.#preemptHeld();
            else
                writer.closeHeld(member);
            return null;
        }
        if (row && !(0, row_claims_1.sharedRowsOf)(member.held).touch(this.#rows, row.key, !row.reads, (0, row_claims_1.rowClaimsOf)(writer).holders))
            this.#preemptHeld();
        return shape;
    }
    /** Runs a statement once, on the block's held transaction; kept in the block in case the transaction is preempted. */
    #runHeld(an, block, statement, writes, shape) {
        let r;
        try {
            r = this.#engine.writer.runHeld(this.#member, statement, 'statement', writes);
            if (shape?.insert && r.rowsAffected === 1) {
                // the new row's key, so that the blocks sharing the transaction are ordered by it too
                const key = `${shape.insert.table}\0${String(insertedKey(this.#lease.db, shape.insert.keyQuery))}`;
                this.#rows.written.add(key);
                if (!(0, row_claims_1.sharedRowsOf)(this.#member.held).touch(this.#rows, key, true, (0, row_claims_1.rowClaimsOf)(this.#engine.writer).holders))
                    this.#preemptHeld();
            }
        }
        catch (err) {
            // the block has failed: nothing of it stays, and the writer is free for the others now
            this.#endLease();
            this.#block = null;
            throw err;
        }
        block.record(statement, r, writes);
        return { columns: an.columns ?? r.columns ?? null, all: r.rows ?? [], rows: null, affected: r.rowsAffected };
    }
    /** The writer rolled back the block's held transaction (others waited too long): the block goes on deferred. */
    #heldPreempted() {
        statement_counts_1.blockCounts.preempted++;
        this.#lease = null;
        this.#unheld();
    }
    /** The block's transaction is no longer held (ended, preempted or kept as a lease). */
    #unheld() {
        if (!this.#member)
            return;
        this.#member = null;
        if (this.#rows)
            (0, row_claims_1.rowClaimsOf)(this.#engine.writer).holders.delete(this.#rows);
    }
    #preemptHeld() {
        if (this.#member)
            this.#engine.writer.preempt(this.#member);
    }
    /** Takes the writer for the rest of the block; a deferred block's statements so far are run on it first. */
    async ensureLease() {
        if (this.#member) {
            // the block's held transaction becomes its lease until COMMIT, no longer preempted; when other
            // blocks share it, it is preempted instead (#heldPreempted) and the block takes the writer below
            if (this.#engine.writer.keep(this.#member)) {
                this.#unheld();
                this.#block = null;
                return;
            }
        }
        if (this.#lease)
            return;
        const lease = await this.#engine.lease();
        if (this.#closed()) {
            lease.release();
            throw new errors_1.PatinaError('unavailable', 'the connection was closed');
        }
        lease.begin();
        if (this.#block) {
            try {
                this.#block.replay(lease);
            }
            catch (err) {
                lease.release();
                throw err;
            }
            this.#block = null;
        }
        this.#lease = lease;
    }
    /** The connection ended: the block is rolled back, the writer and the rows' claims let go. */
    close() {
        this.#endLease();
        this.#block = null;
        this.#releaseRows();
        this.state = 'idle';
    }
    /** The schema's table names, lower case (kept per schema). */
    #tableNames() {
        const schema = this.#engine.schema;
        let names = TABLE_NAMES.get(schema);
        if (!names)
            TABLE_NAMES.set(schema, (names = new Set([...schema.tables.keys()].map((t) => t.toLowerCase()))));
        return names;
    }
    /** How long a statement of a block waits for other blocks' row claims at most. */
    #claimWaitMs() {
        return Math.min(row_claims_1.CLAIM_WAIT_MS, this.#timeoutMs);
    }
    /** The open block ended: other blocks no longer wait for the rows it read. */
    #releaseRows() {
        const rows = this.#rows;
        this.#rows = null;
        if (rows)
            (0, row_claims_1.rowClaimsOf)(this.#engine.writer).release(rows);
    }
    #endLease() {
        const lease = this.#lease;
        const member = this.#member;
        this.#lease = null;
        this.#unheld();
        if (member)
            this.#engine.writer.leaveHeld(member);
        else
            lease?.release();
    }
}
exports.Transaction = Transaction;
/** The key queries of shared inserts (SharedShape), prepared once per writer connection: one per table. */
const KEY_QUERIES = new WeakMap();
/** The key of the row the last INSERT made (`keyQuery`, SharedShape): exact, a bigint for an integer. */
function insertedKey(db, keyQuery) {
    let byQuery = KEY_QUERIES.get(db);
    if (!byQuery)
        KEY_QUERIES.set(db, (byQuery = new Map()));
    let st = byQuery.get(keyQuery);
    if (!st)
        byQuery.set(keyQuery, (st = db.prepare(keyQuery).pluck().safeIntegers(true)));
    return st.get();
}
//# sourceMappingURL=transaction.js.map