// Transaction blocks over the PG port that do not hold the writer (protocols/pg/session/deferred-block.ts):
// each statement is tried out on the writer and undone until COMMIT runs the block for real.
import assert from 'node:assert/strict';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { scrape, value } from '../helpers/metrics';
import { pgClient } from '../helpers/pg';

const SCHEMA = `CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0, note TEXT);`;

describe('PG transaction blocks tried out before COMMIT', function () {
  this.timeout(60000);
  let agent: AgentProcess;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
  });
  after(() => agent.dispose());

  it('writes nothing for statements tried out and rolled back: the data and the write-ahead log stay as they were', async () => {
    const c = pgClient(agent.pg!.port);
    await c.connect();
    try {
      await c.query('INSERT INTO items (id, n, note) VALUES (1, 10, $1)', ['x'.repeat(2000)]);
      const walBefore = value(await scrape(agent.http), 'patina_database_wal_size_bytes');
      for (let i = 0; i < 150; i++) {
        await c.query('BEGIN');
        const r = await c.query('UPDATE items SET n = n + 1, note = $1 WHERE id = $2', ['y'.repeat(2000), 1]);
        assert.equal(r.rowCount, 1); // told as it would be, though nothing is written yet
        assert.deepEqual((await c.query('SELECT n FROM items WHERE id = 1')).rows, [{ n: String(11) }]);
        await c.query('ROLLBACK');
      }
      const walAfter = value(await scrape(agent.http), 'patina_database_wal_size_bytes');
      assert.equal(walAfter, walBefore, `the write-ahead log grew by ${walAfter - walBefore} bytes`);
      assert.deepEqual((await c.query('SELECT n, length(note) AS l FROM items')).rows, [{ n: '10', l: 2000 }]);
      // and a block that commits is written once, as the client was told
      await c.query('BEGIN');
      assert.equal((await c.query('UPDATE items SET n = n + 5 WHERE id = 1')).rowCount, 1);
      assert.equal((await c.query('UPDATE items SET n = n + 5 WHERE id = 2')).rowCount, 0);
      await c.query('COMMIT');
      assert.deepEqual((await c.query('SELECT n FROM items')).rows, [{ n: '15' }]);
    } finally {
      await c.end();
    }
  });
});
