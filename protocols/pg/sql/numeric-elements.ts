// A numeric's display scale inside an array: PostgreSQL's array of numerics prints each element at
// the scale it carries (`ARRAY[price]` of a numeric(6,2) is {1.50}, `array_agg(price)` {1.50,2.25}),
// where SQLite's array text held the double (`{1.5}`). The analysis marks ARRAY[...] and array_agg
// whose numeric elements have a known scale (numeric-scale.ts) `num-elems:` with each element's
// scale (`-` for none); the translation prints those elements at it (translate/arrays.ts,
// translate/words.ts) before the array is built.
import { OID } from '../types/oids';
import type { Typer } from './expression-types';
import { scaleOf } from './numeric-scale';
import { arrayOidOf } from '../types/registry';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

export const NUMERIC_ELEMENTS = 'num-elems:';

/**
 * The scale an element prints at, or `-`: a numeric's known one (an integer or NULL is printed as it
 * is); `r` for a real, printed as float4 prints it (its double's digits, 0.10000000149011612, would
 * reach text[] and numeric[] casts).
 */
function elementScale(typer: Typer, e: Node): string {
  if (typer.type(e) === OID.float4) return 'r';
  if (typer.type(e) !== OID.numeric) return '-';
  const s = scaleOf(typer, e);
  return s === undefined ? '-' : String(s);
}

/** Marks `n` when it is an ARRAY[...] or array_agg(x) of numerics some of whose scales are known, or of reals. */
export function markNumericElements(n: Node, typer: Typer, out: Map<number, string>): void {
  const a = n.A_ArrayExpr;
  if (a?.elements?.length && a.location >= 0 && !out.has(a.location)) {
    const type = typer.type(n);
    if (type !== arrayOidOf(OID.numeric) && type !== arrayOidOf(OID.float4)) return;
    const scales = (a.elements as Node[]).map((e) => elementScale(typer, e));
    if (scales.some((s) => s !== '-')) out.set(a.location, NUMERIC_ELEMENTS + scales.join(','));
    return;
  }
  const f = n.FuncCall;
  // (not DISTINCT: its values are sorted to find the distinct ones, which text would sort otherwise)
  if (!f || f.agg_distinct || f.args?.length !== 1 || out.has(f.location)) return;
  if (strings(f.funcname).pop()?.toLowerCase() !== 'array_agg') return;
  const s = elementScale(typer, f.args[0]);
  if (s !== '-') out.set(f.location, NUMERIC_ELEMENTS + s);
}

/** The SQL that prints a numeric element at `scale` (`-`: as it is; `r` a real as float4). */
export function elementAtScale(scale: string, sql: string): string {
  if (scale === 'r') return `__pg_text('float4', ${sql})`;
  return scale === '-' ? sql : `__pg_text('numeric:${scale}', ${sql})`;
}
