"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Full re-runs of keyed and multiset subscriptions, on a thread of their own so that a heavy query
// never holds up the agent's thread (and with it the writer). Each request runs all its queries in
// one read transaction and answers with the commit position that transaction saw.
const node_worker_threads_1 = require("node:worker_threads");
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const functions_1 = require("../engine/functions");
const lru_1 = require("../lru");
const { path, positionSql } = node_worker_threads_1.workerData;
const db = new better_sqlite3_1.default(path, { readonly: true, fileMustExist: true });
db.defaultSafeIntegers(true);
db.pragma('busy_timeout = 5000');
(0, functions_1.installReadFunctions)(db);
const position = db.prepare(positionSql).pluck();
const cache = new lru_1.Lru(256);
const bindable = (v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v);
node_worker_threads_1.parentPort.on('message', (req) => {
    const out = { id: req.id, position: 0, results: [] };
    try {
        db.exec('BEGIN');
        out.position = Number(position.get() ?? 0);
        for (const job of req.jobs) {
            try {
                let st = cache.get(job.sql);
                if (!st) {
                    cache.set(job.sql, (st = db.prepare(job.sql).raw(true)));
                }
                const p = job.params;
                const args = p === undefined
                    ? []
                    : Array.isArray(p)
                        ? p.map(bindable)
                        : [Object.fromEntries(Object.entries(p).map(([k, v]) => [k, bindable(v)]))];
                out.results.push({ key: job.key, rows: st.all(...args) });
            }
            catch (err) {
                out.results.push({ key: job.key, error: err.message ?? String(err) });
            }
        }
    }
    catch (err) {
        out.error = err.message ?? String(err);
    }
    finally {
        if (db.inTransaction)
            db.exec('COMMIT');
    }
    node_worker_threads_1.parentPort.postMessage(out);
});
//# sourceMappingURL=snapshot-worker.js.map