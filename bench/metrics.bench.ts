// What the per-request HTTP metrics cost: point-select throughput through POST /v1/queries on an
// agent that records them, against the same build with them off (the anchor), in alternating
// rounds of the same run; and the cost of one scrape of GET /metrics against one point select.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { postJson, request } from '../test/helpers/http';
import { type BenchAgent, stopAgent, whenReady } from './agent';
import { median, postLoop, report } from './util';

const ROWS = 10_000;
const CONNECTIONS = 16;
const ROUNDS = 3;
const ROUND_MS = 2000;
const SQL = 'SELECT id, v FROM t WHERE id = ?';

async function start(metrics: 'on' | 'off'): Promise<BenchAgent> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-bench-metrics-'));
  const proc = spawn(process.execPath, [path.join(__dirname, 'metrics-agent.js'), dir, metrics], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const a = await whenReady(proc, dir, /ready (http:\/\/\S+)/);
  const r = await postJson(a.url, '/v1/transactions', [
    `INSERT INTO t (id, v) WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${ROWS}) SELECT x, 'value ' || x FROM c`,
  ]);
  if (r.status !== 200) throw new Error(r.text);
  return a;
}

/** Requests per second: CONNECTIONS keep-alive clients posting point selects for `ms`. */
function drive(base: string, ms: number): Promise<number> {
  return postLoop(base, '/v1/queries', CONNECTIONS, ms, () => `["${SQL}",[${1 + Math.floor(Math.random() * ROWS)}]]`);
}

async function main() {
  const on = await start('on');
  const off = await start('off');
  try {
    await drive(on.url, 500); // warm up both
    await drive(off.url, 500);
    const withMetrics: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      withMetrics.push(await drive(on.url, ROUND_MS));
      without.push(await drive(off.url, ROUND_MS));
    }
    process.stdout.write(
      `point select, ${CONNECTIONS} keep-alive connections, median of ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s\n`,
    );
    report(
      'POST /v1/queries with request metrics',
      median(withMetrics),
      'req/s',
      'same build without them',
      median(without),
    );
    // One scrape against one point select, each timed sequentially on the agent with metrics.
    const scrapes: number[] = [];
    const selects: number[] = [];
    for (let i = 0; i < 50; i++) {
      let t0 = performance.now();
      await request(on.url, 'GET', '/metrics');
      scrapes.push(performance.now() - t0);
      t0 = performance.now();
      await postJson(on.url, '/v1/queries', [SQL, [1 + i]]);
      selects.push(performance.now() - t0);
    }
    report('GET /metrics round trip', median(scrapes), 'ms', 'point select round trip', median(selects));
  } finally {
    await stopAgent(on);
    await stopAgent(off);
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
