// Writes against PostgreSQL 15 with synchronous_commit = off (the same durability promise as SQLite's
// WAL with synchronous = NORMAL: a commit survives a crash of the server process, not of the machine),
// started by the bench with the same pgbench tables, in the same run:
//   - one-row autocommit UPDATE over the PG port (pgbench -M prepared), 1 and 4 clients;
//   - pgbench's built-in TPC-B-like script, 4 clients;
//   - the one-row UPDATE also against the Node floor (pg-floor.ts `write`): a responder that knows only
//     that statement and runs it on a plain SQLite file with group commit and no change capture, i.e.
//     what any Node front end over SQLite pays for the write; it tells Patina's own cost from the stack's;
//   - one-row POST /v1/transactions over HTTP, 16 keep-alive connections, against the same statement
//     run in-process through the engine (16 async loops) with change capture on, and with it off.
// Each figure is the median of ROUNDS runs (WRITES_BENCH_ROUNDS, default 3) of WRITES_BENCH_SECONDS
// (default 4) each, Patina and PostgreSQL alternating; each pgbench line also prints the CPU time a
// transaction cost the server and pgbench.
import { type ChildProcess, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentProcess } from '../test/helpers/agent';
import { type BenchPostgres, type PgbenchRun, pgbench, postmasterPid, psql, startPostgres, stopPostgres } from './postgres';
import Database from 'better-sqlite3';
import { fmt, median, postLoop, report, startFloor } from './util';
import { ACCOUNTS, UPDATE_SQL } from './writes-engine';

const SECONDS = Number(process.env.WRITES_BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.WRITES_BENCH_ROUNDS ?? 3);
const HTTP_CONNECTIONS = 16;

const SCHEMA = (history: string) => `
CREATE TABLE pgbench_accounts (aid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, abalance INTEGER, filler TEXT);
CREATE TABLE pgbench_branches (bid INTEGER NOT NULL PRIMARY KEY, bbalance INTEGER, filler TEXT);
CREATE TABLE pgbench_tellers (tid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, tbalance INTEGER, filler TEXT);
CREATE TABLE pgbench_history (${history}, tid INTEGER, bid INTEGER, aid INTEGER, delta INTEGER, mtime TIMESTAMP, filler TEXT);
`;
/** The history key each side makes for pgbench's INSERT, which gives none: a 64-bit integer. */
const PATINA_SCHEMA = SCHEMA('hid BIGINT NOT NULL PRIMARY KEY DEFAULT (patina_id())');
const PG_SCHEMA = SCHEMA('hid BIGSERIAL PRIMARY KEY');
const UPDATE_SCRIPT = `\\set aid random(1, ${ACCOUNTS})\nUPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;\n`;

function load(port: number, user: string, generate: string) {
  psql(port, user, `INSERT INTO pgbench_accounts SELECT x, 1, 0, '' FROM ${generate.replace('$COUNT', String(ACCOUNTS))}`);
  psql(port, user, `INSERT INTO pgbench_branches VALUES (1, 0, '')`);
  psql(port, user, `INSERT INTO pgbench_tellers SELECT x, 1, 0, '' FROM ${generate.replace('$COUNT', '10')}`);
}

/** One-row POST /v1/transactions per request from HTTP_CONNECTIONS keep-alive connections: writes per second. */
function driveHttp(base: string, ms: number): Promise<number> {
  return postLoop(base, '/v1/transactions', HTTP_CONNECTIONS, ms, () => `[["${UPDATE_SQL}",[${1 + Math.floor(Math.random() * ACCOUNTS)}]]]`);
}

