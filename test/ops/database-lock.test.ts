import assert from 'node:assert/strict';
import path from 'node:path';
import { startAgent } from '../helpers/agent';
import { runCli } from '../helpers/cli';
import { postJson } from '../helpers/http';

const SCHEMA = 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);\n';

describe('one agent per database', function () {
  this.timeout(60_000);

  it('stops a second agent on the same --db-path at once, naming the running agent pid, and leaves the first serving', async () => {
    const first = await startAgent({ schema: SCHEMA });
    try {
      const t0 = Date.now();
      const second = await runCli(
        [
          'agent',
          '--db-path',
          first.dbPath,
          '--api-addr',
          '127.0.0.1:0',
          '--schema',
          path.join(first.dir, 'schema.sql'),
        ],
        { cwd: first.dir },
      );
      assert.notEqual(second.code, 0, second.stdout);
      assert.match(second.stderr, new RegExp(`in use by a running agent \\(pid ${first.proc.pid}\\)`));
      assert.doesNotMatch(second.stdout, /agent ready/);
      assert.ok(Date.now() - t0 < 15_000, 'it stops instead of waiting for the lock');
      const w = await postJson(first.http, '/v1/transactions', ["INSERT INTO t VALUES (1, 'still serving')"]);
      assert.equal(w.status, 200, w.text);
    } finally {
      await first.stop();
      await first.dispose();
    }
  });

  it('is free again once the agent is gone, even after SIGKILL', async () => {
    const a = await startAgent({ schema: SCHEMA });
    const dir = a.dir;
    try {
      await a.kill();
      const b = await startAgent({ schema: SCHEMA, dir });
      const r = await postJson(b.http, '/v1/transactions', ["INSERT INTO t VALUES (2, 'after kill')"]);
      assert.equal(r.status, 200, r.text);
      await b.stop();
      const c = await startAgent({ schema: SCHEMA, dir });
      await c.stop();
    } finally {
      await a.dispose();
    }
  });
});
