// Names that are also the properties every JavaScript object has (`constructor`, `__proto__`,
// `toString`, ...) written where a user writes a function, type, table, column, setting, unit,
// zone, JSON key or statement name: the front end looks many words up in tables of its own, and a
// lookup in a plain object finds these on its prototype. Each statement gets PostgreSQL 15's
// SQLSTATE (or its rows), never an internal error, and the agent lives on. And tables and columns
// named like the functions the translation rewrites (log, upper, greatest, ...): a name before a
// column list (`INSERT INTO log (id, log)`) is no call.
import assert from 'node:assert/strict';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { type PgClient, pgClient } from '../helpers/pg';

/** Function names the translation rewrites or knows, and a few keywords, each a table with a column of its name. */
const FUNCTION_NAMES = [
  'log', 'ln', 'power', 'round', 'trunc', 'mod', 'substring', 'format', 'greatest', 'upper', 'lower',
  'coalesce', 'extract', 'date', 'timestamp', 'count', 'json', 'value',
]; // biome-ignore format: a word list
const SCHEMA = [
  'CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v TEXT, doc JSONB, at TIMESTAMP);',
  ...FUNCTION_NAMES.map((n) => `CREATE TABLE ${n} (id BIGINT NOT NULL PRIMARY KEY, ${n} TEXT);`),
].join('\n');
const NAMES = Object.getOwnPropertyNames(Object.prototype);

/** Statements naming `n` (as written: folded to lower case where unquoted, as PostgreSQL folds). */
const TEMPLATES = (n: string): string[] => [
  `SELECT ${n}(1)`,
  `SELECT "${n}"(1)`,
  `SELECT ${n}`,
  `SELECT pg_catalog.${n}(1)`,
  `SELECT 1::${n}`,
  `SELECT CAST(1 AS "${n}")`,
  `SELECT * FROM ${n}`,
  `SELECT "${n}" FROM t`,
  `SELECT v AS "${n}" FROM t ORDER BY "${n}"`,
  `INSERT INTO t (id, "${n}") VALUES (1, 1)`,
  `UPDATE t SET ${n} = 1`,
  `SHOW ${n}`,
  `SET ${n} = 1`,
  `SELECT current_setting('${n}')`,
  `SELECT extract(${n} FROM at) FROM t`,
  `SELECT date_trunc('${n}', at) FROM t`,
  `SELECT date_part('${n}', at) FROM t`,
  `SELECT to_char(at, '${n}') FROM t`,
  `SELECT interval '1 ${n}'`,
  `SELECT '${n}'::date`,
  `SELECT '${n}'::timestamptz`,
  `SET TIME ZONE '${n}'`,
  `SELECT now() AT TIME ZONE '${n}'`,
  `SET client_encoding = '${n}'`,
  `SELECT '${n}'::regclass`,
  `SELECT '${n}'::regtype`,
  `SELECT json_build_object('${n}', 1)::text`,
  `SELECT '{"${n}": 7}'::jsonb -> '${n}'`,
  `SELECT '{"${n}": 7}'::json ->> '${n}'`,
  `SELECT jsonb_object_keys('{"${n}": 7}')`,
  `SELECT doc -> '${n}' FROM t`,
  `SELECT make_interval(${n} => 1)`,
  `SELECT ${n}(v) OVER () FROM t`,
  `EXECUTE ${n}`,
  `DEALLOCATE ${n}`,
  `FETCH 1 FROM ${n}`,
  `CLOSE ${n}`,
  `NOTIFY ${n}`,
  `SELECT 1 FROM t AS ${n}`,
  `SELECT x.${n} FROM t AS x`,
  `COPY t TO STDOUT (FORMAT ${n})`,
  `SELECT '${n}'::boolean`,
  `SET datestyle = '${n}'`,
  `SET intervalstyle = '${n}'`,
  `SET bytea_output = '${n}'`,
  `SELECT set_config('${n}', '1', false)`,
  `SELECT encode('x'::bytea, '${n}')`,
  `SELECT decode('x', '${n}')`,
  `SELECT row_to_json(${n}) FROM t AS ${n}`,
  `SELECT "${n}"."${n}" FROM (SELECT 1 AS "${n}") AS "${n}"`,
  `BEGIN ISOLATION LEVEL ${n}`,
  `EXPLAIN (${n}) SELECT 1`,
  `SELECT justify_interval(interval '1 day') AS ${n}`,
  `SELECT json_object_agg('${n}', 1)::text`,
  `SELECT jsonb_build_object('${n}', 1) -> '${n}'`,
  `SELECT '${n}'::interval`,
  `SELECT date_bin('1 ${n}', now(), now())`,
  `WITH ${n} AS (SELECT 1 AS x) SELECT x FROM ${n}`,
  `SELECT count(*) FILTER (WHERE ${n}) FROM t`,
  `SELECT string_to_array('a', 'b') AS "${n}"`,
  `PREPARE "${n}" AS SELECT 1`,
  `EXECUTE "${n}"`,
  `DEALLOCATE "${n}"`,
];

