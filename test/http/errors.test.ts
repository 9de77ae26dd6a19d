import assert from 'node:assert/strict';
import http from 'node:http';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { type HttpResult, request } from '../helpers/http';

const LIMIT = 1024;

function errorOf(res: HttpResult): string {
  const j = res.json as { error?: unknown };
  assert.equal(typeof j?.error, 'string', `expected a JSON {"error": ...} body, got ${res.status} ${res.text}`);
  assert.match(String(res.headers['content-type']), /application\/json/);
  return j.error as string;
}

/** Sends a body in chunks without a content-length, as a streaming client would. */
function postChunked(base: string, path: string, chunks: string[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, base),
      { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    // The agent may answer 413 and close before the whole body is sent.
    req.on('error', (e) =>
      (e as NodeJS.ErrnoException).code === 'EPIPE' || (e as NodeJS.ErrnoException).code === 'ECONNRESET'
        ? undefined
        : reject(e),
    );
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('HTTP errors on every route', () => {
  let agent: AgentProcess;
  before(async () => {
    agent = await startAgent({
      schema: 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);',
      config: `[api]\nbody_limit = ${LIMIT}\n`,
    });
  });
  after(async () => agent.dispose());

  for (const route of ['/v1/queries', '/v1/transactions']) {
    describe(route, () => {
      const good = route === '/v1/queries' ? '"SELECT 1"' : '["INSERT INTO t (id) VALUES (1)"]';

      it('answers 415 to a content type other than application/json', async () => {
        for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
          const r = await request(agent.http, 'POST', route, good, { 'content-type': type });
          assert.equal(r.status, 415, `${type}: ${r.text}`);
          assert.match(errorOf(r), /content-type/);
        }
        const none = await request(agent.http, 'POST', route, Buffer.from(good), { 'content-type': '' });
        assert.equal(none.status, 415, none.text);
        errorOf(none);
      });

      it('accepts application/json with a charset', async () => {
        const r = await request(agent.http, 'POST', route, route === '/v1/queries' ? good : '["SELECT 1"]', {
          'content-type': 'application/json; charset=utf-8',
        });
        assert.equal(r.status, 200, r.text);
      });

      it('answers 400 to malformed JSON and to an empty body', async () => {
        for (const body of ['{"a":', "'SELECT 1'", '[1,]', 'SELECT 1', '"unterminated', '']) {
          const r = await request(agent.http, 'POST', route, body);
          assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
          errorOf(r);
        }
      });

      it('answers 400 naming the bytes to a body that is not UTF-8 (a LATIN1 é was stored as U+FFFD)', async () => {
        const text = route === '/v1/queries' ? `"SELECT 'caf\u00e9'"` : `["SELECT 'caf\u00e9'"]`;
        const r = await request(agent.http, 'POST', route, Buffer.from(text, 'latin1'));
        assert.equal(r.status, 400, r.text);
        assert.match(errorOf(r), /request body is not UTF-8: invalid byte sequence 0xe9 0x27 0x22 at byte \d+/);
      });

      it('answers 413 to a body over the configured limit, with or without a content-length', async () => {
        const big = JSON.stringify('SELECT ' + "'" + 'x'.repeat(LIMIT * 2) + "'");
        const r = await request(agent.http, 'POST', route, big);
        assert.equal(r.status, 413, r.text);
        assert.match(errorOf(r), /limit/);
        const chunked = await postChunked(agent.http, route, [
          '"SELECT \'',
          'y'.repeat(LIMIT),
          'y'.repeat(LIMIT),
          '\'"',
        ]);
        assert.equal(chunked.status, 413, chunked.text);
        assert.match(chunked.text, /"error"/);
        // Just under the limit still works.
        const small = JSON.stringify('SELECT ' + "'" + 'x'.repeat(LIMIT - 100) + "'");
        const ok = await request(agent.http, 'POST', '/v1/queries', small);
        assert.equal(ok.status, 200, ok.text);
      });

      it('answers 405 with a JSON error to a wrong method', async () => {
        for (const method of ['GET', 'PUT', 'DELETE']) {
          const r = await request(agent.http, method, route);
          assert.equal(r.status, 405, `${method}: ${r.text}`);
          errorOf(r);
        }
      });
    });
  }

  it('answers 404 with a JSON error to an unknown route', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/v1/nope'],
      ['POST', '/v2/queries'],
      ['POST', '/v1/queries/extra'],
    ]) {
      const r = await request(agent.http, method, path, method === 'POST' ? '"SELECT 1"' : undefined);
      assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
      errorOf(r);
    }
  });

  it('routes by path and method: Allow on 405, OPTIONS lists the methods, HEAD answers like GET, any case and a trailing slash match', async () => {
    const wrong = await request(agent.http, 'PUT', '/v1/transactions');
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.allow, 'POST');
    errorOf(wrong);
    const options = await request(agent.http, 'OPTIONS', '/v1/health');
    assert.equal(options.status, 200);
    assert.equal(options.headers.allow, 'HEAD, GET');
    const head = await request(agent.http, 'HEAD', '/v1/health');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.match(String(head.headers['content-type']), /application\/json/);
    for (const path of ['/v1/health/', '/V1/Health'])
      assert.equal((await request(agent.http, 'GET', path)).status, 200, path);
    const write = await request(
      agent.http,
      'POST',
      '/v1/transactions/',
      JSON.stringify([["INSERT INTO t (id, v) VALUES (?, 'x')", [7]]]),
    );
    assert.equal(write.status, 200, write.text);
    // A path parameter is URL-decoded: the table named in the error is the decoded name.
    const table = await request(agent.http, 'POST', '/v1/updates/no%20such');
    assert.equal(table.status, 404);
    assert.equal(errorOf(table), 'table not found in schema: no such');
    assert.equal((await request(agent.http, 'GET', '/v1/updates/t')).headers.allow, 'POST');
  });

  it('GET /v1/health answers 200 with a small JSON status', async () => {
    const r = await request(agent.http, 'GET', '/v1/health');
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /application\/json/);
    const h = r.json as { status: string; tables: string[] };
    assert.equal(h.status, 'ok');
    assert.deepEqual(h.tables, ['t']);
    assert.ok(r.text.length < 2000);
  });

  it('keeps a keep-alive connection usable after refused requests', async () => {
    const agentPool = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (body: string, type = 'application/json') =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          new URL('/v1/queries', agent.http),
          { method: 'POST', headers: { 'content-type': type }, agent: agentPool },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    assert.equal(await send('"SELECT 1"', 'text/plain'), 415);
    assert.equal(await send('{"a":'), 400);
    assert.equal(await send('"SELEC"'), 400);
    assert.equal(await send('"SELECT 1"'), 200);
    agentPool.destroy();
  });

  it('answers a JSON error, never a crash, to a body that is JSON but deeply nested or huge in numbers', async () => {
    const r = await request(agent.http, 'POST', '/v1/queries', '['.repeat(200) + ']'.repeat(200));
    assert.ok(r.status === 400 || r.status === 422, r.text);
    const n = await request(agent.http, 'POST', '/v1/queries', '["SELECT ?", [1e400]]');
    assert.equal(n.status, 400, n.text);
    errorOf(n);
    const h = await request(agent.http, 'GET', '/v1/health');
    assert.equal(h.status, 200);
  });
});
