"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
describe('REGEXP in reads, over HTTP and PostgreSQL', () => {
    let agent;
    let client;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ args: ['--pg-addr', '127.0.0.1:0'] });
        const w = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
            ["INSERT INTO users (id, name) VALUES (1, 'Ann'), (2, 'bob'), (3, 'Anna')"],
        ]);
        strict_1.default.equal(w.status, 200, w.text);
        client = (0, pg_1.pgClient)(agent.pg.port);
        await client.connect();
    });
    after(async () => {
        await client?.end();
        await agent.dispose();
    });
    it('matches with REGEXP in POST /v1/queries', async () => {
        const r = await (0, http_1.postJson)(agent.http, '/v1/queries', [
            'SELECT id FROM users WHERE name REGEXP ? ORDER BY id',
            ['^Ann'],
        ]);
        strict_1.default.equal(r.status, 200, r.text);
        strict_1.default.deepEqual(r.lines.slice(1, -1), [{ row: [1, [1]] }, { row: [2, [3]] }]);
    });
    it('refuses a bad pattern with a 400 naming it', async () => {
        const r = await (0, http_1.postJson)(agent.http, '/v1/queries', "SELECT id FROM users WHERE name REGEXP '(unclosed'");
        strict_1.default.equal(r.status, 400);
        strict_1.default.match(r.json.error, /regular expression/i);
    });
    it('answers ~ and ~* on user tables through the PG listener', async () => {
        strict_1.default.deepEqual((await client.query("SELECT id FROM users WHERE name ~ '^Ann' ORDER BY id")).rows.map((r) => Number(r.id)), [1, 3]);
        strict_1.default.deepEqual((await client.query("SELECT id FROM users WHERE name ~* '^(ann|BOB)$' ORDER BY id")).rows.map((r) => Number(r.id)), [1, 2]);
    });
});
//# sourceMappingURL=sql-functions.test.js.map