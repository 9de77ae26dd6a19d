"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HEARTBEAT_HEADER = void 0;
exports.heartbeatParam = heartbeatParam;
exports.withHeartbeat = withHeartbeat;
exports.line = line;
exports.errorLine = errorLine;
exports.streamNdjson = streamNdjson;
const node_stream_1 = require("node:stream");
const errors_1 = require("../../src/errors");
/** The response header that says a stream sends heartbeats, and every how many seconds. */
exports.HEARTBEAT_HEADER = 'patina-heartbeat';
const HEARTBEAT = Symbol('heartbeat');
/**
 * `?heartbeat=S` on a stream: after S seconds (1 to 3600) without a line, the agent sends an empty
 * line, so a client can tell a quiet stream from a dead connection (a peer gone without a FIN).
 * Empty lines are not events; NDJSON readers skip them. Milliseconds, or undefined when not asked.
 */
function heartbeatParam(ctx) {
    const h = ctx.query.heartbeat;
    if (h === undefined)
        return undefined;
    const s = Array.isArray(h) ? h[0] : h;
    if (!/^\d+$/.test(s) || Number(s) < 1 || Number(s) > 3600)
        throw new errors_1.PatinaError('user', `heartbeat must be a number of seconds from 1 to 3600, got ${JSON.stringify(s)}`);
    ctx.set(exports.HEARTBEAT_HEADER, s);
    return Number(s) * 1000;
}
/** The lines, with an empty line after each `ms` in which none came. */
async function* withHeartbeat(lines, ms) {
    let pending = null;
    try {
        for (;;) {
            pending ??= lines.next();
            let timer;
            const tick = new Promise((resolve) => (timer = setTimeout(resolve, ms, HEARTBEAT)));
            const r = await Promise.race([pending, tick]);
            clearTimeout(timer);
            if (r === HEARTBEAT) {
                yield '\n';
                continue;
            }
            pending = null;
            if (r.done)
                return;
            yield r.value;
        }
    }
    finally {
        // Not awaited: a pending next() ends when the listener is closed (the response's 'close').
        void lines.return(undefined).catch(() => { });
    }
}
/** One NDJSON line of an event object with a single key. */
function line(key, valueJson) {
    return `{${JSON.stringify(key)}:${valueJson}}\n`;
}
function errorLine(message) {
    return line('error', JSON.stringify(message));
}
/**
 * Streams NDJSON lines from an async generator as the response body. The generator is pulled only
 * as fast as the client reads (backpressure), and is returned (its finally runs) when the client goes.
 * The status line and headers go out at once: a stream with nothing to say yet (a resume that missed
 * nothing) must not look like a request that hangs.
 */
function streamNdjson(ctx, lines, heartbeatMs) {
    ctx.status = 200;
    ctx.type = 'application/x-ndjson';
    ctx.set('cache-control', 'no-store');
    const source = heartbeatMs === undefined ? lines : withHeartbeat(lines, heartbeatMs);
    const body = node_stream_1.Readable.from(source, { objectMode: false, highWaterMark: 64 * 1024 });
    ctx.body = body;
    ctx.res.flushHeaders();
}
//# sourceMappingURL=ndjson.js.map