// The json (not jsonb) text of builders where PostgreSQL keeps their spacing and Patina printed
// SQLite's compact text: a CASE of builders, a builder in a CASE inside a builder, to_json of a
// builder, and a builder written into a json column (INSERT, UPDATE, ON CONFLICT DO UPDATE, with
// parameters), read back as text. The same statements on Patina and PostgreSQL 15, every value as
// the text the server sent.
import assert from 'node:assert/strict';
import { type OracleClients, startOracle } from '../helpers/catalog-pair';
import type { PgClient } from '../helpers/pg';

const SCHEMAS = {
  patina: 'CREATE TABLE j (id INTEGER NOT NULL PRIMARY KEY, doc JSON, bin JSONB, name TEXT);',
  postgres: 'CREATE TABLE j (id bigint NOT NULL PRIMARY KEY, doc json, bin jsonb, name text);',
};
const ROWS = [
  `INSERT INTO j (id, doc, name) VALUES (1, '{"a": 1}', 'x'), (2, '[1, 2]', 'y'), (9, '{"k" :  "v"}', 'w')`,
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
});
