// Values written with the digits PostgreSQL 15 stores, read back through both servers (the value and
// its ::text): a numeric division or avg written into a string column is its exact numeric text, a
// computed numeric written into a double precision or real column is computed as numeric and then
// cast (`0.1 + 0.2` is 0.3), and a string column's schema `DEFAULT true` is the text `true`. What
// is written is replicated to every agent, so a wrong digit here is wrong everywhere.
import { oracleSuite } from '../helpers/catalog-pair';
import { write } from '../helpers/http';
import { WireClient } from '../helpers/pg-wire';
import assert from 'node:assert/strict';

const SCHEMA = `CREATE TABLE sd (id BIGINT NOT NULL PRIMARY KEY, n NUMERIC, a NUMERIC(10,2), f DOUBLE PRECISION,
  r FLOAT4, t TEXT, v VARCHAR(40), c CHAR(8));
CREATE TABLE bd (id BIGINT NOT NULL PRIMARY KEY, t TEXT DEFAULT true, v VARCHAR(10) DEFAULT FALSE,
  c CHAR(6) DEFAULT true, ok BOOLEAN DEFAULT true, k BIGINT);`;

/** The rows of ids lo to hi, each value and its text. */
const read = (lo: number, hi: number) =>
  `SELECT id, f, f::text, r::text, t, v, c::text FROM sd WHERE id BETWEEN ${lo} AND ${hi} ORDER BY id`;

