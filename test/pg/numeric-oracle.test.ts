// numeric against PostgreSQL 15: NaN through writes and arithmetic (it was read as 0 by `+`, `-`,
// `*` and sum), the digits of exact results sorted by position, and a numeric parameter's scale.
import assert from 'node:assert/strict';
import { oracleSuite, psqlOk, sameOnBoth } from '../helpers/catalog-pair';
import type { PgClient } from '../helpers/pg';
import { WireClient } from '../helpers/pg-wire';

const SCHEMA = `CREATE TABLE m (id BIGINT NOT NULL PRIMARY KEY, n NUMERIC(10,2), x NUMERIC, q BIGINT, f FLOAT8);
CREATE TABLE e (id BIGINT NOT NULL PRIMARY KEY, q BIGINT, ts TIMESTAMP);
CREATE TABLE u (id BIGINT NOT NULL PRIMARY KEY, q BIGINT, y NUMERIC, z NUMERIC(10,3));
CREATE TABLE r4 (id BIGINT NOT NULL PRIMARY KEY, r FLOAT4);`;
const ROWS = [
  `INSERT INTO m VALUES (1, 12.5, 1.5, 3, 1.5), (2, 0.10, 2, 1, 2.5), (3, 19.99, 0.25, 2, -1), (4, NULL, NULL, NULL, NULL)`,
  `INSERT INTO e VALUES (1, 1, '2024-01-01 10:00:00.000001'), (2, 1, '2024-01-01 10:00:00.000001'), (3, 1, '2024-01-01 10:00:00.000001'), (4, 1, '2262-01-01 10:00:00.000007'), (5, 2, '1999-12-31 23:59:59.5'), (6, 2, NULL)`,
  `INSERT INTO u VALUES (1, 7, 0.15, 0.15), (2, 8, 0.7, NULL), (3, 3, 12.5, 12.5), (4, 2, 0.25, 6.6666666666666667)`,
];

