// The simple query protocol: a Query message's text parsed as a whole when it holds several
// statements (none runs when it does not parse, as in PostgreSQL), then its statements in order,
// each with its literals lifted into parameters (one analysis per shape of statement; a query none
// lift out of is kept by its text), run through an unnamed portal; COPY in either direction; then
// ReadyForQuery. Statements of a message of several that run outside a
// BEGIN block form one implicit transaction, as in PostgreSQL: a failure rolls back the earlier
// writes of that run; COMMIT or ROLLBACK ends the run, BEGIN turns it into an explicit block.
import type { Outcome } from '../session/engine';
import { analysedInBlock } from '../session/aborted-block';
import type { Session } from '../session/session';
import type { SqlValue } from '../../../src/engine/values';
import type { Analyzed } from '../sql/analyzed';
import { type PgToken, splitPgStatements } from '../sql/lexer';
import { paramScaledAnalysis } from '../sql/json-builders';
import { liftLiterals, typedLiterals } from '../sql/literals';
import { wholeTextError } from '../sql/parse';
import { syntaxError } from '../sql/unsupported';
import { withInputStyle } from '../../../src/engine/dates';
import { inputStyleIn } from '../types/output-styles';
import { pgErrorAt } from '../sqlstate';
import { backend } from '../wire/backend';
import type { CopyFromStdin } from './copy-from-stdin';
import { sendCopyOut } from './copy-out';
import type { ExtendedQuery } from './extended-query';
import type { Output } from './output';
import { NO_FORMATS, NO_PARAMS, newPortal, sentScale } from './portal';
import type { PortalRunner } from './run-portal';

/** What a simple query needs of its connection besides the session. */
export interface SimpleQueryParts {
  out: Output;
  runner: PortalRunner;
  /** Its portals are dropped when the transaction ends. */
  extended: ExtendedQuery;
  copyIn: CopyFromStdin;
  closed(): boolean;
  /** ReadyForQuery, after the notifications waiting for the session to be idle. */
  readyForQuery(): void;
}

/** The statements a simple query keeps the analysis of by their text when no literal lifts out of them. */
const CACHED_AS_WRITTEN = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'WITH', 'VALUES', 'TABLE']);

export class SimpleQuery {
  readonly #session: Session;
  readonly #parts: SimpleQueryParts;

  /** The Query message's text (an error's position is in it). */
  #sql = '';
  /** Its statements, and the one running (where an error's position is counted from). */
  #stmts: PgToken[][] = [];
  #current = 0;

  constructor(session: Session, parts: SimpleQueryParts) {
    this.#session = session;
    this.#parts = parts;
  }

