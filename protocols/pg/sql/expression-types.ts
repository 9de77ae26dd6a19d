// The type and name of an expression of PostgreSQL's parse tree, over the schema: columns through
// the FROM list's sources (tables, subqueries, VALUES lists, generate_series), literals, casts,
// operators (the date and time ones as typed-operators.ts resolves them), functions, CASE and
// COALESCE; and the columns of a SELECT's list. 0 where the tree does not tell.
import type { Schema } from '../../../src/engine/schema/model';
import { OID, oidOfDeclType } from '../types/oids';
import { arrayOidOf, elementOidOf } from '../types/registry';
import type { ResultColumn } from './result-types';
import {
  FIXED,
  ONE_COLUMN_SET_RETURNING,
  FLOATS,
  BOOL_OPERATORS,
  INTS,
  MATH_FUNCTIONS,
  mathResult,
  SQL_VALUE_FUNCTIONS,
  isNumber,
  promote,
  strings,
  typeDisplayName,
  typeNameOid,
} from './type-signatures';
import { dateOperator, untyped } from './typed-operators';
import { castTypmod, scaleOf } from './numeric-scale';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/**
 * The sources of a FROM list: alias (or name) → a table name (lower case), or the columns of a
 * subquery or VALUES list in FROM (`(VALUES (1, 'a')) AS v(n, s)`), typed as PostgreSQL types them.
 */
export type Scope = Map<string, string | ResultColumn[]>;

export function scopeOf(from: Node[] | undefined, scope: Scope, schema: Schema, ctes: Ctes = NO_CTES): void {
  for (const f of from ?? []) {
    if (f.RangeVar) {
      const rel = String(f.RangeVar.relname).toLowerCase();
      // a WITH query's name (unqualified) is that query's columns
      const cte = f.RangeVar.schemaname ? undefined : ctes.get(rel);
      scope.set((f.RangeVar.alias?.aliasname ?? rel).toLowerCase(), cte ?? rel);
    } else if (f.JoinExpr) scopeOf([f.JoinExpr.larg, f.JoinExpr.rarg], scope, schema, ctes);
    else if (f.RangeFunction && !f.RangeFunction.ordinality && f.RangeFunction.functions?.length === 1) {
      // FROM generate_series(1, 10) [AS g [(x)]], FROM unnest(array): one column, named by the alias or the function
      const call = f.RangeFunction.functions[0]?.List?.items?.[0]?.FuncCall;
      const fn = strings(call?.funcname).pop()?.toLowerCase();
      const each = fn && /^jsonb?_each(_text)?$/.exec(fn);
      if (each) {
        // FROM jsonb_each(x) [AS e]: key text, value jsonb (json, text)
        const value = each[1] ? OID.text : fn.startsWith('jsonb') ? OID.jsonb : OID.json;
        scope.set(String(f.RangeFunction.alias?.aliasname ?? fn).toLowerCase(), [
          { name: 'key', oid: OID.text },
          { name: 'value', oid: value },
        ]);
        continue;
      }
      const alias = f.RangeFunction.alias;
      if (fn === 'unnest' && call.args?.length > 1) {
        // unnest(a, b, ...): a column per array, of its element type (translate/unnest.ts)
        const typer = new Typer(schema, new Map());
        const names = strings(alias?.colnames);
        scope.set(
          String(alias?.aliasname ?? fn).toLowerCase(),
          call.args.map((a: Node, i: number) => ({
            name: names[i] ?? 'unnest',
            oid: elementOidOf(typer.type(a)) ?? 0,
          })),
        );
        continue;
      }
      if (!fn || !ONE_COLUMN_SET_RETURNING.has(fn)) continue;
      // jsonb_array_elements names its column value (its OUT parameter); an alias names it too
      const name = strings(alias?.colnames)[0] ?? alias?.aliasname ?? (fn.includes('array_elements') ? 'value' : fn);
      scope.set(String(alias?.aliasname ?? fn).toLowerCase(), [{ name, oid: new Typer(schema, new Map()).func(call) }]);
    } else if (f.RangeSubselect?.alias) {
      const cols = subqueryColumns(f.RangeSubselect.subquery?.SelectStmt, schema, ctes);
      if (!cols) continue;
      const names = strings(f.RangeSubselect.alias.colnames);
      scope.set(
        String(f.RangeSubselect.alias.aliasname).toLowerCase(),
        cols.map((c, i) => ({ ...c, name: names[i] ?? c.name })),
      );
    }
  }
}

