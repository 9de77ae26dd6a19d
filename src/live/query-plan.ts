import type Database from 'better-sqlite3';
import { PatinaError, fromSqliteError } from '../errors';
import type { Schema, TableDef } from '../engine/schema/model';
import { isInternalName } from '../engine/schema/model';
import { type Token, quoteIdentifier, significant, tokenize, unquoteIdentifier } from '../engine/sql-text';
import type { SqlParams, SqlValue } from '../engine/values';
import { Lru } from '../lru';

/**
 * How a subscription follows changes:
 * - `restricted`: a selection or inner join of schema tables. After a change, the query is re-run
 *   with one table occurrence at a time limited to the changed keys; the cost follows the changed rows.
 * - `keyed`: rows still come one per combination of source rows (left joins, subqueries in WHERE or
 *   the select list), but a change can reach rows it does not name; the query is re-run in full and
 *   diffed by row identity.
 * - `multiset`: aggregates, DISTINCT, LIMIT, compound selects, CTEs, window functions, subqueries in
 *   FROM: re-run in full and diffed as a multiset of values.
 */
export type PlanMode = 'restricted' | 'keyed' | 'multiset';

/** One table of the FROM clause, by the name the query calls it. */
export interface Occurrence {
  table: string;
  alias: string;
  pk: string[];
}

/** Where an occurrence's name (and alias) ends in the SQL text, and whether the query already says how to index it. */
interface OccurrenceText {
  end: number;
  hinted: boolean;
  /** The FROM item's text (name, alias, index clause), and its ON expression if it has one. */
  item: [number, number];
  on: [number, number] | null;
}

export interface QueryPlan {
  sql: string;
  params: SqlParams | undefined;
  columns: string[];
  /** Schema tables the query reads (lower case), found from the compiled program. */
  tables: Set<string>;
  mode: PlanMode;
  /** Table occurrences whose keys make a row's identity (restricted and keyed modes). */
  occurrences: Occurrence[];
  /** The query with the occurrences' primary keys appended as hidden columns. */
  fullSql: string;
  /** The full query with occurrence `occ` limited to `n` keys bound as named parameters (restricted mode). */
  restrictedSql(occ: number, n: number): string;
  /**
   * `column = value` conditions every result row satisfies (top-level conjuncts of WHERE, restricted
   * mode), at most one per occurrence: a changed row can only reach the result, or leave it, if its
   * new value equals `value` or the result holds it now.
   */
  equalities: Equality[];
  /** How subscriptions of this SQL with other parameters are evaluated together; null: one by one. */
  shared: SharedPlan | null;
}

/**
 * Statements that evaluate many subscriptions of one SQL text, each with its own parameters, at
 * once (restricted mode). A VALUES source `__patina_p` lists (subscription number, changed key of
 * one occurrence, that subscription's parameter values) rows; each parameter of the query reads its
 * column (`+__patina_p.__patina_vN`: the unary plus keeps a bound parameter's lack of affinity), the
 * changed occurrence is matched to the row's key, and each result row ends with its subscription
 * number. VALUES comes first in the join order, so the pairs drive the lookups: the cost is that of
 * evaluating each pair alone, in one statement instead of one per subscription.
 */
export interface SharedPlan {
  /** Subscriptions whose plans have the same key share statements. */
  key: string;
  /** The values of the parameter columns for a subscription's parameters. */
  values(params: SqlParams | undefined): SqlValue[];
  /** Values bound per pair: the subscription number, the key parts of `occ`, the parameter values. */
  width(occ: number): number;
  /** The statement for `n` pairs of occurrence `occ`, bound positionally, pair after pair. */
  sql(occ: number, n: number): string;
}

/**
 * Occurrence `occ`'s `column` (or a deterministic expression of its row) equals `value` in every
 * result row, as SQLite compares them.
 */
export interface Equality {
  occ: number;
  /** The column; for an expression, `expr` and `columns` say what to evaluate (column is then the expression's text). */
  column: string;
  /** The value (the first, for `IN (...)`). */
  value: SqlValue;
  /** Every value it may equal: `[value]`, or the list of `col IN (v1, v2, ...)`. */
  values: SqlValue[];
  /** An expression of the row with its column references as `@c1`, `@c2`, ... (in the order of `columns`). */
  expr?: string;
  columns?: string[];
  /**
   * How a whole number of each column was stored: a changeset gives JavaScript numbers, so 1 may be
   * INTEGER 1 or REAL 1.0 (`||` prints them differently). 'any': the column's affinity does not say.
   */
  wholeAs?: ('integer' | 'real' | 'any')[];
}

/**
 * Scalar functions that always give the same result for the same arguments and read nothing but
 * them: an expression of a row built from these (and operators other than comparisons) can be
 * evaluated on the changed row alone.
 */
const DETERMINISTIC_FUNCTIONS = new Set([
  'ABS',
  'LOWER',
  'UPPER',
  'LENGTH',
  'SUBSTR',
  'SUBSTRING',
  'TRIM',
  'LTRIM',
  'RTRIM',
  'REPLACE',
  'COALESCE',
  'IFNULL',
  'NULLIF',
  'ROUND',
  'HEX',
  'INSTR',
  'UNICODE',
  'JSON_EXTRACT',
  'SIGN',
]);
const EXPRESSION_PUNCT = new Set(['(', ')', ',', '%', '+', '-', '*', '/', '|', '&', '.']);

