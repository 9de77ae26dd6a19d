import type Koa from 'koa';
import { PatinaError } from '../../../src/errors';
import type { ReadCursor, ReadRequest } from '../../../src/engine/read-pool';
import { clientMessage } from '../../../src/observability/internal-error';
import { errorLine, line, streamNdjson } from '../ndjson';
import { parseStatement } from '../statements';

/** What POST /v1/queries needs from the engine. */
export interface QueryService {
  read(req: ReadRequest): ReadCursor;
}

/** Reads `?timeout=SECONDS`; falls back to the configured default. */
export function timeoutMs(ctx: Koa.Context, defaultSeconds: number): number {
  const t = ctx.query.timeout;
  if (t === undefined) return defaultSeconds * 1000;
  const n = Number(Array.isArray(t) ? t[0] : t);
  if (!Number.isFinite(n) || n <= 0)
    throw new PatinaError('user', `timeout must be a positive number of seconds, got ${JSON.stringify(t)}`);
  return n * 1000;
}

/**
 * POST /v1/queries: one read statement; NDJSON columns, rows as they are read, eoq with the time
 * the query took. SQL errors before the first row are a 400; later ones an error line.
 */
export function handleQuery(svc: QueryService, defaultTimeoutSeconds: number): Koa.Middleware {
  return async (ctx) => {
    const st = parseStatement(ctx.state.body, 'query');
    const cursor = svc.read({
      sql: st.sql,
      params: st.params,
      format: 'ndjson',
      timeoutMs: timeoutMs(ctx, defaultTimeoutSeconds),
    });
    // Listen before the head arrives: a client that leaves during a long first step frees the worker.
    // The response's 'close' (not the request's, which closes once its body is read) means the client went.
    ctx.res.once('close', () => cursor.cancel('the client went away'));
    let head;
    try {
      head = await cursor.head();
    } catch (err) {
      cursor.cancel();
      throw err;
    }
    const complete = cursor.takeComplete();
    if (complete) {
      // The whole result is here already (point reads): one string, no stream machinery.
      ctx.type = 'application/x-ndjson';
      ctx.set('cache-control', 'no-store');
      ctx.body =
        line('columns', JSON.stringify(head.columns.map((c) => c.name))) +
        complete.map((b) => b.text!).join('') +
        line('eoq', `{"time":${head.time}}`);
      return;
    }
    streamNdjson(
      ctx,
      (async function* () {
        try {
          yield line('columns', JSON.stringify(head.columns.map((c) => c.name)));
          for await (const batch of cursor) yield batch.text!;
          yield line('eoq', `{"time":${head.time}}`);
        } catch (err) {
          yield errorLine(clientMessage(err, 'HTTP POST /v1/queries'));
        } finally {
          cursor.cancel('the client went away');
        }
      })(),
    );
  };
}
