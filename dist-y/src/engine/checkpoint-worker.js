"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The checkpointer's thread (checkpointer.ts): copies committed WAL frames into the database file,
// with the fsyncs that takes, away from the agent's thread. A PASSIVE checkpoint never waits for
// the writer or readers, and the writer never waits for it.
//
// A PASSIVE checkpoint alone lets the WAL grow without end under steady writes: SQLite starts the
// WAL over from its beginning only when a writer finds every frame already copied, and a checkpoint
// that runs beside a writer committing every few hundred microseconds never catches up with it (3 GB
// in 11 s, measured with 4-row commits back to back). So once the WAL holds RESTART_FRAMES frames,
// the thread follows its PASSIVE checkpoint with RESTART ones: a RESTART takes the writer's lock
// (only when it is free: no busy wait here), copies the few frames written since a PASSIVE one
// (tried again until at most CATCH_UP_FRAMES are left) and returns; the
// writer's next transaction then starts the WAL over, unless a reader still reads an older snapshot
// from it (then a later round tries again). While it holds the lock the writer waits for it (its
// busy timeout), for the copy of those few frames and one fsync: about once per RESTART_FRAMES.
const node_worker_threads_1 = require("node:worker_threads");
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const { path, restartFrames } = node_worker_threads_1.workerData;
/** RESTART attempts per round while the writer's lock is taken, 1 ms apart. */
const RESTART_TRIES = 50;
/** At most this many frames left to copy when a RESTART is tried (the copy it does under the lock). */
const CATCH_UP_FRAMES = 256;
const db = new better_sqlite3_1.default(path, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 0');
const pause = new Int32Array(new SharedArrayBuffer(4));
function checkpoint(mode) {
    return db.pragma(`wal_checkpoint(${mode})`)[0];
}
node_worker_threads_1.parentPort.on('message', (m) => {
    if (m === 'restart') {
        // The agent holds its writer back meanwhile (checkpointer.ts): the lock is free, one try does it.
        let error = null;
        let restarted = false;
        try {
            checkpoint('PASSIVE');
            const r = checkpoint('RESTART');
            restarted = r.checkpointed === r.log;
        }
        catch (err) {
            error = err.message;
        }
        node_worker_threads_1.parentPort.postMessage({ error, restarted, large: false });
        return;
    }
    if (m !== 'checkpoint')
        return;
    let error = null;
    let restarted = false;
    let large = false;
    try {
        let r = checkpoint('PASSIVE');
        large = r.log >= restartFrames;
        for (let i = 0; r.log >= restartFrames && i < RESTART_TRIES; i++) {
            // Copy without the lock until little is left, so that the RESTART holds it only briefly.
            r = checkpoint('PASSIVE');
            if (r.log - r.checkpointed > CATCH_UP_FRAMES)
                continue;
            r = checkpoint('RESTART');
            // Every frame copied: the writer's next transaction starts the WAL over (no reader in it).
            if (r.checkpointed === r.log) {
                restarted = true;
                break;
            }
            Atomics.wait(pause, 0, 0, 1);
        }
    }
    catch (err) {
        error = err.message; // SQLITE_BUSY: another checkpoint runs; the next request retries
    }
    // Still large: the checkpointer asks again at once rather than after its next commits.
    node_worker_threads_1.parentPort.postMessage({ error, restarted, large: large && !restarted });
});
//# sourceMappingURL=checkpoint-worker.js.map