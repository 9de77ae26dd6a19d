"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ClusterIds = void 0;
const errors_1 = require("../errors");
/** Bits of an id that count; the rest (23) are the agent's tag. */
const COUNTER_BITS = 40n;
const COUNTER_LIMIT = 1n << COUNTER_BITS;
/** How far past the last id handed out the kept high-water mark goes, so most commits write none. */
const RESERVE = 1024n;
/**
 * patina_id(): keys no other agent makes, for INSERTs and column DEFAULTs (the key rule, key-rule.ts).
 * A 63-bit positive integer: the agent's 23-bit tag (from its site id) above a 40-bit counter of its
 * own. The counter's high-water mark is written with the data in the transaction that used it, so
 * after a crash the agent never hands out an id it had already stored. Two agents share a tag with
 * probability about n^2 / 2^24 for n agents; health's `patina_id.shared_with` names such peers.
 */
class ClusterIds {
    tag;
    #next;
    #persisted;
    #persist;
    /** `stored` is the high-water mark kept with the data (null before any id). */
    constructor(siteId, stored, persist) {
        this.tag = ClusterIds.tagOf(siteId);
        this.#next = stored ?? 1n;
        this.#persisted = this.#next;
        this.#persist = persist;
    }
    /** The 23-bit tag of a site id. */
    static tagOf(siteId) {
        return BigInt(((siteId[0] << 16) | (siteId[1] << 8) | siteId[2]) & 0x7fffff);
    }
    /** The next id. */
    next() {
        if (this.#next >= COUNTER_LIMIT)
            throw new errors_1.PatinaError('internal', 'patina_id(): this agent has used all 2^40 of its ids');
        return (this.tag << COUNTER_BITS) | this.#next++;
    }
    /** Inside a write transaction, before COMMIT: keeps the high-water mark with the data. */
    beforeCommit() {
        if (this.#next <= this.#persisted)
            return;
        this.#persisted = this.#next + RESERVE;
        this.#persist(this.#persisted);
    }
}
exports.ClusterIds = ClusterIds;
//# sourceMappingURL=cluster-ids.js.map