"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// What TLS and auth cost: point selects over HTTPS with a bearer token against plain HTTP, and over
// PostgreSQL with TLS against a plaintext listener of the same agent; and PG connection set-up with
// TLS and SCRAM-SHA-256 against plaintext trust. Short runs, rounds alternated, medians printed as
// ratios against the plaintext anchor of the same run.
const node_https_1 = __importDefault(require("node:https"));
const agent_1 = require("../test/helpers/agent");
const http_1 = require("../test/helpers/http");
const pg_1 = require("../test/helpers/pg");
const tls_1 = require("../test/helpers/tls");
const util_1 = require("./util");
const ROWS = 10_000;
const CONNECTIONS = 8;
const ROUNDS = 3;
const ROUND_MS = 1500;
const CONNECTS = 100;
const SQL = 'SELECT id, v FROM t WHERE id = ?';
const TOKEN = 'bench-token-0123456789abcdef';
/** HTTP point selects per second over keep-alive connections (HTTPS with the bench's CA and token when `tls` is given). */
function driveHttp(base, tls, ms) {
    const opts = tls ? { https: { ca: tls.ca }, headers: { authorization: `Bearer ${TOKEN}` } } : {};
    return (0, util_1.postLoop)(base, '/v1/queries', CONNECTIONS, ms, () => `["${SQL}",[${1 + Math.floor(Math.random() * ROWS)}]]`, opts);
}
/** PG point selects per second (extended protocol, prepared) over persistent connections. */
async function drivePg(port, extra, ms) {
    const clients = Array.from({ length: CONNECTIONS }, () => (0, pg_1.pgClient)(port, extra));
    await Promise.all(clients.map((c) => c.connect()));
    let done = 0;
    const end = Date.now() + ms;
    const t0 = performance.now();
    await Promise.all(clients.map(async (c) => {
        while (Date.now() < end) {
            await c.query({
                text: 'SELECT id, v FROM t WHERE id = $1',
                values: [1 + Math.floor(Math.random() * ROWS)],
                rowMode: 'array',
            });
            done++;
        }
    }));
    const rate = done / ((performance.now() - t0) / 1000);
    await Promise.all(clients.map((c) => c.end()));
    return rate;
}
/** Milliseconds per connection: connect (and authenticate), one SELECT 1, end; one at a time. */
async function connectCost(port, extra) {
    const t0 = performance.now();
    for (let i = 0; i < CONNECTS; i++) {
        const c = (0, pg_1.pgClient)(port, extra);
        await c.connect();
        await c.query('SELECT 1');
        await c.end();
    }
    return (performance.now() - t0) / CONNECTS;
}
async function main() {
    const certs = tls_1.TestCerts.generate('agent');
    const schema = 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);\n';
    const plain = new agent_1.AgentProcess({ schema, config: '[[api.pg]]\naddr = "127.0.0.1:0"\n' });
    const secure = new agent_1.AgentProcess({
        schema,
        config: `[api.tls]\n${certs.pair('agent')}[api.auth]\ntokens = [{ token = "${TOKEN}", role = "read" }, { token = "w-${TOKEN}", role = "write" }]\n` +
            `[[api.pg]]\naddr = "127.0.0.1:0"\nrequire_tls = true\n[api.pg.tls]\n${certs.pair('agent')}[[api.pg.users]]\nname = "bench"\npassword = "bench-pw"\nrole = "read"\n`,
    });
    try {
        await plain.start();
        await secure.start();
        const ca = certs.read('ca.crt');
        const rows = Array.from({ length: ROWS }, (_, i) => [
            `INSERT INTO t (id, v) VALUES (?, ?)`,
            [i + 1, `value ${i + 1}`],
        ]);
        if ((await (0, http_1.postJson)(plain.http, '/v1/transactions', rows)).status !== 200)
            throw new Error('seeding the plain agent failed');
        if ((await postHttps(secure.http, rows, { authorization: `Bearer w-${TOKEN}` }, ca)) !== 200)
            throw new Error('seeding the TLS agent failed');
        const pgPlain = { port: plain.pg.port, extra: {} };
        const pgTls = { port: secure.pg.port, extra: { user: 'bench', password: 'bench-pw', ssl: { ca } } };
        const httpRates = [];
        const httpsRates = [];
        const pgRates = [];
        const pgTlsRates = [];
        await driveHttp(plain.http, null, 300); // warm up both
        await driveHttp(secure.http, { ca }, 300);
        for (let r = 0; r < ROUNDS; r++) {
            httpRates.push(await driveHttp(plain.http, null, ROUND_MS));
            httpsRates.push(await driveHttp(secure.http, { ca }, ROUND_MS));
            pgRates.push(await drivePg(pgPlain.port, pgPlain.extra, ROUND_MS));
            pgTlsRates.push(await drivePg(pgTls.port, pgTls.extra, ROUND_MS));
        }
        (0, util_1.report)('HTTPS + bearer token point selects/s', (0, util_1.median)(httpsRates), '/s', 'plain HTTP', (0, util_1.median)(httpRates));
        (0, util_1.report)('PG over TLS point selects/s (SCRAM user)', (0, util_1.median)(pgTlsRates), '/s', 'plaintext PG (trust)', (0, util_1.median)(pgRates));
        const connPlain = [];
        const connTls = [];
        for (let r = 0; r < ROUNDS; r++) {
            connPlain.push(await connectCost(pgPlain.port, pgPlain.extra));
            connTls.push(await connectCost(pgTls.port, pgTls.extra));
        }
        (0, util_1.report)('PG connect + SELECT 1 with TLS and SCRAM-SHA-256', (0, util_1.median)(connTls), 'ms', 'plaintext trust', (0, util_1.median)(connPlain));
    }
    finally {
        await plain.dispose();
        await secure.dispose();
        certs.dispose();
    }
}
function postHttps(base, body, headers, ca) {
    return new Promise((resolve, reject) => {
        const req = node_https_1.default.request(new URL('/v1/transactions', base), { method: 'POST', ca, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(JSON.stringify(body));
    });
}
void main().then(() => process.exit(0), (err) => {
    console.error(err);
    process.exit(1);
});
//# sourceMappingURL=security.bench.js.map