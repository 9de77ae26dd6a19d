"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_net_1 = __importDefault(require("node:net"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const tcp_proxy_1 = require("../helpers/tcp-proxy");
const client_1 = require("../../src/client");
const ROOT = node_path_1.default.resolve(__dirname, '..', '..', '..');
const SCHEMA = `
CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT, score REAL, data BLOB);
CREATE TABLE pairs (a INTEGER NOT NULL, b TEXT NOT NULL, v INTEGER, PRIMARY KEY (a, b));
CREATE TABLE notes (k TEXT NOT NULL PRIMARY KEY, body TEXT);
`;
const BIG = 9223372036854775807n;
const SMALLEST = -9223372036854775808n;
async function rejects(p, check) {
    try {
        await p;
    }
    catch (err) {
        strict_1.default.ok(err instanceof client_1.PatinaError, `expected a PatinaError, got ${String(err)}`);
        check(err);
        return;
    }
    strict_1.default.fail('expected a rejection');
}
/** A port nobody listens on. */
async function closedPort() {
    const s = node_net_1.default.createServer();
    await new Promise((r) => s.listen(0, '127.0.0.1', () => r()));
    const port = s.address().port;
    await new Promise((r) => s.close(r));
    return port;
}
describe('client library (patina/client): queries, transactions, update streams', function () {
    this.timeout(60000);
    let agent;
    let client;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA });
        client = new client_1.PatinaClient({ url: agent.http });
    });
    after(() => agent.dispose());
    it('runs a query as an async iterable of rows, with columns after the first read and the query time at the end', async () => {
        await client.transaction([
            ['INSERT INTO items (id, name, score) VALUES (?, ?, ?)', [1, 'ann', 1.5]],
            "INSERT INTO items (id, name) VALUES (2, 'bob')",
        ]);
        const q = client.query('SELECT id, name, score FROM items ORDER BY id');
        strict_1.default.equal(q.columns, undefined);
        const rows = [];
        for await (const r of q) {
            strict_1.default.deepEqual(q.columns, ['id', 'name', 'score']);
            rows.push(r);
        }
        strict_1.default.deepEqual(rows, [
            [1, 'ann', 1.5],
            [2, 'bob', null],
        ]);
        strict_1.default.equal(typeof q.time, 'number');
        await rejects((async () => {
            for await (const _ of q)
                void _;
        })(), (e) => strict_1.default.match(e.message, /can be read once/));
    });
    it('binds positional and named parameters (with or without their prefix)', async () => {
        strict_1.default.deepEqual((await client.query('SELECT name FROM items WHERE id = ?', [2]).all()).rows, [['bob']]);
        strict_1.default.deepEqual((await client.query('SELECT name FROM items WHERE id = :id AND name = :n', { ':id': 1, n: 'ann' }).all()).rows, [['ann']]);
        strict_1.default.deepEqual((await client.query('SELECT ? + 1, ?', [41, true]).all()).rows, [[42, 1]]);
        // A whole JS number binds as INTEGER, a fraction or real(n) as REAL.
        strict_1.default.deepEqual((await client.query('SELECT typeof(?), typeof(?), typeof(?), ?', [2, 2.5, (0, client_1.real)(2), (0, client_1.real)(2)]).all()).rows, [['integer', 'real', 'real', 2]]);
    });
    it('keeps 64-bit integers exact both ways, as bigint beyond 2^53 or always with integers: "bigint"', async () => {
        await client.transaction([
            ['INSERT INTO items (id, name, data) VALUES (?, ?, ?)', [BIG, 'max', new Uint8Array([0, 1, 255])]],
            ['INSERT INTO items (id, name) VALUES (?, ?)', [SMALLEST, 'min']],
            ['INSERT INTO items (id, name) VALUES (?, ?)', [9007199254740993n, 'past 2^53']],
        ]);
        const { rows } = await client.query('SELECT id, data FROM items WHERE id > 1000 OR id < 0 ORDER BY id').all();
        strict_1.default.deepEqual(rows, [
            [SMALLEST, null],
            [9007199254740993n, null],
            [BIG, [0, 1, 255]],
        ]);
        const exact = new client_1.PatinaClient({ url: agent.http, integers: 'bigint' });
        const r2 = await exact.query('SELECT id, score, name FROM items WHERE id IN (?, ?) ORDER BY id', [1, BIG]).all();
        strict_1.default.deepEqual(r2.rows, [
            [1n, 1.5, 'ann'],
            [BIG, null, 'max'],
        ]);
        // A parameter that would need rounding is never sent rounded: bigint digits go as they are.
        strict_1.default.deepEqual((await client.query('SELECT ? - 1', [BIG]).all()).rows, [[9223372036854775806n]]);
    });
    it("turns refusals into a PatinaError with the agent's message and status", async () => {
        await rejects(client.query('SELEC 1').all(), (e) => {
            strict_1.default.equal(e.kind, 'request');
            strict_1.default.equal(e.status, 400);
            strict_1.default.match(e.message, /syntax error/);
        });
        await rejects(client.query('INSERT INTO items (id) VALUES (99)').all(), (e) => strict_1.default.equal(e.status, 400));
        await rejects(client.query('SELECT :x', { y: 1n }).all(), (e) => strict_1.default.equal(e.status, 400));
        strict_1.default.throws(() => client.query('SELECT ?', [Number.NaN]), /params\[0\] is NaN/);
        // An error after rows began streaming ends the iteration with a 'stream' error.
        const q = client.query('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 200000) SELECT CASE WHEN x < 150000 THEN x ELSE abs(-9223372036854775807 - 1) END FROM c');
        let n = 0;
        await rejects((async () => {
            for await (const _ of q)
                n++;
        })(), (e) => {
            strict_1.default.equal(e.kind, 'stream');
            strict_1.default.match(e.message, /overflow/);
        });
        strict_1.default.ok(n > 0, 'rows came before the error');
        await rejects(client
            .query('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', undefined, {
            timeout: 0.3,
        })
            .all(), (e) => strict_1.default.equal(e.status, 408));
    });
    it('stops reading when the caller breaks out of a large result, and the agent lives on', async () => {
        let n = 0;
        for await (const _ of client.query('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000000) SELECT x, x * 2 FROM c')) {
            if (++n === 10)
                break;
        }
        strict_1.default.equal(n, 10);
        strict_1.default.deepEqual((await client.query('SELECT 7').all()).rows, [[7]]);
    });
    it('runs transactions all or nothing; a refusal names the failing statement', async () => {
        const ok = await client.transaction([
            "INSERT INTO pairs (a, b, v) VALUES (1, 'x', 1)",
            { sql: 'UPDATE pairs SET v = :v WHERE a = 1', params: { v: 5 } },
        ]);
        strict_1.default.deepEqual(ok.results.map((r) => r.rows_affected), [1, 1]);
        strict_1.default.equal(typeof ok.version, 'number');
        strict_1.default.match(String(ok.actor_id), /^[0-9a-f]{32}$/);
        const ret = await client.transaction([
            ['INSERT INTO pairs (a, b, v) VALUES (?, ?, ?) RETURNING a, v', [BIG, 'r', 7]],
        ]);
        strict_1.default.deepEqual(ret.results[0].columns, ['a', 'v']);
        strict_1.default.deepEqual(ret.results[0].rows, [[BIG, 7]]);
        await client.transaction([['DELETE FROM pairs WHERE a = ?', [BIG]]]);
        await rejects(client.transaction(["INSERT INTO pairs (a, b) VALUES (2, 'y')", "INSERT INTO pairs (a, b) VALUES (1, 'x')"]), (e) => {
            strict_1.default.equal(e.status, 409);
            strict_1.default.equal(e.statement, 2);
            strict_1.default.match(e.message, /^statement 2: UNIQUE constraint failed/);
        });
        strict_1.default.deepEqual((await client.query('SELECT count(*) FROM pairs').all()).rows, [[1]], 'the first statement was rolled back');
        await rejects(client.transaction([]), (e) => strict_1.default.match(e.message, /non-empty/));
        await rejects(client.transaction([42]), (e) => strict_1.default.match(e.message, /statement 1/));
    });
    it('sends the token as a bearer header through the given fetch', async () => {
        const seen = [];
        const c = new client_1.PatinaClient({
            url: agent.http + '/',
            token: 's3cret',
            fetch: (input, init) => {
                seen.push(`${init?.method} ${input} ${init?.headers?.authorization}`);
                return fetch(input, init);
            },
        });
        strict_1.default.deepEqual((await c.query('SELECT 1').all()).rows, [[1]]);
        strict_1.default.equal((await c.health()).status, 'ok');
        strict_1.default.deepEqual(seen, [
            `POST ${agent.http}/v1/queries Bearer s3cret`,
            `GET ${agent.http}/v1/health Bearer s3cret`,
        ]);
    });
    it('refuses a bad URL and reports an unreachable agent as a network error', async () => {
        strict_1.default.throws(() => new client_1.PatinaClient({ url: 'localhost:8080' }), /absolute http\(s\) URL/);
        strict_1.default.throws(() => new client_1.PatinaClient({ url: 'ftp://x' }), /absolute http\(s\) URL/);
        strict_1.default.throws(() => new client_1.PatinaClient({ url: agent.http, integers: 'float' }), /integers must be/);
        const port = await closedPort();
        const c = new client_1.PatinaClient({ url: `http://127.0.0.1:${port}` });
        await rejects(c.query('SELECT 1').all(), (e) => {
            strict_1.default.equal(e.kind, 'network');
            strict_1.default.equal(e.status, 0);
            strict_1.default.match(e.message, new RegExp(`cannot reach the agent at http://127.0.0.1:${port}: ECONNREFUSED`));
        });
    });
    it('takes an AbortSignal on every call', async () => {
        const ac = new AbortController();
        const q = client.query('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000000) SELECT x FROM c', undefined, { signal: ac.signal });
        let n = 0;
        await rejects((async () => {
            for await (const _ of q)
                if (++n === 100)
                    ac.abort();
        })(), (e) => strict_1.default.equal(e.kind, 'aborted'));
        await rejects(client.transaction(['SELECT 1'], { signal: AbortSignal.abort() }), (e) => strict_1.default.equal(e.kind, 'aborted'));
        await rejects(client.health({ signal: AbortSignal.abort() }), (e) => strict_1.default.equal(e.kind, 'aborted'));
        const ac2 = new AbortController();
        const sub = client.subscribe('SELECT id, name FROM items', undefined, { signal: ac2.signal });
        await sub.ready;
        setTimeout(() => ac2.abort(), 50);
        await rejects((async () => {
            for await (const _ of sub)
                void _;
        })(), (e) => strict_1.default.equal(e.kind, 'aborted'));
        strict_1.default.ok(sub.closed);
        const ac3 = new AbortController();
        const ups = client.updates('items', { signal: ac3.signal });
        setTimeout(() => ac3.abort(), 200);
        await rejects((async () => {
            for await (const _ of ups)
                void _;
        })(), (e) => strict_1.default.equal(e.kind, 'aborted'));
        strict_1.default.deepEqual((await client.query('SELECT 1').all()).rows, [[1]]);
    });
    it('streams table updates with exact composite keys, and reconnects after a dropped connection', async () => {
        const proxy = await tcp_proxy_1.TcpProxy.listen();
        proxy.setTarget(agent.http.replace('http://', ''));
        try {
            const c = new client_1.PatinaClient({ url: `http://${proxy.addr}` });
            const seen = [];
            const it = c.updates('pairs', { retry: { initialDelayMs: 20 } });
            const reading = (async () => {
                for await (const ev of it) {
                    seen.push(ev);
                    if (ev.type === 'notify' && ev.key[1] === 'last')
                        break;
                }
            })();
            const until = async (pred) => {
                for (let i = 0; i < 200 && !pred(); i++)
                    await new Promise((r) => setTimeout(r, 25));
                strict_1.default.ok(pred(), JSON.stringify(seen, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
            };
            // The stream starts when the request is answered: keep writing until the first notify shows.
            for (let i = 0; seen.length === 0 && i < 100; i++) {
                await client.transaction([['INSERT OR REPLACE INTO pairs (a, b, v) VALUES (?, ?, ?)', [BIG, 'k', i]]]);
                await new Promise((r) => setTimeout(r, 20));
            }
            strict_1.default.deepEqual(seen[0], { type: 'notify', kind: 'update', key: [BIG, 'k'] });
            await client.transaction([['DELETE FROM pairs WHERE a = ?', [BIG]]]);
            await until(() => seen.some((e) => e.type === 'notify' && e.kind === 'delete'));
            proxy.cut();
            await client.transaction([['INSERT INTO pairs (a, b) VALUES (?, ?)', [2, 'lost']]]);
            await new Promise((r) => setTimeout(r, 100));
            proxy.heal(); // closes the connection that lost traffic: the client reconnects
            await until(() => seen.some((e) => e.type === 'gap'));
            await client.transaction([['INSERT INTO pairs (a, b) VALUES (?, ?)', [3, 'last']]]);
            await reading;
            const r = seen.find((e) => e.type === 'gap');
            strict_1.default.equal(r.reason, 'reconnected');
            strict_1.default.equal(r.error?.kind, 'network');
            strict_1.default.deepEqual(seen[seen.length - 1], { type: 'notify', kind: 'update', key: [3, 'last'] });
            await rejects((async () => {
                for await (const _ of c.updates('nope'))
                    void _;
            })(), (e) => {
                strict_1.default.equal(e.status, 404);
                strict_1.default.match(e.message, /table not found in schema: nope/);
            });
        }
        finally {
            await proxy.close();
        }
    });
    it('keeps an update stream for a slow consumer: notifications wait in the client, the agent never cuts it off', async () => {
        const ac = new AbortController();
        const keys = [];
        let markers = 0;
        const gaps = [];
        const total = 20 * 50;
        const reading = (async () => {
            for await (const ev of client.updates('notes', { signal: ac.signal })) {
                if (ev.type === 'gap')
                    gaps.push(ev);
                else if (ev.key[0] === 'marker')
                    markers++;
                else
                    keys.push(String(ev.key[0]).slice(-6));
                await new Promise((r) => setTimeout(r, 1)); // far slower than the agent sends
                if (keys.length === total)
                    return;
            }
        })();
        // The stream starts with the request's answer: one marker write until it shows, then 10 MB of keys.
        for (let i = 0; markers === 0 && i < 100; i++) {
            await client.transaction(["INSERT OR REPLACE INTO notes (k) VALUES ('marker')"]);
            await new Promise((r) => setTimeout(r, 20));
        }
        const pad = 'k'.repeat(10_000);
        for (let t = 0; t < 20; t++) {
            await client.transaction(Array.from({ length: 50 }, (_, i) => ['INSERT INTO notes (k) VALUES (?)', [pad + String(t * 50 + i).padStart(6, '0')]]));
        }
        await reading;
        strict_1.default.equal(gaps.length, 0, 'no notification was lost');
        strict_1.default.deepEqual(keys, Array.from({ length: total }, (_, i) => String(i).padStart(6, '0')));
    });
    it('examples/clients/subscribe.js follows a subscription through the library', async () => {
        const child = (0, node_child_process_1.spawn)(process.execPath, [node_path_1.default.join(ROOT, 'examples', 'clients', 'subscribe.js'), 'SELECT id, name FROM items WHERE id = ?', '4'], { env: { ...process.env, PATINA_URL: agent.http }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        try {
            const until = async (re) => {
                for (let i = 0; i < 200 && !re.test(out); i++)
                    await new Promise((r) => setTimeout(r, 50));
                strict_1.default.match(out, re);
            };
            await until(/initial result: 0 rows \(query id [0-9a-f-]{36}, change id 0\)/);
            await client.transaction(["INSERT INTO items (id, name) VALUES (4, 'dee')"]);
            await until(/insert row 1: \[4,"dee"\] \(change 1, 1 rows\)/);
        }
        finally {
            child.kill();
        }
    });
    it('is importable as patina/client from CommonJS and ESM, with typed declarations, and uses no Node-only module', async () => {
        const cjs = (0, node_child_process_1.execFileSync)(process.execPath, ['-e', "const c = require('patina/client'); console.log(typeof c.PatinaClient, typeof c.PatinaError)"], { cwd: ROOT }).toString();
        strict_1.default.equal(cjs.trim(), 'function function');
        const esm = (0, node_child_process_1.execFileSync)(process.execPath, [
            '--input-type=module',
            '-e',
            "import { PatinaClient } from 'patina/client'; console.log(new PatinaClient({ url: 'http://127.0.0.1:1' }).url)",
        ], { cwd: ROOT }).toString();
        strict_1.default.equal(esm.trim(), 'http://127.0.0.1:1');
        // A consumer project type-checks against the declarations: right use passes, wrong use is caught.
        const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-client-types-'));
        try {
            node_fs_1.default.mkdirSync(node_path_1.default.join(dir, 'node_modules'));
            node_fs_1.default.symlinkSync(ROOT, node_path_1.default.join(dir, 'node_modules', 'patina'));
            node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'tsconfig.json'), JSON.stringify({
                compilerOptions: {
                    module: 'node16',
                    moduleResolution: 'node16',
                    target: 'ES2022',
                    lib: ['ES2022', 'DOM'],
                    types: [],
                    strict: true,
                    noEmit: true,
                    skipLibCheck: false,
                },
                files: ['use.ts'],
            }));
            node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'use.ts'), `import { PatinaClient, PatinaError, type SubscriptionEvent } from 'patina/client';
export async function f(): Promise<number> {
  const c = new PatinaClient({ url: 'http://127.0.0.1:8080', token: 't' });
  const sub = c.subscribe('SELECT 1', [1n]);
  for await (const ev of sub) { const e: SubscriptionEvent = ev; if (e.type === 'change') return e.changeId; }
  try { await c.transaction(['SELECT 1']); } catch (e) { if (e instanceof PatinaError) return e.status; }
  // @ts-expect-error a query takes SQL text
  c.query(42);
  return sub.rows.size;
}
`);
            (0, node_child_process_1.execFileSync)(process.execPath, [node_path_1.default.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], {
                cwd: dir,
                stdio: 'pipe',
            });
        }
        finally {
            node_fs_1.default.rmSync(dir, { recursive: true, force: true });
        }
        // The browser build imports nothing but its own files.
        const esmDir = node_path_1.default.join(ROOT, 'dist', 'client-esm');
        for (const f of node_fs_1.default.readdirSync(esmDir).filter((n) => n.endsWith('.js'))) {
            const text = node_fs_1.default.readFileSync(node_path_1.default.join(esmDir, f), 'utf8');
            for (const m of text.matchAll(/from '([^']+)'/g))
                strict_1.default.match(m[1], /^\.\/[a-z-]+\.js$/, `${f} imports ${m[1]}`);
            strict_1.default.doesNotMatch(text, /require\(|process\.|\bBuffer\b/, f);
        }
    });
});
//# sourceMappingURL=library.test.js.map