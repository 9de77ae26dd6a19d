import type { Transport } from './http.js';
import type { Row } from './types.js';
/**
 * The rows of one read, as an async iterable: the request is sent when iteration starts, and rows
 * are read only as fast as the caller takes them. `columns` is set once the first row (or the end)
 * is read; `time` (seconds the agent took to run the query) once the end is read.
 */
export declare class QueryResult implements AsyncIterable<Row> {
    #private;
    /** The column names, once the first event was read. */
    columns: string[] | undefined;
    /** The agent's query time in seconds, once the whole result was read. */
    time: number | undefined;
    constructor(transport: Transport, path: string, body: string, signal: AbortSignal | undefined);
    [Symbol.asyncIterator](): AsyncGenerator<Row>;
    /** Reads the whole result into memory. */
    all(): Promise<{
        columns: string[];
        rows: Row[];
        time: number;
    }>;
}
