// SWIM membership between real agents: a SIGTERM is announced (the others show the agent as left,
// never down), `patina cluster forget` drops a member on every agent, and bad input to it is refused
// with a clear message.
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli';
import { SCHEMA, TestCluster, eventually, members } from '../helpers/cluster';

describe('cluster membership (SWIM) between agents', function () {
  this.timeout(90_000);
  let c: TestCluster;

  before(async () => {
    c = await TestCluster.start(4, { schema: SCHEMA });
    await eventually('every agent knows the three others', 20_000, async () => {
      for (const n of c.nodes) {
        const m = await members(n.http);
        if (m.filter((x) => x.state === 'alive').length !== 3) return JSON.stringify(m);
      }
      return true;
    });
  });
  after(() => c?.dispose());

  it('an agent stopped with SIGTERM is seen as left by the others, never suspected or down', async () => {
    const [a, b, , d] = c.nodes;
    const seen = new Set<string>();
    let watching = true;
    const watch = (async () => {
      while (watching) {
        for (const n of [a, b]) for (const m of await members(n.http)) if (m.addr === d.proxy.addr) seen.add(m.state);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const t0 = Date.now();
    assert.equal(await d.agent.stop(), 0);
    assert.ok(Date.now() - t0 < 5000, 'SIGTERM stops it within seconds');
    await eventually('A and B show D as left', 15_000, async () => {
      for (const n of [a, b]) {
        const m = (await members(n.http)).find((x) => x.addr === d.proxy.addr);
        if (m?.state !== 'left') return JSON.stringify(m);
      }
      return true;
    });
    await new Promise((r) => setTimeout(r, 4000)); // longer than a suspicion would take
    watching = false;
    await watch;
    assert.deepEqual(
      [...seen].filter((s) => s !== 'alive' && s !== 'left'),
      [],
      `states seen: ${[...seen]}`,
    );
    assert.match(a.agent.output, /peer left/);
  });

  it('patina cluster forget drops a member on every agent; unknown and missing addresses are refused', async () => {
    const [a, b, , d] = c.nodes;
    const apiAddr = a.http.replace('http://', '');
    const r = await runCli(['cluster', 'forget', d.proxy.addr, '--api-addr', apiAddr]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `forgot ${d.proxy.addr}\n`);
    assert.ok(!(await members(a.http)).some((m) => m.addr === d.proxy.addr));
    // B hears it as departed (it already was), and it stays out of A's list
    const bm = (await members(b.http)).find((m) => m.addr === d.proxy.addr);
    assert.ok(!bm || bm.state === 'left', JSON.stringify(bm));
    const unknown = await runCli(['cluster', 'forget', '127.0.0.1:1', '--api-addr', apiAddr]);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /no member 127\.0\.0\.1:1/);
    const missing = await runCli(['cluster', 'forget', '--api-addr', apiAddr]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /patina cluster forget ADDR/);
    const members2 = await runCli(['cluster', 'members', '--api-addr', apiAddr]);
    assert.equal(members2.code, 0, members2.stderr);
    assert.doesNotMatch(members2.stdout, new RegExp(d.proxy.addr.replace(/\./g, '\\.')));
  });
});
