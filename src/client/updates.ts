import { Backoff, sleep } from './backoff.js';
import { PatinaError, fetchError } from './errors.js';
import type { Transport } from './http.js';
import { ndjsonLines, streamWatchdog } from './ndjson.js';
import type { Cell, RetryOptions } from './types.js';
import { parseLine } from './wire.js';

/** What a table update stream reports. */
export type UpdateEvent =
  /** A row of the table changed (an insert is an 'update'); `key` is its primary key in key order. */
  | { type: 'notify'; kind: 'update' | 'delete'; key: Cell[] }
  /**
   * Notifications may have been missed: the stream was connected again after it dropped (it has no
   * resume point), or the consumer fell more than `maxBufferedEvents` behind. Treat what you
   * cached as stale.
   */
  | { type: 'gap'; reason: 'reconnected' | 'overflow'; error?: PatinaError };

export interface UpdatesOptions {
  signal?: AbortSignal;
  retry?: RetryOptions;
  /** Notifications held for a consumer slower than the agent (default 100,000); past it, one gap. */
  maxBufferedEvents?: number;
  /** Seconds of silence after which the agent sends an empty line (default 10; 0 for none); see SubscribeOptions. */
  heartbeat?: number;
}

/**
 * POST /v1/updates/{table} as an async iterable. The stream is read as fast as the agent sends (so
 * a slow consumer is not cut off by the agent), reconnecting after a dropped connection with
 * backoff and jitter until `retry.giveUpAfterMs` of failures (then a PatinaError of kind
 * 'gave-up'). An unknown table is a PatinaError at once. Leaving the loop closes the stream.
 */
export async function* tableUpdates(
  t: Transport,
  table: string,
  opts: UpdatesOptions = {},
): AsyncGenerator<UpdateEvent> {
  if (typeof table !== 'string' || table === '') throw new PatinaError('request', 'updates needs a table name');
  const reader = new UpdateReader(t, table, opts);
  try {
    yield* reader.events();
  } finally {
    reader.close();
  }
}

class UpdateReader {
  readonly #t: Transport;
  readonly #table: string;
  readonly #opts: UpdatesOptions;
  readonly #stop = new AbortController();
  readonly #max: number;
  #queue: UpdateEvent[] = [];
  #wake: (() => void) | null = null;
  #done = false;
  #error: PatinaError | null = null;
  #onAbort: (() => void) | null = null;

  constructor(t: Transport, table: string, opts: UpdatesOptions) {
    this.#t = t;
    this.#table = table;
    this.#opts = opts;
    this.#max = opts.maxBufferedEvents ?? 100_000;
    const signal = opts.signal;
    const onAbort = () =>
      this.#fail(new PatinaError('aborted', `the update stream of ${table} was aborted`, 0, { cause: signal?.reason }));
    if (signal?.aborted) onAbort();
    else {
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#onAbort = onAbort;
      void this.#run();
    }
  }

  async *events(): AsyncGenerator<UpdateEvent> {
    for (;;) {
      const ev = this.#queue.shift();
      if (ev) {
        yield ev;
        continue;
      }
      if (this.#done) {
        if (this.#error) throw this.#error;
        return;
      }
      await new Promise<void>((r) => (this.#wake = r));
    }
  }

  close(): void {
    this.#done = true;
    if (this.#onAbort) this.#opts.signal?.removeEventListener('abort', this.#onAbort);
    this.#stop.abort();
    this.#wakeUp();
  }

  #fail(err: PatinaError): void {
    if (this.#done) return;
    this.#error = err;
    this.close();
  }

  #push(ev: UpdateEvent): void {
    if (this.#done) return;
    if (this.#queue.length >= this.#max) this.#queue = [{ type: 'gap', reason: 'overflow' }];
    this.#queue.push(ev);
    this.#wakeUp();
  }

  #wakeUp() {
    const w = this.#wake;
    this.#wake = null;
    w?.();
  }

  async #run(): Promise<void> {
    const t = this.#t;
    const backoff = new Backoff(this.#opts.retry);
    let lastError: PatinaError | null = null;
    const heartbeat = this.#opts.heartbeat ?? 10;
    if (!Number.isInteger(heartbeat) || heartbeat < 0 || heartbeat > 3600)
      return this.#fail(new PatinaError('request', `heartbeat must be whole seconds from 0 to 3600, got ${heartbeat}`));
    while (!this.#done) {
      const conn = new AbortController();
      const stop = () => conn.abort(this.#stop.signal.reason);
      this.#stop.signal.addEventListener('abort', stop, { once: true });
      // The agent answers an update stream's headers at once: they are watched too.
      const watchdog = streamWatchdog(conn, t.base);
      watchdog.expect(heartbeat);
      try {
        const res = await t.send(
          'POST',
          `/v1/updates/${encodeURIComponent(this.#table)}${heartbeat ? `?heartbeat=${heartbeat}` : ''}`,
          undefined,
          conn.signal,
        );
        backoff.connected();
        if (lastError) this.#push({ type: 'gap', reason: 'reconnected', error: lastError });
        watchdog.response(res);
        for await (const line of ndjsonLines(res.body, watchdog.touch)) {
          if (this.#done) return;
          const ev = parseLine(line, t.ints);
          if ('notify' in ev) {
            backoff.progressed();
            this.#push({ type: 'notify', kind: ev.notify[0], key: ev.notify[1] });
          } else if ('error' in ev) throw new PatinaError('stream', ev.error, res.status);
        }
        throw new PatinaError(
          'network',
          `the agent at ${t.base} closed the update stream of ${this.#table}`,
          res.status,
        );
      } catch (err) {
        if (this.#done) return;
        const e = watchdog.error() ?? fetchError(err, t.base, this.#stop.signal);
        if (e.kind === 'aborted' || e.kind === 'request') return this.#fail(e);
        lastError = e;
      } finally {
        watchdog.stop();
        this.#stop.signal.removeEventListener('abort', stop);
      }
      const wait = backoff.next();
      if (wait === null) {
        return this.#fail(
          new PatinaError(
            'gave-up',
            `gave up on the update stream of ${this.#table} after ${Math.round(backoff.failingForMs / 1000)} s of failed attempts (${backoff.attempt}); last error: ${lastError.message}`,
            lastError.status,
            { cause: lastError },
          ),
        );
      }
      await sleep(wait, this.#stop.signal);
    }
  }
}
