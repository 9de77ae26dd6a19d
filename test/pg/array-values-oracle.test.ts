// Arrays written and read as PostgreSQL 15 does: a value of another type into an array column is
// 42804 (psycopg2's list of str, ARRAY['1','x'], into bigint[] was stored and replicated), those
// PostgreSQL assigns are converted (ARRAY[1.5, 2.5] into bigint[] is {2,3}), and array text is
// kept in PostgreSQL's form ('{ a , "b" }' is {a,b}, '{t,false}' {t,f}), so output, equality and
// the elements read back match. The same statements on Patina and on a real PostgreSQL 15.
import assert from 'node:assert/strict';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { oracleSuite, psqlOk } from '../helpers/catalog-pair';

const copyStreams = require('pg-copy-streams') as { from(sql: string): Writable; to(sql: string): Readable };

const SCHEMA = `CREATE TABLE arr (id BIGINT NOT NULL PRIMARY KEY, ids BIGINT[], tags TEXT[], nums NUMERIC[], bs BOOLEAN[],
  fs DOUBLE PRECISION[], us UUID[], note TEXT, ds DATE[], ts TIMESTAMP[], tz TIMESTAMPTZ[], tms TIME[], js JSON[],
  jbs JSONB[], ivs INTERVAL[], bbs BYTEA[], b BYTEA);`;

const ROWS = 'SELECT id, ids::text, tags::text, nums::text, bs::text, fs::text, us::text FROM arr ORDER BY id';

