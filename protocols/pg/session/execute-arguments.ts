// EXECUTE's arguments as the values of its prepared statement's parameters, as PostgreSQL's
// EvaluateParams makes them: each entering as Bind's text does, after PostgreSQL's checks (an
// expression of a type it does not assign to the parameter's, a subquery, an aggregate or window
// function). The prepared statements themselves are prepared.ts'.
import { type InputStyle, withInputStyle } from '../../../src/engine/dates';
import type { SqlValue } from '../../../src/engine/values';
import { AGGREGATES } from '../sql/grouping';
import { lexPg } from '../sql/lexer';
import { PgError, pgError, pgErrorAt, sqlstateOf } from '../sqlstate';
import { OID, regtypeName } from '../types/oids';
import { elementOidOf } from '../types/registry';
import { paramValue, textOf } from '../types/values';
import type { Outcome } from './engine';
import { sentScale } from '../connection/portal';

const NUMBERS = new Set<number>([OID.int2, OID.int4, OID.int8, OID.float4, OID.float8, OID.numeric, OID.oid]);
const STRINGS = new Set<number>([OID.text, OID.varchar, OID.bpchar, OID.name]);
const STAMPS = new Set<number>([OID.date, OID.timestamp, OID.timestamptz]);
const JSONS = new Set<number>([OID.json, OID.jsonb]);
/** The types whose assignment casts are known here; between others the cast decides. */
const KNOWN = new Set<number>([
  ...NUMBERS,
  ...STRINGS,
  ...STAMPS,
  OID.time,
  OID.interval,
  OID.bool,
  OID.uuid,
  OID.bytea,
  ...JSONS,
]);

/**
 * Whether PostgreSQL assigns a value of type `from` to a parameter of type `to` (its implicit and
 * assignment casts, and any type to a string; an array to an array whose elements take its
 * elements): EXECUTE's argument otherwise is 42804. `'{}'::jsonb` for an int, `now()` for a jsonb
 * and `ARRAY[1]` for an int were cast (22P02 from the cast's input) rather than refused.
 */
function assignable(from: number, to: number): boolean {
  if (from === to || STRINGS.has(to)) return true;
  const fromElement = elementOidOf(from);
  const toElement = elementOidOf(to);
  if (fromElement !== undefined || toElement !== undefined)
    return fromElement !== undefined && toElement !== undefined && assignable(fromElement, toElement);
  if (!KNOWN.has(from) || !KNOWN.has(to)) return true;
  if (JSONS.has(from) || JSONS.has(to)) return JSONS.has(from) && JSONS.has(to);
  if (NUMBERS.has(from)) return NUMBERS.has(to);
  if (STAMPS.has(from)) return STAMPS.has(to) || (to === OID.time && from !== OID.date);
  if (from === OID.time) return to === OID.interval;
  if (from === OID.interval) return to === OID.time;
  return false;
}

/** Where a subquery starts in an argument (its parenthesis, where PostgreSQL points), or -1 for none. */
function subqueryAt(arg: string): number {
  const tokens = lexPg(arg);
  let at = 0;
  let open = -1;
  for (const t of tokens) {
    if (t.type === 'punct' && t.text === '(') open = at;
    else if (t.type === 'word' && /^(?:select|values)$/i.test(t.text)) return open >= 0 ? open : at;
    else if (t.type !== 'space' && t.type !== 'comment') open = -1;
    at += t.text.length;
  }
  return -1;
}

/** The first aggregate or window function call in an argument (PostgreSQL refuses both there): where its name starts. */
function groupedCallAt(arg: string): { at: number; window: boolean } | null {
  const tokens = lexPg(arg);
  const starts: number[] = [];
  let at = 0;
  for (const t of tokens) {
    starts.push(at);
    at += t.text.length;
  }
  const next = (k: number) => {
    while (k < tokens.length && (tokens[k].type === 'space' || tokens[k].type === 'comment')) k++;
    return k;
  };
  for (let k = 0; k < tokens.length; k++) {
    const open = next(k + 1);
    if (tokens[k].type !== 'word' || tokens[open]?.text !== '(') continue;
    let depth = 0;
    let close = open;
    for (; close < tokens.length; close++) {
      if (tokens[close].text === '(') depth++;
      else if (tokens[close].text === ')' && --depth === 0) break;
    }
    // (FILTER (WHERE ...) after an aggregate's parentheses, then OVER for a window)
    let after = next(close + 1);
    if (/^filter$/i.test(tokens[after]?.text ?? '')) {
      depth = 0;
      for (after = next(after + 1); after < tokens.length; after++) {
        if (tokens[after].text === '(') depth++;
        else if (tokens[after].text === ')' && --depth === 0) break;
      }
      after = next(after + 1);
    }
    const window = /^over$/i.test(tokens[after]?.text ?? '');
    if (window || AGGREGATES.has(tokens[k].text.toLowerCase())) return { at: starts[k], window };
  }
  return null;
}

/** A string literal as written ('it''s'): its text in group 1. */
const STRING_LITERAL = /^'((?:[^']|'')*)'$/;

