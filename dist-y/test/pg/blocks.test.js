"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Transaction blocks over the PG port. A block that finds nothing else writing holds its own
// transaction and runs each statement once (Writer.hold); others wait for it a few milliseconds at
// most, then it is rolled back and goes on as a deferred block (protocols/pg/session/deferred-block.ts):
// each statement tried out on the writer and undone, until COMMIT runs the block for real.
const strict_1 = __importDefault(require("node:assert/strict"));
const agent_1 = require("../helpers/agent");
const metrics_1 = require("../helpers/metrics");
const pg_1 = require("../helpers/pg");
const subscriptions_1 = require("../helpers/subscriptions");
const SCHEMA = `CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0, note TEXT);`;
describe('PG transaction blocks tried out before COMMIT', function () {
    this.timeout(60000);
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    });
    after(() => agent.dispose());
    it('writes nothing for statements tried out and rolled back: the data and the write-ahead log stay as they were', async () => {
        const c = (0, pg_1.pgClient)(agent.pg.port);
        await c.connect();
        try {
            await c.query('INSERT INTO items (id, n, note) VALUES (1, 10, $1)', ['x'.repeat(2000)]);
            const walBefore = (0, metrics_1.value)(await (0, metrics_1.scrape)(agent.http), 'patina_database_wal_size_bytes');
            for (let i = 0; i < 150; i++) {
                await c.query('BEGIN');
                const r = await c.query('UPDATE items SET n = n + 1, note = $1 WHERE id = $2', ['y'.repeat(2000), 1]);
                strict_1.default.equal(r.rowCount, 1); // told as it would be, though nothing is written yet
                strict_1.default.deepEqual((await c.query('SELECT n FROM items WHERE id = 1')).rows, [{ n: String(11) }]);
                await c.query('ROLLBACK');
            }
            const walAfter = (0, metrics_1.value)(await (0, metrics_1.scrape)(agent.http), 'patina_database_wal_size_bytes');
            strict_1.default.equal(walAfter, walBefore, `the write-ahead log grew by ${walAfter - walBefore} bytes`);
            strict_1.default.deepEqual((await c.query('SELECT n, length(note) AS l FROM items')).rows, [{ n: '10', l: 2000 }]);
            // and a block that commits is written once, as the client was told
            await c.query('BEGIN');
            strict_1.default.equal((await c.query('UPDATE items SET n = n + 5 WHERE id = 1')).rowCount, 1);
            strict_1.default.equal((await c.query('UPDATE items SET n = n + 5 WHERE id = 2')).rowCount, 0);
            await c.query('COMMIT');
            strict_1.default.deepEqual((await c.query('SELECT n FROM items')).rows, [{ n: '15' }]);
        }
        finally {
            await c.end();
        }
    });
});
/** The block counters of /metrics: committed directly, replayed, preempted. */
function blocks(s) {
    return {
        direct: (0, metrics_1.value)(s, 'patina_pg_block_commits_total{path="direct"}'),
        replayed: (0, metrics_1.value)(s, 'patina_pg_block_commits_total{path="replayed"}'),
        preempted: (0, metrics_1.value)(s, 'patina_pg_block_holds_preempted_total'),
    };
}
async function connected(port, n) {
    const clients = Array.from({ length: n }, () => (0, pg_1.pgClient)(port));
    await Promise.all(clients.map((c) => c.connect()));
    return clients;
}
describe('PG transaction blocks that hold their own transaction', function () {
    this.timeout(60000);
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    });
    after(() => agent.dispose());
    beforeEach(async () => {
        const [c] = await connected(agent.pg.port, 1);
        await c.query('DELETE FROM items');
        await c.query('INSERT INTO items (id, n) VALUES (1, 0), (2, 0), (3, 0)');
        await c.end();
    });
    it('commits a block alone on its own transaction, run once, and publishes its changes as one change each', async () => {
        const [c] = await connected(agent.pg.port, 1);
        let sub = await (0, subscriptions_1.subscribe)(agent.http, 'SELECT id, n FROM items');
        try {
            // Another writer (the change log's compactor) may take the writer and preempt the block after
            // 5 ms: on a loaded machine the client's round trips can take that long, so the block runs
            // again until it was not preempted.
            for (let attempt = 0;; attempt++) {
                const before = blocks(await (0, metrics_1.scrape)(agent.http));
                await c.query('BEGIN');
                strict_1.default.equal((await c.query('UPDATE items SET n = n + 5 WHERE id = $1', [1])).rowCount, 1);
                strict_1.default.deepEqual((await c.query('SELECT n FROM items WHERE id = 1')).rows, [{ n: '5' }]);
                await c.query('INSERT INTO items (id, n) VALUES (4, 7)');
                await c.query('COMMIT');
                const after = blocks(await (0, metrics_1.scrape)(agent.http));
                if (after.preempted > before.preempted && attempt < 4) {
                    await c.query('DELETE FROM items WHERE id = 4');
                    await c.query('UPDATE items SET n = 0 WHERE id = 1');
                    sub.stream.close();
                    sub = await (0, subscriptions_1.subscribe)(agent.http, 'SELECT id, n FROM items');
                    continue;
                }
                strict_1.default.deepEqual([after.direct - before.direct, after.replayed - before.replayed, after.preempted - before.preempted], [1, 0, 0]);
                break;
            }
            const events = await sub.stream.until((e) => (0, subscriptions_1.changes)(e).length >= 2);
            strict_1.default.deepEqual((0, subscriptions_1.changes)(events).map(([kind, , cells]) => [kind, cells]), [
                ['update', [1, 5]],
                ['insert', [4, 7]],
            ]);
            strict_1.default.deepEqual((await c.query('SELECT id, n FROM items ORDER BY id')).rows.map((r) => [r.id, r.n]), [
                ['1', '5'],
                ['2', '0'],
                ['3', '0'],
                ['4', '7'],
            ]);
        }
        finally {
            sub.stream.close();
            await c.end();
        }
    });
    it('rolls back the held transaction of an idle block when another write waits, and the block still commits by replay', async () => {
        const [a, b] = await connected(agent.pg.port, 2);
        try {
            const before = blocks(await (0, metrics_1.scrape)(agent.http));
            await a.query('BEGIN');
            await a.query('UPDATE items SET n = n + 1 WHERE id = 1'); // holds the writer; its client now sits idle
            const t0 = Date.now();
            await b.query('UPDATE items SET n = 100 WHERE id = 2'); // waits a few ms, then the block is preempted
            const waited = Date.now() - t0;
            strict_1.default.ok(waited < 2000, `the autocommit write waited ${waited} ms`);
            strict_1.default.deepEqual((await b.query('SELECT n FROM items WHERE id = 1')).rows, [{ n: '0' }]); // nothing of a is visible
            strict_1.default.deepEqual((await a.query('SELECT n FROM items WHERE id = 1')).rows, [{ n: '1' }]); // a still sees its write
            await a.query('UPDATE items SET n = n + 1 WHERE id = 3');
            await a.query('COMMIT');
            const after = blocks(await (0, metrics_1.scrape)(agent.http));
            strict_1.default.equal(after.preempted - before.preempted, 1);
            strict_1.default.equal(after.replayed - before.replayed, 1);
            strict_1.default.equal(after.direct - before.direct, 0);
            strict_1.default.deepEqual((await b.query('SELECT id, n FROM items ORDER BY id')).rows.map((r) => [r.id, r.n]), [
                ['1', '1'],
                ['2', '100'],
                ['3', '1'],
            ]);
        }
        finally {
            await Promise.all([a.end(), b.end()]);
        }
    });
    it('writes nothing of a held block rolled back or failed, and frees the writer at once when a statement fails', async () => {
        const [a, b] = await connected(agent.pg.port, 2);
        try {
            const before = blocks(await (0, metrics_1.scrape)(agent.http));
            await a.query('BEGIN');
            await a.query('UPDATE items SET n = 9 WHERE id = 1');
            await a.query('ROLLBACK');
            await a.query('BEGIN');
            await a.query('UPDATE items SET n = 9 WHERE id = 1');
            await strict_1.default.rejects(a.query('INSERT INTO items (id) VALUES (2)'), (err) => err.code === '23505');
            await b.query('UPDATE items SET n = 50 WHERE id = 3'); // no held transaction is left to wait for
            await strict_1.default.rejects(a.query('SELECT 1'), (err) => err.code === '25P02');
            strict_1.default.equal((await a.query('COMMIT')).command, 'ROLLBACK');
            const after = blocks(await (0, metrics_1.scrape)(agent.http));
            strict_1.default.equal(after.preempted - before.preempted, 0);
            strict_1.default.equal(after.direct + after.replayed - before.direct - before.replayed, 0);
            strict_1.default.deepEqual((await a.query('SELECT id, n FROM items ORDER BY id')).rows.map((r) => [r.id, r.n]), [
                ['1', '0'],
                ['2', '0'],
                ['3', '50'],
            ]);
        }
        finally {
            await Promise.all([a.end(), b.end()]);
        }
    });
    it('loses no increment when 4 connections run blocks on 3 rows at once, some held and some replayed, and fails none', async () => {
        const clients = await connected(agent.pg.port, 4);
        try {
            const before = blocks(await (0, metrics_1.scrape)(agent.http));
            await Promise.all(clients.map(async (c, k) => {
                for (let i = 0; i < 40; i++) {
                    const id = 1 + ((i + k) % 3);
                    await c.query('BEGIN');
                    await c.query('UPDATE items SET n = n + $1 WHERE id = $2', [k + 1, id]);
                    const seen = Number((await c.query('SELECT n FROM items WHERE id = $1', [id])).rows[0].n);
                    await c.query('UPDATE items SET note = $1 WHERE id = $2', [String(seen), id]);
                    await c.query('COMMIT');
                }
            }));
            const after = blocks(await (0, metrics_1.scrape)(agent.http));
            strict_1.default.equal(after.direct + after.replayed - before.direct - before.replayed, 160);
            strict_1.default.ok(after.direct > before.direct, 'some blocks committed on their own transaction');
            const sum = (await clients[0].query('SELECT sum(n) AS n FROM items')).rows[0].n;
            strict_1.default.equal(Number(sum), 40 * (1 + 2 + 3 + 4));
        }
        finally {
            await Promise.all(clients.map((c) => c.end()));
        }
    });
    it('keeps a block committed on its own transaction across a SIGKILL right after COMMIT', async () => {
        const own = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
        let again = null;
        try {
            const [c] = await connected(own.pg.port, 1);
            c.on('error', () => undefined);
            await c.query('BEGIN');
            await c.query('INSERT INTO items (id, n) VALUES (10, 1), (11, 2)');
            await c.query('UPDATE items SET n = n + 40 WHERE id = 10');
            await c.query('COMMIT');
            strict_1.default.equal(blocks(await (0, metrics_1.scrape)(own.http)).direct, 1);
            await own.kill(); // SIGKILL
            again = await new agent_1.AgentProcess({ dir: own.dir, schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] }).start();
            const [d] = await connected(again.pg.port, 1);
            strict_1.default.deepEqual((await d.query('SELECT id, n FROM items ORDER BY id')).rows.map((r) => [r.id, r.n]), [
                ['10', '41'],
                ['11', '2'],
            ]);
            await d.end();
        }
        finally {
            await again?.dispose();
            await own.dispose();
        }
    });
});
describe('PG transaction blocks that share a held transaction', function () {
    this.timeout(60000);
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    });
    after(() => agent.dispose());
    beforeEach(async () => {
        const [c] = await connected(agent.pg.port, 1);
        await c.query('DELETE FROM items');
        await c.query('INSERT INTO items (id, n) VALUES (1, 0), (2, 0), (3, 0)');
        await c.end();
    });
    const rowsOf = async (c) => (await c.query('SELECT id, n FROM items ORDER BY id')).rows.map((r) => [Number(r.id), Number(r.n)]);
    it('runs a second block on the transaction the first holds, commits both in one COMMIT, each its own version and change', async () => {
        const [a, b] = await connected(agent.pg.port, 2);
        try {
            // A member that asked to commit waits for the others 5 ms at most (then all go on deferred):
            // on a loaded machine the second COMMIT may come later, so the scenario runs until it did not.
            let shared = false;
            for (let attempt = 0; attempt < 5 && !shared; attempt++) {
                await a.query('DELETE FROM items WHERE id = 4');
                await a.query('UPDATE items SET n = 0');
                const sub = await (0, subscriptions_1.subscribe)(agent.http, 'SELECT id, n FROM items');
                try {
                    const v0 = (await (0, subscriptions_1.write)(agent.http, [['UPDATE items SET note = ? WHERE id = 3', [`before ${attempt}`]]]))
                        .version;
                    const before = blocks(await (0, metrics_1.scrape)(agent.http));
                    await a.query('BEGIN');
                    await a.query('UPDATE items SET n = n + 5 WHERE id = $1', [1]); // holds the writer
                    await b.query('BEGIN');
                    await b.query('UPDATE items SET n = n + 7 WHERE id = $1', [2]); // joins it: runs once, directly
                    await b.query('INSERT INTO items (id, n) VALUES (4, 1)');
                    strict_1.default.deepEqual((await b.query('SELECT n FROM items WHERE id = 2')).rows, [{ n: '7' }]);
                    await a.query('UPDATE items SET n = n + 1 WHERE id = 3');
                    await Promise.all([a.query('COMMIT'), b.query('COMMIT')]);
                    const after = blocks(await (0, metrics_1.scrape)(agent.http));
                    const counts = [after.direct - before.direct, after.replayed - before.replayed];
                    shared = after.preempted === before.preempted;
                    strict_1.default.deepEqual(counts, shared ? [2, 0] : [0, 2]);
                    // two versions, no gap: the next write takes the one after both blocks'
                    const v1 = (await (0, subscriptions_1.write)(agent.http, [['UPDATE items SET note = ? WHERE id = 3', ['after']]])).version;
                    strict_1.default.equal(v1, v0 + 3);
                    // the subscription sees every row each block changed (the notes are not in its columns)
                    const events = await sub.stream.until((e) => (0, subscriptions_1.changes)(e).length >= 4);
                    strict_1.default.deepEqual((0, subscriptions_1.changes)(events)
                        .map(([kind, , cells]) => [kind, cells])
                        .sort((x, y) => x[1][0] - y[1][0]), [
                        ['update', [1, 5]],
                        ['update', [2, 7]],
                        ['update', [3, 1]],
                        ['insert', [4, 1]],
                    ]);
                    strict_1.default.deepEqual(await rowsOf(a), [
                        [1, 5],
                        [2, 7],
                        [3, 1],
                        [4, 1],
                    ]);
                }
                finally {
                    sub.stream.close();
                }
            }
            strict_1.default.ok(shared, 'in 5 attempts, the second block never committed with the first');
        }
        finally {
            await Promise.all([a.end(), b.end()]);
        }
    });
    it('ends the sharing before a block reads a row another sharing block wrote: the read sees the last commit, and both commit by replay', async () => {
        const [a, b] = await connected(agent.pg.port, 2);
        try {
            const before = blocks(await (0, metrics_1.scrape)(agent.http));
            await a.query('BEGIN');
            await a.query('UPDATE items SET n = n + 1 WHERE id = 1');
            await b.query('BEGIN');
            await b.query('UPDATE items SET n = n + 1 WHERE id = 2'); // shares a's transaction
            // a's write is not committed: b must not be told it
            strict_1.default.deepEqual((await b.query('SELECT n FROM items WHERE id = 1')).rows, [{ n: '0' }]);
            // a writes a row b read: a's COMMIT waits for b's end (row claims), so b's read holds
            const aCommit = a.query('COMMIT');
            await b.query('COMMIT');
            await aCommit;
            const after = blocks(await (0, metrics_1.scrape)(agent.http));
            strict_1.default.deepEqual([after.direct - before.direct, after.replayed - before.replayed, after.preempted - before.preempted], [0, 2, 2]);
            strict_1.default.deepEqual(await rowsOf(a), [
                [1, 1],
                [2, 1],
                [3, 0],
            ]);
        }
        finally {
            await Promise.all([a.end(), b.end()]);
        }
    });
    it('rolls back the shared transaction when one of its blocks rolls back, fails or closes; the others commit by replay', async () => {
        const [a, b, c] = await connected(agent.pg.port, 3);
        try {
            const before = blocks(await (0, metrics_1.scrape)(agent.http));
            await a.query('BEGIN');
            await a.query('UPDATE items SET n = n + 1 WHERE id = 1');
            await b.query('BEGIN');
            await b.query('UPDATE items SET n = n + 10 WHERE id = 2');
            await a.query('ROLLBACK');
            await b.query('COMMIT');
            await b.query('BEGIN');
            await b.query('UPDATE items SET n = n + 10 WHERE id = 2');
            await c.query('BEGIN');
            await c.query('UPDATE items SET n = n + 100 WHERE id = 3');
            await strict_1.default.rejects(c.query('INSERT INTO items (id) VALUES (1)'), (err) => err.code === '23505');
            await c.query('ROLLBACK');
            await b.query('COMMIT');
            const after = blocks(await (0, metrics_1.scrape)(agent.http));
            strict_1.default.deepEqual([after.direct - before.direct, after.replayed - before.replayed, after.preempted - before.preempted], [0, 2, 2]);
            strict_1.default.deepEqual(await rowsOf(a), [
                [1, 0],
                [2, 20],
                [3, 0],
            ]);
            // a block that joined and whose connection closed: the holder goes on and commits
            await a.query('BEGIN');
            await a.query('UPDATE items SET n = n + 1 WHERE id = 1');
            await c.query('BEGIN');
            await c.query('UPDATE items SET n = n + 1 WHERE id = 3');
            await c.end();
            await a.query('COMMIT');
            strict_1.default.deepEqual(await rowsOf(a), [
                [1, 1],
                [2, 20],
                [3, 0],
            ]);
        }
        finally {
            await Promise.all([a.end(), b.end()]);
        }
    });
});
//# sourceMappingURL=blocks.test.js.map