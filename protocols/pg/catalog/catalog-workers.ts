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
import { type ErrorKind, PatinaError } from '../../../src/errors';
import type { PinnedClock } from '../../../src/engine/micro-clock';
import { type PoolSlot, ProcessPool } from '../../../src/engine/process-pool';
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

interface Job {
  msg: Extract<ToCatalog, { type: 'run' }>;
  slot: PoolSlot<Job> | null;
  timer: NodeJS.Timeout | null;
  /** Gives the rows or the error, once (a later answer or stop is ignored). */
  settle(outcome: unknown[][] | Error): void;
  settled: boolean;
}

/** A statement running this long with no other worker free starts one (it may be a long one). */
const SPARE_AFTER_MS = 100;

/**
 * The catalog workers of a PG server (catalog-worker.ts, run by a ProcessPool): none until the first
 * catalog statement asks (`warm`; an agent no one browses pays no process), then one kept ready, more
 * started while every ready one is busy (a spare once a statement has run SPARE_AFTER_MS: a long
 * catalog statement does not delay another session's), up to `max`; a statement waits for one beyond
 * that. Until the first is ready the session runs catalog statements on the agent's own catalog
 * connection, as before there were workers (`ready`): the first catalog query does not wait ~1-2 s
 * for a process to start.
 */
export class CatalogWorkers {
  readonly #pool: ProcessPool<Job, FromCatalog>;
  #schema: ToCatalog | null = null;
  #nextId = 1;

  constructor(dbPath: string, max = 4) {
    this.#pool = new ProcessPool<Job, FromCatalog>(
      {
        script: path.join(__dirname, 'catalog-worker.js'),
        args: [dbPath],
        name: 'catalog worker',
        minWorkers: 0,
        maxWorkers: max,
        spareAfterMs: SPARE_AFTER_MS,
      },
      {
        start: (job, slot) => {
          job.slot = slot;
          slot.worker.send(job.msg);
        },
        receive: (job, m) => {
          if (m.type === 'ready' || job.msg.id !== m.id) return false;
          job.settle(m.type === 'rows' ? m.rows.map((r) => r.map(asBuffer)) : liftError(m.error));
          return true;
        },
        fail: (job, err) => job.settle(err),
        spawned: (worker) => {
          if (this.#schema) worker.send(this.#schema);
        },
      },
    );
  }

  /** The catalog was rebuilt (at start and after a schema reload): every worker rebuilds its own. */
  schema(s: CatalogSchema, started: string): void {
    this.#schema = { type: 'schema', started, ...s };
    for (const slot of this.#pool.workers()) slot.worker.send(this.#schema);
  }

  /** Whether a worker has built its catalog (a statement given to `run` then waits for no process to start). */
  get ready(): boolean {
    return this.#pool.ready;
  }

  /**
   * Starts the first worker, if none is alive or starting (a catalog statement was asked for), and
   * keeps one from then on. (One that exits before it is ready is not started again by the pool: the
   * next catalog statement runs on the agent's thread and warms a new one, so a worker that cannot
   * start is not restarted in a loop.)
   */
  warm(): void {
    if (!this.#schema) return;
    this.#pool.minWorkers = 1;
    this.#pool.fill();
  }

  /** The workers by state, for the metrics: ready and free, running a statement, starting. */
  stats(): { idle: number; busy: number; starting: number } {
    const { idle, busy, starting } = this.#pool.stats();
    return { idle, busy, starting };
  }

  run(req: CatalogRun): CatalogJob {
    if (this.#pool.closed) throw new PatinaError('unavailable', 'the agent is shutting down');
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
      this.#pool.unqueue(job);
      const slot = job.slot;
      job.settle(err);
      if (slot && slot.job === job) this.#pool.kill(slot);
    };
    if (req.timeoutMs > 0) {
      const secs = req.timeoutMs / 1000;
      const message = req.timeoutMessage ?? `query interrupted: it ran longer than the timeout of ${secs} s`;
      job.timer = setTimeout(() => stop(new PatinaError('timeout', message, 'SQLITE_INTERRUPT')), req.timeoutMs);
      job.timer.unref();
    }
    this.#pool.submit(job);
    return { rows, stop };
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}

/** A blob cell as the catalog connection gives it (a Buffer: structured clone makes it a Uint8Array). */
export function asBuffer(v: unknown): unknown {
  return v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v;
}
