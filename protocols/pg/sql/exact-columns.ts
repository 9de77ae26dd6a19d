// Numerics computed exactly: a numeric division, avg, stddev or variance, extract(epoch ...) that is
// a column of the statement's own SELECT, a value made text, or a side of a HAVING comparison
// (src/engine/pg-exact-division.ts gives PostgreSQL's digits, as text, and compares them).
import { figuredName } from './column-names';
import { OID, oidOfDeclType } from '../types/oids';
import { Typer } from './expression-types';
import { choiceValues, isNullValue, keepsOwnScales, scaleOf } from './numeric-scale';
import { scopeOf, selectTypes } from './select-types';
import { FLOATS, INTS, strings } from './type-signatures';
import { EXACT_STATISTICS } from './typed-operators-hint';
import { firstLocation, orderMarkKey } from './typed-operators';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/**
 * The marks of avg, stddev or variance of integers or numerics ('avg-x', 'stat-x'), and of sum, min
 * and max of extract(epoch ...) ('sum-x', 'minmax-x'), whose argument is then exact too ('epoch-x': a double cut the
 * microseconds of a sum of epochs, 14326992000.000011 for .000010); undefined for anything else.
 */
function exactAggregate(v: Node, t: Typer): [number, string][] | undefined {
  const f = v?.FuncCall;
  if (!f || f.agg_star || f.args?.length !== 1) return undefined;
  const bare = strings(f.funcname)
    .join('.')
    .toLowerCase()
    .replace(/^pg_catalog\./, '');
  const epoch = isExactEpoch(f.args[0], t);
  const a = t.type(f.args[0]);
  if (!INTS.has(a) && a !== OID.numeric) return undefined;
  const kind =
    bare === 'avg'
      ? 'avg-x'
      : EXACT_STATISTICS.has(bare)
        ? 'stat-x'
        : bare === 'sum' && epoch
          ? 'sum-x'
          : (bare === 'min' || bare === 'max') && epoch
            ? 'minmax-x'
            : undefined;
  if (!kind) return undefined;
  return epoch
    ? [
        [f.location, kind],
        [f.args[0].FuncCall.location, 'epoch-x'],
      ]
    : [[f.location, kind]];
}

/**
 * Whether `l / r` of these operand types is numeric's division: one numeric, the other a numeric, an
 * integer or an untyped parameter (0), which PostgreSQL takes as the other's type.
 */
function numericDivision(l: number, r: number): boolean {
  const fits = (x: number) => x === OID.numeric || x === 0 || INTS.has(x);
  return (l === OID.numeric && fits(r)) || (fits(l) && r === OID.numeric);
}

/** A string literal's text when it is a plain decimal number ('2.5', ' 3 '), trimmed; undefined for any other node. */
function decimalText(n: Node): string | undefined {
  const text = n?.A_Const?.sval?.sval;
  return typeof text === 'string' && /^\s*\+?(\d+\.?\d*|\.\d+)\s*$/.test(text)
    ? text.trim().replace(/^\+/, '')
    : undefined;
}

/** An arithmetic operand's type: a decimal string literal's unknown (0), read as the other side's ('2.5' / n is numeric's). */
function operandType(n: Node, t: Typer, declared: number[]): number {
  return decimalText(n) === undefined ? typeOf(n, t, declared) : 0;
}

/** An operand's type; a parameter's the client declared, 0 for one it did not (PostgreSQL infers it from the other operand). */
function typeOf(n: Node, t: Typer, declared: number[]): number {
  return n?.ParamRef ? (declared[n.ParamRef.number - 1] ?? 0) : t.type(n);
}

/**
 * `+`, `-`, `*` and a numeric `/` over exact aggregates, integers, number literals and numerics
 * (`stddev(x) * 2`, `avg(q) + 1`, `avg(n) * n`, `sum(n) / count(*) * 2`), with one exact aggregate or
 * division at least: computed exactly too ('numx+', ... on the operators, 'numx-lit' on a decimal
 * literal, which goes as text to keep its digits). An operator's mark carries the scale of each
 * operand that is a numeric of known scale and no exact part itself ('numx*:2:' for `avg(x) * n` of a
 * numeric(10,2) n), at which translate/typed-arithmetic.ts hands it over (its value is a double or
 * an integer in SQLite: `12.5` of n is 12.50 to PostgreSQL). `whole`: without an exact part too
 * (`0.1 + 0.2`, exactNumericMarks). Null for any other expression.
 */
function exactTree(v: Node, t: Typer, declared: number[], whole = false): [number, string][] | null {
  const marks: [number, string][] = [];
  let exact = 0;
  // a numeric operand that holds no exact part: its scale, '' when not known (its value's own digits)
  const scaleMark = (n: Node) => {
    if (n?.A_Const || INTS.has(t.type(n))) return '';
    const s = scaleOf(t, n);
    return s === undefined ? '' : String(s);
  };
  const visit = (n: Node): boolean => {
    const e = n?.A_Expr;
    const op = e?.kind === 'AEXPR_OP' && e.lexpr && e.rexpr ? strings(e.name).pop() : undefined;
    const division =
      op === '/' && numericDivision(operandType(e.lexpr, t, declared), operandType(e.rexpr, t, declared));
    if (op === '+' || op === '-' || op === '*' || division) {
      if (op === '/') exact++;
      const mark: [number, string] = [e.location, `numx${op}`];
      marks.push(mark);
      const before = marks.length;
      if (!visit(e.lexpr)) return false;
      const left = marks.length === before ? scaleMark(e.lexpr) : '';
      const middle = marks.length;
      if (!visit(e.rexpr)) return false;
      const right = marks.length === middle ? scaleMark(e.rexpr) : '';
      if (left || right) mark[1] += `:${left}:${right}`;
      return true;
    }
    if (e?.kind === 'AEXPR_OP' && !e.lexpr && strings(e.name).pop() === '-') {
      // a sign: exact when what it negates has an exact part (`-avg(x) * 2`), as it is otherwise
      const before = marks.length;
      if (!visit(e.rexpr)) return false;
      if (marks.length > before) marks.push([e.location, 'numx-neg']);
      return true;
    }
    const f = n?.FuncCall;
    const power = (f && isNumericPower(f, t)) || (op === '^' && t.type(n) === OID.numeric);
    if (power) {
      // power(a, b) or a ^ b of numerics: exactly (src/engine/pg-exact-power.ts), an exact part itself
      exact++;
      const [a, b] = f ? f.args : [e.lexpr, e.rexpr];
      const mark: [number, string] = [f ? f.location : e.location, f ? 'numx-pow' : 'numx^'];
      marks.push(mark);
      const before = marks.length;
      if (!visit(a)) return false;
      const left = marks.length === before ? scaleMark(a) : '';
      const middle = marks.length;
      if (!visit(b)) return false;
      const right = marks.length === middle ? scaleMark(b) : '';
      if (left || right) mark[1] += `:${left}:${right}`;
      return true;
    }
    const logName = f && !f.over ? strings(f.funcname).pop()?.toLowerCase() : undefined;
    if (logName && EXACT_LOGS.has(logName) && f.args?.length >= 1 && t.type(n) === OID.numeric) {
      // exp, ln, log, log10, sqrt of a numeric: at PostgreSQL's scale and digits
      // (src/engine/pg-exact-logs.ts), an exact part itself; its arguments exactly where they can be
      exact++;
      marks.push([f.location, `numx-fn:${logName}`]);
      return f.args.every((a: Node) => visit(a));
    }
    if (f?.args?.length === 1 && !f.over && strings(f.funcname).pop()?.toLowerCase() === 'abs') {
      // abs of what has an exact part (`abs(avg(x) - x)`), exactly; as it is otherwise
      const before = marks.length;
      if (!visit(f.args[0])) return false;
      if (marks.length > before) marks.push([f.location, 'numx-abs']);
      return true;
    }
    if (isExactEpoch(n, t)) {
      exact++;
      marks.push([n.FuncCall.location, 'epoch-x']);
      return true;
    }
    const agg = exactAggregate(n, t);
    if (agg) {
      exact++;
      marks.push(...agg);
      return true;
    }
    if (n?.A_Const?.fval) {
      // (its text, which the exact functions read, an exponent too: 1e-1 is 0.1; a negative one
      // starts at its sign, a token apart in the text the locations are in: the number negated exactly)
      const negative = String(n.A_Const.fval.fval).startsWith('-');
      if (negative) marks.push([n.A_Const.location, 'numx-neg']);
      marks.push([n.A_Const.location + (negative ? 2 : 0), 'numx-lit']);
      return true;
    }
    // a string literal beside a numeric is one as PostgreSQL reads it ('2.5' ^ n): its digits as text
    if (n?.A_Const?.sval !== undefined) {
      const text = decimalText(n);
      if (text !== undefined) marks.push([n.A_Const.location, `str:${text}`]);
      return text !== undefined;
    }
    const type = typeOf(n, t, declared);
    return INTS.has(type) || type === OID.numeric || (type === 0 && n?.ParamRef !== undefined);
  };
  return visit(v) && (whole || exact > 0) && marks.some(([, k]) => k.startsWith('numx') && k !== 'numx-lit')
    ? marks
    : null;
}

