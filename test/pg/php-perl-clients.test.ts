// PHP (PDO pgsql with server-side and emulated prepares, the pg_* functions, Doctrine DBAL) and Perl (DBI with
// DBD::Pg) as their users use them: one script per client (test/fixtures/php-perl-clients/), run on
// PostgreSQL 15 and on Patina, each printing what the application sees; the two must match. What
// they found: PDO's emulated prepares quote every bound value, and a bytea compared with such a
// literal (`data = '\x00ff'`) matched no row, an integer compared with a non-number
// (`id = 'abc'`) found none where PostgreSQL fails with 22P02; PDO's lastInsertId() got 42883 (no
// lastval()) where PostgreSQL says 55000; DBD::Pg's column_info said every NOT NULL column was
// nullable (its `CASE a.attnotnull WHEN 't'` compared SQLite's 1 with the text), and its NULLABLE
// of a statement, like PHP's pg_field_table, found no table (RowDescription's table OID was 0);
// its statistics_info had no rows (pg_index_column_has_property was unknown, and a catalog query
// that fails is answered with no rows).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { type PgClient, pgClient } from '../helpers/pg';

const COLUMNS = `(id BIGINT NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', qty BIGINT, active BOOLEAN,
  price DOUBLE PRECISION, amount NUMERIC(10,2), data BYTEA, born DATE, at TIMESTAMP, note VARCHAR(50))`;
/** One table per script run, so that the runs do not see each other's rows. */
const RUNS = ['pdo_server', 'pdo_emulated', 'pgsql_fns', 'dbd_pg'];
const TABLES = `${RUNS.map((t) => `CREATE TABLE ${t} ${COLUMNS};`).join('\n')}
CREATE TABLE dbal_authors (id BIGINT NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', born DATE);
CREATE TABLE dbal_books (id BIGINT NOT NULL PRIMARY KEY, title TEXT NOT NULL DEFAULT '', price NUMERIC(10,2),
  author_id BIGINT, tags TEXT[], meta JSONB, note VARCHAR(40) DEFAULT 'none');
CREATE INDEX dbal_books_author ON dbal_books (author_id);`;

const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'php-perl-clients');

