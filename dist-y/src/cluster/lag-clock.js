"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LagClock = void 0;
/**
 * Replication lag in seconds: per origin, since when this agent has known of a version it still
 * lacks. A version becomes known when a peer's heads name it (sync, either way) or a pushed
 * changeset carries it; its age is counted from then, since versions carry no commit time.
 */
class LagClock {
    /** Per origin: (highest version heard, when first heard) in increasing order, only while missing. */
    #heard = new Map();
    #have;
    constructor(have) {
        this.#have = have;
    }
    /** Notes that `actor` has written versions up to `head`, as a peer says now. */
    heard(actor, head, now = Date.now()) {
        const list = this.#pruned(actor);
        if (head < firstMissing(this.#have(actor)))
            return;
        if (list.length === 0 || list[list.length - 1][0] < head)
            list.push([head, now]);
        this.#heard.set(actor, list);
    }
    /** Seconds since this agent first knew of the oldest version of `actor` it still lacks; 0 when it lacks none it heard of. */
    seconds(actor, now = Date.now()) {
        const list = this.#pruned(actor);
        return list.length === 0 ? 0 : Math.max(0, now - list[0][1]) / 1000;
    }
    /** Every origin that lags, with its seconds. */
    all(now = Date.now()) {
        const out = new Map();
        for (const actor of [...this.#heard.keys()]) {
            const s = this.seconds(actor, now);
            if (s > 0)
                out.set(actor, s);
        }
        return out;
    }
    #pruned(actor) {
        const list = this.#heard.get(actor);
        if (!list)
            return [];
        const first = firstMissing(this.#have(actor));
        let i = 0;
        while (i < list.length && list[i][0] < first)
            i++;
        if (i > 0)
            list.splice(0, i);
        if (list.length === 0)
            this.#heard.delete(actor);
        return list;
    }
}
exports.LagClock = LagClock;
/** The lowest version of an origin not held here. */
function firstMissing(o) {
    return o.gaps.length > 0 ? o.gaps[0][0] : o.head + 1;
}
//# sourceMappingURL=lag-clock.js.map