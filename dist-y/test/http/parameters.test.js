"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const agent_1 = require("../helpers/agent");
const cli_1 = require("../helpers/cli");
const http_1 = require("../helpers/http");
const subscriptions_1 = require("../helpers/subscriptions");
const SCHEMA = 'CREATE TABLE users (id INTEGER NOT NULL PRIMARY KEY, name TEXT, score REAL);\n';
/** POST raw JSON text, as a client writes it (JSON.stringify cannot tell 5 from 5.0). */
const post = (agent, path, text) => (0, http_1.request)(agent.http, 'POST', path, text, { 'content-type': 'application/json' });
/** The one row of a read, its cells. */
async function row(agent, body) {
    const r = await post(agent, '/v1/queries', body);
    strict_1.default.equal(r.status, 200, r.text);
    const rows = r.lines.filter((l) => 'row' in l);
    strict_1.default.equal(rows.length, 1, r.text);
    return rows[0].row[1];
}
describe('parameters bind with the type their JSON spelling says', () => {
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA });
    });
    after(async () => agent.dispose());
    it('an integer binds as INTEGER and a fraction or exponent as REAL, in every body form of a query', async () => {
        const bodies = [
            '["SELECT typeof(?), typeof(?), typeof(?), typeof(?), ? / 2", [5, 5.0, 1e2, -7, 5]]',
            '{"query": "SELECT typeof(?), typeof(?), typeof(?), typeof(?), ? / 2", "params": [5, 5.0, 1e2, -7, 5]}',
            '["SELECT typeof(:a), typeof(:b), typeof(:c), typeof(:d), :a / 2", {":a": 5, ":b": 5.0, ":c": 1e2, ":d": -7}]',
            '{"query": "SELECT typeof(@a), typeof(@b), typeof($c), typeof(:d), :a / 2", "named_params": {"a": 5, "@b": 5.0, "$c": 1e2, ":d": -7}}',
        ];
        for (const b of bodies)
            strict_1.default.deepEqual(await row(agent, b), ['integer', 'real', 'real', 'integer', 2], b);
    });
    it('keeps 64-bit integers exact and refuses one outside the range with a 400 naming the parameter', async () => {
        strict_1.default.deepEqual(await row(agent, '["SELECT ?, typeof(?), ?", [9223372036854775807, 9223372036854775807, -9223372036854775808]]'), [9223372036854775807n, 'integer', -9223372036854775808n]);
        const r = await post(agent, '/v1/queries', '["SELECT ?, ?", [1, 9223372036854775808]]');
        strict_1.default.equal(r.status, 400);
        strict_1.default.match(r.json.error, /parameter 2: 9223372036854775808 does not fit a 64-bit integer/);
    });
    it('booleans bind as the INTEGERs 1 and 0, and BLOBs as arrays of byte values', async () => {
        strict_1.default.deepEqual(await row(agent, '["SELECT ?, typeof(?), ?, typeof(?), hex(?)", [true, true, false, false, [1, 255]]]'), [1, 'integer', 0, 'integer', '01FF']);
    });
    it('stores what was written: an integer in a TEXT column is "5", not "5.0"', async () => {
        const w = await post(agent, '/v1/transactions', '[["INSERT INTO users (id, name, score) VALUES (?, ?, ?)", [10, 5, 5]], {"query": "INSERT INTO users (id, name) VALUES (?, ?)", "params": [11, 2.5]}]');
        strict_1.default.equal(w.status, 200, w.text);
        strict_1.default.deepEqual(await row(agent, '"SELECT name, typeof(name), score, typeof(score) FROM users WHERE id = 10"'), [
            '5',
            'text',
            5,
            'real',
        ]);
        strict_1.default.deepEqual(await row(agent, '"SELECT name FROM users WHERE id = 11"'), ['2.5']);
    });
    it("SQLite's ?NNN placeholders take their values from the array, repeated and in any order", async () => {
        strict_1.default.deepEqual(await row(agent, '["SELECT ?1, typeof(?1), ?2, ?1 + ?2", [5, "x"]]'), [5, 'integer', 'x', 5]);
        strict_1.default.deepEqual(await row(agent, '{"query": "SELECT ?2 || ?1", "params": ["a", "b"]}'), ['ba']);
        const w = await post(agent, '/v1/transactions', '[["INSERT INTO users (id, name) VALUES (?1, ?2) ON CONFLICT (id) DO UPDATE SET name = ?2", [12, "dup"]]]');
        strict_1.default.equal(w.status, 200, w.text);
        strict_1.default.deepEqual(await row(agent, '"SELECT name FROM users WHERE id = 12"'), ['dup']);
    });
    it('refuses SQL that mixes ? and ?NNN, naming the statement', async () => {
        const r = await post(agent, '/v1/transactions', '[["SELECT ?1, ?", [1, 2]]]');
        strict_1.default.equal(r.status, 400);
        strict_1.default.match(r.text, /statement 1: the SQL mixes \? and \?NNN placeholders/);
    });
    it('a subscription binds the same way, in its rows and in its changes', async () => {
        const s = await (0, http_1.openStream)(agent.http, 'POST', '/v1/subscriptions', '["SELECT id, name, typeof(?1) FROM users WHERE id = ?1", [10]]');
        await s.until((e) => e.some((x) => 'eoq' in x));
        strict_1.default.deepEqual(s.events.filter((e) => 'row' in e).map((e) => e.row[1]), [[10, '5', 'integer']]);
        const w = await post(agent, '/v1/transactions', '[["UPDATE users SET name = ? WHERE id = ?", ["ten", 10]]]');
        strict_1.default.equal(w.status, 200, w.text);
        await (0, subscriptions_1.untilChange)(s, 1);
        strict_1.default.deepEqual((0, subscriptions_1.changes)(s.events)[0].slice(2, 4), [[10, 'ten', 'integer'], 1]);
        s.close();
    });
    describe('the CLI', () => {
        const cli = (args) => (0, cli_1.runCli)([...args, '--api-addr', agent.http.replace('http://', '')]);
        it('sends --param as a number only when it reads exactly as one, else as text; --param-json and --null for the rest', async () => {
            const sql = 'SELECT ' + Array.from({ length: 10 }, (_, i) => `quote(?${i + 1}) || ':' || typeof(?${i + 1})`).join(', ');
            const r = await cli([
                'query',
                sql,
                '--param',
                '5',
                '--param',
                '5.0',
                '--param',
                '00123',
                '--param',
                'null',
                '--null',
                '--param',
                '-0',
                '--param',
                '-5',
                '--param-json',
                '"007"',
                '--param',
                '9223372036854775807',
                '--param',
                'true',
            ]);
            strict_1.default.equal(r.code, 0, r.stderr);
            strict_1.default.deepEqual(r.stdout.trim().split('\t'), [
                '5:integer',
                '5.0:real',
                "'00123':text",
                "'null':text",
                'NULL:null',
                '0:integer',
                '-5:integer',
                "'007':text",
                '9223372036854775807:integer',
                "'true':text",
            ]);
        });
        it('exec takes the same flags; a --param-json that is not JSON is a usage error naming it', async () => {
            const ok = await cli(['exec', 'INSERT INTO users (id, name) VALUES (?, ?)', '--param', '20', '--param', '00123']);
            strict_1.default.equal(ok.code, 0, ok.stderr);
            strict_1.default.deepEqual(await row(agent, '"SELECT name, typeof(name) FROM users WHERE id = 20"'), ['00123', 'text']);
            const bad = await cli(['query', 'SELECT ?', '--param-json', 'nope']);
            strict_1.default.equal(bad.code, 2);
            strict_1.default.match(bad.stderr, /--param-json "nope" is not JSON/);
        });
    });
});
//# sourceMappingURL=parameters.test.js.map