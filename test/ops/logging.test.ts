import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { type AgentProcess, startAgent } from '../helpers/agent';
import { runCli } from '../helpers/cli';
import { postJson, request } from '../helpers/http';
import { pgClient } from '../helpers/pg';
import { eventually, sleep } from '../helpers/cluster';
import { LIVE_SCHEMA, changes, subscribe, untilChange, write } from '../helpers/subscriptions';
import { scrape, value } from '../helpers/metrics';

const PG_PASSWORD = 'pg-password-that-must-not-leak';
const PARAM_SECRET = 'param-value-that-must-not-leak';

type Line = Record<string, unknown> & { level: string; msg: string; time: string; pid: number };

/** Every stderr line of the agent parsed as JSON (the test fails on a line that is not). */
function jsonLines(agent: AgentProcess): Line[] {
  return agent.output
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('patina: agent ready'))
    .map((l) => {
      try {
        return JSON.parse(l) as Line;
      } catch {
        throw new Error(`a log line that is not JSON: ${l}`);
      }
    });
}

describe('logging: [log] format = "json"', function () {
  this.timeout(120_000);
  let a: AgentProcess;
  let b: AgentProcess | null = null;
  before(async () => {
    a = await startAgent({
      schema: LIVE_SCHEMA,
      config: [
        '[log]',
        'format = "json"',
        'level = "info"',
        'slow_query_seconds = 0.05',
        '[api.pg]',
        'addr = "127.0.0.1:0"',
        `password = "${PG_PASSWORD}"`,
        '[subscriptions]',
        'client_buffer = 20',
        '[gossip]',
        'addr = "127.0.0.1:0"',
        'ping_interval = 0.2',
        'down_after = 2',
        'down_ping_interval = 0.5',
        'sync_interval = 0.5',
      ].join('\n'),
    });
  });
  after(async () => {
    await b?.dispose();
    await a?.dispose();
  });

  it('logs start-up as JSON lines with level, time, pid and message', async () => {
    const lines = jsonLines(a);
    const started = lines.find((l) => l.msg === 'agent started');
    assert.ok(started, JSON.stringify(lines));
    assert.equal(started.level, 'info');
    assert.equal(started.pid, a.proc.pid);
    assert.ok(!Number.isNaN(Date.parse(started.time)));
    assert.equal(started.db, a.dbPath);
    assert.match(String(started.actor_id), /^[0-9a-f]{32}$/);
    assert.ok(
      lines.some((l) => l.msg === 'schema applied at start' && (l.created_tables as string[]).includes('users')),
    );
  });

  it('writes no line per request at the default level, but logs slow queries without their parameters', async () => {
    const before = jsonLines(a).length;
    for (let i = 0; i < 50; i++) {
      await write(a.http, [['INSERT INTO users (id, name) VALUES (?, ?)', [i, `u${i}`]]]);
      assert.equal((await postJson(a.http, '/v1/queries', ['SELECT name FROM users WHERE id = ?', [i]])).status, 200);
    }
    assert.equal((await request(a.http, 'GET', '/v1/health')).status, 200);
    assert.equal((await request(a.http, 'GET', '/no/such/route')).status, 404);
    await sleep(200);
    // On a loaded machine one of these may pass slow_query_seconds (0.05 s here) and be logged as slow; nothing else may be.
    assert.deepEqual(
      jsonLines(a)
        .slice(before)
        .filter((l) => !/^slow (read|write)$/.test(l.msg)),
      [],
      'no log line for ordinary requests',
    );

    const slow =
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) FROM c WHERE ? IS NOT NULL';
    const r = await postJson(a.http, '/v1/queries', [slow, [PARAM_SECRET]]);
    assert.equal(r.status, 200, r.text);
    await eventually(
      'the slow read is logged',
      5000,
      async () => jsonLines(a).some((l) => l.msg === 'slow read') || 'not yet',
    );
    const line = jsonLines(a).find((l) => l.msg === 'slow read')!;
    assert.equal(line.level, 'warn');
    assert.equal(line.sql, slow);
    assert.ok(Number(line.seconds) >= 0.05);
    assert.ok(!a.output.includes(PARAM_SECRET), 'parameters are never logged');
  });

  it('logs schema changes, and a refused reload with its reason', async () => {
    const schemaFile = path.join(a.dir, 'schema.sql');
    fs.writeFileSync(schemaFile, LIVE_SCHEMA + '\nCREATE TABLE notes (id INTEGER NOT NULL PRIMARY KEY, body TEXT);\n');
    assert.equal((await request(a.http, 'POST', '/v1/admin/reload')).status, 200);
    await eventually(
      'the reload is logged',
      5000,
      async () =>
        jsonLines(a).some((l) => l.msg === 'schema reloaded' && (l.created_tables as string[]).includes('notes')) ||
        'not yet',
    );
    fs.writeFileSync(schemaFile, LIVE_SCHEMA); // dropping notes is refused
    assert.equal((await request(a.http, 'POST', '/v1/admin/reload')).status, 409);
    await eventually(
      'the refusal is logged',
      5000,
      async () =>
        jsonLines(a).some(
          (l) => l.msg === 'schema reload refused' && l.level === 'warn' && /notes/.test(JSON.stringify(l.err)),
        ) || 'not yet',
    );
    fs.writeFileSync(schemaFile, LIVE_SCHEMA + '\nCREATE TABLE notes (id INTEGER NOT NULL PRIMARY KEY, body TEXT);\n');
  });

  it('never logs the PostgreSQL password, even when a client gets it wrong', async () => {
    const port = Number(/PostgreSQL on [^\s,]+:(\d+)/.exec(a.output)![1]);
    const wrong = pgClient(port, { password: 'wrong-' + PG_PASSWORD });
    await assert.rejects(wrong.connect(), /password authentication failed/);
    const right = pgClient(port, { password: PG_PASSWORD });
    await right.connect();
    await right.query('SELECT 1');
    await right.end();
    await sleep(200);
    assert.ok(!a.output.includes(PG_PASSWORD));
  });

  it('logs a subscription client cut off for falling behind', async () => {
    const body = 'SELECT id, name FROM users WHERE id >= 600';
    const slow = await subscribe(a.http, body);
    slow.stream.res.pause();
    const big = 'x'.repeat(200000);
    for (let i = 0; i < 60; i++) await write(a.http, [['INSERT INTO users VALUES (?, ?, 6, 0)', [600 + i, big + i]]]);
    slow.stream.res.resume();
    await slow.stream.until(() => slow.stream.ended, 15000);
    assert.ok(changes(slow.stream.events).length < 60);
    await eventually(
      'the cut-off is logged',
      5000,
      async () =>
        jsonLines(a).some(
          (l) =>
            l.msg === 'subscription client cut off: it fell behind' && l.level === 'warn' && l.client_buffer === 20,
        ) || 'not yet',
    );
    assert.equal(value(await scrape(a.http), 'patina_clients_cut_off_total{stream="subscription"}'), 1);
    void untilChange;
  });

  it('logs peers coming up, leaving (SIGTERM) and going down (SIGKILL), with their address', async () => {
    const gossip = /gossip on ([^\s,]+)/.exec(a.output)![1];
    const join = async () => {
      const agent = await startAgent({
        schema: LIVE_SCHEMA,
        args: ['--gossip-addr', '127.0.0.1:0', '--bootstrap', gossip, '--log-format', 'json'],
      });
      const addr = /gossip on ([^\s,]+)/.exec(agent.output)![1];
      await eventually(
        'A logs the new agent up',
        15_000,
        async () => jsonLines(a).some((l) => l.msg === 'peer up' && l.peer === addr) || 'not yet',
      );
      return { agent, addr };
    };
    const left = await join();
    b = left.agent;
    await b.stop();
    await eventually(
      'A logs B left',
      15_000,
      async () =>
        jsonLines(a).some((l) => l.msg === 'peer left' && l.peer === left.addr && l.level === 'info') || 'not yet',
    );
    assert.ok(!jsonLines(a).some((l) => l.msg === 'peer down' && l.peer === left.addr), 'a departure is not a failure');
    const bLines = jsonLines(b);
    assert.ok(bLines.some((l) => l.msg === 'SIGTERM, stopping'));
    assert.ok(bLines.some((l) => l.msg === 'agent stopped'));

    await b.dispose();
    const killed = await join();
    b = killed.agent;
    await b.kill();
    await eventually(
      'A logs C down',
      30_000,
      async () =>
        jsonLines(a).some(
          (l) =>
            l.msg === 'peer down' &&
            l.peer === killed.addr &&
            l.level === 'warn' &&
            typeof l.failed_probes === 'number',
        ) || 'not yet',
    );
  });

  it("reads the [gossip] timings from the config (today's values by default)", async () => {
    const tuning = ((await request(a.http, 'GET', '/v1/sync/status')).json as { tuning: Record<string, number> })
      .tuning;
    assert.equal(tuning.pingIntervalMs, 200);
    assert.equal(tuning.downAfter, 2);
    assert.equal(tuning.downPingIntervalMs, 500);
    assert.equal(tuning.syncIntervalMs, 500);
    assert.equal(tuning.fanout, 3);
    assert.equal(tuning.pushDirect, 32);
    assert.equal(tuning.frames, true);
    assert.equal(tuning.chunkRows, 2000);
  });
});

