"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CopyFromStdin = void 0;
// COPY FROM STDIN on the wire: the session takes the writer and says where the rows go, the
// connection answers CopyInResponse, and then every message is CopyData (parsed into rows as it
// comes), CopyDone, CopyFail, or something that ends the COPY; a client that stops sending is cut
// off after api.query_timeout, since it holds the writer.
const binary_1 = require("../copy/binary");
const format_1 = require("../copy/format");
const sqlstate_1 = require("../sqlstate");
const backend_1 = require("../wire/backend");
class CopyFromStdin {
    #out;
    #timeoutMs;
    #closed;
    /** Terminate during COPY: the connection ends. */
    #terminate;
    #state = null;
    constructor(out, timeoutMs, closed, terminate) {
        this.#out = out;
        this.#timeoutMs = timeoutMs;
        this.#closed = closed;
        this.#terminate = terminate;
    }
    /** A COPY FROM STDIN is running: every message is the COPY's. */
    get active() {
        return this.#state !== null;
    }
    /** Takes the writer, answers CopyInResponse; the rows come as CopyData. */
    start(session, an, resume) {
        return session.copyIn(an).then((target) => {
            if (this.#closed()) {
                target.abort();
                return;
            }
            const timeoutMs = this.#timeoutMs;
            const idle = setTimeout(() => {
                if (this.#state !== state || this.#closed())
                    return;
                this.#state = null;
                target.abort();
                void state.resume((0, sqlstate_1.pgError)('57014', `COPY from stdin received no data for ${timeoutMs / 1000} s (api.query_timeout) and was rolled back: it held the writer`));
                this.#out.flush();
            }, timeoutMs);
            idle.unref();
            const state = {
                target,
                parser: an.copy.stmt.options.format === 'binary'
                    ? new binary_1.BinaryCopyParser(target.oids, target.table, target.columns)
                    : new format_1.CopyParser(an.copy.stmt.options, target.table),
                idle,
                resume,
            };
            this.#state = state;
            backend_1.backend.copyResponse(this.#out.w, 'G', target.columns.length, an.copy.stmt.options.format === 'binary');
        }, resume);
    }
    /** A message while COPY FROM STDIN runs: data, its end, or its failure; anything else ends the COPY. */
    onMessage(msg) {
        const copy = this.#state;
        copy.idle.refresh();
        const fail = (err) => {
            this.#state = null;
            clearTimeout(copy.idle);
            copy.target.abort();
            return copy.resume(err);
        };
        try {
            switch (msg.type) {
                case 'copyData':
                    for (const r of copy.parser.feed(msg.data))
                        copy.target.insert(r.fields, r.line);
                    return;
                case 'copyDone': {
                    for (const r of copy.parser.end())
                        copy.target.insert(r.fields, r.line);
                    this.#state = null;
                    clearTimeout(copy.idle);
                    const n = copy.target.finish();
                    this.#out.completeTag(`COPY ${n}`);
                    return copy.resume(null);
                }
                case 'copyFail':
                    return fail((0, sqlstate_1.pgError)('57014', `COPY from stdin failed: ${msg.message}`));
                case 'flush':
                case 'sync':
                    return; // ignored during COPY, as the protocol says
                case 'terminate':
                    fail((0, sqlstate_1.pgError)('08P01', 'the client terminated during COPY from stdin'));
                    this.#terminate();
                    return;
                default:
                    return fail((0, sqlstate_1.pgError)('08P01', `unexpected message type during COPY from stdin (${msg.type})`));
            }
        }
        catch (err) {
            return fail(err);
        }
    }
    /** The connection closed: the COPY's rows are rolled back. */
    abort() {
        const copy = this.#state;
        this.#state = null;
        if (!copy)
            return;
        clearTimeout(copy.idle);
        copy.target.abort();
    }
}
exports.CopyFromStdin = CopyFromStdin;
//# sourceMappingURL=copy-from-stdin.js.map