// Calls PostgreSQL finds no function for, by their arguments' types: a string function of a number,
// a date or a boolean (`lower(id)`, `length(n)`, `substr(d, 1, 4)`), `round(x, 2)` of a double, `sum`,
// `avg`, `stddev` or `variance` of text, a boolean, a date, json or an array, `string_agg` of a number,
// `min` or `max` of a boolean, `array_cat` of arrays with no common element type. PostgreSQL has no implicit cast
// from those types to text (nor one to numeric for round's two-argument form), so each is 42883 with
// its HINT at the call; SQLite computed on the stored value and answered. Checked in the walk of
// typed-operators.ts, where the tree's types are known; an argument of unknown type (0: a string
// literal, an untyped parameter, what the analysis cannot type) passes, as PostgreSQL resolves one.
import { pgError } from '../sqlstate';
import { OID, TYPE_DISPLAY } from '../types/oids';
import { elementOidOf } from '../types/registry';
import type { Typer } from './expression-types';
import { FLOATS, strings } from './type-signatures';
import { lookup } from '../../../src/lookup';

// biome-ignore lint/suspicious/noExplicitAny: libpg_query's JSON tree
type Node = any;

/** Types no text function takes (PostgreSQL casts none of them to text implicitly). */
const NOT_TEXT = new Set<number>([
  OID.int2, OID.int4, OID.int8, OID.numeric, OID.float4, OID.float8, OID.bool, OID.date, OID.time,
  OID.timestamp, OID.timestamptz, OID.interval, OID.json, OID.jsonb, OID.uuid,
]); // biome-ignore format: a type list

/** The string functions and which of their arguments (0 first) are the strings. */
const TEXT_ARGUMENTS: Record<string, readonly number[]> = lookup({
  lower: [0], upper: [0], initcap: [0], reverse: [0], ascii: [0], md5: [0], quote_ident: [0],
  length: [0], char_length: [0], character_length: [0], octet_length: [0], bit_length: [0],
  substr: [0], substring: [0], position: [0, 1], left: [0], right: [0], repeat: [0], lpad: [0, 2], rpad: [0, 2],
  btrim: [0, 1], ltrim: [0, 1], rtrim: [0, 1], replace: [0, 1, 2], translate: [0, 1, 2],
  split_part: [0, 1], strpos: [0, 1], starts_with: [0, 1], string_to_array: [0, 1],
  regexp_replace: [0, 1], regexp_match: [0, 1], regexp_matches: [0, 1], regexp_split_to_array: [0, 1],
  string_agg: [0],
}); // biome-ignore format: a word list

const NUMBERS = [OID.int2, OID.int4, OID.int8, OID.numeric, OID.float4, OID.float8];
/**
 * Aggregates of numbers (and intervals: sum, avg) only, by what they take (PostgreSQL's money has no
 * Patina type): of text, a boolean, a date, json, bytea or an array there is no such function.
 */
const SUMS: Record<string, ReadonlySet<number>> = lookup({
  sum: new Set([...NUMBERS, OID.interval]),
  avg: new Set([...NUMBERS, OID.interval]),
  ...Object.fromEntries(
    ['stddev', 'stddev_samp', 'stddev_pop', 'variance', 'var_samp', 'var_pop'].map((f) => [f, new Set(NUMBERS)]),
  ),
});

/** The functions noFunctionFor checks (typed-operators-hint.ts parses a statement calling one). */
export const CHECKED_ARGUMENTS: ReadonlySet<string> = new Set([
  ...Object.keys(TEXT_ARGUMENTS),
  ...Object.keys(SUMS),
  'round',
  'trunc',
  'array_cat',
]);

/** Element types of one category (anycompatiblearray finds a common type within one). */
const STRING_TYPES = new Set<number>([OID.text, OID.varchar, OID.bpchar, OID.name]);
const category = (t: number) => ((NUMBERS as number[]).includes(t) ? -1 : STRING_TYPES.has(t) ? -2 : t);

/** An argument's type as PostgreSQL's 42883 names it: a string literal's is `unknown`. */
function argName(n: Node, type: number): string {
  if (n?.A_Const?.sval !== undefined || type === 0) return 'unknown';
  return TYPE_DISPLAY[type] ?? 'unknown';
}

/** Whether a value of this type cannot be a text function's string: a number, date, boolean, json, array. */
function notText(type: number): boolean {
  return NOT_TEXT.has(type) || (type !== OID.bytea && elementOidOf(type) !== undefined);
}

/**
 * PostgreSQL's 42883 for a call no function of that name takes (see above), with the arguments'
 * types as it names them; undefined for a call it resolves.
 */
export function noFunctionFor(f: Node, typer: Typer): Error | undefined {
  const fn = strings(f.funcname).pop()?.toLowerCase() ?? '';
  const args: Node[] = f.args ?? [];
  if (args.length === 0 || f.agg_star) return undefined;
  const types = () => args.map((a) => (a?.A_Const?.sval !== undefined ? 0 : typer.type(a)));
  let bad = false;
  const positions = TEXT_ARGUMENTS[fn];
  if (positions) {
    const ts = types();
    bad = positions.some((k) => k < ts.length && notText(ts[k]));
  } else if (SUMS[fn] && args.length === 1 && !f.agg_within_group) {
    const t = types()[0];
    const other = NOT_TEXT.has(t) || t === OID.text || t === OID.varchar || t === OID.bpchar || t === OID.bytea;
    bad = t !== 0 && !SUMS[fn].has(t) && (other || elementOidOf(t) !== undefined);
  } else if ((fn === 'min' || fn === 'max') && args.length === 1 && !f.agg_within_group) {
    // (of booleans PostgreSQL has bool_and and bool_or: no min or max; SQLite's took 0 and 1)
    bad = types()[0] === OID.bool;
  } else if (fn === 'array_cat' && args.length === 2) {
    // arrays of elements with no common type (`ARRAY[1]` and `ARRAY['a']`, integer[] and text[]):
    // anycompatiblearray resolves none (SQLite's json arrays joined them)
    const [a, b] = types().map((t) => elementOidOf(t) ?? 0);
    bad = a !== 0 && b !== 0 && category(a) !== category(b);
  } else if ((fn === 'round' || fn === 'trunc') && args.length === 2) {
    bad = FLOATS.has(types()[0]); // round(numeric, int) only: no implicit cast from a double to numeric
  }
  if (!bad) return undefined;
  const names = args.map((a, k) => argName(a, types()[k]));
  // (named as written, with its schema: the SQL forms, `substring(x from 1)`, are pg_catalog's)
  const err = pgError('42883', `function ${strings(f.funcname).join('.')}(${names.join(', ')}) does not exist`);
  err.hint = 'No function matches the given name and argument types. You might need to add explicit type casts.';
  return err;
}
