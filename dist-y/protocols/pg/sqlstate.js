"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PgError = void 0;
exports.pgError = pgError;
exports.sqlstateOf = sqlstateOf;
// Errors to SQLSTATE: the one table of this front end (HTTP has its status table).
const key_rule_1 = require("../../src/crdt/key-rule");
const errors_1 = require("../../src/errors");
const internal_error_1 = require("../../src/observability/internal-error");
/** SQLSTATE by SQLite extended result code, before anything else is looked at. */
const BY_SQLITE_CODE = {
    SQLITE_CONSTRAINT_UNIQUE: '23505',
    SQLITE_CONSTRAINT_PRIMARYKEY: '23505',
    SQLITE_CONSTRAINT_NOTNULL: '23502',
    SQLITE_CONSTRAINT_CHECK: '23514',
    SQLITE_CONSTRAINT_FOREIGNKEY: '23503',
    SQLITE_CONSTRAINT: '23000',
    SQLITE_MISMATCH: '42804',
    SQLITE_INTERRUPT: '57014',
    SQLITE_READONLY: '25006',
    SQLITE_TOOBIG: '54000',
    SQLITE_BUSY: '55P03',
    SQLITE_LOCKED: '55P03',
};
/**
 * SQLSTATE of SQLite's own errors (and better-sqlite3's binding errors), whose only code is
 * SQLITE_ERROR (or none): their message is all SQLite gives. Patina's own errors never come here:
 * they carry their SQLSTATE in the `sqlstate` field where they are thrown. The key rule's refusal
 * is raised by a trigger (RAISE carries no code), so its mark is matched here too.
 */
const BY_SQLITE_MESSAGE = [
    [new RegExp(key_rule_1.KEY_RULE_MARK), '23502'],
    [/no such table|no such view|unknown database/i, '42P01'],
    [/no such column|has no column named/i, '42703'],
    [/no such function|wrong number of arguments to function/i, '42883'],
    [/syntax error|incomplete input|unrecognized token|near ".*":/i, '42601'],
    [/ambiguous column name/i, '42702'],
    // PostgreSQL's parser refuses set operations of different widths ("each UNION query must have ...")
    [/do not have the same number of result columns/i, '42601'],
    [/datatype mismatch/i, '42804'],
    // sum() of integers past 64 bits (PostgreSQL's sum of bigint is a numeric and goes on)
    [/^integer overflow$/i, '22003'],
    [/Missing named parameter|Too many parameter|Too few parameter/i, '08P01'],
];
/** SQLSTATE by error kind, when nothing more precise is known. */
const BY_KIND = {
    user: '42000',
    unauthenticated: '28000',
    forbidden: '42501',
    'not-found': '42704',
    conflict: '23000',
    'too-large': '54000',
    timeout: '57014',
    unavailable: '57P03',
    internal: 'XX000',
};
/** An error with PostgreSQL's SQLSTATE and, where PostgreSQL gives one, its DETAIL line. */
class PgError extends errors_1.PatinaError {
    detail;
    /** CONTEXT: where it happened (COPY t, line 3). */
    where;
    constructor(kind, message, code, detail) {
        super(kind, message, undefined, code);
        if (detail !== undefined)
            this.detail = detail;
    }
}
exports.PgError = PgError;
/** An error a session reports with its own SQLSTATE (25P02, 25006, ...). */
function pgError(code, message, kind = 'user', detail) {
    return new PgError(kind, message, code, detail);
}
/** The SQLSTATE and message of anything a statement threw. */
function sqlstateOf(err) {
    if (err instanceof PgError)
        return {
            code: err.sqlstate,
            message: err.message,
            severity: 'ERROR',
            detail: err.detail,
            where: err.where,
        };
    const e = err instanceof errors_1.PatinaError
        ? err
        : typeof err?.code === 'string' &&
            /^(SQLITE|PATINA_)/.test(String(err.code))
            ? (0, errors_1.fromSqliteError)(err)
            : err instanceof RangeError || err instanceof TypeError
                ? new errors_1.PatinaError('user', err.message)
                : (0, internal_error_1.internalError)(err, 'PostgreSQL front end');
    // An internal fault's own message never reaches the client: it gets an id the log line carries.
    if (e.kind === 'internal' && !(e instanceof internal_error_1.InternalError)) {
        const hidden = (0, internal_error_1.internalError)(err, 'PostgreSQL front end');
        return { code: BY_KIND.internal, message: hidden.message, severity: 'ERROR' };
    }
    if (e.sqlstate)
        return { code: e.sqlstate, message: e.message, severity: 'ERROR' };
    const sc = e.sqliteCode;
    if (sc && BY_SQLITE_CODE[sc] && !e.message.includes(key_rule_1.KEY_RULE_MARK))
        return { code: BY_SQLITE_CODE[sc], message: e.message, severity: 'ERROR' };
    for (const [re, code] of BY_SQLITE_MESSAGE)
        if (re.test(e.message))
            return { code, message: e.message, severity: 'ERROR' };
    if (sc?.startsWith('SQLITE_CONSTRAINT'))
        return { code: '23000', message: e.message, severity: 'ERROR' };
    return { code: BY_KIND[e.kind], message: e.message, severity: 'ERROR' };
}
//# sourceMappingURL=sqlstate.js.map