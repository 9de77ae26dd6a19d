// What TLS and auth cost: point selects over HTTPS with a bearer token against plain HTTP, and over
// PostgreSQL with TLS against a plaintext listener of the same agent; and PG connection set-up with
// TLS and SCRAM-SHA-256 against plaintext trust. Short runs, rounds alternated, medians printed as
// ratios against the plaintext anchor of the same run.
import https from 'node:https';
import { AgentProcess } from '../test/helpers/agent';
import { postJson } from '../test/helpers/http';
import { pgClient } from '../test/helpers/pg';
import { TestCerts } from '../test/helpers/tls';
import { median, postLoop, report } from './util';

const ROWS = 10_000;
const CONNECTIONS = 8;
const ROUNDS = 3;
const ROUND_MS = 1500;
const CONNECTS = 100;
const SQL = 'SELECT id, v FROM t WHERE id = ?';
const TOKEN = 'bench-token-0123456789abcdef';

/** HTTP point selects per second over keep-alive connections (HTTPS with the bench's CA and token when `tls` is given). */
function driveHttp(base: string, tls: { ca: Buffer } | null, ms: number): Promise<number> {
  const opts = tls ? { https: { ca: tls.ca }, headers: { authorization: `Bearer ${TOKEN}` } } : {};
  return postLoop(
    base,
    '/v1/queries',
    CONNECTIONS,
    ms,
    () => `["${SQL}",[${1 + Math.floor(Math.random() * ROWS)}]]`,
    opts,
  );
}

/** PG point selects per second (extended protocol, prepared) over persistent connections. */
async function drivePg(port: number, extra: Record<string, unknown>, ms: number): Promise<number> {
  const clients = Array.from({ length: CONNECTIONS }, () => pgClient(port, extra));
  await Promise.all(clients.map((c) => c.connect()));
  let done = 0;
  const end = Date.now() + ms;
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      while (Date.now() < end) {
        await c.query({
          text: 'SELECT id, v FROM t WHERE id = $1',
          values: [1 + Math.floor(Math.random() * ROWS)],
          rowMode: 'array',
        });
        done++;
      }
    }),
  );
  const rate = done / ((performance.now() - t0) / 1000);
  await Promise.all(clients.map((c) => c.end()));
  return rate;
}

/** Milliseconds per connection: connect (and authenticate), one SELECT 1, end; one at a time. */
async function connectCost(port: number, extra: Record<string, unknown>): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < CONNECTS; i++) {
    const c = pgClient(port, extra);
    await c.connect();
    await c.query('SELECT 1');
    await c.end();
  }
  return (performance.now() - t0) / CONNECTS;
}

async function main() {
  const certs = TestCerts.generate('agent');
  const schema = 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);\n';
  const plain = new AgentProcess({ schema, config: '[[api.pg]]\naddr = "127.0.0.1:0"\n' });
  const secure = new AgentProcess({
    schema,
    config:
      `[api.tls]\n${certs.pair('agent')}[api.auth]\ntokens = [{ token = "${TOKEN}", role = "read" }, { token = "w-${TOKEN}", role = "write" }]\n` +
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
    if ((await postJson(plain.http, '/v1/transactions', rows)).status !== 200)
      throw new Error('seeding the plain agent failed');
    if ((await postHttps(secure.http, rows, { authorization: `Bearer w-${TOKEN}` }, ca)) !== 200)
      throw new Error('seeding the TLS agent failed');
    const pgPlain = { port: plain.pg!.port, extra: {} };
    const pgTls = { port: secure.pg!.port, extra: { user: 'bench', password: 'bench-pw', ssl: { ca } } };

    const httpRates: number[] = [];
    const httpsRates: number[] = [];
    const pgRates: number[] = [];
    const pgTlsRates: number[] = [];
    await driveHttp(plain.http, null, 300); // warm up both
    await driveHttp(secure.http, { ca }, 300);
    for (let r = 0; r < ROUNDS; r++) {
      httpRates.push(await driveHttp(plain.http, null, ROUND_MS));
      httpsRates.push(await driveHttp(secure.http, { ca }, ROUND_MS));
      pgRates.push(await drivePg(pgPlain.port, pgPlain.extra, ROUND_MS));
      pgTlsRates.push(await drivePg(pgTls.port, pgTls.extra, ROUND_MS));
    }
    report('HTTPS + bearer token point selects/s', median(httpsRates), '/s', 'plain HTTP', median(httpRates));
    report(
      'PG over TLS point selects/s (SCRAM user)',
      median(pgTlsRates),
      '/s',
      'plaintext PG (trust)',
      median(pgRates),
    );
    const connPlain: number[] = [];
    const connTls: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      connPlain.push(await connectCost(pgPlain.port, pgPlain.extra));
      connTls.push(await connectCost(pgTls.port, pgTls.extra));
    }
    report(
      'PG connect + SELECT 1 with TLS and SCRAM-SHA-256',
      median(connTls),
      'ms',
      'plaintext trust',
      median(connPlain),
    );
  } finally {
    await plain.dispose();
    await secure.dispose();
    certs.dispose();
  }
}

function postHttps(base: string, body: unknown, headers: Record<string, string>, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL('/v1/transactions', base),
      { method: 'POST', ca, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
