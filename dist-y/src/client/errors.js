"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PatinaError = void 0;
exports.fetchError = fetchError;
/** Every error the client library throws: the agent's message, the HTTP status (0 when there was no answer) and a kind. */
class PatinaError extends Error {
    kind;
    /** The HTTP status of the answer; 0 when no answer came (network, aborted, gave up). */
    status;
    /** For a refused transaction: the statement at fault, counted from 1. */
    statement;
    constructor(kind, message, status = 0, opts = {}) {
        super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
        this.name = 'PatinaError';
        this.kind = kind;
        this.status = status;
        if (opts.statement !== undefined)
            this.statement = opts.statement;
    }
}
exports.PatinaError = PatinaError;
/** The error of a fetch that threw: the caller's abort, or an agent out of reach. */
function fetchError(err, url, signal) {
    if (err instanceof PatinaError)
        return err;
    if (signal?.aborted)
        return new PatinaError('aborted', `request to ${url} was aborted`, 0, { cause: signal.reason });
    const e = err;
    const why = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
    return new PatinaError('network', `cannot reach the agent at ${url}: ${why}`, 0, { cause: err });
}
//# sourceMappingURL=errors.js.map