// The json (not jsonb) text of builders where PostgreSQL keeps their spacing and Patina printed
// SQLite's compact text: a CASE of builders, a builder in a CASE inside a builder, to_json of a
// builder, and a builder written into a json column (INSERT, UPDATE, ON CONFLICT DO UPDATE, with
// parameters), read back as text; an array in a builder, to_json or array_to_json, which was its
// array text in a JSON string. The same statements on Patina and PostgreSQL 15, every value as
// the text the server sent. A WITH query's whole row in a builder, and a numeric at its scale.
import assert from 'node:assert/strict';
import { type OracleClients, psqlOk, startOracle } from '../helpers/catalog-pair';
import type { PgClient } from '../helpers/pg';

const ARRAYS = `ja (id BIGINT NOT NULL PRIMARY KEY, tags TEXT[], nums INTEGER[], ns NUMERIC[], bs BOOLEAN[],
  ts TIMESTAMP[], ds DATE[], tz TIMESTAMPTZ[], fs DOUBLE PRECISION[], bys BYTEA[])`;
const PRICES = `jn (id BIGINT NOT NULL PRIMARY KEY, name TEXT, price NUMERIC(10,2), qty BIGINT, password TEXT,
  amount NUMERIC(10,3))`;
// (json documents with spacing inside their values, which reads out of them keep)
const SPACED = 'jg (id BIGINT NOT NULL PRIMARY KEY, doc JSON)';
const SCHEMAS = {
  patina: `CREATE TABLE j (id INTEGER NOT NULL PRIMARY KEY, doc JSON, bin JSONB, name TEXT); CREATE TABLE ${ARRAYS};
    CREATE TABLE ${PRICES}; CREATE TABLE ${SPACED};`,
  postgres: `CREATE TABLE j (id bigint NOT NULL PRIMARY KEY, doc json, bin jsonb, name text); CREATE TABLE ${ARRAYS};
    CREATE TABLE ${PRICES}; CREATE TABLE ${SPACED};`,
};
const ROWS = [
  `INSERT INTO j (id, doc, name, bin) VALUES (1, '{"a": 1}', 'x', '{"b":2, "a" :[1,2]}'), (2, '[1, 2]', 'y', NULL),
    (9, '{"k" :  "v"}', 'w', '[1,{"c":null}]')`,
  `INSERT INTO ja VALUES (1, '{a,"b c","q\\"x","back\\\\s","co,ma",NULL,é,""}', '{1,2,NULL}', '{1.50,2,NULL}', '{t,f,NULL}',
    '{"2024-01-02 03:04:05.5",NULL}', '{2024-01-02}', '{"2024-01-02 03:04:05+02"}', '{1.5,1e20,NaN,NULL}', '{"\\\\x41ff",NULL}'),
    (2, '{}', '{{1,2},{3,4}}', NULL, '{}', NULL, NULL, NULL, '{}', NULL)`,
  `INSERT INTO jn VALUES (1, 'a', 2.50, 3, 'secret', 1.500), (2, 'b', 10.00, 1, 'pw', 0.125), (3, 'c', NULL, NULL, NULL, NULL)`,
  `INSERT INTO jg VALUES (1, '{"a": {"b":  1}, "l": [1,  {"x" :  2}], "a2" : 1e2}'), (2, '[1,  {"y" : [3,  4]}, "s"]'), (3, NULL)`,
];

