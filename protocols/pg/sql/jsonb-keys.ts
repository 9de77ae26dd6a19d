// jsonb sorted or told apart inside a window or an aggregate: `OVER (PARTITION BY doc ORDER BY doc)`
// and `array_agg(x ORDER BY doc)`. PostgreSQL goes by jsonb's order and equality (`1.50` = `1.5`,
// `7` before `100`); SQLite by the stored text. Marked as a select's GROUP BY and ORDER BY terms are
// (typed-operators.ts): 'arr-group:jsonb' on a partition key, 'arr-order:jsonb' on a sort term, which
// translate/null-order.ts wraps in __pg_jsonb_sortkey. A timetz sort term likewise ('arr-order:timetz',
// by its instant and offset: `'10:00+02'` before `'08:00+00'`).
import { pgError } from '../sqlstate';
import { OID } from '../types/oids';
import type { Typer } from './expression-types';
import { treeShape } from './parse';

// biome-ignore lint/suspicious/noExplicitAny: libpg_query's JSON tree
type Node = any;

/** time with time zone's OID (types/timetz.ts). */
const TIMETZ = 1266;

/** Marks (at orderMarkKey of a term's first location) the jsonb keys and timetz sort terms of a window definition or an aggregate call. */
export function markJsonbWindowKeys(
  n: Node,
  typer: Typer,
  out: Map<number, string>,
  firstLocation: (n: Node) => number,
  orderMarkKey: (at: number) => number,
): void {
  const mark = (e: Node, kind: string) => {
    if (!e || e.A_Const) return;
    const type = typer.type(e);
    // (a timetz sorted by its instant, then its offset: its text is no such order; its equality is)
    if (type === TIMETZ && kind === 'arr-order:jsonb') kind = 'arr-order:timetz';
    else if (type !== OID.jsonb) return;
    const at = firstLocation(e);
    if (at >= 0) out.set(orderMarkKey(at), kind);
  };
  const frame = n.WindowDef ?? n.FuncCall?.over;
  for (const p of frame?.partitionClause ?? []) mark(p, 'arr-group:jsonb');
  for (const s of frame?.orderClause ?? []) if (!s.SortBy?.useOp) mark(s.SortBy?.node, 'arr-order:jsonb');
  for (const s of n.FuncCall?.agg_order ?? []) if (!s.SortBy?.useOp) mark(s.SortBy?.node, 'arr-order:jsonb');
}

/** The aggregates whose DISTINCT of jsonb translate/jsonb-distinct-aggregates.ts rewrites. */
const DISTINCT_COLLECTORS = new Set(['array_agg', 'jsonb_agg', 'json_agg']);

/**
 * array_agg(DISTINCT doc), jsonb_agg(DISTINCT doc) and json_agg(DISTINCT doc) of jsonb: the argument's
 * first token marked 'jb-distinct-agg', for the translation to drop repeats by jsonb's equality.
 */
export function markJsonbDistinctAggregate(
  f: Node,
  typer: Typer,
  out: Map<number, string>,
  firstLocation: (n: Node) => number,
  orderMarkKey: (at: number) => number,
): void {
  const name = f?.funcname?.[f.funcname.length - 1]?.String?.sval?.toLowerCase();
  if (!f?.agg_distinct || f.over || f.args?.length !== 1 || !DISTINCT_COLLECTORS.has(name)) return;
  if (typer.type(f.args[0]) !== OID.jsonb) return;
  // (an ORDER BY of anything but the argument: PostgreSQL's 42P10 at that term)
  for (const s of f.agg_order ?? [])
    if (treeShape(s.SortBy?.node) !== treeShape(f.args[0])) {
      const err = pgError('42P10', 'in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list');
      (err as { location?: number }).location = firstLocation(s.SortBy?.node);
      throw err;
    }
  const at = firstLocation(f.args[0]);
  if (at >= 0) out.set(orderMarkKey(at), 'jb-distinct-agg');
}
