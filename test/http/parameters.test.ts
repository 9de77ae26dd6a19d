import assert from 'node:assert/strict';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { runCli } from '../helpers/cli';
import { openStream, request } from '../helpers/http';
import { type Event, changes, untilChange } from '../helpers/subscriptions';

const SCHEMA = 'CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, name TEXT, score REAL, doc JSONB);\n';

/** POST raw JSON text, as a client writes it (JSON.stringify cannot tell 5 from 5.0). */
const post = (agent: AgentProcess, path: string, text: string) =>
  request(agent.http, 'POST', path, text, { 'content-type': 'application/json' });

/** The one row of a read, its cells. */
async function row(agent: AgentProcess, body: string): Promise<unknown[]> {
  const r = await post(agent, '/v1/queries', body);
  assert.equal(r.status, 200, r.text);
  const rows = r.lines.filter((l) => 'row' in (l as Event)) as { row: [number, unknown[]] }[];
  assert.equal(rows.length, 1, r.text);
  return rows[0].row[1];
}

describe('parameters bind with the type their JSON spelling says', () => {
  let agent: AgentProcess;
  before(async () => {
    agent = await startAgent({ schema: SCHEMA });
  });
  after(async () => agent.dispose());

  it('an integer binds as INTEGER and a fraction or exponent as REAL, in every body form of a query', async () => {
    const bodies = [
      '["SELECT typeof(?), typeof(?), typeof(?), typeof(?), ? / 2", [5, 5.0, 1e2, -7, 5]]',
      '{"query": "SELECT typeof(?), typeof(?), typeof(?), typeof(?), ? / 2", "params": [5, 5.0, 1e2, -7, 5]}',
      '["SELECT typeof(:a), typeof(:b), typeof(:c), typeof(:d), :a / 2", {":a": 5, ":b": 5.0, ":c": 1e2, ":d": -7}]',
      '{"query": "SELECT typeof(@a), typeof(@b), typeof($c), typeof(:d), :a / 2", "named_params": {"a": 5, "@b": 5.0, "$c": 1e2, ":d": -7}}',
    ];
    for (const b of bodies) assert.deepEqual(await row(agent, b), ['integer', 'real', 'real', 'integer', 2], b);
  });

  it('keeps 64-bit integers exact and refuses one outside the range with a 400 naming the parameter', async () => {
    assert.deepEqual(
      await row(agent, '["SELECT ?, typeof(?), ?", [9223372036854775807, 9223372036854775807, -9223372036854775808]]'),
      [9223372036854775807n, 'integer', -9223372036854775808n],
    );
    const r = await post(agent, '/v1/queries', '["SELECT ?, ?", [1, 9223372036854775808]]');
    assert.equal(r.status, 400);
    assert.match((r.json as { error: string }).error, /parameter 2: 9223372036854775808 does not fit a 64-bit integer/);
  });

  it('booleans bind as the INTEGERs 1 and 0, and BLOBs as arrays of byte values', async () => {
    assert.deepEqual(
      await row(agent, '["SELECT ?, typeof(?), ?, typeof(?), hex(?)", [true, true, false, false, [1, 255]]]'),
      [1, 'integer', 0, 'integer', '01FF'],
    );
  });

  it('stores what was written: an integer in a TEXT column is "5", not "5.0"', async () => {
    const w = await post(
      agent,
      '/v1/transactions',
      '[["INSERT INTO users (id, name, score) VALUES (?, ?, ?)", [10, 5, 5]], {"query": "INSERT INTO users (id, name) VALUES (?, ?)", "params": [11, 2.5]}]',
    );
    assert.equal(w.status, 200, w.text);
    assert.deepEqual(await row(agent, '"SELECT name, typeof(name), score, typeof(score) FROM users WHERE id = 10"'), [
      '5',
      'text',
      5,
      'real',
    ]);
    assert.deepEqual(await row(agent, '"SELECT name FROM users WHERE id = 11"'), ['2.5']);
  });

  it("a JSON document that is a number is stored as its text, in a subscription's change too", async () => {
    // JSONB had SQLite's NUMERIC affinity: "1.50" was stored as the REAL 1.5, "12345678901234567890"
    // as 12345678901234567000
    const s = await openStream(agent.http, 'POST', '/v1/subscriptions', '"SELECT id, doc FROM users WHERE id >= 30"');
    await s.until((e) => e.some((x) => 'eoq' in (x as Event)));
    const w = await post(
      agent,
      '/v1/transactions',
      `[["INSERT INTO users (id, doc) VALUES (30, ?), (31, ?), (32, '1e2'), (33, ?)", ["1.50", "12345678901234567890", 5]]]`,
    );
    assert.equal(w.status, 200, w.text);
    const r = await post(agent, '/v1/queries', '"SELECT id, doc, typeof(doc) FROM users WHERE id >= 30 ORDER BY id"');
    const rows = r.lines.filter((l) => 'row' in (l as Event)).map((l) => (l as { row: [number, unknown[]] }).row[1]);
    assert.deepEqual(rows, [
      [30, '1.50', 'text'],
      [31, '12345678901234567890', 'text'],
      [32, '1e2', 'text'],
      [33, '5', 'text'],
    ]);
    await untilChange(s, 4);
    assert.deepEqual(
      changes(s.events).map((c) => c[2]),
      rows.map((x) => x.slice(0, 2)),
    );
    s.close();
  });

  it("SQLite's ?NNN placeholders take their values from the array, repeated and in any order", async () => {
    assert.deepEqual(await row(agent, '["SELECT ?1, typeof(?1), ?2, ?1 + ?2", [5, "x"]]'), [5, 'integer', 'x', 5]);
    assert.deepEqual(await row(agent, '{"query": "SELECT ?2 || ?1", "params": ["a", "b"]}'), ['ba']);
    const w = await post(
      agent,
      '/v1/transactions',
      '[["INSERT INTO users (id, name) VALUES (?1, ?2) ON CONFLICT (id) DO UPDATE SET name = ?2", [12, "dup"]]]',
    );
    assert.equal(w.status, 200, w.text);
    assert.deepEqual(await row(agent, '"SELECT name FROM users WHERE id = 12"'), ['dup']);
  });

  it('refuses SQL that mixes ? and ?NNN, naming the statement', async () => {
    const r = await post(agent, '/v1/transactions', '[["SELECT ?1, ?", [1, 2]]]');
    assert.equal(r.status, 400);
    assert.match(r.text, /statement 1: the SQL mixes \? and \?NNN placeholders/);
  });

  it('a subscription binds the same way, in its rows and in its changes', async () => {
    const s = await openStream(
      agent.http,
      'POST',
      '/v1/subscriptions',
      '["SELECT id, name, typeof(?1) FROM users WHERE id = ?1", [10]]',
    );
    await s.until((e) => e.some((x) => 'eoq' in (x as Event)));
    assert.deepEqual(
      (s.events as Event[]).filter((e) => 'row' in e).map((e) => (e.row as unknown[])[1]),
      [[10, '5', 'integer']],
    );
    const w = await post(agent, '/v1/transactions', '[["UPDATE users SET name = ? WHERE id = ?", ["ten", 10]]]');
    assert.equal(w.status, 200, w.text);
    await untilChange(s, 1);
    assert.deepEqual(changes(s.events)[0].slice(2, 4), [[10, 'ten', 'integer'], 1]);
    s.close();
  });

  describe('the CLI', () => {
    const cli = (args: string[]) => runCli([...args, '--api-addr', agent.http.replace('http://', '')]);

    it('sends --param as a number only when it reads exactly as one, else as text; --param-json and --null for the rest', async () => {
      const sql =
        'SELECT ' + Array.from({ length: 10 }, (_, i) => `quote(?${i + 1}) || ':' || typeof(?${i + 1})`).join(', ');
      const r = await cli([
        'query',
        sql,
        '--param',
        '5',
        '--param',
        '5.0',
        '--param',
        '00123',
        '--param',
        'null',
        '--null',
        '--param',
        '-0',
        '--param',
        '-5',
        '--param-json',
        '"007"',
        '--param',
        '9223372036854775807',
        '--param',
        'true',
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.stdout.trim().split('\t'), [
        '5:integer',
        '5.0:real',
        "'00123':text",
        "'null':text",
        'NULL:null',
        '0:integer',
        '-5:integer',
        "'007':text",
        '9223372036854775807:integer',
        "'true':text",
      ]);
    });

    it('exec takes the same flags; a --param-json that is not JSON is a usage error naming it', async () => {
      const ok = await cli(['exec', 'INSERT INTO users (id, name) VALUES (?, ?)', '--param', '20', '--param', '00123']);
      assert.equal(ok.code, 0, ok.stderr);
      assert.deepEqual(await row(agent, '"SELECT name, typeof(name) FROM users WHERE id = 20"'), ['00123', 'text']);
      const bad = await cli(['query', 'SELECT ?', '--param-json', 'nope']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--param-json "nope" is not JSON/);
    });
  });
});
