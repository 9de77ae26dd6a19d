// A column declared TIMESTAMP(p), TIMESTAMPTZ(p) or TIME(p) keeps its fractional digits as
// PostgreSQL 15 does: the catalog says them (format_type `timestamp(6) without time zone`, which
// ActiveRecord's and pg_dump's column types read; atttypmod; information_schema's
// datetime_precision; RowDescription's type modifier), and a value written into the column is
// rounded to them whichever way it comes (a literal, an expression, a parameter, COPY), as are
// casts to `timestamp(0)`. Before, the catalog said plain `timestamp` and '12:00:00.7' stayed
// '12:00:00.7' in a TIMESTAMP(0) column.
import assert from 'node:assert/strict';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type OracleClients, sameOnBoth, startOracle } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE tp (id BIGINT NOT NULL PRIMARY KEY, a TIMESTAMP(0), b TIMESTAMP(3), c TIMESTAMPTZ(2), d TIME(1), e TIMESTAMP);`;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const copyStreams = require('pg-copy-streams') as { from(sql: string): Writable };

describe('fractional digits of time columns and casts, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => o?.close());

  const both = async (sql: string, params?: unknown[]) => {
    for (const c of [o.patina, o.postgres]) await c.query(sql, params);
  };

  it('the catalog says the digits: format_type, atttypmod, datetime_precision, psql-style \\d', async () => {
    await sameOnBoth(
      o,
      `SELECT attname, format_type(atttypid, atttypmod), atttypmod FROM pg_attribute
        WHERE attrelid = 'tp'::regclass AND attnum > 1 ORDER BY attnum`,
    );
    await sameOnBoth(
      o,
      `SELECT column_name, data_type, datetime_precision FROM information_schema.columns
        WHERE table_name = 'tp' AND column_name <> 'id' ORDER BY ordinal_position`,
      [],
    );
    // (information_schema's texts are PostgreSQL's character_data and yes_or_no, varchars: they were text)
    await sameOnBoth(
      o,
      `SELECT table_name, table_type, is_insertable_into, column_name, is_nullable, column_default, is_updatable
        FROM information_schema.tables JOIN information_schema.columns USING (table_name)
        WHERE table_name = 'tp' ORDER BY ordinal_position`,
    );
    // RowDescription: the column's modifier, as pgjdbc's getScale reads it
    const mods = async (c: OracleClients['patina']) =>
      ((await c.query('SELECT a, b, c, d, e FROM tp')).fields as unknown as { dataTypeModifier: number }[]).map(
        (f) => f.dataTypeModifier,
      );
    assert.deepEqual(await mods(o.patina), await mods(o.postgres));
    assert.deepEqual(await mods(o.patina), [0, 3, 2, 1, -1]);
  });

  it('a value written is rounded to the column: literals, expressions, parameters, UPDATE, COPY', async () => {
    await both(
      `INSERT INTO tp VALUES (1, '2024-01-01 12:00:00.7', '2024-01-01 12:00:00.12345', '2024-01-01 12:00:00.555+00', '12:00:00.46', '2024-01-01 12:00:00.1234567'),
         (2, '1999-12-31 23:59:59.5', '2024-12-31 23:59:59.9996', '2024-01-01 12:00:00.004+02', '23:59:59.97', NULL)`,
    );
    await both("INSERT INTO tp SELECT id + 10, a + interval '0.6 s', b + interval '0.0005 s', c, d, e FROM tp");
    await both('INSERT INTO tp (id, a, b, d) VALUES ($1, $2, $3, $4)', [
      20,
      '2024-01-01 12:00:00.5',
      '2024-01-01 12:00:00.0015',
      '10:00:00.25',
    ]);
    await both("UPDATE tp SET b = '2024-01-01 12:00:00.9999', a = b WHERE id = 1");
    for (const c of [o.patina, o.postgres]) {
      const stream = (c as unknown as { query(s: Writable): Writable }).query(copyStreams.from('COPY tp FROM STDIN'));
      await pipeline(
        Readable.from([Buffer.from('30\t2024-01-01 00:00:00.5\t2024-01-01 00:00:00.0005\t\\N\t00:00:00.05\t\\N\n')]),
        stream,
      );
    }
    await sameOnBoth(o, 'SELECT id, a::text, b::text, c::text, d::text, e::text FROM tp ORDER BY id');
  });

  it('casts to timestamp(p), timestamptz(p), time(p) round, with or without time zone spelled out', async () => {
    await sameOnBoth(
      o,
      `SELECT '2024-01-01 12:00:00.7'::timestamp(0), '12:00:00.46'::time(1),
         CAST('2024-01-01 12:00:00.555+02' AS timestamptz(2)), '2024-01-01 12:00:00.77'::timestamp(1) with time zone,
         '2024-01-01 12:00:00.77'::timestamp(1) without time zone`,
    );
    await sameOnBoth(o, 'SELECT e::timestamp(2), e::timestamp(0) with time zone, e::time(0) FROM tp ORDER BY id');
  });
});
