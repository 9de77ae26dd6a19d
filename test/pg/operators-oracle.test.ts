// PostgreSQL's operators that SQLite has not, or reads otherwise, on Patina and on PostgreSQL 15:
// each with literals and with stored values (the translation reaches them by different paths).
// Found by a differential probe of pg_operator (every operator whose operand types Patina has,
// with edge values); what it found and these cases cover: a sign before the left operand of `#`
// (`-7 # 0` was a syntax error), `-` of an interval column (SQLite's -'1 day' is -1), NULL / 0
// (22012 where PostgreSQL's strict division gives NULL), `@`, `|/`, `||/`, `^@`, `~<~` and its
// kin, integer shifts past the width or by a negative count, bytea's LIKE (the blob read as text),
// jsonb's ordering (by its text), keys of `->` SQLite reads as a path, NULLs in jsonb's key lists.
import assert from 'node:assert/strict';
import { oracleSuite } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE ops (id BIGINT NOT NULL PRIMARY KEY, i int4, s int2, n int8, t TEXT,
  iv INTERVAL, b BYTEA, jb JSONB, keys TEXT[], nm NUMERIC,
  ia INT4[], r FLOAT4);
CREATE TABLE kw (id BIGINT NOT NULL PRIMARY KEY, by BYTEA, "set" BIGINT);`;

const ROWS = [
  `INSERT INTO ops VALUES (1, -7, -3, -1, 'abc', '1 day 2 hours', '\\x00ff', '{"a": [1, 2], "b": "x"}', '{a,NULL}', -1.5, '{1,2}', 1.5),
    (2, NULL, 5, 9223372036854775807, '', '-1 year 2 mons -3 days 04:05:06.5', '\\x', '[]', '{b}', 2.5, '{}', -0.5),
    (3, 2147483647, NULL, NULL, 'a%', NULL, '\\x61256263', '{"": 1, "$a": 2, "\\"q": 3, "a.b": 4}', '{}', NULL, NULL, NULL)`,
  `INSERT INTO kw VALUES (1, '\\x00ff', 5), (2, NULL, NULL)`,
];

describe('operators SQLite has not or reads otherwise, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);

  it('a sign before the left operand of #, and of a date + integer, is part of that operand', async () => {
    for (const sql of [
      'SELECT -7 # 0, 1 + -7 # 3, -1::int8 # 9223372036854775807',
      "SELECT -7 + '2024-02-29'::date, -i # s FROM ops ORDER BY id",
    ])
      await same(sql);
  });

  it('-x of an interval column negates each field', async () => {
    await same('SELECT id, -iv, - iv * 2, -(iv) FROM ops ORDER BY id');
    await same("SELECT id FROM ops WHERE -iv < '0 days' ORDER BY id");
  });

  it('a division or remainder by zero of NULL is NULL (PostgreSQL does not divide), of a value 22012', async () => {
    for (const sql of [
      'SELECT NULL::int4 / 0, NULL::int8 % 0, 2 * NULL::int / 0',
      'SELECT id, i / 0 FROM ops WHERE i IS NULL',
      'SELECT id, s % 0, n / (s - s) FROM ops WHERE s IS NULL',
      'SELECT i / (s - s) FROM ops WHERE id = 3',
    ])
      await same(sql);
    for (const sql of ['SELECT i / 0 FROM ops WHERE id = 1', 'SELECT i % (s - s) FROM ops WHERE id = 1'])
      await sameError(sql, '22012');
  });

  it('prefix @, |/ and ||/ are abs, sqrt and cbrt, their operand running through arithmetic', async () => {
    for (const sql of [
      'SELECT @ -7, @ -1.50, |/ 25 + 11, |/ 2, ||/ -8, @ 2 - 5',
      'SELECT id, @ i, @ s + 1, |/ (n * n)::float8 FROM ops WHERE id = 1',
    ])
      await same(sql);
    await sameError('SELECT |/ -1::float8', '2201F');
  });

  it('integer shifts take the count modulo the width and keep the left operand type', async () => {
    for (const sql of [
      'SELECT -7 << -7, 2147483647 << 2147483647, -1::int8 << -7, -7 >> -7, 3 << 1 + 1, 1 << 31',
      'SELECT id, s << i, s >> i, n << i, i >> 40, s << 16 FROM ops ORDER BY id',
    ])
      await same(sql);
  });

  it('^@ is starts-with; ~<~, ~<=~, ~>~, ~>=~ compare bytes', async () => {
    for (const sql of [
      "SELECT 'abc' ^@ 'ab', 'abc' ^@ '', 'a' ~<~ 'b', 'é' ~>~ 'z', 'ab' ~<=~ 'ab', 'B' ~>=~ 'a'",
      "SELECT id, t ^@ 'a', t ~<~ 'abd', t ~>=~ '' FROM ops ORDER BY id",
    ])
      await same(sql);
  });

  it("bytea's LIKE matches bytes (a zero byte, % and _ per byte, ESCAPE)", async () => {
    for (const sql of [
      "SELECT '\\x00ff'::bytea LIKE '\\x00ff'::bytea, 'abc'::bytea LIKE 'a%', 'a%c'::bytea LIKE 'a#%c'::bytea ESCAPE '#'::bytea, 'aXb'::bytea NOT LIKE 'a_b'",
      "SELECT id, b LIKE b, b NOT LIKE b, b LIKE 'a%', b ~~ b, b !~~ 'a%'::bytea FROM ops ORDER BY id",
      "SELECT id FROM ops WHERE b LIKE '%' AND b NOT LIKE 'x%' ORDER BY id",
      "SELECT id, '\\x00ff' ~~ b, '\\x' !~~ b FROM ops ORDER BY id",
    ])
      await same(sql);
  });

  it('jsonb <, <=, >, >= order as jsonb does (objects above arrays above scalars, sizes first)', async () => {
    for (const sql of [
      `SELECT '{"a": 1, "b": 2}'::jsonb < '{"c": 1}'::jsonb, '[]'::jsonb < '"a"'::jsonb, '[1, "2", null]'::jsonb < 'null'::jsonb, '{}'::jsonb > '[9]'::jsonb, '2'::jsonb >= '10'::jsonb`,
      `SELECT a.id, b.id, a.jb < b.jb, a.jb >= b.jb FROM ops a, ops b ORDER BY 1, 2`,
      `SELECT id FROM ops WHERE jb > '[]' ORDER BY id`,
    ])
      await same(sql);
  });

  it("jsonb's -> and ->> find keys SQLite would read as a path ('', '$a', a quote)", async () => {
    for (const sql of [
      `SELECT '{"": 1}'::jsonb -> '', '{"$a": 1}'::jsonb -> '$a', '{"\\"q": 1}'::jsonb ->> '"q', '{"a.b": 1}'::jsonb ->> 'a.b'`,
      `SELECT id, jb -> '', jb ->> '$a', jb -> '"q', jb ->> 'a.b', jb -> t, jb -> 'a'::text ->> 0 FROM ops ORDER BY id`,
    ])
      await same(sql);
  });

  it('jsonb - text[] skips NULL keys; #- is the document itself when empty, 22004 at a NULL step', async () => {
    for (const sql of [
      `SELECT '{"a": [1, 2], "b": "x"}'::jsonb - '{a,NULL}'::text[], '[]'::jsonb #- '{a,b}', '{}'::jsonb #- '{NULL}'`,
      'SELECT id, jb - keys FROM ops ORDER BY id',
    ])
      await same(sql);
    for (const sql of [`SELECT '{"a": 1}'::jsonb #- '{a,NULL}'`, 'SELECT jb #- keys FROM ops WHERE id = 1'])
      await sameError(sql, '22004');
  });

  it("bytea || of a column named as a keyword (by) joins the bytes (the statement was not analysed: SQLite's || made text of the blob, 0xff became U+FFFD's bytes, also when stored)", async () => {
    for (const sql of [
      'SELECT id, by || by FROM kw ORDER BY id',
      "SELECT id, by || '\\x01'::bytea, length(by || by) FROM kw ORDER BY id",
      'SELECT id, b || b FROM ops ORDER BY id',
    ])
      await same(sql);
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) await c.query('UPDATE kw SET by = by || by WHERE id = 1');
    await same('SELECT id, by FROM kw ORDER BY id');
  });

  it('a column named by or set (words the translation read as keywords) is cast, compared, sorted and assigned as any column (by::text was 42601 at the ::, SET set = ... a syntax error)', async () => {
    for (const sql of [
      "SELECT id, by::text, kw.by::text, CAST(by AS text), set::text, set + 1, set || 'x' FROM kw ORDER BY id",
      "SELECT id FROM kw WHERE by::text = '\\x00ff' OR set::int = 5 ORDER BY by::text, set DESC",
      'SELECT s.by::text, s.set::text FROM (SELECT by, set FROM kw) s ORDER BY 1',
    ])
      await same(sql);
    const { patina, postgres } = clients();
    for (const c of [patina, postgres]) {
      await c.query('UPDATE kw SET set = set + 1 WHERE by::text IS NOT NULL');
      await c.query('INSERT INTO kw (id, set, by) VALUES (3, 7, NULL)');
      await c.query(
        'INSERT INTO kw (id, set) VALUES (3, 8) ON CONFLICT (id) DO UPDATE SET set = excluded.set + kw.set',
      );
    }
    await same('SELECT id, by, set FROM kw ORDER BY id');
  });

  it('a string literal beside an interval, a time or an integer is read as PostgreSQL resolves it', async () => {
    for (const sql of [
      "SELECT id, iv + '1 hour', '1 hour' + iv, iv - '1 day', iv * '1.5', '2' * iv, iv / '2' FROM ops ORDER BY id",
      "SELECT '10:30'::time + '1 hour', '10:30'::time - '09:00'",
      "SELECT id, i # '3', '3' # s, i & '6', '3' | s FROM ops ORDER BY id",
    ])
      await same(sql);
    await sameError("SELECT iv + 'abc' FROM ops", '22007');
    await sameError("SELECT '10:30'::time - '1 hour'", '22007');
    // text that is no number beside one is 22P02 (SQLite computed with 0)
    for (const sql of ["SELECT i - 'abc' FROM ops", "SELECT '1 day' * n FROM ops", "SELECT i # 'x' FROM ops"])
      await sameError(sql, '22P02');
  });

  it('-NaN of a cast literal is NaN (SQLite negated the text: 0)', async () => {
    await same("SELECT - 'NaN'::float8, - 'NaN'::numeric, - 'Infinity'::float8, -'-Infinity'::numeric");
  });

  it('a string literal beside an integer shift is an integer: the count, or what is shifted', async () => {
    for (const sql of [
      "SELECT id, i << '-7', '-7' << i, i >> '-1', '2147483647' >> i, s << '-1', n << '3' FROM ops ORDER BY id",
      "SELECT '-7' << i IS NULL, pg_typeof('1' << i) FROM ops ORDER BY id",
    ])
      await same(sql);
    await sameError("SELECT i << 'x' FROM ops", '22P02');
    await sameError("SELECT '9223372036854775807' << i FROM ops", '22003');
  });

  it("a string literal past an integer's range beside it is 22003 (compared, in arithmetic, shifted)", async () => {
    for (const sql of [
      "SELECT i = '9223372036854775807' FROM ops",
      "SELECT id FROM ops WHERE s < '2147483647'",
      "SELECT i / '9223372036854775807' FROM ops",
      "SELECT '99999' + s FROM ops",
      "SELECT n = '9223372036854775808' FROM ops",
    ])
      await sameError(sql, '22003');
    await same("SELECT id, i = '2147483647', s > '-32768', n = '-9223372036854775808' FROM ops ORDER BY id");
  });

  it('a string literal minus text or text[] is jsonb minus keys (SQLite subtracted numbers: 0)', async () => {
    await same(`SELECT id, '{"a": 1, "abc": 2}' - t, '{"a": [1, 2], "b": "x"}' - keys FROM ops ORDER BY id`);
    await same(`SELECT '{"a": 1, "b": 2}' - 'a'::text, '["a", "b"]' - '{a}'::text[]`);
    await sameError(`SELECT '{"a": 1' - t FROM ops`, '22P02');
  });

  it("a decimal string literal beside a numeric is exact numeric's (division and power at PostgreSQL's scale)", async () => {
    for (const sql of [
      "SELECT id, '2.5' / nm, nm / '2.5', nm / '0.10', '7' / nm, '2.5' ^ nm, nm ^ '2' FROM ops ORDER BY id",
      "SELECT avg(nm) / '3', '2' / sum(nm) FROM ops",
    ])
      await same(sql);
    await sameError("SELECT nm / 'abc' FROM ops", '22P02');
  });

  it('a string literal beside an integer is no infinity or NaN (22P02)', async () => {
    for (const sql of [
      "SELECT i + 'infinity' FROM ops",
      "SELECT '-Infinity' - s FROM ops",
      "SELECT n * 'NaN' FROM ops",
    ])
      await sameError(sql, '22P02');
  });

  it("a string literal beside an array is an array of that array's elements (22P02, 22003; '{1, 2}' equal to {1,2})", async () => {
    for (const sql of [
      "SELECT ia @> '{a,b}' FROM ops",
      "SELECT '{a,NULL}' = ia FROM ops",
      "SELECT id FROM ops WHERE ia <> '{1,x}'",
      "SELECT ia && '{1, b}' FROM ops",
      "SELECT ia || '{x}' FROM ops",
    ])
      await sameError(sql, '22P02');
    await sameError("SELECT ia <@ '{99999999999}' FROM ops", '22003');
    await same("SELECT id, ia @> '{1}', ia = '{1, 2}', '{}' <@ ia, ia || '{3}', keys && '{a, b}' FROM ops ORDER BY id");
  });

  it('a value || an array of another category of type is 42883 (Patina appended its text); beside numbers the common type', async () => {
    for (const sql of [
      "SELECT 1 || '{a,b}'::text[]",
      "SELECT ARRAY[1, 2] || 'x'::text",
      'SELECT t || ia FROM ops',
      'SELECT keys || i FROM ops',
      'SELECT ARRAY[true] || 1',
      "UPDATE ops SET t = t || '{1,2}'::int[] WHERE id = 1",
    ])
      await sameError(sql, '42883');
    // int4[] || numeric is numeric[], || int8 bigint[] (they were int4[])
    await same(
      "SELECT id, ia || nm, ia || n, ia || 1.5, ARRAY[1, 2] || 2.5, ia || s, keys || t, keys || 'q'::varchar FROM ops ORDER BY id",
    );
  });

  it("real op real is a real (typed float4, printed at a real's digits); beside a double a double", async () => {
    for (const sql of [
      'SELECT -0.5::float4 / 1.5::float4, 1.5::float4 * 1.5::float4, 0.1::float4 + 0.2::float4',
      'SELECT 1.5::float4 * 2, 1.5::float4 + 1.5::float8, -0.5::float4 * 3::float8',
      'SELECT id, r / 3::float4, r * r, r - 0.1::float4, r + r, r / 3 FROM ops ORDER BY id',
    ])
      await same(sql);
  });

  it("a string literal left of ->, ->>, #>, #>> beside a key, index or path is 42725 (json's or jsonb's)", async () => {
    for (const sql of [
      `SELECT '{"a": 1}' -> t FROM ops`,
      `SELECT '[1, 2]' ->> i FROM ops`,
      `SELECT '{"a": 1}' #> keys FROM ops`,
      `SELECT '{"a": 1}' #>> keys FROM ops`,
      `SELECT '[1]' -> s FROM ops`,
      `SELECT '{"a": 1}' -> 'a'`,
      `SELECT '{"a": 1}' #>> '{a}'`,
    ])
      await sameError(sql, '42725');
    await same(`SELECT '{"a": 1}'::jsonb -> t, '{"a": 1}'::json ->> t FROM ops ORDER BY id`);
  });

  it('jsonb -> n and ->> n of a scalar document find the scalar at 0 and -1 (PostgreSQL keeps it as a one-element array)', async () => {
    for (const sql of [
      `SELECT '"a"'::jsonb -> 0, '"a"'::jsonb ->> -1, '"a"'::jsonb -> 1, 'null'::jsonb -> 0, 'null'::jsonb ->> 0, '1.50'::jsonb -> 0, '[1, 2]'::jsonb -> -1`,
      `SELECT id, jb -> 'b' -> 0, jb -> 'b' ->> -1, jb -> 'a' -> 1, jb ->> i, jb -> 'a' ->> 0 FROM ops ORDER BY id`,
      `SELECT id FROM ops WHERE jb -> 'b' ->> 0 = 'x'`,
    ])
      await same(sql);
  });

  /** `sql` fails on both servers with `code` and the same message. */
  async function sameError(sql: string, code: string): Promise<void> {
    const failure = (c: ReturnType<typeof clients>['patina']) =>
      c.query(sql).then(
        () => 'ran',
        (e: { code?: string; message: string }) => `${e.code} ${e.message}`,
      );
    const [p, g] = [await failure(clients().patina), await failure(clients().postgres)];
    assert.equal(p, g, sql);
    assert.ok(g.startsWith(`${code} `), `${sql}: ${g}`);
  }
});
