"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
const cluster_1 = require("../helpers/cluster");
const SCHEMA = `
CREATE TABLE todos (id INTEGER NOT NULL PRIMARY KEY, title TEXT NOT NULL DEFAULT '');
CREATE TABLE tagged (k TEXT NOT NULL PRIMARY KEY, v TEXT);
CREATE TABLE auto (id BIGINT NOT NULL PRIMARY KEY DEFAULT (patina_id()), title TEXT);
CREATE TABLE src (n INTEGER NOT NULL PRIMARY KEY, title TEXT);
`;
const KEY_RULE = /the key must be chosen by the writer/;
function write(agent, statements) {
    return (0, http_1.postJson)(agent.http, '/v1/transactions', statements);
}
function refusal(res) {
    strict_1.default.equal(res.status, 400, res.text);
    const err = res.json.results.find((r) => r.error)?.error;
    strict_1.default.ok(err, res.text);
    return err;
}
async function count(agent, table) {
    const r = await (0, cluster_1.rows)(agent.http, `SELECT count(*) FROM ${table}`);
    return Number(r[0][0]);
}
describe('keys no other agent can pick (the key rule)', () => {
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
        const r = await write(agent, ["INSERT INTO src (n, title) VALUES (1, 'a'), (2, 'b')"]);
        strict_1.default.equal(r.status, 200, r.text);
    });
    after(async () => agent.dispose());
    const refused = [
        ['a missing INTEGER PRIMARY KEY', "INSERT INTO todos (title) VALUES ('x')"],
        ['an explicit NULL key', "INSERT INTO todos (id, title) VALUES (NULL, 'x')"],
        ['INSERT ... SELECT without the key', 'INSERT INTO todos (title) SELECT title FROM src'],
        [
            'an upsert without the key',
            "INSERT INTO todos (title) VALUES ('x') ON CONFLICT (id) DO UPDATE SET title = excluded.title",
        ],
        ['INSERT OR REPLACE without the key', "INSERT OR REPLACE INTO todos (title) VALUES ('x')"],
        ['DEFAULT VALUES', 'INSERT INTO todos DEFAULT VALUES'],
    ];
    for (const [what, sql] of refused) {
        it(`refuses ${what} over HTTP, naming the table and column, and writes nothing`, async () => {
            const before = await count(agent, 'todos');
            const err = refusal(await write(agent, [sql]));
            strict_1.default.match(err, KEY_RULE);
            strict_1.default.match(err, /^statement 1: table todos: primary key column id was not given a value/);
            strict_1.default.match(err, /patina_id\(\)/);
            strict_1.default.equal(await count(agent, 'todos'), before);
        });
    }
    it('other key columns are NOT NULL (the schema requires it), so a missing or NULL text key is refused by SQLite', async () => {
        for (const sql of ["INSERT INTO tagged (k, v) VALUES (NULL, 'x')", "INSERT INTO tagged (v) VALUES ('x')"]) {
            strict_1.default.match(refusal(await write(agent, [sql])), /NOT NULL constraint failed: tagged\.k/);
        }
        strict_1.default.equal(await count(agent, 'tagged'), 0);
    });
    it('rolls back the whole transaction when one statement relies on SQLite for a key', async () => {
        const res = await write(agent, [
            "INSERT INTO todos (id, title) VALUES (100, 'first')",
            "INSERT INTO todos (title) VALUES ('second')",
        ]);
        strict_1.default.match(refusal(res), /^statement 2: table todos/);
        strict_1.default.deepEqual(await (0, cluster_1.rows)(agent.http, 'SELECT id FROM todos WHERE id = 100'), []);
    });
    it('accepts keys the writer chose, -1 included, and patina_id() in VALUES, INSERT ... SELECT and a DEFAULT', async () => {
        const r = await write(agent, [
            "INSERT INTO todos (id, title) VALUES (-1, 'minus one')",
            "INSERT INTO todos (id, title) VALUES (patina_id(), 'made here')",
            'INSERT INTO todos (id, title) SELECT patina_id(), title FROM src',
            "INSERT INTO auto (title) VALUES ('by default'), ('twice')",
            "INSERT INTO tagged (k, v) VALUES ('k1', 'text key')",
        ]);
        strict_1.default.equal(r.status, 200, r.text);
        const ids = (await (0, cluster_1.rows)(agent.http, 'SELECT id FROM todos WHERE id <> -1 UNION ALL SELECT id FROM auto')).map((x) => BigInt(x[0]));
        strict_1.default.equal(ids.length, 5);
        strict_1.default.equal(new Set(ids.map(String)).size, 5, 'every patina_id() differs');
        const tag = ids[0] >> 40n;
        for (const id of ids) {
            strict_1.default.ok(id > 0n && id < 1n << 63n, `${id} is a positive 63-bit integer`);
            strict_1.default.equal(id >> 40n, tag, 'the same agent tag above a 40-bit counter');
        }
        strict_1.default.deepEqual(await (0, cluster_1.rows)(agent.http, 'SELECT title FROM todos WHERE id = -1'), [['minus one']]);
    });
    it('gives the new key back over HTTP with RETURNING, exact as a 64-bit integer', async () => {
        const r = await write(agent, [
            "INSERT INTO todos (id, title) VALUES (patina_id(), 'returned') RETURNING id, title",
        ]);
        strict_1.default.equal(r.status, 200, r.text);
        const res = r.json.results[0];
        strict_1.default.deepEqual(res.columns, ['id', 'title']);
        // Ids are above 2^53 unless the tag is under 2^13; either way the digits are exact.
        strict_1.default.ok(typeof res.rows[0][0] === 'bigint' || Number.isSafeInteger(res.rows[0][0]), String(res.rows[0][0]));
        strict_1.default.deepEqual(await (0, cluster_1.rows)(agent.http, `SELECT title FROM todos WHERE id = ${res.rows[0][0]}`), [['returned']]);
    });
    it('patina_id() in a read is refused with a sentence saying where it works', async () => {
        const r = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT patina_id()');
        strict_1.default.equal(r.status, 400, r.text);
        strict_1.default.match(r.json.error, /patina_id\(\) makes a key only in a write/);
    });
    it('keeps handing out new ids after a restart (the high-water mark is stored with the data)', async () => {
        await write(agent, ["INSERT INTO auto (title) VALUES ('before restart')"]);
        const before = (await (0, cluster_1.rows)(agent.http, 'SELECT max(id) FROM auto'))[0][0];
        await agent.kill();
        await agent.start();
        const r = await write(agent, ["INSERT INTO auto (title) VALUES ('after restart')"]);
        strict_1.default.equal(r.status, 200, r.text);
        const after = (await (0, cluster_1.rows)(agent.http, "SELECT id FROM auto WHERE title = 'after restart'"))[0][0];
        strict_1.default.ok(BigInt(after) > BigInt(before), `${after} > ${before}`);
    });
    describe('over the PostgreSQL port', () => {
        let pg;
        before(async () => {
            pg = (0, pg_1.pgClient)((0, pg_1.pgListeners)(agent)[0].port);
            await pg.connect();
        });
        after(async () => pg.end());
        it('refuses a NULL or missing key with SQLSTATE 23502 and the same sentence; the session goes on', async () => {
            for (const sql of ['INSERT INTO todos (id, title) VALUES (NULL, $1)', 'INSERT INTO todos (title) VALUES ($1)']) {
                await strict_1.default.rejects(pg.query(sql, ['pg']), (err) => {
                    strict_1.default.equal(err.code, '23502');
                    strict_1.default.match(err.message, KEY_RULE);
                    return true;
                });
            }
            const r = await pg.query('INSERT INTO todos (id, title) VALUES (patina_id(), $1) RETURNING id', ['pg']);
            strict_1.default.equal(r.rows.length, 1);
            strict_1.default.ok(BigInt(r.rows[0].id) > 0n);
        });
        it('refuses it inside a transaction block, which then rolls back as a whole', async () => {
            await pg.query('BEGIN');
            await pg.query("INSERT INTO todos (id, title) VALUES (7000, 'in block')");
            await strict_1.default.rejects(pg.query("INSERT INTO todos (title) VALUES ('no key')"), /the key must be chosen/);
            await pg.query('ROLLBACK');
            strict_1.default.deepEqual((await pg.query('SELECT id FROM todos WHERE id = 7000')).rows, []);
        });
    });
});
describe('two agents writing new rows at once', function () {
    this.timeout(120_000);
    let cluster;
    before(async () => {
        cluster = await cluster_1.TestCluster.start(2, { schema: SCHEMA });
    });
    after(async () => cluster?.dispose());
    it('refuses both writes that leave the key to SQLite, and keeps both rows keyed by patina_id() everywhere', async () => {
        const [a, b] = cluster.nodes;
        const post = (n, sql) => (0, http_1.request)(n.http, 'POST', '/v1/transactions', JSON.stringify([sql]));
        const auto = await Promise.all([
            post(a, "INSERT INTO todos (title) VALUES ('from A')"),
            post(b, "INSERT INTO todos (title) VALUES ('from B')"),
        ]);
        for (const r of auto)
            strict_1.default.equal(r.status, 400, r.text);
        const keyed = await Promise.all([
            post(a, "INSERT INTO todos (id, title) VALUES (patina_id(), 'from A')"),
            post(b, "INSERT INTO todos (id, title) VALUES (patina_id(), 'from B')"),
            post(a, "INSERT INTO auto (title) VALUES ('default A')"),
            post(b, "INSERT INTO auto (title) VALUES ('default B')"),
        ]);
        for (const r of keyed)
            strict_1.default.equal(r.status, 200, r.text);
        await (0, cluster_1.converged)(cluster.nodes, ['todos', 'auto']);
        for (const n of cluster.nodes) {
            strict_1.default.deepEqual(await (0, cluster_1.rows)(n.http, 'SELECT title FROM todos ORDER BY title'), [['from A'], ['from B']]);
            strict_1.default.deepEqual(await (0, cluster_1.rows)(n.http, 'SELECT title FROM auto ORDER BY title'), [['default A'], ['default B']]);
            const h = (await (0, http_1.request)(n.http, 'GET', '/v1/health')).json;
            strict_1.default.equal(typeof h.patina_id.tag, 'number');
            strict_1.default.deepEqual(h.patina_id.shared_with, []);
        }
    });
});
//# sourceMappingURL=key-rule.test.js.map