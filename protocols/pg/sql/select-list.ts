// The PostgreSQL type (and, for an unaliased column, the name) of each item of a SELECT list as far
// as its tokens tell: booleans from comparisons, casts and typed literals, integer and decimal
// literals, functions whose values do not tell (count, avg, date_trunc). The parse tree's answer
// (sql/result-types.ts) comes first where there is one; this is for what it leaves open.
import { OID, oidOfDeclType } from '../types/oids';
import { type PgToken, identName } from './lexer';
import { lookup } from '../../../src/lookup';

/** PostgreSQL's name of a type as a cast spells it (the name an unaliased `x::type` column gets). */
const CAST_NAMES: Record<string, string> = lookup({
  int: 'int4',
  integer: 'int4',
  int4: 'int4',
  bigint: 'int8',
  int8: 'int8',
  smallint: 'int2',
  int2: 'int2',
  serial: 'int4',
  bigserial: 'int8',
  real: 'float4',
  float4: 'float4',
  float: 'float8',
  float8: 'float8',
  'double precision': 'float8',
  bool: 'bool',
  boolean: 'bool',
  text: 'text',
  varchar: 'varchar',
  'character varying': 'varchar',
  char: 'bpchar',
  character: 'bpchar',
  bpchar: 'bpchar',
  name: 'name',
  numeric: 'numeric',
  decimal: 'numeric',
  date: 'date',
  time: 'time',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
  json: 'json',
  jsonb: 'jsonb',
  uuid: 'uuid',
  bytea: 'bytea',
  oid: 'oid',
  regclass: 'regclass',
  interval: 'interval',
  'timestamp with time zone': 'timestamptz',
  'timestamp without time zone': 'timestamp',
  'time without time zone': 'time',
  // (timetz has no type of its own here: its text with the offset, as `::timetz` is)
  'time with time zone': 'text',
});

/** Result types of functions whose values do not tell (a timestamp is text in SQLite). */
const FUNCTION_TYPES: Record<string, string> = lookup({
  date_trunc: 'timestamp',
  date_part: 'float8',
  extract: 'numeric',
  to_timestamp: 'timestamptz',
  avg: 'numeric',
  total: 'float8', // SQLite's avg is REAL, 2.0 reads as the integer 2
  count: 'int8',
});

/** The type a cast or typed literal names: the words of `type` (after `::`, `AS`, or before the literal). */
function castTypeName(type: PgToken[]): string | null {
  const words = type
    .filter(
      (t) => t.text !== '.' && t.text.toLowerCase() !== 'pg_catalog' && (t.type === 'word' || t.type === 'quoted'),
    )
    .map((t) => identName(t));
  return CAST_NAMES[words.join(' ')] ?? CAST_NAMES[words[0] ?? ''] ?? null;
}

const castOid = (typeName: string) => (typeName === 'int4' || typeName === 'int2' ? OID.int8 : oidOfDeclType(typeName));

/** Operators and words whose result is boolean when they stand at the top of an expression. */
const BOOL_OPS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', '~', '!~', '~*', '!~*', '~~', '!~~', '~~*', '!~~*']);
const BOOL_WORDS = new Set(['IS', 'NOT', 'IN', 'LIKE', 'ILIKE', 'BETWEEN', 'EXISTS', 'AND', 'OR']);

/**
 * The PostgreSQL type (and, for an unaliased column, the name) of each item of a SELECT's list, as
 * far as the SQL itself tells: TRUE/FALSE and comparisons are bool, a trailing `::type` is that
 * type, an integer literal is int4 (int8 when larger), a decimal literal numeric. oid 0 and name
 * null where the SQL does not tell (then the values and SQLite's name decide). Null when the list
 * has a `*` (its items do not match the columns one to one).
 */
export function selectListTypes(sig: PgToken[]): { name: string | null; oid: number; param?: number }[] | null {
  const items = selectListItems(sig);
  if (items === null) return null;
  if (
    items.some(
      (it) =>
        it.length === 0 || (it[it.length - 1].text === '*' && (it.length === 1 || it[it.length - 2].text === '.')),
    )
  )
    return null;
  return items.map(selectItemType);
}

/**
 * One select item's type and name as selectListTypes finds them (oid 0 where the SQL does not tell;
 * a bare parameter's number in `param`, aliased too, for the analysis to type it by the parameter's).
 */
