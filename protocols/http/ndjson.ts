import { Readable } from 'node:stream';
import type Koa from 'koa';
import { PatinaError } from '../../src/errors';

/** The response header that says a stream sends heartbeats, and every how many seconds. */
export const HEARTBEAT_HEADER = 'patina-heartbeat';
const HEARTBEAT = Symbol('heartbeat');

/**
 * `?heartbeat=S` on a stream: after S seconds (1 to 3600) without a line, the agent sends an empty
 * line, so a client can tell a quiet stream from a dead connection (a peer gone without a FIN).
 * Empty lines are not events; NDJSON readers skip them. Milliseconds, or undefined when not asked.
 */
export function heartbeatParam(ctx: Koa.Context): number | undefined {
  const h = ctx.query.heartbeat;
  if (h === undefined) return undefined;
  const s = Array.isArray(h) ? h[0] : h;
  if (!/^\d+$/.test(s) || Number(s) < 1 || Number(s) > 3600)
    throw new PatinaError('user', `heartbeat must be a number of seconds from 1 to 3600, got ${JSON.stringify(s)}`);
  ctx.set(HEARTBEAT_HEADER, s);
  return Number(s) * 1000;
}

/** The lines, with an empty line after each `ms` in which none came. */
export async function* withHeartbeat(lines: AsyncGenerator<string>, ms: number): AsyncGenerator<string> {
  let pending: Promise<IteratorResult<string>> | null = null;
  try {
    for (;;) {
      pending ??= lines.next();
      let timer: NodeJS.Timeout | undefined;
      const tick = new Promise<typeof HEARTBEAT>((resolve) => (timer = setTimeout(resolve, ms, HEARTBEAT)));
      const r = await Promise.race([pending, tick]);
      clearTimeout(timer);
      if (r === HEARTBEAT) {
        yield '\n';
        continue;
      }
      pending = null;
      if (r.done) return;
      yield r.value;
    }
  } finally {
    // Not awaited: a pending next() ends when the listener is closed (the response's 'close').
    void lines.return(undefined).catch(() => {});
  }
}

/** One NDJSON line of an event object with a single key. */
export function line(key: string, valueJson: string): string {
  return `{${JSON.stringify(key)}:${valueJson}}\n`;
}

export function errorLine(message: string): string {
  return line('error', JSON.stringify(message));
}

/**
 * Streams NDJSON lines from an async generator as the response body. The generator is pulled only
 * as fast as the client reads (backpressure), and is returned (its finally runs) when the client goes.
 * The status line and headers go out at once: a stream with nothing to say yet (a resume that missed
 * nothing) must not look like a request that hangs.
 */
export function streamNdjson(ctx: Koa.Context, lines: AsyncGenerator<string>, heartbeatMs?: number): void {
  ctx.status = 200;
  ctx.type = 'application/x-ndjson';
  ctx.set('cache-control', 'no-store');
  const source = heartbeatMs === undefined ? lines : withHeartbeat(lines, heartbeatMs);
  const body = Readable.from(source, { objectMode: false, highWaterMark: 64 * 1024 });
  ctx.body = body;
  ctx.res.flushHeaders();
}
