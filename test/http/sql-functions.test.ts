import assert from 'node:assert/strict';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { postJson } from '../helpers/http';
import { type PgClient, pgClient } from '../helpers/pg';

describe('REGEXP in reads, over HTTP and PostgreSQL', () => {
  let agent: AgentProcess;
  let client: PgClient;
  before(async () => {
    agent = await startAgent({ args: ['--pg-addr', '127.0.0.1:0'] });
    const w = await postJson(agent.http, '/v1/transactions', [
      ["INSERT INTO users (id, name) VALUES (1, 'Ann'), (2, 'bob'), (3, 'Anna')"],
    ]);
    assert.equal(w.status, 200, w.text);
    client = pgClient(agent.pg!.port);
    await client.connect();
  });
  after(async () => {
    await client?.end();
    await agent.dispose();
  });

  it('matches with REGEXP in POST /v1/queries', async () => {
    const r = await postJson(agent.http, '/v1/queries', [
      'SELECT id FROM users WHERE name REGEXP ? ORDER BY id',
      ['^Ann'],
    ]);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.lines.slice(1, -1), [{ row: [1, [1]] }, { row: [2, [3]] }]);
  });

  it('refuses a bad pattern with a 400 naming it', async () => {
    const r = await postJson(agent.http, '/v1/queries', "SELECT id FROM users WHERE name REGEXP '(unclosed'");
    assert.equal(r.status, 400);
    assert.match((r.json as { error: string }).error, /regular expression/i);
  });

  it('answers ~ and ~* on user tables through the PG listener', async () => {
    assert.deepEqual(
      (await client.query("SELECT id FROM users WHERE name ~ '^Ann' ORDER BY id")).rows.map((r) =>
        Number((r as { id: unknown }).id),
      ),
      [1, 3],
    );
    assert.deepEqual(
      (await client.query("SELECT id FROM users WHERE name ~* '^(ann|BOB)$' ORDER BY id")).rows.map((r) =>
        Number((r as { id: unknown }).id),
      ),
      [1, 2],
    );
  });
});
