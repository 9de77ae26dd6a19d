"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_http_1 = __importDefault(require("node:http"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const LIMIT = 1024;
function errorOf(res) {
    const j = res.json;
    strict_1.default.equal(typeof j?.error, 'string', `expected a JSON {"error": ...} body, got ${res.status} ${res.text}`);
    strict_1.default.match(String(res.headers['content-type']), /application\/json/);
    return j.error;
}
/** Sends a body in chunks without a content-length, as a streaming client would. */
function postChunked(base, path, chunks) {
    return new Promise((resolve, reject) => {
        const req = node_http_1.default.request(new URL(path, base), { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false }, (res) => {
            let text = '';
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        // The agent may answer 413 and close before the whole body is sent.
        req.on('error', (e) => e.code === 'EPIPE' || e.code === 'ECONNRESET'
            ? undefined
            : reject(e));
        for (const c of chunks)
            req.write(c);
        req.end();
    });
}
describe('HTTP errors on every route', () => {
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({
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
                    const r = await (0, http_1.request)(agent.http, 'POST', route, good, { 'content-type': type });
                    strict_1.default.equal(r.status, 415, `${type}: ${r.text}`);
                    strict_1.default.match(errorOf(r), /content-type/);
                }
                const none = await (0, http_1.request)(agent.http, 'POST', route, Buffer.from(good), { 'content-type': '' });
                strict_1.default.equal(none.status, 415, none.text);
                errorOf(none);
            });
            it('accepts application/json with a charset', async () => {
                const r = await (0, http_1.request)(agent.http, 'POST', route, route === '/v1/queries' ? good : '["SELECT 1"]', {
                    'content-type': 'application/json; charset=utf-8',
                });
                strict_1.default.equal(r.status, 200, r.text);
            });
            it('answers 400 to malformed JSON and to an empty body', async () => {
                for (const body of ['{"a":', "'SELECT 1'", '[1,]', 'SELECT 1', '"unterminated', '']) {
                    const r = await (0, http_1.request)(agent.http, 'POST', route, body);
                    strict_1.default.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
                    errorOf(r);
                }
            });
            it('answers 413 to a body over the configured limit, with or without a content-length', async () => {
                const big = JSON.stringify('SELECT ' + "'" + 'x'.repeat(LIMIT * 2) + "'");
                const r = await (0, http_1.request)(agent.http, 'POST', route, big);
                strict_1.default.equal(r.status, 413, r.text);
                strict_1.default.match(errorOf(r), /limit/);
                const chunked = await postChunked(agent.http, route, [
                    '"SELECT \'',
                    'y'.repeat(LIMIT),
                    'y'.repeat(LIMIT),
                    '\'"',
                ]);
                strict_1.default.equal(chunked.status, 413, chunked.text);
                strict_1.default.match(chunked.text, /"error"/);
                // Just under the limit still works.
                const small = JSON.stringify('SELECT ' + "'" + 'x'.repeat(LIMIT - 100) + "'");
                const ok = await (0, http_1.request)(agent.http, 'POST', '/v1/queries', small);
                strict_1.default.equal(ok.status, 200, ok.text);
            });
            it('answers 405 with a JSON error to a wrong method', async () => {
                for (const method of ['GET', 'PUT', 'DELETE']) {
                    const r = await (0, http_1.request)(agent.http, method, route);
                    strict_1.default.equal(r.status, 405, `${method}: ${r.text}`);
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
            const r = await (0, http_1.request)(agent.http, method, path, method === 'POST' ? '"SELECT 1"' : undefined);
            strict_1.default.equal(r.status, 404, `${method} ${path}: ${r.text}`);
            errorOf(r);
        }
    });
    it('routes by path and method: Allow on 405, OPTIONS lists the methods, HEAD answers like GET, any case and a trailing slash match', async () => {
        const wrong = await (0, http_1.request)(agent.http, 'PUT', '/v1/transactions');
        strict_1.default.equal(wrong.status, 405);
        strict_1.default.equal(wrong.headers.allow, 'POST');
        errorOf(wrong);
        const options = await (0, http_1.request)(agent.http, 'OPTIONS', '/v1/health');
        strict_1.default.equal(options.status, 200);
        strict_1.default.equal(options.headers.allow, 'HEAD, GET');
        const head = await (0, http_1.request)(agent.http, 'HEAD', '/v1/health');
        strict_1.default.equal(head.status, 200);
        strict_1.default.equal(head.text, '');
        strict_1.default.match(String(head.headers['content-type']), /application\/json/);
        for (const path of ['/v1/health/', '/V1/Health'])
            strict_1.default.equal((await (0, http_1.request)(agent.http, 'GET', path)).status, 200, path);
        const write = await (0, http_1.request)(agent.http, 'POST', '/v1/transactions/', JSON.stringify([["INSERT INTO t (id, v) VALUES (?, 'x')", [7]]]));
        strict_1.default.equal(write.status, 200, write.text);
        // A path parameter is URL-decoded: the table named in the error is the decoded name.
        const table = await (0, http_1.request)(agent.http, 'POST', '/v1/updates/no%20such');
        strict_1.default.equal(table.status, 404);
        strict_1.default.equal(errorOf(table), 'table not found in schema: no such');
        strict_1.default.equal((await (0, http_1.request)(agent.http, 'GET', '/v1/updates/t')).headers.allow, 'POST');
    });
    it('GET /v1/health answers 200 with a small JSON status', async () => {
        const r = await (0, http_1.request)(agent.http, 'GET', '/v1/health');
        strict_1.default.equal(r.status, 200, r.text);
        strict_1.default.match(String(r.headers['content-type']), /application\/json/);
        const h = r.json;
        strict_1.default.equal(h.status, 'ok');
        strict_1.default.deepEqual(h.tables, ['t']);
        strict_1.default.ok(r.text.length < 2000);
    });
    it('keeps a keep-alive connection usable after refused requests', async () => {
        const agentPool = new node_http_1.default.Agent({ keepAlive: true, maxSockets: 1 });
        const send = (body, type = 'application/json') => new Promise((resolve, reject) => {
            const req = node_http_1.default.request(new URL('/v1/queries', agent.http), { method: 'POST', headers: { 'content-type': type }, agent: agentPool }, (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode ?? 0));
            });
            req.on('error', reject);
            req.end(body);
        });
        strict_1.default.equal(await send('"SELECT 1"', 'text/plain'), 415);
        strict_1.default.equal(await send('{"a":'), 400);
        strict_1.default.equal(await send('"SELEC"'), 400);
        strict_1.default.equal(await send('"SELECT 1"'), 200);
        agentPool.destroy();
    });
    it('answers a JSON error, never a crash, to a body that is JSON but deeply nested or huge in numbers', async () => {
        const r = await (0, http_1.request)(agent.http, 'POST', '/v1/queries', '['.repeat(200) + ']'.repeat(200));
        strict_1.default.ok(r.status === 400 || r.status === 422, r.text);
        const n = await (0, http_1.request)(agent.http, 'POST', '/v1/queries', '["SELECT ?", [1e400]]');
        strict_1.default.equal(n.status, 400, n.text);
        errorOf(n);
        const h = await (0, http_1.request)(agent.http, 'GET', '/v1/health');
        strict_1.default.equal(h.status, 200);
    });
});
//# sourceMappingURL=errors.test.js.map