  /** A Query message. */
  run(sql: string): void | Promise<void> {
    this.#sql = sql;
    this.#session.sourceText = sql;
    const stmts = splitPgStatements(sql);
    this.#stmts = stmts;
    this.#current = 0;
    if (stmts.length === 0) backend.emptyQuery(this.#parts.out.w);
    if (stmts.length > 1) {
      // PostgreSQL parses the whole text first: a statement it cannot parse means none runs (no
      // rows, no write, no SET), its 42601 placed in the whole text
      const refused = wholeTextError(sql);
      if (refused !== null) {
        this.#stmts = []; // (its position is counted from the start of the text)
        return this.#done(syntaxError(sql, refused) ?? refused);
      }
    }
    return this.#runFrom(stmts, 0);
  }

  #runFrom(stmts: PgToken[][], from: number): void | Promise<void> {
    const session = this.#session;
    const { runner } = this.#parts;
    try {
      for (let i = from; i < stmts.length; i++) {
        this.#current = i;
        const tokens = stmts[i];
        if (stmts.length > 1 && session.tx === 'idle' && !controlsTransaction(tokens)) session.beginImplicit();
        // a simple query has no parameters (PREPARE's statement has its own)
        const param = tokens.findIndex((t) => t.type === 'param');
        if (param >= 0 && !isPrepare(tokens)) {
          // (PostgreSQL parses first: text that does not parse is its 42601, as a text of several is above)
          const refused = stmts.length === 1 ? wholeTextError(this.#sql) : null;
          if (refused !== null) {
            this.#stmts = []; // (its position is counted from the start of the text)
            throw syntaxError(this.#sql, refused) ?? refused;
          }
          const before = tokens.slice(0, param).reduce((n, t) => n + t.text.length, 0);
          throw pgErrorAt('42P02', `there is no parameter ${tokens[param].text}`, before);
        }
        const { an, params } = analysedInBlock(session.tx, tokens, () => this.#analyze(tokens));
        if (an.kind === 'copy') {
          if (an.copy!.stmt.direction === 'in')
            return this.#parts.copyIn.start(session, an, (err) =>
              err === null ? this.#runFrom(stmts, i + 1) : this.#done(err),
            );
          const r = this.#copyOut(an);
          if (r) return this.#thenRest(r, stmts, i + 1);
          continue;
        }
        const r = runner.execute(newPortal(an, params, NO_FORMATS), Infinity, true);
        if (r) return this.#thenRest(r, stmts, i + 1);
      }
    } catch (err) {
      return this.#done(err);
    }
    return this.#done(null);
  }

  /**
   * A statement's analysis, by its shape when literals lift out of it (literals.ts), with the
   * values to bind; as written when none do, or when an assigned value does not fit its column.
   */
  #analyze(tokens: PgToken[]): { an: Analyzed; params: SqlValue[] } {
    const analyzer = this.#session.analyzer;
    const lifted = liftLiterals(tokens);
    if (lifted) {
      let an: Analyzed | null = null;
      try {
        an = analyzer.cached(`S${lifted.key}`, () => lifted.tokens);
      } catch {
        // the statement as written decides: an assigned literal may be typed where a parameter
        // cannot be, and an error names the text the client sent (its position, a column's hint)
      }
      const style = inputStyleIn(this.#session.outputStyles);
      const params = an && withInputStyle(style, () => typedLiterals(lifted, an!.paramTypes, this.#session.outputZone));
      // (a decimal lifted where its scale is written into the statement, an element of a numeric[]
      // column: at its text's, as Bind writes a parameter's; json-builders.ts's PARAM_SCALE)
      const sent = (k: number) =>
        lifted.decimal[k - 1] ? sentScale(Buffer.from(String(lifted.values[k - 1]), 'latin1'), 0) : 0;
      if (an && params) return { an: paramScaledAnalysis(an, sent), params };
    }
    // a query or write as written is kept by its exact text, as Parse keeps it (it was analysed
    // again each time: a repeated `SELECT count(*) FROM t` paid a whole analysis, some 450 µs)
    const first = tokens.find((t) => t.type !== 'space' && t.type !== 'comment');
    if (first?.type === 'word' && CACHED_AS_WRITTEN.has(first.text.toUpperCase()))
      return { an: analyzer.cached(`T${tokens.map((t) => t.text).join('')}`, () => tokens), params: NO_PARAMS };
    return { an: analyzer.analyze(tokens), params: NO_PARAMS };
  }

  /** The statements from `from` on once a statement that had to wait is done (or the end with its error). */
  #thenRest(r: Promise<void>, stmts: PgToken[][], from: number): Promise<void> {
    return r.then(
      () => this.#runFrom(stmts, from),
      (err) => this.#done(err),
    );
  }

  /** A Query message refused before its statements were read (its text is no UTF-8): as a statement's error. */
  fail(sql: string, err: unknown) {
    this.#sql = sql;
    this.#stmts = [];
    this.#done(err);
  }

  /** The end of the message: its error, the implicit transaction's end, ReadyForQuery. */
  #done(err: unknown) {
    const session = this.#session;
    const { out } = this.#parts;
    if (err !== null) {
      if (session.tx === 'open') session.tx = 'failed';
      out.sendError(err, this.#sql, this.#statementAt());
    }
    if (session.implicit) {
      try {
        session.endImplicit(err === null);
      } catch (e) {
        out.sendError(e);
      }
    }
    if (session.tx === 'idle') this.#parts.extended.dropPortals();
    this.#parts.readyForQuery();
  }

  /** Where the running statement starts in the Query message (its tokens are the message's text, in order). */
  #statementAt(): number {
    let from = 0;
    for (let i = 0; i <= this.#current && i < this.#stmts.length; i++) {
      const text = this.#stmts[i].map((t) => t.text).join('');
      const at = this.#sql.indexOf(text, from);
      if (at < 0) return 0;
      if (i === this.#current) return at;
      from = at + text.length;
    }
    return 0;
  }

  /** COPY TO STDOUT: CopyOutResponse, a CopyData per row as the read yields them (waiting for a slow client), CopyDone. */
  #copyOut(an: Analyzed): void | Promise<void> {
    const out = this.#session.copyOut(an);
    if (out instanceof Promise) return out.then((o) => this.#sendCopyOut(an, o));
    return this.#sendCopyOut(an, out);
  }

  #sendCopyOut(an: Analyzed, outcome: Outcome): Promise<void> {
    const { out } = this.#parts;
    return sendCopyOut(
      out.w,
      an,
      outcome,
      {
        drain: () => out.drain(),
        closed: () => this.#parts.closed(),
        complete: (tag) => out.completeTag(tag),
      },
      this.#session.outputZone,
      this.#session.outputStyles,
    );
  }
}

const TX_WORDS = new Set(['BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'ABORT', 'SAVEPOINT', 'RELEASE', 'PREPARE']);

/** Whether a statement is PREPARE (whose statement's $n are its parameters). */
function isPrepare(tokens: PgToken[]): boolean {
  const first = tokens.find((t) => t.type !== 'space' && t.type !== 'comment');
  return first !== undefined && first.type === 'word' && first.text.toUpperCase() === 'PREPARE';
}

/** Whether a statement is transaction control (which turns off the implicit transaction of a simple query). */
function controlsTransaction(tokens: PgToken[]): boolean {
  const first = tokens.find((t) => t.type !== 'space' && t.type !== 'comment');
  return first !== undefined && first.type === 'word' && TX_WORDS.has(first.text.toUpperCase());
}
