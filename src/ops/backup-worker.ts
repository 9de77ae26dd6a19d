// The backup's worker thread: VACUUM INTO from a read-only connection of its own. It reads in one
// read transaction (a WAL snapshot), so the copy is exactly the committed state when it began,
// while the agent's writer goes on; then it marks the copy as a backup.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { db, out, markKey, mark } = workerData as { db: string; out: string; markKey: string; mark: string };
try {
  const src = new Database(db, { readonly: true, fileMustExist: true });
  try {
    src.pragma('busy_timeout = 5000');
    src.prepare('VACUUM INTO ?').run(out);
  } finally {
    src.close();
  }
  const copy = new Database(out);
  try {
    copy
      .prepare(
        'INSERT INTO __patina_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      )
      .run(markKey, mark);
    copy.pragma('journal_mode = DELETE'); // one self-contained file
  } finally {
    copy.close();
  }
  parentPort!.postMessage({ ok: true });
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message });
}
