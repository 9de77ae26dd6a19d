/** One cell of a result: INTEGER (number, or bigint beyond ±2^53 or in 'bigint' mode), REAL, TEXT, NULL, BLOB (array of byte values). */
export type Cell = number | bigint | string | null | number[];
/** One row: its cells in column order. */
export type Row = Cell[];
/** A number to bind as REAL even when it is whole (see real()). */
export declare class Real {
    readonly value: number;
    constructor(value: number);
}
/** Binds a number as REAL: `real(2)` is 2.0, where a plain 2 binds as INTEGER. */
export declare function real(value: number): Real;
/**
 * A parameter value. A whole JS number or a bigint binds as INTEGER (bigint exact past 2^53), any
 * other number as REAL (and real(n) always); Uint8Array or an array of byte values as a BLOB;
 * booleans as 1 and 0.
 */
export type ParamValue = number | bigint | string | boolean | null | Uint8Array | Real | ParamValue[];
/** Positional parameters (`?`) or named ones (`:name`, `@name`, `$name`; the key with or without its prefix). */
export type Params = ParamValue[] | Record<string, ParamValue>;
/** One statement of a transaction: SQL alone, `[sql, params]`, or `{ sql, params }`. */
export type Statement = string | [string, Params] | {
    sql: string;
    params?: Params;
};
/** Every call takes an AbortSignal: aborting ends the request or stream with a PatinaError of kind 'aborted'. */
export interface CallOptions {
    signal?: AbortSignal;
}
/** How a subscription or update stream retries after the connection dropped. */
export interface RetryOptions {
    /** The first wait before reconnecting (default 100 ms); doubled after each failure. */
    initialDelayMs?: number;
    /** The longest wait between attempts (default 5000 ms). */
    maxDelayMs?: number;
    /** Give up when the agent could not be reached (or kept failing) this long (default 60000 ms). */
    giveUpAfterMs?: number;
}
/** The answer of POST /v1/transactions. */
export interface TransactionResult {
    /** Per statement; one that returns rows (`INSERT ... RETURNING id`) has them as columns and rows. */
    results: {
        rows_affected: number;
        time: number;
        columns?: string[];
        rows?: Row[];
    }[];
    time: number;
    /** The agent's db_version of this change; null when nothing changed. */
    version?: number | null;
    /** The agent's site id, hex. */
    actor_id?: string;
}
