import assert from 'node:assert/strict';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { postJson, request } from '../helpers/http';

describe('an agent started from the CLI', () => {
  let agent: AgentProcess;
  before(async () => {
    agent = await startAgent();
  });
  after(async () => agent.dispose());

  it('is healthy and lists the example schema tables', async () => {
    const res = await request(agent.http, 'GET', '/v1/health');
    assert.equal(res.status, 200);
    assert.deepEqual((res.json as { tables: string[] }).tables.sort(), ['todos', 'users']);
  });

  it('writes through /v1/transactions and reads it back through /v1/queries', async () => {
    const w = await postJson(agent.http, '/v1/transactions', [
      ['INSERT INTO users (id, name) VALUES (?, ?)', [1, 'ann']],
    ]);
    assert.equal(w.status, 200, w.text);
    const r = await postJson(agent.http, '/v1/queries', 'SELECT id, name FROM users');
    assert.deepEqual(r.lines.slice(0, 2), [{ columns: ['id', 'name'] }, { row: [1, [1, 'ann']] }]);
  });
});
