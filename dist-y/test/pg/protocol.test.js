"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The PostgreSQL listener at the protocol level: startup, extended query, errors and edge paths,
// driven with raw sockets and node-postgres's own codec (pg-protocol) against a real agent.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_net_1 = __importDefault(require("node:net"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
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
    let agent;
    let port;
    let readonlyPort;
    let passwordPort;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA, config: CONFIG });
        [port, readonlyPort, passwordPort] = (0, pg_1.pgListeners)(agent).map((l) => l.port);
        const c = await pg_1.RawPg.open(port);
        c.send(pg_1.serialize.query(`INSERT INTO items (id, name, price, ok) VALUES (1, 'a', 1.5, true), (2, 'b', 2, false), (3, 'c', NULL, NULL)`));
        const msgs = await c.until('readyForQuery');
        strict_1.default.equal(msgs.find((m) => m.name === 'commandComplete')?.text, 'INSERT 0 3');
        c.end();
    });
    after(() => agent.dispose());
    it('answers SSLRequest with N, then starts up with parameter statuses and a key for cancelling', async () => {
        const c = await pg_1.RawPg.connect(port);
        c.send(pg_1.serialize.requestSsl());
        const answer = await new Promise((r) => c.socket.once('data', r));
        strict_1.default.equal(answer.toString(), 'N');
        c.listen();
        c.send(pg_1.serialize.startup({ user: 'tester', database: 'db', application_name: 'mocha' }));
        const msgs = await c.until('readyForQuery');
        strict_1.default.equal(msgs[0].name, 'authenticationOk');
        const params = Object.fromEntries(msgs.filter((m) => m.name === 'parameterStatus').map((m) => [m.parameterName, m.parameterValue]));
        strict_1.default.match(params.server_version, /^15\./);
        strict_1.default.equal(params.server_encoding, 'UTF8');
        strict_1.default.equal(params.client_encoding, 'UTF8');
        strict_1.default.equal(params.DateStyle, 'ISO, MDY');
        strict_1.default.equal(params.integer_datetimes, 'on');
        strict_1.default.equal(params.standard_conforming_strings, 'on');
        strict_1.default.equal(params.TimeZone, 'UTC');
        strict_1.default.equal(params.application_name, 'mocha');
        strict_1.default.ok('is_superuser' in params);
        strict_1.default.ok(msgs.some((m) => m.name === 'backendKeyData'));
        strict_1.default.equal(msgs[msgs.length - 1].status, 'I');
        c.end();
    });
    it('runs several statements in one simple query, with their tags', async () => {
        const c = await pg_1.RawPg.open(port);
        c.send(pg_1.serialize.query(`SELECT id FROM items ORDER BY id; UPDATE items SET name = name WHERE id < 3; DELETE FROM items WHERE id = 99; SET application_name = 'x'; SHOW application_name; BEGIN; COMMIT`));
        const msgs = await c.until('readyForQuery');
        strict_1.default.deepEqual(msgs.filter((m) => m.name === 'commandComplete').map((m) => m.text), ['SELECT 3', 'UPDATE 2', 'DELETE 0', 'SET', 'SHOW', 'BEGIN', 'COMMIT']);
        strict_1.default.deepEqual(msgs.filter((m) => m.name === 'dataRow').map((m) => m.fields[0]), ['1', '2', '3', 'x']);
        c.send(pg_1.serialize.query(''));
        strict_1.default.deepEqual((await c.until('readyForQuery')).map((m) => m.name), ['emptyQuery', 'readyForQuery']);
        c.end();
    });
    it('runs the statements of one simple query as one implicit transaction, as PostgreSQL does', async () => {
        const c = await pg_1.RawPg.open(port);
        const ids = async (sql) => {
            c.send(pg_1.serialize.query(sql));
            return (await c.until('readyForQuery')).filter((m) => m.name === 'dataRow').map((m) => m.fields[0]);
        };
        // a later failure rolls back the earlier write of the same message; the session is idle after
        c.send(pg_1.serialize.query(`INSERT INTO items (id, name) VALUES (400, 'x'); SELECT id FROM items WHERE id = 400; INSERT INTO items (id, name) VALUES (401, NULL); INSERT INTO items (id, name) VALUES (402, 'never')`));
        const msgs = await c.until('readyForQuery');
        strict_1.default.deepEqual(msgs.map((m) => m.name), ['commandComplete', 'rowDescription', 'dataRow', 'commandComplete', 'error', 'readyForQuery']);
        strict_1.default.equal(msgs[4].code, '23502');
        strict_1.default.equal(msgs[5].status, 'I');
        strict_1.default.deepEqual(await ids('SELECT id FROM items WHERE id >= 400 ORDER BY id'), []);
        // all succeed: committed together
        await ids(`INSERT INTO items (id, name) VALUES (403, 'a'); UPDATE items SET name = 'b' WHERE id = 403`);
        strict_1.default.deepEqual(await ids(`SELECT name FROM items WHERE id = 403`), ['b']);
        // an explicit COMMIT ends the implicit run: what follows is a run of its own
        c.send(pg_1.serialize.query(`BEGIN; INSERT INTO items (id, name) VALUES (404, 'c'); COMMIT; INSERT INTO items (id, name) VALUES (405, 'd'); SELECT * FROM missing`));
        const m2 = await c.until('readyForQuery');
        strict_1.default.equal(m2.find((m) => m.name === 'error')?.code, '42P01');
        strict_1.default.equal(m2[m2.length - 1].status, 'I');
        strict_1.default.deepEqual(await ids('SELECT id FROM items WHERE id >= 404 ORDER BY id'), ['404']);
        // BEGIN turns the run into an explicit block, which a failure leaves aborted
        c.send(pg_1.serialize.query(`INSERT INTO items (id, name) VALUES (406, 'e'); BEGIN; SELECT * FROM missing`));
        strict_1.default.equal((await c.until('readyForQuery')).pop().status, 'E');
        await ids('ROLLBACK');
        strict_1.default.deepEqual(await ids('SELECT id FROM items WHERE id = 406'), []);
        await ids('DELETE FROM items WHERE id >= 400');
        c.end();
    });
    it('describes statements and portals, and suspends portals at the row limit', async () => {
        const c = await pg_1.RawPg.open(port);
        c.send(Buffer.concat([
            pg_1.serialize.parse({
                name: 's1',
                text: 'SELECT id, name, price, ok FROM items WHERE id >= $1 ORDER BY id',
                types: [],
            }),
            pg_1.serialize.describe({ type: 'S', name: 's1' }),
            pg_1.serialize.bind({ statement: 's1', portal: 'p1', values: ['1'] }),
            pg_1.serialize.describe({ type: 'P', name: 'p1' }),
            pg_1.serialize.execute({ portal: 'p1', rows: 2 }),
            pg_1.serialize.execute({ portal: 'p1', rows: 2 }),
            pg_1.serialize.parse({ name: '', text: 'INSERT INTO items (id, name) VALUES ($1, $2)', types: [] }),
            pg_1.serialize.describe({ type: 'S', name: '' }),
            pg_1.serialize.sync(),
        ]));
        const msgs = await c.until('readyForQuery');
        strict_1.default.deepEqual(msgs.map((m) => m.name), [
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
        ]);
        strict_1.default.deepEqual(msgs[1].dataTypeIDs, [20]);
        strict_1.default.deepEqual(msgs[2].fields.map((f) => f.dataTypeID), [20, 25, 701, 16]);
        strict_1.default.equal(msgs[9].text, 'SELECT 3');
        strict_1.default.deepEqual(msgs[11].dataTypeIDs, [20, 25]);
        strict_1.default.deepEqual(msgs[5].fields, ['1', 'a', '1.5', 't']);
        c.end();
    });
    it('skips messages after an error until Sync, then sends exactly one ReadyForQuery', async () => {
        const c = await pg_1.RawPg.open(port);
        c.send(Buffer.concat([
            pg_1.serialize.parse({ text: 'SELEC oops' }),
            pg_1.serialize.bind({}),
            pg_1.serialize.execute({}),
            pg_1.serialize.sync(),
            pg_1.serialize.parse({ text: 'SELECT 42' }),
            pg_1.serialize.bind({}),
            pg_1.serialize.execute({}),
            pg_1.serialize.sync(),
        ]));
        const first = await c.until('readyForQuery');
        strict_1.default.deepEqual(first.map((m) => m.name), ['error', 'readyForQuery']);
        strict_1.default.equal(first[0].code, '42601');
        const second = await c.until('readyForQuery');
        strict_1.default.deepEqual(second.map((m) => m.name), ['parseComplete', 'bindComplete', 'dataRow', 'commandComplete', 'readyForQuery']);
        c.end();
    });
    it('maps errors to SQLSTATE and reports the transaction state in ReadyForQuery', async () => {
        const c = await pg_1.RawPg.open(port);
        const run = async (sql) => c.send(pg_1.serialize.query(sql));
        const cases = [
            ['SELECT * FROM missing', '42P01'],
            ['SELECT nope FROM items', '42703'],
            ['SELEC 1', '42601'],
            ["INSERT INTO items (id, name) VALUES (1, 'dup')", '23505'],
            ['INSERT INTO items (id, name) VALUES (50, NULL)', '23502'],
            ['CREATE TABLE t (x)', '0A000'],
        ];
        for (const [sql, code] of cases) {
            await run(sql);
            const msgs = await c.until('readyForQuery');
            strict_1.default.equal(msgs.find((m) => m.name === 'error')?.code, code, sql);
            strict_1.default.equal(msgs[msgs.length - 1].status, 'I');
        }
        await run('BEGIN');
        strict_1.default.equal((await c.until('readyForQuery')).pop().status, 'T');
        await run('SELECT * FROM missing');
        strict_1.default.equal((await c.until('readyForQuery')).pop().status, 'E');
        await run('SELECT 1');
        const msgs = await c.until('readyForQuery');
        strict_1.default.equal(msgs.find((m) => m.name === 'error')?.code, '25P02');
        strict_1.default.equal(msgs.pop().status, 'E');
        await run('ROLLBACK');
        const rb = await c.until('readyForQuery');
        strict_1.default.equal(rb.find((m) => m.name === 'commandComplete')?.text, 'ROLLBACK');
        strict_1.default.equal(rb.pop().status, 'I');
        c.end();
    });
    it('sends binary results and takes binary parameters for the common types', async () => {
        const c = await pg_1.RawPg.open(port);
        const int8 = Buffer.alloc(8);
        int8.writeBigInt64BE(2n); // bytes that survive pg-protocol's text decoding of cells
        c.send(Buffer.concat([
            pg_1.serialize.parse({ text: 'SELECT id, name, price, ok FROM items WHERE id = $1', types: [20] }),
            pg_1.serialize.bind({ values: [int8], binary: true, valueMapper: (v) => v }),
            pg_1.serialize.describe({ type: 'P' }),
            pg_1.serialize.execute({}),
            pg_1.serialize.sync(),
        ]));
        const msgs = await c.until('readyForQuery');
        const fields = msgs.find((m) => m.name === 'dataRow').fields;
        strict_1.default.deepEqual(msgs.find((m) => m.name === 'rowDescription').fields.map((f) => f.format), ['binary', 'binary', 'binary', 'binary']);
        // pg-protocol hands binary cells over as 'binary' strings
        const cell = (i) => Buffer.from(fields[i], 'binary');
        strict_1.default.equal(cell(0).readBigInt64BE(0), 2n);
        strict_1.default.equal(cell(1).toString('utf8'), 'b');
        strict_1.default.equal(cell(2).readDoubleBE(0), 2);
        strict_1.default.deepEqual([...cell(3)], [0]);
        c.end();
    });
    it('ends a connection that sends garbage, and goes on serving others', async () => {
        const c = await pg_1.RawPg.open(port);
        c.send(Buffer.from('\x01\x02garbage that is not a message\xff\xff\xff\xff'));
        await c.closedBy();
        const big = await pg_1.RawPg.open(port);
        const header = Buffer.alloc(5);
        header.write('Q');
        header.writeInt32BE(0x7fffffff, 1);
        big.send(header);
        await big.closedBy();
        strict_1.default.equal(big.messages.find((m) => m.name === 'error')?.code, '08P01');
        // a truncated message, then the client goes away
        const t = await pg_1.RawPg.open(port);
        t.send(pg_1.serialize.query('SELECT 1').subarray(0, 7));
        t.socket.destroy();
        // a startup packet that is garbage
        const s = await pg_1.RawPg.connect(port);
        s.listen();
        s.send(Buffer.from([0, 0, 0, 3, 1]));
        await s.closedBy();
        const ok = await pg_1.RawPg.open(port);
        ok.send(pg_1.serialize.query('SELECT count(*) FROM items'));
        const msgs = await ok.until('readyForQuery');
        strict_1.default.equal(msgs.find((m) => m.name === 'commandComplete')?.text, 'SELECT 1');
        ok.end();
    });
    it('cancels a running read with CancelRequest (57014)', async () => {
        const c = await pg_1.RawPg.connect(port);
        c.listen();
        c.send(pg_1.serialize.startup({ user: 'tester', database: 'db' }));
        const start = await c.until('readyForQuery');
        const key = start.find((m) => m.name === 'backendKeyData');
        c.send(pg_1.serialize.query('WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000000) SELECT count(*) FROM n'));
        await new Promise((r) => setTimeout(r, 300));
        const k = await new Promise((resolve) => {
            const s = node_net_1.default.connect(port, '127.0.0.1', () => resolve(s));
        });
        k.write(pg_1.serialize.cancel(key.processID, key.secretKey));
        const msgs = await c.until('readyForQuery', 15000);
        strict_1.default.equal(msgs.find((m) => m.name === 'error')?.code, '57014');
        k.destroy();
        c.send(pg_1.serialize.query('SELECT 1'));
        strict_1.default.ok((await c.until('readyForQuery')).some((m) => m.name === 'dataRow'));
        c.end();
    });
    it('rolls back the transaction of a connection that drops, and frees the writer', async () => {
        const c = await pg_1.RawPg.open(port);
        c.send(pg_1.serialize.query(`BEGIN; INSERT INTO items (id, name) VALUES (100, 'lost')`));
        await c.until('readyForQuery');
        // another session's read does not see the uncommitted row
        const other = await pg_1.RawPg.open(port);
        other.send(pg_1.serialize.query('SELECT count(*) FROM items WHERE id = 100'));
        strict_1.default.equal((await other.until('readyForQuery')).find((m) => m.name === 'dataRow')?.fields?.[0], '0');
        c.socket.destroy();
        other.send(pg_1.serialize.query(`INSERT INTO items (id, name) VALUES (101, 'kept')`));
        const w = await other.until('readyForQuery');
        strict_1.default.equal(w.find((m) => m.name === 'commandComplete')?.text, 'INSERT 0 1');
        other.send(pg_1.serialize.query('SELECT id FROM items WHERE id >= 100'));
        strict_1.default.deepEqual((await other.until('readyForQuery')).filter((m) => m.name === 'dataRow').map((m) => m.fields[0]), ['101']);
        other.end();
    });
    it('commits a BEGIN block as one transaction that its own reads see before COMMIT', async () => {
        const c = (0, pg_1.pgClient)(port);
        await c.connect();
        await c.query('BEGIN');
        await c.query('INSERT INTO items (id, name) VALUES ($1, $2)', [200, 'x']);
        await c.query('SAVEPOINT s1');
        await c.query('INSERT INTO items (id, name) VALUES ($1, $2)', [201, 'y']);
        await c.query('ROLLBACK TO SAVEPOINT s1');
        strict_1.default.deepEqual((await c.query('SELECT id FROM items WHERE id >= 200')).rows, [{ id: '200' }]);
        const res = await (0, http_1.request)(agent.http, 'POST', '/v1/queries', JSON.stringify('SELECT count(*) FROM items WHERE id >= 200'));
        strict_1.default.match(res.text, /"row":\[1,\[0\]\]/);
        await c.query('COMMIT');
        const after = await (0, http_1.request)(agent.http, 'POST', '/v1/queries', JSON.stringify('SELECT count(*) FROM items WHERE id >= 200'));
        strict_1.default.match(after.text, /"row":\[1,\[1\]\]/);
        await c.end();
    });
    it('types a bool parameter selected as an expression as bool (t/f), named as PostgreSQL names it', async () => {
        const c = (0, pg_1.pgClient)(port);
        await c.connect();
        const r = await c.query('SELECT $1::bool, $2::boolean, id = $3 AS same FROM items WHERE id = 1', [true, 'f', 1]);
        strict_1.default.deepEqual(r.fields.map((f) => [f.name, f.dataTypeID]).slice(0, 2), [
            ['bool', 16],
            ['bool', 16],
        ]);
        strict_1.default.equal(r.rows[0].bool, false); // two columns named bool: the second wins, as with PostgreSQL
        const one = await c.query({ text: 'SELECT $1', values: [true], types: undefined });
        strict_1.default.equal(one.rows.length, 1);
        await c.end();
    });
    it('refuses writes on a read-only listener with 25006', async () => {
        const c = (0, pg_1.pgClient)(readonlyPort);
        await c.connect();
        strict_1.default.equal((await c.query('SELECT count(*) AS n FROM items')).rows.length, 1);
        await strict_1.default.rejects(c.query(`INSERT INTO items (id, name) VALUES (300, 'no')`), (e) => e.code === '25006');
        await c.end();
    });
    it('authenticates with SCRAM-SHA-256 when a password is configured', async () => {
        const bad = (0, pg_1.pgClient)(passwordPort, { password: 'wrong' });
        await strict_1.default.rejects(bad.connect(), (e) => e.code === '28P01');
        const good = (0, pg_1.pgClient)(passwordPort, { password: 's3cret' });
        await good.connect();
        strict_1.default.equal((await good.query('SELECT 1 AS one')).rows[0].one, 1);
        await good.end();
    });
    it('stops reading a client that sends queries and leaves the answers unread, and answers them all once it reads', async () => {
        const c = await pg_1.RawPg.open(port);
        c.send(pg_1.serialize.query(`INSERT INTO items (id, name) VALUES (90, '${'x'.repeat(1000)}')`));
        await c.until('readyForQuery');
        c.socket.pause(); // from here the client reads nothing
        // 16,000 point selects of 8 KB (a long comment) answered with 1 KB each: 128 MB of questions, more
        // than the sockets' buffers hold, and 16 MB of answers that the agent would otherwise keep in memory
        const n = 16000;
        const question = pg_1.serialize.query(`SELECT name FROM items WHERE id = 90 -- ${'y'.repeat(8000)}`);
        for (let i = 0; i < n; i++)
            c.socket.write(question);
        await new Promise((r) => setTimeout(r, 2000));
        // the agent answered until its socket was full and then stopped reading: the questions wait with the client
        const unsent = c.socket.writableLength;
        strict_1.default.ok(unsent > 32e6, `the agent read on while its answers were not read (the client has ${unsent} bytes left to send)`);
        c.socket.resume();
        for (let i = 0; i < n; i++) {
            const msgs = await c.until('readyForQuery');
            const row = msgs.find((m) => m.name === 'dataRow');
            strict_1.default.equal(row?.fields?.[0]?.length, 1000);
        }
        c.send(pg_1.serialize.query('DELETE FROM items WHERE id = 90'));
        await c.until('readyForQuery');
        c.end();
    });
    it('serves 500 concurrent connections', async () => {
        const clients = await Promise.all(Array.from({ length: 500 }, () => pg_1.RawPg.open(port)));
        clients.forEach((c, i) => c.send(pg_1.serialize.query(`SELECT ${i} AS n`)));
        const answers = await Promise.all(clients.map(async (c) => (await c.until('readyForQuery', 30000)).find((m) => m.name === 'dataRow')?.fields?.[0]));
        strict_1.default.deepEqual(answers, clients.map((_, i) => String(i)));
        for (const c of clients)
            c.end();
    });
    it('shows tables added by a schema reload without reconnecting', async () => {
        const c = await pg_1.RawPg.open(port);
        c.send(pg_1.serialize.query(`SELECT relname FROM pg_catalog.pg_class WHERE relkind = 'r' ORDER BY 1`));
        strict_1.default.deepEqual((await c.until('readyForQuery')).filter((m) => m.name === 'dataRow').map((m) => m.fields[0]), ['items']);
        node_fs_1.default.appendFileSync(node_path_1.default.join(agent.dir, 'schema.sql'), '\nCREATE TABLE later (k TEXT NOT NULL PRIMARY KEY, v INTEGER);\n');
        const r = await (0, http_1.request)(agent.http, 'POST', '/v1/admin/reload');
        strict_1.default.equal(r.status, 200, r.text);
        c.send(pg_1.serialize.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`));
        strict_1.default.deepEqual((await c.until('readyForQuery')).filter((m) => m.name === 'dataRow').map((m) => m.fields[0]), ['items', 'later']);
        c.end();
    });
});
//# sourceMappingURL=protocol.test.js.map