// SQL/JSON path (jsonpath, jsonb_path_exists/_match/_query/_query_array/_query_first, @? and @@)
// against PostgreSQL 15: path expressions in lax and strict mode over a few documents and over a
// jsonb column, compared by rows, column types and SQLSTATEs. The parser and evaluator
// (src/engine/jsonpath-parse.ts, jsonpath-eval.ts) have their own cases at the end, without servers.
import assert from 'node:assert/strict';
import { type OracleClients, sameOnBoth, sameOutcomeOnBoth, startOracle } from '../helpers/catalog-pair';
import { parseJsonPath, printJsonPath } from '../../src/engine/jsonpath-parse';
import { runJsonPath } from '../../src/engine/jsonpath-eval';
import { parseJson, printJsonb } from '../../src/engine/jsonb';

const SCHEMAS = {
  patina: 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, doc JSONB);',
  postgres: 'CREATE TABLE t (id bigint NOT NULL PRIMARY KEY, doc jsonb);',
};
const ROWS = [
  `INSERT INTO t (id, doc) VALUES
    (1, '{"name": "a", "tags": ["x", "y"], "items": [{"price": 10, "qty": 2}, {"price": 2.50, "qty": 1}]}'),
    (2, '{"name": "b", "tags": ["y"], "items": [{"price": 7}], "n": null}'),
    (3, '{"tags": "x", "items": []}'),
    (4, '[1, 2, 3]'),
    (5, NULL)`,
];

/** Documents the path cases run over. */
const DOCS = [
  '{"a": 1, "b": {"c": [1, 2, {"d": "x"}], "e": "text"}, "arr": [1, "2", null, true, [4, 5], {"k": -2.5}]}',
  '[{"a": 1, "b": "x"}, {"a": 3, "b": "y"}, {"a": 2}, 7, "s"]',
  '"Hello"',
];
const PATHS = [
  '$',
  '$.a',
  '$."a"',
  '$.b.c[*]',
  '$.b.c[0 to 1]',
  '$.b.c[last]',
  '$.b.c[last - 1, 0]',
  '$.b.*',
  '$.*',
  '$[*]',
  '$[*].a',
  '$.**',
  '$.**.d',
  '$.**{2}',
  '$.**{1 to 2}',
  '$.**{last}',
  '$.**{2 to last}',
  '$.**.abs()',
  'strict $.**.a',
  '-$[*]',
  '-$.arr[*]',
  '$.nosuch',
  'strict $.nosuch',
  'strict $.a.b',
  'strict $.a[0]',
  'lax $.a[0]',
  'lax $.a[1]',
  'strict $.arr[10]',
  'strict $[*].a',
  'lax $[*].a',
  'strict $.*',
  'strict $[*]',
  '$.arr[*] ? (@ > 1)',
  '$.arr[*] ? (@ == "2")',
  '$.arr[*] ? (@ != null)',
  '$.arr[*] ? (@ == null)',
  '$.arr[*] ? (@.type() == "array")',
  '$.arr ? (@[*] > 4)',
  'strict $.arr ? (@[*] > 4)',
  '$[*] ? (@.a > 1 && @.b == "y")',
  '$[*] ? (@.a > 1 || @.b == "x")',
  '$[*] ? (!(@.a > 1))',
  '$[*] ? (exists(@.b))',
  '$[*] ? ((@.a > 1) is unknown)',
  '$[*] ? (@.b like_regex "^[xY]" flag "i")',
  '$[*] ? (@ starts with "s")',
  '$[*].a ? (@ >= 2)',
  '$[*].a + 1',
  '$.a + 1',
  '$.a * 2.5 - 0.5',
  '$.a / 3',
  '-$.a',
  '+$.arr[5].k',
  '$.arr[5].k % 2',
  '$.a / 0',
  '$.b.e + 1',
  '-$.b.e',
  '$.arr.size()',
  '$.a.size()',
  'strict $.a.size()',
  '$.arr[*].type()',
  '$.type()',
  '$.arr[5].k.abs()',
  '$.arr[5].k.floor()',
  '$.arr[5].k.ceiling()',
  '$.arr[1].double()',
  '$.keyvalue()',
  '$.keyvalue().key',
  '$.b.keyvalue()',
  '$[*].keyvalue()',
  '$.** ? (@.type() == "object").keyvalue()',
  '$.keyvalue().value.keyvalue()',
  '$.b.c[*].datetime()',
  '$.b.e.double()',
  '$.b.abs()',
  '$.a > 0',
  '$.a == "1"',
  '$[*].a > 2',
  '1 + 2 * 3',
  '$ like_regex "^H"',
  '$[*] ? (@ like_regex "[[:alpha:]]$")',
  '$.b.e ? (@ like_regex "T" flag "i")',
  'STRICT $.B.SIZE()',
  '$.a.Size()',
  '$ starts with "He"',
];

