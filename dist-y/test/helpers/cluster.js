"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sleep = exports.eventually = exports.TestCluster = exports.ClusterNode = exports.SCHEMA = void 0;
exports.exec = exec;
exports.rows = rows;
exports.dump = dump;
exports.syncStatus = syncStatus;
exports.members = members;
exports.startMesh = startMesh;
exports.converged = converged;
const agent_1 = require("./agent");
const values_1 = require("../../src/engine/values");
const http_1 = require("./http");
const tcp_proxy_1 = require("./tcp-proxy");
/** The schema of the replication tests: every SQLite type, and a composite key. */
exports.SCHEMA = `
CREATE TABLE kv (k INTEGER NOT NULL PRIMARY KEY, v TEXT, n INTEGER, r REAL, b BLOB);
CREATE TABLE pairs (a TEXT NOT NULL, b INTEGER NOT NULL, x TEXT, PRIMARY KEY (a, b));
`;
/** One agent of a test cluster: its process, its own loopback address, and the proxy peers reach it through. */
class ClusterNode {
    name;
    /** The agent's own loopback address: its peer port and the source of its outgoing connections. */
    ip;
    proxy;
    agent;
    constructor(name, ip, proxy, agent) {
        this.name = name;
        this.ip = ip;
        this.proxy = proxy;
        this.agent = agent;
    }
    get http() {
        return this.agent.http;
    }
    get running() {
        const p = this.agent.proc;
        return !!p && p.exitCode === null && p.signalCode === null;
    }
    /** Starts (or restarts, keeping its folder) the agent and points its proxy at the new peer port. */
    async start() {
        await this.agent.start();
        if (!this.agent.gossip)
            throw new Error(`agent ${this.name} printed no gossip address:\n${this.agent.output}`);
        this.proxy.setTarget(this.agent.gossip);
    }
}
exports.ClusterNode = ClusterNode;
/**
 * Agents on loopback, each behind a TcpProxy: node i listens for peers on 127.0.0.(i+2), advertises its
 * proxy's address, and bootstraps through node 0's proxy. `cut(node)` isolates a node both ways.
 */
class TestCluster {
    nodes = [];
    #opts;
    constructor(opts) {
        this.#opts = opts;
    }
    /** Adds and starts a node; `dir` reuses a folder (a database already in place, such as a restored backup). */
    async add(extra = [], dir) {
        const i = this.nodes.length;
        const ip = `127.0.0.${i + 2}`;
        const proxy = await tcp_proxy_1.TcpProxy.listen();
        const boot = this.nodes.length > 0 ? ['--bootstrap', this.nodes[0].proxy.addr] : [];
        const agent = new agent_1.AgentProcess({
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
    static async start(n, opts) {
        const c = new TestCluster(opts);
        for (let i = 0; i < n; i++)
            await c.add();
        return c;
    }
    /** Drops every byte to and from `node`. */
    cut(node) {
        node.proxy.cut();
        for (const o of this.nodes)
            if (o !== node)
                o.proxy.dropFrom(node.ip);
    }
    heal(node) {
        node.proxy.heal();
        for (const o of this.nodes)
            if (o !== node)
                o.proxy.allowFrom(node.ip);
    }
    async dispose() {
        for (const n of this.nodes) {
            await n.agent.dispose();
            await n.proxy.close();
        }
    }
}
exports.TestCluster = TestCluster;
/** Runs statements in one transaction; fails the test on an error. */
async function exec(base, statements) {
    // cellToJson writes bigints as exact digits (JSON.stringify cannot).
    const r = await (0, http_1.request)(base, 'POST', '/v1/transactions', (0, values_1.cellToJson)(statements));
    if (r.status !== 200)
        throw new Error(`transaction failed (${r.status}): ${r.text}`);
    return r.json;
}
/** The rows of a read, each as an array of cells. */
async function rows(base, sql) {
    const r = await (0, http_1.postJson)(base, '/v1/queries', sql);
    if (r.status !== 200)
        throw new Error(`query failed (${r.status}): ${r.text}`);
    return r.lines.filter((l) => l.row).map((l) => l.row[1]);
}
/** A table's content as one comparable string (rows by primary key). */
async function dump(base, table) {
    const rs = await rows(base, `SELECT * FROM ${table} ORDER BY 1, 2`);
    return JSON.stringify(rs, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
}
async function syncStatus(base) {
    const r = await (0, http_1.request)(base, 'GET', '/v1/sync/status');
    return r.json;
}
async function members(base) {
    const r = await (0, http_1.request)(base, 'GET', '/v1/cluster/members');
    return r.json
        .members;
}
const wait_1 = require("./wait");
Object.defineProperty(exports, "eventually", { enumerable: true, get: function () { return wait_1.eventually; } });
Object.defineProperty(exports, "sleep", { enumerable: true, get: function () { return wait_1.sleep; } });
/**
 * Starts `n` agents on loopback gossip addresses 127.0.0.2, .3, ..., each bootstrapped from the
 * first, with `config(i)` as agent i's config file, and waits until every one sees all the others
 * alive. The agents are pushed onto `nodes` as they start, so an `after` hook disposes of them all
 * even when starting fails.
 */
async function startMesh(nodes, n, config, aliveWithinMs = 30_000) {
    for (let i = 0; i < n; i++) {
        const boot = i > 0 ? ['--bootstrap', nodes[0].gossip] : [];
        const a = new agent_1.AgentProcess({
            schema: exports.SCHEMA,
            config: config(i),
            args: ['--gossip-addr', `127.0.0.${i + 2}:0`, ...boot],
        });
        nodes.push(a);
        await a.start();
    }
    await (0, wait_1.eventually)('every agent sees all others alive', aliveWithinMs, async () => {
        const all = await Promise.all(nodes.map((x) => members(x.http)));
        return all.every((m) => m.filter((x) => x.state === 'alive').length === n - 1) || 'not yet';
    });
}
/**
 * Waits until every running node has identical tables, no gaps, and the same head for every origin.
 */
async function converged(nodes, tables, timeoutMs = 30_000) {
    await (0, wait_1.eventually)('identical tables and no gaps', timeoutMs, async () => {
        const live = nodes.filter((n) => n.running);
        for (const t of tables) {
            const dumps = await Promise.all(live.map((n) => dump(n.http, t)));
            if (dumps.some((d) => d !== dumps[0]))
                return `table ${t} differs: ${live.map((n, i) => `${n.name}: ${dumps[i].length} chars`).join(', ')}`;
        }
        const st = await Promise.all(live.map((n) => syncStatus(n.http)));
        const heads = st.map((s) => Object.fromEntries(s.origins.map((o) => [o.actor_id, o.head])));
        for (const s of st)
            if (s.gaps !== 0)
                return `gaps: ${s.gaps}`;
        const key = (h) => JSON.stringify(Object.entries(h)
            .filter(([, v]) => v > 0)
            .sort());
        if (heads.some((h) => key(h) !== key(heads[0])))
            return `heads differ: ${heads.map(key).join(' | ')}`;
        return true;
    });
}
//# sourceMappingURL=cluster.js.map