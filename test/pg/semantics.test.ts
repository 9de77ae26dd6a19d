// PostgreSQL's semantics over the PG port, where SQLite's differ: division by zero, strict casts,
// pg_typeof, TRUNCATE, EXPLAIN, parameters of a simple query, and constraint errors in PostgreSQL's
// words. Each bad input is followed by a statement on the same session, which must go on.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { TestCluster, eventually, rows } from '../helpers/cluster';
import { type PgClient, pgClient, psql } from '../helpers/pg';

const SCHEMA = `
CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', score REAL);
CREATE TABLE todos (id INTEGER NOT NULL PRIMARY KEY, title TEXT NOT NULL DEFAULT '', n INTEGER CHECK (n >= 0));
CREATE TABLE pairs (a TEXT NOT NULL, b INTEGER NOT NULL, PRIMARY KEY (a, b));
CREATE TABLE loose (id INTEGER NOT NULL PRIMARY KEY, v, t TEXT);
`;
const PYTHON = '/usr/bin/python3';

/** The error a query fails with (code, message, detail), or a failed assertion when it succeeds. */
async function failure(
  c: PgClient,
  sql: string,
  params?: unknown[],
): Promise<{ code: string; message: string; detail?: string }> {
  try {
    await c.query(sql, params);
  } catch (err) {
    const e = err as { code: string; message: string; detail?: string };
    return { code: e.code, message: e.message, detail: e.detail };
  }
  assert.fail(`${sql} succeeded`);
}

