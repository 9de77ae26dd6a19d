// Every DatabaseMetaData method a JDBC schema browser calls through pgjdbc (DBeaver, DataGrip,
// Tableau, Metabase, SQuirreL), and ResultSetMetaData of queries over every column type, on Patina
// and on PostgreSQL 15 holding the same tables: test/fixtures/catalog-clients/MetaSweep.java prints
// each call as a section and every section must be PostgreSQL's, but for the named differences below,
// each of them by design and in docs/postgres.md.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PG_CATALOG_RELATIONS } from '../../protocols/pg/catalog/pg-catalog-relations';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { run, sections } from '../helpers/java';

const FIXTURE = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'catalog-clients', 'MetaSweep.java');
const JAR = '/usr/share/java/postgresql.jar';

const TABLES = `
CREATE TABLE customers (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', email TEXT);
CREATE TABLE orders (id INTEGER NOT NULL PRIMARY KEY, customer_id INTEGER NOT NULL DEFAULT 0, amount NUMERIC,
  note TEXT, paid BOOLEAN NOT NULL DEFAULT false, placed_at TIMESTAMP, ref UUID);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE INDEX orders_paid_placed ON orders (paid, placed_at DESC);
CREATE TABLE line_items (order_id INTEGER NOT NULL, line INTEGER NOT NULL, qty INTEGER NOT NULL DEFAULT 1,
  price DOUBLE PRECISION, PRIMARY KEY (order_id, line));
CREATE TABLE every_type (id INTEGER NOT NULL PRIMARY KEY, i8 BIGINT, f8 DOUBLE PRECISION, n NUMERIC,
  n12 NUMERIC(12, 2), t TEXT NOT NULL DEFAULT '', vc VARCHAR(40), vcu VARCHAR, ch CHAR(5), b BYTEA, bo BOOLEAN,
  d DATE, tm TIME, ts TIMESTAMP, tstz TIMESTAMPTZ, iv INTERVAL, j JSON, jb JSONB, u UUID, nm NAME, o OID,
  tv TSVECTOR, tq TSQUERY, ai INTEGER[], at TEXT[], an NUMERIC[], ab BOOLEAN[], ats TIMESTAMP[]);
CREATE INDEX every_type_t_d ON every_type (t DESC, d);
`;
/** The same tables in PostgreSQL's words: Patina's INTEGER is int8 (docs/schema.md). */
const POSTGRES_TABLES = TABLES.replace(/INTEGER/g, 'BIGINT');

/** A section's lines: the header, then its rows. */
type Lines = string[];

/**
 * The differences allowed, each by design and in docs/postgres.md: which sections, why, and what
 * each side's lines are compared as.
 */
interface Exception {
  sections: RegExp;
  reason: string;
  apply: (patina: Lines, postgres: Lines) => [Lines, Lines];
}

/** The index of column `label` in a section's header; -1 when none. */
const column = (lines: Lines, label: string) =>
  lines[0]?.split('\t').findIndex((h) => h.split(':')[0].toLowerCase() === label.toLowerCase()) ?? -1;

/** The lines without the rows whose column `label` `drop` accepts. */
function without(lines: Lines, label: string, drop: (v: string) => boolean): Lines {
  const at = column(lines, label);
  return at < 0 ? lines : [lines[0], ...lines.slice(1).filter((l) => !drop(l.split('\t')[at]))];
}

