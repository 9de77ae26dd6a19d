import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { openStream, request } from '../helpers/http';
import {
  type Event,
  LIVE_SCHEMA,
  ResultMap,
  changes,
  queryMultiset,
  settle,
  sleep,
  subscribe,
  untilChange,
  write,
} from '../helpers/subscriptions';

const JOIN = 'SELECT u.id, u.name, t.title FROM users u JOIN teams t ON t.id = u.team';
const AGG = 'SELECT team, count(*), sum(score) FROM users GROUP BY team';

/** How many subscriptions the agent re-ran at start-up (the rest were known to match the data). */
async function rerunAtStart(base: string): Promise<number> {
  const h = await request(base, 'GET', '/v1/health');
  return (h.json as { subscriptions: { rerun_at_start: number } }).subscriptions.rerun_at_start;
}

/**
 * Resumes with GET ?from and applies the changes to `view` until it equals a fresh run of `sql`.
 * (How many change ids that takes depends on how the matcher batched the writes: two writes
 * handled in one batch may net out to one change of an aggregate row.)
 */
async function resume(base: string, id: string, view: ResultMap, sql: string | [string, unknown[]]): Promise<void> {
  const want = JSON.stringify(await queryMultiset(base, sql));
  const s = await openStream(base, 'GET', `/v1/subscriptions/${id}?from=${view.lastChange}`);
  assert.equal(s.status, 200);
  await s.until((events) => {
    view.apply(events);
    return JSON.stringify(view.multiset()) === want;
  });
  for (const e of s.events) assert.ok('change' in (e as Event), JSON.stringify(e));
  s.close();
}

/** The health's subscription counts: listening clients, and subscriptions behind until a listener attaches. */
async function liveCounts(base: string): Promise<{ clients: number; behind_unlistened: number }> {
  const h = await request(base, 'GET', '/v1/health');
  return (h.json as { subscriptions: { clients: number; behind_unlistened: number } }).subscriptions;
}

/** Subscribes, keeps the first result in a view, and leaves (once the agent counts no listener). */
async function subscribeAndLeave(
  base: string,
  body: string | [string, unknown[]],
): Promise<{ id: string; view: ResultMap }> {
  const sub = await subscribe(base, body);
  const view = new ResultMap();
  view.apply(sub.stream.events);
  sub.stream.close();
  for (let i = 0; i < 100 && (await liveCounts(base)).clients > 0; i++) await sleep(20);
  return { id: sub.id, view };
}