/** The numeric functions computed exactly as PostgreSQL's (src/engine/pg-exact-logs.ts). */
const EXACT_LOGS = new Set(['exp', 'ln', 'log', 'log10', 'sqrt']);

/** power(a, b) or pow(a, b) that PostgreSQL resolves to numeric's (an operand numeric, none a double). */
function isNumericPower(f: Node, t: Typer): boolean {
  if (f.args?.length !== 2 || f.over || f.agg_star) return false;
  return /^pow(er)?$/.test(strings(f.funcname).pop()?.toLowerCase() ?? '') && t.type({ FuncCall: f }) === OID.numeric;
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

/** The functions to a whole number: of an exact value, it is read exactly (exactMarks). */
const WHOLE = new Set(['ceil', 'ceiling', 'floor']);

/** round(x, n) or trunc(x, n) with n a constant (also of one argument). */
function isRound(v: Node): boolean {
  const f = v?.FuncCall;
  const fn = f ? strings(f.funcname).pop()?.toLowerCase() : undefined;
  return (fn === 'round' || fn === 'trunc') && (f.args?.length === 1 || f.args?.[1]?.A_Const?.ival !== undefined);
}

/**
 * The marks that compute an expression exactly, as text with PostgreSQL's digits: a numeric division
 * ('num/x'), avg, stddev or variance of integers or numerics, extract(epoch ...), round or trunc of
 * one, or a tree of them (exactTree). Null for any other expression. Only where the value is not
 * compared or sorted inside SQLite (a result column, an operand made text), which would read the text.
 */
export function exactMarks(v: Node, t: Typer, declared: number[]): [number, string][] | null {
  const e = v?.A_Expr;
  if (e?.kind === 'AEXPR_OP' && e.lexpr && e.rexpr && strings(e.name).pop() === '/') {
    // (a string literal is read as the other side's type: '2.5' / n is numeric's)
    if (!numericDivision(operandType(e.lexpr, t, declared), operandType(e.rexpr, t, declared))) return null;
    // of an exact aggregate (`sum(extract(epoch from d)) / 60`, `avg(x) / 2`): all of it exactly
    if (exactAggregate(e.lexpr, t) || exactAggregate(e.rexpr, t)) return exactTree(v, t, declared);
    return [
      [e.location, 'num/x'],
      // (such a literal as its text, which keeps its scale: n / '0.10')
      ...[e.lexpr, e.rexpr]
        .filter((x) => decimalText(x) !== undefined)
        .map((x): [number, string] => [x.A_Const.location, `str:${decimalText(x)}`]),
      // extract(epoch ...) divided: its exact digits (`extract(epoch from d) / 60`)
      ...[e.lexpr, e.rexpr]
        .filter((x) => isExactEpoch(x, t))
        .map((x): [number, string] => [x.FuncCall.location, 'epoch-x']),
    ];
  }
  if (isExactEpoch(v, t)) return [[v.FuncCall.location, 'epoch-x']];
  const agg = exactAggregate(v, t);
  if (agg) return agg;
  const f = v?.FuncCall;
  if (f?.args?.length === 1 && !f.over && WHOLE.has(strings(f.funcname).pop()?.toLowerCase() ?? ''))
    // ceil(avg(x)): of the exact value (its double 1.0000000000000002 of 3 / 3 was ceiled to 2)
    return exactMarks(f.args[0], t, declared);
  if (isRound(v)) {
    // round(stddev(x), 2): rounds the exact value (its double could round the other way)
    const arg = v.FuncCall.args[0];
    return exactAggregate(arg, t) ?? exactTree(arg, t, declared);
  }
  return exactTree(v, t, declared);
}

/**
 * A choice whose numeric values keep their own scales (keepsOwnScales: `CASE WHEN f THEN 1e2 ELSE p
 * END` of a numeric(10,2) p) cast to text: each value handed over at its scale ('numx-at:s',
 * __pg_numeric_at), as PostgreSQL prints each (`100`, `2.50`; the cast printed all at the largest,
 * `100.00`); its marks into `late`. False for any other expression.
 */
export function ownScalesText(n: Node, typer: Typer, late: Map<number, string>): boolean {
  if (!keepsOwnScales(typer, n) || n.MinMaxExpr) return false;
  const values = (choiceValues(n) ?? []).filter((a) => !isNullValue(a));
  for (const a of values) late.set(orderMarkKey(firstLocation(a)), `numx-at:${scaleOf(typer, a)}`);
  return true;
}

/**
 * An avg, numeric division or tree of them (exactMarks) made text (`avg(x)::text`, `'n=' ||
 * avg(x)`, concat): computed exactly, as text with PostgreSQL's digits, wherever it is (text compares
 * as text in both); its marks into `late`.
 */
export function exactText(n: Node, typer: Typer, declared: number[], late: Map<number, string>): boolean {
  if (typer.type(n) !== OID.numeric) return false;
  const marks = exactMarks(n, typer, declared);
  for (const [at, kind] of marks ?? []) late.set(at, kind);
  // (round(avg(x), 2), ceil(avg(x)) made text print at their scale, as __pg_text's numeric kind does)
  const fn = n?.FuncCall ? strings(n.FuncCall.funcname).pop()?.toLowerCase() : undefined;
  return marks !== null && !['round', 'trunc', 'ceil', 'ceiling', 'floor'].includes(fn ?? '');
}

/**
 * A computed numeric written into a double precision or float4 column: PostgreSQL computes it as
 * numeric and then casts that to the column's type, so `0.1 + 0.2` is stored 0.3 and `power(2, 0.5)`
 * 1.414213562373095 (SQLite's doubles gave 0.30000000000000004 and 1.4142135623730951). The marks
 * that compute it exactly (exactMarks, or a tree of `+`, `-`, `*` of numerics without an exact part
 * too), as text that the column's REAL affinity reads as the nearest double; null for a value
 * that is no such tree (a column, a literal, a double's arithmetic).
 */
export function exactNumericMarks(v: Node, t: Typer, declared: number[]): [number, string][] | null {
  if (t.type(v) !== OID.numeric) return null;
  // (coalesce's, a CASE's, greatest's or least's values, each computed exactly where it is such a
  // tree: SQLite's coalesce and CASE pass the text on as they pass a double; greatest and least
  // compare the values as numbers, __pg_numeric_greatest)
  if (v?.CoalesceExpr || v?.CaseExpr || v?.MinMaxExpr) {
    const marks = (choiceValues(v) ?? []).flatMap((x) => exactNumericMarks(x, t, declared) ?? []);
    if (marks.length > 0 && v.MinMaxExpr)
      marks.push([v.MinMaxExpr.location, v.MinMaxExpr.op === 'IS_GREATEST' ? 'num-greatest' : 'num-least']);
    return marks.length > 0 ? marks : null;
  }
  return exactMarks(v, t, declared) ?? exactTree(v, t, declared, true);
}

const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);

