"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const fast_check_1 = __importDefault(require("fast-check"));
const agent_1 = require("../helpers/agent");
const subscriptions_1 = require("../helpers/subscriptions");
const http_1 = require("../helpers/http");
// Subscriptions of one SQL text with different parameters are evaluated together (one statement
// for all the woken ones, per changeset). Each must still get exactly its own changes: after every
// batch of random writes, each client's view equals a fresh run of its own query.
const teams = [1, 2, 3, 4, 5, '1', '2', null, 2.5];
const GROUPS = [
    // pinned by equality (woken by value), with integer, text, real and NULL parameters
    teams.map((t) => ['SELECT id, name, score FROM users WHERE team = ?', [t]]),
    // a bare * with an equality on a text column, integer parameters against text
    ['ann', 'bob', '1', 1, 2, null].map((n) => ['SELECT * FROM users WHERE name = ?', [n]]),
    // not pinnable: woken by every change of the table
    [0, 1, 2, 3, 4, 5, 6, '3', null].map((r) => ['SELECT id, team FROM users WHERE id % 7 = ?', [r]]),
    // ranges, two parameters
    [
        [0, 30],
        [20, 70],
        [50, 100],
        [60, 40],
        ['10', '90'],
        [null, 50],
    ].map((r) => ['SELECT id, score FROM users WHERE score BETWEEN ? AND ?', r]),
    // a parameter in the select list and in an OR
    [
        ['a', 50],
        ['b', 10],
        ['c', 90],
    ].map(([p, s]) => ["SELECT id, ? || coalesce(name, '-') FROM users WHERE name LIKE ? OR score > ?", [p, `${p}%`, s]]),
    // named parameters, used twice
    [
        { t: 1, s: 20 },
        { t: 2, s: 0 },
        { t: 3, s: 50 },
        { t: '1', s: '20' },
    ].map((p) => ['SELECT id, score FROM users WHERE (team = :t AND score > :s) OR id = :t', p]),
    // joins: a pinned occurrence, and each side changing
    ['red', 'blue', 'rose', 'x', null].map((title) => [
        'SELECT u.id, t.title FROM users u JOIN teams t ON t.id = u.team WHERE t.title = ?',
        [title],
    ]),
    [0, 3, 6, 9].map((w) => [
        'SELECT g.tag, u.name FROM tags g JOIN users u ON u.id = g.user_id WHERE g.weight > ?',
        [w],
    ]),
    ['a', 'b', 'c'].map((tag) => ['SELECT * FROM users u, tags g WHERE g.user_id = u.id AND g.tag = ?', [tag]]),
    // one by one (COLLATE): stays exact as well
    ['ANN', 'Bob'].map((n) => ['SELECT id FROM users WHERE name = ? COLLATE NOCASE', [n]]),
];
const name = fast_check_1.default.option(fast_check_1.default.constantFrom('ann', 'bob', 'cy', '1', 'abe', 'Bob'), { nil: null });
const team = fast_check_1.default.option(fast_check_1.default.oneof(fast_check_1.default.integer({ min: 1, max: 5 }), fast_check_1.default.constantFrom('2', 2.5)), { nil: null });
const op = fast_check_1.default.oneof(fast_check_1.default
    .record({ id: fast_check_1.default.integer({ min: 1, max: 20 }), name, team, score: fast_check_1.default.integer({ min: 0, max: 100 }) })
    .map((u) => [
    'INSERT INTO users (id, name, team, score) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, team = excluded.team, score = excluded.score',
    [u.id, u.name, u.team, u.score],
]), fast_check_1.default.integer({ min: 1, max: 20 }).map((id) => ['DELETE FROM users WHERE id = ?', [id]]), fast_check_1.default
    .record({ team: fast_check_1.default.integer({ min: 1, max: 5 }), d: fast_check_1.default.integer({ min: -30, max: 30 }) })
    .map((x) => ['UPDATE users SET score = score + ? WHERE team = ?', [x.d, x.team]]), fast_check_1.default.integer({ min: 1, max: 5 }).map((t) => ['UPDATE users SET team = ? WHERE id % 3 = 0', [t]]), fast_check_1.default
    .record({
    id: fast_check_1.default.integer({ min: 1, max: 5 }),
    title: fast_check_1.default.option(fast_check_1.default.constantFrom('red', 'rose', 'blue', 'x'), { nil: null }),
})
    .map((t) => [
    'INSERT INTO teams (id, title) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET title = excluded.title',
    [t.id, t.title],
]), fast_check_1.default.integer({ min: 1, max: 5 }).map((id) => ['DELETE FROM teams WHERE id = ?', [id]]), fast_check_1.default
    .record({
    user: fast_check_1.default.integer({ min: 1, max: 20 }),
    tag: fast_check_1.default.constantFrom('a', 'b', 'c'),
    weight: fast_check_1.default.integer({ min: 0, max: 12 }),
})
    .map((g) => [
    'INSERT INTO tags (user_id, tag, weight) VALUES (?, ?, ?) ON CONFLICT (user_id, tag) DO UPDATE SET weight = excluded.weight',
    [g.user, g.tag, g.weight],
]), fast_check_1.default
    .record({ user: fast_check_1.default.integer({ min: 1, max: 20 }), tag: fast_check_1.default.constantFrom('a', 'b', 'c') })
    .map((g) => ['DELETE FROM tags WHERE user_id = ? AND tag = ?', [g.user, g.tag]]));
