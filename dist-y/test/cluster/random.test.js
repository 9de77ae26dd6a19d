"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const cluster_1 = require("../helpers/cluster");
/** A small seeded generator, so that a failing run can be replayed with PATINA_SEED. */
function rng(seed) {
    let s = seed >>> 0;
    return () => {
        s = (s + 0x6d2b79f5) >>> 0;
        let t = s;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
describe('replication under random writes, kills, restarts and cuts', function () {
    const seconds = Number(process.env.PATINA_RANDOM_SECONDS ?? 30);
    this.timeout((seconds + 120) * 1000);
    let c;
    before(async () => {
        c = await cluster_1.TestCluster.start(3, { schema: cluster_1.SCHEMA });
    });
    after(async () => c?.dispose());
    it(`ends with identical tables and no gaps on every agent (${seconds} s of chaos)`, async () => {
        const seed = Number(process.env.PATINA_SEED ?? Date.now() % 1_000_000);
        const rand = rng(seed);
        const pick = (xs) => xs[Math.floor(rand() * xs.length)];
        const log = [`seed ${seed}`];
        const cut = new Set();
        const deadline = Date.now() + seconds * 1000;
        let writes = 0;
        // Writers: random inserts, updates, deletes and re-inserts on a small key space, so they conflict.
        const writer = async () => {
            while (Date.now() < deadline) {
                const live = c.nodes.filter((n) => n.running);
                if (live.length === 0) {
                    await (0, cluster_1.sleep)(100);
                    continue;
                }
                const n = pick(live);
                const k = Math.floor(rand() * 200);
                const op = rand();
                const stmts = op < 0.45
                    ? [
                        [
                            'INSERT INTO kv (k, v, n) VALUES (?, ?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v, n = excluded.n',
                            [k, `w${writes}`, writes],
                        ],
                    ]
                    : op < 0.75
                        ? [['UPDATE kv SET r = ?, b = ? WHERE k = ?', [rand(), [writes & 255], k]]]
                        : op < 0.9
                            ? [['DELETE FROM kv WHERE k = ?', [k]]]
                            : [
                                [
                                    'INSERT INTO pairs (a, b, x) VALUES (?, ?, ?) ON CONFLICT (a, b) DO UPDATE SET x = excluded.x',
                                    [`p${k % 7}`, k % 5, `x${writes}`],
                                ],
                            ];
                try {
                    await (0, cluster_1.exec)(n.http, stmts);
                    writes++;
                }
                catch {
                    // the agent was killed under us
                }
            }
        };
        // Chaos: every second or so, kill, restart, cut or heal an agent; at most one agent down or cut at a time.
        const chaos = async () => {
            while (Date.now() < deadline) {
                await (0, cluster_1.sleep)(500 + rand() * 1500);
                const i = Math.floor(rand() * c.nodes.length);
                const n = c.nodes[i];
                const troubled = c.nodes.some((x, j) => !x.running || cut.has(j));
                const r = rand();
                if (!n.running) {
                    log.push(`restart ${n.name}`);
                    await n.start();
                }
                else if (cut.has(i)) {
                    log.push(`heal ${n.name}`);
                    c.heal(n);
                    cut.delete(i);
                }
                else if (troubled) {
                }
                else if (r < 0.4) {
                    log.push(`kill ${n.name}`);
                    await n.agent.kill();
                }
                else if (r < 0.7) {
                    log.push(`stop ${n.name}`);
                    await n.agent.stop();
                }
                else {
                    log.push(`cut ${n.name}`);
                    c.cut(n);
                    cut.add(i);
                }
            }
        };
        await Promise.all([writer(), writer(), chaos()]);
        for (const [i, n] of c.nodes.entries()) {
            if (cut.has(i))
                c.heal(n);
            if (!n.running)
                await n.start();
        }
        try {
            await (0, cluster_1.converged)(c.nodes, ['kv', 'pairs'], 90_000);
        }
        catch (err) {
            throw new Error(`${err.message}\n${log.join(', ')}`);
        }
        strict_1.default.ok(writes > 0);
    });
});
//# sourceMappingURL=random.test.js.map