describe('array values written and compared, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, []);

  /** The SQLSTATE of `sql` on both servers, which must agree; returned. */
  async function sameError(sql: string, params?: unknown[]): Promise<string> {
    const code = async (c: ReturnType<typeof clients>['patina']) => {
      try {
        await c.query(sql, params);
        return 'none';
      } catch (err) {
        return (err as { code: string }).code;
      }
    };
    const [p, g] = [await code(clients().patina), await code(clients().postgres)];
    assert.equal(p, g, sql);
    return p;
  }

  it('a value of a type PostgreSQL does not assign to the array column is 42804, in every kind of write', async () => {
    await same("INSERT INTO arr (id, ids, tags) VALUES (1, '{1}', '{a}')");
    for (const sql of [
      "INSERT INTO arr (id, ids) VALUES (2, ARRAY['1','x'])",
      "INSERT INTO arr (id, ids) VALUES (2, ARRAY['1','2'])",
      "INSERT INTO arr (id, ids) VALUES (2, ARRAY['1', '2', '3'])",
      'INSERT INTO arr (id, ids) VALUES (2, ARRAY[NULL])',
      "INSERT INTO arr (id, ids) VALUES (2, ARRAY['1'::text])",
      "INSERT INTO arr (id, bs) VALUES (2, ARRAY['t','f'])",
      'INSERT INTO arr (id, bs) VALUES (2, ARRAY[1, 0])',
      "INSERT INTO arr (id, nums) VALUES (2, ARRAY['1.5'])",
      'INSERT INTO arr (id, ids) VALUES (2, 5)',
      "INSERT INTO arr (id, ids) VALUES (2, '{1}'::text[])",
      "INSERT INTO arr VALUES (2, ARRAY['1'])",
      "INSERT INTO arr (id, ids) SELECT 2, ARRAY['1','2']",
      'INSERT INTO arr (id, ids) SELECT 2, tags FROM arr WHERE id = 1',
      "UPDATE arr SET ids = ARRAY['1','2'] WHERE id = 1",
      'UPDATE arr SET ids = tags WHERE id = 1',
      "UPDATE arr SET note = 'x', ids = ARRAY['7'] WHERE id = 1",
      "INSERT INTO arr (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET ids = ARRAY['1']",
      'INSERT INTO arr (id, ids) VALUES (2, $1::text[])',
    ])
      assert.equal(await sameError(sql, sql.includes('$1') ? ['{1}'] : undefined), '42804', sql);
    // ARRAY[$1, $2] of parameters the client left untyped is a text[], as in PostgreSQL
    assert.equal(await sameError('INSERT INTO arr (id, ids) VALUES (2, ARRAY[$1, $2])', ['1', '2']), '42804');
    assert.equal(await sameError('UPDATE arr SET bs = ARRAY[$1] WHERE id = 1', ['t']), '42804');
    // what PostgreSQL reads strictly fails as it does; nothing was written
    assert.equal(await sameError("INSERT INTO arr (id, ids) VALUES (2, ARRAY['1','x']::bigint[])"), '22P02');
    assert.equal(await sameError("INSERT INTO arr (id, ids) VALUES (2, '{1,x}')"), '22P02');
    assert.equal(await sameError("INSERT INTO arr (id, ids) VALUES (2, '{1.5}')"), '22P02');
    assert.equal(await sameError("INSERT INTO arr (id, tags) VALUES (2, '{a,}')"), '22P02');
    assert.equal(await sameError('INSERT INTO arr (id, bs) VALUES (2, $1)', ['{t,maybe}']), '22P02');
    assert.equal(await sameError('INSERT INTO arr (id, ids) VALUES (2, $1)', ['{9223372036854775808}']), '22003');
    await same(ROWS);
  });

  it('what PostgreSQL assigns is converted as it converts it', async () => {
    await same(
      'INSERT INTO arr (id, ids, tags, nums, fs) VALUES (3, ARRAY[1.5, 2.5, -2.5], ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2])',
    );
    await same("INSERT INTO arr (id, ids, tags) VALUES (4, ARRAY['1','2']::bigint[], ARRAY[NULL, 'a'])");
    await same('INSERT INTO arr (id, tags, ids) VALUES (6, ARRAY[$1, $2], ARRAY[$3::bigint])', [' a ', 'b', '7']);
    await same('INSERT INTO arr (id, ids, tags) SELECT 5, ARRAY[7, NULL], ARRAY[1.5]');
    await same("UPDATE arr SET ids = ARRAY[3, 4], tags = ARRAY['x y', 'z'] WHERE id = 1");
    await same('INSERT INTO arr (id, ids) VALUES (1, ARRAY[9]) ON CONFLICT (id) DO UPDATE SET ids = excluded.ids');
    await same(ROWS);
  });

  it('array text is kept in PostgreSQL form, so output, equality and elements match', async () => {
    // simple protocol (the literals lifted), extended with parameters, and casts
    await same(
      `INSERT INTO arr (id, ids, tags, nums, bs, fs, us) VALUES (10, '{ 1 , null ,+3}', '{ a , "b" }', '{1.50, 2, 1e3, NULL}',
        '{t,false, yes ,0}', '{ 1e2 , 1.50,-0.0, Infinity, -inf, NaN, 1e300}', '{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}')`,
    );
    await same('INSERT INTO arr (id, tags, nums, bs, fs, us) VALUES ($1, $2, $3, $4, $5, $6)', [
      11,
      '{NULL, null, "NULL", "", "a b", c\\,d, "e\\"f"}',
      '{+5, -0.0}',
      '{on, off, NULL}',
      '{2.5e-5, 1e16}',
      '{a0eebc999c0b4ef8bb6d6bb9bd380a12}',
    ]);
    // COPY FROM in text format reads them as an INSERT does
    for (const c of [clients().patina, clients().postgres]) {
      const stream = (c as unknown as { query(s: Writable): Writable }).query(
        copyStreams.from('COPY arr (id, tags, bs, nums) FROM STDIN'),
      );
      await pipeline(Readable.from([Buffer.from('12\t{ a , "b c" }\t{yes, NULL}\t{ 1.0 }\n')]), stream);
    }
    await same("UPDATE arr SET tags = '{ x , y }', bs = '{1}'::bool[] WHERE id = 1");
    await same("UPDATE arr SET note = 'n', tags = $1 WHERE id = $2", ['{ p , q }', 4]);
    await same(ROWS);
    await same('SELECT id, tags, nums, bs, fs, us FROM arr WHERE id >= 10 ORDER BY id');
    for (const where of [
      "tags = '{a,b}'",
      "tags = '{ a, b }'",
      "bs = '{t,f,t,f}'",
      "bs = '{true, false, t, f}'",
      "ids = '{1,NULL,3}'",
      "fs @> '{100}'",
      "nums = '{1.50,2,1000,NULL}'",
    ])
      await same(`SELECT id FROM arr WHERE ${where} ORDER BY id`);
    await same('SELECT id FROM arr WHERE tags = $1 ORDER BY id', ['{ a , b }']);
    // ARRAY[true, false] as a boolean array keeps it ({1,0} before); array functions read text as array_in
    await same('SELECT id FROM arr WHERE bs = ARRAY[true, false, true, false] ORDER BY id');
    await same('SELECT ARRAY[true, NULL, false]::text, ARRAY[true] || bs FROM arr WHERE id = 10');
    await same("SELECT id FROM arr WHERE tags @> '{ a }' ORDER BY id");
    // an array an expression builds, made text, prints its elements as their type does ({1,0} before)
    await same(
      `SELECT array_agg(id > 10 ORDER BY id)::text, array_agg(id::float8 * 1e19 ORDER BY id)::text,
        ARRAY(SELECT id > 10 FROM arr ORDER BY id)::text FROM arr`,
    );
    await same("SELECT tags || '{ x }', array_length('{ p , q }'::text[], 1) FROM arr WHERE id = 10");
    await same('SELECT tags[1], tags[2], bs[2], nums[1], fs[3], array_length(tags, 1) FROM arr WHERE id = 10');
    await same(
      `SELECT '{ a , "b" }'::text[]::text, '{1.50, 2e0}'::numeric[]::text, '{t,false}'::bool[]::text,
        '{ 1e2 , 1.50}'::float8[]::text, '{NULL, x}'::text[]::text, '{ a , b }'::text[] = '{a,b}'::text[],
        CAST('{ 1 , 2 }' AS bigint[])`,
    );
    assert.equal(await sameError("SELECT '{1,x}'::bigint[]"), '22P02');
    assert.equal(await sameError("SELECT '{a'::text[]"), '22P02');
  });

  it('numeric arrays compare by value and boolean ones by truth, in =, @>, <@, &&, ANY/ALL, the array functions and ORDER BY', async () => {
    await same(`INSERT INTO arr (id, nums, bs, tags) VALUES (20, '{1.50, 2, NULL}', '{t,f,NULL}', '{1.50}'),
      (21, '{NaN, 1e2, -0.0}', '{true}', '{1.5}'), (22, NULL, NULL, NULL), (23, '{}', '{}', '{}')`);
    for (const where of [
      "nums = '{1.5,2.000,NULL}'",
      "nums = '{1.5, 2, NULL}'::numeric[]",
      'nums = ARRAY[1.5, 2, NULL]',
      "nums <> '{1.5,2,NULL}'",
      "nums = '{NaN,100,0}'",
      "nums @> '{1.5}'",
      "nums <@ '{1.5, 2.0, 3, NaN, 100, 0}'",
      "nums && '{2.00}'",
      "'{100.0}' <@ nums",
      '1.5 = ANY (nums)',
      '100 = ANY (nums)',
      "'NaN' = ANY (nums)",
      '0 = ANY (nums)',
      '1.5 <> ALL (nums)',
      '1.5 < ANY (nums)',
      '99.5 >= ALL (nums)',
      "bs @> '{true}'",
      "bs @> '{yes}'",
      'bs && ARRAY[false]',
      "bs <@ '{t,f}'",
      "bs = '{true,false,NULL}'",
      'true = ANY (bs)',
      'false = ANY (bs)',
      // text arrays still compare as text
      "tags = '{1.5}'",
      "tags @> '{1.5}'",
    ])
      await same(`SELECT id FROM arr WHERE id >= 20 AND ${where} ORDER BY id`);
    await same('SELECT id FROM arr WHERE id >= 20 AND nums = $1 ORDER BY id', ['{1.5,2.0,NULL}']);
    await same('SELECT id FROM arr WHERE id >= 20 AND $1::numeric = ANY (nums) ORDER BY id', ['1.5']);
    await same(`SELECT id, array_position(nums, 2.0), array_replace(nums, 1.5, 9), array_remove(nums, 1.5),
      array_position(bs, false), array_replace(bs, true, false), array_remove(bs, true), array_position(tags, '1.5'),
      array_replace(bs, NULL, true), array_remove(nums, NULL), nums = nums, bs <> bs
      FROM arr WHERE id >= 20 ORDER BY id`);
    // one group, one distinct value: {1.50} and {1.5}, {t} and {true}
    await same("INSERT INTO arr (id, nums, bs) VALUES (26, '{1.5,2,NULL}', '{true,false,NULL}')");
    await same('SELECT count(*), min(id) FROM arr WHERE id >= 20 GROUP BY nums ORDER BY 2');
    await same('SELECT count(*), min(id) FROM arr WHERE id >= 20 GROUP BY bs ORDER BY 2');
    await same('SELECT count(DISTINCT nums), count(DISTINCT bs) FROM arr WHERE id >= 20');
    await same("SELECT id FROM arr WHERE id >= 20 AND nums IN ('{1.5,2,NULL}', '{3}') ORDER BY id");
    await same(
      "SELECT id, nums NOT IN ('{1.5,2,NULL}'::numeric[]), bs IN (ARRAY[true]) FROM arr WHERE id >= 20 ORDER BY id",
    );
    await same('DELETE FROM arr WHERE id = 26');
    // arrays of numbers, booleans and text ordered by their elements ('{9}' before '{10}', '{}' first)
    await same(
      "INSERT INTO arr (id, ids, nums, fs, bs) VALUES (24, '{10}', '{10}', '{10}', '{t,NULL}'), (25, '{9,1}', '{9,1}', '{9.5}', '{f,t}')",
    );
    for (const order of ['nums', 'nums DESC', 'ids', 'fs DESC', 'bs NULLS FIRST', '2', 'tags'])
      await same(`SELECT id, nums FROM arr WHERE id >= 20 ORDER BY ${order}, id`);
    await same("SELECT id FROM arr WHERE id >= 20 AND (nums < '{9.5}' OR ids >= '{9}' OR bs > '{f}') ORDER BY id");
    // max() and min() by the same order, over a window too (they picked by the text: max(nums) was {NaN,100,0} before {9,1})
    await same(
      'SELECT max(nums), min(nums), max(ids), min(ids), max(fs), min(fs), min(bs), max(bs), max(tags), min(tags) FROM arr WHERE id >= 20',
    );
    await same(
      'SELECT id, max(nums) OVER (ORDER BY id), min(ids) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM arr WHERE id >= 20 ORDER BY id',
    );
    await same("SELECT max(x), min(x) FROM (VALUES (ARRAY['b']), (ARRAY['ab']), (ARRAY[]::text[]), (NULL)) v(x)");
    await same('SELECT max(x), min(x) FROM (VALUES (ARRAY[10, 1]), (ARRAY[9]), (ARRAY[10])) v(x)');
    // a boolean array made text[] says true and false, as boolean's cast to text does
    await same(
      'SELECT ARRAY[true]::text[], ARRAY[true, NULL, false]::text[]::text, CAST(ARRAY[false] AS varchar[]), bs::text[] FROM arr WHERE id >= 20 ORDER BY id',
    );
    await same('SELECT array_agg(id > 21 ORDER BY id)::text[] FROM arr WHERE id >= 20');
    // an ARRAY[...] of booleans or numerics written in the statement: by value too (array_position of
    // ARRAY[true, false] found no true, array_remove removed nothing)
    await same(
      'SELECT array_position(ARRAY[true, false, true], true), array_remove(ARRAY[true, false], true), array_replace(ARRAY[true, false], true, false), array_positions(ARRAY[false, true, false], false)',
    );
    await same('SELECT array_position(ARRAY[1.5, 2.50], 2.5), array_remove(ARRAY[1.0, 2], 1)');
    assert.equal(await sameError("SELECT id FROM arr WHERE nums @> '{x}'"), '22P02');
    // a NULL array: ANY and ALL are NULL
    await same('SELECT 1 = ANY (NULL::bigint[]), 1 <> ALL (NULL::bigint[]), 1 < ALL (NULL::bigint[]) IS NULL');
  });

  it('arrays of intervals and bytea are kept in PostgreSQL form', async () => {
    // (they were kept as written: '{1 day 2 hours}' where PostgreSQL prints {"1 day 02:00:00"})
    await same(`INSERT INTO arr (id, ivs, bbs) VALUES (50, '{1 day 2 hours, "1 mon", NULL, -1 days +3 hours, PT1H}',
      '{"\\\\x0102", abc, "a\\\\\\\\b"}'), (51, ARRAY['1 day'::interval, '36 hours'], ARRAY['\\x01'::bytea])`);
    await same('INSERT INTO arr (id, ivs, bbs) VALUES ($1, $2, $3)', [52, '{ 2 weeks , 90 minutes}', '{"\\\\xff"}']);
    await same('SELECT id, ivs::text, bbs::text, ivs[1]::text, ivs[2], bbs[1] FROM arr WHERE id >= 50 ORDER BY id');
    await same('SELECT id, ivs, bbs FROM arr WHERE id >= 50 ORDER BY id');
    await same(
      `SELECT id FROM arr WHERE ivs = '{"1 day 02:00:00","1 mon",NULL,"-1 days +03:00:00","01:00:00"}'
        OR ivs = '{ 1 day, 36 hours }' OR bbs = '{"\\\\xFF"}' ORDER BY id`,
    );
    await same(`SELECT '{1 day 2 hours}'::interval[]::text, '{"\\\\x0102", abc}'::bytea[]::text,
      ARRAY['1 day 1 hour'::interval]::text`);
    assert.equal(await sameError("SELECT '{x}'::interval[]"), '22007');
    assert.equal(await sameError('SELECT \'{"\\\\q"}\'::bytea[]'), '22P02');
  });

  it('subscripts, slices and the array functions read multi-dimensional arrays as PostgreSQL does', async () => {
    await same(`INSERT INTO arr (id, ids, tags, nums) VALUES (40, '{{1,2},{3,4}}', '{{"a b",c},{NULL,d}}', '{{1.50}}'),
      (41, '{{5,6,7},{8,9,10}}', '{x}', '{{{1},{2}},{{3},{4}}}'), (42, '{1,2,3}', NULL, '{}'), (43, NULL, '{}', NULL)`);
    // (they were NULL, or pieces of the text: m[1:2] was {"{1","2}"})
    await same(
      'SELECT id, ids[1][2], ids[2][1], ids[1], ids[2][3], ids[3][1], ids[0][1], ids[1][2][1], tags[2][2], nums[1][1], nums[2][1][1] FROM arr WHERE id >= 40 ORDER BY id',
    );
    await same(
      'SELECT id, ids[1:2], ids[1:1][1:2], ids[2:2], ids[1:1][2], ids[:1][2:], ids[2][2:3], ids[1:], ids[3:4], ids[2:1] FROM arr WHERE id >= 40 ORDER BY id',
    );
    await same(
      'SELECT id, tags[1:2][1:1]::text, nums[1:2][2:3][1]::text, ids[NULL][1], ids[1:NULL], ids[1][NULL:2] FROM arr WHERE id >= 40 ORDER BY id',
    );
    await same('SELECT id FROM arr WHERE ids[1][2] = 2 OR ids[2][3] > 9 ORDER BY id');
    await same(`SELECT id, array_length(ids, 1), array_length(ids, 2), array_length(nums, 3), array_upper(ids, 2),
      array_lower(ids, 2), cardinality(ids), array_ndims(ids), array_ndims(nums), array_length(tags, 1) FROM arr WHERE id >= 40 ORDER BY id`);
    // ARRAY[[1,2],[3,4]] and ARRAY[ARRAY[...], ...] build one (they were 42703, or text elements)
    await same(`SELECT (ARRAY[[1,2],[3,4]])[2][1], ('{{1,2},{3,4}}'::int[])[1:1][2:2], ARRAY[ARRAY['a','b'], ARRAY['c', NULL]],
      ARRAY[[true],[false]]::text, ARRAY[[[1],[2]],[[3],[4]]]::text`);
    await same('UPDATE arr SET ids = ARRAY[[7, 8], [9, 10]] WHERE id = 42');
    await same('SELECT ids::text, ids[2][1] FROM arr WHERE id = 42');
    assert.equal(await sameError('SELECT ARRAY[[1,2],[3]]'), '2202E');
  });

  it('unnest, ANY, @>, <@, && and array_to_string read every element of a multi-dimensional array', async () => {
    await same(`INSERT INTO arr (id, ids, tags, nums) VALUES (60, '{{1,2},{3,4}}', '{{"a b",c},{NULL,d}}', '{{1.50},{2}}'),
      (61, '{{{5},{6}},{{7},{8}}}', '{{x,y}}', '{1.5}')`);
    // (they read the first level only: unnest gave the pieces '{1', '2}', ..., @> was false)
    await same('SELECT id, unnest(ids) FROM arr WHERE id >= 60 ORDER BY id');
    await same('SELECT a.id, u.v FROM arr a, unnest(a.tags) AS u(v) WHERE a.id >= 60 ORDER BY a.id, u.v');
    await same('SELECT u FROM unnest(ARRAY[[1,2],[3,4]]) AS u');
    await same(`SELECT id, ids @> '{4}', ids @> '{{4}}', ids @> ARRAY[1, 3]::bigint[], '{2,3}' <@ ids, ids && '{8,9}',
      tags @> '{d}', tags && ARRAY['a b'], nums @> '{1.5}', nums && ARRAY[2.0] FROM arr WHERE id >= 60 ORDER BY id`);
    await same('SELECT id FROM arr WHERE 3 = ANY (ids) OR 7 = ANY (ids) ORDER BY id');
    await same('SELECT id FROM arr WHERE id >= 60 AND 9 > ALL (ids) ORDER BY id');
    await same(
      "SELECT id, array_to_string(ids, ','), array_to_string(tags, '|', '*') FROM arr WHERE id >= 60 ORDER BY id",
    );
    // array_replace keeps the shape (it printed pieces of the text)
    await same(
      "SELECT id, array_replace(ids, 3, 30), array_replace(tags, NULL, 'n'), array_replace(nums, 1.5, 9) FROM arr WHERE id >= 60 ORDER BY id",
    );
    // ARRAY[a, b] of arrays is one of more dimensions (it made text elements: {"{1,2}","{1,2}"})
    await same(`SELECT id, ARRAY[ids, ids], ARRAY[tags, tags]::text, (ARRAY[ids, ids])[2][1]
      FROM arr WHERE id = 42 OR id = 10 ORDER BY id`);
    await same("SELECT ARRAY['{5}'::bigint[], ids[1:1]], ARRAY[ARRAY[1, 2], '{3,4}'::int[]] FROM arr WHERE id = 10");
    await same('SELECT u.v FROM arr, unnest(ARRAY[ids, ids]) AS u(v) WHERE id = 42');
    assert.equal(await sameError("SELECT ARRAY[ARRAY[1, 2], NULL, '{}']"), '2202E');
    assert.equal(await sameError('SELECT ARRAY[ids, NULL] FROM arr WHERE id = 10'), '2202E');
    await same("SELECT ARRAY[NULL::int[], '{}']::text");
    await same('UPDATE arr SET ids = ARRAY[ids, ids] WHERE id = 10');
    await same('SELECT ids FROM arr WHERE id = 10');
    // || and array_cat join along the first dimension (they joined pieces of text)
    await same(`SELECT ARRAY[[1,2]] || ARRAY[[3,4]], ARRAY[[1,2]] || ARRAY[3,4], ARRAY[1,2] || ARRAY[[3,4]],
      array_cat(ARRAY[[1,2]], ARRAY[[3,4]]), '{}'::int[] || ARRAY[[1]], ARRAY[[1]] || NULL::int[]`);
    await same("SELECT ids || ids, ids || '{7,8}'::bigint[], array_cat(tags, tags) FROM arr WHERE id = 60");
    assert.equal(await sameError('SELECT ARRAY[[1,2]] || ARRAY[[3]]'), '2202E');
    assert.equal(await sameError('SELECT array_cat(ARRAY[[1,2]], ARRAY[3,4,5])'), '2202E');
    // PostgreSQL's array_position and array_remove take one dimension only
    assert.equal(await sameError('SELECT array_remove(ids, 3) FROM arr WHERE id = 60'), '0A000');
    assert.equal(await sameError('SELECT array_remove(nums, 2) FROM arr WHERE id = 60'), '0A000');
    assert.equal(await sameError("SELECT array_position('{{1,2},{3,4}}'::int[], 3)"), '0A000');
    assert.equal(await sameError('SELECT array_position(ids, 3) FROM arr WHERE id = 60'), '0A000');
    assert.equal(await sameError('SELECT array_position(nums, 2) FROM arr WHERE id = 60'), '0A000');
    // array_append, array_prepend and || of an element take one dimension only (they read the first level's pieces of text)
    for (const sql of [
      'SELECT array_append(ids, 5) FROM arr WHERE id = 60',
      "SELECT array_prepend('z', tags) FROM arr WHERE id = 60",
      "SELECT array_append('{{1,2},{3,4}}'::int[], 5)",
      'SELECT ids || 5::bigint FROM arr WHERE id = 60',
      'SELECT 5::bigint || ids FROM arr WHERE id = 60',
      'SELECT ARRAY[[1,2]] || 3',
    ])
      assert.equal(await sameError(sql), '22000');
    await same(
      "SELECT array_append(ids, 5), array_prepend('z', tags), tags || 'y'::text, array_append('{1,2}'::int[], 3) FROM arr WHERE id = 43",
    );
  });

  it('a function returning one value in FROM, named alone, is that value of its type (unnest(a) AS u(v): u was a record)', async () => {
    await same('SELECT u FROM unnest(ARRAY[1,2]) AS u(v)');
    await same("SELECT u, u.v FROM unnest(ARRAY['a','b']) AS u(v)");
    await same('SELECT g FROM generate_series(1, 3) AS g(x) ORDER BY g DESC');
    await same('SELECT j FROM jsonb_array_elements_text(\'["a","b"]\') AS j(x)');
    await same('SELECT a.id, u FROM arr a, unnest(a.ids) AS u(v) WHERE a.id = 42 ORDER BY u');
  });

  it('arrays of dates, times and json, and multi-dimensional arrays, are kept in PostgreSQL form', async () => {
    await same(`INSERT INTO arr (id, ds, ts, tz, tms, js, jbs) VALUES (30, '{2024-1-5, NULL, infinity, 0044-03-15 BC}',
      '{2024-01-05 01:02:03.50, 2024-1-5}', '{2024-01-05 01:02:03+02}', '{01:02, 10:30:00.5}',
      '{"{\\"a\\" : 1}", "[1, 2]"}', '{"{\\"b\\":2, \\"a\\" : 1}"}')`);
    await same('INSERT INTO arr (id, ds, ts, tz, tms, js, jbs) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      31,
      '{2024-1-6}',
      '{ 2024-01-06 01:02:03 }',
      '{2024-01-06 01:02:03-05}',
      '{ 23:59 }',
      '{"{}"}',
      '{"{\\"b\\":[1, 2 ]}"}',
    ]);
    await same(`INSERT INTO arr (id, ids, tags) VALUES (32, '{{1,2},{3,4}}', '{{ a , "b" },{NULL,d}}')`);
    await same(
      'SELECT id, ds::text, ts::text, tz::text, tms::text, js::text, jbs::text, ids::text, tags::text FROM arr WHERE id >= 30 ORDER BY id',
    );
    await same('SELECT id, ds, ts, tz, tms, js, jbs, ids, tags FROM arr WHERE id >= 30 ORDER BY id');
    await same(
      "SELECT id FROM arr WHERE ds = '{2024-01-05,NULL,infinity,0044-03-15 BC}' OR ids = '{{1,2},{ 3,4}}' ORDER BY id",
    );
    await same('SELECT id, ds[1], ds[4], tms[1], jbs[1]::text FROM arr WHERE id >= 30 ORDER BY id');
    // COPY reads them as an INSERT does and writes them as PostgreSQL prints them (a year BC, +00)
    const copied: string[] = [];
    for (const c of [clients().patina, clients().postgres]) {
      const query = <T>(s: T): T => (c as unknown as { query<U>(s: U): U }).query(s);
      const rows = '34\t{0001-01-01 BC,infinity}\t{2024-01-05 01:02:03-05}\t{"[1,2]"}\t{{ 5 },{6}}\n';
      await pipeline(
        Readable.from([Buffer.from(rows)]),
        query(copyStreams.from('COPY arr (id, ds, tz, jbs, ids) FROM STDIN')),
      );
      const out: Buffer[] = [];
      for await (const chunk of query(
        copyStreams.to('COPY (SELECT id, ds, tz, jbs, ids FROM arr WHERE id >= 30 ORDER BY id) TO STDOUT'),
      ))
        out.push(chunk as Buffer);
      copied.push(Buffer.concat(out).toString());
    }
    assert.equal(copied[0], copied[1]);
    assert.match(copied[0], /^34\t\{"0001-01-01 BC",infinity\}/m);
    await same(`SELECT '{2024-1-5}'::date[]::text, '{2024-01-05 01:02:03}'::timestamp[]::text, '{01:02}'::time[]::text,
      '{{ 1 , 2 },{3,4}}'::int[]::text, '{{"a b",c},{d,NULL}}'::text[]::text, '{{{1},{2}},{{3},{4}}}'::int[]::text`);
    // bad elements and shapes fail as array_in does
    for (const [sql, code] of [
      ["SELECT '{2024-13-5}'::date[]", '22008'],
      ["SELECT '{25:00}'::time[]", '22008'],
      ["SELECT '{x}'::date[]", '22007'],
      ['SELECT \'{"{x"}\'::json[]', '22P02'],
      ["SELECT '{{1,2},{3}}'::int[]", '22P02'],
      ["SELECT '{1,{2}}'::int[]", '22P02'],
      ["SELECT '{{},{}}'::int[]", '22P02'],
      ["SELECT '{{1,x}}'::int[]", '22P02'],
      ["INSERT INTO arr (id, ds) VALUES (33, '{2024-02-30}')", '22008'],
      ["INSERT INTO arr (id, ids) VALUES (33, '{{1},{2,3}}')", '22P02'],
    ])
      assert.equal(await sameError(sql), code, sql);
  });

  it('bytea keeps its bytes in arrays, string_agg and json, in hex and escape output', async () => {
    // (array_agg of '\x41ff' was {"\\x41efbfbd"}: the bytes read as UTF-8; string_agg of bytea was
    // text cut at the NUL; to_json('\x41'::bytea) was 'JSON cannot hold BLOB values')
    await same("INSERT INTO arr (id, b) VALUES (900, '\\x00415c7f80ff'), (901, '\\x'), (902, NULL), (903, '\\x41ff')");
    await same("UPDATE arr SET bbs = ARRAY[b, '\\x41'::bytea] WHERE id IN (900, 903)");
    const of = 'FROM arr WHERE id >= 900';
    const statements = [
      `SELECT array_agg(b ORDER BY id), array_agg(b ORDER BY id)::text ${of}`,
      `SELECT ARRAY(SELECT b ${of} ORDER BY id)`,
      `SELECT array_length(array_agg(b), 1), (array_agg(b ORDER BY id))[1], (array_agg(b ORDER BY id))[4] ${of}`,
      `SELECT x FROM unnest((SELECT array_agg(b ORDER BY id) ${of})) x`,
      `SELECT string_agg(b, '\\x2c'::bytea ORDER BY id), string_agg(b, NULL ORDER BY id) ${of}`,
      `SELECT id, ARRAY[b], ARRAY[b, '\\x80'::bytea], bbs, bbs::text ${of} ORDER BY id`,
      "SELECT to_json('\\x41'::bytea), to_jsonb('\\x00ff'::bytea), ARRAY['\\x41'::bytea, '\\x00ff']",
      `SELECT to_json(b), json_build_object('b', b, 'bs', bbs), json_build_array(b, ARRAY[b]) ${of} ORDER BY id`,
      `SELECT json_agg(b ORDER BY id), jsonb_agg(b ORDER BY id), json_agg(bbs ORDER BY id) ${of}`,
      `SELECT row_to_json(a) FROM (SELECT id, b, bbs ${of}) a ORDER BY id`,
      `SELECT to_json(s) FROM (SELECT b || '\\x00'::bytea AS x ${of}) s ORDER BY x`,
      `SELECT id, '\\x41'::bytea = ANY (bbs), array_position(bbs, '\\x41'::bytea), array_remove(bbs, '\\x41'::bytea) ${of} ORDER BY id`,
    ];
    const { pair } = clients();
    for (const set of [[], ['SET bytea_output = escape']]) {
      const [p, g] = [pair.patinaPort, pair.postgresPort].map((port) => psqlOk(port, [...set, ...statements], ['-A']));
      assert.deepEqual(p.split('\n'), g.split('\n'), set.join());
    }
    // the bytes themselves, as node-postgres reads bytea and bytea[] (Buffers)
    await same(
      `SELECT (array_agg(b ORDER BY id))[1], string_agg(b, '\\x2c'::bytea ORDER BY id), array_agg(b ORDER BY id) ${of}`,
    );
  });

  it("a json[] or jsonb[] column in a json builder or row keeps its elements' text, a jsonb one's as jsonb prints it (they were compacted)", async () => {
    await same(`INSERT INTO arr (id, js, jbs) VALUES
      (950, ARRAY['{"b": 1,  "a": 2}'::json, '[1,  2]'], ARRAY['{"b": 1, "a": 2}'::jsonb, '[1,2]']),
      (951, NULL, '{}'), (952, ARRAY[NULL::json, '"s"'], ARRAY[NULL::jsonb, '{"k": [1,{"z":null}]}'])`);
    const of = 'FROM arr WHERE id >= 950';
    const statements = [
      `SELECT id, json_build_array(jbs), json_build_array(js, id) ${of} ORDER BY id`,
      `SELECT json_build_object('a', js, 'b', a.jbs) FROM arr a WHERE id >= 950 ORDER BY id`,
      `SELECT json_agg(jbs ORDER BY id), json_agg(js ORDER BY id) ${of}`,
      `SELECT row_to_json(a), to_json(a) FROM (SELECT id, js, jbs ${of}) a ORDER BY id`,
      `WITH w AS (SELECT id, jbs ${of}) SELECT json_agg(w ORDER BY id) FROM w`,
    ];
    // (as text: node-postgres would parse the json)
    const { pair } = clients();
    const [p, g] = [pair.patinaPort, pair.postgresPort].map((port) => psqlOk(port, statements, ['-A']));
    assert.deepEqual(p.split('\n'), g.split('\n'));
    assert.match(p, /\n950\|\[\[\{"a": 2, "b": 1\},\[1, 2\]\]\]\|/);
  });

  it('array_agg of arrays is an array of one more dimension, with PostgreSQL errors for NULL, empty and unlike arrays (it was a text[] of their texts)', async () => {
    await same(`INSERT INTO arr (id, ids, tags, nums) VALUES (860, '{1,10}', '{"a b",c}', '{1.50,2}'),
      (861, '{2,1}', '{NULL,"\\""}', '{3,4}'), (862, '{9}', '{}', NULL)`);
    for (const sql of [
      'SELECT array_agg(ids ORDER BY id), array_agg(tags ORDER BY id), array_agg(nums ORDER BY id) FROM arr WHERE id IN (860, 861)',
      'SELECT array_agg(ARRAY[1, 2]), (array_agg(ids ORDER BY id DESC))[2][1] FROM arr WHERE id IN (860, 861)',
      'SELECT array_agg(x) FROM (VALUES (ARRAY[[1,2]]), (ARRAY[[3,4]])) v(x)',
      'SELECT array_agg(ids) FROM arr WHERE id = 0',
      // ARRAY(SELECT ...) of arrays likewise, of no rows {}
      'SELECT ARRAY(SELECT ids FROM arr WHERE id IN (860, 861) ORDER BY id), ARRAY(SELECT ARRAY[1, 2]), ARRAY(SELECT tags FROM arr WHERE id = 0)',
    ])
      await same(sql);
    for (const sql of [
      'SELECT array_agg(ids) FROM arr WHERE id BETWEEN 860 AND 862',
      'SELECT array_agg(nums) FROM arr WHERE id BETWEEN 860 AND 862',
      'SELECT array_agg(tags) FROM arr WHERE id BETWEEN 860 AND 862',
      'SELECT array_agg(x) FROM (VALUES (ARRAY[[1,2]]), (ARRAY[3,4])) v(x)',
      'SELECT ARRAY(SELECT ids FROM arr WHERE id BETWEEN 860 AND 862 ORDER BY id)',
    ])
      assert.match(await sameError(sql), /^(2202E|22004)$/, sql);
    await same('DELETE FROM arr WHERE id BETWEEN 860 AND 862');
  });
});
