// Real PostgreSQL clients against a real agent: psql (with its backslash commands), pgbench,
// node-postgres, postgres.js, psycopg2 with SQLAlchemy reflection, and psqlODBC through isql.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { BI_CATALOG_QUERIES } from '../fixtures/bi-catalog-queries';
import { pgClient, psql } from '../helpers/pg';

const SCHEMA = `
CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', email TEXT);
CREATE TABLE todos (
  id INTEGER NOT NULL PRIMARY KEY, user_id INTEGER, title TEXT NOT NULL DEFAULT '', done BOOLEAN NOT NULL DEFAULT false, created_at TIMESTAMP
);
CREATE INDEX todos_user ON todos (user_id);
CREATE TABLE pgbench_accounts (aid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, abalance INTEGER, filler TEXT);
`;

/** Debian's python3, which has psycopg2 and SQLAlchemy (the first python3 on PATH may not). */
const PYTHON = '/usr/bin/python3';

describe('PostgreSQL clients', function () {
  this.timeout(60000);
  let agent: AgentProcess;
  let port: number;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    port = agent.pg!.port;
    const r = psql(port, [
      `INSERT INTO users (id, name, email) VALUES (1, 'ann', 'ann@example.com'), (2, 'bob', NULL)`,
      `INSERT INTO todos (id, user_id, title, done) VALUES (1, 1, 'write tests', true), (2, 1, 'ship', false)`,
      `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000) INSERT INTO pgbench_accounts SELECT x, 1, x * 10, '' FROM n`,
    ]);
    assert.equal(r.status, 0, r.stderr);
  });
  after(() => agent.dispose());

  describe('psql', () => {
    const run = (cmds: string[], extra: string[] = []) => {
      const r = psql(port, cmds, extra);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, '');
      return r.stdout;
    };

    it('runs queries, writes and transactions', () => {
      assert.equal(run(['SELECT id, name FROM users WHERE id <= 2 ORDER BY id'], ['-A', '-t']), '1|ann\n2|bob\n');
      assert.equal(
        run([`INSERT INTO users (id, name) VALUES (3, 'cy') RETURNING id`], ['-A', '-t']),
        '3\nINSERT 0 1\n',
      );
      assert.equal(
        run(['BEGIN', `UPDATE users SET name = 'cyd' WHERE id = 3`, 'COMMIT'], ['-A', '-t']),
        'BEGIN\nUPDATE 1\nCOMMIT\n',
      );
      assert.equal(
        run([`SELECT name FROM users WHERE name ILIKE 'CY%' AND id = ANY(ARRAY[3, 4])`], ['-A', '-t']),
        'cyd\n',
      );
      assert.equal(
        run(
          [
            `SELECT '5'::int + 1, E'a\\tb', true, version() LIKE 'PostgreSQL %', current_schema(), current_database(), current_user`,
          ],
          ['-A', '-t'],
        ),
        '6|a\tb|t|t|public|db|tester\n',
      );
      assert.equal(
        run(['SHOW server_version', 'SET search_path TO public', 'SHOW search_path'], ['-A', '-t']),
        '15.0\nSET\npublic\n',
      );
    });

    it('lists tables with \\dt and indexes with \\di', () => {
      assert.equal(
        run(['\\dt'], ['-A']),
        'List of relations\nSchema|Name|Type|Owner\npublic|pgbench_accounts|table|tester\npublic|todos|table|tester\npublic|users|table|tester\n(3 rows)\n',
      );
      const di = run(['\\di'], ['-A', '-t']);
      assert.equal(
        di,
        'public|pgbench_accounts_pkey|index|tester|pgbench_accounts\npublic|todos_pkey|index|tester|todos\npublic|todos_user|index|tester|todos\npublic|users_pkey|index|tester|users\n',
      );
    });

    it('describes a table with \\d and \\d+: columns, types, nullability, defaults, keys and indexes', () => {
      const d = run(['\\d todos'], ['-A']);
      assert.equal(
        d,
        [
          'Table "public.todos"',
          'Column|Type|Collation|Nullable|Default',
          'id|bigint||not null|',
          'user_id|bigint|||',
          "title|text||not null|''::text",
          'done|boolean||not null|false',
          'created_at|timestamp without time zone|||',
          'Indexes:',
          '    "todos_pkey" PRIMARY KEY, btree (id)',
          '    "todos_user" btree (user_id)',
          '',
        ].join('\n'),
      );
      const dplus = run(['\\d+ users'], ['-A']);
      assert.match(
        dplus,
        /^Table "public\.users"\nColumn\|Type\|Collation\|Nullable\|Default\|Storage\|Compression\|Stats target\|Description\nid\|bigint\|\|not null\|\|plain\|\|\|\n/,
      );
      assert.match(dplus, /"users_pkey" PRIMARY KEY, btree \(id\)/);
    });

    it('lists schemas with \\dn and databases with \\l, and shows \\conninfo', () => {
      assert.equal(run(['\\dn'], ['-A', '-t']), 'public|pg_database_owner\n');
      assert.match(run(['\\l'], ['-A', '-t']), /^db\|tester\|UTF8\|/);
      assert.match(
        run(['\\conninfo']),
        /You are connected to database "db" as user "tester" on host "127\.0\.0\.1" at port "\d+"/,
      );
    });

    it('reports errors with their SQLSTATE', () => {
      const r = psql(port, ['SELECT * FROM nope'], ['-v', 'VERBOSITY=verbose']);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /ERROR: {2}42P01: relation "nope" does not exist/); // PostgreSQL's words, not SQLite's
      // (SQLite said `no such table: nope`, `no such column: nosuch`, `table items has no column named nosuch`)
      for (const [sql, words] of [
        ['SELECT nosuch FROM users', 'ERROR:  42703: column "nosuch" does not exist'],
        ['SELECT u.nosuch FROM users u', 'ERROR:  42703: column u.nosuch does not exist'],
        [
          'INSERT INTO users (id, nosuch) VALUES (1, 2)',
          'ERROR:  42703: column "nosuch" of relation "users" does not exist',
        ],
      ]) {
        const e = psql(port, [sql], ['-v', 'VERBOSITY=verbose']);
        assert.equal(e.status, 1, sql);
        assert.ok(e.stderr.includes(words), `${sql}: ${e.stderr}`);
      }
      // the error's position, which psql shows under the statement (a string literal holding the
      // name is passed over, as PostgreSQL's parser does)
      const e = psql(port, ["SELECT 'nosuch', nosuch FROM users"]);
      assert.equal(
        e.stderr.split('\n').slice(1, 3).join('\n'),
        "LINE 1: SELECT 'nosuch', nosuch FROM users\n                         ^",
      );
    });
  });

  it('pgbench runs a select-only script in simple, extended and prepared modes', () => {
    const script = path.join(agent.dir, 'select.sql');
    fs.writeFileSync(script, '\\set aid random(1, 1000)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n');
    for (const mode of ['simple', 'extended', 'prepared']) {
      const r = spawnSync(
        'pgbench',
        [
          '-n',
          '-f',
          script,
          '-t',
          '100',
          '-c',
          '2',
          '-j',
          '1',
          '-M',
          mode,
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
          '-U',
          'tester',
          'db',
        ],
        { encoding: 'utf8', timeout: 30000 },
      );
      assert.equal(r.status, 0, r.stderr + r.stdout);
      assert.match(r.stdout, /number of transactions actually processed: 200\/200/);
      assert.match(r.stdout, /number of failed transactions: 0/);
    }
  });

  it('node-postgres: parameters, types, RETURNING, errors and transactions', async () => {
    const c = pgClient(port);
    await c.connect();
    const r = await c.query('SELECT id, title, done, created_at FROM todos WHERE user_id = $1 AND done = $2', [
      1,
      true,
    ]);
    assert.deepEqual(r.rows, [{ id: '1', title: 'write tests', done: true, created_at: null }]);
    assert.deepEqual(
      r.fields.map((f) => f.dataTypeID),
      [20, 25, 16, 1114],
    );
    assert.deepEqual((await c.query('SELECT $2::text AS b, $1 AS a, $2 AS c', [5, 'x'])).rows, [
      { b: 'x', a: '5', c: 'x' },
    ]);
    const ins = await c.query('INSERT INTO todos (id, user_id, title) VALUES ($1, $2, $3) RETURNING id, title', [
      10,
      2,
      'héllo ✓ 日本',
    ]);
    assert.deepEqual(ins.rows, [{ id: '10', title: 'héllo ✓ 日本' }]);
    assert.equal((await c.query('UPDATE todos SET done = $1 WHERE id = $2', [true, 10])).rowCount, 1);
    await assert.rejects(
      c.query('INSERT INTO todos (id) VALUES ($1)', [10]),
      (e: { code: string }) => e.code === '23505',
    );
    await c.query('BEGIN');
    await c.query('DELETE FROM todos WHERE id = $1', [10]);
    assert.equal((await c.query('SELECT count(*) AS n FROM todos WHERE id = 10')).rows[0].n, '0');
    await c.query('ROLLBACK');
    assert.equal((await c.query('SELECT count(*) AS n FROM todos WHERE id = 10')).rows[0].n, '1');
    await c.end();
  });

  it('node-postgres: expression columns get the names and types PostgreSQL 15 gives them', async () => {
    const c = pgClient(port);
    await c.connect();
    try {
      const r = await c.query({
        text: `SELECT true, false AS f, 1 = 1 AS eq, NOT true, 1, -5, 1.5, 3000000000, 'x'::text, 2::int8, 1.5::float8,
          now()::timestamp IS NOT NULL, 'a'::varchar(3), EXISTS (SELECT 1), $1::bool AS b, $2::bool AS nb`,
        values: ['true', 'off'],
        rowMode: 'array',
      });
      assert.deepEqual(
        r.fields.map((f) => f.name),
        [
          '?column?',
          'f',
          'eq',
          '?column?',
          '?column?',
          '?column?',
          '?column?',
          '?column?',
          'text',
          'int8',
          'float8',
          '?column?',
          'varchar',
          'exists',
          'b',
          'nb',
        ],
      );
      assert.deepEqual(
        r.fields.map((f) => f.dataTypeID),
        [16, 16, 16, 16, 23, 23, 1700, 20, 25, 20, 701, 16, 1043, 16, 16, 16],
      );
      assert.deepEqual(r.rows, [
        [true, false, true, false, 1, -5, '1.5', '3000000000', 'x', '2', 1.5, true, 'a', true, true, false],
      ]);
      const names = await c.query(
        `SELECT CASE WHEN id = 1 THEN 'one' ELSE 'other' END, id::text, todos.title, count(*)::int, upper(title)::text, abs(-1) FROM todos WHERE id = 1 GROUP BY id`,
      );
      assert.deepEqual(
        names.fields.map((f) => f.name),
        ['case', 'id', 'title', 'count', 'upper', 'abs'],
      );
      // format() with %I and %L, and pg_get_keywords(), as PostgreSQL answers them
      const fmt = await c.query(
        `SELECT format('%I.%I', 'public', 'Weird Name') AS a, format('%s=%L, %2$s %%', 'k', 'it''s') AS b FROM information_schema.tables LIMIT 1`,
      );
      assert.deepEqual(fmt.rows, [{ a: 'public."Weird Name"', b: "k='it''s', it's %" }]);
      // bad input: PostgreSQL's SQLSTATEs, and the connection goes on
      await assert.rejects(
        c.query(`SELECT format('%I', NULL) FROM information_schema.tables`),
        (e: { code: string; message: string }) =>
          e.code === '22004' && /null values cannot be formatted as an SQL identifier/.test(e.message),
      );
      await assert.rejects(
        c.query(`SELECT format('%s %s', 'a') FROM information_schema.tables`),
        (e: { code: string; message: string }) =>
          e.code === '22023' && /too few arguments for format\(\)/.test(e.message),
      );
      const kw = await c.query(
        `SELECT string_agg(word, ',') AS words FROM pg_catalog.pg_get_keywords() WHERE catcode = 'R' AND word <> ALL ('{all,and}'::text[])`,
      );
      const words = String(kw.rows[0].words).split(',');
      assert.equal(words.length, 75); // PostgreSQL 15 has 77 reserved words
      assert.ok(
        words.includes('select') && words.includes('where') && !words.includes('all') && !words.includes('and'),
      );
    } finally {
      await c.end();
    }
  });

  it('postgres.js: tagged queries, helpers and transactions', async () => {
    const sql = postgres({
      host: '127.0.0.1',
      port,
      user: 'tester',
      database: 'db',
      max: 2,
      onnotice: () => undefined,
    });
    try {
      assert.deepEqual([...(await sql`SELECT id, name FROM users WHERE id = ${2}`)], [{ id: '2', name: 'bob' }]);
      await sql`INSERT INTO users ${sql({ id: 20, name: 'pj', email: null })}`;
      await sql.begin(async (tx) => {
        await tx`UPDATE users SET email = ${'pj@example.com'} WHERE id = ${20}`;
        assert.equal((await tx`SELECT email FROM users WHERE id = 20`)[0].email, 'pj@example.com');
      });
      await assert.rejects(sql`SELECT nocolumn FROM users`, (e: { code: string }) => e.code === '42703');
      const rows = await sql`SELECT name FROM users WHERE id IN ${sql([1, 2])} ORDER BY id`;
      assert.deepEqual(
        rows.map((r) => r.name),
        ['ann', 'bob'],
      );
    } finally {
      await sql.end();
    }
  });

  it('psycopg2 and SQLAlchemy reflection see tables, columns, keys and indexes', () => {
    const py = `
import json, sqlalchemy as sa, psycopg2
e = sa.create_engine("postgresql+psycopg2://tester@127.0.0.1:${port}/db")
i = sa.inspect(e)
out = {"tables": sorted(i.get_table_names()),
       "columns": [[c["name"], str(c["type"]), c["nullable"], c["default"]] for c in i.get_columns("todos")],
       "pk": i.get_pk_constraint("todos"),
       "indexes": [[x["name"], x["unique"], x["column_names"]] for x in i.get_indexes("todos")]}
with e.begin() as c:
    c.execute(sa.text("INSERT INTO users (id, name) VALUES (:id, :n)"), {"id": 30, "n": "o'neil"})
    out["row"] = list(c.execute(sa.text("SELECT id, name FROM users WHERE id = :x"), {"x": 30}).fetchone())
conn = psycopg2.connect(host="127.0.0.1", port=${port}, user="tester", dbname="db")
cur = conn.cursor()
cur.execute("SELECT %s::bytea, %s", (b"\\x00\\xff", None))
b, n = cur.fetchone()
out["bytea"] = list(bytes(b)); out["null"] = n
try:
    cur.execute("SELECT * FROM nope")
except psycopg2.Error as ex:
    out["code"] = ex.pgcode
print(json.dumps(out))
`;
    const r = spawnSync(PYTHON, ['-c', py], { encoding: 'utf8', timeout: 30000 });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.tables, ['pgbench_accounts', 'todos', 'users']);
    assert.deepEqual(out.columns, [
      ['id', 'BIGINT', false, null],
      ['user_id', 'BIGINT', true, null],
      ['title', 'TEXT', false, "''::text"],
      ['done', 'BOOLEAN', false, 'false'],
      ['created_at', 'TIMESTAMP', true, null],
    ]);
    assert.deepEqual(out.pk, { constrained_columns: ['id'], name: 'todos_pkey' });
    assert.deepEqual(out.indexes, [['todos_user', false, ['user_id']]]);
    assert.deepEqual(out.row, [30, "o'neil"]);
    assert.deepEqual(out.bytea, [0, 255]);
    assert.equal(out.null, null);
    assert.equal(out.code, '42P01');
  });

  it('answers the catalog queries of pgcli, Metabase, DBeaver, Grafana and pgjdbc, naming the real tables and columns', async () => {
    const c = pgClient(port);
    await c.connect();
    const failures: string[] = [];
    try {
      for (const q of BI_CATALOG_QUERIES) {
        for (const mode of ['simple', 'extended'] as const) {
          const label = `${q.client} ${q.what} (${mode})`;
          try {
            const r = await c.query(
              mode === 'simple' ? q.sql : ({ text: q.sql, values: [], queryMode: 'extended' } as unknown as string),
            );
            const cells = new Set(
              r.rows
                .flatMap((row) => Object.values(row))
                .filter((v) => v !== null)
                .map(String),
            );
            const missing = (q.names ?? []).filter((n) => !cells.has(n));
            if (missing.length > 0) failures.push(`${label}: the answer does not name ${missing.join(', ')}`);
          } catch (err) {
            failures.push(`${label}: ${(err as Error).message}`);
          }
        }
      }
    } finally {
      await c.end();
    }
    assert.deepEqual(failures, []);
  });

  it('psqlODBC through unixODBC isql connects and queries', () => {
    const dir = fs.mkdtempSync(path.join(agent.dir, 'odbc-'));
    fs.writeFileSync(
      path.join(dir, 'odbcinst.ini'),
      '[PostgreSQL Unicode]\nDriver=/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so\n',
    );
    fs.writeFileSync(
      path.join(dir, 'odbc.ini'),
      `[patina]\nDriver=PostgreSQL Unicode\nServername=127.0.0.1\nPort=${port}\nDatabase=db\nUsername=tester\n`,
    );
    const r = spawnSync('isql', ['-b', '-d,', '-c', 'patina'], {
      input: 'SELECT id, name FROM users WHERE id <= 2 ORDER BY id\n',
      encoding: 'utf8',
      env: { ...process.env, ODBCSYSINI: dir, ODBCINI: path.join(dir, 'odbc.ini') },
      timeout: 30000,
    });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /id,name\n1,ann\n2,bob\n/);
  });
});
