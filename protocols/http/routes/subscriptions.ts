import type Koa from 'koa';
import { PatinaError } from '../../../src/errors';
import type { SqlParams } from '../../../src/engine/values';
import { heartbeatParam, streamNdjson } from '../ndjson';
import { parseStatement } from '../statements';

/** A listener's NDJSON lines; close() ends it when the client goes away. */
export interface SubscriptionListener {
  lines: AsyncGenerator<string>;
  close(): void;
  /** Registers what to do once the stream is cut off with an error line. */
  onCut?(fn: () => void): void;
}

/** How long a cut-off client has to read its error line before its socket is closed. */
const CUT_GRACE_MS = 5000;

/** What the subscription routes need from the live queries. */
export interface SubscriptionService {
  /** The query id of an existing subscription of this SQL and these parameters. */
  find(sql: string, params: SqlParams | undefined): { uuid: string } | undefined;
  /** Finds or creates one; refuses (user errors) what cannot be subscribed to. */
  subscribe(sql: string, params: SqlParams | undefined): Promise<{ uuid: string }>;
  /** A new listener of a subscription (rows or changes after `from`), or undefined for an unknown id. */
  listen(uuid: string, from: number | undefined): SubscriptionListener | undefined;
}

export const QUERY_ID_HEADER = 'patina-query-id';

/** Reads `?from=N`: a change id, a non-negative integer. */
function fromParam(ctx: Koa.Context): number | undefined {
  const f = ctx.query.from;
  if (f === undefined) return undefined;
  const s = Array.isArray(f) ? f[0] : f;
  if (!/^\d+$/.test(s) || !Number.isSafeInteger(Number(s)))
    throw new PatinaError('user', `from must be a change id (a non-negative integer), got ${JSON.stringify(s)}`);
  return Number(s);
}

function stream(ctx: Koa.Context, uuid: string, listener: SubscriptionListener, heartbeatMs?: number): void {
  ctx.set(QUERY_ID_HEADER, uuid);
  ctx.res.on('close', () => listener.close());
  // A client that stopped reading never lets the error line through: close its socket after a grace.
  listener.onCut?.(() => {
    setTimeout(() => {
      if (!ctx.res.writableFinished) ctx.res.destroy();
    }, CUT_GRACE_MS).unref();
  });
  streamNdjson(ctx, listener.lines, heartbeatMs);
}

/**
 * POST /v1/subscriptions: subscribes to a SELECT (a SQL string or [sql, params]) and streams its
 * rows, eoq, then its changes. The same SQL and parameters share one subscription and query id.
 * With `?from=N` it resumes an existing subscription as GET does; for none, a 400.
 */
export function handleSubscribe(svc: SubscriptionService): Koa.Middleware {
  return async (ctx) => {
    const st = parseStatement(ctx.state.body, 'subscription');
    const from = fromParam(ctx);
    const heartbeat = heartbeatParam(ctx);
    let uuid: string;
    if (from !== undefined) {
      const found = svc.find(st.sql, st.params);
      if (!found)
        throw new PatinaError(
          'user',
          `no subscription exists for this SQL and parameters, so there is nothing to resume from change id ${from}; subscribe without from first`,
        );
      uuid = found.uuid;
    } else {
      uuid = (await svc.subscribe(st.sql, st.params)).uuid;
    }
    const listener = svc.listen(uuid, from);
    if (!listener) throw new PatinaError('not-found', `subscription ${uuid} was removed`);
    stream(ctx, uuid, listener, heartbeat);
  };
}

/** GET /v1/subscriptions/{id}: attaches to an existing subscription by its query id. */
export function handleResubscribe(svc: SubscriptionService): Koa.Middleware {
  return async (ctx) => {
    const uuid = String(ctx.params.id);
    const from = fromParam(ctx);
    const heartbeat = heartbeatParam(ctx);
    const listener = svc.listen(uuid, from);
    if (!listener)
      throw new PatinaError(
        'not-found',
        `no subscription with query id ${uuid}; it may have been removed after nobody listened to it; subscribe again with POST /v1/subscriptions`,
      );
    stream(ctx, uuid, listener, heartbeat);
  };
}
