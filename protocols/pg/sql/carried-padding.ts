// A char(n) value an expression hands on (max(ch), min(ch), coalesce(ch, ch), lag(ch) OVER w, CASE
// ... THEN ch END, a scalar subquery of one: char-widths.ts' charWidthOf) where PostgreSQL prints it
// (concat, format, to_json, array_agg, octet_length: char-padding.ts' readers) keeps its padding:
// `concat(max(ch), '|')` of 'b' in a char(4) is `b   |`. Patina keeps char(n) values without their
// trailing spaces, and char-padding.ts pads only a column there, so the expression is marked
// 'chpadx:n' at its first token (the function's name, CASE, or the subquery's '('), and
// translate/char-padding.ts wraps it in __pg_text('bpchar:n', ...), which pads it to n (was `b|`).
import type { Typer } from './expression-types';
import { charWidthOf } from './char-widths';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Where each expression that carries a char(n) value starts (its mark's token), by its kind. */
function startOf(x: Node): number | undefined {
  if (x?.FuncCall) return x.FuncCall.location;
  if (x?.CoalesceExpr) return x.CoalesceExpr.location;
  if (x?.CaseExpr) return x.CaseExpr.location;
  if (x?.A_Expr?.kind === 'AEXPR_NULLIF') return x.A_Expr.location;
  if (x?.SubLink?.subLinkType === 'EXPR_SUBLINK') return x.SubLink.location;
  return undefined;
}

/** Marks `x` 'chpadx:n' when it is an expression (no column) whose values are a char(n)'s. */
export function markCarriedPadding(x: Node, typer: Typer, out: Map<number, string>): void {
  const at = startOf(x);
  if (at === undefined || out.has(at)) return;
  const width = charWidthOf(typer, x);
  if (width !== undefined) out.set(at, `chpadx:${width}`);
}