/** Ordinary statements on table `n` (its column `n`), in order: the writes set up what the reads see. */
const TABLE_TEMPLATES = (n: string): string[] => [
  `INSERT INTO ${n} (id, ${n}) VALUES (1, 'a')`,
  `INSERT INTO public.${n} (id, ${n}) VALUES (2, 'b') RETURNING ${n}`,
  `INSERT INTO ${n.toUpperCase()} (id, ${n}) VALUES (3, 'c') RETURNING id, ${n}`,
  `INSERT INTO ${n} (id, ${n}) SELECT 4, 'd' RETURNING *`,
  `INSERT INTO ${n} AS x (id, ${n}) VALUES (1, 'z') ON CONFLICT (id) DO UPDATE SET ${n} = excluded.${n} RETURNING x.${n}`,
  `INSERT INTO ${n} (${n}, id) VALUES ('e', 5) ON CONFLICT DO NOTHING`,
  `UPDATE ${n} SET ${n} = upper(${n}) WHERE id = 2 RETURNING ${n}.${n}`,
  `UPDATE ${n} SET ${n} = ${n} WHERE id = 3 RETURNING *`,
  `SELECT ${n}.${n}, count(*) FROM ${n} GROUP BY ${n}.${n} ORDER BY ${n}.${n}`,
  `SELECT a.id FROM ${n} a JOIN ${n} b ON a.${n} = b.${n} ORDER BY 1`,
  `SELECT lower(${n}) FROM ${n} ORDER BY ${n}`,
  `WITH ${n} (x) AS (SELECT v FROM t UNION ALL SELECT 'w') SELECT x, ${n}.x FROM ${n}`,
  `WITH a AS (SELECT 1), ${n} (x) AS (SELECT 2) SELECT x FROM ${n}`,
  `WITH RECURSIVE ${n} (x) AS (SELECT 1) SELECT x FROM ${n}`,
  `WITH ${n} (x) AS MATERIALIZED (SELECT 3) SELECT x FROM ${n}`,
  `SELECT * FROM ${n} AS q (a, b) ORDER BY a`,
  // a WITH query named as the table it reads (without RECURSIVE its FROM sees the table)
  `WITH ${n} (x) AS (SELECT ${n} FROM ${n}) SELECT x FROM ${n} ORDER BY x`,
  `WITH ${n} AS (SELECT * FROM public.${n} WHERE id < 3) SELECT ${n}.${n} FROM ${n} ORDER BY 1`,
  `WITH a AS (SELECT id FROM ${n}), ${n} AS (SELECT id FROM a) SELECT count(*) FROM ${n}`,
  `WITH ${n} AS (SELECT id, ${n} FROM ${n} WHERE id > 1), b AS (SELECT id FROM ${n}) SELECT count(*) FROM b`,
  `WITH ${n} AS (SELECT s.x FROM (WITH ${n} AS (SELECT 5 AS x) SELECT x FROM ${n}) s, ${n} WHERE ${n}.id = 2) SELECT x FROM ${n}`,
  `DELETE FROM ${n} WHERE ${n} = 'e' RETURNING id`,
  `DELETE FROM ${n} WHERE id = 4 RETURNING d.id`,
];

describe('names JavaScript objects have (constructor, __proto__, toString, ...), against PostgreSQL 15', function () {
  this.timeout(120_000);
  let pair: CatalogPair;
  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA } });
  });

  const clients = new Map<number, PgClient>();
  after(async () => {
    for (const c of clients.values()) await c.end().catch(() => {});
    await pair?.dispose();
  });

  /** What a client sees of `sql`: its SQLSTATE, or its rows as JSON (one session per server, a new one after a lost connection). */
  async function outcome(port: number, sql: string): Promise<string> {
    let c = clients.get(port);
    if (!c) {
      c = pgClient(port);
      c.on('error', () => {});
      await c.connect();
      clients.set(port, c);
    }
    try {
      const r = await c.query(sql);
      return `rows ${JSON.stringify(r.rows ?? null)}`;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === undefined) clients.delete(port);
      return `error ${code}`;
    } finally {
      // a statement that opened a block (BEGIN with a bad level) must not fail the ones after it
      await c.query('ROLLBACK').catch(() => {});
    }
  }

  it("every statement has PostgreSQL's outcome", async () => {
    const diffs: string[] = [];
    for (const n of NAMES) {
      for (const sql of TEMPLATES(n)) {
        const [p, q] = [await outcome(pair.patinaPort, sql), await outcome(pair.postgresPort, sql)];
        if (p !== q) diffs.push(`${sql}\n   patina   ${p}\n   postgres ${q}`);
      }
    }
    console.log(diffs.join('\n'));
    assert.deepEqual(diffs, []);
  });

  it("tables and columns named like functions: every statement has PostgreSQL's outcome", async () => {
    const diffs: string[] = [];
    for (const n of FUNCTION_NAMES) {
      for (const sql of TABLE_TEMPLATES(n)) {
        const [p, q] = [await outcome(pair.patinaPort, sql), await outcome(pair.postgresPort, sql)];
        if (p !== q) diffs.push(`${sql}\n   patina   ${p}\n   postgres ${q}`);
      }
    }
    console.log(diffs.join('\n'));
    assert.deepEqual(diffs, []);
  });
});
