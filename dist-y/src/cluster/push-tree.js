"use strict";
/**
 * The shape of the push tree (src/cluster/cluster.ts sends along it; the simulation in
 * bench/cluster.bench.ts runs it over a simulated network).
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.pushFanout = pushFanout;
exports.pushGroups = pushGroups;
/**
 * Branches of the push tree at each agent with `alive` alive peers: every peer up to `pushDirect`
 * (32), so a cluster of up to 33 agents gets a write in one hop and one of 1,000 in two; beyond, and
 * at least, ln(N) + 1 and `fanout`. A hop costs a process woken on a busy machine (11 ms p50, 27 p90
 * at 24 agents on 2 cores); a copy more from one sender costs it a fraction of a millisecond.
 */
function pushFanout(alive, tune) {
    const n = alive + 1;
    return Math.max(2, tune.fanout, Math.ceil(Math.log(n)) + 1, Math.min(n - 1, tune.pushDirect));
}
/**
 * The part of the tree an agent covers, `peers`, cut into `groups`: the first of each group gets
 * the changeset with the rest of its group (`cover`) to cut and pass on the same way.
 */
function pushGroups(peers, groups) {
    const out = [];
    const g = Math.min(groups, peers.length);
    for (let i = 0; i < g; i++) {
        const lo = Math.floor((i * peers.length) / g);
        const hi = Math.floor(((i + 1) * peers.length) / g);
        out.push({ addr: peers[lo], cover: peers.slice(lo + 1, hi) });
    }
    return out;
}
//# sourceMappingURL=push-tree.js.map