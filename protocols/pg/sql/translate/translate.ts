// PostgreSQL SQL → SQLite SQL, by rewriting tokens: what SQLite already reads is left as it is.
import { INFORMATION_SCHEMA_TABLES, PG_CATALOG_TABLES } from '../../catalog/tables';
import { rewriteCatalogSyntax } from '../../catalog/sql-rewrites';
import { castDate, castInterval, castTime, castTimestamp, castTimestamptz } from '../../../../src/engine/dates';
import { type PgToken, identName, lexPg, quoteString } from '../lexer';
import { inlineLateralRows, inlineLateralSubqueries } from './lateral';
import { rewriteDmlForms } from './dml-forms';
import { rewriteJsonValues } from './json-values';
import { rewriteFetchFirst, rewriteSelectListSeries, rewriteStandardCalls } from './standard-forms';
import { TYPE_DISPLAY, oidOfDeclType } from '../../types/types';

/** Boolean columns of the catalog: `indisprimary = 'f'` compares them with 0 and 1. */
const BOOL_COLUMNS = new Set(
  [...Object.values(PG_CATALOG_TABLES), ...Object.values(INFORMATION_SCHEMA_TABLES)].flatMap((cols) =>
    cols
      .split(',')
      .map((c) => c.trim().split(/\s+/))
      .filter((c) => c[1] === 'bool')
      .map((c) => c[0]),
  ),
);
const BOOL_LITERALS: Record<string, string> = { "'t'": '1', "'f'": '0', "'true'": '1', "'false'": '0' };

import { isOp, isPunct, isWord } from '../tokens';
import {
  type Tok,
  rewriteGreatestLeast,
  rewriteJsonbOps,
  rewriteLike,
  rewriteNullOrder,
  rewriteValuesAlias,
} from './pg-semantics';

/** Session facts some functions are replaced by (version(), current_user, ...). */
export interface DialectContext {
  user: string;
  database: string;
  version: string;
  /** The declared type of a schema column (in `table` when named, else in any table); null when unknown. */
  columnType?: (table: string | null, column: string) => string | null;
  /** A schema table's columns in order, with their default expressions; null when no such table. */
  columns?: (table: string) => { name: string; defaultSql: string | null }[] | null;
  /** Whether every schema table with a column of this name declares it NOT NULL (false when none has it). */
  notNull?: (column: string) => boolean;
}

/** Words that end an operand rather than name a function before '('. */
const NOT_FUNCTIONS = new Set([
  'AND',
  'OR',
  'NOT',
  'IN',
  'SELECT',
  'WHERE',
  'ON',
  'FROM',
  'AS',
  'THEN',
  'ELSE',
  'WHEN',
  'IS',
  'EXISTS',
  'VALUES',
  'BY',
  'LIKE',
  'CASE',
  'RETURNING',
  'SET',
  'INTO',
  'JOIN',
  'USING',
  'HAVING',
  'ANY',
  'ALL',
]);

/** SQLite spelling of a PostgreSQL cast of `x` to `type` (lower case, no schema, no modifiers). */
function castTo(x: string, type: string, isArray: boolean): string {
  if (isArray) return x;
  switch (type) {
    // PostgreSQL's strict casts ('abc'::int is 22P02, not SQLite's 0): src/engine/pg-functions.ts
    case 'int2':
    case 'smallint':
      return `__pg_int(${x}, 'smallint')`;
    case 'int':
    case 'int4':
    case 'integer':
    case 'serial':
      return `__pg_int(${x}, 'integer')`;
    case 'int8':
    case 'bigint':
    case 'bigserial':
      return `__pg_int(${x}, 'bigint')`;
    case 'oid':
    case 'xid':
    case 'cid':
      return `CAST(${x} AS INTEGER)`;
    case 'float4':
    case 'real':
      return `__pg_float(${x}, 'real')`;
    case 'float8':
    case 'double precision':
    case 'float':
      return `__pg_float(${x}, 'double precision')`;
    case 'numeric':
    case 'decimal':
      return `CAST(__pg_float(${x}, 'numeric') AS NUMERIC)`;
    case 'bool':
    case 'boolean':
      return `(lower(${x}) IN ('t','true','y','yes','on','1'))`;
    case 'bytea': {
      const hex = /^'\\x([0-9a-fA-F]*)'$/.exec(x);
      return hex ? `X'${hex[1]}'` : `CAST(${x} AS BLOB)`;
    }
    case 'regclass':
      return `__pg_regclass(${x})`;
    case 'regtype':
      return `__pg_regtype(${x})`;
    case 'regnamespace':
      return `__pg_regnamespace(${x})`;
    case 'regproc':
    case 'regprocedure':
      // pg_type.typinput holds 'array_in': pgjdbc compares it with 'pg_catalog.array_in'::regproc
      return x.replace(/^'pg_catalog\.(\w+)'$/, "'$1'");
    case 'text':
    case 'varchar':
    case 'character varying':
    case 'char':
    case 'character':
    case 'bpchar':
    case 'name':
    case 'citext':
      return `CAST(${x} AS TEXT)`;
    case 'date':
      return dateCast(x, '__pg_date', castDate);
    case 'timestamp':
      return dateCast(x, '__pg_timestamp', castTimestamp);
    case 'timestamptz':
      return dateCast(x, '__pg_timestamptz', castTimestamptz);
    case 'time':
    case 'timetz':
      return dateCast(x, '__pg_time', castTime);
    case 'interval':
      return dateCast(x, '__pg_interval', castInterval);
    default: // json, uuid, ...: SQLite keeps them as text already
      return x;
  }
}