/** The queries of a WITH clause by name, with their columns (typed as far as the tree tells). */
type Ctes = ReadonlyMap<string, ResultColumn[]>;
const NO_CTES: Ctes = new Map();

/**
 * The columns of each query of a WITH clause, after those of the enclosing ones (`outer`); a
 * recursive one typed by its first branch, as PostgreSQL types it.
 */
function cteColumns(w: Node, schema: Schema, outer: Ctes): Ctes {
  if (!w?.ctes?.length) return outer;
  const out = new Map(outer);
  for (const c of w.ctes) {
    const e = c.CommonTableExpr;
    let q = e?.ctequery?.SelectStmt;
    if (!q) continue;
    if (w.recursive && q.op && q.op !== 'SETOP_NONE') q = q.larg;
    const cols = subqueryColumns(q, schema, out);
    if (!cols) continue;
    const names = strings(e.aliascolnames);
    out.set(
      String(e.ctename).toLowerCase(),
      cols.map((col, i) => ({ ...col, name: names[i] ?? col.name })),
    );
  }
  return out;
}

/** The columns of a subquery in FROM: a VALUES list (column1, ... typed by its rows) or a SELECT. */
function subqueryColumns(s: Node, schema: Schema, ctes: Ctes = NO_CTES): ResultColumn[] | null {
  if (!s) return null;
  if (s.valuesLists) {
    const typer = new Typer(schema, new Map());
    const rows: Node[][] = s.valuesLists.map((r: Node) => r.List?.items ?? []);
    const width = rows[0]?.length ?? 0;
    if (rows.some((r) => r.length !== width)) return null;
    return rows[0].map((_, i) => ({
      name: `column${i + 1}`,
      oid: rows.map((r) => typer.type(r[i])).reduce((a, b) => (a === b ? a : promote(a, b))),
    }));
  }
  return selectTypes(s, schema, undefined, ctes);
}

export class Typer {
  constructor(
    readonly schema: Schema,
    readonly scope: Scope,
  ) {}

  column(fields: string[]): number {
    const name = fields[fields.length - 1]?.toLowerCase();
    if (!name) return 0;
    const tables =
      fields.length >= 2
        ? [this.scope.get(fields[fields.length - 2].toLowerCase())]
        : [...new Set(this.scope.values())]; // two aliases of one table (excluded) are one source
    let found = 0;
    for (const t of tables) {
      if (Array.isArray(t)) {
        const col = t.find((c) => c.name.toLowerCase() === name);
        if (col) {
          if (found) return 0;
          found = col.oid;
        }
        continue;
      }
      const col = t ? this.schema.tables.get(t)?.columns.find((c) => c.name.toLowerCase() === name) : undefined;
      if (col) {
        if (found) return 0; // ambiguous: SQLite will say so
        found = oidOfDeclType(col.type);
      }
    }
    return found;
  }

  /** The type of an expression, 0 when not known. */
  type(n: Node): number {
    if (!n) return 0;
    if (n.ColumnRef) return this.column(strings(n.ColumnRef.fields));
    if (n.A_Const) {
      const c = n.A_Const;
      if (c.isnull) return 0;
      if (c.ival !== undefined) return OID.int4;
      if (c.fval !== undefined) {
        const f = String(c.fval.fval);
        // an integer too large for int4 is int8, then numeric; a negated one (-2147483648) that fits
        // int4 is int4, as PostgreSQL's grammar folds the sign into the constant
        if (/^-?\d+$/.test(f)) {
          const v = BigInt(f);
          if (v >= -2147483648n && v <= 2147483647n) return OID.int4;
          return v >= -9223372036854775808n && v <= 9223372036854775807n ? OID.int8 : OID.numeric;
        }
        return OID.numeric;
      }
      if (c.boolval !== undefined) return OID.bool;
      if (c.sval !== undefined) return OID.text;
      if (c.bsval !== undefined) return 0;
      return 0;
    }
    if (n.TypeCast) return typeNameOid(n.TypeCast.typeName);
    if (n.BoolExpr || n.NullTest || n.BooleanTest) return OID.bool;
    if (n.SubLink) {
      const t = n.SubLink.subLinkType;
      if (t === 'EXPR_SUBLINK' || t === 'ARRAY_SUBLINK') {
        const inner = n.SubLink.subselect?.SelectStmt;
        const cols = inner ? selectTypes(inner, this.schema) : null;
        const oid = cols?.length === 1 ? cols[0].oid : 0;
        // ARRAY(SELECT x): an array of x's type (it was typed bool, as EXISTS is)
        return t === 'EXPR_SUBLINK' ? oid : oid ? (arrayOidOf(oid) ?? 0) : 0;
      }
      return OID.bool;
    }
    if (n.SQLValueFunction) return SQL_VALUE_FUNCTIONS[n.SQLValueFunction.op]?.[1] ?? 0;
    if (n.CoalesceExpr) return this.common(n.CoalesceExpr.args);
    if (n.MinMaxExpr) return this.common(n.MinMaxExpr.args);
    if (n.CaseExpr) {
      const results = (n.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.result);
      if (n.CaseExpr.defresult) results.push(n.CaseExpr.defresult);
      return this.common(results);
    }
    if (n.A_Expr) return this.operator(n.A_Expr);
    if (n.FuncCall) return this.func(n.FuncCall);
    if (n.A_ArrayExpr) {
      // ARRAY[1, 2]: an array of its elements' common type
      const t = this.common(n.A_ArrayExpr.elements);
      return t ? (arrayOidOf(t) ?? 0) : 0;
    }
    if (n.A_Indirection && n.A_Indirection.indirection?.length === 1 && n.A_Indirection.indirection[0].A_Indices) {
      // (ARRAY[...])[n]: an element
      const t = this.type(n.A_Indirection.arg);
      return n.A_Indirection.indirection[0].A_Indices.is_slice ? t : (elementOidOf(t) ?? 0);
    }
    return 0;
  }

