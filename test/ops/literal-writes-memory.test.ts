// Writes whose values are written into the SQL text, each text new: the agent's resident memory
// stays bounded over HTTP and over the PostgreSQL simple protocol (before, every distinct text left
// a prepared statement with the compiled capture triggers behind: +430 MB over 20,000 HTTP texts,
// +730 MB over 20,000 PG texts). The figures over minutes are in bench/memory.bench.ts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { postJson, write } from '../helpers/http';
import { scrape, value } from '../helpers/metrics';
import { pgClient } from '../helpers/pg';

const SCHEMA = 'CREATE TABLE sandwiches (pk INTEGER NOT NULL PRIMARY KEY, sandwich TEXT, price INTEGER);';
const ROWS = 20_000;
const TEXTS = 20_000;
const BOUND_MB = 100;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(m, 'VmRSS in /proc');
  return Number(m[1]) / 1024;
}

describe('writes with their values in the SQL text', function () {
  this.timeout(180_000);
  let agent: AgentProcess;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\n' });
    for (let i = 0; i < ROWS; i += 2000) {
      const batch = [];
      for (let k = i; k < i + 2000; k++) batch.push(['INSERT INTO sandwiches VALUES (?, ?, ?)', [k, `s${k}`, k % 100]]);
      await write(agent.http, batch);
    }
  });
  after(() => agent?.dispose());

  /** Runs `n` distinct texts from `from` through `one`, 4 at a time. */
  async function run(from: number, n: number, one: (k: number) => Promise<void>, lanes = 4): Promise<void> {
    let next = from;
    const lane = async () => {
      while (next < from + n) await one(next++);
    };
    await Promise.all(Array.from({ length: lanes }, lane));
  }
  const http = async (k: number) => {
    const r = await postJson(agent.http, '/v1/transactions', [
      `UPDATE sandwiches SET sandwich = 'v${k}', price = ${k % 1000} WHERE pk = ${k % ROWS}`,
    ]);
    assert.equal(r.status, 200, r.text);
  };

  it(`keep the agent's memory within ${BOUND_MB} MB over ${TEXTS} new texts on HTTP and on PG`, async () => {
    const pg = pgClient(agent.pg!.port);
    await pg.connect();
    try {
      const pgOne = async (k: number) => {
        const r = await pg.query(
          `UPDATE sandwiches SET sandwich = 'p${k}', price = ${k % 1000} WHERE pk = ${k % ROWS}`,
        );
        assert.equal(r.rowCount, 1);
      };
      await run(0, 2000, http); // warm up: caches fill, the heap finds its size
      await run(2000, 2000, pgOne, 1);
      const before = rssMb(agent.proc.pid!);
      await run(4000, TEXTS, http);
      const afterHttp = rssMb(agent.proc.pid!);
      await run(4000 + TEXTS, TEXTS, pgOne, 1);
      const after = rssMb(agent.proc.pid!);
      assert.ok(
        after - before <= BOUND_MB,
        `resident memory ${before.toFixed(0)} MB → ${afterHttp.toFixed(0)} MB after HTTP → ${after.toFixed(0)} MB after PG`,
      );
      const last = 4000 + 2 * TEXTS - 1;
      const row = await pg.query(`SELECT sandwich, price FROM sandwiches WHERE pk = ${last % ROWS}`);
      assert.deepEqual(row.rows, [{ sandwich: `p${last}`, price: String(last % 1000) }]); // int8 comes as a string
    } finally {
      await pg.end();
    }
    const m = await scrape(agent.http);
    assert.ok(value(m, 'patina_statement_cache_entries{cache="writer"}') <= 256);
    // HTTP texts share an engine statement; PG texts have their literals lifted by the front end
    // (one analysis, one statement for the shape)
    assert.ok(value(m, 'patina_writes_shared_statement_total') >= TEXTS);
    assert.ok(value(m, 'patina_pg_analysis_cache_total{result="hit"}') >= TEXTS);
    assert.ok(value(m, 'patina_pg_analysis_cache_total{result="miss"}') < 100);
  });

  it('share one statement when the PG front end lifts some literals and leaves others in the text', async () => {
    // `sandwich = 'p' || 7`: an operand the front end leaves as written, beside `pk = 12` it lifts; each
    // text used to leave a SQLite statement behind (pgbench -M simple's TPC-B: 1.8 GB in 90 s, before
    // the front end lifted its `abalance + -1234` too)
    const pg = pgClient(agent.pg!.port);
    await pg.connect();
    try {
      const shared0 = value(await scrape(agent.http), 'patina_writes_shared_statement_total');
      for (let k = 1; k <= 300; k++) {
        const r = await pg.query(`UPDATE sandwiches SET sandwich = 'p' || ${k % 2 ? -k : k} WHERE pk = 12`);
        assert.equal(r.rowCount, 1);
      }
      const end = await pg.query('SELECT sandwich FROM sandwiches WHERE pk = 12');
      assert.deepEqual(end.rows, [{ sandwich: 'p300' }]);
      const m = await scrape(agent.http);
      assert.ok(value(m, 'patina_writes_shared_statement_total') - shared0 >= 300);
      assert.ok(value(m, 'patina_statement_cache_entries{cache="writer"}') <= 256);
    } finally {
      await pg.end();
    }
  });

  it('run texts whose literals are syntax, ORDER BY positions and refusals as written', async () => {
    // the 8 of a type name cannot be a parameter: the text runs as it is
    await write(agent.http, ["UPDATE sandwiches SET sandwich = CAST('42abc' AS UNSIGNED BIG INT(8)) WHERE pk = 1"]);
    await write(agent.http, [
      "INSERT INTO sandwiches (pk, sandwich) SELECT pk + 100000, 'copy' FROM sandwiches WHERE pk < 3 ORDER BY 1 DESC",
    ]);
    const r = await postJson(
      agent.http,
      '/v1/queries',
      'SELECT pk, sandwich FROM sandwiches WHERE pk IN (1, 100000, 100002) ORDER BY pk',
    );
    assert.equal(r.status, 200, r.text);
    assert.match(r.text, /\{"row":\[1,\[1,"42"\]\]\}/);
    assert.match(r.text, /\{"row":\[2,\[100000,"copy"\]\]\}/);
    assert.match(r.text, /\{"row":\[3,\[100002,"copy"\]\]\}/);
    const dup = await postJson(agent.http, '/v1/transactions', ["INSERT INTO sandwiches VALUES (5, 'dup', 1)"]);
    assert.equal(dup.status, 409, dup.text);
    assert.match(dup.text, /UNIQUE constraint failed: sandwiches\.pk/);
    const bad = await postJson(agent.http, '/v1/transactions', ["UPDATE sandwiches SET nope = 'x' WHERE pk = 1"]);
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.text, /no such column: nope/);
  });
});
