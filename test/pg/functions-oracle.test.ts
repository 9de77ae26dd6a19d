// Arrays, set-returning calls, statistics, SIMILAR TO, bitwise XOR and other functions BI tools and
// hand-written SQL use: the same statements on Patina and on PostgreSQL 15 through node-postgres,
// values and column types compared (some to 12 significant digits: corr and the regr_* family of
// integers are numeric in PostgreSQL, computed exactly, and doubles in Patina). Before, `SELECT ARRAY[1, 2]` came back
// as text, `SELECT unnest(ARRAY[1, 2])` gave no row, `2147483647 + 1` printed 2147483648 as an
// integer, and stddev, SIMILAR TO and `#` were errors.
import assert from 'node:assert/strict';
import { type OracleClients, sameOnBoth, startOracle } from '../helpers/catalog-pair';
import { psql } from '../helpers/pg';

describe('functions and operators, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ rows: true });
    for (const c of [o.patina, o.postgres])
      await c.query(
        `INSERT INTO line_items (order_id, line, qty, price) VALUES (2, 1, 5, -2), (2, 2, 10, 0.1), (2, 3, 7, NULL)`,
      );
  });
  after(() => o?.close());

  const same = (sql: string, params?: unknown[], opts?: { types?: boolean }) => sameOnBoth(o, sql, params, opts);

  /** Both refuse `sql` with the same SQLSTATE. */
  async function sameError(sql: string): Promise<void> {
    const code = async (c: OracleClients['patina']) =>
      c.query(sql).then(
        () => 'no error',
        (e: { code?: string }) => e.code,
      );
    const [p, g] = [await code(o.patina), await code(o.postgres)];
    assert.notEqual(g, 'no error', sql);
    assert.equal(p, g, sql);
  }

  /** Both refuse `sql` with the same SQLSTATE and message. */
  async function sameMessage(sql: string): Promise<void> {
    const error = async (c: OracleClients['patina']) =>
      c.query(sql).then(
        () => 'no error',
        (e: { code?: string; message?: string }) => `${e.code} ${e.message}`,
      );
    const [p, g] = [await error(o.patina), await error(o.postgres)];
    assert.notEqual(g, 'no error', sql);
    assert.equal(p, g, sql);
  }

  /** The same rows, numbers compared to 12 significant digits, and the same column types. */
  async function close(sql: string): Promise<void> {
    const p = await o.patina.query({ text: sql, rowMode: 'array' });
    const g = await o.postgres.query({ text: sql, rowMode: 'array' });
    assert.deepEqual(
      p.fields.map((f) => f.dataTypeID),
      g.fields.map((f) => f.dataTypeID),
      `column types of ${sql}`,
    );
    assert.equal(p.rows.length, g.rows.length, sql);
    p.rows.forEach((row, i) =>
      (row as unknown[]).forEach((v, j) => {
        const w = (g.rows[i] as unknown[])[j];
        if (v === null || w === null) assert.equal(v, w, sql);
        else assert.equal(Number(v).toPrecision(12), Number(w).toPrecision(12), `${sql}: row ${i} column ${j}`);
      }),
    );
  }

  it('ARRAY[...] and array casts are arrays, of their elements type; set-returning calls in a select list give rows as in PostgreSQL', async () => {
    for (const sql of [
      'SELECT ARRAY[1, 2], ARRAY[1.5, 2], ARRAY[$$a$$, $$b"c$$], ARRAY[1, NULL]',
      "SELECT '{1,2}'::int[], ARRAY[1, 2]::int8[], '{a,b}'::text[] AS x, '{}'::int8[]",
      'SELECT (ARRAY[10, 20, 30])[2], ARRAY[id, customer_id] FROM orders ORDER BY id',
      'SELECT unnest(ARRAY[1, 2, 3])',
      "SELECT unnest('{4,5}'::int[]) AS x",
      "SELECT unnest(ARRAY['a', 'b'])",
      'SELECT x FROM unnest(ARRAY[3, 1, 2]) AS x ORDER BY x',
      // array functions on a table's rows (they were on the catalog's connection only)
      'SELECT array_length(ARRAY[id, customer_id], 1), cardinality(ARRAY[id]), array_to_string(ARRAY[id, customer_id], $$-$$), (ARRAY[id, 7])[2] FROM orders ORDER BY id',
      "SELECT string_to_array(email, '@') FROM customers ORDER BY id",
      // || of arrays is concatenation (SQLite would make text of them: '{1,2}3')
      "SELECT ARRAY[1, 2] || 3, ARRAY[1] || ARRAY[2, 3], 0 || ARRAY[1], 'a' || 'b', ARRAY['a'] || 'b'::text",
      "SELECT ARRAY[id] || customer_id, '{7}'::int8[] || id FROM orders ORDER BY id",
      "SELECT ARRAY[1] || '{2,3}', '{0}' || ARRAY[1]",
      'SELECT array_agg(id ORDER BY id) || 99::int8 FROM orders',
    ])
      await same(sql);
    assert.deepEqual(await same('SELECT ARRAY[1, 2] AS a'), [[[1, 2]]]);
    // alone in a subquery too, and `= ANY (subquery)` is the subquery form
    for (const sql of [
      'SELECT id FROM orders WHERE id IN (SELECT unnest(ARRAY[1, 2])) ORDER BY id',
      'SELECT id FROM orders WHERE id = ANY (SELECT generate_series(1, 2)) ORDER BY id',
      'SELECT id FROM orders WHERE id <> ALL (SELECT order_id FROM line_items) ORDER BY id',
      'SELECT id FROM orders WHERE id = ANY (VALUES (1), (4)) ORDER BY id',
    ])
      await same(sql);
    // the other comparisons with ANY/SOME/ALL of an array, NULL elements and empty arrays included
    for (const sql of [
      'SELECT id FROM orders WHERE customer_id > ANY (ARRAY[0, 1]) ORDER BY id',
      "SELECT line, qty <= ALL ('{5,10}'::int[]), qty > SOME (ARRAY[7]) FROM line_items ORDER BY order_id, line",
      'SELECT qty > ANY (ARRAY[1, NULL]), qty > ALL (ARRAY[1, NULL]), qty < ALL (ARRAY[1, NULL]), qty >= ALL (ARRAY[]::int[]), qty < ANY (ARRAY[]::int[]) FROM line_items ORDER BY order_id, line',
    ])
      await same(sql);
    // beside other items: one row per value of each row (a join with the function), as PostgreSQL gives
    for (const sql of [
      'SELECT id, unnest(ARRAY[1, 2]) FROM orders ORDER BY id',
      'SELECT id, unnest(ARRAY[1, 2]) + 1 AS u FROM orders WHERE id < 3 ORDER BY id, u',
      'SELECT 1 AS a, generate_series(1, 3) AS g',
      'SELECT order_id, line, generate_series(1, qty) FROM line_items WHERE qty < 6 ORDER BY 1, 2, 3',
      // in a subquery and a WITH query (were 0A000)
      'SELECT * FROM (SELECT id, unnest(ARRAY[1, 2]) AS u FROM orders) s ORDER BY 1, 2',
      'WITH w AS (SELECT id, generate_series(1, 2) AS g FROM orders) SELECT * FROM w ORDER BY 1, 2',
      // several calls run in step, the shorter ones NULL past their end (were 0A000)
      'SELECT id, unnest(ARRAY[1]), unnest(ARRAY[2, 3]) FROM orders ORDER BY 1, 2, 3',
      "SELECT unnest(ARRAY[1, 2, 3]), unnest(ARRAY['a', 'b']), generate_series(10, 11)",
      'SELECT generate_series(1, 3) AS a, generate_series(1, NULL::int) AS b, 7 AS c',
      // generate_subscripts (was 42883), alone, beside unnest (ActiveRecord's and SQLAlchemy's
      // primary-key queries) and in FROM; a 2-D array's second dimension; reversed
      "SELECT generate_subscripts(ARRAY['a', 'b', 'c'], 1)",
      "SELECT unnest(ARRAY['x', 'y']) AS v, generate_subscripts(ARRAY['x', 'y'], 1) AS i",
      'SELECT s FROM generate_subscripts(ARRAY[4, 5, 6], 1, true) AS s',
      "SELECT generate_subscripts('{{1,2},{3,4},{5,6}}'::int[], 2), generate_subscripts('{}'::int[], 1)",
      'SELECT id, generate_subscripts(ARRAY[id, id], 1) AS k FROM orders WHERE id < 3 ORDER BY 1, 2',
      `SELECT a.attname FROM (SELECT indrelid, indkey, generate_subscripts(indkey, 1) idx FROM pg_index
         WHERE indrelid = '"line_items"'::regclass AND indisprimary) i
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[i.idx] ORDER BY i.idx`,
    ])
      await same(sql);
    // with an aggregate or DISTINCT PostgreSQL runs it after them: refused, not another answer
    for (const sql of [
      'SELECT count(*), unnest(ARRAY[1]) FROM orders',
      'SELECT DISTINCT unnest(ARRAY[1, 1, 2]) FROM orders',
      'SELECT DISTINCT unnest(ARRAY[1]), unnest(ARRAY[2]) FROM orders',
    ]) {
      await o.postgres.query(sql);
      await assert.rejects(o.patina.query(sql), { code: '0A000' }, sql);
    }
  });

  it("arrays' @>, <@ and && (jsonb's @> was tried on them), array_append, _prepend, _cat, _replace, slices", async () => {
    for (const sql of [
      'SELECT ARRAY[1, 2, 3] @> ARRAY[2], ARRAY[1, 2, 3] <@ ARRAY[2], ARRAY[2] <@ ARRAY[1, 2, 3], ARRAY[1, 2] && ARRAY[2, 5]',
      "SELECT ARRAY[1, 2, NULL] @> ARRAY[NULL::int], ARRAY[1, 2] @> ARRAY[]::int[], ARRAY[1] && ARRAY[3], '{a,b}'::text[] <@ ARRAY['a', 'b', 'c']",
      'SELECT id FROM orders WHERE ARRAY[customer_id] <@ ARRAY[1, 2]::int8[] ORDER BY id',
      'SELECT id FROM orders WHERE ARRAY[customer_id, id] && ARRAY[3]::int8[] ORDER BY id',
      // jsonb's stay jsonb's
      `SELECT '{"a": 1, "b": 2}'::jsonb @> '{"a": 1}', '{"a": 1}'::jsonb <@ '{"a": 1, "b": 2}'::jsonb`,
      'SELECT array_append(ARRAY[1], 2), array_prepend(0, ARRAY[1]), array_cat(ARRAY[1], ARRAY[2]), array_remove(ARRAY[1, 2, 1], 1)',
      'SELECT array_replace(ARRAY[1, 2, 1], 1, 9), array_cat(NULL::int[], ARRAY[1]), array_append(NULL::int[], 1)',
      "SELECT interval '0', interval '10', interval '1.5', interval '1 day 10', interval '0' = interval '0 seconds'",
      // slices (were a syntax error near ":")
      'SELECT (ARRAY[10, 20, 30])[2:3], (ARRAY[10, 20, 30])[:2], (ARRAY[10, 20, 30])[2:], (ARRAY[10, 20, 30])[0:9], (ARRAY[10, 20, 30])[3:2]',
      "SELECT (ARRAY['a', 'b', 'c'])[1:1], (ARRAY[1, 2, 3])[NULL:2], (string_to_array('a,b,c', ','))[1 + 1:1 + 2], array_length((ARRAY[1, 2, 3, 4])[2:3], 1)",
    ])
      await same(sql);
    await same('SELECT $1::int[] @> ARRAY[2], ARRAY[5] <@ $1::int[], ($1::int[])[$2:$3]', [[1, 2, 3], 2, 3]);
  });

  it("array_position's start and a NULL element are PostgreSQL's (the start was ignored, a NULL found nothing)", async () => {
    for (const sql of [
      "SELECT array_position(ARRAY['a', 'b', 'a'], 'a', 2), array_position(ARRAY[1, 2], 2, 0), array_position(ARRAY[1, 2], 2, 5)",
      'SELECT array_position(ARRAY[1.5, 2, 1.50], 1.5, 2), array_position(ARRAY[1.0, 2]::numeric[], 1, 2)',
      'SELECT array_position(ARRAY[1, NULL, 3], NULL), array_position(ARRAY[NULL, 1, NULL]::int[], NULL, 2), array_position(NULL::int[], 1, NULL)',
    ])
      await same(sql);
    await sameMessage('SELECT array_position(ARRAY[1, 2], 2, NULL)');
  });

  it('array_dims, array_fill, array_positions and trim_array (they were 42883), with their errors', async () => {
    for (const sql of [
      "SELECT array_dims(ARRAY[1, 2]), array_dims(ARRAY[[1, 2, 3], [4, 5, 6]]), array_dims('{}'::int[]), array_dims(NULL::text[])",
      'SELECT array_fill(7, ARRAY[3]), array_fill(NULL::int, ARRAY[2, 2]), array_fill(1, ARRAY[0, 2]), array_fill(1, ARRAY[2], ARRAY[1])',
      "SELECT array_fill('a b'::text, ARRAY[2]), array_fill(1.50, ARRAY[1, 2]), array_fill(2::int8, '{}')",
      'SELECT array_positions(ARRAY[1, 2, 1, NULL], 1), array_positions(ARRAY[1, NULL], NULL), array_positions(ARRAY[1], 5), array_positions(NULL::int[], 1)',
      "SELECT array_positions(ARRAY['a', 'b', 'a'], 'a'), array_positions(ARRAY[1.0, 1.00, 2]::numeric[], 1)",
      "SELECT trim_array(ARRAY[1, 2, 3], 2), trim_array(ARRAY[[1, 2], [3, 4]], 1), trim_array('{}'::int[], 0), trim_array(ARRAY['x'], NULL), trim_array(ARRAY['a', 'b c'], 1)",
    ])
      await same(sql);
    for (const sql of [
      'SELECT array_fill(1, NULL)',
      'SELECT array_fill(1, ARRAY[NULL]::int[])',
      'SELECT array_fill(1, ARRAY[2], ARRAY[1, 1])',
      'SELECT array_fill(1, ARRAY[[2]])',
      'SELECT array_fill(1, ARRAY[-1])',
      'SELECT array_positions(ARRAY[[1]], 1)',
      'SELECT trim_array(ARRAY[1, 2], 3)',
      'SELECT trim_array(ARRAY[1, 2], -1)',
    ])
      await sameMessage(sql);
  });

  it('get_byte, set_byte, get_bit, set_bit, convert_to, convert_from and convert (they were 42883), with their errors', async () => {
    for (const sql of [
      "SELECT get_byte('\\x00ff'::bytea, 1), set_byte('\\x00ff'::bytea, 1, 10), set_byte('\\x00ff'::bytea, 0, 257), set_byte('\\x00ff'::bytea, 0, -1)",
      "SELECT get_bit('\\x00ff'::bytea, 9), get_bit('\\x01'::bytea, 0), set_bit('\\x00ff'::bytea, 3, 1), set_bit('\\x00ff'::bytea, 8, 0), get_byte(NULL, 1)",
      "SELECT convert_to('É ß', 'UTF8'), convert_to('é', 'latin1'), convert_to('é', 'WIN1252'), convert_to('x', 'abc')",
      "SELECT convert_from('\\xc389'::bytea, 'utf-8'), convert_from('\\xc9'::bytea, 'LATIN1'), convert_from('\\xc9'::bytea, 'abc'), convert_from('\\x41'::bytea, 'SQL_ASCII')",
      "SELECT convert('\\xc389'::bytea, 'UTF8', 'LATIN1'), convert('\\xe9'::bytea, 'LATIN1', 'UTF8')",
      // (by the client encodings' conversions: PostgreSQL's tables, multi-byte ones too; WHATWG's
      // windows-1252 table could not write the euro sign and read 0x81 as U+0081)
      "SELECT convert_to('€', 'WIN1252'), convert_to('日本', 'SJIS'), convert_from('\\x93fa967b'::bytea, 'SJIS'), convert_from('\\xa4'::bytea, 'LATIN10'), convert_to('ÿ', 'LATIN1')",
      "SELECT pg_char_to_encoding('utf-8'), pg_char_to_encoding('latin1'), pg_char_to_encoding('abc'), pg_char_to_encoding('zzz')",
    ])
      await same(sql);
    for (const sql of [
      "SELECT get_byte('\\x00ff'::bytea, 2)",
      "SELECT get_byte('\\x00ff'::bytea, -1)",
      "SELECT set_byte('\\x00ff'::bytea, 5, 1)",
      "SELECT get_bit('\\x00ff'::bytea, 16)",
      "SELECT set_bit('\\x00ff'::bytea, 3, 2)",
      "SELECT convert_to('€', 'LATIN1')",
      "SELECT convert_to('x', 'nope_enc')",
      "SELECT convert_from('\\xc9'::bytea, 'UTF8')",
      "SELECT convert_from('\\x00'::bytea, 'UTF8')",
      "SELECT convert_from('\\xc9'::bytea, 'zzz')",
      "SELECT convert_from('\\x81'::bytea, 'WIN1252')",
      "SELECT convert_from('\\xdb'::bytea, 'WIN874')",
      "SELECT convert_from('\\x93'::bytea, 'SJIS')",
    ])
      await sameMessage(sql);
  });

  it('make_time, make_timestamptz, date_trunc of an interval, jsonb_insert, to_regnamespace and to_regrole (they were 42883 or wrong)', async () => {
    for (const sql of [
      'SELECT make_time(10, 30, 1.5), make_time(10, 30, 60), make_time(24, 0, 0), make_time(10, 30, 1.123456789)',
      "SELECT make_timestamptz(2024, 2, 29, 10, 30, 1.5), make_timestamptz(2024, 2, 29, 10, 30, 1.5, 'Europe/Paris'), make_timestamptz(2024, 2, 29, 10, 30, 1.5, '+02'), make_timestamptz(-44, 3, 15, 10, 30, 0, 'UTC')",
      "SELECT date_trunc('hour', interval '1 day 2 hours 3 minutes'), date_trunc('quarter', interval '-1 year -5 months -3 days -04:05:06.789'), date_trunc('milliseconds', interval '-04:05:06.789123'), date_trunc('millennium', interval '2500 years 3 mons')",
      `SELECT jsonb_insert('{"a":[1,2]}', '{a,0}', '5'), jsonb_insert('{"a":[1,2]}', '{a,1}', '5', true), jsonb_insert('{"a":1}', '{b}', '5'), jsonb_insert('{"a":{"b":1}}', '{z,c}', '"x"')`,
      "SELECT jsonb_insert('[1,2]', '{-1}', '5'), jsonb_insert('[1,2]', '{9}', '5'), jsonb_insert('[1,2]', '{-9}', '5'), jsonb_insert('[1,2]', '{-1}', '5', true), jsonb_insert('{}', '{}', '1'), jsonb_insert(NULL, '{a}', '1')",
      `SELECT to_regnamespace('public'), to_regnamespace('PUBLIC'), to_regnamespace('"public"'), to_regnamespace('pg_catalog'), to_regnamespace('nope')`,
      "SELECT to_regrole(current_user), to_regrole('nope'), to_regrole('PG_DATABASE_OWNER'), to_regrole(NULL)",
    ])
      await same(sql);
    for (const sql of [
      'SELECT make_time(25, 30, 1.5)',
      'SELECT make_time(-1, 0, 0)',
      "SELECT make_timestamptz(2024, 2, 29, 10, 30, 1.5, 'abc')",
      "SELECT date_trunc('week', interval '1 day')",
      "SELECT date_trunc('abc', interval '1 day')",
      `SELECT jsonb_insert('{"a":1}', '{a}', '5')`,
      "SELECT jsonb_insert('[1,2]', '{x}', '5')",
      "SELECT jsonb_insert('1', '{0}', '5')",
      "SELECT to_regnamespace('a.b')",
      "SELECT to_regrole('a.b')",
    ])
      await sameMessage(sql);
    // the six-argument form reads the wall time in the session's zone
    for (const c of [o.patina, o.postgres]) await c.query("SET TIME ZONE 'America/New_York'");
    try {
      await same('SELECT make_timestamptz(2024, 2, 29, 10, 30, 0)::text');
    } finally {
      for (const c of [o.patina, o.postgres]) await c.query("SET TIME ZONE 'UTC'");
    }
  });

  it('array_to_json(a, NULL) is NULL; pg_relation_size of a fork that is none is 22023; pg_database_size of no database NULL or 3D000; pg_terminate_backend of a negative timeout 22003', async () => {
    for (const sql of [
      "SELECT array_to_json('{a,b}'::text[], NULL::bool), array_to_json('{a,b}'::text[], true)",
      "SELECT pg_relation_size('orders'::regclass, NULL::text), pg_relation_size('orders'::regclass, 'fsm'), pg_database_size(0::oid)",
    ])
      await same(sql);
    // pg_stat_clear_snapshot and pg_stat_force_next_flush are void (they were typed text)
    await same('SELECT pg_stat_clear_snapshot(), pg_stat_force_next_flush(), pg_terminate_backend(12345, NULL)');
    for (const sql of [
      "SELECT pg_relation_size('orders'::regclass, 'abc')",
      "SELECT pg_database_size('abc'::name)",
      'SELECT pg_terminate_backend(-7, -1)',
    ])
      await sameMessage(sql);
  });

  it('to_date and to_timestamp without a year field are in year 1 BC, as there (they gave 1 AD); DDD without a year is 22007', async () => {
    await same(
      "SELECT to_date('', ''), to_date('03', 'MM'), to_timestamp('', '')::text, to_timestamp('10', 'HH24')::text, to_date('2024', 'YYYY'), to_date('24 060', 'YY DDD')",
    );
    await sameMessage("SELECT to_date('060', 'DDD')");
  });

  it('HAVING without GROUP BY over a select list of no aggregate is one group of all rows (SQLite refused it: 42000)', async () => {
    for (const sql of [
      'SELECT 1 FROM orders HAVING count(*) > 1',
      'SELECT 1 AS a, 2 b FROM orders HAVING count(*) > 0',
      'SELECT 1 FROM orders WHERE false HAVING count(*) = 0',
      'SELECT 2 * 3 AS p FROM orders HAVING count(*) > 5',
      "SELECT 'x' y, NULL::text FROM orders HAVING max(id) > 0",
      'SELECT (SELECT 1 FROM orders HAVING count(*) > 1) AS s, EXISTS (SELECT FROM orders HAVING count(*) > 0)',
      'SELECT 1 AS a FROM orders HAVING count(*) > 1 UNION ALL SELECT 2 ORDER BY a',
      'SELECT 1 HAVING 1 > 0',
    ])
      await same(sql);
    await same('SELECT $1::int AS n FROM orders HAVING count(*) > $2', [5, 1]);
    await sameMessage('SELECT id FROM orders HAVING count(*) > 0');
  });

  it('unnest of several arrays zips them into rows, the shorter padded with NULLs; to_json(t.*)', async () => {
    for (const sql of [
      "SELECT * FROM unnest(ARRAY[1, 2], ARRAY['a', 'b']) AS u(n, s)",
      "SELECT * FROM unnest(ARRAY[1, 2, 3], ARRAY['a']) AS u(n, s)",
      "SELECT * FROM unnest(ARRAY[1], ARRAY['a', 'b'], ARRAY[true, false, true]) AS u(n, s, b)",
      "SELECT n, s FROM unnest('{1,2}'::int[], '{x,y}'::text[]) u(n, s) WHERE n > 1",
      "SELECT * FROM unnest(ARRAY[1, 2], ARRAY['a', 'b'])",
      "SELECT o.id, u.s FROM orders o JOIN unnest(ARRAY[1, 2]::int8[], ARRAY['a', 'b']) AS u(n, s) ON o.id = u.n ORDER BY o.id",
      'SELECT to_json(o.*), row_to_json(o.*) FROM orders o ORDER BY id',
      'SELECT json_agg(x.*) FROM (SELECT id, customer_id FROM orders ORDER BY id) x',
    ])
      await same(sql);
    await same('SELECT * FROM unnest($1::int[], $2::text[]) AS u(n, s)', [
      [1, 2],
      ['a', null],
    ]);
  });

  it('date_bin, make_interval (named arguments too), timezone(), num_nulls, regexp_split_to_table, the clocks, SHOW TimeZone', async () => {
    for (const sql of [
      "SELECT date_bin('15 minutes', timestamptz '2024-01-01 10:07+00', timestamptz '2024-01-01 00:00+00'), date_bin('1 day', timestamp '2024-01-03 10:07', timestamp '2024-01-01 06:00')",
      "SELECT date_bin('10 minutes', timestamp '2023-12-31 23:55', timestamp '2024-01-01 00:03'), date_bin('1 hour', placed_at, timestamp '2000-01-01') FROM orders ORDER BY id",
      'SELECT make_interval(1, 2, 0, 3), make_interval(hours => 1, mins => 30), make_interval(secs => 1.5), make_interval(days => id::int) FROM orders ORDER BY id',
      "SELECT timezone('UTC', timestamptz '2024-01-01 10:00+02'), timezone('Europe/Berlin', timestamp '2024-07-01 12:00'), timezone('America/New_York', placed_at) FROM orders ORDER BY id",
      'SELECT num_nulls(1, NULL, note), num_nonnulls(1, NULL, note) FROM orders ORDER BY id',
      "SELECT regexp_split_to_table('a1b2c', '[0-9]')",
      "SELECT x FROM regexp_split_to_table('b,a,c', ',') AS x ORDER BY 1",
      'SELECT statement_timestamp() IS NOT NULL, clock_timestamp() >= transaction_timestamp(), now() <= clock_timestamp()',
      'SHOW TimeZone',
    ])
      await same(sql);
    for (const client of [o.patina, o.postgres]) {
      await assert.rejects(client.query("SELECT date_bin('1 month', now(), now())"), { code: '0A000' });
      await assert.rejects(client.query("SELECT date_bin('0 minutes', now(), now())"), { code: '22008' });
      await assert.rejects(client.query('SELECT make_interval(fortnights => 2)'), { code: '42883' });
    }
  });

  it('stddev, variance, corr, covariance and regression, as aggregates and over windows', async () => {
    for (const sql of [
      'SELECT stddev(qty), variance(qty), stddev_pop(price), var_samp(price), var_pop(qty), stddev_samp(price) FROM line_items',
      'SELECT corr(qty, price), covar_pop(qty, price), covar_samp(qty, price), regr_slope(qty, price), regr_intercept(qty, price), regr_r2(qty, price), regr_count(qty, price), regr_avgx(qty, price), regr_avgy(qty, price) FROM line_items',
      'SELECT order_id, stddev_pop(qty), var_samp(price) FROM line_items GROUP BY order_id ORDER BY order_id',
      'SELECT order_id, line, stddev(price) OVER (ORDER BY order_id, line ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM line_items ORDER BY order_id, line',
      'SELECT stddev(qty), corr(qty, price), regr_count(qty, price) FROM line_items WHERE false',
    ])
      await close(sql);
    // over integers and numerics a result column is PostgreSQL's numeric, to its last digit
    // (it printed a double's: 4.041451884327381 for 4.0414518843273803)
    for (const sql of [
      'SELECT stddev(qty), variance(qty), stddev_pop(qty), var_pop(qty), stddev_samp(qty), var_samp(qty) FROM line_items',
      'SELECT order_id, stddev(qty) AS s, var_pop(qty) FROM line_items GROUP BY order_id ORDER BY s, order_id',
      'SELECT stddev(x), variance(x), stddev_pop(x), var_pop(x) FROM (VALUES (1), (2), (3), (4)) v(x)',
      'SELECT stddev(x), variance(x), var_pop(x) FROM (VALUES (1.50), (2.25), (-3.125), (NULL)) v(x)',
      'SELECT stddev(x), variance(x), stddev_pop(x) FROM (VALUES (1000000), (2000000), (3000007)) v(x)',
      'SELECT stddev(x), variance(x), stddev_pop(x), var_pop(x) FROM (VALUES (0.001), (0.002)) v(x)',
      'SELECT stddev(x), variance(x), stddev_pop(x), var_pop(x) FROM (VALUES (5), (5)) v(x)',
      'SELECT stddev_pop(x), var_pop(x), stddev(x), variance(x) FROM (VALUES (7)) v(x)',
      "SELECT stddev(x), var_pop(x) FROM (VALUES (1), ('NaN'::numeric)) v(x)",
      'SELECT order_id, line, stddev(qty) OVER (ORDER BY order_id, line ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM line_items ORDER BY order_id, line',
    ])
      await same(sql);
    // over doubles, to the last digit: the same sums as PostgreSQL (Welford's gave 6.515624999999999 for 6.515625)
    for (const sql of [
      'SELECT stddev(x), var_samp(x), var_pop(x), stddev_pop(x) FROM (VALUES (1.5::float8), (2.25), (NULL), (-3.5), (0)) v(x)',
      'SELECT var_samp(x) FROM (VALUES (0.1::float8), (0.2::float8), (0.3::float8), (1e10::float8)) v(x)',
      'SELECT corr(y, x), covar_pop(y, x), covar_samp(y, x), regr_slope(y, x), regr_intercept(y, x), regr_r2(y, x), regr_sxx(y, x), regr_syy(y, x), regr_sxy(y, x) FROM (VALUES (1.5::float8, 2.25::float8), (2.7, 3.1), (3.3, 0.5), (9.1, 7.7)) v(x, y)',
    ])
      await same(sql);
  });

  it('medians and quantiles: percentile_cont, percentile_disc and mode WITHIN GROUP', async () => {
    for (const sql of [
      'SELECT order_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY qty) FROM line_items GROUP BY order_id ORDER BY order_id',
      'SELECT percentile_cont(0.25) WITHIN GROUP (ORDER BY price DESC), percentile_disc(0.5) WITHIN GROUP (ORDER BY qty), percentile_disc(0) WITHIN GROUP (ORDER BY line), mode() WITHIN GROUP (ORDER BY order_id) FROM line_items',
      'SELECT percentile_cont(0.9) WITHIN GROUP (ORDER BY price) FILTER (WHERE qty > 1), percentile_disc(1) WITHIN GROUP (ORDER BY placed_at) FROM line_items, orders',
      'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY qty) FROM line_items WHERE false',
    ])
      await close(sql);
    await sameError('SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY qty) FROM line_items');
    // an array of fractions gives the array of their values, float8[] or the key's type's array (22P02 before)
    for (const sql of [
      'SELECT percentile_cont(ARRAY[0.25, 0.75, NULL, 1]) WITHIN GROUP (ORDER BY x), percentile_disc(ARRAY[0.5, 0]) WITHIN GROUP (ORDER BY x) FROM (VALUES (1.5::float8), (-2.25), (0), (1e20)) v(x)',
      'SELECT order_id, percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY price DESC), percentile_disc(ARRAY[0.5]) WITHIN GROUP (ORDER BY line) FROM line_items GROUP BY order_id ORDER BY order_id',
      'SELECT percentile_cont(ARRAY[0.5]) WITHIN GROUP (ORDER BY price) FROM line_items WHERE false',
      "SELECT percentile_disc(ARRAY[0.5, 1]) WITHIN GROUP (ORDER BY x) FROM (VALUES ('b'::text), ('a c'), ('d')) v(x)",
      // one value of a numeric(p, s) key prints at its scale (2.5 for 2.50 before)
      'SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x::numeric(10,2)), mode() WITHIN GROUP (ORDER BY x::numeric(10,2)) FROM (VALUES (2.5), (3.1), (2.5)) v(x)',
      // and of an array of fractions, each element ({2.5,100} for {2.50,100.00} before)
      // (as text: node-postgres reads a numeric[] as numbers)
      'SELECT (percentile_disc(ARRAY[0.5, 0, NULL, 1]) WITHIN GROUP (ORDER BY x::numeric(10,2)))::text, (percentile_disc(ARRAY[0.5]) WITHIN GROUP (ORDER BY x::numeric(10,3) DESC))::text FROM (VALUES (2.5), (3.1), (100), (NULL)) v(x)',
    ])
      await same(sql);
    await sameMessage('SELECT percentile_cont(ARRAY[0.5, 1.5]) WITHIN GROUP (ORDER BY price) FROM line_items');
    // of intervals, interpolated as intervals (22P02 before: read as doubles)
    for (const sql of [
      "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), percentile_cont(0.3) WITHIN GROUP (ORDER BY x DESC) FROM (VALUES (interval '1 day'), (interval '3 hours'), (interval '1 mon')) v(x)",
      "SELECT percentile_cont(ARRAY[0.1, 0.5, NULL, 0.95]) WITHIN GROUP (ORDER BY x DESC) FROM (VALUES (interval '1 day'), (interval '3 hours'), (interval '1 mon 2 days'), (NULL), (interval '-5 minutes')) v(x)",
      "SELECT paid, percentile_cont(0.5) WITHIN GROUP (ORDER BY placed_at - '2024-01-01') FROM orders GROUP BY paid ORDER BY paid",
      "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM (VALUES (interval '1 day')) v(x) WHERE false",
    ])
      await same(sql);
    // of a type it has no form for, 42883 as there (22P02 before, when the rows were read)
    await sameMessage('SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY note) FROM orders');
    await sameMessage('SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY placed_at::date) FROM orders');
    // over a window, PostgreSQL's refusal (SQLite's 42000 named __pg_percentile_cont)
    await sameMessage('SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY qty) OVER () FROM line_items');
    await sameMessage('SELECT mode() WITHIN GROUP (ORDER BY qty) OVER (PARTITION BY order_id) FROM line_items');
  });

  it('hypothetical-set aggregates: rank, dense_rank, percent_rank and cume_dist WITHIN GROUP (they were 0A000)', async () => {
    for (const sql of [
      'SELECT rank(3) WITHIN GROUP (ORDER BY x), dense_rank(3) WITHIN GROUP (ORDER BY x), percent_rank(3) WITHIN GROUP (ORDER BY x), cume_dist(3) WITHIN GROUP (ORDER BY x) FROM (VALUES (1), (3), (3), (5), (NULL), (1)) v(x)',
      'SELECT rank(3) WITHIN GROUP (ORDER BY x DESC), dense_rank(3) WITHIN GROUP (ORDER BY x DESC), percent_rank(3) WITHIN GROUP (ORDER BY x DESC NULLS LAST), cume_dist(3) WITHIN GROUP (ORDER BY x NULLS FIRST) FROM (VALUES (1), (3), (3), (5), (NULL), (1)) v(x)',
      'SELECT rank(NULL) WITHIN GROUP (ORDER BY x), dense_rank(NULL) WITHIN GROUP (ORDER BY x), percent_rank(NULL) WITHIN GROUP (ORDER BY x DESC), cume_dist(NULL) WITHIN GROUP (ORDER BY x) FROM (VALUES (1), (3), (NULL), (NULL)) v(x)',
      'SELECT order_id, rank(2) WITHIN GROUP (ORDER BY qty), cume_dist(2.5) WITHIN GROUP (ORDER BY price) FROM line_items GROUP BY order_id ORDER BY order_id',
      'SELECT rank(3) WITHIN GROUP (ORDER BY qty), percent_rank(3) WITHIN GROUP (ORDER BY qty), cume_dist(3) WITHIN GROUP (ORDER BY qty) FROM line_items WHERE false',
      "SELECT rank('2024-03-02'::timestamp) WITHIN GROUP (ORDER BY placed_at), percent_rank(1) WITHIN GROUP (ORDER BY id) FROM orders",
    ])
      await same(sql);
  });

  it("RANGE frames with an offset: an interval over a date or timestamp (Grafana's rolling windows, 0A000 before), numbers, GROUPS and EXCLUDE; bad offsets as PostgreSQL refuses them", async () => {
    const stamps =
      "(VALUES ('2024-01-01 10:00'::timestamp, 1), ('2024-01-02 09:00', 2), ('2024-01-02 10:00', 4), ('2024-01-03 10:00:00.5', 8), (NULL, 16), ('infinity', 32)) v(ts, x)";
    for (const sql of [
      `SELECT x, sum(x) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1 day' PRECEDING AND CURRENT ROW) FROM ${stamps} ORDER BY x`,
      `SELECT x, count(*) OVER (ORDER BY ts DESC RANGE BETWEEN '12 hours' PRECEDING AND INTERVAL '1 day 1 hour' FOLLOWING) FROM ${stamps} ORDER BY x`,
      "SELECT x, avg(x) OVER (ORDER BY d RANGE BETWEEN interval '1 day' PRECEDING AND interval '1 day' FOLLOWING EXCLUDE CURRENT ROW) FROM (VALUES ('2024-01-01'::date, 1), ('2024-01-02', 2), ('2024-01-04', 4)) v(d, x) ORDER BY x",
      "SELECT x, sum(x) OVER (ORDER BY tz RANGE BETWEEN '36:00:00'::interval PRECEDING AND CURRENT ROW) FROM (VALUES ('2024-01-01 10:00+00'::timestamptz, 1), ('2024-01-02 09:00+02', 2), ('2024-01-02 22:00+00', 4)) v(tz, x) ORDER BY x",
      "SELECT id, sum(amount) OVER (PARTITION BY paid ORDER BY placed_at RANGE BETWEEN interval '7 days' PRECEDING AND CURRENT ROW) FROM orders ORDER BY id",
      'SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING), sum(x) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES), sum(x) OVER (ORDER BY x DESC ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE GROUP) FROM (VALUES (1), (2), (2), (5), (NULL)) v(x) ORDER BY x',
    ])
      await same(sql);
    // (SQLite ran a number offset over text or a timestamp, compared as it could; its own errors were 42000)
    for (const sql of [
      'SELECT sum(id) OVER (ORDER BY note RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM orders',
      'SELECT sum(id) OVER (ORDER BY placed_at RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM orders',
      'SELECT sum(id) OVER (ORDER BY id, note RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM orders',
      'SELECT sum(id) OVER (ORDER BY id RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) FROM orders',
      'SELECT sum(id) OVER (ORDER BY id RANGE BETWEEN -1 PRECEDING AND CURRENT ROW) FROM orders',
      "SELECT sum(id) OVER (ORDER BY placed_at RANGE BETWEEN '-1 day'::interval PRECEDING AND CURRENT ROW) FROM orders",
    ])
      await sameMessage(sql);
  });

  it('RANGE frames of months or years: each row the rows whose key is within its key less or plus the offset by date arithmetic (0A000 before)', async () => {
    const days =
      "(VALUES ('2024-01-31'::date, 1, 'a'), ('2024-02-29', 2, 'b'), ('2024-03-29', 4, 'a'), ('2024-03-31', 8, 'b'), ('2024-04-30', 16, 'a'), (NULL, 32, 'a'), ('2025-03-31', 64, 'b'), ('2024-03-31', 128, 'a')) v(d, x, p)";
    const stamps =
      "(VALUES ('2024-01-31 12:00'::timestamp, 1.5), ('2024-02-29 11:00', 2.25), ('2024-03-31 12:00', 4), ('2024-02-29 12:00', 8), (NULL, 16)) v(ts, x)";
    for (const sql of [
      `SELECT x, sum(x) OVER (ORDER BY d RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) FROM ${days} ORDER BY x`,
      `SELECT x, count(*) OVER (ORDER BY d RANGE BETWEEN CURRENT ROW AND interval '1 month' FOLLOWING), max(x) OVER (ORDER BY d DESC RANGE BETWEEN '1 month' PRECEDING AND '1 month' FOLLOWING) FROM ${days} ORDER BY x`,
      `SELECT x, avg(x) OVER (PARTITION BY p ORDER BY d RANGE BETWEEN interval '1 year' PRECEDING AND CURRENT ROW), min(x) OVER (ORDER BY d NULLS FIRST RANGE BETWEEN interval '1 month 2 days' PRECEDING AND interval '1 day' PRECEDING) FROM ${days} ORDER BY x`,
      `SELECT x, sum(x) OVER (ORDER BY d DESC NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND interval '1 mon' FOLLOWING), count(d) OVER (ORDER BY d RANGE interval '2 months' PRECEDING) FROM ${days} WHERE x <> 2 ORDER BY x`,
      `SELECT x, sum(x) OVER (ORDER BY ts RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW), avg(x) OVER (ORDER BY ts RANGE BETWEEN '1 month' FOLLOWING AND '1 year' FOLLOWING) FROM ${stamps} ORDER BY x`,
      "SELECT id, sum(amount) OVER (PARTITION BY paid ORDER BY placed_at RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW), count(*) OVER (ORDER BY o.placed_at DESC RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) FROM orders o WHERE o.id > 1 ORDER BY id",
      "SELECT x, 10 * sum(x) OVER (ORDER BY tz RANGE BETWEEN '1 month' PRECEDING AND '1 month' FOLLOWING) AS s FROM (VALUES ('2024-01-31 23:30+00'::timestamptz, 1), ('2024-02-29 23:00+00', 2), ('2024-03-31 00:00+00', 4)) v(tz, x) ORDER BY s DESC, x LIMIT 2",
    ])
      await same(sql);
    // (a parameter of the WHERE, read again in the subquery)
    await same(
      `SELECT x, sum(x) OVER (ORDER BY d RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) FROM ${days} WHERE x > $1 ORDER BY x`,
      [1],
    );
    // what the subquery cannot compute as the window does: 0A000 naming it (PostgreSQL runs them)
    for (const sql of [
      `SELECT x, string_agg(p, ',') OVER (ORDER BY d RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) FROM ${days}`,
      "SELECT count(*) OVER (ORDER BY placed_at::date RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) FROM orders",
      `SELECT p, sum(sum(x)) OVER (ORDER BY max(d) RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) FROM ${days} GROUP BY p`,
    ]) {
      await o.postgres.query(sql);
      await assert.rejects(o.patina.query(sql), { code: '0A000' }, sql);
    }
  });

  it("lag and lead with a default are typed as PostgreSQL resolves the value and the default (they were the value's type)", async () => {
    const scaled = '(SELECT id, amount::numeric(10,2) AS p FROM orders) s';
    for (const sql of [
      'SELECT order_id, line, lag(qty, 1, 0.5) OVER w, lead(qty, 1, price) OVER w, lag(line, 2, 1.5::float8) OVER w, lag(qty, 1, 0) OVER w FROM line_items WINDOW w AS (ORDER BY order_id, line) ORDER BY order_id, line',
      "SELECT id, lag(note, 1, 'none') OVER (ORDER BY id), lead(placed_at, 1, '2020-01-01') OVER (ORDER BY id), lag(amount, 1, 0) OVER (ORDER BY id) FROM orders ORDER BY id",
      // a numeric(p, s) value and a default of another scale: each prints its own, as the column is
      // numeric of no typmod there (2.5 for 2.50 before); of the same scale, that one
      `SELECT id, lag(p, 1, 0) OVER w, lead(p, 1, 0.5) OVER w, lag(p, 2, -1.125) OVER w, lag(p, 1, p) OVER w, lag(p) OVER w FROM ${scaled} WINDOW w AS (ORDER BY id) ORDER BY id`,
      // coalesce and CASE likewise (0.00 for the default 0 before)
      `SELECT id, coalesce(p, 0), coalesce(p, 0.5), CASE WHEN p IS NULL THEN 1.125 ELSE p END, coalesce(p, p) FROM ${scaled} ORDER BY id`,
      // (in a subquery the choice keeps its largest scale for what reads it: max of it prints 12.50)
      `SELECT max(c) FROM (SELECT coalesce(p, 0) AS c FROM ${scaled}) s2`,
    ])
      await same(sql);
    // a string literal default is read as the value's type: a bad one is its input error (it ran,
    // the text handed over in the number's column)
    for (const sql of [
      "SELECT lag(id, 1, 'x') OVER (ORDER BY id) FROM orders",
      "SELECT lead(amount, 1, '1.5.') OVER (ORDER BY id) FROM orders",
      "SELECT lag(paid, 1, 'maybe') OVER (ORDER BY id) FROM orders",
      "SELECT lead(price, 2, 'abc') OVER (ORDER BY line) FROM line_items",
    ])
      await sameMessage(sql);
    await sameError("SELECT lag(qty, 1, 'x') OVER (ORDER BY line) FROM line_items");
    await same(
      "SELECT id, lag(id, 1, ' 7 ') OVER (ORDER BY id), lead(paid, 1, 'yes') OVER (ORDER BY id) FROM orders ORDER BY id",
    );
  });

  it('windows built on named ones: what they may add runs, what they may not override is 42P20 as in PostgreSQL (SQLite said 42000)', async () => {
    for (const sql of [
      'SELECT id, sum(id) OVER w2, count(*) OVER (w1 ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM orders WINDOW w1 AS (PARTITION BY paid), w2 AS (w1 ORDER BY id) ORDER BY id',
      'SELECT id, sum(id) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM orders WINDOW w AS (PARTITION BY paid ORDER BY id) ORDER BY id',
    ])
      await same(sql);
    for (const sql of [
      'SELECT sum(id) OVER (w ORDER BY amount) FROM orders WINDOW w AS (ORDER BY id)',
      'SELECT sum(id) OVER w2 FROM orders WINDOW w1 AS (ORDER BY id), w2 AS (w1 ORDER BY note)',
      'SELECT sum(id) OVER (w PARTITION BY note) FROM orders WINDOW w AS (ORDER BY id)',
      'SELECT sum(id) OVER (w) FROM orders WINDOW w AS (ORDER BY id ROWS 1 PRECEDING)',
      'SELECT sum(id) OVER (w ORDER BY id) FROM orders WINDOW w AS (PARTITION BY paid ROWS 1 PRECEDING)',
      'SELECT sum(id) OVER nowhere FROM orders',
      'SELECT sum(id) OVER (nowhere ORDER BY id) FROM orders WINDOW w AS (ORDER BY id)',
    ])
      await sameMessage(sql);
  });

  it("an interval's sign may stand apart from its number (Metabase's month end)", async () => {
    await same(
      "SELECT (date_trunc('month', placed_at) + interval '1 month - 1 day')::date, interval '- 2 hours', interval '-1 day + 2 hours' FROM orders ORDER BY id",
    );
  });

  it('SIMILAR TO, with its escape, as PostgreSQL reads the pattern', async () => {
    for (const sql of [
      "SELECT 'abc' SIMILAR TO 'a%', 'abc' SIMILAR TO '(a|b)%c', 'abc' NOT SIMILAR TO 'b%', 'ab' SIMILAR TO 'a{1,2}b'",
      "SELECT 'a.c' SIMILAR TO 'a.c', 'abc' SIMILAR TO 'a.c', 'a_c' SIMILAR TO 'a\\_c', 'abc' SIMILAR TO 'a\\_c', 'x$' SIMILAR TO 'x$'",
      "SELECT 'a%c' SIMILAR TO 'a#%c' ESCAPE '#', 'abc' SIMILAR TO 'a#%c' ESCAPE '#', NULL SIMILAR TO 'a'",
      "SELECT id FROM customers WHERE email SIMILAR TO '[a-z]+@%' ORDER BY id",
      "SELECT id FROM customers WHERE name || '!' NOT SIMILAR TO 'a%' ORDER BY id",
    ])
      await same(sql);
  });

  it('integer operators and functions: XOR, translate, cbrt, date()', async () => {
    for (const sql of [
      'SELECT 5 # 3, 5 # 3 + 1, 9223372036854775807 # 1, 5 & 3, 5 | 3, 1 << 3',
      'SELECT round(2.5::float8), round(3.5::float8), round(-2.5::float8), round(2.5), round(price) FROM line_items ORDER BY order_id, line',
      "SELECT translate('abcabc', 'ab', 'x'), translate('héllo', 'é', 'e'), cbrt(8), date(placed_at) FROM orders ORDER BY id",
      "SELECT id FROM orders WHERE date(placed_at) = '2024-03-01'",
      // ~x is bitwise NOT (it was read as a regular expression match)
      'SELECT ~5, ~0, ~id, 5 & 3, 1 << 3, 8 >> 1 FROM orders ORDER BY id',
      // regular expressions: substring(x FROM pattern), regexp_match, regexp_matches (one row per match with 'g')
      "SELECT substring('hello' from 'l+'), substring('ab12' from '([0-9])'), substring(email from '@(.*)$') FROM customers ORDER BY id",
      "SELECT regexp_match('abc', '(b)(c)'), regexp_match('abc', 'z'), regexp_match('aBc', 'b', 'i')",
      "SELECT regexp_matches('a1b22c333', '[0-9]+', 'g')",
      "SELECT id, regexp_matches(name, '(n+)') FROM customers ORDER BY id",
      "SELECT chr(65), chr(233), overlay('hello' placing 'XX' from 2 for 3), overlay('hello' placing 'XX' from 2), overlay('hello' placing '' from 2 for 2)",
    ])
      await same(sql);
  });

  it('the remainder of numerics keeps the fraction; casts to numeric(p, s) and varchar(n) round and cut', async () => {
    for (const sql of [
      'SELECT 7.5 % 2, -7.5 % 2, 10 % 3, -7 % 2, amount % 5 FROM orders ORDER BY id',
      'SELECT avg(qty)::numeric(10,1), 2.5::numeric(3,0), 1.005::numeric(5,2), price::numeric(10,2) FROM line_items GROUP BY price ORDER BY price',
      // the same text with other modifiers is another shape of the analysis cache
      'SELECT 1.5::numeric(5,2) AS a',
      'SELECT 1.5::numeric(5,1) AS a',
      "SELECT 'abcdef'::varchar(3), CAST('abcdef' AS character varying(2)), 'ab'::char(1)",
      "SELECT to_number('12,345.6', '99G999D9'), to_number('-12.5', '999.9'), ascii('A'), ascii('é'), bit_length('ab')",
    ])
      await same(sql);
    await sameError('SELECT 123.456::numeric(4,2)');
    await sameError('SELECT 7.5 % 0');
    await sameError('SELECT chr(0)');
    await sameError("SELECT ARRAY[1] || 'x'");
    await sameError("SELECT overlay('hello' placing 'y' from -5)");
  });

  it('the float8 functions are typed float8 whatever their input (sqrt(16) was a bigint 4), numbers and bits', async () => {
    for (const sql of [
      // typed by the signature, not by the value SQLite happened to give (4.0 read back as an integer)
      'SELECT sqrt(16), exp(0), ln(1), log(100), power(2, 10), degrees(pi()), radians(180), sin(0), atan2(1, 1)',
      'SELECT sqrt(qty), power(qty, 2), log(qty) FROM line_items WHERE qty IS NOT NULL ORDER BY order_id, line',
      'SELECT mod(7, 2), mod(-7, 3), mod(7.5, 2), mod(qty, 4) FROM line_items ORDER BY order_id, line',
      'SELECT width_bucket(5, 0, 10, 4), width_bucket(-1, 0, 10, 4), width_bucket(10, 0, 10, 4), width_bucket(5.5, 10, 0, 4)',
      'SELECT width_bucket(qty, 0, 20, 5) FROM line_items ORDER BY order_id, line',
      'SELECT gcd(12, 18), lcm(4, 6), gcd(-12, 0), lcm(0, 5), gcd(9223372036854775807, 7), factorial(5), factorial(25)',
      "SELECT to_hex(255), to_hex(9223372036854775807), starts_with('abc', 'ab'), starts_with(name, 'x') FROM customers ORDER BY id",
      'SELECT bit_and(qty), bit_or(qty), bit_xor(qty) FROM line_items',
      'SELECT bit_or(qty) FROM line_items WHERE false',
      "SELECT isfinite(date '2024-01-01'), make_timestamp(2024, 1, 1, 1, 2, 3.5), make_timestamp(2024, 2, 29, 23, 59, 59)",
      "SELECT regexp_split_to_array('a1b2c', '[0-9]'), regexp_split_to_array('abc', ''), regexp_split_to_array(',a,', ','), regexp_split_to_array('aXbxc', 'x', 'i')",
      // extract is numeric with PostgreSQL's scale: 6 digits for seconds and epochs, none for a date's
      "SELECT extract(epoch FROM timestamp '2024-01-01 00:00:01.5'), extract(second FROM timestamp '2024-01-05 13:04:05'), extract(year FROM timestamp '2024-01-05 13:04:05')",
      "SELECT extract(milliseconds FROM timestamp '2024-01-05 13:04:05.25'), extract(epoch FROM date '2024-01-01'), extract(epoch FROM interval '1 day 2 hours')",
      'SELECT extract(epoch FROM placed_at), extract(hour FROM placed_at) FROM orders ORDER BY id',
    ])
      await same(sql);
    await sameError('SELECT width_bucket(1, 0, 10, 0)');
    await sameError('SELECT factorial(-1)');
  });

  it('values made text print as PostgreSQL prints their type: booleans, doubles, timestamps, numeric(p, s)', async () => {
    // a timestamp written as a bare date is stored so; as text it is a whole timestamp
    for (const c of [o.patina, o.postgres])
      await c.query(`INSERT INTO orders (id, customer_id, paid, placed_at) VALUES (3, 1, false, '2024-03-02')`);
    for (const sql of [
      // SQLite's text of the double 6 is '6.0' and of the boolean 1 is '1'
      "SELECT price::text, CAST(price AS varchar), price || '', 'x' || price FROM line_items ORDER BY order_id, line",
      "SELECT paid::text, 'x' || paid, paid || 'x', concat(paid, price), concat_ws(',', paid, placed_at), format('%s %s', paid, price) FROM orders JOIN line_items ON order_id = orders.id ORDER BY orders.id, line",
      "SELECT id, placed_at::text, 'at ' || placed_at, (placed_at::date)::text FROM orders ORDER BY id",
      "SELECT string_agg(price::text, ',' ORDER BY order_id, line) FROM line_items",
      "SELECT 2.0::float8::text, 1e20::float8::text, 1e-7::float8::text, true::text, 1.5::numeric(10,2)::text, 'v' || 12.5::numeric(10,2)",
      // and as JSON: a double -2 (not -2.0), a timestamp stored as a date at midnight
      'SELECT json_agg(price ORDER BY order_id, line), to_json(min(price)) FROM line_items',
      'SELECT row_to_json(x) FROM (SELECT id, paid, placed_at FROM orders) x ORDER BY x.id',
      "SELECT json_build_object('at', placed_at, 'paid', paid) FROM orders ORDER BY id",
    ])
      await same(sql);
  });

  it('math functions typed as PostgreSQL resolves them, and round(numeric, n) rounds the decimal', async () => {
    // of integers the float8 form wins (round(2) was numeric, power(2, 10) and log(100) bigint);
    // round(1.005, 2) was 1.00 (SQLite rounds the double 1.00499999...)
    for (const sql of [
      'SELECT round(2), ceil(2), floor(-2), trunc(2), sign(-3), power(2, 10), log(100), sqrt(16), exp(0), ln(1), mod(-7, 3)',
      'SELECT round(5::int8, 1), round(1.005, 2), round(0.285, 2), round(-1.005, 2), round(1234.5, -2), round(60, -3), round(650, -3), round(12345678.125, 2)',
      'SELECT round(2.5::float8), ceil(2.5::float8), sign(-2.5::float8), abs(-2), abs(-2.5)',
      'SELECT id, round(amount, 1), round(amount * 1.005, 2) FROM orders ORDER BY id',
    ])
      await same(sql);
  });

  it('starts_with and make_timestamp (they were 42883 no such function)', async () => {
    await same(
      "SELECT starts_with('abc', 'ab'), starts_with('abc', 'b'), starts_with(NULL, 'a'), make_timestamp(2024, 2, 29, 12, 30, 45.5), make_timestamp(2024, 1, 1, 0, 0, 0)",
    );
    for (const c of [o.patina, o.postgres])
      await assert.rejects(c.query('SELECT make_timestamp(2024, 2, 30, 0, 0, 0)'), { code: '22008' });
  });

  it('scalar functions in FROM are one-row tables (substr was `no such table: __pg_substr`); bad calls are 42883 by their own names', async () => {
    for (const sql of [
      "SELECT * FROM substr('abcdef', 3) AS result",
      "SELECT * FROM left('abcdef', 2), split_part('a,b,c', ',', 2) AS x(y)",
      'SELECT * FROM greatest(1, 5, 3) g, mod(7, 3), trunc(2.567, 1)',
      "SELECT r FROM repeat('ab', 2) AS r",
    ])
      await same(sql);
    // a function SQLite cannot call was named by its internal name (`__pg_upper()`), or as a table
    for (const [sql, message] of [
      ["SELECT upper('a', 'b')", /^function upper\(\.\.\.\) does not exist/],
      ['SELECT lower()', /^function lower\(\.\.\.\) does not exist/],
    ] as const) {
      await sameError(sql);
      await assert.rejects(o.patina.query(sql), (e: Error) => message.test(e.message), sql);
    }
    // a name PostgreSQL has no function of: its words (sql/foreign-functions.ts), in FROM too
    await sameMessage('SELECT no_such_fn(1)');
    await sameMessage('SELECT * FROM no_such_fn(1) AS r');
  });

  it('integer arithmetic past int4 and int2 is 22003, as in PostgreSQL', async () => {
    await sameError('SELECT 2147483647 + 1');
    await sameError('SELECT 32767::int2 + 1::int2');
    await sameError('SELECT -2147483648 - 1');
    await same('SELECT 2147483647 + 1::int8, 2147483646 + 1');
    // a sum past 64 bits: PostgreSQL's is a numeric and goes on; SQLite's stops, now with 22003 (it was 42000)
    await assert.rejects(o.patina.query('SELECT sum(x) FROM (VALUES (9223372036854775807), (1)) v(x)'), {
      code: '22003',
    });
  });

  it('SELECT DISTINCT ON: the first row of each group in the ORDER BY order, in subqueries too', async () => {
    for (const sql of [
      'SELECT DISTINCT ON (order_id) order_id, line, qty FROM line_items ORDER BY order_id, qty DESC',
      'SELECT DISTINCT ON (order_id) * FROM line_items ORDER BY order_id, price DESC NULLS LAST',
      'SELECT DISTINCT ON (li.order_id) li.* FROM line_items li ORDER BY li.order_id, li.price NULLS FIRST',
      'SELECT DISTINCT ON (1) order_id AS o, qty * 2 AS twice FROM line_items ORDER BY 1, twice',
      'SELECT DISTINCT ON (order_id) order_id, line FROM line_items WHERE qty > 1 ORDER BY order_id, line LIMIT 1 OFFSET 1',
      'SELECT DISTINCT ON (o.customer_id) o.customer_id, l.qty FROM orders o JOIN line_items l ON l.order_id = o.id ORDER BY o.customer_id, l.qty DESC',
      'SELECT s.line FROM (SELECT DISTINCT ON (order_id) order_id, line FROM line_items ORDER BY order_id, line DESC) AS s ORDER BY s.line',
      'WITH top AS (SELECT DISTINCT ON (order_id) order_id, qty FROM line_items ORDER BY order_id, qty) SELECT * FROM top ORDER BY qty',
    ])
      await same(sql);
    await sameError('SELECT DISTINCT ON (order_id) order_id, line FROM line_items ORDER BY line');
    await assert.rejects(o.patina.query('SELECT DISTINCT ON (order_id) order_id FROM line_items UNION SELECT 9'), {
      code: '0A000',
      message: /subquery/,
    });
  });

  it('row values compare as in PostgreSQL; a record as a column is its text (whole-row-oracle has more)', async () => {
    for (const sql of [
      "SELECT ROW(1, 2) = ROW(1, 2), (1, 2) < (1, 3), ROW(1, 'a') <> ROW(1, 'b')",
      'SELECT id FROM orders WHERE ROW(id, customer_id) > ROW(1, 1) ORDER BY id',
      "SELECT ROW(1, 'a')",
    ])
      await same(sql);
  });

  it("the catalog's helpers: boolean answers typed bool, pg_size_pretty, format_type with typmods, regclass", async () => {
    for (const sql of [
      "SELECT pg_is_in_recovery(), has_table_privilege('orders', 'SELECT'), has_schema_privilege('public', 'USAGE')",
      'SELECT current_schemas(false), current_schemas(true), pg_catalog.pg_encoding_to_char(6)',
      'SELECT format_type(23, NULL), format_type(1043, 14), format_type(1700, 655366), format_type(1042, 5)',
      "SELECT quote_ident('a b'), quote_literal('x''y'), quote_nullable(NULL), quote_nullable(1)",
      // of a table's columns too (42883 there: they were the catalog connection's), a backslash E''
      "SELECT id, quote_ident(name), quote_literal(name || E'\\\\x'), quote_nullable(email) FROM customers ORDER BY id",
      "SELECT quote_literal(E'x\\\\y')",
      'SELECT pg_size_pretty(1234567::bigint), pg_size_pretty(10239::bigint), pg_size_pretty(10240::bigint), pg_size_pretty(-20000000::bigint), pg_size_pretty(5000000000000000::bigint)',
      "SELECT to_regclass('orders') IS NOT NULL, to_regclass('nope') IS NULL",
      // a name read as PostgreSQL reads it: quoted parts keep their case, the schema may be quoted
      // ('"public"."orders"' was NULL), unquoted ones are folded
      `SELECT '"public"."orders"'::regclass = 'orders'::regclass, 'PUBLIC.Orders'::regclass = 'orders'::regclass,
         to_regclass('"public"."orders"') IS NOT NULL, to_regclass('"Orders"') IS NULL`,
    ])
      await same(sql);
    // a cast of a name that is no relation is 42P01, as in PostgreSQL (it was NULL)
    for (const sql of ["SELECT 'nope'::regclass", `SELECT '"Orders"'::regclass`]) {
      await assert.rejects(o.postgres.query(sql), { code: '42P01' }, sql);
      await assert.rejects(o.patina.query(sql), { code: '42P01' }, sql);
    }
    // regtype takes any of a type's names and the pseudo-types, prints names, 42704 for none
    // ('trigger'::regtype was NULL, 'integer'::regtype printed 23, 'text[]' found xml[]'s OID)
    await same(
      `SELECT 'trigger'::regtype, 'trigger'::regtype::oid, 'integer'::regtype, 'INT4'::regtype::oid,
         'character varying'::regtype, 'text[]'::regtype::oid, 'int[]'::regtype, 23::regtype`,
    );
    await assert.rejects(o.postgres.query("SELECT 'nope'::regtype"), { code: '42704' });
    await assert.rejects(o.patina.query("SELECT 'nope'::regtype"), { code: '42704' });
    // pgcli's function completion: oidvector::regtype[] counts from 0 (it printed the OIDs), and
    // its `prorettype::regtype != 'trigger'::regtype` kept no row at all
    await same(
      `SELECT n.nspname schema_name, p.proname func_name, p.proargnames,
         COALESCE(proallargtypes::regtype[], proargtypes::regtype[])::text[], p.proargmodes,
         prorettype::regtype::text return_type, p.prokind = 'a' is_aggregate, p.prokind = 'w' is_window,
         p.proretset is_set_returning, d.deptype = 'e' is_extension, pg_get_expr(proargdefaults, 0) AS arg_defaults
       FROM pg_catalog.pg_proc p INNER JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
       LEFT JOIN pg_depend d ON d.objid = p.oid and d.deptype = 'e'
       WHERE p.prorettype::regtype != 'trigger'::regtype AND p.proname IN ('now', 'count', 'generate_subscripts', 'coalesce')
       ORDER BY 1, 2, p.pronargs`,
      [],
      { types: false }, // (PostgreSQL's name columns are name, text here)
    );
  });

  it('ANALYZE and VACUUM are accepted with their tags, and name only tables that exist', async () => {
    for (const sql of [
      'ANALYZE',
      'ANALYZE orders',
      'VACUUM',
      'VACUUM (ANALYZE) orders, customers',
      'VACUUM FULL orders',
    ]) {
      const tag = async (c: OracleClients['patina']) =>
        ((await c.query(sql)) as unknown as { command: string }).command;
      assert.equal(await tag(o.patina), await tag(o.postgres), sql);
    }
    await sameError('ANALYZE nope');
    await sameError('VACUUM orders, nope');
  });

  it('ANALYZE and VACUUM of a catalog relation: a table is accepted, a view skipped with a WARNING, as PostgreSQL answers (they were 42P01)', async () => {
    // psql prints the WARNING, the tag or the error
    const shown = (port: number, sql: string) => {
      const r = psql(port, [sql]);
      return `${r.stdout}${r.stderr}`;
    };
    for (const sql of [
      'ANALYZE pg_class',
      'ANALYZE pg_catalog.pg_class (relname, relkind), orders',
      'VACUUM pg_type',
      'VACUUM (ANALYZE) information_schema.sql_features (feature_id)',
      'ANALYZE pg_stat_activity',
      'VACUUM (ANALYZE) pg_tables (nope)',
      'ANALYZE information_schema.tables, pg_roles',
      'ANALYZE pg_class (nope)',
      'ANALYZE pg_class (relname, relname)',
      'ANALYZE public.pg_class',
      'ANALYZE information_schema.nope',
      // (and VACUUM after another statement of one Query is refused in its implicit block)
      'SELECT 1; VACUUM orders',
    ]) {
      const p = shown(o.pair.patinaPort, sql);
      assert.match(p, /^(ANALYZE|VACUUM|WARNING: |ERROR: )/m, sql);
      assert.equal(p, shown(o.pair.postgresPort, sql), sql);
    }
    assert.match(
      shown(o.pair.patinaPort, 'ANALYZE pg_roles'),
      /^WARNING: {2}skipping "pg_roles" --- cannot analyze non-tables or special system tables$/m,
    );
  });

  it("ANALYZE's and VACUUM's errors as PostgreSQL gives them: a syntax error's and an option's position, an unknown table's none, options, column lists and transaction blocks checked (they were accepted)", async () => {
    const failure = (c: OracleClients['patina'], sql: string) =>
      c.query(sql).then(
        () => 'ran',
        (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
      );
    const fails = async (sql: string) => {
      const p = await failure(o.patina, sql);
      assert.equal(p, await failure(o.postgres, sql), sql);
      return p;
    };
    assert.equal(await fails('VACUUM FULL FREEZE orders x'), '42601 syntax error at or near "x" @27');
    assert.equal(await fails('ANALYZE (FREEZE) orders'), '42601 unrecognized ANALYZE option "freeze" @10');
    // (PostgreSQL looks the table up with no place to point at)
    assert.equal(await fails('ANALYZE nope'), '42P01 relation "nope" does not exist @undefined');
    for (const sql of [
      'ANALYZE orders orders',
      'SELECT 1; VACUUM (',
      'VACUUM  (BOGUS) orders',
      'VACUUM (VERBOSE maybe) orders',
      'VACUUM (PARALLEL 5000) orders',
      'VACUUM (PARALLEL) orders',
      'VACUUM (FULL, PARALLEL 2) orders',
      'VACUUM (DISABLE_PAGE_SKIPPING, FULL) orders',
      'VACUUM orders (note)',
      'ANALYZE orders (note, nope)',
      'ANALYZE orders (note, note)',
      'ANALYZE orders (nope), nope',
      'VACUUM customers, public.nope',
    ])
      assert.match(await fails(sql), /^(42601|42P01|42703|42701|0A000) /, sql);
    assert.equal(await fails('BEGIN; VACUUM orders'), '25001 VACUUM cannot run inside a transaction block @undefined');
    await o.patina.query('ROLLBACK');
    await o.postgres.query('ROLLBACK');
    // what they accept
    for (const sql of [
      'VACUUM (INDEX_CLEANUP auto, TRUNCATE on, FREEZE 0, SKIP_LOCKED, PARALLEL 2, VERBOSE false) orders',
      'ANALYZE (SKIP_LOCKED) orders (note, amount), customers',
      'VACUUM (ANALYZE) orders (note)',
      'BEGIN; ANALYZE orders; COMMIT',
    ])
      assert.equal(await failure(o.patina, sql), await failure(o.postgres, sql), sql);
  });

  it('pg_typeof names the type PostgreSQL gives the expression, typed regtype (it was text)', async () => {
    await same(
      "SELECT pg_typeof(1), pg_typeof(1.5), pg_typeof('a'::text), pg_typeof(now()), pg_typeof(count(*)), pg_typeof(placed_at), pg_typeof(placed_at - placed_at), pg_typeof(ARRAY[1]), pg_typeof(sum(amount)), pg_typeof(date_trunc('day', placed_at)) FROM orders GROUP BY placed_at ORDER BY placed_at LIMIT 1",
    );
    await same('SELECT pg_typeof(id)::text, pg_typeof(1) = pg_typeof(2) FROM orders ORDER BY id LIMIT 1');
  });

  it("a function of one value in FROM is a one-row table (TypeORM's SELECT * FROM current_schema(): no such table)", async () => {
    for (const sql of [
      'SELECT * FROM current_schema()',
      'SELECT * FROM pg_catalog.current_database()',
      'SELECT s FROM current_schema() AS s',
      'SELECT x FROM current_schema() AS s(x)',
      "SELECT * FROM lower('ABC'), upper('x') u",
      "SELECT * FROM current_setting('search_path') AS sp",
      'SELECT count(*) FROM orders WHERE customer_id IN (SELECT * FROM abs(-1)) AND placed_at < now()',
      'SELECT o.id, n.n IS NOT NULL FROM orders o, now() AS n(n) ORDER BY o.id LIMIT 2',
    ])
      await same(sql);
  });

  it('set-returning FROM items and tableoid read from tokens: strings stay text, an alias before LIMIT names the value', async () => {
    for (const sql of [
      // the rewrite of the translated text turned the string into 'FROM (SELECT value AS a FROM unnest(x)) a'
      "SELECT 'FROM unnest(x) a' AS s FROM orders ORDER BY id LIMIT 1",
      "SELECT 'FROM unnest(x) a' AS s",
      // an alias followed by LIMIT was no column (no such column: x)
      'SELECT x FROM unnest(ARRAY[3, 4]) x LIMIT 1',
      // 'tableoid' in a string became '1259'; a bare tableoid took the first catalog table in the
      // text, the subquery's pg_namespace (2615), not its own SELECT's pg_type
      "SELECT 'tableoid' AS w FROM pg_class LIMIT 1",
      "SELECT (SELECT count(*) FROM pg_namespace WHERE nspname = 'public') AS n, tableoid::int AS t FROM pg_type LIMIT 1",
      // a blob literal the cast wrote stays one when the FROM item is rewritten around it
      "SELECT i, '\\x01'::bytea AS b FROM generate_series(1, 2) AS i",
    ])
      await same(sql);
  });

  it('array_agg over no rows is NULL (it was {}); an aggregate of DISTINCT values gets them sorted, NULL last (they came in row order)', async () => {
    for (const sql of [
      'SELECT array_agg(id) FROM orders WHERE false',
      'SELECT array_agg(DISTINCT note ORDER BY note), array_agg(id) FILTER (WHERE false) FROM orders',
      'SELECT c.id, (SELECT array_agg(l.line) FROM line_items l WHERE l.order_id = c.id) FROM customers c ORDER BY 1',
      'SELECT ARRAY(SELECT id FROM orders WHERE false), coalesce(array_agg(id), ARRAY[]::bigint[]) FROM orders WHERE false',
      // rows come 3, 1, 2, 1 and NULL first; PostgreSQL sorts the distinct values
      "SELECT array_agg(DISTINCT x), string_agg(DISTINCT y, ','), json_agg(DISTINCT x), jsonb_agg(DISTINCT y) FROM (VALUES (NULL, 'b'), (3, 'c'), (1, 'a'), (2, 'c'), (1, NULL)) v(x, y)",
      'SELECT array_agg(DISTINCT placed_at), array_agg(DISTINCT price), array_agg(DISTINCT -qty) FROM orders, line_items',
      'SELECT array_agg(DISTINCT x ORDER BY x DESC) FROM (VALUES (1), (3), (2)) v(x)',
    ])
      await same(sql);
  });

  it("format() of a table's rows is PostgreSQL's (%I and %L printed nothing there: SQLite's printf), with widths; string_to_array's empty string, empty separator and NULL text", async () => {
    for (const sql of [
      "SELECT format('%s-%L-%I', name, email, name), format('%I', 'Ann') FROM customers ORDER BY id",
      "SELECT format('%s and %s', id, note), format('%L', note), format('%2$s %1$s', id, paid) FROM orders ORDER BY id",
      "SELECT format('%-5s|', name), format('%5s|', name), format('%*s|', 4, id), format('%-*s|', 3, id) FROM customers ORDER BY id",
      "SELECT string_to_array('abc', ''), string_to_array('abc', NULL), string_to_array('', ','), string_to_array('a,b,,c', ',', ''), string_to_array('a b', ' ', 'b')",
      "SELECT id, string_to_array(coalesce(note, ''), ',') FROM orders ORDER BY id",
    ])
      await same(sql);
    for (const sql of [
      "SELECT format('%I', note) FROM orders",
      "SELECT format('%s %s', name) FROM customers",
      "SELECT format('%x', id) FROM customers",
    ])
      await sameMessage(sql);
  });

  it("a double's NaN cast from text is NaN (SQLite made it NULL), infinities too", async () => {
    await same(
      "SELECT 'NaN'::float8, 'nan'::float4, 'Infinity'::float8, '-inf'::float8, 'NaN'::float8 > 1e300::float8",
    );
  });

  it("numeric's NaN is NaN (was NULL): cast, printed, equal to itself, above every number; avg and / of it NaN", async () => {
    const v = "(VALUES (1, 'NaN'::numeric), (2, 5), (3, -1.5), (4, NULL), (5, ' nan '::numeric)) v(id, n)";
    for (const sql of [
      "SELECT 'NaN'::numeric, CAST('nan' AS numeric), 'NaN'::numeric(10, 2), pg_typeof('NaN'::numeric), 'NaN'::numeric::text",
      "SELECT 'NaN'::numeric = 'NaN'::numeric, 'NaN'::numeric > 1e300, 'NaN'::numeric <> 5, 'NaN'::numeric::float8 > 1e300",
      `SELECT id, n, n = 'NaN'::numeric, n > 100 FROM ${v} ORDER BY n, id`,
      `SELECT id, n FROM ${v} ORDER BY n DESC NULLS LAST, id`,
      `SELECT max(n), min(n), avg(n), count(DISTINCT n) FROM ${v}`,
      `SELECT n, count(*) FROM ${v} GROUP BY n ORDER BY n`,
      `SELECT id, n / 2 FROM ${v} ORDER BY id`,
      `SELECT avg(n) FROM ${v} WHERE id BETWEEN 2 AND 4`,
      '9007199254740993::numeric, (-9223372036854775807)::numeric, 12.50::numeric'.replace(/^/, 'SELECT '),
    ])
      await same(sql);
    // a parameter and a stored value; 'NaN' in an INSERT was NaN before too
    await same('SELECT $1::numeric, $1::numeric = $2::numeric', ['NaN', 'NaN']);
    for (const c of [o.patina, o.postgres])
      await c.query("INSERT INTO orders (id, customer_id, amount) VALUES (90, 1, 'NaN'::numeric), (91, 1, 'NaN')");
    await same("SELECT id, amount FROM orders WHERE amount = 'NaN'::numeric ORDER BY id");
    await same('SELECT id FROM orders WHERE amount = $1 ORDER BY id', ['NaN']);
    // NaN to an integer is 0A000 (Patina's cast said 22P02, which text 'NaN' to an integer is)
    for (const sql of [
      "SELECT 'NaN'::numeric::int",
      "SELECT CAST('NaN'::numeric AS bigint)",
      'SELECT amount::smallint FROM orders WHERE id = 90',
      "SELECT 'NaN'::int",
    ])
      await sameError(sql);
    await same(
      'SELECT 5.5::numeric::int, (-2.5)::numeric::int8, amount::int FROM orders WHERE id < 90 AND amount IS NOT NULL ORDER BY id',
    );
    for (const c of [o.patina, o.postgres]) await c.query('DELETE FROM orders WHERE id >= 90');
  });

  it('the clocks with a precision, and the root operators as sqrt and cbrt', async () => {
    const [[ts, lts]] = (
      await o.patina.query({
        text: 'SELECT current_timestamp(0)::text, localtimestamp(2)::text',
        rowMode: 'array',
      })
    ).rows as string[][];
    assert.match(ts, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00$/);
    // at most 2 digits of the second, printed as PostgreSQL prints a timestamp (no trailing zeros: .5, none for .00)
    assert.match(lts, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,2})?$/);
    // (they were refused with 0A000 naming sqrt(x) and cbrt(x); test/pg/operators-oracle.test.ts has more)
    await same('SELECT |/ 16, ||/ 8, |/ 2.25::numeric');
  });
  it('txid_current() and pg_current_xact_id() increase, one per transaction block or autocommit statement (they were always 1)', async () => {
    const seen = async (c: typeof o.patina) => {
      const x = async () => BigInt(String((await c.query('SELECT txid_current() AS x')).rows[0].x));
      const a = await x();
      const b = await x();
      await c.query('BEGIN');
      const c1 = await x();
      const same = (
        await c.query(
          'SELECT txid_current() = txid_current() AS s, pg_current_xact_id()::text = txid_current()::text AS t',
        )
      ).rows[0];
      const c2 = await x();
      await c.query('COMMIT');
      const d = await x();
      return [b > a, c1 === c2, c1 > b, d > c2, same.s, same.t];
    };
    assert.deepEqual(await seen(o.patina), await seen(o.postgres));
    assert.deepEqual(await seen(o.patina), [true, true, true, true, true, true]);
  });
  it('math functions of a double: NaN of NaN, PostgreSQL errors for what has no value, cot (they were NULL, cot 42883)', async () => {
    for (const sql of [
      "SELECT acos('NaN'::float8), asin('NaN'::float8), atan('NaN'::float8), atan2('NaN'::float8, 1), cbrt('NaN'::float8), exp('NaN'::float8), ln('NaN'::float8), log('NaN'::float8), log10('NaN'::float8), sqrt('NaN'::float8)",
      "SELECT abs('NaN'::float8), ceil('NaN'::float8), floor('NaN'::float8), round('NaN'::float8), trunc('NaN'::float8), sign('NaN'::float8), sign('NaN'::numeric), degrees('NaN'::float8), radians('NaN'::float8)",
      "SELECT sin('NaN'::float8), cos('NaN'::float8), tan('NaN'::float8), cot('NaN'::float8), sinh('NaN'::float8), cosh('NaN'::float8), tanh('NaN'::float8), asinh('NaN'::float8), acosh('NaN'::float8), atanh('NaN'::float8)",
      'SELECT cot(0::float8), cot(-2.5::float8), cot(1), atanh(1::float8), atanh(-1::float8), acosh(2::float8), degrees(1), radians(180)',
      "SELECT abs(-2.5::float8), abs(-3), abs(-9223372036854775807), abs(-1.50), abs('-Infinity'::float8), ceil(-0.5::float8), floor(-0.5), ceiling(2.1::float8), trunc(-0.5::float8), trunc(7), sign(-2.5), sign(0)",
      "SELECT pow('NaN'::float8, 'NaN'::float8), power(1, 'NaN'::float8), power('NaN'::float8, 0), 2 ^ 0.5, (-8) ^ 3, power('-Infinity'::float8, 3), power('-Infinity'::float8, -3), power(0.5, '-Infinity'::float8)",
      "SELECT exp('-Infinity'::float8), ln('Infinity'::float8), log(2, 8) = 3, mod(7, 3), mod(-7, 3), mod(7.5, 2), mod(-7.25, 2), mod(10, 3.3), mod('NaN'::numeric, 1), mod(9223372036854775807, 10)",
      'SELECT pg_typeof(abs(-5)), pg_typeof(mod(5::int8, 3)), pg_typeof(ceil(5)), pg_typeof(sign(-5::numeric))',
      // the C library's digits, as PostgreSQL's (JavaScript's sin(-2.5) ends in 4, glibc's in 5)
      'SELECT sin(-2.5::float8), cos(-2.5::float8), tan(-2.5::float8), exp(-2.5::float8), ln(2.5::float8), atan2(1, -2.5), power(2.5::float8, 1.7), asinh(-2.5::float8), cot(-2.5::float8), log(2.5::float8), 2.5::float8 ^ 1.7',
    ])
      await same(sql);
    await same('SELECT sin($1::float8), power($1::float8, 2), acos($2::float8)', [-2.5, 'NaN']);
    await same("SELECT sin(cos(-2.5::float8)), exp(ln(2.5::float8)), 2::float8 ^ 0.5 ^ 2, acos(cos('NaN'::float8))");
    for (const sql of [
      'SELECT acos(-2.5::float8)',
      "SELECT asin('Infinity'::float8)",
      'SELECT acosh(0::float8)',
      "SELECT atanh('Infinity'::float8)",
      "SELECT cos('Infinity'::float8)",
      "SELECT cot('Infinity'::float8)",
      "SELECT sin('-Infinity'::float8)",
      'SELECT ln(0::float8)',
      'SELECT ln(-2.5::float8)',
      'SELECT ln(0::numeric)',
      'SELECT log10(-1)',
      'SELECT log(0::numeric, 0::numeric)',
      'SELECT log(-1.50::numeric, 2)',
      'SELECT log(1, 10)',
      'SELECT sqrt(-2.5::float8)',
      'SELECT sqrt(-1.50::numeric)',
      'SELECT mod(0, 0)',
      'SELECT mod(0::numeric, 0::numeric)',
      'SELECT exp(1e5::float8)',
      'SELECT exp(-1e5::float8)',
      'SELECT degrees(1e308::float8)',
      'SELECT pow(-2.5::float8, -2.5::float8)',
      'SELECT power(0::float8, -1)',
      'SELECT 10::float8 ^ 400',
    ])
      await sameMessage(sql);
  });
  it('bytea, JSON, array and catalog functions with edge arguments answer as PostgreSQL (md5 of bytes, btrim of bytea, NULL arguments of strict functions)', async () => {
    for (const sql of [
      "SELECT md5('\\x00ff'::bytea), md5('abc'), md5('abc'::bytea)",
      "SELECT btrim('\\x00ff'::bytea, '\\x00ff'::bytea), ltrim('\\x0001ff00'::bytea, '\\x00'::bytea), rtrim('\\x0001ff00'::bytea, '\\x00'::bytea), btrim('  a  '), ltrim('xxaxx', 'x'), rtrim('  a  '), btrim('éaé', 'é')",
      "SELECT trim(both '\\x00'::bytea from '\\x0001ff00'::bytea), trim(leading 'x' from 'xxaxx'), trim('  a '), trim(trailing from '  a  ')",
      "SELECT substr('\\x00ff'::bytea, 2), substring('\\x00ff'::bytea, 1, 1), substr('abc', 2), substring('abc' from 2 for 1), substring('abc' from 'b.')",
      "SELECT array_to_string('{a,b}'::text[], NULL::text), array_to_string('{a,NULL}'::text[], ',', NULL), array_to_string('{a,NULL}'::text[], ',', '*')",
      "SELECT current_schemas(NULL::bool), current_setting(NULL::text), current_setting('abc', NULL::bool), current_setting(NULL::text, NULL::bool)",
      'SELECT format_type(0::oid, 0), format_type(0, NULL), format_type(23, NULL)',
      "SELECT jsonb_set('[]'::jsonb, '{a,b}'::text[], '[]'::jsonb, NULL::bool)",
      `SELECT json_strip_nulls('{"a": [1, 2], "b" : null, "c": {"d": null, "e": "x\\u00e9y"}, "a": 1.50}'::json), json_strip_nulls('[null, {"a":null}]'), jsonb_strip_nulls('{"a": null, "b": [null]}')`,
      "SELECT json_array_length('[1, [2], 3]'::json), jsonb_array_length('[]'::jsonb)",
    ])
      await same(sql);
    for (const sql of [
      'SELECT chr(-7)',
      'SELECT chr(55296)',
      `SELECT json_array_length('{"a": [1, 2]}'::json)`,
      `SELECT jsonb_array_length('{"a": [1, 2]}'::jsonb)`,
      "SELECT json_array_length('3'::json)",
      `SELECT jsonb_array_length('"a"'::jsonb)`,
    ])
      await sameMessage(sql);
  });
  it('date_part and date_trunc of a unit the type does not take: 22023 or 0A000 naming the type, as PostgreSQL 15 words them; date_trunc with a zone', async () => {
    for (const sql of [
      "SELECT date_part('abc', 'infinity'::date)",
      "SELECT date_part('abc', '-1 mon'::interval)",
      "SELECT date_part('abc', '10:30:00'::time)",
      "SELECT date_part('  x  ', '10:30:00'::time)",
      "SELECT date_part('ABC', '2024-02-29 10:30:00+02'::timestamptz)",
      "SELECT date_part('abc', '2024-02-29'::date)",
      "SELECT date_part('dow', '1 day'::interval)",
      "SELECT date_part('É ß', '1 day 2 hours'::interval)",
      "SELECT date_trunc('abc', '2024-02-29 10:30:00'::timestamp)",
      "SELECT date_trunc('abc', '2024-02-29 10:30:00+02'::timestamptz)",
      "SELECT date_trunc('abc', '2024-02-29'::date)",
      "SELECT date_trunc('dow', '2024-02-29 10:30:00'::timestamp)",
      "SELECT date_trunc('abc', '2024-02-29 10:30:00+02'::timestamptz, 'abc')",
      "SELECT date_trunc('abc', '2024-02-29 10:30:00+02'::timestamptz, 'UTC')",
      "SELECT extract(abc from '2024-02-29 10:30:00'::timestamp)",
    ])
      await sameMessage(sql);
    await same(
      "SELECT date_trunc('day', '2024-02-29 23:30:00+00'::timestamptz, 'Asia/Tokyo'), date_trunc('hour', '2024-02-29 23:30:00+00'::timestamptz, 'America/New_York'), date_trunc(NULL::text, '2024-02-29 10:30:00+02'::timestamptz, NULL::text), date_part('abc', NULL::timestamp)",
    );
  });
  it('numeric exp, ln, log, log10, sqrt print the scale and digits, mod the larger scale of its operands (exp(0::numeric) was 1, mod(-1.50, -1.50) 0)', async () => {
    for (const sql of [
      'SELECT exp(0::numeric), exp(-1.50::numeric), exp(1.0), exp(10::numeric), exp(-100::numeric), exp(1000::numeric)',
      'SELECT ln(2::numeric), ln(1.05), ln(0.95::numeric), ln(1::numeric), ln(0.001::numeric), ln(1e-20::numeric)',
      'SELECT log(2::numeric, 8::numeric), log10(1000::numeric), log(2, 1.0000001), log(100::numeric), log(0.5, 0.25)',
      "SELECT log('NaN'::numeric, 'NaN'::numeric), log('Infinity'::numeric, 2), log(2, 'Infinity'::numeric), ln('Infinity'::numeric), exp('-Infinity'::numeric), sqrt('Infinity'::numeric)",
      'SELECT sqrt(0::numeric), sqrt(2::numeric), sqrt(0.0001::numeric), sqrt(1e-10::numeric), sqrt(100.00::numeric)',
      'SELECT mod(-1.50::numeric, -1.50::numeric), mod(0.3, 0.1), mod(7.50, 2), mod(-7.25, 2)',
      "SELECT mod('Infinity'::numeric, 2), mod(2, 'Infinity'::numeric), mod('-Infinity'::numeric, 2), mod(5::numeric, 'NaN')",
      'SELECT exp(n), ln(n), sqrt(n), log(n), exp(n)::text FROM (VALUES (2.5::numeric)) v(n)',
      'SELECT exp(1.0) + 1, sqrt(4::numeric) * 2',
      // (of literals alone too: the statement is analysed for them)
      'SELECT exp(1.0), ln(2.0), sqrt(2.0), log(2, 8)',
      'SELECT exp(x) FROM (VALUES (1.0)) v(x)',
    ])
      await same(sql);
    // of a plain NUMERIC column's rows
    const rows = await same(
      'SELECT id, ln(amount), sqrt(amount), log10(amount) FROM orders WHERE amount > 0 ORDER BY id',
    );
    assert.ok(rows.length > 0);
    for (const sql of [
      'SELECT exp(123456789012345678901234567890.123::numeric)',
      'SELECT log(0::numeric, -1::numeric)',
      'SELECT log(-1::numeric, 0::numeric)',
      "SELECT ln('-Infinity'::numeric)",
      // (compared, so a double: the base's logarithm fails first there too)
      'SELECT log(0::numeric, -1::numeric) = 1',
      "SELECT log(0, '-Infinity'::numeric) = 1",
    ])
      await sameMessage(sql);
  });
  it("regexp_replace with a start and N (PostgreSQL 15's forms), and edge arguments of to_number, div, set_config, pg_encoding_to_char, to_char, to_timestamp, to_hex, make_interval", async () => {
    for (const sql of [
      "SELECT regexp_replace('É ß', 'É ß', 'É ß', 2147483647), regexp_replace('abcabc', 'b', 'X', 3), regexp_replace('abcabcabc', 'b', 'X', 1, 2), regexp_replace('abcabcabc', 'b', 'X', 2, 0), regexp_replace('abcabc', '^a', 'X', 2)",
      "SELECT regexp_replace('aaa', 'a', 'X', 1, 2, 'g'), regexp_replace('AbAb', 'b', '<\\&>', 1, 0, 'i'), regexp_replace('héllo wörld', 'ö', 'o', 8), regexp_replace('aXbXc', 'x', '-', 1, 2, 'i')",
      "SELECT regexp_replace('foobarbaz', 'b(..)', 'X\\1Y', 'g'), regexp_replace('foobarbaz', 'b(..)', 'X\\1Y'), regexp_replace(NULL::text, NULL::text, NULL::text, NULL::int4, NULL::int4)",
      "SELECT to_number('', ''), to_number('12', ''), div('NaN'::numeric, 'NaN'::numeric), div(7.5, 2)",
      "SELECT string_agg(i || '=' || pg_encoding_to_char(i), ',') FROM generate_series(-1, 43) i",
      'SELECT pg_encoding_to_char(NULL::int4)',
      // (an empty format: '' for a number, NULL for a timestamp)
      "SELECT to_char('2024-02-29 10:30:00'::timestamp, ''), to_char(1.5, ''), to_char('2024-02-29 10:30:00+02'::timestamptz, ''), to_char(7, ''), to_char('2024-01-01'::date, ''), to_char(2.5::float8, '')",
      "SELECT to_timestamp('Infinity'::float8), to_timestamp('-Infinity'::float8), to_timestamp(0)",
      'SELECT to_hex(-7), to_hex(-1), to_hex(255), to_hex(-7::int8), to_hex(9223372036854775807), to_hex(-2147483648)',
      'SELECT to_hex(x) FROM (VALUES (-7)) v(x)',
      'SELECT make_interval(1, 2, 3, 4, 5, 6, 7.5), make_interval(secs => NULL)',
      // typed name, timestamptz, integer as there (they were text, text, bigint)
      'SELECT pg_get_userbyid(0::oid), pg_get_userbyid(10), pg_typeof(pg_get_userbyid(10))',
      'SELECT pg_postmaster_start_time() < now(), pg_typeof(pg_postmaster_start_time()), pg_typeof(inet_server_port())',
    ])
      await same(sql);
    for (const sql of [
      "SELECT regexp_replace('', '', '', 0, 0)",
      "SELECT regexp_replace('abc', 'abc', 'abc', 1, -7)",
      "SELECT regexp_replace('É ß', 'É ß', 'É ß', 2147483647, 2147483647, 'É ß')",
      "SELECT regexp_replace('ab', 'b', 'x', 'gz')",
      'SELECT set_config(NULL::text, NULL::text, NULL::bool)',
      "SELECT to_timestamp('NaN'::float8)",
      "SELECT make_interval(secs => 'Infinity'::float8)",
      "SELECT make_interval(secs => 'NaN'::float8)",
    ])
      await sameMessage(sql);
  });
  it('OPERATOR(pg_catalog.op) is typed as the operator (a comparison printed 1, not t), as psql 15 writes it', async () => {
    await same(
      "SELECT 'a' OPERATOR(pg_catalog.~) 'a', 'a' OPERATOR(pg_catalog.=) 'b', 1 OPERATOR(pg_catalog.+) 2, 1.5 OPERATOR(pg_catalog.*) 2, 'a' OPERATOR(pg_catalog.||) 'b'",
    );
  });
  it('a string function of a number, date or array, round(x, n) of a double, sum of text: no such function (42883), as there', async () => {
    /** Both refuse `sql` with the same SQLSTATE, message, HINT and position. */
    const refusal = async (c: OracleClients['patina'], sql: string) =>
      c.query(sql).then(
        () => 'no error',
        (e: { code?: string; message?: string; hint?: string; position?: string }) =>
          `${e.code} ${e.message} | ${e.hint} | ${e.position}`,
      );
    for (const sql of [
      'SELECT lower(id) FROM orders',
      'SELECT upper(placed_at) FROM orders',
      'SELECT length(amount) FROM orders',
      'SELECT o.id, substr(o.placed_at::date, 1, 4) FROM orders o',
      "SELECT replace(customer_id, '1', '2') FROM orders",
      'SELECT length(ref) FROM orders',
      'SELECT substring(qty from 1 for 1) FROM line_items',
      "SELECT lpad(qty, 3, '0') FROM line_items",
      "SELECT name FROM customers WHERE lower(id) = '1'",
      'SELECT round(price, 1) FROM line_items',
      'SELECT round(avg(price), 2) FROM line_items',
      'SELECT trunc(2.567::float8, 2)',
      'SELECT sum(note) FROM orders',
      'SELECT avg(paid) FROM orders',
      'SELECT sum(placed_at) FROM orders',
      "SELECT string_agg(qty, ',') FROM line_items",
      "SELECT length(ARRAY['a', 'b'])",
      'SELECT upper(true), lower(1.5), length(1)',
    ]) {
      const [p, g] = [await refusal(o.patina, sql), await refusal(o.postgres, sql)];
      assert.match(g, /^42883 /, sql);
      assert.equal(p, g, sql);
    }
    // what they take: text, varchar, a text column made text, a string literal, bytea; round of a numeric
    await same(
      "SELECT lower(name), length(email), upper(id::text), length('abc'), length('\\x00ff'::bytea), round(price::numeric, 1), round(12.345, 2) FROM customers, line_items WHERE line = 1 ORDER BY customers.id, order_id",
    );
  });
  it('quote_ident, quote_literal and quote_nullable beside a table, quoting as PostgreSQL does', async () => {
    // (they were the catalog connection's only: 42883 on a table's rows; a reserved word and `$` were
    // left bare, a backslash unescaped, a numeric, boolean or timestamp printed as SQLite stores it)
    await same(
      'SELECT quote_ident(name), quote_literal(name), quote_nullable(email), quote_literal(amount), quote_nullable(placed_at), quote_literal(paid), quote_nullable(ref) FROM customers JOIN orders ON orders.customer_id = customers.id ORDER BY orders.id',
    );
    await same(
      "SELECT quote_ident('select'), quote_ident('user'), quote_ident('a$b'), quote_ident('name'), quote_ident('Mixed'), quote_literal(E'a\\\\b''c'), quote_literal(1.50), quote_literal(true), quote_nullable(NULL::int), quote_literal('\\x00ff'::bytea), format('%I.%I', 'public', 'order')",
    );
  });
  it("PostgreSQL 15's regexp_count, regexp_instr, regexp_like and regexp_substr (they were 42883), and the c flag", async () => {
    for (const sql of [
      "SELECT regexp_count('abcabc', 'b'), regexp_count('abcabc', 'b', 3), regexp_count('ABCabc', 'b', 1, 'i'), regexp_count('abc', ''), regexp_count('', ''), regexp_count('aaa', 'a*')",
      "SELECT regexp_like('Abc', 'abc', 'i'), regexp_like('Abc', 'abc'), regexp_like('Abc', '^A'), regexp_like('abc', 'B', 'ic')",
      "SELECT regexp_instr('abcabc', 'c', 1, 2), regexp_instr('abcabc', 'c'), regexp_instr('abcabc', 'x'), regexp_instr('abcabc', 'bc', 1, 1, 1), regexp_instr('abcabc', 'b(c)', 1, 2, 0, '', 1), regexp_instr('abcabc', 'b(c)', 1, 1, 1, '', 1), regexp_instr('abcabc', 'b(c)', 1, 1, 0, '', 2)",
      "SELECT regexp_substr('abcabc', 'b.', 1, 2), regexp_substr('abcabc', 'b.'), regexp_substr('abcabc', 'x'), regexp_substr('abcabc', 'b(.)', 1, 1, '', 1), regexp_substr('abcabc', 'b(.)', 1, 1, '', 2), regexp_substr('ABC', 'b', 1, 1, 'i')",
      "SELECT regexp_instr('héllo wörld', 'ö'), regexp_substr('héllo wörld', 'w.r'), regexp_count('ééé', 'é', 2), regexp_instr('abc', 'c', 10)",
      "SELECT name, regexp_count(name, '[aeiou]'), regexp_like(name, '^b', 'i'), regexp_substr(name, '[a-z]+'), regexp_instr(name, 'n') FROM customers ORDER BY id",
      "SELECT id FROM customers WHERE regexp_like(name, 'nn') ORDER BY id",
      "SELECT regexp_count(NULL, 'a'), regexp_like('a', NULL), regexp_substr('a', 'a', NULL)",
      "SELECT pg_typeof(regexp_count('a', 'a')), pg_typeof(regexp_instr('a', 'a')), pg_typeof(regexp_like('a','a')), pg_typeof(regexp_substr('a','a'))",
      "SELECT regexp_match('ABC', 'b', 'ic'), regexp_replace('ABC', 'b', 'x', 'ci'), regexp_matches('aAa', 'a', 'gi')",
    ])
      await same(sql);
    for (const sql of [
      "SELECT regexp_count('abc', 'b', 0)",
      "SELECT regexp_count('abc', 'b', 1, 'g')",
      "SELECT regexp_like('abc', 'b', 'g')",
      "SELECT regexp_instr('abc', 'b', 1, 0)",
      "SELECT regexp_instr('abc', 'b', 1, 1, 2)",
      "SELECT regexp_instr('abc', 'b', 1, 1, 0, '', -1)",
      "SELECT regexp_substr('abc', 'b', 1, 1, 'z')",
    ])
      await sameMessage(sql);
  });
  it('json_build_object with a key that is no string literal (a number, a column) makes text of it; NULL and an odd count are 22023, as there', async () => {
    // (SQLite's json_object refused a number key with 42000 `labels must be TEXT` and an odd count
    // with 42000 `requires an even number of arguments`)
    for (const sql of [
      'SELECT json_build_object(id, name), jsonb_build_object(id, email), json_build_object(1, 2), jsonb_build_object(2, 1, 1, 2) FROM customers ORDER BY id',
      "SELECT json_build_object('a', 1, 'b', json_build_object(2, 'x')), json_build_object(), jsonb_build_object()",
    ])
      await same(sql);
    for (const sql of [
      "SELECT json_build_object('a', 1, 'b')",
      "SELECT jsonb_build_object('a')",
      'SELECT jsonb_build_object(NULL, 1)',
      'SELECT json_build_object(email, 1) FROM customers ORDER BY id',
    ])
      await sameMessage(sql);
  });
  it('jsonb_set_lax, with each null_value_treatment (it was 42883)', async () => {
    for (const sql of [
      `SELECT jsonb_set_lax('{"a":1,"b":2}', '{a}', NULL), jsonb_set_lax('{"a":1}', '{a}', '5'), jsonb_set_lax('{"a":1}', '{c}', '5', false), jsonb_set_lax('{"a":1,"b":2}', '{a}', NULL, true, 'delete_key'), jsonb_set_lax('{"a":1}', '{a}', NULL, true, 'return_target')`,
      `SELECT jsonb_set_lax(NULL, '{a}', '1'), jsonb_set_lax('{"a":[1,2]}', '{a,0}', NULL, true, 'delete_key'), jsonb_set_lax('{"a":1}', '{a}', '2', true, 'bogus'), pg_typeof(jsonb_set_lax('{}', '{a}', '1'))`,
    ])
      await same(sql);
    for (const sql of [
      `SELECT jsonb_set_lax('{"a":1}', '{a}', NULL, true, 'bogus')`,
      `SELECT jsonb_set_lax('{"a":1}', '{a}', NULL, true, NULL)`,
      `SELECT jsonb_set_lax('1', '{a}', NULL, true, 'delete_key')`,
    ])
      await sameMessage(sql);
    const raised = async (c: OracleClients['patina']) =>
      c.query(`SELECT jsonb_set_lax('{"a":1}', '{a}', NULL, true, 'raise_exception')`).then(
        () => 'no error',
        (e: { code?: string; message?: string; detail?: string; hint?: string }) =>
          `${e.code} ${e.message} | ${e.detail} | ${e.hint}`,
      );
    const [p, g] = [await raised(o.patina), await raised(o.postgres)];
    assert.match(g, /^22004 /);
    assert.equal(p, g);
  });

  it("json_object(text[]) and json_object(keys, values), and jsonb_object, build PostgreSQL's object (SQLite's json_object took the arrays for one key and value, or was 42000)", async () => {
    /** The text each server sends (node-postgres would parse the json) and the column types. */
    const text = (c: OracleClients['patina'], sql: string) =>
      c
        .query({ text: sql, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } })
        .then((r) => ({ rows: r.rows, types: r.fields.map((f) => f.dataTypeID) }));
    for (const sql of [
      `SELECT json_object('{a,1,b,NULL,"c d","x\\"y"}'), json_object('{}'::text[]), json_object('{{a,1},{b,2}}'), pg_typeof(json_object('{a,1}'::text[]))`,
      "SELECT json_object('{a,b}'::text[], '{1,NULL}'::text[]), jsonb_object('{b,1,a,2,b,3}'::text[]), jsonb_object('{b,a}', '{1,2}'), json_object(NULL::text[])",
      "SELECT json_object(ARRAY[name, email]), json_object(ARRAY['id', 'name'], ARRAY[id::text, name]) FROM customers ORDER BY id",
      // inside a builder, an aggregate, a row and a subquery: its text as PostgreSQL lays it out
      "SELECT json_build_object('k', json_object('{a,1}'::text[]), 'j', jsonb_object('{b,2}'::text[])), json_object('{a,1}'::text[]) ->> 'a'",
      "SELECT json_agg(json_object(ARRAY['n', name])) FROM customers",
      "SELECT row_to_json(s), json_build_array(s.o) FROM (SELECT json_object('{a,1}'::text[]) AS o) s",
    ]) {
      const p = await text(o.patina, sql);
      assert.deepEqual(p, await text(o.postgres, sql), sql);
    }
    for (const sql of [
      "SELECT json_object('{a,1,b}'::text[])",
      "SELECT json_object('{{a,1,3},{b,2,4}}')",
      "SELECT json_object('{{{a,1}}}')",
      "SELECT json_object('{NULL,1}')",
      "SELECT json_object('{a,b}', '{1}')",
      "SELECT json_object('{{a,b}}', '{{1,2}}')",
      "SELECT jsonb_object('{a,NULL}', '{1,2}')",
    ])
      await sameMessage(sql);
  });
});
