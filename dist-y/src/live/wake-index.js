"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.WakeIndex = void 0;
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const keys_1 = require("./keys");
const lru_1 = require("../lru");
/**
 * Which subscriptions a changed row can concern. A subscription whose WHERE pins a column (or an
 * expression of the row) of a table to one value (`col = ?`) or a list (`col IN (?, ?)`) is woken by a change of that table only when the row's new value
 * is one of them, or when its result holds the row now (the old value matched); every other
 * subscription is woken by every change of the tables it reads. The cost of a changed row then
 * follows the subscriptions it can concern, not all subscriptions of its table.
 */
class WakeIndex {
    #tables = new Map();
    /** Per subscription, how it listens to each table, and which occurrence feeds the holders. */
    #subs = new Map();
    /** Adds a subscription; `rows` are the identity keys of its stored result (for pinned tables). */
    add(sub, rows) {
        const listening = new Map();
        const occ = new Map();
        const plan = sub.plan;
        for (const t of plan.tables)
            listening.set(t, { sub, column: null, values: null });
        for (const e of plan.equalities) {
            const table = plan.occurrences[e.occ].table.toLowerCase();
            // Only when the table appears once: a self-join's other occurrence is not pinned.
            if (plan.occurrences.filter((o) => o.table.toLowerCase() === table).length !== 1)
                continue;
            if (listening.get(table)?.column !== null)
                continue;
            let expr;
            if (e.expr !== undefined) {
                const stmt = this.#evaluator(e.expr);
                if (!stmt)
                    continue;
                expr = { stmt, columns: e.columns, wholeAs: e.wholeAs };
            }
            const values = [...new Set(e.values.map((v) => (0, keys_1.encodeKey)([v])))];
            listening.set(table, { sub, column: e.column, values, expr });
            occ.set(table, e.occ);
        }
        this.#subs.set(sub, { listening, occ });
        for (const [t, l] of listening) {
            const entry = this.#entry(t);
            if (l.column === null) {
                entry.all.add(sub);
                continue;
            }
            let byValue;
            if (l.expr) {
                let x = entry.byExpr.get(l.column);
                if (!x)
                    entry.byExpr.set(l.column, (x = { ...l.expr, values: new Map() }));
                byValue = x.values;
            }
            else {
                let values = entry.byValue.get(l.column);
                if (!values)
                    entry.byValue.set(l.column, (values = new Map()));
                byValue = values;
            }
            for (const v of l.values) {
                let subs = byValue.get(v);
                if (!subs)
                    byValue.set(v, (subs = new Set()));
                subs.add(sub);
            }
        }
        if (occ.size > 0)
            for (const key of rows())
                this.rowAdded(sub, key);
    }
    /** Removes a subscription (its holders by a sweep: removal is rare, and its rows may be half written). */
    remove(sub) {
        const s = this.#subs.get(sub);
        if (!s)
            return;
        for (const t of s.occ.keys()) {
            const holders = this.#tables.get(t)?.holders;
            if (!holders)
                continue;
            for (const [part, h] of holders) {
                if (h === sub)
                    holders.delete(part);
                else if (h instanceof Map && h.delete(sub) && h.size === 0)
                    holders.delete(part);
            }
        }
        this.#subs.delete(sub);
        for (const [t, l] of s.listening) {
            const entry = this.#tables.get(t);
            if (!entry)
                continue;
            if (l.column === null) {
                entry.all.delete(sub);
            }
            else {
                const byValue = l.expr ? entry.byExpr.get(l.column)?.values : entry.byValue.get(l.column);
                for (const v of l.values) {
                    const subs = byValue?.get(v);
                    subs?.delete(sub);
                    if (subs && subs.size === 0)
                        byValue.delete(v);
                }
                if (byValue && byValue.size === 0) {
                    if (l.expr)
                        entry.byExpr.delete(l.column);
                    else
                        entry.byValue.delete(l.column);
                }
            }
            if (entry.all.size === 0 && entry.byValue.size === 0 && entry.byExpr.size === 0 && entry.holders.size === 0)
                this.#tables.delete(t);
        }
    }
    /** Whether any subscription reads this table. */
    reads(table) {
        return this.#tables.has(table);
    }
    /** A row with this identity key entered a subscription's stored result. */
    rowAdded(sub, key) {
        this.#hold(sub, key, 1);
    }
    /** A row with this identity key left a subscription's stored result. */
    rowRemoved(sub, key) {
        this.#hold(sub, key, -1);
    }
    /** Whether a subscription keeps holders (it has a pinned table). */
    tracksRows(sub) {
        return (this.#subs.get(sub)?.occ.size ?? 0) > 0;
    }
    /**
     * The changed keys each woken subscription must look at, for changes in commit order. Subscriptions
     * woken for every change of a table share one map of that table's keys.
     */
    wake(changes) {
        const all = new Map();
        const out = new Map();
        for (const c of changes) {
            const t = c.table.toLowerCase();
            const entry = this.#tables.get(t);
            if (!entry)
                continue;
            const key = (0, keys_1.encodeKey)(c.pk);
            const pk = c.pk;
            if (entry.all.size > 0) {
                let keys = all.get(t);
                if (!keys)
                    all.set(t, (keys = new Map()));
                keys.set(key, pk);
            }
            const row = c.values;
            if (row) {
                for (const [column, values] of entry.byValue) {
                    const v = row[column];
                    if (v === null || v === undefined)
                        continue; // NULL equals nothing
                    const subs = values.get((0, keys_1.encodeValue)(v));
                    if (subs)
                        for (const s of subs)
                            addKey(out, s, t, key, pk);
                }
                // each distinct expression evaluated once for the row, its value looked up
                for (const x of entry.byExpr.values()) {
                    let v;
                    try {
                        const args = {};
                        for (let k = 0; k < x.columns.length; k++) {
                            let a = row[x.columns[k]] ?? null;
                            if (typeof a === 'number' && Number.isInteger(a)) {
                                // bound as it is stored: a whole number is INTEGER unless the column keeps REAL
                                if (x.wholeAs[k] === 'any')
                                    throw new Error('INTEGER or REAL: the changeset does not say');
                                if (x.wholeAs[k] === 'integer')
                                    a = BigInt(a);
                            }
                            args[`c${k + 1}`] = a;
                        }
                        v = x.stmt.get(args);
                    }
                    catch {
                        // the query itself will say what is wrong with this row: wake every subscription of the expression
                        for (const subs of x.values.values())
                            for (const s of subs)
                                addKey(out, s, t, key, pk);
                        continue;
                    }
                    if (v === null || v === undefined)
                        continue;
                    const subs = x.values.get((0, keys_1.encodeValue)(v));
                    if (subs)
                        for (const s of subs)
                            addKey(out, s, t, key, pk);
                }
            }
            const h = entry.holders.get(key);
            if (h instanceof Map)
                for (const s of h.keys())
                    addKey(out, s, t, key, pk);
            else if (h !== undefined)
                addKey(out, h, t, key, pk);
        }
        for (const [t, keys] of all)
            for (const s of this.#tables.get(t).all) {
                let ck = out.get(s);
                if (!ck)
                    out.set(s, (ck = new Map()));
                ck.set(t, keys);
            }
        this.#shared = all;
        return out;
    }
    /** The maps of changed keys the last wake shares among subscriptions woken by every change of a table. */
    #shared = new Map();
    /** Whether some map of `keys` (from the last wake) is shared with other subscriptions: copy it before changing it. */
    shares(keys) {
        for (const [t, m] of keys)
            if (this.#shared.get(t) === m)
                return true;
        return false;
    }
    /**
     * For a subscription whose holders the index keeps on `table` (it is pinned there): whether its
     * stored result holds a row built from a given source row of that table. Null for others (any
     * stored row may have been): then the store must be asked.
     */
    holdsOn(sub, table) {
        if (!this.#subs.get(sub)?.occ.has(table))
            return null;
        const holders = this.#entry(table).holders;
        return (key) => {
            const h = holders.get(key);
            return h === sub || (h instanceof Map && h.has(sub));
        };
    }
    #entry(t) {
        let e = this.#tables.get(t);
        if (!e)
            this.#tables.set(t, (e = { all: new Set(), byValue: new Map(), byExpr: new Map(), holders: new Map() }));
        return e;
    }
    /** A connection of its own that evaluates row expressions (no table: only the values bound). */
    #db = null;
    #evaluators = new lru_1.Lru(4096);
    /** The statement that evaluates `expr` on bound column values; null when SQLite will not prepare it. */
    #evaluator(expr) {
        let st = this.#evaluators.get(expr);
        if (st !== undefined)
            return st;
        if (!this.#db) {
            this.#db = new better_sqlite3_1.default(':memory:');
            this.#db.defaultSafeIntegers(true);
        }
        try {
            st = this.#db.prepare(`SELECT ${expr}`).pluck();
        }
        catch {
            st = null; // then the subscription is woken by every change, as before
        }
        this.#evaluators.set(expr, st);
        return st;
    }
    #hold(sub, identity, delta) {
        const s = this.#subs.get(sub);
        if (!s || s.occ.size === 0)
            return;
        if (sub.plan.occurrences.length === 1) {
            // a single table's row: its identity is the source key
            for (const t of s.occ.keys())
                hold(this.#entry(t).holders, identity, sub, delta);
            return;
        }
        const parts = sub.identityParts(identity);
        for (const [t, occ] of s.occ)
            hold(this.#entry(t).holders, parts[occ], sub, delta);
    }
}
exports.WakeIndex = WakeIndex;
/** Adds a changed key to what a subscription must look at. */
function addKey(out, sub, table, key, pk) {
    let ck = out.get(sub);
    if (!ck)
        out.set(sub, (ck = new Map()));
    let keys = ck.get(table);
    if (!keys)
        ck.set(table, (keys = new Map()));
    keys.set(key, pk);
}
/** Counts `delta` more (or fewer) rows of `sub` built from source row `part`. */
function hold(holders, part, sub, delta) {
    const h = holders.get(part);
    if (h === undefined) {
        if (delta > 0)
            holders.set(part, delta === 1 ? sub : new Map([[sub, delta]]));
    }
    else if (h instanceof Map) {
        const n = (h.get(sub) ?? 0) + delta;
        if (n > 0)
            h.set(sub, n);
        else
            h.delete(sub);
        if (h.size === 0)
            holders.delete(part);
    }
    else if (h === sub) {
        if (delta < 0)
            holders.delete(part);
        else if (delta > 0)
            holders.set(part, new Map([[sub, 1 + delta]]));
    }
    else if (delta > 0) {
        holders.set(part, new Map([
            [h, 1],
            [sub, delta],
        ]));
    }
}
//# sourceMappingURL=wake-index.js.map