// A long catalog query does not hold the agent: a statement that reads pg_catalog or
// information_schema relations ran on the catalog connection on the agent's own thread, which nothing
// can interrupt, so a cross join of pg_attribute (or a recursive WITH query joined to a catalog
// relation) held every session, the writer, statement_timeout, a CancelRequest and SIGTERM until it
// ended. It now runs in a catalog worker process (protocols/pg/catalog/catalog-workers.ts): stopped
// with 57014 while other sessions are answered, and the agent stops on SIGTERM within seconds. The
// session's facts a catalog query reads (its user, database, settings, pid, pg_stat_activity,
// pg_prepared_statements) are still the session's there.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { request } from '../helpers/http';
import { scrape, value } from '../helpers/metrics';
import { RawPg, pgClient, serialize } from '../helpers/pg';

const SCHEMA = 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);';
/** Thousands of rows cubed: it would run for hours. */
const CROSS = 'SELECT count(*) FROM pg_attribute a, pg_attribute b, pg_attribute c';
/** A recursive WITH query with no end, joined to a catalog relation (so on the catalog connection). */
const ENDLESS = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r, pg_namespace';

const catalogWorkers = (a: AgentProcess) =>
  spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((l) => l.includes('catalog-worker') && l.includes(a.dbPath));

/** The catalog workers by state, from the agent's metrics. */
async function workers(a: AgentProcess): Promise<{ idle: number; busy: number; starting: number }> {
  const s = await scrape(a.http);
  const n = (state: string) => value(s, `patina_pg_catalog_workers{state="${state}"}`);
  return { idle: n('idle'), busy: n('busy'), starting: n('starting') };
}

/**
 * Asks one catalog query (the first starts a catalog worker; until it is ready catalog queries run
 * on the agent's thread, as before there were workers) and waits until a worker is ready.
 */