/**
 * `tokens` as an expression of one occurrence's row (`pk % 1000`, `lower(email)`, `a || '/' || b`),
 * rewritten with `@cN` for its column references; null when it reads anything else (a parameter, a
 * subquery, another occurrence, a function not known to be deterministic, a comparison, a column
 * with a collation), or is a bare column.
 */
function rowExpression(
  toks: Token[],
  expr: number[],
  shape: Shape,
  schema: Schema,
): { occ: number; expr: string; columns: string[]; wholeAs: ('integer' | 'real' | 'any')[] } | null {
  let occ = -1;
  const columns: string[] = [];
  const wholeAs: ('integer' | 'real' | 'any')[] = [];
  let out = '';
  const use = (o: number, name: string): boolean => {
    if (occ >= 0 && o !== occ) return false;
    occ = o;
    const col = findTable(schema, shape.occurrences[o].table)?.columns.find(
      (c) => c.name.toLowerCase() === name.toLowerCase(),
    );
    if (!col || /\bCOLLATE\b/i.test(col.definition)) return false;
    let n = columns.indexOf(col.name);
    if (n < 0) {
      n = columns.push(col.name) - 1;
      const t = col.storedType.toUpperCase();
      const affinity = affinityOf(col.storedType);
      // INTEGER and NUMERIC affinity store a whole REAL as INTEGER; REAL affinity keeps it REAL
      wholeAs.push(
        /REAL|FLOA|DOUB/.test(t) && !t.includes('INT') ? 'real' : affinity === 'numeric' ? 'integer' : 'any',
      );
    }
    out += ` @c${n + 1} `;
    return true;
  };
  for (let k = 0; k < expr.length; k++) {
    const t = toks[expr[k]];
    const next = toks[expr[k + 1]];
    if (t.type === 'number' || t.type === 'string') out += ` ${t.text} `;
    else if (t.type === 'punct' && EXPRESSION_PUNCT.has(t.text) && t.text !== '.') out += t.text;
    else if ((t.type === 'word' || t.type === 'quoted') && next?.text === '.' && expr[k + 2] !== undefined) {
      const alias = unquoteIdentifier(t.text).toLowerCase();
      const o = shape.occurrences.findIndex((x) => x.alias.toLowerCase() === alias);
      const c = toks[expr[k + 2]];
      if (o < 0 || (c.type !== 'word' && c.type !== 'quoted') || !use(o, unquoteIdentifier(c.text))) return null;
      k += 2;
    } else if (t.type === 'word' && next?.text === '(') {
      if (!DETERMINISTIC_FUNCTIONS.has(t.text.toUpperCase())) return null;
      out += t.text;
    } else if (t.type === 'word' || t.type === 'quoted') {
      const name = unquoteIdentifier(t.text);
      const owners = shape.occurrences
        .map((o, i) =>
          findTable(schema, o.table)?.columns.some((c) => c.name.toLowerCase() === name.toLowerCase()) ? i : -1,
        )
        .filter((i) => i >= 0);
      if (owners.length !== 1 || !use(owners[0], name)) return null;
    } else return null;
  }
  // `(col)` is still the column (with its affinity): an operator or a function must make it an expression
  if (occ < 0 || !/[%+\-*/|&]|\w\(/.test(out.replace(/'(?:[^']|'')*'/g, "''"))) return null;
  return { occ, expr: out.trim(), columns, wholeAs };
}

const CLAUSE_END = new Set(['WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT']);
const JOIN_WORDS = new Set(['NATURAL', 'LEFT', 'RIGHT', 'FULL', 'OUTER', 'INNER', 'CROSS', 'JOIN']);
const NOT_ALIAS = new Set([
  ...CLAUSE_END,
  ...JOIN_WORDS,
  'ON',
  'USING',
  'INDEXED',
  'NOT',
  'UNION',
  'EXCEPT',
  'INTERSECT',
]);
const AGGREGATES = new Set([
  'COUNT',
  'SUM',
  'TOTAL',
  'AVG',
  'MIN',
  'MAX',
  'GROUP_CONCAT',
  'STRING_AGG',
  'JSON_GROUP_ARRAY',
  'JSON_GROUP_OBJECT',
  'JSONB_GROUP_ARRAY',
  'JSONB_GROUP_OBJECT',
  'MEDIAN',
  'PERCENTILE',
  'PERCENTILE_CONT',
  'PERCENTILE_DISC',
]);

/** Named parameter for key `k`, part `j`, of a restricted query. */
export function keyParam(k: number, j: number): string {
  return `__patina_k${k}_${j}`;
}

/**
 * Checks a subscription's statement and works out how to follow it. Refuses (user errors) anything
 * but one read-only SELECT that prepares, binds its parameters and reads at least one schema table.
 */
export function planQuery(
  db: Database.Database,
  schema: Schema,
  sql: string,
  params: SqlParams | undefined,
): QueryPlan {
  const kind = params === undefined ? 'none' : Array.isArray(params) ? 'positional' : 'named';
  const known = textPlans(db, schema).get(`${kind}:${sql}`);
  if (known) {
    // the text was checked and planned for another subscription: only its parameters are new
    bindCheck(prepare(db, sql), params);
    return withParams(known, schema, params);
  }
  const toks = significant(tokenize(sql));
  while (toks.length > 0 && toks[toks.length - 1].text === ';') toks.pop();
  const first = toks[0]?.type === 'word' ? toks[0].text.toUpperCase() : '';
  if (first !== 'SELECT' && first !== 'WITH') {
    throw new PatinaError(
      'user',
      first
        ? `a subscription takes one SELECT statement, not ${first}`
        : 'a subscription needs a SELECT statement; the body holds none',
    );
  }
  const stmt = prepare(db, sql);
  if (!stmt.reader || !stmt.readonly)
    throw new PatinaError('user', 'a subscription takes one SELECT statement that only reads; this one writes');
  bindCheck(stmt, params);
  const columns = stmt.columns().map((c) => c.name);
  const { tables, aggregate } = sourceTables(db, schema, sql, params);
  if (tables.size === 0)
    throw new PatinaError(
      'user',
      "the query reads no schema table, so it would never change; subscribe to a query over the cluster's tables",
    );
  const text = planText(db, schema, sql, params, toks, columns, tables, aggregate);
  textPlans(db, schema).set(`${kind}:${sql}`, text);
  return withParams(text, schema, params);
}

/**
 * What planning works out from the SQL text alone (and the kind of its parameters: none,
 * positional or named), shared by every subscription of that text: 10,000 subscriptions of one SQL
 * with other parameters held 10,000 copies of it (tokens, closures, statement texts), about 3 KB each.
 */
interface TextPlan {
  sql: string;
  toks: Token[];
  /** null for a multiset plan */
  shape: Shape | null;
  columns: string[];
  tables: Set<string>;
  mode: PlanMode;
  fullSql: string;
  restrictedSql(occ: number, n: number): string;
  shared: SharedPlan | null;
}

/** Text plans by connection and schema (a reload brings a new Schema), the most recently used 256 texts. */
const textPlanCache = new WeakMap<Database.Database, WeakMap<Schema, Lru<string, TextPlan>>>();

function textPlans(db: Database.Database, schema: Schema): Lru<string, TextPlan> {
  let bySchema = textPlanCache.get(db);
  if (!bySchema) textPlanCache.set(db, (bySchema = new WeakMap()));
  let plans = bySchema.get(schema);
  if (!plans) bySchema.set(schema, (plans = new Lru(256)));
  return plans;
}

/** A subscription's plan: its text's plan with its own parameters and the equalities they pin. */
function withParams(text: TextPlan, schema: Schema, params: SqlParams | undefined): QueryPlan {
  const equalities =
    text.mode === 'restricted' && text.shape?.where ? findEqualities(text.toks, text.shape, schema, params) : [];
  return {
    sql: text.sql,
    params,
    columns: text.columns,
    tables: text.tables,
    mode: text.mode,
    occurrences: text.shape?.occurrences ?? [],
    fullSql: text.fullSql,
    restrictedSql: text.restrictedSql,
    equalities,
    shared: text.shared,
  };
}

function planText(
  db: Database.Database,
  schema: Schema,
  sql: string,
  params: SqlParams | undefined,
  toks: Token[],
  columns: string[],
  tables: Set<string>,
  aggregate: boolean,
): TextPlan {
  const end = endOf(toks);
  const shape = aggregate ? null : analyzeShape(toks, schema);
  if (!shape) return multisetPlan(sql, toks, columns, tables);
  const hidden = shape.occurrences
    .flatMap((o, i) =>
      o.pk.map(
        (c, j) => `${quoteIdentifier(o.alias)}.${quoteIdentifier(c)} AS ${quoteIdentifier(`__patina_h${i}_${j}`)}`,
      ),
    )
    .join(', ');
  const head = `${sql.slice(0, shape.fromStart)}\n, ${hidden}\n`;
  const fullSql = head + sql.slice(shape.fromStart, end);
  const cache = new Map<string, string>();
  const restrictedSql = (occ: number, n: number): string => {
    const k = `${occ}:${n}`;
    let text = cache.get(k);
    if (text === undefined) cache.set(k, (text = buildRestricted(occ, n)));
    return text;
  };
  // The restricted occurrence is read by its primary key only (NOT INDEXED keeps rowid lookups;
  // INDEXED BY names the key's own index): its changed keys drive the lookup, whatever else the
  // WHERE offers the planner (a range, an index on a pinned column that would walk the whole result).
  const hints = shape.occurrences.map((o, i) => (shape.texts[i].hinted ? '' : keyIndexHint(db, o.table)));
  const hinted = (occ: number, start: number, stop: number): string => {
    const at = shape.texts[occ].end;
    if (!hints[occ] || at < start || at > stop) return sql.slice(start, stop);
    return `${sql.slice(start, at)} ${hints[occ]}${sql.slice(at, stop)}`;
  };
  const buildRestricted = (occ: number, n: number): string => {
    const o = shape.occurrences[occ];
    const cols = o.pk.map((c) => `${quoteIdentifier(o.alias)}.${quoteIdentifier(c)}`);
    const keys = Array.from({ length: n }, (_, k) => o.pk.map((_c, j) => '@' + keyParam(k, j)));
    const restriction =
      cols.length === 1
        ? `${cols[0]} IN (${keys.map((k) => k[0]).join(', ')})`
        : `(${cols.join(', ')}) IN (VALUES ${keys.map((k) => `(${k.join(', ')})`).join(', ')})`;
    if (shape.reorderable) {
      // The changed occurrence first and every other after it (CROSS JOIN fixes SQLite's loop
      // order), ON conditions moved to WHERE (the same for inner joins): the changed keys are the
      // outer loop, and the other tables are reached from them, whatever their indexes offer.
      const order = [occ, ...shape.occurrences.map((_o, k) => k).filter((k) => k !== occ)];
      const items = order.map(
        (k) =>
          sql.slice(shape.texts[k].item[0], shape.texts[k].item[1]) + (k === occ && hints[k] ? ` ${hints[k]}` : ''),
      );
      const conds = shape.texts.filter((t) => t.on).map((t) => `(${sql.slice(t.on![0], t.on![1])})`);
      if (shape.where) conds.push(`(${sql.slice(shape.where.exprStart, shape.where.end)}\n)`);
      conds.push(restriction);
      const tail = shape.where ? sql.slice(shape.where.end, end) : sql.slice(shape.fromEnd, end);
      return `${head}FROM ${items.join(' CROSS JOIN ')}\nWHERE ${conds.join(' AND ')}\n${tail}`;
    }
    if (shape.where) {
      return `${head}${hinted(occ, shape.fromStart, shape.where.start)}\nWHERE (${sql.slice(shape.where.exprStart, shape.where.end)}\n) AND ${restriction}\n${sql.slice(shape.where.end, end)}`;
    }
    return `${head}${hinted(occ, shape.fromStart, shape.fromEnd)}\nWHERE ${restriction}\n${sql.slice(shape.fromEnd, end)}`;
  };
  const mode = shape.restrictable ? 'restricted' : 'keyed';
  const shared = mode === 'restricted' ? sharedPlan(toks, sql, shape, schema, params, hints, hidden, end) : null;
  return { sql, toks, shape, columns, tables, mode, fullSql, restrictedSql, shared };
}

function multisetPlan(sql: string, toks: Token[], columns: string[], tables: Set<string>): TextPlan {
  return {
    sql,
    toks,
    shape: null,
    columns,
    tables,
    mode: 'multiset',
    fullSql: sql,
    restrictedSql: () => {
      throw new Error('a multiset plan cannot be restricted');
    },
    shared: null,
  };
}

/**
 * The shared statements of a restricted query (see SharedPlan), or null when its subscriptions are
 * evaluated one by one: no parameters; a COLLATE in the query or on a column of its tables (a
 * column reference in place of a parameter changes which collation a comparison uses); `?NNN`, or
 * positional and named parameters mixed; a bare `*` with USING or NATURAL (it would list the
 * VALUES columns and cannot be spelled out per table).
 */
function sharedPlan(
  toks: Token[],
  sql: string,
  shape: Shape,
  schema: Schema,
  params: SqlParams | undefined,
  hints: string[],
  hidden: string,
  end: number,
): SharedPlan | null {
  if (toks.some((t) => t.type === 'word' && t.text.toUpperCase() === 'COLLATE')) return null;
  if (shape.occurrences.some((o) => findTable(schema, o.table)?.columns.some((c) => /\bCOLLATE\b/i.test(c.definition))))
    return null;
  if (shape.stars.length > 0 && shape.byName) return null;
  const edits: { start: number; end: number; text: string }[] = [];
  const slots: (number | string)[] = [];
  let positional = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.text === '?') {
      if (toks[i + 1]?.type === 'number' && toks[i + 1].start === t.start + 1) return null;
      slots.push(positional++);
      edits.push({ start: t.start, end: t.start + 1, text: `+__patina_p.__patina_v${slots.length - 1}` });
    } else if (t.type === 'punct' && (t.text === ':' || t.text === '@' || t.text === '$')) {
      const w = toks[i + 1];
      if (w?.type !== 'word' || w.start !== t.start + 1) return null;
      let slot = slots.indexOf(w.text);
      if (slot < 0) slot = slots.push(w.text) - 1;
      edits.push({ start: t.start, end: w.start + w.text.length, text: `+__patina_p.__patina_v${slot}` });
      i++;
    }
  }
  if (slots.length === 0) return null;
  if (
    positional > 0
      ? positional !== slots.length || !Array.isArray(params)
      : params === undefined || Array.isArray(params)
  )
    return null;
  const all = shape.occurrences.map((o) => `${quoteIdentifier(o.alias)}.*`).join(', ');
  for (const at of shape.stars) edits.push({ start: at, end: at + 1, text: all });
  edits.sort((a, b) => a.start - b.start);
  /** The SQL text from `a` to `b`, parameters read from __patina_p and bare stars spelled out. */
  const subst = (a: number, b: number): string => {
    let out = '';
    let at = a;
    for (const e of edits) {
      if (e.start < a || e.start >= b) continue;
      out += sql.slice(at, e.start) + e.text;
      at = e.end;
    }
    return out + sql.slice(at, b);
  };
  const texts = shape.texts;
  const build = (occ: number, n: number): string => {
    const o = shape.occurrences[occ];
    const names = ['__patina_s', ...o.pk.map((_c, j) => `__patina_k${j}`), ...slots.map((_s, i) => `__patina_v${i}`)];
    const row = `(${names.map(() => '?').join(', ')})`;
    const cte = `WITH __patina_p(${names.join(', ')}) AS (VALUES ${Array.from({ length: n }, () => row).join(', ')})\n`;
    const head = `${subst(0, shape.fromStart)}\n, ${hidden}, __patina_p.__patina_s\n`;
    const match = o.pk
      .map((c, j) => `${quoteIdentifier(o.alias)}.${quoteIdentifier(c)} = +__patina_p.__patina_k${j}`)
      .join(' AND ');
    const where = shape.where ? `(${subst(shape.where.exprStart, shape.where.end)}\n)` : null;
    const tail = shape.where ? subst(shape.where.end, end) : subst(shape.fromEnd, end);
    if (shape.reorderable) {
      const order = [occ, ...shape.occurrences.map((_o, k) => k).filter((k) => k !== occ)];
      const items = order.map(
        (k) => subst(texts[k].item[0], texts[k].item[1]) + (k === occ && hints[k] ? ` ${hints[k]}` : ''),
      );
      const conds = [match, ...texts.filter((t) => t.on).map((t) => `(${subst(t.on![0], t.on![1])})`)];
      if (where) conds.push(where);
      return `${cte}${head}FROM __patina_p CROSS JOIN ${items.join(' CROSS JOIN ')}\nWHERE ${conds.join(' AND ')}\n${tail}`;
    }
    // The query's own FROM clause after __patina_p, the changed occurrence read by its key.
    const stop = shape.where ? shape.where.start : shape.fromEnd;
    const at = texts[occ].end;
    const from = hints[occ]
      ? `${subst(shape.fromStart + 4, at)} ${hints[occ]}${subst(at, stop)}`
      : subst(shape.fromStart + 4, stop);
    return `${cte}${head}FROM __patina_p CROSS JOIN ${from}\nWHERE ${where ? `${where} AND ` : ''}${match}\n${tail}`;
  };
  const cache = new Map<string, string>();
  return {
    key: sql,
    values: (p) =>
      slots.map((s) => {
        const v = typeof s === 'number' ? (p as SqlValue[])[s] : (p as Record<string, SqlValue>)[s];
        return v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v;
      }),
    width: (occ) => 1 + shape.occurrences[occ].pk.length + slots.length,
    sql: (occ, n) => {
      const k = `${occ}:${n}`;
      let text = cache.get(k);
      if (text === undefined) cache.set(k, (text = build(occ, n)));
      return text;
    },
  };
}

