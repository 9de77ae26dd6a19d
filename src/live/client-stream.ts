import { errorLine } from './events';

const CHUNK_LINES = 256;

/** What the streams of all clients did, counted for the metrics and the log. */
export interface ClientTally {
  /** Change lines sent live to clients. */
  sent: number;
  /** A client was cut off for falling behind. */
  cutOff(limit: number): void;
}

/**
 * One listener of a subscription: a bounded queue of change lines between the subscription (which
 * pushes at commit, never waiting) and the client's socket (which pulls as fast as it reads). A
 * client that lets more than `limit` events pile up is cut off with an error line, so a slow
 * reader costs bounded memory and never slows the others.
 */
export class ClientStream {
  readonly #limit: number;
  #queue: string[] = [];
  #error: string | null = null;
  #closed = false;
  #wake: (() => void) | null = null;
  readonly #onClose: () => void;
  readonly #tally: ClientTally | null;

  constructor(limit: number, onClose: () => void, tally: ClientTally | null = null) {
    this.#limit = limit;
    this.#onClose = onClose;
    this.#tally = tally;
  }

  /** Queues the lines of one transaction's changes, all or none. */
  push(lines: readonly string[]): void {
    if (this.#closed || this.#error !== null) return;
    if (this.#queue.length + lines.length > this.#limit) {
      this.#tally?.cutOff(this.#limit);
      this.fail(`the client fell behind: more than ${this.#limit} events were waiting to be sent; resume with GET /v1/subscriptions/{id}?from=<last change id seen>`);
      return;
    }
    for (const l of lines) this.#queue.push(l);
    this.#signal();
  }

  /** Ends the stream with an error line after what was already sent. */
  fail(message: string): void {
    if (this.#closed || this.#error !== null) return;
    this.#error = message;
    this.#queue = [];
    this.#signal();
  }

  get pending(): number {
    return this.#queue.length;
  }

  /** The lines to send: `prefix` first (rows or a backfill of changes), then live changes until the end. */
  async *lines(prefix: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
    try {
      for await (const l of prefix) {
        if (this.#error !== null || this.#closed) break;
        yield l;
      }
      for (;;) {
        if (this.#closed) return;
        if (this.#error !== null) {
          yield errorLine(this.#error);
          return;
        }
        if (this.#queue.length > 0) {
          const chunk = this.#queue.length <= CHUNK_LINES ? this.#queue.splice(0) : this.#queue.splice(0, CHUNK_LINES);
          if (this.#tally) this.#tally.sent += chunk.length;
          yield chunk.join('');
          continue;
        }
        await new Promise<void>((r) => (this.#wake = r));
      }
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    this.#signal();
    this.#onClose();
  }

  #signal() {
    const w = this.#wake;
    this.#wake = null;
    w?.();
  }
}
