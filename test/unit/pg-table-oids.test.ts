// translate/table-oids.ts on tokens: tableoid as the OID of the relation it belongs to, a catalog
// table's or a table of the database's; and what the text rewrite before it got wrong (a 'tableoid'
// string, a column named "tableoid", a bare tableoid beside a subquery that reads another table).
import assert from 'node:assert/strict';
import { lexPg } from '../../protocols/pg/sql/lexer';
import { joinTokens } from '../../protocols/pg/sql/tokens';
import { rewriteTableOids } from '../../protocols/pg/sql/translate/table-oids';
import type { DialectContext } from '../../protocols/pg/sql/translate/translate';
import { relationNames, setRelationNames } from '../../protocols/pg/types/relation-names';

const USER = new Map([
  [16385, 'orders'],
  [16390, 'Mixed'],
]);
const ctx: DialectContext = {
  user: 'u',
  database: 'd',
  version: '15',
  columns: (table) => (USER.has([...USER].find(([, n]) => n === table)?.[0] ?? 0) ? [] : null),
  columnType: () => null,
};
const oids = (sql: string, c = ctx) =>
  joinTokens(
    rewriteTableOids(
      lexPg(sql).filter((t) => t.type !== 'space' && t.type !== 'comment'),
      c,
    ),
  );

describe('tableoid, as tokens', () => {
  const before = relationNames();
  beforeEach(() =>
    setRelationNames({
      name: (oid) => USER.get(oid),
      oid: (name) => [...USER].find(([, n]) => n === name)?.[0],
      typeName: () => undefined,
      typeOid: () => undefined,
    }),
  );
  after(() => setRelationNames(before));

  it('is the OID of the catalog table its alias names, or of the first one its SELECT reads', () => {
    assert.equal(
      oids('SELECT c.tableoid, n.tableoid FROM pg_catalog.pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace'),
      'SELECT 1259, 2615 FROM pg_catalog.pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace',
    );
    assert.equal(oids('SELECT tableoid, oid FROM pg_type'), 'SELECT 1247, oid FROM pg_type');
    assert.equal(oids('SELECT x.tableoid FROM t x'), 'SELECT x.tableoid FROM t x');
    // pg_dump's type query: the subquery's pg_class came first in the text, and the text rewrite took it (1259)
    assert.equal(
      oids('SELECT tableoid, oid, (SELECT relkind FROM pg_class WHERE oid = typrelid) AS "typrelkind" FROM pg_type'),
      'SELECT 1247, oid, (SELECT relkind FROM pg_class WHERE oid = typrelid) AS "typrelkind" FROM pg_type',
    );
    // each branch of a UNION reads its own table
    assert.equal(
      oids('SELECT tableoid FROM pg_class UNION ALL SELECT tableoid FROM pg_type'),
      'SELECT 1259 FROM pg_class UNION ALL SELECT 1247 FROM pg_type',
    );
    // a string and a quoted column name are no system column (they became '1259' and "1259")
    assert.equal(
      oids(`SELECT 'tableoid' AS w, c.tableoid AS "tableoid" FROM pg_class c`),
      `SELECT 'tableoid' AS w, 1259 AS "tableoid" FROM pg_class c`,
    );
  });

  it("is a table of the database's OID as the catalog lists it (it was 0A000), in reads and writes", () => {
    assert.equal(
      oids(`SELECT tableoid::regclass, id FROM orders WHERE tableoid = 'orders'::regclass`),
      `SELECT 16385 :: regclass, id FROM orders WHERE 16385 = 'orders' :: regclass`,
    );
    assert.equal(
      oids('SELECT o.tableoid, m.tableoid FROM public.orders AS o JOIN "Mixed" m ON true'),
      'SELECT 16385, 16390 FROM public.orders AS o JOIN "Mixed" m ON true',
    );
    assert.equal(
      oids('UPDATE orders SET a = 1 WHERE tableoid > 0 RETURNING tableoid'),
      'UPDATE orders SET a = 1 WHERE 16385 > 0 RETURNING 16385',
    );
    assert.equal(
      oids('INSERT INTO orders (id) VALUES (1) RETURNING tableoid'),
      'INSERT INTO orders(id) VALUES(1) RETURNING 16385',
    );
    // a term of GROUP BY or ORDER BY that is a number is a position to SQLite: the OID is not one
    assert.equal(
      oids('SELECT o.tableoid FROM orders o GROUP BY id % 2, o.tableoid ORDER BY tableoid DESC, tableoid + 0'),
      'SELECT 16385 FROM orders o GROUP BY id % 2, CAST(16385 AS INTEGER) ORDER BY CAST(16385 AS INTEGER) DESC, 16385 + 0',
    );
    // a table with a column of that name: that column
    const own = 'SELECT tableoid FROM orders';
    assert.equal(oids(own, { ...ctx, columnType: (_t, c) => (c === 'tableoid' ? 'INTEGER' : null) }), own);
  });

  it('statements with none, and unclosed input, are left as they are', () => {
    for (const sql of ['SELECT oid FROM pg_class', 'SELECT tableoid FROM', 'SELECT tableoid FROM nope'])
      assert.equal(oids(sql), sql);
  });
});
