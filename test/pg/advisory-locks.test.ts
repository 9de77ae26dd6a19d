// PostgreSQL's advisory locks over the PG port, as migration tools (Rails' pg_try_advisory_lock,
// golang-migrate's pg_advisory_lock($1)) and job queues (Oban's pg_try_advisory_xact_lock) take
// them: two sessions against PostgreSQL 15 and against Patina doing the same steps, every answer
// compared. They were 42883 `function pg_advisory_lock(...) does not exist`. And DISCARD ALL, which
// connection pools send between clients and which releases them, did nothing.
import assert from 'node:assert/strict';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { type PgClient, pgClient, psql } from '../helpers/pg';

const TABLES = 'CREATE TABLE jobs (id BIGINT NOT NULL PRIMARY KEY, state TEXT);';

describe('advisory locks, DISCARD ALL and pg_sleep against PostgreSQL 15', function () {
  this.timeout(60_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({
      schemas: { patina: TABLES, postgres: TABLES },
      rows: ["INSERT INTO jobs VALUES (1, 'new'), (2, 'new'), (3, 'done')"],
    });
  });
  after(() => pair?.dispose());

  /** psql's output of `sql` on both servers, compared (ON_ERROR_STOP=0: the steps go on past an error); PostgreSQL's. */
  function samePsql(sql: string[]): { stdout: string; stderr: string } {
    const p = psql(pair.patinaPort, sql, ['-A', '-t', '-v', 'ON_ERROR_STOP=0']);
    const g = psql(pair.postgresPort, sql, ['-A', '-t', '-v', 'ON_ERROR_STOP=0']);
    assert.equal(p.stdout, g.stdout);
    assert.equal(p.stderr, g.stderr);
    return g;
  }

  /** Two sessions on `port` going through the steps; what each step answered. */
  async function steps(port: number): Promise<unknown[]> {
    const a = pgClient(port);
    const b = pgClient(port);
    await a.connect();
    await b.connect();
    const out: unknown[] = [];
    const one = async (c: PgClient, sql: string, params?: unknown[]) =>
      c.query({ text: sql, values: params, rowMode: 'array' }).then(
        // (a row, else the command's tag; several statements: their tags)
        (r) => {
          const results = (Array.isArray(r) ? r : [r]) as { rows: unknown[][]; command: string }[];
          return results.length > 1 ? results.map((x) => x.command) : (results[0].rows[0] ?? results[0].command);
        },
        (e: { code: string; message: string }) => `${e.code} ${e.message}`,
      );
    try {
      out.push(await one(a, 'SELECT pg_advisory_lock($1)', [1]));
      out.push(await one(b, 'SELECT pg_try_advisory_lock($1)', [1]));
      // a waiting pg_advisory_lock goes on once the holder unlocks
      const t0 = Date.now();
      const waiting = one(b, 'SELECT pg_advisory_lock(1)').then((r) => [r, Date.now() - t0 >= 250]);
      await new Promise((r) => setTimeout(r, 300));
      out.push(await one(a, 'SELECT pg_advisory_unlock(1)'));
      out.push(await waiting);
      out.push(await one(a, 'SELECT pg_try_advisory_lock(1)'));
      // statement_timeout and lock_timeout end a wait with their own errors
      out.push(await one(b, "SET statement_timeout = '200ms'"));
      out.push(await one(b, 'SELECT pg_advisory_unlock_all()'));
      out.push(await one(a, 'SELECT pg_advisory_lock(1)'));
      out.push(await one(b, 'SELECT pg_advisory_lock(1)'));
      out.push(await one(b, "SET statement_timeout = 0; SET lock_timeout = '100ms'"));
      out.push(await one(b, 'SELECT pg_advisory_lock(1)'));
      out.push(await one(b, 'SET lock_timeout = 0'));
      // counted: locked twice, unlocked twice; a third unlock is false (with a WARNING)
      out.push(await one(a, 'SELECT pg_try_advisory_lock(7), pg_try_advisory_lock(7)'));
      out.push(await one(a, 'SELECT pg_advisory_unlock(7), pg_advisory_unlock(7), pg_advisory_unlock(7)'));
      // shared beside shared, not beside exclusive; two int4 keys are their own space
      out.push(await one(b, 'SELECT pg_try_advisory_lock_shared(2), pg_try_advisory_lock(0, 2)'));
      out.push(
        await one(a, 'SELECT pg_try_advisory_lock_shared(2), pg_try_advisory_lock(2), pg_try_advisory_lock(0, 2)'),
      );
      // a transaction's lock ends with it; Oban's pick of a job: the first free one
      out.push(await one(b, 'BEGIN'));
      out.push(
        await one(b, 'SELECT id FROM jobs WHERE state = $1 AND pg_try_advisory_xact_lock(id) ORDER BY id LIMIT 1', [
          'new',
        ]),
      );
      out.push(
        await one(a, 'SELECT id FROM jobs WHERE state = $1 AND pg_try_advisory_xact_lock(id) ORDER BY id LIMIT 1', [
          'new',
        ]),
      );
      out.push(await one(b, 'COMMIT'));
      out.push(await one(a, 'SELECT pg_try_advisory_lock(3), pg_advisory_unlock(3)'));
      // a cancel ends a wait (57014); then the session ends and its locks with it
      const pid = Number((await b.query('SELECT pg_backend_pid() AS p')).rows[0].p);
      const cancelled = one(b, 'SELECT pg_advisory_lock(1)');
      await new Promise((r) => setTimeout(r, 200));
      out.push(await one(a, 'SELECT pg_cancel_backend($1)', [pid]));
      out.push(await cancelled);
      await a.end();
      out.push(await one(b, 'SELECT pg_try_advisory_lock(1)'));
    } finally {
      await a.end().catch(() => {});
      await b.end();
    }
    return out;
  }

  it('session and transaction locks, shared and exclusive, waits, timeouts, cancel, counts: as PostgreSQL', async () => {
    const postgres = await steps(pair.postgresPort);
    const patina = await steps(pair.patinaPort);
    assert.deepEqual(patina, postgres);
    assert.deepEqual(postgres[3], [[''], true]); // the wait lasted until the unlock
    assert.equal(postgres[8], '57014 canceling statement due to statement timeout');
  });

  it('pg_locks lists them held and waited for, pg_stat_activity shows the wait (Lock/advisory, Timeout/PgSleep)', async () => {
    // (pg_locks was empty, the wait columns NULL, and pg_backend_pid() a bigint where PostgreSQL's is an integer)
    const look = async (port: number) => {
      const [a, b, c] = [pgClient(port), pgClient(port), pgClient(port)];
      for (const x of [a, b, c]) await x.connect();
      try {
        const pa = (await a.query('SELECT pg_backend_pid() AS p')).rows[0].p;
        const pb = (await b.query('SELECT pg_backend_pid() AS p')).rows[0].p;
        const who = (pid: unknown) => (pid === pa ? 'a' : pid === pb ? 'b' : typeof pid);
        await a.query('SELECT pg_advisory_lock(1), pg_advisory_lock_shared(2, 3), pg_advisory_lock(-5)');
        const waiting = b.query('SELECT pg_advisory_lock(1)');
        await new Promise((r) => setTimeout(r, 150));
        const locks = (
          await c.query(
            `SELECT locktype, classid::text, objid::text, objsubid, pid, mode, granted FROM pg_locks
              WHERE locktype = 'advisory' ORDER BY granted DESC, classid, objid, objsubid`,
          )
        ).rows.map((r) => ({ ...r, pid: who(r.pid) }));
        const activity = (
          await c.query(
            'SELECT pid, wait_event_type, wait_event FROM pg_stat_activity WHERE pid IN ($1, $2) ORDER BY pid',
            [pa, pb],
          )
        ).rows.map((r) => ({ ...r, pid: who(r.pid) }));
        await a.query('SELECT pg_advisory_unlock_all()');
        await waiting;
        const sleeping = c.query('SELECT pg_sleep(0.4)');
        await new Promise((r) => setTimeout(r, 150));
        const sleep = (
          await a.query("SELECT wait_event_type, wait_event FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(0.4)'")
        ).rows;
        await sleeping;
        return { locks, activity: activity.sort((x, y) => (x.pid < y.pid ? -1 : 1)), sleep };
      } finally {
        for (const x of [a, b, c]) await x.end();
      }
    };
    const postgres = await look(pair.postgresPort);
    assert.deepEqual(await look(pair.patinaPort), postgres);
    assert.equal(postgres.locks.length, 4);
  });

  it('DISCARD ALL, as connection pools send it, resets settings, UNLISTENs and unlocks; 25001 in a block', () => {
    // (it did nothing: the next client of the pooled connection got the last one's zone and locks)
    const sql = [
      "SET TIME ZONE 'Europe/Paris'",
      "SET myapp.x = 'v'",
      'LISTEN ch',
      'SELECT pg_advisory_lock(9)',
      'BEGIN',
      'DISCARD ALL',
      'ROLLBACK',
      'DISCARD ALL',
      'SHOW timezone',
      'SHOW myapp.x',
      'SELECT count(*) FROM pg_listening_channels()',
      'SELECT pg_advisory_unlock(9)',
      'DEALLOCATE ALL',
    ];
    const g = samePsql(sql); // (the DISCARD ALL in a block fails, and the steps go on)
    assert.match(g.stdout, /^UTC$/m);
    assert.match(g.stderr, /DISCARD ALL cannot run inside a transaction block/);
  });

  it('pg_sleep waits off the agent (statement_timeout and a cancel end it); to_regproc, to_regtype, pg_current_xact_id', async () => {
    // (all four were 42883; pgx's cancellation test and health checks call pg_sleep)
    const sql = [
      "SELECT to_regproc('now'), to_regproc('nope') IS NULL, to_regprocedure('upper(text)'), to_regtype('integer'), to_regtype('nope') IS NULL",
      'SELECT pg_current_xact_id() IS NOT NULL',
      "SELECT pg_sleep(0.3), pg_sleep_for('10 milliseconds')",
      "SET statement_timeout = '100ms'",
      'SELECT pg_sleep(1)',
    ];
    const g = samePsql(sql);
    assert.match(g.stderr, /canceling statement due to statement timeout/);
    for (const port of [pair.patinaPort, pair.postgresPort]) {
      const a = pgClient(port);
      const b = pgClient(port);
      await a.connect();
      await b.connect();
      try {
        const t0 = Date.now();
        await b.query('SELECT pg_sleep(0.3)');
        assert.ok(Date.now() - t0 >= 280, `pg_sleep(0.3) on ${port} returned after ${Date.now() - t0} ms`);
        // while one session sleeps, another is answered; a cancel ends the sleep
        const pid = Number((await b.query('SELECT pg_backend_pid() AS p')).rows[0].p);
        const sleeping = b.query('SELECT pg_sleep(30)').then(
          () => 'slept',
          (e: { code: string }) => e.code,
        );
        await new Promise((r) => setTimeout(r, 100));
        assert.deepEqual((await a.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
        await a.query('SELECT pg_cancel_backend($1)', [pid]);
        assert.equal(await sleeping, '57014');
      } finally {
        await a.end();
        await b.end();
      }
    }
  });

  it("psql prints them as PostgreSQL's: void as empty, an unlock not held with its WARNING", () => {
    const sql = [
      'SELECT pg_advisory_lock(42), pg_try_advisory_lock(43), pg_advisory_unlock(42), pg_advisory_unlock(43)',
      'SELECT pg_advisory_unlock(99)',
    ];
    const g = samePsql(sql);
    assert.match(g.stderr, /you don't own a lock of type ExclusiveLock/);
  });
});
