// Statements Patina refused where PostgreSQL 15 runs them, and ran where PostgreSQL refuses them,
// compared on both: values and column types, or SQLSTATE, message and position. A WITH query named
// as a table it reads with another FROM item beside it (`sql/with-reach.ts`: the checks of
// `sql/grouping.ts` took every WITH query of the statement as in reach, 42703).
import assert from 'node:assert/strict';
import { oracleSuite } from '../helpers/catalog-pair';
import type { PgClient } from '../helpers/pg';

const SCHEMA = `CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v INTEGER, name TEXT, arr INTEGER[], tags TEXT[]);
CREATE TABLE u (id BIGINT NOT NULL PRIMARY KEY, t_id BIGINT, x INTEGER);`;
const ROWS = [
  `INSERT INTO t VALUES (1, 10, 'a', '{1,2}', '{x,y}'), (2, 20, 'b', '{3}', '{}'), (3, 20, 'c', NULL, NULL)`,
  'INSERT INTO u VALUES (1, 1, 5), (2, 1, 6), (3, 2, 7)',
];

describe('refused where PostgreSQL runs, and runs where it refuses, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);

  /** What a client sees of `sql`: its rows and column types, or its error (SQLSTATE, message, position). */
  const outcome = async (c: PgClient, sql: string) => {
    try {
      const r = await c.query({ text: sql, rowMode: 'array' });
      return { rows: r.rows, types: r.fields.map((f) => f.dataTypeID) };
    } catch (e) {
      const { code, message, position } = e as { code?: string; message: string; position?: string };
      return { code, message, position };
    }
  };
  /** The same error on both (a SQLSTATE, so neither ran it). */
  const sameError = async (sql: string) => {
    const o = clients();
    const p = await outcome(o.patina, sql);
    assert.deepEqual(p, await outcome(o.postgres, sql), sql);
    assert.ok('code' in p && p.code, `${sql}: refused on both`);
  };

  it('a WITH query reads the table of its name beside another FROM item (was 42703 at the alias)', async () => {
    await same('WITH u AS (SELECT a.x FROM t JOIN u AS a ON a.t_id = t.id) SELECT x::int FROM u ORDER BY x');
    await same(
      'WITH u AS (SELECT a.x, t.v FROM t, u a WHERE a.t_id = t.id) SELECT u.v::int, sum(u.x)::int FROM u GROUP BY u.v ORDER BY 1',
    );
    // a later WITH query's name, and one in a subquery
    await same(
      'WITH a AS (SELECT b.x FROM t JOIN u b ON b.t_id = t.id), u AS (SELECT a.x FROM a) SELECT count(*) FROM u',
    );
    await same(
      'SELECT (SELECT count(*) FROM (WITH u AS (SELECT a.x FROM t JOIN u AS a ON a.t_id = t.id) SELECT x FROM u) s)',
    );
    await same('SELECT id FROM t WHERE EXISTS (WITH u AS (SELECT a.x FROM u a WHERE a.t_id = t.id) SELECT 1 FROM u)');
    // the checks still run there: the table's missing column, a grouped query's ungrouped column
    await sameError('WITH u AS (SELECT a.x FROM t JOIN u AS a ON a.nope = t.id) SELECT * FROM u');
    await sameError('WITH u AS (SELECT t.v, a.x FROM t JOIN u AS a ON a.t_id = t.id GROUP BY t.v) SELECT * FROM u');
    // and a WITH query in reach is read as one (RECURSIVE sees itself)
    await sameError('WITH w AS (SELECT 1 AS z) SELECT a.x FROM w a');
    await same(
      'WITH RECURSIVE u AS (SELECT 1 AS z UNION ALL SELECT a.z + 1 FROM u a WHERE a.z < 3) SELECT a.z::int FROM u a',
    );
  });

  it('a LIMIT or OFFSET of an expression with a fraction is rounded as the numeric is (was 42804)', async () => {
    await same('SELECT id FROM t ORDER BY id LIMIT 0.5 + 1');
    await same('SELECT id FROM t ORDER BY id LIMIT 3 OFFSET 0.5 + 1');
    await same('SELECT id FROM t ORDER BY id LIMIT 1.5 * 1 OFFSET 0.25 + 0.2');
    await same('SELECT id FROM t ORDER BY id LIMIT (SELECT 0.5 + 0.5) + 0.4');
    // rounded half away from zero: -0.5 is -1, refused
    await sameError('SELECT id FROM t ORDER BY id LIMIT 0.5 - 1');
    await sameError('SELECT id FROM t ORDER BY id OFFSET 1.5 - 3');
  });

  it('an array in arithmetic is 42883 operator does not exist (integer[] + integer gave 1)', async () => {
    for (const sql of [
      'SELECT arr + 1 FROM t',
      'SELECT 1 - arr FROM t',
      'SELECT tags * 2 FROM t',
      'SELECT ARRAY[1, 2] + 1',
      'SELECT arr + arr FROM t',
      'SELECT id FROM t WHERE arr * 2 = 4',
      'SELECT arr / 1.5 FROM t',
    ])
      await sameError(sql);
    // an element, a length, concatenation: arithmetic and || as before
    await same(
      'SELECT arr[1]::int + 1, cardinality(arr) * 2, array_length(tags, 1) - 1, (arr || 4)::text FROM t ORDER BY id',
    );
  });

  it("an array beside a string literal, NULL or a parameter sent without a type, or under a prefix operator, is 42883 (arr + '1' gave 1, - arr gave {})", async () => {
    for (const sql of [
      "SELECT arr + '1' FROM t",
      "SELECT '1' - arr FROM t",
      "SELECT arr * '2' FROM t",
      "SELECT arr ^ '2' FROM t",
      "SELECT tags - 'a' FROM t",
      'SELECT \'{"a": 1}\' - arr FROM t',
      'SELECT arr + NULL FROM t',
      "SELECT id FROM t WHERE (arr % '2') IS NULL",
      'SELECT - arr FROM t',
      'SELECT -(arr) FROM t',
      'SELECT + arr FROM t',
      'SELECT ~ arr FROM t',
      'SELECT - tags FROM t',
      "SELECT - '{1}'::int[]",
      'SELECT - ARRAY[1, 2]',
      "SELECT id FROM t WHERE - arr = '{1}'",
      // the innermost first, as PostgreSQL resolves them
      'SELECT 1 - - arr FROM t',
      'SELECT name + (arr + 1) FROM t',
    ])
      await sameError(sql);
    // a parameter sent without a type is unknown there too (it was read as an array: 22P02)
    const o = clients();
    for (const [sql, values] of [
      ['SELECT arr + $1 FROM t', [1]],
      ['SELECT $1 * arr FROM t', ['2']],
    ] as const) {
      const run = (c: PgClient) =>
        c.query({ text: sql, values: [...values], rowMode: 'array' }).then(
          () => 'ran',
          (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
        );
      const p = await run(o.patina);
      assert.match(p, /^42883 operator does not exist: /, sql);
      assert.equal(p, await run(o.postgres), sql);
    }
    // what PostgreSQL runs runs: jsonb's - of text[] (an unknown on its left too), an element's arithmetic
    await same(`SELECT '{"a": 1, "x": 2}' - tags, '{"a": 1}'::jsonb - tags FROM t ORDER BY id`);
    await same("SELECT (- arr[1])::int, (arr[1] + '1')::int, - cardinality(arr) FROM t ORDER BY id");
  });

  it("an outer query's t.* as a subquery's select item is the outer row's columns (was 42P01)", async () => {
    await same('SELECT id FROM t WHERE EXISTS (SELECT t.* FROM u) ORDER BY id');
    await same('SELECT id FROM t WHERE EXISTS (SELECT DISTINCT t.*, u.x FROM u WHERE u.t_id = t.id) ORDER BY id');
    await same('SELECT t.id, (SELECT count(*) FROM (SELECT t.*, u.x FROM u WHERE u.t_id = t.id) s) FROM t ORDER BY 1');
    await same('SELECT id, (SELECT row_to_json(t.*)) FROM t ORDER BY id');
    // more than one column in a scalar subquery: PostgreSQL's 42601 on both
    await sameError('SELECT (SELECT t.*) FROM t');
  });
});
