"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SharedRows = exports.RowClaims = exports.BlockRows = exports.CLAIM_WAIT_MS = void 0;
exports.pointRow = pointRow;
exports.rowClaimsOf = rowClaimsOf;
exports.sharedShape = sharedShape;
exports.sharedRowsOf = sharedRowsOf;
const lru_1 = require("../../../src/lru");
/** The longest a block waits for another (the blocks of one workload last milliseconds). */
exports.CLAIM_WAIT_MS = 2000;
const IDENT = `("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)`;
const VALUE = String.raw `(\$\d+|-?\d+|'(?:[^']|'')*')`;
const TAIL = String.raw `\s+WHERE\s+${IDENT}\s*=\s*${VALUE}\s*;?\s*$`;
const SELECT = new RegExp(String.raw `^\s*SELECT\s+[\s\S]+?\s+FROM\s+${IDENT}${TAIL}`, 'i');
const UPDATE = new RegExp(String.raw `^\s*UPDATE\s+${IDENT}\s+SET\s+[\s\S]+?${TAIL}`, 'i');
const DELETE = new RegExp(String.raw `^\s*DELETE\s+FROM\s+${IDENT}${TAIL}`, 'i');
const SHAPES = new WeakMap();
const KEYS = new WeakMap();
function unquote(name) {
    return (name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name).toLowerCase();
}
/** Each table's one-column primary key, by lower-case names. */
function singleKeys(schema) {
    let keys = KEYS.get(schema);
    if (!keys) {
        keys = new Map();
        for (const t of schema.tables.values())
            if (t.primaryKey.length === 1)
                keys.set(t.name.toLowerCase(), t.primaryKey[0].toLowerCase());
        KEYS.set(schema, keys);
    }
    return keys;
}
function shapeOf(sql, schema) {
    const m = SELECT.exec(sql) ?? UPDATE.exec(sql) ?? DELETE.exec(sql);
    if (!m)
        return null;
    const table = unquote(m[1]);
    if (singleKeys(schema).get(table) !== unquote(m[2]))
        return null;
    const v = m[3];
    return {
        table,
        param: v.startsWith('$') ? v.slice(1) : null,
        literal: v.startsWith("'") ? v.slice(1, -1).replace(/''/g, "'") : v,
        reads: /^\s*SELECT/i.test(sql),
    };
}
/** The one row a statement reads or writes, by its table's one-column primary key; null for other shapes. */
function pointRow(sql, params, schema) {
    let known = SHAPES.get(schema);
    if (!known)
        SHAPES.set(schema, (known = new lru_1.Lru(1024)));
    let shape = known.get(sql);
    if (shape === undefined)
        known.set(sql, (shape = shapeOf(sql, schema)));
    if (!shape)
        return null;
    let value = shape.literal;
    if (shape.param !== null) {
        const v = params?.[shape.param];
        if (v === undefined || v === null || v instanceof Uint8Array)
            return null;
        value = String(v); // 7 and '7' name the same row here: a claim too many only waits
    }
    return { key: `${shape.table}\0${value}`, reads: shape.reads };
}
/** One open deferred block's rows: those it read (claimed) and those it wrote. */
class BlockRows {
    claimed = new Set();
    /** The rows it claimed by reading them (claimed also holds, from its COMMIT on, the rows it writes). */
    read = new Set();
    written = new Set();
    /** Past its COMMIT's wait: its commit is queued for the writer, ahead of every later one. */
    committing = false;
    /** The block this one waits for now. */
    waitingFor = null;
    ended = false;
    #waiters = [];
    /** Resolves when the block ends, or after `ms`. */
    whenEnded(ms) {
        if (this.ended)
            return Promise.resolve();
        return new Promise((resolve) => {
            const timer = setTimeout(resolve, ms);
            this.#waiters.push(() => {
                clearTimeout(timer);
                resolve();
            });
        });
    }
    _end() {
        this.ended = true;
        for (const w of this.#waiters.splice(0))
            w();
    }
}
exports.BlockRows = BlockRows;
/** The claims of every open deferred block of one writer. */
class RowClaims {
    #claimants = new Map();
    /**
     * The rows of the blocks holding the writer's transaction (Writer.hold): other blocks' statements
     * are tried out inside it and would read their uncommitted writes, so their reads of rows one of
     * them wrote wait until it ends (or is preempted).
     */
    holders = new Set();
    /** Another open block that `block` must wait for before reading `key` (null: none, or waiting would deadlock). */
    #blockerOfRead(block, key) {
        const owners = this.#claimants.get(key);
        if (!owners)
            return null;
        for (const other of owners) {
            if (other === block || other.ended)
                continue;
            if ((other.written.has(key) || block.written.has(key)) && !this.#waitsFor(other, block))
                return other;
        }
        return null;
    }
    /**
     * Another open block that claims a row `block` writes (null: none, or waiting would deadlock). A
     * block past its COMMIT's wait that only writes the row is not waited for: its commit does not
     * depend on the row's value, and its claim is there to hold readers back.
     */
    #blockerOfCommit(block, except) {
        for (const key of block.written) {
            const owners = this.#claimants.get(key);
            if (!owners)
                continue;
            for (const other of owners) {
                if (other === block || other.ended || (other.committing && !other.read.has(key)) || except?.has(other))
                    continue;
                if (!this.#waitsFor(other, block))
                    return other;
            }
        }
        return null;
    }
    /** Whether `from` waits, directly or through others, for `to`. */
    #waitsFor(from, to) {
        for (let b = from, n = 0; b && n < 1000; b = b.waitingFor, n++)
            if (b === to)
                return true;
        return false;
    }
    /**
     * Waits while `blocker` names a block, then runs `free` in the same turn as the check that found
     * none (or once `limitMs` passed), so that no other block claims in between.
     */
    async #waitWhile(block, blocker, limitMs, free) {
        const until = Date.now() + limitMs;
        for (let other = blocker(); other && Date.now() < until; other = blocker()) {
            block.waitingFor = other;
            try {
                await other.whenEnded(until - Date.now());
            }
            finally {
                block.waitingFor = null;
            }
        }
        free();
    }
    #claim(block, key, read) {
        if (block.ended)
            return; // its connection closed while it waited
        if (read)
            block.read.add(key);
        let owners = this.#claimants.get(key);
        if (!owners)
            this.#claimants.set(key, (owners = new Set()));
        owners.add(block);
        block.claimed.add(key);
    }
    /**
     * Notes that `block` is about to run `row`'s statement. A read waits (at most `limitMs`) while
     * another block claims the row and one of the two writes it, then claims it. Returns null when
     * nothing had to wait.
     */
    note(block, row, limitMs) {
        if (!row.reads) {
            block.written.add(row.key);
            return null;
        }
        if (!this.#blockerOfRead(block, row.key)) {
            this.#claim(block, row.key, true);
            return null;
        }
        return this.#waitWhile(block, () => this.#blockerOfRead(block, row.key), limitMs, () => this.#claim(block, row.key, true));
    }
    /**
     * Whether `block`'s COMMIT would wait now (beforeCommit) for another block that claims a row it
     * writes, but for the blocks `except` (those sharing its held transaction: SharedRows orders them).
     */
    commitBlocked(block, except) {
        return this.#blockerOfCommit(block, except) !== null;
    }
    /**
     * Before `block`'s COMMIT: waits (at most `limitMs`) while another block claims a row it writes,
     * then claims the rows it writes until it ends, so that no block reads them between this check
     * and the commit. Returns null when nothing had to wait.
     */
    beforeCommit(block, limitMs) {
        const claimWritten = () => {
            block.committing = true;
            for (const key of block.written)
                this.#claim(block, key, false);
        };
        if (!this.#blockerOfCommit(block)) {
            claimWritten();
            return null;
        }
        return this.#waitWhile(block, () => this.#blockerOfCommit(block), limitMs, claimWritten);
    }
    /** The block ended (committed, failed, rolled back, or its connection closed): its claims go. */
    release(block) {
        for (const key of block.claimed) {
            const owners = this.#claimants.get(key);
            owners?.delete(block);
            if (owners?.size === 0)
                this.#claimants.delete(key);
        }
        block.claimed.clear();
        block._end();
    }
    /** How many rows are claimed (for tests of release). */
    get size() {
        return this.#claimants.size;
    }
}
exports.RowClaims = RowClaims;
const REGISTRIES = new WeakMap();
/** The claims of the blocks of one writer (`owner`: the engine's writer, shared by its sessions). */
function rowClaimsOf(owner) {
    let claims = REGISTRIES.get(owner);
    if (!claims)
        REGISTRIES.set(owner, (claims = new RowClaims()));
    return claims;
}
const SHARED = new WeakMap();
const INSERT = new RegExp(String.raw `^\s*INSERT\s+INTO\s+${IDENT}\s*(?:\([^()]*\))?\s*VALUES\s*\(([\s\S]*)\)\s*;?\s*$`, 'i');
/** Whether `table`'s writes check only its own key (see SharedShape). */
function keyOnly(schema, table) {
    const def = [...schema.tables.values()].find((t) => t.name.toLowerCase() === table);
    if (def?.primaryKey.length !== 1)
        return false;
    if (/\bREFERENCES\b/i.test(def.sql) || def.indexes.some((i) => i.unique && i.origin !== 'pk'))
        return false;
    const named = new RegExp(String.raw `\bREFERENCES\s+"?${table.replace(/[^A-Za-z0-9_$]/g, '\\$&')}"?\b`, 'i');
    return ![...schema.tables.values()].some((t) => named.test(t.sql));
}
/** The text between VALUES' parentheses is one row: no parenthesis closes to the top level before the end. */
function oneRow(values) {
    let depth = 0;
    for (let i = 0; i < values.length; i++) {
        const c = values[i];
        if (c === "'") {
            const end = values.indexOf("'", i + 1);
            if (end < 0)
                return false;
            i = end;
        }
        else if (c === '(')
            depth++;
        else if (c === ')' && --depth < 0)
            return false;
    }
    return depth === 0;
}
function sharedShapeOf(sql, schema) {
    if ((sql.match(/\bSELECT\b/gi)?.length ?? 0) > (/^\s*SELECT\b/i.test(sql) ? 1 : 0))
        return null;
    const point = shapeOf(sql, schema);
    if (point) {
        if (!point.reads) {
            if (!keyOnly(schema, point.table))
                return null;
            const set = /^\s*UPDATE\s+\S+\s+SET\s+([\s\S]+?)\s+WHERE\s/i.exec(sql);
            const key = singleKeys(schema).get(point.table);
            if (set && new RegExp(String.raw `(^|,)\s*"?${key}"?\s*=`, 'i').test(set[1]))
                return null;
        }
        return { insert: null };
    }
    const m = INSERT.exec(sql);
    if (!m || !oneRow(m[2]) || /\b(ON\s+CONFLICT|RETURNING)\b/i.test(sql))
        return null;
    const table = unquote(m[1]);
    const def = [...schema.tables.values()].find((t) => t.name.toLowerCase() === table);
    if (!def || !keyOnly(schema, table) || /WITHOUT\s+ROWID\s*;?\s*$/i.test(def.sql))
        return null;
    const q = (n) => `"${n.replace(/"/g, '""')}"`;
    return {
        insert: { table, keyQuery: `SELECT ${q(def.primaryKey[0])} FROM ${q(def.name)} WHERE rowid = last_insert_rowid()` },
    };
}
/** How a statement may run on a held transaction other blocks share; null when it may not (see SharedShape). */
function sharedShape(sql, schema) {
    let known = SHARED.get(schema);
    if (!known)
        SHARED.set(schema, (known = new lru_1.Lru(1024)));
    let shape = known.get(sql);
    if (shape === undefined)
        known.set(sql, (shape = sharedShapeOf(sql, schema)));
    return shape;
}
/**
 * The order the blocks sharing one held transaction must commit in, as far as their rows tell. They
 * commit together, in one SQLite COMMIT; what each was told must hold in some serial order of them,
 * also should the transaction be preempted and each go on deferred (then the row claims order them).
 * So a block never reads a row another of them wrote (it would be told what no order after a
 * preemption may keep: the read preempts first, and is tried out on the last commit); a block that
 * writes a row others wrote or read comes after them, and a write that would close a cycle of
 * such "after"s preempts too.
 */