/** The in-process anchor (writes-engine.ts) in its own process: writes per second and CPU µs per write of each round. */
function inProcess(capture: 'on' | 'off'): { rates: number[]; cpuUs: number[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-writes-engine-'));
  try {
    const r = spawnSync(process.execPath, [path.join(__dirname, 'writes-engine.js'), dir, capture, String(ROUNDS), String(SECONDS * 500), String(HTTP_CONNECTIONS)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`writes-engine failed:\n${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as { rates: number[]; cpuUs: number[] };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
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

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-writes-'));
  fs.chmodSync(dir, 0o755);
  const update = path.join(dir, 'update.sql');
  fs.writeFileSync(update, UPDATE_SCRIPT);
  const agent = new AgentProcess({ schema: PATINA_SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
  let pg: BenchPostgres | null = null;
  let floors: ChildProcess[] = [];
  try {
    await agent.start();
    const patinaPort = agent.pg!.port;
    load(patinaPort, 'bench', `(WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < $COUNT) SELECT x FROM n)`);
    pg = await startPostgres(dir, ['synchronous_commit=off']);
    psql(pg.port, 'bench', PG_SCHEMA);
    load(pg.port, 'bench', 'generate_series(1, $COUNT) x');
    psql(pg.port, 'bench', 'VACUUM ANALYZE');
    const postmaster = postmasterPid(pg);
    const file = floorFile(dir);
    const nodeFloor = await startFloor(file, 1, 'write');
    const clockFloor = await startFloor(file, 1, 'write-clock');
    floors = [nodeFloor.proc, clockFloor.proc];
    process.stdout.write(`writes: pgbench -M prepared -j 2, ${ACCOUNTS} accounts, ${ROUNDS} x ${SECONDS} s per figure (medians), ${os.cpus().length} CPUs; PostgreSQL with synchronous_commit = off\n`);
    // [name, pgbench arguments, whether the Node floor knows the script]
    const workloads: [string, string[], boolean][] = [
      ['one-row autocommit UPDATE, 1 client', ['-f', update, '-c', '1', '-j', '1'], true],
      ['one-row autocommit UPDATE, 4 clients', ['-f', update, '-c', '4', '-j', '2'], true],
      ['TPC-B-like (-b tpcb-like), 4 clients', ['-b', 'tpcb-like', '-c', '4', '-j', '2'], false],
    ];
    for (const [name, args, floored] of workloads) {
      const full = [...args, '-M', 'prepared', '-T', String(SECONDS)];
      const patina: PgbenchRun[] = [];
      const postgres: PgbenchRun[] = [];
      const bare: PgbenchRun[] = [];
      const clocked: PgbenchRun[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        postgres.push(await pgbench(pg.port, 'bench', full, postmaster));
        patina.push(await pgbench(patinaPort, 'bench', full, agent.proc.pid!));
        if (!floored) continue;
        bare.push(await pgbench(nodeFloor.port, 'bench', full, nodeFloor.proc.pid!));
        clocked.push(await pgbench(clockFloor.port, 'bench', full, clockFloor.proc.pid!));
      }
      const p = medianRun(patina);
      const q = medianRun(postgres);
      report(`${name}: Patina`, p.tps, 'tps', 'PostgreSQL', q.tps);
      if (floored) {
        const f = medianRun(bare);
        const c = medianRun(clocked);
        report(`  Node floor (SQLite, group commit, no capture)`, f.tps, 'tps', 'PostgreSQL', q.tps);
        report(`  Node floor with the clock row (the CRDT model's least)`, c.tps, 'tps', 'PostgreSQL', q.tps);
        report(`  Patina`, p.tps, 'tps', 'Node floor with the clock row', c.tps);
        for (const [label, runs, m] of [['no capture', bare, f], ['with the clock row', clocked, c]] as const) {
          process.stdout.write(`    Node floor ${label}: rounds ${runs.map((r) => fmt(r.tps)).join(', ')}; CPU per transaction ${(m.serverUser + m.serverSys).toFixed(0)} µs (pgbench ${m.clientUs.toFixed(0)})\n`);
        }
      }
      const failed = patina.reduce((n, r) => n + r.failed, 0);
      process.stdout.write(`    rounds: Patina ${patina.map((r) => fmt(r.tps)).join(', ')}; PostgreSQL ${postgres.map((r) => fmt(r.tps)).join(', ')}; failed transactions (Patina): ${failed}\n`);
      process.stdout.write(`    CPU per transaction: Patina ${(p.serverUser + p.serverSys).toFixed(0)} µs (pgbench ${p.clientUs.toFixed(0)}), PostgreSQL ${(q.serverUser + q.serverSys).toFixed(0)} µs (pgbench ${q.clientUs.toFixed(0)})\n`);
    }
    stopPostgres(pg);
    pg = null;
    const httpRounds: number[] = [];
    // One round first that is not counted: the agent's HTTP path runs here for the first time (its
    // code not yet optimised), and the pgbench runs' WAL is still being checkpointed.
    await driveHttp(agent.http, SECONDS * 500);
    for (let r = 0; r < ROUNDS; r++) httpRounds.push(await driveHttp(agent.http, SECONDS * 500));
    const on = inProcess('on');
    const off = inProcess('off');
    const h = median(httpRounds);
    report(`one-row POST /v1/transactions, ${HTTP_CONNECTIONS} connections`, h, 'writes/s', 'in-process engine.transaction, capture on', median(on.rates));
    report(`  the same`, h, 'writes/s', 'in-process, capture off', median(off.rates));
    report(`  in-process, capture off`, median(off.rates), 'writes/s', 'in-process, capture on', median(on.rates));
    process.stdout.write(`    rounds: HTTP ${httpRounds.map(fmt).join(', ')}; capture on ${on.rates.map(fmt).join(', ')}; capture off ${off.rates.map(fmt).join(', ')}\n`);
    process.stdout.write(`    CPU per in-process write (medians): capture on ${median(on.cpuUs).toFixed(1)} µs, off ${median(off.cpuUs).toFixed(1)} µs\n`);
  } finally {
    if (pg) stopPostgres(pg);
    for (const f of floors) f.kill();
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
