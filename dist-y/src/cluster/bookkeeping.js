"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.VersionTxn = exports.VersionBook = exports.VERSION_TABLES_DDL = void 0;
exports.markRange = markRange;
exports.missingRanges = missingRanges;
exports.gapCount = gapCount;
exports.headsDigest = headsDigest;
const node_crypto_1 = require("node:crypto");
exports.VERSION_TABLES_DDL = [
    'CREATE TABLE IF NOT EXISTS __patina_versions (site_id BLOB NOT NULL PRIMARY KEY, head INTEGER NOT NULL) WITHOUT ROWID',
    'CREATE TABLE IF NOT EXISTS __patina_gaps (site_id BLOB NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL, PRIMARY KEY (site_id, start)) WITHOUT ROWID',
];
/**
 * Per origin agent, the versions merged here: the highest and the gaps below it. Kept in two tables
 * written inside the merge's own transaction (so a crash cannot lose a gap) and mirrored in memory;
 * the mirror changes only once that transaction has committed.
 */
class VersionBook {
    #origins = new Map();
    #db;
    #self;
    #localHead;
    #stamp = 0;
    constructor(db, self, localHead) {
        this.#db = db;
        this.#self = self;
        this.#localHead = localHead;
    }
    /** Creates the tables if needed (on the writer connection, outside any transaction) and loads them. */
    static open(db, selfHex, localHead) {
        for (const sql of exports.VERSION_TABLES_DDL)
            db.exec(sql);
        const book = new VersionBook(db, selfHex, localHead);
        for (const r of db.prepare('SELECT site_id, head FROM __patina_versions').all()) {
            book.#origins.set(r.site_id.toString('hex'), { head: Number(r.head), gaps: [] });
        }
        for (const r of db.prepare('SELECT site_id, start, "end" FROM __patina_gaps ORDER BY site_id, start').all()) {
            book.#origins.get(r.site_id.toString('hex'))?.gaps.push([Number(r.start), Number(r.end)]);
        }
        return book;
    }
    get self() {
        return this.#self;
    }
    get(actor) {
        // This agent's own versions are contiguous: 1..head, as change capture numbered them.
        if (actor === this.#self)
            return { head: this.#localHead(), gaps: [] };
        return this.#origins.get(actor) ?? { head: 0, gaps: [] };
    }
    /** True when version `v` of `actor` has been merged (or written) here. */
    has(actor, v) {
        const o = this.get(actor);
        if (v > o.head)
            return false;
        return !o.gaps.some(([s, e]) => v >= s && v <= e);
    }
    /** Every origin with its head and gaps, this agent included. */
    heads() {
        const out = {};
        for (const [a, o] of this.#origins)
            out[a] = { head: o.head, gaps: o.gaps.map((g) => [g[0], g[1]]) };
        out[this.#self] = { head: this.#localHead(), gaps: [] };
        return out;
    }
    /** Starts recording versions seen inside the caller's open transaction. */
    begin() {
        return new VersionTxn(this, this.#db);
    }
    /** Counts the changes to the mirror (not to this agent's own head): for caches of what heads() says. */
    get stamp() {
        return this.#stamp;
    }
    _commit(changed) {
        for (const [a, o] of changed)
            this.#origins.set(a, o);
        this.#stamp++;
    }
}
exports.VersionBook = VersionBook;
/** Versions marked seen inside one merge transaction; `commit()` after SQLite's COMMIT. */
class VersionTxn {
    #book;
    #db;
    #changed = new Map();
    constructor(book, db) {
        this.#book = book;
        this.#db = db;
    }
    has(actor, v) {
        const o = this.#changed.get(actor);
        if (!o)
            return this.#book.has(actor, v);
        return v <= o.head && !o.gaps.some(([s, e]) => v >= s && v <= e);
    }
    /** Marks versions from..to of `actor` seen and writes the bookkeeping rows. */
    mark(actor, from, to) {
        const old = this.#changed.get(actor) ?? this.#book.get(actor);
        const next = markRange(old, from, to);
        const site = Buffer.from(actor, 'hex');
        if (next.head !== old.head) {
            this.#db
                .prepare('INSERT INTO __patina_versions (site_id, head) VALUES (?, ?) ON CONFLICT (site_id) DO UPDATE SET head = excluded.head')
                .run(site, next.head);
        }
        const key = (r) => `${r[0]}:${r[1]}`;
        const before = new Set(old.gaps.map(key));
        const after = new Set(next.gaps.map(key));
        const del = this.#db.prepare('DELETE FROM __patina_gaps WHERE site_id = ? AND start = ?');
        const ins = this.#db.prepare('INSERT OR REPLACE INTO __patina_gaps (site_id, start, "end") VALUES (?, ?, ?)');
        for (const g of old.gaps)
            if (!after.has(key(g)))
                del.run(site, g[0]);
        for (const g of next.gaps)
            if (!before.has(key(g)))
                ins.run(site, g[0], g[1]);
        this.#changed.set(actor, next);
    }
    commit() {
        this.#book._commit(this.#changed);
    }
}
exports.VersionTxn = VersionTxn;
/** The versions of `o` with from..to added. */
function markRange(o, from, to) {
    const gaps = [];
    for (const [s, e] of o.gaps) {
        if (e < from || s > to)
            gaps.push([s, e]);
        else {
            if (s < from)
                gaps.push([s, from - 1]);
            if (e > to)
                gaps.push([to + 1, e]);
        }
    }
    let head = o.head;
    if (to > head) {
        if (from > head + 1)
            gaps.push([head + 1, from - 1]);
        head = to;
    }
    gaps.sort((x, y) => x[0] - y[0]);
    return { head, gaps };
}
/**
 * The ranges of versions that `have` holds and `want` lacks (want's gaps, and everything above its
 * head), at most `limit` versions in all.
 */
function missingRanges(have, want, limit = Infinity) {
    const lacks = [...want.gaps, [want.head + 1, Number.MAX_SAFE_INTEGER]];
    const out = [];
    let left = limit;
    for (const [s0, e0] of lacks) {
        const e1 = Math.min(e0, have.head);
        // subtract have's own gaps from s0..e1
        let s = s0;
        for (const [gs, ge] of have.gaps) {
            if (ge < s || gs > e1)
                continue;
            if (gs > s)
                left = push(out, s, gs - 1, left);
            s = ge + 1;
            if (left <= 0)
                return out;
        }
        if (s <= e1)
            left = push(out, s, e1, left);
        if (left <= 0)
            return out;
    }
    return out;
}
function push(out, s, e, left) {
    const n = Math.min(e - s + 1, left);
    if (n > 0)
        out.push([s, s + n - 1]);
    return left - Math.max(n, 0);
}
/** Versions missing in `o`: the gaps, counted. */
function gapCount(o) {
    return o.gaps.reduce((n, [s, e]) => n + e - s + 1, 0);
}
/**
 * A digest of heads (per origin, the head and the gaps below it): two agents that hold the same
 * versions have the same digest. Origins with nothing (head 0, no gaps) are left out, so an origin
 * one agent merely named does not make a difference.
 */
function headsDigest(heads) {
    const h = (0, node_crypto_1.createHash)('sha1');
    for (const actor of Object.keys(heads).sort()) {
        const o = heads[actor];
        if (!o || (o.head === 0 && o.gaps.length === 0))
            continue;
        h.update(`${actor}:${o.head}`);
        for (const [s, e] of o.gaps)
            h.update(`,${s}-${e}`);
        h.update(';');
    }
    return h.digest('base64').slice(0, 16);
}
//# sourceMappingURL=bookkeeping.js.map