"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// A read connection in its own process: prepares, checks and steps one read at a time, sending rows
// in batches only as far as the agent has granted credit, so memory stays bounded. A process, not a
// thread, because better-sqlite3 cannot interrupt a running statement and a thread stuck in one
// cannot be stopped; a process can be killed (timeouts, cancels).
const node_worker_threads_1 = require("node:worker_threads");
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const functions_1 = require("./functions");
const read_job_1 = require("./read-job");
// When the agent dies (even by SIGKILL) this process must not live on, and its main thread may be
// stuck in a statement: a watchdog thread notices the new parent and kills the process.
const parent = process.ppid;
new node_worker_threads_1.Worker(`setInterval(() => { if (process.ppid !== ${parent}) process.kill(process.pid, 'SIGKILL'); }, 500);`, {
    eval: true,
}).unref();
process.on('disconnect', () => process.exit(0));
const db = new better_sqlite3_1.default(process.argv[2], { readonly: true, fileMustExist: true });
db.defaultSafeIntegers(true);
db.pragma('busy_timeout = 5000');
(0, functions_1.installReadFunctions)(db);
let job = null;
const post = (m) => process.send(m);
function fail(id, err) {
    const e = err;
    post({
        type: 'error',
        id,
        kind: (0, read_job_1.readErrorKind)(err),
        message: e.message ?? String(err),
        code: typeof e.code === 'string' ? e.code : undefined,
        sqlstate: e.sqlstate,
    });
    if (job && job.id === id)
        closeJob();
}
function closeJob() {
    job?.read.close();
    job = null;
}
function pump() {
    const j = job;
    if (!j)
        return;
    try {
        while (j.credits > 0) {
            j.credits--;
            const { batch, done } = j.read.nextBatch();
            if (done)
                closeJob();
            post({ type: 'rows', id: j.id, batch, done });
            if (done)
                return;
        }
    }
    catch (err) {
        fail(j.id, err);
    }
}
function run(m) {
    try {
        const read = new read_job_1.ReadJob((0, read_job_1.prepareRead)(db, m.sql), m.params, m.format, m.batchRows, m.batchBytes);
        job = { id: m.id, read, credits: m.credits };
        const { batch, done } = read.nextBatch();
        if (done)
            closeJob();
        post({ type: 'head', id: m.id, columns: read.columns, time: read.time, batch, done });
        if (!done)
            pump();
    }
    catch (err) {
        fail(m.id, err);
    }
}
process.on('message', (m) => {
    switch (m.type) {
        case 'run':
            if (job)
                closeJob(); // the pool sends one job at a time; a stale one is dropped
            run(m);
            break;
        case 'credit':
            if (job && job.id === m.id) {
                job.credits += m.n;
                pump();
            }
            break;
        case 'cancel':
            if (job && job.id === m.id) {
                closeJob();
                post({ type: 'done', id: m.id });
            }
            break;
    }
});
//# sourceMappingURL=read-worker.js.map