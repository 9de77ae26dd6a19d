import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { ColumnInfo, ReadAnswer, RowFormat } from './read-protocol';
import { installReadFunctions } from './functions';
import { PatinaError } from '../errors';
import { prepareRead, readErrorKind, readFailure } from './read-job';
import { type SqlParams, narrowInteger, rowToJson } from './values';
import { secondsSince } from './elapsed';
import { Lru } from '../lru';
import { declaredType } from './schema/stored-types';

interface Bounded {
  stmt: Database.Statement;
  columns: ColumnInfo[];
  /** The program has one ResultRow (it answers one row at most): read with get(), no list built in C++. */
  single: boolean;
}

/**
 * Opcodes of statements that run in bounded time: straight-line programs that seek at most one row
 * per cursor (point lookups by key), with no loop, sort, aggregate, subroutine or function call.
 */
const STRAIGHT_LINE = new Set([
  'Init',
  'Transaction',
  'TableLock',
  'OpenRead',
  'Close',
  'Halt',
  'Noop',
  'Explain',
  'ColumnsUsed',
  'ReleaseReg',
  'SeekRowid',
  'NotExists',
  'SeekGE',
  'SeekGT',
  'SeekLE',
  'SeekLT',
  'IdxGT',
  'IdxGE',
  'IdxLT',
  'IdxLE',
  'DeferredSeek',
  'IdxRowid',
  'Rowid',
  'Column',
  'ResultRow',
  'Variable',
  'Integer',
  'Int64',
  'Real',
  'String8',
  'String',
  'Null',
  'Blob',
  'Copy',
  'SCopy',
  'IntCopy',
  'IsNull',
  'NotNull',
  'Affinity',
  'RealAffinity',
  'Cast',
  'TypeCheck',
  'MustBeInt',
  'CollSeq',
  'Eq',
  'Ne',
  'Lt',
  'Le',
  'Gt',
  'Ge',
  'If',
  'IfNot',
  'And',
  'Or',
  'Not',
  'BitAnd',
  'BitOr',
  'BitNot',
  'ShiftLeft',
  'ShiftRight',
  'Add',
  'Subtract',
  'Multiply',
  'Divide',
  'Remainder',
  'Concat',
]);

const CACHE = 512;

/**
 * Point reads run here, on a read-only connection of the agent's own thread: a round trip to a read
 * worker costs far more than the lookup. Only statements whose program provably runs in bounded
 * time (no loop: at most one row per cursor) are taken; everything else goes to the workers, which
 * can be interrupted. The verdict is kept per SQL text.
 */
export class BoundedReads {
  readonly #db: Database.Database;
  readonly #verdicts = new Lru<string, Bounded | null>(CACHE);

