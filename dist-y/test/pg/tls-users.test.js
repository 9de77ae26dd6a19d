"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// PostgreSQL over TLS (SSLRequest answered S) and named users with roles, with real clients: psql
// (sslmode=require and verify-full), node-postgres, postgres.js, psycopg2 and psqlODBC.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const postgres_1 = __importDefault(require("postgres"));
const agent_1 = require("../helpers/agent");
const http_1 = require("../helpers/http");
const pg_1 = require("../helpers/pg");
const tls_1 = require("../helpers/tls");
const SCHEMA = 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);';
const PYTHON = '/usr/bin/python3';
const READER_PASSWORD = 'reader-pw-71c3';
const WRITER_PASSWORD = 'writer-pw-0d9a';
describe('PostgreSQL TLS and users', function () {
    this.timeout(60000);
    let certs;
    let agent;
    let port;
    let writerFile;
    before(async () => {
        certs = tls_1.TestCerts.generate('agent1');
        agent = new agent_1.AgentProcess({ schema: SCHEMA });
        writerFile = node_path_1.default.join(agent.dir, 'writer.password');
        node_fs_1.default.writeFileSync(writerFile, WRITER_PASSWORD + '\n');
        agent.opts.config = certs.pgListener('agent1', [
            { name: 'reader', role: 'read', secret: `password = "${READER_PASSWORD}"` },
            { name: 'writer', role: 'write', secret: 'password_file = "writer.password"' },
        ]);
        await agent.start();
        port = agent.pg.port;
    });
    after(async () => {
        await agent?.dispose();
        certs?.dispose();
    });
    const ca = () => certs.file('ca.crt');
    it('psql connects with sslmode=require and verify-full; a reader gets 25006 on writes', () => {
        const w = (0, pg_1.psql)(port, ["INSERT INTO items (id, name) VALUES (1, 'one')", 'SELECT name FROM items', 'SHOW ssl'], ['-A', '-t', '-U', 'writer'], { PGSSLMODE: 'verify-full', PGSSLROOTCERT: ca(), PGPASSWORD: WRITER_PASSWORD });
        strict_1.default.equal(w.status, 0, w.stderr);
        strict_1.default.match(w.stdout, /^INSERT 0 1\none\non\n$/);
        const r = (0, pg_1.psql)(port, ['SELECT count(*) FROM items'], ['-A', '-t', '-U', 'reader'], {
            PGSSLMODE: 'require',
            PGPASSWORD: READER_PASSWORD,
        });
        strict_1.default.equal(r.status, 0, r.stderr);
        strict_1.default.equal(r.stdout, '1\n');
        const denied = (0, pg_1.psql)(port, ["INSERT INTO items (id, name) VALUES (2, 'two')"], ['-U', 'reader', '-v', 'VERBOSITY=verbose'], { PGSSLMODE: 'require', PGPASSWORD: READER_PASSWORD });
        strict_1.default.notEqual(denied.status, 0);
        strict_1.default.match(denied.stderr, /ERROR: {2}25006: cannot execute INSERT in a read-only transaction/);
    });
    it('verify-full refuses a server whose certificate another CA signed', () => {
        const other = tls_1.TestCerts.generate('stranger');
        try {
            const r = (0, pg_1.psql)(port, ['SELECT 1'], ['-U', 'writer'], {
                PGSSLMODE: 'verify-full',
                PGSSLROOTCERT: other.file('ca.crt'),
                PGPASSWORD: WRITER_PASSWORD,
            });
            strict_1.default.notEqual(r.status, 0);
            strict_1.default.match(r.stderr, /certificate verify failed/);
        }
        finally {
            other.dispose();
        }
    });
    it('require_tls refuses plaintext with the error PostgreSQL sends (28000, no pg_hba.conf entry ... no encryption)', async () => {
        const r = (0, pg_1.psql)(port, ['SELECT 1'], ['-U', 'writer'], { PGSSLMODE: 'disable', PGPASSWORD: WRITER_PASSWORD });
        strict_1.default.notEqual(r.status, 0);
        strict_1.default.match(r.stderr, /FATAL: {2}no pg_hba\.conf entry for host "127\.0\.0\.1", user "writer", database "db", no encryption/);
        const c = (0, pg_1.pgClient)(port, { user: 'writer', password: WRITER_PASSWORD, ssl: false });
        await strict_1.default.rejects(c.connect(), (err) => err.code === '28000');
    });
    it('a wrong password or an unknown user gets 28P01 as PostgreSQL words it', async () => {
        for (const user of ['writer', 'nobody']) {
            const c = (0, pg_1.pgClient)(port, { user, password: 'wrong', ssl: { ca: node_fs_1.default.readFileSync(ca()) } });
            await strict_1.default.rejects(c.connect(), (err) => {
                strict_1.default.equal(err.code, '28P01');
                strict_1.default.equal(err.message, `password authentication failed for user "${user}"`);
                strict_1.default.ok(!err.message.includes(WRITER_PASSWORD));
                return true;
            });
        }
        const r = (0, pg_1.psql)(port, ['SELECT 1'], ['-U', 'writer'], { PGSSLMODE: 'require', PGPASSWORD: 'wrong' });
        strict_1.default.match(r.stderr, /FATAL: {2}password authentication failed for user "writer"/);
    });
    it('node-postgres connects over TLS with the CA; a reader gets 25006', async () => {
        const w = (0, pg_1.pgClient)(port, {
            user: 'writer',
            password: WRITER_PASSWORD,
            ssl: { ca: node_fs_1.default.readFileSync(ca()), servername: 'localhost' },
        });
        await w.connect();
        await w.query('INSERT INTO items (id, name) VALUES ($1, $2)', [3, 'three']);
        await w.end();
        const r = (0, pg_1.pgClient)(port, { user: 'reader', password: READER_PASSWORD, ssl: { ca: node_fs_1.default.readFileSync(ca()) } });
        await r.connect();
        strict_1.default.equal((await r.query('SELECT name FROM items WHERE id = $1', [3])).rows[0].name, 'three');
        await strict_1.default.rejects(r.query('DELETE FROM items'), (err) => err.code === '25006');
        await r.end();
    });
    it('postgres.js connects over TLS', async () => {
        const sql = (0, postgres_1.default)({
            host: '127.0.0.1',
            port,
            user: 'writer',
            password: WRITER_PASSWORD,
            database: 'db',
            ssl: { ca: node_fs_1.default.readFileSync(ca()) },
            max: 1,
        });
        try {
            const rows = await sql `SELECT name FROM items WHERE id = ${1}`;
            strict_1.default.equal(rows[0].name, 'one');
        }
        finally {
            await sql.end();
        }
    });
    it('psycopg2 connects with sslmode=verify-full', () => {
        const script = `import psycopg2, sys
c = psycopg2.connect(host='localhost', port=${port}, user='reader', password='${READER_PASSWORD}', dbname='db', sslmode='verify-full', sslrootcert=sys.argv[1])
cur = c.cursor()
cur.execute('SELECT name FROM items WHERE id = %s', (1,))
print(cur.fetchone()[0])
try:
    cur.execute("INSERT INTO items (id, name) VALUES (9, 'x')")
except psycopg2.Error as e:
    print(e.pgcode)
`;
        const r = (0, node_child_process_1.spawnSync)(PYTHON, ['-c', script, ca()], { encoding: 'utf8', timeout: 30000 });
        strict_1.default.equal(r.status, 0, r.stderr);
        strict_1.default.equal(r.stdout, 'one\n25006\n');
    });
    it('psqlODBC through isql connects with SSLmode=require', () => {
        const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(agent.dir, 'odbc-'));
        node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'odbcinst.ini'), '[PostgreSQL Unicode]\nDriver=/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so\n');
        node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'odbc.ini'), `[patina]\nDriver=PostgreSQL Unicode\nServername=127.0.0.1\nPort=${port}\nDatabase=db\nUsername=writer\nPassword=${WRITER_PASSWORD}\nSSLmode=require\n`);
        const r = (0, node_child_process_1.spawnSync)('isql', ['-b', '-d,', '-c', 'patina'], {
            input: 'SELECT id, name FROM items WHERE id = 1\n',
            encoding: 'utf8',
            env: { ...process.env, ODBCSYSINI: dir, ODBCINI: node_path_1.default.join(dir, 'odbc.ini') },
            timeout: 30000,
        });
        strict_1.default.equal(r.status, 0, r.stderr + r.stdout);
        strict_1.default.match(r.stdout, /id,name\n1,one\n/);
    });
    it('re-reads password files on reload: the old password stops working, the new one works', async () => {
        const next = 'writer-pw-rotated';
        node_fs_1.default.writeFileSync(writerFile, next);
        const before = (0, pg_1.psql)(port, ['SELECT 1'], ['-U', 'writer'], { PGSSLMODE: 'require', PGPASSWORD: next });
        strict_1.default.notEqual(before.status, 0);
        const r = await (0, http_1.request)(agent.http, 'POST', '/v1/admin/reload');
        strict_1.default.equal(r.status, 200, r.text);
        strict_1.default.equal((0, pg_1.psql)(port, ['SELECT 1'], ['-U', 'writer'], { PGSSLMODE: 'require', PGPASSWORD: next }).status, 0);
        strict_1.default.match((0, pg_1.psql)(port, ['SELECT 1'], ['-U', 'writer'], { PGSSLMODE: 'require', PGPASSWORD: WRITER_PASSWORD }).stderr, /password authentication failed/);
        node_fs_1.default.writeFileSync(writerFile, WRITER_PASSWORD);
        strict_1.default.equal((await (0, http_1.request)(agent.http, 'POST', '/v1/admin/reload')).status, 200);
    });
});
describe('PostgreSQL TLS without require_tls, and the single password', function () {
    this.timeout(60000);
    it('accepts both TLS and plaintext, and the listener password works for any user name', async () => {
        const certs = tls_1.TestCerts.generate('agent1');
        const agent = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: `[api.pg]\naddr = "127.0.0.1:0"\npassword = "shared-pw"\n[api.pg.tls]\n${certs.pair('agent1')}`,
        });
        try {
            const port = agent.pg.port;
            for (const [mode, ssl] of [
                ['require', 'on'],
                ['disable', 'off'],
                ['prefer', 'on'],
            ]) {
                const r = (0, pg_1.psql)(port, ['SHOW ssl'], ['-A', '-t', '-U', `someone-${mode}`], {
                    PGSSLMODE: mode,
                    PGPASSWORD: 'shared-pw',
                });
                strict_1.default.equal(r.status, 0, `${mode}: ${r.stderr}`);
                strict_1.default.equal(r.stdout, `${ssl}\n`, mode);
            }
            const wrong = (0, pg_1.psql)(port, ['SELECT 1'], [], { PGSSLMODE: 'require', PGPASSWORD: 'nope' });
            strict_1.default.match(wrong.stderr, /password authentication failed for user "tester"/);
        }
        finally {
            await agent.dispose();
            certs.dispose();
        }
    });
    it('a plaintext listener still answers SSLRequest with N (sslmode=require fails, prefer falls back)', async () => {
        const agent = await (0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
        try {
            const port = agent.pg.port;
            strict_1.default.match((0, pg_1.psql)(port, ['SELECT 1'], [], { PGSSLMODE: 'require' }).stderr, /server does not support SSL/);
            strict_1.default.equal((0, pg_1.psql)(port, ['SELECT 1'], [], { PGSSLMODE: 'prefer' }).status, 0);
        }
        finally {
            await agent.dispose();
        }
    });
    it('refuses a PostgreSQL listener open to the network without users or password, unless allowed', async () => {
        await strict_1.default.rejects((0, agent_1.startAgent)({ schema: SCHEMA, args: ['--pg-addr', '0.0.0.0:0'] }), /a PostgreSQL listener would accept anyone on 0\.0\.0\.0:0, which is not loopback; configure \[\[api\.pg\.users\]\] or password, or set api\.allow_unauthenticated = true/);
        const withUsers = await (0, agent_1.startAgent)({
            schema: SCHEMA,
            config: '[api]\nallow_unauthenticated = true\n[api.pg]\naddr = "0.0.0.0:0"\n[[api.pg.users]]\nname = "u"\npassword = "p"\n',
        });
        await withUsers.dispose();
    });
    it('stops start-up on a missing certificate or a key that does not match, naming the files', async () => {
        const certs = tls_1.TestCerts.generate('a', 'b');
        try {
            for (const [tlsLines, message] of [
                [
                    `cert_file = "${certs.file('missing.crt')}"\nkey_file = "${certs.file('a.key')}"`,
                    /api\.pg\.tls\.cert_file: cannot read .*missing\.crt: ENOENT/,
                ],
                [
                    `cert_file = "${certs.file('a.crt')}"\nkey_file = "${certs.file('b.key')}"`,
                    /a\.crt and .*b\.key are not a usable certificate and key/,
                ],
            ]) {
                await strict_1.default.rejects((0, agent_1.startAgent)({ schema: SCHEMA, config: `[api.pg]\naddr = "127.0.0.1:0"\n[api.pg.tls]\n${tlsLines}\n` }), message);
            }
            await strict_1.default.rejects((0, agent_1.startAgent)({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\nrequire_tls = true\n' }), /api\.pg\.require_tls: needs \[api\.pg\.tls\]/);
        }
        finally {
            certs.dispose();
        }
    });
});
//# sourceMappingURL=tls-users.test.js.map