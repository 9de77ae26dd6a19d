// The PostgreSQL listener at the protocol level: startup, extended query, errors and edge paths,
// driven with raw sockets and node-postgres's own codec (pg-protocol) against a real agent.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { request } from '../helpers/http';
import { RawPg, pgClient, pgListeners, serialize } from '../helpers/pg';

const SCHEMA = `
CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL, ok BOOLEAN, data BLOB);
`;
const CONFIG = `
[[api.pg]]
addr = "127.0.0.1:0"
max_connections = 600 # the 500 concurrent connections below
[[api.pg]]
addr = "127.0.0.1:0"
readonly = true
[[api.pg]]
addr = "127.0.0.1:0"
password = "s3cret"
`;

describe('PostgreSQL wire protocol', function () {
  this.timeout(60000);
  let agent: AgentProcess;
  let port: number;
  let readonlyPort: number;
  let passwordPort: number;

  before(async () => {
    agent = await startAgent({ schema: SCHEMA, config: CONFIG });
    [port, readonlyPort, passwordPort] = pgListeners(agent).map((l) => l.port);
    const c = await RawPg.open(port);
    c.send(
      serialize.query(
        `INSERT INTO items (id, name, price, ok) VALUES (1, 'a', 1.5, true), (2, 'b', 2, false), (3, 'c', NULL, NULL)`,
      ),
    );
    const msgs = await c.until('readyForQuery');
    assert.equal(msgs.find((m) => m.name === 'commandComplete')?.text, 'INSERT 0 3');
    c.end();
  });
  after(() => agent.dispose());

  it('answers SSLRequest with N, then starts up with parameter statuses and a key for cancelling', async () => {
    const c = await RawPg.connect(port);
    c.send(serialize.requestSsl());
    const answer = await new Promise<Buffer>((r) => c.socket.once('data', r));
    assert.equal(answer.toString(), 'N');
    c.listen();
    c.send(serialize.startup({ user: 'tester', database: 'db', application_name: 'mocha' }));
    const msgs = await c.until('readyForQuery');
    assert.equal(msgs[0].name, 'authenticationOk');
    const params = Object.fromEntries(
      msgs.filter((m) => m.name === 'parameterStatus').map((m) => [m.parameterName, m.parameterValue]),
    );
    assert.match(params.server_version as string, /^15\./);
    assert.equal(params.server_encoding, 'UTF8');
    assert.equal(params.client_encoding, 'UTF8');
    assert.equal(params.DateStyle, 'ISO, MDY');
    assert.equal(params.integer_datetimes, 'on');
    assert.equal(params.standard_conforming_strings, 'on');
    assert.equal(params.TimeZone, 'UTC');
    assert.equal(params.application_name, 'mocha');
    assert.ok('is_superuser' in params);
    assert.ok(msgs.some((m) => m.name === 'backendKeyData'));
    assert.equal(msgs[msgs.length - 1].status, 'I');
    c.end();
  });

  it('runs several statements in one simple query, with their tags', async () => {
    const c = await RawPg.open(port);
    c.send(
      serialize.query(
        `SELECT id FROM items ORDER BY id; UPDATE items SET name = name WHERE id < 3; DELETE FROM items WHERE id = 99; SET application_name = 'x'; SHOW application_name; BEGIN; COMMIT`,
      ),
    );
    const msgs = await c.until('readyForQuery');
    assert.deepEqual(
      msgs.filter((m) => m.name === 'commandComplete').map((m) => m.text),
      ['SELECT 3', 'UPDATE 2', 'DELETE 0', 'SET', 'SHOW', 'BEGIN', 'COMMIT'],
    );
    assert.deepEqual(
      msgs.filter((m) => m.name === 'dataRow').map((m) => (m.fields as string[])[0]),
      ['1', '2', '3', 'x'],
    );
    c.send(serialize.query(''));
    assert.deepEqual(
      (await c.until('readyForQuery')).map((m) => m.name),
      ['emptyQuery', 'readyForQuery'],
    );
    c.end();
  });

  it('runs the statements of one simple query as one implicit transaction, as PostgreSQL does', async () => {
    const c = await RawPg.open(port);
    const ids = async (sql: string) => {
      c.send(serialize.query(sql));
      return (await c.until('readyForQuery')).filter((m) => m.name === 'dataRow').map((m) => (m.fields as string[])[0]);
    };
    // a later failure rolls back the earlier write of the same message; the session is idle after
    c.send(
      serialize.query(
        `INSERT INTO items (id, name) VALUES (400, 'x'); SELECT id FROM items WHERE id = 400; INSERT INTO items (id, name) VALUES (401, NULL); INSERT INTO items (id, name) VALUES (402, 'never')`,
      ),
    );
    const msgs = await c.until('readyForQuery');
    assert.deepEqual(
      msgs.map((m) => m.name),
      ['commandComplete', 'rowDescription', 'dataRow', 'commandComplete', 'error', 'readyForQuery'],
    );
    assert.equal(msgs[4].code, '23502');
    assert.equal(msgs[5].status, 'I');
    assert.deepEqual(await ids('SELECT id FROM items WHERE id >= 400 ORDER BY id'), []);
    // all succeed: committed together
    await ids(`INSERT INTO items (id, name) VALUES (403, 'a'); UPDATE items SET name = 'b' WHERE id = 403`);
    assert.deepEqual(await ids(`SELECT name FROM items WHERE id = 403`), ['b']);
    // an explicit COMMIT ends the implicit run: what follows is a run of its own
    c.send(
      serialize.query(
        `BEGIN; INSERT INTO items (id, name) VALUES (404, 'c'); COMMIT; INSERT INTO items (id, name) VALUES (405, 'd'); SELECT * FROM missing`,
      ),
    );
    const m2 = await c.until('readyForQuery');
    assert.equal(m2.find((m) => m.name === 'error')?.code, '42P01');
    assert.equal(m2[m2.length - 1].status, 'I');
    assert.deepEqual(await ids('SELECT id FROM items WHERE id >= 404 ORDER BY id'), ['404']);
    // BEGIN turns the run into an explicit block, which a failure leaves aborted
    c.send(serialize.query(`INSERT INTO items (id, name) VALUES (406, 'e'); BEGIN; SELECT * FROM missing`));
    assert.equal((await c.until('readyForQuery')).pop()!.status, 'E');
    await ids('ROLLBACK');
    assert.deepEqual(await ids('SELECT id FROM items WHERE id = 406'), []);
    await ids('DELETE FROM items WHERE id >= 400');
    c.end();
  });

  it('describes statements and portals, and suspends portals at the row limit', async () => {
    const c = await RawPg.open(port);
    c.send(
      Buffer.concat([
        serialize.parse({
          name: 's1',
          text: 'SELECT id, name, price, ok FROM items WHERE id >= $1 ORDER BY id',
          types: [],
        }),
        serialize.describe({ type: 'S', name: 's1' }),
        serialize.bind({ statement: 's1', portal: 'p1', values: ['1'] }),
        serialize.describe({ type: 'P', name: 'p1' }),
        serialize.execute({ portal: 'p1', rows: 2 }),
        serialize.execute({ portal: 'p1', rows: 2 }),
        serialize.parse({ name: '', text: 'INSERT INTO items (id, name) VALUES ($1, $2)', types: [] }),
        serialize.describe({ type: 'S', name: '' }),
        serialize.sync(),
      ]),
    );
    const msgs = await c.until('readyForQuery');
    assert.deepEqual(
      msgs.map((m) => m.name),
      [
        'parseComplete',
        'parameterDescription',
        'rowDescription',
        'bindComplete',
        'rowDescription',
        'dataRow',
        'dataRow',
        'portalSuspended',
        'dataRow',
        'commandComplete',
        'parseComplete',
        'parameterDescription',
        'noData',
        'readyForQuery',
      ],
    );
    assert.deepEqual(msgs[1].dataTypeIDs, [20]);
    assert.deepEqual(
      (msgs[2].fields as { dataTypeID: number }[]).map((f) => f.dataTypeID),
      [20, 25, 701, 16],
    );
    // (the rows of that Execute, as PostgreSQL's tag counts them after a PortalSuspended)
    assert.equal(msgs[9].text, 'SELECT 1');
    assert.deepEqual(msgs[11].dataTypeIDs, [20, 25]);
    assert.deepEqual(msgs[5].fields, ['1', 'a', '1.5', 't']);
    c.end();
  });

  it('skips messages after an error until Sync, then sends exactly one ReadyForQuery', async () => {
    const c = await RawPg.open(port);
    c.send(
      Buffer.concat([
        serialize.parse({ text: 'SELEC oops' }),
        serialize.bind({}),
        serialize.execute({}),
        serialize.sync(),
        serialize.parse({ text: 'SELECT 42' }),
        serialize.bind({}),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    const first = await c.until('readyForQuery');
    assert.deepEqual(
      first.map((m) => m.name),
      ['error', 'readyForQuery'],
    );
    assert.equal(first[0].code, '42601');
    const second = await c.until('readyForQuery');
    assert.deepEqual(
      second.map((m) => m.name),
      ['parseComplete', 'bindComplete', 'dataRow', 'commandComplete', 'readyForQuery'],
    );
    c.end();
  });

  it('maps errors to SQLSTATE and reports the transaction state in ReadyForQuery', async () => {
    const c = await RawPg.open(port);
    const run = async (sql: string) => c.send(serialize.query(sql));
    const cases: [string, string][] = [
      ['SELECT * FROM missing', '42P01'],
      ['SELECT nope FROM items', '42703'],
      ['SELEC 1', '42601'],
      ["INSERT INTO items (id, name) VALUES (1, 'dup')", '23505'],
      ['INSERT INTO items (id, name) VALUES (50, NULL)', '23502'],
      ['CREATE TABLE t (x)', '0A000'],
      // forms SQLite's parser lacks were 42601 `near "EXTENSION": syntax error`
      ['CREATE EXTENSION IF NOT EXISTS pgcrypto', '0A000'],
      ['CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS x ON items (name)', '0A000'],
      ["COMMENT ON TABLE items IS 'x'", '0A000'],
      ['GRANT SELECT ON items TO PUBLIC', '0A000'],
    ];
    for (const [sql, code] of cases) {
      await run(sql);
      const msgs = await c.until('readyForQuery');
      assert.equal(msgs.find((m) => m.name === 'error')?.code, code, sql);
      assert.equal(msgs[msgs.length - 1].status, 'I');
    }
    await run('BEGIN');
    assert.equal((await c.until('readyForQuery')).pop()!.status, 'T');
    await run('SELECT * FROM missing');
    assert.equal((await c.until('readyForQuery')).pop()!.status, 'E');
    await run('SELECT 1');
    const msgs = await c.until('readyForQuery');
    assert.equal(msgs.find((m) => m.name === 'error')?.code, '25P02');
    assert.equal(msgs.pop()!.status, 'E');
    await run('ROLLBACK');
    const rb = await c.until('readyForQuery');
    assert.equal(rb.find((m) => m.name === 'commandComplete')?.text, 'ROLLBACK');
    assert.equal(rb.pop()!.status, 'I');
    c.end();
  });

  it('sends binary results and takes binary parameters for the common types', async () => {
    const c = await RawPg.open(port);
    const int8 = Buffer.alloc(8);
    int8.writeBigInt64BE(2n); // bytes that survive pg-protocol's text decoding of cells
    c.send(
      Buffer.concat([
        serialize.parse({ text: 'SELECT id, name, price, ok FROM items WHERE id = $1', types: [20] }),
        serialize.bind({ values: [int8], binary: true, valueMapper: (v) => v }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    const msgs = await c.until('readyForQuery');
    const fields = msgs.find((m) => m.name === 'dataRow')!.fields as string[];
    assert.deepEqual(
      (msgs.find((m) => m.name === 'rowDescription')!.fields as { format: string }[]).map((f) => f.format),
      ['binary', 'binary', 'binary', 'binary'],
    );
    // pg-protocol hands binary cells over as 'binary' strings
    const cell = (i: number) => Buffer.from(fields[i], 'binary');
    assert.equal(cell(0).readBigInt64BE(0), 2n);
    assert.equal(cell(1).toString('utf8'), 'b');
    assert.equal(cell(2).readDoubleBE(0), 2);
    assert.deepEqual([...cell(3)], [0]);
    c.end();
  });

  it('ends a connection that sends garbage, and goes on serving others', async () => {
    const c = await RawPg.open(port);
    c.send(Buffer.from('\x01\x02garbage that is not a message\xff\xff\xff\xff'));
    await c.closedBy();
    const big = await RawPg.open(port);
    const header = Buffer.alloc(5);
    header.write('Q');
    header.writeInt32BE(0x7fffffff, 1);
    big.send(header);
    await big.closedBy();
    assert.equal(big.messages.find((m) => m.name === 'error')?.code, '08P01');
    // a truncated message, then the client goes away
    const t = await RawPg.open(port);
    t.send(serialize.query('SELECT 1').subarray(0, 7));
    t.socket.destroy();
    // a startup packet that is garbage
    const s = await RawPg.connect(port);
    s.listen();
    s.send(Buffer.from([0, 0, 0, 3, 1]));
    await s.closedBy();
    const ok = await RawPg.open(port);
    ok.send(serialize.query('SELECT count(*) FROM items'));
    const msgs = await ok.until('readyForQuery');
    assert.equal(msgs.find((m) => m.name === 'commandComplete')?.text, 'SELECT 1');
    ok.end();
  });

  it('cancels a running read with CancelRequest (57014)', async () => {
    const c = await RawPg.connect(port);
    c.listen();
    c.send(serialize.startup({ user: 'tester', database: 'db' }));
    const start = await c.until('readyForQuery');
    const key = start.find((m) => m.name === 'backendKeyData')!;
    c.send(
      serialize.query(
        'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000000) SELECT count(*) FROM n',
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    const k = await new Promise<net.Socket>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(s));
    });
    k.write(serialize.cancel(key.processID as number, key.secretKey as number));
    const msgs = await c.until('readyForQuery', 15000);
    assert.equal(msgs.find((m) => m.name === 'error')?.code, '57014');
    k.destroy();
    c.send(serialize.query('SELECT 1'));
    assert.ok((await c.until('readyForQuery')).some((m) => m.name === 'dataRow'));
    c.end();
  });

  it('rolls back the transaction of a connection that drops, and frees the writer', async () => {
    const c = await RawPg.open(port);
    c.send(serialize.query(`BEGIN; INSERT INTO items (id, name) VALUES (100, 'lost')`));
    await c.until('readyForQuery');
    // another session's read does not see the uncommitted row
    const other = await RawPg.open(port);
    other.send(serialize.query('SELECT count(*) FROM items WHERE id = 100'));
    assert.equal(
      ((await other.until('readyForQuery')).find((m) => m.name === 'dataRow')?.fields as string[] | undefined)?.[0],
      '0',
    );
    c.socket.destroy();
    other.send(serialize.query(`INSERT INTO items (id, name) VALUES (101, 'kept')`));
    const w = await other.until('readyForQuery');
    assert.equal(w.find((m) => m.name === 'commandComplete')?.text, 'INSERT 0 1');
    other.send(serialize.query('SELECT id FROM items WHERE id >= 100'));
    assert.deepEqual(
      (await other.until('readyForQuery')).filter((m) => m.name === 'dataRow').map((m) => (m.fields as string[])[0]),
      ['101'],
    );
    other.end();
  });

  it('commits a BEGIN block as one transaction that its own reads see before COMMIT', async () => {
    const c = pgClient(port);
    await c.connect();
    await c.query('BEGIN');
    await c.query('INSERT INTO items (id, name) VALUES ($1, $2)', [200, 'x']);
    await c.query('SAVEPOINT s1');
    await c.query('INSERT INTO items (id, name) VALUES ($1, $2)', [201, 'y']);
    await c.query('ROLLBACK TO SAVEPOINT s1');
    assert.deepEqual((await c.query('SELECT id FROM items WHERE id >= 200')).rows, [{ id: '200' }]);
    const res = await request(
      agent.http,
      'POST',
      '/v1/queries',
      JSON.stringify('SELECT count(*) FROM items WHERE id >= 200'),
    );
    assert.match(res.text, /"row":\[1,\[0\]\]/);
    await c.query('COMMIT');
    const after = await request(
      agent.http,
      'POST',
      '/v1/queries',
      JSON.stringify('SELECT count(*) FROM items WHERE id >= 200'),
    );
    assert.match(after.text, /"row":\[1,\[1\]\]/);
    await c.end();
  });

  it('types a bool parameter selected as an expression as bool (t/f), named as PostgreSQL names it', async () => {
    const c = pgClient(port);
    await c.connect();
    const r = await c.query('SELECT $1::bool, $2::boolean, id = $3 AS same FROM items WHERE id = 1', [true, 'f', 1]);
    assert.deepEqual(r.fields.map((f) => [f.name, f.dataTypeID]).slice(0, 2), [
      ['bool', 16],
      ['bool', 16],
    ]);
    assert.equal(r.rows[0].bool, false); // two columns named bool: the second wins, as with PostgreSQL
    const one = await c.query({ text: 'SELECT $1', values: [true], types: undefined } as unknown as string);
    assert.equal(one.rows.length, 1);
    await c.end();
  });

  it('refuses writes on a read-only listener with 25006', async () => {
    const c = pgClient(readonlyPort);
    await c.connect();
    assert.equal((await c.query('SELECT count(*) AS n FROM items')).rows.length, 1);
    await assert.rejects(
      c.query(`INSERT INTO items (id, name) VALUES (300, 'no')`),
      (e: { code: string }) => e.code === '25006',
    );
    await c.end();
  });

  it('authenticates with SCRAM-SHA-256 when a password is configured', async () => {
    const bad = pgClient(passwordPort, { password: 'wrong' });
    await assert.rejects(bad.connect(), (e: { code: string }) => e.code === '28P01');
    const good = pgClient(passwordPort, { password: 's3cret' });
    await good.connect();
    assert.equal((await good.query('SELECT 1 AS one')).rows[0].one, 1);
    await good.end();
  });

  it('stops reading a client that sends queries and leaves the answers unread, and answers them all once it reads', async () => {
    const c = await RawPg.open(port);
    c.send(serialize.query(`INSERT INTO items (id, name) VALUES (90, '${'x'.repeat(1000)}')`));
    await c.until('readyForQuery');
    c.socket.pause(); // from here the client reads nothing
    // 16,000 point selects of 8 KB (a long comment) answered with 1 KB each: 128 MB of questions, more
    // than the sockets' buffers hold, and 16 MB of answers that the agent would otherwise keep in memory
    const n = 16000;
    const question = serialize.query(`SELECT name FROM items WHERE id = 90 -- ${'y'.repeat(8000)}`);
    for (let i = 0; i < n; i++) c.socket.write(question);
    await new Promise((r) => setTimeout(r, 2000));
    // the agent answered until its socket was full and then stopped reading: the questions wait with the client
    const unsent = c.socket.writableLength;
    assert.ok(
      unsent > 32e6,
      `the agent read on while its answers were not read (the client has ${unsent} bytes left to send)`,
    );
    c.socket.resume();
    for (let i = 0; i < n; i++) {
      const msgs = await c.until('readyForQuery');
      const row = msgs.find((m) => m.name === 'dataRow') as { fields?: string[] } | undefined;
      assert.equal(row?.fields?.[0]?.length, 1000);
    }
    c.send(serialize.query('DELETE FROM items WHERE id = 90'));
    await c.until('readyForQuery');
    c.end();
  });

  it('serves 500 concurrent connections', async () => {
    const clients = await Promise.all(Array.from({ length: 500 }, () => RawPg.open(port)));
    clients.forEach((c, i) => c.send(serialize.query(`SELECT ${i} AS n`)));
    const answers = await Promise.all(
      clients.map(
        async (c) =>
          (
            (await c.until('readyForQuery', 30000)).find((m) => m.name === 'dataRow')?.fields as string[] | undefined
          )?.[0],
      ),
    );
    assert.deepEqual(
      answers,
      clients.map((_, i) => String(i)),
    );
    for (const c of clients) c.end();
  });

  it('shows tables added by a schema reload without reconnecting', async () => {
    const c = await RawPg.open(port);
    c.send(
      serialize.query(
        `SELECT relname FROM pg_catalog.pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace ORDER BY 1`,
      ),
    );
    assert.deepEqual(
      (await c.until('readyForQuery')).filter((m) => m.name === 'dataRow').map((m) => (m.fields as string[])[0]),
      ['items'],
    );
    fs.appendFileSync(
      path.join(agent.dir, 'schema.sql'),
      '\nCREATE TABLE later (k TEXT NOT NULL PRIMARY KEY, v INTEGER);\n',
    );
    const r = await request(agent.http, 'POST', '/v1/admin/reload');
    assert.equal(r.status, 200, r.text);
    c.send(
      serialize.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`),
    );
    assert.deepEqual(
      (await c.until('readyForQuery')).filter((m) => m.name === 'dataRow').map((m) => (m.fields as string[])[0]),
      ['items', 'later'],
    );
    c.end();
  });
});
