// Whole-row references (`SELECT t FROM t`): PostgreSQL prints the row as its record text, `(1,abc,)`,
// each field as its type prints, NULL empty, a field with a comma, quote, backslash, parenthesis or
// space (or empty) in double quotes. The same statements on Patina and on PostgreSQL 15; the column
// is the table's own composite type (an OID of each server's catalog, so the types are compared by
// name; it was record on Patina). They were 42703 `no such column: t`. count(t),
// count(DISTINCT t) and t IS [NOT] NULL count rows and test every field (they were 0A000), t = u
// compares records, and t < u of rows of one shape orders them field by field.
import assert from 'node:assert/strict';
import { oracleSuite, sameOnBoth } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, s TEXT, n NUMERIC(10,2), b BOOLEAN, d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, f DOUBLE PRECISION, j JSONB, bb BYTEA, tags TEXT[], ch CHAR(3), big BIGINT);
CREATE TABLE u (id BIGINT NOT NULL PRIMARY KEY, t_id BIGINT, name TEXT);
CREATE TABLE jv (id BIGINT NOT NULL PRIMARY KEY, j JSONB);`;
const ROWS = [
  `INSERT INTO t VALUES
    (1, 'abc', 1.50, true, '2024-01-01', '2024-01-01 10:00:00', '2024-01-01 10:00:00+00', 1.5, '{"a": 1}', '\\x0102', '{"a b",c}', 'ab', 9007199254740993),
    (2, 'x,y', NULL, false, NULL, NULL, NULL, NULL, NULL, NULL, '{}', 'x', -1),
    (3, 'he said "hi"', 2, NULL, NULL, NULL, NULL, -0.25, '[1, "x"]', NULL, NULL, NULL, NULL),
    (4, '', 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (6, 'a b', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (7, '(p)', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (8, 'back\\slash', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (9, 'NULL', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
  `INSERT INTO u VALUES (1, 1, 'one'), (2, 1, 'two'), (3, 2, 'three')`,
  `INSERT INTO jv VALUES (1, 'null'), (2, '"a"'), (3, '"ab"'), (4, '"b"'), (5, '0'), (6, '-1.5'), (7, '10'),
    (8, '2e1'), (9, 'true'), (10, 'false'), (11, '[]'), (12, '[1]'), (13, '[1, 2]'), (14, '["a"]'), (15, '[[]]'),
    (16, '{}'), (17, '{"a": 1}'), (18, '{"b": 0}'), (19, '{"a": 1, "b": 2}'), (20, '{"aa": 1}'), (21, '{"a": [1]}'),
    (22, NULL), (23, '"é"'), (24, '[null]'), (25, '{"a": "x"}'), (26, '12345678901234567890.5')`,
];

describe('whole-row references against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { clients } = oracleSuite(SCHEMA, ROWS);
  /**
   * The same rows on both; each whole-row column of the same type by name (the table's row type,
   * `t`, or `record`): the OIDs are each server's own.
   */
  const same = async (sql: string, params?: unknown[], records: number[] = [0]) => {
    const rows = await sameOnBoth(clients(), sql, params, { types: false });
    const typeNames = async (c: ReturnType<typeof clients>['patina']) => {
      const r = await c.query({ text: sql, values: params, rowMode: 'array' });
      const names: string[] = [];
      for (const k of records)
        names.push(
          String((await c.query('SELECT format_type($1::oid, NULL)', [r.fields[k].dataTypeID])).rows[0].format_type),
        );
      return names;
    };
    assert.deepEqual(await typeNames(clients().patina), await typeNames(clients().postgres), `types of ${sql}`);
    return rows;
  };

  it('SELECT t FROM t prints each row as PostgreSQL does, every type and quoting rule', async () => {
    const rows = await same('SELECT t FROM t ORDER BY id');
    assert.equal(rows[1][0], '(2,"x,y",,f,,,,,,,{},"x  ",-1)');
    await same('SELECT x FROM t x WHERE id = $1', [1]);
    const r = await clients().patina.query('SELECT t FROM t WHERE id = 5');
    assert.equal(r.fields[0].name, 't');
  });

  it("the whole row of a table under an alias with a column list (t AS x(a, b)) is its row, its JSON keyed by the table's names (it was 42703)", async () => {
    await same('SELECT x FROM u AS x(a, b) ORDER BY x.a');
    await same('SELECT x.a, x FROM u x(a, b, c) WHERE x.a < 3 ORDER BY 1', undefined, [1]);
    await same('SELECT count(x), count(DISTINCT x) FROM u AS x(i)', undefined, []);
    for (const sql of [
      'SELECT row_to_json(x)::text FROM u AS x(a, b) ORDER BY x.a',
      'SELECT to_jsonb(x) FROM u x(i) ORDER BY x.i',
      'SELECT to_json(x)::text, x.i FROM u AS x(i) ORDER BY 2',
      'SELECT json_agg(x)::text FROM u AS x(a)',
    ])
      assert.ok((await sameOnBoth(clients(), sql)).length > 0, sql);
  });

  it('beside other columns, in a join, under an alias, with DISTINCT, in subqueries', async () => {
    await same('SELECT u, t.id FROM u JOIN t ON t.id = u.t_id ORDER BY u.id');
    await same('SELECT id, u AS whole FROM u ORDER BY id', undefined, [1]);
    await same('SELECT DISTINCT u FROM u ORDER BY 1');
    // a table's row passed up through a subquery, a WITH query or a scalar subquery: still the
    // table's row type, as PostgreSQL keeps it (it was record)
    await same('SELECT * FROM (SELECT u FROM u) q ORDER BY 1');
    await same('SELECT (SELECT u FROM u WHERE u.id = t.id) FROM t ORDER BY id');
    await same('SELECT x FROM (SELECT u AS x FROM u) q ORDER BY 1');
    await same('SELECT q.id, q.x FROM (SELECT id, u AS x FROM u) q ORDER BY 1', undefined, [1]);
    await same('SELECT q.* FROM (SELECT u, id FROM u) q ORDER BY 2');
    await same('SELECT x FROM (SELECT x FROM (SELECT u AS x FROM u) a) b ORDER BY 1');
    await same('WITH w AS (SELECT u FROM u) SELECT u FROM w ORDER BY 1');
    // (the rows of one table in every branch of a set operation: that table's type too)
    await same('SELECT u FROM u UNION ALL SELECT u FROM u ORDER BY 1');
    await same('SELECT x FROM (SELECT u AS x FROM u UNION SELECT u FROM u) q ORDER BY 1');
    // a subquery's row: PostgreSQL's type is record too
    await sameOnBoth(clients(), 'SELECT q FROM (SELECT id, name FROM u) q ORDER BY 1');
    // t.* and row_to_json(t) were already the columns and the object
    await sameOnBoth(clients(), 'SELECT u.* FROM u ORDER BY id');
    await sameOnBoth(clients(), 'SELECT row_to_json(u) FROM u ORDER BY id');
  });

  it('count(t), count(DISTINCT t), t IS NULL and t IS NOT NULL count rows and test every field, LEFT JOIN misses too', async () => {
    await sameOnBoth(clients(), 'SELECT count(t), count(u) FROM t, u');
    await sameOnBoth(clients(), 'SELECT count(x) FILTER (WHERE id > 3), count(*) FROM t x WHERE id > 1');
    await sameOnBoth(clients(), 'SELECT id, u IS NULL, u IS NOT NULL, NOT u IS NULL FROM u ORDER BY id');
    // row 5 has every field but id NULL: neither IS NULL nor IS NOT NULL; row 1 none: IS NOT NULL
    const rows = await sameOnBoth(clients(), 'SELECT id, t IS NULL, t IS NOT NULL FROM t ORDER BY id');
    assert.deepEqual(rows[0], ['1', false, true]);
    assert.deepEqual(rows[4], ['5', false, false]);
    await sameOnBoth(clients(), 'SELECT id FROM t WHERE t IS NOT NULL ORDER BY id');
    // the anti-join ORMs write, and counting the matches of each row
    const misses = await sameOnBoth(
      clients(),
      'SELECT t.id FROM t LEFT JOIN u ON u.t_id = t.id WHERE u IS NULL ORDER BY t.id',
    );
    assert.equal(misses.length, 7);
    await sameOnBoth(
      clients(),
      'SELECT t.id, count(u) FROM t LEFT JOIN u ON u.t_id = t.id GROUP BY t.id ORDER BY t.id',
    );
    await sameOnBoth(clients(), 'SELECT count(q) FROM (SELECT id, name FROM u) q');
    // count(DISTINCT ...) of rows: equal rows once (two of the subquery's rows are alike)
    await sameOnBoth(clients(), 'SELECT count(DISTINCT t), count(DISTINCT q) FROM t, (SELECT t_id FROM u) q');
    await sameOnBoth(
      clients(),
      'SELECT t.id, count(DISTINCT u) FROM t LEFT JOIN u ON u.t_id = t.id GROUP BY t.id ORDER BY t.id',
    );
    await sameOnBoth(
      clients(),
      'SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id AND u IS NOT NULL) ORDER BY id',
    );
  });

  it("a subquery's row of NULL fields is counted, and whole rows compare as records (two NULL fields equal)", async () => {
    // rows 5 to 9 of the subquery have only NULL fields: a row still (they were not counted)
    await sameOnBoth(clients(), 'SELECT count(q), count(DISTINCT q), count(*) FROM (SELECT n, d FROM t) AS q');
    await sameOnBoth(clients(), 'SELECT count(q) FROM (SELECT n FROM t) q WHERE q IS NULL');
    await sameOnBoth(
      clients(),
      'SELECT t.id, count(q) FROM t LEFT JOIN (SELECT t_id, name FROM u) q ON q.t_id = t.id GROUP BY t.id ORDER BY t.id',
    );
    // t = t was 0A000
    await sameOnBoth(clients(), 'SELECT id, t = t, t <> t FROM t ORDER BY id');
    await sameOnBoth(clients(), 'SELECT count(*) FROM t x, t y WHERE x = y');
    await sameOnBoth(clients(), 'SELECT count(*) FROM t x, t y WHERE x != y');
    await sameOnBoth(clients(), 'SELECT q = q FROM (SELECT n, d FROM t) q ORDER BY 1');
  });

  it("whole rows of one shape are ordered field by field, as PostgreSQL orders records, a jsonb field by jsonb's order", async () => {
    // (t < u was 0A000) a NULL field after any value, two NULL fields equal; by each field's type
    await sameOnBoth(
      clients(),
      `SELECT x.k, y.k, x < y, x <= y, x > y, x >= y
        FROM (SELECT s, n, b, d, ts, tz, f, bb, tags, ch, big, id AS k FROM t) x,
          (SELECT s, n, b, d, ts, tz, f, bb, tags, ch, big, id AS k FROM t) y ORDER BY 1, 2`,
    );
    await sameOnBoth(
      clients(),
      `SELECT x.k, y.k, x < y, x >= y FROM (SELECT n, b, s, id AS k FROM t) x, (SELECT n, b, s, id AS k FROM t) y
        ORDER BY 1, 2`,
    );
    await sameOnBoth(clients(), 'SELECT a.id, b.id FROM u a, u b WHERE a < b ORDER BY 1, 2');
    // a jsonb field by jsonb's order (it was 0A000): kinds, sizes, keys, elements, numbers by value
    await sameOnBoth(
      clients(),
      'SELECT x.id, y.id, x < y, x >= y FROM (SELECT j, id FROM jv) x, (SELECT j, id FROM jv) y ORDER BY 1, 2',
    );
    await sameOnBoth(clients(), 'SELECT x.id, y.id FROM t x, t y WHERE x < y ORDER BY 1, 2');
    await sameOnBoth(
      clients(),
      'SELECT count(*) FROM (SELECT s, n FROM t) x, (SELECT s, n FROM t) y WHERE x < y OR x > y',
    );
  });

  it("rows of other shapes or with a json field stop where PostgreSQL's record comparison stops: its 42804 or 42883, with its words (they were 0A000, or compared as text)", async () => {
    for (const [sql, code, message] of [
      ['SELECT t = u FROM t, u', '42804', 'cannot compare dissimilar column types text and bigint at record column 2'],
      [
        'SELECT count(*) FROM t, u WHERE t < u',
        '42804',
        'cannot compare dissimilar column types text and bigint at record column 2',
      ],
      [
        'SELECT x < y FROM (SELECT id, n FROM t) x, (SELECT id, s FROM t) y',
        '42804',
        'cannot compare dissimilar column types numeric and text at record column 2',
      ],
      [
        'SELECT x = y FROM (SELECT id, s FROM t) x, (SELECT id, s, n FROM t) y WHERE x.id = y.id',
        '42804',
        'cannot compare record types with different numbers of columns',
      ],
      [
        'SELECT x >= y FROM (SELECT id, s FROM t) x, (SELECT id, s, n FROM t) y WHERE x.id = y.id',
        '42804',
        'cannot compare record types with different numbers of columns',
      ],
      [
        'SELECT x = y FROM (SELECT id, j::json AS j FROM t) x, (SELECT id, j::json AS j FROM t) y',
        '42883',
        'could not identify an equality operator for type json',
      ],
      [
        'SELECT x < y FROM (SELECT id, j::json AS j FROM t) x, (SELECT id, j::json AS j FROM t) y',
        '42883',
        'could not identify a comparison function for type json',
      ],
    ]) {
      for (const c of [clients().patina, clients().postgres])
        await assert.rejects(c.query(sql), (e: { code?: string; message: string }) => {
          assert.equal(`${e.code} ${e.message}`, `${code} ${message}`, sql);
          return true;
        });
    }
    // as in PostgreSQL, a pair the first fields tell apart never reaches the dissimilar field
    await sameOnBoth(
      clients(),
      'SELECT x.id, y.id, x = y, x < y, x >= y FROM (SELECT id, s FROM t) x, (SELECT id, t_id FROM u) y WHERE x.id <> y.id ORDER BY 1, 2',
    );
    await sameOnBoth(
      clients(),
      'SELECT x.id, y.id, x = y, x < y FROM (SELECT id, j::json AS j FROM t) x, (SELECT id, j::json AS j FROM t) y WHERE x.id <> y.id ORDER BY 1, 2',
    );
    // no row compared, no error
    await sameOnBoth(clients(), 'SELECT t < u FROM t, u WHERE false');
  });

  it("a set operation of a table's row beside a record, another table's row or another type is PostgreSQL's 42804 or 42846 at the right value (it ran, each row as its text)", async () => {
    const outcome = (c: ReturnType<typeof clients>['patina'], sql: string) =>
      c.query(sql).then(
        () => 'ran',
        (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
      );
    for (const sql of [
      'SELECT t FROM t UNION SELECT (1, 1, 1)',
      'SELECT u FROM u UNION SELECT row(1, 2)',
      "SELECT u FROM u UNION ALL SELECT ROW(1, 'a')",
      "SELECT ROW(1, 'a') UNION ALL SELECT u FROM u",
      'SELECT u FROM u UNION ALL SELECT q FROM (SELECT 1, 2) q',
      'SELECT t FROM t UNION ALL SELECT u FROM u',
      'SELECT (SELECT u FROM u LIMIT 1) UNION ALL SELECT t FROM t',
      'SELECT x FROM (SELECT u AS x FROM u) s UNION SELECT ROW(1)',
      'SELECT u FROM u EXCEPT SELECT ROW(1, 2, 3)',
      'SELECT u FROM u UNION ALL SELECT id FROM u',
      'SELECT u FROM u UNION ALL SELECT name FROM u',
    ]) {
      const p = await outcome(clients().patina, sql);
      assert.match(
        p,
        /^(42804 (UNION|EXCEPT) types [a-z]+ and [a-z]+ cannot be matched|42846 UNION could not convert type [a-z]+ to [a-z]+) @\d+$/,
        sql,
      );
      assert.equal(p, await outcome(clients().postgres, sql), sql);
    }
    // what PostgreSQL runs runs: records with records, a row with NULL or a literal of its type
    await same("SELECT ROW(1, 'a') UNION ALL SELECT ROW(2, 'b') ORDER BY 1");
    await same('SELECT count(*) FROM (SELECT u FROM u UNION ALL SELECT NULL) s', undefined, []);
    await same("SELECT count(*) FROM (SELECT u FROM u UNION SELECT '(1,1,one)') s", undefined, []);
  });

  it('a row a LEFT JOIN did not match compares as NULL, as PostgreSQL compares a NULL row (it compared its NULL fields)', async () => {
    const rows = await sameOnBoth(
      clients(),
      'SELECT t.id, t2.id, t = t2, t <> t2, t < t2, t >= t2 FROM t LEFT JOIN t t2 ON t2.id = t.id + 1 ORDER BY 1',
    );
    assert.deepEqual(rows[8].slice(2), [null, null, null, null]);
    await sameOnBoth(
      clients(),
      'SELECT x.k, y.k, x = y, x <> y, x < y FROM (SELECT id AS k, s FROM t) x LEFT JOIN (SELECT id AS k, s FROM t) y ON y.k = x.k + 1 ORDER BY 1',
    );
    await sameOnBoth(
      clients(),
      'SELECT u.id, t = t, t2 = t FROM u LEFT JOIN t ON t.id = u.t_id + 5 LEFT JOIN t t2 ON t2.id = u.id ORDER BY 1',
    );
    await sameOnBoth(
      clients(),
      'SELECT u.id FROM u LEFT JOIN t ON t.id = u.t_id + 1 WHERE NOT (t = t) IS NULL ORDER BY 1',
    );
  });

  it("a WITH query's whole row is a select item, counted, tested for NULL and compared as a subquery's (it was 0A000)", async () => {
    await same("WITH x AS (SELECT 1 AS a, 'b' AS b) SELECT x FROM x");
    await same('WITH w AS (SELECT id, s, n, b, d, tags FROM t) SELECT w, w.id FROM w ORDER BY w.id');
    await same('WITH w(k, v) AS (SELECT id, name FROM u) SELECT DISTINCT w FROM w ORDER BY 1');
    await same('WITH w AS (SELECT * FROM u) SELECT w FROM w ORDER BY w.id');
    await same('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT r FROM r');
    await sameOnBoth(clients(), 'WITH w AS (SELECT n, d FROM t) SELECT count(w), count(DISTINCT w), count(*) FROM w');
    await sameOnBoth(
      clients(),
      'WITH w AS (SELECT t_id, name FROM u) SELECT t.id, count(w) FROM t LEFT JOIN w ON w.t_id = t.id GROUP BY t.id ORDER BY t.id',
    );
    await sameOnBoth(
      clients(),
      'WITH w AS (SELECT id, n FROM t) SELECT id, w IS NULL, w IS NOT NULL FROM w ORDER BY id',
    );
    await sameOnBoth(
      clients(),
      'WITH w AS (SELECT id FROM u) SELECT t.id FROM t LEFT JOIN w ON w.id = t.id WHERE w IS NULL ORDER BY t.id',
    );
    await sameOnBoth(
      clients(),
      'WITH w AS (SELECT id, s FROM t) SELECT x.id, y.id, x = y, x < y FROM w x, w y ORDER BY 1, 2',
    );
  });

  it("a subquery's or WITH query's computed boolean prints t and f in its row, true and false in its JSON (they were 1 and 0)", async () => {
    await same('SELECT s FROM (SELECT 1 AS a, 2 > 1 AS b) s');
    await same(
      'SELECT s FROM (SELECT id, n > 1 AS big, s IS NULL AS blank, NOT b AS nb, true AS t FROM t) s ORDER BY s.id',
    );
    await same('WITH x AS (SELECT id, n > 0 AS pos FROM t) SELECT x FROM x ORDER BY x.id');
    await sameOnBoth(clients(), 'SELECT row_to_json(s) FROM (SELECT 1 AS a, 2 > 1 AS b) s');
    await sameOnBoth(
      clients(),
      'WITH x AS (SELECT id, n > 0 AS pos, EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id) AS used FROM t) SELECT json_agg(x ORDER BY x.id) FROM x',
    );
  });

  it("a whole row as text or a row as a select item, t::text, (t.*)::text, row(t.*), row(t.*)::text: the record's text, named as PostgreSQL names it (they were 0A000 or a syntax error)", async () => {
    for (const sql of [
      'SELECT t::text, (t.*)::text, row(t.*)::text FROM t ORDER BY id',
      'SELECT x.id, (x.*)::text AS whole, x::text FROM u x JOIN t ON t.id = x.t_id ORDER BY x.id',
      'WITH w AS (SELECT id, name FROM u) SELECT w::text FROM w ORDER BY 1',
      'SELECT q::text FROM (SELECT id, name FROM u) q ORDER BY 1',
    ])
      await sameOnBoth(clients(), sql);
    await same('SELECT row(t.*) FROM t ORDER BY id');
    await same('SELECT id, row(u.*) r FROM u ORDER BY id', undefined, [1]);
    // elsewhere, a clear 0A000 still
    await assert.rejects(
      clients().patina.query("SELECT id FROM u WHERE (u.*)::text LIKE '%one%'"),
      (e: { code?: string; message: string }) => e.code === '0A000' && /whole row cast \(\(u\.\*\)/.test(e.message),
    );
    await clients().postgres.query("SELECT id FROM u WHERE (u.*)::text LIKE '%one%'");
  });

  it('a whole-row reference inside another expression (a cast, an aggregate but count) or beside VALUES is 0A000 naming it', async () => {
    for (const sql of [
      "SELECT t || 'x' FROM t",
      'WITH w AS (SELECT id, name FROM u) SELECT array_agg(w) FROM w',
      'SELECT u FROM u CROSS JOIN (VALUES (1)) v(x)',
    ]) {
      await assert.rejects(
        clients().patina.query(sql),
        (e: { code?: string; message: string }) =>
          e.code === '0A000' && /whole-row reference \((t|u|w)\)/.test(e.message),
        sql,
      );
      await clients().postgres.query(sql);
    }
  });

  it("a table's row passed through a subquery in a JSON builder, or a field selected of a row ((x).name), is 0A000 naming it (it was a JSON string of the record's text, SQLite's 42000 malformed JSON, or its syntax error)", async () => {
    for (const [sql, named] of [
      ['SELECT row_to_json(x) FROM (SELECT u AS x FROM u) q', /^row_to_json\(\) of a table's row .* \(x\)/],
      ['SELECT to_json(q.x) FROM (SELECT u AS x FROM u) q', /^to_json\(\) of a table's row .* \(x\)/],
      ['SELECT json_agg(x) FROM (SELECT x FROM (SELECT u AS x FROM u) a) b', /^json_agg\(\) of a table's row .* \(x\)/],
      ['WITH w AS (SELECT u FROM u) SELECT to_jsonb(u) FROM w', /^to_jsonb\(\) of a table's row .* \(u\)/],
      [`SELECT json_build_object('r', x) FROM (SELECT u AS x FROM u) q`, /^json_build_object\(\) of a table's row/],
      // (a subquery's row holding one)
      ['SELECT row_to_json(q) FROM (SELECT id, u AS x FROM u) q', /^row_to_json\(\) of a table's row .* \(x\)/],
      ['SELECT (x).name FROM (SELECT u AS x FROM u) q', /^selecting a field of a row value/],
      ['SELECT (q.x).* FROM (SELECT u AS x FROM u) q', /^selecting a field of a row value/],
      ['SELECT (u).name FROM u', /^selecting a field of a row value/],
    ] as const) {
      await assert.rejects(
        clients().patina.query(sql),
        (e: { code?: string; message: string }) => e.code === '0A000' && named.test(e.message),
        sql,
      );
      await clients().postgres.query(sql);
    }
    // (a table's own row and a subquery's row of plain columns are the objects, as they were)
    await sameOnBoth(clients(), 'SELECT row_to_json(u), json_agg(u) OVER () FROM u ORDER BY u.id');
    await sameOnBoth(clients(), 'SELECT row_to_json(q) FROM (SELECT id, name FROM u) q ORDER BY q.id');
  });

  it('ROW(a, b) and (a, b) as a result column: the record text of its fields, each as its type prints, typed record and named row (they were 0A000)', async () => {
    const both = async (sql: string) => {
      const rows = await sameOnBoth(clients(), sql);
      return rows;
    };
    assert.deepEqual(await both("SELECT ROW(1, 'a b', NULL, true)"), [['(1,"a b",,t)']]);
    for (const sql of [
      'SELECT ROW(id, s, n, b, d, ts, f, big) FROM t ORDER BY id',
      'SELECT id, (s, n) AS pair, ROW(b) FROM t WHERE id < 4 ORDER BY id',
      "SELECT ROW(u.name, t.s || '!', t.n * 2) FROM u JOIN t ON t.id = u.t_id ORDER BY u.id",
      'SELECT (1, 2.50, 0.1::float8, current_date - current_date)',
      "SELECT id FROM t WHERE ROW(id, s) = ROW(1, 'abc') AND (id, b) IN ((1, true))",
    ])
      await both(sql);
  });
});
