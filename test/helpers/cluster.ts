import { AgentProcess } from './agent';
import { cellToJson } from '../../src/engine/values';
import { postJson, request } from './http';
import { TcpProxy } from './tcp-proxy';

/** The schema of the replication tests: every SQLite type, and a composite key. */
export const SCHEMA = `
CREATE TABLE kv (k INTEGER NOT NULL PRIMARY KEY, v TEXT, n INTEGER, r REAL, b BLOB);
CREATE TABLE pairs (a TEXT NOT NULL, b INTEGER NOT NULL, x TEXT, PRIMARY KEY (a, b));
`;

/** One agent of a test cluster: its process, its own loopback address, and the proxy peers reach it through. */
export class ClusterNode {
  readonly name: string;
  /** The agent's own loopback address: its peer port and the source of its outgoing connections. */
  readonly ip: string;
  readonly proxy: TcpProxy;
  readonly agent: AgentProcess;

  constructor(name: string, ip: string, proxy: TcpProxy, agent: AgentProcess) {
    this.name = name;
    this.ip = ip;
    this.proxy = proxy;
    this.agent = agent;
  }

  get http(): string {
    return this.agent.http;
  }

  get running(): boolean {
    const p = this.agent.proc;
    return !!p && p.exitCode === null && p.signalCode === null;
  }

  /** Starts (or restarts, keeping its folder) the agent and points its proxy at the new peer port. */
  async start(): Promise<void> {
    await this.agent.start();
    if (!this.agent.gossip) throw new Error(`agent ${this.name} printed no gossip address:\n${this.agent.output}`);
    this.proxy.setTarget(this.agent.gossip);
  }
}

export interface ClusterOptions {
  schema: string;
  /** Extra flags per node (by index). */
  args?: (i: number) => string[];
}

/**
 * Agents on loopback, each behind a TcpProxy: node i listens for peers on 127.0.0.(i+2), advertises its
 * proxy's address, and bootstraps through node 0's proxy. `cut(node)` isolates a node both ways.
 */
export class TestCluster {
  readonly nodes: ClusterNode[] = [];
  readonly #opts: ClusterOptions;

  constructor(opts: ClusterOptions) {
    this.#opts = opts;
  }

