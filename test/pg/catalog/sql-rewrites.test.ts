// The catalog's pure parts: the rewrites of PostgreSQL syntax catalog queries use, and defaults as
// PostgreSQL prints them (test/pg/catalog-*.test.ts and pg-dump.test.ts check the same live against
// PostgreSQL 15).
import assert from 'node:assert/strict';
import { pgDefaultExpr } from '../../../protocols/pg/catalog/column-defaults';
import { rewriteCatalogSyntax } from '../../../protocols/pg/catalog/sql-rewrites';
import { OID } from '../../../protocols/pg/types/oids';

describe('catalog rewrites', () => {
  it('f(x) AS a(c) becomes a subquery whose one column is c', () => {
    assert.equal(
      rewriteCatalogSyntax(
        "SELECT a.x FROM unnest('{1,2}') AS src(tbloid) JOIN pg_attribute a ON src.tbloid = a.attrelid",
      ),
      "SELECT a.x FROM (SELECT value AS tbloid FROM unnest('{1,2}')) src JOIN pg_attribute a ON src.tbloid = a.attrelid",
    );
    assert.equal(
      rewriteCatalogSyntax('SELECT s.r FROM generate_series(1, array_upper(x, 1)) as s(r)'),
      'SELECT s.r FROM (SELECT value AS r FROM generate_series(1, array_upper(x, 1))) s',
    );
  });

  it('FROM unnest(x) with no alias names its column unnest, as PostgreSQL does', () => {
    assert.equal(
      rewriteCatalogSyntax('SELECT * FROM unnest(current_schemas(true))'),
      'SELECT * FROM (SELECT value AS unnest FROM unnest(current_schemas(true))) unnest',
    );
    assert.equal(
      rewriteCatalogSyntax("SELECT * FROM unnest('{a}') WHERE unnest <> ''"),
      "SELECT * FROM (SELECT value AS unnest FROM unnest('{a}')) unnest WHERE unnest <> ''",
    );
  });

  it('TRIM(BOTH/LEADING/TRAILING x FROM y) and SUBSTRING(x FROM a FOR b), nested and quoted', () => {
    assert.equal(
      rewriteCatalogSyntax(`SELECT trim(both '"' from pg_get_indexdef(o, 1, false))`),
      `SELECT __pg_trim_both('"', pg_get_indexdef(o, 1, false))`,
    );
    assert.equal(rewriteCatalogSyntax("SELECT trim(LEADING 'x' FROM s)"), "SELECT __pg_trim_leading('x', s)");
    assert.equal(
      rewriteCatalogSyntax('SELECT substring(pg_get_function_result(p.oid) from 0 for 6) = 1'),
      'SELECT substr(pg_get_function_result(p.oid), 0, 6) = 1',
    );
    assert.equal(rewriteCatalogSyntax('SELECT substring(f(a, b) for 128)'), 'SELECT substr(f(a, b), 1, 128)');
    assert.equal(rewriteCatalogSyntax("SELECT substring('from' from 2)"), "SELECT substr('from', 2)");
    assert.equal(rewriteCatalogSyntax('SELECT substring(x, 1, 2)'), 'SELECT substring(x, 1, 2)');
  });

  it("pgjdbc's _pg_expandarray in a select list joins __pg_elems at the end of that SELECT's FROM", () => {
    const sql =
      'SELECT r.c FROM(SELECT a.attname AS "c", (information_schema._pg_expandarray(i.indkey)).n AS "key_seq", ' +
      'information_schema._pg_expandarray(i.indkey) AS "keys" FROM pg_class ct JOIN pg_index i ON(ct.oid = i.indrelid) ' +
      'WHERE i.indisprimary) r where r.a = r."KEYS.x"';
    assert.equal(
      rewriteCatalogSyntax(sql),
      'SELECT r.c FROM(SELECT a.attname AS "c", (__x0.key + 1) AS "key_seq", __x0.value AS "keys.x", __x0.key + 1 AS "keys.n" ' +
        'FROM pg_class ct JOIN pg_index i ON(ct.oid = i.indrelid)  JOIN __pg_elems(i.indkey) __x0 ' +
        'WHERE i.indisprimary) r where r.a = r."KEYS.x"',
    );
  });

  it('tableoid is the OID of the catalog table its alias names, or of the first one read', () => {
    assert.equal(
      rewriteCatalogSyntax(
        'SELECT c.tableoid, n.tableoid FROM pg_catalog.pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace',
      ),
      'SELECT 1259, 2615 FROM pg_catalog.pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace',
    );
    assert.equal(rewriteCatalogSyntax('SELECT tableoid, oid FROM pg_type'), 'SELECT 1247, oid FROM pg_type');
    assert.equal(rewriteCatalogSyntax('SELECT x.tableoid FROM t x'), 'SELECT x.tableoid FROM t x');
  });
});

describe('column defaults as PostgreSQL prints them', () => {
  it('string literals carry their type, numbers and booleans print bare', () => {
    assert.equal(pgDefaultExpr("''", OID.text), "''::text");
    assert.equal(pgDefaultExpr("'it''s'", OID.text), "'it''s'::text");
    assert.equal(pgDefaultExpr('0', OID.int8), '0');
    assert.equal(pgDefaultExpr('false', OID.bool), 'false');
    assert.equal(pgDefaultExpr('1', OID.bool), 'true');
    assert.equal(pgDefaultExpr("'t'", OID.bool), 'true');
    assert.equal(pgDefaultExpr('(42)', OID.int8), '42');
    assert.equal(pgDefaultExpr('CURRENT_TIMESTAMP', OID.timestamp), 'CURRENT_TIMESTAMP');
    // read off PostgreSQL 15: pg_get_expr of DEFAULT -1, -1.5, 5000000000, -5000000000, 1.5
    assert.equal(pgDefaultExpr('-1', OID.int8), "'-1'::integer");
    assert.equal(pgDefaultExpr('-2', OID.float8), "'-2'::integer");
    assert.equal(pgDefaultExpr('-1.5', OID.numeric), "'-1.5'::numeric");
    assert.equal(pgDefaultExpr('5000000000', OID.int8), "'5000000000'::bigint");
    assert.equal(pgDefaultExpr('-5000000000', OID.int8), "'-5000000000'::bigint");
    assert.equal(pgDefaultExpr('1.5', OID.float8), '1.5');
  });
});
