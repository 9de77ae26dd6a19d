// One PostgreSQL session: what its statements are, where each runs, and its transaction.
//
// Where a statement runs: catalog queries on the front end's local connection; other reads through
// engine.read (point reads in-process, the rest on a cancellable read worker); reads after a write inside a transaction on the
// writer (to see their own writes); writes through the writer, one engine transaction per
// autocommit statement, or one lease from the first write of a BEGIN block to its COMMIT.
import { analysisCounts } from '../statement-counts';
import { cachedResultColumns } from '../sql/result-types';
import { explainRefusal } from '../sql/unsupported';
import { checkReach, checkWriteStatement } from '../../../src/engine/classify';
import type { ReadCursor, ReadRequest } from '../../../src/engine/read-pool';
import type { Schema } from '../../../src/engine/schema/model';
import type { SqlValue } from '../../../src/engine/values';
import type { Statement, StatementResult, WriterLease } from '../../../src/engine/writer';
import { PatinaError, fromSqliteError } from '../../../src/errors';
import { catalogRelations, hasNoFrom } from '../sql/local-statements';
import { type DialectContext, translate } from '../sql/translate/translate';
import { type PgToken, identName, lexPg, maxParam } from '../sql/lexer';
import { lockTable } from '../catalog/lock-table';
import type { LocalDb, SessionFacts } from '../catalog/local-db';
import { pgConstraintError, targetTable } from './constraint-errors';
import { type CopyStatement, columnConverters, copyError, parseCopy } from '../copy/copy';
import { SqlCursors, parseFetch } from './cursors';
import { DEFERRED_STEPS, DeferredBlock, tablesNamed } from './deferred-block';
import { PgError, pgError, sqlstateOf } from '../sqlstate';
import { arrayOidOf } from '../types/registry';
import { OID, PG_TYPES, oidOfDeclType } from '../types/types';
import { errorFields, log } from '../../../src/observability/log';
import { Lru } from '../../../src/lru';

/** What the PG front end needs from the engine. */
export interface PgEngine {
  readonly schema: Schema;
  read(req: ReadRequest): ReadCursor;
  /** A bounded point read's rows at once; null when it has to go through read(). */
  pointRead(sql: string, params: Record<string, SqlValue> | undefined): unknown[][] | null;
  lease(): Promise<WriterLease<unknown>>;
  group<T>(run: (lease: WriterLease<unknown>) => T): Promise<{ value: T; change: unknown }>;
  tryOut<T>(run: (lease: WriterLease<unknown>) => T): Promise<T>;
  transaction(statements: Statement[]): Promise<{ results: StatementResult[]; change: unknown }>;
  /** Prepares (never runs) on the writer: writes to tables with capture triggers prepare only there. */
  readonly writer: {
    prepare(sql: string): { reader: boolean; readonly: boolean; columns(): { name: string; type: string | null }[] };
  };
}

export interface ColumnDesc {
  name: string;
  declType: string | null;
  /** The type of an expression column when the SQL tells it (a cast, a comparison, a parameter); 0 or absent: from the values. */
  oid?: number;
}

/** A statement as the session understands it (the result of Parse, or of one simple-query statement). */
export interface Analyzed {
  kind:
    | 'empty'
    | 'begin'
    | 'commit'
    | 'rollback'
    | 'savepoint'
    | 'set'
    | 'show'
    | 'noop'
    | 'sql'
    | 'explain'
    | 'listen'
    | 'unlisten'
    | 'notify'
    | 'copy'
    | 'declare'
    | 'fetch'
    | 'close-cursor';
  /** Tag word: SELECT, INSERT, UPDATE, DELETE, BEGIN, ... */
  command: string;
  sql: string;
  local: boolean;
  readonly: boolean;
  /** Result columns; null when the statement returns none. */
  columns: ColumnDesc[] | null;
  /** Parameter type OIDs; 0 = unknown, inferred from the value. */
  paramTypes: number[];
  /** A catalog query naming something Patina does not model: answered with no rows. */
  empty?: boolean;
  setting?: { name: string; value: string | null };
  /** A write of several statements run as one (TRUNCATE a, b): every statement, `sql` is the first. */
  batch?: string[];
  /** EXPLAIN: the statement explained, and whether to run it too (EXPLAIN ANALYZE). */
  explain?: { inner: Analyzed; run: boolean };
  /** LISTEN, UNLISTEN (null channel: `*`) and NOTIFY. */
  channel?: { name: string | null; payload: string; params?: (number | null)[] };
  /** COPY: the statement, and for COPY TO the read that gives its rows. */
  copy?: { stmt: CopyStatement; columns: string[]; read: Analyzed | null };
  /** DECLARE (with the query), FETCH/MOVE (count; Infinity for ALL), CLOSE (null name: ALL). */
  cursor?: { name: string | null; hold?: boolean; inner?: Analyzed; count?: number; move?: boolean };
}

/** LISTEN/NOTIFY as a session uses them; the connection wires them to the agent's channels. */
export interface SessionChannels {
  listen(channel: string): void;
  /** null: every channel (UNLISTEN *). */
  unlisten(channel: string | null): void;
  notify(channel: string, payload: string): void;
}

/** COPY FROM STDIN's rows going into the writer: one transaction (or the open block), all or nothing. */
export interface CopyIn {
  readonly table: string;
  readonly columns: string[];
  /** Inserts one record; throws PostgreSQL's error naming the line. */
  insert(fields: (string | null)[], line: number): void;
  /** Commits (outside a block); returns the rows copied. */
  finish(): number;
  /** Rolls back (outside a block) or fails the block. */
  abort(): void;
}

/** Rows of a result, pulled batch by batch. */
export interface RowSource {
  next(): Promise<unknown[][] | null>;
  cancel(): void;
}

export interface Outcome {
  columns: ColumnDesc[] | null;
  /** Every row, when the result is already complete (point reads, catalog, writes); else `rows` streams them. */
  all: unknown[][] | null;
  rows: RowSource | null;
  /** Rows changed, for INSERT/UPDATE/DELETE tags. */
  affected?: number;
  /** A tag other than the statement's own (COMMIT of a failed transaction is ROLLBACK). */
  tag?: string;
}

export type TxState = 'idle' | 'open' | 'failed';

export const SERVER_VERSION = '15.0';
export const VERSION_TEXT = `PostgreSQL ${SERVER_VERSION} (Patina) on x86_64-pc-linux-gnu, 64-bit`;

/** Table names of each schema, lower case (deferred blocks ask for them at every statement). */
const TABLE_NAMES = new WeakMap<Schema, ReadonlySet<string>>();

/** Analyses a session keeps by statement text. */
const ANALYSES = 256;

const GUC_DEFAULTS: Record<string, string> = {
  server_version: SERVER_VERSION,
  server_version_num: '150000',
  server_encoding: 'UTF8',
  client_encoding: 'UTF8',
  datestyle: 'ISO, MDY',
  timezone: 'UTC',
  standard_conforming_strings: 'on',
  integer_datetimes: 'on',
  intervalstyle: 'postgres',
  is_superuser: 'on',
  transaction_isolation: 'serializable',
  default_transaction_isolation: 'serializable',
  transaction_read_only: 'off',
  default_transaction_read_only: 'off',
  max_identifier_length: '63',
  search_path: '"$user", public',
  application_name: '',
  lc_collate: 'C.UTF-8',
  lc_ctype: 'C.UTF-8',
  lc_messages: 'C.UTF-8',
  max_connections: '1000',
  statement_timeout: '0',
  extra_float_digits: '1',
  bytea_output: 'hex',
  client_min_messages: 'notice',
  block_size: '4096',
  ssl: 'off',
  default_text_search_config: 'pg_catalog.english',
};

const complete = (columns: ColumnDesc[] | null, all: unknown[][]): Outcome => ({ columns, all, rows: null });
const NONE: Outcome = Object.freeze({ columns: null, all: [], rows: null }) as Outcome;