function prepare(db: Database.Database, sql: string): Database.Statement {
  try {
    return db.prepare(sql);
  } catch (err) {
    if (err instanceof RangeError)
      throw new PatinaError('user', `a subscription takes one SELECT statement: ${err.message}`);
    const e = fromSqliteError(err, 'the query does not prepare: ');
    throw e.kind === 'internal' ? e : new PatinaError('user', e.message, e.sqliteCode);
  }
}

function bindArgs(params: SqlParams | undefined): unknown[] {
  return params === undefined ? [] : Array.isArray(params) ? params : [params];
}

function bindCheck(stmt: Database.Statement, params: SqlParams | undefined): void {
  try {
    stmt.bind(...bindArgs(params));
  } catch (err) {
    throw new PatinaError('user', `the parameters do not bind: ${(err as Error).message}`);
  }
}

/** Schema tables the compiled program opens (tables and their indexes), and whether it aggregates. */
function sourceTables(
  db: Database.Database,
  schema: Schema,
  sql: string,
  params: SqlParams | undefined,
): { tables: Set<string>; aggregate: boolean } {
  const roots = new Map<string, string>();
  for (const r of db
    .prepare("SELECT rootpage, tbl_name FROM sqlite_schema WHERE type IN ('table', 'index')")
    .raw(true)
    .all() as [bigint | null, string][]) {
    if (r[0] !== null) roots.set(String(r[0]), r[1]);
  }
  const program = db
    .prepare(`EXPLAIN ${sql}`)
    .raw(true)
    .all(...bindArgs(params)) as [unknown, string, unknown, unknown, unknown][];
  const tables = new Set<string>();
  let aggregate = false;
  for (const [, opcode, , p2, p3] of program) {
    if (opcode.startsWith('Agg')) aggregate = true;
    if ((opcode === 'OpenRead' || opcode === 'ReopenIdx') && String(p3) === '0') {
      const name = roots.get(String(p2));
      if (name === undefined) continue;
      if (isInternalName(name))
        throw new PatinaError(
          'user',
          `the query reads ${name}, one of the agent's own tables; subscribe to the cluster's tables only`,
        );
      const t = findTable(schema, name);
      if (t) tables.add(t.name.toLowerCase());
    }
  }
  return { tables, aggregate };
}

