// The key of `percentile_cont(f) WITHIN GROUP (ORDER BY x)` by its type: PostgreSQL has the
// aggregate for float8 and interval keys (a number of another type cast to float8). An interval key
// is marked 'pct-interval' on the call's name, for translate/ordered-set.ts to interpolate
// intervals (__pg_percentile_cont_interval; the float8 one failed on their text with 22P02); a key of
// another type (text, a date) is 42883 as there (it was 22P02 when the rows were read). An ordered-set
// aggregate over a window is 0A000 as there.
import { pgError } from '../sqlstate';
import { OID, TYPE_DISPLAY } from '../types/oids';
import type { Typer } from './expression-types';
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
  if (fn !== 'percentile_cont' || f.agg_order?.length !== 1) return;
  const key = typer.type(f.agg_order[0].SortBy?.node);
  if (key === OID.interval) out.set(orderMarkKey(f.location), 'pct-interval');
  else if (key !== 0 && key !== OID.numeric && !INTS.has(key) && !FLOATS.has(key)) {
    const fraction = f.args?.length === 1 ? typer.type(f.args[0]) : 0;
    const name = (oid: number) => TYPE_DISPLAY[oid] ?? 'unknown';
    throw pgError('42883', `function percentile_cont(${name(fraction)}, ${name(key)}) does not exist`);
  }
}
