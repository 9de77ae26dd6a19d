import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import type { Role } from '../../src/auth/roles';
import type { TlsMaterial } from '../../src/auth/tls-material';
import { type Addr, TCP_KEEPALIVE_IDLE_MS, formatAddr } from '../../src/config/config';
import { errorFields, log } from '../../src/observability/log';
import { type WriteAdmission, admitWrites } from './admission';
import { type HttpAuthority, bearerAuth } from './auth';
import { jsonBody } from './body';
import { errorBody } from './errors';
import { type QueryService, handleQuery } from './routes/queries';
import { type TransactionService, handleTransaction } from './routes/transactions';
import { type UpdateService, handleUpdates } from './routes/updates';
import { type SubscriptionService, handleResubscribe, handleSubscribe } from './routes/subscriptions';
import { type BackupService, handleBackup } from './routes/backup';
import { type RequestObserver, requestMetrics } from './request-metrics';
import { consoleRouter } from './routes/console';

/** Everything the HTTP front end needs from the rest of the agent: narrow interfaces, no more. */
export interface HttpServices {
  queries: QueryService;
  transactions: TransactionService;
  /** Table update streams (POST /v1/updates/{table}). */
  updates?: UpdateService;
  /** Live queries (POST /v1/subscriptions, GET /v1/subscriptions/{id}). */
  subscriptions?: SubscriptionService;
  /** Backpressure on writes (held, then 503 with Retry-After, while live subscriptions are behind). */
  admission?: WriteAdmission;
  /** The status shown by GET /v1/health. */
  health(): Record<string, unknown>;
  /** Re-reads the schema files (POST /v1/admin/reload, used by `patina reload`). */
  reloadSchema(): Promise<Record<string, unknown>>;
  /** The metrics registry: records each request, and serves GET /metrics. */
  metrics?: RequestObserver & { contentType: string; text(): Promise<string> };
  /** Online backup (POST /v1/admin/backup, used by `patina backup`). */
  backup?: BackupService;
  /** Routes of optional parts of the agent (replication's cluster and sync status), given the router. */
  extraRoutes?: (router: Router, json: Koa.Middleware) => void;
  /** Who a bearer token is; absent: every request is allowed. */
  authority?: HttpAuthority;
}

/**
 * The role each route needs when [api.auth] is on: writes need write, the admin routes admin,
 * everything else (reads, subscriptions, update streams, status) read. Open routes (health,
 * metrics) are the config's `api.auth.open_routes`.
 */
export function routeRole(method: string, path: string): Role {
  if (path === '/v1/transactions') return 'write';
  if (path.startsWith('/v1/admin/')) return 'admin';
  return 'read';
}

export interface HttpOptions {
  bodyLimit: number;
  queryTimeoutSeconds: number;
  /** Bytes an update-stream client may leave unread before it is cut off (default 4 MiB). */
  updateBufferBytes?: number;
}

/** The Koa app: request metrics, error mapping, then the routes; every route of the API is listed here. */
export function createHttpApp(svc: HttpServices, opts: HttpOptions): Koa {
  const app = new Koa();
  app.silent = true;
  app.on('error', (err, ctx) => {
    // A client that went away mid-stream is not a fault of the agent.
    if (CLIENT_GONE.has((err as { code?: string }).code ?? '')) return;
    log.error({ ...errorFields(err), method: ctx?.method, path: ctx?.path }, 'HTTP request failed');
  });
  const router = new Router();
  const json = jsonBody(opts.bodyLimit);

  router.post('/v1/queries', json, handleQuery(svc.queries, opts.queryTimeoutSeconds));
  const admit: Koa.Middleware = svc.admission ? admitWrites(svc.admission) : (_ctx, next) => next();
  router.post('/v1/transactions', json, admit, handleTransaction(svc.transactions));
  // Empty POST: no body, no content type required.
  if (svc.updates)
    router.post(
      '/v1/updates/:table',
      handleUpdates(svc.updates, { maxBufferedBytes: opts.updateBufferBytes ?? 4 << 20 }),
    );
  if (svc.subscriptions) {
    router.post('/v1/subscriptions', json, handleSubscribe(svc.subscriptions));
    router.get('/v1/subscriptions/:id', handleResubscribe(svc.subscriptions));
  }
  router.get('/v1/health', (ctx) => {
    ctx.body = svc.health();
  });
  router.post('/v1/admin/reload', async (ctx) => {
    ctx.body = await svc.reloadSchema();
  });
  if (svc.backup) router.post('/v1/admin/backup', json, handleBackup(svc.backup));
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
  const consolePage = consoleRouter();

  if (svc.metrics) app.use(requestMetrics(svc.metrics));
  app.use(errorBody);
  app.use(underConsole(consolePage.routes()));
  app.use(underConsole(consolePage.allowedMethods()));
  if (svc.authority) app.use(bearerAuth(svc.authority, routeRole));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/**
 * The console's router only for paths under /console: it has no other routes, and matching every
 * API request against them (the router's own dispatch) cost a few µs of each request.
 */
// biome-ignore lint/suspicious/noExplicitAny: the router's own middleware type has its own state and context
function underConsole(router: Koa.Middleware<any, any>): Koa.Middleware {
  const mw = router as Koa.Middleware;
  return (ctx, next) => (ctx.path === '/console' || ctx.path.startsWith('/console/') ? mw(ctx, next) : next());
}

/** Socket errors of a client that went away (not faults of the agent, never logged). */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ERR_STREAM_DESTROYED']);

/**
 * Stops the HTTP server: no new connections, idle ones closed at once, and streams (queries,
 * subscriptions), which would hold it open, ended after `graceMs`.
 */
export function closeHttpServer(server: http.Server, graceMs = 2000): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), graceMs).unref();
  });
}

/**
 * Starts the HTTP server (HTTPS with `tls`; client certificates required when it has a CA);
 * resolves with the server once it listens.
 */
export function listenHttp(app: Koa, host: string, port: number, tls: TlsMaterial | null = null): Promise<http.Server> {
  // https.Server has every method of http.Server the agent uses (close, closeIdleConnections, ...)
  // TCP keepalive: a peer gone without a FIN (cable pulled, VM paused) is found by the kernel's
  // probes after 10 s of silence (then tcp_keepalive_intvl x tcp_keepalive_probes; docs/operations.md).
  const keepAlive = { keepAlive: true, keepAliveInitialDelay: TCP_KEEPALIVE_IDLE_MS };
  const server = tls
    ? (https.createServer({ ...httpsOptions(tls), ...keepAlive }, app.callback()) as unknown as http.Server)
    : http.createServer(keepAlive, app.callback());
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
export function httpsOptions(tls: TlsMaterial): https.ServerOptions {
  return tls.ca
    ? { cert: tls.cert, key: tls.key, ca: tls.ca, requestCert: true, rejectUnauthorized: true }
    : { cert: tls.cert, key: tls.key };
}

/** A running HTTPS server takes new certificates for the connections that follow (`patina reload`). */
export function reloadHttpsTls(server: http.Server, tls: TlsMaterial): void {
  (server as unknown as https.Server).setSecureContext(httpsOptions(tls));
}

/** Where the server listens (the real port when 0 was asked for); `asked` when it does not listen. */
export function httpAddr(server: http.Server | null, asked: Addr): string {
  const a = server?.address() as AddressInfo | null | undefined;
  return a ? formatAddr({ host: a.address, port: a.port }) : formatAddr(asked);
}
