// The three-agent example (examples/cluster/run.sh) runs as the README says: certificates made with
// openssl, mutual TLS between agents, HTTPS with tokens, and replication across the three.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CLI } from '../helpers/agent';

const EXAMPLES = path.resolve(__dirname, '..', '..', '..', 'examples');

/** `n` distinct free ports: each listener is held until all are picked (a port closed at once could be picked again). */
async function freePorts(n: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = net.createServer();
      servers.push(s);
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
    }
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

/** Moves the agents' addresses in the example's files to free ports (`ports`: each port now, updated). */
async function movePorts(root: string, ports: Map<string, number>): Promise<void> {
  const moved = new Map<number, number>();
  const free = await freePorts(ports.size);
  for (const [name, now] of ports) {
    const next = free.shift()!;
    moved.set(now, next);
    ports.set(name, next);
  }
  for (let i = 1; i <= 3; i++) {
    const f = path.join(root, 'examples', 'cluster', `agent${i}.toml`);
    fs.writeFileSync(
      f,
      fs
        .readFileSync(f, 'utf8')
        .replace(/127\.0\.0\.1:(\d+)/g, (m, p: string) => `127.0.0.1:${moved.get(Number(p)) ?? p}`),
    );
  }
}

/** Runs the example once (EXAMPLE_ONCE); stopped (its agents with it) if it has not ended within 70 s. */
function runExample(root: string): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve) => {
    const p = spawn('bash', [path.join(root, 'examples', 'cluster', 'run.sh')], {
      env: { ...process.env, EXAMPLE_ONCE: '1', PATINA_CLI: CLI },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    p.stdout.on('data', (d) => (text += d));
    p.stderr.on('data', (d) => (text += d));
    // the script's trap stops its agents when it is stopped
    const timer = setTimeout(() => {
      text += '\n(the example did not end within 70 s: stopped)';
      p.kill('SIGTERM');
    }, 70000);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, text });
    });
  });
}

describe('the three-agent example over TLS with tokens', function () {
  this.timeout(90000);
  it('replicates a write made on agent 1 to agents 2 and 3', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'patina-example-'));
    try {
      for (const d of ['cluster', 'tls', 'schema'])
        fs.cpSync(path.join(EXAMPLES, d), path.join(root, 'examples', d), { recursive: true });
      // the example's fixed ports, moved to free ones so that parallel runs do not collide
      const ports = new Map<string, number>();
      for (const p of ['8081', '8082', '8083', '5471', '5472', '5473', '8791', '8792', '8793']) ports.set(p, Number(p));
      await movePorts(root, ports);
      let out = await runExample(root);
      // A port picked free above can be taken before an agent binds it (another process's outgoing
      // connection draws from the same range; mocha's second worker starts agents on ports the kernel
      // picks meanwhile): then the example stops at once, and runs again on new ports, up to three
      // more times (one retry was not enough once in a CI run of the parallel suite).
      for (let retry = 0; retry < 3 && out.code !== 0 && /EADDRINUSE|address already in use/i.test(out.text); retry++) {
        await movePorts(root, ports);
        out = await runExample(root);
      }
      assert.equal(out.code, 0, out.text);
      assert.match(out.text, /agent ready, HTTP API on https:\/\//);
      assert.match(out.text, /agent 2 sees: written on agent 1\n/);
      assert.match(out.text, /agent 3 sees: written on agent 1\n/);
      assert.match(out.text, /alive/);
      const secrets = path.join(root, 'data', 'cluster', 'secrets');
      for (const f of ['ca.crt', 'agent1.crt', 'agent1.key', 'admin.token', 'read.token', 'app.password'])
        assert.ok(fs.existsSync(path.join(secrets, f)), f);
      const token = fs.readFileSync(path.join(secrets, 'admin.token'), 'utf8').trim();
      assert.ok(!out.text.includes(token), 'the example printed a token');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
