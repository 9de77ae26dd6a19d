import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TlsMaterial } from '../auth/tls-material';
import { type Addr, formatAddr } from '../config/config';
import { FRAMES_PATH, FRAMES_PROTOCOL, type FrameAnswer, type FrameRequest, readFrames, writeFrame } from './frames';

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
export const H_CLUSTER = 'x-patina-cluster';
export const H_ACTOR = 'x-patina-actor';
export const H_ADDR = 'x-patina-addr';

/** Who sent a peer request. */
export interface PeerFrom {
  actor: string;
  addr: string;
}

/** Writes NDJSON lines to a peer with backpressure. */
export interface LineSink {
  write(obj: unknown): Promise<void>;
  /** False once the peer went away. */
  readonly open: boolean;
}

export interface PeerHandlers {
  /** JSON in, JSON out. */
  json: Record<string, (body: unknown, from: PeerFrom) => Promise<unknown> | unknown>;
  /** JSON in, NDJSON stream out. */
  stream: Record<string, (body: unknown, from: PeerFrom, out: LineSink) => Promise<void>>;
}

export class ClusterMismatch extends Error {}

const BODY_LIMIT = 256 * 1024 * 1024;
/** A peer that refused the framed connection is asked again after this long. */
const FRAMES_RETRY_MS = 5 * 60_000;

/** A framed connection to one peer, and the calls waiting for their answers. */
interface Channel {
  socket: Duplex;
  next: number;
  pending: Map<number, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>;
}

export class PeerTransport {
  readonly #clusterId: number;
  readonly #actor: string;
  #addr = '';
  #listening = '';
  /** Outgoing connections leave from the address we listen on (unless that is a wildcard). */
  #localAddress: string | undefined;
  #agent: http.Agent;
  #server: http.Server | null = null;
  readonly #handlers: PeerHandlers;
  #tls: TlsMaterial | null;
  /** Bytes of request and answer bodies this agent wrote to peers (every route; headers not counted). */
  bytesSent = 0;
  /** Refusals of other clusters, by address, so the log says it once. */
  readonly refused = new Set<string>();
  readonly #frames: boolean;
  /** Framed connections to peers (or being opened); a peer that refused one, until when it is not asked. */
  readonly #channels = new Map<string, Channel | Promise<Channel | null>>();
  readonly #httpOnly = new Map<string, number>();
  /** Framed connections peers opened to this agent. */
  readonly #served = new Set<Duplex>();
  #closed = false;

  constructor(
    clusterId: number,
    actor: string,
    handlers: PeerHandlers,
    tls: TlsMaterial | null = null,
    opts: { frames?: boolean } = {},
  ) {
    this.#clusterId = clusterId;
    this.#actor = actor;
    this.#handlers = handlers;
    this.#tls = tls;
    this.#frames = opts.frames ?? true;
    this.#agent = this.#newAgent();
  }

  /** Framed connections open to peers, and from peers. */
  get channels(): { out: number; in: number } {
    let out = 0;
    for (const c of this.#channels.values()) if (!(c instanceof Promise)) out++;
    return { out, in: this.#served.size };
  }

  #newAgent(): http.Agent {
    const opts = { keepAlive: true, maxSockets: 8, keepAliveMsecs: 1000 };
    const t = this.#tls;
    return t
      ? new https.Agent({
          ...opts,
          cert: t.cert,
          key: t.key,
          ca: t.ca,
          rejectUnauthorized: true,
          checkServerIdentity: () => undefined,
        })
      : new http.Agent(opts);
  }

  /** New certificates: the server presents them to the next handshake, new outgoing connections use them. */
  reloadTls(tls: TlsMaterial): void {
    this.#tls = tls;
    (this.#server as unknown as https.Server | null)?.setSecureContext({ cert: tls.cert, key: tls.key, ca: tls.ca });
    const old = this.#agent;
    this.#agent = this.#newAgent();
    old.destroy();
    this.#closeChannels();
  }

  /** Our own gossip address as peers should dial it (the real port when 0 was asked for). */
  get addr(): string {
    return this.#addr;
  }

  /** Where the peer server listens. */
  get listening(): string {
    return this.#listening;
  }

  listen(addr: Addr, advertise: Addr | null = null): Promise<string> {
    if (addr.host !== '0.0.0.0' && addr.host !== '::') this.#localAddress = addr.host;
    const handle = (req: http.IncomingMessage, res: http.ServerResponse) => void this.#serve(req, res);
    const t = this.#tls;
    const server = t
      ? (https.createServer(
          { cert: t.cert, key: t.key, ca: t.ca, requestCert: true, rejectUnauthorized: true },
          handle,
        ) as unknown as http.Server)
      : http.createServer(handle);
    server.keepAliveTimeout = 30_000;
    server.requestTimeout = 0;
    // Without this listener an upgrade is served as a plain request: 404, as by an older agent.
    if (this.#frames) server.on('upgrade', (req, socket, head) => this.#serveFrames(req, socket, head));
    this.#server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(addr.port, addr.host, () => {
        server.off('error', reject);
        const a = server.address() as AddressInfo;
        this.#listening = formatAddr({ host: a.address, port: a.port });
        this.#addr = advertise ? formatAddr(advertise) : this.#listening;
        resolve(this.#addr);
      });
    });
  }

