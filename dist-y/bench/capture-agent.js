"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// A bench-only agent process for capture.bench.ts: `node capture-agent.js DIR on|off [commits]`.
// With `off` the agent starts with change capture disabled (Agent.start's internal switch, the
// anchor of the throughput figure); with `commits` it reports each commit's time over IPC.
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const node_perf_hooks_1 = require("node:perf_hooks");
const agent_1 = require("../src/agent");
const config_1 = require("../src/config/config");
async function main() {
    const [dir, capture, commits] = process.argv.slice(2);
    node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'schema.sql'), 'CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, name TEXT, qty INTEGER, note TEXT);\n');
    const cfg = (0, config_1.defaultConfig)();
    cfg.db.path = node_path_1.default.join(dir, 'bench.db');
    cfg.db.schemaPaths = [node_path_1.default.join(dir, 'schema.sql')];
    cfg.api.addr = { host: '127.0.0.1', port: 0 };
    const agent = await agent_1.Agent.start(cfg, { capture: capture !== 'off' });
    if (commits === 'commits') {
        agent.feed.observe((cs) => process.send([Number(cs.changes[0]?.pk[0]), node_perf_hooks_1.performance.timeOrigin + node_perf_hooks_1.performance.now()]));
    }
    process.stdout.write(`ready http://${agent.apiAddr}\n`);
    process.on('SIGTERM', () => void agent.stop().then(() => process.exit(0)));
}
void main();
//# sourceMappingURL=capture-agent.js.map