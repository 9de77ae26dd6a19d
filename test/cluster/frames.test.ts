// Pings and pushes go over one framed connection per peer, opened by an HTTP upgrade on the gossip
// port: the upgrade is checked as any peer request (another cluster gets 409), and an agent that
// does not offer it (`frames = false`, as an agent from before it) is called over HTTP both ways.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { AgentProcess } from '../helpers/agent';
import { eventually, exec, members, rows, startMesh } from '../helpers/cluster';
import { request } from '../helpers/http';

const N = 3;

async function connections(base: string): Promise<{ out: number; in: number }> {
  const r = await request(base, 'GET', '/v1/sync/status');
  return (r.json as { peer_connections: { out: number; in: number } }).peer_connections;
}

/** Asks `addr` for the framed connection as agent `from` of cluster `clusterId`. */
function upgrade(
  addr: string,
  clusterId: number,
  from: { actor: string; addr: string },
): Promise<{ status: number; cluster: string | undefined; socket: Duplex | null; head: Buffer }> {
  const [host, port] = addr.split(':');
  return new Promise((resolve, reject) => {
    const req = http.request({
      host,
      port: Number(port),
      method: 'GET',
      path: '/peer/v1/frames',
      agent: false,
      headers: {
        connection: 'Upgrade',
        upgrade: 'patina-frames/1',
        'x-patina-cluster': String(clusterId),
        'x-patina-actor': from.actor,
        'x-patina-addr': from.addr,
      },
    });
    req.on('upgrade', (res, socket, head) =>
      resolve({ status: res.statusCode ?? 0, cluster: res.headers['x-patina-cluster'] as string, socket, head }),
    );
    req.on('response', (res) => {
      res.resume();
      resolve({
        status: res.statusCode ?? 0,
        cluster: res.headers['x-patina-cluster'] as string,
        socket: null,
        head: Buffer.alloc(0),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends frames on `socket` and collects `count` answers. */
function exchange(socket: Duplex, head: Buffer, frames: unknown[], count: number): Promise<unknown[]> {
  for (const f of frames) {
    const body = Buffer.from(JSON.stringify(f));
    const len = Buffer.alloc(4);
    len.writeUInt32BE(body.length);
    socket.write(Buffer.concat([len, body]));
  }
  return new Promise((resolve, reject) => {
    let buf = head;
    const out: unknown[] = [];
    const take = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
        const n = buf.readUInt32BE(0);
        out.push(JSON.parse(buf.toString('utf8', 4, 4 + n)));
        buf = buf.subarray(4 + n);
      }
      if (out.length >= count) resolve(out);
    };
    socket.on('data', take);
    socket.on('error', reject);
    take(Buffer.alloc(0));
  });
}

describe('peer messages over one framed connection per peer', function () {
  this.timeout(60_000);
  const nodes: AgentProcess[] = [];

  before(async () => {
    // the third agent does not offer the framed connection, as an agent from before it
    await startMesh(nodes, N, (i) => `[gossip]\nsync_interval = 3600\n${i === 2 ? 'frames = false\n' : ''}`);
  });
  after(async () => {
    for (const n of nodes) await n.dispose();
  });

  it('uses one connection each way between agents that offer it, and HTTP with one that does not', async () => {
    for (let i = 0; i < N; i++)
      await exec(nodes[i].http, [['INSERT INTO kv (k, v) VALUES (?, ?)', [i + 1, `from ${i}`]]]);
    await eventually('every agent has every write (pushed: sync is once an hour)', 20_000, async () => {
      const counts = await Promise.all(nodes.map((n) => rows(n.http, 'SELECT count(*) FROM kv')));
      return counts.every((c) => JSON.stringify(c) === `[[${N}]]`) || JSON.stringify(counts);
    });
    assert.deepEqual(await connections(nodes[0].http), { out: 1, in: 1 });
    assert.deepEqual(await connections(nodes[1].http), { out: 1, in: 1 });
    assert.deepEqual(await connections(nodes[2].http), { out: 0, in: 0 });
    const seen = await Promise.all(nodes.map((n) => members(n.http)));
    for (const m of seen)
      assert.deepEqual(
        m.map((x) => x.state),
        ['alive', 'alive'],
      );
  });

  it('refuses the upgrade of another cluster with 409, and answers frames of its own cluster', async () => {
    const agent1 = (await members(nodes[0].http)).find((m) => m.addr === nodes[1].gossip)!;
    const from = { actor: agent1.actor_id!, addr: nodes[1].gossip! };
    const other = await upgrade(nodes[0].gossip!, 7, from);
    assert.equal(other.status, 409);
    assert.equal(other.cluster, '0');
    assert.equal(other.socket, null);
    const old = await upgrade(nodes[2].gossip!, 0, from);
    assert.equal(old.status, 404, 'an agent without frames answers the upgrade as a plain request');
    const ok = await upgrade(nodes[0].gossip!, 0, from);
    assert.equal(ok.status, 101);
    assert.equal(ok.cluster, '0');
    const answers = await exchange(
      ok.socket!,
      ok.head,
      [
        { i: 1, r: 'changes', b: { cs: [] } },
        { i: 2, r: 'no-such-route', b: {} },
      ],
      2,
    );
    ok.socket!.destroy();
    answers.sort((a, b) => (a as { i: number }).i - (b as { i: number }).i); // answers come in any order
    assert.deepEqual(answers[0], { i: 1, b: {} });
    assert.equal((answers[1] as { i: number }).i, 2);
    assert.match((answers[1] as { e: string }).e, /no peer route/);
  });
});
