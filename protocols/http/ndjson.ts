import { Readable } from 'node:stream';
import type Koa from 'koa';

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
export function streamNdjson(ctx: Koa.Context, lines: AsyncGenerator<string>): void {
  ctx.status = 200;
  ctx.type = 'application/x-ndjson';
  ctx.set('cache-control', 'no-store');
  const body = Readable.from(lines, { objectMode: false, highWaterMark: 64 * 1024 });
  ctx.body = body;
  ctx.res.flushHeaders();
}