/**
 * A cast to a date or time type: a literal is converted here (once), anything else per row by `fn`.
 * Dates and timestamps are SQLite text ('2026-11-22 05:13:36'), so comparisons are text comparisons.
 */
function dateCast(x: string, fn: string, convert: (v: unknown) => string | null): string {
  if (/^'(?:[^']|'')*'$/.test(x)) {
    try {
      const v = convert(x.slice(1, -1).split("''").join("'"));
      if (v === null) return 'NULL';
      if (fn === '__pg_interval') return `${fn}(${quoteString(v)})`; // still an interval to rewriteIntervalArithmetic
      // A timestamptz literal is nearly always compared with stored UTC text ('2026-11-01 00:00:00'),
      // which '+00' would sort after: the literal is that text, converted to UTC.
      return quoteString(fn === '__pg_timestamptz' ? v.replace(/\+00$/, '') : v);
    } catch {
      // bad input: the function reports it when the statement runs
    }
  }
  return `${fn}(${x})`;
}

const MULTIWORD_TYPES: [string[], string][] = [
  [['DOUBLE', 'PRECISION'], 'double precision'],
  [['CHARACTER', 'VARYING'], 'character varying'],
  [['TIMESTAMP', 'WITH', 'TIME', 'ZONE'], 'timestamptz'],
  [['TIMESTAMP', 'WITHOUT', 'TIME', 'ZONE'], 'timestamp'],
  [['TIME', 'WITH', 'TIME', 'ZONE'], 'timetz'],
  [['TIME', 'WITHOUT', 'TIME', 'ZONE'], 'time'],
];

/** Reads a type name at toks[i] (after '::'): returns the name and the index after it. */
function readType(toks: Tok[], i: number): { name: string; isArray: boolean; end: number } {
  if (isWord(toks[i], 'PG_CATALOG') && isPunct(toks[i + 1], '.')) i += 2;
  let name = toks[i] ? (toks[i].type === 'quoted' ? identName(toks[i] as PgToken) : toks[i].text.toLowerCase()) : '';
  let end = i + 1;
  for (const [words, n] of MULTIWORD_TYPES) {
    if (words.every((w, k) => isWord(toks[i + k], w))) {
      name = n;
      end = i + words.length;
      break;
    }
  }
  if (isPunct(toks[end], '(')) {
    while (end < toks.length && !isPunct(toks[end], ')')) end++;
    end++;
  }
  let isArray = false;
  while (isPunct(toks[end], '[') && isPunct(toks[end + 1], ']')) {
    isArray = true;
    end += 2;
  }
  return { name, isArray, end };
}

/** Index of the '(' matching the ')' at out[j], scanning back. */
function openerBefore(out: Tok[], j: number, open: string, close: string): number {
  let depth = 0;
  for (; j >= 0; j--) {
    if (isPunct(out[j], close)) depth++;
    else if (isPunct(out[j], open) && --depth === 0) return j;
  }
  return 0;
}

/** Index of the ')' matching the '(' at toks[i]. */
function closerAfter(toks: Tok[], i: number, open = '(', close = ')'): number {
  let depth = 0;
  for (; i < toks.length; i++) {
    if (isPunct(toks[i], open)) depth++;
    else if (isPunct(toks[i], close) && --depth === 0) return i;
  }
  return toks.length - 1;
}

/** Joins tokens with spaces where SQL needs them. */
export function joinTokens(toks: Tok[]): string {
  let s = '';
  let prev: Tok | undefined;
  for (const t of toks) {
    const tight =
      prev === undefined ||
      isPunct(t, '.') ||
      isPunct(prev, '.') ||
      isPunct(t, ',') ||
      isPunct(t, ')') ||
      isPunct(prev, '(') ||
      isPunct(t, ']') ||
      isPunct(prev, '[') ||
      (isPunct(t, '(') && (prev.type === 'word' || prev.type === 'quoted'));
    s += (tight ? '' : ' ') + t.text;
    prev = t;
  }
  return s;
}

/** Function calls replaced by their value for the session (the read workers do not have them). */
function sessionValue(name: string, ctx: DialectContext): string | null {
  switch (name) {
    case 'version':
      return quoteString(ctx.version);
    case 'current_database':
    case 'current_catalog':
      return quoteString(ctx.database);
    case 'current_user':
    case 'session_user':
    case 'user':
      return quoteString(ctx.user);
    case 'current_schema':
      return "'public'";
    case 'now':
    case 'transaction_timestamp':
    case 'statement_timestamp':
    case 'clock_timestamp':
      return "strftime('%Y-%m-%d %H:%M:%f+00','now')";
    case 'localtimestamp':
      return "strftime('%Y-%m-%d %H:%M:%f','now')";
    case 'localtime':
      return "strftime('%H:%M:%f','now')";
    default:
      return null;
  }
}

/** Clock readings: values on every connection (the catalog's has no such functions either). */
const CLOCK_VALUES = new Set(['now', 'localtimestamp', 'localtime']);

