// Catalog queries off the agent's thread. A statement that reads pg_catalog or information_schema
// relations ran on the front end's catalog connection (local-db.ts) on the agent's own thread, and
// better-sqlite3 cannot interrupt a statement: a long one (a cross join of pg_attribute, a recursive
// WITH query joined to pg_class) held every session, the writer and SIGTERM to its end, whatever
// statement_timeout said. Here such statements run in worker processes (catalog-worker.ts), each with
// its own catalog connection built from the schema the agent sends, with the agent's OIDs; a
// statement carries the session's facts (user, database, pid, settings, the clock, pg_stat_activity's
// and pg_prepared_statements' rows). A process can be killed: statement_timeout, api.query_timeout
// and a CancelRequest stop the statement with 57014, and the agent's stop kills the workers.
// What acts on the agent's own state stays on its catalog connection (catalogOffThread in
// sql/local-statements.ts).
import path from 'node:path';
import { type ChildProcess, fork } from 'node:child_process';
import { type ErrorKind, PatinaError } from '../../../src/errors';
import type { PinnedClock } from '../../../src/engine/micro-clock';
import type { Schema } from '../../../src/engine/schema/model';
import type { ActivityRow } from '../connection/listener-options';
import type { PreparedRow } from '../session/prepared';
import { type ErrorObject, PgError } from '../sqlstate';

/** The session facts a catalog statement reads (local-db.ts's SessionFacts, as data). */
export interface CatalogFacts {
  user: string;
  database: string;
  version: string;
  pid: number;
  settings: [string, string][];
}

/** The catalog as the agent built it: the schema and the OIDs it gave (a worker gives the same). */
export interface CatalogSchema {
  schema: Schema;
  oids: [string, number][];
  nextOid: number;
}

export type ToCatalog =
  | ({ type: 'schema'; started: string } & CatalogSchema)
  | {
      type: 'run';
      id: number;
      sql: string;
      params?: Record<string, unknown>;
      facts: CatalogFacts;
      activity?: ActivityRow[];
      prepared?: PreparedRow[];
      clock?: PinnedClock;
    };

export type FromCatalog =
  | { type: 'ready' }
  | { type: 'rows'; id: number; rows: unknown[][] }
  | { type: 'error'; id: number; error: CarriedError };

/** An error thrown in a worker, as the agent's thread re-throws it (the same class and fields). */
export interface CarriedError {
  cls: 'pg' | 'patina' | 'sqlite' | 'range' | 'type' | 'other';
  message: string;
  kind?: ErrorKind;
  code?: string;
  sqlstate?: string;
  hint?: string;
  detail?: string;
  where?: string;
  object?: ErrorObject;
  positionName?: string;
  position?: number;
  unplaced?: boolean;
}

export function carryError(err: unknown): CarriedError {
  if (err instanceof PgError)
    return {
      cls: 'pg',
      message: err.message,
      kind: err.kind,
      sqlstate: err.sqlstate,
      hint: err.hint,
      detail: err.detail,
      where: err.where,
      object: err.object,
      positionName: err.positionName,
      position: err.position,
      unplaced: err.unplaced,
    };
  if (err instanceof PatinaError)
    return {
      cls: 'patina',
      message: err.message,
      kind: err.kind,
      code: err.sqliteCode,
      sqlstate: err.sqlstate,
      hint: err.hint,
      detail: err.detail,
    };
  const e = err as { message?: string; code?: unknown };
  const message = e?.message ?? String(err);
  if (err instanceof RangeError) return { cls: 'range', message };
  if (err instanceof TypeError) return { cls: 'type', message };
  if (typeof e?.code === 'string') return { cls: 'sqlite', message, code: e.code };
  return { cls: 'other', message };
}

/** The error carryError described, made again. */
export function liftError(c: CarriedError): Error {
  const set = <T extends object>(err: T, fields: Partial<T>) => {
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) (err as Record<string, unknown>)[k] = v;
    return err;
  };
  switch (c.cls) {
    case 'pg':
      return set(new PgError(c.kind ?? 'user', c.message, c.sqlstate ?? 'XX000'), {
        hint: c.hint,
        detail: c.detail,
        where: c.where,
        object: c.object,
        positionName: c.positionName,
        position: c.position,
        unplaced: c.unplaced,
      });
    case 'patina':
      return set(new PatinaError(c.kind ?? 'user', c.message, c.code, c.sqlstate), { hint: c.hint, detail: c.detail });
    case 'range':
      return new RangeError(c.message);
    case 'type':
      return new TypeError(c.message);
    case 'sqlite':
      return set(new Error(c.message), { code: c.code } as Partial<Error>);
    default:
      return new Error(c.message);
  }
}

