// Full re-runs of keyed and multiset subscriptions, on a thread of their own so that a heavy query
// never holds up the agent's thread (and with it the writer). Each request runs all its queries in
// one read transaction and answers with the commit position that transaction saw.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { installReadFunctions } from '../engine/functions';
import type { SnapshotRequest, SnapshotResult } from './snapshot-runner';
import { Lru } from '../lru';

const { path, positionSql } = workerData as { path: string; positionSql: string };
const db = new Database(path, { readonly: true, fileMustExist: true });
db.defaultSafeIntegers(true);
db.pragma('busy_timeout = 5000');
installReadFunctions(db);
const position = db.prepare(positionSql).pluck();
const cache = new Lru<string, Database.Statement>(256);

const bindable = (v: unknown) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v);

parentPort!.on('message', (req: SnapshotRequest) => {
  const out: SnapshotResult = { id: req.id, position: 0, results: [] };
  try {
    db.exec('BEGIN');
    out.position = Number((position.get() as bigint | null | undefined) ?? 0);
    for (const job of req.jobs) {
      try {
        let st = cache.get(job.sql);
        if (!st) {
          cache.set(job.sql, (st = db.prepare(job.sql).raw(true)));
        }
        const p = job.params;
        const args =
          p === undefined
            ? []
            : Array.isArray(p)
              ? p.map(bindable)
              : [Object.fromEntries(Object.entries(p).map(([k, v]) => [k, bindable(v)]))];
        out.results.push({ key: job.key, rows: st.all(...args) as unknown[][] });
      } catch (err) {
        out.results.push({ key: job.key, error: (err as Error).message ?? String(err) });
      }
    }
  } catch (err) {
    out.error = (err as Error).message ?? String(err);
  } finally {
    if (db.inTransaction) db.exec('COMMIT');
  }
  parentPort!.postMessage(out);
});
