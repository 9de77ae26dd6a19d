// The type and name of an expression of PostgreSQL's parse tree, over the schema: columns through
// the FROM list's sources (select-types.ts: tables, subqueries, VALUES lists, generate_series),
// literals, casts, operators (the date and time ones as typed-operators.ts resolves them),
// functions, CASE and COALESCE. 0 where the tree does not tell.
import { textSearchResult } from './text-search-operators';
import { INFORMATION_SCHEMA_TABLES, PG_CATALOG_TABLES } from '../catalog/tables';
import { catalogRelation } from '../catalog/catalog-relation';
import type { Schema } from '../../../src/engine/schema/model';
import { OID, oidOfDeclType } from '../types/oids';
import { arrayOidOf, elementOidOf } from '../types/registry';
import {
  FIXED,
  FLOATS,
  BOOL_OPERATORS,
  INTS,
  MATH_FUNCTIONS,
  mathResult,
  RECORD_SET_RETURNING,
  SQL_VALUE_FUNCTIONS,
  isNumber,
  commonNumber,
  promote,
  strings,
  typeNameOid,
} from './type-signatures';
import { dateOperator, untyped } from './typed-operators';
import { figuredName } from './column-names';
import { commonInstant } from './instant-choices';
import { expandArrayField, expandedColumn, isExpandArrayCall } from './expandarray-fields';

/** Exact number types, whose arrays || gives the common type of. */
const EXACT = new Set<number>([OID.int2, OID.int4, OID.int8, OID.numeric]);
import { MERGED_NAMES, RENAMED_TABLES, SCALAR_SOURCES, type Scope, selectTypes } from './select-types';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Operators whose result has their operands' type when both are one number type. */
// (and integers' bitwise operators: `x # '3'` is of x's type)
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '#', '&', '|']);
/** The operators PostgreSQL has of two reals, giving a real. */
const REAL_OPERATORS = new Set(['+', '-', '*', '/']);

/**
 * Whether `'{"a": 1}' - k` is jsonb's: an untyped string literal less a text or text[] (`k` of
 * type `r`), which only jsonb's `-` takes, so PostgreSQL reads the literal as jsonb.
 */
export function jsonbMinusLiteral(e: Node, r: number): boolean {
  return (
    e.lexpr?.A_Const?.sval !== undefined &&
    (r === OID.text || r === OID.varchar || r === OID.bpchar || r === arrayOidOf(OID.text))
  );
}

/**
 * The parameter types the client declared (Parse), while result columns are typed (withParamTypes):
 * `abs($1)` of a declared int4 is int4, as PostgreSQL resolves it (pgjdbc declares every parameter's
 * type: its CallableStatement `{? = call abs(?)}` refused the text it was given). 0: not declared.
 */
let declaredParams: readonly number[] | null = null;

