// SWIM membership (src/cluster/swim.ts, the code the agent runs) in simulated clusters of up to
// 1,000 agents: one process, a virtual clock, a network that loses messages on demand. What a fleet
// needs: traffic per agent that does not grow with the cluster, dead agents found by everyone in a
// bounded number of periods, no agent taken for dead under message loss, departures announced, and
// a new agent learning the whole cluster from one seed. The figures at scale: `npm run bench -- cluster`.
import assert from 'node:assert/strict';
import { type SwimMessage, type SwimNet, SwimCore } from '../../src/cluster/swim';
import { SimCluster } from '../helpers/swim-sim';

/** A cluster where every agent already knows every other (as after a join has spread). */
function converged(n: number, seed = 1): SimCluster {
  const c = new SimCluster(n, {}, seed);
  for (const a of c.nodes) for (const b of c.nodes) if (a !== b) a.know(b.self.addr, b.self.actor);
  return c;
}

/** What every other live agent holds of agent `of`. */
const stateOf = (c: SimCluster, of: number) =>
  c
    .live()
    .filter((n) => n !== c.nodes[of])
    .map((n) => n.members.get(c.nodes[of].self.addr)?.state);

describe('SWIM membership in simulated clusters', function () {
  this.timeout(120_000);

  it('sends one probe per agent per period whatever the cluster size (100 and 1,000 agents)', async () => {
    const perAgent: number[] = [];
    for (const n of [100, 1000]) {
      const c = converged(n);
      await c.until(() => false, 5); // the first announcements go out
      const before = c.traffic();
      await c.until(() => false, 10);
      const after = c.traffic();
      const msgs = (after.sent - before.sent) / n / 10;
      assert.ok(msgs >= 0.9 && msgs <= 1.1, `${n} agents: ${msgs} messages per agent per period`);
      perAgent.push((after.bytes - before.bytes) / n / 10);
    }
    assert.ok(perAgent[1] < perAgent[0] * 1.5, `bytes per agent per period: ${perAgent.join(' at 100, ')} at 1,000`);
  });

  it('finds dead agents: every live agent of 1,000 sees 3 killed ones down within 60 periods', async () => {
    const c = converged(1000, 7);
    for (const k of [10, 500, 990]) c.dead.add(c.nodes[k].self.addr);
    const all = () => [10, 500, 990].every((k) => stateOf(c, k).every((s) => s === 'down'));
    const periods = await c.until(all, 60);
    assert.ok(
      periods > 0,
      `not all down after 60 periods: ${JSON.stringify(stateOf(c, 10).filter((s) => s !== 'down').length)} still not`,
    );
  });

  it('refutes the suspicions that 5% message loss makes: no agent held down (300 agents, 100 periods)', async () => {
    const c = converged(300, 3);
    c.loss = 0.05;
    let downs = 0;
    for (const n of c.nodes) n.onDown = () => downs++;
    let suspicions = 0;
    for (let p = 0; p < 100; p++) {
      await c.period();
      for (const n of c.nodes) for (const m of n.members.values()) if (m.state === 'suspect') suspicions++;
    }
    // 30,000 probes, about one in ten losing its round trip: suspicions come, and are refuted in time
    assert.ok(suspicions > 0, 'the loss made no suspicion at all: the test tests nothing');
    assert.ok(downs <= 5, `${downs} times an agent was taken for down (${suspicions} suspect-periods)`);
    c.loss = 0;
    await c.until(() => false, 20);
    assert.ok(
      c.nodes.every((n) => n.up().length === 299),
      'everyone is up again once the loss stops',
    );
  });

  it('an agent that leaves is seen as left by all, never suspected', async () => {
    const c = converged(200, 5);
    const leaver = c.nodes[42];
    let suspected = false;
    // as the agent does on SIGTERM: announce, keep answering (as left) for a period, then go
    await leaver.leave();
    await c.period();
    c.dead.add(leaver.self.addr);
    const all = () => stateOf(c, 42).every((s) => s === 'left');
    for (let p = 0; p < 40 && !all(); p++) {
      await c.period();
      if (stateOf(c, 42).some((s) => s === 'suspect' || s === 'down')) suspected = true;
    }
    assert.ok(all(), `left: ${stateOf(c, 42).filter((s) => s === 'left').length} of 199`);
    assert.equal(suspected, false);
  });

  it('a restarted agent refutes its death with a higher incarnation and comes back up everywhere', async () => {
    const c = converged(100, 9);
    const victim = c.nodes[5];
    c.dead.add(victim.self.addr);
    assert.ok((await c.until(() => stateOf(c, 5).every((s) => s === 'down'), 60)) > 0);
    c.dead.delete(victim.self.addr); // back (a healed partition, or restarted at the same address)
    const periods = await c.until(() => stateOf(c, 5).every((s) => s === 'alive'), 60);
    assert.ok(periods > 0, 'not everyone saw it come back');
  });

  it('200 agents joining through one seed all learn the whole cluster', async () => {
    const c = new SimCluster(200, {}, 11);
    const seed = c.nodes[0].self.addr;
    await Promise.all(c.nodes.slice(1).map((n) => n.join([seed])));
    const periods = await c.until(() => c.nodes.every((n) => n.members.size === 199), 150);
    assert.ok(periods > 0, `after 150 periods: ${Math.min(...c.nodes.map((n) => n.members.size))} known at least`);
  });

  it('a forgotten member is dropped everywhere, and down ones are forgotten after forget_after', async () => {
    const c = new SimCluster(50, { forgetAfterMs: 30_000 }, 13);
    for (const a of c.nodes) for (const b of c.nodes) if (a !== b) a.know(b.self.addr, b.self.actor);
    c.dead.add(c.nodes[1].self.addr);
    assert.ok((await c.until(() => c.live().every((n) => !n.members.has(c.nodes[1].self.addr)), 120)) > 0);
    c.dead.add(c.nodes[2].self.addr);
    c.nodes[0].forget(c.nodes[2].self.addr);
    assert.ok(!c.nodes[0].members.has(c.nodes[2].self.addr));
  });
});

