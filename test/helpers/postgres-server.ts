// A throwaway PostgreSQL server (a copy of one initdb's folder, loopback port, socket in the folder):
// the oracle of the byte-comparison tests and the anchor of the benchmarks.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const PG_BIN = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'].find(
  (d) => fs.existsSync(path.join(d, 'initdb')),
);

/** A PostgreSQL server startPostgres started: its port, process and data folder. */
export interface BenchPostgres {
  port: number;
  proc: ChildProcess;
  dir: string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Runs a command (as the postgres user when we are root and `asPostgres`); its stdout, or an error with its output. */
export function run(cmd: string, args: string[], opts: { asPostgres?: boolean } = {}): string {
  const [c, a] =
    opts.asPostgres && process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const r = spawnSync(c, a, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** A data folder initdb made for each superuser name, in this process (removed when it exits). */
const templates = new Map<string, string>();

/**
 * Puts a fresh cluster of superuser `user` at `data`: initdb once a process for each user, then a
 * copy of that folder for every server (initdb takes about 2 s, the copy about 0.3 s, and the test
 * suite starts some seventy servers).
 */
function copyCluster(user: string, data: string): void {
  let template = templates.get(user);
  if (template === undefined) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-pg-template-'));
    if (templates.size === 0)
      process.once('exit', () => {
        for (const t of templates.values()) fs.rmSync(path.dirname(t), { recursive: true, force: true });
      });
    if (process.getuid?.() === 0) spawnSync('chown', ['-R', 'postgres', root]);
    template = path.join(root, 'data');
    run(path.join(PG_BIN!, 'initdb'), ['-D', template, '-A', 'trust', '-U', user, '--no-sync'], { asPostgres: true });
    templates.set(user, template);
  }
  run('cp', ['-a', template, data]);
}

/**
 * A throwaway PostgreSQL server in `dir` (as the postgres user when we are root: it refuses to run as
 * root), with `settings` (name=value) on top of shared_buffers=128MB; `user` is its superuser (trust).
 */
export async function startPostgres(
  dir: string,
  settings: string[] = ['fsync=off'],
  user = 'bench',
): Promise<BenchPostgres> {
  if (!PG_BIN) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  if (process.getuid?.() === 0) spawnSync('chown', ['-R', 'postgres', dir]);
  copyCluster(user, path.join(dir, 'data'));
  const port = await freePort();
  const args = [
    '-D',
    path.join(dir, 'data'),
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'shared_buffers=128MB',
    ...settings.flatMap((s) => ['-c', s]),
  ];
  const postgresBin = path.join(PG_BIN, 'postgres');
  const proc =
    process.getuid?.() === 0
      ? spawn('runuser', ['-u', 'postgres', '--', postgresBin, ...args], { stdio: 'ignore' })
      : spawn(postgresBin, args, { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    if (spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', String(port)]).status === 0) return { port, proc, dir };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('PostgreSQL did not start');
}

/** Stops a server startPostgres started (runuser does not pass signals on; pg_ctl stops it). */
export function stopPostgres(pg: BenchPostgres): void {
  const ctl = path.join(PG_BIN!, 'pg_ctl');
  const args = ['stop', '-D', path.join(pg.dir, 'data'), '-m', 'fast'];
  if (process.getuid?.() === 0) spawnSync('runuser', ['-u', 'postgres', '--', ctl, ...args]);
  else spawnSync(ctl, args);
}