/** One statement for a worker, and how long it may take (ReadRequest's timeout, as a read's). */
export interface CatalogRun extends Omit<Extract<ToCatalog, { type: 'run' }>, 'type' | 'id'> {
  timeoutMs: number;
  timeoutMessage?: string;
}

/** A statement under way: its rows, and how to stop it (a CancelRequest, the connection's end). */
export interface CatalogJob {
  rows: Promise<unknown[][]>;
  stop(err: Error): void;
}

interface Slot {
  worker: ChildProcess;
  job: Job | null;
  ready: boolean;
  idleSince: number;
}

interface Job {
  msg: Extract<ToCatalog, { type: 'run' }>;
  slot: Slot | null;
  timer: NodeJS.Timeout | null;
  /** Gives the rows or the error, once (a later answer or stop is ignored). */
  settle(outcome: unknown[][] | Error): void;
  settled: boolean;
}

/** A statement running this long with no other worker free starts one (it may be a long one). */
const SPARE_AFTER_MS = 100;

/** Workers above the one kept ready stop after this long idle (each is a process with its own catalog). */
const IDLE_RETIRE_MS = 30_000;

/**
 * The catalog workers of a PG server: none until the first catalog statement asks (`warm`; an agent
 * no one browses pays no process), then one kept ready, more started while every ready one is busy
 * (a spare once a statement has run SPARE_AFTER_MS: a long catalog statement does not delay another
 * session's), up to `max`; a statement waits for one beyond that. Until the first is ready the
 * session runs catalog statements on the agent's own catalog connection, as before there were
 * workers (`ready`): the first catalog query does not wait ~1-2 s for a process to start.
 */
export class CatalogWorkers {
  readonly #dbPath: string;
  readonly #max: number;
  readonly #slots = new Set<Slot>();
  readonly #idle: Slot[] = [];
  readonly #waiting: Job[] = [];
  #schema: ToCatalog | null = null;
  #nextId = 1;
  #closed = false;
  #trimTimer: NodeJS.Timeout | null = null;

  constructor(dbPath: string, max = 4) {
    this.#dbPath = dbPath;
    this.#max = max;
  }

