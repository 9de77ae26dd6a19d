"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// SWIM membership between real agents: a SIGTERM is announced (the others show the agent as left,
// never down), `patina cluster forget` drops a member on every agent, and bad input to it is refused
// with a clear message.
const strict_1 = __importDefault(require("node:assert/strict"));
const cli_1 = require("../helpers/cli");
const cluster_1 = require("../helpers/cluster");
describe('cluster membership (SWIM) between agents', function () {
    this.timeout(90_000);
    let c;
    before(async () => {
        c = await cluster_1.TestCluster.start(4, { schema: cluster_1.SCHEMA });
        await (0, cluster_1.eventually)('every agent knows the three others', 20_000, async () => {
            for (const n of c.nodes) {
                const m = await (0, cluster_1.members)(n.http);
                if (m.filter((x) => x.state === 'alive').length !== 3)
                    return JSON.stringify(m);
            }
            return true;
        });
    });
    after(() => c?.dispose());
    it('an agent stopped with SIGTERM is seen as left by the others, never suspected or down', async () => {
        const [a, b, , d] = c.nodes;
        const seen = new Set();
        let watching = true;
        const watch = (async () => {
            while (watching) {
                for (const n of [a, b])
                    for (const m of await (0, cluster_1.members)(n.http))
                        if (m.addr === d.proxy.addr)
                            seen.add(m.state);
                await new Promise((r) => setTimeout(r, 50));
            }
        })();
        const t0 = Date.now();
        strict_1.default.equal(await d.agent.stop(), 0);
        strict_1.default.ok(Date.now() - t0 < 5000, 'SIGTERM stops it within seconds');
        await (0, cluster_1.eventually)('A and B show D as left', 15_000, async () => {
            for (const n of [a, b]) {
                const m = (await (0, cluster_1.members)(n.http)).find((x) => x.addr === d.proxy.addr);
                if (m?.state !== 'left')
                    return JSON.stringify(m);
            }
            return true;
        });
        await new Promise((r) => setTimeout(r, 4000)); // longer than a suspicion would take
        watching = false;
        await watch;
        strict_1.default.deepEqual([...seen].filter((s) => s !== 'alive' && s !== 'left'), [], `states seen: ${[...seen]}`);
        strict_1.default.match(a.agent.output, /peer left/);
    });
    it('patina cluster forget drops a member on every agent; unknown and missing addresses are refused', async () => {
        const [a, b, , d] = c.nodes;
        const apiAddr = a.http.replace('http://', '');
        const r = await (0, cli_1.runCli)(['cluster', 'forget', d.proxy.addr, '--api-addr', apiAddr]);
        strict_1.default.equal(r.code, 0, r.stderr);
        strict_1.default.equal(r.stdout, `forgot ${d.proxy.addr}\n`);
        strict_1.default.ok(!(await (0, cluster_1.members)(a.http)).some((m) => m.addr === d.proxy.addr));
        // B hears it as departed (it already was), and it stays out of A's list
        const bm = (await (0, cluster_1.members)(b.http)).find((m) => m.addr === d.proxy.addr);
        strict_1.default.ok(!bm || bm.state === 'left', JSON.stringify(bm));
        const unknown = await (0, cli_1.runCli)(['cluster', 'forget', '127.0.0.1:1', '--api-addr', apiAddr]);
        strict_1.default.notEqual(unknown.code, 0);
        strict_1.default.match(unknown.stderr, /no member 127\.0\.0\.1:1/);
        const missing = await (0, cli_1.runCli)(['cluster', 'forget', '--api-addr', apiAddr]);
        strict_1.default.notEqual(missing.code, 0);
        strict_1.default.match(missing.stderr, /patina cluster forget ADDR/);
        const members2 = await (0, cli_1.runCli)(['cluster', 'members', '--api-addr', apiAddr]);
        strict_1.default.equal(members2.code, 0, members2.stderr);
        strict_1.default.doesNotMatch(members2.stdout, new RegExp(d.proxy.addr.replace(/\./g, '\\.')));
    });
});
//# sourceMappingURL=membership.test.js.map