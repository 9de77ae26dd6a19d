"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const cluster_1 = require("../helpers/cluster");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
const metrics_1 = require("../helpers/metrics");
const subscriptions_1 = require("../helpers/subscriptions");
// GET /metrics on a two-agent cluster, scraped before, while and after real load of every kind
// (HTTP writes and reads, PostgreSQL statements, a subscription, an update stream, replication).
describe('metrics: GET /metrics in the Prometheus text format', function () {
    this.timeout(120_000);
    let c;
    before(async () => {
        c = new cluster_1.TestCluster({ schema: cluster_1.SCHEMA });
        await c.add(['--pg-addr', '127.0.0.1:0']);
        await c.add();
        await (0, cluster_1.eventually)('both agents see each other', 20_000, async () => {
            const [a, b] = await Promise.all(c.nodes.map((n) => (0, metrics_1.scrape)(n.http)));
            return ([...a.samples].some(([k, v]) => k.startsWith('patina_peer_up{') && v === 1) &&
                [...b.samples].some(([k, v]) => k.startsWith('patina_peer_up{') && v === 1));
        });
    });
    after(async () => c?.dispose());
    it('passes promtool check metrics, with patina_ names and Prometheus units', async () => {
        const s = await (0, metrics_1.scrape)(c.nodes[0].http);
        (0, metrics_1.promtoolCheck)(s);
        for (const k of s.samples.keys())
            strict_1.default.match(k, /^patina_/, `every metric has the patina_ prefix: ${k}`);
        for (const name of [
            'patina_http_request_duration_seconds_bucket',
            'patina_database_size_bytes',
            'patina_database_wal_size_bytes',
            'patina_nodejs_eventloop_lag_p99_seconds',
            'patina_replication_lag_seconds',
            'patina_read_workers',
        ]) {
            strict_1.default.ok([...s.samples.keys()].some((k) => k.split('{')[0] === name), `${name} is exported`);
        }
    });
    it('moves as load runs: HTTP, writes, reads, PostgreSQL, subscriptions, update streams and replication', async () => {
        const [a, b] = c.nodes;
        const a0 = await (0, metrics_1.scrape)(a.http);
        const b0 = await (0, metrics_1.scrape)(b.http);
        const pg = (0, pg_1.pgClient)((0, pg_1.pgListeners)(a.agent)[0].port);
        // If an assertion below fails, the client is still open when the agents stop: its queries
        // would fail anyway, and the lost connection must not be an uncaught error in the after hook.
        pg.on('error', () => undefined);
        await pg.connect();
        const sub = await (0, subscriptions_1.subscribe)(a.http, 'SELECT k, v FROM kv WHERE k >= 1000');
        const updates = await (0, http_1.openStream)(a.http, 'POST', '/v1/updates/kv');
        strict_1.default.equal(updates.status, 200);
        let writes = 0;
        let rows = 0;
        let stop = false;
        const mid = [];
        const load = (async () => {
            for (let i = 0; !stop; i++) {
                // 3 rows per transaction
                await (0, cluster_1.exec)(a.http, [
                    [`INSERT INTO kv (k, v) VALUES (?, 'a'), (?, 'b'), (?, 'c')`, [1000 + 3 * i, 1001 + 3 * i, 1002 + 3 * i]],
                ]);
                writes++;
                rows += 3;
                const point = await (0, http_1.postJson)(a.http, '/v1/queries', ['SELECT v FROM kv WHERE k = ?', [1000 + 3 * i]]);
                strict_1.default.equal(point.status, 200);
                const scan = await (0, http_1.postJson)(a.http, '/v1/queries', 'SELECT count(*) FROM kv');
                strict_1.default.equal(scan.status, 200);
                await pg.query('SELECT v FROM kv WHERE k = $1', [1000 + 3 * i]);
            }
        })();
        // Scrape both agents while the load runs: the output stays valid and answers come.
        for (let i = 0; i < 5; i++) {
            await (0, cluster_1.sleep)(300);
            const s = await (0, metrics_1.scrape)(a.http);
            (0, metrics_1.promtoolCheck)(s);
            mid.push(s, await (0, metrics_1.scrape)(b.http));
        }
        stop = true;
        await load;
        await pg.query("INSERT INTO kv (k, v) VALUES (1, 'pg')");
        await strict_1.default.rejects(pg.query('SELECT nope FROM kv'));
        const bad = await (0, http_1.postJson)(a.http, '/v1/transactions', ['INSERT INTO nope VALUES (1)']);
        strict_1.default.equal(bad.status, 400);
        await sub.stream.until((e) => e.filter((x) => 'change' in x).length >= rows, 20_000);
        await (0, cluster_1.eventually)('agent B merged every write', 30_000, async () => (0, metrics_1.value)(await (0, metrics_1.scrape)(b.http), 'patina_writes_committed_total{origin="remote"}') -
            (0, metrics_1.value)(b0, 'patina_writes_committed_total{origin="remote"}') >=
            writes + 1);
        const a1 = await (0, metrics_1.scrape)(a.http);
        const b1 = await (0, metrics_1.scrape)(b.http);
        (0, metrics_1.promtoolCheck)(a1);
        (0, metrics_1.promtoolCheck)(b1);
        const d = (s0, s1, k) => (0, metrics_1.value)(s1, k) - (s0.samples.get(k) ?? 0);
        strict_1.default.ok(writes >= 3, `the load ran (${writes} writes)`);
        // HTTP by route and status, with a latency histogram per route.
        strict_1.default.equal(d(a0, a1, 'patina_http_requests_total{route="/v1/transactions",method="POST",status="200"}'), writes);
        strict_1.default.equal(d(a0, a1, 'patina_http_requests_total{route="/v1/transactions",method="POST",status="400"}'), 1);
        strict_1.default.equal(d(a0, a1, 'patina_http_request_duration_seconds_count{route="/v1/transactions",method="POST"}'), writes + 1);
        strict_1.default.equal(d(a0, a1, 'patina_http_requests_total{route="/v1/queries",method="POST",status="200"}'), 2 * writes);
        strict_1.default.ok(d(a0, a1, 'patina_http_requests_total{route="/metrics",method="GET",status="200"}') >= 5);
        // Writes: committed, rows per changeset, latency.
        strict_1.default.equal(d(a0, a1, 'patina_writes_committed_total{origin="local"}'), writes + 1);
        strict_1.default.equal(d(a0, a1, 'patina_changeset_rows_sum{origin="local"}'), rows + 1);
        strict_1.default.equal(d(a0, a1, 'patina_changeset_rows_count{origin="local"}'), writes + 1);
        strict_1.default.ok(d(a0, a1, 'patina_write_duration_seconds_count{result="ok"}') >= writes + 1, 'HTTP and PostgreSQL autocommit writes are timed');
        strict_1.default.ok(d(a0, a1, 'patina_write_duration_seconds_count{result="error"}') >= 1, 'the failed write is timed too');
        // Reads: the point reads in-process (HTTP and PG), the count(*) on workers.
        strict_1.default.ok(d(a0, a1, 'patina_reads_total{where="in_process"}') >= 2 * writes);
        strict_1.default.ok(d(a0, a1, 'patina_reads_total{where="worker"}') >= writes);
        strict_1.default.ok((0, metrics_1.value)(a1, 'patina_read_workers') >= 1);
        // PostgreSQL: connections and statements by kind, errors by SQLSTATE class.
        strict_1.default.equal((0, metrics_1.value)(a1, 'patina_pg_connections'), 1);
        strict_1.default.equal(d(a0, a1, 'patina_pg_connections_accepted_total'), 1);
        strict_1.default.ok(d(a0, a1, 'patina_pg_statements_total{kind="select"}') >= writes);
        strict_1.default.equal(d(a0, a1, 'patina_pg_statements_total{kind="insert"}'), 1);
        strict_1.default.equal(d(a0, a1, 'patina_pg_errors_total{sqlstate_class="42"}'), 1);
        // Live queries and update streams.
        strict_1.default.equal((0, metrics_1.value)(a1, 'patina_subscriptions'), 1);
        strict_1.default.equal((0, metrics_1.value)(a1, 'patina_subscription_clients'), 1);
        strict_1.default.ok(d(a0, a1, 'patina_subscription_changes_sent_total') >= rows);
        strict_1.default.equal((0, metrics_1.value)(a1, 'patina_update_streams'), 1);
        strict_1.default.equal((0, metrics_1.value)(a1, 'patina_matcher_queue_length'), 0);
        strict_1.default.ok((0, metrics_1.value)(a1, 'patina_matcher_lag_seconds') >= 0);
        // Replication, both sides.
        strict_1.default.ok(d(a0, a1, 'patina_replication_changesets_pushed_total') >= writes, 'A pushed its changesets');
        strict_1.default.ok(d(b0, b1, 'patina_replication_changesets_merged_total') >= writes + 1, 'B merged them');
        strict_1.default.ok(d(b0, b1, 'patina_changeset_rows_sum{origin="remote"}') >= rows + 1);
        // Sync rounds run on a timer, not per write: wait for one rather than hope one fell in the window.
        await (0, cluster_1.eventually)('A ran a sync round', 30_000, async () => d(a0, await (0, metrics_1.scrape)(a.http), 'patina_replication_sync_rounds_total') >= 1);
        const peerOfA = [...a1.samples.keys()].find((k) => k.startsWith('patina_peer_up{'));
        strict_1.default.equal(a1.samples.get(peerOfA), 1);
        strict_1.default.equal(a1.samples.get(peerOfA.replace('patina_peer_up{', 'patina_peer_state{').replace('}', ',state="alive"}')), 1);
        // a round trip is known once a probe of this peer was answered (probes go round the members on
        // a timer): wait for one rather than hope one was answered before the scrape
        const rtt = peerOfA.replace('patina_peer_up', 'patina_peer_rtt_seconds');
        await (0, cluster_1.eventually)("A measured its peer's round trip", 30_000, async () => (0, metrics_1.value)(await (0, metrics_1.scrape)(a.http), rtt) > 0);
        strict_1.default.equal((0, metrics_1.value)(b1, 'patina_replication_gaps'), 0);
        strict_1.default.ok((0, metrics_1.value)(b1, 'patina_replication_lag_seconds') >= 0);
        // Files and the event loop.
        strict_1.default.ok((0, metrics_1.value)(a1, 'patina_database_size_bytes') > 0);
        strict_1.default.ok((0, metrics_1.value)(a1, 'patina_database_wal_size_bytes') + (0, metrics_1.value)(a1, 'patina_database_size_bytes') >
            (0, metrics_1.value)(a0, 'patina_database_size_bytes'));
        strict_1.default.ok((0, metrics_1.value)(a1, 'patina_nodejs_eventloop_lag_p99_seconds') > 0);
        // The mid-load scrapes saw the counters rise.
        const seen = mid
            .filter((_, i) => i % 2 === 0)
            .map((s) => (0, metrics_1.value)(s, 'patina_writes_committed_total{origin="local"}'));
        strict_1.default.ok(seen[seen.length - 1] > seen[0], `writes counted while the load ran: ${seen.join(', ')}`);
        await pg.end();
        sub.stream.close();
        updates.close();
        await (0, cluster_1.eventually)('closed clients are no longer counted', 10_000, async () => {
            const s = await (0, metrics_1.scrape)(a.http);
            return ((0, metrics_1.value)(s, 'patina_pg_connections') === 0 &&
                (0, metrics_1.value)(s, 'patina_subscription_clients') === 0 &&
                (0, metrics_1.value)(s, 'patina_update_streams') === 0);
        });
    });
    it('names each route by its pattern, and unknown paths as unmatched; a wrong method on /metrics is a 405', async () => {
        const a = c.nodes[0];
        const s0 = await (0, metrics_1.scrape)(a.http);
        strict_1.default.equal((await (0, http_1.request)(a.http, 'GET', '/no/such/route')).status, 404);
        strict_1.default.equal((await (0, http_1.request)(a.http, 'POST', '/metrics', '{}')).status, 405);
        const s1 = await (0, metrics_1.scrape)(a.http);
        const d = (k) => (0, metrics_1.value)(s1, k) - (s0.samples.get(k) ?? 0);
        strict_1.default.equal(d('patina_http_requests_total{route="unmatched",method="GET",status="404"}'), 1);
        strict_1.default.ok(![...s1.samples.keys()].some((k) => k.includes('/no/such/route')), 'paths never become labels');
    });
    it('keeps each histogram whole: buckets rise with le, +Inf equals _count, and _sum holds the seconds', async () => {
        const a = c.nodes[0];
        for (let i = 0; i < 20; i++)
            await (0, cluster_1.exec)(a.http, [[`INSERT INTO kv (k, v) VALUES (?, 'h')`, [50_000 + i]]]);
        const s = await (0, metrics_1.scrape)(a.http);
        for (const [name, labels] of [
            ['patina_http_request_duration_seconds', 'route="/v1/transactions",method="POST"'],
            ['patina_write_duration_seconds', 'result="ok"'],
            ['patina_changeset_rows', 'origin="local"'],
        ]) {
            const buckets = [...s.samples]
                .filter(([k]) => k.startsWith(`${name}_bucket{`) && k.includes(labels))
                .map(([k, v]) => [/le="([^"]+)"/.exec(k)[1], v]);
            strict_1.default.ok(buckets.length > 2, `${name}{${labels}} has buckets`);
            const finite = buckets.filter(([le]) => le !== '+Inf').sort((x, y) => Number(x[0]) - Number(y[0]));
            for (let i = 1; i < finite.length; i++)
                strict_1.default.ok(finite[i][1] >= finite[i - 1][1], `${name} buckets are cumulative`);
            const count = (0, metrics_1.value)(s, `${name}_count{${labels}}`);
            strict_1.default.ok(count >= 20, `${name}_count{${labels}} counts the writes: ${count}`);
            strict_1.default.equal(buckets.find(([le]) => le === '+Inf')?.[1], count, `${name}: +Inf is the count`);
            strict_1.default.ok(finite[finite.length - 1][1] <= count);
            strict_1.default.ok((0, metrics_1.value)(s, `${name}_sum{${labels}}`) > 0, `${name}_sum is positive`);
        }
    });
});
//# sourceMappingURL=metrics.test.js.map