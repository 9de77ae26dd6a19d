// SQLite's constraint errors in PostgreSQL's words: `UNIQUE constraint failed: users.id` reaches a PG
// client as `duplicate key value violates unique constraint "users_pkey"` with the DETAIL line
// `Key (id)=(1) already exists.`, as psql, ORMs and log scrapers expect.
import type { Schema, TableDef } from '../../../src/engine/schema/model';
import type { SqlValue } from '../../../src/engine/values';
import { PatinaError } from '../../../src/errors';
import { identName, lexPg } from '../sql/lexer';
import { PgError } from '../sqlstate';
import { OID, oidOfDeclType, typmodOfDeclType } from '../types/oids';
import { textOf } from '../types/values';
import { insertRowQueries, updateRowQuery } from './failing-rows';

/** What the rewording needs: the schema, the failed statement and a way to see whether a key exists. */
export interface ConstraintContext {
  schema: Schema;
  sql: string;
  params: Record<string, SqlValue> | undefined;
  /** Whether a row with these key values exists (as the data stands after the failed statement). */
  keyExists(table: string, columns: string[], values: SqlValue[]): boolean;
  /** The first row a query of the data gives (as the data stands after the failed statement), with the statement's parameters; null for none. */
  readRow?(sql: string): SqlValue[] | null;
  /** The session's TimeZone when not UTC (a timestamptz in a DETAIL prints there); absent: UTC. */
  zone?: string | null;
}

/** The PostgreSQL form of a constraint error, or the error itself when it is not one. */
export function pgConstraintError(err: unknown, ctx: ConstraintContext): unknown {
  if (!(err instanceof PatinaError) || !err.sqliteCode?.startsWith('SQLITE_CONSTRAINT')) return err;
  const text = err.message.replace(/^(statement( \d+)?|commit): /, '');
  let m = /^(?:UNIQUE|PRIMARY KEY) constraint failed: (.+)$/.exec(text);
  if (m) {
    const cols = m[1].split(', ').map((c) => c.split('.'));
    const table = cols[0][0];
    const columns = cols.map((c) => c[1]);
    const def = ctx.schema.tables.get(table);
    const isPk =
      def !== undefined && def.primaryKey.length === columns.length && def.primaryKey.every((c, i) => c === columns[i]);
    const name = isPk
      ? `${table}_pkey`
      : (def?.indexes.find((ix) => ix.unique && ix.columns.join() === columns.join())?.name ??
        `${table}_${columns.join('_')}_key`);
    const key = conflictingKey(ctx, table, columns);
    const detail = key ? `Key (${columns.join(', ')})=(${key.map(keyText).join(', ')}) already exists.` : undefined;
    return withObject(
      new PgError('conflict', `duplicate key value violates unique constraint "${name}"`, '23505', detail),
      { table, constraint: name },
    );
  }
  m = /^NOT NULL constraint failed: (\w+)\.(\w+)$/.exec(text);
  if (m) {
    const row = failingRow(ctx, m[1], m[2]);
    return withObject(
      new PgError(
        'conflict',
        `null value in column "${m[2]}" of relation "${m[1]}" violates not-null constraint`,
        '23502',
        row ? `Failing row contains (${row.join(', ')}).` : undefined,
      ),
      { table: m[1], column: m[2] },
    );
  }
  m = /^CHECK constraint failed: (.+)$/.exec(text);
  if (m) {
    const table = targetTable(ctx.sql) ?? 'unknown';
    const def = ctx.schema.tables.get(table);
    let name = m[1];
    if (!/^\w+$/.test(name) || def?.columns.some((c) => c.name === name)) {
      const used = def
        ? def.columns.filter((c) => new RegExp(`\\b${c.name}\\b`, 'i').test(m![1])).map((c) => c.name)
        : [];
      name = used.length === 1 ? `${table}_${used[0]}_check` : `${table}_check`;
    }
    return withObject(
      new PgError('conflict', `new row for relation "${table}" violates check constraint "${name}"`, '23514'),
      { table, constraint: name },
    );
  }
  if (/FOREIGN KEY constraint failed/.test(text)) {
    return new PgError(
      'conflict',
      `insert or update on table "${targetTable(ctx.sql) ?? 'unknown'}" violates foreign key constraint`,
      '23503',
    );
  }
  return err;
}

