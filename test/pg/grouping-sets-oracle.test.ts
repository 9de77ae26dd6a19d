// GROUP BY ROLLUP, CUBE and GROUPING SETS (subtotals, what analysts and report tools write): the same
// statements on Patina and on PostgreSQL 15 through node-postgres, compared by value and by the
// result's column types. They were refused (0A000); now each grouping is a query of its own, joined
// by UNION ALL (sql/translate/grouping-sets.ts), in a subquery when window functions or the ORDER BY
// need what the select list does not hold.
import assert from 'node:assert/strict';
import { oracleSuite } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE sales (id BIGINT NOT NULL PRIMARY KEY, region TEXT, product TEXT, amount NUMERIC(10,2), qty BIGINT, day DATE, paid BOOLEAN);`;
const ROWS = [
  `INSERT INTO sales VALUES
    (1, 'north', 'apple', 10.50, 3, '2024-03-01', true),
    (2, 'north', 'pear', 4.25, 1, '2024-03-01', false),
    (3, 'south', 'apple', 7.00, 2, '2024-03-02', true),
    (4, 'south', 'apple', 1.10, 5, '2024-03-03', NULL),
    (5, 'east', 'plum', 20.00, 8, '2024-03-03', true),
    (6, NULL, 'pear', 3.30, 4, '2024-03-04', false)`,
];

describe('grouping sets (ROLLUP, CUBE, GROUPING SETS) against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);

  it('ROLLUP gives the subtotals and the grand total, NULL where a column is rolled up', async () => {
    await same('SELECT region, sum(amount), count(*) FROM sales GROUP BY ROLLUP(region) ORDER BY 2');
    await same(
      'SELECT region, product, sum(qty), grouping(region, product) FROM sales GROUP BY ROLLUP(region, product) ORDER BY 4, 3, 1',
    );
    // a row of columns rolled up together, and plain columns before it (each grouping keeps them)
    await same('SELECT region, product, sum(qty) FROM sales GROUP BY ROLLUP((region, product)) ORDER BY 3');
    await same('SELECT paid, region, sum(qty) FROM sales GROUP BY paid, ROLLUP(region) ORDER BY 3, 1');
  });

  it('CUBE and GROUPING SETS (nested, empty), GROUP BY DISTINCT and SELECT DISTINCT', async () => {
    await same(
      'SELECT region, paid, sum(qty), grouping(region), grouping(paid, region) FROM sales GROUP BY CUBE(region, paid) ORDER BY 5, 3, 1',
    );
    await same(
      'SELECT region, product, count(*) AS n FROM sales GROUP BY GROUPING SETS ((region), (product), ()) ORDER BY 3, 1, 2',
    );
    await same(
      'SELECT region, product, sum(qty) FROM sales GROUP BY GROUPING SETS (region, ROLLUP(product)) ORDER BY 3, 1, 2',
    );
    await same('SELECT product, sum(qty) FROM sales GROUP BY DISTINCT ROLLUP(product), ROLLUP(product) ORDER BY 2');
    await same('SELECT DISTINCT product FROM sales GROUP BY ROLLUP(product), product ORDER BY 1');
  });

  it('expressions, aliases, HAVING, FILTER, LIMIT, parameters, a WITH query and a subquery', async () => {
    await same(
      "SELECT date_trunc('day', day) AS d, sum(qty) AS total FROM sales GROUP BY ROLLUP(date_trunc('day', day)) ORDER BY d",
    );
    await same(
      "SELECT coalesce(s.region, 'all') AS region, sum(s.qty) FILTER (WHERE s.paid) AS paid_qty FROM sales s GROUP BY ROLLUP(s.region) HAVING count(*) > 1 ORDER BY 2 DESC, 1 LIMIT 3",
    );
    await same('SELECT region, sum(qty) FROM sales WHERE qty > $1 GROUP BY CUBE(region) ORDER BY 2, 1', [1]);
    await same(
      'WITH s AS (SELECT * FROM sales WHERE amount > 2) SELECT product, count(*) FROM s GROUP BY ROLLUP(product) ORDER BY 2, 1',
    );
    await same(
      'SELECT * FROM (SELECT region, sum(qty) AS q FROM sales GROUP BY ROLLUP(region)) r WHERE q > 4 ORDER BY q',
    );
    // the empty grouping yields its one row even when no row matches, with or without aggregates
    await same('SELECT region, count(*) FROM sales WHERE id < 0 GROUP BY ROLLUP(region) ORDER BY 1');
    await same('SELECT region FROM sales WHERE id < 0 GROUP BY ROLLUP(region) ORDER BY 1');
  });

  it('ORDER BY what the select list does not hold: an aggregate, a grouped column, GROUPING(), an expression', async () => {
    // (each grouping's query carries them as hidden columns, an outer SELECT leaves them out)
    await same(
      'SELECT region, sum(amount) FROM sales GROUP BY ROLLUP(region) ORDER BY region NULLS LAST, sum(amount) DESC',
    );
    await same('SELECT region, sum(qty) FROM sales GROUP BY ROLLUP(region) ORDER BY count(*), max(amount) DESC');
    await same(
      'SELECT region, sum(qty) FROM sales GROUP BY ROLLUP(region, product) ORDER BY region, product NULLS FIRST, 2',
    );
    await same(
      'SELECT product, count(*) FROM sales GROUP BY CUBE(region, product) ORDER BY grouping(region, product), region, product',
    );
    await same(
      "SELECT coalesce(region, 'all') AS r, sum(qty) AS q FROM sales GROUP BY ROLLUP(region) HAVING count(*) > 1 ORDER BY avg(qty) DESC, lower(region) LIMIT 2 OFFSET 1",
    );
    await same(
      'SELECT region, count(*) FROM sales GROUP BY ROLLUP(region) ORDER BY percentile_cont(0.5) WITHIN GROUP (ORDER BY qty), 1',
    );
    await same(
      'SELECT * FROM (SELECT region, sum(qty) AS q FROM sales GROUP BY ROLLUP(region) ORDER BY count(*) DESC, q LIMIT 3) r ORDER BY q',
    );
    await same('SELECT region FROM sales WHERE id < 0 GROUP BY ROLLUP(region) ORDER BY sum(qty), count(*)');
    // a correlated subquery sees a rolled-up column as NULL, in the select list and the ORDER BY
    await same(
      'SELECT region, product, (SELECT max(s2.qty) FROM sales s2 WHERE s2.region = sales.region AND s2.product = sales.product) AS m FROM sales GROUP BY ROLLUP(region, product) ORDER BY 1, 2, 3',
    );
    await same(
      'SELECT region, count(*) FROM sales GROUP BY ROLLUP(region) ORDER BY (SELECT count(*) FROM sales s2 WHERE s2.region = sales.region), 1, 2',
    );
  });

  it('window functions over the rows of every grouping (rank of the subtotals, shares of the total)', async () => {
    await same(
      'SELECT region, sum(qty), rank() OVER (ORDER BY sum(qty) DESC) FROM sales GROUP BY ROLLUP(region) ORDER BY 3, 1',
    );
    await same(
      'SELECT region, product, sum(qty), row_number() OVER (PARTITION BY region ORDER BY product NULLS FIRST, sum(qty)) FROM sales GROUP BY ROLLUP(region, product) ORDER BY 1, 4',
    );
    await same(
      'SELECT region, sum(qty) * 100 / sum(sum(qty)) OVER (PARTITION BY grouping(region)) AS pct FROM sales GROUP BY ROLLUP(region) ORDER BY 1, grouping(region)',
    );
    await same(
      'SELECT region, paid, count(*), dense_rank() OVER w, sum(count(*)) OVER w FROM sales GROUP BY GROUPING SETS ((region), (paid), ()) WINDOW w AS (ORDER BY count(*), region, paid) ORDER BY 4',
    );
    await same(
      'WITH r AS (SELECT region, sum(amount) AS s, rank() OVER (ORDER BY sum(amount)) AS k FROM sales GROUP BY ROLLUP(region)) SELECT * FROM r ORDER BY k',
    );
    await same(
      'SELECT region, sum(qty) FILTER (WHERE paid), lag(region) OVER (ORDER BY sum(qty) FILTER (WHERE paid) NULLS FIRST, region) FROM sales GROUP BY ROLLUP(region) ORDER BY 2 NULLS FIRST, 1',
    );
    await same('SELECT rank() OVER (ORDER BY region) FROM sales WHERE id < 0 GROUP BY ROLLUP(region)');
  });

  // positions were grouped as constants (subtotals repeated the detail rows), aliases were 42703
  it('a grouping set names a result column by position (ROLLUP (1, 2)) or by its alias, as GROUP BY does', async () => {
    await same(
      'SELECT extract(month FROM day) AS m, extract(day FROM day) AS dd, sum(qty) FROM sales GROUP BY ROLLUP (1, 2) ORDER BY 3, 1, 2',
    );
    await same('SELECT region, paid, count(*) FROM sales GROUP BY CUBE (1, 2) ORDER BY 3, 1, 2');
    await same(
      "SELECT date_trunc('month', day) AS month, product AS p, sum(amount) FROM sales GROUP BY ROLLUP (month, p) ORDER BY 3, 1, 2",
    );
    await same(
      'SELECT region AS r, count(*), grouping(region) FROM sales GROUP BY GROUPING SETS ((r), ()) ORDER BY 2, 1',
    );
  });

  it('a column outside every grouping is 42803; ORDER BY outside a DISTINCT list is 42P10', async () => {
    for (const [sql, code] of [
      ['SELECT region, count(*) FROM sales GROUP BY ROLLUP (1, 3)', '42P10'],
      ['SELECT region, product, count(*) FROM sales GROUP BY ROLLUP(region)', '42803'],
      ['SELECT region, count(*) FROM sales GROUP BY ROLLUP(region) ORDER BY qty', '42803'],
      ['SELECT DISTINCT region FROM sales GROUP BY ROLLUP(region, product) ORDER BY product', '42P10'],
      ['SELECT region, count(*) FROM sales GROUP BY ROLLUP(region) ORDER BY 3', '42P10'],
    ]) {
      const p = await clients()
        .patina.query(sql)
        .then(
          () => null,
          (e: { code?: string; message: string }) => e,
        );
      assert.equal(p?.code, code, `${sql}: ${p?.message}`);
      await assert.rejects(clients().postgres.query(sql), (e: { code?: string }) => e.code === code);
    }
    await same('SELECT 1');
  });

  it('a column no table has inside a grouping set is 42703 at the name, as there (it was 0A000 naming the ROLLUP)', async () => {
    const placed = (c: ReturnType<typeof clients>['patina'], sql: string) =>
      c.query(sql).then(
        () => 'ran',
        (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
      );
    for (const sql of [
      'SELECT region, count(*) FROM sales GROUP BY ROLLUP (nosuch)',
      'SELECT region, count(*) FROM sales GROUP BY GROUPING SETS (region, nosuch)',
      'SELECT region, count(*) FROM sales GROUP BY CUBE (region, sales.nosuch)',
    ]) {
      const p = await placed(clients().patina, sql);
      assert.match(p, /^42703 column (sales\.nosuch|"nosuch") does not exist/, sql);
      assert.equal(p, await placed(clients().postgres, sql), sql);
    }
  });
});
