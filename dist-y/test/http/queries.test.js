"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const SCHEMA = `
CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB);
CREATE TABLE kv (k TEXT NOT NULL PRIMARY KEY, v INTEGER);
`;
/** POST raw JSON text (for bodies JSON.stringify cannot write, such as 64-bit integers). */
const postRaw = (base, path, text) => (0, http_1.request)(base, 'POST', path, text);
const COUNT_TO = (n) => `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) SELECT x FROM c`;
const FOREVER = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
function errorOf(res) {
    const j = res.json;
    strict_1.default.equal(typeof j?.error, 'string', `expected a JSON {"error": ...} body, got ${res.text}`);
    strict_1.default.deepEqual(Object.keys(j), ['error'], res.text);
    return j.error;
}
async function count(agent, table) {
    const r = await (0, http_1.postJson)(agent.http, '/v1/queries', `SELECT count(*) FROM ${table}`);
    strict_1.default.equal(r.status, 200, r.text);
    return r.lines[1].row[1][0];
}
describe('POST /v1/queries', () => {
    let agent;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA });
        const w = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
            "INSERT INTO t (id, i, r, s) VALUES (1, 10, 1.5, 'one'), (2, 20, 2.5, 'two'), (3, 30, 3.5, 'three')",
        ]);
        strict_1.default.equal(w.status, 200, w.text);
    });
    after(async () => agent.dispose());
    describe('NDJSON shape', () => {
        it('answers columns, one row per result row with rowids 1..n, then eoq with the time only', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT id, s FROM t ORDER BY id DESC');
            strict_1.default.equal(r.status, 200, r.text);
            strict_1.default.match(String(r.headers['content-type']), /ndjson/);
            strict_1.default.ok(r.text.endsWith('\n'), 'every line ends with a newline');
            for (const ev of r.lines)
                strict_1.default.equal(Object.keys(ev).length, 1, `one key per event: ${JSON.stringify(ev)}`);
            strict_1.default.deepEqual(r.lines[0], { columns: ['id', 's'] });
            strict_1.default.deepEqual(r.lines.slice(1, 4), [
                { row: [1, [3, 'three']] },
                { row: [2, [2, 'two']] },
                { row: [3, [1, 'one']] },
            ]);
            const eoq = r.lines[4];
            strict_1.default.deepEqual(Object.keys(eoq.eoq), ['time'], 'eoq carries time only, no change_id');
            strict_1.default.equal(typeof eoq.eoq.time, 'number');
            strict_1.default.ok(eoq.eoq.time >= 0);
            strict_1.default.equal(r.lines.length, 5);
        });
        it('answers columns and eoq for an empty result', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT id FROM t WHERE id < 0');
            strict_1.default.equal(r.status, 200, r.text);
            strict_1.default.deepEqual(r.lines[0], { columns: ['id'] });
            strict_1.default.ok('eoq' in r.lines[1]);
            strict_1.default.equal(r.lines.length, 2);
        });
        it('numbers rowids 1..n across batches of a larger result', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', COUNT_TO(5000));
            strict_1.default.equal(r.status, 200);
            const rows = r.lines.slice(1, -1);
            strict_1.default.equal(rows.length, 5000);
            rows.forEach((ev, k) => strict_1.default.deepEqual(ev.row, [k + 1, [k + 1]]));
        });
    });
    describe('values', () => {
        it('returns INTEGER, REAL, TEXT and NULL as JSON numbers, strings and null', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT 42, -7, 1.5, \'héllo "q"\n\', NULL, 1e300');
            strict_1.default.equal(r.status, 200, r.text);
            strict_1.default.deepEqual(r.lines[1].row, [1, [42, -7, 1.5, 'héllo "q"\n', null, 1e300]]);
        });
        it('keeps 64-bit integers exact as parameters and in results', async () => {
            const r = await postRaw(agent.http, '/v1/queries', '["SELECT ?, ?, typeof(?), ? - 1", [9223372036854775807, -9223372036854775808, 9223372036854775807, 9223372036854775807]]');
            strict_1.default.equal(r.status, 200, r.text);
            strict_1.default.ok(r.text.includes('[1,[9223372036854775807,-9223372036854775808,"integer",9223372036854775806]]'), r.text);
            const lit = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT 9223372036854775807, -9223372036854775807 - 1, 9007199254740993');
            strict_1.default.ok(lit.text.includes('[9223372036854775807,-9223372036854775808,9007199254740993]'), lit.text);
        });
        it('stores 64-bit integers exactly and reads them back', async () => {
            const w = await postRaw(agent.http, '/v1/transactions', '[["INSERT INTO t (id, i) VALUES (?, ?), (?, ?)", [100, 9223372036854775807, 101, -9223372036854775808]]]');
            strict_1.default.equal(w.status, 200, w.text);
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT id, i FROM t WHERE id >= 100 ORDER BY id');
            strict_1.default.ok(r.text.includes('{"row":[1,[100,9223372036854775807]]}'), r.text);
            strict_1.default.ok(r.text.includes('{"row":[2,[101,-9223372036854775808]]}'), r.text);
            const by = await postRaw(agent.http, '/v1/queries', '["SELECT id FROM t WHERE i = ?", [-9223372036854775808]]');
            strict_1.default.deepEqual(by.lines[1].row, [1, [101]]);
        });
        it('refuses an integer that does not fit 64 bits', async () => {
            const r = await postRaw(agent.http, '/v1/queries', '["SELECT ?", [9223372036854775808]]');
            strict_1.default.equal(r.status, 400, r.text);
            strict_1.default.match(errorOf(r), /64-bit/);
        });
        it('takes and returns BLOBs as arrays of byte values', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', [
                "SELECT ?, typeof(?), length(?), x'00ff10', zeroblob(0)",
                [
                    [0, 1, 255],
                    [0, 1, 255],
                    [0, 1, 255],
                ],
            ]);
            strict_1.default.equal(r.status, 200, r.text);
            strict_1.default.deepEqual(r.lines[1].row, [1, [[0, 1, 255], 'blob', 3, [0, 255, 16], []]]);
            const w = await (0, http_1.postJson)(agent.http, '/v1/transactions', [
                ['INSERT INTO t (id, b) VALUES (?, ?)', [200, [222, 173, 190, 239]]],
            ]);
            strict_1.default.equal(w.status, 200, w.text);
            const back = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT b, hex(b) FROM t WHERE id = ?', [200]]);
            strict_1.default.deepEqual(back.lines[1].row, [1, [[222, 173, 190, 239], 'DEADBEEF']]);
        });
        it('refuses a BLOB array holding something other than bytes', async () => {
            for (const bad of [[256], [-1], [1.5], ['a']]) {
                const r = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT ?', [bad]]);
                strict_1.default.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
                errorOf(r);
            }
        });
    });
    describe('parameters', () => {
        it('binds positional parameters in order', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', [
                'SELECT s FROM t WHERE id = ? OR id = ? ORDER BY id',
                [1, 3],
            ]);
            strict_1.default.deepEqual(r.lines.slice(1, 3), [{ row: [1, ['one']] }, { row: [2, ['three']] }]);
        });
        it('binds named parameters given as [sql, {":name": v}]', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', [
                'SELECT :a + :b, @c, $d',
                { ':a': 1, ':b': 2, '@c': 'x', $d: null },
            ]);
            strict_1.default.equal(r.status, 200, r.text);
            strict_1.default.deepEqual(r.lines[1].row, [1, [3, 'x', null]]);
        });
        it('binds named parameters given as {"query": .., "named_params": ..}', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', {
                query: 'SELECT s FROM t WHERE id = :id',
                named_params: { ':id': 2 },
            });
            strict_1.default.equal(r.status, 200, r.text);
            strict_1.default.deepEqual(r.lines[1].row, [1, ['two']]);
            const p = await (0, http_1.postJson)(agent.http, '/v1/queries', { query: 'SELECT s FROM t WHERE id = ?', params: [3] });
            strict_1.default.deepEqual(p.lines[1].row, [1, ['three']]);
        });
        it('refuses a wrong number of parameters with a 400', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT ?, ?', [1]]);
            strict_1.default.equal(r.status, 400, r.text);
            errorOf(r);
            const missing = await (0, http_1.postJson)(agent.http, '/v1/queries', ['SELECT :a', { ':b': 1 }]);
            strict_1.default.equal(missing.status, 400, missing.text);
        });
    });
    describe('refusals', () => {
        it('refuses writes with a 400 and changes nothing', async () => {
            const before = await count(agent, 't');
            const nullsBefore = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT count(*) FROM t WHERE s IS NULL');
            for (const sql of [
                'INSERT INTO t (id) VALUES (999)',
                'UPDATE t SET s = NULL',
                'DELETE FROM t',
                'INSERT INTO t (id) VALUES (998) RETURNING id',
                'WITH x AS (SELECT 997 AS id) INSERT INTO t (id) SELECT id FROM x',
                "REPLACE INTO kv (k, v) VALUES ('a', 1)",
            ]) {
                const r = await (0, http_1.postJson)(agent.http, '/v1/queries', sql);
                strict_1.default.equal(r.status, 400, `${sql}: ${r.text}`);
                strict_1.default.match(errorOf(r), /transactions|read|write/i, sql);
            }
            strict_1.default.equal(await count(agent, 't'), before);
            strict_1.default.equal(await count(agent, 'kv'), 0);
            const nullsAfter = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT count(*) FROM t WHERE s IS NULL');
            strict_1.default.deepEqual(nullsAfter.lines[1], nullsBefore.lines[1]);
        });
        it('refuses schema and connection statements on the read path', async () => {
            for (const sql of [
                'CREATE TABLE x (a)',
                'DROP TABLE t',
                'PRAGMA user_version = 7',
                "ATTACH 'x.db' AS x",
                'BEGIN',
            ]) {
                const r = await (0, http_1.postJson)(agent.http, '/v1/queries', sql);
                strict_1.default.equal(r.status, 400, `${sql}: ${r.text}`);
                errorOf(r);
            }
            const h = await (0, http_1.request)(agent.http, 'GET', '/v1/health');
            strict_1.default.deepEqual(h.json.tables.sort(), ['kv', 't']);
        });
        it("answers bad SQL with a 400 carrying SQLite's message", async () => {
            const syntax = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELEC 1');
            strict_1.default.equal(syntax.status, 400);
            strict_1.default.match(errorOf(syntax), /near "SELEC": syntax error/);
            const table = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT * FROM nope');
            strict_1.default.equal(table.status, 400);
            strict_1.default.match(errorOf(table), /no such table: nope/);
            const col = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT nope FROM t');
            strict_1.default.equal(col.status, 400);
            strict_1.default.match(errorOf(col), /no such column: nope/);
        });
        it('refuses more than one statement with a 400', async () => {
            for (const sql of ['SELECT 1; SELECT 2', 'SELECT 1; DELETE FROM t']) {
                const r = await (0, http_1.postJson)(agent.http, '/v1/queries', sql);
                strict_1.default.equal(r.status, 400, r.text);
                strict_1.default.match(errorOf(r), /one statement|more than one/i);
            }
            strict_1.default.ok((await count(agent, 't')) > 0);
        });
        it('refuses an empty statement with a 400', async () => {
            for (const sql of ['', '   ', '-- nothing']) {
                const r = await (0, http_1.postJson)(agent.http, '/v1/queries', sql);
                strict_1.default.equal(r.status, 400, `${JSON.stringify(sql)}: ${r.text}`);
                errorOf(r);
            }
        });
        it('refuses bodies of the wrong shape with a 400 or 422', async () => {
            for (const body of [
                '42',
                'null',
                '{}',
                '[]',
                '[1, 2]',
                '["SELECT 1", 5]',
                '["SELECT 1", [], 3]',
                '{"query": 1}',
                '{"sql": "SELECT 1"}',
                'true',
            ]) {
                const r = await postRaw(agent.http, '/v1/queries', body);
                strict_1.default.ok(r.status === 400 || r.status === 422, `${body}: ${r.status} ${r.text}`);
                errorOf(r);
            }
        });
    });
    describe('errors after streaming began', () => {
        it('ends the stream with an {"error"} line when a row fails mid-result', async () => {
            const sql = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000)
                   SELECT CASE WHEN x = 2000 THEN json('bad') ELSE x END AS v FROM c`;
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', sql);
            strict_1.default.equal(r.status, 200, 'the head was already sent');
            strict_1.default.deepEqual(r.lines[0], { columns: ['v'] });
            const rows = r.lines.filter((e) => typeof e === 'object' && e !== null && 'row' in e);
            strict_1.default.equal(rows.length, 1999);
            strict_1.default.deepEqual(rows[1998].row, [1999, [1999]]);
            const last = r.lines[r.lines.length - 1];
            strict_1.default.equal(typeof last.error, 'string', `last line is an error: ${JSON.stringify(last)}`);
            strict_1.default.match(last.error, /malformed JSON/);
            strict_1.default.ok(!r.lines.some((e) => typeof e === 'object' && e !== null && 'eoq' in e), 'no eoq after an error');
        });
        it('answers a 400 when the first row already fails', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', "SELECT json('bad')");
            strict_1.default.equal(r.status, 400, r.text);
            strict_1.default.match(errorOf(r), /malformed JSON/);
        });
    });
    describe('?timeout', () => {
        it('interrupts a query that runs longer, and the agent still answers', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries?timeout=0.3', FOREVER);
            strict_1.default.ok(r.status >= 400 && r.status < 500, `${r.status} ${r.text}`);
            strict_1.default.match(errorOf(r), /timeout|interrupt/i);
            const ok = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT 1');
            strict_1.default.equal(ok.status, 200);
            strict_1.default.deepEqual(ok.lines[1], { row: [1, [1]] });
        });
        it('interrupts a query that is already streaming with an error line', async () => {
            // Each row is slow to compute, so the stream has begun well before the timeout.
            const sql = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
                   SELECT x, (WITH RECURSIVE d(y) AS (SELECT x UNION ALL SELECT y + 1 FROM d WHERE y < x + 3000) SELECT count(*) FROM d) FROM c`;
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries?timeout=1', sql);
            strict_1.default.equal(r.status, 200, r.text);
            const last = r.lines[r.lines.length - 1];
            strict_1.default.match(String(last.error), /timeout|interrupt/i);
            const ok = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT 2');
            strict_1.default.deepEqual(ok.lines[1], { row: [1, [2]] });
        });
        it('sends slow rows as they come, before a batch is full', async () => {
            // Each row takes milliseconds, so 512 of them (one batch) take longer than the timeout.
            const sql = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
                   SELECT x, (WITH RECURSIVE d(y) AS (SELECT x UNION ALL SELECT y + 1 FROM d WHERE y < x + 100000) SELECT count(*) FROM d) FROM c`;
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries?timeout=3', sql);
            strict_1.default.equal(r.status, 200, `rows were on their way before the timeout: ${r.text}`);
            strict_1.default.deepEqual(r.lines[1], { row: [1, [1, 100001]] });
            strict_1.default.match(String(r.lines[r.lines.length - 1].error), /timeout|interrupt/i);
        });
        it('lets a query shorter than the timeout finish', async () => {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries?timeout=30', COUNT_TO(10));
            strict_1.default.equal(r.status, 200);
            strict_1.default.equal(r.lines.length, 12);
        });
        it('refuses a bad timeout value with a 400', async () => {
            for (const t of ['abc', '-1', '0', '', 'Infinity']) {
                const r = await (0, http_1.postJson)(agent.http, `/v1/queries?timeout=${t}`, 'SELECT 1');
                strict_1.default.equal(r.status, 400, `timeout=${t}: ${r.text}`);
                strict_1.default.match(errorOf(r), /timeout/);
            }
        });
    });
});
//# sourceMappingURL=queries.test.js.map