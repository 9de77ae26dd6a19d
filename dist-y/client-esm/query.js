import { PatinaError, fetchError } from './errors.js';
import { ndjsonLines } from './ndjson.js';
import { parseLine } from './wire.js';
/**
 * The rows of one read, as an async iterable: the request is sent when iteration starts, and rows
 * are read only as fast as the caller takes them. `columns` is set once the first row (or the end)
 * is read; `time` (seconds the agent took to run the query) once the end is read.
 */
export class QueryResult {
    /** The column names, once the first event was read. */
    columns;
    /** The agent's query time in seconds, once the whole result was read. */
    time;
    #transport;
    #path;
    #body;
    #signal;
    #started = false;
    constructor(transport, path, body, signal) {
        this.#transport = transport;
        this.#path = path;
        this.#body = body;
        this.#signal = signal;
    }
    async *[Symbol.asyncIterator]() {
        if (this.#started)
            throw new PatinaError('request', 'a query result can be read once; run the query again');
        this.#started = true;
        const t = this.#transport;
        const res = await t.send('POST', this.#path, this.#body, this.#signal);
        try {
            for await (const line of ndjsonLines(res.body)) {
                const ev = parseLine(line, t.ints);
                if ('row' in ev)
                    yield ev.row[1];
                else if ('columns' in ev)
                    this.columns = ev.columns;
                else if ('eoq' in ev) {
                    this.time = ev.eoq.time;
                    return;
                }
                else if ('error' in ev)
                    throw new PatinaError('stream', ev.error, res.status);
            }
        }
        catch (err) {
            throw fetchError(err, t.base, this.#signal);
        }
        throw new PatinaError('network', `the connection to ${t.base} ended before the end of the result`, res.status);
    }
    /** Reads the whole result into memory. */
    async all() {
        const rows = [];
        for await (const r of this)
            rows.push(r);
        return { columns: this.columns ?? [], rows, time: this.time ?? 0 };
    }
}
