import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PatinaError } from '../errors';
import { VERSION_TABLES_DDL } from '../cluster/bookkeeping';
import { VERSION_KEY } from '../crdt/capture';
import { BACKUP_MARK } from './backup';
import { DatabaseLock } from './db-lock';

export interface RestoreResult {
  path: string;
  /** The restored agent's new actor id (hex). */
  actor: string;
  /** The actor id the backup was made under, now kept as a remote origin. */
  previousActor: string;
  /** The highest version the backup holds of that actor. */
  previousVersion: number;
}

/**
 * Puts a backup in place as the database at `dbPath` (the agent stopped; refused while one holds the
 * database's lock). The restored database gets a new actor id: the backup's actor may still be
 * alive, or have written after the backup (versions peers hold and the backup lacks), so writing
 * under it again would give two different changes one (actor, version). The old actor's versions
 * stay in the file as a remote origin, 1..its version at backup time, so sync fetches only what
 * came after.
 */
export function restoreDatabase(backupFile: string, dbPath: string): RestoreResult {
  const src = path.resolve(backupFile);
  const dest = path.resolve(dbPath);
  checkBackup(src);
  // As `patina agent --db-path` does: a new folder for a new database is made.
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const lock = DatabaseLock.acquire(dest, 'restore');
  const tmp = `${dest}.restoring`;
  try {
    fs.rmSync(tmp, { force: true });
    fs.copyFileSync(src, tmp);
    const result = newIdentity(tmp);
    // The old database's WAL and the subscriptions kept beside it belong to other data: they go first.
    for (const f of [
      `${dest}-wal`,
      `${dest}-shm`,
      `${dest}.subscriptions`,
      `${dest}.subscriptions-wal`,
      `${dest}.subscriptions-shm`,
    ])
      fs.rmSync(f, { force: true });
    fs.renameSync(tmp, dest);
    return { path: dest, ...result };
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    if (err instanceof PatinaError) throw err;
    throw new PatinaError('internal', `restore to ${dest} failed: ${(err as Error).message}`);
  } finally {
    lock.release();
  }
}

/** Refuses a file that is missing, not SQLite, damaged, or not made by `patina backup`. */
function checkBackup(file: string): void {
  if (!fs.existsSync(file)) throw new PatinaError('user', `restore: backup file ${file} does not exist`);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new PatinaError('user', `restore: cannot open ${file}: ${(err as Error).message}`);
  }
  try {
    let marked: unknown;
    try {
      marked = db.prepare('SELECT value FROM __patina_meta WHERE key = ?').pluck().get(BACKUP_MARK);
    } catch {
      marked = undefined;
    }
    if (marked === undefined) throw new PatinaError('user', `restore: ${file} is not a backup made by patina backup`);
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new PatinaError('user', `restore: ${file} is damaged: ${String(check)}`);
  } catch (err) {
    if (err instanceof PatinaError) throw err;
    throw new PatinaError('user', `restore: ${file} is not a usable SQLite database: ${(err as Error).message}`);
  } finally {
    db.close();
  }
}

/** Gives the copy a new site id, keeps the old one's versions as a remote origin, drops the backup mark. */
function newIdentity(file: string): { actor: string; previousActor: string; previousVersion: number } {
  const db = new Database(file);
  try {
    db.defaultSafeIntegers(true);
    const get = db.prepare('SELECT value FROM __patina_meta WHERE key = ?').pluck();
    const set = db.prepare(
      'INSERT INTO __patina_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    const out = db.transaction(() => {
      const old = get.get('site_id') as Buffer | undefined;
      const oldVersion = Number((get.get(VERSION_KEY) as bigint | number | string | undefined) ?? 0);
      const site = crypto.randomBytes(16);
      set.run('site_id', site);
      set.run(VERSION_KEY, 0n);
      db.prepare('DELETE FROM __patina_meta WHERE key = ?').run(BACKUP_MARK);
      for (const sql of VERSION_TABLES_DDL) db.exec(sql);
      if (old && oldVersion > 0) {
        db.prepare(
          'INSERT INTO __patina_versions (site_id, head) VALUES (?, ?) ON CONFLICT (site_id) DO UPDATE SET head = max(head, excluded.head)',
        ).run(old, BigInt(oldVersion));
      }
      set.run(
        'restored_from',
        JSON.stringify({ actor: old?.toString('hex') ?? null, version: oldVersion, at: new Date().toISOString() }),
      );
      return { actor: site.toString('hex'), previousActor: old?.toString('hex') ?? '', previousVersion: oldVersion };
    })();
    db.pragma('journal_mode = WAL');
    return out;
  } finally {
    db.close();
  }
}
