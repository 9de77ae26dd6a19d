"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The pure rewrites of PostgreSQL meanings (translate/like.ts, null-order.ts, greatest-least.ts,
// values-alias.ts, jsonb-ops.ts) and the LIKE pattern conversion they call
// (test/pg/semantics-oracle.test.ts runs the same meanings against PostgreSQL 15).
const strict_1 = __importDefault(require("node:assert/strict"));
const lexer_1 = require("../../../protocols/pg/sql/lexer");
const greatest_least_1 = require("../../../protocols/pg/sql/translate/greatest-least");
const jsonb_ops_1 = require("../../../protocols/pg/sql/translate/jsonb-ops");
const like_1 = require("../../../protocols/pg/sql/translate/like");
const null_order_1 = require("../../../protocols/pg/sql/translate/null-order");
const values_alias_1 = require("../../../protocols/pg/sql/translate/values-alias");
const pg_functions_1 = require("../../../src/engine/pg-functions");
const toks = (sql) => (0, lexer_1.lexPg)(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
const text = (t) => t.map((x) => x.text).join(' ');
describe('PostgreSQL meanings kept in SQLite', () => {
    it('LIKE patterns become GLOB patterns: % _ and \\ escapes; GLOB specials taken literally', () => {
        strict_1.default.equal((0, pg_functions_1.likeToGlob)('a%b_c'), 'a*b?c');
        strict_1.default.equal((0, pg_functions_1.likeToGlob)('100\\%'), '100%');
        strict_1.default.equal((0, pg_functions_1.likeToGlob)('x*y?[z]'), 'x[*]y[?][[]z]');
        strict_1.default.equal((0, pg_functions_1.likeToGlob)('a#_', '#'), 'a_');
        strict_1.default.equal((0, pg_functions_1.likeToGlob)('a\\b', ''), 'a\\b');
        strict_1.default.equal((0, pg_functions_1.likeToGlob)('Éa%', '\\', true), '[Éé][aA]*');
        strict_1.default.throws(() => (0, pg_functions_1.likeToGlob)('a\\'), (e) => /must not end with escape/.test(e.message));
        strict_1.default.throws(() => (0, pg_functions_1.likeToGlob)('a', '##'), (e) => /one character/.test(e.message));
    });
    it('LIKE, ILIKE and their operators call the GLOB conversion on the pattern operand only', () => {
        strict_1.default.equal(text((0, like_1.rewriteLike)(toks("SELECT a LIKE 'x%' AND b"))), "SELECT a GLOB __pg_like_glob ( 'x%' ) AND b");
        strict_1.default.equal(text((0, like_1.rewriteLike)(toks("SELECT a NOT ILIKE '%' || $1 || '%' ESCAPE '!'"))), "SELECT a NOT GLOB __pg_ilike_glob ( '%' || $1 || '%' , '!' )");
        strict_1.default.equal(text((0, like_1.rewriteLike)(toks("SELECT a !~~* 'x'"))), "SELECT a NOT GLOB __pg_ilike_glob ( 'x' )");
        strict_1.default.throws(() => (0, like_1.rewriteLike)(toks("SELECT a LIKE ANY (ARRAY['x'])")), (e) => e.sqlstate === '0A000');
        strict_1.default.throws(() => (0, like_1.rewriteLike)(toks("SELECT a LIKE 'x' + 1")), (e) => e.sqlstate === '0A000');
    });
    it('ORDER BY terms get PostgreSQL NULL order unless the column is NOT NULL everywhere and not an alias', () => {
        const notNull = (c) => c === 'id';
        strict_1.default.equal(text((0, null_order_1.rewriteNullOrder)(toks('SELECT * FROM t ORDER BY id, name DESC, 2 LIMIT 3'), notNull)), 'SELECT * FROM t ORDER BY id , name DESC NULLS FIRST , 2 NULLS LAST LIMIT 3');
        strict_1.default.equal(text((0, null_order_1.rewriteNullOrder)(toks('SELECT x AS id FROM t ORDER BY id'), notNull)), 'SELECT x AS id FROM t ORDER BY id NULLS LAST');
        strict_1.default.equal(text((0, null_order_1.rewriteNullOrder)(toks('SELECT row_number() OVER (ORDER BY a NULLS FIRST) FROM t ORDER BY t.id'), notNull)), 'SELECT row_number ( ) OVER ( ORDER BY a NULLS FIRST ) FROM t ORDER BY t . id');
    });
    it('greatest and least skip NULLs: max/min of rotated coalesces; one argument is itself', () => {
        strict_1.default.equal(text((0, greatest_least_1.rewriteGreatestLeast)(toks('SELECT greatest(a, b)'))), 'SELECT max ( coalesce ( ( a ) , ( b ) ) , coalesce ( ( b ) , ( a ) ) )');
        strict_1.default.equal(text((0, greatest_least_1.rewriteGreatestLeast)(toks('SELECT least(x)'))), 'SELECT ( x )');
    });
    it('a VALUES list with column names in its alias becomes a subquery naming column1, column2, ...', () => {
        strict_1.default.equal(text((0, values_alias_1.rewriteValuesAlias)(toks("SELECT * FROM (VALUES (1, 'a')) AS v(n, s)"))), "SELECT * FROM ( SELECT column1 AS n , column2 AS s FROM ( VALUES ( 1 , 'a' ) ) ) AS v");
        strict_1.default.equal(text((0, values_alias_1.rewriteValuesAlias)(toks('SELECT * FROM (VALUES (1)) v("X")'))), 'SELECT * FROM ( SELECT column1 AS "X" FROM ( VALUES ( 1 ) ) ) AS v');
        for (const sql of ['SELECT * FROM (VALUES (1)) AS v', 'INSERT INTO t (a) VALUES (1)', 'SELECT f((VALUES (1)))'])
            strict_1.default.equal(text((0, values_alias_1.rewriteValuesAlias)(toks(sql))), text(toks(sql)), sql);
    });
    it("jsonb's operators become calls with PostgreSQL's precedence: arithmetic inside, comparison outside, from the left", () => {
        const j = (sql) => text((0, jsonb_ops_1.rewriteJsonbOps)(toks(sql)));
        strict_1.default.equal(j("a @> '{}'"), "__pg_jsonb_contains ( a , '{}' )");
        strict_1.default.equal(j("x = t.d -> 'k' @> $1::jsonb"), "x = __pg_jsonb_contains ( t . d -> 'k' , $1 :: jsonb )");
        strict_1.default.equal(j("d #>> '{a}' || 'x'"), "__pg_jsonb_path_text ( d , '{a}' ) || 'x'");
        strict_1.default.equal(j("f(d) ? 'k' AND d ?| ARRAY['a', 'b']"), "__pg_jsonb_exists ( f ( d ) , 'k' ) AND __pg_jsonb_exists_any ( d , json_array ( 'a' , 'b' ) )");
        strict_1.default.equal(j("(a) @> (b) ? 'z'"), "__pg_jsonb_exists ( __pg_jsonb_contains ( ( a ) , ( b ) ) , 'z' )");
        strict_1.default.equal(j('d #> p[1] <@ e'), '__pg_jsonb_contained ( __pg_jsonb_path ( d , p [ 1 ] ) , e )');
        strict_1.default.equal(j('a @> b + c'), '__pg_jsonb_contains ( a , b + c )');
        for (const [sql, op] of [
            ["SELECT @> '{}'", '@>'],
            ['SELECT ?', '?'],
            ['SELECT a #>', '#>'],
            ["SELECT a @> '{}'::varchar(", '@>'],
        ])
            strict_1.default.throws(() => j(sql), (e) => e.sqlstate === '0A000' && e.message.includes(`operator ${op} here`), sql);
    });
});
//# sourceMappingURL=pg-semantics.test.js.map