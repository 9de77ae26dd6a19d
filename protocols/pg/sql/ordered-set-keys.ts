// The key of `percentile_cont(f) WITHIN GROUP (ORDER BY x)` by its type: PostgreSQL has the
// aggregate for float8 and interval keys (a number of another type cast to float8). An interval key
// is marked 'pct-interval' on the call's name, for translate/ordered-set.ts to interpolate
// intervals (__pg_percentile_cont_interval; the float8 one failed on their text with 22P02); a key of
// another type (text, a date) is 42883 as there (it was 22P02 when the rows were read). An ordered-set
// aggregate over a window is 0A000 as there. `percentile_disc` of an array of fractions over a
// numeric key of known scale is marked 'pct-disc-at:s' (__pg_percentile_disc_at prints its values at s).
import { pgError } from '../sqlstate';
import { OID, TYPE_DISPLAY } from '../types/oids';
import type { Typer } from './expression-types';
import { scaleOf } from './numeric-scale';
import { FLOATS, INTS, strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg_query's JSON tree
type Node = any;

export function markOrderedSetKey(
  f: Node,
  typer: Typer,
  out: Map<number, string>,
  orderMarkKey: (at: number) => number,
): void {
  const fn = strings(f.funcname).pop()?.toLowerCase() ?? '';
  // (over a window: PostgreSQL's refusal, where SQLite's named the translation's __pg_percentile_cont)
  if (f.over && ['percentile_cont', 'percentile_disc', 'mode'].includes(fn))
    throw pgError('0A000', `OVER is not supported for ordered-set aggregate ${fn}`);
  if (f.agg_order?.length !== 1) return;
  const keyNode = f.agg_order[0].SortBy?.node;
  // an array of fractions over a numeric key of known scale: its values printed at it ('pct-disc-at:s')
  if (fn === 'percentile_disc' && f.args?.length === 1 && isArray(f.args[0]) && typer.type(keyNode) === OID.numeric) {
    const s = scaleOf(typer, keyNode);
    if (s !== undefined) out.set(orderMarkKey(f.location), `pct-disc-at:${s}`);
  }
  if (fn !== 'percentile_cont') return;
  const key = typer.type(keyNode);
  if (key === OID.interval) out.set(orderMarkKey(f.location), 'pct-interval');
  else if (key !== 0 && key !== OID.numeric && !INTS.has(key) && !FLOATS.has(key)) {
    const fraction = f.args?.length === 1 ? typer.type(f.args[0]) : 0;
    const name = (oid: number) => TYPE_DISPLAY[oid] ?? 'unknown';
    throw pgError('42883', `function percentile_cont(${name(fraction)}, ${name(key)}) does not exist`);
  }
}

/** Whether a fraction is an array: `ARRAY[...]`, or a cast to one (`'{0.5}'::float8[]`). */
function isArray(n: Node): boolean {
  return !!n?.A_ArrayExpr || !!n?.TypeCast?.typeName?.arrayBounds;
}
