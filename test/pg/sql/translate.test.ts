// The translation passes of protocols/pg/sql/translate/, one by one on tokens, and translate() on a
// whole statement; bad input (unclosed brackets, a cast with no type, a missing table) must come
// back as text SQLite then refuses, never an exception or a loop.
import assert from 'node:assert/strict';
import { type PgToken, lexPg } from '../../../protocols/pg/sql/lexer';
import { type Tok, joinTokens } from '../../../protocols/pg/sql/tokens';
import { rewriteArrays } from '../../../protocols/pg/sql/translate/arrays';
import { rewriteCastCalls, rewriteCasts } from '../../../protocols/pg/sql/translate/casts';
import { rewriteDateSyntax } from '../../../protocols/pg/sql/translate/date-syntax';
import { rewriteIntervalFields } from '../../../protocols/pg/sql/translate/interval-fields';
import { rewriteDivision } from '../../../protocols/pg/sql/translate/division';
import { rewriteInsertDefaults } from '../../../protocols/pg/sql/translate/insert-defaults';
import { rewriteNumericAt } from '../../../protocols/pg/sql/translate/exact-order';
import { rewriteIntervalDistinct } from '../../../protocols/pg/sql/translate/interval-distinct';
import { rewriteIntervalGroups } from '../../../protocols/pg/sql/translate/null-order';
import { rewriteJsonValues } from '../../../protocols/pg/sql/translate/json-values';
import { expandGroupingSets } from '../../../protocols/pg/sql/grouping-sets';
import { rewriteLocking } from '../../../protocols/pg/sql/translate/locking';
import { rewriteScalarFrom } from '../../../protocols/pg/sql/translate/scalar-from';
import { rewriteSetReturning } from '../../../protocols/pg/sql/translate/set-returning';
import { type DialectContext, translate } from '../../../protocols/pg/sql/translate/translate';
import { rewriteTypeof } from '../../../protocols/pg/sql/translate/typeof';
import { rewriteWords } from '../../../protocols/pg/sql/translate/words';

