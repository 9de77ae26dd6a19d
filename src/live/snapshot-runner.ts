import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { COMMITS_SQL } from '../engine/meta';
import type { SqlParams } from '../engine/values';

/** One query to run in full. */
export interface SnapshotJob {
  key: number;
  sql: string;
  params: SqlParams | undefined;
}

export interface SnapshotRequest {
  id: number;
  jobs: SnapshotJob[];
}

/** The rows of every job (or its error), all read at one commit position. */
export interface SnapshotResult {
  id: number;
  position: number;
  results: { key: number; rows?: unknown[][]; error?: string }[];
  error?: string;
}

/**
 * Runs full queries on a worker thread with its own read connection, one request at a time, each in
 * one read transaction whose commit position comes back with the rows. The thread starts with the
 * first request.
 */
export class SnapshotRunner {
  readonly #dbPath: string;
  #worker: Worker | null = null;
  #nextId = 1;
  #pending: { id: number; resolve: (r: SnapshotResult) => void; reject: (e: Error) => void } | null = null;
  #closed = false;

  constructor(dbPath: string) {
    this.#dbPath = dbPath;
  }

  get busy(): boolean {
    return this.#pending !== null;
  }

  run(jobs: SnapshotJob[]): Promise<SnapshotResult> {
    if (this.#closed) return Promise.reject(new Error('closed'));
    if (this.#pending) return Promise.reject(new Error('a snapshot run is already under way'));
    const worker = this.#start();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending = { id, resolve, reject };
      worker.postMessage({ id, jobs } satisfies SnapshotRequest);
    });
  }

  close(): void {
    this.#closed = true;
    this.#fail(new Error('closed'));
    void this.#worker?.terminate();
    this.#worker = null;
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const w = new Worker(path.join(__dirname, 'snapshot-worker.js'), {
      workerData: { path: this.#dbPath, positionSql: COMMITS_SQL },
    });
    w.unref();
    w.on('message', (r: SnapshotResult) => {
      const p = this.#pending;
      if (!p || p.id !== r.id) return;
      this.#pending = null;
      p.resolve(r);
    });
    w.on('error', (err) => this.#fail(err));
    w.on('exit', () => {
      if (this.#worker === w) this.#worker = null;
      this.#fail(new Error('the snapshot worker exited'));
    });
    this.#worker = w;
    return w;
  }

  #fail(err: Error) {
    const p = this.#pending;
    this.#pending = null;
    p?.reject(err);
  }
}
