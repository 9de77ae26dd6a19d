// Assignment to an array slice (`SET nums[1:2] = '{9,8}'`, `[:2]`, `[2:]`), to an element of a
// multi-dimensional array (`SET m[1][2] = 5`) and INSERT ... SELECT into array elements
// (`INSERT INTO t (id, nums[1]) SELECT ...`), as PostgreSQL 15 assigns them: they were 0A000. The
// same statements on Patina and on a real PostgreSQL 15: the rows written and returned (also as
// text, bounds included), or the same SQLSTATE and message.
import { type OracleClients, oracleSuite, sameOnBoth, sameOutcomeOnBoth } from '../helpers/catalog-pair';

const SCHEMA = `CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, x BIGINT, nums BIGINT[], labels TEXT[], m BIGINT[],
  ns NUMERIC[]);`;
const ROWS = [
  `INSERT INTO items (id, x, nums, labels, m) VALUES (1, 7, '{1,2,3,4}', '{a,b,c}', '{{1,2},{3,4}}'),
    (2, NULL, NULL, '{}', NULL), (3, 9, '{5}', NULL, '{{1,2,3},{4,5,6},{7,8,9}}')`,
];
const TABLE = 'SELECT id, x, nums::text, labels::text, m::text, ns::text FROM items ORDER BY id';

