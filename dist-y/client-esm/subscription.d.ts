import { PatinaError } from './errors.js';
import type { Transport } from './http.js';
import type { Row, RetryOptions } from './types.js';
/** What a subscription reports, in order. */
export type SubscriptionEvent = 
/** The initial result is in `rows` (the subscription's own live map). */
{
    type: 'ready';
    columns: string[];
    rows: ReadonlyMap<number, Row>;
    changeId: number;
    time: number;
}
/** One change, already applied to `rows`; `previous` holds the row's cells before an update or delete. */
 | {
    type: 'change';
    kind: 'insert' | 'update' | 'delete';
    rowId: number;
    cells: Row;
    previous?: Row;
    changeId: number;
}
/**
 * The whole result was read again (the agent no longer kept the changes after `changeId`, forgot
 * the subscription, or this consumer fell too far behind): take `rows` as the truth from here on.
 */
 | {
    type: 'reset';
    reason: string;
    columns: string[];
    rows: ReadonlyMap<number, Row>;
    changeId: number;
}
/** The connection dropped; the next attempt comes after `retryInMs`. */
 | {
    type: 'disconnected';
    error: PatinaError;
    retryInMs: number;
    attempt: number;
}
/** Resumed after `changeId` on a new connection. */
 | {
    type: 'resumed';
    changeId: number;
};
export interface SubscribeOptions {
    signal?: AbortSignal;
    /** The query id of an existing subscription (resume it rather than subscribe anew). */
    id?: string;
    /** With `id`: the last change id already applied; only later changes are asked for. */
    from?: number;
    /** With `from`: the rows the caller kept (row id -> cells) and the columns, to go on from. */
    rows?: Iterable<[number, Row]>;
    columns?: string[];
    retry?: RetryOptions;
    /**
     * Seconds of silence after which the agent sends an empty line (default 10; 0 for none). With
     * them, a connection whose peer vanished without a FIN is noticed after 2.5 of these and resumed.
     */
    heartbeat?: number;
    /**
     * Events held for a consumer slower than the agent (default 100,000). The map stays current
     * whatever the consumer does; past this many waiting events they are dropped for one reset.
     */
    maxBufferedEvents?: number;
}
/**
 * A live query kept by the client: the current rows by row id, the columns, the last change id and
 * the query id. It reads the agent's stream as fast as it comes (so a slow consumer is never cut
 * off by the agent), resumes after a dropped connection or an agent restart from the last change
 * id with exponential backoff and jitter, re-reads the whole result when the agent no longer keeps
 * the missed changes, and gives up after `retry.giveUpAfterMs` with a PatinaError of kind 'gave-up'.
 */
export declare class Subscription implements AsyncIterable<SubscriptionEvent> {
    #private;
    readonly sql: string;
    /** The current rows: row id -> cells. */
    rows: Map<number, Row>;
    columns: string[];
    /** The last change id applied to `rows`. */
    changeId: number;
    /** The agent's query id, once known. */
    queryId: string | undefined;
    /** Resolves once the initial result is in `rows`; rejects if it never comes. */
    readonly ready: Promise<void>;
    /** Why the subscription ended, when it failed. */
    error: PatinaError | undefined;
    constructor(transport: Transport, sql: string, body: string, opts: SubscribeOptions);
    /** Stops listening and ends iteration; the agent keeps the subscription for a later resume. */
    close(): void;
    get closed(): boolean;
    [Symbol.asyncIterator](): AsyncGenerator<SubscriptionEvent>;
}
