// The in-process anchor of writes.bench.ts: `node writes-engine.js DIR on|off ROUNDS MS CONCURRENCY`
// starts an Agent in this process (capture on or off), loads pgbench_accounts, and runs the one-row
// UPDATE through engine.transaction from CONCURRENCY async loops (so group commit applies as it does
// for HTTP clients); prints, as JSON, the writes per second of each round and the CPU time of this
// process per write (the agent's thread and its checkpoint thread), in µs, and the system part of it.
// With ROUNDS `-` it runs one round per line read on stdin and prints each round's JSON as it ends
// (writes.bench.ts alternates them with its HTTP rounds); it stops at the end of stdin.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Agent } from '../src/agent';
import { defaultConfig } from '../src/config/config';

export const ACCOUNTS = 100_000;
export const UPDATE_SQL = 'UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = ?';

async function main() {
  const [dir, capture, rounds, ms, concurrency] = process.argv.slice(2);
  fs.writeFileSync(
    path.join(dir, 'schema.sql'),
    'CREATE TABLE pgbench_accounts (aid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, abalance INTEGER, filler TEXT);\n',
  );
  const cfg = defaultConfig();
  cfg.db.path = path.join(dir, 'engine.db');
  cfg.db.schemaPaths = [path.join(dir, 'schema.sql')];
  cfg.api.addr = { host: '127.0.0.1', port: 0 };
  const agent = await Agent.start(cfg, { capture: capture !== 'off' });
  await agent.engine.transaction([
    {
      sql: `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${ACCOUNTS}) INSERT INTO pgbench_accounts SELECT x, 1, 0, '' FROM n`,
    },
  ]);
  const out: { rates: number[]; cpuUs: number[]; sysUs: number[] } = { rates: [], cpuUs: [], sysUs: [] };
  const round = async () => {
    let done = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const end = t0 + Number(ms);
    await Promise.all(
      Array.from({ length: Number(concurrency) }, async () => {
        while (performance.now() < end) {
          await agent.engine.transaction([{ sql: UPDATE_SQL, params: [1 + Math.floor(Math.random() * ACCOUNTS)] }]);
          done++;
        }
      }),
    );
    out.rates.push(done / ((performance.now() - t0) / 1000));
    const cpu = process.cpuUsage(cpu0);
    out.cpuUs.push((cpu.user + cpu.system) / done);
    out.sysUs.push(cpu.system / done);
  };
  if (rounds === '-') {
    process.stdout.write('ready\n');
    for await (const _ of readline.createInterface({ input: process.stdin })) {
      await round();
      process.stdout.write(
        JSON.stringify({ rates: out.rates.slice(-1), cpuUs: out.cpuUs.slice(-1), sysUs: out.sysUs.slice(-1) }) + '\n',
      );
    }
  } else {
    for (let r = 0; r < Number(rounds); r++) await round();
  }
  await agent.stop();
  if (rounds !== '-') process.stdout.write(JSON.stringify(out) + '\n');
}

if (require.main === module) {
  void main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
