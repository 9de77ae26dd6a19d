import { Backoff, sleep } from './backoff.js';
import { PatinaError, fetchError } from './errors.js';
import type { Transport } from './http.js';
import { ndjsonLines } from './ndjson.js';
import type { Cell, RetryOptions } from './types.js';
import { parseLine } from './wire.js';

/** What a table update stream reports. */
export type UpdateEvent =
  /** A row of the table changed (an insert is an 'update'); `key` is its primary key in key order. */
  | { type: 'notify'; kind: 'update' | 'delete'; key: Cell[] }
  /**
   * The stream was connected again after it dropped: changes made while it was down were not
   * reported (the stream has no resume point), so treat everything cached as possibly stale.
   */
  | { type: 'reconnected'; error: PatinaError };

export interface UpdatesOptions {
  signal?: AbortSignal;
  retry?: RetryOptions;
}

/**
 * POST /v1/updates/{table} as an async iterable: notify events for as long as the caller reads,
 * reconnecting after a dropped connection with backoff and jitter, until `retry.giveUpAfterMs` of
 * failures (then a PatinaError of kind 'gave-up'). An unknown table is a PatinaError at once.
 */
export async function* tableUpdates(t: Transport, table: string, opts: UpdatesOptions = {}): AsyncGenerator<UpdateEvent> {
  if (typeof table !== 'string' || table === '') throw new PatinaError('request', 'updates needs a table name');
  const backoff = new Backoff(opts.retry);
  const stop = new AbortController();
  const onAbort = () => stop.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();
  let lastError: PatinaError | null = null;
  try {
    for (;;) {
      let res: Response | null = null;
      try {
        res = await t.send('POST', `/v1/updates/${encodeURIComponent(table)}`, undefined, stop.signal);
        backoff.connected();
        if (lastError) yield { type: 'reconnected', error: lastError };
        for await (const line of ndjsonLines(res.body)) {
          const ev = parseLine(line, t.ints);
          if ('notify' in ev) {
            backoff.progressed();
            yield { type: 'notify', kind: ev.notify[0], key: ev.notify[1] };
          } else if ('error' in ev) throw new PatinaError('stream', ev.error, res.status);
        }
        throw new PatinaError('network', `the agent at ${t.base} closed the update stream of ${table}`, res.status);
      } catch (err) {
        const e = fetchError(err, t.base, stop.signal);
        if (e.kind === 'aborted' || e.kind === 'request') throw e;
        lastError = e;
      }
      const wait = backoff.next();
      if (wait === null) throw new PatinaError('gave-up', `gave up on the update stream of ${table} after ${Math.round(backoff.failingForMs / 1000)} s of failed attempts (${backoff.attempt}); last error: ${lastError.message}`, lastError.status, { cause: lastError });
      await sleep(wait, stop.signal);
      if (stop.signal.aborted) throw fetchError(new Error('aborted'), t.base, stop.signal);
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}
