// Statements SQLite refuses as PostgreSQL does, but in its own words (SQLSTATE 42000 here): a
// result column's position past the select list (`ORDER BY 99`), a subquery of several columns
// where one value is wanted (`(SELECT a, b)`), a USING column one side of the join lacks, an
// aggregate with ORDER BY or DISTINCT as a window function (`json_agg(x ORDER BY y) OVER ()`). Each is
// read again off the parse tree once SQLite has refused it, for PostgreSQL's SQLSTATE, message and
// position: nothing is parsed for a statement SQLite takes.
import type { Schema } from '../../../src/engine/schema/model';
import { PatinaError } from '../../../src/errors';
import { PgError, sqlstateOf } from '../sqlstate';
import { parseTree } from './parse';
import { Level, type NsItem, addCtes, fromItem } from './range-table';
import {
  SET_OPERATION_ORDER,
  SET_OPERATION_WIDTHS,
  type SetOperationRefusal,
  setOperationOrder,
  setOperationWidths,
} from './set-operation-refusals';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** SQLite's refusals this module reads again. */
const TERM_OUT_OF_RANGE = /^(\d+)(?:st|nd|rd|th) (ORDER|GROUP) BY term out of range - should be between 1 and (\d+)$/;
// (ARRAY(SELECT ...) is translated to a json_group_array over a subquery aliased __a)
const SUBSELECT_WIDTH =
  /^sub-select returns \d+ columns - expected 1$|^row value misused$|^table __a has \d+ values for 1 columns$/;
const USING_MISS = /^cannot join using column (.+) - column not present in both tables$/;
const WINDOW_AGGREGATE =
  /^ORDER BY may not be used with non-aggregate |^DISTINCT is not supported for window functions$/;

/**
 * `err` in PostgreSQL's words when it is one of SQLite's refusals above and the statement shows
 * what PostgreSQL would say (42P10, 42601 or 42703, at the term or subquery); `err` itself else.
 */
export function withPostgresRefusal(err: unknown, sql: string, schema: Schema): unknown {
  if (!(err instanceof PatinaError) && !/^SQLITE/.test(String((err as { code?: unknown } | null)?.code ?? '')))
    return err;
  if (err instanceof PgError) return err;
  const { code, message } = sqlstateOf(err);
  const setWidths = SET_OPERATION_WIDTHS.test(message);
  const setOrder = SET_OPERATION_ORDER.test(message);
  if (setWidths || setOrder) return setOperationRefusal(err, sql, setWidths);
  if (code !== '42000') return err;
  const term = TERM_OUT_OF_RANGE.exec(message);
  const width = SUBSELECT_WIDTH.test(message);
  const using = USING_MISS.exec(message);
  const windowed = WINDOW_AGGREGATE.test(message);
  if (!term && !width && !using && !windowed) return err;
  let found: Refusal | null;
  try {
    const tree = parseTree(sql);
    found = term
      ? positionOutOfRange(tree, term[2], Number(term[1]), Number(term[3]))
      : width
        ? wideSubquery(tree)
        : windowed
          ? windowAggregate(tree)
          : usingMiss(tree, schema);
  } catch {
    return err;
  }
  if (!found) return err;
  const e = new PgError('user', found.message, found.code);
  if (found.location !== undefined) e.position = Buffer.from(sql).subarray(0, found.location).toString().length;
  return e;
}

/** A set operation's refusal (its widths, its ORDER BY) in PostgreSQL's words: set-operation-refusals.ts. */
function setOperationRefusal(err: unknown, sql: string, widths: boolean): unknown {
  let found: SetOperationRefusal | null;
  try {
    const tree = parseTree(sql);
    found = widths ? setOperationWidths(tree) : setOperationOrder(tree);
  } catch {
    return err;
  }
  if (!found) return err;
  const e = new PgError('user', found.message, found.code, found.detail);
  if (found.hint !== undefined) e.hint = found.hint;
  if (found.location !== undefined) e.position = Buffer.from(sql).subarray(0, found.location).toString().length;
  return e;
}

/** PostgreSQL's error: SQLSTATE, message, and where it stands (a byte offset in the text). */
export interface Refusal {
  code: string;
  message: string;
  location?: number;
}

/** Every node of the tree below `n`, parents before their children, in the text's order. */
function* nodes(n: Node): Generator<Node> {
  if (Array.isArray(n)) for (const x of n) yield* nodes(x);
  else if (n && typeof n === 'object') {
    yield n;
    for (const k of Object.keys(n)) yield* nodes(n[k]);
  }
}

/**
 * `ORDER BY k` or `GROUP BY k` whose k is no position of the select list (`width` columns, as
 * SQLite counted them, star expanded): PostgreSQL's 42P10 at the number. `ordinal` is the term
 * SQLite names (1st, 2nd, ...); the query is the first whose term there is such a number.
 */
