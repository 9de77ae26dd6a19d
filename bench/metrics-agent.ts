// A bench-only agent process for metrics.bench.ts: `node metrics-agent.js DIR on|off`. With `off`
// the agent records no per-request HTTP metrics (Agent.start's internal switch, the anchor).
import fs from 'node:fs';
import path from 'node:path';
import { Agent } from '../src/agent';
import { defaultConfig } from '../src/config/config';
import { setupLogging } from '../src/observability/log';

async function main() {
  const [dir, metrics] = process.argv.slice(2);
  fs.writeFileSync(path.join(dir, 'schema.sql'), 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);\n');
  const cfg = defaultConfig();
  cfg.db.path = path.join(dir, 'bench.db');
  cfg.db.schemaPaths = [path.join(dir, 'schema.sql')];
  cfg.api.addr = { host: '127.0.0.1', port: 0 };
  cfg.log.level = 'warn';
  setupLogging(cfg.log);
  const agent = await Agent.start(cfg, { requestMetrics: metrics !== 'off' });
  process.stdout.write(`ready http://${agent.apiAddr}\n`);
  process.on('SIGTERM', () => void agent.stop().then(() => process.exit(0)));
}

void main();
