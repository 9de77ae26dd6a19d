"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.QUERY_ID_HEADER = void 0;
exports.handleSubscribe = handleSubscribe;
exports.handleResubscribe = handleResubscribe;
const errors_1 = require("../../../src/errors");
const ndjson_1 = require("../ndjson");
const statements_1 = require("../statements");
/** How long a cut-off client has to read its error line before its socket is closed. */
const CUT_GRACE_MS = 5000;
exports.QUERY_ID_HEADER = 'patina-query-id';
/** Reads `?from=N`: a change id, a non-negative integer. */
function fromParam(ctx) {
    const f = ctx.query.from;
    if (f === undefined)
        return undefined;
    const s = Array.isArray(f) ? f[0] : f;
    if (!/^\d+$/.test(s) || !Number.isSafeInteger(Number(s)))
        throw new errors_1.PatinaError('user', `from must be a change id (a non-negative integer), got ${JSON.stringify(s)}`);
    return Number(s);
}
function stream(ctx, uuid, listener, heartbeatMs) {
    ctx.set(exports.QUERY_ID_HEADER, uuid);
    ctx.res.on('close', () => listener.close());
    // A client that stopped reading never lets the error line through: close its socket after a grace.
    listener.onCut?.(() => {
        setTimeout(() => {
            if (!ctx.res.writableFinished)
                ctx.res.destroy();
        }, CUT_GRACE_MS).unref();
    });
    (0, ndjson_1.streamNdjson)(ctx, listener.lines, heartbeatMs);
}
/**
 * POST /v1/subscriptions: subscribes to a SELECT (a SQL string or [sql, params]) and streams its
 * rows, eoq, then its changes. The same SQL and parameters share one subscription and query id.
 * With `?from=N` it resumes an existing subscription as GET does; for none, a 400.
 */
function handleSubscribe(svc) {
    return async (ctx) => {
        const st = (0, statements_1.parseStatement)(ctx.state.body, 'subscription');
        const from = fromParam(ctx);
        const heartbeat = (0, ndjson_1.heartbeatParam)(ctx);
        let uuid;
        if (from !== undefined) {
            const found = svc.find(st.sql, st.params);
            if (!found)
                throw new errors_1.PatinaError('user', `no subscription exists for this SQL and parameters, so there is nothing to resume from change id ${from}; subscribe without from first`);
            uuid = found.uuid;
        }
        else {
            uuid = (await svc.subscribe(st.sql, st.params)).uuid;
        }
        const listener = svc.listen(uuid, from);
        if (!listener)
            throw new errors_1.PatinaError('not-found', `subscription ${uuid} was removed`);
        stream(ctx, uuid, listener, heartbeat);
    };
}
/** GET /v1/subscriptions/{id}: attaches to an existing subscription by its query id. */
function handleResubscribe(svc) {
    return async (ctx) => {
        const uuid = String(ctx.params.id);
        const from = fromParam(ctx);
        const heartbeat = (0, ndjson_1.heartbeatParam)(ctx);
        const listener = svc.listen(uuid, from);
        if (!listener)
            throw new errors_1.PatinaError('not-found', `no subscription with query id ${uuid}; it may have been removed after nobody listened to it; subscribe again with POST /v1/subscriptions`);
        stream(ctx, uuid, listener, heartbeat);
    };
}
//# sourceMappingURL=subscriptions.js.map