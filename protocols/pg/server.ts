// PostgreSQL listeners: one TCP server per configured address, sharing the catalog connection and
// the table of connections that CancelRequest looks keys up in.
import { loadParser } from './sql/parse';
import net from 'node:net';
import { clearStaleSocket, listenOn, unixSocketPath } from './connection/unix-socket';
import type { PgListenerSecurity } from '../../src/auth/security';
import {
  PG_LISTENER_DEFAULTS,
  type PgListenerConfig,
  TCP_KEEPALIVE_IDLE_MS,
  formatAddr,
} from '../../src/config/config';
import type { Schema } from '../../src/engine/schema/model';
import type { WriteAdmission } from '../../src/engine/write-admission';
import type { TableCounts } from '../../src/observability/table-counts';
import { admittedEngine } from './connection/admission';
import { Connection } from './connection/connection';
import type { CancelRegistry } from './connection/listener-options';
import { negotiateEncryption } from './connection/encryption';
import { LocalDb, type Sessions } from './catalog/local-db';
import { CatalogWorkers } from './catalog/catalog-workers';
import { postmasterStart } from './catalog/catalog-functions';
import { pgError } from './sqlstate';
import { Channels, type TableUpdateSource } from './session/notifications';
import { PgCounts } from './statement-counts';
import type { PgEngine } from './session/engine';

/** The engine as the PG front end sees it, plus where its file is and how to hear of schema reloads. */
export interface PgBackend extends PgEngine {
  readonly path: string;
  onSchema(fn: (schema: Schema) => void): void;
}

export class PgServer implements CancelRegistry {
  readonly #local: LocalDb;
  /** What sessions write through: the engine behind the write admission, when there is one. */
  readonly #sessionEngine: PgEngine;
  readonly #servers: net.Server[] = [];
  readonly #unixServers: net.Server[] = [];
  readonly #socketPaths: string[] = [];
  readonly #conns = new Map<number, { key: number; conn: Connection }>();
  readonly #sockets = new Set<net.Socket>();
  /** LISTEN/NOTIFY channels of every connection of every listener of this agent. */
  readonly #channels: Channels;
  /** Connections and statements, counted for the metrics. */
  readonly counts = new PgCounts();

