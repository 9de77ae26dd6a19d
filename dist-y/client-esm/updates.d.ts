import { PatinaError } from './errors.js';
import type { Transport } from './http.js';
import type { Cell, RetryOptions } from './types.js';
/** What a table update stream reports. */
export type UpdateEvent = 
/** A row of the table changed (an insert is an 'update'); `key` is its primary key in key order. */
{
    type: 'notify';
    kind: 'update' | 'delete';
    key: Cell[];
}
/**
 * Notifications may have been missed: the stream was connected again after it dropped (it has no
 * resume point), or the consumer fell more than `maxBufferedEvents` behind. Treat what you
 * cached as stale.
 */
 | {
    type: 'gap';
    reason: 'reconnected' | 'overflow';
    error?: PatinaError;
};
export interface UpdatesOptions {
    signal?: AbortSignal;
    retry?: RetryOptions;
    /** Notifications held for a consumer slower than the agent (default 100,000); past it, one gap. */
    maxBufferedEvents?: number;
    /** Seconds of silence after which the agent sends an empty line (default 10; 0 for none); see SubscribeOptions. */
    heartbeat?: number;
}
/**
 * POST /v1/updates/{table} as an async iterable. The stream is read as fast as the agent sends (so
 * a slow consumer is not cut off by the agent), reconnecting after a dropped connection with
 * backoff and jitter until `retry.giveUpAfterMs` of failures (then a PatinaError of kind
 * 'gave-up'). An unknown table is a PatinaError at once. Leaving the loop closes the stream.
 */
export declare function tableUpdates(t: Transport, table: string, opts?: UpdatesOptions): AsyncGenerator<UpdateEvent>;
