// LATERAL subqueries of any number of rows (top-N per group, embeddings as PostgREST and Hasura
// write them) and set-returning functions in FROM with a column list (`unnest(b.tags) AS t(tag)`):
// the same statements on Patina and on PostgreSQL 15, compared by value and result column types.
// Before: LATERAL subqueries other than one-row ones were 0A000 (and * over them), and a function's column list was a
// syntax error (answered with no rows when the statement also read unnest).
import assert from 'node:assert/strict';
import { oracleSuite } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE authors (id BIGINT NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
CREATE TABLE books (id BIGINT NOT NULL PRIMARY KEY, author_id BIGINT, title TEXT NOT NULL DEFAULT '', price NUMERIC(10,2),
  tags TEXT[], meta JSONB);
CREATE TABLE srf_args (id BIGINT NOT NULL PRIMARY KEY, arr TEXT[], j JSONB, s TEXT, p TEXT, start BIGINT, stop BIGINT,
  value BIGINT);
CREATE TABLE recs (id BIGINT NOT NULL PRIMARY KEY, doc JSONB);`;
const ROWS = [
  `INSERT INTO authors (id, name) VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cy')`,
  `INSERT INTO books (id, author_id, title, price, tags, meta) VALUES
    (10, 1, 'A', 12.50, '{x,y}', '{"a": 1, "b": "two"}'),
    (11, 1, 'B', 3.00, '{}', NULL),
    (12, 2, 'C', 7.25, '{y}', '{"a": 9007199254740993}'),
    (13, 1, 'D', 20.00, NULL, '{}')`,
  `INSERT INTO srf_args VALUES (1, '{x,y}', '[1, "a"]', 'a,b', ',', 1, 3, 10), (2, '{z}', '[]', 'c', ',', 5, 4, 20)`,
  `INSERT INTO recs VALUES (1, '[{"a": 1, "b": "x"}, {"a": 2, "b": "y", "c": {"d": [1]}}]'), (2, '[{"a": 3, "b": null}]'),
    (3, '[]'), (4, '{"a": 5, "b": "z"}')`,
];

