"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.Checkpointer = void 0;
const node_path_1 = __importDefault(require("node:path"));
const node_worker_threads_1 = require("node:worker_threads");
const log_1 = require("../observability/log");
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
 * EVERY_MS, and makes the WAL start over once it holds RESTART_FRAMES (see checkpoint-worker.ts); when
 * the writer's lock is never free for it, the writer is held back for that moment.
 * Durability does not change: a commit is in the WAL before it is acknowledged either way.
 */
class Checkpointer {
    #worker;
    #writer;
    #commits = 0;
    #busy = false;
    #timer = null;
    #closed = false;
    /** Holds the agent's writer back (its lease), for a RESTART that must find the lock free; null: none. */
    #hold;
    #release = null;
    constructor(file, writer, hold = null) {
        this.#writer = writer;
        this.#hold = hold;
        this.#worker = new node_worker_threads_1.Worker(node_path_1.default.join(__dirname, 'checkpoint-worker.js'), {
            workerData: { path: file, restartFrames: RESTART_FRAMES },
        });
        this.#worker.unref();
        this.#worker.on('message', (m) => {
            this.#busy = false;
            this.#release?.();
            this.#release = null;
            // The WAL did not start over (the writer's lock was always taken, or a reader held the WAL):
            // with a hold, the writer waits while the thread does it; without, the thread tries again now.
            if (m.large) {
                if (this.#hold)
                    void this.#restartHeld();
                else
                    this.#ask();
            }
        });
        this.#worker.on('error', (err) => this.#fallBack(err));
        this.#worker.on('exit', () => this.#fallBack(null));
        writer.pragma('wal_autocheckpoint = 0');
    }
    /** The writer committed (called on the agent's thread after every COMMIT). */
    committed() {
        if (this.#closed)
            return;
        if (++this.#commits >= EVERY_COMMITS)
            this.#ask();
        else
            this.#timer ??= setTimeout(() => this.#ask(), EVERY_MS).unref();
    }
    #ask() {
        if (this.#timer)
            clearTimeout(this.#timer);
        this.#timer = null;
        if (this.#busy || this.#closed)
            return;
        this.#commits = 0;
        this.#busy = true;
        this.#worker.postMessage('checkpoint');
    }
    /**
     * Takes the writer (writes queue meanwhile; the agent's thread goes on), lets the thread copy the
     * last frames and make the WAL start over with the lock free, and gives the writer back when it
     * answers: a few milliseconds, about once per RESTART_FRAMES.
     */
    async #restartHeld() {
        if (this.#busy || this.#closed)
            return;
        this.#busy = true;
        try {
            const release = await this.#hold();
            if (this.#closed)
                return release();
            this.#release = release;
            this.#worker.postMessage('restart');
        }
        catch {
            this.#busy = false; // the writer is closing
        }
    }
    /** The thread failed or ended: SQLite's automatic checkpoints take over again. */
    #fallBack(err) {
        this.#release?.(); // a restart under way: the writer must not stay held
        this.#release = null;
        if (this.#closed)
            return;
        this.#closed = true;
        if (err)
            log_1.log.error((0, log_1.errorFields)(err), 'the checkpoint thread failed; checkpoints run on commit again');
        if (this.#writer.open)
            this.#writer.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    }
    /** Stops the thread (the engine checkpoints once more itself when it closes). */
    async close() {
        this.#closed = true;
        this.#release?.();
        this.#release = null;
        if (this.#timer)
            clearTimeout(this.#timer);
        await this.#worker.terminate();
    }
}
exports.Checkpointer = Checkpointer;
//# sourceMappingURL=checkpointer.js.map