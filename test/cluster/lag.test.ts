import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SCHEMA, TestCluster, converged, eventually, exec, sleep } from '../helpers/cluster';
import { runCli } from '../helpers/cli';
import { request } from '../helpers/http';
import { scrape, value } from '../helpers/metrics';

interface Status {
  lag_seconds: number;
  lag_versions: number;
  origins: { actor_id: string; lag_seconds: number; head: number }[];
}

// Replication lag in seconds: how long an agent has known of a version it still lacks. A changeset
// this agent cannot merge yet (its schema is behind) keeps it lagging until the schema catches up.
describe('replication lag in seconds', function () {
  this.timeout(120_000);
  let c: TestCluster;
  before(async () => {
    c = await TestCluster.start(2, { schema: SCHEMA });
  });
  after(async () => c?.dispose());

  it('grows while a version is missing, shows in sync status, health and metrics, and returns to 0 once merged', async () => {
    const [a, b] = c.nodes;
    const status = async () => (await request(b.http, 'GET', '/v1/sync/status')).json as Status;
    assert.equal((await status()).lag_seconds, 0);
    const extra = SCHEMA + '\nCREATE TABLE later (id INTEGER NOT NULL PRIMARY KEY, note TEXT);\n';
    fs.writeFileSync(path.join(a.agent.dir, 'schema.sql'), extra);
    assert.equal((await request(a.http, 'POST', '/v1/admin/reload')).status, 200);
    await exec(a.http, [["INSERT INTO later (id, note) VALUES (1, 'b cannot merge this yet')"]]);
    const actorA = ((await request(a.http, 'GET', '/v1/sync/status')).json as { actor_id: string }).actor_id;
    await eventually(
      'B knows it lacks a version of A',
      15_000,
      async () => (await status()).lag_versions >= 1 || JSON.stringify(await status()),
    );
    await sleep(1500);
    const s = await status();
    assert.ok(s.lag_seconds >= 1, `lag grows while the version is missing: ${JSON.stringify(s)}`);
    assert.ok(s.origins.find((o) => o.actor_id === actorA)!.lag_seconds >= 1);
    const health = (await request(b.http, 'GET', '/v1/health')).json as {
      replication_lag_seconds: number;
      replication_lag_versions: number;
    };
    assert.ok(health.replication_lag_seconds >= 1, JSON.stringify(health));
    assert.ok(health.replication_lag_versions >= 1);
    assert.ok(value(await scrape(b.http), 'patina_replication_lag_seconds') >= 1);
    const cli = await runCli(['sync', 'status', '--api-addr', b.http.replace('http://', '')]);
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /ORIGIN\s+HEAD\s+MISSING\s+BEHIND\s+LAG\s+GAPS/);
    assert.match(cli.stdout, new RegExp(`${actorA}\\s+\\d+\\s+\\d+\\s+\\d+\\s+[1-9]\\d*\\.\\d s`));
    assert.match(cli.stdout, /lag: [1-9]\d*\.\d s/);

    fs.writeFileSync(path.join(b.agent.dir, 'schema.sql'), extra);
    assert.equal((await request(b.http, 'POST', '/v1/admin/reload')).status, 200);
    await converged(c.nodes, ['kv', 'later'], 30_000);
    await eventually(
      'the lag is back to 0',
      10_000,
      async () => (await status()).lag_seconds === 0 || JSON.stringify(await status()),
    );
    assert.equal(value(await scrape(b.http), 'patina_replication_lag_seconds'), 0);
  });
});