/** What a client script printed (JSON), failing on anything it wrote to stderr. */
function run(cmd: string, args: string[]): unknown {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}:\n${r.stderr}${r.stdout}`);
  assert.equal(r.stderr, '', `${cmd} ${args.join(' ')} warned`);
  return JSON.parse(r.stdout);
}

describe('PHP (PDO, pg_*, Doctrine DBAL) and Perl (DBD::Pg) against PostgreSQL 15', function () {
  this.timeout(60_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: TABLES, postgres: TABLES }, rows: [] });
  });
  after(() => pair?.dispose());

  const both = (cmd: string, script: string, args: string[]) => {
    const file = path.join(FIXTURES, script);
    return {
      postgres: run(cmd, [file, String(pair.postgresPort), ...args]),
      patina: run(cmd, [file, String(pair.patinaPort), ...args]),
    };
  };

  it('PDO with server-side prepares: every bound type, RETURNING, getColumnMeta, transactions, SQLSTATEs', () => {
    const { postgres, patina } = both('php', 'pdo.php', ['0', 'pdo_server']);
    assert.deepEqual(patina, postgres);
  });

  it('PDO with emulated prepares (values quoted into the SQL): bytea and integer literals read as their column types', () => {
    const { postgres, patina } = both('php', 'pdo.php', ['1', 'pdo_emulated']);
    assert.deepEqual(patina, postgres);
    const steps = new Map(patina as [string, unknown][]);
    assert.deepEqual(steps.get('where bytea'), [1]); // `data = '\x0001ff...'`: no row before
    assert.deepEqual(steps.get('bad param'), '22P02'); // `id = 'not a number'`: no row before
    assert.deepEqual(steps.get('lastInsertId'), ['error', '55000']); // 42883 before
  });

  it("PHP's pg_* functions: pg_query_params, pg_prepare/pg_execute, pg_copy_from/pg_copy_to, pg_insert, pg_field_table", () => {
    const { postgres, patina } = both('php', 'pgsql.php', ['pgsql_fns']);
    assert.deepEqual(patina, postgres);
    assert.ok((patina as [string, unknown][]).some(([k, v]) => k === 'field_table' && v === 'pgsql_fns'));
    // tags TEXT[]: one dimension, as declared
    const meta = new Map(patina as [string, unknown][]).get('meta_data') as Record<string, { 'array dims': number }>;
    assert.equal(meta.tags['array dims'], 1);
  });

  it("Doctrine DBAL: the schema manager's introspection, the query builder, savepoints, array parameters, 23505, 42702", () => {
    // (an ambiguous column was SQLite's `ambiguous column name: id`, PostgreSQL's words now)
    const { postgres, patina } = both('php', 'dbal.php', []);
    assert.deepEqual(patina, postgres);
    assert.equal((postgres as unknown[]).length, 19);
  });

  it('DBD::Pg: placeholders (server and client prepares), PG_BYTEA, AutoCommit off, COPY, catalog methods, errors', () => {
    const { postgres, patina } = both('perl', 'dbd_pg.pl', ['dbd_pg']);
    assert.deepEqual(patina, postgres);
    const steps = new Map(patina as [string, unknown][]);
    // NULLABLE from pg_attribute by RowDescription's table OID and column (2, unknown, before)
    assert.deepEqual(steps.get('NULLABLE'), [0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
    assert.deepEqual(steps.get('last_insert_id of a sequence'), ['error', '42P01']);
    assert.match(
      (steps.get('bad bound value') as string[])[1],
      /\nCONTEXT: {2}unnamed portal parameter \$2 = '\.\.\.'$/,
    );
    // its query calls pg_index_column_has_property (unknown: the catalog query had no rows)
    assert.deepEqual(steps.get('statistics_info'), [
      ['dbd_pg_pkey', 'id', 0, 'btree', 1, 'A', 'last'],
      [null, null, null, 'table', null, null, null],
    ]);
  });

  describe('the fixes, through node-postgres on both servers', () => {
    let patina: PgClient;
    let postgres: PgClient;
    before(async () => {
      patina = pgClient(pair.patinaPort);
      postgres = pgClient(pair.postgresPort);
      await patina.connect();
      await postgres.connect();
      for (const c of [patina, postgres])
        await c.query(
          "INSERT INTO dbd_pg (id, name, data, active) VALUES (901, 'a', '\\x00ff', true), (902, 'b', 'zz', false)",
        );
    });
    after(async () => {
      for (const c of [patina, postgres]) {
        await c.query('DELETE FROM dbd_pg WHERE id > 900');
        await c.end();
      }
    });

    const answer = async (c: PgClient, sql: string) => {
      try {
        return (await c.query({ text: sql, rowMode: 'array' })).rows;
      } catch (e) {
        return [(e as { code: string }).code, (e as Error).message];
      }
    };

    for (const sql of [
      "SELECT id FROM dbd_pg WHERE data = '\\x00ff'",
      "SELECT id FROM dbd_pg WHERE data IN ('zz', '\\x01') ORDER BY id",
      "SELECT id FROM dbd_pg WHERE data = 'zz' AND id IN (SELECT id FROM dbd_pg) ORDER BY id",
      "SELECT id FROM dbd_pg WHERE id = 'abc'",
      "SELECT id FROM dbd_pg WHERE id IN (SELECT id FROM dbd_pg WHERE id = '9x')",
      "SELECT id FROM dbd_pg WHERE id = '901'",
      "SELECT id, CASE active WHEN 't' THEN 'yes' ELSE 'no' END FROM dbd_pg WHERE id > 900 ORDER BY id",
      "SELECT CASE id WHEN '902' THEN 'two' ELSE 'other' END FROM dbd_pg WHERE id > 900 ORDER BY id",
      "SELECT a.attname, CASE a.attnotnull WHEN 't' THEN 0 ELSE 1 END FROM pg_attribute a WHERE a.attrelid = 'dbd_pg'::regclass AND a.attnum > 0 ORDER BY a.attnum",
      'SELECT lastval()',
      // Patina has no sequences: PostgreSQL's answer for a name that is none (the catalog path gave no
      // rows for pg_catalog.currval, the others 42883)
      "SELECT currval('dbd_pg_id_seq')",
      "SELECT pg_catalog.currval('dbd_pg_id_seq')",
      "SELECT nextval('dbd_pg')",
      "SELECT setval('Public.NOPE', 1, false)",
      'SELECT setval(\'"Dbd_pg"\', 1)',
      'SELECT currval(NULL)',
      "SELECT attname, attndims FROM pg_attribute WHERE attrelid = 'dbal_books'::regclass AND attnum > 0 ORDER BY attnum",
      "SELECT p, c, pg_index_column_has_property(i.indexrelid, c, p) FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid, (VALUES ('asc'), ('desc'), ('nulls_first'), ('nulls_last'), ('orderable'), ('bogus')) v(p), (VALUES (1), (2)) w(c) WHERE t.relname = 'dbd_pg' ORDER BY c, p",
    ])
      it(sql, async () => {
        const p = await answer(patina, sql);
        const g = await answer(postgres, sql);
        // PostgreSQL's error names the type as written; Patina's the same type
        assert.deepEqual(p, g);
      });

    it("RowDescription names a selected column's table and number, as pg_attribute lists them", async () => {
      const sql = `SELECT name, id AS key, qty + 1 AS more, t.note, (SELECT 1) AS one
        FROM dbd_pg t WHERE id > $1 ORDER BY id`;
      for (const c of [patina, postgres]) {
        const oid = Number((await c.query("SELECT 'dbd_pg'::regclass::oid AS o")).rows[0].o);
        const r = await c.query({ text: sql, values: [900], rowMode: 'array' });
        assert.deepEqual(
          (r.fields as unknown as { tableID: number; columnID: number }[]).map((f) => [f.tableID, f.columnID]),
          [
            [oid, 2],
            [oid, 1],
            [0, 0],
            [oid, 10],
            [0, 0],
          ],
        );
      }
    });
  });
});
