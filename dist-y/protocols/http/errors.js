"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.STATUS = void 0;
exports.errorBody = errorBody;
const errors_1 = require("../../src/errors");
const internal_error_1 = require("../../src/observability/internal-error");
/** HTTP status of each error kind: the one table of this front end. */
exports.STATUS = {
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
async function errorBody(ctx, next) {
    try {
        await next();
        if (ctx.status === 404 && ctx.body === undefined) {
            ctx.status = 404;
            ctx.body = { error: `no such route: ${ctx.method} ${ctx.path}` };
        }
        else if (ctx.status === 405 && (ctx.body === undefined || typeof ctx.body === 'string')) {
            ctx.status = 405;
            ctx.body = { error: `method ${ctx.method} is not allowed on ${ctx.path}` };
        }
    }
    catch (err) {
        let e = err instanceof errors_1.PatinaError ? err : toPatinaError(err);
        // An internal fault's own message stays in the log; the client gets the id the log line carries.
        if (e.kind === 'internal' && !(e instanceof internal_error_1.InternalError))
            e = (0, internal_error_1.internalError)(err, `HTTP ${ctx.method} ${ctx.path}`);
        // A few refusals are specific to HTTP (415 for a wrong content type) and carry their own status.
        const own = err.status;
        ctx.status = err instanceof errors_1.PatinaError && typeof own === 'number' ? own : exports.STATUS[e.kind];
        ctx.body = { error: e.message };
    }
}
function toPatinaError(err) {
    const e = err;
    if (typeof e?.status === 'number' && e.status < 500) {
        const kind = e.status === 404 ? 'not-found' : e.status === 413 ? 'too-large' : 'user';
        return new errors_1.PatinaError(kind, e.message ?? 'bad request');
    }
    return new errors_1.PatinaError('internal', e?.message ?? String(err));
}
//# sourceMappingURL=errors.js.map