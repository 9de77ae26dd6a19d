"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.requestMetrics = requestMetrics;
const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);
/**
 * Counts and times every request by route pattern (not path: `/v1/updates/:table`, so labels stay
 * few) and final status. First in the chain, so it sees the status the error mapping chose. A
 * stream is timed to its start: the handler returns once the first lines are under way.
 */
function requestMetrics(obs) {
    return async (ctx, next) => {
        const t0 = performance.now();
        try {
            await next();
        }
        finally {
            const matched = ctx._matchedRoute;
            const route = typeof matched === 'string' ? matched : 'unmatched';
            obs.observeRequest(route, METHODS.has(ctx.method) ? ctx.method : 'other', ctx.status, (performance.now() - t0) / 1000);
        }
    };
}
//# sourceMappingURL=request-metrics.js.map