/**
 * How to make SQLite read a table by its primary key: `NOT INDEXED` for a rowid table whose key is
 * the rowid (rowid lookups stay allowed), `INDEXED BY` the key's own index otherwise; '' when the
 * table has neither (the planner decides).
 */
function keyIndexHint(db: Database.Database, table: string): string {
  const list = db.prepare(`SELECT name, origin FROM pragma_index_list(?)`).all(table) as {
    name: string;
    origin: string;
  }[];
  const pk = list.find((x) => x.origin === 'pk');
  if (pk) return `INDEXED BY ${quoteIdentifier(pk.name)}`;
  const rowidAlias = db
    .prepare(`SELECT count(*) FROM pragma_table_info(?) WHERE pk > 0 AND upper(type) = 'INTEGER'`)
    .pluck()
    .get(table) as number;
  const keyCols = db.prepare(`SELECT count(*) FROM pragma_table_info(?) WHERE pk > 0`).pluck().get(table) as number;
  return rowidAlias === 1 && keyCols === 1 ? 'NOT INDEXED' : '';
}

function findTable(schema: Schema, name: string): TableDef | undefined {
  const exact = schema.tables.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  for (const t of schema.tables.values()) if (t.name.toLowerCase() === lower) return t;
  return undefined;
}

interface Shape {
  occurrences: Occurrence[];
  texts: OccurrenceText[];
  /** Whether the restricted SQL may list the changed occurrence first (see planQuery). */
  reorderable: boolean;
  /** Where the select list has a bare `*`, and whether a join matches columns by name (USING, NATURAL). */
  stars: number[];
  byName: boolean;
  restrictable: boolean;
  /** Where FROM starts, and where the FROM clause ends (the next clause or the end). */
  fromStart: number;
  fromEnd: number;
  where: { start: number; exprStart: number; end: number } | null;
}

