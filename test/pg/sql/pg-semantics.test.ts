// The pure rewrites of PostgreSQL meanings (translate/like.ts, null-order.ts, greatest-least.ts,
// values-alias.ts, jsonb-ops.ts) and the LIKE pattern conversion they call
// (test/pg/semantics-oracle.test.ts runs the same meanings against PostgreSQL 15).
import assert from 'node:assert/strict';
import { lexPg } from '../../../protocols/pg/sql/lexer';
import type { Tok } from '../../../protocols/pg/sql/tokens';
import { rewriteGreatestLeast } from '../../../protocols/pg/sql/translate/greatest-least';
import { rewriteJsonbOps } from '../../../protocols/pg/sql/translate/jsonb-ops';
import { rewriteLike } from '../../../protocols/pg/sql/translate/like';
import { rewriteNullOrder } from '../../../protocols/pg/sql/translate/null-order';
import { rewriteValuesAlias } from '../../../protocols/pg/sql/translate/values-alias';
import { likeToGlob } from '../../../src/engine/pg-functions';

const toks = (sql: string) => lexPg(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
const text = (t: Tok[]) => t.map((x) => x.text).join(' ');

describe('PostgreSQL meanings kept in SQLite', () => {
  it('LIKE patterns become GLOB patterns: % _ and \\ escapes; GLOB specials taken literally', () => {
    assert.equal(likeToGlob('a%b_c'), 'a*b?c');
    assert.equal(likeToGlob('100\\%'), '100%');
    assert.equal(likeToGlob('x*y?[z]'), 'x[*]y[?][[]z]');
    assert.equal(likeToGlob('a#_', '#'), 'a_');
    assert.equal(likeToGlob('a\\b', ''), 'a\\b');
    assert.equal(likeToGlob('Éa%', '\\', true), '[Éé][aA]*');
    assert.throws(
      () => likeToGlob('a\\'),
      (e: { message: string }) => /must not end with escape/.test(e.message),
    );
    assert.throws(
      () => likeToGlob('a', '##'),
      (e: { message: string }) => /one character/.test(e.message),
    );
  });

  it('LIKE, ILIKE and their operators call the GLOB conversion on the pattern operand only', () => {
    assert.equal(text(rewriteLike(toks("SELECT a LIKE 'x%' AND b"))), "SELECT a GLOB __pg_like_glob ( 'x%' ) AND b");
    assert.equal(
      text(rewriteLike(toks("SELECT a NOT ILIKE '%' || $1 || '%' ESCAPE '!'"))),
      "SELECT a NOT GLOB __pg_ilike_glob ( '%' || $1 || '%' , '!' )",
    );
    assert.equal(text(rewriteLike(toks("SELECT a !~~* 'x'"))), "SELECT a NOT GLOB __pg_ilike_glob ( 'x' )");
    // LIKE ANY/ALL: the match over the elements (or the subquery's rows) as a WITH query, the left operand taken back
    assert.equal(
      text(rewriteLike(toks('SELECT a.b NOT ILIKE ALL (SELECT p FROM q)'))),
      'SELECT ( WITH __pg_q ( __pg_e ) AS ( SELECT p FROM q ) SELECT CASE WHEN min ( NOT ( a . b GLOB __pg_ilike_glob ( __pg_e ) ) ) = 0 THEN 0 WHEN count ( NOT ( a . b GLOB __pg_ilike_glob ( __pg_e ) ) ) < count ( * ) THEN NULL ELSE 1 END FROM __pg_q )',
    );
    assert.throws(
      () => rewriteLike(toks("SELECT a LIKE 'x' + 1")),
      (e: { sqlstate?: string }) => e.sqlstate === '0A000',
    );
  });

  it('ORDER BY terms get PostgreSQL NULL order unless the column is NOT NULL everywhere and not an alias', () => {
    const notNull = (c: string) => c === 'id';
    assert.equal(
      text(rewriteNullOrder(toks('SELECT * FROM t ORDER BY id, name DESC, 2 LIMIT 3'), notNull)),
      'SELECT * FROM t ORDER BY id , name DESC NULLS FIRST , 2 NULLS LAST LIMIT 3',
    );
    assert.equal(
      text(rewriteNullOrder(toks('SELECT x AS id FROM t ORDER BY id'), notNull)),
      'SELECT x AS id FROM t ORDER BY id NULLS LAST',
    );
    assert.equal(
      text(rewriteNullOrder(toks('SELECT row_number() OVER (ORDER BY a NULLS FIRST) FROM t ORDER BY t.id'), notNull)),
      'SELECT row_number ( ) OVER ( ORDER BY a NULLS FIRST ) FROM t ORDER BY t . id',
    );
  });

  it('greatest and least skip NULLs: max/min of rotated coalesces; one argument is itself', () => {
    assert.equal(
      text(rewriteGreatestLeast(toks('SELECT greatest(a, b)'))),
      'SELECT max ( coalesce ( ( a ) , ( b ) ) , coalesce ( ( b ) , ( a ) ) )',
    );
    assert.equal(text(rewriteGreatestLeast(toks('SELECT least(x)'))), 'SELECT ( x )');
  });

  it('a VALUES list with column names in its alias becomes a subquery naming column1, column2, ...', () => {
    assert.equal(
      text(rewriteValuesAlias(toks("SELECT * FROM (VALUES (1, 'a')) AS v(n, s)"))),
      "SELECT * FROM ( SELECT column1 AS n , column2 AS s FROM ( VALUES ( 1 , 'a' ) ) ) AS v",
    );
    assert.equal(
      text(rewriteValuesAlias(toks('SELECT * FROM (VALUES (1)) v("X")'))),
      'SELECT * FROM ( SELECT column1 AS "X" FROM ( VALUES ( 1 ) ) ) AS v',
    );
    for (const sql of ['SELECT * FROM (VALUES (1)) AS v', 'INSERT INTO t (a) VALUES (1)', 'SELECT f((VALUES (1)))'])
      assert.equal(text(rewriteValuesAlias(toks(sql))), text(toks(sql)), sql);
  });

  it("jsonb's operators become calls with PostgreSQL's precedence: arithmetic inside, comparison outside, from the left", () => {
    const j = (sql: string) => text(rewriteJsonbOps(toks(sql)));
    assert.equal(j("a @> '{}'"), "__pg_jsonb_contains ( a , '{}' )");
    assert.equal(j("x = t.d -> 'k' @> $1::jsonb"), "x = __pg_jsonb_contains ( t . d -> 'k' , $1 :: jsonb )");
    assert.equal(j("d #>> '{a}' || 'x'"), "__pg_jsonb_path_text ( d , '{a}' ) || 'x'");
    assert.equal(
      j("f(d) ? 'k' AND d ?| ARRAY['a', 'b']"),
      "__pg_jsonb_exists ( f ( d ) , 'k' ) AND __pg_jsonb_exists_any ( d , json_array ( 'a' , 'b' ) )",
    );
    assert.equal(j("(a) @> (b) ? 'z'"), "__pg_jsonb_exists ( __pg_jsonb_contains ( ( a ) , ( b ) ) , 'z' )");
    assert.equal(j('d #> p[1] <@ e'), '__pg_jsonb_contained ( __pg_jsonb_path ( d , p [ 1 ] ) , e )');
    assert.equal(j('a @> b + c'), '__pg_jsonb_contains ( a , b + c )');
    for (const [sql, op] of [
      ["SELECT @> '{}'", '@>'],
      ['SELECT ?', '?'],
      ['SELECT a #>', '#>'],
      ["SELECT a @> '{}'::varchar(", '@>'],
    ])
      assert.throws(
        () => j(sql),
        (e: { sqlstate?: string; message: string }) =>
          e.sqlstate === '0A000' && e.message.includes(`operator ${op} here`),
        sql,
      );
  });
});
