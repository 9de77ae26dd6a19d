"use strict";
/**
 * SWIM membership (Das, Gupta, Motivala 2002), as HashiCorp's memberlist runs it, over any transport
 * that can send a message and wait for its answer. It knows nothing of sockets or timers: the owner
 * calls `tick()` once per protocol period and hands it incoming messages, so the same code runs in
 * the agent (src/cluster/membership.ts) and in the 1,000-agent simulation (test/cluster/swim-simulation).
 *
 * - Each period one probe, to the next member of a shuffled round-robin list. No answer within the
 *   timeout: `k` other members are asked to probe it (ping-req). Still no answer: it is suspect.
 * - A suspect member that stays so for the suspicion timeout is down: `suspicionMult` periods times
 *   log10 of the cluster size when `suspicionMult - 2` other members confirmed the suspicion (each
 *   counted once, by its address on the suspicion), up to `suspicionMaxMult` times that when none
 *   did (Lifeguard, as memberlist computes it). Incarnation numbers order what is said of a member; a
 *   member that hears itself suspected or declared down refutes it with a higher incarnation.
 * - Membership changes ride on probes and answers, at most `maxPiggyback` a message, each sent about
 *   `retransmitMult` · log10(N+1) times, fewest-sent first, urgent ones (suspicions, deaths,
 *   departures, refutations) before the rest; updates about the probed member go first (Lifeguard's
 *   "buddy system": a suspect hears of its suspicion at once). While urgent ones are queued they also
 *   go to `gossipNodes` random members every `gossipMs` (memberlist's gossip), so a death reaches
 *   1,000 agents in about half a second instead of some seconds of probes. The full member list is
 *   sent to join (push-pull with one member); every `pushPullMs` a push-pull with one random member
 *   sends a digest of the list first, and the lists only when the two digests differ.
 * - A member that leaves says so (`leave`): it is `left`, never suspected. A down member is probed
 *   now and then (a healed partition rejoins); a down or left member is forgotten after `forgetAfterMs`.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.SwimCore = exports.SWIM_DEFAULTS = void 0;
exports.approximateBytes = approximateBytes;
const node_crypto_1 = require("node:crypto");
/**
 * Close to memberlist's (3 indirect probes, suspicion up to 6 times its shortest, retransmissions
 * 4 · log10(N+1), urgent changes gossiped to 3 members every 200 ms), with a 500 ms period and a
 * 250 ms probe timeout (memberlist's LAN: 1 s and 500 ms) and a suspicion of at least 3 · log10(N)
 * periods (memberlist's LAN: 4, its loopback: 3). With memberlist's LAN values a killed agent among
 * 1,000 is down after 12 s of suspicion at least; with these, 4.5 s, and down everywhere within 10 s
 * (docs/replication.md has the simulated figures).
 */
