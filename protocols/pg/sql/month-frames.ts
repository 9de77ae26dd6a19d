// RANGE frames with an offset of months or years (`sum(x) OVER (ORDER BY d RANGE BETWEEN interval
// '1 month' PRECEDING AND CURRENT ROW)`): a month has no fixed length, so SQLite's frames (the key's
// number less or plus a fixed offset) cannot hold them. PostgreSQL's frame for a row is the rows of its
// partition whose key lies between `k - offset` and `k + offset` as its date arithmetic computes them
// (03-31 less a month is 02-29), so the call becomes a correlated subquery over the same FROM and WHERE
// (translate/month-frames.ts writes it): the aggregate of the rows of the same partition whose key's
// microseconds (__pg_frame_epoch) lie within the bounds (__pg_frame_bound, the current key moved by
// the offset), NULL keys placed as PostgreSQL places them. Exact for sum, count, avg, min and max of a
// query over one FROM item with no GROUP BY; the rest is 0A000 naming what it is.
import { pgError } from '../sqlstate';
import { OID } from '../types/oids';
import { sessionZone } from './session-zone';

// biome-ignore lint/suspicious/noExplicitAny: libpg_query's JSON tree
type Node = any;

/** The window calls of a select list, and the query each is in (a subquery's are its own). */
const QUERY = new WeakMap<Node, { select: Node; call: Node }>();

export function noteWindowCalls(select: Node): void {
  const visit = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    if (n.SelectStmt || n.SubLink) return;
    if (n.FuncCall?.over) QUERY.set(n.FuncCall.over, { select, call: n.FuncCall });
    for (const k in n) visit(n[k]);
  };
  visit(select.targetList);
}

const AGGREGATES = new Set(['sum', 'count', 'avg', 'min', 'max']);
const F = {
  BETWEEN: 0x10,
  START_UNBOUNDED_PRECEDING: 0x20,
  END_UNBOUNDED_FOLLOWING: 0x100,
  START_CURRENT_ROW: 0x200,
  END_CURRENT_ROW: 0x400,
  START_OFFSET_PRECEDING: 0x800,
  END_OFFSET_PRECEDING: 0x1000,
  START_OFFSET_FOLLOWING: 0x2000,
  END_OFFSET_FOLLOWING: 0x4000,
  EXCLUDE: 0x8000 | 0x10000 | 0x20000,
};

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const str = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** A column's name, bare or qualified by the FROM item's name. */
const columnName = (n: Node, outer: string): string | undefined => {
  const f = n?.ColumnRef?.fields;
  if (f?.length === 2 && f[0].String?.sval !== outer) return undefined;
  return f?.length <= 2 && f[f.length - 1].String ? f[f.length - 1].String.sval : undefined;
};

/**
 * The mark of a window call whose RANGE frame has an offset of months (the offsets' texts given):
 * 'frame-months:' and the JSON of the outer FROM item's name and the subquery's condition; or
 * 0A000 naming why it cannot be written so.
 */
export function monthFrameMark(
  frame: Node,
  keyType: number,
  starts: string | null,
  ends: string | null,
): [number, string] {
  const refuse = (why: string) => pgError('0A000', `a RANGE frame offset of months or years is not supported ${why}`);
  const found = QUERY.get(frame);
  if (!found) throw refuse('outside a select list');
  const { select, call } = found;
  const fn = (call.funcname ?? []).map((s: Node) => s.String?.sval).pop() ?? '';
  if (!AGGREGATES.has(fn))
    throw refuse(`for ${fn}: only for sum, count, avg, min and max (a frame of them is computed apart)`);
  if (call.agg_distinct || call.agg_filter || call.agg_order)
    throw refuse('with DISTINCT, FILTER or ORDER BY in the call');
  if (frame.frameOptions & F.EXCLUDE) throw refuse('with EXCLUDE');
  if (select.groupClause?.length || select.havingClause || select.groupDistinct)
    throw refuse('in a query with GROUP BY or HAVING');
  const from = select.fromClause ?? [];
  const item = from.length === 1 ? from[0] : undefined;
  const outer = item?.RangeVar
    ? (item.RangeVar.alias?.aliasname ?? item.RangeVar.relname)
    : item?.RangeSubselect && !item.RangeSubselect.lateral
      ? item.RangeSubselect.alias?.aliasname
      : undefined;
  if (outer === undefined) throw refuse('over other than one table or subquery in FROM');
  if (keyType === OID.timestamptz && sessionZone() !== null)
    throw refuse('over a timestamptz in a time zone other than UTC');
  const sort = frame.orderClause[0].SortBy;
  const key = columnName(sort.node, outer);
  const parts = (frame.partitionClause ?? []).map((p: Node) => columnName(p, outer));
  if (key === undefined || parts.some((p: string | undefined) => p === undefined))
    throw refuse('over an ORDER BY or PARTITION BY other than columns');
  const desc = sort.sortby_dir === 'SORTBY_DESC';
  const nullsFirst = sort.sortby_nulls === 'SORTBY_NULLS_FIRST' || (desc && sort.sortby_nulls !== 'SORTBY_NULLS_LAST');
  const ko = `${q(outer)}.${q(key)}`;
  const ki = `__pg_rf.${q(key)}`;
  const kiEpoch = `__pg_frame_epoch(${ki})`;
  const at = (text: string | null, sign: number) =>
    text === null ? `__pg_frame_epoch(${ko})` : `__pg_frame_bound(${ko}, ${str(text)}, ${desc ? -sign : sign})`;
  // rows at or after the frame's start in the window's order, at or before its end
  const after = (bound: string) =>
    `(CASE WHEN ${ko} IS NULL THEN ${nullsFirst ? 'TRUE' : `${ki} IS NULL`} ELSE (${nullsFirst ? 'FALSE' : `${ki} IS NULL`}) OR ${kiEpoch} ${desc ? '<=' : '>='} ${bound} END)`;
  const before = (bound: string) =>
    `(CASE WHEN ${ko} IS NULL THEN ${nullsFirst ? `${ki} IS NULL` : 'TRUE'} ELSE (${nullsFirst ? `${ki} IS NULL` : 'FALSE'}) OR ${kiEpoch} ${desc ? '>=' : '<='} ${bound} END)`;
  const o = frame.frameOptions;
  const conds = parts.map((p: string) => `__pg_rf.${q(p)} IS NOT DISTINCT FROM ${q(outer)}.${q(p)}`);
  if (o & F.START_OFFSET_PRECEDING) conds.push(after(at(starts, -1)));
  else if (o & F.START_OFFSET_FOLLOWING) conds.push(after(at(starts, 1)));
  else if (o & F.START_CURRENT_ROW) conds.push(after(at(null, 1)));
  if (o & F.END_OFFSET_PRECEDING) conds.push(before(at(ends, -1)));
  else if (o & F.END_OFFSET_FOLLOWING) conds.push(before(at(ends, 1)));
  else if (o & F.END_CURRENT_ROW || !(o & F.BETWEEN)) conds.push(before(at(null, 1)));
  if (conds.length === 0) conds.push('TRUE');
  return [call.location, `frame-months:${JSON.stringify({ outer, cond: conds.join(' AND ') })}`];
}
