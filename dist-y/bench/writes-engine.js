"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.UPDATE_SQL = exports.ACCOUNTS = void 0;
// The in-process anchor of writes.bench.ts: `node writes-engine.js DIR on|off ROUNDS MS CONCURRENCY`
// starts an Agent in this process (capture on or off), loads pgbench_accounts, and runs the one-row
// UPDATE through engine.transaction from CONCURRENCY async loops (so group commit applies as it does
// for HTTP clients); prints, as JSON, the writes per second of each round and the CPU time of this
// process per write (the agent's thread and its checkpoint thread), in µs, and the system part of it.
// With ROUNDS `-` it runs one round per line read on stdin and prints each round's JSON as it ends
// (writes.bench.ts alternates them with its HTTP rounds); it stops at the end of stdin.
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const node_readline_1 = __importDefault(require("node:readline"));
const agent_1 = require("../src/agent");
const config_1 = require("../src/config/config");
exports.ACCOUNTS = 100_000;
exports.UPDATE_SQL = 'UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = ?';
async function main() {
    const [dir, capture, rounds, ms, concurrency] = process.argv.slice(2);
    node_fs_1.default.writeFileSync(node_path_1.default.join(dir, 'schema.sql'), 'CREATE TABLE pgbench_accounts (aid INTEGER NOT NULL PRIMARY KEY, bid INTEGER, abalance INTEGER, filler TEXT);\n');
    const cfg = (0, config_1.defaultConfig)();
    cfg.db.path = node_path_1.default.join(dir, 'engine.db');
    cfg.db.schemaPaths = [node_path_1.default.join(dir, 'schema.sql')];
    cfg.api.addr = { host: '127.0.0.1', port: 0 };
    const agent = await agent_1.Agent.start(cfg, { capture: capture !== 'off' });
    await agent.engine.transaction([
        {
            sql: `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${exports.ACCOUNTS}) INSERT INTO pgbench_accounts SELECT x, 1, 0, '' FROM n`,
        },
    ]);
    const out = { rates: [], cpuUs: [], sysUs: [] };
    const round = async () => {
        let done = 0;
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const end = t0 + Number(ms);
        await Promise.all(Array.from({ length: Number(concurrency) }, async () => {
            while (performance.now() < end) {
                await agent.engine.transaction([{ sql: exports.UPDATE_SQL, params: [1 + Math.floor(Math.random() * exports.ACCOUNTS)] }]);
                done++;
            }
        }));
        out.rates.push(done / ((performance.now() - t0) / 1000));
        const cpu = process.cpuUsage(cpu0);
        out.cpuUs.push((cpu.user + cpu.system) / done);
        out.sysUs.push(cpu.system / done);
    };
    if (rounds === '-') {
        process.stdout.write('ready\n');
        for await (const _ of node_readline_1.default.createInterface({ input: process.stdin })) {
            await round();
            process.stdout.write(JSON.stringify({ rates: out.rates.slice(-1), cpuUs: out.cpuUs.slice(-1), sysUs: out.sysUs.slice(-1) }) + '\n');
        }
    }
    else {
        for (let r = 0; r < Number(rounds); r++)
            await round();
    }
    await agent.stop();
    if (rounds !== '-')
        process.stdout.write(JSON.stringify(out) + '\n');
}
if (require.main === module) {
    void main().then(() => process.exit(0), (err) => {
        console.error(err);
        process.exit(1);
    });
}
//# sourceMappingURL=writes-engine.js.map