import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { errorFields, log } from '../observability/log';

/**
 * Commits after which a checkpoint is asked for (about 5 WAL pages each for a one-row write, so the
 * WAL stays near 20 MB). Every checkpoint costs two fsyncs and a copy of each page written since the
 * last one; at 1000 rather than 100 commits the hot pages (meta, the clock index's right edge) are
 * copied once per 1000 writes and the fsyncs are shared by ten times as many: one-client PG writes
 * measured about 10% less CPU each (README, "Writes").
 */
const EVERY_COMMITS = 1000;
/** A checkpoint is asked for at least this often while commits come. */
const EVERY_MS = 1000;
/** SQLite's own default, put back if the thread goes away. */
const AUTOCHECKPOINT_PAGES = 1000;
/**
 * WAL frames from which the thread makes the WAL start over (checkpoint-worker.ts): 16,384 frames,
 * 64 MiB with 4 KiB pages. The file keeps its size and is written again from its start: cutting it
 * back (journal_size_limit) is done by the writer at its next commit, and truncating a few hundred
 * MB held the agent's thread for up to 300 ms (measured).
 */
const RESTART_FRAMES = 16384;

/**
 * Checkpoints of the WAL on a thread of their own. SQLite's automatic checkpoint runs inside the
 * COMMIT that crosses 1000 WAL pages, on the agent's thread, and with synchronous = NORMAL it fsyncs
 * the WAL and the database file there: every ~200 one-row writes, one write held the thread for
 * milliseconds (two thirds of the mean cost of a COMMIT, measured). Here the writer's automatic
 * checkpoints are off and this thread runs PASSIVE ones after every EVERY_COMMITS commits or
 * EVERY_MS, and makes the WAL start over once it holds RESTART_FRAMES (see checkpoint-worker.ts): with
 * a `hold`, the writer is held back for that moment (never made to wait inside SQLite, where a slow
 * disk made its busy timeout run out); without, the thread takes the lock when it finds it free.
 * Durability does not change: a commit is in the WAL before it is acknowledged either way.
 */
export class Checkpointer {
  readonly #worker: Worker;
  readonly #writer: Database.Database;
  #commits = 0;
  #busy = false;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  /** Holds the agent's writer back (its lease), for a RESTART that must find the lock free; null: none. */
  readonly #hold: (() => Promise<() => void>) | null;
  #release: (() => void) | null = null;

  constructor(file: string, writer: Database.Database, hold: (() => Promise<() => void>) | null = null) {
    this.#writer = writer;
    this.#hold = hold;
    this.#worker = new Worker(path.join(__dirname, 'checkpoint-worker.js'), {
      workerData: { path: file, restartFrames: RESTART_FRAMES, held: hold !== null },
    });
    this.#worker.unref();
    this.#worker.on('message', (m: { large?: boolean }) => {
      this.#busy = false;
      this.#release?.();
      this.#release = null;
      // The WAL did not start over (the writer's lock was always taken, or a reader held the WAL):
      // with a hold, the writer waits while the thread does it; without, the thread tries again now.
      if (m.large) {
        if (this.#hold) void this.#restartHeld();
        else this.#ask();
      }
    });
    this.#worker.on('error', (err) => this.#fallBack(err));
    this.#worker.on('exit', () => this.#fallBack(null));
    writer.pragma('wal_autocheckpoint = 0');
  }

  /** The writer committed (called on the agent's thread after every COMMIT). */
  committed(): void {
    if (this.#closed) return;
    if (++this.#commits >= EVERY_COMMITS) this.#ask();
    else this.#timer ??= setTimeout(() => this.#ask(), EVERY_MS).unref();
  }

  #ask() {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#busy || this.#closed) return;
    this.#commits = 0;
    this.#busy = true;
    this.#worker.postMessage('checkpoint');
  }

  /**
   * Takes the writer (writes queue meanwhile; the agent's thread goes on), lets the thread copy the
   * last frames and make the WAL start over with the lock free, and gives the writer back when it
   * answers: a few milliseconds, about once per RESTART_FRAMES.
   */
  async #restartHeld(): Promise<void> {
    if (this.#busy || this.#closed) return;
    this.#busy = true;
    try {
      const release = await this.#hold!();
      if (this.#closed) return release();
      this.#release = release;
      this.#worker.postMessage('restart');
    } catch {
      this.#busy = false; // the writer is closing
    }
  }

  /** The thread failed or ended: SQLite's automatic checkpoints take over again. */
  #fallBack(err: unknown) {
    this.#release?.(); // a restart under way: the writer must not stay held
    this.#release = null;
    if (this.#closed) return;
    this.#closed = true;
    if (err) log.error(errorFields(err), 'the checkpoint thread failed; checkpoints run on commit again');
    if (this.#writer.open) this.#writer.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  }

  /** Stops the thread (the engine checkpoints once more itself when it closes). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#release?.();
    this.#release = null;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#worker.terminate();
  }
}
