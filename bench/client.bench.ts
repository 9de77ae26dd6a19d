// What the client library costs when reading: rows/s of a 300,000-row result read through
// PatinaClient.query() (its own NDJSON reader and integer-exact JSON parse), against the same
// result read with fetch, the same line splitting and plain JSON.parse (which rounds integers past
// 2^53), in the same run. Once with small integers (the library takes JSON.parse's path) and once
// with integers past 2^53 in every row (its own parser).
import { AgentProcess } from '../test/helpers/agent';
import { PatinaClient } from '../src/client';
import { ndjsonLines } from '../src/client/ndjson';
import { median, report } from './util';

const N = 300_000;
const ROUNDS = 3;
const SMALL = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${N}) SELECT x, 'row ' || x AS label, x * 1.5 AS r FROM c`;
const BIG = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${N}) SELECT x + 9007199254740993, 'row ' || x AS label, x * 1.5 AS r FROM c`;

async function plain(url: string, sql: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/queries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(sql),
  });
  let rows = 0;
  for await (const line of ndjsonLines(res.body)) {
    const ev = JSON.parse(line);
    if (ev.row) rows++;
  }
  if (rows !== N) throw new Error(`read ${rows} rows`);
  return N / ((performance.now() - t0) / 1000);
}

async function library(client: PatinaClient, sql: string): Promise<number> {
  const t0 = performance.now();
  let rows = 0;
  for await (const _ of client.query(sql)) rows++;
  if (rows !== N) throw new Error(`read ${rows} rows`);
  return N / ((performance.now() - t0) / 1000);
}

async function main() {
  const agent = await new AgentProcess({ schema: 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY);\n' }).start();
  try {
    const auto = new PatinaClient({ url: agent.http });
    const bigint = new PatinaClient({ url: agent.http, integers: 'bigint' });
    await plain(agent.http, SMALL); // warm-up
    await library(auto, SMALL);
    const r: Record<string, number[]> = { plainSmall: [], libSmall: [], plainBig: [], libBig: [], libBigint: [] };
    for (let i = 0; i < ROUNDS; i++) {
      r.plainSmall.push(await plain(agent.http, SMALL));
      r.libSmall.push(await library(auto, SMALL));
      r.plainBig.push(await plain(agent.http, BIG));
      r.libBig.push(await library(auto, BIG));
      r.libBigint.push(await library(bigint, SMALL));
    }
    report('query() rows/s, small integers', median(r.libSmall), 'rows/s', 'fetch + JSON.parse', median(r.plainSmall));
    report(
      'query() rows/s, integers past 2^53 (exact)',
      median(r.libBig),
      'rows/s',
      'fetch + JSON.parse (rounds them)',
      median(r.plainBig),
    );
    report(
      "query() rows/s, integers: 'bigint'",
      median(r.libBigint),
      'rows/s',
      'fetch + JSON.parse',
      median(r.plainSmall),
    );
  } finally {
    await agent.dispose();
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
