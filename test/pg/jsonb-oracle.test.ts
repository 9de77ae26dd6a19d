// jsonb's operators (@>, <@, ?, ?|, ?&, #>, #>>, #-, -) on a JSONB column: the same statements on Patina
// and on PostgreSQL 15 through node-postgres, compared by value and by the result's column types.
import assert from 'node:assert/strict';
import { type OracleClients, sameOnBoth, sameOutcomeOnBoth, startOracle } from '../helpers/catalog-pair';
import type { PgClient } from '../helpers/pg';

const SCHEMAS = {
  patina: `CREATE TABLE docs (id INTEGER NOT NULL PRIMARY KEY, data JSONB, tags TEXT);
    CREATE TABLE flags (id INTEGER NOT NULL PRIMARY KEY, b BOOLEAN);`,
  postgres: `CREATE TABLE docs (id bigint NOT NULL PRIMARY KEY, data jsonb, tags text);
    CREATE TABLE flags (id bigint NOT NULL PRIMARY KEY, b boolean);`,
};
const ROWS = [
  `INSERT INTO docs (id, data) VALUES
    (1, '{"a": 1, "b": {"c": [1, 2, {"d": "x"}]}, "tags": ["red", "blue"]}'),
    (2, '{"a": 1.0, "b": {"c": []}, "n": null, "big": 9007199254740993}'),
    (3, '["red", "green", 3, [4, 5], {"k": true}]'),
    (4, '"red"'),
    (5, '{"a": "1", "nested": {"a": {"b": {"c": 2e2}}}}'),
    (6, NULL)`,
  'INSERT INTO flags VALUES (1, true), (2, false), (3, NULL), (4, true)',
];

