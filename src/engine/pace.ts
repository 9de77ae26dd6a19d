// Long synchronous loops on the agent's thread (a merge of a large remote changeset, the read of one
// to send to a peer) let the event loop turn every SLICE_MS: 100,000 rows are seconds of work, far
// more on a busy machine, and in one go they held every HTTP and PG answer and the answers to peers'
// probes that long, so the peers took the agent for suspect or down while it worked. The caller keeps
// whatever it holds (the writer lease, a read transaction) across the turns.

/** The longest such a loop runs without letting the event loop turn, ms. */
export const SLICE_MS = 20;

export class Pace {
  #rows = 0;
  #since = performance.now();

  /** Whether the slice is over (the clock is read every 64 calls). */
  due(): boolean {
    return (++this.#rows & 63) === 0 && performance.now() - this.#since >= SLICE_MS;
  }

  /** Lets the event loop turn (timers, sockets), then starts the next slice. */
  async breathe(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.#since = performance.now();
  }
}