/**
 * The comparisons of a HAVING clause (outside its subqueries) of a numeric, avg or division with a
 * numeric, an integer, a literal or a parameter (`HAVING avg(x) = 0.15`, `sum(x) / count(*) > 10`,
 * BETWEEN, an IN list): compared as PostgreSQL's numerics compare ('numx-cmp' on the operator,
 * 'numx-between' on BETWEEN, 'numx-in' on IN, __pg_numeric_cmp), an exact
 * side computed exactly (exactMarks), a decimal literal as text ('numx-lit'). The doubles told
 * 0.15000000000000002 from 0.15. Once per group, so the function's cost is no scan's.
 */
export function markExactComparisons(s: Node, t: Typer, declared: number[], out: Map<number, string>): void {
  const fits = (n: Node) => {
    const type = typeOf(n, t, declared);
    return type === OID.numeric || INTS.has(type) || n?.A_Const !== undefined || (type === 0 && n?.ParamRef);
  };
  const visit = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    const sub = n.SubLink;
    const query = sub?.subLinkType === 'ANY_SUBLINK' && !sub.operName ? sub.subselect?.SelectStmt : undefined;
    if (query && sub.testexpr && fits(sub.testexpr)) {
      // `avg(x) [NOT] IN (SELECT y ...)` of numerics: by each side's value at any scale
      // (__pg_numeric_key; the doubles told 0.15000000000000002 from 0.15), the subquery's own exact
      // columns exactly (the mark on IN, or NOT)
      const typerOf = (q: Node) => {
        const scope = new Map(t.scope);
        scopeOf(q.fromClause, scope, t.schema);
        return new Typer(t.schema, scope);
      };
      const cols = query.targetList && (!query.op || query.op === 'SETOP_NONE') ? query.targetList : null;
      const inner =
        cols?.length === 1
          ? typerOf(query).type(cols[0].ResTarget?.val)
          : (() => {
              const types = !cols ? selectTypes(query, t.schema) : null;
              return types?.length === 1 ? types[0].oid : 0;
            })();
      const outer = typeOf(sub.testexpr, t, declared);
      if ((inner === OID.numeric || INTS.has(inner)) && (outer === OID.numeric || inner === OID.numeric)) {
        out.set(sub.location, 'numx-in');
        const literal = sub.testexpr.A_Const?.fval ? String(sub.testexpr.A_Const.fval.fval) : undefined;
        if (literal !== undefined && !/e|^-/i.test(literal)) out.set(sub.testexpr.A_Const.location, 'numx-lit');
        for (const [at, kind] of exactMarks(sub.testexpr, t, declared) ?? []) out.set(at, kind);
        markExactColumns(query, typerOf, out, declared);
        return;
      }
    }
    if (n.SubLink || n.SelectStmt) return;
    const e = n.A_Expr;
    const op = e?.kind === 'AEXPR_OP' && e.lexpr && e.rexpr ? strings(e.name).pop() : undefined;
    const bounds: Node[] | undefined = /^AEXPR_(NOT_)?BETWEEN$/.test(e?.kind ?? '') ? e.rexpr?.List?.items : undefined;
    const list: Node[] | undefined = e?.kind === 'AEXPR_IN' ? e.rexpr?.List?.items : undefined;
    const sides: Node[] =
      op && COMPARISONS.has(op)
        ? [e.lexpr, e.rexpr]
        : (bounds?.length === 2 || list?.length) && e.lexpr
          ? [e.lexpr, ...(bounds ?? list ?? [])]
          : [];
    if (sides.length >= 2 && sides.every(fits) && sides.some((x) => typeOf(x, t, declared) === OID.numeric)) {
      // (BETWEEN's and IN's mark on their word, or NOT's of NOT BETWEEN and NOT IN)
      out.set(e.location, bounds ? 'numx-between' : list ? 'numx-in' : 'numx-cmp');
      for (const x of sides) {
        const literal = x.A_Const?.fval ? String(x.A_Const.fval.fval) : undefined;
        if (literal !== undefined && !/e|^-/i.test(literal)) out.set(x.A_Const.location, 'numx-lit');
        for (const [at, kind] of exactMarks(x, t, declared) ?? []) out.set(at, kind);
      }
      return;
    }
    for (const k in n) if (k !== 'location') visit(n[k]);
  };
  visit(s.havingClause);
}

/**
 * coalesce(x, ...) or a CASE whose values are exact expressions (exactMarks), integer and decimal
 * literals, NULL or other numerics and integers, one exact at least (`coalesce(avg(x), 0)`, what reports send for an empty group;
 * `CASE WHEN count(*) > 0 THEN avg(x) ELSE 0 END`): each exact part's marks, a decimal literal as
 * text ('numx-lit'). Null for any other expression.
 */
