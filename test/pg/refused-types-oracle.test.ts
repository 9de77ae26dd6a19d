// Statements PostgreSQL refuses for their values' types, which SQLite's loose typing ran and
// answered: calls of string literals alone (`generate_series('1', '2')`, `to_json('a')`), values of
// two type categories where PostgreSQL wants one type, text compared with or added to a number
// through a subquery or WITH query. Each on Patina and on PostgreSQL 15: the same SQLSTATE, message,
// HINT and position, or the same rows.
import assert from 'node:assert/strict';
import { oracleSuite } from '../helpers/catalog-pair';
import type { PgClient } from '../helpers/pg';

const SCHEMA = `CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', b BOOLEAN NOT NULL DEFAULT true);
CREATE TABLE u (id INTEGER NOT NULL PRIMARY KEY, name TEXT, x INTEGER, big BIGINT);
CREATE TABLE log (id INTEGER NOT NULL PRIMARY KEY, log TEXT);`;
const ROWS = [
  `INSERT INTO t (id, name) VALUES (1, 'a'), (2, 'b')`,
  `INSERT INTO u (id, name, x, big) VALUES (1, 'a', 5, 99999999999)`,
  `INSERT INTO log (id, log) VALUES (1, 'x')`,
];

/** A statement's outcome as a client sees it: its rows, or SQLSTATE, message, HINT and position. */
const outcome = (c: PgClient, sql: string) =>
  c.query({ text: sql, rowMode: 'array' }).then(
    (r) => `ran ${JSON.stringify(r.rows)}`,
    (e: { code?: string; message: string; hint?: string; position?: string }) =>
      `${e.code} ${e.message} | ${e.hint ?? ''} @${e.position}`,
  );