/** Names of bare SQL-standard functions PostgreSQL calls without parentheses. */
const BARE_FUNCTIONS = new Set([
  'current_user',
  'session_user',
  'user',
  'current_schema',
  'current_catalog',
  'localtimestamp',
  'localtime',
]);

/**
 * Rewrites one PostgreSQL statement for SQLite. `local` is true when the statement runs on the
 * agent's catalog connection, where PostgreSQL's functions exist; elsewhere they become values.
 */
export function translate(tokens: PgToken[], ctx: DialectContext, local: boolean): string {
  let toks: Tok[] = inlineLateralSubqueries(
    inlineLateralRows(tokens.filter((t) => t.type !== 'space' && t.type !== 'comment')),
  );
  toks = rewriteDmlForms(toks);
  toks = rewriteInsertDefaults(toks, ctx);
  toks = rewriteJsonValues(toks, {
    columnType: (table, column) => ctx.columnType?.(table, column) ?? null,
    columns: (table) => ctx.columns?.(table) ?? null,
  });
  toks = rewriteStandardCalls(toks);
  toks = rewriteFetchFirst(toks);
  toks = rewriteSelectListSeries(toks);
  toks = rewriteValuesAlias(toks);
  toks = rewriteLike(toks);
  // a NOT NULL column is NULL on the outer side of a join: there NULLs must be placed too
  const outerJoin = toks.some((t) => isWord(t, 'LEFT') || isWord(t, 'RIGHT') || isWord(t, 'FULL'));
  toks = rewriteNullOrder(toks, (!outerJoin && ctx.notNull) || (() => false));
  toks = rewriteGreatestLeast(toks);
  toks = rewriteJsonbOps(toks);
  toks = rewriteTypeof(toks, ctx);
  toks = rewriteWords(toks, ctx, local);
  toks = rewriteArrays(toks);
  toks = rewriteDateSyntax(toks);
  toks = rewriteCasts(toks);
  toks = rewriteCastCalls(toks);
  toks = rewriteIntervalArithmetic(toks);
  toks = rewriteDivision(toks);
  return rewriteSetReturning(local ? rewriteCatalogSyntax(joinTokens(toks)) : joinTokens(toks));
}

/** An identifier token as PostgreSQL reads it: quoted kept, bare folded to lower case. */
function identText(t: Tok): string {
  return t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase();
}

/**
 * `INSERT INTO t (a, b) VALUES (1, DEFAULT)`: SQLite has no DEFAULT in VALUES, so each DEFAULT
 * becomes the column's default expression from the schema (NULL when it has none, as in
 * PostgreSQL). What ORMs send for a column left out (Drizzle, Kysely).
 */
function rewriteInsertDefaults(toks: Tok[], ctx: DialectContext): Tok[] {
  if (!isWord(toks[0], 'INSERT') || !ctx.columns || !toks.some((t) => isWord(t, 'DEFAULT'))) return toks;
  let i = 1;
  while (i < toks.length && !isWord(toks[i], 'INTO')) i++;
  i++;
  if (toks[i + 1] && isPunct(toks[i + 1], '.')) i += 2; // public.t
  const nameTok = toks[i];
  if (!nameTok || (nameTok.type !== 'word' && nameTok.type !== 'quoted')) return toks;
  const table = ctx.columns(identText(nameTok));
  if (!table) return toks;
  i++;
  if (isWord(toks[i], 'AS')) i += 2;
  let names = table.map((c) => c.name);
  if (isPunct(toks[i], '(')) {
    const close = closerAfter(toks, i);
    names = toks
      .slice(i + 1, close)
      .filter((t) => t.type === 'word' || t.type === 'quoted')
      .map(identText);
    i = close + 1;
  }
  if (!isWord(toks[i], 'VALUES')) return toks;
  const out = toks.slice(0, i + 1);
  i++;
  while (isPunct(toks[i], '(')) {
    const close = closerAfter(toks, i);
    out.push(toks[i]);
    let col = 0;
    let depth = 0;
    for (let k = i + 1; k < close; k++) {
      const t = toks[k];
      if (isPunct(t, '(') || isPunct(t, '[')) depth++;
      else if (isPunct(t, ')') || isPunct(t, ']')) depth--;
      if (depth === 0 && isPunct(t, ',')) col++;
      const alone = isPunct(toks[k - 1], '(') || isPunct(toks[k - 1], ',');
      const ends = k + 1 === close || isPunct(toks[k + 1], ',');
      if (depth === 0 && isWord(t, 'DEFAULT') && alone && ends) {
        const def = table.find((c) => c.name.toLowerCase() === names[col]?.toLowerCase())?.defaultSql;
        out.push({ type: 'group', text: def ? `(${def})` : 'NULL' });
      } else out.push(t);
    }
    out.push(toks[close]);
    i = close + 1;
    if (!isPunct(toks[i], ',')) break;
    out.push(toks[i]);
    i++;
  }
  return out.concat(toks.slice(i));
}

