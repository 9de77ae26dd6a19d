"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// translate/catalog-forms.ts on tokens: pgjdbc's _pg_expandarray as a join, tableoid as the catalog
// table's OID, Npgsql's pg_proc joins by name; and what the text rewrite it replaced got wrong (a
// 'tableoid' string, a column named "tableoid", a bare tableoid beside a subquery that reads another
// catalog table). test/pg/catalog-*.test.ts and pg-dump.test.ts run the clients' own queries.
const strict_1 = __importDefault(require("node:assert/strict"));
const lexer_1 = require("../../protocols/pg/sql/lexer");
const tokens_1 = require("../../protocols/pg/sql/tokens");
const catalog_forms_1 = require("../../protocols/pg/sql/translate/catalog-forms");
const toks = (sql) => (0, lexer_1.lexPg)(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
const forms = (sql) => (0, tokens_1.joinTokens)((0, catalog_forms_1.rewriteCatalogForms)(toks(sql)));
describe('catalog query forms, as tokens', () => {
    it("pgjdbc's _pg_expandarray in a select list joins __pg_elems at the end of that SELECT's FROM", () => {
        strict_1.default.equal(forms('SELECT r.c FROM(SELECT a.attname AS "c", (information_schema._pg_expandarray(i.indkey)).n AS "key_seq", ' +
            'information_schema._pg_expandarray(i.indkey) AS "keys" FROM pg_class ct JOIN pg_index i ON(ct.oid = i.indrelid) ' +
            'WHERE i.indisprimary) r where r.a = (r.KEYS).x'), 'SELECT r.c FROM(SELECT a.attname AS "c", (__x0.key + 1) AS "key_seq", __x0.value AS "keys.x", __x0.key + 1 AS "keys.n" ' +
            'FROM pg_class ct JOIN pg_index i ON(ct.oid = i.indrelid) JOIN __pg_elems(i.indkey) __x0 ' +
            'WHERE i.indisprimary) r where r.a = r."KEYS.x"');
        // a FROM clause that ends its subquery: the join goes before the ')'
        strict_1.default.equal(forms('SELECT a.attname FROM pg_attribute a JOIN(SELECT i.indrelid, information_schema._pg_expandarray(i.indkey) AS "keys" FROM pg_index i) i ON(a.attnum = (i.keys).x)'), 'SELECT a.attname FROM pg_attribute a JOIN(SELECT i.indrelid, __x0.value AS "keys.x", __x0.key + 1 AS "keys.n" FROM pg_index i JOIN __pg_elems(i.indkey) __x0) i ON(a.attnum = i."keys.x")');
        // an alias not quoted: nothing it knows how to move, left as it is
        const bare = 'SELECT information_schema._pg_expandarray(i.indkey) AS keys FROM pg_index i';
        strict_1.default.equal(forms(bare), bare);
    });
    it('tableoid is the OID of the catalog table its alias names, or of the first one its SELECT reads', () => {
        strict_1.default.equal(forms('SELECT c.tableoid, n.tableoid FROM pg_catalog.pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace'), 'SELECT 1259, 2615 FROM pg_catalog.pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace');
        strict_1.default.equal(forms('SELECT tableoid, oid FROM pg_type'), 'SELECT 1247, oid FROM pg_type');
        strict_1.default.equal(forms('SELECT x.tableoid FROM t x'), 'SELECT x.tableoid FROM t x');
        // pg_dump's type query: the subquery's pg_class came first in the text, and the text rewrite took it (1259)
        strict_1.default.equal(forms('SELECT tableoid, oid, (SELECT relkind FROM pg_class WHERE oid = typrelid) AS "typrelkind" FROM pg_type'), 'SELECT 1247, oid, (SELECT relkind FROM pg_class WHERE oid = typrelid) AS "typrelkind" FROM pg_type');
        // each branch of a UNION reads its own table
        strict_1.default.equal(forms('SELECT tableoid FROM pg_class UNION ALL SELECT tableoid FROM pg_type'), 'SELECT 1259 FROM pg_class UNION ALL SELECT 1247 FROM pg_type');
        // a string and a quoted column name are no system column (they became '1259' and "1259")
        strict_1.default.equal(forms(`SELECT 'tableoid' AS w, c.tableoid AS "tableoid" FROM pg_class c`), `SELECT 'tableoid' AS w, 1259 AS "tableoid" FROM pg_class c`);
    });
    it("Npgsql's pg_proc joins on a type's function columns compare the function's name, both orders", () => {
        strict_1.default.equal(forms('SELECT 1 FROM pg_type AS typ LEFT JOIN pg_proc AS proc ON proc.oid = typ.typreceive'), 'SELECT 1 FROM pg_type AS typ LEFT JOIN pg_proc AS proc ON proc.proname = typ.typreceive');
        strict_1.default.equal(forms('SELECT 1 FROM pg_type t JOIN pg_proc p ON t.typinput = p.oid'), 'SELECT 1 FROM pg_type t JOIN pg_proc p ON t.typinput = p.proname');
    });
    it('statements with none of these, and unclosed input, are left as they are', () => {
        for (const sql of [
            'SELECT oid FROM pg_class',
            'SELECT information_schema._pg_expandarray(',
            'SELECT(information_schema._pg_expandarray(x)).n',
            'SELECT tableoid FROM',
        ])
            strict_1.default.equal(forms(sql), sql);
    });
});
//# sourceMappingURL=pg-catalog-forms.test.js.map