export function selectItemType(it: PgToken[]): { name: string | null; oid: number; param?: number } {
  let expr = it;
  let aliased = false;
  if (it.length >= 3 && it[it.length - 2].type === 'word' && it[it.length - 2].text.toUpperCase() === 'AS') {
    expr = it.slice(0, -2);
    aliased = true;
  }
  if (expr.length === 1 && expr[0].type === 'param')
    return { name: null, oid: 0, param: Number(expr[0].text.slice(1)) };
  const named = (name: string | null, oid: number) => ({ name: aliased ? null : name, oid });
  if (expr.length === 1 && expr[0].type === 'word' && ['TRUE', 'FALSE'].includes(expr[0].text.toUpperCase()))
    return named('?column?', OID.bool);
  const lit = expr.length === 2 && expr[0].text === '-' ? expr[1] : expr.length === 1 ? expr[0] : null;
  if (lit && lit.type === 'number') {
    if (!/^\d+$/.test(lit.text)) return named(null, OID.numeric);
    const n = expr.length === 2 ? -BigInt(lit.text) : BigInt(lit.text);
    if (n >= -2147483648n && n <= 2147483647n) return named(null, OID.int4);
    return named(null, n >= -9223372036854775808n && n <= 9223372036854775807n ? OID.int8 : OID.numeric);
  }
  let d = 0;
  let castAt = -1;
  for (let k = 0; k < expr.length; k++) {
    const t = expr[k];
    const up = t.type === 'word' ? t.text.toUpperCase() : '';
    if (t.text === '(' || t.text === '[' || up === 'CASE') d++;
    else if (t.text === ')' || t.text === ']' || up === 'END') d--;
    else if (d === 0 && ((t.type === 'op' && BOOL_OPS.has(t.text)) || BOOL_WORDS.has(up)))
      return named(up === 'EXISTS' && k === 0 ? 'exists' : '?column?', OID.bool);
    else if (d === 0 && t.text === '::') castAt = k;
  }
  // `a - b::interval` casts only b: an operator expression, as PostgreSQL names it
  if (castAt >= 0 && topLevelOperator(expr.slice(0, castAt))) return named('?column?', 0);
  if (castAt >= 0) {
    const rest = expr.slice(castAt + 1);
    const typeName = rest.some((t) => t.text === '[') ? null : castTypeName(rest);
    if (typeName === null) return named(null, 0);
    return named(operandName(expr.slice(0, castAt)) ?? typeName, castOid(typeName));
  }
  const first = expr[0].type === 'word' ? expr[0].text.toUpperCase() : '';
  // CAST(x AS type): named and typed as x::type
  if (first === 'CAST' && expr[1]?.text === '(' && expr[expr.length - 1].text === ')') {
    let as = -1;
    for (let k = 2, depth = 0; k < expr.length - 1; k++) {
      if (expr[k].text === '(') depth++;
      else if (expr[k].text === ')') depth--;
      else if (depth === 0 && expr[k].type === 'word' && expr[k].text.toUpperCase() === 'AS') as = k;
    }
    const typeName = as < 0 ? null : castTypeName(expr.slice(as + 1, -1));
    if (typeName !== null) return named(operandName(expr.slice(2, as)) ?? typeName, castOid(typeName));
  }
  // a typed literal: DATE '2026-01-01', TIMESTAMP WITH TIME ZONE '...', INTERVAL '7 days'
  const litAt = expr.findIndex((t) => t.type === 'string');
  if (litAt >= 1 && expr.every((t, k) => k === litAt || t.type === 'word')) {
    const typeName = castTypeName(expr.slice(0, litAt));
    if (typeName !== null) return named(typeName, castOid(typeName));
  }
  const name = operandName(expr);
  const fnType = name !== null && expr.length > 1 ? FUNCTION_TYPES[name] : undefined;
  return named(name, fnType ? oidOfDeclType(fnType) : 0);
}

/** Whether tokens hold an operator outside parentheses (`a - b`, `-1`). */
function topLevelOperator(expr: PgToken[]): boolean {
  let d = 0;
  for (const t of expr) {
    if (t.text === '(' || t.text === '[') d++;
    else if (t.text === ')' || t.text === ']') d--;
    else if (d === 0 && t.type === 'op' && t.text !== '.') return true;
  }
  return false;
}

/**
 * PostgreSQL's name for an unaliased operand when the SQL shows it: a column's name, a function's
 * name, `case`; a cast keeps its operand's name (`aid::text` is aid). Null when it does not show.
 */
function operandName(expr: PgToken[]): string | null {
  const first = expr[0];
  const last = expr[expr.length - 1];
  if (!first || !last) return null;
  const ident = (t: PgToken) =>
    t.type === 'quoted' || (t.type === 'word' && !['TRUE', 'FALSE', 'NULL'].includes(t.text.toUpperCase()));
  if (expr.every((t, k) => (k % 2 === 0 ? ident(t) : t.text === '.'))) return identName(last);
  if (
    first.type === 'word' &&
    first.text.toUpperCase() === 'CASE' &&
    last.type === 'word' &&
    last.text.toUpperCase() === 'END'
  )
    return 'case';
  if (first.type === 'word' && expr[1]?.text === '(' && last.text === ')' && first.text.toUpperCase() !== 'CAST') {
    let d = 0;
    for (let k = 1; k < expr.length; k++) {
      if (expr[k].text === '(') d++;
      else if (expr[k].text === ')' && --d === 0) return k === expr.length - 1 ? first.text.toLowerCase() : null;
    }
  }
  return null;
}

/** The items of the first SELECT list (CASE ... END and parentheses nest); null without SELECT. */
export function selectListItems(sig: PgToken[]): PgToken[][] | null {
  const start = sig.findIndex((t) => t.type === 'word' && t.text.toUpperCase() === 'SELECT');
  if (start < 0) return null;
  const items: PgToken[][] = [];
  let item: PgToken[] = [];
  let depth = 0;
  for (let i = start + 1; i < sig.length; i++) {
    const t = sig[i];
    const up = t.type === 'word' ? t.text.toUpperCase() : '';
    if (t.text === '(' || up === 'CASE') depth++;
    if (t.text === ')' || up === 'END') depth--;
    if (
      depth === 0 &&
      [
        'FROM',
        'WHERE',
        'UNION',
        'INTERSECT',
        'EXCEPT',
        'ORDER',
        'GROUP',
        'LIMIT',
        'OFFSET',
        'HAVING',
        'WINDOW',
        'INTO',
      ].includes(up)
    )
      break;
    if (depth === 0 && t.text === ',') {
      items.push(item);
      item = [];
    } else if (!(i === start + 1 && (up === 'DISTINCT' || up === 'ALL'))) item.push(t);
  }
  items.push(item);
  return items;
}
