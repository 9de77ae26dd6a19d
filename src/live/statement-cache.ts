import type Database from 'better-sqlite3';

/**
 * Prepared raw statements by SQL text, per connection, at most `max` per connection (the least
 * recently used dropped first): for SQL that many subscriptions share, prepared once, not once each.
 */
export class StatementCache {
  readonly #max: number;
  readonly #byDb = new WeakMap<Database.Database, Map<string, Database.Statement>>();

  constructor(max: number) {
    this.#max = max;
  }

  /** The statement of `sql` on `db`; a fresh one while the cached one is still being iterated. */
  get(db: Database.Database, sql: string): Database.Statement {
    let stmts = this.#byDb.get(db);
    if (!stmts) this.#byDb.set(db, (stmts = new Map()));
    let st = stmts.get(sql);
    if (st?.busy) return db.prepare(sql).raw(true);
    if (st) {
      stmts.delete(sql); // most recently used last
    } else {
      st = db.prepare(sql).raw(true);
      if (stmts.size >= this.#max) stmts.delete(stmts.keys().next().value!);
    }
    stmts.set(sql, st);
    return st;
  }
}