/** The type OID of a result column from its declared type, or a guess from its expression. */
export function columnOid(c: ColumnDesc, sample: unknown): number {
  if (c.declType) return oidOfDeclType(c.declType);
  if (c.oid) return c.oid;
  if (sample !== undefined && sample !== null) {
    if (typeof sample === 'bigint' || (typeof sample === 'number' && Number.isInteger(sample))) return OID.int8;
    if (typeof sample === 'number') return OID.float8;
    if (sample instanceof Uint8Array) return OID.bytea;
    return OID.text;
  }
  if (/^(count|length|octet_length|char_length)\(/i.test(c.name)) return OID.int8;
  return OID.text;
}

/**
 * The type an expression column has whatever its values: a bare parameter has the parameter's
 * type, a cast to boolean (translated to an IN test) is bool. 0 when the values must tell.
 */
function expressionOid(sqliteName: string, paramTypes: number[]): number {
  const p = /^\$(\d+)$/.exec(sqliteName);
  if (p) return paramTypes[Number(p[1]) - 1] ?? 0;
  if (/^\(lower\(.*\) IN \('t','true','y','yes','on','1'\)\)$/.test(sqliteName)) return OID.bool;
  return 0;
}

/** PostgreSQL's name for an unaliased expression column: the function's name, else ?column?. */
function pgColumnName(name: string, sql: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_$]*$/.test(name) || sql.includes(`"${name}"`)) return name;
  if (/^\(lower\(.*\) IN \('t','true','y','yes','on','1'\)\)$/.test(name)) return 'bool';
  const f = /^(?:\w+\.)?(\w+)\s*\(/.exec(name);
  if (f?.[1].startsWith('__pg_')) return INTERNAL_NAMES[f[1]] ?? '?column?'; // what the dialect wrote, not the user
  if (f && f[1].toUpperCase() !== 'CAST') return f[1].toLowerCase();
  const c = /^CAST\(.* AS (\w+)\)$/i.exec(name);
  if (c) return c[1].toLowerCase();
  return '?column?';
}

const INTERNAL_NAMES: Record<string, string> = {
  __pg_int: 'int4',
  __pg_float: 'float8',
  __pg_typeof: 'pg_typeof',
  __pg_date: 'date',
  __pg_timestamp: 'timestamp',
  __pg_timestamptz: 'timestamptz',
  __pg_time: 'time',
  __pg_interval: 'interval',
};

/** PostgreSQL's name of a type as a cast spells it (the name an unaliased `x::type` column gets). */
const CAST_NAMES: Record<string, string> = {
  int: 'int4',
  integer: 'int4',
  int4: 'int4',
  bigint: 'int8',
  int8: 'int8',
  smallint: 'int2',
  int2: 'int2',
  serial: 'int4',
  bigserial: 'int8',
  real: 'float4',
  float4: 'float4',
  float: 'float8',
  float8: 'float8',
  'double precision': 'float8',
  bool: 'bool',
  boolean: 'bool',
  text: 'text',
  varchar: 'varchar',
  'character varying': 'varchar',
  char: 'bpchar',
  character: 'bpchar',
  bpchar: 'bpchar',
  name: 'name',
  numeric: 'numeric',
  decimal: 'numeric',
  date: 'date',
  time: 'time',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
  json: 'json',
  jsonb: 'jsonb',
  uuid: 'uuid',
  bytea: 'bytea',
  oid: 'oid',
  regclass: 'regclass',
  interval: 'interval',
  'timestamp with time zone': 'timestamptz',
  'timestamp without time zone': 'timestamp',
  'time without time zone': 'time',
};

/** Result types of functions whose values do not tell (a timestamp is text in SQLite). */
const FUNCTION_TYPES: Record<string, string> = {
  date_trunc: 'timestamp',
  date_part: 'float8',
  extract: 'numeric',
  to_timestamp: 'timestamptz',
  avg: 'numeric',
  total: 'float8', // SQLite's avg is REAL, 2.0 reads as the integer 2
  count: 'int8',
};

/** The type a cast or typed literal names: the words of `type` (after `::`, `AS`, or before the literal). */
function castTypeName(type: PgToken[]): string | null {
  const words = type
    .filter(
      (t) => t.text !== '.' && t.text.toLowerCase() !== 'pg_catalog' && (t.type === 'word' || t.type === 'quoted'),
    )
    .map((t) => identName(t));
  return CAST_NAMES[words.join(' ')] ?? CAST_NAMES[words[0] ?? ''] ?? null;
}

const castOid = (typeName: string) => (typeName === 'int4' || typeName === 'int2' ? OID.int8 : oidOfDeclType(typeName));

/** Operators and words whose result is boolean when they stand at the top of an expression. */
const BOOL_OPS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', '~', '!~', '~*', '!~*', '~~', '!~~', '~~*', '!~~*']);
const BOOL_WORDS = new Set(['IS', 'NOT', 'IN', 'LIKE', 'ILIKE', 'BETWEEN', 'EXISTS', 'AND', 'OR']);

/**
 * The PostgreSQL type (and, for an unaliased column, the name) of each item of a SELECT's list, as
 * far as the SQL itself tells: TRUE/FALSE and comparisons are bool, a trailing `::type` is that
 * type, an integer literal is int4 (int8 when larger), a decimal literal numeric. oid 0 and name
 * null where the SQL does not tell (then the values and SQLite's name decide). Null when the list
 * has a `*` (its items do not match the columns one to one).
 */
function selectListTypes(sig: PgToken[]): { name: string | null; oid: number }[] | null {
  const items = selectListItems(sig);
  if (items === null) return null;
  if (
    items.some(
      (it) =>
        it.length === 0 || (it[it.length - 1].text === '*' && (it.length === 1 || it[it.length - 2].text === '.')),
    )
  )
    return null;
  return items.map((it) => {
    let expr = it;
    let aliased = false;
    if (it.length >= 3 && it[it.length - 2].type === 'word' && it[it.length - 2].text.toUpperCase() === 'AS') {
      expr = it.slice(0, -2);
      aliased = true;
    }
    const named = (name: string | null, oid: number) => ({ name: aliased ? null : name, oid });
    if (expr.length === 1 && expr[0].type === 'word' && ['TRUE', 'FALSE'].includes(expr[0].text.toUpperCase()))
      return named('?column?', OID.bool);
    const lit = expr.length === 2 && expr[0].text === '-' ? expr[1] : expr.length === 1 ? expr[0] : null;
    if (lit && lit.type === 'number') {
      if (!/^\d+$/.test(lit.text)) return named(null, OID.numeric);
      const n = BigInt(lit.text);
      return named(null, n <= 2147483648n ? OID.int4 : OID.int8);
    }
    let d = 0;
    let castAt = -1;
    for (let k = 0; k < expr.length; k++) {
      const t = expr[k];
      const up = t.type === 'word' ? t.text.toUpperCase() : '';
      if (t.text === '(' || t.text === '[' || up === 'CASE') d++;
      else if (t.text === ')' || t.text === ']' || up === 'END') d--;
      else if (d === 0 && ((t.type === 'op' && BOOL_OPS.has(t.text)) || BOOL_WORDS.has(up)))
        return named(up === 'EXISTS' && k === 0 ? 'exists' : '?column?', OID.bool);
      else if (d === 0 && t.text === '::') castAt = k;
    }
    // `a - b::interval` casts only b: an operator expression, as PostgreSQL names it
    if (castAt >= 0 && topLevelOperator(expr.slice(0, castAt))) return named('?column?', 0);
    if (castAt >= 0) {
      const rest = expr.slice(castAt + 1);
      const typeName = rest.some((t) => t.text === '[') ? null : castTypeName(rest);
      if (typeName === null) return named(null, 0);
      return named(operandName(expr.slice(0, castAt)) ?? typeName, castOid(typeName));
    }
    const first = expr[0].type === 'word' ? expr[0].text.toUpperCase() : '';
    // CAST(x AS type): named and typed as x::type
    if (first === 'CAST' && expr[1]?.text === '(' && expr[expr.length - 1].text === ')') {
      let as = -1;
      for (let k = 2, depth = 0; k < expr.length - 1; k++) {
        if (expr[k].text === '(') depth++;
        else if (expr[k].text === ')') depth--;
        else if (depth === 0 && expr[k].type === 'word' && expr[k].text.toUpperCase() === 'AS') as = k;
      }
      const typeName = as < 0 ? null : castTypeName(expr.slice(as + 1, -1));
      if (typeName !== null) return named(operandName(expr.slice(2, as)) ?? typeName, castOid(typeName));
    }
    // a typed literal: DATE '2026-01-01', TIMESTAMP WITH TIME ZONE '...', INTERVAL '7 days'
    const litAt = expr.findIndex((t) => t.type === 'string');
    if (litAt >= 1 && expr.every((t, k) => k === litAt || t.type === 'word')) {
      const typeName = castTypeName(expr.slice(0, litAt));
      if (typeName !== null) return named(typeName, castOid(typeName));
    }
    const name = operandName(expr);
    const fnType = name !== null && expr.length > 1 ? FUNCTION_TYPES[name] : undefined;
    return named(name, fnType ? oidOfDeclType(fnType) : 0);
  });
}

