// The PG listener's Unix-domain socket (`socket_dir`, `--pg-socket-dir`): psql, pgbench and
// node-postgres reach it as they reach PostgreSQL's (`-h <dir>`), with the listener's passwords and
// without TLS (local, as pg_hba.conf's `local` lines); a socket file a killed agent left is replaced,
// one another server listens on is not, and neither is a file that is not a socket.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { unixSocketPath } from '../../../protocols/pg/connection/unix-socket';
import { AgentProcess, startAgent } from '../../helpers/agent';
import { pgClient } from '../../helpers/pg';
import { freePort } from '../../helpers/postgres-server';
import { TestCerts } from '../../helpers/tls';

const SCHEMA = 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);';
const PASSWORD = 'local-pw-5e1f';

/** psql over the socket in `dir`; -A -t output. */
function localPsql(dir: string, port: number, commands: string[], env: Record<string, string> = {}) {
  return spawnSync(
    'psql',
    ['-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', dir, '-p', String(port), '-U', 'writer', '-d', 'db'].concat(
      commands.flatMap((c) => ['-c', c]),
    ),
    { encoding: 'utf8', env: { ...process.env, PGCONNECT_TIMEOUT: '10', ...env }, timeout: 30000 },
  );
}

describe('PG listener on a Unix-domain socket', function () {
  this.timeout(60000);
  let certs: TestCerts;
  let agent: AgentProcess;
  let socketDir: string;
  let port: number;

  before(async () => {
    certs = TestCerts.generate('agent1');
    socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-sock-'));
    // TLS required on TCP: the socket is local and takes the same passwords without it
    agent = new AgentProcess({ schema: SCHEMA });
    agent.opts.config = `${certs.pgListener('agent1', [
      { name: 'writer', role: 'write', secret: `password = "${PASSWORD}"` },
    ])}`.replace('require_tls = true\n', `require_tls = true\nsocket_dir = "${socketDir}"\n`);
    await agent.start();
    port = agent.pg!.port;
  });
  after(async () => {
    await agent?.dispose();
    certs?.dispose();
    fs.rmSync(socketDir, { recursive: true, force: true });
  });

  it('is named as libpq looks for it, and the ready line says where', () => {
    const p = path.join(socketDir, `.s.PGSQL.${port}`);
    assert.ok(fs.lstatSync(p).isSocket());
    assert.ok(agent.output.includes(`PostgreSQL on ${p}`), agent.output);
  });

  it('psql logs in with the password, without TLS, and writes and reads; pg_stat_activity shows a local client', () => {
    const r = localPsql(
      socketDir,
      port,
      [
        "INSERT INTO items (id, name) VALUES (1, 'one')",
        'SELECT name FROM items',
        'SHOW ssl',
        'SELECT client_addr IS NULL, client_port FROM pg_stat_activity WHERE pid = pg_backend_pid()',
      ],
      { PGPASSWORD: PASSWORD },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'INSERT 0 1\none\noff\nt|-1\n');
  });

  it('a wrong password is 28P01, as over TCP', () => {
    const r = localPsql(socketDir, port, ['SELECT 1'], { PGPASSWORD: 'wrong' });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /password authentication failed for user "writer"/);
  });

  it('plain TCP is still refused (require_tls); the socket does not open TCP', () => {
    const r = spawnSync(
      'psql',
      ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', 'writer', '-d', 'db', '-c', 'SELECT 1'],
      {
        encoding: 'utf8',
        env: { ...process.env, PGSSLMODE: 'disable', PGPASSWORD: PASSWORD },
        timeout: 30000,
      },
    );
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /no pg_hba.conf entry for host "127.0.0.1", user "writer", database "db", no encryption/);
  });

  it('node-postgres and pgbench connect with host = the folder', async () => {
    const c = pgClient(port, { host: socketDir, user: 'writer', password: PASSWORD });
    await c.connect();
    try {
      const r = await c.query('SELECT count(*)::int AS n FROM items WHERE id = $1', [1]);
      assert.deepEqual(r.rows, [{ n: 1 }]);
    } finally {
      await c.end();
    }
    const script = path.join(socketDir, 'select.sql');
    fs.writeFileSync(script, '\\set id random(1, 1)\nSELECT name FROM items WHERE id = :id;\n');
    const b = spawnSync(
      'pgbench',
      [
        '-n',
        '-h',
        socketDir,
        '-p',
        String(port),
        '-U',
        'writer',
        '-M',
        'prepared',
        '-t',
        '50',
        '-c',
        '2',
        '-f',
        script,
        'db',
      ],
      { encoding: 'utf8', env: { ...process.env, PGPASSWORD: PASSWORD }, timeout: 30000 },
    );
    assert.equal(b.status, 0, b.stderr);
    assert.match(b.stdout, /number of transactions actually processed: 100\/100/);
    assert.match(b.stdout, /number of failed transactions: 0/);
  });

  it('an SSLRequest on the socket is answered N, as PostgreSQL answers it there', async () => {
    const s = net.connect(path.join(socketDir, `.s.PGSQL.${port}`));
    const answer = await new Promise<string>((resolve, reject) => {
      s.once('data', (d) => resolve(d.toString('latin1')));
      s.once('error', reject);
      const req = Buffer.alloc(8);
      req.writeInt32BE(8, 0);
      req.writeInt32BE(80877103, 4);
      s.write(req);
    });
    s.destroy();
    assert.equal(answer, 'N');
  });
});

