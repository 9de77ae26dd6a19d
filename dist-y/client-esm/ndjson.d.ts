import { PatinaError } from './errors.js';
/**
 * The lines of an NDJSON body as they arrive (web streams only); empty lines (an agent's heartbeats)
 * are skipped, after `onData` has seen them. Stops reading and releases the connection when the
 * caller stops iterating.
 */
export declare function ndjsonLines(body: ReadableStream<Uint8Array> | null, onData?: () => void): AsyncGenerator<string>;
/**
 * A watchdog for a stream whose agent sends a heartbeat every few seconds (its `patina-heartbeat`
 * header): when nothing arrives for 2.5 heartbeats it aborts `conn` with a network error, so a
 * connection whose peer vanished without a FIN is given up and resumed. `expect(s)` arms it before
 * the response (for requests the agent answers at once); `response(res)` arms it from the header,
 * or disarms it for an agent that sends none. Call `touch` on each chunk read, `stop` when done.
 */
export declare function streamWatchdog(conn: AbortController, base: string): {
    expect: (seconds: number) => void;
    response: (res: Response) => void;
    touch: () => void;
    stop: () => void;
    error: () => PatinaError | undefined;
};