  #headers(): Record<string, string> {
    return { [H_CLUSTER]: String(this.#clusterId), [H_ACTOR]: this.#actor, [H_ADDR]: this.#addr };
  }

  async #serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const fail = (status: number, error: string) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(status, { 'content-type': 'application/json', ...this.#headers() });
      res.end(JSON.stringify({ error }));
    };
    try {
      const theirs = Number(req.headers[H_CLUSTER]);
      if (theirs !== this.#clusterId) {
        req.resume();
        return fail(
          409,
          `cluster id mismatch: this agent is in cluster ${this.#clusterId}, the peer in ${req.headers[H_CLUSTER]}`,
        );
      }
      const from: PeerFrom = { actor: String(req.headers[H_ACTOR] ?? ''), addr: String(req.headers[H_ADDR] ?? '') };
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
      res.flushHeaders();
      const sink = responseSink(res, (n) => (this.bytesSent += n));
      try {
        await stream!(body, from, sink);
      } finally {
        sink.close();
      }
      res.end();
    } catch (err) {
      fail(500, (err as Error).message);
    }
  }

  /** Sends JSON to a peer and returns its JSON answer: over the framed connection, else POST. */
  async call(addr: string, route: string, body: unknown, timeoutMs: number): Promise<unknown> {
    const ch = this.#frames ? await this.#channel(addr, timeoutMs) : null;
    if (ch) return this.#callFramed(ch, addr, route, body, timeoutMs);
    const res = await this.#request(addr, route, body, timeoutMs);
    return JSON.parse(await readBody(res));
  }

  #callFramed(ch: Channel, addr: string, route: string, body: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const i = ch.next++;
      const timer = setTimeout(() => {
        ch.pending.delete(i);
        reject(new Error(`peer ${addr} did not answer in ${timeoutMs} ms`));
        // As an HTTP request's socket on a timeout: the connection may be dead without a FIN.
        ch.socket.destroy();
      }, timeoutMs);
      ch.pending.set(i, { resolve, reject, timer });
      this.bytesSent += writeFrame(ch.socket, { i, r: route, b: body } satisfies FrameRequest);
    });
  }

  /**
   * The framed connection to `addr`: the open one, or a new one. Null when the peer does not offer
   * one (an older agent, or the upgrade failed otherwise: the call goes over HTTP, which reports
   * what is wrong); a connection that cannot be made at all rejects.
   */
  async #channel(addr: string, timeoutMs: number): Promise<Channel | null> {
    const have = this.#channels.get(addr);
    if (have) return have;
    if ((this.#httpOnly.get(addr) ?? 0) > Date.now()) return null;
    const opening = this.#openChannel(addr, timeoutMs).then(
      (ch) => {
        if (this.#closed) {
          ch?.socket.destroy();
          return null;
        }
        if (this.#channels.get(addr) === opening) {
          if (ch) this.#channels.set(addr, ch);
          else this.#channels.delete(addr);
        }
        return ch;
      },
      (err) => {
        if (this.#channels.get(addr) === opening) this.#channels.delete(addr);
        throw err;
      },
    );
    this.#channels.set(addr, opening);
    return opening;
  }

  #openChannel(addr: string, timeoutMs: number): Promise<Channel | null> {
    const [host, port] = splitAddr(addr);
    const t = this.#tls;
    return new Promise((resolve, reject) => {
      const req = (t ? https : http).request({
        host,
        port,
        localAddress: this.#localAddress,
        method: 'GET',
        path: FRAMES_PATH,
        agent: false,
        timeout: timeoutMs,
        headers: { connection: 'Upgrade', upgrade: FRAMES_PROTOCOL, ...this.#headers() },
        ...(t
          ? { cert: t.cert, key: t.key, ca: t.ca, rejectUnauthorized: true, checkServerIdentity: () => undefined }
          : {}),
      });
      req.on('upgrade', (res, socket, head) => {
        if (Number(res.headers[H_CLUSTER]) !== this.#clusterId) {
          socket.destroy();
          return resolve(null); // the HTTP call says which cluster it is in
        }
        socket.setTimeout(0);
        socket.setNoDelay(true);
        const ch: Channel = { socket, next: 1, pending: new Map() };
        readFrames(socket, head, BODY_LIMIT, (obj) => {
          const a = obj as FrameAnswer;
          const p = ch.pending.get(a.i);
          if (!p) return;
          ch.pending.delete(a.i);
          clearTimeout(p.timer);
          if (a.e !== undefined) p.reject(new Error(`peer ${addr} answered: ${String(a.e).slice(0, 200)}`));
          else p.resolve(a.b);
        });
        const gone = (err?: Error) => {
          if (this.#channels.get(addr) === ch) this.#channels.delete(addr);
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
        if (res.statusCode === 404) this.#httpOnly.set(addr, Date.now() + FRAMES_RETRY_MS);
        resolve(null);
      });
      req.on('timeout', () => req.destroy(new Error(`peer ${addr} did not answer in ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end();
    });
  }

  /** A peer's framed connection: checked as any request, then its frames are served in turn. */
  #serveFrames(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const refuse = (status: string, error: string) => {
      const body = JSON.stringify({ error });
      socket.end(
        `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
          `${this.#rawHeaders()}connection: close\r\n\r\n${body}`,
      );
    };
    if (Number(req.headers[H_CLUSTER]) !== this.#clusterId) {
      refuse(
        '409 Conflict',
        `cluster id mismatch: this agent is in cluster ${this.#clusterId}, the peer in ${req.headers[H_CLUSTER]}`,
      );
      return;
    }
    if (req.method !== 'GET' || req.url !== FRAMES_PATH || req.headers.upgrade !== FRAMES_PROTOCOL) {
      refuse('404 Not Found', `no peer upgrade ${req.method} ${req.url}`);
      return;
    }
    const from: PeerFrom = { actor: String(req.headers[H_ACTOR] ?? ''), addr: String(req.headers[H_ADDR] ?? '') };
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: ${FRAMES_PROTOCOL}\r\n${this.#rawHeaders()}\r\n`,
    );
    (socket as { setNoDelay?(b: boolean): void }).setNoDelay?.(true);
    this.#served.add(socket);
    socket.on('close', () => this.#served.delete(socket));
    socket.on('error', () => socket.destroy());
    readFrames(socket, head, BODY_LIMIT, (obj) => void this.#serveFrame(socket, obj as FrameRequest, from));
  }

  async #serveFrame(socket: Duplex, f: FrameRequest, from: PeerFrom): Promise<void> {
    let answer: FrameAnswer;
    try {
      const json = Object.hasOwn(this.#handlers.json, f.r) ? this.#handlers.json[f.r] : undefined;
      if (!json) throw new Error(`no peer route ${String(f.r)}`);
      answer = { i: f.i, b: (await json(f.b, from)) ?? null };
    } catch (err) {
      answer = { i: f.i, e: (err as Error).message };
    }
    if (!socket.destroyed) this.bytesSent += writeFrame(socket, answer);
  }

  #rawHeaders(): string {
    return Object.entries(this.#headers())
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
  }

  #closeChannels(): void {
    for (const c of this.#channels.values()) if (!(c instanceof Promise)) c.socket.destroy();
    this.#channels.clear();
  }

  /** POSTs JSON to a peer and hands each NDJSON line of its answer to `onLine`, in order. */
  async stream(
    addr: string,
    route: string,
    body: unknown,
    idleTimeoutMs: number,
    onLine: (obj: unknown) => Promise<void> | void,
  ): Promise<void> {
    const res = await this.#request(addr, route, body, idleTimeoutMs);
    let buf = '';
    res.setEncoding('utf8');
    for await (const chunk of res as AsyncIterable<string>) {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line === '') continue; // the server's keep-alive (responseSink)
        // While this agent works on a line (a merge of a large version takes seconds, and lets the
        // event loop turn), it reads nothing: that is not the peer stalling.
        res.socket?.setTimeout(0);
        await onLine(JSON.parse(line));
        res.socket?.setTimeout(idleTimeoutMs);
      }
    }
    if (!res.complete) throw new Error(`peer ${addr} ended the stream early`);
  }

  #request(addr: string, route: string, body: unknown, timeoutMs: number): Promise<http.IncomingMessage> {
    const [host, port] = splitAddr(addr);
    const payload = JSON.stringify(body);
    this.bytesSent += payload.length;
    return new Promise((resolve, reject) => {
      const req = (this.#tls ? https : http).request(
        {
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
        },
        (res) => {
          if (res.statusCode === 409 && Number(res.headers[H_CLUSTER]) !== this.#clusterId) {
            res.resume();
            this.refused.add(addr);
            return reject(
              new ClusterMismatch(
                `peer ${addr} is in cluster ${res.headers[H_CLUSTER]}, this agent in ${this.#clusterId}`,
              ),
            );
          }
          if (res.statusCode !== 200) {
            readBody(res).then(
              (t) => reject(new Error(`peer ${addr} answered ${res.statusCode}: ${t.slice(0, 200)}`)),
              reject,
            );
            return;
          }
          if (Number(res.headers[H_CLUSTER]) !== this.#clusterId) {
            res.destroy();
            return reject(new ClusterMismatch(`peer ${addr} answered for cluster ${res.headers[H_CLUSTER]}`));
          }
          res.on('timeout', () => res.destroy(new Error(`peer ${addr} stalled`)));
          resolve(res);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`peer ${addr} did not answer in ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#agent.destroy();
    this.#closeChannels();
    for (const s of this.#served) s.destroy();
    const s = this.#server;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }
}

export function splitAddr(addr: string): [string, number] {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(addr);
  if (!m) throw new Error(`bad peer address ${addr}`);
  return [m[1] ?? m[2], Number(m[3])];
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n > BODY_LIMIT) req.destroy(new Error('peer body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('peer went away')));
  });
}

/** A stream that has written nothing for this long writes an empty line (the peer's idle timeout is 15 s). */
const KEEPALIVE_MS = 5000;

/**
 * The lines of a stream's answer. While the server works before its next line (a version of 100,000
 * rows is read in slices, and waits for another peer's read), an empty line every KEEPALIVE_MS tells
 * the peer it is still there: its idle timeout then measures a dead server, not a slow read.
 */
function responseSink(res: http.ServerResponse, count: (n: number) => void): LineSink & { close(): void } {
  let open = true;
  let wrote = Date.now();
  const keepalive = setInterval(() => {
    if (open && !res.destroyed && Date.now() - wrote >= KEEPALIVE_MS) {
      wrote = Date.now();
      res.write('\n');
    }
  }, KEEPALIVE_MS / 2);
  keepalive.unref();
  res.on('close', () => {
    open = false;
    clearInterval(keepalive);
  });
  return {
    get open() {
      return open && !res.destroyed;
    },
    close() {
      clearInterval(keepalive);
    },
    write(obj: unknown): Promise<void> {
      if (!open) return Promise.reject(new Error('peer went away'));
      const line = JSON.stringify(obj) + '\n';
      wrote = Date.now();
      count(line.length);
      if (res.write(line)) return Promise.resolve();
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
