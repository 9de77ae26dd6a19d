// COPY over the PG port: rows per second loaded with COPY FROM STDIN (pg-copy-streams) against the
// same rows as 500-row INSERT statements in one BEGIN block, and dumped with COPY TO STDOUT against
// a plain SELECT of the same rows through node-postgres; one agent, alternating rounds, medians.
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AgentProcess } from '../test/helpers/agent';
import { type PgClient, pgClient } from '../test/helpers/pg';
import { median, report } from './util';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const copyStreams = require('pg-copy-streams') as { from(sql: string): Writable; to(sql: string): Readable };

const ROWS = 100_000;
const ROUNDS = 3;
const SCHEMA =
  "CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', score REAL, note TEXT);";

const row = (i: number) => [i, `name ${i}`, i / 4, i % 3 ? `note number ${i}` : null] as const;

async function copyIn(c: PgClient) {
  let text = '';
  for (let i = 1; i <= ROWS; i++) {
    const [id, name, score, note] = row(i);
    text += `${id}\t${name}\t${score}\t${note ?? '\\N'}\n`;
  }
  const t0 = performance.now();
  await pipeline(
    Readable.from([Buffer.from(text)]),
    (c as unknown as { query(s: Writable): Writable }).query(copyStreams.from('COPY t FROM STDIN')),
  );
  return ROWS / ((performance.now() - t0) / 1000);
}

async function inserts(c: PgClient) {
  const batches: string[] = [];
  for (let i = 1; i <= ROWS; i += 500) {
    const values: string[] = [];
    for (let k = i; k < i + 500 && k <= ROWS; k++) {
      const [id, name, score, note] = row(k);
      values.push(`(${id}, '${name}', ${score}, ${note === null ? 'NULL' : `'${note}'`})`);
    }
    batches.push(`INSERT INTO t (id, name, score, note) VALUES ${values.join(', ')}`);
  }
  const t0 = performance.now();
  await c.query('BEGIN');
  for (const b of batches) await c.query(b);
  await c.query('COMMIT');
  return ROWS / ((performance.now() - t0) / 1000);
}

async function copyOut(c: PgClient) {
  const t0 = performance.now();
  let lines = 0;
  for await (const chunk of (c as unknown as { query(s: Readable): Readable }).query(
    copyStreams.to('COPY t TO STDOUT'),
  )) {
    const b = chunk as Buffer;
    for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) lines++;
  }
  if (lines !== ROWS) throw new Error(`COPY TO gave ${lines} rows`);
  return ROWS / ((performance.now() - t0) / 1000);
}

async function select(c: PgClient) {
  const t0 = performance.now();
  const r = await c.query({ text: 'SELECT id, name, score, note FROM t', rowMode: 'array' });
  if (r.rows.length !== ROWS) throw new Error(`SELECT gave ${r.rows.length} rows`);
  return ROWS / ((performance.now() - t0) / 1000);
}

async function main() {
  const agent = new AgentProcess({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
  await agent.start();
  const c = pgClient(agent.pg!.port);
  await c.connect();
  const r = { copyIn: [] as number[], inserts: [] as number[], copyOut: [] as number[], select: [] as number[] };
  try {
    for (let k = 0; k < ROUNDS; k++) {
      await c.query('TRUNCATE t');
      r.inserts.push(await inserts(c));
      await c.query('TRUNCATE t');
      r.copyIn.push(await copyIn(c));
      r.copyOut.push(await copyOut(c));
      r.select.push(await select(c));
    }
  } finally {
    await c.end();
    await agent.dispose();
  }
  process.stdout.write(`${ROWS} rows of 4 columns, ${ROUNDS} rounds, medians\n`);
  report('COPY FROM STDIN', median(r.copyIn), 'rows/s', '500-row INSERTs in one block', median(r.inserts));
  report('COPY TO STDOUT', median(r.copyOut), 'rows/s', 'SELECT through node-postgres', median(r.select));
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