exports.SWIM_DEFAULTS = {
    periodMs: 500,
    timeoutMs: 250,
    indirect: 3,
    suspicionMult: 3,
    suspicionMaxMult: 6,
    retransmitMult: 4,
    maxPiggyback: 16,
    gossipMs: 200,
    gossipNodes: 3,
    pushPullMs: 30_000,
    downProbeMs: 2000,
    forgetAfterMs: 72 * 3600_000,
};
const RANK = { alive: 0, suspect: 1, down: 2, left: 3 };
class SwimCore {
    self;
    members = new Map();
    opts;
    /** Called when a member comes up: new, or back from suspect-turned-down or left. */
    onUp = () => { };
    /** Called when a member goes down or leaves. */
    onDown = () => { };
    /** Called when the member list changed (to save it). */
    onChange = () => { };
    /** The owner's state digest to put on every message and answer (`h`); none when null. */
    meta = null;
    /** Called with the state digest a member sent (on its message or its answer). */
    onMeta = () => { };
    stats = { sent: 0, bytes: 0 };
    #inc;
    #net;
    /**
     * Updates to piggyback by how often each was sent (bucket), then by member address: the urgent
     * ones (suspicions, deaths, departures, refutations) apart, sent before the others.
     */
    #buckets = [];
    #urgentBuckets = [];
    /** Each queued member address's bucket, and whether it is urgent. */
    #queued = new Map();
    #urgentCount = 0;
    /** Members this one holds suspect (their timeouts are checked at every gossip round too). */
    #suspects = new Set();
    #order = [];
    /** The addresses in #order (a member that went since stays there until the next shuffle). */
    #inOrder = new Set();
    #next = 0;
    #lastPushPull;
    #lastDownProbe = 0;
    #left = false;
    /** The clock round trips are measured with. */
    #rttNow;
    constructor(self, net, opts = {}) {
        this.self = self;
        this.#net = net;
        this.opts = { ...exports.SWIM_DEFAULTS, now: Date.now, random: Math.random, ...opts };
        // round trips in fractions of a millisecond (Date.now's whole milliseconds made a loopback or LAN
        // peer's 0); a simulation's own clock measures them in its time
        this.#rttNow = opts.now ?? (() => performance.now());
        // A restarted agent starts above whatever was said of it before (the clock moved on).
        this.#inc = this.opts.now();
        this.#lastPushPull = this.opts.now();
    }
    get incarnation() {
        return this.#inc;
    }
    #me() {
        return { s: this.#left ? 'left' : 'alive', addr: this.self.addr, actor: this.self.actor, inc: this.#inc };
    }
    /** Members that answer (alive or suspect). */
    up() {
        return [...this.members.values()].filter((m) => m.state === 'alive' || m.state === 'suspect');
    }
    /** Notes that `addr` answered (any request proves it alive). */
    heard(addr, actor) {
        const m = this.members.get(addr);
        this.#heard(addr, { s: 'alive', addr, actor, inc: m?.inc ?? 0 }, null);
    }
    /** Adds an address to probe (a bootstrap peer, a saved member) without saying anything of it. */
    know(addr, actor = '') {
        if (addr === this.self.addr || this.members.has(addr))
            return;
        this.members.set(addr, {
            addr,
            actor,
            state: 'alive',
            inc: 0,
            since: 0,
            rttMs: null,
            lastSeen: 0,
            failures: 0,
            confirmations: 0,
            suspectedBy: null,
        });
        this.#insertInOrder(addr);
    }
    /** Joins through the first of `seeds` that answers: push-pull of the whole member list. */
    async join(seeds) {
        for (const addr of this.#shuffle(seeds.filter((a) => a !== this.self.addr))) {
            try {
                const reply = await this.#send(addr, { t: 'join', from: this.#me(), updates: [], members: this.#full() });
                this.#heard(addr, reply.from, null);
                for (const u of reply.updates ?? [])
                    this.apply(u);
                for (const u of reply.members ?? [])
                    this.apply(u);
                this.#lastPushPull = this.opts.now();
                return true;
            }
            catch {
                // the next seed
            }
        }
        return false;
    }
    /**
     * The periodic push-pull with one member: a digest of the member list first; the lists travel
     * only when the digests differ (its list in the answer, ours in a second message when, having
     * taken its list in, ours still differs from its). Members that agree exchange a few bytes.
     */
    async pushPull(addr) {
        const reply = await this.#send(addr, { t: 'join', from: this.#me(), updates: [], digest: this.digest() });
        this.#heard(addr, reply.from, null);
        for (const u of reply.updates ?? [])
            this.apply(u);
        for (const u of reply.members ?? [])
            this.apply(u);
        // agreed; or it sent its list and ours now matches its digest (it has nothing to learn from us)
        if (reply.digest !== undefined && reply.digest === this.digest())
            return;
        await this.join([addr]);
    }
    /**
     * A digest of the member list (each member's address, site id, state and incarnation, this
     * member's own included): two members with the same view of the cluster have the same digest.
     */
    digest() {
        const h = (0, node_crypto_1.createHash)('sha1');
        for (const u of this.#full().sort((a, b) => (a.addr < b.addr ? -1 : a.addr > b.addr ? 1 : 0)))
            h.update(`${u.addr} ${u.actor} ${u.s} ${u.inc}\n`);
        return h.digest('base64').slice(0, 16);
    }
    /** Says goodbye to a few members; the rest hear it through them. */
    async leave(timeoutMs = 500) {
        this.#left = true;
        this.#inc++;
        const msg = () => ({ t: 'leave', from: this.#me(), updates: this.#piggyback(null) });
        const to = this.#shuffle(this.up().map((m) => m.addr)).slice(0, Math.max(3, this.opts.indirect));
        await Promise.all(to.map((a) => this.#net.send(a, msg(), timeoutMs).catch(() => undefined)));
    }
    /** Drops a member that will not return, and tells the others it left. */
    forget(addr) {
        const m = this.members.get(addr);
        if (!m)
            return false;
        this.#enqueue({ s: 'left', addr, actor: m.actor, inc: m.inc }, true);
        this.members.delete(addr);
        this.#suspects.delete(addr);
        this.onChange();
        return true;
    }
    /** One protocol period: a probe, the suspicion timeouts, now and then a push-pull and a down member's probe. */
    async tick() {
        if (this.#left)
            return;
        const now = this.opts.now();
        this.#suspicionTimeouts();
        const work = [];
        const target = this.#nextTarget();
        if (target)
            work.push(this.#probe(target));
        if (now - this.#lastDownProbe >= this.opts.downProbeMs) {
            // one pass over the list every downProbeMs (not every period): forget, and probe one down member
            this.#lastDownProbe = now;
            const down = [];
            for (const m of [...this.members.values()]) {
                if ((m.state === 'down' || m.state === 'left') && m.since > 0 && now - m.since >= this.opts.forgetAfterMs) {
                    this.members.delete(m.addr);
                    this.onChange();
                }
                else if (m.state === 'down')
                    down.push(m);
            }
            if (down.length > 0)
                work.push(this.#probeDown(down[Math.floor(this.opts.random() * down.length)]));
        }
        if (now - this.#lastPushPull >= this.opts.pushPullMs) {
            this.#lastPushPull = now;
            const up = this.up();
            if (up.length > 0)
                work.push(this.pushPull(up[Math.floor(this.opts.random() * up.length)].addr).catch(() => undefined));
        }
        await Promise.all(work);
    }
    /**
     * Between probes (every `gossipMs`): the suspicions that timed out are deaths, and when urgent
     * changes are queued they go to `gossipNodes` random members (each message also carries the
     * other queued changes, and its answer the other member's). Nothing is sent when none is queued,
     * so a quiet cluster sends only its probes.
     */
    async gossip() {
        if (this.#left)
            return;
        this.#suspicionTimeouts();
        if (this.#urgentCount === 0)
            return;
        const to = this.#randomUp(this.opts.gossipNodes);
        await Promise.all(to.map((m) => this.#send(m.addr, { t: 'gossip', from: this.#me(), updates: this.#piggyback(m.addr) })
            .then((reply) => {
            this.#heard(m.addr, reply.from, null);
            for (const u of reply.updates ?? [])
                this.apply(u);
        })
            .catch(() => undefined)));
    }
    #suspicionTimeouts() {
        if (this.#suspects.size === 0)
            return;
        const now = this.opts.now();
        for (const addr of [...this.#suspects]) {
            const m = this.members.get(addr);
            if (m?.state !== 'suspect') {
                this.#suspects.delete(addr);
                continue;
            }
            if (now - m.since >= this.#suspicionMs(m.confirmations)) {
                this.#setState(m, 'down', m.inc);
                this.#enqueue({ s: 'down', addr: m.addr, actor: m.actor, inc: m.inc }, true);
            }
        }
    }
    /** Up to `n` distinct members that answer, at random (sampled from the probe order: no full scan). */
    #randomUp(n) {
        const out = [];
        const order = this.#order;
        for (let tries = 0; tries < 4 * n && out.length < n && order.length > 0; tries++) {
            const m = this.members.get(order[Math.floor(this.opts.random() * order.length)]);
            if (m && (m.state === 'alive' || m.state === 'suspect') && !out.includes(m))
                out.push(m);
        }
        return out;
    }
    /** Answers a message from another member. */
    async handle(msg) {
        if (msg.from && typeof msg.h === 'string')
            this.onMeta(msg.from.addr, msg.h);
        const reply = await this.#answer(msg);
        if (this.meta)
            reply.h = this.meta();
        return reply;
    }
    async #answer(msg) {
        if (msg.from)
            this.#heard(msg.from.addr, msg.from, null);
        for (const u of msg.updates ?? [])
            this.apply(u);
        switch (msg.t) {
            case 'join': {
                for (const u of msg.members ?? [])
                    this.apply(u);
                const updates = this.#piggyback(msg.from?.addr ?? null);
                if (msg.members === undefined && msg.digest !== undefined) {
                    // a periodic push-pull: the list only when the views differ
                    const digest = this.digest();
                    if (digest === msg.digest)
                        return { t: 'ack', from: this.#me(), updates, digest };
                    return { t: 'ack', from: this.#me(), updates, members: this.#full(), digest };
                }
                return { t: 'ack', from: this.#me(), updates, members: this.#full() };
            }
            case 'ping-req': {
                let ok = false;
                const target = msg.target ?? '';
                if (target && target !== this.self.addr) {
                    try {
                        const reply = await this.#send(target, {
                            t: 'ping',
                            from: this.#me(),
                            updates: this.#piggyback(target),
                        });
                        this.#heard(target, reply.from, null);
                        for (const u of reply.updates ?? [])
                            this.apply(u);
                        ok = true;
                    }
                    catch {
                        ok = false;
                    }
                }
                return { t: 'req-ack', from: this.#me(), ok, updates: this.#piggyback(msg.from?.addr ?? null, target || null) };
            }
            default:
                return { t: 'ack', from: this.#me(), updates: this.#piggyback(msg.from?.addr ?? null) };
        }
    }
    /** Takes in what another member says of `u.addr`. */
    apply(u) {
        if (!u || typeof u.addr !== 'string' || typeof u.inc !== 'number')
            return;
        if (u.addr === this.self.addr || (u.actor && u.actor === this.self.actor)) {
            // Said of me: refute anything but alive, unless I am leaving.
            if (u.s !== 'alive' && !this.#left && u.inc >= this.#inc) {
                this.#inc = u.inc + 1;
                this.#enqueue(this.#me(), true);
            }
            return;
        }
        let m = this.members.get(u.addr);
        if (!m) {
            if (u.s === 'left' || u.s === 'down')
                return; // nothing to learn of a member we never knew
            this.know(u.addr, u.actor);
            m = this.members.get(u.addr);
            m.inc = u.inc;
            this.#replaceSameActor(m);
            this.#setState(m, u.s, u.inc, true);
            if (u.s === 'suspect')
                m.suspectedBy = new Set([u.by ?? '']);
            this.#enqueue(u, u.s !== 'alive');
            this.onChange();
            return;
        }
        if (u.actor && !m.actor)
            m.actor = u.actor;
        if (u.s === 'suspect' && m.state === 'suspect' && u.inc === m.inc) {
            // Lifeguard: another member suspects it too; passed on so that others can count it as well,
            // up to the confirmations that shorten a timeout (more change no one's)
            if (this.#confirm(m, u.by ?? '') && m.confirmations <= this.#expectedConfirmations())
                this.#enqueue(u, true);
            return;
        }
        // A higher incarnation wins; at the same one, the graver state wins (left > down > suspect > alive).
        if (u.inc > m.inc || (u.inc === m.inc && RANK[u.s] > RANK[m.state])) {
            const was = m.state;
            this.#setState(m, u.s, u.inc);
            if (u.s === 'suspect')
                m.suspectedBy = new Set([u.by ?? '']);
            this.#enqueue(u, u.s !== 'alive' || was !== 'alive');
            if ((was === 'down' || was === 'left') && (u.s === 'alive' || u.s === 'suspect') && m.lastSeen > 0)
                this.onUp(m);
        }
    }
    /** Counts `by` as confirming the suspicion of `m`: whether it is a new confirmer. */
    #confirm(m, by) {
        const set = (m.suspectedBy ??= new Set());
        if (set.has(by))
            return false;
        set.add(by);
        m.confirmations = set.size - 1;
        return true;
    }
    #replaceSameActor(m) {
        if (!m.actor)
            return;
        for (const [a, o] of this.members)
            if (a !== m.addr && o.actor === m.actor && o.state !== 'alive' && o.state !== 'suspect')
                this.members.delete(a);
    }
    #setState(m, s, inc, fresh = false) {
        const was = m.state;
        m.inc = inc;
        if (was === s && !fresh)
            return;
        m.state = s;
        m.since = s === 'alive' ? 0 : this.opts.now();
        m.confirmations = 0;
        m.suspectedBy = null;
        if (s === 'suspect')
            this.#suspects.add(m.addr);
        if (s === 'alive')
            m.failures = 0;
        if ((s === 'down' || s === 'left') && (was === 'alive' || was === 'suspect'))
            this.onDown(m);
        if (s === 'alive' && was !== 'alive')
            this.#insertInOrder(m.addr);
        if (s === 'down' || s === 'left')
            this.onChange();
    }
    #heard(addr, from, rtt) {
        if (!addr || addr === this.self.addr)
            return;
        let m = this.members.get(addr);
        // up for the owner: answered before and not down or left since
        const wasUp = m !== undefined && m.lastSeen > 0 && (m.state === 'alive' || m.state === 'suspect');
        if (!m) {
            this.know(addr, from?.actor ?? '');
            m = this.members.get(addr);
            m.inc = from?.inc ?? 0;
            this.#replaceSameActor(m);
            this.#setState(m, from?.s === 'left' ? 'left' : 'alive', m.inc, true);
            if (from)
                this.#enqueue({ ...from, addr, s: m.state });
            this.onChange();
        }
        else {
            // a member known by its address alone (bootstrap) is announced once it answers; one known
            // from others' word is not (they announce it: at 1,000 members, re-announcing each member
            // at first contact kept every message full for the first round of probes, about 8 minutes)
            const unannounced = m.lastSeen === 0 && m.actor === '';
            if (from?.actor && m.actor !== from.actor) {
                m.actor = from.actor;
                this.#replaceSameActor(m);
                this.onChange();
            }
            // Only its own word at a higher incarnation settles a suspicion or a death (what it hears of
            // itself in our answer makes it refute): else a stale rumour would kill it again.
            const inc = from?.inc ?? 0;
            if (from?.s === 'left' && inc >= m.inc) {
                if (m.state !== 'left')
                    this.#enqueue({ s: 'left', addr, actor: m.actor, inc }, true);
                this.#setState(m, 'left', inc);
            }
            else if (inc > m.inc || (m.state === 'alive' && unannounced)) {
                const refutes = m.state !== 'alive';
                this.#setState(m, 'alive', Math.max(inc, m.inc));
                this.#enqueue({ s: 'alive', addr, actor: m.actor, inc: m.inc }, refutes);
            }
        }
        m.lastSeen = this.opts.now();
        m.failures = 0;
        if (rtt !== null)
            m.rttMs = rtt;
        if (!wasUp && m.state === 'alive')
            this.onUp(m);
    }
    async #probe(m) {
        const t0 = this.#rttNow();
        try {
            const reply = await this.#send(m.addr, { t: 'ping', from: this.#me(), updates: this.#piggyback(m.addr) });
            this.#heard(m.addr, reply.from, this.#rttNow() - t0);
            for (const u of reply.updates ?? [])
                this.apply(u);
            return;
        }
        catch {
            m.failures++;
        }
        const helpers = this.#shuffle(this.up().filter((x) => x.addr !== m.addr)).slice(0, this.opts.indirect);
        const answers = await Promise.all(helpers.map((h) => this.#send(h.addr, { t: 'ping-req', from: this.#me(), target: m.addr, updates: this.#piggyback(h.addr) }, 2)
            .then((r) => {
            for (const u of r.updates ?? [])
                this.apply(u);
            return r.ok === true;
        })
            .catch(() => false)));
        if (!this.members.has(m.addr))
            return;
        if (answers.some(Boolean)) {
            m.failures = 0;
            m.lastSeen = this.opts.now();
            return;
        }
        m.failures++;
        const me = this.self.addr;
        if (m.state === 'alive') {
            this.#setState(m, 'suspect', m.inc);
            m.suspectedBy = new Set([me]);
            this.#enqueue({ s: 'suspect', addr: m.addr, actor: m.actor, inc: m.inc, by: me }, true);
        }
        else if (m.state === 'suspect' && this.#confirm(m, me) && m.confirmations <= this.#expectedConfirmations()) {
            // suspected by others, and now by this member's own probe: an independent confirmation
            this.#enqueue({ s: 'suspect', addr: m.addr, actor: m.actor, inc: m.inc, by: me }, true);
        }
    }
    async #probeDown(m) {
        try {
            const reply = await this.#send(m.addr, { t: 'ping', from: this.#me(), updates: this.#piggyback(m.addr) });
            this.#heard(m.addr, reply.from, null);
            for (const u of reply.updates ?? [])
                this.apply(u);
        }
        catch {
            // still down
        }
    }
    async #send(addr, msg, timeoutFactor = 1) {
        if (this.meta)
            msg.h = this.meta();
        this.stats.sent++;
        this.stats.bytes += approximateBytes(msg);
        const reply = await this.#net.send(addr, msg, this.opts.timeoutMs * timeoutFactor);
        if (typeof reply?.h === 'string')
            this.onMeta(addr, reply.h);
        return reply;
    }
    #full() {
        const out = [this.#me()];
        for (const m of this.members.values())
            out.push({ s: m.state, addr: m.addr, actor: m.actor, inc: m.inc });
        return out;
    }
    /**
     * How long a suspicion lasts before the member is down (Lifeguard, as memberlist computes it):
     * from `suspicionMaxMult` times the shortest timeout down to the shortest as members other than
     * the first suspecter confirm it (`suspicionMult - 2` distinct ones expected; none in a cluster too
     * small to give them). A member that is really gone is suspected by everyone who probes it, so it
     * is declared down fast; a slow link alone waits the longest. The timeout runs from when this
     * member heard of the suspicion.
     */
    #suspicionMs(confirmations) {
        const n = this.members.size + 1;
        const min = this.opts.suspicionMult * Math.max(1, Math.log10(n)) * this.opts.periodMs;
        const max = this.opts.suspicionMaxMult * min;
        const k = this.#expectedConfirmations();
        if (k < 1)
            return min;
        const frac = Math.log(Math.min(confirmations, k) + 1) / Math.log(k + 1);
        return Math.max(min, max - (max - min) * frac);
    }
    /** Lifeguard's k: the confirmations of a suspicion expected before the shortest timeout. */
    #expectedConfirmations() {
        const k = this.opts.suspicionMult - 2;
        return this.members.size - 1 < k ? 0 : k;
    }
    #retransmitLimit() {
        return this.opts.retransmitMult * Math.ceil(Math.log10(this.members.size + 2));
    }
    /** Queues what to say of `u.addr` (replacing what was queued of it), urgent ones apart. */
    #enqueue(u, urgent = false) {
        this.#dequeue(u.addr);
        const buckets = urgent ? this.#urgentBuckets : this.#buckets;
        (buckets[0] ??= new Map()).set(u.addr, u);
        this.#queued.set(u.addr, { b: 0, urgent });
        if (urgent)
            this.#urgentCount++;
    }
    #dequeue(addr) {
        const q = this.#queued.get(addr);
        if (!q)
            return;
        (q.urgent ? this.#urgentBuckets : this.#buckets)[q.b].delete(addr);
        this.#queued.delete(addr);
        if (q.urgent)
            this.#urgentCount--;
    }
    /**
     * Up to maxPiggyback updates for a message to `to`: first what this member holds of `about` (by
     * default the recipient) when it is not alive (Lifeguard's buddy system: a suspect hears of its
     * suspicion at once and refutes it; a prober hears from a helper that its target left), then the
     * least sent of the urgent queue, then the least sent of the rest.
     */
    #piggyback(to, about = to) {
        const out = [];
        const held = about === null ? undefined : this.members.get(about);
        if (held && held.state !== 'alive') {
            const by = held.suspectedBy?.values().next().value;
            out.push({ s: held.state, addr: held.addr, actor: held.actor, inc: held.inc, ...(by ? { by } : {}) });
        }
        if (this.#queued.size === 0)
            return out;
        const limit = this.#retransmitLimit();
        const picked = [];
        if (to !== null && out.length === 0 && this.#queued.has(to))
            picked.push(to);
        for (const buckets of [this.#urgentBuckets, this.#buckets])
            for (let b = 0; b < buckets.length && picked.length < this.opts.maxPiggyback; b++) {
                const bucket = buckets[b];
                if (!bucket)
                    continue;
                for (const addr of bucket.keys()) {
                    if (picked.length >= this.opts.maxPiggyback)
                        break;
                    if (addr !== to && addr !== about)
                        picked.push(addr);
                }
            }
        for (const addr of picked) {
            const q = this.#queued.get(addr);
            const buckets = q.urgent ? this.#urgentBuckets : this.#buckets;
            const u = buckets[q.b].get(addr);
            out.push(u);
            buckets[q.b].delete(addr);
            if (q.b + 1 >= limit)
                this.#dequeue(addr);
            else {
                (buckets[q.b + 1] ??= new Map()).set(addr, u);
                q.b++;
            }
        }
        return out;
    }
    #nextTarget() {
        for (let tries = 0; tries <= this.#order.length; tries++) {
            if (this.#next >= this.#order.length) {
                this.#order = this.#shuffle([...this.members.keys()]);
                this.#inOrder = new Set(this.#order);
                this.#next = 0;
                if (this.#order.length === 0)
                    return null;
            }
            const m = this.members.get(this.#order[this.#next++]);
            if (m && (m.state === 'alive' || m.state === 'suspect'))
                return m;
        }
        return null;
    }
    /** A new member goes at a random place of the rest of this round (memberlist does the same). */
    #insertInOrder(addr) {
        if (this.#inOrder.has(addr))
            return;
        this.#inOrder.add(addr);
        const at = this.#next + Math.floor(this.opts.random() * (this.#order.length - this.#next + 1));
        this.#order.splice(at, 0, addr);
    }
    #shuffle(xs) {
        for (let i = xs.length - 1; i > 0; i--) {
            const j = Math.floor(this.opts.random() * (i + 1));
            [xs[i], xs[j]] = [xs[j], xs[i]];
        }
        return xs;
    }
}
exports.SwimCore = SwimCore;
/** A message's size as JSON, without making the string (for the traffic figures). */
function approximateBytes(msg) {
    const u = (x) => 40 + x.addr.length + x.actor.length + x.s.length + (x.by ? x.by.length + 8 : 0);
    let n = 40 +
        u(msg.from) +
        (msg.target?.length ?? 0) +
        (msg.digest ? msg.digest.length + 12 : 0) +
        (msg.h ? msg.h.length + 7 : 0);
    for (const x of msg.updates ?? [])
        n += u(x);
    for (const x of msg.members ?? [])
        n += u(x);
    return n;
}
//# sourceMappingURL=swim.js.map