"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// SWIM membership (src/cluster/swim.ts, the code the agent runs, with its defaults) in simulated
// clusters of up to 1,000 agents: one process, a virtual clock, links of 20 ms that lose 1% of the
// messages where a test says so (test/helpers/swim-sim.ts). What a fleet needs: traffic per agent
// that does not grow with the cluster, killed agents down everywhere within 10 s, no agent taken for
// dead under message loss, departures announced, a new agent learning the whole cluster from one
// seed, suspicions shortened only by other members' confirmations. The figures at scale, with
// more agents killed and longer runs: `npm run bench -- cluster`.
const strict_1 = __importDefault(require("node:assert/strict"));
const swim_1 = require("../../src/cluster/swim");
const swim_sim_1 = require("../helpers/swim-sim");
/** A cluster where every agent already knows every other (as after a join has spread). */
function converged(n, seed = 1) {
    const c = new swim_sim_1.SimCluster(n, {}, seed);
    for (const a of c.nodes)
        for (const b of c.nodes)
            if (a !== b)
                a.know(b.self.addr, b.self.actor);
    return c;
}
/** What every other live agent holds of agent `of`. */
const stateOf = (c, of) => c
    .live()
    .filter((n) => n !== c.nodes[of])
    .map((n) => n.members.get(c.nodes[of].self.addr)?.state);
