"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const cli_1 = require("../helpers/cli");
const http_1 = require("../helpers/http");
const SCHEMA = 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);\n';
describe('one agent per database', function () {
    this.timeout(60_000);
    it('stops a second agent on the same --db-path at once, naming the running agent pid, and leaves the first serving', async () => {
        const first = await (0, agent_1.startAgent)({ schema: SCHEMA });
        try {
            const t0 = Date.now();
            const second = await (0, cli_1.runCli)([
                'agent',
                '--db-path',
                first.dbPath,
                '--api-addr',
                '127.0.0.1:0',
                '--schema',
                node_path_1.default.join(first.dir, 'schema.sql'),
            ], { cwd: first.dir });
            strict_1.default.notEqual(second.code, 0, second.stdout);
            strict_1.default.match(second.stderr, new RegExp(`in use by a running agent \\(pid ${first.proc.pid}\\)`));
            strict_1.default.doesNotMatch(second.stdout, /agent ready/);
            strict_1.default.ok(Date.now() - t0 < 15_000, 'it stops instead of waiting for the lock');
            const w = await (0, http_1.postJson)(first.http, '/v1/transactions', ["INSERT INTO t VALUES (1, 'still serving')"]);
            strict_1.default.equal(w.status, 200, w.text);
        }
        finally {
            await first.stop();
            await first.dispose();
        }
    });
    it('is free again once the agent is gone, even after SIGKILL', async () => {
        const a = await (0, agent_1.startAgent)({ schema: SCHEMA });
        const dir = a.dir;
        try {
            await a.kill();
            const b = await (0, agent_1.startAgent)({ schema: SCHEMA, dir });
            const r = await (0, http_1.postJson)(b.http, '/v1/transactions', ["INSERT INTO t VALUES (2, 'after kill')"]);
            strict_1.default.equal(r.status, 200, r.text);
            await b.stop();
            const c = await (0, agent_1.startAgent)({ schema: SCHEMA, dir });
            await c.stop();
        }
        finally {
            await a.dispose();
        }
    });
});
//# sourceMappingURL=database-lock.test.js.map