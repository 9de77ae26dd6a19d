// Replication at the scale of a fleet.
//  (1) SWIM membership simulated at 100, 300 and 1,000 agents (src/cluster/swim.ts, the code the
//      agent runs, over an in-process network on a virtual clock): membership bytes per agent per
//      period against 100 agents (flat is the goal), periods until every agent sees a killed one down,
//      periods until 1,000 agents that joined through one seed all know each other.
//  (2) Real agents on loopback (4, 8, 16 and 24 processes, each bootstrapped from the first, as the
//      issue measured): membership bytes sent per agent per second while idle (and, beside it, all
//      peer bytes: membership, sync and push request and answer bodies), and the time until a
//      write reaches every other agent's /v1/updates stream (30 writes spread over the agents), p50
//      p90 and p99, against the same with 4 agents (p99 against the goal, 100 ms).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { AgentProcess } from '../test/helpers/agent';
import { SCHEMA, members } from '../test/helpers/cluster';
import { postJson } from '../test/helpers/http';
import { scrape } from '../test/helpers/metrics';
import { SimCluster } from '../test/helpers/swim-sim';
import { percentile, report } from './util';

async function simulated(n: number): Promise<{ bytesPerPeriod: number; detect: number }> {
  const c = new SimCluster(n, {}, 17);
  for (const a of c.nodes) for (const b of c.nodes) if (a !== b) a.know(b.self.addr, b.self.actor);
  await c.until(() => false, 5);
  const t0 = c.traffic();
  await c.until(() => false, 20);
  const t1 = c.traffic();
  const victim = c.nodes[n >> 1].self.addr;
  c.dead.add(victim);
  const detect = await c.until(() => c.live().every((x) => x.members.get(victim)?.state === 'down'), 200);
  return { bytesPerPeriod: (t1.bytes - t0.bytes) / n / 20, detect };
}

