// Plain client workloads held for minutes against one agent each, its memory and /metrics sampled
// every 10 s, errors counted: what users run for hours. PATINA_BENCH_SOAK_SECONDS sets each
// phase's length (default 30; the figures in docs/performance.md are of 300).
//   1. psycopg2 as most Python code uses it: values written into the SQL text, each text new,
//      a commit every 50 statements, reads of the same shape checked against what was written;
//   2. pgjdbc PreparedStatement batches and asyncpg executemany + fetch (binary), side by side;
//   3. node-postgres with distinct named statements never closed, on connections that come and go;
//   4. quiet: an HTTP subscription, a LISTEN connection and a client that asked for a large result
//      and never reads it, held open with no writes; then a write: how soon both hear of it;
//   5. SIGKILL mid-workload and a restart: every acknowledged write present, memory back to start.
// The anchors, measured in the same run: statements/s of the same client program against
// PostgreSQL 15 (fsync off; ANCHOR seconds); RSS (the agent and its read workers) against its own after the first sixth of the
// phase (growth after warm-up is what must stay flat); delivery after the quiet against delivery of
// the same write at the start; RSS after the restart against RSS of the fresh agent.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AgentProcess } from '../test/helpers/agent';
import { openStream, postJson } from '../test/helpers/http';
import { scrape } from '../test/helpers/metrics';
import { pgClient } from '../test/helpers/pg';
import { type BenchPostgres, psql, startPostgres, stopPostgres } from './postgres';
import { fmt, median, report } from './util';

const SECONDS = Number(process.env.PATINA_BENCH_SOAK_SECONDS ?? 30);
const ANCHOR = Math.min(SECONDS, 20);
const SAMPLE_MS = 10_000;
const CLIENTS = path.resolve(__dirname, '..', '..', 'bench', 'soak-clients');
const SCHEMA =
  'CREATE TABLE soak (id BIGINT NOT NULL PRIMARY KEY, name TEXT, amount NUMERIC(12,2), day DATE, note TEXT, n BIGINT);';
const PY = '/usr/bin/python3';
const JAR = '/usr/share/java/postgresql.jar';

/** RSS (MB) of the agent and its read workers (its child processes). */
function rssMb(pid: number): number {
  let kb = 0;
  try {
    kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const kids = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const k of kids ? kids.split(' ') : []) kb += rssMb(Number(k)) * 1024;
    }
  } catch {
    // gone
  }
  return kb / 1024;
}

/** A client program's one JSON line of counts. */
interface Counts {
  statements: number;
  errors: number;
  mismatches: number;
  first_error: string | null;
}

/** Runs a client program to its end: its counts, and statements/s over the time it ran. */
function client(cmd: string, args: string[]): Promise<Counts & { perSecond: number }> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: CLIENTS });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`${cmd} ${args.join(' ')} (${code}):\n${out}`));
      const c = JSON.parse(line) as Counts;
      resolve({ ...c, perSecond: c.statements / ((Date.now() - t0) / 1000) });
    });
  });
}

type Target = { port: number; user: string; db: string };
const psycopg2 = (t: Target, s: number, first: number) =>
  client(PY, ['psycopg2_soak.py', '127.0.0.1', String(t.port), t.user, t.db, String(s), String(first)]);
const asyncpg = (t: Target, s: number, first: number) =>
  client(PY, ['asyncpg_soak.py', '127.0.0.1', String(t.port), t.user, t.db, String(s), String(first)]);
let javaClasses = '';
const jdbc = (t: Target, s: number, first: number) =>
  client('java', [
    '-cp',
    `${javaClasses}:${JAR}`,
    'JdbcSoak',
    '127.0.0.1',
    String(t.port),
    t.user,
    t.db,
    String(s),
    String(first),
  ]);