describe('PostgreSQL semantics over the PG port', function () {
  this.timeout(60000);
  let agent: AgentProcess;
  let port: number;
  let c: PgClient;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    port = agent.pg!.port;
    c = pgClient(port);
    await c.connect();
  });
  after(async () => {
    await c.end();
    await agent.dispose();
  });

  /** The session goes on after an error: a plain query answers. */
  const goesOn = async () => assert.deepEqual((await c.query('SELECT 41 + 1 AS n')).rows, [{ n: 42 }]); // int4, as PostgreSQL types it

  it('answers division and modulo by zero with 22012, in reads and writes', async () => {
    for (const sql of ['SELECT 1/0', 'SELECT 1.0 / 0', 'SELECT 5 % 0', 'SELECT 10 / (3 - 3)', "SELECT 1 / '0'"]) {
      assert.deepEqual(await failure(c, sql), { code: '22012', message: 'division by zero', detail: undefined }, sql);
      await goesOn();
    }
    await c.query(`INSERT INTO users (id, name, score) VALUES (1, 'ann', 0)`);
    assert.equal((await failure(c, 'SELECT id / score FROM users')).code, '22012');
    assert.equal((await failure(c, 'SELECT id FROM users WHERE id / $1 > 0', [0])).code, '22012');
    assert.equal((await failure(c, `UPDATE users SET score = 1 / score WHERE id = 1`)).code, '22012');
    await goesOn();
    // and what does not divide by zero is PostgreSQL's arithmetic
    assert.deepEqual(
      (await c.query({ text: 'SELECT 7/2, 7 % 3, 1/-2, -7/2, 2*3/4, 7.0/2', rowMode: 'array' })).rows[0].map(String),
      ['3', '1', '0', '-3', '1', '3.5000000000000000'],
    );
  });

  it("casts strictly: 'abc'::int is 22P02, out of range 22003; pg_typeof names types", async () => {
    for (const [sql, code, message] of [
      ["SELECT 'abc'::int", '22P02', 'invalid input syntax for type integer: "abc"'],
      ["SELECT '12abc'::int", '22P02', 'invalid input syntax for type integer: "12abc"'],
      ["SELECT CAST('x1' AS bigint)", '22P02', 'invalid input syntax for type bigint: "x1"'],
      ["SELECT '1.5'::integer", '22P02', 'invalid input syntax for type integer: "1.5"'],
      ["SELECT 'pi'::float8", '22P02', 'invalid input syntax for type double precision: "pi"'],
      ["SELECT '99999999999'::int", '22003', 'value "99999999999" is out of range for type integer'],
      ['SELECT 70000::smallint', '22003', 'smallint out of range'],
    ]) {
      assert.deepEqual(await failure(c, sql), { code, message, detail: undefined }, sql);
      await goesOn();
    }
    const r = await c.query({
      text: "SELECT ' 12 '::int, '-3'::bigint, 2.5::int, '3.5'::float8, '1e3'::numeric",
      rowMode: 'array',
    });
    assert.deepEqual(r.rows[0].map(String), ['12', '-3', '3', '3.5', '1000']);
    const t = await c.query({
      text: "SELECT pg_typeof(1), pg_typeof('a'), pg_typeof(1.5), pg_typeof(1::bigint), pg_typeof(true), pg_typeof(id), pg_typeof(name), pg_typeof(users.score), pg_typeof(id * 2) FROM users",
      rowMode: 'array',
    });
    assert.deepEqual(t.rows, [
      ['integer', 'unknown', 'numeric', 'bigint', 'boolean', 'bigint', 'text', 'double precision', 'bigint'],
    ]);
    assert.equal(t.fields[0].name, 'pg_typeof');
  });

  it('casts a column as the type its schema declares: INTEGER as integer, which casts to boolean; BIGINT not', async () => {
    // (Patina keeps INTEGER as int8; PostgreSQL's cast check follows the declared type, int4, as a
    // PostgreSQL table of the same DDL would: the oracle tests' PostgreSQL says bigint for these)
    await c.query(`INSERT INTO todos (id, title, n) VALUES (7, 'x', 2)`);
    const r = await c.query({ text: 'SELECT n::bool, (n - 2)::bool FROM todos WHERE id = 7', rowMode: 'array' });
    assert.deepEqual(r.rows, [[true, false]]);
    assert.deepEqual(await failure(c, 'SELECT n::int8::bool FROM todos'), {
      code: '42846',
      message: 'cannot cast type bigint to boolean',
      detail: undefined,
    });
    await goesOn();
  });

  it('says "there is no parameter $1" (42P02) for a parameter in a simple query', async () => {
    const r = psql(port, ['SELECT $1', 'SELECT 2'], ['-v', 'ON_ERROR_STOP=0', '-v', 'VERBOSITY=verbose', '-A', '-t']);
    assert.match(r.stderr, /ERROR: {2}42P02: there is no parameter \$1/);
    assert.equal(r.stdout, '2\n'); // the session went on
    // with a parameter supplied (extended protocol) it is an ordinary parameter
    assert.deepEqual((await c.query({ text: 'SELECT $1::int + 1', values: ['4'], rowMode: 'array' })).rows, [[5]]);
  });

  it('words constraint errors as PostgreSQL does, with the DETAIL of a duplicate key', async () => {
    assert.deepEqual(await failure(c, `INSERT INTO users (id, name) VALUES (1, 'again')`), {
      code: '23505',
      message: 'duplicate key value violates unique constraint "users_pkey"',
      detail: 'Key (id)=(1) already exists.',
    });
    await goesOn();
    assert.deepEqual(await failure(c, `INSERT INTO users (id, name) VALUES ($1, $2), ($3, $4)`, [7, 'new', 1, 'dup']), {
      code: '23505',
      message: 'duplicate key value violates unique constraint "users_pkey"',
      detail: 'Key (id)=(1) already exists.',
    });
    assert.deepEqual(await failure(c, `INSERT INTO users (id) VALUES (8), (8)`), {
      code: '23505',
      message: 'duplicate key value violates unique constraint "users_pkey"',
      detail: 'Key (id)=(8) already exists.',
    });
    await c.query(`INSERT INTO pairs (a, b) VALUES ('x', 1)`);
    assert.deepEqual(await failure(c, `INSERT INTO pairs VALUES ('x', 1)`), {
      code: '23505',
      message: 'duplicate key value violates unique constraint "pairs_pkey"',
      detail: 'Key (a, b)=(x, 1) already exists.',
    });
    // an UPDATE onto another row's key: the constraint, without the values
    await c.query(`INSERT INTO users (id, name) VALUES (2, 'bob')`);
    assert.deepEqual(await failure(c, `UPDATE users SET id = 1 WHERE id = 2`), {
      code: '23505',
      message: 'duplicate key value violates unique constraint "users_pkey"',
      detail: undefined,
    });
    assert.deepEqual(await failure(c, `INSERT INTO users (id, name) VALUES (3, NULL)`), {
      code: '23502',
      message: 'null value in column "name" of relation "users" violates not-null constraint',
      detail: 'Failing row contains (3, null, null).', // PostgreSQL's DETAIL: the row it would have written
    });
    assert.deepEqual(await failure(c, `INSERT INTO todos (id, n) VALUES (1, -1)`), {
      code: '23514',
      message: 'new row for relation "todos" violates check constraint "todos_n_check"',
      detail: undefined,
    });
    // what each is about, in fields of their own as PostgreSQL sends them (node-postgres' err.table,
    // psycopg's diag.constraint_name; they were absent)
    const about = async (sql: string) => {
      try {
        await c.query(sql);
      } catch (err) {
        const e = err as { schema?: string; table?: string; column?: string; constraint?: string };
        return [e.schema, e.table, e.column, e.constraint];
      }
      assert.fail(`${sql} succeeded`);
    };
    assert.deepEqual(await about(`INSERT INTO users (id, name) VALUES (1, 'again')`), [
      'public',
      'users',
      undefined,
      'users_pkey',
    ]);
    assert.deepEqual(await about(`INSERT INTO users (id, name) VALUES (3, NULL)`), [
      'public',
      'users',
      'name',
      undefined,
    ]);
    assert.deepEqual(await about(`INSERT INTO todos (id, n) VALUES (1, -1)`), [
      'public',
      'todos',
      undefined,
      'todos_n_check',
    ]);
    await goesOn();
    // inside a transaction block: the error fails the block, ROLLBACK ends it, the session goes on
    await c.query('BEGIN');
    await c.query(`INSERT INTO users (id, name) VALUES (20, 'in tx')`);
    assert.deepEqual(
      (await failure(c, `INSERT INTO users (id, name) VALUES (20, 'twice')`)).detail,
      'Key (id)=(20) already exists.',
    );
    await c.query('ROLLBACK');
    assert.deepEqual((await c.query('SELECT count(*) AS n FROM users WHERE id = 20')).rows, [{ n: '0' }]);
  });

  it('shows the errors in psql with their SQLSTATE and DETAIL, and psycopg2 sees the same codes', () => {
    const r = psql(
      port,
      [`INSERT INTO users (id, name) VALUES (1, 'x')`, 'SELECT 1/0', 'SELECT 3'],
      ['-v', 'ON_ERROR_STOP=0', '-v', 'VERBOSITY=verbose', '-A', '-t'],
    );
    assert.match(
      r.stderr,
      /ERROR: {2}23505: duplicate key value violates unique constraint "users_pkey"\nDETAIL: {2}Key \(id\)=\(1\) already exists\./,
    );
    assert.match(r.stderr, /ERROR: {2}22012: division by zero/);
    assert.equal(r.stdout, '3\n');
    const py = `
import psycopg2
c = psycopg2.connect(host='127.0.0.1', port=${port}, user='tester', dbname='db')
c.autocommit = True
cur = c.cursor()
for sql in ["SELECT 1/0", "SELECT 'abc'::int", "INSERT INTO users (id, name) VALUES (1, 'x')", "SELECT pg_typeof(2)"]:
    try:
        cur.execute(sql)
        print('ok', cur.fetchone()[0])
    except psycopg2.Error as e:
        print(e.pgcode, e.diag.message_primary, e.diag.message_detail)
`;
    const p = spawnSync(PYTHON, ['-c', py], { encoding: 'utf8', timeout: 30000 });
    assert.equal(p.status, 0, p.stderr);
    assert.equal(
      p.stdout,
      [
        '22012 division by zero None',
        '22P02 invalid input syntax for type integer: "abc" None',
        '23505 duplicate key value violates unique constraint "users_pkey" Key (id)=(1) already exists.',
        'ok integer',
        '',
      ].join('\n'),
    );
  });

  it("a column declared with no type holds what SQLite stores: its arithmetic and comparisons with numbers run, where a TEXT column's are PostgreSQL's 42883", async () => {
    await c.query("INSERT INTO loose (id, v, t) VALUES (1, 5, 'x'), (2, 'a', 'y')");
    assert.deepEqual(
      (await c.query({ text: 'SELECT v + 1, v * 2, v = 5 FROM loose ORDER BY id', rowMode: 'array' })).rows,
      [
        ['6', '10', true],
        ['1', '0', false],
      ],
    );
    assert.deepEqual((await c.query('SELECT t FROM loose WHERE v = 5')).rows, [{ t: 'x' }]);
    const e = await failure(c, 'SELECT t + 1 FROM loose');
    assert.equal(`${e.code} ${e.message}`, '42883 operator does not exist: text + integer');
    await goesOn();
  });

  it('TRUNCATE deletes every row of each table named, in one transaction', async () => {
    await c.query(`INSERT INTO todos (id, title) VALUES (1, 'a'), (2, 'b')`);
    const r = psql(
      port,
      [
        'TRUNCATE TABLE ONLY todos, public.pairs RESTART IDENTITY',
        'SELECT count(*) FROM todos',
        'SELECT count(*) FROM pairs',
      ],
      ['-A', '-t'],
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'TRUNCATE TABLE\n0\n0\n');
    assert.deepEqual(await failure(c, 'TRUNCATE users, nosuch'), {
      code: '42P01',
      message: 'relation "nosuch" does not exist',
      detail: undefined,
    });
    assert.ok(
      Number((await c.query('SELECT count(*) AS n FROM users')).rows[0].n) > 0,
      'a failed TRUNCATE deletes nothing',
    );
    assert.equal((await failure(c, 'TRUNCATE users CASCADE')).code, '0A000');
    // inside a block it rolls back with the block
    await c.query('BEGIN');
    await c.query('TRUNCATE users');
    assert.deepEqual((await c.query('SELECT count(*) AS n FROM users')).rows, [{ n: '0' }]);
    await c.query('ROLLBACK');
    assert.ok(Number((await c.query('SELECT count(*) AS n FROM users')).rows[0].n) > 0);
    await goesOn();
  });

  it('EXPLAIN answers the query plan as text rows; EXPLAIN ANALYZE runs the statement too', async () => {
    const plan = async (sql: string, params?: unknown[]) =>
      (await c.query({ text: sql, values: params, rowMode: 'array' })).rows.map((r) => r[0] as string);
    const point = await c.query('EXPLAIN SELECT name FROM users WHERE id = 1');
    assert.equal(point.fields[0].name, 'QUERY PLAN');
    assert.deepEqual(
      point.rows.map((r) => r['QUERY PLAN']),
      ['SEARCH users USING INTEGER PRIMARY KEY (rowid=?)'],
    );
    assert.deepEqual(await plan('EXPLAIN SELECT name FROM users WHERE id = $1', [1]), [
      'SEARCH users USING INTEGER PRIMARY KEY (rowid=?)',
    ]);
    assert.deepEqual(await plan('EXPLAIN VERBOSE SELECT * FROM users ORDER BY name'), [
      'SCAN users',
      'USE TEMP B-TREE FOR ORDER BY',
    ]);
    assert.deepEqual(await plan(`EXPLAIN UPDATE users SET name = 'x' WHERE id = 1`), [
      'Update on users',
      '  ->  SEARCH users USING INTEGER PRIMARY KEY (rowid=?)',
    ]);
    assert.deepEqual(await plan(`EXPLAIN INSERT INTO users (id) VALUES (99)`), ['Insert on users', '  ->  Result']);
    assert.deepEqual(
      (await c.query('SELECT count(*) AS n FROM users WHERE id = 99')).rows,
      [{ n: '0' }],
      'EXPLAIN alone does not write',
    );
    const analyzed = await plan('EXPLAIN ANALYZE SELECT * FROM users');
    assert.match(analyzed[0], /^SCAN users \(actual rows=\d+ loops=1\)$/);
    assert.match(analyzed[analyzed.length - 1], /^Execution Time: \d+\.\d{3} ms$/);
    const wrote = await plan(`EXPLAIN (ANALYZE, FORMAT TEXT) INSERT INTO users (id) VALUES (99)`);
    assert.equal(wrote[0], 'Insert on users (actual rows=1 loops=1)');
    assert.deepEqual((await c.query('SELECT count(*) AS n FROM users WHERE id = 99')).rows, [{ n: '1' }]);
    assert.equal((await failure(c, 'EXPLAIN (FORMAT JSON) SELECT 1')).code, '0A000');
    assert.equal((await failure(c, 'EXPLAIN SELECT * FROM nosuch')).code, '42P01');
    const r = psql(port, ['EXPLAIN SELECT * FROM users WHERE id = 1'], ['-A']);
    assert.equal(r.stdout, 'QUERY PLAN\nSEARCH users USING INTEGER PRIMARY KEY (rowid=?)\n(1 row)\n');
    await goesOn();
  });
});

describe('TRUNCATE over PG replicates like any delete', function () {
  this.timeout(90000);
  let cluster: TestCluster;
  before(async () => {
    cluster = await TestCluster.start(2, { schema: SCHEMA, args: () => ['--pg-addr', '127.0.0.1:0'] });
  });
  after(async () => cluster?.dispose());

  it('a TRUNCATE on one agent empties the table on the other', async () => {
    const [a, b] = cluster.nodes;
    const ca = pgClient(a.agent.pg!.port);
    await ca.connect();
    try {
      await ca.query(`INSERT INTO users (id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
      await eventually(
        'rows reached B',
        20000,
        async () => (await rows(b.http, 'SELECT count(*) FROM users'))[0][0] === 3,
      );
      await ca.query('TRUNCATE users');
      await eventually(
        'the truncate reached B',
        20000,
        async () => (await rows(b.http, 'SELECT count(*) FROM users'))[0][0] === 0,
      );
    } finally {
      await ca.end();
    }
  });
});
