// Errors whose words name what the statement wrote, against PostgreSQL 15: an UPDATE's unknown SET
// column, a table named with its schema, the DETAIL of a NOT NULL violation (the failing row), a
// syntax error's position and an unknown column's HINT.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { oracleSuite } from '../helpers/catalog-pair';
import { type PgClient, psql } from '../helpers/pg';

const SCHEMA = `CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', n NUMERIC(10,2),
  ts TIMESTAMPTZ, tsp TIMESTAMP, d DATE, b BOOLEAN NOT NULL DEFAULT true);
CREATE TABLE u (id INTEGER NOT NULL PRIMARY KEY, name TEXT, x INTEGER);
CREATE TABLE "User" (id INTEGER NOT NULL PRIMARY KEY, "userName" TEXT);
CREATE TABLE iv (id INTEGER NOT NULL PRIMARY KEY, i INTERVAL, x INTEGER, j JSONB);`;
const ROWS = [
  `INSERT INTO t (id, name, n, ts) VALUES (1, 'a', 1.5, '2024-01-02 03:04:05+00')`,
  `INSERT INTO "User" (id, "userName") VALUES (7, 'ann')`,
];

/** A statement's error as a client sees it: SQLSTATE, message and DETAIL. */
const failure = (c: PgClient, sql: string, params?: unknown[]) =>
  c.query(sql, params).then(
    () => 'ran',
    (e: { code?: string; message: string; detail?: string }) => `${e.code} ${e.message} | ${e.detail ?? ''}`,
  );

/** A statement's outcome as a client sees it: its rows, or SQLSTATE, message, HINT and position. */
const placedFailure = (c: PgClient, sql: string, params?: unknown[]) =>
  c.query(sql, params).then(
    (r) => `ran ${JSON.stringify(r.rows)}`,
    (e: { code?: string; message: string; hint?: string; position?: string }) =>
      `${e.code} ${e.message} | ${e.hint ?? ''} @${e.position}`,
  );

