"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const fast_check_1 = __importDefault(require("fast-check"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const subscriptions_1 = require("../helpers/subscriptions");
/** Queries of every kind a subscription must follow exactly. */
const CORPUS = [
    'SELECT * FROM users',
    'SELECT id, name FROM users WHERE score > 50',
    ['SELECT id, score FROM users WHERE team = ?', [1]],
    ['SELECT name FROM users WHERE score BETWEEN ? AND ?', [20, 70]],
    ['SELECT id FROM users WHERE score > :min', { ':min': 40 }],
    "SELECT tag, user_id FROM tags WHERE tag IN ('a', 'c')",
    ['SELECT id, name, team FROM users WHERE team IN (?, ?) AND score > ?', [1, 2, 10]],
    ['SELECT id FROM users WHERE id % 4 IN (?, 3)', [1]],
    'SELECT * FROM tags WHERE weight > 3',
    'SELECT id * 2 + 1, upper(name), coalesce(team, -1), score / 3.0 FROM users',
    "SELECT id, CASE WHEN score > 50 THEN 'hi' ELSE 'lo' END FROM users WHERE name IS NOT NULL",
    // joins
    'SELECT u.id, t.title FROM users u JOIN teams t ON t.id = u.team',
    "SELECT u.name, t.title FROM users u, teams t WHERE u.team = t.id AND t.title <> 'x'",
    'SELECT * FROM users u JOIN teams t ON t.id = u.team',
    'SELECT u.name, t.title, g.tag FROM users u JOIN teams t ON t.id = u.team JOIN tags g ON g.user_id = u.id',
    'SELECT g.tag, u.name FROM tags g JOIN users u ON u.id = g.user_id WHERE g.weight % 2 = 0',
    ['SELECT u.id FROM users u JOIN tags g ON g.user_id = u.id WHERE g.tag = ?', ['b']],
    'SELECT a.id, b.id FROM users a JOIN users b ON a.team = b.team AND a.id < b.id',
    'SELECT a.id, b.name FROM users a JOIN users b ON b.id = a.score % 12',
    'SELECT u.id, t.title FROM users u LEFT JOIN teams t ON t.id = u.team',
    'SELECT t.id, u.id FROM teams t LEFT JOIN users u ON u.team = t.id',
    // subqueries
    "SELECT id FROM users WHERE team IN (SELECT id FROM teams WHERE title LIKE 'r%')",
    'SELECT id, (SELECT count(*) FROM tags WHERE user_id = users.id) FROM users',
    "SELECT id FROM users u WHERE EXISTS (SELECT 1 FROM tags g WHERE g.user_id = u.id AND g.tag = 'a')",
    'SELECT id FROM users WHERE id NOT IN (SELECT user_id FROM tags)',
    'SELECT * FROM (SELECT id, score FROM users) WHERE score > 10',
    // CTEs
    'WITH big AS (SELECT * FROM users WHERE score > 30) SELECT b.id, t.title FROM big b JOIN teams t ON t.id = b.team',
    'WITH c AS (SELECT team, count(*) AS n FROM users GROUP BY team) SELECT * FROM c WHERE n > 1',
    // aggregates
    'SELECT count(*) FROM users',
    'SELECT max(score) FROM users',
    'SELECT team, count(*), sum(score), max(name) FROM users GROUP BY team',
    'SELECT team, avg(score) FROM users GROUP BY team HAVING count(*) >= 2',
    'SELECT t.title, count(u.id) FROM teams t LEFT JOIN users u ON u.team = t.id GROUP BY t.id',
    // DISTINCT, LIMIT, compound, window
    'SELECT DISTINCT team FROM users',
    'SELECT DISTINCT g.tag FROM tags g JOIN users u ON u.id = g.user_id',
    'SELECT id, score FROM users ORDER BY score DESC, id LIMIT 3',
    'SELECT id FROM users ORDER BY id LIMIT 2 OFFSET 2',
    'SELECT id FROM users WHERE team = 1 UNION SELECT user_id FROM tags',
    'SELECT name FROM users UNION ALL SELECT title FROM teams',
    'SELECT id, row_number() OVER (ORDER BY score, id) FROM users',
    // `col = value` conditions: the matcher wakes these only for rows whose new value matches or that
    // they hold now; the same SQL with other parameters; values whose type the column converts
    ['SELECT id, team FROM users WHERE team = ?', [2]],
    ['SELECT id, team FROM users WHERE team = ?', [5]],
    ['SELECT id, score FROM users WHERE score = ?', [50]],
    ['SELECT * FROM users WHERE name = ? AND score > 10', ['bob']],
    'SELECT id, name FROM users WHERE team = 3',
    ['SELECT id FROM users WHERE team = ?', ['1']],
    ['SELECT u.id, t.title FROM users u JOIN teams t ON t.id = u.team WHERE u.team = ?', [1]],
    ['SELECT t.title, u.name FROM teams t JOIN users u ON u.team = t.id WHERE t.id = :t', { ':t': 2 }],
    ['SELECT user_id, weight FROM tags WHERE tag = ? AND weight > ?', ['a', 2]],
    // `expression of the row = value`: woken only for rows whose expression gives the value (or that
    // they hold); text against an integer expression never equals, NULL never equals
    ['SELECT id, score FROM users WHERE id % 4 = ?', [1]],
    ['SELECT id, score FROM users WHERE id % 4 = ?', [3]],
    ['SELECT id FROM users WHERE lower(name) = ?', ['bob']],
    ["SELECT id, team FROM users WHERE name || '-' || team = ?", ['ann-1']],
    ['SELECT id FROM users WHERE score + 0 = ?', [50]],
    ['SELECT id FROM users WHERE abs(score - 50) = ? AND team = ?', [10, 2]],
    ['SELECT id FROM users WHERE id % 4 = ?', ['1']],
    ['SELECT user_id, tag FROM tags WHERE weight * 2 = ?', [8]],
    // REGEXP (a read-connection function) in a restricted and in a multiset plan
    "SELECT id, name FROM users WHERE name REGEXP '^[ab]'",
    "SELECT count(*) FROM users WHERE name REGEXP 'e'",
];
const name = fast_check_1.default.option(fast_check_1.default.constantFrom('ann', 'bob', 'cy', 'dee'), { nil: null });
const op = fast_check_1.default.oneof(fast_check_1.default
    .record({
    id: fast_check_1.default.integer({ min: 1, max: 12 }),
    name,
    team: fast_check_1.default.option(fast_check_1.default.integer({ min: 1, max: 5 }), { nil: null }),
    score: fast_check_1.default.integer({ min: 0, max: 100 }),
})
    .map((u) => [
    'INSERT INTO users (id, name, team, score) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, team = excluded.team, score = excluded.score',
    [u.id, u.name, u.team, u.score],
]), fast_check_1.default.integer({ min: 1, max: 12 }).map((id) => ['DELETE FROM users WHERE id = ?', [id]]), fast_check_1.default
    .record({ team: fast_check_1.default.integer({ min: 1, max: 5 }), d: fast_check_1.default.integer({ min: -20, max: 20 }) })
    .map((x) => ['UPDATE users SET score = score + ? WHERE team = ?', [x.d, x.team]]), fast_check_1.default
    .record({ id: fast_check_1.default.integer({ min: 1, max: 4 }), title: fast_check_1.default.constantFrom('red', 'rose', 'blue', 'x') })
    .map((t) => [
    'INSERT INTO teams (id, title) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET title = excluded.title',
    [t.id, t.title],
]), fast_check_1.default.integer({ min: 1, max: 4 }).map((id) => ['DELETE FROM teams WHERE id = ?', [id]]), fast_check_1.default
    .record({
    user: fast_check_1.default.integer({ min: 1, max: 12 }),
    tag: fast_check_1.default.constantFrom('a', 'b', 'c'),
    weight: fast_check_1.default.integer({ min: 0, max: 9 }),
})
    .map((g) => [
    'INSERT INTO tags (user_id, tag, weight) VALUES (?, ?, ?) ON CONFLICT (user_id, tag) DO UPDATE SET weight = excluded.weight',
    [g.user, g.tag, g.weight],
]), fast_check_1.default
    .record({ user: fast_check_1.default.integer({ min: 1, max: 12 }), tag: fast_check_1.default.constantFrom('a', 'b', 'c') })
    .map((g) => ['DELETE FROM tags WHERE user_id = ? AND tag = ?', [g.user, g.tag]]));
