// Worker processes that run one job at a time: the read workers (read-pool.ts) and the PG front end's
// catalog workers (protocols/pg/catalog/catalog-workers.ts). Processes, not threads, because
// better-sqlite3 cannot interrupt a running statement: a process stuck in one can be killed (a
// timeout, a cancel, the agent's stop). The pool owns the processes' lives; what a job is, how it is
// sent and how a worker's answers reach it are the user's (PoolHooks).
import { type ChildProcess, fork } from 'node:child_process';
import { PatinaError } from '../errors';

/** One worker process and the job it runs (null while idle or starting). */
export interface PoolSlot<J> {
  readonly worker: ChildProcess;
  job: J | null;
  /** The worker said it is ready (its first `{ type: 'ready' }`); until then it is given no job. */
  ready: boolean;
  idleSince: number;
  /** When the slot's current job started (performance.now()). */
  startedAt: number;
}

export interface PoolHooks<J, M> {
  /** Sends the job to the worker of its slot. */
  start(job: J, slot: PoolSlot<J>): void;
  /** A message of the worker about its job; true when the worker is free again. */
  receive(job: J, message: M): boolean;
  /** The job ends without an answer (its worker exited, the pool closed, no worker could start). */
  fail(job: J, err: PatinaError): void;
  /** The job's worker is free again after `seconds` on it. */
  finished?(job: J, seconds: number): void;
  /** A new worker was started (the catalog workers send it their schema). */
  spawned?(worker: ChildProcess): void;
}

export interface ProcessPoolOptions {
  /** The worker's script and its arguments. */
  script: string;
  args: string[];
  /** What a worker is called in errors ("read worker"). */
  name: string;
  /** Workers kept open while idle (may be raised later: `minWorkers`). */
  minWorkers: number;
  /** Workers at the most; jobs beyond that wait their turn. */
  maxWorkers: number;
  /** A job running this long while no other worker is free or starting starts a spare (it may be a long one). */
  spareAfterMs?: number;
}

/** A worker above minWorkers idle this long is stopped: each is a whole process (tens of MiB). */
const IDLE_RETIRE_MS = 30_000;

/**
 * Each job gets an idle worker, a new one if none is idle (up to maxWorkers). Only a ready worker is
 * idle: one still starting (a new process, hundreds of ms on a loaded machine) joins the idle ones
 * when it says it is ready, so a job never waits for a starting worker while another is free (the
 * replacement of a worker killed at a timeout starts while the next job runs on the spare), and a job
 * that finds none free takes whichever is ready first. A worker that exits before it was ready is not
 * started again in its place (one that cannot start would be restarted in a loop): jobs waiting then
 * start new ones only as they ask, and with no worker left at all each waiting job fails.
 */
export class ProcessPool<J, M extends { type: string }> {
  readonly #opts: ProcessPoolOptions;
  readonly #hooks: PoolHooks<J, M>;
  readonly #slots = new Set<PoolSlot<J>>();
  readonly #idle: PoolSlot<J>[] = [];
  readonly #waiting: J[] = [];
  #closed = false;
  #trimTimer: NodeJS.Timeout | null = null;
  minWorkers: number;

