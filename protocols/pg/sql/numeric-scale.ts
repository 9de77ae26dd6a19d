// The display scale PostgreSQL's numeric carries for an expression of the parse tree (what a
// computed numeric prints: `sum(amount)` of a numeric(10,2) has 2 digits, `0.1 + 0.2` one), and the
// type modifier of a cast (`x::numeric(10,2)`, `x::varchar(3)`), for RowDescription and the values.
import { OID, oidOfDeclType, typmodOfDeclType } from '../types/oids';
import type { Typer } from './expression-types';
import { selectTypes } from './select-types';
import { INTS, strings, typeNameOid } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The scale of a column: a subquery's column's, a table column's numeric(p, s), 0 for an integer one. */
function columnScale(t: Typer, fields: string[]): number | undefined {
  const name = fields[fields.length - 1]?.toLowerCase();
  const tables =
    fields.length >= 2 ? [t.scope.get(fields[fields.length - 2].toLowerCase())] : [...new Set(t.scope.values())];
  const found: (number | undefined)[] = [];
  for (const src of tables) {
    if (Array.isArray(src)) {
      const col = src.find((c) => c.name.toLowerCase() === name);
      // its computed scale, or its numeric(p, s)'s s (a column of a table passed through), 0 for an integer
      const mod = col?.typmod ?? -1;
      if (col)
        found.push(
          col.scale ?? (col.oid === OID.numeric && mod >= 4 ? (mod - 4) & 0xffff : INTS.has(col.oid) ? 0 : undefined),
        );
      continue;
    }
    const col = src ? t.schema.tables.get(src)?.columns.find((c) => c.name.toLowerCase() === name) : undefined;
    if (!col) continue;
    const oid = oidOfDeclType(col.type);
    const mod = typmodOfDeclType(col.type);
    found.push(oid === OID.numeric && mod >= 4 ? (mod - 4) & 0xffff : INTS.has(oid) ? 0 : undefined);
  }
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The display scale PostgreSQL's numeric carries for an expression (digits after the point: a
 * numeric(p, s) column's s, a literal's digits, the larger of a sum's, the total of a product's,
 * round(x, n)'s n); undefined where it is not known this way (a division, avg, a double).
 */
export function scaleOf(t: Typer, n: Node): number | undefined {
  if (!n) return undefined;
  if (n.ColumnRef) return columnScale(t, strings(n.ColumnRef.fields));
  if (n.A_Const) {
    if (n.A_Const.ival !== undefined) return 0;
    const f = n.A_Const.fval?.fval;
    if (f === undefined) return undefined;
    // with an exponent, numeric's input keeps the digits after the point less the exponent (1e3 is
    // 1000, 1.50e1 15.0, 2.5e-1 0.25; as a double's text, 'x' || 1e3 was x1000.0)
    const m = /^[+-]?\d*(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(String(f));
    if (!m) return undefined;
    return Math.max(0, (m[1]?.length ?? 0) - Number(m[2] ?? 0));
  }
  if (n.TypeCast) {
    const mod = castTypmod(n);
    const to = typeNameOid(n.TypeCast.typeName);
    if (to === OID.numeric && mod >= 4) return (mod - 4) & 0xffff;
    // '10.50'::numeric keeps the string's digits (10.50), as numeric's input does
    const text = n.TypeCast.arg?.A_Const?.sval?.sval;
    if (to === OID.numeric && typeof text === 'string')
      return /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(text) ? (/\.(\d*)/.exec(text)?.[1].length ?? 0) : undefined;
    if (to === OID.numeric) return scaleOf(t, n.TypeCast.arg);
    return INTS.has(to) ? 0 : undefined;
  }
  // (NULLIF(a, b) is a or NULL: a's scale, where the result is a numeric)
  if (n.A_Expr?.kind === 'AEXPR_NULLIF') return t.type(n) === OID.numeric ? scaleOf(t, n.A_Expr.lexpr) : undefined;
  if (n.A_Expr?.kind === 'AEXPR_OP') {
    const op = strings(n.A_Expr.name).at(-1) ?? '';
    // (integer arithmetic is whole: `10 / 4 * n` is 2 * n)
    if (INTS.has(t.type(n))) return 0;
    // (`@ x` is abs(x): its operand's scale)
    if (!n.A_Expr.lexpr) return op === '-' || op === '+' || op === '@' ? scaleOf(t, n.A_Expr.rexpr) : undefined;
    const l = scaleOf(t, n.A_Expr.lexpr);
    const r = scaleOf(t, n.A_Expr.rexpr);
    if (l === undefined || r === undefined) return undefined;
    if (op === '+' || op === '-' || op === '%') return Math.max(l, r);
    if (op === '*') return l + r;
    return undefined;
  }
  if (n.SubLink?.subLinkType === 'EXPR_SUBLINK') {
    // a scalar subquery: its one column's (`(SELECT sum(price) FROM t)` of a numeric(10,2) is 12.50)
    const inner = n.SubLink.subselect?.SelectStmt;
    const cols = inner ? selectTypes(inner, t.schema) : null;
    const c = cols?.length === 1 && cols[0].oid === OID.numeric && !cols[0].scaleIsMinimum ? cols[0] : undefined;
    return c?.scale ?? (c?.typmod !== undefined && c.typmod >= 4 ? (c.typmod - 4) & 0xffff : undefined);
  }
  if (n.CoalesceExpr || n.MinMaxExpr) return largestScale(t, n.CoalesceExpr?.args ?? n.MinMaxExpr.args);
  if (n.CaseExpr) {
    const results = (n.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.result);
    if (n.CaseExpr.defresult) results.push(n.CaseExpr.defresult);
    return largestScale(t, results);
  }
  if (n.FuncCall) {
    const f = n.FuncCall;
    const name = strings(f.funcname).pop()?.toLowerCase();
    const args: Node[] = f.args ?? [];
    switch (name) {
      case 'sum':
      case 'min':
      case 'max':
      case 'abs':
      case 'first_value':
      case 'last_value':
        return args.length === 1 ? scaleOf(t, args[0]) : undefined;
      // one of the WITHIN GROUP (ORDER BY x) key's values, at its scale (of one fraction)
      case 'percentile_disc':
      case 'mode': {
        const key = f.agg_within_group && f.agg_order?.length === 1 ? f.agg_order[0].SortBy?.node : undefined;
        return key && !args[0]?.A_ArrayExpr ? scaleOf(t, key) : undefined;
      }
      // a window's earlier or later row's value, at its scale; with a default of the same scale
      // (`lag(p, 1, p)`) at that one (of another, each value prints its own: exact-columns.ts's exactChoice)
      case 'lag':
      case 'lead':
      case 'nth_value': {
        const s = args.length > 0 && args.length <= 3 ? scaleOf(t, args[0]) : undefined;
        return args.length < 3 || (name !== 'nth_value' && s === scaleOf(t, args[2])) ? s : undefined;
      }
      case 'round':
      case 'trunc': {
        if (args.length === 1) return 0;
        const k = args[1]?.A_Const?.ival;
        return k === undefined ? undefined : Math.max(0, k.ival ?? 0);
      }
      case 'ceil':
      case 'ceiling':
      case 'floor':
        return 0;
      case 'extract': {
        // PostgreSQL's extract gives microseconds' digits to seconds and the epoch (of a time,
        // timestamp or interval), milliseconds' to milliseconds, whole numbers otherwise and of a date
        const unit = String(args[0]?.A_Const?.sval?.sval ?? '').toLowerCase();
        if (args.length !== 2 || !unit || unit === 'julian') return undefined;
        if (t.type(args[1]) === OID.date) return 0;
        return unit === 'epoch' || unit === 'second' ? 6 : unit === 'milliseconds' ? 3 : 0;
      }
      case 'coalesce':
      case 'greatest':
      case 'least':
        return largestScale(t, args);
      // mod(a, b) as a % b: the larger of their scales (mod(-1.50, -1.50) is 0.00)
      case 'mod':
        return args.length === 2 && !INTS.has(t.type(n)) ? largestScale(t, args) : undefined;
    }
  }
  return undefined;
}

/**
 * The scale of `x ± $n` (either way round, also nested) and of `x * $n`: at least x's, the
 * parameter's value may carry more digits (`amount + $1` with 1 prints 13.50, with 1.125 13.625), so
 * the values print at that scale or with their own digits beyond it, and at least at the scale of
 * the parameters' text (`$1::numeric` with '1.500' is 1.500: the session knows it at Bind); a
 * product adds its other factor's scale to the parameter's (`$1::numeric * 2.0` with '1.25' is
 * 2.500, PostgreSQL's sum of scales): `offsets` holds what each parameter's scale gains. Undefined
 * where no such bound is known (a product of two parameters).
 */
export function minimumScaleOf(t: Typer, n: Node): { scale: number; params: number[]; offsets: number[] } | undefined {
  type Bound = { scale: number; params: { k: number; add: number }[] };
  const bound = (x: Node): Bound | undefined => {
    const cast = x?.TypeCast;
    const param =
      x?.ParamRef ??
      (cast && castTypmod(x) < 0 && typeNameOid(cast.typeName) === OID.numeric ? cast.arg?.ParamRef : undefined);
    if (param) return { scale: 0, params: [{ k: param.number, add: 0 }] };
    const e = x?.A_Expr;
    const op = e?.kind === 'AEXPR_OP' && e.lexpr ? strings(e.name).at(-1) : undefined;
    if (op === '+' || op === '-') {
      const l = bound(e.lexpr);
      const r = bound(e.rexpr);
      return l && r ? { scale: Math.max(l.scale, r.scale), params: [...l.params, ...r.params] } : undefined;
    }
    if (op === '*' && !INTS.has(t.type(x))) {
      const l = bound(e.lexpr);
      const r = bound(e.rexpr);
      if (!l || !r || (l.params.length > 0 && r.params.length > 0)) return undefined;
      const [p, other] = l.params.length > 0 ? [l, r] : [r, l];
      return { scale: l.scale + r.scale, params: p.params.map((q) => ({ k: q.k, add: q.add + other.scale })) };
    }
    const s = scaleOf(t, x);
    // (a plain numeric column's values print their own digits beyond the parameter's: `x + $1`)
    if (s === undefined && x?.ColumnRef && t.type(x) === OID.numeric) return { scale: 0, params: [] };
    return s === undefined ? undefined : { scale: s, params: [] };
  };
  const b = bound(n);
  return b && b.params.length > 0
    ? { scale: b.scale, params: b.params.map((q) => q.k), offsets: b.params.map((q) => q.add) }
    : undefined;
}

/**
 * Whether a numeric expression is computed (an operator, a function, CASE, ...) rather than a
 * column, a parameter or a literal, or a cast of one: SQLite computes it as a double, whose digits
 * beyond the 15th PostgreSQL's exact numeric would not have (0.1 * 3 is 0.30000000000000004).
 */
export function isComputed(n: Node): boolean {
  if (!n || n.ColumnRef || n.ParamRef || n.A_Const) return false;
  if (n.TypeCast) return isComputed(n.TypeCast.arg);
  // (a scalar subquery passes on its own column's value)
  return !n.SubLink;
}

/**
 * Whether a value is NULL, cast or not (`NULL::numeric`): it prints nothing, so its scale takes no
 * part in a choice's (`CASE WHEN g THEN m ELSE NULL::numeric END` of a numeric(10,2) m is 1.00).
 */
export function isNullValue(n: Node): boolean {
  return n?.A_Const?.isnull === true || (n?.TypeCast !== undefined && isNullValue(n.TypeCast.arg));
}

function largestScale(t: Typer, args: Node[]): number | undefined {
  let out: number | undefined;
  for (const a of args) {
    if (isNullValue(a)) continue;
    const s = scaleOf(t, a);
    if (s === undefined) return undefined;
    out = Math.max(out ?? 0, s);
  }
  return out;
}

/**
 * The values a choice picks from: a coalesce's, greatest's or least's arguments, a CASE's results,
 * lag's or lead's value and default (window calls); undefined for any other expression.
 */
export function choiceValues(n: Node): Node[] | undefined {
  const kase = n?.CaseExpr;
  if (kase)
    return [...(kase.args ?? []).map((w: Node) => w.CaseWhen?.result), ...(kase.defresult ? [kase.defresult] : [])];
  if (n?.CoalesceExpr) return n.CoalesceExpr.args;
  // (GREATEST and LEAST pick by value: exact-columns.ts marks them to, __pg_numeric_greatest)
  if (n?.MinMaxExpr) return n.MinMaxExpr.args;
  const f = n?.FuncCall;
  const name = f ? strings(f.funcname).pop()?.toLowerCase() : undefined;
  if (f?.over && (name === 'lag' || name === 'lead') && f.args?.length === 3) return [f.args[0], f.args[2]];
  return undefined;
}

/**
 * Whether a choice's numeric values (choiceValues) have known scales that differ: PostgreSQL's result
 * is then a numeric of no typmod, each value at its own scale (`coalesce(p, 0)` of a numeric(10,2)
 * is 2.50 or 0), which exact-columns.ts's exactChoice hands over as text; no one scale is the column's.
 */
export function keepsOwnScales(t: Typer, n: Node): boolean {
  const values = choiceValues(n);
  if (!values || t.type(n) !== OID.numeric) return false;
  const scales = new Set<number | undefined>();
  for (const a of values) if (!isNullValue(a)) scales.add(scaleOf(t, a));
  return scales.size > 1 && !scales.has(undefined);
}

/** The type modifier of `x::numeric(p, s)`, `x::varchar(n)`, `x::char(n)`: -1 for other expressions. */
export function castTypmod(n: Node): number {
  const tn = n?.TypeCast?.typeName;
  if (!tn?.typmods || tn.arrayBounds) return -1;
  const mods = (tn.typmods as Node[]).map((m) => m.A_Const?.ival?.ival ?? (m.A_Const?.ival ? 0 : Number.NaN));
  if (mods.some((m) => !Number.isInteger(m))) return -1;
  const oid = typeNameOid(tn);
  if (oid === OID.numeric && mods[0] >= 1 && (mods[1] ?? 0) <= mods[0]) return ((mods[0] << 16) | (mods[1] ?? 0)) + 4;
  if ((oid === OID.varchar || oid === OID.bpchar) && mods[0] >= 1) return mods[0] + 4;
  return -1;
}
