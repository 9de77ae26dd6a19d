// Analysis of the statements that are not plain SQL for SQLite: TRUNCATE (a DELETE per table),
// COPY, DECLARE / FETCH / MOVE of cursors, EXPLAIN, and SELECT pg_notify(...). Each reads the
// statement's tokens and checks them against the schema; the query inside COPY, DECLARE or EXPLAIN
// is analysed by the Analyzer passed in.
import type { Schema } from '../../../src/engine/schema/model';
import { parseCopy } from '../copy/statement';
import { parseFetch } from '../session/cursors';
import { pgError, pgErrorAt } from '../sqlstate';
import type { Analyzed } from './analyzed';
import { type PgToken, identName, lexPg } from './lexer';

const MODIFYING = new Set(['INSERT', 'UPDATE', 'DELETE']);

/** What analyses the query a command holds. */
export interface InnerAnalysis {
  analyze(tokens: PgToken[], declaredTypes?: number[]): Analyzed;
}

/**
 * TRUNCATE [TABLE] [ONLY] a [, b] [RESTART IDENTITY | CONTINUE IDENTITY] [RESTRICT]: a DELETE of
 * every row of each table in one transaction, captured and replicated like any delete.
 */
export function analyzeTruncate(sig: PgToken[], schema: Schema): Analyzed {
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
    if (!schema.tables.has(name)) throw pgError('42P01', `relation "${name}" does not exist`);
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
export function analyzeCopy(sig: PgToken[], tokens: PgToken[], schema: Schema, inner: InnerAnalysis): Analyzed {
  const stmt = parseCopy(sig, tokens);
  const base = { sql: '', local: false, paramTypes: [] as number[] };
  if (stmt.query) {
    const read = inner.analyze(stmt.query);
    // an INSERT, UPDATE or DELETE with RETURNING, or a data-modifying WITH query at the top, runs as
    // the write it is (on the writer, as it would alone) and its rows are copied out, as in PostgreSQL
    const writes = !read.readonly && (read.feeds !== undefined || MODIFYING.has(read.command));
    if (read.kind === 'sql' && writes && !read.columns)
      throw pgError('0A000', 'COPY query must have a RETURNING clause');
    if (read.kind !== 'sql' || !read.columns || !(read.readonly || writes))
      throw pgError('0A000', 'COPY (query) TO takes a query that returns rows (SELECT, VALUES, WITH)');
    return {
      ...base,
      kind: 'copy',
      command: 'COPY',
      readonly: read.readonly,
      columns: null,
      copy: { stmt, columns: read.columns.map((c) => c.name), read },
    };
  }
  const def = schema.tables.get(stmt.table!);
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
  const read = inner.analyze(lexPg(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${def.name}"`));
  return { ...base, kind: 'copy', command: 'COPY', readonly: true, columns: null, copy: { stmt, columns, read } };
}

/** DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [[NO] SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR query. */
export function analyzeDeclare(
  sig: PgToken[],
  tokens: PgToken[],
  declaredTypes: number[],
  analysis: InnerAnalysis,
): Analyzed {
  if (!sig[1] || (sig[1].type !== 'word' && sig[1].type !== 'quoted'))
    throw pgError('42601', 'syntax error: DECLARE needs a cursor name');
  const name = identName(sig[1]);
  let i = 2;
  let hold = false;
  let scroll = false;
  const up = (k: number) => (sig[k]?.type === 'word' ? sig[k].text.toUpperCase() : '');
  for (; i < sig.length && up(i) !== 'FOR'; i++) {
    if (up(i) === 'BINARY') throw pgError('0A000', 'binary cursors are not supported by Patina');
    if (up(i) === 'WITH' && up(i + 1) === 'HOLD') hold = true;
    if (up(i) === 'SCROLL' && up(i - 1) !== 'NO') scroll = true;
  }
  if (up(i) !== 'FOR' || !sig[i + 1]) throw pgError('42601', 'syntax error: DECLARE ... CURSOR needs FOR and a query');
  const inner = analysis.analyze(tokens.slice(tokens.indexOf(sig[i + 1])), declaredTypes);
  if (inner.feeds) throw pgError('0A000', 'DECLARE CURSOR must not contain data-modifying statements in WITH');
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
    cursor: { name, hold, inner, scroll },
  };
}

/** FETCH/MOVE (session/cursors.ts reads the direction). */
export function analyzeFetch(sig: PgToken[], move: boolean): Analyzed {
  const { name, count, dir } = parseFetch(sig, move);
  return {
    kind: 'fetch',
    command: move ? 'MOVE' : 'FETCH',
    sql: '',
    local: false,
    readonly: true,
    columns: null,
    paramTypes: [],
    cursor: { name, count, move, dir },
  };
}

/** EXPLAIN [ANALYZE] [VERBOSE] [(options)] statement: SQLite's query plan as text rows. */
/** The options PostgreSQL 15's EXPLAIN takes in parentheses. */
const EXPLAIN_OPTIONS = new Set([
  'analyze',
  'verbose',
  'costs',
  'settings',
  'buffers',
  'wal',
  'timing',
  'summary',
  'format',
]);

export function analyzeExplain(
  sig: PgToken[],
  tokens: PgToken[],
  declaredTypes: number[],
  analysis: InnerAnalysis,
): Analyzed {
  let i = 1;
  let run = false;
  const up = (k: number) => (sig[k]?.type === 'word' ? sig[k].text.toUpperCase() : '');
  if (sig[i]?.text === '(') {
    for (i++; i < sig.length && sig[i].text !== ')'; i++) {
      // an option's name (after the parenthesis or a comma) must be one of PostgreSQL 15's
      if ((sig[i - 1].text === '(' || sig[i - 1].text === ',') && !EXPLAIN_OPTIONS.has(up(i).toLowerCase())) {
        const name = sig[i].type === 'quoted' ? sig[i].text.slice(1, -1) : sig[i].text.toLowerCase();
        const at = tokens.slice(0, tokens.indexOf(sig[i])).reduce((n, t) => n + t.text.length, 0);
        throw pgErrorAt('42601', `unrecognized EXPLAIN option "${name}"`, at);
      }
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
  const inner = analysis.analyze(tokens.slice(start), declaredTypes);
  // EXPLAIN EXECUTE p(...): the prepared statement is found, and its arguments evaluated, when it runs
  if (inner.kind === 'execute')
    return {
      kind: 'explain',
      command: 'EXPLAIN',
      sql: '',
      local: false,
      readonly: !run,
      columns: [{ name: 'QUERY PLAN', declType: 'text' }],
      paramTypes: [],
      explain: { inner, run },
    };
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

/**
 * `SELECT pg_notify(channel, payload)` with string literals or parameters: the channel and payload,
 * and for each the index of the parameter that gives it (null for a literal). Null for anything else.
 */
export function pgNotifyCall(sig: PgToken[]): { name: string; payload: string; params: (number | null)[] } | null {
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
  // a NULL payload is an empty one, as in PostgreSQL (a NULL channel is refused where it is sent)
  const arg = (t: PgToken): [string, number | null] | null =>
    t.type === 'string'
      ? [t.text.slice(1, -1).split("''").join("'"), null]
      : t.type === 'param'
        ? ['', Number(t.text.slice(1)) - 1]
        : t.type === 'word' && t.text.toUpperCase() === 'NULL'
          ? ['', null]
          : null;
  const a = arg(sig[3]);
  const b = arg(sig[5]);
  if (!a || !b) return null;
  return { name: a[0], payload: b[0], params: [a[1], b[1]] };
}
