import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { ColumnInfo, FromWorker, RowBatch, RowFormat } from './read-protocol';
import { significant, tokenize } from './sql-text';
import { type SqlParams, narrowInteger, rowToJson } from './values';
import { secondsSince } from './elapsed';
import { PatinaError } from '../errors';
import { declaredType } from './schema/stored-types';

/** A batch is also cut once it has taken this long to fill, so slow rows go out as they come. */
const BATCH_MS = 50;

const WRITES = () =>
  Object.assign(
    new Error('statement writes; a read may not change the database, and writes go to POST /v1/transactions'),
    { code: 'PATINA_WRITES' },
  );
const WRITE_WORDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']);

/**
 * Prepares a read on a read-only connection. A write can fail to prepare there (the change-capture
 * triggers call functions only the writer defines); such a failure is reported as the write it is.
 */
export function prepareRead(db: Database.Database, sql: string): Database.Statement {
  let stmt: Database.Statement;
  try {
    stmt = db.prepare(sql);
  } catch (err) {
    if (
      err instanceof Database.SqliteError &&
      significant(tokenize(sql)).some((t) => t.type === 'word' && WRITE_WORDS.has(t.text.toUpperCase()))
    )
      throw WRITES();
    throw err;
  }
  if (!stmt.reader)
    throw Object.assign(
      new Error(
        'statement is not a query (it returns no rows); a read must be a SELECT, and writes go to POST /v1/transactions',
      ),
      { code: 'PATINA_NOT_A_QUERY' },
    );
  if (!stmt.readonly) throw WRITES();
  return stmt;
}

/** A failed read's answer to whoever asked (the pool, or bounded reads in the agent's thread). */
export function readFailure(id: number, err: unknown): Extract<FromWorker, { type: 'error' }> {
  const e = err as { message?: string; code?: string; sqlstate?: string; hint?: string; detail?: string };
  return {
    type: 'error',
    id,
    kind: readErrorKind(err),
    message: e.message ?? String(err),
    code: typeof e.code === 'string' ? e.code : undefined,
    sqlstate: e.sqlstate,
    hint: e.hint,
    detail: e.detail,
  };
}

/** The error kind of a failure in a read. */
export function readErrorKind(err: unknown): 'user' | 'timeout' | 'internal' {
  if (err instanceof PatinaError) return err.kind === 'timeout' || err.kind === 'internal' ? err.kind : 'user';
  const code = (err as { code?: unknown }).code;
  if (code === 'SQLITE_INTERRUPT') return 'timeout';
  if (typeof code === 'string')
    return code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CORRUPT' ? 'internal' : 'user';
  return err instanceof RangeError || err instanceof TypeError ? 'user' : 'internal';
}

function narrowRow(row: unknown[]): unknown[] {
  for (let i = 0; i < row.length; i++) if (typeof row[i] === 'bigint') row[i] = narrowInteger(row[i] as bigint);
  return row;
}

/**
 * One read being stepped: runs the query to its first row on start, then hands out rows in
 * batches (NDJSON `row` lines with rowids 1..n, or cell arrays).
 */
export class ReadJob {
  readonly columns: ColumnInfo[];
  /** Seconds the query took to its first row. */
  readonly time: number;
  readonly #iter: IterableIterator<unknown[]>;
  readonly #format: RowFormat;
  readonly #batchRows: number;
  readonly #batchBytes: number;
  #rowid = 0;
  #pending: IteratorResult<unknown[]> | null;
  /** A step that failed after rows of the same batch were read: thrown after those rows went out. */
  #failure: unknown = undefined;

  constructor(
    stmt: Database.Statement,
    params: SqlParams | undefined,
    format: RowFormat,
    batchRows: number,
    batchBytes: number,
  ) {
    const t0 = performance.now();
    stmt.raw(true);
    const p = params;
    this.#iter = (
      p === undefined ? stmt.iterate() : Array.isArray(p) ? stmt.iterate(...p) : stmt.iterate(p)
    ) as IterableIterator<unknown[]>;
    this.#format = format;
    this.#batchRows = batchRows;
    this.#batchBytes = batchBytes;
    // The first step runs the query; the time reported is that, not the iteration of the rest.
    this.#pending = this.#iter.next();
    this.time = secondsSince(t0);
    // Columns after the first step: a connection whose schema was stale re-prepares the statement
    // there (a reload may have added columns that `SELECT *` now returns).
    this.columns = stmt.columns().map((c) => ({ name: c.name, declType: declaredType(c.type) }));
  }

  /** Steps for one batch; says whether the result is exhausted. */
  nextBatch(): { batch: RowBatch; done: boolean } {
    let text = '';
    const rows: unknown[][] = [];
    let count = 0;
    const started = performance.now();
    if (this.#failure !== undefined) throw this.#failure;
    for (;;) {
      let r: IteratorResult<unknown[]>;
      try {
        r = this.#pending ?? this.#iter.next();
      } catch (err) {
        if (count === 0) throw err;
        // The rows read before the failing one go out first; the error follows with the next batch.
        this.#failure = err;
        return { batch: { count, text, rows }, done: false };
      }
      this.#pending = null;
      if (r.done) return { batch: { count, text, rows }, done: true };
      count++;
      if (this.#format === 'ndjson') text += '{"row":[' + ++this.#rowid + ',' + rowToJson(r.value) + ']}\n';
      else rows.push(narrowRow(r.value));
      if (count >= this.#batchRows || text.length >= this.#batchBytes || performance.now() - started >= BATCH_MS) {
        // Look one row ahead so the last batch carries `done` and a point read costs one message.
        try {
          const ahead = this.#iter.next();
          if (ahead.done) return { batch: { count, text, rows }, done: true };
          this.#pending = ahead;
        } catch (err) {
          this.#failure = err;
        }
        return { batch: { count, text, rows }, done: false };
      }
    }
  }

  close(): void {
    try {
      this.#iter.return?.();
    } catch {
      // the cursor is being dropped anyway
    }
  }
}
