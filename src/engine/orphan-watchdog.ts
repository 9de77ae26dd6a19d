// A worker process must not outlive the agent that forked it (even one killed by SIGKILL), and its
// main thread may be stuck in a statement better-sqlite3 cannot interrupt: a watchdog thread notices
// the new parent and kills the process. Used by the read workers and the PG catalog workers.
import { Worker } from 'node:worker_threads';

/** Starts the watchdog thread of this (forked) process. */
export function dieWithParent(): void {
  const parent = process.ppid;
  new Worker(`setInterval(() => { if (process.ppid !== ${parent}) process.kill(process.pid, 'SIGKILL'); }, 500);`, {
    eval: true,
  }).unref();
  process.on('disconnect', () => process.exit(0));
}
