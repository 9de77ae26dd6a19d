import type { Config } from '../config/config';
import type { Changeset } from '../bus/changeset';
import { Engine } from '../engine/engine';
import { PatinaError } from '../errors';
import { isBackupCopy } from './backup';
import { DatabaseLock } from './db-lock';

/**
 * Opens an agent's database: its lock taken first (one agent per database; a second one stops
 * here, naming the first one's pid), and a backup copy not yet restored refused. The lock is
 * given up again when the database cannot be opened.
 */
export async function openEngine(db: Config['db']): Promise<{ engine: Engine<Changeset>; lock: DatabaseLock | null }> {
  const lock = db.path === ':memory:' ? null : DatabaseLock.acquire(db.path);
  try {
    if (isBackupCopy(db.path)) {
      throw new PatinaError(
        'user',
        `${db.path} is a backup made by patina backup; put it in place with \`patina restore\`, which gives it a new actor id`,
      );
    }
    const engine = await Engine.open<Changeset>({
      path: db.path,
      schemaPaths: db.schemaPaths,
      readWorkers: { min: db.readWorkersMin, max: db.readWorkersMax },
    });
    return { engine, lock };
  } catch (err) {
    lock?.release();
    throw err;
  }
}
