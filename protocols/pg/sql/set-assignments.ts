// INSERT ... SELECT of a set operation that compares its rows (UNION, INTERSECT, EXCEPT, a chain with
// one of them) into a string or double precision column: PostgreSQL's column of the operation is a
// numeric, its rows told apart by their numbers, and then written by the column's assignment (its
// text: `10/4.0 UNION SELECT 1.50` is 2.5000000000000000 and 1.50; its double: `0.1 + 0.2` is 0.3).
// SQLite's doubles gave 2.5, 1.5 and 0.30000000000000004. A result column of such an operation is
// computed exactly already (exact-columns.ts's markSetOperation: exact values as text, the rows
// grouped by their numbers, a value of known scale at it); an INSERT's query is marked the same way
// for the columns written into string columns, and each computed numeric written into a double
// column is computed exactly and made a double within its query ('numx-real'), so that the
// operation compares doubles. UNION ALL is zoned-assignments.ts's, query by query.
import { OID } from '../types/oids';
import { type SetTarget, markSetOperation } from './exact-columns';
import type { Typer } from './expression-types';
import { scaleOf } from './numeric-scale';
import { firstLocation, orderMarkKey } from './typed-operators';
import { elementOidOf } from '../types/registry';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The column types a set operation's rows are told apart by otherwise (typed-operators.ts' markIntervalUnion; 1266 timetz). */
const KEYED = new Set<number>([OID.interval, 1266, OID.jsonb]);

/**
 * Marks (into `late`) the set operation `sel` (its queries `leaves`) of an INSERT whose k-th column
 * goes into a string column ('text') or a double one ('real'), `into[k]`: its numerics computed
 * exactly, as above. Nothing when no such column takes one, or when a column is one
 * markIntervalUnion groups by a key.
 */
export function markSetAssignments(
  sel: Node,
  leaves: Node[],
  typerOf: (leaf: Node) => Typer,
  into: (SetTarget | undefined)[],
  declared: readonly number[],
  late: Map<number, string>,
): void {
  if (!into.some(Boolean)) return;
  const keyed = leaves.some((leaf) =>
    (leaf.targetList ?? []).some((item: Node) => {
      const type = typerOf(leaf).type(item.ResTarget?.val);
      return KEYED.has(type) || elementOidOf(type) !== undefined;
    }),
  );
  if (keyed) return;
  markSetOperation(sel, typerOf, late, [...declared], into);
}

/**
 * A query's numeric of known scale (a literal, a numeric(p, s) column, a sum of them) in a UNION ALL
 * into a string column, whose queries' scales need not be one: its text at that scale
 * ('numx-at:s', __pg_numeric_at; SQLite's REAL of 2.50 is the text 2.5, of 1e3 1000.0).
 */
export function markAtScale(val: Node, t: Typer, late: Map<number, string>): void {
  const scale = t.type(val) === OID.numeric ? scaleOf(t, val) : undefined;
  const at = firstLocation(val);
  if (scale !== undefined && at >= 0) late.set(orderMarkKey(at), `numx-at:${scale}`);
}
