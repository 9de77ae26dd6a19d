// GROUP BY (and ORDER BY, DISTINCT ON) terms as PostgreSQL reads them, against PostgreSQL 15: a
// constant term is a select list position when it is an integer and an error otherwise, a position
// naming an aggregate is refused as one written there, a constant expression is one group, and an
// expression grouped as written may be selected (an IN list too). Found by the differential query
// generator; the same statements on Patina and PostgreSQL through node-postgres, compared by value,
// column types, or SQLSTATE, message and position.
import assert from 'node:assert/strict';
import { oracleSuite } from '../helpers/catalog-pair';

const SCHEMA =
  'CREATE TABLE a (id BIGINT NOT NULL PRIMARY KEY, b BIGINT, n NUMERIC(10,2), s TEXT, f BOOLEAN, ts TIMESTAMP);';
const ROWS = [
  `INSERT INTO a VALUES
    (1, 42, 99.99, 'x', true, '2024-01-01 00:00:00'),
    (2, 7, 1.50, 'y', false, '2024-01-02 00:00:00'),
    (3, NULL, NULL, NULL, NULL, NULL),
    (42, 42, 99.99, 'x', true, '2024-01-01 00:00:00')`,
];

describe('GROUP BY terms against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);

  /** The statement's error on both (SQLSTATE, message, position), the same, and not none. */
  const sameError = async (sql: string) => {
    const { patina, postgres } = clients();
    const error = (c: typeof patina) =>
      c.query(sql).then(
        () => 'ran',
        (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
      );
    const want = await error(postgres);
    assert.notEqual(want, 'ran', sql);
    assert.equal(await error(patina), want, sql);
  };

  it('a GROUP BY position past the select list is 42P10 in a set operation member too (and before EXCEPT ALL)', async () => {
    for (const op of ['UNION', 'EXCEPT', 'EXCEPT ALL', 'INTERSECT ALL'])
      await sameError(`SELECT 1 FROM a GROUP BY 7 ${op} SELECT 2`);
    await sameError('SELECT 2 UNION SELECT 1 FROM a GROUP BY 7');
    await sameError('SELECT id FROM a GROUP BY 0 EXCEPT ALL SELECT 2');
    await sameError('SELECT 1 FROM a GROUP BY ROLLUP (1), CUBE (3)');
    // DISTINCT ON reads a position as GROUP BY does (SQLite took the number as a constant)
    await sameError('SELECT DISTINCT ON (3) id FROM a');
    await same('SELECT DISTINCT ON (1) id FROM a ORDER BY 1');
  });

  it('a constant other than an integer is 42601 as a GROUP BY, ORDER BY or DISTINCT ON term', async () => {
    for (const key of ["''", "'x'", 'true', '1.5', 'NULL', '$$x$$', "E'x'", '99999999999'])
      await sameError(`SELECT '' FROM a a1 GROUP BY ${key}`);
    await sameError("SELECT 1 FROM a a1 GROUP BY a1.id, 'x'");
    await sameError("SELECT 1 FROM a a1 GROUP BY ROLLUP (1, 'x')");
    await sameError("SELECT (SELECT 1 FROM a GROUP BY 'x')");
    await sameError("SELECT 1 FROM a a1 GROUP BY 'x' EXCEPT ALL SELECT 1");
    await sameError("SELECT id FROM a ORDER BY 'x'");
    await sameError("SELECT 1 UNION SELECT 2 ORDER BY 'x'");
    await sameError("SELECT id FROM a GROUP BY id HAVING count(*) > 0 ORDER BY 'x'");
    await sameError("SELECT DISTINCT ON ('x') id FROM a");
    // in PostgreSQL's order: the select list's unknown column first, ORDER BY before GROUP BY, GROUP
    // BY before the check of ungrouped columns, the terms from the left
    await sameError("SELECT nosuch FROM a GROUP BY 'x'");
    await sameError("SELECT 1 FROM a GROUP BY 7 ORDER BY 'x'");
    await sameError("SELECT s, count(*) FROM a GROUP BY 'x'");
    await sameError("SELECT 1 FROM a GROUP BY 'x', 7");
    // an expression is no constant term: grouped (or sorted) by its value
    for (const key of ['(1)', '1::int', "'x'::text", 'NULL::int']) await same(`SELECT 1 FROM a a1 GROUP BY ${key}`);
    await same("SELECT string_agg(s, ',' ORDER BY 'x') FROM a WHERE id < 3");
  });

  it('a constant expression SQLite folds into a number is one group, or no sort, not a position', async () => {
    await same("SELECT ('x' IS NULL), count(*) FROM a GROUP BY ('x' IS NULL)");
    await same("SELECT ('2024-01-01'::timestamp IS NULL), count(*) FROM a GROUP BY ('2024-01-01'::timestamp IS NULL)");
    await same("SELECT (' ' IS NOT NULL), count(*) FROM a GROUP BY (' ' IS NOT NULL)");
    await same('SELECT count(*) FROM a GROUP BY (1 IS NULL), 2.5 IS NOT NULL');
    await same("SELECT count(*) FROM a WHERE false GROUP BY ('x' IS NULL)");
    await same('SELECT count(*) FROM a GROUP BY +1');
    await same("SELECT id FROM a ORDER BY ('x' IS NOT NULL), id DESC");
    await same("SELECT id FROM a ORDER BY 'x' IS NULL DESC, id");
  });

  it('an expression grouped as written may be selected: IN lists and ARRAY[...]', async () => {
    await same('SELECT (a1.n IN (99.99)) FROM a a1 GROUP BY (a1.n IN (99.99)) ORDER BY 1');
    await same('SELECT (a1.id IN (42, a1.b)) FROM a a1 GROUP BY (a1.id IN (42, a1.b)) ORDER BY 1');
    await same('SELECT (a1.s NOT IN (a1.s, a1.s)) FROM a a1 GROUP BY (a1.s NOT IN (a1.s, a1.s)) ORDER BY 1');
    await same('SELECT a1.b IN (7, 42), count(*) FROM a a1 GROUP BY a1.b IN (7, 42) ORDER BY 2');
    await same('SELECT ARRAY[a1.b, 1] AS v, count(*) FROM a a1 GROUP BY ARRAY[a1.b, 1] ORDER BY 2, 1');
    // (a column outside the grouped expression is still PostgreSQL's 42803)
    await sameError('SELECT (a1.n IN (99.99)), a1.b FROM a a1 GROUP BY (a1.n IN (99.99))');
  });

  it('GROUP BY () is the empty grouping: one group, even of no rows', async () => {
    await same('SELECT count(*), max(b) FROM a GROUP BY ()');
    await same('SELECT count(*) FROM a WHERE false GROUP BY ()');
    await same('SELECT s, count(*) FROM a GROUP BY s, () ORDER BY 1');
    await same('SELECT count(*) FROM a GROUP BY (), () HAVING count(*) > 1');
    await same('SELECT (SELECT count(*) FROM a GROUP BY ())');
    await sameError('SELECT s, count(*) FROM a GROUP BY ()');
  });

  it('a GROUP BY position or alias naming an aggregate or a window function is refused at the call', async () => {
    await sameError('SELECT 2, max(a1.ts) FROM a a1 GROUP BY 2');
    await sameError('SELECT 2, max(a1.ts) FROM a a1 GROUP BY 1, 2');
    await sameError('SELECT max(a1.ts) AS m FROM a a1 GROUP BY m');
    await sameError('SELECT count(*), 1 FROM a GROUP BY ROLLUP (2, 1)');
    await sameError('SELECT row_number() OVER () FROM a GROUP BY 1');
    await sameError('SELECT count(*) OVER () AS w FROM a GROUP BY w');
    // an alias that is also a column of the FROM is the column
    await same('SELECT max(b) AS b FROM a GROUP BY b ORDER BY 1');
    await same('SELECT 2 AS q, max(ts) FROM a GROUP BY q');
  });
});