/** PostgreSQL's display names of types as a cast spells them (what pg_typeof answers). */
const TYPEOF_NAMES: Record<string, string> = {
  int: 'integer',
  int4: 'integer',
  integer: 'integer',
  serial: 'integer',
  int2: 'smallint',
  smallint: 'smallint',
  int8: 'bigint',
  bigint: 'bigint',
  bigserial: 'bigint',
  float4: 'real',
  real: 'real',
  float8: 'double precision',
  float: 'double precision',
  'double precision': 'double precision',
  numeric: 'numeric',
  decimal: 'numeric',
  bool: 'boolean',
  boolean: 'boolean',
  text: 'text',
  varchar: 'character varying',
  'character varying': 'character varying',
  char: 'character',
  character: 'character',
  bpchar: 'character',
  name: 'name',
  date: 'date',
  time: 'time without time zone',
  timestamp: 'timestamp without time zone',
  timestamptz: 'timestamp with time zone',
  timetz: 'time with time zone',
  interval: 'interval',
  json: 'json',
  jsonb: 'jsonb',
  uuid: 'uuid',
  bytea: 'bytea',
  oid: 'oid',
  regclass: 'regclass',
};

/**
 * pg_typeof(x): the type the SQL gives x (a literal, a cast, a schema column) as a string; otherwise
 * __pg_typeof, which names the type of the value SQLite holds.
 */
function rewriteTypeof(toks: Tok[], ctx: DialectContext): Tok[] {
  for (let i = toks.length - 2; i >= 0; i--) {
    if (!isWord(toks[i], 'PG_TYPEOF') || !isPunct(toks[i + 1], '(') || isPunct(toks[i - 1], '.')) continue;
    const close = closerAfter(toks, i + 1);
    const arg = toks.slice(i + 2, close);
    const known = staticType(arg, ctx);
    if (known) toks.splice(i, close - i + 1, { type: 'string', text: quoteString(known) });
    else toks[i] = { type: 'word', text: '__pg_typeof' };
  }
  return toks;
}

function staticType(arg: Tok[], ctx: DialectContext): string | null {
  if (arg.length === 0) return null;
  const lit = arg.length === 2 && (isOp(arg[0], '-') || isOp(arg[0], '+')) ? arg[1] : arg.length === 1 ? arg[0] : null;
  if (lit?.type === 'number') {
    if (!/^\d+$/.test(lit.text)) return 'numeric';
    const n = BigInt(lit.text);
    return n <= 2147483647n ? 'integer' : n <= 9223372036854775807n ? 'bigint' : 'numeric';
  }
  if (lit?.type === 'string') return 'unknown';
  if (lit && (isWord(lit, 'TRUE') || isWord(lit, 'FALSE'))) return 'boolean';
  let depth = 0;
  let cast = -1;
  for (let k = 0; k < arg.length; k++) {
    if (isPunct(arg[k], '(')) depth++;
    else if (isPunct(arg[k], ')')) depth--;
    else if (depth === 0 && isOp(arg[k], '::')) cast = k;
  }
  if (cast > 0) {
    const { name, isArray, end } = readType(arg, cast + 1);
    if (end === arg.length && TYPEOF_NAMES[name]) return TYPEOF_NAMES[name] + (isArray ? '[]' : '');
    return null;
  }
  const ident = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
  if (
    ctx.columnType &&
    (arg.length === 1 || (arg.length === 3 && isPunct(arg[1], '.'))) &&
    arg.every((t, k) => (k % 2 === 0 ? ident(t) : true))
  ) {
    const column = identName(arg[arg.length - 1] as PgToken);
    const decl = ctx.columnType(arg.length === 3 ? identName(arg[0] as PgToken) : null, column);
    if (decl !== null) {
      const oid = oidOfDeclType(decl);
      return TYPE_DISPLAY[oid] ?? 'text'; // as RowDescription types the column
    }
  }
  return null;
}

/**
 * The divisor of `/` and `%` goes through __pg_divisor, which raises 22012 division_by_zero where
 * SQLite would answer NULL. Both bind tighter than + and -, so the divisor is one operand: a sign,
 * then a literal, parameter, name, call, CASE ... END or parenthesized group (casts are groups by now).
 */
function rewriteDivision(toks: Tok[]): Tok[] {
  for (let i = 1; i < toks.length - 1; i++) {
    if (!(isOp(toks[i], '/') || isOp(toks[i], '%')) || !endsOperand(toks[i - 1])) continue;
    let j = i + 1;
    while (isOp(toks[j], '-') || isOp(toks[j], '+')) j++;
    const t = toks[j];
    if (t === undefined) continue;
    let end = j;
    if (isPunct(t, '(')) end = closerAfter(toks, j);
    else if (isWord(t, 'CASE')) {
      for (let depth = 0; end < toks.length; end++) {
        if (isWord(toks[end], 'CASE')) depth++;
        else if (isWord(toks[end], 'END') && --depth === 0) break;
      }
    } else if (t.type === 'word' || t.type === 'quoted') {
      while (
        isPunct(toks[end + 1], '.') &&
        toks[end + 2] &&
        (toks[end + 2].type === 'word' || toks[end + 2].type === 'quoted')
      )
        end += 2;
      if (isPunct(toks[end + 1], '(')) end = closerAfter(toks, end + 1);
    }
    const operand = toks.slice(i + 1, end + 1);
    toks.splice(i + 1, end - i, { type: 'word', text: '__pg_divisor' }, { type: 'punct', text: '(' }, ...operand, {
      type: 'punct',
      text: ')',
    });
  }
  return toks;
}