export function exactChoice(v: Node, t: Typer, declared: number[]): [number, string][] | null {
  // (a CASE's results, its conditions compare as they did; lag's and lead's value and default)
  const args = choiceValues(v);
  if (!args) return null;
  // (values of known scales that differ: each at its own, keepsOwnScales, as there)
  const own = keepsOwnScales(t, v);
  const marks: [number, string][] = [];
  let exact = false;
  for (const a of args) {
    const c = a?.A_Const;
    if (c?.ival !== undefined || c?.isnull) continue;
    if (c?.fval) {
      // (a negative one starts at its sign, an exponent has no digits to keep: not these)
      if (/e|^-/i.test(String(c.fval.fval))) {
        if (own) continue;
        return null;
      }
      marks.push([c.location, 'numx-lit']);
      continue;
    }
    const m = exactMarks(a, t, declared);
    if (m) {
      marks.push(...m);
      exact = true;
      continue;
    }
    // a plain numeric or integer (`ELSE n`, `coalesce(avg(n), n)`): as it is, a numeric of known scale
    // handed over at it ('numx-at:2' on its first token, translate/exact-order.ts: SQLite holds 0.10 as 0.1)
    const type = typeOf(a, t, declared);
    if (INTS.has(type)) continue;
    if (type !== OID.numeric) return null;
    const scale = scaleOf(t, a);
    if (scale !== undefined) marks.push([orderMarkKey(firstLocation(a)), `numx-at:${scale}`]);
  }
  // (greatest and least compare the values, some of them text now: translate/greatest-least.ts)
  if ((exact || own) && v.MinMaxExpr)
    marks.push([v.MinMaxExpr.location, v.MinMaxExpr.op === 'IS_GREATEST' ? 'num-greatest' : 'num-least']);
  return exact || own ? marks : null;
}

/** What an INSERT's column takes a set operation's numeric as (set-assignments.ts): its text, or a double. */
export type SetTarget = 'text' | 'real';

/** PostgreSQL's name of a select item: its alias, else the figured one (column-names.ts). */
function itemName(r: Node): string {
  return r?.name ?? figuredName(r?.val);
}

/**
 * A result column of the statement's own SELECT that is a numeric division, avg, stddev or variance
 * of integers or numerics itself, or a tree of them (exactTree), also under DISTINCT: 'num/x',
 * 'avg-x' and 'stat-x', computed exactly and handed to
 * the client as text (src/engine/pg-exact-division.ts, pg-exact-statistics.ts), with PostgreSQL's digits. An ORDER BY naming such a column
 * by its alias sorts by its number ('num-order': SQLite would sort the text); one naming it by
 * position ('num-order:name' on the position) by the item's name, which an item without an alias is
 * given ('num-alias:name' on its first token: PostgreSQL's own name for it, `avg`, `?column?`). Where
 * that name would not be the item's alone (another item, or a column of the schema, has it) the
 * column stays a double, as it does in a set operation. A SELECT that only passes a subquery's
 * columns on keeps the subquery's exact (markPassedThrough). The names of the exact columns.
 */
export function markExactColumns(
  s: Node,
  typerOf: (select: Node) => Typer,
  out: Map<number, string>,
  declared: number[] = [],
): Set<string> {
  const exact = new Set<string>();
  // (SELECT DISTINCT compares the texts, which for one number are one text: exact values of equal
  // numbers carry the same scale; DISTINCT ON picks rows by its keys, which are not marked)
  if (s?.op && s.op !== 'SETOP_NONE') return markSetOperation(s, typerOf, out, declared);
  if (!s?.targetList || (s.op && s.op !== 'SETOP_NONE')) return exact;
  const inner = passedThrough(s);
  if (inner) return markPassedThrough(s, inner, typerOf, out, declared);
  const joined = joinedThrough(s);
  if (joined) return markJoinedThrough(s, joined, typerOf, out, declared);
  const t = typerOf(s);
  const distinctOn = s.distinctClause?.some((k: Node) => Object.keys(k).length > 0);
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
    // (DISTINCT ON's rewrite reads its ORDER BY positions itself: such an item stays as it was)
    if (byPosition.length > 0 && distinctOn) return;
    if (byPosition.length > 0 && taken(own)) {
      if (name) return;
      own = `__pg_exact_${k + 1}`;
    }
    const marks = exactMarks(v, t, declared) ?? exactChoice(v, t, declared) ?? scalarSubquery(v, typerOf, declared);
    if (!marks) return;
    // (an unnamed item ORDER BY names, `ORDER BY avg`, has that name as its alias: sql/figured-aliases.ts)
    const byName = sorts.filter((n) => n?.ColumnRef?.fields?.length === 1);
    const sortedAs = name ?? itemName(item.ResTarget);
    for (const [at, kind] of marks) out.set(at, kind);
    exact.add(itemName(item.ResTarget).toLowerCase());
    for (const n of byName) if (strings(n.ColumnRef.fields)[0] === sortedAs) out.set(n.ColumnRef.location, 'num-order');
    if (byPosition.length === 0) return;
    if (!name) out.set(orderMarkKey(item.ResTarget.location), `num-alias:${own}`);
    for (const n of byPosition) out.set(orderMarkKey(n.A_Const.location), `num-order:${own}`);
  });
  return exact;
}

/**
 * A scalar subquery that is the item itself (`SELECT (SELECT avg(price) FROM t)`, a BI tool's
 * overall average beside the groups'): its one column's marks when that column is exact there,
 * whose text the item then hands on; null otherwise.
 */
function scalarSubquery(v: Node, typerOf: (select: Node) => Typer, declared: number[]): [number, string][] | null {
  const sub = v?.SubLink?.subLinkType === 'EXPR_SUBLINK' ? v.SubLink.subselect?.SelectStmt : undefined;
  if (sub?.targetList?.length !== 1) return null;
  const marks = new Map<number, string>();
  const exact = markExactColumns(sub, typerOf, marks, declared);
  return exact.has(itemName(sub.targetList[0].ResTarget).toLowerCase()) ? [...marks] : null;
}

/**
 * The subquery a SELECT passes on as it is (`SELECT * FROM (...) s`, `SELECT a, b FROM (...) s`, a
 * WHERE, ORDER BY and LIMIT of its own): its one FROM item, a subquery of no WITH clause, and no
 * grouping, DISTINCT or window; undefined for any other SELECT.
 */
function passedThrough(s: Node): Node | undefined {
  const from = s.fromClause?.length === 1 ? s.fromClause[0].RangeSubselect : undefined;
  // (an alias naming the columns, `AS s(q, a)`, renames them: not these)
  const inner =
    from && !from.lateral && !from.alias?.colnames ? from.subquery?.SelectStmt : withQueryRead(s, s.fromClause);
  if (!inner || inner.withClause || s.groupClause || s.havingClause || s.distinctClause || s.windowClause) return;
  const plain = (s.targetList as Node[]).every(
    (x) => x.ResTarget?.val?.ColumnRef || builderOfColumns(x.ResTarget?.val),
  );
  return plain ? inner : undefined;
}

