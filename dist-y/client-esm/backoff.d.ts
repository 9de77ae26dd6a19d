import type { RetryOptions } from './types.js';
/**
 * Waits between reconnection attempts: exponential, with jitter so that many clients cut off at
 * once do not come back at once, and a deadline after which the caller gives up.
 */
export declare class Backoff {
    #private;
    readonly initialMs: number;
    readonly maxMs: number;
    readonly giveUpMs: number;
    constructor(opts?: RetryOptions);
    /** Attempts since the last success. */
    get attempt(): number;
    /** Milliseconds since the first failure in a row, or 0. */
    get failingForMs(): number;
    /** The agent answered: the time to give up is counted again from the next failure. */
    connected(): void;
    /** Data came through: the next failure waits the initial delay again. */
    progressed(): void;
    /** The wait before the next attempt, or null when it is time to give up. */
    next(): number | null;
}
/** Resolves after ms, or at once when the signal fires. */
export declare function sleep(ms: number, signal?: AbortSignal): Promise<void>;
