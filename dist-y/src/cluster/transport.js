"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.PeerTransport = exports.ClusterMismatch = exports.H_ADDR = exports.H_ACTOR = exports.H_CLUSTER = void 0;
exports.splitAddr = splitAddr;
const node_http_1 = __importDefault(require("node:http"));
const node_https_1 = __importDefault(require("node:https"));
const config_1 = require("../config/config");
const frames_1 = require("./frames");
/**
 * The peer transport: HTTP/1.1 with keep-alive between agents, JSON request bodies and JSON or NDJSON
 * responses. Every request and response carries the sender's cluster id, site id and gossip address
 * in headers; a request from another cluster is refused with 409 and never reaches a handler.
 * With TLS material, both directions are mutual TLS against the cluster's CA: a peer without a
 * certificate the CA signed fails the handshake before any byte of the protocol is read. Host names
 * are not checked (agents are dialed by address); the CA's signature is the membership proof.
 *
 * JSON requests (pings, pushes) go over one persistent framed connection per peer when the peer
 * offers it (frames.ts): an HTTP upgrade on the same port, so the TLS handshake and the cluster-id
 * check (409 on the upgrade) are those of any request; the sender's ids are those of the upgrade.
 * A peer that answers the upgrade otherwise (an older agent: 404) is called over HTTP, and asked
 * again after FRAMES_RETRY_MS. Streams (sync) stay on HTTP.
 */
