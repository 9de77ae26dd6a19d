import type Database from 'better-sqlite3';
import { Lru } from '../lru';

/**
 * Prepared raw statements by SQL text, per connection, at most `max` per connection (the least
 * recently used dropped first): for SQL that many subscriptions share, prepared once, not once each.
 */
export class StatementCache {
  readonly #max: number;
  readonly #byDb = new WeakMap<Database.Database, Lru<string, Database.Statement>>();

  constructor(max: number) {
    this.#max = max;
  }

  /** The statement of `sql` on `db`; a fresh one while the cached one is still being iterated. */
  get(db: Database.Database, sql: string): Database.Statement {
    let stmts = this.#byDb.get(db);
    if (!stmts) this.#byDb.set(db, (stmts = new Lru(this.#max)));
    const st = stmts.get(sql);
    if (st?.busy) return db.prepare(sql).raw(true);
    if (st) return st;
    const fresh = db.prepare(sql).raw(true);
    stmts.set(sql, fresh);
    return fresh;
  }
}
