// SCRAM-SHA-256 logins over TLS from the clients users run (pgjdbc, psql, node-postgres, psycopg2),
// and raw exchanges whose nonces hold the characters a regular expression would choke on.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { serialize } from 'pg-protocol';
import { AgentProcess } from '../helpers/agent';
import { pgClient, psql, RawPg } from '../helpers/pg';
import { TestCerts } from '../helpers/tls';

const SCHEMA = 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);';
const PASSWORD = 'pw-5a1f(^|)[\\';
const PYTHON = '/usr/bin/python3';
const JDBC_JAR = '/usr/share/java/postgresql.jar';

const hmac = (key: Buffer, data: string) => crypto.createHmac('sha256', key).update(data).digest();

/** A client-side SCRAM exchange over a raw socket, with the client nonce given. */
async function rawScram(port: number, clientNonce: string, finalNonce: (full: string) => string) {
  const c = await RawPg.connect(port);
  c.listen();
  c.send(serialize.startup({ user: 'app', database: 'db' }));
  await c.until('authenticationSASL');
  const bare = `n=,r=${clientNonce}`;
  c.send(serialize.sendSASLInitialResponseMessage('SCRAM-SHA-256', `n,,${bare}`));
  const cont = (await c.until('authenticationSASLContinue')).pop() as unknown as { data: string };
  const serverFirst = cont.data;
  const attrs = Object.fromEntries(serverFirst.split(',').map((p) => [p[0], p.slice(2)]));
  const salted = crypto.pbkdf2Sync(PASSWORD, Buffer.from(attrs.s, 'base64'), Number(attrs.i), 32, 'sha256');
  const clientKey = hmac(salted, 'Client Key');
  const storedKey = crypto.createHash('sha256').update(clientKey).digest();
  const withoutProof = `c=biws,r=${finalNonce(attrs.r)}`;
  const signature = hmac(storedKey, `${bare},${serverFirst},${withoutProof}`);
  const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]));
  c.send(serialize.sendSCRAMClientFinalMessage(`${withoutProof},p=${proof.toString('base64')}`));
  return { c, serverNonce: attrs.r as string };
}

describe('SCRAM logins from every client', function () {
  this.timeout(300_000);
  let certs: TestCerts;
  let agent: AgentProcess;
  let port: number;
  let plainPort: number;

  before(async () => {
    certs = TestCerts.generate('agent1');
    agent = new AgentProcess({ schema: SCHEMA });
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
    assert.ok(port && plainPort, agent.output);
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
    const err = msgs.pop() as unknown as { code: string; message: string };
    assert.equal(err.code, '28P01');
    assert.ok(!err.message.includes(hostile), err.message);
    assert.ok(!err.message.includes(wrong.serverNonce), err.message);
    assert.doesNotMatch(err.message, /internal error|regular expression/i);
    await wrong.c.closedBy();
    assert.doesNotMatch(agent.output, /Invalid regular expression/);
  });

  it('1,000 logins over TLS from pgjdbc, psql, node-postgres and psycopg2 all succeed; wrong passwords get 28P01', async () => {
    // pgjdbc: 400 logins and 5 wrong ones in one JVM (its nonces are where the regular expression failed).
    const dir = fs.mkdtempSync(path.join(agent.dir, 'jdbc-'));
    const java = path.join(dir, 'Logins.java');
    fs.writeFileSync(
      java,
      `import java.sql.*;
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
`,
    );
    const j = spawnSync('java', ['-cp', JDBC_JAR, java, String(port), PASSWORD, '400'], {
      encoding: 'utf8',
      timeout: 240_000,
    });
    assert.equal(j.status, 0, j.stderr);
    assert.equal(j.stdout.trim(), '400 5', j.stdout + j.stderr);

    // psycopg2: 250 logins and 5 wrong ones in one process.
    const py = spawnSync(
      PYTHON,
      [
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
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(py.status, 0, py.stderr);
    assert.equal(py.stdout.trim(), '250 5');

    // node-postgres: 250 logins and 5 wrong ones.
    for (let i = 0; i < 250; i++) {
      const c = pgClient(port, { user: 'app', password: PASSWORD, ssl: { rejectUnauthorized: false } });
      await c.connect();
      assert.equal((await c.query('SELECT 1 AS one')).rows[0].one, 1);
      await c.end();
    }
    for (let i = 0; i < 5; i++) {
      const c = pgClient(port, { user: 'app', password: `${PASSWORD}!`, ssl: { rejectUnauthorized: false } });
      await assert.rejects(c.connect(), (e: { code: string }) => e.code === '28P01');
    }

    // psql: 100 logins, one process each, and 2 wrong ones.
    for (let i = 0; i < 100; i++) {
      const r = psql(port, ['SELECT 1'], ['-A', '-t', '-U', 'app'], { PGSSLMODE: 'require', PGPASSWORD: PASSWORD });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, '1\n');
    }
    for (let i = 0; i < 2; i++) {
      const r = psql(port, ['SELECT 1'], ['-U', 'app', '-v', 'VERBOSITY=verbose'], {
        PGSSLMODE: 'require',
        PGPASSWORD: 'nope',
      });
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /FATAL: {2}password authentication failed for user "app"/);
    }
    assert.doesNotMatch(agent.output, /Invalid regular expression|internal error/);
  });
});