/**
 * Reads the top level of a plain SELECT: its FROM items and where its clauses start. Null when the
 * query is not one row per combination of schema-table rows (the multiset mode then applies).
 */
function analyzeShape(toks: Token[], schema: Schema): Shape | null {
  const depth: number[] = [];
  let d = 0;
  let subselect = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.text === '(') d++;
    depth.push(d);
    if (t.text === ')') d--;
    if (t.type !== 'word') continue;
    const w = t.text.toUpperCase();
    if (w === 'SELECT' && i > 0) subselect = true;
    if (w === 'OVER') return null;
    if (AGGREGATES.has(w) && toks[i + 1]?.text === '(') return null;
    if (d === 0 && (w === 'UNION' || w === 'EXCEPT' || w === 'INTERSECT')) return null;
  }
  if (toks[0].text.toUpperCase() !== 'SELECT') return null; // WITH
  const top = (i: number, ...words: string[]) =>
    depth[i] === 0 && toks[i].type === 'word' && words.includes(toks[i].text.toUpperCase());
  if (toks[1] && top(1, 'DISTINCT')) return null;
  let from = -1;
  for (let i = 1; i < toks.length; i++)
    if (top(i, 'FROM')) {
      from = i;
      break;
    }
  if (from < 0) return null;
  let fromEnd = toks.length;
  for (let i = from + 1; i < toks.length; i++)
    if (top(i, ...CLAUSE_END)) {
      fromEnd = i;
      break;
    }
  let where: Shape['where'] = null;
  for (let i = fromEnd; i < toks.length; i++) {
    if (top(i, 'GROUP', 'HAVING', 'WINDOW', 'LIMIT')) return null;
    if (top(i, 'WHERE')) {
      let e = toks.length;
      for (let j = i + 1; j < toks.length; j++)
        if (top(j, ...CLAUSE_END)) {
          e = j;
          break;
        }
      if (e === i + 1) return null;
      where = {
        start: toks[i].start,
        exprStart: toks[i + 1].start,
        end: e < toks.length ? toks[e].start : endOf(toks),
      };
    }
  }

  const occurrences: Occurrence[] = [];
  const texts: OccurrenceText[] = [];
  let outer = false;
  const word0 = (k: number) => (toks[k]?.type === 'word' ? toks[k].text.toUpperCase() : '');
  // Whether the FROM clause can be rewritten with any occurrence first (inner joins with ON or
  // commas only; no bare `*` in the select list, whose columns follow the FROM order).
  const stars = toks
    .filter(
      (t, k) =>
        k < from &&
        depth[k] === 0 &&
        t.text === '*' &&
        (k === 0 || (toks[k - 1].text !== '.' && (toks[k - 1].text === ',' || word0(k - 1) === 'SELECT'))),
    )
    .map((t) => t.start);
  let reorderable = stars.length === 0;
  let byName = false;
  const shapeFromEnd = fromEnd < toks.length ? toks[fromEnd].start : endOf(toks);
  let i = from + 1;
  const word = (k: number) => (toks[k] && k < fromEnd && toks[k].type === 'word' ? toks[k].text.toUpperCase() : '');
  for (;;) {
    if (i >= fromEnd) return null;
    const t = toks[i];
    if (t.type !== 'word' && t.type !== 'quoted') return null; // a subquery, a parenthesized join
    const itemStart = t.start;
    let name = unquoteIdentifier(t.text);
    i++;
    if (toks[i]?.text === '.' && i < fromEnd) {
      if (name.toLowerCase() !== 'main') return null;
      if (!toks[i + 1] || (toks[i + 1].type !== 'word' && toks[i + 1].type !== 'quoted')) return null;
      name = unquoteIdentifier(toks[i + 1].text);
      i += 2;
    }
    if (toks[i]?.text === '(' && i < fromEnd) return null; // a table-valued function
    const table = findTable(schema, name);
    if (!table || table.primaryKey.length === 0) return null;
    let alias = name;
    if (word(i) === 'AS') {
      alias = unquoteIdentifier(toks[i + 1].text);
      i += 2;
    } else if (i < fromEnd && (toks[i].type === 'quoted' || (toks[i].type === 'word' && !NOT_ALIAS.has(word(i))))) {
      alias = unquoteIdentifier(toks[i].text);
      i++;
    }
    occurrences.push({ table: table.name, alias, pk: table.primaryKey });
    const last = toks[i - 1];
    const text: OccurrenceText = {
      end: last.start + last.text.length,
      hinted: word(i) === 'INDEXED' || (word(i) === 'NOT' && word(i + 1) === 'INDEXED'),
      item: [itemStart, 0],
      on: null,
    };
    texts.push(text);
    // Skip INDEXED BY / NOT INDEXED and the ON / USING constraint up to the next join operator.
    let itemEnd = text.end;
    while (i < fromEnd && !(depth[i] === 0 && (toks[i].text === ',' || JOIN_WORDS.has(word(i))))) {
      if (depth[i] === 0 && word(i) === 'USING') [reorderable, byName] = [false, true];
      if (depth[i] === 0 && word(i) === 'ON' && toks[i + 1]) text.on = [toks[i + 1].start, 0];
      else if (!text.on) itemEnd = toks[i].start + toks[i].text.length;
      i++;
    }
    text.item[1] = itemEnd;
    if (text.on) text.on[1] = i < fromEnd ? toks[i].start : shapeFromEnd;
    if (i >= fromEnd) break;
    if (toks[i].text === ',') {
      i++;
      continue;
    }
    while (i < fromEnd && JOIN_WORDS.has(word(i))) {
      const w = word(i);
      if (w === 'NATURAL') [reorderable, byName] = [false, true];
      if (w === 'LEFT' || w === 'RIGHT' || w === 'FULL') outer = true;
      i++;
      if (w === 'JOIN') break;
    }
  }
  if (new Set(occurrences.map((o) => o.alias.toLowerCase())).size !== occurrences.length) return null;
  return {
    occurrences,
    texts,
    reorderable: reorderable && occurrences.length > 1,
    stars,
    byName,
    restrictable: !outer && !subselect,
    fromStart: toks[from].start,
    fromEnd: fromEnd < toks.length ? toks[fromEnd].start : endOf(toks),
    where,
  };
}

