"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Concurrent writes: group commit of writes from many connections (each its own transaction, version
// and changeset), PG blocks that do not hold the writer between statements (tried out, replayed and
// checked at COMMIT), and pgbench's built-in workloads, all through real clients.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const node_fs_1 = __importDefault(require("node:fs"));
const agent_1 = require("../helpers/agent");
const cluster_1 = require("../helpers/cluster");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
const subscriptions_1 = require("../helpers/subscriptions");
const wait_1 = require("../helpers/wait");
const SCHEMA = `
CREATE TABLE pgbench_accounts (aid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, abalance INTEGER, filler TEXT);
CREATE TABLE pgbench_branches (bid INTEGER NOT NULL PRIMARY KEY, bbalance INTEGER, filler TEXT);
CREATE TABLE pgbench_tellers (tid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, tbalance INTEGER, filler TEXT);
CREATE TABLE pgbench_history (hid BIGINT NOT NULL PRIMARY KEY DEFAULT (patina_id()), tid INTEGER, bid INTEGER, aid INTEGER, delta INTEGER, mtime TIMESTAMP, filler TEXT);
CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, v TEXT);
CREATE TABLE counters (id INTEGER NOT NULL PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0, touched INTEGER NOT NULL DEFAULT 0);
`;
const CLUSTER_SCHEMA = 'CREATE TABLE kv (k INTEGER NOT NULL PRIMARY KEY, v TEXT, n INTEGER, r REAL, b BLOB);\n';
async function connected(port, n) {
    const clients = Array.from({ length: n }, () => (0, pg_1.pgClient)(port));
    await Promise.all(clients.map((c) => c.connect()));
    return clients;
}
function one(rows) {
    return Object.values(rows[0])[0];
}
describe('concurrent writes', function () {
    this.timeout(120000);
    let agent;
    let port;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
        port = agent.pg.port;
        const r = (0, pg_1.psql)(port, [
            `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100000) INSERT INTO pgbench_accounts SELECT x, 1, 0, '' FROM n`,
            `INSERT INTO pgbench_branches VALUES (1, 0, '')`,
            `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10) INSERT INTO pgbench_tellers SELECT x, 1, 0, '' FROM n`,
            `INSERT INTO counters (id) VALUES (1)`,
        ]);
        strict_1.default.equal(r.status, 0, r.stderr);
    });
    after(() => agent.dispose());
    function pgbench(args) {
        const r = (0, node_child_process_1.spawnSync)('pgbench', ['-n', '-c', '4', '-j', '2', '-h', '127.0.0.1', '-p', String(port), '-U', 'tester', ...args, 'db'], { encoding: 'utf8', timeout: 90000 });
        strict_1.default.equal(r.status, 0, `pgbench ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
        strict_1.default.match(r.stdout, /number of failed transactions: 0 \(0\.000%\)/, r.stdout);
        return r.stdout;
    }
    function sums() {
        const r = (0, pg_1.psql)(port, [
            'SELECT (SELECT sum(abalance) FROM pgbench_accounts), (SELECT sum(tbalance) FROM pgbench_tellers), (SELECT sum(bbalance) FROM pgbench_branches), (SELECT sum(delta) FROM pgbench_history), (SELECT count(*) FROM pgbench_history)',
        ], ['-A', '-t']);
        strict_1.default.equal(r.status, 0, r.stderr);
        return r.stdout.trim().split('|').map(Number);
    }
    it("runs pgbench's built-in tpcb-like, simple-update and select-only scripts unmodified, 4 clients, with consistent balances", () => {
        for (const mode of ['simple', 'prepared']) {
            // no --max-tries: a block that reads the account another open block updated waits for it (row claims)
            const out = pgbench(['-b', 'tpcb-like', '-t', '60', '-M', mode]);
            strict_1.default.match(out, /number of transactions actually processed: 240\/240/);
        }
        const [accounts, tellers, branches, history, count] = sums();
        strict_1.default.equal(count, 480);
        strict_1.default.equal(tellers, history, 'tellers');
        strict_1.default.equal(branches, history, 'branches');
        strict_1.default.equal(accounts, history, 'accounts');
        // simple-update's SELECT reads the account its UPDATE just changed, as tpcb-like's does
        strict_1.default.match(pgbench(['-b', 'simple-update', '-t', '60', '-M', 'prepared']), /processed: 240\/240/);
        const after = sums();
        strict_1.default.equal(after[4], 720);
        strict_1.default.equal(after[0], after[3], 'every history row is one account change');
        strict_1.default.equal(after[1], tellers, 'simple-update leaves tellers alone');
        strict_1.default.match(pgbench(['-b', 'select-only', '-t', '200', '-M', 'prepared']), /processed: 800\/800/);
    });
    it("answers pgbench's catalog probe for its tables (LATERAL, array_position, current_schemas, partitions)", async () => {
        const [c] = await connected(port, 1);
        try {
            const probe = 'select o.n, p.partstrat, pg_catalog.count(i.inhparent) from pg_catalog.pg_class as c join pg_catalog.pg_namespace as n on (n.oid = c.relnamespace) cross join lateral (select pg_catalog.array_position(pg_catalog.current_schemas(true), n.nspname)) as o(n) left join pg_catalog.pg_partitioned_table as p on (p.partrelid = c.oid) left join pg_catalog.pg_inherits as i on (c.oid = i.inhparent) where c.relname = $1 and o.n is not null group by 1, 2 order by 1 asc limit 1';
            const r = await c.query({ text: probe, values: ['pgbench_accounts'], rowMode: 'array' });
            strict_1.default.deepEqual(r.rows.map((row) => row.map(String)), [['2', 'null', '0']]);
            strict_1.default.deepEqual(r.fields.map((f) => f.name), ['n', 'partstrat', 'count']);
            const none = await c.query({ text: probe, values: ['no_such_table'], rowMode: 'array' });
            strict_1.default.equal(none.rows.length, 0);
        }
        finally {
            await c.end();
        }
    });
    it('commits concurrent HTTP writes together, each with its own version, a failing one alone, and subscriptions see exactly what committed', async () => {
        const { stream } = await (0, subscriptions_1.subscribe)(agent.http, 'SELECT id, v FROM items');
        const map = new subscriptions_1.ResultMap();
        const base = await (0, http_1.postJson)(agent.http, '/v1/transactions', [["INSERT INTO items VALUES (7, 'taken')"]]);
        strict_1.default.equal(base.status, 200, base.text);
        const before = base.json.version;
        // 150 requests at once: every 10th inserts id 7 again and fails; the others insert two rows each.
        const rs = await Promise.all(Array.from({ length: 150 }, (_, i) => (0, http_1.postJson)(agent.http, '/v1/transactions', i % 10 === 3
            ? [
                ['INSERT INTO items VALUES (?, ?)', [1000 + i, 'lost']],
                ['INSERT INTO items VALUES (7, ?)', ['dup']],
            ]
            : [
                ['INSERT INTO items VALUES (?, ?)', [1000 + i, 'a']],
                ['INSERT INTO items VALUES (?, ?)', [5000 + i, 'b']],
            ])));
        const versions = [];
        rs.forEach((r, i) => {
            if (i % 10 === 3) {
                strict_1.default.equal(r.status, 409, r.text); // a duplicate key is a conflict
                strict_1.default.match(r.text, /statement 2: UNIQUE constraint failed: items\.id/);
            }
            else {
                strict_1.default.equal(r.status, 200, r.text);
                versions.push(r.json.version);
            }
        });
        strict_1.default.deepEqual([...versions].sort((a, b) => a - b), Array.from({ length: 135 }, (_, k) => before + 1 + k), 'contiguous versions, one per successful request');
        // Each request's rows carry its own version in the clock tables.
        const db = new better_sqlite3_1.default(agent.dbPath, { readonly: true });
        try {
            const clock = db
                .prepare("SELECT db_version FROM __patina_clock_items WHERE pk = (SELECT pk FROM __patina_clock_items c2 WHERE c2.cid = '-1' AND c2.db_version = ? LIMIT 1) AND cid = '-1'")
                .pluck();
            const pkCount = db
                .prepare("SELECT count(*) FROM __patina_clock_items WHERE cid = '-1' AND db_version = ?")
                .pluck();
            for (const v of versions) {
                strict_1.default.equal(clock.get(v), v);
                strict_1.default.equal(pkCount.get(v), 2, `version ${v} wrote two rows`);
            }
        }
        finally {
            db.close();
        }
        const rows = await (0, subscriptions_1.queryMultiset)(agent.http, 'SELECT id, v FROM items');
        strict_1.default.equal(rows.length, 1 + 270);
        strict_1.default.ok(!rows.some((r) => r.includes('lost') || r.includes('dup')));
        await (0, subscriptions_1.settle)(stream);
        map.apply(stream.events);
        strict_1.default.deepEqual(map.multiset(), rows);
        stream.close();
    });
    it('lets a PG block read its own writes, hides them from others until COMMIT, and rolls back all of a failed block', async () => {
        const [a, b] = await connected(port, 2);
        try {
            await a.query("INSERT INTO items VALUES (20, 'old'), (21, 'old')");
            await a.query('BEGIN');
            await a.query("UPDATE items SET v = 'mine' WHERE id = 20");
            strict_1.default.equal(one((await a.query('SELECT v FROM items WHERE id = 20')).rows), 'mine');
            strict_1.default.equal(one((await b.query('SELECT v FROM items WHERE id = 20')).rows), 'old', 'not visible before COMMIT');
            // another connection writes meanwhile: the block does not hold the writer
            await b.query("UPDATE items SET v = 'theirs' WHERE id = 21");
            await a.query("INSERT INTO items VALUES (22, 'new')");
            await strict_1.default.rejects(a.query("INSERT INTO items VALUES (7, 'dup')"), /duplicate key value violates unique constraint "items_pkey"/); // PostgreSQL's words (issue 17)
            const c = await a.query('COMMIT');
            strict_1.default.equal(c.command, 'ROLLBACK');
            strict_1.default.deepEqual((await b.query('SELECT id, v FROM items WHERE id IN (20, 21, 22) ORDER BY id')).rows, [
                { id: '20', v: 'old' },
                { id: '21', v: 'theirs' },
            ]);
            await a.query('BEGIN');
            await a.query("UPDATE items SET v = 'mine' WHERE id = 20");
            await a.query("INSERT INTO items VALUES (22, 'new')");
            await a.query('COMMIT');
            strict_1.default.deepEqual((await b.query('SELECT id, v FROM items WHERE id IN (20, 21, 22) ORDER BY id')).rows, [
                { id: '20', v: 'mine' },
                { id: '21', v: 'theirs' },
                { id: '22', v: 'new' },
            ]);
            await a.query('BEGIN');
            await a.query('DELETE FROM items WHERE id = 22');
            await a.query('ROLLBACK');
            strict_1.default.equal(Number(one((await b.query('SELECT count(*) FROM items WHERE id = 22')).rows)), 1);
        }
        finally {
            await Promise.all([a.end(), b.end()]);
        }
    });
    it('commits both of two blocks that each UPDATE a row and then SELECT it: the second waits for the first, no 40001', async () => {
        const [a, b, c] = await connected(port, 3);
        let aEnded = false;
        try {
            await a.query('UPDATE counters SET n = 0, touched = 0 WHERE id = 1');
            const n = async (client) => Number(one((await client.query('SELECT n FROM counters WHERE id = $1', [1])).rows));
            for (let round = 0; round < 40; round++) {
                const [first, second] = round % 2 === 0 ? [a, b] : [b, a];
                const end = round % 4 < 2 ? 'COMMIT' : 'ROLLBACK';
                await first.query('BEGIN');
                await second.query('BEGIN');
                strict_1.default.equal((await first.query('UPDATE counters SET n = n + 1 WHERE id = $1', [1])).rowCount, 1);
                strict_1.default.equal((await second.query('UPDATE counters SET n = n + 10 WHERE id = 1')).rowCount, 1);
                const before = Number(one((await c.query('SELECT n FROM counters WHERE id = 1')).rows));
                strict_1.default.equal(await n(first), before + 1);
                // second read: waits until the first block ends, then sees its outcome and its own update
                let answered = false;
                const read = n(second).then((v) => {
                    answered = true;
                    return v;
                });
                await (0, wait_1.sleep)(20);
                strict_1.default.equal(answered, false, 'the second block read the row before the first block ended');
                await first.query(end);
                strict_1.default.equal(await read, before + (end === 'COMMIT' ? 11 : 10));
                await second.query('COMMIT');
                strict_1.default.equal(Number(one((await c.query('SELECT n FROM counters WHERE id = 1')).rows)), await read);
            }
            // a block waiting for one whose connection drops goes on
            await a.query('BEGIN');
            await b.query('BEGIN');
            await a.query('UPDATE counters SET touched = touched + 1 WHERE id = 1');
            await b.query('UPDATE counters SET touched = touched + 1 WHERE id = 1');
            await a.query('SELECT touched FROM counters WHERE id = 1');
            const read = b.query('SELECT touched FROM counters WHERE id = 1');
            aEnded = true;
            await a.end();
            strict_1.default.equal(Number(one((await read).rows)), 1);
            await b.query('COMMIT');
            // free-running: 4 connections, the pattern of tpcb-like on 3 rows, no retries
            await c.query('UPDATE counters SET n = 0 WHERE id = 1');
            await c.query('INSERT INTO counters (id) VALUES (2), (3)');
            const clients = [b, c, ...(await connected(port, 2))];
            try {
                await Promise.all(clients.map(async (client, k) => {
                    for (let i = 0; i < 30; i++) {
                        const id = 1 + ((i * 7 + k) % 3);
                        await client.query('BEGIN');
                        await client.query('UPDATE counters SET n = n + $1 WHERE id = $2', [k + 1, id]);
                        const seen = Number(one((await client.query('SELECT n FROM counters WHERE id = $1', [id])).rows));
                        await client.query('UPDATE counters SET touched = $1 WHERE id = $2', [seen, id]);
                        await client.query('COMMIT');
                    }
                }));
                const r = (await b.query('SELECT sum(n) AS n FROM counters')).rows[0];
                strict_1.default.equal(Number(r.n), 30 * (1 + 2 + 3 + 4));
                const rows = (await b.query('SELECT n, touched FROM counters')).rows;
                strict_1.default.ok(rows.some((row) => Number(row.touched) > 0));
            }
            finally {
                await Promise.all(clients.slice(2).map((x) => x.end()));
                await c.query('DELETE FROM counters WHERE id IN (2, 3)');
                await c.query('UPDATE counters SET n = 0, touched = 0 WHERE id = 1');
            }
        }
        finally {
            await Promise.all([...(aEnded ? [] : [a.end()]), b.end(), c.end()]);
        }
    });
    it('holds the COMMIT of a block that writes a row another open block read back for 2 s at most', async () => {
        const [a, b] = await connected(port, 2);
        try {
            await a.query('UPDATE counters SET n = 5 WHERE id = 1');
            await a.query('BEGIN');
            await a.query('UPDATE counters SET touched = touched + 1 WHERE id = 1');
            strict_1.default.equal(Number(one((await a.query('SELECT n FROM counters WHERE id = 1')).rows)), 5);
            // a's client goes quiet; b's block writes the row a read
            await b.query('BEGIN');
            await b.query('UPDATE counters SET n = 6 WHERE id = 1');
            const t0 = Date.now();
            await b.query('COMMIT');
            const waited = Date.now() - t0;
            strict_1.default.ok(waited >= 1900 && waited < 10000, `COMMIT waited ${waited} ms`);
            await strict_1.default.rejects(a.query('COMMIT'), (err) => err.code === '40001');
            strict_1.default.deepEqual((await a.query('SELECT n, touched FROM counters WHERE id = 1')).rows.map((r) => [
                Number(r.n),
                Number(r.touched),
            ]), [[6, 0]]);
            await a.query('UPDATE counters SET n = 0 WHERE id = 1');
        }
        finally {
            await Promise.all([a.end(), b.end()]);
        }
    });
    it('runs a pgbench script of blocks that update and read back one of 5 accounts, 4 clients, with no failure and no retry', () => {
        const script = `${agent.dir}/hot.sql`;
        node_fs_1.default.writeFileSync(script, '\\set aid random(1, 5)\n\\set delta random(-5000, 5000)\nBEGIN;\nUPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\nUPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = 1;\nEND;\n');
        const before = sums();
        for (const mode of ['prepared', 'simple'])
            strict_1.default.match(pgbench(['-f', script, '-t', '100', '-M', mode]), /processed: 400\/400/);
        const after = sums();
        strict_1.default.equal(after[0] - before[0], after[2] - before[2], 'every account change is in the branch');
    });
    it('refuses with 40001 a block whose reads a concurrent commit changed, and writes nothing of it', async () => {
        const [a, b] = await connected(port, 2);
        try {
            await a.query('UPDATE counters SET n = 10 WHERE id = 1');
            await a.query('BEGIN');
            await a.query('UPDATE counters SET touched = touched + 1 WHERE id = 1');
            strict_1.default.equal(Number(one((await a.query('SELECT n FROM counters WHERE id = 1')).rows)), 10);
            await b.query('UPDATE counters SET n = 100 WHERE id = 1');
            await a.query('UPDATE counters SET n = 11 WHERE id = 1');
            await strict_1.default.rejects(a.query('COMMIT'), (err) => err.code === '40001' && /could not serialize/.test(err.message));
            strict_1.default.deepEqual((await a.query('SELECT n, touched FROM counters WHERE id = 1')).rows.map((r) => [
                Number(r.n),
                Number(r.touched),
            ]), [[100, 0]]);
            // the session goes on
            await a.query('BEGIN');
            await a.query('UPDATE counters SET touched = touched + 1 WHERE id = 1');
            await a.query('COMMIT');
            strict_1.default.equal(Number(one((await b.query('SELECT touched FROM counters WHERE id = 1')).rows)), 1);
        }
        finally {
            await Promise.all([a.end(), b.end()]);
        }
    });
    it('loses no increment when 8 connections read and write the same row in blocks, and refuses none', async () => {
        const clients = await connected(port, 8);
        await clients[0].query('UPDATE counters SET n = 0, touched = 0 WHERE id = 1');
        let committed = 0;
        let refused = 0;
        try {
            await Promise.all(clients.map(async (c, k) => {
                for (let i = 0; i < 20; i++) {
                    for (;;) {
                        await c.query('BEGIN');
                        await c.query('UPDATE counters SET touched = touched + 1 WHERE id = 1');
                        const n = Number(one((await c.query('SELECT n FROM counters WHERE id = 1')).rows));
                        if ((i + k) % 3 === 0)
                            await (0, wait_1.sleep)(1);
                        await c.query('UPDATE counters SET n = $1 WHERE id = 1', [n + 1]);
                        try {
                            await c.query('COMMIT');
                            committed++;
                            break;
                        }
                        catch (err) {
                            strict_1.default.equal(err.code, '40001', err.message);
                            refused++;
                        }
                    }
                }
            }));
            const r = (await clients[0].query('SELECT n, touched FROM counters WHERE id = 1')).rows[0];
            strict_1.default.equal(committed, 160);
            strict_1.default.deepEqual([Number(r.n), Number(r.touched)], [160, 160], `${refused} refused and retried`);
            strict_1.default.equal(refused, 0, 'each block read the row after the blocks that wrote it before ended (row claims)');
        }
        finally {
            await Promise.all(clients.map((c) => c.end()));
        }
    });
});
describe('concurrent writes, replicated and killed', function () {
    this.timeout(120000);
    it('replicates exactly the committed group-commit writes and deferred blocks, one version each, no gaps', async () => {
        const cluster = await cluster_1.TestCluster.start(2, {
            schema: CLUSTER_SCHEMA,
            args: (i) => (i === 0 ? ['--pg-addr', '127.0.0.1:0'] : []),
        });
        const [a, b] = cluster.nodes;
        const clients = await connected(a.agent.pg.port, 4);
        try {
            const versions = [];
            const http = Promise.all(Array.from({ length: 60 }, (_, i) => (0, http_1.postJson)(a.http, '/v1/transactions', i % 7 === 0
                ? [
                    ['INSERT INTO kv (k, v) VALUES (?, ?)', [100000 + i, 'x']],
                    ['INSERT INTO kv (k, v) VALUES (?, ?)', [100000 + i, 'dup']],
                ]
                : [['INSERT INTO kv (k, v) VALUES (?, ?)', [i, 'http']]]).then((r) => {
                if (i % 7 === 0)
                    strict_1.default.equal(r.status, 409, r.text);
                else {
                    strict_1.default.equal(r.status, 200, r.text);
                    versions.push(r.json.version);
                }
            })));
            const blocks = Promise.all(clients.map(async (c, k) => {
                for (let i = 0; i < 10; i++) {
                    const key = 1000 + k * 100 + i;
                    await c.query('BEGIN');
                    await c.query("INSERT INTO kv (k, v, n) VALUES ($1, 'pg', 0)", [key]);
                    await c.query('UPDATE kv SET n = n + 1 WHERE k = $1', [key]);
                    await c.query(i % 3 === 0 ? 'ROLLBACK' : 'COMMIT');
                }
            }));
            await Promise.all([http, blocks]);
            await (0, cluster_1.converged)(cluster.nodes, ['kv']);
            const st = await (0, cluster_1.syncStatus)(b.http);
            const fromA = st.origins.filter((o) => o.head > 0);
            strict_1.default.equal(fromA.length, 1);
            // 60 - 9 failed HTTP requests, and 4 clients x 6 committed blocks: each one version, no gaps
            strict_1.default.equal(fromA[0].head, 51 + 24);
            strict_1.default.equal(new Set(versions).size, 51);
            const got = await (0, cluster_1.rows)(b.http, "SELECT count(*), sum(v = 'http'), sum(v = 'pg'), sum(n) FROM kv");
            strict_1.default.deepEqual(got, [[75, 51, 24, 24]]);
        }
        finally {
            await Promise.all(clients.map((c) => c.end()));
            await cluster.dispose();
        }
    });
    it('keeps every acknowledged block and autocommit write, and no part of an unacknowledged one, across a SIGKILL under load', async () => {
        const agent = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
        const dir = agent.dir;
        const clients = await connected(agent.pg.port, 6);
        const acked = [];
        const ackedHttp = [];
        let killed = false;
        const kill = () => {
            if (!killed && acked.length >= 60) {
                killed = true;
                agent.proc.kill('SIGKILL');
            }
        };
        await Promise.all([
            ...clients.map(async (c, k) => {
                c.on('error', () => undefined); // the agent is killed under it
                for (let i = 0; !killed; i++) {
                    const id = (k * 10000 + i) * 2;
                    try {
                        await c.query('BEGIN');
                        await c.query("INSERT INTO items VALUES ($1, 'first')", [id]);
                        await c.query("INSERT INTO items VALUES ($1, 'second')", [id + 1]);
                        await c.query('COMMIT');
                        acked.push(id);
                        kill();
                    }
                    catch {
                        return;
                    }
                }
            }),
            (async () => {
                for (let i = 0; !killed; i++) {
                    const id = 900000 + i;
                    const r = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
                        ['INSERT INTO items VALUES (?, ?)', [id, 'http']],
                    ]).catch(() => null);
                    if (!r)
                        return;
                    if (r.status === 200)
                        ackedHttp.push(id);
                }
            })(),
        ]);
        await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
        const again = await new agent_1.AgentProcess({ dir, schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] }).start();
        try {
            const all = new Map((await (0, cluster_1.rows)(again.http, 'SELECT id, v FROM items')).map(([id, v]) => [Number(id), String(v)]));
            for (const id of acked)
                strict_1.default.ok(all.get(id) === 'first' && all.get(id + 1) === 'second', `acknowledged block ${id} is there`);
            for (const id of ackedHttp)
                strict_1.default.equal(all.get(id), 'http');
            for (const [id, v] of all) {
                if (v === 'first')
                    strict_1.default.equal(all.get(id + 1), 'second', `block ${id} is whole`);
                if (v === 'second')
                    strict_1.default.equal(all.get(id - 1), 'first', `block ${id - 1} is whole`);
            }
            strict_1.default.ok(acked.length >= 60);
        }
        finally {
            await again.dispose();
            node_fs_1.default.rmSync(dir, { recursive: true, force: true });
        }
    });
});
//# sourceMappingURL=write-concurrency.test.js.map