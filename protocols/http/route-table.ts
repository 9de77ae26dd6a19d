import type Koa from 'koa';
import compose from 'koa-compose';

/** Methods a route table knows; another method on a known path is 501 (as @koa/router answered). */
const KNOWN_METHODS = ['HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'POST', 'DELETE'];

interface Route {
  /** The pattern as registered (`/v1/updates/:table`): the route's name in metrics. */
  pattern: string;
  methods: string[];
  run: Koa.Middleware;
}

/** One path, or one pattern with `:name` segments, and the routes of each method on it. */
interface Path {
  regexp: RegExp | null;
  names: string[];
  routes: Route[];
}

/**
 * The HTTP routes: exact paths and patterns with `:name` segments (one path segment each,
 * URL-decoded), matched without regard to case and with an optional trailing slash; a GET route
 * answers HEAD too. It replaces @koa/router, which composed a new middleware chain (and copied
 * arrays) on every request and matched every route's regexp: about 5 µs of a one-row HTTP write.
 * Each route's middleware is composed once, when it is registered.
 */
export class RouteTable {
  /** Exact paths by their lower-case form without a trailing slash. */
  readonly #exact = new Map<string, Path>();
  /** Paths with parameters, tried in the order they were registered. */
  readonly #patterns: Path[] = [];
  /** The methods a path allows, left on the context when the path matched but its method did not. */
  readonly #allowed = Symbol('allowed methods');

  get(pattern: string, ...mw: Koa.Middleware[]): this {
    return this.#add(pattern, ['HEAD', 'GET'], mw);
  }

  post(pattern: string, ...mw: Koa.Middleware[]): this {
    return this.#add(pattern, ['POST'], mw);
  }

  #add(pattern: string, methods: string[], mw: Koa.Middleware[]): this {
    const names: string[] = [];
    const source = pattern
      .replace(/\/$/, '')
      .split('/')
      .map((seg) => {
        if (!seg.startsWith(':')) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(seg.slice(1));
        return '([^/]+)';
      })
      .join('/');
    const regexp = names.length === 0 ? null : new RegExp(`^${source}/?$`, 'i');
    let path = regexp ? this.#patterns.find((p) => p.regexp!.source === regexp.source) : this.#exact.get(normalize(pattern));
    if (!path) {
      path = { regexp, names, routes: [] };
      if (regexp) this.#patterns.push(path);
      else this.#exact.set(normalize(pattern), path);
    }
    path.routes.push({ pattern, methods, run: compose(mw) });
    return this;
  }

  /** The path a request names, with its parameters; null when no route has it. */
  #find(requestPath: string): { path: Path; params: Record<string, string> } | null {
    const exact = this.#exact.get(normalize(requestPath));
    if (exact) return { path: exact, params: {} };
    for (const p of this.#patterns) {
      const m = p.regexp!.exec(requestPath);
      if (!m) continue;
      const params: Record<string, string> = {};
      p.names.forEach((n, i) => (params[n] = decode(m[i + 1])));
      return { path: p, params };
    }
    return null;
  }

  /** Runs the route of the request's path and method; leaves other requests to the rest of the chain. */
  routes(): Koa.Middleware {
    return (ctx, next) => {
      const found = this.#find(ctx.path);
      if (!found) return next();
      const route = found.path.routes.find((r) => r.methods.includes(ctx.method));
      if (!route) {
        (ctx as unknown as Record<symbol, string[]>)[this.#allowed] = found.path.routes.flatMap((r) => r.methods);
        return next();
      }
      ctx.params = found.params;
      (ctx as unknown as { _matchedRoute: string })._matchedRoute = route.pattern;
      return route.run(ctx, next);
    };
  }

  /**
   * For a known path asked with a method it lacks: OPTIONS is 200 with `Allow`, a method the table
   * does not know 501, any other 405, each with `Allow` (errors.ts writes the JSON error).
   */
  allowedMethods(): Koa.Middleware {
    return async (ctx, next) => {
      await next();
      const allowed = (ctx as unknown as Record<symbol, string[] | undefined>)[this.#allowed];
      if (!allowed || (ctx.status && ctx.status !== 404)) return;
      ctx.set('Allow', allowed.join(', '));
      if (!KNOWN_METHODS.includes(ctx.method)) ctx.status = 501;
      else if (ctx.method === 'OPTIONS') {
        ctx.status = 200;
        ctx.body = '';
      } else ctx.status = 405;
    };
  }
}

function normalize(path: string): string {
  const p = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return p.toLowerCase();
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
