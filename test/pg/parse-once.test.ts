// A statement seen for the first time is parsed by PostgreSQL's parser once (sql/parse.ts), however
// many passes of the analysis read its tree (statement kind, grouping, scalar subqueries, typed
// operators, USING stars, JSON layout, parameter and result types, upsert keys), and once more for
// its shape (literals replaced) when that differs; before, each pass parsed it again (8 to 10
// parses). Counted by /metrics' patina_pg_parses_total over a real socket, with the answers checked.
import assert from 'node:assert/strict';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { scrape, value } from '../helpers/metrics';
import { type PgClient, pgClient } from '../helpers/pg';

const SCHEMA =
  'CREATE TABLE orders (id INTEGER NOT NULL PRIMARY KEY, amount NUMERIC(10, 2), at TIMESTAMP, doc JSON);' +
  'CREATE TABLE notes (id INTEGER NOT NULL PRIMARY KEY, note TEXT);';

describe('PG statements parsed once per analysis', function () {
  this.timeout(60000);
  let agent: AgentProcess;
  let c: PgClient;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    c = pgClient(agent.pg!.port);
    await c.connect();
    await c.query(
      `INSERT INTO orders VALUES (1, 2.50, '2026-01-01 10:00:00', '{"a": 1}'), (2, 4.00, '2026-01-02 10:00:00', NULL)`,
    );
    await c.query(`INSERT INTO notes VALUES (1, 'one'), (2, 'two')`);
  });
  after(async () => {
    await c?.end();
    await agent?.dispose();
  });

  const parses = async () => value(await scrape(agent.http), 'patina_pg_parses_total');
  /** The rows of `sql` (simple protocol, or extended with `params`) and the parses it cost. */
  async function counted(sql: string, params?: unknown[]) {
    const before = await parses();
    const r = await c.query(sql, params);
    return { rows: r.rows, parses: (await parses()) - before };
  }

  it('a query every pass reads (WITH, grouping, scalar subquery, typed operators, USING, json, parameters, result types) parses once', async () => {
    const sql =
      'WITH x AS (SELECT id, amount FROM orders) ' +
      'SELECT o.id, sum(x.amount) AS total, (SELECT max(n.note) FROM notes n WHERE n.id = o.id) AS note, ' +
      'json_build_object($1::text, o.id) AS j, o.at + $2::interval AS later ' +
      'FROM orders o JOIN x USING (id) WHERE o.id <= $3 GROUP BY o.id, o.at ORDER BY o.id';
    const first = await counted(sql, ['k', '1 day', 2]);
    assert.equal(first.parses, 1);
    assert.deepEqual(
      first.rows.map((r) => [r.id, r.total, r.note, r.j]),
      [
        ['1', '2.50', 'one', { k: 1 }],
        ['2', '4.00', 'two', { k: 2 }],
      ],
    );
    // analysed: no parse at all the next time
    assert.equal((await counted(sql, ['k', '1 day', 1])).parses, 0);
  });

  it('literals the simple protocol leaves in the text: the statement once and its shape once', async () => {
    const first = await counted(`SELECT id, id * 2 AS twice, doc FROM orders WHERE at > '2026-01-01 12:00' ORDER BY 1`);
    assert.equal(first.parses, 2);
    assert.deepEqual(first.rows, [{ id: '2', twice: '4', doc: null }]);
  });

  it('a multi-row upsert and an UPDATE ... FROM parse once each', async () => {
    const up = await counted(
      'INSERT INTO notes (id, note) VALUES ($1, $2), ($3, $4) ON CONFLICT (id) DO UPDATE SET note = excluded.note RETURNING id, note',
      [2, 'deux', 3, 'trois'],
    );
    assert.equal(up.parses, 1);
    assert.deepEqual(up.rows, [
      { id: '2', note: 'deux' },
      { id: '3', note: 'trois' },
    ]);
    const upd = await counted(
      'UPDATE orders SET amount = o.amount + n.id FROM orders o JOIN notes n USING (id) WHERE orders.id = o.id AND o.id = $1',
      [1],
    );
    assert.equal(upd.parses, 1);
  });

  it('a simple query with no literal to lift out is analysed once: the same text again is a cache hit (it was analysed each time)', async () => {
    const hits = async () => value(await scrape(agent.http), 'patina_pg_analysis_cache_total{result="hit"}');
    const sql = 'SELECT count(*) AS n, max(amount) AS top FROM orders WHERE doc IS NULL';
    const first = await counted(sql);
    assert.equal(first.parses, 1);
    assert.deepEqual(first.rows, [{ n: '1', top: '4.00' }]); // (no literal: nothing to lift)
    const before = await hits();
    const again = await counted(sql);
    assert.equal(again.parses, 0);
    assert.deepEqual(again.rows, first.rows);
    assert.equal((await hits()) - before, 1);
    // a write too, and what it wrote is there
    await c.query("UPDATE notes SET note = note || '!' WHERE id = 1");
    await c.query("UPDATE notes SET note = note || '!' WHERE id = 1");
    assert.deepEqual((await c.query('SELECT note FROM notes WHERE id = 1')).rows, [{ note: 'one!!' }]);
  });

  it('a Query of several statements is parsed as a whole once (PostgreSQL parses it before running any): the same message again parses nothing', async () => {
    const sql = 'SELECT count(*) AS n FROM notes WHERE id <= 2; SELECT max(amount) AS top FROM orders';
    const results = async () => {
      const before = await parses();
      const r = (await c.query(sql)) as unknown as { rows: unknown[] }[];
      return { rows: r.map((x) => x.rows), parses: (await parses()) - before };
    };
    const first = await results();
    assert.equal(first.parses, 3); // the whole text, then each statement for its analysis
    assert.deepEqual(first.rows, [[{ n: '2' }], [{ top: '4.00' }]]);
    assert.deepEqual(await results(), { rows: first.rows, parses: 0 });
  });

  it('a text that does not parse is refused as before (42601), each time', async () => {
    for (let i = 0; i < 2; i++)
      await assert.rejects(c.query('SELECT id FROM orders WHERE (id = $1', [1]), (e: Error & { code?: string }) => {
        assert.equal(e.code, '42601');
        assert.match(e.message, /syntax error at end of input/);
        return true;
      });
  });
});
