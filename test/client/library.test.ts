import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { TcpProxy } from '../helpers/tcp-proxy';
import { PatinaClient, PatinaError, type UpdateEvent, real } from '../../src/client';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCHEMA = `
CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT, score REAL, data BLOB);
CREATE TABLE pairs (a INTEGER NOT NULL, b TEXT NOT NULL, v INTEGER, PRIMARY KEY (a, b));
CREATE TABLE notes (k TEXT NOT NULL PRIMARY KEY, body TEXT);
`;
const BIG = 9223372036854775807n;
const SMALLEST = -9223372036854775808n;

async function rejects(p: Promise<unknown>, check: (e: PatinaError) => void): Promise<void> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof PatinaError, `expected a PatinaError, got ${String(err)}`);
    check(err);
    return;
  }
  assert.fail('expected a rejection');
}

/** A port nobody listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('client library (patina/client): queries, transactions, update streams', function () {
  this.timeout(60000);
  let agent: AgentProcess;
  let client: PatinaClient;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA });
    client = new PatinaClient({ url: agent.http });
  });
  after(() => agent.dispose());

  it('runs a query as an async iterable of rows, with columns after the first read and the query time at the end', async () => {
    await client.transaction([
      ['INSERT INTO items (id, name, score) VALUES (?, ?, ?)', [1, 'ann', 1.5]],
      "INSERT INTO items (id, name) VALUES (2, 'bob')",
    ]);
    const q = client.query('SELECT id, name, score FROM items ORDER BY id');
    assert.equal(q.columns, undefined);
    const rows = [];
    for await (const r of q) {
      assert.deepEqual(q.columns, ['id', 'name', 'score']);
      rows.push(r);
    }
    assert.deepEqual(rows, [
      [1, 'ann', 1.5],
      [2, 'bob', null],
    ]);
    assert.equal(typeof q.time, 'number');
    await rejects(
      (async () => {
        for await (const _ of q) void _;
      })(),
      (e) => assert.match(e.message, /can be read once/),
    );
  });

  it('binds positional and named parameters (with or without their prefix)', async () => {
    assert.deepEqual((await client.query('SELECT name FROM items WHERE id = ?', [2]).all()).rows, [['bob']]);
    assert.deepEqual(
      (await client.query('SELECT name FROM items WHERE id = :id AND name = :n', { ':id': 1, n: 'ann' }).all()).rows,
      [['ann']],
    );
    assert.deepEqual((await client.query('SELECT ? + 1, ?', [41, true]).all()).rows, [[42, 1]]);
    // A whole JS number binds as INTEGER, a fraction or real(n) as REAL.
    assert.deepEqual(
      (await client.query('SELECT typeof(?), typeof(?), typeof(?), ?', [2, 2.5, real(2), real(2)]).all()).rows,
      [['integer', 'real', 'real', 2]],
    );
  });

  it('keeps 64-bit integers exact both ways, as bigint beyond 2^53 or always with integers: "bigint"', async () => {
    await client.transaction([
      ['INSERT INTO items (id, name, data) VALUES (?, ?, ?)', [BIG, 'max', new Uint8Array([0, 1, 255])]],
      ['INSERT INTO items (id, name) VALUES (?, ?)', [SMALLEST, 'min']],
      ['INSERT INTO items (id, name) VALUES (?, ?)', [9007199254740993n, 'past 2^53']],
    ]);
    const { rows } = await client.query('SELECT id, data FROM items WHERE id > 1000 OR id < 0 ORDER BY id').all();
    assert.deepEqual(rows, [
      [SMALLEST, null],
      [9007199254740993n, null],
      [BIG, [0, 1, 255]],
    ]);
    const exact = new PatinaClient({ url: agent.http, integers: 'bigint' });
    const r2 = await exact.query('SELECT id, score, name FROM items WHERE id IN (?, ?) ORDER BY id', [1, BIG]).all();
    assert.deepEqual(r2.rows, [
      [1n, 1.5, 'ann'],
      [BIG, null, 'max'],
    ]);
    // A parameter that would need rounding is never sent rounded: bigint digits go as they are.
    assert.deepEqual((await client.query('SELECT ? - 1', [BIG]).all()).rows, [[9223372036854775806n]]);
  });

  it("turns refusals into a PatinaError with the agent's message and status", async () => {
    await rejects(client.query('SELEC 1').all(), (e) => {
      assert.equal(e.kind, 'request');
      assert.equal(e.status, 400);
      assert.match(e.message, /syntax error/);
    });
    await rejects(client.query('INSERT INTO items (id) VALUES (99)').all(), (e) => assert.equal(e.status, 400));
    await rejects(client.query('SELECT :x', { y: 1n }).all(), (e) => assert.equal(e.status, 400));
    assert.throws(() => client.query('SELECT ?', [Number.NaN]), /params\[0\] is NaN/);
    // An error after rows began streaming ends the iteration with a 'stream' error.
    const q = client.query(
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 200000) SELECT CASE WHEN x < 150000 THEN x ELSE abs(-9223372036854775807 - 1) END FROM c',
    );
    let n = 0;
    await rejects(
      (async () => {
        for await (const _ of q) n++;
      })(),
      (e) => {
        assert.equal(e.kind, 'stream');
        assert.match(e.message, /overflow/);
      },
    );
    assert.ok(n > 0, 'rows came before the error');
    await rejects(
      client
        .query('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', undefined, {
          timeout: 0.3,
        })
        .all(),
      (e) => assert.equal(e.status, 408),
    );
  });

  it('stops reading when the caller breaks out of a large result, and the agent lives on', async () => {
    let n = 0;
    for await (const _ of client.query(
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000000) SELECT x, x * 2 FROM c',
    )) {
      if (++n === 10) break;
    }
    assert.equal(n, 10);
    assert.deepEqual((await client.query('SELECT 7').all()).rows, [[7]]);
  });

  it('runs transactions all or nothing; a refusal names the failing statement', async () => {
    const ok = await client.transaction([
      "INSERT INTO pairs (a, b, v) VALUES (1, 'x', 1)",
      { sql: 'UPDATE pairs SET v = :v WHERE a = 1', params: { v: 5 } },
    ]);
    assert.deepEqual(
      ok.results.map((r) => r.rows_affected),
      [1, 1],
    );
    assert.equal(typeof ok.version, 'number');
    assert.match(String(ok.actor_id), /^[0-9a-f]{32}$/);
    const ret = await client.transaction([
      ['INSERT INTO pairs (a, b, v) VALUES (?, ?, ?) RETURNING a, v', [BIG, 'r', 7]],
    ]);
    assert.deepEqual(ret.results[0].columns, ['a', 'v']);
    assert.deepEqual(ret.results[0].rows, [[BIG, 7]]);
    await client.transaction([['DELETE FROM pairs WHERE a = ?', [BIG]]]);
    await rejects(
      client.transaction(["INSERT INTO pairs (a, b) VALUES (2, 'y')", "INSERT INTO pairs (a, b) VALUES (1, 'x')"]),
      (e) => {
        assert.equal(e.status, 409);
        assert.equal(e.statement, 2);
        assert.match(e.message, /^statement 2: UNIQUE constraint failed/);
      },
    );
    assert.deepEqual(
      (await client.query('SELECT count(*) FROM pairs').all()).rows,
      [[1]],
      'the first statement was rolled back',
    );
    await rejects(client.transaction([]), (e) => assert.match(e.message, /non-empty/));
    await rejects(client.transaction([42 as unknown as string]), (e) => assert.match(e.message, /statement 1/));
  });

  it('sends the token as a bearer header through the given fetch', async () => {
    const seen: string[] = [];
    const c = new PatinaClient({
      url: agent.http + '/',
      token: 's3cret',
      fetch: (input, init) => {
        seen.push(`${init?.method} ${input} ${(init?.headers as Record<string, string> | undefined)?.authorization}`);
        return fetch(input, init);
      },
    });
    assert.deepEqual((await c.query('SELECT 1').all()).rows, [[1]]);
    assert.equal((await c.health()).status, 'ok');
    assert.deepEqual(seen, [
      `POST ${agent.http}/v1/queries Bearer s3cret`,
      `GET ${agent.http}/v1/health Bearer s3cret`,
    ]);
  });

  it('refuses a bad URL and reports an unreachable agent as a network error', async () => {
    assert.throws(() => new PatinaClient({ url: 'localhost:8080' }), /absolute http\(s\) URL/);
    assert.throws(() => new PatinaClient({ url: 'ftp://x' }), /absolute http\(s\) URL/);
    assert.throws(() => new PatinaClient({ url: agent.http, integers: 'float' as never }), /integers must be/);
    const port = await closedPort();
    const c = new PatinaClient({ url: `http://127.0.0.1:${port}` });
    await rejects(c.query('SELECT 1').all(), (e) => {
      assert.equal(e.kind, 'network');
      assert.equal(e.status, 0);
      assert.match(e.message, new RegExp(`cannot reach the agent at http://127.0.0.1:${port}: ECONNREFUSED`));
    });
  });

  it('takes an AbortSignal on every call', async () => {
    const ac = new AbortController();
    const q = client.query(
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000000) SELECT x FROM c',
      undefined,
      { signal: ac.signal },
    );
    let n = 0;
    await rejects(
      (async () => {
        for await (const _ of q) if (++n === 100) ac.abort();
      })(),
      (e) => assert.equal(e.kind, 'aborted'),
    );
    await rejects(client.transaction(['SELECT 1'], { signal: AbortSignal.abort() }), (e) =>
      assert.equal(e.kind, 'aborted'),
    );
    await rejects(client.health({ signal: AbortSignal.abort() }), (e) => assert.equal(e.kind, 'aborted'));

    const ac2 = new AbortController();
    const sub = client.subscribe('SELECT id, name FROM items', undefined, { signal: ac2.signal });
    await sub.ready;
    setTimeout(() => ac2.abort(), 50);
    await rejects(
      (async () => {
        for await (const _ of sub) void _;
      })(),
      (e) => assert.equal(e.kind, 'aborted'),
    );
    assert.ok(sub.closed);

    const ac3 = new AbortController();
    const ups = client.updates('items', { signal: ac3.signal });
    setTimeout(() => ac3.abort(), 200);
    await rejects(
      (async () => {
        for await (const _ of ups) void _;
      })(),
      (e) => assert.equal(e.kind, 'aborted'),
    );
    assert.deepEqual((await client.query('SELECT 1').all()).rows, [[1]]);
  });

  it('streams table updates with exact composite keys, and reconnects after a dropped connection', async () => {
    const proxy = await TcpProxy.listen();
    proxy.setTarget(agent.http.replace('http://', ''));
    try {
      const c = new PatinaClient({ url: `http://${proxy.addr}` });
      const seen: UpdateEvent[] = [];
      const it = c.updates('pairs', { retry: { initialDelayMs: 20 } });
      const reading = (async () => {
        for await (const ev of it) {
          seen.push(ev);
          if (ev.type === 'notify' && ev.key[1] === 'last') break;
        }
      })();
      const until = async (pred: () => boolean) => {
        for (let i = 0; i < 200 && !pred(); i++) await new Promise((r) => setTimeout(r, 25));
        assert.ok(
          pred(),
          JSON.stringify(seen, (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
        );
      };
      // The stream starts when the request is answered: keep writing until the first notify shows.
      for (let i = 0; seen.length === 0 && i < 100; i++) {
        await client.transaction([['INSERT OR REPLACE INTO pairs (a, b, v) VALUES (?, ?, ?)', [BIG, 'k', i]]]);
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(seen[0], { type: 'notify', kind: 'update', key: [BIG, 'k'] });
      await client.transaction([['DELETE FROM pairs WHERE a = ?', [BIG]]]);
      await until(() => seen.some((e) => e.type === 'notify' && e.kind === 'delete'));
      proxy.cut();
      await client.transaction([['INSERT INTO pairs (a, b) VALUES (?, ?)', [2, 'lost']]]);
      await new Promise((r) => setTimeout(r, 100));
      proxy.heal(); // closes the connection that lost traffic: the client reconnects
      await until(() => seen.some((e) => e.type === 'gap'));
      await client.transaction([['INSERT INTO pairs (a, b) VALUES (?, ?)', [3, 'last']]]);
      await reading;
      const r = seen.find((e) => e.type === 'gap') as Extract<UpdateEvent, { type: 'gap' }>;
      assert.equal(r.reason, 'reconnected');
      assert.equal(r.error?.kind, 'network');
      assert.deepEqual(seen[seen.length - 1], { type: 'notify', kind: 'update', key: [3, 'last'] });
      await rejects(
        (async () => {
          for await (const _ of c.updates('nope')) void _;
        })(),
        (e) => {
          assert.equal(e.status, 404);
          assert.match(e.message, /table not found in schema: nope/);
        },
      );
    } finally {
      await proxy.close();
    }
  });

  it('keeps an update stream for a slow consumer: notifications wait in the client, the agent never cuts it off', async () => {
    const ac = new AbortController();
    const keys: string[] = [];
    let markers = 0;
    const gaps: UpdateEvent[] = [];
    const total = 20 * 50;
    const reading = (async () => {
      for await (const ev of client.updates('notes', { signal: ac.signal })) {
        if (ev.type === 'gap') gaps.push(ev);
        else if (ev.key[0] === 'marker') markers++;
        else keys.push(String(ev.key[0]).slice(-6));
        await new Promise((r) => setTimeout(r, 1)); // far slower than the agent sends
        if (keys.length === total) return;
      }
    })();
    // The stream starts with the request's answer: one marker write until it shows, then 10 MB of keys.
    for (let i = 0; markers === 0 && i < 100; i++) {
      await client.transaction(["INSERT OR REPLACE INTO notes (k) VALUES ('marker')"]);
      await new Promise((r) => setTimeout(r, 20));
    }
    const pad = 'k'.repeat(10_000);
    for (let t = 0; t < 20; t++) {
      await client.transaction(
        Array.from(
          { length: 50 },
          (_, i) =>
            ['INSERT INTO notes (k) VALUES (?)', [pad + String(t * 50 + i).padStart(6, '0')]] as [string, [string]],
        ),
      );
    }
    await reading;
    assert.equal(gaps.length, 0, 'no notification was lost');
    assert.deepEqual(
      keys,
      Array.from({ length: total }, (_, i) => String(i).padStart(6, '0')),
    );
  });

  it('examples/clients/subscribe.js follows a subscription through the library', async () => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'examples', 'clients', 'subscribe.js'), 'SELECT id, name FROM items WHERE id = ?', '4'],
      { env: { ...process.env, PATINA_URL: agent.http }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      const until = async (re: RegExp) => {
        for (let i = 0; i < 200 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 50));
        assert.match(out, re);
      };
      await until(/initial result: 0 rows \(query id [0-9a-f-]{36}, change id 0\)/);
      await client.transaction(["INSERT INTO items (id, name) VALUES (4, 'dee')"]);
      await until(/insert row 1: \[4,"dee"\] \(change 1, 1 rows\)/);
    } finally {
      child.kill();
    }
  });

  it('is importable as patina/client from CommonJS and ESM, with typed declarations, and uses no Node-only module', async () => {
    const cjs = execFileSync(
      process.execPath,
      ['-e', "const c = require('patina/client'); console.log(typeof c.PatinaClient, typeof c.PatinaError)"],
      { cwd: ROOT },
    ).toString();
    assert.equal(cjs.trim(), 'function function');
    const esm = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { PatinaClient } from 'patina/client'; console.log(new PatinaClient({ url: 'http://127.0.0.1:1' }).url)",
      ],
      { cwd: ROOT },
    ).toString();
    assert.equal(esm.trim(), 'http://127.0.0.1:1');
    // A consumer project type-checks against the declarations: right use passes, wrong use is caught.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-client-types-'));
    try {
      fs.mkdirSync(path.join(dir, 'node_modules'));
      fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'patina'));
      fs.writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
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
        }),
      );
      fs.writeFileSync(
        path.join(dir, 'use.ts'),
        `import { PatinaClient, PatinaError, type SubscriptionEvent } from 'patina/client';
export async function f(): Promise<number> {
  const c = new PatinaClient({ url: 'http://127.0.0.1:8080', token: 't' });
  const sub = c.subscribe('SELECT 1', [1n]);
  for await (const ev of sub) { const e: SubscriptionEvent = ev; if (e.type === 'change') return e.changeId; }
  try { await c.transaction(['SELECT 1']); } catch (e) { if (e instanceof PatinaError) return e.status; }
  // @ts-expect-error a query takes SQL text
  c.query(42);
  return sub.rows.size;
}
`,
      );
      execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], {
        cwd: dir,
        stdio: 'pipe',
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // The browser build imports nothing but its own files.
    const esmDir = path.join(ROOT, 'dist', 'client-esm');
    for (const f of fs.readdirSync(esmDir).filter((n) => n.endsWith('.js'))) {
      const text = fs.readFileSync(path.join(esmDir, f), 'utf8');
      for (const m of text.matchAll(/from '([^']+)'/g)) assert.match(m[1], /^\.\/[a-z-]+\.js$/, `${f} imports ${m[1]}`);
      assert.doesNotMatch(text, /require\(|process\.|\bBuffer\b/, f);
    }
  });
});
