// What a statement analysis cache miss costs the PG front end, in process: the Analyzer (the one a
// session has) analyses statements of many shapes, each text new (an alias numbered afresh), as a
// simple query's statement seen for the first time is analysed: lexed, parsed by PostgreSQL's
// parser (sql/parse.ts), read by every pass, translated, prepared on SQLite to learn its columns.
// The anchor is SQLite's prepare of the same translated statements alone, on the connection the
// analysis prepares them on: the part of the analysis no front end over SQLite can skip. Also printed: the texts
// parsed per analysis (patina_pg_parses_total's counter). CPU time (not wall time: the machine is
// shared), rounds alternating between the two, medians.
// The same statements against PostgreSQL 15 over pgbench are `npm run bench -- pg` (first-seen).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { introspect } from '../src/engine/schema/introspect';
import { LocalDb } from '../protocols/pg/catalog/local-db';
import type { PgEngine } from '../protocols/pg/session/engine';
import { Analyzer } from '../protocols/pg/sql/analyze';
import { lexPg } from '../protocols/pg/sql/lexer';
import { loadParser } from '../protocols/pg/sql/parse';
import { parseCounts } from '../protocols/pg/statement-counts';
import { median, report } from './util';

const ROUNDS = 5;
const PER_ROUND = 400; // texts of each shape per round
const SCHEMA = [
  'CREATE TABLE pgbench_accounts (aid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, abalance INTEGER, filler TEXT)',
  'CREATE TABLE orders (id INTEGER NOT NULL PRIMARY KEY, customer INTEGER, amount NUMERIC(10, 2), at TIMESTAMP, doc JSON)',
];
/** The shapes (`@` is replaced by a number new to each text); the first eight are pg.bench's first-seen ones. */
const SHAPES = [
  'SELECT abalance AS a@ FROM pgbench_accounts WHERE aid = 17',
  'SELECT bid AS b@, count(*), sum(abalance), avg(abalance) FROM pgbench_accounts WHERE aid BETWEEN 17 AND 17 + 10 GROUP BY bid',
  "SELECT CASE WHEN abalance > 0 THEN 'p' ELSE 'z' END AS c@, coalesce(filler, '-') AS f FROM pgbench_accounts WHERE aid = 17",
  'SELECT a.aid AS x@, (SELECT max(b.abalance) FROM pgbench_accounts b WHERE b.aid = a.aid + 1) AS m FROM pgbench_accounts a WHERE a.aid = 17',
  "SELECT json_build_object('aid', aid, 'bal', abalance) AS j@ FROM pgbench_accounts WHERE aid = 17",
  'WITH w@ AS (SELECT aid, abalance FROM pgbench_accounts WHERE aid >= 17 ORDER BY aid LIMIT 5) SELECT aid, abalance FROM w@ ORDER BY aid DESC',
  'SELECT aid AS r@, rank() OVER (ORDER BY abalance, aid) AS k FROM pgbench_accounts WHERE aid BETWEEN 17 AND 17 + 3',
  "SELECT count(*) AS k@ FROM pgbench_accounts WHERE aid IN (17, 17 + 1, 17 + 2) AND filler ILIKE '%'",
  "SELECT o.id AS o@, o.at + interval '1 day' AS later, o.amount * 2 AS twice FROM orders o JOIN pgbench_accounts p ON p.aid = o.customer WHERE o.at > now() - interval '7 days'",
  'SELECT customer AS c@, json_agg(doc) AS docs, sum(amount) FROM orders GROUP BY customer HAVING count(*) > 1',
  'INSERT INTO orders (id, customer, amount) VALUES ($1, $2, $3), ($4, $5, $6) ON CONFLICT (id) DO UPDATE SET amount = excluded.amount RETURNING id AS i@',
  'UPDATE orders SET amount = amount + 1 FROM pgbench_accounts p WHERE p.aid = orders.customer AND orders.id = $1 RETURNING orders.id AS u@',
];

/** This process's CPU time, user and system, in µs (what the machine's other work does not inflate as it does wall time). */
function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function main() {
  await loadParser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-pg-analysis-'));
  const file = path.join(dir, 'db.sqlite');
  const setup = new Database(file);
  for (const s of SCHEMA) setup.exec(s);
  const schema = introspect(setup);
  setup.close();
  const local = new LocalDb(file);
  local.refresh(schema);
  const writer = new Database(file);
  const engine = {
    schema,
    writer: { prepare: (sql: string) => writer.prepare(sql) },
  } as unknown as PgEngine;
  const analyzer = new Analyzer(engine, local, { user: 'bench', database: 'db', version: '15' });
  const sqlite = local.db; // the connection the analysis prepares on, with the functions translations call
  let next = 0;
  const texts = () => {
    const out: string[] = [];
    for (let i = 0; i < PER_ROUND; i++) {
      next++;
      for (const s of SHAPES) out.push(s.replace(/@/g, String(next)));
    }
    return out;
  };
  try {
    // the translations, and a warm-up of both (the JIT, SQLite's schema)
    for (const t of texts()) sqlite.prepare(analyzer.analyze(lexPg(t)).sql);
    const analysis: number[] = [];
    const prepare: number[] = [];
    let parses = 0;
    let analysed = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const batch = texts();
      const before = parseCounts.parses;
      const t0 = cpuUs();
      const sqls = batch.map((t) => analyzer.analyze(lexPg(t)).sql);
      const t1 = cpuUs();
      parses += parseCounts.parses - before;
      analysed += batch.length;
      for (const s of sqls) sqlite.prepare(s);
      const t2 = cpuUs();
      analysis.push((t1 - t0) / batch.length);
      prepare.push((t2 - t1) / batch.length);
    }
    process.stdout.write(
      `${SHAPES.length} shapes, ${PER_ROUND} new texts of each per round, ${ROUNDS} rounds; CPU µs per statement, rounds: analysis ${analysis.map((x) => x.toFixed(1)).join(', ')}; SQLite prepare ${prepare.map((x) => x.toFixed(1)).join(', ')}\n`,
    );
    report(
      'PG analysis of a first-seen statement',
      median(analysis),
      'µs',
      "SQLite's prepare of its translation",
      median(prepare),
    );
    process.stdout.write(`    texts parsed per analysis: ${(parses / analysed).toFixed(2)}\n`);
  } finally {
    writer.close();
    local.db.close();
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
