import type Koa from 'koa';
import { type ErrorKind, PatinaError } from '../../src/errors';
import { InternalError, internalError } from '../../src/observability/internal-error';

/** HTTP status of each error kind: the one table of this front end. */
export const STATUS: Record<ErrorKind, number> = {
  user: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  timeout: 408,
  unavailable: 503,
  internal: 500,
};

/** Turns whatever a handler threw into a JSON `{"error": ...}` body with the fitting status. */
export async function errorBody(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { error: `no such route: ${ctx.method} ${ctx.path}` };
    } else if (ctx.status === 405 && (ctx.body === undefined || typeof ctx.body === 'string')) {
      ctx.status = 405;
      ctx.body = { error: `method ${ctx.method} is not allowed on ${ctx.path}` };
    }
  } catch (err) {
    let e = err instanceof PatinaError ? err : toPatinaError(err);
    // An internal fault's own message stays in the log; the client gets the id the log line carries.
    if (e.kind === 'internal' && !(e instanceof InternalError))
      e = internalError(err, `HTTP ${ctx.method} ${ctx.path}`);
    // A few refusals are specific to HTTP (415 for a wrong content type) and carry their own status.
    const own = (err as { status?: unknown }).status;
    ctx.status = err instanceof PatinaError && typeof own === 'number' ? own : STATUS[e.kind];
    ctx.body = { error: e.message };
  }
}

function toPatinaError(err: unknown): PatinaError {
  const e = err as { status?: number; expose?: boolean; message?: string };
  if (typeof e?.status === 'number' && e.status < 500) {
    const kind: ErrorKind = e.status === 404 ? 'not-found' : e.status === 413 ? 'too-large' : 'user';
    return new PatinaError(kind, e.message ?? 'bad request');
  }
  return new PatinaError('internal', e?.message ?? String(err));
}
