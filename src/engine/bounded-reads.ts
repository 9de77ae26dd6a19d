import Database from 'better-sqlite3';
import type { FromWorker, RowFormat } from './read-protocol';
import { ReadJob, prepareRead, readErrorKind } from './read-job';
import type { SqlParams } from './values';

/**
 * Opcodes of statements that run in bounded time: straight-line programs that seek at most one row
 * per cursor (point lookups by key), with no loop, sort, aggregate, subroutine or function call.
 */
const STRAIGHT_LINE = new Set([
  'Init', 'Transaction', 'TableLock', 'OpenRead', 'Close', 'Halt', 'Noop', 'Explain', 'ColumnsUsed', 'ReleaseReg',
  'SeekRowid', 'NotExists', 'SeekGE', 'SeekGT', 'SeekLE', 'SeekLT', 'IdxGT', 'IdxGE', 'IdxLT', 'IdxLE', 'DeferredSeek', 'IdxRowid',
  'Rowid', 'Column', 'ResultRow', 'Variable', 'Integer', 'Int64', 'Real', 'String8', 'String', 'Null', 'Blob',
  'Copy', 'SCopy', 'IntCopy', 'IsNull', 'NotNull', 'Affinity', 'RealAffinity', 'Cast', 'TypeCheck', 'MustBeInt', 'CollSeq',
  'Eq', 'Ne', 'Lt', 'Le', 'Gt', 'Ge', 'If', 'IfNot', 'And', 'Or', 'Not', 'BitAnd', 'BitOr', 'BitNot', 'ShiftLeft', 'ShiftRight',
  'Add', 'Subtract', 'Multiply', 'Divide', 'Remainder', 'Concat',
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
  readonly #verdicts = new Map<string, Database.Statement | null>();

  constructor(dbPath: string) {
    this.#db = new Database(dbPath, { readonly: true, fileMustExist: true });
    this.#db.defaultSafeIntegers(true);
  }

  /**
   * Runs the read here when it is bounded, answering as a worker would (one 'head' message with all
   * rows, or an 'error'); null when it must go to a worker.
   */
  tryRun(id: number, sql: string, params: SqlParams | undefined, format: RowFormat): FromWorker | null {
    const stmt = this.#statement(sql, params);
    if (!stmt) return null;
    let read: ReadJob | null = null;
    try {
      read = new ReadJob(stmt, params, format, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      const { batch } = read.nextBatch();
      return { type: 'head', id, columns: read.columns, time: read.time, batch, done: true };
    } catch (err) {
      const e = err as { message?: string; code?: string };
      return { type: 'error', id, kind: readErrorKind(err), message: e.message ?? String(err), code: typeof e.code === 'string' ? e.code : undefined };
    } finally {
      read?.close();
    }
  }

  close(): void {
    this.#db.close();
  }

  /** The prepared statement when `sql` is a bounded read, else null (also for SQL that fails to prepare). */
  #statement(sql: string, params: SqlParams | undefined): Database.Statement | null {
    const known = this.#verdicts.get(sql);
    if (known !== undefined) return known;
    let verdict: Database.Statement | null = null;
    try {
      const stmt = prepareRead(this.#db, sql);
      const args = params === undefined ? [] : Array.isArray(params) ? params : [params];
      const program = this.#db.prepare('EXPLAIN ' + sql).safeIntegers(false).all(...args) as { addr: number; opcode: string; p2: number }[];
      const bounded = program.every((op) => STRAIGHT_LINE.has(op.opcode) || (op.opcode === 'Goto' && (op.p2 > op.addr || op.p2 === 1)));
      verdict = bounded ? stmt : null;
    } catch {
      verdict = null; // a worker reports the error
    }
    if (this.#verdicts.size >= CACHE) this.#verdicts.delete(this.#verdicts.keys().next().value as string);
    this.#verdicts.set(sql, verdict);
    return verdict;
  }
}
