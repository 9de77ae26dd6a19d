"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// A bench-only agent process for metrics.bench.ts: `node metrics-agent.js DIR on|off`. With `off`
// the agent records no per-request HTTP metrics (Agent.start's internal switch, the anchor).
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const agent_1 = require("../src/agent");
const config_1 = require("../src/config/config");
const log_1 = require("../src/observability/log");
async function main() {
    const [dir, metrics] = process.argv.slice(2);
    node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'schema.sql'), 'CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT);\n');
    const cfg = (0, config_1.defaultConfig)();
    cfg.db.path = node_path_1.default.join(dir, 'bench.db');
    cfg.db.schemaPaths = [node_path_1.default.join(dir, 'schema.sql')];
    cfg.api.addr = { host: '127.0.0.1', port: 0 };
    cfg.log.level = 'warn';
    (0, log_1.setupLogging)(cfg.log);
    const agent = await agent_1.Agent.start(cfg, { requestMetrics: metrics !== 'off' });
    process.stdout.write(`ready http://${agent.apiAddr}\n`);
    process.on('SIGTERM', () => void agent.stop().then(() => process.exit(0)));
}
void main();
//# sourceMappingURL=metrics-agent.js.map