"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.jsonBody = jsonBody;
exports.drainBody = drainBody;
const errors_1 = require("../../src/errors");
const json_1 = require("../../src/engine/json");
/**
 * Reads a JSON body for the routes that take one: refuses a content type other than
 * application/json (415) and a body over the limit (413), and parses keeping 64-bit integers exact.
 * The parsed body is in ctx.state.body; every integer in it (no fraction, no exponent) is a bigint
 * and every other number a JS number, which is how SQL parameters tell INTEGER from REAL.
 */
function jsonBody(limit) {
    return async (ctx, next) => {
        const type = ctx.get('content-type').split(';')[0].trim().toLowerCase();
        if (type !== 'application/json') {
            throw Object.assign(new errors_1.PatinaError('user', `content-type must be application/json, got ${type ? JSON.stringify(type) : 'none'}`), { status: 415 });
        }
        const declared = Number(ctx.get('content-length') || '0');
        if (declared > limit)
            throw new errors_1.PatinaError('too-large', `request body of ${declared} bytes is over the limit of ${limit} bytes`);
        const text = await readText(ctx, limit);
        if (text.trim() === '')
            throw new errors_1.PatinaError('user', 'request body is empty; expected JSON');
        ctx.state.body = (0, json_1.parseJsonExact)(text, { integers: 'bigint' });
        await next();
    };
}
/** The request body as text, refused (413, connection closed) once it passes `limit` bytes. */
function readText(ctx, limit) {
    // Events, not `for await`: an async iterator per request costs more than the small body it reads.
    return new Promise((resolve, reject) => {
        const req = ctx.req;
        const chunks = [];
        let size = 0;
        const onData = (chunk) => {
            size += chunk.length;
            if (size > limit) {
                cleanup();
                req.resume(); // keep reading (and discarding) so that the 413 can be written
                ctx.set('connection', 'close');
                reject(new errors_1.PatinaError('too-large', `request body is over the limit of ${limit} bytes`));
                return;
            }
            chunks.push(chunk);
        };
        const onEnd = () => {
            cleanup();
            resolve(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'));
        };
        const onError = (err) => {
            cleanup();
            reject(err);
        };
        const onAborted = () => onError(new errors_1.PatinaError('user', 'the client closed the connection before the request body ended'));
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
async function drainBody(ctx, next) {
    for await (const _ of ctx.req) {
        // discard
    }
    await next();
}
//# sourceMappingURL=body.js.map