"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.handleBackup = handleBackup;
const internal_error_1 = require("../../../src/observability/internal-error");
const ndjson_1 = require("../ndjson");
/**
 * POST /v1/admin/backup `{"path": "/abs/file"}`: an online copy of the database to a file on the
 * agent's machine, streamed as NDJSON: `{"progress":{"bytes_done","bytes_total"}}` lines while it
 * runs, then `{"done":{...}}` or `{"error":"..."}`. A bad target is a plain 400/409 before any line.
 */
function handleBackup(svc) {
    return async (ctx) => {
        const body = ctx.state.body;
        const target = svc.checkBackupTarget(body && typeof body === 'object' ? body.path : undefined);
        const lines = [];
        let wake = null;
        let finished = false;
        const push = (l) => {
            lines.push(l);
            wake?.();
        };
        void svc
            .backup(target, (p) => push((0, ndjson_1.line)('progress', JSON.stringify({ bytes_done: p.bytesDone, bytes_total: p.bytesTotal }))))
            .then((done) => push((0, ndjson_1.line)('done', JSON.stringify(done))), (err) => push((0, ndjson_1.errorLine)((0, internal_error_1.clientMessage)(err, 'HTTP backup'))))
            .finally(() => {
            finished = true;
            wake?.();
        });
        (0, ndjson_1.streamNdjson)(ctx, (async function* () {
            for (;;) {
                if (lines.length > 0)
                    yield lines.splice(0).join('');
                else if (finished)
                    return;
                else
                    await new Promise((r) => (wake = r));
                wake = null;
            }
        })());
    };
}
//# sourceMappingURL=backup.js.map