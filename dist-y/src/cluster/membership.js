"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.Membership = void 0;
const node_fs_1 = __importDefault(require("node:fs"));
const log_1 = require("../observability/log");
const swim_1 = require("./swim");
const transport_1 = require("./transport");
/**
 * Who is in the cluster and who answers: SWIM (src/cluster/swim.ts) over the peer transport. Each
 * period this agent probes one member, asks others to probe it when it does not answer, and
 * suspects it, then takes it for down, when none can reach it; changes ride on the probes, and
 * urgent ones (suspicions, deaths, refutations) also go to 3 random members every 200 ms. The
 * whole list travels only when an agent joins and in a push-pull every 30 s. SIGTERM announces the
 * departure. Members are saved to a file beside the database, so a restarted agent rejoins by itself.
 */
class Membership {
    #t;
    #opts;
    #file;
    #core;
    #seeds;
    #timer = null;
    #gossipTimer = null;
    #saveTimer = null;
    /** Called when a peer comes up (first answer, or back from down): sync with it soon. */
    onUp = () => { };
    /** Called when a peer goes down or leaves. */
    onDown = () => { };
    constructor(transport, selfActor, file, bootstrap, opts) {
        this.#t = transport;
        this.#opts = opts;
        this.#file = file;
        this.#core = new swim_1.SwimCore({ addr: '', actor: selfActor }, { send: (addr, msg, timeoutMs) => this.#send(addr, msg, timeoutMs) }, {
            periodMs: opts.intervalMs,
            timeoutMs: opts.timeoutMs,
            suspicionMult: opts.downAfter,
            downProbeMs: opts.downProbeMs,
            forgetAfterMs: opts.forgetAfterMs,
        });
        this.#core.onUp = (m) => this.onUp(view(m));
        this.#core.onDown = (m) => this.onDown(view(m));
        this.#core.onChange = () => this.#save();
        this.#seeds = [...this.#load().map((m) => m.addr), ...bootstrap];
        for (const m of this.#load())
            this.#core.know(m.addr, m.actor);
        for (const b of bootstrap)
            this.#core.know(b, '');
    }
    start() {
        // Our own address is known once the transport listens; drop ourselves if saved under it.
        this.#core.self.addr = this.#t.addr;
        this.#core.members.delete(this.#t.addr);
        this.#timer = setInterval(() => void this.#core.tick().catch(() => undefined), this.#opts.intervalMs);
        this.#timer.unref();
        // urgent changes (suspicions, deaths, refutations) between probes; nothing is sent when none is queued
        const gossipMs = this.#core.opts.gossipMs;
        if (gossipMs > 0) {
            this.#gossipTimer = setInterval(() => void this.#core.gossip().catch(() => undefined), gossipMs);
            this.#gossipTimer.unref();
        }
        void this.#core.join(this.#seeds.filter((a) => a !== this.#t.addr)).then((joined) => {
            if (!joined && this.#seeds.length > 0)
                log_1.log.info({ seeds: this.#seeds }, 'cluster: no seed answered yet');
        });
    }
    /** Every peer that answers, for sending to. */
    alive() {
        return this.#core.up().map(view);
    }
    /** Whether `addr` is known to be down or to have left (an unknown address is not). */
    gone(addr) {
        const s = this.#core.members.get(addr)?.state;
        return s === 'down' || s === 'left';
    }
    all() {
        return [...this.#core.members.values()].map(view).sort((a, b) => a.addr.localeCompare(b.addr));
    }
    /** The SWIM message handler (route `ping`): probes, indirect probes, joins and departures. */
    handlePing(body, from) {
        const msg = body;
        if (!msg || typeof msg !== 'object' || typeof msg.t !== 'string' || !msg.from) {
            // an older agent's ping: it is alive; answer in the new form
            if (from.addr)
                this.#core.heard(from.addr, from.actor);
            return this.#core.handle({
                t: 'ping',
                from: { s: 'alive', addr: from.addr, actor: from.actor, inc: 0 },
                updates: [],
            });
        }
        // the transport's headers name the sender; its message must not claim to be someone else
        if (from.addr && msg.from.addr !== from.addr)
            msg.from = { ...msg.from, addr: from.addr };
        return this.#core.handle(msg);
    }
    /** Notes that a peer answered some other request. */
    heardFrom(addr, actor) {
        if (addr)
            this.#core.heard(addr, actor);
    }
    /** Drops a member that will not return (`patina cluster forget`); the others hear it left. */
    forget(addr) {
        return this.#core.forget(addr);
    }
    /** A digest of this agent's replication state, sent on every membership message and answer. */
    set stateDigest(f) {
        this.#core.meta = f;
    }
    /** Called with the state digest a peer sent on a membership message or answer. */
    set onStateDigest(f) {
        this.#core.onMeta = f;
    }
    /** Messages and bytes of membership this agent sent. */
    get traffic() {
        return { ...this.#core.stats };
    }
    async #send(addr, msg, timeoutMs) {
        try {
            return (await this.#t.call(addr, 'ping', msg, timeoutMs));
        }
        catch (err) {
            if (err instanceof transport_1.ClusterMismatch && this.#core.members.delete(addr)) {
                // Another cluster's agent: forget it (it refuses our changes and we refuse its).
                log_1.log.warn({ peer: addr }, `cluster: ${err.message}; not a member`);
                this.#save();
            }
            throw err;
        }
    }
    #load() {
        if (!this.#file)
            return [];
        try {
            const saved = JSON.parse(node_fs_1.default.readFileSync(this.#file, 'utf8'));
            return saved.members ?? [];
        }
        catch {
            return [];
        }
    }
    /** Saves the member list soon (coalesced), atomically. */
    #save() {
        if (!this.#file || this.#saveTimer)
            return;
        this.#saveTimer = setTimeout(() => {
            this.#saveTimer = null;
            this.saveNow();
        }, 200);
        this.#saveTimer.unref();
    }
    saveNow() {
        if (!this.#file)
            return;
        const tmp = `${this.#file}.tmp`;
        try {
            const keep = [...this.#core.members.values()].filter((m) => m.state !== 'left');
            node_fs_1.default.writeFileSync(tmp, JSON.stringify({ members: keep.map((m) => ({ addr: m.addr, actor: m.actor })) }, null, 1));
            node_fs_1.default.renameSync(tmp, this.#file);
        }
        catch {
            // best effort: the bootstrap list still works
        }
    }
    /** Announces the departure (briefly), stops probing and saves the list. */
    async stop() {
        if (this.#timer)
            clearInterval(this.#timer);
        if (this.#gossipTimer)
            clearInterval(this.#gossipTimer);
        this.#timer = null;
        this.#gossipTimer = null;
        await this.#core.leave(500).catch(() => undefined);
        // keep answering (as departed) for a period, so a member probing us now hears that we left
        await new Promise((r) => setTimeout(r, Math.min(1000, this.#opts.intervalMs)));
        if (this.#saveTimer)
            clearTimeout(this.#saveTimer);
        this.#saveTimer = null;
        this.saveNow();
    }
}
exports.Membership = Membership;
function view(m) {
    return {
        addr: m.addr,
        actor: m.actor,
        state: m.state === 'alive' && m.lastSeen === 0 ? 'joining' : m.state,
        rttMs: m.state === 'down' || m.state === 'left' ? null : m.rttMs,
        lastSeen: m.lastSeen,
        failures: m.failures,
    };
}
//# sourceMappingURL=membership.js.map