/**
 * The `col = ?`, `col = :name`, `col = literal` and `col IN (...)` conjuncts at the top of WHERE whose comparison is
 * a plain equality of stored values: BINARY collation, and a value whose type the column's affinity
 * leaves as it is (a number against a numeric column, text against a text one, anything against
 * none). Anything less sure is left out; the subscription then hears every change of that table.
 */
function findEqualities(toks: Token[], shape: Shape, schema: Schema, params: SqlParams | undefined): Equality[] {
  const where = shape.where!;
  if (toks.some((t, i) => t.text === '?' && toks[i + 1]?.type === 'number' && toks[i + 1].start === t.start + 1))
    return []; // ?NNN
  const conjuncts: number[][] = [[]];
  let d = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.start < where.exprStart || t.start >= where.end) continue;
    if (t.text === '(') d++;
    if (t.text === ')') d--;
    const w = t.type === 'word' ? t.text.toUpperCase() : '';
    if (d === 0 && (w === 'OR' || w === 'BETWEEN' || w === 'CASE')) return [];
    if (d === 0 && w === 'AND') conjuncts.push([]);
    else conjuncts[conjuncts.length - 1].push(i);
  }
  const out: Equality[] = [];
  for (const c of conjuncts) {
    const eq = c.findIndex((i) => toks[i].text === '=');
    if (eq < 0) {
      const e = inList(toks, c, shape, schema, params);
      if (e && !out.some((o) => o.occ === e.occ)) out.push(e);
      continue;
    }
    const left = c.slice(0, eq);
    const right = c.slice(eq + 1);
    const e = equality(toks, left, right, shape, schema, params) ?? equality(toks, right, left, shape, schema, params);
    if (e && !out.some((o) => o.occ === e.occ)) out.push(e);
  }
  return out;
}