  /** Adds and starts a node; `dir` reuses a folder (a database already in place, such as a restored backup). */
  async add(extra: string[] = [], dir?: string): Promise<ClusterNode> {
    const i = this.nodes.length;
    const ip = `127.0.0.${i + 2}`;
    const proxy = await TcpProxy.listen();
    const boot = this.nodes.length > 0 ? ['--bootstrap', this.nodes[0].proxy.addr] : [];
    const agent = new AgentProcess({
      dir,
      schema: this.#opts.schema,
      args: [
        '--gossip-addr',
        `${ip}:0`,
        '--gossip-advertise',
        proxy.addr,
        ...boot,
        ...(this.#opts.args?.(i) ?? []),
        ...extra,
      ],
    });
    const node = new ClusterNode(String.fromCharCode(65 + i), ip, proxy, agent);
    this.nodes.push(node);
    await node.start();
    return node;
  }

  static async start(n: number, opts: ClusterOptions): Promise<TestCluster> {
    const c = new TestCluster(opts);
    for (let i = 0; i < n; i++) await c.add();
    return c;
  }

  /** Drops every byte to and from `node`. */
  cut(node: ClusterNode): void {
    node.proxy.cut();
    for (const o of this.nodes) if (o !== node) o.proxy.dropFrom(node.ip);
  }

  heal(node: ClusterNode): void {
    node.proxy.heal();
    for (const o of this.nodes) if (o !== node) o.proxy.allowFrom(node.ip);
  }

  async dispose(): Promise<void> {
    for (const n of this.nodes) {
      await n.agent.dispose();
      await n.proxy.close();
    }
  }
}

/** Runs statements in one transaction; fails the test on an error. */
export async function exec(base: string, statements: unknown[]): Promise<{ version: number | null }> {
  // cellToJson writes bigints as exact digits (JSON.stringify cannot).
  const r = await request(base, 'POST', '/v1/transactions', cellToJson(statements));
  if (r.status !== 200) throw new Error(`transaction failed (${r.status}): ${r.text}`);
  return r.json as { version: number | null };
}

/** The rows of a read, each as an array of cells. */
export async function rows(base: string, sql: string): Promise<unknown[][]> {
  const r = await postJson(base, '/v1/queries', sql);
  if (r.status !== 200) throw new Error(`query failed (${r.status}): ${r.text}`);
  return r.lines.filter((l) => (l as { row?: unknown }).row).map((l) => (l as { row: [number, unknown[]] }).row[1]);
}

/** A table's content as one comparable string (rows by primary key). */
export async function dump(base: string, table: string): Promise<string> {
  const rs = await rows(base, `SELECT * FROM ${table} ORDER BY 1, 2`);
  return JSON.stringify(rs, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

export async function syncStatus(
  base: string,
): Promise<{ gaps: number; origins: { actor_id: string; head: number; missing: number }[] }> {
  const r = await request(base, 'GET', '/v1/sync/status');
  return r.json as { gaps: number; origins: { actor_id: string; head: number; missing: number }[] };
}

export async function members(
  base: string,
): Promise<{ addr: string; actor_id: string | null; state: string; rtt_ms: number | null }[]> {
  const r = await request(base, 'GET', '/v1/cluster/members');
  return (r.json as { members: { addr: string; actor_id: string | null; state: string; rtt_ms: number | null }[] })
    .members;
}

import { eventually, sleep } from './wait';

export { eventually, sleep };

/**
 * Starts `n` agents on loopback gossip addresses 127.0.0.2, .3, ..., each bootstrapped from the
 * first, with `config(i)` as agent i's config file, and waits until every one sees all the others
 * alive. The agents are pushed onto `nodes` as they start, so an `after` hook disposes of them all
 * even when starting fails.
 */
export async function startMesh(
  nodes: AgentProcess[],
  n: number,
  config: (i: number) => string,
  aliveWithinMs = 30_000,
): Promise<void> {
  for (let i = 0; i < n; i++) {
    const boot = i > 0 ? ['--bootstrap', nodes[0].gossip!] : [];
    const a = new AgentProcess({
      schema: SCHEMA,
      config: config(i),
      args: ['--gossip-addr', `127.0.0.${i + 2}:0`, ...boot],
    });
    nodes.push(a);
    await a.start();
  }
  await eventually('every agent sees all others alive', aliveWithinMs, async () => {
    const all = await Promise.all(nodes.map((x) => members(x.http)));
    return all.every((m) => m.filter((x) => x.state === 'alive').length === n - 1) || 'not yet';
  });
}

/**
 * Waits until every running node has identical tables, no gaps, and the same head for every origin.
 */
export async function converged(nodes: ClusterNode[], tables: string[], timeoutMs = 30_000): Promise<void> {
  await eventually('identical tables and no gaps', timeoutMs, async () => {
    const live = nodes.filter((n) => n.running);
    for (const t of tables) {
      const dumps = await Promise.all(live.map((n) => dump(n.http, t)));
      if (dumps.some((d) => d !== dumps[0]))
        return `table ${t} differs: ${live.map((n, i) => `${n.name}: ${dumps[i].length} chars`).join(', ')}`;
    }
    const st = await Promise.all(live.map((n) => syncStatus(n.http)));
    const heads = st.map((s) => Object.fromEntries(s.origins.map((o) => [o.actor_id, o.head])));
    for (const s of st) if (s.gaps !== 0) return `gaps: ${s.gaps}`;
    const key = (h: Record<string, number>) =>
      JSON.stringify(
        Object.entries(h)
          .filter(([, v]) => v > 0)
          .sort(),
      );
    if (heads.some((h) => key(h) !== key(heads[0]))) return `heads differ: ${heads.map(key).join(' | ')}`;
    return true;
  });
}
