import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentProcess } from '../helpers/agent';
import { runCli } from '../helpers/cli';
import { postJson, request } from '../helpers/http';

/** Starts an agent expected to refuse its schema; returns its exit code and output. */
async function refusedStart(schema: string): Promise<{ code: number | null; output: string; file: string }> {
  const a = new AgentProcess({ schema });
  try {
    await a.start();
    assert.fail(`the agent started with a schema it should refuse:\n${schema}`);
  } catch (err) {
    if (err instanceof assert.AssertionError) throw err;
  } finally {
    await a.dispose();
  }
  return { code: a.proc.exitCode, output: a.output, file: path.join(a.dir, 'schema.sql') };
}

async function rows(agent: AgentProcess, sql: string): Promise<unknown[][]> {
  const r = await postJson(agent.http, '/v1/queries', sql);
  assert.equal(r.status, 200, r.text);
  return (r.lines.slice(1, -1) as { row: [number, unknown[]] }[]).map((e) => e.row[1]);
}

async function indexes(agent: AgentProcess): Promise<string[]> {
  return (
    await rows(
      agent,
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND name NOT LIKE '\\_\\_patina%' ESCAPE '\\' ORDER BY name",
    )
  ).map((r) => r[0] as string);
}

async function columns(agent: AgentProcess, table: string): Promise<string[]> {
  // pragmas are refused through the API; the column names line of a query shows the columns
  const r = await postJson(agent.http, '/v1/queries', `SELECT * FROM "${table}" LIMIT 0`);
  assert.equal(r.status, 200, r.text);
  return (r.lines[0] as { columns: string[] }).columns;
}