function positionOutOfRange(tree: Node, clause: string, ordinal: number, width: number): Refusal | null {
  for (const n of nodes(tree)) {
    const q = n.SelectStmt;
    if (!q) continue;
    const terms: Node[] | undefined =
      clause === 'ORDER' ? q.sortClause?.map((s: Node) => s.SortBy?.node) : q.groupClause;
    const c = terms?.[ordinal - 1]?.A_Const;
    if (!c || c.ival === undefined) continue;
    const k = Number(c.ival.ival ?? 0);
    if (k >= 1 && k <= width) continue;
    return { code: '42P10', message: `${clause} BY position ${k} is not in select list`, location: c.location };
  }
  return null;
}

/**
 * The first call with OVER and its own ORDER BY or DISTINCT: PostgreSQL's 0A000 at the call (its
 * parser's words; SQLite's were `ORDER BY may not be used with non-aggregate json_group_array()`).
 */
function windowAggregate(tree: Node): Refusal | null {
  for (const n of nodes(tree)) {
    const f = n.FuncCall;
    if (!f?.over || !(f.agg_order?.length || f.agg_distinct)) continue;
    const what = f.agg_distinct ? 'DISTINCT' : 'aggregate ORDER BY';
    return { code: '0A000', message: `${what} is not implemented for window functions`, location: f.location };
  }
  return null;
}

/** A query's select list: its leftmost query's, for a set operation. */
function targets(q: Node): Node[] {
  let s = q?.SelectStmt;
  while (s?.larg) s = s.larg;
  return s?.targetList ?? s?.valuesLists?.[0]?.List?.items ?? [];
}

/** Whether a select list is of more than one column (or a star, which SQLite found to be). */
function wide(list: Node[]): boolean {
  return list.length > 1 || list.some((t) => t.ResTarget?.val?.ColumnRef?.fields?.some((f: Node) => f.A_Star));
}

/**
 * The first subquery that must give one column and gives more: a scalar one or `ARRAY(...)` (42601
 * `subquery must return only one column`), one of IN or `= ANY` with one value on its left (`subquery
 * has too many columns`). A scalar subquery compared with a row (`(a, b) = (SELECT x, y)`) is a
 * comparison of rows, as there.
 */
function wideSubquery(tree: Node): Refusal | null {
  const rowCompared = new Set<Node>();
  for (const n of nodes(tree)) {
    const e = n.A_Expr;
    if (e?.lexpr?.RowExpr && e.rexpr?.SubLink) rowCompared.add(e.rexpr.SubLink);
    if (e?.rexpr?.RowExpr && e.lexpr?.SubLink) rowCompared.add(e.lexpr.SubLink);
    const s = n.SubLink;
    if (!s || rowCompared.has(s) || !wide(targets(s.subselect))) continue;
    if (s.subLinkType === 'EXPR_SUBLINK' || s.subLinkType === 'ARRAY_SUBLINK')
      return { code: '42601', message: 'subquery must return only one column', location: s.location };
    if ((s.subLinkType === 'ANY_SUBLINK' || s.subLinkType === 'ALL_SUBLINK') && !s.testexpr?.RowExpr)
      return { code: '42601', message: 'subquery has too many columns', location: s.location };
  }
  return null;
}

/**
 * The first name of a join's USING that is there twice (42701), or that its left side, else its
 * right side, has no column of (42703) or several (42702, a join's sides both have it), in
 * PostgreSQL's order (no position there either). Null when a side's columns are not known here.
 * A NATURAL join's names are those of its left side's columns that its right side has, one for
 * each of the left's (`(u JOIN v ON ...) NATURAL JOIN w` names `id` twice: 42702 for the left).
 */
export function usingMiss(tree: Node, schema: Schema): Refusal | null {
  const walk = (n: Node, at: Level): Refusal | null => {
    if (Array.isArray(n)) {
      for (const x of n) {
        const r = walk(x, at);
        if (r) return r;
      }
      return null;
    }
    if (!n || typeof n !== 'object') return null;
    let here = at;
    if (n.SelectStmt) {
      here = new Level(schema, at);
      if (n.SelectStmt.withClause) addCtes(n.SelectStmt.withClause, here, {});
    }
    const j = n.JoinExpr;
    if (j?.usingClause || j?.isNatural) {
      const side = (f: Node): string[] | null => {
        const items: NsItem[] = fromItem(f, new Level(schema, here), {}, []);
        return items[items.length - 1]?.columns ?? null;
      };
      const [l, r] = [side(j.larg), side(j.rarg)];
      if (!l || !r) return null;
      const names = j.isNatural ? l.filter((c) => r.includes(c)) : strings(j.usingClause);
      for (const [k, name] of names.entries()) {
        if (names.indexOf(name) < k)
          return { code: '42701', message: `column name "${name}" appears more than once in USING clause` };
        for (const [cols, side] of [
          [l, 'left'],
          [r, 'right'],
        ] as const) {
          const n = cols.filter((c) => c === name).length;
          if (n > 1)
            return { code: '42702', message: `common column name "${name}" appears more than once in ${side} table` };
          if (n === 0)
            return {
              code: '42703',
              message: `column "${name}" specified in USING clause does not exist in ${side} table`,
            };
        }
      }
    }
    for (const k of Object.keys(n)) {
      const r = walk(n[k], here);
      if (r) return r;
    }
    return null;
  };
  return walk(tree, new Level(schema, null));
}
