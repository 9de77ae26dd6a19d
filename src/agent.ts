import type http from 'node:http';
import type { Config } from './config/config';
import { Security } from './auth/security';
import { checkExposure } from './auth/exposure';
import { reloadedConfig } from './config/reload';
import type { Engine } from './engine/engine';
import { logSchemaPlan, reloadSchemaLogged } from './engine/schema/plan-log';
import type { Changeset } from './bus/changeset';
import { InProcessChangeFeed } from './bus/change-feed';
import { TableCounts } from './observability/table-counts';
import { ChangeCapture } from './crdt/capture';
import { ChangeLogCompactor } from './crdt/change-log';
import { TableUpdates } from './live/table-updates';
import { Subscriptions, subscriptionStoreFile } from './live/subscriptions';
import { closeHttpServer, createHttpApp, httpAddr, listenHttp, reloadHttpsTls } from '../protocols/http/app';
import { clusterRoutes } from '../protocols/http/routes/cluster';
import { Cluster } from './cluster/cluster';
import type { PgServer } from '../protocols/pg/server';
import { log } from './observability/log';
import { Metrics } from './observability/metrics';
import { registerAgentMetrics } from './observability/agent-metrics';
import { healthDocument, startedFields } from './observability/health';
import { backupLogged, checkBackupTarget } from './ops/backup';
import type { DatabaseLock } from './ops/db-lock';
import { openEngine } from './ops/open-engine';
import { collectDroppedStatements } from './engine/statement-memory';

/**
 * The composition root: builds every part from a Config and starts and stops them in order.
 *
 *   HTTP (Koa) ──> engine.transaction ──commit──> capture (triggers + changeset) ──> feed ──> table update streams
 *                                                                                          └─> subscriptions (queued at commit, diffed right after)
 *   PG wire ────> engine.transaction / engine.lease (BEGIN..COMMIT) ──commit──> (the same capture and feed)
 *   reads ───────> engine.read (point reads in-process, the rest in killable worker processes)
 *   peers ───────> cluster merge ──commit──> the same feed (origin 'remote'); local changesets ──> peers
 *   security ────> tokens (HTTP middleware), PG users and TLS, HTTPS, peer mutual TLS: one Security, re-read on reload
 *   observability: one metrics registry (GET /metrics) reading every part's stats, one logger (src/observability)
 *   ops: the database lock held for the agent's life, online backup (src/ops)
 */
export class Agent {
  readonly config: Config;
  readonly engine: Engine<Changeset>;
  /** Tokens, PostgreSQL users, certificates: asked by every front end, re-read on reload. */
  readonly security: Security;
  /** The change-feed bus: one changeset per committed transaction, in commit order. */
  readonly feed = new InProcessChangeFeed();
  /** Rows written per table, from the feed (pg_stat_user_tables' n_tup_ins, n_tup_upd, n_tup_del). */
  readonly tableCounts = new TableCounts(this.feed);
  capture: ChangeCapture | null = null;
  updates!: TableUpdates;
  /** Replication with peers; null when the agent runs alone (no gossip address). */
  cluster: Cluster | null = null;
  subscriptions: Subscriptions | null = null;
  #http: http.Server | null = null;
  #pg: PgServer | null = null;
  readonly metrics = new Metrics();
  #lock: DatabaseLock | null = null;
  /** Removes change log entries that name nothing any more (crdt/change-log.ts). */
  #compactor: ChangeLogCompactor | null = null;
  readonly #started = Date.now();
  #stopping: Promise<void> | null = null;

  private constructor(config: Config, engine: Engine<Changeset>, security: Security) {
    this.config = config;
    this.engine = engine;
    this.security = security;
  }