describe("json builders' spacing in CASE, to_json and json columns, against PostgreSQL 15", function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ schemas: SCHEMAS, rows: ROWS });
  });
  after(() => o?.close());

  const text = { getTypeParser: () => (v: string) => v };
  const rows = (c: PgClient, sql: string, values?: unknown[]) =>
    c.query({ text: sql, values, rowMode: 'array', types: text }).then((r) => r.rows);
  const same = async (sql: string, values?: unknown[]) =>
    assert.deepEqual(await rows(o.patina, sql, values), await rows(o.postgres, sql, values), sql);
  const both = async (sql: string, values?: unknown[]) => {
    for (const c of [o.patina, o.postgres]) await c.query(sql, values);
  };

  it("a CASE of builders, a CASE in a builder and to_json of a builder keep the builders' spacing", async () => {
    for (const sql of [
      "SELECT id, CASE WHEN id = 1 THEN json_build_object('a', id) ELSE json_build_array(id, 'x') END FROM j ORDER BY id",
      "SELECT id, CASE id WHEN 1 THEN json_build_object('a', id, 'b', 2) END FROM j ORDER BY id",
      "SELECT id, json_build_object('c', CASE WHEN id = 1 THEN json_build_array(id, 2) ELSE json_build_array(3, 4) END) FROM j ORDER BY id",
      "SELECT id, json_build_object('c', CASE WHEN id = 1 THEN json_build_array(id, 2) END) FROM j ORDER BY id",
      "SELECT to_json(json_build_object('a', 1, 'b', json_build_array(1, 2))), to_json(json_agg(id ORDER BY id)) FROM j",
    ])
      await same(sql);
  });

  it('a json literal, parameter or column inside a builder keeps its own text (json, not jsonb)', async () => {
    for (const [sql, values] of [
      [`SELECT json_build_object('a', '{"x":  1,"y" :[1,2]}'::json, 'b', 2)`],
      [`SELECT json_build_array('[1,  2]'::json, ' "s" '::json, 'null'::json, NULL::json)`],
      ["SELECT id, json_build_object('d', doc, 'n', name) FROM j ORDER BY id"],
      ['SELECT id, json_build_array(j.doc, j.bin) FROM j ORDER BY id'],
      ['SELECT json_agg(doc ORDER BY id), json_object_agg(name, doc) FROM j'],
      ["SELECT json_build_object('d', (SELECT doc FROM j WHERE id = 1))"],
      ["SELECT json_build_object('o', json_build_object('d', doc)) FROM j WHERE id = 1"],
      ["SELECT json_build_object('p', $1::json)", ['{"p":   [1,2 ]}']],
      ["SELECT json_build_object('d', doc)::text, json_build_object('d', doc) ->> 'd' FROM j WHERE id = 1"],
      ["SELECT CASE WHEN id = 1 THEN json_build_object('d', doc) END FROM j ORDER BY id"],
      ['SELECT row_to_json(j), row_to_json(j)::text FROM j ORDER BY id'],
      ['SELECT json_agg(j ORDER BY j.id), json_agg(t.* ORDER BY t.id) FROM j, j AS t WHERE j.id = t.id'],
      ["SELECT to_json(t), json_build_object('r', t), row_to_json(t.*) FROM j AS t ORDER BY id"],
      ["SELECT row_to_json(j) ->> 'name', row_to_json(j) -> 'doc' ->> 'a' FROM j ORDER BY id"],
      [
        `SELECT id, to_json(doc), to_json(doc)::text, json_build_object('t', to_json(doc)), to_json('{"a":  2}'::json),
        to_json(doc) ->> 'a', to_json(NULL::json) IS NULL FROM j ORDER BY id`,
      ],
    ] as [string, unknown[]?][])
      await same(sql, values);
  });

  it("a json value through coalesce or CAST, a subquery's json columns and builders, a builder in || and a CASE of shapes in a builder keep PostgreSQL's text", async () => {
    for (const [sql, values] of [
      // coalesce and CAST(x AS json) inside a builder: the value's own text (they were compacted, or
      // a string of the marked text "\u0001{...}")
      [
        "SELECT id, json_build_object('d', coalesce(doc, '{}'), 'e', coalesce(doc, json_build_object('z', 1))) FROM j ORDER BY id",
      ],
      [
        `SELECT id, json_build_array(CAST(doc AS json), CAST('{"a":  1}' AS json), CAST($1 AS json)) FROM j ORDER BY id`,
        ['[1,  2]'],
      ],
      [
        "SELECT json_agg(coalesce(doc, '[]') ORDER BY id), json_object_agg(name, coalesce(doc, '{\"n\" : 0}'::json)) FROM j",
      ],
      ["SELECT id, coalesce(doc, json_build_object('z', id)), CAST(doc AS json) FROM j ORDER BY id"],
      // a subquery's row: its json columns as stored, its builders with their spacing
      ['SELECT row_to_json(s) FROM (SELECT id, doc FROM j) s ORDER BY id'],
      ['SELECT json_agg(s ORDER BY s.id), json_agg(s.* ORDER BY s.id) FROM (SELECT id, doc, name FROM j) s'],
      [
        `SELECT to_json(s), json_build_object('r', s), row_to_json(s.*) FROM
        (SELECT id AS k, doc AS d, coalesce(doc, '[]') AS c, '{"q" :2}'::json AS q FROM j) AS s ORDER BY k`,
      ],
      [
        `SELECT row_to_json(s), s.o FROM (SELECT id, json_build_object('a', id, 'd', doc) AS o,
        json_build_array(id, name) AS r, name FROM j) s ORDER BY id`,
      ],
      // a subquery's builder read by name, in a builder, made text or through a scalar subquery
      [
        "SELECT o, json_build_object('x', s.o), o::text, s.o ->> 'i' FROM (SELECT id, json_build_object('d', doc, 'i', id) AS o FROM j) s ORDER BY id",
      ],
      ['SELECT (SELECT o FROM (SELECT json_build_array(doc, 1) AS o FROM j WHERE id = 9) s)'],
      // a LATERAL subquery's builder (Drizzle's relational queries; SQLite's compact text before)
      [
        `SELECT j.id, x.data, json_build_object('x', x.data) FROM j LEFT JOIN LATERAL (SELECT
        coalesce(json_agg(json_build_array(k.id, k.doc)), '[]'::json) AS data FROM j k WHERE k.id = j.id) x ON true ORDER BY j.id`,
      ],
      [
        `SELECT j.id, x.o FROM j CROSS JOIN LATERAL (SELECT json_build_object('i', k.id, 'd', k.doc) AS o FROM j k
        WHERE k.id <= j.id ORDER BY k.id LIMIT 2) x ORDER BY j.id, x.o ->> 'i'`,
      ],
      // a WITH query's json column and builder (a string of the column's text, and compact, before)
      [
        "WITH w AS (SELECT id, doc FROM j) SELECT json_build_object('d', w.doc), json_build_array(doc) FROM w ORDER BY id",
      ],
      [
        "WITH w AS (SELECT id, json_build_object('a', id, 'd', doc) AS o FROM j) SELECT o, json_agg(o) OVER (ORDER BY id) FROM w ORDER BY id",
      ],
      [`WITH j AS (SELECT 1 AS id, '{"x" :1}'::json AS doc) SELECT json_build_object('d', doc) FROM j`],
      ["SELECT json_build_object('d', doc) FROM j, (SELECT 1 AS z) s ORDER BY id"],
      // a builder in || is its text
      [
        "SELECT json_build_object('a', 1) || 'x', 'p' || json_build_array(1, 2), json_build_object('b', json_build_array(1) || 'y')",
      ],
      // a CASE of builders of different shapes (or json values) inside a builder: each branch's text
      [
        "SELECT id, json_build_object('x', CASE WHEN id = 1 THEN json_build_object('a', id) ELSE json_build_array(id) END) FROM j ORDER BY id",
      ],
      [
        `SELECT id, json_build_array(CASE WHEN id = 1 THEN doc WHEN id = 2 THEN json_build_array(id, 'q')
        ELSE '{"z" :1}' END, 0) FROM j ORDER BY id`,
      ],
    ] as [string, unknown[]?][])
      await same(sql, values);
  });

  it("a jsonb column (a table's, a subquery's, a WITH query's) in a json builder or whole row is jsonb's text; a window's json_agg is laid out and NULL over no rows", async () => {
    for (const sql of [
      // (they were SQLite's compact text, `{"b":2}`)
      "SELECT id, json_build_object('b', bin), json_build_array(bin, doc), to_json(bin), row_to_json(j) FROM j ORDER BY id",
      'SELECT json_agg(bin ORDER BY id), json_object_agg(id, bin ORDER BY id) FROM j',
      'SELECT row_to_json(s), json_agg(s) OVER (ORDER BY id) FROM (SELECT id, bin, doc FROM j) s ORDER BY id',
      // a subquery's or WITH query's jsonb column in a builder likewise (it was compacted)
      'SELECT json_agg(b ORDER BY i), to_json(min(i)) FROM (SELECT bin AS b, id AS i FROM j UNION ALL SELECT bin, id FROM j) s',
      `SELECT i, to_json(b), json_build_object('b', s.b, 'a', s.b -> 'a') FROM (SELECT bin AS b, id AS i FROM j) s ORDER BY i`,
      'WITH w AS (SELECT bin FROM j) SELECT json_agg(bin) FROM w',
      // a window's json_agg was compact, and '{}' where its frame held no row
      `SELECT id, coalesce(json_agg(doc) OVER w, '[]'), json_object_agg(name, id) FILTER (WHERE id > 1) OVER w,
        json_agg(id) FILTER (WHERE id > 2) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
        FROM j WINDOW w AS (ORDER BY id) ORDER BY id`,
    ])
      await same(sql);
  });

  it('an array in a json builder, to_json or array_to_json is a JSON array of its elements as PostgreSQL writes them (it was its array text in a string)', async () => {
    for (const [sql, values] of [
      [
        `SELECT to_json(ARRAY[1,2]), to_jsonb(ARRAY[1,2]), array_to_json(ARRAY[1,2]), json_build_array(ARRAY['a','b'], 1),
        jsonb_build_array(ARRAY['a','b']), json_build_object('a', ARRAY[1,2], 'b', 2), jsonb_build_object('a', ARRAY[1,2])`,
      ],
      // nested, NULL elements, strings to escape, booleans, numbers, dates and timestamps (ISO, with a T)
      [
        `SELECT to_json(ARRAY[[1,2],[3,4]]), to_json(ARRAY[1,NULL,3]), to_json(ARRAY['a"b', 'c\\d', 'e,f', 'é', NULL, 'NULL', '', E'\\t']),
        to_jsonb(ARRAY['a"b', NULL]), to_json(ARRAY[true, false, NULL]), to_json(ARRAY[1.5::float8, 1e20, 'NaN']),
        to_jsonb(ARRAY[1.5::float8, 1e20]), to_json(ARRAY['2024-01-02 03:04:05'::timestamp, 'infinity']),
        to_json(ARRAY['2024-01-02'::date]), to_json('[0:1]={1,2}'::int[]), to_json('{}'::int[])`,
      ],
      // a table's array columns, alone and in its whole row
      [
        "SELECT id, json_build_object('tags', tags), jsonb_build_object('tags', tags), row_to_json(ja), to_jsonb(ja) FROM ja ORDER BY id",
      ],
      [
        `SELECT id, array_to_json(tags), array_to_json(nums), to_json(ns), json_build_array(bs, ts, ds, tz, fs, bys),
        jsonb_build_array(bs, ts, ds, tz, fs, bys) FROM ja ORDER BY id`,
      ],
      [
        `SELECT json_agg(nums ORDER BY id), jsonb_agg(tags ORDER BY id), json_object_agg(id, bs ORDER BY id),
        json_agg(ARRAY[id, id] ORDER BY id), to_json(array_agg(id ORDER BY id)) FROM ja`,
      ],
      // a subquery's array columns, alone and through its whole row
      [
        "SELECT row_to_json(s), to_jsonb(s), json_build_object('a', s.a), json_agg(s) OVER () FROM (SELECT ARRAY[1,2] AS a, ARRAY['x'] AS b, 1 AS c, ARRAY['\\x41'::bytea] AS y) s",
      ],
      [
        `SELECT row_to_json(s), json_build_object('ids', s.ids) FROM (SELECT array_agg(id ORDER BY id) AS ids,
        array_agg(tags[1] ORDER BY id) AS firsts, array_agg(ts[1] ORDER BY id) AS stamps FROM ja) s`,
      ],
      // (a LATERAL subquery's, of the row beside it: its type was not known)
      ["SELECT json_build_object('a', x.a), to_json(x.a) FROM ja, LATERAL (SELECT ARRAY[ja.id] AS a) x ORDER BY ja.id"],
      // array_to_json's pretty form: a line break between the top-level elements
      [
        "SELECT array_to_json(ARRAY[ARRAY['a','b'],ARRAY['c','d']], true), array_to_json(tags, true) FROM ja ORDER BY id",
      ],
      [
        "SELECT to_json($1::int[]), json_build_object('t', $2::text[])",
        [
          [1, 2],
          ['a b', 'c"d'],
        ],
      ],
    ] as [string, unknown[]?][])
      await same(sql, values);
    // a timestamptz[]'s elements at the session zone's offset
    await both("SET TIME ZONE 'Europe/Paris'");
    await same("SELECT to_json(tz), json_build_object('z', ARRAY['2024-06-01 12:00:00+00'::timestamptz]) FROM ja");
    await both("SET TIME ZONE 'UTC'");
  });

  it('the JSON of an anonymous row, row_to_json(row(...)), to_json((a, b)), to_jsonb(row(...)), is an object of fields f1, f2, ... with the values as PostgreSQL writes them (it was 0A000)', async () => {
    for (const sql of [
      "SELECT row_to_json(row(id, name, id > 1)), to_json(row(doc, name || '!')), to_jsonb(row(bin, id)) FROM j ORDER BY id",
      'SELECT row_to_json((id, name)), pg_catalog.to_json(ROW(NULL, 1.50, true)) FROM j ORDER BY id',
      'SELECT id, row_to_json(row(price, qty, price * qty)), to_jsonb(row(price, name)) FROM jn ORDER BY id',
      'SELECT row_to_json(row(tags, nums)), to_jsonb(row(bs)) FROM ja ORDER BY id',
      "SELECT json_agg(row_to_json(row(id, name)) ORDER BY id), json_build_object('r', to_json(row(1, 'a'))) FROM j",
      'SELECT to_jsonb(row(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)), row_to_json(row(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11))',
      'SELECT id FROM j WHERE row_to_json(row(id, name))::text LIKE \'%"x"%\'',
    ])
      await same(sql);
    await same('SELECT row_to_json(row($1::int, $2::text))', [5, 'p']);
  });

  it("a WITH query's whole row in a builder (recursive, with a column list) and a subquery's or WITH query's json columns with * keep PostgreSQL's text", async () => {
    for (const sql of [
      // (each was 0A000)
      'WITH x AS (SELECT id, name FROM j) SELECT row_to_json(x), to_jsonb(x), to_json(x) FROM x ORDER BY id',
      'WITH x AS (SELECT id, name FROM j) SELECT json_agg(x), json_agg(x ORDER BY x.id DESC), jsonb_agg(x) FROM x',
      'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT json_agg(r), jsonb_agg(r) FROM r',
      'WITH x(a, b) AS (SELECT id, name FROM j) SELECT json_agg(x ORDER BY a), jsonb_agg(x ORDER BY a) FROM x',
      'WITH x(a, b) AS (SELECT id, name FROM j) SELECT row_to_json(x) FROM x ORDER BY a',
      'WITH x AS (SELECT id, doc, bin FROM j) SELECT json_agg(x ORDER BY x.id), jsonb_agg(x ORDER BY x.id) FROM x',
      'WITH a AS (SELECT id, name FROM j), b AS (SELECT a.id, a.name FROM a WHERE a.id < 9) SELECT json_agg(b ORDER BY b.id) FROM b',
      // (json columns were strings of their text, or compacted)
      "WITH x AS (SELECT * FROM j) SELECT json_build_object('d', x.doc), row_to_json(x) FROM x ORDER BY id",
      "SELECT json_build_object('d', s.doc), json_agg(s) OVER (ORDER BY s.id) FROM (SELECT * FROM j) s ORDER BY id",
      "WITH x(i, d) AS (SELECT id, doc FROM j) SELECT json_build_object('d', d) FROM x ORDER BY i",
      `WITH RECURSIVE r(n, d) AS (SELECT 1, '{"a":  1}'::json UNION ALL SELECT n + 1, d FROM r WHERE n < 2)
        SELECT json_build_object('d', d), row_to_json(r) FROM r`,
    ])
      await same(sql);
  });

  it('a numeric keeps its scale in JSON, and API-shaped queries give what PostgreSQL gives, as text and parsed', async () => {
    for (const [sql, values] of [
      // (trailing zeros were dropped: 1.5, 2.5, 10, 12.5, 5.0)
      [
        "SELECT to_json(1.50), json_build_object('p', 1.50), to_json(12.0), to_json(1.50::numeric(10,3)), to_jsonb(1.50)",
      ],
      [
        "SELECT json_build_object('p', price, 'a', amount), to_json(price), jsonb_build_object('p', price) FROM jn ORDER BY id",
      ],
      [
        "SELECT json_build_object('s', sum(price), 'r', round(avg(price), 2), 'm', max(amount)), json_agg(price ORDER BY id) FROM jn",
      ],
      [
        "SELECT json_build_object('r', round(price * 1.1, 2), 'p2', price * 2, 'q', price * qty, 'c', coalesce(price, 0)) FROM jn ORDER BY id",
      ],
      ['SELECT row_to_json(jn), to_jsonb(jn) FROM jn ORDER BY id'],
      ['SELECT row_to_json(s) FROM (SELECT qty, sum(amount) AS total FROM jn GROUP BY qty ORDER BY qty) s'],
      ['WITH x AS (SELECT id, price * 2 AS p2, price FROM jn) SELECT json_agg(x ORDER BY x.id) FROM x'],
      // what API code sends
      ['SELECT json_agg(t) FROM (SELECT id, name, price FROM jn ORDER BY id LIMIT $1) t', [2]],
      ["SELECT coalesce(json_agg(t), '[]'::json) FROM (SELECT id, price FROM jn WHERE id > $1) t", [1]],
      [
        `SELECT json_build_object('items', (SELECT json_agg(s) FROM (SELECT id, price FROM jn ORDER BY id LIMIT 2) s),
          'total', (SELECT count(*) FROM jn))`,
      ],
      [
        `SELECT json_build_object('id', j.id, 'lines', (SELECT json_agg(json_build_object('n', jn.name, 'amount', jn.amount)
          ORDER BY jn.id) FROM jn WHERE jn.id <= j.id)) FROM j ORDER BY j.id`,
      ],
      ["SELECT jsonb_build_object('a', 1) || jsonb_build_object('p', price) FROM jn ORDER BY id"],
      [
        "SELECT to_jsonb(jn) - 'password', to_jsonb(t) - 'password' FROM jn, (SELECT * FROM jn) t WHERE t.id = jn.id ORDER BY jn.id",
      ],
    ] as [string, unknown[]?][]) {
      await same(sql, values);
      // (node-postgres parses json and jsonb: the documents it gives the application)
      const parsed = (c: PgClient) => c.query({ text: sql, values, rowMode: 'array' }).then((r) => r.rows);
      assert.deepEqual(await parsed(o.patina), await parsed(o.postgres), sql);
    }
  });

  it("a numeric whose scale is the computation's or a parameter's keeps it in JSON: avg, a division, a scalar subquery, $1::numeric as sent", async () => {
    for (const [sql, values] of [
      // an avg or a numeric division at PostgreSQL's scale (they were 6.25, the double's digits)
      [
        "SELECT to_json(avg(price)), json_build_object('avg', avg(price), 'a2', avg(price) * 2, 'd', sum(price) / count(*)), json_build_array(avg(qty), stddev(price)) FROM jn",
      ],
      [
        "SELECT jsonb_build_object('avg', avg(amount)), json_object_agg(id, price / 3 ORDER BY id), json_agg(qty / 7.0 ORDER BY id) FROM jn",
      ],
      ["SELECT qty, json_build_object('avg', avg(price)) FROM jn GROUP BY qty ORDER BY qty"],
      [
        "SELECT json_build_object('c', coalesce(avg(price), 0), 'k', CASE WHEN count(*) > 10 THEN avg(price) ELSE 0 END, 'n', coalesce(avg(price) FILTER (WHERE id > 5), 0)) FROM jn",
      ],
      // a scalar subquery's sum, column or avg (12.5, 2.5, 6.25 before)
      [
        `SELECT json_build_object('total', (SELECT sum(price) FROM jn), 'first', (SELECT price FROM jn WHERE id = 1),
          'avg', (SELECT avg(price) FROM jn)), (SELECT sum(price) FROM jn), (SELECT sum(price) FROM jn) + 1`,
      ],
      ["SELECT id, json_build_object('s', (SELECT sum(k.price) FROM jn k WHERE k.id <= jn.id)) FROM jn ORDER BY id"],
      // a parameter's numeric at the scale of the text sent (1.5 before), also past an exponent
      ["SELECT json_build_object('p', $1::numeric), to_json($1::numeric), jsonb_build_array($1::numeric)", ['1.50']],
      [
        "SELECT id, json_build_object('q', price + $1, 'm', price * $1, 'n', $1::numeric + $2::numeric) FROM jn ORDER BY id",
        ['1.125', '0.50'],
      ],
      ["SELECT json_build_object('p', $1::numeric, 'e', $2::numeric), $2::numeric", ['1.500', '15e-1']],
      ["SELECT json_build_object('p', $1::numeric)", ['NaN']],
      ["SELECT json_build_object('p', $1::numeric, 'q', $2::numeric)", ['0.30000000000000004', '-0.10']],
    ] as [string, unknown[]?][]) {
      await same(sql, values);
      const parsed = (c: PgClient) => c.query({ text: sql, values, rowMode: 'array' }).then((r) => r.rows);
      assert.deepEqual(await parsed(o.patina), await parsed(o.postgres), sql);
    }
    // psql, whose simple query sends a literal where a client binds a parameter
    const sql = `SELECT json_build_object('avg', avg(price), 'total', (SELECT sum(price) FROM jn), 'p', '1.50'::numeric) FROM jn`;
    assert.equal(psqlOk(o.pair.patinaPort, [sql]), psqlOk(o.pair.postgresPort, [sql]));
  });

  it('a json value read out of a json document with ->, ->>, #> or #>> keeps its text as written (was compacted); jsonb as before', async () => {
    for (const [sql, values] of [
      [
        `SELECT '{"a": {"b":  1}, "c" : [1,  2]}'::json -> 'a', '{"a": {"b":  1}}'::json ->> 'a',
        '{"a": {"b":  [1,  2]}}'::json #> '{a,b}', '{"a": {"b":  [1,  2]}}'::json #>> '{a}', '[1,  {"x" : 2}]'::json -> 1`,
      ],
      [
        "SELECT id, doc -> 'a', doc ->> 'a', doc -> 'k', doc -> 1, doc -> -1, doc #> '{a}', (doc -> 0)::text, doc #>> ARRAY['k'] FROM j ORDER BY id",
      ],
      ["SELECT $1::json -> 'p', $1::json #> '{p,0}', $1::json -> 'p' ->> 1", ['{"p":   [[1,  2], {"q" :  3}]}']],
      // numbers, strings and duplicate keys as PostgreSQL's json reads them (the last of duplicates)
      [
        `SELECT '{"n": 1.50, "e": 1e2, "s": "x\\"y", "t": true, "z": null}'::json ->> 'n', '{"e": 1e2}'::json ->> 'e',
        '{"s": "x\\"y"}'::json ->> 's', '{"z": null}'::json ->> 'z', '{"a": 1, "a": {"b" :2}}'::json -> 'a', '[1]'::json -> 'a'`,
      ],
      ["SELECT bin -> 'a', bin ->> 'a', bin #> '{a}' FROM j WHERE id = 1"],
      ["SELECT count(*) FROM j WHERE doc ->> 'k' = 'v' OR (doc -> 'a')::text = '1'"],
    ] as [string, unknown[]?][])
      await same(sql, values);
    const sql = `SELECT id, doc -> 'k', doc ->> 'a' FROM j ORDER BY id`;
    assert.equal(psqlOk(o.pair.patinaPort, [sql]), psqlOk(o.pair.postgresPort, [sql]));
  });

  it("a FROM subquery's or WITH query's avg or numeric division in row_to_json, to_json, json_agg or a builder has numeric's digits (was the double's)", async () => {
    for (const sql of [
      'SELECT row_to_json(s), to_json(s) FROM (SELECT avg(price) AS a, sum(price) / count(*) AS d FROM jn) s',
      'SELECT json_agg(s) FROM (SELECT avg(price) AS a, sum(price) / count(*) AS d FROM jn) s',
      "SELECT json_build_object('a', s.a, 'n', 1), json_build_array(a, 'x'), jsonb_build_object('a', a) FROM (SELECT avg(amount) AS a FROM jn) s",
      'SELECT row_to_json(s) FROM (SELECT id, price / 3 AS d, avg(qty) AS q FROM jn GROUP BY id, price) s WHERE d > 1 ORDER BY d DESC',
      'SELECT json_agg(s ORDER BY s.id) FROM (SELECT id, price / 3 AS d FROM jn WHERE id < 3) s',
      // sorted by the exact column itself: by its number (13.33... after 3.33...), its digits kept
      'SELECT json_agg(s ORDER BY s.d) FROM (SELECT id, price * 4 / 3 AS d FROM jn) s',
      'SELECT json_agg(s ORDER BY d DESC, id) FROM (SELECT id, avg(price) * 4 AS d FROM jn GROUP BY id) s',
      'SELECT row_to_json(s), s.a FROM (SELECT avg(price) AS a FROM jn) s',
      // a WITH query read once, as its one FROM item (also as plain columns, which were doubles too)
      "WITH w AS (SELECT avg(price) AS a, sum(price) / count(*) AS d FROM jn) SELECT row_to_json(w), json_build_object('a', w.a) FROM w",
      'WITH w AS (SELECT avg(amount) AS a FROM jn) SELECT json_agg(w) FROM w',
      'WITH w AS (SELECT id, price / 3 AS d FROM jn) SELECT row_to_json(x) FROM w AS x WHERE d > 1 ORDER BY d',
      'WITH w AS (SELECT avg(price) AS a FROM jn) SELECT a FROM w',
      'WITH w AS (SELECT avg(price) AS a FROM jn) SELECT * FROM w',
    ])
      await same(sql);
  });

  it("json's -> and #> inside a builder, and json_array_elements' and json_each's values, keep the text as written (were compacted)", async () => {
    for (const [sql, values] of [
      ["SELECT id, json_build_object('k', doc -> 'a', 'l', doc -> 'l' -> -1, 'm', doc -> 1) FROM jg ORDER BY id"],
      ["SELECT json_build_array(doc -> 'l', doc #> '{l,1}', (doc -> 'a')) FROM jg ORDER BY id"],
      ["SELECT json_agg(doc -> 'a' ORDER BY id), json_object_agg(id, doc -> 'l') FROM jg"],
      ["SELECT to_json(doc -> 'a'), json_build_object('k', doc -> 'a')::text FROM jg WHERE id = 1"],
      [`SELECT json_build_object('k', '{"a": {"b":  1}}'::json -> 'a', 'p', $1::json -> 'p')`, ['{"p":  [1,  2]}']],
      [
        `SELECT json_build_object('c', coalesce(doc -> 'a', '{}'), 'w', CASE WHEN id = 1 THEN doc -> 'a' ELSE doc -> 0 END)
        FROM jg ORDER BY id`,
      ],
      ["SELECT json_build_object('k', s.x), row_to_json(s) FROM (SELECT id, doc -> 'a' AS x FROM jg) s ORDER BY id"],
      // a path as ARRAY[...], a key cast to text (#> ARRAY was a string of its text)
      ["SELECT json_build_object('p', doc #> ARRAY['l', '1'], 'k', doc -> 'a'::text) FROM jg ORDER BY id"],
      // a jsonb read in a json builder: as jsonb prints it (was compacted)
      [
        `SELECT json_build_object('k', bin -> 'a', 'p', bin #> '{a}', 'z', bin -> 'zz', 'c', '{"z": [1,2]}'::jsonb -> 'z')
        FROM j ORDER BY id`,
      ],
      ["SELECT json_agg(bin -> 'a' ORDER BY id) FROM j"],
      // (jsonb's builders print jsonb's text, as before)
      ["SELECT jsonb_build_object('k', doc -> 'a'), to_jsonb(doc -> 'l') FROM jg ORDER BY id"],
      ['SELECT value FROM jg, json_array_elements(jg.doc) WHERE id = 2'],
      ['SELECT e FROM jg, json_array_elements(jg.doc) AS e WHERE id = 2'],
      ['SELECT key, value FROM jg, json_each(jg.doc) WHERE id = 1'],
      ['SELECT * FROM json_each_text($1)', ['{"a": 1e2, "b" :  [2,  3], "c": "x", "d": null}']],
      ['SELECT * FROM json_array_elements_text($1)', ['[1e2,  {"y" : [3,  4]}, "s", null, 1.50]']],
      // duplicate keys: each a row in json's (jsonb keeps the last)
      [`SELECT * FROM json_each('{"a": 1, "a" :  [2, 3]}')`],
      [`SELECT * FROM json_object_keys('{"a": 1, "a" :  [2, 3]}')`],
      [`SELECT * FROM jsonb_each('{"a": 1, "a" :  [2, 3]}')`],
      [`SELECT value::text, value ->> 0 FROM json_array_elements('[[1,  2], {"y" : [3,  4]}]')`],
      // their values in a builder are documents (they were strings of their text: ["1", "{\"y\": ...}"])
      ['SELECT json_agg(value), json_agg(e ORDER BY e::text) FROM jg, json_array_elements(jg.doc) AS e WHERE id = 2'],
      ["SELECT json_build_object('v', value) FROM json_array_elements($1)", ['[1,  {"y" : [3,  4]}, "s"]']],
      ['SELECT json_object_agg(key, value), json_agg(e.value) FROM jg, json_each(jg.doc) AS e WHERE id = 1'],
      ['SELECT json_object_agg(k, v) FROM jg, LATERAL json_each(jg.doc) AS e(k, v) WHERE id = 1'],
      [`SELECT jsonb_agg(value), json_agg(value) FROM jsonb_array_elements('[1, {"a":2}, "s"]')`],
      [`SELECT jsonb_build_object('v', value) FROM json_array_elements('[1,  {"y" : [3,  4]}]')`],
      ['SELECT id, (SELECT json_agg(value) FROM json_array_elements(jg.doc)) FROM jg WHERE id = 2'],
    ] as [string, unknown[]?][])
      await same(sql, values);
  });

  it("json's -> and #> of a parenthesised operand, a subquery's or WITH query's json column or a builder, inside a builder, keep the text as written (were compacted, or a string)", async () => {
    for (const sql of [
      "SELECT id, json_build_object('k', (doc) -> 'a'), json_build_array((doc) #> '{l,1}') FROM jg ORDER BY id",
      "SELECT json_agg(((doc) -> 'l') ORDER BY id) FROM jg",
      "SELECT json_build_object('k', s.d -> 'a', 'm', (s.d) #> '{l,1}') FROM (SELECT id, doc AS d FROM jg) s ORDER BY s.id",
      "WITH w AS (SELECT id, doc FROM jg) SELECT json_build_object('k', w.doc -> 'l') FROM w ORDER BY id",
      // a read out of a builder inside a builder
      "SELECT json_build_object('k', json_build_object('w', doc -> 'a') -> 'w') FROM jg ORDER BY id",
      "SELECT json_build_array(json_build_object('w', doc) #> '{w,l}') FROM jg ORDER BY id",
      "SELECT json_build_object('k', (json_build_object('w', doc) -> 'w') -> 'a') FROM jg ORDER BY id",
    ])
      await same(sql);
  });

  it("a read out of a builder's document as a select item or in WHERE (->, ->>, #>, #>>) keeps the text as written (was compacted)", async () => {
    for (const sql of [
      "SELECT id, json_build_object('v', doc) -> 'v', json_build_object('v', doc) ->> 'v' FROM jg ORDER BY id",
      "SELECT json_build_object('v', doc) #> '{v,l}', json_build_array(doc) #>> '{0,a}' FROM jg ORDER BY id",
      "SELECT row_to_json(t) -> 'doc', row_to_json(t) ->> 'doc' FROM jg t ORDER BY id",
      'SELECT json_agg(doc ORDER BY id) -> 0 FROM jg',
      `SELECT id FROM jg WHERE json_build_object('v', doc) -> 'v' ->> 'a' = '{"b":  1}'`,
    ])
      await same(sql);
  });

  it('json_each, json_each_text, jsonb_each and jsonb_each_text in a select list give a record per member, (json_each(x)).key its column (were 42883)', async () => {
    for (const sql of [
      'SELECT id, json_each(doc) FROM jg WHERE id = 1',
      'SELECT json_each_text(doc) FROM jg WHERE id = 1',
      'SELECT jsonb_each(bin) FROM j WHERE id = 1',
      `SELECT json_each('{"a":1,"b":[1, 2],"c":null,"d":"x y"}'::json)`,
      `SELECT json_each_text('{"a":1,"b":[1, 2],"c":null,"d":"x y", "e": ""}'::json)`,
      `SELECT jsonb_each_text('{"a":1,"b":[1, 2],"c":null,"d":"x y"}'::jsonb)`,
      'SELECT (json_each(doc)).key, (json_each(doc)).value FROM jg WHERE id = 1',
      'SELECT (jsonb_each(bin)).value FROM j WHERE id = 1',
      'SELECT id, (json_each(doc)).* FROM jg WHERE id = 1',
    ])
      await same(sql);
    // typed record (2249), its fields text and json, as there
    const types = async (c: PgClient) =>
      (
        await c.query(
          'SELECT json_each(doc), (json_each(doc)).key, (json_each(doc)).value, (json_each(doc)).* FROM jg WHERE id = 1',
        )
      ).fields.map((f) => f.dataTypeID);
    assert.deepEqual(await types(o.patina), await types(o.postgres));
  });

  it("json's json_each, json_object_keys and json_array_elements of the wrong kind of document fail with PostgreSQL's words; a record's unknown field 42703", async () => {
    for (const sql of [
      'SELECT json_each(doc) FROM jg WHERE id = 2',
      'SELECT (json_each(doc)).nosuch FROM jg',
      "SELECT * FROM json_each('1'::json)",
      "SELECT * FROM json_each_text('[1]'::json)",
      "SELECT * FROM json_object_keys('[1]'::json)",
      "SELECT * FROM json_object_keys('1'::json)",
      "SELECT * FROM jsonb_object_keys('[1]'::jsonb)",
      "SELECT * FROM json_array_elements('{}'::json)",
      "SELECT * FROM json_array_elements('1'::json)",
    ]) {
      const err = (c: PgClient) =>
        c.query(sql).then(
          () => null,
          (e: { code?: string; message?: string }) => [e.code, e.message],
        );
      const want = await err(o.postgres);
      assert.notEqual(want, null, `PostgreSQL took ${sql}`);
      assert.deepEqual(await err(o.patina), want, sql);
    }
  });

  it('a builder written into a json column is stored with its spacing (INSERT, UPDATE, ON CONFLICT, parameters); jsonb keeps its own', async () => {
    await both("INSERT INTO j (id, doc, name) VALUES (3, json_build_object('a', 1, 'b', json_build_array(1, 2)), 'z')");
    await both(
      "INSERT INTO j VALUES (4, json_build_array(1, json_build_object('z', 2)), json_build_object('q', 1), 'n')",
    );
    await both("UPDATE j SET doc = json_build_array(1, 'x'), bin = json_build_array(1, 'x') WHERE id = 2");
    await both(
      "INSERT INTO j (id, doc) VALUES (4, '[]') ON CONFLICT (id) DO UPDATE SET doc = json_build_object('u', excluded.id)",
    );
    await both("INSERT INTO j (id, doc) VALUES ($1, json_build_object('p', $2::int, 's', $3::text))", [5, 7, 'v']);
    await both(`INSERT INTO j (id, doc) VALUES (6, json_build_object('v', '{"a" :1}'::json, 'w', $1::json))`, [
      ' [ 2 ] ',
    ]);
    await both('UPDATE j SET doc = json_build_array(doc, 1) WHERE id = 9');
    await both(
      "INSERT INTO j (id, doc, bin) SELECT id + 100, json_build_object('d', doc, 'n', name), json_build_array(id) FROM j WHERE id < 3",
    );
    await both(
      'INSERT INTO j (id, doc) SELECT 200, json_agg(json_build_array(id, name) ORDER BY id) FROM j WHERE id < 3',
    );
    await same('SELECT id, doc, bin FROM j ORDER BY id');
  });

  it("json (not jsonb) sorted, grouped, DISTINCT, counted DISTINCT or deduplicated by UNION is PostgreSQL's 42883 at the term (SQLite went by the stored text); UNION ALL and jsonb run", async () => {
    const failure = (c: OracleClients['patina'], sql: string) =>
      c.query(sql).then(
        (r) => `ran ${r.rows.length}`,
        (e: { code?: string; message: string; hint?: string; position?: string }) =>
          `${e.code} ${e.message} | ${e.hint ?? ''} @${e.position}`,
      );
    for (const sql of [
      'SELECT id FROM j ORDER BY doc',
      'SELECT doc AS x FROM j ORDER BY x DESC',
      'SELECT doc FROM j ORDER BY 1',
      'SELECT doc, count(*) FROM j GROUP BY doc',
      'SELECT doc, count(*) FROM j GROUP BY 1',
      'SELECT DISTINCT doc FROM j',
      'SELECT count(DISTINCT doc) FROM j',
      'SELECT doc FROM j UNION SELECT doc FROM j',
      'SELECT id, doc FROM j INTERSECT SELECT id, doc FROM j',
    ]) {
      const p = await failure(o.patina, sql);
      assert.match(p, /^42883 could not identify an (ordering|equality) operator for type json/, sql);
      assert.equal(p, await failure(o.postgres, sql), sql);
    }
    for (const sql of [
      'SELECT doc FROM j UNION ALL SELECT doc FROM j',
      'SELECT DISTINCT bin FROM j ORDER BY bin',
      'SELECT id FROM j ORDER BY doc::text',
    ])
      assert.equal(await failure(o.patina, sql), await failure(o.postgres, sql), sql);
  });
});
