"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.restoreDatabase = restoreDatabase;
const node_crypto_1 = __importDefault(require("node:crypto"));
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const errors_1 = require("../errors");
const bookkeeping_1 = require("../cluster/bookkeeping");
const capture_1 = require("../crdt/capture");
const backup_1 = require("./backup");
const db_lock_1 = require("./db-lock");
/**
 * Puts a backup in place as the database at `dbPath` (the agent stopped; refused while one holds the
 * database's lock). The restored database gets a new actor id: the backup's actor may still be
 * alive, or have written after the backup (versions peers hold and the backup lacks), so writing
 * under it again would give two different changes one (actor, version). The old actor's versions
 * stay in the file as a remote origin, 1..its version at backup time, so sync fetches only what
 * came after.
 */
function restoreDatabase(backupFile, dbPath) {
    const src = node_path_1.default.resolve(backupFile);
    const dest = node_path_1.default.resolve(dbPath);
    checkBackup(src);
    // As `patina agent --db-path` does: a new folder for a new database is made.
    node_fs_1.default.mkdirSync(node_path_1.default.dirname(dest), { recursive: true });
    const lock = db_lock_1.DatabaseLock.acquire(dest, 'restore');
    const tmp = `${dest}.restoring`;
    try {
        node_fs_1.default.rmSync(tmp, { force: true });
        node_fs_1.default.copyFileSync(src, tmp);
        const result = newIdentity(tmp);
        // The old database's WAL and the subscriptions kept beside it belong to other data: they go first.
        for (const f of [
            `${dest}-wal`,
            `${dest}-shm`,
            `${dest}.subscriptions`,
            `${dest}.subscriptions-wal`,
            `${dest}.subscriptions-shm`,
        ])
            node_fs_1.default.rmSync(f, { force: true });
        node_fs_1.default.renameSync(tmp, dest);
        return { path: dest, ...result };
    }
    catch (err) {
        node_fs_1.default.rmSync(tmp, { force: true });
        if (err instanceof errors_1.PatinaError)
            throw err;
        throw new errors_1.PatinaError('internal', `restore to ${dest} failed: ${err.message}`);
    }
    finally {
        lock.release();
    }
}
/** Refuses a file that is missing, not SQLite, damaged, or not made by `patina backup`. */
function checkBackup(file) {
    if (!node_fs_1.default.existsSync(file))
        throw new errors_1.PatinaError('user', `restore: backup file ${file} does not exist`);
    let db;
    try {
        db = new better_sqlite3_1.default(file, { readonly: true, fileMustExist: true });
    }
    catch (err) {
        throw new errors_1.PatinaError('user', `restore: cannot open ${file}: ${err.message}`);
    }
    try {
        let marked;
        try {
            marked = db.prepare('SELECT value FROM __patina_meta WHERE key = ?').pluck().get(backup_1.BACKUP_MARK);
        }
        catch {
            marked = undefined;
        }
        if (marked === undefined)
            throw new errors_1.PatinaError('user', `restore: ${file} is not a backup made by patina backup`);
        const check = db.pragma('quick_check', { simple: true });
        if (check !== 'ok')
            throw new errors_1.PatinaError('user', `restore: ${file} is damaged: ${String(check)}`);
    }
    catch (err) {
        if (err instanceof errors_1.PatinaError)
            throw err;
        throw new errors_1.PatinaError('user', `restore: ${file} is not a usable SQLite database: ${err.message}`);
    }
    finally {
        db.close();
    }
}
/** Gives the copy a new site id, keeps the old one's versions as a remote origin, drops the backup mark. */
function newIdentity(file) {
    const db = new better_sqlite3_1.default(file);
    try {
        db.defaultSafeIntegers(true);
        const get = db.prepare('SELECT value FROM __patina_meta WHERE key = ?').pluck();
        const set = db.prepare('INSERT INTO __patina_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
        const out = db.transaction(() => {
            const old = get.get('site_id');
            const oldVersion = Number(get.get(capture_1.VERSION_KEY) ?? 0);
            const site = node_crypto_1.default.randomBytes(16);
            set.run('site_id', site);
            set.run(capture_1.VERSION_KEY, 0n);
            db.prepare('DELETE FROM __patina_meta WHERE key = ?').run(backup_1.BACKUP_MARK);
            for (const sql of bookkeeping_1.VERSION_TABLES_DDL)
                db.exec(sql);
            if (old && oldVersion > 0) {
                db.prepare('INSERT INTO __patina_versions (site_id, head) VALUES (?, ?) ON CONFLICT (site_id) DO UPDATE SET head = max(head, excluded.head)').run(old, BigInt(oldVersion));
            }
            set.run('restored_from', JSON.stringify({ actor: old?.toString('hex') ?? null, version: oldVersion, at: new Date().toISOString() }));
            return { actor: site.toString('hex'), previousActor: old?.toString('hex') ?? '', previousVersion: oldVersion };
        })();
        db.pragma('journal_mode = WAL');
        return out;
    }
    finally {
        db.close();
    }
}
//# sourceMappingURL=restore.js.map