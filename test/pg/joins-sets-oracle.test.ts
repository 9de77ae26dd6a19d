// Joins and set operations whose names, rows and refusals SQLite gave in its own way: the same
// statements on Patina and on PostgreSQL 15, compared by rows and types, or by SQLSTATE, message,
// position, DETAIL and HINT. Before: a set operation's branches of different widths were SQLite's
// `SELECTs to the left and right of UNION do not have the same number of result columns` (no
// position), its ORDER BY of no result column SQLite's 42000; a USING or NATURAL join over a join
// holding the merged name twice ran, joined on one of them; `FROM u, v NATURAL JOIN w` matched u's
// columns too (fewer rows).
import assert from 'node:assert/strict';
import { oracleSuite } from '../helpers/catalog-pair';
import type { PgClient } from '../helpers/pg';

const SCHEMA = `CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, k TEXT, n BIGINT);
CREATE TABLE u (id BIGINT NOT NULL PRIMARY KEY, a BIGINT, b TEXT);
CREATE TABLE v (id BIGINT NOT NULL PRIMARY KEY, a BIGINT, c TEXT);
CREATE TABLE w (id BIGINT NOT NULL PRIMARY KEY, b TEXT, c TEXT);
CREATE TABLE p (x BIGINT NOT NULL PRIMARY KEY, y TEXT);
CREATE TABLE d (id BIGINT NOT NULL PRIMARY KEY, a BIGINT, b TEXT);
CREATE TABLE e (id BIGINT NOT NULL PRIMARY KEY, f BOOLEAN, day DATE, amount NUMERIC);`;
const ROWS = [
  `INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (3, NULL, NULL)`,
  `INSERT INTO u VALUES (1, 10, 'x'), (2, 20, 'y'), (4, 40, 'z')`,
  `INSERT INTO v VALUES (1, 10, 'p'), (2, 21, 'q'), (5, 50, 'r')`,
  `INSERT INTO w VALUES (1, 'x', 'p'), (2, 'y', 'z'), (6, 'w', 'w')`,
  `INSERT INTO p VALUES (7, 's'), (8, 't')`,
  `INSERT INTO d VALUES (1, 1, 'x'), (2, 1, 'x'), (3, 1, 'x'), (4, 2, NULL), (5, 2, NULL), (6, NULL, NULL), (7, 3, 'y')`,
  `INSERT INTO e VALUES (1, true, '2024-01-02', 1.5), (2, false, '2024-02-03', 2.25)`,
];

/** A statement's error as a client sees it: SQLSTATE, message, position, DETAIL and HINT ('ran' when it ran). */
const failure = (c: PgClient, sql: string) =>
  c.query(sql).then(
    () => 'ran',
    (e: { code?: string; message: string; position?: string; detail?: string; hint?: string }) =>
      `${e.code} ${e.message} @${e.position} detail=${e.detail ?? ''} hint=${e.hint ?? ''}`,
  );

