"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Statements that reach past the user's tables (the agent's own __patina tables, other files, pragmas)
// are refused on every front end: HTTP queries, HTTP transactions, subscriptions, PostgreSQL.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
const SCHEMA = 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);';
/** Reads (the HTTP query and subscription routes, PG) and the writes that carry the same reach. */
const READS = [
    ['SELECT * FROM __patina_meta', /__patina_meta is one of the agent's own tables/],
    ['SELECT count(*) FROM "__patina_clock_t"', /__patina_clock_t is one of the agent's own tables/],
    ['SELECT * FROM main.[__PATINA_META]', /__PATINA_META is one of the agent's own tables/],
    ['SELECT t.id FROM t JOIN __patina_clock_t c ON 1', /own tables/],
    ['PRAGMA table_info(t)', /PRAGMA statements are not accepted/],
    ['pragma user_version', /PRAGMA statements are not accepted/],
    ["SELECT name FROM pragma_table_info('t')", /pragma_table_info \(a pragma\) is not accepted/],
    ['SELECT * FROM PRAGMA_database_list', /pragma_database_list \(a pragma\) is not accepted/],
    ["ATTACH '/tmp/patina-other.db' AS other", /ATTACH statements are not accepted/],
    ['DETACH other', /DETACH statements are not accepted/],
    ["SELECT load_extension('/tmp/x.so')", /load_extension .* is not accepted/],
    ["SELECT readfile('/etc/passwd')", /readfile .* is not accepted/],
    ["SELECT writefile('/tmp/x', 'y')", /writefile .* is not accepted/],
    ['SELECT * FROM sqlite_dbpage', /sqlite_dbpage .* is not accepted/],
];
const WRITES = [
    ['INSERT INTO t (id, v) SELECT 1, value FROM __patina_meta', /own tables/],
    ["INSERT INTO t (id, v) VALUES (1, readfile('/etc/passwd'))", /readfile .* is not accepted/],
    ["UPDATE t SET v = (SELECT name FROM pragma_table_info('t'))", /pragma_table_info \(a pragma\) is not accepted/],
    ["DELETE FROM t WHERE v = load_extension('x')", /load_extension .* is not accepted/],
    ["ATTACH 'x.db' AS x", /ATTACH statements are not accepted/],
    ['PRAGMA journal_mode = DELETE', /PRAGMA statements are not accepted/],
];
describe('statements reaching past the user tables are refused on every front end', function () {
    this.timeout(60000);
    let agent;
    let port;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
        port = agent.pg.port;
        strict_1.default.equal((await (0, http_1.postJson)(agent.http, '/v1/transactions', ["INSERT INTO t (id, v) VALUES (7, 'kept')"])).status, 200);
    });
    after(() => agent?.dispose());
    it('HTTP queries: 400 with an error naming what is refused', async () => {
        for (const [sql, message] of READS) {
            const r = await (0, http_1.postJson)(agent.http, '/v1/queries', sql);
            strict_1.default.equal(r.status, 400, `${sql}: ${r.text}`);
            strict_1.default.match(r.json.error, message, sql);
        }
    });
    it('HTTP transactions: 400, nothing applied', async () => {
        for (const [sql, message] of [...WRITES, ...READS.filter(([s]) => !s.startsWith('SELECT'))]) {
            const r = await (0, http_1.postJson)(agent.http, '/v1/transactions', ["UPDATE t SET v = 'changed' WHERE id = 7", sql]);
            strict_1.default.equal(r.status, 400, `${sql}: ${r.text}`);
            strict_1.default.match(JSON.stringify(r.json), message, sql);
        }
        const rows = await (0, http_1.postJson)(agent.http, '/v1/queries', 'SELECT v FROM t WHERE id = 7');
        strict_1.default.match(rows.text, /"kept"/);
    });
    it('subscriptions: 400, no subscription made', async () => {
        for (const [sql, message] of READS) {
            const r = await (0, http_1.postJson)(agent.http, '/v1/subscriptions', sql);
            strict_1.default.equal(r.status, 400, `${sql}: ${r.text}`);
            strict_1.default.match(r.json.error, message, sql);
        }
    });
    it('PostgreSQL, simple and extended query: 42501 with the same words, and the session goes on', async () => {
        const c = (0, pg_1.pgClient)(port);
        await c.connect();
        try {
            for (const [sql, message] of [...READS, ...WRITES]) {
                await strict_1.default.rejects(c.query(sql), (err) => {
                    strict_1.default.match(err.message, message, sql);
                    strict_1.default.equal(err.code, '42501', `${sql}: ${err.message}`);
                    return true;
                });
                await strict_1.default.rejects(c.query({ text: sql, values: [], rowMode: 'array' }), message);
            }
            strict_1.default.equal((await c.query('SELECT v FROM t WHERE id = 7')).rows[0].v, 'kept');
        }
        finally {
            await c.end();
        }
        const r = (0, pg_1.psql)(port, ['SELECT * FROM __patina_meta']);
        strict_1.default.match(r.stderr, /ERROR: {2}__patina_meta is one of the agent's own tables and is not accepted/);
    });
    it("PostgreSQL: text PostgreSQL's parser refuses gets its 42601 and words, simple and extended, and the session goes on", async () => {
        // PostgreSQL 15's answers to the same text
        const SYNTAX = [
            ['SELECT ::int', 'syntax error at or near "::"'],
            ['SELECT 1, ::int FROM t', 'syntax error at or near "::"'],
            ['SELECT id::', 'syntax error at end of input'],
            ['SELECT ARRAY[1,2', 'syntax error at end of input'],
            ['SELECT ARRAY[1,2 FROM t', 'syntax error at or near "FROM"'],
            ['SELECT id FROM t WHERE id = ANY(ARRAY[7]', 'syntax error at end of input'],
            ['SELECT abs(id).v::int FROM t', 'syntax error at or near "."'],
        ];
        const c = (0, pg_1.pgClient)(port);
        await c.connect();
        try {
            for (const [sql, message] of SYNTAX) {
                const simple = () => c.query(sql);
                const extended = () => c.query({ text: sql, rowMode: 'array', queryMode: 'extended' });
                for (const query of [simple, extended]) {
                    await strict_1.default.rejects(query(), (err) => {
                        strict_1.default.equal(err.message, message, sql);
                        strict_1.default.equal(err.code, '42601', `${sql}: ${err.message}`);
                        return true;
                    });
                    strict_1.default.equal((await c.query('SELECT v FROM t WHERE id = 7')).rows[0].v, 'kept', sql);
                }
            }
            // the cast after ')' takes the whole call as its operand
            const r = await c.query('SELECT abs(id)::text AS a, upper(v)::varchar AS u, ARRAY[id, 8]::text AS arr FROM t WHERE id = 7');
            strict_1.default.deepEqual(r.rows, [{ a: '7', u: 'KEPT', arr: '{7,8}' }]);
        }
        finally {
            await c.end();
        }
    });
    it('no file was attached or written', () => {
        strict_1.default.equal(node_fs_1.default.existsSync('/tmp/patina-other.db') && node_fs_1.default.statSync('/tmp/patina-other.db').mtimeMs > Date.now() - 60000, false);
        strict_1.default.equal(node_fs_1.default.existsSync(node_path_1.default.join(agent.dir, 'x.db')), false);
    });
});
//# sourceMappingURL=refused-statements.test.js.map