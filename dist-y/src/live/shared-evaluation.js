"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SharedEvaluator = void 0;
const values_1 = require("../engine/values");
const slicer_1 = require("./slicer");
const statement_cache_1 = require("./statement-cache");
const store_1 = require("./store");
/** Bound values per shared statement stay under SQLite's default limit of 32,766. */
const MAX_VARIABLES = 32000;
/** Prepared shared statements kept per connection (the least recently used go first). */
const MAX_STATEMENTS = 256;
/**
 * Evaluates woken restricted subscriptions of one SQL text with different parameters together (see
 * SharedPlan): per occurrence, every (subscription, changed key) pair goes into one statement of up
 * to 256 pairs, and their stored rows are looked up the same way; then each subscription's
 * changes are stored and logged as its own evaluation would have. A pair is exactly what that
 * subscription's own restricted query would have read, so the outcomes are the same.
 */
class SharedEvaluator {
    #store;
    #stmts = new statement_cache_1.StatementCache(MAX_STATEMENTS);
    /** Each subscription's parameter values in statement order (worked out once). */
    #values = new WeakMap();
    /** Whether a subscription holds a stored row built from a source row of a table, when that is known (see WakeIndex.holdsOn). */
    #holdsOn;
    constructor(store, holdsOn = () => null) {
        this.#store = store;
        this.#holdsOn = holdsOn;
    }
    /** The groups of two or more subscriptions that can share statements, by member. */
    static groups(subs) {
        const byKey = new Map();
        for (const s of subs) {
            const key = s.plan.mode === 'restricted' ? s.plan.shared?.key : undefined;
            if (key === undefined)
                continue;
            const g = byKey.get(key);
            if (g)
                g.push(s);
            else
                byKey.set(key, [s]);
        }
        const out = new Map();
        for (const g of byKey.values())
            if (g.length > 1)
                for (const s of g)
                    out.set(s, g);
        return out;
    }
    /**
     * What the changed keys did to each subscription of a group. Reads everything first (a read that
     * fails throws before anything is stored: the caller then evaluates them one by one); a
     * subscription whose store writes fail gets its error instead of an outcome.
     */
    async evaluate(db, subs, woken, now, slicer) {
        const plan = subs[0].plan;
        const shared = plan.shared;
        const ncols = plan.columns.length;
        const values = subs.map((s) => {
            let v = this.#values.get(s);
            if (!v)
                this.#values.set(s, (v = shared.values(s.plan.params)));
            return v;
        });
        const numberOf = new Map(subs.map((s, i) => [s.id, i]));
        // Only subscriptions a changed row affects get a map (most get none when many are woken).
        const affected = new Map();
        const entry = (i, key) => {
            let m = affected.get(i);
            if (!m)
                affected.set(i, (m = new Map()));
            let e = m.get(key);
            if (!e)
                m.set(key, (e = {}));
            return e;
        };
        for (let occ = 0; occ < plan.occurrences.length; occ++) {
            const table = plan.occurrences[occ].table.toLowerCase();
            const keysOf = subs.map((s) => woken.get(s)?.get(table));
            // Pairs are taken a statement's worth at a time, never gathered all at once: 100 woken
            // subscriptions of a 10,000-row changeset are a million pairs, too many for one slice.
            const fresh = freshPairs(keysOf);
            const per = pairsPer(shared.width(occ));
            for (let chunk = take(fresh, per); chunk.length > 0; chunk = take(fresh, per)) {
                let n = 1;
                while (n < chunk.length)
                    n *= 2;
                const args = [];
                for (let k = 0; k < n; k++) {
                    const [i, pk] = chunk[Math.min(k, chunk.length - 1)];
                    args.push(i);
                    for (const v of pk)
                        args.push(v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v);
                    for (const v of values[i])
                        args.push(v);
                }
                for (const row of this.#stmts.get(db, shared.sql(occ, n)).all(...args)) {
                    const i = Number(row[row.length - 1]);
                    entry(i, subs[i].identity(row)).now = (0, values_1.rowToJson)(row.slice(0, ncols));
                }
                await slicer.pause();
            }
            if (plan.occurrences.length === 1) {
                // One probe per changed key finds every subscription holding its row; only the pairs
                // woken count (a holder is always woken by its row's change). A key no woken subscription
                // may hold (a new row, for pinned ones: the wake index knows their rows) is not looked up.
                const distinct = new Set();
                let seen = 0;
                for (let i = 0; i < keysOf.length; i++) {
                    const k = keysOf[i];
                    if (!k)
                        continue;
                    const holds = this.#holdsOn(subs[i], table);
                    for (const key of k.keys()) {
                        if (!holds || holds(key))
                            distinct.add(key);
                        if (++seen % SLICE_STEP === 0)
                            await slicer.pause();
                    }
                }
                const keys = [...distinct];
                // A key may be held by every subscription of the group: keys per probe so that one probe
                // reads about ROWS_PER_PROBE stored rows at most, and the slice is checked between probes.
                const keysPer = Math.max(1, Math.min(store_1.MAX_PAIRS, Math.floor(ROWS_PER_PROBE / subs.length)));
                for (let at = 0; at < keys.length; at += keysPer) {
                    for (const r of this.#store.rowsByKeys(keys.slice(at, at + keysPer))) {
                        const i = numberOf.get(r.sub);
                        if (i !== undefined && keysOf[i]?.has(r.key))
                            entry(i, r.key).old = { rowId: r.rowId, key: r.key, cells: r.cells };
                    }
                    await slicer.pause();
                }
                continue;
            }
            const stored = storedPairs(subs, keysOf);
            for (let chunk = take(stored, store_1.MAX_PAIRS); chunk.length > 0; chunk = take(stored, store_1.MAX_PAIRS)) {
                for (const r of this.#store.refRowsByParts(occ, chunk))
                    entry(numberOf.get(r.sub), r.key).old = { rowId: r.rowId, key: r.key, cells: r.cells };
                await slicer.pause();
            }
        }
        const out = new Map();
        for (let i = 0; i < subs.length; i++) {
            const sub = subs[i];
            const mine = affected.get(i);
            if (!mine) {
                out.set(sub, { records: [], nextRowId: sub.nextRowId, lastChange: sub.lastChange });
                continue;
            }
            try {
                out.set(sub, await sub.resolveAll(mine, now, slicer));
            }
            catch (err) {
                if (err instanceof slicer_1.Abandoned)
                    throw err;
                out.set(sub, err instanceof Error ? err : new Error(String(err)));
            }
        }
        return out;
    }
}
exports.SharedEvaluator = SharedEvaluator;
/** Stored rows one probe of the store may read (a key's holders are up to the group's size). */
const ROWS_PER_PROBE = 2048;
/** Keys gone through between checks of the slice where a loop has no statement to pause after. */
const SLICE_STEP = 4096;
/** (subscription number, changed key) pairs of one table occurrence; a key with a NULL part matches nothing. */
function* freshPairs(keysOf) {
    for (let i = 0; i < keysOf.length; i++) {
        const keys = keysOf[i];
        if (keys)
            for (const pk of keys.values())
                if (pk.every((v) => v !== null))
                    yield [i, pk];
    }
}
/** (subscription id, changed key) pairs whose stored parts are looked up through refs. */
function* storedPairs(subs, keysOf) {
    for (let i = 0; i < keysOf.length; i++) {
        const keys = keysOf[i];
        if (keys)
            for (const part of keys.keys())
                yield [subs[i].id, part];
    }
}
/** Up to `n` next items of `it`. */
function take(it, n) {
    const out = [];
    while (out.length < n) {
        const r = it.next();
        if (r.done)
            break;
        out.push(r.value);
    }
    return out;
}
/** Pairs per shared statement: a power of two, at most 256, within SQLite's bound-variable limit. */
function pairsPer(width) {
    let n = store_1.MAX_PAIRS;
    while (n > 1 && n * width > MAX_VARIABLES)
        n /= 2;
    return n;
}
//# sourceMappingURL=shared-evaluation.js.map