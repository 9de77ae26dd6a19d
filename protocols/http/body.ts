import type Koa from 'koa';
import { PatinaError } from '../../src/errors';
import { parseJsonExact } from '../../src/engine/json';
import { firstBadUtf8 } from '../../src/engine/utf8';

/**
 * Reads a JSON body for the routes that take one: refuses a content type other than
 * application/json (415) and a body over the limit (413), and parses keeping 64-bit integers exact.
 * The parsed body is in ctx.state.body; every integer in it (no fraction, no exponent) is a bigint
 * and every other number a JS number, which is how SQL parameters tell INTEGER from REAL.
 */
export function jsonBody(limit: number): Koa.Middleware {
  return async (ctx, next) => {
    const type = ctx.get('content-type').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') {
      throw Object.assign(
        new PatinaError('user', `content-type must be application/json, got ${type ? JSON.stringify(type) : 'none'}`),
        { status: 415 },
      );
    }
    const declared = Number(ctx.get('content-length') || '0');
    if (declared > limit)
      throw new PatinaError('too-large', `request body of ${declared} bytes is over the limit of ${limit} bytes`);
    const text = await readText(ctx, limit);
    if (text.trim() === '') throw new PatinaError('user', 'request body is empty; expected JSON');
    ctx.state.body = parseJsonExact(text, { integers: 'bigint' });
    await next();
  };
}

/** The request body as text, refused (413, connection closed) once it passes `limit` bytes. */
function readText(ctx: Koa.Context, limit: number): Promise<string> {
  // Events, not `for await`: an async iterator per request costs more than the small body it reads.
  return new Promise((resolve, reject) => {
    const req = ctx.req;
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.resume(); // keep reading (and discarding) so that the 413 can be written
        ctx.set('connection', 'close');
        reject(new PatinaError('too-large', `request body is over the limit of ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      // JSON is UTF-8: other bytes are refused by name (they were decoded to U+FFFD and stored so)
      const bad = firstBadUtf8(body);
      if (bad)
        reject(
          new PatinaError('user', `request body is not UTF-8: invalid byte sequence ${bad.bytes} at byte ${bad.at}`),
        );
      else resolve(body.toString('utf8'));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onAborted = () =>
      onError(new PatinaError('user', 'the client closed the connection before the request body ended'));
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/** Reads and discards a body on routes that take none, so a keep-alive connection stays usable. */
export async function drainBody(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  for await (const _ of ctx.req) {
    // discard
  }
  await next();
}
