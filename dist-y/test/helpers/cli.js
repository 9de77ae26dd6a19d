"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runCli = runCli;
const node_child_process_1 = require("node:child_process");
const agent_1 = require("./agent");
/** Runs `patina ARGS...` as a user would and collects its output and exit code. */
function runCli(args, opts = {}) {
    return new Promise((resolve, reject) => {
        const p = (0, node_child_process_1.spawn)(process.execPath, [agent_1.CLI, ...args], {
            cwd: opts.cwd,
            stdio: ['ignore', 'pipe', 'pipe'],
            env: { ...process.env, ...opts.env },
        });
        let stdout = '';
        let stderr = '';
        p.stdout.on('data', (d) => (stdout += d));
        p.stderr.on('data', (d) => (stderr += d));
        const timer = setTimeout(() => {
            p.kill('SIGKILL');
            reject(new Error(`patina ${args.join(' ')} did not exit in time:\n${stdout}\n${stderr}`));
        }, opts.timeoutMs ?? 20000);
        // 'close' rather than 'exit': the pipes are drained by then
        p.on('close', (code, signal) => {
            clearTimeout(timer);
            resolve({ code, signal, stdout, stderr });
        });
    });
}
//# sourceMappingURL=cli.js.map