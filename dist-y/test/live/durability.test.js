"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const subscriptions_1 = require("../helpers/subscriptions");
const JOIN = 'SELECT u.id, u.name, t.title FROM users u JOIN teams t ON t.id = u.team';
const AGG = 'SELECT team, count(*), sum(score) FROM users GROUP BY team';
/** How many subscriptions the agent re-ran at start-up (the rest were known to match the data). */
async function rerunAtStart(base) {
    const h = await (0, http_1.request)(base, 'GET', '/v1/health');
    return h.json.subscriptions.rerun_at_start;
}
/**
 * Resumes with GET ?from and applies the changes to `view` until it equals a fresh run of `sql`.
 * (How many change ids that takes depends on how the matcher batched the writes: two writes
 * handled in one batch may net out to one change of an aggregate row.)
 */
async function resume(base, id, view, sql) {
    const want = JSON.stringify(await (0, subscriptions_1.queryMultiset)(base, sql));
    const s = await (0, http_1.openStream)(base, 'GET', `/v1/subscriptions/${id}?from=${view.lastChange}`);
    strict_1.default.equal(s.status, 200);
    await s.until((events) => {
        view.apply(events);
        return JSON.stringify(view.multiset()) === want;
    });
    for (const e of s.events)
        strict_1.default.ok('change' in e, JSON.stringify(e));
    s.close();
}
/** The health's subscription counts: listening clients, and subscriptions behind until a listener attaches. */
async function liveCounts(base) {
    const h = await (0, http_1.request)(base, 'GET', '/v1/health');
    return h.json.subscriptions;
}
/** Subscribes, keeps the first result in a view, and leaves (once the agent counts no listener). */
async function subscribeAndLeave(base, body) {
    const sub = await (0, subscriptions_1.subscribe)(base, body);
    const view = new subscriptions_1.ResultMap();
    view.apply(sub.stream.events);
    sub.stream.close();
    for (let i = 0; i < 100 && (await liveCounts(base)).clients > 0; i++)
        await (0, subscriptions_1.sleep)(20);
    return { id: sub.id, view };
}
describe('subscriptions across restarts and crashes', function () {
    this.timeout(60000);
    let agent;
    beforeEach(async () => {
        agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA });
        await (0, subscriptions_1.write)(agent.http, [
            "INSERT INTO teams VALUES (1, 'red'), (2, 'blue')",
            "INSERT INTO users VALUES (1, 'ann', 1, 10)",
        ]);
    });
    afterEach(async () => agent.dispose());
    it('after a clean restart, from=N returns every change after N, including those made while no client listened', async () => {
        const join = await (0, subscriptions_1.subscribe)(agent.http, JOIN);
        const agg = await (0, subscriptions_1.subscribe)(agent.http, AGG);
        const views = [new subscriptions_1.ResultMap(), new subscriptions_1.ResultMap()];
        views[0].apply(join.stream.events);
        views[1].apply(agg.stream.events);
        await (0, subscriptions_1.write)(agent.http, ["INSERT INTO users VALUES (2, 'bob', 2, 20)"]);
        await (0, subscriptions_1.untilChange)(join.stream, 1);
        await (0, subscriptions_1.untilChange)(agg.stream, 1);
        views[0].apply(join.stream.events);
        views[1].apply(agg.stream.events);
        join.stream.close();
        agg.stream.close();
        // Nobody listens now.
        await (0, subscriptions_1.write)(agent.http, [
            "UPDATE teams SET title = 'navy' WHERE id = 2",
            "INSERT INTO users VALUES (3, 'cy', 1, 5)",
        ]);
        await (0, subscriptions_1.write)(agent.http, ['DELETE FROM users WHERE id = 1']);
        strict_1.default.equal(await agent.stop(), 0);
        await agent.start();
        strict_1.default.equal(await rerunAtStart(agent.http), 0, 'a clean stop leaves the store matching the data: nothing is re-run');
        await resume(agent.http, join.id, views[0], JOIN);
        strict_1.default.equal(views[0].lastChange, 4, 'bob updated, cy inserted, ann deleted: three changes after the first');
        await resume(agent.http, agg.id, views[1], AGG);
        // The same SQL finds the same subscription after the restart, and change ids go on.
        const again = await (0, subscriptions_1.subscribe)(agent.http, JOIN);
        strict_1.default.equal(again.id, join.id);
        await (0, subscriptions_1.write)(agent.http, ["INSERT INTO users VALUES (4, 'dee', 2, 1)"]);
        await (0, subscriptions_1.untilChange)(again.stream, views[0].lastChange + 1);
        again.stream.close();
    });
    it('a subscription nobody listens to is not kept up write by write: behind until a client comes back (after a clean restart or a SIGKILL too), which then gets every change', async () => {
        const body = ['SELECT id, name, score FROM users WHERE team = ?', [7]];
        const sub = await subscribeAndLeave(agent.http, body);
        const view = sub.view;
        const behind = () => liveCounts(agent.http);
        strict_1.default.equal((await behind()).behind_unlistened, 0);
        // 1,500 rows: more changed keys than a subscription without listener keeps (it is re-run in full)
        for (let w = 0; w < 3; w++) {
            const rows = Array.from({ length: 500 }, (_, i) => `(${1000 + w * 500 + i}, 'u${i}', 7, ${i})`);
            await (0, subscriptions_1.write)(agent.http, [`INSERT INTO users VALUES ${rows.join(', ')}`]);
        }
        await (0, subscriptions_1.write)(agent.http, ['UPDATE users SET score = -1 WHERE id = 1000', 'DELETE FROM users WHERE id = 1001']);
        await (0, subscriptions_1.write)(agent.http, ["INSERT INTO users VALUES (3000, 'other team', 8, 1)"]);
        for (let i = 0; i < 100 && (await behind()).behind_unlistened === 0; i++)
            await (0, subscriptions_1.sleep)(20);
        strict_1.default.equal((await behind()).behind_unlistened, 1);
        strict_1.default.equal(await agent.stop(), 0);
        await agent.start();
        strict_1.default.equal(await rerunAtStart(agent.http), 0, 'a clean stop: nothing re-run at start-up');
        strict_1.default.equal((await behind()).behind_unlistened, 1, 'still behind after the restart, until a client comes back');
        await resume(agent.http, sub.id, view, body);
        strict_1.default.equal(view.multiset().length, 1499);
        strict_1.default.equal((await behind()).behind_unlistened, 0);
        // A few changes (kept as keys), then a SIGKILL: the store's mark still says it is behind.
        await (0, subscriptions_1.write)(agent.http, ["INSERT INTO users VALUES (4000, 'late', 7, 1)", 'DELETE FROM users WHERE id = 1002']);
        for (let i = 0; i < 100 && (await behind()).behind_unlistened === 0; i++)
            await (0, subscriptions_1.sleep)(20);
        strict_1.default.equal((await behind()).behind_unlistened, 1);
        await agent.kill();
        await agent.start();
        await resume(agent.http, sub.id, view, body);
        strict_1.default.equal(view.multiset().length, 1499);
        strict_1.default.ok(view.multiset().includes('[4000,"late",1]'));
    });
    it('an aggregate nobody listens to is not re-run write by write: it is re-run once a client comes back, after a clean restart too', async () => {
        const sub = await subscribeAndLeave(agent.http, AGG);
        const view = sub.view;
        const behind = () => liveCounts(agent.http);
        for (let i = 0; i < 20; i++)
            await (0, subscriptions_1.write)(agent.http, [`INSERT INTO users VALUES (${100 + i}, 'u', ${1 + (i % 3)}, ${i})`]);
        for (let i = 0; i < 100 && (await behind()).behind_unlistened === 0; i++)
            await (0, subscriptions_1.sleep)(20);
        strict_1.default.equal((await behind()).behind_unlistened, 1);
        strict_1.default.equal(await agent.stop(), 0);
        await agent.start();
        strict_1.default.equal((await behind()).behind_unlistened, 1);
        await resume(agent.http, sub.id, view, AGG);
        strict_1.default.equal((await behind()).behind_unlistened, 0);
    });
    it('after a restart, pinned subscriptions (team = ?) still hear rows leaving them, thousands of rows each', async () => {
        // Their stored keys go back into the wake index at start-up, a page at a time: a row whose team
        // changes away wakes only the subscriptions that hold it, so they must be known.
        await (0, subscriptions_1.write)(agent.http, [
            [
                'WITH RECURSIVE s(k) AS (SELECT 100 UNION ALL SELECT k + 1 FROM s WHERE k < 5099) INSERT INTO users SELECT k, NULL, 3 + k % 2, k FROM s',
            ],
        ]);
        const three = await (0, subscriptions_1.subscribe)(agent.http, ['SELECT id, score FROM users WHERE team = ?', [3]]);
        const four = await (0, subscriptions_1.subscribe)(agent.http, ['SELECT id, score FROM users WHERE team = ?', [4]]);
        const views = [new subscriptions_1.ResultMap(), new subscriptions_1.ResultMap()];
        views[0].apply(three.stream.events);
        views[1].apply(four.stream.events);
        strict_1.default.equal(views[0].rows.size, 2500);
        three.stream.close();
        four.stream.close();
        strict_1.default.equal(await agent.stop(), 0);
        await agent.start();
        await (0, subscriptions_1.write)(agent.http, [
            'UPDATE users SET team = 9 WHERE id % 10 IN (1, 2)',
            'UPDATE users SET score = -1 WHERE id = 4999',
        ]);
        await resume(agent.http, three.id, views[0], 'SELECT id, score FROM users WHERE team = 3');
        await resume(agent.http, four.id, views[1], 'SELECT id, score FROM users WHERE team = 4');
        strict_1.default.equal(views[0].rows.size, 2000);
        strict_1.default.equal(views[1].rows.size, 2000);
    });
    it('after SIGKILL right after commits, from=N returns every committed change', async () => {
        const join = await (0, subscriptions_1.subscribe)(agent.http, JOIN);
        const view = new subscriptions_1.ResultMap();
        view.apply(join.stream.events);
        join.stream.close();
        for (let i = 10; i < 40; i++)
            await (0, subscriptions_1.write)(agent.http, [[`INSERT INTO users VALUES (?, ?, ?, ?)`, [i, `u${i}`, (i % 2) + 1, i]]]);
        await (0, subscriptions_1.write)(agent.http, [
            "UPDATE users SET name = name || '!' WHERE id % 3 = 0",
            'DELETE FROM users WHERE id % 5 = 0',
        ]);
        await agent.kill();
        await agent.start();
        const s = await (0, http_1.openStream)(agent.http, 'GET', `/v1/subscriptions/${join.id}?from=0`);
        const expected = await (0, subscriptions_1.queryMultiset)(agent.http, JOIN);
        await (0, subscriptions_1.settle)(s);
        view.apply(s.events);
        strict_1.default.deepEqual(view.multiset(), expected);
        s.close();
    });
    it('after SIGKILL, a client resumes from the last change it was sent, and a subscription nobody listened to from its own', async () => {
        const heard = ['SELECT id, name FROM users WHERE team = ?', [1]];
        const quiet = ['SELECT id, name FROM users WHERE team = ?', [2]];
        const h = await (0, subscriptions_1.subscribe)(agent.http, heard);
        const q = await (0, subscriptions_1.subscribe)(agent.http, quiet);
        const views = [new subscriptions_1.ResultMap(), new subscriptions_1.ResultMap()];
        views[0].apply(h.stream.events);
        views[1].apply(q.stream.events);
        q.stream.close();
        // Each write changes both; the client of the first is sent its change before the next write.
        for (let i = 10; i < 30; i++) {
            const statements = [
                ['INSERT INTO users VALUES (?, ?, 1, 0), (?, ?, 2, 0)', [i, `h${i}`, 100 + i, `q${i}`]],
            ];
            if (i % 3 === 0)
                statements.push(["UPDATE users SET name = name || '!' WHERE id IN (?, ?)", [i - 1, 99 + i]]);
            await (0, subscriptions_1.write)(agent.http, statements);
            await (0, subscriptions_1.untilChange)(h.stream, views[0].lastChange + 1);
            views[0].apply(h.stream.events);
        }
        await agent.kill();
        await agent.start();
        await resume(agent.http, h.id, views[0], 'SELECT id, name FROM users WHERE team = 1');
        await resume(agent.http, q.id, views[1], 'SELECT id, name FROM users WHERE team = 2');
        strict_1.default.equal(views[1].rows.size, 20);
        // Both go on with the next change id.
        const again = await (0, http_1.openStream)(agent.http, 'GET', `/v1/subscriptions/${h.id}?from=${views[0].lastChange}`);
        await (0, subscriptions_1.write)(agent.http, ["INSERT INTO users VALUES (99, 'last', 1, 0)"]);
        await (0, subscriptions_1.untilChange)(again, views[0].lastChange + 1);
        views[0].apply(again.events);
        strict_1.default.equal(views[0].rows.size, 22, 'ann, twenty and the last');
        again.close();
    });
    it('a change a client was sent is in the store: a resume from just before it gets it at once, and so does one after a SIGKILL right then', async () => {
        const sql = 'SELECT id, name FROM users';
        const sub = await (0, subscriptions_1.subscribe)(agent.http, sql);
        // Writes back to back from 8 clients (the matcher batches them), resumes while they go on: a
        // change is sent only once the store has logged it (whichever thread writes the store).
        let next = 100;
        const writing = Promise.all(Array.from({ length: 8 }, async () => {
            while (next < 400) {
                const i = next++;
                await (0, subscriptions_1.write)(agent.http, [[`INSERT INTO users VALUES (?, ?, 1, 0)`, [i, `w${i}`]]]);
            }
        }));
        const resumed = [];
        for (let seen = 0; seen < 300;) {
            await (0, subscriptions_1.untilChange)(sub.stream, seen + 1);
            const got = (0, subscriptions_1.changes)(sub.stream.events);
            const last = got[got.length - 1];
            seen = last[3];
            if (resumed.length >= 40)
                continue;
            // at once, while writes go on: the store has every change the client was sent
            const r = await (0, http_1.openStream)(agent.http, 'GET', `/v1/subscriptions/${sub.id}?from=${seen - 1}`);
            await (0, subscriptions_1.untilChange)(r, seen);
            strict_1.default.deepEqual((0, subscriptions_1.changes)(r.events)[0], last);
            r.close();
            resumed.push(seen);
        }
        await writing;
        const sent = (0, subscriptions_1.changes)(sub.stream.events);
        strict_1.default.equal(sent.length, 300);
        await agent.kill();
        await agent.start();
        const s = await (0, http_1.openStream)(agent.http, 'GET', `/v1/subscriptions/${sub.id}?from=0`);
        await (0, subscriptions_1.untilChange)(s, 300);
        strict_1.default.deepEqual((0, subscriptions_1.changes)(s.events).slice(0, 300), sent);
        s.close();
        strict_1.default.ok(resumed.length >= 5, `resumed ${resumed.length} times`);
    });
    it('at start-up, turns commits whose changes never reached the log into new changes', async () => {
        const sql = 'SELECT id, name FROM users WHERE team = 1';
        const sub = await (0, subscriptions_1.subscribe)(agent.http, sql);
        await (0, subscriptions_1.write)(agent.http, ["INSERT INTO users VALUES (7, 'gil', 1, 0)"]);
        await (0, subscriptions_1.untilChange)(sub.stream, 1);
        sub.stream.close();
        strict_1.default.equal(await agent.stop(), 0);
        // Make the store look as if the agent died between the data commit and the log write.
        const store = new better_sqlite3_1.default(`${agent.dbPath}.subscriptions`);
        const lost = store.prepare('SELECT row_id FROM changes WHERE change_id = 1').pluck().get();
        store.prepare('DELETE FROM changes WHERE change_id = 1').run();
        store.prepare('DELETE FROM rows WHERE row_id = ?').run(lost);
        store.prepare('UPDATE subscriptions SET last_change = 0').run();
        // ... and as if it had not caught up with the data's last commit.
        store.prepare("DELETE FROM state WHERE key = 'matched'").run();
        store.close();
        await agent.start();
        strict_1.default.equal(await rerunAtStart(agent.http), 1);
        const s = await (0, http_1.openStream)(agent.http, 'GET', `/v1/subscriptions/${sub.id}?from=0`);
        await (0, subscriptions_1.untilChange)(s, 1);
        strict_1.default.deepEqual((0, subscriptions_1.changes)(s.events).map((c) => [c[0], c[2], c[3]]), [['insert', [7, 'gil'], 1]]);
        s.close();
    });
});
//# sourceMappingURL=durability.test.js.map