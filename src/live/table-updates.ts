import type { ChangeFeed, FeedConsumer } from '../bus/changeset';
import { PatinaError } from '../errors';
import { log } from '../observability/log';
import type { Schema } from '../engine/schema/model';
import type { SqlValue } from '../engine/values';

/** One changed primary key of a table, as the update stream reports it (an insert is an update). */
export interface TableUpdate {
  kind: 'update' | 'delete';
  pk: SqlValue[];
}

/** Where a table's updates go: one open update stream. */
export interface UpdateSink {
  update(u: TableUpdate): void;
  /** A fatal error: the sink is removed and must end its stream. */
  fail(message: string): void;
  /** The agent is stopping. */
  end(): void;
}

/**
 * Table update streams: every open stream of every table shares one consumer of the change feed,
 * started with the first stream and closed with the last, and fanned out by table. Each stream
 * sees only changesets committed after it started.
 */
export class TableUpdates {
  readonly #feed: ChangeFeed;
  readonly #schema: () => Schema;
  readonly #capacity: number;
  readonly #sinks = new Map<string, Map<UpdateSink, number>>();
  #count = 0;
  #consumer: FeedConsumer | null = null;
  #published = 0;

  constructor(feed: ChangeFeed, schema: () => Schema, opts: { capacity: number }) {
    this.#feed = feed;
    this.#schema = schema;
    this.#capacity = opts.capacity;
    // The seq published last, so a new stream skips changesets already queued when it starts.
    feed.observe((cs) => (this.#published = cs.seq));
  }

  /** Starts sending the updates of `table` to `sink`; throws not-found for an unknown table or one without a primary key. Returns the stop function. */
  watch(table: string, sink: UpdateSink): () => void {
    const def = this.#schema().tables.get(table);
    if (!def || def.primaryKey.length === 0) throw new PatinaError('not-found', `table not found in schema: ${table}`);
    let sinks = this.#sinks.get(table);
    if (!sinks) this.#sinks.set(table, (sinks = new Map()));
    sinks.set(sink, this.#published);
    this.#count++;
    if (!this.#consumer) this.#start();
    return () => this.#remove(table, sink);
  }

  /** How many streams are open. */
  get streams(): number {
    return this.#count;
  }

  /** Streams cut off for leaving too much unread, since start. */
  cutOffs = 0;

  cutOff(table: string, bytes: number): void {
    this.cutOffs++;
    log.warn({ table, unread_bytes_limit: bytes }, 'update stream client cut off: it left too much unread');
  }

  /** Ends every stream (the agent is stopping). */
  close(): void {
    const all = [...this.#sinks.values()].flatMap((m) => [...m.keys()]);
    this.#sinks.clear();
    this.#count = 0;
    this.#consumer?.close();
    this.#consumer = null;
    for (const s of all) s.end();
  }

  #remove(table: string, sink: UpdateSink) {
    const sinks = this.#sinks.get(table);
    if (!sinks?.delete(sink)) return;
    this.#count--;
    if (sinks.size === 0) this.#sinks.delete(table);
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
        for await (const cs of consumer) {
          for (const ch of cs.changes) {
            const sinks = this.#sinks.get(ch.table);
            if (!sinks) continue;
            const u: TableUpdate = { kind: ch.kind === 'delete' ? 'delete' : 'update', pk: ch.pk };
            for (const [sink, after] of sinks) if (cs.seq > after) sink.update(u);
          }
        }
      } catch (err) {
        if (this.#consumer !== consumer) return;
        this.#consumer = null;
        const all = [...this.#sinks.values()].flatMap((m) => [...m.keys()]);
        this.#sinks.clear();
        this.#count = 0;
        const why = `update stream fell too far behind the writes and was closed (${(err as Error).message}); reconnect to resume`;
        for (const s of all) s.fail(why);
      }
    })();
  }
}
