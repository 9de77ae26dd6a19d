// Column defaults as PostgreSQL prints them (test/pg/catalog-*.test.ts and pg-dump.test.ts check the
// same live against PostgreSQL 15; the catalog queries' rewrites are in test/unit/pg-catalog-forms.test.ts).
import assert from 'node:assert/strict';
import { pgDefaultExpr } from '../../../protocols/pg/catalog/column-defaults';
import { OID } from '../../../protocols/pg/types/oids';

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
