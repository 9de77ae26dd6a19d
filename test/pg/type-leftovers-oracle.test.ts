// Result types and errors PostgreSQL 15 gives where Patina differed: an INTEGER[] column named
// `integer[]` in its errors (it said bigint[]), an array of timetz typed timetz[] (OID 1270, it was
// text) in text and binary, `<->` of types Patina has (tsquery's FOLLOWED BY, else 42883; it was
// SQLite's 42601), and array_fill of text dimensions or of an unknown value refused as there.
import assert from 'node:assert/strict';
import { oracleSuite } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE lists (id BIGINT NOT NULL PRIMARY KEY, ints INTEGER[], smalls SMALLINT[], n INTEGER, b BIGINT);`;
const ROWS = [`INSERT INTO lists VALUES (1, '{3,1}', '{1}', 1, 10), (2, '{1,2}', NULL, 2, 20)`];

describe('result types and errors left over (integer[], timetz[], <->, array_fill), against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);
  /** The error of `sql` on both servers: its SQLSTATE, message, position and HINT, the same. */
  const sameError = async (sql: string, params?: unknown[]) => {
    const failure = async (c: ReturnType<typeof clients>['patina']) => {
      try {
        await c.query({ text: sql, values: params, rowMode: 'array' });
      } catch (e) {
        const err = e as { code?: string; message: string; position?: string; hint?: string };
        return { code: err.code, message: err.message, position: err.position, hint: err.hint };
      }
      return null;
    };
    const [p, g] = [await failure(clients().patina), await failure(clients().postgres)];
    assert.notEqual(g, null, `PostgreSQL ran ${sql}`);
    assert.deepEqual(p, g, `${sql} ${JSON.stringify(params ?? [])}`);
  };

  it('an INTEGER[] (SMALLINT[]) column is named integer[] (smallint[]) in 42883 and 42804, at the operator', async () => {
    for (const sql of [
      "SELECT ints = ARRAY['x'] FROM lists",
      'SELECT ints = ARRAY[1.5] FROM lists',
      "SELECT ints @> ARRAY['x'] FROM lists",
      "SELECT ints || ARRAY['x'] FROM lists",
      "SELECT ints || 'x'::text FROM lists",
      "SELECT 'x'::text || smalls FROM lists",
      "SELECT smalls = ARRAY['x'] FROM lists",
      "INSERT INTO lists (id, ints) VALUES (9, ARRAY['x'])",
      'UPDATE lists SET ints = ARRAY[true] WHERE id = 1',
      'UPDATE lists SET smalls = ARRAY[now()] WHERE id = 1',
    ])
      await sameError(sql);
    await same('SELECT id, ints = ARRAY[1, 2], ints @> ARRAY[1] FROM lists ORDER BY id');
  });

  it("array_agg, json_agg and jsonb_agg of DISTINCT arrays sort them as arrays ({9} before {10}; it was the text's order)", async () => {
    const v = "(VALUES ('{10}'::int[]), ('{9}'::int[]), ('{9,1}'::int[]), (NULL), ('{10}'::int[])) v(x)";
    await same(`SELECT json_agg(DISTINCT x), jsonb_agg(DISTINCT x) FROM ${v}`);
    await same("SELECT array_agg(DISTINCT x) FROM (VALUES ('{10}'::int[]), ('{9}'::int[]), ('{-1}'::int[])) v(x)");
    await same("SELECT json_agg(DISTINCT x) FROM (VALUES ('{b}'::text[]), ('{a,b}'::text[]), ('{}'::text[])) v(x)");
    await same("INSERT INTO lists VALUES (3, '{10}', '{9}', 3, 30)");
    await same('SELECT json_agg(DISTINCT ints), json_agg(DISTINCT smalls) FROM lists');
    await same('DELETE FROM lists WHERE id = 3');
  });

  it('integer literals in a UNION, VALUES and CASE are int4, as there', async () => {
    for (const sql of [
      'SELECT 1 UNION SELECT 2 ORDER BY 1',
      'VALUES (1), (2)',
      'SELECT x FROM (VALUES (1), (2)) v(x) ORDER BY x',
      'SELECT id, CASE WHEN n > 1 THEN 1 ELSE 2 END FROM lists ORDER BY id',
    ])
      await same(sql);
  });

  it('an array of timetz is timetz[] (OID 1270), in text and in binary', async () => {
    await same("SELECT ARRAY['10:00+02'::timetz, NULL, '23:59:59.5-03:30'::timetz]");
    await same(
      "SELECT array_agg(x ORDER BY x) FROM (VALUES ('10:00+02'::timetz), ('08:00+00'::timetz), ('07:00-01'::timetz)) v(x)",
    );
    await same("SELECT pg_typeof(ARRAY['10:00+02'::timetz])::text, (ARRAY['10:00+02'::timetz])[1]");
    const binary = async (c: ReturnType<typeof clients>['patina']) => {
      const r = await c.query({
        text: "SELECT ARRAY['10:00+02'::timetz, NULL, '23:59:59.5-03:30'::timetz] AS a",
        binary: true,
        rowMode: 'array',
      } as never);
      return [r.rows, r.fields.map((f: { dataTypeID: number }) => f.dataTypeID)];
    };
    const [p, g] = [await binary(clients().patina), await binary(clients().postgres)];
    assert.deepEqual(p, g);
    assert.deepEqual(g[1], [1270]);
  });

  it("<-> is tsquery's FOLLOWED BY; of other types 42883 (42725 of two unknowns), where SQLite's parser gave 42601", async () => {
    await same("SELECT 'a'::tsquery <-> 'b'::tsquery, to_tsquery('a') <-> to_tsquery('b & c') <-> 'd'::tsquery");
    await same("SELECT 'a'::tsquery <-> $1", ['b']);
    for (const sql of ['SELECT b <-> 1 FROM lists', 'SELECT n <-> 1 FROM lists', "SELECT 'a' <-> 'b'"])
      await sameError(sql);
    await sameError('SELECT b <-> $1 FROM lists', [1]);
  });

  it('array_fill of dimensions that are no integer[] is 42883, of an unknown value 42804 (it filled the text)', async () => {
    for (const [sql, params] of [
      ['SELECT array_fill($1, ARRAY[$2])', ['a', 2]],
      ['SELECT array_fill($1::int, ARRAY[$2])', [1, 2]],
      ['SELECT array_fill(1, ARRAY[$1])', [2]],
      ['SELECT array_fill($1, ARRAY[2])', [2]],
    ] as [string, unknown[]][])
      await sameError(sql, params);
    for (const sql of [
      "SELECT array_fill('a', ARRAY[2])",
      'SELECT array_fill(1, ARRAY[2::bigint])',
      'SELECT array_fill(1, ARRAY[b]) FROM lists',
      "SELECT array_fill(1, ARRAY['2'])",
      "SELECT array_fill(1, ARRAY[2], ARRAY['a'])",
    ])
      await sameError(sql);
    await same("SELECT array_fill(7, ARRAY[2]), array_fill(1, '{2}'), array_fill('a'::text, ARRAY[2, 1])");
    await same('SELECT array_fill(1, ARRAY[$1::int])', [2]);
    await same('SELECT id, array_fill(0, ARRAY[n]) FROM lists ORDER BY id');
  });
});
