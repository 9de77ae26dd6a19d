// The width n of the char(n) values an expression hands on unchanged (max(ch), coalesce(ch, ch2),
// CASE ... THEN ch, lag(ch), a subquery's column, a UNION's branches): PostgreSQL keeps the padding a
// char(n) value carries through them, typed bpchar with no modifier, so `max(ch)` of 'ab' in a
// char(4) prints `ab  `. Patina keeps char(n) values without their trailing spaces; the result
// column notes the width (ResultColumn.pad) and the values are printed padded to it
// (connection/results.ts), as a numeric's scale is. Undefined where the values may come from
// elsewhere too (a literal, a text column, two widths): those print as they are.
import { OID, oidOfDeclType, typmodOfDeclType } from '../types/oids';
import type { Typer } from './expression-types';
import { selectTypes } from './select-types';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

const isNull = (n: Node) => n?.A_Const?.isnull === true;

/** A char(n) column's n: a table's column declared so, or a subquery's column of a known width. */
function columnWidth(t: Typer, fields: string[]): number | undefined {
  const name = fields[fields.length - 1]?.toLowerCase();
  const sources =
    fields.length >= 2 ? [t.scope.get(fields[fields.length - 2].toLowerCase())] : [...new Set(t.scope.values())];
  const found: (number | undefined)[] = [];
  for (const src of sources) {
    if (Array.isArray(src)) {
      const col = src.find((c) => c.name.toLowerCase() === name);
      if (col) found.push(col.oid === OID.bpchar ? (col.pad ?? widthOf(col.typmod ?? -1)) : undefined);
      continue;
    }
    const col = src ? t.schema.tables.get(src)?.columns.find((c) => c.name.toLowerCase() === name) : undefined;
    if (col) found.push(oidOfDeclType(col.type) === OID.bpchar ? widthOf(typmodOfDeclType(col.type)) : undefined);
  }
  return found.length === 1 ? found[0] : undefined;
}

/** The modifier a char(n) column carries through a subquery or a set operation (PostgreSQL's typmod of a Var); undefined for other expressions. */
export function charTypmodOf(t: Typer, n: Node): number | undefined {
  // (`ARRAY[ch]`: PostgreSQL's exprTypmod of an ArrayExpr is its elements' one modifier, character(4)[])
  if (n?.A_ArrayExpr?.elements?.length > 0) {
    const mods = n.A_ArrayExpr.elements.map((x: Node) => charTypmodOf(t, x));
    return mods.every((m: number | undefined) => m !== undefined && m === mods[0]) ? mods[0] : undefined;
  }
  if (!n || t.type(n) !== OID.bpchar) return undefined;
  // (as PostgreSQL's exprTypmod of the planned expression: NULLIF's first argument's; COALESCE's
  // arguments but NULL, which the planner drops; GREATEST's and CASE's all, NULL's none)
  if (n.A_Expr?.kind === 'AEXPR_NULLIF') return charTypmodOf(t, n.A_Expr.lexpr);
  const all: Node[] | undefined = n.CoalesceExpr
    ? n.CoalesceExpr.args.filter((x: Node) => !isNull(x))
    : n.MinMaxExpr
      ? n.MinMaxExpr.args
      : n.CaseExpr
        ? [...(n.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.result), n.CaseExpr.defresult]
        : undefined;
  if (all) {
    const mods = all.map((x) => charTypmodOf(t, x));
    return mods.length > 0 && mods.every((m) => m !== undefined && m === mods[0]) ? mods[0] : undefined;
  }
  if (!n.ColumnRef) return undefined;
  const fields = strings(n.ColumnRef.fields);
  const name = fields[fields.length - 1]?.toLowerCase();
  const sources =
    fields.length >= 2 ? [t.scope.get(fields[fields.length - 2].toLowerCase())] : [...new Set(t.scope.values())];
  const found: number[] = [];
  for (const src of sources) {
    if (Array.isArray(src)) {
      const col = src.find((c) => c.name.toLowerCase() === name);
      if (col) found.push(col.typmod ?? -1);
      continue;
    }
    const col = src ? t.schema.tables.get(src)?.columns.find((c) => c.name.toLowerCase() === name) : undefined;
    if (col) found.push(typmodOfDeclType(col.type));
  }
  return found.length === 1 && found[0] >= 5 ? found[0] : undefined;
}

const widthOf = (typmod: number) => (typmod >= 5 ? typmod - 4 : undefined);

/** The one width of all the values that are not NULL; undefined when one has none or they differ. */
function sameWidth(t: Typer, nodes: Node[]): number | undefined {
  const widths = nodes.filter((n) => !isNull(n)).map((n) => charWidthOf(t, n));
  return widths.length > 0 && widths.every((w) => w !== undefined && w === widths[0]) ? widths[0] : undefined;
}

/** The char(n) width the values of a bpchar expression carry (see the top of this file); undefined when none or unknown. */
export function charWidthOf(t: Typer, n: Node): number | undefined {
  if (!n || t.type(n) !== OID.bpchar) return undefined;
  if (n.ColumnRef) return columnWidth(t, strings(n.ColumnRef.fields));
  // (`ch::bpchar` relabels the value; `x::char(3)` is announced with its modifier)
  if (n.TypeCast) return t.type(n.TypeCast.arg) === OID.bpchar ? charWidthOf(t, n.TypeCast.arg) : undefined;
  if (n.CoalesceExpr || n.MinMaxExpr) return sameWidth(t, n.CoalesceExpr?.args ?? n.MinMaxExpr.args);
  if (n.NullIfExpr || n.A_Expr?.kind === 'AEXPR_NULLIF')
    return charWidthOf(t, n.NullIfExpr?.args?.[0] ?? n.A_Expr.lexpr);
  if (n.SubLink?.subLinkType === 'EXPR_SUBLINK') {
    // a scalar subquery: its one column's (`(SELECT max(ch) FROM w)`)
    const inner = n.SubLink.subselect?.SelectStmt;
    const cols = inner ? selectTypes(inner, t.schema) : null;
    return cols?.length === 1 && cols[0].oid === OID.bpchar
      ? (cols[0].pad ?? widthOf(cols[0].typmod ?? -1))
      : undefined;
  }
  if (n.CaseExpr) {
    const results = (n.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.result);
    return sameWidth(t, results.concat(n.CaseExpr.defresult ? [n.CaseExpr.defresult] : []));
  }
  if (n.FuncCall) {
    const args: Node[] = n.FuncCall.args ?? [];
    switch (strings(n.FuncCall.funcname).pop()?.toLowerCase()) {
      case 'max':
      case 'min':
      case 'first_value':
      case 'last_value':
      case 'any_value':
        return args.length === 1 ? charWidthOf(t, args[0]) : undefined;
      case 'nth_value':
        return charWidthOf(t, args[0]);
      // a window's earlier or later row's value; its default (a third argument) is a value too
      case 'lag':
      case 'lead':
        return args.length <= 2 ? charWidthOf(t, args[0]) : sameWidth(t, [args[0], args[2]]);
      case 'coalesce':
      case 'greatest':
      case 'least':
        return sameWidth(t, args);
    }
  }
  return undefined;
}
