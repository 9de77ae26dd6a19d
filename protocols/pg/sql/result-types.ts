/**
 * The name and type of every result column of a SELECT or a RETURNING list, read off PostgreSQL's
 * own parse tree (libpg-query: the server's parser compiled to WebAssembly) and the schema
 * (expression-types.ts types each expression with the signatures of type-signatures.ts: count →
 * int8, sum(int8) → numeric, avg → numeric, max(x) → the type of x, now() → timestamptz,
 * date_trunc → timestamp, casts, CASE, COALESCE, date arithmetic). A column whose type the tree
 * does not tell gets 0 (its values decide, as before).
 *
 * Parsing costs some 30 µs, so results are kept by the text's shape (literals replaced by one of
 * their kind, which keeps their types): a point select in the simple protocol, new text each time,
 * is typed once. The shape is parsed (parse.ts keeps its tree with the statement's); a text with
 * no literal outside those the simple protocol lifts is its own shape, and shares the statement's tree.
 */
import { withParamTypes } from './expression-types';
import { parserLoaded, parseTree } from './parse';
import type { Schema } from '../../../src/engine/schema/model';
import { Lru } from '../../../src/lru';
import { type Scope, scopeOf, selectTypes } from './select-types';

export interface ResultColumn {
  /** PostgreSQL's name for the column (the alias, the column, the function, `?column?`). */
  name: string;
  /** 0 when the tree does not tell. */
  oid: number;
  /** A column of UNION/INTERSECT/EXCEPT: SQLite's declared type is its first branch's only. */
  setop?: boolean;
  /** A bare NULL, of no type of its own: a set operation's other branches type it. */
  untypedNull?: boolean;
  /** A bare string literal, of no type of its own: beside a jsonb branch it is jsonb (setOperationTypes). */
  untypedString?: boolean;
  /** The type modifier of a cast to numeric(p, s), varchar(n) or char(n); absent for none. */
  typmod?: number;
  /** A numeric's display scale when no modifier gives it (sum(amount), amount * 2, 0.1 + 0.2). */
  scale?: number;
  /** The scale is a minimum: values with more digits print them (`amount + $1`). */
  scaleIsMinimum?: boolean;
  /** The parameters (1-based) whose text's scale raises a minimum scale (`$1::numeric` with '1.500'). */
  scaleParams?: number[];
  /** What a product adds to each of scaleParams' scales (`$1 * 2.0`: 1); absent: nothing. */
  scaleOffsets?: number[];
  /** A numeric computed as a double, of no known scale: printed at its 15 significant digits (0.01 + 0.2 is 0.21). */
  computed?: boolean;
  /** A bpchar of no modifier whose values are a char(n)'s, printed padded to n (`max(ch)`: char-widths.ts). */
  pad?: number;
  /**
   * A subquery's column that is a table's whole row (`SELECT t FROM t` inside): that table, whose row
   * type the column is where the statement hands it out (`SELECT x FROM (SELECT t AS x FROM t) q`).
   */
  rowOf?: string;
  /** A subquery's column that is `_pg_expandarray(arr)`: arr's type, whose fields x and n it has (expandarray-fields.ts). */
  expands?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/**
 * The result columns of one SELECT statement or RETURNING list, from PostgreSQL's parse tree; null
 * when the text is neither, has a `*`, or does not parse (the caller keeps its own reading).
 */
export function resultColumns(sql: string, schema: Schema): ResultColumn[] | null {
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return null;
  }
  const stmts = tree.stmts ?? [];
  if (stmts.length !== 1) return null;
  const st = stmts[0].stmt;
  if (st?.SelectStmt) return selectTypes(st.SelectStmt, schema, undefined, undefined, true);
  const write = st?.InsertStmt ?? st?.UpdateStmt ?? st?.DeleteStmt;
  return write ? returningTypes(write, schema) : null;
}

/** The columns of an INSERT, UPDATE or DELETE's RETURNING list, typed over its table (null with a `*`). */
function returningTypes(w: Node, schema: Schema): ResultColumn[] | null {
  const list: Node[] | undefined = w.returningClause?.exprs ?? w.returningList;
  if (!list?.length) return null;
  const scope: Scope = new Map();
  const others: Node[] = w.fromClause ?? w.usingClause ?? [];
  const from = [{ RangeVar: w.relation }, ...others];
  scopeOf(from, scope, schema);
  // with FROM or USING, `*` is the target's columns and then the other items' (translate/returning-from.ts)
  return selectTypes(
    { targetList: list, op: 'SETOP_NONE', ...(others.length > 0 ? { fromClause: from } : {}) },
    schema,
    scope,
  );
}

