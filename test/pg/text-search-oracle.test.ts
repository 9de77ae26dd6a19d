// Text search (tsvector, tsquery, to_tsvector and the to_tsquery family, @@, &&, ||, !!) against
// PostgreSQL 15: the types' input and output, the default parser's tokens, the simple and english
// configurations (stop words, the Snowball english stemmer), and matching, compared by rows, column
// types and SQLSTATEs. The engine is src/engine/text-search/.
import assert from 'node:assert/strict';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type OracleClients, sameOnBoth, sameOutcomeOnBoth, startOracle } from '../helpers/catalog-pair';

const copyStreams = require('pg-copy-streams') as { from(sql: string): Writable };

const SCHEMAS = {
  patina: 'CREATE TABLE docs (id INTEGER NOT NULL PRIMARY KEY, body TEXT, vec TSVECTOR, q TSQUERY);',
  postgres: 'CREATE TABLE docs (id bigint NOT NULL PRIMARY KEY, body text, vec tsvector, q tsquery);',
};
const ROWS = [
  `INSERT INTO docs (id, body, vec, q) VALUES
    (1, 'The quick brown foxes jumped over the lazy dogs', 'fox:4 quick:2 brown:3 lazi:7', 'fox & dog'),
    (2, 'A fat cat sat on a mat and ate a fat rat', 'fat:2,11 cat:3 rat:12 mat:7', 'fat <-> cat'),
    (3, 'Running runners run: see https://example.com/run or mail run@example.org', 'run:1A,3 runner:2B', 'run:A'),
    (4, 'state-of-the-art search, version 1.2.3, -4.5 and 6e3', NULL, '!fox'),
    (5, NULL, 'a b c', NULL)`,
];

/** Words whose english stems are compared (one to_tsvector over all of them). */
const WORDS =
  'absolute acos addr after alike alpha america anchor another anything applied arguments ascii astronomical ' +
  'attr autoload backslash basictypemapforqueries began bench bigints bitwise booleans branch bucket builtin ' +
  'byteacat called cancels carried casts cell chain char chinese clamped clientread cmin coerced combination ' +
  'commits comparison composite concerns configured connection construct content convert core could covers ' +
  'cstring currval data datetimes debug decoded default deletes dependency description digest disk dividend ' +
  'doctrine doubled driving dubai east element embeds encode endpoint equivalent escapes evaluation exactchoice ' +
  'execute existing exponent extra fails fault fewer figured filtered first flat folds fork fraction front ' +
  'functions generate getcatalogs getimportedkeys gettables grafana group guarded heap hidden holding implies ' +
  'incompatible indkey information installs interrupted invalid item january johab jsonarrayfrom junk kept ' +
  'kysely large lateral leap lerp libpq limited listener literally locks longer loosen lowers make marked matrix ' +
  'means member messages microsecond millisecond misses modes monotonic moves must naming need nesting nonzero ' +
  'notice nowait oban offered older openssl option ordinality overflow owns page parameter paris parts paths ' +
  'performance pgcli pgsqlcopyfromarray pids places point port postgres precision prepared printed probes ' +
  'promise prototype python queries quotes range reaches reals recognized refer refusal regex regtype relkind ' +
  'remembered repeats reported resets restarts return rewriting rollback round rows running scan script secs ' +
  'selec sends sequelize serves several sharing showing signatures simulated skip small something space spells ' +
  'sqlstates standard state stddev stopped straight strings subquery subtracted sums suspicion system tags tells ' +
  'tested than therefore though tilde timestamptz token traffic tree trip tsvector twins typeorm typname ' +
  'uncommitted undoes unions unlock unrecognized update value variance verifying void walk whatwg whole windows ' +
  'wording worst writes xmax yesterday yyyymmdd zoned ';

