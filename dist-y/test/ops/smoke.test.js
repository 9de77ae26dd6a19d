"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
describe('an agent started from the CLI', () => {
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)();
    });
    after(async () => agent.dispose());
    it('is healthy and lists the example schema tables', async () => {
        const res = await (0, http_1.request)(agent.http, 'GET', '/v1/health');
        strict_1.default.equal(res.status, 200);
        strict_1.default.deepEqual(res.json.tables.sort(), ['todos', 'users']);
    });
    it('writes through /v1/transactions and reads it back through /v1/queries', async () => {
        const w = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
            ['INSERT INTO users (id, name) VALUES (?, ?)', [1, 'ann']],
        ]);
        strict_1.default.equal(w.status, 200, w.text);
        const r = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT id, name FROM users');
        strict_1.default.deepEqual(r.lines.slice(0, 2), [{ columns: ['id', 'name'] }, { row: [1, [1, 'ann']] }]);
    });
});
//# sourceMappingURL=smoke.test.js.map