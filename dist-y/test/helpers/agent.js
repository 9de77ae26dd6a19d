"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.AgentProcess = exports.CLI = void 0;
exports.startAgent = startAgent;
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
/** The built CLI, as users run it. */
exports.CLI = node_path_1.default.resolve(__dirname, '..', '..', 'src', 'cli', 'main.js');
/** A real agent process on loopback ports, with its own folder and SQLite file. */
class AgentProcess {
    dir;
    opts;
    proc;
    /** e.g. http://127.0.0.1:41234 */
    http = '';
    /** The PostgreSQL listener, when one was configured. */
    pg = null;
    gossip = null;
    output = '';
    constructor(opts = {}) {
        this.opts = opts;
        this.dir = opts.dir ?? node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'patina-test-'));
    }
    get dbPath() {
        return node_path_1.default.join(this.dir, 'patina.db');
    }
    /** The arguments the agent is started with. */
    args() {
        const args = ['agent', '--db-path', this.dbPath, '--api-addr', '127.0.0.1:0'];
        if (this.opts.schema !== undefined) {
            node_fs_1.default.writeFileSync(node_path_1.default.join(this.dir, 'schema.sql'), this.opts.schema);
            args.push('--schema', node_path_1.default.join(this.dir, 'schema.sql'));
        }
        if (this.opts.config !== undefined) {
            node_fs_1.default.writeFileSync(node_path_1.default.join(this.dir, 'config.toml'), this.opts.config);
            args.push('-c', node_path_1.default.join(this.dir, 'config.toml'));
        }
        return [...args, ...(this.opts.args ?? [])];
    }
    /** Starts the process and waits for its ready line; rejects with its output if it exits first. */
    start(timeoutMs = 20000) {
        this.output = '';
        this.proc = (0, node_child_process_1.spawn)(process.execPath, [...(this.opts.nodeArgs ?? []), exports.CLI, ...this.args()], {
            cwd: this.dir,
            stdio: ['ignore', 'pipe', 'pipe'],
            env: { ...process.env, ...this.opts.env },
        });
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`agent did not get ready in ${timeoutMs} ms:\n${this.output}`)), timeoutMs);
            const onData = (d) => {
                this.output += d.toString();
                const m = /agent ready, HTTP API on (https?:\/\/\S+?),? /.exec(this.output);
                if (m) {
                    this.http = m[1];
                    const pg = /PostgreSQL on ([^\s,]+):(\d+)/.exec(this.output);
                    this.pg = pg ? { host: pg[1].replace(/^\[|\]$/g, ''), port: Number(pg[2]) } : null;
                    const g = /gossip on ([^\s,]+)/.exec(this.output);
                    this.gossip = g ? g[1] : null;
                    clearTimeout(timer);
                    resolve(this);
                }
            };
            this.proc.stdout.on('data', onData);
            this.proc.stderr.on('data', onData);
            this.proc.once('exit', (code, sig) => {
                clearTimeout(timer);
                reject(new Error(`agent exited (${code ?? sig}) before it was ready:\n${this.output}`));
            });
        });
    }
    /** SIGTERM, and wait for the exit code. */
    stop() {
        return this.#signal('SIGTERM');
    }
    /** SIGKILL: no chance to clean up. */
    kill() {
        return this.#signal('SIGKILL');
    }
    #signal(sig) {
        const p = this.proc;
        if (!p || p.exitCode !== null || p.signalCode !== null)
            return Promise.resolve(p?.exitCode ?? null);
        return new Promise((resolve) => {
            p.once('exit', (code) => resolve(code));
            p.kill(sig);
        });
    }
    /** Stops it and removes its folder. */
    async dispose() {
        await this.kill();
        if (!this.opts.dir)
            node_fs_1.default.rmSync(this.dir, { recursive: true, force: true });
    }
}
exports.AgentProcess = AgentProcess;
/** Starts an agent and waits until it is ready. */
function startAgent(opts = {}) {
    return new AgentProcess(opts).start();
}
//# sourceMappingURL=agent.js.map