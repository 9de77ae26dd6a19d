import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PatinaError } from '../errors';

/**
 * The lock that lets one agent at a time open a database: `<db>.lock`, a small SQLite file whose
 * write lock (RESERVED, an fcntl lock) the holder keeps for its whole life. The OS drops it when the
 * holder exits, however it exits (SIGKILL too), so a stale lock cannot outlive its agent. Others can
 * still read the file, which names the holder's pid.
 */
export class DatabaseLock {
  readonly path: string;
  #db: Database.Database | null;

  private constructor(file: string, db: Database.Database) {
    this.path = file;
    this.#db = db;
  }

  /** Takes the lock of `dbPath` for this process, or fails at once naming the agent that holds it. */
  static acquire(dbPath: string, holder = 'agent'): DatabaseLock {
    const file = lockPath(dbPath);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    let db: Database.Database;
    try {
      db = new Database(file, { timeout: 0 });
    } catch (err) {
      throw new PatinaError('user', `cannot open the lock file ${file}: ${(err as Error).message}`);
    }
    try {
      db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, what TEXT NOT NULL, since TEXT NOT NULL)');
      db.exec('BEGIN IMMEDIATE');
      db.exec('DELETE FROM holder');
      db.prepare('INSERT INTO holder (pid, what, since) VALUES (?, ?, ?)').run(
        process.pid,
        holder,
        new Date().toISOString(),
      );
      db.exec('COMMIT');
      // Held from here on: no write of ours follows, so nothing is journalled and readers go on.
      db.exec('BEGIN IMMEDIATE');
    } catch (err) {
      const busy = /SQLITE_BUSY|SQLITE_LOCKED/.test((err as { code?: string }).code ?? '');
      const who = busy ? readHolder(db) : null;
      db.close();
      if (!busy) throw new PatinaError('internal', `cannot take the lock ${file}: ${(err as Error).message}`);
      throw new PatinaError(
        'conflict',
        `database ${dbPath} is in use by ${who ? `a running ${who.what} (pid ${who.pid})` : 'another running agent'}; only one agent may open a database`,
      );
    }
    return new DatabaseLock(file, db);
  }

  /** Gives the lock up (the agent stopped). */
  release(): void {
    if (!this.#db) return;
    try {
      this.#db.exec('ROLLBACK');
    } catch {
      // already ended
    }
    this.#db.close();
    this.#db = null;
  }
}

export function lockPath(dbPath: string): string {
  return `${path.resolve(dbPath)}.lock`;
}

function readHolder(db: Database.Database): { pid: number; what: string } | null {
  try {
    const r = db.prepare('SELECT pid, what FROM holder LIMIT 1').get() as { pid: number; what: string } | undefined;
    return r ?? null;
  } catch {
    return null;
  }
}