  constructor(opts: ProcessPoolOptions, hooks: PoolHooks<J, M>) {
    this.#opts = opts;
    this.#hooks = hooks;
    this.minWorkers = opts.minWorkers;
    this.fill();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Starts workers up to minWorkers. */
  fill(): void {
    while (!this.#closed && this.#slots.size < this.minWorkers) this.#spawn();
  }

  /** Whether a worker is ready (a job submitted now waits for no process to start). */
  get ready(): boolean {
    for (const s of this.#slots) if (s.ready) return true;
    return false;
  }

  /** Every worker alive or starting. */
  workers(): IterableIterator<PoolSlot<J>> {
    return this.#slots.values();
  }

  /** The workers by state, and the jobs waiting for one. */
  stats(): { workers: number; idle: number; busy: number; starting: number; waiting: number } {
    const starting = this.#starting();
    const idle = this.#idle.length;
    return {
      workers: this.#slots.size,
      idle,
      busy: this.#slots.size - idle - starting,
      starting,
      waiting: this.#waiting.length,
    };
  }

  /** Queues a job; it starts on the first free worker. */
  submit(job: J): void {
    if (this.#closed) throw new PatinaError('unavailable', 'the agent is shutting down');
    this.#waiting.push(job);
    this.#dispatch();
  }

  /** Takes a job that has not started out of the queue. */
  unqueue(job: J): void {
    const i = this.#waiting.indexOf(job);
    if (i >= 0) this.#waiting.splice(i, 1);
  }

  /** Stops the worker of a job stuck in a statement: the process goes (its job is not failed again). */
  kill(slot: PoolSlot<J>): void {
    slot.job = null;
    this.#retire(slot);
    slot.worker.kill('SIGKILL');
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#trimTimer) clearTimeout(this.#trimTimer);
    for (const job of this.#waiting.splice(0))
      this.#hooks.fail(job, new PatinaError('unavailable', 'the agent is shutting down'));
    await Promise.all(
      [...this.#slots].map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.worker.exitCode !== null || s.worker.signalCode !== null) return resolve();
            s.worker.once('exit', () => resolve());
            s.worker.kill('SIGKILL');
          }),
      ),
    );
    this.#slots.clear();
    this.#idle.length = 0;
  }

  #spawn(): void {
    const worker = fork(this.#opts.script, this.#opts.args, {
      serialization: 'advanced', // structured clone: bigint and Buffer cells (and a schema's Maps) cross intact
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [],
    });
    const slot: PoolSlot<J> = { worker, job: null, ready: false, idleSince: Date.now(), startedAt: 0 };
    worker.on('message', (m: M) => {
      if (m.type === 'ready') {
        // (a catalog worker says it again after each new schema)
        if (slot.ready) return;
        slot.ready = true;
        this.#release(slot);
        return;
      }
      const job = slot.job;
      if (job !== null && this.#hooks.receive(job, m)) this.#release(slot);
    });
    worker.on('error', (err) => {
      const job = slot.job;
      slot.job = null;
      if (job !== null) this.#hooks.fail(job, new PatinaError('internal', `${this.#opts.name} failed: ${err.message}`));
      this.#retire(slot);
    });
    worker.on('exit', () => this.#retire(slot));
    worker.unref();
    (worker as unknown as { channel?: { unref(): void } }).channel?.unref();
    this.#slots.add(slot);
    this.#hooks.spawned?.(worker);
  }

  #starting(): number {
    let n = 0;
    for (const s of this.#slots) if (!s.ready) n++;
    return n;
  }

  #dispatch(): void {
    while (this.#waiting.length > 0 && !this.#closed) {
      const slot = this.#idle.pop();
      if (!slot) {
        // none free: start a worker for each waiting job the starting ones will not take
        if (this.#slots.size < this.#opts.maxWorkers && this.#waiting.length > this.#starting()) {
          this.#spawn();
          continue;
        }
        return;
      }
      const job = this.#waiting.shift()!;
      slot.job = job;
      slot.startedAt = performance.now();
      this.#hooks.start(job, slot);
      const spare = this.#opts.spareAfterMs;
      if (spare !== undefined)
        setTimeout(() => {
          if (slot.job !== job || this.#closed || this.#idle.length > 0 || this.#starting() > 0) return;
          if (this.#slots.size < this.#opts.maxWorkers) this.#spawn();
        }, spare).unref();
    }
  }

  #release(slot: PoolSlot<J>): void {
    const job = slot.job;
    slot.job = null;
    if (job !== null) this.#hooks.finished?.(job, (performance.now() - slot.startedAt) / 1000);
    if (!this.#slots.has(slot)) return;
    slot.idleSince = Date.now();
    this.#idle.push(slot);
    this.#dispatch();
    this.#scheduleTrim();
  }

  /** Stops workers beyond minWorkers that stayed idle; #idle is used last-in first-out, so its front is the oldest. */
  #scheduleTrim(): void {
    if (this.#trimTimer || this.#closed || this.#slots.size <= this.minWorkers || this.#idle.length === 0) return;
    const due = Math.max(1000, this.#idle[0].idleSince + IDLE_RETIRE_MS - Date.now());
    this.#trimTimer = setTimeout(() => {
      this.#trimTimer = null;
      const now = Date.now();
      while (
        this.#slots.size > this.minWorkers &&
        this.#idle.length > 0 &&
        now - this.#idle[0].idleSince >= IDLE_RETIRE_MS
      ) {
        const slot = this.#idle.shift()!;
        this.#slots.delete(slot);
        slot.worker.kill('SIGKILL');
      }
      this.#scheduleTrim();
    }, due);
    this.#trimTimer.unref();
  }

  #retire(slot: PoolSlot<J>): void {
    if (!this.#slots.delete(slot)) return;
    const i = this.#idle.indexOf(slot);
    if (i >= 0) this.#idle.splice(i, 1);
    const job = slot.job;
    slot.job = null;
    if (job !== null) this.#hooks.fail(job, new PatinaError('internal', `${this.#opts.name} exited`));
    // A worker that could not start, with no other ready, fails the job it would have taken, as one
    // given it would have (rather than that job waiting on replacements that fail the same way); with
    // no worker left, every waiting job fails (none is started for them).
    if (!slot.ready && !this.ready) {
      const failed = new PatinaError('internal', `${this.#opts.name} exited before it was ready`);
      for (const j of this.#slots.size === 0 ? this.#waiting.splice(0) : this.#waiting.splice(0, 1))
        this.#hooks.fail(j, failed);
    }
    if (!this.#closed) {
      if (slot.ready) this.fill();
      this.#dispatch();
    }
  }
}