/**
 * `col IN (v1, v2, ...)` (or an expression of the row IN a list) with values as `equality` takes
 * them: one Equality whose `values` are the list's. NOT IN, a subquery or a value of another kind is
 * left out.
 */
function inList(
  toks: Token[],
  c: number[],
  shape: Shape,
  schema: Schema,
  params: SqlParams | undefined,
): Equality | null {
  const k = c.findIndex((i) => toks[i].type === 'word' && toks[i].text.toUpperCase() === 'IN');
  if (k < 1 || toks[c[k - 1]].text.toUpperCase() === 'NOT') return null;
  if (toks[c[k + 1]]?.text !== '(' || toks[c[c.length - 1]].text !== ')') return null;
  const items: number[][] = [[]];
  let d = 0;
  for (const i of c.slice(k + 2, -1)) {
    const t = toks[i].text;
    if (t === '(') d++;
    if (t === ')') d--;
    if (d < 0) return null; // the list closed before the conjunct's end
    if (d === 0 && t === ',') items.push([]);
    else items[items.length - 1].push(i);
  }
  if (d !== 0 || items.some((v) => v.length === 0)) return null;
  const left = c.slice(0, k);
  const found = items.map((v) => equality(toks, left, v, shape, schema, params));
  const first = found[0];
  if (!first || found.some((e) => !e || e.occ !== first.occ || e.column !== first.column)) return null;
  return { ...first, values: found.map((e) => e!.value) };
}

