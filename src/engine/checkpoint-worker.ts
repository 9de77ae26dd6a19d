// The checkpointer's thread (checkpointer.ts): copies committed WAL frames into the database file,
// with the fsyncs that takes, away from the agent's thread. A PASSIVE checkpoint never waits for
// the writer or readers, and the writer never waits for it.
//
// A PASSIVE checkpoint alone lets the WAL grow without end under steady writes: SQLite starts the
// WAL over from its beginning only when a writer finds every frame already copied, and a checkpoint
// that runs beside a writer committing every few hundred microseconds never catches up with it (3 GB
// in 11 s, measured with 4-row commits back to back). So once the WAL holds RESTART_FRAMES frames,
// a RESTART checkpoint follows: it copies the frames written since the PASSIVE one and returns with
// every frame copied, and the writer's next transaction starts the WAL over (unless a reader still
// reads an older snapshot from it; then a later round tries again). A RESTART takes the writer's lock
// for that copy and its fsyncs, so it runs only while the writer is still:
//   - `held` (the data file's writer): the agent holds its writer back (checkpointer.ts) and sends
//     'restart'; the round itself never takes the writer's lock. A RESTART tried beside the writer
//     made the writer's BEGIN IMMEDIATE wait in SQLite's busy handler, on the agent's thread, for the
//     copy and two fsyncs, and when the disk was slow (other processes writing) longer than its
//     5 s busy timeout: a client's write failed with `database is locked` (pgbench TPC-B, 3 of
//     about 20 runs of 8 s on a loaded machine). Held, the writes queue in the agent meanwhile and
//     its thread goes on.
//   - not held (the subscription store, whose writer has no queue to hold): the round tries RESTART
//     (only when the lock is free: no busy wait here) once little is left to copy (CATCH_UP_FRAMES),
//     and the writer waits for it in its busy timeout.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { path, restartFrames, held } = workerData as { path: string; restartFrames: number; held: boolean };
/** RESTART attempts per round while the writer's lock is taken, 1 ms apart. */
const RESTART_TRIES = 50;
/** At most this many frames left to copy when a RESTART is tried (the copy it does under the lock). */
const CATCH_UP_FRAMES = 256;

const db = new Database(path, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 0');
const pause = new Int32Array(new SharedArrayBuffer(4));

interface Result {
  busy: number;
  log: number;
  checkpointed: number;
}

function checkpoint(mode: 'PASSIVE' | 'RESTART'): Result {
  return (db.pragma(`wal_checkpoint(${mode})`) as Result[])[0];
}

parentPort!.on('message', (m: string) => {
  if (m === 'restart') {
    // The agent holds its writer back meanwhile (checkpointer.ts): the lock is free, one try does it.
    let error: string | null = null;
    let restarted = false;
    try {
      checkpoint('PASSIVE');
      const r = checkpoint('RESTART');
      restarted = r.checkpointed === r.log;
    } catch (err) {
      error = (err as Error).message;
    }
    parentPort!.postMessage({ error, restarted, large: false });
    return;
  }
  if (m !== 'checkpoint') return;
  let error: string | null = null;
  let restarted = false;
  let large = false;
  try {
    let r = checkpoint('PASSIVE');
    large = r.log >= restartFrames;
    for (let i = 0; !held && r.log >= restartFrames && i < RESTART_TRIES; i++) {
      // Copy without the lock until little is left, so that the RESTART holds it only briefly.
      r = checkpoint('PASSIVE');
      if (r.log - r.checkpointed > CATCH_UP_FRAMES) continue;
      r = checkpoint('RESTART');
      // Every frame copied: the writer's next transaction starts the WAL over (no reader in it).
      if (r.checkpointed === r.log) {
        restarted = true;
        break;
      }
      Atomics.wait(pause, 0, 0, 1);
    }
  } catch (err) {
    error = (err as Error).message; // SQLITE_BUSY: another checkpoint runs; the next request retries
  }
  // Still large: the checkpointer holds the writer for a 'restart' (held), or asks again at once
  // rather than after its next commits.
  parentPort!.postMessage({ error, restarted, large: large && !restarted });
});
