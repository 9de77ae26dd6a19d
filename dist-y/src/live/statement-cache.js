"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.StatementCache = void 0;
const lru_1 = require("../lru");
/**
 * Prepared raw statements by SQL text, per connection, at most `max` per connection (the least
 * recently used dropped first): for SQL that many subscriptions share, prepared once, not once each.
 */
class StatementCache {
    #max;
    #byDb = new WeakMap();
    constructor(max) {
        this.#max = max;
    }
    /** The statement of `sql` on `db`; a fresh one while the cached one is still being iterated. */
    get(db, sql) {
        let stmts = this.#byDb.get(db);
        if (!stmts)
            this.#byDb.set(db, (stmts = new lru_1.Lru(this.#max)));
        const st = stmts.get(sql);
        if (st?.busy)
            return db.prepare(sql).raw(true);
        if (st)
            return st;
        const fresh = db.prepare(sql).raw(true);
        stmts.set(sql, fresh);
        return fresh;
    }
}
exports.StatementCache = StatementCache;
//# sourceMappingURL=statement-cache.js.map