function rewriteWords(toks: Tok[], ctx: DialectContext, local: boolean): Tok[] {
  const out: Tok[] = [];
  const castDepth: number[] = [];
  let depth = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const next = toks[i + 1];
    if (isPunct(t, '(')) depth++;
    if (isPunct(t, ')')) {
      if (castDepth[castDepth.length - 1] === depth) castDepth.pop();
      depth--;
    }
    // OPERATOR(pg_catalog.~) → ~
    if (isWord(t, 'OPERATOR') && isPunct(next, '(')) {
      const close = closerAfter(toks, i + 1);
      const op = toks.slice(i + 2, close).filter((x) => x.type === 'op');
      if (op.length === 1) {
        toks.splice(i, close - i + 1, op[0]);
        i--;
        continue;
      }
    }
    // COLLATE pg_catalog.default, COLLATE "C": SQLite's own collation is what there is
    if (isWord(t, 'COLLATE')) {
      let j = i + 1;
      if (isPunct(toks[j + 1], '.')) j += 2;
      i = j;
      continue;
    }
    // pg_catalog.f(...) → f(...), public.t → t
    if (
      (isWord(t, 'PG_CATALOG') &&
        isPunct(next, '.') &&
        (isWord(toks[i + 2]) || toks[i + 2]?.type === 'quoted') &&
        isPunct(toks[i + 3], '(')) ||
      ((isWord(t, 'PUBLIC') || (t.type === 'quoted' && t.text === '"public"')) &&
        isPunct(next, '.') &&
        !isPunct(out[out.length - 1], '.'))
    ) {
      i++;
      continue;
    }
    if (t.type === 'string' && BOOL_LITERALS[t.text.toLowerCase()] && local) {
      const prev = out[out.length - 1];
      const col =
        isOp(prev, '=') || isOp(prev, '<>') || isOp(prev, '!=')
          ? out[out.length - 2]
          : isOp(next, '=') || isOp(next, '<>') || isOp(next, '!=')
            ? toks[i + 2]
            : undefined;
      if (col && col.type === 'word' && BOOL_COLUMNS.has(col.text.toLowerCase())) {
        out.push({ type: 'number', text: BOOL_LITERALS[t.text.toLowerCase()] });
        continue;
      }
    }
    if (t.type === 'op') {
      const map: Record<string, string[]> = {
        '~': ['REGEXP'],
        '!~': ['NOT', 'REGEXP'],
        '~*': ['REGEXP', "'(?i)'", '||'],
        '!~*': ['NOT', 'REGEXP', "'(?i)'", '||'],
        '~~': ['LIKE'],
        '~~*': ['LIKE'],
        '!~~': ['NOT', 'LIKE'],
        '!~~*': ['NOT', 'LIKE'],
      };
      const m = map[t.text];
      if (m) {
        for (const w of m) out.push({ type: w.startsWith("'") ? 'string' : w === '||' ? 'op' : 'word', text: w });
        continue;
      }
    }
    if (t.type === 'word') {
      const up = t.text.toUpperCase();
      const prev = out[out.length - 1];
      const afterDot = isPunct(prev, '.');
      if (up === 'ILIKE') {
        out.push({ type: 'word', text: 'LIKE' });
        continue;
      }
      if (up === 'CAST' && isPunct(next, '(')) castDepth.push(depth + 1);
      // `AS name`: quote the alias so that SQLite keywords work and the name folds as in PostgreSQL
      if (
        up === 'AS' &&
        castDepth[castDepth.length - 1] !== depth &&
        next?.type === 'word' &&
        !isPunct(toks[i + 2], '(') &&
        !['MATERIALIZED', 'NOT'].includes(next.text.toUpperCase())
      ) {
        out.push(t, { type: 'quoted', text: '"' + next.text.toLowerCase() + '"' });
        i++;
        continue;
      }
      const lower = t.text.toLowerCase();
      if (
        !afterDot &&
        isPunct(next, '(') &&
        isPunct(toks[i + 2], ')') &&
        sessionValue(lower, ctx) !== null &&
        (!local || CLOCK_VALUES.has(lower))
      ) {
        out.push({ type: 'group', text: sessionValue(lower, ctx)! });
        i += 2;
        continue;
      }
      if (!afterDot && BARE_FUNCTIONS.has(lower) && !isPunct(next, '(') && !isPunct(next, '.')) {
        out.push(
          local && !CLOCK_VALUES.has(lower)
            ? { type: 'group', text: `${lower}()` }
            : { type: 'group', text: sessionValue(lower, ctx)! },
        );
        continue;
      }
      if (!afterDot && isPunct(next, '(')) {
        const renamed: Record<string, string> = {
          string_agg: 'group_concat',
          json_build_object: 'json_object',
          jsonb_build_object: 'json_object',
          json_agg: 'json_group_array',
          jsonb_agg: 'json_group_array',
          json_build_array: 'json_array',
          jsonb_build_array: 'json_array',
          json_object_agg: 'json_group_object',
          jsonb_object_agg: 'json_group_object',
          jsonb_array_length: 'json_array_length',
          row_to_json: 'json',
          to_json: 'json_quote',
          to_jsonb: 'json_quote',
          btrim: 'trim',
          random: '__pg_random',
        };
        if (renamed[lower]) {
          out.push({ type: 'word', text: renamed[lower] });
          continue;
        }
      }
    }
    out.push(t);
  }
  return out;
}