/**
 * The scale of each argument, for the result columns that print at their parameters' scale
 * (`SELECT $1` of a numeric): written as a literal ('1.50', 1.50: 2), as Bind's text tells it; an
 * expression's as the analysis of `SELECT (expression)` types it (`2 * 1.25`: 2, `x::numeric(10,3)`:
 * 3; it printed 2.5 where PostgreSQL's numeric keeps 2.50), by `scaleOf`; 0 otherwise.
 */
export function argumentScales(
  args: string[],
  scaleOf: (sql: string) => number | undefined = () => undefined,
  evaluated: (number | undefined)[] = [],
): number[] {
  return args.map((arg, i) => {
    const literal = STRING_LITERAL.exec(arg.trim())?.[1];
    const text = literal ?? arg.trim();
    const sent = sentScale(Buffer.from(text), 0);
    if (literal !== undefined || sent > 0 || /^[-+]?\d+$/.test(text)) return sent;
    // (else the scale of the value's text: a division's, `10.0 / 4` 2.5000000000000000, is the value's)
    return scaleOf(`SELECT (${arg})`) ?? evaluated[i] ?? 0;
  });
}

/**
 * EXECUTE's arguments as the values of the statement's parameters, each entering as Bind's text
 * does (its type's input, in the session's DateStyle order and IntervalStyle): NULL as NULL, a string literal as its
 * text (22P02 for 'abc' as an integer, as PostgreSQL's); any other expression evaluated by
 * `evaluate` as `SELECT CAST((expression) AS type)` and its value's text taken so (a subquery is
 * PostgreSQL's 0A000). 42601 when their number differs from the statement's parameters', with
 * PostgreSQL's DETAIL.
 */
export function argumentValues(
  name: string,
  args: string[],
  at: number[],
  types: number[],
  zone: string | null,
  style: InputStyle,
  evaluate: (sql: string) => Outcome | Promise<Outcome>,
  typeOf: (sql: string) => number | undefined,
  scales: (number | undefined)[] = [],
): SqlValue[] | Promise<SqlValue[]> {
  if (args.length !== types.length)
    throw pgError(
      '42601',
      `wrong number of parameters for prepared statement "${name}"`,
      'user',
      `Expected ${types.length} parameters but got ${args.length}.`,
    );
  const values: SqlValue[] = new Array(args.length);
  const text = (i: number, s: string | null) => {
    try {
      values[i] = withInputStyle(style, () => paramValue(s === null ? null : Buffer.from(s), types[i], 0, i, zone));
    } catch (err) {
      // the type input's words, DETAIL and CONTEXT (json's `JSON data, line 1: ...`) as PostgreSQL's
      // EXECUTE reports them, at the argument (Bind adds the parameter's CONTEXT)
      const { code, message, detail, where } = sqlstateOf(err);
      const e = new PgError('user', message, code, detail);
      e.position = at[i];
      if (where !== undefined) e.where = where;
      throw e;
    }
  };
  const waits: Promise<void>[] = [];
  args.forEach((arg, i) => {
    const literal = STRING_LITERAL.exec(arg.trim());
    if (literal) return text(i, literal[1].split("''").join("'"));
    if (/^null$/i.test(arg.trim())) return text(i, null);
    const sub = subqueryAt(arg);
    if (sub >= 0) throw pgErrorAt('0A000', 'cannot use subquery in EXECUTE parameter', at[i] + sub);
    const call = groupedCallAt(arg);
    if (call)
      throw pgErrorAt(
        call.window ? '42P20' : '42803',
        `${call.window ? 'window' : 'aggregate'} functions are not allowed in EXECUTE parameters`,
        at[i] + call.at,
      );
    // (a parameter the statement leaves open is PostgreSQL's text: the argument is made text, then
    // enters as Bind's untyped text does; it was evaluated as it stood, `1.50` giving 1.5)
    const given = types[i] ? typeOf(`SELECT (${arg})`) : undefined;
    if (given && !assignable(given, types[i])) {
      const err = pgErrorAt(
        '42804',
        `parameter $${i + 1} of type ${regtypeName(given)} cannot be coerced to the expected type ${regtypeName(types[i])}`,
        at[i],
      ) as PgError;
      err.hint = 'You will need to rewrite or cast the expression.';
      throw err;
    }
    // a numeric one as its text, which enters as Bind's does: SQLite's CAST to NUMERIC made a division's
    // 2.5000000000000000 the REAL 2.5, printed so (its scale is the text's, `scales`)
    const numeric = types[i] === OID.numeric;
    const out = evaluate(`SELECT CAST((${arg}) AS ${numeric ? 'text' : regtypeName(types[i] || OID.text)})`);
    const take = (o: Outcome) => {
      const value = textOf(o.all?.[0]?.[0] ?? null, numeric ? OID.text : types[i] || OID.text);
      if (numeric && value !== null) scales[i] = sentScale(Buffer.from(value), 0);
      text(i, value);
    };
    if (!(out instanceof Promise)) return take(out);
    waits.push(
      out.then(async (o) => {
        if (o.all || !o.rows) return take(o);
        const first = await o.rows.next();
        o.rows.cancel();
        take({ ...o, all: first ?? [] });
      }),
    );
  });
  return waits.length === 0 ? values : Promise.all(waits).then(() => values);
}
