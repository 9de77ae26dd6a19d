"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// SCRAM-SHA-256 logins over TLS from the clients users run (pgjdbc, psql, node-postgres, psycopg2),
// and raw exchanges whose nonces hold the characters a regular expression would choke on.
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_crypto_1 = __importDefault(require("node:crypto"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const pg_protocol_1 = require("pg-protocol");
const agent_1 = require("../helpers/agent");
const pg_1 = require("../helpers/pg");
const tls_1 = require("../helpers/tls");
const SCHEMA = 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);';
const PASSWORD = 'pw-5a1f(^|)[\\';
const PYTHON = '/usr/bin/python3';
const JDBC_JAR = '/usr/share/java/postgresql.jar';
const hmac = (key, data) => node_crypto_1.default.createHmac('sha256', key).update(data).digest();
/** A client-side SCRAM exchange over a raw socket, with the client nonce given. */
async function rawScram(port, clientNonce, finalNonce) {
    const c = await pg_1.RawPg.connect(port);
    c.listen();
    c.send(pg_protocol_1.serialize.startup({ user: 'app', database: 'db' }));
    await c.until('authenticationSASL');
    const bare = `n=,r=${clientNonce}`;
    c.send(pg_protocol_1.serialize.sendSASLInitialResponseMessage('SCRAM-SHA-256', `n,,${bare}`));
    const cont = (await c.until('authenticationSASLContinue')).pop();
    const serverFirst = cont.data;
    const attrs = Object.fromEntries(serverFirst.split(',').map((p) => [p[0], p.slice(2)]));
    const salted = node_crypto_1.default.pbkdf2Sync(PASSWORD, Buffer.from(attrs.s, 'base64'), Number(attrs.i), 32, 'sha256');
    const clientKey = hmac(salted, 'Client Key');
    const storedKey = node_crypto_1.default.createHash('sha256').update(clientKey).digest();
    const withoutProof = `c=biws,r=${finalNonce(attrs.r)}`;
    const signature = hmac(storedKey, `${bare},${serverFirst},${withoutProof}`);
    const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]));
    c.send(pg_protocol_1.serialize.sendSCRAMClientFinalMessage(`${withoutProof},p=${proof.toString('base64')}`));
    return { c, serverNonce: attrs.r };
}
describe('SCRAM logins from every client', function () {
    this.timeout(300_000);
    let certs;
    let agent;
    let port;
    let plainPort;
    before(async () => {
        certs = tls_1.TestCerts.generate('agent1');
        agent = new agent_1.AgentProcess({ schema: SCHEMA });
        // One listener with TLS, one without for the raw exchanges; the same password on both.
        const user = `[[api.pg.users]]\nname = "app"\npassword = ${JSON.stringify(PASSWORD)}\nrole = "write"\n`;
        agent.opts.config = `[[api.pg]]
addr = "127.0.0.1:0"
[api.pg.tls]
${certs.pair('agent1')}
${user}
[[api.pg]]
addr = "127.0.0.1:0"
${user}`;
        await agent.start();
        const listeners = [...agent.output.matchAll(/PostgreSQL on [^\s,]+:(\d+)/g)].map((m) => Number(m[1]));
        [port, plainPort] = listeners;
        strict_1.default.ok(port && plainPort, agent.output);
    });
    after(async () => {
        await agent?.dispose();
        certs?.dispose();
    });
    it('a client nonce full of ( ) [ ^ \\ | logs in, and a final message with another nonce is refused with 28P01 that names no nonce', async () => {
        const hostile = 'ab(c)[d^e\\f|g+h/i=j*k?l.m$n{o}';
        const ok = await rawScram(plainPort, hostile, (full) => full);
        await ok.c.until('readyForQuery');
        ok.c.end();
        const wrong = await rawScram(plainPort, hostile, (full) => `${full}x`);
        const msgs = await wrong.c.until('error');
        const err = msgs.pop();
        strict_1.default.equal(err.code, '28P01');
        strict_1.default.ok(!err.message.includes(hostile), err.message);
        strict_1.default.ok(!err.message.includes(wrong.serverNonce), err.message);
        strict_1.default.doesNotMatch(err.message, /internal error|regular expression/i);
        await wrong.c.closedBy();
        strict_1.default.doesNotMatch(agent.output, /Invalid regular expression/);
    });
    it('1,000 logins over TLS from pgjdbc, psql, node-postgres and psycopg2 all succeed; wrong passwords get 28P01', async () => {
        // pgjdbc: 400 logins and 5 wrong ones in one JVM (its nonces are where the regular expression failed).
        const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(agent.dir, 'jdbc-'));
        const java = node_path_1.default.join(dir, 'Logins.java');
        node_fs_1.default.writeFileSync(java, `import java.sql.*;
public class Logins {
  public static void main(String[] a) throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + a[0] + "/db?sslmode=require";
    int ok = 0, refused = 0;
    for (int i = 0; i < Integer.parseInt(a[2]); i++) {
      try (Connection c = DriverManager.getConnection(url, "app", a[1]); Statement s = c.createStatement();
           ResultSet r = s.executeQuery("SELECT 1")) { r.next(); if (r.getInt(1) == 1) ok++; }
    }
    for (int i = 0; i < 5; i++) {
      try (Connection c = DriverManager.getConnection(url, "app", a[1] + "-wrong")) {
      } catch (SQLException e) { if ("28P01".equals(e.getSQLState())) refused++; else System.out.println("other " + e.getSQLState() + " " + e.getMessage()); }
    }
    System.out.println(ok + " " + refused);
  }
}
`);
        const j = (0, node_child_process_1.spawnSync)('java', ['-cp', JDBC_JAR, java, String(port), PASSWORD, '400'], {
            encoding: 'utf8',
            timeout: 240_000,
        });
        strict_1.default.equal(j.status, 0, j.stderr);
        strict_1.default.equal(j.stdout.trim(), '400 5', j.stdout + j.stderr);
        // psycopg2: 250 logins and 5 wrong ones in one process.
        const py = (0, node_child_process_1.spawnSync)(PYTHON, [
            '-c',
            `
import sys, psycopg2
ok = refused = 0
for i in range(250):
    c = psycopg2.connect(host='127.0.0.1', port=${port}, dbname='db', user='app', password=sys.argv[1], sslmode='require')
    cur = c.cursor(); cur.execute('SELECT 1'); ok += cur.fetchone()[0]; c.close()
for i in range(5):
    try:
        psycopg2.connect(host='127.0.0.1', port=${port}, dbname='db', user='app', password=sys.argv[1] + 'x', sslmode='require')
    except psycopg2.OperationalError as e:
        if 'password authentication failed' in str(e): refused += 1
print(ok, refused)
`,
            PASSWORD,
        ], { encoding: 'utf8', timeout: 120_000 });
        strict_1.default.equal(py.status, 0, py.stderr);
        strict_1.default.equal(py.stdout.trim(), '250 5');
        // node-postgres: 250 logins and 5 wrong ones.
        for (let i = 0; i < 250; i++) {
            const c = (0, pg_1.pgClient)(port, { user: 'app', password: PASSWORD, ssl: { rejectUnauthorized: false } });
            await c.connect();
            strict_1.default.equal((await c.query('SELECT 1 AS one')).rows[0].one, 1);
            await c.end();
        }
        for (let i = 0; i < 5; i++) {
            const c = (0, pg_1.pgClient)(port, { user: 'app', password: `${PASSWORD}!`, ssl: { rejectUnauthorized: false } });
            await strict_1.default.rejects(c.connect(), (e) => e.code === '28P01');
        }
        // psql: 100 logins, one process each, and 2 wrong ones.
        for (let i = 0; i < 100; i++) {
            const r = (0, pg_1.psql)(port, ['SELECT 1'], ['-A', '-t', '-U', 'app'], { PGSSLMODE: 'require', PGPASSWORD: PASSWORD });
            strict_1.default.equal(r.status, 0, r.stderr);
            strict_1.default.equal(r.stdout, '1\n');
        }
        for (let i = 0; i < 2; i++) {
            const r = (0, pg_1.psql)(port, ['SELECT 1'], ['-U', 'app', '-v', 'VERBOSITY=verbose'], {
                PGSSLMODE: 'require',
                PGPASSWORD: 'nope',
            });
            strict_1.default.notEqual(r.status, 0);
            strict_1.default.match(r.stderr, /FATAL: {2}password authentication failed for user "app"/);
        }
        strict_1.default.doesNotMatch(agent.output, /Invalid regular expression|internal error/);
    });
});
//# sourceMappingURL=scram-logins.test.js.map