/** The types of catalog columns PostgreSQL has and Patina sends as another (docs/postgres.md, system relations). */
const WIRE_TYPED = new Set(['xid', 'xid8', 'cid', 'tid', 'aclitem', '_aclitem', 'pg_node_tree', 'regproc', '_regproc']);
/** information_schema's domains, which Patina has not (its columns are of the domains' base types). */
const DOMAINS = new Set(['cardinal_number', 'character_data', 'sql_identifier', 'time_stamp', 'yes_or_no']);
/** A type of `names`, or its array type (`_name`). */
const ofOrArray = (names: Set<string>, t: string) => names.has(t) || (t.startsWith('_') && names.has(t.slice(1)));
const isDomain = (t: string) => ofOrArray(DOMAINS, t) || /^"information_schema"\./.test(t);
/** The system relations, whose row types pg_type has not. */
const SYSTEM_RELATIONS = new Set(PG_CATALOG_RELATIONS.map(([q]) => q.split('.')[1]));
const systemType = (t: string) => isDomain(t) || ofOrArray(SYSTEM_RELATIONS, t);
const sorted = (lines: Lines): Lines => [lines[0], ...lines.slice(1).sort()];

const EXCEPTIONS: Exception[] = [
  {
    sections: /^getTables\(null, /,
    reason: "Patina keeps no TOAST tables (values are in SQLite's pages): pg_toast's relations are not listed",
    apply: (p, g) => [p, without(g, 'TABLE_SCHEM', (v) => v === 'pg_toast')],
  },
  {
    sections: /^getColumns\((pg_catalog|information_schema), /,
    reason:
      "a catalog column has the type it has on the wire here (xid an oid, pg_node_tree a text, aclitem[] a text[]) and information_schema's domains are their base types (sql_identifier a name)",
    apply: (p, g) => {
      const at = column(g, 'TYPE_NAME');
      const name = column(g, 'COLUMN_NAME');
      const off = new Set(
        g
          .slice(1)
          .map((l) => l.split('\t'))
          .filter((r) => WIRE_TYPED.has(r[at]) || isDomain(r[at]))
          .map((r) => r[name]),
      );
      return [without(p, 'COLUMN_NAME', (c) => off.has(c)), without(g, 'COLUMN_NAME', (c) => off.has(c))];
    },
  },
  {
    sections: /^(getTypeInfo|getUDTs)/,
    reason:
      "pg_type has no row types of the system relations nor information_schema's domains; pgjdbc's getTypeInfo has no ORDER BY (rows in pg_type's heap order)",
    apply: (p, g) => [sorted(p), sorted(without(without(g, 'TYPE_NAME', systemType), 'type_name', systemType))],
  },
  {
    sections: /^scalars$/,
    reason:
      "Patina announces server_version 15.0 (PostgreSQL says its minor version); each URL names its server's port",
    apply: (p, g) => {
      const read = (lines: Lines) =>
        lines
          .filter((l) => !/^(getDatabaseProductVersion|getDatabaseMinorVersion)\t/.test(l))
          .map((l) => l.replace(/^(getURL\tjdbc:postgresql:\/\/127\.0\.0\.1:)\d+/, '$1PORT'));
      return [read(p), read(g)];
    },
  },
];

describe('pgjdbc DatabaseMetaData and ResultSetMetaData, every method, against PostgreSQL 15', function () {
  this.timeout(600_000);
  let pair: CatalogPair;
  let dir: string;
  let patina: Map<string, string[]>;
  let postgres: Map<string, string[]>;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-jdbc-sweep-'));
    run('javac', ['-d', dir, FIXTURE], 300_000);
    pair = await startCatalogPair({ schemas: { patina: TABLES, postgres: POSTGRES_TABLES }, rows: [] });
    const call = (port: number) => run('java', ['-cp', `${dir}:${JAR}`, 'MetaSweep', String(port)], 300_000);
    const p = call(pair.patinaPort);
    const g = call(pair.postgresPort);
    if (process.env.PATINA_SWEEP_OUT) {
      fs.writeFileSync(`${process.env.PATINA_SWEEP_OUT}.patina`, p);
      fs.writeFileSync(`${process.env.PATINA_SWEEP_OUT}.postgres`, g);
    }
    patina = sections(p);
    postgres = sections(g);
  });
  after(async () => {
    await pair?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The exceptions a comparison needed (each must be: a stale one is an error). */
  const used = new Set<Exception>();
  /** Sections whose name starts with one of `prefixes`: each Patina's as PostgreSQL's, but for EXCEPTIONS. */
  const same =
    (...prefixes: string[]) =>
    () => {
      const names = [...postgres.keys()].filter((k) =>
        prefixes.some((p) => k === p || k.startsWith(`${p}(`) || k.startsWith(`${p} `)),
      );
      assert.ok(names.length > 0, `PostgreSQL answered no ${prefixes.join(', ')}`);
      for (const name of names) {
        let p = patina.get(name);
        let g = postgres.get(name)!;
        assert.ok(p, `Patina answered no ${name}`);
        for (const e of EXCEPTIONS.filter((x) => x.sections.test(name))) {
          const [p2, g2] = e.apply(p, g);
          if (JSON.stringify([p2, g2]) !== JSON.stringify([p, g])) used.add(e);
          [p, g] = [p2, g2];
        }
        assert.deepEqual(p, g, name);
      }
    };

  it('answers every section PostgreSQL answers, in its order', () => {
    assert.deepEqual([...patina.keys()], [...postgres.keys()]);
    // (every call ran: the exceptions are pgjdbc's own, "not yet implemented", on both)
    for (const [name, lines] of postgres)
      if (lines[0].startsWith('ERROR')) assert.match(lines[0], /^ERROR 0A000: Method .* is not yet implemented/, name);
  });
  it('getCatalogs, getSchemas with patterns, getTableTypes', same('getCatalogs', 'getSchemas', 'getTableTypes'));
  it(
    'getTables with each type filter (TABLE, VIEW, SYSTEM TABLE, SYSTEM VIEW, INDEX, ..., null) and name patterns',
    same('getTables'),
  );
  it('getColumns with table and column patterns, of user and system relations', same('getColumns'));
  it('getPrimaryKeys: KEY_SEQ is an int4 (it was text)', () => {
    same('getPrimaryKeys')();
    assert.match(postgres.get('getPrimaryKeys(public, line_items)')![0], /\tkey_seq:int4\t/);
  });
  it('getIndexInfo, unique or not, approximate or not: ORDINAL_POSITION an int4 (it was text), a DESC column D (it was A)', () => {
    same('getIndexInfo')();
    assert.ok(
      postgres.get('getIndexInfo(orders, unique false, approximate true)')!.some((l) => /\tplaced_at\tD\t/.test(l)),
    );
  });
  it(
    'getImportedKeys, getExportedKeys, getCrossReference, getBestRowIdentifier, getVersionColumns',
    same('getImportedKeys', 'getExportedKeys', 'getCrossReference', 'getBestRowIdentifier', 'getVersionColumns'),
  );
  it('getTablePrivileges and getColumnPrivileges', same('getTablePrivileges', 'getColumnPrivileges'));
  it(
    'getProcedures, getProcedureColumns, getFunctions, getFunctionColumns',
    same('getProcedures', 'getProcedureColumns', 'getFunctions', 'getFunctionColumns'),
  );
  it(
    'getUDTs, getTypeInfo, getClientInfoProperties, getSuperTypes, getSuperTables, getAttributes, getPseudoColumns',
    same(
      'getUDTs',
      'getTypeInfo',
      'getClientInfoProperties',
      'getSuperTypes',
      'getSuperTables',
      'getAttributes',
      'getPseudoColumns',
    ),
  );
  it('every supports*, get*Keywords, getMax* and other scalar', same('scalars'));
  it('ResultSetMetaData of queries over every column type, run and only prepared; ParameterMetaData', () => {
    same('ResultSetMetaData', 'ParameterMetaData')();
    // a catalog table's columns name it, and are NOT NULL (RowDescription's table OID was 0: unknown)
    assert.match(postgres.get('ResultSetMetaData pg_class')![1], /^oid\toid\t-5\toid\t10\t0\t0\tfalse\tpg_class\t/);
  });
  it('needed each of its named differences (none is stale)', () => {
    for (const e of EXCEPTIONS) assert.ok(used.has(e), `not needed: ${e.reason}`);
  });
});