describe('subscriptions across restarts and crashes', function () {
  this.timeout(60000);
  let agent: AgentProcess;
  beforeEach(async () => {
    agent = await startAgent({ schema: LIVE_SCHEMA });
    await write(agent.http, [
      "INSERT INTO teams VALUES (1, 'red'), (2, 'blue')",
      "INSERT INTO users VALUES (1, 'ann', 1, 10)",
    ]);
  });
  afterEach(async () => agent.dispose());

  it('after a clean restart, from=N returns every change after N, including those made while no client listened', async () => {
    const join = await subscribe(agent.http, JOIN);
    const agg = await subscribe(agent.http, AGG);
    const views = [new ResultMap(), new ResultMap()];
    views[0].apply(join.stream.events);
    views[1].apply(agg.stream.events);
    await write(agent.http, ["INSERT INTO users VALUES (2, 'bob', 2, 20)"]);
    await untilChange(join.stream, 1);
    await untilChange(agg.stream, 1);
    views[0].apply(join.stream.events);
    views[1].apply(agg.stream.events);
    join.stream.close();
    agg.stream.close();
    // Nobody listens now.
    await write(agent.http, [
      "UPDATE teams SET title = 'navy' WHERE id = 2",
      "INSERT INTO users VALUES (3, 'cy', 1, 5)",
    ]);
    await write(agent.http, ['DELETE FROM users WHERE id = 1']);
    assert.equal(await agent.stop(), 0);
    await agent.start();
    assert.equal(
      await rerunAtStart(agent.http),
      0,
      'a clean stop leaves the store matching the data: nothing is re-run',
    );
    await resume(agent.http, join.id, views[0], JOIN);
    assert.equal(views[0].lastChange, 4, 'bob updated, cy inserted, ann deleted: three changes after the first');
    await resume(agent.http, agg.id, views[1], AGG);
    // The same SQL finds the same subscription after the restart, and change ids go on.
    const again = await subscribe(agent.http, JOIN);
    assert.equal(again.id, join.id);
    await write(agent.http, ["INSERT INTO users VALUES (4, 'dee', 2, 1)"]);
    await untilChange(again.stream, views[0].lastChange + 1);
    again.stream.close();
  });

  it('a subscription nobody listens to is not kept up write by write: behind until a client comes back (after a clean restart or a SIGKILL too), which then gets every change', async () => {
    const body: [string, unknown[]] = ['SELECT id, name, score FROM users WHERE team = ?', [7]];
    const sub = await subscribeAndLeave(agent.http, body);
    const view = sub.view;
    const behind = () => liveCounts(agent.http);
    assert.equal((await behind()).behind_unlistened, 0);
    // 1,500 rows: more changed keys than a subscription without listener keeps (it is re-run in full)
    for (let w = 0; w < 3; w++) {
      const rows = Array.from({ length: 500 }, (_, i) => `(${1000 + w * 500 + i}, 'u${i}', 7, ${i})`);
      await write(agent.http, [`INSERT INTO users VALUES ${rows.join(', ')}`]);
    }
    await write(agent.http, ['UPDATE users SET score = -1 WHERE id = 1000', 'DELETE FROM users WHERE id = 1001']);
    await write(agent.http, ["INSERT INTO users VALUES (3000, 'other team', 8, 1)"]);
    for (let i = 0; i < 100 && (await behind()).behind_unlistened === 0; i++) await sleep(20);
    assert.equal((await behind()).behind_unlistened, 1);
    assert.equal(await agent.stop(), 0);
    await agent.start();
    assert.equal(await rerunAtStart(agent.http), 0, 'a clean stop: nothing re-run at start-up');
    assert.equal((await behind()).behind_unlistened, 1, 'still behind after the restart, until a client comes back');
    await resume(agent.http, sub.id, view, body);
    assert.equal(view.multiset().length, 1499);
    assert.equal((await behind()).behind_unlistened, 0);
    // A few changes (kept as keys), then a SIGKILL: the store's mark still says it is behind.
    await write(agent.http, ["INSERT INTO users VALUES (4000, 'late', 7, 1)", 'DELETE FROM users WHERE id = 1002']);
    for (let i = 0; i < 100 && (await behind()).behind_unlistened === 0; i++) await sleep(20);
    assert.equal((await behind()).behind_unlistened, 1);
    await agent.kill();
    await agent.start();
    await resume(agent.http, sub.id, view, body);
    assert.equal(view.multiset().length, 1499);
    assert.ok(view.multiset().includes('[4000,"late",1]'));
  });

  it('an aggregate nobody listens to is not re-run write by write: it is re-run once a client comes back, after a clean restart too', async () => {
    const sub = await subscribeAndLeave(agent.http, AGG);
    const view = sub.view;
    const behind = () => liveCounts(agent.http);
    for (let i = 0; i < 20; i++)
      await write(agent.http, [`INSERT INTO users VALUES (${100 + i}, 'u', ${1 + (i % 3)}, ${i})`]);
    for (let i = 0; i < 100 && (await behind()).behind_unlistened === 0; i++) await sleep(20);
    assert.equal((await behind()).behind_unlistened, 1);
    assert.equal(await agent.stop(), 0);
    await agent.start();
    assert.equal((await behind()).behind_unlistened, 1);
    await resume(agent.http, sub.id, view, AGG);
    assert.equal((await behind()).behind_unlistened, 0);
  });

  it('after a restart, pinned subscriptions (team = ?) still hear rows leaving them, thousands of rows each', async () => {
    // Their stored keys go back into the wake index at start-up, a page at a time: a row whose team
    // changes away wakes only the subscriptions that hold it, so they must be known.
    await write(agent.http, [
      [
        'WITH RECURSIVE s(k) AS (SELECT 100 UNION ALL SELECT k + 1 FROM s WHERE k < 5099) INSERT INTO users SELECT k, NULL, 3 + k % 2, k FROM s',
      ],
    ]);
    const three = await subscribe(agent.http, ['SELECT id, score FROM users WHERE team = ?', [3]]);
    const four = await subscribe(agent.http, ['SELECT id, score FROM users WHERE team = ?', [4]]);
    const views = [new ResultMap(), new ResultMap()];
    views[0].apply(three.stream.events);
    views[1].apply(four.stream.events);
    assert.equal(views[0].rows.size, 2500);
    three.stream.close();
    four.stream.close();
    assert.equal(await agent.stop(), 0);
    await agent.start();
    await write(agent.http, [
      'UPDATE users SET team = 9 WHERE id % 10 IN (1, 2)',
      'UPDATE users SET score = -1 WHERE id = 4999',
    ]);
    await resume(agent.http, three.id, views[0], 'SELECT id, score FROM users WHERE team = 3');
    await resume(agent.http, four.id, views[1], 'SELECT id, score FROM users WHERE team = 4');
    assert.equal(views[0].rows.size, 2000);
    assert.equal(views[1].rows.size, 2000);
  });

  it('after SIGKILL right after commits, from=N returns every committed change', async () => {
    const join = await subscribe(agent.http, JOIN);
    const view = new ResultMap();
    view.apply(join.stream.events);
    join.stream.close();
    for (let i = 10; i < 40; i++)
      await write(agent.http, [[`INSERT INTO users VALUES (?, ?, ?, ?)`, [i, `u${i}`, (i % 2) + 1, i]]]);
    await write(agent.http, [
      "UPDATE users SET name = name || '!' WHERE id % 3 = 0",
      'DELETE FROM users WHERE id % 5 = 0',
    ]);
    await agent.kill();
    await agent.start();
    const s = await openStream(agent.http, 'GET', `/v1/subscriptions/${join.id}?from=0`);
    const expected = await queryMultiset(agent.http, JOIN);
    await settle(s);
    view.apply(s.events);
    assert.deepEqual(view.multiset(), expected);
    s.close();
  });

  it('after SIGKILL, a client resumes from the last change it was sent, and a subscription nobody listened to from its own', async () => {
    const heard = ['SELECT id, name FROM users WHERE team = ?', [1]];
    const quiet = ['SELECT id, name FROM users WHERE team = ?', [2]];
    const h = await subscribe(agent.http, heard);
    const q = await subscribe(agent.http, quiet);
    const views = [new ResultMap(), new ResultMap()];
    views[0].apply(h.stream.events);
    views[1].apply(q.stream.events);
    q.stream.close();
    // Each write changes both; the client of the first is sent its change before the next write.
    for (let i = 10; i < 30; i++) {
      const statements: unknown[] = [
        ['INSERT INTO users VALUES (?, ?, 1, 0), (?, ?, 2, 0)', [i, `h${i}`, 100 + i, `q${i}`]],
      ];
      if (i % 3 === 0) statements.push(["UPDATE users SET name = name || '!' WHERE id IN (?, ?)", [i - 1, 99 + i]]);
      await write(agent.http, statements);
      await untilChange(h.stream, views[0].lastChange + 1);
      views[0].apply(h.stream.events);
    }
    await agent.kill();
    await agent.start();
    await resume(agent.http, h.id, views[0], 'SELECT id, name FROM users WHERE team = 1');
    await resume(agent.http, q.id, views[1], 'SELECT id, name FROM users WHERE team = 2');
    assert.equal(views[1].rows.size, 20);
    // Both go on with the next change id.
    const again = await openStream(agent.http, 'GET', `/v1/subscriptions/${h.id}?from=${views[0].lastChange}`);
    await write(agent.http, ["INSERT INTO users VALUES (99, 'last', 1, 0)"]);
    await untilChange(again, views[0].lastChange + 1);
    views[0].apply(again.events);
    assert.equal(views[0].rows.size, 22, 'ann, twenty and the last');
    again.close();
  });

  it('a change a client was sent is in the store: a resume from just before it gets it at once, and so does one after a SIGKILL right then', async () => {
    const sql = 'SELECT id, name FROM users';
    const sub = await subscribe(agent.http, sql);
    // Writes back to back from 8 clients (the matcher batches them), resumes while they go on: a
    // change is sent only once the store has logged it (whichever thread writes the store).
    let next = 100;
    const writing = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 400) {
          const i = next++;
          await write(agent.http, [[`INSERT INTO users VALUES (?, ?, 1, 0)`, [i, `w${i}`]]]);
        }
      }),
    );
    const resumed: number[] = [];
    for (let seen = 0; seen < 300; ) {
      await untilChange(sub.stream, seen + 1);
      const got = changes(sub.stream.events);
      const last = got[got.length - 1];
      seen = last[3];
      if (resumed.length >= 40) continue;
      // at once, while writes go on: the store has every change the client was sent
      const r = await openStream(agent.http, 'GET', `/v1/subscriptions/${sub.id}?from=${seen - 1}`);
      await untilChange(r, seen);
      assert.deepEqual(changes(r.events)[0], last);
      r.close();
      resumed.push(seen);
    }
    await writing;
    const sent = changes(sub.stream.events);
    assert.equal(sent.length, 300);
    await agent.kill();
    await agent.start();
    const s = await openStream(agent.http, 'GET', `/v1/subscriptions/${sub.id}?from=0`);
    await untilChange(s, 300);
    assert.deepEqual(changes(s.events).slice(0, 300), sent);
    s.close();
    assert.ok(resumed.length >= 5, `resumed ${resumed.length} times`);
  });

  it('at start-up, turns commits whose changes never reached the log into new changes', async () => {
    const sql = 'SELECT id, name FROM users WHERE team = 1';
    const sub = await subscribe(agent.http, sql);
    await write(agent.http, ["INSERT INTO users VALUES (7, 'gil', 1, 0)"]);
    await untilChange(sub.stream, 1);
    sub.stream.close();
    assert.equal(await agent.stop(), 0);
    // Make the store look as if the agent died between the data commit and the log write.
    const store = new Database(`${agent.dbPath}.subscriptions`);
    const lost = store.prepare('SELECT row_id FROM changes WHERE change_id = 1').pluck().get() as number;
    store.prepare('DELETE FROM changes WHERE change_id = 1').run();
    store.prepare('DELETE FROM rows WHERE row_id = ?').run(lost);
    store.prepare('UPDATE subscriptions SET last_change = 0').run();
    // ... and as if it had not caught up with the data's last commit.
    store.prepare("DELETE FROM state WHERE key = 'matched'").run();
    store.close();
    await agent.start();
    assert.equal(await rerunAtStart(agent.http), 1);
    const s = await openStream(agent.http, 'GET', `/v1/subscriptions/${sub.id}?from=0`);
    await untilChange(s, 1);
    assert.deepEqual(
      changes(s.events).map((c) => [c[0], c[2], c[3]]),
      [['insert', [7, 'gil'], 1]],
    );
    s.close();
  });
});
