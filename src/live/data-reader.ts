import Database from 'better-sqlite3';
import { installReadFunctions } from '../engine/functions';
import { COMMITS_SQL } from '../engine/meta';

/** What a DataReader needs of the writer: its connection and its commit position. */
export interface PositionedWriter {
  readonly db: Database.Database;
  readonly commits: number;
}

/**
 * A read connection of the live queries on the data file. Everything that touches the writer runs on
 * the agent's one thread, so between two JS tasks the committed state is exactly the one after the
 * writer's last commit; a read transaction begun then holds that state (WAL snapshot) until it ends,
 * and names it by the commit count stored with the data. An in-memory database has no second
 * connection: the writer's own is used, outside transactions.
 */
export class DataReader {
  readonly db: Database.Database;
  readonly #writer: PositionedWriter;
  readonly #own: boolean;
  readonly #position: Database.Statement | null;
  /** BEGIN and COMMIT prepared once: the matcher begins and ends a read for every batch. */
  readonly #begin: Database.Statement | null = null;
  readonly #commit: Database.Statement | null = null;

  constructor(path: string, writer: PositionedWriter) {
    this.#writer = writer;
    this.#own = path !== ':memory:';
    if (this.#own) {
      this.db = new Database(path, { readonly: true, fileMustExist: true });
      this.db.defaultSafeIntegers(true);
      this.db.pragma('busy_timeout = 5000');
      installReadFunctions(this.db);
      this.#position = this.db.prepare(COMMITS_SQL).pluck();
      this.#begin = this.db.prepare('BEGIN');
      this.#commit = this.db.prepare('COMMIT');
    } else {
      this.db = writer.db;
      this.#position = null;
    }
  }

  /** Begins a read transaction at the committed state; returns its commit position. */
  begin(): number {
    if (!this.#position) return this.#writer.commits;
    if (this.db.inTransaction) this.#commit!.run();
    this.#begin!.run();
    return Number((this.#position.get() as bigint | null | undefined) ?? 0);
  }

  end(): void {
    if (this.#own && this.db.inTransaction) this.#commit!.run();
  }

  /** Runs `fn` in a read transaction; `fn` gets the position. */
  at<T>(fn: (position: number) => T): T {
    const p = this.begin();
    try {
      return fn(p);
    } finally {
      this.end();
    }
  }

  close(): void {
    if (this.#own && this.db.open) this.db.close();
  }
}