describe('logging: text format and bad settings', function () {
  this.timeout(60_000);

  it('logs text lines by default', async () => {
    const agent = await startAgent({ schema: LIVE_SCHEMA });
    try {
      assert.match(agent.output, /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO \(\d+\): agent started \{/m);
    } finally {
      await agent.dispose();
    }
  });

  const invalid = [
    { toml: '[log]\nformat = "xml"\n', key: /log\.format.*"text" or "json"/ },
    { toml: '[log]\nlevel = "loud"\n', key: /log\.level/ },
    { toml: '[log]\nslow_query_seconds = -1\n', key: /log\.slow_query_seconds/ },
    { toml: '[log]\ncolour = true\n', key: /log\.colour.*unknown key/ },
    { toml: '[gossip]\nping_interval = 0\n', key: /gossip\.ping_interval/ },
    { toml: '[gossip]\nfanout = -1\n', key: /gossip\.fanout/ },
    { toml: '[gossip]\npush_direct = -1\n', key: /gossip\.push_direct/ },
    { toml: '[gossip]\nframes = "yes"\n', key: /gossip\.frames/ },
    { toml: '[gossip]\ndown_after = 1.5\n', key: /gossip\.down_after/ },
    { toml: '[gossip]\nchunk_rows = "many"\n', key: /gossip\.chunk_rows/ },
    { toml: '[gossip]\nbootstrap = ["127.0.0.1:1"]\n', key: /gossip\.addr.*missing/ },
  ];
  for (const c of invalid) {
    it(`refuses ${c.toml.trim().replace(/\n/g, ' ')}, naming the key`, async () => {
      const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'patina-logcfg-'));
      try {
        fs.writeFileSync(path.join(dir, 'c.toml'), c.toml);
        const r = await runCli(
          ['agent', '-c', path.join(dir, 'c.toml'), '--db-path', path.join(dir, 'x.db'), '--api-addr', '127.0.0.1:0'],
          { cwd: dir },
        );
        assert.notEqual(r.code, 0, r.stdout);
        assert.match(r.stderr, c.key);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('refuses a bad --log-level or --log-format flag', async () => {
    const level = await runCli(['agent', '--log-level', 'loud', '--db-path', '/tmp/never.db']);
    assert.equal(level.code, 2);
    assert.match(level.stderr, /--log-level must be one of/);
    const format = await runCli(['agent', '--log-format', 'xml', '--db-path', '/tmp/never.db']);
    assert.equal(format.code, 2);
    assert.match(format.stderr, /--log-format must be text or json/);
  });

  it('takes [gossip] tunables without an address (the agent runs alone)', async () => {
    const agent = await startAgent({ schema: LIVE_SCHEMA, config: '[gossip]\nsync_interval = 5\nfanout = 1\n' });
    try {
      const m = (await request(agent.http, 'GET', '/v1/cluster/members')).json as { clustered: boolean };
      assert.equal(m.clustered, false);
    } finally {
      await agent.dispose();
    }
  });
});
