"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.RawPg = exports.serialize = void 0;
exports.pgListeners = pgListeners;
exports.psql = psql;
exports.pgClient = pgClient;
// A raw PostgreSQL wire client for protocol-level tests: pg-protocol (node-postgres's codec) builds
// the frontend messages and parses the backend ones, so the tests check our server against the codec
// real clients use.
const node_child_process_1 = require("node:child_process");
const node_net_1 = __importDefault(require("node:net"));
const pg_protocol_1 = require("pg-protocol");
Object.defineProperty(exports, "serialize", { enumerable: true, get: function () { return pg_protocol_1.serialize; } });
/** Every PostgreSQL listener the agent's ready line names, in order. */
function pgListeners(agent) {
    return [...agent.output.matchAll(/PostgreSQL on ([^\s,]+):(\d+)/g)].map((m) => ({ host: m[1], port: Number(m[2]) }));
}
/** A socket and the backend messages received on it, waited for by name. */
class RawPg {
    socket;
    messages = [];
    closed = false;
    #waiters = [];
    constructor(socket) {
        this.socket = socket;
        socket.on('close', () => {
            this.closed = true;
            this.#wake();
        });
        socket.on('error', () => undefined);
    }
    static connect(port) {
        return new Promise((resolve, reject) => {
            const s = node_net_1.default.connect(port, '127.0.0.1', () => resolve(new RawPg(s)));
            s.once('error', reject);
        });
    }
    /** Connects and completes a trust startup. */
    static async open(port, user = 'tester') {
        const c = await RawPg.connect(port);
        c.listen();
        c.send(pg_protocol_1.serialize.startup({ user, database: 'db' }));
        await c.until('readyForQuery');
        return c;
    }
    /** Starts parsing backend messages (after any raw-byte exchange such as SSLRequest). */
    listen() {
        void (0, pg_protocol_1.parse)(this.socket, (m) => {
            this.messages.push(m);
            this.#wake();
        });
    }
    #wake() {
        const ws = this.#waiters.splice(0);
        for (const w of ws)
            w();
    }
    send(b) {
        this.socket.write(b);
    }
    /** Waits for a message named `name` (counting from the start); returns every message up to it and drops them. */
    async until(name, timeoutMs = 10000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const i = this.messages.findIndex((m) => m.name === name);
            if (i >= 0)
                return this.messages.splice(0, i + 1);
            if (this.closed)
                throw new Error(`connection closed before ${name}; got ${this.messages.map((m) => m.name).join(', ')}`);
            if (Date.now() > deadline)
                throw new Error(`no ${name} in ${timeoutMs} ms; got ${this.messages.map((m) => m.name).join(', ')}`);
            await new Promise((r) => {
                this.#waiters.push(r);
                setTimeout(r, 50);
            });
        }
    }
    /** Waits until the server closes the connection. */
    async closedBy(timeoutMs = 5000) {
        const deadline = Date.now() + timeoutMs;
        while (!this.closed) {
            if (Date.now() > deadline)
                throw new Error('the server did not close the connection');
            await new Promise((r) => setTimeout(r, 20));
        }
    }
    end() {
        if (!this.closed)
            this.socket.end(pg_protocol_1.serialize.end());
    }
}
exports.RawPg = RawPg;
/** Runs psql against a listener: -X (no psqlrc), -A -t optional, one command per -c. */
function psql(port, commands, extra = [], env = {}) {
    return (0, node_child_process_1.spawnSync)('psql', [
        '-X',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'tester',
        '-d',
        'db',
        ...extra,
        ...commands.flatMap((c) => ['-c', c]),
    ], {
        encoding: 'utf8',
        env: { ...process.env, PGCONNECT_TIMEOUT: '10', ...env },
        timeout: 30000,
    });
}
/** A node-postgres client for a listener. */
function pgClient(port, extra = {}) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Client } = require('pg');
    return new Client({ host: '127.0.0.1', port, user: 'tester', database: 'db', ...extra });
}
//# sourceMappingURL=pg.js.map