import type Koa from 'koa';
import { PatinaError } from '../../src/errors';
import { parseJsonExact } from '../../src/engine/json';

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
      throw Object.assign(new PatinaError('user', `content-type must be application/json, got ${type ? JSON.stringify(type) : 'none'}`), { status: 415 });
    }
    const declared = Number(ctx.get('content-length') || '0');
    if (declared > limit) throw new PatinaError('too-large', `request body of ${declared} bytes is over the limit of ${limit} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        ctx.set('connection', 'close');
        throw new PatinaError('too-large', `request body is over the limit of ${limit} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (text.trim() === '') throw new PatinaError('user', 'request body is empty; expected JSON');
    ctx.state.body = parseJsonExact(text, { integers: 'bigint' });
    await next();
  };
}

/** Reads and discards a body on routes that take none, so a keep-alive connection stays usable. */
export async function drainBody(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  for await (const _ of ctx.req) {
    // discard
  }
  await next();
}