function equality(
  toks: Token[],
  col: number[],
  val: number[],
  shape: Shape,
  schema: Schema,
  params: SqlParams | undefined,
): Equality | null {
  const ident = (i: number) => toks[i].type === 'word' || toks[i].type === 'quoted';
  let occ = -1;
  let name: string;
  if (col.length === 3 && ident(col[0]) && toks[col[1]].text === '.' && ident(col[2])) {
    const alias = unquoteIdentifier(toks[col[0]].text).toLowerCase();
    occ = shape.occurrences.findIndex((o) => o.alias.toLowerCase() === alias);
    name = unquoteIdentifier(toks[col[2]].text);
  } else if (col.length === 1 && ident(col[0])) {
    name = unquoteIdentifier(toks[col[0]].text);
    const owners = shape.occurrences
      .map((o, i) =>
        findTable(schema, o.table)?.columns.some((c) => c.name.toLowerCase() === name.toLowerCase()) ? i : -1,
      )
      .filter((i) => i >= 0);
    if (owners.length === 1) occ = owners[0];
  } else {
    const e = rowExpression(toks, col, shape, schema);
    if (!e) return null;
    const value = literalValue(toks, val, params);
    // an expression has no affinity: compared as stored (NULL equals nothing)
    if (value === undefined || value === null) return null;
    return { occ: e.occ, column: e.expr, value, values: [value], expr: e.expr, columns: e.columns, wholeAs: e.wholeAs };
  }
  if (occ < 0) return null;
  const column = findTable(schema, shape.occurrences[occ].table)?.columns.find(
    (c) => c.name.toLowerCase() === name.toLowerCase(),
  );
  if (!column || /\bCOLLATE\b/i.test(column.definition)) return null;
  const value = literalValue(toks, val, params);
  if (value === undefined) return null;
  const affinity = affinityOf(column.storedType);
  const numeric = typeof value === 'number' || typeof value === 'bigint';
  if (affinity === 'numeric' ? !numeric : affinity === 'text' ? typeof value !== 'string' : false) return null;
  return { occ, column: column.name, value, values: [value] };
}

/** The value of `?`, `:name` (or @, $) or a number or string literal; undefined for anything else. */
function literalValue(toks: Token[], val: number[], params: SqlParams | undefined): SqlValue | undefined {
  const t = toks[val[0]];
  if (val.length === 1 && t.text === '?') {
    if (!Array.isArray(params)) return undefined;
    const index = toks.slice(0, val[0]).filter((x) => x.text === '?').length;
    return index < params.length ? params[index] : undefined;
  }
  if (
    val.length === 2 &&
    (t.text === ':' || t.text === '@' || t.text === '$') &&
    toks[val[1]].type === 'word' &&
    toks[val[1]].start === t.start + 1
  ) {
    if (params === undefined || Array.isArray(params)) return undefined;
    const v = (params as Record<string, SqlValue>)[toks[val[1]].text];
    return v === undefined ? undefined : v;
  }
  if (val.length !== 1) return undefined;
  if (t.type === 'number' && /^[0-9]+$/.test(t.text)) {
    const n = BigInt(t.text);
    return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n <= 9223372036854775807n ? n : undefined;
  }
  if (t.type === 'number' && /^[0-9]*\.[0-9]+$/.test(t.text)) return Number(t.text);
  if (t.type === 'string') return t.text.slice(1, -1).split("''").join("'");
  return undefined;
}

/** SQLite's column affinity from a declared type, reduced to what equality needs. */
function affinityOf(type: string): 'numeric' | 'text' | 'none' {
  const t = type.toUpperCase();
  if (t.includes('INT')) return 'numeric';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'text';
  if (t.includes('BLOB') || t === '') return 'none';
  return 'numeric';
}

function endOf(toks: Token[]): number {
  const t = toks[toks.length - 1];
  return t.start + t.text.length;
}
