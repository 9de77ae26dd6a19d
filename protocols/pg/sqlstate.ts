// Errors to SQLSTATE: the one table of this front end (HTTP has its status table).
import { KEY_RULE_MARK } from '../../src/crdt/key-rule';
import { type ErrorKind, PatinaError, fromSqliteError } from '../../src/errors';
import { InternalError, internalError } from '../../src/observability/internal-error';
import { lookup } from '../../src/lookup';

/** SQLSTATE by SQLite extended result code, before anything else is looked at. */
const BY_SQLITE_CODE: Record<string, string> = lookup({
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
});

/**
 * SQLSTATE of SQLite's own errors (and better-sqlite3's binding errors), whose only code is
 * SQLITE_ERROR (or none): their message is all SQLite gives. Patina's own errors never come here:
 * they carry their SQLSTATE in the `sqlstate` field where they are thrown. The key rule's refusal
 * is raised by a trigger (RAISE carries no code), so its mark is matched here too.
 */
const REG_CAST = /no such function: __pg_(reg(?:class|type|namespace))/i;

const BY_SQLITE_MESSAGE: [RegExp, string][] = [
  [new RegExp(KEY_RULE_MARK), '23502'],
  [/no such table|no such view|unknown database/i, '42P01'],
  [/no such column|has no column named/i, '42703'],
  // a per-row cast to regclass, regtype or regnamespace (a column's, a parameter's) in a statement
  // that reads the database's tables: its function is the catalog connection's only
  [REG_CAST, '0A000'],
  [/no such function|wrong number of arguments to function/i, '42883'],
  [/syntax error|incomplete input|unrecognized token|near ".*":/i, '42601'],
  [/ambiguous column name/i, '42702'],
  // PostgreSQL's parser refuses set operations of different widths ("each UNION query must have ...")
  [/do not have the same number of result columns/i, '42601'],
  [/datatype mismatch/i, '42804'],
  // VALUES rows of different widths, and an ON CONFLICT target no key or unique index matches
  [/^all VALUES must have the same number of terms$/, '42601'],
  [/^ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint$/, '42P10'],
  // sum() of integers past 64 bits (PostgreSQL's sum of bigint is a numeric and goes on)
  [/^integer overflow$/i, '22003'],
  [/Missing named parameter|Too many parameter|Too few parameter/i, '08P01'],
];

