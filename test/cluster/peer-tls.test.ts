// Mutual TLS between agents: members of the cluster's CA replicate; a rogue agent (another CA's
// certificate, or none) cannot join, push or sync, and its changes never land.
import assert from 'node:assert/strict';
import https from 'node:https';
import { AgentProcess, startAgent } from '../helpers/agent';
import { spawnSync } from 'node:child_process';
import { postJson, request } from '../helpers/http';
import { TestCerts } from '../helpers/tls';
import { eventually } from '../helpers/wait';

const SCHEMA = 'CREATE TABLE kv (k INTEGER NOT NULL PRIMARY KEY, v TEXT);';

function gossipConfig(certs: TestCerts | null, name: string): string {
  return (
    `[gossip]\naddr = "127.0.0.1:0"\n` +
    (certs ? `[gossip.tls]\n${certs.pair(name)}ca_file = "${certs.file('ca.crt')}"\n` : '')
  );
}

async function values(agent: AgentProcess): Promise<string[]> {
  const r = await postJson(agent.http, '/v1/queries', 'SELECT v FROM kv ORDER BY k');
  assert.equal(r.status, 200, r.text);
  return (r.lines.slice(1, -1) as { row: [number, [string]] }[]).map((e) => e.row[1][0]);
}

/** A peer request straight to an agent's gossip port, with the TLS options given. */
function peerPost(addr: string, route: string, body: unknown, tls: https.RequestOptions): Promise<number> {
  const [host, port] = addr.split(':');
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = https.request(
      {
        host,
        port: Number(port),
        method: 'POST',
        path: `/peer/v1/${route}`,
        headers: {
          'content-type': 'application/json',
          'x-patina-cluster': '0',
          'x-patina-actor': 'ff'.repeat(16),
          'x-patina-addr': '127.0.0.1:1',
        },
        checkServerIdentity: () => undefined,
        ...tls,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('peers over mutual TLS', function () {
  this.timeout(90000);
  let cluster: TestCerts;
  let rogueCa: TestCerts;
  const agents: AgentProcess[] = [];

  before(() => {
    cluster = TestCerts.generate('a', 'b');
    rogueCa = TestCerts.generate('rogue');
  });
  after(async () => {
    await Promise.all(agents.map((a) => a.dispose()));
    cluster?.dispose();
    rogueCa?.dispose();
  });

  it('agents with certificates of the cluster CA replicate; a rogue agent can neither join nor get its writes in', async () => {
    const a = await startAgent({ schema: SCHEMA, config: gossipConfig(cluster, 'a') });
    agents.push(a);
    const b = await startAgent({
      schema: SCHEMA,
      config: gossipConfig(cluster, 'b'),
      args: ['--bootstrap', a.gossip!],
    });
    agents.push(b);
    assert.equal(
      (await postJson(a.http, '/v1/transactions', ["INSERT INTO kv (k, v) VALUES (1, 'from a')"])).status,
      200,
    );
    await eventually('b has the write of a', 15_000, async () => (await values(b)).includes('from a'));

    const rogueTls = await startAgent({
      schema: SCHEMA,
      config: gossipConfig(rogueCa, 'rogue'),
      args: ['--bootstrap', `${a.gossip},${b.gossip}`],
    });
    agents.push(rogueTls);
    const roguePlain = await startAgent({
      schema: SCHEMA,
      config: gossipConfig(null, 'x'),
      args: ['--bootstrap', `${a.gossip},${b.gossip}`],
    });
    agents.push(roguePlain);
    assert.equal(
      (await postJson(rogueTls.http, '/v1/transactions', ["INSERT INTO kv (k, v) VALUES (66, 'rogue tls')"])).status,
      200,
    );
    assert.equal(
      (await postJson(roguePlain.http, '/v1/transactions', ["INSERT INTO kv (k, v) VALUES (67, 'rogue plain')"]))
        .status,
      200,
    );
    assert.equal(
      (await postJson(b.http, '/v1/transactions', ["INSERT INTO kv (k, v) VALUES (2, 'from b')"])).status,
      200,
    );
    await eventually('a has the later write of b', 15_000, async () => (await values(a)).includes('from b'));
    // several ping and sync rounds (1 s and 2 s) pass
    await new Promise((r) => setTimeout(r, 5000));
    for (const x of [a, b]) {
      assert.deepEqual(await values(x), ['from a', 'from b']);
    }
    for (const rogue of [rogueTls, roguePlain]) {
      const mine = await values(rogue);
      assert.ok(
        !mine.includes('from a') && !mine.includes('from b'),
        `a rogue agent synced the cluster's data: ${mine}`,
      );
    }
    const listed = await fetch(`${a.http}/v1/cluster/members`).then(
      (r) => r.json() as Promise<{ members: { addr: string; state: string }[] }>,
    );
    const alive = listed.members.filter((m) => m.state === 'alive').map((m) => m.addr);
    assert.deepEqual(alive, [b.gossip], `members of a: ${JSON.stringify(listed.members)}`);
  });

  it('refuses a direct push without a certificate of the cluster CA, and takes one with it', async () => {
    const a = agents[0];
    const push = { cs: [] };
    await assert.rejects(
      peerPost(a.gossip!, 'changes', push, {
        ca: cluster.read('ca.crt'),
        cert: rogueCa.read('rogue.crt'),
        key: rogueCa.read('rogue.key'),
      }),
    );
    await assert.rejects(peerPost(a.gossip!, 'changes', push, { ca: cluster.read('ca.crt') }));
    await assert.rejects(peerPost(a.gossip!, 'sync', { heads: {} }, { rejectUnauthorized: false }));
    assert.equal(
      await peerPost(a.gossip!, 'changes', push, {
        ca: cluster.read('ca.crt'),
        cert: cluster.read('b.crt'),
        key: cluster.read('b.key'),
      }),
      200,
    );
  });
});

describe('peer certificates on reload', function () {
  this.timeout(60000);
  it('serves a re-read gossip certificate to the next handshake after patina reload', async () => {
    const certs = TestCerts.generate('a', 'b');
    const a = await startAgent({ schema: SCHEMA, config: gossipConfig(certs, 'a') });
    try {
      const serial = () =>
        spawnSync(
          'bash',
          [
            '-c',
            `openssl s_client -connect ${a.gossip} -CAfile ${certs.file('ca.crt')} -cert ${certs.file('b.crt')} -key ${certs.file('b.key')} </dev/null 2>/dev/null | openssl x509 -noout -serial`,
          ],
          { encoding: 'utf8' },
        ).stdout.trim();
      const before = serial();
      assert.match(before, /^serial=/);
      certs.add('a');
      assert.equal((await request(a.http, 'POST', '/v1/admin/reload')).status, 200);
      const after = serial();
      assert.match(after, /^serial=/);
      assert.notEqual(after, before);
      assert.equal(
        await peerPost(
          a.gossip!,
          'changes',
          { cs: [] },
          { ca: certs.read('ca.crt'), cert: certs.read('b.crt'), key: certs.read('b.key') },
        ),
        200,
      );
    } finally {
      await a.dispose();
      certs.dispose();
    }
  });
});

describe('plaintext gossip off loopback', () => {
  it('is refused unless gossip.plaintext = true', async () => {
    const refused = new AgentProcess({ schema: SCHEMA, args: ['--gossip-addr', '0.0.0.0:0'] });
    await assert.rejects(
      refused.start(),
      /gossip would listen on 0\.0\.0\.0:0, which is not loopback, in plaintext; configure \[gossip\.tls\]/,
    );
    await refused.dispose();
    const allowed = await startAgent({ schema: SCHEMA, config: '[gossip]\naddr = "0.0.0.0:0"\nplaintext = true\n' });
    await allowed.dispose();
  });

  it('[gossip.tls] needs ca_file', async () => {
    const certs = TestCerts.generate('a');
    try {
      await assert.rejects(
        startAgent({ schema: SCHEMA, config: `[gossip]\naddr = "127.0.0.1:0"\n[gossip.tls]\n${certs.pair('a')}` }),
        /gossip\.tls\.ca_file: missing/,
      );
    } finally {
      certs.dispose();
    }
  });
});
