// Writes with their values in the SQL text (psycopg2 and the ORMs on it interpolate every value on
// the client; psql scripts; pgbench -M simple): the simple protocol lifts an INSERT's VALUES items
// and an UPDATE's SET values into parameters (one analysis and one SQLite statement per shape), each
// read with its column's type as Bind reads a parameter. What lands must be what PostgreSQL 15 stores
// for the same text, for every column type, and the errors the literal would raise stay its errors.
import assert from 'node:assert/strict';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { oracleSuite } from '../helpers/catalog-pair';
import { WireClient } from '../helpers/pg-wire';
import { scrape } from '../helpers/metrics';

const copyStreams = require('pg-copy-streams') as { from(sql: string): Writable; to(sql: string): Readable };

const SCHEMA = `CREATE TABLE lw (
  id BIGINT NOT NULL PRIMARY KEY, n BIGINT, big BIGINT, f DOUBLE PRECISION, amount NUMERIC(10,2), t TEXT,
  code VARCHAR(5), ok BOOLEAN, d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, j JSONB, js JSON, b BYTEA, u UUID,
  iv INTERVAL, nums BIGINT[], tags TEXT[]);
CREATE TABLE jn (id BIGINT NOT NULL PRIMARY KEY, js JSON, jb JSONB, nm NAME);
CREATE TABLE tw (id BIGINT NOT NULL PRIMARY KEY, t TEXT, v VARCHAR(40), c CHAR(30), k BIGINT DEFAULT 7, s TEXT DEFAULT 'dflt');`;

const COLUMNS = 'id, n, big, f, amount, t, code, ok, d, ts, tz, j, js, b, u, iv, nums, tags';

