import type Koa from 'koa';

/** Where the HTTP front end reports each request (the metrics registry). */
export interface RequestObserver {
  observeRequest(route: string, method: string, status: number, seconds: number): void;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);

/**
 * Counts and times every request by route pattern (not path: `/v1/updates/:table`, so labels stay
 * few) and final status. First in the chain, so it sees the status the error mapping chose. A
 * stream is timed to its start: the handler returns once the first lines are under way.
 */
export function requestMetrics(obs: RequestObserver): Koa.Middleware {
  return async (ctx, next) => {
    const t0 = performance.now();
    try {
      await next();
    } finally {
      const matched = (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute;
      const route = typeof matched === 'string' ? matched : 'unmatched';
      obs.observeRequest(
        route,
        METHODS.has(ctx.method) ? ctx.method : 'other',
        ctx.status,
        (performance.now() - t0) / 1000,
      );
    }
  };
}
