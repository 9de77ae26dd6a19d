"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_net_1 = __importDefault(require("node:net"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const wait_1 = require("../helpers/wait");
const http_2 = require("../helpers/http");
const SCHEMA = `
CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', email TEXT);
CREATE TABLE pairs (a TEXT NOT NULL, b INTEGER NOT NULL, v TEXT, PRIMARY KEY (b, a));
CREATE TABLE big (k TEXT NOT NULL PRIMARY KEY);
`;
const tx = (agent, ...statements) => (0, http_1.postJson)(agent.http, '/v1/transactions', statements);
async function updates(agent, table) {
    const s = await (0, http_1.openStream)(agent.http, 'POST', `/v1/updates/${encodeURIComponent(table)}`);
    strict_1.default.equal(s.status, 200);
    strict_1.default.match(String(s.res.headers['content-type']), /ndjson/);
    return s;
}
const healthOf = (agent) => (0, http_2.health)(agent.http);
describe('POST /v1/updates/{table}', () => {
    let agent;
    const open = [];
    const stream = async (table) => {
        const s = await updates(agent, table);
        open.push(s);
        return s;
    };
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA });
    });
    afterEach(() => {
        for (const s of open.splice(0))
            s.close();
    });
    after(async () => agent.dispose());
    it('notifies an insert and an update as update, a delete as delete, with the primary key', async () => {
        const s = await stream('users');
        await write(agent, ['INSERT INTO users (id, name) VALUES (?, ?)', [1, 'ann']]);
        await write(agent, "UPDATE users SET name = 'anna' WHERE id = 1");
        await write(agent, 'DELETE FROM users WHERE id = 1');
        strict_1.default.deepEqual(await s.count(3), [
            { notify: ['update', [1]] },
            { notify: ['update', [1]] },
            { notify: ['delete', [1]] },
        ]);
    });
    it('sends no snapshot: only changes committed after the request', async () => {
        await write(agent, "INSERT INTO users (id, name) VALUES (10, 'before'), (11, 'before')");
        const s = await stream('users');
        await write(agent, "INSERT INTO users (id, name) VALUES (12, 'after')");
        await s.count(1);
        await new Promise((r) => setTimeout(r, 200));
        strict_1.default.deepEqual(s.events, [{ notify: ['update', [12]] }]);
    });
    it('gives composite keys in primary-key order, not column order', async () => {
        const s = await stream('pairs');
        await write(agent, ["INSERT INTO pairs (a, b, v) VALUES ('x', 7, 'one')"]);
        await write(agent, "DELETE FROM pairs WHERE a = 'x' AND b = 7");
        strict_1.default.deepEqual(await s.count(2), [{ notify: ['update', [7, 'x']] }, { notify: ['delete', [7, 'x']] }]);
    });
    it('keeps 64-bit integer keys exact', async () => {
        const s = await stream('users');
        await write(agent, "INSERT INTO users (id, name) VALUES (9223372036854775807, 'max'), (-9223372036854775808, 'min'), (9007199254740993, 'odd')");
        strict_1.default.deepEqual(await s.count(3), [
            { notify: ['update', [9223372036854775807n]] },
            { notify: ['update', [-9223372036854775808n]] },
            { notify: ['update', [9007199254740993n]] },
        ]);
    });
    it('reports one event per changed row of a transaction, in the order they changed', async () => {
        const s = await stream('users');
        await write(agent, "INSERT INTO users (id, name) VALUES (20, 'a')", "INSERT INTO users (id, name) VALUES (21, 'b')", 'DELETE FROM users WHERE id = 20', 'UPDATE users SET id = 22 WHERE id = 21');
        strict_1.default.deepEqual(await s.count(3), [
            { notify: ['delete', [20]] },
            { notify: ['delete', [21]] },
            { notify: ['update', [22]] },
        ]);
    });
    it('a row deleted and made again in one transaction is an update; made and deleted, a delete (no live query reads the table)', async () => {
        await write(agent, "INSERT INTO users (id, name) VALUES (90, 'a')");
        const s = await stream('users');
        await write(agent, 'DELETE FROM users WHERE id = 90', "INSERT INTO users (id, name) VALUES (90, 'again')", "INSERT INTO users (id, name) VALUES (91, 'brief')", "INSERT OR REPLACE INTO users (id, name) VALUES (91, 'replaced')", 'DELETE FROM users WHERE id = 91');
        strict_1.default.deepEqual(await s.count(2), [{ notify: ['update', [90]] }, { notify: ['delete', [91]] }]);
    });
    it('a write that changes nothing gives no event and version null; versions are contiguous', async () => {
        const s = await stream('users');
        const a = await write(agent, "INSERT INTO users (id, name) VALUES (30, 'same')");
        strict_1.default.equal(typeof a.version, 'number');
        strict_1.default.match(a.actor_id, /^[0-9a-f]{32}$/);
        const same = await write(agent, "UPDATE users SET name = 'same' WHERE id = 30");
        strict_1.default.equal(same.version, null);
        strict_1.default.equal(same.actor_id, a.actor_id);
        const none = await write(agent, 'DELETE FROM users WHERE id = 123456');
        strict_1.default.equal(none.version, null);
        const ignored = await write(agent, "INSERT OR IGNORE INTO users (id, name) VALUES (30, 'other')");
        strict_1.default.equal(ignored.version, null);
        const b = await write(agent, "UPDATE users SET email = 'e@x' WHERE id = 30");
        strict_1.default.equal(b.version, a.version + 1);
        const c = await write(agent, "UPDATE users SET name = 'changed', email = 'e@x' WHERE id = 30");
        strict_1.default.equal(c.version, a.version + 2);
        await s.count(3);
        await new Promise((r) => setTimeout(r, 200));
        strict_1.default.deepEqual(s.events, [
            { notify: ['update', [30]] },
            { notify: ['update', [30]] },
            { notify: ['update', [30]] },
        ]);
    });
    it('a rolled-back transaction gives no event and no version', async () => {
        const s = await stream('users');
        const a = await write(agent, "INSERT INTO users (id, name) VALUES (40, 'a')");
        const bad = await tx(agent, "INSERT INTO users (id, name) VALUES (41, 'b')", "INSERT INTO users (id, name) VALUES (40, 'dup')");
        strict_1.default.equal(bad.status, 409, 'a duplicate key is a conflict');
        const b = await write(agent, "INSERT INTO users (id, name) VALUES (42, 'c')");
        strict_1.default.equal(b.version, a.version + 1);
        await s.count(2);
        await new Promise((r) => setTimeout(r, 200));
        strict_1.default.deepEqual(s.events, [{ notify: ['update', [40]] }, { notify: ['update', [42]] }]);
    });
    it('sends each stream of a table the same events, and other tables none', async () => {
        const u = await Promise.all([stream('users'), stream('users'), stream('users')]);
        const p = await stream('pairs');
        await write(agent, "INSERT INTO users (id, name) VALUES (50, 'x')", "INSERT INTO pairs (a, b) VALUES ('y', 50)");
        for (const s of u)
            strict_1.default.deepEqual(await s.count(1), [{ notify: ['update', [50]] }]);
        strict_1.default.deepEqual(await p.count(1), [{ notify: ['update', [50, 'y']] }]);
    });
    for (const [what, name] of [
        ['an unknown table', 'nope'],
        ['an internal table', '__patina_meta'],
        ['a clock table', '__patina_clock_users'],
        ['an injection attempt', 'users; DROP TABLE users'],
        ['a quoted injection attempt', 'users"; DELETE FROM users; --'],
        ['a NUL byte', 'users\u0000'],
        ['a very long name', 'u'.repeat(5000)],
    ]) {
        it(`refuses ${what} with 404 and changes nothing`, async () => {
            await write(agent, "INSERT OR REPLACE INTO users (id, name) VALUES (60, 'kept')");
            const r = await (0, http_1.request)(agent.http, 'POST', `/v1/updates/${encodeURIComponent(name)}`);
            strict_1.default.equal(r.status, 404);
            strict_1.default.deepEqual(r.json, { error: `table not found in schema: ${name}` });
            const q = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT name FROM users WHERE id = 60');
            strict_1.default.deepEqual(q.lines[1], { row: [1, ['kept']] });
            strict_1.default.deepEqual((await healthOf(agent)).tables.sort(), ['big', 'pairs', 'users']);
        });
    }
    it('a raw %00 in the path is refused the same way', async () => {
        const r = await (0, http_1.request)(agent.http, 'POST', '/v1/updates/%00');
        strict_1.default.equal(r.status, 404);
        strict_1.default.deepEqual(r.json, { error: 'table not found in schema: \u0000' });
    });
    it('needs no body and no content type', async () => {
        const r = await new Promise((resolve, reject) => {
            const sock = node_net_1.default.connect(Number(new URL(agent.http).port), '127.0.0.1', () => {
                sock.write('POST /v1/updates/users HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
            });
            let got = '';
            sock.on('data', (d) => {
                got += d.toString();
                if (got.includes('\r\n\r\n')) {
                    sock.destroy();
                    resolve({ status: Number(got.split(' ')[1]), first: got });
                }
            });
            sock.on('error', reject);
        });
        strict_1.default.equal(r.status, 200, r.first);
    });
    it('forgets clients that disconnect', async () => {
        const before = (await healthOf(agent)).update_streams;
        const a = await updates(agent, 'users');
        const b = await updates(agent, 'users');
        await (0, wait_1.eventually)('the update streams settle', 10_000, async () => strict_1.default.equal((await healthOf(agent)).update_streams, before + 2));
        a.close();
        await (0, wait_1.eventually)('the update streams settle', 10_000, async () => strict_1.default.equal((await healthOf(agent)).update_streams, before + 1));
        await write(agent, "INSERT INTO users (id, name) VALUES (70, 'x')");
        strict_1.default.deepEqual(await b.count(1), [{ notify: ['update', [70]] }]);
        b.close();
        await (0, wait_1.eventually)('the update streams settle', 10_000, async () => strict_1.default.equal((await healthOf(agent)).update_streams, before));
        const c = await stream('users');
        await write(agent, "INSERT INTO users (id, name) VALUES (71, 'x')");
        strict_1.default.deepEqual(await c.count(1), [{ notify: ['update', [71]] }]);
    });
    it('cuts off a client that never reads, and others keep getting events', async function () {
        this.timeout(60000);
        // A raw socket that sends the request and never reads a byte.
        const stuck = node_net_1.default.connect(Number(new URL(agent.http).port), '127.0.0.1');
        await new Promise((r) => stuck.once('connect', () => r()));
        stuck.pause();
        stuck.write('POST /v1/updates/big HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
        let stuckClosed = false;
        stuck.on('close', () => (stuckClosed = true));
        stuck.on('error', () => { });
        const reader = await stream('big');
        const other = await stream('users');
        await (0, wait_1.eventually)('the update streams settle', 10_000, async () => strict_1.default.ok((await healthOf(agent)).update_streams >= 3));
        // About 1 KB per event, 40 MB in all: far more than the socket buffers and the agent's limit.
        const pad = 'hex(zeroblob(500))';
        for (let i = 0; i < 20; i++) {
            await write(agent, `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000) INSERT INTO big (k) SELECT '${i}-' || x || '-' || ${pad} FROM n`);
        }
        await write(agent, "INSERT INTO users (id, name) VALUES (80, 'still here')");
        strict_1.default.deepEqual(await other.count(1), [{ notify: ['update', [80]] }]);
        await reader.count(40000, 30000);
        // The agent dropped the stuck stream (the other two remain) ...
        await (0, wait_1.eventually)('the update streams settle', 10_000, async () => strict_1.default.equal((await healthOf(agent)).update_streams, 2));
        // ... and closed its socket: reading it now gives part of the events, then the end.
        let got = '';
        stuck.on('data', (d) => (got += d.toString()));
        stuck.resume();
        await (0, wait_1.eventually)('the update streams settle', 10_000, async () => strict_1.default.ok(stuckClosed, 'the stuck client was not cut off'));
        const notifies = got.split('\n').filter((l) => l.startsWith('{"notify"')).length;
        strict_1.default.ok(notifies < 40000, `the stuck client got all ${notifies} events`);
        stuck.destroy();
    });
});
/** One transaction of the statements given; fails the test unless every one succeeded. */
function write(agent, ...statements) {
    return (0, http_2.write)(agent.http, statements);
}
//# sourceMappingURL=updates.test.js.map