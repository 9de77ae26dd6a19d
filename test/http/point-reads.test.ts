import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { postJson, request } from '../helpers/http';
import { pgClient } from '../helpers/pg';

// Point reads (one row by its key) are answered on the agent's own thread, the rest by read workers;
// from outside both must look the same.
describe('point reads answered in-process', () => {
  let agent: AgentProcess;
  const schema =
    'CREATE TABLE kv (k INTEGER NOT NULL PRIMARY KEY, v TEXT);\nCREATE TABLE pair (a TEXT NOT NULL, b INTEGER NOT NULL, v TEXT, PRIMARY KEY (a, b));\n';
  before(async () => {
    agent = await startAgent({ schema, args: ['--pg-addr', '127.0.0.1:0'] });
  });
  after(async () => agent.dispose());

  it('see a write acknowledged just before, for single and composite keys', async () => {
    for (let i = 1; i <= 20; i++) {
      const w = await postJson(agent.http, '/v1/transactions', [
        ['INSERT INTO kv (k, v) VALUES (?, ?)', [i, `v${i}`]],
        ['INSERT INTO pair VALUES (?, ?, ?)', ['x', i, `p${i}`]],
      ]);
      assert.equal(w.status, 200, w.text);
      const r = await postJson(agent.http, '/v1/queries', ['SELECT v FROM kv WHERE k = ?', [i]]);
      assert.deepEqual(r.lines, [
        { columns: ['v'] },
        { row: [1, [`v${i}`]] },
        { eoq: { time: (r.lines[2] as { eoq: { time: number } }).eoq.time } },
      ]);
      const p = await postJson(agent.http, '/v1/queries', ['SELECT v FROM pair WHERE a = ? AND b = ?', ['x', i]]);
      assert.deepEqual(p.lines[1], { row: [1, [`p${i}`]] });
    }
  });

  it('do not see a PostgreSQL transaction until it commits, and see it right after', async () => {
    const point = async () =>
      (await postJson(agent.http, '/v1/queries', ['SELECT v FROM kv WHERE k = ?', [500]])).lines.slice(1, -1);
    const client = pgClient(agent.pg!.port);
    await client.connect();
    try {
      assert.deepEqual(await point(), []);
      await client.query('BEGIN');
      await client.query("INSERT INTO kv (k, v) VALUES (500, 'in pg')");
      assert.deepEqual(await point(), [], 'an uncommitted write is visible to a point read');
      await client.query('COMMIT');
      assert.deepEqual(await point(), [{ row: [1, ['in pg']] }]);
      await client.query("UPDATE kv SET v = 'again' WHERE k = 500");
      assert.deepEqual(await point(), [{ row: [1, ['again']] }]);
    } finally {
      await client.end();
    }
  });

  it('answer every row of a read by keys that has more than one result row (UNION ALL), over HTTP and PostgreSQL', async () => {
    const w = await postJson(agent.http, '/v1/transactions', [
      ['INSERT INTO kv (k, v) VALUES (?, ?)', [701, 'a']],
      ['INSERT INTO kv (k, v) VALUES (?, ?)', [702, 'b']],
    ]);
    assert.equal(w.status, 200, w.text);
    const sql = 'SELECT v FROM kv WHERE k = ? UNION ALL SELECT v FROM kv WHERE k = ?';
    const r = await postJson(agent.http, '/v1/queries', [sql, [701, 702]]);
    assert.deepEqual(r.lines.slice(1, -1), [{ row: [1, ['a']] }, { row: [2, ['b']] }]);
    const client = pgClient(agent.pg!.port);
    await client.connect();
    try {
      const both = await client.query(sql.replace('?', '$1').replace('?', '$2'), [701, 702]);
      assert.deepEqual(both.rows, [{ v: 'a' }, { v: 'b' }]);
      assert.deepEqual((await client.query('SELECT v FROM kv WHERE k = $1', [702])).rows, [{ v: 'b' }]);
    } finally {
      await client.end();
    }
  });

  it('give an empty result for a missing key, and 64-bit keys exactly', async () => {
    const r = await request(
      agent.http,
      'POST',
      '/v1/queries',
      '["SELECT k FROM kv WHERE k = ?", [9223372036854775807]]',
    );
    assert.equal(r.status, 200);
    assert.equal(r.lines.length, 2);
    const w = await request(
      agent.http,
      'POST',
      '/v1/transactions',
      '[["INSERT INTO kv (k, v) VALUES (?, ?)", [9223372036854775807, "max"]]]',
    );
    assert.equal(w.status, 200, w.text);
    const again = await request(
      agent.http,
      'POST',
      '/v1/queries',
      '["SELECT k, v FROM kv WHERE k = ?", [9223372036854775807]]',
    );
    assert.match(again.text, /\{"row":\[1,\[9223372036854775807,"max"\]\]\}/);
  });

  it('refuse parameters that do not bind with a 400 naming the fault', async () => {
    const r = await postJson(agent.http, '/v1/queries', ['SELECT v FROM kv WHERE k = ?', [1, 2]]);
    assert.equal(r.status, 400);
    assert.match((r.json as { error: string }).error, /parameter/i);
  });

  it('show columns added by a schema reload in SELECT *', async () => {
    const before = await postJson(agent.http, '/v1/queries', ['SELECT * FROM kv WHERE k = ?', [1]]);
    assert.deepEqual(before.lines[0], { columns: ['k', 'v'] });
    fs.writeFileSync(path.join(agent.dir, 'schema.sql'), schema.replace('v TEXT);', "v TEXT, w TEXT DEFAULT 'new');"));
    const rl = await request(agent.http, 'POST', '/v1/admin/reload');
    assert.equal(rl.status, 200, rl.text);
    assert.match(rl.text, /kv\.w/);
    const after = await postJson(agent.http, '/v1/queries', ['SELECT * FROM kv WHERE k = ?', [1]]);
    assert.deepEqual(
      after.lines.slice(0, 2),
      [{ columns: ['k', 'v', 'w'] }, { row: [1, [1, 'v1', 'new']] }],
      after.text,
    );
    // The same through a read worker (a scan, not a point read).
    const scan = await postJson(agent.http, '/v1/queries', 'SELECT * FROM kv ORDER BY k LIMIT 1');
    assert.deepEqual(scan.lines.slice(0, 2), [{ columns: ['k', 'v', 'w'] }, { row: [1, [1, 'v1', 'new']] }], scan.text);
  });
});
