import fs from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import type Koa from 'koa';
import { PatinaError } from '../../../src/errors';
import { lookup } from '../../../src/lookup';

// Compiled to dist/protocols/http/routes/: the package root is four folders up.
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
/** The page, its script and style (shipped as they are, no build step). */
export const CONSOLE_DIR = path.join(ROOT, 'protocols', 'http', 'console');
/** The browser build of patina/client (`npm run build` writes it; no network needed). */
export const CLIENT_ESM_DIR = path.join(ROOT, 'dist', 'client-esm');

const TYPES: Record<string, string> = lookup({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
});

/** The files of a folder with these extensions, read once: only they can be served, so no path escapes. */
function readAssets(dir: string, exts: string[]): Map<string, { body: Buffer; type: string }> {
  const out = new Map<string, { body: Buffer; type: string }>();
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir)) {
    const ext = path.extname(name);
    if (exts.includes(ext)) out.set(name, { body: fs.readFileSync(path.join(dir, name)), type: TYPES[ext] });
  }
  return out;
}

/**
 * GET /console: the web console, a static page whose script talks to this same API through the
 * client library (so it goes through the API's auth with the token the user types). The page holds
 * no data; it and its assets come from this package, never from the network.
 */
export function consoleRouter(): Router {
  const router = new Router();
  const own = readAssets(CONSOLE_DIR, ['.html', '.js', '.css']);
  const client = readAssets(CLIENT_ESM_DIR, ['.js']);
  const send = (ctx: Koa.Context, asset: { body: Buffer; type: string } | undefined, what: string) => {
    if (!asset) throw new PatinaError('not-found', `no such console file: ${what}`);
    ctx.type = asset.type;
    ctx.set('cache-control', 'no-cache');
    // The page may load only its own files and talk only to this agent.
    ctx.set(
      'content-security-policy',
      "default-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    ctx.set('x-content-type-options', 'nosniff');
    ctx.body = asset.body;
  };
  router.get('/console', (ctx) => send(ctx, own.get('index.html'), 'index.html'));
  router.get('/console/:file', (ctx) =>
    send(ctx, ctx.params.file === 'index.html' ? undefined : own.get(ctx.params.file), ctx.params.file),
  );
  router.get('/console/client/:file', (ctx) => {
    if (client.size === 0)
      throw new PatinaError(
        'unavailable',
        `the console's client library is not built (${CLIENT_ESM_DIR} is missing); run npm run build`,
      );
    send(ctx, client.get(ctx.params.file), `client/${ctx.params.file}`);
  });
  return router;
}
