// PostgreSQL's JSON builders and which of their arguments are values put in the document (the
// others are keys): the analysis types those values, the translation makes them JSON values
// (translate/json-values.ts). A bytea, or an array (SQLite holds PostgreSQL's array text, which
// its JSON functions put in as a string: to_json(ARRAY[1,2]) was "{1,2}", not [1,2]), is marked by
// its type on the call (builderValueMark), for the translation to write it as PostgreSQL does.
import { OID } from '../types/oids';
import { elementOidOf } from '../types/registry';
import type { Typer } from './expression-types';
import { isComputed, minimumScaleOf, scaleOf } from './numeric-scale';
import type { PgToken } from './lexer';
import { isPunct } from './tokens';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/**
 * Function → which arguments are values: 'all', 'odd' (json_build_object's), or an index. Without a
 * prototype: a word looked up here (`constructor`, `toString`) is no builder.
 */
export const BUILDER_VALUES: Readonly<Record<string, 'all' | 'odd' | number>> = Object.freeze(
  Object.assign(Object.create(null), {
    json_build_object: 'odd',
    jsonb_build_object: 'odd',
    json_build_array: 'all',
    jsonb_build_array: 'all',
    json_agg: 0,
    jsonb_agg: 0,
    to_json: 0,
    to_jsonb: 0,
    row_to_json: 0,
    array_to_json: 0,
    json_object_agg: 1,
    jsonb_object_agg: 1,
  }),
);

/** Whether argument `k` of a builder is a value. */
export function isBuilderValue(which: 'all' | 'odd' | number, k: number): boolean {
  return which === 'all' || (which === 'odd' && k % 2 === 1) || which === k;
}

/** Whether argument `k` of builder `name` (lower case) is an object's key: json_build_object's even ones, json_object_agg's first. */
export function isObjectKey(name: string, k: number): boolean {
  return BUILDER_VALUES[name] === 'odd' ? k % 2 === 0 : /^jsonb?_object_agg$/.test(name) && k === 0;
}

/**
 * The mark of a builder call with typed values: a flag an argument (`-` none, `b` bytea, an array's
 * flag of ARRAY_FLAGS, `{2}` a numeric of scale 2), a subquery's whole row its columns' flags in
 * parentheses: `-(n-{2})`.
 */
export const JSON_TYPED = 'json-typed:';

/**
 * An array's flag → how __pg_json_array writes its elements: JSON numbers (doubles in PostgreSQL's
 * float text, 1e+20, however SQLite computed them), true and false, ISO
 * dates and timestamps (timestamptz with its offset), JSON values, strings; `a` is a bytea[].
 */
export const ARRAY_FLAGS: Readonly<Record<string, string>> = Object.freeze({
  n: 'number',
  f: 'float8',
  r: 'float4',
  l: 'boolean',
  d: 'date',
  p: 'timestamp',
  z: 'timestamptz',
  j: 'json',
  s: 'string',
  a: 'bytea',
});

const NUMBERS = new Set<number>([OID.int2, OID.int4, OID.int8, OID.oid, OID.numeric]);

/** The flag of a value of type `oid` in a builder: `b` bytea, `R` real, `F` double, an array's flag, else `-`. */
export function valueFlag(oid: number): string {
  if (oid === OID.bytea) return 'b';
  // (a real as float4 prints it: 0.1, where its double is 0.10000000149011612)
  if (oid === OID.float4) return 'R';
  // (a double's shortest digits, 100 where SQLite's JSON of the REAL is 100.0)
  if (oid === OID.float8) return 'F';
  const e = elementOidOf(oid);
  if (e === undefined) return '-';
  if (NUMBERS.has(e)) return 'n';
  if (e === OID.float8 || e === OID.float4) return e === OID.float8 ? 'f' : 'r';
  if (e === OID.bool) return 'l';
  if (e === OID.date) return 'd';
  if (e === OID.timestamp) return 'p';
  if (e === OID.timestamptz) return 'z';
  if (e === OID.json || e === OID.jsonb) return 'j';
  return e === OID.bytea ? 'a' : 's';
}

/**
 * The mark of a builder call `typer` finds a bytea, an array or a numeric of known scale in, else
 * undefined. `exact` marks a numeric value computed exactly as text (an avg, a numeric division:
 * exact-columns.ts) and says whether it is one: of unknown scale it keeps the text's own digits
 * (`{}`: json_build_object('avg', avg(price)) is 6.2500000000000000, as PostgreSQL's avg prints).
 */
