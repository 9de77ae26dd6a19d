// Result column types of `*` over joins with a subquery (derived table), against PostgreSQL 15: a
// subquery's numeric columns were float8 (and printed as doubles) when `*` spread a join of it.
import assert from 'node:assert/strict';
import { oracleSuite } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE m (id BIGINT NOT NULL PRIMARY KEY, n NUMERIC(10,2), x NUMERIC, q BIGINT, f FLOAT8);`;
const ROWS = [
  `INSERT INTO m VALUES (1, 12.5, 1.5, 3, 1.5), (2, 0.10, 2, 1, 2.5), (3, 19.99, 0.25, 2, -1), (4, NULL, NULL, NULL, NULL)`,
];

describe('result types of * over joins of derived tables, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);

  it('* over a subquery JOIN a table USING or ON types the subquery numeric columns numeric (were float8)', async () => {
    for (const sql of [
      'SELECT * FROM (SELECT q, sum(n) AS s, n * 2 AS d FROM m GROUP BY q, n) s JOIN m USING (q) ORDER BY id',
      'SELECT * FROM (SELECT q, sum(n) AS s FROM m GROUP BY q) s JOIN m ON s.q = m.q ORDER BY id',
      'SELECT * FROM (SELECT q, sum(n) AS s FROM m GROUP BY q) s LEFT JOIN m USING (q) ORDER BY id',
      'SELECT * FROM (SELECT q, sum(n) AS s FROM m GROUP BY q) s NATURAL JOIN m ORDER BY id',
      'SELECT * FROM (SELECT q, sum(n) AS s FROM m GROUP BY q) s, m WHERE s.q = m.q ORDER BY id',
      'SELECT * FROM m AS a JOIN (SELECT q AS id, max(n) + 1 AS t FROM m GROUP BY q) s USING (id) ORDER BY id',
      'SELECT m.*, s.* FROM (SELECT q, sum(n) AS s FROM m GROUP BY q) s JOIN m ON s.q = m.q ORDER BY id',
      // a subquery joined to a subquery, and a query of the WITH clause
      'SELECT * FROM (SELECT q, sum(n) AS s FROM m GROUP BY q) s JOIN (SELECT q, min(x) AS lo FROM m GROUP BY q) t USING (q) ORDER BY q',
      'WITH w AS (SELECT q, sum(n) AS s FROM m GROUP BY q) SELECT * FROM w JOIN m USING (q) ORDER BY id',
    ])
      await same(sql);
  });

  it("* over a USING or NATURAL join spreads the merged columns first, once (SQLite kept the left side's order)", async () => {
    for (const sql of [
      'SELECT * FROM m JOIN (SELECT q, sum(n) AS s FROM m GROUP BY q) s USING (q) ORDER BY id',
      'SELECT * FROM m LEFT JOIN (SELECT q, max(f) AS f2 FROM m GROUP BY q) s USING (q) ORDER BY id',
      'SELECT * FROM m a JOIN m b USING (n, q) ORDER BY 1, 2',
      'SELECT * FROM m a JOIN m b USING (q, n) ORDER BY 1, 2',
      'SELECT * FROM m NATURAL JOIN (SELECT q, f FROM m) s ORDER BY id',
      'SELECT *, 1 AS k FROM m JOIN (SELECT q, id AS i FROM m) s USING (q) ORDER BY id',
      'SELECT * FROM (SELECT id, q FROM m) a JOIN (SELECT q, f FROM m) b USING (q) JOIN m c USING (id) ORDER BY id',
      'SELECT x.* FROM (SELECT * FROM m JOIN (SELECT q, f AS g FROM m) s USING (q)) x ORDER BY 2',
      // an expression column of the subquery SQLite names otherwise (sum(n)): still SQLite's order
      'SELECT q, id FROM (SELECT * FROM m JOIN (SELECT q, sum(n) FROM m GROUP BY q) s USING (q)) x ORDER BY id',
    ])
      await same(sql);
  });

  it("* over a RIGHT or FULL join that merges, a WITH query, a subquery's unnamed columns or a join's alias: PostgreSQL's order and names (they were SQLite's)", async () => {
    for (const sql of [
      // the merged column: the right side's value after RIGHT JOIN, coalesce of both after FULL JOIN
      'SELECT * FROM m a RIGHT JOIN (SELECT q, f AS g FROM m WHERE id > 1) b USING (q) ORDER BY 1, 2',
      'SELECT * FROM m a FULL JOIN (SELECT q, id AS k FROM m WHERE id > 2) b USING (q) ORDER BY 1, 2, 6',
      'SELECT * FROM m NATURAL FULL JOIN (SELECT q, f FROM m WHERE id > 2) s ORDER BY 1, 2, 3',
      'SELECT * FROM (SELECT id, q FROM m) a FULL JOIN (SELECT q, id AS k FROM m) b USING (q) RIGHT JOIN m c USING (q) ORDER BY 1, 2, 3, 4',
      // a WITH query on either side, named or not
      'WITH w AS (SELECT q, id AS k FROM m) SELECT * FROM m JOIN w USING (q) ORDER BY id, k',
      'WITH w AS (SELECT id AS k, q FROM m) SELECT * FROM w JOIN m USING (q) ORDER BY k, id',
      'WITH w AS (SELECT q, sum(n) FROM m GROUP BY q) SELECT * FROM m JOIN w USING (q) ORDER BY id',
      // a subquery's columns SQLite names otherwise, also twice the same name
      'SELECT * FROM m JOIN (SELECT q, sum(n), count(*) FROM m GROUP BY q) s USING (q) ORDER BY id',
      'SELECT * FROM m JOIN (SELECT q, sum(n), sum(x) FROM m GROUP BY q) s USING (q) ORDER BY id',
      'SELECT * FROM m JOIN (SELECT q, id + 1, id + 2 FROM m) s USING (q) ORDER BY id, 6',
      // a join with its own alias, its columns named once each, or a name on both sides (SQLite's
      // `*` of it was 42702 ambiguous column name)
      'SELECT * FROM (m JOIN (SELECT q, f AS g FROM m) s USING (q)) AS j ORDER BY id, g',
      'SELECT * FROM (m a JOIN m b USING (q)) AS j ORDER BY 1, 2, 6',
      'SELECT * FROM (m a JOIN m b ON a.id = b.id) j ORDER BY 1',
      'SELECT * FROM ((m a JOIN m b USING (q)) JOIN m c ON c.id = a.id) AS j ORDER BY 1, 2, 6',
      'SELECT * FROM m JOIN (m a FULL JOIN m b USING (q)) AS j USING (q) ORDER BY 1, 2, 6, 10',
      // a subquery whose items have one alias twice, or an alias list for part of its columns and
      // expressions after it (SQLite's order and names: `v, ?column?, q, ...`)
      'SELECT * FROM (SELECT n AS v, x AS v, q FROM m) s JOIN m USING (q) ORDER BY id, 2',
      'SELECT * FROM (SELECT n AS v, q, x AS v, f AS v FROM m) s JOIN m USING (q) ORDER BY id, 2',
      'SELECT * FROM (SELECT n, q + 1, q FROM m) AS s(p) JOIN m USING (q) ORDER BY id, 2',
      'SELECT * FROM (SELECT n, q * 2, q, sum(f) OVER () FROM m) AS s(p) JOIN m USING (q) ORDER BY id, 2',
    ]) {
      await same(sql);
      const names = async (c: 'patina' | 'postgres') =>
        (await clients()[c].query(sql)).fields.map((f: { name: string }) => f.name);
      assert.deepEqual(await names('patina'), await names('postgres'), sql);
    }
  });

  it("j.* of a join with its own alias spreads its columns in PostgreSQL's order and names (SQLite's was `no such table: j`)", async () => {
    for (const sql of [
      'SELECT j.* FROM (m JOIN (SELECT q, f AS g FROM m) s USING (q)) AS j ORDER BY id, g',
      'SELECT j.*, 1 AS k FROM (m a LEFT JOIN m b USING (q)) AS j ORDER BY 1, 2, 6',
      'SELECT j.* FROM (m a JOIN m b ON a.id = b.id) j ORDER BY 1',
      'SELECT j.*, c.id FROM (m a FULL JOIN (SELECT q, id AS k FROM m WHERE id > 2) b USING (q)) AS j, m c WHERE c.id = j.id ORDER BY 1, 2, 6',
      'SELECT j.q, j.g, count(*) FROM (SELECT j.* FROM (m JOIN (SELECT q, f AS g FROM m) s USING (q)) AS j) j GROUP BY 1, 2 ORDER BY 1, 2',
    ]) {
      await same(sql);
      const names = async (c: 'patina' | 'postgres') =>
        (await clients()[c].query(sql)).fields.map((f: { name: string }) => f.name);
      assert.deepEqual(await names('patina'), await names('postgres'), sql);
    }
    await same('SELECT j.q, j.id FROM (m a JOIN (SELECT q, f AS g FROM m) s USING (q)) AS j ORDER BY 2');
    // a name on both sides of it is ambiguous, one on neither missing (j.id read the left side's)
    const code = (c: 'patina' | 'postgres', sql: string) =>
      clients()
        [c].query(sql)
        .then(
          () => 'none',
          (err: { code: string }) => err.code,
        );
    for (const [sql, expected] of [
      ['SELECT j.id FROM (m a JOIN m b USING (q)) AS j', '42702'],
      ['SELECT j.n FROM (m a JOIN m b ON a.id = b.id) j WHERE j.q > 1', '42702'],
      ['SELECT j.zz FROM (m a JOIN m b USING (q)) AS j', '42703'],
    ]) {
      assert.equal(await code('postgres', sql), expected, sql);
      assert.equal(await code('patina', sql), expected, sql);
    }
  });

  it('j.n of a name on both sides of an aliased join with a subquery side is 42702 at j.n (it read the left side)', async () => {
    const failure = (c: 'patina' | 'postgres', sql: string) =>
      clients()
        [c].query(sql)
        .then(
          () => 'ran',
          (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
        );
    for (const sql of [
      'SELECT j.n FROM (m JOIN (SELECT id, n FROM m) s ON m.id = s.id) AS j',
      'SELECT j.n FROM ((SELECT q, n FROM m) s JOIN m USING (q)) AS j',
      'SELECT j.f FROM (m JOIN (SELECT * FROM m) s USING (id)) AS j',
      'SELECT j.x FROM (m JOIN (SELECT q, x FROM m UNION SELECT 1, 2) s USING (q)) AS j',
      'SELECT j.n FROM (m JOIN (VALUES (1, 2)) v(id, n) USING (id)) AS j',
      'SELECT 1 FROM m WHERE EXISTS (SELECT J . n FROM (m JOIN (SELECT id, n FROM m) s USING (id)) AS j)',
    ]) {
      const p = await failure('patina', sql);
      assert.equal(p, await failure('postgres', sql), sql);
      assert.match(p, /^42702 column reference "\w+" is ambiguous @\d+$/);
    }
    // a name on one side only, or renamed by the subquery's alias, is read
    for (const sql of [
      'SELECT j.n, j.k FROM (m JOIN (SELECT id, n AS k FROM m) s USING (id)) AS j ORDER BY j.id',
      'SELECT j.g, j.q FROM (m JOIN (SELECT id, q FROM m) s(k, g) ON m.id = s.k) AS j ORDER BY j.id',
      'SELECT j.count, j.f FROM (m JOIN (SELECT q, count(*) FROM m GROUP BY q) s USING (q)) AS j ORDER BY 1, 2',
    ])
      await same(sql);
  });

  it('j.n of a name on both sides of an aliased join with a WITH query or a function side is 42702 at j.n (it read the left side)', async () => {
    const failure = (c: 'patina' | 'postgres', sql: string) =>
      clients()
        [c].query(sql)
        .then(
          () => 'ran',
          (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
        );
    for (const sql of [
      'WITH w AS (SELECT id, n FROM m) SELECT j.n FROM (m JOIN w USING (id)) AS j',
      'WITH w(k, n) AS (SELECT id, x FROM m) SELECT j.n FROM (m JOIN w ON m.id = w.k) AS j',
      'WITH w AS (SELECT id, q FROM m) SELECT j.n FROM (m JOIN w AS v(id, n) USING (id)) AS j',
      'SELECT j.n FROM (m JOIN generate_series(1, 3) AS n ON true) AS j',
      'SELECT j.q FROM (m JOIN generate_series(1, 3) AS g(q) ON true) j',
      "SELECT j.q FROM (m JOIN json_to_record('{}') AS r(q int) ON true) j",
    ]) {
      const p = await failure('patina', sql);
      assert.equal(p, await failure('postgres', sql), sql);
      assert.match(p, /^42702 column reference "\w+" is ambiguous @\d+$/);
    }
    // a name on one side only is read; one on neither is 42703
    for (const sql of [
      'WITH w AS (SELECT id, n AS k FROM m) SELECT j.n, j.k FROM (m JOIN w USING (id)) AS j ORDER BY j.id',
      'SELECT j.n FROM (m JOIN generate_series(1, 2) AS g ON g = m.id) j ORDER BY 1',
    ])
      await same(sql);
    const p = await failure('patina', 'WITH w AS (SELECT id, n FROM m) SELECT j.zz FROM (m JOIN w USING (id)) AS j');
    assert.match(p, /^42703 column j\.zz does not exist @\d+$/);
  });

  it('an exact avg or division of a subquery keeps its digits through a join that passes it on (was a double)', async () => {
    for (const sql of [
      'SELECT s.a, m.id FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s JOIN m USING (q) ORDER BY m.id',
      'SELECT * FROM (SELECT q, avg(n) AS a, sum(n) / 3 AS d FROM m GROUP BY q) s JOIN m USING (q) ORDER BY id',
      'SELECT id, a FROM (SELECT q, avg(x) AS a FROM m GROUP BY q) s JOIN m ON s.q = m.q ORDER BY id',
      'SELECT s.*, m.n FROM m LEFT JOIN (SELECT q, avg(n) * 2 AS a FROM m GROUP BY q) s ON s.q = m.id ORDER BY m.id',
      'SELECT s.a, m.id FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s, m WHERE s.q = m.q ORDER BY m.id',
      // named like a column of the table
      'SELECT s.n, m.n FROM (SELECT q, avg(n) AS n FROM m GROUP BY q) s JOIN m USING (q) ORDER BY m.id',
      'SELECT * FROM (SELECT q, avg(n) AS n FROM m GROUP BY q) s JOIN m USING (q) ORDER BY id',
      // sorted by or compared by its bare name: by its number
      'SELECT s.a, m.id FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s JOIN m USING (q) ORDER BY a DESC, m.id',
      'SELECT a, id FROM (SELECT q, avg(x) AS a FROM m GROUP BY q) s JOIN m USING (q) WHERE a > 1 ORDER BY a',
      // read in a condition or sorted: still correct (a double inside, compared as a number)
      'SELECT m.id FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s JOIN m USING (q) WHERE s.a > 1 ORDER BY m.id',
      'SELECT m.id FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s JOIN m ON s.a > m.n ORDER BY m.id',
    ])
      await same(sql);
  });

  it('an exact avg or division in both branches of a UNION ALL keeps its digits (was a double)', async () => {
    await same('SELECT avg(n) FROM m UNION ALL SELECT avg(x) FROM m');
    await same('SELECT avg(n) AS a, 1 AS k FROM m UNION ALL SELECT sum(x) / 3, 2 FROM m');
    await same('SELECT * FROM (SELECT avg(n) AS a FROM m UNION ALL SELECT avg(q) FROM m) u');
  });
});