const toks = (sql: string): PgToken[] => lexPg(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
const pass = (rewrite: (t: Tok[]) => Tok[]) => (sql: string) => joinTokens(rewrite(toks(sql)));

const ctx: DialectContext = {
  user: 'alice',
  database: 'db1',
  version: 'PostgreSQL 15.0 (Patina)',
  columns: (table) =>
    table === 'users'
      ? [
          { name: 'id', defaultSql: 'patina_id()' },
          { name: 'name', defaultSql: null },
          { name: 'n', defaultSql: '42' },
        ]
      : null,
  columnType: (_table, column) => (column === 'id' ? 'INTEGER' : column === 'name' ? 'TEXT' : null),
  notNull: () => false,
};

describe('PG translation passes', () => {
  it('casts: strict integers and floats, booleans by their words, bytea hex, dates converted once', () => {
    const casts = pass(rewriteCasts);
    assert.equal(
      casts("SELECT x::int, '12'::bigint, y::numeric"),
      "SELECT __pg_int(x, 'integer'), __pg_int('12', 'bigint'), __pg_to_numeric(y)",
    );
    assert.equal(
      casts("SELECT 'yes'::boolean, '\\x0aff'::bytea, '{ a , b }'::text[], tags::bigint[]"),
      "SELECT __pg_bool('yes'), X'0aff', '{a,b}', __pg_array_in(tags, 'bigint', 1)",
    );
    // an array literal is read as array_in reads it, at translation
    assert.throws(() => casts("SELECT 'a'::text[]"), /malformed array literal: "a"/);
    assert.equal(
      casts("SELECT '2026-01-02'::date, '2026-01-02 03:04:05+02'::timestamptz, '7 days'::interval"),
      "SELECT '2026-01-02', '2026-01-02 01:04:05', __pg_interval('7 days')",
    );
    assert.equal(
      casts('SELECT a.b::pg_catalog.int8, x::double precision'),
      "SELECT __pg_int(a.b, 'bigint'), __pg_float(x, 'double precision')",
    );
    // a literal that is no date is left to the function, which reports it when the statement runs
    assert.equal(casts("SELECT 'not a date'::date"), "SELECT __pg_date('not a date')");
    // the operand after ')' is the whole value: a call, its field, a qualified call
    assert.equal(casts('SELECT f(a).b::int'), "SELECT __pg_int(f(a).b, 'integer')");
    assert.equal(casts('SELECT (f(a)).b::int'), "SELECT __pg_int((f(a)).b, 'integer')");
    assert.equal(casts('SELECT s.f(a)::int + 1'), "SELECT __pg_int(s.f(a), 'integer') + 1");
    assert.equal(casts('SELECT NULL::int, (1)::text'), "SELECT __pg_int(NULL, 'integer'), CAST((1) AS TEXT)");
  });

  it('casts with nothing to cast or no type are syntax errors (42601), as PostgreSQL parses them', () => {
    const casts = pass(rewriteCasts);
    for (const [sql, message] of [
      ['SELECT ::int', 'syntax error at or near "::"'],
      ['::int', 'syntax error at or near "::"'],
      ['SELECT 1, ::int', 'syntax error at or near "::"'],
      ['SELECT (::int)', 'syntax error at or near "::"'],
      ['SELECT 1 WHERE ::int = 1', 'syntax error at or near "::"'],
      ['SELECT x::', 'syntax error at end of input'],
      ['SELECT x::, y', 'syntax error at or near ","'],
    ]) {
      assert.throws(() => casts(sql), { sqlstate: '42601', message }, sql);
    }
  });

  it('CAST(x AS type) as PostgreSQL means it, innermost first; SQLite spellings and bad forms left alone', () => {
    const calls = pass(rewriteCastCalls);
    assert.equal(
      calls('SELECT CAST(x AS integer), CAST(y AS BLOB), CAST(CAST(z AS text) AS int)'),
      "SELECT __pg_int(x, 'integer'), CAST(y AS BLOB), __pg_int(CAST(z AS TEXT), 'integer')",
    );
    assert.equal(calls('SELECT CAST(x integer)'), 'SELECT CAST(x integer)');
    assert.equal(calls('SELECT CAST('), 'SELECT CAST(');
  });

  it('arrays: ANY/ALL as IN lists, ARRAY constructors, 1-based subscripts', () => {
    const arrays = pass(rewriteArrays);
    assert.equal(
      arrays('SELECT 1 WHERE id = ANY($1) AND id <> ALL(ARRAY[1,2])'),
      "SELECT 1 WHERE id IN (SELECT value FROM __pg_elems_as(ifnull( $1 , x'00'), '')) AND id NOT IN(1, 2)",
    );
    assert.equal(
      arrays('SELECT ARRAY[1,2,3], (a)[2], tags[1], ARRAY(SELECT id FROM t)'),
      'SELECT __pg_array(1, 2, 3), __pg_elem((a), 2), __pg_elem(tags, 1), (WITH __a(v) AS(SELECT id FROM t) SELECT __pg_array_agg(v) FROM __a)',
    );
    // unclosed: PostgreSQL's syntax error at the end, with no token lost on the way
    for (const sql of [
      'SELECT ARRAY[1,2',
      'SELECT ARRAY[1, x[2]',
      'SELECT ARRAY[',
      'SELECT tags[1',
      'SELECT x = ANY(',
      'SELECT x = ANY(ARRAY[1,2]',
      'SELECT ARRAY(SELECT 1',
    ]) {
      assert.throws(() => arrays(sql), { sqlstate: '42601', message: 'syntax error at end of input' }, sql);
    }
  });

  it('JSON builders: a recognisably boolean argument is true/false, once; CASE, arithmetic and subqueries are left', () => {
    const json = pass((t) => rewriteJsonValues(t, { columnType: () => null, columns: () => null }));
    const asJson = (e: string) => `json(CASE(${e}) WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)`;
    assert.equal(
      json("SELECT json_build_object('a', x > 1, 'b', (y IS NULL), 'c', NOT z)"),
      `SELECT json_build_object('a', ${asJson('x > 1')}, 'b', ${asJson('(y IS NULL)')}, 'c', ${asJson('NOT z')})`,
    );
    assert.equal(
      json('SELECT json_build_array(a AND b, c IN (1, 2))'),
      `SELECT json_build_array(${asJson('a AND b')}, ${asJson('c IN(1, 2)')})`,
    );
    assert.equal(
      json("SELECT json_build_array(x + 1, CASE WHEN x > 1 THEN 'a' END, (SELECT x = 1), f(x = 1), (x > 1)::text)"),
      "SELECT json_build_array(x + 1, CASE WHEN x > 1 THEN 'a' END, (SELECT x = 1), f(x = 1), (x > 1) :: text)",
    );
  });

  it('date syntax: EXTRACT, typed literals, INTERVAL n unit, AT TIME ZONE UTC only', () => {
    const dates = pass(rewriteDateSyntax);
    assert.equal(
      dates("SELECT EXTRACT(year FROM d), DATE '2026-01-01', t AT TIME ZONE 'UTC'"),
      "SELECT date_part('year', d), '2026-01-01' :: date, t",
    );
    // SQL's interval qualifiers: the value PostgreSQL makes of the literal, a plain interval literal
    const fields = pass(rewriteIntervalFields);
    assert.equal(
      fields(
        "SELECT INTERVAL '3' DAY, INTERVAL '1.5' DAY, '1:30'::interval MINUTE TO SECOND, CAST('90 minutes' AS interval HOUR)",
      ),
      "SELECT '3 days' :: interval, '1 day' :: interval, '00:01:30' :: interval, ('01:00:00' :: interval)",
    );
    assert.equal(fields("SELECT x::interval DAY, INTERVAL 'x'"), "SELECT x :: interval DAY, INTERVAL 'x'");
    assert.equal(
      dates("SELECT TIMESTAMP WITH TIME ZONE '2026-01-01 00:00:00+00', t AT TIME ZONE 'Europe/Paris'"),
      "SELECT '2026-01-01 00:00:00+00' :: timestamptz, t AT TIME ZONE 'Europe/Paris'",
    );
    assert.equal(dates('SELECT EXTRACT('), 'SELECT EXTRACT(');
    assert.equal(dates('SELECT DATE'), 'SELECT DATE');
  });

  it('division: each divisor one operand through __pg_divisor (with a dividend that may be NULL); a lone / is left alone', () => {
    const division = pass(rewriteDivision);
    assert.equal(
      division('SELECT a / b, c % (d + 1), e / -f.g, h / CASE WHEN x THEN 0 ELSE 1 END, i / fn(j)'),
      'SELECT a / __pg_divisor_of(b , (a) IS NULL), c % __pg_divisor_of((d + 1) , (c) IS NULL), e / __pg_divisor_of(- f.g , (e) IS NULL), h / __pg_divisor_of(CASE WHEN x THEN 0 ELSE 1 END , (h) IS NULL), i / __pg_divisor_of(fn(j) , (i) IS NULL)',
    );
    // a literal dividend is never NULL; one through `*` is the product; a costly one is not read twice
    assert.equal(
      division('SELECT 1 / b, -2 * a / b, (SELECT 1) / b'),
      'SELECT 1 / __pg_divisor(b), - 2 * a / __pg_divisor_of(b , (- 2 * a) IS NULL), (SELECT 1) / __pg_divisor(b)',
    );
    assert.equal(division('SELECT 1 /'), 'SELECT 1 /');
    assert.equal(division('SELECT / 2'), 'SELECT / 2');
  });

  it('DEFAULT in VALUES: the column default from the schema, NULL without one; unknown tables untouched', () => {
    const defaults = pass((t) => rewriteInsertDefaults(t, ctx));
    assert.equal(
      defaults("INSERT INTO users (id, name, n) VALUES (DEFAULT, 'a', DEFAULT), (1, DEFAULT, 2)"),
      "INSERT INTO users(id, name, n) VALUES((patina_id()), 'a', (42)), (1, NULL, 2)",
    );
    assert.equal(
      defaults("INSERT INTO users VALUES (DEFAULT, 'x', DEFAULT)"),
      "INSERT INTO users VALUES((patina_id()), 'x', (42))",
    );
    assert.equal(defaults('INSERT INTO nosuch (a) VALUES (DEFAULT)'), 'INSERT INTO nosuch(a) VALUES(DEFAULT)');
    // DEFAULT inside an expression is not the column's default: SQLite refuses it, as PostgreSQL does
    assert.equal(
      defaults('INSERT INTO users (id) VALUES (coalesce(DEFAULT, 1))'),
      'INSERT INTO users(id) VALUES(coalesce(DEFAULT, 1))',
    );
    assert.equal(
      defaults('INSERT INTO users (id, name) VALUES (DEFAULT'),
      'INSERT INTO users(id, name) VALUES(DEFAULT',
    );
    assert.equal(defaults('INSERT INTO'), 'INSERT INTO');
  });

  it('pg_typeof: the type the SQL gives, else the value type at run time', () => {
    const typeOf = pass((t) => rewriteTypeof(t, ctx));
    assert.equal(
      typeOf(
        "SELECT pg_typeof(1), pg_typeof(3000000000), pg_typeof(1.5), pg_typeof('x'), pg_typeof(true), pg_typeof(x::int[]), pg_typeof(id), pg_typeof(users.name)",
      ),
      "SELECT 'integer', 'bigint', 'numeric', 'unknown', 'boolean', 'integer[]', 'bigint', 'text'",
    );
    assert.equal(typeOf('SELECT pg_typeof(zz), pg_typeof(a + b)'), 'SELECT __pg_typeof(zz), __pg_typeof(a + b)');
    assert.equal(typeOf('SELECT pg_typeof()'), 'SELECT __pg_typeof()');
    assert.equal(typeOf('SELECT pg_typeof('), 'SELECT __pg_typeof(');
  });

  it('words: operators, renamed functions, aliases, session values off the catalog connection', () => {
    const words = pass((t) => rewriteWords(t, ctx, false));
    assert.equal(
      words(
        "SELECT a ~ 'x', b !~* 'y', c ILIKE 'z', string_agg(d, ','), version(), current_user, now(), x AS Name, public.t.a, pg_catalog.lower(s), e COLLATE \"C\", OPERATOR(pg_catalog.~) 'q'",
      ),
      // `~` after a comma is the prefix bitwise NOT, left as SQLite spells it
      "SELECT a REGEXP 'x', b NOT REGEXP '(?i)' || 'y', c LIKE 'z', group_concat(d, ','), 'PostgreSQL 15.0 (Patina)', 'alice', __pg_now(), x AS \"name\", t.a, __pg_lower(s), e, ~ 'q'",
    );
    const local = pass((t) => rewriteWords(t, ctx, true));
    assert.equal(
      local("SELECT version(), current_user, now() FROM pg_index WHERE indisprimary = 't'"),
      'SELECT version(), current_user(), __pg_now() FROM pg_index WHERE indisprimary = 1',
    );
    assert.equal(words('SELECT OPERATOR('), 'SELECT OPERATOR(');
  });

  it('set-returning functions in FROM and select lists become joins SQLite runs', () => {
    const srf = pass((t) => rewriteSetReturning(t, false));
    assert.equal(srf('SELECT x FROM unnest(a) AS v'), 'SELECT x FROM(SELECT value AS v FROM unnest(a)) v');
    assert.equal(
      srf('SELECT i FROM generate_series(1, 3) AS i'),
      'SELECT i FROM(SELECT value AS i FROM generate_series(1, 3)) i',
    );
    // (calls in a select list, SQLAlchemy's `unnest(k) a, generate_subscripts(k, 1) b`, are joined
    // before this pass: test/unit/pg-set-returning.test.ts)
    assert.equal(
      srf('SELECT g FROM generate_subscripts(k, 1) AS g'),
      'SELECT g FROM(SELECT value AS g FROM generate_subscripts(k, 1)) g',
    );
    assert.equal(srf('SELECT 1 FROM generate_series('), 'SELECT 1 FROM generate_series(');
  });

  it('translate runs the passes in order over one statement', () => {
    assert.equal(
      translate(
        lexPg(
          "SELECT id::text, ARRAY[1,2] FROM public.users WHERE name ILIKE $1 AND created > now() - INTERVAL '1 day' ORDER BY 1 / 2",
        ),
        ctx,
        false,
      ),
      "SELECT CAST(id AS TEXT), __pg_array(1, 2) FROM users WHERE name GLOB __pg_ilike_glob($1) AND created > __pg_add_interval(__pg_now(), __pg_interval('1 day'), -1) ORDER BY 1 / __pg_divisor(2) NULLS LAST",
    );
    assert.equal(translate(lexPg(''), ctx, false), '');
    assert.equal(typeof translate(lexPg('SELECT ((( FROM'), ctx, false), 'string');
  });
  it('grouping sets expand in PostgreSQL order: ROLLUP, CUBE, GROUPING SETS, crossed; too many is null', () => {
    const e = (x: string) => ({ expr: x });
    assert.deepEqual(expandGroupingSets([{ kind: 'rollup', content: [e('a'), e('b')] }]), [['a', 'b'], ['a'], []]);
    assert.deepEqual(expandGroupingSets([{ kind: 'cube', content: [e('a'), e('b')] }]), [['a', 'b'], ['a'], ['b'], []]);
    assert.deepEqual(
      expandGroupingSets([e('x'), { kind: 'sets', content: [{ row: ['a', 'b'] }, { kind: 'empty' }, e('c')] }]),
      [['x', 'a', 'b'], ['x'], ['x', 'c']],
    );
    assert.deepEqual(expandGroupingSets([{ kind: 'rollup', content: [{ row: ['a', 'b'] }, e('c')] }]), [
      ['a', 'b', 'c'],
      ['a', 'b'],
      [],
    ]);
    const thirteen = Array.from({ length: 13 }, (_, k) => e(`c${k}`));
    assert.equal(expandGroupingSets([{ kind: 'cube', content: thirteen }]), null);
  });

  it('locking clauses come out whole (OF, NOWAIT, SKIP LOCKED); FOR in substring stays', () => {
    const lock = pass(rewriteLocking);
    assert.equal(lock('SELECT id FROM t WHERE id = $1 FOR UPDATE'), 'SELECT id FROM t WHERE id = $1');
    assert.equal(
      lock('SELECT * FROM t a, u b FOR NO KEY UPDATE OF a, b NOWAIT LIMIT 1'),
      'SELECT * FROM t a, u b LIMIT 1',
    );
    assert.equal(lock('SELECT 1 FROM t FOR SHARE OF public.t SKIP LOCKED FOR KEY SHARE'), 'SELECT 1 FROM t');
    assert.equal(lock('SELECT substring(x FROM 1 FOR 2) FROM t'), 'SELECT substring(x FROM 1 FOR 2) FROM t');
  });

  it('a function of one value in FROM is a one-row subquery named by its alias', () => {
    const from = pass(rewriteScalarFrom);
    assert.equal(
      from('SELECT * FROM current_schema()'),
      'SELECT * FROM(SELECT current_schema() AS "current_schema") AS "current_schema"',
    );
    assert.equal(from('SELECT x FROM t, now() AS n(x)'), 'SELECT x FROM t, (SELECT now() AS "x") AS "n"');
    // a table named like a function, and a call outside FROM, stay
    assert.equal(from('SELECT lower(x) FROM lower'), 'SELECT lower(x) FROM lower');
  });
  it('a set operation of exact numerics groups by __pg_numeric_key, the first row kept; a value of known scale at it (marks as the analysis sets them)', () => {
    const marked = (sql: string, marks: [number, string][]) =>
      joinTokens(
        rewriteIntervalDistinct(
          rewriteNumericAt(
            toks(sql).map((t, i) => {
              const m = marks.find(([at]) => at === i);
              return m ? { ...t, sortKey: m[1] } : t;
            }),
          ),
        ),
      );
    // the first member's unnamed item named for it, its rows numbered, the least of a group kept
    assert.equal(
      marked('SELECT avg(x) FROM t UNION SELECT y FROM u ORDER BY 1', [[1, 'iv-union:gx:[{"as":"avg"}]']]),
      'SELECT "avg" FROM (SELECT *, min("__pg_seq") FROM (SELECT *, row_number() OVER () AS "__pg_seq" FROM (SELECT avg(x) AS "avg" FROM t UNION ALL SELECT y FROM u) ) GROUP BY __pg_numeric_key("avg") ) AS "__pg_u" ORDER BY (CASE WHEN "avg" = \'NaN\' THEN \'NaN\' ELSE CAST("avg" AS REAL) END)',
    );
    // a first member's numeric at its scale in the mark, another's by its own ('numx-at'); sorted only
    assert.equal(
      marked('SELECT n AS a FROM t UNION ALL SELECT n + 1 FROM u ORDER BY a', [
        [1, 'iv-union:sx:[{"as":"a","at":2}]'],
        [9, 'numx-at:2'],
      ]),
      'SELECT * FROM(SELECT __pg_numeric_at(n, 2) AS "a" FROM t UNION ALL SELECT __pg_numeric_at(n + 1, 2) FROM u) AS "__pg_u" ORDER BY (CASE WHEN "a" = \'NaN\' THEN \'NaN\' ELSE CAST("a" AS REAL) END)',
    );
    // a CASE's value, and a float8 column's exact value made a double
    assert.equal(
      joinTokens(
        rewriteNumericAt(
          toks('SELECT CASE WHEN a THEN avg(x) ELSE max(n) END, avg(x) AS v FROM t').map((t, i) =>
            i === 10 ? { ...t, sortKey: 'numx-at:2' } : i === 16 ? { ...t, sortKey: 'numx-real' } : t,
          ),
        ),
      ),
      'SELECT CASE WHEN a THEN avg(x) ELSE __pg_numeric_at(max(n), 2) END, __pg_numeric_real(avg(x)) AS v FROM t',
    );
  });
  it('SELECT DISTINCT and UNION of intervals group by their length (marks as the analysis sets them)', () => {
    // the n-th token (counting from 0, no spaces) marked with `key`
    const marked = (sql: string, at: number, key: string) =>
      joinTokens(
        rewriteIntervalGroups(
          rewriteIntervalDistinct(toks(sql).map((t, i) => (i === at ? { ...t, sortKey: key } : t))),
        ),
      );
    assert.equal(
      marked('SELECT DISTINCT a, iv AS d FROM t WHERE a > 1 ORDER BY d LIMIT 2', 4, 'iv-distinct:d'),
      'SELECT a, iv AS d FROM t WHERE a > 1 GROUP BY 1, __pg_interval_key(iv) ORDER BY d LIMIT 2',
    );
    assert.equal(
      marked('SELECT n FROM (SELECT DISTINCT iv * 2 x FROM t) s', 6, 'iv-distinct:x'),
      'SELECT n FROM(SELECT iv * 2 x FROM t GROUP BY __pg_interval_key(iv * 2)) s',
    );
    assert.equal(
      marked(
        'SELECT a, iv FROM t UNION SELECT b, c FROM u UNION ALL SELECT 1, NULL ORDER BY 2 DESC, a LIMIT 1',
        1,
        'iv-union:gni:["a","iv"]',
      ),
      'SELECT * FROM(SELECT a, iv FROM t UNION ALL SELECT b, c FROM u UNION ALL SELECT 1, NULL) AS "__pg_u" GROUP BY 1, __pg_interval_key("iv") ORDER BY __pg_interval_key("iv") DESC, a LIMIT 1',
    );
    // another set operation: only sorted, and only when it has an ORDER BY
    assert.equal(
      marked('SELECT a, iv FROM t EXCEPT SELECT b, c FROM u ORDER BY iv', 1, 'iv-union:sni:["a","iv"]'),
      'SELECT * FROM(SELECT a, iv FROM t EXCEPT SELECT b, c FROM u) AS "__pg_u" ORDER BY __pg_interval_key("iv")',
    );
    assert.equal(
      marked('SELECT a, iv FROM t UNION ALL SELECT b, c FROM u', 1, 'iv-union:sni:["a","iv"]'),
      'SELECT a, iv FROM t UNION ALL SELECT b, c FROM u',
    );
    // no UNION where the mark is (a member in parentheses): as it was
    assert.equal(
      marked('SELECT * FROM (SELECT iv FROM t) s', 4, 'iv-union:gi:["iv"]'),
      'SELECT * FROM(SELECT iv FROM t) s',
    );
  });
});
