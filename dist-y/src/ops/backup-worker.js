"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The backup's worker thread: VACUUM INTO from a read-only connection of its own. It reads in one
// read transaction (a WAL snapshot), so the copy is exactly the committed state when it began,
// while the agent's writer goes on; then it marks the copy as a backup.
const node_worker_threads_1 = require("node:worker_threads");
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const { db, out, markKey, mark } = node_worker_threads_1.workerData;
try {
    const src = new better_sqlite3_1.default(db, { readonly: true, fileMustExist: true });
    try {
        src.pragma('busy_timeout = 5000');
        src.prepare('VACUUM INTO ?').run(out);
    }
    finally {
        src.close();
    }
    const copy = new better_sqlite3_1.default(out);
    try {
        copy
            .prepare('INSERT INTO __patina_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
            .run(markKey, mark);
        copy.pragma('journal_mode = DELETE'); // one self-contained file
    }
    finally {
        copy.close();
    }
    node_worker_threads_1.parentPort.postMessage({ ok: true });
}
catch (err) {
    node_worker_threads_1.parentPort.postMessage({ error: err.message });
}
//# sourceMappingURL=backup-worker.js.map