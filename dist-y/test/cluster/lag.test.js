"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const cluster_1 = require("../helpers/cluster");
const cli_1 = require("../helpers/cli");
const http_1 = require("../helpers/http");
const metrics_1 = require("../helpers/metrics");
// Replication lag in seconds: how long an agent has known of a version it still lacks. A changeset
// this agent cannot merge yet (its schema is behind) keeps it lagging until the schema catches up.
describe('replication lag in seconds', function () {
    this.timeout(120_000);
    let c;
    before(async () => {
        c = await cluster_1.TestCluster.start(2, { schema: cluster_1.SCHEMA });
    });
    after(async () => c?.dispose());
    it('grows while a version is missing, shows in sync status, health and metrics, and returns to 0 once merged', async () => {
        const [a, b] = c.nodes;
        const status = async () => (await (0, http_1.request)(b.http, 'GET', '/v1/sync/status')).json;
        strict_1.default.equal((await status()).lag_seconds, 0);
        const extra = cluster_1.SCHEMA + '\nCREATE TABLE later (id INTEGER NOT NULL PRIMARY KEY, note TEXT);\n';
        node_fs_1.default.writeFileSync(node_path_1.default.join(a.agent.dir, 'schema.sql'), extra);
        strict_1.default.equal((await (0, http_1.request)(a.http, 'POST', '/v1/admin/reload')).status, 200);
        await (0, cluster_1.exec)(a.http, [["INSERT INTO later (id, note) VALUES (1, 'b cannot merge this yet')"]]);
        const actorA = (await (0, http_1.request)(a.http, 'GET', '/v1/sync/status')).json.actor_id;
        await (0, cluster_1.eventually)('B knows it lacks a version of A', 15_000, async () => (await status()).lag_versions >= 1 || JSON.stringify(await status()));
        await (0, cluster_1.sleep)(1500);
        const s = await status();
        strict_1.default.ok(s.lag_seconds >= 1, `lag grows while the version is missing: ${JSON.stringify(s)}`);
        strict_1.default.ok(s.origins.find((o) => o.actor_id === actorA).lag_seconds >= 1);
        const health = (await (0, http_1.request)(b.http, 'GET', '/v1/health')).json;
        strict_1.default.ok(health.replication_lag_seconds >= 1, JSON.stringify(health));
        strict_1.default.ok(health.replication_lag_versions >= 1);
        strict_1.default.ok((0, metrics_1.value)(await (0, metrics_1.scrape)(b.http), 'patina_replication_lag_seconds') >= 1);
        const cli = await (0, cli_1.runCli)(['sync', 'status', '--api-addr', b.http.replace('http://', '')]);
        strict_1.default.equal(cli.code, 0, cli.stderr);
        strict_1.default.match(cli.stdout, /ORIGIN\s+HEAD\s+MISSING\s+BEHIND\s+LAG\s+GAPS/);
        strict_1.default.match(cli.stdout, new RegExp(`${actorA}\\s+\\d+\\s+\\d+\\s+\\d+\\s+[1-9]\\d*\\.\\d s`));
        strict_1.default.match(cli.stdout, /lag: [1-9]\d*\.\d s/);
        node_fs_1.default.writeFileSync(node_path_1.default.join(b.agent.dir, 'schema.sql'), extra);
        strict_1.default.equal((await (0, http_1.request)(b.http, 'POST', '/v1/admin/reload')).status, 200);
        await (0, cluster_1.converged)(c.nodes, ['kv', 'later'], 30_000);
        await (0, cluster_1.eventually)('the lag is back to 0', 10_000, async () => (await status()).lag_seconds === 0 || JSON.stringify(await status()));
        strict_1.default.equal((0, metrics_1.value)(await (0, metrics_1.scrape)(b.http), 'patina_replication_lag_seconds'), 0);
    });
});
//# sourceMappingURL=lag.test.js.map