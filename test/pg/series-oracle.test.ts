// generate_series, whose rows have no bound: PostgreSQL's refusals of a NaN, infinite or zero step
// or bound (Patina ran `generate_series(1, 'infinity'::numeric)` without end), compared with
// PostgreSQL 15; and a long series is a read a timeout stops, on a read worker, while every other
// session is answered (it ran on the catalog connection, on the agent's own thread: every session,
// the writer and SIGTERM waited for it).
import assert from 'node:assert/strict';
import { type OracleClients, sameOnBoth, sameOutcomeOnBoth, startOracle } from '../helpers/catalog-pair';
import { pgClient } from '../helpers/pg';

describe('generate_series against PostgreSQL 15, and a long one off the agent thread', function () {
  this.timeout(120_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle();
  });
  after(() => o?.close());

  it('a NaN or infinite numeric bound or step, and a zero step, are 22023 in PostgreSQL words', async () => {
    for (const sql of [
      "SELECT generate_series(1, 'infinity'::numeric)",
      "SELECT generate_series('-infinity'::numeric, 1)",
      "SELECT generate_series(1::numeric, 'NaN'::numeric)",
      "SELECT generate_series(1, 2, 'infinity'::numeric)",
      "SELECT generate_series(1, 2, 'nan'::numeric)",
      'SELECT generate_series(1, 2, 0::numeric)',
      'SELECT generate_series(1, 2, 0)',
      'SELECT count(*) FROM generate_series(1, 10, 0) g',
      "SELECT generate_series(timestamp '2024-01-01', '2024-01-02', interval '0')",
    ]) {
      await sameOutcomeOnBoth(o, sql);
      await assert.rejects(o.patina.query(sql), (e: { code?: string }) => e.code === '22023', sql);
    }
  });

  it('series of numbers and timestamps still give their rows, in a select list and in FROM', async () => {
    for (const sql of [
      'SELECT generate_series(1, 2.5)',
      'SELECT generate_series(5, 1, -2)',
      'SELECT g, g * 2 FROM generate_series(1, 3) g',
      "SELECT generate_series(timestamp '2024-01-01', '2024-01-02', interval '8 hours')",
      'SELECT unnest(ARRAY[1, 2]), generate_series(1, 3)',
      "SELECT generate_series(1, 2), current_setting('TimeZone')",
      'SELECT count(*) FROM generate_series(1, 100000)',
    ])
      await sameOnBoth(o, sql, [], { types: false });
  });

  it('a long series is stopped by statement_timeout while other sessions are answered', async () => {
    const long = pgClient(o.pair.patinaPort);
    const other = pgClient(o.pair.patinaPort);
    await long.connect();
    await other.connect();
    try {
      await long.query("SET statement_timeout = '4s'");
      const order: string[] = [];
      const running = long.query('SELECT count(*) FROM generate_series(1, 10000000000)').then(
        () => order.push('long answered'),
        (e: { code?: string }) => order.push(`long ${e.code}`),
      );
      await new Promise((r) => setTimeout(r, 300));
      const r = await other.query({
        text: "SELECT 1 + 1, count(*) FROM generate_series(1, 3), pg_class WHERE relname = 'orders'",
        rowMode: 'array',
      });
      order.push('other answered');
      assert.deepEqual(r.rows, [[2, '3']]);
      await running;
      assert.deepEqual(order, ['other answered', 'long 57014']);
      // the session goes on
      assert.deepEqual(
        (await long.query({ text: 'SELECT count(*) FROM generate_series(1, 3)', rowMode: 'array' })).rows,
        [['3']],
      );
    } finally {
      await long.end();
      await other.end();
    }
  });
});