describe('values stored with the digits PostgreSQL stores, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, []);

  it('a numeric division or avg written into a text or varchar column is its exact numeric text (was the double 2.5)', async () => {
    await same(`INSERT INTO sd (id, t, v) VALUES (1, 10::numeric / 4, 1 / 3::numeric)`);
    await same(`INSERT INTO sd (id, n, a) VALUES (2, 1.5, 1.25), (3, 7, 2.50)`);
    await same('UPDATE sd SET t = n / 3, v = a / 3 WHERE id IN (2, 3)');
    await same('INSERT INTO sd (id, t, v) SELECT 4, avg(x), sum(x) / 4.0 FROM (VALUES (1), (2)) s(x)');
    // a parameter the client left untyped, read as numeric beside the division
    await same('INSERT INTO sd (id, t) VALUES ($1, $2 / 3.0)', [5, '0.1']);
    await same(`INSERT INTO sd (id, t) VALUES (3, 'x') ON CONFLICT (id) DO UPDATE SET v = excluded.id / 7::numeric`);
    await same(read(1, 9));
  });

  it('a numeric parameter written into a text or varchar column keeps its digits (1.50 was stored 1.5)', async () => {
    await same('INSERT INTO sd (id, t, v) VALUES ($1, $2::numeric, $3::numeric)', [30, '1.50', '2.500']);
    await same('INSERT INTO sd (id, t, a) VALUES ($1, CAST($2 AS numeric), $3::numeric)', [31, '-0.10', '1.5']);
    await same('UPDATE sd SET v = $1::numeric, c = $2::numeric WHERE id = 31', ['7.000', '0.50']);
    await same(read(30, 39));
    await same('SELECT id, a::text FROM sd WHERE id BETWEEN 30 AND 39 ORDER BY id');
  });

  it('a parameter the client declared numeric (OID 1700) written into a text column keeps its digits', async () => {
    const o = clients();
    const sql = 'INSERT INTO sd (id, t, v, a) VALUES ($1, $2, $3, $4)';
    const values = ['32', '1.50', '10.000', '2.5'].map((v) => Buffer.from(v));
    const run = async (port: number) => {
      const c = await WireClient.open(port, { user: 'tester', database: 'db' });
      try {
        const r = await c.extended(sql, { types: [20, 1700, 1700, 1700], values, formats: [0] });
        assert.equal(
          r.messages.find((m) => m.type === 'E'),
          undefined,
        );
      } finally {
        c.end();
      }
    };
    await run(o.pair.postgresPort);
    await run(o.pair.patinaPort);
    await same('SELECT id, t, v, a::text FROM sd WHERE id = 32');
  });

  it('a UNION ALL of numeric divisions or avg written into a text column is their exact numeric text (was 2.5)', async () => {
    await same('INSERT INTO sd (id, t) SELECT 40, 10::numeric / 4 UNION ALL SELECT 41, 1::numeric / 3');
    await same(
      'INSERT INTO sd (id, t, v) SELECT 42, 10::numeric / 4, 1 / 3::numeric UNION ALL SELECT 43, avg(x), sum(x) / 7.0 FROM (VALUES (1), (2)) s(x)',
    );
    await same(read(40, 49));
  });

  it('a computed numeric written into a double precision or real column is computed as numeric, then cast (0.1 + 0.2 was 0.30000000000000004)', async () => {
    await same(`INSERT INTO sd (id, f, r) VALUES (10, 0.1 + 0.2, 0.1 + 0.2), (11, 1.1 * 3, 0.7 + 0.1),
      (12, power(2, 0.5), sqrt(2::numeric)), (13, 0.1::numeric * 3, NULL::numeric + 0.1)`);
    await same(`INSERT INTO sd (id, n, a) VALUES (14, 1.5, 1.25)`);
    await same('UPDATE sd SET f = n * 1.1, r = a * 0.1 WHERE id = 14');
    // (a whole numeric past 2^53, kept as a double: by its digits, not its binary expansion)
    await same(`INSERT INTO sd (id, n) VALUES (18, 1e300), (19, 'Infinity')`);
    await same('UPDATE sd SET f = n * 10.5, t = n / 4 WHERE id IN (18, 19)');
    await same('INSERT INTO sd (id, f) SELECT 15, 0.7 + 0.1');
    await same('INSERT INTO sd (id, f, r) SELECT 20, 0.1 + 0.2, 1.1 * 3 UNION ALL SELECT 21, 0.7 + 0.1, 0.1 + 0.2');
    await same('INSERT INTO sd (id, f) VALUES ($1, $2::numeric + 0.2), ($3, $4 * 3.0)', [16, '0.1', 17, '1.1']);
    await same('INSERT INTO sd (id, f) VALUES (17, 1) ON CONFLICT (id) DO UPDATE SET f = excluded.f * 1.1 + 0.2');
    await same(read(10, 29));
  });

  it('a numeric of a UNION, INTERSECT or EXCEPT written into a text column is its exact text, a literal at its scale (were 2.5 and 1.5)', async () => {
    await same('INSERT INTO sd (id, t, v) SELECT 50, 10 / 4.0, 1.50 UNION SELECT 51, 1.50, 1 / 3::numeric');
    // (one row: the numbers are equal, the first seen is kept)
    await same('INSERT INTO sd (id, t) SELECT 52, 10::numeric / 4 UNION SELECT 52, 2.50');
    await same('INSERT INTO sd (id, t, c) SELECT 53, 10::numeric / 4, 0.5 INTERSECT SELECT 53, 2.5, 0.50');
    await same('INSERT INTO sd (id, v) SELECT 54, 1 / 3::numeric EXCEPT SELECT 55, 1.5');
    await same('INSERT INTO sd (id, t) SELECT 56, 1e3 UNION SELECT 57, 1.50e1 UNION SELECT 58, -2.50');
    await same('INSERT INTO sd (id, n, a) VALUES (59, 1.5, 1.25)');
    await same(
      'INSERT INTO sd (id, t, v, c) SELECT id + 1, n / 3, a * 2, n FROM sd WHERE id = 59 UNION SELECT id + 2, a, a / 7, a FROM sd WHERE id = 59 ORDER BY 1',
    );
    // a literal an INSERT's query passes on (it was SQLite's REAL: 1.5, 1000.0)
    await same('INSERT INTO sd (id, t, v) SELECT 62, 1.50, 1e3');
    await same('INSERT INTO sd (id, t, v) SELECT 63, 2.50, -0.10 UNION ALL SELECT 64, 1.5e1, 0.0');
    await same(read(50, 69));
  });

  it('a computed numeric of a UNION, INTERSECT or EXCEPT, under coalesce or CASE, with an exponent or a negative literal, written into a double column is computed as numeric (was 0.30000000000000004)', async () => {
    await same('INSERT INTO sd (id, f, r) SELECT 70, 0.1 + 0.2, 0.7 + 0.1 UNION SELECT 71, 1.1 * 3, 0.3');
    await same('INSERT INTO sd (id, f) SELECT 72, 0.1 + 0.2 INTERSECT SELECT 72, 0.3');
    await same('INSERT INTO sd (id, f) SELECT 73, 0.7 + 0.1 EXCEPT SELECT 74, 0.8');
    await same(
      'INSERT INTO sd (id, f) SELECT 75, coalesce(NULL, 0.1 + 0.2) UNION SELECT 76, CASE WHEN true THEN 1e-1 + 0.2 END',
    );
    await same(`INSERT INTO sd (id, f, r) VALUES (77, coalesce(0.1 + 0.2, 1), CASE WHEN false THEN 1 ELSE 0.7 + 0.1 END),
      (78, 1e-1 + 0.2, -0.1 + 0.3), (79, 0.7 - -0.1, 0.1e0 + 0.2)`);
    await same('INSERT INTO sd (id, n, a) VALUES (80, 1.5, 1.25)');
    await same('UPDATE sd SET f = coalesce(n * 1.1, 0), r = CASE WHEN n > 1 THEN -0.7 - 0.1 END WHERE id = 80');
    // greatest and least pick by number, the computed one exact
    await same(`INSERT INTO sd (id, f, r) VALUES (81, greatest(0.1 + 0.2, 0.25), least(0.7 + 0.1, 0.9, NULL)),
      (82, greatest(0.1 + 0.2, 0.35), least(0.7 + 0.1, 0.5))`);
    await same(
      'INSERT INTO sd (id, f) SELECT 83, least(1.1 * 3, 4) UNION SELECT 84, greatest(n, 0.1 + 0.2) FROM sd WHERE id = 80',
    );
    await same(read(70, 89));
  });

  it('EXECUTE of a PREPAREd statement with a numeric parameter written into a text column keeps its digits (1.50 was stored 1.5)', async () => {
    await same('PREPARE sd_ins(bigint, numeric) AS INSERT INTO sd (id, t, v) VALUES ($1, $2, $2)');
    await same('EXECUTE sd_ins(90, 1.50)');
    await same(`EXECUTE sd_ins(91, '2.500')`);
    await same('EXECUTE sd_ins(92, 10 / 4.0)');
    await same('PREPARE sd_upd(numeric) AS UPDATE sd SET c = $1 WHERE id = 90');
    await same('EXECUTE sd_upd(0.50)');
    await same(read(90, 99));
    await same('DEALLOCATE sd_ins');
    await same('DEALLOCATE sd_upd');
  });

  it("a string column's schema DEFAULT true is the text true (SQLite's default stored 1)", async () => {
    await same('INSERT INTO bd (id, k) VALUES (1, 1)');
    await same('INSERT INTO bd (id, t, v, c) VALUES (2, DEFAULT, DEFAULT, DEFAULT)');
    await same(`INSERT INTO bd (id, t, v, c, ok) VALUES (3, 'x', 'y', 'z', false)`);
    await same('UPDATE bd SET t = DEFAULT, c = DEFAULT, ok = DEFAULT WHERE id = 3');
    await same('INSERT INTO bd (id, k) SELECT 4, 2');
    await same('SELECT id, t, v, c::text, ok, k FROM bd ORDER BY id');
  });

  it("a string column's schema DEFAULT true written through the HTTP API is the text true too (it stored SQLite's 1)", async () => {
    const o = clients();
    // the same rows: through Patina's HTTP API, through PostgreSQL's own front end
    const rows = ['INSERT INTO bd (id, k) VALUES (10, 1)', 'INSERT INTO bd (id, ok) VALUES (11, false)'];
    await write(o.pair.agent.http, rows);
    for (const r of rows) await o.postgres.query(r);
    await same('SELECT id, t, v, c::text, ok, k FROM bd WHERE id >= 10 ORDER BY id');
  });
});
