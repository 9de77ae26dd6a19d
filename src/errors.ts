/** What kind of fault an error is; each front end maps kinds to its own codes in one table. */
export type ErrorKind =
  | 'user' // the request is wrong: bad SQL, bad parameters, refused statement
  | 'unauthenticated' // no credentials, or credentials that are not valid
  | 'forbidden' // valid credentials without the role the request needs
  | 'not-found' // a named thing does not exist
  | 'conflict' // a constraint or concurrent state refused the change
  | 'too-large' // a body or value over a configured limit
  | 'timeout' // interrupted because it ran too long or was cancelled
  | 'unavailable' // the agent is starting or stopping
  | 'internal'; // a fault of the agent itself

/** An error users see: a sentence naming the thing at fault, with a kind and, for SQL errors, SQLite's code. */
export class PatinaError extends Error {
  readonly kind: ErrorKind;
  readonly sqliteCode?: string;
  /** PostgreSQL's SQLSTATE, set where the error is thrown when it is known there; the PG front end sends it. */
  readonly sqlstate?: string;
  /** PostgreSQL's HINT, where the error is thrown with one ('Perhaps you need a different "datestyle" setting.'). */
  hint?: string;
  /** PostgreSQL's DETAIL, where the error is thrown with one ('A field with precision 5, scale 1 must round ...'). */
  detail?: string;

  constructor(kind: ErrorKind, message: string, sqliteCode?: string, sqlstate?: string) {
    super(message);
    this.name = 'PatinaError';
    this.kind = kind;
    if (sqliteCode !== undefined) this.sqliteCode = sqliteCode;
    if (sqlstate !== undefined) this.sqlstate = sqlstate;
  }
}

/** A user error with PostgreSQL's SQLSTATE (and HINT), raised by the PostgreSQL-compatible parts (functions, codecs). */
export function sqlStateError(sqlstate: string, message: string, kind: ErrorKind = 'user', hint?: string): PatinaError {
  const err = new PatinaError(kind, message, undefined, sqlstate);
  if (hint !== undefined) err.hint = hint;
  return err;
}

/** Turns anything thrown by SQLite into a PatinaError, keeping SQLite's message and code. */
export function fromSqliteError(err: unknown, prefix = ''): PatinaError {
  if (err instanceof PatinaError) {
    if (!prefix) return err;
    const e = new PatinaError(err.kind, prefix + err.message, err.sqliteCode, err.sqlstate);
    if (err.hint !== undefined) e.hint = err.hint;
    if (err.detail !== undefined) e.detail = err.detail;
    return e;
  }
  const e = err as { message?: string; code?: string };
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const message = prefix + (e?.message ?? String(err));
  if (code === undefined) return new PatinaError('internal', message);
  // A duplicate key conflicts with a row that exists (409 over HTTP); NOT NULL, CHECK and the key
  // rule are the request's own fault (400).
  const kind =
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE'
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
