// Operators whose meaning depends on their operands' types (date and time arithmetic, `^`), and
// result columns typed from the parse tree (RETURNING lists, generate_series in FROM, nested casts'
// names): the same statements on Patina and on PostgreSQL 15 through node-postgres, values and
// column types compared. SQLite alone would add 1 to a date's year ('2024-01-31' + 1 = 2025) and
// subtract dates as numbers (0).
import assert from 'node:assert/strict';
import { type OracleClients, sameOnBoth, startOracle } from '../helpers/catalog-pair';

describe('operators typed by their operands, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ rows: true });
    for (const c of [o.patina, o.postgres])
      await c.query(
        `INSERT INTO orders (id, customer_id, amount, placed_at) VALUES (7, 1, 3, '2024-01-31 23:30:00'), (8, 2, 4, '2024-02-29 00:00:00.25')`,
      );
  });
  after(() => o?.close());

  const same = (sql: string, params?: unknown[]) => sameOnBoth(o, sql, params);

  it('date ± integer, date − date, date + time, date ± interval, either way round', async () => {
    for (const sql of [
      "SELECT date '2024-01-31' + 1, 1 + date '2024-01-31', date '2024-03-01' - 1, date '2024-12-31' + 366",
      "SELECT date '2024-03-01' - date '2024-01-01', date '2024-01-01' - date '2024-03-01'",
      "SELECT date '2024-01-01' + time '10:30', time '23:59:59.5' + date '2024-02-28'",
      "SELECT date '2024-01-31' + interval '1 month', date '2024-01-01' - interval '1 hour', interval '1 day' + date '2024-02-28'",
      "SELECT date '2024-02-29' + interval '1 year', date '2024-01-05' - '2024-01-01'",
      "SELECT id, placed_at::date + 1, placed_at::date - 7, placed_at::date - date '2024-01-01' FROM orders WHERE placed_at IS NOT NULL ORDER BY id",
      "SELECT id FROM orders WHERE placed_at::date + 1 = date '2024-02-01' ORDER BY id",
      'SELECT id, placed_at::date + customer_id::int FROM orders WHERE placed_at IS NOT NULL ORDER BY id',
    ])
      await same(sql);
    assert.deepEqual(await same("SELECT (date '2024-01-31' + 1)::text, date '2024-03-01' - date '2024-01-01'"), [
      ['2024-02-01', 60],
    ]);
  });

  it('timestamp − timestamp, timestamp ± interval, intervals added, multiplied and divided', async () => {
    for (const sql of [
      "SELECT timestamp '2024-01-01 10:00' - timestamp '2024-01-01 08:30', timestamp '2024-03-01' - timestamp '2024-01-01'",
      "SELECT timestamp '2024-01-01' - timestamp '2024-01-02 01:00', timestamp '2024-01-05' - '2024-01-01'",
      "SELECT timestamp '2024-01-31 10:00' + interval '1 month', interval '90 minutes' + timestamp '2024-01-01 23:00'",
      "SELECT timestamp '2024-01-01 10:00' + '1 day', timestamp '2024-03-31' - interval '1 month'",
      "SELECT interval '1 day' + interval '2 hours', interval '1 day' - interval '36 hours', interval '1 day' * 2",
      "SELECT interval '1 month' * 1.5, 3 * interval '1 hour', interval '1 day' / 3, interval '1 day' * 2 + date '2024-01-01'",
      "SELECT date '2024-01-01' + interval '1 day' * 3, time '23:00' + interval '2 hours', time '01:00' - interval '2 hours'",
      "SELECT id, placed_at - timestamp '2024-01-01', placed_at + interval '12 hours' FROM orders WHERE placed_at IS NOT NULL ORDER BY id",
      "SELECT count(*) FROM orders WHERE placed_at > timestamp '2024-03-01' - interval '40 days'",
      "SELECT date '2024-01-01' + 1 + 1, (date '2024-01-01' + 1) - date '2023-12-25'",
    ])
      await same(sql);
  });

  it('parameters without a type are read as PostgreSQL reads an untyped literal there', async () => {
    await same("SELECT date '2024-03-01' - $1, timestamp '2024-01-01' + $2, timestamp '2024-01-05' - $3", [
      '2024-01-01',
      '1 day',
      '2024-01-01',
    ]);
    await same("SELECT date '2024-01-01' + $1::int, $2::date - 1", [5, '2024-03-01']);
    for (const c of [o.patina, o.postgres])
      await assert.rejects(c.query("SELECT date '2024-01-01' + $1", [1]), (e: { code?: string }) => e.code === '42725');
  });

  it('a combination PostgreSQL has no operator for is 42883 (42725 when ambiguous), not a wrong value', async () => {
    for (const [sql, code] of [
      ['SELECT placed_at + 1 FROM orders', '42883'],
      ["SELECT timestamp '2024-01-01' + timestamp '2024-01-02'", '42883'],
      ["SELECT date '2024-01-01' + date '2024-01-02'", '42883'],
      ["SELECT interval '1 day' + 1", '42883'],
      ["SELECT date '2024-01-05' + '1 day'", '42725'],
    ]) {
      for (const c of [o.patina, o.postgres])
        await assert.rejects(
          c.query(sql),
          (e: { code?: string }) => e.code === code,
          `${sql} on ${c === o.patina ? 'Patina' : 'PostgreSQL'}`,
        );
    }
    assert.equal((await o.patina.query('SELECT 1 AS alive')).rows[0].alive, 1);
  });

  it('a numeric division divides as numbers, also when both sides hold whole numbers (2 / 4 is 0.5, not 0)', async () => {
    for (const sql of [
      'SELECT id, (amount / 2)::float8, (amount / 8)::float8, (1 / amount)::float8 FROM orders WHERE amount IS NOT NULL ORDER BY id',
      'SELECT (sum(amount) / count(*))::float8, (sum(customer_id) / count(*))::float8 FROM orders',
      'SELECT customer_id, (count(*) * 100 / sum(count(*)) OVER ())::float8 FROM orders GROUP BY customer_id ORDER BY customer_id',
      'SELECT 7 / 2, (7::numeric / 2)::float8, 10 / count(*) FILTER (WHERE paid) FROM orders',
    ])
      await same(sql);
    // in a RETURNING list and an ON CONFLICT update, where the new row is also `excluded`
    await same('INSERT INTO orders (id, customer_id, amount) VALUES (30, 1, 2) RETURNING id, (amount / 4)::float8');
    await same(
      "INSERT INTO orders (id, customer_id, amount, placed_at) VALUES (30, 1, 6, '2024-05-05') ON CONFLICT (id) DO UPDATE SET amount = (orders.amount + excluded.amount) / 16, placed_at = excluded.placed_at + interval '1 hour' RETURNING (amount)::float8, placed_at",
    );
    await same('DELETE FROM orders WHERE id = 30');
    for (const c of [o.patina, o.postgres])
      await assert.rejects(
        c.query('SELECT amount / (customer_id - customer_id) FROM orders WHERE amount IS NOT NULL'),
        (e: { code?: string }) => e.code === '22012',
      );
  });

  it('a window or filtered aggregate is one operand (d - lag(d) OVER (...))', async () => {
    for (const sql of [
      'SELECT id, placed_at - lag(placed_at) OVER (ORDER BY id) FROM orders ORDER BY id',
      'SELECT id, lag(placed_at) OVER w - placed_at FROM orders WINDOW w AS (ORDER BY id) ORDER BY id',
      'SELECT id, placed_at - lag(placed_at) OVER w FROM orders WINDOW w AS (ORDER BY id) ORDER BY id',
    ])
      await same(sql);
  });

  it('^ is power, binding tighter than * and looser than a sign', async () => {
    for (const sql of [
      'SELECT 2 ^ 3, 2 ^ 3 ^ 2, -2 ^ 2, 2 * 3 ^ 2, 2 ^ 0.5 > 1.41',
      'SELECT id, customer_id ^ 2 FROM orders ORDER BY id',
    ])
      await same(sql);
  });

  it('extract and date_part of an interval (the seconds between two timestamps)', async () => {
    for (const sql of [
      "SELECT extract(epoch from interval '1 day 02:00:00.5')::float8, extract(hour from interval '27 hours')::float8, extract(minute from interval '-90 minutes')::float8",
      "SELECT extract(epoch from interval '1 year 2 mons 3 days')::float8, extract(month from interval '14 months')::float8, date_part('second', interval '1 min 2.25 sec')",
      'SELECT id, extract(epoch from placed_at - lag(placed_at) OVER (ORDER BY id))::float8 FROM orders ORDER BY id',
    ])
      await same(sql);
    for (const c of [o.patina, o.postgres])
      await assert.rejects(
        c.query("SELECT extract(dow from interval '1 day')"),
        (e: { code?: string }) => e.code === '0A000',
      );
  });

  it('x AT TIME ZONE z: a timestamp read in a zone is an instant, an instant seen in a zone a timestamp', async () => {
    for (const sql of [
      "SELECT timestamp '2024-01-01 10:00' AT TIME ZONE 'UTC', timestamptz '2024-01-01 10:00+02' AT TIME ZONE 'UTC'",
      "SELECT timestamp '2024-01-01 10:00' AT TIME ZONE 'America/New_York', timestamptz '2024-07-01 10:00+00' AT TIME ZONE 'Europe/Paris'",
      // Metabase's report time zone: a timestamp column read as UTC, then seen in the report's zone
      "SELECT id, (placed_at AT TIME ZONE 'UTC') AT TIME ZONE 'America/New_York', date_trunc('day', (placed_at AT TIME ZONE 'UTC') AT TIME ZONE 'Asia/Kolkata') FROM orders ORDER BY id",
      // clocks set forward (a wall time that never happens) and back (one that happens twice)
      "SELECT timestamp '2024-03-10 02:30' AT TIME ZONE 'America/New_York', timestamp '2024-11-03 01:30' AT TIME ZONE 'America/New_York'",
      "SELECT timestamp '2024-03-31 02:30' AT TIME ZONE 'Europe/Berlin', timestamp '2024-10-27 02:30' AT TIME ZONE 'Europe/Berlin', timestamp '2024-04-07 02:30' AT TIME ZONE 'Australia/Sydney'",
      "SELECT date '2024-01-01' AT TIME ZONE 'Asia/Tokyo', placed_at::timestamp AT TIME ZONE 'UTC' + interval '1 hour' FROM orders WHERE id = 1",
    ])
      await same(sql);
    for (const c of [o.patina, o.postgres])
      await assert.rejects(
        c.query("SELECT placed_at AT TIME ZONE 'Mars/Olympus' FROM orders WHERE placed_at IS NOT NULL"),
        (e: { code?: string }) => e.code === '22023',
      );
  });

  it('a string compared with a timestamp is read as one (SQLite compared the text: 10:00:00 > 10:00)', async () => {
    // rows at 2024-03-01 10:00:00, 2024-01-31 23:30:00, 2024-02-29 00:00:00.25
    for (const sql of [
      "SELECT id FROM orders WHERE placed_at > '2024-03-01 10:00' ORDER BY id",
      "SELECT id FROM orders WHERE placed_at <= '2024-03-01 10:00' ORDER BY id",
      "SELECT id FROM orders WHERE placed_at = '2024-03-01T10:00' ORDER BY id",
      "SELECT id FROM orders WHERE '2024-01-31 23:30' >= placed_at ORDER BY id",
      "SELECT id FROM orders WHERE placed_at BETWEEN '2024-01-31 23:30' AND '2024-03-01 10:00' ORDER BY id",
      "SELECT id FROM orders WHERE placed_at IN ('2024-03-01 10:00', '2024-01-31 23:30') ORDER BY id",
      "SELECT id FROM orders WHERE placed_at > '2024-01-31 23:30' AND paid IS NOT NULL ORDER BY id",
    ])
      await same(sql);
    // a write's WHERE too (not lifted into a parameter there)
    for (const c of [o.patina, o.postgres])
      assert.equal(
        (await c.query("UPDATE orders SET amount = amount WHERE placed_at <= '2024-03-01 10:00'")).rowCount,
        3,
      );
  });

  it('age(), make_date() and justify_hours/days/interval', async () => {
    for (const sql of [
      "SELECT age(timestamp '2024-03-01', timestamp '2024-01-31 10:00'), age(timestamp '2024-01-31', timestamp '2024-03-01 10:00')",
      "SELECT age(date '2020-02-29', date '2024-02-28'), age(timestamp '2024-03-31 00:00:00.5', timestamp '2023-02-28 23:00')",
      'SELECT make_date(2024, 2, 29), make_date(2023, 12, 31)',
      "SELECT justify_hours(interval '27 hours'), justify_hours(interval '-27 hours'), justify_hours(interval '1 day -3 hours')",
      "SELECT justify_days(interval '35 days'), justify_days(interval '-35 days'), justify_days(interval '1 mon -5 days')",
      "SELECT justify_interval(interval '1 mon -1 hour'), justify_interval(interval '-1 mon 1 hour'), justify_interval(interval '35 days 27 hours')",
      "SELECT justify_interval(timestamp '2024-03-01' - timestamp '2024-01-01 10:00'), justify_days(NULL)",
    ])
      await same(sql);
    for (const c of [o.patina, o.postgres])
      await assert.rejects(c.query('SELECT make_date(2023, 2, 29)'), (e: { code?: string }) => e.code === '22008');
  });

  it('RETURNING lists, set operations, generate_series in FROM, CASE and nested casts are named and typed as PostgreSQL does', async () => {
    await same(
      "INSERT INTO orders (id, customer_id, note) VALUES (20, 1, NULL) RETURNING id, note IS NULL, customer_id + 1, amount * 2, note || 'y', paid AND true",
    );
    await same(
      'UPDATE orders SET amount = 5 WHERE id = 20 RETURNING amount, amount::text, placed_at IS NULL AS never_placed',
    );
    await same('DELETE FROM orders WHERE id = 20 RETURNING id, paid OR false');
    // INTERSECT binds tighter than UNION in PostgreSQL (SQLite would go left to right; it was refused)
    await same('SELECT id FROM orders UNION SELECT 1 INTERSECT SELECT 2 ORDER BY 1');
    for (const sql of [
      'SELECT * FROM generate_series(1, 3)',
      'SELECT * FROM generate_series(1, 3) AS g(x)',
      'SELECT g FROM generate_series(1, 3) g',
      'SELECT x FROM generate_series(1::bigint, 3) x',
      // series of timestamps are timestamps (they were text), of dates timestamps with time zone
      "SELECT g, g + interval '1 hour' FROM generate_series(timestamp '2024-01-01', timestamp '2024-01-02', '6 hours') g",
      "SELECT g FROM generate_series(date '2024-01-01', date '2024-01-03', interval '1 day') g",
      "SELECT day::date, count(orders.id) FROM generate_series(date '2024-01-30', date '2024-02-02', interval '1 day') AS day LEFT JOIN orders ON orders.placed_at::date = day::date GROUP BY day ORDER BY day",
      // a set operation is typed by all its branches (SQLite declares the first one's: 2.5 in an int8 column)
      'SELECT customer_id FROM orders UNION SELECT 2.5 ORDER BY 1',
      "SELECT id, note FROM orders INTERSECT SELECT 1, 'first' UNION ALL SELECT 1.5, 'z' ORDER BY 1",
      // CASE takes its ELSE branch's name when that is a column's; ARRAY(SELECT x) is an array of x's type
      "SELECT CASE WHEN paid THEN id ELSE customer_id END, CASE WHEN paid THEN 'y' ELSE 'n' END, ARRAY(SELECT id FROM orders ORDER BY id) FROM orders ORDER BY id",
      "SELECT (date '2024-01-01')::timestamp, id::text || '-' || customer_id::text FROM orders ORDER BY id",
    ])
      await same(sql);
  });
  /** What a client sees of `sql`: its rows as text and column types, or its error (SQLSTATE, message, position). */
  const outcome = async (c: OracleClients['patina'], sql: string, params?: unknown[]) => {
    try {
      const r = await c.query({
        text: sql,
        values: params,
        rowMode: 'array',
        types: { getTypeParser: () => (v: string) => v },
      });
      return { rows: r.rows, types: r.fields.map((f) => f.dataTypeID) };
    } catch (e) {
      const { code, message, position } = e as { code?: string; message: string; position?: string };
      return { code, message, position };
    }
  };
  const sameOutcome = async (sql: string, params?: unknown[]) =>
    assert.deepEqual(await outcome(o.patina, sql, params), await outcome(o.postgres, sql, params), sql);

  /** Values of each type Patina has, and the types a cast names. */
  const CAST_SOURCES = [
    '0::int2', '7', '-42::int8', '12.50::numeric', '1.5::float4', '-2.5::float8', 'true', "'2024-02-29'::date",
    "'23:59:59.5'::time", "'2024-02-29 10:30:00'::timestamp", "'1 day 2 hours'::interval",
    `'{"a": 1}'::json`, "'12'::jsonb", "'\\x00ff'::bytea", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid",
    "'xyz'::varchar", "'ab'::char(4)",
  ]; // biome-ignore format: a table
  const CAST_TARGETS = [
    'int2', 'int4', 'int8', 'numeric', 'float4', 'float8', 'bool', 'date', 'time', 'timestamp', 'timestamptz',
    'interval', 'json', 'jsonb', 'bytea', 'uuid', 'timestamp(0)', 'numeric(5,1)', 'text', 'varchar', 'bpchar',
    'char(2)', 'time(1)', 'interval(0)',
  ]; // biome-ignore format: a table

  it('a cast PostgreSQL has no path for is its 42846 at the cast, whatever the value (it answered one, or another error)', async () => {
    for (const v of CAST_SOURCES)
      for (const type of CAST_TARGETS) {
        const sql = `SELECT (${v})::${type}`;
        const g = await outcome(o.postgres, sql);
        if ('code' in g && g.code === '42846') assert.deepEqual(await outcome(o.patina, sql), g, sql);
      }
    for (const sql of [
      // CAST(... AS ...), a table's column, a cast of a function's value, a negated typed literal, nested casts
      'SELECT 1, CAST(0::int2 AS bool)',
      'SELECT paid::date FROM orders',
      'SELECT placed_at::int8 FROM orders WHERE id = 1',
      'SELECT now()::date::int',
      'SELECT (-32768::int2)::bool',
      "SELECT ('1'::int2)::interval",
      'SELECT 1::date::bool',
      '  /* placed */  SELECT\n  amount::numeric::bool FROM orders',
      'SELECT id FROM orders WHERE (SELECT max(customer_id) FROM orders)::int4 > 0 AND paid::int4::date IS NULL',
      // arrays: ARRAY[...] cast element by element (the error at the element), an array to an array
      // by its elements' cast, an array and a scalar through text only
      'SELECT ARRAY[1]::date[]',
      'SELECT ARRAY[ARRAY[1, 2]]::interval[]',
      "SELECT ARRAY[now()::date, '2024-01-01']::int[]",
      "SELECT '{1}'::int[]::date[]",
      'SELECT 1::int4::int4[]',
      'SELECT (ARRAY[1])::int4',
      "SELECT ARRAY[1.5]::int4[], ARRAY['1']::int8[], '{1}'::int[]::int8[], '{1}'::int[]::text, '{1}'::text::int[]",
      // the casts PostgreSQL has: the same type, pg_cast's pairs, text's I/O conversion either way
      'SELECT 1::int4::bool, true::int4, 1.5::float8::numeric, now()::date::timestamp, 1::int8::oid',
      "SELECT 2::int4::text::date + 1, (date '2024-01-01')::text::int4",
    ])
      await sameOutcome(sql);
    await sameOutcome('SELECT $1::int4::date', [1]);
    // the casts it follows are pg_cast's rows, which the catalog lists as PostgreSQL does (it had none)
    await sameOutcome(
      'SELECT castsource::regtype, casttarget::regtype, castcontext, castmethod FROM pg_cast ORDER BY castsource, casttarget',
    );
  });
  it('casts between the types Patina has give what PostgreSQL gives: the value, or the same error', async () => {
    // (but char(n) text not padded to n, which Patina keeps without its trailing spaces)
    const sources = CAST_SOURCES.filter((v) => !v.startsWith("'ab'"));
    const more = ['1e20::numeric', "'-Infinity'::float4", '1e300::float8', "'1.5'::jsonb", "'true'::jsonb"];
    for (const v of [...sources, ...more, "'ab  '::char(4)", "'-1 mon 3 days'::interval", '-3.5::float4'])
      for (const type of CAST_TARGETS) await sameOutcome(`SELECT (${v})::${type}`);
    for (const sql of [
      // a double to an integer rounds half to even, a numeric half away from zero
      'SELECT 2.5::float8::int2, (-2.5)::float8::int4, 3.5::float4::int8, CAST(0.5::float8 AS int), 2.5::numeric::int',
      "SELECT 'NaN'::float8::int4",
      "SELECT '1.50'::jsonb::int4, '2.5'::jsonb::int8, '-2.5'::jsonb::int2, CAST('7'::jsonb AS float8)",
      "SELECT '99999'::jsonb::int2",
      "SELECT 'null'::jsonb::int4",
      "SELECT interval '49:30:00.123456'::time(2), CAST(interval '-2 hours 30.25 seconds' AS time)",
      "SELECT '1 day 23:59:59.5'::interval(0), '-1.5 sec'::interval(0), '2.25'::interval(1)",
      'SELECT 1e-300::float8::float4',
      'SELECT 12345.6::numeric(5,1)',
      // an array cast to numeric(p, s)[], varchar(n)[], char(n)[]: each element as its modifier makes it
      "SELECT '{1,2}'::int[]::numeric(4,1)[], '{1.50,2}'::numeric[]::numeric(4,1)[], CAST('{1.25}' AS numeric(4,1)[])",
      "SELECT '{{1,2},{3,4}}'::int[]::numeric(4,1)[], ARRAY[1.5]::varchar(1)[], '{abc,NULL}'::varchar(2)[], '{a}'::text[]::char(3)[]",
      "SELECT '{999}'::numeric(3,1)[]",
      // an integer to oid: a negative int4 wrapped past 2^32, beyond an oid's range 22003
      "SELECT (-1)::oid, '-1'::int2::oid, (-2147483648)::int4::oid, ('  -12  ')::oid, 12::oid, '12'::oid",
      'SELECT (-2147483649::int8)::oid',
      'SELECT 9007199254740993::int8::oid',
      "SELECT '4294967296'::text::oid",
    ])
      await sameOutcome(sql);
    // a date alone has no time of day (the error's position, at the literal, Patina does not give)
    for (const sql of ["SELECT ('2024-02-29')::time", "SELECT time '2024-02-29'", "SELECT CAST('today' AS time(1))"]) {
      const [p, g] = [await outcome(o.patina, sql), await outcome(o.postgres, sql)];
      assert.deepEqual([p.code, p.message], [g.code, g.message], sql);
      assert.equal(p.code, '22007', sql);
    }
    // per row: a table's doubles, a subquery's intervals and jsonb
    for (const c of [o.patina, o.postgres])
      await c.query('INSERT INTO line_items (order_id, line, price) VALUES (9, 1, -2.5), (9, 2, 3.5), (9, 3, 0.5)');
    await sameOutcome(
      'SELECT price::int4, price::int8, CAST(price AS int2) FROM line_items WHERE order_id = 9 ORDER BY line',
    );
    await sameOutcome(
      "SELECT iv::time, iv::time(0), j::int4, j::float8 FROM (VALUES (interval '1 day 2 hours', '1.50'::jsonb), (interval '-1 mon -3 hours', '-2.5')) v(iv, j)",
    );
    await sameOutcome("SELECT j::bool FROM (SELECT '1'::jsonb AS j) s");
  });
  it('int4 and int2 arithmetic past its range is 22003 inside a statement too (it went on in 64 bits)', async () => {
    for (const sql of [
      // written into a bigint column, compared, cast on, computed on (constants: also where no row is read)
      'INSERT INTO orders (id, customer_id) VALUES (40, 2147483647 + 1)',
      'INSERT INTO orders (id, customer_id) SELECT 41, 2147483647 * 2',
      'UPDATE orders SET customer_id = 2147483647 + 1 WHERE id = 999',
      'UPDATE orders SET customer_id = -2147483648 - 1',
      'SELECT id FROM orders WHERE 2147483647 + 1 > 0',
      'SELECT 2147483647 + 1 FROM orders WHERE id = 999',
      'SELECT (2147483647 + 1)::int8, 1',
      'SELECT 2147483647 * 2 / 2',
      'SELECT 32767::int2 + 1::int2 > 0',
      // per row: a column cast to int4 or int2 (id 2 leaves the range; a column itself is int8 here)
      'UPDATE orders SET customer_id = id::int4 * 2147483647 WHERE id = 2',
      'SELECT id FROM orders WHERE id::int4 * 2147483647 > 0 ORDER BY id',
      'SELECT id FROM orders WHERE id::int2 * 20000::int2 > 0 ORDER BY id',
      // int8 arithmetic, and int4 arithmetic within its range, runs
      'INSERT INTO orders (id, customer_id) VALUES (42, 2147483648 + 1) RETURNING customer_id',
      'UPDATE orders SET customer_id = 2147483647::int8 + 1 WHERE id = 42 RETURNING customer_id',
      'SELECT id, customer_id + 2147483647, id::int4 + 2147483645 FROM orders WHERE id::int4 * 2 + 2147483640 > 0 ORDER BY id',
      'SELECT 32767::int2 + 1, -2147483647 - 1, (-2147483648)::int8 - 1',
      // (constants PostgreSQL leaves unevaluated are not folded there)
      'SELECT CASE WHEN false THEN 2147483647 + 1 END, COALESCE(1, 2147483647 + 1)',
      'SELECT 1 WHERE false AND 2147483647 + 1 > 0',
      'DELETE FROM orders WHERE id = 42',
      'SELECT id, customer_id FROM orders ORDER BY id',
    ])
      await sameOutcome(sql);
  });

  it("an integer type's least value divided by -1 is 22003 inside a statement too (int4, int2, int8: it went on)", async () => {
    for (const sql of [
      'SELECT id FROM orders WHERE (-2147483648)::int4 / -1 > 0',
      'SELECT id FROM orders WHERE id = 999 AND (-2147483648)::int4 / -1 > 0',
      'SELECT ((-2147483648)::int4 / (-id)::int4)::text FROM orders ORDER BY id',
      'SELECT id FROM orders WHERE (-32768)::int2 / (-id)::int2 > 0',
      'UPDATE orders SET customer_id = (-2147483648)::int4 / (-id)::int4 WHERE id = 1',
      'SELECT ((-9223372036854775808)::int8 / -1)::text',
      'SELECT id FROM orders WHERE (-9223372036854775808)::int8 / (-id) > 0 ORDER BY id',
      // (% of them is 0; within the range, and by another divisor, it runs; by zero 22012 still)
      'SELECT id, (-2147483648)::int4 % (-id)::int4, (-9223372036854775808)::int8 % (-id) FROM orders ORDER BY id',
      'SELECT id, ((-2147483647)::int4 / (-id)::int4)::text, ((-2147483648)::int4 / (id + 1)::int4)::text FROM orders ORDER BY id',
      'SELECT id FROM orders WHERE (-9223372036854775807)::int8 / (-id) < 0 AND customer_id / id >= 1 ORDER BY id',
      'SELECT id FROM orders WHERE 1::int4 / (id - id)::int4 > 0',
      'SELECT id FROM orders WHERE (-9223372036854775808)::int8 / (id - id) > 0',
      'SELECT NULL::int4 / (-1)::int4, (-2147483648)::int4 / NULL::int4',
      'SELECT id, customer_id FROM orders ORDER BY id',
    ])
      await sameOutcome(sql);
  });

  it('int4 arithmetic of functions whose value is int4 (strpos, char_length, array_length, date - date) is 22003 past its range', async () => {
    for (const sql of [
      "SELECT id FROM orders WHERE strpos(note, 'i') * 1000000000 > 0",
      'SELECT id FROM orders WHERE char_length(note) * 1000000000 > 0',
      'SELECT id FROM orders WHERE bit_length(note) * 1000000000 > 0',
      'SELECT id FROM orders WHERE ascii(note) * 100000000 > 0',
      'SELECT id FROM orders WHERE array_length(ARRAY[1, 2, 3], 1) * 1000000000 > 0',
      'SELECT id FROM orders WHERE cardinality(ARRAY[1, 2, 3]) * 1000000000 > 0',
      'SELECT id FROM orders WHERE array_position(ARRAY[1, 2, 3], 3) * 1000000000 > 0',
      "SELECT id FROM orders WHERE (placed_at::date - DATE '2000-01-01') * 1000000 > 0",
      'SELECT id FROM orders WHERE octet_length(note) + 2147483647 > 0',
      'SELECT 1 FROM orders HAVING count(*)::int4 * 2000000000 > 0',
      // (within the range they run)
      "SELECT id, strpos(note, 'i') * 2, ascii(note) - 1 FROM orders WHERE char_length(note) * 3 > 0 OR id = 2 ORDER BY id",
      "SELECT id FROM orders WHERE (placed_at::date - DATE '2000-01-01') * 10 > 0 ORDER BY id",
    ])
      await sameOutcome(sql);
  });

  it("a string literal its cast's type refuses is the input function's error at the literal (psql's caret; there was no position)", async () => {
    for (const sql of [
      "SELECT 'abc'::int",
      "SELECT int4 'x'",
      "SELECT 1, CAST('x' AS bool)",
      "SELECT '1.5'::int2",
      "SELECT 'zz'::numeric(5,1)",
      "SELECT 'x'::uuid",
      "SELECT '{'::jsonb",
      "SELECT '99999'::int2",
      "SELECT '1e300'::float4",
      "SELECT ''::int",
      "SELECT CASE WHEN false THEN 'x'::int END",
      "SELECT '1'::int8, '9223372036854775808'::int8",
      "  SELECT\n  ' 12 '::int, ' t '::bool, 'of'::bool, 'NaN'::numeric, '-inf'::float8, '+1.5e3'::numeric, '.5'::float4",
    ])
      await sameOutcome(sql);
  });
});
