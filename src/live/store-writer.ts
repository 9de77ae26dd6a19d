import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { Checkpointer } from '../engine/checkpointer';
import { applyOps, prepareWrites } from './store-ops';
import { APPLIED, CLOSED, DONE, type StoreAck, type StoreChunk } from './store-writer-protocol';

/**
 * The subscription store's writer thread: owns the store's write connection and commits the
 * transactions the agent's thread sends (see store.ts), in order. Its WAL is checkpointed on a
 * thread of its own, as the data file's is.
 */
const { file, shared } = workerData as { file: string; shared: SharedArrayBuffer };
const state = new Int32Array(shared);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
// The checkpoint thread holds the write lock for a moment when it makes the WAL start over.
db.pragma('busy_timeout = 5000');
const checkpointer = new Checkpointer(file, db);
const st = prepareWrites(db);
let open = false;
let failed: unknown = null;

function done(seq: number) {
  Atomics.store(state, DONE, seq | 0);
  Atomics.notify(state, DONE);
}

parentPort!.on('message', (m: StoreChunk) => {
  if (m.close) {
    void checkpointer.close();
    if (db.inTransaction) db.exec('ROLLBACK');
    db.close();
    Atomics.store(state, CLOSED, 1);
    Atomics.notify(state, CLOSED);
    parentPort!.close();
    return;
  }
  if (m.rollback) {
    if (db.inTransaction) db.exec('ROLLBACK');
    open = false;
    failed = null;
    return;
  }
  if (failed === null) {
    try {
      if (!open) {
        st.begin.run();
        open = true;
      }
      applyOps(st, m.nums!, m.text!);
    } catch (err) {
      failed = err;
    }
  }
  Atomics.add(state, APPLIED, 1);
  if (m.seq === 0) return; // more of this transaction comes
  let error: string | undefined;
  if (failed === null) {
    try {
      st.commit.run();
      checkpointer.committed();
    } catch (err) {
      failed = err;
    }
  }
  if (failed !== null) {
    error = failed instanceof Error ? failed.message : String(failed);
    try {
      if (db.inTransaction) db.exec('ROLLBACK');
    } catch {
      // SQLite rolled it back itself
    }
    // The stored results may now miss changes: a start-up re-runs every subscription.
    try {
      db.prepare("DELETE FROM state WHERE key = 'matched'").run();
    } catch {
      // the file cannot be written at all
    }
  }
  open = false;
  failed = null;
  done(m.seq);
  parentPort!.postMessage({ seq: m.seq, error } satisfies StoreAck);
});
