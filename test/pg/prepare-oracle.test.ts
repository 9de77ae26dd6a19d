// SQL-level prepared statements (PREPARE, EXECUTE, DEALLOCATE, pg_prepared_statements) against
// PostgreSQL 15, from psql and node-postgres over the simple protocol. PREPARE and EXECUTE were 0A000
// and DEALLOCATE did nothing; the protocol's prepared statements (Parse) share their names.
import assert from 'node:assert/strict';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { type PgClient, pgClient, psql, RawPg, serialize } from '../helpers/pg';

const SCHEMA = `CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, name TEXT, price NUMERIC(10,2), seen TIMESTAMPTZ);
CREATE TABLE docs (id BIGINT NOT NULL PRIMARY KEY, body JSONB);`;

/** node-postgres' named query: a Parse of that name (then Bind and Execute). */
type Named = { query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }> };
const named = (c: PgClient) => c as unknown as Named;

/** The deterministic columns of pg_prepared_statements (prepare_time is the clock's). */
const LISTED =
  'SELECT name, statement, parameter_types::text AS types, from_sql, generic_plans + custom_plans AS runs FROM pg_prepared_statements ORDER BY name';

describe('SQL prepared statements (PREPARE, EXECUTE, DEALLOCATE), against PostgreSQL 15', function () {
  this.timeout(60_000);
  let pair: CatalogPair;
  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA } });
  });
  after(() => pair?.dispose());

  /** psql's output and errors (with SQLSTATE) for the statements in one session on both servers, compared. */
  function same(statements: string[]): string {
    const run = (port: number) => {
      const r = psql(port, statements, ['-v', 'ON_ERROR_STOP=0', '-v', 'VERBOSITY=verbose']);
      return `${r.stdout}${r.stderr}`.replace(/^psql:[^\n]*?ERROR/gm, 'ERROR').replace(/^LOCATION: .*\n/gm, '');
    };
    const p = run(pair.patinaPort);
    assert.equal(p, run(pair.postgresPort), statements.join('; '));
    return p;
  }

  /** What node-postgres sees of each statement (simple protocol): command, rowCount, rows, column types; or the error. */
  async function steps(c: PgClient, sqls: string[]): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const sql of sqls) {
      try {
        // (a Query of several statements answers a result for each)
        const results = [await c.query(sql)].flat();
        out.push(results.map((r) => [r.command, r.rowCount, r.rows, r.fields.map((f) => [f.name, f.dataTypeID])]));
      } catch (e) {
        const err = e as { code?: string; message: string; detail?: string; position?: string };
        out.push(['error', err.code, err.message, err.detail, err.position]);
      }
    }
    return out;
  }

  /** The same statements through node-postgres on both servers (fresh sessions), compared. */
  async function sameSteps(sqls: string[], setup?: (c: PgClient) => Promise<unknown>): Promise<unknown[]> {
    const results: unknown[][] = [];
    for (const port of [pair.patinaPort, pair.postgresPort]) {
      const c = pgClient(port);
      await c.connect();
      try {
        const pre = setup ? await setup(c) : undefined;
        results.push([pre, ...(await steps(c, sqls))]);
      } finally {
        await c.end();
      }
    }
    assert.deepEqual(results[0], results[1], sqls.join('; '));
    return results[0];
  }

  it('PREPARE and EXECUTE of SELECT, INSERT, UPDATE, DELETE and VALUES answer rows and tags as PostgreSQL', () => {
    const out = same([
      'PREPARE ins (bigint, text, numeric) AS INSERT INTO items (id, name, price) VALUES ($1, $2, $3)',
      "EXECUTE ins (1, 'apple', 1.5)",
      "EXECUTE ins (2, 'pear', '2.25')",
      'EXECUTE ins (1 + 2, NULL, 3)',
      'PREPARE get (bigint) AS SELECT id, name, price FROM items WHERE id <= $1 ORDER BY id',
      'EXECUTE get (2)',
      "EXECUTE get ('3')",
      'PREPARE up AS UPDATE items SET name = $2 WHERE id = $1 RETURNING id, name',
      "EXECUTE up (3, 'plum')",
      'PREPARE del (int) AS DELETE FROM items WHERE id = $1',
      'EXECUTE del (2)',
      'EXECUTE del (2)',
      'PREPARE vals (int) AS VALUES (1, 2), ($1, 3)',
      'EXECUTE vals (5)',
      'PREPARE one AS SELECT $1 AS x',
      "EXECUTE one ('hi')",
      'PREPARE n (numeric) AS SELECT $1 AS n, $1 + 1 AS m',
      'EXECUTE n (1.50)',
      "EXECUTE n ('2.250')",
      'PREPARE "Quoted" AS SELECT count(*) FROM items',
      'EXECUTE "Quoted"',
      LISTED,
    ]);
    assert.match(out, /INSERT 0 1/);
    assert.match(out, /plum/);
  });

  it('bad PREPAREs, EXECUTEs and DEALLOCATEs get PostgreSQL errors: 42P05, 26000, 42601 with DETAIL, 22P02, 42P01, 42704', () => {
    const out = same([
      'PREPARE p (int) AS SELECT id FROM items WHERE id = $1',
      'PREPARE p AS SELECT 1',
      'EXECUTE nope',
      'EXECUTE nope (1)',
      'EXECUTE p',
      'EXECUTE p (1, 2)',
      "EXECUTE p ('abc')",
      'EXECUTE p ((SELECT max(id) FROM items))',
      'EXECUTE p (1 + (SELECT 1))',
      // an argument PostgreSQL does not assign to the parameter's type: 42804 with its HINT
      'EXECUTE p (now())',
      'EXECUTE p (true)',
      "EXECUTE p (upper('1'))",
      'EXECUTE p (2.6)',
      'EXECUTE p (1 + count(*))',
      'EXECUTE p (count(*) FILTER (WHERE true))',
      'EXECUTE p (row_number() OVER ())',
      'EXECUTE p (sum(1) OVER ())',
      'EXECUTE p (abs(-3))',
      'PREPARE flag (boolean, date, text) AS SELECT $1, $2, $3',
      'EXECUTE flag (1, current_date, 1.5)',
      'EXECUTE flag (1 = 1, now(), now() > now())',
      'PREPARE q AS SELECT * FROM no_such_table',
      'EXECUTE q',
      'PREPARE r (no_such_type) AS SELECT $1',
      'PREPARE s AS BEGIN',
      'PREPARE t (int) AS',
      'DEALLOCATE nope',
      'DEALLOCATE PREPARE p',
      'DEALLOCATE p',
      LISTED,
    ]);
    assert.match(out, /42P05/);
    assert.match(out, /Expected 1 parameters but got 2/);
  });

  it('DEALLOCATE ALL and DISCARD ALL drop them; in a block they are kept at ROLLBACK, and an aborted block is 25P02', () => {
    const out = same([
      'PREPARE a AS SELECT 1',
      'PREPARE b (text) AS SELECT upper($1)',
      LISTED,
      'DEALLOCATE ALL',
      LISTED,
      'PREPARE a AS SELECT 2',
      'BEGIN',
      'PREPARE c (int, text) AS INSERT INTO items (id, name) VALUES ($1, $2)',
      "EXECUTE c (10, 'ten')",
      'SELECT count(*) FROM items WHERE id = 10',
      'DISCARD ALL',
      'ROLLBACK',
      "EXECUTE c (11, 'eleven')",
      'SELECT id, name FROM items WHERE id >= 10 ORDER BY id',
      'BEGIN',
      "EXECUTE c (12, 'twelve')",
      "EXECUTE c (13, 'thirteen')",
      'COMMIT',
      'SELECT id, name FROM items WHERE id >= 10 ORDER BY id',
      'BEGIN',
      'SELECT 1/0',
      'PREPARE d AS SELECT 1',
      'EXECUTE a',
      'DEALLOCATE a',
      'ROLLBACK',
      'EXECUTE a',
      LISTED,
      'DISCARD ALL',
      LISTED,
      'DELETE FROM items WHERE id >= 10',
    ]);
    assert.match(out, /25P02/);
    assert.match(out, /25001/);
  });

  it("node-postgres: EXECUTE answers the statement's columns, types, tag and row count; errors carry SQLSTATE and DETAIL", async () => {
    const out = await sameSteps([
      'PREPARE ins (bigint, text, numeric, timestamptz) AS INSERT INTO items VALUES ($1, $2, $3, $4) RETURNING id, price',
      "EXECUTE ins (20, 'kiwi', 0.5, '2024-01-02 03:04:05+00')",
      "EXECUTE ins (21, 'fig', '7', '2024-01-02')",
      'PREPARE sel (bigint) AS SELECT id, name, price, seen, id > 20 AS big FROM items WHERE id >= $1 ORDER BY id',
      'EXECUTE sel (20)',
      'PREPARE up AS UPDATE items SET price = price * 2 WHERE id >= $1',
      'EXECUTE up (20)',
      'EXECUTE sel (21)',
      'EXECUTE ins (20, NULL, NULL, NULL)',
      'EXECUTE ins (22)',
      "EXECUTE sel ('x')",
      'PREPARE del AS DELETE FROM items WHERE id >= $1',
      'EXECUTE del (20)',
      // several statements in one Query: a PREPARE's statement is the whole text, as PostgreSQL keeps
      // it, and an error's position counts from the start of the text
      'SELECT 1; PREPARE m1 (int) AS SELECT $1 + 1; PREPARE m2 AS SELECT 2',
      "SELECT 1;\n  EXECUTE m1 ('one')",
      'SELECT 1; PREPARE m3 (nope) AS SELECT $1',
      'SELECT 1; PREPARE m4 AS CREATE TABLE x (a int)',
      LISTED,
    ]);
    assert.deepEqual((out[2] as unknown[][])[0][0], 'INSERT');
  });

  it("a Parse's statement and PREPARE's share names: EXECUTE runs a Parse's, PREPARE of its name is 42P05, and the reverse", async () => {
    await sameSteps(
      [
        'EXECUTE byparse (41)',
        'PREPARE byparse AS SELECT 1',
        'PREPARE bysql (int) AS SELECT $1 * 2 AS doubled',
        LISTED,
        'DEALLOCATE byparse',
        LISTED,
      ],
      async (c) => {
        const r = await named(c).query({ name: 'byparse', text: 'SELECT $1::int + 1 AS next', values: [1] });
        return r.rows;
      },
    );
    // a PREPARE sent by Parse, Bind and Execute after a simple query: its own text is its statement
    await sameSteps([LISTED], async (c) => {
      await c.query('SELECT 1');
      const q = { text: 'PREPARE viaparse AS SELECT 3', rowMode: 'array' as const, queryMode: 'extended' as const };
      await c.query(q);
      return (await c.query({ ...q, text: 'EXECUTE viaparse' })).rows;
    });
    // a Parse of a name PREPARE took
    const errors: unknown[] = [];
    for (const port of [pair.patinaPort, pair.postgresPort]) {
      const c = pgClient(port);
      await c.connect();
      try {
        await c.query('PREPARE taken AS SELECT 1');
        await named(c)
          .query({ name: 'taken', text: 'SELECT 2', values: [] })
          .then(
            (r) => errors.push(r.rows),
            (e: { code?: string; message: string }) => errors.push([e.code, e.message]),
          );
      } finally {
        await c.end();
      }
    }
    assert.deepEqual(errors[0], errors[1]);
    assert.deepEqual(errors[0], ['42P05', 'prepared statement "taken" already exists']);
  });

  it('EXPLAIN EXECUTE explains the prepared statement with its values as EXPLAIN of it does; EXPLAIN ANALYZE runs it', async () => {
    const seen: unknown[] = [];
    for (const port of [pair.patinaPort, pair.postgresPort]) {
      const c = pgClient(port);
      await c.connect();
      try {
        const plan = async (sql: string) => (await c.query(sql)).rows.map((r) => r['QUERY PLAN']);
        await c.query('PREPARE ex (bigint) AS SELECT name FROM items WHERE id = $1');
        // (the plans are each server's own: the same for EXECUTE as for the statement with its value as
        // PostgreSQL prints a custom plan's parameter)
        assert.deepEqual(
          await plan('EXPLAIN EXECUTE ex (1)'),
          await plan("EXPLAIN SELECT name FROM items WHERE id = '1'::bigint"),
        );
        await c.query('PREPARE add (bigint, text) AS INSERT INTO items (id, name) VALUES ($1, $2)');
        const ran = (await plan("EXPLAIN ANALYZE EXECUTE add (50, 'fifty')")).length > 0;
        const rows = (await c.query('SELECT id, name FROM items WHERE id = 50')).rows;
        await c.query('DELETE FROM items WHERE id = 50');
        seen.push([ran, rows, await steps(c, ['EXPLAIN EXECUTE nope', 'EXPLAIN EXECUTE ex (1, 2)', LISTED])]);
      } finally {
        await c.end();
      }
    }
    assert.deepEqual(seen[0], seen[1]);
  });

  it('an integer parameter is an integer: made text, divided, written into a text column (were 11.0, 5.5 and 42.0)', async () => {
    // better-sqlite3 binds a JS number as a REAL: a parameter declared int (PREPARE, or a driver's
    // Parse that declares int4, as pgjdbc's setInt does) was a double to SQLite
    same([
      "PREPARE d (int, bigint, smallint) AS SELECT $1 / 2, $2 / 2, $3 % 3, $1::text, $2 || 'x', concat($3, 'y'), $1 + 0.5",
      'EXECUTE d (11, 9007199254740993, 7)',
      'EXECUTE d (-11, -9, -7)',
      'PREPARE w (int) AS INSERT INTO items (id, name) VALUES ($1, $1) RETURNING name',
      'EXECUTE w (42)',
      'SELECT name FROM items WHERE id = 42',
      'DELETE FROM items WHERE id = 42',
      'DEALLOCATE ALL',
    ]);
    // node-postgres sends untyped text; the type PostgreSQL infers ($1 + 0: integer) is an INTEGER too
    const seen: unknown[] = [];
    for (const port of [pair.patinaPort, pair.postgresPort]) {
      const c = pgClient(port);
      await c.connect();
      try {
        const r = await c.query("SELECT concat($1 + 0, 'x') AS a, ($1 + 0)::text AS b", ['11']);
        seen.push(r.rows);
      } finally {
        await c.end();
      }
    }
    assert.deepEqual(seen[0], seen[1]);
  });

  it("a Bind parameter its type's input refuses is PostgreSQL's error: out of range, no JSON (DETAIL, CONTEXT), uuid with spaces", async () => {
    // [declared type OID, the parameter's text]
    const cases: [number, string][] = [
      [21, '70000'], // smallint 70000 was taken as it was
      [21, ' -32769 '],
      [21, '-32768'],
      [23, '3000000000'],
      [23, ''],
      [26, '-1'], // oid: a negative one stands for 2^32 + it
      [26, '-2147483649'],
      [26, '4294967296'],
      [20, '99999999999999999999'],
      [114, '{"a":1}x'], // json's DETAIL and CONTEXT were missing (the message quoted the text)
      [114, '[1,2'],
      [114, '{"a" 1}'],
      [114, '{"a":\n[1,\n 2,\n x]}'],
      [114, `{"${'k'.repeat(70)}": 1, "b": nope}`],
      [3802, '{1:2}'],
      [3802, '["\\ud800"]'], // a lone surrogate: json keeps it, jsonb refuses it
      [114, '["\\ud800"]'],
      [3802, '{"a":"\\u0000"}'],
      [114, '["\\q"]'],
      [3802, ''],
      [2950, ' 6ba7b810-9dad-11d1-80b4-00c04fd430c8 '], // was taken, trimmed
      [2950, '{6ba7b8109dad11d180b400c04fd430c8}'],
    ];
    const seen: unknown[] = [];
    for (const port of [pair.patinaPort, pair.postgresPort]) {
      const c = await RawPg.open(port);
      const out: unknown[] = [];
      try {
        for (const [oid, value] of cases) {
          c.send(serialize.parse({ text: 'SELECT $1::text AS v', types: [oid] }));
          c.send(serialize.bind({ values: [value] }));
          c.send(serialize.execute({}));
          c.send(serialize.sync());
          const ms = await c.until('readyForQuery');
          const err = ms.find((m) => m.name === 'error') as
            | { code?: string; message?: string; detail?: string; where?: string }
            | undefined;
          const row = ms.find((m) => m.name === 'dataRow') as { fields?: unknown[] } | undefined;
          out.push([oid, value, err ? [err.code, err.message, err.detail, err.where] : row?.fields]);
        }
      } finally {
        c.end();
      }
      seen.push(out);
    }
    assert.deepEqual(seen[0], seen[1]);
    // EXECUTE's argument as the same input: its DETAIL and CONTEXT too
    same([
      'PREPARE pr (smallint, oid, json) AS SELECT $1, $2, $3',
      "EXECUTE pr ('70000', 1, '1')",
      "EXECUTE pr (1, '-1', '1')",
      'EXECUTE pr (1, 1, \'{"a": tru}\')',
      'DEALLOCATE pr',
    ]);
  });

  it("EXECUTE's expression argument: a numeric at the expression's scale, and 42804 for a json or an array its parameter's type does not take", () => {
    same([
      'PREPARE sc (numeric) AS SELECT $1',
      'EXECUTE sc (2 * 1.25)', // 2.50 (it was 2.5)
      'EXECUTE sc (2.50::numeric(10,3))',
      'EXECUTE sc (1.25 + 1.5)',
      'EXECUTE sc (1.5::float8)',
      'EXECUTE sc (1 + 1)',
      'EXECUTE sc (10.0 / 4)', // a division at its scale: 2.5000000000000000 (it was 2.5)
      'EXECUTE sc (10.0 / 4 * 2)',
      'PREPARE sd (numeric) AS SELECT $1 + 1',
      'EXECUTE sd (10.0 / 4)',
      'PREPARE ai (int) AS SELECT $1',
      "EXECUTE ai ('{}'::jsonb)", // these were cast: 22P02 from the integer's input
      "EXECUTE ai ('{1}'::int[])",
      'EXECUTE ai (ARRAY[1])',
      'PREPARE aj (jsonb) AS SELECT $1',
      'EXECUTE aj (1)',
      'EXECUTE aj (now())',
      'EXECUTE aj (\'{"a": 1}\'::json)',
      'PREPARE aa (int[]) AS SELECT $1',
      'EXECUTE aa (1)',
      'EXECUTE aa (ARRAY[1.5])',
      'EXECUTE aa (ARRAY[now()])',
      'PREPARE at (text[]) AS SELECT $1',
      'EXECUTE at (ARRAY[1])',
      'DEALLOCATE ALL',
    ]);
  });

  it('a parameter the statement leaves open is text: EXECUTE answers a text column of the argument made text; one neither declared nor used, or only used where any type goes, is 42P18', async () => {
    await sameSteps([
      'PREPARE o AS SELECT $1',
      'EXECUTE o (1)', // an int8 column before
      'EXECUTE o (1.50)', // 1.5 in a float8 column before
      'EXECUTE o (true)', // t before
      "EXECUTE o ('a')",
      'EXECUTE o (NULL)',
      'PREPARE oo AS SELECT $1 || $1 AS twice, $1 AS once',
      'EXECUTE oo (1)', // 1.01.0 before, and `once` an int8
      'PREPARE gap AS SELECT $2', // listed as {text,text} before
      'PREPARE gap2 (int) AS SELECT $3',
      'PREPARE nogap (int, int, int) AS SELECT $1',
      "PREPARE anyarg AS SELECT concat($1, 'x')",
      'PREPARE nullcheck AS SELECT 1 WHERE $1 IS NULL',
      'PREPARE typed (text) AS SELECT 1 WHERE $1 IS NULL',
      LISTED,
      'DEALLOCATE ALL',
    ]);
    // the same over the extended protocol: node-postgres's Parse declares no types
    const seen: unknown[] = [];
    for (const port of [pair.patinaPort, pair.postgresPort]) {
      const c = pgClient(port);
      await c.connect();
      try {
        const out: unknown[] = [];
        for (const [sql, values] of [
          ['SELECT $1 || $1 AS twice, $1 AS once', ['1']],
          ['SELECT $1 AS z, $2 AS y', ['-0', '-0.50']],
          ['SELECT $2 AS second', ['1', '2']],
          // every use takes any type: nothing types it (these ran, the parameter as text)
          ["SELECT concat($1, 'x') AS c", ['1']],
          ["SELECT format('%s', $1) AS f", ['1']],
          ["SELECT json_build_object('a', $1) AS o", ['1']],
          ['SELECT $1 IS NULL AS n', ['1']],
          ["SELECT count(*) AS n FROM items WHERE $1 IS NOT NULL AND name = 'x'", ['1']],
          // a use that types it comes first, or a cast: fine
          ["SELECT count(*) AS n FROM items WHERE id = $1 OR concat($1, 'x') = 'y'", ['1']],
          ["SELECT concat($1::text, 'x') AS c, format($2, 1) AS f", ['1', '%s']],
        ] as const) {
          try {
            const r = await c.query(sql, [...values]);
            out.push([r.rows, r.fields.map((f) => f.dataTypeID)]);
          } catch (e) {
            out.push([(e as { code?: string }).code, (e as Error).message]);
          }
        }
        seen.push(out);
      } finally {
        await c.end();
      }
    }
    assert.deepEqual(seen[0], seen[1]);
  });

  it("a parameter beside a jsonb or a timestamp is typed by PostgreSQL's operator; a jsonb parameter is compared as jsonb", async () => {
    await sameSteps([
      'INSERT INTO docs VALUES (1, \'{"a": [1, 2], "b": "x"}\')',
      // these were all text (and `body - $1` jsonb)
      'PREPARE c1 AS SELECT id FROM docs WHERE body @> $1',
      'PREPARE c2 AS SELECT id FROM docs WHERE body ?| $1',
      'PREPARE c3 AS SELECT body #> $1 AS at, body - $2 AS less, body || $3 AS more FROM docs',
      "PREPARE c4 AS SELECT timestamptz '2020-01-01 00:00:00+00' - $1 AS since, timestamp '2020-01-01 00:00:00' + $2 AS later, date '2020-01-01' - $3 AS days",
      'PREPARE c5 AS SELECT id FROM docs WHERE body = $1',
      LISTED,
      'EXECUTE c1 (\'{"b": "x"}\')',
      "EXECUTE c2 ('{b,c}')",
      "EXECUTE c3 ('{a,1}', 'a', '{\"c\": 1}')",
      "EXECUTE c4 ('2000-01-01 00:00:00+00', '1 day 02:00', '2000-01-01')",
      // the same object with its keys in another order (it matched nothing)
      'EXECUTE c5 (\'{"b": "x", "a": [1, 2]}\')',
      'DEALLOCATE ALL',
      'DELETE FROM docs',
    ]);
  });
});