export function builderValueMark(f: Node, typer: Typer, exact?: (a: Node) => boolean): string | undefined {
  const name = strings(f.funcname).pop()?.toLowerCase() ?? '';
  const which = BUILDER_VALUES[name];
  if (which === undefined || f.func_variadic) return undefined;
  const args: Node[] = f.args ?? [];
  // an anonymous row, `row_to_json(row(a, b))`: json_build_object('f1', a, 'f2', b)'s flags, as
  // translate/anonymous-rows.ts writes it
  const fields: Node[] | undefined = which === 0 && args.length === 1 ? args[0]?.RowExpr?.args : undefined;
  const flags = fields
    ? fields.flatMap((a) => ['-', argumentFlag(a, typer, exact)])
    : args.map((a, k) => {
        // (an object's key of type boolean, `B`: its text is true or false, translate/json-values.ts)
        if (isObjectKey(name, k)) return typer.type(a) === OID.bool ? 'B' : '-';
        if (!isBuilderValue(which, k)) return '-';
        return argumentFlag(a, typer, exact);
      });
  return flags.some((x) => /[^-()]/.test(x)) ? JSON_TYPED + flags.join('') : undefined;
}

/** The flag of a builder's value argument `a` (builderValueMark's). */
function argumentFlag(a: Node, typer: Typer, exact?: (a: Node) => boolean): string {
  const row = rowFlags(a, typer);
  if (row) return row;
  const oid = typer.type(a);
  const scale = valueScale(typer, a);
  const text = oid === OID.numeric && exact?.(a);
  if (text && scale === undefined) return '{}';
  // `$1::numeric`, `price + $1`: at least the scale of the parameters' text as bound (the value
  // reaches SQLite as a double: Bind writes the scale into the statement, PARAM_SCALE)
  const least = oid === OID.numeric && scale === undefined ? minimumScaleOf(typer, a) : undefined;
  if (least) return `{${[least.scale, ...least.params.map((k, j) => `${k}+${least.offsets[j]}`)].join(';')}}`;
  // (coalesce's values each as its own: the translation makes JSON of each, translate/json-values.ts)
  if (a?.CoalesceExpr && scale === undefined) return '-';
  // (a column's, parameter's or literal's double as it is, as its cell prints it)
  if (oid === OID.numeric && scale === undefined && !isComputed(a)) return '{=}';
  // (an integer an operator computes, which SQLite may hold as a REAL: a date's subtraction, 2.0)
  if (a?.A_Expr && (oid === OID.int2 || oid === OID.int4 || oid === OID.int8)) return 'I';
  return numericFlag(oid, scale);
}

/** A subquery's whole row (`s`, `s.*`): its columns' flags in parentheses; undefined for anything else. */
function rowFlags(a: Node, typer: Typer): string | undefined {
  const fields: Node[] = a?.ColumnRef?.fields ?? [];
  const star = fields.length === 2 && fields[1]?.A_Star;
  if (fields.length !== 1 && !star) return undefined;
  const name = fields[0]?.String?.sval?.toLowerCase();
  const source = name === undefined ? undefined : typer.scope.get(name);
  // (a bare name that is a column is that column)
  if (!Array.isArray(source) || (!star && typer.column([name]) !== OID.record)) return undefined;
  return `(${source
    .map((c) => {
      const scale = c.scale ?? typmodScale(c.oid, c.typmod);
      // (a subquery's column of a plain numeric as it is; a computed one at its 15 digits)
      return c.oid === OID.numeric && scale === undefined && !c.computed ? '{=}' : numericFlag(c.oid, scale);
    })
    .join('')})`;
}

/**
 * A numeric's flag: `{s}` when its scale `s` is known (to_json(1.50) is 1.50), else `{}`, its own
 * digits (an infinity, a REAL in SQLite, whose JSON would be 9.0e+999, is "Infinity" as there);
 * valueFlag's for any other type.
 */
function numericFlag(oid: number, scale: number | undefined): string {
  return oid === OID.numeric ? `{${scale ?? ''}}` : valueFlag(oid);
}

/**
 * The scale of every value of a numeric expression: scaleOf's, but for coalesce, CASE, GREATEST and
 * LEAST only when their values share it (each value keeps its own: coalesce(price, 0) of a NULL
 * price is 0, not 0.00).
 */
function valueScale(typer: Typer, a: Node): number | undefined {
  const parts: Node[] | undefined =
    a?.CoalesceExpr?.args ??
    a?.MinMaxExpr?.args ??
    (a?.CaseExpr
      ? [...(a.CaseExpr.args ?? []).map((w: Node) => w.CaseWhen?.result), a.CaseExpr.defresult].filter(Boolean)
      : undefined);
  if (!parts) return scaleOf(typer, a);
  const scales = new Set(parts.filter((p) => !p.A_Const?.isnull).map((p) => valueScale(typer, p)));
  return scales.size === 1 ? [...scales][0] : undefined;
}

/** The scale of a numeric(p, s)'s type modifier. */
const typmodScale = (oid: number, typmod: number | undefined) =>
  oid === OID.numeric && typmod !== undefined && typmod >= 4 ? (typmod - 4) & 0xffff : undefined;

