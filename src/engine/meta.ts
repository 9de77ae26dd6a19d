import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type Database from 'better-sqlite3';
import { compile } from './database';

const META = '__patina_meta';

/** The key of the writer's count of committed transactions (see Writer.commits). */
export const COMMITS_KEY = 'commits';

/** Reads the commit count in a read transaction of another connection: the position it sees. */
export const COMMITS_SQL = `SELECT value FROM ${META} WHERE key = '${COMMITS_KEY}'`;

/** The agent's own key-value table: site id and other facts kept with the data. */
export class MetaStore {
  readonly #db: Database.Database;
  readonly #get: Database.Statement;
  readonly #set: Database.Statement;

  private constructor(db: Database.Database, get: Database.Statement, set: Database.Statement) {
    this.#db = db;
    this.#get = get;
    this.#set = set;
  }

  static open(knex: Knex, db: Database.Database): MetaStore {
    const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(META);
    if (!exists) {
      for (const q of knex.schema
        .createTable(META, (t) => {
          t.text('key').primary().notNullable();
          t.binary('value');
        })
        .toSQL()) {
        db.exec(q.sql);
      }
    }
    const get = compile(knex(META).select('value').where('key', '') /* SQL only; the key is bound at run time */);
    // On conflict only the value: merge() with no columns sets the key too, and SQLite then rewrites
    // the key's index entry, one more page written to the WAL by every commit (the writer sets the
    // commit count and db_version in each).
    const set = compile(knex(META).insert({ key: '', value: '' }).onConflict('key').merge(['value']));
    return new MetaStore(db, db.prepare(get.sql).pluck(), db.prepare(set.sql));
  }

  get(key: string): unknown {
    return this.#get.get(key);
  }

  set(key: string, value: unknown): void {
    this.#set.run(key, value);
  }

  /** This database's 16-byte site id, made once and kept. */
  siteId(): Buffer {
    let id = this.get('site_id') as Buffer | undefined;
    if (!id) {
      id = crypto.randomBytes(16);
      this.#db.transaction(() => this.set('site_id', id))();
    }
    return Buffer.from(id);
  }
}