async function warmCatalog(a: AgentProcess): Promise<void> {
  const c = pgClient(a.pg!.port);
  await c.connect();
  try {
    await c.query('SELECT count(*) FROM pg_namespace');
  } finally {
    await c.end();
  }
  for (let i = 0; i < 300; i++) {
    const w = await workers(a);
    if (w.idle + w.busy > 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail('no catalog worker ready 30 s after the first catalog query');
}

/** A query of the session's facts, run where catalog queries run (it reads pg_namespace). */
const FACTS = `SELECT current_user, current_database(), current_setting('statement_timeout'), current_schemas(false),
                 (SELECT setting FROM pg_settings WHERE name = 'statement_timeout'),
                 (SELECT count(*) FROM pg_stat_activity WHERE pid = pg_backend_pid() AND application_name = 'liveness'
                    AND usename = current_user AND state = 'active'),
                 (SELECT string_agg(name, ',') FROM pg_prepared_statements),
                 (SELECT datname FROM pg_database)
               FROM pg_namespace WHERE nspname = 'public'`;

describe('a long catalog query does not hold the agent', function () {
  this.timeout(60_000);
  let agent: AgentProcess;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    await warmCatalog(agent);
  });
  // (SIGKILL: an agent stuck in a statement would not stop on SIGTERM)
  after(() => agent?.dispose());

  it('statement_timeout stops a cross join of pg_attribute (57014) while other sessions are answered', async () => {
    const long = pgClient(agent.pg!.port);
    const other = pgClient(agent.pg!.port);
    await long.connect();
    await other.connect();
    try {
      await long.query("SET statement_timeout = '8s'");
      const order: string[] = [];
      const running = long.query(CROSS).then(
        () => order.push('long answered'),
        (e: { code?: string; message?: string }) => order.push(`long ${e.code} ${e.message}`),
      );
      await new Promise((r) => setTimeout(r, 500));
      // a catalog query, a write and a read of another session, answered while it runs
      const r = await other.query({
        text: "SELECT relname FROM pg_class WHERE relname = 'items'",
        rowMode: 'array',
      });
      assert.deepEqual(r.rows, [['items']]);
      await other.query("INSERT INTO items VALUES (1, 'a')");
      assert.deepEqual((await other.query({ text: 'SELECT name FROM items', rowMode: 'array' })).rows, [['a']]);
      order.push('other answered');
      await running;
      assert.deepEqual(order, ['other answered', 'long 57014 canceling statement due to statement timeout']);
      // the session goes on, catalog queries too
      assert.deepEqual(
        (await long.query({ text: "SELECT count(*) FROM pg_namespace WHERE nspname = 'public'", rowMode: 'array' }))
          .rows,
        [['1']],
      );
    } finally {
      await long.end();
      await other.end();
    }
  });

  it('a CancelRequest stops a recursive WITH query joined to a catalog relation (57014)', async () => {
    const port = agent.pg!.port;
    const c = await RawPg.connect(port);
    c.listen();
    c.send(serialize.startup({ user: 'tester', database: 'db' }));
    const key = (await c.until('readyForQuery')).find((m) => m.name === 'backendKeyData')!;
    c.send(serialize.query(ENDLESS));
    await new Promise((r) => setTimeout(r, 500));
    const k = await new Promise<net.Socket>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(s));
    });
    k.write(serialize.cancel(key.processID as number, key.secretKey as number));
    const msgs = await c.until('readyForQuery', 15000);
    k.destroy();
    const err = msgs.find((m) => m.name === 'error');
    assert.equal(err?.code, '57014');
    assert.equal(err?.message, 'canceling statement due to user request');
    c.send(serialize.query("SELECT nspname FROM pg_namespace WHERE nspname = 'public'"));
    assert.deepEqual((await c.until('readyForQuery')).find((m) => m.name === 'dataRow')?.fields, ['public']);
    // the one with no catalog relation is a read on a read worker: stopped too
    c.send(serialize.query("SET statement_timeout = '1s'"));
    await c.until('readyForQuery');
    c.send(serialize.query('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r'));
    assert.equal((await c.until('readyForQuery', 15000)).find((m) => m.name === 'error')?.code, '57014');
    c.end();
  });

  it("a catalog query reads the session's facts: user, database, settings, pid, its activity and prepared statements", async () => {
    const c = pgClient(agent.pg!.port, { application_name: 'liveness' });
    await c.connect();
    try {
      await c.query("SET statement_timeout = '1234ms'");
      await c.query('SET search_path = pg_catalog, public');
      await c.query('PREPARE mine AS SELECT 1');
      const r = await c.query({ text: FACTS, rowMode: 'array' });
      assert.deepEqual(r.rows, [['tester', 'db', '1234ms', '{pg_catalog,public}', '1234', '1', 'mine', 'db']]);
    } finally {
      await c.end();
    }
  });

  it("after a schema reload a catalog query lists the new table with the OID the agent's casts give it", async () => {
    const c = pgClient(agent.pg!.port);
    await c.connect();
    try {
      fs.appendFileSync(path.join(agent.dir, 'schema.sql'), '\nCREATE TABLE later (k TEXT NOT NULL PRIMARY KEY);\n');
      const r = await request(agent.http, 'POST', '/v1/admin/reload');
      assert.equal(r.status, 200, r.text);
      // (no FROM: the agent's own catalog connection; FROM pg_class: a catalog worker's)
      const here = (await c.query({ text: "SELECT 'later'::regclass::oid, 'items'::regclass::oid", rowMode: 'array' }))
        .rows[0];
      const there = await c.query({
        text: "SELECT (SELECT oid FROM pg_class WHERE relname = 'later'), (SELECT oid FROM pg_class WHERE relname = 'items') FROM pg_namespace WHERE nspname = 'public'",
        rowMode: 'array',
      });
      assert.deepEqual(there.rows, [here]);
    } finally {
      await c.end();
    }
  });

  it("the first catalog query is answered at once on the agent's thread and starts a worker; the worker answers as the thread did", async () => {
    const a = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    const c = pgClient(a.pg!.port, { application_name: 'liveness' });
    try {
      // an agent no one browses has no catalog worker
      assert.deepEqual(await workers(a), { idle: 0, busy: 0, starting: 0 });
      await c.connect();
      await c.query("SET statement_timeout = '1234ms'");
      await c.query('SET search_path = pg_catalog, public');
      await c.query('PREPARE mine AS SELECT 1');
      const here = await c.query({ text: FACTS, rowMode: 'array' });
      const w = await workers(a);
      assert.equal(w.idle + w.starting, 1, JSON.stringify(w));
      await warmCatalog(a);
      const there = await c.query({ text: FACTS, rowMode: 'array' });
      assert.deepEqual(there.rows, here.rows);
      assert.deepEqual(here.rows, [['tester', 'db', '1234ms', '{pg_catalog,public}', '1234', '1', 'mine', 'db']]);
    } finally {
      await c.end();
      await a.dispose();
    }
  });

  it('SIGTERM stops the agent within seconds while a long catalog query runs, its catalog workers too', async () => {
    const a = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    await warmCatalog(a);
    const client = pgClient(a.pg!.port);
    client.on('error', () => {});
    try {
      await client.connect();
      const running = client.query(CROSS).catch((e: Error) => e);
      await new Promise((r) => setTimeout(r, 500));
      const t0 = Date.now();
      const stopped = await Promise.race([a.stop(), new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
      assert.equal(stopped, 0, `stopped after ${Date.now() - t0} ms`);
      assert.ok((await running) instanceof Error);
    } finally {
      await a.dispose();
    }
    for (let i = 0; i < 50 && catalogWorkers(a).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(catalogWorkers(a), []);
  });
});