/** What a client sees of a Parse (types declared or none), Describe and, with values, Bind and Execute. */
type Described = { sql: string; types?: number[]; values?: (string | null)[] };

/** Each case on a fresh session of `port`: ParameterDescription's types, the columns' types, the rows, or the error. */
async function described(port: number, cases: Described[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const { sql, types, values } of cases) {
    const c = await RawPg.open(port);
    try {
      c.send(serialize.parse({ text: sql, types: types ?? [] }));
      c.send(serialize.describe({ type: 'S' }));
      if (values) {
        c.send(serialize.bind({ values }));
        c.send(serialize.execute({}));
      }
      c.send(serialize.sync());
      const seen: unknown[] = [sql];
      for (const m of await c.until('readyForQuery')) {
        const f = m as Record<string, unknown>;
        if (m.name === 'parameterDescription') seen.push(['params', f.dataTypeIDs]);
        else if (m.name === 'rowDescription')
          seen.push(['columns', (f.fields as { dataTypeID: number }[]).map((x) => x.dataTypeID)]);
        else if (m.name === 'dataRow') seen.push(['row', f.fields]);
        else if (m.name === 'error') seen.push(['error', f.code, f.message, f.detail, f.hint, f.position]);
      }
      out.push(seen);
    } finally {
      c.end();
    }
  }
  return out;
}

