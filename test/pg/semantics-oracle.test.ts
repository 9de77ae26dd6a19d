// SQL whose text SQLite would run with another meaning (LIKE's case and escapes, where NULLs sort,
// greatest/least with NULLs), and constructs with no translation: the same statements on Patina and
// on PostgreSQL 15, through node-postgres (simple protocol without parameters, extended with).
import assert from 'node:assert/strict';
import { type OracleClients, psqlOk, sameOnBoth, startOracle } from '../helpers/catalog-pair';
import type { PgClient } from '../helpers/pg';

const MORE_ROWS = [
  `INSERT INTO customers (id, name, email) VALUES
    (10, 'Apple', 'z@example.com'), (11, 'apple', NULL), (12, 'a_b', 'b@example.com'), (13, 'axb', NULL),
    (14, '100%', 'c@example.com'), (15, 'x*y', NULL), (16, 'q?', 'a@example.com'), (17, '[br]', NULL),
    (18, 'ÉCOLE', 'é@example.com'), (19, 'back\\slash', NULL)`,
  `INSERT INTO orders (id, customer_id, amount, note) VALUES (3, 10, 7, 'x'), (4, 11, NULL, NULL), (5, 12, -2, 'y')`,
];

/** What a statement gives a client: 'ran', or its error's SQLSTATE and message. */
const message = (client: PgClient, sql: string, params?: unknown[]) =>
  client.query(sql, params).then(
    () => 'ran',
    (e: { code?: string; message: string }) => `${e.code} ${e.message}`,
  );