  /** The type the branches of CASE or COALESCE resolve to: one type, or numbers promoted. */
  common(args: Node[] | undefined): number {
    let out = 0;
    let literal = false;
    for (const a of args ?? []) {
      if (a?.A_Const?.isnull) continue;
      // an unknown literal takes the others' type (text when all are such)
      if (a?.A_Const?.sval !== undefined) {
        literal = true;
        continue;
      }
      const t = this.type(a);
      if (t === 0) return 0;
      if (out === 0 || out === t) out = t;
      else if (isNumber(out) && isNumber(t)) out = promote(out, t);
      else return 0;
    }
    return out || (literal ? OID.text : 0);
  }

  operator(e: Node): number {
    const op = strings(e.name)[0];
    switch (e.kind) {
      case 'AEXPR_OP': {
        if (!e.lexpr && op === '~') return this.type(e.rexpr); // ~x: bitwise NOT, no regex match
        if (BOOL_OPERATORS.has(op)) return OID.bool;
        if (op === '||') {
          // an array's concatenation is that array, jsonb's jsonb; text otherwise
          const l = this.type(e.lexpr);
          const r = this.type(e.rexpr);
          if (l === OID.jsonb || r === OID.jsonb) return OID.jsonb;
          return elementOidOf(l) !== undefined ? l : elementOidOf(r) !== undefined ? r : OID.text;
        }
        if (op === '->' || op === '#>') return this.type(e.lexpr) === OID.jsonb ? OID.jsonb : OID.json;
        if (op === '->>' || op === '#>>') return OID.text;
        if (op === '#-') return OID.jsonb;
        if (!e.lexpr) return this.type(e.rexpr); // unary minus
        const l = this.type(e.lexpr);
        const r = this.type(e.rexpr);
        if (op === '^') return l === OID.numeric || r === OID.numeric ? OID.numeric : OID.float8;
        if (isNumber(l) && isNumber(r)) return promote(l, r);
        const unknown = untyped(e.lexpr) ? 'l' : untyped(e.rexpr) ? 'r' : null;
        try {
          return dateOperator(l, op, r, unknown)?.oid ?? 0;
        } catch {
          return 0; // no such operator: the statement is refused when it is translated
        }
      }
      case 'AEXPR_NULLIF':
        return this.type(e.lexpr);
      default: // IN, LIKE, ILIKE, BETWEEN, DISTINCT, ANY/ALL, SIMILAR
        return OID.bool;
    }
  }