describe('text search against PostgreSQL 15', function () {
  this.timeout(60_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ schemas: SCHEMAS, rows: ROWS });
  });
  after(() => o?.close());

  const sameOutcome = (sql: string) => sameOutcomeOnBoth(o, sql);

  it('tsvector and tsquery input and output: sorted, merged, quoted, weights and positions; bad ones 42601', async () => {
    for (const sql of [
      `SELECT 'b:3,1,2A a:1 c b:1B'::tsvector, 'a:20000'::tsvector, 'a:1a,1b'::tsvector, 'a:3c,3a'::tsvector`,
      `SELECT 'ab aa a b abc A é'::tsvector, ''::tsvector, $$'it''s' x\\y 'a b':4 'c\\'d'$$::tsvector`,
      `SELECT pg_typeof('a'::tsvector), pg_typeof('a'::tsquery), CAST('x:1 y' AS tsvector)`,
      `SELECT 'a:0'::tsvector`,
      `SELECT 'a:'::tsvector`,
      `SELECT 'a:x'::tsvector`,
      `SELECT $$'a$$::tsvector`,
      `SELECT 'a & b | c'::tsquery, 'a & (b | c)'::tsquery, '(a | b) & c'::tsquery, 'a | b & c'::tsquery`,
      `SELECT '!a & !(b|c)'::tsquery, 'a <-> b <2> c'::tsquery, 'a <-> (b | c)'::tsquery, '(a <-> b) & c'::tsquery`,
      `SELECT 'a:* & b:AB & c:*Ba'::tsquery, '!!a'::tsquery, 'a <0> b'::tsquery, 'a | (b | c)'::tsquery`,
      `SELECT '!(a <-> b)'::tsquery, '(a & b) <-> c'::tsquery, 'a <-> (b <-> c)'::tsquery, $$'a b' & 'c''d' & e\\f$$::tsquery`,
      `SELECT ''::tsquery, ' '::tsquery, 'A & B'::tsquery, 'a <16384> b'::tsquery`,
      `SELECT 'a &'::tsquery`,
      `SELECT '&a'::tsquery`,
      `SELECT 'a b'::tsquery`,
      `SELECT '!'::tsquery`,
      `SELECT 'a <20000> b'::tsquery`,
      `SELECT 'a <-1> b'::tsquery`,
      `SELECT 'a <->'::tsquery`,
      `SELECT '(a'::tsquery`,
      `SELECT 'a)'::tsquery`,
      `SELECT 'a:1'::tsquery`,
      `SELECT '()'::tsquery`,
      // a text column cast: each value read (and a bad one refused) as the statement runs
      `SELECT id, body::tsvector, CAST(body AS tsvector) FROM docs WHERE id IN (1, 2, 5) ORDER BY id`,
      `SELECT id, body::tsvector FROM docs WHERE id = 3`,
      // a tsvector column holds what was written; it reads back as PostgreSQL prints it
      `SELECT id, vec, q FROM docs ORDER BY id`,
    ])
      await sameOutcome(sql);
  });

  it("to_tsvector with simple and english: the parser's tokens, stop words, stems", async () => {
    for (const text of [
      'The quick brown foxes jumped over the lazy dogs',
      "Hello, World! don't foo_bar well-known state-of-the-art x-1 1-x abc123 123abc a1-b2 ab-12",
      '123 -123 +5 1.5 -1.5 1e5 1.5e-3 1.2.3 .5 5. 1,000 2010-2012 v1.2 -6.1.0',
      'foo@bar.com mail me at a.b@c.d.org x+y@ex.com foo@bar example.com www.example.com:8080',
      'http://example.com/path/x.html?q=1 https://a.b/c see example.org/a-b)](x) process.env.HOME_DIR',
      '/usr/local/bin ./x.txt a/b c:/x x-y/z 1/2 a//b foo/bar/ e.g. i.e. U.S.A.',
      '<b>bold</b> &amp; &#39; <a href="x">link</a> <Value extends any[]> a<b',
      'café naïve résumé Ünïcödé über-cool 3D año 45637ec4-c85f-11ea-87d0-0242ac130003 data-2012-2022',
      '',
    ]) {
      const t = text.replaceAll("'", "''");
      await sameOutcome(`SELECT to_tsvector('english', '${t}'), to_tsvector('simple', '${t}'), to_tsvector('${t}')`);
    }
    await sameOutcome(`SELECT to_tsvector('english', '${WORDS}')`);
    await sameOutcome(`SELECT to_tsvector('pg_catalog.english', 'Cats'), to_tsvector('Simple', 'Cats')`);
    await sameOutcome(`SELECT to_tsvector('nosuch', 'x')`);
    await sameOutcome(`SELECT id, to_tsvector(body) FROM docs ORDER BY id`);
  });

  it('to_tsquery, plainto_tsquery, phraseto_tsquery and websearch_to_tsquery: stop words become distance', async () => {
    for (const sql of [
      `SELECT to_tsquery('english', '''fat the cat'''), to_tsquery('english', 'the & cat'), to_tsquery('english', 'fat <-> the <-> cat')`,
      `SELECT to_tsquery('english', 'foo-bar:*B'), to_tsquery('english', '!the & cat'), to_tsquery('english', 'cat | the')`,
      `SELECT to_tsquery('english', 'a <2> (b | the)'), to_tsquery('english', '(the <-> cat) & rat'), to_tsquery('english', 'the <-> cat <-> the <-> rat')`,
      `SELECT to_tsquery('english', 'supernovae & stars:*'), to_tsquery('simple', 'The & Cats'), to_tsquery('the'), to_tsquery('english', '')`,
      `SELECT to_tsquery('english', 'a &')`,
      `SELECT plainto_tsquery('english', 'The fat cats ate rats'), plainto_tsquery('the & | !'), plainto_tsquery('simple', 'The Cats')`,
      `SELECT phraseto_tsquery('english', 'fat the cat'), phraseto_tsquery('english', 'the the fat the the cat the'), phraseto_tsquery('a well-known fact')`,
      `SELECT websearch_to_tsquery('english', '"fat rat" or cat -dog'), websearch_to_tsquery('english', 'signal -"segmentation fault"')`,
      `SELECT websearch_to_tsquery('"supernovae stars" -crab'), websearch_to_tsquery('english', 'or or cat or'), websearch_to_tsquery('english', '(a & b) | -the "')`,
      `SELECT websearch_to_tsquery('english', 'https://example.com/x ./docs/a-b.md'), websearch_to_tsquery('english', '')`,
      `SELECT id, plainto_tsquery(body), websearch_to_tsquery('simple', body) FROM docs ORDER BY id`,
    ])
      await sameOutcome(sql);
  });

  it('@@ of tsvector and tsquery, text and tsquery, text and text; phrase, negation, prefix and weights', async () => {
    for (const sql of [
      `SELECT 'the cats' @@ 'cat'::tsquery, 'cat'::tsquery @@ 'cat:1', 'cat:1' @@ 'cat'::tsquery, 'a:1'::tsvector @@ 'a'`,
      `SELECT 'x y' @@ 'x', 'The cats sat' @@ 'cat', 'The cats sat' @@ 'dogs', 'a fat cat' @@ 'fat cats'`,
      `SELECT to_tsvector('fat cats ate rats') @@ to_tsquery('cat & rat'), to_tsvector('fat cats ate rats') @@ to_tsquery('fat <-> rat'), to_tsvector('fat cats ate rats') @@ to_tsquery('fat <2> ate')`,
      `SELECT to_tsvector('english', 'a b c') @@ 'x | !y', 'a:1 b:2'::tsvector @@ 'a <-> !c', 'a:1 b:2'::tsvector @@ '!a <-> b', 'a b'::tsvector @@ 'a <-> b'`,
      `SELECT 'a:1A b:2'::tsvector @@ 'a:B', 'a:1A b:2'::tsvector @@ 'a:A <-> b', 'a:1A b:2'::tsvector @@ 'a:AB & b:D', 'a b'::tsvector @@ 'a:A'`,
      `SELECT 'supernova:1 star:2'::tsvector @@ 'super:*', 'supernova:1 star:2'::tsvector @@ 'super:* <-> st:*', 'a:1 b:3'::tsvector @@ '(a | x) <2> b'`,
      `SELECT 'a:1 b:2 c:3'::tsvector @@ 'a <-> (b | x) <-> c', 'a:1 b:2 c:3'::tsvector @@ '!(a <-> b)', 'a:1 b:2 c:3'::tsvector @@ 'a <-> !x <-> c'`,
      `SELECT ''::tsvector @@ ''::tsquery, 'a'::tsvector @@ ''::tsquery, NULL::tsvector @@ 'a', to_tsvector('x') @@ NULL`,
      `SELECT id FROM docs WHERE to_tsvector(body) @@ to_tsquery('fox | rat') ORDER BY id`,
      `SELECT id FROM docs WHERE body @@ 'run' ORDER BY id`,
      `SELECT id FROM docs WHERE vec @@ 'fat & rat' OR vec @@ to_tsquery('simple', 'runner:B') ORDER BY id`,
      `SELECT id, vec @@ q, q @@ vec, body @@ q FROM docs ORDER BY id`,
      `SELECT id FROM docs WHERE to_tsvector('english', body) @@ websearch_to_tsquery('english', '"state of the art" -fox') ORDER BY id`,
    ])
      await sameOutcome(sql);
    await sameOnBoth(o, `SELECT id FROM docs WHERE to_tsvector(body) @@ plainto_tsquery($1) ORDER BY id`, ['fat cats']);
  });

  it('tsquery && || !!, tsvector ||: typed tsquery and tsvector', async () => {
    for (const sql of [
      `SELECT 'a'::tsquery && 'b', 'a' && 'b'::tsquery, 'a | b'::tsquery && 'c', 'a'::tsquery && ''::tsquery`,
      `SELECT 'a'::tsquery || 'b & c', ('a'::tsquery || 'b') && 'c', 'a <-> b'::tsquery || ''::tsquery`,
      `SELECT !! 'a'::tsquery, !!('a & b'::tsquery), !! to_tsquery('cats | dogs'), !! ''::tsquery`,
      `SELECT 'a:1 b:2'::tsvector || 'c:1 a:3', 'a b'::tsvector || 'c:2', 'x:1A'::tsvector || ''::tsvector`,
      `SELECT to_tsvector('fat cats') || to_tsvector('ate rats') @@ 'cat <3> rat', id, q && 'x' FROM docs ORDER BY id`,
      `SELECT 'a'::tsvector @@ 'a'::text`,
    ])
      await sameOutcome(sql);
  });

  it('ts_rank (weights, normalisation), length, strip, setweight, numnode; a query function in FROM', async () => {
    for (const sql of [
      `SELECT ts_rank(to_tsvector('english', 'The quick brown fox jumps over the lazy dog'), to_tsquery('english', 'fox & dog'))`,
      `SELECT ts_rank(to_tsvector('english', 'The quick brown fox jumps over the lazy dog'), to_tsquery('english', 'fox | dog | cat'))`,
      `SELECT ts_rank(to_tsvector('english', 'a fox and a fox and a fox'), to_tsquery('english', 'fox'), 1), ts_rank(to_tsvector('fox jumps'), to_tsquery('fox <-> jump'), 2)`,
      `SELECT ts_rank(setweight(to_tsvector('english', 'Fox title'), 'A') || to_tsvector('english', 'The quick brown fox'), plainto_tsquery('english', 'fox title'), 4|8|16|32)`,
      `SELECT ts_rank('{0.1, 0.2, 0.4, 1.0}', 'a:1A b:3B c:5'::tsvector, 'a & c'), ts_rank('{1, 1, 1, 1}', 'a:1A b:3B c:5'::tsvector, 'a | c', 32), ts_rank('{-1, 0.5, 0.4, 1.0}', 'a b'::tsvector, 'a & b')`,
      `SELECT ts_rank('super:1 superb:2 x:5'::tsvector, 'super:* & x'), ts_rank('a:1,2,3,4 b:9'::tsvector, 'a & b & !c'), ts_rank(''::tsvector, 'a'), ts_rank('a'::tsvector, ''::tsquery)`,
      `SELECT ts_rank('{0.1, 0.2}', 'a'::tsvector, 'a')`,
      `SELECT ts_rank('{0.1, 0.2, 0.4, 2}', 'a'::tsvector, 'a')`,
      `SELECT length('a b'::tsvector), length(to_tsvector('the fat cats')), length('abc'), length(vec) FROM docs ORDER BY id`,
      `SELECT strip('a:1 b:2'::tsvector), setweight('a:1 b:2C'::tsvector, 'A'), setweight(to_tsvector('fat cats'), 'b'), numnode('a & !(b | c)'::tsquery), numnode(''::tsquery)`,
      `SELECT setweight('a:1'::tsvector, 'x')`,
      `SELECT id, ts_rank(to_tsvector(body), q) AS rank FROM docs, to_tsquery('fox | rat') q WHERE to_tsvector(body) @@ q ORDER BY rank DESC, id`,
      `SELECT id, ts_rank(vec, plainto_tsquery('english', 'lazy fox')) FROM docs ORDER BY 2 DESC, id`,
    ])
      await sameOutcome(sql);
  });

  const ARTICLE =
    'Search results: PostgreSQL full text search supports ranking, highlighting and stemming. The ts_headline ' +
    'function highlights the words of a query in a document. PostgreSQL documentation covers full text search ' +
    'in chapter twelve, with examples of configurations and dictionaries.';
  const LOREM =
    'Lorem ipsum urna. Nullam nullam ullamcorper urna. Lorem ipsum dolor sit amet, consectetur adipiscing elit. ' +
    'Nullam nisi urna, ultrices quis, ullamcorper urna dolor sit';

  it('ts_headline: the best cover, MinWords/MaxWords/ShortWord, fragments, HighlightAll, tags; bad options 22023', async () => {
    for (const sql of [
      `SELECT ts_headline('english', 'The fat cat sat on the mat', to_tsquery('english', 'cat')), ts_headline('The fat cat', 'cat')`,
      `SELECT ts_headline('english', '${ARTICLE}', websearch_to_tsquery('english', 'full text search'))`,
      `SELECT ts_headline('english', '${ARTICLE}', to_tsquery('english', 'highlight & dictionary'), 'MaxWords=12, MinWords=4, ShortWord=5')`,
      `SELECT ts_headline('english', '${ARTICLE}', websearch_to_tsquery('english', 'postgresql -ranking'), 'MaxFragments=2, MaxWords=8, MinWords=3')`,
      `SELECT ts_headline('english', '${LOREM}', to_tsquery('english', 'ipsum & urna'), 'MaxWords=10, MinWords=5, MaxFragments=3')`,
      `SELECT ts_headline('english', '${LOREM}', to_tsquery('english', 'ipsum | urna'), 'MaxFragments=2, FragmentDelimiter=" // "')`,
      `SELECT ts_headline('english', 'The most common type of search is to find all documents containing given query terms and return them in order of their similarity to the query.', to_tsquery('english', 'search & term'), 'MaxWords=10, MinWords=5')`,
      // tags become a blank, a URL and a hyphenated word are printed by their parts; HighlightAll keeps the tags
      `SELECT ts_headline('simple', '<html><b>Fat</b> cats &amp; state-of-the-art http://example.com/cats sat</html>', to_tsquery('simple', 'cats | art'))`,
      `SELECT ts_headline('simple', '<html><b>Fat</b> cats &amp; state-of-the-art http://example.com/cats sat</html>', to_tsquery('simple', 'cats'), 'HighlightAll=true, StartSel=''<<'', StopSel=">>"')`,
      // phrases, negation, prefixes, an operand twice; no match, an empty query or document
      `SELECT ts_headline('english', 'fat cats ate fat rats', to_tsquery('english', 'fat <-> rat')), ts_headline('english', 'fat cats ate fat rats', to_tsquery('english', '!cat & rat'))`,
      `SELECT ts_headline('english', 'supernovae stars are bright super', to_tsquery('english', 'super:*')), ts_headline('english', 'The cat', to_tsquery('english', 'cat & cat:*'))`,
      `SELECT ts_headline('english', 'no match here at all', to_tsquery('english', 'zebra')), ts_headline('english', 'a b c', ''::tsquery), ts_headline('english', '', to_tsquery('cat'))`,
      `SELECT id, ts_headline('english', body, q, 'MaxWords=6, MinWords=2'), ts_headline(body, q) FROM docs, to_tsquery('english', 'fox | rat | run') q WHERE body @@ q ORDER BY id`,
      `SELECT ts_headline(body, 'fat', 'MaxWords=4, MinWords=1'), ts_headline('english', body, 'rat') FROM docs WHERE id = 2`,
      `SELECT ts_headline('english', 'x y', NULL), ts_headline(NULL, 'x'::tsquery), pg_typeof(ts_headline('a', 'a'::tsquery))`,
      `SELECT ts_headline('english', 'x', to_tsquery('english', 'x'), 'MaxWords=5, MinWords=5')`,
      `SELECT ts_headline('english', 'x', to_tsquery('english', 'x'), 'MinWords=0')`,
      `SELECT ts_headline('english', 'x', to_tsquery('english', 'x'), 'ShortWord=-1')`,
      `SELECT ts_headline('english', 'x', to_tsquery('english', 'x'), 'MaxFragments=-1')`,
      `SELECT ts_headline('english', 'x', to_tsquery('english', 'x'), 'Foo=1')`,
      `SELECT ts_headline('english', 'x', to_tsquery('english', 'x'), 'MaxWords=abc')`,
      `SELECT ts_headline('english', 'x', to_tsquery('english', 'x'), 'MaxWords 5')`,
      `SELECT ts_headline('english', 'x', to_tsquery('english', 'x'), 'MinWords=0, HighlightAll=1')`,
      // (three untyped arguments: (config, document, query) or (document, query, options))
      `SELECT ts_headline('english', 'The fat cat', 'cat')`,
      `SELECT ts_headline('nosuch', 'The fat cat', to_tsquery('cat'))`,
    ])
      await sameOutcome(sql);
  });

  it('ts_rank_cd: cover density, weights, normalisation', async () => {
    for (const sql of [
      `SELECT ts_rank_cd(to_tsvector('english', 'The quick brown fox jumps over the lazy dog'), to_tsquery('english', 'fox & dog')), pg_typeof(ts_rank_cd('a'::tsvector, 'a'))`,
      `SELECT ts_rank_cd(to_tsvector('english', 'The quick brown fox jumps over the lazy dog fox dog'), to_tsquery('english', 'fox | dog'))`,
      `SELECT ts_rank_cd(to_tsvector('english', 'a fox and a fox and a dog'), to_tsquery('english', 'fox & dog'), 1), ts_rank_cd(to_tsvector('fox jumps fox jumps'), to_tsquery('fox <-> jump'), 2)`,
      `SELECT ts_rank_cd(to_tsvector('fox jumps fox jumps x y z fox'), to_tsquery('fox & jump'), 4), ts_rank_cd(to_tsvector('fox jumps fox jumps x y z fox'), to_tsquery('fox & jump'), 8|16|32)`,
      `SELECT ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', 'a:1A b:3B c:5'::tsvector, 'a & c'), ts_rank_cd('{1, 1, 1, 1}', 'a:1A b:3B c:5'::tsvector, 'a | c', 32), ts_rank_cd('{-1, 0.5, 0.4, 1.0}', 'a:1 b:2'::tsvector, 'a & b')`,
      `SELECT ts_rank_cd('super:1 superb:2 x:5'::tsvector, 'super:* & x'), ts_rank_cd('a:1,2,3,4 b:9'::tsvector, 'a & b & !c'), ts_rank_cd(''::tsvector, 'a'), ts_rank_cd('a'::tsvector, ''::tsquery), ts_rank_cd('a b'::tsvector, 'a & b')`,
      `SELECT ts_rank_cd('a:1A,2B,3 b:2C,9'::tsvector, 'a:AB & b'), ts_rank_cd('a:1 b:1 c:2'::tsvector, 'a <-> c'), ts_rank_cd('a:1,16383 b:16383'::tsvector, 'a & b')`,
      `SELECT ts_rank_cd('{0, 0, 0, 0}', 'a:1 b:2'::tsvector, 'a & b')`,
      `SELECT ts_rank_cd('{0.1, 0.2}', 'a'::tsvector, 'a')`,
      `SELECT ts_rank_cd('{0.1, 0.2, 0.4, 2}', 'a'::tsvector, 'a')`,
      `SELECT id, ts_rank_cd(to_tsvector(body), q) AS rank FROM docs, to_tsquery('fox | rat | fat') q WHERE to_tsvector(body) @@ q ORDER BY rank DESC, id`,
      `SELECT id, ts_rank_cd(vec, plainto_tsquery('english', 'fat rat'), 1|4) FROM docs ORDER BY 2 DESC, id`,
    ])
      await sameOutcome(sql);
  });

  it('setweight of some lexemes, ts_delete, ts_filter, tsvector_to_array, array_to_tsvector; tsquery @> <@, querytree, tsquery_phrase', async () => {
    for (const sql of [
      `SELECT setweight('a:1 b:2 c:3 d'::tsvector, 'A', '{a,c,d,zz}'), setweight('a:1 b:2'::tsvector, 'b', ARRAY['b']), setweight('a:1 b:2'::tsvector, 'A', '{a,NULL}')`,
      `SELECT setweight('a:1 b:2'::tsvector, 'A', '{}'), setweight('a:1 b:2'::tsvector, 'A', NULL), setweight(vec, 'C', ARRAY['fat', 'rat']) FROM docs WHERE id = 2`,
      `SELECT setweight('a:1 b:2'::tsvector, 'x', '{a}')`,
      `SELECT ts_delete('a:1 b:2 c:3'::tsvector, 'b'), ts_delete('a:1 b:2 c:3'::tsvector, ARRAY['a','c','x']), ts_delete('a:1 b:2'::tsvector, '{a,b}')`,
      `SELECT ts_delete('a:1 b:2 c:3'::tsvector, ARRAY['a',NULL]), ts_delete('a:1 b:2 c:3'::tsvector, '{a,b}'::text[]), ts_delete(vec, 'fat') FROM docs WHERE id = 2`,
      `SELECT ts_filter('a:1A b:2B c:3 d'::tsvector, '{a,b}'), ts_filter('a:1A,2B,3C b:2B'::tsvector, '{A,c}'), ts_filter('a:1A'::tsvector, '{}'), ts_filter('a:1A'::tsvector, '{ab}')`,
      `SELECT ts_filter('a:1A'::tsvector, '{x}')`,
      `SELECT ts_filter('a:1A'::tsvector, '{a,NULL}')`,
      `SELECT tsvector_to_array('a:1 b:2 c'::tsvector), tsvector_to_array(''::tsvector), tsvector_to_array($$'a b' 'c,d' '{x}'$$::tsvector), pg_typeof(tsvector_to_array('a'))`,
      `SELECT array_to_tsvector('{b,a,a}'), array_to_tsvector(ARRAY['x y', 'c']), array_to_tsvector('{}'), pg_typeof(array_to_tsvector('{a}'))`,
      `SELECT array_to_tsvector('{a,NULL}')`,
      `SELECT array_to_tsvector('{a,""}')`,
      `SELECT id, unnest(tsvector_to_array(vec)) FROM docs WHERE id IN (1, 5) ORDER BY 1, 2`,
      `SELECT querytree('a & !b'::tsquery), querytree('!a'::tsquery), querytree('a | !b'::tsquery), querytree('a <-> !b'::tsquery), querytree(''::tsquery), querytree('!a & !b'::tsquery), querytree('(a | b) & !c & d:*A'::tsquery)`,
      `SELECT 'a & b'::tsquery @> 'a'::tsquery, 'a'::tsquery <@ 'a & b'::tsquery, 'a & b'::tsquery @> 'a | c', 'a:*B & !b'::tsquery @> 'b & a', ''::tsquery @> ''::tsquery, 'a'::tsquery @> ''::tsquery, ''::tsquery @> 'a'`,
      `SELECT 'a'::tsquery @> 'a', 'a' <@ 'a & b'::tsquery, id, q @> 'fox' FROM docs ORDER BY id`,
      `SELECT 'a'::tsquery @> 'a'::tsvector`,
      `SELECT tsquery_phrase('a'::tsquery, 'b'::tsquery), tsquery_phrase('a'::tsquery, 'b'::tsquery, 3), tsquery_phrase('a | c'::tsquery, 'b'::tsquery, 0), tsquery_phrase(''::tsquery, 'b'::tsquery), tsquery_phrase('a', 'b')`,
      `SELECT tsquery_phrase('a'::tsquery, 'b'::tsquery, -1)`,
      `SELECT tsquery_phrase('a'::tsquery, 'b'::tsquery, 16385)`,
    ])
      await sameOutcome(sql);
    await sameOnBoth(o, `SELECT id FROM docs WHERE q @> $1 ORDER BY id`, ['fox']);
  });

  it("binary results and parameters: tsvectorsend's and tsquerysend's forms", async () => {
    // (node-postgres asks for every column in binary when the statement has parameters, and sends a
    // Buffer parameter in binary)
    const binary = async (c: OracleClients['patina'], text: string, values?: unknown[]) => {
      try {
        const r = await c.query({ text, values, binary: true, rowMode: 'array' } as never);
        return (r.rows as unknown as unknown[][]).map((row) =>
          row.map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)),
        );
      } catch (e) {
        return (e as { code?: string }).code;
      }
    };
    for (const sql of [
      `SELECT 'b:3,1,2A a:1 c é:5C'::tsvector, ''::tsvector, to_tsvector('english', 'The fat cats'), vec FROM docs WHERE id > $1 ORDER BY id`,
      `SELECT 'a & !(b:AB | c:*)'::tsquery, 'a <3> b <-> c'::tsquery, ''::tsquery, to_tsquery('english', 'fat & (cat | rat:*)'), q FROM docs WHERE id > $1 ORDER BY id`,
    ])
      assert.deepEqual(await binary(o.patina, sql, [0]), await binary(o.postgres, sql, [0]), sql);
    for (const literal of [`'b:3,1,2A a:1 c é:5C'::tsvector`, `'a & !(b:AB | c:*) <2> d'::tsquery`, `''::tsquery`]) {
      const sent = (
        (await o.postgres.query({ text: `SELECT ${literal}`, binary: true, rowMode: 'array' } as never))
          .rows as unknown as Buffer[][]
      )[0][0];
      const sql = `SELECT $1::${literal.split('::')[1]}::text`;
      assert.deepEqual(await binary(o.patina, sql, [sent]), await binary(o.postgres, sql, [sent]), literal);
    }
    // a malformed one: the receive function's error (pq_getmsg*'s 08P01, its own checks' XX000, Bind's
    // 22P03 for bytes left over), in PostgreSQL's words
    const outcome = (c: OracleClients['patina'], type: string, hex: string) =>
      c.query(`SELECT $1::${type}::text`, [Buffer.from(hex, 'hex')]).then(
        (r) => r.rows,
        (e: { code?: string; message: string }) => ({ code: e.code, message: e.message }),
      );
    for (const [type, hex] of [
      ['tsvector', ''],
      ['tsvector', '0000000161'],
      ['tsvector', '0000000161000001'],
      ['tsvector', '000000016100000200030002'],
      ['tsvector', 'ffffffff'],
      ['tsvector', '00000001610000000000'],
      ['tsquery', '0000000101'],
      ['tsquery', '0000000101000061'],
      ['tsquery', '00000001011000610000'],
      ['tsquery', '00000002020561'],
      ['tsquery', 'ffffffff'],
      ['tsquery', '000000010100006100ff'],
    ])
      assert.deepEqual(await outcome(o.patina, type, hex), await outcome(o.postgres, type, hex), `${type} ${hex}`);
  });

  it("pg_proc lists text search's functions (psql's \\df)", async () => {
    await sameOutcome(
      `SELECT proname, pg_get_function_arguments(oid), pg_get_function_result(oid) FROM pg_proc
        WHERE proname IN ('ts_headline', 'ts_rank_cd', 'to_tsvector', 'setweight', 'ts_delete', 'websearch_to_tsquery', 'tsquery_phrase', 'querytree')
        ORDER BY 1, 2`,
    );
  });

  it('a value written into a tsvector or tsquery column is read by its input function (a bad one 42601)', async () => {
    for (const sql of [
      `INSERT INTO docs (id, vec, q) VALUES (10, 'b:2 a:1 a', 'a & (b | c)') RETURNING id, vec, q`,
      `INSERT INTO docs (id, vec) VALUES (11, 'a:x')`,
      `INSERT INTO docs (id, q) VALUES (11, 'a &')`,
      `UPDATE docs SET vec = to_tsvector(body) || 'z y', q = plainto_tsquery('fat rats') WHERE id = 2 RETURNING vec, q`,
      `SELECT id, vec::text, q::text, length(vec) FROM docs WHERE id IN (2, 10) ORDER BY id`,
      `DELETE FROM docs WHERE id = 10 RETURNING vec`,
    ])
      await sameOutcome(sql);
    // and so is a COPY FROM's field (it was kept as sent, a bad one too)
    const copy = async (c: OracleClients['patina'], text: string) => {
      const stream = (c as unknown as { query(s: Writable): Writable }).query(
        copyStreams.from('COPY docs (id, vec, q) FROM STDIN'),
      );
      try {
        await pipeline(Readable.from([Buffer.from(text)]), stream);
        return 'ok';
      } catch (e) {
        return (e as { code?: string }).code;
      }
    };
    for (const text of ['20\tb:2 a:1 a\ta & (b | c)\n', '21\ta:x\t\\N\n', '21\t\\N\ta &\n'])
      assert.equal(await copy(o.patina, text), await copy(o.postgres, text), text);
    await sameOutcome(`SELECT id, vec::text, q::text, length(vec) FROM docs WHERE id >= 20 ORDER BY id`);
    await sameOutcome(`DELETE FROM docs WHERE id >= 20`);
  });

  it("default_text_search_config: the one-argument forms and text @@ read the session's configuration", async () => {
    for (const sql of [
      `SET default_text_search_config = 'pg_catalog.simple'`,
      `SELECT to_tsvector('The cats'), plainto_tsquery('The cats'), 'the cats' @@ 'the', 'the cats' @@ 'the'::tsquery, to_tsvector('english', 'The cats')`,
      `SELECT id FROM docs WHERE body @@ 'the' ORDER BY id`,
      `SET default_text_search_config = 'english'`,
      `SELECT to_tsvector('The cats'), 'the cats' @@ 'the'`,
      `SET default_text_search_config = 'simple'`,
      `SHOW default_text_search_config`,
      `SET default_text_search_config = 'nosuch'`,
      `SET default_text_search_config = '"English"'`,
      `SET default_text_search_config = 'public.english'`,
      `SELECT set_config('default_text_search_config', 'pg_catalog.nosuch', false)`,
      `SELECT set_config('default_text_search_config', 'English', false), current_setting('default_text_search_config')`,
      `SET default_text_search_config = 'simple'`,
      `SELECT ts_headline('The cats', 'the'::tsquery), ts_headline(body, to_tsquery('the'), 'MaxWords=5, MinWords=2') FROM docs WHERE id = 1`,
      `RESET default_text_search_config`,
      `SELECT to_tsvector('The cats'), websearch_to_tsquery('the "fat cats"')`,
    ])
      await sameOutcome(sql);
  });

  it('to_tsvector of json and jsonb reads their strings; json(b)_to_tsvector the values a filter names', async () => {
    const doc = `'{"a": "The fat cats", "b": ["sat on", "the", "x"], "10": "the mat rats", "c": 12.50, "d": true, "e": null, "f": [1e2, false]}'`;
    for (const sql of [
      `SELECT to_tsvector(${doc}::jsonb), to_tsvector(${doc}::json), to_tsvector('simple', ${doc}::jsonb), to_tsvector('english', ${doc}::json)`,
      `SELECT to_tsvector('"fat cats"'::jsonb), to_tsvector('12'::jsonb), to_tsvector('null'::json), to_tsvector('{}'::jsonb), to_tsvector(NULL::jsonb)`,
      `SELECT to_tsvector('{"a": "x\\"y \\u00e9t\\u00e9 z\\\\w"}'::jsonb)`,
      // (a phrase does not run from one value into the next)
      `SELECT to_tsvector('{"a": "fat cats", "b": "dogs"}'::jsonb) @@ 'cat <-> dog', to_tsvector('["fat cats", "dogs"]'::json) @@ 'cat <2> dog'`,
      `SELECT jsonb_to_tsvector(${doc}::jsonb, '["string", "numeric"]'), jsonb_to_tsvector('simple', ${doc}::jsonb, '"all"')`,
      `SELECT json_to_tsvector('simple', ${doc}::json, '["key", "boolean"]'), json_to_tsvector(${doc}, '["ALL"]'), json_to_tsvector('{"a": "x", "a": "y"}', '["key", "string"]')`,
      `SELECT jsonb_to_tsvector(${doc}::jsonb, '[]'), jsonb_to_tsvector(${doc}::jsonb, NULL)`,
      `SELECT jsonb_to_tsvector('{"a": 1}'::jsonb, '["strings"]')`,
      `SELECT jsonb_to_tsvector('{"a": 1}'::jsonb, '[1]')`,
      `SELECT jsonb_to_tsvector('{"a": 1}'::jsonb, 'null')`,
      `SELECT json_to_tsvector('{"a": 1}'::json, '{"a": "string"}')`,
      `SELECT jsonb_to_tsvector('nosuch', '{"a": 1}'::jsonb, '"all"')`,
      `SET default_text_search_config = 'simple'`,
      `SELECT to_tsvector('{"a": "The cats"}'::jsonb), jsonb_to_tsvector('{"a": "The cats"}'::jsonb, '"string"'), json_to_tsvector('{"a": "The cats"}', '"string"')`,
      `RESET default_text_search_config`,
    ])
      await sameOutcome(sql);
    // (the wrong flag's hint lists the right ones)
    const sql = `SELECT jsonb_to_tsvector('{"a": 1}'::jsonb, '["strings"]')`;
    const hints = await Promise.all(
      [o.patina, o.postgres].map((c) =>
        c.query(sql).then(
          () => 'none',
          (e: { hint?: string }) => e.hint,
        ),
      ),
    );
    assert.equal(hints[0], hints[1]);
    assert.match(String(hints[1]), /Possible values are/);
  });

  it("ts_rewrite(query, target, substitute): PostgreSQL's order, a subset of AND or OR children, an empty substitute", async () => {
    for (const sql of [
      `SELECT ts_rewrite('a & b'::tsquery, 'a'::tsquery, 'c'::tsquery), ts_rewrite('moscow & hotel', 'moscow', 'moskva | moscow')`,
      `SELECT ts_rewrite('a & b & c & d'::tsquery, 'b & d'::tsquery, 'x | y'::tsquery)`,
      `SELECT ts_rewrite('foo & bar & qq & new & york', 'new & york'::tsquery, 'big & apple | nyc | new & york & city')`,
      `SELECT ts_rewrite('(a | b) & !c & (d <-> e)'::tsquery, 'c'::tsquery, 'f & g'::tsquery)`,
      `SELECT ts_rewrite('a & b'::tsquery, 'a'::tsquery, ''::tsquery), ts_rewrite('a'::tsquery, 'a'::tsquery, ''::tsquery), ts_rewrite('!a'::tsquery, 'a'::tsquery, '')`,
      `SELECT ts_rewrite('5 & (6 | 5)'::tsquery, '5'::tsquery, ''::tsquery), ts_rewrite('a & (b | a)'::tsquery, 'a'::tsquery, 'z'::tsquery)`,
      `SELECT ts_rewrite(''::tsquery, 'a'::tsquery, 'b'::tsquery), ts_rewrite('a'::tsquery, ''::tsquery, 'b'::tsquery), ts_rewrite(NULL::tsquery, 'a', 'b')`,
      `SELECT ts_rewrite('a:A & b:*'::tsquery, 'a'::tsquery, 'c:B'::tsquery)`,
      `SELECT ts_rewrite('x <-> y & z'::tsquery, 'x <-> y'::tsquery, 'w'::tsquery), ts_rewrite('x <2> y & z'::tsquery, 'x <-> y'::tsquery, 'w'::tsquery)`,
      `SELECT ts_rewrite('alpha & beta & gamma & delta & epsilon & zeta'::tsquery, 'gamma & zeta'::tsquery, 'omega'::tsquery)`,
      `SELECT ts_rewrite('alpha | beta | gamma | delta | epsilon | zeta | eta | theta'::tsquery, 'x'::tsquery, 'omega'::tsquery)`,
      `SELECT ts_rewrite('(a & b) | (c & d) | (a & b & c)'::tsquery, 'a & b'::tsquery, 'z'::tsquery)`,
      `SELECT ts_rewrite('été & über & naïve'::tsquery, 'über'::tsquery, 'x'::tsquery)`,
      `SELECT id, ts_rewrite(q, 'fat'::tsquery, 'thin | lean'::tsquery) FROM docs ORDER BY id`,
    ])
      await sameOutcome(sql);
  });

  it("regconfig is a configuration's OID printed as its name: 'english'::regconfig::oid, oid = 'simple'::regconfig, to_tsvector('english'::regconfig, ...); a name that is none 42704 (::oid was 42883, the name was kept as written)", async () => {
    for (const sql of [
      "SELECT 'english'::regconfig, 'english'::regconfig::oid, 'simple'::regconfig::oid::int",
      "SELECT cfgname FROM pg_ts_config WHERE oid = 'simple'::regconfig",
      "SELECT oid::regconfig, oid::regconfig::text, cfgname FROM pg_ts_config WHERE cfgname IN ('simple', 'english') ORDER BY 3",
      "SELECT 3748::regconfig, 13164::regconfig::text, 'English'::regconfig, 'pg_catalog.english'::regconfig, '\"english\"'::regconfig",
      "SELECT to_tsvector('english'::regconfig, body), to_tsvector('simple'::regconfig, body) FROM docs ORDER BY id",
      "SELECT to_tsquery('english'::regconfig, 'foxes & dogs'), plainto_tsquery('simple'::regconfig, 'The Fat Rats')",
      "SELECT id FROM docs WHERE to_tsvector('english'::regconfig, body) @@ to_tsquery('english'::regconfig, 'jump') ORDER BY id",
      "SELECT ts_headline('english'::regconfig, body, to_tsquery('fox')) FROM docs WHERE id = 1",
      "SELECT to_tsvector(cfgname::regconfig, 'Dogs') FROM pg_ts_config WHERE cfgname IN ('simple', 'english') ORDER BY cfgname",
      "SELECT 'nosuch'::regconfig",
      "SELECT to_tsvector('nosuch'::regconfig, 'x')",
    ])
      await sameOutcome(sql);
    // its OID in binary, as regconfigsend sends it
    const binary = async (c: typeof o.patina) =>
      (await c.query({ text: "SELECT 'english'::regconfig AS c", binary: true, rowMode: 'array' } as never)).rows;
    assert.deepEqual(await binary(o.patina), await binary(o.postgres));
  });

  it('the configurations PostgreSQL ships and functions Patina has not are 0A000 naming them', async () => {
    // (PostgreSQL has french; Patina has simple and english)
    await o.postgres.query(`SELECT to_tsvector('french', 'les chats')`);
    await assert.rejects(
      o.patina.query(`SELECT to_tsvector('french', 'les chats')`),
      (e: { code: string; message: string }) => {
        assert.equal(e.code, '0A000');
        assert.match(e.message, /text search configuration "french" is not supported/);
        return true;
      },
    );
    // and so are the functions and forms it has not (where it would answer otherwise)
    for (const [sql, words] of [
      [`SELECT ts_rewrite('a & b'::tsquery, 'SELECT ''a''::tsquery, ''c''::tsquery')`, /ts_rewrite with a query text/],
      [`SELECT * FROM ts_stat('SELECT vec FROM docs')`, /the text search function ts_stat is not supported/],
      [
        `SELECT ts_headline('{"a": "fat cats"}'::jsonb, to_tsquery('cat'))`,
        /ts_headline of json or jsonb is not supported/,
      ],
      [`SELECT * FROM unnest('a:1A b'::tsvector)`, /unnest of a tsvector is not supported/],
      [`SELECT unnest(vec) FROM docs`, /unnest of a tsvector is not supported/],
    ] as const) {
      await o.postgres.query(sql);
      await assert.rejects(o.patina.query(sql), (e: { code: string; message: string }) => {
        assert.equal(e.code, '0A000', sql);
        assert.match(e.message, words, sql);
        return true;
      });
    }
  });
});
