// A session's prepared statements, one namespace for the extended protocol's (Parse) and SQL's
// (PREPARE), as in PostgreSQL: a Parse named "p" and `PREPARE p` collide, EXECUTE runs either, Bind
// binds either, DEALLOCATE and DISCARD ALL drop both; pg_prepared_statements lists them. Each keeps
// its analysis (made once per text and parameter types in the session's Analyzer, shared by Parse
// and PREPARE) and what it was made in (the session's zone and output styles then).
import { type InputStyle, withInputStyle } from '../../../src/engine/dates';
import type { SqlValue } from '../../../src/engine/values';
import type { Analyzer } from '../sql/analyze';
import type { Analyzed } from '../sql/analyzed';
import { AGGREGATES } from '../sql/grouping';
import { type PgToken, lexPg, splitPgStatements } from '../sql/lexer';
import { type PgError, pgError, pgErrorAt, sqlstateOf } from '../sqlstate';
import { OID, oidOfDeclType, oidOfValue, regtypeName } from '../types/oids';
import { inputStyleIn, type OutputStyles } from '../types/output-styles';
import { paramValue, textOf } from '../types/values';
import type { Outcome } from './engine';

export interface Prepared {
  an: Analyzed;
  sql: string;
  paramTypes: number[];
  zone: string | null;
  styles: OutputStyles;
  /** Its analysis for another zone or other output styles than Parse's, the last one asked for. */
  rezoned?: { zone: string | null; styles: OutputStyles; an: Analyzed };
  /** What pg_prepared_statements shows: the text the client sent (the whole Query message of a PREPARE), */
  source: string;
  /** made by PREPARE rather than Parse, when (ms), */
  fromSql: boolean;
  at: number;
  /** and how often it ran with parameters (custom_plans) and without (generic_plans). */
  custom: number;
  generic: number;
}

/** A row of pg_prepared_statements (parameter_types as the regtype[] text). */
export interface PreparedRow {
  name: string;
  statement: string;
  prepareTime: number;
  parameterTypes: number[];
  fromSql: boolean;
  genericPlans: number;
  customPlans: number;
}

/** The one statement of a Parse's text (42601 for several). */
export function oneStatement(sql: string): PgToken[] {
  const stmts = splitPgStatements(sql);
  if (stmts.length > 1) throw pgError('42601', 'cannot insert multiple commands into a prepared statement');
  return stmts[0] ?? lexPg('');
}

export class PreparedStatements {
  readonly #analyzer: Analyzer;
  readonly #statements = new Map<string, Prepared>();

  constructor(analyzer: Analyzer) {
    this.#analyzer = analyzer;
  }

  /**
   * A statement analysed (once per text and parameter types) and named: Parse checks the name first
   * (its own order), PREPARE after the analysis, as PostgreSQL's StorePreparedStatement does.
   */
  add(name: string, sql: string, paramTypes: number[], source: string, fromSql: boolean): Prepared {
    const analyzer = this.#analyzer;
    const an = analyzer.cached(`P${paramTypes.join(',')}\0${sql}`, () => oneStatement(sql), paramTypes);
    if (name !== '' && this.#statements.has(name))
      throw pgError('42P05', `prepared statement "${name}" already exists`);
    const p: Prepared = {
      an,
      sql,
      paramTypes,
      zone: analyzer.zone(),
      styles: analyzer.styles(),
      source,
      fromSql,
      at: Date.now(),
      custom: 0,
      generic: 0,
    };
    this.#statements.set(name, p);
    return p;
  }

  has(name: string): boolean {
    return this.#statements.has(name);
  }

  /** The statement named so, or PostgreSQL's 26000. */
  get(name: string): Prepared {
    const p = this.#statements.get(name);
    if (!p) throw pgError('26000', `prepared statement "${name}" does not exist`);
    return p;
  }

  /** Close (no error for none, as the protocol's Close) */
  delete(name: string): boolean {
    return this.#statements.delete(name);
  }

  /** DEALLOCATE ALL, DISCARD ALL: every named statement (the unnamed one is the protocol's, as in PostgreSQL). */
  clear() {
    const unnamed = this.#statements.get('');
    this.#statements.clear();
    if (unnamed) this.#statements.set('', unnamed);
  }

  /**
   * The statement's analysis for the session's zone and output styles now: the one made at Parse,
   * or, after a `SET TIME ZONE` (or IntervalStyle, bytea_output) since, one made again with its
   * literals read in the zone of Parse (kept for the last zone and styles it was asked for).
   */
  inZone(p: Prepared): Analyzed {
    const analyzer = this.#analyzer;
    const zone = analyzer.zone();
    const styles = analyzer.styles();
    if (zone === p.zone && styles === p.styles) return p.an;
    if (p.rezoned?.zone !== zone || p.rezoned.styles !== styles)
      p.rezoned = {
        zone,
        styles,
        an: analyzer.analyzeRezoned(oneStatement(p.sql), p.paramTypes, p.zone, inputStyleIn(p.styles)),
      };
    return p.rezoned.an;
  }

  /** A run of the statement (Bind, EXECUTE), counted as PostgreSQL's plan counts: custom with parameters, generic without. */
  ran(p: Prepared) {
    if (p.an.paramTypes.length > 0) p.custom++;
    else p.generic++;
  }

  /** pg_prepared_statements: the named statements. */
  rows(): PreparedRow[] {
    const out: PreparedRow[] = [];
    for (const [name, p] of this.#statements)
      if (name !== '')
        out.push({
          name,
          statement: p.source,
          prepareTime: p.at,
          parameterTypes: p.an.paramTypes,
          fromSql: p.fromSql,
          genericPlans: p.generic,
          customPlans: p.custom,
        });
    return out;
  }
}

const NUMBERS = new Set<number>([OID.int2, OID.int4, OID.int8, OID.float4, OID.float8, OID.numeric, OID.oid]);
const STRINGS = new Set<number>([OID.text, OID.varchar, OID.bpchar, OID.name]);
const STAMPS = new Set<number>([OID.date, OID.timestamp, OID.timestamptz]);
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
]);

/**
 * Whether PostgreSQL assigns a value of type `from` to a parameter of type `to` (its implicit and
 * assignment casts, and any type to a string): EXECUTE's argument otherwise is 42804.
 */
function assignable(from: number, to: number): boolean {
  if (from === to || STRINGS.has(to) || !KNOWN.has(from) || !KNOWN.has(to)) return true;
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
 * EXECUTE's arguments as the values of the statement's parameters, each entering as Bind's text
 * does (its type's input, in the session's DateStyle order): NULL as NULL, a string literal as its
 * text (22P02 for 'abc' as an integer, as PostgreSQL's); any other expression evaluated by
 * `evaluate` as `SELECT CAST((expression) AS type)` and its value's text taken so (a subquery is
 * PostgreSQL's 0A000). 42601 when their
 * number differs from the statement's parameters', with PostgreSQL's DETAIL.
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
      // the type input's words alone, as PostgreSQL's EXECUTE (no parameter CONTEXT, as Bind has)
      const { code, message } = sqlstateOf(err);
      throw pgErrorAt(code, message, at[i]);
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
    const sql = types[i] ? `SELECT CAST((${arg}) AS ${regtypeName(types[i])})` : `SELECT (${arg})`;
    const out = evaluate(sql);
    const take = (o: Outcome) => {
      const v = o.all?.[0]?.[0] ?? null;
      const c = o.columns?.[0];
      text(i, textOf(v, types[i] || c?.oid || (c?.declType ? oidOfDeclType(c.declType) : oidOfValue(v))));
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
