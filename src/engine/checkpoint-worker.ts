// The checkpointer's thread (checkpointer.ts): copies committed WAL frames into the database file,
// with the fsyncs that takes, away from the agent's thread. A PASSIVE checkpoint never waits for
// the writer or readers, and the writer never waits for it.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database((workerData as { path: string }).path, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 0');

parentPort!.on('message', (m: string) => {
  if (m !== 'checkpoint') return;
  let error: string | null = null;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    error = (err as Error).message; // SQLITE_BUSY: another checkpoint runs; the next request retries
  }
  parentPort!.postMessage({ error });
});