describe('array slices and elements of multi-dimensional arrays assigned, against PostgreSQL 15', function () {
  this.timeout(60_000);
  const { clients } = oracleSuite(SCHEMA, ROWS);
  const outcome = (sql: string) => sameOutcomeOnBoth(clients() as OracleClients, sql);
  const same = (sql: string, params?: unknown[]) => sameOnBoth(clients() as OracleClients, sql, params);

  it('UPDATE ... SET arr[a:b], arr[:b], arr[a:] writes the slice, growing a one-dimensional array (was 0A000)', async () => {
    for (const sql of [
      "UPDATE items SET nums[1:2] = '{9,8}' WHERE id = 1 RETURNING nums, nums::text",
      "UPDATE items SET nums[2:] = '{7,7,7,6}' WHERE id = 1 RETURNING nums::text",
      'UPDATE items SET nums[:2] = ARRAY[5,6] WHERE id = 1 RETURNING nums::text',
      // past the end NULLs fill the gap; before the first element the lower bound moves
      "UPDATE items SET nums[6:7] = '{1,2}' WHERE id = 1 RETURNING nums::text",
      "UPDATE items SET nums[-1:0] = '{1,2}' WHERE id = 3 RETURNING nums::text",
      // a NULL or empty array takes the slice with its bounds; a NULL source changes nothing
      "UPDATE items SET nums[2:3] = '{4,5,6}' WHERE id = 2 RETURNING nums::text",
      'UPDATE items SET nums[1:2] = NULL WHERE id = 1 RETURNING nums::text',
      "UPDATE items SET labels[1:2] = '{x y,\"z\"}', labels[2] = 'q' WHERE id = 2 RETURNING labels, labels::text",
      // several in one SET, in the order written, each reading the row's old value
      'UPDATE items SET nums[1:1] = ARRAY[x], nums[2:3] = nums[1:2] WHERE id = 1 RETURNING nums::text',
      "UPDATE items SET ns[1:2] = '{1.50, 2}' WHERE id = 1 RETURNING ns, ns::text",
      // in a multiple-column SET of a row, as each one alone
      'UPDATE items SET (x, nums[1]) = (nums[2], x) WHERE id = 1 RETURNING x, nums::text',
      "UPDATE items SET (nums[2:3], x, m[1][1]) = ROW('{4,5}', 8, 9) WHERE id = 1 RETURNING x, nums::text, m::text",
      'UPDATE items SET (x, nums[1]) = (1, 2, 3) WHERE id = 1',
    ])
      await outcome(sql);
    await same('UPDATE items SET nums[$1:$2] = $3 WHERE id = 3 RETURNING nums::text', [1, 2, '{10,20}']);
    await same(TABLE);
  });

  it('a slice PostgreSQL cannot assign is its 2202E or 22004', async () => {
    for (const sql of [
      "UPDATE items SET nums[1:3] = '{1}' WHERE id = 1",
      "UPDATE items SET nums[3:2] = '{1}' WHERE id = 1",
      "UPDATE items SET nums[NULL:2] = '{1}' WHERE id = 1",
      "UPDATE items SET nums[2:NULL] = '{1}' WHERE id = 1",
      "UPDATE items SET labels[:2] = '{4,5}' WHERE id = 2",
      "UPDATE items SET labels[2:] = '{4,5}' WHERE id = 2",
      "UPDATE items SET m[1:2][1:2][1:1] = '{1,2}' WHERE id = 3",
    ])
      await outcome(sql);
    await same(TABLE);
  });

  it('SET m[i][j] and slices of a multi-dimensional array write within its bounds (was 0A000)', async () => {
    for (const sql of [
      'UPDATE items SET m[1][2] = 50 WHERE id = 1 RETURNING m, m::text',
      'UPDATE items SET m[2][2] = NULL, m[1][1] = m[2][2] + 1 WHERE id = 1 RETURNING m::text',
      // out of its bounds, or another number of subscripts: 2202E as there
      'UPDATE items SET m[3][2] = 5 WHERE id = 1',
      'UPDATE items SET m[0][1] = 5 WHERE id = 1',
      'UPDATE items SET m[1][2][1] = 5 WHERE id = 1',
      'UPDATE items SET m[NULL][1] = 5 WHERE id = 1',
      // a NULL array becomes the one element, printed with its bounds
      'UPDATE items SET m[2][3] = 5 WHERE id = 2 RETURNING m, m::text',
      "UPDATE items SET m[2:3][2:3] = '{10,11,12,13}' WHERE id = 3 RETURNING m::text",
      "UPDATE items SET m[2:2] = '{30,31,32}' WHERE id = 3 RETURNING m::text",
      // [n] beside a slice is [1:n]; the source's elements are read in order, whatever its shape
      "UPDATE items SET m[1:2][1] = '{{1,2},{3,4}}' WHERE id = 3 RETURNING m::text",
      "UPDATE items SET m[2][2:] = '{{20,21}}' WHERE id = 3 RETURNING m::text",
      "UPDATE items SET m[3:4][1:1] = '{1,2}' WHERE id = 3",
      "UPDATE items SET m[1:1][1:2] = '{1,2}' WHERE id = 1 RETURNING m::text",
    ])
      await outcome(sql);
    await same('UPDATE items SET m[$1][$2] = $3 WHERE id = 3 RETURNING m::text', [3, 3, 99]);
    await same(TABLE);
  });

  it('INSERT ... SELECT into array elements and slices builds each from NULL (was 0A000)', async () => {
    for (const sql of [
      'INSERT INTO items (id, nums[1]) SELECT 40, 1 RETURNING nums::text',
      `INSERT INTO items (id, nums[2], labels[1:2], nums[1]) SELECT id + 100, x, labels, id FROM items
        WHERE id < 3 ORDER BY id RETURNING id, nums::text, labels::text`,
      'INSERT INTO items (id, nums[1]) (SELECT 41, 2) RETURNING nums::text',
      'WITH s AS (SELECT 50 AS a UNION ALL SELECT 51) INSERT INTO items (id, m[1][1]) SELECT a, a * 2 FROM s RETURNING id, m::text',
      'INSERT INTO items (id, nums[0]) SELECT 52, 3 UNION ALL SELECT 53, 4 RETURNING id, nums::text',
      // ON CONFLICT after the query, and the query's width checked as PostgreSQL checks it
      `INSERT INTO items (id, nums[1]) SELECT 1, 5 ON CONFLICT (id) DO UPDATE SET nums[2:3] = excluded.nums || excluded.nums
        RETURNING nums::text`,
      'INSERT INTO items (id, nums[1]) SELECT 42',
      'INSERT INTO items (id, nums[1]) SELECT 42, 1, 2',
      'INSERT INTO items (id, m[1:2]) VALUES (61, ARRAY[1,2]) RETURNING m::text',
    ])
      await outcome(sql);
    await same('INSERT INTO items (id, labels[2]) SELECT $1::bigint, $2 RETURNING labels::text', [62, 'p']);
    await same(TABLE);
  });
  it('an array with bounds (as a slice or element before the first writes it) is read by them (was NULL, {}, 0)', async () => {
    await same(
      `INSERT INTO items (id, nums, m) VALUES (200, '[0:3]={7,1,2,3}', '[0:1][2:3]={{1,2},{3,4}}'), (201, '{1,2}', NULL)`,
    );
    await outcome(
      "UPDATE items SET nums[-1:0] = '{5,6}' WHERE id = 201 RETURNING nums[-1], nums[0], nums[1], nums::text",
    );
    for (const sql of [
      `SELECT id, nums[0], nums[1], nums[3], nums[4], nums[-1], nums[0:1], nums[:1], nums[2:], m[0][2], m[1][3], m[0:0],
        m[1][2:3], m[:0][3] FROM items WHERE id >= 200 ORDER BY id`,
      `SELECT id, array_lower(nums, 1), array_upper(nums, 1), array_length(nums, 1), array_dims(nums), cardinality(nums),
        array_ndims(nums), array_lower(m, 2), array_upper(m, 2), array_dims(m), array_length(m, 2), cardinality(m)
        FROM items WHERE id >= 200 ORDER BY id`,
      'SELECT id, unnest(nums) FROM items WHERE id >= 200 ORDER BY id',
      `SELECT id, array_to_string(nums, ','), 2 = ANY(nums), nums @> '{7}', array_position(nums, 2), array_positions(nums, 1)
        FROM items WHERE id >= 200 ORDER BY id`,
      "SELECT ('[0:1]={1,2}'::int[])[0], ('[-2:-1]={a,b}'::text[])[-2:], array_upper('[5:6]={1,2}'::int[], 1)",
    ])
      await same(sql);
  });

  it("array_append, array_prepend, array_cat, || , array_remove and array_replace keep an array's lower bound (they started it at 1)", async () => {
    for (const sql of [
      `SELECT array_append('[0:1]={1,2}'::int[], 3)::text, array_prepend(0, '[0:1]={1,2}'::int[])::text,
        ('[0:1]={1,2}'::int[] || 3)::text, (3 || '[0:1]={1,2}'::int[])::text`,
      // array_cat: the first array with elements gives the bound
      `SELECT ('[0:1]={1,2}'::int[] || '{5,6}'::int[])::text, ('{5,6}'::int[] || '[0:1]={1,2}'::int[])::text,
        ('{}'::int[] || '[0:1]={1,2}'::int[])::text, ('[0:1]={1,2}'::int[] || '{}'::int[])::text`,
      `SELECT array_cat('[0:1]={1,2}'::int[], '[5:6]={5,6}'::int[])::text, array_cat(NULL, '[5:6]={5,6}'::int[])::text,
        array_cat('[5:6]={5,6}'::int[], NULL)::text, array_append('{}'::int[], 1)::text, array_prepend(1, NULL::int[])::text`,
      `SELECT ('[-3:-2]={a,b}'::text[] || 'c'::text)::text, array_prepend('z', '[-3:-2]={a,b}'::text[])::text,
        array_append('[2:3]={1,2}'::int[], NULL)::text, (NULL::int[] || '[2:3]={1,2}'::int[])::text`,
      `SELECT array_lower(array_append('[0:1]={1,2}'::int[], 3), 1), (array_prepend(0, '[0:1]={1,2}'::int[]))[0],
        array_remove('[0:2]={1,2,3}'::int[], 2)::text, array_replace('[0:2]={1,2,3}'::int[], 2, 9)::text,
        array_remove('[0:0]={2}'::int[], 2)::text`,
      `SELECT id, array_append(nums, 9)::text, (nums || ARRAY[8])::text FROM items WHERE id IN (1, 200, 201) ORDER BY id`,
      // of more dimensions: the first array's bounds (the second's when the first is an element of it)
      `SELECT ('[0:1][1:2]={{1,2},{3,4}}'::int[] || '{{5,6}}'::int[])::text, ('{{5,6}}'::int[] || '[0:1][1:2]={{1,2},{3,4}}'::int[])::text,
        ('[0:1][1:2]={{1,2},{3,4}}'::int[] || '{5,6}'::int[])::text, ('{5,6}'::int[] || '[0:1][1:2]={{1,2},{3,4}}'::int[])::text,
        array_cat('[0:1][1:2]={{1,2},{3,4}}'::int[], '{}'::int[])::text, array_cat(NULL, '[0:1][1:2]={{1,2},{3,4}}'::int[])::text`,
    ])
      await same(sql);
    // (lower bounds that differ below the first dimension do not fit; an element is added to one dimension only)
    for (const sql of [
      "SELECT '{5,6}'::int[] || '[0:1][2:3]={{1,2},{3,4}}'::int[]",
      "SELECT array_cat('{{1,2}}'::int[], '[2:2][2:3]={{3,4}}'::int[])",
      "SELECT array_append('[0:1][1:2]={{1,2},{3,4}}'::int[], 5)",
    ])
      await outcome(sql);
  });

  it('a multiple-column SET with array elements among its targets takes them from a sub-SELECT (was 0A000)', async () => {
    await same(
      `INSERT INTO items (id, x, nums, labels, m) VALUES (300, 1, '{1,2,3}', '{a}', '{{1,2},{3,4}}'), (301, 2, NULL, NULL, NULL), (302, 3, '{4}', '{b,c}', NULL)`,
    );
    for (const sql of [
      'UPDATE items SET (x, nums[1]) = (SELECT 7, 8) WHERE id = 300 RETURNING x, nums::text',
      // each element set into the row's old value, in the order written; the query reads the row
      `UPDATE items SET (nums[2], x, nums[1], labels[2:3]) = (SELECT v.y * 10, x + v.y, 9, ARRAY['p', 'q']
        FROM (VALUES (301, 1), (302, 2)) v(k, y) WHERE v.k = items.id) WHERE id IN (301, 302) RETURNING id, x, nums::text, labels::text`,
      // no row: each target NULL (the element too, in its old array)
      'UPDATE items SET (x, nums[2]) = (SELECT x, x FROM items WHERE id = 999) WHERE id = 300 RETURNING x, nums::text',
      'UPDATE items SET (m[2][1], x) = (WITH w AS (SELECT 5 AS v) SELECT v * 2, v FROM w) WHERE id = 300 RETURNING x, m::text',
      'UPDATE items SET (x, nums[1]) = (SELECT 1) WHERE id = 300',
      'UPDATE items SET (x, nums[1]) = (SELECT 1, 2, 3) WHERE id = 300',
    ])
      await outcome(sql);
    await same(`${TABLE.replace(' ORDER BY', ' WHERE id >= 300 ORDER BY')}`);
  });
});
