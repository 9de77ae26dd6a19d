"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.openEngine = openEngine;
const engine_1 = require("../engine/engine");
const errors_1 = require("../errors");
const backup_1 = require("./backup");
const db_lock_1 = require("./db-lock");
/**
 * Opens an agent's database: its lock taken first (one agent per database; a second one stops
 * here, naming the first one's pid), and a backup copy not yet restored refused. The lock is
 * given up again when the database cannot be opened.
 */
async function openEngine(db) {
    const lock = db.path === ':memory:' ? null : db_lock_1.DatabaseLock.acquire(db.path);
    try {
        if ((0, backup_1.isBackupCopy)(db.path)) {
            throw new errors_1.PatinaError('user', `${db.path} is a backup made by patina backup; put it in place with \`patina restore\`, which gives it a new actor id`);
        }
        const engine = await engine_1.Engine.open({
            path: db.path,
            schemaPaths: db.schemaPaths,
            readWorkers: { min: db.readWorkersMin, max: db.readWorkersMax },
        });
        return { engine, lock };
    }
    catch (err) {
        lock?.release();
        throw err;
    }
}
//# sourceMappingURL=open-engine.js.map