  private constructor(engine: PgBackend, updates: TableUpdateSource | null, admission: WriteAdmission | null) {
    this.#sessionEngine = admission ? admittedEngine(engine, admission) : engine;
    this.#channels = new Channels(updates);
    this.#local = new LocalDb(engine.path);
    this.#local.sessions = this.#sessions;
    const workers = new CatalogWorkers(engine.path);
    this.#local.workers = workers;
    this.counts.catalogWorkers = () => workers.stats();
    engine.onSchema((schema) => {
      this.#local.refresh(schema);
      workers.schema(this.#local.built(schema), postmasterStart());
    });
  }

  /** Starts every configured listener; rejects if one cannot bind. */
  static async start(
    engine: PgBackend,
    listeners: PgListenerConfig[],
    queryTimeoutSeconds: number,
    security: (i: number) => PgListenerSecurity,
    updates: TableUpdateSource | null = null,
    admission: WriteAdmission | null = null,
    tableCounts: TableCounts | null = null,
  ): Promise<PgServer> {
    const s = new PgServer(engine, updates, admission);
    s.#local.tableCounts = tableCounts;
    await loadParser();
    try {
      for (const [i, l] of listeners.entries()) await s.#listen(l, queryTimeoutSeconds * 1000, () => security(i));
    } catch (err) {
      await s.stop();
      throw err;
    }
    return s;
  }

  /** `security` is asked per connection, so a reload's users and certificates apply to the next one. */
  async #listen(l: PgListenerConfig, queryTimeoutMs: number, security: () => PgListenerSecurity): Promise<void> {
    const limits = {
      authTimeoutMs: 1000 * (l.authenticationTimeoutSeconds ?? PG_LISTENER_DEFAULTS.authenticationTimeoutSeconds),
      maxConnections: l.maxConnections ?? PG_LISTENER_DEFAULTS.maxConnections,
      /** Open connections of this listener, over TCP and its Unix-domain socket together. */
      open: 0,
    };
    const tcp = net.createServer({ keepAlive: true, keepAliveInitialDelay: TCP_KEEPALIVE_IDLE_MS }, (socket) =>
      this.#accept(socket, l, limits, queryTimeoutMs, security, false),
    );
    tcp.maxConnections = 10000;
    this.#servers.push(tcp);
    await listenOn(tcp, (done) => tcp.listen(l.addr.port, l.addr.host, done));
    if (!l.socketDir) return;
    const socketPath = unixSocketPath(l.socketDir, (tcp.address() as net.AddressInfo).port);
    await clearStaleSocket(socketPath);
    const unix = net.createServer((socket) => this.#accept(socket, l, limits, queryTimeoutMs, security, true));
    unix.maxConnections = 10000;
    this.#unixServers.push(unix);
    await listenOn(unix, (done) => unix.listen(socketPath, done));
    this.#socketPaths.push(socketPath);
  }

  /**
   * A new client socket of listener `l`. A Unix-domain socket is local, as PostgreSQL's `local` lines
   * of pg_hba.conf: its SSLRequest is answered N (libpq sends none there) and `require_tls` does not
   * apply; the listener's passwords do.
   */
  #accept(
    socket: net.Socket,
    l: PgListenerConfig,
    limits: { authTimeoutMs: number; maxConnections: number; open: number },
    queryTimeoutMs: number,
    security: () => PgListenerSecurity,
    local: boolean,
  ): void {
    this.#sockets.add(socket);
    limits.open++;
    this.counts.accepted++;
    this.counts.open = this.#sockets.size;
    // PostgreSQL's authentication_timeout: a client that never finishes logging in (silent, or stopped
    // mid-startup) is closed, as PostgreSQL does, with nothing sent; its socket and memory are freed.
    let authenticated = false;
    const authTimer = setTimeout(() => {
      if (authenticated) return;
      this.counts.authTimeouts++;
      socket.destroy();
    }, limits.authTimeoutMs);
    authTimer.unref();
    socket.on('close', () => {
      clearTimeout(authTimer);
      limits.open--;
      this.#sockets.delete(socket);
      this.counts.open = this.#sockets.size;
    });
    // Past max_connections the client still gets an answer it understands, after its startup packet (53300).
    const tooMany = limits.open > limits.maxConnections;
    const sec = security();
    negotiateEncryption(
      socket,
      () => (local ? null : sec.tls),
      (n) => {
        const opts = {
          readonly: l.readonly,
          users: sec.users,
          requireTls: sec.requireTls && !local,
          queryTimeoutMs,
          counts: this.counts,
          tooMany,
          onAuthenticated: () => {
            authenticated = true;
            clearTimeout(authTimer);
          },
        };
        new Connection(
          n.socket,
          this.#sessionEngine,
          this.#local,
          opts,
          this,
          { tls: n.tls, rest: n.rest, remoteAddress: socket.remoteAddress ?? '[local]', binding: n.binding },
          this.#channels,
        );
      },
    );
  }

  /** The Unix-domain sockets the listeners with a `socket_dir` listen on. */
  socketPaths(): string[] {
    return [...this.#socketPaths];
  }

  /** Where each listener is bound (real ports when 0 was asked for). */
  addresses(): { host: string; port: number }[] {
    return this.#servers
      .map((s) => s.address() as net.AddressInfo)
      .filter(Boolean)
      .map((a) => ({ host: a.address, port: a.port }));
  }

  /** The same, as `host:port` (`[host]:port` for IPv6). */
  listening(): string[] {
    return this.addresses().map((a) => formatAddr(a));
  }

  add(pid: number, key: number, conn: Connection): void {
    this.#conns.set(pid, { key, conn });
  }

  remove(pid: number): void {
    this.#conns.delete(pid);
  }

  cancel(pid: number, key: number): void {
    const c = this.#conns.get(pid);
    if (c && c.key === key) c.conn.cancel();
  }

  /** The sessions pg_stat_activity and pg_cancel_backend/pg_terminate_backend see (catalog/local-db.ts). */
  readonly #sessions: Sessions = {
    activity: () => [...this.#conns.values()].flatMap(({ conn }) => conn.activity() ?? []),
    signal: (pid, user, terminate) => {
      const c = this.#conns.get(pid)?.conn;
      const row = c?.activity();
      if (!c || !row) return false;
      if (row.user !== user)
        throw pgError(
          '42501',
          `permission denied to ${terminate ? 'terminate' : 'cancel'} process: only a session of the same user (${row.user}) may signal it`,
        );
      if (terminate) c.terminate();
      else c.cancel();
      return true;
    },
  };

  async stop(): Promise<void> {
    await Promise.all(
      [...this.#servers, ...this.#unixServers]
        .map((s) => new Promise<void>((resolve) => s.close(() => resolve())))
        .concat([...this.#sockets].map(async (sock) => void sock.destroy())),
    );
    await this.#local.workers?.close();
    this.#local.close();
  }
}