describe('LATERAL subqueries and function column lists against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);

  it('LATERAL subqueries of many rows: CROSS JOIN, comma, JOIN ... ON, LEFT JOIN ... ON true', async () => {
    // top 2 per author by price (an author without books drops out of a CROSS JOIN)
    await same(
      'SELECT a.name, x.title, x.price FROM authors a CROSS JOIN LATERAL (SELECT title, price FROM books b WHERE b.author_id = a.id ORDER BY price DESC LIMIT 2) x ORDER BY a.name, x.price DESC',
    );
    // and stays, with NULLs, in a LEFT JOIN
    await same(
      'SELECT a.name, x.title FROM authors a LEFT JOIN LATERAL (SELECT title FROM books b WHERE b.author_id = a.id ORDER BY id LIMIT $1) x ON true ORDER BY a.name, x.title',
      [5],
    );
    await same(
      'SELECT a.id, x.n, x.total FROM authors a JOIN LATERAL (SELECT count(*) AS n, sum(price) AS total FROM books WHERE author_id = a.id GROUP BY author_id) x ON x.n > 1 ORDER BY a.id',
    );
    // a bare output name, an unnamed column (count), a UNION inside, a column list on the alias
    await same(
      'SELECT a.name, t FROM authors a, LATERAL (SELECT title AS t FROM books WHERE author_id = a.id) s ORDER BY 1, 2',
    );
    await same(
      'SELECT a.name, s.count FROM authors a, LATERAL (SELECT count(*) FROM books WHERE author_id = a.id) s ORDER BY 1',
    );
    await same(
      "SELECT a.name, s.c FROM authors a CROSS JOIN LATERAL (SELECT upper(title) AS c FROM books b WHERE b.author_id = a.id UNION ALL SELECT 'none' WHERE a.id > 2) s ORDER BY 1, 2",
    );
    await same(
      'SELECT a.name, s.t, s.p FROM authors a CROSS JOIN LATERAL (SELECT title, price FROM books WHERE author_id = a.id ORDER BY id LIMIT 1 OFFSET 1) AS s(t, p) ORDER BY 1',
    );
    // in a subquery, a replaced column keeps its name for the query around it
    await same(
      'SELECT s.title FROM (SELECT x.title FROM authors a CROSS JOIN LATERAL (SELECT title FROM books WHERE author_id = a.id) x) s ORDER BY 1',
    );
    // * and x.* spread the subquery's columns by name among the other items' (were 0A000)
    await same(
      'SELECT * FROM authors a CROSS JOIN LATERAL (SELECT title FROM books WHERE author_id = a.id ORDER BY id LIMIT 2) x ORDER BY a.id, x.title',
    );
    await same(
      'SELECT a.name, x.* FROM authors a CROSS JOIN LATERAL (SELECT title, price AS p FROM books WHERE author_id = a.id ORDER BY id LIMIT 2) x ORDER BY 1, 2',
    );
    await same(
      'SELECT * FROM authors a LEFT JOIN LATERAL (SELECT b.title FROM books b WHERE b.author_id = a.id) x ON true JOIN books bb ON bb.author_id = a.id WHERE a.id = 1 ORDER BY x.title, bb.id',
    );
    // 64-bit integers and JSON through the rows
    await same(
      "SELECT b.id, x.big, x.big + 1 FROM books b CROSS JOIN LATERAL (SELECT (b.meta ->> 'a')::bigint AS big) x WHERE b.meta ? 'a' ORDER BY 1",
    );
  });

  it('a LATERAL subquery whose items are named without AS (`count(*) n`, `b.title t`) is read by those names (was 0A000)', async () => {
    // (as a report writes it by hand: the names were taken for the call's or ?column?)
    await same(
      'SELECT a.id, x.n FROM authors a, LATERAL (SELECT count(*) n FROM books b WHERE b.author_id = a.id) x ORDER BY a.id',
    );
    await same(
      'SELECT a.name, x.t, x.c, x.p FROM authors a, LATERAL (SELECT b.title t, count(*) OVER () c, b.price * 2 p FROM books b WHERE b.author_id = a.id ORDER BY b.id LIMIT 2) x ORDER BY a.name, x.t',
    );
    await same(
      'SELECT a.name, x.* FROM authors a LEFT JOIN LATERAL (SELECT max(b.title) top, sum(b.price) "Total" FROM books b WHERE b.author_id = a.id HAVING count(*) > 1) x ON true ORDER BY 1',
    );
  });

  it('a LATERAL subquery selecting * or t.* (of one table, beside other items, under a column list) spreads its columns by name (was 0A000)', async () => {
    await same(
      'SELECT a.name, x.* FROM authors a CROSS JOIN LATERAL (SELECT * FROM books b WHERE b.author_id = a.id ORDER BY price DESC LIMIT 2) x ORDER BY 1, x.id',
    );
    await same(
      'SELECT a.*, x.* FROM authors a LEFT JOIN LATERAL (SELECT b.* FROM books b WHERE b.author_id = a.id ORDER BY b.id LIMIT 2) x ON true ORDER BY a.id, x.id',
    );
    await same(
      'SELECT a.id, x.title, x.n FROM authors a, LATERAL (SELECT *, price * 2 AS n FROM books WHERE author_id = a.id) x ORDER BY 1, 2',
    );
    await same(
      'SELECT a.id, x.* FROM authors a JOIN LATERAL (SELECT * FROM books WHERE author_id = a.id) AS x(book, author) ON x.book > 10 ORDER BY 1, 2',
    );
    await same(
      'SELECT a.id, x.* FROM authors a, LATERAL (SELECT b.title, s.* FROM books b JOIN srf_args s ON s.id = b.id - 9 WHERE b.author_id = a.id) x ORDER BY 1, 2',
    );
  });

  it("SELECT *, x.* and row_to_json(x) over a LATERAL subquery of one row or many: its columns, typed (they were left out, float8, or json_each's row)", async () => {
    for (const sql of [
      // a one-row LEFT JOIN LATERAL (LIMIT 1, an aggregate): * left its columns out
      'SELECT * FROM authors a LEFT JOIN LATERAL (SELECT b.title, b.price FROM books b WHERE b.author_id = a.id ORDER BY b.id LIMIT 1) s ON true ORDER BY a.id',
      'SELECT a.*, s.* FROM authors a LEFT JOIN LATERAL (SELECT b.title FROM books b WHERE b.author_id = a.id ORDER BY b.id LIMIT 1) s ON true ORDER BY a.id',
      'SELECT * FROM authors a LEFT JOIN LATERAL (SELECT b.title, b.price FROM books b WHERE b.author_id = a.id ORDER BY b.id LIMIT 1) AS s(t, p) ON true ORDER BY a.id',
      'SELECT * FROM authors a CROSS JOIN LATERAL (SELECT count(*) AS n FROM books b WHERE b.author_id = a.id) s ORDER BY a.id',
      'SELECT * FROM authors a LEFT JOIN LATERAL (SELECT max(price) AS m FROM books b WHERE b.author_id = a.id) s ON true ORDER BY a.id',
      'SELECT * FROM authors a JOIN LATERAL (SELECT title FROM books WHERE author_id = a.id ORDER BY id LIMIT 1) x ON true ORDER BY a.id',
      // a FROM-less one: * and x.*, and a column read by name through its item's own AS
      'SELECT * FROM authors a CROSS JOIN LATERAL (SELECT a.id * 2 AS d) AS o(d) ORDER BY a.id',
      'SELECT a.id, o.d FROM authors a CROSS JOIN LATERAL (SELECT a.id * 2 AS d) AS o(d) ORDER BY a.id',
      // * over many rows: a numeric(p, s) at its scale (it was float8, 12.5), an array and jsonb as such
      'SELECT * FROM authors a CROSS JOIN LATERAL (SELECT title, price FROM books WHERE author_id = a.id ORDER BY id LIMIT 2) x ORDER BY a.id, x.title',
      'SELECT * FROM authors a, LATERAL (SELECT * FROM books WHERE author_id = a.id ORDER BY id LIMIT 2) x ORDER BY a.id, x.id',
      // the whole row as JSON: the object of its columns (it was {"key":0,"value":[...]}), NULL for no row
      'SELECT a.id, row_to_json(x) FROM authors a CROSS JOIN LATERAL (SELECT title, price FROM books WHERE author_id = a.id ORDER BY id LIMIT 2) x ORDER BY a.id, x.title',
      'SELECT a.id, row_to_json(s) FROM authors a LEFT JOIN LATERAL (SELECT b.title, b.price FROM books b WHERE b.author_id = a.id ORDER BY b.id LIMIT 1) s ON true ORDER BY a.id',
      'SELECT a.id, to_json(x) AS j FROM authors a, LATERAL (SELECT title AS t FROM books WHERE author_id = a.id) AS x(name) ORDER BY 1, 2::text',
      'SELECT a.id, to_jsonb(x) FROM authors a LEFT JOIN LATERAL (SELECT count(*) AS n, max(title) AS m FROM books WHERE author_id = a.id) x ON true ORDER BY a.id',
    ])
      await same(sql);
  });

  it('jsonb_to_recordset, json_to_recordset and the _record forms over a column of a FROM item before them, after a comma, JOIN or LATERAL (it was a syntax error)', async () => {
    for (const sql of [
      'SELECT recs.id, r.a, r.b FROM recs, jsonb_to_recordset(recs.doc) AS r(a int, b text) WHERE recs.id < 4 ORDER BY 1, 2',
      'SELECT q.id, r.* FROM recs q, jsonb_to_recordset(q.doc) r(a bigint, b text, c jsonb) WHERE q.id < 4 ORDER BY 1, 2',
      'SELECT * FROM recs, jsonb_to_recordset(recs.doc) AS r(a int, b text) WHERE recs.id < 4 ORDER BY 1, 3',
      'SELECT recs.id, r.a FROM recs CROSS JOIN LATERAL jsonb_to_recordset(recs.doc) AS r(a int) WHERE recs.id < 4 ORDER BY 1, 2',
      'SELECT recs.id, r.a, r.c FROM recs LEFT JOIN LATERAL jsonb_to_recordset(recs.doc) AS r(a numeric, c jsonb) ON true WHERE recs.id < 4 ORDER BY 1, 2',
      'SELECT recs.id, r.a, r.b FROM recs JOIN json_to_recordset(recs.doc::json) AS r(a text, b json) ON r.a::int > 1 WHERE recs.id < 4 ORDER BY 1, 2',
      'SELECT recs.id, count(*), sum(r.a) FROM recs, jsonb_to_recordset(recs.doc) AS r(a int) WHERE recs.id < 4 GROUP BY recs.id ORDER BY 1',
      'SELECT recs.id, r.a, r.b FROM recs, jsonb_to_record(recs.doc) AS r(a int, b text) WHERE recs.id = 4',
      'SELECT b.id, r.a, r.b FROM books b, jsonb_to_record(b.meta) AS r(a numeric, b text) WHERE b.meta IS NOT NULL ORDER BY 1',
      'SELECT b.id, m.b FROM books b, json_to_record(b.meta::json) m(b varchar) ORDER BY 1',
    ])
      assert.ok((await same(sql)).length > 0, sql);
  });

  it('SELECT * over a per-row set-returning call names its column after the function or the alias, as PostgreSQL (it was value)', async () => {
    const names = async (sql: string) => {
      const { patina, postgres } = clients();
      const [p, g] = await Promise.all([patina.query(sql), postgres.query(sql)]);
      assert.deepEqual(
        p.fields.map((f) => f.name),
        g.fields.map((f) => f.name),
        sql,
      );
      return p.fields.map((f) => f.name);
    };
    for (const sql of [
      'SELECT * FROM books b, unnest(b.tags) ORDER BY 1, 7',
      'SELECT * FROM books b, unnest(b.tags) AS t(x) ORDER BY 1, 7',
      'SELECT * FROM books b, unnest(b.tags) AS u ORDER BY 1, 7',
      'SELECT * FROM books b JOIN unnest(b.tags) t(x) ON true ORDER BY 1, 7',
      'SELECT * FROM authors a CROSS JOIN generate_series(1, a.id) ORDER BY 1, 3',
      'SELECT * FROM authors a, generate_series(1, a.id) g ORDER BY 1, 3',
      "SELECT * FROM srf_args s, regexp_split_to_table(s.s, ',') r ORDER BY 1, 9",
    ]) {
      await same(sql);
      assert.notEqual((await names(sql)).at(-1), 'value', sql);
    }
    // jsonb_array_elements' column is value (its OUT parameter), alias or not
    await names('SELECT * FROM srf_args s, jsonb_array_elements(s.j) e WHERE s.id = 1');
  });

  it('set-returning functions with a column list, LATERAL or not', async () => {
    await same('SELECT b.title, t.tag FROM books b CROSS JOIN LATERAL unnest(b.tags) AS t(tag) ORDER BY 1, 2');
    await same("SELECT count(*) FROM books b, unnest(b.tags) AS t(tag) WHERE tag = 'y'");
    await same('SELECT * FROM unnest(ARRAY[3, 1, 2]) AS u(n) ORDER BY n');
    // pgjdbc's type query: a derived table reads s.r by the name r
    await same(
      'SELECT r.r, r.x FROM (SELECT s.r, s.r * 10 AS x FROM generate_series(1, 3) AS s(r)) AS r WHERE r.r > 1 ORDER BY r.r',
    );
    await same('SELECT n * 2 FROM unnest(ARRAY[3, 1, 2]) u(n) WHERE n > 1 ORDER BY u.n');
    await same(
      'SELECT a.name, s.i FROM authors a CROSS JOIN LATERAL generate_series(1, a.id::int) AS s(i) ORDER BY 1, 2',
    );
    await same(`SELECT k, v FROM jsonb_each('{"a": 1, "b": "x"}'::jsonb) AS e(k, v) ORDER BY k`);
    await same(
      'SELECT b.id, e.k, e.v FROM books b CROSS JOIN LATERAL jsonb_each_text(b.meta) AS e(k, v) ORDER BY 1, 2',
    );
  });
  it('a set-returning function in FROM over a column of a FROM item before it is typed by that column (generate_series(1, a.id) of a bigint is a bigint series; it was int4)', async () => {
    for (const sql of [
      'SELECT a.name, s.i FROM authors a CROSS JOIN LATERAL generate_series(1, a.id) AS s(i) ORDER BY 1, 2',
      'SELECT g FROM authors, generate_series(1, authors.id) g ORDER BY 1',
      'SELECT id, x FROM srf_args, generate_series(start, stop) AS x ORDER BY 1, 2',
    ])
      await same(sql);
  });

  it('ROWS FROM (f(...)) of one function is its rows, with a column list, WITH ORDINALITY, after a comma (it was a syntax error)', async () => {
    for (const sql of [
      'SELECT * FROM ROWS FROM (generate_series(1, 3)) AS x(a) ORDER BY a DESC',
      'SELECT b.id, t FROM books b, ROWS FROM (unnest(b.tags)) AS t ORDER BY 1, 2',
      'SELECT * FROM ROWS FROM (generate_series(2, 3)) WITH ORDINALITY AS x(a, n)',
    ])
      await same(sql);
  });

  it('ROWS FROM (f(...), g(...)) zips the functions side by side, the shorter NULL past their end, as unnest(a, b) after a comma or JOIN (they were 0A000 and 42703)', async () => {
    const { patina, postgres } = clients();
    // the same rows, column types and column names on both
    const named = async (sql: string) => {
      await same(sql);
      const names = async (c: typeof patina) => (await c.query(sql)).fields.map((f) => f.name);
      assert.deepEqual(await names(patina), await names(postgres), `column names of ${sql}`);
    };
    for (const sql of [
      "SELECT * FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY['a', 'b'])) AS x(n, s)",
      "SELECT * FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY['a', 'b']))",
      "SELECT * FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY['a', 'b'])) WITH ORDINALITY AS x(n, s, o)",
      "SELECT * FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY['a', 'b'])) WITH ORDINALITY",
      "SELECT x.s, x.n FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY['a', 'b'])) AS x(n, s) ORDER BY n DESC",
      "SELECT count(*) FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY['a', 'b'])) AS x(n, s) WHERE s IS NULL",
      // over a table's columns, after a comma, JOIN or LATERAL, per row
      'SELECT s.id, x.a, x.b FROM srf_args s, ROWS FROM (unnest(s.arr), generate_series(s.start, s.stop)) AS x(a, b) ORDER BY 1, 3',
      'SELECT b.id, x.t, x.o FROM books b CROSS JOIN LATERAL ROWS FROM (unnest(b.tags), generate_series(1, 2)) WITH ORDINALITY AS x(t, n, o) ORDER BY 1, 3',
      "SELECT b.id, x.* FROM books b JOIN ROWS FROM (unnest(b.tags), jsonb_path_query(b.meta, '$.*')) AS x(t, v) ON true ORDER BY 1, 2",
      // jsonb_array_elements (named value) and its _text twin, json's too; typed as in PostgreSQL
      `SELECT * FROM ROWS FROM (jsonb_array_elements('[1, "a", {"b": 2}]'), generate_series(1, 2)) AS x`,
      `SELECT s.id, x.* FROM srf_args s, ROWS FROM (jsonb_array_elements(s.j), unnest(s.arr)) AS x(e, a) ORDER BY 1, 3`,
      `SELECT * FROM ROWS FROM (json_array_elements('[1, {"a" : 2}]'), json_array_elements_text('["x"]'), unnest(ARRAY[1.5, 2.50]))`,
      "SELECT * FROM ROWS FROM (generate_series('2024-01-01'::timestamp, '2024-01-03', '1 day'), unnest(ARRAY[true, false])) AS x(d, b)",
      'SELECT * FROM ROWS FROM (unnest(NULL::int[]), generate_series(1, 2)) AS x(a, b)',
      // unnest of several arrays over an earlier item's columns
      'SELECT s.id, u.* FROM srf_args s, unnest(s.arr, ARRAY[1, 2, 3]) AS u(a, b) ORDER BY 1, 3',
      'SELECT b.id, u.a, u.o FROM books b JOIN LATERAL unnest(b.tags, b.tags) WITH ORDINALITY AS u(a, c, o) ON true ORDER BY 1, 3',
    ])
      await named(sql);
    // parameters, and pg_catalog's names
    await same('SELECT * FROM ROWS FROM (generate_series(1, $1), unnest($2::text[])) WITH ORDINALITY AS x(n, s, o)', [
      3,
      ['a', 'b'],
    ]);
    await same('SELECT * FROM ROWS FROM (pg_catalog.unnest(ARRAY[1, 2]), pg_catalog.generate_series(1, 3)) AS x(a, b)');
    // as PostgreSQL refuses them
    for (const sql of [
      'SELECT * FROM ROWS FROM (generate_series(1, 2), unnest(ARRAY[1])) AS x(n, m, k)',
      "SELECT * FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY['a'])) AS x(n int, s text)",
      `SELECT * FROM ROWS FROM (jsonb_array_elements('{"a": 1}'), generate_series(1, 2)) AS x`,
      'SELECT * FROM srf_args s, unnest(s.arr, s.arr) AS u(a text, b text)',
    ]) {
      const e = await postgres.query(sql).then(
        () => null,
        (err: { code?: string; message: string }) => err,
      );
      assert.ok(e, sql);
      await assert.rejects(
        patina.query(sql),
        (p: { code?: string; message: string }) => p.code === e.code && p.message === e.message,
      );
    }
  });

  it("set-returning calls by pg_catalog's name in a select list, and one without an alias in FROM beside a table (named after the function), run as in PostgreSQL (they were 42703)", async () => {
    const { patina, postgres } = clients();
    const names = async (c: typeof patina, sql: string) => (await c.query(sql)).fields.map((f) => f.name);
    for (const sql of [
      // pg_catalog.f(...) in a select list (42703 `column pg_catalog.__pg_srf.__pg_value does not exist`)
      'SELECT pg_catalog.generate_series(1, 2)',
      'SELECT pg_catalog.unnest(ARRAY[1, 2]) AS n',
      'SELECT id, pg_catalog.unnest(tags) FROM books ORDER BY 1, 2',
      "SELECT pg_catalog.generate_series(1, 2), pg_catalog.unnest(ARRAY['a'])",
      "SELECT pg_catalog.lower('A'), pg_catalog.generate_series(1, 2)",
      `SELECT pg_catalog.jsonb_array_elements('[1, "a"]')`,
      // no alias after a comma or JOIN: the function's name is the item's and its value's
      // (42703 `column b.tags does not exist`, `column "generate_series" does not exist`)
      'SELECT b.id, unnest FROM books b, unnest(b.tags) ORDER BY 1, 2',
      'SELECT b.id, unnest.unnest FROM books b, unnest(b.tags) ORDER BY 1, 2',
      'SELECT a.id, generate_series FROM authors a, generate_series(1, a.id) ORDER BY 1, 2',
      'SELECT s.id, generate_series FROM srf_args s JOIN generate_series(s.start, s.stop) ON true ORDER BY 1, 2',
      'SELECT unnest, a.id FROM unnest(ARRAY[1, 2]), authors a ORDER BY 1, 2',
      "SELECT * FROM unnest(ARRAY['p', 'q']), authors a ORDER BY 1, 2",
      'SELECT a.name, unnest FROM authors a JOIN unnest(ARRAY[1, 2]) ON unnest = a.id ORDER BY 1',
      "SELECT b.id, regexp_split_to_table FROM books b, regexp_split_to_table(b.title || ',z', ',') ORDER BY 1, 2",
      // and an alias names the value qualified too (`u.u`, 42703)
      'SELECT b.id, u, u.u FROM books b, unnest(b.tags) AS u ORDER BY 1, 2',
      'SELECT a.id, g.g FROM authors a, generate_series(1, a.id) AS g ORDER BY 1, 2',
    ]) {
      await same(sql);
      assert.deepEqual(await names(patina, sql), await names(postgres, sql), `column names of ${sql}`);
    }
    // (its values under *; the column's name there is still SQLite's, value)
    await same('SELECT * FROM books b, unnest(b.tags) WHERE b.id > 10 ORDER BY 1, 7');
  });

  it("a LATERAL subquery's * over one function reading the row beside it, and the bare x of a LATERAL subquery, as in PostgreSQL (they were 0A000)", async () => {
    const { patina, postgres } = clients();
    const names = async (c: typeof patina, sql: string) => (await c.query(sql)).fields.map((f) => f.name);
    for (const sql of [
      'SELECT * FROM srf_args s, LATERAL (SELECT * FROM unnest(s.arr)) x ORDER BY 1, x.unnest',
      'SELECT s.id, x.* FROM srf_args s, LATERAL (SELECT * FROM generate_series(s.start, s.stop) g) x ORDER BY 1, 2',
      'SELECT b.id, x.* FROM books b LEFT JOIN LATERAL (SELECT * FROM pg_catalog.unnest(b.tags) AS t) x ON true ORDER BY 1, 2',
      "SELECT b.id, x.* FROM books b CROSS JOIN LATERAL (SELECT * FROM unnest(b.tags) WHERE unnest > 'x') x ORDER BY 1, 2",
      // the whole row, a select item: the record's text, NULL for a LEFT JOIN's missing row
      'SELECT x FROM srf_args s, LATERAL (SELECT s.id) x ORDER BY s.id',
      'SELECT s.id, x FROM srf_args s, LATERAL (SELECT s.id, s.s, s.start) x ORDER BY 1',
      'SELECT a.id, x FROM authors a LEFT JOIN LATERAL (SELECT title, b.id FROM books b WHERE b.author_id = a.id ORDER BY id LIMIT 1) x ON true ORDER BY a.id',
      'SELECT a.id, x AS r FROM authors a CROSS JOIN LATERAL (SELECT title FROM books b WHERE b.author_id = a.id ORDER BY id LIMIT 2) x ORDER BY a.id, x.title',
      `SELECT a.id, x FROM authors a, LATERAL (SELECT 'a b' AS s, '' AS e, NULL::text AS n, 'q"x' AS q, a.name) x ORDER BY a.id`,
    ]) {
      await same(sql);
      assert.deepEqual(await names(patina, sql), await names(postgres, sql), `column names of ${sql}`);
    }
  });

  it("a set-returning call of a column named as the function's parameter (arr, j, s, start) reads the column (it was 42702 ambiguous)", async () => {
    for (const sql of [
      'SELECT id, unnest(arr) FROM srf_args ORDER BY 1, 2',
      'SELECT u FROM srf_args, unnest(arr) AS u ORDER BY 1',
      'SELECT id, jsonb_array_elements(j) FROM srf_args ORDER BY 1',
      'SELECT e FROM srf_args, jsonb_array_elements_text(j) AS e ORDER BY 1',
      'SELECT id, regexp_split_to_table(s, p) FROM srf_args ORDER BY 1, 2',
      'SELECT id, x FROM srf_args, generate_series(start, stop) AS x ORDER BY 1, 2',
      'SELECT id, unnest(arr), generate_series(1, 2) FROM srf_args ORDER BY 1, 2, 3',
    ])
      await same(sql);
  });

  it("a column named value beside a set-returning call in the select list, or a per-row one in FROM, is the table's (it was 42702: the function's column is value too)", async () => {
    for (const sql of [
      'SELECT value, unnest(arr) FROM srf_args ORDER BY 1, 2',
      'SELECT id, unnest(arr) FROM srf_args WHERE value > 10 ORDER BY 1, 2',
      'SELECT value, jsonb_array_elements_text(j) FROM srf_args ORDER BY 1, 2',
      'SELECT value, regexp_split_to_table(s, p) FROM srf_args ORDER BY 1, 2',
      'SELECT value, u FROM srf_args, unnest(arr) AS u ORDER BY 1, 2',
      'SELECT value, g FROM srf_args, generate_series(start, stop) g ORDER BY 1, 2',
      'SELECT value, u, n FROM srf_args, unnest(arr) WITH ORDINALITY AS x(u, n) ORDER BY 1, 3',
    ])
      await same(sql);
  });

  it("a bare value beside a per-row call in FROM that reads none of the call's columns is the table's (it was 42702)", async () => {
    for (const sql of [
      'SELECT value FROM srf_args, unnest(srf_args.arr) ORDER BY 1',
      'SELECT id, value FROM srf_args, unnest(arr) ORDER BY 1, 2',
      'SELECT value FROM srf_args, generate_series(1, 2) g ORDER BY 1',
      'SELECT count(*) FROM srf_args JOIN unnest(arr) ON value > 10',
      'SELECT a.id, unnest FROM srf_args a, unnest(a.arr) WHERE value > 10 ORDER BY 1',
      'SELECT max(value) FROM srf_args CROSS JOIN regexp_split_to_table(s, p)',
    ])
      assert.ok((await same(sql)).length > 0, sql);
    // and no table's: 42703 as there (the call's column is named after it)
    const { patina, postgres } = clients();
    const sql = 'SELECT value FROM books, unnest(books.tags)';
    const refusal = (c: typeof patina) =>
      c.query(sql).then(
        () => 'ran',
        (e: { code?: string; message: string }) => `${e.code} ${e.message}`,
      );
    assert.equal(await refusal(patina), '42703 column "value" does not exist');
    assert.equal(await refusal(postgres), '42703 column "value" does not exist');
  });

  it("set-returning functions WITH ORDINALITY: a bigint numbering each call's rows from 1, named by the alias list or ordinality (it was a syntax error)", async () => {
    const { patina, postgres } = clients();
    const names = async (sql: string) => {
      const fields = async (c: typeof patina) => (await c.query(sql)).fields.map((f) => f.name).join(',');
      assert.equal(await fields(patina), await fields(postgres), sql);
    };
    for (const sql of [
      "SELECT * FROM unnest(ARRAY['a', 'b']) WITH ORDINALITY AS u(v, n)",
      'SELECT * FROM unnest(ARRAY[10, 20]) WITH ORDINALITY u',
      "SELECT * FROM unnest('{x,y}'::text[]) WITH ORDINALITY AS u(v)",
      'SELECT * FROM generate_series(1, 3) WITH ORDINALITY',
      'SELECT g, ordinality FROM generate_series(10, 30, 10) WITH ORDINALITY g ORDER BY ordinality DESC',
      `SELECT * FROM jsonb_array_elements('[1, {"x": 2}, "s"]') WITH ORDINALITY`,
      `SELECT * FROM json_array_elements_text('["a", "b"]') WITH ORDINALITY AS e`,
      `SELECT * FROM jsonb_each('{"b": 1, "a": [2]}') WITH ORDINALITY AS e(k, v, n)`,
      `SELECT * FROM json_each('{"b": 1, "a": [2]}') WITH ORDINALITY AS e(k)`,
      `SELECT * FROM jsonb_object_keys('{"b": 1, "a": 2}') WITH ORDINALITY`,
      "SELECT * FROM regexp_split_to_table('a,b,c', ',') WITH ORDINALITY x",
      // (jsonb_array_elements' column is value, its OUT parameter, with an alias too: it was named e)
      `SELECT * FROM jsonb_array_elements('[1, 2]') e`,
      "SELECT * FROM unnest(ARRAY[1, 2], ARRAY['a']) WITH ORDINALITY AS u(a, b, n)",
      'SELECT * FROM pg_catalog.unnest(ARRAY[1.5, 2]) WITH ORDINALITY',
      // an array's order kept through a join (the ordinality's common use)
      'SELECT b.title, u.ord FROM unnest(ARRAY[12, 10]) WITH ORDINALITY AS u(id, ord) JOIN books b ON b.id = u.id ORDER BY u.ord',
      // after a comma, JOIN or LATERAL, each outer row's call counted from 1
      'SELECT b.id, t.tag, t.i FROM books b, unnest(b.tags) WITH ORDINALITY AS t(tag, i) ORDER BY 1, 3',
      'SELECT b.id, e.value, ordinality FROM books b CROSS JOIN LATERAL jsonb_each(b.meta) WITH ORDINALITY e ORDER BY 1, 3',
      'SELECT b.id, t.i FROM books b LEFT JOIN LATERAL unnest(b.tags) WITH ORDINALITY AS t(tag, i) ON true ORDER BY 1, 2',
      'SELECT a.name, s.x, s.n FROM authors a JOIN generate_series(1, 2) WITH ORDINALITY AS s(x, n) ON s.n <= a.id ORDER BY 1, 3',
    ]) {
      await same(sql);
      await names(sql);
    }
    await same('SELECT * FROM unnest($1::text[]) WITH ORDINALITY AS u(v, n) WHERE n > $2', [['p', 'q', 'r'], 1]);
    // a function Patina does not number, and * over a numbered call after a comma (whose number
    // SQLite's * leaves out): 0A000 naming it (PostgreSQL answers both)
    await assert.rejects(patina.query('SELECT * FROM books b, unnest(b.tags) WITH ORDINALITY AS t(tag, i)'), {
      code: '0A000',
      message:
        /SELECT \* over unnest\(\.\.\.\) WITH ORDINALITY after JOIN or a comma is not supported: name its columns \(t\.i\)/,
    });
    await postgres.query('SELECT * FROM books b, unnest(b.tags) WITH ORDINALITY AS t(tag, i)');
    await assert.rejects(patina.query('SELECT * FROM generate_subscripts(ARRAY[1], 1) WITH ORDINALITY'), {
      code: '0A000',
      message: /WITH ORDINALITY of generate_subscripts\(\.\.\.\) is not supported/,
    });
    await postgres.query('SELECT * FROM generate_subscripts(ARRAY[1], 1) WITH ORDINALITY');
  });
});