/** The error with the place PostgreSQL points at (psql's caret). */
const placed = (client: PgClient, sql: string) =>
  client.query(sql).then(
    () => 'ran',
    (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
  );

describe('PostgreSQL meanings SQLite would change, against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;
  let patina: PgClient;
  let postgres: PgClient;

  before(async () => {
    o = await startOracle({ rows: true });
    ({ patina, postgres } = o);
    for (const sql of MORE_ROWS) {
      await patina.query(sql);
      await postgres.query(sql);
    }
  });
  after(() => o?.close());

  const same = (sql: string, params?: unknown[]) => sameOnBoth(o, sql, params);

  it('LIKE is case sensitive and escapes with \\; ILIKE folds case; *, ? and [ are plain characters', async () => {
    const queries = [
      "SELECT id FROM customers WHERE name LIKE 'a%' ORDER BY id",
      "SELECT id FROM customers WHERE name LIKE 'A%' ORDER BY id",
      "SELECT id FROM customers WHERE name ILIKE 'a%' ORDER BY id",
      "SELECT id FROM customers WHERE name NOT LIKE '%p%' ORDER BY id",
      "SELECT id FROM customers WHERE name NOT ILIKE '%P%' ORDER BY id",
      "SELECT id FROM customers WHERE name LIKE 'a\\_b' ORDER BY id",
      "SELECT id FROM customers WHERE name LIKE 'a_b' ORDER BY id",
      "SELECT id FROM customers WHERE name LIKE '100\\%' ORDER BY id",
      "SELECT id FROM customers WHERE name LIKE '100#%' ESCAPE '#' ORDER BY id",
      "SELECT id FROM customers WHERE name LIKE 'x*%' OR name LIKE 'q?' OR name LIKE '[b%' ORDER BY id",
      "SELECT id FROM customers WHERE name LIKE 'back\\\\slash' ORDER BY id",
      "SELECT id FROM customers WHERE name ~~ 'a%' ORDER BY id",
      "SELECT id FROM customers WHERE name ~~* 'A%' ORDER BY id",
      "SELECT id FROM customers WHERE name !~~ 'a%' ORDER BY id",
      "SELECT id FROM customers WHERE name !~~* 'A%' ORDER BY id",
      "SELECT id FROM customers WHERE name LIKE 'É%' ORDER BY id",
      "SELECT id FROM customers WHERE name ILIKE 'é%' OR name ILIKE 'BACK\\\\%' ORDER BY id",
      "SELECT 'ÉCOLE' ILIKE 'é%', 'ab' ILIKE 'A#B' ESCAPE '#', 'a%' ILIKE 'A\\%', 'x' NOT ILIKE 'X', 'Straße' ILIKE '%SS%'",
      "SELECT 'ABC' LIKE 'abc', 'ABC' ILIKE 'abc', NULL LIKE 'a', 'a' LIKE NULL, 'ab' LIKE 'a#b' ESCAPE '#'",
      "SELECT CASE WHEN name LIKE 'a%' THEN 'yes' ELSE 'no' END FROM customers ORDER BY id",
    ];
    for (const sql of queries) await same(sql);
    assert.deepEqual(await same("SELECT id FROM customers WHERE name LIKE 'a%' ORDER BY id"), [
      ['1'],
      ['11'],
      ['12'],
      ['13'],
    ]);
    // parameters, and a pattern built with ||
    for (const [sql, params] of [
      ["SELECT id FROM customers WHERE name LIKE '%' || $1 || '%' ORDER BY id", ['pp']],
      ["SELECT id FROM customers WHERE name LIKE '%' || $1::text || '%' ORDER BY id", ['*']],
      ['SELECT id FROM customers WHERE name LIKE $1 ORDER BY id', ['A%']],
      ['SELECT id FROM customers WHERE name ILIKE $1 ORDER BY id', ['A%']],
      ['SELECT id FROM customers WHERE lower(name) LIKE lower($1) ORDER BY id', ['A%']],
      ["SELECT id FROM customers WHERE name LIKE $1 ESCAPE '!' ORDER BY id", ['a!_%']],
    ] as [string, unknown[]][])
      await same(sql, params);
  });

  it('lower, upper and initcap change every letter as PostgreSQL does in UTF8 (SQLite changed ASCII only)', async () => {
    const queries = [
      "SELECT lower('ÄÖÜ STRASSE ÀB'), upper('äöü straße'), upper('ß'), upper('ǆ ﬁ ŉ ᾳ ᾀ'), lower('ΟΔΟΣ İ ǅ')",
      "SELECT initcap('ärger ÉCOLE ǆx ßa ⓐb'), lower(NULL::text), upper(''), initcap('o''neil-ÖL')",
      'SELECT id, lower(name), upper(name), initcap(name) FROM customers ORDER BY id',
      'SELECT id FROM customers WHERE lower(name) = $1 ORDER BY id',
      "SELECT id FROM customers WHERE upper(name) = 'ÉCOLE' AND lower(name) LIKE 'é%' ORDER BY id",
      'SELECT lower(name), count(*) FROM customers GROUP BY lower(name) ORDER BY 1',
      "SELECT id FROM customers WHERE name ILIKE 'école' AND lower(name) = lower('ÉCOLE') ORDER BY id",
    ];
    for (const sql of queries) await same(sql, sql.includes('$1') ? ['école'] : undefined);
    assert.deepEqual(await same('SELECT id FROM customers WHERE lower(name) = $1 ORDER BY id', ['école']), [['18']]);
    // every letter of Latin-1, Latin Extended, IPA, Greek and Cyrillic (U+00C0 to U+052F), each way;
    // but ƛ and ɤ, whose capitals Unicode 16 added (Node's tables have them, glibc 2.36's not)
    const letters = Array.from({ length: 0x530 - 0xc0 }, (_, i) => String.fromCodePoint(0xc0 + i))
      .filter((c) => c !== '\u019b' && c !== '\u0264')
      .join(' ');
    await same('SELECT lower($1::text), upper($1::text), initcap($1::text)', [letters]);
  });

  it('a pattern ending in the escape character is refused (22025), an escape of two characters too', async () => {
    // PostgreSQL 15 refuses a trailing escape only when matching reaches it, and then not in every
    // encoding ('a' LIKE 'a\\' is false in UTF8); Patina refuses every such pattern (docs/postgres.md).
    for (const sql of ["SELECT 'a' LIKE 'a\\'", "SELECT id FROM customers WHERE name LIKE 'x\\'"])
      await assert.rejects(patina.query(sql), (e: { code?: string }) => e.code === '22025', sql);
    for (const c of [patina, postgres])
      await assert.rejects(
        c.query("SELECT id FROM customers WHERE name LIKE $1 ESCAPE '##'", ['a']),
        (e: { code?: string }) => e.code === '22025',
      );
    assert.deepEqual((await patina.query({ text: 'SELECT 1', rowMode: 'array' })).rows, [[1]]);
  });

  it('NULLs sort last ascending and first descending, in ORDER BY, windows and aggregates', async () => {
    const queries = [
      'SELECT id, email FROM customers ORDER BY email, id',
      'SELECT id, email FROM customers ORDER BY email DESC, id',
      'SELECT id, email FROM customers ORDER BY email ASC NULLS FIRST, id',
      'SELECT id, email FROM customers ORDER BY email DESC NULLS LAST, id DESC',
      'SELECT id, email FROM customers ORDER BY 2, 1',
      'SELECT id, amount FROM orders ORDER BY amount, id',
      'SELECT id, amount FROM orders ORDER BY amount * 2 DESC, id',
      'SELECT email AS name, id FROM customers ORDER BY name, id',
      'SELECT id, row_number() OVER (ORDER BY email, id) FROM customers ORDER BY id',
      "SELECT string_agg(name, ',' ORDER BY email, id) FROM customers",
      'SELECT c.id, o.amount FROM customers c LEFT JOIN orders o ON o.customer_id = c.id ORDER BY o.amount DESC, c.id',
      'SELECT id FROM (SELECT id, email FROM customers ORDER BY email LIMIT 20) s ORDER BY id',
      'SELECT id FROM customers ORDER BY id DESC LIMIT 3',
    ];
    for (const sql of queries) await same(sql);
    const rows = await same('SELECT id, email FROM customers ORDER BY email, id');
    assert.equal(rows[rows.length - 1][1], null, 'NULLs come last');
  });

  it('greatest and least skip NULLs', async () => {
    for (const sql of [
      'SELECT greatest(1, NULL, 3), least(4, NULL), greatest(NULL::int, NULL), greatest(2), least(3, 1, 2)',
      'SELECT id, greatest(amount, 0), least(amount, customer_id) FROM orders ORDER BY id',
      "SELECT greatest('b', 'a', NULL), least(note, 'm') FROM orders ORDER BY id",
    ])
      await same(sql);
  });

  it('coalesce of one argument is its value, typed as it (it was 42883: SQLite has no coalesce of one)', async () => {
    for (const [sql, params] of [
      [
        "SELECT coalesce(1), coalesce(NULL), coalesce('x'), coalesce(1.50), pg_typeof(coalesce(1)), coalesce(NULL::int)",
        undefined,
      ],
      [
        'SELECT id, coalesce(amount), coalesce(note), coalesce(coalesce(customer_id)) FROM orders ORDER BY id',
        undefined,
      ],
      [
        "SELECT json_build_object('a', coalesce(id), 'b', coalesce(NULL)), json_build_array(coalesce(1.5)) FROM orders ORDER BY id",
        undefined,
      ],
      ['SELECT json_agg(coalesce(id) ORDER BY id), coalesce($1::int) FROM orders', [3]],
    ] as [string, unknown[] | undefined][])
      await same(sql, params);
  });

  it('a VALUES list in FROM takes its column names from its alias', async () => {
    for (const sql of [
      "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v (n, s) ORDER BY n DESC",
      "SELECT v.n + 1, s FROM (VALUES (1, 'a')) v(n, s)",
      'SELECT * FROM (VALUES (1, 2)) AS t',
      'SELECT x FROM (VALUES (3), (1)) AS v(x) WHERE x > 1',
      "SELECT a.x, b.y FROM (VALUES (1)) a(x) JOIN (VALUES (1, 'z')) b(x, y) ON a.x = b.x",
      'SELECT c.name, v.rank FROM customers c JOIN (VALUES (1, 10), (2, 20)) AS v(id, rank) ON v.id = c.id ORDER BY 2',
    ])
      await same(sql);
    // an error in such a query is the error it is, not a refusal of the construct
    for (const c of [patina, postgres])
      await assert.rejects(
        c.query('SELECT nope FROM (VALUES (1)) AS v (a)'),
        (e: { code?: string; message: string }) => e.code === '42703' && /nope/.test(e.message),
      );
    const p = await patina.query('SELECT * FROM (VALUES (1, 2)) AS v (a, b)');
    assert.deepEqual(
      p.fields.map((f) => f.name),
      ['a', 'b'],
    );
  });

  it('a subquery in FROM takes its column names from its alias, all or the first ones (it was a SQLite syntax error)', async () => {
    for (const sql of [
      'SELECT k, v FROM (SELECT id, name FROM customers) s(k, v) ORDER BY k',
      'SELECT * FROM (SELECT id, name FROM customers ORDER BY id DESC LIMIT 2) AS s (k)',
      'SELECT s.k, o.amount FROM (SELECT id, name FROM customers) AS s(k, n) JOIN orders o ON o.customer_id = s.k ORDER BY 1, 2',
      "SELECT * FROM (SELECT 1, 'a') s(x) , (SELECT id FROM customers WHERE id = 10) AS c(cid)",
      'SELECT (SELECT q FROM (SELECT c.id) s(q)) FROM customers c ORDER BY 1',
      'SELECT x.a FROM (WITH w AS (SELECT id FROM customers) SELECT id FROM w) x(a) WHERE x.a > 10 ORDER BY 1',
      "SELECT * FROM (SELECT k FROM (SELECT id FROM customers) i(k) WHERE k = '10') o(z)",
    ])
      await same(sql);
    const p = await patina.query('SELECT * FROM (SELECT 1, 2) AS s (a)');
    assert.deepEqual(
      p.fields.map((f) => f.name),
      ['a', '?column?'],
    );
    // more names than columns: 42P10 with PostgreSQL's words
    for (const c of [patina, postgres])
      await assert.rejects(
        c.query('SELECT * FROM (SELECT id FROM customers) s(a, b)'),
        (e: { code?: string; message: string }) =>
          e.code === '42P10' && e.message === 'table "s" has 1 columns available but 2 columns specified',
      );
  });

  it('a table in FROM takes its column names from its alias, all or the first ones (it was 42601)', async () => {
    for (const sql of [
      'SELECT x.k, x.n FROM customers AS x(k, n) ORDER BY 1',
      'SELECT * FROM customers c(k) WHERE k > 10 ORDER BY k',
      'SELECT c.*, o.amount FROM customers c(cid) JOIN orders o ON o.customer_id = c.cid ORDER BY 1, 4',
      'SELECT k + 1, pg_typeof(k) FROM customers x(k) ORDER BY 1',
      'SELECT * FROM (SELECT * FROM customers AS i(a, b)) s WHERE s.a = 10',
    ])
      await same(sql);
    for (const c of [patina, postgres])
      await assert.rejects(
        c.query('SELECT * FROM customers AS x(a, b, c, d)'),
        (e: { code?: string; message: string }) =>
          e.code === '42P10' && e.message === 'table "x" has 3 columns available but 4 columns specified',
      );
  });

  it("a column without AS has PostgreSQL's name (doc::json is doc, count(*) count), to clients and to the query around a subquery or WITH query (that was 42703)", async () => {
    const queries = [
      // the names a query around a subquery or WITH query reads (SQLite had named them by their text)
      'SELECT s.email FROM (SELECT id, email::varchar FROM customers) s ORDER BY s.id',
      'SELECT s.count FROM (SELECT count(*) FROM orders) s',
      'SELECT "?column?" FROM (SELECT 1 + 1) s',
      'WITH c AS (SELECT customer_id, sum(amount), max(id) FROM orders GROUP BY 1) SELECT customer_id, sum, max FROM c ORDER BY 1',
      'SELECT lower, coalesce, "case", amount, "array", nullif, greatest, current_date = current_date, name FROM (SELECT id, lower(note), coalesce(note, \'-\'), CASE WHEN id > 1 THEN \'b\' END, amount::text::numeric, ARRAY[id], NULLIF(id, 1), GREATEST(id, 2), current_date, (SELECT name FROM customers c WHERE c.id = o.customer_id) FROM orders o) s ORDER BY id',
      'SELECT x.placed_at, x.array, x.upper FROM (SELECT id, placed_at::date, (ARRAY[id, 2])[1], upper(note) FROM orders) x ORDER BY x.id',
      // USING and NATURAL joins over figured names
      'SELECT a.id, b.id, lower FROM (SELECT id, lower(name) FROM customers) a JOIN (SELECT id, lower(name) FROM customers WHERE id > 10) b USING (lower) ORDER BY 1, 2',
      'SELECT id, count FROM (SELECT id, count(*) FROM orders GROUP BY id) a NATURAL JOIN (SELECT customer_id AS id, count(*) FROM orders GROUP BY 1) b ORDER BY id',
      // ORDER BY a figured name looks at the result's names first
      'SELECT count(*) FROM orders GROUP BY customer_id ORDER BY count, 1',
      // (an exact avg keeps its digits, sorted by number)
      'SELECT customer_id, avg(amount) FROM orders GROUP BY 1 ORDER BY avg DESC, 1',
      'SELECT upper(name) FROM customers ORDER BY upper DESC',
      "SELECT upper(name) FROM customers WHERE id < 3 UNION SELECT 'ZED' ORDER BY upper",
    ];
    for (const sql of queries) await same(sql);
    const named = [
      "SELECT id::text, CAST(amount AS int), note::text::varchar, '1'::int, count(*) OVER (), coalesce(note, ''), CASE WHEN paid THEN 1 END, CASE WHEN paid THEN 1 ELSE id END, (ARRAY[id])[1], ARRAY[1], 1 + 1, EXISTS (SELECT 1), note IS NULL, NULLIF(id, 1), GREATEST(id, 1), CURRENT_DATE, (SELECT max(id) FROM customers), note COLLATE \"C\", 'a'::text COLLATE \"C\" FROM orders ORDER BY orders.id",
    ];
    // (a subquery's or WITH query's names under * were PostgreSQL's already)
    for (const sql of named) {
      const names = async (c: PgClient) => (await c.query(sql)).fields.map((f) => f.name);
      assert.deepEqual(await names(patina), await names(postgres), sql);
      // psql's headers too
      const shown = (port: number) => psqlOk(port, [sql]);
      assert.equal(shown(o.pair.patinaPort), shown(o.pair.postgresPort), sql);
    }
  });

  it('a column named by a word SQLite reads as a keyword (exists, case, current_date, values) is read by the query around it (was a syntax error)', async () => {
    for (const sql of [
      'SELECT exists FROM (SELECT EXISTS (SELECT 1 FROM orders WHERE amount > 10)) s',
      'SELECT s.exists, s.case, s.current_date = current_date FROM (SELECT EXISTS (SELECT 1), CASE WHEN true THEN 1 END, current_date) s ORDER BY exists',
      'SELECT id, EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id) FROM customers c ORDER BY exists DESC, id',
      'WITH w AS (SELECT customer_id, EXISTS (SELECT 1 FROM line_items l WHERE l.order_id = o.id) FROM orders o) SELECT customer_id, exists FROM w WHERE exists OR NOT exists GROUP BY customer_id, exists ORDER BY 1',
      'SELECT s.values, s.current_date, s.between FROM (VALUES (1, 2, 3)) s(values, "current_date", between)',
      "SELECT replace, s.left, s.right FROM (SELECT replace('a', 'a', 'b'), left('abc', 1), right('abc', 1)) s",
    ])
      await same(sql);
    // a table's column of none of those names: PostgreSQL's 42703 (a syntax error)
    for (const sql of ['SELECT exists FROM customers', 'SELECT c.case FROM customers c']) {
      const p = await message(patina, sql);
      assert.equal(p, await message(postgres, sql), sql);
      assert.match(p, /^42703 column/);
    }
  });

  it('the name of a function of one value in FROM with a column list is its value (`SELECT a FROM abs(-1) AS a(x)` was the row (1))', async () => {
    for (const [sql, params] of [
      ['SELECT a FROM abs(-1) AS a(x)', undefined],
      ['SELECT a, x, a + 1 AS b, pg_typeof(a) FROM abs($1::int) AS a(x) WHERE a > 0 ORDER BY a', [-3]],
      ["SELECT a, to_json(a), json_build_object('k', a), count(a) FROM upper('x') AS a(v) GROUP BY a", undefined],
      ['SELECT coalesce(a, 0), CASE WHEN a = 1 THEN a END, 1 a FROM abs(-1) AS a(x)', undefined],
      ['SELECT c.id, a FROM customers c, abs(-2) AS a(x) WHERE c.id < a ORDER BY 1', undefined],
      // a subquery's name is its row still
      ['SELECT s FROM (SELECT abs(-1) AS x) AS s', undefined],
    ] as [string, unknown[] | undefined][])
      await same(sql, params);
  });

  it('an ORDER BY or GROUP BY name two different items have is 42702 "ORDER BY "n" is ambiguous" at the name (SQLite sorted by one)', async () => {
    const failure = (c: PgClient, sql: string, params?: unknown[]) =>
      c.query(sql, params).then(
        () => 'ran',
        (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} @${e.position}`,
      );
    for (const [sql, params] of [
      ['SELECT id, id::text AS id FROM customers ORDER BY id', undefined],
      ['SELECT id AS x, name AS x FROM customers ORDER BY x', undefined],
      ['SELECT customer_id::text, customer_id FROM orders WHERE id > $1 ORDER BY id, customer_id DESC', [0]],
      ['SELECT id, count(*) AS id FROM orders GROUP BY 1 ORDER BY id', undefined],
      ['SELECT id AS x, id AS x FROM customers UNION SELECT 1, 2 ORDER BY x', undefined],
      ['SELECT * FROM (SELECT id AS x, name AS x FROM customers ORDER BY x) s', undefined],
      ['SELECT id AS x, name AS x FROM customers GROUP BY x', undefined],
    ] as [string, unknown[] | undefined][]) {
      const p = await failure(patina, sql, params);
      assert.equal(p, await failure(postgres, sql, params), sql);
      assert.match(p, /^42702 (ORDER|GROUP) BY "\w+" is ambiguous @\d+$/);
    }
    // the same expression twice, or a name the FROM has for GROUP BY, is no ambiguity
    for (const sql of [
      'SELECT id, id FROM customers ORDER BY id',
      'SELECT id, c.id AS id FROM customers c ORDER BY id',
      'SELECT count(*), count(*) FROM orders ORDER BY count',
      'SELECT id AS name, name FROM customers GROUP BY name, id ORDER BY 1',
    ])
      await same(sql);
  });

  it('an ORDER BY term of a SELECT DISTINCT that is none of its items is 42P10 (SQLite sorted the distinct rows by some row of each)', async () => {
    for (const sql of [
      'SELECT DISTINCT name FROM customers ORDER BY id',
      'SELECT DISTINCT customer_id FROM orders ORDER BY amount DESC',
      'SELECT DISTINCT lower(name) FROM customers ORDER BY length(name)',
      'SELECT count(*) FROM (SELECT DISTINCT name FROM customers ORDER BY email) s',
    ]) {
      const p = await placed(patina, sql);
      assert.equal(p, await placed(postgres, sql), sql);
      assert.match(p, /^42P10 for SELECT DISTINCT, ORDER BY expressions must appear in select list/);
    }
    // a position, an item's name or alias, the same expression, a column with or without its table,
    // an item of `*`, and DISTINCT ON run
    for (const sql of [
      'SELECT DISTINCT name FROM customers ORDER BY 1',
      'SELECT DISTINCT c.name FROM customers c ORDER BY name DESC',
      'SELECT DISTINCT name FROM customers c ORDER BY c.name',
      'SELECT DISTINCT lower(name) AS l FROM customers ORDER BY lower(name), l',
      'SELECT DISTINCT * FROM orders ORDER BY amount NULLS FIRST, id',
      'SELECT DISTINCT ON (customer_id) customer_id, amount FROM orders ORDER BY customer_id, amount',
    ])
      await same(sql);
  });

  it('sum, avg, stddev and variance of a text, boolean, date or json column are 42883 at the call (SQLite summed the text as 0)', async () => {
    for (const sql of [
      'SELECT sum(name) FROM customers',
      'SELECT c.id, avg(c.email) FROM customers c GROUP BY c.id',
      'SELECT sum(note) OVER () FROM orders',
      'SELECT stddev(name::text) FROM customers',
      'SELECT sum(x) FROM (SELECT name AS x FROM customers) s',
    ]) {
      const p = await placed(patina, sql);
      assert.equal(p, await placed(postgres, sql), sql);
      assert.match(p, /^42883 function \w+\(text\) does not exist @\d+$/);
    }
    await same('SELECT sum(amount), avg(amount), stddev(amount), sum(id), sum(amount::float8) FROM orders');
  });

  it('an item of `*` counts for an ORDER BY name (42702 when another item of that name differs), and an alias inside an ORDER BY or GROUP BY expression is no column (42703; SQLite sorted by them)', async () => {
    const failure = (c: PgClient, sql: string) =>
      c.query(sql).then(
        () => 'ran',
        (e: { code?: string; message: string; hint?: string; position?: string }) =>
          `${e.code} ${e.message} | ${e.hint ?? ''} @${e.position}`,
      );
    const fails = async (sql: string, code: string) => {
      const p = await failure(patina, sql);
      assert.equal(p, await failure(postgres, sql), sql);
      assert.match(p, new RegExp(`^${code} `), sql);
    };
    for (const sql of [
      'SELECT *, id::text AS id FROM customers ORDER BY id',
      'SELECT c.*, email AS name FROM customers c ORDER BY name',
      'SELECT * FROM customers c, orders o ORDER BY id',
      'SELECT * FROM (SELECT id AS x, name AS x FROM customers) s ORDER BY x',
    ])
      await fails(sql, '42702');
    for (const sql of [
      'SELECT id AS x FROM customers ORDER BY x + 1',
      'SELECT id AS x FROM customers ORDER BY -x',
      'SELECT name AS x FROM customers ORDER BY x COLLATE "C"',
      'SELECT count(*) AS c FROM orders ORDER BY c + 1',
      "SELECT name AS nme, id FROM customers ORDER BY nme || 'a'",
      'SELECT id AS x FROM customers GROUP BY x + 1',
    ])
      await fails(sql, '42703');
    // the same column twice, a bare alias, an alias that is a column too: sorted as PostgreSQL sorts
    for (const sql of [
      'SELECT *, id FROM customers ORDER BY id',
      'SELECT *, c.id FROM customers c JOIN orders o ON o.customer_id = c.id ORDER BY name, 2, 3',
      'SELECT * FROM customers JOIN orders USING (id) ORDER BY id',
      'SELECT id AS x FROM customers ORDER BY x DESC',
      'SELECT name AS id FROM customers ORDER BY id + 1',
    ])
      await same(sql);
  });

  it('substr counts positions before 1 as cut off; a cast to boolean reads only boolean words, a boolean cast to text is true/false; IS UNKNOWN', async () => {
    for (const sql of [
      "SELECT substr('hello', 0, 3), substring('hello' from 2 for 3), substr('hello', -1, 3), substr('hello', 2)",
      "SELECT substring('héllo', 2, 2), substring('hello' from 0), substr(name, -2, 4) FROM customers ORDER BY id",
      "SELECT 'yes'::boolean, ' TRUE '::bool, 'of'::bool, 'n'::bool, 1::boolean, 0::boolean, CAST('1' AS boolean), NULL::bool",
      'SELECT id, paid IS UNKNOWN, (paid AND NULL) IS NOT UNKNOWN FROM orders ORDER BY id',
      'SELECT id, paid::text, CAST(paid AS varchar), (id > 1)::text, true::text FROM orders ORDER BY id',
      "SELECT string_agg(paid::text, ',' ORDER BY id) FROM orders",
      "SELECT id FROM orders WHERE paid::text = 'true' ORDER BY id",
      // (a cast of a whole CASE, `CASE ... END::text`: it was SQLite's syntax error near CAST)
      'SELECT id, CASE WHEN id = 1 THEN paid ELSE false END::text, CASE id WHEN 2 THEN paid END::varchar FROM orders ORDER BY id',
      "SELECT id, CASE WHEN id = 1 THEN CASE WHEN paid THEN 1 ELSE 2 END ELSE 3 END::text || 'x' FROM orders ORDER BY id",
      "SELECT id FROM orders WHERE CASE WHEN id > 1 THEN paid ELSE false END::text = 'true' ORDER BY id",
      "SELECT CASE WHEN id = 1 THEN '7' END::int + 1 FROM orders ORDER BY id",
    ])
      await same(sql);
    // SQLite's substr('hello', -1, 3) is 'o' and its cast made 'x' false
    for (const [sql, code] of [
      ["SELECT substr('hello', 1, -1)", '22011'],
      ["SELECT 'x'::bool", '22P02'],
      ["SELECT 'o'::boolean", '22P02'],
      ['SELECT CAST(name AS boolean) FROM customers', '22P02'],
    ]) {
      for (const c of [patina, postgres])
        await assert.rejects(c.query(sql), (e: { code?: string }) => e.code === code, sql);
    }
  });

  it('boolean and bytea parameters are read as the casts read them (prefixes, the escape format), bad ones name the parameter', async () => {
    await same('SELECT id FROM orders WHERE paid = $1 ORDER BY id', ['ye']);
    await same('SELECT id FROM orders WHERE paid = $1 ORDER BY id', [' OFF ']);
    await same("SELECT encode($1::bytea, 'hex'), encode($2::bytea, 'hex')", ['a\\001b\\\\', '\\x6162']);
    for (const [sql, value] of [
      ['SELECT id FROM orders WHERE paid = $1', 'x'],
      ["SELECT encode($1::bytea, 'hex')", 'a\\9'],
    ]) {
      // the message as PostgreSQL words it, the parameter named in CONTEXT (Patina's message ended
      // with "(parameter $1)")
      const error = (c: PgClient) =>
        c.query(sql, [value]).then(
          () => 'no error',
          (e: { code?: string; message: string; where?: string }) => [e.code, e.message, e.where],
        );
      const expected = await error(postgres);
      assert.equal(expected[0], '22P02');
      assert.deepEqual(await error(patina), expected, sql);
    }
  });

  it("a cast to uuid reads PostgreSQL's forms and prints the uuid as PostgreSQL does; text that is none is 22P02", async () => {
    // ('x'::uuid passed as it was, an upper-case literal printed as written and matched no stored uuid)
    const u = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
    for (const sql of [
      `SELECT '${u.toUpperCase()}'::uuid, '{${u.replace(/-/g, '')}}'::uuid, CAST('a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11' AS uuid), NULL::uuid`,
      `SELECT '${u.toUpperCase()}'::uuid = '${u}'::uuid, ARRAY['${u.toUpperCase()}']::uuid[], '{ ${u} }'::uuid[]`,
      `SELECT name, id FROM customers WHERE id < 3 AND '${u}'::uuid IS NOT NULL ORDER BY id`,
    ])
      await same(sql);
    for (const sql of [
      "SELECT 'x'::uuid",
      `SELECT ' ${u}'::uuid`,
      `SELECT '${u.slice(0, -1)}'::uuid FROM customers WHERE false`,
      `SELECT '{${u}'::uuid`,
      'SELECT name::uuid FROM customers WHERE id = 1',
    ])
      assert.equal(await message(patina, sql), await message(postgres, sql), sql);
  });

  it('a cast to a type PostgreSQL has and Patina does not (inet, money, point, ranges) is 0A000 naming it', async () => {
    // it passed the text through: 'x'::inet answered x where PostgreSQL fails with 22P02, and
    // CAST('1.2.3.4' AS inet) was SQLite's numeric 0
    for (const [sql, type] of [
      ["SELECT 'x'::inet", 'inet'],
      ["SELECT CAST('1.2.3.4' AS inet)", 'inet'],
      ["SELECT '12.50'::money", 'money'],
      ["SELECT '(1,2)'::point", 'point'],
      ["SELECT '{[1,2)}'::int4range[]", 'int4range[]'],
    ]) {
      const theirs = await message(postgres, sql);
      assert.ok(theirs === 'ran' || theirs.startsWith('22P02'), `${sql}: ${theirs}`); // PostgreSQL reads (or checks) it
      assert.match(
        await message(patina, sql),
        new RegExp(`^0A000 type ${type.replace(/[[\]]/g, '\\$&')} is not supported`),
        sql,
      );
    }
  });

  it("U&'' strings and U&\"\" names with their escapes (and UESCAPE), E'' escapes of bytes; what PostgreSQL's scanner refuses is its error (U& was a column \"U\")", async () => {
    for (const sql of [
      String.raw`SELECT U&'d\0061t\+000061', U&'\0041' AS a, U&'a\\b', U&'it''s', U&'\D83D\DE00'`,
      "SELECT U&'d!0061t!+000061' UESCAPE '!', u&'x#0041' uescape '#'",
      String.raw`SELECT U&"i\0064", U&"n!0061me" UESCAPE '!' FROM customers WHERE name = U&'\0041pple' ORDER BY 1`,
      String.raw`SELECT E'\xc3\xa9', E'\303\251', E'\u00e9', E'\U0001F600', E'\uD83D\uDE00', E'a\tb', E'it\'s', E'\q'`,
    ])
      await same(sql);
    for (const sql of [
      String.raw`SELECT U&'\0000'`,
      String.raw`SELECT U&'\D800'`,
      String.raw`SELECT U&'\00'`,
      "SELECT U&'x' UESCAPE 'ab'",
      "SELECT U&'x' UESCAPE '+'",
      String.raw`SELECT E'\0'`,
      String.raw`SELECT E'\377'`,
      String.raw`SELECT E'\xc3'`,
      String.raw`SELECT E'\u00'`,
      String.raw`SELECT E'\uD800'`,
    ]) {
      const p = await message(patina, sql);
      assert.equal(p, await message(postgres, sql), sql);
      assert.notEqual(p, 'ran', sql);
    }
  });

  it("a bit-string constant (B'101', X'1F') is 0A000 naming it, a bad digit PostgreSQL's 22P02 (it was 42704 type \"b\" does not exist)", async () => {
    for (const sql of [`SELECT B'101'`, `SELECT X'1F'::int`, `SELECT id FROM customers WHERE B'1' IS NOT NULL`]) {
      assert.equal(await message(postgres, sql), 'ran', sql);
      assert.match(await message(patina, sql), /^0A000 bit-string constants \([BX]'[01F]+'\) are not supported/, sql);
    }
    for (const sql of [`SELECT B'12'`, `SELECT X'1G'`]) {
      const p = await message(patina, sql);
      assert.equal(p, await message(postgres, sql), sql);
      assert.match(p, /^22P02 /);
    }
  });

  it('encode, decode and the SHA-2 digests of bytea; text cast to bytea; div()', async () => {
    for (const sql of [
      "SELECT encode('abc'::bytea, 'hex'), encode('abc'::bytea, 'base64'), encode('\\x610162005c'::bytea, 'escape')",
      "SELECT decode('616263', 'hex'), decode('YWJj', 'base64'), encode(decode('61 62', 'hex'), 'hex'), decode('a\\001b\\\\', 'escape')",
      "SELECT encode(sha256('abc'::bytea), 'hex'), encode(sha512(id::text::bytea), 'hex'), md5(name) FROM customers ORDER BY id",
      "SELECT encode(repeat('x', 100)::bytea, 'base64'), div(7, 2), div(-7, 2), div(7.5, 2)",
      // text cast to bytea reads the escape format (SQLite's CAST AS BLOB kept the backslashes)
      "SELECT 'abc'::bytea, E'a\\\\001b\\\\\\\\'::bytea, CAST('x' AS bytea), length('a\\001'::bytea), encode('héllo'::bytea, 'hex')",
    ])
      await same(sql);
    for (const [sql, code] of [
      ["SELECT decode('zz', 'hex')", '22023'],
      ["SELECT encode('a'::bytea, 'rot13')", '22023'],
      ['SELECT div(1, 0)', '22012'],
      ["SELECT 'a\\9'::bytea", '22P02'],
    ])
      for (const c of [patina, postgres])
        await assert.rejects(c.query(sql), (e: { code?: string }) => e.code === code, sql);
  });

  it('a string literal compared with a computed number is read as that number (SQLite compared text with it)', async () => {
    for (const sql of [
      "SELECT '9' > 10, '10' > 9, 1 = '1', 2.5 > '10', '1e1' = 10.0",
      "SELECT customer_id, count(*) FROM orders GROUP BY customer_id HAVING count(*) >= '1' ORDER BY customer_id",
      "SELECT id FROM orders WHERE customer_id + 1 = '3' OR '4' = 2 * customer_id ORDER BY id",
      "SELECT id FROM customers WHERE length(name) > '4' ORDER BY id",
    ])
      await same(sql);
    for (const c of [patina, postgres])
      await assert.rejects(c.query("SELECT count(*) > 'x' FROM orders"), (e: { code?: string }) => e.code === '22P02');
  });

  it("numbers become text as PostgreSQL prints them, and || binds looser than arithmetic (SQLite's binds tighter)", async () => {
    // SQLite's CAST gave 100.0, 1.0e+20 and 0.0 for doubles, 1.5 for 1.50, and 'n=' || 1 + 2 was 2
    for (const sql of [
      'SELECT 100.0::float8::text, 1e20::float8::text, 0::float8::text, 0.1::float4::text, CAST(2.5e-7::float8 AS varchar), true::text',
      'SELECT 1.50::text, (1.5 * 2)::text, CAST(2.50 AS text), round(2.345, 2)::text, 12.5::varchar(3)',
      "SELECT 'a' || 1.50 || 'b' || 2.0::float8, 'n=' || 1 + 2, 'p' || 2 * 3 || 'q', 'x' || -1, 'a' || 'b' = 'ab'",
      "SELECT customers.id || ':' || name, 'total: ' || amount::float8 FROM customers LEFT JOIN orders ON orders.customer_id = customers.id ORDER BY customers.id, orders.id",
    ])
      await same(sql);
  });

  it("a string compared with a boolean column is read as a boolean ('t', 'yes'; SQLite compared the text with 1)", async () => {
    for (const sql of [
      "SELECT count(*) FROM orders WHERE paid = 'true'",
      "SELECT id FROM orders WHERE paid = 't' ORDER BY id",
      "SELECT id FROM orders WHERE 'no' = paid OR paid IN ('yes') ORDER BY id",
      "SELECT id, paid <> 'f' FROM orders ORDER BY id",
    ])
      await same(sql);
    for (const c of [patina, postgres])
      await assert.rejects(c.query("SELECT id FROM orders WHERE paid = 'maybe'"), { code: '22P02' });
  });

  it("a string literal in CASE, COALESCE, GREATEST or LEAST takes the other values' type", async () => {
    // least(id, '3') was 4 for id 4 (SQLite sorts numbers before text); CASE ... '1' ELSE 2 was text
    for (const sql of [
      "SELECT id, least(id, '3'), greatest(amount, '5.5'), coalesce(placed_at, '2000-01-01'), coalesce(paid, 'f') FROM orders ORDER BY id",
      "SELECT id, CASE WHEN paid THEN '1' ELSE id END, CASE WHEN id > 2 THEN placed_at ELSE '2024-01-01 10:00' END FROM orders ORDER BY 1",
      "SELECT id FROM orders WHERE coalesce(placed_at, '2000-01-01') < '2024-03-01 10:00' ORDER BY id",
    ])
      await same(sql);
    for (const c of [patina, postgres])
      await assert.rejects(c.query("SELECT CASE WHEN paid THEN id ELSE 'x' END FROM orders"), { code: '22P02' });
  });

  it('integer arithmetic past 64 bits in a result is 22003 bigint out of range (SQLite made a double of it)', async () => {
    await same('SELECT 9223372036854775807, -9223372036854775808, 9223372036854775806 + 1');
    for (const sql of [
      'SELECT 9223372036854775807 + 1',
      'SELECT (-9223372036854775808) / -1',
      'SELECT -9223372036854775807 - 2',
      'SELECT id * 9223372036854775807 FROM customers ORDER BY id',
    ])
      for (const c of [patina, postgres])
        await assert.rejects(
          c.query(sql),
          (e: { code?: string; message: string }) => e.code === '22003' && /bigint out of range/.test(e.message),
          sql,
        );
    // in binary format too (what pgjdbc and asyncpg read)
    await assert.rejects(
      patina.query({ text: 'SELECT 9223372036854775807 * 2', binary: true } as never),
      (e: { code?: string }) => e.code === '22003',
    );
  });

  // (the next three found by the generated queries, test/helpers/query-gen.ts and generated-oracle.test.ts)
  it('division by zero inside a cast or beside || is 22012 (it was NULL: the divisor was not checked there)', async () => {
    for (const sql of [
      'SELECT (id % (id - 1))::text FROM customers ORDER BY id',
      'SELECT (id / (id - 1))::bigint FROM customers ORDER BY id',
      'SELECT CAST(id / (id - 1) AS text) FROM customers ORDER BY id',
      "SELECT (id % (id - 1)) || 'x' FROM customers ORDER BY id",
      'SELECT concat(name, (id / (id - 1))::text) FROM customers ORDER BY id',
    ])
      assert.equal(await placed(patina, sql), await placed(postgres, sql), sql);
    assert.match(await placed(patina, 'SELECT (id % (id - 1))::text FROM customers'), /^22012 division by zero/);
    // (and a divisor that is no zero divides there as before)
    await same('SELECT (id * 7 / 2)::text, (id % 2)::bigint, (id / 2) || name FROM customers ORDER BY id');
  });

  it('DISTINCT or BETWEEN before a parenthesized cast keeps its meaning (`__pg_to_numeric(DISTINCT(x))` kept duplicates)', async () => {
    await same('SELECT DISTINCT (customer_id / 100)::numeric FROM orders ORDER BY 1');
    await same('SELECT DISTINCT (paid)::text FROM orders ORDER BY 1');
    await same('SELECT DISTINCT (c.id > 0)::text FROM customers c');
    await same('SELECT count(DISTINCT (o.paid)::text), count(DISTINCT (1)::text) FROM orders o');
    await same('SELECT id FROM customers WHERE 2 BETWEEN (id)::numeric AND 3 ORDER BY id');
    await same('SELECT id FROM customers WHERE 1 BETWEEN SYMMETRIC (id)::numeric AND 0 ORDER BY id');
    // (a call whose arguments were made text, beside ||: it was SQLite's row value misused or 42601)
    await same(
      'SELECT concat(name, id > 1) || name, name || concat(id, email IS NULL), concat(id) || concat(name, true) FROM customers ORDER BY id',
    );
  });

  it('a constant other than an integer in GROUP BY, ORDER BY or DISTINCT ON is 42601 at it (SQLite grouped or sorted by it)', async () => {
    for (const sql of [
      "SELECT count(*) FROM customers GROUP BY ''",
      'SELECT count(*) FROM customers GROUP BY true',
      'SELECT count(*) FROM customers GROUP BY NULL',
      'SELECT id FROM customers GROUP BY id, 1.5',
      'SELECT count(*) FROM customers GROUP BY 9999999999',
      "SELECT count(*) FROM customers GROUP BY ROLLUP (name, 'x')",
      "SELECT count(*) FROM customers GROUP BY GROUPING SETS ((name, 'x'))",
      "SELECT id FROM customers ORDER BY id, 'x'",
      "SELECT id FROM customers UNION SELECT 3 ORDER BY 'x'",
      "SELECT DISTINCT ON ('x') id FROM customers",
      "SELECT * FROM (SELECT count(*) FROM customers GROUP BY 'y') s ORDER BY 'x'",
    ]) {
      const p = await placed(patina, sql);
      assert.match(p, /^42601 non-integer constant in (GROUP BY|ORDER BY|DISTINCT ON) @\d+$/, sql);
      assert.equal(p, await placed(postgres, sql), sql);
    }
    // an integer is a position; a cast constant, a window's or an aggregate's ORDER BY take a constant
    await same("SELECT count(*) FROM customers GROUP BY ''::text");
    await same("SELECT string_agg(name, ',' ORDER BY 'x'), count(*) FROM customers");
    await same("SELECT row_number() OVER (ORDER BY 'x') FROM customers ORDER BY 1");
    assert.equal(
      await placed(patina, 'SELECT id FROM customers GROUP BY -1'),
      await placed(postgres, 'SELECT id FROM customers GROUP BY -1'),
    );
  });

  it("a GROUP BY key holding an IN list groups the same item (it was 42803: the list's places told them apart)", async () => {
    await same('SELECT (id IN (1, 2)) AS k, count(*) FROM customers GROUP BY (id IN (1, 2)) ORDER BY k');
    await same('SELECT id NOT IN (1, 10) AS k, count(*) FROM customers GROUP BY id NOT IN (1, 10) ORDER BY k');
    assert.equal(
      await placed(patina, 'SELECT (id IN (1, 2)) FROM customers GROUP BY (id IN (1, 3))'),
      await placed(postgres, 'SELECT (id IN (1, 2)) FROM customers GROUP BY (id IN (1, 3))'),
    );
  });

  it('LIMIT ALL and LIMIT NULL are no limit, OFFSET NULL none, also as NULL parameters', async () => {
    await same('SELECT id FROM customers ORDER BY id LIMIT ALL');
    await same('SELECT id FROM customers ORDER BY id LIMIT ALL OFFSET 3');
    await same('SELECT id FROM customers ORDER BY id LIMIT NULL OFFSET NULL');
    await same('SELECT id FROM customers ORDER BY id LIMIT $1 OFFSET $2', [null, null]);
    await same('SELECT id FROM customers ORDER BY id LIMIT $1 OFFSET $2', [2, 1]);
    // a negative count is 2201W or 2201X (SQLite's no limit: every row), an expression's value as it comes
    for (const sql of [
      'SELECT id FROM customers LIMIT -1',
      'SELECT id FROM customers ORDER BY id OFFSET -2',
      'SELECT id FROM customers ORDER BY id LIMIT 1 OFFSET -1 ROWS',
      'SELECT count(*) FROM (SELECT id FROM customers LIMIT -5) s',
    ])
      assert.equal(await message(patina, sql), await message(postgres, sql), sql);
    assert.match(await message(patina, 'SELECT 1 LIMIT -1'), /^2201W LIMIT must not be negative$/);
    // a parameter's negative value too, when the statement runs (it was no limit: every row)
    const bound: [string, unknown[]][] = [
      ['SELECT id FROM customers ORDER BY id LIMIT $1', [-1]],
      ['SELECT id FROM customers ORDER BY id LIMIT $1', ['-1']],
      ['SELECT id FROM customers ORDER BY id LIMIT $1 OFFSET $2', [2, -3]],
      ['SELECT id FROM customers ORDER BY id FETCH FIRST $1 ROWS ONLY', [-2]],
      ['SELECT count(*) FROM (SELECT id FROM customers WHERE false LIMIT $1) s', [-1]],
    ];
    for (const [sql, params] of bound) {
      const p = await message(patina, sql, params);
      assert.match(p, /^2201[WX] /, sql);
      assert.equal(p, await message(postgres, sql, params), sql);
    }
    await same('SELECT id FROM customers ORDER BY id FETCH FIRST $1 ROWS ONLY', [2]);
    await same('SELECT id FROM customers ORDER BY id LIMIT $1 OFFSET $2', [0, 0]);
    await same('SELECT id FROM customers ORDER BY id LIMIT -0');
    await same('SELECT id FROM customers ORDER BY id LIMIT - 1 + 3');
    // an expression's negative value when the statement runs (it was no limit, or no offset: every row)
    for (const sql of [
      'SELECT id FROM customers ORDER BY id LIMIT 1 - 2',
      'SELECT id FROM customers ORDER BY id OFFSET 1 - 3',
      'SELECT id FROM customers ORDER BY id LIMIT (SELECT -1)',
      'SELECT id FROM customers ORDER BY id LIMIT 2 OFFSET (SELECT min(id) - 100 FROM customers)',
      'SELECT count(*) FROM (SELECT id FROM customers LIMIT 2 - 5) s',
    ]) {
      const p = await message(patina, sql);
      assert.match(p, /^2201[WX] /, sql);
      assert.equal(p, await message(postgres, sql), sql);
    }
    await same('SELECT id FROM customers ORDER BY id LIMIT 3 - 1 OFFSET 0 + 1');
    // OFFSET before a LIMIT that is an expression (it was 42601: the LIMIT moved before the OFFSET lost its last ')')
    await same('SELECT id FROM customers ORDER BY id OFFSET 1 LIMIT 1 + 1');
    await same('SELECT id FROM customers ORDER BY id OFFSET $1 LIMIT (SELECT count(*) FROM orders) - 1', [1]);
    await same('SELECT id FROM customers ORDER BY id OFFSET (0 + 1) ROWS FETCH FIRST (3 - 1) ROWS ONLY');
    await same('SELECT id FROM customers ORDER BY id LIMIT (SELECT count(*) FROM orders) - 1');
  });

  it("a join's USING with an alias of its own (PostgreSQL 14's `USING (id) AS j`) runs, j.id the merged column (it was 42601)", async () => {
    await same('SELECT j.id, c.name, o.id FROM customers c JOIN orders o USING (id) AS j ORDER BY 1');
    await same('SELECT * FROM customers JOIN orders USING (id) AS j WHERE j.id > 1 ORDER BY j.id');
    await same('SELECT j.id, o.note FROM customers c LEFT JOIN orders AS o USING (id) AS j ORDER BY 1');
    await same('SELECT j.id, c.name FROM customers c RIGHT JOIN orders o USING (id) AS j ORDER BY 1');
    await same('SELECT count(*) FROM customers c JOIN orders o USING (id) AS j GROUP BY j.id ORDER BY 1');
    // after a full join j.id is the first of the sides' that is not NULL (it was 42601)
    await same('SELECT j.id, c.name, o.id FROM customers c FULL JOIN orders o USING (id) AS j ORDER BY 1');
    await same('SELECT j.id FROM customers FULL OUTER JOIN orders USING (id) AS j WHERE j.id > 1 ORDER BY j.id DESC');
  });

  it('queries in parentheses, TABLE t, and the column types of VALUES and WITH queries', async () => {
    const queries = [
      // SQLAlchemy's union of limited selects; SQLite read no query in parentheses (syntax error near "(")
      '(SELECT id FROM orders ORDER BY id LIMIT 1) UNION ALL (SELECT id FROM orders ORDER BY id DESC LIMIT 1)',
      '(SELECT id, name FROM customers ORDER BY id LIMIT 2)',
      '((SELECT 1 AS x))',
      '(SELECT id FROM customers ORDER BY id LIMIT 3) EXCEPT (SELECT customer_id FROM orders) ORDER BY 1',
      'SELECT * FROM ((SELECT 1 AS x) UNION (SELECT 2)) s ORDER BY 1',
      'SELECT 5 IN ((SELECT 4) UNION (SELECT 5))',
      // a subquery before the outer query's UNION stays a subquery
      'SELECT id FROM orders WHERE id IN (SELECT 1) UNION SELECT 2 ORDER BY 1',
      'SELECT EXISTS ((SELECT 1) UNION (SELECT 2))',
      'SELECT 1 UNION (SELECT 2 ORDER BY 1 LIMIT 1) ORDER BY 1',
      '(VALUES (1), (2)) UNION ALL (SELECT 3) ORDER BY 1',
      // TABLE t is SELECT * FROM t
      'TABLE orders ORDER BY id',
      'SELECT count(*) FROM (TABLE customers) c',
      'WITH v AS (SELECT 2 AS y) TABLE v',
      // a VALUES statement's and a WITH query's columns as PostgreSQL types them (int4, numeric; they were int8, float8)
      "VALUES (1, 'a', 1.5), (2, 'b', 2.25)",
      "WITH v AS (SELECT 2 AS y, 'a'::text AS z, 1.5 AS w) SELECT * FROM v",
      'WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT y, x FROM b, a',
      "WITH v(p, q) AS (VALUES (1, 'a')) SELECT p, q FROM v",
      'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r',
      'WITH big AS (SELECT id, customer_id FROM orders WHERE amount > 0) SELECT id, customer_id * 2 FROM big ORDER BY id',
      // ORDER BY ... USING < and USING > (a syntax error in SQLite)
      'SELECT id, amount FROM orders ORDER BY amount USING >, id USING <',
    ];
    for (const sql of queries) await same(sql);
    // the command tag is the statement's (the tree's), not its first word's
    const tag = await patina.query('(SELECT id FROM orders ORDER BY id LIMIT 1)');
    assert.equal(tag.command, 'SELECT');
    assert.equal(tag.rowCount, 1);
    const upd = await patina.query(
      'WITH v AS (SELECT 1 AS one) UPDATE orders SET note = note WHERE id IN (SELECT one FROM v)',
    );
    assert.equal(upd.command, 'UPDATE');
    // a set operation of different widths is PostgreSQL's syntax error class, as there
    for (const client of [patina, postgres])
      await assert.rejects(client.query('SELECT 1 UNION ALL (SELECT 1, 2)'), { code: '42601' });
  });

  it('a grouped query names only grouped columns or aggregates: 42803, as PostgreSQL (SQLite took any row)', async () => {
    const refused = [
      'SELECT id, count(*) FROM orders',
      'SELECT customer_id, id FROM orders GROUP BY customer_id',
      'SELECT count(*) FROM orders HAVING id > 1',
      'SELECT customer_id, count(*) FROM orders GROUP BY customer_id ORDER BY id',
      'SELECT note FROM orders GROUP BY lower(note)',
      'SELECT amount + 2, count(*) FROM orders GROUP BY amount + 1',
      // a window function's arguments and ORDER BY too (it ran)
      'SELECT customer_id, sum(amount) OVER (ORDER BY note) FROM orders GROUP BY customer_id',
      'SELECT customer_id, rank() OVER (PARTITION BY customer_id ORDER BY amount) FROM orders GROUP BY customer_id',
    ];
    // at the offending reference, as PostgreSQL places it (there was no position)
    for (const sql of [
      ...refused,
      "SELECT 'é',  o.note, count(*) FROM orders o",
      'SELECT 1; SELECT id, count(*) FROM orders',
    ]) {
      const p = await placed(patina, sql);
      assert.match(
        p,
        /^42803 column ".*" must appear in the GROUP BY clause or be used in an aggregate function @\d+$/,
        sql,
      );
      assert.equal(p, await placed(postgres, sql), sql);
    }
    // what PostgreSQL accepts runs the same
    for (const sql of [
      'SELECT o.customer_id, count(*) FROM orders o GROUP BY customer_id ORDER BY 1',
      'SELECT lower(note) AS n, count(*) FROM orders GROUP BY lower(note) ORDER BY 1',
      'SELECT upper(lower(note)) AS n FROM orders GROUP BY lower(note) ORDER BY 1',
      'SELECT lower(note) AS note, count(*) FROM orders GROUP BY 1 ORDER BY note',
      'SELECT lower(note) AS ln, count(*) FROM orders GROUP BY ln ORDER BY ln',
      // the primary key grouped: every column of its table is
      'SELECT id, note, amount FROM orders GROUP BY id ORDER BY id',
      'SELECT c.id, c.name, count(o.id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id ORDER BY c.id',
      "SELECT customer_id, count(*) FILTER (WHERE amount > 0), string_agg(note, ',' ORDER BY id) FROM orders GROUP BY customer_id ORDER BY 1",
      'SELECT customer_id, count(*) OVER () FROM orders GROUP BY customer_id ORDER BY 1',
      'SELECT customer_id, sum(sum(amount)) OVER (ORDER BY customer_id), rank() OVER (ORDER BY count(*)) FROM orders GROUP BY customer_id ORDER BY 1',
      'SELECT customer_id, (SELECT count(*) FROM orders o2 WHERE o2.customer_id = orders.customer_id) FROM orders GROUP BY customer_id ORDER BY 1',
      'SELECT count(*), max(id) FROM orders',
      'SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) > 0 AND customer_id > 0 ORDER BY 1',
    ])
      await same(sql);
  });

  it("a subquery naming its grouped outer query's ungrouped column: 42803 with PostgreSQL's words (SQLite took any row)", async () => {
    const refused = [
      'SELECT customer_id, (SELECT count(*) FROM customers c WHERE c.id = orders.id) FROM orders GROUP BY customer_id',
      // unqualified: note is no column of customers, so it is the outer query's
      'SELECT customer_id, (SELECT count(*) FROM customers WHERE name = note) FROM orders GROUP BY customer_id',
      'SELECT customer_id FROM orders GROUP BY customer_id HAVING EXISTS (SELECT 1 FROM customers c WHERE c.id = orders.amount)',
      'SELECT customer_id FROM orders GROUP BY customer_id ORDER BY (SELECT max(c.id) FROM customers c WHERE c.id > orders.id)',
      'SELECT count(*), (SELECT count(*) FROM customers c WHERE c.id = o.id) FROM orders o',
      'SELECT customer_id, ARRAY(SELECT c.id FROM customers c WHERE c.id = orders.amount) FROM orders GROUP BY customer_id',
      // deeper: in a subquery's FROM subquery, in a subquery of a subquery, in an aggregate of the subquery
      'SELECT customer_id, (SELECT count(*) FROM (SELECT * FROM customers c WHERE c.id = orders.id) q) FROM orders GROUP BY customer_id',
      'SELECT customer_id, (SELECT count(*) FROM customers c WHERE c.id IN (SELECT orders.id FROM line_items)) FROM orders GROUP BY customer_id',
      'SELECT customer_id, (SELECT max(c.id + orders.id) FROM customers c) FROM orders GROUP BY customer_id',
      // the column tested by IN belongs to the outer query itself (PostgreSQL's other message)
      'SELECT customer_id, id IN (SELECT c.id FROM customers c) FROM orders GROUP BY customer_id',
      // a grouped expression does not cover its column inside a subquery, in PostgreSQL neither
      'SELECT lower(note), (SELECT count(*) FROM customers c WHERE c.name = lower(orders.note)) FROM orders GROUP BY lower(note)',
    ];
    for (const sql of refused) {
      const answers: string[] = [];
      for (const client of [patina, postgres]) answers.push(await placed(client, sql));
      assert.match(answers[1], /^42803 .* @\d+$/, sql);
      assert.equal(answers[0], answers[1], sql);
    }
    for (const sql of [
      // a grouped column, and a table whose primary key is grouped
      'SELECT customer_id, (SELECT count(*) FROM customers c WHERE c.id = orders.customer_id) FROM orders GROUP BY customer_id ORDER BY 1',
      'SELECT id, (SELECT count(*) FROM customers c WHERE c.id = orders.amount) FROM orders GROUP BY id ORDER BY 1',
      // an aggregate of the outer query's rows inside the subquery, and the subquery inside an aggregate
      'SELECT customer_id, (SELECT count(*) FROM customers c WHERE c.id > max(orders.id)) FROM orders GROUP BY customer_id ORDER BY 1',
      'SELECT customer_id, sum((SELECT count(*) FROM customers c WHERE c.id = orders.id)) FROM orders GROUP BY customer_id ORDER BY 1',
      // names the subquery's own FROM holds first: its table under the outer alias, its column of the same name
      'SELECT customer_id, (SELECT count(*) FROM customers orders WHERE orders.id = 10) FROM orders GROUP BY customer_id ORDER BY 1',
      'SELECT customer_id, (SELECT count(*) FROM customers WHERE id > 10) FROM orders GROUP BY customer_id ORDER BY 1',
      'SELECT customer_id, (SELECT c.id AS amount FROM customers c ORDER BY amount LIMIT 1) FROM orders GROUP BY customer_id ORDER BY 1',
      // a subquery in WHERE runs before the grouping
      'SELECT customer_id, count(*) FROM orders WHERE EXISTS (SELECT 1 FROM customers c WHERE c.id = orders.id) GROUP BY customer_id ORDER BY 1',
    ])
      await same(sql);
  });

  it("an aggregate of the outer query's columns in a subquery groups the outer query: 42803, and 21000 for many rows (SQLite took the first)", async () => {
    // (as text: the columns' types differ, PostgreSQL's sum of a numeric is numeric)
    const answer = (client: PgClient, sql: string) =>
      (client as unknown as { query(q: object): Promise<{ rows: unknown[] }> })
        .query({ text: sql, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } })
        .then(
          (r) => JSON.stringify(r.rows),
          (e: { code?: string; message: string }) => `${e.code} ${e.message}`,
        );
    for (const [sql, code] of [
      // sum(o.amount) is the outer query's aggregate: the outer query is grouped, o.id is not
      ['SELECT (SELECT sum(o.amount) FROM customers) FROM orders o ORDER BY o.id', '42803'],
      ['SELECT o.id, (SELECT max(o.id) FROM customers c WHERE c.id = 10) FROM orders o', '42803'],
      // one row of the subquery per customer: more than one row used as an expression
      ['SELECT (SELECT sum(o.amount) FROM customers) FROM orders o', '21000'],
      [
        'SELECT (SELECT max(o.id) AS m FROM customers c WHERE c.id > 10 ORDER BY c.name) + 1 AS x FROM orders o',
        '21000',
      ],
      ['SELECT count(*), (SELECT sum(o.amount) FROM customers c WHERE c.id >= 10) FROM orders o', '21000'],
      // one row: it runs
      ['SELECT (SELECT sum(o.amount) FROM customers c WHERE c.id = 10) FROM orders o', null],
      ['SELECT (SELECT max(o.id) FROM customers c LIMIT 1) FROM orders o', null],
      ['SELECT (SELECT max(o.id) FROM customers c WHERE c.id < 0) FROM orders o', null],
      ['SELECT (SELECT max(o.id) + count(*) FROM customers c) FROM orders o', null],
    ] as const) {
      const [p, g] = [await answer(patina, sql), await answer(postgres, sql)];
      if (code) assert.match(g, new RegExp(`^${code} `), sql);
      assert.equal(p, g, sql);
    }
  });

  it("a scalar subquery of more than one row is 21000 with PostgreSQL's words (SQLite took the first); one held to one row runs", async () => {
    for (const sql of [
      'SELECT (SELECT name FROM customers) FROM orders',
      'SELECT id FROM orders WHERE customer_id = (SELECT id FROM customers)',
      'SELECT (SELECT id FROM customers GROUP BY id) FROM orders',
      'SELECT id, (SELECT c.name FROM customers c WHERE c.email IS NULL) FROM orders',
      'UPDATE orders SET note = (SELECT name FROM customers) WHERE id = 1',
      'DELETE FROM orders WHERE customer_id = (SELECT id FROM customers ORDER BY id)',
    ]) {
      const [p, g] = [await message(patina, sql), await message(postgres, sql)];
      assert.equal(g, '21000 more than one row returned by a subquery used as an expression', sql);
      assert.equal(p, g, sql);
    }
    for (const sql of [
      // a key fixed by its WHERE, a LIMIT, an aggregate, one row found or none
      'SELECT id, (SELECT name FROM customers c WHERE c.id = o.customer_id) FROM orders o ORDER BY id',
      "SELECT id FROM orders WHERE customer_id = (SELECT id FROM customers WHERE name = 'ann') ORDER BY id",
      'SELECT (SELECT name FROM customers ORDER BY id LIMIT 1), (SELECT count(*) FROM customers), (SELECT max(id) FROM customers)',
      'SELECT id, (SELECT name FROM customers WHERE id < 0) FROM orders ORDER BY id',
      'SELECT id, (SELECT c.name FROM customers c WHERE c.id = o.customer_id AND c.id > 0) FROM orders o ORDER BY id',
    ])
      await same(sql);
    await same('SELECT (SELECT name FROM customers WHERE email = $1)', ['ann@example.com']);
  });

  it('a scalar subquery of DISTINCT, a set operation, a WITH clause, VALUES or one JSON document is 21000 for many rows too (SQLite took the first)', async () => {
    for (const sql of [
      'SELECT (SELECT DISTINCT customer_id FROM orders) FROM customers WHERE id = 1',
      'SELECT id, (SELECT DISTINCT line FROM line_items l WHERE l.order_id = o.id) FROM orders o',
      'SELECT (SELECT 1 UNION SELECT 2)',
      'SELECT ((SELECT 1) UNION ALL (SELECT 1))',
      "SELECT id, (SELECT name FROM customers c WHERE c.id = o.customer_id UNION SELECT 'z') FROM orders o",
      'SELECT id FROM orders WHERE customer_id = (SELECT id FROM customers EXCEPT SELECT 1)',
      'SELECT id, (WITH l AS (SELECT line FROM line_items WHERE order_id = o.id) SELECT line FROM l) FROM orders o',
      'SELECT (VALUES (1), (2))',
      'SELECT id, (SELECT row_to_json(l) FROM line_items l WHERE l.order_id = o.id) FROM orders o',
      "SELECT id, json_build_object('lines', (SELECT json_build_object('q', qty) FROM line_items l WHERE l.order_id = o.id)) FROM orders o",
      'SELECT id, (SELECT to_jsonb(qty) FROM line_items l WHERE l.order_id = o.id) FROM orders o',
      'UPDATE orders SET note = (SELECT DISTINCT name FROM customers) WHERE id = 1',
      'SELECT id, (SELECT to_json(obj) FROM (SELECT l.line FROM line_items l WHERE l.order_id = o.id) AS obj) FROM orders o',
    ]) {
      const [p, g] = [await message(patina, sql), await message(postgres, sql)];
      assert.equal(g, '21000 more than one row returned by a subquery used as an expression', sql);
      assert.equal(p, g, sql);
    }
    for (const sql of [
      'SELECT id, (SELECT DISTINCT qty FROM line_items l WHERE l.order_id = o.id AND qty = 2) FROM orders o ORDER BY id',
      'SELECT (SELECT 1 UNION SELECT 1), (VALUES (3)), ((SELECT 3 AS k) UNION (SELECT 3))',
      'SELECT id, (SELECT customer_id FROM orders i WHERE i.id = o.id UNION SELECT o.customer_id) FROM orders o ORDER BY id',
      'SELECT id, (SELECT id FROM customers INTERSECT SELECT o.customer_id) FROM orders o ORDER BY 1',
      'SELECT id, (WITH l AS (SELECT line FROM line_items WHERE order_id = o.id) SELECT count(*) FROM l) FROM orders o ORDER BY id',
      "SELECT id, json_build_object('first', (SELECT row_to_json(l) FROM line_items l WHERE l.order_id = o.id AND l.line < 2)) FROM orders o ORDER BY id",
      "SELECT id, (SELECT json_build_object('q', qty) FROM line_items l WHERE l.order_id = o.id AND qty > 1) FROM orders o ORDER BY id",
      // Kysely's jsonObjectFrom: one row when its subquery's WHERE fixes a key (left unguarded)
      'SELECT id, (SELECT to_json(obj) FROM (SELECT c.id, c.name FROM customers c WHERE c.id = o.customer_id) AS obj) AS customer FROM orders o ORDER BY id',
    ]) {
      await same(sql);
      // named as PostgreSQL names them (a set operation's column by its first branch, VALUES' column1)
      const names = async (c: PgClient) => (await c.query(sql)).fields.map((f) => f.name);
      assert.deepEqual(await names(patina), await names(postgres), sql);
    }
  });

  it("an aggregate in WHERE, JOIN ON or GROUP BY, also of the outer query's columns in a subquery there: 42803 with PostgreSQL's words (it ran)", async () => {
    for (const sql of [
      'SELECT id FROM orders o WHERE EXISTS (SELECT sum(o.amount) FROM customers)',
      'SELECT id FROM orders o WHERE EXISTS (SELECT sum(amount) FROM customers)',
      'SELECT id FROM orders o WHERE (SELECT sum(o.amount) FROM customers c WHERE c.id = 10) > 0',
      'SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM customers c HAVING max(o.id) > 0)',
      'SELECT id FROM orders WHERE sum(amount) > 0',
      'SELECT id FROM orders WHERE count(*) > 0',
      'SELECT o.id FROM orders o JOIN customers c ON EXISTS (SELECT max(o.id) FROM line_items)',
      'SELECT id FROM orders o GROUP BY id, (SELECT sum(o.amount) FROM customers c WHERE c.id = 10)',
    ]) {
      const [p, g] = [await placed(patina, sql), await placed(postgres, sql)];
      assert.match(g, /^42803 aggregate functions are not allowed in .* @\d+$/, sql);
      assert.equal(p, g, sql);
    }
    for (const sql of [
      // the subquery's own aggregates, and the outer query's in HAVING
      'SELECT id FROM orders o WHERE EXISTS (SELECT sum(c.id) FROM customers c) ORDER BY 1',
      'SELECT id FROM orders o WHERE id IN (SELECT max(o2.id) FROM orders o2) ORDER BY 1',
      'SELECT id FROM orders o WHERE id IN (SELECT max(c.id) + o.id FROM customers c) ORDER BY 1',
      'SELECT customer_id FROM orders o GROUP BY customer_id HAVING EXISTS (SELECT sum(o.amount) FROM customers) ORDER BY 1',
      'SELECT (SELECT count(*) FROM orders o WHERE o.id = max(c.id)) FROM customers c',
    ])
      await same(sql);
  });

  it("an aggregate or window function in UPDATE's SET, WHERE or RETURNING, or DELETE's WHERE: 42803 and 42P20 with PostgreSQL's words (they ran, or were SQLite's misuse error)", async () => {
    for (const sql of [
      'UPDATE orders SET amount = 1 WHERE sum(amount) > 1',
      'UPDATE orders SET amount = sum(amount)',
      'UPDATE orders SET amount = count(*) WHERE id = 1',
      'UPDATE orders o SET amount = (SELECT sum(o.amount) FROM customers c WHERE c.id = 10)',
      'UPDATE orders SET amount = 1 WHERE id = 1 RETURNING max(id)',
      'UPDATE orders SET amount = sum(amount) WHERE count(*) > 1',
      'UPDATE orders o SET amount = 1 FROM customers c WHERE c.id = o.customer_id AND max(c.id) > 1',
      'DELETE FROM orders WHERE count(*) > 0',
      'DELETE FROM orders o WHERE EXISTS (SELECT sum(o.amount) FROM customers)',
      'DELETE FROM orders WHERE id = 1 RETURNING sum(amount)',
      'UPDATE orders SET amount = row_number() OVER ()',
      'UPDATE orders SET amount = 1 WHERE row_number() OVER () > 1',
      'DELETE FROM orders WHERE rank() OVER (ORDER BY id) > 1',
    ]) {
      const [p, g] = [await placed(patina, sql), await placed(postgres, sql)];
      assert.match(g, /^(42803 aggregate|42P20 window) functions are not allowed in .* @\d+$/, sql);
      assert.equal(p, g, sql);
    }
    // a subquery's own aggregate is fine
    for (const sql of [
      'UPDATE orders SET amount = (SELECT max(id) FROM customers) WHERE id = 900',
      'DELETE FROM orders WHERE id = 900 AND amount > (SELECT avg(amount) FROM orders)',
    ]) {
      const [p, g] = [await message(patina, sql), await message(postgres, sql)];
      assert.equal(g, 'ran', sql);
      assert.equal(p, g, sql);
    }
  });

  it("a window function in WHERE, JOIN ON or GROUP BY: 42P20 with PostgreSQL's words (it was SQLite's misuse error)", async () => {
    for (const sql of [
      'SELECT id FROM orders WHERE row_number() OVER () > 1',
      'SELECT id FROM orders WHERE amount > avg(amount) OVER ()',
      'SELECT o.id FROM orders o JOIN customers c ON c.id = rank() OVER (ORDER BY o.id)',
      'SELECT count(*) FROM orders GROUP BY row_number() OVER (ORDER BY id)',
    ]) {
      const [p, g] = [await message(patina, sql), await message(postgres, sql)];
      assert.match(g, /^42P20 window functions are not allowed in /, sql);
      assert.equal(p, g, sql);
    }
    // where they are allowed, and in a subquery's own select list
    for (const sql of [
      'SELECT id, row_number() OVER (ORDER BY id) FROM orders ORDER BY id',
      'SELECT id FROM orders WHERE id IN (SELECT max(id) OVER () FROM orders) ORDER BY 1',
    ])
      await same(sql);
  });

  it('a qualified column is looked for in the innermost FROM naming its table: 42703 when that table lacks it (it was read from the outer query)', async () => {
    for (const sql of [
      'SELECT (SELECT sum(o.amount) FROM customers o) FROM orders o',
      'SELECT (SELECT sum(orders.amount) FROM customers orders WHERE orders.id = 10) FROM orders',
      'SELECT o.id, (SELECT count(*) FROM customers o WHERE o.amount > 0) FROM orders o',
      'SELECT count(*) FROM orders o WHERE EXISTS (SELECT 1 FROM customers o WHERE o.amount > 0)',
      // without an aggregate too (SQLite read the outer o.amount)
      'SELECT (SELECT o.amount FROM customers o LIMIT 1) FROM orders o',
      'SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM customers o WHERE o.amount > 0)',
      'SELECT id FROM orders o WHERE id IN (SELECT o.amount FROM customers o)',
      'UPDATE orders o SET note = (SELECT o.amount::text FROM customers o LIMIT 1) WHERE id = 1',
      'DELETE FROM orders o WHERE EXISTS (SELECT 1 FROM customers o WHERE o.amount > 0)',
    ]) {
      const [p, g] = [await message(patina, sql), await message(postgres, sql)];
      assert.match(g, /^42703 column \w+\.amount does not exist$/, sql);
      assert.equal(p, g, sql);
    }
    for (const sql of [
      'SELECT id, (SELECT sum(o.id) FROM customers o WHERE o.id = 10) FROM orders o ORDER BY 1',
      'SELECT count(*) FROM orders o, LATERAL (SELECT o.amount FROM customers c LIMIT 1) x',
      'SELECT count(*), max(x.a) FROM orders o, (SELECT c.id AS a FROM customers c) x',
      'SELECT id, (SELECT o.name FROM customers o WHERE o.id = 10) FROM orders o ORDER BY 1',
      'SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE c.id = o.customer_id) ORDER BY 1',
    ])
      await same(sql);
  });

  it("'x' || bytea is bytea, as PostgreSQL's byteacat (it was the text 'x\\x...')", async () => {
    await same(
      "SELECT 'b=' || '\\x0102ff'::bytea, '\\x01'::bytea || '\\x02'::bytea, 'x' || 'y'::bytea, 'b=' || decode('00ff', 'hex') || 'c'",
    );
    await same(
      "SELECT pg_typeof('b=' || decode('00', 'hex')), 'b='::text || '\\x01'::bytea, length('ab' || '\\x01'::bytea)",
    );
    await same('SELECT $1 || $2::bytea', ['b=', '\\x0a']);
    // text that is no bytea input: 22P02 on both
    for (const c of [patina, postgres])
      await assert.rejects(c.query("SELECT 'a\\q' || '\\x01'::bytea"), (e: { code?: string }) => e.code === '22P02');
  });

  it('json builders\' text has PostgreSQL\'s spacing ({"a" : 1}, [1, 2], { "k" : v }); row_to_json and jsonb keep theirs (it was SQLite\'s compact text)', async () => {
    const queries = [
      "SELECT json_build_object('a', 'x')::text, json_build_object('a', 1, 'b', json_build_array(1, 'x', NULL))::text, json_build_array(1, json_build_object('k', true))::text",
      'SELECT json_build_object()::text, json_build_array()::text, row_to_json(t)::text FROM (SELECT 1 AS a, 2 AS b) t',
      "SELECT json_build_object('a', 1)::text = '{\"a\" : 1}', length(json_build_object('a', 1)::text), json_build_object('a', 1)::jsonb::text, jsonb_build_object('a', 1)::text",
      "SELECT json_agg(id ORDER BY id)::text, json_agg(json_build_object('id', id) ORDER BY id)::text FROM customers WHERE id < 4",
      'SELECT json_agg(c ORDER BY id)::text FROM customers c WHERE id < 3',
      "SELECT json_object_agg(name, json_build_object('id', id) ORDER BY id)::text FROM customers WHERE id < 3",
      "SELECT id, json_build_object('n', name)::text, CAST(json_build_array(id, name) AS varchar) FROM customers ORDER BY id LIMIT 3",
      "SELECT c.id, coalesce((SELECT json_agg(json_build_object('id', o.id, 'amount', o.amount) ORDER BY o.id) FROM orders o WHERE o.customer_id = c.id), '[]')::text FROM customers c ORDER BY 1",
    ];
    for (const sql of queries) await same(sql);
    // a json column's own text, as a client that does not parse it reads it
    const text = { getTypeParser: () => (v: string) => v };
    for (const sql of [
      "SELECT json_build_object('id', id, 'tags', json_build_array(name, email)) FROM customers ORDER BY id LIMIT 3",
      "SELECT c.id, (SELECT json_agg(json_build_object('id', o.id) ORDER BY o.id) FROM orders o WHERE o.customer_id = c.id) FROM customers c ORDER BY 1",
      'SELECT json_agg(c ORDER BY id), json_agg(id ORDER BY id) FROM customers c',
    ]) {
      const run = (client: PgClient) => client.query({ text: sql, rowMode: 'array', types: text }).then((r) => r.rows);
      assert.deepEqual(await run(patina), await run(postgres), sql);
    }
  });

  it('arithmetic on an infinite epoch is Infinity, -Infinity or NaN as numeric computes it (it was 22P02)', async () => {
    for (const sql of [
      "SELECT extract(epoch from 'infinity'::timestamp) + 1, extract(epoch from '-infinity'::timestamp) * 2, extract(epoch from 'infinity'::timestamp) - 1.5",
      "SELECT extract(epoch from 'infinity'::timestamp) / 2, 1 / extract(epoch from 'infinity'::timestamp), -extract(epoch from 'infinity'::timestamp)",
      "SELECT extract(epoch from 'infinity'::timestamp) - extract(epoch from 'infinity'::timestamp), extract(epoch from 'infinity'::timestamp) * 0",
      "SELECT abs(extract(epoch from '-infinity'::timestamp)), extract(epoch from 'infinity'::timestamp) * -2, extract(epoch from 'infinity'::date) + 1",
      'SELECT id, extract(epoch from placed_at) + 1 FROM orders ORDER BY id',
    ])
      await same(sql);
    const sql = "SELECT extract(epoch from 'infinity'::timestamp) / 0";
    assert.equal(await message(patina, sql), await message(postgres, sql));
  });

  it("an infinite timestamp's extract of any field cast to an integer is 0A000 `cannot convert infinity to integer`, as numeric's infinity is (Metabase's CAST(extract(year ...) AS integer); a field but epoch was 22003)", async () => {
    for (const sql of [
      "SELECT CAST(extract(year from 'infinity'::timestamp) AS integer)",
      "SELECT extract(decade from '-infinity'::date)::bigint",
      "SELECT CAST(extract(millennium from 'infinity'::timestamptz) AS smallint)",
      "SELECT CAST(extract(epoch from 'infinity'::timestamp) AS integer)",
      // (date_part is a double's: 22003 there too)
      "SELECT date_part('year', 'infinity'::timestamp)::int",
    ]) {
      const m = await message(postgres, sql);
      assert.match(m, /^(0A000 cannot convert infinity to|22003 integer out of range)/);
      assert.equal(await message(patina, sql), m, sql);
    }
    await same(
      'SELECT CAST(extract(year from placed_at) AS integer), extract(month from placed_at)::int FROM orders ORDER BY id',
    );
  });

  it("to_json and to_jsonb of NULL are SQL NULL, as PostgreSQL's strict functions (they were the JSON text null)", async () => {
    for (const sql of [
      'SELECT to_json(NULL::text), to_jsonb(NULL::int), to_json(NULL::int) IS NULL, to_jsonb(NULL::text) IS NULL',
      'SELECT id, to_json(amount), to_jsonb(note), to_json(note) IS NULL FROM orders ORDER BY id',
      "SELECT jsonb_build_object('a', to_jsonb(note))::text, json_build_array(to_jsonb(amount))::text FROM orders ORDER BY id",
      'SELECT to_json(to_json(note))::text, coalesce(to_jsonb(note), \'"none"\'::jsonb)::text FROM orders ORDER BY id',
      "SELECT to_json('x'::text)::text, to_jsonb(1)::text, to_json('[1]'::json)::text, to_jsonb('null'::jsonb)::text",
      'SELECT count(*) FROM orders WHERE to_json(note) IS NULL',
    ])
      await same(sql);
    await same('SELECT to_json($1::text), to_jsonb($2::int)', [null, null]);
  });

  it('READ ONLY transactions refuse writes with 25006 (BEGIN READ ONLY, SET TRANSACTION, the session default); they were run', async () => {
    /** Each statement's command tag, or its SQLSTATE. */
    const steps = async (client: PgClient, sqls: string[]) => {
      const out: string[] = [];
      for (const sql of sqls)
        out.push(
          await client.query(sql).then(
            (r) => `${r.command} ${r.command === 'SHOW' ? JSON.stringify(r.rows) : ''}`,
            (e: { code?: string }) => `error ${e.code}`,
          ),
        );
      return out;
    };
    const runs = [
      ['BEGIN READ ONLY', 'SHOW transaction_read_only', "UPDATE orders SET note = 'ro' WHERE id = 1", 'ROLLBACK'],
      ['BEGIN', 'SET TRANSACTION READ ONLY', 'DELETE FROM orders WHERE id = 1', 'ROLLBACK'],
      ['START TRANSACTION READ WRITE', 'UPDATE orders SET note = note WHERE id = 1', 'ROLLBACK'],
      [
        'SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY',
        'INSERT INTO orders (id, customer_id) VALUES (900, 1)',
        'BEGIN',
        'SHOW transaction_read_only',
        'INSERT INTO orders (id, customer_id) VALUES (900, 1)',
        'ROLLBACK',
        'BEGIN READ WRITE',
        'INSERT INTO orders (id, customer_id) VALUES (900, 1)',
        'ROLLBACK',
        'SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE',
      ],
      [
        'SET default_transaction_read_only = on',
        'DELETE FROM orders WHERE id = 900',
        'RESET default_transaction_read_only',
        'DELETE FROM orders WHERE id = 900',
      ],
      // outside a block SET TRANSACTION is a warning and changes nothing
      ['SET TRANSACTION READ ONLY', 'DELETE FROM orders WHERE id = 900'],
    ];
    for (const sqls of runs) assert.deepEqual(await steps(patina, sqls), await steps(postgres, sqls), sqls.join('; '));
    assert.deepEqual(await steps(patina, ['SELECT count(*) FROM orders WHERE id = 900']), ['SELECT ']);
    assert.equal((await patina.query('SELECT count(*) AS n FROM orders WHERE id = 900')).rows[0].n, '0');
  });

  it('x = ALL and x <> ANY compare each element (they were IN and NOT IN: wrong rows); < ANY, >= ALL ... of a subquery and LIKE/ILIKE ANY/ALL run (they were 42601 and 0A000)', async () => {
    for (const sql of [
      "SELECT 1 <> ANY(ARRAY[1, 2]), 1 = ALL(ARRAY[1, 2]), 1 = ALL(ARRAY[1, 1]), 1 = ALL('{}'::int[]), 1 <> ANY('{}'::int[]), 1 = ALL(ARRAY[1, NULL])",
      'SELECT id FROM customers WHERE id <> ANY(ARRAY[1, 2]) ORDER BY id',
      'SELECT id FROM orders WHERE customer_id = ALL (SELECT customer_id FROM orders WHERE id = 1) ORDER BY id',
      'SELECT id FROM orders o WHERE o.customer_id <> ANY (SELECT id FROM customers WHERE id < 3) ORDER BY id',
      'SELECT id, amount > ALL (SELECT amount FROM orders WHERE amount IS NOT NULL AND id <> o.id) FROM orders o ORDER BY id',
      'SELECT id, amount >= ANY (SELECT amount FROM orders WHERE id <> o.id), amount < SOME (SELECT -1) FROM orders o ORDER BY id',
      'SELECT id, amount > ALL (SELECT amount FROM orders WHERE false) FROM orders ORDER BY id',
      "SELECT id FROM customers WHERE name LIKE ANY (ARRAY['a%', 'A%']) ORDER BY id",
      "SELECT id FROM customers WHERE name ILIKE ALL (ARRAY['%p%', '%E']) ORDER BY id",
      "SELECT id FROM customers WHERE name NOT LIKE ALL (ARRAY['a%', '%b%']) ORDER BY id",
      "SELECT id, email NOT ILIKE ANY ('{%EXAMPLE.COM}'::text[]), name ~~ ANY ('{x%}') FROM customers ORDER BY id",
      "SELECT id FROM customers WHERE name LIKE ANY (SELECT note || '%' FROM orders WHERE note IS NOT NULL) ORDER BY id",
      "SELECT 'abc' LIKE ANY (ARRAY[]::text[]), 'abc' LIKE ALL (ARRAY[]::text[]), 'abc' LIKE ANY (ARRAY[NULL, 'x']), 'abc' LIKE ANY (ARRAY[NULL, 'a%']), 'a_c' LIKE ANY (ARRAY['a\\_c'])",
    ])
      await same(sql);
    await same('SELECT id FROM customers WHERE name LIKE ANY ($1) ORDER BY id', [['a%', 'x%']]);
  });

  it('VALUES with ORDER BY, LIMIT or OFFSET, as a statement, a subquery, a WITH query or a UNION branch (they were syntax errors)', async () => {
    for (const sql of [
      "VALUES (1, 'a'), (2, 'b') ORDER BY 1 DESC",
      "VALUES (1, 'a'), (2, 'b') LIMIT 1",
      'VALUES (3), (1), (2) ORDER BY column1 LIMIT 2 OFFSET 1',
      'SELECT * FROM (VALUES (3), (1), (2) ORDER BY 1 LIMIT 2) v(x)',
      'WITH v AS (VALUES (2), (1) ORDER BY 1) SELECT * FROM v',
      'VALUES (2) UNION VALUES (1) ORDER BY 1',
      'SELECT id FROM customers WHERE id < 3 UNION ALL VALUES (7) ORDER BY 1 DESC',
    ])
      await same(sql);
  });

  it("SQL's interval qualifiers and precisions: a bare number counts the last field, the fields below it are cut (they were syntax errors, a qualified text other than a number 22007)", async () => {
    for (const sql of [
      "SELECT interval '1' day, interval '2' hour, interval '3' year, interval '13' month, interval '90' minute, interval '1.5' day",
      "SELECT interval '1:30' hour to minute, interval '1:30' minute to second, interval '5' hour to minute, interval '1-2' year to month",
      "SELECT interval '1 day 2 hours 3 minutes' day, interval '1 day 2 hours 3 minutes' hour, interval '1 day 2:03:04.5678' minute, interval '2:03:04.5678' second(2)",
      "SELECT '1 day 02:03'::interval day to hour, CAST('90 minutes' AS interval hour), interval '1 year 2 months 3 days' year",
      "SELECT interval(0) '1.7 seconds', interval '1.7' second(0), '1.234 sec'::interval(2), interval '-1.5 hours' hour",
      "SELECT id, placed_at + interval '1' day, placed_at - interval '90' minute FROM orders ORDER BY id",
      // of a computed value, a column or a parameter: cut per row (SQLite read the qualifier as an alias, uncut)
      "SELECT id, (placed_at - '2024-01-28 07:29:13.75'::timestamp)::interval hour AS h, CAST(placed_at - '2023-02-28 07:29:13.75' AS interval day to hour) FROM orders ORDER BY id",
      "SELECT (placed_at - '2024-02-28 07:29:13.75')::interval minute, (placed_at - '2024-02-28 07:29:13.75')::interval year, (placed_at - '2024-02-28 07:29:13.75')::interval minute to second(0) FROM orders ORDER BY id",
      "SELECT (id * 12)::text::interval hour, (id * 90)::text::interval minute to second, ('2 days ' || id || ':30:15')::interval day FROM orders ORDER BY id",
    ])
      await same(sql);
    for (const [sql, params] of [
      [
        'SELECT $1::interval minute, CAST($1 AS interval day to second(0)), $2::interval hour',
        ['1 day 02:03:04.5', null],
      ],
      ["SELECT id FROM orders WHERE $1::interval hour = interval '26 hours' ORDER BY id", ['1 day 2 hours 3 minutes']],
    ] as [string, unknown[]][])
      await same(sql, params);
    const codes = await Promise.all(
      [patina, postgres].map((c) =>
        c.query("SELECT interval 'x' day").then(
          () => 'ran',
          (e: { code?: string }) => e.code,
        ),
      ),
    );
    assert.deepEqual(codes, ['22007', '22007']);
  });

  it('a SELECT of no items (EXISTS (SELECT FROM ...), SELECT FROM t) runs, its rows of no columns (it was a syntax error)', async () => {
    for (const sql of [
      'SELECT id FROM customers c WHERE NOT EXISTS (SELECT FROM orders o WHERE o.customer_id = c.id) ORDER BY id',
      'SELECT id FROM customers c WHERE EXISTS (SELECT FROM orders o WHERE o.customer_id = c.id) ORDER BY id',
      'SELECT FROM customers',
      'SELECT FROM orders WHERE id = 1 UNION ALL SELECT FROM customers',
      'SELECT count(*) FROM (SELECT FROM orders) s',
    ])
      await sameOnBoth(o, sql);
    // psql prints a row count under an empty header, as for PostgreSQL
    assert.equal(
      psqlOk(o.pair.patinaPort, ['SELECT FROM customers WHERE id < 3']),
      psqlOk(o.pair.postgresPort, ['SELECT FROM customers WHERE id < 3']),
    );
  });

  it('a construct with no translation gets 0A000 naming it (PostgreSQL runs each)', async () => {
    const refused: [string, RegExp][] = [
      [
        'INSERT INTO orders (id) SELECT DISTINCT ON (customer_id) id + 1000 FROM orders ORDER BY customer_id, id',
        /SELECT DISTINCT ON/,
      ],
      // (over one table it runs: lateral-oracle; here two of its columns are named id)
      [
        'SELECT c.id, x.* FROM customers c, LATERAL (SELECT * FROM orders o JOIN customers d ON d.id = o.customer_id WHERE o.customer_id = c.id) x',
        /LATERAL subquery selecting \*/,
      ],
      // grouping sets run (grouping-sets-oracle, beside window functions too), but not in a UNION's branch
      ['SELECT customer_id, count(*) FROM orders GROUP BY CUBE (customer_id) UNION ALL SELECT 1, 2', /GROUP BY CUBE/],
      // (rank(2) WITHIN GROUP of one key runs: functions-oracle)
      ["SELECT rank(2, 'x') WITHIN GROUP (ORDER BY amount, note) FROM orders", /WITHIN GROUP/],
      // (a data-modifying statement in WITH runs: modifying-with-oracle)
      // (INTERSECT ALL and EXCEPT ALL run: joins-sets-oracle)
      // (BETWEEN SYMMETRIC runs, below: of intervals, which have their own order, not)
      [
        "SELECT interval '1 day' BETWEEN SYMMETRIC interval '2 days' AND interval '1 hour'",
        /BETWEEN SYMMETRIC of interval/,
      ],
      // (WITH TIES runs, below: of a correlated subquery selecting *, not)
      [
        'SELECT c.id, (SELECT count(*) FROM (SELECT * FROM orders o WHERE o.customer_id = c.id ORDER BY o.id FETCH FIRST 1 ROWS WITH TIES) s) FROM customers c',
        /WITH TIES of a subquery selecting \*/,
      ],
      // system columns (SQLite's 42703 no such column): Patina's rows have no transaction ids or heap places
      ['SELECT xmin, id FROM orders', /system column "xmin"/],
      ['SELECT o.ctid FROM orders o WHERE id = 1', /system column "ctid"/],
      ['UPDATE orders SET note = note WHERE id = 1 AND xmin = 1', /system column "xmin"/],
      // SQLite failed when the statement ran, with 42000 'frame starting offset must be a non-negative number'
      // (an offset of days or hours runs, of months for sum, count, avg, min and max: functions-oracle)
      [
        "SELECT id, string_agg(note, ',') OVER (ORDER BY placed_at RANGE BETWEEN interval '1 month' PRECEDING AND CURRENT ROW) FROM orders",
        /frame offset of months/,
      ],
    ];
    for (const [sql, message] of refused) {
      await postgres.query(sql);
      await assert.rejects(
        patina.query(sql),
        (e: { code?: string; message: string }) => e.code === '0A000' && message.test(e.message),
        sql,
      );
    }
    // (the rows the INSERT above added on PostgreSQL alone)
    await postgres.query('DELETE FROM orders WHERE id > 1000');
    // the session goes on
    assert.deepEqual((await patina.query({ text: 'SELECT 1', rowMode: 'array' })).rows, [[1]]);
  });
  it('x [NOT] BETWEEN SYMMETRIC a AND b takes the bounds in either order, NULL with a NULL bound (it was 0A000)', async () => {
    for (const sql of [
      'SELECT id FROM orders WHERE amount BETWEEN SYMMETRIC 10 AND 0 ORDER BY id',
      'SELECT id FROM orders WHERE amount NOT BETWEEN SYMMETRIC 10 AND 0 ORDER BY id',
      'SELECT id, amount BETWEEN SYMMETRIC NULL AND 10, amount NOT BETWEEN SYMMETRIC 10 AND NULL FROM orders ORDER BY id',
      'SELECT id FROM orders WHERE amount BETWEEN ASYMMETRIC 0 AND 10 OR amount BETWEEN ASYMMETRIC 10 AND 0 ORDER BY id',
      'SELECT id FROM orders WHERE customer_id BETWEEN SYMMETRIC 5 * 2 + 1 AND -1 + 3 AND id > 1 ORDER BY id',
      "SELECT id FROM orders WHERE placed_at BETWEEN SYMMETRIC '2024-03-02'::timestamp AND '2024-03-01 10:00' ORDER BY id",
      "SELECT id, CASE WHEN amount BETWEEN SYMMETRIC CASE WHEN id > 2 THEN 20 ELSE 0 END AND 5 THEN 'in' ELSE 'out' END FROM orders ORDER BY id",
      "SELECT id FROM customers WHERE name BETWEEN SYMMETRIC 'b' AND 'a' ORDER BY id",
      // a timestamp between dates: the later date at midnight is in
      "SELECT '2024-01-03 00:00'::timestamp BETWEEN SYMMETRIC date '2024-01-03' AND date '2024-01-02', '2024-01-03 00:00'::timestamp NOT BETWEEN SYMMETRIC date '2024-01-02' AND date '2024-01-03'",
      'SELECT count(*) FILTER (WHERE amount BETWEEN SYMMETRIC (SELECT max(amount) FROM orders) AND 0) FROM orders',
      'SELECT 5 BETWEEN SYMMETRIC 10 AND 1, 5 NOT BETWEEN SYMMETRIC 10 AND 1, (0 BETWEEN SYMMETRIC 1 AND 2) = false',
    ])
      await same(sql);
    await same('SELECT id FROM orders WHERE amount BETWEEN SYMMETRIC $1 AND $2 ORDER BY id', [20, 7]);
    assert.deepEqual(await same('SELECT id FROM orders WHERE amount BETWEEN SYMMETRIC 10 AND 0 ORDER BY id'), [['3']]);
    // the parser's refusals: a missing AND, a chain of BETWEENs
    for (const sql of [
      'SELECT id FROM orders WHERE amount BETWEEN SYMMETRIC 1 ORDER BY id',
      'SELECT 2 BETWEEN SYMMETRIC 3 AND 1 BETWEEN SYMMETRIC false AND true',
    ])
      assert.equal(await placed(patina, sql), await placed(postgres, sql), sql);
  });

  it('FETCH FIRST n ROWS WITH TIES keeps the rows sorting equal to the last one (it was 0A000)', async () => {
    const extra = 'INSERT INTO orders (id, customer_id, amount, note) VALUES (6, 10, 7, NULL), (7, 12, 12.5, NULL)';
    await patina.query(extra);
    await postgres.query(extra);
    // (rows sorting equal come in any order, on either server: compared as sets)
    const tied = (sql: string, params?: unknown[]) => sameOnBoth(o, sql, params, { sorted: true });
    try {
      for (const sql of [
        'SELECT id, amount FROM orders ORDER BY amount FETCH FIRST 2 ROWS WITH TIES',
        'SELECT id, amount FROM orders ORDER BY amount DESC FETCH FIRST 1 ROW WITH TIES',
        'SELECT id, amount FROM orders ORDER BY amount DESC NULLS LAST, customer_id FETCH NEXT 3 ROWS WITH TIES',
        'SELECT * FROM orders ORDER BY customer_id OFFSET 1 ROWS FETCH FIRST 1 ROWS WITH TIES',
        'SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id ORDER BY o.customer_id FETCH FIRST ROW WITH TIES',
        // a key naming a result column by alias or place; an aggregate's ties (the top customers by count)
        'SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id ORDER BY n DESC FETCH FIRST 1 ROWS WITH TIES',
        'SELECT customer_id, count(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1 FETCH FIRST 2 ROWS WITH TIES',
        'SELECT id, amount a FROM orders ORDER BY a FETCH FIRST 1 ROWS WITH TIES OFFSET 1',
        'SELECT id FROM orders ORDER BY amount FETCH FIRST 0 ROWS WITH TIES',
        'SELECT count(*) FROM (SELECT * FROM orders ORDER BY customer_id FETCH FIRST 3 ROWS WITH TIES) s',
        'WITH o AS (SELECT * FROM orders) SELECT id FROM o ORDER BY amount FETCH FIRST (1 + 1) ROWS WITH TIES',
        // a SELECT DISTINCT's or a set operation's rows, ordered by their columns
        'SELECT DISTINCT customer_id, amount FROM orders ORDER BY amount DESC NULLS LAST FETCH FIRST 1 ROWS WITH TIES',
        'SELECT DISTINCT customer_id AS c FROM orders ORDER BY c FETCH FIRST 2 ROWS WITH TIES OFFSET 1',
        'SELECT customer_id FROM orders UNION ALL SELECT 10 ORDER BY 1 DESC FETCH FIRST 2 ROWS WITH TIES',
        'SELECT customer_id, amount FROM orders UNION SELECT 12, 12.5 ORDER BY customer_id FETCH FIRST 1 ROWS WITH TIES',
        // a SELECT DISTINCT ON's rows (each group's first by the ORDER BY), ordered by its columns (they were 0A000)
        'SELECT DISTINCT ON (customer_id) customer_id, amount FROM orders ORDER BY customer_id, amount DESC NULLS LAST FETCH FIRST 2 ROWS WITH TIES',
        'SELECT DISTINCT ON (amount) amount AS a, customer_id FROM orders ORDER BY a DESC NULLS LAST OFFSET 1 FETCH FIRST 1 ROWS WITH TIES',
        'SELECT * FROM (SELECT DISTINCT ON (customer_id % 2) customer_id % 2, id FROM orders ORDER BY customer_id % 2, id FETCH FIRST 1 ROWS WITH TIES) s',
        // a locking clause after it (taken out, as elsewhere)
        'SELECT id FROM orders ORDER BY customer_id FETCH FIRST 3 ROWS WITH TIES FOR UPDATE',
        'SELECT c.id, (SELECT o.id FROM orders o WHERE o.customer_id = c.id ORDER BY o.id FETCH FIRST 1 ROWS WITH TIES) FROM customers c WHERE c.id < 11 ORDER BY c.id',
      ])
        await tied(sql);
      await tied('SELECT id FROM orders ORDER BY amount FETCH FIRST $1 ROWS WITH TIES OFFSET $2', [1, 1]);
      assert.deepEqual(await tied('SELECT id FROM orders ORDER BY amount DESC FETCH FIRST 1 ROWS WITH TIES'), [
        ['2'],
        ['4'],
      ]);
      // FETCH FIRST NULL ROWS ONLY is no limit (it was SQLite's 42804 datatype mismatch)
      await same('SELECT id FROM orders ORDER BY id FETCH FIRST NULL ROWS ONLY');
      // DISTINCT ON ordered by a key that is no result column: refused naming WITH TIES
      await assert.rejects(
        patina.query(
          'SELECT DISTINCT ON (customer_id) customer_id FROM orders ORDER BY customer_id, id FETCH FIRST 1 ROWS WITH TIES',
        ),
        (e: { code?: string; message: string }) =>
          e.code === '0A000' &&
          /WITH TIES .*SELECT DISTINCT ON ordered by other than its result columns/.test(e.message),
      );
      // PostgreSQL's refusals: without ORDER BY, a NULL or negative count
      for (const sql of [
        'SELECT id FROM orders FETCH FIRST 1 ROWS WITH TIES',
        'SELECT id FROM orders ORDER BY id FETCH FIRST NULL ROWS WITH TIES',
        'SELECT id FROM orders ORDER BY id FETCH FIRST -1 ROWS WITH TIES',
      ])
        assert.equal(await message(patina, sql), await message(postgres, sql), sql);
    } finally {
      await patina.query('DELETE FROM orders WHERE id IN (6, 7)');
      await postgres.query('DELETE FROM orders WHERE id IN (6, 7)');
    }
  });

  it('substring(s SIMILAR p ESCAPE e) and substring(s FROM p FOR e) of text return the part between the #" separators (they were 42601)', async () => {
    for (const sql of [
      "SELECT substring('foobar' similar '%#\"o_b#\"%' escape '#'), substring('foobar' similar '#\"o_b#\"%' escape '#')",
      // the part before the separators as short as it can be, the marked part as long
      "SELECT substring('xaxbxc' similar '%#\"x_#\"%' escape '#'), substring('xaxbxc' similar '%#\"x%#\"' escape '#')",
      "SELECT substring('abc' similar 'abc' escape '#'), substring('abc' similar 'ab' escape '#'), substring('abc' similar 'a#\"bc' escape '#')",
      "SELECT substring('Thomas' from '%#\"o_a#\"_' for '#'), substring('foobar' from 2 for 3), substring('foobar' from '2' for 3)",
      "SELECT substring('abc' similar 'a%' escape ''), substring('a%c' similar 'a\\%c' escape '\\'), substring('a(b)c' similar 'a(b)c' escape '#')",
      "SELECT substring(NULL similar 'a%' escape '#'), substring('abc' similar NULL escape '#'), substring('abc' similar 'a%' escape NULL)",
      "SELECT substring('ab' || chr(10) || 'c' similar 'a#\"%#\"' escape '#'), substring('aaa' similar '#\"a*#\"' escape '#')",
      // called with commas: text arguments are the SIMILAR and regular-expression forms
      "SELECT substring('abc', 'a#\"b#\"c', '#'), substring('abc', 'b.'), substring('abc', 2, 1)",
      "SELECT id, substring(name similar '#\"_#\"%' escape '#') FROM customers ORDER BY id",
    ])
      await same(sql);
    assert.deepEqual(await same("SELECT substring('xaxbxc' similar '%#\"x_#\"%' escape '#')"), [['xa']]);
    await same("SELECT substring($1 similar $2 escape '#'), substring($1 from $2 for '#')", ['foobar', '%#"o_b#"%']);
    for (const sql of [
      "SELECT substring('abc' similar '#\"a#\"#\"b#\"c' escape '#')",
      "SELECT substring('abc' similar 'a%' escape '##')",
    ])
      assert.equal(await message(patina, sql), await message(postgres, sql), sql);
  });

  it('pg_advisory_lock, pg_advisory_unlock_all, pg_sleep and pg_notify return void (2278), printed empty, in text and binary (they were typed text)', async () => {
    for (const sql of [
      'SELECT pg_advisory_lock(1)',
      'SELECT pg_advisory_lock(1, 2), pg_advisory_lock_shared(7)',
      'SELECT pg_advisory_unlock(1), pg_advisory_unlock(1, 2), pg_advisory_unlock_shared(7)',
      'SELECT pg_advisory_lock(NULL::bigint)',
      'SELECT pg_advisory_unlock_all()',
      'SELECT pg_sleep(0)',
      "SELECT pg_sleep_for('0 seconds')",
      "SELECT pg_notify('h5_channel', 'x')",
    ]) {
      await same(sql);
      await same(sql, []);
    }
    await same('SELECT pg_advisory_xact_lock($1)', [3]);
    // binary: PostgreSQL's void_send is no bytes
    const binary = async (c: PgClient) =>
      (await c.query({ text: 'SELECT pg_advisory_unlock_all() AS v', binary: true } as never)).rows;
    assert.deepEqual(await binary(patina), await binary(postgres));
    assert.equal(
      psqlOk(o.pair.patinaPort, ['SELECT pg_advisory_lock(9)', 'SELECT pg_advisory_unlock_all()']),
      psqlOk(o.pair.postgresPort, ['SELECT pg_advisory_lock(9)', 'SELECT pg_advisory_unlock_all()']),
    );
  });
  it("a table named with the session's database (db.public.t) is the table, in FROM, JOIN and the writes; another database's is 0A000 (it was a syntax error)", async () => {
    for (const sql of [
      'SELECT * FROM db.public.customers ORDER BY id',
      'SELECT c.id, o.id FROM db.public.customers c JOIN "db".public.orders o ON o.customer_id = c.id ORDER BY 1, 2',
      'SELECT customers.name FROM DB.public.customers WHERE id = 1',
    ])
      await same(sql);
    const both = async (sql: string) => {
      const p = await message(patina, sql);
      assert.equal(p, await message(postgres, sql), sql);
      return p;
    };
    assert.equal(await both("INSERT INTO db.public.customers (id, name) VALUES (900, 'db')"), 'ran');
    assert.equal(await both("UPDATE db.public.customers SET name = 'db2' WHERE id = 900"), 'ran');
    await same('SELECT id, name FROM customers WHERE id = 900');
    assert.equal(await both('DELETE FROM db.public.customers WHERE id = 900'), 'ran');
    for (const sql of ['SELECT * FROM other.public.customers', 'DELETE FROM postgres.public.orders'])
      assert.match(await both(sql), /^0A000 cross-database references are not implemented: "/);
  });

  it('COLLATE naming no collation is 42704 at the COLLATE (3F000 for a schema that is none); C, POSIX, ucs_basic, C.utf8 and default run (it was dropped: the text compared by code point); an ICU collation is 0A000', async () => {
    const outcome = (c: PgClient, sql: string) =>
      c.query({ text: sql, rowMode: 'array' }).then(
        (r) => JSON.stringify(r.rows),
        (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} at ${e.position}`,
      );
    for (const sql of [
      `SELECT 'x' COLLATE "nosuch"`,
      'SELECT name FROM customers ORDER BY name COLLATE "nosuch"',
      `SELECT name FROM customers WHERE name COLLATE "en_US.utf8" = 'ann'`,
      `SELECT 'x' COLLATE C`,
      `SELECT 'x' COLLATE public."C"`,
      `SELECT 'x' COLLATE nosuch."C"`,
      `SELECT 'a' < 'b' COLLATE "nosuch"`,
      `SELECT 'x' COLLATE "C", 'y' COLLATE "POSIX", 'z' COLLATE "ucs_basic", 'w' COLLATE "C.utf8", 'v' COLLATE "default"`,
      `SELECT 'x' COLLATE pg_catalog."C", 'y' COLLATE pg_catalog.default`,
      `SELECT name FROM customers WHERE id IN (10, 11, 18) ORDER BY name COLLATE "C"`,
    ])
      assert.equal(await outcome(patina, sql), await outcome(postgres, sql), sql);
    // a name of three parts: another database's is 0A000, four parts 42601 (the statement answered no rows)
    for (const sql of [
      `SELECT 'x'::other.pg_catalog.text`,
      `SELECT CAST('1' AS other.pg_catalog.int4)`,
      `SELECT 'x' COLLATE other.pg_catalog."C"`,
      `SELECT 'x'::a.b.c.d`,
    ])
      assert.equal(await outcome(patina, sql), await outcome(postgres, sql), sql);
    // the session's own database's: PostgreSQL takes it, Patina says it cannot
    assert.match(await message(patina, `SELECT 'x'::db.pg_catalog.text`), /^0A000 a name qualified by its database/);
    const icu = `SELECT 'x' COLLATE "und-x-icu"`;
    await postgres.query(icu);
    assert.equal(await message(patina, icu).then((m) => m.slice(0, 5)), '0A000');
  });
  it('current_user(), session_user(), current_role(), user(), current_catalog() and current_timestamp() written as calls are 42601 at the parenthesis (they answered: SQLite has such functions); current_role and user without parentheses answer, named as there', async () => {
    const outcome = (c: PgClient, sql: string) =>
      c.query({ text: sql, rowMode: 'array' }).then(
        (r) => `${JSON.stringify(r.rows)} ${r.fields.map((f) => `${f.name}:${f.dataTypeID}`).join(',')}`,
        (e: { code?: string; message: string; position?: string }) => `${e.code} ${e.message} at ${e.position}`,
      );
    for (const sql of [
      'SELECT current_user()',
      'SELECT session_user()',
      'SELECT current_role()',
      'SELECT user()',
      'SELECT current_catalog()',
      'SELECT current_date()',
      'SELECT current_timestamp( )',
      'SELECT localtimestamp()',
      'SELECT id FROM customers WHERE name = current_user /* me */ ( )',
      'SELECT current_user, current_role, user, session_user, current_catalog, current_schema()',
      'SELECT pg_catalog.current_user(), current_timestamp(0) IS NOT NULL AS t',
      'SELECT 1 AS user',
    ])
      assert.equal(await outcome(patina, sql), await outcome(postgres, sql), sql);
  });
});