/** ARRAY[...], ARRAY(SELECT ...), = ANY(...), <> ALL(...). Arrays are PostgreSQL text ('{a,b}'). */
function rewriteArrays(toks: Tok[]): Tok[] {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (
      (isOp(t, '=') || isOp(t, '<>') || isOp(t, '!=')) &&
      (isWord(toks[i + 1], 'ANY') || isWord(toks[i + 1], 'SOME') || isWord(toks[i + 1], 'ALL')) &&
      isPunct(toks[i + 2], '(')
    ) {
      const negate = !isOp(t, '=');
      const close = closerAfter(toks, i + 2);
      const inner = toks.slice(i + 3, close);
      let repl: Tok[];
      if (isWord(inner[0], 'ARRAY') && isPunct(inner[1], '[')) {
        repl = [
          { type: 'punct', text: '(' },
          ...inner.slice(2, closerAfter(inner, 1, '[', ']')),
          { type: 'punct', text: ')' },
        ];
      } else {
        repl = [{ type: 'group', text: '(SELECT value FROM __pg_elems(' }, ...inner, { type: 'group', text: '))' }];
      }
      const op: Tok[] = negate
        ? [
            { type: 'word', text: 'NOT' },
            { type: 'word', text: 'IN' },
          ]
        : [{ type: 'word', text: 'IN' }];
      toks.splice(i, close - i + 1, ...op, ...repl);
      continue;
    }
    if (isWord(t, 'ARRAY') && isPunct(toks[i + 1], '[')) {
      const close = closerAfter(toks, i + 1, '[', ']');
      toks.splice(
        i,
        close - i + 1,
        { type: 'word', text: '__pg_array' },
        { type: 'punct', text: '(' },
        ...toks.slice(i + 2, close),
        { type: 'punct', text: ')' },
      );
      continue;
    }
    // (expr)[n] and name[n]: an element of a PostgreSQL array (text '{a,b}'), 1-based
    if (
      isPunct(t, '[') &&
      !isPunct(toks[i + 1], ']') &&
      i > 0 &&
      (isPunct(toks[i - 1], ')') ||
        ((toks[i - 1].type === 'word' || toks[i - 1].type === 'quoted') && !isWord(toks[i - 1], 'ARRAY')))
    ) {
      const close = closerAfter(toks, i, '[', ']');
      let start = i - 1;
      if (isPunct(toks[start], ')')) {
        start = openerBefore(toks, start, '(', ')');
        if (start > 0 && toks[start - 1].type === 'word' && !NOT_FUNCTIONS.has(toks[start - 1].text.toUpperCase()))
          start--;
      }
      while (
        start > 1 &&
        isPunct(toks[start - 1], '.') &&
        (toks[start - 2].type === 'word' || toks[start - 2].type === 'quoted')
      )
        start -= 2;
      const elem: Tok[] = [
        { type: 'word', text: '__pg_elem' },
        { type: 'punct', text: '(' },
        ...toks.slice(start, i),
        { type: 'punct', text: ',' },
        ...toks.slice(i + 1, close),
        { type: 'punct', text: ')' },
      ];
      toks.splice(start, close - start + 1, ...elem);
      i = start;
      continue;
    }
    if (isWord(t, 'ARRAY') && isPunct(toks[i + 1], '(')) {
      const close = closerAfter(toks, i + 1);
      toks.splice(i, close - i + 1, { type: 'group', text: '(WITH __a(v) AS (' }, ...toks.slice(i + 2, close), {
        type: 'group',
        text: ') SELECT __pg_array_agg(v) FROM __a)',
      });
    }
  }
  return toks;
}

function rewriteCasts(toks: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (!isOp(t, '::') || out.length === 0) {
      out.push(t);
      continue;
    }
    const { name, isArray, end } = readType(toks, i + 1);
    const operand = rewriteIntervalArithmetic(out.splice(operandStart(out)));
    out.push({ type: 'group', text: castTo(joinTokens(operand), name, isArray) });
    i = end - 1;
  }
  return out;
}

/** Where the operand that ends `out` starts: a call or parenthesized group, a subscript, a (dotted) name or a literal. */
function operandStart(out: Tok[]): number {
  let j = out.length - 1;
  if (isPunct(out[j], ')')) {
    j = openerBefore(out, j, '(', ')');
    if (j > 0 && out[j - 1].type === 'word' && !NOT_FUNCTIONS.has(out[j - 1].text.toUpperCase())) {
      j--;
      if (j > 1 && isPunct(out[j - 1], '.')) j -= 2;
    }
  } else if (isPunct(out[j], ']')) {
    j = openerBefore(out, j, '[', ']');
    if (j > 0) j--;
  } else {
    while (j > 1 && isPunct(out[j - 1], '.') && (out[j - 2].type === 'word' || out[j - 2].type === 'quoted')) j -= 2;
  }
  return j;
}

const INTERVAL_FIELDS = new Set(['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND']);
const TYPED_LITERALS = new Set(['DATE', 'TIMESTAMP', 'TIMESTAMPTZ', 'TIME', 'TIMETZ', 'INTERVAL']);

