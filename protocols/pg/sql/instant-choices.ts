// A date beside a timestamp (or either beside a timestamptz) where PostgreSQL resolves the values to
// one type: COALESCE, GREATEST, LEAST, CASE's results, a set operation's columns and an IN list.
// PostgreSQL makes them all the later type (a date its midnight, a timestamp a wall time in the
// session's zone); SQLite kept each stored text, so `coalesce(d, ts)` printed `2024-01-02` for a
// timestamp column, a UNION mixed the two forms and `d IN (ts)` compared '2024-01-02' with
// '2024-01-02 00:00:00' as text. The tree types the values; the first token of each one of the
// other type is marked (PgToken.asInstant) and translate/instant-casts.ts converts it.
import { OID } from '../types/oids';
import type { Typer } from './expression-types';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The mark's key in typedOperators' map (the value's first token's offset, apart from the other keys). */
export const instantMarkKey = (at: number) => -(at + 1) - 2 ** 41;

const INSTANTS = new Set<number>([OID.date, OID.timestamp, OID.timestamptz]);

/** The type two of date, timestamp and timestamptz resolve to (timestamptz is the preferred one); 0 for other types. */
export function commonInstant(a: number, b: number): number {
  if (!INSTANTS.has(a) || !INSTANTS.has(b)) return 0;
  if (a === OID.timestamptz || b === OID.timestamptz) return OID.timestamptz;
  return a === OID.timestamp || b === OID.timestamp ? OID.timestamp : OID.date;
}

/** The mark for a value converted to `type`: 's' a timestamp, 'z' a timestamptz. */
const code = (type: number) => (type === OID.timestamptz ? 'z' : 's');

/**
 * Marks the values of `n` (a COALESCE, GREATEST or LEAST, a CASE, an IN list) that must become the
 * type the dates and timestamps among them resolve to. Values of other or unknown types leave all as
 * they are (PostgreSQL refuses most such mixes; Patina's analysis does elsewhere).
 */
export function markInstantChoices(
  n: Node,
  typer: Typer,
  out: Map<number, string>,
  firstLocation: (n: Node) => number,
): void {
  let values: Node[] | null = null;
  if (n.CoalesceExpr || n.MinMaxExpr) values = (n.CoalesceExpr ?? n.MinMaxExpr).args ?? [];
  else if (n.CaseExpr) values = [...(n.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.result), n.CaseExpr.defresult];
  else if (n.A_Expr?.kind === 'AEXPR_IN' && n.A_Expr.rexpr?.List)
    values = [n.A_Expr.lexpr, ...(n.A_Expr.rexpr.List.items ?? [])];
  if (!values) return;
  const typed = values.filter((v) => v && !v.A_Const).map((v) => [v, typer.type(v)] as const);
  const target = typed.map(([, t]) => t).reduce((a, b) => (a === b ? a : commonInstant(a, b)), typed[0]?.[1] ?? 0);
  if (target !== OID.timestamp && target !== OID.timestamptz) return;
  for (const [v, t] of typed) {
    const at = t !== target ? firstLocation(v) : -1;
    if (at >= 0) out.set(instantMarkKey(at), code(target));
  }
}

/**
 * Marks a set operation's columns whose branches mix dates and timestamps: in each plain SELECT
 * branch, the items of the other type; an unaliased one keeps its name (`AS d`), which SQLite would
 * take from the conversion's text and a query around it reads the column by.
 */
export function markInstantSetColumns(
  s: Node,
  columns: { oid: number }[],
  branchTypes: (b: Node) => { oid: number; name: string }[] | null,
  out: Map<number, string>,
  firstLocation: (n: Node) => number,
): void {
  if (!columns.some((c) => c.oid === OID.timestamp || c.oid === OID.timestamptz)) return;
  const leaves: Node[] = [];
  const collect = (b: Node) => {
    if (b?.op && b.op !== 'SETOP_NONE') {
      collect(b.larg);
      collect(b.rarg);
    } else if (b?.targetList) leaves.push(b);
  };
  collect(s);
  for (const leaf of leaves) {
    const types = branchTypes(leaf);
    if (!types || types.length !== columns.length) continue;
    leaf.targetList.forEach((item: Node, i: number) => {
      const target = columns[i].oid;
      const t = types[i].oid;
      const val = item.ResTarget?.val;
      if ((target !== OID.timestamp && target !== OID.timestamptz) || t === target || !INSTANTS.has(t) || !val) return;
      const at = firstLocation(val);
      // (an alias the item has is left in place; one it has not is written)
      if (at >= 0) out.set(instantMarkKey(at), `${code(target)}${item.ResTarget.name ? '' : `:${types[i].name}`}`);
    });
  }
}
