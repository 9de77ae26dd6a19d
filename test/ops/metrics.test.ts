import assert from 'node:assert/strict';
import { SCHEMA, TestCluster, eventually, exec, sleep } from '../helpers/cluster';
import { openStream, postJson, request } from '../helpers/http';
import { pgClient, pgListeners } from '../helpers/pg';
import { type Scrape, promtoolCheck, scrape, value } from '../helpers/metrics';
import { subscribe } from '../helpers/subscriptions';

// GET /metrics on a two-agent cluster, scraped before, while and after real load of every kind
// (HTTP writes and reads, PostgreSQL statements, a subscription, an update stream, replication).
describe('metrics: GET /metrics in the Prometheus text format', function () {
  this.timeout(120_000);
  let c: TestCluster;
  before(async () => {
    c = new TestCluster({ schema: SCHEMA });
    await c.add(['--pg-addr', '127.0.0.1:0']);
    await c.add();
    await eventually('both agents see each other', 20_000, async () => {
      const [a, b] = await Promise.all(c.nodes.map((n) => scrape(n.http)));
      return (
        [...a.samples].some(([k, v]) => k.startsWith('patina_peer_up{') && v === 1) &&
        [...b.samples].some(([k, v]) => k.startsWith('patina_peer_up{') && v === 1)
      );
    });
  });
  after(async () => c?.dispose());

  it('passes promtool check metrics, with patina_ names and Prometheus units', async () => {
    const s = await scrape(c.nodes[0].http);
    promtoolCheck(s);
    for (const k of s.samples.keys()) assert.match(k, /^patina_/, `every metric has the patina_ prefix: ${k}`);
    for (const name of [
      'patina_http_request_duration_seconds_bucket',
      'patina_database_size_bytes',
      'patina_database_wal_size_bytes',
      'patina_nodejs_eventloop_lag_p99_seconds',
      'patina_replication_lag_seconds',
      'patina_read_workers',
    ]) {
      assert.ok(
        [...s.samples.keys()].some((k) => k.split('{')[0] === name),
        `${name} is exported`,
      );
    }
  });

  it('moves as load runs: HTTP, writes, reads, PostgreSQL, subscriptions, update streams and replication', async () => {
    const [a, b] = c.nodes;
    const a0 = await scrape(a.http);
    const b0 = await scrape(b.http);
    const pg = pgClient(pgListeners(a.agent)[0].port);
    // If an assertion below fails, the client is still open when the agents stop: its queries
    // would fail anyway, and the lost connection must not be an uncaught error in the after hook.
    pg.on('error', () => undefined);
    await pg.connect();
    const sub = await subscribe(a.http, 'SELECT k, v FROM kv WHERE k >= 1000');
    const updates = await openStream(a.http, 'POST', '/v1/updates/kv');
    assert.equal(updates.status, 200);

    let writes = 0;
    let rows = 0;
    let stop = false;
    const mid: Scrape[] = [];
    const load = (async () => {
      for (let i = 0; !stop; i++) {
        // 3 rows per transaction
        await exec(a.http, [
          [`INSERT INTO kv (k, v) VALUES (?, 'a'), (?, 'b'), (?, 'c')`, [1000 + 3 * i, 1001 + 3 * i, 1002 + 3 * i]],
        ]);
        writes++;
        rows += 3;
        const point = await postJson(a.http, '/v1/queries', ['SELECT v FROM kv WHERE k = ?', [1000 + 3 * i]]);
        assert.equal(point.status, 200);
        const scan = await postJson(a.http, '/v1/queries', 'SELECT count(*) FROM kv');
        assert.equal(scan.status, 200);
        await pg.query('SELECT v FROM kv WHERE k = $1', [1000 + 3 * i]);
      }
    })();
    // Scrape both agents while the load runs: the output stays valid and answers come.
    for (let i = 0; i < 5; i++) {
      await sleep(300);
      const s = await scrape(a.http);
      promtoolCheck(s);
      mid.push(s, await scrape(b.http));
    }
    stop = true;
    await load;
    await pg.query("INSERT INTO kv (k, v) VALUES (1, 'pg')");
    await assert.rejects(pg.query('SELECT nope FROM kv'));
    const bad = await postJson(a.http, '/v1/transactions', ['INSERT INTO nope VALUES (1)']);
    assert.equal(bad.status, 400);
    await sub.stream.until((e) => e.filter((x) => 'change' in (x as object)).length >= rows, 20_000);
    await eventually(
      'agent B merged every write',
      30_000,
      async () =>
        value(await scrape(b.http), 'patina_writes_committed_total{origin="remote"}') -
          value(b0, 'patina_writes_committed_total{origin="remote"}') >=
        writes + 1,
    );

    const a1 = await scrape(a.http);
    const b1 = await scrape(b.http);
    promtoolCheck(a1);
    promtoolCheck(b1);
    const d = (s0: Scrape, s1: Scrape, k: string) => value(s1, k) - (s0.samples.get(k) ?? 0);
    assert.ok(writes >= 3, `the load ran (${writes} writes)`);

    // HTTP by route and status, with a latency histogram per route.
    assert.equal(d(a0, a1, 'patina_http_requests_total{route="/v1/transactions",method="POST",status="200"}'), writes);
    assert.equal(d(a0, a1, 'patina_http_requests_total{route="/v1/transactions",method="POST",status="400"}'), 1);
    assert.equal(
      d(a0, a1, 'patina_http_request_duration_seconds_count{route="/v1/transactions",method="POST"}'),
      writes + 1,
    );
    assert.equal(d(a0, a1, 'patina_http_requests_total{route="/v1/queries",method="POST",status="200"}'), 2 * writes);
    assert.ok(d(a0, a1, 'patina_http_requests_total{route="/metrics",method="GET",status="200"}') >= 5);
    // Writes: committed, rows per changeset, latency.
    assert.equal(d(a0, a1, 'patina_writes_committed_total{origin="local"}'), writes + 1);
    assert.equal(d(a0, a1, 'patina_changeset_rows_sum{origin="local"}'), rows + 1);
    assert.equal(d(a0, a1, 'patina_changeset_rows_count{origin="local"}'), writes + 1);
    assert.ok(
      d(a0, a1, 'patina_write_duration_seconds_count{result="ok"}') >= writes + 1,
      'HTTP and PostgreSQL autocommit writes are timed',
    );
    assert.ok(d(a0, a1, 'patina_write_duration_seconds_count{result="error"}') >= 1, 'the failed write is timed too');
    // Reads: the point reads in-process (HTTP and PG), the count(*) on workers.
    assert.ok(d(a0, a1, 'patina_reads_total{where="in_process"}') >= 2 * writes);
    assert.ok(d(a0, a1, 'patina_reads_total{where="worker"}') >= writes);
    assert.ok(value(a1, 'patina_read_workers') >= 1);
    // PostgreSQL: connections and statements by kind, errors by SQLSTATE class.
    assert.equal(value(a1, 'patina_pg_connections'), 1);
    assert.equal(d(a0, a1, 'patina_pg_connections_accepted_total'), 1);
    assert.ok(d(a0, a1, 'patina_pg_statements_total{kind="select"}') >= writes);
    assert.equal(d(a0, a1, 'patina_pg_statements_total{kind="insert"}'), 1);
    assert.equal(d(a0, a1, 'patina_pg_errors_total{sqlstate_class="42"}'), 1);
    // Live queries and update streams.
    assert.equal(value(a1, 'patina_subscriptions'), 1);
    assert.equal(value(a1, 'patina_subscription_clients'), 1);
    assert.ok(d(a0, a1, 'patina_subscription_changes_sent_total') >= rows);
    assert.equal(value(a1, 'patina_update_streams'), 1);
    assert.equal(value(a1, 'patina_matcher_queue_length'), 0);
    assert.ok(value(a1, 'patina_matcher_lag_seconds') >= 0);
    // Replication, both sides.
    assert.ok(d(a0, a1, 'patina_replication_changesets_pushed_total') >= writes, 'A pushed its changesets');
    assert.ok(d(b0, b1, 'patina_replication_changesets_merged_total') >= writes + 1, 'B merged them');
    assert.ok(d(b0, b1, 'patina_changeset_rows_sum{origin="remote"}') >= rows + 1);
    // Sync rounds run on a timer, not per write: wait for one rather than hope one fell in the window.
    await eventually(
      'A ran a sync round',
      30_000,
      async () => d(a0, await scrape(a.http), 'patina_replication_sync_rounds_total') >= 1,
    );
    const peerOfA = [...a1.samples.keys()].find((k) => k.startsWith('patina_peer_up{'))!;
    assert.equal(a1.samples.get(peerOfA), 1);
    assert.equal(
      a1.samples.get(peerOfA.replace('patina_peer_up{', 'patina_peer_state{').replace('}', ',state="alive"}')),
      1,
    );
    // a round trip is known once a probe of this peer was answered (probes go round the members on
    // a timer): wait for one rather than hope one was answered before the scrape
    const rtt = peerOfA.replace('patina_peer_up', 'patina_peer_rtt_seconds');
    await eventually("A measured its peer's round trip", 30_000, async () => value(await scrape(a.http), rtt) > 0);
    assert.equal(value(b1, 'patina_replication_gaps'), 0);
    assert.ok(value(b1, 'patina_replication_lag_seconds') >= 0);
    // Files and the event loop.
    assert.ok(value(a1, 'patina_database_size_bytes') > 0);
    assert.ok(
      value(a1, 'patina_database_wal_size_bytes') + value(a1, 'patina_database_size_bytes') >
        value(a0, 'patina_database_size_bytes'),
    );
    assert.ok(value(a1, 'patina_nodejs_eventloop_lag_p99_seconds') > 0);
    // The mid-load scrapes saw the counters rise.
    const seen = mid
      .filter((_, i) => i % 2 === 0)
      .map((s) => value(s, 'patina_writes_committed_total{origin="local"}'));
    assert.ok(seen[seen.length - 1] > seen[0], `writes counted while the load ran: ${seen.join(', ')}`);

    await pg.end();
    sub.stream.close();
    updates.close();
    await eventually('closed clients are no longer counted', 10_000, async () => {
      const s = await scrape(a.http);
      return (
        value(s, 'patina_pg_connections') === 0 &&
        value(s, 'patina_subscription_clients') === 0 &&
        value(s, 'patina_update_streams') === 0
      );
    });
  });

  it('names each route by its pattern, and unknown paths as unmatched; a wrong method on /metrics is a 405', async () => {
    const a = c.nodes[0];
    const s0 = await scrape(a.http);
    assert.equal((await request(a.http, 'GET', '/no/such/route')).status, 404);
    assert.equal((await request(a.http, 'POST', '/metrics', '{}')).status, 405);
    const s1 = await scrape(a.http);
    const d = (k: string) => value(s1, k) - (s0.samples.get(k) ?? 0);
    assert.equal(d('patina_http_requests_total{route="unmatched",method="GET",status="404"}'), 1);
    assert.ok(![...s1.samples.keys()].some((k) => k.includes('/no/such/route')), 'paths never become labels');
  });

  it('keeps each histogram whole: buckets rise with le, +Inf equals _count, and _sum holds the seconds', async () => {
    const a = c.nodes[0];
    for (let i = 0; i < 20; i++) await exec(a.http, [[`INSERT INTO kv (k, v) VALUES (?, 'h')`, [50_000 + i]]]);
    const s = await scrape(a.http);
    for (const [name, labels] of [
      ['patina_http_request_duration_seconds', 'route="/v1/transactions",method="POST"'],
      ['patina_write_duration_seconds', 'result="ok"'],
      ['patina_changeset_rows', 'origin="local"'],
    ]) {
      const buckets = [...s.samples]
        .filter(([k]) => k.startsWith(`${name}_bucket{`) && k.includes(labels))
        .map(([k, v]) => [/le="([^"]+)"/.exec(k)![1], v] as [string, number]);
      assert.ok(buckets.length > 2, `${name}{${labels}} has buckets`);
      const finite = buckets.filter(([le]) => le !== '+Inf').sort((x, y) => Number(x[0]) - Number(y[0]));
      for (let i = 1; i < finite.length; i++)
        assert.ok(finite[i][1] >= finite[i - 1][1], `${name} buckets are cumulative`);
      const count = value(s, `${name}_count{${labels}}`);
      assert.ok(count >= 20, `${name}_count{${labels}} counts the writes: ${count}`);
      assert.equal(buckets.find(([le]) => le === '+Inf')?.[1], count, `${name}: +Inf is the count`);
      assert.ok(finite[finite.length - 1][1] <= count);
      assert.ok(value(s, `${name}_sum{${labels}}`) > 0, `${name}_sum is positive`);
    }
  });
});
