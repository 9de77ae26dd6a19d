// pgjdbc's DatabaseMetaData (what DBeaver, Metabase and Tableau browse a schema with) on Patina and
// on a real PostgreSQL 15 holding the same tables: each call's rows, column by column, must agree.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { run, sections } from '../helpers/java';

const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'catalog-clients');

describe('pgjdbc DatabaseMetaData against PostgreSQL 15', function () {
  this.timeout(120000);
  let pair: CatalogPair;
  let patina: Map<string, string[]>;
  let postgres: Map<string, string[]>;
  let dir: string;

  before(async () => {
    pair = await startCatalogPair();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-jdbc-meta-'));
    run('javac', ['-d', dir, path.join(FIXTURES, 'CatalogMeta.java')]);
    const call = (port: number) =>
      sections(run('java', ['-cp', `${dir}:/usr/share/java/postgresql.jar`, 'CatalogMeta', String(port)]));
    patina = call(pair.patinaPort);
    postgres = call(pair.postgresPort);
  });
  after(async () => {
    await pair?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const same =
    (prefix: string, opts: { header?: boolean } = {}) =>
    () => {
      const names = [...postgres.keys()].filter((k) => k === prefix || k.startsWith(`${prefix} `));
      assert.ok(names.length > 0, `PostgreSQL answered no ${prefix}`);
      for (const name of names) {
        const p = patina.get(name);
        assert.ok(p, `Patina answered no ${name}`);
        const want = postgres.get(name)!;
        assert.ok(!p[0].startsWith('ERROR'), `${name}: ${p[0]}`);
        if (opts.header === false) assert.deepEqual(p.slice(1), want.slice(1), name);
        else assert.deepEqual(p, want, name);
      }
    };

  it('getSchemas, getCatalogs and getTableTypes', () => {
    same('schemas')();
    same('catalogs')();
    same('tableTypes')();
  });
  it('getTables lists the tables', same('tables'));
  it('getTables with no schema lists the system catalogs, and their columns, keys and indexes answer (pg_class held none)', () => {
    same('systemTables')();
    same('systemColumns')();
    same('systemPrimaryKeys')();
    same('systemIndexInfo')();
  });
  it('getColumns gives each column its type, size, nullability and default', same('columns'));
  it('getPrimaryKeys names the key columns in order (none for a table that does not exist)', same('primaryKeys'));
  it('getIndexInfo lists the primary key and the indexes column by column', same('indexInfo'));
  it('getImportedKeys, getExportedKeys and getCrossReference answer empty, without an error', () => {
    for (const call of ['importedKeys', 'exportedKeys', 'crossReference']) {
      same(call)();
      for (const [name, lines] of patina) if (name.startsWith(call)) assert.equal(lines.length, 1, name);
    }
  });
  it('getBestRowIdentifier picks the primary key', same('bestRowIdentifier'));
  it('getTablePrivileges and getColumnPrivileges', () => {
    same('tablePrivileges')();
    same('columnPrivileges')();
  });
  it('CallableStatement {? = call f(?)} of built-in functions (its void OUT parameter dropped from the call)', () => {
    same('callable')();
    assert.deepEqual(patina.get('callable'), [
      'substr\tcdef',
      'upper\tHÉLLO',
      'length\t5',
      'abs\t7',
      'now\ttrue',
      'no_such_function\t42883',
    ]);
  });
  it('getFunctions and getProcedures (no user functions)', () => {
    same('functions')();
    // the rows agree; the labels of pgjdbc's unaliased NULL columns are the SQL front end's to name
    same('procedures', { header: false })();
  });

  it("getFunctions and getFunctionColumns of builtin functions: PostgreSQL's rows of the functions Patina runs, every signature (pg_proc listed only types' I/O functions, then only the signatures of Patina's types)", () => {
    const names = [...postgres.keys()].filter((k) => k.startsWith('builtin '));
    assert.equal(names.length, 12);
    for (const name of names) {
      const p = patina.get(name);
      const want = postgres.get(name)!;
      assert.ok(p, `Patina answered no ${name}`);
      assert.equal(p[0], want[0], `${name} header`);
      // PostgreSQL's rows, in its order, those of types Patina has no values of too (upper of a range;
      // they were left out)
      const rows = p.slice(1);
      assert.deepEqual(rows, want.slice(1), name);
      // (getFunctions lists prokind 'f' only: not the aggregate sum nor the window function row_number)
      if (!/no_such_function|functions (sum|row_number)$/.test(name)) assert.ok(rows.length > 0, name);
    }
    assert.deepEqual(patina.get('builtin functions upper')!.slice(1), [
      'db\tpg_catalog\tupper\tupper bound of range\t1\tupper_3849',
      'db\tpg_catalog\tupper\tupper bound of multirange\t1\tupper_4236',
      'db\tpg_catalog\tupper\tuppercase\t1\tupper_871',
    ]);
    assert.deepEqual(patina.get('builtin functions now'), postgres.get('builtin functions now'));
    assert.deepEqual(
      patina.get('builtin functions generate_series'),
      postgres.get('builtin functions generate_series'),
    );
    assert.deepEqual(patina.get('builtin functions row_number'), postgres.get('builtin functions row_number'));
  });

  it("getUDTs lists each table's composite row type as PostgreSQL does (there was none)", () => {
    same('udts')();
    assert.ok(
      patina.get('udts struct')!.some((l) => /\torders\t/.test(l)),
      'the row type of orders',
    );
  });
  it('getTypeInfo describes every type Patina announces as PostgreSQL does', () => {
    const pg = new Map(
      postgres
        .get('typeInfo')!
        .slice(1)
        .map((l) => [l.split('\t')[0], l]),
    );
    const rows = patina.get('typeInfo')!;
    assert.deepEqual(rows[0], postgres.get('typeInfo')![0]);
    const names = rows.slice(1).map((l) => l.split('\t')[0]);
    for (const t of [
      'bool',
      'int8',
      'int4',
      'text',
      'numeric',
      'float8',
      'timestamp',
      'uuid',
      'jsonb',
      '_int8',
      '_text',
      // PostgreSQL's other types, which Patina has no values of
      'inet',
      'money',
      'int4range',
    ])
      assert.ok(names.includes(t), `getTypeInfo lacks ${t}`);
    for (const line of rows.slice(1)) assert.equal(line, pg.get(line.split('\t')[0]), 'type row');
  });
});