/** Whether tokens hold an operator outside parentheses (`a - b`, `-1`). */
function topLevelOperator(expr: PgToken[]): boolean {
  let d = 0;
  for (const t of expr) {
    if (t.text === '(' || t.text === '[') d++;
    else if (t.text === ')' || t.text === ']') d--;
    else if (d === 0 && t.type === 'op' && t.text !== '.') return true;
  }
  return false;
}

/**
 * PostgreSQL's name for an unaliased operand when the SQL shows it: a column's name, a function's
 * name, `case`; a cast keeps its operand's name (`aid::text` is aid). Null when it does not show.
 */
function operandName(expr: PgToken[]): string | null {
  const first = expr[0];
  const last = expr[expr.length - 1];
  if (!first || !last) return null;
  const ident = (t: PgToken) =>
    t.type === 'quoted' || (t.type === 'word' && !['TRUE', 'FALSE', 'NULL'].includes(t.text.toUpperCase()));
  if (expr.every((t, k) => (k % 2 === 0 ? ident(t) : t.text === '.'))) return identName(last);
  if (
    first.type === 'word' &&
    first.text.toUpperCase() === 'CASE' &&
    last.type === 'word' &&
    last.text.toUpperCase() === 'END'
  )
    return 'case';
  if (first.type === 'word' && expr[1]?.text === '(' && last.text === ')' && first.text.toUpperCase() !== 'CAST') {
    let d = 0;
    for (let k = 1; k < expr.length; k++) {
      if (expr[k].text === '(') d++;
      else if (expr[k].text === ')' && --d === 0) return k === expr.length - 1 ? first.text.toLowerCase() : null;
    }
  }
  return null;
}

/** Column names of a select list, read from the SQL (for catalog queries answered with no rows). */
function selectListNames(tokens: PgToken[]): string[] {
  const items = selectListItems(tokens.filter((t) => t.type !== 'space' && t.type !== 'comment')) ?? [];
  return items
    .filter((item) => item.length > 0)
    .map((item) => {
      const last = item[item.length - 1];
      const asAt = item.length >= 2 && item[item.length - 2].text.toUpperCase() === 'AS';
      if (
        (last.type === 'word' || last.type === 'quoted') &&
        (asAt ||
          item.length === 1 ||
          item[item.length - 2].text === '.' ||
          (item[item.length - 2].type === 'punct' && item[item.length - 2].text === ')') ||
          item[item.length - 2].type === 'word')
      )
        return identName(last);
      if (item[0].type === 'word' && item[1]?.text === '(') return item[0].text.toLowerCase();
      return '?column?';
    });
}

/** The items of the first SELECT list (CASE ... END and parentheses nest); null without SELECT. */
function selectListItems(sig: PgToken[]): PgToken[][] | null {
  const start = sig.findIndex((t) => t.type === 'word' && t.text.toUpperCase() === 'SELECT');
  if (start < 0) return null;
  const items: PgToken[][] = [];
  let item: PgToken[] = [];
  let depth = 0;
  for (let i = start + 1; i < sig.length; i++) {
    const t = sig[i];
    const up = t.type === 'word' ? t.text.toUpperCase() : '';
    if (t.text === '(' || up === 'CASE') depth++;
    if (t.text === ')' || up === 'END') depth--;
    if (
      depth === 0 &&
      [
        'FROM',
        'WHERE',
        'UNION',
        'INTERSECT',
        'EXCEPT',
        'ORDER',
        'GROUP',
        'LIMIT',
        'OFFSET',
        'HAVING',
        'WINDOW',
        'INTO',
      ].includes(up)
    )
      break;
    if (depth === 0 && t.text === ',') {
      items.push(item);
      item = [];
    } else if (!(i === start + 1 && (up === 'DISTINCT' || up === 'ALL'))) item.push(t);
  }
  items.push(item);
  return items;
}

export class Session {
  readonly #engine: PgEngine;
  readonly #local: LocalDb;
  readonly #readonlyListener: boolean;
  readonly #timeoutMs: number;
  readonly facts: SessionFacts;
  readonly #dialect: DialectContext;
  tx: TxState = 'idle';
  /** The open transaction is the implicit one of a multi-statement simple query (BEGIN makes it explicit). */
  implicit = false;
  #lease: WriterLease<unknown> | null = null;
  /** The open block's statements since its first write, when it does not hold the writer (deferred-block.ts). */
  #block: DeferredBlock | null = null;
  #cursor: ReadCursor | null = null;
  #closed = false;
  /** Analyses by statement text (Parse of an unnamed statement repeats it for every query). */
  readonly #analyses = new Lru<string, Analyzed>(ANALYSES);
  #analysesSchema: Schema | null = null;
  /** LISTEN/NOTIFY; null until the connection wires them. */
  channels: SessionChannels | null = null;
  /** NOTIFYs of the open transaction, delivered at its commit. */
  readonly #notifies: [string, string][] = [];
  readonly #cursors = new SqlCursors<ColumnDesc[] | null>();
  /** Notices (WARNING) for the connection to send. */
  onNotice: (code: string, message: string) => void = () => undefined;

  constructor(
    engine: PgEngine,
    local: LocalDb,
    opts: {
      readonly: boolean;
      timeoutMs: number;
      user: string;
      database: string;
      pid: number;
      applicationName: string;
    },
  ) {
    this.#engine = engine;
    this.#local = local;
    this.#readonlyListener = opts.readonly;
    this.#timeoutMs = opts.timeoutMs;
    this.facts = {
      user: opts.user,
      database: opts.database,
      version: VERSION_TEXT,
      pid: opts.pid,
      settings: new Map(Object.entries(GUC_DEFAULTS)),
    };
    this.facts.settings.set('application_name', opts.applicationName);
    this.#dialect = {
      user: opts.user,
      database: opts.database,
      version: VERSION_TEXT,
      columnType: (table, column) => columnType(this.#engine.schema, table, column),
      columns: (table) => this.#engine.schema.tables.get(table)?.columns ?? null,
      notNull: (column) => notNullEverywhere(this.#engine.schema, column),
    };
  }

  /**
   * The analysis stored under `key`, or a new one from `tokens()` (kept unless the schema reloaded
   * since: a `SELECT *` may have gained columns). Errors are not kept.
   */
  analyzeCached(key: string, tokens: () => PgToken[], declaredTypes: number[] = []): Analyzed {
    if (this.#analysesSchema !== this.#engine.schema) {
      this.#analyses.clear();
      this.#analysesSchema = this.#engine.schema;
    }
    let an = this.#analyses.get(key);
    if (an) {
      analysisCounts.hits++;
      return an;
    }
    analysisCounts.misses++;
    an = this.analyze(tokens(), declaredTypes);
    this.#analyses.set(key, an);
    return an;
  }

  /** Starts the implicit transaction of a simple query of several statements (as PostgreSQL does). */
  beginImplicit(): void {
    this.tx = 'open';
    this.implicit = true;
  }

  /** Ends the implicit transaction: commits when every statement succeeded, else rolls back. */
  endImplicit(ok: boolean): void {
    this.implicit = false;
    this.#finish(ok && this.tx === 'open');
  }

  /** Ends the transaction: commits the writer's block or rolls it back. */
  #finish(commit: boolean) {
    this.tx = 'idle';
    this.#block = null;
    this.#transactionEnded(commit);
    const lease = this.#lease;
    this.#lease = null;
    if (!lease) return;
    try {
      if (commit) lease.commit();
      else lease.rollback();
    } finally {
      lease.release();
    }
  }

