// Result columns computed exactly: a numeric division, avg, stddev or variance, extract(epoch ...)
// that is a column of the statement's own SELECT (src/engine/pg-exact-division.ts gives PostgreSQL's digits, as text).
import { OID } from '../types/oids';
import type { Typer } from './expression-types';
import { INTS, strings } from './type-signatures';
import { EXACT_STATISTICS } from './typed-operators-hint';
import { orderMarkKey } from './typed-operators';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** 'avg-x' or 'stat-x' for avg, stddev or variance of integers or numerics; undefined for anything else. */
function exactAggregate(v: Node, t: Typer): string | undefined {
  const f = v?.FuncCall;
  if (!f || f.agg_star || f.args?.length !== 1) return undefined;
  const bare = strings(f.funcname)
    .join('.')
    .toLowerCase()
    .replace(/^pg_catalog\./, '');
  const a = t.type(f.args[0]);
  if (!INTS.has(a) && a !== OID.numeric) return undefined;
  return bare === 'avg' ? 'avg-x' : EXACT_STATISTICS.has(bare) ? 'stat-x' : undefined;
}

/**
 * `+`, `-` and `*` over exact aggregates, integers and number literals (`stddev(x) * 2`, `avg(q) + 1`),
 * with one exact aggregate at least: computed exactly too ('numx+', ... on the operators, 'numx-lit'
 * on a decimal literal, which goes as text to keep its digits). Null for any other expression.
 */
function exactTree(v: Node, t: Typer): [number, string][] | null {
  const marks: [number, string][] = [];
  let exact = 0;
  const visit = (n: Node): boolean => {
    const e = n?.A_Expr;
    const op = e?.kind === 'AEXPR_OP' && e.lexpr && e.rexpr ? strings(e.name).pop() : undefined;
    if (op === '+' || op === '-' || op === '*') {
      marks.push([e.location, `numx${op}`]);
      return visit(e.lexpr) && visit(e.rexpr);
    }
    if (isExactEpoch(n, t)) {
      exact++;
      marks.push([n.FuncCall.location, 'epoch-x']);
      return true;
    }
    const agg = exactAggregate(n, t);
    if (agg) {
      exact++;
      marks.push([n.FuncCall.location, agg]);
      return true;
    }
    if (n?.A_Const?.fval) {
      // (a negative one starts at its sign, an exponent has no digits to keep: not these)
      const text = String(n.A_Const.fval.fval);
      if (/e|^-/i.test(text)) return false;
      marks.push([n.A_Const.location, 'numx-lit']);
      return true;
    }
    return INTS.has(t.type(n));
  };
  return visit(v) && exact > 0 && marks.some(([, k]) => k.startsWith('numx') && k !== 'numx-lit') ? marks : null;
}

/**
 * extract(epoch from x) of a timestamp, timestamptz or interval: a numeric of microseconds' digits
 * in PostgreSQL, more digits than a double holds far from 1970 ('-62135596799.999999').
 */
function isExactEpoch(v: Node, t: Typer): boolean {
  const f = v?.FuncCall;
  if (!f || strings(f.funcname).pop()?.toLowerCase() !== 'extract' || f.args?.length !== 2) return false;
  if (String(f.args[0]?.A_Const?.sval?.sval ?? '').toLowerCase() !== 'epoch') return false;
  const a = t.type(f.args[1]);
  return a === OID.timestamp || a === OID.timestamptz || a === OID.interval;
}

/** round(x, n) or trunc(x, n) with n a constant (also of one argument). */
function isRound(v: Node): boolean {
  const f = v?.FuncCall;
  const fn = f ? strings(f.funcname).pop()?.toLowerCase() : undefined;
  return (fn === 'round' || fn === 'trunc') && (f.args?.length === 1 || f.args?.[1]?.A_Const?.ival !== undefined);
}

/** PostgreSQL's name of a select item without an alias, as far as this module needs it. */
function itemName(r: Node): string {
  if (r?.name) return r.name;
  const v = r?.val;
  if (v?.ColumnRef) return strings(v.ColumnRef.fields).pop() ?? '?column?';
  if (v?.FuncCall) return strings(v.FuncCall.funcname).pop() ?? '?column?';
  return '?column?';
}

