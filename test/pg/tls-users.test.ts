// PostgreSQL over TLS (SSLRequest answered S) and named users with roles, with real clients: psql
// (sslmode=require and verify-full), node-postgres, postgres.js, psycopg2 and psqlODBC.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { AgentProcess, startAgent } from '../helpers/agent';
import { request } from '../helpers/http';
import { pgClient, psql } from '../helpers/pg';
import { TestCerts } from '../helpers/tls';

const SCHEMA = 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);';
const PYTHON = '/usr/bin/python3';
const READER_PASSWORD = 'reader-pw-71c3';
const WRITER_PASSWORD = 'writer-pw-0d9a';

describe('PostgreSQL TLS and users', function () {
  this.timeout(60000);
  let certs: TestCerts;
  let agent: AgentProcess;
  let port: number;
  let writerFile: string;

  before(async () => {
    certs = TestCerts.generate('agent1');
    agent = new AgentProcess({ schema: SCHEMA });
    writerFile = path.join(agent.dir, 'writer.password');
    fs.writeFileSync(writerFile, WRITER_PASSWORD + '\n');
    agent.opts.config = certs.pgListener('agent1', [
      { name: 'reader', role: 'read', secret: `password = "${READER_PASSWORD}"` },
      { name: 'writer', role: 'write', secret: 'password_file = "writer.password"' },
    ]);
    await agent.start();
    port = agent.pg!.port;
  });
  after(async () => {
    await agent?.dispose();
    certs?.dispose();
  });

  const ca = () => certs.file('ca.crt');

  it('psql connects with sslmode=require and verify-full; a reader gets 25006 on writes', () => {
    const w = psql(
      port,
      ["INSERT INTO items (id, name) VALUES (1, 'one')", 'SELECT name FROM items', 'SHOW ssl'],
      ['-A', '-t', '-U', 'writer'],
      { PGSSLMODE: 'verify-full', PGSSLROOTCERT: ca(), PGPASSWORD: WRITER_PASSWORD },
    );
    assert.equal(w.status, 0, w.stderr);
    assert.match(w.stdout, /^INSERT 0 1\none\non\n$/);
    const r = psql(port, ['SELECT count(*) FROM items'], ['-A', '-t', '-U', 'reader'], {
      PGSSLMODE: 'require',
      PGPASSWORD: READER_PASSWORD,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '1\n');
    const denied = psql(
      port,
      ["INSERT INTO items (id, name) VALUES (2, 'two')"],
      ['-U', 'reader', '-v', 'VERBOSITY=verbose'],
      { PGSSLMODE: 'require', PGPASSWORD: READER_PASSWORD },
    );
    assert.notEqual(denied.status, 0);
    assert.match(denied.stderr, /ERROR: {2}25006: cannot execute INSERT in a read-only transaction/);
  });

  it('verify-full refuses a server whose certificate another CA signed', () => {
    const other = TestCerts.generate('stranger');
    try {
      const r = psql(port, ['SELECT 1'], ['-U', 'writer'], {
        PGSSLMODE: 'verify-full',
        PGSSLROOTCERT: other.file('ca.crt'),
        PGPASSWORD: WRITER_PASSWORD,
      });
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /certificate verify failed/);
    } finally {
      other.dispose();
    }
  });

  it('require_tls refuses plaintext with the error PostgreSQL sends (28000, no pg_hba.conf entry ... no encryption)', async () => {
    const r = psql(port, ['SELECT 1'], ['-U', 'writer'], { PGSSLMODE: 'disable', PGPASSWORD: WRITER_PASSWORD });
    assert.notEqual(r.status, 0);
    assert.match(
      r.stderr,
      /FATAL: {2}no pg_hba\.conf entry for host "127\.0\.0\.1", user "writer", database "db", no encryption/,
    );
    const c = pgClient(port, { user: 'writer', password: WRITER_PASSWORD, ssl: false });
    await assert.rejects(c.connect(), (err: Error & { code?: string }) => err.code === '28000');
  });

  it('a wrong password or an unknown user gets 28P01 as PostgreSQL words it', async () => {
    for (const user of ['writer', 'nobody']) {
      const c = pgClient(port, { user, password: 'wrong', ssl: { ca: fs.readFileSync(ca()) } });
      await assert.rejects(c.connect(), (err: Error & { code?: string }) => {
        assert.equal(err.code, '28P01');
        assert.equal(err.message, `password authentication failed for user "${user}"`);
        assert.ok(!err.message.includes(WRITER_PASSWORD));
        return true;
      });
    }
    const r = psql(port, ['SELECT 1'], ['-U', 'writer'], { PGSSLMODE: 'require', PGPASSWORD: 'wrong' });
    assert.match(r.stderr, /FATAL: {2}password authentication failed for user "writer"/);
  });

  it('node-postgres connects over TLS with the CA; a reader gets 25006', async () => {
    const w = pgClient(port, {
      user: 'writer',
      password: WRITER_PASSWORD,
      ssl: { ca: fs.readFileSync(ca()), servername: 'localhost' },
    });
    await w.connect();
    await w.query('INSERT INTO items (id, name) VALUES ($1, $2)', [3, 'three']);
    await w.end();
    const r = pgClient(port, { user: 'reader', password: READER_PASSWORD, ssl: { ca: fs.readFileSync(ca()) } });
    await r.connect();
    assert.equal((await r.query('SELECT name FROM items WHERE id = $1', [3])).rows[0].name, 'three');
    await assert.rejects(r.query('DELETE FROM items'), (err: Error & { code?: string }) => err.code === '25006');
    await r.end();
  });

  it('postgres.js connects over TLS', async () => {
    const sql = postgres({
      host: '127.0.0.1',
      port,
      user: 'writer',
      password: WRITER_PASSWORD,
      database: 'db',
      ssl: { ca: fs.readFileSync(ca()) },
      max: 1,
    });
    try {
      const rows = await sql`SELECT name FROM items WHERE id = ${1}`;
      assert.equal(rows[0].name, 'one');
    } finally {
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
    const r = spawnSync(PYTHON, ['-c', script, ca()], { encoding: 'utf8', timeout: 30000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'one\n25006\n');
  });

  it('psqlODBC through isql connects with SSLmode=require', () => {
    const dir = fs.mkdtempSync(path.join(agent.dir, 'odbc-'));
    fs.writeFileSync(
      path.join(dir, 'odbcinst.ini'),
      '[PostgreSQL Unicode]\nDriver=/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so\n',
    );
    fs.writeFileSync(
      path.join(dir, 'odbc.ini'),
      `[patina]\nDriver=PostgreSQL Unicode\nServername=127.0.0.1\nPort=${port}\nDatabase=db\nUsername=writer\nPassword=${WRITER_PASSWORD}\nSSLmode=require\n`,
    );
    const r = spawnSync('isql', ['-b', '-d,', '-c', 'patina'], {
      input: 'SELECT id, name FROM items WHERE id = 1\n',
      encoding: 'utf8',
      env: { ...process.env, ODBCSYSINI: dir, ODBCINI: path.join(dir, 'odbc.ini') },
      timeout: 30000,
    });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /id,name\n1,one\n/);
  });

  it('re-reads password files on reload: the old password stops working, the new one works', async () => {
    const next = 'writer-pw-rotated';
    fs.writeFileSync(writerFile, next);
    const before = psql(port, ['SELECT 1'], ['-U', 'writer'], { PGSSLMODE: 'require', PGPASSWORD: next });
    assert.notEqual(before.status, 0);
    const r = await request(agent.http, 'POST', '/v1/admin/reload');
    assert.equal(r.status, 200, r.text);
    assert.equal(psql(port, ['SELECT 1'], ['-U', 'writer'], { PGSSLMODE: 'require', PGPASSWORD: next }).status, 0);
    assert.match(
      psql(port, ['SELECT 1'], ['-U', 'writer'], { PGSSLMODE: 'require', PGPASSWORD: WRITER_PASSWORD }).stderr,
      /password authentication failed/,
    );
    fs.writeFileSync(writerFile, WRITER_PASSWORD);
    assert.equal((await request(agent.http, 'POST', '/v1/admin/reload')).status, 200);
  });
});

describe('PostgreSQL TLS without require_tls, and the single password', function () {
  this.timeout(60000);
  it('accepts both TLS and plaintext, and the listener password works for any user name', async () => {
    const certs = TestCerts.generate('agent1');
    const agent = await startAgent({
      schema: SCHEMA,
      config: `[api.pg]\naddr = "127.0.0.1:0"\npassword = "shared-pw"\n[api.pg.tls]\n${certs.pair('agent1')}`,
    });
    try {
      const port = agent.pg!.port;
      for (const [mode, ssl] of [
        ['require', 'on'],
        ['disable', 'off'],
        ['prefer', 'on'],
      ]) {
        const r = psql(port, ['SHOW ssl'], ['-A', '-t', '-U', `someone-${mode}`], {
          PGSSLMODE: mode,
          PGPASSWORD: 'shared-pw',
        });
        assert.equal(r.status, 0, `${mode}: ${r.stderr}`);
        assert.equal(r.stdout, `${ssl}\n`, mode);
      }
      const wrong = psql(port, ['SELECT 1'], [], { PGSSLMODE: 'require', PGPASSWORD: 'nope' });
      assert.match(wrong.stderr, /password authentication failed for user "tester"/);
    } finally {
      await agent.dispose();
      certs.dispose();
    }
  });

  it('a plaintext listener still answers SSLRequest with N (sslmode=require fails, prefer falls back)', async () => {
    const agent = await startAgent({ schema: SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    try {
      const port = agent.pg!.port;
      assert.match(psql(port, ['SELECT 1'], [], { PGSSLMODE: 'require' }).stderr, /server does not support SSL/);
      assert.equal(psql(port, ['SELECT 1'], [], { PGSSLMODE: 'prefer' }).status, 0);
    } finally {
      await agent.dispose();
    }
  });

  it('refuses a PostgreSQL listener open to the network without users or password, unless allowed', async () => {
    await assert.rejects(
      startAgent({ schema: SCHEMA, args: ['--pg-addr', '0.0.0.0:0'] }),
      /a PostgreSQL listener would accept anyone on 0\.0\.0\.0:0, which is not loopback; configure \[\[api\.pg\.users\]\] or password, or set api\.allow_unauthenticated = true/,
    );
    const withUsers = await startAgent({
      schema: SCHEMA,
      config:
        '[api]\nallow_unauthenticated = true\n[api.pg]\naddr = "0.0.0.0:0"\n[[api.pg.users]]\nname = "u"\npassword = "p"\n',
    });
    await withUsers.dispose();
  });

  it('stops start-up on a missing certificate or a key that does not match, naming the files', async () => {
    const certs = TestCerts.generate('a', 'b');
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
      ] as [string, RegExp][]) {
        await assert.rejects(
          startAgent({ schema: SCHEMA, config: `[api.pg]\naddr = "127.0.0.1:0"\n[api.pg.tls]\n${tlsLines}\n` }),
          message,
        );
      }
      await assert.rejects(
        startAgent({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\nrequire_tls = true\n' }),
        /api\.pg\.require_tls: needs \[api\.pg\.tls\]/,
      );
    } finally {
      certs.dispose();
    }
  });
});
