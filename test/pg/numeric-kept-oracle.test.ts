// A NUMERIC column here holds a 64-bit integer or a double (docs/postgres.md, NUMERIC). A value a
// client writes with more digits than that keeps (`12345678901234567890.12`, an 18-decimal token
// amount) was stored as the nearest double (`12345678901234567000`), silently, and replicated so;
// now it is refused with 22003 naming it, by every way a client writes one (a literal in the text,
// a lifted literal, a parameter, INSERT ... SELECT, ON CONFLICT, COPY, psycopg2's Decimal), and
// nothing of the statement is stored. Every value the column can keep reads back as PostgreSQL 15
// reads it (an integer past 2^53 into numeric(30, 2) is exact now; it was a double too).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type OracleClients, sameOnBoth, startOracle } from '../helpers/catalog-pair';

// (pg-copy-streams has no types of its own)
const copyStreams = require('pg-copy-streams') as { from(sql: string): Writable };

const SCHEMA = 'CREATE TABLE nk (id BIGINT NOT NULL PRIMARY KEY, x NUMERIC, y NUMERIC(30, 2), z NUMERIC(20, 6));';

/** Values each column keeps: written on both servers, they read back the same. */
const KEPT: [string, string, string][] = [
  ['0.1', '0.1', '0.1'],
  ['1.5', '1.005', '1.0000005'],
  ['0.30000000000000004', '123456789012345678', '1234567890.123456'],
  ['9223372036854775807', '-0.125', '-12345678901234'],
  ['-9223372036854775808', '0.1234567890123456789', '0.0000004'],
  ['1e20', '12345678901234.56', '1e-7'],
];

/**
 * Values no NUMERIC column here keeps, for x, y (at its scale 2: `1.23456789012345678` is 1.23,
 * kept) and z (scale 6, precision 20); PostgreSQL stores each exactly.
 */
const TOO_LONG: [string, string, string][] = [
  ['12345678901234567890.12', '12345678901234567890.12', '12345678901234.123456'],
  ['1.23456789012345678', '123456789012345678.5', '98765432109.876543'],
  ['123456789012345678.5', '-1234567890123456.78', '-99999999999999.99'],
];

async function refused(c: OracleClients['patina'], sql: string, params?: unknown[]): Promise<void> {
  await assert.rejects(
    c.query(sql, params),
    (e: { code?: string; message: string; detail?: string }) => {
      assert.equal(e.code, '22003', `${sql}: ${e.message}`);
      assert.match(e.message, /numeric value .* has more significant digits than a NUMERIC column keeps here/);
      return true;
    },
    sql,
  );
}

