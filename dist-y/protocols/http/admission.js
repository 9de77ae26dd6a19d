"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.admitWrites = admitWrites;
/**
 * Backpressure for HTTP writes: holds a write while the agent is behind (live subscriptions not yet
 * matched), and refuses it with 503 and Retry-After when that lasts, instead of queueing without
 * bound. The connection is kept: the client gets an answer, never a reset.
 */
function admitWrites(admission) {
    return async (ctx, next) => {
        const refusal = await admission.admitWrite();
        if (refusal) {
            ctx.status = 503;
            ctx.set('retry-after', String(refusal.retryAfter));
            ctx.body = { error: refusal.reason };
            return;
        }
        await next();
    };
}
//# sourceMappingURL=admission.js.map