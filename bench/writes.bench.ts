// Writes against PostgreSQL 15 with synchronous_commit = off (the same durability promise as SQLite's
// WAL with synchronous = NORMAL: a commit survives a crash of the server process, not of the machine),
// started by the bench with the same pgbench tables, in the same run:
//   - one-row autocommit UPDATE over the PG port (pgbench -M prepared), 1 and 4 clients;
//   - pgbench's built-in TPC-B-like script, 4 clients;
//   - the one-row UPDATE also against the Node floor (pg-floor.ts `write`): a responder that knows only
//     that statement and runs it on a plain SQLite file with group commit and no change capture, i.e.
//     what any Node front end over SQLite pays for the write; it tells Patina's own cost from the stack's;
//   - one-row POST /v1/transactions over HTTP, 16 keep-alive connections, against the same statement
//     run in-process through the engine (16 async loops) with change capture on, and with it off;
//   - literal writes over the simple protocol (pgbench -M simple, 3 clients): what psycopg2 and the
//     ORMs on it send, every value written into the SQL text (an INSERT ... ON CONFLICT DO NOTHING, an
//     UPDATE and a DELETE per transaction, each autocommitted), in LITERAL_ROUNDS alternating rounds of
//     WRITES_BENCH_LITERAL_SECONDS (default 10) per side, with Patina's statement analysis cache
//     over the run: the front end lifts the literals into parameters, so each session should analyse
//     each of the three shapes once.
// Each figure is the median of ROUNDS runs (WRITES_BENCH_ROUNDS, default 3) of WRITES_BENCH_SECONDS
// (default 4) each, Patina and PostgreSQL alternating; each pgbench line also prints the CPU time a
// transaction cost the server and pgbench. WRITES_BENCH_ONLY=http runs only the HTTP figure and its
// in-process anchors (no PostgreSQL), =pg only the pgbench figures, =tpcb only TPC-B-like, =literal
// only the literal writes;
// PATINA_BENCH_PROF=DIR writes the agent's CPU profile there.
// PATINA_BENCH_PERF=1 starts the agent with --perf-basic-prof, so `perf record -p PID` names its JavaScript frames.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { AgentProcess } from '../test/helpers/agent';
import {
  type BenchPostgres,
  type PgbenchRun,
  cpuOfTree,
  pgbench,
  postmasterPid,
  psql,
  startPostgres,
  stopPostgres,
} from './postgres';
import Database from 'better-sqlite3';
import { scrape } from '../test/helpers/metrics';
import { fmt, median, postLoop, report, startFloor } from './util';
import { ACCOUNTS, UPDATE_SQL } from './writes-engine';

const SECONDS = Number(process.env.WRITES_BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.WRITES_BENCH_ROUNDS ?? 3);
const HTTP_CONNECTIONS = 16;

const SCHEMA = (history: string) => `
CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, name TEXT, qty INTEGER, price NUMERIC(10,2), note TEXT, created TIMESTAMP);
CREATE TABLE pgbench_accounts (aid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, abalance INTEGER, filler TEXT);
CREATE TABLE pgbench_branches (bid INTEGER NOT NULL PRIMARY KEY, bbalance INTEGER, filler TEXT);
CREATE TABLE pgbench_tellers (tid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, tbalance INTEGER, filler TEXT);
CREATE TABLE pgbench_history (${history}, tid INTEGER, bid INTEGER, aid INTEGER, delta INTEGER, mtime TIMESTAMP, filler TEXT);
`;
/** The history key each side makes for pgbench's INSERT, which gives none: a 64-bit integer. */
const PATINA_SCHEMA = SCHEMA('hid BIGINT NOT NULL PRIMARY KEY DEFAULT (patina_id())');
const PG_SCHEMA = SCHEMA('hid BIGSERIAL PRIMARY KEY');
const UPDATE_SCRIPT = `\\set aid random(1, ${ACCOUNTS})\nUPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;\n`;

const LITERAL_SECONDS = Number(process.env.WRITES_BENCH_LITERAL_SECONDS ?? 10);
const LITERAL_ROUNDS = Math.max(3, ROUNDS);
/** Keys of the literal writes; half are loaded first, where inserts and deletes keep the table. */
const ITEMS = 20_000;
/**
 * What psycopg2 sends for `cur.execute(sql, params)`: every value interpolated into the text (pgbench
 * -M simple substitutes `:var` inside quotes as well), so each transaction's texts are new.
 */
