import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { PatinaError } from '../errors';
import { errorFields, log } from '../observability/log';

/** The meta key that marks a file as a backup not yet restored (an agent refuses to open it as it is). */
export const BACKUP_MARK = 'backup_of';

/** How often progress is reported while the copy runs. */
const PROGRESS_MS = 200;

export interface BackupProgress {
  /** Bytes of the copy written so far. */
  bytesDone: number;
  /** Bytes of the database being copied (the copy can end smaller: VACUUM leaves free pages out). */
  bytesTotal: number;
}

export interface BackupResult {
  path: string;
  bytes: number;
  seconds: number;
}

/** True when `dbPath` is a backup copy not yet put in place by `patina restore` (read without changing it). */
export function isBackupCopy(dbPath: string): boolean {
  if (dbPath === ':memory:' || !fs.existsSync(dbPath)) return false;
  let db: Database.Database | null = null;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    return db.prepare('SELECT 1 FROM __patina_meta WHERE key = ?').pluck().get(BACKUP_MARK) !== undefined;
  } catch {
    return false; // not ours, or no meta table yet: the engine's own checks speak for it
  } finally {
    db?.close();
  }
}

/** Refuses a target that is not an absolute path in an existing folder, or that exists already. */
export function checkBackupTarget(file: unknown): string {
  if (typeof file !== 'string' || file === '')
    throw new PatinaError('user', 'backup: expected {"path": "/absolute/path/of/the/backup/file"}');
  if (!path.isAbsolute(file))
    throw new PatinaError(
      'user',
      `backup: the path must be absolute (the agent's working folder is not the caller's): ${file}`,
    );
  if (fs.existsSync(file)) throw new PatinaError('conflict', `backup: ${file} exists already; choose a new file name`);
  const dir = path.dirname(file);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
    throw new PatinaError('user', `backup: folder ${dir} does not exist`);
  return file;
}

/**
 * An online, consistent copy of the database (`VACUUM INTO` on a worker thread, see
 * backup-worker.ts): the agent's thread only polls the copy's size for progress, and writes go on
 * meanwhile. The copy is written beside the target and linked into place once complete and marked
 * as a backup, which `patina restore` puts in place with a new actor id.
 */
export async function backupDatabase(
  dbPath: string,
  file: string,
  mark: Record<string, unknown>,
  onProgress: (p: BackupProgress) => void,
): Promise<BackupResult> {
  const target = checkBackupTarget(file);
  const partial = `${target}.partial-${process.pid}`;
  const t0 = performance.now();
  const bytesTotal = size(dbPath) + size(`${dbPath}-wal`);
  const timer = setInterval(() => onProgress({ bytesDone: size(partial), bytesTotal }), PROGRESS_MS);
  try {
    onProgress({ bytesDone: 0, bytesTotal });
    await new Promise<void>((resolve, reject) => {
      const w = new Worker(path.join(__dirname, 'backup-worker.js'), {
        workerData: { db: dbPath, out: partial, markKey: BACKUP_MARK, mark: JSON.stringify(mark) },
      });
      w.once('message', (m: { ok?: true; error?: string }) => (m.ok ? resolve() : reject(new Error(m.error))));
      w.once('error', reject);
      w.once('exit', (code) => reject(new Error(`the backup worker exited (${code})`)));
    });
    // link, not rename: fails rather than replace a file that appeared at the target meanwhile.
    fs.linkSync(partial, target);
  } catch (err) {
    throw new PatinaError('internal', `backup to ${target} failed: ${(err as Error).message}`);
  } finally {
    clearInterval(timer);
    fs.rmSync(partial, { force: true });
    fs.rmSync(`${partial}-journal`, { force: true });
  }
  const bytes = size(target);
  onProgress({ bytesDone: bytes, bytesTotal: bytes });
  return { path: target, bytes, seconds: (performance.now() - t0) / 1000 };
}

function size(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** POST /v1/admin/backup and `patina backup`: backupDatabase with its start, end or failure logged. */
export async function backupLogged(
  dbPath: string,
  file: string,
  actor: string | null,
  onProgress: (p: BackupProgress) => void,
): Promise<Record<string, unknown>> {
  log.info({ file }, 'backup started');
  try {
    const r = await backupDatabase(dbPath, file, { actor, at: new Date().toISOString() }, onProgress);
    log.info({ file, bytes: r.bytes, seconds: r.seconds }, 'backup written');
    return { path: r.path, bytes: r.bytes, seconds: Math.round(r.seconds * 1000) / 1000, actor_id: actor };
  } catch (err) {
    log.error({ ...errorFields(err), file }, 'backup failed');
    throw err;
  }
}
