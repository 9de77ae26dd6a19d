import assert from 'node:assert/strict';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { openStream, postJson, request } from '../helpers/http';
import {
  type Event,
  LIVE_SCHEMA,
  ResultMap,
  changes,
  sleep,
  subscribe,
  untilChange,
  write,
} from '../helpers/subscriptions';
import { health as healthOf } from '../helpers/http';
import { scrape, value } from '../helpers/metrics';

async function health(base: string): Promise<{ subscriptions: number; clients: number }> {
  return (await healthOf<{ subscriptions: { subscriptions: number; clients: number } }>(base)).subscriptions;
}

/** The status of a GET that may open a stream (which is then closed). */
async function statusOf(base: string, path: string): Promise<number> {
  const s = await openStream(base, 'GET', path);
  s.close();
  return s.status;
}

describe('live subscriptions over HTTP', function () {
  this.timeout(30000);
  let agent: AgentProcess;
  before(async () => {
    agent = await startAgent({ schema: LIVE_SCHEMA, config: '[subscriptions]\nclient_buffer = 20\n' });
    await write(agent.http, [
      ["INSERT INTO users VALUES (1, 'ann', 1, 10), (2, 'bob', 1, 20), (3, 'cy', 2, 30)"],
      ["INSERT INTO teams VALUES (1, 'red'), (2, 'blue')"],
    ]);
  });
  after(async () => agent.dispose());

  it('streams columns, the current rows and eoq with change id 0, under a patina-query-id header', async () => {
    const { stream, id } = await subscribe(agent.http, 'SELECT id, name FROM users WHERE id <= 2');
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const ev = stream.events as Event[];
    assert.deepEqual(ev[0], { columns: ['id', 'name'] });
    const rows = ev.filter((e) => 'row' in e).map((e) => (e.row as unknown[])[1]);
    assert.deepEqual(rows.sort(), [
      [1, 'ann'],
      [2, 'bob'],
    ]);
    const eoq = ev[ev.length - 1].eoq as { time: number; change_id: number };
    assert.equal(eoq.change_id, 0);
    assert.equal(typeof eoq.time, 'number');
    stream.close();
  });

  it('gives the same SQL with the same parameters the same query id, and other parameters another', async () => {
    const a = await subscribe(agent.http, ['SELECT name FROM users WHERE team = ?', [1]]);
    const b = await subscribe(agent.http, ['SELECT name FROM users WHERE team = ?', [1]]);
    const c = await subscribe(agent.http, ['SELECT name FROM users WHERE team = ?', [2]]);
    assert.equal(a.id, b.id);
    assert.notEqual(a.id, c.id);
    for (const s of [a, b, c]) s.stream.close();
  });

  it('sends insert, update and delete with contiguous change ids; updates keep their row id; deletes carry the last values', async () => {
    const { stream } = await subscribe(
      agent.http,
      'SELECT u.name, t.title FROM users u JOIN teams t ON t.id = u.team WHERE u.score >= 100',
    );
    const view = new ResultMap();
    view.apply(stream.events);
    await write(agent.http, ["INSERT INTO users VALUES (10, 'dee', 1, 100), (11, 'eve', 2, 110)"]);
    await untilChange(stream, 2);
    view.apply(stream.events);
    const before = changes(stream.events);
    assert.deepEqual(
      before.map((c) => c[0]),
      ['insert', 'insert'],
    );
    const deeRow = before.find((c) => c[2][0] === 'dee')![1];
    await write(agent.http, ["UPDATE users SET name = 'dee2' WHERE id = 10"]);
    await untilChange(stream, 3);
    assert.deepEqual(changes(stream.events)[2], ['update', deeRow, ['dee2', 'red'], 3]);
    // A change of the joined table reaches every row built from it.
    await write(agent.http, ["UPDATE teams SET title = 'azure' WHERE id = 2"]);
    await untilChange(stream, 4);
    assert.deepEqual(changes(stream.events)[3].slice(0, 3), [
      'update',
      before.find((c) => c[2][0] === 'eve')![1],
      ['eve', 'azure'],
    ]);
    await write(agent.http, ['DELETE FROM users WHERE id = 10']);
    await untilChange(stream, 5);
    assert.deepEqual(changes(stream.events)[4], ['delete', deeRow, ['dee2', 'red'], 5]);
    view.apply(stream.events);
    assert.deepEqual([...view.rows.values()], [['eve', 'azure']]);
    stream.close();
  });

  it('emits nothing for a write that leaves the result unchanged, and all changes of one transaction together', async () => {
    const { stream } = await subscribe(agent.http, ['SELECT id, score FROM users WHERE score > ?', [1000]]);
    await write(agent.http, ["UPDATE users SET name = 'ann!' WHERE id = 1", 'UPDATE users SET score = 5 WHERE id = 2']);
    await write(agent.http, [
      'INSERT INTO users VALUES (20, NULL, 1, 2000)',
      'INSERT INTO users VALUES (21, NULL, 1, 2100)',
      'UPDATE users SET score = 2001 WHERE id = 20',
    ]);
    await untilChange(stream, 2);
    await sleep(200);
    const cs = changes(stream.events);
    assert.deepEqual(
      cs.map((c) => c[3]),
      [1, 2],
    );
    assert.deepEqual(cs.map((c) => JSON.stringify([c[0], c[2]])).sort(), [
      '["insert",[20,2001]]',
      '["insert",[21,2100]]',
    ]);
    stream.close();
  });

  it('GET /v1/subscriptions/{id} without from sends the current rows and the current change id, then changes', async () => {
    const { stream, id } = await subscribe(agent.http, 'SELECT id, name, team FROM users WHERE team = 3');
    await write(agent.http, ["INSERT INTO users VALUES (30, 'x', 3, 0), (31, 'y', 3, 0)"]);
    await untilChange(stream, 2);
    stream.close();
    const get = await openStream(agent.http, 'GET', `/v1/subscriptions/${id}`);
    assert.equal(get.status, 200);
    assert.equal(get.res.headers['patina-query-id'], id);
    await get.until((e) => e.some((x) => 'eoq' in (x as Event)));
    const view = new ResultMap();
    view.apply(get.events);
    assert.equal(view.lastChange, 2);
    assert.deepEqual(view.multiset(), ['[30,"x",3]', '[31,"y",3]']);
    await write(agent.http, ["UPDATE users SET name = 'z' WHERE id = 31"]);
    await untilChange(get, 3);
    view.apply(get.events);
    assert.deepEqual(view.multiset(), ['[30,"x",3]', '[31,"z",3]']);
    get.close();
  });

  it('GET with from=N sends only the changes after N, then live ones; POST with from on an existing subscription does the same', async () => {
    const body = 'SELECT id, score FROM users WHERE team = 4';
    const { stream, id } = await subscribe(agent.http, body);
    await write(agent.http, ['INSERT INTO users VALUES (40, NULL, 4, 1)']);
    await write(agent.http, ['UPDATE users SET score = 2 WHERE id = 40']);
    await write(agent.http, ['UPDATE users SET score = 3 WHERE id = 40']);
    await untilChange(stream, 3);
    stream.close();
    const get = await openStream(agent.http, 'GET', `/v1/subscriptions/${id}?from=1`);
    await untilChange(get, 3);
    assert.deepEqual(
      get.events.map((e) => Object.keys(e as Event)[0]),
      ['change', 'change'],
    );
    assert.deepEqual(
      changes(get.events).map((c) => c[3]),
      [2, 3],
    );
    await write(agent.http, ['UPDATE users SET score = 4 WHERE id = 40']);
    await untilChange(get, 4);
    get.close();
    const post = await openStream(agent.http, 'POST', '/v1/subscriptions?from=3', JSON.stringify(body));
    assert.equal(post.res.headers['patina-query-id'], id);
    await untilChange(post, 4);
    assert.deepEqual(
      changes(post.events).map((c) => c[3]),
      [4],
    );
    post.close();
  });

  it('changes made while nobody listened reach a client that comes back, after its snapshot (GET) or after its from', async () => {
    const body = 'SELECT id, name, score FROM users WHERE team = 5';
    const { stream, id } = await subscribe(agent.http, body);
    stream.close();
    for (let i = 0; i < 100 && (await health(agent.http)).clients > 0; i++) await sleep(20);
    // Nobody listens: the agent may match these later than it would for a listener.
    await write(agent.http, ["INSERT INTO users VALUES (50, 'a', 5, 1), (51, 'b', 5, 2)"]);
    await write(agent.http, ['UPDATE users SET score = 3 WHERE id = 50', 'DELETE FROM users WHERE id = 51']);
    await write(agent.http, ["INSERT INTO users VALUES (52, 'c', 5, 4)"]);
    const get = await openStream(agent.http, 'GET', `/v1/subscriptions/${id}`);
    const resumed = await openStream(agent.http, 'GET', `/v1/subscriptions/${id}?from=0`);
    const want = JSON.stringify(['[50,"a",3]', '[52,"c",4]']);
    const views = [new ResultMap(), new ResultMap()];
    await get.until((events) => {
      views[0].apply(events);
      return JSON.stringify(views[0].multiset()) === want;
    });
    await resumed.until((events) => {
      views[1].apply(events);
      return JSON.stringify(views[1].multiset()) === want;
    });
    assert.ok(views[0].lastChange > 0);
    assert.equal(views[1].lastChange, views[0].lastChange, 'the same change ids on both streams');
    // And a listener's changes go on from there.
    await write(agent.http, ["INSERT INTO users VALUES (53, 'd', 5, 5)"]);
    await untilChange(get, views[0].lastChange + 1);
    await untilChange(resumed, views[0].lastChange + 1);
    views[0].apply(get.events);
    views[1].apply(resumed.events);
    assert.deepEqual(views[0].multiset(), ['[50,"a",3]', '[52,"c",4]', '[53,"d",5]']);
    assert.deepEqual(views[1].multiset(), views[0].multiset());
    get.close();
    resumed.close();
  });

  it('refuses POST with from for a subscription that does not exist (400)', async () => {
    const r = await postJson(agent.http, '/v1/subscriptions?from=3', 'SELECT id FROM users WHERE id = 12345');
    assert.equal(r.status, 400);
    assert.match((r.json as { error: string }).error, /no subscription exists/);
  });

  it('answers 404 with a JSON error for an unknown id', async () => {
    const r = await request(agent.http, 'GET', '/v1/subscriptions/00000000-0000-4000-8000-000000000000');
    assert.equal(r.status, 404);
    assert.match((r.json as { error: string }).error, /no subscription with query id/);
  });

  it('refuses with 400 what is not one SELECT that prepares, binds and reads a schema table; nothing is created', async () => {
    const before = (await health(agent.http)).subscriptions;
    const cases: [unknown, RegExp][] = [
      ["INSERT INTO users VALUES (99, 'no', 1, 1)", /one SELECT statement, not INSERT/],
      ['DELETE FROM users', /not DELETE/],
      ['SELECT 1; SELECT 2', /more than one statement/],
      ['SELECT nope FROM users', /does not prepare: no such column: nope/],
      ['SELECT * FROM missing_table', /no such table: missing_table/],
      ['SELECT 1 + 1', /reads no schema table/],
      [['SELECT * FROM users WHERE id = ?', []], /parameters do not bind/],
      [['SELECT * FROM users WHERE id = ?', [1, 2]], /parameters do not bind/],
      ['SELECT * FROM __patina_meta', /agent's own tables/],
      ['WITH x AS (SELECT 1) DELETE FROM users', /only reads|not/],
      [42, /expected a SQL string/],
    ];
    for (const [body, re] of cases) {
      const r = await postJson(agent.http, '/v1/subscriptions', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.match((r.json as { error: string }).error, re, JSON.stringify(body));
    }
    assert.equal((await health(agent.http)).subscriptions, before);
    const users = await postJson(agent.http, '/v1/queries', 'SELECT count(*) FROM users WHERE id = 99');
    assert.deepEqual((users.lines[1] as { row: unknown[] }).row[1], [0]);
  });

  it('forgets a client that disconnects', async () => {
    const { stream } = await subscribe(agent.http, 'SELECT id FROM users WHERE team = 5');
    const open = (await health(agent.http)).clients;
    assert.ok(open >= 1);
    stream.close();
    for (let i = 0; i < 50 && (await health(agent.http)).clients >= open; i++) await sleep(50);
    assert.equal((await health(agent.http)).clients, open - 1);
  });

  it('cuts off a stalled reader with an error line while another client of the same subscription gets every change', async function () {
    // 60 writes of 200 KB: seconds on an idle machine, past the suite's 30 s on a loaded one
    this.timeout(120_000);
    const body = 'SELECT id, name FROM users WHERE team = 6';
    const slow = await subscribe(agent.http, body);
    const fast = await subscribe(agent.http, body);
    slow.stream.res.pause();
    const big = 'x'.repeat(200000);
    const cutOffs = async () => value(await scrape(agent.http), 'patina_clients_cut_off_total{stream="subscription"}');
    const before = await cutOffs();
    // Enough data to fill the socket buffers, then more than client_buffer (20) changes behind them.
    // The stalled reader reads again as soon as the agent has cut it off: the agent closes a socket
    // that never takes the error line 5 s after the cut, which a loaded machine's 60 writes outlasted.
    let resumed = false;
    for (let i = 0; i < 60; i++) {
      await write(agent.http, [[`INSERT INTO users VALUES (?, ?, 6, 0)`, [600 + i, big + i]]]);
      if (!resumed && i >= 20 && (await cutOffs()) > before) {
        slow.stream.res.resume();
        resumed = true;
      }
    }
    await untilChange(fast.stream, 60);
    const view = new ResultMap();
    view.apply(fast.stream.events);
    assert.equal(view.rows.size, 60);
    assert.ok(resumed, 'the agent never cut off the stalled reader');
    await slow.stream.until(() => slow.stream.ended, 15000);
    const last = slow.stream.events[slow.stream.events.length - 1] as Event;
    assert.match(String(last.error), /fell behind/);
    assert.ok(changes(slow.stream.events).length < 60);
    fast.stream.close();
  });

  it('answers a from ahead of the log with its own error (re-read), not the one for changes no longer kept', async () => {
    const { stream, id } = await subscribe(agent.http, 'SELECT id, name FROM users WHERE id = 3');
    stream.close();
    const s = await openStream(agent.http, 'GET', `/v1/subscriptions/${id}?from=999`);
    assert.equal(s.status, 200);
    await s.until(() => s.ended);
    assert.equal(s.events.length, 1);
    const err = String((s.events[0] as Event).error);
    assert.match(err, /change id 999 is ahead of this subscription, whose last change id is \d+/);
    assert.match(err, new RegExp(`re-read with GET /v1/subscriptions/${id} without from`));
    assert.doesNotMatch(err, /min change id|no longer kept/);
  });

  it('reports eoq.time in seconds rounded to microseconds', async () => {
    const { stream } = await subscribe(agent.http, 'SELECT id FROM users');
    const eoq = (stream.events.find((e) => 'eoq' in (e as Event)) as { eoq: { time: number } }).eoq;
    assert.equal(Math.round(eoq.time * 1e6) / 1e6, eoq.time);
    stream.close();
    for (const [path, body] of [
      ['/v1/queries', '"SELECT 1"'],
      ['/v1/transactions', '["UPDATE users SET score = score WHERE id = 1"]'],
    ]) {
      const r = await request(agent.http, 'POST', path, body);
      for (const m of r.text.matchAll(/"time":([0-9.e-]+)/g))
        assert.match(m[1], /^\d+(\.\d{1,6})?$/, `${path}: ${r.text}`);
    }
  });

  it('ends the stream with an error naming the min change id when changes after from are no longer kept', async () => {
    const small = await startAgent({
      schema: LIVE_SCHEMA,
      config: '[subscriptions]\nretain_changes = 3\nretain_seconds = 0\n',
    });
    try {
      const { stream, id } = await subscribe(small.http, 'SELECT id, score FROM users');
      for (let i = 0; i < 8; i++) await write(small.http, [[`INSERT INTO users VALUES (?, NULL, 1, 0)`, [i]]]);
      await untilChange(stream, 8);
      stream.close();
      // Changes are pruned by the sweep (every second), which on a loaded machine may have run
      // last between the seventh and the eighth change (min change id 5): asked until it ran after.
      let first: Event = {};
      for (let i = 0; i < 40; i++) {
        const s = await openStream(small.http, 'GET', `/v1/subscriptions/${id}?from=1`);
        assert.equal(s.status, 200);
        first = (await s.count(1))[0] as Event;
        if ('error' in first && /min change id: 6/.test(String(first.error))) {
          await s.until(() => s.ended);
          assert.equal(s.events.length, 1);
          s.close();
          break;
        }
        s.close();
        await sleep(100);
      }
      assert.match(String(first.error), /no longer kept.*min change id: 6/);
      // Within what is kept, from still works.
      const ok = await openStream(small.http, 'GET', `/v1/subscriptions/${id}?from=5`);
      await untilChange(ok, 8);
      assert.deepEqual(
        changes(ok.events).map((c) => c[3]),
        [6, 7, 8],
      );
      ok.close();
    } finally {
      await small.dispose();
    }
  });

  it('counts idle_seconds per subscription from when its last listener left; listening again starts it over', async () => {
    const idle = await startAgent({ schema: LIVE_SCHEMA, config: '[subscriptions]\nidle_seconds = 2\n' });
    try {
      const kept = await subscribe(idle.http, 'SELECT id FROM users WHERE id > 0');
      const left = await subscribe(idle.http, 'SELECT id FROM users WHERE id > 1');
      const back = await subscribe(idle.http, 'SELECT id FROM users WHERE id > 2');
      left.stream.close();
      back.stream.close();
      await sleep(1000);
      // Listened to again before idle_seconds passed: its idle time starts over once this listener leaves.
      const again = await openStream(idle.http, 'GET', `/v1/subscriptions/${back.id}`);
      assert.equal(again.status, 200);
      await sleep(1500);
      again.close();
      // (Counted with /v1/health: a GET of a subscription would listen to it.)
      for (let i = 0; i < 60 && (await health(idle.http)).subscriptions > 2; i++) await sleep(100);
      assert.equal((await health(idle.http)).subscriptions, 2, 'the one left without a listener is removed');
      for (let i = 0; i < 60 && (await health(idle.http)).subscriptions > 1; i++) await sleep(100);
      assert.equal(
        (await health(idle.http)).subscriptions,
        1,
        'the one listened to again is removed idle_seconds after its listener left',
      );
      assert.equal(await statusOf(idle.http, `/v1/subscriptions/${left.id}`), 404);
      assert.equal(await statusOf(idle.http, `/v1/subscriptions/${back.id}`), 404);
      assert.equal(await statusOf(idle.http, `/v1/subscriptions/${kept.id}`), 200, 'listened to all along');
      kept.stream.close();
    } finally {
      await idle.dispose();
    }
  });

  it('removes a subscription nobody listened to for idle_seconds', async () => {
    const idle = await startAgent({ schema: LIVE_SCHEMA, config: '[subscriptions]\nidle_seconds = 1\n' });
    try {
      const { stream, id } = await subscribe(idle.http, 'SELECT id FROM users');
      await sleep(1500);
      // Listened to all along: still there.
      assert.equal(await statusOf(idle.http, `/v1/subscriptions/${id}`), 200);
      stream.close();
      for (let i = 0; i < 60 && (await health(idle.http)).subscriptions > 0; i++) await sleep(100);
      assert.equal((await health(idle.http)).subscriptions, 0);
      assert.equal((await request(idle.http, 'GET', `/v1/subscriptions/${id}`)).status, 404);
    } finally {
      await idle.dispose();
    }
  });
});
