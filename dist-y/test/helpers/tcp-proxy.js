"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.TcpProxy = void 0;
const node_net_1 = __importDefault(require("node:net"));
/**
 * A TCP proxy the test controls, in front of one agent's peer port. `cut()` drops every byte in both
 * directions (connections stay open, as on a network that loses packets); `dropFrom(ip)` drops only
 * connections coming from that address; `heal()` and `allowFrom(ip)` end the drop and close the
 * connections that lost traffic, as their peers would after a timeout.
 */
class TcpProxy {
    server;
    target = null;
    #cut = false;
    #blocked = new Set();
    #pairs = new Set();
    constructor(server) {
        this.server = server;
    }
    static listen(host = '127.0.0.1') {
        const server = node_net_1.default.createServer();
        const proxy = new TcpProxy(server);
        server.on('connection', (c) => proxy.#accept(c));
        return new Promise((resolve) => server.listen(0, host, () => resolve(proxy)));
    }
    get addr() {
        const a = this.server.address();
        return `${a.address}:${a.port}`;
    }
    setTarget(addr) {
        const i = addr.lastIndexOf(':');
        this.target = { host: addr.slice(0, i), port: Number(addr.slice(i + 1)) };
    }
    cut() {
        this.#cut = true;
    }
    /**
     * Silences the connections open now for good: bytes are dropped both ways and the sockets stay
     * open, as with a peer that vanished without a FIN; new connections pass as before.
     */
    freezeOpen() {
        for (const p of this.#pairs)
            p.frozen = true;
    }
    heal() {
        this.#cut = false;
        this.#closeTainted();
    }
    dropFrom(ip) {
        this.#blocked.add(ip);
    }
    allowFrom(ip) {
        this.#blocked.delete(ip);
        this.#closeTainted();
    }
    #dropping(p) {
        if (p.frozen)
            return true;
        const d = this.#cut || this.#blocked.has(p.source);
        if (d)
            p.tainted = true;
        return d;
    }
    #accept(client) {
        if (!this.target)
            return void client.destroy();
        const upstream = node_net_1.default.connect(this.target.port, this.target.host);
        const pair = {
            client,
            upstream,
            source: (client.remoteAddress ?? '').replace(/^::ffff:/, ''),
            tainted: false,
        };
        this.#pairs.add(pair);
        const close = () => {
            client.destroy();
            upstream.destroy();
            this.#pairs.delete(pair);
        };
        client.on('data', (d) => {
            if (!this.#dropping(pair))
                upstream.write(d);
        });
        upstream.on('data', (d) => {
            if (!this.#dropping(pair))
                client.write(d);
        });
        client.on('error', close).on('close', close);
        upstream.on('error', close).on('close', close);
    }
    #closeTainted() {
        for (const p of this.#pairs) {
            if (p.tainted && !this.#dropping({ ...p })) {
                p.client.destroy();
                p.upstream.destroy();
                this.#pairs.delete(p);
            }
        }
    }
    close() {
        for (const p of this.#pairs) {
            p.client.destroy();
            p.upstream.destroy();
        }
        return new Promise((resolve) => this.server.close(() => resolve()));
    }
}
exports.TcpProxy = TcpProxy;
//# sourceMappingURL=tcp-proxy.js.map