"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The translation passes of protocols/pg/sql/translate/, one by one on tokens, and translate() on a
// whole statement; bad input (unclosed brackets, a cast with no type, a missing table) must come
// back as text SQLite then refuses, never an exception or a loop.
const strict_1 = __importDefault(require("node:assert/strict"));
const lexer_1 = require("../../../protocols/pg/sql/lexer");
const tokens_1 = require("../../../protocols/pg/sql/tokens");
const arrays_1 = require("../../../protocols/pg/sql/translate/arrays");
const casts_1 = require("../../../protocols/pg/sql/translate/casts");
const date_syntax_1 = require("../../../protocols/pg/sql/translate/date-syntax");
const division_1 = require("../../../protocols/pg/sql/translate/division");
const insert_defaults_1 = require("../../../protocols/pg/sql/translate/insert-defaults");
const interval_distinct_1 = require("../../../protocols/pg/sql/translate/interval-distinct");
const null_order_1 = require("../../../protocols/pg/sql/translate/null-order");
const json_values_1 = require("../../../protocols/pg/sql/translate/json-values");
const grouping_sets_1 = require("../../../protocols/pg/sql/grouping-sets");
const locking_1 = require("../../../protocols/pg/sql/translate/locking");
const scalar_from_1 = require("../../../protocols/pg/sql/translate/scalar-from");
const set_returning_1 = require("../../../protocols/pg/sql/translate/set-returning");
const translate_1 = require("../../../protocols/pg/sql/translate/translate");
const typeof_1 = require("../../../protocols/pg/sql/translate/typeof");
const words_1 = require("../../../protocols/pg/sql/translate/words");
const toks = (sql) => (0, lexer_1.lexPg)(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
const pass = (rewrite) => (sql) => (0, tokens_1.joinTokens)(rewrite(toks(sql)));
const ctx = {
    user: 'alice',
    database: 'db1',
    version: 'PostgreSQL 15.0 (Patina)',
    columns: (table) => table === 'users'
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
        const casts = pass(casts_1.rewriteCasts);
        strict_1.default.equal(casts("SELECT x::int, '12'::bigint, y::numeric"), "SELECT __pg_int(x, 'integer'), __pg_int('12', 'bigint'), __pg_to_numeric(y)");
        strict_1.default.equal(casts("SELECT 'yes'::boolean, '\\x0aff'::bytea, '{ a , b }'::text[], tags::bigint[]"), "SELECT __pg_bool('yes'), X'0aff', '{a,b}', __pg_array_in(tags, 'bigint', 1)");
        // an array literal is read as array_in reads it, at translation
        strict_1.default.throws(() => casts("SELECT 'a'::text[]"), /malformed array literal: "a"/);
        strict_1.default.equal(casts("SELECT '2026-01-02'::date, '2026-01-02 03:04:05+02'::timestamptz, '7 days'::interval"), "SELECT '2026-01-02', '2026-01-02 01:04:05', __pg_interval('7 days')");
        strict_1.default.equal(casts('SELECT a.b::pg_catalog.int8, x::double precision'), "SELECT __pg_int(a.b, 'bigint'), __pg_float(x, 'double precision')");
        // a literal that is no date is left to the function, which reports it when the statement runs
        strict_1.default.equal(casts("SELECT 'not a date'::date"), "SELECT __pg_date('not a date')");
        // the operand after ')' is the whole value: a call, its field, a qualified call
        strict_1.default.equal(casts('SELECT f(a).b::int'), "SELECT __pg_int(f(a).b, 'integer')");
        strict_1.default.equal(casts('SELECT (f(a)).b::int'), "SELECT __pg_int((f(a)).b, 'integer')");
        strict_1.default.equal(casts('SELECT s.f(a)::int + 1'), "SELECT __pg_int(s.f(a), 'integer') + 1");
        strict_1.default.equal(casts('SELECT NULL::int, (1)::text'), "SELECT __pg_int(NULL, 'integer'), CAST((1) AS TEXT)");
    });
    it('casts with nothing to cast or no type are syntax errors (42601), as PostgreSQL parses them', () => {
        const casts = pass(casts_1.rewriteCasts);
        for (const [sql, message] of [
            ['SELECT ::int', 'syntax error at or near "::"'],
            ['::int', 'syntax error at or near "::"'],
            ['SELECT 1, ::int', 'syntax error at or near "::"'],
            ['SELECT (::int)', 'syntax error at or near "::"'],
            ['SELECT 1 WHERE ::int = 1', 'syntax error at or near "::"'],
            ['SELECT x::', 'syntax error at end of input'],
            ['SELECT x::, y', 'syntax error at or near ","'],
        ]) {
            strict_1.default.throws(() => casts(sql), { sqlstate: '42601', message }, sql);
        }
    });
    it('CAST(x AS type) as PostgreSQL means it, innermost first; SQLite spellings and bad forms left alone', () => {
        const calls = pass(casts_1.rewriteCastCalls);
        strict_1.default.equal(calls('SELECT CAST(x AS integer), CAST(y AS BLOB), CAST(CAST(z AS text) AS int)'), "SELECT __pg_int(x, 'integer'), CAST(y AS BLOB), __pg_int(CAST(z AS TEXT), 'integer')");
        strict_1.default.equal(calls('SELECT CAST(x integer)'), 'SELECT CAST(x integer)');
        strict_1.default.equal(calls('SELECT CAST('), 'SELECT CAST(');
    });
    it('arrays: ANY/ALL as IN lists, ARRAY constructors, 1-based subscripts', () => {
        const arrays = pass(arrays_1.rewriteArrays);
        strict_1.default.equal(arrays('SELECT 1 WHERE id = ANY($1) AND id <> ALL(ARRAY[1,2])'), "SELECT 1 WHERE id IN (SELECT value FROM __pg_elems_as(ifnull( $1 , x'00'), '')) AND id NOT IN(1, 2)");
        strict_1.default.equal(arrays('SELECT ARRAY[1,2,3], (a)[2], tags[1], ARRAY(SELECT id FROM t)'), 'SELECT __pg_array(1, 2, 3), __pg_elem((a), 2), __pg_elem(tags, 1), (WITH __a(v) AS(SELECT id FROM t) SELECT __pg_array_agg(v) FROM __a)');
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
            strict_1.default.throws(() => arrays(sql), { sqlstate: '42601', message: 'syntax error at end of input' }, sql);
        }
    });
    it('JSON builders: a recognisably boolean argument is true/false, once; CASE, arithmetic and subqueries are left', () => {
        const json = pass((t) => (0, json_values_1.rewriteJsonValues)(t, { columnType: () => null, columns: () => null }));
        const asJson = (e) => `json(CASE(${e}) WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)`;
        strict_1.default.equal(json("SELECT json_build_object('a', x > 1, 'b', (y IS NULL), 'c', NOT z)"), `SELECT json_build_object('a', ${asJson('x > 1')}, 'b', ${asJson('(y IS NULL)')}, 'c', ${asJson('NOT z')})`);
        strict_1.default.equal(json('SELECT json_build_array(a AND b, c IN (1, 2))'), `SELECT json_build_array(${asJson('a AND b')}, ${asJson('c IN(1, 2)')})`);
        strict_1.default.equal(json("SELECT json_build_array(x + 1, CASE WHEN x > 1 THEN 'a' END, (SELECT x = 1), f(x = 1), (x > 1)::text)"), "SELECT json_build_array(x + 1, CASE WHEN x > 1 THEN 'a' END, (SELECT x = 1), f(x = 1), (x > 1) :: text)");
    });
    it('date syntax: EXTRACT, typed literals, INTERVAL n unit, AT TIME ZONE UTC only', () => {
        const dates = pass(date_syntax_1.rewriteDateSyntax);
        strict_1.default.equal(dates("SELECT EXTRACT(year FROM d), DATE '2026-01-01', INTERVAL '3' DAY, t AT TIME ZONE 'UTC'"), "SELECT date_part('year', d), '2026-01-01' :: date, '3 day' :: interval, t");
        strict_1.default.equal(dates("SELECT TIMESTAMP WITH TIME ZONE '2026-01-01 00:00:00+00', t AT TIME ZONE 'Europe/Paris'"), "SELECT '2026-01-01 00:00:00+00' :: timestamptz, t AT TIME ZONE 'Europe/Paris'");
        strict_1.default.equal(dates('SELECT EXTRACT('), 'SELECT EXTRACT(');
        strict_1.default.equal(dates('SELECT DATE'), 'SELECT DATE');
    });
    it('division: each divisor one operand through __pg_divisor; a lone / is left alone', () => {
        const division = pass(division_1.rewriteDivision);
        strict_1.default.equal(division('SELECT a / b, c % (d + 1), e / -f.g, h / CASE WHEN x THEN 0 ELSE 1 END, i / fn(j)'), 'SELECT a / __pg_divisor(b), c % __pg_divisor((d + 1)), e / __pg_divisor(- f.g), h / __pg_divisor(CASE WHEN x THEN 0 ELSE 1 END), i / __pg_divisor(fn(j))');
        strict_1.default.equal(division('SELECT 1 /'), 'SELECT 1 /');
        strict_1.default.equal(division('SELECT / 2'), 'SELECT / 2');
    });
    it('DEFAULT in VALUES: the column default from the schema, NULL without one; unknown tables untouched', () => {
        const defaults = pass((t) => (0, insert_defaults_1.rewriteInsertDefaults)(t, ctx));
        strict_1.default.equal(defaults("INSERT INTO users (id, name, n) VALUES (DEFAULT, 'a', DEFAULT), (1, DEFAULT, 2)"), "INSERT INTO users(id, name, n) VALUES((patina_id()), 'a', (42)), (1, NULL, 2)");
        strict_1.default.equal(defaults("INSERT INTO users VALUES (DEFAULT, 'x', DEFAULT)"), "INSERT INTO users VALUES((patina_id()), 'x', (42))");
        strict_1.default.equal(defaults('INSERT INTO nosuch (a) VALUES (DEFAULT)'), 'INSERT INTO nosuch(a) VALUES(DEFAULT)');
        // DEFAULT inside an expression is not the column's default: SQLite refuses it, as PostgreSQL does
        strict_1.default.equal(defaults('INSERT INTO users (id) VALUES (coalesce(DEFAULT, 1))'), 'INSERT INTO users(id) VALUES(coalesce(DEFAULT, 1))');
        strict_1.default.equal(defaults('INSERT INTO users (id, name) VALUES (DEFAULT'), 'INSERT INTO users(id, name) VALUES(DEFAULT');
        strict_1.default.equal(defaults('INSERT INTO'), 'INSERT INTO');
    });
    it('pg_typeof: the type the SQL gives, else the value type at run time', () => {
        const typeOf = pass((t) => (0, typeof_1.rewriteTypeof)(t, ctx));
        strict_1.default.equal(typeOf("SELECT pg_typeof(1), pg_typeof(3000000000), pg_typeof(1.5), pg_typeof('x'), pg_typeof(true), pg_typeof(x::int[]), pg_typeof(id), pg_typeof(users.name)"), "SELECT 'integer', 'bigint', 'numeric', 'unknown', 'boolean', 'integer[]', 'bigint', 'text'");
        strict_1.default.equal(typeOf('SELECT pg_typeof(zz), pg_typeof(a + b)'), 'SELECT __pg_typeof(zz), __pg_typeof(a + b)');
        strict_1.default.equal(typeOf('SELECT pg_typeof()'), 'SELECT __pg_typeof()');
        strict_1.default.equal(typeOf('SELECT pg_typeof('), 'SELECT __pg_typeof(');
    });
    it('words: operators, renamed functions, aliases, session values off the catalog connection', () => {
        const words = pass((t) => (0, words_1.rewriteWords)(t, ctx, false));
        strict_1.default.equal(words("SELECT a ~ 'x', b !~* 'y', c ILIKE 'z', string_agg(d, ','), version(), current_user, now(), x AS Name, public.t.a, pg_catalog.lower(s), e COLLATE \"C\", OPERATOR(pg_catalog.~) 'q'"), 
        // `~` after a comma is the prefix bitwise NOT, left as SQLite spells it
        "SELECT a REGEXP 'x', b NOT REGEXP '(?i)' || 'y', c LIKE 'z', group_concat(d, ','), 'PostgreSQL 15.0 (Patina)', 'alice', strftime('%Y-%m-%d %H:%M:%f+00','now'), x AS \"name\", t.a, __pg_lower(s), e, ~ 'q'");
        const local = pass((t) => (0, words_1.rewriteWords)(t, ctx, true));
        strict_1.default.equal(local("SELECT version(), current_user, now() FROM pg_index WHERE indisprimary = 't'"), "SELECT version(), current_user(), strftime('%Y-%m-%d %H:%M:%f+00','now') FROM pg_index WHERE indisprimary = 1");
        strict_1.default.equal(words('SELECT OPERATOR('), 'SELECT OPERATOR(');
    });
    it('set-returning functions in FROM and select lists become joins SQLite runs', () => {
        const srf = pass((t) => (0, set_returning_1.rewriteSetReturning)(t, false));
        strict_1.default.equal(srf('SELECT x FROM unnest(a) AS v'), 'SELECT x FROM(SELECT value AS v FROM unnest(a)) v');
        strict_1.default.equal(srf('SELECT i FROM generate_series(1, 3) AS i'), 'SELECT i FROM(SELECT value AS i FROM generate_series(1, 3)) i');
        strict_1.default.equal(srf('SELECT unnest(k) a, generate_subscripts(k, 1) b FROM t u'), 'SELECT __e.value AS a, __e.key + 1 AS b FROM t u, __pg_elems(k) __e');
        strict_1.default.equal(srf('SELECT 1 FROM generate_series('), 'SELECT 1 FROM generate_series(');
    });
    it('translate runs the passes in order over one statement', () => {
        strict_1.default.equal((0, translate_1.translate)((0, lexer_1.lexPg)("SELECT id::text, ARRAY[1,2] FROM public.users WHERE name ILIKE $1 AND created > now() - INTERVAL '1 day' ORDER BY 1 / 2"), ctx, false), "SELECT CAST(id AS TEXT), __pg_array(1, 2) FROM users WHERE name GLOB __pg_ilike_glob($1) AND created > __pg_add_interval(strftime('%Y-%m-%d %H:%M:%f+00','now'), __pg_interval('1 day'), -1) ORDER BY 1 / __pg_divisor(2) NULLS LAST");
        strict_1.default.equal((0, translate_1.translate)((0, lexer_1.lexPg)(''), ctx, false), '');
        strict_1.default.equal(typeof (0, translate_1.translate)((0, lexer_1.lexPg)('SELECT ((( FROM'), ctx, false), 'string');
    });
    it('grouping sets expand in PostgreSQL order: ROLLUP, CUBE, GROUPING SETS, crossed; too many is null', () => {
        const e = (x) => ({ expr: x });
        strict_1.default.deepEqual((0, grouping_sets_1.expandGroupingSets)([{ kind: 'rollup', content: [e('a'), e('b')] }]), [['a', 'b'], ['a'], []]);
        strict_1.default.deepEqual((0, grouping_sets_1.expandGroupingSets)([{ kind: 'cube', content: [e('a'), e('b')] }]), [['a', 'b'], ['a'], ['b'], []]);
        strict_1.default.deepEqual((0, grouping_sets_1.expandGroupingSets)([e('x'), { kind: 'sets', content: [{ row: ['a', 'b'] }, { kind: 'empty' }, e('c')] }]), [['x', 'a', 'b'], ['x'], ['x', 'c']]);
        strict_1.default.deepEqual((0, grouping_sets_1.expandGroupingSets)([{ kind: 'rollup', content: [{ row: ['a', 'b'] }, e('c')] }]), [
            ['a', 'b', 'c'],
            ['a', 'b'],
            [],
        ]);
        const thirteen = Array.from({ length: 13 }, (_, k) => e(`c${k}`));
        strict_1.default.equal((0, grouping_sets_1.expandGroupingSets)([{ kind: 'cube', content: thirteen }]), null);
    });
    it('locking clauses come out whole (OF, NOWAIT, SKIP LOCKED); FOR in substring stays', () => {
        const lock = pass(locking_1.rewriteLocking);
        strict_1.default.equal(lock('SELECT id FROM t WHERE id = $1 FOR UPDATE'), 'SELECT id FROM t WHERE id = $1');
        strict_1.default.equal(lock('SELECT * FROM t a, u b FOR NO KEY UPDATE OF a, b NOWAIT LIMIT 1'), 'SELECT * FROM t a, u b LIMIT 1');
        strict_1.default.equal(lock('SELECT 1 FROM t FOR SHARE OF public.t SKIP LOCKED FOR KEY SHARE'), 'SELECT 1 FROM t');
        strict_1.default.equal(lock('SELECT substring(x FROM 1 FOR 2) FROM t'), 'SELECT substring(x FROM 1 FOR 2) FROM t');
    });
    it('a function of one value in FROM is a one-row subquery named by its alias', () => {
        const from = pass(scalar_from_1.rewriteScalarFrom);
        strict_1.default.equal(from('SELECT * FROM current_schema()'), 'SELECT * FROM(SELECT current_schema() AS "current_schema") AS "current_schema"');
        strict_1.default.equal(from('SELECT x FROM t, now() AS n(x)'), 'SELECT x FROM t, (SELECT now() AS "x") AS "n"');
        // a table named like a function, and a call outside FROM, stay
        strict_1.default.equal(from('SELECT lower(x) FROM lower'), 'SELECT lower(x) FROM lower');
    });
    it('SELECT DISTINCT and UNION of intervals group by their length (marks as the analysis sets them)', () => {
        // the n-th token (counting from 0, no spaces) marked with `key`
        const marked = (sql, at, key) => (0, tokens_1.joinTokens)((0, null_order_1.rewriteIntervalGroups)((0, interval_distinct_1.rewriteIntervalDistinct)(toks(sql).map((t, i) => (i === at ? { ...t, sortKey: key } : t)))));
        strict_1.default.equal(marked('SELECT DISTINCT a, iv AS d FROM t WHERE a > 1 ORDER BY d LIMIT 2', 4, 'iv-distinct:d'), 'SELECT a, iv AS d FROM t WHERE a > 1 GROUP BY 1, __pg_interval_key(iv) ORDER BY d LIMIT 2');
        strict_1.default.equal(marked('SELECT n FROM (SELECT DISTINCT iv * 2 x FROM t) s', 6, 'iv-distinct:x'), 'SELECT n FROM(SELECT iv * 2 x FROM t GROUP BY __pg_interval_key(iv * 2)) s');
        strict_1.default.equal(marked('SELECT a, iv FROM t UNION SELECT b, c FROM u UNION ALL SELECT 1, NULL ORDER BY 2 DESC, a LIMIT 1', 1, 'iv-union:gni:["a","iv"]'), 'SELECT * FROM(SELECT a, iv FROM t UNION ALL SELECT b, c FROM u UNION ALL SELECT 1, NULL) AS "__pg_u" GROUP BY 1, __pg_interval_key("iv") ORDER BY __pg_interval_key("iv") DESC, a LIMIT 1');
        // another set operation: only sorted, and only when it has an ORDER BY
        strict_1.default.equal(marked('SELECT a, iv FROM t EXCEPT SELECT b, c FROM u ORDER BY iv', 1, 'iv-union:sni:["a","iv"]'), 'SELECT * FROM(SELECT a, iv FROM t EXCEPT SELECT b, c FROM u) AS "__pg_u" ORDER BY __pg_interval_key("iv")');
        strict_1.default.equal(marked('SELECT a, iv FROM t UNION ALL SELECT b, c FROM u', 1, 'iv-union:sni:["a","iv"]'), 'SELECT a, iv FROM t UNION ALL SELECT b, c FROM u');
        // no UNION where the mark is (a member in parentheses): as it was
        strict_1.default.equal(marked('SELECT * FROM (SELECT iv FROM t) s', 4, 'iv-union:gi:["iv"]'), 'SELECT * FROM(SELECT iv FROM t) s');
    });
});
//# sourceMappingURL=translate.test.js.map