// A column declared numeric(p, s), varchar(n) or char(n) keeps its modifier where clients see it:
// RowDescription's type modifier (pgjdbc's getScale and getPrecision, a BI tool's number format),
// the values (numeric(10,2) prints 12.50, in text and in binary), pg_attribute.atttypmod (psql's \d,
// pg_dump's column types) and information_schema.columns. Compared with PostgreSQL 15. Before, every
// modifier was -1: 12.5 came back as 12.5 and pg_dump wrote plain `numeric`.
import assert from 'node:assert/strict';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type OracleClients, psqlOk, sameOnBoth, startOracle } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE m (id BIGINT NOT NULL PRIMARY KEY, amount NUMERIC(10,2), rate NUMERIC(6,4), code VARCHAR(8), plain NUMERIC);
CREATE TABLE pay (id BIGINT NOT NULL PRIMARY KEY, amount NUMERIC(10,2), qty INTEGER);
CREATE TABLE w (id BIGINT NOT NULL PRIMARY KEY, amount NUMERIC(10,2), code VARCHAR(8), ch CHAR(4), note TEXT);
CREATE TABLE src (id BIGINT NOT NULL PRIMARY KEY, x NUMERIC, t TEXT);
CREATE TABLE ck (ch CHAR(4) NOT NULL PRIMARY KEY, v TEXT, vc VARCHAR(6));
CREATE TABLE cx (id BIGINT NOT NULL PRIMARY KEY, ch CHAR(4), c1 CHAR, vc VARCHAR(6), t TEXT);`;
const ROWS = [
  `INSERT INTO m VALUES (1, 12.5, 0.1, 'ab', 1.50), (2, 1.005, 3, 'x', 2), (3, -0.005, NULL, NULL, NULL), (4, 99999.999, 1.23456, 'abc', 0.1)`,
  `INSERT INTO pay VALUES (1, 12.50, 3), (2, 0.10, 1), (3, 0.20, 2), (4, 19.99, NULL), (5, NULL, 4)`,
  `INSERT INTO src VALUES (1, 1.005, 'ab'), (2, 12.345, 'abcdefgh  '), (3, -0.005, NULL), (4, NULL, 'x   '), (5, 123456789.5, 'way too long')`,
];

// eslint-disable-next-line @typescript-eslint/no-require-imports
const copyStreams = require('pg-copy-streams') as { from(sql: string): Writable };

/** COPY FROM STDIN of `data` through pg-copy-streams; the error's SQLSTATE, or null. */
async function copyFrom(c: OracleClients['patina'], sql: string, data: string): Promise<string | null> {
  const stream = (c as unknown as { query(s: Writable): Writable }).query(copyStreams.from(sql));
  try {
    await pipeline(Readable.from([Buffer.from(data)]), stream);
    return null;
  } catch (err) {
    return (err as { code: string }).code;
  }
}

describe('type modifiers of declared columns, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: ROWS });
  });
  after(() => o?.close());

  it("a window's value of another row keeps its scale: lag, lead, first_value, last_value, nth_value", async () => {
    // (were 12.5 and 0.1; nth_value was typed float8)
    await sameOnBoth(
      o,
      `SELECT id, lag(amount) OVER w, lead(amount, 2) OVER w, first_value(amount) OVER w,
         last_value(amount) OVER w, nth_value(amount, 2) OVER w FROM pay WINDOW w AS (ORDER BY id) ORDER BY id`,
    );
    await sameOnBoth(
      o,
      'SELECT id % 2 AS k, lag(sum(amount)) OVER (ORDER BY id % 2) FROM pay GROUP BY id % 2 ORDER BY k',
    );
  });

  it("a qualified numeric(p, s) column as a set operation's first item keeps its name (it was 42601: `__pg_numeric_at(p., 2)`)", async () => {
    // found by the generated queries (test/helpers/query-gen.ts); also after DISTINCT and ALL
    for (const sql of [
      'SELECT p.amount FROM pay p UNION SELECT 1 ORDER BY 1',
      'SELECT pay.amount FROM pay UNION SELECT 1.5 ORDER BY 1',
      'SELECT DISTINCT p.amount, p.id FROM pay p UNION SELECT 1, 9 ORDER BY 2',
      'SELECT ALL p.amount AS amount FROM pay p UNION SELECT 7 ORDER BY 1',
    ])
      await sameOnBoth(o, sql);
  });

  it("a number with an untyped parameter has the number's type (was text)", async () => {
    for (const sql of [
      'SELECT count(*) + $1 AS c, max(id) * $1 AS m, sum(id) - $1 AS s FROM pay',
      'SELECT $1 + sum(id) AS s FROM pay',
      'SELECT id, id % $1 AS r FROM pay ORDER BY id',
    ])
      await sameOnBoth(o, sql, ['2']);
  });

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
      // a decimal in a string keeps its digits when cast ('10.50'::numeric was 10.5)
      "SELECT '10.50'::numeric, CAST('3.10' AS numeric), '2.500'::decimal, '-.50'::numeric, ' 7 '::numeric, '1e2'::numeric, '10.50'::numeric * 2",
      "SELECT id, '0.10'::numeric + amount FROM pay WHERE id = 1",
      'SELECT round(sum(amount) / 3, 2), trunc(avg(amount), 1), s.total FROM pay, (SELECT sum(amount) AS total FROM pay) s GROUP BY s.total',
      // extract's numeric carries microseconds' digits for seconds and the epoch (1704103200 was 1704103200.000000)
      "SELECT extract(epoch FROM '2024-01-01 10:00:00.25'::timestamp), extract(second FROM '2024-01-01 10:00:00'::timestamp), extract(milliseconds FROM '2024-01-01 10:00:01'::timestamp), extract(minute FROM '2024-01-01 10:00:00'::timestamp)",
      "SELECT extract(epoch FROM '2024-01-01'::date), extract(day FROM '2024-01-01'::date), extract(epoch FROM interval '1 day 2 hours'), extract(second FROM '10:11:12.5'::time)",
    ])
      await sameOnBoth(o, sql);
  });

  it("numeric division and avg print PostgreSQL's digits (select_div_scale), exactly", async () => {
    // before, both were doubles: 0.3333333333333333, 1.5, 8.1975
    for (const sql of [
      'SELECT 1 / 3::numeric, 100 / 3::numeric, 2 / 0.5, 0 / 3::numeric, -7 / 2::numeric, 0.001 / 7, 1.00 / 3, 123456789 / 7::numeric',
      'SELECT avg(qty), avg(amount), sum(amount) / count(*), sum(amount) / count(amount), avg(DISTINCT qty) FROM pay',
      'SELECT id, amount / 3, amount / qty, qty / amount FROM pay ORDER BY id',
      'SELECT avg(qty) FILTER (WHERE qty > 1), avg(amount) FROM pay WHERE id > 100',
      'SELECT id, avg(qty) OVER (ORDER BY id), avg(amount) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM pay ORDER BY id',
      // ordered by the alias: by the number, not the text ('10.5' after '9.25')
      'SELECT qty::int8 AS q, avg(amount * 100) AS a FROM pay GROUP BY qty ORDER BY a DESC NULLS LAST',
      'SELECT id % 2 AS odd, sum(amount) / count(*) AS per FROM pay GROUP BY 1 ORDER BY per',
      // inside an expression a division is still a double; with a scale given it agrees
      'SELECT round(avg(amount), 2), avg(qty)::numeric(10,3), round(sum(amount) / 3, 4) FROM pay',
    ])
      await sameOnBoth(o, sql);
    for (const c of [o.patina, o.postgres]) await assert.rejects(c.query('SELECT 1 / 0::numeric'), { code: '22012' });
  });

  it('a write rounds numeric(p, s) and refuses too long varchar(n) as PostgreSQL does (INSERT, UPDATE, ON CONFLICT, parameters)', async () => {
    for (const c of [o.patina, o.postgres]) {
      await c.query(`INSERT INTO m (id, amount, code) VALUES (11, 1.005, 'abc'), (12, 2.5, 'x  ')`);
      await c.query('INSERT INTO m (id, amount, rate, code) VALUES ($1, $2, $3, $4)', [13, '1.234', '1.23456', 'ab']);
      await c.query(`UPDATE m SET amount = amount * 1.0011, code = code || 'z' WHERE id = 11`);
      await c.query(
        'INSERT INTO m (id, amount) VALUES (11, 7.777) ON CONFLICT (id) DO UPDATE SET amount = excluded.amount',
      );
      // a row SET converts each value for its column too (they were written as they were)
      await c.query(`UPDATE m SET (rate, code) = (1.23456, 'ab   ') WHERE id = 12`);
    }
    // stored rounded: arithmetic on them agrees too
    await sameOnBoth(o, 'SELECT id, amount, rate, code, amount * 2, rate * 2 FROM m WHERE id > 10 ORDER BY id');
    for (const [sql, code] of [
      [`INSERT INTO m (id, code) VALUES (14, 'abcdefghij')`, '22001'],
      ['INSERT INTO m (id, amount) VALUES (15, 123456789.5)', '22003'],
      [`UPDATE m SET code = 'way too long text' WHERE id = 12`, '22001'],
      [`UPDATE m SET (amount, code) = (1, 'way too long text') WHERE id = 12`, '22001'],
    ])
      for (const c of [o.patina, o.postgres]) await assert.rejects(c.query(sql), { code }, sql);
    await sameOnBoth(o, 'SELECT count(*) FROM m WHERE id > 10');
  });

  it('INSERT ... SELECT converts as an assignment does: numeric(p, s) rounded, 22003, 22001 for varchar(n) and char(n)', async () => {
    // before, the query's values were stored as sent (1.005 stayed 1.005 behind its printed 1.01)
    for (const c of [o.patina, o.postgres]) {
      await c.query('INSERT INTO w (id, amount, code, ch) SELECT id, x, t, t FROM src WHERE id IN (1, 3, 4)');
      await c.query('INSERT INTO w (id, amount) SELECT id + 10, x * 3 FROM src WHERE id < 4 ORDER BY id');
      // no column list, fewer columns than the table (the rest take their defaults); WITH before INSERT
      await c.query('INSERT INTO w SELECT 20, 2.345');
      await c.query('WITH s AS (SELECT 21 AS id, 7.777 AS a) INSERT INTO w (id, amount) SELECT id, a FROM s');
      await c.query('INSERT INTO w (id, amount) (SELECT 22, 0.125)');
      // ON CONFLICT after a query (SQLite read it as a join's ON before), DO UPDATE's SET converted too
      await c.query('INSERT INTO w (id, amount) SELECT id, x FROM src WHERE id < 3 ON CONFLICT DO NOTHING');
      await c.query(
        'INSERT INTO w (id, amount) SELECT id, x + 1 FROM src WHERE id < 3 ON CONFLICT (id) DO UPDATE SET amount = excluded.amount * 2',
      );
    }
    await sameOnBoth(
      o,
      "INSERT INTO w (id, amount, code) SELECT 30, 1.999, 'abcdefgh   ' UNION ALL SELECT 31, 2.001, NULL RETURNING id, amount, code",
    );
    // stored rounded: arithmetic and comparisons on them agree too; char(n) ignores trailing spaces
    await sameOnBoth(o, "SELECT id, amount, code, amount * 1000, ch || '|', length(ch) FROM w ORDER BY id");
    await sameOnBoth(o, 'SELECT count(*) FROM w WHERE amount = 1.01');
    for (const [sql, code] of [
      ['INSERT INTO w (id, amount) SELECT id + 40, x FROM src WHERE id = 5', '22003'],
      ['INSERT INTO w (id, code) SELECT id + 40, t FROM src WHERE id = 5', '22001'],
      ["INSERT INTO w (id, ch) SELECT 45, 'abcde'", '22001'],
      ["INSERT INTO w (id, ch) VALUES (46, 'abcde')", '22001'],
      // an integer column reads text strictly
      ["INSERT INTO pay (id, qty) VALUES (40, '2.5')", '22P02'],
      // the width of the rows against the columns named, as PostgreSQL words it
      ['INSERT INTO w (id, amount) SELECT 47, 1, 2', '42601'],
      ['INSERT INTO w (id, amount) SELECT 48', '42601'],
      ['INSERT INTO w (id, amount) VALUES (49)', '42601'],
    ])
      for (const c of [o.patina, o.postgres]) await assert.rejects(c.query(sql), { code }, sql);
    await sameOnBoth(o, 'SELECT count(*) FROM w WHERE id >= 40');
  });

  it('an integer column takes a fraction rounded, as PostgreSQL assigns a numeric (2.5 was stored as 2.5)', async () => {
    for (const c of [o.patina, o.postgres]) {
      await c.query("INSERT INTO pay (id, qty) VALUES (20, 2.5), (21, -2.5), (22, '7'), (23, 1.4999)");
      await c.query('INSERT INTO pay (id, qty) SELECT 24, avg(qty) FROM pay WHERE id < 5');
      await c.query('UPDATE pay SET qty = qty * 1.5 WHERE id = 22');
    }
    // pay.qty is integer on both; read back as int8 so the types agree (Patina's integers are int8)
    await sameOnBoth(o, 'SELECT id, qty::int8, qty * 2 = qty + qty FROM pay WHERE id >= 20 ORDER BY id');
  });

  it('COPY FROM converts as an assignment does too', async () => {
    const copies: [string, string, string | null][] = [
      ['COPY w (id, amount, code, ch) FROM STDIN', '50\t1.005\tabcdefgh  \tab  \n51\t-2.675\t\\N\tx\n', null],
      ['COPY w (id, amount) FROM STDIN (FORMAT csv)', '52,123456789.5\n', '22003'],
      ['COPY w (id, code) FROM STDIN', '53\tabcdefghi\n', '22001'],
      ['COPY w (id, ch) FROM STDIN', '54\tabcde\n', '22001'],
    ];
    for (const [sql, data, code] of copies)
      for (const c of [o.patina, o.postgres]) assert.equal(await copyFrom(c, sql, data), code, sql);
    await sameOnBoth(o, "SELECT id, amount, code, ch || '|', amount * 1000 FROM w WHERE id >= 50 ORDER BY id");
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

  it('a char(n) column is bpchar, read padded to n as PostgreSQL stores it (was text, unpadded)', async () => {
    await o.patina.query(`INSERT INTO w (id, ch, code) VALUES (60, 'ab', 'ab'), (61, 'abc  ', 'x'), (62, NULL, NULL)`);
    await o.postgres.query(
      `INSERT INTO w (id, ch, code) VALUES (60, 'ab', 'ab'), (61, 'abc  ', 'x'), (62, NULL, NULL)`,
    );
    const q = 'FROM w WHERE id >= 60 AND id < 70';
    for (const sql of [
      `SELECT id, ch, code ${q} ORDER BY id`,
      `SELECT * ${q} ORDER BY ch, id`,
      `SELECT ch ${q} AND ch = 'ab'`,
      `SELECT x.ch FROM (SELECT ch ${q}) x ORDER BY 1`,
      `SELECT (SELECT ch ${q} AND id = 60)`,
      // what PostgreSQL's bpchar drops its padding for stays the same
      `SELECT ch || '|', ch::text, ch::varchar, length(ch), ch = code ${q} ORDER BY id`,
    ])
      await sameOnBoth(o, sql);
    // in binary too (the padded text), and as psql prints it
    const binary = async (c: OracleClients['patina']) =>
      ((await c.query({ text: `SELECT ch ${q} ORDER BY id`, binary: true } as never)) as unknown as { rows: unknown[] })
        .rows;
    assert.deepEqual(await binary(o.patina), await binary(o.postgres));
    const psql = (port: number) => psqlOk(port, [`SELECT id, ch, ch || '|' AS cat ${q} ORDER BY id`]);
    assert.equal(psql(o.pair.patinaPort), psql(o.pair.postgresPort));
    // the catalog names the type as PostgreSQL does (psql's \d says character(4))
    await sameOnBoth(
      o,
      "SELECT atttypid, atttypmod, format_type(atttypid, atttypmod), attcollation FROM pg_attribute WHERE attrelid = 'w'::regclass AND attname = 'ch'",
      undefined,
      { types: false },
    );
    await sameOnBoth(
      o,
      "SELECT data_type, character_maximum_length, udt_name FROM information_schema.columns WHERE table_name = 'w' AND column_name = 'ch'",
    );
    const describe = (port: number) =>
      psqlOk(port, ['\\d w'])
        .split('\n')
        .filter((l) => /\bch\b/.test(l))
        .join('\n');
    assert.equal(describe(o.pair.patinaPort), describe(o.pair.postgresPort));
  });

  it('a char(n) value read padded and sent back finds its row: literal, text and binary parameter (matched none)', async () => {
    const both = async (sql: string, params?: unknown[]) => {
      const p = await o.patina.query({ text: sql, values: params, rowMode: 'array' });
      const g = await o.postgres.query({ text: sql, values: params, rowMode: 'array' });
      assert.deepEqual([p.rowCount, p.rows], [g.rowCount, g.rows], `${sql} ${JSON.stringify(params ?? [])}`);
      return g.rows;
    };
    await both(`INSERT INTO ck VALUES ('ab', 'one', 'ab'), ('cd  ', 'two', 'cd '), ('x', 'three', 'x')`);
    // what an ORM does: read the key, then find, update and delete the row by the value it read
    const [[ab]] = await both(`SELECT ch FROM ck WHERE v = 'one'`);
    const [[cd]] = await both(`SELECT ch FROM ck WHERE v = 'two'`);
    assert.equal(ab, 'ab  ');
    await both('SELECT v FROM ck WHERE ch = $1', [ab]);
    await both('SELECT v FROM ck WHERE ch = $1', [Buffer.from(ab as string)]); // a binary parameter
    await both('SELECT v FROM ck WHERE $1 = ch', [ab]);
    await both('SELECT v FROM ck WHERE ch IN ($1, $2) ORDER BY v', [ab, cd]);
    await both('SELECT v FROM ck WHERE ch <> $1 ORDER BY v', [ab]);
    await both('SELECT v FROM ck WHERE ch BETWEEN $1 AND $2 ORDER BY v', [ab, cd]);
    // an ORM's batch load by the keys it read (= ANY of an array parameter)
    await both('SELECT v FROM ck WHERE ch = ANY($1) ORDER BY v', [[ab, cd]]);
    await both('SELECT v FROM ck WHERE ch <> ALL($1) ORDER BY v', [[ab]]);
    await both(`SELECT v FROM ck WHERE ch = ANY('{"ab  ",cd}') ORDER BY v`);
    await both('UPDATE ck SET v = $2 WHERE ch = $1', [ab, 'uno']);
    // and written into the statement (psycopg2 and PDO's emulated prepares inline the value)
    for (const sql of [
      "SELECT v FROM ck WHERE ch = 'ab  '",
      "SELECT v FROM ck WHERE 'ab ' = ch",
      "SELECT v FROM ck WHERE ch <> 'ab  ' ORDER BY v",
      "SELECT v FROM ck WHERE ch IN ('ab  ', 'cd ') ORDER BY v",
      "SELECT v FROM ck WHERE ch NOT IN ('ab  ', 'cd ') ORDER BY v",
      "SELECT v FROM ck WHERE ch BETWEEN 'ab  ' AND 'cd  ' ORDER BY v",
      "SELECT v, ch = 'x   ', ch >= 'cd  ' FROM ck ORDER BY v",
      "SELECT v FROM ck WHERE ch = 'ab  ' AND v LIKE 'u%'",
      "SELECT 'a'::char(3) = 'a  ', 'a'::char(3) IN ('a ', 'b')",
    ])
      await both(sql);
    await both("UPDATE ck SET v = 'dos' WHERE ch = 'cd  '");
    // a padded key written is the key: it conflicts with the row, and is kept as PostgreSQL reads it
    await both("INSERT INTO ck VALUES ('ab  ', 'again') ON CONFLICT (ch) DO UPDATE SET v = excluded.v");
    await both('INSERT INTO ck VALUES ($1, $2) ON CONFLICT (ch) DO UPDATE SET v = excluded.v', [cd, 'twice']);
    await both("INSERT INTO ck VALUES ('ef  ', 'four'), ($1, 'five')", ['gh ']);
    await both("SELECT ch, ch || '|', length(ch), ch::text = 'ef', v FROM ck ORDER BY ch");
    await both('DELETE FROM ck WHERE ch IN ($1, $2)', [ab, cd]);
    await both("DELETE FROM ck WHERE ch = 'ef  '");
    await both('SELECT ch, v FROM ck ORDER BY ch');
  });

  it('a char(n) value keeps its padding through expressions: max, coalesce, CASE, UNION, a window, a subquery (were unpadded)', async () => {
    const rows = `INSERT INTO cx VALUES (1, 'ab', 'x', 'ab', 'ab'), (2, 'abc ', 'y', 'ab  ', 'ab  '), (3, NULL, NULL, NULL, NULL), (4, 'b', ' ', 'b ', 'b')`;
    for (const c of [o.patina, o.postgres]) await c.query(rows);
    // (and the type modifier PostgreSQL announces: 8 where every value is the column's, -1 otherwise)
    const mods = async (c: OracleClients['patina'], sql: string) =>
      ((await c.query(sql)) as unknown as { fields: { dataTypeModifier: number }[] }).fields.map(
        (f) => f.dataTypeModifier,
      );
    for (const sql of [
      'SELECT max(ch), min(ch), max(c1) FROM cx',
      'SELECT id % 2 AS k, max(ch) FROM cx GROUP BY id % 2 ORDER BY k',
      `SELECT id, coalesce(ch, ch), coalesce(ch, NULL), coalesce(ch, 'z'), coalesce(ch, c1), nullif(ch, 'b'), greatest(ch, 'a') FROM cx ORDER BY id`,
      `SELECT id, CASE WHEN id > 1 THEN ch END, CASE WHEN id > 1 THEN ch ELSE ch END, CASE WHEN id = 1 THEN ch ELSE 'q' END FROM cx ORDER BY id`,
      'SELECT id, lag(ch) OVER (ORDER BY id), first_value(ch) OVER (ORDER BY id) FROM cx ORDER BY id',
      'SELECT (SELECT max(ch) FROM cx), x.m, x.ch FROM (SELECT min(ch) AS m, max(ch) AS ch FROM cx) x',
      'SELECT ch FROM cx WHERE id = 1 UNION SELECT ch FROM cx WHERE id = 2 ORDER BY 1',
      'SELECT ch FROM cx WHERE id = 1 UNION ALL SELECT max(ch) FROM cx ORDER BY 1',
    ]) {
      await sameOnBoth(o, sql);
      assert.deepEqual(await mods(o.patina, sql), await mods(o.postgres, sql), `modifiers of ${sql}`);
    }
  });

  it('a char(n) value is read padded where PostgreSQL prints it: to_json, array_agg, concat, format, octet_length, LIKE (read unpadded)', async () => {
    for (const sql of [
      'SELECT id, to_json(ch), to_jsonb(ch), ARRAY[ch], json_build_array(ch, c1) FROM cx ORDER BY id',
      "SELECT id, json_build_object(ch, ch), jsonb_build_object('k', c1) FROM cx WHERE ch IS NOT NULL ORDER BY id",
      "SELECT array_agg(ch ORDER BY id), json_agg(ch ORDER BY id), jsonb_agg(cx.ch ORDER BY id), string_agg(ch, ',' ORDER BY id) FROM cx",
      `SELECT id, concat(ch, '|'), concat_ws(',', ch, c1), format('%s|%L', ch, ch), octet_length(ch), length(ch) FROM cx ORDER BY id`,
      // what takes bpchar's text drops the padding, as before
      `SELECT id, ch || 'x', upper(ch), ch::text, c1 || '|' FROM cx ORDER BY id`,
      `SELECT id, ch LIKE 'ab', ch LIKE 'ab  ', ch LIKE 'ab%', ch NOT LIKE 'b', ch ILIKE 'AB%  ', ch ~~ 'b   ' FROM cx ORDER BY id`,
    ])
      await sameOnBoth(o, sql);
    // the padded value a client read, as LIKE's pattern (matched no row)
    await sameOnBoth(o, 'SELECT id FROM cx WHERE ch LIKE $1 ORDER BY id', ['ab  ']);
  });

  it('ARRAY[ch] is announced with its modifier; a UNION of a char(n) and a literal is bpchar; grouped choices ignore trailing spaces', async () => {
    const mods = async (c: OracleClients['patina'], sql: string) =>
      ((await c.query(sql)) as unknown as { fields: { dataTypeModifier: number }[] }).fields.map(
        (f) => f.dataTypeModifier,
      );
    for (const sql of [
      // character(4)[]: its elements' modifier (was -1), none where they differ
      `SELECT id, ARRAY[ch], ARRAY[ch, ch], ARRAY[c1], ARRAY[ch, 'x'], ARRAY[ch, c1], ARRAY[ARRAY[ch]] FROM cx ORDER BY id`,
      // bpchar, the column's values padded (was text, unpadded)
      `SELECT ch FROM cx WHERE id = 1 UNION SELECT 'zz' ORDER BY 1`,
      `SELECT ch FROM cx UNION ALL SELECT 'zz' ORDER BY 1`,
      `SELECT 'zz' AS k UNION ALL SELECT ch FROM cx UNION ALL SELECT NULL ORDER BY 1`,
      `SELECT ch FROM cx EXCEPT SELECT 'ab' ORDER BY 1`,
      `SELECT ch FROM cx WHERE id <> 1 UNION SELECT c1 FROM cx UNION SELECT 'q' ORDER BY 1`,
      // 'ab' and a column's 'ab  ' are one group, as bpchar compares them (were two)
      `SELECT DISTINCT coalesce(ch, 'ab') FROM cx ORDER BY 1`,
      `SELECT coalesce(ch, 'ab') AS k, count(*) FROM cx GROUP BY 1 ORDER BY 1`,
      `SELECT coalesce(ch, 'ab') AS k, count(*) FROM cx GROUP BY k ORDER BY 1`,
      `SELECT CASE WHEN id = 3 THEN 'ab' ELSE ch END AS k, count(*) FROM cx GROUP BY 1 ORDER BY 1`,
      `SELECT DISTINCT greatest(ch, 'ab') FROM cx ORDER BY 1`,
      `SELECT id, coalesce(ch, 'ab') FROM cx GROUP BY id ORDER BY 1`,
    ]) {
      await sameOnBoth(o, sql);
      assert.deepEqual(await mods(o.patina, sql), await mods(o.postgres, sql), `modifiers of ${sql}`);
    }
    // a UNION of a column's 'ab  ' and a literal 'ab' keeps one row of them (were two); which one
    // it keeps differs (PostgreSQL the first branch's, SQLite the last's), so their trimmed text
    const trimmed = async (c: OracleClients['patina'], sql: string) =>
      ((await c.query({ text: sql, rowMode: 'array' })) as unknown as { rows: (string | null)[][] }).rows.map((r) =>
        r.map((v) => v?.trimEnd() ?? null),
      );
    for (const sql of [
      `SELECT ch FROM cx UNION SELECT 'ab' ORDER BY 1`,
      `SELECT 'b' AS k UNION SELECT ch FROM cx UNION SELECT 'ab  ' ORDER BY 1`,
    ])
      assert.deepEqual(await trimmed(o.patina, sql), await trimmed(o.postgres, sql), sql);
  });

  it('a varchar compared with a char(n) is read as bpchar, its trailing spaces ignored (compared as text)', async () => {
    for (const sql of [
      `SELECT id, ch = vc, vc = ch, ch <> vc, ch = 'ab  '::varchar, ch = t FROM cx ORDER BY id`,
      'SELECT id FROM cx WHERE ch = vc ORDER BY id',
    ])
      await sameOnBoth(o, sql);
    await sameOnBoth(o, 'SELECT id, ch = $1::varchar, $1::varchar(6) = ch FROM cx ORDER BY id', ['ab  ']);
  });

  it('a plain CHAR column is char(1), as PostgreSQL reads it: padded, its modifier in the catalog, 22001 for more', async () => {
    await sameOnBoth(o, `SELECT id, c1, c1 || '|', length(c1), c1 = '' FROM cx ORDER BY id`);
    await sameOnBoth(
      o,
      "SELECT atttypmod, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'cx'::regclass AND attname = 'c1'",
      undefined,
      { types: false },
    );
    for (const c of [o.patina, o.postgres])
      await assert.rejects(c.query(`INSERT INTO cx (id, c1) VALUES (9, 'ab')`), { code: '22001' });
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
    );
    const describe = (port: number) =>
      psqlOk(port, ['\\d m'])
        .split('\n')
        .filter((l) => /numeric|character varying/.test(l))
        .map((l) => l.split('|').slice(0, 2).join('|').trim());
    assert.deepEqual(describe(o.pair.patinaPort), describe(o.pair.postgresPort));
  });
});
