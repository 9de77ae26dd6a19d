"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TableUpdates = void 0;
const errors_1 = require("../errors");
const log_1 = require("../observability/log");
const slicer_1 = require("./slicer");
/** Milliseconds of fan-out between two turns of the event loop. */
const SLICE_MS = 10;
/**
 * Table update streams: every open stream of every table shares one consumer of the change feed,
 * started with the first stream and closed with the last, and fanned out by table. Each stream
 * sees only changesets committed after it started.
 */
class TableUpdates {
    #feed;
    #schema;
    #capacity;
    #sinks = new Map();
    #count = 0;
    #consumer = null;
    #published = 0;
    constructor(feed, schema, opts) {
        this.#feed = feed;
        this.#schema = schema;
        this.#capacity = opts.capacity;
        // The seq published last, so a new stream skips changesets already queued when it starts.
        feed.observe((cs) => (this.#published = cs.seq));
    }
    /** Starts sending the updates of `table` to `sink`; throws not-found for an unknown table or one without a primary key. Returns the stop function. */
    watch(table, sink) {
        const def = this.#schema().tables.get(table);
        if (!def || def.primaryKey.length === 0)
            throw new errors_1.PatinaError('not-found', `table not found in schema: ${table}`);
        let sinks = this.#sinks.get(table);
        if (!sinks)
            this.#sinks.set(table, (sinks = new Map()));
        sinks.set(sink, this.#published);
        this.#count++;
        if (!this.#consumer)
            this.#start();
        return () => this.#remove(table, sink);
    }
    /** How many streams are open. */
    get streams() {
        return this.#count;
    }
    /** Streams cut off for leaving too much unread, since start. */
    cutOffs = 0;
    cutOff(table, bytes) {
        this.cutOffs++;
        log_1.log.warn({ table, unread_bytes_limit: bytes }, 'update stream client cut off: it left too much unread');
    }
    /** Ends every stream (the agent is stopping). */
    close() {
        const all = [...this.#sinks.values()].flatMap((m) => [...m.keys()]);
        this.#sinks.clear();
        this.#count = 0;
        this.#consumer?.close();
        this.#consumer = null;
        for (const s of all)
            s.end();
    }
    #remove(table, sink) {
        const sinks = this.#sinks.get(table);
        if (!sinks?.delete(sink))
            return;
        this.#count--;
        if (sinks.size === 0)
            this.#sinks.delete(table);
        if (this.#count === 0) {
            this.#consumer?.close();
            this.#consumer = null;
        }
    }
    #start() {
        const consumer = this.#feed.consume('table update streams', this.#capacity);
        this.#consumer = consumer;
        void (async () => {
            try {
                const slicer = new slicer_1.Slicer(SLICE_MS);
                for await (const cs of consumer) {
                    slicer.restart();
                    let n = 0;
                    for (const ch of cs.changes) {
                        // A large changeset is fanned out in slices: the agent's thread stays free for others.
                        if (++n % 256 === 0 && slicer.due)
                            await slicer.pause();
                        const sinks = this.#sinks.get(ch.table);
                        if (!sinks)
                            continue;
                        const u = { kind: ch.kind === 'delete' ? 'delete' : 'update', pk: ch.pk };
                        for (const [sink, after] of sinks)
                            if (cs.seq > after)
                                sink.update(u);
                    }
                }
            }
            catch (err) {
                if (this.#consumer !== consumer)
                    return;
                this.#consumer = null;
                const all = [...this.#sinks.values()].flatMap((m) => [...m.keys()]);
                this.#sinks.clear();
                this.#count = 0;
                const why = `update stream fell too far behind the writes and was closed (${err.message}); reconnect to resume`;
                for (const s of all)
                    s.fail(why);
            }
        })();
    }
}
exports.TableUpdates = TableUpdates;
//# sourceMappingURL=table-updates.js.map