describe('literal values written by the simple protocol, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, []);

  /** The SQLSTATE a statement fails with on a server, or null. */
  async function stateOf(c: ReturnType<typeof clients>['patina'], sql: string): Promise<string | null> {
    try {
      await c.query(sql);
      return null;
    } catch (err) {
      return (err as { code: string }).code;
    }
  }

  it('INSERT ... VALUES of every column type, row after row of one shape, stores what PostgreSQL stores', async () => {
    const rows = [
      `(1, 42, 9007199254740993, 1.5, 12.5, 'it''s', 'abcde', 't', '2024-02-29', '2024-01-15 10:30', '2024-01-15 10:30:00+02', '{"b": [1, 2], "a": null}', '{"b": 1,  "a": 2}', '\\x00ff10', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '1 day 02:00', '{1,2,3}', '{a,"b c",NULL}')`,
      `(2, -7, -9223372036854775808, -0.25, -0.005, E'tab\\there', '', 'false', '1999-12-31', '2000-01-01 00:00:00.123456', '2000-01-01T12:00:00Z', '[]', '"x"', '', '00000000-0000-0000-0000-000000000000', '-3 hours', '{}', '{}')`,
      `(3, 0, 0, 'NaN', 0, '', NULL, 'yes', 'infinity', '-infinity', 'infinity', '{"k": "ü"}', 'null', '\\x', 'a0eebc999c0b4ef8bb6d6bb9bd380a12', '2 years 3 mons', '{-1}', '{"{}"}')`,
      `(4, 2147483647, 9223372036854775807, '-Infinity', 99999999.99, 'x', 'a', 'off', '0001-01-01', '2024-06-01', '2024-06-01 00:00', '[1.50, {"b": 1, "a": 2}]', '[1,2]', '\\xDEADBEEF', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a13}', '00:00:01.5', '{2147483647}', '{"quote\\"d"}')`,
    ];
    for (const r of rows) await same(`INSERT INTO lw (${COLUMNS}) VALUES ${r}`);
    // the same shape with several rows in one statement
    await same(`INSERT INTO lw (id, n, t) VALUES (5, 1, 'one'), (6, -2, 'two'), (7, 3, NULL)`);
    // decimals: a float or numeric column reads them as Bind does; an integer or text column as written
    await same(`INSERT INTO lw (id, f, amount, t) VALUES (8, 0.1, 1.005, 1.50), (9, -1e-3, -.5, 3.0)`);
    await same(`INSERT INTO lw (id, n) VALUES (11, 2.5), (12, -2.5)`);
    // psycopg2's casts: datetime, date, time, timedelta, bytes, uuid, NaN (the string lifted, the cast kept)
    for (const [id, day] of [
      [14, '15'],
      [15, '16'],
    ])
      await same(
        `INSERT INTO lw (id, ts, tz, d, iv, b, u, f, j) VALUES (${id}, '2024-01-${day}T10:30:00.5'::timestamp, '2024-01-${day}T10:30:00+01:00'::timestamptz, '2024-01-${day}'::date, '1 days 3600.000000 seconds'::interval, '\\x0a${day}'::bytea, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd3800${day}'::uuid, 'NaN'::float, '{"d": ${day}}'::jsonb)`,
      );
    await same(`UPDATE lw SET ts = '2024-02-01'::date, f = 'Infinity'::float, iv = '-1 days'::interval WHERE id = 15`);
    await same('SELECT id, ts, tz, d, iv, b, u, f, j FROM lw WHERE id IN (14, 15) ORDER BY id');
    // an integer array's text in PostgreSQL's form (was kept as written, so = '{1,NULL,3}' missed it)
    await same(`INSERT INTO lw (id, nums) VALUES (13, '{1, null ,+3}')`);
    await same(`SELECT id, nums::text FROM lw WHERE nums = '{1,NULL,3}'`);
    // bytea made text is hex, as bytea_output = hex prints it (was the bytes themselves)
    await same("SELECT id, b::text, concat('b=', b) FROM lw WHERE b IS NOT NULL ORDER BY id");
    await same(`UPDATE lw SET f = 2.25e2, amount = 0.125 WHERE id = 9`);
    await same(`SELECT ${COLUMNS} FROM lw ORDER BY id`);
    await same('SELECT id, f::text, amount::text, ts::text, tz::text, j::text, js::text, iv::text FROM lw ORDER BY id');
    // made text by || and concat too (timestamptz lost its +00, jsonb printed the text as written)
    await same("SELECT id, 'at ' || tz, concat(j, '/', tz) FROM lw ORDER BY id");
  });

  it('UPDATE ... SET literal values, and the same shape again with other values', async () => {
    await same(`INSERT INTO lw (id, n, t, ok, amount) VALUES (10, 1, 'a', 'true', 1)`);
    for (const [v, ok, t] of [
      ['2', 'f', "'b'"],
      ['-3', 'on', "'c''d'"],
      ['4', '0', 'NULL'],
    ])
      await same(
        `UPDATE lw SET n = ${v}, ok = '${ok}', t = ${t}, amount = '${v}.555', ts = '2024-03-0${v.slice(-1)} 08:00' WHERE id = 10`,
      );
    await same('SELECT id, n, ok, t, amount, ts FROM lw WHERE id = 10');
    await same(`UPDATE lw SET j = '{"x": 1}', nums = '{7,8}', d = '2020-02-02' WHERE id = 10 RETURNING id, j, nums, d`);
    await same(`DELETE FROM lw WHERE id = 10 RETURNING id, n`);
  });

  it("an integer added to the column SET assigns (pgbench's TPC-B) is one shape, and stores what PostgreSQL stores", async () => {
    const o = clients();
    await same(
      `INSERT INTO lw (id, n, big, f, amount, t, ts) VALUES (90, 10, 9223372036854775800, 1.5, 2.25, 'x', '2024-01-01 10:00')`,
    );
    const misses = async () =>
      (await scrape(o.pair.agent.http)).samples.get('patina_pg_analysis_cache_total{result="miss"}') ?? 0;
    const before = await misses();
    for (const d of ['5', '-1234', '0', '77']) {
      await same(`UPDATE lw SET n = n + ${d} WHERE id = 90`);
      await same(`UPDATE lw SET n = n - ${d}, "big" = "big" - 1 WHERE id = 90`);
    }
    // the eight texts above are two shapes: one analysis each
    assert.ok((await misses()) - before <= 2, `${(await misses()) - before} analyses for two shapes`);
    await same('SELECT n, big FROM lw WHERE id = 90');
    // not integers: each runs as written and gets PostgreSQL's answer or error (a timestamp + 5 is
    // no interval of 5 seconds; past the bigint's range is 22003, a float and a numeric add exactly)
    for (const sql of [
      'UPDATE lw SET ts = ts + 5 WHERE id = 90',
      'UPDATE lw SET big = big + 100 WHERE id = 90',
      'UPDATE lw SET n = n + 99999999999999999999 WHERE id = 90',
    ]) {
      const g = await stateOf(o.postgres, sql);
      assert.notEqual(g, null, sql);
      assert.equal(await stateOf(o.patina, sql), g, sql);
    }
    await same('UPDATE lw SET f = f + 2, amount = amount - 3 WHERE id = 90 RETURNING f, amount');
    await same('UPDATE lw SET f = f - -2, amount = amount + 1 WHERE id = 90 RETURNING f, amount');
    await same('SELECT n, big, f, amount, t, ts FROM lw WHERE id = 90');
  });

  it("a literal that does not fit its column fails with the literal's SQLSTATE, and nothing is written", async () => {
    const o = clients();
    for (const sql of [
      `INSERT INTO lw (id, n) VALUES (20, 'abc')`,
      // beyond 64 bits: 22003 (was SQLite's "too big", 42000)
      `INSERT INTO lw (id, n) VALUES (20, '9223372036854775808')`,
      `UPDATE lw SET big = '-9223372036854775809' WHERE id = 1`,
      // unquoted too: a numeric in PostgreSQL, out of range for the bigint (was "too big", 42000)
      `INSERT INTO lw (id, n) VALUES (20, 9223372036854775808)`,
      `INSERT INTO lw (id, n, big) VALUES (20, 1, -9223372036854775809)`,
      `UPDATE lw SET n = 2, big = 9223372036854775808 WHERE id = 1`,
      `INSERT INTO lw (id, ok) VALUES (20, 'maybe')`,
      `INSERT INTO lw (id, code) VALUES (20, 'toolong')`,
      `INSERT INTO lw (id, d) VALUES (20, '2024-02-30')`,
      `INSERT INTO lw (id, j) VALUES (20, '{"a": ')`,
      // a NUL in a jsonb string: 22P05 (was stored); json keeps it (below)
      `INSERT INTO lw (id, j) VALUES (20, '{"a": "x\\u0000"}')`,
      `UPDATE lw SET j = '["\\\\\\u0000"]' WHERE id = 1`,
      `INSERT INTO lw (id, u) VALUES (20, 'not-a-uuid')`,
      `INSERT INTO lw (id, nums) VALUES (20, '{1,x}')`,
      `UPDATE lw SET n = 'abc' WHERE id = 1`,
      `INSERT INTO lw (id, amount) VALUES (20, 123456789.5)`,
      `UPDATE lw SET amount = 1e9 WHERE id = 1`,
    ]) {
      const g = await stateOf(o.postgres, sql);
      assert.notEqual(g, null, sql);
      assert.equal(await stateOf(o.patina, sql), g, sql);
    }
    await same('SELECT count(*) FROM lw WHERE id = 20');
    await same('SELECT n FROM lw WHERE id = 1');
    // beyond 64 bits into a text column it is its digits; compared with a bigint it matches nothing
    await same('INSERT INTO lw (id, t) VALUES (23, 99999999999999999999), (24, -9223372036854775809) RETURNING id, t');
    await same('SELECT id FROM lw WHERE big = 9223372036854775808 OR n = -9223372036854775809');
    await same('DELETE FROM lw WHERE id IN (23, 24)');
    await same(`INSERT INTO lw (id, js, j) VALUES (25, '{"a": "\\u0000"}', '{"a": "\\\\u0000"}') RETURNING js, j`);
    await same('DELETE FROM lw WHERE id = 25');
  });

  it('a bound text parameter that is no value of its column fails as in PostgreSQL (was stored as sent)', async () => {
    const o = clients();
    for (const [column, value] of [
      ['d', '2024-02-30'],
      ['n', '9223372036854775808'],
      ['big', '-9223372036854775809'],
      ['ts', 'not a time'],
      ['tz', '2024-13-01 00:00+00'],
      ['j', '{"a": '],
      ['j', '{"a": "\\u0000"}'],
      ['js', 'nope'],
      ['u', 'not-a-uuid'],
      ['nums', '{1,x}'],
      ['nums', '1,2'],
    ]) {
      const sql = `INSERT INTO lw (id, ${column}) VALUES (21, $1)`;
      const state = async (c: typeof o.patina) => {
        try {
          await c.query(sql, [value]);
          return null;
        } catch (err) {
          return (err as { code: string }).code;
        }
      };
      const g = await state(o.postgres);
      assert.notEqual(g, null, `${sql} ${value}`);
      assert.equal(await state(o.patina), g, `${sql} ${value}`);
    }
    await same('SELECT count(*) FROM lw WHERE id = 21');
    await same('INSERT INTO lw (id, d, u, nums, j) VALUES ($1, $2, $3, $4, $5) RETURNING d, u, nums, j', [
      22,
      '2024-02-29',
      'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
      '{1,-2}',
      '{"k": [true]}',
    ]);
  });

  it('a value computed from a column and written back is what PostgreSQL stores (write probe cases)', async () => {
    await same(`INSERT INTO lw (id, b, t) VALUES (30, '\\x0102ff', 'hello'), (31, '\\x00', NULL)`);
    // overlay of a bytea replaces bytes (its bytes were read as characters: \x5c78313102efbfbd)
    await same(`UPDATE lw SET b = overlay(b placing '\\x11' from 1 for 1) WHERE id = 30`);
    await same(`INSERT INTO lw (id, b) SELECT 32, overlay(b placing '\\xaabb'::bytea from 2) FROM lw WHERE id = 31`);
    await same(`SELECT id, b, b::text, overlay(b placing '\\x7f' from 1 for 0) FROM lw WHERE id >= 30 ORDER BY id`);
    // a json value cast to jsonb is jsonb (its spacing, keys sorted, the last of duplicate keys); it
    // kept the json text, so js::jsonb::json and a json column's js::jsonb stored the text as written
    await same(`INSERT INTO lw (id, js) VALUES (33, '{"b":1,  "a":2, "b": 3}')`);
    await same(`INSERT INTO lw (id, js) SELECT 34, js::jsonb FROM lw WHERE id = 33`);
    await same(`UPDATE lw SET js = js::jsonb::json WHERE id = 33`);
    await same(`INSERT INTO lw (id, js) VALUES (35, '{"z":[1,  2], "a":{}}'::jsonb::json)`);
    await same('SELECT id, js, js::text FROM lw WHERE id >= 33 ORDER BY id');
    // a number with an exponent is a numeric of the digits after the point less the exponent; made
    // text it was a double's (x1000.0)
    await same(`INSERT INTO lw (id, t) VALUES (37, 'x' || 1e3)`);
    await same(`UPDATE lw SET t = t || 1.50e1 || 2e+2 || '/' || 2.5e-1 WHERE id = 37`);
    await same('SELECT id, t FROM lw WHERE id = 37');
    await same('SELECT 1e3, 2.5e-1, 2.50e-1 + 1, 1.5e2::text');
    // a date or timestamp past PostgreSQL's last is its 22008 (it was stored as '/0NaN-NaN-NaN');
    // a cast to one past JavaScript's last date but not PostgreSQL's is Patina's 0A000, never that text
    const { patina, postgres } = clients();
    for (const sql of [
      `INSERT INTO lw (id, d) VALUES (38, '5874898-01-01')`,
      `INSERT INTO lw (id, ts) VALUES (38, '294277-01-01 00:00')`,
      `UPDATE lw SET tz = '294277-01-01 00:00+00' WHERE id = 37`,
    ])
      assert.equal(await stateOf(patina, sql), await stateOf(postgres, sql), sql);
    await same('SELECT count(*) FROM lw WHERE id = 38 OR ts > now() OR tz > now()');
    assert.equal(await stateOf(patina, `SELECT '5874897-12-31'::date`), '0A000');
    await same(`SELECT '{"b":1, "a":2}'::jsonb = '{"a":2,"b":1}'::jsonb, $1 = '{"a":2,"b":1}'::jsonb`, [
      '{"b":1,"a":2}',
    ]);
  });

  it('a json, jsonb or name column whose whole value is a number keeps it as PostgreSQL does', async () => {
    // SQLite gave the declared types JSON, JSONB and NAME NUMERIC affinity: '1.50' was stored as the
    // REAL 1.5, '12345678901234567890' lost digits, '1e2' was 100 and '-0' 0, in every write form
    const values = ['1.50', '12345678901234567890', '1e2', '-0', '[1.50]', ' 7 ', '1.0e-2', '007'];
    const json = (v: string) => (v === '007' ? '"007"' : v);
    let id = 100;
    for (const v of values) {
      await same(`INSERT INTO jn (id, js, jb, nm) VALUES (${id++}, '${json(v)}', '${json(v)}', '${v}')`);
      await same('INSERT INTO jn (id, js, jb, nm) VALUES ($1, $2, $3, $4)', [id++, json(v), json(v), v]);
      await same(`INSERT INTO jn (id) VALUES (${id})`);
      await same(`UPDATE jn SET js = '${json(v)}', jb = '${json(v)}', nm = '${v}' WHERE id = ${id++}`);
      await same(`INSERT INTO jn (id) VALUES (${id})`);
      await same('UPDATE jn SET js = $1, jb = $2, nm = $3 WHERE id = $4', [json(v), json(v), v, id++]);
    }
    // COPY FROM reads them as an INSERT does, COPY TO prints them as PostgreSQL does
    const copied: string[] = [];
    for (const c of [clients().patina, clients().postgres]) {
      const query = <T>(s: T): T => (c as unknown as { query<U>(s: U): U }).query(s);
      await pipeline(
        Readable.from([
          Buffer.from('200\t1.50\t1.50\t1.50\n201\t12345678901234567890\t1e2\t-0\n202\t[1.50]\t-0\t1e2\n'),
        ]),
        query(copyStreams.from('COPY jn (id, js, jb, nm) FROM STDIN')),
      );
      const out: Buffer[] = [];
      for await (const chunk of query(copyStreams.to('COPY (SELECT * FROM jn ORDER BY id) TO STDOUT')))
        out.push(chunk as Buffer);
      copied.push(Buffer.concat(out).toString());
    }
    assert.equal(copied[0], copied[1]);
    assert.match(copied[0], /^200\t1\.50\t1\.50\t1\.50$/m);
    await same('SELECT id, js, jb, nm, js::text, jb::text, nm::text FROM jn ORDER BY id');
    // jsonb's operators over them: numeric's equality and order, the elements, the text
    await same(`SELECT id, jb = '1.5', jb <> '[1.5]', jb @> '1.5', jb <@ '[1.5]', jsonb_typeof(jb), jb #>> '{}',
      jb || '[2]', js::jsonb, jb::text = '1.50' FROM jn WHERE id >= 200 ORDER BY id`);
    await same(`SELECT id FROM jn WHERE jb = '1.5' ORDER BY id`);
    await same('SELECT id FROM jn WHERE jb = $1 ORDER BY id', ['[1.5]']);
    await same(`SELECT id FROM jn WHERE jb = '100' OR jb = '12345678901234567890' OR nm = '1.50' ORDER BY id`);
    await same(`SELECT js -> 0, js ->> 0, json_typeof(js) FROM jn WHERE id = 202`);
  });

  it("a value of another type written into a text, varchar or char(n) column is its type's text (a boolean was stored 1)", async () => {
    // PostgreSQL assigns a value to a string column by its type's output function: `true`, `2.50`, a
    // timestamptz with its offset in the session's zone; SQLite stored 1, 2.5, the UTC text without it
    await same(`INSERT INTO lw (id, ok, amount, tz, f, d, iv, j) VALUES
      (60, true, 2.5, '2024-01-02 10:00+00', 0.1, '2024-01-02', '26 hours', '{"b": 1, "a": [2.50]}'),
      (61, false, 3, '2024-07-01 12:00+02', 1e100, NULL, NULL, NULL)`);
    // literals and expressions: INSERT ... VALUES, UPDATE ... SET, a row SET (each on a row of its own)
    await same(`INSERT INTO tw (id, t, v, c) VALUES (1, true, 1 > 2, 2.50::numeric(10,2)),
      (2, '2024-01-02 10:00+00'::timestamptz, 0.1::real, 1.10 + 2.20), (3, 'x', 'x', 'x'), (4, 'x', 'x', 'x'),
      (5, 'x', 'x', 'x'), (6, 'x', 'x', 'x'), (7, 'x', 'x', 'x'), (8, 'x', 'x', 'x'), (9, 'x', 'x', 'x')`);
    await same('UPDATE tw SET t = (id > 1), v = 1e100::float8 WHERE id = 3');
    await same(`UPDATE tw SET t = false, c = now() - now() + '2024-01-02'::timestamptz WHERE id = 4`);
    await same('UPDATE tw SET (c) = ROW(1 > 2) WHERE id = 3');
    await same(`UPDATE tw SET (v, t) = (false, '2024-01-02 10:00+00'::timestamptz) WHERE id = 9`);
    // columns: INSERT ... SELECT (DISTINCT, a set operation, a WITH query), UPDATE ... FROM, ON CONFLICT
    await same('INSERT INTO tw (id, t, v, c) SELECT id, ok, amount, tz FROM lw WHERE id IN (60, 61)');
    await same('INSERT INTO tw (id, t, v) SELECT DISTINCT id + 10, ok, f FROM lw WHERE id IN (60, 61)');
    await same(
      'INSERT INTO tw (id, t) SELECT 20, ok FROM lw WHERE id = 60 UNION ALL SELECT 21, ok FROM lw WHERE id = 61',
    );
    await same(
      'WITH x AS (SELECT id, ok, d FROM lw WHERE id = 60) INSERT INTO tw (id, t, v) SELECT id + 30, ok, d FROM x',
    );
    await same('UPDATE tw SET t = lw.tz, v = lw.iv, c = lw.ok FROM lw WHERE lw.id = 60 AND tw.id = 5');
    await same(`INSERT INTO tw (id, t) SELECT 6, j FROM lw WHERE id = 60
      ON CONFLICT (id) DO UPDATE SET v = excluded.t, c = (SELECT ok FROM lw WHERE id = 61)`);
    // in the session's zone and DateStyle, as PostgreSQL prints them there
    await same(`SET TimeZone = 'Europe/Paris'`);
    await same(`SET DateStyle = 'German, DMY'`);
    await same('UPDATE tw SET t = lw.tz, v = lw.d, c = lw.tz FROM lw WHERE lw.id IN (60, 61) AND tw.id = lw.id - 53');
    await same('RESET DateStyle');
    await same('RESET TimeZone');
    // node-postgres's true and 2.5 are untyped parameters, text by the column
    await same('INSERT INTO tw (id, t, v) VALUES ($1, $2, $3)', [40, true, 2.5]);
    // parameters the client declared (pgjdbc's setBoolean, setTimestamp, setFloat), in binary and in text
    const { pair } = clients();
    const int8 = (n: number) => Buffer.from(BigInt.asUintN(64, BigInt(n)).toString(16).padStart(16, '0'), 'hex');
    const float4 = Buffer.alloc(4);
    float4.writeFloatBE(0.1);
    for (const port of [pair.patinaPort, pair.postgresPort]) {
      const w = await WireClient.open(port, { user: 'tester', database: 'db' });
      const ins = await w.extended('INSERT INTO tw (id, t, v, c) VALUES ($1, $2, $3, $4)', {
        types: [20, 16, 1184, 700],
        values: [int8(50), Buffer.from([1]), int8(86_400_000_000 * 3), float4],
        formats: [1, 1, 1, 1],
      });
      const upd = await w.extended('UPDATE tw SET t = $1, c = $2 WHERE id = $3', {
        types: [16, 701, 20],
        values: [Buffer.from('f'), Buffer.from('1e100'), Buffer.from('40')],
        formats: [0, 0, 0],
      });
      w.end();
      assert.deepEqual([...ins.errors, ...upd.errors], [], `port ${port}`);
    }
    await same('SELECT id, t, v, c::text, length(c) FROM tw ORDER BY id');
  });

  it("SET a = DEFAULT in UPDATE and ON CONFLICT DO UPDATE writes the column's default (was SQLite's syntax error)", async () => {
    await same(`INSERT INTO tw (id, t, k, s) VALUES (100, 'a', 1, 'x'), (101, 'b', 2, 'y')`);
    await same('UPDATE tw SET k = DEFAULT WHERE id = 100 RETURNING k, s');
    await same('UPDATE tw SET s = DEFAULT, t = DEFAULT, k = k + 1 WHERE id >= 100');
    await same(`INSERT INTO tw (id, s) VALUES (101, 'z') ON CONFLICT (id) DO UPDATE SET k = DEFAULT, s = excluded.s`);
    await same('SELECT id, t, k, s FROM tw WHERE id >= 100 ORDER BY id');
  });
});