/**
 * A result column of the statement's own SELECT that is a numeric division, avg, stddev or variance
 * of integers or numerics itself: 'num/x', 'avg-x' and 'stat-x', computed exactly and handed to
 * the client as text (src/engine/pg-exact-division.ts, pg-exact-statistics.ts), with PostgreSQL's digits. An ORDER BY naming such a column
 * by its alias sorts by its number ('num-order': SQLite would sort the text); one naming it by
 * position ('num-order:name' on the position) by the item's name, which an item without an alias is
 * given ('num-alias:name' on its first token: PostgreSQL's own name for it, `avg`, `?column?`). Where
 * that name would not be the item's alone (another item, or a column of the schema, has it) the
 * column stays a double, as it does under DISTINCT or in a set operation.
 */
export function markExactColumns(s: Node, t: Typer, out: Map<number, string>): void {
  if (!s?.targetList || (s.op && s.op !== 'SETOP_NONE') || s.distinctClause) return;
  const sorts: Node[] = (s.sortClause ?? []).map((x: Node) => x.SortBy?.node);
  const names = (s.targetList as Node[]).map((item) => itemName(item.ResTarget).toLowerCase());
  (s.targetList as Node[]).forEach((item, k) => {
    const v = item.ResTarget?.val;
    const name: string | undefined = item.ResTarget?.name;
    if (!v) return;
    const byPosition = sorts.filter((n) => (n?.A_Const?.ival?.ival ?? (n?.A_Const?.ival ? 0 : -1)) === k + 1);
    // the name ORDER BY k sorts by: PostgreSQL's, unless another item or a column has it (SQLite
    // would take that), then one of its own (the client sees the name the parse tree gives)
    let own = itemName(item.ResTarget);
    const taken = (x: string) =>
      names.filter((y) => y === x.toLowerCase()).length > 1 ||
      [...t.schema.tables.values()].some((tb) => tb.columns.some((c) => c.name.toLowerCase() === x.toLowerCase()));
    if (byPosition.length > 0 && taken(own)) {
      if (name) return;
      own = `__pg_exact_${k + 1}`;
    }
    const e = v.A_Expr;
    let marks: [number, string][] | null = null;
    if (e?.kind === 'AEXPR_OP' && e.lexpr && e.rexpr && strings(e.name).pop() === '/') {
      const l = t.type(e.lexpr);
      const r = t.type(e.rexpr);
      if ((l === OID.numeric && (r === OID.numeric || INTS.has(r))) || (INTS.has(l) && r === OID.numeric))
        marks = [
          [e.location, 'num/x'],
          // extract(epoch ...) divided: its exact digits (`extract(epoch from d) / 60`)
          ...[e.lexpr, e.rexpr]
            .filter((x) => isExactEpoch(x, t))
            .map((x): [number, string] => [x.FuncCall.location, 'epoch-x']),
        ];
    } else if (isExactEpoch(v, t)) marks = [[v.FuncCall.location, 'epoch-x']];
    else if (exactAggregate(v, t)) marks = [[v.FuncCall.location, exactAggregate(v, t)!]];
    else if (isRound(v)) {
      // round(stddev(x), 2): rounds the exact value (its double could round the other way)
      const arg = v.FuncCall.args[0];
      marks = exactAggregate(arg, t) ? [[arg.FuncCall.location, exactAggregate(arg, t)!]] : exactTree(arg, t);
    } else marks = exactTree(v, t);
    if (!marks) return;
    // an unnamed avg is named avg in PostgreSQL and avg(x) in SQLite: ORDER BY avg stays as it was
    const byName = sorts.filter((n) => n?.ColumnRef?.fields?.length === 1);
    const called = strings(v.FuncCall?.funcname ?? []).pop();
    if (!name && called && byName.some((n) => strings(n.ColumnRef.fields)[0] === called)) return;
    for (const [at, kind] of marks) out.set(at, kind);
    for (const n of byName) if (strings(n.ColumnRef.fields)[0] === name) out.set(n.ColumnRef.location, 'num-order');
    if (byPosition.length === 0) return;
    if (!name) out.set(orderMarkKey(item.ResTarget.location), `num-alias:${own}`);
    for (const n of byPosition) out.set(orderMarkKey(n.A_Const.location), `num-order:${own}`);
  });
}
