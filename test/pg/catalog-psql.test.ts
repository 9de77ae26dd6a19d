// Schema browsing with psql's \d family, pgcli (completion refresher and \d) and SQLAlchemy/pandas, on Patina and on
// a real PostgreSQL 15 holding the same tables: what the user sees must be the same.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { psql } from '../helpers/pg';

const PYTHON = '/usr/bin/python3'; // Debian's python3, which has pgcli, SQLAlchemy and pandas
const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'catalog-clients');

function python(script: string, args: string[]): unknown {
  const r = spawnSync(PYTHON, [path.join(FIXTURES, script), ...args], { encoding: 'utf8', timeout: 90000 });
  assert.equal(r.status, 0, `${script}:\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe('schema browsing in psql, pgcli and SQLAlchemy against PostgreSQL 15', function () {
  this.timeout(120000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ rows: true });
  });
  after(() => pair?.dispose());

  /** psql's output and errors for one command on both servers. */
  const both = (cmd: string) =>
    [pair.patinaPort, pair.postgresPort].map((port) => {
      const r = psql(port, [cmd]);
      return { status: r.status, out: r.stdout, err: r.stderr };
    });

  for (const cmd of [
    '\\d',
    '\\dt',
    '\\di',
    '\\d orders',
    '\\d+ orders',
    '\\d line_items',
    '\\d+ line_items',
    '\\d customers',
    '\\d orders_pkey',
    '\\d line_items_pkey',
    '\\d orders_paid_placed',
    '\\dn',
    '\\dv',
    '\\ds',
    '\\df',
    '\\dT',
  ])
    it(`psql ${cmd} shows what PostgreSQL shows`, () => {
      const [patina, postgres] = both(cmd);
      assert.equal(postgres.status, 0, postgres.err);
      assert.deepEqual(patina, postgres);
    });

  // roles, extensions, languages, the public schema's privileges: \\du listed pg_database_owner alone (with
  // CREATEROLE and CREATEDB) and no Replication, \\dx no plpgsql, \\dL no c nor plpgsql, \\dn+ no privileges
  for (const cmd of ['\\du', '\\dg', '\\du pg_monitor', '\\dx', '\\dL', '\\dn+'])
    it(`psql ${cmd} shows what PostgreSQL shows`, () => {
      const [patina, postgres] = both(cmd);
      assert.equal(postgres.status, 0, postgres.err);
      assert.deepEqual(patina, postgres);
    });

  // the text search configurations Patina runs (simple, english), their dictionaries, templates and
  // parser: \\dF and the rest listed none (PostgreSQL's other 27 configurations Patina does not run)
  for (const cmd of [
    '\\dF english',
    '\\dF simple',
    '\\dFd english*',
    '\\dFd simple',
    '\\dFp',
    '\\dFt simple',
    '\\dFt snowball',
    `SELECT c.cfgname, c.cfgparser, m.maptokentype, m.mapseqno, d.dictname, d.dictinitoption, t.tmplname, t.tmpllexize
      FROM pg_ts_config c JOIN pg_ts_config_map m ON m.mapcfg = c.oid JOIN pg_ts_dict d ON d.oid = m.mapdict
      JOIN pg_ts_template t ON t.oid = d.dicttemplate WHERE c.cfgname IN ('simple', 'english') ORDER BY 1, 3`,
  ])
    it(`psql ${cmd.split('\n')[0]} shows what PostgreSQL shows`, () => {
      const [patina, postgres] = both(cmd);
      assert.equal(postgres.status, 0, postgres.err);
      assert.match(patina.out, /pg_catalog|english|simple/);
      assert.deepEqual(patina, postgres);
    });

  it("psql's \\dconfig with a pattern shows PostgreSQL's settings, and a setting the session SET is its source `session`, as \\dconfig lists the changed ones (it was `default`)", () => {
    const commands = [
      '\\dconfig work_mem',
      '\\dconfig *date*',
      "SET work_mem = '8MB'",
      'SET search_path = public',
      "SELECT name, setting, source FROM pg_settings WHERE name IN ('work_mem', 'search_path', 'statement_timeout') ORDER BY 1",
      '\\dconfig+ work*',
      'RESET work_mem',
      "SELECT name, setting, source FROM pg_settings WHERE name = 'work_mem'",
    ];
    const [patina, postgres] = [pair.patinaPort, pair.postgresPort].map((port) => psql(port, commands));
    assert.equal(postgres.status, 0, postgres.stderr);
    assert.match(patina.stdout, / work_mem +\| 8192 +\| session\n/);
    assert.equal(patina.stdout, postgres.stdout);
  });

  // builtin functions: pg_proc listed none (\\df now showed no rows, \\sf now printed nothing and exited 0)
  for (const cmd of [
    '\\df+ now',
    '\\df sum',
    '\\df row_number',
    '\\sf now',
    '\\sf upper(text)',
    '\\sf+ pg_catalog.now()',
    '\\sf every',
    '\\sf no_such_function',
    // the session's functions (advisory locks, pg_sleep, timeofday) were missing from pg_proc
    '\\df pg_advisory*',
    '\\df pg_try_advisory*',
    '\\df pg_sleep*',
    '\\df timeofday',
    // (pg_proc lacked the rows of ts_rewrite, json_to_tsvector and jsonb_to_tsvector, which Patina runs)
    '\\df ts_rewrite',
    '\\df json*_to_tsvector',
    "SELECT pg_get_function_arguments('generate_series(int,int)'::regprocedure), pg_get_function_result('upper(text)'::regprocedure), pg_get_function_identity_arguments('lpad(text,int,text)'::regprocedure)",
  ])
    it(`psql ${cmd} shows what PostgreSQL shows`, () => {
      const [patina, postgres] = both(cmd);
      assert.deepEqual(patina, postgres);
    });

  // builtin operators: pg_operator had no rows (\\do listed none, to_regoper and to_regoperator were 42883)
  for (const cmd of [
    '\\do ||/',
    '\\do+ ^@',
    '\\do @@',
    '\\do - bigint',
    "SELECT to_regoper('||/'), to_regoper('+'), to_regoper('pg_catalog.^@'), to_regoper('nope'), to_regoperator('+(int4,int4)'), to_regoperator('-(NONE,bigint)'), to_regoperator('+(text,text)')",
    "SELECT to_regoperator('+(int4)')",
    "SELECT to_regoperator('+(nosuch,int4)')",
    "SELECT to_regoper('')",
    'SELECT count(*), count(DISTINCT oprname) FROM pg_operator',
  ])
    it(`psql ${cmd} shows what PostgreSQL shows`, () => {
      const [patina, postgres] = both(cmd);
      assert.deepEqual(patina, postgres);
    });

  it("psql \\df upper and \\df sum list PostgreSQL's signatures, those of types Patina has no values of too (upper(anyrange), sum(money): pg_proc listed only upper(text))", () => {
    for (const cmd of ['\\df upper', '\\df sum', '\\df length']) {
      const [patina, postgres] = both(cmd);
      assert.deepEqual(patina, postgres);
    }
    const [upper] = both('\\df upper');
    assert.match(upper.out, / upper \| anyelement +\| anyrange +\| func\n/);
    assert.match(upper.out, /\(3 rows\)/);
  });

  it('psql \\d on a relation that does not exist says so as PostgreSQL does', () => {
    const [patina, postgres] = both('\\d no_such_table');
    assert.match(postgres.err, /Did not find any relation named "no_such_table"/);
    assert.deepEqual(patina, postgres);
  });

  it('current_setting: max_index_keys as PostgreSQL has it; an unknown name is 42704, or NULL with missing_ok', () => {
    for (const sql of [
      "SELECT current_setting('max_index_keys'), current_setting('max_identifier_length')",
      "SELECT current_setting('no_such_setting', true) IS NULL",
      "SELECT setting FROM pg_settings WHERE name = 'max_index_keys'",
    ]) {
      const [patina, postgres] = both(sql);
      assert.equal(postgres.status, 0, postgres.err);
      assert.deepEqual(patina, postgres, sql);
    }
    const [patina, postgres] = both("SELECT current_setting('no_such_setting')");
    assert.match(postgres.err, /unrecognized configuration parameter "no_such_setting"/);
    assert.deepEqual(patina, postgres);
  });

  it("pgcli's completion refresher, completions and \\d show what they show on PostgreSQL", () => {
    const cmds = ['\\d orders', '\\d line_items', '\\dt', '\\di', '\\d no_such_table'];
    const patina = python('pgcli_catalog.py', [String(pair.patinaPort), ...cmds]) as Record<string, unknown>;
    const postgres = python('pgcli_catalog.py', [String(pair.postgresPort), ...cmds]);
    assert.deepEqual(patina['columns of o.'], ['amount', 'customer_id', 'id', 'note', 'paid', 'placed_at', 'ref']);
    assert.deepEqual(patina, postgres);
  });

  it('SQLAlchemy reflection and pandas.read_sql_table see what they see on PostgreSQL', () => {
    const patina = python('sqlalchemy_catalog.py', [String(pair.patinaPort)]) as Record<
      string,
      Record<string, unknown>
    >;
    const postgres = python('sqlalchemy_catalog.py', [String(pair.postgresPort)]);
    assert.deepEqual(patina.line_items.pk, { constrained_columns: ['order_id', 'line'], name: 'line_items_pkey' });
    assert.deepEqual(patina, postgres);
  });
});
