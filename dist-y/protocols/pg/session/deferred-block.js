"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DeferredBlock = exports.DEFERRED_STEPS = void 0;
exports.tablesNamed = tablesNamed;
const sqlstate_1 = require("../sqlstate");
const lru_1 = require("../../../src/lru");
/** More statements than this and the block takes the writer instead (replays grow with the square). */
exports.DEFERRED_STEPS = 64;
/** tablesNamed's answers per set of table names (a schema), by SQL text: a block's statements repeat. */
const NAMED = new WeakMap();
/** The schema tables an SQL text names (by its identifiers; a name inside a string only costs a replay). */
function tablesNamed(sql, tables) {
    let known = NAMED.get(tables);
    if (!known)
        NAMED.set(tables, (known = new lru_1.Lru(1024)));
    let out = known.get(sql);
    if (!out)
        known.set(sql, (out = scanTables(sql, tables)));
    return out;
}
function scanTables(sql, tables) {
    const out = new Set();
    for (const m of sql.matchAll(/"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_$]*)/g)) {
        const name = (m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]).toLowerCase();
        if (tables.has(name))
            out.add(name);
    }
    return out;
}
class DeferredBlock {
    #steps = [];
    #tables;
    /** `tables` names the schema tables of an SQL text (tablesNamed). */
    constructor(tables) {
        this.#tables = tables;
    }
    get size() {
        return this.#steps.length;
    }
    /** Runs the block's statements so far on `lease`; throws 40001 when one tells something else now. */
    replay(lease) {
        this.#replay(lease, this.#steps);
    }
    #replay(lease, steps) {
        for (const step of steps) {
            let r;
            try {
                r = lease.run(step.statement, 'statement');
            }
            catch (err) {
                throw serializationFailure(`a statement of this transaction now fails (${err.message})`);
            }
            if (r.rowsAffected !== step.rowsAffected || !sameRows(r.rows, step.rows)) {
                throw serializationFailure('a concurrent transaction changed what this transaction read or wrote');
            }
        }
    }
    /** Keeps what `statement` told when it ran on the block's own held transaction (Writer.hold). */
    record(statement, r, writes) {
        this.#steps.push({
            statement,
            rowsAffected: r.rowsAffected,
            rows: r.rows,
            tables: this.#tables(statement.sql),
            writes,
        });
    }
    /**
     * Runs `statement` after the block's statements on `lease` and keeps what it told. Only the earlier
     * writes it can see are replayed first: those to tables it names, and the writes those depend on.
     */
    runNext(lease, statement, writes) {
        const tables = this.#tables(statement.sql);
        const need = new Set(tables);
        const before = [];
        for (let k = this.#steps.length - 1; k >= 0; k--) {
            const step = this.#steps[k];
            if (!step.writes || ![...step.tables].some((t) => need.has(t)))
                continue;
            before.push(step);
            for (const t of step.tables)
                need.add(t);
        }
        this.#replay(lease, before.reverse());
        const r = lease.run(statement, 'statement');
        this.#steps.push({ statement, rowsAffected: r.rowsAffected, rows: r.rows, tables, writes });
        return r;
    }
}
exports.DeferredBlock = DeferredBlock;
function serializationFailure(why) {
    return (0, sqlstate_1.pgError)('40001', `could not serialize access due to concurrent update: ${why}; retry the transaction`);
}
function sameRows(a, b) {
    if (a === undefined || b === undefined)
        return a === b;
    if (a.length !== b.length)
        return false;
    for (let i = 0; i < a.length; i++) {
        const x = a[i];
        const y = b[i];
        if (x.length !== y.length)
            return false;
        for (let j = 0; j < x.length; j++)
            if (!sameValue(x[j], y[j]))
                return false;
    }
    return true;
}
function sameValue(x, y) {
    if (x instanceof Uint8Array || y instanceof Uint8Array)
        return x instanceof Uint8Array && y instanceof Uint8Array && Buffer.compare(x, y) === 0;
    return x === y;
}
//# sourceMappingURL=deferred-block.js.map