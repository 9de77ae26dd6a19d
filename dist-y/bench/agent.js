"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.whenReady = whenReady;
exports.stopAgent = stopAgent;
const node_fs_1 = __importDefault(require("node:fs"));
const node_perf_hooks_1 = require("node:perf_hooks");
/** Waits for a started agent's ready line (`ready` captures the HTTP base URL). */
function whenReady(proc, dir, ready) {
    const started = node_perf_hooks_1.performance.now();
    return new Promise((resolve, reject) => {
        let out = '';
        proc.stdout.on('data', (d) => {
            out += d;
            const m = ready.exec(out);
            if (m)
                resolve({ proc, url: m[1], dir, started });
        });
        proc.once('exit', (code) => reject(new Error(`bench agent exited (${code})`)));
    });
}
/** SIGTERM, wait for the exit, remove the folder. */
async function stopAgent(a) {
    a.proc.removeAllListeners('exit');
    await new Promise((r) => {
        a.proc.once('exit', () => r());
        a.proc.kill('SIGTERM');
    });
    node_fs_1.default.rmSync(a.dir, { recursive: true, force: true });
}
//# sourceMappingURL=agent.js.map