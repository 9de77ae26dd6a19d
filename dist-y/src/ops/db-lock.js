"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.DatabaseLock = void 0;
exports.lockPath = lockPath;
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const better_sqlite3_1 = __importDefault(require("better-sqlite3"));
const errors_1 = require("../errors");
/**
 * The lock that lets one agent at a time open a database: `<db>.lock`, a small SQLite file whose
 * write lock (RESERVED, an fcntl lock) the holder keeps for its whole life. The OS drops it when the
 * holder exits, however it exits (SIGKILL too), so a stale lock cannot outlive its agent. Others can
 * still read the file, which names the holder's pid.
 */
class DatabaseLock {
    path;
    #db;
    constructor(file, db) {
        this.path = file;
        this.#db = db;
    }
    /** Takes the lock of `dbPath` for this process, or fails at once naming the agent that holds it. */
    static acquire(dbPath, holder = 'agent') {
        const file = lockPath(dbPath);
        node_fs_1.default.mkdirSync(node_path_1.default.dirname(file), { recursive: true });
        let db;
        try {
            db = new better_sqlite3_1.default(file, { timeout: 0 });
        }
        catch (err) {
            throw new errors_1.PatinaError('user', `cannot open the lock file ${file}: ${err.message}`);
        }
        try {
            db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, what TEXT NOT NULL, since TEXT NOT NULL)');
            db.exec('BEGIN IMMEDIATE');
            db.exec('DELETE FROM holder');
            db.prepare('INSERT INTO holder (pid, what, since) VALUES (?, ?, ?)').run(process.pid, holder, new Date().toISOString());
            db.exec('COMMIT');
            // Held from here on: no write of ours follows, so nothing is journalled and readers go on.
            db.exec('BEGIN IMMEDIATE');
        }
        catch (err) {
            const busy = /SQLITE_BUSY|SQLITE_LOCKED/.test(err.code ?? '');
            const who = busy ? readHolder(db) : null;
            db.close();
            if (!busy)
                throw new errors_1.PatinaError('internal', `cannot take the lock ${file}: ${err.message}`);
            throw new errors_1.PatinaError('conflict', `database ${dbPath} is in use by ${who ? `a running ${who.what} (pid ${who.pid})` : 'another running agent'}; only one agent may open a database`);
        }
        return new DatabaseLock(file, db);
    }
    /** Gives the lock up (the agent stopped). */
    release() {
        if (!this.#db)
            return;
        try {
            this.#db.exec('ROLLBACK');
        }
        catch {
            // already ended
        }
        this.#db.close();
        this.#db = null;
    }
}
exports.DatabaseLock = DatabaseLock;
function lockPath(dbPath) {
    return `${node_path_1.default.resolve(dbPath)}.lock`;
}
function readHolder(db) {
    try {
        const r = db.prepare('SELECT pid, what FROM holder LIMIT 1').get();
        return r ?? null;
    }
    catch {
        return null;
    }
}
//# sourceMappingURL=db-lock.js.map