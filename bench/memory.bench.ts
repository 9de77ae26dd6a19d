// Resident memory of one agent under writes whose values are written into the SQL text, each text
// new, beside the same writes with parameters (the anchor), measured in the same run: pgbench
// -M simple (the values in the text) against -M extended (bound), and HTTP transactions with
// `VALUES (17, 'soak 17', 17)` against `?` parameters. Each run is paced at RATE writes a second for
// SECONDS (PATINA_BENCH_MEMORY_SECONDS, default 60; the goal is stated for 600); the agent's RSS is
// sampled every 10 s, and the growth after the first minute (or after the first sixth of a shorter
// run) is what must stay under 100 MB.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { AgentProcess } from '../test/helpers/agent';
import { postJson } from '../test/helpers/http';
import { scrape } from '../test/helpers/metrics';
import { fmt, postLoop, report } from './util';

const ROWS = 20_000;
const RATE = 2000;
const SECONDS = Number(process.env.PATINA_BENCH_MEMORY_SECONDS ?? 60);
const SAMPLE_MS = 10_000;
const SCHEMA = 'CREATE TABLE sandwiches (pk INTEGER NOT NULL PRIMARY KEY, sandwich TEXT, price INTEGER);';

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

interface Run {
  label: string;
  writesPerSecond: number;
  samples: number[];
  /** RSS growth from the end of the first minute (or sixth) to the end. */
  growth: number;
  cacheEntries: number;
}

async function withAgent(label: string, load: (a: AgentProcess) => Promise<number>): Promise<Run> {
  const a = await new AgentProcess({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\n' }).start();
  try {
    for (let i = 0; i < ROWS; i += 2000) {
      const batch = [];
      for (let k = i; k < i + 2000; k++) batch.push(['INSERT INTO sandwiches VALUES (?, ?, ?)', [k, `s${k}`, k % 100]]);
      const r = await postJson(a.http, '/v1/transactions', batch);
      if (r.status !== 200) throw new Error(r.text);
    }
    const samples = [rssMb(a.proc.pid!)];
    const timer = setInterval(() => samples.push(rssMb(a.proc.pid!)), SAMPLE_MS);
    let writesPerSecond: number;
    try {
      writesPerSecond = await load(a);
    } finally {
      clearInterval(timer);
    }
    samples.push(rssMb(a.proc.pid!));
    const m = await scrape(a.http);
    const cacheEntries = m.samples.get('patina_statement_cache_entries{cache="writer"}') ?? Number.NaN;
    const warm = Math.max(1, Math.round(Math.min(60, SECONDS / 6) / (SAMPLE_MS / 1000)));
    const growth = samples[samples.length - 1] - samples[Math.min(warm, samples.length - 1)];
    process.stdout.write(
      `  ${label}: ${fmt(writesPerSecond)} writes/s, RSS every 10 s (MB): ${samples.map((s) => s.toFixed(0)).join(' ')}; writer statements cached: ${cacheEntries}\n`,
    );
    return { label, writesPerSecond, samples, growth, cacheEntries };
  } finally {
    await a.dispose();
  }
}

/** The pgbench script: a value the analysis lifts into a parameter (`pk = :k`), one it cannot. */
const UPDATE = "\\set k random(1, 20000)\nUPDATE sandwiches SET sandwich = 'v' || :k WHERE pk = :k;\n";
/** As UPDATE, every text new: 'v' || n is a new statement to analyse and prepare each time. */
const UPDATE_NEW =
  "\\set k random(1, 20000)\n\\set n random(1, 1000000000)\nUPDATE sandwiches SET sandwich = 'v' || :n WHERE pk = :k;\n";

/** pgbench paced at RATE for SECONDS, 2 clients: tps. */
function pgbench(a: AgentProcess, mode: 'simple' | 'extended', script = UPDATE): Promise<number> {
  const file = `${a.dir}/update.sql`;
  fs.writeFileSync(file, script);
  return new Promise((resolve, reject) => {
    const p = spawn('pgbench', [
      '-n',
      '-M',
      mode,
      '-c',
      '2',
      '-j',
      '2',
      '-R',
      String(RATE),
      '-T',
      String(SECONDS),
      '-f',
      file,
      '-h',
      a.pg!.host,
      '-p',
      String(a.pg!.port),
      '-U',
      'bench',
      'db',
    ]);
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('exit', (code) => {
      const m = /tps = ([\d.]+)/.exec(out);
      if (code !== 0 || !m) reject(new Error(`pgbench ${mode} (${code}):\n${out}`));
      else resolve(Number(m[1]));
    });
  });
}

async function main(): Promise<void> {
  process.stdout.write(
    `writes with values in the SQL text, each text new, against the same writes with parameters; ${RATE} writes/s for ${SECONDS} s, ${ROWS} rows\n`,
  );
  let k = 0;
  const runs = {
    pgLiteral: await withAgent('pgbench -M simple (values in the text)', (a) => pgbench(a, 'simple')),
    pgParams: await withAgent('pgbench -M extended (parameters)', (a) => pgbench(a, 'extended')),
    // (each statement new to the agent: the SQLite statements its caches drop must be freed as it runs)
    pgNew: await withAgent('pgbench -M simple, every text new', (a) => pgbench(a, 'simple', UPDATE_NEW)),
    httpLiteral: await withAgent('HTTP, values in the text', (a) =>
      postLoop(
        a.http,
        '/v1/transactions',
        4,
        SECONDS * 1000,
        () => {
          k++;
          return `["INSERT INTO sandwiches VALUES (${ROWS + k}, 'soak ${k}', ${k % 1000}) ON CONFLICT (pk) DO UPDATE SET price = ${k}"]`;
        },
        { rate: RATE },
      ),
    ),
    httpParams: await withAgent('HTTP, parameters', (a) =>
      postLoop(
        a.http,
        '/v1/transactions',
        4,
        SECONDS * 1000,
        () => {
          k++;
          return `[["INSERT INTO sandwiches VALUES (?, ?, ?) ON CONFLICT (pk) DO UPDATE SET price = ?",[${ROWS + k},"soak ${k}",${k % 1000},${k}]]]`;
        },
        { rate: RATE },
      ),
    ),
  };
  for (const [name, lit, par] of [
    ['PG simple protocol', runs.pgLiteral, runs.pgParams],
    ['PG simple protocol, every text new', runs.pgNew, runs.pgParams],
    ['HTTP', runs.httpLiteral, runs.httpParams],
  ] as const) {
    report(
      `${name}, values in the text: RSS at the end`,
      lit.samples[lit.samples.length - 1],
      'MB',
      'with parameters',
      par.samples[par.samples.length - 1],
    );
    report(`${name}, values in the text: RSS growth after warm-up`, lit.growth, 'MB', 'with parameters', par.growth);
    report(
      `${name}, values in the text: writes/s`,
      lit.writesPerSecond,
      'writes/s',
      'with parameters',
      par.writesPerSecond,
    );
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
