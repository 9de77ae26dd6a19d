import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import knexFactory, { type Knex } from 'knex';
import { installDateFunctions } from './dates';
import { installPgFunctions } from './pg-functions';

/**
 * The database file, opened through knex with the better-sqlite3 driver. knex owns the connection
 * (its pool of one configures it) and builds the SQL of the agent's own tables; statements run
 * synchronously on the connection itself, because knex.raw rewrites every `?` it sees, even inside
 * string literals (`SELECT '?', ?` fails with "Expected 1 bindings, saw 2").
 */
export interface OpenDatabase {
  knex: Knex;
  db: Database.Database;
}

/** Opens (creating if needed) the SQLite file in WAL mode with the pragmas the agent relies on. */
export async function openDatabase(file: string): Promise<OpenDatabase> {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: Database.Database, done: (err: Error | null, conn: Database.Database) => void) {
        try {
          conn.pragma('journal_mode = WAL');
          // NORMAL in WAL mode: a commit is in the OS before it is acknowledged, so it survives a
          // SIGKILL of the agent; only an OS crash or power loss can take the last commits.
          conn.pragma('synchronous = NORMAL');
          conn.pragma('busy_timeout = 5000');
          conn.pragma('foreign_keys = OFF');
          // The writer's page cache: 64 MiB at most, taken as pages are used. At SQLite's default
          // (2 MiB) a random one-row write to a 100,000-row table and its clock table read most of
          // its pages back from the OS each time.
          conn.pragma('cache_size = -65536');
          // Change capture's per-transaction state lives in temp tables (src/crdt/clock-sql.ts).
          conn.pragma('temp_store = MEMORY');
          // ON so that rows deleted by REPLACE conflict resolution fire delete triggers: change
          // capture must see them (SQLite skips those triggers when this is OFF).
          conn.pragma('recursive_triggers = ON');
          conn.defaultSafeIntegers(true);
          installDateFunctions(conn); // PostgreSQL's date functions, for writes that use them
          installPgFunctions(conn); // and its strict casts and division
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
  });
  // The agent holds the single connection for its lifetime; knex gets it back on destroy().
  const db = (await knex.client.acquireConnection()) as Database.Database;
  return { knex, db };
}

/** Runs a query built with knex synchronously on the writer connection. */
export function compile(qb: Knex.QueryBuilder | Knex.Raw): { sql: string; bindings: unknown[] } {
  const native = qb.toSQL().toNative();
  return { sql: native.sql, bindings: [...native.bindings] };
}