/**
 * EXTRACT(field FROM x) → date_part('field', x); typed literals (DATE '2026-01-01', TIMESTAMP WITH
 * TIME ZONE '...', INTERVAL '7 days') → casts of the string, which rewriteCasts then converts.
 */
function rewriteDateSyntax(toks: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const prev = out[out.length - 1];
    if (
      isWord(t, 'EXTRACT') &&
      isPunct(toks[i + 1], '(') &&
      (isWord(toks[i + 2]) || toks[i + 2]?.type === 'string') &&
      isWord(toks[i + 3], 'FROM')
    ) {
      const field = toks[i + 2].type === 'string' ? toks[i + 2].text : quoteString(toks[i + 2].text.toLowerCase());
      out.push(
        { type: 'word', text: 'date_part' },
        toks[i + 1],
        { type: 'string', text: field },
        { type: 'punct', text: ',' },
      );
      i += 3;
      continue;
    }
    // x AT TIME ZONE 'UTC': the session's zone already
    if (
      isWord(t, 'AT') &&
      isWord(toks[i + 1], 'TIME') &&
      isWord(toks[i + 2], 'ZONE') &&
      toks[i + 3]?.type === 'string' &&
      /^'(utc|gmt|etc\/utc|z|\+00(:00)?)'$/i.test(toks[i + 3].text)
    ) {
      i += 3;
      continue;
    }
    if (t.type === 'word' && TYPED_LITERALS.has(t.text.toUpperCase()) && !isPunct(prev, '.') && !isOp(prev, '::')) {
      const { name, end: typeEnd } = readType(toks, i);
      let end = typeEnd;
      if (toks[end]?.type === 'string') {
        let lit = toks[end];
        // the SQL-standard INTERVAL '3' DAY
        if (name === 'interval' && isWord(toks[end + 1]) && INTERVAL_FIELDS.has(toks[end + 1].text.toUpperCase())) {
          lit = { type: 'string', text: `${lit.text.slice(0, -1)} ${toks[end + 1].text.toLowerCase()}'` };
          end++;
        }
        out.push(lit, { type: 'op', text: '::' }, { type: 'word', text: name });
        i = end;
        continue;
      }
    }
    out.push(t);
  }
  return out;
}

/** Types whose CAST(x AS type) PostgreSQL means differently from SQLite (which reads the name for an affinity only). */
const PG_CAST_TYPES = new Set([
  'int',
  'int2',
  'int4',
  'int8',
  'integer',
  'bigint',
  'smallint',
  'float4',
  'float8',
  'real',
  'double precision',
  'float',
  'numeric',
  'decimal',
  'bool',
  'boolean',
  'bytea',
  'regclass',
  'regtype',
  'regnamespace',
  'regproc',
  'regprocedure',
  'text',
  'varchar',
  'character varying',
  'char',
  'character',
  'bpchar',
  'name',
  'citext',
  'date',
  'timestamp',
  'timestamptz',
  'time',
  'timetz',
  'interval',
  'json',
  'jsonb',
  'uuid',
]);

/** CAST(x AS type) as PostgreSQL means it (SQLite's CAST AS date would make '2026-11-03' the number 2026); innermost first. */
function rewriteCastCalls(toks: Tok[]): Tok[] {
  for (let i = toks.length - 2; i >= 0; i--) {
    if (!isWord(toks[i], 'CAST') || !isPunct(toks[i + 1], '(')) continue;
    const close = closerAfter(toks, i + 1);
    let as = -1;
    let depth = 0;
    for (let k = i + 2; k < close; k++) {
      if (isPunct(toks[k], '(')) depth++;
      else if (isPunct(toks[k], ')')) depth--;
      else if (depth === 0 && isWord(toks[k], 'AS')) as = k;
    }
    if (as < 0) continue;
    const { name, isArray } = readType(toks, as + 1);
    if (!isArray && !PG_CAST_TYPES.has(name)) continue; // CAST(x AS BLOB) and other SQLite spellings run as SQLite's
    toks.splice(i, close - i + 1, {
      type: 'group',
      text: castTo(joinTokens(rewriteIntervalArithmetic(toks.slice(i + 2, as))), name, isArray),
    });
  }
  return toks;
}

/** Whether a token can end a left operand (not a keyword, '(' or ',': then the sign is unary). */
function endsOperand(t: Tok | undefined): boolean {
  if (t === undefined) return false;
  if (t.type === 'punct') return t.text === ')' || t.text === ']';
  if (t.type === 'word')
    return (
      !NOT_FUNCTIONS.has(t.text.toUpperCase()) &&
      !['SELECT', 'DISTINCT', 'BETWEEN', 'ELSE', 'RETURN'].includes(t.text.toUpperCase())
    );
  return t.type !== 'op';
}

