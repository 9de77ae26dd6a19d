import assert from 'node:assert/strict';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { type HttpResult, postJson, request } from '../helpers/http';
import { type PgClient, pgClient, pgListeners } from '../helpers/pg';
import { TestCluster, converged, rows } from '../helpers/cluster';

const SCHEMA = `
CREATE TABLE todos (id INTEGER NOT NULL PRIMARY KEY, title TEXT NOT NULL DEFAULT '');
CREATE TABLE tagged (k TEXT NOT NULL PRIMARY KEY, v TEXT);
CREATE TABLE auto (id BIGINT NOT NULL PRIMARY KEY DEFAULT (patina_id()), title TEXT);
CREATE TABLE src (n INTEGER NOT NULL PRIMARY KEY, title TEXT);
`;

const KEY_RULE = /the key must be chosen by the writer/;

function write(agent: AgentProcess, statements: unknown[]): Promise<HttpResult> {
  return postJson(agent.http, '/v1/transactions', statements);
}

function refusal(res: HttpResult): string {
  assert.equal(res.status, 400, res.text);
  const err = (res.json as { results: { error?: string }[] }).results.find((r) => r.error)?.error;
  assert.ok(err, res.text);
  return err;
}

async function count(agent: AgentProcess, table: string): Promise<number> {
  const r = await rows(agent.http, `SELECT count(*) FROM ${table}`);
  return Number(r[0][0]);
}

describe('keys no other agent can pick (the key rule)', () => {
  let agent: AgentProcess;
  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    const r = await write(agent, ["INSERT INTO src (n, title) VALUES (1, 'a'), (2, 'b')"]);
    assert.equal(r.status, 200, r.text);
  });
  after(async () => agent.dispose());

  const refused: [string, string][] = [
    ['a missing INTEGER PRIMARY KEY', "INSERT INTO todos (title) VALUES ('x')"],
    ['an explicit NULL key', "INSERT INTO todos (id, title) VALUES (NULL, 'x')"],
    ['INSERT ... SELECT without the key', 'INSERT INTO todos (title) SELECT title FROM src'],
    [
      'an upsert without the key',
      "INSERT INTO todos (title) VALUES ('x') ON CONFLICT (id) DO UPDATE SET title = excluded.title",
    ],
    ['INSERT OR REPLACE without the key', "INSERT OR REPLACE INTO todos (title) VALUES ('x')"],
    ['DEFAULT VALUES', 'INSERT INTO todos DEFAULT VALUES'],
  ];
  for (const [what, sql] of refused) {
    it(`refuses ${what} over HTTP, naming the table and column, and writes nothing`, async () => {
      const before = await count(agent, 'todos');
      const err = refusal(await write(agent, [sql]));
      assert.match(err, KEY_RULE);
      assert.match(err, /^statement 1: table todos: primary key column id was not given a value/);
      assert.match(err, /patina_id\(\)/);
      assert.equal(await count(agent, 'todos'), before);
    });
  }

  it('other key columns are NOT NULL (the schema requires it), so a missing or NULL text key is refused by SQLite', async () => {
    for (const sql of ["INSERT INTO tagged (k, v) VALUES (NULL, 'x')", "INSERT INTO tagged (v) VALUES ('x')"]) {
      assert.match(refusal(await write(agent, [sql])), /NOT NULL constraint failed: tagged\.k/);
    }
    assert.equal(await count(agent, 'tagged'), 0);
  });

  it('rolls back the whole transaction when one statement relies on SQLite for a key', async () => {
    const res = await write(agent, [
      "INSERT INTO todos (id, title) VALUES (100, 'first')",
      "INSERT INTO todos (title) VALUES ('second')",
    ]);
    assert.match(refusal(res), /^statement 2: table todos/);
    assert.deepEqual(await rows(agent.http, 'SELECT id FROM todos WHERE id = 100'), []);
  });

  it('accepts keys the writer chose, -1 included, and patina_id() in VALUES, INSERT ... SELECT and a DEFAULT', async () => {
    const r = await write(agent, [
      "INSERT INTO todos (id, title) VALUES (-1, 'minus one')",
      "INSERT INTO todos (id, title) VALUES (patina_id(), 'made here')",
      'INSERT INTO todos (id, title) SELECT patina_id(), title FROM src',
      "INSERT INTO auto (title) VALUES ('by default'), ('twice')",
      "INSERT INTO tagged (k, v) VALUES ('k1', 'text key')",
    ]);
    assert.equal(r.status, 200, r.text);
    const ids = (await rows(agent.http, 'SELECT id FROM todos WHERE id <> -1 UNION ALL SELECT id FROM auto')).map((x) =>
      BigInt(x[0] as number | bigint),
    );
    assert.equal(ids.length, 5);
    assert.equal(new Set(ids.map(String)).size, 5, 'every patina_id() differs');
    const tag = ids[0] >> 40n;
    for (const id of ids) {
      assert.ok(id > 0n && id < 1n << 63n, `${id} is a positive 63-bit integer`);
      assert.equal(id >> 40n, tag, 'the same agent tag above a 40-bit counter');
    }
    assert.deepEqual(await rows(agent.http, 'SELECT title FROM todos WHERE id = -1'), [['minus one']]);
  });

  it('gives the new key back over HTTP with RETURNING, exact as a 64-bit integer', async () => {
    const r = await write(agent, [
      "INSERT INTO todos (id, title) VALUES (patina_id(), 'returned') RETURNING id, title",
    ]);
    assert.equal(r.status, 200, r.text);
    const res = (r.json as { results: { columns: string[]; rows: [bigint | number, string][] }[] }).results[0];
    assert.deepEqual(res.columns, ['id', 'title']);
    // Ids are above 2^53 unless the tag is under 2^13; either way the digits are exact.
    assert.ok(typeof res.rows[0][0] === 'bigint' || Number.isSafeInteger(res.rows[0][0]), String(res.rows[0][0]));
    assert.deepEqual(await rows(agent.http, `SELECT title FROM todos WHERE id = ${res.rows[0][0]}`), [['returned']]);
  });

  it('patina_id() in a read is refused with a sentence saying where it works', async () => {
    const r = await postJson(agent.http, '/v1/queries', 'SELECT patina_id()');
    assert.equal(r.status, 400, r.text);
    assert.match((r.json as { error: string }).error, /patina_id\(\) makes a key only in a write/);
  });

  it('keeps handing out new ids after a restart (the high-water mark is stored with the data)', async () => {
    await write(agent, ["INSERT INTO auto (title) VALUES ('before restart')"]);
    const before = (await rows(agent.http, 'SELECT max(id) FROM auto'))[0][0] as bigint;
    await agent.kill();
    await agent.start();
    const r = await write(agent, ["INSERT INTO auto (title) VALUES ('after restart')"]);
    assert.equal(r.status, 200, r.text);
    const after = (await rows(agent.http, "SELECT id FROM auto WHERE title = 'after restart'"))[0][0] as bigint;
    assert.ok(BigInt(after) > BigInt(before), `${after} > ${before}`);
  });

  describe('over the PostgreSQL port', () => {
    let pg: PgClient;
    before(async () => {
      pg = pgClient(pgListeners(agent)[0].port);
      await pg.connect();
    });
    after(async () => pg.end());

    it('refuses a NULL or missing key with SQLSTATE 23502 and the same sentence; the session goes on', async () => {
      for (const sql of ['INSERT INTO todos (id, title) VALUES (NULL, $1)', 'INSERT INTO todos (title) VALUES ($1)']) {
        await assert.rejects(pg.query(sql, ['pg']), (err: { code?: string; message: string }) => {
          assert.equal(err.code, '23502');
          assert.match(err.message, KEY_RULE);
          return true;
        });
      }
      const r = await pg.query('INSERT INTO todos (id, title) VALUES (patina_id(), $1) RETURNING id', ['pg']);
      assert.equal(r.rows.length, 1);
      assert.ok(BigInt(r.rows[0].id as string) > 0n);
    });

    it('refuses it inside a transaction block, which then rolls back as a whole', async () => {
      await pg.query('BEGIN');
      await pg.query("INSERT INTO todos (id, title) VALUES (7000, 'in block')");
      await assert.rejects(pg.query("INSERT INTO todos (title) VALUES ('no key')"), /the key must be chosen/);
      await pg.query('ROLLBACK');
      assert.deepEqual((await pg.query('SELECT id FROM todos WHERE id = 7000')).rows, []);
    });
  });
});

