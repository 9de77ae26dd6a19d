"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SimCluster = void 0;
// A cluster of SWIM members in one process: the real protocol code (src/cluster/swim.ts) over a
// simulated network on a virtual clock. Events run in time order: each member ticks once a period at
// its own phase (as agents started at different moments do) and gossips every gossipMs, a message takes `latencyMs` each way
// and is lost with probability `loss` each way, and a request whose answer has not come back by its
// timeout fails then (a dead member never answers). Seeded: the same seed gives the same run.
const swim_1 = require("../../src/cluster/swim");
class SimCluster {
    /** The virtual clock, ms. */
    now = 0;
    nodes = [];
    byAddr = new Map();
    dead = new Set();
    /** Probability that a message (each way) is lost. */
    loss = 0;
    /** One-way delay of every message, ms. */
    latencyMs = 0;
    /** A network partition: messages between two addresses it separates are dropped (null: none). */
    partition = null;
    periodMs;
    #seed;
    #seq = 0;
    #heap = [];
    constructor(n, opts = {}, seed = 1) {
        this.#seed = seed;
        const net = { send: (addr, msg, timeoutMs) => this.#send(addr, msg, timeoutMs) };
        for (let i = 0; i < n; i++) {
            const addr = `10.0.${i >> 8}.${i & 255}:8787`;
            const node = new swim_1.SwimCore({ addr, actor: `a${i}` }, net, {
                ...opts,
                now: () => this.now,
                random: () => this.random(),
            });
            this.nodes.push(node);
            this.byAddr.set(addr, node);
        }
        this.periodMs = this.nodes[0]?.opts.periodMs ?? 1000;
        for (const node of this.nodes) {
            const tick = () => {
                if (!this.dead.has(node.self.addr))
                    void node.tick().catch(() => undefined);
                this.at(this.now + this.periodMs, tick);
            };
            this.at(Math.floor(this.random() * this.periodMs), tick);
            const gossipMs = node.opts.gossipMs;
            if (gossipMs > 0) {
                const gossip = () => {
                    if (!this.dead.has(node.self.addr))
                        void node.gossip().catch(() => undefined);
                    this.at(this.now + gossipMs, gossip);
                };
                this.at(Math.floor(this.random() * gossipMs), gossip);
            }
        }
    }
    /** A deterministic generator (mulberry32), so a run can be repeated. */
    random() {
        this.#seed = (this.#seed + 0x6d2b79f5) | 0;
        let t = this.#seed;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }
    live() {
        return this.nodes.filter((n) => !this.dead.has(n.self.addr));
    }
    /** Runs `run` at virtual time `at` (ms). */
    at(at, run) {
        const h = this.#heap;
        h.push({ at, seq: this.#seq++, run });
        let i = h.length - 1;
        while (i > 0) {
            const p = (i - 1) >> 1;
            if (!before(h[i], h[p]))
                break;
            [h[i], h[p]] = [h[p], h[i]];
            i = p;
        }
    }
    #pop() {
        const h = this.#heap;
        const top = h[0];
        const last = h.pop();
        if (h.length > 0) {
            h[0] = last;
            let i = 0;
            for (;;) {
                const l = 2 * i + 1;
                const r = l + 1;
                let m = i;
                if (l < h.length && before(h[l], h[m]))
                    m = l;
                if (r < h.length && before(h[r], h[m]))
                    m = r;
                if (m === i)
                    break;
                [h[i], h[m]] = [h[m], h[i]];
                i = m;
            }
        }
        return top;
    }
    /**
     * Runs the cluster for `ms` of virtual time. The events of one instant run, then every promise
     * they settled runs on (what it sends is scheduled from this instant) before the clock moves.
     */
    async run(ms) {
        const end = this.now + ms;
        while (this.#heap.length > 0 && this.#heap[0].at <= end) {
            const t = this.#heap[0].at;
            this.now = t;
            while (this.#heap.length > 0 && this.#heap[0].at === t)
                this.#pop().run();
            await new Promise((r) => setImmediate(r));
        }
        this.now = end;
    }
    /** One protocol period of virtual time (every live member ticks once). */
    period() {
        return this.run(this.periodMs);
    }
    /** Runs periods until `done` holds (or `max` periods): how many it took, or -1. */
    async until(done, max) {
        for (let p = 1; p <= max; p++) {
            await this.period();
            if (done())
                return p;
        }
        return -1;
    }
    /** Runs the cluster until `work` (something a member started: a join, a departure) is done. */
    async complete(work) {
        let done = false;
        const settled = work.finally(() => {
            done = true;
        });
        while (!done)
            await this.run(10);
        return settled;
    }
    /** Runs in steps of `stepMs` until `done` holds (or `maxMs` passed): the virtual ms it took, or -1. */
    async untilMs(done, maxMs, stepMs = 10) {
        const t0 = this.now;
        while (this.now - t0 < maxMs) {
            await this.run(stepMs);
            if (done())
                return this.now - t0;
        }
        return -1;
    }
    /** Messages and bytes sent by the live members so far. */
    traffic() {
        let sent = 0;
        let bytes = 0;
        for (const n of this.live()) {
            sent += n.stats.sent;
            bytes += n.stats.bytes;
        }
        return { sent, bytes };
    }
    #send(addr, msg, timeoutMs) {
        const to = this.byAddr.get(addr);
        if (this.partition?.(msg.from.addr, addr))
            return this.request('', () => msg, timeoutMs); // never answered
        return this.request(addr, () => to.handle(msg), timeoutMs);
    }
    /**
     * A request to member `addr` over the simulated network: `handle` runs there after the one-way
     * delay (unless the request is lost or the member dead) and its answer comes back the same way;
     * the request fails at its timeout when no answer came. Over a `stream` (the agents' TCP
     * connections, which carry pushes) a lost message is not lost but late: TCP resends it after its
     * retransmission timeout (200 ms at least on Linux, doubling each time it is lost again).
     */
    request(addr, handle, timeoutMs, stream = false) {
        return new Promise((resolve, reject) => {
            let settled = false;
            this.at(this.now + timeoutMs, () => {
                if (settled)
                    return;
                settled = true;
                reject(new Error('timeout'));
            });
            // a message is lost; over a stream (TCP) it is resent instead, after the retransmission timeout
            const delay = () => {
                if (!stream)
                    return this.random() < this.loss ? null : this.latencyMs;
                let d = this.latencyMs;
                for (let rto = TCP_MIN_RTO_MS; this.random() < this.loss; rto *= 2)
                    d += rto;
                return d;
            };
            const there = delay();
            if (!this.byAddr.has(addr) || there === null)
                return;
            this.at(this.now + there, () => {
                if (this.dead.has(addr))
                    return;
                void Promise.resolve(handle()).then((reply) => {
                    const back = delay();
                    if (this.dead.has(addr) || back === null)
                        return;
                    this.at(this.now + back, () => {
                        if (settled)
                            return;
                        settled = true;
                        resolve(reply);
                    });
                });
            });
        });
    }
}
exports.SimCluster = SimCluster;
function before(a, b) {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
/** Linux's smallest TCP retransmission timeout (TCP_RTO_MIN). */
const TCP_MIN_RTO_MS = 200;
//# sourceMappingURL=swim-sim.js.map