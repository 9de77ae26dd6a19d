import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SCHEMA, TestCluster, converged, eventually, exec, rows, syncStatus } from '../helpers/cluster';
import { runCli } from '../helpers/cli';
import { request } from '../helpers/http';

async function actorOf(base: string): Promise<string> {
  const r = await request(base, 'GET', '/v1/sync/status');
  return (r.json as { actor_id: string }).actor_id;
}

// A restored agent gets a new actor id and keeps the backup's actor as an origin: it must converge
// with the cluster (fetching what its old self wrote after the backup from the peers that have it).
describe('replication after a restore', function () {
  this.timeout(180_000);
  let c: TestCluster;
  let tmp: string;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-restore-'));
    c = await TestCluster.start(2, { schema: SCHEMA });
  });
  after(async () => {
    await c?.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a restored agent rejoins under a new actor id, gets what its old self wrote after the backup, and converges', async () => {
    const [a, b] = c.nodes;
    for (let i = 1; i <= 5; i++) await exec(a.http, [[`INSERT INTO kv (k, v) VALUES (?, 'before backup')`, [i]]]);
    await converged(c.nodes, ['kv']);
    const oldActor = await actorOf(a.http);
    const file = path.join(tmp, 'a.db');
    const bk = await runCli(['backup', file, '--api-addr', a.http.replace('http://', '')], { timeoutMs: 60_000 });
    assert.equal(bk.code, 0, bk.stderr);
    // Written by A after the backup: the backup lacks them, B has them.
    for (let i = 6; i <= 10; i++) await exec(a.http, [[`INSERT INTO kv (k, v) VALUES (?, 'after backup')`, [i]]]);
    await exec(b.http, [["INSERT INTO kv (k, v) VALUES (100, 'from b')"]]);
    await converged(c.nodes, ['kv']);

    await a.agent.stop();
    const r = await runCli(['restore', file, '--db-path', a.agent.dbPath]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(`the backup's actor ${oldActor} \\(versions 1\\.\\.5\\) is kept as a remote origin`),
    );
    await a.start();
    const newActor = await actorOf(a.http);
    assert.notEqual(newActor, oldActor);
    await converged(c.nodes, ['kv']);
    assert.equal((await rows(a.http, 'SELECT count(*) FROM kv'))[0][0], 11);
    const mine = (await syncStatus(a.http)).origins.find((o) => o.actor_id === oldActor);
    assert.equal(mine?.head, 10, 'the old actor is an origin whose versions 6..10 came by sync');

    // Its new writes reach B under the new actor id, numbered from 1.
    const w = await exec(a.http, [["UPDATE kv SET v = 'restored a' WHERE k = 1"]]);
    assert.equal(w.version, 1);
    await converged(c.nodes, ['kv']);
    const onB = (await syncStatus(b.http)).origins.find((o) => o.actor_id === newActor);
    assert.equal(onB?.head, 1);
    assert.deepEqual(await rows(b.http, 'SELECT v FROM kv WHERE k = 1'), [['restored a']]);
  });

  it('a backup restored onto a new empty agent catches up by sync', async () => {
    const [, b] = c.nodes;
    const file = path.join(tmp, 'b.db');
    const bk = await runCli(['backup', file, '--api-addr', b.http.replace('http://', '')], { timeoutMs: 60_000 });
    assert.equal(bk.code, 0, bk.stderr);
    for (let i = 200; i < 220; i++) await exec(b.http, [[`INSERT INTO kv (k, v) VALUES (?, 'after b backup')`, [i]]]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-restored-'));
    const r = await runCli(['restore', file, '--db-path', path.join(dir, 'patina.db')]);
    assert.equal(r.code, 0, r.stderr);
    const n = await c.add([], dir);
    assert.notEqual(await actorOf(n.http), await actorOf(b.http));
    await converged(c.nodes, ['kv', 'pairs']);
    assert.equal((await rows(n.http, "SELECT count(*) FROM kv WHERE v = 'after b backup'"))[0][0], 20);
    await eventually('the new agent reports no lag', 20_000, async () => {
      const h = (await request(n.http, 'GET', '/v1/health')).json as {
        replication_lag_seconds: number;
        replication_lag_versions: number;
      };
      return (h.replication_lag_versions === 0 && h.replication_lag_seconds === 0) || JSON.stringify(h);
    });
  });
});
