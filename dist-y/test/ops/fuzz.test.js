"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Random and mutated input against a running agent, bounded in time: HTTP requests (paths, methods,
// headers, query strings, bodies) and PostgreSQL messages (during startup and after it). The agent
// must never crash, never answer 5xx to HTTP, keep every acknowledged write, and keep serving others.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_net_1 = __importDefault(require("node:net"));
const fast_check_1 = __importDefault(require("fast-check"));
const pg_protocol_1 = require("pg-protocol");
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
const tls_1 = require("../helpers/tls");
const SCHEMA = `
CREATE TABLE ledger (id INTEGER NOT NULL PRIMARY KEY, amount INTEGER NOT NULL DEFAULT 0, note TEXT);
CREATE TABLE scratch (id INTEGER NOT NULL PRIMARY KEY, v TEXT, n INTEGER);
`;
const HTTP_MS = Number(process.env.PATINA_FUZZ_MS ?? 10000);
const PG_MS = Number(process.env.PATINA_FUZZ_MS ?? 10000);
/** Valid requests of every route, to be mutated; none names the ledger table. */
/** The agent has [api.auth]: seeds carry this admin token (mutations may spoil it), random requests none. */
const TOKEN = 'fuzz-admin-token-93be1f';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const SEEDS = [
    ['POST', '/v1/queries', '"SELECT id, v FROM scratch WHERE id > 0"'],
    ['POST', '/v1/queries?timeout=1', '["SELECT * FROM scratch WHERE n = ?", [9223372036854775807]]'],
    ['POST', '/v1/queries', '{"query": "SELECT v FROM scratch WHERE id = :id", "named_params": {":id": 1}}'],
    [
        'POST',
        '/v1/transactions',
        '["INSERT INTO scratch (id, v) VALUES (1, \'a\') ON CONFLICT (id) DO UPDATE SET v = excluded.v"]',
    ],
    [
        'POST',
        '/v1/transactions',
        '[["UPDATE scratch SET n = ? WHERE id = ?", [3, 1]], {"query": "DELETE FROM scratch WHERE id = :i", "named_params": {":i": 2}}]',
    ],
    ['POST', '/v1/subscriptions', '"SELECT id, v FROM scratch"'],
    ['GET', '/v1/subscriptions/00000000-0000-0000-0000-000000000000?from=1', ''],
    ['POST', '/v1/updates/scratch', ''],
    ['GET', '/v1/health', ''],
    ['GET', '/v1/cluster/members', ''],
    ['POST', '/v1/admin/reload', ''],
].map(([method, path, body]) => ({
    method,
    path,
    headers: [
        ['content-type', 'application/json'],
        ['authorization', `Bearer ${TOKEN}`],
    ],
    body: Buffer.from(body),
}));
const bytes = (max) => fast_check_1.default.uint8Array({ maxLength: max }).map((a) => Buffer.from(a));
const text = fast_check_1.default.string({ maxLength: 40, unit: 'binary' });
/** A seed with a few random edits: its bytes, path, method, headers. */
const mutatedRequest = fast_check_1.default
    .tuple(fast_check_1.default.constantFrom(...SEEDS), fast_check_1.default.array(fast_check_1.default.oneof(fast_check_1.default.record({ kind: fast_check_1.default.constant('flip'), at: fast_check_1.default.nat(), value: fast_check_1.default.integer({ min: 0, max: 255 }) }), fast_check_1.default.record({ kind: fast_check_1.default.constant('cut'), at: fast_check_1.default.nat() }), fast_check_1.default.record({ kind: fast_check_1.default.constant('insert'), at: fast_check_1.default.nat(), value: bytes(20) }), fast_check_1.default.record({ kind: fast_check_1.default.constant('path'), value: text }), fast_check_1.default.record({
    kind: fast_check_1.default.constant('method'),
    value: fast_check_1.default.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'POST', 'BREW'),
}), fast_check_1.default.record({
    kind: fast_check_1.default.constant('header'),
    name: fast_check_1.default.constantFrom('content-type', 'authorization', 'transfer-encoding', 'accept', 'x-any', 'content-encoding'),
    value: text,
}), fast_check_1.default.record({ kind: fast_check_1.default.constant('query'), value: text })), { minLength: 1, maxLength: 4 }))
    .map(([seed, edits]) => {
    let body = seed.body;
    let path = seed.path;
    let method = seed.method;
    const headers = [...seed.headers];
    for (const e of edits) {
        const at = 'at' in e ? e.at % (body.length + 1) : 0;
        if (e.kind === 'flip' && body.length > 0)
            body = Buffer.concat([body.subarray(0, at), Buffer.from([e.value]), body.subarray(at + 1)]);
        else if (e.kind === 'cut')
            body = body.subarray(0, at);
        else if (e.kind === 'insert')
            body = Buffer.concat([body.subarray(0, at), e.value, body.subarray(at)]);
        else if (e.kind === 'path')
            path = path + encodeURIComponent(e.value).slice(0, 60);
        else if (e.kind === 'method')
            method = e.value;
        else if (e.kind === 'header')
            headers.push([e.name, e.value.replace(/[\r\n]/g, '')]);
        else if (e.kind === 'query')
            path = `${path}${path.includes('?') ? '&' : '?'}${encodeURIComponent(e.value)}=${encodeURIComponent(e.value)}`;
    }
    return { method, path, headers, body };
});
/** Entirely random requests: any path and body. */
const randomRequest = fast_check_1.default.record({
    method: fast_check_1.default.constantFrom('GET', 'POST', 'PUT'),
    path: fast_check_1.default.oneof(fast_check_1.default.constantFrom('/v1/queries', '/v1/transactions', '/v1/subscriptions', '/v1/updates/', '/'), text.map((t) => '/' + encodeURIComponent(t))),
    headers: fast_check_1.default.constant([['content-type', 'application/json']]),
    body: fast_check_1.default.oneof(bytes(200), fast_check_1.default.json().map((j) => Buffer.from(j))),
});
/** Sends a request over a raw socket (so malformed headers go out as they are); resolves with the status, or 0. */
function sendRaw(port, r) {
    return new Promise((resolve) => {
        const s = node_net_1.default.connect(port, '127.0.0.1');
        let got = '';
        const done = (status) => {
            clearTimeout(timer);
            s.destroy();
            resolve(status);
        };
        const timer = setTimeout(() => done(0), 1500);
        s.on('data', (d) => {
            got += d.toString('latin1');
            const m = /^HTTP\/1\.[01] (\d{3})/.exec(got);
            if (m)
                done(Number(m[1]));
        });
        s.on('error', () => done(0));
        s.on('close', () => done(0));
        const head = `${r.method} ${r.path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${r.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}content-length: ${r.body.length}\r\nconnection: close\r\n\r\n`;
        s.write(Buffer.concat([Buffer.from(head, 'latin1'), r.body]));
    });
}
/** Sends bytes to the PG port (optionally after a good startup), waits briefly, and hangs up. */
function sendPg(port, startup, payload) {
    return new Promise((resolve) => {
        const s = node_net_1.default.connect(port, '127.0.0.1');
        const done = () => {
            clearTimeout(timer);
            s.destroy();
            resolve();
        };
        const timer = setTimeout(done, 80);
        s.on('error', done);
        s.on('close', done);
        s.on('connect', () => {
            if (startup)
                s.write(startup);
            s.write(payload);
        });
    });
}
const STARTUP = pg_protocol_1.serialize.startup({ user: 'fuzz', database: 'db' });
const PG_SEEDS = [
    pg_protocol_1.serialize.query('SELECT id, v FROM scratch WHERE id = 1'),
    pg_protocol_1.serialize.query("INSERT INTO scratch (id, v) VALUES (5, 'x') ON CONFLICT (id) DO NOTHING; SELECT 1"),
    Buffer.concat([
        pg_protocol_1.serialize.parse({ name: 's1', text: 'SELECT v FROM scratch WHERE id = $1', types: [20] }),
        pg_protocol_1.serialize.bind({ statement: 's1', values: ['1'] }),
        pg_protocol_1.serialize.describe({ type: 'P' }),
        pg_protocol_1.serialize.execute({ rows: 1 }),
        pg_protocol_1.serialize.sync(),
    ]),
    Buffer.concat([
        pg_protocol_1.serialize.parse({ text: 'UPDATE scratch SET n = $1 WHERE id = $2' }),
        pg_protocol_1.serialize.bind({ values: ['1', '2'] }),
        pg_protocol_1.serialize.execute(),
        pg_protocol_1.serialize.sync(),
    ]),
    pg_protocol_1.serialize.query('BEGIN; UPDATE scratch SET n = 1; ROLLBACK'),
    pg_protocol_1.serialize.flush(),
    pg_protocol_1.serialize.end(),
];
const PG_STARTUP_SEEDS = [
    STARTUP,
    pg_protocol_1.serialize.requestSsl(),
    pg_protocol_1.serialize.startup({ user: 'x' }),
    Buffer.from([0, 0, 0, 16, 4, 210, 22, 46, 0, 0, 3, 232, 0, 0, 0, 1]),
];
function mutate(b, edits) {
    let out = Buffer.from(b);
    for (const e of edits) {
        const at = e.at % (out.length + 1);
        if (e.cut)
            out = out.subarray(0, at);
        else if (at < out.length)
            out[at] = e.value;
        else
            out = Buffer.concat([out, Buffer.from([e.value])]);
    }
    return out;
}
const edits = fast_check_1.default.array(fast_check_1.default.record({ at: fast_check_1.default.nat(), value: fast_check_1.default.integer({ min: 0, max: 255 }), cut: fast_check_1.default.boolean() }), {
    minLength: 1,
    maxLength: 5,
});
describe('fuzzed input against a running agent', function () {
    this.timeout(120000);
    let agent;
    let pgPort;
    let tlsPort;
    let certs;
    let httpPort;
    /** Writes the agent acknowledged, by id: what must be there at the end. */
    const acknowledged = new Map();
    let stopOthers = false;
    let others = Promise.resolve();
    const otherFailures = [];
    before(async () => {
        certs = tls_1.TestCerts.generate('agent');
        // a plaintext listener and one with TLS, whose negotiation and handshake get fuzzed too
        agent = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: `[api.auth]\ntokens = [{ token = "${TOKEN}", role = "admin" }]\n[[api.pg]]\naddr = "127.0.0.1:0"\n[[api.pg]]\naddr = "127.0.0.1:0"\n[api.pg.tls]\n${certs.pair('agent')}`,
        });
        [pgPort, tlsPort] = (0, pg_1.pgListeners)(agent).map((l) => l.port);
        httpPort = Number(new URL(agent.http).port);
        const seed = Array.from({ length: 50 }, (_, i) => [
            'INSERT INTO ledger (id, amount, note) VALUES (?, ?, ?)',
            [i + 1, (i + 1) * 1000, `seed ${i + 1}`],
        ]);
        strict_1.default.equal((await (0, http_1.postJson)(agent.http, '/v1/transactions', seed, AUTH)).status, 200);
        for (let i = 1; i <= 50; i++)
            acknowledged.set(i, i * 1000);
        // another client keeps writing and reading, over HTTP and PG, all through the fuzz
        others = (async () => {
            const c = (0, pg_1.pgClient)(pgPort, { user: 'other' });
            await c.connect();
            let id = 1000;
            while (!stopOthers) {
                id++;
                try {
                    if (id % 2 === 0) {
                        const r = await (0, http_1.postJson)(agent.http, '/v1/transactions', [['INSERT INTO ledger (id, amount) VALUES (?, ?)', [id, id * 7]]], AUTH);
                        if (r.status === 200)
                            acknowledged.set(id, id * 7);
                        else
                            otherFailures.push(`HTTP write ${id}: ${r.status} ${r.text}`);
                    }
                    else {
                        await c.query('INSERT INTO ledger (id, amount) VALUES ($1, $2)', [id, id * 7]);
                        acknowledged.set(id, id * 7);
                        const back = await c.query('SELECT amount FROM ledger WHERE id = $1', [id]);
                        if (Number(back.rows[0]?.amount) !== id * 7)
                            otherFailures.push(`PG read ${id}: ${JSON.stringify(back.rows)}`);
                    }
                }
                catch (err) {
                    otherFailures.push(`other client ${id}: ${err.message}`);
                }
                await new Promise((r) => setTimeout(r, 20));
            }
            await c.end();
        })();
    });
    after(async () => {
        stopOthers = true;
        await others;
        await agent?.dispose();
        certs?.dispose();
    });
    it('HTTP: random and mutated requests never get a 5xx and never stop the agent', async () => {
        let tried = 0;
        const statuses = new Map();
        const serverErrors = [];
        await fast_check_1.default.assert(fast_check_1.default.asyncProperty(fast_check_1.default.array(fast_check_1.default.oneof({ weight: 3, arbitrary: mutatedRequest }, { weight: 1, arbitrary: randomRequest }), {
            minLength: 4,
            maxLength: 4,
        }), async (batch) => {
            const got = await Promise.all(batch.map((r) => sendRaw(httpPort, r)));
            got.forEach((status, i) => {
                tried++;
                statuses.set(status, (statuses.get(status) ?? 0) + 1);
                if (status >= 500)
                    serverErrors.push(`${status} for ${batch[i].method} ${batch[i].path} ${JSON.stringify(batch[i].headers)} ${JSON.stringify(batch[i].body.toString('latin1'))}`);
            });
            // 5xx answers are collected with their requests (asserted below, where they are printed
            // in full); the property itself only fails when the agent died.
            return agent.proc.exitCode === null;
        }), {
            numRuns: 1_000_000,
            interruptAfterTimeLimit: HTTP_MS,
            markInterruptAsFailure: false,
            seed: Number(process.env.PATINA_FUZZ_SEED ?? Date.now() % 2 ** 31),
        });
        process.stdout.write(`      HTTP fuzz: ${tried} requests tried; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))} (0: closed or still streaming)\n`);
        strict_1.default.deepEqual(serverErrors, []);
        strict_1.default.ok(tried > 100, `only ${tried} requests in ${HTTP_MS} ms`);
        strict_1.default.equal(agent.proc.exitCode, null);
    });
    it('PostgreSQL: random and mutated messages during and after startup never stop the agent', async () => {
        let tried = 0;
        const message = fast_check_1.default.oneof(fast_check_1.default.tuple(fast_check_1.default.constantFrom(...PG_SEEDS), edits).map(([b, e]) => ({ startup: STARTUP, payload: mutate(b, e) })), fast_check_1.default.tuple(fast_check_1.default.constantFrom(...PG_STARTUP_SEEDS), edits).map(([b, e]) => ({ startup: null, payload: mutate(b, e) })), 
        // the TLS listener: an SSLRequest, then a mutated or random would-be handshake
        fast_check_1.default
            .tuple(fast_check_1.default.constantFrom(...PG_STARTUP_SEEDS), edits, bytes(300))
            .map(([b, e, hello]) => ({ startup: null, payload: Buffer.concat([mutate(b, e), hello]), tls: true })), bytes(300).map((hello) => ({ startup: pg_protocol_1.serialize.requestSsl(), payload: hello, tls: true })), bytes(300).map((b) => ({ startup: STARTUP, payload: b })), bytes(64).map((b) => ({ startup: null, payload: b })), fast_check_1.default
            .tuple(fast_check_1.default.constantFrom(...'QPBEDSCHFXpd'.split('')), fast_check_1.default.integer({ min: -5, max: 1 << 20 }), bytes(40))
            .map(([t, len, b]) => {
            const head = Buffer.alloc(5);
            head.write(t);
            head.writeInt32BE(len, 1);
            return { startup: STARTUP, payload: Buffer.concat([head, b]) };
        }));
        await fast_check_1.default.assert(fast_check_1.default.asyncProperty(fast_check_1.default.array(message, { minLength: 8, maxLength: 8 }), async (batch) => {
            await Promise.all(batch.map((m) => sendPg('tls' in m ? tlsPort : pgPort, m.startup, m.payload)));
            tried += batch.length;
            return agent.proc.exitCode === null;
        }), {
            numRuns: 1_000_000,
            interruptAfterTimeLimit: PG_MS,
            markInterruptAsFailure: false,
            seed: Number(process.env.PATINA_FUZZ_SEED ?? Date.now() % 2 ** 31),
        });
        process.stdout.write(`      PostgreSQL fuzz: ${tried} inputs tried\n`);
        strict_1.default.ok(tried > 100, `only ${tried} inputs in ${PG_MS} ms`);
        strict_1.default.equal(agent.proc.exitCode, null);
    });
    it('afterwards: every acknowledged write is there unchanged, and other clients were served throughout', async () => {
        stopOthers = true;
        await others;
        strict_1.default.deepEqual(otherFailures, []);
        const r = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT id, amount FROM ledger ORDER BY id', AUTH);
        strict_1.default.equal(r.status, 200, r.text);
        const rows = new Map(r.lines.slice(1, -1).map((e) => [
            Number(e.row[1][0]),
            Number(e.row[1][1]),
        ]));
        for (const [id, amount] of acknowledged)
            strict_1.default.equal(rows.get(id), amount, `ledger row ${id}`);
        strict_1.default.ok(acknowledged.size > 60, `the other client got only ${acknowledged.size - 50} writes in`);
        const h = await (0, http_1.request)(agent.http, 'GET', '/v1/health');
        strict_1.default.equal(h.status, 200);
        const c = (0, pg_1.pgClient)(pgPort);
        await c.connect();
        strict_1.default.equal(Number((await c.query('SELECT count(*) AS n FROM ledger WHERE id <= 50')).rows[0].n), 50);
        await c.end();
        const t = (0, pg_1.pgClient)(tlsPort, { ssl: { ca: certs.read('ca.crt') } });
        await t.connect();
        strict_1.default.equal(Number((await t.query('SELECT count(*) AS n FROM ledger WHERE id <= 50')).rows[0].n), 50);
        await t.end();
    });
});
//# sourceMappingURL=fuzz.test.js.map