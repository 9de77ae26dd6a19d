"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ConsumerLaggedError = exports.InProcessChangeFeed = void 0;
const log_1 = require("../observability/log");
/**
 * The in-process change-feed bus. `publish` runs at commit, in commit order, and stamps each
 * changeset with the next `seq`; observers run synchronously inside it; consumers each get a
 * bounded queue, so one slow consumer costs only its own queue and is dropped when it overflows.
 */
class InProcessChangeFeed {
    #seq = 0;
    #observers = new Set();
    #consumers = new Set();
    /** Where an observer's exception goes (it must not undo a commit that already happened). */
    #onObserverError;
    constructor(opts = {}) {
        this.#onObserverError =
            opts.onObserverError ?? ((err) => log_1.log.error((0, log_1.errorFields)(err), 'change feed observer failed'));
    }
    /** The seq of the last published changeset (0 before any). */
    get lastSeq() {
        return this.#seq;
    }
    publish(cs) {
        cs.seq = ++this.#seq;
        for (const fn of this.#observers) {
            try {
                fn(cs);
            }
            catch (err) {
                this.#onObserverError(err);
            }
        }
        for (const c of this.#consumers)
            c._push(cs);
    }
    observe(fn) {
        const own = (cs) => fn(cs); // a distinct entry even if the same fn observes twice
        this.#observers.add(own);
        return () => this.#observers.delete(own);
    }
    consume(name, capacity) {
        if (!Number.isInteger(capacity) || capacity < 1)
            throw new RangeError(`consumer capacity must be a positive integer, got ${capacity}`);
        const c = new QueueConsumer(name, capacity, (x) => this.#consumers.delete(x));
        this.#consumers.add(c);
        return c;
    }
}
exports.InProcessChangeFeed = InProcessChangeFeed;
/** Thrown by a lagged consumer's next(). */
class ConsumerLaggedError extends Error {
    constructor(name, capacity) {
        super(`change feed consumer "${name}" fell more than ${capacity} changesets behind and was dropped`);
        this.name = 'ConsumerLaggedError';
    }
}
exports.ConsumerLaggedError = ConsumerLaggedError;
class QueueConsumer {
    #name;
    #capacity;
    #detach;
    // A queue with a moving head, compacted when half of it is consumed.
    #queue = [];
    #head = 0;
    #lagged = false;
    #closed = false;
    #waiter = null;
    constructor(name, capacity, detach) {
        this.#name = name;
        this.#capacity = capacity;
        this.#detach = detach;
    }
    get lagged() {
        return this.#lagged;
    }
    _push(cs) {
        if (this.#closed || this.#lagged)
            return;
        if (this.#waiter) {
            const w = this.#waiter;
            this.#waiter = null;
            w.resolve({ value: cs, done: false });
            return;
        }
        if (this.#queue.length - this.#head >= this.#capacity) {
            // Over capacity: drop what is queued and stop receiving; next() says so.
            this.#lagged = true;
            this.#queue = [];
            this.#head = 0;
            this.#detach(this);
            return;
        }
        this.#queue.push(cs);
    }
    next() {
        if (this.#head < this.#queue.length) {
            const cs = this.#queue[this.#head++];
            if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
                this.#queue = this.#queue.slice(this.#head);
                this.#head = 0;
            }
            return Promise.resolve({ value: cs, done: false });
        }
        if (this.#lagged)
            return Promise.reject(new ConsumerLaggedError(this.#name, this.#capacity));
        if (this.#closed)
            return Promise.resolve({ value: undefined, done: true });
        if (this.#waiter)
            return Promise.reject(new Error(`change feed consumer "${this.#name}" is already being read`));
        return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
    }
    return() {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
    }
    close() {
        if (this.#closed)
            return;
        this.#closed = true;
        this.#queue = [];
        this.#head = 0;
        this.#detach(this);
        const w = this.#waiter;
        this.#waiter = null;
        w?.resolve({ value: undefined, done: true });
    }
    [Symbol.asyncIterator]() {
        return this;
    }
}
//# sourceMappingURL=change-feed.js.map