/**
 * The query of the statement's WITH query that is its one FROM item (`WITH w AS (SELECT avg(x) AS a
 * ...) SELECT a FROM w`), when nothing else in the statement reads it (another read would see its
 * exact columns' text) and it is not recursive, renamed by a column list, or data-modifying.
 */
function withQueryRead(s: Node, from: Node[] | undefined): Node | undefined {
  const ref = from?.length === 1 ? from[0].RangeVar : undefined;
  if (!ref || ref.schemaname || !s.withClause || s.withClause.recursive) return undefined;
  const name = String(ref.relname).toLowerCase();
  const cte = (s.withClause.ctes as Node[])
    .map((c) => c.CommonTableExpr)
    .find((c) => String(c?.ctename).toLowerCase() === name);
  if (!cte || cte.aliascolnames?.length || !cte.ctequery?.SelectStmt) return undefined;
  return relationReads(s, name) === 1 ? cte.ctequery.SelectStmt : undefined;
}

/** How many FROM items of a tree name a relation (a table or a WITH query) `name`. */
function relationReads(n: Node, name: string): number {
  if (n === null || typeof n !== 'object') return 0;
  if (Array.isArray(n)) return n.reduce((k: number, x: Node) => k + relationReads(x, name), 0);
  let k = n.RangeVar && !n.RangeVar.schemaname && String(n.RangeVar.relname).toLowerCase() === name ? 1 : 0;
  for (const key in n) if (key !== 'location') k += relationReads(n[key], name);
  return k;
}

/** JSON builders, which put a subquery's exact column in as its text's digits (json-builders.ts's `{}`). */
const JSON_BUILDERS = new Set([
  'json_build_object', 'jsonb_build_object', 'json_build_array', 'jsonb_build_array', 'row_to_json', 'to_json',
  'to_jsonb', 'json_agg', 'jsonb_agg',
]); // biome-ignore format: a word list

/**
 * A JSON builder of column references, a whole row and constants (`row_to_json(s)`, `json_agg(s
 * ORDER BY s.id)`, `json_build_object('a', s.a)`): it reads a passed-through subquery's exact columns
 * as the values they are (PostgreSQL's numeric digits, 6.2500000000000000 where the double printed 6.25).
 */
function builderOfColumns(v: Node): boolean {
  const f = v?.FuncCall;
  const name = f ? strings(f.funcname).pop()?.toLowerCase() : undefined;
  if (!f || !name || !JSON_BUILDERS.has(name) || f.over || f.agg_filter || f.agg_distinct || f.func_variadic)
    return false;
  return (f.args ?? []).every((a: Node) => a.ColumnRef || (a.A_Const && !a.A_Const.isnull));
}

/** The column names a tree refers to (the last field of each reference), outside subqueries. */
function namesIn(n: Node, into: Set<string>): Set<string> {
  if (n === null || typeof n !== 'object') return into;
  if (Array.isArray(n)) {
    for (const x of n) namesIn(x, into);
    return into;
  }
  const last = n.ColumnRef?.fields?.[n.ColumnRef.fields.length - 1];
  if (last?.String) into.add(String(last.String.sval).toLowerCase());
  for (const k in n) if (k !== 'location') namesIn(n[k], into);
  return into;
}

/** The column references of a tree outside its subqueries. */
function refsIn(n: Node, into: Node[]): Node[] {
  if (n === null || typeof n !== 'object') return into;
  if (Array.isArray(n)) {
    for (const x of n) refsIn(x, into);
    return into;
  }
  if (n.SubLink || n.SelectStmt) return into;
  if (n.ColumnRef) into.push(n.ColumnRef);
  for (const k in n) if (k !== 'location') refsIn(n[k], into);
  return into;
}

/** The names the subqueries of a tree refer to. */
function namesInSubqueries(n: Node, into: Set<string>): Set<string> {
  if (n === null || typeof n !== 'object') return into;
  if (Array.isArray(n)) {
    for (const x of n) namesInSubqueries(x, into);
    return into;
  }
  if (n.SubLink || n.SelectStmt) return namesIn(n, into);
  for (const k in n) if (k !== 'location') namesInSubqueries(n[k], into);
  return into;
}

/** A column a SELECT yields: the name SQLite gives it (null: its text), and whether it is exact. */
interface Yielded {
  sqlite: string | null;
  exact: boolean;
}

/**
 * A SELECT that passes a subquery's columns on: the subquery's exact columns stay exact through it
 * when it hands them on, compares them by their bare name in its WHERE, or sorts by them (by name or
 * position: 'num-order', by their number, NaN above all). Where it reads them otherwise (a qualified
 * name in WHERE, a subquery, an ORDER BY expression, a position naming an item SQLite names by its
 * text) they stay doubles. Its exact columns' names.
 */
function markPassedThrough(
  s: Node,
  inner: Node,
  typerOf: (select: Node) => Typer,
  out: Map<number, string>,
  declared: number[],
): Set<string> {
  const marks = new Map<number, string>();
  const innerExact = markExactColumns(inner, typerOf, marks, declared);
  const none = new Set<string>();
  if (innerExact.size === 0) return none;
  const last = (fields: Node[]) => fields[fields.length - 1];
  const isExact = (name: unknown) => innerExact.has(String(name).toLowerCase());
  const sorts: Node[] = (s.sortClause ?? []).map((x: Node) => x.SortBy?.node);
  const byName = sorts.filter((n) => n?.ColumnRef?.fields?.length === 1 && n.ColumnRef.fields[0].String);
  const byPosition = sorts.filter((n) => n?.A_Const?.ival !== undefined);
  const otherSorts = sorts.filter((n) => !byName.includes(n) && !byPosition.includes(n));
  // read in its WHERE or an ORDER BY expression, by the bare name or the subquery's (`s.a`): read
  // as their numbers (their doubles, as before they were exact), NaN above all
  const item = s.fromClause[0];
  const alias = item.RangeSubselect
    ? item.RangeSubselect.alias?.aliasname
    : (item.RangeVar.alias?.aliasname ?? item.RangeVar.relname);
  // (and a builder's ORDER BY, `json_agg(s ORDER BY s.a)`: by their numbers, not their text)
  const builderSorts = (s.targetList as Node[]).map((x) => x.ResTarget?.val?.FuncCall?.agg_order ?? null);
  const compared = refsIn([s.whereClause, otherSorts, builderSorts], []).filter((r) =>
    isExact(last(r.fields)?.String?.sval),
  );
  const elsewhere = namesInSubqueries([s.whereClause, otherSorts, builderSorts], new Set());
  const ours = (r: Node) => r.fields.length === 1 || (r.fields.length === 2 && r.fields[0].String?.sval === alias);
  if (!compared.every(ours) || [...innerExact].some((x) => elsewhere.has(x))) return none;
  // the subquery's columns, then the statement's, as SQLite names them (to sort by position)
  // (of a set operation, its first member's, which name its columns)
  let head = inner;
  while (head?.op && head.op !== 'SETOP_NONE') head = head.larg;
  let inside: Yielded[] | null = head?.targetList ? [] : null;
  for (const item of (head?.targetList ?? []) as Node[]) {
    const r = item.ResTarget;
    const fields: Node[] | undefined = r?.val?.ColumnRef?.fields;
    if (!r || fields?.some((f) => f.A_Star)) inside = null;
    if (!r || !inside) break;
    const column = fields ? last(fields)?.String?.sval : undefined;
    inside.push({ sqlite: r.name ?? (column === undefined ? null : String(column)), exact: isExact(itemName(r)) });
  }
  const exact = new Set<string>();
  let yielded: Yielded[] | null = [];
  for (const item of s.targetList as Node[]) {
    const builder = item.ResTarget.val.FuncCall;
    if (builder) {
      yielded?.push({ sqlite: null, exact: false });
      continue;
    }
    const fields: Node[] = item.ResTarget.val.ColumnRef.fields;
    if (last(fields).A_Star) {
      for (const x of innerExact) exact.add(x);
      yielded = yielded && inside ? [...yielded, ...inside] : null;
      continue;
    }
    const name = String(item.ResTarget.name ?? last(fields).String.sval);
    const on = isExact(last(fields).String.sval);
    if (on) exact.add(name.toLowerCase());
    yielded?.push({ sqlite: name, exact: on });
  }
  const positions: [Node, string][] = [];
  for (const n of byPosition) {
    if (!yielded) return none;
    const col = yielded[n.A_Const.ival.ival - 1];
    if (col?.exact && !col.sqlite) return none;
    if (col?.exact && col.sqlite) positions.push([n, col.sqlite]);
  }
  for (const [at, kind] of marks) out.set(at, kind);
  for (const n of byName) {
    const name = String(n.ColumnRef.fields[0].String.sval);
    if (isExact(name) || exact.has(name.toLowerCase())) out.set(n.ColumnRef.location, 'num-order');
  }
  for (const r of compared) out.set(r.location, 'num-order');
  for (const [n, name] of positions) out.set(orderMarkKey(n.A_Const.location), `num-order:${name}`);
  return exact;
}

