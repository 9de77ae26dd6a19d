// A bench-only agent process for capture.bench.ts: `node capture-agent.js DIR on|off [commits]`.
// With `off` the agent starts with change capture disabled (Agent.start's internal switch, the
// anchor of the throughput figure); with `commits` it reports each commit's time over IPC.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent } from '../src/agent';
import { defaultConfig } from '../src/config/config';

async function main() {
  const [dir, capture, commits] = process.argv.slice(2);
  fs.writeFileSync(
    path.join(dir, 'schema.sql'),
    'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT, qty INTEGER, note TEXT);\n',
  );
  const cfg = defaultConfig();
  cfg.db.path = path.join(dir, 'bench.db');
  cfg.db.schemaPaths = [path.join(dir, 'schema.sql')];
  cfg.api.addr = { host: '127.0.0.1', port: 0 };
  const agent = await Agent.start(cfg, { capture: capture !== 'off' });
  if (commits === 'commits') {
    agent.feed.observe((cs) =>
      process.send!([Number(cs.changes[0]?.pk[0]), performance.timeOrigin + performance.now()]),
    );
  }
  process.stdout.write(`ready http://${agent.apiAddr}\n`);
  process.on('SIGTERM', () => void agent.stop().then(() => process.exit(0)));
}

void main();