const LITERAL_SCRIPT = `\\set id random(1, ${ITEMS})
\\set id2 random(1, ${ITEMS})
\\set q random(1, 1000)
INSERT INTO items (id, name, qty, price, note, created) VALUES (:id, 'name :id', :q, :q.25, 'note', '2024-01-15 10:30:00') ON CONFLICT (id) DO NOTHING;
UPDATE items SET qty = :q, note = 'x :q' WHERE id = :id;
DELETE FROM items WHERE id = :id2;
`;

function load(port: number, user: string, generate: string) {
  psql(
    port,
    user,
    `INSERT INTO pgbench_accounts SELECT x, 1, 0, '' FROM ${generate.replace('$COUNT', String(ACCOUNTS))}`,
  );
  psql(port, user, `INSERT INTO pgbench_branches VALUES (1, 0, '')`);
  psql(port, user, `INSERT INTO pgbench_tellers SELECT x, 1, 0, '' FROM ${generate.replace('$COUNT', '10')}`);
  psql(
    port,
    user,
    `INSERT INTO items SELECT x, 'name ' || x, 1, 1.25, 'note', '2024-01-15 10:30:00' FROM ${generate.replace('$COUNT', String(ITEMS / 2))}`,
  );
}

/** One-row POST /v1/transactions per request from HTTP_CONNECTIONS keep-alive connections: writes per second. */
function driveHttp(base: string, ms: number): Promise<number> {
  return postLoop(
    base,
    '/v1/transactions',
    HTTP_CONNECTIONS,
    ms,
    () => `[["${UPDATE_SQL}",[${1 + Math.floor(Math.random() * ACCOUNTS)}]]]`,
  );
}

interface EngineRounds {
  rates: number[];
  cpuUs: number[];
  sysUs: number[];
}

/**
 * The in-process anchor (writes-engine.ts) in its own process, kept running: `round()` runs one
 * round there, so that its rounds alternate with the HTTP rounds (this machine's load changes
 * from minute to minute; the rounds of a ratio should see the same load).
 */
