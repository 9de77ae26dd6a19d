"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ClientStream = void 0;
const events_1 = require("./events");
const CHUNK_LINES = 256;
const RESUME = 'resume with GET /v1/subscriptions/{id}?from=<last change id seen>';
/**
 * One listener of a subscription: a bounded queue of change lines between the subscription (which
 * pushes after each logged batch, never waiting) and the client's socket (which pulls as fast as it
 * reads). A client that lets more than `limits.events` events or `limits.bytes` bytes pile up is cut
 * off with an error line, so a slow reader costs bounded memory and never slows the others. One
 * group of changes always fits an empty queue (a transaction larger than either limit still
 * reaches a client that keeps up).
 */
class ClientStream {
    #limits;
    #queue = [];
    /** Lines before it are sent. */
    #head = 0;
    #bytes = 0;
    #error = null;
    #closed = false;
    #wake = null;
    #onClose;
    /** Called once when the stream is cut off with an error (the route then makes sure the socket goes). */
    onFail = null;
    /** The last change id this client has (from its snapshot or backfill, then from pushes). */
    after;
    #tally;
    constructor(limits, after, onClose, tally = null) {
        this.#limits = limits;
        this.#tally = tally;
        this.after = after;
        this.#onClose = onClose;
        this.#tally = tally;
    }
    /** Queues the lines of one group of changes, all or none; `bytes` is their UTF-8 size. */
    push(lines, bytes) {
        if (this.#closed || this.#error !== null)
            return;
        const n = this.#queue.length - this.#head;
        if (n > 0 && n + lines.length > this.#limits.events) {
            this.#tally?.cutOff(this.#limits.events);
            this.fail(`the client fell behind: more than ${this.#limits.events} events were waiting to be sent; ${RESUME}`);
            return;
        }
        if (n > 0 && this.#bytes + bytes > this.#limits.bytes) {
            this.#tally?.cutOff(this.#limits.bytes);
            this.fail(`the client fell behind: more than ${this.#limits.bytes} bytes of changes were waiting to be sent; ${RESUME}`);
            return;
        }
        for (const l of lines)
            this.#queue.push(l);
        this.#bytes += bytes;
        this.#signal();
    }
    /** Ends the stream with an error line after what was already sent. */
    fail(message) {
        if (this.#closed || this.#error !== null)
            return;
        this.#error = message;
        this.#queue = [];
        this.#head = 0;
        this.#bytes = 0;
        this.#signal();
        this.onFail?.();
    }
    /** Bytes waiting to be sent. */
    get pendingBytes() {
        return this.#bytes;
    }
    get pending() {
        return this.#queue.length - this.#head;
    }
    /** The lines to send: `prefix` first (rows or a backfill of changes), then live changes until the end. */
    async *lines(prefix) {
        try {
            for await (const l of prefix) {
                if (this.#error !== null || this.#closed)
                    break;
                yield l;
            }
            for (;;) {
                if (this.#closed)
                    return;
                if (this.#error !== null) {
                    yield (0, events_1.errorLine)(this.#error);
                    return;
                }
                if (this.#queue.length > this.#head) {
                    // Taken from a moving head, not spliced off the front: a long queue costs O(1) per chunk.
                    const stop = Math.min(this.#queue.length, this.#head + CHUNK_LINES);
                    const text = this.#queue.slice(this.#head, stop).join('');
                    if (this.#tally)
                        this.#tally.sent += stop - this.#head;
                    this.#head = stop;
                    if (this.#head === this.#queue.length) {
                        this.#queue = [];
                        this.#head = 0;
                        this.#bytes = 0;
                    }
                    else {
                        this.#bytes -= Buffer.byteLength(text);
                        if (this.#head > 4096 && this.#head * 2 > this.#queue.length) {
                            this.#queue = this.#queue.slice(this.#head);
                            this.#head = 0;
                        }
                    }
                    yield text;
                    continue;
                }
                await new Promise((r) => (this.#wake = r));
            }
        }
        finally {
            this.close();
        }
    }
    close() {
        if (this.#closed)
            return;
        this.#closed = true;
        this.#queue = [];
        this.#head = 0;
        this.#bytes = 0;
        this.#signal();
        this.#onClose();
    }
    #signal() {
        const w = this.#wake;
        this.#wake = null;
        w?.();
    }
}
exports.ClientStream = ClientStream;
//# sourceMappingURL=client-stream.js.map