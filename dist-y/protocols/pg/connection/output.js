"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Output = exports.OUT_HIGH_WATER = void 0;
const sqlstate_1 = require("../sqlstate");
const backend_1 = require("../wire/backend");
/** Output past this many bytes is written before the next message is handled. */
exports.OUT_HIGH_WATER = 64 * 1024;
class Output {
    w = new backend_1.ByteWriter();
    #socket;
    #counts;
    /** Called when the socket's buffer fills or drains (the connection stops or resumes reading). */
    #onBlocked;
    #closed;
    #blocked = false;
    constructor(socket, counts, onBlocked, closed) {
        this.#socket = socket;
        this.#counts = counts;
        this.#onBlocked = onBlocked;
        this.#closed = closed;
    }
    /** The socket's writes wait for the client to read. */
    get blocked() {
        return this.#blocked;
    }
    /** Writes what is buffered in one socket write. */
    flush() {
        if (this.w.length === 0 || this.#closed())
            return;
        if (this.#socket.write(this.w.take()) || this.#blocked)
            return;
        this.#blocked = true;
        this.#onBlocked();
        this.#socket.once('drain', () => {
            this.#blocked = false;
            this.#onBlocked();
        });
    }
    /** Flushes and, when the socket's buffer is full, waits for it to drain (a slow reader of a big result). */
    async flushAndWait() {
        this.flush();
        if (!this.#blocked || this.#closed())
            return;
        await new Promise((resolve) => {
            const done = () => {
                this.#socket.off('drain', done);
                this.#socket.off('close', done);
                resolve();
            };
            this.#socket.on('drain', done);
            this.#socket.on('close', done);
        });
    }
    /** Writes the output once it is large, waiting for a slow reader to take it. */
    drain() {
        if (this.w.length > exports.OUT_HIGH_WATER)
            return this.flushAndWait();
    }
    /** CommandComplete, counted. */
    completeTag(tag) {
        this.#counts?.completed(tag);
        backend_1.backend.commandComplete(this.w, tag);
    }
    /** A statement's ErrorResponse, counted. */
    sendError(err) {
        const { code, message, detail, where } = (0, sqlstate_1.sqlstateOf)(err);
        this.#counts?.failed(code);
        backend_1.backend.error(this.w, {
            severity: 'ERROR',
            severityV: 'ERROR',
            code,
            message: message.replace(/^(statement( \d+)?|commit): /, ''),
            detail,
            where,
        });
    }
    /** A WARNING notice. */
    warn(code, message) {
        backend_1.backend.error(this.w, { severity: 'WARNING', severityV: 'WARNING', code, message }, 'N');
    }
}
exports.Output = Output;
//# sourceMappingURL=output.js.map