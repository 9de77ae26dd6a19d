"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.PgServer = void 0;
// PostgreSQL listeners: one TCP server per configured address, sharing the catalog connection and
// the table of connections that CancelRequest looks keys up in.
const result_types_1 = require("./sql/result-types");
const node_net_1 = __importDefault(require("node:net"));
const config_1 = require("../../src/config/config");
const admission_1 = require("./connection/admission");
const connection_1 = require("./connection/connection");
const encryption_1 = require("./connection/encryption");
const local_db_1 = require("./catalog/local-db");
const notifications_1 = require("./session/notifications");
const statement_counts_1 = require("./statement-counts");
class PgServer {
    #local;
    /** What sessions write through: the engine behind the write admission, when there is one. */
    #sessionEngine;
    #servers = [];
    #conns = new Map();
    #sockets = new Set();
    /** LISTEN/NOTIFY channels of every connection of every listener of this agent. */
    #channels;
    /** Connections and statements, counted for the metrics. */
    counts = new statement_counts_1.PgCounts();
    constructor(engine, updates, admission) {
        this.#sessionEngine = admission ? (0, admission_1.admittedEngine)(engine, admission) : engine;
        this.#channels = new notifications_1.Channels(updates);
        this.#local = new local_db_1.LocalDb(engine.path);
        engine.onSchema((schema) => this.#local.refresh(schema));
    }
    /** Starts every configured listener; rejects if one cannot bind. */
    static async start(engine, listeners, queryTimeoutSeconds, security, updates = null, admission = null) {
        const s = new PgServer(engine, updates, admission);
        await (0, result_types_1.loadParser)();
        try {
            for (const [i, l] of listeners.entries())
                await s.#listen(l, queryTimeoutSeconds * 1000, () => security(i));
        }
        catch (err) {
            await s.stop();
            throw err;
        }
        return s;
    }
    /** `security` is asked per connection, so a reload's users and certificates apply to the next one. */
    #listen(l, queryTimeoutMs, security) {
        const authTimeoutMs = 1000 * (l.authenticationTimeoutSeconds ?? config_1.PG_LISTENER_DEFAULTS.authenticationTimeoutSeconds);
        const maxConnections = l.maxConnections ?? config_1.PG_LISTENER_DEFAULTS.maxConnections;
        let open = 0;
        const server = node_net_1.default.createServer({ keepAlive: true, keepAliveInitialDelay: config_1.TCP_KEEPALIVE_IDLE_MS }, (socket) => {
            this.#sockets.add(socket);
            open++;
            this.counts.accepted++;
            this.counts.open = this.#sockets.size;
            // PostgreSQL's authentication_timeout: a client that never finishes logging in (silent, or stopped
            // mid-startup) is closed, as PostgreSQL does, with nothing sent; its socket and memory are freed.
            let authenticated = false;
            const authTimer = setTimeout(() => {
                if (authenticated)
                    return;
                this.counts.authTimeouts++;
                socket.destroy();
            }, authTimeoutMs);
            authTimer.unref();
            socket.on('close', () => {
                clearTimeout(authTimer);
                open--;
                this.#sockets.delete(socket);
                this.counts.open = this.#sockets.size;
            });
            // Past max_connections the client still gets an answer it understands, after its startup packet (53300).
            const tooMany = open > maxConnections;
            const sec = security();
            (0, encryption_1.negotiateEncryption)(socket, () => sec.tls, (n) => {
                const opts = {
                    readonly: l.readonly,
                    users: sec.users,
                    requireTls: sec.requireTls,
                    queryTimeoutMs,
                    counts: this.counts,
                    tooMany,
                    onAuthenticated: () => {
                        authenticated = true;
                        clearTimeout(authTimer);
                    },
                };
                new connection_1.Connection(n.socket, this.#sessionEngine, this.#local, opts, this, { tls: n.tls, rest: n.rest, remoteAddress: socket.remoteAddress ?? '' }, this.#channels);
            });
        });
        server.maxConnections = 10000;
        this.#servers.push(server);
        return new Promise((resolve, reject) => {
            server.once('error', reject);
            server.listen(l.addr.port, l.addr.host, () => {
                server.off('error', reject);
                resolve();
            });
        });
    }
    /** Where each listener is bound (real ports when 0 was asked for). */
    addresses() {
        return this.#servers
            .map((s) => s.address())
            .filter(Boolean)
            .map((a) => ({ host: a.address, port: a.port }));
    }
    /** The same, as `host:port` (`[host]:port` for IPv6). */
    listening() {
        return this.addresses().map((a) => (0, config_1.formatAddr)(a));
    }
    add(pid, key, conn) {
        this.#conns.set(pid, { key, conn });
    }
    remove(pid) {
        this.#conns.delete(pid);
    }
    cancel(pid, key) {
        const c = this.#conns.get(pid);
        if (c && c.key === key)
            c.conn.cancel();
    }
    async stop() {
        await Promise.all(this.#servers
            .map((s) => new Promise((resolve) => s.close(() => resolve())))
            .concat([...this.#sockets].map(async (sock) => void sock.destroy())));
        this.#local.close();
    }
}
exports.PgServer = PgServer;
//# sourceMappingURL=server.js.map