describe('parameters PostgreSQL types by its operator and function resolution, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let pair: CatalogPair;
  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA } });
    for (const port of [pair.patinaPort, pair.postgresPort])
      psql(port, ["INSERT INTO items VALUES (1, 'a', 1.50, '2024-01-01 00:00:00+00'), (2, 'b', NULL, NULL)"]);
  });
  after(() => pair?.dispose());

  const same = async (cases: Described[]) =>
    assert.deepEqual(await described(pair.patinaPort, cases), await described(pair.postgresPort, cases));

  it('a parameter beside an array is typed as there; an untyped one subscripted is 42804 (it was read as text)', async () => {
    await same([
      {
        sql: "SELECT (ARRAY[10, 20])[$1] AS x, array_append($2, 3) AS y, array_position($3, 'b') AS z",
        values: ['2', '{1,2}', '{a,b}'],
      },
      { sql: 'SELECT ARRAY[$1, $2] AS a, $3 = ANY(ARRAY[1, 2]) AS b', values: ['x', 'y', '2'] },
      { sql: 'SELECT $1[1] AS x', values: ['{5,6}'] },
      { sql: 'SELECT id FROM items WHERE $1[1:2] IS NULL' },
      { sql: 'SELECT $1[1] AS x', types: [1007], values: ['{5,6}'] },
    ]);
  });

  it('an untyped parameter beside a date or time takes the operand type the operator resolution picks (they were 42883)', async () => {
    const ts = '2024-01-03 12:00:00+00';
    await same([
      { sql: "SELECT $1 - now() > interval '0' AS future", values: ['2999-01-01 00:00:00+00'] },
      { sql: "SELECT $1 - timestamptz '2024-01-01 00:00:00+00' AS x", values: [ts] },
      { sql: "SELECT $1 - timestamp '2024-01-01 00:00' AS x", values: ['2024-01-05 06:00'] },
      { sql: "SELECT $1 - date '2024-01-01' AS x", values: ['2024-01-05'] },
      { sql: "SELECT $1 - time '10:00' AS x, time '10:00' - $2 AS y", values: ['12:30', '09:15'] },
      { sql: "SELECT $1 + interval '1 day' AS x, interval '1 day' + $2 AS y", values: ['2 hours', '1 mon'] },
      { sql: "SELECT $1 - interval '1 day' AS x, interval '1 day' - $2 AS y", values: ['3 days', '1 hour'] },
      { sql: "SELECT $1 + timestamptz '2024-01-01 00:00:00+00' AS x", values: ['1 day'] },
      { sql: "SELECT $1 + time '10:00' AS x", values: ['01:30'] },
      {
        sql: "SELECT interval '1 day' * $1 AS x, $2 * interval '1 hour' AS y, interval '1 day' / $3 AS z",
        values: ['1.5', '3', '4'],
      },
      { sql: "SELECT time '10:00' * $1 AS x", values: ['2'] },
      { sql: "SELECT id FROM items WHERE seen > $1::timestamptz - interval '1 hour' ORDER BY id", values: [ts] },
      // $1 - interval is interval - interval, which no timestamp compares with; no such operator
      { sql: "SELECT id FROM items WHERE seen > $1 - interval '1 hour'", values: [ts] },
      { sql: "SELECT $1 * date '2024-01-01' AS x" },
      { sql: "SELECT date '2024-01-01' + $1 AS x" },
      { sql: "SELECT $1 / interval '1 day' AS x" },
    ]);
  });

  it('a use taking any type before one that types the parameter is 42P08, a bare select item typed otherwise too (both were taken)', async () => {
    await same([
      // the optional filter: refused untyped, fine with a type declared or cast, or the other way round
      { sql: 'SELECT id FROM items WHERE $1 IS NULL OR id = $1', values: ['1'] },
      { sql: 'SELECT id FROM items WHERE ($1 IS NULL OR id = $1) AND ($2 IS NULL OR name = $2)', values: ['1', null] },
      { sql: 'SELECT id FROM items WHERE $1 IS NULL OR id = $1 ORDER BY id', types: [20], values: [null] },
      { sql: 'SELECT id FROM items WHERE $1::bigint IS NULL OR id = $1', values: ['2'] },
      { sql: 'SELECT id FROM items WHERE id = $1 OR $1 IS NULL', values: ['1'] },
      { sql: 'SELECT $1, $1 IS NULL', values: ['1'] },
      { sql: "SELECT concat($1, 'x'), $1 + 1 AS y", values: ['1'] },
      { sql: "SELECT $1 + 1 AS y, concat($1, 'x') AS c", values: ['1'] },
      { sql: 'SELECT $1 FROM items WHERE id = $1', values: ['1'] },
      { sql: 'SELECT $1 AS a, length($1) AS b', values: ['1'] },
      {
        sql: 'UPDATE items SET name = $2 WHERE id = $1 AND ($2 IS NULL OR name = $2) RETURNING id',
        values: ['1', 'a'],
      },
      { sql: 'UPDATE items SET name = $2 WHERE id = $1 RETURNING id, name', values: ['1', 'a'] },
    ]);
    const psqlSees = (port: number) =>
      psql(
        port,
        [
          'PREPARE j AS SELECT id FROM items WHERE $1 IS NULL OR id = $1',
          'PREPARE i AS SELECT $1 FROM items WHERE id = $1',
          'PREPARE k (bigint) AS SELECT count(*) FROM items WHERE $1 IS NULL OR id = $1',
          'EXECUTE k (NULL)',
          'EXECUTE k (2)',
          "PREPARE b AS SELECT $1 * date '2024-01-01'",
        ],
        ['-v', 'ON_ERROR_STOP=0', '-v', 'VERBOSITY=verbose'],
      );
    const text = (r: { stdout: string; stderr: string }) =>
      `${r.stdout}${r.stderr}`.replace(/^psql:[^\n]*?ERROR/gm, 'ERROR').replace(/^LOCATION: .*\n/gm, '');
    assert.equal(text(psqlSees(pair.patinaPort)), text(psqlSees(pair.postgresPort)));
  });

  it('a function or sign of an untyped parameter: the type its resolution picks (they were text), 42725 where it finds several', async () => {
    await same([
      {
        sql: 'SELECT abs($1) AS a, sqrt($2) AS b, ceil($3) AS c, floor($3) AS f, sign($1) AS s',
        values: ['-4', '4', '2.5'],
      },
      { sql: 'SELECT to_timestamp($1) AS t', values: ['86400'] },
      // a double's half to even, a numeric's away from zero (they were text, rounded as SQLite rounds)
      { sql: 'SELECT round($1) AS r, round($2, 1) AS s', values: ['2.5', '2.55'] },
      { sql: 'SELECT round($1) AS r, round($2, 1) AS s', values: ['3.5', '-0.25'] },
      { sql: 'SELECT +$1 AS p', values: ['3'] },
      {
        sql: 'SELECT coalesce($1, id) AS c, greatest($2, 2) AS g, nullif($3, 2) AS n FROM items ORDER BY id',
        values: ['5', '7', '2'],
      },
      { sql: 'SELECT lower($1) AS l, upper($1) AS u, length($1) AS n, substr($1, 2) AS s', values: ['AbC'] },
      { sql: 'SELECT -$1 AS m', values: ['3'] },
      { sql: 'SELECT id FROM items WHERE id = -$1', values: ['1'] },
      { sql: 'SELECT -$1 AS m', types: [23], values: ['3'] },
      { sql: "SELECT date_trunc('day', $1) AS d", values: ['2024-01-01 10:00'] },
      { sql: "SELECT to_char($1, 'YYYY') AS y", values: ['2024-01-01'] },
      { sql: 'SELECT extract(year from $1) AS y', values: ['2024-01-01'] },
      { sql: 'SELECT sum($1) AS s', values: ['1'] },
      { sql: "SELECT date_trunc('day', $1::timestamp) AS d", values: ['2024-01-01 10:00'] },
    ]);
  });

  it("a set operation's, VALUES', mod's and ARRAY's parameter takes the other side's type (they were text); an array function of one is 42804", async () => {
    await same([
      { sql: 'SELECT id FROM items UNION SELECT $1 ORDER BY 1', values: ['7'] },
      { sql: 'SELECT $1 AS a UNION ALL SELECT 2 ORDER BY 1', values: ['1'] },
      { sql: 'VALUES (1, 2), ($1, 3)', values: ['5'] },
      { sql: 'SELECT mod($1, 3) AS m, mod(id, $2) AS n FROM items ORDER BY id', values: ['7', '2'] },
      { sql: 'SELECT ARRAY[$1::int, $2] AS a', values: ['1', '2'] },
      { sql: 'SELECT array_length($1, 1) AS n', values: ['{1,2}'] },
      { sql: 'SELECT cardinality($1) AS n', values: ['{1,2}'] },
      { sql: 'SELECT unnest($1) AS n', values: ['{1,2}'] },
      { sql: 'SELECT array_length($1::int[], 1) AS n', values: ['{1,2}'] },
    ]);
  });
});