class SharedRows {
    #after = new Map();
    /** Whether `a` comes after `b`, directly or through others. */
    #comesAfter(a, b) {
        const seen = new Set();
        const stack = [a];
        while (stack.length > 0) {
            const x = stack.pop();
            for (const y of this.#after.get(x) ?? []) {
                if (y === b)
                    return true;
                if (!seen.has(y)) {
                    seen.add(y);
                    stack.push(y);
                }
            }
        }
        return false;
    }
    /**
     * `block` (one of `sharing`) is about to read, or write, row `key` (a write is noted in its
     * BlockRows.written by the caller). False, noting nothing, when it may not: a read of a row another
     * wrote, or a write that would close a cycle.
     */
    touch(block, key, writes, sharing) {
        const before = [];
        for (const other of sharing) {
            if (other === block)
                continue;
            if (other.written.has(key)) {
                if (!writes)
                    return false;
                before.push(other);
            }
            else if (writes && other.read.has(key))
                before.push(other);
        }
        for (const b of before)
            if (this.#comesAfter(b, block))
                return false;
        if (before.length > 0) {
            let mine = this.#after.get(block);
            if (!mine)
                this.#after.set(block, (mine = new Set()));
            for (const b of before)
                mine.add(b);
        }
        return true;
    }
}
exports.SharedRows = SharedRows;
const SHARED_ROWS = new WeakMap();
/** The rows of the blocks sharing one held transaction (`held`: its Writer.hold identity). */
function sharedRowsOf(held) {
    let rows = SHARED_ROWS.get(held);
    if (!rows)
        SHARED_ROWS.set(held, (rows = new SharedRows()));
    return rows;
}
//# sourceMappingURL=row-claims.js.map