async function health(base) {
    return (await (0, http_1.health)(base))
        .subscriptions;
}
const together = async (base) => (await health(base)).evaluated_together_total;
describe('same-SQL subscriptions with different parameters, evaluated together', function () {
    this.timeout(240000);
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA });
    });
    after(async () => agent.dispose());
    const count = GROUPS.reduce((n, g) => n + g.length, 0);
    it(`each of ${count} subscriptions in ${GROUPS.length} groups gets exactly its own changes (property)`, async () => {
        await (0, subscriptions_1.write)(agent.http, [
            "INSERT INTO teams VALUES (1, 'red'), (2, 'blue'), (3, 'rose')",
            "INSERT INTO users VALUES (1, 'ann', 1, 10), (2, 'bob', 2, 60), (3, NULL, 1, 35), (4, 'cy', NULL, 80), (5, '1', '2', 45)",
            "INSERT INTO tags VALUES (1, 'a', 4), (2, 'b', 5), (3, 'a', 2)",
        ]);
        const subs = [];
        for (const body of GROUPS.flat()) {
            const { stream } = await (0, subscriptions_1.subscribe)(agent.http, body);
            const view = new subscriptions_1.ResultMap();
            view.apply(stream.events);
            subs.push({ body, stream, view });
        }
        for (const s of subs)
            await (0, subscriptions_1.converge)(agent.http, s.body, s.stream, s.view);
        const before = await together(agent.http);
        await fast_check_1.default.assert(fast_check_1.default.asyncProperty(fast_check_1.default.array(fast_check_1.default.array(op, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 }), fast_check_1.default.boolean(), async (batches, atOnce) => {
            if (atOnce)
                await Promise.all(batches.map((b) => (0, subscriptions_1.write)(agent.http, b)));
            else
                for (const b of batches)
                    await (0, subscriptions_1.write)(agent.http, b);
            for (const s of subs)
                await (0, subscriptions_1.converge)(agent.http, s.body, s.stream, s.view);
        }), { numRuns: Number(process.env.PATINA_PROPERTY_RUNS ?? 30), endOnFailure: true });
        // The groups were evaluated together (the health counter), not one by one.
        strict_1.default.ok((await together(agent.http)) - before >= 100, 'evaluations done together');
    });
    it('1,000 subscriptions `id % 1000 = ?` and 1,000 `team = ?`: a write reaches exactly the right ones', async () => {
        const streams = [];
        const bodies = [];
        for (let r = 0; r < 1000; r++)
            bodies.push(['SELECT id, score FROM users WHERE id % 1000 = ?', [r]]);
        for (let t = 100; t < 1100; t++)
            bodies.push(['SELECT id, score FROM users WHERE team = ?', [t]]);
        await Promise.all(Array.from({ length: 8 }, async (_x, w) => {
            for (let i = w; i < bodies.length; i += 8) {
                const { stream } = await (0, subscriptions_1.subscribe)(agent.http, bodies[i]);
                streams[i] = stream;
            }
        }));
        const before = await together(agent.http);
        // 300 rows in three transactions: id 5000 + k, team 100 + k, so each row concerns one of each kind.
        for (let b = 0; b < 3; b++) {
            await (0, subscriptions_1.write)(agent.http, [
                [
                    'WITH RECURSIVE s(k) AS (SELECT ? UNION ALL SELECT k + 1 FROM s WHERE k < ?) INSERT INTO users (id, name, team, score) SELECT 5000 + k, NULL, 100 + k, k FROM s',
                    [b * 100, b * 100 + 99],
                ],
            ]);
        }
        await (0, subscriptions_1.write)(agent.http, [['UPDATE users SET score = score + 1 WHERE id >= 5000 AND id < 5010']]);
        for (let i = 0; i < 500 && (await health(agent.http)).queued_rows > 0; i++)
            await (0, subscriptions_1.sleep)(20);
        await (0, subscriptions_1.sleep)(200);
        for (let i = 0; i < bodies.length; i++) {
            const [sql, [p]] = bodies[i];
            const k = sql.includes('%')
                ? [...Array(300).keys()].filter((x) => (5000 + x) % 1000 === p)
                : p - 100 < 300
                    ? [p - 100]
                    : [];
            const want = k.length + k.filter((x) => x < 10).length; // an insert each, an update for the first ten
            const view = new subscriptions_1.ResultMap();
            if (want > 0)
                await streams[i].until((e) => e.filter((x) => 'change' in x).length >= want);
            view.apply(streams[i].events);
            strict_1.default.deepEqual(view.multiset(), await (0, subscriptions_1.queryMultiset)(agent.http, bodies[i]), JSON.stringify(bodies[i]));
            strict_1.default.equal(streams[i].events.filter((x) => 'change' in x).length, want, JSON.stringify(bodies[i]));
        }
        // both kinds are found by value now (`id % 1000 = ?` too): a row wakes one of each, and the woken
        // subscriptions of one SQL in a batch are evaluated together
        const evaluated = (await together(agent.http)) - before;
        strict_1.default.ok(evaluated >= 300 && evaluated < 2000, `${evaluated} subscriptions evaluated together`);
        for (const s of streams)
            s.close();
    });
});
//# sourceMappingURL=shared.test.js.map