// A throwaway PostgreSQL server for the benchmarks' anchors (initdb into a temp folder), psql, and
// pgbench runs measured with the CPU time they cost the server and pgbench. Shared by pg.bench.ts
// and writes.bench.ts.
import { spawnSync } from 'node:child_process';
import { type BenchPostgres, run } from '../test/helpers/postgres-server';
import fs from 'node:fs';
import path from 'node:path';

export { PG_BIN, type BenchPostgres, startPostgres, stopPostgres } from '../test/helpers/postgres-server';

/** The postmaster's pid (the root of the server's processes). */
export function postmasterPid(pg: BenchPostgres): number {
  return Number(fs.readFileSync(path.join(pg.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Runs SQL with psql; user 'bench' is the bench's PostgreSQL, connecting to database postgres. */
export function psql(port: number, user: string, sql: string): string {
  return run('psql', [
    '-X',
    '-q',
    '-A',
    '-t',
    '-v',
    'ON_ERROR_STOP=1',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-U',
    user,
    '-d',
    user === 'bench' ? 'postgres' : 'db',
    '-c',
    sql,
  ]);
}

const TICK_US = 1e6 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** CPU time (user, system; µs) of a process and its descendants, living and reaped (Linux /proc). */
export function cpuOfTree(pid: number): { user: number; sys: number } {
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

/** What one pgbench run did and cost per transaction: the server's CPU and pgbench's own (µs). */
export interface PgbenchRun {
  tps: number;
  failed: number;
  serverUser: number;
  serverSys: number;
  clientUs: number;
}

/**
 * One pgbench run (`args`: script, duration, clients, mode) against `port`; `serverPid` is the root
 * of the server's processes. pgbench's own CPU is this process's reaped-children time (the only
 * child that exits during the run).
 */
export async function pgbench(
  port: number,
  user: string,
  args: string[],
  serverPid: number,
  /** 127.0.0.1, or a folder: the server's Unix-domain socket there */
  host = '127.0.0.1',
): Promise<PgbenchRun> {
  const self0 = cpuOfTree(process.pid);
  const server0 = cpuOfTree(serverPid);
  const out = run('pgbench', [
    '-n',
    ...args,
    '-h',
    host,
    '-p',
    String(port),
    '-U',
    user,
    user === 'bench' ? 'postgres' : 'db',
  ]);
  await new Promise((r) => setTimeout(r, 300)); // PostgreSQL's backends exit and are reaped after pgbench disconnects
  const server1 = cpuOfTree(serverPid);
  const self1 = cpuOfTree(process.pid);
  const m = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
  const n = /number of transactions actually processed: (\d+)/.exec(out);
  if (!m || !n) throw new Error(`no tps in pgbench output:\n${out}`);
  const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
  const txns = Number(n[1]);
  const server = (k: 'user' | 'sys') => (server1[k] - server0[k]) / txns;
  // this process's own tree includes the servers it started; subtract their share
  const clientUs =
    (self1.user + self1.sys - self0.user - self0.sys - (server1.user + server1.sys - server0.user - server0.sys)) /
    txns;
  return { tps: Number(m[1]), failed, serverUser: server('user'), serverSys: server('sys'), clientUs };
}