describe('joins and set operations: names, rows and refusals against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);
  /** Fails unless both servers refuse `sql` alike; Patina's refusal. */
  const refusedAlike = async (sql: string) => {
    const { patina, postgres } = clients();
    const p = await failure(patina, sql);
    assert.equal(p, await failure(postgres, sql), sql);
    return p;
  };

  it('set operation branches of different widths: 42601 "each UNION query must have the same number of columns" at the right branch', async () => {
    for (const sql of [
      'SELECT 1, 2 UNION SELECT 1',
      'SELECT id, k FROM t UNION SELECT id FROM u',
      'SELECT id FROM t UNION ALL SELECT 1, 2',
      'SELECT id FROM t INTERSECT SELECT 1, 2',
      'SELECT id FROM t EXCEPT SELECT id, b FROM u',
      'SELECT id FROM t UNION SELECT id FROM u UNION SELECT 1, 2',
      'SELECT id FROM t UNION SELECT u.* FROM u',
      // in a subquery, a WITH query, IN, EXISTS, a scalar subquery, INSERT ... SELECT
      'SELECT * FROM (SELECT id, k FROM t UNION SELECT id FROM u) s',
      'WITH c AS (SELECT 1 UNION SELECT 1, 2) SELECT * FROM c',
      'SELECT id FROM t WHERE id IN (SELECT 1, 2 UNION SELECT 1)',
      'SELECT EXISTS (SELECT 1 UNION SELECT 1, 2)',
      'SELECT (SELECT 1 UNION SELECT 1, 2)',
      "INSERT INTO p SELECT 1, 'a' UNION SELECT 2",
    ])
      assert.match(
        await refusedAlike(sql),
        /^42601 each (UNION|INTERSECT|EXCEPT) query must have the same number of columns @\d+ /,
      );
  });

  it('a set operation of a number beside a boolean or the clock\'s value is 42804 "UNION types bigint and boolean cannot be matched" at the right one (it ran)', async () => {
    for (const sql of [
      'SELECT id FROM t UNION SELECT true',
      'SELECT * FROM (SELECT id FROM t UNION SELECT true) s',
      'SELECT * FROM (SELECT id FROM t UNION SELECT now()) s',
      'SELECT id FROM t UNION ALL SELECT CURRENT_DATE',
      'SELECT id FROM t EXCEPT SELECT false',
      'SELECT k FROM t INTERSECT SELECT true',
    ])
      assert.match(
        await refusedAlike(sql),
        /^42804 (UNION|INTERSECT|EXCEPT) types \w+( \w+)* and [\w ]+ cannot be matched @\d+ /,
        sql,
      );
    // the same category on both sides runs
    for (const sql of [
      'SELECT true UNION SELECT id > 1 FROM t ORDER BY 1',
      'SELECT id, true FROM t UNION SELECT 1, false ORDER BY 1, 2',
      'SELECT CURRENT_DATE = CURRENT_DATE UNION ALL SELECT false ORDER BY 1',
    ])
      assert.ok((await same(sql)).length > 1, sql);
  });

  it("a set operation's ORDER BY of no result column: 42703 for an unknown name, 0A000 for an expression", async () => {
    for (const [sql, code] of [
      ['SELECT id FROM t UNION SELECT id FROM u ORDER BY n', '42703'],
      ['SELECT id FROM t UNION SELECT id FROM u ORDER BY id, zz DESC', '42703'],
      ['SELECT * FROM (SELECT id FROM t UNION ALL SELECT id FROM u ORDER BY zz) s', '42703'],
      ['SELECT id FROM t UNION SELECT id FROM u ORDER BY zz + 1', '42703'],
      ['SELECT id FROM t UNION SELECT id FROM u ORDER BY id + 1', '0A000'],
      ['SELECT id FROM t INTERSECT SELECT id FROM u ORDER BY -id', '0A000'],
      ['SELECT k FROM t EXCEPT SELECT b FROM u ORDER BY lower(k)', '0A000'],
      ['SELECT * FROM (SELECT id FROM t UNION SELECT id FROM u ORDER BY id + 1) s', '0A000'],
    ] as const)
      assert.match(await refusedAlike(sql), new RegExp(`^${code} .* @\\d+ `), sql);
    // a result column's name, or its position, sorts
    for (const sql of [
      'SELECT id FROM t UNION SELECT id FROM u ORDER BY id DESC',
      'SELECT id AS i, k FROM t UNION SELECT id, b FROM u ORDER BY i, 2',
    ])
      assert.ok((await same(sql)).length > 3, sql);
  });

  it('a USING or NATURAL join whose side holds the merged name twice is 42702 "common column name ... appears more than once"', async () => {
    for (const sql of [
      'SELECT * FROM (u JOIN v ON u.id = v.id) NATURAL JOIN w',
      'SELECT * FROM w NATURAL JOIN (u JOIN v ON u.id = v.id)',
      'SELECT * FROM (u JOIN v ON true) JOIN w USING (id)',
      'SELECT * FROM w JOIN (u JOIN v ON true) USING (id)',
      'SELECT * FROM u JOIN v ON u.id = v.id JOIN w USING (id)',
      'SELECT * FROM (u JOIN v USING (id)) NATURAL JOIN (SELECT 1 AS a) s',
      'SELECT count(*) FROM u CROSS JOIN v NATURAL LEFT JOIN w',
    ])
      assert.match(
        await refusedAlike(sql),
        /^42702 common column name "\w+" appears more than once in (left|right) table @undefined /,
        sql,
      );
    // a merged name once on each side, or a name only one side has twice, joins
    for (const sql of [
      'SELECT * FROM (u JOIN v USING (id)) NATURAL JOIN w ORDER BY 1',
      'SELECT * FROM (u JOIN v USING (id, a)) NATURAL JOIN w ORDER BY 1',
      'SELECT * FROM u JOIN v USING (id) JOIN w USING (b, c) ORDER BY 1',
      'SELECT * FROM (u JOIN v USING (id)) NATURAL JOIN (SELECT 1 AS id, 2 AS a2) s ORDER BY 1',
    ])
      await same(sql);
  });

  it('a USING or NATURAL join after a comma joins its own items first, as PostgreSQL binds it (SQLite matched the items before the comma too)', async () => {
    for (const sql of [
      'SELECT * FROM u, v NATURAL JOIN w ORDER BY 1, 4',
      'SELECT count(*) FROM u, v NATURAL JOIN w',
      'SELECT * FROM u, v JOIN w USING (id) ORDER BY 1, 4',
      'SELECT * FROM u, v NATURAL LEFT JOIN w ORDER BY 1, 4, 5',
      'SELECT * FROM p, u NATURAL JOIN v ORDER BY 1, 3',
      'SELECT u.id, v.id, c FROM u, v NATURAL JOIN w WHERE u.id < 4 ORDER BY 1',
      'SELECT p.x, t.id, u.id, w.c FROM p, t, u JOIN v USING (id) JOIN w USING (id) ORDER BY 1, 2, 3',
      'SELECT x.id FROM p, (SELECT * FROM u) x NATURAL JOIN v ORDER BY 1',
      'SELECT * FROM u, v NATURAL JOIN w, p ORDER BY 1, 8',
      'SELECT (SELECT count(*) FROM u, v NATURAL JOIN w) AS n',
    ]) {
      const rows = await same(sql);
      assert.ok(rows.length > 0, sql);
    }
    assert.deepEqual(await same('SELECT count(*) FROM u, v NATURAL JOIN w'), [['3']]);
  });

  it('an ON condition after a comma naming an item before it is 42P01 "invalid reference to FROM-clause entry" with its HINT (it ran)', async () => {
    for (const sql of [
      'SELECT u.id FROM u, v JOIN w ON u.id = w.id',
      'SELECT 1 FROM u, v JOIN w ON v.id = w.id AND w.b = u.b',
      'SELECT 1 FROM u AS uu, v JOIN w ON uu.id = w.id',
      'SELECT 1 FROM u, v JOIN w ON u.id = w.id JOIN p ON p.x = v.id',
      'SELECT 1 FROM u, v LEFT JOIN w ON w.id = u.id',
      'SELECT 1 FROM t, u, v JOIN w ON t.id = w.id',
      'SELECT (SELECT count(*) FROM u, v JOIN w ON u.id = w.id)',
    ])
      assert.match(
        await refusedAlike(sql),
        /^42P01 invalid reference to FROM-clause entry for table "\w+" @\d+ detail= hint=There is an entry for table/,
        sql,
      );
    // a chain's own items, and an outer query's, it reads
    for (const sql of [
      'SELECT u.id, v.id, w.id FROM u, v JOIN w ON v.id = w.id ORDER BY 1, 2',
      'SELECT * FROM u, v JOIN w ON v.id = w.id ORDER BY 1, 4',
      'SELECT u.id, w.c FROM u, v JOIN w ON a = 10 AND w.id = v.id ORDER BY 1',
      'SELECT u.id, (SELECT count(*) FROM v, w JOIN p ON p.x = u.id + 6) FROM u ORDER BY 1',
      'SELECT count(*) FROM p, u JOIN v ON u.id = v.id LEFT JOIN w ON w.id = v.id',
    ])
      assert.ok((await same(sql)).length > 0, sql);
  });

  it("a NATURAL or USING join of a LATERAL subquery after a comma is 0A000 (it matched the columns before the comma and json_each's too: wrong rows)", async () => {
    const { patina, postgres } = clients();
    for (const sql of [
      "SELECT * FROM u, LATERAL (SELECT u.id AS id, 'q' AS c) s NATURAL JOIN v ORDER BY 1, 4",
      'SELECT count(*) FROM u, LATERAL (SELECT v.id FROM v WHERE v.id <= u.id) s JOIN w USING (id)',
      'SELECT count(*) FROM u, LATERAL (SELECT v.id FROM v WHERE v.id <= u.id) s NATURAL LEFT JOIN w',
    ]) {
      assert.ok((await postgres.query(sql)).rows.length > 0, sql);
      assert.match(await failure(patina, sql), /^0A000 a NATURAL or USING join of a LATERAL subquery/, sql);
    }
    // joined with ON, it runs
    await same('SELECT count(*) FROM u, LATERAL (SELECT v.id FROM v WHERE v.id <= u.id) s JOIN w ON s.id = w.id');
  });

  it("a set operation's ORDER BY of a qualified name or of a name only a later query has is 42P01 or 42703 at the term (it sorted)", async () => {
    for (const sql of [
      'SELECT id FROM t UNION SELECT id FROM u ORDER BY t.id',
      '(SELECT id FROM t) UNION (SELECT id FROM u) ORDER BY t.id',
      'SELECT id, k FROM t UNION ALL SELECT id, b FROM u ORDER BY 1, u.b DESC',
      'SELECT * FROM (SELECT id FROM t EXCEPT SELECT id FROM u ORDER BY x.id) s',
      'SELECT id FROM t INTERSECT SELECT id FROM u ORDER BY u.id LIMIT 1',
      'SELECT id AS i FROM t UNION SELECT id FROM u ORDER BY id',
      'SELECT id AS i FROM t UNION SELECT id AS j FROM u UNION SELECT x FROM p ORDER BY x',
      'SELECT id FROM t UNION SELECT id FROM u ORDER BY id, n',
    ])
      assert.match(await refusedAlike(sql), /^(42P01 missing FROM-clause entry|42703 column) .* @\d+ /, sql);
    // the first query's names, figured ones too, and positions sort
    for (const sql of [
      'SELECT count(*) AS n FROM t UNION SELECT 1 ORDER BY n',
      'SELECT count(*) FROM t UNION SELECT 1 ORDER BY count',
      'SELECT * FROM t UNION SELECT * FROM t ORDER BY k, 1',
      "SELECT k::text FROM t UNION SELECT 'z' ORDER BY k",
      'VALUES (2), (1) UNION SELECT 3 ORDER BY column1',
    ])
      assert.ok((await same(sql)).length > 1, sql);
  });

  it('EXCEPT ALL and INTERSECT ALL keep max(m - n, 0) and min(m, n) copies of a row, NULLs equal (they were 0A000)', async () => {
    for (const sql of [
      'SELECT a, b FROM d EXCEPT ALL SELECT a, b FROM d WHERE id IN (1, 4, 6) ORDER BY 1, 2',
      'SELECT a, b FROM d INTERSECT ALL SELECT a, b FROM d WHERE id IN (1, 2, 4, 6) ORDER BY a, b',
      'SELECT b FROM d INTERSECT ALL SELECT b FROM d WHERE id > 3 ORDER BY 1',
      'SELECT a AS x FROM d EXCEPT ALL SELECT 1 ORDER BY x',
      "SELECT b, a::numeric FROM d EXCEPT ALL SELECT 'x', 1 ORDER BY 1, 2",
      'VALUES (1), (1), (2) EXCEPT ALL VALUES (1) ORDER BY 1',
      // INTERSECT binds tighter than UNION and EXCEPT; the others from the left
      'SELECT a FROM d UNION ALL SELECT a FROM d INTERSECT ALL SELECT 1 ORDER BY 1',
      'SELECT a FROM d UNION SELECT 9 INTERSECT ALL SELECT 9 ORDER BY 1',
      'SELECT a FROM d EXCEPT ALL SELECT a FROM d WHERE a = 1 EXCEPT ALL SELECT 2 ORDER BY 1',
      'SELECT a FROM d EXCEPT ALL SELECT a FROM d INTERSECT SELECT 1 ORDER BY 1',
      'SELECT a FROM d UNION ALL (SELECT 1 EXCEPT ALL SELECT 2) ORDER BY 1',
      '(SELECT a FROM d ORDER BY id LIMIT 4) EXCEPT ALL (SELECT 1) ORDER BY 1',
      // in a subquery, a WITH query, IN, a correlated scalar subquery
      'SELECT s.b, count(*) FROM (SELECT b FROM d EXCEPT ALL SELECT b FROM u) s GROUP BY s.b ORDER BY 1',
      'WITH x AS (SELECT a FROM d WHERE a IS NOT NULL) SELECT a FROM x EXCEPT ALL SELECT 1 ORDER BY 1',
      'WITH x AS (SELECT a FROM d WHERE a IS NOT NULL) SELECT * FROM x INTERSECT ALL SELECT * FROM x WHERE a = 1 ORDER BY 1',
      'SELECT id FROM d WHERE a IN (SELECT a FROM d EXCEPT ALL SELECT 1) ORDER BY 1',
      'SELECT id, (SELECT count(*) FROM (SELECT a FROM d WHERE a < t.id EXCEPT ALL SELECT 1) s) FROM t ORDER BY 1',
      // UNION DISTINCT and EXCEPT DISTINCT are the set forms (SQLite's syntax error)
      "SELECT b FROM d EXCEPT DISTINCT SELECT 'x' ORDER BY 1",
      'SELECT a FROM d UNION DISTINCT SELECT 1 ORDER BY 1',
    ])
      assert.ok((await same(sql)).length > 0, sql);
    assert.deepEqual(await same('SELECT count(*) FROM (SELECT a FROM d EXCEPT ALL SELECT 1) s'), [['6']]);
    assert.deepEqual(await same('SELECT a, b FROM d INTERSECT ALL SELECT $1::bigint, $2 ORDER BY 1', [1, 'x']), [
      ['1', 'x'],
    ]);
    // queries of different widths: 42601 at the right query, as before SQLite
    for (const sql of [
      'SELECT a, b FROM d EXCEPT ALL SELECT 1',
      'SELECT * FROM (SELECT a FROM d INTERSECT ALL SELECT 1, 2) s',
    ])
      assert.match(
        await refusedAlike(sql),
        /^42601 each (EXCEPT|INTERSECT) query must have the same number of columns @\d+ /,
      );
  });

  it('a chain of the set forms with INTERSECT after UNION or EXCEPT binds INTERSECT tighter, parentheses as written (it was 0A000)', async () => {
    for (const sql of [
      'SELECT a FROM d UNION SELECT id FROM t INTERSECT SELECT a FROM u ORDER BY 1',
      'SELECT a FROM d EXCEPT SELECT id FROM t INTERSECT SELECT id FROM u ORDER BY 1',
      'SELECT a FROM d UNION ALL SELECT id FROM t INTERSECT SELECT id FROM u ORDER BY 1',
      'SELECT a FROM d EXCEPT ALL SELECT id FROM t INTERSECT SELECT id FROM u ORDER BY 1',
      'SELECT a FROM d UNION (SELECT id FROM t INTERSECT SELECT id FROM u) ORDER BY 1',
      '(SELECT a FROM d UNION SELECT id FROM t) INTERSECT SELECT id FROM u ORDER BY 1',
      'SELECT id FROM t INTERSECT SELECT id FROM u UNION SELECT a FROM d INTERSECT SELECT 3 EXCEPT SELECT 2 ORDER BY 1',
      'SELECT a, b FROM d UNION SELECT id, k FROM t INTERSECT SELECT a, b FROM u ORDER BY 1, 2',
      'SELECT a AS z FROM d UNION SELECT id FROM t INTERSECT SELECT id FROM u ORDER BY z',
      // in a subquery, a WITH query's statement, IN
      'SELECT * FROM (SELECT a FROM d UNION SELECT id FROM t INTERSECT SELECT id FROM u) s ORDER BY 1',
      'WITH x AS (SELECT a FROM d) SELECT a FROM x UNION SELECT 7 INTERSECT SELECT a FROM x ORDER BY 1',
      'SELECT id FROM t WHERE id IN (SELECT 9 UNION SELECT id FROM u INTERSECT SELECT 2) ORDER BY 1',
    ])
      assert.ok((await same(sql)).length > 0, sql);
    assert.deepEqual(
      await same('SELECT count(*) FROM (SELECT a FROM d EXCEPT SELECT id FROM t INTERSECT SELECT id FROM u) s'),
      [['2']],
    );
    assert.match(
      await refusedAlike('SELECT a FROM d UNION SELECT id FROM t INTERSECT SELECT id, a FROM u'),
      /^42601 each INTERSECT query must have the same number of columns @\d+ /,
    );
  });

  it("an unknown literal in a set operation's column of integers or booleans is read as one: 22P02 at a bad one", async () => {
    for (const sql of [
      "SELECT a FROM d EXCEPT SELECT 'x' ORDER BY 1",
      "SELECT id FROM t UNION SELECT 'x' ORDER BY 1",
      "SELECT a FROM d EXCEPT SELECT 'x' LIMIT 2",
      "SELECT a FROM d UNION SELECT 'x' AS z",
      "SELECT a FROM d EXCEPT ALL SELECT 'x'",
      "SELECT a FROM d INTERSECT ALL SELECT 'x' ORDER BY 1",
      "SELECT true UNION SELECT 'x'",
    ])
      assert.match(
        await refusedAlike(sql),
        /^22P02 invalid input syntax for type (bigint|boolean): "x" @\d+ detail= hint=$/,
        sql,
      );
    // a literal that is one runs, one row for a number it repeats
    for (const sql of [
      "SELECT a FROM d INTERSECT SELECT '1' ORDER BY 1",
      "SELECT a FROM d INTERSECT ALL SELECT '1' ORDER BY 1",
      "SELECT a FROM d UNION SELECT '5' AS z ORDER BY 1",
      "SELECT a FROM d EXCEPT SELECT '2' ORDER BY 1",
    ])
      assert.ok((await same(sql)).length > 0, sql);
  });

  it("an unknown literal beside a boolean, a number, a date or a time in a set operation is of its type (true UNION 'yes' was bigint, a date text)", async () => {
    for (const sql of [
      "SELECT true UNION SELECT 'yes'",
      "SELECT 'no' UNION ALL SELECT true ORDER BY 1",
      "SELECT true UNION ALL SELECT 'no' UNION SELECT 'on' ORDER BY 1",
      "SELECT f FROM e UNION SELECT 'yes' ORDER BY 1",
      "SELECT true UNION SELECT NULL UNION SELECT 'no' ORDER BY 1",
      "SELECT day FROM e UNION SELECT '2024-5-06' ORDER BY 1",
      "SELECT DATE '2024-01-01' UNION SELECT '2024-01-02' ORDER BY 1",
      "SELECT day FROM e UNION SELECT '2024-01-01 10:00'::timestamp UNION SELECT '2024-01-01 10:00' ORDER BY 1",
      "SELECT TIME '10:00' UNION SELECT '11:00:30' ORDER BY 1",
      "SELECT amount FROM e UNION SELECT '1.25' ORDER BY 1",
      "SELECT 1.5 UNION SELECT '2.5' ORDER BY 1",
      "SELECT id, k FROM t UNION VALUES (4, 'd') ORDER BY 1",
      "VALUES (1, 'a') UNION SELECT 3, 'c' ORDER BY 1",
    ])
      await same(sql);
    // a literal that is none, a VALUES list of text beside another type (42804 with no position, as
    // the list's column has none), an untyped pair (text) beside a boolean
    for (const sql of [
      "SELECT day FROM e UNION SELECT 'x'",
      "SELECT id FROM t EXCEPT VALUES ('x')",
      "SELECT id FROM t UNION VALUES ('3')",
      'SELECT k FROM t EXCEPT VALUES (1)',
      "SELECT true EXCEPT VALUES ('x')",
      "VALUES ('x') UNION SELECT 1",
      "SELECT NULL UNION SELECT 'yes' UNION SELECT true",
    ])
      assert.notEqual(await refusedAlike(sql), 'ran', sql);
  });

  it("a misspelt name in a set operation's ORDER BY has PostgreSQL's HINT of the nearest columns of its queries", async () => {
    for (const sql of [
      'SELECT id FROM t UNION SELECT id FROM u ORDER BY idd',
      'SELECT id AS ident FROM t UNION SELECT id FROM u ORDER BY idents',
      'SELECT id, k FROM t UNION SELECT id, b FROM u UNION SELECT x, y FROM p ORDER BY idd',
      'SELECT k FROM t EXCEPT SELECT b FROM u ORDER BY kk',
      'SELECT count(*) FROM t UNION SELECT 1 ORDER BY countt',
    ])
      assert.match(
        await refusedAlike(sql),
        /^42703 column "\w+" does not exist @\d+ detail= hint=Perhaps you meant to reference the column "\*SELECT\* 1\.\w+"/,
        sql,
      );
    // three as near, or none near: no HINT
    for (const sql of [
      'SELECT id FROM t UNION SELECT id FROM u UNION SELECT id FROM v ORDER BY idd',
      'SELECT id FROM t UNION SELECT id FROM u ORDER BY zzz',
    ])
      assert.match(await refusedAlike(sql), /^42703 .* hint=$/, sql);
  });

  it('a qualified name of a table under an alias with a column list inside an aggregate (string_agg(x.b ORDER BY x.a) FROM t AS x(a, b)) is the renamed column (it was 42703)', async () => {
    for (const sql of [
      "SELECT string_agg(x.b, ',' ORDER BY x.a) FROM t AS x(a, b)",
      "SELECT string_agg(x.b, ',') FROM t AS x(a, b)",
      'SELECT array_agg(x.a ORDER BY x.b) FROM t AS x(a, b)',
      'SELECT x.n, count(*) FROM t AS x(a, b) GROUP BY x.n ORDER BY 1',
    ])
      assert.ok((await same(sql)).length > 0, sql);
    // the table's own name of a renamed column is 42703 at it
    for (const sql of [
      "SELECT string_agg(x.k, ',' ORDER BY x.a) FROM t AS x(a, b)",
      "SELECT string_agg(x.b, ',' ORDER BY x.zz) FROM t AS x(a, b)",
    ])
      assert.match(await refusedAlike(sql), /^42703 column x\.\w+ does not exist @\d+ /, sql);
  });

  it('EXCEPT ALL and INTERSECT ALL inside a LATERAL subquery whose first select list is of names (it was 0A000)', async () => {
    for (const sql of [
      'SELECT u.id, s.a FROM u, LATERAL (SELECT a FROM d WHERE a <= u.id EXCEPT ALL SELECT 1) s ORDER BY 1, 2',
      'SELECT u.id, s.a FROM u, LATERAL (SELECT a FROM d WHERE a <= u.id INTERSECT ALL SELECT 1) s ORDER BY 1, 2',
      "SELECT u.id, s.x, s.b FROM u CROSS JOIN LATERAL (SELECT d.a AS x, b FROM d WHERE d.a <= u.id EXCEPT ALL SELECT 1, 'x') s ORDER BY 1, 2, 3",
      'SELECT u.id, s.* FROM u LEFT JOIN LATERAL (SELECT a FROM d WHERE a < u.id EXCEPT ALL SELECT a FROM d WHERE a = 1) s ON true ORDER BY 1, 2',
      'SELECT u.id, s.a FROM u, LATERAL (SELECT a FROM d WHERE a <= u.id EXCEPT ALL SELECT 1 ORDER BY 1 LIMIT 2) s ORDER BY 1, 2',
      'SELECT u.id, s.a FROM u, LATERAL (SELECT a FROM d WHERE a <= u.id UNION SELECT 7 INTERSECT SELECT 7) s ORDER BY 1, 2',
    ])
      assert.ok((await same(sql)).length > 2, sql);
  });

  it('NATURAL joins of no common column (a cross join) and of three tables, as PostgreSQL names their columns', async () => {
    for (const sql of [
      'SELECT * FROM u NATURAL JOIN p ORDER BY 1, 4',
      'SELECT * FROM u NATURAL JOIN v NATURAL JOIN w ORDER BY 1',
      'SELECT * FROM u NATURAL JOIN w NATURAL JOIN v ORDER BY 1',
      'SELECT * FROM u NATURAL JOIN p NATURAL JOIN t ORDER BY 1, 4, 6',
      'SELECT * FROM (u NATURAL JOIN v) NATURAL JOIN w ORDER BY 1',
      'SELECT * FROM u NATURAL FULL JOIN w ORDER BY 1',
      'SELECT * FROM t AS x(id, k) JOIN u USING (id) ORDER BY 1',
      'SELECT * FROM t AS x(a, k) NATURAL JOIN u ORDER BY 1, 2',
    ])
      await same(sql);
  });
});
