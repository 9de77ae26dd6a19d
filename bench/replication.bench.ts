// Replication on three local agents (real processes on loopback):
//  (1) changesets applied per second on a receiving agent, 1-row and 100-row transactions, against
//      the same writes committed on the writing agent in the same run;
//  (2) write-to-visible-on-peer latency p50/p99 at 500 writes/s (an update stream on the peer),
//      against write-to-visible on the writing agent's own update stream;
//  (3) time for a fresh agent to sync 1M rows, against the time to write them locally;
//  (4) the longest event-loop stall of a peer while it merges a 100,000-row transaction, against the
//      time it took to get and merge it (src/engine/pace.ts: it was the whole merge, seconds in which
//      the peer answered no request and no probe).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { AgentProcess } from '../test/helpers/agent';
import { median, percentile, report } from './util';

const SCHEMA = `
CREATE TABLE kv (k INTEGER NOT NULL PRIMARY KEY, v TEXT, n INTEGER);
CREATE TABLE big (id INTEGER NOT NULL PRIMARY KEY, v TEXT, n INTEGER);
`;
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

function req(base: string, method: string, path: string, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = http.request(
      base + path,
      { method, agent: keepAlive, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        let t = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (t += d));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(t) : reject(new Error(`${path}: ${res.statusCode} ${t}`)),
        );
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

const tx = (base: string, stmts: unknown[]) =>
  req(base, 'POST', '/v1/transactions', JSON.stringify(stmts)).then(
    (t) => JSON.parse(t) as { version: number; actor_id: string },
  );

async function headOf(base: string, actor: string): Promise<number> {
  const st = JSON.parse(await req(base, 'GET', '/v1/sync/status')) as {
    origins: { actor_id: string; head: number; missing: number }[];
  };
  const o = st.origins.find((x) => x.actor_id === actor);
  return o && o.missing === 0 ? o.head : 0;
}

async function waitHead(base: string, actor: string, version: number, timeoutMs = 300_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while ((await headOf(base, actor)) < version) {
    if (Date.now() > deadline) throw new Error(`peer did not reach version ${version} of ${actor}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now();
}

/** The peer's longest event-loop delay since the last scrape (prom-client resets it at each). */
async function lagMaxMs(base: string): Promise<number> {
  const m = /^patina_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(await req(base, 'GET', '/metrics'));
  return m ? Number(m[1]) * 1000 : 0;
}

/** One 100,000-row transaction on `writer`; `peer`'s longest stall until it has it, and how long that took. */
async function mergeStall(
  writer: AgentProcess,
  peer: AgentProcess,
  first: number,
): Promise<{ longestMs: number; mergeMs: number }> {
  await lagMaxMs(peer.http);
  const written = await tx(writer.http, [
    [
      "WITH RECURSIVE s(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM s WHERE i < ?) INSERT INTO kv (k, v, n) SELECT i, printf('row %d', i), i FROM s",
      [first, first + 99_999],
    ],
  ]);
  const t0 = performance.now();
  let longestMs = 0;
  while ((await headOf(peer.http, written.actor_id)) < written.version) {
    longestMs = Math.max(longestMs, await lagMaxMs(peer.http));
    await new Promise((r) => setTimeout(r, 100));
  }
  const mergeMs = performance.now() - t0;
  return { longestMs: Math.max(longestMs, await lagMaxMs(peer.http)), mergeMs };
}

async function startNode(bootstrap: string | null): Promise<AgentProcess> {
  const a = new AgentProcess({
    schema: SCHEMA,
    args: ['--gossip-addr', '127.0.0.1:0', ...(bootstrap ? ['--bootstrap', bootstrap] : [])],
  });
  return a.start(60_000);
}

/** n transactions of `rows` rows on `writer`, 16 in flight; returns local and peer rates (changesets/s). */
async function applyRate(
  writer: AgentProcess,
  peer: AgentProcess,
  first: number,
  n: number,
  rows: number,
): Promise<[number, number]> {
  let next = 0;
  let last = { version: 0, actor_id: '' };
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < n) {
        const i = next++;
        const base = first + i * rows;
        const r = await tx(writer.http, [
          [
            "WITH RECURSIVE s(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM s WHERE i < ?) INSERT INTO kv (k, v, n) SELECT i, printf('v%d', i), i FROM s",
            [base, base + rows - 1],
          ],
        ]);
        if (r.version > last.version) last = r;
      }
    }),
  );
  const tLocal = performance.now();
  const tPeer = await waitHead(peer.http, last.actor_id, last.version);
  return [n / ((tLocal - t0) / 1000), n / ((tPeer - t0) / 1000)];
}

/** Opens an update stream on `watch`; calls `seen(k, t)` for each notified key. */
async function watchKeys(watch: AgentProcess, seen: (k: number, t: number) => void): Promise<http.IncomingMessage> {
  const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const r = http.request(watch.http + '/v1/updates/kv', { method: 'POST', agent: false }, resolve);
    r.on('error', reject);
    r.end();
  });
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (d: string) => {
    const t = performance.now();
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const m = /"notify":\["update",\[(\d+)\]\]/.exec(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      if (m) seen(Number(m[1]), t);
    }
  });
  return stream;
}

/**
 * 500 one-row writes/s on `writer` for `seconds`; latencies (ms) from sending each write to its
 * notify on the writer's own update stream and on the peer's, for the same writes.
 */
async function latencies(
  writer: AgentProcess,
  peer: AgentProcess,
  first: number,
  seconds: number,
): Promise<{ self: number[]; peer: number[] }> {
  const sent = new Map<number, number>();
  const out = { self: [] as number[], peer: [] as number[] };
  const streams = await Promise.all(
    (['self', 'peer'] as const).map((which) =>
      watchKeys(which === 'self' ? writer : peer, (k, t) => {
        const s = sent.get(k);
        if (s !== undefined) out[which].push(t - s);
      }),
    ),
  );
  await new Promise((r) => setTimeout(r, 200));
  const n = seconds * 500;
  const t0 = performance.now();
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const due = t0 + i * 2;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const k = first + i;
    sent.set(k, performance.now());
    writes.push(tx(writer.http, [['INSERT INTO kv (k, v, n) VALUES (?, ?, ?)', [k, 'lat', i]]]));
  }
  await Promise.all(writes);
  const deadline = Date.now() + 30_000;
  while (out.peer.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const s of streams) s.destroy();
  return out;
}

/** Changesets/s a paused peer applies once resumed (it catches up by sync), against the writer's commit rate. */
async function catchUpRate(
  writer: AgentProcess,
  peer: AgentProcess,
  first: number,
  n: number,
): Promise<[number, number]> {
  peer.proc.kill('SIGSTOP');
  let last = { version: 0, actor_id: '' };
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < n) {
        const k = first + next++;
        const r = await tx(writer.http, [['INSERT INTO kv (k, v, n) VALUES (?, ?, ?)', [k, 'catch up', k]]]);
        if (r.version > last.version) last = r;
      }
    }),
  );
  const writeSecs = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  peer.proc.kill('SIGCONT');
  const t2 = await waitHead(peer.http, last.actor_id, last.version);
  return [n / writeSecs, n / ((t2 - t1) / 1000)];
}

async function main() {
  const a = await startNode(null);
  const b = await startNode(a.gossip);
  const c = await startNode(a.gossip);
  const nodes = [a, b, c];
  try {
    // Let membership settle: every agent knows two alive peers.
    for (;;) {
      const ms = await Promise.all(
        nodes.map(
          async (n) =>
            (JSON.parse(await req(n.http, 'GET', '/v1/cluster/members')) as { members: { state: string }[] }).members,
        ),
      );
      if (ms.every((m) => m.length === 2 && m.every((x) => x.state === 'alive'))) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    for (const rows of [1, 100]) {
      const n = rows === 1 ? 2000 : 200;
      const local: number[] = [];
      const peer: number[] = [];
      for (let run = 0; run < 3; run++) {
        const [l, p] = await applyRate(a, b, 1_000_000 * (rows === 1 ? 1 : 2) + run * n * rows, n, rows);
        local.push(l);
        peer.push(p);
      }
      report(
        `changesets applied/s on a peer (${rows}-row transactions)`,
        median(peer),
        'changesets/s',
        'committed/s on the writer',
        median(local),
      );
    }

    const [committed, caughtUp] = await catchUpRate(a, c, 4_000_000, 3000);
    report(
      'changesets applied/s by a paused peer catching up (1-row)',
      caughtUp,
      'changesets/s',
      'committed/s on the writer',
      committed,
    );

    const lat = await latencies(a, b, 5_000_000, 8);
    report(
      'write-to-visible on a peer p50 at 500 writes/s',
      percentile(lat.peer, 50),
      'ms',
      'on the writer itself',
      percentile(lat.self, 50),
    );
    report(
      'write-to-visible on a peer p99 at 500 writes/s',
      percentile(lat.peer, 99),
      'ms',
      'on the writer itself',
      percentile(lat.self, 99),
    );
    if (lat.peer.length < 4000) process.stdout.write(`(only ${lat.peer.length} of 4000 writes seen on the peer)\n`);

    const stall = await mergeStall(a, b, 6_000_000);
    report(
      'longest stall of a peer merging a 100,000-row transaction',
      stall.longestMs,
      'ms',
      'the time it took to get and merge it',
      stall.mergeMs,
    );

    // 1M rows in 100 transactions of 10,000 rows, written on a; then a fresh agent syncs them.
    const t0 = performance.now();
    let last = { version: 0, actor_id: '' };
    for (let i = 0; i < 100; i++) {
      const lo = i * 10_000 + 1;
      last = await tx(a.http, [
        [
          "WITH RECURSIVE s(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM s WHERE i < ?) INSERT INTO big (id, v, n) SELECT i, printf('row %d', i), i * 7 FROM s",
          [lo, lo + 9999],
        ],
      ]);
    }
    const writeSecs = (performance.now() - t0) / 1000;
    // b and c must hold it too, so the fresh agent can pull from anyone.
    await waitHead(b.http, last.actor_id, last.version);
    await waitHead(c.http, last.actor_id, last.version);
    const t1 = performance.now();
    const d = await startNode(a.gossip);
    nodes.push(d);
    const tDone = await waitHead(d.http, last.actor_id, last.version, 600_000);
    const count = JSON.parse(
      (await req(d.http, 'POST', '/v1/queries', JSON.stringify('SELECT count(*) FROM big'))).split('\n')[1],
    ).row[1][0];
    if (count !== 1_000_000) throw new Error(`fresh agent has ${count} rows`);
    report('fresh agent syncs 1M rows', (tDone - t1) / 1000, 's', 'writing them locally', writeSecs);
  } finally {
    for (const n of nodes) await n.dispose();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
