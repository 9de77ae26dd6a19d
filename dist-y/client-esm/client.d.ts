import { type FetchFn } from './http.js';
import { type IntegerMode } from './json.js';
import { QueryResult } from './query.js';
import { type SubscribeOptions, Subscription } from './subscription.js';
import type { CallOptions, Params, Statement, TransactionResult } from './types.js';
import { type UpdateEvent, type UpdatesOptions } from './updates.js';
export interface ClientOptions {
    /** The agent's HTTP API, e.g. http://127.0.0.1:8080. */
    url: string;
    /** Sent as `Authorization: Bearer <token>` on every request. */
    token?: string;
    /** The fetch to use (default: the global one). */
    fetch?: FetchFn;
    /** Integers of result cells: 'auto' (numbers, bigint beyond ±2^53; the default) or 'bigint' (always). */
    integers?: IntegerMode;
}
export interface QueryOptions extends CallOptions {
    /** Seconds after which the agent interrupts the query (its `?timeout`). */
    timeout?: number;
}
/** A client of one Patina agent's HTTP API. Uses only fetch and web streams. */
export declare class PatinaClient {
    #private;
    constructor(opts: ClientOptions);
    /** The base URL requests go to. */
    get url(): string;
    /** One read statement; iterate the result for its rows (see QueryResult). */
    query(sql: string, params?: Params, opts?: QueryOptions): QueryResult;
    /** Statements in one all-or-nothing transaction; a refusal is a PatinaError naming the statement (`statement`, from 1). */
    transaction(statements: Statement[], opts?: CallOptions): Promise<TransactionResult>;
    /** A live query kept up to date by the client, resuming by itself (see Subscription). */
    subscribe(sql: string, params?: Params, opts?: SubscribeOptions): Subscription;
    /** Which primary keys of a table change, from now on, reconnecting after drops. */
    updates(table: string, opts?: UpdatesOptions): AsyncGenerator<UpdateEvent>;
    /** GET /v1/health. */
    health(opts?: CallOptions): Promise<Record<string, unknown>>;
    /** GET /v1/cluster/members: the peers, their state and round-trip time. */
    members(opts?: CallOptions): Promise<{
        clustered: boolean;
        members: Member[];
    }>;
    /** POST /v1/admin/cluster/forget: drops a member that will not return (admin role). */
    forgetMember(addr: string, opts?: CallOptions): Promise<{
        forgotten: string;
    }>;
    /** GET /v1/sync/status: per origin agent, the highest version merged here and the gaps. */
    syncStatus(opts?: CallOptions): Promise<SyncStatus>;
    /**
     * POST /v1/admin/backup: the agent writes a consistent copy of its database to `path` (a path on
     * the agent's machine) while writes go on; yields its progress and done events (admin role).
     */
    backup(path: string, opts?: CallOptions): AsyncGenerator<BackupEvent>;
    /** POST /v1/admin/reload: the agent re-reads its schema files. */
    reloadSchema(opts?: CallOptions): Promise<Record<string, unknown>>;
}
export interface Member {
    addr: string;
    actor_id: string | null;
    state: string;
    rtt_ms: number | null;
}
export interface SyncStatus {
    clustered?: boolean;
    origins: {
        actor_id: string;
        self: boolean;
        head: number;
        gaps: [number, number][];
        missing: number;
        behind: number;
        lag_seconds: number;
    }[];
    gaps?: number;
    lag_versions?: number;
    lag_seconds?: number;
}
/** An event of a backup: how far it is, then where it was written. */
export type BackupEvent = {
    progress: {
        bytes_done: number;
        bytes_total: number;
    };
} | {
    done: {
        path: string;
        bytes: number;
        seconds: number;
        actor_id: string;
    };
};
