// statement_timeout over the PG port, as PostgreSQL applies it: SET (with its units, SHOW's form,
// TO DEFAULT, a bad value 22023), libpq's `options` (-c statement_timeout=...) and asyncpg's
// server_settings at startup (a bad value ends the login with FATAL), and a read that runs longer
// interrupted with 57014 `canceling statement due to statement timeout` while the session goes on;
// SET LOCAL and a rolled-back SET undone at the transaction's end. The reads after interrupted ones
// answer (one, back to back, two sessions at once), and SIGTERM still stops the agent and its workers.
// The setting was kept and shown but nothing was ever interrupted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { type PgClient, pgClient, psql } from '../helpers/pg';

const SCHEMA = 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);';
/** A read of some seconds on a read worker (SQLite counts to 50 million). */
const SLOW =
  'SELECT count(*) FROM (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 50000000) SELECT x FROM n) s';

describe('statement_timeout over the PG port', function () {
  this.timeout(60_000);
  let agent: AgentProcess;
  let c: PgClient;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    c = pgClient(agent.pg!.port);
    await c.connect();
    await c.query("INSERT INTO items VALUES (1, 'a'), (2, 'b')");
  });
  after(async () => {
    await c?.end();
    await agent?.stop();
  });

  const show = async () => (await c.query('SHOW statement_timeout')).rows[0].statement_timeout;

  it('SET takes PostgreSQL units and SHOW prints its form; a bad value is 22023 and changes nothing', async () => {
    for (const [value, shown] of [
      ['300', '300ms'],
      ["'5s'", '5s'],
      ["'90000ms'", '90s'],
      ["'2min'", '2min'],
      ['0', '0'],
    ]) {
      await c.query(`SET statement_timeout = ${value}`);
      assert.equal(await show(), shown, value);
    }
    await c.query("SET statement_timeout = '1s'");
    await assert.rejects(c.query("SET statement_timeout = 'abc'"), {
      code: '22023',
      message: 'invalid value for parameter "statement_timeout": "abc"',
    });
    assert.equal(await show(), '1s');
    await c.query('SET statement_timeout TO DEFAULT');
    assert.equal(await show(), '0');
  });

  it('SET LOCAL lasts to the end of its transaction, and a rolled-back SET is undone (as in PostgreSQL)', async () => {
    const seq = async (...sql: string[]) => {
      for (const q of sql) await c.query(q);
      return show();
    };
    await c.query('SET statement_timeout = 0');
    assert.equal(await seq('BEGIN', "SET LOCAL statement_timeout = '1s'"), '1s');
    assert.equal(await seq('COMMIT'), '0');
    assert.equal(await seq('BEGIN', "SET statement_timeout = '2s'", 'ROLLBACK'), '0');
    assert.equal(await seq('BEGIN', "SET statement_timeout = '2s'", "SET LOCAL statement_timeout = '5s'"), '5s');
    assert.equal(await seq('COMMIT'), '2s');
    // outside a block SET LOCAL does nothing (PostgreSQL's WARNING), but a multi-statement query's
    // implicit transaction is a block
    assert.equal(await seq("SET LOCAL statement_timeout = '3s'"), '2s');
    const r = psql(agent.pg!.port, ["SET LOCAL statement_timeout = '3s'; SHOW statement_timeout"], ['-A', '-t']);
    assert.equal(r.stdout, 'SET\n3s\n', r.stderr);
    await c.query('RESET statement_timeout');
  });

  it("pg_settings shows the session's values (DBeaver and pgAdmin read it; it showed the defaults)", async () => {
    await c.query("SET statement_timeout = '5s'");
    await c.query("SET application_name = 'mine'");
    const rows = async (client: PgClient) =>
      (
        await client.query(
          "SELECT name, setting FROM pg_settings WHERE name IN ('statement_timeout', 'application_name') ORDER BY name",
        )
      ).rows;
    assert.deepEqual(await rows(c), [
      { name: 'application_name', setting: 'mine' },
      { name: 'statement_timeout', setting: '5000' }, // in its unit, milliseconds, as in PostgreSQL
    ]);
    const other = pgClient(agent.pg!.port);
    await other.connect();
    try {
      assert.deepEqual(await rows(other), [
        { name: 'application_name', setting: '' },
        { name: 'statement_timeout', setting: '0' },
      ]);
    } finally {
      await other.end();
    }
    await c.query('RESET statement_timeout');
    await c.query('RESET application_name');
  });

  it('a read longer than statement_timeout is 57014; the session and the agent go on', async () => {
    await c.query('SET statement_timeout = 200');
    const t0 = Date.now();
    await assert.rejects(c.query(SLOW), { code: '57014', message: 'canceling statement due to statement timeout' });
    assert.ok(Date.now() - t0 < 10_000, `interrupted after ${Date.now() - t0} ms`);
    // (reset first: the interrupted read's worker is replaced, and when no other worker is ready the
    // next read waits for it, on a loaded machine longer than 200 ms)
    await c.query('RESET statement_timeout');
    assert.equal(await show(), '0');
    assert.deepEqual((await c.query('SELECT name FROM items ORDER BY id')).rows, [{ name: 'a' }, { name: 'b' }]);
  });

  it('the reads after interrupted ones answer: one, several back to back, two sessions at once (their workers replaced)', async () => {
    // The interrupted read's worker is killed and replaced; the next read runs on a ready worker, or
    // waits for the first to be ready when every one was replaced (read-pool.ts). Rows, not timing.
    const LONG = 'SELECT x FROM generate_series(1, 5000) AS g(x) ORDER BY x';
    const check = async (client: PgClient) => {
      assert.deepEqual((await client.query('SELECT name FROM items ORDER BY id')).rows, [{ name: 'a' }, { name: 'b' }]);
      const rows = (await client.query(LONG)).rows; // more rows than one batch of the worker's
      assert.equal(rows.length, 5000);
      assert.deepEqual([rows[0].x, rows[4999].x], [1, 5000]);
    };
    const interrupted = async (client: PgClient) => {
      await client.query('SET statement_timeout = 200');
      await assert.rejects(client.query(SLOW), { code: '57014' });
      await client.query('SET statement_timeout = 0');
    };
    const other = pgClient(agent.pg!.port);
    await other.connect();
    try {
      await interrupted(c);
      await check(c);
      for (let i = 0; i < 3; i++) await interrupted(c);
      await Promise.all([check(c), check(other)]);
      await Promise.all([interrupted(c), interrupted(other)]);
      await Promise.all([check(c), check(other)]);
    } finally {
      await other.end();
    }
  });

  it('SIGTERM stops the agent, and its read workers, right after an interrupted read (its replacement starting)', async () => {
    const a = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    const workers = () =>
      spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((l) => l.includes('read-worker') && l.includes(a.dbPath));
    const client = pgClient(a.pg!.port);
    try {
      await client.connect();
      await client.query('SET statement_timeout = 200');
      await assert.rejects(client.query(SLOW), { code: '57014' });
      assert.ok(workers().length > 0);
    } finally {
      await client.end();
      const t0 = Date.now();
      assert.equal(await a.stop(), 0);
      assert.ok(Date.now() - t0 < 10_000, `stopped after ${Date.now() - t0} ms`);
    }
    for (let i = 0; i < 50 && workers().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(workers(), []);
  });

  it("libpq's options (-c statement_timeout=...) and asyncpg's server_settings set it at login; a bad value is FATAL", () => {
    const port = agent.pg!.port;
    let r = psql(port, ['SHOW statement_timeout', SLOW], ['-A', '-t'], { PGOPTIONS: '-c statement_timeout=200' });
    assert.equal(r.stdout, '200ms\n');
    assert.match(r.stderr, /ERROR: {2}canceling statement due to statement timeout/);
    r = psql(port, ['SELECT 1'], [], { PGOPTIONS: '-c statement_timeout=abc' });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /FATAL: {2}invalid value for parameter "statement_timeout": "abc"/);
    const py = `
import asyncio, asyncpg
async def main():
    c = await asyncpg.connect(host='127.0.0.1', port=${port}, user='tester', database='db',
                              server_settings={'statement_timeout': '250ms', 'application_name': 'apg'})
    print(await c.fetchval('SHOW statement_timeout'), await c.fetchval('SHOW application_name'))
    try:
        await c.fetchval("""${SLOW}""")
    except asyncpg.PostgresError as e:
        print(e.sqlstate)
    # (not RESET: as in PostgreSQL it goes back to the login's 250ms, and the read after an interrupted
    # one waits for a worker to start when none is ready, longer than that on a loaded machine)
    await c.execute('SET statement_timeout = 0')
    print(await c.fetchval('SELECT count(*) FROM items'))
asyncio.run(main())
`;
    const p = spawnSync('/usr/bin/python3', ['-c', py], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(p.status, 0, p.stderr);
    assert.equal(p.stdout, '250ms apg\n57014\n2\n');
  });
});