async function inProcess(
  capture: 'on' | 'off',
): Promise<{ round(): Promise<void>; results: EngineRounds; stop(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-writes-engine-'));
  const child = spawn(
    process.execPath,
    [path.join(__dirname, 'writes-engine.js'), dir, capture, '-', String(SECONDS * 500), String(HTTP_CONNECTIONS)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let log = ''; // the agent's log, shown only if the child fails
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  // Its own lines: `ready`, then one JSON object per round (the agent's log lines are skipped).
  const next = async (): Promise<string> => {
    for (;;) {
      const l = await lines.next();
      if (l.done) throw new Error(`writes-engine (capture ${capture}) ended early:\n${log}`);
      if (l.value === 'ready' || l.value.startsWith('{"rates"')) return l.value;
    }
  };
  await next();
  const results: EngineRounds = { rates: [], cpuUs: [], sysUs: [] };
  return {
    results,
    async round() {
      child.stdin!.write('round\n');
      const r = JSON.parse(await next()) as EngineRounds;
      results.rates.push(...r.rates);
      results.cpuUs.push(...r.cpuUs);
      results.sysUs.push(...r.sysUs);
    },
    stop() {
      child.stdin!.end();
      child.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    },
  };
}

/**
 * The floors' own SQLite file: the same pgbench_accounts rows, no triggers; for `write-clock`, a clock
 * table in the shape Patina keeps (a row per column and the row's sentinel, indexed by site and
 * version) filled as Patina's is after the load, and a meta row for the last version.
 */
function floorFile(dir: string): string {
  const file = path.join(dir, 'floor.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(`${SCHEMA('hid INTEGER NOT NULL PRIMARY KEY')};
    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${ACCOUNTS}) INSERT INTO pgbench_accounts SELECT x, 1, 0, '' FROM n;
    CREATE TABLE pgbench_accounts__clock (pk BLOB NOT NULL, cid TEXT NOT NULL, col_version INTEGER NOT NULL, db_version INTEGER NOT NULL,
      site_id BLOB NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (pk, cid)) WITHOUT ROWID;
    CREATE INDEX pgbench_accounts__clock_site_version ON pgbench_accounts__clock (site_id, db_version);
    INSERT INTO pgbench_accounts__clock SELECT unhex('0101' || printf('%016x', aid)), c.cid, 1, 1, zeroblob(16), c.seq
      FROM pgbench_accounts, (SELECT '-1' AS cid, 0 AS seq UNION ALL SELECT 'bid', 1 UNION ALL SELECT 'abalance', 2 UNION ALL SELECT 'filler', 3) AS c;
    CREATE TABLE meta (key TEXT NOT NULL PRIMARY KEY, value);
    INSERT INTO meta VALUES ('db_version', 1);`);
  db.close();
  return file;
}

function medianRun(runs: PgbenchRun[]): PgbenchRun {
  const m = median(runs.map((r) => r.tps));
  return runs.find((r) => r.tps === m)!;
}

/** Resolves once the process tree of `pid` used under 5% of a core for half a second, or after `maxMs`. */
async function settle(pid: number, maxMs: number): Promise<void> {
  const end = Date.now() + maxMs;
  while (Date.now() < end) {
    const a = cpuOfTree(pid);
    await new Promise((r) => setTimeout(r, 500));
    const b = cpuOfTree(pid);
    if (b.user + b.sys - a.user - a.sys < 0.05 * 500_000) return;
  }
}

/** One-row POST /v1/transactions against the same write in-process, with capture on and off. */
async function httpFigures(base: string, agentPid: number): Promise<void> {
  const httpRounds: number[] = [];
  const serverUs: number[] = [];
  const serverSysUs: number[] = [];
  const clientUs: number[] = [];
  // After the pgbench runs the agent still checkpoints their WAL (its checkpoint thread counts in
  // its CPU, and takes a core from the HTTP rounds): wait until it is quiet, at most 20 s.
  await settle(agentPid, 20_000);
  const on = await inProcess('on');
  const off = await inProcess('off');
  // One round of each first that is not counted: the code runs here for the first time (not yet
  // optimised), and the pgbench runs' WAL is still being checkpointed.
  await driveHttp(base, SECONDS * 500);
  await on.round();
  await off.round();
  on.results.rates.length = on.results.cpuUs.length = on.results.sysUs.length = 0;
  off.results.rates.length = off.results.cpuUs.length = off.results.sysUs.length = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const server0 = cpuOfTree(agentPid);
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    const rate = await driveHttp(base, SECONDS * 500);
    const writes = (rate * (performance.now() - t0)) / 1000;
    const server = cpuOfTree(agentPid);
    const client = process.cpuUsage(client0);
    httpRounds.push(rate);
    serverUs.push((server.user + server.sys - server0.user - server0.sys) / writes);
    serverSysUs.push((server.sys - server0.sys) / writes);
    clientUs.push((client.user + client.system) / writes);
    await on.round();
    await off.round();
  }
  on.stop();
  off.stop();
  const h = median(httpRounds);
  const perRound = httpRounds.map((x, i) => (x / on.results.rates[i]).toFixed(2)).join(', ');
  report(
    `one-row POST /v1/transactions, ${HTTP_CONNECTIONS} connections`,
    h,
    'writes/s',
    'in-process engine.transaction, capture on',
    median(on.results.rates),
    { atLeast: 0.5 },
  );
  report(`  the same`, h, 'writes/s', 'in-process, capture off', median(off.results.rates));
  report(
    `  in-process, capture off`,
    median(off.results.rates),
    'writes/s',
    'in-process, capture on',
    median(on.results.rates),
    { atMost: 1.5 },
  );
  process.stdout.write(
    `    rounds (alternating): HTTP ${httpRounds.map(fmt).join(', ')}; capture on ${on.results.rates.map(fmt).join(', ')}; capture off ${off.results.rates.map(fmt).join(', ')}; HTTP / capture on per round: ${perRound}\n`,
  );
  process.stdout.write(
    `    CPU per HTTP write (medians): agent ${median(serverUs).toFixed(1)} µs (system ${median(serverSysUs).toFixed(1)}), bench client ${median(clientUs).toFixed(1)} µs\n`,
  );
  process.stdout.write(
    `    CPU per in-process write (medians): capture on ${median(on.results.cpuUs).toFixed(1)} µs (system ${median(on.results.sysUs).toFixed(1)}), off ${median(off.results.cpuUs).toFixed(1)} µs\n`,
  );
}

/**
 * Literal writes over the simple protocol, Patina and PostgreSQL alternating: TPS, server CPU per
 * transaction and Patina's analysis cache (hits and misses over Patina's runs, from /metrics).
 */
async function literalFigures(
  dir: string,
  pg: BenchPostgres,
  postmaster: number,
  patinaPort: number,
  agent: AgentProcess,
): Promise<void> {
  const script = path.join(dir, 'literal.sql');
  fs.writeFileSync(script, LITERAL_SCRIPT);
  const args = ['-f', script, '-c', '3', '-j', '3', '-M', 'simple', '-T', String(LITERAL_SECONDS)];
  const cacheCount = (s: Awaited<ReturnType<typeof scrape>>, r: string) =>
    s.samples.get(`patina_pg_analysis_cache_total{result="${r}"}`) ?? 0;
  const patina: PgbenchRun[] = [];
  const postgres: PgbenchRun[] = [];
  let hits = 0;
  let misses = 0;
  // a short run of each first that is not counted: Patina's code for these statements is not yet
  // optimised in its first seconds (a 1 s first round cost twice the CPU per transaction of the next)
  const warmup = [...args.slice(0, -1), '2'];
  await pgbench(pg.port, 'bench', warmup, postmaster);
  await pgbench(patinaPort, 'bench', warmup, agent.proc.pid!);
  for (let r = 0; r < LITERAL_ROUNDS; r++) {
    postgres.push(await pgbench(pg.port, 'bench', args, postmaster));
    const before = await scrape(agent.http);
    const p = await pgbench(patinaPort, 'bench', args, agent.proc.pid!);
    const after = await scrape(agent.http);
    patina.push(p);
    hits += cacheCount(after, 'hit') - cacheCount(before, 'hit');
    misses += cacheCount(after, 'miss') - cacheCount(before, 'miss');
  }
  const cpu = (r: PgbenchRun) => r.serverUser + r.serverSys;
  const p = medianRun(patina);
  const q = medianRun(postgres);
  const name = 'literal writes (INSERT ON CONFLICT, UPDATE, DELETE), -M simple, 3 clients';
  report(`${name}: Patina`, p.tps, 'tps', 'PostgreSQL', q.tps);
  report('    server CPU per transaction', median(patina.map(cpu)), 'µs', 'PostgreSQL', median(postgres.map(cpu)));
  process.stdout.write(
    `    rounds (${LITERAL_ROUNDS} x ${LITERAL_SECONDS} s per side, alternating): Patina ${patina.map((r) => fmt(r.tps)).join(', ')}; PostgreSQL ${postgres.map((r) => fmt(r.tps)).join(', ')}; Patina / PostgreSQL per round ${patina.map((r, i) => (r.tps / postgres[i].tps).toFixed(2)).join(', ')}; failed transactions: Patina ${patina.reduce((n, r) => n + r.failed, 0)}, PostgreSQL ${postgres.reduce((n, r) => n + r.failed, 0)}\n`,
  );
  process.stdout.write(
    `    server CPU per transaction per round, µs: Patina ${patina.map((r) => cpu(r).toFixed(0)).join(', ')}; PostgreSQL ${postgres.map((r) => cpu(r).toFixed(0)).join(', ')}; pgbench (medians) ${median(patina.map((r) => r.clientUs)).toFixed(0)} against ${median(postgres.map((r) => r.clientUs)).toFixed(0)}\n`,
  );
  process.stdout.write(
    `    Patina's statement analysis cache over its ${LITERAL_ROUNDS} runs: ${hits} hits, ${misses} misses (analyses made; ${LITERAL_ROUNDS} runs x 3 sessions x 3 shapes = ${LITERAL_ROUNDS * 9}) over ${hits + misses} statements; hit rate ${((100 * hits) / Math.max(1, hits + misses)).toFixed(3)}%\n`,
  );
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-writes-'));
  fs.chmodSync(dir, 0o755);
  const update = path.join(dir, 'update.sql');
  fs.writeFileSync(update, UPDATE_SCRIPT);
  const prof = process.env.PATINA_BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PATINA_BENCH_PROF}`] : [];
  if (process.env.PATINA_BENCH_PERF) prof.push('--perf-basic-prof');
  // the Unix-domain socket too, for the TPC-B figure over sockets (PostgreSQL's is in the same folder)
  const agent = new AgentProcess({
    schema: PATINA_SCHEMA,
    args: ['--pg-addr', '127.0.0.1:0', '--pg-socket-dir', dir],
    nodeArgs: prof,
  });
  let pg: BenchPostgres | null = null;
  let floors: ChildProcess[] = [];
  try {
    await agent.start();
    const patinaPort = agent.pg!.port;
    load(
      patinaPort,
      'bench',
      `(WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < $COUNT) SELECT x FROM n)`,
    );
    const only = process.env.WRITES_BENCH_ONLY;
    if (only === 'http') return await httpFigures(agent.http, agent.proc.pid!);
    pg = await startPostgres(dir, ['synchronous_commit=off']);
    psql(pg.port, 'bench', PG_SCHEMA);
    load(pg.port, 'bench', 'generate_series(1, $COUNT) x');
    psql(pg.port, 'bench', 'VACUUM ANALYZE');
    const postmaster = postmasterPid(pg);
    const file = floorFile(dir);
    const nodeFloor = await startFloor(file, 1, 'write');
    const clockFloor = await startFloor(file, 1, 'write-clock');
    floors = [nodeFloor.proc, clockFloor.proc];
    process.stdout.write(
      `writes: pgbench -M prepared -j 2, ${ACCOUNTS} accounts, ${ROUNDS} x ${SECONDS} s per figure (medians), ${os.cpus().length} CPUs; PostgreSQL with synchronous_commit = off\n`,
    );
    // [name, pgbench arguments, whether the Node floor knows the script, the goal against PostgreSQL,
    // where pgbench connects: loopback TCP, or both servers' Unix-domain sockets in `dir`]
    const workloads: [string, string[], boolean, number, string][] = [
      ['one-row autocommit UPDATE, 1 client', ['-f', update, '-c', '1', '-j', '1'], true, 1, '127.0.0.1'],
      ['one-row autocommit UPDATE, 4 clients', ['-f', update, '-c', '4', '-j', '2'], true, 1, '127.0.0.1'],
      ['TPC-B-like (-b tpcb-like), 4 clients', ['-b', 'tpcb-like', '-c', '4', '-j', '2'], false, 0.5, '127.0.0.1'],
      // the same over Unix-domain sockets, both sides: a socket write costs less than loopback TCP's
      ['TPC-B-like, 4 clients, Unix-domain sockets', ['-b', 'tpcb-like', '-c', '4', '-j', '2'], false, 0.5, dir],
    ];
    const chosen = only === 'tpcb' ? workloads.slice(2) : only === 'literal' ? [] : workloads;
    for (const [name, args, floored, goal, host] of chosen) {
      const full = [...args, '-M', 'prepared', '-T', String(SECONDS)];
      const patina: PgbenchRun[] = [];
      const postgres: PgbenchRun[] = [];
      const bare: PgbenchRun[] = [];
      const clocked: PgbenchRun[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        postgres.push(await pgbench(pg.port, 'bench', full, postmaster, host));
        patina.push(await pgbench(patinaPort, 'bench', full, agent.proc.pid!, host));
        if (!floored) continue;
        bare.push(await pgbench(nodeFloor.port, 'bench', full, nodeFloor.proc.pid!));
        clocked.push(await pgbench(clockFloor.port, 'bench', full, clockFloor.proc.pid!));
      }
      const p = medianRun(patina);
      const q = medianRun(postgres);
      report(`${name}: Patina`, p.tps, 'tps', 'PostgreSQL', q.tps, { atLeast: goal });
      if (floored) {
        const f = medianRun(bare);
        const c = medianRun(clocked);
        report(`  Node floor (SQLite, group commit, no capture)`, f.tps, 'tps', 'PostgreSQL', q.tps);
        report(`  Node floor with the clock row (the CRDT model's least)`, c.tps, 'tps', 'PostgreSQL', q.tps);
        report(`  Patina`, p.tps, 'tps', 'Node floor with the clock row', c.tps);
        for (const [label, runs, m] of [
          ['no capture', bare, f],
          ['with the clock row', clocked, c],
        ] as const) {
          process.stdout.write(
            `    Node floor ${label}: rounds ${runs.map((r) => fmt(r.tps)).join(', ')}; CPU per transaction ${(m.serverUser + m.serverSys).toFixed(0)} µs (pgbench ${m.clientUs.toFixed(0)})\n`,
          );
        }
      }
      const failed = patina.reduce((n, r) => n + r.failed, 0);
      process.stdout.write(
        `    rounds: Patina ${patina.map((r) => fmt(r.tps)).join(', ')}; PostgreSQL ${postgres.map((r) => fmt(r.tps)).join(', ')}; failed transactions (Patina): ${failed}\n`,
      );
      process.stdout.write(
        `    CPU per transaction: Patina ${(p.serverUser + p.serverSys).toFixed(0)} µs (user ${p.serverUser.toFixed(0)}, system ${p.serverSys.toFixed(0)}; pgbench ${p.clientUs.toFixed(0)}), PostgreSQL ${(q.serverUser + q.serverSys).toFixed(0)} µs (user ${q.serverUser.toFixed(0)}, system ${q.serverSys.toFixed(0)}; pgbench ${q.clientUs.toFixed(0)})\n`,
      );
    }
    if (only !== 'tpcb') await literalFigures(dir, pg, postmaster, patinaPort, agent);
    stopPostgres(pg);
    pg = null;
    if (only === 'pg' || only === 'tpcb' || only === 'literal') return;
    await httpFigures(agent.http, agent.proc.pid!);
  } finally {
    if (pg) stopPostgres(pg);
    for (const f of floors) f.kill();
    if (prof.length > 0) await agent.stop(); // a clean exit writes the profile
    await agent.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