describe('SQL/JSON path against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ schemas: SCHEMAS, rows: ROWS });
  });
  after(() => o?.close());

  const same = (sql: string, params?: unknown[]) => sameOnBoth(o, sql, params);

  const sameOutcome = (sql: string) => sameOutcomeOnBoth(o, sql);

  it('jsonb_path_query, _query_array, _exists, _match and _query_first of many paths, lax and strict, errors as there', async () => {
    for (const doc of DOCS)
      for (const path of PATHS) {
        const d = doc.replaceAll("'", "''");
        const p = path.replaceAll("'", "''");
        await sameOutcome(`SELECT jsonb_path_query('${d}', '${p}')`);
        await sameOutcome(`SELECT jsonb_path_query_array('${d}', '${p}', '{}', true)`);
        await sameOutcome(
          `SELECT jsonb_path_exists('${d}', '${p}'), jsonb_path_exists('${d}', '${p}', silent => true), '${d}'::jsonb @? '${p}', '${d}'::jsonb @@ '${p}'`,
        );
        await sameOutcome(`SELECT jsonb_path_match('${d}', '${p}', '{}', true)`);
        await sameOutcome(`SELECT jsonb_path_query_first('${d}', '${p}')`);
      }
  });

  it('variables from the vars argument; a missing one is 42704, vars that is no object 22023', async () => {
    for (const sql of [
      `SELECT jsonb_path_query('[1, 2, 3, 4]', '$[*] ? (@ >= $min && @ < $max)', '{"min": 2, "max": 4}')`,
      `SELECT jsonb_path_exists('{"a": "x"}', '$.a ? (@ == $v)', '{"v": "x"}'), jsonb_path_match('{"a": 2}', '$.a > $"the limit"', '{"the limit": 1}')`,
      `SELECT jsonb_path_query('[1]', '$[*] ? (@ == $nope)')`,
      `SELECT jsonb_path_query('[1]', '$[*] ? (@ == $nope)', '{}', true)`,
      `SELECT jsonb_path_query('[1]', '$', '[1]')`,
      `SELECT jsonb_path_query('[1]', '$', NULL), jsonb_path_exists(NULL, '$'), jsonb_path_match('true', '$', '{}', NULL)`,
      `SELECT jsonb_path_query_array('{"a": [1, 2]}', '$.a[*] ? (@ > $x)', vars => '{"x": 1}')`,
      // .keyvalue()'s id: the object's byte offset in PostgreSQL's binary jsonb (numbers of both forms before it)
      `SELECT jsonb_path_query('1', '$.keyvalue()')`,
      `SELECT jsonb_path_query_array('[0.00000001, 1e100, "x", [1, [2, {"z": [3]}]], {"k": {"m": 1}}]', '$.** ? (@.type() == "object").keyvalue().id')`,
      `SELECT jsonb_path_query_array('[123456789012345678901234567890.123456789, -0.000000000001, 1e-300, 1e300, {"a": {"é": [true, false, null, "ü"], "b": {}}}]', '$.** ? (@.type() == "object").keyvalue()')`,
      `SELECT jsonb_path_query('{"a": {"b": 1}}', '$x.keyvalue()', '{"x": {"c": 2}}')`,
    ])
      await sameOutcome(sql);
  });

  it('the jsonpath type: casts print the path as PostgreSQL does; bad paths are 42601 (2201B for a bad regex)', async () => {
    for (const sql of [
      `SELECT '$.a'::jsonpath, pg_typeof('$.a'::jsonpath), 'strict $.a[1, 2 to last]'::jsonpath, '$.**{2 to 5}.a'::jsonpath`,
      `SELECT '$ ? (!(@ > 1) || @ like_regex "^a" flag "i")'::jsonpath, '-$.a * (2 + 3) / 4 % 5'::jsonpath`,
      `SELECT '$ ? (@ starts with "x" && (@ == 1) is unknown)'::jsonpath, '$var.a ? (@ <> $x)'::jsonpath, 'lax $'::jsonpath`,
      `SELECT '$.a ? (@ == 1.50e2 || @ == .5 || @ == true || @ == null)'::jsonpath, '$.**'::jsonpath, '1 + 2'::jsonpath`,
      `SELECT '($.a + 1).abs()'::jsonpath, '$.keyvalue().key'::jsonpath, CAST('$ ? (exists (@.a ? (@ > 1)))' AS jsonpath)`,
      `SELECT '(3).abs()'::jsonpath, '1.e3'::jsonpath, '$ ? (@ == 1.)'::jsonpath, '.5'::jsonpath, 'STRICT $[LAST]'::jsonpath`,
      `SELECT '3.abs()'::jsonpath`,
      `SELECT '00'::jsonpath`,
      `SELECT '1e+'::jsonpath`,
      `SELECT '$.a.5'::jsonpath`,
      `SELECT 'abc + 1'::jsonpath`,
      `SELECT '$ ? (@ like_regex "a" flag "x")'::jsonpath`,
      `SELECT '$.'::jsonpath`,
      `SELECT '$.a ? (@ =)'::jsonpath`,
      `SELECT '@.a'::jsonpath`,
      `SELECT 'last'::jsonpath`,
      `SELECT jsonb_path_query('{}', '$ ? (')`,
    ])
      await sameOutcome(sql);
    // (a bad regular expression: the same SQLSTATE; the wording is JavaScript's, not PostgreSQL's)
    for (const c of [o.patina, o.postgres])
      await assert.rejects(c.query(`SELECT '$ ? (@ like_regex "(")'::jsonpath`), { code: '2201B' });
  });

  it('over a jsonb column: @? and @@ in WHERE, jsonb_path_query in the select list and in FROM per row', async () => {
    for (const q of [
      `SELECT id FROM t WHERE doc @? '$.tags[*] ? (@ == "x")' ORDER BY id`,
      `SELECT id FROM t WHERE doc @@ '$.items[*].price > 5' ORDER BY id`,
      `SELECT id FROM t WHERE jsonb_path_exists(doc, '$.items[*] ? (@.qty >= $q)', '{"q": 2}') ORDER BY id`,
      `SELECT jsonb_path_query(doc, '$.items[*].price') FROM t`,
      `SELECT id, jsonb_path_query(doc, '$.items[*].price') AS price FROM t ORDER BY id`,
      `SELECT t.id, p FROM t, jsonb_path_query(t.doc, '$.items[*].price') AS p ORDER BY 1`,
      `SELECT t.id, p FROM t CROSS JOIN LATERAL jsonb_path_query(t.doc, 'strict $.tags[*]', silent => true) p ORDER BY 1`,
      `SELECT id, jsonb_path_query_array(doc, '$.items[0].price * 2'), jsonb_path_query_first(doc, '$.tags[*]') FROM t WHERE id < 3 ORDER BY id`,
      `SELECT id, jsonb_path_query_array(doc, '$.items[*] ? (@.price * @.qty > 4).price') FROM t ORDER BY id`,
      `SELECT id, jsonb_path_match(doc, 'exists($.n)') FROM t WHERE id < 4 ORDER BY id`,
      `SELECT * FROM jsonb_path_query('{"a": [1, {"b": 2}]}', '$.a[*]') WITH ORDINALITY`,
      // several set-returning calls in one select list run in step, the shorter NULL past its end
      `SELECT id, jsonb_path_query(doc, '$.tags[*]'), jsonb_path_query(doc, '$.items[*].price', '{"x": 1}') FROM t ORDER BY id`,
      `SELECT unnest(ARRAY[1, 2, 3]), jsonb_path_query('[7, 8]', '$[*]'), jsonb_path_query('[1]', '$[*]', NULL)`,
    ])
      await same(q);
    await sameOutcome(`SELECT id, jsonb_path_query(doc, 'strict $.items[*].price') FROM t ORDER BY id`);
    await same(`SELECT id FROM t WHERE doc @? $1 ORDER BY id`, ['$.name ? (@ starts with "b")']);
  });
});

