"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.CLIENT_ESM_DIR = exports.CONSOLE_DIR = void 0;
exports.consoleRouter = consoleRouter;
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const router_1 = __importDefault(require("@koa/router"));
const errors_1 = require("../../../src/errors");
// Compiled to dist/protocols/http/routes/: the package root is four folders up.
const ROOT = node_path_1.default.resolve(__dirname, '..', '..', '..', '..');
/** The page, its script and style (shipped as they are, no build step). */
exports.CONSOLE_DIR = node_path_1.default.join(ROOT, 'protocols', 'http', 'console');
/** The browser build of patina/client (`npm run build` writes it; no network needed). */
exports.CLIENT_ESM_DIR = node_path_1.default.join(ROOT, 'dist', 'client-esm');
const TYPES = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.css': 'text/css; charset=utf-8',
};
/** The files of a folder with these extensions, read once: only they can be served, so no path escapes. */
function readAssets(dir, exts) {
    const out = new Map();
    if (!node_fs_1.default.existsSync(dir))
        return out;
    for (const name of node_fs_1.default.readdirSync(dir)) {
        const ext = node_path_1.default.extname(name);
        if (exts.includes(ext))
            out.set(name, { body: node_fs_1.default.readFileSync(node_path_1.default.join(dir, name)), type: TYPES[ext] });
    }
    return out;
}
/**
 * GET /console: the web console, a static page whose script talks to this same API through the
 * client library (so it goes through the API's auth with the token the user types). The page holds
 * no data; it and its assets come from this package, never from the network.
 */
function consoleRouter() {
    const router = new router_1.default();
    const own = readAssets(exports.CONSOLE_DIR, ['.html', '.js', '.css']);
    const client = readAssets(exports.CLIENT_ESM_DIR, ['.js']);
    const send = (ctx, asset, what) => {
        if (!asset)
            throw new errors_1.PatinaError('not-found', `no such console file: ${what}`);
        ctx.type = asset.type;
        ctx.set('cache-control', 'no-cache');
        // The page may load only its own files and talk only to this agent.
        ctx.set('content-security-policy', "default-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
        ctx.set('x-content-type-options', 'nosniff');
        ctx.body = asset.body;
    };
    router.get('/console', (ctx) => send(ctx, own.get('index.html'), 'index.html'));
    router.get('/console/:file', (ctx) => send(ctx, ctx.params.file === 'index.html' ? undefined : own.get(ctx.params.file), ctx.params.file));
    router.get('/console/client/:file', (ctx) => {
        if (client.size === 0)
            throw new errors_1.PatinaError('unavailable', `the console's client library is not built (${exports.CLIENT_ESM_DIR} is missing); run npm run build`);
        send(ctx, client.get(ctx.params.file), `client/${ctx.params.file}`);
    });
    return router;
}
//# sourceMappingURL=console.js.map