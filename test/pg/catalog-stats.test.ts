// What monitoring and BI tools read of the tables' sizes and activity, on Patina and on a real
// PostgreSQL 15 holding the same tables: pg_relation_size and its kin, psql's \dt+ and \di+,
// pg_stat_user_tables, pg_stat_all_tables and pg_stat_database. Each was 0 or empty.
import assert from 'node:assert/strict';
import { type OracleClients, startOracle } from '../helpers/catalog-pair';
import { psql } from '../helpers/pg';

describe('relation sizes and table statistics against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ rows: true });
  });
  after(() => o?.close());

  const fields = async (sql: string) => (await o.patina.query(sql)).fields.map((f) => `${f.name}:${f.dataTypeID}`);

  it('the views have PostgreSQL 15 columns, names and types', async () => {
    for (const view of ['pg_stat_user_tables', 'pg_stat_all_tables', 'pg_stat_database']) {
      const sql = `SELECT * FROM ${view} LIMIT 0`;
      const want = (await o.postgres.query(sql)).fields.map((f) => `${f.name}:${f.dataTypeID}`);
      assert.deepEqual(await fields(sql), want, view);
    }
  });

  it('pg_relation_size, pg_table_size, pg_indexes_size and pg_total_relation_size are the SQLite btrees, and grow', async () => {
    const sizes = async () =>
      (
        await o.patina.query(
          `SELECT pg_relation_size('orders') AS rel, pg_table_size('orders'::regclass) AS tab,
                  pg_indexes_size('orders') AS idx, pg_total_relation_size('orders') AS total,
                  pg_relation_size('orders_customer') AS one_index, pg_relation_size('orders', 'fsm') AS fsm,
                  pg_relation_size(0) AS none`,
        )
      ).rows[0];
    const before = await sizes();
    assert.equal(before.none, null);
    assert.equal(before.fsm, '0');
    assert.ok(Number(before.rel) >= 4096, `orders: ${before.rel} bytes`);
    assert.equal(before.tab, before.rel);
    // two CREATE INDEX btrees (the INTEGER primary key is the table's own btree)
    assert.ok(Number(before.idx) >= 2 * 4096, `indexes: ${before.idx}`);
    assert.equal(Number(before.total), Number(before.rel) + Number(before.idx));
    await o.patina.query(
      `INSERT INTO orders (id, customer_id, note)
         SELECT g, g % 7, repeat('x', 200) FROM generate_series(100, 2099) AS g`,
    );
    const after = await sizes();
    assert.ok(Number(after.rel) > Number(before.rel) + 2000 * 200, `${before.rel} → ${after.rel}`);
    assert.ok(Number(after.one_index) > Number(before.one_index), 'the index grew');
    // the types PostgreSQL gives them: bigint
    const types = (await o.patina.query("SELECT pg_relation_size('orders') AS n")).fields[0].dataTypeID;
    assert.equal(types, (await o.postgres.query("SELECT pg_relation_size('orders') AS n")).fields[0].dataTypeID);
    await o.patina.query('DELETE FROM orders WHERE id >= 100');
  });

  it('psql \\dt+ and \\di+ show sizes (they were 0 bytes), with the columns PostgreSQL shows', () => {
    for (const cmd of ['\\dt+', '\\di+']) {
      const [patina, postgres] = [o.pair.patinaPort, o.pair.postgresPort].map((port) => {
        const r = psql(port, [cmd], ['-A']);
        assert.equal(r.status, 0, r.stderr);
        return r.stdout.trim().split('\n');
      });
      assert.equal(patina[1], postgres[1], `${cmd} header`);
      assert.equal(patina.length, postgres.length, `${cmd} rows`);
      const size = patina[1].split('|').indexOf('Size');
      for (const line of patina.slice(2, -1)) assert.match(line.split('|')[size], /^\d+ (bytes|kB)$/, line);
      // (an INTEGER primary key is the table's own btree: its index has no pages of its own)
      for (const line of patina.slice(2, -1))
        if (!/^public\|(customers|orders)_pkey\|/.test(line)) assert.notEqual(line.split('|')[size], '0 bytes', line);
    }
  });

  it('pg_stat_user_tables and pg_stat_all_tables: a row per table with its live rows; pg_class.reltuples too', async () => {
    const sql = `SELECT relname, n_live_tup, seq_scan, n_dead_tup, relid = relname::regclass AS oid_ok
                   FROM pg_stat_user_tables ORDER BY relname`;
    const want = [
      { relname: 'customers', n_live_tup: '2', seq_scan: '0', n_dead_tup: '0', oid_ok: true },
      { relname: 'line_items', n_live_tup: '2', seq_scan: '0', n_dead_tup: '0', oid_ok: true },
      { relname: 'orders', n_live_tup: '2', seq_scan: '0', n_dead_tup: '0', oid_ok: true },
    ];
    assert.deepEqual((await o.patina.query(sql)).rows, want);
    assert.deepEqual((await o.patina.query(sql.replace('pg_stat_user_tables', 'pg_stat_all_tables'))).rows, want);
    await o.patina.query("INSERT INTO customers (id, name) VALUES (3, 'cy')");
    assert.deepEqual(
      (await o.patina.query("SELECT n_live_tup FROM pg_stat_user_tables WHERE relname = 'customers'")).rows,
      [{ n_live_tup: '3' }],
    );
    const cls = (
      await o.patina.query("SELECT relpages > 0 AS pages, reltuples FROM pg_class WHERE relname = 'customers'")
    ).rows;
    assert.deepEqual(cls, [{ pages: true, reltuples: 3 }]);
    await o.patina.query('DELETE FROM customers WHERE id = 3');
  });

  it('pg_stat_database: the shared row and the database with its sessions, as PostgreSQL lists them', async () => {
    const sql = `SELECT datid = 0 AS shared, datname, numbackends > 0 AS connected
                   FROM pg_stat_database WHERE datname IS NULL OR datname = current_database() ORDER BY datid`;
    const patina = (await o.patina.query(sql)).rows;
    assert.deepEqual(patina, (await o.postgres.query(sql)).rows);
    assert.deepEqual(patina, [
      { shared: true, datname: null, connected: false },
      { shared: false, datname: 'db', connected: true },
    ]);
  });
});
