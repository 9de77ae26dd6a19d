// pgbench select-only point queries (-M simple, extended, prepared; -c 4 -j 2) against Patina's
// PostgreSQL listener and against a PostgreSQL server this bench starts itself (initdb into a temp
// folder) with the same table and rows, in the same run; printed as TPS ratios. A third anchor is the
// floor of any Node.js front end (pg-floor.ts: a responder that knows only this one query), in one
// process as Patina's listener is, and in two: it tells what Patina's own code costs per query from
// what Node itself does. Each run also prints the CPU time it cost per transaction, the server's
// (user and system, from /proc) and pgbench's: pgbench shares the machine's cores with the server,
// so when they are full the TPS ratio is the ratio of these sums.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AgentProcess } from '../test/helpers/agent';
import { report } from './util';

const ROWS = 100_000;
const SECONDS = Number(process.env.PG_BENCH_SECONDS ?? 10);
const PG_BIN = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'].find((d) => fs.existsSync(path.join(d, 'initdb')));
const TABLE = 'CREATE TABLE pgbench_accounts (aid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, abalance INTEGER, filler TEXT)';
const SCRIPT = `\\set aid random(1, ${ROWS})\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function run(cmd: string, args: string[], opts: { asPostgres?: boolean } = {}): string {
  const [c, a] = opts.asPostgres && process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const r = spawnSync(c, a, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** A throwaway PostgreSQL server (as the postgres user when we are root: it refuses to run as root). */
async function startPostgres(dir: string): Promise<{ port: number; proc: ChildProcess }> {
  if (!PG_BIN) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  if (process.getuid?.() === 0) spawnSync('chown', ['-R', 'postgres', dir]);
  run(path.join(PG_BIN, 'initdb'), ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'bench', '--no-sync'], { asPostgres: true });
  const port = await freePort();
  const args = ['-D', path.join(dir, 'data'), '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'shared_buffers=128MB'];
  const postgresBin = path.join(PG_BIN, 'postgres');
  const proc = process.getuid?.() === 0 ? spawn('runuser', ['-u', 'postgres', '--', postgresBin, ...args], { stdio: 'ignore' }) : spawn(postgresBin, args, { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    if (spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', String(port)]).status === 0) return { port, proc };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('PostgreSQL did not start');
}

/** Starts the Node floor responder on the agent's SQLite file, in `procs` processes. */
function startFloor(dbPath: string, procs: number): Promise<{ port: number; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [path.join(__dirname, 'pg-floor.js'), dbPath, String(procs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /port (\d+)/.exec(out);
      if (m) resolve({ port: Number(m[1]), proc });
    });
    proc.once('exit', (code) => reject(new Error(`the Node floor responder exited (${code})`)));
  });
}

function psql(port: number, user: string, sql: string) {
  run('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', user === 'bench' ? 'postgres' : 'db', '-c', sql]);
}

const TICK_US = 1e6 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** CPU time (user, system; µs) of a process and its descendants, living and reaped (Linux /proc). */
function cpuOfTree(pid: number): { user: number; sys: number } {
  const total = { user: 0, sys: 0 };
  const visit = (p: number) => {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
    } catch {
      return; // gone
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[11] is field 14 (utime)
    total.user += (Number(f[11]) + Number(f[13])) * TICK_US;
    total.sys += (Number(f[12]) + Number(f[14])) * TICK_US;
    for (const task of fs.readdirSync(`/proc/${p}/task`)) {
      const kids = fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
      for (const k of kids ? kids.split(' ') : []) visit(Number(k));
    }
  };
  visit(pid);
  return total;
}

/** What one pgbench run cost per transaction: the server's CPU and pgbench's own (µs). */
interface Run {
  tps: number;
  serverUser: number;
  serverSys: number;
  clientUs: number;
}

/**
 * One pgbench run against `port`; `serverPid` is the root of the server's processes. pgbench's own CPU
 * is this process's reaped-children time (the only child that exits during the run).
 */
async function pgbench(port: number, user: string, mode: string, script: string, serverPid: number): Promise<Run> {
  const self0 = cpuOfTree(process.pid);
  const server0 = cpuOfTree(serverPid);
  const out = run('pgbench', ['-n', '-f', script, '-T', String(SECONDS), '-c', '4', '-j', '2', '-M', mode, '-h', '127.0.0.1', '-p', String(port), '-U', user, user === 'bench' ? 'postgres' : 'db']);
  await new Promise((r) => setTimeout(r, 300)); // PostgreSQL's backends exit and are reaped after pgbench disconnects
  const server1 = cpuOfTree(serverPid);
  const self1 = cpuOfTree(process.pid);
  const m = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
  const n = /number of transactions actually processed: (\d+)/.exec(out);
  if (!m || !n) throw new Error(`no tps in pgbench output:\n${out}`);
  const txns = Number(n[1]);
  const server = (k: 'user' | 'sys') => (server1[k] - server0[k]) / txns;
  // this process's own tree includes the servers it started; subtract their share
  const clientUs = (self1.user + self1.sys - self0.user - self0.sys - (server1.user + server1.sys - server0.user - server0.sys)) / txns;
  return { tps: Number(m[1]), serverUser: server('user'), serverSys: server('sys'), clientUs };
}

function cpuLine(name: string, r: Run) {
  process.stdout.write(`    CPU per transaction, ${name}: server ${r.serverUser.toFixed(1)} µs user + ${r.serverSys.toFixed(1)} µs system, pgbench ${r.clientUs.toFixed(1)} µs\n`);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-pgbench-'));
  fs.chmodSync(dir, 0o755);
  const script = path.join(dir, 'select.sql');
  fs.writeFileSync(script, SCRIPT);
  const agent = new AgentProcess({ schema: TABLE + ';\n', args: ['--pg-addr', '127.0.0.1:0'] });
  let pg: { port: number; proc: ChildProcess } | null = null;
  const floors: ChildProcess[] = [];
  try {
    await agent.start();
    const patinaPort = agent.pg!.port;
    const fill = `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${ROWS}) INSERT INTO pgbench_accounts SELECT x, 1, 0, '' FROM n`;
    const t0 = Date.now();
    psql(patinaPort, 'bench', fill);
    process.stderr.write(`loaded ${ROWS} rows into Patina in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    pg = await startPostgres(dir);
    process.stderr.write('PostgreSQL started\n');
    psql(pg.port, 'bench', `${TABLE}; INSERT INTO pgbench_accounts SELECT x, 1, 0, '' FROM generate_series(1, ${ROWS}) x`);
    psql(pg.port, 'bench', 'VACUUM ANALYZE pgbench_accounts');
    const floor1 = await startFloor(agent.dbPath, 1);
    const floor2 = await startFloor(agent.dbPath, 2);
    floors.push(floor1.proc, floor2.proc);
    process.stdout.write(`pgbench select-only, ${ROWS} rows, -c 4 -j 2, ${SECONDS} s per run (${os.cpus().length} CPUs)\n`);
    const postmaster = Number(fs.readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    for (const mode of ['simple', 'extended', 'prepared']) {
      const postgres = await pgbench(pg.port, 'bench', mode, script, postmaster);
      const patina = await pgbench(patinaPort, 'bench', mode, script, agent.proc.pid!);
      const nodeFloor = await pgbench(floor1.port, 'bench', mode, script, floor1.proc.pid!);
      const nodeFloor2 = await pgbench(floor2.port, 'bench', mode, script, floor2.proc.pid!);
      report(`pgbench -M ${mode} point selects: Patina`, patina.tps, 'tps', 'PostgreSQL', postgres.tps);
      report(`  Node floor, 1 process`, nodeFloor.tps, 'tps', 'PostgreSQL', postgres.tps);
      report(`  Node floor, 2 processes`, nodeFloor2.tps, 'tps', 'PostgreSQL', postgres.tps);
      report(`  Patina`, patina.tps, 'tps', 'Node floor, 1 process', nodeFloor.tps);
      cpuLine('PostgreSQL', postgres);
      cpuLine('Patina', patina);
      cpuLine('Node floor, 1 process', nodeFloor);
      cpuLine('Node floor, 2 processes', nodeFloor2);
      // issue 16's target: Patina's server CPU per transaction at most PostgreSQL's backend's (ratio <= 1)
      report('    server CPU per transaction', patina.serverUser + patina.serverSys, 'µs', 'PostgreSQL', postgres.serverUser + postgres.serverSys);
    }
  } finally {
    // runuser does not pass signals on; pg_ctl stops the server it started
    if (pg) spawnSync(process.getuid?.() === 0 ? 'runuser' : path.join(PG_BIN!, 'pg_ctl'), process.getuid?.() === 0 ? ['-u', 'postgres', '--', path.join(PG_BIN!, 'pg_ctl'), 'stop', '-D', path.join(dir, 'data'), '-m', 'fast'] : ['stop', '-D', path.join(dir, 'data'), '-m', 'fast']);
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
