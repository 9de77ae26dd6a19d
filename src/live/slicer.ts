import { performance } from 'node:perf_hooks';

/** Thrown out of sliced work when it is abandoned (the agent is stopping). */
export class Abandoned extends Error {
  constructor() {
    super('abandoned: the agent is stopping');
  }
}

/**
 * Cooperative time slicing for subscription work on the agent's one thread. Work checks `due` between
 * small steps (a chunk of keys, a page of rows) and, when its slice is used up, awaits `pause()`,
 * which lets the event loop serve sockets, timers and signals before going on. A slice is `budgetMs`
 * long (10 ms: HTTP and PostgreSQL stay answered within a few slices); `budgetMs` Infinity never
 * pauses (an in-memory database, whose reads cannot hold a snapshot across turns).
 */
export class Slicer {
  readonly budgetMs: number;
  #start = performance.now();
  #abandoned = false;

  constructor(budgetMs: number) {
    this.budgetMs = budgetMs;
  }

  /** Whether the current slice is used up. */
  get due(): boolean {
    return this.budgetMs !== Infinity && performance.now() - this.#start >= this.budgetMs;
  }

  /** Yields to the event loop if the slice is used up; throws Abandoned once abandon() was called. */
  async pause(): Promise<void> {
    if (this.#abandoned) throw new Abandoned();
    if (!this.due) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.#abandoned) throw new Abandoned();
    this.#start = performance.now();
  }

  /** Starts a fresh slice (work begins after an idle wait). */
  restart(): void {
    this.#start = performance.now();
  }

  /** Makes every later pause() throw Abandoned. */
  abandon(): void {
    this.#abandoned = true;
  }

  get abandoned(): boolean {
    return this.#abandoned;
  }
}
