"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.BACKUP_MARK = void 0;
exports.isBackupCopy = isBackupCopy;
exports.checkBackupTarget = checkBackupTarget;
exports.backupDatabase = backupDatabase;
exports.backupLogged = backupLogged;
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const node_worker_threads_1 = require("node:worker_threads");
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const errors_1 = require("../errors");
const log_1 = require("../observability/log");
/** The meta key that marks a file as a backup not yet restored (an agent refuses to open it as it is). */
exports.BACKUP_MARK = 'backup_of';
/** How often progress is reported while the copy runs. */
const PROGRESS_MS = 200;
/** True when `dbPath` is a backup copy not yet put in place by `patina restore` (read without changing it). */
function isBackupCopy(dbPath) {
    if (dbPath === ':memory:' || !node_fs_1.default.existsSync(dbPath))
        return false;
    let db = null;
    try {
        db = new better_sqlite3_1.default(dbPath, { readonly: true, fileMustExist: true });
        return db.prepare('SELECT 1 FROM __patina_meta WHERE key = ?').pluck().get(exports.BACKUP_MARK) !== undefined;
    }
    catch {
        return false; // not ours, or no meta table yet: the engine's own checks speak for it
    }
    finally {
        db?.close();
    }
}
/** Refuses a target that is not an absolute path in an existing folder, or that exists already. */
function checkBackupTarget(file) {
    if (typeof file !== 'string' || file === '')
        throw new errors_1.PatinaError('user', 'backup: expected {"path": "/absolute/path/of/the/backup/file"}');
    if (!node_path_1.default.isAbsolute(file))
        throw new errors_1.PatinaError('user', `backup: the path must be absolute (the agent's working folder is not the caller's): ${file}`);
    if (node_fs_1.default.existsSync(file))
        throw new errors_1.PatinaError('conflict', `backup: ${file} exists already; choose a new file name`);
    const dir = node_path_1.default.dirname(file);
    if (!node_fs_1.default.existsSync(dir) || !node_fs_1.default.statSync(dir).isDirectory())
        throw new errors_1.PatinaError('user', `backup: folder ${dir} does not exist`);
    return file;
}
/**
 * An online, consistent copy of the database (`VACUUM INTO` on a worker thread, see
 * backup-worker.ts): the agent's thread only polls the copy's size for progress, and writes go on
 * meanwhile. The copy is written beside the target and linked into place once complete and marked
 * as a backup, which `patina restore` puts in place with a new actor id.
 */
async function backupDatabase(dbPath, file, mark, onProgress) {
    const target = checkBackupTarget(file);
    const partial = `${target}.partial-${process.pid}`;
    const t0 = performance.now();
    const bytesTotal = size(dbPath) + size(`${dbPath}-wal`);
    const timer = setInterval(() => onProgress({ bytesDone: size(partial), bytesTotal }), PROGRESS_MS);
    try {
        onProgress({ bytesDone: 0, bytesTotal });
        await new Promise((resolve, reject) => {
            const w = new node_worker_threads_1.Worker(node_path_1.default.join(__dirname, 'backup-worker.js'), {
                workerData: { db: dbPath, out: partial, markKey: exports.BACKUP_MARK, mark: JSON.stringify(mark) },
            });
            w.once('message', (m) => (m.ok ? resolve() : reject(new Error(m.error))));
            w.once('error', reject);
            w.once('exit', (code) => reject(new Error(`the backup worker exited (${code})`)));
        });
        // link, not rename: fails rather than replace a file that appeared at the target meanwhile.
        node_fs_1.default.linkSync(partial, target);
    }
    catch (err) {
        throw new errors_1.PatinaError('internal', `backup to ${target} failed: ${err.message}`);
    }
    finally {
        clearInterval(timer);
        node_fs_1.default.rmSync(partial, { force: true });
        node_fs_1.default.rmSync(`${partial}-journal`, { force: true });
    }
    const bytes = size(target);
    onProgress({ bytesDone: bytes, bytesTotal: bytes });
    return { path: target, bytes, seconds: (performance.now() - t0) / 1000 };
}
function size(file) {
    try {
        return node_fs_1.default.statSync(file).size;
    }
    catch {
        return 0;
    }
}
/** POST /v1/admin/backup and `patina backup`: backupDatabase with its start, end or failure logged. */
async function backupLogged(dbPath, file, actor, onProgress) {
    log_1.log.info({ file }, 'backup started');
    try {
        const r = await backupDatabase(dbPath, file, { actor, at: new Date().toISOString() }, onProgress);
        log_1.log.info({ file, bytes: r.bytes, seconds: r.seconds }, 'backup written');
        return { path: r.path, bytes: r.bytes, seconds: Math.round(r.seconds * 1000) / 1000, actor_id: actor };
    }
    catch (err) {
        log_1.log.error({ ...(0, log_1.errorFields)(err), file }, 'backup failed');
        throw err;
    }
}
//# sourceMappingURL=backup.js.map