// The cheap test before sql/from-names.ts reads a statement's tree for two FROM items of one name
// (PostgreSQL's 42712): every form that clashes passes it; a statement whose queries have one FROM
// item each, the most common, does not, though names repeat in it (`a.aid = b.aid`). The clashes
// themselves, against PostgreSQL, are error-fields-oracle.test.ts'.
import assert from 'node:assert/strict';
import { mayNameTwice } from '../../../protocols/pg/sql/from-names';
import { lexPg } from '../../../protocols/pg/sql/lexer';

const may = (sql: string) => mayNameTwice(lexPg(sql).filter((t) => t.type !== 'space' && t.type !== 'comment'));

describe('FROM item names (the test before the tree)', () => {
  it('passes every form with two FROM items of one name (a join, a FROM list, UPDATE ... FROM, DELETE ... USING)', () => {
    for (const sql of [
      'SELECT 1 FROM t, t',
      'SELECT 1 FROM t, u AS t',
      'SELECT 1 FROM t x, u x',
      'SELECT t.id FROM t JOIN t ON t.id = 1',
      'SELECT 1 FROM t JOIN u USING (id) AS u',
      'SELECT 1 FROM t, (SELECT 1) AS t',
      'SELECT 1 FROM generate_series(1, 2), generate_series(1, 3)',
      'WITH q AS (SELECT 1) SELECT 1 FROM q, q',
      'SELECT 1 FROM t WHERE EXISTS (SELECT 1 FROM u, u)',
      'SELECT * FROM (SELECT 1 FROM u JOIN u ON true) s',
      'INSERT INTO u SELECT t.id, 1, t.name FROM t, t',
      'UPDATE t SET n = 1 FROM t',
      'UPDATE t AS x SET n = 1 FROM u AS x',
      'DELETE FROM t USING t',
      'SELECT 1 FROM t, LATERAL (SELECT u.x FROM u, t AS y) s',
    ])
      assert.equal(may(sql), true, sql);
  });

  it('skips statements whose queries have one FROM item each, however often a name is written', () => {
    for (const sql of [
      'SELECT aid, aid + 1 FROM t WHERE aid = 17',
      'SELECT a.aid, (SELECT max(b.abalance) FROM t b WHERE b.aid = a.aid + 1) FROM t a WHERE a.aid = 17',
      'WITH w AS (SELECT aid FROM t WHERE aid >= 17 ORDER BY aid LIMIT 5) SELECT aid FROM w ORDER BY aid DESC',
      'SELECT bid, count(*) FROM t WHERE aid IN (1, 2) GROUP BY bid, aid ORDER BY bid, aid',
      "SELECT EXTRACT(year FROM d), EXTRACT(month FROM d) FROM t WHERE d > '2024-01-01'",
      'UPDATE t SET n = n + 1, m = n WHERE id = 1 RETURNING id, n',
    ])
      assert.equal(may(sql), false, sql);
  });
});