/** Runs `fn` with `types` as the declared parameter types the typer reads (synchronous). */
export function withParamTypes<T>(types: readonly number[], fn: () => T): T {
  const outer = declaredParams;
  declaredParams = types;
  try {
    return fn();
  } finally {
    declaredParams = outer;
  }
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
          if (found && !(found === col.oid && fields.length === 1 && MERGED_NAMES.get(this.scope)?.has(name))) return 0;
          found = col.oid;
        }
        continue;
      }
      const table = t ? this.schema.tables.get(t) : undefined;
      const col = table?.columns.find((c) => c.name.toLowerCase() === name);
      // a catalog table's column (pg_type.oid is an oid: asyncpg encodes `t.oid = $1` by that)
      const type = col ? col.type : t && !table ? catalogColumnType(t, name) : undefined;
      if (type !== undefined) {
        const oid = oidOfDeclType(type);
        // (a name a USING or NATURAL join merges is one column, of its sides' type when they agree)
        if (found && !(found === oid && fields.length === 1 && MERGED_NAMES.get(this.scope)?.has(name))) return 0; // ambiguous: SQLite will say so
        found = oid;
      }
    }
    // the system column of a table's or catalog table's rows (translate/table-oids.ts makes it the OID)
    if (!found && name === 'tableoid' && tables.some((t) => typeof t === 'string')) return OID.oid;
    // the other system columns of a catalog table's rows (translate/system-columns.ts gives their values;
    // a bare one where the query reads that table alone)
    if (!found && Object.hasOwn(SYSTEM_COLUMN_TYPES, name) && (fields.length === 2 || tables.length === 1)) {
      const t = tables[0];
      if (typeof t === 'string' && !this.schema.tables.has(t) && catalogRelation('pg_catalog', t)?.view === false)
        return SYSTEM_COLUMN_TYPES[name];
    }
    // a FROM item's name that is no column: its whole row (`SELECT t FROM t`), a record; the value
    // of a function returning one (`SELECT u FROM unnest(a) AS u(v)`)
    if (!found && fields.length === 1 && this.scope.has(name)) {
      const source = this.scope.get(name);
      return Array.isArray(source) && SCALAR_SOURCES.has(source) ? source[0].oid : OID.record;
    }
    return found;
  }

  /**
   * The schema table whose whole row `n` is (`c` of `FROM t c`), or that a subquery passes up: its
   * column that is one (`x` of `FROM (SELECT t AS x FROM t) q`), a scalar subquery of one (`(SELECT
   * t FROM t ...)`), as PostgreSQL keeps the row's type through them; else undefined.
   */
  wholeRowTable(n: Node): string | undefined {
    if (n?.SubLink?.subLinkType === 'EXPR_SUBLINK') {
      const inner = n.SubLink.subselect?.SelectStmt;
      const cols = inner ? selectTypes(inner, this.schema) : null;
      return cols?.length === 1 ? cols[0].rowOf : undefined;
    }
    const fields = n?.ColumnRef ? strings(n.ColumnRef.fields) : [];
    if (fields.length === 1) {
      const source = this.scope.get(fields[0].toLowerCase());
      if (typeof source === 'string' && this.schema.tables.has(source)) return source;
      // (`t AS x(a, b)`: x is still t's row)
      const renamed = Array.isArray(source) ? RENAMED_TABLES.get(source) : undefined;
      if (renamed && this.schema.tables.has(renamed)) return renamed;
    }
    if (fields.length !== 1 && fields.length !== 2) return undefined;
    const name = fields[fields.length - 1].toLowerCase();
    const sources = fields.length === 2 ? [this.scope.get(fields[0].toLowerCase())] : [...new Set(this.scope.values())];
    const found = sources.flatMap((x) => (Array.isArray(x) ? x.filter((c) => c.name.toLowerCase() === name) : []));
    return found.length === 1 ? found[0].rowOf : undefined;
  }

  /** The type of an expression, 0 when not known. */
  type(n: Node): number {
    if (!n) return 0;
    if (n.ColumnRef) return this.column(strings(n.ColumnRef.fields));
    if (n.ParamRef) return declaredParams?.[n.ParamRef.number - 1] ?? 0;
    if (n.GroupingFunc) return OID.int4;
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
    // `row(t.*)`: an anonymous record (translate/json-values.ts prints a FROM item's)
    if (n.RowExpr) return OID.record;
    if (n.SubLink) {
      const t = n.SubLink.subLinkType;
      if (t === 'EXPR_SUBLINK' || t === 'ARRAY_SUBLINK') {
        const inner = n.SubLink.subselect?.SelectStmt;
        const cols = inner ? selectTypes(inner, this.schema) : null;
        const oid = cols?.length === 1 ? cols[0].oid : 0;
        // ARRAY(SELECT x): an array of x's type (it was typed bool, as EXISTS is)
        // (of arrays, ARRAY(SELECT arr ...): their type, one more dimension)
        if (t === 'EXPR_SUBLINK') return oid;
        return oid ? (elementOidOf(oid) !== undefined ? oid : (arrayOidOf(oid) ?? 0)) : 0;
      }
      return OID.bool;
    }
    if (n.SQLValueFunction) return SQL_VALUE_FUNCTIONS[n.SQLValueFunction.op]?.[1] ?? 0;
    if (n.CoalesceExpr) return this.common(n.CoalesceExpr.args, true);
    if (n.MinMaxExpr) return this.common(n.MinMaxExpr.args, true);
    if (n.CaseExpr) {
      const results = (n.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.result);
      if (n.CaseExpr.defresult) results.push(n.CaseExpr.defresult);
      return this.common(results, true);
    }
    if (n.A_Expr) return this.operator(n.A_Expr);
    if (n.FuncCall) return this.func(n.FuncCall);
    if (n.A_ArrayExpr) {
      // ARRAY[1, 2]: an array of its elements' common type; of parameters open (and string literals
      // and NULLs) only, text[] as PostgreSQL resolves them (`ARRAY[$1, $2]` was a text column)
      const elements: Node[] = n.A_ArrayExpr.elements ?? [];
      const open = (x: Node) =>
        (x?.ParamRef && this.type(x) === 0) || x?.A_Const?.sval !== undefined || x?.A_Const?.isnull;
      if (elements.some((x) => x?.ParamRef) && elements.every(open)) return OID.textArray;
      const t = this.common(elements);
      // (of sub-arrays, ARRAY[[1,2],[3,4]]: the sub-arrays' type, one more dimension)
      return t ? (elementOidOf(t) !== undefined ? t : (arrayOidOf(t) ?? 0)) : 0;
    }
    if (n.A_Indirection?.indirection?.length > 0 && n.A_Indirection.indirection.every((x: Node) => x.A_Indices)) {
      // (ARRAY[...])[n], m[i][j]: an element; a slice in any of them (m[1:2][1]) an array
      const t = this.type(n.A_Indirection.arg);
      return n.A_Indirection.indirection.some((x: Node) => x.A_Indices.is_slice) ? t : (elementOidOf(t) ?? 0);
    }
    const field = n.A_Indirection?.indirection?.length === 1 ? n.A_Indirection.indirection[0].String?.sval : undefined;
    const fn = n.A_Indirection?.arg?.FuncCall ? strings(n.A_Indirection.arg.FuncCall.funcname).pop() : undefined;
    // (_pg_expandarray(arr)).n, (keys).x of a subquery's `_pg_expandarray(arr) AS keys`
    const arg = n.A_Indirection?.arg;
    const expanded = isExpandArrayCall(arg)
      ? this.type(arg.FuncCall.args?.[0])
      : arg?.ColumnRef
        ? expandedColumn(this.scope, strings(arg.ColumnRef.fields))
        : undefined;
    const typed = expanded === undefined ? undefined : expandArrayField(field, expanded);
    if (typed !== undefined) return typed;
    if (fn && RECORD_SET_RETURNING.has(fn.toLowerCase()) && (field === 'key' || field === 'value')) {
      // (json_each(x)).value: json, jsonb, or text of the _text forms; .key text
      const f = fn.toLowerCase();
      return field === 'key' || f.endsWith('_text') ? OID.text : f.startsWith('jsonb') ? OID.jsonb : OID.json;
    }
    return 0;
  }

  /** The type the branches of CASE or COALESCE resolve to: one type, or numbers promoted. */
  common(args: Node[] | undefined, instants = false): number {
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
      else if (isNumber(out) && isNumber(t)) out = commonNumber(out, t);
      // (a date beside a timestamp is a timestamp, for what converts it: instant-choices.ts)
      else if (instants && commonInstant(out, t)) out = commonInstant(out, t);
      else return 0;
    }
    return out || (literal ? OID.text : 0);
  }

  operator(e: Node): number {
    const op = strings(e.name).at(-1) ?? ''; // (OPERATOR(pg_catalog.~) names its schema first)
    switch (e.kind) {
      case 'AEXPR_OP': {
        if (!e.lexpr && op === '~') return this.type(e.rexpr); // ~x: bitwise NOT, no regex match
        // tsquery's && and || (and !!), tsvector's ||: of their type (sql/text-search-operators.ts)
        const ts = textSearchResult(op, e.lexpr ? this.type(e.lexpr) : undefined, this.type(e.rexpr));
        if (ts) return ts;
        if (BOOL_OPERATORS.has(op)) return OID.bool;
        if (op === '||') {
          // an array's concatenation is that array, jsonb's jsonb; text otherwise
          const l = this.type(e.lexpr);
          const r = this.type(e.rexpr);
          if (l === OID.jsonb || r === OID.jsonb) return OID.jsonb;
          // bytea's own ||, an untyped side read as bytea
          if ((l === OID.bytea && (r === OID.bytea || untyped(e.rexpr))) || (r === OID.bytea && untyped(e.lexpr)))
            return OID.bytea;
          // (arrays of integers and numerics: their common type, ARRAY[1] || ARRAY[1.5] is numeric[])
          const [le, re] = [elementOidOf(l), elementOidOf(r)];
          if (le !== re && le !== undefined && re !== undefined && [le, re].every((x) => EXACT.has(x)))
            return arrayOidOf(promote(le, re)) ?? l;
          // and of an array and a number beside it: `ints || 1.5` is numeric[], `int4s || 1::int8` bigint[]
          if (le !== undefined && re === undefined && le !== r && EXACT.has(le) && EXACT.has(r))
            return arrayOidOf(promote(le, r)) ?? l;
          if (re !== undefined && le === undefined && re !== l && EXACT.has(re) && EXACT.has(l))
            return arrayOidOf(promote(l, re)) ?? r;
          return le !== undefined ? l : re !== undefined ? r : OID.text;
        }
        if (op === '->' || op === '#>') return this.type(e.lexpr) === OID.jsonb ? OID.jsonb : OID.json;
        if (op === '->>' || op === '#>>') return OID.text;
        if (op === '#-') return OID.jsonb;
        // (|/ and ||/ take and give a double; unary minus and @ keep their operand's type)
        if (!e.lexpr) return op === '|/' || op === '||/' ? OID.float8 : this.type(e.rexpr);
        const l = this.type(e.lexpr);
        const r = this.type(e.rexpr);
        if (op === '-' && (l === OID.jsonb || jsonbMinusLiteral(e, r))) return OID.jsonb;
        // an integer shift is of its left operand's type (smallint << integer is smallint), a
        // string literal shifted by an integer an integer (`'-7' << i`: PostgreSQL's int4 << int4)
        if ((op === '<<' || op === '>>') && isNumber(l)) return l;
        if ((op === '<<' || op === '>>') && e.lexpr.A_Const?.sval !== undefined && r === OID.int4) return OID.int4;
        // (numeric ^ float8 is float8's: numeric casts to float8 implicitly, not the other way)
        if (op === '^')
          return (l === OID.numeric || r === OID.numeric) &&
            l !== OID.float8 &&
            r !== OID.float8 &&
            l !== OID.float4 &&
            r !== OID.float4
            ? OID.numeric
            : OID.float8;
        // (real op real is real's: float4pl and kin; real beside any other number a double)
        if (l === OID.float4 && r === OID.float4 && REAL_OPERATORS.has(op)) return OID.float4;
        if (isNumber(l) && isNumber(r)) return promote(l, r);
        // (a parameter of a known type is no unknown: `tz < $1 + interval '1 day'` where `tz >= $1` typed
        // it is timestamptz + interval, not interval + interval)
        const open = (x: Node) => untyped(x) && !(x?.ParamRef && this.type(x) !== 0);
        const unknown = open(e.lexpr) ? 'l' : open(e.rexpr) ? 'r' : null;
        // a number and a parameter or a quoted literal: PostgreSQL reads the unknown side as the
        // number's type (`sum(n) + $1` is numeric; it was typed text)
        if ((unknown === 'r' && isNumber(l)) || (unknown === 'l' && isNumber(r)))
          return ARITHMETIC.has(op) ? (unknown === 'r' ? l : r) : 0;
        try {
          return dateOperator(l, op, r, unknown)?.oid ?? 0;
        } catch {
          return 0; // no such operator: the statement is refused when it is translated
        }
      }
      case 'AEXPR_NULLIF': {
        // the left input type of the `=` PostgreSQL picks: integers among themselves and a float beside
        // any number compare as they are (int48eq, float84eq), others promoted (`NULLIF(n, round(3))`
        // of a numeric is numeric = float8, so float8; `NULLIF(i, 1.5)` numeric); an unknown literal
        // or NULL on the left takes the right's type
        const r = this.type(e.rexpr);
        if (e.lexpr?.A_Const?.isnull) return r;
        if (e.lexpr?.A_Const?.sval !== undefined) return r || OID.text;
        const l = this.type(e.lexpr);
        if (!isNumber(l) || !isNumber(r) || l === r || FLOATS.has(l) || (INTS.has(l) && INTS.has(r))) return l;
        return promote(l, r);
      }
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
        // of varchar PostgreSQL takes the text aggregate; of char(n) bpchar's (max(bpchar), its padding kept)
        return arg(0) === OID.varchar ? OID.text : arg(0);
      case 'abs':
      case 'first_value':
      case 'last_value':
      case 'nth_value':
        return arg(0);
      case 'lag':
      case 'lead':
        // (with a default, the type both resolve to: lag(n, 1, 0.5) of an integer is numeric)
        return f.args?.length === 3 ? this.common([f.args[0], f.args[2]]) : arg(0);
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
        // (a time is cut as the interval it casts to)
        return t === OID.timestamptz || t === OID.date
          ? OID.timestamptz
          : t === OID.interval || t === OID.time
            ? OID.interval
            : OID.timestamp;
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
      case 'trim_array': {
        const t = arg(0);
        return elementOidOf(t) !== undefined ? t : 0;
      }
      case 'array_fill': {
        const t = arg(0);
        return t ? (arrayOidOf(t) ?? 0) : 0;
      }
      case 'array_agg': {
        // (of arrays, an array of one more dimension: the same type)
        const t = arg(0);
        return t ? (elementOidOf(t) !== undefined ? t : (arrayOidOf(t) ?? 0)) : 0;
      }
      case 'string_agg':
        return arg(0) === OID.bytea ? OID.bytea : OID.text;
      // btrim(bytea, bytea) and its kin trim bytes, substr(bytea, ...) cuts them, overlay(bytea ...) replaces them: bytea
      case 'btrim':
      case 'ltrim':
      case 'rtrim':
      case 'substr':
      case 'substring':
      case 'overlay':
        return arg(0) === OID.bytea ? OID.bytea : OID.text;
      // (as window functions and as the hypothetical-set aggregates of WITHIN GROUP alike)
      case 'percent_rank':
      case 'cume_dist':
        return OID.float8;
      case 'rank':
      case 'dense_rank':
        return OID.int8;
      case 'percentile_cont':
        // (of an array of fractions, the array of their values)
        // (of an interval key an interval)
        if (f.agg_within_group && this.type(f.agg_order?.[0]?.SortBy?.node) === OID.interval)
          return f.args?.[0]?.A_ArrayExpr ? (arrayOidOf(OID.interval) ?? 0) : OID.interval;
        return f.args?.[0]?.A_ArrayExpr ? (arrayOidOf(OID.float8) ?? 0) : OID.float8;
      case 'percentile_disc':
      case 'mode': {
        // the type of the WITHIN GROUP (ORDER BY x) key (an array of it for an array of fractions)
        const key = f.agg_within_group ? this.type(f.agg_order?.[0]?.SortBy?.node) : 0;
        return key && f.args?.[0]?.A_ArrayExpr ? (arrayOidOf(key) ?? 0) : key;
      }
      case 'unnest':
        return f.args?.length === 1 ? (elementOidOf(arg(0)) ?? 0) : 0;
      case 'generate_subscripts':
        return OID.int4;
      case 'generate_series': {
        const t = arg(0);
        if (INTS.has(t) || t === OID.numeric) return promote(t, arg(1));
        // timestamps with an interval step; a date is read as a timestamp with time zone, as there
        return t === OID.timestamp ? t : t === OID.timestamptz || t === OID.date ? OID.timestamptz : 0;
      }
    }
    return 0;
  }

  /** PostgreSQL's name for an unaliased result column (column-names.ts). */
  name(n: Node): string {
    return figuredName(n);
  }
}

/** The types of the system columns a catalog table's rows answer besides tableoid. */
const SYSTEM_COLUMN_TYPES: Record<string, number> = {
  xmin: OID.xid,
  xmax: OID.xid,
  cmin: OID.cid,
  cmax: OID.cid,
  ctid: OID.tid,
};

/** Each catalog table's declared column types (catalog/tables.ts), by lower-case names. */
let catalogColumns: Map<string, Map<string, string>> | null = null;

/** The declared type of a pg_catalog or information_schema table's column; undefined when none. */
function catalogColumnType(table: string, column: string): string | undefined {
  if (!catalogColumns) {
    catalogColumns = new Map();
    for (const [name, decl] of Object.entries({ ...PG_CATALOG_TABLES, ...INFORMATION_SCHEMA_TABLES })) {
      const cols = new Map<string, string>();
      for (const part of decl.split(',')) {
        const [col, type] = part.trim().split(/\s+/);
        if (col && type) cols.set(col.replace(/^"(.*)"$/, '$1').toLowerCase(), type);
      }
      catalogColumns.set(name, cols);
    }
  }
  return catalogColumns.get(table)?.get(column);
}
