import { type IntegerMode } from './json.js';
export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;
/** How the client reaches one agent: base URL, token, fetch, integer mode. Shared by every call. */
export declare class Transport {
    #private;
    readonly base: string;
    readonly ints: IntegerMode;
    constructor(url: string, token: string | undefined, fetchFn: FetchFn | undefined, ints: IntegerMode);
    url(path: string): string;
    /**
     * One request. Resolves with a response whose status is 2xx; any other status becomes a
     * PatinaError with the agent's message. A fetch that throws becomes 'network' or 'aborted'.
     */
    send(method: string, path: string, body: string | undefined, signal: AbortSignal | undefined): Promise<Response>;
    /** A request whose answer is one JSON value. */
    json(method: string, path: string, body: string | undefined, signal: AbortSignal | undefined): Promise<unknown>;
}
/** The JSON body of a statement: `{"query", "params"|"named_params"}`, integers exact. */
export declare function statementBody(sql: string, params: unknown, toJson: (v: unknown, where: string) => string): string;
