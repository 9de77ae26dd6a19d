// LISTEN/NOTIFY over the PG port: table channels (patina_updates_<table>) fed by the change feed,
// for writes through any front end or replicated from another agent, and NOTIFY between PG
// clients; with node-postgres, psycopg2 and psql.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { TestCluster } from '../helpers/cluster';
import { postJson } from '../helpers/http';
import { type PgClient, pgClient, psql } from '../helpers/pg';

const SCHEMA = `
CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
CREATE TABLE pairs (a TEXT NOT NULL, b INTEGER NOT NULL, v TEXT, PRIMARY KEY (a, b));
`;
const PYTHON = '/usr/bin/python3';

interface Note {
  channel: string;
  payload: string;
  processId: number;
}

/** A node-postgres client that records its notifications. */
async function listener(port: number): Promise<{ c: PgClient; notes: Note[]; until(n: number): Promise<Note[]> }> {
  const c = pgClient(port);
  const notes: Note[] = [];
  (c as unknown as { on(e: string, f: (n: Note) => void): void }).on('notification', (n) => notes.push(n));
  await c.connect();
  const until = async (n: number) => {
    const deadline = Date.now() + 10000;
    while (notes.length < n) {
      if (Date.now() > deadline) throw new Error(`${notes.length} of ${n} notifications: ${JSON.stringify(notes)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return notes.splice(0, n);
  };
  return { c, notes, until };
}

async function httpWrite(base: string, ...statements: unknown[]) {
  const r = await postJson(base, '/v1/transactions', statements);
  assert.equal(r.status, 200, r.text);
}

describe('LISTEN/NOTIFY over the PG port', function () {
  this.timeout(60000);
  let agent: AgentProcess;
  let port: number;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    port = agent.pg!.port;
  });
  after(() => agent.dispose());

  it('a table channel gets the update stream event of every changed row, written over HTTP or PG', async () => {
    const l = await listener(port);
    const w = pgClient(port);
    await w.connect();
    try {
      await l.c.query('LISTEN patina_updates_users');
      await httpWrite(agent.http, "INSERT INTO users (id, name) VALUES (1, 'a'), (9223372036854775807, 'max')");
      assert.deepEqual(
        (await l.until(2)).map((n) => [n.channel, n.payload]),
        [
          ['patina_updates_users', '{"notify":["update",[1]]}'],
          ['patina_updates_users', '{"notify":["update",[9223372036854775807]]}'],
        ],
      );
      await w.query(`UPDATE users SET name = 'b' WHERE id = 1`);
      await w.query('DELETE FROM users WHERE id = 9223372036854775807');
      assert.deepEqual(
        (await l.until(2)).map((n) => n.payload),
        ['{"notify":["update",[1]]}', '{"notify":["delete",[9223372036854775807]]}'],
      );
      // a transaction block's rows arrive after its commit; a rolled-back block sends nothing
      await w.query('BEGIN');
      await w.query(`INSERT INTO users (id) VALUES (2)`);
      await w.query('ROLLBACK');
      await w.query('BEGIN');
      await w.query(`INSERT INTO users (id) VALUES (3)`);
      await w.query(`INSERT INTO pairs (a, b) VALUES ('x', 1)`); // another table: another channel
      await w.query('COMMIT');
      assert.deepEqual(
        (await l.until(1)).map((n) => n.payload),
        ['{"notify":["update",[3]]}'],
      );
      // composite keys in key order; the listener's own writes notify it too
      await l.c.query('LISTEN patina_updates_pairs');
      await l.c.query(`UPDATE pairs SET v = 'y' WHERE a = 'x'`);
      assert.deepEqual(
        (await l.until(1)).map((n) => [n.channel, n.payload]),
        [['patina_updates_pairs', '{"notify":["update",["x",1]]}']],
      );
      await l.c.query('UNLISTEN patina_updates_users');
      await httpWrite(agent.http, 'INSERT INTO users (id) VALUES (4)', "INSERT INTO pairs (a, b) VALUES ('z', 2)");
      assert.deepEqual(
        (await l.until(1)).map((n) => n.payload),
        ['{"notify":["update",["z",2]]}'],
      );
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(l.notes, [], 'nothing after UNLISTEN');
    } finally {
      await l.c.end();
      await w.end();
    }
  });

  it('LISTEN on an unknown table is 42P01 and the session goes on; NOTIFY bad input is 42601', async () => {
    const c = pgClient(port);
    await c.connect();
    try {
      await assert.rejects(
        c.query('LISTEN patina_updates_nosuch'),
        (e: { code: string; message: string }) =>
          e.code === '42P01' && /relation "nosuch" does not exist/.test(e.message),
      );
      await assert.rejects(c.query('NOTIFY'), (e: { code: string }) => e.code === '42601');
      await assert.rejects(c.query('NOTIFY ch, 42'), (e: { code: string }) => e.code === '42601');
      assert.deepEqual((await c.query({ text: 'SELECT 1', rowMode: 'array' })).rows, [[1]]);
    } finally {
      await c.end();
    }
  });

  it('NOTIFY channel, payload reaches every listener on the agent, at commit inside a block', async () => {
    const a = await listener(port);
    const b = await listener(port);
    try {
      await a.c.query('LISTEN jobs');
      await b.c.query('LISTEN "Jobs"');
      await b.c.query(`NOTIFY jobs, 'it''s ready'`);
      const got = await a.until(1);
      assert.deepEqual(
        got.map((n) => [n.channel, n.payload]),
        [['jobs', "it's ready"]],
      );
      assert.ok(got[0].processId > 0, "the sender's process id");
      await b.c.query('BEGIN');
      await b.c.query(`NOTIFY jobs, 'later'`);
      await b.c.query('INSERT INTO users (id) VALUES (900)'); // a block that writes commits as a group-commit unit
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(a.notes, [], 'not before the commit');
      await b.c.query('COMMIT');
      assert.deepEqual(
        (await a.until(1)).map((n) => n.payload),
        ['later'],
      );
      await b.c.query('BEGIN');
      await b.c.query(`NOTIFY jobs, 'never'`);
      await b.c.query('ROLLBACK');
      // pg_notify() with literals or parameters, as application code calls it
      await b.c.query(`SELECT pg_notify('jobs', 'by function')`);
      const r = await b.c.query('SELECT pg_notify($1, $2)', ['jobs', 'by parameter']);
      assert.deepEqual(
        r.fields.map((f) => f.name),
        ['pg_notify'],
      );
      assert.deepEqual(
        (await a.until(2)).map((n) => n.payload),
        ['by function', 'by parameter'],
      );
      await assert.rejects(
        b.c.query('SELECT pg_notify($1, $2)', ['', 'x']),
        (e: { code: string }) => e.code === '22023',
      );
      await a.c.query(`NOTIFY "Jobs"`); // the quoted name is another channel
      assert.deepEqual(
        (await b.until(1)).map((n) => [n.channel, n.payload]),
        [['Jobs', '']],
      );
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(a.notes, [], 'a rolled-back NOTIFY is not sent');
    } finally {
      await a.c.end();
      await b.c.end();
    }
  });

  it("one transaction signals a channel and payload once; a NULL payload is empty; pg_listening_channels lists a session's channels", async () => {
    const a = await listener(port);
    const b = await listener(port);
    try {
      await a.c.query('LISTEN dedup');
      await a.c.query('LISTEN "Other Ch"');
      await b.c.query('BEGIN');
      for (const p of ['same', 'same', 'else', 'same']) await b.c.query(`NOTIFY dedup, '${p}'`);
      await b.c.query('COMMIT');
      // outside a block each NOTIFY is its own transaction: both come
      await b.c.query(`NOTIFY dedup, 'twice'`);
      await b.c.query(`NOTIFY dedup, 'twice'`);
      await b.c.query(`SELECT pg_notify('dedup', NULL)`); // (it was 42883)
      assert.deepEqual(
        (await a.until(5)).map((n) => n.payload),
        ['same', 'else', 'twice', 'twice', ''],
      );
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(a.notes, [], 'the repeats in the block were collapsed');
      assert.deepEqual((await a.c.query('SELECT * FROM pg_listening_channels() ORDER BY 1')).rows, [
        { pg_listening_channels: 'Other Ch' },
        { pg_listening_channels: 'dedup' },
      ]);
      assert.deepEqual((await b.c.query('SELECT * FROM pg_listening_channels()')).rows, []);
      // in a select list too, as psql users write it (it was 42883), and beside other items
      assert.deepEqual((await a.c.query('SELECT pg_listening_channels() ORDER BY 1')).rows, [
        { pg_listening_channels: 'Other Ch' },
        { pg_listening_channels: 'dedup' },
      ]);
      assert.deepEqual((await a.c.query('SELECT 1 AS k, pg_listening_channels() AS ch ORDER BY 2')).rows, [
        { k: 1, ch: 'Other Ch' },
        { k: 1, ch: 'dedup' },
      ]);
      await a.c.query('UNLISTEN *');
      assert.deepEqual((await a.c.query('SELECT * FROM pg_listening_channels()')).rows, []);
    } finally {
      await a.c.end();
      await b.c.end();
    }
  });

  it('psycopg2 sees table notifications in conn.notifies, and psql prints them', () => {
    const py = `
import json, select, time, urllib.request
import psycopg2
conn = psycopg2.connect(host='127.0.0.1', port=${port}, user='tester', dbname='db')
conn.autocommit = True
conn.cursor().execute('LISTEN patina_updates_users')
req = urllib.request.Request('${agent.http}/v1/transactions', data=json.dumps(["INSERT INTO users (id, name) VALUES (70, 'py')"]).encode(), headers={'content-type': 'application/json'})
urllib.request.urlopen(req).read()
deadline = time.time() + 10
while not conn.notifies and time.time() < deadline:
    select.select([conn], [], [], 1)
    conn.poll()
n = conn.notifies.pop(0)
print(n.channel, n.payload)
`;
    const p = spawnSync(PYTHON, ['-c', py], { encoding: 'utf8', timeout: 30000 });
    assert.equal(p.status, 0, p.stderr);
    assert.equal(p.stdout, 'patina_updates_users {"notify":["update",[70]]}\n');
    const r = psql(port, ['LISTEN patina_updates_users', `DELETE FROM users WHERE id = 70`, 'SELECT 1']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /Asynchronous notification "patina_updates_users" with payload "\{"notify":\["delete",\[70\]\]\}" received/,
    );
  });
});

describe('LISTEN on a table hears writes replicated from another agent', function () {
  this.timeout(90000);
  let cluster: TestCluster;
  before(async () => {
    cluster = await TestCluster.start(2, { schema: SCHEMA, args: () => ['--pg-addr', '127.0.0.1:0'] });
  });
  after(async () => cluster?.dispose());

  it('a write on agent A notifies a PG listener on agent B', async () => {
    const [a, b] = cluster.nodes;
    const l = await listener(b.agent.pg!.port);
    try {
      await l.c.query('LISTEN patina_updates_users');
      await httpWrite(a.http, "INSERT INTO users (id, name) VALUES (500, 'from A')");
      assert.deepEqual(
        (await l.until(1)).map((n) => [n.channel, n.payload]),
        [['patina_updates_users', '{"notify":["update",[500]]}']],
      );
    } finally {
      await l.c.end();
    }
  });
});
