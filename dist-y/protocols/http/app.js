"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.routeRole = routeRole;
exports.createHttpApp = createHttpApp;
exports.closeHttpServer = closeHttpServer;
exports.listenHttp = listenHttp;
exports.httpsOptions = httpsOptions;
exports.reloadHttpsTls = reloadHttpsTls;
exports.httpAddr = httpAddr;
const node_http_1 = __importDefault(require("node:http"));
const node_https_1 = __importDefault(require("node:https"));
const koa_1 = __importDefault(require("koa"));
const router_1 = __importDefault(require("@koa/router"));
const config_1 = require("../../src/config/config");
const log_1 = require("../../src/observability/log");
const admission_1 = require("./admission");
const auth_1 = require("./auth");
const body_1 = require("./body");
const errors_1 = require("./errors");
const queries_1 = require("./routes/queries");
const transactions_1 = require("./routes/transactions");
const updates_1 = require("./routes/updates");
const subscriptions_1 = require("./routes/subscriptions");
const backup_1 = require("./routes/backup");
const request_metrics_1 = require("./request-metrics");
const console_1 = require("./routes/console");
/**
 * The role each route needs when [api.auth] is on: writes need write, the admin routes admin,
 * everything else (reads, subscriptions, update streams, status) read. Open routes (health,
 * metrics) are the config's `api.auth.open_routes`.
 */
function routeRole(method, path) {
    if (path === '/v1/transactions')
        return 'write';
    if (path.startsWith('/v1/admin/'))
        return 'admin';
    return 'read';
}
/** The Koa app: request metrics, error mapping, then the routes; every route of the API is listed here. */
function createHttpApp(svc, opts) {
    const app = new koa_1.default();
    app.silent = true;
    app.on('error', (err, ctx) => {
        // A client that went away mid-stream is not a fault of the agent.
        if (CLIENT_GONE.has(err.code ?? ''))
            return;
        log_1.log.error({ ...(0, log_1.errorFields)(err), method: ctx?.method, path: ctx?.path }, 'HTTP request failed');
    });
    const router = new router_1.default();
    const json = (0, body_1.jsonBody)(opts.bodyLimit);
    router.post('/v1/queries', json, (0, queries_1.handleQuery)(svc.queries, opts.queryTimeoutSeconds));
    const admit = svc.admission ? (0, admission_1.admitWrites)(svc.admission) : (_ctx, next) => next();
    router.post('/v1/transactions', json, admit, (0, transactions_1.handleTransaction)(svc.transactions));
    // Empty POST: no body, no content type required.
    if (svc.updates)
        router.post('/v1/updates/:table', (0, updates_1.handleUpdates)(svc.updates, { maxBufferedBytes: opts.updateBufferBytes ?? 4 << 20 }));
    if (svc.subscriptions) {
        router.post('/v1/subscriptions', json, (0, subscriptions_1.handleSubscribe)(svc.subscriptions));
        router.get('/v1/subscriptions/:id', (0, subscriptions_1.handleResubscribe)(svc.subscriptions));
    }
    router.get('/v1/health', (ctx) => {
        ctx.body = svc.health();
    });
    router.post('/v1/admin/reload', async (ctx) => {
        ctx.body = await svc.reloadSchema();
    });
    if (svc.backup)
        router.post('/v1/admin/backup', json, (0, backup_1.handleBackup)(svc.backup));
    const metrics = svc.metrics;
    if (metrics) {
        router.get('/metrics', async (ctx) => {
            ctx.body = await metrics.text();
            ctx.set('content-type', metrics.contentType);
        });
    }
    svc.extraRoutes?.(router, json);
    // GET /console: the web console's page, script and style. They hold no data, and a browser cannot
    // send a token when it opens a page, so they come before the API's auth; everything the page shows
    // it asks the routes above for, with the token typed into it.
    const consolePage = (0, console_1.consoleRouter)();
    if (svc.metrics)
        app.use((0, request_metrics_1.requestMetrics)(svc.metrics));
    app.use(errors_1.errorBody);
    app.use(underConsole(consolePage.routes()));
    app.use(underConsole(consolePage.allowedMethods()));
    if (svc.authority)
        app.use((0, auth_1.bearerAuth)(svc.authority, routeRole));
    app.use(router.routes());
    app.use(router.allowedMethods());
    return app;
}
/**
 * The console's router only for paths under /console: it has no other routes, and matching every
 * API request against them (the router's own dispatch) cost a few µs of each request.
 */
// biome-ignore lint/suspicious/noExplicitAny: the router's own middleware type has its own state and context
function underConsole(router) {
    const mw = router;
    return (ctx, next) => (ctx.path === '/console' || ctx.path.startsWith('/console/') ? mw(ctx, next) : next());
}
/** Socket errors of a client that went away (not faults of the agent, never logged). */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ERR_STREAM_DESTROYED']);
/**
 * Stops the HTTP server: no new connections, idle ones closed at once, and streams (queries,
 * subscriptions), which would hold it open, ended after `graceMs`.
 */
function closeHttpServer(server, graceMs = 2000) {
    return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), graceMs).unref();
    });
}
/**
 * Starts the HTTP server (HTTPS with `tls`; client certificates required when it has a CA);
 * resolves with the server once it listens.
 */
function listenHttp(app, host, port, tls = null) {
    // https.Server has every method of http.Server the agent uses (close, closeIdleConnections, ...)
    // TCP keepalive: a peer gone without a FIN (cable pulled, VM paused) is found by the kernel's
    // probes after 10 s of silence (then tcp_keepalive_intvl x tcp_keepalive_probes; docs/operations.md).
    const keepAlive = { keepAlive: true, keepAliveInitialDelay: config_1.TCP_KEEPALIVE_IDLE_MS };
    const server = tls
        ? node_https_1.default.createServer({ ...httpsOptions(tls), ...keepAlive }, app.callback())
        : node_http_1.default.createServer(keepAlive, app.callback());
    server.keepAliveTimeout = 65_000;
    // A client that sends headers and then nothing must not hold a socket for ever.
    server.headersTimeout = 30_000;
    server.requestTimeout = 0; // streams stay open as long as the client reads
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
            server.off('error', reject);
            resolve(server);
        });
    });
}
/** HTTPS options from TLS material: a CA means clients must present a certificate it signed. */
function httpsOptions(tls) {
    return tls.ca
        ? { cert: tls.cert, key: tls.key, ca: tls.ca, requestCert: true, rejectUnauthorized: true }
        : { cert: tls.cert, key: tls.key };
}
/** A running HTTPS server takes new certificates for the connections that follow (`patina reload`). */
function reloadHttpsTls(server, tls) {
    server.setSecureContext(httpsOptions(tls));
}
/** Where the server listens (the real port when 0 was asked for); `asked` when it does not listen. */
function httpAddr(server, asked) {
    const a = server?.address();
    return a ? (0, config_1.formatAddr)({ host: a.address, port: a.port }) : (0, config_1.formatAddr)(asked);
}
//# sourceMappingURL=app.js.map