/**
 * A mark's flags, one an argument (a whole row's in parentheses, a numeric's scale in braces, `{}`
 * its own digits, `{=}` a stored double's own digits, `{2;1+0}` at least 2 and parameter 1's scale plus 0).
 */
export function markFlags(mark: string): string[] {
  return mark.match(/\([^)]*\)|\{[^}]*\}|./g) ?? [];
}

/** Words that may make a boolean an object builder's key cannot tell from its tokens (a CASE, a VALUES or unnest column). */
const BOOLEAN_KEY_WORD = /^(case|coalesce|nullif|greatest|least|values|unnest|bool|boolean|true|false)$/i;

/**
 * Whether a statement may hold an object builder (json_build_object, json_object_agg) whose key is
 * a boolean the translation cannot tell from its tokens: a cheap test before parsing.
 */
export function mayHoldJsonBooleanKeys(sig: PgToken[]): boolean {
  const object = (t: PgToken) => t.type === 'word' && /^(jsonb?_build_object|jsonb?_object_agg)$/i.test(t.text);
  return sig.some(object) && builderBeside(sig, (t) => t.type === 'word' && BOOLEAN_KEY_WORD.test(t.text));
}

/** Words that make an array: ARRAY[...], array_agg, string_to_array, array_append, regexp_split_to_array, ... */
const ARRAY_WORD = /^(array|array_\w+|string_to_array|regexp_split_to_array|regexp_match(es)?)$/i;

/** Whether a statement holds a builder's call and, anywhere, a token `other` accepts. */
function builderBeside(sig: PgToken[], other: (t: PgToken) => boolean): boolean {
  let call = false;
  let seen = false;
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    call ||= t.type === 'word' && BUILDER_VALUES[t.text.toLowerCase()] !== undefined && isPunct(sig[i + 1], '(');
    seen ||= other(t);
    if (call && seen) return true;
  }
  return false;
}

/**
 * Whether a statement may hold a builder of an array value: a builder's call and an array's word
 * or a `[` (`::int[]`). A cheap test before parsing; a table's array columns the translation
 * types by their declared types.
 */
export function mayHoldJsonArrays(sig: PgToken[]): boolean {
  return builderBeside(sig, (t) => (t.type === 'word' && ARRAY_WORD.test(t.text)) || isPunct(t, '['));
}

/** Words whose value may be a computed numeric of a known scale (sum(price), round(x, 2), x::numeric(10,2)). */
const NUMERIC_WORD = /^(sum|min|max|round|trunc|abs|ceil|ceiling|floor|coalesce|greatest|least|numeric|decimal)$/i;

/**
 * Whether a statement may hold a builder of a computed numeric (a decimal literal, arithmetic, or
 * a numeric function or cast beside a builder's call): a cheap test before parsing; a table's
 * numeric(p, s) columns the translation types by their declared types.
 */
export function mayHoldJsonNumerics(sig: PgToken[]): boolean {
  return builderBeside(
    sig,
    (t) =>
      (t.type === 'number' && /[.eE]/.test(t.text)) ||
      (t.type === 'op' && /^[-+*/%]$/.test(t.text)) ||
      (t.type === 'word' && NUMERIC_WORD.test(t.text)),
  );
}

/**
 * The string that stands for a numeric's JSON scale given by parameters (`'pg-param-scale:2;1+0'`:
 * at least 2 and parameter 1's scale as bound plus 0): Bind replaces it with the number
 * (connection/extended-query.ts, paramScaledSql); __pg_json_numeric_least takes the first number where
 * it was not replaced.
 */
export const PARAM_SCALE = 'pg-param-scale:';

/**
 * A statement's analysis with its PARAM_SCALE strings replaced by the scales of the parameters'
 * values (paramScaledSql): Bind's, given the text sent, and EXECUTE's, given its arguments; the
 * analysis itself when it has none.
 */
export function paramScaledAnalysis<T extends { sql: string; positional?: string }>(
  an: T,
  sent: (k: number) => number,
): T {
  if (!an.sql.includes(PARAM_SCALE)) return an;
  return {
    ...an,
    sql: paramScaledSql(an.sql, sent),
    ...(an.positional !== undefined ? { positional: paramScaledSql(an.positional, sent) } : {}),
  };
}

/** `sql` with each PARAM_SCALE string replaced by its scale, given each parameter's (1-based: `sent[k - 1]`). */
export function paramScaledSql(sql: string, sent: (k: number) => number): string {
  return sql.replace(/'pg-param-scale:([\d;+]+)'/g, (_, spec: string) => {
    const [base, ...params] = spec.split(';');
    let scale = Number(base);
    for (const p of params) {
      const [k, add] = p.split('+').map(Number);
      scale = Math.max(scale, sent(k) + add);
    }
    return String(scale);
  });
}