exports.H_CLUSTER = 'x-patina-cluster';
exports.H_ACTOR = 'x-patina-actor';
exports.H_ADDR = 'x-patina-addr';
class ClusterMismatch extends Error {
}
exports.ClusterMismatch = ClusterMismatch;
const BODY_LIMIT = 256 * 1024 * 1024;
/** A peer that refused the framed connection is asked again after this long. */
const FRAMES_RETRY_MS = 5 * 60_000;
class PeerTransport {
    #clusterId;
    #actor;
    #addr = '';
    #listening = '';
    /** Outgoing connections leave from the address we listen on (unless that is a wildcard). */
    #localAddress;
    #agent;
    #server = null;
    #handlers;
    #tls;
    /** Bytes of request and answer bodies this agent wrote to peers (every route; headers not counted). */
    bytesSent = 0;
    /** Refusals of other clusters, by address, so the log says it once. */
    refused = new Set();
    #frames;
    /** Framed connections to peers (or being opened); a peer that refused one, until when it is not asked. */
    #channels = new Map();
    #httpOnly = new Map();
    /** Framed connections peers opened to this agent. */
    #served = new Set();
    #closed = false;
    constructor(clusterId, actor, handlers, tls = null, opts = {}) {
        this.#clusterId = clusterId;
        this.#actor = actor;
        this.#handlers = handlers;
        this.#tls = tls;
        this.#frames = opts.frames ?? true;
        this.#agent = this.#newAgent();
    }
    /** Framed connections open to peers, and from peers. */
    get channels() {
        let out = 0;
        for (const c of this.#channels.values())
            if (!(c instanceof Promise))
                out++;
        return { out, in: this.#served.size };
    }
    #newAgent() {
        const opts = { keepAlive: true, maxSockets: 8, keepAliveMsecs: 1000 };
        const t = this.#tls;
        return t
            ? new node_https_1.default.Agent({
                ...opts,
                cert: t.cert,
                key: t.key,
                ca: t.ca,
                rejectUnauthorized: true,
                checkServerIdentity: () => undefined,
            })
            : new node_http_1.default.Agent(opts);
    }
    /** New certificates: the server presents them to the next handshake, new outgoing connections use them. */
    reloadTls(tls) {
        this.#tls = tls;
        this.#server?.setSecureContext({ cert: tls.cert, key: tls.key, ca: tls.ca });
        const old = this.#agent;
        this.#agent = this.#newAgent();
        old.destroy();
        this.#closeChannels();
    }
    /** Our own gossip address as peers should dial it (the real port when 0 was asked for). */
    get addr() {
        return this.#addr;
    }
    /** Where the peer server listens. */
    get listening() {
        return this.#listening;
    }
    listen(addr, advertise = null) {
        if (addr.host !== '0.0.0.0' && addr.host !== '::')
            this.#localAddress = addr.host;
        const handle = (req, res) => void this.#serve(req, res);
        const t = this.#tls;
        const server = t
            ? node_https_1.default.createServer({ cert: t.cert, key: t.key, ca: t.ca, requestCert: true, rejectUnauthorized: true }, handle)
            : node_http_1.default.createServer(handle);
        server.keepAliveTimeout = 30_000;
        server.requestTimeout = 0;
        // Without this listener an upgrade is served as a plain request: 404, as by an older agent.
        if (this.#frames)
            server.on('upgrade', (req, socket, head) => this.#serveFrames(req, socket, head));
        this.#server = server;
        return new Promise((resolve, reject) => {
            server.once('error', reject);
            server.listen(addr.port, addr.host, () => {
                server.off('error', reject);
                const a = server.address();
                this.#listening = (0, config_1.formatAddr)({ host: a.address, port: a.port });
                this.#addr = advertise ? (0, config_1.formatAddr)(advertise) : this.#listening;
                resolve(this.#addr);
            });
        });
    }
    #headers() {
        return { [exports.H_CLUSTER]: String(this.#clusterId), [exports.H_ACTOR]: this.#actor, [exports.H_ADDR]: this.#addr };
    }
    async #serve(req, res) {
        const fail = (status, error) => {
            if (res.headersSent)
                return void res.destroy();
            res.writeHead(status, { 'content-type': 'application/json', ...this.#headers() });
            res.end(JSON.stringify({ error }));
        };
        try {
            const theirs = Number(req.headers[exports.H_CLUSTER]);
            if (theirs !== this.#clusterId) {
                req.resume();
                return fail(409, `cluster id mismatch: this agent is in cluster ${this.#clusterId}, the peer in ${req.headers[exports.H_CLUSTER]}`);
            }
            const from = { actor: String(req.headers[exports.H_ACTOR] ?? ''), addr: String(req.headers[exports.H_ADDR] ?? '') };
            const name = (req.url ?? '').replace(/^\/peer\/v1\//, '');
            const json = this.#handlers.json[name];
            const stream = this.#handlers.stream[name];
            if (req.method !== 'POST' || (!json && !stream)) {
                req.resume();
                return fail(404, `no peer route ${req.method} ${req.url}`);
            }
            const body = JSON.parse(await readBody(req));
            if (json) {
                const out = JSON.stringify((await json(body, from)) ?? null);
                this.bytesSent += out.length;
                res.writeHead(200, { 'content-type': 'application/json', ...this.#headers() });
                res.end(out);
                return;
            }
            res.writeHead(200, { 'content-type': 'application/x-ndjson', ...this.#headers() });
            const sink = responseSink(res, (n) => (this.bytesSent += n));
            await stream(body, from, sink);
            res.end();
        }
        catch (err) {
            fail(500, err.message);
        }
    }
    /** Sends JSON to a peer and returns its JSON answer: over the framed connection, else POST. */
    async call(addr, route, body, timeoutMs) {
        const ch = this.#frames ? await this.#channel(addr, timeoutMs) : null;
        if (ch)
            return this.#callFramed(ch, addr, route, body, timeoutMs);
        const res = await this.#request(addr, route, body, timeoutMs);
        return JSON.parse(await readBody(res));
    }
    #callFramed(ch, addr, route, body, timeoutMs) {
        return new Promise((resolve, reject) => {
            const i = ch.next++;
            const timer = setTimeout(() => {
                ch.pending.delete(i);
                reject(new Error(`peer ${addr} did not answer in ${timeoutMs} ms`));
                // As an HTTP request's socket on a timeout: the connection may be dead without a FIN.
                ch.socket.destroy();
            }, timeoutMs);
            ch.pending.set(i, { resolve, reject, timer });
            this.bytesSent += (0, frames_1.writeFrame)(ch.socket, { i, r: route, b: body });
        });
    }
    /**
     * The framed connection to `addr`: the open one, or a new one. Null when the peer does not offer
     * one (an older agent, or the upgrade failed otherwise: the call goes over HTTP, which reports
     * what is wrong); a connection that cannot be made at all rejects.
     */
    async #channel(addr, timeoutMs) {
        const have = this.#channels.get(addr);
        if (have)
            return have;
        if ((this.#httpOnly.get(addr) ?? 0) > Date.now())
            return null;
        const opening = this.#openChannel(addr, timeoutMs).then((ch) => {
            if (this.#closed) {
                ch?.socket.destroy();
                return null;
            }
            if (this.#channels.get(addr) === opening) {
                if (ch)
                    this.#channels.set(addr, ch);
                else
                    this.#channels.delete(addr);
            }
            return ch;
        }, (err) => {
            if (this.#channels.get(addr) === opening)
                this.#channels.delete(addr);
            throw err;
        });
        this.#channels.set(addr, opening);
        return opening;
    }
    #openChannel(addr, timeoutMs) {
        const [host, port] = splitAddr(addr);
        const t = this.#tls;
        return new Promise((resolve, reject) => {
            const req = (t ? node_https_1.default : node_http_1.default).request({
                host,
                port,
                localAddress: this.#localAddress,
                method: 'GET',
                path: frames_1.FRAMES_PATH,
                agent: false,
                timeout: timeoutMs,
                headers: { connection: 'Upgrade', upgrade: frames_1.FRAMES_PROTOCOL, ...this.#headers() },
                ...(t
                    ? { cert: t.cert, key: t.key, ca: t.ca, rejectUnauthorized: true, checkServerIdentity: () => undefined }
                    : {}),
            });
            req.on('upgrade', (res, socket, head) => {
                if (Number(res.headers[exports.H_CLUSTER]) !== this.#clusterId) {
                    socket.destroy();
                    return resolve(null); // the HTTP call says which cluster it is in
                }
                socket.setTimeout(0);
                socket.setNoDelay(true);
                const ch = { socket, next: 1, pending: new Map() };
                (0, frames_1.readFrames)(socket, head, BODY_LIMIT, (obj) => {
                    const a = obj;
                    const p = ch.pending.get(a.i);
                    if (!p)
                        return;
                    ch.pending.delete(a.i);
                    clearTimeout(p.timer);
                    if (a.e !== undefined)
                        p.reject(new Error(`peer ${addr} answered: ${String(a.e).slice(0, 200)}`));
                    else
                        p.resolve(a.b);
                });
                const gone = (err) => {
                    if (this.#channels.get(addr) === ch)
                        this.#channels.delete(addr);
                    for (const p of ch.pending.values()) {
                        clearTimeout(p.timer);
                        p.reject(err ?? new Error(`peer ${addr} closed the connection`));
                    }
                    ch.pending.clear();
                };
                socket.on('error', gone);
                socket.on('close', () => gone());
                resolve(ch);
            });
            req.on('response', (res) => {
                res.resume();
                // Not upgraded: an older agent (404), or a refusal the HTTP call will report.
                if (res.statusCode === 404)
                    this.#httpOnly.set(addr, Date.now() + FRAMES_RETRY_MS);
                resolve(null);
            });
            req.on('timeout', () => req.destroy(new Error(`peer ${addr} did not answer in ${timeoutMs} ms`)));
            req.on('error', reject);
            req.end();
        });
    }
    /** A peer's framed connection: checked as any request, then its frames are served in turn. */
    #serveFrames(req, socket, head) {
        const refuse = (status, error) => {
            const body = JSON.stringify({ error });
            socket.end(`HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
                `${this.#rawHeaders()}connection: close\r\n\r\n${body}`);
        };
        if (Number(req.headers[exports.H_CLUSTER]) !== this.#clusterId) {
            refuse('409 Conflict', `cluster id mismatch: this agent is in cluster ${this.#clusterId}, the peer in ${req.headers[exports.H_CLUSTER]}`);
            return;
        }
        if (req.method !== 'GET' || req.url !== frames_1.FRAMES_PATH || req.headers.upgrade !== frames_1.FRAMES_PROTOCOL) {
            refuse('404 Not Found', `no peer upgrade ${req.method} ${req.url}`);
            return;
        }
        const from = { actor: String(req.headers[exports.H_ACTOR] ?? ''), addr: String(req.headers[exports.H_ADDR] ?? '') };
        socket.write(`HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: ${frames_1.FRAMES_PROTOCOL}\r\n${this.#rawHeaders()}\r\n`);
        socket.setNoDelay?.(true);
        this.#served.add(socket);
        socket.on('close', () => this.#served.delete(socket));
        socket.on('error', () => socket.destroy());
        (0, frames_1.readFrames)(socket, head, BODY_LIMIT, (obj) => void this.#serveFrame(socket, obj, from));
    }
    async #serveFrame(socket, f, from) {
        let answer;
        try {
            const json = Object.hasOwn(this.#handlers.json, f.r) ? this.#handlers.json[f.r] : undefined;
            if (!json)
                throw new Error(`no peer route ${String(f.r)}`);
            answer = { i: f.i, b: (await json(f.b, from)) ?? null };
        }
        catch (err) {
            answer = { i: f.i, e: err.message };
        }
        if (!socket.destroyed)
            this.bytesSent += (0, frames_1.writeFrame)(socket, answer);
    }
    #rawHeaders() {
        return Object.entries(this.#headers())
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join('');
    }
    #closeChannels() {
        for (const c of this.#channels.values())
            if (!(c instanceof Promise))
                c.socket.destroy();
        this.#channels.clear();
    }
    /** POSTs JSON to a peer and hands each NDJSON line of its answer to `onLine`, in order. */
    async stream(addr, route, body, idleTimeoutMs, onLine) {
        const res = await this.#request(addr, route, body, idleTimeoutMs);
        let buf = '';
        res.setEncoding('utf8');
        for await (const chunk of res) {
            buf += chunk;
            let nl;
            while ((nl = buf.indexOf('\n')) >= 0) {
                const line = buf.slice(0, nl);
                buf = buf.slice(nl + 1);
                if (line !== '')
                    await onLine(JSON.parse(line));
            }
        }
        if (!res.complete)
            throw new Error(`peer ${addr} ended the stream early`);
    }
    #request(addr, route, body, timeoutMs) {
        const [host, port] = splitAddr(addr);
        const payload = JSON.stringify(body);
        this.bytesSent += payload.length;
        return new Promise((resolve, reject) => {
            const req = (this.#tls ? node_https_1.default : node_http_1.default).request({
                host,
                port,
                localAddress: this.#localAddress,
                method: 'POST',
                path: `/peer/v1/${route}`,
                agent: this.#agent,
                timeout: timeoutMs,
                headers: {
                    'content-type': 'application/json',
                    'content-length': Buffer.byteLength(payload),
                    ...this.#headers(),
                },
            }, (res) => {
                if (res.statusCode === 409 && Number(res.headers[exports.H_CLUSTER]) !== this.#clusterId) {
                    res.resume();
                    this.refused.add(addr);
                    return reject(new ClusterMismatch(`peer ${addr} is in cluster ${res.headers[exports.H_CLUSTER]}, this agent in ${this.#clusterId}`));
                }
                if (res.statusCode !== 200) {
                    readBody(res).then((t) => reject(new Error(`peer ${addr} answered ${res.statusCode}: ${t.slice(0, 200)}`)), reject);
                    return;
                }
                if (Number(res.headers[exports.H_CLUSTER]) !== this.#clusterId) {
                    res.destroy();
                    return reject(new ClusterMismatch(`peer ${addr} answered for cluster ${res.headers[exports.H_CLUSTER]}`));
                }
                res.on('timeout', () => res.destroy(new Error(`peer ${addr} stalled`)));
                resolve(res);
            });
            req.on('timeout', () => req.destroy(new Error(`peer ${addr} did not answer in ${timeoutMs} ms`)));
            req.on('error', reject);
            req.end(payload);
        });
    }
    async close() {
        this.#closed = true;
        this.#agent.destroy();
        this.#closeChannels();
        for (const s of this.#served)
            s.destroy();
        const s = this.#server;
        if (!s)
            return;
        await new Promise((resolve) => {
            s.close(() => resolve());
            s.closeAllConnections();
        });
    }
}
exports.PeerTransport = PeerTransport;
function splitAddr(addr) {
    const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(addr);
    if (!m)
        throw new Error(`bad peer address ${addr}`);
    return [m[1] ?? m[2], Number(m[3])];
}
function readBody(req) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let n = 0;
        req.on('data', (c) => {
            n += c.length;
            if (n > BODY_LIMIT)
                req.destroy(new Error('peer body too large'));
            else
                chunks.push(c);
        });
        req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        req.on('error', reject);
        req.on('aborted', () => reject(new Error('peer went away')));
    });
}
function responseSink(res, count) {
    let open = true;
    res.on('close', () => (open = false));
    return {
        get open() {
            return open && !res.destroyed;
        },
        write(obj) {
            if (!open)
                return Promise.reject(new Error('peer went away'));
            const line = JSON.stringify(obj) + '\n';
            count(line.length);
            if (res.write(line))
                return Promise.resolve();
            return new Promise((resolve, reject) => {
                const done = () => {
                    res.off('drain', done);
                    res.off('close', done);
                    open ? resolve() : reject(new Error('peer went away'));
                };
                res.on('drain', done);
                res.on('close', done);
            });
        },
    };
}
//# sourceMappingURL=transport.js.map