describe('error messages and details as PostgreSQL 15 words them', function () {
  this.timeout(60_000);
  const { clients } = oracleSuite(SCHEMA, ROWS);

  async function sameFailure(sql: string, params?: unknown[]): Promise<string> {
    const { patina, postgres } = clients();
    const p = await failure(patina, sql, params);
    assert.equal(p, await failure(postgres, sql, params), sql);
    return p;
  }

  it('an UPDATE of a column the table lacks is 42703 naming the relation (was column "x" does not exist)', async () => {
    assert.equal(
      await sameFailure('UPDATE t SET nope = 1 WHERE id = 1'),
      '42703 column "nope" of relation "t" does not exist | ',
    );
    await sameFailure("UPDATE public.t SET name = 'x', nope = 1");
  });

  it('a missing table named with its schema is named so (relation "public.nope"; was "nope")', async () => {
    assert.equal(await sameFailure('SELECT * FROM public.nope'), '42P01 relation "public.nope" does not exist | ');
    for (const sql of ['INSERT INTO public.nope VALUES (1)', 'UPDATE public.nope SET x = 1', 'DELETE FROM public.nope'])
      await sameFailure(sql);
    await sameFailure('SELECT * FROM nope');
    await sameFailure('SELECT * FROM t JOIN public.nope ON true');
  });

  it('a NOT NULL violation carries the failing row as DETAIL, values as the types print them (was no DETAIL)', async () => {
    assert.equal(
      await sameFailure(
        "INSERT INTO t (id, name, n, ts, tsp, d, b) VALUES (3, NULL, 1.5, '2024-01-02 03:04:05+00', '2024-01-02 03:04:05', '2024-01-02', false)",
      ),
      '23502 null value in column "name" of relation "t" violates not-null constraint | Failing row contains (3, null, 1.50, 2024-01-02 03:04:05+00, 2024-01-02 03:04:05, 2024-01-02, f).',
    );
    await sameFailure('INSERT INTO t (id, name) VALUES (2, NULL)');
    await sameFailure('INSERT INTO t (id, name, n) VALUES ($1, $2, $3)', [4, null, '2.5']);
    await sameFailure("INSERT INTO t (id, name, b) VALUES (5, 'x', NULL)");
    await sameFailure("INSERT INTO t (id, name) VALUES (6, 'x'), (7, NULL)");
    await sameFailure('UPDATE t SET name = NULL WHERE id = 1');
    await sameFailure('UPDATE t SET name = $1, n = n * 2 WHERE id = $2', [null, 1]);
    // COPY FROM's row too (psql prints the DETAIL line)
    const { pair } = clients();
    const detail = (port: number) => {
      const r = spawnSync(
        'psql',
        [
          '-X',
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
          '-U',
          'tester',
          '-d',
          'db',
          '-c',
          'COPY t (id, name, n) FROM STDIN',
        ],
        {
          input: '8\t\\N\t2.5\n',
          encoding: 'utf8',
        },
      );
      return r.stderr.split('\n').find((l) => l.startsWith('DETAIL'));
    };
    assert.equal(detail(pair.patinaPort), 'DETAIL:  Failing row contains (8, null, 2.50, null, null, null, t).');
    assert.equal(detail(pair.patinaPort), detail(pair.postgresPort));
  });

  it('a NOT NULL violation of INSERT ... SELECT, a VALUES subquery, ON CONFLICT DO UPDATE or UPDATE ... FROM carries the failing row (was no DETAIL)', async () => {
    assert.equal(
      await sameFailure(
        "INSERT INTO t (id, name, n, ts, tsp, d, b) SELECT id + 10, NULL, n * 2, ts, '2024-01-02 03:04:05', '2024-01-02', false FROM t",
      ),
      '23502 null value in column "name" of relation "t" violates not-null constraint | Failing row contains (11, null, 3.00, 2024-01-02 03:04:05+00, 2024-01-02 03:04:05, 2024-01-02, f).',
    );
    for (const [sql, params] of [
      // the first row of the SELECT that leaves the column null, in its order; a WITH query; parameters
      [
        "INSERT INTO t (id, name) SELECT x, CASE WHEN x > 2 THEN NULL ELSE 'a' END FROM generate_series(2, 5) AS g(x) ORDER BY x DESC",
        undefined,
      ],
      ['WITH s AS (SELECT 3 AS id) INSERT INTO t (id, name, n) SELECT id, NULL, $1 FROM s RETURNING id', ['2.5']],
      ['INSERT INTO t (id, name) SELECT 9, NULL ON CONFLICT DO NOTHING', undefined],
      // a VALUES item that is an expression
      ["INSERT INTO t (id, name) VALUES (7, (SELECT name FROM t WHERE id = 0)), (8, 'x')", undefined],
      ['INSERT INTO t (id, name, n) VALUES (6, upper(NULL), 1 + 1)', undefined],
      // ON CONFLICT DO UPDATE: the existing row, updated
      ["INSERT INTO t (id, name) VALUES (1, 'q') ON CONFLICT (id) DO UPDATE SET name = NULL", undefined],
      [
        "INSERT INTO t AS x (id, name, n) VALUES (1, 'q', 3) ON CONFLICT (id) DO UPDATE SET name = CASE WHEN excluded.n > 2 THEN NULL END, n = x.n + excluded.n",
        undefined,
      ],
      // UPDATE ... FROM
      ['UPDATE t SET name = v.x FROM (VALUES (1, NULL::text)) v(id, x) WHERE v.id = t.id', undefined],
      ['UPDATE t AS z SET name = v.x, n = z.n * 2 FROM (VALUES (1, NULL::text)) v(id, x) WHERE v.id = z.id', undefined],
    ] as [string, unknown[] | undefined][])
      assert.match(await sameFailure(sql, params), /^23502 .* \| Failing row contains \(/, sql);
  });

  it("a syntax error carries PostgreSQL's position: psql's LINE and caret (it had none)", async () => {
    const { patina, postgres, pair } = clients();
    const at = (c: PgClient, sql: string, params?: unknown[]) =>
      c.query(sql, params).then(
        () => 'ran',
        (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} at ${e.position}`,
      );
    for (const sql of [
      'SELECT * FRM t',
      'SELECT * FROM t WHERE',
      "SELECT 'é', '😀' FRM t ORDER",
      'SELECT 1; SELECT * FROM t WHERE id =',
      '  SELECT\n    id\n  FROM t WHER id = 1',
      'INSERT INTO t VALUES (1,, 2)',
      'SELECT id FROM t GROUP BY',
    ]) {
      const p = await at(patina, sql);
      assert.match(p, /^42601 syntax error at .* at \d+$/, sql);
      assert.equal(p, await at(postgres, sql), sql);
    }
    // a Parse's too (node-postgres sends one for a statement with parameters)
    const parsed = 'SELECT id FROM t WHER id = $1';
    assert.equal(await at(patina, parsed, [1]), await at(postgres, parsed, [1]));
    // psql prints the line and a caret under the place
    const shown = (port: number) => psql(port, ['SELECT 1;\nSELECT\n  id FRM t']).stderr;
    assert.match(shown(pair.patinaPort), /LINE 3: {3}id FRM t\n {17}\^/);
    assert.equal(shown(pair.patinaPort), shown(pair.postgresPort));
  });

  it('a parameter in a simple Query is 42P02 at the parameter, a text that does not parse its 42601 first (42P02 had no position, and came before the syntax error)', async () => {
    // (psql without \bind: a `SELECT $1::int * 2` whose \bind failed ran into the next line's SELECT)
    for (const sql of [
      'SELECT 1, $1',
      'SELECT 1; SELECT  $2',
      "SELECT 'é' AS x WHERE $1 = 1",
      'SELECT $1::int * 2 AS d\nSELECT 2',
      'SELECT $1 SELECT 2',
    ]) {
      const p = await placedFailure(clients().patina, sql);
      assert.match(p, /^42(P02|601) .* @\d+$/, sql);
      assert.equal(p, await placedFailure(clients().postgres, sql), sql);
    }
  });
  it('a Query of several statements one of which does not parse runs none of them, its 42601 placed in the whole text (the statements before it ran: rows, a write rolled back, a SET kept)', async () => {
    const { patina, postgres, pair } = clients();
    // psql sends each -c as one Query; what it prints of each, then what the session sees after
    const shown = (port: number, sql: string) =>
      psql(port, [sql, 'SHOW datestyle', 'SELECT count(*) FROM t WHERE id = 40'], ['-v', 'ON_ERROR_STOP=0']);
    for (const sql of [
      'SELECT 1; SELEC 2',
      "INSERT INTO t (id, name) VALUES (40, 'x'); garbage",
      "SET datestyle = 'German'; SELECT 1;\n  SELECT 'é', 'abc",
      "SELECT 'é😀' AS a; INSERT INTO t (id) VALUES (40);\n  -- a comment\n  SELECT (1 FROM t",
    ]) {
      const p = shown(pair.patinaPort, sql);
      assert.match(p.stderr, /^ERROR: {2}(syntax error|unterminated quoted string) at .*\nLINE \d+: /, sql);
      assert.match(p.stdout, /^ DateStyle \n-+\n ISO, MDY\n\(1 row\)\n\n count \n-+\n +0\n/, sql);
      const q = shown(pair.postgresPort, sql);
      assert.equal(p.stdout, q.stdout, sql);
      assert.equal(p.stderr, q.stderr, sql);
    }
    // in a transaction block the block is failed, as by any error, with nothing of the message run
    const inBlock = async (c: PgClient) => {
      await c.query('BEGIN');
      const e = await c.query("INSERT INTO t (id) VALUES (41); SELECT 'x' x FRM t").then(
        () => 'ran',
        (err: { code?: string; position?: string }) => `${err.code} at ${err.position}`,
      );
      const after = await c.query('SELECT 1').then(
        () => 'ran',
        (err: { code?: string }) => err.code,
      );
      await c.query('ROLLBACK');
      return `${e} then ${after}`;
    };
    assert.equal(await inBlock(patina), '42601 at 46 then 25P02');
    assert.equal(await inBlock(patina), await inBlock(postgres));
  });

  it("a statement PostgreSQL's parser refuses is its 42601 also where SQLite would run it: LIMIT #,# with its HINT and INSERT OR IGNORE (they ran, the INSERT wrote; backquotes and INDEXED BY were refused already)", async () => {
    const { pair } = clients();
    for (const sql of [
      'SELECT id FROM t ORDER BY id LIMIT 1, 1',
      'SELECT 1 LIMIT 1,2',
      'SELECT `id` FROM t',
      "INSERT OR IGNORE INTO t (id, name) VALUES (1, 'x')",
      'SELECT id FROM t INDEXED BY t_pkey',
    ]) {
      const p = psql(pair.patinaPort, [sql]).stderr;
      assert.match(p, /^ERROR: {2}(syntax error at or near|LIMIT #,# syntax is not supported)/, sql);
      assert.equal(p, psql(pair.postgresPort, [sql]).stderr, sql);
    }
    assert.match(
      psql(pair.patinaPort, ['SELECT 1 LIMIT 1,2']).stderr,
      /\nHINT: {2}Use separate LIMIT and OFFSET clauses\.\n/,
    );
  });

  it("an unknown column's 42703 carries PostgreSQL's HINT, the name as it folds it and the place of the failing reference (there was no HINT)", async () => {
    const { patina, postgres, pair } = clients();

    const same = async (sql: string, params?: unknown[]) => {
      const p = await placedFailure(patina, sql, params);
      assert.equal(p, await placedFailure(postgres, sql, params), sql);
      return p;
    };
    assert.equal(
      await same('SELECT nme FROM t'),
      '42703 column "nme" does not exist | Perhaps you meant to reference the column "t.name". @8',
    );
    // two equally near (the inner query's range table first, then the outer's); a qualified name
    assert.equal(
      await same('SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE nme IS NULL)'),
      '42703 column "nme" does not exist | Perhaps you meant to reference the column "u.name" or the column "t.name". @53',
    );
    assert.match(await same('SELECT t.nme FROM t, u'), /^42703 column t\.nme .*column "t\.name"\. @8$/);
    // a column of a table out of reach: the target of INSERT ... VALUES
    assert.match(
      await same('INSERT INTO t (id, name) VALUES (1, name)'),
      /\| There is a column named "name" in table "t", but it cannot be referenced from this part of the query\./,
    );
    for (const sql of [
      'SELECT nam FROM t JOIN u USING (id)',
      'SELECT j.nam FROM (t JOIN u USING (id)) j',
      // the reference that fails is the subquery's, read first
      'SELECT nme FROM (SELECT nme FROM u) s',
      'SELECT id FROM t, (SELECT nam FROM u) s',
      "SELECT * FROM t WHERE name = 'x' AND  nme = 1",
      'SELECT Nme FROM t',
      'SELECT id FROM t ORDER BY nme',
      // (a GROUP BY name no table has was 42803 for the select list's column)
      'SELECT id FROM t GROUP BY nme',
      'INSERT INTO t (id, name) SELECT 1, nme FROM u',
      "INSERT INTO t (id, name) VALUES (1, 'a') ON CONFLICT (id) DO UPDATE SET name = nme",
      "INSERT INTO t (id, name) VALUES (1, 'a') RETURNING nme",
      'UPDATE t SET name = nme',
      'UPDATE t SET name = u.nme FROM u WHERE u.id = t.id',
      'DELETE FROM t USING u WHERE nme IS NULL',
      'WITH c AS (SELECT id, name AS nm FROM t) SELECT nn FROM c',
      'SELECT xx FROM generate_series(1, 3) AS g(x)',
      'SELECT colum1 FROM (VALUES (1, 2)) v',
      'EXPLAIN SELECT nme FROM t',
    ])
      assert.match(await same(sql), /^42703 .* \| (Perhaps|There is) /, sql);
    // none near enough, or three as near: no HINT
    for (const sql of ['SELECT q FROM t', 'SELECT a1 FROM (SELECT 1 AS a2, 2 AS a3, 3 AS a4) s'])
      assert.match(await same(sql), /^42703 .* \| {2}@\d+$/, sql);
    // a Parse's too; psql prints the HINT line
    await same('SELECT nme FROM t WHERE id = $1', [1]);
    const shown = (port: number) => psql(port, ['SELECT 1 FROM t, u WHERE xx = 1']).stderr;
    assert.match(shown(pair.patinaPort), /HINT: {2}Perhaps you meant to reference the column "u\.x"\./);
    assert.equal(shown(pair.patinaPort), shown(pair.postgresPort));
  });

  /**
   * A statement's rows (names and values as text: Patina's INTEGER is bigint) or its error (SQLSTATE,
   * message, HINT and position), the same on both servers; Patina's.
   */
  const placed = (c: PgClient, sql: string) =>
    c.query(sql).then(
      (r) => JSON.stringify(r.rows.map((row) => Object.entries(row).map(([k, v]) => `${k}=${v}`))),
      (e: { code?: string; message: string; hint?: string; position?: string }) =>
        `${e.code} ${e.message} | ${e.hint ?? ''} @${e.position}`,
    );
  const sameNamed = async (sql: string) => {
    const { patina, postgres } = clients();
    const p = await placed(patina, sql);
    assert.equal(p, await placed(postgres, sql), sql);
    return p;
  };

  it("a quoted name whose case differs from every name it could mean is PostgreSQL's 42703 or 42P01 at the name (SQLite matched it without case and ran it)", async () => {
    assert.equal(
      await sameNamed('SELECT "Name" FROM t'),
      '42703 column "Name" does not exist | Perhaps you meant to reference the column "t.name". @8',
    );
    assert.equal(await sameNamed('SELECT t."NAME" FROM t'), '42703 column t.NAME does not exist |  @8');
    assert.equal(await sameNamed('SELECT count(*) FROM "T"'), '42P01 relation "T" does not exist |  @22');
    assert.equal(await sameNamed('SELECT "T".id FROM t'), '42P01 missing FROM-clause entry for table "T" |  @8');
    for (const sql of [
      'SELECT "Id" FROM t',
      'SELECT id FROM t WHERE "Name" IS NULL',
      'SELECT * FROM t JOIN "U" ON true',
      'SELECT * FROM public."T"',
      'INSERT INTO "T" (id) VALUES (9)',
      'UPDATE "U" SET x = 1',
      'DELETE FROM "T"',
      'SELECT id FROM t x WHERE "X".id = 1',
      'SELECT (SELECT "Id" FROM u) FROM t',
      'WITH q AS (SELECT 1 AS a) SELECT * FROM "Q"',
      'SELECT v."A" FROM (SELECT 1 AS a) v',
      'SELECT id AS "userId" FROM t ORDER BY "UserId"',
      'SELECT "userName" FROM t',
      'SELECT "UserName" FROM "User"',
      'SELECT "T".* FROM t',
      'INSERT INTO t ("Id") VALUES (1)',
      'INSERT INTO t (id, "Name") SELECT 1, name FROM u',
      'UPDATE t SET "Name" = \'x\'',
      'UPDATE "User" SET "UserName" = \'x\'',
    ])
      assert.match(await sameNamed(sql), /^42(703|P01) /, sql);
    // the names ORMs quote, where they are the names meant, still run
    for (const sql of [
      'SELECT "T"."id" AS "T_id", "T"."name" AS "T_name" FROM "t" "T" ORDER BY "T"."id"',
      'SELECT "public"."User"."id", "public"."User"."userName" FROM "public"."User" WHERE "public"."User"."id" = 7',
      'SELECT "User"."userName" FROM "User"',
      'SELECT id AS "userId" FROM t ORDER BY "userId"',
      'WITH "Q" AS (SELECT 1 AS "A") SELECT "Q"."A" FROM "Q"',
      'SELECT x."A", x."B" FROM (SELECT 1, 2) AS x("A", "B")',
      'SELECT "id", "name" FROM "t"',
      'SELECT s."Id" FROM (SELECT id AS "Id" FROM t) s WHERE s."Id" = 1',
      'SELECT "T".* FROM t "T"',
      'SELECT DISTINCT ON ("userId") id AS "userId" FROM t ORDER BY "userId"',
      'SELECT "T"."id" FROM t "T" WHERE EXISTS (SELECT 1 FROM u "U" WHERE "U".id = "T".id) OR "T".id = 1',
      'SELECT "j"."Id" FROM (SELECT 1 AS "Id") "j" JOIN (SELECT 1 AS "Id") "k" USING ("Id")',
      'SELECT count(*) AS "C" FROM t GROUP BY name HAVING count(*) > 0 ORDER BY "C"',
      'UPDATE "User" SET "userName" = \'ann\' WHERE "id" = 7 RETURNING "userName"',
      'INSERT INTO "User" ("id", "userName") VALUES (7, \'x\') ON CONFLICT ("id") DO NOTHING RETURNING "id"',
    ])
      assert.match(await sameNamed(sql), /^\[/, sql);
  });
  it("a quoted name among ON CONFLICT's columns or its DO UPDATE SET targets is matched with its case (was matched without case and ran)", async () => {
    // (the arbiter's bare name is placed at its parenthesis, as resolve_unique_index_expr places it)
    assert.equal(
      await sameNamed(`INSERT INTO t (id, name) VALUES (1, 'a') ON CONFLICT ("Id") DO NOTHING`),
      '42703 column "Id" does not exist | Perhaps you meant to reference the column "t.id" or the column "t.d". @54',
    );
    assert.equal(
      await sameNamed(`INSERT INTO t (id, name) VALUES (1, 'a') ON CONFLICT ("Id") DO UPDATE SET name = excluded.name`),
      // (excluded's id makes a third as near: no HINT, as there)
      '42703 column "Id" does not exist |  @54',
    );
    assert.equal(
      await sameNamed(`INSERT INTO t (id, name) VALUES (1, 'a') ON CONFLICT (id) DO UPDATE SET "Name" = excluded.name`),
      '42703 column "Name" of relation "t" does not exist |  @73',
    );
    for (const sql of [
      `INSERT INTO t (id, name) VALUES (1, 'a') ON CONFLICT (name, "ID") DO NOTHING`,
      `INSERT INTO t (id, name) VALUES (1, 'a') ON CONFLICT ("Id") WHERE id > 0 DO NOTHING`,
      `INSERT INTO t AS x (id, name) VALUES (1, 'a') ON CONFLICT ("Nme") DO NOTHING`,
      `INSERT INTO "User" (id, "userName") VALUES (7, 'b') ON CONFLICT (id) DO UPDATE SET "UserName" = 'c'`,
    ])
      assert.match(await sameNamed(sql), /^42703 /, sql);
    // the exact names still run
    for (const sql of [
      `INSERT INTO "User" ("id", "userName") VALUES (7, 'b') ON CONFLICT ("id") DO UPDATE SET "userName" = excluded."userName" RETURNING "userName"`,
      `INSERT INTO t AS "T" (id, name) VALUES (1, 'a') ON CONFLICT ("id") DO UPDATE SET "name" = "T".name || excluded.name RETURNING "T"."name"`,
    ])
      assert.match(await sameNamed(sql), /^\[/, sql);
  });

  it("a call of a function PostgreSQL does not have (SQLite's own: instr, printf, typeof, ifnull, group_concat, ...) is its 42883 with HINT and position (they ran with SQLite's meaning)", async () => {
    const { patina, postgres } = clients();
    const same = async (sql: string, params?: unknown[]) => {
      const p = await placedFailure(patina, sql, params);
      assert.equal(p, await placedFailure(postgres, sql, params), sql);
      return p;
    };
    assert.equal(
      await same("SELECT instr('abc', 'b')"),
      '42883 function instr(unknown, unknown) does not exist | No function matches the given name and argument types. You might need to add explicit type casts. @8',
    );
    for (const sql of [
      "SELECT id, printf('%d', id) FROM t",
      'SELECT typeof(n) FROM t',
      'SELECT ifnull(name, 1) FROM t WHERE id = 1',
      'SELECT group_concat(name) FROM t',
      'SELECT total(n) FROM u JOIN t USING (id)',
      "SELECT julianday('2024-01-01'), hex(name) FROM t",
      'SELECT sqlite_version()',
      'SELECT 1 FROM t WHERE glob(name, b::text)',
      "SELECT pg_catalog.instr('a', 'b')",
      `SELECT "Upper"(name) FROM t`,
      'SELECT coalesce(nosuch(id), 0) FROM t',
      "UPDATE t SET name = ifnull(name, 'x') WHERE id = 1",
      "INSERT INTO u (id, name) VALUES (9, json_extract('{}', '$.a'))",
      'SELECT * FROM t WHERE id IN (SELECT last_insert_rowid())',
      "INSERT INTO u (id, name) VALUES (10, 'a') RETURNING typeof(id)",
      'SELECT * FROM t JOIN json_tree(name) j ON true',
    ])
      assert.match(await same(sql), /^42883 function .* does not exist/, sql);
    assert.match(await same('SELECT instr($1, $2)', ['abc', 'b']), /^42883 /);
    // PostgreSQL's own run, quoted or qualified, and Patina's patina_id(), as before
    for (const sql of [
      'SELECT upper(name), "lower"(name), pg_catalog.length(name), count(*) FROM t GROUP BY 1, 2, 3',
      'SELECT x.n FROM generate_series(1, 2) AS x(n) WHERE x.n IN (SELECT 1) AND EXISTS (SELECT 1)',
    ])
      assert.match(await same(sql), /^ran /, sql);
    assert.match(
      await placedFailure(patina, "INSERT INTO u (id, name) VALUES (patina_id(), 'k') RETURNING id > 0 AS k"),
      /^ran \[\{"k":true\}\]/,
    );
  });

  it("SQLite's row id (rowid, _rowid_, oid) where no column has the name is PostgreSQL's 42703 with HINT and position (it answered SQLite's row ids)", async () => {
    const { patina, postgres } = clients();
    for (const sql of [
      'SELECT rowid FROM t',
      'SELECT name FROM t WHERE rowid > 0',
      'SELECT _rowid_, name FROM u',
      'SELECT max(rowid) FROM t',
      "UPDATE t SET name = 'x' WHERE rowid = 1",
      'DELETE FROM u WHERE oid = 1',
      'SELECT id FROM t ORDER BY rowid',
    ]) {
      const p = await placedFailure(patina, sql);
      assert.match(p, /^42703 column "(rowid|_rowid_|oid)" does not exist/, sql);
      assert.equal(p, await placedFailure(postgres, sql), sql);
    }
    // a catalog relation's oid is its column, as before
    const sql = "SELECT c.oid > 0 AS ok FROM pg_class c WHERE c.relname = 't'";
    assert.equal(await placedFailure(patina, sql), await placedFailure(postgres, sql));
  });

  it('in a failed transaction block a statement that parses is 25P02 before its analysis (it was its 42703 or 42883), a syntax error still its 42601, simple Query and Parse alike', async () => {
    const { patina, postgres } = clients();
    const steps = async (c: PgClient) => {
      const out: string[] = [];
      const step = (sql: string, params?: unknown[]) =>
        c.query(sql, params).then(
          (r) => out.push(`ok ${r.command}`),
          (e: { code?: string; message: string }) => out.push(`${e.code} ${e.message}`),
        );
      await step('BEGIN');
      await step('SELECT 1/0');
      await step('SELECT nosuch FROM t');
      await step('SELECT nosuch FROM t WHERE id = $1', [1]);
      await step('SELECT instr(name, $1) FROM t', ['a']);
      await step('SELEC 1');
      await step('SELECT 1 FRM t WHERE id = $1', [1]);
      await step('ROLLBACK');
      await step('SELECT nosuch FROM t');
      await step('BEGIN');
      await step('SELECT 1/0');
      await step('ROLLBACK', []);
      return out;
    };
    const p = await steps(patina);
    assert.deepEqual(p, await steps(postgres));
    assert.equal(p.filter((x) => x.startsWith('25P02')).length, 3);
  });

  it('a column of a relation no FROM item in reach names is PostgreSQL\'s 42P01 with its HINT and position (it was 42703 column x.id does not exist; x.* 42P01 relation "x" does not exist)', async () => {
    const { patina, postgres } = clients();
    const cases: [string, RegExp][] = [
      ['SELECT x.id FROM t', /^42P01 missing FROM-clause entry for table "x" \| {2}@8$/],
      [
        'SELECT t.id FROM t tt',
        /^42P01 invalid reference to FROM-clause entry for table "t" \| Perhaps you meant to reference the table alias "tt"\./,
      ],
      [
        'SELECT t.id FROM t, (SELECT t.name) s',
        /^42P01 invalid reference to FROM-clause entry for table "t" \| There is an entry/,
      ],
      ['UPDATE t SET name = x.name WHERE id = 1', /^42P01 missing FROM-clause entry for table "x"/],
      ['SELECT id FROM t WHERE u.x = 1 ORDER BY 1', /^42P01 /],
      // `t.*` too (it was 42P01 relation "t" does not exist, without the HINT)
      [
        'SELECT t.* FROM t AS tt',
        /^42P01 invalid reference to FROM-clause entry for table "t" \| Perhaps you meant to reference the table alias "tt"\. @8$/,
      ],
      ['SELECT x.* FROM t', /^42P01 missing FROM-clause entry for table "x" \| {2}@8$/],
      [
        'SELECT (SELECT t.* FROM u) FROM t AS tt',
        /^42P01 invalid reference to FROM-clause entry for table "t" \| Perhaps/,
      ],
      ['SELECT u.* FROM t, (SELECT u.* FROM t) s', /^42P01 missing FROM-clause entry for table "u" \| {2}@28$/],
      ['SELECT * FROM nope', /^42P01 relation "nope" does not exist/],
    ];
    for (const [sql, want] of cases) {
      const p = await placedFailure(patina, sql);
      assert.match(p, want, sql);
      assert.equal(p, await placedFailure(postgres, sql), sql);
    }
  });

  it('a value of a type PostgreSQL does not assign to its column is its 42804 at the value, in every kind of write (SQLite stored it: date - date into an interval was the interval 4)', async () => {
    const { patina, postgres } = clients();
    await placedFailure(patina, 'INSERT INTO iv (id, x) VALUES (1, 5)');
    await placedFailure(postgres, 'INSERT INTO iv (id, x) VALUES (1, 5)');
    const refused: [string, RegExp][] = [
      [
        "INSERT INTO iv (id, i) VALUES (2, date '2024-01-05' - date '2024-01-01')",
        /^42804 column "i" is of type interval but expression is of type integer \| You will need to rewrite or cast the expression\. @40$/,
      ],
      ["INSERT INTO iv (id, i) VALUES (2, date '2024-01-05' - 1)", /^42804 .* of type date /],
      ['INSERT INTO iv (id, i) SELECT 2, d - d FROM t WHERE id = 1', /^42804 /],
      ['INSERT INTO iv (id, i) VALUES (2, 5)', /^42804 /],
      [
        'INSERT INTO iv (id, x) VALUES (2, true)',
        /^42804 column "x" is of type integer but expression is of type boolean/,
      ],
      ["INSERT INTO iv (id, x) VALUES (2, '5'::text)", /^42804 .* of type text /],
      ['INSERT INTO iv (id, x) VALUES (2, now())', /^42804 .* timestamp with time zone /],
      ['INSERT INTO iv (id, x) VALUES (2, 1), (3, false)', /^42804 /],
      ['INSERT INTO iv (id, j) VALUES (2, 5)', /^42804 /],
      ['INSERT INTO t (id, d) VALUES (2, 5)', /^42804 /],
      ['INSERT INTO t (id, tsp) VALUES (2, 1.5)', /^42804 /],
      ['INSERT INTO t (id, b) VALUES (2, 1)', /^42804 /],
      ['INSERT INTO t (id, d) SELECT 2, name FROM t WHERE id = 1', /^42804 .* of type text /],
      [
        'UPDATE iv SET x = 1, i = x WHERE id = 1',
        /^42804 column "i" is of type interval but expression is of type integer/,
      ],
      ['UPDATE t SET b = id WHERE id = 1', /^42804 /],
      ['UPDATE t SET d = u.x FROM u WHERE u.id = t.id', /^42804 /],
      ['INSERT INTO iv (id, i) VALUES (1, NULL) ON CONFLICT (id) DO UPDATE SET i = excluded.x', /^42804 /],
    ];
    for (const [sql, want] of refused) {
      const p = await placedFailure(patina, sql);
      assert.match(p, want, sql);
      assert.equal(p, await placedFailure(postgres, sql), sql);
    }
    // what PostgreSQL assigns (a number of another kind, an instant into a date, anything into text)
    // is written as it converts it
    for (const sql of [
      "INSERT INTO iv (id, i, x) VALUES (4, (date '2024-01-05' - date '2024-01-01') * interval '1 day', 2.5)",
      "INSERT INTO t (id, name, n, d, tsp, b) VALUES (4, 'x', 7, timestamptz '2024-01-02 03:04:05+00', date '2024-01-03', 'yes')",
      'INSERT INTO t (id, name, n) SELECT 5, d, x FROM t, iv WHERE t.id = 1 AND iv.id = 4',
      'UPDATE iv SET x = 3.5 * 2, i = NULL WHERE id = 1',
      'INSERT INTO iv (id, i, x) VALUES ($1, $2, $3)',
    ])
      assert.equal(
        await placedFailure(patina, sql, sql.includes('$1') ? [6, '2 days', '7'] : undefined),
        await placedFailure(postgres, sql, sql.includes('$1') ? [6, '2 days', '7'] : undefined),
        sql,
      );
    const rows =
      'SELECT (SELECT json_agg(iv ORDER BY id) FROM iv)::text AS iv, (SELECT json_agg(t ORDER BY id) FROM t)::text AS t';
    assert.equal(await placedFailure(patina, rows), await placedFailure(postgres, rows));
  });

  it("a write that calls a regular expression (~, regexp_replace, regexp_split_to_array, ...) is Patina's 0A000 naming it, at analysis: the writer has none (it was 42883 function REGEXP(...) does not exist, a function PostgreSQL has)", async () => {
    const { patina, postgres } = clients();
    const writes: [string, RegExp][] = [
      [
        "UPDATE u SET name = 'x' WHERE name ~ '^t'",
        /^0A000 a regular expression match \(~, ~\*, !~, !~\*, SIMILAR TO\) is not supported in a write/,
      ],
      ["DELETE FROM u WHERE name !~* 'a'", /^0A000 a regular expression match .* in a write/],
      [
        "UPDATE u SET name = regexp_replace(name, 'o', '0') WHERE id = 1",
        /^0A000 regexp_replace is not supported in a write/,
      ],
      [
        "INSERT INTO u (id, name) VALUES (9, array_to_string(regexp_split_to_array('a,b', ','), '-'))",
        /^0A000 regexp_split_to_array is not supported in a write/,
      ],
      [
        "INSERT INTO u (id, name) SELECT 9, substring('abc' FROM 'b.') ",
        /^0A000 substring\(\.\.\. FROM pattern\) is not supported in a write/,
      ],
    ];
    for (const [sql, want] of writes) {
      assert.match(await placedFailure(patina, sql), want, sql);
      // (PostgreSQL runs each: what differs is the refusal, named)
      assert.match(await placedFailure(postgres, `BEGIN; ${sql}; ROLLBACK`), /^ran /, sql);
    }
    // a read may match; nothing above was written
    const reads = "SELECT id, name ~ '^t' AS t, regexp_replace(name, 'o', '0') AS r FROM u WHERE id < 1000 ORDER BY id";
    assert.equal(await placedFailure(patina, reads), await placedFailure(postgres, reads));
  });

  it("a column named twice in an INSERT's list is 42701 at the second (it ran, writing the last value), twice among SET targets 42601; VALUES rows of different widths and an ON CONFLICT target no unique index matches have PostgreSQL's words (they had SQLite's)", async () => {
    const { patina, postgres } = clients();
    for (const sql of [
      'INSERT INTO u (id, id) VALUES (311, 312)',
      "INSERT INTO u (id, name, id) SELECT 1, 'a', 2",
      "UPDATE u SET name = 'a', name = 'b'",
      "UPDATE u SET (name, name) = ('a', 'b')",
      "INSERT INTO u (id, name) VALUES (1, 'a') ON CONFLICT (id) DO UPDATE SET name = 'x', name = 'y'",
    ]) {
      const p = await placedFailure(patina, sql);
      assert.match(
        p,
        /^(42701 column "id" specified more than once|42601 multiple assignments to same column "name")/,
        sql,
      );
      assert.equal(p, await placedFailure(postgres, sql), sql);
    }
    for (const sql of [
      "INSERT INTO u (id, name) VALUES (307, 'a'), (308)",
      'SELECT * FROM (VALUES (1, 2), (3)) v',
      "INSERT INTO u (id, name) VALUES (1, 'f') ON CONFLICT (name) DO NOTHING",
    ])
      assert.match(
        await sameFailure(sql),
        /^(42601 VALUES lists must all be the same length|42P10 there is no unique)/,
        sql,
      );
    const rows = 'SELECT id, name FROM u WHERE id < 1000 ORDER BY id';
    assert.equal(await placedFailure(patina, rows), await placedFailure(postgres, rows));
  });

  it("a call naming public is 42883 (public has no functions; public.upper(x) ran as upper), one naming a schema that is none 3F000 at the call (it was SQLite's syntax error); pg_catalog's run", async () => {
    const { patina, postgres } = clients();
    for (const sql of [
      "SELECT public.upper('a')",
      'SELECT count(*) FROM t WHERE public.lower(name) = $1',
      "SELECT nosuch.upper('a')",
      'SELECT nosuch.f()',
      'INSERT INTO u (id, name) VALUES (500, nosuch.f(1))',
      "SELECT public.nosuch('a')",
      "SELECT pg_catalog.nosuch('a')",
      'SELECT pg_catalog.upper(name), pg_catalog.count(*) FROM t WHERE id = 1 GROUP BY name',
    ]) {
      const params = sql.includes('$1') ? ['a'] : undefined;
      const p = await placedFailure(patina, sql, params);
      assert.match(p, /^(42883 function (public|pg_catalog)\.|3F000 schema "nosuch" does not exist|ran )/, sql);
      assert.equal(p, await placedFailure(postgres, sql, params), sql);
    }
  });

  it("what SQLite refuses in its own words is PostgreSQL's error: ORDER BY or GROUP BY a position past the select list 42P10 at the number, a subquery of several columns where one value goes 42601 at it, a USING column a side lacks 42703 naming the side (they were 42000 with SQLite's message)", async () => {
    const { patina, postgres } = clients();
    for (const sql of [
      'SELECT id FROM t ORDER BY 99',
      'SELECT id, name FROM u ORDER BY id, 0',
      'SELECT id FROM t ORDER BY -1',
      'SELECT * FROM t ORDER BY 8',
      'SELECT id, count(*) FROM t GROUP BY 5',
      // (of a list that is not grouped: it was 42803 for its column)
      'SELECT id, name FROM t GROUP BY 0',
      'SELECT id FROM t GROUP BY -1',
      'SELECT id, name, count(*) FROM u GROUP BY 1, 0',
      'SELECT 1 UNION SELECT 2 ORDER BY 3',
      'SELECT * FROM (SELECT id FROM t ORDER BY 2) s',
      'SELECT (SELECT 1, 2)',
      'SELECT 1 + (SELECT id, name FROM t LIMIT 1)',
      'SELECT * FROM t WHERE id = (SELECT 1, 2)',
      'SELECT (SELECT * FROM u LIMIT 1)',
      'SELECT (SELECT 1, 2 UNION SELECT 3, 4)',
      'SELECT ARRAY(SELECT id, name FROM u)',
      'SELECT * FROM t WHERE id IN (SELECT 1, 2)',
      'SELECT (1, 2) = (SELECT 1, 2)',
      'SELECT * FROM t JOIN u USING (nosuch)',
      'SELECT * FROM t JOIN u USING (id, x)',
      'SELECT * FROM u JOIN t USING (x)',
      'SELECT * FROM t JOIN u USING (id) JOIN iv USING (name)',
      'WITH w AS (SELECT 1 AS k) SELECT * FROM w JOIN t USING (k)',
      'SELECT * FROM t JOIN (SELECT 1 AS a) s USING (a)',
      // a name twice in USING (SQLite joined on it once and ran)
      'SELECT * FROM t JOIN u USING (id, id)',
      'SELECT 1 FROM t a JOIN t b USING (id, name, "id")',
      'WITH w AS (SELECT 1 AS id) SELECT * FROM w JOIN t USING (id, id)',
      'SELECT * FROM nope JOIN u USING (id, id)',
    ]) {
      const p = await placedFailure(patina, sql);
      assert.match(
        p,
        /^(42P10 (ORDER|GROUP) BY position|42601 subquery|42703 column "\w+" specified in USING|4270[12] (common )?column name|42P01 relation "nope"|ran )/,
        sql,
      );
      assert.equal(p, await placedFailure(postgres, sql), sql);
    }
  });

  it("an aggregate with its own ORDER BY or DISTINCT as a window function is PostgreSQL's 0A000 at the call (it was 42000 with SQLite's words: ORDER BY may not be used with non-aggregate json_group_array())", async () => {
    const { patina, postgres } = clients();
    for (const sql of [
      'SELECT json_agg(name ORDER BY id) OVER () FROM t',
      "SELECT id, string_agg(name, ',' ORDER BY id) OVER (ORDER BY id) FROM t",
      'SELECT id, array_agg(name ORDER BY id DESC) OVER w FROM t WINDOW w AS (PARTITION BY b)',
      'SELECT count(DISTINCT name) OVER () FROM t',
      'SELECT 1 FROM t WHERE id IN (SELECT sum(DISTINCT x) OVER () FROM u)',
    ]) {
      const p = await placedFailure(patina, sql);
      assert.match(p, /^0A000 (aggregate ORDER BY|DISTINCT) is not implemented for window functions \| +@\d+$/, sql);
      assert.equal(p, await placedFailure(postgres, sql), sql);
    }
  });

  it("an operator PostgreSQL has no form of for its operands' types is its 42883 with HINT at the operator: text or a boolean in arithmetic, text, a date or a timestamp compared with a number, || of two numbers (SQLite's loose typing ran them: name + 1 was 1, d = 5 false, 1 || 2 '12')", async () => {
    const { patina, postgres } = clients();
    const cases: [string, unknown[]?][] = [
      ['SELECT name + 1 FROM t'],
      ['SELECT 2 * u.name FROM u'],
      ["SELECT name - '1' FROM t"],
      ["SELECT '1' + name FROM t"],
      ['SELECT lower(name) + 1 FROM t'],
      ['SELECT name * name FROM t'],
      ['SELECT b + 1 FROM t'],
      ['SELECT $1 + b FROM t', [1]],
      // (a simple query's WHERE literal, which is bound as a parameter where it may be)
      ['SELECT id FROM t WHERE name = 1'],
      ['SELECT id FROM u WHERE id = 1 AND name <> 2'],
      ['SELECT id FROM u WHERE name != 2'],
      ['SELECT id FROM u WHERE name = x'],
      ['SELECT x < name FROM u'],
      ['SELECT name >= 1.5 FROM t'],
      ['SELECT id FROM t WHERE d = 5'],
      ['SELECT id FROM t WHERE tsp > 5'],
      ['SELECT ts <= -1 FROM t'],
      ['SELECT id FROM t WHERE 5 < d'],
      ['SELECT 1 || 2'],
      ['SELECT x || x FROM u'],
      ['SELECT 1.5 || true'],
      // what PostgreSQL runs runs
      ["SELECT t.name || 1, x || 'a', n + 1, d - 1, tsp - interval '1 day' FROM t, u WHERE t.id = u.id"],
      ["SELECT count(*) FROM t WHERE name = '1' OR d = '2024-01-02' OR n = 1"],
      ['SELECT count(*) FROM u WHERE name = $1', ['a']],
    ];
    for (const [sql, params] of cases) {
      const p = await placedFailure(patina, sql, params);
      assert.match(
        p,
        /^(42883 operator does not exist: .* \| No operator matches the given name and argument types\. You might need to add explicit type casts\. @\d+|ran )/,
        sql,
      );
      assert.equal(p, await placedFailure(postgres, sql, params), sql);
    }
  });

  it("values of types PostgreSQL cannot compare or match are its errors: a date or timestamp compared with text, a subquery's text column with an integer (42883), COALESCE, CASE, GREATEST, VALUES and set operations of integer and text or boolean (42804 ... cannot be matched), an untyped string beside an integer column in UNION (22P02) (SQLite's loose typing ran them all)", async () => {
    const { patina, postgres } = clients();
    const cases: [string, unknown[]?][] = [
      ['SELECT id FROM t WHERE ts = name'],
      ['SELECT id FROM t WHERE d < name'],
      ['SELECT t.id FROM t, u WHERE tsp <> u.name'],
      ['SELECT id FROM t WHERE name >= d'],
      ['SELECT id FROM t WHERE ts > $1::text', ['2024-01-01']],
      ['SELECT id FROM t WHERE id = (SELECT name FROM t LIMIT 1)'],
      ['SELECT id FROM t WHERE d = (SELECT name FROM u LIMIT 1)'],
      ["SELECT id FROM t WHERE id = (SELECT 'a')"],
      ['SELECT id FROM t WHERE id IN (SELECT name FROM t)'],
      ['SELECT id FROM t WHERE id NOT IN (SELECT name FROM u)'],
      ['SELECT id FROM t WHERE id = ANY (SELECT name FROM u)'],
      ['SELECT id FROM t WHERE id > ALL (SELECT name FROM u)'],
      ["SELECT CASE WHEN b THEN 1 ELSE 'a'::text END FROM t"],
      ['SELECT coalesce(id, name) FROM t'],
      ['SELECT coalesce(id, $1::text) FROM t', ['1']],
      ['SELECT coalesce(b, 1) FROM t'],
      ['SELECT greatest(id, name) FROM t'],
      ['SELECT least(d, name) FROM t'],
      ["VALUES (1), ('a'::text)"],
      ['SELECT id FROM t UNION SELECT name FROM t'],
      ['SELECT d FROM t UNION SELECT name FROM t'],
      ['SELECT id, name FROM t EXCEPT SELECT id, id FROM t'],
      ['SELECT id FROM t INTERSECT SELECT b FROM t'],
      ["SELECT 'a' UNION SELECT 'b' UNION SELECT 1"],
      ['SELECT id FROM t UNION SELECT x FROM u UNION SELECT name FROM u'],
      ["SELECT id FROM t UNION SELECT 'a'"],
      // what PostgreSQL runs runs
      ["SELECT coalesce(name, 'x') AS a, coalesce(n, id) AS b, coalesce(d, ts) AS c FROM t"],
      ["SELECT CASE WHEN b THEN d ELSE ts END AS a, CASE WHEN b THEN name ELSE 'z' END AS b FROM t"],
      ["VALUES (1, 'a'), (2, 'b'::text)"],
      ['SELECT name FROM t WHERE id = 1 UNION SELECT name FROM u WHERE false'],
      ["SELECT count(*) FROM (SELECT id FROM t UNION SELECT '1') s"],
      ['SELECT id FROM t WHERE name IN (SELECT name FROM u) OR id IN (SELECT x FROM u)'],
      ['SELECT id FROM t WHERE name = (SELECT name FROM u LIMIT 1) OR d::text = name'],
      ['SELECT id FROM t WHERE (id, name) IN (SELECT id, name FROM u)'],
    ];
    for (const [sql, params] of cases) {
      const p = await placedFailure(patina, sql, params);
      assert.match(
        p,
        /^(42883 operator does not exist: .* \| No operator matches the given name and argument types\. You might need to add explicit type casts\. @\d+|42804 [A-Z]+ types [a-z ]+ and [a-z ]+ cannot be matched \| {2}@\d+|22P02 invalid input syntax for type integer: "a" \| {2}@\d+|ran )/,
        sql,
      );
      assert.equal(p, await placedFailure(postgres, sql, params), sql);
    }
  });

  it("an untyped string among numbers where PostgreSQL gives them one type (ARRAY, NULLIF, a VALUES column, IN, COALESCE, CASE) is read as their type, 22P02 at the literal where it is none (SQLite kept the text beside the numbers); min or max of a boolean is 42883 (SQLite's took 0 and 1)", async () => {
    const { patina, postgres } = clients();
    for (const sql of [
      "SELECT ARRAY[1, 'a']",
      "SELECT ARRAY['a', 1]",
      "SELECT nullif('a', 1)",
      "SELECT nullif(id, 'x') FROM u",
      "VALUES (1), ('a')",
      "SELECT * FROM (VALUES (1, 'a'), ('b', 'c')) v(x, y)",
      "SELECT coalesce(x, 'a') FROM u",
      "SELECT CASE WHEN true THEN 1 ELSE 'a' END",
      "SELECT id FROM u WHERE x IN (1, 'a')",
      'SELECT max(b) FROM t',
      'SELECT min(t.b), max(id) FROM t',
      'SELECT max(true)',
      // what PostgreSQL runs runs, the literal read as a number
      "SELECT ARRAY[1, '2'], ARRAY['3', 4.5], nullif('1', 1), nullif(2, '3'), coalesce(NULL, '5', 6)",
      "VALUES (1, 'a'), ('2', 'b')",
      "SELECT * FROM (VALUES (1.5), ('2')) v(x)",
      "SELECT ARRAY['a', 'b'], ARRAY[name, 'x'] FROM t",
      "INSERT INTO u (id, name) VALUES (901, 'a'), ('902', 'b') RETURNING name",
      'SELECT max(b::int), bool_or(b) FROM t',
    ]) {
      const p = await placedFailure(patina, sql);
      assert.match(
        p,
        /^(22P02 invalid input syntax for type integer: "[a-z]" \| {2}@\d+|42883 function m(ax|in)\(boolean\) does not exist \| No function matches|ran )/,
        sql,
      );
      assert.equal(p, await placedFailure(postgres, sql), sql);
    }
  });

  it("a LIMIT or OFFSET naming a column of its query (LIMIT id, OFFSET n + 1) is PostgreSQL's 42P10 at the column (it was 42703 column does not exist)", async () => {
    const { patina, postgres } = clients();
    for (const sql of [
      'SELECT id FROM t LIMIT id',
      'SELECT id FROM t OFFSET id',
      'SELECT name FROM t ORDER BY id LIMIT n + 1 OFFSET 1',
      'SELECT u.id FROM u JOIN t USING (id) LIMIT 2 OFFSET abs(u.x)',
      'SELECT (SELECT id FROM u LIMIT x) FROM t',
      // a missing column is still 42703
      'SELECT id FROM t LIMIT nope',
    ]) {
      const p = await placedFailure(patina, sql);
      assert.match(p, /^(42P10 argument of (LIMIT|OFFSET) must not contain variables \| {2}@\d+|42703 |ran )/, sql);
      assert.equal(p, await placedFailure(postgres, sql), sql);
    }
  });

  it("an untyped string compared with a number is read as the number's type, 22P02 at the literal where it is none: 1 IN ('a'), 1 = 'a' of two literals (they ran, or had no position), an INTEGER column's BETWEEN 'x' AND 10 and = 'x' naming integer (it named bigint, with no position)", async () => {
    const { patina, postgres } = clients();
    const cases: [string, unknown[]?][] = [
      ["SELECT 1 IN ('a')"],
      ["SELECT 1 NOT IN (2, 'a')"],
      ["SELECT 1.5 IN ('a')"],
      ["SELECT id FROM u WHERE 2 IN ('x')"],
      ["SELECT 1 = 'a'"],
      ["SELECT 'a' < 2"],
      ["SELECT id FROM u WHERE x BETWEEN 'x' AND 10"],
      ["SELECT id FROM u WHERE x NOT BETWEEN 1 AND 'y'"],
      ["SELECT id FROM u WHERE x = 'x'"],
      ["SELECT id FROM u WHERE id = 'x'"],
      ["SELECT id FROM u WHERE x BETWEEN 'x' AND $1", [10]],
      // what PostgreSQL runs runs
      ["SELECT 1 IN ('1'), 2 = '2', '3' < 4"],
      ["SELECT id FROM u WHERE x BETWEEN '1' AND 10 OR x = '5'"],
    ];
    for (const [sql, params] of cases) {
      const p = await placedFailure(patina, sql, params);
      assert.match(p, /^(22P02 invalid input syntax for type (integer|bigint|numeric): "[a-z]" \| {2}@\d+|ran )/, sql);
      assert.equal(p, await placedFailure(postgres, sql, params), sql);
    }
  });

  it("a set operation's untyped string literal beside a number literal is read as the number's type, 22P02 at the literal where it is none (SELECT 1 UNION SELECT 'a' ran, 1 UNION '1' gave two rows)", async () => {
    const { patina, postgres } = clients();
    for (const sql of [
      "SELECT 1 UNION SELECT 'a'",
      "SELECT 'a' UNION ALL SELECT 1",
      "SELECT 1 UNION SELECT '2' UNION SELECT 'x'",
      "SELECT 2, 'y' EXCEPT SELECT 'x', 'z'",
      "SELECT count(*) FROM (SELECT 1 UNION SELECT '1') s",
      "SELECT count(*) FROM (SELECT 1, 'x' UNION SELECT '1', 'x' UNION SELECT 2.5, 'x') s",
    ]) {
      const p = await placedFailure(patina, sql);
      assert.match(p, /^(22P02 invalid input syntax for type integer: "[a-z]" \| {2}@\d+|ran )/, sql);
      assert.equal(p, await placedFailure(postgres, sql), sql);
    }
  });

  it("array_cat of arrays with no common element type (integer[] and text[], boolean[] and integer[]) is PostgreSQL's 42883 with HINT at the call (SQLite joined them: {1,a})", async () => {
    const { patina, postgres } = clients();
    for (const sql of [
      "SELECT array_cat(ARRAY[1], ARRAY['a'])",
      'SELECT array_cat(ARRAY[b], ARRAY[n]) FROM t',
      'SELECT id, array_cat(ARRAY[name], ARRAY[1.5]) FROM u',
      // what PostgreSQL runs runs: numbers of two types, text and varchar, an untyped literal
      "SELECT array_cat(ARRAY[1], ARRAY[2.5]) = ARRAY[1, 2.5], array_cat(ARRAY['x'], ARRAY['a'::varchar]), array_cat(ARRAY[1], '{2}')",
    ]) {
      const p = await placedFailure(patina, sql);
      assert.match(
        p,
        /^(42883 function array_cat\(\w+\[\], \w+\[\]\) does not exist \| No function matches|ran )/,
        sql,
      );
      assert.equal(p, await placedFailure(postgres, sql), sql);
    }
  });
  it('two FROM items of one name are PostgreSQL\'s 42712 `table name "t" specified more than once`, before the select list and a relation after them (FROM t, t and FROM t, u AS t ran, JOIN t ON ... was 42702, UPDATE t ... FROM t 42000 in SQLite\'s words); what PostgreSQL runs runs', async () => {
    const { patina, postgres } = clients();
    for (const sql of [
      'SELECT 1 FROM t, t',
      'SELECT nosuch FROM t, public.t',
      'SELECT 1 FROM t, u AS t',
      'SELECT 1 FROM t x, u x',
      'SELECT t.id FROM t JOIN t ON t.id = 1',
      'SELECT 1 FROM t JOIN u USING (id) JOIN u USING (id)',
      'SELECT 1 FROM t, (SELECT 1) AS t',
      'SELECT 1 FROM t, t, nope',
      'SELECT 1 FROM generate_series(1, 2), generate_series(1, 3)',
      'SELECT 1 FROM t JOIN u USING (id) AS u',
      'WITH q AS (SELECT 1) SELECT 1 FROM q, q',
      'WITH t AS (SELECT 1) SELECT 1 FROM t, public.t',
      'SELECT 1 FROM t WHERE EXISTS (SELECT 1 FROM u, u)',
      'SELECT * FROM (SELECT 1 FROM u JOIN u ON true) s',
      'INSERT INTO u SELECT t.id, 1, t.name FROM t, t',
      'UPDATE t SET n = 1 FROM t',
      'UPDATE t AS x SET n = 1 FROM u AS x',
      'DELETE FROM t USING t',
      'DELETE FROM t USING u AS t',
      // PostgreSQL's own error first: a relation before the clash
      'SELECT 1 FROM nope, t, t',
      // what PostgreSQL runs (its aliases differ, a join alias hides its sides, levels apart)
      'SELECT a.name FROM t a JOIN t b ON a.id = b.id',
      'SELECT 1 FROM (t JOIN u ON true) AS t LIMIT 1',
      'SELECT 1 FROM (t JOIN u USING (id)) AS j, t LIMIT 1',
      'SELECT count(*) FROM t WHERE EXISTS (SELECT 1 FROM t WHERE id = 1)',
      'SELECT 1 FROM t, LATERAL (SELECT u.x FROM u, t AS y) s LIMIT 1',
      'WITH u AS (SELECT * FROM u) SELECT 1 FROM u LIMIT 1',
      'WITH a AS (SELECT 1 AS k), b AS (SELECT * FROM a) SELECT * FROM a, b',
      'UPDATE t AS x SET n = 1 FROM t WHERE x.id = t.id + 100',
      'DELETE FROM t AS x USING t WHERE x.id = t.id + 100',
    ]) {
      const p = await placedFailure(patina, sql);
      assert.match(
        p,
        /^(42712 table name "\w+" specified more than once \| {2}@undefined$|42P01 relation "nope"|ran )/,
        sql,
      );
      assert.equal(p, await placedFailure(postgres, sql), sql);
    }
  });
});
