"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const agent_1 = require("../helpers/agent");
const pg_1 = require("../helpers/pg");
const subscriptions_1 = require("../helpers/subscriptions");
// A committed change carries its row's values only for tables a live query reads (or one being made
// will): the agent does not read rows back for nobody (ChangeCapture.rowsWanted). So the first
// subscriptions of a table, made while writes to it go on from both front ends, must still see every
// change after their snapshot, found by value (`team = ?`), by key, or by every change of the table.
const QUERIES = [
    ...[1, 2, 3].map((t) => ['SELECT id, score FROM users WHERE team = ?', [t]]),
    ['SELECT id, team FROM users WHERE id % 5 = ?', [2]],
    ['SELECT id, score FROM users WHERE id = ?', [7]],
    ['SELECT count(*), sum(score) FROM users', []],
    ["SELECT * FROM tags WHERE tag = 'a'", []],
];
describe('subscriptions made while their tables are written', function () {
    this.timeout(120000);
    let agent;
    const clients = [];
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: subscriptions_1.LIVE_SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
        for (let i = 0; i < 2; i++) {
            const c = (0, pg_1.pgClient)(agent.pg.port);
            await c.connect();
            clients.push(c);
        }
    });
    after(async () => {
        for (const c of clients)
            await c.end();
        await agent.dispose();
    });
    it('each of the first subscriptions of a table, made one by one during writes over HTTP and PG blocks, equals a fresh query', async () => {
        let stop = false;
        let written = 0;
        const rnd = (n) => Math.floor(Math.random() * n);
        const http = (async () => {
            while (!stop) {
                const id = 1 + rnd(20);
                await (0, subscriptions_1.write)(agent.http, [
                    [
                        'INSERT INTO users (id, name, team, score) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET team = excluded.team, score = excluded.score',
                        [id, 'u', 1 + rnd(3), rnd(100)],
                    ],
                    ...(rnd(4) === 0 ? [['DELETE FROM users WHERE id = ?', [1 + rnd(20)]]] : []),
                ]);
                written++;
            }
        })();
        // PG blocks, two at once: they share the held transaction and commit together
        const blocks = clients.map(async (c) => {
            while (!stop) {
                try {
                    await c.query('BEGIN');
                    await c.query('UPDATE users SET score = score + 1 WHERE id = $1', [1 + rnd(20)]);
                    await c.query('INSERT INTO tags (user_id, tag, weight) VALUES ($1, $2, $3) ON CONFLICT (user_id, tag) DO UPDATE SET weight = excluded.weight', [1 + rnd(20), ['a', 'b'][rnd(2)], rnd(10)]);
                    await c.query('COMMIT');
                    written++;
                }
                catch (err) {
                    // two blocks on the same row: one is refused as PostgreSQL's SERIALIZABLE would, and retried
                    if (err.code !== '40001')
                        throw err;
                    await c.query('ROLLBACK');
                }
            }
        });
        const subs = [];
        try {
            for (const body of QUERIES) {
                await (0, subscriptions_1.sleep)(60 + rnd(60)); // writes go on between the subscriptions' snapshots
                const { stream } = await (0, subscriptions_1.subscribe)(agent.http, body);
                subs.push({ body, stream, view: new subscriptions_1.ResultMap() });
            }
            await (0, subscriptions_1.sleep)(300);
        }
        finally {
            stop = true;
            await Promise.all([http, ...blocks]);
        }
        for (const s of subs)
            await (0, subscriptions_1.converge)(agent.http, s.body, s.stream, s.view);
        for (const s of subs)
            s.stream.close();
        if (written < 20)
            throw new Error(`only ${written} transactions were written during the subscriptions`);
    });
    it('rows asked for after an acknowledged write include it, for subscriptions nobody listened to meanwhile (read your writes)', async () => {
        // a restricted one (its changed keys wait), an aggregate and a keyed one (re-run when asked)
        const bodies = [
            ['SELECT id, score FROM users WHERE team = ?', [9]],
            ['SELECT count(*), sum(score) FROM users WHERE team = 9', []],
            ['SELECT u.id, u.score, t.title FROM users u JOIN teams t ON t.id = u.team WHERE u.team = 9', []],
        ];
        await (0, subscriptions_1.write)(agent.http, [["INSERT INTO teams (id, title) VALUES (9, 'nine') ON CONFLICT (id) DO NOTHING"]]);
        for (const body of bodies)
            (await (0, subscriptions_1.subscribe)(agent.http, body)).stream.close();
        await (0, subscriptions_1.sleep)(100);
        for (let round = 0; round < 15; round++) {
            await (0, subscriptions_1.write)(agent.http, [
                [
                    'INSERT INTO users (id, name, team, score) VALUES (?, ?, 9, ?) ON CONFLICT (id) DO UPDATE SET score = excluded.score',
                    [900 + (round % 4), 'n', round],
                ],
            ]);
            const body = bodies[round % bodies.length];
            const { stream } = await (0, subscriptions_1.subscribe)(agent.http, body);
            const view = new subscriptions_1.ResultMap();
            view.apply(stream.events);
            // the rows before eoq are those of a fresh query: nothing acknowledged before comes as a change
            strict_1.default.deepEqual(view.multiset(), await (0, subscriptions_1.queryMultiset)(agent.http, body), `round ${round}: ${body[0]}`);
            stream.close();
        }
    });
});
//# sourceMappingURL=made-while-writing.test.js.map