/** SQLSTATE by error kind, when nothing more precise is known. */
const BY_KIND: Record<ErrorKind, string> = {
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
export class PgError extends PatinaError {
  /** CONTEXT: where it happened (COPY t, line 3). */
  where?: string;
  /** The object a constraint error is about, as PostgreSQL names it in fields of its own (psycopg's `diag`). */
  object?: ErrorObject;
  /** The text the error's position points at when it is not the name its message says (`j.n` for "n"). */
  positionName?: string;
  /** Where in its statement's text the error is (0-based), as PostgreSQL's position: the connection adds the statement's place. */
  position?: number;
  /** PostgreSQL gives this error no position (ANALYZE's unknown table): none is looked for in the text. */
  unplaced?: boolean;

  constructor(kind: ErrorKind, message: string, code: string, detail?: string) {
    super(kind, message, undefined, code);
    if (detail !== undefined) this.detail = detail;
  }
}

/** The schema, table, column and constraint an error names (ErrorResponse's s, t, c and n fields). */
export interface ErrorObject {
  schema?: string;
  table?: string;
  column?: string;
  constraint?: string;
}

/** An error at a place of its statement's text (0-based): PostgreSQL's position, psql's `LINE 1:` and caret. */
export function pgErrorAt(code: string, message: string, position: number): PatinaError {
  const err = new PgError('user', message, code);
  err.position = position;
  return err;
}

/** The error with the position `at` when it is one of Patina's with none (a type name's 42704 at the name). */
export function atPlace(err: unknown, at: number): unknown {
  if (err instanceof PgError && err.position === undefined) err.position = at;
  return err;
}

/** An error a session reports with its own SQLSTATE (25P02, 25006, ...). */
export function pgError(code: string, message: string, kind: ErrorKind = 'user', detail?: string): PatinaError {
  return new PgError(kind, message, code, detail);
}

/** The SQLSTATE and message of anything a statement threw. */
export function sqlstateOf(err: unknown): {
  code: string;
  message: string;
  severity: 'ERROR' | 'FATAL';
  detail?: string;
  hint?: string;
  where?: string;
  object?: ErrorObject;
  positionName?: string;
  position?: number;
  unplaced?: boolean;
} {
  if (err instanceof PgError)
    return {
      code: err.sqlstate!,
      message: err.message,
      severity: 'ERROR',
      detail: err.detail,
      hint: err.hint,
      where: err.where,
      object: err.object,
      ...(err.positionName ? { positionName: err.positionName } : {}),
      position: err.position,
      ...(err.unplaced ? { unplaced: true } : {}),
    };
  const e =
    err instanceof PatinaError
      ? err
      : typeof (err as { code?: unknown })?.code === 'string' &&
          /^(SQLITE|PATINA_)/.test(String((err as { code: string }).code))
        ? fromSqliteError(err)
        : err instanceof RangeError || err instanceof TypeError
          ? new PatinaError('user', err.message)
          : internalError(err, 'PostgreSQL front end');
  // An internal fault's own message never reaches the client: it gets an id the log line carries.
  if (e.kind === 'internal' && !(e instanceof InternalError)) {
    const hidden = internalError(err, 'PostgreSQL front end');
    return { code: BY_KIND.internal, message: hidden.message, severity: 'ERROR' };
  }
  if (e.sqlstate) {
    // (a CONTEXT line set on an engine error, e.g. the Bind parameter a client encoding's 22021 is in: wire/utf8.ts)
    const where = (e as { where?: string }).where;
    return {
      code: e.sqlstate,
      message: e.message,
      severity: 'ERROR',
      hint: e.hint,
      ...(e.detail !== undefined ? { detail: e.detail } : {}),
      ...(where !== undefined ? { where } : {}),
    };
  }
  const sc = e.sqliteCode;
  if (sc && BY_SQLITE_CODE[sc] && !e.message.includes(KEY_RULE_MARK))
    return { code: BY_SQLITE_CODE[sc], message: e.message, severity: 'ERROR' };
  for (const [re, code] of BY_SQLITE_MESSAGE)
    if (re.test(e.message)) return { code, message: postgresWords(code, e.message), severity: 'ERROR' };
  if (sc?.startsWith('SQLITE_CONSTRAINT')) return { code: '23000', message: e.message, severity: 'ERROR' };
  return { code: BY_KIND[e.kind], message: e.message, severity: 'ERROR' };
}

/**
 * SQLite's messages for what a statement names and the schema lacks, in PostgreSQL's words (the
 * ones clients and people search for): `no such table: t` is `relation "t" does not exist`, `no
 * such column: x` `column "x" does not exist` (`column t.x does not exist` when qualified, as
 * PostgreSQL prints it), `table t has no column named x` `column "x" of relation "t" does not
 * exist`, `ambiguous column name: x` `column reference "x" is ambiguous`; a function SQLite cannot
 * call as below.
 */
function postgresWords(code: string, message: string): string {
  if (code === '42883') return functionMessage(message);
  if (code === '42601' && message.startsWith('all VALUES')) return 'VALUES lists must all be the same length';
  if (code === '42P10') return 'there is no unique or exclusion constraint matching the ON CONFLICT specification';
  const reg = REG_CAST.exec(message)?.[1];
  if (reg)
    return `a cast of a column or parameter to ${reg} is not supported in a statement that reads a table of the database (a name written in the statement is, '${reg === 'regclass' ? 't' : reg === 'regtype' ? 'integer' : 'public'}'::${reg}, and so is any cast in a query of the catalog alone)`;
  let m = /^(.*?)no such table: (?:main\.)?(\S+)$/.exec(message);
  if (m && code === '42P01') return `${m[1]}relation "${m[2]}" does not exist`;
  // (a quoted name SQLite lacks comes with its advice to write a string: `no such column: "x" - should ...`)
  m = /^(.*?)no such column: (?:"([^"]+)" - should this be a string literal in single-quotes\?|(\S+))$/.exec(message);
  if (m && code === '42703' && m[2] !== undefined) return `${m[1]}column "${m[2]}" does not exist`;
  if (m && code === '42703')
    return m[3].includes('.') ? `${m[1]}column ${m[3]} does not exist` : `${m[1]}column "${m[3]}" does not exist`;
  m = /^(.*?)table (\S+) has no column named (\S+)$/.exec(message);
  if (m && code === '42703') return `${m[1]}column "${m[3]}" of relation "${m[2]}" does not exist`;
  // (a name two FROM items have: Doctrine's and psycopg's users meet it on a join)
  m = /^(.*?)ambiguous column name: (?:\w+\.)?(\S+)$/.exec(message);
  if (m && code === '42702') return `${m[1]}column reference "${m[2]}" is ambiguous`;
  return message;
}

/**
 * SQLite's words for a call it cannot make, as PostgreSQL says them and with the function's own
 * name: the translation calls PostgreSQL's functions by internal names (`__pg_upper`), which mean
 * nothing to the client. `wrong number of arguments to function __pg_upper()` becomes `function
 * upper(...) does not exist: no form of it takes that number of arguments`, `no such function: f`
 * `function f(...) does not exist`.
 */
function functionMessage(message: string): string {
  const m = /wrong number of arguments to function (?:__pg_)?(\w+)\(\)|no such function: (?:__pg_)?(\w+)/i.exec(
    message,
  );
  if (!m) return message.replace(/\b__pg_/g, '');
  return m[1]
    ? `function ${m[1]}(...) does not exist: no form of it takes that number of arguments`
    : `function ${m[2]}(...) does not exist`;
}
