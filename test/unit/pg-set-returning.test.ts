// translate/set-returning.ts on tokens: each shape in, the SQLite SQL out, and the shapes the text
// rewrite it replaced got wrong (a string holding `FROM unnest(x) a` was rewritten; an alias followed
// by LIMIT or CROSS JOIN was not). test/pg/functions-oracle.test.ts runs the same against PostgreSQL 15.
import assert from 'node:assert/strict';
import { lexPg } from '../../protocols/pg/sql/lexer';
import { type Tok, joinTokens } from '../../protocols/pg/sql/tokens';
import { rewriteSetReturning } from '../../protocols/pg/sql/translate/set-returning';
import { rewriteSelectListSeries } from '../../protocols/pg/sql/translate/standard-forms';

const toks = (sql: string): Tok[] => lexPg(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
const srf = (sql: string, local = false) => joinTokens(rewriteSetReturning(toks(sql), local));
const series = (sql: string) => joinTokens(rewriteSelectListSeries(toks(sql)));

describe('set-returning functions in FROM, as tokens', () => {
  it("a function's alias names its value: a one-column subquery (string_to_array: its one array)", () => {
    assert.equal(
      srf('SELECT i FROM generate_series(1, 3) AS i'),
      'SELECT i FROM(SELECT value AS i FROM generate_series(1, 3)) i',
    );
    assert.equal(
      srf(`SELECT x FROM unnest('{4,5}') AS "x" ORDER BY x`),
      `SELECT x FROM(SELECT value AS "x" FROM unnest('{4,5}')) "x" ORDER BY x`,
    );
    assert.equal(
      srf("SELECT r FROM regexp_split_to_table('a,b', ',') r, string_to_array('x,y', ',') s"),
      "SELECT r FROM(SELECT value AS r FROM regexp_split_to_table('a,b', ',')) r, (SELECT string_to_array('x,y', ',') AS s) s",
    );
    // in a subquery, and in a WITH query of an INSERT
    assert.equal(
      srf('INSERT INTO p(id) WITH s(c) AS(SELECT 100 + g FROM generate_series(1, 3) g) SELECT c FROM s'),
      'INSERT INTO p(id) WITH s(c) AS(SELECT 100 + g FROM(SELECT value AS g FROM generate_series(1, 3)) g) SELECT c FROM s',
    );
  });

  it('after JOIN or a comma, a call reading a column stays per row and a bare alias reads its value', () => {
    assert.equal(
      srf(
        `SELECT d.id, e FROM docs d, __pg_jsonb_array_elements(d.data -> 'tags') AS "e" WHERE e <> 'x' ORDER BY d.id, e`,
      ),
      `SELECT d.id, "e".value FROM docs d, __pg_jsonb_array_elements(d.data -> 'tags') AS "e" WHERE "e".value <> 'x' ORDER BY d.id, "e".value`,
    );
    // a qualified name, a call, a name being defined and a string keep theirs
    assert.equal(
      srf("SELECT t AS tag, b.t, t(1), 't' FROM books b CROSS JOIN unnest(b.tags) AS t"),
      "SELECT t.value AS tag, b.t, t(1), 't' FROM books b CROSS JOIN unnest(b.tags) AS t",
    );
    // the first FROM item has no row to read: its arguments are constants or outer columns
    assert.equal(srf('SELECT u FROM unnest(x) u'), 'SELECT u FROM(SELECT value AS u FROM unnest(x)) u');
  });

  it('on the catalog connection: a one-name column list, and no alias (the column is named after the function)', () => {
    assert.equal(
      srf('SELECT pos.n FROM pg_constraint con, generate_series(1, 32) pos(n) WHERE con.oid > 0', true),
      'SELECT pos.n FROM pg_constraint con, (SELECT value AS n FROM generate_series(1, 32)) pos WHERE con.oid > 0',
    );
    assert.equal(
      srf('SELECT * FROM unnest(current_schemas(true))', true),
      'SELECT * FROM(SELECT value AS unnest FROM unnest(current_schemas(true))) unnest',
    );
    assert.equal(
      srf("SELECT * FROM unnest('{a}') WHERE unnest <> ''", true),
      "SELECT * FROM(SELECT value AS unnest FROM unnest('{a}')) unnest WHERE unnest <> ''",
    );
    // elsewhere the column lists are function-columns.ts's; a bare call is named after the function
    // too (PostgreSQL's `unnest`, which `FROM books b, unnest(b.tags)` reads: it was SQLite's `value`)
    assert.equal(srf('SELECT * FROM unnest(x)'), 'SELECT * FROM(SELECT value AS unnest FROM unnest(x)) unnest');
  });

  it("calls in a select list: a join with the function, several in step with __pg_srf_zip (SQLAlchemy's key query)", () => {
    assert.equal(
      series('SELECT id, unnest(tags) FROM t WHERE id > 1'),
      'SELECT id, "__pg_srf".value FROM t, unnest(tags) AS "__pg_srf" WHERE id > 1',
    );
    assert.equal(
      series(
        'SELECT a.attname FROM pg_attribute a JOIN(SELECT unnest(ix.indkey) attnum, generate_subscripts(ix.indkey, 1) ord FROM pg_index ix WHERE ix.indisprimary) k ON a.attnum = k.attnum',
      ),
      `SELECT a.attname FROM pg_attribute a JOIN(SELECT "__pg_srf".v1 attnum, "__pg_srf".v2 ord FROM pg_index ix, __pg_srf_zip('unnest', ifnull(ix.indkey, x''), x'', x'', 'generate_subscripts', ifnull(ix.indkey, x''), ifnull(1, x''), x'') AS "__pg_srf" WHERE ix.indisprimary) k ON a.attnum = k.attnum`,
    );
    // a subquery's call is its own; with an aggregate the call runs after it in PostgreSQL: refused
    assert.equal(
      series('SELECT x, (SELECT unnest(y)) FROM t'),
      'SELECT x, (SELECT "unnest" FROM unnest(y) AS "unnest") FROM t',
    );
    assert.throws(() => series('SELECT count(*), unnest(y) FROM t'), /unnest\(\) in a select list is supported alone/);
  });

  it('what the text rewrite got wrong: strings, aliases before LIMIT or CROSS JOIN, groups of earlier passes', () => {
    // the string is text, not a FROM item (it became 'FROM (SELECT value AS a FROM unnest(x)) a')
    const quoted = "SELECT 'FROM unnest(x) a' AS s FROM orders";
    assert.equal(srf(quoted), quoted);
    // an alias followed by LIMIT or CROSS JOIN names the value too (SQLite had no column x)
    assert.equal(
      srf('SELECT x FROM unnest(__pg_array(1, 2)) x LIMIT 1'),
      'SELECT x FROM(SELECT value AS x FROM unnest(__pg_array(1, 2))) x LIMIT 1',
    );
    assert.equal(
      srf('SELECT g, count(*) FROM generate_series(1, 2) AS g CROSS JOIN t GROUP BY g'),
      'SELECT g, count(*) FROM(SELECT value AS g FROM generate_series(1, 2)) g CROSS JOIN t GROUP BY g',
    );
    // a group an earlier pass wrote is read back into tokens: a FROM item inside it is one too
    const grouped: Tok[] = [
      ...toks('SELECT array_to_string('),
      {
        type: 'group',
        text: "(WITH __a(v) AS(select 'toast.' || x from unnest(tc.reloptions) x) SELECT __pg_array_agg(v) FROM __a)",
      },
      ...toks(", ', ') FROM pg_class tc"),
    ];
    assert.equal(
      joinTokens(rewriteSetReturning(grouped, true)),
      "SELECT array_to_string((WITH __a(v) AS(select 'toast.' || x from(SELECT value AS x FROM unnest(tc.reloptions)) x) SELECT __pg_array_agg(v) FROM __a), ', ') FROM pg_class tc",
    );
  });

  it("a blob literal another pass wrote (casts.ts's X'01') stays one token when groups are read back", () => {
    const withBlob: Tok[] = [
      ...toks('SELECT i,'),
      { type: 'group', text: "X'01'" },
      ...toks('FROM generate_series(1, 2) AS i'),
    ];
    assert.equal(
      joinTokens(rewriteSetReturning(withBlob, true)),
      "SELECT i, X'01' FROM(SELECT value AS i FROM generate_series(1, 2)) i",
    );
  });

  it('a select list call already made a join, and unclosed input, are left as they are', () => {
    const joined = 'SELECT "__pg_srf".value AS tag FROM t, jsonb_array_elements_text(tags) AS "__pg_srf"';
    assert.equal(srf(joined), joined);
    assert.equal(srf('SELECT 1 FROM generate_series('), 'SELECT 1 FROM generate_series(');
    assert.equal(srf('SELECT 1 FROM unnest(x) AS'), 'SELECT 1 FROM unnest(x) AS');
  });
});
