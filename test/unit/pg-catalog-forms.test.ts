// translate/catalog-forms.ts on tokens: pgjdbc's _pg_expandarray as a join, Npgsql's pg_proc joins
// by name (tableoid: pg-table-oids.test.ts). test/pg/catalog-*.test.ts and pg-dump.test.ts run the
// clients' own queries.
import assert from 'node:assert/strict';
import { lexPg } from '../../protocols/pg/sql/lexer';
import { type Tok, joinTokens } from '../../protocols/pg/sql/tokens';
import { rewriteCatalogForms } from '../../protocols/pg/sql/translate/catalog-forms';

const toks = (sql: string): Tok[] => lexPg(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
const forms = (sql: string) => joinTokens(rewriteCatalogForms(toks(sql)));

describe('catalog query forms, as tokens', () => {
  it("pgjdbc's _pg_expandarray in a select list joins __pg_elems at the end of that SELECT's FROM", () => {
    assert.equal(
      forms(
        'SELECT r.c FROM(SELECT a.attname AS "c", (information_schema._pg_expandarray(i.indkey)).n AS "key_seq", ' +
          'information_schema._pg_expandarray(i.indkey) AS "keys" FROM pg_class ct JOIN pg_index i ON(ct.oid = i.indrelid) ' +
          'WHERE i.indisprimary) r where r.a = (r.KEYS).x',
      ),
      'SELECT r.c FROM(SELECT a.attname AS "c", (__x0.key + 1) AS "key_seq", __x0.value AS "keys.x", __x0.key + 1 AS "keys.n" ' +
        'FROM pg_class ct JOIN pg_index i ON(ct.oid = i.indrelid) JOIN __pg_elems(i.indkey) __x0 ' +
        'WHERE i.indisprimary) r where r.a = r."KEYS.x"',
    );
    // a FROM clause that ends its subquery: the join goes before the ')'
    assert.equal(
      forms(
        'SELECT a.attname FROM pg_attribute a JOIN(SELECT i.indrelid, information_schema._pg_expandarray(i.indkey) AS "keys" FROM pg_index i) i ON(a.attnum = (i.keys).x)',
      ),
      'SELECT a.attname FROM pg_attribute a JOIN(SELECT i.indrelid, __x0.value AS "keys.x", __x0.key + 1 AS "keys.n" FROM pg_index i JOIN __pg_elems(i.indkey) __x0) i ON(a.attnum = i."keys.x")',
    );
    // an alias not quoted: nothing it knows how to move, left as it is
    const bare = 'SELECT information_schema._pg_expandarray(i.indkey) AS keys FROM pg_index i';
    assert.equal(forms(bare), bare);
  });

  it("Npgsql's pg_proc joins on a type's function columns compare the function's name, both orders", () => {
    assert.equal(
      forms('SELECT 1 FROM pg_type AS typ LEFT JOIN pg_proc AS proc ON proc.oid = typ.typreceive'),
      'SELECT 1 FROM pg_type AS typ LEFT JOIN pg_proc AS proc ON proc.proname = typ.typreceive',
    );
    assert.equal(
      forms('SELECT 1 FROM pg_type t JOIN pg_proc p ON t.typinput = p.oid'),
      'SELECT 1 FROM pg_type t JOIN pg_proc p ON t.typinput = p.proname',
    );
  });

  it("a subscript of a catalog's name column is its character, counted from 0 (pg_dump's typname[0] = '_')", () => {
    assert.equal(
      forms("SELECT t.typname FROM pg_type t WHERE __pg_elem(t.typname, 0) = '_' AND __pg_elem(relname, 2) = 'a'"),
      "SELECT t.typname FROM pg_type t WHERE substr(t.typname, 1, 1) = '_' AND substr(relname, 3, 1) = 'a'",
    );
    // an array column's element is left to __pg_elem
    const array = 'SELECT __pg_elem(indkey, 0) FROM pg_index';
    assert.equal(forms(array), array);
  });

  it('statements with none of these, and unclosed input, are left as they are', () => {
    for (const sql of [
      'SELECT oid FROM pg_class',
      'SELECT information_schema._pg_expandarray(',
      'SELECT(information_schema._pg_expandarray(x)).n',
    ])
      assert.equal(forms(sql), sql);
  });
});
