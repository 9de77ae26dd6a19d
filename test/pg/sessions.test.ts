// The agent's PG sessions as pgAdmin's dashboard, DBeaver's session manager and monitoring read
// them: pg_stat_activity (one row per logged-in connection: its user, application, client, state,
// last statement and times), and pg_cancel_backend / pg_terminate_backend on a pid from it. The view
// was empty and both functions were 42883. And pg_database_size, which dashboards chart.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { type PgClient, pgClient } from '../helpers/pg';
import { eventually } from '../helpers/wait';

const SCHEMA = 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);';
/** A read of some seconds on a read worker (SQLite counts to 50 million). */
const SLOW =
  'SELECT count(*) FROM (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 50000000) SELECT x FROM n) s';

describe('pg_stat_activity, pg_cancel_backend and pg_terminate_backend', function () {
  this.timeout(60_000);
  let agent: AgentProcess;
  const open: PgClient[] = [];

  const connect = async (applicationName: string) => {
    const c = pgClient(agent.pg!.port, { application_name: applicationName });
    c.on('error', () => {}); // a terminated connection's client reports it here
    await c.connect();
    open.push(c);
    return c;
  };
  const pidOf = async (c: PgClient) => Number((await c.query('SELECT pg_backend_pid() AS p')).rows[0].p);

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
  });
  after(async () => {
    for (const c of open) await c.end().catch(() => {});
    await agent?.stop();
  });

  it('shows each session: user, application, client, state, its statement and times', async () => {
    const watcher = await connect('watcher');
    const idle = await connect('idle-one');
    await idle.query('SELECT $1::int + 1 AS n', [1]); // the extended protocol: the Parse's text
    const inTx = await connect('in-tx');
    await inTx.query('BEGIN');
    await inTx.query("INSERT INTO items VALUES (1, 'a')");
    const rows = (
      await watcher.query(
        `SELECT application_name, usename, datname, client_addr, state, query, backend_type,
                xact_start IS NOT NULL AS in_xact, backend_start <= now() AS started, pid = pg_backend_pid() AS me
           FROM pg_stat_activity ORDER BY application_name`,
      )
    ).rows;
    assert.deepEqual(rows, [
      {
        application_name: 'idle-one',
        usename: 'tester',
        datname: 'db',
        client_addr: '127.0.0.1',
        state: 'idle',
        query: 'SELECT $1::int + 1 AS n',
        backend_type: 'client backend',
        in_xact: false,
        started: true,
        me: false,
      },
      {
        application_name: 'in-tx',
        usename: 'tester',
        datname: 'db',
        client_addr: '127.0.0.1',
        state: 'idle in transaction',
        query: "INSERT INTO items VALUES (1, 'a')",
        backend_type: 'client backend',
        in_xact: true,
        started: true,
        me: false,
      },
      {
        application_name: 'watcher',
        usename: 'tester',
        datname: 'db',
        client_addr: '127.0.0.1',
        state: 'active',
        query: rows[2].query,
        backend_type: 'client backend',
        in_xact: false,
        started: true,
        me: true,
      },
    ]);
    assert.match(String(rows[2].query), /FROM pg_stat_activity ORDER BY application_name/);
    await inTx.query('ROLLBACK');
  });

  it('pg_cancel_backend cancels the running statement of a pid (57014 there); the session goes on', async () => {
    const watcher = await connect('canceller');
    const busy = await connect('busy');
    const busyPid = await pidOf(busy);
    const running = busy.query(SLOW).then(
      () => 'ran',
      (e: { code: string; message: string }) => `${e.code} ${e.message}`,
    );
    await eventually('the read is running', 10_000, async () => {
      const r = await watcher.query('SELECT state FROM pg_stat_activity WHERE pid = $1', [busyPid]);
      return r.rows[0]?.state === 'active' || JSON.stringify(r.rows);
    });
    assert.deepEqual((await watcher.query('SELECT pg_cancel_backend($1) AS ok', [busyPid])).rows, [{ ok: true }]);
    assert.equal(await running, '57014 canceling statement due to user request');
    assert.deepEqual((await busy.query('SELECT count(*)::int AS n FROM items')).rows, [{ n: 0 }]);
    // a pid that is no session: false with PostgreSQL's WARNING, one per call (there was none)
    const notices: string[] = [];
    const events = watcher as unknown as { on(e: 'notice', f: (n: Record<string, string>) => void): void };
    events.on('notice', (n) => notices.push(`${n.severity} ${n.code} ${n.message}`));
    assert.deepEqual((await watcher.query('SELECT pg_cancel_backend(12345) AS a, pg_terminate_backend(1) AS b')).rows, [
      { a: false, b: false },
    ]);
    assert.deepEqual(notices, [
      'WARNING 01000 PID 12345 is not a PostgreSQL backend process',
      'WARNING 01000 PID 1 is not a PostgreSQL backend process',
    ]);
  });

  it('pg_database_size is the SQLite file and its WAL on disk (it was 0)', async () => {
    const c = await connect('sizes');
    const size = Number((await c.query('SELECT pg_database_size(current_database()) AS n')).rows[0].n);
    const onDisk = [agent.dbPath, `${agent.dbPath}-wal`].reduce(
      (n, f) => n + (fs.statSync(f, { throwIfNoEntry: false })?.size ?? 0),
      0,
    );
    assert.ok(size > 0 && Math.abs(size - onDisk) <= 1 << 20, `${size} against ${onDisk} on disk`);
  });

  it('pg_terminate_backend ends a connection; its open transaction is rolled back', async () => {
    const watcher = await connect('terminator');
    const victim = await connect('victim');
    const pid = await pidOf(victim);
    await victim.query('BEGIN');
    await victim.query("INSERT INTO items VALUES (7, 'never')");
    const events = victim as unknown as { on(event: string, fn: (e?: Error & { code?: string }) => void): void };
    const ended = new Promise<string>((resolve) => {
      events.on('error', (e) => resolve(`${e?.code} ${e?.message}`));
      events.on('end', () => resolve('end'));
    });
    assert.deepEqual((await watcher.query('SELECT pg_terminate_backend($1) AS ok', [pid])).rows, [{ ok: true }]);
    assert.match(await ended, /57P01 terminating connection due to administrator command|end/);
    await eventually('the session is gone', 10_000, async () => {
      const r = await watcher.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [pid]);
      return r.rows[0].n === 0 || JSON.stringify(r.rows);
    });
    assert.deepEqual((await watcher.query('SELECT count(*)::int AS n FROM items WHERE id = 7')).rows, [{ n: 0 }]);
    await watcher.query("INSERT INTO items VALUES (8, 'writer free')"); // the writer was given back
  });
});
