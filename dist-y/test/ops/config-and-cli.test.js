"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const agent_1 = require("../helpers/agent");
const cli_1 = require("../helpers/cli");
const http_1 = require("../helpers/http");
/** An agent started with exactly the arguments given (no --db-path or --api-addr added). */
class BareAgent extends agent_1.AgentProcess {
    #argv;
    constructor(argv, opts = {}) {
        super(opts);
        this.#argv = argv;
    }
    args() {
        return ['agent', ...this.#argv];
    }
}
const TABLE = 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);\n';
describe('config file and flags', () => {
    let dir;
    beforeEach(() => {
        dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-config-'));
        node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'schema.sql'), TABLE);
        node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'other.sql'), 'CREATE TABLE other (id INTEGER NOT NULL PRIMARY KEY);\n');
    });
    afterEach(() => node_fs_1.default.rmSync(dir, { recursive: true, force: true }));
    const config = (text) => {
        const f = node_path_1.default.join(dir, 'patina.toml');
        node_fs_1.default.writeFileSync(f, text);
        return f;
    };
    it('takes [db] path and schema_paths and [api] addr from the TOML file, relative to the file', async () => {
        const f = config('[db]\npath = "data/from-file.db"\nschema_paths = ["schema.sql"]\n\n[api]\naddr = "127.0.0.1:0"\n');
        const a = await new BareAgent(['-c', f], { dir }).start();
        try {
            strict_1.default.match(a.http, /^http:\/\/127\.0\.0\.1:\d+$/);
            strict_1.default.ok(node_fs_1.default.existsSync(node_path_1.default.join(dir, 'data', 'from-file.db')));
            const h = await (0, http_1.request)(a.http, 'GET', '/v1/health');
            strict_1.default.deepEqual(h.json.tables, ['t']);
        }
        finally {
            await a.kill();
        }
    });
    it('lets flags override the file', async () => {
        const f = config('[db]\npath = "file.db"\nschema_paths = ["schema.sql"]\n\n[api]\naddr = "127.0.0.1:1"\n');
        const a = await new BareAgent([
            '-c',
            f,
            '--api-addr',
            '127.0.0.1:0',
            '--db-path',
            node_path_1.default.join(dir, 'flag.db'),
            '--schema',
            node_path_1.default.join(dir, 'other.sql'),
        ], { dir }).start();
        try {
            strict_1.default.doesNotMatch(a.http, /:1$/);
            strict_1.default.ok(node_fs_1.default.existsSync(node_path_1.default.join(dir, 'flag.db')));
            strict_1.default.ok(!node_fs_1.default.existsSync(node_path_1.default.join(dir, 'file.db')));
            const h = await (0, http_1.request)(a.http, 'GET', '/v1/health');
            strict_1.default.deepEqual(h.json.tables, ['other']);
        }
        finally {
            await a.kill();
        }
    });
    it('takes api.body_limit as a size with a unit', async () => {
        const f = config('[db]\nschema_paths = ["schema.sql"]\n[api]\naddr = "127.0.0.1:0"\nbody_limit = "2KiB"\n');
        const a = await new BareAgent(['-c', f, '--db-path', node_path_1.default.join(dir, 'x.db')], { dir }).start();
        try {
            const r = await (0, http_1.postJson)(a.http, '/v1/queries', `SELECT '${'x'.repeat(3000)}'`);
            strict_1.default.equal(r.status, 413);
            const ok = await (0, http_1.postJson)(a.http, '/v1/queries', `SELECT '${'x'.repeat(1500)}'`);
            strict_1.default.equal(ok.status, 200);
        }
        finally {
            await a.kill();
        }
    });
    const invalid = [
        { what: 'an unknown key', toml: '[db]\nnope = 1\n', key: /db\.nope/ },
        { what: 'an unknown section', toml: '[dbx]\npath = "a"\n', key: /dbx/ },
        { what: 'a wrong type', toml: '[api]\naddr = 8080\n', key: /api\.addr/ },
        { what: 'a bad address', toml: '[api]\naddr = "localhost"\n', key: /api\.addr/ },
        { what: 'a port out of range', toml: '[api]\naddr = "127.0.0.1:70000"\n', key: /api\.addr/ },
        { what: 'a path of the wrong type', toml: '[db]\npath = 3\n', key: /db\.path/ },
        { what: 'schema_paths of the wrong type', toml: '[db]\nschema_paths = 3\n', key: /db\.schema_paths/ },
        { what: 'a bad body_limit', toml: '[api]\nbody_limit = "lots"\n', key: /api\.body_limit/ },
        {
            what: 'a bad client_buffer_bytes',
            toml: '[subscriptions]\nclient_buffer_bytes = "lots"\n',
            key: /subscriptions\.client_buffer_bytes/,
        },
        {
            what: 'a max_backlog_rows of 0',
            toml: '[subscriptions]\nmax_backlog_rows = 0\n',
            key: /subscriptions\.max_backlog_rows/,
        },
        {
            what: 'a negative admit_wait_seconds',
            toml: '[subscriptions]\nadmit_wait_seconds = -1\n',
            key: /subscriptions\.admit_wait_seconds/,
        },
        {
            what: 'a [gossip] key the protocol no longer reads, saying what replaced it',
            toml: '[gossip]\npush_ttl = 2\n',
            key: /gossip\.push_ttl: is no longer used: a pushed changeset goes down a tree/,
        },
        { what: 'a TOML syntax error', toml: '[api\naddr = "127.0.0.1:0"\n', key: /patina\.toml/ },
    ];
    for (const c of invalid) {
        it(`refuses ${c.what}, naming the key`, async () => {
            const f = config(c.toml);
            const r = await (0, cli_1.runCli)(['agent', '-c', f, '--db-path', node_path_1.default.join(dir, 'x.db')], { cwd: dir });
            strict_1.default.notEqual(r.code, 0, r.stdout);
            strict_1.default.match(r.stderr, c.key);
            strict_1.default.match(r.stderr, /config/);
            strict_1.default.ok(r.stderr.split('\n').filter((l) => l.trim()).length <= 3, `a short error, not a stack trace: ${r.stderr}`);
        });
    }
    it('refuses a config file that does not exist', async () => {
        const r = await (0, cli_1.runCli)(['agent', '-c', node_path_1.default.join(dir, 'missing.toml')], { cwd: dir });
        strict_1.default.notEqual(r.code, 0);
        strict_1.default.match(r.stderr, /missing\.toml/);
    });
    it('refuses a bad --api-addr flag, naming it', async () => {
        const r = await (0, cli_1.runCli)(['agent', '--api-addr', 'nope', '--db-path', node_path_1.default.join(dir, 'x.db'), '--schema', node_path_1.default.join(dir, 'schema.sql')], { cwd: dir });
        strict_1.default.notEqual(r.code, 0);
        strict_1.default.match(r.stderr, /--api-addr/);
    });
    it('refuses an address already in use with a clear error', async () => {
        const a = await (0, agent_1.startAgent)({ schema: TABLE });
        try {
            const addr = a.http.replace('http://', '');
            const r = await (0, cli_1.runCli)(['agent', '--api-addr', addr, '--db-path', node_path_1.default.join(dir, 'y.db'), '--schema', node_path_1.default.join(dir, 'schema.sql')], { cwd: dir });
            strict_1.default.notEqual(r.code, 0);
            strict_1.default.match(r.stderr, /EADDRINUSE|in use/);
        }
        finally {
            await a.dispose();
        }
    });
});
describe('the patina command', () => {
    let agent;
    let addr;
    before(async () => {
        agent = await (0, agent_1.startAgent)({ schema: TABLE });
        addr = agent.http.replace('http://', '');
    });
    after(async () => agent.dispose());
    for (const cmd of [
        [],
        ['--help'],
        ['agent', '--help'],
        ['query', '--help'],
        ['exec', '--help'],
        ['reload', '--help'],
        ['query', '-h'],
    ]) {
        it(`prints help for \`patina ${cmd.join(' ')}\``, async () => {
            const r = await (0, cli_1.runCli)(cmd);
            strict_1.default.equal(r.code, 0, r.stderr);
            strict_1.default.match(r.stdout, /Usage: patina/);
            if (cmd[0] && cmd[0] !== '--help')
                strict_1.default.match(r.stdout, new RegExp(`patina ${cmd[0]}`));
        });
    }
    it('refuses an unknown command with the usage and exit code 2', async () => {
        const r = await (0, cli_1.runCli)(['frobnicate']);
        strict_1.default.equal(r.code, 2);
        strict_1.default.match(r.stderr, /unknown command "frobnicate"/);
        strict_1.default.match(r.stderr, /Usage: patina/);
    });
    it("refuses an unknown option with the command's usage", async () => {
        const r = await (0, cli_1.runCli)(['query', '--nope', 'SELECT 1']);
        strict_1.default.equal(r.code, 2);
        strict_1.default.match(r.stderr, /Usage: patina query/);
        const a = await (0, cli_1.runCli)(['agent', '--nope']);
        strict_1.default.equal(a.code, 2);
    });
    it('`patina exec` writes with parameters and prints rows affected', async () => {
        const r = await (0, cli_1.runCli)([
            'exec',
            'INSERT INTO t (id, v) VALUES (?, ?), (?, ?)',
            '--param',
            '1',
            '--param',
            'one',
            '--param',
            '9223372036854775807',
            '--param',
            'max',
            '--api-addr',
            addr,
        ]);
        strict_1.default.equal(r.code, 0, r.stderr);
        strict_1.default.match(r.stdout, /rows affected: 2/);
    });
    it('`patina query` prints rows tab-separated, with --columns and --timer', async () => {
        const plain = await (0, cli_1.runCli)(['query', 'SELECT id, v FROM t ORDER BY id', '--api-addr', addr]);
        strict_1.default.equal(plain.code, 0, plain.stderr);
        strict_1.default.equal(plain.stdout, '1\tone\n9223372036854775807\tmax\n');
        const cols = await (0, cli_1.runCli)([
            'query',
            'SELECT id, v FROM t WHERE id = ?',
            '--param',
            '9223372036854775807',
            '--columns',
            '--timer',
            '--api-addr',
            addr,
        ]);
        strict_1.default.equal(cols.code, 0, cols.stderr);
        const lines = cols.stdout.trimEnd().split('\n');
        strict_1.default.equal(lines[0], 'id\tv');
        strict_1.default.equal(lines[1], '9223372036854775807\tmax');
        strict_1.default.match(lines[2], /^Time: \d+\.\d+ s$/);
        strict_1.default.equal(lines.length, 3);
    });
    it('`patina query` prints NULL and BLOBs readably', async () => {
        const r = await (0, cli_1.runCli)(['query', "SELECT NULL, x'0102', 1.5", '--api-addr', addr]);
        strict_1.default.equal(r.code, 0, r.stderr);
        strict_1.default.equal(r.stdout, 'NULL\t[1,2]\t1.5\n');
    });
    it('`patina query` and `patina exec` report refusals and SQL errors with a non-zero exit', async () => {
        const w = await (0, cli_1.runCli)(['query', 'DELETE FROM t', '--api-addr', addr]);
        strict_1.default.notEqual(w.code, 0);
        strict_1.default.match(w.stderr, /patina:/);
        const bad = await (0, cli_1.runCli)(['query', 'SELEC 1', '--api-addr', addr]);
        strict_1.default.notEqual(bad.code, 0);
        strict_1.default.match(bad.stderr, /syntax error/);
        const dup = await (0, cli_1.runCli)(['exec', 'INSERT INTO t (id) VALUES (1)', '--api-addr', addr]);
        strict_1.default.notEqual(dup.code, 0);
        strict_1.default.match(dup.stderr, /UNIQUE constraint failed/);
        const missing = await (0, cli_1.runCli)(['query', '--api-addr', addr]);
        strict_1.default.equal(missing.code, 2);
    });
    it('`patina query` reports an agent it cannot reach', async () => {
        const r = await (0, cli_1.runCli)(['query', 'SELECT 1', '--api-addr', '127.0.0.1:1']);
        strict_1.default.notEqual(r.code, 0);
        strict_1.default.match(r.stderr, /cannot reach/);
    });
    it('`patina reload` reports what it applied', async () => {
        const r = await (0, cli_1.runCli)(['reload', '--api-addr', addr]);
        strict_1.default.equal(r.code, 0, r.stderr);
        strict_1.default.match(r.stdout, /schema reloaded/);
    });
});
describe('shutdown on signals', () => {
    for (const sig of ['SIGTERM', 'SIGINT']) {
        it(`${sig} stops the agent with exit code 0 and closes the database`, async () => {
            const a = await (0, agent_1.startAgent)({ schema: TABLE });
            try {
                const w = await (0, http_1.postJson)(a.http, '/v1/transactions', [
                    [
                        "INSERT INTO t (id, v) SELECT value, 'x' FROM json_each(?)",
                        [JSON.stringify(Array.from({ length: 500 }, (_, i) => i))],
                    ],
                ]);
                strict_1.default.equal(w.status, 200, w.text);
                // A stream in flight must not keep the agent from stopping.
                const s = await (0, http_1.openStream)(a.http, 'POST', '/v1/queries', JSON.stringify('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c'));
                await s.count(2);
                s.res.pause();
                const code = await new Promise((resolve) => {
                    a.proc.once('exit', (c) => resolve(c));
                    a.proc.kill(sig);
                });
                s.close();
                strict_1.default.equal(code, 0, a.output);
                strict_1.default.match(a.output, new RegExp(`${sig}, stopping`));
                const wal = a.dbPath + '-wal';
                strict_1.default.ok(!node_fs_1.default.existsSync(wal) || node_fs_1.default.statSync(wal).size === 0, `the WAL was checkpointed: ${node_fs_1.default.existsSync(wal) ? node_fs_1.default.statSync(wal).size : 0} bytes left`);
                const db = new better_sqlite3_1.default(a.dbPath, { readonly: true });
                try {
                    strict_1.default.equal(db.pragma('integrity_check', { simple: true }), 'ok');
                    strict_1.default.equal(db.prepare('SELECT count(*) FROM t').pluck().get(), 500);
                }
                finally {
                    db.close();
                }
            }
            finally {
                await a.dispose();
            }
        });
    }
    it('finishes writes in flight on SIGTERM', async () => {
        const a = await (0, agent_1.startAgent)({ schema: TABLE });
        try {
            const n = 40;
            const writes = Array.from({ length: n }, (_, i) => (0, http_1.postJson)(a.http, '/v1/transactions', [['INSERT INTO t (id, v) VALUES (?, ?)', [i, 'w']]]).catch(() => null));
            // Signal once the first write is acknowledged, while the others are queued or on their way.
            await writes[0];
            const exited = new Promise((resolve) => a.proc.once('exit', (c) => resolve(c)));
            a.proc.kill('SIGTERM');
            const results = await Promise.all(writes);
            // One signal only: a second one would stop the agent at once (tested in subscriptions-load).
            const code = await exited;
            strict_1.default.equal(code, 0);
            const acked = results.filter((r) => r && r.status === 200).length;
            const db = new better_sqlite3_1.default(a.dbPath, { readonly: true });
            try {
                // Every acknowledged write is there; none is half there.
                strict_1.default.ok(db.prepare('SELECT count(*) FROM t').pluck().get() >= acked);
            }
            finally {
                db.close();
            }
        }
        finally {
            await a.dispose();
        }
    });
});
//# sourceMappingURL=config-and-cli.test.js.map