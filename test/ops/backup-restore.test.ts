import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { runCli } from '../helpers/cli';
import { postJson, request } from '../helpers/http';
import { rows } from '../helpers/cluster';
import { write } from '../helpers/http';

const SCHEMA = `
CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, grp INTEGER, payload TEXT);
CREATE TABLE counter (id INTEGER NOT NULL PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0);
`;

describe('online backup and restore', function () {
  this.timeout(180_000);
  let agent: AgentProcess;
  let dir: string;
  let addr: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-backup-'));
    agent = await startAgent({ schema: SCHEMA });
    addr = agent.http.replace('http://', '');
    // About 15 MB, so that the copy takes a while and shows progress.
    for (let b = 0; b < 2; b++) {
      await write(agent.http, [
        `INSERT INTO items (id, grp, payload) WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000) SELECT ${b * 10000} + x, x % 7, hex(randomblob(300)) FROM c`,
      ]);
    }
    await write(agent.http, ['INSERT INTO counter (id, n) VALUES (1, 0)']);
  });
  after(async () => {
    await agent?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies the database while writes go on, and the restored copy matches the source row by row', async () => {
    const file = path.join(dir, 'during-writes.db');
    // Each transaction adds two rows and bumps the counter: a consistent copy holds all three or none.
    let i = 0;
    let stop = false;
    let ackedBeforeBackup = -1;
    const ackedDuring: number[] = [];
    let backupRunning = false;
    const writer = (async () => {
      while (!stop) {
        await write(agent.http, [
          [
            'INSERT INTO items (id, grp, payload) VALUES (?, 100, ?), (?, 100, ?)',
            [100000 + 2 * i, `w${i}a`, 100001 + 2 * i, `w${i}b`],
          ],
          'UPDATE counter SET n = n + 1 WHERE id = 1',
        ]);
        if (backupRunning) ackedDuring.push(i);
        i++;
      }
    })();
    while (i < 20) await new Promise((r) => setTimeout(r, 20));
    ackedBeforeBackup = i - 1;
    backupRunning = true;
    let slowestPointRead = 0;
    const reader = (async () => {
      while (backupRunning) {
        const t0 = Date.now();
        const r = await postJson(agent.http, '/v1/queries', ['SELECT n FROM counter WHERE id = ?', [1]]);
        assert.equal(r.status, 200);
        slowestPointRead = Math.max(slowestPointRead, Date.now() - t0);
        await new Promise((res) => setTimeout(res, 20));
      }
    })();
    const backup = await runCli(['backup', file, '--api-addr', addr], { timeoutMs: 120_000 });
    backupRunning = false;
    await reader;
    // a few more writes after the backup, which the copy must not have
    const target = i + 5;
    while (i < target) await new Promise((r) => setTimeout(r, 20));
    stop = true;
    await writer;
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, new RegExp(`backup written to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(backup.stderr, /backup: \d+% \(/, 'progress is shown');
    assert.match(backup.stderr, /backup: 100%/);
    assert.ok(ackedDuring.length > 0, 'writes were acknowledged while the backup ran');
    assert.ok(slowestPointRead < 1000, `point reads stay answered during the backup (slowest ${slowestPointRead} ms)`);

    // A folder that does not exist yet, two levels deep: restore makes it, as `patina agent --db-path` does.
    const restoredPath = path.join(dir, 'restored', 'new', 'patina.db');
    assert.equal(fs.existsSync(path.dirname(restoredPath)), false);
    const restore = await runCli(['restore', file, '--db-path', restoredPath]);
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(restore.stdout, /new actor id [0-9a-f]{32}/);
    const restored = await startAgent({ schema: SCHEMA, dir: path.dirname(restoredPath) });
    try {
      const copy = await rows(restored.http, 'SELECT id, grp, payload FROM items ORDER BY id');
      const source = await rows(agent.http, 'SELECT id, grp, payload FROM items ORDER BY id');
      const byId = new Map(source.map((r) => [String(r[0]), JSON.stringify(r)]));
      for (const r of copy)
        assert.equal(JSON.stringify(r), byId.get(String(r[0])), `row ${r[0]} of the copy is the source's`);
      const n = Number((await rows(restored.http, 'SELECT n FROM counter WHERE id = 1'))[0][0]);
      const written = copy.filter((r) => Number(r[0]) >= 100000).map((r) => Number(r[0]));
      // The copy is one committed state: transactions 0..n-1 whole, none after.
      assert.deepEqual(
        written,
        Array.from({ length: 2 * n }, (_, k) => 100000 + k),
      );
      assert.equal(copy.length, 20000 + 2 * n);
      assert.ok(
        n - 1 >= ackedBeforeBackup,
        `writes acknowledged before the backup began are in it (${n} >= ${ackedBeforeBackup + 1})`,
      );
      assert.ok(n < i, 'writes made after the backup ended are not');
      // The restored agent writes under a new actor id, from version 1.
      const w = await write(restored.http, [
        "INSERT INTO items (id, grp, payload) VALUES (1, 1, 'x') ON CONFLICT (id) DO UPDATE SET payload = 'restored'",
      ]);
      const src = await write(agent.http, ['UPDATE counter SET n = n WHERE id = 1']);
      assert.notEqual(w.actor_id, src.actor_id);
      assert.equal(w.version, 1);
    } finally {
      await restored.dispose();
    }
  });

  it('refuses bad targets and sources with clear errors, and the agent lives on', async () => {
    const existing = path.join(dir, 'exists.db');
    fs.writeFileSync(existing, 'x');
    const over = await runCli(['backup', existing, '--api-addr', addr]);
    assert.notEqual(over.code, 0);
    assert.match(over.stderr, /exists already/);
    const noFolder = await runCli(['backup', path.join(dir, 'nope', 'b.db'), '--api-addr', addr]);
    assert.notEqual(noFolder.code, 0);
    assert.match(noFolder.stderr, /folder .*nope does not exist/);
    const relative = await postJson(agent.http, '/v1/admin/backup', { path: 'rel.db' });
    assert.equal(relative.status, 400);
    assert.match(String((relative.json as { error: string }).error), /must be absolute/);
    const noPath = await postJson(agent.http, '/v1/admin/backup', { file: '/tmp/x.db' });
    assert.equal(noPath.status, 400);
    assert.equal((await request(agent.http, 'GET', '/v1/admin/backup')).status, 405);

    const missing = await runCli(['restore', path.join(dir, 'missing.db'), '--db-path', path.join(dir, 'r1.db')]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /does not exist/);
    const notBackup = await runCli(['restore', existing, '--db-path', path.join(dir, 'r2.db')]);
    assert.notEqual(notBackup.code, 0);
    assert.match(notBackup.stderr, /not .*(backup|SQLite|database)/);
    // The agent's own live file is not a backup either.
    const live = await runCli(['restore', agent.dbPath, '--db-path', path.join(dir, 'r3.db')]);
    assert.notEqual(live.code, 0);
    assert.match(live.stderr, /not a backup made by patina backup/);
    const noDb = await runCli(['restore', existing]);
    assert.equal(noDb.code, 2);
    assert.match(noDb.stderr, /--db-path/);

    const good = path.join(dir, 'good.db');
    const b = await runCli(['backup', good, '--api-addr', addr], { timeoutMs: 120_000 });
    assert.equal(b.code, 0, b.stderr);
    // Over the database of a running agent: refused, naming its pid.
    const busy = await runCli(['restore', good, '--db-path', agent.dbPath]);
    assert.notEqual(busy.code, 0);
    assert.match(busy.stderr, new RegExp(`in use by a running agent \\(pid ${agent.proc.pid}\\)`));
    // A backup file used as a database directly: refused (it would write under the backup's actor id).
    const direct = await runCli([
      'agent',
      '--db-path',
      good,
      '--api-addr',
      '127.0.0.1:0',
      '--schema',
      path.join(agent.dir, 'schema.sql'),
    ]);
    assert.notEqual(direct.code, 0);
    assert.match(direct.stderr, /is a backup made by patina backup; put it in place with `patina restore`/);
    const still = await postJson(agent.http, '/v1/queries', 'SELECT count(*) FROM counter');
    assert.equal(still.status, 200);
  });
});