  /**
   * `capture: false` is for the capture benchmark only (its anchor): no clocks, no changesets.
   * `requestMetrics: false` is for the metrics benchmark only (its anchor): no per-request metrics.
   */
  static async start(config: Config, internal: { capture?: boolean; requestMetrics?: boolean } = {}): Promise<Agent> {
    // Refused before anything opens: an exposed port without auth, unreadable secrets or certificates.
    checkExposure(config);
    const security = Security.load(config);
    // SQLite statements the caches drop are freed as the agent runs (V8 cannot see their size)
    collectDroppedStatements();
    // One agent per database, locked before it opens; a backup copy not yet restored is refused.
    const { engine, lock } = await openEngine(config.db);
    const agent = new Agent(config, engine, security);
    agent.#lock = lock;
    try {
      if (engine.appliedAtOpen) logSchemaPlan('schema applied at start', engine.appliedAtOpen);
      const capture = internal.capture === false ? null : ChangeCapture.install(engine, agent.feed);
      agent.capture = capture;
      agent.#compactor = capture ? new ChangeLogCompactor(engine, capture) : null;
      agent.updates = new TableUpdates(agent.feed, () => engine.schema, { capacity: 4096 });
      // Subscriptions catch up with the data (start-up diff) before the first write can happen.
      const subscriptions = await Subscriptions.open(
        engine,
        subscriptionStoreFile(config.db.path),
        config.subscriptions,
      );
      agent.subscriptions = subscriptions;
      agent.feed.observe((cs) => subscriptions.onChangeset(cs));
      // Only live queries read a change's values (the wake index): other tables' rows are not read back.
      if (capture) capture.rowsWanted = (table) => subscriptions.readsTable(table);
      if (config.gossip && capture)
        agent.cluster = await Cluster.start(
          engine,
          capture,
          agent.feed,
          config.gossip,
          security.gossipTls,
          config.gossipTuning,
        );
      registerAgentMetrics(agent.metrics, {
        dbPath: config.db.path,
        actor: capture?.actor ?? null,
        feed: agent.feed,
        engine,
        subscriptions: () => agent.subscriptions?.stats() ?? null,
        updates: () => agent.updates ?? null,
        pg: () => agent.#pg?.counts ?? null,
        cluster: () => agent.cluster?.metrics() ?? null,
      });
      const app = createHttpApp(
        {
          queries: engine,
          transactions: {
            transaction: (statements) => engine.transaction(statements),
            describeChange: (change) => capture?.describe(change as Changeset | null) ?? {},
          },
          updates: agent.updates,
          subscriptions,
          admission: subscriptions,
          health: () => agent.health(),
          reloadSchema: () => agent.reload(),
          metrics: internal.requestMetrics === false ? undefined : agent.metrics,
          backup: { checkBackupTarget, backup: (file, onProgress) => agent.backup(file, onProgress) },
          extraRoutes: clusterRoutes(agent.cluster),
          authority: security,
        },
        { bodyLimit: config.api.bodyLimit, queryTimeoutSeconds: config.api.queryTimeoutSeconds },
      );
      agent.#http = await listenHttp(app, config.api.addr.host, config.api.addr.port, security.apiTls);
      // LISTEN patina_updates_<table> on the PG port hears the same table update streams as HTTP
      // (the PG front end's modules are loaded only for an agent that listens for it: a third of
      // the agent's start-up CPU, which an HTTP-only agent, each one of a cluster, does not pay)
      if (config.api.pg.length > 0)
        agent.#pg = await (await import('../protocols/pg/server')).PgServer.start(
          engine,
          config.api.pg,
          config.api.queryTimeoutSeconds,
          (i) => security.pgListener(i),
          agent.updates,
          subscriptions,
          agent.tableCounts,
        );
      security.onReload((s) => {
        if (s.apiTls && agent.#http) reloadHttpsTls(agent.#http, s.apiTls);
        if (s.gossipTls) agent.cluster?.reloadTls(s.gossipTls);
      });
      log.info(startedFields(agent), 'agent started');
    } catch (err) {
      await agent.stop();
      throw err;
    }
    return agent;
  }

  /** The HTTP API's scheme: https with [api.tls]. */
  get apiScheme(): 'http' | 'https' {
    return this.security.apiTls ? 'https' : 'http';
  }

  /** Where the HTTP API listens (the real port when 0 was asked for). */
  get apiAddr(): string {
    return httpAddr(this.#http, this.config.api.addr);
  }

  /** Where the PostgreSQL listeners are bound (real ports when 0 was asked for). */
  get pgAddrs(): string[] {
    return this.#pg?.listening() ?? [];
  }

  /** The Unix-domain sockets of the PG listeners that have a `socket_dir`. */
  get pgSocketPaths(): string[] {
    return this.#pg?.socketPaths() ?? [];
  }

  /** Where this agent listens for peers, when it replicates. */
  get gossipAddr(): string | null {
    return this.cluster?.listening ?? null;
  }

  health(): Record<string, unknown> {
    const { engine, cluster, updates, subscriptions, security, capture } = this;
    return healthDocument({ started: this.#started, engine, cluster, updates, subscriptions, security, capture });
  }

  /**
   * `patina reload` and SIGHUP: re-reads tokens, passwords and certificates (from the config file
   * when there is one, else from the files and variables already named), then the schema files.
   * A secret or certificate that cannot be read refuses the reload and keeps the current ones.
   */
  async reload(): Promise<Record<string, unknown>> {
    const next = reloadedConfig(this.config); // only what reload re-reads; the rest needs a restart
    this.security.reload(next);
    Object.assign(this.config, next);
    return { ...(await this.reloadSchema()), security: this.security.describe() };
  }

  /** The schema half of `reload`: re-reads the schema files and applies what is new, logged. */
  reloadSchema(): Promise<Record<string, unknown>> {
    return reloadSchemaLogged(this.engine);
  }

  /** Stops accepting, lets in-flight writes finish, closes the database. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      const server = this.#http;
      await this.cluster?.stop();
      await this.#pg?.stop();
      this.updates?.close();
      this.subscriptions?.endListeners();
      if (server) await closeHttpServer(server);
      await this.subscriptions?.close(1500);
      await this.#compactor?.close();
      await this.engine.close();
      this.#lock?.release();
      if (server) log.info({ db: this.config.db.path }, 'agent stopped');
    })();
    return this.#stopping;
  }

  /** An online copy of the database to `file` (absolute, new) while writes go on; see src/ops/backup.ts. */
  backup(file: string, onProgress: (p: { bytesDone: number; bytesTotal: number }) => void) {
    return backupLogged(this.engine.path, file, this.capture?.actor ?? null, onProgress);
  }
}