describe('PG Unix-domain socket files', function () {
  this.timeout(60000);
  let dir: string;
  const started: AgentProcess[] = [];
  const start = async (port: number, host = '127.0.0.1') => {
    const a = await startAgent({ schema: SCHEMA, args: ['--pg-addr', `${host}:${port}`, '--pg-socket-dir', dir] });
    started.push(a);
    return a;
  };
  /** An agent that must not start: its output. */
  const refused = async (args: string[]) => {
    const a = new AgentProcess({ schema: SCHEMA, args });
    started.push(a);
    await assert.rejects(a.start(), (err: Error) => {
      assert.match(err.message, /exited/);
      return true;
    });
    return a.output;
  };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-sock-'));
  });
  after(async () => {
    for (const a of started) await a.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('SIGTERM removes the file; after SIGKILL the next agent replaces the stale one', async () => {
    const port = await freePort();
    const p = path.join(dir, `.s.PGSQL.${port}`);
    const a = await start(port);
    assert.ok(fs.existsSync(p));
    const before = `${a.proc.exitCode} ${a.proc.signalCode}`;
    const code = await a.stop();
    assert.equal(fs.existsSync(p), false, `${before} exit ${code} ${a.proc.signalCode}: ${a.output}`);
    const b = await start(port);
    await b.kill();
    assert.ok(fs.lstatSync(p).isSocket(), 'a killed agent leaves its socket file');
    await start(port);
    const r = localPsqlTrust(dir, port, 'SELECT 1');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '1\n');
  });

  it('a socket another server listens on is refused, naming it; the running agent keeps it', async () => {
    const port = await freePort();
    await start(port);
    const p = path.join(dir, `.s.PGSQL.${port}`);
    // the same port on another loopback address: the TCP bind succeeds, the socket path is taken
    const out = await refused(['--pg-addr', `127.0.0.2:${port}`, '--pg-socket-dir', dir]);
    assert.ok(out.includes(`another server is listening on ${p}`), out);
    const r = localPsqlTrust(dir, port, 'SELECT 2');
    assert.equal(r.stdout, '2\n', r.stderr);
  });

  it('a file that is not a socket is never removed; --pg-socket-dir without a listener is named', async () => {
    const port = await freePort();
    const p = path.join(dir, `.s.PGSQL.${port}`);
    fs.writeFileSync(p, 'keep me');
    const out = await refused(['--pg-addr', `127.0.0.1:${port}`, '--pg-socket-dir', dir]);
    assert.ok(out.includes(`${p} exists and is not a socket; not replacing it`), out);
    assert.equal(fs.readFileSync(p, 'utf8'), 'keep me');
    const out2 = await refused(['--pg-socket-dir', dir]);
    assert.match(out2, /--pg-socket-dir needs a PG listener/);
  });

  it('a missing folder and a path longer than a socket address holds are named before anything binds', () => {
    const missing = path.join(dir, 'nope');
    assert.throws(() => unixSocketPath(missing, 5432), { message: `api.pg socket_dir: ${missing} is not a folder` });
    const long = path.join(dir, 'x'.repeat(100));
    assert.throws(
      () => unixSocketPath(long, 5432),
      /is longer than 107 bytes, the most a Unix-domain socket address holds/,
    );
  });
});

/** psql over the socket of an agent without passwords. */
function localPsqlTrust(dir: string, port: number, sql: string) {
  return spawnSync('psql', ['-X', '-A', '-t', '-h', dir, '-p', String(port), '-U', 'tester', '-d', 'db', '-c', sql], {
    encoding: 'utf8',
    env: { ...process.env, PGCONNECT_TIMEOUT: '10' },
    timeout: 30000,
  });
}