describe('statements PostgreSQL refuses for their types, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { clients } = oracleSuite(SCHEMA, ROWS);

  /** Runs each statement on both servers: the same outcome, one that matches `expected`. */
  async function sameOutcomes(sqls: string[], expected: RegExp): Promise<void> {
    const { patina, postgres } = clients();
    for (const sql of sqls) {
      const p = await outcome(patina, sql);
      assert.match(p, expected, sql);
      assert.equal(p, await outcome(postgres, sql), sql);
    }
  }

  it("text through a subquery or WITH query beside a number is PostgreSQL's 42883 or 42804 (SELECT x + 1 FROM (SELECT name AS x ...) answered 1, also a column renamed by a column list, q(z); a CTE's text column in a UNION with an integer ran)", async () => {
    await sameOutcomes(
      [
        'SELECT x + 1 FROM (SELECT name AS x FROM t) q',
        'SELECT q.x + 1 FROM (SELECT name AS x FROM t) q',
        'SELECT x + 1 FROM (SELECT y AS x FROM (SELECT name AS y FROM t) r) q',
        "SELECT x + 1 FROM (SELECT 'a' AS x) q",
        'SELECT x = 1 FROM (SELECT name::text AS x FROM t) q',
        'WITH c AS (SELECT name FROM t) SELECT name FROM c UNION SELECT id FROM t',
        'WITH c AS (SELECT name FROM t) SELECT id FROM t UNION SELECT name FROM c',
        'WITH c AS (SELECT name FROM t) SELECT c.name FROM c, t WHERE c.name = t.id',
        // a column renamed by a column list (it answered 1)
        'SELECT z + 1 FROM (SELECT name FROM t) q(z)',
        'SELECT q.z = 1 FROM (SELECT id, name FROM t) AS q(k, z)',
        'SELECT z + 1 FROM (SELECT DISTINCT t.name AS n FROM t) q(z)',
        "SELECT z + 1 FROM (SELECT 'a') q(z)",
        'WITH c(z) AS (SELECT name FROM t) SELECT z + 1 FROM c',
        'WITH c(k, z) AS MATERIALIZED (SELECT id, name FROM t) SELECT k FROM c WHERE z = 1',
        'WITH a AS (SELECT 1), c(z) AS (SELECT name FROM t) SELECT z + 1 FROM c',
        // a subquery on the left of the operator
        'SELECT (SELECT name FROM t LIMIT 1) = id FROM t',
        'SELECT id FROM t WHERE (SELECT name FROM t LIMIT 1) = id',
        'SELECT (SELECT name FROM t LIMIT 1) + 1',
        // what PostgreSQL runs runs
        "SELECT x || 'a' FROM (SELECT name AS x FROM t ORDER BY id) q",
        "SELECT x FROM (SELECT name AS x FROM t) q WHERE x = 'a'",
        'SELECT (z + 1)::int FROM (SELECT id FROM t ORDER BY id) q(z)',
        "WITH c(k, z) AS (SELECT id, name FROM t) SELECT (k + 1)::int FROM c WHERE z = 'a'",
        'SELECT (SELECT count(*) FROM t) > 0',
      ],
      /^(42883 operator does not exist: (text|integer) [=+] (text|integer) \| No operator matches the given name and argument types\. You might need to add explicit type casts\. @\d+|42804 UNION types [a-z]+ and [a-z]+ cannot be matched \| {2}@\d+|ran \[)/,
    );
  });

  it('a boolean beside an integer in a VALUES column is 42804 (VALUES (1), (true) gave 1 and 1); an ARRAY of string literals is text[], which an integer has no = ANY with (42883; it found the row)', async () => {
    await sameOutcomes(
      [
        'VALUES (1), (true)',
        'SELECT * FROM (VALUES (1), (true)) v',
        "SELECT id FROM t WHERE id = ANY (ARRAY['1', '2'])",
        "SELECT id FROM t WHERE id <> ALL (ARRAY['1', '2'])",
        // what PostgreSQL runs runs
        'VALUES (true), (false)',
        'VALUES (1, true), (2, false)',
        "SELECT name FROM t WHERE name = ANY (ARRAY['a', 'c'])",
        "SELECT name FROM t WHERE id = ANY (ARRAY[1, '2']) ORDER BY id",
        "SELECT name FROM t WHERE id = ANY ('{1,2}') ORDER BY id",
      ],
      /^(42804 VALUES types integer and boolean cannot be matched \| {2}@\d+|42883 operator does not exist: integer (=|<>) text \| No operator matches the given name and argument types\. You might need to add explicit type casts\. @\d+|ran \[)/,
    );
  });

  it("a string literal beyond int4's range compared with an INTEGER column is 22003 at the literal (x = '99999999999' found no row, x < '99999999999' every row)", async () => {
    await sameOutcomes(
      [
        "SELECT id FROM u WHERE x = '99999999999'",
        "SELECT id FROM u WHERE x < '99999999999'",
        "SELECT id FROM u WHERE x = '-2147483649'",
        // what PostgreSQL runs runs: a BIGINT column's range is int8's
        "SELECT name FROM u WHERE big = '99999999999'",
        "SELECT name FROM u WHERE x < '2147483647'",
      ],
      /^(22003 value "-?\d+" is out of range for type integer \| {2}@\d+|ran \[\["a"\]\])$/,
    );
  });

  it('a reference to a name a column list gives two columns (FROM log AS x(log) of a table (id, log)) is 42702 at it (SQLite read the first)', async () => {
    await sameOutcomes(
      [
        'SELECT x.log FROM log AS x(log)',
        'SELECT log FROM log AS x(log)',
        // what PostgreSQL runs runs
        'SELECT x.log FROM log AS x(k)',
      ],
      /^(42702 column reference "log" is ambiguous \| {2}@8|ran \[\[)/,
    );
  });

  it("a call of string literals alone PostgreSQL cannot resolve is its 42725 or 42804 (generate_series('1', '2') never ended; to_json('a') answered)", async () => {
    await sameOutcomes(
      [
        "SELECT generate_series('1', '2')",
        "SELECT * FROM generate_series('1', '2')",
        "SELECT to_json('a')",
        "SELECT to_jsonb('a')",
        "SELECT array_length('{1,2}', 1)",
        "SELECT date_trunc('day', '2024-01-01')",
        "SELECT extract(year FROM '2024-01-01')",
        "SELECT sum('1')",
        "SELECT unnest('{1,2}')",
      ],
      /^(42725 function [a-z_.]+\((unknown(, )?)+\) is not unique \| Could not choose a best candidate function\. You might need to add explicit type casts\. @\d+|42804 could not determine polymorphic type because input has type unknown \| {2}@undefined)$/,
    );
    // a literal beside a typed argument is read as its type, as there (it gave one row: '1', '11', ...)
    const { patina, postgres } = clients();
    for (const sql of ["SELECT g::int FROM generate_series('1', 3) g", "SELECT generate_series(1, '3')"])
      assert.equal(await outcome(patina, sql), await outcome(postgres, sql), sql);
    assert.equal(await outcome(patina, "SELECT g::int FROM generate_series('1', 3) g"), 'ran [[1],[2],[3]]');
  });
});