describe('SWIM membership in simulated clusters', function () {
    this.timeout(120_000);
    it('sends as many messages per agent at 1,000 agents as at 10, with 1% loss and 20 ms links', async () => {
        const perAgent = [];
        for (const n of [10, 1000]) {
            const c = converged(n);
            c.latencyMs = 20;
            c.loss = 0.01;
            await c.until(() => false, 4);
            const before = c.traffic();
            await c.until(() => false, 20);
            const after = c.traffic();
            perAgent.push({ msgs: (after.sent - before.sent) / n / 20, bytes: (after.bytes - before.bytes) / n / 20 });
        }
        const [small, big] = perAgent;
        // one probe a period, and now and then indirect probes (a lost message) and gossip (a suspicion)
        strict_1.default.ok(small.msgs >= 0.9 && small.msgs <= 1.3, `10 agents: ${small.msgs} messages per agent per period`);
        strict_1.default.ok(big.msgs <= small.msgs * 1.2, `messages per agent per period: ${small.msgs} at 10, ${big.msgs} at 1,000`);
        strict_1.default.ok(big.bytes <= small.bytes * 1.5, `bytes per agent per period: ${small.bytes} at 10, ${big.bytes} at 1,000`);
    });
    it('marks killed agents down everywhere within 10 s: 10 of 1,000 killed at once, 1% loss, 20 ms links', async () => {
        const c = converged(1000, 7);
        c.latencyMs = 20;
        c.loss = 0.01;
        await c.run(5000);
        const victims = new Set([10, 150, 300, 420, 500, 610, 700, 850, 930, 990].map((k) => c.nodes[k].self.addr));
        const marked = new Map(); // victim -> live agents that marked it down
        const everywhere = new Map(); // victim -> ms until all had
        let falseDowns = 0;
        const t0 = c.now;
        for (const v of victims)
            c.dead.add(v);
        for (const n of c.nodes)
            n.onDown = (m) => {
                if (!victims.has(m.addr))
                    falseDowns++;
                else if (marked.set(m.addr, (marked.get(m.addr) ?? 0) + 1).get(m.addr) === 990)
                    everywhere.set(m.addr, c.now - t0);
            };
        await c.untilMs(() => everywhere.size === victims.size, 10_000, 100);
        const late = [...victims].filter((v) => !everywhere.has(v));
        strict_1.default.deepEqual(late, [], `not down everywhere within 10 s: marked by ${late.map((v) => marked.get(v) ?? 0)} of 990`);
        strict_1.default.equal(falseDowns, 0, 'a live agent was marked down');
        // the shortest suspicion at 1,000 agents is 3 · log10(1000) periods of 500 ms: no agent is down before 4.5 s
        strict_1.default.ok(Math.min(...everywhere.values()) >= 4500, `down everywhere after ${[...everywhere.values()]} ms`);
    });
    it('refutes the suspicions that 5% message loss makes: no agent held down (300 agents, 100 periods)', async () => {
        const c = converged(300, 3);
        c.loss = 0.05;
        let downs = 0;
        for (const n of c.nodes)
            n.onDown = () => downs++;
        let suspicions = 0;
        for (let p = 0; p < 100; p++) {
            await c.period();
            for (const n of c.nodes)
                for (const m of n.members.values())
                    if (m.state === 'suspect')
                        suspicions++;
        }
        // 30,000 probes, about one in ten losing its round trip: suspicions come, and are refuted in time
        strict_1.default.ok(suspicions > 0, 'the loss made no suspicion at all: the test tests nothing');
        strict_1.default.ok(downs <= 5, `${downs} times an agent was taken for down (${suspicions} suspect-periods)`);
        c.loss = 0;
        await c.until(() => false, 20);
        strict_1.default.ok(c.nodes.every((n) => n.up().length === 299), 'everyone is up again once the loss stops');
    });
    it('an agent that leaves is seen as left by all, never suspected', async () => {
        const c = converged(200, 5);
        const leaver = c.nodes[42];
        let suspected = false;
        // as the agent does on SIGTERM: announce, keep answering (as left) for a period, then go
        await c.complete(leaver.leave());
        await c.period();
        c.dead.add(leaver.self.addr);
        const all = () => stateOf(c, 42).every((s) => s === 'left');
        for (let p = 0; p < 40 && !all(); p++) {
            await c.period();
            if (stateOf(c, 42).some((s) => s === 'suspect' || s === 'down'))
                suspected = true;
        }
        strict_1.default.ok(all(), `left: ${stateOf(c, 42).filter((s) => s === 'left').length} of 199`);
        strict_1.default.equal(suspected, false);
    });
    it('a restarted agent refutes its death with a higher incarnation and comes back up everywhere', async () => {
        const c = converged(100, 9);
        const victim = c.nodes[5];
        c.dead.add(victim.self.addr);
        strict_1.default.ok((await c.until(() => stateOf(c, 5).every((s) => s === 'down'), 60)) > 0);
        c.dead.delete(victim.self.addr); // back (a healed partition, or restarted at the same address)
        const periods = await c.until(() => stateOf(c, 5).every((s) => s === 'alive'), 60);
        strict_1.default.ok(periods > 0, 'not everyone saw it come back');
    });
    it('a partition that heals: each side takes the other for down, then all are up everywhere again', async () => {
        const c = converged(200, 13);
        c.latencyMs = 20;
        c.loss = 0.01;
        const side = new Map(c.nodes.map((n, i) => [n.self.addr, i % 2]));
        c.partition = (a, b) => side.get(a) !== side.get(b);
        const across = () => c.nodes.flatMap((n) => c.nodes
            .filter((m) => side.get(m.self.addr) !== side.get(n.self.addr))
            .map((m) => n.members.get(m.self.addr)?.state));
        const split = await c.until(() => across().every((s) => s === 'down'), 120);
        strict_1.default.ok(split > 0, 'the two halves did not take each other for down');
        c.partition = null;
        const healed = await c.until(() => across().every((s) => s === 'alive'), 240);
        strict_1.default.ok(healed > 0, `not healed after 240 periods: ${across().filter((s) => s !== 'alive').length} views still not alive`);
        // and nothing was lost on either side: every agent knows all 199 others
        strict_1.default.ok(c.nodes.every((n) => n.members.size === 199));
    });
    it('200 agents joining through one seed all learn the whole cluster', async () => {
        const c = new swim_sim_1.SimCluster(200, {}, 11);
        const seed = c.nodes[0].self.addr;
        await c.complete(Promise.all(c.nodes.slice(1).map((n) => n.join([seed]))));
        const periods = await c.until(() => c.nodes.every((n) => n.members.size === 199), 150);
        strict_1.default.ok(periods > 0, `after 150 periods: ${Math.min(...c.nodes.map((n) => n.members.size))} known at least`);
    });
    it('a forgotten member is dropped everywhere, and down ones are forgotten after forget_after', async () => {
        const c = new swim_sim_1.SimCluster(50, { forgetAfterMs: 30_000 }, 13);
        for (const a of c.nodes)
            for (const b of c.nodes)
                if (a !== b)
                    a.know(b.self.addr, b.self.actor);
        c.dead.add(c.nodes[1].self.addr);
        strict_1.default.ok((await c.until(() => c.live().every((n) => !n.members.has(c.nodes[1].self.addr)), 120)) > 0);
        c.dead.add(c.nodes[2].self.addr);
        c.nodes[0].forget(c.nodes[2].self.addr);
        strict_1.default.ok(!c.nodes[0].members.has(c.nodes[2].self.addr));
    });
});
describe('the periodic push-pull of member lists', () => {
    /** Two members over a network that records every message and answer. */
    function pair() {
        const log = [];
        const cores = new Map();
        const net = {
            send: async (addr, msg) => {
                log.push(msg);
                const reply = await cores.get(addr).handle(msg);
                log.push(reply);
                return reply;
            },
        };
        let now = 1000;
        const opts = { now: () => now, random: Math.random };
        const a = new swim_1.SwimCore({ addr: '10.0.0.1:8787', actor: 'aa' }, net, opts);
        const b = new swim_1.SwimCore({ addr: '10.0.0.2:8787', actor: 'bb' }, net, opts);
        cores.set(a.self.addr, a).set(b.self.addr, b);
        a.know(b.self.addr, 'bb');
        b.know(a.self.addr, 'aa');
        return { a, b, log, tick: () => (now += 1000) };
    }
    it('sends a digest and no list when both views agree', async () => {
        const { a, b, log } = pair();
        await a.pushPull(b.self.addr); // the first: incarnations differ, the lists go
        strict_1.default.equal(a.digest(), b.digest());
        log.length = 0;
        await a.pushPull(b.self.addr);
        strict_1.default.equal(log.length, 2, 'one message and its answer');
        strict_1.default.ok(log.every((m) => m.members === undefined && m.digest === a.digest()));
    });
    it('repairs a difference either way when the views differ', async () => {
        const { a, b, log } = pair();
        await a.pushPull(b.self.addr);
        // each learns a member the other does not know, with nothing queued to tell it
        b.know('10.0.0.3:8787', 'cc');
        a.know('10.0.0.4:8787', 'dd');
        log.length = 0;
        await a.pushPull(b.self.addr);
        strict_1.default.ok(a.members.has('10.0.0.3:8787'), 'the initiator learnt what the other knew');
        strict_1.default.ok(b.members.has('10.0.0.4:8787'), 'the other learnt what the initiator knew');
        strict_1.default.ok(log.some((m) => m.members !== undefined));
        strict_1.default.equal(a.digest(), b.digest());
    });
    it('runs every pushPullMs from the protocol period', async () => {
        const { a, b, log, tick } = pair();
        const pushPulls = () => log.filter((m) => m.t === 'join').length;
        for (let p = 0; p < 25; p++) {
            tick();
            await a.tick();
        }
        strict_1.default.equal(pushPulls(), 0, 'none before pushPullMs (30 s)');
        b.know('10.0.0.3:8787', 'cc');
        for (let p = 0; p < 10; p++) {
            tick();
            await a.tick();
        }
        strict_1.default.equal(pushPulls(), 1);
        strict_1.default.ok(a.members.has('10.0.0.3:8787'));
    });
});
describe('suspicion timeouts (Lifeguard)', () => {
    it('shortens a suspicion only for confirmations from other members, each counted once', async () => {
        let now = 0;
        const net = {
            send: async (addr) => ({ t: 'ack', from: { s: 'alive', addr, actor: addr, inc: 0 }, updates: [] }),
        };
        const x = new swim_1.SwimCore({ addr: 'x', actor: 'x' }, net, { now: () => now, random: () => 0.5 });
        for (let i = 0; i < 20; i++)
            x.know(`m${i}`, `m${i}`);
        const suspect = (by) => x.apply({ s: 'suspect', addr: 'm7', actor: 'm7', inc: 0, by });
        const state = () => x.members.get('m7').state;
        // 21 members: the shortest suspicion is 3 · log10(21) periods of 500 ms (1.98 s), the longest 6 times that
        suspect('m1');
        for (let i = 0; i < 10; i++)
            suspect('m1'); // the same suspicion heard again and again
        now = 5000;
        await x.gossip();
        strict_1.default.equal(state(), 'suspect', 'the same member saying it again is no confirmation');
        suspect('m2');
        strict_1.default.equal(x.members.get('m7').confirmations, 1);
        await x.gossip();
        strict_1.default.equal(state(), 'down', 'one other member confirming brings the timeout down to the shortest');
    });
    it('waits the longest for a suspicion no one confirms', async () => {
        let now = 0;
        const net = {
            send: async (addr) => ({ t: 'ack', from: { s: 'alive', addr, actor: addr, inc: 0 }, updates: [] }),
        };
        const x = new swim_1.SwimCore({ addr: 'x', actor: 'x' }, net, { now: () => now, random: () => 0.5 });
        for (let i = 0; i < 20; i++)
            x.know(`m${i}`, `m${i}`);
        x.apply({ s: 'suspect', addr: 'm7', actor: 'm7', inc: 0, by: 'm1' });
        now = 11_800;
        await x.gossip();
        strict_1.default.equal(x.members.get('m7').state, 'suspect');
        now = 11_950;
        await x.gossip();
        strict_1.default.equal(x.members.get('m7').state, 'down');
    });
});
//# sourceMappingURL=swim-simulation.test.js.map