describe('schema files', () => {
  describe('validation stops start-up with an error naming file, table and rule', () => {
    const cases: { rule: string; schema: string; table: string | null; line: number; message: RegExp }[] = [
      {
        rule: 'no primary key',
        schema: 'CREATE TABLE a (x INTEGER NOT NULL DEFAULT 0, y TEXT);',
        table: 'a',
        line: 1,
        message: /PRIMARY KEY/,
      },
      {
        rule: 'nullable primary key column',
        schema: '\n\nCREATE TABLE b (x TEXT PRIMARY KEY, y TEXT);',
        table: 'b',
        line: 3,
        message: /primary key column "x".*NOT NULL/,
      },
      {
        rule: 'nullable INTEGER PRIMARY KEY',
        schema: 'CREATE TABLE b2 (x INTEGER PRIMARY KEY);',
        table: 'b2',
        line: 1,
        message: /NOT NULL/,
      },
      {
        rule: 'nullable column of a composite key',
        schema: 'CREATE TABLE b3 (x TEXT NOT NULL, y TEXT, PRIMARY KEY (x, y));',
        table: 'b3',
        line: 1,
        message: /"y".*NOT NULL/,
      },
      {
        rule: 'NOT NULL without DEFAULT',
        schema: 'CREATE TABLE c (id INTEGER NOT NULL PRIMARY KEY, y TEXT NOT NULL);',
        table: 'c',
        line: 1,
        message: /"y".*DEFAULT/,
      },
      {
        rule: 'UNIQUE index',
        schema: 'CREATE TABLE d (id INTEGER NOT NULL PRIMARY KEY, y TEXT);\nCREATE UNIQUE INDEX d_y ON d (y);',
        table: 'd',
        line: 2,
        message: /UNIQUE/,
      },
      {
        rule: 'UNIQUE column constraint',
        schema: 'CREATE TABLE e (id INTEGER NOT NULL PRIMARY KEY, y TEXT UNIQUE);',
        table: 'e',
        line: 1,
        message: /UNIQUE/,
      },
      {
        rule: 'UNIQUE table constraint',
        schema: 'CREATE TABLE e2 (id INTEGER NOT NULL PRIMARY KEY, y TEXT, z TEXT, UNIQUE (y, z));',
        table: 'e2',
        line: 1,
        message: /UNIQUE/,
      },
      {
        rule: 'foreign key',
        schema:
          'CREATE TABLE p (id INTEGER NOT NULL PRIMARY KEY);\nCREATE TABLE f (id INTEGER NOT NULL PRIMARY KEY, p INTEGER REFERENCES p (id));',
        table: 'f',
        line: 2,
        message: /foreign key/i,
      },
      {
        rule: 'AUTOINCREMENT',
        schema: 'CREATE TABLE g (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT);',
        table: 'g',
        line: 1,
        message: /AUTOINCREMENT/,
      },
      {
        rule: 'a statement other than CREATE',
        schema: 'CREATE TABLE h (id INTEGER NOT NULL PRIMARY KEY);\nINSERT INTO h VALUES (1);',
        table: null,
        line: 2,
        message: /only CREATE TABLE and CREATE INDEX/,
      },
      {
        rule: 'CREATE VIEW',
        schema: 'CREATE VIEW v AS SELECT 1;',
        table: null,
        line: 1,
        message: /only CREATE TABLE and CREATE INDEX/,
      },
      {
        rule: 'CREATE TRIGGER',
        schema:
          'CREATE TABLE h2 (id INTEGER NOT NULL PRIMARY KEY);\nCREATE TRIGGER tr AFTER INSERT ON h2 BEGIN SELECT 1; END;',
        table: null,
        line: 2,
        message: /only CREATE TABLE and CREATE INDEX/,
      },
      {
        rule: 'bad SQL',
        schema:
          '-- a comment\nCREATE TABLE i (id INTEGER NOT NULL PRIMARY KEY);\n\nCREATE TABLE j (id INTEGER NOT NULL PRIMARY KEY,, y);',
        table: 'j',
        line: 4,
        message: /syntax error/,
      },
      {
        rule: 'a type that is no PostgreSQL type (a missing comma between two columns)',
        schema: 'CREATE TABLE todo (\n  id INTEGER NOT NULL PRIMARY KEY,\n  body TEXT\n  due DATE\n);',
        table: 'todo',
        line: 3,
        message: /column "body": type "TEXT due DATE" is not a type Patina maps to PostgreSQL/,
      },
      {
        rule: 'an array of a type with a size (it was SQLite\'s `near "[]": syntax error`)',
        schema: 'CREATE TABLE arr (\n  id INTEGER NOT NULL PRIMARY KEY,\n  codes CHAR(3)[]\n);',
        table: 'arr',
        line: 1,
        message:
          /"codes CHAR\(3\)\[\]": an array of a type with a size is not supported; declare the array without the size \("codes CHAR\[\]"\)/,
      },
      {
        rule: 'an unknown type name',
        schema: 'CREATE TABLE m (id INTEGER NOT NULL PRIMARY KEY, amount MONEY);',
        table: 'm',
        line: 1,
        message: /column "amount": type "MONEY"/,
      },
      {
        rule: "an index PostgreSQL's GIN method makes (text search's)",
        schema:
          "CREATE TABLE doc (id INTEGER NOT NULL PRIMARY KEY, body TEXT);\nCREATE INDEX doc_fts ON doc USING gin (to_tsvector('english', body));",
        table: 'doc',
        line: 2,
        message: /index "doc_fts" on table "doc": USING gin is not supported: Patina's indexes are SQLite's b-trees/,
      },
      {
        rule: 'reserved name',
        schema: 'CREATE TABLE __patina_x (id INTEGER NOT NULL PRIMARY KEY);',
        table: '__patina_x',
        line: 1,
        message: /reserved/,
      },
    ];
    for (const c of cases) {
      it(`refuses ${c.rule}`, async () => {
        const { code, output, file } = await refusedStart(c.schema);
        assert.notEqual(code, 0, output);
        assert.notEqual(code, null, output);
        assert.ok(output.includes(`${file}:${c.line}`), `names ${file}:${c.line}: ${output}`);
        if (c.table) assert.ok(output.includes(`"${c.table}"`), `names table ${c.table}: ${output}`);
        assert.match(output, c.message);
        assert.ok(
          output.split('\n').filter((l) => l.trim()).length <= 3,
          `a short error, not a stack trace: ${output}`,
        );
      });
    }

    it('refuses a schema path that does not exist', async () => {
      const a = new AgentProcess({ args: ['--schema', '/nonexistent/patina/schema.sql'] });
      await assert.rejects(a.start(), /nonexistent/);
      assert.notEqual(a.proc.exitCode, 0);
      await a.dispose();
    });
  });

  describe('changes between starts and on reload', function () {
    this.timeout(60000);
    let dir: string;
    let schemaFile: string;
    let agent: AgentProcess;
    const write = (sql: string) => fs.writeFileSync(schemaFile, sql);
    const V1 = 'CREATE TABLE a (id INTEGER NOT NULL PRIMARY KEY, v TEXT);\nCREATE INDEX a_v ON a (v);\n';

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-schema-'));
      schemaFile = path.join(dir, 'schema.sql');
      write(V1);
      agent = await new AgentProcess({ dir, args: ['--schema', schemaFile] }).start();
      const w = await postJson(agent.http, '/v1/transactions', ["INSERT INTO a (id, v) VALUES (1, 'one'), (2, 'two')"]);
      assert.equal(w.status, 200, w.text);
    });
    after(async () => {
      await agent.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('applies a new table, a new column and index changes on restart', async () => {
      assert.equal(await agent.stop(), 0);
      write(
        'CREATE TABLE a (id INTEGER NOT NULL PRIMARY KEY, v TEXT, w INTEGER NOT NULL DEFAULT 7);\n' +
          'CREATE INDEX a_w ON a (w);\n' +
          // (PostgreSQL's words for a b-tree, which SQLite does not parse)
          'CREATE INDEX a_vw ON a USING btree (v, w);\n' +
          'CREATE TABLE b (id TEXT NOT NULL PRIMARY KEY, n REAL);\n',
      );
      await agent.start();
      assert.deepEqual(await columns(agent, 'a'), ['id', 'v', 'w']);
      assert.deepEqual(await rows(agent, 'SELECT id, v, w FROM a ORDER BY id'), [
        [1, 'one', 7],
        [2, 'two', 7],
      ]);
      assert.deepEqual(await indexes(agent), ['a_vw', 'a_w']);
      const w = await postJson(agent.http, '/v1/transactions', ["INSERT INTO b (id, n) VALUES ('x', 1.5)"]);
      assert.equal(w.status, 200, w.text);
    });

    it('applies changes on `patina reload`', async () => {
      write(
        'CREATE TABLE a (id INTEGER NOT NULL PRIMARY KEY, v TEXT, w INTEGER NOT NULL DEFAULT 7, x TEXT);\n' +
          'CREATE INDEX a_w ON a (w, v);\n' + // changed: dropped and created again
          'CREATE INDEX a_x ON a (x);\n' +
          'CREATE TABLE b (id TEXT NOT NULL PRIMARY KEY, n REAL);\n' +
          'CREATE TABLE c (id INTEGER NOT NULL PRIMARY KEY);\n',
      );
      const r = await runCli(['reload', '--api-addr', agent.http.replace('http://', '')]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /reloaded/);
      assert.deepEqual(await columns(agent, 'a'), ['id', 'v', 'w', 'x']);
      assert.deepEqual(await indexes(agent), ['a_w', 'a_x']);
      assert.deepEqual(await rows(agent, "SELECT sql LIKE '%(w, v)%' FROM sqlite_schema WHERE name = 'a_w'"), [[1]]);
      const h = await request(agent.http, 'GET', '/v1/health');
      assert.deepEqual((h.json as { tables: string[] }).tables.sort(), ['a', 'b', 'c']);
      const w = await postJson(agent.http, '/v1/transactions', [
        'INSERT INTO c (id) VALUES (1)',
        "UPDATE a SET x = 'new' WHERE id = 1",
      ]);
      assert.equal(w.status, 200, w.text);
    });

    it('applies changes on SIGHUP', async () => {
      write(
        'CREATE TABLE a (id INTEGER NOT NULL PRIMARY KEY, v TEXT, w INTEGER NOT NULL DEFAULT 7, x TEXT, y BLOB);\n' +
          'CREATE INDEX a_w ON a (w, v);\n' +
          'CREATE TABLE b (id TEXT NOT NULL PRIMARY KEY, n REAL);\n' +
          'CREATE TABLE c (id INTEGER NOT NULL PRIMARY KEY);\n' +
          'CREATE TABLE d (id INTEGER NOT NULL PRIMARY KEY);\n',
      );
      agent.proc.kill('SIGHUP');
      for (let i = 0; i < 100; i++) {
        const h = await request(agent.http, 'GET', '/v1/health');
        if ((h.json as { tables: string[] }).tables.includes('d')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(await columns(agent, 'a'), ['id', 'v', 'w', 'x', 'y']);
      assert.deepEqual(await indexes(agent), ['a_w']);
      assert.match(agent.output, /schema reloaded/);
    });

    const CURRENT =
      'CREATE TABLE a (id INTEGER NOT NULL PRIMARY KEY, v TEXT, w INTEGER NOT NULL DEFAULT 7, x TEXT, y BLOB);\n' +
      'CREATE INDEX a_w ON a (w, v);\n' +
      'CREATE TABLE b (id TEXT NOT NULL PRIMARY KEY, n REAL);\n' +
      'CREATE TABLE c (id INTEGER NOT NULL PRIMARY KEY);\n' +
      'CREATE TABLE d (id INTEGER NOT NULL PRIMARY KEY);\n';
    const destructive: { change: string; schema: string; message: RegExp }[] = [
      {
        change: 'dropping a table',
        schema: CURRENT.replace('CREATE TABLE d (id INTEGER NOT NULL PRIMARY KEY);\n', ''),
        message: /"d".*dropping a table/,
      },
      { change: 'dropping a column', schema: CURRENT.replace(', y BLOB', ''), message: /"y".*dropping a column/ },
      {
        change: 'changing a column type',
        schema: CURRENT.replace('v TEXT', 'v INTEGER'),
        message: /"v".*changing a column/,
      },
      {
        change: 'changing the key',
        schema: CURRENT.replace(
          'CREATE TABLE c (id INTEGER NOT NULL PRIMARY KEY)',
          "CREATE TABLE c (id INTEGER NOT NULL, k TEXT NOT NULL DEFAULT '', PRIMARY KEY (id, k))",
        ),
        message: /"c"/,
      },
      {
        change: 'a new NOT NULL column without default',
        schema: CURRENT.replace('n REAL', 'n REAL, m TEXT NOT NULL'),
        message: /"m"/,
      },
    ];
    for (const d of destructive) {
      it(`refuses ${d.change} on reload and on restart, and keeps the data`, async () => {
        write(d.schema);
        const r = await runCli(['reload', '--api-addr', agent.http.replace('http://', '')]);
        assert.notEqual(r.code, 0, r.stdout);
        assert.match(r.stderr, /refused|DEFAULT/);
        assert.match(r.stderr, d.message);
        assert.deepEqual(await rows(agent, 'SELECT id, v, w FROM a ORDER BY id'), [
          [1, 'one', 7],
          [2, 'two', 7],
        ]);
        assert.deepEqual(await columns(agent, 'a'), ['id', 'v', 'w', 'x', 'y']);

        assert.equal(await agent.stop(), 0);
        await assert.rejects(agent.start(), d.message);
        assert.notEqual(agent.proc.exitCode, 0);
        write(CURRENT);
        await agent.start();
        assert.deepEqual(await rows(agent, 'SELECT id, v, w FROM a ORDER BY id'), [
          [1, 'one', 7],
          [2, 'two', 7],
        ]);
        assert.deepEqual(await rows(agent, 'SELECT id, n FROM b'), [['x', 1.5]]);
        assert.deepEqual(await rows(agent, 'SELECT count(*) FROM d'), [[0]]);
      });
    }

    it('refuses a reload with a type typo, keeps the running schema, and takes the corrected file', async () => {
      write(`${CURRENT}CREATE TABLE t2 (\n  id INTEGER NOT NULL PRIMARY KEY,\n  body TEXT\n  due DATE\n);\n`);
      const r = await runCli(['reload', '--api-addr', agent.http.replace('http://', '')]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /schema\.sql:\d+: table "t2", column "body": type "TEXT due DATE"/);
      const missing = await postJson(agent.http, '/v1/queries', JSON.stringify('SELECT * FROM t2'));
      assert.equal(missing.status, 400, 'the refused table was not made');
      write(`${CURRENT}CREATE TABLE t2 (\n  id INTEGER NOT NULL PRIMARY KEY,\n  body TEXT,\n  due DATE\n);\n`);
      const ok = await runCli(['reload', '--api-addr', agent.http.replace('http://', '')]);
      assert.equal(ok.code, 0, ok.stderr);
      const w = await postJson(agent.http, '/v1/transactions', [
        "INSERT INTO t2 (id, body, due) VALUES (1, 'b', '2026-01-02')",
      ]);
      assert.equal(w.status, 200, w.text);
      assert.deepEqual(await rows(agent, 'SELECT body, due FROM t2'), [['b', '2026-01-02']]);
      write(CURRENT);
    });

    it('refuses a reload whose files break a rule, and keeps running', async () => {
      write(CURRENT + 'CREATE TABLE e (x TEXT);\n');
      const r = await runCli(['reload', '--api-addr', agent.http.replace('http://', '')]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /"e".*PRIMARY KEY/);
      write(CURRENT);
      assert.deepEqual(await rows(agent, 'SELECT count(*) FROM a'), [[2]]);
    });
  });

  it('reads every .sql file of a folder in name order', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-schema-dir-'));
    const sdir = path.join(dir, 'schema');
    fs.mkdirSync(sdir);
    fs.writeFileSync(path.join(sdir, '01-a.sql'), 'CREATE TABLE a (id INTEGER NOT NULL PRIMARY KEY);');
    fs.writeFileSync(
      path.join(sdir, '02-b.sql'),
      'CREATE TABLE b (id INTEGER NOT NULL PRIMARY KEY);\nCREATE INDEX b_id ON b (id);',
    );
    fs.writeFileSync(path.join(sdir, 'notes.txt'), 'not SQL');
    const agent = await new AgentProcess({ dir, args: ['--schema', sdir] }).start();
    try {
      const h = await request(agent.http, 'GET', '/v1/health');
      assert.deepEqual((h.json as { tables: string[] }).tables.sort(), ['a', 'b']);
    } finally {
      await agent.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