describe('the periodic push-pull of member lists', () => {
  /** Two members over a network that records every message and answer. */
  function pair() {
    const log: SwimMessage[] = [];
    const cores = new Map<string, SwimCore>();
    const net: SwimNet = {
      send: async (addr, msg) => {
        log.push(msg);
        const reply = await cores.get(addr)!.handle(msg);
        log.push(reply);
        return reply;
      },
    };
    let now = 1000;
    const opts = { now: () => now, random: Math.random };
    const a = new SwimCore({ addr: '10.0.0.1:8787', actor: 'aa' }, net, opts);
    const b = new SwimCore({ addr: '10.0.0.2:8787', actor: 'bb' }, net, opts);
    cores.set(a.self.addr, a).set(b.self.addr, b);
    a.know(b.self.addr, 'bb');
    b.know(a.self.addr, 'aa');
    return { a, b, log, tick: () => (now += 1000) };
  }

  it('sends a digest and no list when both views agree', async () => {
    const { a, b, log } = pair();
    await a.pushPull(b.self.addr); // the first: incarnations differ, the lists go
    assert.equal(a.digest(), b.digest());
    log.length = 0;
    await a.pushPull(b.self.addr);
    assert.equal(log.length, 2, 'one message and its answer');
    assert.ok(log.every((m) => m.members === undefined && m.digest === a.digest()));
  });

  it('repairs a difference either way when the views differ', async () => {
    const { a, b, log } = pair();
    await a.pushPull(b.self.addr);
    // each learns a member the other does not know, with nothing queued to tell it
    b.know('10.0.0.3:8787', 'cc');
    a.know('10.0.0.4:8787', 'dd');
    log.length = 0;
    await a.pushPull(b.self.addr);
    assert.ok(a.members.has('10.0.0.3:8787'), 'the initiator learnt what the other knew');
    assert.ok(b.members.has('10.0.0.4:8787'), 'the other learnt what the initiator knew');
    assert.ok(log.some((m) => m.members !== undefined));
    assert.equal(a.digest(), b.digest());
  });

  it('runs every pushPullMs from the protocol period', async () => {
    const { a, b, log, tick } = pair();
    const pushPulls = () => log.filter((m) => m.t === 'join').length;
    for (let p = 0; p < 25; p++) {
      tick();
      await a.tick();
    }
    assert.equal(pushPulls(), 0, 'none before pushPullMs (30 s)');
    b.know('10.0.0.3:8787', 'cc');
    for (let p = 0; p < 10; p++) {
      tick();
      await a.tick();
    }
    assert.equal(pushPulls(), 1);
    assert.ok(a.members.has('10.0.0.3:8787'));
  });
});
