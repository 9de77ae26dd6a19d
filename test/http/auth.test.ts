// Bearer tokens with roles on the HTTP API, through real sockets, curl-like requests and the CLI.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { AgentProcess, startAgent } from '../helpers/agent';
import { runCli } from '../helpers/cli';
import { openStream, postJson, request } from '../helpers/http';

const SCHEMA = 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);';
const READ = 'read-token-6f1c2b9e';
const WRITE = 'write-token-a83d07f1';
const ADMIN = 'admin-token-5be4c0d2';
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

describe('HTTP API bearer tokens and roles', () => {
  let agent: AgentProcess;
  let writeFile: string;

  before(async () => {
    agent = new AgentProcess({ schema: SCHEMA, env: { PATINA_TEST_ADMIN_TOKEN: ADMIN } });
    writeFile = path.join(agent.dir, 'write.token');
    fs.writeFileSync(writeFile, WRITE + '\n');
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
      const r = await postJson(agent.http, '/v1/queries', 'SELECT 1', headers);
      assert.equal(r.status, 401, r.text);
      assert.match(String(r.headers['www-authenticate']), /^Bearer realm="patina"/);
      assert.equal(typeof (r.json as { error: string }).error, 'string');
    }
    // an unknown route is not revealed before authentication
    assert.equal((await request(agent.http, 'GET', '/v1/nothing-here')).status, 401);
  });

  it('lets each role do what it allows and answers 403 naming the role otherwise', async () => {
    const q = await postJson(agent.http, '/v1/queries', 'SELECT count(*) FROM t', bearer(READ));
    assert.equal(q.status, 200, q.text);
    const denied = await postJson(
      agent.http,
      '/v1/transactions',
      ["INSERT INTO t (id, v) VALUES (1, 'a')"],
      bearer(READ),
    );
    assert.equal(denied.status, 403, denied.text);
    assert.match((denied.json as { error: string }).error, /needs the write role; this token has read/);
    const w = await postJson(agent.http, '/v1/transactions', ["INSERT INTO t (id, v) VALUES (1, 'a')"], bearer(WRITE));
    assert.equal(w.status, 200, w.text);
    const reloadAsWriter = await request(agent.http, 'POST', '/v1/admin/reload', undefined, bearer(WRITE));
    assert.equal(reloadAsWriter.status, 403, reloadAsWriter.text);
    const reload = await request(agent.http, 'POST', '/v1/admin/reload', undefined, bearer(ADMIN));
    assert.equal(reload.status, 200, reload.text);
    const adminWrites = await postJson(
      agent.http,
      '/v1/transactions',
      ["INSERT INTO t (id, v) VALUES (2, 'b')"],
      bearer(ADMIN),
    );
    assert.equal(adminWrites.status, 200, adminWrites.text);
  });

  it('lets the read role subscribe and stream table updates, and refuses them without a token', async () => {
    const sub = await openStream(
      agent.http,
      'POST',
      '/v1/subscriptions',
      JSON.stringify('SELECT id, v FROM t'),
      bearer(READ),
    );
    assert.equal(sub.status, 200);
    await sub.until((e) => e.some((x) => typeof x === 'object' && x !== null && 'eoq' in x));
    sub.close();
    const upd = await openStream(agent.http, 'POST', '/v1/updates/t', undefined, bearer(READ));
    assert.equal(upd.status, 200);
    upd.close();
    const none = await openStream(agent.http, 'POST', '/v1/subscriptions', JSON.stringify('SELECT id FROM t'));
    assert.equal(none.status, 401);
    none.close();
  });

  it('keeps health open and never shows a token in health or in errors', async () => {
    const h = await request(agent.http, 'GET', '/v1/health');
    assert.equal(h.status, 200, h.text);
    const wrong = await postJson(agent.http, '/v1/queries', 'SELECT 1', bearer(`${WRITE}-typo`));
    const forbidden = await postJson(agent.http, '/v1/transactions', ['DELETE FROM t'], bearer(READ));
    const badSql = await postJson(agent.http, '/v1/queries', `SELECT '${'x'}' FROM nowhere`, bearer(READ));
    for (const text of [
      h.text,
      wrong.text,
      forbidden.text,
      badSql.text,
      JSON.stringify(wrong.headers),
      JSON.stringify(forbidden.headers),
    ]) {
      for (const token of [READ, WRITE, ADMIN]) assert.ok(!text.includes(token), `a token shows in: ${text}`);
    }
    assert.ok(!agent.output.includes(WRITE) && !agent.output.includes(READ) && !agent.output.includes(ADMIN));
  });

  it('re-reads token files on patina reload and on SIGHUP, without a restart', async () => {
    const next = 'write-token-rotated-1';
    fs.writeFileSync(writeFile, next);
    const before = await postJson(agent.http, '/v1/queries', 'SELECT 1', bearer(next));
    assert.equal(before.status, 401, 'the new token works only after a reload');
    const r = await runCli(['reload', '--api-addr', agent.http.replace('http://', ''), '--api-token', ADMIN]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await postJson(agent.http, '/v1/queries', 'SELECT 1', bearer(next))).status, 200);
    assert.equal(
      (await postJson(agent.http, '/v1/queries', 'SELECT 1', bearer(WRITE))).status,
      401,
      'the old token is gone',
    );

    const third = 'write-token-rotated-2';
    fs.writeFileSync(writeFile, third);
    agent.proc.kill('SIGHUP');
    const deadline = Date.now() + 10000;
    while ((await postJson(agent.http, '/v1/queries', 'SELECT 1', bearer(third))).status !== 200) {
      assert.ok(Date.now() < deadline, `SIGHUP did not re-read the token file:\n${agent.output}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    // a token file that cannot be read refuses the reload and keeps the current tokens
    fs.rmSync(writeFile);
    const refused = await request(agent.http, 'POST', '/v1/admin/reload', undefined, bearer(ADMIN));
    assert.equal(refused.status, 400, refused.text);
    assert.match(
      (refused.json as { error: string }).error,
      /api\.auth\.tokens\[1\]: cannot read .*write\.token: ENOENT/,
    );
    assert.equal((await postJson(agent.http, '/v1/queries', 'SELECT 1', bearer(third))).status, 200);
    fs.writeFileSync(writeFile, WRITE);
    assert.equal((await request(agent.http, 'POST', '/v1/admin/reload', undefined, bearer(ADMIN))).status, 200);
  });

  it('takes the CLI token from --api-token or PATINA_API_TOKEN, and says 401 without one', async () => {
    const addr = agent.http.replace('http://', '');
    const none = await runCli(['query', 'SELECT count(*) FROM t', '--api-addr', addr]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /authentication required/);
    const flag = await runCli([
      'exec',
      "INSERT INTO t (id, v) VALUES (10, 'cli')",
      '--api-addr',
      addr,
      '--api-token',
      WRITE,
    ]);
    assert.equal(flag.code, 0, flag.stderr);
    const env = await runCli(['query', 'SELECT v FROM t WHERE id = 10', '--api-addr', addr], {
      env: { PATINA_API_TOKEN: READ },
    });
    assert.equal(env.code, 0, env.stderr);
    assert.equal(env.stdout, 'cli\n');
    const members = await runCli(['cluster', 'members', '--api-addr', addr, '--api-token', READ]);
    assert.equal(members.code, 0, members.stderr);
  });
});

describe('HTTP API auth configuration', () => {
  it('takes tokens changed in the config file itself on reload, and refuses a reload that would drop auth off loopback', async () => {
    const agent = new AgentProcess({ schema: SCHEMA, args: ['--api-addr', '0.0.0.0:0'] });
    const config = (token: string) => `[api.auth]\ntokens = [{ token = "${token}", role = "admin" }]\n`;
    agent.opts.config = config(ADMIN);
    await agent.start();
    try {
      const base = `http://127.0.0.1:${new URL(agent.http).port}`;
      fs.writeFileSync(path.join(agent.dir, 'config.toml'), config('admin-token-new'));
      assert.equal((await request(base, 'POST', '/v1/admin/reload', undefined, bearer(ADMIN))).status, 200);
      assert.equal((await postJson(base, '/v1/queries', 'SELECT 1', bearer(ADMIN))).status, 401);
      assert.equal((await postJson(base, '/v1/queries', 'SELECT 1', bearer('admin-token-new'))).status, 200);
      fs.writeFileSync(path.join(agent.dir, 'config.toml'), '');
      const refused = await request(base, 'POST', '/v1/admin/reload', undefined, bearer('admin-token-new'));
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.text, /not loopback, without authentication/);
      assert.equal((await postJson(base, '/v1/queries', 'SELECT 1')).status, 401, 'auth stays on');
    } finally {
      await agent.dispose();
    }
  });

  it('protects health too when open_routes is empty', async () => {
    const agent = await startAgent({
      schema: SCHEMA,
      config: `[api.auth]\ntokens = [{ token = "${READ}", role = "read" }]\nopen_routes = []\n`,
    });
    try {
      assert.equal((await request(agent.http, 'GET', '/v1/health')).status, 401);
      assert.equal((await request(agent.http, 'GET', '/v1/health', undefined, bearer(READ))).status, 200);
    } finally {
      await agent.dispose();
    }
  });

  it('refuses to listen on a non-loopback address without auth unless allow_unauthenticated says so', async () => {
    const refused = new AgentProcess({ schema: SCHEMA, args: ['--api-addr', '0.0.0.0:0'] });
    await assert.rejects(
      refused.start(),
      /not loopback, without authentication; configure \[api\.auth\] tokens, or set api\.allow_unauthenticated = true/,
    );
    await refused.dispose();
    const allowed = await startAgent({
      schema: SCHEMA,
      config: '[api]\nallow_unauthenticated = true\n',
      args: ['--api-addr', '0.0.0.0:0'],
    });
    try {
      const port = new URL(allowed.http).port;
      assert.equal((await request(`http://127.0.0.1:${port}`, 'GET', '/v1/health')).status, 200);
    } finally {
      await allowed.dispose();
    }
    const withAuth = await startAgent({
      schema: SCHEMA,
      config: `[api.auth]\ntokens = [{ token = "${READ}", role = "read" }]\n`,
      args: ['--api-addr', '0.0.0.0:0'],
    });
    await withAuth.dispose();
  });

  it('stops start-up naming the key at fault, never the secret', async () => {
    const cases: [string, RegExp][] = [
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
      const a = new AgentProcess({ schema: SCHEMA, config });
      await assert.rejects(a.start(), (err: Error) => {
        assert.match(err.message, message);
        assert.ok(!err.message.includes(READ), `the token shows in: ${err.message}`);
        return true;
      });
      await a.dispose();
    }
  });
});
