// Result column names and types, and the SQL that ORMs send, with PostgreSQL 15 as the oracle: the
// same statements on both servers (same tables, same rows), through node-postgres.
import assert from 'node:assert/strict';
import { type OracleClients, startOracle } from '../helpers/catalog-pair';
import type { PgClient } from '../helpers/pg';

type Result = { fields: [string, number][]; rows: unknown[][] };

async function run(c: PgClient, sql: string, params?: unknown[]): Promise<Result> {
  const r = await c.query({ text: sql, values: params, rowMode: 'array' });
  return { fields: r.fields.map((f) => [f.name, f.dataTypeID]), rows: r.rows };
}

describe('result types and ORM SQL, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;
  let patina: PgClient;
  let postgres: PgClient;

  before(async () => {
    o = await startOracle({ rows: true });
    ({ patina, postgres } = o);
  });
  after(() => o?.close());

  async function both(sql: string, params?: unknown[]): Promise<[Result, Result]> {
    return [await run(patina, sql, params), await run(postgres, sql, params)];
  }

  it('aggregates and functions are typed as PostgreSQL types them, named as it names them', async () => {
    for (const sql of [
      'SELECT count(*), count(note), sum(customer_id), sum(amount), max(placed_at), min(note), max(amount) FROM orders',
      'SELECT sum(qty), avg(qty), max(price), min(qty), sum(price) FROM line_items',
      'SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id ORDER BY customer_id',
      "SELECT date_trunc('day', placed_at) FROM orders WHERE id = 1",
      'SELECT id + 1, id * 2.5, -id, id::text, CAST(id AS int4), length(note) FROM orders WHERE id = 1',
      "SELECT coalesce(note, 'none'), CASE WHEN paid THEN 1 ELSE 0 END, nullif(customer_id, 2), upper(note) FROM orders ORDER BY id",
      'SELECT id = 1, note IS NULL, paid AND true, EXISTS (SELECT 1 FROM customers) FROM orders ORDER BY id',
      'SELECT (SELECT max(id) FROM customers) AS top, abs(customer_id - 5), round(price) FROM line_items, orders WHERE orders.id = line_items.order_id ORDER BY line',
    ]) {
      const [p, g] = await both(sql);
      assert.deepEqual(p.fields, g.fields, sql);
    }
    // and where the values print alike, the values
    for (const sql of [
      'SELECT count(*), sum(customer_id), max(placed_at), min(note) FROM orders',
      'SELECT sum(qty), min(qty), max(price) FROM line_items',
      'SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id ORDER BY customer_id',
    ]) {
      const [p, g] = await both(sql);
      assert.deepEqual(p, g, sql);
    }
  });

  it('now(), CURRENT_TIMESTAMP and current_date are timestamptz and date', async () => {
    const [p, g] = await both('SELECT now(), CURRENT_TIMESTAMP, current_date, localtimestamp');
    assert.deepEqual(p.fields, g.fields);
    const [pn, gn] = [p.rows[0][0] as Date, g.rows[0][0] as Date];
    assert.ok(Math.abs(pn.getTime() - gn.getTime()) < 60_000, `${pn.toISOString()} and ${gn.toISOString()}`);
  });

  it('DEFAULT in VALUES takes the column default, NULL where there is none (what Drizzle sends)', async () => {
    const sql =
      'INSERT INTO orders (id, customer_id, amount, note, paid) VALUES ($1, DEFAULT, $2, default, DEFAULT), ($3, 7, DEFAULT, $4, true) RETURNING id, customer_id, amount, note, paid';
    const [p, g] = await both(sql, [100, '4.5', 101, 'x']);
    assert.deepEqual(p, g);
    assert.deepEqual(p.rows, [
      ['100', '0', '4.5', null, false],
      ['101', '7', null, 'x', true],
    ]);
    await both('DELETE FROM orders WHERE id >= 100');
  });

  it('= ANY($1) and <> ALL($1) with an array parameter, in reads and in writes', async () => {
    for (const [sql, params] of [
      ['SELECT id FROM orders WHERE id = ANY($1) ORDER BY id', [[1, 2, 99]]],
      ['SELECT id FROM orders WHERE id <> ALL($1) ORDER BY id', [[1]]],
      ['SELECT name FROM customers WHERE name = ANY($1) ORDER BY name', [['bob', 'zed']]],
      ['SELECT id FROM orders WHERE id = ANY($1)', [[]]],
    ] as [string, unknown[]][]) {
      const [p, g] = await both(sql, params);
      assert.deepEqual(p, g, sql);
    }
    await both("INSERT INTO customers (id, name) VALUES (10, 'ten'), (11, 'eleven'), (12, 'twelve')");
    const [p, g] = await both('DELETE FROM customers WHERE id = ANY($1) RETURNING id', [[10, 12]]);
    assert.deepEqual(p, g);
    assert.deepEqual((await both('SELECT id FROM customers WHERE id >= 10'))[0].rows, [['11']]);
    await both('DELETE FROM customers WHERE id >= 10');
  });

  it('regproc, regprocedure and the other reg* casts and to_regproc are typed as there, an OID cast prints the name (they were text, the OID its number)', async () => {
    for (const [sql, params] of [
      [
        "SELECT 'now'::regproc, 'upper(text)'::regprocedure, to_regproc('now'), to_regprocedure('upper(text)'), to_regproc('nosuch')",
        [],
      ],
      ["SELECT oid::regproc, oid::regprocedure FROM pg_proc WHERE proname IN ('upper', 'abs', 'now') ORDER BY 2", []],
      ['SELECT 1299::regproc, 1299::regprocedure, 0::regproc, $1::regproc', ['now']],
      ["SELECT 'tester'::regrole, 'english'::regconfig, 'simple'::regdictionary, '||/'::regoper", []],
    ] as [string, unknown[]][]) {
      const [p, g] = await both(sql, params);
      assert.deepEqual(p, g, sql);
    }
  });

  it('a DEFAULT that is not alone in its value is a syntax error on both', async () => {
    const sql = 'INSERT INTO orders (id, customer_id) VALUES (200, DEFAULT + 1)';
    const errs = await Promise.all(
      [patina, postgres].map((c) =>
        c.query(sql).then(
          () => null,
          (e: { code: string }) => e.code,
        ),
      ),
    );
    assert.deepEqual(errs, ['42601', '42601']);
  });
});