const TYPE_MODS_OR_LITERALS =
  /\b(?:numeric|decimal|varchar|character varying|character|char|bpchar)\s*\(\s*\d+\s*(?:,\s*\d+\s*)?\)|'(?:[^']|'')*'|(?<!\$)\b\d+(?:\.\d*)?(?:[eE][-+]?\d+)?\b|\.\d+\b/gi;

/**
 * The text's shape for the cache: each literal replaced by one of its kind (so the types stay), or
 * null when the text has none. Strings become '' (a decimal one '1.5', '1.55', ...), integers 1 (int4) or 9999999999 (int8), decimals
 * 1.5, 1.55, ... (as many fraction digits as they had). Parameters keep
 * their numbers ($2 was read as `$` and the integer 2, made `$1`: `amount + $2::numeric` took
 * its scale from the first parameter's text).
 */
export function shapeKey(sql: string): string {
  // round(x, 2) and trunc(x, 2) take their scale from the integer: integers before a `)` stay then
  const scaled = /\b(?:round|trunc)\s*\(/i.test(sql);
  return sql.replace(TYPE_MODS_OR_LITERALS, (m, offset: number) => {
    if (m[0] === "'") {
      // a decimal in a string keeps its count of fraction digits too ('10.50'::numeric is 10.50)
      const digits = /^'\s*[+-]?\d*\.(\d+)\s*'$/.exec(m);
      return digits ? `'1.${'5'.repeat(digits[1].length)}'` : "''";
    }
    if (/^[a-z]/i.test(m)) return m; // a type's modifiers (numeric(10,2)) are part of the shape
    if (/^\d+$/.test(m)) {
      if (scaled && /^\s*\)/.test(sql.slice(offset + m.length))) return m;
      if (m.length < 10 || Number(m) <= 2147483647) return '1';
      // 2147483648 is int8 but -2147483648 int4, and 9223372036854775808 numeric but its negation
      // int8 (PostgreSQL folds the sign into the constant): those stay as they are
      const n = BigInt(m);
      return n === 2147483648n || n > 9223372036854775807n ? m : '9999999999';
    }
    // a decimal keeps its count of fraction digits, which is its numeric's display scale
    const frac = /^\d*\.(\d*)$/.exec(m);
    if (frac) return `1.${'5'.repeat(frac[1].length)}`;
    // and one with an exponent the digits after the point less the exponent (2.5e-1 is 0.25, 1e3
    // 1000: numeric-scale.ts), as a decimal of that many (all of them were one shape, 1.5e1's)
    const exp = /^\d*(?:\.(\d*))?e([-+]?\d+)$/i.exec(m);
    const scale = exp ? Math.max(0, (exp[1]?.length ?? 0) - Number(exp[2])) : 0;
    return scale > 0 ? `1.${'5'.repeat(scale)}` : '1.5e1';
  });
}

const CACHE_MAX = 1024;
const cache = new Lru<string, ResultColumn[] | null>(CACHE_MAX);
let cachedFor: Schema | null = null;
export const resultTypeStats = { hits: 0, misses: 0 };

/** resultColumns, kept by the text's shape (forgotten when the schema changes). */
export function cachedResultColumns(
  sql: string,
  schema: Schema,
  declared: readonly number[] = [],
): ResultColumn[] | null {
  if (!parserLoaded()) return null;
  if (cachedFor !== schema) {
    cache.clear();
    cachedFor = schema;
  }
  // the declared parameter types type the columns too (abs($1) of an int4): part of the key
  const typed = declared.some((t) => t !== 0);
  const shape = shapeKey(sql);
  const key = typed ? `${shape}\0${declared.join(',')}` : shape;
  const hit = cache.get(key);
  if (hit !== undefined) {
    resultTypeStats.hits++;
    return hit;
  }
  resultTypeStats.misses++;
  const cols = typed ? withParamTypes(declared, () => resultColumns(shape, schema)) : resultColumns(shape, schema);
  cache.set(key, cols);
  return cols;
}