/**
 * A SELECT that passes on columns of a join of one subquery with tables (`SELECT s.a, m.id FROM
 * (...) s JOIN m USING (q)`, `SELECT * FROM (...) s, m WHERE ...`): only column references in its
 * list, no grouping, DISTINCT or window. The subquery and its alias; undefined for any other SELECT.
 */
function joinedThrough(s: Node): { inner: Node; alias: string; items: Node[] } | undefined {
  if (!s.fromClause?.length || s.groupClause || s.havingClause || s.distinctClause || s.windowClause) return;
  const items: Node[] = [];
  const flat = (f: Node): boolean => {
    if (f.JoinExpr) return !f.JoinExpr.alias && flat(f.JoinExpr.larg) && flat(f.JoinExpr.rarg);
    items.push(f);
    return !!f.RangeVar || !!f.RangeSubselect;
  };
  if (!(s.fromClause as Node[]).every(flat)) return;
  const subs = items.filter((f) => f.RangeSubselect);
  const from = subs.length === 1 && items.length > 1 ? subs[0].RangeSubselect : undefined;
  const inner = from && !from.lateral && from.alias && !from.alias.colnames ? from.subquery?.SelectStmt : undefined;
  if (!inner || inner.withClause) return;
  if (!(s.targetList as Node[]).every((x) => x.ResTarget?.val?.ColumnRef)) return;
  return { inner, alias: String(from.alias.aliasname).toLowerCase(), items };
}

/** The ON conditions and USING names of a FROM list's joins, and whether one is NATURAL. */
function joinConditions(from: Node[], into: Node[]): boolean {
  let natural = false;
  for (const f of from) {
    const j = f.JoinExpr;
    if (!j) continue;
    natural ||= !!j.isNatural;
    into.push(j.quals ?? null, j.usingClause ?? null);
    natural = joinConditions([j.larg, j.rarg], into) || natural;
  }
  return natural;
}

/** The join types of a FROM list's joins whose USING list names `name`. */
function usingJoins(from: Node[], name: string): string[] {
  const out: string[] = [];
  const visit = (f: Node) => {
    const j = f?.JoinExpr;
    if (!j) return;
    if (strings(j.usingClause ?? []).some((x) => x.toLowerCase() === name)) out.push(j.jointype);
    visit(j.larg);
    visit(j.rarg);
  };
  for (const f of from) visit(f);
  return out;
}

/**
 * A SELECT that passes on columns of a join of a subquery (joinedThrough): the subquery's exact
 * columns stay exact through it when it only hands them on (`*`, `s.*`, `s.a`, a bare `a` no table
 * of the join has). Where it reads them otherwise (in a join's condition or USING list, a NATURAL
 * join, its WHERE, ORDER BY or LIMIT, a sort by position) they stay doubles. Its exact columns' names.
 */
