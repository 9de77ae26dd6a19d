// Where PostgreSQL reads a char(n) value with its padding: its output function (concat, format,
// to_json, json_agg, array_agg, ARRAY[ch], the json builders' values), octet_length (bpcharoctetlen)
// and LIKE (bpcharlike): `concat(ch, '|')` of 'ab' in a char(4) is `ab  |`, `ch LIKE 'ab'` false.
// Patina keeps char(n) values without their trailing spaces, so a char(n) column read there is
// marked 'chpad:n' (translate/char-padding.ts pads it to n). And a varchar compared with a char(n)
// is read as bpchar, whose comparison ignores trailing spaces (`ch = vc` of 'b' and 'b ' is true):
// a varchar column there is marked 'chtrim' (its trailing spaces dropped).
import { OID } from '../types/oids';
import type { PgToken } from './lexer';
import { charTypmodOf, charWidthOf } from './char-widths';
import type { Typer } from './expression-types';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The functions each of whose arguments (from `from`) PostgreSQL reads as printed (a builder's keys too). */
const PRINTED_ARGS: Record<string, { from: number; step: number }> = {
  octet_length: { from: 0, step: 1 },
  concat: { from: 0, step: 1 },
  concat_ws: { from: 1, step: 1 },
  format: { from: 1, step: 1 },
  to_json: { from: 0, step: 1 },
  to_jsonb: { from: 0, step: 1 },
  array_agg: { from: 0, step: 1 },
  json_agg: { from: 0, step: 1 },
  jsonb_agg: { from: 0, step: 1 },
  json_build_array: { from: 0, step: 1 },
  jsonb_build_array: { from: 0, step: 1 },
  json_build_object: { from: 0, step: 1 },
  jsonb_build_object: { from: 0, step: 1 },
};

const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);
const LIKES = new Set(['~~', '!~~', '~~*', '!~~*']);

/** Marks a char(n) column read with its padding ('chpad:n'), one with which a varchar is compared ('chtrim'). */
export function markCharPadding(n: Node, typer: Typer, out: Map<number, string>): void {
  const pad = (x: Node) => {
    const mod = x?.ColumnRef ? charTypmodOf(typer, x) : undefined;
    if (mod !== undefined) out.set(x.ColumnRef.location, `chpad:${mod - 4}`);
  };
  const f = n.FuncCall;
  if (f) {
    const printed = PRINTED_ARGS[strings(f.funcname).pop()?.toLowerCase() ?? ''];
    const args: Node[] = f.args ?? [];
    if (printed && !f.agg_star) for (let k = printed.from; k < args.length; k += printed.step) pad(args[k]);
    return;
  }
  if (n.A_ArrayExpr) {
    for (const x of n.A_ArrayExpr.elements ?? []) pad(x);
    return;
  }
  const e = n.A_Expr;
  if (!e?.lexpr || !e.rexpr) return;
  const op = strings(e.name ?? []).pop() ?? '';
  if (e.kind === 'AEXPR_LIKE' || e.kind === 'AEXPR_ILIKE' || (e.kind === 'AEXPR_OP' && LIKES.has(op))) pad(e.lexpr);
  else if (e.kind === 'AEXPR_OP' && COMPARISONS.has(op)) {
    const [l, r] = [typer.type(e.lexpr), typer.type(e.rexpr)];
    const side =
      l === OID.bpchar && r === OID.varchar ? e.rexpr : r === OID.bpchar && l === OID.varchar ? e.lexpr : null;
    // (a column, a parameter, a literal cast to varchar: `ch = 'ab  '::varchar`)
    const text = side?.TypeCast?.arg?.A_Const?.sval?.sval;
    if (side?.ColumnRef || side?.ParamRef) out.set(side.ColumnRef?.location ?? side.ParamRef.location, 'chtrim');
    else if (typeof text === 'string' && / $/.test(text))
      out.set(side.TypeCast.arg.A_Const.location, `str:${text.replace(/ +$/, '')}`);
    // (another cast to varchar, `$1::varchar`: the cast drops them, translate/casts.ts' 'text:rtrim')
    else if (side?.TypeCast) out.set(side.TypeCast.location, 'text:rtrim');
  }
}

/**
 * A result column that is COALESCE, CASE, GREATEST or LEAST of char(n) columns beside other values (a literal,
 * another width: `coalesce(ch, 'z')`): each char(n) column there padded to its n, as PostgreSQL's
 * value is (the column has no one width to print at: char-widths.ts). Only in the statement's own
 * select list, whose values go to the client as they are.
 */
export function markChoicePadding(val: Node, typer: Typer, out: Map<number, string>): void {
  if (typer.type(val) !== OID.bpchar || charWidthOf(typer, val) !== undefined) return;
  const branches: Node[] =
    val?.CoalesceExpr?.args ??
    val?.MinMaxExpr?.args ??
    (val?.CaseExpr
      ? [...(val.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.result), val.CaseExpr.defresult]
      : val?.FuncCall && strings(val.FuncCall.funcname).pop()?.toLowerCase() === 'coalesce'
        ? (val.FuncCall.args ?? [])
        : []);
  for (const x of branches) {
    const mod = x?.ColumnRef ? charTypmodOf(typer, x) : undefined;
    if (mod !== undefined) out.set(x.ColumnRef.location, `chpad:${mod - 4}`);
  }
}

const READERS = new Set([
  ...Object.keys(PRINTED_ARGS).map((k) => k.toUpperCase()),
  ...['ARRAY', 'LIKE', 'ILIKE', 'COALESCE', 'CASE', 'GREATEST', 'LEAST'],
]);

/** Whether a statement may hold what markCharPadding marks: a char(n) column and a reader of its padding, or a comparison. */
export function mayReadCharPadding(sig: PgToken[], columnType: (column: string) => string | null): boolean {
  if (!sig.some((t) => t.type === 'word' && columnType(t.text.toLowerCase()) === 'bpchar')) return false;
  return sig.some(
    (t) =>
      (t.type === 'word' && READERS.has(t.text.toUpperCase())) ||
      (t.type === 'op' && LIKES.has(t.text)) ||
      // (a comparison beside a varchar column, which columnType names text, or a cast to varchar)
      (t.type === 'op' &&
        COMPARISONS.has(t.text) &&
        sig.some(
          (x) => x.type === 'word' && (columnType(x.text.toLowerCase()) === 'text' || /^varchar$/i.test(x.text)),
        )),
  );
}
