// A read connection in its own process: prepares, checks and steps one read at a time, sending rows
// in batches only as far as the agent has granted credit, so memory stays bounded. A process, not a
// thread, because better-sqlite3 cannot interrupt a running statement and a thread stuck in one
// cannot be stopped; a process can be killed (timeouts, cancels).
import Database from 'better-sqlite3';
import type { FromWorker, ToWorker } from './read-protocol';
import { installReadFunctions } from './functions';
import { pinClock } from './micro-clock';
import { ReadJob, prepareRead, readFailure } from './read-job';
import { dieWithParent } from './orphan-watchdog';

// When the agent dies (even by SIGKILL) this process must not live on (orphan-watchdog.ts).
dieWithParent();
const db = new Database(process.argv[2], { readonly: true, fileMustExist: true });
db.defaultSafeIntegers(true);
db.pragma('busy_timeout = 5000');
installReadFunctions(db);

let job: { id: number; read: ReadJob; credits: number } | null = null;

const post = (m: FromWorker) => process.send!(m);

function fail(id: number, err: unknown) {
  post(readFailure(id, err));
  if (job && job.id === id) closeJob();
}

function closeJob() {
  job?.read.close();
  job = null;
}

function pump() {
  const j = job;
  if (!j) return;
  try {
    while (j.credits > 0) {
      j.credits--;
      const { batch, done } = j.read.nextBatch();
      if (done) closeJob();
      post({ type: 'rows', id: j.id, batch, done });
      if (done) return;
    }
  } catch (err) {
    fail(j.id, err);
  }
}

function run(m: Extract<ToWorker, { type: 'run' }>) {
  // (one job at a time: its clock stays pinned while its rows are stepped, batch by batch)
  pinClock(m.clock ?? null);
  try {
    const read = new ReadJob(prepareRead(db, m.sql), m.params, m.format, m.batchRows, m.batchBytes);
    job = { id: m.id, read, credits: m.credits };
    const { batch, done } = read.nextBatch();
    if (done) closeJob();
    post({ type: 'head', id: m.id, columns: read.columns, time: read.time, batch, done });
    if (!done) pump();
  } catch (err) {
    fail(m.id, err);
  }
}

process.on('message', (m: ToWorker) => {
  switch (m.type) {
    case 'run':
      if (job) closeJob(); // the pool sends one job at a time; a stale one is dropped
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

// The pool hands this worker no read before it hears this: a worker starting (hundreds of ms on a
// loaded machine) is not given a read another, ready worker could take now (read-pool.ts).
post({ type: 'ready' });
