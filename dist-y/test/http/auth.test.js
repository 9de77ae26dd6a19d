"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Bearer tokens with roles on the HTTP API, through real sockets, curl-like requests and the CLI.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const cli_1 = require("../helpers/cli");
const http_1 = require("../helpers/http");
const SCHEMA = 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);';
const READ = 'read-token-6f1c2b9e';
const WRITE = 'write-token-a83d07f1';
const ADMIN = 'admin-token-5be4c0d2';
const bearer = (t) => ({ authorization: `Bearer ${t}` });
describe('HTTP API bearer tokens and roles', () => {
    let agent;
    let writeFile;
    before(async () => {
        agent = new agent_1.AgentProcess({ schema: SCHEMA, env: { PATINA_TEST_ADMIN_TOKEN: ADMIN } });
        writeFile = node_path_1.default.join(agent.dir, 'write.token');
        node_fs_1.default.writeFileSync(writeFile, WRITE + '\n');
        agent.opts.config = `[api.auth]\ntokens = [\n  { token = "${READ}", role = "read" },\n  { token_file = "write.token", role = "write" },\n  { token_env = "PATINA_TEST_ADMIN_TOKEN", role = "admin" },\n]\n`;
        await agent.start();
    });
    after(() => agent?.dispose());
    it('answers 401 with WWW-Authenticate: Bearer and a JSON error without a token or with a wrong one', async () => {
        for (const headers of [
            {},
            bearer('not-a-token'),
            { authorization: 'Basic dXNlcjpwYXNz' },
            { authorization: `Bearer ${READ}x` },
        ]) {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT 1', headers);
            strict_1.default.equal(r.status, 401, r.text);
            strict_1.default.match(String(r.headers['www-authenticate']), /^Bearer realm="patina"/);
            strict_1.default.equal(typeof r.json.error, 'string');
        }
        // an unknown route is not revealed before authentication
        strict_1.default.equal((await (0, http_1.request)(agent.http, 'GET', '/v1/nothing-here')).status, 401);
    });
    it('lets each role do what it allows and answers 403 naming the role otherwise', async () => {
        const q = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT count(*) FROM t', bearer(READ));
        strict_1.default.equal(q.status, 200, q.text);
        const denied = await (0, http_1.postJson)(agent.http, '/v1/transactions', ["INSERT INTO t (id, v) VALUES (1, 'a')"], bearer(READ));
        strict_1.default.equal(denied.status, 403, denied.text);
        strict_1.default.match(denied.json.error, /needs the write role; this token has read/);
        const w = await (0, http_1.postJson)(agent.http, '/v1/transactions', ["INSERT INTO t (id, v) VALUES (1, 'a')"], bearer(WRITE));
        strict_1.default.equal(w.status, 200, w.text);
        const reloadAsWriter = await (0, http_1.request)(agent.http, 'POST', '/v1/admin/reload', undefined, bearer(WRITE));
        strict_1.default.equal(reloadAsWriter.status, 403, reloadAsWriter.text);
        const reload = await (0, http_1.request)(agent.http, 'POST', '/v1/admin/reload', undefined, bearer(ADMIN));
        strict_1.default.equal(reload.status, 200, reload.text);
        const adminWrites = await (0, http_1.postJson)(agent.http, '/v1/transactions', ["INSERT INTO t (id, v) VALUES (2, 'b')"], bearer(ADMIN));
        strict_1.default.equal(adminWrites.status, 200, adminWrites.text);
    });
    it('lets the read role subscribe and stream table updates, and refuses them without a token', async () => {
        const sub = await (0, http_1.openStream)(agent.http, 'POST', '/v1/subscriptions', JSON.stringify('SELECT id, v FROM t'), bearer(READ));
        strict_1.default.equal(sub.status, 200);
        await sub.until((e) => e.some((x) => typeof x === 'object' && x !== null && 'eoq' in x));
        sub.close();
        const upd = await (0, http_1.openStream)(agent.http, 'POST', '/v1/updates/t', undefined, bearer(READ));
        strict_1.default.equal(upd.status, 200);
        upd.close();
        const none = await (0, http_1.openStream)(agent.http, 'POST', '/v1/subscriptions', JSON.stringify('SELECT id FROM t'));
        strict_1.default.equal(none.status, 401);
        none.close();
    });
    it('keeps health open and never shows a token in health or in errors', async () => {
        const h = await (0, http_1.request)(agent.http, 'GET', '/v1/health');
        strict_1.default.equal(h.status, 200, h.text);
        const wrong = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT 1', bearer(`${WRITE}-typo`));
        const forbidden = await (0, http_1.postJson)(agent.http, '/v1/transactions', ['DELETE FROM t'], bearer(READ));
        const badSql = await (0, http_1.postJson)(agent.http, '/v1/queries', `SELECT '${'x'}' FROM nowhere`, bearer(READ));
        for (const text of [
            h.text,
            wrong.text,
            forbidden.text,
            badSql.text,
            JSON.stringify(wrong.headers),
            JSON.stringify(forbidden.headers),
        ]) {
            for (const token of [READ, WRITE, ADMIN])
                strict_1.default.ok(!text.includes(token), `a token shows in: ${text}`);
        }
        strict_1.default.ok(!agent.output.includes(WRITE) && !agent.output.includes(READ) && !agent.output.includes(ADMIN));
    });
    it('re-reads token files on patina reload and on SIGHUP, without a restart', async () => {
        const next = 'write-token-rotated-1';
        node_fs_1.default.writeFileSync(writeFile, next);
        const before = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT 1', bearer(next));
        strict_1.default.equal(before.status, 401, 'the new token works only after a reload');
        const r = await (0, cli_1.runCli)(['reload', '--api-addr', agent.http.replace('http://', ''), '--api-token', ADMIN]);
        strict_1.default.equal(r.code, 0, r.stderr);
        strict_1.default.equal((await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT 1', bearer(next))).status, 200);
        strict_1.default.equal((await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT 1', bearer(WRITE))).status, 401, 'the old token is gone');
        const third = 'write-token-rotated-2';
        node_fs_1.default.writeFileSync(writeFile, third);
        agent.proc.kill('SIGHUP');
        const deadline = Date.now() + 10000;
        while ((await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT 1', bearer(third))).status !== 200) {
            strict_1.default.ok(Date.now() < deadline, `SIGHUP did not re-read the token file:\n${agent.output}`);
            await new Promise((res) => setTimeout(res, 100));
        }
        // a token file that cannot be read refuses the reload and keeps the current tokens
        node_fs_1.default.rmSync(writeFile);
        const refused = await (0, http_1.request)(agent.http, 'POST', '/v1/admin/reload', undefined, bearer(ADMIN));
        strict_1.default.equal(refused.status, 400, refused.text);
        strict_1.default.match(refused.json.error, /api\.auth\.tokens\[1\]: cannot read .*write\.token: ENOENT/);
        strict_1.default.equal((await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT 1', bearer(third))).status, 200);
        node_fs_1.default.writeFileSync(writeFile, WRITE);
        strict_1.default.equal((await (0, http_1.request)(agent.http, 'POST', '/v1/admin/reload', undefined, bearer(ADMIN))).status, 200);
    });
    it('takes the CLI token from --api-token or PATINA_API_TOKEN, and says 401 without one', async () => {
        const addr = agent.http.replace('http://', '');
        const none = await (0, cli_1.runCli)(['query', 'SELECT count(*) FROM t', '--api-addr', addr]);
        strict_1.default.equal(none.code, 1);
        strict_1.default.match(none.stderr, /authentication required/);
        const flag = await (0, cli_1.runCli)([
            'exec',
            "INSERT INTO t (id, v) VALUES (10, 'cli')",
            '--api-addr',
            addr,
            '--api-token',
            WRITE,
        ]);
        strict_1.default.equal(flag.code, 0, flag.stderr);
        const env = await (0, cli_1.runCli)(['query', 'SELECT v FROM t WHERE id = 10', '--api-addr', addr], {
            env: { PATINA_API_TOKEN: READ },
        });
        strict_1.default.equal(env.code, 0, env.stderr);
        strict_1.default.equal(env.stdout, 'cli\n');
        const members = await (0, cli_1.runCli)(['cluster', 'members', '--api-addr', addr, '--api-token', READ]);
        strict_1.default.equal(members.code, 0, members.stderr);
    });
});
describe('HTTP API auth configuration', () => {
    it('takes tokens changed in the config file itself on reload, and refuses a reload that would drop auth off loopback', async () => {
        const agent = new agent_1.AgentProcess({ schema: SCHEMA, args: ['--api-addr', '0.0.0.0:0'] });
        const config = (token) => `[api.auth]\ntokens = [{ token = "${token}", role = "admin" }]\n`;
        agent.opts.config = config(ADMIN);
        await agent.start();
        try {
            const base = `http://127.0.0.1:${new URL(agent.http).port}`;
            node_fs_1.default.writeFileSync(node_path_1.default.join(agent.dir, 'config.toml'), config('admin-token-new'));
            strict_1.default.equal((await (0, http_1.request)(base, 'POST', '/v1/admin/reload', undefined, bearer(ADMIN))).status, 200);
            strict_1.default.equal((await (0, http_1.postJson)(base, '/v1/queries', 'SELECT 1', bearer(ADMIN))).status, 401);
            strict_1.default.equal((await (0, http_1.postJson)(base, '/v1/queries', 'SELECT 1', bearer('admin-token-new'))).status, 200);
            node_fs_1.default.writeFileSync(node_path_1.default.join(agent.dir, 'config.toml'), '');
            const refused = await (0, http_1.request)(base, 'POST', '/v1/admin/reload', undefined, bearer('admin-token-new'));
            strict_1.default.equal(refused.status, 400, refused.text);
            strict_1.default.match(refused.text, /not loopback, without authentication/);
            strict_1.default.equal((await (0, http_1.postJson)(base, '/v1/queries', 'SELECT 1')).status, 401, 'auth stays on');
        }
        finally {
            await agent.dispose();
        }
    });
    it('protects health too when open_routes is empty', async () => {
        const agent = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: `[api.auth]\ntokens = [{ token = "${READ}", role = "read" }]\nopen_routes = []\n`,
        });
        try {
            strict_1.default.equal((await (0, http_1.request)(agent.http, 'GET', '/v1/health')).status, 401);
            strict_1.default.equal((await (0, http_1.request)(agent.http, 'GET', '/v1/health', undefined, bearer(READ))).status, 200);
        }
        finally {
            await agent.dispose();
        }
    });
    it('refuses to listen on a non-loopback address without auth unless allow_unauthenticated says so', async () => {
        const refused = new agent_1.AgentProcess({ schema: SCHEMA, args: ['--api-addr', '0.0.0.0:0'] });
        await strict_1.default.rejects(refused.start(), /not loopback, without authentication; configure \[api\.auth\] tokens, or set api\.allow_unauthenticated = true/);
        await refused.dispose();
        const allowed = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: '[api]\nallow_unauthenticated = true\n',
            args: ['--api-addr', '0.0.0.0:0'],
        });
        try {
            const port = new URL(allowed.http).port;
            strict_1.default.equal((await (0, http_1.request)(`http://127.0.0.1:${port}`, 'GET', '/v1/health')).status, 200);
        }
        finally {
            await allowed.dispose();
        }
        const withAuth = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: `[api.auth]\ntokens = [{ token = "${READ}", role = "read" }]\n`,
            args: ['--api-addr', '0.0.0.0:0'],
        });
        await withAuth.dispose();
    });
    it('stops start-up naming the key at fault, never the secret', async () => {
        const cases = [
            [
                `[api.auth]\ntokens = [{ token = "${READ}", role = "superuser" }]\n`,
                /api\.auth\.tokens\[0\]\.role: expected one of "read", "write", "admin"/,
            ],
            [`[api.auth]\ntokens = [{ token = "${READ}" }]\n`, /api\.auth\.tokens\[0\]\.role: missing/],
            [
                `[api.auth]\ntokens = [{ token = "${READ}", token_file = "x", role = "read" }]\n`,
                /give one of token, token_file/,
            ],
            [
                `[api.auth]\ntokens = [{ token_file = "missing.token", role = "read" }]\n`,
                /api\.auth\.tokens\[0\]: cannot read .*missing\.token: ENOENT/,
            ],
            [
                `[api.auth]\ntokens = [{ token_env = "PATINA_TEST_UNSET_VAR", role = "read" }]\n`,
                /the environment variable PATINA_TEST_UNSET_VAR is not set/,
            ],
            [`[api.auth]\ntokens = []\n`, /api\.auth\.tokens: expected a list/],
        ];
        for (const [config, message] of cases) {
            const a = new agent_1.AgentProcess({ schema: SCHEMA, config });
            await strict_1.default.rejects(a.start(), (err) => {
                strict_1.default.match(err.message, message);
                strict_1.default.ok(!err.message.includes(READ), `the token shows in: ${err.message}`);
                return true;
            });
            await a.dispose();
        }
    });
});
//# sourceMappingURL=auth.test.js.map