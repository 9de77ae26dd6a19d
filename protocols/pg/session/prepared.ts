// A session's prepared statements, one namespace for the extended protocol's (Parse) and SQL's
// (PREPARE), as in PostgreSQL: a Parse named "p" and `PREPARE p` collide, EXECUTE runs either, Bind
// binds either, DEALLOCATE and DISCARD ALL drop both; pg_prepared_statements lists them. Each keeps
// its analysis (made once per text and parameter types in the session's Analyzer, shared by Parse
// and PREPARE) and what it was made in (the session's zone and output styles then).
import type { Analyzer } from '../sql/analyze';
import type { Analyzed } from '../sql/analyzed';
import { type PgToken, lexPg, splitPgStatements } from '../sql/lexer';
import { type ParameterError, parameterError } from '../sql/untyped-params';
import { PgError, pgError } from '../sqlstate';
import { inputStyleIn, type OutputStyles } from '../types/output-styles';

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

/** Per analysis: PostgreSQL's error for its parameters (untyped-params.ts), null for none. */
const UNTYPED = new WeakMap<Analyzed, ParameterError | null>();

/**
 * untyped-params.ts' error for a parameter PostgreSQL cannot type (42P18, 42P08), found once per
 * analysis and made anew for each statement (PREPARE places it in its own text); null when there is
 * none or every parameter is declared.
 */
function untypedIn(an: Analyzed, sql: string, declared: number[]): Error | null {
  const n = an.paramTypes.length;
  if (n === 0 || declared.filter((t) => t).length >= n) return null;
  let found = UNTYPED.get(an);
  if (found === undefined) {
    found = parameterError(oneStatement(sql), n, declared, an.paramTypes);
    UNTYPED.set(an, found);
  }
  if (!found) return null;
  const err = new PgError('user', found.message, found.code, found.detail);
  if (found.position !== undefined) err.position = found.position;
  if (found.hint !== undefined) err.hint = found.hint;
  return err;
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
  /** The analysis of `sql` with its declared parameter types, as Parse makes it (PostgreSQL's error for a parameter it cannot type). */
  analysed(sql: string, paramTypes: number[]): Analyzed {
    const an = this.#analyzer.cached(`P${paramTypes.join(',')}\0${sql}`, () => oneStatement(sql), paramTypes);
    const untyped = untypedIn(an, sql, paramTypes);
    if (untyped) throw untyped;
    return an;
  }

  add(name: string, sql: string, paramTypes: number[], source: string, fromSql: boolean): Prepared {
    const analyzer = this.#analyzer;
    const an = this.analysed(sql, paramTypes);
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
