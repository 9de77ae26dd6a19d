// A schema change on a replicated table of 100,000 rows: `patina reload` adding a nullable column on
// every agent must not make a change per row (a backfill that every agent would then send to all
// others); the agents exchange nothing for it, and a later write of the new column travels as one.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SCHEMA, TestCluster, converged, eventually, exec, rows, syncStatus } from '../helpers/cluster';
import { request } from '../helpers/http';
import { scrape, value } from '../helpers/metrics';
import { sleep } from '../helpers/wait';

const ROWS = 100_000;
const BATCH = 10_000;

/** What moved between agents, from /metrics: changesets merged here, and pushed from here. */
async function traffic(base: string): Promise<{ merged: number; pushed: number }> {
  const s = await scrape(base);
  return {
    merged: value(s, 'patina_replication_changesets_merged_total'),
    pushed: value(s, 'patina_replication_changesets_pushed_total'),
  };
}

/** Each origin's head version as this agent knows it. */
async function heads(base: string): Promise<Record<string, number>> {
  return Object.fromEntries((await syncStatus(base)).origins.map((o) => [o.actor_id, o.head]));
}

describe('a column added on every agent of a cluster', function () {
  this.timeout(180_000);
  let c: TestCluster;
  before(async () => {
    c = await TestCluster.start(2, { schema: SCHEMA });
  });
  after(() => c?.dispose());

  it('sends no change per row: nothing moves for the reload, and a write of the new column is one changeset', async () => {
    const [a, b] = c.nodes;
    for (let first = 1; first <= ROWS; first += BATCH)
      await exec(a.http, [
        [
          `INSERT INTO kv (k, v, n) WITH RECURSIVE s(x) AS (SELECT ? UNION ALL SELECT x + 1 FROM s WHERE x < ?) SELECT x, 'row', x FROM s`,
          [first, first + BATCH - 1],
        ],
      ]);
    await eventually('every row at b', 120_000, async () => {
      const [[n]] = await rows(b.http, 'SELECT count(*) FROM kv');
      return Number(n) === ROWS || `${n} rows`;
    });
    await converged(c.nodes, ['kv'], 60_000);
    const before = await Promise.all(c.nodes.map((n) => traffic(n.http)));
    const headsBefore = await Promise.all(c.nodes.map((n) => heads(n.http)));

    const grown = SCHEMA.replace('b BLOB)', 'b BLOB, note TEXT)');
    assert.notEqual(grown, SCHEMA);
    for (const n of c.nodes) {
      fs.writeFileSync(path.join(n.agent.dir, 'schema.sql'), grown);
      const r = await request(n.http, 'POST', '/v1/admin/reload');
      assert.equal(r.status, 200, r.text);
    }
    // Several sync rounds (every 2 s) and push opportunities.
    await sleep(6000);
    const after = await Promise.all(c.nodes.map((n) => traffic(n.http)));
    assert.deepEqual(after, before, 'no changeset was pushed or merged for the reload');
    assert.deepEqual(await Promise.all(c.nodes.map((n) => heads(n.http))), headsBefore, 'no agent made a version');
    assert.deepEqual(await rows(b.http, 'SELECT count(*), count(note) FROM kv'), [[ROWS, 0]]);

    await exec(a.http, [["UPDATE kv SET note = 'one' WHERE k = 77"]]);
    await eventually('the write of the new column at b', 20_000, async () => {
      const r = await rows(b.http, 'SELECT note FROM kv WHERE k = 77');
      return r[0]?.[0] === 'one' || JSON.stringify(r);
    });
    const last = await traffic(b.http);
    assert.equal(last.merged - after[1].merged, 1, 'b merged exactly one changeset');
    assert.deepEqual(await rows(b.http, 'SELECT count(note) FROM kv'), [[1]]);
  });
});