describe('two agents writing new rows at once', function () {
  this.timeout(120_000);
  let cluster: TestCluster;
  before(async () => {
    cluster = await TestCluster.start(2, { schema: SCHEMA });
  });
  after(async () => cluster?.dispose());

  it('refuses both writes that leave the key to SQLite, and keeps both rows keyed by patina_id() everywhere', async () => {
    const [a, b] = cluster.nodes;
    const post = (n: typeof a, sql: string) => request(n.http, 'POST', '/v1/transactions', JSON.stringify([sql]));
    const auto = await Promise.all([
      post(a, "INSERT INTO todos (title) VALUES ('from A')"),
      post(b, "INSERT INTO todos (title) VALUES ('from B')"),
    ]);
    for (const r of auto) assert.equal(r.status, 400, r.text);
    const keyed = await Promise.all([
      post(a, "INSERT INTO todos (id, title) VALUES (patina_id(), 'from A')"),
      post(b, "INSERT INTO todos (id, title) VALUES (patina_id(), 'from B')"),
      post(a, "INSERT INTO auto (title) VALUES ('default A')"),
      post(b, "INSERT INTO auto (title) VALUES ('default B')"),
    ]);
    for (const r of keyed) assert.equal(r.status, 200, r.text);
    await converged(cluster.nodes, ['todos', 'auto']);
    for (const n of cluster.nodes) {
      assert.deepEqual(await rows(n.http, 'SELECT title FROM todos ORDER BY title'), [['from A'], ['from B']]);
      assert.deepEqual(await rows(n.http, 'SELECT title FROM auto ORDER BY title'), [['default A'], ['default B']]);
      const h = (await request(n.http, 'GET', '/v1/health')).json as {
        patina_id: { tag: number; shared_with: string[] };
      };
      assert.equal(typeof h.patina_id.tag, 'number');
      assert.deepEqual(h.patina_id.shared_with, []);
    }
  });
});