  func(f: Node): number {
    const names = strings(f.funcname);
    const name = names[names.length - 1]?.toLowerCase();
    if (name in FIXED) return FIXED[name];
    const arg = (i: number) => this.type(f.args?.[i]);
    if (MATH_FUNCTIONS.has(name))
      return mathResult(
        name,
        (f.args ?? []).map((_: Node, i: number) => arg(i)),
      );
    switch (name) {
      case 'sum': {
        const t = arg(0);
        if (t === OID.int2 || t === OID.int4) return OID.int8;
        if (t === OID.int8 || t === OID.numeric) return OID.numeric;
        if (FLOATS.has(t) || t === OID.interval) return t;
        return 0;
      }
      case 'stddev':
      case 'stddev_samp':
      case 'stddev_pop':
      case 'variance':
      case 'var_samp':
      case 'var_pop': {
        // numeric over integers and numerics, as avg
        const t = arg(0);
        return INTS.has(t) || t === OID.numeric ? OID.numeric : FLOATS.has(t) ? OID.float8 : 0;
      }
      case 'avg': {
        const t = arg(0);
        if (INTS.has(t) || t === OID.numeric) return OID.numeric;
        if (FLOATS.has(t)) return OID.float8;
        return t === OID.interval ? t : 0;
      }
      case 'max':
      case 'min':
        // of varchar and char PostgreSQL takes the text aggregate
        return arg(0) === OID.varchar || arg(0) === OID.bpchar ? OID.text : arg(0);
      case 'abs':
      case 'first_value':
      case 'last_value':
      case 'lag':
      case 'lead':
        return arg(0);
      case 'gcd':
      case 'lcm': {
        // integers keep the wider integer type; a numeric or an unknown side is numeric
        const [a, b] = [arg(0), arg(1)];
        return INTS.has(a) && INTS.has(b) ? promote(a, b) : OID.numeric;
      }
      case 'bit_and':
      case 'bit_or':
      case 'bit_xor': {
        const t = arg(0);
        return INTS.has(t) ? t : 0;
      }
      case 'timezone': {
        // x AT TIME ZONE z: a timestamp's wall time read in z is an instant; an instant's wall time in z
        const t = arg(1);
        return t === OID.timestamp ? OID.timestamptz : t === OID.timestamptz || t === OID.date ? OID.timestamp : 0;
      }
      case 'date_bin':
        return arg(1) === OID.timestamptz ? OID.timestamptz : OID.timestamp;
      case 'date_trunc': {
        const t = arg(1);
        return t === OID.timestamptz || t === OID.date ? OID.timestamptz : t === OID.interval ? t : OID.timestamp;
      }
      case 'coalesce':
      case 'greatest':
      case 'least':
        return this.common(f.args);
      case 'array_append':
      case 'array_remove':
      case 'array_replace':
      case 'array_cat':
      case 'array_prepend': {
        // the array argument's type
        const t = arg(name === 'array_prepend' ? 1 : 0) || (name === 'array_cat' ? arg(1) : 0);
        return elementOidOf(t) !== undefined ? t : 0;
      }
      case 'array_agg': {
        const t = arg(0);
        return t ? (arrayOidOf(t) ?? 0) : 0;
      }
      case 'percentile_cont':
        return f.args?.[0]?.A_ArrayExpr ? 0 : OID.float8;
      case 'percentile_disc':
      case 'mode':
        // the type of the WITHIN GROUP (ORDER BY x) key
        return f.agg_within_group ? this.type(f.agg_order?.[0]?.SortBy?.node) : 0;
      case 'unnest':
        return f.args?.length === 1 ? (elementOidOf(arg(0)) ?? 0) : 0;
      case 'generate_series': {
        const t = arg(0);
        if (INTS.has(t) || t === OID.numeric) return promote(t, arg(1));
        // timestamps with an interval step; a date is read as a timestamp with time zone, as there
        return t === OID.timestamp ? t : t === OID.timestamptz || t === OID.date ? OID.timestamptz : 0;
      }
    }
    return 0;
  }

  /** PostgreSQL's name for an unaliased result column. */
  name(n: Node): string {
    return this.figure(n)[0];
  }