function markJoinedThrough(
  s: Node,
  joined: { inner: Node; alias: string; items: Node[] },
  typerOf: (select: Node) => Typer,
  out: Map<number, string>,
  declared: number[],
): Set<string> {
  const none = new Set<string>();
  const marks = new Map<number, string>();
  const innerExact = markExactColumns(joined.inner, typerOf, marks, declared);
  if (innerExact.size === 0) return none;
  const conditions: Node[] = [];
  if (joinConditions(s.fromClause, conditions)) return none;
  const t = typerOf(s);
  const sorts: Node[] = (s.sortClause ?? []).map((x: Node) => x.SortBy?.node);
  // sorted by or compared in WHERE by their bare name: by their number ('num-order')
  const bare = (n: Node) => n?.ColumnRef?.fields?.length === 1 && n.ColumnRef.fields[0].String;
  const byName = sorts.filter((n) => bare(n));
  const otherSorts = sorts.filter((n) => !byName.includes(n));
  // read in its WHERE, a join's ON condition or an ORDER BY expression, by the bare name or the
  // subquery's (`s.a`, `ON s.a > m.n`): read as their numbers (their doubles, as before), NaN above all
  const compared = refsIn([s.whereClause, otherSorts, conditions], []).filter((r) =>
    r.fields.every((f: Node) => f.String),
  );
  const tables = joined.items.filter((f) => f.RangeVar);
  const tableColumn = (f: Node, name: string): number | undefined => {
    const x = t.scope.get(String(f.RangeVar.alias?.aliasname ?? f.RangeVar.relname).toLowerCase());
    const cols = Array.isArray(x)
      ? x
      : x
        ? t.schema.tables.get(x)?.columns.map((c) => ({ name: c.name, oid: oidOfDeclType(c.type) }))
        : undefined;
    return cols === undefined ? 0 : cols.find((c) => c.name.toLowerCase() === name)?.oid;
  };
  // a USING name of an exact column joined with tables' numeric or integer columns (of an inner or
  // left join, whose merged column is the left side's): SQLite compares the exact text with such a
  // column by its number (the column's numeric affinity), as PostgreSQL compares numerics
  // (the merged column read by its bare name is of no one source's type here: not these)
  const bareInList = (name: string) =>
    (s.targetList as Node[]).some((x) => {
      const f = x.ResTarget?.val?.ColumnRef?.fields;
      return f?.length === 1 && String(f[0].String?.sval).toLowerCase() === name;
    });
  const byValue = (name: string) =>
    !bareInList(name) &&
    usingJoins(s.fromClause, name).every((j) => j === 'JOIN_INNER' || j === 'JOIN_LEFT') &&
    tables.every((f) => {
      const oid = tableColumn(f, name);
      return oid === undefined || oid === OID.numeric || INTS.has(oid);
    }) &&
    tables.some((f) => tableColumn(f, name) !== undefined);
  const using = conditions
    .filter(Array.isArray)
    .flatMap((u: Node[]) => u.map((x) => String(x.String?.sval).toLowerCase()))
    .filter((x) => !innerExact.has(x) || !byValue(x));
  const read = namesIn(
    s.limitCount ?? null,
    namesInSubqueries([s.whereClause, otherSorts, conditions], new Set(using)),
  );
  if ([...innerExact].some((x) => read.has(x)) || sorts.some((n) => n?.A_Const)) return none;
  const inTable = (name: string) =>
    tables.some((f) => {
      const alias = String(f.RangeVar.alias?.aliasname ?? f.RangeVar.relname).toLowerCase();
      const x = t.scope.get(alias);
      const cols = Array.isArray(x) ? x : x ? t.schema.tables.get(x)?.columns : undefined;
      return cols === undefined || cols.some((c) => c.name.toLowerCase() === name);
    });
  const exact = new Set<string>();
  for (const item of s.targetList as Node[]) {
    const fields: Node[] = item.ResTarget.val.ColumnRef.fields;
    const last = fields[fields.length - 1];
    const source = fields.length === 2 ? String(fields[0].String?.sval).toLowerCase() : undefined;
    if (last.A_Star) {
      if (fields.length === 1 || source === joined.alias) for (const x of innerExact) exact.add(x);
      continue;
    }
    const column = String(last.String?.sval).toLowerCase();
    const ours = fields.length === 1 ? !inTable(column) : fields.length === 2 && source === joined.alias;
    if (ours && innerExact.has(column)) exact.add(String(item.ResTarget.name ?? column).toLowerCase());
  }
  const ours = (name: unknown) => innerExact.has(String(name).toLowerCase()) && !inTable(String(name).toLowerCase());
  const lastName = (r: Node) => String(r.fields[r.fields.length - 1].String.sval).toLowerCase();
  // a bare name of an exact column a table of the join also has: PostgreSQL's error, SQLite's
  const bareRefs = [...byName.map((n) => n.ColumnRef), ...compared.filter((r) => r.fields.length === 1)];
  if (bareRefs.some((r) => innerExact.has(lastName(r)) && !ours(lastName(r)))) return none;
  // (a name qualified by the subquery's alias is its column; by another's, not)
  const qualified = compared.filter(
    (r) => r.fields.length === 2 && String(r.fields[0].String.sval).toLowerCase() === joined.alias,
  );
  if (compared.some((r) => r.fields.length > 2 && innerExact.has(lastName(r)))) return none;
  for (const [at, kind] of marks) out.set(at, kind);
  for (const n of byName)
    if (ours(n.ColumnRef.fields[0].String.sval) || exact.has(String(n.ColumnRef.fields[0].String.sval).toLowerCase()))
      out.set(n.ColumnRef.location, 'num-order');
  for (const r of compared) if (r.fields.length === 1 && ours(lastName(r))) out.set(r.location, 'num-order');
  for (const r of qualified) if (innerExact.has(lastName(r))) out.set(r.location, 'num-order');
  return exact;
}

/**
 * A set operation (UNION, UNION ALL, INTERSECT, EXCEPT, a chain of them) of plain SELECTs: a column
 * exact in one member at least, of numerics or integers in all (`SELECT avg(n) ... UNION SELECT 1`),
 * passes each member's values as they are (exact ones as text). A UNION (a chain of UNIONs whose
 * last is not ALL), or an INTERSECT or EXCEPT of two members, compares such a column by its number
 * (__pg_numeric_key: `1.50` and `1.5000` are one row, the first seen, as PostgreSQL's hashing keeps
 * it), and an ORDER BY of one sorts by its number: the operation in a subquery
 * (translate/interval-distinct.ts's 'iv-union:', kind 'x'), its first member's unnamed items named
 * for it. Where a member's column is a double (PostgreSQL's column is float8 then) all stay doubles.
 * The first member's exact names.
 */
