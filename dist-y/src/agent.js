"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Agent = void 0;
const security_1 = require("./auth/security");
const exposure_1 = require("./auth/exposure");
const reload_1 = require("./config/reload");
const plan_log_1 = require("./engine/schema/plan-log");
const change_feed_1 = require("./bus/change-feed");
const capture_1 = require("./crdt/capture");
const change_log_1 = require("./crdt/change-log");
const table_updates_1 = require("./live/table-updates");
const subscriptions_1 = require("./live/subscriptions");
const app_1 = require("../protocols/http/app");
const cluster_1 = require("../protocols/http/routes/cluster");
const cluster_2 = require("./cluster/cluster");
const server_1 = require("../protocols/pg/server");
const log_1 = require("./observability/log");
const metrics_1 = require("./observability/metrics");
const agent_metrics_1 = require("./observability/agent-metrics");
const health_1 = require("./observability/health");
const backup_1 = require("./ops/backup");
const open_engine_1 = require("./ops/open-engine");
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
class Agent {
    config;
    engine;
    /** Tokens, PostgreSQL users, certificates: asked by every front end, re-read on reload. */
    security;
    /** The change-feed bus: one changeset per committed transaction, in commit order. */
    feed = new change_feed_1.InProcessChangeFeed();
    capture = null;
    updates;
    /** Replication with peers; null when the agent runs alone (no gossip address). */
    cluster = null;
    subscriptions = null;
    #http = null;
    #pg = null;
    metrics = new metrics_1.Metrics();
    #lock = null;
    /** Removes change log entries that name nothing any more (crdt/change-log.ts). */
    #compactor = null;
    #started = Date.now();
    #stopping = null;
    constructor(config, engine, security) {
        this.config = config;
        this.engine = engine;
        this.security = security;
    }
    /**
     * `capture: false` is for the capture benchmark only (its anchor): no clocks, no changesets.
     * `requestMetrics: false` is for the metrics benchmark only (its anchor): no per-request metrics.
     */
    static async start(config, internal = {}) {
        // Refused before anything opens: an exposed port without auth, unreadable secrets or certificates.
        (0, exposure_1.checkExposure)(config);
        const security = security_1.Security.load(config);
        // One agent per database, locked before it opens; a backup copy not yet restored is refused.
        const { engine, lock } = await (0, open_engine_1.openEngine)(config.db);
        const agent = new Agent(config, engine, security);
        agent.#lock = lock;
        try {
            if (engine.appliedAtOpen)
                (0, plan_log_1.logSchemaPlan)('schema applied at start', engine.appliedAtOpen);
            const capture = internal.capture === false ? null : capture_1.ChangeCapture.install(engine, agent.feed);
            agent.capture = capture;
            agent.#compactor = capture ? new change_log_1.ChangeLogCompactor(engine, capture) : null;
            agent.updates = new table_updates_1.TableUpdates(agent.feed, () => engine.schema, { capacity: 4096 });
            // Subscriptions catch up with the data (start-up diff) before the first write can happen.
            const subscriptions = await subscriptions_1.Subscriptions.open(engine, (0, subscriptions_1.subscriptionStoreFile)(config.db.path), config.subscriptions);
            agent.subscriptions = subscriptions;
            agent.feed.observe((cs) => subscriptions.onChangeset(cs));
            // Only live queries read a change's values (the wake index): other tables' rows are not read back.
            if (capture)
                capture.rowsWanted = (table) => subscriptions.readsTable(table);
            if (config.gossip && capture)
                agent.cluster = await cluster_2.Cluster.start(engine, capture, agent.feed, config.gossip, security.gossipTls, config.gossipTuning);
            (0, agent_metrics_1.registerAgentMetrics)(agent.metrics, {
                dbPath: config.db.path,
                actor: capture?.actor ?? null,
                feed: agent.feed,
                engine,
                subscriptions: () => agent.subscriptions?.stats() ?? null,
                updates: () => agent.updates ?? null,
                pg: () => agent.#pg?.counts ?? null,
                cluster: () => agent.cluster?.metrics() ?? null,
            });
            const app = (0, app_1.createHttpApp)({
                queries: engine,
                transactions: {
                    transaction: (statements) => engine.transaction(statements),
                    describeChange: (change) => capture?.describe(change) ?? {},
                },
                updates: agent.updates,
                subscriptions,
                admission: subscriptions,
                health: () => agent.health(),
                reloadSchema: () => agent.reload(),
                metrics: internal.requestMetrics === false ? undefined : agent.metrics,
                backup: { checkBackupTarget: backup_1.checkBackupTarget, backup: (file, onProgress) => agent.backup(file, onProgress) },
                extraRoutes: (0, cluster_1.clusterRoutes)(agent.cluster),
                authority: security,
            }, { bodyLimit: config.api.bodyLimit, queryTimeoutSeconds: config.api.queryTimeoutSeconds });
            agent.#http = await (0, app_1.listenHttp)(app, config.api.addr.host, config.api.addr.port, security.apiTls);
            // LISTEN patina_updates_<table> on the PG port hears the same table update streams as HTTP
            if (config.api.pg.length > 0)
                agent.#pg = await server_1.PgServer.start(engine, config.api.pg, config.api.queryTimeoutSeconds, (i) => security.pgListener(i), agent.updates, subscriptions);
            security.onReload((s) => {
                if (s.apiTls && agent.#http)
                    (0, app_1.reloadHttpsTls)(agent.#http, s.apiTls);
                if (s.gossipTls)
                    agent.cluster?.reloadTls(s.gossipTls);
            });
            log_1.log.info((0, health_1.startedFields)(agent), 'agent started');
        }
        catch (err) {
            await agent.stop();
            throw err;
        }
        return agent;
    }
    /** The HTTP API's scheme: https with [api.tls]. */
    get apiScheme() {
        return this.security.apiTls ? 'https' : 'http';
    }
    /** Where the HTTP API listens (the real port when 0 was asked for). */
    get apiAddr() {
        return (0, app_1.httpAddr)(this.#http, this.config.api.addr);
    }
    /** Where the PostgreSQL listeners are bound (real ports when 0 was asked for). */
    get pgAddrs() {
        return this.#pg?.listening() ?? [];
    }
    /** Where this agent listens for peers, when it replicates. */
    get gossipAddr() {
        return this.cluster?.listening ?? null;
    }
    health() {
        const { engine, cluster, updates, subscriptions, security, capture } = this;
        return (0, health_1.healthDocument)({ started: this.#started, engine, cluster, updates, subscriptions, security, capture });
    }
    /**
     * `patina reload` and SIGHUP: re-reads tokens, passwords and certificates (from the config file
     * when there is one, else from the files and variables already named), then the schema files.
     * A secret or certificate that cannot be read refuses the reload and keeps the current ones.
     */
    async reload() {
        const next = (0, reload_1.reloadedConfig)(this.config); // only what reload re-reads; the rest needs a restart
        this.security.reload(next);
        Object.assign(this.config, next);
        return { ...(await this.reloadSchema()), security: this.security.describe() };
    }
    /** The schema half of `reload`: re-reads the schema files and applies what is new, logged. */
    reloadSchema() {
        return (0, plan_log_1.reloadSchemaLogged)(this.engine);
    }
    /** Stops accepting, lets in-flight writes finish, closes the database. */
    stop() {
        this.#stopping ??= (async () => {
            const server = this.#http;
            await this.cluster?.stop();
            await this.#pg?.stop();
            this.updates?.close();
            this.subscriptions?.endListeners();
            if (server)
                await (0, app_1.closeHttpServer)(server);
            await this.subscriptions?.close(1500);
            await this.#compactor?.close();
            await this.engine.close();
            this.#lock?.release();
            if (server)
                log_1.log.info({ db: this.config.db.path }, 'agent stopped');
        })();
        return this.#stopping;
    }
    /** An online copy of the database to `file` (absolute, new) while writes go on; see src/ops/backup.ts. */
    backup(file, onProgress) {
        return (0, backup_1.backupLogged)(this.engine.path, file, this.capture?.actor ?? null, onProgress);
    }
}
exports.Agent = Agent;
//# sourceMappingURL=agent.js.map