/** x + INTERVAL '7 days', now() - '1 hour'::interval: calendar arithmetic on text timestamps. */
function rewriteIntervalArithmetic(toks: Tok[]): Tok[] {
  // a unary minus first (`x + - interval '1 day'`): the interval negated
  for (let i = 0; i + 1 < toks.length; i++) {
    const next = toks[i + 1];
    if (
      isOp(toks[i], '-') &&
      next.type === 'group' &&
      next.text.startsWith('__pg_interval(') &&
      !endsOperand(toks[i - 1])
    ) {
      toks.splice(i, 2, { type: 'group', text: `__pg_interval(${next.text} || ' ago')` });
    }
  }
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const next = toks[i + 1];
    if (
      (isOp(t, '+') || isOp(t, '-')) &&
      next?.type === 'group' &&
      next.text.startsWith('__pg_interval(') &&
      endsOperand(out[out.length - 1])
    ) {
      const left = out.splice(operandStart(out));
      out.push({
        type: 'group',
        text: `__pg_add_interval(${joinTokens(left)}, ${next.text}, ${isOp(t, '-') ? -1 : 1})`,
      });
      i++;
      continue;
    }

    out.push(t);
  }
  return out;
}

/**
 * `SELECT unnest(x) a, generate_subscripts(x, 1) b FROM t u ...` (SQLAlchemy's primary-key query):
 * set-returning functions in a select list become a join with the table-valued __pg_elems.
 */
function rewriteSetReturning(sql: string): string {
  // FROM unnest(x) a: the alias names the element, as in PostgreSQL
  sql = sql.replace(
    /\b(FROM|JOIN|,) unnest\(([^()]*)\) (?:AS )?("?\w+"?)/gi,
    (_m, kw: string, x: string, a: string) => `${kw} (SELECT value AS ${a} FROM unnest(${x})) ${a}`,
  );
  sql = aliasFromFunctions(sql);
  // pgjdbc's getPrimaryKeys: information_schema._pg_expandarray(indkey) AS keys ... (i.keys).x, (i.keys).n
  sql = sql.replace(
    /information_schema\._pg_expandarray\(([\w.]+)\) AS "(\w+)" FROM ([\w."]+) (\w+)/gi,
    (_m, x: string, k: string, t: string, a: string) =>
      `__e.value AS "${k}.x", __e.key + 1 AS "${k}.n" FROM ${t} ${a}, __pg_elems(${x}) __e`,
  );
  sql = sql.replace(/\((\w+)\.(\w+)\)\.(x|n)\b/g, (_m, a: string, k: string, f: string) => `${a}."${k}.${f}"`);
  return sql.replace(
    /SELECT unnest\(([\w.]+)\) (\w+), generate_subscripts\(\1, 1\) (\w+) FROM ([\w.]+) (\w+)/i,
    (_m, x: string, a: string, b: string, t: string, u: string) =>
      `SELECT __e.value AS ${a}, __e.key + 1 AS ${b} FROM ${t} ${u}, __pg_elems(${x}) __e`,
  );
}

/** Functions only the agent's catalog connection has (set-returning ones, session facts as arrays). */
const LOCAL_FUNCTIONS = new Set([
  'unnest',
  'generate_series',
  'current_schemas',
  'string_to_array',
  'parse_ident',
  'generate_subscripts',
  'pg_get_keywords',
]);

/**
 * `FROM generate_series(a, b) AS i, string_to_array(x, ',') s` (Grafana): in PostgreSQL the alias
 * of a function in FROM names its value, so each becomes a subquery with one column of that name.
 */
function aliasFromFunctions(sql: string): string {
  const re = /(\bFROM|\bJOIN|,) (generate_series|string_to_array)\(/gi;
  let out = '';
  let last = 0;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    let depth = 0;
    let j = m.index + m[0].length - 1;
    for (; j < sql.length; j++) {
      const ch = sql[j];
      if (ch === "'") j = sql.indexOf("'", j + 1) < 0 ? sql.length : sql.indexOf("'", j + 1);
      else if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) break;
    }
    const alias = /^ (?:AS )?("?\w+"?)(?=\s*(?:,|\)|$| WHERE| ORDER| JOIN| LEFT| GROUP))/i.exec(sql.slice(j + 1));
    if (!alias || /^(WHERE|ORDER|JOIN|LEFT|GROUP|ON)$/i.test(alias[1])) continue;
    const call = sql.slice(m.index + m[1].length + 1, j + 1);
    const a = alias[1];
    out +=
      sql.slice(last, m.index) +
      `${m[1]} ` +
      (m[2].toLowerCase() === 'generate_series'
        ? `(SELECT value AS ${a} FROM ${call}) ${a}`
        : `(SELECT ${call} AS ${a}) ${a}`);
    last = j + 1 + alias[0].length;
    re.lastIndex = last;
  }
  return out + sql.slice(last);
}

/** Relation names that live in the agent's catalog rather than in the database. */
export function catalogRelations(tokens: PgToken[]): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type !== 'word' && t.type !== 'quoted') continue;
    const name = identName(t);
    if (name === 'information_schema' || name === 'pg_catalog') return true;
    if (name.startsWith('pg_') && tokens[i + 1]?.text !== '(') return true;
    if (LOCAL_FUNCTIONS.has(name) && tokens[i + 1]?.text === '(') return true;
  }
  return false;
}

/** True when a SELECT has no FROM at all (constants and functions: answered locally). */
export function hasNoFrom(tokens: PgToken[]): boolean {
  return !tokens.some((t) => t.type === 'word' && t.text.toUpperCase() === 'FROM');
}

/** The highest $n a statement uses. */
export function maxParam(tokens: PgToken[]): number {
  let m = 0;
  for (const t of tokens) if (t.type === 'param') m = Math.max(m, Number(t.text.slice(1)));
  return m;
}

export { lexPg };
