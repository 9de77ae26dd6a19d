// An unqualified relation name is looked up along search_path, as in PostgreSQL 15: pg_catalog's
// relations are found, information_schema's are not unless the path lists it (a catalog query
// naming `tables`, `columns` or `views` read information_schema's: SQLite searches every attached
// database), and a table of the database or a WITH query of such a name wins. psql's output on
// Patina and on a real PostgreSQL 15 holding the same table: the rows, or the error with its position.
import assert from 'node:assert/strict';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { psql } from '../helpers/pg';

const SCHEMA = `CREATE TABLE views (id BIGINT NOT NULL PRIMARY KEY, table_name TEXT);
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, note TEXT);`;
const ROWS = ["INSERT INTO views (id, table_name) VALUES (1, 'mine')", "INSERT INTO orders (id, note) VALUES (1, 'a')"];

describe('unqualified names along search_path, against PostgreSQL 15', function () {
  this.timeout(120_000);
  let pair: CatalogPair;
  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: ROWS });
  });
  after(() => pair?.dispose());

  /** psql's output and errors of `commands` on `port`, going on past an error. */
  const out = (port: number, commands: string[]) => {
    const r = psql(port, commands, ['-v', 'ON_ERROR_STOP=0']);
    return r.stdout + r.stderr;
  };

  it("a name of information_schema's is 42P01 at the name unless search_path lists the schema (a catalog query found it)", () => {
    const commands = [
      "SELECT t.table_name, c.relname FROM tables t JOIN pg_class c ON c.relname = t.table_name WHERE t.table_schema = 'public'",
      "SELECT count(*) FROM pg_class c JOIN columns x ON x.table_name = c.relname WHERE c.relname = 'orders'",
      'SELECT count(*) FROM pg_class c WHERE EXISTS (SELECT 1 FROM schemata s WHERE s.schema_name = c.relname)',
      "SELECT routine_name FROM routines WHERE routine_name = 'x' AND pg_table_is_visible(0)",
      "SELECT table_name FROM tables WHERE table_schema = 'public' ORDER BY 1",
      'SELECT count(*) FROM nosuch, tables, pg_class',
      'SELECT count(*) FROM pg_class, key_column_usage',
      "INSERT INTO tables (table_name) VALUES ('x')",
      // qualified, it is found
      "SELECT t.table_name FROM information_schema.tables t JOIN pg_class c ON c.relname = t.table_name WHERE t.table_schema = 'public' ORDER BY 1",
      // pg_catalog's relations are found without their schema
      "SELECT schemaname, tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 2",
      "SELECT name, setting FROM pg_settings WHERE name = 'max_identifier_length'",
      "SELECT nspname FROM pg_namespace WHERE nspname = 'public'",
      // on the path, as there
      'SET search_path = information_schema, public',
      "SELECT t.table_name, c.relname FROM tables t JOIN pg_class c ON c.relname = t.table_name WHERE t.table_schema = 'public' ORDER BY 1",
      'RESET search_path',
      "SELECT t.table_name FROM tables t JOIN pg_class c ON c.relname = t.table_name WHERE t.table_schema = 'public'",
    ];
    const patina = out(pair.patinaPort, commands);
    assert.match(
      patina,
      /ERROR: {2}relation "tables" does not exist\nLINE 1: SELECT t.table_name, c.relname FROM tables t/,
    );
    assert.match(patina, / orders {5}\| orders\n/);
    assert.equal(patina, out(pair.postgresPort, commands));
  });

  it('a table of the database or a WITH query of such a name wins', () => {
    const commands = [
      "SELECT v.id, v.table_name, c.relname FROM views v JOIN pg_class c ON c.relname = 'views'",
      "SELECT v.table_name FROM views v WHERE v.id IN (SELECT 1 FROM pg_namespace WHERE nspname = 'public')",
      'SELECT * FROM views',
      'WITH tables AS (SELECT 1 AS x) SELECT x, relname FROM tables, pg_class WHERE relname = $$pg_class$$',
      "SELECT count(*) FROM information_schema.views v, views WHERE v.table_schema = 'public'",
    ];
    const patina = out(pair.patinaPort, commands);
    assert.match(patina, / {2}1 \| mine {7}\| views\n/);
    assert.equal(patina, out(pair.postgresPort, commands));
  });
});