  /**
   * PostgreSQL's FigureColname: a name and its strength (2 from a column, function or keyword
   * expression, 1 from a cast's type or CASE, 0 for none); a cast or CASE keeps a stronger name
   * from its operand (its ELSE branch for CASE).
   */
  figure(n: Node): [string, number] {
    if (!n) return ['?column?', 0];
    if (n.ColumnRef) {
      const f = n.ColumnRef.fields;
      const last = f[f.length - 1]?.String?.sval;
      return last ? [last, 2] : ['?column?', 0];
    }
    if (n.FuncCall) {
      const names = strings(n.FuncCall.funcname);
      return [names[names.length - 1] ?? '?column?', 2];
    }
    if (n.TypeCast) {
      const inner = this.figure(n.TypeCast.arg);
      return inner[1] > 1 ? inner : [typeDisplayName(n.TypeCast.typeName), 1];
    }
    if (n.CaseExpr) {
      const inner = this.figure(n.CaseExpr.defresult);
      return inner[1] > 1 ? inner : ['case', 1];
    }
    if (n.SQLValueFunction) return [SQL_VALUE_FUNCTIONS[n.SQLValueFunction.op]?.[0] ?? '?column?', 2];
    if (n.CoalesceExpr) return ['coalesce', 2];
    if (n.MinMaxExpr) return [n.MinMaxExpr.op === 'IS_GREATEST' ? 'greatest' : 'least', 2];
    if (n.A_Expr?.kind === 'AEXPR_NULLIF') return ['nullif', 2];
    if (n.SubLink?.subLinkType === 'EXISTS_SUBLINK') return ['exists', 2];
    if (n.SubLink?.subLinkType === 'ARRAY_SUBLINK' || n.A_ArrayExpr) return ['array', 2];
    if (n.A_Indirection) {
      // x.field names the field; x[n] takes x's name
      const last = n.A_Indirection.indirection?.[n.A_Indirection.indirection.length - 1];
      return last?.String?.sval ? [last.String.sval, 2] : this.figure(n.A_Indirection.arg);
    }
    if (n.SubLink?.subLinkType === 'EXPR_SUBLINK') {
      const t = n.SubLink.subselect?.SelectStmt?.targetList;
      if (t?.length === 1) {
        if (t[0].ResTarget.name) return [t[0].ResTarget.name, 2];
        return this.figure(t[0].ResTarget.val);
      }
    }
    return ['?column?', 0];
  }
}

/**
 * The columns of a UNION, INTERSECT or EXCEPT: named by its first branch, typed as PostgreSQL
 * resolves the branches (one type, or numbers promoted; 0 when they differ otherwise). `setop`
 * tells the caller that SQLite's declared type (the first branch's column) does not hold.
 */
function setOperationTypes(s: Node, schema: Schema, ctes: Ctes): ResultColumn[] | null {
  const branch = (b: Node) =>
    b?.op && b.op !== 'SETOP_NONE' ? setOperationTypes(b, schema, ctes) : selectTypes(b, schema, undefined, ctes);
  const l = branch(s.larg);
  const r = branch(s.rarg);
  if (!l || !r || l.length !== r.length) return null;
  return l.map((c, i) => {
    const a = c.oid;
    const b = r[i].oid;
    const oid = a === b ? a : a && b && isNumber(a) && isNumber(b) ? promote(a, b) : 0;
    return { name: c.name, oid, setop: true };
  });
}

/** The columns of a SelectStmt, or null when its list has a `*`. */
export function selectTypes(s: Node, schema: Schema, sources?: Scope, outer: Ctes = NO_CTES): ResultColumn[] | null {
  const ctes = cteColumns(s.withClause, schema, outer);
  if (s.op && s.op !== 'SETOP_NONE') return setOperationTypes(s, schema, ctes);
  // a VALUES statement: column1, ... typed by its rows
  if (s.valuesLists) return subqueryColumns(s, schema, ctes);
  if (!s.targetList) return null;
  const scope: Scope = sources ?? new Map();
  if (!sources) scopeOf(s.fromClause, scope, schema, ctes);
  const typer = new Typer(schema, scope);
  const out: ResultColumn[] = [];
  for (const t of s.targetList) {
    const r = t.ResTarget;
    const fields: Node[] | undefined = r?.val?.ColumnRef?.fields;
    if (fields?.some((f: Node) => f.A_Star)) {
      // `*` (or `v.*`) only over sources whose columns are known here: subqueries and VALUES lists
      const sources =
        fields.length === 1 ? [...scope.values()] : [scope.get(String(fields[0].String?.sval).toLowerCase())];
      if (sources.length === 0 || !sources.every((x) => Array.isArray(x))) return null;
      for (const x of sources as ResultColumn[][]) out.push(...x);
      continue;
    }
    if (!r) return null;
    const typmod = castTypmod(r.val);
    const oid = typer.type(r.val);
    const scale = oid === OID.numeric && typmod < 0 ? scaleOf(typer, r.val) : undefined;
    out.push({
      name: r.name ?? typer.name(r.val),
      oid,
      ...(typmod >= 0 ? { typmod } : {}),
      ...(scale !== undefined ? { scale } : {}),
    });
  }
  return out;
}
