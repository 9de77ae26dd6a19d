"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const subscriptions_1 = require("../helpers/subscriptions");
const http_2 = require("../helpers/http");
async function health(base) {
    return (await (0, http_2.health)(base)).subscriptions;
}
/** The status of a GET that may open a stream (which is then closed). */
async function statusOf(base, path) {
    const s = await (0, http_1.openStream)(base, 'GET', path);
    s.close();
    return s.status;
}
describe('live subscriptions over HTTP', function () {
    this.timeout(30000);
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA, config: '[subscriptions]\nclient_buffer = 20\n' });
        await (0, subscriptions_1.write)(agent.http, [
            ["INSERT INTO users VALUES (1, 'ann', 1, 10), (2, 'bob', 1, 20), (3, 'cy', 2, 30)"],
            ["INSERT INTO teams VALUES (1, 'red'), (2, 'blue')"],
        ]);
    });
    after(async () => agent.dispose());
    it('streams columns, the current rows and eoq with change id 0, under a patina-query-id header', async () => {
        const { stream, id } = await (0, subscriptions_1.subscribe)(agent.http, 'SELECT id, name FROM users WHERE id <= 2');
        strict_1.default.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        const ev = stream.events;
        strict_1.default.deepEqual(ev[0], { columns: ['id', 'name'] });
        const rows = ev.filter((e) => 'row' in e).map((e) => e.row[1]);
        strict_1.default.deepEqual(rows.sort(), [
            [1, 'ann'],
            [2, 'bob'],
        ]);
        const eoq = ev[ev.length - 1].eoq;
        strict_1.default.equal(eoq.change_id, 0);
        strict_1.default.equal(typeof eoq.time, 'number');
        stream.close();
    });
    it('gives the same SQL with the same parameters the same query id, and other parameters another', async () => {
        const a = await (0, subscriptions_1.subscribe)(agent.http, ['SELECT name FROM users WHERE team = ?', [1]]);
        const b = await (0, subscriptions_1.subscribe)(agent.http, ['SELECT name FROM users WHERE team = ?', [1]]);
        const c = await (0, subscriptions_1.subscribe)(agent.http, ['SELECT name FROM users WHERE team = ?', [2]]);
        strict_1.default.equal(a.id, b.id);
        strict_1.default.notEqual(a.id, c.id);
        for (const s of [a, b, c])
            s.stream.close();
    });
    it('sends insert, update and delete with contiguous change ids; updates keep their row id; deletes carry the last values', async () => {
        const { stream } = await (0, subscriptions_1.subscribe)(agent.http, 'SELECT u.name, t.title FROM users u JOIN teams t ON t.id = u.team WHERE u.score >= 100');
        const view = new subscriptions_1.ResultMap();
        view.apply(stream.events);
        await (0, subscriptions_1.write)(agent.http, ["INSERT INTO users VALUES (10, 'dee', 1, 100), (11, 'eve', 2, 110)"]);
        await (0, subscriptions_1.untilChange)(stream, 2);
        view.apply(stream.events);
        const before = (0, subscriptions_1.changes)(stream.events);
        strict_1.default.deepEqual(before.map((c) => c[0]), ['insert', 'insert']);
        const deeRow = before.find((c) => c[2][0] === 'dee')[1];
        await (0, subscriptions_1.write)(agent.http, ["UPDATE users SET name = 'dee2' WHERE id = 10"]);
        await (0, subscriptions_1.untilChange)(stream, 3);
        strict_1.default.deepEqual((0, subscriptions_1.changes)(stream.events)[2], ['update', deeRow, ['dee2', 'red'], 3]);
        // A change of the joined table reaches every row built from it.
        await (0, subscriptions_1.write)(agent.http, ["UPDATE teams SET title = 'azure' WHERE id = 2"]);
        await (0, subscriptions_1.untilChange)(stream, 4);
        strict_1.default.deepEqual((0, subscriptions_1.changes)(stream.events)[3].slice(0, 3), [
            'update',
            before.find((c) => c[2][0] === 'eve')[1],
            ['eve', 'azure'],
        ]);
        await (0, subscriptions_1.write)(agent.http, ['DELETE FROM users WHERE id = 10']);
        await (0, subscriptions_1.untilChange)(stream, 5);
        strict_1.default.deepEqual((0, subscriptions_1.changes)(stream.events)[4], ['delete', deeRow, ['dee2', 'red'], 5]);
        view.apply(stream.events);
        strict_1.default.deepEqual([...view.rows.values()], [['eve', 'azure']]);
        stream.close();
    });
    it('emits nothing for a write that leaves the result unchanged, and all changes of one transaction together', async () => {
        const { stream } = await (0, subscriptions_1.subscribe)(agent.http, ['SELECT id, score FROM users WHERE score > ?', [1000]]);
        await (0, subscriptions_1.write)(agent.http, ["UPDATE users SET name = 'ann!' WHERE id = 1", 'UPDATE users SET score = 5 WHERE id = 2']);
        await (0, subscriptions_1.write)(agent.http, [
            'INSERT INTO users VALUES (20, NULL, 1, 2000)',
            'INSERT INTO users VALUES (21, NULL, 1, 2100)',
            'UPDATE users SET score = 2001 WHERE id = 20',
        ]);
        await (0, subscriptions_1.untilChange)(stream, 2);
        await (0, subscriptions_1.sleep)(200);
        const cs = (0, subscriptions_1.changes)(stream.events);
        strict_1.default.deepEqual(cs.map((c) => c[3]), [1, 2]);
        strict_1.default.deepEqual(cs.map((c) => JSON.stringify([c[0], c[2]])).sort(), [
            '["insert",[20,2001]]',
            '["insert",[21,2100]]',
        ]);
        stream.close();
    });
    it('GET /v1/subscriptions/{id} without from sends the current rows and the current change id, then changes', async () => {
        const { stream, id } = await (0, subscriptions_1.subscribe)(agent.http, 'SELECT id, name, team FROM users WHERE team = 3');
        await (0, subscriptions_1.write)(agent.http, ["INSERT INTO users VALUES (30, 'x', 3, 0), (31, 'y', 3, 0)"]);
        await (0, subscriptions_1.untilChange)(stream, 2);
        stream.close();
        const get = await (0, http_1.openStream)(agent.http, 'GET', `/v1/subscriptions/${id}`);
        strict_1.default.equal(get.status, 200);
        strict_1.default.equal(get.res.headers['patina-query-id'], id);
        await get.until((e) => e.some((x) => 'eoq' in x));
        const view = new subscriptions_1.ResultMap();
        view.apply(get.events);
        strict_1.default.equal(view.lastChange, 2);
        strict_1.default.deepEqual(view.multiset(), ['[30,"x",3]', '[31,"y",3]']);
        await (0, subscriptions_1.write)(agent.http, ["UPDATE users SET name = 'z' WHERE id = 31"]);
        await (0, subscriptions_1.untilChange)(get, 3);
        view.apply(get.events);
        strict_1.default.deepEqual(view.multiset(), ['[30,"x",3]', '[31,"z",3]']);
        get.close();
    });
    it('GET with from=N sends only the changes after N, then live ones; POST with from on an existing subscription does the same', async () => {
        const body = 'SELECT id, score FROM users WHERE team = 4';
        const { stream, id } = await (0, subscriptions_1.subscribe)(agent.http, body);
        await (0, subscriptions_1.write)(agent.http, ['INSERT INTO users VALUES (40, NULL, 4, 1)']);
        await (0, subscriptions_1.write)(agent.http, ['UPDATE users SET score = 2 WHERE id = 40']);
        await (0, subscriptions_1.write)(agent.http, ['UPDATE users SET score = 3 WHERE id = 40']);
        await (0, subscriptions_1.untilChange)(stream, 3);
        stream.close();
        const get = await (0, http_1.openStream)(agent.http, 'GET', `/v1/subscriptions/${id}?from=1`);
        await (0, subscriptions_1.untilChange)(get, 3);
        strict_1.default.deepEqual(get.events.map((e) => Object.keys(e)[0]), ['change', 'change']);
        strict_1.default.deepEqual((0, subscriptions_1.changes)(get.events).map((c) => c[3]), [2, 3]);
        await (0, subscriptions_1.write)(agent.http, ['UPDATE users SET score = 4 WHERE id = 40']);
        await (0, subscriptions_1.untilChange)(get, 4);
        get.close();
        const post = await (0, http_1.openStream)(agent.http, 'POST', '/v1/subscriptions?from=3', JSON.stringify(body));
        strict_1.default.equal(post.res.headers['patina-query-id'], id);
        await (0, subscriptions_1.untilChange)(post, 4);
        strict_1.default.deepEqual((0, subscriptions_1.changes)(post.events).map((c) => c[3]), [4]);
        post.close();
    });
    it('changes made while nobody listened reach a client that comes back, after its snapshot (GET) or after its from', async () => {
        const body = 'SELECT id, name, score FROM users WHERE team = 5';
        const { stream, id } = await (0, subscriptions_1.subscribe)(agent.http, body);
        stream.close();
        for (let i = 0; i < 100 && (await health(agent.http)).clients > 0; i++)
            await (0, subscriptions_1.sleep)(20);
        // Nobody listens: the agent may match these later than it would for a listener.
        await (0, subscriptions_1.write)(agent.http, ["INSERT INTO users VALUES (50, 'a', 5, 1), (51, 'b', 5, 2)"]);
        await (0, subscriptions_1.write)(agent.http, ['UPDATE users SET score = 3 WHERE id = 50', 'DELETE FROM users WHERE id = 51']);
        await (0, subscriptions_1.write)(agent.http, ["INSERT INTO users VALUES (52, 'c', 5, 4)"]);
        const get = await (0, http_1.openStream)(agent.http, 'GET', `/v1/subscriptions/${id}`);
        const resumed = await (0, http_1.openStream)(agent.http, 'GET', `/v1/subscriptions/${id}?from=0`);
        const want = JSON.stringify(['[50,"a",3]', '[52,"c",4]']);
        const views = [new subscriptions_1.ResultMap(), new subscriptions_1.ResultMap()];
        await get.until((events) => {
            views[0].apply(events);
            return JSON.stringify(views[0].multiset()) === want;
        });
        await resumed.until((events) => {
            views[1].apply(events);
            return JSON.stringify(views[1].multiset()) === want;
        });
        strict_1.default.ok(views[0].lastChange > 0);
        strict_1.default.equal(views[1].lastChange, views[0].lastChange, 'the same change ids on both streams');
        // And a listener's changes go on from there.
        await (0, subscriptions_1.write)(agent.http, ["INSERT INTO users VALUES (53, 'd', 5, 5)"]);
        await (0, subscriptions_1.untilChange)(get, views[0].lastChange + 1);
        await (0, subscriptions_1.untilChange)(resumed, views[0].lastChange + 1);
        views[0].apply(get.events);
        views[1].apply(resumed.events);
        strict_1.default.deepEqual(views[0].multiset(), ['[50,"a",3]', '[52,"c",4]', '[53,"d",5]']);
        strict_1.default.deepEqual(views[1].multiset(), views[0].multiset());
        get.close();
        resumed.close();
    });
    it('refuses POST with from for a subscription that does not exist (400)', async () => {
        const r = await (0, http_1.postJson)(agent.http, '/v1/subscriptions?from=3', 'SELECT id FROM users WHERE id = 12345');
        strict_1.default.equal(r.status, 400);
        strict_1.default.match(r.json.error, /no subscription exists/);
    });
    it('answers 404 with a JSON error for an unknown id', async () => {
        const r = await (0, http_1.request)(agent.http, 'GET', '/v1/subscriptions/00000000-0000-4000-8000-000000000000');
        strict_1.default.equal(r.status, 404);
        strict_1.default.match(r.json.error, /no subscription with query id/);
    });
    it('refuses with 400 what is not one SELECT that prepares, binds and reads a schema table; nothing is created', async () => {
        const before = (await health(agent.http)).subscriptions;
        const cases = [
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
            const r = await (0, http_1.postJson)(agent.http, '/v1/subscriptions', body);
            strict_1.default.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
            strict_1.default.match(r.json.error, re, JSON.stringify(body));
        }
        strict_1.default.equal((await health(agent.http)).subscriptions, before);
        const users = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT count(*) FROM users WHERE id = 99');
        strict_1.default.deepEqual(users.lines[1].row[1], [0]);
    });
    it('forgets a client that disconnects', async () => {
        const { stream } = await (0, subscriptions_1.subscribe)(agent.http, 'SELECT id FROM users WHERE team = 5');
        const open = (await health(agent.http)).clients;
        strict_1.default.ok(open >= 1);
        stream.close();
        for (let i = 0; i < 50 && (await health(agent.http)).clients >= open; i++)
            await (0, subscriptions_1.sleep)(50);
        strict_1.default.equal((await health(agent.http)).clients, open - 1);
    });
    it('cuts off a stalled reader with an error line while another client of the same subscription gets every change', async () => {
        const body = 'SELECT id, name FROM users WHERE team = 6';
        const slow = await (0, subscriptions_1.subscribe)(agent.http, body);
        const fast = await (0, subscriptions_1.subscribe)(agent.http, body);
        slow.stream.res.pause();
        const big = 'x'.repeat(200000);
        // Enough data to fill the socket buffers, then more than client_buffer (20) changes behind them.
        for (let i = 0; i < 60; i++)
            await (0, subscriptions_1.write)(agent.http, [[`INSERT INTO users VALUES (?, ?, 6, 0)`, [600 + i, big + i]]]);
        await (0, subscriptions_1.untilChange)(fast.stream, 60);
        const view = new subscriptions_1.ResultMap();
        view.apply(fast.stream.events);
        strict_1.default.equal(view.rows.size, 60);
        slow.stream.res.resume();
        await slow.stream.until(() => slow.stream.ended, 15000);
        const last = slow.stream.events[slow.stream.events.length - 1];
        strict_1.default.match(String(last.error), /fell behind/);
        strict_1.default.ok((0, subscriptions_1.changes)(slow.stream.events).length < 60);
        fast.stream.close();
    });
    it('answers a from ahead of the log with its own error (re-read), not the one for changes no longer kept', async () => {
        const { stream, id } = await (0, subscriptions_1.subscribe)(agent.http, 'SELECT id, name FROM users WHERE id = 3');
        stream.close();
        const s = await (0, http_1.openStream)(agent.http, 'GET', `/v1/subscriptions/${id}?from=999`);
        strict_1.default.equal(s.status, 200);
        await s.until(() => s.ended);
        strict_1.default.equal(s.events.length, 1);
        const err = String(s.events[0].error);
        strict_1.default.match(err, /change id 999 is ahead of this subscription, whose last change id is \d+/);
        strict_1.default.match(err, new RegExp(`re-read with GET /v1/subscriptions/${id} without from`));
        strict_1.default.doesNotMatch(err, /min change id|no longer kept/);
    });
    it('reports eoq.time in seconds rounded to microseconds', async () => {
        const { stream } = await (0, subscriptions_1.subscribe)(agent.http, 'SELECT id FROM users');
        const eoq = stream.events.find((e) => 'eoq' in e).eoq;
        strict_1.default.equal(Math.round(eoq.time * 1e6) / 1e6, eoq.time);
        stream.close();
        for (const [path, body] of [
            ['/v1/queries', '"SELECT 1"'],
            ['/v1/transactions', '["UPDATE users SET score = score WHERE id = 1"]'],
        ]) {
            const r = await (0, http_1.request)(agent.http, 'POST', path, body);
            for (const m of r.text.matchAll(/"time":([0-9.e-]+)/g))
                strict_1.default.match(m[1], /^\d+(\.\d{1,6})?$/, `${path}: ${r.text}`);
        }
    });
    it('ends the stream with an error naming the min change id when changes after from are no longer kept', async () => {
        const small = await (0, agent_1.startAgent)({
            schema: subscriptions_1.LIVE_SCHEMA,
            config: '[subscriptions]\nretain_changes = 3\nretain_seconds = 0\n',
        });
        try {
            const { stream, id } = await (0, subscriptions_1.subscribe)(small.http, 'SELECT id, score FROM users');
            for (let i = 0; i < 8; i++)
                await (0, subscriptions_1.write)(small.http, [[`INSERT INTO users VALUES (?, NULL, 1, 0)`, [i]]]);
            await (0, subscriptions_1.untilChange)(stream, 8);
            stream.close();
            let first = {};
            for (let i = 0; i < 40; i++) {
                const s = await (0, http_1.openStream)(small.http, 'GET', `/v1/subscriptions/${id}?from=1`);
                strict_1.default.equal(s.status, 200);
                first = (await s.count(1))[0];
                if ('error' in first) {
                    await s.until(() => s.ended);
                    strict_1.default.equal(s.events.length, 1);
                    s.close();
                    break;
                }
                s.close();
                await (0, subscriptions_1.sleep)(100);
            }
            strict_1.default.match(String(first.error), /no longer kept.*min change id: 6/);
            // Within what is kept, from still works.
            const ok = await (0, http_1.openStream)(small.http, 'GET', `/v1/subscriptions/${id}?from=5`);
            await (0, subscriptions_1.untilChange)(ok, 8);
            strict_1.default.deepEqual((0, subscriptions_1.changes)(ok.events).map((c) => c[3]), [6, 7, 8]);
            ok.close();
        }
        finally {
            await small.dispose();
        }
    });
    it('counts idle_seconds per subscription from when its last listener left; listening again starts it over', async () => {
        const idle = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA, config: '[subscriptions]\nidle_seconds = 2\n' });
        try {
            const kept = await (0, subscriptions_1.subscribe)(idle.http, 'SELECT id FROM users WHERE id > 0');
            const left = await (0, subscriptions_1.subscribe)(idle.http, 'SELECT id FROM users WHERE id > 1');
            const back = await (0, subscriptions_1.subscribe)(idle.http, 'SELECT id FROM users WHERE id > 2');
            left.stream.close();
            back.stream.close();
            await (0, subscriptions_1.sleep)(1000);
            // Listened to again before idle_seconds passed: its idle time starts over once this listener leaves.
            const again = await (0, http_1.openStream)(idle.http, 'GET', `/v1/subscriptions/${back.id}`);
            strict_1.default.equal(again.status, 200);
            await (0, subscriptions_1.sleep)(1500);
            again.close();
            // (Counted with /v1/health: a GET of a subscription would listen to it.)
            for (let i = 0; i < 60 && (await health(idle.http)).subscriptions > 2; i++)
                await (0, subscriptions_1.sleep)(100);
            strict_1.default.equal((await health(idle.http)).subscriptions, 2, 'the one left without a listener is removed');
            for (let i = 0; i < 60 && (await health(idle.http)).subscriptions > 1; i++)
                await (0, subscriptions_1.sleep)(100);
            strict_1.default.equal((await health(idle.http)).subscriptions, 1, 'the one listened to again is removed idle_seconds after its listener left');
            strict_1.default.equal(await statusOf(idle.http, `/v1/subscriptions/${left.id}`), 404);
            strict_1.default.equal(await statusOf(idle.http, `/v1/subscriptions/${back.id}`), 404);
            strict_1.default.equal(await statusOf(idle.http, `/v1/subscriptions/${kept.id}`), 200, 'listened to all along');
            kept.stream.close();
        }
        finally {
            await idle.dispose();
        }
    });
    it('removes a subscription nobody listened to for idle_seconds', async () => {
        const idle = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA, config: '[subscriptions]\nidle_seconds = 1\n' });
        try {
            const { stream, id } = await (0, subscriptions_1.subscribe)(idle.http, 'SELECT id FROM users');
            await (0, subscriptions_1.sleep)(1500);
            // Listened to all along: still there.
            strict_1.default.equal(await statusOf(idle.http, `/v1/subscriptions/${id}`), 200);
            stream.close();
            for (let i = 0; i < 60 && (await health(idle.http)).subscriptions > 0; i++)
                await (0, subscriptions_1.sleep)(100);
            strict_1.default.equal((await health(idle.http)).subscriptions, 0);
            strict_1.default.equal((await (0, http_1.request)(idle.http, 'GET', `/v1/subscriptions/${id}`)).status, 404);
        }
        finally {
            await idle.dispose();
        }
    });
});
//# sourceMappingURL=api.test.js.map