import http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { jsonBody } from './body';
import { errorBody } from './errors';
import { type QueryService, handleQuery } from './routes/queries';
import { type TransactionService, handleTransaction } from './routes/transactions';
import { type UpdateService, handleUpdates } from './routes/updates';
import { type SubscriptionService, handleResubscribe, handleSubscribe } from './routes/subscriptions';
import { consoleRouter } from './routes/console';

/** Everything the HTTP front end needs from the rest of the agent: narrow interfaces, no more. */
export interface HttpServices {
  queries: QueryService;
  transactions: TransactionService;
  /** Table update streams (POST /v1/updates/{table}). */
  updates?: UpdateService;
  /** Live queries (POST /v1/subscriptions, GET /v1/subscriptions/{id}). */
  subscriptions?: SubscriptionService;
  /** The status shown by GET /v1/health. */
  health(): Record<string, unknown>;
  /** Re-reads the schema files (POST /v1/admin/reload, used by `patina reload`). */
  reloadSchema(): Promise<Record<string, unknown>>;
  /** Routes of optional parts of the agent (replication's cluster and sync status), given the router. */
  extraRoutes?: (router: Router, json: Koa.Middleware) => void;
}

export interface HttpOptions {
  bodyLimit: number;
  queryTimeoutSeconds: number;
  /** Bytes an update-stream client may leave unread before it is cut off (default 4 MiB). */
  updateBufferBytes?: number;
}

/** The Koa app: error mapping, then the routes; every route of the API is listed here. */
export function createHttpApp(svc: HttpServices, opts: HttpOptions): Koa {
  const app = new Koa();
  app.silent = true;
  const router = new Router();
  const json = jsonBody(opts.bodyLimit);

  router.post('/v1/queries', json, handleQuery(svc.queries, opts.queryTimeoutSeconds));
  router.post('/v1/transactions', json, handleTransaction(svc.transactions));
  // Empty POST: no body, no content type required.
  if (svc.updates) router.post('/v1/updates/:table', handleUpdates(svc.updates, { maxBufferedBytes: opts.updateBufferBytes ?? 4 << 20 }));
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
  svc.extraRoutes?.(router, json);
  // GET /console: the web console's page, script and style. They hold no data, and a browser cannot
  // send a token when it opens a page, so they come before the API's auth; everything the page shows
  // it asks the routes above for, with the token typed into it.
  const consolePage = consoleRouter();

  app.use(errorBody);
  app.use(consolePage.routes());
  app.use(consolePage.allowedMethods());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** Starts the HTTP server; resolves with the address it listens on. */
export function listenHttp(app: Koa, host: string, port: number): Promise<http.Server> {
  const server = http.createServer(app.callback());
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