/** A fresh agent, RSS and a few /metrics gauges sampled every 10 s while `load` runs. */
class Watched {
  readonly a: AgentProcess;
  readonly rss: number[] = [];
  readonly heap: number[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(dir?: string) {
    this.a = new AgentProcess({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\n', dir });
  }

  get target(): Target {
    return { port: this.a.pg!.port, user: 'patina', db: 'patina' };
  }

  async start(): Promise<this> {
    await this.a.start();
    await this.sample();
    this.#timer = setInterval(() => void this.sample().catch(() => {}), SAMPLE_MS);
    return this;
  }

  async sample(): Promise<void> {
    const pid = this.a.proc.pid!;
    const m = await scrape(this.a.http);
    this.rss.push(rssMb(pid));
    this.heap.push((m.samples.get('patina_nodejs_heap_size_used_bytes') ?? Number.NaN) / 2 ** 20);
  }

  /** Error lines the agent logged. */
  errorLines(): string[] {
    return this.a.output.split('\n').filter((l) => / (ERROR|FATAL)\b/.test(l));
  }

  async stop(label: string): Promise<{ warm: number; end: number; errors: string[] }> {
    clearInterval(this.#timer);
    if (this.a.proc.exitCode === null && this.a.proc.signalCode === null) await this.sample();
    const warmAt = Math.max(1, Math.round(SECONDS / 6 / (SAMPLE_MS / 1000)));
    const warm = this.rss[Math.min(warmAt, this.rss.length - 1)];
    const end = this.rss[this.rss.length - 1];
    const errors = this.errorLines();
    if (errors.length) process.exitCode = 1;
    process.stdout.write(
      `  ${label}: RSS every 10 s (MB): ${this.rss.map((s) => s.toFixed(0)).join(' ')}\n` +
        `    V8 heap used (MB): ${this.heap.map((s) => s.toFixed(0)).join(' ')}; agent errors logged: ${errors.length}${errors.length ? ` (first: ${errors[0]})` : ''}\n`,
    );
    return { warm, end, errors };
  }
}

function printCounts(label: string, c: Counts & { perSecond: number }): void {
  process.stdout.write(
    `  ${label}: ${c.statements} statements, ${fmt(c.perSecond)}/s, errors ${c.errors}, wrong reads ${c.mismatches}${c.first_error ? ` (first: ${c.first_error})` : ''}\n`,
  );
  if (c.errors || c.mismatches) process.exitCode = 1;
}

async function anchors(pg: BenchPostgres): Promise<Record<string, number>> {
  psql(pg.port, 'bench', SCHEMA);
  const t = { port: pg.port, user: 'bench', db: 'postgres' };
  const out: Record<string, number> = {};
  for (const [name, run] of [
    ['psycopg2', psycopg2],
    ['jdbc', jdbc],
    ['asyncpg', asyncpg],
  ] as const) {
    const c = await run(t, ANCHOR, name === 'psycopg2' ? 0 : name === 'jdbc' ? 1e8 : 2e8);
    printCounts(`PostgreSQL 15, ${name}, ${ANCHOR} s`, c);
    out[name] = c.perSecond;
  }
  out.named = (await namedStatements(t, ANCHOR * 1000)).perSecond;
  return out;
}

/** node-postgres's query with a statement name (PgClient's type leaves it out). */
type Named = { query(q: { name: string; text: string; values: unknown[] }): Promise<unknown> };

/**
 * node-postgres with `name`d queries, each name (and text) new and never closed, 500 on a connection
 * before it ends and the next opens (PostgreSQL keeps a session's prepared statements until it ends;
 * so must the agent, and free them then); 2 such clients at a time.
 */
async function namedStatements(t: Target, ms: number): Promise<{ perSecond: number; connections: number }> {
  const end = Date.now() + ms;
  let n = 0;
  let connections = 0;
  const worker = async (w: number) => {
    while (Date.now() < end) {
      const c = pgClient(t.port, { user: t.user, database: t.db, host: '127.0.0.1' });
      await c.connect();
      connections++;
      for (let k = 0; k < 500 && Date.now() < end; k++, n++) {
        const name = `w${w}_${n}`;
        await (c as unknown as Named).query({
          name,
          text: `SELECT id, name, amount, ${n} AS k FROM soak WHERE id = $1`,
          values: [n],
        });
      }
      await c.end();
    }
  };
  const t0 = Date.now();
  await Promise.all([worker(0), worker(1)]);
  return { perSecond: n / ((Date.now() - t0) / 1000), connections };
}

/** A raw connection that asks for a result far larger than the socket buffers and never reads it. */
function stuckReader(port: number, sql: string): Promise<net.Socket> {
  const params = Buffer.from('user\0patina\0database\0patina\0\0');
  const startup = Buffer.alloc(8);
  startup.writeInt32BE(params.length + 8);
  startup.writeInt32BE(196608, 4);
  const body = Buffer.from(`${sql}\0`);
  const q = Buffer.alloc(5);
  q.write('Q');
  q.writeInt32BE(body.length + 4, 1);
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(Buffer.concat([startup, params])));
    s.on('error', reject);
    s.once('data', () => {
      s.pause();
      s.write(Buffer.concat([q, body]));
      resolve(s);
    });
  });
}

/** Milliseconds from an HTTP write to both an open subscription and a LISTEN connection hearing of it. */
async function deliveryMs(
  a: AgentProcess,
  sub: Awaited<ReturnType<typeof openStream>>,
  notes: unknown[],
  id: number,
): Promise<number> {
  const seen = sub.events.length;
  const heard = notes.length;
  const t0 = performance.now();
  const r = await postJson(a.http, '/v1/transactions', [`INSERT INTO soak (id, name) VALUES (${id}, 'quiet ${id}')`]);
  if (r.status !== 200) throw new Error(r.text);
  await sub.until((e) => e.length > seen, 10_000);
  for (const deadline = Date.now() + 10_000; notes.length <= heard; await new Promise((r) => setTimeout(r, 1)))
    if (Date.now() > deadline) throw new Error('the LISTEN connection heard nothing');
  return performance.now() - t0;
}

async function main(): Promise<void> {
  process.stdout.write(
    `plain clients for ${SECONDS} s each against one agent; anchors: PostgreSQL 15 for ${ANCHOR} s\n`,
  );
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-soak-'));
  spawn('javac', ['-d', tmp, path.join(CLIENTS, 'JdbcSoak.java')]).on('exit', () => {});
  javaClasses = tmp;
  await new Promise((r) => setTimeout(r, 100));
  for (let i = 0; i < 600 && !fs.existsSync(path.join(tmp, 'JdbcSoak.class')); i++)
    await new Promise((r) => setTimeout(r, 100));

  const pg = await startPostgres(fs.mkdtempSync(path.join(os.tmpdir(), 'patina-soak-pg-')));
  let base: Record<string, number>;
  try {
    base = await anchors(pg);
  } finally {
    stopPostgres(pg);
    fs.rmSync(pg.dir, { recursive: true, force: true });
  }

  // 1. psycopg2, values in the text
  {
    const w = await new Watched().start();
    try {
      const c = await psycopg2(w.target, SECONDS, 0);
      printCounts('psycopg2, values in the text', c);
      const m = await w.stop('psycopg2');
      report('psycopg2 (values in the text): statements/s', c.perSecond, '/s', 'on PostgreSQL 15', base.psycopg2);
      report('psycopg2: agent RSS at the end', m.end, 'MB', 'after warm-up', m.warm);
    } finally {
      await w.a.dispose();
    }
  }

  // 2. pgjdbc batches and asyncpg executemany, side by side
  {
    const w = await new Watched().start();
    try {
      const [j, p] = await Promise.all([jdbc(w.target, SECONDS, 1e8), asyncpg(w.target, SECONDS, 2e8)]);
      printCounts('pgjdbc PreparedStatement batches', j);
      printCounts('asyncpg executemany + fetch', p);
      const m = await w.stop('pgjdbc + asyncpg');
      report('pgjdbc batches (beside asyncpg): statements/s', j.perSecond, '/s', 'alone on PostgreSQL 15', base.jdbc);
      report(
        'asyncpg executemany (beside pgjdbc): statements/s',
        p.perSecond,
        '/s',
        'alone on PostgreSQL 15',
        base.asyncpg,
      );
      report('pgjdbc + asyncpg: agent RSS at the end', m.end, 'MB', 'after warm-up', m.warm);
    } finally {
      await w.a.dispose();
    }
  }

  // 3. node-postgres, named statements never closed, connections that come and go
  {
    const w = await new Watched().start();
    try {
      const r = await namedStatements(w.target, SECONDS * 1000);
      process.stdout.write(
        `  node-postgres named statements: ${fmt(r.perSecond)}/s over ${r.connections} connections\n`,
      );
      const m = await w.stop('node-postgres named statements');
      report('node-postgres, a new name each query: statements/s', r.perSecond, '/s', 'on PostgreSQL 15', base.named);
      report('node-postgres named: agent RSS at the end', m.end, 'MB', 'after warm-up', m.warm);
    } finally {
      await w.a.dispose();
    }
  }

  // 4. quiet: a subscription, a LISTEN connection and a stuck reader held open with no writes
  {
    const w = await new Watched().start();
    try {
      const rows = [];
      for (let k = 1; k <= 20000; k++)
        rows.push([`INSERT INTO soak VALUES (?, ?, ?, '2024-01-01', ?, ?)`, [k, `row ${k}`, k, 'x'.repeat(100), k]]);
      const r = await postJson(w.a.http, '/v1/transactions', rows);
      if (r.status !== 200) throw new Error(r.text);
      const sub = await openStream(
        w.a.http,
        'POST',
        '/v1/subscriptions',
        JSON.stringify('SELECT id, name FROM soak WHERE id > 1000000'),
      );
      await sub.until((e) => e.some((x) => 'eoq' in (x as object)));
      const listen = pgClient(w.target.port, { host: '127.0.0.1' });
      const notes: unknown[] = [];
      (listen as unknown as { on(e: string, f: (n: unknown) => void): void }).on('notification', (n) => notes.push(n));
      await listen.connect();
      await listen.query('LISTEN patina_updates_soak');
      const first = [];
      for (let i = 0; i < 5; i++) first.push(await deliveryMs(w.a, sub, notes, 1_000_001 + i));
      // ~100 MB of rows the client never reads
      const stuck = await stuckReader(
        w.target.port,
        'SELECT a.id, a.name, a.note, b.id FROM soak a CROSS JOIN (SELECT id FROM soak LIMIT 50) b',
      );
      await new Promise((r) => setTimeout(r, SECONDS * 1000));
      const after = [];
      for (let i = 0; i < 5; i++) after.push(await deliveryMs(w.a, sub, notes, 2_000_001 + i));
      const other = performance.now();
      const c = pgClient(w.target.port, { host: '127.0.0.1' });
      await c.connect();
      await c.query('SELECT count(*) FROM soak');
      await c.end();
      const otherMs = performance.now() - other;
      stuck.destroy();
      sub.close();
      await listen.end();
      const m = await w.stop('quiet');
      process.stdout.write(
        `  another client's connect + SELECT count(*) while the reader is stuck: ${fmt(otherMs)} ms\n`,
      );
      report(
        `write to subscription + LISTEN after ${SECONDS} s quiet (median of 5)`,
        median(after),
        'ms',
        'at the start',
        median(first),
      );
      report(
        'quiet, with a stuck reader of a large result: agent RSS at the end',
        m.end,
        'MB',
        'after warm-up',
        m.warm,
      );
    } finally {
      await w.a.dispose();
    }
  }

  // 5. SIGKILL mid-workload, restart
  {
    const w = await new Watched().start();
    const dir = w.a.dir;
    const fresh = w.rss[0];
    const acked: number[] = [];
    let stop = false;
    const writer = async (k0: number) => {
      const c = pgClient(w.target.port, { host: '127.0.0.1' });
      c.on('error', () => {});
      await c.connect();
      for (let k = k0; !stop; k += 4) {
        try {
          await c.query(`INSERT INTO soak (id, name, amount, day) VALUES (${k}, 'kill ${k}', ${k}.25, '2024-02-03')`);
          acked.push(k);
        } catch {
          return; // the agent is gone
        }
      }
    };
    const writers = [0, 1, 2, 3].map((i) => writer(i + 1));
    await new Promise((r) => setTimeout(r, (SECONDS / 2) * 1000));
    await w.a.kill();
    stop = true;
    await Promise.all(writers);
    await w.stop('until SIGKILL');
    const again = new Watched(dir);
    await again.start();
    try {
      const r = await postJson(again.a.http, '/v1/queries', 'SELECT id FROM soak');
      const present = new Set(
        r.text
          .split('\n')
          .filter((l) => l.startsWith('{"row"'))
          .map((l) => Number((JSON.parse(l) as { row: [number, [number]] }).row[1][0])),
      );
      const lost = acked.filter((k) => !present.has(k));
      process.stdout.write(
        `  SIGKILL after ${acked.length} acknowledged writes: ${lost.length} missing after the restart\n`,
      );
      if (lost.length) process.exitCode = 1;
      await again.stop('after the restart');
      // (its first sample, before the check's read of every row)
      report('agent RSS after SIGKILL and restart', again.rss[0], 'MB', 'fresh agent at the start', fresh);
    } finally {
      await again.a.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

void main().then(
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