describe('jsonpath parser and evaluator', () => {
  const run = (doc: string, path: string, vars = '{}') =>
    runJsonPath(parseJsonPath(path), parseJson(doc), parseJson(vars)).map(printJsonb);

  it('prints paths normalised', () => {
    for (const [text, printed] of [
      ['$.a', '$."a"'],
      ['lax $.a.b', '$."a"."b"'],
      ['strict $[*]', 'strict $[*]'],
      ['$.a + 1 * 2', '($."a" + 1 * 2)'],
      ['($.a + 1) * 2', '(($."a" + 1) * 2)'],
      ['$ ? (@.x <> 1 && !(@ < 2))', '$?(@."x" != 1 && !(@ < 2))'],
      ['$.**{1 to last}', '$.**{1 to last}'],
      ['$."k\\"q"', '$."k\\"q"'],
    ])
      assert.equal(printJsonPath(parseJsonPath(text)), printed, text);
  });

  it('refuses bad paths with 42601', () => {
    for (const bad of ['', '$.', '$ ? (@ > )', '@', 'last', '$[1', '$ ? (1)', '$.a ==== 1', '!$'])
      assert.throws(() => parseJsonPath(bad), { sqlstate: '42601' }, bad);
  });

  it('evaluates lax and strict accessors, filters, arithmetic and methods', () => {
    assert.deepEqual(run('{"a": [1, 2, 3]}', '$.a[*] ? (@ > 1)'), ['2', '3']);
    assert.deepEqual(run('[{"a": 1}, {"a": 2}]', '$.a'), ['1', '2']);
    assert.deepEqual(run('[{"a": 1}, {"a": 2}]', 'strict $[*].a'), ['1', '2']);
    assert.throws(() => run('[{"a": 1}, {"a": 2}]', 'strict $.a'), { sqlstate: '2203A' });
    assert.deepEqual(run('5', '$[0]'), ['5']);
    assert.deepEqual(run('[1, 2, 3]', '$[last - 1 to last]'), ['2', '3']);
    assert.deepEqual(run('{"p": 2.50}', '$.p * 2'), ['5.00']);
    assert.deepEqual(run('{"p": 10}', '$.p / 4'), ['2.5000000000000000']);
    assert.deepEqual(run('{"p": -2.5}', '$.p.floor()'), ['-3']);
    assert.deepEqual(run('[1, "a", null]', '$.size()'), ['3']);
    assert.deepEqual(run('{"x": 1}', '$.x == $v', '{"v": 1}'), ['true']);
    assert.deepEqual(run('[1, "a"]', '$[*] > 0'), ['true']);
    assert.deepEqual(run('[1, "a"]', 'strict $[*] > 0'), ['null']);
    assert.deepEqual(run('{"a": {"b": {"c": 1}}}', '$.**.c'), ['1']);
    assert.throws(() => run('1', '$ + "x"'), { sqlstate: '22038' });
    assert.throws(() => run('1', '$y'), { sqlstate: '42704' });
  });
});