const batch = fast_check_1.default.array(op, { minLength: 1, maxLength: 6 });
describe('subscriptions stay exact under random writes (property)', function () {
    this.timeout(240000);
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA });
    });
    after(async () => agent.dispose());
    it(`a client-side rowid map of each of ${CORPUS.length} queries equals a fresh query after every batch, also of those nobody listened to meanwhile (resumed with from)`, async () => {
        strict_1.default.ok(CORPUS.length >= 30);
        await (0, subscriptions_1.write)(agent.http, [
            "INSERT INTO teams VALUES (1, 'red'), (2, 'blue'), (3, 'rose')",
            "INSERT INTO users VALUES (1, 'ann', 1, 10), (2, 'bob', 2, 60), (3, NULL, 1, 35), (4, 'cy', NULL, 80)",
            "INSERT INTO tags VALUES (1, 'a', 4), (2, 'b', 5), (3, 'a', 2)",
        ]);
        const subs = [];
        for (const body of CORPUS) {
            const { stream, id } = await (0, subscriptions_1.subscribe)(agent.http, body);
            const view = new subscriptions_1.ResultMap();
            view.apply(stream.events);
            subs.push({ body, id, stream, view });
        }
        for (const s of subs)
            await (0, subscriptions_1.converge)(agent.http, s.body, s.stream, s.view);
        await fast_check_1.default.assert(fast_check_1.default.asyncProperty(fast_check_1.default.array(batch, { minLength: 1, maxLength: 6 }), fast_check_1.default.boolean(), fast_check_1.default.array(fast_check_1.default.boolean(), { minLength: CORPUS.length, maxLength: CORPUS.length }), async (batches, together, away) => {
            // Those away have no listener while the batches are written (their changes may be matched
            // later, with other batches); they come back with GET ?from= their last change.
            const gone = subs.filter((_s, i) => away[i]);
            for (const s of gone)
                s.stream.close();
            const back = async () => {
                for (const s of gone) {
                    s.stream = await (0, http_1.openStream)(agent.http, 'GET', `/v1/subscriptions/${s.id}?from=${s.view.lastChange}`);
                    strict_1.default.equal(s.stream.status, 200);
                }
            };
            if (together) {
                // Transactions in flight at once: the matcher handles what queued up as one batch.
                await Promise.all(batches.map((b) => (0, subscriptions_1.write)(agent.http, b)));
                await back();
                for (const s of subs)
                    await (0, subscriptions_1.converge)(agent.http, s.body, s.stream, s.view);
                return;
            }
            for (const [k, b] of batches.entries()) {
                await (0, subscriptions_1.write)(agent.http, b);
                if (k === batches.length - 1)
                    await back();
                for (const s of subs)
                    if (!gone.includes(s) || k === batches.length - 1)
                        await (0, subscriptions_1.converge)(agent.http, s.body, s.stream, s.view);
            }
        }), { numRuns: Number(process.env.PATINA_PROPERTY_RUNS ?? 30), endOnFailure: true });
        for (const s of subs) {
            strict_1.default.equal(s.stream.ended, false);
            s.stream.close();
        }
    });
});
//# sourceMappingURL=property.test.js.map