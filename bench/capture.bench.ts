// Change capture: (1) insert throughput through POST /v1/transactions with capture against the
// same inserts on an agent started with capture off (Agent.start's bench-only switch); (2)
// commit-to-notify latency at 1000 writes/s with 100 open update streams, against the write
// round trip measured in the same run.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type BenchAgent, stopAgent, whenReady } from './agent';
import { median, percentile, report } from './util';

const now = () => performance.timeOrigin + performance.now();

function startAgent(capture: 'on' | 'off', commits = false): Promise<BenchAgent> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-bench-'));
  const proc = fork(path.join(__dirname, 'capture-agent.js'), [dir, capture, commits ? 'commits' : ''], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return whenReady(proc, dir, /ready (\S+)/);
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url + '/v1/transactions',
      { method: 'POST', agent: keepAlive, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(res.statusCode) : reject(new Error(`status ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const insert = (id: number) =>
  JSON.stringify([
    ['INSERT INTO items (id, name, qty, note) VALUES (?, ?, ?, ?)', [id, `item ${id}`, id % 100, 'some note text']],
  ]);

/** Inserts n rows, one transaction each, `concurrency` requests in flight; rows per second. */
async function throughput(url: string, first: number, n: number, concurrency: number): Promise<number> {
  let next = first;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < first + n) await post(url, insert(next++));
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

async function throughputFigures() {
  const on = await startAgent('on');
  const off = await startAgent('off');
  const rates = { on: [] as number[], off: [] as number[] };
  try {
    await throughput(on.url, 1, 500, 8); // warm-up
    await throughput(off.url, 1, 500, 8);
    for (let round = 0; round < 5; round++) {
      const first = 1000 + round * 3000;
      rates.off.push(await throughput(off.url, first, 3000, 8));
      rates.on.push(await throughput(on.url, first, 3000, 8));
    }
  } finally {
    await stopAgent(on);
    await stopAgent(off);
  }
  report(
    'inserts/s with capture (HTTP, 1 row per transaction, 8 in flight)',
    median(rates.on),
    'rows/s',
    'without capture',
    median(rates.off),
  );
  report('time per insert with capture', 1e6 / median(rates.on), 'us', 'without capture', 1e6 / median(rates.off));
}

async function latencyFigures() {
  const agent = await startAgent('on', true);
  const commitAt = new Map<number, number>();
  agent.proc.on('message', (m) => {
    const [id, t] = m as [number, number];
    commitAt.set(id, t);
  });
  const notifyLatency: number[] = [];
  const pending: [number, number][] = [];
  const streams: http.ClientRequest[] = [];
  let received = 0;
  for (let i = 0; i < 100; i++) {
    await new Promise<void>((resolve, reject) => {
      const req = http.request(agent.url + '/v1/updates/items', { method: 'POST', agent: false }, (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          const t = now();
          buf += d;
          let nl;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const m = /\[(\d+)\]/.exec(buf.slice(0, nl));
            buf = buf.slice(nl + 1);
            if (m) {
              pending.push([Number(m[1]), t]);
              received++;
            }
          }
        });
        resolve();
      });
      req.on('error', reject);
      req.end();
      streams.push(req);
    });
  }
  const rate = 1000;
  const seconds = 10;
  const total = rate * seconds;
  const roundTrip: number[] = [];
  let sent = 0;
  const inflight: Promise<void>[] = [];
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
      while (sent < due) {
        const id = 1_000_000 + ++sent;
        const ts = performance.now();
        inflight.push(post(agent.url, insert(id)).then(() => void roundTrip.push(performance.now() - ts)));
      }
      if (sent >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 5);
  });
  await Promise.all(inflight);
  const achieved = total / ((performance.now() - t0) / 1000);
  const deadline = Date.now() + 20000;
  while (received < total * streams.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const [id, t] of pending) {
    const c = commitAt.get(id);
    if (c !== undefined) notifyLatency.push(t - c);
  }
  for (const s of streams) s.destroy();
  await stopAgent(agent);
  process.stdout.write(
    `writes: ${total} at ${achieved.toFixed(0)}/s; notify events received: ${received} of ${total * streams.length}\n`,
  );
  report(
    'commit-to-notify p50 (100 update streams, 1000 writes/s)',
    median(notifyLatency),
    'ms',
    'write round trip p50',
    median(roundTrip),
  );
  report(
    'commit-to-notify p99 (100 update streams, 1000 writes/s)',
    percentile(notifyLatency, 99),
    'ms',
    'write round trip p99',
    percentile(roundTrip, 99),
  );
}

async function main() {
  await throughputFigures();
  await latencyFigures();
  keepAlive.destroy();
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
