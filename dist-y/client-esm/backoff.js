/**
 * Waits between reconnection attempts: exponential, with jitter so that many clients cut off at
 * once do not come back at once, and a deadline after which the caller gives up.
 */
export class Backoff {
    initialMs;
    maxMs;
    giveUpMs;
    #attempt = 0;
    #failingSince = null;
    constructor(opts = {}) {
        this.initialMs = opts.initialDelayMs ?? 100;
        this.maxMs = opts.maxDelayMs ?? 5000;
        this.giveUpMs = opts.giveUpAfterMs ?? 60_000;
    }
    /** Attempts since the last success. */
    get attempt() {
        return this.#attempt;
    }
    /** Milliseconds since the first failure in a row, or 0. */
    get failingForMs() {
        return this.#failingSince === null ? 0 : Date.now() - this.#failingSince;
    }
    /** The agent answered: the time to give up is counted again from the next failure. */
    connected() {
        this.#failingSince = null;
    }
    /** Data came through: the next failure waits the initial delay again. */
    progressed() {
        this.#attempt = 0;
        this.#failingSince = null;
    }
    /** The wait before the next attempt, or null when it is time to give up. */
    next() {
        const now = Date.now();
        if (this.#failingSince === null)
            this.#failingSince = now;
        const left = this.giveUpMs - (now - this.#failingSince);
        if (left <= 0)
            return null;
        const cap = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.#attempt, 30));
        this.#attempt++;
        // "Equal jitter": half the delay fixed, half random.
        return Math.min(left, cap / 2 + Math.random() * (cap / 2));
    }
}
/** Resolves after ms, or at once when the signal fires. */
export function sleep(ms, signal) {
    return new Promise((resolve) => {
        if (signal?.aborted)
            return resolve();
        const t = setTimeout(done, ms);
        function done() {
            clearTimeout(t);
            signal?.removeEventListener('abort', done);
            resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
    });
}