/** Opens POST /v1/updates/kv and calls `on(k, t)` for each key announced. */
function watch(base: string, on: (k: number, t: number) => void): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL('/v1/updates/kv', base), { method: 'POST', agent: false }, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        buf += d;
        let nl = buf.indexOf('\n');
        while (nl >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const m = /"notify":\["\w+",\[(\d+)\]\]/.exec(line);
          if (m) on(Number(m[1]), performance.now());
          nl = buf.indexOf('\n');
        }
      });
      resolve(req);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * n agents that reach each other directly, as a fleet's would: agent i listens for peers on
 * 127.0.0.(i+2) and bootstraps from the first. (The tests' TestCluster puts a proxy in the test's
 * own process between agents, for cutting links; at 24 agents that one process relayed every byte
 * of the cluster and was most of a write's time to reach everyone.)
 */
async function directCluster(n: number): Promise<{ nodes: AgentProcess[]; dispose(): Promise<void> }> {
  const nodes: AgentProcess[] = [];
  const dispose = async () => {
    for (const a of nodes) await a.dispose();
  };
  try {
    for (let i = 0; i < n; i++) {
      const boot = i > 0 ? ['--bootstrap', nodes[0].gossip!] : [];
      const a = new AgentProcess({ schema: SCHEMA, args: ['--gossip-addr', `127.0.0.${i + 2}:0`, ...boot] });
      nodes.push(a);
      await a.start();
      if (!a.gossip) throw new Error(`agent ${i} printed no gossip address:\n${a.output}`);
    }
  } catch (err) {
    await dispose();
    throw err;
  }
  return { nodes, dispose };
}

async function real(n: number): Promise<{
  idleBytesPerSecond: number;
  idlePeerBytesPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  reached: number;
}> {
  const c = await directCluster(n);
  const streams: http.ClientRequest[] = [];
  try {
    for (let i = 0; i < 200; i++) {
      const all = await Promise.all(c.nodes.map((x) => members(x.http)));
      if (all.every((m) => m.filter((x) => x.state === 'alive').length === n - 1)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const bytes = async () => {
      let membership = 0;
      let peer = 0;
      for (const x of c.nodes) {
        const s = (await scrape(x.http)).samples;
        membership += s.get('patina_membership_bytes_sent_total') ?? 0;
        peer += s.get('patina_peer_bytes_sent_total') ?? 0;
      }
      return { membership, peer };
    };
    const b0 = await bytes();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 10_000));
    const b1 = await bytes();
    const seconds = (performance.now() - t0) / 1000;
    const idleBytesPerSecond = (b1.membership - b0.membership) / seconds;
    const idlePeerBytesPerSecond = (b1.peer - b0.peer) / seconds;
    const seen = new Map<number, Set<number>>();
    const sentAt = new Map<number, number>();
    const reached: number[] = [];
    for (let i = 0; i < n; i++)
      streams.push(
        await watch(c.nodes[i].http, (k, t) => {
          if (k % n === i) return; // its own write
          let s = seen.get(k);
          if (!s) seen.set(k, (s = new Set()));
          s.add(i);
          if (s.size === n - 1 && sentAt.has(k)) reached.push(t - sentAt.get(k)!);
        }),
      );
    for (let w = 0; w < 30; w++) {
      const k = 1000 + w * n + (w % n);
      sentAt.set(k, performance.now());
      const r = await postJson(c.nodes[k % n].http, '/v1/transactions', [
        [`INSERT INTO kv (k, v) VALUES (?, 'x')`, [k]],
      ]);
      if (r.status !== 200) throw new Error(r.text);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (let i = 0; i < 100 && reached.length < 30; i++) await new Promise((r) => setTimeout(r, 100));
    return {
      idleBytesPerSecond: idleBytesPerSecond / n,
      idlePeerBytesPerSecond: idlePeerBytesPerSecond / n,
      p50: percentile(reached, 50),
      p90: percentile(reached, 90),
      p99: percentile(reached, 99),
      reached: reached.length,
    };
  } finally {
    for (const s of streams) s.destroy();
    await c.dispose();
  }
}

async function main(): Promise<void> {
  const sims = new Map<number, { bytesPerPeriod: number; detect: number }>();
  for (const n of (process.env.PATINA_BENCH_SIM ?? '100,300,1000').split(',').map(Number))
    sims.set(n, await simulated(n));
  for (const [n, s] of sims) {
    report(
      `simulated ${n} agents: membership bytes per agent per period`,
      s.bytesPerPeriod,
      'B',
      '100 agents',
      sims.get(100)!.bytesPerPeriod,
    );
    report(`  periods until all see a killed agent down`, s.detect, 'periods', '100 agents', sims.get(100)!.detect);
  }
  const join = new SimCluster(1000, {}, 19);
  const seed = join.nodes[0].self.addr;
  await Promise.all(join.nodes.slice(1).map((x) => x.join([seed])));
  const periods = await join.until(() => join.nodes.every((x) => x.members.size === 999), 400);
  process.stdout.write(`simulated 1,000 agents joining through one seed: all know all after ${periods} periods\n`);

  const runs = new Map<number, Awaited<ReturnType<typeof real>>>();
  for (const n of (process.env.PATINA_BENCH_AGENTS ?? '4,8,16,24').split(',').map(Number)) runs.set(n, await real(n));
  const base = runs.values().next().value!;
  for (const [n, r] of runs) {
    report(
      `${n} agents: membership bytes sent per agent per second, idle`,
      r.idleBytesPerSecond,
      'B/s',
      'the first size',
      base.idleBytesPerSecond,
    );
    report(
      `  all peer bytes sent per agent per second, idle (bodies: membership, sync, push)`,
      r.idlePeerBytesPerSecond,
      'B/s',
      'the first size',
      base.idlePeerBytesPerSecond,
    );
    report(`  write reaches every other agent, p50`, r.p50, 'ms', 'the first size', base.p50);
    report(`  write reaches every other agent, p90`, r.p90, 'ms', 'the first size', base.p90);
    report(
      `  write reaches every other agent, p99 (${r.reached} of 30 writes reached all)`,
      r.p99,
      'ms',
      '100 ms',
      100,
      {
        atMost: 1,
      },
    );
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