/**
 * The row a NOT NULL failure was about, each value as PostgreSQL's text of its column's type (null
 * as `null`), as PostgreSQL's DETAIL shows it: for `INSERT ... VALUES` of literals and parameters
 * (the first row with no value for the column; columns left out take a literal default) from the
 * text (COPY's too); for the other INSERTs and UPDATEs by reading the statement's rows again (the
 * first that leaves the column null). Null when neither tells.
 */
function failingRow(ctx: ConstraintContext, table: string, column: string): string[] | null {
  const def = ctx.schema.tables.get(table);
  if (!def) return null;
  const sig = lexPg(ctx.sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
  const first = sig[0]?.text.toUpperCase();
  let values: SqlValue[] | null = null;
  if (first === 'INSERT') values = insertedRow(ctx, sig, def, column);
  // the other forms: the statement's own rows read again (failing-rows.ts)
  const read = ctx.readRow;
  if (!values && read) {
    const update = updateRowQuery(sig, def, column);
    const queries = update !== null ? [update] : first === 'UPDATE' ? [] : insertRowQueries(sig, def, column);
    for (const q of queries) if ((values = read(q))) break;
  }
  if (!values) return null;
  return def.columns.map((c, i) => {
    const oid = oidOfDeclType(c.type);
    return textOf(values![i], oid, oid === OID.numeric ? typmodOfDeclType(c.type) : -1, ctx.zone ?? null) ?? 'null';
  });
}

type Sig = ReturnType<typeof lexPg>;

/** The first VALUES row leaving `column` null, in the table's column order; null when a value is an expression. */
function insertedRow(ctx: ConstraintContext, sig: Sig, def: TableDef, column: string): SqlValue[] | null {
  const into = sig.findIndex((t) => t.type === 'word' && t.text.toUpperCase() === 'INTO');
  if (into < 0 || identName(sig[into + 1] ?? sig[into]) !== def.name) return null;
  let i = into + 2;
  let names = def.columns.map((c) => c.name.toLowerCase());
  if (sig[i]?.text === '(') {
    names = [];
    for (i++; i < sig.length && sig[i].text !== ')'; i++) if (sig[i].text !== ',') names.push(identName(sig[i]));
    i++;
  }
  if (sig[i]?.type !== 'word' || sig[i].text.toUpperCase() !== 'VALUES') return null;
  const defaults = new Map<string, SqlValue>();
  for (const c of def.columns)
    if (!names.includes(c.name.toLowerCase())) {
      const v = c.defaultSql === null ? null : literalValueOf(lexPg(c.defaultSql), undefined);
      if (v === undefined) return null;
      defaults.set(c.name, v);
    }
  for (i++; sig[i]?.text === '('; i++) {
    // (a numeric(p, s) value goes through __pg_numeric(x, p, s), which the column's text rounds alike)
    let row: (SqlValue | undefined)[];
    [row, i] = valuesRow(sig, i, ctx, (item) =>
      item[0]?.text === '__pg_numeric' && item[1]?.text === '(' ? item.slice(2, -5) : item,
    );
    if (row.some((v) => v === undefined)) return null;
    const full = def.columns.map((c) => {
      const k = names.indexOf(c.name.toLowerCase());
      return k < 0 ? defaults.get(c.name)! : (row[k] as SqlValue);
    });
    if (full[def.columns.findIndex((c) => c.name === column)] === null) return full;
    if (sig[i + 1]?.text !== ',') break;
    i++;
  }
  return null;
}

/**
 * The values of the VALUES row whose `(` is sig[i] (undefined for one that is no literal or
 * parameter; `item` may unwrap a value first), and the index of its `)`.
 */
function valuesRow(
  sig: Sig,
  i: number,
  ctx: ConstraintContext,
  item: (value: Sig) => Sig = (v) => v,
): [(SqlValue | undefined)[], number] {
  const row: (SqlValue | undefined)[] = [];
  let value: Sig = [];
  let depth = 0;
  for (i++; i < sig.length; i++) {
    const t = sig[i];
    if (depth === 0 && (t.text === ',' || t.text === ')')) {
      row.push(literalValueOf(item(value), ctx.params));
      value = [];
      if (t.text === ')') break;
      continue;
    }
    if (t.text === '(') depth++;
    if (t.text === ')') depth--;
    value.push(t);
  }
  return [row, i];
}

const keyText = (v: SqlValue) =>
  v === null ? 'null' : v instanceof Uint8Array ? `\\x${Buffer.from(v).toString('hex')}` : String(v);

/** The table an INSERT, UPDATE or DELETE writes to. */
export function targetTable(sql: string): string | null {
  const sig = lexPg(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
  for (let i = 0; i + 1 < sig.length; i++) {
    const w = sig[i].type === 'word' ? sig[i].text.toUpperCase() : '';
    if (
      (w === 'INTO' || w === 'UPDATE' || (w === 'FROM' && i > 0 && sig[i - 1].text.toUpperCase() === 'DELETE')) &&
      (sig[i + 1].type === 'word' || sig[i + 1].type === 'quoted')
    ) {
      return identName(sig[i + 1]);
    }
  }
  return null;
}

/**
 * The key of an `INSERT ... VALUES` row that conflicts: the only row's, or the first row whose key
 * already exists or repeats an earlier row's. Null when the statement is of another form or a key is an expression.
 */
function conflictingKey(ctx: ConstraintContext, table: string, columns: string[]): SqlValue[] | null {
  const sig = lexPg(ctx.sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
  const into = sig.findIndex((t) => t.type === 'word' && t.text.toUpperCase() === 'INTO');
  if (into < 0 || identName(sig[into + 1] ?? sig[into]) !== table) return null;
  let i = into + 2;
  let names: string[];
  if (sig[i]?.text === '(') {
    names = [];
    for (i++; i < sig.length && sig[i].text !== ')'; i++) if (sig[i].text !== ',') names.push(identName(sig[i]));
    i++;
  } else names = ctx.schema.tables.get(table)?.columns.map((c) => c.name.toLowerCase()) ?? [];
  if (sig[i]?.type !== 'word' || sig[i].text.toUpperCase() !== 'VALUES') return null;
  const at = columns.map((c) => names.indexOf(c.toLowerCase()));
  if (at.some((k) => k < 0)) return null;
  const rows: SqlValue[][] = [];
  for (i++; sig[i]?.text === '('; i++) {
    let row: (SqlValue | undefined)[];
    [row, i] = valuesRow(sig, i, ctx);
    const key = at.map((k) => row[k]);
    if (key.some((v) => v === undefined)) return null;
    rows.push(key as SqlValue[]);
    if (sig[i + 1]?.text !== ',') break;
    i++;
  }
  // one row failing on these columns: its key is the one that exists (in whatever this session sees)
  if (rows.length === 1) return rows[0];
  const seen = new Set<string>();
  for (const key of rows) {
    const id = JSON.stringify(key.map(keyText));
    if (seen.has(id) || ctx.keyExists(table, columns, key)) return key;
    seen.add(id);
  }
  return null;
}

/** The value of a VALUES item that is a literal or a parameter; undefined for an expression. */
function literalValueOf(
  item: ReturnType<typeof lexPg>,
  params: Record<string, SqlValue> | undefined,
): SqlValue | undefined {
  const neg = item.length === 2 && item[0].text === '-';
  const t = item.length === 1 ? item[0] : neg ? item[1] : null;
  if (!t) return undefined;
  if (t.type === 'number')
    return /^\d+$/.test(t.text) ? (neg ? -BigInt(t.text) : BigInt(t.text)) : Number((neg ? '-' : '') + t.text);
  if (neg) return undefined;
  if (t.type === 'string') return t.text.slice(1, -1).split("''").join("'");
  if (t.type === 'param') return params?.[t.text.slice(1)];
  if (t.type === 'word' && t.text.toUpperCase() === 'NULL') return null;
  // (a boolean is stored as an integer)
  if (t.type === 'word' && /^(true|false)$/i.test(t.text)) return t.text.toLowerCase() === 'true' ? 1n : 0n;
  return undefined;
}

/** The error with the schema, table, column and constraint it is about, as PostgreSQL sends them apart. */
function withObject(err: PgError, object: { table: string; column?: string; constraint?: string }): PgError {
  err.object = { schema: 'public', ...object };
  return err;
}
