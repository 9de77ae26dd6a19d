// Arrays and intervals in what compares whole values, as PostgreSQL 15 compares them: SELECT
// DISTINCT, UNION and IN (SELECT ...) of numeric arrays take {1.50} and {1.5} as one (they compared
// their text); INTERSECT and EXCEPT of intervals take '1 mon' and '30 days' as one, and max/min of
// equal intervals keep the last (they kept the first); arrays of element types PostgreSQL cannot
// compare (integer[] and text[]) are 42883 (their texts were compared). The same statements on
// Patina and on a real PostgreSQL 15.
import assert from 'node:assert/strict';
import { oracleSuite, sameOnBoth } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE arr (id BIGINT NOT NULL PRIMARY KEY, nums NUMERIC[], bs BOOLEAN[], iv INTERVAL, note TEXT,
  ids BIGINT[], tags TEXT[], ivs INTERVAL[]);`;
const ROWS = [
  `INSERT INTO arr (id, nums, bs, iv, note) VALUES
    (1, '{1.50}', '{t}', '1 mon', 'a'), (2, '{1.5}', '{true}', '30 days', 'a'), (3, '{2}', '{f}', '1 day', 'b'),
    (4, NULL, NULL, NULL, NULL), (5, '{3,NULL}', '{t,NULL}', '48 hours', 'b'), (6, '{3.0,NULL}', '{yes,NULL}', '2 days', 'b')`,
];

describe('arrays and intervals in DISTINCT, set operations and IN (SELECT ...), against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { same, clients } = oracleSuite(SCHEMA, ROWS);

  it('SELECT DISTINCT, UNION and IN (SELECT ...) of numeric and boolean arrays compare their elements', async () => {
    // (node-postgres reads a numeric[] as numbers: which of {1.50} and {1.5} a row shows is not compared)
    await same('SELECT DISTINCT nums FROM arr ORDER BY 1');
    await same('SELECT DISTINCT nums AS x, note FROM arr ORDER BY x, note');
    await same('SELECT count(*) FROM (SELECT DISTINCT nums FROM arr) q');
    await same('SELECT DISTINCT bs FROM arr ORDER BY 1');
    await same("SELECT nums FROM arr UNION SELECT '{1.5000}'::numeric[] ORDER BY 1");
    await same('SELECT nums, note FROM arr UNION SELECT nums, note FROM arr WHERE id > 3 ORDER BY 1, 2');
    await same('SELECT count(*) FROM (SELECT bs FROM arr UNION SELECT ARRAY[true]) q');
    for (const where of [
      "nums IN (SELECT '{1.5}'::numeric[])",
      'nums IN (SELECT nums FROM arr a2 WHERE a2.id = 6)',
      "nums NOT IN (SELECT '{1.500}'::numeric[])",
      'nums IN (SELECT nums FROM arr a2 WHERE a2.id = arr.id - 1)',
      "bs IN (SELECT '{true}'::boolean[])",
      "nums IN ('{2.0}')",
    ])
      await same(`SELECT id FROM arr WHERE ${where} ORDER BY id`);
  });

  it('INTERSECT and EXCEPT of intervals by their length; IN (SELECT ...) too', async () => {
    await same("SELECT iv FROM arr EXCEPT SELECT '30 days'::interval ORDER BY 1");
    await same("SELECT iv AS x, note FROM arr EXCEPT SELECT '1 day'::interval, 'b' ORDER BY x");
    await same('SELECT iv FROM arr EXCEPT SELECT iv FROM arr WHERE id = 5 ORDER BY iv');
    // which of two equal intervals INTERSECT shows is PostgreSQL's plan's choice (the smaller side's):
    // compared by length
    await same(
      "SELECT extract(epoch FROM iv) FROM (SELECT iv FROM arr INTERSECT SELECT '720 hours'::interval) q ORDER BY 1",
    );
    await same(
      'SELECT extract(epoch FROM x) FROM (SELECT iv AS x FROM arr WHERE id < 4 INTERSECT SELECT iv FROM arr WHERE id >= 2) q ORDER BY 1',
    );
    await same("SELECT id FROM arr a WHERE EXISTS (SELECT a.iv INTERSECT SELECT '2 days'::interval) ORDER BY id");
    await same("SELECT nums FROM arr INTERSECT SELECT '{1.5000}'::numeric[]");
    await same("SELECT nums FROM arr EXCEPT SELECT '{3,NULL}'::numeric[] ORDER BY 1");
    await same("SELECT id FROM arr WHERE iv IN (SELECT '720 hours'::interval) ORDER BY id");
    await same('SELECT id FROM arr WHERE iv NOT IN (SELECT iv FROM arr WHERE id = 6) ORDER BY id');
  });

  it('max and min of equal intervals keep the last, as interval_larger and interval_smaller do', async () => {
    const rows = await same('SELECT max(iv)::text, min(iv)::text FROM arr');
    assert.deepEqual(rows[0], ['30 days', '1 day']);
    await same('SELECT max(iv)::text, min(iv)::text FROM (SELECT iv FROM arr ORDER BY id DESC) q');
    await same('SELECT note, max(iv)::text, min(iv)::text FROM arr GROUP BY note ORDER BY note');
    await sameOnBoth(
      clients(),
      `SELECT id, max(iv) OVER (ORDER BY id)::text, min(iv) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)::text
        FROM arr ORDER BY id`,
    );
  });

  it('arrays of element types PostgreSQL cannot compare are 42883, as there', async () => {
    /** The SQLSTATE of `sql` on both servers, which must agree. */
    const code = async (sql: string) => {
      const codes: string[] = [];
      for (const c of [clients().patina, clients().postgres])
        codes.push(
          await c.query(sql).then(
            () => 'none',
            (e: { code: string }) => e.code,
          ),
        );
      assert.equal(codes[0], codes[1], sql);
      return codes[0];
    };
    for (const sql of [
      "SELECT ARRAY[1] = ARRAY['a']",
      "SELECT ARRAY[1] = ARRAY['1']",
      'SELECT ARRAY[true] <> ARRAY[1]',
      'SELECT id FROM arr WHERE ids = tags',
      'SELECT id FROM arr WHERE ids @> tags OR tags && ids',
      'SELECT id FROM arr WHERE ids < tags',
      'SELECT id FROM arr WHERE ivs = ids',
      'SELECT id FROM arr WHERE bs = nums',
      'SELECT tags || ids FROM arr',
      'SELECT id FROM arr WHERE nums = ARRAY[1, 2]',
      "SELECT id FROM arr WHERE nums = '{1,2}'::int[]",
      'SELECT id FROM arr WHERE ids = nums',
      'SELECT ARRAY[1] <> ARRAY[1.0::float8]',
    ])
      assert.equal(await code(sql), '42883', sql);
    // what PostgreSQL compares still runs
    for (const sql of [
      "SELECT id FROM arr WHERE tags = '{a}' OR ids = '{1}' OR nums = ARRAY[1, 2]::numeric[] ORDER BY id",
      "SELECT id FROM arr WHERE tags = ARRAY['a'] OR tags @> ARRAY['x'] ORDER BY id",
      'SELECT ARRAY[1] || ARRAY[2], ARRAY[1.5] || ARRAY[1], ARRAY[1] || ARRAY[1.5], ids || nums, tags || ARRAY[NULL] FROM arr ORDER BY id',
    ])
      await same(sql);
  });
});