describe('jsonb operators against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;
  let patina: PgClient;
  let postgres: PgClient;

  before(async () => {
    o = await startOracle({ schemas: SCHEMAS, rows: ROWS });
    ({ patina, postgres } = o);
  });
  after(() => o?.close());

  const same = (sql: string, params?: unknown[]) => sameOnBoth(o, sql, params);
  /** The same rows on both, in a simple Query and in the extended protocol. */
  const both = async (sql: string) => {
    await same(sql); // a simple Query
    const [p, g] = await Promise.all(
      [patina, postgres].map((c) => c.query({ text: sql, rowMode: 'array', queryMode: 'extended' })),
    );
    assert.deepEqual(p.rows, g.rows, `${sql} (extended)`);
  };

  it('containment @> and <@, by value, with the top-level array and scalar rules', async () => {
    for (const q of [
      `SELECT id FROM docs WHERE data @> '{"a": 1}' ORDER BY id`,
      `SELECT id FROM docs WHERE data @> '{"b": {"c": [2]}}' ORDER BY id`,
      `SELECT id FROM docs WHERE data @> '{"b": {"c": [{"d": "x"}]}}' ORDER BY id`,
      `SELECT id FROM docs WHERE data @> '["red"]' ORDER BY id`,
      `SELECT id FROM docs WHERE data @> '"red"' ORDER BY id`,
      `SELECT id FROM docs WHERE data @> '[[4]]' ORDER BY id`,
      `SELECT id FROM docs WHERE data @> '{"n": null}' ORDER BY id`,
      `SELECT id FROM docs WHERE data @> '{"big": 9007199254740993}' ORDER BY id`,
      `SELECT id FROM docs WHERE data @> '{"big": 9007199254740992}' ORDER BY id`,
      `SELECT id FROM docs WHERE '{"a": 1}' <@ data ORDER BY id`,
      `SELECT id FROM docs WHERE NOT data @> '{}' OR data IS NULL ORDER BY id`,
      `SELECT id, data @> '{"a": 1}' AS has_a, data <@ '{"a": 1, "b": 2}' FROM docs ORDER BY id`,
      `SELECT '{"a": 1}'::jsonb @> '{"a": 1}'::jsonb, '[1, 2, 2]'::jsonb @> '[2, 1]', '1'::jsonb @> '[1]', '{"a": [1]}'::jsonb @> '{"a": 1}'`,
    ])
      await same(q);
    await same('SELECT id FROM docs WHERE data @> $1 ORDER BY id', ['{"tags": ["blue"]}']);
    await same('SELECT id FROM docs WHERE data @> $1::jsonb ORDER BY id', ['{"a": 1}']);
  });

  it('a cast to json or jsonb reads the text: 22P02 for text that is no JSON (it passed, for the client to fail on)', async () => {
    await same(`SELECT '{"a": 1}'::json, '[1, 2]'::jsonb -> 0, CAST('{"k": [true]}' AS json) -> 'k'`);
    for (const sql of [`SELECT '{"a":}'::json`, "SELECT '[1,'::jsonb", "SELECT CAST('nope' AS json)"])
      for (const client of [patina, postgres]) await assert.rejects(client.query(sql), { code: '22P02' }, sql);
    // a parameter (and a simple query's literal lifted into one) is read when the statement runs
    for (const client of [patina, postgres])
      await assert.rejects(client.query('SELECT $1::text::jsonb', ['{bad']), { code: '22P02' });
    assert.deepEqual((await patina.query({ text: 'SELECT 1', rowMode: 'array' })).rows, [[1]]);
  });

  it('key existence ?, ?| and ?& (object keys, string elements of arrays, a string scalar)', async () => {
    for (const q of [
      `SELECT id FROM docs WHERE data ? 'a' ORDER BY id`,
      `SELECT id FROM docs WHERE data ? 'red' ORDER BY id`,
      `SELECT id FROM docs WHERE data ? '3' ORDER BY id`,
      `SELECT id FROM docs WHERE data ?| array['n', 'nested'] ORDER BY id`,
      `SELECT id FROM docs WHERE data ?& array['a', 'b'] ORDER BY id`,
      `SELECT id FROM docs WHERE data ?& '{}' ORDER BY id`,
      `SELECT id FROM docs WHERE data -> 'b' ? 'c' ORDER BY id`,
      `SELECT id, data ? 'tags' AS t FROM docs ORDER BY id`,
    ])
      await same(q);
  });

  it('paths #>, #>> and deletion #-', async () => {
    for (const q of [
      `SELECT id, data #> '{b,c}' FROM docs ORDER BY id`,
      `SELECT id, data #> '{b,c,2}', data #>> '{b,c,2,d}', data #>> '{b,c,-1,d}' FROM docs ORDER BY id`,
      `SELECT id, data #>> '{a}', data #>> '{n}', data #>> '{nested,a}' FROM docs ORDER BY id`,
      `SELECT id, data #> '{}' FROM docs ORDER BY id`,
      `SELECT id, data #> '{3,1}', data #>> '{0}' FROM docs ORDER BY id`,
      `SELECT id FROM docs WHERE data #>> '{b,c,2,d}' = 'x'`,
      `SELECT id, data #- '{b,c}', data #- '{0}', data #- '{nested,a,b}', data #- '{a,x}' FROM docs WHERE id IN (1, 2, 5) ORDER BY id`,
      `SELECT data #- '{0}', data #- '{-1}', data #- '{3,0}', data #- '{9}', data #- '{4,k}', data #- '{}' FROM docs WHERE id = 3`,
      `SELECT data -> 'nested' #> '{a,b}' FROM docs WHERE id = 5`,
    ])
      await same(q);
    await same('SELECT data #>> $1 FROM docs WHERE id = 1', ['{b,c,1}']);
  });

  it('the set-returning JSON functions, in FROM (per row of a table too) and alone in a select list', async () => {
    for (const q of [
      `SELECT * FROM jsonb_each('{"b": [1], "a": 1, "aa": "x", "n": null}')`,
      `SELECT key, value FROM jsonb_each_text('{"b": [1], "a": 1, "aa": "x", "n": null, "t": true}') ORDER BY key`,
      `SELECT * FROM json_each('{"b": 1, "a": "x"}')`,
      `SELECT value FROM jsonb_array_elements('[1, "a", null, {"k": [2]}]')`,
      `SELECT x FROM jsonb_array_elements_text('["x", 2, null]') AS x`,
      `SELECT jsonb_object_keys('{"bb": 1, "a": 2}')`,
      `SELECT jsonb_array_elements('[1, [2]]')`,
      // per row: LATERAL or not, the alias naming the value or the record
      `SELECT d.id, e FROM docs d, jsonb_array_elements(d.data -> 'tags') AS e ORDER BY d.id, e`,
      `SELECT d.id, e FROM docs d CROSS JOIN LATERAL jsonb_array_elements_text(d.data -> 'tags') e WHERE e <> 'blue' ORDER BY 1, 2`,
      `SELECT d.id, kv.key, kv.value FROM docs d, jsonb_each(d.data -> 'b') kv ORDER BY 1, 2`,
      `SELECT d.id, count(*) FROM docs d, jsonb_object_keys(d.data -> 'nested') k GROUP BY d.id ORDER BY 1`,
    ])
      await same(q);
    await assert.rejects(patina.query(`SELECT * FROM jsonb_array_elements('{"a": 1}')`), { code: '22023' });
  });

  it('jsonb_set, jsonb_strip_nulls, jsonb_pretty and the extract_path functions', async () => {
    for (const q of [
      `SELECT jsonb_set('{"a": 1}', '{b}', '2'), jsonb_set('{"a": {"b": 1}}', '{a,b}', '"x"'), jsonb_set('{"a": 1}', '{b}', '2', false), jsonb_set('[1, 2]', '{1}', '9'), jsonb_set('[1, 2]', '{5}', '9')`,
      `SELECT id, jsonb_set(data, '{a}', '7') FROM docs WHERE jsonb_typeof(data) = 'object' ORDER BY id`,
      `SELECT jsonb_strip_nulls('{"a": null, "b": {"c": null, "d": 1}}'), jsonb_pretty('{"b": [1, {}], "a": 1}')`,
      `SELECT jsonb_extract_path(data, 'b', 'c'), jsonb_extract_path_text(data, 'nested', 'a', 'b', 'c'), json_extract_path_text('{"a": ["x"]}', 'a', '0') FROM docs ORDER BY id`,
    ])
      await same(q);
  });

  it('jsonb || merges objects and joins arrays (it was the two texts joined)', async () => {
    await same(
      `SELECT '{"a":1, "c":3}'::jsonb || '{"b":2, "a":9}'::jsonb, '[1]'::jsonb || '[2, 3]'::jsonb, '[1]'::jsonb || '2'::jsonb, '1'::jsonb || '[2]'::jsonb, '1'::jsonb || '2'::jsonb, '{"a":1}'::jsonb || '[2]'::jsonb, NULL::jsonb || '1'::jsonb`,
    );
    await same(`SELECT id, data || '{"z": 0}' FROM docs ORDER BY id`);
  });

  it("->> gives PostgreSQL's text: a number compares with '1', true is 'true', containers print as jsonb (SQLite gave SQL values)", async () => {
    await same(
      `SELECT id, data ->> 'a', data ->> 'big', data ->> 'b', data -> 'b' ->> 'c', data ->> 'n' IS NULL FROM docs ORDER BY id`,
    );
    await same(`SELECT id FROM docs WHERE data ->> 'a' = '1' ORDER BY id`);
    await same(`SELECT id, data -> 4 ->> 'k', data ->> 0, data ->> -1 FROM docs WHERE id = 3`);
    await same(
      `SELECT '{"a":1.50}'::jsonb ->> 'a', '{"a":true}'::jsonb ->> 'a' = 'true', '{"a":1e2}'::jsonb ->> 'a', '{"a":"x\\"y"}'::jsonb ->> 'a', '{"a":null}'::jsonb ->> 'a', '{"a":"1"}'::jsonb ->> 'a' || 'x'`,
    );
    await same(`SELECT (data ->> 'a')::numeric + 1 FROM docs WHERE id = 1`);
  });

  it('jsonb - key, - keys and - index take out keys or elements (SQLite subtracted the numbers: 0)', async () => {
    await same(
      `SELECT '{"a":1,"b":2}'::jsonb - 'a', '["a","b","a",1]'::jsonb - 'a', '["a","b","c"]'::jsonb - 1, '["a","b","c"]'::jsonb - -1, '["a"]'::jsonb - 5`,
    );
    await same(
      `SELECT '{"a":1,"b":2,"c":3}'::jsonb - ARRAY['a','c'], '{"a":1,"b":2}'::jsonb - '{a,b}'::text[], '{"a":1}'::jsonb - NULL::text, '{"a":1,"b":2}'::jsonb - 'a' || '{"z":0}'`,
    );
    await same(
      `SELECT id, data - 'a', data - 'tags' - 'b', to_jsonb(docs) - 'data' FROM docs WHERE id <> 3 AND id <> 4 ORDER BY id`,
    );
    await same(`SELECT id, data - 0, data - 'red' FROM docs WHERE id = 3`);
    for (const [sql, code] of [
      [`SELECT '{"a":1}'::jsonb - 0`, '22023'],
      [`SELECT '{"a":1}'::json - 'a'`, '42883'],
      [`SELECT data::json - 'a' FROM docs`, '42883'],
      [`SELECT data - 'a' FROM docs WHERE id = 4`, '22023'],
    ])
      for (const c of [patina, postgres])
        await assert.rejects(c.query(sql), (e: { code?: string; message: string }) => {
          assert.equal(e.code, code, `${sql}: ${e.message}`);
          return true;
        });
  });

  it('json_typeof and jsonb_typeof name the kind of each value', async () => {
    await same(
      `SELECT id, jsonb_typeof(data), jsonb_typeof(data -> 'a'), jsonb_typeof(data -> 'n'), json_typeof(data::json -> 'b') FROM docs ORDER BY id`,
    );
    await same(
      `SELECT jsonb_typeof('true'), json_typeof('"x"'), jsonb_typeof('[1]'), jsonb_typeof('1.5e3'), jsonb_typeof(NULL)`,
    );
  });

  it('writes with them: an UPDATE whose SET and WHERE use them changes the same rows to the same values', async () => {
    const sql = `UPDATE docs SET data = data #- '{b,c}' WHERE data ? 'b' AND data @> '{"a": 1}'`;
    const p = await patina.query(sql);
    const g = await postgres.query(sql);
    assert.equal(p.rowCount, g.rowCount);
    assert.equal(p.rowCount, 2);
    await same('SELECT id, data FROM docs ORDER BY id');
  });

  it('json_to_recordset and jsonb_to_record with a column list: rows of the members cast to the types (they were syntax errors); the bulk insert from one parameter', async () => {
    for (const q of [
      `SELECT * FROM jsonb_to_record('{"a": 1, "b": "x"}') AS r(a int, b text)`,
      `SELECT * FROM json_to_recordset('[{"a": 1, "b": "x", "c": true, "d": {"k": [1]}, "e": "2024-01-02"}, {"a": null, "c": false}]') AS r(a bigint, b text, c boolean, d jsonb, e date) ORDER BY a`,
      `SELECT r.* FROM json_to_recordset('[{"a": 1.5, "b": [1, 2]}]') AS r(a numeric, b json, c text)`,
      `SELECT x.id, x.name FROM jsonb_to_recordset('[{"id": 5, "name": "q"}]'::jsonb) x(id bigint, name text)`,
      `SELECT * FROM json_to_recordset('[{"A": 1, "a": 2}]') AS r("A" bigint, a bigint)`,
      `SELECT count(*) FROM json_to_recordset('[]') AS r(a int)`,
    ])
      await same(q);
    const rows = JSON.stringify([
      { id: 7, data: { k: 'v' } },
      { id: 8, data: null },
    ]);
    await same('SELECT * FROM json_to_recordset($1) AS x(id bigint, data jsonb) ORDER BY id', [rows]);
    for (const c of [patina, postgres])
      await c.query(
        'INSERT INTO docs (id, data) SELECT id, data FROM json_to_recordset($1) AS x(id bigint, data jsonb)',
        [rows],
      );
    await same('SELECT id, data FROM docs WHERE id > 6 ORDER BY id');
  });

  it('a member that is JSON null is SQL NULL in a json or jsonb column of json_to_recordset and its kin (it was the JSON value null: IS NULL false, @> false)', async () => {
    for (const q of [
      `SELECT x.id, x.j IS NULL, x.j::text FROM json_to_recordset('[{"id": 1, "j": null}, {"id": 2, "j": "null"}, {"id": 3, "j": [null]}, {"id": 4}]') AS x(id bigint, j jsonb) ORDER BY x.id`,
      `SELECT x.j IS NULL, x.j::text FROM json_to_recordset('[{"j": null}, {"j": [1]}]') AS x(j json)`,
      `SELECT r.data IS NULL, '[1]' @> r.data FROM jsonb_populate_record(NULL::docs, '{"id": 1, "data": null}') r`,
      `SELECT x.j IS NULL FROM jsonb_to_record('{"j": null}') AS x(j jsonb)`,
    ])
      await same(q);
  });

  it('json_populate_recordset(NULL::t, x) and json_populate_record: rows typed as table t (they were 42883); the bulk insert from one parameter', async () => {
    for (const q of [
      `SELECT * FROM json_populate_recordset(NULL::docs, '[{"id": 1, "data": {"k": [1]}, "tags": "a"}, {"id": "2", "extra": 3}]') ORDER BY id`,
      `SELECT id, tags FROM jsonb_populate_recordset(null::docs, '[{"id": 3, "tags": ["x"]}]'::jsonb) AS r`,
      `SELECT r.data FROM json_populate_record(NULL::public.docs, '{"data": "s"}') r`,
      `SELECT *, jsonb_populate_record.id + 1 FROM jsonb_populate_record(NULL::docs, '{"id": 4}') WHERE id > 0`,
      `SELECT count(*) FROM json_populate_recordset(NULL::docs, '[]')`,
    ])
      await same(q);
    const rows = JSON.stringify([
      { id: 17, data: { k: 'v' }, tags: 't' },
      { id: 18, data: null },
    ]);
    await same('SELECT * FROM json_populate_recordset(NULL::docs, $1) ORDER BY id', [rows]);
    for (const c of [patina, postgres])
      await c.query('INSERT INTO docs SELECT * FROM json_populate_recordset(NULL::docs, $1)', [rows]);
    await same('SELECT id, data, tags FROM docs WHERE id > 16 ORDER BY id');
  });

  it('text that is no JSON, or a path #- cannot take, gets the error PostgreSQL gives, and the session goes on', async () => {
    for (const [sql, code] of [
      [`SELECT '{not json' ::jsonb @> '{}'`, '22P02'],
      [`SELECT data #- '{b}' FROM docs WHERE id = 3`, '22P02'],
      [`SELECT data #- '{a}' FROM docs WHERE id = 4`, '22023'],
    ])
      for (const c of [patina, postgres])
        await assert.rejects(c.query(sql), (e: { code?: string; message: string }) => {
          assert.equal(e.code, code, `${sql}: ${e.message}`);
          return true;
        });
    await same('SELECT 1');
  });
  it("ORDER BY a jsonb value sorts in jsonb's order: numbers by value (a number document, stored as its text, sorted 100 before 7), null, strings, numbers, booleans, arrays, objects", async () => {
    await same('BEGIN');
    try {
      await same(
        `INSERT INTO docs (id, data) VALUES (100, '100'), (101, '7'), (102, '1.50'), (103, '-2'), (104, '-10.5'), (105, 'true'), (106, 'null'), (107, '[]'), (108, '[7]'), (109, '[10]'), (110, '[1, 2]'), (111, '{}'), (112, '0'), (113, '"b"'), (114, '1.5'), (115, '{"b": 1}'), (116, '{"a": 2}'), (117, '"\\u0001"'), (118, '""')`,
      );
      for (const q of [
        'SELECT id, data FROM docs ORDER BY data, id',
        'SELECT id FROM docs ORDER BY data DESC, id',
        'SELECT id, data FROM docs ORDER BY 2 NULLS FIRST, 1',
        `SELECT x FROM jsonb_array_elements('[100, 7, "a", 1.50, -3, null, true, false, [1], [0, 0], {}, "", 1e2]') AS x ORDER BY x`,
        `SELECT x FROM jsonb_array_elements('[100, 7, "a", 1.50, -3, null, true, [1], {}]') AS t(x) ORDER BY 1 DESC`,
        `SELECT value FROM jsonb_array_elements('[[1, "a"], [1, 2], [1, null], [1, true], [0, 0, 0], [1, {"k": 1}]]') ORDER BY value`,
      ])
        await same(q);
    } finally {
      await same('ROLLBACK');
    }
  });

  it("jsonb IN a list of literals compares as jsonb: a stored 1.50 is IN ('1.5') (it compared the stored text); a literal that is no JSON is PostgreSQL's 22P02", async () => {
    await same('BEGIN');
    try {
      await same(`INSERT INTO docs (id, data) VALUES (100, '1.50'), (101, '100'), (102, '[1.0, {"k": 2e0}]')`);
      for (const q of [
        `SELECT id FROM docs WHERE data IN ('1.5', '2', '1e2') ORDER BY id`,
        `SELECT id FROM docs WHERE data NOT IN ('1.5', '"red"') ORDER BY id`,
        `SELECT id FROM docs WHERE data IN ('[1, {"k": 2}]', '{"a": "1", "nested": {"a": {"b": {"c": 200}}}}') ORDER BY id`,
        `SELECT id, data IN ('1.5'::jsonb, '100.00') FROM docs ORDER BY id`,
      ])
        await same(q);
      await same('SELECT id FROM docs WHERE data IN ($1, $2) ORDER BY id', ['1.500', '"red"']);
    } finally {
      await same('ROLLBACK');
    }
    for (const sql of [`SELECT id FROM docs WHERE data IN ('1', '{"a" 1}')`, `SELECT id FROM docs WHERE '' < data`]) {
      const errors = [];
      for (const c of [patina, postgres])
        errors.push(
          await c.query(sql).then(
            () => 'no error',
            (e: { code?: string; message: string; detail?: string; position?: string }) => [
              e.code,
              e.message,
              e.detail,
              e.position,
            ],
          ),
        );
      assert.deepEqual(errors[0], errors[1], sql);
    }
  });

  it("to_json and to_jsonb of a double computed in the statement print PostgreSQL's shortest digits (100, not SQLite's 100.0), also stored so in a jsonb column", async () => {
    await same(
      `SELECT to_json(100.0::float8)::text, to_jsonb(100.0::float8)::text, to_jsonb('-0'::float8)::text, to_json(1e-7::float8)::text, to_jsonb(1e20::float8)::text, to_json(2.5::float8 * 2)::text`,
    );
    await same(
      `SELECT json_build_object('a', id * 1.0::float8)::text, jsonb_build_array(id / 2.0::float8)::text, json_agg(id * 10.0::float8 ORDER BY id)::text FROM docs WHERE id < 3 GROUP BY id ORDER BY id`,
    );
    // (and of an integer an operator computes as a REAL: a date's subtraction, 0 not 0.0)
    await same(
      `SELECT to_jsonb(date '2020-01-02' - date '2020-01-02')::text, json_build_object('n', date '2020-01-03' - date '2020-01-01', 'm', 1 + 1, 'k', NULL::int + 1)::text, to_json(9007199254740993::int8 + 0)::text, to_jsonb(NULL::int + 1) IS NULL`,
    );
    await same('BEGIN');
    try {
      await same(
        `INSERT INTO docs (id, data) VALUES (100, to_jsonb(100.0::float8)), (101, jsonb_build_object('x', 3::float8 / 1))`,
      );
      await same('SELECT id, data::text FROM docs WHERE id >= 100 ORDER BY id');
    } finally {
      await same('ROLLBACK');
    }
  });

  it("jsonb's -> and ->> of an index answer a scalar's own value at 0 and -1, as jsonb stores a scalar (they were NULL)", async () => {
    await same(
      'SELECT id, data -> 0, data ->> 0, data -> -1, data ->> -1, data -> 1, data ->> id::int - 4 FROM docs ORDER BY id',
    );
    await same(
      `SELECT '"a"'::jsonb -> 0, '"a"'::jsonb ->> 0, '1'::jsonb ->> -1, 'null'::jsonb -> 0, 'null'::jsonb ->> 0, '"a"'::jsonb -> 1, '{"a": 1}'::jsonb -> 0`,
    );
    await same(
      `SELECT '{"a": [5]}'::jsonb -> 'a' -> 0 -> 0, '{"a": 5}'::jsonb -> 'a' ->> 0, '2'::jsonb -> 0 || '[3]'::jsonb`,
    );
    // (json's are NULL there, as before)
    await same(`SELECT '"a"'::json -> 0, '"a"'::json ->> 0`);
  });

  it("an untyped string literal left of ->, #>, @>, - or arithmetic is PostgreSQL's 42725 or 42883 where several operators or none take it (SQLite computed with the text), jsonb's - where only it does", async () => {
    const failure = (c: PgClient, sql: string) =>
      c.query(sql).then(
        () => 'ran',
        (e: { code?: string; message: string; hint?: string; position?: string }) =>
          `${e.code} ${e.message} | ${e.hint ?? ''} @${e.position}`,
      );
    const fails = async (sql: string) => {
      const p = await failure(patina, sql);
      assert.equal(p, await failure(postgres, sql), sql);
      return p;
    };
    assert.equal(
      await fails(`SELECT '{"a": 1}' -> 'a'`),
      '42725 operator is not unique: unknown -> unknown | Could not choose a best candidate operator. You might need to add explicit type casts. @19',
    );
    assert.equal(
      await fails(`SELECT '[1, 2]' -> 1.5`),
      '42883 operator does not exist: unknown -> numeric | No operator matches the given name and argument types. You might need to add explicit type casts. @17',
    );
    for (const sql of [
      `SELECT '{"a": 1}' ->> 'a'`,
      `SELECT '[1, 2]' -> 0`,
      `SELECT '[1, 2]' ->> 1::smallint`,
      `SELECT '[1, 2]' -> 1::bigint`,
      `SELECT '{"a": 1}' -> tags FROM docs`,
      `SELECT '{"a": {"b": 1}}' #> '{a,b}'`,
      `SELECT '{"a": {"b": 1}}' #>> ARRAY['a', 'b']`,
      `SELECT '[1, 2]' @> '[1]'`,
      `SELECT '[1, 2]' <@ '[1]'`,
      `SELECT '{"a": 1}' - 'a'`,
      `SELECT '5' - '3'`,
      `SELECT '5' * '3'`,
    ])
      assert.match(await fails(sql), /^42(725|883) /, sql);
    // one operator takes it: the literal is read as its type
    await same(
      `SELECT '{"a": 1, "b": 2}' - 'a'::text, '{"a": 1, "b": 2}' - ARRAY['a', 'b'], '["a", 1]' - tags FROM docs ORDER BY id`,
    );
    await same(`SELECT id, '[1, 2]' @> data, '{"a": 1}' ? 'a', '{"a": 1}' #- '{a}' FROM docs WHERE id < 7 ORDER BY id`);
  });
  it("a comparison of a jsonb read (doc -> 'a' = '1') compares the read, and jsonb beside a number or min/max of jsonb is PostgreSQL's 42883", async () => {
    // (a comparison's left operand stopped at ->: the key alone was read as JSON, 22P02)
    for (const q of [
      `SELECT id FROM docs WHERE data -> 'a' = '1' ORDER BY id`,
      `SELECT id FROM docs WHERE '1' = data -> 'a' ORDER BY id`,
      `SELECT id FROM docs WHERE data -> 'a' < '2' AND data #> '{b,c}' = '[]' ORDER BY id`,
      `SELECT id, data -> 'a' = '1', data -> 'tags' @> '["red"]' = true FROM docs ORDER BY id`,
    ])
      await same(q);
    // (SQLite compared the stored text with the number, and picked a min and max by the text)
    for (const sql of [
      'SELECT min(data) FROM docs',
      'SELECT max(data) OVER () FROM docs',
      'SELECT min(data::json) FROM docs',
      'SELECT id FROM docs WHERE data IN (1, 2)',
      "SELECT id FROM docs WHERE data -> 'a' = 1",
    ]) {
      const errors = [];
      for (const c of [patina, postgres])
        errors.push(
          await c.query(sql).then(
            () => 'no error',
            (e: { code?: string; message: string; hint?: string; position?: string }) => [
              e.code,
              e.message,
              e.hint,
              e.position,
            ],
          ),
        );
      assert.deepEqual(errors[0], errors[1], sql);
    }
  });

  it("GROUP BY, DISTINCT, count(DISTINCT), DISTINCT ON, UNION, INTERSECT, EXCEPT and IN (SELECT ...) of jsonb tell values apart as jsonb does (a stored 1.50 and 1.5 are one), and ORDER BY a select item's name sorts as that item", async () => {
    // (they went by the stored text: `1.50` and `1.5` two groups, `100` sorted before `7` after a UNION)
    await same('BEGIN');
    try {
      await same(
        `INSERT INTO docs (id, data) VALUES (100, '1.50'), (101, '1.5'), (102, '{"b": [2.00], "a": 1}'), (103, '{"a": 1.0, "b": [2]}'), (104, '100'), (105, '7'), (106, '"7"')`,
      );
      for (const q of [
        'SELECT min(id), count(*), data::text FROM docs WHERE id >= 100 GROUP BY data ORDER BY 1',
        'SELECT data, count(*) FROM docs WHERE id >= 100 GROUP BY data HAVING count(*) > 1 ORDER BY data',
        'SELECT data, count(*) FROM docs WHERE id >= 100 GROUP BY 1 ORDER BY 1',
        'SELECT count(*), data AS d FROM docs WHERE id >= 100 GROUP BY d ORDER BY d',
        'SELECT count(DISTINCT data) FROM docs',
        'SELECT count(DISTINCT data), count(DISTINCT data::text) FROM docs WHERE id >= 100',
        'SELECT DISTINCT data FROM docs WHERE id >= 100 ORDER BY data',
        // (a group's value is its first row's, as written: 1.50)
        'SELECT data::text FROM (SELECT DISTINCT data FROM docs WHERE id >= 100) AS s ORDER BY 1',
        'SELECT DISTINCT ON (data) data, id FROM docs WHERE id >= 100 ORDER BY data, id',
        'SELECT DISTINCT ON (data) id FROM docs WHERE id >= 100 ORDER BY data DESC, id DESC',
        `SELECT data FROM docs WHERE id >= 100 UNION SELECT '1.500'::jsonb ORDER BY 1`,
        `SELECT data FROM docs WHERE id >= 100 UNION ALL SELECT '1.500'::jsonb ORDER BY data DESC`,
        // (a string literal beside jsonb is jsonb: the column's type; it was text)
        `SELECT data FROM docs WHERE id >= 100 UNION SELECT '1.500' ORDER BY 1`,
        `SELECT data FROM docs WHERE id = 102 UNION ALL SELECT '{"b": [2], "a": 1.0}'`,
        `SELECT data FROM docs WHERE id >= 100 INTERSECT SELECT '1.500'::jsonb`,
        `SELECT data FROM docs WHERE id >= 100 EXCEPT SELECT '1.500'::jsonb ORDER BY 1`,
        'SELECT id FROM docs WHERE data IN (SELECT data FROM docs WHERE id = 101) ORDER BY id',
        'SELECT id FROM docs WHERE data NOT IN (SELECT data FROM docs WHERE id IN (101, 102)) ORDER BY id',
        `SELECT id FROM docs WHERE data IN (SELECT '{"a": 1, "b": [2.0]}'::jsonb) ORDER BY id`,
        // (= ANY and <> ALL of a subquery are its IN and NOT IN)
        'SELECT id FROM docs WHERE data = ANY (SELECT data FROM docs WHERE id = 101) ORDER BY id',
        'SELECT id FROM docs WHERE data <> ALL (SELECT data FROM docs WHERE id IN (101, 102)) ORDER BY id',
        // ORDER BY an alias: in jsonb's order; by the name of an item made text: as that text
        'SELECT id, data AS d FROM docs ORDER BY d, id',
        'SELECT id, data AS "D" FROM docs ORDER BY "D" DESC NULLS LAST, id',
        'SELECT data::text FROM docs WHERE id >= 100 ORDER BY data',
        // (an alias that is a table's column too: by the item, not the table's id or tags)
        'SELECT data AS id FROM docs WHERE id >= 100 ORDER BY id',
        'SELECT data AS id, count(*) FROM docs WHERE id >= 100 GROUP BY id ORDER BY 1 DESC, 2',
        'SELECT d.id AS n, d.data AS tags FROM docs AS d ORDER BY tags DESC, n',
      ])
        await both(q);
    } finally {
      await same('ROLLBACK');
    }
  });

  it("a window's PARTITION BY and ORDER BY and an aggregate's ORDER BY of jsonb go by jsonb's order and equality (they went by the stored text: 1.50 and 1.5 two partitions, 100 before 7)", async () => {
    await same('BEGIN');
    try {
      await same(
        `INSERT INTO docs (id, data) VALUES (100, '1.50'), (101, '1.5'), (102, '{"b": [2.00], "a": 1}'), (103, '{"a": 1.0, "b": [2]}'), (104, '100'), (105, '7'), (106, '"7"')`,
      );
      for (const q of [
        'SELECT id, count(*) OVER (PARTITION BY data) FROM docs ORDER BY id',
        'SELECT id, rank() OVER (ORDER BY data) FROM docs ORDER BY id',
        'SELECT id, row_number() OVER (ORDER BY data DESC, id) FROM docs ORDER BY id',
        `SELECT id, rank() OVER (PARTITION BY data -> 'a' ORDER BY data -> 'b', id) FROM docs ORDER BY id`,
        'SELECT id, sum(id) OVER w FROM docs WINDOW w AS (PARTITION BY data ORDER BY id) ORDER BY id',
        'SELECT array_agg(data ORDER BY data, id), jsonb_agg(data ORDER BY data DESC, id) FROM docs WHERE id >= 100',
        `SELECT string_agg(id::text, ',' ORDER BY data, id) FROM docs`,
      ])
        await same(q);
    } finally {
      await same('ROLLBACK');
    }
  });

  it("jsonb = ANY, <> ALL and the other comparisons with ANY or ALL of an array compare as jsonb (a stored 1.50 was not = ANY (ARRAY['1.5'::jsonb])); an array or a subquery of text is PostgreSQL's 42883", async () => {
    await same('BEGIN');
    try {
      await same(
        `INSERT INTO docs (id, data) VALUES (100, '1.50'), (101, '{"b": [2.00], "a": 1}'), (102, '100'), (103, '7')`,
      );
      for (const q of [
        `SELECT id FROM docs WHERE data = ANY (ARRAY['1.5'::jsonb, '{"a": 1, "b": [2]}']) ORDER BY id`,
        `SELECT id FROM docs WHERE data = ANY (ARRAY['1', '{"a":1,"b":[2]}']::jsonb[]) ORDER BY id`,
        `SELECT id FROM docs WHERE data <> ALL (ARRAY['1.5'::jsonb, '7.0']) ORDER BY id`,
        `SELECT id FROM docs WHERE data = SOME ('{1.5,7.0}'::jsonb[]) ORDER BY id`,
        `SELECT id FROM docs WHERE data = ANY ('{1.5,"{\\"a\\":1,\\"b\\":[2]}"}') ORDER BY id`,
        `SELECT id, data = ANY ('{7.0,NULL}'::jsonb[]) FROM docs ORDER BY id`,
        `SELECT id FROM docs WHERE data < ANY ('{1.5,7.0}'::jsonb[]) ORDER BY id`,
        `SELECT id FROM docs WHERE data = ALL ('{1.5,1.50}'::jsonb[]) ORDER BY id`,
        `SELECT id FROM docs WHERE data <> ANY ('{1.5}'::jsonb[]) ORDER BY id`,
      ])
        await same(q);
      await same('SELECT id FROM docs WHERE data = ANY ($1) ORDER BY id', [['1.5', '{"a": 1, "b": [2]}']]);
      await same('SELECT id FROM docs WHERE data <> ALL ($1) ORDER BY id', [['7.00']]);
      await same('SELECT id FROM docs WHERE data > ANY ($1) ORDER BY id', [['7']]);
    } finally {
      await same('ROLLBACK');
    }
    for (const sql of [
      `SELECT id FROM docs WHERE data = ANY (ARRAY['1.5', '{"a":1}']) ORDER BY id`,
      `SELECT id FROM docs WHERE data <> ALL ('{x}'::text[]) ORDER BY id`,
      'SELECT id FROM docs WHERE data = ANY (ARRAY[1, 2]) ORDER BY id',
      // (a subquery's column of text, a string literal or NULL too, or of numbers: it ran)
      `SELECT id FROM docs WHERE data IN (SELECT '1.5') ORDER BY id`,
      'SELECT id FROM docs WHERE data NOT IN (SELECT NULL) ORDER BY id',
      'SELECT id FROM docs WHERE data = ANY (SELECT tags FROM docs) ORDER BY id',
      'SELECT id FROM docs WHERE data <> ALL (SELECT d.id FROM docs AS d) ORDER BY id',
      `SELECT id FROM docs WHERE data IN (SELECT '1.5'::jsonb) ORDER BY id`,
    ]) {
      const outcome = (c: PgClient) =>
        c.query(sql).then(
          () => 'ran',
          (e: { code?: string; message: string; hint?: string; position?: string }) =>
            `${e.code} ${e.message} | ${e.hint} @${e.position}`,
        );
      assert.equal(await outcome(patina), await outcome(postgres), sql);
    }
  });

  it('SELECT DISTINCT of jsonb beside a window function tells values apart as jsonb does (1.50 and 1.5 were two rows), the window over every row, the columns named as PostgreSQL names them', async () => {
    await same('BEGIN');
    try {
      await same(
        `INSERT INTO docs (id, data) VALUES (100, '1.50'), (101, '1.5'), (102, '{"b": [2.00], "a": 1}'), (103, '{"a": 1.0, "b": [2]}'), (104, '100'), (105, '7'), (106, NULL)`,
      );
      for (const q of [
        'SELECT DISTINCT data, count(*) OVER () FROM docs WHERE id >= 100 ORDER BY 1',
        'SELECT DISTINCT data AS d, count(*) OVER (PARTITION BY id % 2) AS n FROM docs WHERE id >= 100 ORDER BY n, d',
        'SELECT DISTINCT data d, max(id) OVER w > 0 AS "Pos" FROM docs WHERE id >= 100 WINDOW w AS (ORDER BY id) ORDER BY d DESC LIMIT 3 OFFSET 1',
        'SELECT count(*) FROM (SELECT DISTINCT data, count(*) OVER () FROM docs WHERE id >= 100) s',
        'SELECT DISTINCT data, id > 102, sum(id) OVER () FROM docs WHERE id >= 100 ORDER BY 2, 1',
      ]) {
        await both(q);
        const names = (r: { fields: { name: string }[] }) => r.fields.map((f) => f.name);
        assert.deepEqual(names(await patina.query(q)), names(await postgres.query(q)), `names of ${q}`);
      }
    } finally {
      await same('ROLLBACK');
    }
  });

  it("array_agg(DISTINCT doc), jsonb_agg(DISTINCT doc) and json_agg(DISTINCT doc) drop repeats by jsonb's equality and sort in jsonb's order (1.50 and 1.5 were two, 100 before 7, and jsonb_agg's elements were strings)", async () => {
    await same('BEGIN');
    try {
      await same(
        `INSERT INTO docs (id, data) VALUES (100, '1.50'), (101, '1.5'), (102, '{"b": [2.00], "a": 1}'), (103, '{"a": 1.0, "b": [2]}'), (104, '100'), (105, '7'), (106, '"7"')`,
      );
      for (const q of [
        'SELECT array_agg(DISTINCT data), jsonb_agg(DISTINCT data) FROM docs',
        'SELECT array_agg(DISTINCT data ORDER BY data DESC), jsonb_agg(DISTINCT data ORDER BY data) FROM docs',
        'SELECT id % 2, array_agg(DISTINCT data), jsonb_agg(DISTINCT data) FILTER (WHERE id > 2) FROM docs GROUP BY 1 ORDER BY 1',
        `SELECT jsonb_agg(DISTINCT data -> 'a') FROM docs`,
        'SELECT array_agg(DISTINCT data), jsonb_agg(DISTINCT data) FROM docs WHERE id > 1000',
        // (as text: each value as its first row wrote it)
        'SELECT array_agg(DISTINCT data)::text, jsonb_agg(DISTINCT data)::text FROM docs WHERE id IN (100, 104, 105, 106, 6)',
        'SELECT count(DISTINCT data), array_length(array_agg(DISTINCT data), 1) FROM docs',
        // json_agg(DISTINCT) of jsonb likewise, of a table's column and of a subquery's (whose
        // elements came out as strings, one per stored text)
        'SELECT json_agg(DISTINCT data), json_agg(DISTINCT data ORDER BY data DESC) FROM docs WHERE id >= 100',
        'SELECT json_agg(DISTINCT d) FROM (SELECT data AS d FROM docs WHERE id >= 100 UNION ALL SELECT data FROM docs) s',
        `SELECT json_agg(DISTINCT x) FROM (VALUES ('1.50'::jsonb), ('1.5'::jsonb), ('[1, 2.0]'), (NULL)) v(x)`,
        // an ORDER BY that is the argument written again, holding ARRAY[...] or an IN list (42P10:
        // the tree's list offsets told the two apart)
        'SELECT jsonb_agg(DISTINCT to_jsonb(ARRAY[id, id % 3]) ORDER BY to_jsonb(ARRAY[id, id % 3])) FROM docs',
        'SELECT jsonb_agg(DISTINCT to_jsonb(id IN (100, 104)) ORDER BY to_jsonb(id IN (100, 104))) FROM docs',
      ])
        await same(q);
    } finally {
      await same('ROLLBACK');
    }
    const sql = 'SELECT array_agg(DISTINCT data ORDER BY id) FROM docs';
    const outcome = (c: PgClient) =>
      c.query(sql).then(
        () => 'ran',
        (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
      );
    assert.equal(await outcome(patina), await outcome(postgres), sql);
  });

  it("json_object_agg(DISTINCT k, v) and jsonb_object_agg(DISTINCT k, v) drop repeated pairs and add them sorted by the ORDER BY, then the key and the value (SQLite's 42000: DISTINCT aggregates must have exactly one argument)", async () => {
    for (const q of [
      `SELECT json_object_agg(DISTINCT x, y), jsonb_object_agg(DISTINCT x, y) FROM (VALUES ('b', 2), ('a', 1), ('a', 1), ('a', 0), ('c', NULL)) v(x, y)`,
      `SELECT json_object_agg(DISTINCT x, y ORDER BY y DESC), json_object_agg(DISTINCT x, y ORDER BY x DESC) FROM (VALUES ('b', 2), ('a', 1), ('a', 1), ('a', 0)) v(x, y)`,
      // (a number key is its text; a jsonb value keeps its text)
      'SELECT json_object_agg(DISTINCT id, data), jsonb_object_agg(DISTINCT id % 3, id) FROM docs',
      'SELECT id % 2, json_object_agg(DISTINCT id % 3, id / 2) FROM docs GROUP BY 1 ORDER BY 1',
      `SELECT json_build_object('o', json_object_agg(DISTINCT id % 2, id > 2)) FROM docs`,
      'SELECT json_object_agg(DISTINCT id, data) FROM docs WHERE id > 100',
    ])
      await same(q);
    // a NULL key is PostgreSQL's 22023, an ORDER BY of another expression its 42P10
    for (const q of [
      'SELECT json_object_agg(DISTINCT tags, id) FROM docs',
      `SELECT json_object_agg(DISTINCT x, y ORDER BY x || 'z') FROM (VALUES ('a', 1)) v(x, y)`,
    ])
      await sameOutcomeOnBoth(o, q);
  });

  it("json_object_agg(k, v) and jsonb_object_agg(k, v) of a row with a NULL key are PostgreSQL's 22023 (SQLite's json_group_object left the pair out)", async () => {
    for (const q of [
      `SELECT json_object_agg(k, v) FROM (VALUES ('a', 1), (NULL, 2)) x(k, v)`,
      `SELECT jsonb_object_agg(k, v) FROM (VALUES ('a', 1), (NULL, 2)) x(k, v)`,
      `SELECT json_object_agg(k, v) OVER (ORDER BY v) FROM (VALUES ('a', 1), (NULL, 2)) x(k, v)`,
    ])
      await sameOutcomeOnBoth(o, q);
    // (no NULL key among the rows the aggregate reads: the object, as before)
    await same(`SELECT json_object_agg(k, v) FILTER (WHERE k IS NOT NULL), jsonb_object_agg(k, v) FILTER (WHERE v < 2)
      FROM (VALUES ('a', 1), (NULL, 2), ('b', NULL)) x(k, v)`);
  });

  it('a boolean key of json_build_object, jsonb_build_object, json_object_agg and jsonb_object_agg (DISTINCT too) is PostgreSQL\'s "true" or "false", not SQLite\'s "1" or "0"', async () => {
    // (the documents' text as the server sent it: the keys, their order, jsonb's order by length)
    const text = (c: PgClient, sql: string) =>
      c.query({ text: sql, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } }).then(
        (r) => r.rows,
        (e: { code?: string; message: string }) => `${e.code} ${e.message}`,
      );
    for (const sql of [
      'SELECT json_object_agg(b, id), jsonb_object_agg(b, id) FROM flags WHERE b IS NOT NULL',
      'SELECT json_object_agg(DISTINCT b, id > 1), jsonb_object_agg(DISTINCT b, 0) FROM flags WHERE b IS NOT NULL',
      'SELECT id, json_build_object(b, 1, flags.b, b), jsonb_build_object(b, 1, NOT b, 2) FROM flags WHERE id <> 3 ORDER BY id',
      'SELECT id, json_build_object(id > 1, 1, b IS NULL, 2), jsonb_build_object(id = 2, id) FROM flags ORDER BY id',
      'SELECT json_build_object(true, 1, false, 2), jsonb_build_object(false, 1), json_build_object(1 = 1, 2 = 3)',
      'SELECT json_object_agg(x, id) FROM (SELECT id > 2 AS x, id FROM flags) q',
      'WITH c AS (SELECT b AS k FROM flags WHERE b IS NOT NULL) SELECT json_object_agg(k, 1), jsonb_object_agg(DISTINCT k, 1) FROM c',
      // (keys whose type the analysis tells: a CASE, coalesce, a VALUES column, unnest's elements)
      'SELECT id, json_build_object(CASE WHEN id = 1 THEN true ELSE false END, 1, coalesce(b, false), 2) FROM flags ORDER BY id',
      'SELECT json_object_agg(x, 1), jsonb_object_agg(x, 2) FROM (VALUES (true), (false)) v(x)',
      'SELECT json_object_agg(x, 1) FROM unnest(ARRAY[true, false]) x',
      // (a NULL key: PostgreSQL's 22023, as before)
      'SELECT json_object_agg(b, id) FROM flags',
      'SELECT json_build_object(b, 1) FROM flags WHERE id = 3',
      // (json_agg(DISTINCT b): true and false, sorted)
      'SELECT json_agg(DISTINCT b), jsonb_agg(DISTINCT b), json_agg(DISTINCT id > 1) FROM flags',
    ])
      assert.deepEqual(await text(patina, sql), await text(postgres, sql), sql);
  });

  it("jsonb compared with a literal that is no jsonb in a simple Query is PostgreSQL's error, as in an extended one: 42883 for a number, 22P02 with its DETAIL and position for text that is no JSON", async () => {
    // (a simple Query's compared literal is bound as a parameter: `data = 1` was false, `data = 'x'`
    // 22P02 without the DETAIL and position)
    const failure = (c: PgClient, text: string, queryMode?: 'extended') =>
      c.query({ text, queryMode, rowMode: 'array' }).then(
        (r) => `ran: ${JSON.stringify(r.rows)}`,
        (e: { code?: string; message: string; detail?: string; hint?: string; position?: string }) =>
          `${e.code} ${e.message} | ${e.detail ?? ''} | ${e.hint ?? ''} @${e.position}`,
      );
    for (const sql of [
      'SELECT id FROM docs WHERE data = 1',
      'SELECT id FROM docs WHERE data <> 2 AND id > 1',
      "SELECT id FROM docs WHERE data = 'x'",
      "SELECT id FROM docs WHERE data < 'x'",
      `SELECT id FROM docs WHERE id = 1 AND data = '{"a" 1}'`,
      `SELECT id FROM docs WHERE data = '"\\u0000"'`,
      // (and JSON that is: as before)
      `SELECT id FROM docs WHERE data = '"red"' AND id = 4`,
    ])
      for (const mode of [undefined, 'extended'] as const) {
        const p = await failure(patina, sql, mode);
        assert.equal(p, await failure(postgres, sql, mode), `${sql} (${mode ?? 'simple'})`);
      }
  });

  it("jsonb BETWEEN bounds compares in jsonb's order (it compared the stored text: 7 was not between '1.5' and '10'); a bound that is a number is PostgreSQL's 42883, one that is no JSON its 22P02", async () => {
    const outcome = (c: PgClient, text: string, queryMode?: 'extended', values?: unknown[]) =>
      c.query({ text, values, queryMode, rowMode: 'array' }).then(
        (r) => `ran: ${JSON.stringify(r.rows)}`,
        (e: { code?: string; message: string; detail?: string; hint?: string; position?: string }) =>
          `${e.code} ${e.message} | ${e.detail ?? ''} | ${e.hint ?? ''} @${e.position}`,
      );
    const both = async (sqls: string[]) => {
      for (const sql of sqls)
        for (const mode of [undefined, 'extended'] as const) {
          const p = await outcome(patina, sql, mode);
          assert.equal(p, await outcome(postgres, sql, mode), `${sql} (${mode ?? 'simple'})`);
        }
    };
    await same('BEGIN');
    try {
      await same(`INSERT INTO docs (id, data) VALUES (100, '1.50'), (101, '100'), (102, '7'), (103, '10')`);
      await both([
        `SELECT id FROM docs WHERE data BETWEEN '1.5' AND '10' ORDER BY id`,
        `SELECT id FROM docs WHERE data NOT BETWEEN '1.50' AND '7' ORDER BY id`,
        `SELECT id, data BETWEEN '"a"' AND '{}' FROM docs ORDER BY id`,
        `SELECT id FROM docs WHERE data BETWEEN '7'::jsonb AND '100'::jsonb ORDER BY id`,
      ]);
      const sql = 'SELECT id FROM docs WHERE data BETWEEN $1 AND $2 ORDER BY id';
      assert.equal(
        await outcome(patina, sql, 'extended', ['7', '100']),
        await outcome(postgres, sql, 'extended', ['7', '100']),
      );
    } finally {
      await same('ROLLBACK');
    }
    // (errors outside the block: they end it)
    await both([
      'SELECT id FROM docs WHERE data BETWEEN 1 AND 2',
      `SELECT id FROM docs WHERE data NOT BETWEEN '1' AND 2`,
      `SELECT id FROM docs WHERE data BETWEEN 'x' AND '2'`,
    ]);
  });

  it("a join USING (data) or NATURAL over jsonb columns matches by jsonb's equality (a stored 1.50 and 1.5 are one; it compared the stored text), the merged column read as PostgreSQL's; json's is 42883", async () => {
    await same('BEGIN');
    try {
      await same(
        `INSERT INTO docs (id, data) VALUES (100, '1.50'), (101, '1.5'), (102, '{"b": [2.00], "a": 1}'), (103, '{"a": 1.0, "b": [2]}'), (104, NULL)`,
      );
      const l = '(SELECT id, data FROM docs WHERE id IN (100, 102, 104)) l';
      const r = '(SELECT id AS rid, data FROM docs WHERE id IN (101, 103, 104)) r';
      for (const q of [
        `SELECT * FROM ${l} JOIN ${r} USING (data) ORDER BY id, rid`,
        `SELECT data, id, rid FROM ${l} LEFT JOIN ${r} USING (data) ORDER BY id, rid`,
        `SELECT * FROM ${l} RIGHT JOIN ${r} USING (data) ORDER BY id, rid`,
        `SELECT data, l.data, r.data, id, rid FROM ${l} FULL JOIN ${r} USING (data) ORDER BY id, rid`,
        `SELECT * FROM ${l} NATURAL JOIN ${r} ORDER BY id, rid`,
        `SELECT * FROM ${l} NATURAL FULL JOIN ${r} ORDER BY 1, id, rid`,
        `SELECT data, count(*) FROM ${l} JOIN ${r} USING (data) GROUP BY data ORDER BY data`,
        `SELECT id FROM ${l} JOIN ${r} USING (data) WHERE data = '1.5' ORDER BY id`,
        `SELECT DISTINCT data FROM ${l} JOIN ${r} USING (data) ORDER BY data`,
        `SELECT data, id FROM ${l} JOIN ${r} USING (data) ORDER BY 1, 2`,
        'SELECT a.id, b.id FROM docs a JOIN docs b USING (data) WHERE a.id >= 100 AND a.id <> b.id ORDER BY 1, 2',
        'WITH w AS (SELECT id AS k, data FROM docs WHERE id >= 100) SELECT * FROM docs NATURAL JOIN w ORDER BY id, k',
      ])
        await both(q);
    } finally {
      await same('ROLLBACK');
    }
    // (json has no equality: errors outside the block, they end it)
    await sameOutcomeOnBoth(
      o,
      'SELECT * FROM (SELECT id, data::json AS data FROM docs) l JOIN (SELECT id AS k, data::json AS data FROM docs) r USING (data)',
    );
    await sameOutcomeOnBoth(
      o,
      'SELECT * FROM (SELECT id, data::json AS data FROM docs) l NATURAL JOIN (SELECT id AS k, data::json AS data FROM docs) r',
    );
  });

  it("two jsonb USING joins match by jsonb's equality, the second's right side a join in parentheses too (it compared the stored text: 1.50 met no 1.5)", async () => {
    await same('BEGIN');
    try {
      await same(
        `INSERT INTO docs (id, data) VALUES (100, '1.50'), (101, '1.5'), (102, '1.500'), (103, '{"b": [2.00], "a": 1}'), (104, '{"a": 1.0, "b": [2]}'), (105, NULL), (106, '7')`,
      );
      const [a, b, c] = ['a.id IN (100, 103, 105, 106)', 'b.id IN (101, 104, 105)', 'c.id IN (102, 103, 105)'];
      for (const q of [
        `SELECT a.id, b.id, c.id, data::text FROM docs a JOIN docs b USING (data) JOIN docs c USING (data) WHERE ${a} AND ${b} AND ${c} ORDER BY 1, 2, 3`,
        `SELECT a.id, b.id, c.id, data::text FROM docs a JOIN (docs b JOIN docs c USING (data)) USING (data) WHERE ${a} AND ${b} AND ${c} ORDER BY 1, 2, 3`,
        `SELECT a.id, b.id, c.id, data::text FROM (SELECT * FROM docs a WHERE ${a}) a LEFT JOIN ((SELECT * FROM docs b WHERE ${b}) b JOIN (SELECT * FROM docs c WHERE ${c}) c USING (data)) USING (data) ORDER BY 1, 2, 3`,
        `SELECT a.id, b.id, c.id, data::text FROM docs a RIGHT JOIN (docs b LEFT JOIN docs c USING (data)) USING (data) WHERE (a.id IS NULL OR ${a}) AND ${b} AND (c.id IS NULL OR ${c}) ORDER BY 1, 2, 3`,
        `SELECT data, count(*) FROM docs a JOIN (docs b JOIN docs c USING (data)) USING (data) WHERE ${a} AND ${b} AND ${c} GROUP BY data ORDER BY 1`,
      ])
        await both(q);
    } finally {
      await same('ROLLBACK');
    }
  });

  it("a join USING (data) whose merged name a subquery reads matches by jsonb's equality too, the subquery's own column where it has one (it compared the stored text)", async () => {
    await same('BEGIN');
    try {
      await same(`INSERT INTO docs (id, data) VALUES (100, '1.50'), (101, '1.5'), (102, '{"b": 1, "a": 2}')`);
      await same(`INSERT INTO flags VALUES (100, true), (101, false), (102, NULL)`);
      const join = 'docs a JOIN docs b USING (data) WHERE a.id >= 100 AND b.id >= 100';
      for (const q of [
        `SELECT a.id, b.id, (SELECT data) FROM ${join} ORDER BY 1, 2`,
        `SELECT a.id, b.id, (SELECT data::text) FROM ${join} ORDER BY 1, 2`,
        `SELECT a.id, b.id FROM ${join} AND EXISTS (SELECT 1 FROM flags f WHERE f.id = a.id AND data IS NOT NULL) ORDER BY 1, 2`,
        `SELECT a.id, b.id, (SELECT count(*) FROM docs d WHERE d.data = data) FROM ${join} ORDER BY 1, 2`,
        `SELECT a.id, b.id, (SELECT count(*) FROM docs WHERE docs.data = data) FROM ${join} ORDER BY 1, 2`,
        `SELECT a.id, b.id, (SELECT max(f.id) FROM flags f WHERE (SELECT data) IS NOT NULL) FROM ${join} ORDER BY 1, 2`,
      ])
        await both(q);
    } finally {
      await same('ROLLBACK');
    }
  });
});
