// An UPDATE whose new values read the table it changes, against PostgreSQL 15: PostgreSQL computes
// every new value from the table as it was before the statement; SQLite's one pass let a subquery
// read the rows the same UPDATE had already changed, and stored other values (`SET v = (SELECT v
// FROM items i2 WHERE i2.id = items.id - 1)` stored NULL in every row). The rows written, returned
// and read back after, on Patina and on a real PostgreSQL 15 (translate/self-reading-updates.ts).
import { type OracleClients, oracleSuite, sameOnBoth, sameOutcomeOnBoth } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, v BIGINT, name TEXT, price NUMERIC(10,2));
CREATE TABLE other (id BIGINT NOT NULL PRIMARY KEY, v BIGINT);`;
const ROWS = [
  "INSERT INTO items VALUES (1, 10, 'a', 1.50), (2, 20, 'b', 2.25), (3, 30, 'c', NULL), (4, 40, 'd', 4.00)",
  'INSERT INTO other VALUES (1, 100), (2, 200)',
];
const TABLE = 'SELECT id, v, name, price FROM items ORDER BY id';

describe('an UPDATE reading the table it changes, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { clients } = oracleSuite(SCHEMA, ROWS);
  const outcome = (sql: string) => sameOutcomeOnBoth(clients() as OracleClients, sql);
  const same = (sql: string, params?: unknown[]) => sameOnBoth(clients() as OracleClients, sql, params);
  const sorted = (sql: string) => sameOnBoth(clients() as OracleClients, sql, undefined, { sorted: true });

  it('each new value is computed from the rows as they were before the statement', async () => {
    // the row before's old value (SQLite's one pass read the new one: NULL in every row)
    await same('UPDATE items SET v = (SELECT v FROM items i2 WHERE i2.id = items.id - 1)');
    await same(TABLE);
    // a running total over the old values, with a WHERE, RETURNING the new ones
    await sorted(
      'UPDATE items SET v = coalesce(v, 0) + (SELECT count(*) + coalesce(sum(v), 0) FROM items i2 WHERE i2.id <= items.id) WHERE id > 1 RETURNING id, v',
    );
    await same(TABLE);
    // an aliased target, a text column, a numeric one
    await same("UPDATE items AS t SET name = (SELECT name || '!' FROM items u WHERE u.id = t.id - 1) || t.name");
    await same('UPDATE items SET price = (SELECT max(price) FROM items u WHERE u.id < items.id) + 0.5 WHERE id >= 2');
    await same(TABLE);
  });

  it('a multiple-column SET from a subquery of the same table, a parameter, a transaction block', async () => {
    // a rotation: each row takes the next row's old values
    await outcome('UPDATE items SET (v, name) = (SELECT v, name FROM items u WHERE u.id = items.id % 4 + 1)');
    await same(TABLE);
    const o = clients() as OracleClients;
    for (const c of [o.patina, o.postgres]) await c.query('BEGIN');
    await same('UPDATE items SET v = (SELECT v FROM items u WHERE u.id = items.id - $1::bigint) WHERE id > 1', [1]);
    await same(TABLE);
    for (const c of [o.patina, o.postgres]) await c.query('COMMIT');
    await same(TABLE);
  });

  it('an UPDATE with a FROM of its own, or reading another table, is as before', async () => {
    await same(
      'UPDATE items SET v = o.v + (SELECT max(v) FROM items i2 WHERE i2.id < items.id) FROM other o WHERE o.id = items.id',
    );
    await same('UPDATE items SET v = (SELECT v FROM other o WHERE o.id = items.id) WHERE id <= 2 RETURNING id, v');
    await same(TABLE);
    // an error is PostgreSQL's: more than one row from the subquery
    await outcome('UPDATE items SET v = (SELECT v FROM items u WHERE u.id <> items.id)');
    await same(TABLE);
  });
});