describe('NUMERIC values a column cannot keep, against PostgreSQL 15', function () {
  this.timeout(90_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => o?.close());

  it('reads back every value the columns keep as PostgreSQL does: literals, lifted literals, parameters, COPY', async () => {
    for (const c of [o.patina, o.postgres]) {
      for (const [k, [x, y, z]] of KEPT.entries()) {
        // a literal in the text (simple protocol), the same shape again (its literals lifted), a parameter
        await c.query(`INSERT INTO nk VALUES (${k + 1}, ${x}, ${y}, ${z})`);
        await c.query(`INSERT INTO nk VALUES (${k + 101}, ${x}, ${y}, ${z})`);
        await c.query('INSERT INTO nk VALUES ($1, $2, $3, $4)', [k + 201, x, y, z]);
      }
      await c.query(
        'INSERT INTO nk (id, x, y, z) SELECT 301, 0.30000000000000004, 123456789012345678, 1234567890.123456',
      );
      await c.query('UPDATE nk SET x = $1, y = $2 WHERE id = 1', ['0.30000000000000004', '123456789012345678']);
      const stream = (c as unknown as { query(s: Writable): Writable }).query(
        copyStreams.from('COPY nk (id, x, y, z) FROM STDIN'),
      );
      await pipeline(
        Readable.from([Buffer.from('401\t123456789012345678\t123456789012345678\t1234567890.123456\n')]),
        stream,
      );
    }
    const rows = await sameOnBoth(o, 'SELECT id, x, y, z FROM nk ORDER BY id');
    assert.equal(rows.length, KEPT.length * 3 + 2);
    assert.deepEqual(
      rows.find((r) => r[0] === '401'),
      ['401', '123456789012345678', '123456789012345678.00', '1234567890.123456'],
    );
    assert.deepEqual(rows.find((r) => r[0] === '3')?.slice(1), [
      '0.30000000000000004',
      '123456789012345678.00',
      '1234567890.123456',
    ]);
  });

  it('refuses a value with more digits than the column keeps, however written, and stores nothing of the statement', async () => {
    const c = o.patina;
    const before = (await c.query('SELECT count(*)::int AS n FROM nk')).rows[0].n;
    for (const [x, y, z] of TOO_LONG) {
      await refused(c, `INSERT INTO nk (id, x) VALUES (900, 1), (901, ${x})`);
      await refused(c, `INSERT INTO nk (id, y) VALUES (902, ${y})`);
      await refused(c, `INSERT INTO nk (id, z) VALUES (902, ${z})`);
      await refused(c, 'INSERT INTO nk (id, x) VALUES ($1, $2)', [903, x]);
      await refused(c, 'INSERT INTO nk (id, y) VALUES ($1, $2)', [904, y]);
      await refused(c, `INSERT INTO nk (id, x) SELECT 905, ${x}`);
      await refused(c, `INSERT INTO nk (id, y) SELECT 905, ${y}`);
      await refused(c, `UPDATE nk SET x = ${x} WHERE id = 1`);
      await refused(c, 'UPDATE nk SET z = $1 WHERE id = 1', [z]);
      await refused(c, `INSERT INTO nk (id, x) VALUES (1, 0) ON CONFLICT (id) DO UPDATE SET x = ${x}`);
      // (PostgreSQL stores each)
      await o.postgres.query('INSERT INTO nk (id, x, y, z) VALUES ($1, $2, $3, $4)', [903, x, y, z]);
      const back = (await o.postgres.query('SELECT x, y, z FROM nk WHERE id = 903')).rows[0];
      assert.deepEqual([back.x, Number(back.y), Number(back.z)], [x, Number(y), Number(z)]);
      await o.postgres.query('DELETE FROM nk WHERE id = 903');
    }
    const copy = (c as unknown as { query(s: Writable): Writable }).query(
      copyStreams.from('COPY nk (id, x) FROM STDIN'),
    );
    await assert.rejects(
      pipeline(Readable.from([Buffer.from(`906\t1\n907\t${TOO_LONG[0][0]}\n`)]), copy),
      (e: { code?: string; message: string; where?: string }) => {
        assert.equal(e.code, '22003');
        assert.match(e.where ?? '', /COPY nk, line 2, column x/);
        return true;
      },
    );
    assert.equal((await c.query('SELECT count(*)::int AS n FROM nk')).rows[0].n, before);
    assert.deepEqual((await c.query('SELECT x, y FROM nk WHERE id = 1')).rows, [
      { x: '0.30000000000000004', y: '123456789012345678.00' },
    ]);
    // the words a client shows: the value, what it would have become, what to do
    const e = await c.query(`INSERT INTO nk (id, x) VALUES (910, ${TOO_LONG[0][0]})`).catch((err) => err);
    assert.match(e.detail, /it would be stored as 12345678901234567000/);
    assert.match(e.hint, /Round the value to 15 significant digits/);
  });

  it("refuses psycopg2's Decimal past a double's digits and stores one within them", () => {
    const py = `
import psycopg2, decimal, sys
c = psycopg2.connect(host='127.0.0.1', port=int(sys.argv[1]), user='tester', dbname='db')
c.autocommit = True
cur = c.cursor()
cur.execute('INSERT INTO nk (id, x) VALUES (%s, %s)', (950, decimal.Decimal('1234.5678')))
try:
    cur.execute('INSERT INTO nk (id, x) VALUES (%s, %s)', (951, decimal.Decimal('${TOO_LONG[0][0]}')))
    print('stored')
except psycopg2.Error as e:
    print(e.pgcode)
cur.execute('SELECT id, x FROM nk WHERE id >= 950 ORDER BY id')
print(cur.fetchall())
`;
    const r = spawnSync('/usr/bin/python3', ['-c', py, String(o.pair.patinaPort)], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "22003\n[(950, Decimal('1234.5678'))]\n");
  });
});