  constructor(dbPath: string) {
    this.#db = new Database(dbPath, { readonly: true, fileMustExist: true });
    this.#db.defaultSafeIntegers(true);
    installReadFunctions(this.#db);
  }

  /**
   * Runs the read here when it is bounded, answering as a worker would (one 'head' message with all
   * rows, or an 'error'); null when it must go to a worker.
   */
  tryRun(id: number, sql: string, params: SqlParams | undefined, format: RowFormat): ReadAnswer | null {
    const b = this.#statement(sql, params);
    if (!b) return null;
    try {
      const t0 = performance.now();
      const rows = this.#run(b, params);
      const time = secondsSince(t0);
      let text = '';
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r];
        if (format === 'ndjson') text += '{"row":[' + (r + 1) + ',' + rowToJson(row) + ']}\n';
        else
          for (let i = 0; i < row.length; i++) if (typeof row[i] === 'bigint') row[i] = narrowInteger(row[i] as bigint);
      }
      return {
        type: 'head',
        id,
        columns: b.columns,
        time,
        batch: { count: rows.length, text, rows: format === 'values' ? rows : [] },
        done: true,
      };
    } catch (err) {
      return readFailure(id, err);
    }
  }

  /**
   * The rows of a bounded read, run here (integers narrowed to numbers where exact); null when it must
   * go to a worker. A failing statement throws the error a worker would report. For callers that want
   * the rows and nothing else (the PG front end): no message object, no cursor, no clock.
   */
  runValues(sql: string, params: SqlParams | undefined): unknown[][] | null {
    const b = this.#statement(sql, params);
    if (!b) return null;
    let rows: unknown[][];
    try {
      rows = this.#run(b, params);
    } catch (err) {
      const e = err as { message?: string; code?: string; sqlstate?: string; hint?: string; detail?: string };
      const failed = new PatinaError(
        readErrorKind(err),
        e.message ?? String(err),
        typeof e.code === 'string' ? e.code : undefined,
        e.sqlstate,
      );
      if (e.hint !== undefined) failed.hint = e.hint;
      if (e.detail !== undefined) failed.detail = e.detail;
      throw failed;
    }
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r];
      for (let i = 0; i < row.length; i++) if (typeof row[i] === 'bigint') row[i] = narrowInteger(row[i] as bigint);
    }
    return rows;
  }

  /** Runs a bounded statement inside the shared read transaction. */
  #run(b: Bounded, params: SqlParams | undefined): unknown[][] {
    // One read transaction serves every point read until the writer's next commit ends it: all
    // writes go through this process's writer, so its snapshot is the latest committed state, and
    // taking the WAL read lock once instead of per statement is most of a point read's cost.
    if (!this.#db.inTransaction) this.#db.exec('BEGIN');
    let rows: unknown[][];
    if (b.single) {
      const row = (
        params === undefined ? b.stmt.get() : Array.isArray(params) ? b.stmt.get(...params) : b.stmt.get(params)
      ) as unknown[] | undefined;
      rows = row === undefined ? [] : [row];
    } else
      rows = (
        params === undefined ? b.stmt.all() : Array.isArray(params) ? b.stmt.all(...params) : b.stmt.all(params)
      ) as unknown[][];
    // A statement prepared before a reload is re-prepared by SQLite on its step; its columns follow.
    if (rows.length > 0 && rows[0].length !== b.columns.length) b.columns = columnsOf(b.stmt);
    return rows;
  }

  /** Ends the shared read transaction: the writer committed (called synchronously after COMMIT). */
  endSnapshot(): void {
    if (this.#db.inTransaction) this.#db.exec('COMMIT');
  }

  /** How many verdicts (with their statements) are kept. */
  get cachedStatements(): number {
    return this.#verdicts.size;
  }

  /** Forgets verdicts and statements: the schema changed (a `SELECT *` may have new columns). */
  clear(): void {
    this.endSnapshot();
    this.#verdicts.clear();
    this.#db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get(); // a read brings this connection's schema up to date
  }

  close(): void {
    this.endSnapshot();
    this.#db.close();
  }

  /** The prepared statement when `sql` is a bounded read, else null (also for SQL that fails to prepare). */
  #statement(sql: string, params: SqlParams | undefined): Bounded | null {
    const known = this.#verdicts.get(sql);
    if (known !== undefined) return known;
    let verdict: Bounded | null = null;
    try {
      const stmt = prepareRead(this.#db, sql);
      const args = params === undefined ? [] : Array.isArray(params) ? params : [params];
      const program = this.#db
        .prepare('EXPLAIN ' + sql)
        .safeIntegers(false)
        .all(...args) as { addr: number; opcode: string; p2: number }[];
      const bounded = program.every(
        (op) => STRAIGHT_LINE.has(op.opcode) || (op.opcode === 'Goto' && (op.p2 > op.addr || op.p2 === 1)),
      );
      const single = program.filter((op) => op.opcode === 'ResultRow').length === 1;
      verdict = bounded ? { stmt: stmt.raw(true), columns: columnsOf(stmt), single } : null;
    } catch {
      verdict = null; // a worker reports the error
    }
    this.#verdicts.set(sql, verdict);
    return verdict;
  }
}

function columnsOf(stmt: Database.Statement): ColumnInfo[] {
  return stmt.columns().map((c) => ({ name: c.name, declType: declaredType(c.type) }));
}