  /** The catalog was rebuilt (at start and after a schema reload): every worker rebuilds its own. */
  schema(s: CatalogSchema, started: string): void {
    this.#schema = { type: 'schema', started, ...s };
    for (const slot of this.#slots) slot.worker.send(this.#schema);
  }

  /** Whether a worker has built its catalog (a statement given to `run` then waits for no process to start). */
  get ready(): boolean {
    for (const s of this.#slots) if (s.ready) return true;
    return false;
  }

  /** Starts the first worker, if none is alive or starting (a catalog statement was asked for). */
  warm(): void {
    if (this.#slots.size === 0 && !this.#closed && this.#schema) this.#spawn();
  }

  /** The workers by state, for the metrics: ready and free, running a statement, starting. */
  stats(): { idle: number; busy: number; starting: number } {
    let busy = 0;
    let starting = 0;
    for (const s of this.#slots) {
      if (!s.ready) starting++;
      else if (s.job) busy++;
    }
    return { idle: this.#slots.size - busy - starting, busy, starting };
  }

  run(req: CatalogRun): CatalogJob {
    if (this.#closed) throw new PatinaError('unavailable', 'the agent is shutting down');
    const msg: Job['msg'] = {
      type: 'run',
      id: this.#nextId++,
      sql: req.sql,
      ...(req.params ? { params: req.params } : {}),
      facts: req.facts,
      ...(req.activity ? { activity: req.activity } : {}),
      ...(req.prepared ? { prepared: req.prepared } : {}),
      ...(req.clock ? { clock: req.clock } : {}),
    };
    let job!: Job;
    const rows = new Promise<unknown[][]>((resolve, reject) => {
      job = {
        msg,
        slot: null,
        timer: null,
        settled: false,
        settle(outcome) {
          if (job.settled) return;
          job.settled = true;
          if (job.timer) clearTimeout(job.timer);
          job.timer = null;
          job.slot = null;
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        },
      };
    });
    const stop = (err: Error) => {
      if (job.settled) return;
      const i = this.#waiting.indexOf(job);
      if (i >= 0) this.#waiting.splice(i, 1);
      const slot = job.slot;
      job.settle(err);
      if (slot && slot.job === job) this.#kill(slot);
    };
    if (req.timeoutMs > 0) {
      const secs = req.timeoutMs / 1000;
      const message = req.timeoutMessage ?? `query interrupted: it ran longer than the timeout of ${secs} s`;
      job.timer = setTimeout(() => stop(new PatinaError('timeout', message, 'SQLITE_INTERRUPT')), req.timeoutMs);
      job.timer.unref();
    }
    this.#waiting.push(job);
    this.#dispatch();
    return { rows, stop };
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#trimTimer) clearTimeout(this.#trimTimer);
    for (const job of this.#waiting.splice(0)) job.settle(new PatinaError('unavailable', 'the agent is shutting down'));
    await Promise.all(
      [...this.#slots].map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.worker.exitCode !== null || s.worker.signalCode !== null) return resolve();
            s.worker.once('exit', () => resolve());
            s.worker.kill('SIGKILL');
          }),
      ),
    );
    this.#slots.clear();
    this.#idle.length = 0;
  }

  #spawn(): void {
    const worker = fork(path.join(__dirname, 'catalog-worker.js'), [this.#dbPath], {
      serialization: 'advanced', // structured clone: bigint and Buffer cells, Maps of the schema
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [],
    });
    const slot: Slot = { worker, job: null, ready: false, idleSince: Date.now() };
    worker.on('message', (m: FromCatalog) => {
      if (m.type === 'ready') {
        if (slot.ready) return;
        slot.ready = true;
        this.#release(slot);
        return;
      }
      const job = slot.job;
      if (!job || job.msg.id !== m.id) return;
      job.settle(m.type === 'rows' ? m.rows.map((r) => r.map(asBuffer)) : liftError(m.error));
      this.#release(slot);
    });
    worker.on('error', () => this.#retire(slot));
    worker.on('exit', () => this.#retire(slot));
    worker.unref();
    (worker as unknown as { channel?: { unref(): void } }).channel?.unref();
    this.#slots.add(slot);
    if (this.#schema) worker.send(this.#schema);
  }

  #starting(): number {
    let n = 0;
    for (const s of this.#slots) if (!s.ready) n++;
    return n;
  }

  #dispatch(): void {
    while (this.#waiting.length > 0 && !this.#closed) {
      const slot = this.#idle.pop();
      if (!slot) {
        if (this.#slots.size < this.#max && this.#waiting.length > this.#starting()) {
          this.#spawn();
          continue;
        }
        return;
      }
      const job = this.#waiting.shift()!;
      slot.job = job;
      job.slot = slot;
      slot.worker.send(job.msg);
      // a statement that takes long leaves none free: a spare starts, for the next session's
      setTimeout(() => {
        if (slot.job !== job || this.#closed || this.#idle.length > 0 || this.#starting() > 0) return;
        if (this.#slots.size < this.#max) this.#spawn();
      }, SPARE_AFTER_MS).unref();
    }
  }

  #release(slot: Slot): void {
    slot.job = null;
    if (!this.#slots.has(slot)) return;
    slot.idleSince = Date.now();
    this.#idle.push(slot);
    this.#dispatch();
    this.#scheduleTrim();
  }

  #scheduleTrim(): void {
    if (this.#trimTimer || this.#closed || this.#slots.size <= 1 || this.#idle.length === 0) return;
    const due = Math.max(1000, this.#idle[0].idleSince + IDLE_RETIRE_MS - Date.now());
    this.#trimTimer = setTimeout(() => {
      this.#trimTimer = null;
      const now = Date.now();
      while (this.#slots.size > 1 && this.#idle.length > 0 && now - this.#idle[0].idleSince >= IDLE_RETIRE_MS) {
        const slot = this.#idle.shift()!;
        this.#slots.delete(slot);
        slot.worker.kill('SIGKILL');
      }
      this.#scheduleTrim();
    }, due);
    this.#trimTimer.unref();
  }

  #retire(slot: Slot): void {
    if (!this.#slots.delete(slot)) return;
    const i = this.#idle.indexOf(slot);
    if (i >= 0) this.#idle.splice(i, 1);
    const job = slot.job;
    slot.job = null;
    job?.settle(new PatinaError('internal', 'catalog worker exited'));
    // a worker that could not start, with no other ready, fails the statement it would have taken
    // (rather than that statement waiting on replacements that fail the same way)
    if (!slot.ready && ![...this.#slots].some((s) => s.ready)) {
      const failed = new PatinaError('internal', 'catalog worker exited before it was ready');
      // (with no worker left, none is started for those still waiting: each fails, not waits forever)
      for (const job of this.#slots.size === 0 ? this.#waiting.splice(0) : this.#waiting.splice(0, 1))
        job.settle(failed);
    }
    // (one that never got ready is not started again here: the next catalog statement runs on the
    // agent's thread and warms a new one, so a worker that cannot start is not restarted in a loop)
    if (!this.#closed) {
      if (this.#slots.size === 0 && slot.ready) this.#spawn();
      this.#dispatch();
    }
  }

  /** Stops a worker stuck in a statement: better-sqlite3 cannot interrupt a step, so the process goes. */
  #kill(slot: Slot): void {
    slot.job = null;
    this.#retire(slot);
    slot.worker.kill('SIGKILL');
  }
}

/** A blob cell as the catalog connection gives it (a Buffer: structured clone makes it a Uint8Array). */
export function asBuffer(v: unknown): unknown {
  return v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v;
}