  /** COMMIT of a block that did not hold the writer: the whole block again, as one unit of a group commit. */
  async #commitDeferred(block: DeferredBlock): Promise<Outcome> {
    this.tx = 'idle';
    this.#block = null;
    try {
      await this.#engine.group((lease) => block.replay(lease));
    } catch (err) {
      this.#transactionEnded(false);
      throw err;
    }
    this.#transactionEnded(true);
    return NONE;
  }

  /**
   * TRUNCATE [TABLE] [ONLY] a [, b] [RESTART IDENTITY | CONTINUE IDENTITY] [RESTRICT]: a DELETE of
   * every row of each table in one transaction, captured and replicated like any delete.
   */
  #truncate(sig: PgToken[]): Analyzed {
    const tables: string[] = [];
    let i = 1;
    const up = (k: number) => (sig[k]?.type === 'word' ? sig[k].text.toUpperCase() : '');
    if (up(i) === 'TABLE') i++;
    for (; i < sig.length; i++) {
      if (up(i) === 'ONLY' || sig[i].text === ',' || sig[i].text === '*') continue;
      if (['RESTART', 'CONTINUE', 'IDENTITY', 'RESTRICT'].includes(up(i))) continue;
      if (up(i) === 'CASCADE')
        throw pgError(
          '0A000',
          'TRUNCATE ... CASCADE is not supported by Patina (the schema has no foreign keys): truncate each table by name',
        );
      if (sig[i].type !== 'word' && sig[i].type !== 'quoted')
        throw pgError('42601', `syntax error at or near "${sig[i].text}"`);
      let name = identName(sig[i]);
      if (name === 'public' && sig[i + 1]?.text === '.' && sig[i + 2]) name = identName(sig[(i += 2)]);
      if (!this.#engine.schema.tables.has(name)) throw pgError('42P01', `relation "${name}" does not exist`);
      tables.push(name);
    }
    if (tables.length === 0) throw pgError('42601', 'syntax error at end of input: TRUNCATE needs a table name');
    const batch = tables.map((t) => `DELETE FROM "${t}"`);
    return {
      kind: 'sql',
      command: 'TRUNCATE TABLE',
      sql: batch[0],
      batch,
      local: false,
      readonly: false,
      columns: null,
      paramTypes: [],
    };
  }

  /** COPY table FROM STDIN / COPY {table | (query)} TO STDOUT: what to copy, checked against the schema. */
  #copy(sig: PgToken[], tokens: PgToken[]): Analyzed {
    const stmt = parseCopy(sig, tokens);
    const base = { sql: '', local: false, paramTypes: [] as number[] };
    if (stmt.query) {
      const read = this.analyze(stmt.query);
      if (read.kind !== 'sql' || !read.columns || !read.readonly)
        throw pgError('0A000', 'COPY (query) TO takes a query that returns rows (SELECT, VALUES, WITH)');
      return {
        ...base,
        kind: 'copy',
        command: 'COPY',
        readonly: true,
        columns: null,
        copy: { stmt, columns: read.columns.map((c) => c.name), read },
      };
    }
    const def = this.#engine.schema.tables.get(stmt.table!);
    if (!def) throw pgError('42P01', `relation "${stmt.table}" does not exist`);
    for (const c of stmt.columns)
      if (!def.columns.some((d) => d.name === c))
        throw pgError('42703', `column "${c}" of relation "${def.name}" does not exist`);
    if (new Set(stmt.columns).size !== stmt.columns.length)
      throw pgError(
        '42701',
        `column "${stmt.columns.find((c, i) => stmt.columns.indexOf(c) !== i)}" specified more than once`,
      );
    const columns = stmt.columns.length > 0 ? stmt.columns : def.columns.map((c) => c.name);
    if (stmt.direction === 'in')
      return {
        ...base,
        kind: 'copy',
        command: 'COPY',
        readonly: false,
        columns: null,
        copy: { stmt, columns, read: null },
      };
    const read = this.analyze(lexPg(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${def.name}"`));
    return { ...base, kind: 'copy', command: 'COPY', readonly: true, columns: null, copy: { stmt, columns, read } };
  }

  /** DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [[NO] SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR query. */
  #declare(sig: PgToken[], tokens: PgToken[], declaredTypes: number[]): Analyzed {
    if (!sig[1] || (sig[1].type !== 'word' && sig[1].type !== 'quoted'))
      throw pgError('42601', 'syntax error: DECLARE needs a cursor name');
    const name = identName(sig[1]);
    let i = 2;
    let hold = false;
    const up = (k: number) => (sig[k]?.type === 'word' ? sig[k].text.toUpperCase() : '');
    for (; i < sig.length && up(i) !== 'FOR'; i++) {
      if (up(i) === 'BINARY') throw pgError('0A000', 'binary cursors are not supported by Patina');
      if (up(i) === 'WITH' && up(i + 1) === 'HOLD') hold = true;
    }
    if (up(i) !== 'FOR' || !sig[i + 1])
      throw pgError('42601', 'syntax error: DECLARE ... CURSOR needs FOR and a query');
    const inner = this.analyze(tokens.slice(tokens.indexOf(sig[i + 1])), declaredTypes);
    if (inner.kind !== 'sql' || !inner.columns || !inner.readonly)
      throw pgError('42601', 'DECLARE CURSOR takes a query that returns rows (SELECT, VALUES, WITH)');
    return {
      kind: 'declare',
      command: 'DECLARE CURSOR',
      sql: inner.sql,
      local: inner.local,
      readonly: true,
      columns: null,
      paramTypes: inner.paramTypes,
      cursor: { name, hold, inner },
    };
  }

  /** FETCH/MOVE: forward only (cursors.ts reads the direction). */
  #fetch(sig: PgToken[], move: boolean): Analyzed {
    const { name, count } = parseFetch(sig, move);
    return {
      kind: 'fetch',
      command: move ? 'MOVE' : 'FETCH',
      sql: '',
      local: false,
      readonly: true,
      columns: null,
      paramTypes: [],
      cursor: { name, count, move },
    };
  }

  /** EXPLAIN [ANALYZE] [VERBOSE] [(options)] statement: SQLite's query plan as text rows. */
  #explain(sig: PgToken[], tokens: PgToken[], declaredTypes: number[]): Analyzed {
    let i = 1;
    let run = false;
    const up = (k: number) => (sig[k]?.type === 'word' ? sig[k].text.toUpperCase() : '');
    if (sig[i]?.text === '(') {
      for (i++; i < sig.length && sig[i].text !== ')'; i++) {
        if (up(i) === 'ANALYZE') run = !['FALSE', 'OFF', '0'].includes(up(i + 1) || sig[i + 1]?.text);
        if (up(i) === 'FORMAT' && up(i + 1) !== 'TEXT')
          throw pgError(
            '0A000',
            `EXPLAIN (FORMAT ${sig[i + 1]?.text ?? ''}) is not supported by Patina: only FORMAT TEXT`,
          );
      }
      i++;
    }
    for (; ['ANALYZE', 'ANALYSE', 'VERBOSE'].includes(up(i)); i++) if (up(i) !== 'VERBOSE') run = true;
    const start = tokens.indexOf(sig[i]);
    if (start < 0) throw pgError('42601', 'syntax error at end of input: EXPLAIN needs a statement');
    const inner = this.analyze(tokens.slice(start), declaredTypes);
    if (inner.kind !== 'sql' || inner.batch)
      throw pgError(
        '42601',
        `syntax error at or near "${sig[i].text}": EXPLAIN takes SELECT, INSERT, UPDATE, DELETE, VALUES or WITH`,
      );
    return {
      kind: 'explain',
      command: 'EXPLAIN',
      sql: inner.sql,
      local: inner.local,
      readonly: inner.readonly || !run,
      columns: [{ name: 'QUERY PLAN', declType: 'text' }],
      paramTypes: inner.paramTypes,
      explain: { inner, run },
    };
  }

  /** Understands one statement: its kind, its SQLite form, its columns and parameter types. */
  analyze(tokens: PgToken[], declaredTypes: number[] = []): Analyzed {
    const sig = tokens.filter((t) => t.type !== 'space' && t.type !== 'comment');
    const base = { sql: '', local: false, readonly: true, columns: null, paramTypes: [] as number[] };
    if (sig.length === 0) return { ...base, kind: 'empty', command: '' };
    const w = (i: number) => (sig[i] && sig[i].type === 'word' ? sig[i].text.toUpperCase() : '');
    const kw = w(0);
    switch (kw) {
      case 'BEGIN':
      case 'START':
        return { ...base, kind: 'begin', command: kw === 'START' ? 'START TRANSACTION' : 'BEGIN' };
      case 'COMMIT':
      case 'END':
        return { ...base, kind: 'commit', command: 'COMMIT' };
      case 'ROLLBACK':
      case 'ABORT':
        if (w(1) === 'TO' || ((w(1) === 'TRANSACTION' || w(1) === 'WORK') && w(2) === 'TO'))
          return {
            ...base,
            kind: 'savepoint',
            command: 'ROLLBACK',
            sql: sig
              .map((t) => t.text)
              .join(' ')
              .replace(/^ABORT/i, 'ROLLBACK'),
          };
        return { ...base, kind: 'rollback', command: 'ROLLBACK' };
      case 'SAVEPOINT':
      case 'RELEASE':
        return { ...base, kind: 'savepoint', command: kw, sql: sig.map((t) => t.text).join(' ') };
      case 'SET':
      case 'RESET':
        return { ...base, kind: 'set', command: kw, setting: parseSet(sig) };
      case 'SHOW': {
        const name = sig
          .slice(1)
          .map((t) => identName(t))
          .join(' ')
          .replace(/^transaction isolation level$/, 'transaction_isolation')
          .replace(/^time zone$/, 'timezone');
        return {
          ...base,
          kind: 'show',
          command: 'SHOW',
          columns:
            name === 'all'
              ? [
                  { name: 'name', declType: 'text' },
                  { name: 'setting', declType: 'text' },
                  { name: 'description', declType: 'text' },
                ]
              : [{ name, declType: 'text' }],
          setting: { name, value: null },
        };
      }
      case 'LISTEN':
      case 'UNLISTEN': {
        if (!sig[1]) throw pgError('42601', `syntax error at end of input: ${kw} needs a channel name`);
        return {
          ...base,
          kind: kw === 'LISTEN' ? 'listen' : 'unlisten',
          command: kw,
          channel: { name: sig[1].text === '*' ? null : identName(sig[1]), payload: '' },
        };
      }
      case 'NOTIFY': {
        if (!sig[1] || (sig[1].type !== 'word' && sig[1].type !== 'quoted'))
          throw pgError('42601', 'syntax error: NOTIFY needs a channel name');
        let payload = '';
        if (sig[2]?.text === ',') {
          if (sig[3]?.type !== 'string' || sig.length > 4)
            throw pgError(
              '42601',
              `syntax error at or near "${sig[3]?.text ?? 'end of input'}": NOTIFY's payload is a string literal`,
            );
          payload = sig[3].text.slice(1, -1).split("''").join("'");
        } else if (sig.length > 2) throw pgError('42601', `syntax error at or near "${sig[2].text}"`);
        if (Buffer.byteLength(payload) >= 8000) throw pgError('22023', 'payload string too long');
        return { ...base, kind: 'notify', command: 'NOTIFY', channel: { name: identName(sig[1]), payload } };
      }
      case 'COPY':
        return this.#copy(sig, tokens);
      case 'DECLARE':
        return this.#declare(sig, tokens, declaredTypes);
      case 'FETCH':
      case 'MOVE':
        return this.#fetch(sig, kw === 'MOVE');
      case 'CLOSE': {
        const all = w(1) === 'ALL';
        if (!sig[1]) throw pgError('42601', 'syntax error at end of input: CLOSE needs a cursor name');
        return {
          ...base,
          kind: 'close-cursor',
          command: all ? 'CLOSE CURSOR ALL' : 'CLOSE CURSOR',
          cursor: { name: all ? null : identName(sig[1]) },
        };
      }
      case 'TRUNCATE':
        return this.#truncate(sig);
      case 'EXPLAIN':
        return this.#explain(sig, tokens, declaredTypes);
      case 'LOCK':
        return { ...base, kind: 'noop', command: lockTable(sig) };
      case 'DISCARD':
      case 'DEALLOCATE':
      case 'CHECKPOINT':
        return {
          ...base,
          kind: 'noop',
          command: kw === 'DISCARD' ? `DISCARD ${w(1) || 'ALL'}` : kw,
          setting: { name: sig[sig.length - 1] ? identName(sig[sig.length - 1]) : '', value: null },
        };
    }
    checkReach(tokens.map((t) => t.text).join(''), 'statement'); // every statement, catalog and FROM-less ones too
    const notify = pgNotifyCall(sig);
    if (notify)
      return {
        ...base,
        kind: 'notify',
        command: 'SELECT',
        columns: [{ name: 'pg_notify', declType: 'text' }],
        paramTypes: new Array<number>(maxParam(sig)).fill(OID.text),
        channel: notify,
      };
    const local = catalogRelations(sig) || ((kw === 'SELECT' || kw === 'VALUES') && hasNoFrom(sig));
    const sql = translate(tokens, this.#dialect, local);
    const nParams = Math.max(maxParam(sig), declaredTypes.length);
    const paramTypes = inferParamTypes(sig, this.#engine.schema, nParams, declaredTypes);
    let command =
      kw === 'WITH'
        ? (sig
            .find((t, i) => i > 0 && t.type === 'word' && ['INSERT', 'UPDATE', 'DELETE'].includes(t.text.toUpperCase()))
            ?.text.toUpperCase() ?? 'SELECT')
        : kw;
    if (command === 'VALUES' || command === 'TABLE') command = 'SELECT';
    if (command === 'REPLACE') command = 'INSERT';
    let st;
    try {
      st = this.#local.prepare(sql);
    } catch (err) {
      if (!local && /no such function: patina_/.test((err as Error).message)) st = this.#engine.writer.prepare(sql);
      else if (local && catalogRelations(sig)) {
        log.debug({ ...errorFields(err), sql }, 'catalog query answered with no rows');
        return {
          kind: 'sql',
          command,
          sql,
          local,
          readonly: true,
          columns: selectListNames(tokens).map((name) => ({ name, declType: 'text' })),
          paramTypes,
          empty: true,
        };
      } else throw explainRefusal(tokens.map((t) => t.text).join(' '), err); // lifted literals come without spaces
    }
    let columns: ColumnDesc[] | null = null;
    if (st.reader) {
      const cols = st.columns();
      const items = kw === 'SELECT' ? selectListTypes(sig) : null;
      const typed = items && items.length === cols.length ? items : null;
      // PostgreSQL's parse tree types what SQLite cannot declare (aggregates, functions, CASE)
      const tree =
        kw === 'SELECT' && !catalogRelations(sig)
          ? cachedResultColumns(tokens.map((t) => t.text).join(' '), this.#engine.schema)
          : null;
      const parsed = tree && tree.length === cols.length ? tree : null;
      columns = cols.map((c, i) => {
        const t = typed?.[i];
        return {
          name: t?.name ?? parsed?.[i].name ?? pgColumnName(c.name, sql),
          declType: c.type,
          oid: c.type ? 0 : parsed?.[i].oid || t?.oid || expressionOid(c.name, paramTypes),
        };
      });
    }
    return { kind: 'sql', command, sql, local, readonly: st.readonly, columns, paramTypes };
  }

  /**
   * Runs an analyzed statement with bound parameters. The outcome comes synchronously when nothing
   * has to wait (point reads, catalog queries, transaction control), so that a connection can answer
   * a pipelined batch without a promise per message; writes and streamed reads return a promise.
   */
  execute(an: Analyzed, params: SqlValue[]): Outcome | Promise<Outcome> {
    try {
      const r = this.#execute(an, params);
      if (r instanceof Promise) {
        return r.catch((err) => {
          if (this.tx === 'open') this.tx = 'failed';
          throw err;
        });
      }
      return r;
    } catch (err) {
      if (this.tx === 'open') this.tx = 'failed';
      throw err;
    }
  }

  #execute(an: Analyzed, params: SqlValue[]): Outcome | Promise<Outcome> {
    const none = NONE;
    if (
      this.tx === 'failed' &&
      an.kind !== 'rollback' &&
      an.kind !== 'commit' &&
      !(an.kind === 'savepoint' && an.command === 'ROLLBACK')
    ) {
      throw pgError('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
    }
    switch (an.kind) {
      case 'empty':
        return none;
      case 'begin':
        if (this.implicit) this.implicit = false;
        else if (this.tx !== 'idle') this.onNotice('25001', 'there is already a transaction in progress');
        else this.tx = 'open';
        return none;
      case 'commit': {
        this.implicit = false;
        if (this.tx === 'idle') this.onNotice('25P01', 'there is no transaction in progress');
        const failed = this.tx === 'failed';
        if (!failed && this.#block && !this.#lease) return this.#commitDeferred(this.#block);
        this.#finish(!failed);
        return failed ? { ...none, tag: 'ROLLBACK' } : none;
      }
      case 'rollback':
        this.implicit = false;
        if (this.tx === 'idle') this.onNotice('25P01', 'there is no transaction in progress');
        this.#endLease();
        this.#block = null;
        this.tx = 'idle';
        this.#transactionEnded(false);
        return none;
      case 'savepoint':
        if (this.tx === 'idle')
          throw pgError(
            '25P01',
            `${an.command === 'ROLLBACK' ? 'ROLLBACK TO SAVEPOINT' : an.command} can only be used in transaction blocks`,
          );
        return this.#savepoint(an);
      case 'set': {
        const s = an.setting;
        if (s?.name) {
          if (s.value === null) this.facts.settings.set(s.name, GUC_DEFAULTS[s.name] ?? '');
          else this.facts.settings.set(s.name, s.value);
        }
        return none;
      }
      case 'show': {
        const name = an.setting!.name;
        if (name === 'all')
          return complete(
            an.columns,
            [...this.facts.settings].sort().map(([k, v]) => [k, v, '']),
          );
        const v = this.facts.settings.get(name);
        if (v === undefined) throw pgError('42704', `unrecognized configuration parameter "${name}"`);
        return complete(an.columns, [[v]]);
      }
      case 'noop':
        return none;
      case 'sql':
        return this.#runSql(an, params);
      case 'explain':
        return this.#runExplain(an, params);
      case 'listen':
        if (!this.channels) throw pgError('0A000', 'LISTEN is not available on this connection');
        this.channels.listen(an.channel!.name!);
        return none;
      case 'unlisten':
        this.channels?.unlisten(an.channel!.name);
        return none;
      case 'notify': {
        // NOTIFY ch, 'x' or SELECT pg_notify(ch, x), whose arguments may be parameters
        const [name, payload] = [an.channel!.name!, an.channel!.payload].map((v, k) => {
          const p = an.channel!.params?.[k];
          return p === undefined || p === null ? v : params[p] === null ? '' : String(params[p]);
        });
        if (!name) throw pgError('22023', 'channel name cannot be empty');
        if (Buffer.byteLength(payload) >= 8000) throw pgError('22023', 'payload string too long');
        if (this.tx === 'open')
          this.#notifies.push([name, payload]); // delivered at commit, as in PostgreSQL
        else this.channels?.notify(name, payload);
        return an.columns ? complete(an.columns, [['']]) : none;
      }
      case 'copy':
        throw pgError(
          '0A000',
          'COPY through the extended query protocol is not supported by Patina: send it as a simple query (psql, pg-copy-streams and psycopg2 do)',
        );
      case 'declare':
        return this.#declareCursor(an, params);
      case 'fetch':
        return this.#fetchCursor(an);
      case 'close-cursor': {
        const name = an.cursor!.name;
        if (!this.#cursors.close(name)) throw pgError('34000', `cursor "${name}" does not exist`);
        return none;
      }
    }
  }

  async #declareCursor(an: Analyzed, params: SqlValue[]): Promise<Outcome> {
    const { name, hold, inner } = an.cursor!;
    if (this.tx === 'idle' && !hold) throw pgError('25P01', 'DECLARE CURSOR can only be used in transaction blocks');
    if (this.#cursors.has(name!)) throw pgError('42P03', `cursor "${name}" already exists`);
    const out = await this.#runSql(inner!, params);
    this.#cursor = null; // a later CancelRequest is for a later statement, not this cursor's read
    this.#cursors.open(name!, hold!, out.columns, out.all, out.rows);
    return NONE;
  }

  async #fetchCursor(an: Analyzed): Promise<Outcome> {
    const { name, count, move } = an.cursor!;
    const { columns, rows, moved } = await this.#cursors.fetch(name!, count!, move!);
    if (move) return { columns: null, all: [], rows: null, affected: moved, tag: `MOVE ${moved}` };
    return { columns, all: rows, rows: null, tag: `FETCH ${rows.length}` };
  }

  /** The columns a statement answers with: its own, or for FETCH those of its cursor (34000 if none). */
  resultColumns(an: Analyzed): ColumnDesc[] | null {
    if (an.kind !== 'fetch' || an.cursor!.move) return an.columns;
    const columns = this.#cursors.columnsOf(an.cursor!.name!);
    if (columns === undefined) throw pgError('34000', `cursor "${an.cursor!.name}" does not exist`);
    return columns;
  }

  /** The end of a transaction: NOTIFYs of a committed one go out, cursors without HOLD close. */
  #transactionEnded(committed: boolean) {
    const notifies = this.#notifies.splice(0);
    if (committed) for (const [ch, payload] of notifies) this.channels?.notify(ch, payload);
    this.#cursors.transactionEnded();
  }

  /** COPY TO STDOUT: the rows of its read, streamed. */
  copyOut(an: Analyzed): Outcome | Promise<Outcome> {
    if (this.tx === 'failed')
      throw pgError('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
    return this.#runSql(an.copy!.read!, []);
  }

  /** COPY FROM STDIN: takes the writer (or the open block's lease) and returns where the rows go. */
  async copyIn(an: Analyzed): Promise<CopyIn> {
    if (this.tx === 'failed')
      throw pgError('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
    if (this.#readonlyListener) throw pgError('25006', 'cannot execute COPY FROM in a read-only transaction');
    const { stmt, columns } = an.copy!;
    const table = stmt.table!;
    const def = this.#engine.schema.tables.get(table)!;
    const convert = columnConverters(def, columns);
    const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
    checkWriteStatement(sql, 'statement');
    const inBlock = this.tx === 'open';
    let lease: WriterLease<unknown>;
    if (inBlock) {
      await this.#ensureLease();
      lease = this.#lease!;
    } else {
      lease = await this.#engine.lease();
      if (this.#closed) {
        lease.release();
        throw new PatinaError('unavailable', 'the connection was closed');
      }
      lease.begin();
    }
    // prepared once for the whole COPY (lease.run would look it up per row)
    let insert: ReturnType<typeof lease.db.prepare>;
    try {
      insert = lease.db.prepare(sql.replace(/\$\d+/g, '?'));
    } catch (err) {
      if (!inBlock) lease.release();
      throw fromSqliteError(err);
    }
    let count = 0;
    let open = true;
    const end = (commit: boolean) => {
      if (!open) return;
      open = false;
      if (inBlock) {
        if (!commit) this.tx = 'failed';
        return;
      }
      try {
        if (commit) lease.commit();
        else lease.rollback();
      } finally {
        lease.release();
      }
    };
    return {
      table,
      columns,
      insert: (fields, line) => {
        if (fields.length > columns.length)
          throw copyError('22P04', 'extra data after last expected column', line, table);
        if (fields.length < columns.length)
          throw copyError('22P04', `missing data for column "${columns[fields.length]}"`, line, table);
        const values: SqlValue[] = new Array(fields.length);
        for (let k = 0; k < fields.length; k++) {
          const f = fields[k];
          try {
            values[k] = f === null ? null : convert[k](f);
          } catch (err) {
            const e = err as { message: string; sqlstate?: string };
            throw copyError(e.sqlstate ?? '22P02', e.message, line, table, columns[k], f);
          }
        }
        try {
          insert.run(values);
        } catch (err) {
          const params: Record<string, SqlValue> = {};
          values.forEach((v, k) => (params[k + 1] = v));
          const e = pgConstraintError(fromSqliteError(err), {
            schema: this.#engine.schema,
            sql,
            params,
            keyExists: (t, cols, values) =>
              lease.db
                .prepare(`SELECT 1 FROM "${t}" WHERE ${cols.map((c) => `"${c}" = ?`).join(' AND ')}`)
                .get(...values) !== undefined,
          });
          const state = e instanceof PgError ? undefined : sqlstateOf(e);
          const pe = state
            ? new PgError('user', state.message.replace(/^statement: /, ''), state.code)
            : (e as PgError);
          pe.where = `COPY ${table}, line ${line}`;
          throw pe;
        }
        count++;
      },
      finish: () => {
        end(true);
        return count;
      },
      abort: () => end(false),
    };
  }

  async #runExplain(an: Analyzed, list: SqlValue[]): Promise<Outcome> {
    const { inner, run } = an.explain!;
    const params = paramRecord(list);
    const eqp = `EXPLAIN QUERY PLAN ${inner.sql}`;
    let plan: unknown[][];
    try {
      plan = this.#local.run(this.#local.prepare(eqp), params, this.facts);
    } catch {
      // a write to a captured table prepares only on the writer (its triggers call the agent's functions)
      const lease = this.#lease ?? (await this.#engine.lease());
      try {
        plan = lease.run({ sql: eqp, params }, 'statement').rows ?? [];
      } finally {
        if (lease !== this.#lease) lease.release();
      }
    }
    let lines = planLines(plan);
    if (!inner.readonly) {
      // as PostgreSQL shows a write: the write on its table, over the plan of what it reads
      const verb =
        inner.command === 'TRUNCATE TABLE' ? 'Delete' : inner.command[0] + inner.command.slice(1).toLowerCase();
      const reads =
        plan.length > 0 ? lines.map((l) => `  ->  ${l.trimStart().replace(/^-> {2}/, '')}`) : ['  ->  Result'];
      lines = [`${verb} on ${targetTable(inner.sql) ?? '?'}`, ...reads];
    }
    if (run) {
      const t0 = performance.now();
      const out = await this.#runSql(inner, list);
      let rows = out.all?.length ?? 0;
      if (out.rows) for (let batch = await out.rows.next(); batch; batch = await out.rows.next()) rows += batch.length;
      if (out.affected !== undefined && inner.command !== 'SELECT') rows = out.affected;
      const ms = performance.now() - t0;
      lines[0] += ` (actual rows=${rows} loops=1)`;
      lines.push(`Execution Time: ${ms.toFixed(3)} ms`);
    }
    return complete(
      an.columns,
      lines.map((l) => [l]),
    );
  }

  async #savepoint(an: Analyzed): Promise<Outcome> {
    if (!this.#readonlyListener) {
      await this.#ensureLease();
      try {
        this.#lease!.savepoint(an.sql, an.command === 'ROLLBACK');
      } catch (err) {
        throw new PatinaError('user', (err as Error).message, undefined, '3B001');
      }
    }
    if (an.command === 'ROLLBACK') this.tx = 'open';
    return NONE;
  }

  #runSql(an: Analyzed, list: SqlValue[]): Outcome | Promise<Outcome> {
    if (an.empty) return complete(an.columns, []);
    const params = paramRecord(list);
    if (an.local) return complete(an.columns, this.#local.run(this.#local.prepare(an.sql), params, this.facts));
    if (!an.readonly) return this.#write(an, params);
    if (this.#lease) {
      const r = this.#lease.run({ sql: an.sql, params }, 'statement');
      return complete(an.columns ?? r.columns ?? null, r.rows ?? []);
    }
    if (this.#block) return this.#runDeferred(an, { sql: an.sql, params });
    const rows = this.#engine.pointRead(an.sql, params); // point reads answer at once, in-process
    if (rows) return complete(an.columns, rows);
    return this.#stream(an, this.#engine.read({ sql: an.sql, params, format: 'values', timeoutMs: this.#timeoutMs }));
  }

  async #stream(an: Analyzed, cursor: ReadCursor): Promise<Outcome> {
    this.#cursor = cursor;
    try {
      await cursor.head();
    } catch (err) {
      this.#cursor = null;
      throw err;
    }
    return {
      columns: an.columns,
      all: null,
      rows: {
        next: async () => {
          const r = await cursor.next();
          if (r.done) this.#cursor = null;
          return r.done ? null : (r.value.rows ?? []);
        },
        cancel: () => {
          cursor.cancel('the portal was closed');
          this.#cursor = null;
        },
      },
    };
  }

  async #write(an: Analyzed, params: Record<string, SqlValue> | undefined): Promise<Outcome> {
    if (this.#readonlyListener) throw pgError('25006', `cannot execute ${an.command} in a read-only transaction`);
    const statements = (an.batch ?? [an.sql]).map((sql) => {
      checkWriteStatement(sql, 'statement');
      return { sql, params };
    });
    let r: StatementResult;
    try {
      if (this.tx === 'open' && !an.batch && this.#defers(an)) {
        return await this.#runDeferred(an, statements[0]);
      } else if (this.tx === 'open') {
        await this.#ensureLease();
        for (const s of statements) r = this.#lease!.run(s, 'statement');
      } else {
        r = (await this.#engine.transaction(statements)).results[0];
      }
    } catch (err) {
      throw pgConstraintError(err, {
        schema: this.#engine.schema,
        sql: an.sql,
        params,
        keyExists: (table, cols, values) => this.#keyExists(table, cols, values),
      });
    }
    return { columns: an.columns, all: r!.rows ?? [], rows: null, affected: r!.rowsAffected };
  }

  /** Whether a row with this key exists, as this session sees the data (its open transaction, or the last commit). */
  #keyExists(table: string, columns: string[], values: SqlValue[]): boolean {
    const sql = `SELECT 1 FROM "${table}" WHERE ${columns.map((c) => `"${c}" = ?`).join(' AND ')}`;
    const db = this.#lease?.db ?? this.#local.db;
    return db.prepare(sql).get(...values) !== undefined;
  }

  /**
   * Whether a write of an explicit block goes on without the writer (deferred-block.ts). Not for the
   * implicit transaction of one simple query (no round trip to wait for), a block already holding
   * the writer, a write returning rows (a default such as patina_id() gives other values each run),
   * nor a block past DEFERRED_STEPS statements.
   */
  #defers(an: Analyzed): boolean {
    if (this.implicit || this.#lease || an.columns !== null) return false;
    return (this.#block?.size ?? 0) < DEFERRED_STEPS;
  }

  /** The schema's table names, lower case (kept per schema). */
  #tableNames(): ReadonlySet<string> {
    const schema = this.#engine.schema;
    let names = TABLE_NAMES.get(schema);
    if (!names) TABLE_NAMES.set(schema, (names = new Set([...schema.tables.keys()].map((t) => t.toLowerCase()))));
    return names;
  }

  /** Tries a statement of a deferred block out on the writer, after the block's earlier ones. */
  async #runDeferred(an: Analyzed, statement: Statement): Promise<Outcome> {
    const block = (this.#block ??= new DeferredBlock((sql) => tablesNamed(sql, this.#tableNames())));
    if (block.size >= DEFERRED_STEPS) {
      await this.#ensureLease();
      const r = this.#lease!.run(statement, 'statement');
      return { columns: an.columns ?? r.columns ?? null, all: r.rows ?? [], rows: null, affected: r.rowsAffected };
    }
    const r = await this.#engine.tryOut((lease) => block.runNext(lease, statement, !an.readonly));
    return { columns: an.columns ?? r.columns ?? null, all: r.rows ?? [], rows: null, affected: r.rowsAffected };
  }

  /** Takes the writer for the rest of the block; a deferred block's statements so far are run on it first. */
  async #ensureLease() {
    if (this.#lease) return;
    const lease = await this.#engine.lease();
    if (this.#closed) {
      lease.release();
      throw new PatinaError('unavailable', 'the connection was closed');
    }
    lease.begin();
    if (this.#block) {
      try {
        this.#block.replay(lease);
      } catch (err) {
        lease.release();
        throw err;
      }
      this.#block = null;
    }
    this.#lease = lease;
  }

  #endLease() {
    const lease = this.#lease;
    this.#lease = null;
    lease?.release();
  }

  /** CancelRequest: interrupts a read running on a worker (writes are short and run to the end). */
  cancel(): void {
    this.#cursor?.cancel('canceling statement due to user request');
    this.#cursor = null;
  }

  /** The connection ended: stop its read, roll back its transaction. */
  close(): void {
    this.#closed = true;
    this.cancel();
    this.#cursors.close(null);
    this.#notifies.length = 0;
    this.#endLease();
    this.#block = null;
    this.tx = 'idle';
  }
}

/**
 * `SELECT pg_notify(channel, payload)` with string literals or parameters: the channel and payload,
 * and for each the index of the parameter that gives it (null for a literal). Null for anything else.
 */
function pgNotifyCall(sig: PgToken[]): { name: string; payload: string; params: (number | null)[] } | null {
  const texts = sig.map((t) => (t.type === 'word' ? t.text.toLowerCase() : t.text));
  const end = texts[texts.length - 1] === ';' ? sig.length - 1 : sig.length;
  if (
    end !== 7 ||
    texts[0] !== 'select' ||
    texts[1] !== 'pg_notify' ||
    texts[2] !== '(' ||
    texts[4] !== ',' ||
    texts[6] !== ')'
  )
    return null;
  const arg = (t: PgToken): [string, number | null] | null =>
    t.type === 'string'
      ? [t.text.slice(1, -1).split("''").join("'"), null]
      : t.type === 'param'
        ? ['', Number(t.text.slice(1)) - 1]
        : null;
  const a = arg(sig[3]);
  const b = arg(sig[5]);
  if (!a || !b) return null;
  return { name: a[0], payload: b[0], params: [a[1], b[1]] };
}

/** Positional parameters as SQLite's named ones ($1 is "1"); undefined when there are none. */
function paramRecord(list: SqlValue[]): Record<string, SqlValue> | undefined {
  // literals for the common counts: adding indexed properties one by one goes through V8's runtime
  switch (list.length) {
    case 0:
      return undefined;
    case 1:
      return { 1: list[0] };
    case 2:
      return { 1: list[0], 2: list[1] };
    case 3:
      return { 1: list[0], 2: list[1], 3: list[2] };
  }
  const params: Record<string, SqlValue> = {};
  for (let i = 0; i < list.length; i++) params[i + 1] = list[i];
  return params;
}

/** SQLite's EXPLAIN QUERY PLAN rows (id, parent, notused, detail) as PostgreSQL-style indented lines. */
function planLines(rows: unknown[][]): string[] {
  const depth = new Map<unknown, number>([[0, -1]]);
  const lines: string[] = [];
  for (const [id, parent, , detail] of rows) {
    const d = (depth.get(parent) ?? -1) + 1;
    depth.set(id, d);
    lines.push(d === 0 ? String(detail) : `${' '.repeat(6 * (d - 1))}  ->  ${detail}`);
  }
  return lines.length > 0 ? lines : ['(no plan)'];
}

const notNullCache = new WeakMap<Schema, Map<string, boolean>>();
/** Whether every table with a column of this name declares it NOT NULL or in its primary key. */
function notNullEverywhere(schema: Schema, column: string): boolean {
  let known = notNullCache.get(schema);
  if (!known) notNullCache.set(schema, (known = new Map()));
  let v = known.get(column);
  if (v === undefined) {
    const cols = [...schema.tables.values()].flatMap((t) => t.columns.filter((c) => c.name.toLowerCase() === column));
    v = cols.length > 0 && cols.every((c) => c.notNull || c.pk > 0);
    known.set(column, v);
  }
  return v;
}

/** The declared type of a schema column, in `table` when named, else the first table that has it. */
function columnType(schema: Schema, table: string | null, column: string): string | null {
  for (const t of table === null ? schema.tables.values() : [schema.tables.get(table)]) {
    const c = t?.columns.find((c) => c.name.toLowerCase() === column);
    if (c) return c.type;
  }
  return null;
}

/** SET name TO value / SET name = value / SET TIME ZONE v / RESET name. */
function parseSet(sig: PgToken[]): { name: string; value: string | null } {
  let i = 1;
  const up = (k: number) => sig[k]?.text.toUpperCase();
  if (up(i) === 'SESSION' || up(i) === 'LOCAL') i++;
  if (up(0) === 'RESET') return { name: sig[i] ? identName(sig[i]) : '', value: null };
  if (up(i) === 'TIME' && up(i + 1) === 'ZONE')
    return {
      name: 'timezone',
      value: sig
        .slice(i + 2)
        .map((t) => unquote(t))
        .join(' '),
    };
  if (up(i) === 'TRANSACTION' || up(i) === 'CHARACTERISTICS' || up(i) === 'SESSION') return { name: '', value: null };
  const name = sig[i] ? identName(sig[i]) : '';
  let j = i + 1;
  if (sig[j] && (sig[j].text === '=' || up(j) === 'TO')) j++;
  return {
    name,
    value: sig
      .slice(j)
      .map((t) => unquote(t))
      .join(' ')
      .replace(/ , /g, ', '),
  };
}

function unquote(t: PgToken): string {
  if (t.type === 'string') return t.text.slice(1, -1).split("''").join("'");
  if (t.type === 'quoted') return identName(t);
  return t.text;
}

/**
 * Parameter types from where each $n stands: compared with, assigned to or inserted into a column
 * (that column's type), cast (the cast's type), LIMIT/OFFSET (int8). 0 when nothing tells.
 */
export function inferParamTypes(sig: PgToken[], schema: Schema, n: number, declared: number[]): number[] {
  const types = Array.from({ length: n }, (_, i) => declared[i] ?? 0);
  if (types.every((t) => t !== 0)) return types;
  const tables: string[] = [];
  for (let i = 0; i + 1 < sig.length; i++) {
    if (
      ['FROM', 'JOIN', 'INTO', 'UPDATE'].includes(sig[i].text.toUpperCase()) &&
      schema.tables.has(identName(sig[i + 1]))
    )
      tables.push(identName(sig[i + 1]));
  }
  const colType = (name: string): number => {
    for (const t of [...tables, ...schema.tables.keys()]) {
      const c = schema.tables.get(t)!.columns.find((c) => c.name.toLowerCase() === name);
      if (c) return oidOfDeclType(c.type);
    }
    return 0;
  };
  const cmp = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', 'LIKE', 'ILIKE']);
  const set = (t: PgToken, oid: number) => {
    const k = Number(t.text.slice(1)) - 1;
    if (k >= 0 && k < n && types[k] === 0 && oid !== 0) types[k] = oid;
  };
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    if (t.type !== 'param') continue;
    const prev = sig[i - 1];
    const next = sig[i + 1];
    if (next?.text === '::' && sig[i + 2]) {
      const at = identName(sig[i + 2] ?? t) === 'pg_catalog' ? i + 4 : i + 2;
      const name = identName(sig[at] ?? t);
      const oid = PG_TYPES.find((r) => r[1] === name)?.[0] ?? oidOfDeclType(name);
      // `$1::oid[]` (asyncpg's type lookup) is an array of the type
      set(t, sig[at + 1]?.text === '[' && sig[at + 2]?.text === ']' ? (arrayOidOf(oid) ?? OID.text) : oid);
    }
    if (
      prev &&
      cmp.has(prev.text.toUpperCase()) &&
      sig[i - 2] &&
      (sig[i - 2].type === 'word' || sig[i - 2].type === 'quoted')
    )
      set(t, colType(identName(sig[i - 2])));
    if (
      next &&
      cmp.has(next.text.toUpperCase()) &&
      sig[i + 2] &&
      (sig[i + 2].type === 'word' || sig[i + 2].type === 'quoted')
    )
      set(t, colType(identName(sig[i + 2])));
    if (prev && ['LIMIT', 'OFFSET'].includes(prev.text.toUpperCase())) set(t, OID.int8);
  }
  // INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)
  const into = sig.findIndex((t) => t.text.toUpperCase() === 'INTO');
  if (into >= 0 && sig[into + 2]?.text === '(') {
    const table = schema.tables.get(identName(sig[into + 1]));
    const cols: string[] = [];
    let i = into + 3;
    for (; i < sig.length && sig[i].text !== ')'; i++) if (sig[i].text !== ',') cols.push(identName(sig[i]));
    if (table && sig[i + 1]?.text.toUpperCase() === 'VALUES') {
      let pos = 0;
      let depth = 0;
      for (let k = i + 2; k < sig.length; k++) {
        const t = sig[k];
        if (t.text === '(') {
          depth++;
          if (depth === 1) pos = 0;
        } else if (t.text === ')') depth--;
        else if (t.text === ',' && depth === 1) pos++;
        else if (t.type === 'param' && depth === 1) {
          const c = table.columns.find((c) => c.name.toLowerCase() === cols[pos]);
          if (c) set(t, oidOfDeclType(c.type));
        } else if (depth === 0 && t.type === 'word') break;
      }
    }
  }
  return types;
}
