/** What went wrong, so a program can decide what to do without reading the message. */
export type ClientErrorKind = 'request' | 'server' | 'stream' | 'network' | 'gave-up' | 'aborted' | 'protocol';
/** Every error the client library throws: the agent's message, the HTTP status (0 when there was no answer) and a kind. */
export declare class PatinaError extends Error {
    readonly kind: ClientErrorKind;
    /** The HTTP status of the answer; 0 when no answer came (network, aborted, gave up). */
    readonly status: number;
    /** For a refused transaction: the statement at fault, counted from 1. */
    readonly statement?: number;
    constructor(kind: ClientErrorKind, message: string, status?: number, opts?: {
        statement?: number;
        cause?: unknown;
    });
}
/** The error of a fetch that threw: the caller's abort, or an agent out of reach. */
export declare function fetchError(err: unknown, url: string, signal: AbortSignal | undefined): PatinaError;
