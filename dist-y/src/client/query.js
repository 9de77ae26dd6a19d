"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.QueryResult = void 0;
const errors_js_1 = require("./errors.js");
const ndjson_js_1 = require("./ndjson.js");
const wire_js_1 = require("./wire.js");
/**
 * The rows of one read, as an async iterable: the request is sent when iteration starts, and rows
 * are read only as fast as the caller takes them. `columns` is set once the first row (or the end)
 * is read; `time` (seconds the agent took to run the query) once the end is read.
 */
class QueryResult {
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
            throw new errors_js_1.PatinaError('request', 'a query result can be read once; run the query again');
        this.#started = true;
        const t = this.#transport;
        const res = await t.send('POST', this.#path, this.#body, this.#signal);
        try {
            for await (const line of (0, ndjson_js_1.ndjsonLines)(res.body)) {
                const ev = (0, wire_js_1.parseLine)(line, t.ints);
                if ('row' in ev)
                    yield ev.row[1];
                else if ('columns' in ev)
                    this.columns = ev.columns;
                else if ('eoq' in ev) {
                    this.time = ev.eoq.time;
                    return;
                }
                else if ('error' in ev)
                    throw new errors_js_1.PatinaError('stream', ev.error, res.status);
            }
        }
        catch (err) {
            throw (0, errors_js_1.fetchError)(err, t.base, this.#signal);
        }
        throw new errors_js_1.PatinaError('network', `the connection to ${t.base} ended before the end of the result`, res.status);
    }
    /** Reads the whole result into memory. */
    async all() {
        const rows = [];
        for await (const r of this)
            rows.push(r);
        return { columns: this.columns ?? [], rows, time: this.time ?? 0 };
    }
}
exports.QueryResult = QueryResult;
//# sourceMappingURL=query.js.map