// A column declared numeric(p, s), varchar(n) or char(n) keeps its modifier where clients see it:
// RowDescription's type modifier (pgjdbc's getScale and getPrecision, a BI tool's number format),
// the values (numeric(10,2) prints 12.50, in text and in binary), pg_attribute.atttypmod (psql's \d,
// pg_dump's column types) and information_schema.columns. Compared with PostgreSQL 15. Before, every
// modifier was -1: 12.5 came back as 12.5 and pg_dump wrote plain `numeric`.
import assert from 'node:assert/strict';
import { type OracleClients, psqlOk, sameOnBoth, startOracle } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE m (id BIGINT NOT NULL PRIMARY KEY, amount NUMERIC(10,2), rate NUMERIC(6,4), code VARCHAR(8), plain NUMERIC);
CREATE TABLE pay (id BIGINT NOT NULL PRIMARY KEY, amount NUMERIC(10,2), qty INTEGER);`;
const ROWS = [
  `INSERT INTO m VALUES (1, 12.5, 0.1, 'ab', 1.50), (2, 1.005, 3, 'x', 2), (3, -0.005, NULL, NULL, NULL), (4, 99999.999, 1.23456, 'abc', 0.1)`,
  `INSERT INTO pay VALUES (1, 12.50, 3), (2, 0.10, 1), (3, 0.20, 2), (4, 19.99, NULL), (5, NULL, 4)`,
];

describe('type modifiers of declared columns, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: ROWS });
  });
  after(() => o?.close());

  it('numeric(p, s) values print at scale s, rounded as PostgreSQL stores them', async () => {
    await sameOnBoth(o, 'SELECT id, amount, rate, code FROM m ORDER BY id');
    assert.deepEqual(await sameOnBoth(o, 'SELECT amount, rate FROM m WHERE id IN (1, 2) ORDER BY id'), [
      ['12.50', '0.1000'],
      ['1.01', '3.0000'],
    ]);
    // COPY TO prints them the same way
    const copy = (port: number) => psqlOk(port, ['COPY (SELECT amount, rate FROM m ORDER BY id) TO STDOUT']);
    assert.equal(copy(o.pair.patinaPort), copy(o.pair.postgresPort));
  });

  it("computed numerics print the scale PostgreSQL's numeric carries: sums of money, literals, round(x, n)", async () => {
    for (const sql of [
      'SELECT sum(amount), min(amount), max(amount), sum(amount * qty), sum(amount) + 0.005 FROM pay',
      'SELECT id, amount * 2, amount + 1, amount - 0.5, -amount, abs(amount) FROM pay ORDER BY id',
      // COALESCE and CASE print the larger scale of their branches (PostgreSQL keeps each value's:
      // there coalesce(NULL, 0) is 0, here 0.00)
      'SELECT coalesce(amount, 0), coalesce(sum(amount), 0) FROM pay WHERE amount IS NOT NULL GROUP BY amount ORDER BY 1',
      'SELECT 0.1 + 0.2, 1.50, 1.5 * 2, -1.25, 1.005 + 1, round(2.345, 2), round(2.5), round(12.5, 0), 1e3',
      'SELECT round(sum(amount) / 3, 2), trunc(avg(amount), 1), s.total FROM pay, (SELECT sum(amount) AS total FROM pay) s GROUP BY s.total',
    ])
      await sameOnBoth(o, sql);
  });

  it('a write rounds numeric(p, s) and refuses too long varchar(n) as PostgreSQL does (INSERT, UPDATE, ON CONFLICT, parameters)', async () => {
    for (const c of [o.patina, o.postgres]) {
      await c.query(`INSERT INTO m (id, amount, code) VALUES (11, 1.005, 'abc'), (12, 2.5, 'x  ')`);
      await c.query('INSERT INTO m (id, amount, rate, code) VALUES ($1, $2, $3, $4)', [13, '1.234', '1.23456', 'ab']);
      await c.query(`UPDATE m SET amount = amount * 1.0011, code = code || 'z' WHERE id = 11`);
      await c.query(
        'INSERT INTO m (id, amount) VALUES (11, 7.777) ON CONFLICT (id) DO UPDATE SET amount = excluded.amount',
      );
    }
    // stored rounded: arithmetic on them agrees too
    await sameOnBoth(o, 'SELECT id, amount, rate, code, amount * 2 FROM m WHERE id > 10 ORDER BY id');
    for (const [sql, code] of [
      [`INSERT INTO m (id, code) VALUES (14, 'abcdefghij')`, '22001'],
      ['INSERT INTO m (id, amount) VALUES (15, 123456789.5)', '22003'],
      [`UPDATE m SET code = 'way too long text' WHERE id = 12`, '22001'],
    ])
      for (const c of [o.patina, o.postgres]) await assert.rejects(c.query(sql), { code }, sql);
    await sameOnBoth(o, 'SELECT count(*) FROM m WHERE id > 10');
  });

  it('RowDescription announces the modifiers, in both formats', async () => {
    for (const binary of [false, true]) {
      const mods = async (c: OracleClients['patina']) =>
        (
          (await c.query({ text: 'SELECT amount, rate, code, plain, id FROM m', binary } as never)) as unknown as {
            fields: { dataTypeModifier: number }[];
          }
        ).fields.map((f) => f.dataTypeModifier);
      assert.deepEqual(await mods(o.patina), await mods(o.postgres), `binary: ${binary}`);
    }
  });

  it('pg_attribute, format_type and information_schema.columns carry them (psql \\d, pg_dump)', async () => {
    await sameOnBoth(
      o,
      "SELECT attname, atttypmod, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'm'::regclass AND attnum > 0 ORDER BY attnum",
      undefined,
      { types: false },
    );
    await sameOnBoth(
      o,
      "SELECT column_name, character_maximum_length, numeric_precision, numeric_precision_radix, numeric_scale FROM information_schema.columns WHERE table_name = 'm' AND column_name <> 'id' ORDER BY ordinal_position",
      undefined,
      { types: false },
    );
    const describe = (port: number) =>
      psqlOk(port, ['\\d m'])
        .split('\n')
        .filter((l) => /numeric|character varying/.test(l))
        .map((l) => l.split('|').slice(0, 2).join('|').trim());
    assert.deepEqual(describe(o.pair.patinaPort), describe(o.pair.postgresPort));
  });
});
