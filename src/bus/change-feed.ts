import type { ChangeFeed, Changeset, FeedConsumer } from './changeset';
import { errorFields, log } from '../observability/log';

/**
 * The in-process change-feed bus. `publish` runs at commit, in commit order, and stamps each
 * changeset with the next `seq`; observers run synchronously inside it; consumers each get a
 * bounded queue, so one slow consumer costs only its own queue and is dropped when it overflows.
 */
export class InProcessChangeFeed implements ChangeFeed {
  #seq = 0;
  readonly #observers = new Set<(cs: Changeset) => void>();
  readonly #consumers = new Set<QueueConsumer>();
  /** Where an observer's exception goes (it must not undo a commit that already happened). */
  readonly #onObserverError: (err: unknown) => void;

  constructor(opts: { onObserverError?: (err: unknown) => void } = {}) {
    this.#onObserverError =
      opts.onObserverError ?? ((err) => log.error(errorFields(err), 'change feed observer failed'));
  }

  /** The seq of the last published changeset (0 before any). */
  get lastSeq(): number {
    return this.#seq;
  }

  publish(cs: Changeset): void {
    cs.seq = ++this.#seq;
    for (const fn of this.#observers) {
      try {
        fn(cs);
      } catch (err) {
        this.#onObserverError(err);
      }
    }
    for (const c of this.#consumers) c._push(cs);
  }

  observe(fn: (cs: Changeset) => void): () => void {
    const own = (cs: Changeset) => fn(cs); // a distinct entry even if the same fn observes twice
    this.#observers.add(own);
    return () => this.#observers.delete(own);
  }

  consume(name: string, capacity: number): FeedConsumer {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`consumer capacity must be a positive integer, got ${capacity}`);
    const c = new QueueConsumer(name, capacity, (x) => this.#consumers.delete(x));
    this.#consumers.add(c);
    return c;
  }
}

/** Thrown by a lagged consumer's next(). */
export class ConsumerLaggedError extends Error {
  constructor(name: string, capacity: number) {
    super(`change feed consumer "${name}" fell more than ${capacity} changesets behind and was dropped`);
    this.name = 'ConsumerLaggedError';
  }
}

class QueueConsumer implements FeedConsumer {
  readonly #name: string;
  readonly #capacity: number;
  readonly #detach: (c: QueueConsumer) => void;
  // A queue with a moving head, compacted when half of it is consumed.
  #queue: Changeset[] = [];
  #head = 0;
  #lagged = false;
  #closed = false;
  #waiter: { resolve: (r: IteratorResult<Changeset>) => void; reject: (e: Error) => void } | null = null;

  constructor(name: string, capacity: number, detach: (c: QueueConsumer) => void) {
    this.#name = name;
    this.#capacity = capacity;
    this.#detach = detach;
  }

  get lagged(): boolean {
    return this.#lagged;
  }

  _push(cs: Changeset): void {
    if (this.#closed || this.#lagged) return;
    if (this.#waiter) {
      const w = this.#waiter;
      this.#waiter = null;
      w.resolve({ value: cs, done: false });
      return;
    }
    if (this.#queue.length - this.#head >= this.#capacity) {
      // Over capacity: drop what is queued and stop receiving; next() says so.
      this.#lagged = true;
      this.#queue = [];
      this.#head = 0;
      this.#detach(this);
      return;
    }
    this.#queue.push(cs);
  }

  next(): Promise<IteratorResult<Changeset>> {
    if (this.#head < this.#queue.length) {
      const cs = this.#queue[this.#head++];
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ value: cs, done: false });
    }
    if (this.#lagged) return Promise.reject(new ConsumerLaggedError(this.#name, this.#capacity));
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    if (this.#waiter) return Promise.reject(new Error(`change feed consumer "${this.#name}" is already being read`));
    return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<Changeset>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    this.#head = 0;
    this.#detach(this);
    const w = this.#waiter;
    this.#waiter = null;
    w?.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
