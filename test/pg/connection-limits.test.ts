// PostgreSQL's authentication_timeout and max_connections on a listener, driven with raw sockets
// while ordinary clients go on working.
import assert from 'node:assert/strict';
import net from 'node:net';
import { serialize } from 'pg-protocol';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { request } from '../helpers/http';
import { pgClient, RawPg } from '../helpers/pg';
import { eventually, sleep } from '../helpers/wait';

const SCHEMA = 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT);';

/** A raw socket to the listener, kept as the test leaves it. */
function rawSocket(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

const closed = (s: net.Socket) => new Promise<void>((r) => (s.destroyed ? r() : s.once('close', () => r())));

async function metric(agent: AgentProcess, name: string): Promise<number> {
  const r = await request(agent.http, 'GET', '/metrics');
  const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(r.text);
  return m ? Number(m[1]) : Number.NaN;
}

describe('PostgreSQL connection limits', function () {
  this.timeout(60_000);

  it('closes connections that do not log in within authentication_timeout: silent, mid-startup and mid-SCRAM; clients that log in stay', async () => {
    const agent = await startAgent({
      schema: SCHEMA,
      config: '[api.pg]\naddr = "127.0.0.1:0"\nauthentication_timeout = 1\npassword = "pw-1"\n',
    });
    try {
      const port = agent.pg!.port;
      const silent = await Promise.all(Array.from({ length: 50 }, () => rawSocket(port)));
      // Half a startup packet: a length of 40 and 4 bytes.
      const partial = await rawSocket(port);
      partial.write(Buffer.from([0, 0, 0, 40, 0, 3, 0, 0]));
      // A SCRAM exchange left after its first step.
      const sasl = await RawPg.connect(port);
      sasl.listen();
      sasl.send(serialize.startup({ user: 'app', database: 'db' }));
      await sasl.until('authenticationSASL');
      // An ordinary client logs in meanwhile, and stays past the timeout.
      const good = pgClient(port, { password: 'pw-1' });
      await good.connect();
      const started = Date.now();
      await Promise.all([...silent, partial].map(closed));
      await sasl.closedBy(5000);
      assert.ok(Date.now() - started < 5000, 'closed within a few seconds of the 1 s timeout');
      await sleep(1200);
      assert.equal((await good.query('SELECT 1 AS one')).rows[0].one, 1, 'a logged-in session is not timed out');
      await good.end();
      assert.ok((await metric(agent, 'patina_pg_authentication_timeouts_total')) >= 52);
      await eventually(
        'the sockets are released',
        5000,
        async () => (await metric(agent, 'patina_pg_connections')) === 0,
      );
    } finally {
      await agent.dispose();
    }
  });

  it('answers startups past max_connections with FATAL 53300, and takes new ones once others left', async () => {
    const agent = await startAgent({
      schema: SCHEMA,
      config: '[api.pg]\naddr = "127.0.0.1:0"\nmax_connections = 5\n',
    });
    try {
      const port = agent.pg!.port;
      const five = Array.from({ length: 5 }, () => pgClient(port));
      await Promise.all(five.map((c) => c.connect()));
      const extra = pgClient(port);
      await assert.rejects(
        extra.connect(),
        (e: { code?: string; message: string }) =>
          e.code === '53300' && /sorry, too many clients already/.test(e.message),
      );
      // Raw: the refusal is a FATAL ErrorResponse after the startup packet, then the close.
      const raw = await RawPg.connect(port);
      raw.listen();
      raw.send(serialize.startup({ user: 'tester', database: 'db' }));
      const err = (await raw.until('error')).pop() as unknown as { code: string; severity: string };
      assert.equal(err.code, '53300');
      assert.equal(err.severity, 'FATAL');
      await raw.closedBy();
      // The five work on; when two leave, two more get in.
      for (const c of five) assert.equal((await c.query('SELECT 2 AS two')).rows[0].two, 2);
      await five[0].end();
      await five[1].end();
      await eventually('two more connect', 5000, async () => {
        const more = [pgClient(port), pgClient(port)];
        try {
          await Promise.all(more.map((c) => c.connect()));
          await Promise.all(more.map((c) => c.end()));
          return true;
        } catch (e) {
          return (e as Error).message;
        }
      });
      for (const c of five.slice(2)) await c.end();
      assert.ok((await metric(agent, 'patina_pg_connections_refused_total')) >= 2);
    } finally {
      await agent.dispose();
    }
  });

  it('refuses bad limit settings with a message naming the key', async () => {
    await assert.rejects(
      startAgent({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\nmax_connections = 0\n' }),
      /api\.pg\.max_connections.*at least 1/,
    );
    await assert.rejects(
      startAgent({ schema: SCHEMA, config: '[api.pg]\naddr = "127.0.0.1:0"\nauthentication_timeout = "soon"\n' }),
      /api\.pg\.authentication_timeout/,
    );
  });
});