export function markSetOperation(
  s: Node,
  typerOf: (select: Node) => Typer,
  out: Map<number, string>,
  declared: number[],
  into?: readonly (SetTarget | undefined)[],
): Set<string> {
  const none = new Set<string>();
  const members: Node[] = [];
  const ops: Node[] = [];
  for (let x = s; x; x = x.larg) {
    if (!x.op || x.op === 'SETOP_NONE') {
      members.unshift(x);
      break;
    }
    if (x.rarg?.op !== 'SETOP_NONE') return none;
    members.unshift(x.rarg);
    ops.unshift(x);
  }
  if (members.some((b) => !b?.targetList || b.sortClause || b.limitCount || b.limitOffset)) return none;
  const marks = new Map<number, string>();
  // each item alone (a member's names need not be its own: `?column?` twice); `into`, an INSERT's:
  // only a column written into a string or double column, the latter's any computed numeric too
  const exactAt = members.map((b) =>
    (b.targetList as Node[]).map((item, k) => {
      if (into && !into[k]) return 0;
      const real = into?.[k] === 'real' ? exactNumericMarks(item.ResTarget?.val, typerOf(b), declared) : null;
      for (const [at, kind] of real ?? []) marks.set(at, kind);
      if (real) return 1;
      return markExactColumns({ ...b, targetList: [item] }, typerOf, marks, declared).size > 0 ? 1 : 0;
    }),
  );
  const [first] = exactAt;
  if (exactAt.some((e) => e.length !== first.length)) return none;
  // a column exact somewhere: numerics, integers or NULL in every member
  const typeAt = (b: Node, k: number) => {
    const v = b.targetList[k]?.ResTarget?.val;
    return v?.A_Const?.isnull ? OID.numeric : typerOf(b).type(v);
  };
  const numeric = (b: Node, k: number) => typeAt(b, k) === OID.numeric || INTS.has(typeAt(b, k));
  // (with a double among them PostgreSQL's column is float8, an exact value converted to it: the exact
  // one made a double by JavaScript's correctly rounded reading, 'numx-real', not SQLite's sum
  // divided: 10.863333333333333, not 10.863333333333332)
  const toReal = first.map(
    (_, k) =>
      exactAt.some((e) => e[k] === 1) &&
      members.every((b) => numeric(b, k) || FLOATS.has(typeAt(b, k))) &&
      (into?.[k] === 'real' || members.some((b) => FLOATS.has(typeAt(b, k)))),
  );
  const exactSomewhere = first.map((_, k) => !toReal[k] && exactAt.some((e) => e[k] === 1));
  if (first.some((_, k) => exactAt.some((e) => e[k] === 1) && !toReal[k] && !members.every((b) => numeric(b, k))))
    return none;
  members.forEach((b, m) =>
    (b.targetList as Node[]).forEach((item, k) => {
      if (toReal[k] && exactAt[m][k] === 1) marks.set(orderMarkKey(firstLocation(item.ResTarget.val)), 'numx-real');
    }),
  );
  for (const e of exactAt) e.forEach((_, k) => toReal[k] && (e[k] = 0));
  // a numeric of known scale beside exact values or values of other scales (`n + 1 UNION SELECT x`
  // of a numeric(10,2) n): its text at that scale ('numx-at:s', __pg_numeric_at), as PostgreSQL
  // prints each value at its own (13.50; SQLite holds 13.5), the column then compared as exact ones
  const scaleAt = members.map((b) =>
    (b.targetList as Node[]).map((item) => {
      const v = item.ResTarget?.val;
      return v && typerOf(b).type(v) === OID.numeric ? scaleOf(typerOf(b), v) : undefined;
    }),
  );
  // (into a string column at a scale of 0 too: SQLite's REAL of 1e3 is the text 1000.0)
  const atScale = (m: number, k: number) =>
    exactAt[m][k] === 0 && (into ? into[k] === 'text' && scaleAt[m][k] !== undefined : (scaleAt[m][k] ?? 0) > 0);
  const scaled = first.map((_, k) => {
    if (!members.every((b) => numeric(b, k)) || !members.some((_b, m) => atScale(m, k))) return false;
    const scales = scaleAt.map((x) => x[k]);
    return exactSomewhere[k] || !scales.every((x) => x !== undefined && x === scales[0]);
  });
  const anyExact = first.map((_, k) => exactSomewhere[k] || scaled[k]);
  if (!anyExact.includes(true)) {
    // (only doubles made of exact values)
    if (toReal.includes(true)) for (const [at, kind] of marks) out.set(at, kind);
    return none;
  }
  const group = s.op === 'SETOP_UNION' && !s.all && ops.every((x) => x.op === 'SETOP_UNION');
  const pair = (s.op === 'SETOP_INTERSECT' || s.op === 'SETOP_EXCEPT') && !s.all && members.length === 2;
  // another chain that tells rows apart (`A UNION B UNION ALL C`): the texts, where the members it
  // compares (those up to its last UNION, INTERSECT or EXCEPT; the rest are only appended) are exact
  // alike, and hold a numeric of known scale in a column only at one scale, where texts compare as
  // the numbers do (`1.50 UNION 2.50 UNION ALL 1e3` into a string column is 1.50, 2.50, 1000)
  const compared = ops.reduce((n, x, j) => (x.all ? n : j + 2), 0);
  const alike = exactAt.slice(0, compared).every((e) => e.every((x, k) => x === first[k]));
  const oneScale = (k: number) =>
    exactAt.slice(0, compared).every((e) => e[k] === 1) ||
    scaleAt.slice(0, compared).every((x, m) => exactAt[m][k] === 0 && x[k] !== undefined && x[k] === scaleAt[0][k]);
  if (compared > 0 && !group && !pair && (!alike || scaled.some((x, k) => x && !oneScale(k)))) return none;
  const items = (members[0].targetList as Node[]).map((x) => x.ResTarget);
  const names = items.map((r) => itemName(r).toLowerCase());
  const exact = new Set(names.filter((_, k) => anyExact[k]));
  // (the first member's in the operation's mark where it has one, as its first item's token holds it)
  const scaleMarks = (from: number) => {
    members.forEach((b, m) => {
      if (m < from) return;
      (b.targetList as Node[]).forEach((item, k) => {
        if (!scaled[k] || !atScale(m, k)) return;
        const r = item.ResTarget;
        // (a bare column keeps its name, which SQLite would take from the call)
        const name = m === 0 && !r.name && r.val?.ColumnRef ? `:${strings(r.val.ColumnRef.fields).pop()}` : '';
        marks.set(orderMarkKey(firstLocation(r.val)), `numx-at:${scaleAt[m][k]}${name}`);
      });
    });
  };
  let sorted = false;
  for (const x of s.sortClause ?? []) {
    const n = x.SortBy?.node;
    const position = n?.A_Const?.ival ? (n.A_Const.ival.ival ?? 0) : undefined;
    if (position !== undefined ? anyExact[position - 1] : [...namesIn(n, new Set())].some((y) => exact.has(y)))
      sorted = true;
    else if (position === undefined && namesIn(n, new Set()).size === 0) return none;
  }
  // (an EXCEPT ALL or INTERSECT ALL matches such a column's copies by the mark's kinds too:
  // translate/multiset-keys.ts)
  const multiset = ops.some((x) => x.all && x.op !== 'SETOP_UNION');
  if (sorted || group || pair || multiset) {
    // the operation in a subquery grouped and sorted by the exact columns' numbers (translate/
    // interval-distinct.ts's 'iv-union:', 'x' for such a column), SQLite naming its columns by the
    // first member's: an item without a name of its own is given PostgreSQL's (null: the rewrite
    // adds it), or a private one where two would have one
    const own = items.map((r) => r?.name ?? (r?.val?.ColumnRef ? strings(r.val.ColumnRef.fields).pop() : undefined));
    const given = own.map(
      (x, k) => x ?? (names.filter((y) => y === names[k]).length === 1 ? itemName(items[k]) : `__pg_c${k + 1}`),
    );
    const at = orderMarkKey(firstLocation(items[0]?.val));
    if (new Set(given.map((x) => x.toLowerCase())).size !== given.length || out.has(at)) return none;
    const mode = group ? 'g' : pair ? (s.op === 'SETOP_INTERSECT' ? 'x' : 'e') : 's';
    // (an item handed over at its scale: { as, at }, made a double: { as, real }, its alias replaced;
    // the first member's in this mark, as its first item's token holds it)
    const real = items.map((r, k) => toReal[k] && marks.get(orderMarkKey(firstLocation(r.val))) === 'numx-real');
    items.forEach((r, k) => real[k] && marks.delete(orderMarkKey(firstLocation(r.val))));
    const list = given.map((x, k) =>
      real[k]
        ? { as: x, real: true }
        : scaled[k] && atScale(0, k)
          ? { as: x, at: scaleAt[0][k] }
          : own[k] === undefined
            ? { as: x }
            : x,
    );
    out.set(at, `iv-union:${mode}${anyExact.map((e) => (e ? 'x' : 'n')).join('')}:${JSON.stringify(list)}`);
    scaleMarks(1);
  } else scaleMarks(0);
  for (const [at, kind] of marks) out.set(at, kind);
  return exact;
}
