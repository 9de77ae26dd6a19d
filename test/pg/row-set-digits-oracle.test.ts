// A multiple-column SET from a sub-SELECT (`UPDATE t SET (a, b) = (SELECT x, y ...)`) assigns each
// value as `SET a = x` does, and is 21000 when the query gives more than one row
// (translate/row-queries.ts); an element written into a numeric[] keeps its scale; a chain of
// UNION then UNION ALL into a text column prints its numerics as PostgreSQL does (exact-columns.ts).
// The same statements on Patina and on a real PostgreSQL 15: their rows, column types and errors.
import { type OracleClients, oracleSuite, sameOnBoth, sameOutcomeOnBoth } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE rs (id BIGINT NOT NULL PRIMARY KEY, i BIGINT, n NUMERIC(6, 2), t TEXT, v VARCHAR(3),
  d DOUBLE PRECISION, nums NUMERIC[], ids BIGINT[]);
CREATE TABLE src (k BIGINT NOT NULL PRIMARY KEY, x DOUBLE PRECISION, q NUMERIC);
CREATE TABLE st (id BIGINT NOT NULL PRIMARY KEY, t TEXT, n NUMERIC(6, 2));`;
const ROWS = [
  `INSERT INTO rs (id, i, n, t, nums, ids) VALUES (1, 1, 1, 'a', '{1,2}', '{1,2}'), (2, 2, 2, 'b', NULL, NULL),
    (3, 3, 3, 'c', '{3}', '{3}')`,
  'INSERT INTO src (k, x, q) VALUES (1, 2.5, 1.005), (2, 0.1, 12.345), (3, -3.5, 7)',
];
const TABLE = 'SELECT id, i, n, t, v, d, nums::text, ids::text FROM rs ORDER BY id';

describe('a multiple-column SET from a sub-SELECT, against PostgreSQL 15', function () {
  this.timeout(120_000);
  const { clients } = oracleSuite(SCHEMA, ROWS);
  const outcome = (sql: string) => sameOutcomeOnBoth(clients() as OracleClients, sql);
  const same = (sql: string, params?: unknown[]) => sameOnBoth(clients() as OracleClients, sql, params);

  it('assigns each value of the query as a single-column SET does (written as it was)', async () => {
    for (const sql of [
      // an integer column rounds a fraction, a numeric(p, s) rounds to s
      'UPDATE rs SET (i, n) = (SELECT 2.5, 1.005) WHERE id = 1 RETURNING i, n',
      'UPDATE rs SET (n, i) = (SELECT s.x, s.q FROM src s WHERE s.k = rs.id)',
      TABLE,
      'UPDATE rs SET (i) = (WITH w AS (SELECT -2.5 AS y) SELECT y FROM w) WHERE id = 2 RETURNING i',
      // a text column prints the value as its type prints it
      'UPDATE rs SET (t, d) = (SELECT x / 3, x / 3 FROM src WHERE k = 1) WHERE id = 1 RETURNING t, d',
      'UPDATE rs SET (t, i) = (SELECT 10::numeric / 4, 4) WHERE id = 2 RETURNING t, i',
      'UPDATE rs SET (i, t) = (SELECT 5, k > 1 FROM src WHERE k = 2) WHERE id = 3 RETURNING i, t',
      'UPDATE rs SET (t) = (SELECT n FROM rs r WHERE r.id = 2) WHERE id = 3 RETURNING t',
      // too long, out of range
      "UPDATE rs SET (v, i) = (SELECT 'abcd', 1) WHERE id = 1",
      'UPDATE rs SET (i, n) = (SELECT 1, 12345.678) WHERE id = 1',
      // with array elements among the targets
      'UPDATE rs SET (i, ids[2]) = (SELECT 3.5, 4.5) WHERE id = 1 RETURNING i, ids::text',
      // ON CONFLICT ... DO UPDATE
      'INSERT INTO rs (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET (i, n) = (SELECT 6.5, 2.345) RETURNING i, n',
      // no row: NULLs
      'UPDATE rs SET (i, n) = (SELECT x, q FROM src WHERE k = 99) WHERE id = 3 RETURNING i, n',
    ])
      await outcome(sql);
    await outcome(TABLE);
  });

  it('a sub-SELECT of more than one row is 21000, with array elements too (it assigned the first)', async () => {
    for (const sql of [
      'UPDATE rs SET (i, n) = (SELECT x, q FROM src) WHERE id = 1',
      'UPDATE rs SET (i, ids[1]) = (SELECT k, k FROM src WHERE k > 1) WHERE id = 1',
      'UPDATE rs SET (ids[1], t) = (WITH w AS (SELECT 1 AS a UNION ALL SELECT 2) SELECT a, a FROM w) WHERE id = 1',
      'UPDATE rs SET (i, t) = (SELECT 1, 2 UNION SELECT 3, 4) WHERE id = 2',
      'INSERT INTO rs (id) VALUES (2) ON CONFLICT (id) DO UPDATE SET (i, n) = (SELECT k, q FROM src)',
      // one row: assigned
      'UPDATE rs SET (i, n) = (SELECT x, q FROM src ORDER BY k DESC LIMIT 1) WHERE id = 2 RETURNING i, n',
      'UPDATE rs SET (i, ids[1]) = (SELECT DISTINCT 7, 8 FROM src) WHERE id = 2 RETURNING i, ids::text',
      // no row updated: the query is not run
      'UPDATE rs SET (i, n) = (SELECT x, q FROM src) WHERE id = 99',
    ])
      await outcome(sql);
    await outcome(TABLE);
  });

  it('an element written into a numeric[] keeps its scale (`nums[1] = 1.50` was {1.5})', async () => {
    for (const sql of [
      'UPDATE rs SET nums[1] = 1.50 WHERE id = 1 RETURNING nums, nums::text',
      'UPDATE rs SET nums[2] = 2.250, nums[4] = q FROM src WHERE id = 1 AND k = 2 RETURNING nums::text',
      'UPDATE rs SET nums[1] = 1.5::numeric(6, 3), nums[2] = n WHERE id = 2 RETURNING nums::text',
      'UPDATE rs SET (i, nums[2]) = (1, 3.0) WHERE id = 3 RETURNING nums::text',
      'UPDATE rs SET (i, nums[3]) = (SELECT 1, 4.000) WHERE id = 3 RETURNING nums::text',
      'UPDATE rs SET (nums[1], i) = (SELECT n, 1 FROM rs r WHERE r.id = 2) WHERE id = 3 RETURNING nums::text',
      'INSERT INTO rs (id, nums[2]) VALUES (10, 1.50) RETURNING nums::text',
      'INSERT INTO rs (id, i, nums[2], nums[1]) VALUES (11, 1, 1.50, 2.0), (12, 2, 3.125, -1e-2) RETURNING nums::text',
      // (as ARRAY[...] and an array literal already were)
      'INSERT INTO rs (id, nums) VALUES (13, ARRAY[1.50, 2]) RETURNING nums, nums::text',
      "INSERT INTO rs (id, nums) VALUES (14, '{1.50, 2.0}'::numeric[]) RETURNING nums, nums::text",
      'SELECT id, nums, nums::text, nums[1], nums[1]::text, nums[2] FROM rs WHERE nums IS NOT NULL ORDER BY id',
    ])
      await outcome(sql);
    await same('UPDATE rs SET nums[3] = $1 WHERE id = 10 RETURNING nums::text', ['7.250']);
    await same('INSERT INTO rs (id, nums[1]) VALUES ($1, $2) RETURNING nums::text', [15, '0.10']);
    await outcome(TABLE);
  });

  it('a chain of UNION then UNION ALL into a text column writes numerics as PostgreSQL prints them (was 1.5, 1000.0)', async () => {
    for (const sql of [
      'INSERT INTO rs (id, t) SELECT 20, 1.50 UNION SELECT 21, 2.50 UNION ALL SELECT 22, 1e3',
      'INSERT INTO rs (id, t) SELECT 23, 1.50 UNION SELECT 23, 1.50 UNION ALL SELECT 24, 2.5',
      'INSERT INTO rs (id, t) SELECT 25, 10::numeric / 4 UNION SELECT 26, 5::numeric / 2 UNION ALL SELECT 27, 1.50',
      'INSERT INTO rs (id, t) SELECT 28, 0.10 INTERSECT SELECT 28, 0.10 UNION ALL SELECT 29, 7.000',
      'SELECT id, t FROM rs WHERE id >= 20 ORDER BY id',
    ])
      await outcome(sql);
  });

  it('a set operation with a cast to numeric, or without a column list, into a text column runs, its numerics as PostgreSQL prints them (was 42601, 1.5)', async () => {
    for (const sql of [
      // (the cast's item is named numeric, which was taken for its alias and cut: `1.50::`)
      'INSERT INTO rs (id, t) SELECT 30, 1.50::numeric UNION SELECT 31, 2.5',
      'INSERT INTO rs (id, t) SELECT 32, 2.50::numeric EXCEPT SELECT 33, 2.5',
      "INSERT INTO rs (id, t) SELECT 33, '7'::numeric UNION SELECT 33, 7.0",
      "INSERT INTO rs (id, t) SELECT 34, 'x'::varchar UNION SELECT 35, 'y'",
      'SELECT id, t FROM rs WHERE id >= 30 ORDER BY id',
    ])
      await outcome(sql);
    // (no column list: the table's columns in order)
    for (const sql of [
      'INSERT INTO st SELECT 30, 1.50::numeric UNION SELECT 31, 2.5',
      'INSERT INTO st SELECT 32, 1.50 UNION SELECT 33, 2.5',
      'INSERT INTO st SELECT 34, 1.50, 1.5 EXCEPT SELECT 35, 2.5, 2',
      'SELECT id, t, n FROM st ORDER BY id',
    ])
      await outcome(sql);
  });

  it('a numeric division or avg written into a numeric[] element is its exact value (`nums[1] = 10::numeric / 4` was {2.5})', async () => {
    for (const sql of [
      'UPDATE rs SET nums[1] = 10::numeric / 4 WHERE id = 1 RETURNING nums::text',
      'UPDATE rs SET nums[2] = 1 / 3::numeric, nums[3] = q / 3 FROM src WHERE id = 1 AND k = 2 RETURNING nums::text',
      'UPDATE rs SET (i, nums[1]) = (SELECT 1, 10::numeric / 4) WHERE id = 3 RETURNING nums::text',
      'UPDATE rs SET (i, nums[2]) = (2, 7::numeric / 8) WHERE id = 3 RETURNING nums::text',
      'INSERT INTO rs (id, nums[1], nums[2]) VALUES (40, 10::numeric / 4, 2.50) RETURNING nums::text',
      'INSERT INTO rs (id, nums[2]) SELECT 41, 10::numeric / 4 RETURNING nums::text',
      'INSERT INTO rs (id, nums[1]) SELECT 42, avg(q) FROM src RETURNING nums::text',
      'SELECT id, nums::text FROM rs WHERE nums IS NOT NULL ORDER BY id',
    ])
      await outcome(sql);
  });
});
