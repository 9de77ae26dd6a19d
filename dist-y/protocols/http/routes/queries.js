"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.timeoutMs = timeoutMs;
exports.handleQuery = handleQuery;
const errors_1 = require("../../../src/errors");
const internal_error_1 = require("../../../src/observability/internal-error");
const ndjson_1 = require("../ndjson");
const statements_1 = require("../statements");
/** Reads `?timeout=SECONDS`; falls back to the configured default. */
function timeoutMs(ctx, defaultSeconds) {
    const t = ctx.query.timeout;
    if (t === undefined)
        return defaultSeconds * 1000;
    const n = Number(Array.isArray(t) ? t[0] : t);
    if (!Number.isFinite(n) || n <= 0)
        throw new errors_1.PatinaError('user', `timeout must be a positive number of seconds, got ${JSON.stringify(t)}`);
    return n * 1000;
}
/**
 * POST /v1/queries: one read statement; NDJSON columns, rows as they are read, eoq with the time
 * the query took. SQL errors before the first row are a 400; later ones an error line.
 */
function handleQuery(svc, defaultTimeoutSeconds) {
    return async (ctx) => {
        const st = (0, statements_1.parseStatement)(ctx.state.body, 'query');
        const cursor = svc.read({
            sql: st.sql,
            params: st.params,
            format: 'ndjson',
            timeoutMs: timeoutMs(ctx, defaultTimeoutSeconds),
        });
        // Listen before the head arrives: a client that leaves during a long first step frees the worker.
        // The response's 'close' (not the request's, which closes once its body is read) means the client went.
        ctx.res.once('close', () => cursor.cancel('the client went away'));
        let head;
        try {
            head = await cursor.head();
        }
        catch (err) {
            cursor.cancel();
            throw err;
        }
        const complete = cursor.takeComplete();
        if (complete) {
            // The whole result is here already (point reads): one string, no stream machinery.
            ctx.type = 'application/x-ndjson';
            ctx.set('cache-control', 'no-store');
            ctx.body =
                (0, ndjson_1.line)('columns', JSON.stringify(head.columns.map((c) => c.name))) +
                    complete.map((b) => b.text).join('') +
                    (0, ndjson_1.line)('eoq', `{"time":${head.time}}`);
            return;
        }
        (0, ndjson_1.streamNdjson)(ctx, (async function* () {
            try {
                yield (0, ndjson_1.line)('columns', JSON.stringify(head.columns.map((c) => c.name)));
                for await (const batch of cursor)
                    yield batch.text;
                yield (0, ndjson_1.line)('eoq', `{"time":${head.time}}`);
            }
            catch (err) {
                yield (0, ndjson_1.errorLine)((0, internal_error_1.clientMessage)(err, 'HTTP POST /v1/queries'));
            }
            finally {
                cursor.cancel('the client went away');
            }
        })());
    };
}
//# sourceMappingURL=queries.js.map