describe('numeric NaN, exact digits and scales, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);

  /** Runs `body` with rows (ids from 20) added to m on both servers, taken out after it, also when it fails. */
  async function withRows(values: string, body: () => Promise<void>): Promise<void> {
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) await c.query(`INSERT INTO m (id, n, x, q) VALUES ${values}`);
    try {
      await body();
    } finally {
      for (const c of [patina, postgres]) await c.query('DELETE FROM m WHERE id >= 20');
    }
  }

  it("'NaN' into numeric(p, s) and numeric is stored NaN, by every form of write", async () => {
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) {
      await c.query(`INSERT INTO m (id, n, x, q) VALUES (10, 'NaN', 'NaN'::numeric, 5), (11, ' nan ', 'NaN', 5)`);
      await c.query('INSERT INTO m (id, n, x) VALUES ($1, $2, $3)', [12, 'NaN', 'NaN']);
      await c.query(`INSERT INTO m (id, n) SELECT 13, 'NaN'::numeric(10,2)`);
      await c.query(`INSERT INTO m (id, n) VALUES (10, 1) ON CONFLICT (id) DO UPDATE SET n = 'NaN', q = 6`);
      await c.query(`INSERT INTO m (id, n, x) VALUES (14, 1, 1)`);
      await c.query(`UPDATE m SET n = 'NaN', x = $1 WHERE id = 14`, ['NaN']);
    }
    await same('SELECT id, n, x, q FROM m WHERE id >= 10 ORDER BY id');
    for (const c of [patina, postgres]) await c.query('DELETE FROM m WHERE id > 10');
  });

  it('+, -, *, unary minus, % and round of a NaN are NaN (were 0 or NULL), of numbers unchanged', async () => {
    await same(
      'SELECT id, n + 1, x + 1, n - 1, 1 - n, n * 2, n * q, -n, -x, (n + 1) * 2, -(n + 1), n % 2, round(n, 1) FROM m ORDER BY id',
    );
    await same(
      "SELECT 'NaN'::numeric + 1, 'NaN'::numeric * 0, 'NaN'::numeric - 'NaN'::numeric, 2 * 'NaN'::numeric, -'NaN'::numeric",
    );
    await same('SELECT n + $1, x * $1 FROM m ORDER BY id', ['NaN']);
    // of a column: abs, ceil, floor, sign, trunc, round, sqrt, exp, ln, log of NaN are NaN (were 0 or NULL)
    await same('SELECT id, abs(n), ceil(x), ceiling(n), floor(n), sign(x), trunc(n), round(x) FROM m ORDER BY id');
    await same('SELECT sqrt(x), exp(x), ln(x), log(x), log10(n) FROM m WHERE id = 10');
    // compared and sorted: NaN is above every number, as there
    await same('SELECT id FROM m WHERE n + 1 > 100 ORDER BY id');
    await same('SELECT id FROM m WHERE n * 2 < 30 ORDER BY id');
    await same('SELECT id, n - 1 AS d FROM m ORDER BY d DESC, id');
    // stored: an UPDATE's arithmetic keeps NaN
    for (const c of [clients().patina, clients().postgres]) await c.query('UPDATE m SET x = x + 1 WHERE id = 10');
    await same('SELECT id, x FROM m WHERE id = 10');
  });

  it('sum, avg, min, max, stddev and variance over a NaN are NaN (sum was the others), min and max order it above all', async () => {
    await same('SELECT sum(n), sum(x), avg(n), avg(x), min(n), max(n), min(x), max(x), sum(q) FROM m');
    await same('SELECT sum(n) FILTER (WHERE id < 4), sum(DISTINCT n), avg(n) * 2, sum(n) + 1, round(avg(n), 2) FROM m');
    await same('SELECT q, sum(n), avg(x) FROM m GROUP BY q HAVING sum(n) > 10 ORDER BY q');
    await same('SELECT sum(n), sum(x), max(n) - min(n) FROM m WHERE id < 10');
    await same(
      'SELECT id, sum(n) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), sum(x) OVER () FROM m ORDER BY id',
    );
    await same('SELECT round(stddev(n), 2), stddev(n) * 2, variance(x) + 1 FROM m');
    await same('SELECT id, n * 100.0 / sum(n) OVER () FROM m ORDER BY id');
    // a query of the WITH clause: its columns typed (they were not: NaN read as 0)
    await same('WITH t AS (SELECT id, n FROM m) SELECT id, n + 1, -n, sum(n) OVER () FROM t ORDER BY id');
    // too few rows is NULL, NaN or not
    await same('SELECT q, stddev(x), variance(n) FROM m GROUP BY q ORDER BY q');
  });

  it('ORDER BY the position of an exact avg, division or stddev keeps its digits and sorts by number, NaN last (was a double)', async () => {
    for (const sql of [
      'SELECT q, avg(n) FROM m GROUP BY q ORDER BY 2',
      'SELECT q, avg(n) FROM m GROUP BY q ORDER BY 2 DESC LIMIT 3',
      'SELECT q, avg(n) AS a FROM m GROUP BY q ORDER BY 2 DESC, 1',
      'SELECT q, avg(n) AS a FROM m GROUP BY q ORDER BY a',
      'SELECT id, n / 3 FROM m ORDER BY 2, 1',
      'SELECT id, (n) / 3 FROM m ORDER BY 2, 1',
      'SELECT q, sum(n) / count(*) FROM m GROUP BY q ORDER BY 2 NULLS FIRST',
      // a share of a total, over a query of the WITH clause (printed a double: its columns had no type)
      'WITH t AS (SELECT q, count(*) AS c FROM m GROUP BY q) SELECT q, c * 100.0 / sum(c) OVER () FROM t ORDER BY 2, 1',
      // two items PostgreSQL names alike, and an item named like a column
      'SELECT q, avg(n), avg(x), stddev(x) FROM m GROUP BY q ORDER BY 2, 3',
      'SELECT q AS avg, avg(n) FROM m GROUP BY q ORDER BY 2',
    ])
      await same(sql);
  });

  it('stddev, variance and avg inside +, -, * with integers and literals, or in round/trunc, are exact too (were doubles)', async () => {
    for (const sql of [
      'SELECT round(stddev(n), 2), stddev(n) * 2, stddev(q) * 2, round(stddev(q), 3), stddev(q) + 1 FROM m WHERE id < 10',
      'SELECT avg(n) * 2, avg(q) + 1, round(avg(q), 3), avg(q) * 2.50, 2 * avg(x) - 1, trunc(avg(n), 3) FROM m WHERE id < 10',
      'SELECT variance(q) - avg(q), avg(n) + avg(x), avg(n) * -1 FROM m WHERE id < 10',
      'SELECT q, avg(n) * 100 FROM m WHERE id < 10 GROUP BY q ORDER BY 2',
      'SELECT round(stddev(n), 2), stddev(n) * 2, avg(n) * 2, avg(q) * 2 FROM m',
    ])
      await same(sql);
  });

  it('an exponent or a negative decimal literal beside avg or a division is exact too (avg(q) + 1e-1 and avg(q) * -2.50 were doubles)', async () => {
    await same(
      'SELECT avg(q) + 1e-1, avg(q) * -2.50, -0.25 - avg(n), avg(x) - -0.5, 1.5e1 * avg(q) FROM m WHERE id < 10',
    );
    await same('SELECT q / 7.0 + 1e-1, -0.5 * (q / 3.0) FROM m WHERE id < 4 ORDER BY id');
  });

  it('avg and numeric divisions mixed with numeric columns, sums and parameters print exact digits (were doubles)', async () => {
    for (const sql of [
      'SELECT q, avg(n) * n, n * avg(n), (avg(n) + n) * 2, avg(n) * (n + 1), avg(x) - x FROM m GROUP BY q, n, x ORDER BY q',
      'SELECT id, n / 3 + 1, n * 2 / 3, (n + x) / q, n / q * 2 FROM m ORDER BY id',
      'SELECT sum(n) * 100 / sum(x), sum(n) / count(*) * 2, sum(x) / 7 - 1, avg(n) + sum(n) FROM m WHERE id < 10',
      'SELECT q, round(avg(n) * n, 3), trunc(n / 3 * avg(x), 2), -avg(n) * n FROM m GROUP BY q, n, x ORDER BY 2, 1',
      'SELECT q, avg(n) * n AS p FROM m WHERE id < 10 GROUP BY q, n ORDER BY p DESC',
      'SELECT q, avg(n) * n FROM m WHERE id < 10 GROUP BY q, n ORDER BY 2 DESC',
      'SELECT id, n * 100.0 / sum(n) OVER () + 0, avg(x) OVER () * x FROM m WHERE id < 10 ORDER BY id',
      'SELECT avg(n) * 1.5::numeric, avg(n) * f FROM m WHERE id < 10 GROUP BY f ORDER BY 2',
      // abs of them too
      'SELECT q, abs(avg(n) - n), abs(n / -3), abs(-avg(x)) FROM m GROUP BY q, n ORDER BY q',
      'SELECT q, abs(avg(n) - 15) FROM m GROUP BY q ORDER BY 2',
    ])
      await same(sql);
    await same('SELECT avg(n) * $1, sum(n) / $1 FROM m WHERE id < 10', ['2.5']);
  });

  it('an exact column under SELECT DISTINCT or passed on by SELECT * FROM (subquery) keeps its digits (was a double)', async () => {
    for (const sql of [
      'SELECT DISTINCT avg(n) FROM m GROUP BY q ORDER BY 1',
      'SELECT DISTINCT q, avg(n) AS a FROM m GROUP BY q ORDER BY a DESC',
      'SELECT DISTINCT n * 100.0 / sum(n) OVER () FROM m WHERE id < 10 ORDER BY 1',
      'SELECT DISTINCT n / 2 FROM m ORDER BY 1',
      'SELECT * FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s ORDER BY q',
      'SELECT * FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s ORDER BY a DESC LIMIT 3',
      'SELECT a AS b, q FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s ORDER BY b',
      'SELECT s.a FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s WHERE q > 1 ORDER BY q',
      // compared by name in the outer WHERE and sorted by position: by their number, NaN above all
      'SELECT * FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s WHERE a > 1 AND a < 15 ORDER BY q',
      "SELECT * FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s WHERE a = 'NaN' ORDER BY q",
      'SELECT * FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s ORDER BY 2 DESC, 1',
      'SELECT a AS b, q FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s ORDER BY 1',
      'SELECT * FROM (SELECT id, n * 100.0 / sum(n) OVER () AS share FROM m WHERE id < 10) s WHERE share > 10 ORDER BY 2',
      // a share of a total (NaN was NULL through the outer query)
      'SELECT * FROM (SELECT id, n * 100.0 / sum(n) OVER () AS share FROM m) s ORDER BY id',
      'SELECT * FROM (SELECT id, n * 100.0 / sum(n) OVER () AS share FROM m WHERE id < 10) s ORDER BY share',
      'SELECT * FROM (SELECT * FROM (SELECT q, avg(x) FROM m GROUP BY q) t) s ORDER BY q',
      'WITH c AS (SELECT q, count(*) AS k FROM m GROUP BY q) SELECT * FROM (SELECT q, k * 100.0 / sum(k) OVER () AS p FROM c) s ORDER BY q',
    ])
      await same(sql);
  });

  it('a scalar subquery of an exact avg or division as a result column keeps its digits, also sorted by it (was a double: 0.425 where PostgreSQL prints 0.42500000000000000000)', async () => {
    for (const sql of [
      'SELECT (SELECT avg(n) FROM m)',
      'SELECT q, avg(n), (SELECT avg(n) FROM m) AS overall FROM m GROUP BY q ORDER BY q',
      'SELECT id, (SELECT avg(y) FROM u WHERE u.q >= m.q) AS a FROM m ORDER BY a, id',
      'SELECT (SELECT n / 3 FROM m WHERE id = 1), (SELECT max(n) FROM m)',
    ])
      await same(sql);
  });

  it('an exact avg or division made text (a cast, ||, concat) keeps its digits anywhere (was a double)', async () => {
    for (const sql of [
      'SELECT CAST(avg(n) AS text), avg(x)::text, avg(n)::varchar, avg(n)::varchar(5), CAST(avg(q) AS text) FROM m',
      "SELECT avg(n)::text || ' EUR', 'avg=' || avg(n), (sum(n) / 3)::text, (avg(n) * 2)::varchar FROM m",
      "SELECT concat(avg(n), 'x'), concat_ws(',', avg(n), avg(x)), format('%s', avg(q)) FROM m",
      'SELECT q, avg(n)::text AS t FROM m GROUP BY q ORDER BY t',
      "SELECT q FROM m GROUP BY q HAVING avg(n)::text LIKE '12.5%' ORDER BY q",
      'SELECT CAST(avg(n) AS text), avg(x)::text FROM m WHERE id >= 4',
    ])
      await same(sql);
  });

  it('coalesce(avg(x), 0) and CASE ... THEN avg(x) in a result column keep the exact digits (were doubles)', async () => {
    for (const sql of [
      'SELECT coalesce(avg(n), 0), coalesce(avg(x), 0.0, 1) FROM m WHERE id < 10',
      'SELECT q, coalesce(avg(n), 0) FROM m GROUP BY q ORDER BY q',
      'SELECT q, coalesce(avg(n), 0.0) AS a FROM m GROUP BY q ORDER BY a',
      'SELECT q, coalesce(sum(n) / count(*), 0) FROM m GROUP BY q ORDER BY 2 DESC',
      'SELECT coalesce(avg(n), -1.5), coalesce(avg(n), 1e2) FROM m WHERE id = 4',
      'SELECT * FROM (SELECT q, coalesce(avg(n), 0) AS a FROM m GROUP BY q) s ORDER BY a',
      // and CASE's values (its conditions compare as before)
      'SELECT CASE WHEN avg(n) > 1 THEN avg(n) ELSE 0 END FROM m WHERE id < 10',
      'SELECT q, CASE WHEN count(n) > 0 THEN avg(n) END AS a FROM m GROUP BY q ORDER BY a',
      'SELECT q, CASE q WHEN 1 THEN avg(n) WHEN 2 THEN sum(n) / 3 ELSE 0.5 END FROM m GROUP BY q ORDER BY 1',
      // with plain numerics and integers among the values, those at their own scale (0.10 was 0.1)
      'SELECT q, CASE WHEN q > 1 THEN avg(n) ELSE max(n) END FROM m GROUP BY q ORDER BY q',
      'SELECT q, CASE WHEN q > 1 THEN avg(n) ELSE max(x) END AS a FROM m GROUP BY q ORDER BY a',
      'SELECT q, coalesce(avg(n), min(n)), coalesce(avg(x), q) FROM m GROUP BY q ORDER BY 2',
      'SELECT q, CASE q WHEN 1 THEN max(n) + 1 WHEN 2 THEN sum(n) / 3 ELSE (min(n) * 2) END FROM m GROUP BY q ORDER BY 1',
      'SELECT id, CASE WHEN id > 2 THEN n / 3 ELSE n END FROM m ORDER BY id',
    ])
      await same(sql);
  });

  it('greatest and least of numerics print the value picked at its own scale (least(1, 2.5) is 1, least(n, 3) 3; they printed 1.0 and 3.00), picked by value', async () => {
    for (const sql of [
      'SELECT least(1, 2.5, NULL), greatest(1, 2.5), least(1.0, 2), greatest(2.50, 1), least(3, 2.5), greatest(-1.5, -1)',
      'SELECT id, least(n, 3), greatest(n, 3, NULL), greatest(n, 2.5), least(n, 100.0), greatest(n, q) FROM m ORDER BY id',
      'SELECT q, greatest(avg(n), 1), least(sum(n), 5) FROM m GROUP BY q ORDER BY q',
      'SELECT id FROM m WHERE least(n, 3) < 2.6 ORDER BY id',
    ])
      await same(sql);
  });

  it('HAVING compares (also BETWEEN, IN) avg, divisions and numeric sums as numerics (0.1 and 0.2 averaged were 0.15000000000000002, not 0.15)', async () => {
    const rows = `(20, 0.10, 0.1, 7), (21, 0.20, 0.2, 7), (22, 0.70, 0.7, 8), (23, 0.10, 0.1, 8), (24, 0.20, 0.2, 8), (25, 'NaN', 'NaN', 9)`;
    await withRows(rows, async () => {
      for (const sql of [
        'SELECT q FROM m GROUP BY q HAVING avg(x) = 0.15 ORDER BY q',
        'SELECT q, avg(n) FROM m GROUP BY q HAVING avg(n) = 0.15 OR avg(n) > 19 ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING sum(x) = 0.3 ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING sum(n) = 0.3 ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING avg(x) * 3 = 1 ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING sum(x) / count(*) = 0.15 ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING avg(x) > -1.5 AND avg(x) <> 0.15 ORDER BY q',
        "SELECT q FROM m GROUP BY q HAVING avg(x) = 'NaN' OR avg(x) > min(x) ORDER BY q",
        "SELECT q FROM m GROUP BY q HAVING avg(x) > '0.15' ORDER BY q",
        'SELECT q FROM m GROUP BY q HAVING sum(x) BETWEEN 0.3 AND 0.3 OR avg(x) NOT BETWEEN 0.15 AND 1 ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING avg(x) + 1 BETWEEN 1.15 AND 2 * 1 ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING avg(x) IN (0.15, 1) OR sum(x) NOT IN (0.3, NULL) ORDER BY q',
        "SELECT q FROM m GROUP BY q HAVING sum(x) IN (0.3, 'NaN') ORDER BY q",
      ])
        await same(sql);
      await same('SELECT q FROM m GROUP BY q HAVING avg(x) = $1 ORDER BY q', ['0.15']);
    });
  });

  it('HAVING avg(x) [NOT] IN (SELECT ...) compares numerics at any scale (the double 0.15000000000000002 was not in (0.15))', async () => {
    const rows = `(20, 0.10, 0.1, 7), (21, 0.20, 0.2, 7), (22, 0.70, 0.7, 8), (23, NULL, NULL, 9)`;
    await withRows(rows, async () => {
      for (const sql of [
        'SELECT q FROM m GROUP BY q HAVING avg(x) IN (SELECT y FROM u) ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING avg(x) NOT IN (SELECT y FROM u) ORDER BY q',
        // a NULL among the subquery's values: NOT IN is NULL, not true
        'SELECT q FROM m GROUP BY q HAVING avg(x) NOT IN (SELECT z FROM u) ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING avg(n) IN (SELECT z FROM u WHERE z IS NOT NULL) ORDER BY q',
        // the subquery's own avg exactly, a division, literals, a correlated one, integers
        'SELECT q FROM m GROUP BY q HAVING avg(x) IN (SELECT avg(y) FROM u GROUP BY q) ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING sum(x) / 2 IN (SELECT y FROM u) OR avg(x) IN (SELECT 0.7) ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING avg(x) IN (SELECT 0.15 UNION SELECT 1.5) ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING NOT (avg(x) IN (SELECT y FROM u WHERE u.q = m.q)) ORDER BY q',
        'SELECT q FROM m GROUP BY q HAVING avg(x) IN (SELECT id FROM u) ORDER BY q',
      ])
        await same(sql);
    });
  });

  it('an exact avg or division in every member of a UNION, INTERSECT or EXCEPT keeps its digits, also sorted by it (was a double)', async () => {
    for (const sql of [
      'SELECT avg(n), 1 AS k FROM m UNION SELECT avg(x), 2 FROM m ORDER BY k',
      'SELECT q, avg(n) FROM m GROUP BY q UNION SELECT 9, avg(x) FROM m ORDER BY 1',
      'SELECT q, avg(n) FROM m GROUP BY q UNION SELECT q, avg(n) FROM m GROUP BY q ORDER BY q',
      'SELECT q, avg(n) FROM m GROUP BY q INTERSECT SELECT q, avg(n) FROM m WHERE q > 1 GROUP BY q ORDER BY q',
      'SELECT q, avg(n) FROM m GROUP BY q EXCEPT SELECT q, avg(n) FROM m WHERE q = 1 GROUP BY q ORDER BY q',
      'SELECT avg(n), 1 AS k FROM m UNION ALL SELECT avg(x), 2 FROM m UNION ALL SELECT sum(n) / 7, 3 FROM m ORDER BY k',
      'SELECT avg(n), 1 AS k FROM m UNION SELECT avg(n), 1 FROM m UNION SELECT avg(x), 2 FROM m ORDER BY k',
      // a member's sum of a NaN (the members' operators were not typed: 4.6557142857142857)
      'SELECT sum(n) / 7, 1 AS k FROM m UNION ALL SELECT sum(n) / 7 + 1, 2 FROM m ORDER BY k',
      "SELECT id, x + 1 FROM m WHERE id < 3 UNION ALL SELECT id, -x FROM m WHERE x = 'NaN' ORDER BY 1",
      // sorted by the exact column (named in the first member): by its number
      'SELECT q, avg(n) AS a FROM m GROUP BY q UNION SELECT 9, avg(x) FROM m ORDER BY a',
      'SELECT q, avg(n) AS a FROM m GROUP BY q UNION ALL SELECT 9, avg(x) FROM m ORDER BY 2 DESC NULLS LAST, q',
      'SELECT q, avg(n) AS a FROM m GROUP BY q EXCEPT SELECT q, avg(n) FROM m WHERE q = 1 GROUP BY q ORDER BY a LIMIT 2',
    ])
      await same(sql);
  });

  it('a set operation sorted by an unnamed exact column, or mixing exact and plain members, keeps the digits and sorts by number (were doubles)', async () => {
    for (const sql of [
      'SELECT avg(n) FROM m UNION SELECT avg(x) FROM m ORDER BY 1',
      'SELECT avg(n) FROM m UNION ALL SELECT avg(x) FROM m ORDER BY 1 DESC',
      'SELECT avg(n) FROM m UNION SELECT 1 ORDER BY 1',
      'SELECT avg(n) FROM m UNION SELECT x FROM m ORDER BY 1',
      'SELECT avg(n) FROM m UNION ALL SELECT x FROM m ORDER BY avg',
      'SELECT avg(n), avg(n) FROM m UNION SELECT 1, 2 ORDER BY 1',
      'SELECT x / 3 FROM m UNION SELECT x FROM m UNION SELECT 0.5 ORDER BY 1',
      'SELECT * FROM (SELECT avg(n) AS a FROM m UNION SELECT x FROM m) s ORDER BY a',
      // passed on by an outer query sorted by position (it was a double there)
      'SELECT * FROM (SELECT avg(n) AS a FROM m UNION SELECT x FROM m) s ORDER BY 1 DESC',
      'SELECT * FROM (SELECT q, avg(n) AS a FROM m GROUP BY q UNION ALL SELECT 9, avg(x) FROM m) s ORDER BY 2, 1',
      'SELECT * FROM (SELECT n FROM m UNION SELECT 1.5) s ORDER BY 1',
      'SELECT q, avg(x) FROM m GROUP BY q INTERSECT SELECT q, x FROM m ORDER BY 1',
      // with a double member the column is float8, the exact avg converted as PostgreSQL converts it
      // (SQLite's double avg was 10.863333333333332)
      'SELECT avg(n) FROM m UNION SELECT f FROM m ORDER BY 1',
      'SELECT q, avg(n) FROM m GROUP BY q UNION SELECT 5, f FROM m ORDER BY 2, 1',
      'SELECT avg(n), avg(x) FROM m UNION SELECT f, 1 FROM m ORDER BY 2, 1',
      'SELECT f, avg(x) FROM m GROUP BY f UNION SELECT avg(n), 1 FROM m ORDER BY 2, 1',
      // a bare NULL member is typed by the others (it was text)
      'SELECT avg(n), avg(x) FROM m UNION SELECT 1, NULL ORDER BY 2, 1',
      'SELECT avg(n) FROM m UNION SELECT NULL ORDER BY 1',
    ])
      await same(sql);
  });

  it('UNION, INTERSECT and EXCEPT tell exact numbers apart by value, not scale (1.5000000000000000 and 1.50000000000000000000 are one row, the first)', async () => {
    for (const sql of [
      'SELECT avg(x) FROM m WHERE id = 1 UNION SELECT x * 2 / 2 FROM m WHERE id = 1',
      'SELECT x * 2 / 2 FROM m WHERE id = 1 UNION SELECT avg(x) FROM m WHERE id = 1',
      'SELECT avg(x) FROM m WHERE id = 1 EXCEPT SELECT x * 2 / 2 FROM m',
      'SELECT avg(x) FROM m WHERE id = 1 INTERSECT SELECT x * 2 / 2 FROM m',
      'SELECT q, avg(x) AS a FROM m GROUP BY q UNION SELECT q, x * 2 / 2 FROM m ORDER BY q, a',
      'SELECT avg(x) FROM m WHERE id = 1 UNION ALL SELECT x * 2 / 2 FROM m WHERE id = 1 UNION SELECT 1.5 ORDER BY 1',
      'SELECT avg(x) FROM m WHERE id = 1 UNION SELECT 1.5',
    ])
      await same(sql);
  });

  it('a numeric column of one scale in every member of a set operation prints at it (n + 1 of a numeric(10,2) was 13.5 for 13.50)', async () => {
    for (const sql of [
      'SELECT n + 1 FROM m UNION SELECT n FROM m ORDER BY 1',
      'SELECT n * 2 FROM m UNION ALL SELECT n FROM m ORDER BY 1',
      'SELECT q, n + 1 AS a FROM m UNION SELECT q, n FROM m EXCEPT SELECT 1, 0.10 ORDER BY 1, 2',
      'SELECT n + 1 FROM m UNION SELECT 1.50 ORDER BY 1',
      'SELECT * FROM (SELECT n - 1 AS a FROM m INTERSECT SELECT n - 1 FROM m) s ORDER BY 1',
      // members of other scales: each value at its own (0.10 and 1.5 in one column; they printed 0.1)
      'SELECT n + 1 FROM m UNION SELECT x FROM m ORDER BY 1',
      'SELECT n FROM m UNION SELECT 1.5 ORDER BY 1',
      'SELECT n AS a, id FROM m UNION SELECT z, id FROM u ORDER BY a, id',
      'SELECT avg(n) FROM m UNION SELECT n FROM m ORDER BY 1',
      'SELECT x FROM m UNION SELECT n + 1 AS b FROM m ORDER BY 1',
      'SELECT * FROM (SELECT n FROM m UNION ALL SELECT x FROM m) s ORDER BY n',
      'SELECT n FROM m INTERSECT SELECT z FROM u ORDER BY 1',
      'SELECT n FROM m EXCEPT SELECT z FROM u ORDER BY 1',
    ])
      await same(sql);
    await sameOnBoth(clients(), 'SELECT n + 1 FROM m UNION ALL SELECT x FROM m', [], { sorted: true });
  });

  it("a subquery's exact column read qualified (s.a), in a join's ON or an ORDER BY expression keeps its digits (was a double)", async () => {
    for (const sql of [
      'SELECT s.a FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s WHERE s.a > 1 ORDER BY s.a',
      'SELECT * FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s ORDER BY s.a DESC NULLS LAST',
      'SELECT * FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s ORDER BY a + 1',
      'SELECT s.q, s.a FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) AS s WHERE s.a BETWEEN 1 AND 15 ORDER BY s.q',
      `SELECT * FROM (SELECT q, avg(x) AS a FROM m GROUP BY q) s WHERE s.a = 'NaN' OR s.a < 1 ORDER BY q`,
      'SELECT s.a, m.id FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s JOIN m ON s.a > m.n ORDER BY m.id, s.a',
      'SELECT s.a, m.id FROM (SELECT q, avg(n) AS a FROM m GROUP BY q) s JOIN m ON s.q = m.q WHERE s.a > 1 ORDER BY s.a DESC, m.id',
      'SELECT s.a, m.id FROM m LEFT JOIN (SELECT q, avg(n) AS a FROM m GROUP BY q) s ON s.q = m.q AND s.a < 15 ORDER BY m.id',
      'SELECT s.n, m.n FROM (SELECT q, avg(n) AS n FROM m GROUP BY q) s JOIN m ON s.n > m.n ORDER BY m.id, s.n',
      'SELECT s.a, m.id FROM (SELECT q, sum(n) / 3 AS a FROM m GROUP BY q) s JOIN m USING (q) ORDER BY abs(s.a - 10), m.id',
    ])
      await same(sql);
  });

  it("a join's USING naming an exact column of a subquery and a table's numeric column compares numbers and keeps the digits (0.15000000000000002 missed 0.15)", async () => {
    await withRows('(20, 0.10, 0.1, 7), (21, 0.20, 0.2, 7), (22, 12.50, 12.5, 8)', async () => {
      for (const sql of [
        'SELECT * FROM (SELECT q AS k, avg(x) AS y FROM m GROUP BY q) s JOIN u USING (y) ORDER BY k',
        'SELECT s.y, u.id FROM (SELECT q AS k, avg(x) AS y FROM m GROUP BY q) s JOIN u USING (y) ORDER BY k',
        'SELECT * FROM u JOIN (SELECT q AS k, avg(x) AS y FROM m GROUP BY q) s USING (y) ORDER BY k',
        'SELECT * FROM (SELECT q AS k, avg(x) AS y FROM m GROUP BY q) s LEFT JOIN u USING (y) ORDER BY k',
        'SELECT * FROM (SELECT q, avg(x) AS y FROM m GROUP BY q) s JOIN u USING (q, y) ORDER BY q',
        'SELECT * FROM (SELECT q AS k, sum(n) / count(*) AS z FROM m GROUP BY q) s JOIN u USING (z) ORDER BY k',
      ])
        await same(sql);
    });
  });

  it('sum and avg of extract(epoch ...) keep its microseconds (a double sum was 14326992000.000011 for .000010)', async () => {
    for (const sql of [
      'SELECT sum(extract(epoch from ts)), avg(extract(epoch from ts)), stddev(extract(epoch from ts)) FROM e',
      'SELECT q, sum(extract(epoch from ts)) AS s FROM e GROUP BY q ORDER BY s',
      'SELECT q, sum(extract(epoch from ts)) FROM e GROUP BY q ORDER BY 2 DESC',
      'SELECT sum(extract(epoch from ts)) / 60, sum(extract(epoch from ts))::text, avg(extract(epoch from ts)) / 2 FROM e',
      'SELECT id, sum(extract(epoch from ts)) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM e ORDER BY id',
      'SELECT sum(extract(epoch from ts)) FROM e WHERE q = 9',
      'SELECT q FROM e GROUP BY q HAVING sum(extract(epoch from ts)) > 14326992000.00001 ORDER BY q',
      'SELECT avg(n) / 3, 1 / avg(x) FROM m WHERE id < 10',
    ])
      await same(sql);
  });

  it('min and max of extract(epoch ...) keep its microseconds, also over a window (9214682400.000008 for .000007)', async () => {
    for (const sql of [
      'SELECT min(extract(epoch from ts)), max(extract(epoch from ts)) FROM e',
      'SELECT q, min(extract(epoch from ts)) AS a, max(extract(epoch from ts)) FROM e GROUP BY q ORDER BY a',
      'SELECT q, max(extract(epoch from ts)) FROM e GROUP BY q ORDER BY 2 DESC',
      'SELECT max(extract(epoch from ts)) - min(extract(epoch from ts)), max(extract(epoch from ts))::text FROM e',
      'SELECT max(extract(epoch from ts)) FILTER (WHERE q = 1), min(extract(epoch from ts)) FROM e WHERE q = 9',
      'SELECT id, max(extract(epoch from ts)) OVER (ORDER BY id) FROM e ORDER BY id',
      'SELECT id, min(extract(epoch from ts)) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), max(extract(epoch from ts)) OVER (ORDER BY id DESC ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM e ORDER BY id',
      'SELECT id, max(extract(epoch from ts)) OVER (PARTITION BY q ORDER BY id ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM e ORDER BY id',
      'SELECT q FROM e GROUP BY q HAVING max(extract(epoch from ts)) = 9214682400.000007 ORDER BY q',
      "SELECT min(extract(epoch from timestamp 'infinity')), max(extract(epoch from timestamp '-infinity'))",
    ])
      await same(sql);
  });

  it('ceil, floor of an exact avg or division read it exactly (ceil of the double avg 326.00000000000006 was 327)', async () => {
    const rows =
      '(20, 572.58, 572.58, 7), (21, 305.47, 305.47, 7), (22, 99.95, 99.95, 7), (23, 40.15, 40.15, 8), (24, 128.42, 128.42, 8), (25, 539.43, 539.43, 8)';
    await withRows(rows, async () => {
      for (const sql of [
        'SELECT q, ceil(avg(x)), floor(avg(x)), ceiling(avg(n)), ceil(sum(x) / 3) FROM m GROUP BY q ORDER BY q',
        'SELECT q, ceil(avg(x)) AS c FROM m GROUP BY q ORDER BY c, q',
        'SELECT q FROM m GROUP BY q HAVING ceil(avg(x)) = 326 OR floor(avg(n)) = 236 ORDER BY q',
        "SELECT ceil(avg(x))::text, 'c=' || ceil(avg(x)), round(avg(x), 3)::text FROM m WHERE q = 7",
      ])
        await same(sql);
    });
    await same("SELECT 's=' || sum(extract(epoch from ts)), concat(sum(extract(epoch from ts)), '') FROM e");
  });

  it('power and ^ of a NaN, and abs, sqrt, ceil, ... of an expression that is NaN, are NaN (were NULL or 0)', async () => {
    // NaN ^ 0 and 1 ^ NaN are 1, as POSIX pow
    await same(
      'SELECT id, power(n, 2), x ^ 2, power(x, 0), pow(1, x), power(n, x), n ^ q FROM m WHERE id > 3 ORDER BY id',
    );
    await same(
      "SELECT power('NaN'::numeric, 0), power(1::numeric, 'NaN'), 'NaN'::numeric ^ 2, power(2, 'NaN'::numeric)",
    );
    await same(
      'SELECT id, abs(n + 1), ceil(n + 1), floor(-n), sign(n * 2), trunc(n + 1), round(n * 2), ceiling(x / 2), sqrt(n + 1), exp(x - 1), ln(x * 2) FROM m WHERE id > 3 ORDER BY id',
    );
    await same(
      'SELECT id, abs(n + 1), ceil(n + 1), floor(-n), sign(n * 2), trunc(n + 1), round(n * 2) FROM m ORDER BY id',
    );
    await same('SELECT abs(-n), sqrt($1::numeric), abs($1::numeric + 1), exp(-$1::numeric) FROM m WHERE id = 1', [
      'NaN',
    ]);
    await same('SELECT abs(sum(n)), abs(sum(n) - 1), sqrt(abs(max(n) * 2)) FROM m');
    // a division that stays a double: NaN too (was 0), and by zero 22012 only for a number
    await same('SELECT id, x / 2 + 1 > 1 FROM m ORDER BY id');
    await same('SELECT id FROM m WHERE x / 2 > 0.5 ORDER BY id');
    await same('SELECT id, x / 0 FROM m WHERE id = 10');
  });

  it("power(numeric, numeric) and ^ print PostgreSQL's numeric digits and scale (were a double's: 1.4142135623730951, 156.25)", async () => {
    for (const sql of [
      'SELECT id, power(x, 0.5), power(n, 2), x ^ 2, power(x, x), n ^ q, pow(x, 2.000) FROM m ORDER BY id',
      'SELECT power(2::numeric, 0.5), 2 ^ 0.5, power(2.5, 2), 2.0 ^ 3, power(1.5, -3), power(0.5, 30), power(10::numeric, -20)',
      'SELECT power(720502.85, 980)::text, power(1.0001, 10000), power(123.456, 78.9), power(3::numeric, 100.5)',
      'SELECT id, power(n, 2) AS p FROM m ORDER BY p',
      'SELECT id, power(n, 2) FROM m ORDER BY 2 DESC',
      'SELECT power(avg(n), 2), avg(n) ^ 0.5, power(n, 2) * 2, power(n, 2)::text FROM m GROUP BY n ORDER BY n',
      'SELECT id FROM m WHERE power(n, 2) > 150 ORDER BY id',
      'SELECT q FROM m GROUP BY q HAVING power(sum(n), 2) = 156.25 ORDER BY q',
      // of a double: float8's, as there (it was typed numeric)
      'SELECT power(n, f), n ^ f FROM m WHERE id < 3 ORDER BY id',
    ])
      await same(sql);
    for (const sql of [
      'SELECT power(-2::numeric, 0.5)',
      'SELECT power(0::numeric, -1)',
      'SELECT power(4::numeric, 375085.00)',
    ]) {
      const { patina, postgres } = clients();
      const codes = await Promise.all(
        [patina, postgres].map((c) =>
          c.query(sql).then(
            () => 'ok',
            (e: { code?: string }) => e.code,
          ),
        ),
      );
      assert.equal(codes[0], codes[1], sql);
      assert.notEqual(codes[0], 'ok', sql);
    }
  });

  it('an operator of numerics takes the operators of its own level before it (2 - 1 + n was 2 - (1 + n))', async () => {
    await same('SELECT id, 10 / 4 * n, q / 2 * n, 7 % 4 * n, 2 - 1 + n, 10 - q - n FROM m WHERE id < 10 ORDER BY id');
    await same('SELECT id, n * 2 / 4, n / 4 * 2, q * n / 4, q / n * 2 FROM m WHERE id < 10 ORDER BY id');
    await same('SELECT 7::numeric / 2 * 2, 1 - 2 - 3::numeric, 2 * 3 / 4::numeric');
  });

  it("numeric(p, s) ± a parameter prints at least the column's scale, and the value's own digits beyond it (13.5 was 13.50)", async () => {
    for (const v of ['1', '1.125', '0.2', '-3'])
      await same('SELECT n + $1, $1 + n, n - $1, n + $1::numeric, n + $1 + 1 FROM m WHERE id < 4 ORDER BY id', [v]);
    await same('SELECT x + $1 FROM m WHERE id < 4 ORDER BY id', ['2']);
  });

  it("a parameter's trailing zeros are kept as PostgreSQL keeps them: $1::numeric with '1.500' is 1.500 (was 1.5)", async () => {
    for (const v of ['1.500', '1.5', '15e-1', '1.50e1', '-0.10', 'NaN', null])
      await same('SELECT $1::numeric, $1::numeric + 1, $1::numeric(10,2)', [v]);
    await same('SELECT n + $1, $1 + n, n - $1, x + $1 FROM m WHERE id < 4 ORDER BY id', ['1.500']);
    await same('SELECT x + $1, n + $1 FROM m WHERE id < 4 ORDER BY id', ['1.12500']);
    await same('SELECT $1::numeric + $2::numeric', ['1.50', '2.125']);
    // a parameter after the first: its own text's scale (the cache's shape made $2 into $1, whose text decided)
    await same('SELECT id, n + $2::numeric, x + $2 FROM m WHERE id < $1 ORDER BY id', ['4', '1.500']);
    // written into numeric(p, s): rounded to s, as there
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) await c.query('INSERT INTO m (id, n) VALUES (20, $1)', ['1.500']);
    await same('SELECT n FROM m WHERE id = 20');
    for (const c of [patina, postgres]) await c.query('DELETE FROM m WHERE id = 20');
  });

  it("a product of a numeric parameter has the sum of the factors' scales: $1::numeric * 2 with '1.25' is 2.50 (was 2.5)", async () => {
    for (const v of ['1.25', '3', '-0.5', '1.255'])
      await same(
        'SELECT $1::numeric * 2, $1::numeric * 2.0, 2.50 * $1::numeric, $1::numeric * 2.0 + 1, ($1::numeric + 1) * 2.00',
        [v],
      );
    await same('SELECT $1::numeric * $2::numeric, $1::numeric / 3, $1::numeric / 2.0', ['1.25', '1.5']);
    await same('SELECT n * $1::numeric, $1::numeric * n * 2.0, n * 1.5, n / 2.5 FROM m WHERE id < 4 ORDER BY id', [
      '1.25',
    ]);
    await same('SELECT 1.25::numeric * 2, 1.25 * 2.0, 1.25 / 2.5, 10.0 / 4, 1.5 * 1.5');
  });
  it("a numeric computed from parameters keeps PostgreSQL's digits made text and written into a plain NUMERIC (0.30000000000000004 was stored)", async () => {
    // pgx and node-postgres send numerics as text; SQLite computes with doubles
    await same(
      "SELECT ($1::numeric * 3)::text, concat($1::numeric * 3, 'x'), $1::numeric * $2::numeric, ($1::numeric * $2::numeric)::text, ($1::numeric + 0.2)::text, $1::numeric + 0.2",
      ['0.1', '0.1'],
    );
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) {
      await c.query(
        'INSERT INTO u (id, q, y) VALUES (30, 1, $1::numeric * $1::numeric), (31, 1, $2), (32, 1, 0.1 * 3)',
        ['0.1', '0.30000000000000004'],
      );
      await c.query('INSERT INTO u (id, q, y) SELECT 33, 1, $1::numeric * 3', ['0.1']);
      await c.query('INSERT INTO u (id, q, y) VALUES (32, 1, 0) ON CONFLICT (id) DO UPDATE SET y = u.y + $1', ['0.1']);
      await c.query('UPDATE u SET y = y + $1 WHERE id IN (30, 33)', ['0.2']);
    }
    try {
      // (a parameter's own 17 digits are kept, as there: a plain NUMERIC keeps what a double keeps)
      await same('SELECT id, y, y::text FROM u WHERE id >= 30 ORDER BY id');
      // (in JSON too: a stored double's own digits, as its cell prints them)
      await same("SELECT id, to_json(y), json_build_object('y', y), row_to_json(u) FROM u WHERE id >= 30 ORDER BY id");
      await same(
        'SELECT id, y * 3, (y * 3)::text, y + 0.2, concat(y / 7, y - 0.1) FROM u WHERE id >= 30 AND id <> 31 ORDER BY id',
      );
    } finally {
      for (const c of [patina, postgres]) await c.query('DELETE FROM u WHERE id >= 30');
    }
  });

  it("numeric's Infinity and -Infinity as PostgreSQL 15 takes them: literals, casts, parameters, writes, arithmetic, aggregates, text, JSON and binary (they were 22P02)", async () => {
    // literals and casts (each was 22P02)
    await same(
      "SELECT 'Infinity'::numeric, '-Infinity'::numeric, 'inf'::numeric, ' -INF '::numeric, CAST('+infinity' AS numeric), 'NaN'::numeric",
    );
    await same(
      "SELECT 'Infinity'::numeric + 1, 'Infinity'::numeric * -2, 'Infinity'::numeric - 'Infinity'::numeric, 'Infinity'::numeric * 0, 1 / 'Infinity'::numeric, 'Infinity'::numeric % 2",
    );
    await same(
      "SELECT 'Infinity'::numeric > 1e300, '-Infinity'::numeric < -1e300, 'NaN'::numeric > 'Infinity'::numeric, 'Infinity'::numeric::text, 'x' || '-Infinity'::numeric",
    );
    await same(
      "SELECT to_json('Infinity'::numeric), json_build_object('a', '-Infinity'::numeric, 'n', 'NaN'::numeric), to_jsonb('Infinity'::numeric)",
    );
    for (const sql of [
      "SELECT 'Infinity'::numeric::int",
      "SELECT 'Infinity'::numeric(10,2)",
      "SELECT 'Infinity'::numeric / 0",
      "SELECT 'infinityx'::numeric",
    ])
      await expectSameError(sql);
    // a text parameter and written rows: plain NUMERIC takes them, numeric(10,2) refuses them (22003)
    await same('SELECT $1::numeric, $2::numeric, $1::numeric + 1', ['Infinity', '-inf']);
    await expectSameError("INSERT INTO m (id, n) VALUES (29, 'Infinity')");
    await withRows(
      "(20, NULL, 'Infinity', 1), (21, 1, '-Infinity', 1), (22, 2, ' inf ', 2), (23, 3, 5, 2)",
      async () => {
        for (const c of [clients().patina, clients().postgres]) {
          await c.query('INSERT INTO m (id, x, q) VALUES ($1, $2, 3)', [24, '-Infinity']);
          await c.query("UPDATE m SET x = 'Infinity'::numeric WHERE id = 23");
          await c.query('UPDATE m SET x = 7 WHERE id = 23');
        }
        await same(
          'SELECT id, x, x + 1, -x, x * 0, x - x, x / 2, 2 / x, abs(x), round(x, 1), floor(x), sign(x) FROM m WHERE id >= 20 ORDER BY id',
        );
        await same(
          "SELECT id, x::text, x::float8, concat(x, ''), to_json(x), json_build_object('x', x) FROM m WHERE id >= 20 ORDER BY id",
        );
        await same("SELECT id FROM m WHERE x = 'Infinity' OR x < '-1e300' OR x IN ('-inf') ORDER BY id");
        await same('SELECT id FROM m WHERE x = $1 ORDER BY id', ['Infinity']);
        await same('SELECT id FROM m WHERE x IS NOT NULL ORDER BY x, id');
        await same('SELECT q, sum(x), avg(x), min(x), max(x), stddev(x) FROM m WHERE id >= 20 GROUP BY q ORDER BY q');
        await same('SELECT sum(x), avg(x), sum(x) + 1 FROM m WHERE id >= 20');
        await same(
          'SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), avg(x) OVER (ORDER BY id ROWS 1 PRECEDING) FROM m WHERE id >= 20 ORDER BY id',
        );
        await expectSameError('SELECT x::bigint FROM m WHERE id = 20');
        // binary format: sign 0xD000 and 0xF000, as PostgreSQL sends them (a column and a cast)
        const { pair } = clients();
        const hex = async (port: number, database: string) => {
          const w = await WireClient.open(port, { user: 'tester', database });
          try {
            const r = await w.extended(
              "SELECT x, 'Infinity'::numeric, '-Infinity'::numeric FROM m WHERE id >= 20 ORDER BY id",
              { resultFormats: [1] },
            );
            assert.deepEqual(r.errors, []);
            return r.rows.map((row) => row.map((v) => v?.toString('hex') ?? null));
          } finally {
            w.end();
          }
        };
        assert.deepEqual(await hex(pair.patinaPort, 'db'), await hex(pair.postgresPort, 'db'));
        // psql
        const sql = "SELECT id, x, x + 1, to_json(x) FROM m WHERE id >= 20 ORDER BY id; SELECT 'Infinity'::numeric";
        assert.equal(psqlOk(clients().pair.patinaPort, [sql]), psqlOk(clients().pair.postgresPort, [sql]));
      },
    );
  });

  it("a double's Infinity - Infinity, 0 * Infinity, Infinity / Infinity and NaN's arithmetic are NaN (were NULL, or NaN read as 0)", async () => {
    await same(
      `SELECT 'Infinity'::float8 / 'Infinity'::float8, 'Infinity'::float8 - 'Infinity'::float8, 0 * 'Infinity'::float8,
      'Infinity'::float8 + '-Infinity'::float8, '-Infinity'::float8 / 'Infinity'::float8, 'Infinity'::float4 * 0`,
    );
    await same("SELECT 'NaN'::float8 / 'NaN'::float8, 'NaN'::float8 + 1, 1 - 'NaN'::float8, 'NaN'::float8 * 2");
    // (numeric's were NaN already, also beside a double)
    await same("SELECT 'Infinity'::numeric / 'Infinity'::numeric, 'Infinity'::numeric / 'Infinity'::float8");
    await withRows('(20, NULL, NULL, 1), (21, NULL, NULL, 1), (22, NULL, NULL, 2), (23, NULL, NULL, 2)', async () => {
      for (const c of [clients().patina, clients().postgres])
        await c.query(
          "UPDATE m SET f = CASE id WHEN 20 THEN 'Infinity'::float8 WHEN 21 THEN '-Infinity'::float8 WHEN 22 THEN 2 END WHERE id >= 20",
        );
      await same(
        `SELECT id, f - f, f * 0, f / f, f + 1, f * 2.5, f / 2, 7 / f, f + q, f - 1::numeric, f / ('Infinity'::float8 * f)
        FROM m WHERE id >= 20 ORDER BY id`,
      );
      await same('SELECT id, f + 1.5, sum(f) / count(*) FROM m WHERE id >= 20 GROUP BY id, f ORDER BY id');
      await expectSameError('SELECT f / 0 FROM m WHERE id = 22');
    });
  });

  it('a double column beside a NaN or infinity, cast or string, is NaN or infinite (the cast was read as 0, the string as 0)', async () => {
    const { patina, postgres } = clients();
    try {
      for (const sql of [
        "SELECT id, f + 'NaN'::float8, 'NaN'::float8 * f, f - 'nan'::float8 FROM m ORDER BY id",
        "SELECT id, f + 'NaN', f * 'Infinity', 'Infinity' - f, f + '-inf', f * '2.5' FROM m ORDER BY id",
        "SELECT id, f + CAST('NaN' AS double precision), f * 'Infinity'::float4 FROM m ORDER BY id",
        "SELECT id FROM m WHERE f + 'NaN'::float8 > 0 ORDER BY id",
        "SELECT id FROM m WHERE f * 'Infinity' < 0 ORDER BY id",
        // numeric's too ('NaN' beside a numeric column was read as 0)
        "SELECT id, x + 'NaN', x * 'Infinity', 'NaN' - x FROM m ORDER BY id",
      ])
        await same(sql);
      await expectSameError("SELECT f + 'abc' FROM m");
      // written: INSERT VALUES and UPDATE SET store NaN and the infinities, read back as such
      for (const c of [patina, postgres]) {
        await c.query("INSERT INTO m (id, f) VALUES (30, 2 + 'NaN'::float8), (31, 'Infinity'::float8 - 1), (32, 3)");
        await c.query("UPDATE m SET f = f + 'NaN'::float8 WHERE id = 32");
        await c.query('INSERT INTO m (id, f) VALUES (33, -2), (34, 4)');
        await c.query("UPDATE m SET f = f * '-Infinity' WHERE id = 33");
        await c.query("UPDATE m SET f = 'NaN' WHERE id = 34");
      }
      await same('SELECT id, f FROM m WHERE id >= 30 ORDER BY id');
      // a stored NaN: its sign, sum and avg are NaN (-f was 0, sum and avg the others')
      await same('SELECT id, -f, -(f + 1), f * 2 FROM m ORDER BY id');
      await same('SELECT sum(f), avg(f), sum(f) FILTER (WHERE id < 31), avg(f) + 1 FROM m');
      await same('SELECT id, sum(f) OVER (ORDER BY id) FROM m ORDER BY id');
    } finally {
      for (const c of [patina, postgres]) await c.query('DELETE FROM m WHERE id >= 30');
    }
  });

  it('% and mod() of a double are 42883 as in PostgreSQL (they computed a remainder), of numerics unchanged', async () => {
    for (const sql of [
      "SELECT 'Infinity'::float8 % 2",
      'SELECT 5.5::float8 % 2',
      'SELECT 5.5::float8 % 2.5',
      "SELECT 5.5::float8 % '2'",
      'SELECT 7 % 2.5::float8',
      'SELECT f % 2 FROM m',
      'SELECT f % f FROM m',
      'SELECT mod(5.5::float8, 2)',
      'SELECT mod(f, 2) FROM m',
      'SELECT mod(2, f) FROM m',
    ])
      await expectSameError(sql);
    await same('SELECT id, n % 2, x % 2, mod(n, 3), 5.5 % 2, f::numeric % 2 FROM m ORDER BY id');
  });

  it("a double's +, -, * and / past its range are 22003 overflow or underflow (were Infinity and 0), of columns too", async () => {
    for (const sql of [
      'SELECT 1e308::float8 * 10',
      'SELECT 1e308::float8 + 1e308::float8',
      'SELECT -1e308::float8 - 1e308::float8',
      'SELECT 1e308::float8 / 1e-10',
      'SELECT 1e-308::float8 / 1e300',
      'SELECT 1e-308::float8 * 1e-300',
      "SELECT '1e308'::float8 * '1e10'::float8",
    ])
      await expectSameError(sql);
    // an infinity in, or a zero operand, is no overflow or underflow
    await same(
      "SELECT 'Infinity'::float8 * 2, 'Infinity'::float8 + 1e308, 0::float8 * 1e-300, 1 / 'Infinity'::float8, 1e-308::float8 / 1e10",
    );
    // (the quotient now computed by __pg_float_div: 22012 by zero, NaN / 0 NaN, as before)
    await expectSameError("SELECT 'NaN'::float8 / 0, 1::float8 / 0");
    await same("SELECT 'NaN'::float8 / 0");
    const { patina, postgres } = clients();
    try {
      for (const c of [patina, postgres])
        await c.query("INSERT INTO m (id, f) VALUES (30, 1e308), (31, 'Infinity'), (32, 1e-300)");
      for (const sql of [
        'SELECT f * 10 FROM m WHERE id = 30',
        'SELECT f + f FROM m WHERE id = 30',
        'SELECT f - -1e308 FROM m WHERE id = 30',
        'SELECT f / 1e-10 FROM m WHERE id = 30',
        'SELECT (f + 1) * 10 FROM m WHERE id = 30',
        'SELECT f * f FROM m WHERE id = 32',
        'SELECT f / 1e300::float8 FROM m WHERE id = 32',
        'UPDATE m SET f = f * 10 WHERE id = 30',
      ])
        await expectSameError(sql);
      await same('SELECT id, f, f * 10, f / 10, f * 0, f + 1 FROM m WHERE id > 30 ORDER BY id');
      await same('SELECT id, f * $1 FROM m WHERE id = 31', [2]);
    } finally {
      for (const c of [patina, postgres]) await c.query('DELETE FROM m WHERE id >= 30');
    }
  });

  it('a double written past its range, as a string, a parameter or a number cast, is 22003 out of range (it was Infinity or 0, and stored so)', async () => {
    for (const sql of [
      "SELECT '1e400'::float8",
      "SELECT '-1e400'::float8",
      "SELECT '1e-400'::float8",
      "SELECT CAST('1e400' AS double precision)",
      'SELECT 1e400::float8',
      'SELECT 1.50e-400::float8',
      'SELECT 1e40::real',
      "INSERT INTO m (id, f) VALUES (40, '1e400')",
    ])
      await expectSameError(sql);
    const { patina, postgres } = clients();
    for (const params of [['1e400'], ['-1e999'], ['1e-400']]) {
      const err = (c: PgClient, sql: string) =>
        c.query(sql, params).then(
          () => 'ran',
          (e: { code?: string; message?: string }) => `${e.code} ${e.message}`,
        );
      for (const sql of ['SELECT $1::float8', 'INSERT INTO m (id, f) VALUES (41, $1)']) {
        const p = await err(patina, sql);
        assert.match(p, /^22003 /, sql);
        assert.equal(p, await err(postgres, sql), sql);
      }
    }
    // the edges that fit (a subnormal is kept) are read as before; nothing above was written
    await same("SELECT 1e308::float8, 1e-310::float8, '1e-310'::float8, '-1.5e308'::float8, 2.5e3::float8");
    await same('SELECT count(*) FROM m WHERE id >= 40');
  });

  it("a real (float4) is the nearest single-precision value: printed as float4 prints it (0.1), read as a double, a numeric or in arithmetic as PostgreSQL's (0.1::float4::float8 was 0.1)", async () => {
    const { patina, postgres, pair } = clients();
    for (const c of [patina, postgres]) {
      await c.query('INSERT INTO r4 VALUES (1, 0.1), (2, 1e-40), (3, 3.3), (4, NULL)');
      await c.query('INSERT INTO r4 VALUES ($1, $2)', [5, '16777217']);
      await c.query('INSERT INTO r4 SELECT 6, 0.3::float8');
      await c.query('INSERT INTO r4 VALUES (8, 2)');
      await c.query('UPDATE r4 SET r = 0.7 WHERE id = 8');
    }
    await same('SELECT id, r, r::float8, r::numeric, r::text, r * 3, r + 1, r = 0.1, -r FROM r4 ORDER BY id');
    await same('SELECT sum(r), avg(r), max(r), min(r), sum(r) FILTER (WHERE id < 4) FROM r4');
    await same('SELECT id FROM r4 WHERE r = 0.1::float4 OR r = 0.3::real');
    // real with real is real (float4pl), with an integer a double; coalesce and greatest of a real and an integer real
    await same(
      'SELECT 0.1::float4, 0.1::float4::float8, 0.1::float4 * 3, 0.1::float4 + 0.2::float4, -0.5::float4 / 1.5::float4, 1.5::float4 * 1.5::float4',
    );
    await same('SELECT coalesce(r, 0), greatest(r, 1), CASE WHEN id > 2 THEN r ELSE 2 END FROM r4 ORDER BY id');
    await same('SELECT r FROM r4 WHERE id < 3 UNION ALL SELECT 2 ORDER BY 1');
    // to an integer or numeric: float4's value, numeric of its 6 significant digits (a double's 15)
    await same(
      'SELECT 16777217::float4::int4, 16777217::float4::int8, 16777217::float4::numeric, 1234567.0::float4::numeric, 1e-40::float4, 1e-40::float4::float8, 1e-40::float4::numeric, CAST(0.3::float4 AS numeric), 0.1::float4::numeric(5,3)',
    );
    await same(
      'SELECT 0.30000000000000004::float8::numeric, 123456789012345678::float8::numeric, 9.2233720368547758e18::float8::numeric, CAST(1e16::float8 AS numeric)',
    );
    // in JSON as float4 prints it
    await same(
      "SELECT to_json(r), to_jsonb(r), json_build_object('r', r), row_to_json(r4) FROM r4 WHERE id < 4 ORDER BY id",
    );
    await same('SELECT json_agg(r ORDER BY id), array_agg(r ORDER BY id), to_json(0.1::float4) FROM r4 WHERE id < 4');
    // an array of reals holds float4's text: cast to text[] or numeric[] it is 0.1
    await same('SELECT ARRAY[0.1::float4]::text[], ARRAY[0.1::float4]::numeric[], ARRAY[0.1::float4]');
    await same(
      'SELECT array_agg(r ORDER BY id)::text[], array_agg(r ORDER BY id)::numeric[] FROM r4 WHERE id IN (1, 3)',
    );
    await same('SELECT ARRAY[r, 1.5::float4]::text[] FROM r4 WHERE id < 4 ORDER BY id');
    // the binary format's bytes too
    const bytes = async (port: number) => {
      const w = await WireClient.open(port, { user: 'tester', database: 'db' });
      try {
        const r = await w.extended(
          'SELECT r, r::float8, r * 3, 0.1::float4 + 0.2::float4, sum(r) OVER () FROM r4 WHERE id < 4 ORDER BY id',
          { resultFormats: [1] },
        );
        assert.deepEqual(r.errors, []);
        return [r.fields.map((f) => f.typeOid), r.rows.map((row) => row.map((v) => v?.toString('hex') ?? null))];
      } finally {
        w.end();
      }
    };
    assert.deepEqual(await bytes(pair.patinaPort), await bytes(pair.postgresPort));
  });

  it('a numeric(p, s) value inside an array keeps its scale: ARRAY[n], array_agg(n), in text and JSON ({12.50}; it was {12.5})', async () => {
    await same(
      'SELECT id, ARRAY[n], ARRAY[n, 1], ARRAY[n]::text, (ARRAY[n])[1], to_json(ARRAY[n]) FROM m WHERE id < 10 ORDER BY id',
    );
    await same(
      "SELECT array_agg(n ORDER BY id), array_agg(n ORDER BY id)::text, array_to_string(array_agg(n ORDER BY id), ',') FROM m WHERE id < 10",
    );
    await same('SELECT q, array_agg(n) FROM m WHERE id < 10 GROUP BY q ORDER BY q');
    await same(
      'SELECT ARRAY[1.50::numeric(5,2)], ARRAY[1.50, 2], ARRAY[1.5::numeric(5,2), 2], ARRAY[n + 1] FROM m WHERE id = 1',
    );
    // literals alone, and a numeric array's elements still matched by value
    await same('SELECT ARRAY[1.0, 1.00, 2], ARRAY[1.50]::text, ARRAY[1e3, 2.5e-1]');
    await same(
      'SELECT array_positions(ARRAY[1.0, 1.00, 2]::numeric[], 1), array_positions(ARRAY[n, 12.5], 12.5) FROM m WHERE id = 1',
    );
  });

  it('NULLIF is of the type of the `=` PostgreSQL picks: numeric beside a double is float8 (it was numeric), beside an integer numeric', async () => {
    await same(
      "SELECT id, NULLIF(round(n, 2), round(3)), NULLIF(n, f), NULLIF(f, n), NULLIF(q, 1.5), NULLIF(q, f), NULLIF(q, 2), NULLIF(n, 0.10), NULLIF(NULL, n), NULLIF('1', q) FROM m WHERE id < 10 ORDER BY id",
    );
    await same('SELECT id, NULLIF(n, 12.5)::text, NULLIF(x, 1.5), NULLIF(q, 2.0) FROM m WHERE id < 10 ORDER BY id');
  });

  it("a CASE or coalesce with a cast NULL among its values keeps the others' scale (NULL::numeric: 12.50 was 12.5)", async () => {
    await same(
      'SELECT id, (CASE WHEN q > 1 THEN n ELSE NULL::numeric END)::text, CASE WHEN q > 1 THEN n ELSE NULL::numeric END, coalesce(NULL::numeric, n), CASE WHEN q > 1 THEN NULL::numeric(4,1) ELSE n END FROM m WHERE id < 10 ORDER BY id',
    );
    // values of several scales made text: each at its own (100.00 was printed for 1e2)
    await same(
      'SELECT id, (CASE WHEN q > 1 THEN 1e2 ELSE n END)::text, (CASE WHEN q > 2 THEN -1.5 ELSE n END)::text, coalesce(n, 0)::text FROM m WHERE id < 10 ORDER BY id',
    );
  });

  it('a set operation whose first item is in parentheses prints and sorts its numerics as one without (13.5 was 13.50)', async () => {
    await same('SELECT (n + 1) FROM m WHERE id < 10 UNION ALL SELECT 2.5 ORDER BY 1');
    await same('SELECT (abs(n) - (n)::bigint) AS d FROM m WHERE id < 10 UNION SELECT round(1.50) ORDER BY d DESC');
  });

  it('EXCEPT ALL and INTERSECT ALL of numerics of several scales match by number (0.10 and 0.1 were two) and sort by number', async () => {
    await same('SELECT n FROM m WHERE id < 10 EXCEPT ALL SELECT 0.1 ORDER BY 1');
    await same('SELECT q FROM m WHERE id < 10 EXCEPT ALL SELECT 2.0 ORDER BY 1');
    // (INTERSECT ALL: values of one scale where they match; PostgreSQL prints a match of two scales
    // as its smaller input holds it, which its planner picks)
    await sameOnBoth(clients(), 'SELECT n FROM m WHERE id < 10 INTERSECT ALL SELECT 12.50 UNION ALL SELECT 0.1', [], {
      sorted: true,
    });
    await same(
      '(SELECT n FROM m WHERE id < 10 UNION ALL SELECT n FROM m UNION ALL SELECT 1.5) INTERSECT ALL SELECT 19.99 ORDER BY 1',
    );
    await same('SELECT n FROM m WHERE id < 10 UNION ALL SELECT n FROM m EXCEPT ALL SELECT 12.5 ORDER BY n DESC');
    // (found by the differential generator: -0.01 printed -0.009999999776482582, sorted as text)
    await same('SELECT (abs(n) - (n)::bigint) FROM m WHERE id < 10 EXCEPT ALL SELECT round(1.50) ORDER BY 1 LIMIT 3');
    await same('SELECT avg(n), q FROM m WHERE id < 10 GROUP BY q EXCEPT ALL SELECT 12.5, 3 ORDER BY 2');
  });

  /** Runs `sql` on both servers; both must fail with the same SQLSTATE and message. */
  async function expectSameError(sql: string): Promise<void> {
    const err = (c: PgClient) =>
      c.query(sql).then(
        () => null,
        (e: { code?: string; message?: string }) => [e.code, e.message],
      );
    const want = await err(clients().postgres);
    assert.notEqual(want, null, `PostgreSQL took ${sql}`);
    assert.deepEqual(await err(clients().patina), want, sql);
  }
});
