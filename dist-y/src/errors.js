"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PatinaError = void 0;
exports.sqlStateError = sqlStateError;
exports.fromSqliteError = fromSqliteError;
/** An error users see: a sentence naming the thing at fault, with a kind and, for SQL errors, SQLite's code. */
class PatinaError extends Error {
    kind;
    sqliteCode;
    /** PostgreSQL's SQLSTATE, set where the error is thrown when it is known there; the PG front end sends it. */
    sqlstate;
    constructor(kind, message, sqliteCode, sqlstate) {
        super(message);
        this.name = 'PatinaError';
        this.kind = kind;
        if (sqliteCode !== undefined)
            this.sqliteCode = sqliteCode;
        if (sqlstate !== undefined)
            this.sqlstate = sqlstate;
    }
}
exports.PatinaError = PatinaError;
/** A user error with PostgreSQL's SQLSTATE, raised by the PostgreSQL-compatible parts (functions, codecs). */
function sqlStateError(sqlstate, message, kind = 'user') {
    return new PatinaError(kind, message, undefined, sqlstate);
}
/** Turns anything thrown by SQLite into a PatinaError, keeping SQLite's message and code. */
function fromSqliteError(err, prefix = '') {
    if (err instanceof PatinaError) {
        return prefix ? new PatinaError(err.kind, prefix + err.message, err.sqliteCode, err.sqlstate) : err;
    }
    const e = err;
    const code = typeof e?.code === 'string' ? e.code : undefined;
    const message = prefix + (e?.message ?? String(err));
    if (code === undefined)
        return new PatinaError('internal', message);
    // A duplicate key conflicts with a row that exists (409 over HTTP); NOT NULL, CHECK and the key
    // rule are the request's own fault (400).
    const kind = code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE'
        ? 'conflict'
        : code.startsWith('SQLITE_CONSTRAINT')
            ? 'user'
            : code === 'SQLITE_INTERRUPT'
                ? 'timeout'
                : code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED'
                    ? 'unavailable'
                    : code === 'SQLITE_IOERR' ||
                        code.startsWith('SQLITE_IOERR') ||
                        code === 'SQLITE_CORRUPT' ||
                        code === 'SQLITE_FULL'
                        ? 'internal'
                        : 'user';
    return new PatinaError(kind, message, code);
}
//# sourceMappingURL=errors.js.map