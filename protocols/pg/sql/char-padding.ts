// Where PostgreSQL reads a char(n) value with its padding: its output function (concat, format,
// to_json, json_agg, array_agg, ARRAY[ch], the json builders' values), octet_length (bpcharoctetlen),
// LIKE (bpcharlike) and `~` (bpcharregexeq): `concat(ch, '|')` of 'ab' in a char(4) is `ab  |`,
// `ch LIKE 'ab'` false, `ch ~ 'b '` true.
// Patina keeps char(n) values without their trailing spaces, so a char(n) column read there is
// marked 'chpad:n' (translate/char-padding.ts pads it to n). And a varchar compared with a char(n)
// is read as bpchar, whose comparison ignores trailing spaces (`ch = vc` of 'b' and 'b ' is true):
// a varchar column there is marked 'chtrim' (its trailing spaces dropped).
import { OID } from '../types/oids';
import type { PgToken } from './lexer';
import { charTypmodOf, charWidthOf } from './char-widths';
import { markCarriedPadding } from './carried-padding';
import type { Typer } from './expression-types';
import { treeShape } from './parse';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The functions each of whose arguments (from `from`) PostgreSQL reads as printed (a builder's keys too). */
export const PRINTED_ARGS: Record<string, { from: number; step: number }> = {
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
/** LIKE's operators and the regular expressions' (bpcharregexeq and the others read the padded text too). */
const LIKES = new Set(['~~', '!~~', '~~*', '!~~*', '~', '!~', '~*', '!~*']);

/** Marks a char(n) column read with its padding ('chpad:n'), one with which a varchar is compared ('chtrim'). */
export function markCharPadding(n: Node, typer: Typer, out: Map<number, string>): void {
  const pad = (x: Node) => {
    const mod = x?.ColumnRef ? charTypmodOf(typer, x) : undefined;
    if (mod !== undefined) out.set(x.ColumnRef.location, `chpad:${mod - 4}`);
    else if (!x?.ColumnRef) {
      // (max(ch): the expression padded; coalesce(ch, 'z'): each char(n) column in it)
      markCarriedPadding(x, typer, out);
      markChoicePadding(x, typer, out);
    }
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
    if (l === OID.bpchar && r === OID.varchar) trimVarchar(e.rexpr, out);
    else if (r === OID.bpchar && l === OID.varchar) trimVarchar(e.lexpr, out);
  } else if (e.kind === 'AEXPR_IN' && typer.type(e.lexpr) === OID.bpchar) {
    // (`ch IN ($1, $2)` of parameters declared varchar: each read as bpchar)
    for (const x of e.rexpr.List?.items ?? []) if (typer.type(x) === OID.varchar) trimVarchar(x, out);
  }
}

/** A varchar compared with a char(n), read as bpchar: its trailing spaces dropped. */
function trimVarchar(side: Node, out: Map<number, string>): void {
  // (a column, a parameter, a literal cast to varchar: `ch = 'ab  '::varchar`)
  const text = side?.TypeCast?.arg?.A_Const?.sval?.sval;
  if (side?.ColumnRef || side?.ParamRef) out.set(side.ColumnRef?.location ?? side.ParamRef.location, 'chtrim');
  else if (typeof text === 'string' && / $/.test(text))
    out.set(side.TypeCast.arg.A_Const.location, `str:${text.replace(/ +$/, '')}`);
  // (another cast to varchar, `$1::varchar`: the cast drops them, translate/casts.ts' 'text:rtrim')
  else if (side?.TypeCast) out.set(side.TypeCast.location, 'text:rtrim');
}

/**
 * A result column that is COALESCE, CASE, GREATEST or LEAST of char(n) columns beside other values (a literal,
 * another width: `coalesce(ch, 'z')`): each char(n) column there padded to its n, as PostgreSQL's
 * value is (the column has no one width to print at: char-widths.ts). Only in the statement's own
 * select list, whose values go to the client as they are. Where that column is grouped (DISTINCT,
 * GROUP BY it), the padded column is compared ignoring trailing spaces (marked 'chpadc:n', SQLite's
 * RTRIM collation), as bpchar's equality is: `coalesce(ch, 'ab')`'s 'ab' and a column's `ab  ` are
 * one group in PostgreSQL (were two, padded only on the column's side).
 */
export function markChoicePadding(val: Node, typer: Typer, out: Map<number, string>, grouped = false): void {
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
    if (mod !== undefined) out.set(x.ColumnRef.location, `${grouped ? 'chpadc' : 'chpad'}:${mod - 4}`);
  }
}

/** Whether a select list's item (at `index`) is what its statement groups by: DISTINCT, or GROUP BY it (by position, name or expression). */
export function isGroupedOutput(select: Node, index: number): boolean {
  const item = select.targetList?.[index]?.ResTarget;
  const distinct: Node[] = select.distinctClause ?? [];
  if (distinct.length > 0 && distinct.every((d) => !d || Object.keys(d).length === 0)) return true;
  return [...distinct, ...(select.groupClause ?? [])].some((g: Node) => {
    if (g?.A_Const?.ival !== undefined) return g.A_Const.ival.ival === index + 1;
    const fields = g?.ColumnRef ? strings(g.ColumnRef.fields) : [];
    if (item?.name && fields.length === 1 && fields[0].toLowerCase() === item.name.toLowerCase()) return true;
    return item?.val !== undefined && treeShape(g) === treeShape(item.val);
  });
}

const READERS = new Set([
  ...Object.keys(PRINTED_ARGS).map((k) => k.toUpperCase()),
  ...['ARRAY', 'LIKE', 'ILIKE', 'COALESCE', 'CASE', 'GREATEST', 'LEAST', 'UNION', 'INTERSECT', 'EXCEPT'],
]);

/** Whether a statement may hold what markCharPadding marks: a char(n) column and a reader of its padding, or a comparison. */
export function mayReadCharPadding(
  sig: PgToken[],
  columnType: (column: string) => string | null,
  varcharParam: (n: number) => boolean = () => false,
): boolean {
  if (!sig.some((t) => t.type === 'word' && columnType(t.text.toLowerCase()) === 'bpchar')) return false;
  return sig.some(
    (t) =>
      (t.type === 'word' && READERS.has(t.text.toUpperCase())) ||
      (t.type === 'op' && LIKES.has(t.text)) ||
      // (a comparison or IN beside a varchar column, which columnType names text, a cast to varchar,
      // or a parameter declared varchar: pgjdbc's setString)
      ((t.type === 'op' ? COMPARISONS.has(t.text) : t.type === 'word' && /^IN$/i.test(t.text)) &&
        sig.some(
          (x) =>
            (x.type === 'word' && (columnType(x.text.toLowerCase()) === 'text' || /^varchar$/i.test(x.text))) ||
            (x.type === 'param' && varcharParam(Number(x.text.slice(1)))),
        )),
  );
}

/**
 * A UNION, INTERSECT or EXCEPT (the statement's own) whose column is a char(n) column in one branch
 * and a string literal or a char(n) column of another width in another (`SELECT ch ... UNION SELECT
 * 'zz'`): PostgreSQL's column is bpchar (select-types.ts types it so) with no one width, so each char(n) column there is padded to its n,
 * as markChoicePadding does; where the set operation removes duplicates (not ALL), compared
 * ignoring trailing spaces ('chpadc:n'), as bpchar's equality is (`ab  ` and 'ab' are one row).
 */
export function markSetOpPadding(select: Node, typerOf: (q: Node) => Typer, out: Map<number, string>): void {
  const leaves: Node[] = [];
  let distinct = false;
  const collect = (q: Node): boolean => {
    if (!q?.op || q.op === 'SETOP_NONE') return leaves.push(q) > 0 && Array.isArray(q?.targetList);
    if (!q.all) distinct = true;
    return collect(q.larg) && collect(q.rarg);
  };
  if (!collect(select)) return;
  const typers = leaves.map(typerOf);
  for (let k = 0; k < leaves[0].targetList.length; k++) {
    const vals: Node[] = leaves.map((q) => q.targetList[k]?.ResTarget?.val);
    const literal = (x: Node) => typeof x?.A_Const?.sval?.sval === 'string';
    const mods = vals.map((x, i) => (x?.ColumnRef ? charTypmodOf(typers[i], x) : undefined));
    // (only char(n) columns, string literals and NULLs, and one literal or two widths at least: else
    // the column's one width, char-widths.ts; `SELECT ch ... UNION SELECT c1`, char(4) and char(1), pads each to its own)
    const widths = new Set(mods.filter((m) => m !== undefined));
    if (widths.size === 0 || (!vals.some(literal) && widths.size === 1)) continue;
    if (!vals.every((x, i) => literal(x) || x?.A_Const?.isnull || mods[i] !== undefined)) continue;
    for (const [i, x] of vals.entries())
      if (mods[i] !== undefined) out.set(x.ColumnRef.location, `${distinct ? 'chpadc' : 'chpad'}:${mods[i]! - 4}`);
  }
}
