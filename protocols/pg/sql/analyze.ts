// Statement analysis: one statement's tokens → its kind, its SQLite form, its parameter types and
// its result columns (Analyzed), kept per session by statement text so that a repeated Parse or a
// simple query differing only in literals is analysed once.
import { instantMarkKey } from './instant-choices';
import { NUMERIC_ELEMENTS } from './numeric-elements';
import { checkReach } from '../../../src/engine/classify';
import type { Schema } from '../../../src/engine/schema/model';
import { Lru } from '../../../src/lru';
import { errorFields, log } from '../../../src/observability/log';
import { lockTable } from '../catalog/lock-table';
import { catalogColumnOrigin } from '../catalog/relation-origins';
import { maintenance } from '../catalog/maintenance';
import type { LocalDb } from '../catalog/local-db';
import type { PgEngine } from '../session/engine';
import { PG_SETTINGS, deferMode, isolationMode, parseSet, readMode } from '../session/settings';
import { preparedGid } from '../session/two-phase';
import { PgError, pgError } from '../sqlstate';
import { analysisCounts } from '../statement-counts';
import { OID, TYPE_DISPLAY } from '../types/oids';
import { BYTEA_AGG } from './bytea-values';
import {
  analyzeCopy,
  analyzeDeclare,
  analyzeExplain,
  analyzeFetch,
  analyzeTruncate,
  pgNotifyCall,
} from './analyze-commands';
import type { Analyzed, ColumnDesc } from './analyzed';
import { type PgToken, identName, lexPg, maxParam } from './lexer';
import { withColumnHint } from './missing-column';
import { catalogNameError, systemColumnError } from './catalog-names';
import { checkSearchPathNames, mayNameOffPath } from './search-path-names';
import { withPostgresRefusal } from './sqlite-refusals';
import { analyzeDeallocate, analyzeExecute, analyzePrepare } from './prepare-statements';
import { catalogRelations, hasNoFrom, readsCatalogRelation, seriesOffThread } from './local-statements';
import { checkAssignments } from './assignments';
import { checkReadOnlyCalls } from './read-only-calls';
import { mayWriteTextParams, textParamWrite } from './text-param-writes';
import { inferParamTypes } from './param-types';
import { manyRowScalars, maySubquery } from './scalar-subqueries';
import { mayNestArrays, nestedArrays } from './array-nesting';
import { checkCarriedRows, mayBuildOfCarriedRows } from './carried-rows';
import { type JsonLayouts, jsonLayoutEdits, jsonLayouts, mayBuildJson } from './json-layout';
import { treeParamTypes } from './param-tree-types';
import { expressionOid, pgColumnName, selectListNames } from './result-columns';
import { figuredAliases, mayFigureNames } from './figured-aliases';
import { keywordColumns, mayNameKeywordColumns, quoteKeywordFields } from './keyword-columns';
import { cachedResultColumns } from './result-types';
import { selectListTypes } from './select-list';
import { type StarEdits, usingStarLists } from './select-types';
import { onJoinEdits } from './jsonb-using';
import { columnType, datedColumns, notNullEverywhere, stringColumnTables } from './schema-facts';
import { statementCommand } from './statement-kind';
import { dropVoidArguments } from './void-arguments';
import { hasLockingClause } from './translate/locking';
import { upsertKeys } from './upsert-rows';
import { type DialectContext, translate } from './translate/translate';
import { orderMarkKey, typedOperators } from './typed-operators';
import { assignMarkKey } from './zoned-assignments';
import { mayHaveTypedOperators } from './typed-operators-hint';
import { JSON_TYPED } from './json-builders';
import { type Tok, closer, isPunct, isWord } from './tokens';
import { bpcharCasts, mayCastToBpchar } from './bpchar-casts';
import { explainRefusal, syntaxError } from './unsupported';
import { bitStringRefusal } from './bit-strings';
import { dropOwnDatabase } from './database-names';
import { checkTypeNames, mayNameTypes, writtenAt } from './type-names';
import { checkForeignFunctions, mayCallForeign } from './foreign-functions';
import { checkRowidColumns, rowidNames } from './rowid-columns';
import { selectsNothing } from './translate/empty-select';
import { checkBareFunctionCalls } from './bare-functions';
import { checkCastPaths, mayCast } from './cast-paths';
import { checkLiteralInput } from './literal-input';
import { withOutputStyles } from './session-styles';
import type { InputStyle } from '../../../src/engine/dates';
import { withSessionZone } from './session-zone';
import { DEFAULT_STYLES, inputStyleIn, type OutputStyles } from '../types/output-styles';
import { isClockWord } from '../../../src/engine/dates';
import { checkGrouping, mayGroup, mayNestAliases } from './grouping';
import { checkOrderNames, mayOrderByName } from './order-names';
import { constantTermError, mayHoldTerms, termFirst } from './constant-terms';
import { checkLimitSigns } from './limit-signs';
import { checkUsingLists } from './using-lists';
import { checkQuotedNames, mayQuoteCase } from './quoted-names';
import { checkFromNames, mayNameTwice } from './from-names';
import { checkBareTableoid, mayNameTableoid } from './bare-tableoid';
import { checkUnknownCalls, mayCallUnknown } from './unknown-calls';
import { analyzeModifyingWith } from './modifying-with';
import { parseTree } from './parse';
import { declaredType } from '../../../src/engine/schema/stored-types';

/** Analyses a session keeps by statement text. */
const ANALYSES = 256;

/** Declared parameter types whose value written into a string column is SQLite's text already (0: none declared). */
const UNPRINTED_PARAMS = new Set<number>([
  0,
  OID.text,
  OID.varchar,
  OID.bpchar,
  OID.name,
  OID.unknown,
  OID.int2,
  OID.int4,
  OID.int8,
]);

/**
 * Statements the analysis reads from their words alone (transaction control, cursors, LISTEN): the
 * parser checks them first. An analysis is cached by text, so a BEGIN is parsed once per text.
 */
const WORD_READ = new Set([
  'BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'ABORT', 'SAVEPOINT', 'RELEASE', 'LISTEN', 'UNLISTEN',
  'FETCH', 'MOVE', 'CLOSE',
]); // biome-ignore format: a word list

/** Analyses statements for one session, against the engine's schema (re-read when it reloads). */
export class Analyzer {
  readonly #engine: PgEngine;
  readonly #local: LocalDb;
  readonly #dialect: DialectContext;
  /** Analyses by statement text (Parse of an unnamed statement repeats it for every query). */
  readonly #analyses = new Lru<string, Analyzed>(ANALYSES);
  #analysesSchema: Schema | null = null;
  /** The session's TimeZone when not UTC (a timestamptz literal is read in it, so analyses are kept per zone). */
  readonly #zone: () => string | null;
  #analysesZone: string | null = null;
  /** The session's IntervalStyle and bytea_output (a value made text prints in them, so analyses are kept per styles). */
  readonly #styles: () => OutputStyles;
  #analysesStyles: OutputStyles = DEFAULT_STYLES;
  /** The session's search_path (an unqualified name of information_schema reaches it only when listed). */
  readonly #searchPath: () => string;
  #analysesSearchPath = '';
  /** How deep in analyses of statements inside statements (EXPLAIN's) this one is. */
  #nested = 0;

  constructor(
    engine: PgEngine,
    local: LocalDb,
    facts: {
      user: string;
      database: string;
      version: string;
      zone?: () => string | null;
      styles?: () => OutputStyles;
      searchPath?: () => string;
    },
  ) {
    this.#searchPath = facts.searchPath ?? (() => 'public');
    this.#zone = facts.zone ?? (() => null);
    this.#styles = facts.styles ?? (() => DEFAULT_STYLES);
    this.#engine = engine;
    this.#local = local;
    this.#dialect = {
      user: facts.user,
      database: facts.database,
      version: facts.version,
      columnType: (table, column) => columnType(this.#engine.schema, table, column),
      columns: (table) => this.#engine.schema.tables.get(table)?.columns ?? null,
      notNull: (column) => notNullEverywhere(this.#engine.schema, column),
      selectWidth: (query) => this.#selectColumns(query)?.length ?? null,
      selectColumns: (query) => this.#selectColumns(query),
    };
  }

  /** The column names of a query (INSERT ... SELECT's, an aliased subquery's), from SQLite's prepared statement; null when it does not prepare. */
  #selectColumns(query: Tok[]): string[] | null {
    try {
      const sql = translate(query as PgToken[], this.#dialect, false);
      let st: { reader: boolean; columns(): { name: string }[] };
      try {
        st = this.#local.prepare(sql);
      } catch {
        st = this.#engine.writer.prepare(sql);
      }
      return st.reader ? st.columns().map((c) => c.name) : null;
    } catch {
      return null;
    }
  }

  /**
   * The analysis stored under `key`, or a new one from `tokens()` (kept unless the schema reloaded
   * since: a `SELECT *` may have gained columns). Errors are not kept.
   */
  cached(key: string, tokens: () => PgToken[], declaredTypes: number[] = []): Analyzed {
    if (
      this.#analysesSchema !== this.#engine.schema ||
      this.#analysesZone !== this.#zone() ||
      this.#analysesStyles !== this.#styles() ||
      this.#analysesSearchPath !== this.#searchPath()
    ) {
      this.#analyses.clear();
      this.#analysesSchema = this.#engine.schema;
      this.#analysesZone = this.#zone();
      this.#analysesStyles = this.#styles();
      this.#analysesSearchPath = this.#searchPath();
    }
    let an = this.#analyses.get(key);
    if (an) {
      analysisCounts.hits++;
      return an;
    }
    analysisCounts.misses++;
    const toks = tokens();
    an = this.analyze(toks, declaredTypes);
    // a literal read off the clock ('now', 'today') is read anew for each statement, as PostgreSQL
    // parses each query again (a kept analysis answered 'now' with the time of its first run)
    if (!toks.some((t) => t.type === 'string' && isClockWord(t.text.slice(1, -1)))) this.#analyses.set(key, an);
    return an;
  }

  /**
   * Where a result column comes from when SQLite tells it is a user table's column (SQLite names the
   * origin of a column selected as it is, through a subquery or a view too, as PostgreSQL does): the
   * table's oid and the column's number, which RowDescription carries. DBD::Pg's NULLABLE looks the
   * column up in pg_attribute by them, PHP's pg_field_table names the table (both were unknown: 0).
   * An unaliased expression is no column (SQLite names it by its text); a scalar subquery given an
   * alias is taken for its column, where PostgreSQL gives 0.
   */
  #origin(c: { name: string; table?: string | null; column?: string | null; database?: string | null }): {
    tableOid?: number;
    attnum?: number;
  } {
    if (!c.table || !c.column || c.database !== 'main' || c.name.startsWith('(')) return {};
    const t = this.#engine.schema.tables.get(c.table);
    const oid = t ? this.#local.tableOid(t.name) : undefined;
    const k = t ? t.columns.findIndex((col) => col.name === c.column) : -1;
    return oid !== undefined && k >= 0 ? { tableOid: oid, attnum: k + 1 } : {};
  }

  /**
   * The tokens with each date or time operator and `^` marked with what it computes (from the parse
   * tree and the schema), for translate/typed-arithmetic.ts; the tokens themselves when the
   * statement has none. `text` is the tokens joined by spaces, the text the tree's offsets are in.
   */
  #markTypedOperators(sig: PgToken[], tokens: PgToken[], text: string, declared: number[]): PgToken[] {
    const schema = this.#engine.schema;
    const dated = datedColumns(schema);
    const strings = stringColumnTables(schema);
    const writes = {
      hasStringColumn: (t: string) => strings.has(t),
      printedParam: (n: number) => !UNPRINTED_PARAMS.has(declared[n - 1] ?? 0),
      varcharParam: (n: number) => declared[n - 1] === OID.varchar,
      floatParam: (n: number) => declared[n - 1] === OID.float8 || declared[n - 1] === OID.float4,
    };
    if (!mayHaveTypedOperators(sig, (c) => dated.get(c) ?? null, writes)) return tokens;
    let found: Map<number, string> | null;
    try {
      found = typedOperators(text, schema, declared);
    } catch (err) {
      // an operator's error at the operator, in the text as written (typed-operators.ts' placed)
      const at = (err as { location?: number }).location;
      if (err instanceof PgError && err.position === undefined && at !== undefined)
        err.position = writtenAt(Buffer.from(text).subarray(0, at).toString().length, tokens);
      throw err;
    }
    if (!found || found.size === 0) return tokens;
    const out = tokens.slice();
    let at = 0; // byte offset of out[i] in text
    for (let i = 0; i < out.length; i++) {
      const kind = found.get(at);
      if (
        kind !== undefined &&
        (kind === 'num-order' ||
          (kind === 'numx-lit' && out[i].type === 'number') ||
          ((kind === 'num-fn-col' ||
            kind === 'num-fn' ||
            kind === 'num-pow' ||
            kind?.startsWith('numx-pow') ||
            kind === 'numx-abs' ||
            kind.startsWith('numx-fn:') ||
            kind.startsWith('call:')) &&
            out[i].type === 'word') ||
          (kind === 'stat-x' && out[i].type === 'word') ||
          ((kind.startsWith('chpad') || kind === 'chtrim') &&
            (out[i].type === 'word' || out[i].type === 'quoted' || out[i].type === 'param')) ||
          (kind.startsWith('chpadx:') && isPunct(out[i], '(')) ||
          (kind.startsWith('row:') && (isWord(out[i], 'ROW') || out[i].type === 'punct')) ||
          ((kind === BYTEA_AGG || kind.startsWith(JSON_TYPED) || kind.startsWith(NUMERIC_ELEMENTS)) &&
            out[i].type === 'word') ||
          out[i].type === 'op' ||
          out[i].type === 'string' ||
          isWord(out[i], 'CAST') ||
          isWord(out[i], 'AT') ||
          isWord(out[i], 'ROUND') ||
          isWord(out[i], 'AVG') ||
          isWord(out[i], 'EXTRACT') ||
          isWord(out[i], 'SUM') ||
          isWord(out[i], 'MIN') ||
          isWord(out[i], 'TIMEZONE') ||
          isWord(out[i], 'BETWEEN') ||
          isWord(out[i], 'IN') ||
          isWord(out[i], 'NOT') ||
          isWord(out[i], 'LIKE') ||
          isWord(out[i], 'MAX') ||
          (kind === 'agg-arrays' && isWord(out[i], 'ARRAY_AGG')) ||
          (kind === 'num-greatest' && isWord(out[i], 'GREATEST')) ||
          (kind === 'num-least' && isWord(out[i], 'LEAST')) ||
          (kind.startsWith('key-greatest:') && isWord(out[i], 'GREATEST')) ||
          (kind.startsWith('key-least:') && isWord(out[i], 'LEAST')) ||
          (kind === 'sub-arrays' && isWord(out[i], 'ARRAY')) ||
          isWord(out[i], 'TO_CHAR') ||
          isWord(out[i], 'ARRAY_TO_STRING') ||
          isWord(out[i], 'TO_HEX') ||
          isWord(out[i], 'DATE_TRUNC') ||
          isWord(out[i], 'DATE_PART') ||
          isWord(out[i], 'GENERATE_SERIES') ||
          isWord(out[i], 'PG_TYPEOF') ||
          isWord(out[i], 'CONCAT') ||
          isWord(out[i], 'CONCAT_WS') ||
          isWord(out[i], 'FORMAT') ||
          isWord(out[i], 'QUOTE_LITERAL') ||
          isWord(out[i], 'QUOTE_NULLABLE') ||
          isWord(out[i], 'ARRAY_POSITION') ||
          isWord(out[i], 'ARRAY_POSITIONS') ||
          isWord(out[i], 'ARRAY_REPLACE') ||
          isWord(out[i], 'ARRAY_REMOVE'))
      )
        out[i] = { ...out[i], arith: kind };
      const sortKey = found.get(orderMarkKey(at));
      if (sortKey !== undefined) out[i] = { ...out[i], sortKey };
      const assign = found.get(assignMarkKey(at));
      if (assign !== undefined) out[i] = { ...out[i], assign };
      const asInstant = found.get(instantMarkKey(at));
      if (asInstant !== undefined) out[i] = { ...out[i], asInstant };
      at += Buffer.byteLength(out[i].text) + 1;
    }
    return out;
  }

  /** Understands one statement: its kind, its SQLite form, its columns and parameter types. */
  analyze(statement: PgToken[], declaredTypes: number[] = []): Analyzed {
    const zone = this.#zone();
    return withOutputStyles(this.#styles(), () =>
      zone === null
        ? this.#analyzeIn(statement, declaredTypes)
        : withSessionZone(zone, () => this.#analyzeIn(statement, declaredTypes)),
    );
  }

  /** The session's TimeZone now when it is not UTC, else null (what analyses are made in). */
  zone(): string | null {
    return this.#zone();
  }

  /** The session's output styles now (what analyses are made in, with the zone). */
  styles(): OutputStyles {
    return this.#styles();
  }

  /**
   * A statement prepared in zone `preparedIn` (and input style `preparedStyle`), analysed again
   * for the session's zone and styles now: its literals read as they were at Parse, what it computes per row and prints in the zone of now
   * (PostgreSQL reads a literal at Parse, and date_trunc, EXTRACT, to_char, a timestamptz made text
   * at Execute). Not cached by text: the statement keeps it.
   */
  analyzeRezoned(
    statement: PgToken[],
    declaredTypes: number[],
    preparedIn: string | null,
    preparedStyle: InputStyle = inputStyleIn(this.#styles()),
  ): Analyzed {
    return withOutputStyles(
      this.#styles(),
      () => withSessionZone(this.#zone(), () => this.#analyzeIn(statement, declaredTypes), preparedIn),
      preparedStyle,
    );
  }

  #analyzeIn(statement: PgToken[], declaredTypes: number[]): Analyzed {
    // (a statement inside another, EXPLAIN's or DECLARE's, is hinted as part of the whole)
    if (this.#nested > 0) return this.#analyzeStatement(statement, declaredTypes);
    this.#nested++;
    try {
      return this.#analyzeStatement(statement, declaredTypes);
    } catch (err) {
      // an unknown column's 42703 gets PostgreSQL's HINT (what the user may have meant), and what
      // SQLite refuses in its own words (`ORDER BY 99`) PostgreSQL's SQLSTATE and message
      const sql = statement.map((t) => t.text).join('');
      throw withPostgresRefusal(withColumnHint(err, sql, this.#engine.schema), sql, this.#engine.schema);
    } finally {
      this.#nested--;
    }
  }

  #analyzeStatement(statement: PgToken[], declaredTypes: number[]): Analyzed {
    // (`FROM db.public.t` of the session's own database: the table; another's is 0A000)
    const tokens = dropOwnDatabase(dropVoidArguments(statement, declaredTypes), this.#dialect.database);
    const sig = tokens.filter((t) => t.type !== 'space' && t.type !== 'comment');
    const base = { sql: '', local: false, readonly: true, columns: null, paramTypes: [] as number[] };
    if (sig.length === 0) return { ...base, kind: 'empty', command: '' };
    const w = (i: number) => (sig[i] && sig[i].type === 'word' ? sig[i].text.toUpperCase() : '');
    const kw = w(0);
    // the statements read from their words below are checked by PostgreSQL's parser first, so that
    // `BEGIN ISOLATION LEVEL x` or `COMMIT now` is the parser's 42601 with its position (BEGIN took it)
    if (WORD_READ.has(kw)) {
      const text = tokens.map((t) => t.text).join(' ');
      try {
        parseTree(text);
      } catch (err) {
        throw syntaxError(text, err, tokens) ?? err;
      }
    }
    switch (kw) {
      case 'BEGIN':
      case 'START': {
        // BEGIN READ ONLY / READ WRITE, [NOT] DEFERRABLE: the transaction's modes (the session's
        // defaults otherwise)
        const mode = readMode(sig);
        const deferrable = deferMode(sig);
        const isolation = isolationMode(sig);
        return {
          ...base,
          kind: 'begin',
          command: kw === 'START' ? 'START TRANSACTION' : 'BEGIN',
          ...(mode || deferrable || isolation
            ? {
                setting: {
                  name: 'transaction_read_only',
                  value: mode,
                  ...(deferrable ? { deferrable: { name: 'transaction_deferrable', value: deferrable } } : {}),
                  ...(isolation ? { isolation: { name: 'transaction_isolation', value: isolation } } : {}),
                },
              }
            : {}),
        };
      }
      case 'COMMIT':
      case 'END':
        // (COMMIT PREPARED 'gid', ROLLBACK PREPARED: no transaction is ever prepared here, Session)
        if (kw === 'COMMIT' && w(1) === 'PREPARED')
          return { ...base, kind: 'noop', command: 'COMMIT PREPARED', prepares: preparedGid(sig, 2) };
        return { ...base, kind: 'commit', command: 'COMMIT' };
      case 'ROLLBACK':
      case 'ABORT':
        if (kw === 'ROLLBACK' && w(1) === 'PREPARED')
          return { ...base, kind: 'noop', command: 'ROLLBACK PREPARED', prepares: preparedGid(sig, 2) };
        if (w(1) === 'TO' || ((w(1) === 'TRANSACTION' || w(1) === 'WORK') && w(2) === 'TO'))
          return {
            ...base,
            kind: 'savepoint',
            command: 'ROLLBACK',
            sql: sig
              .map((t) => t.text)
              .join(' ')
              .replace(/^ABORT/i, 'ROLLBACK'),
          };
        return { ...base, kind: 'rollback', command: 'ROLLBACK' };
      case 'SAVEPOINT':
      case 'RELEASE':
        return { ...base, kind: 'savepoint', command: kw, sql: sig.map((t) => t.text).join(' ') };
      case 'SET':
      case 'RESET':
        return { ...base, kind: 'set', command: kw, setting: parseSet(sig) };
      case 'SHOW': {
        const name = sig
          .slice(1)
          .map((t) => identName(t))
          .join(' ')
          .replace(/ \. /g, '.') // a custom setting's dotted name
          .replace(/^transaction isolation level$/, 'transaction_isolation')
          .replace(/^time zone$/, 'timezone');
        return {
          ...base,
          kind: 'show',
          command: 'SHOW',
          columns:
            name === 'all'
              ? [
                  { name: 'name', declType: 'text' },
                  { name: 'setting', declType: 'text' },
                  { name: 'description', declType: 'text' },
                ]
              : // SHOW's column is the setting's own name, in its case (`SHOW timezone` answers a column TimeZone)
                [{ name: PG_SETTINGS.get(name)?.[0] ?? name, declType: 'text' }],
          setting: { name, value: null },
        };
      }
      case 'LISTEN':
      case 'UNLISTEN': {
        if (!sig[1]) throw pgError('42601', `syntax error at end of input: ${kw} needs a channel name`);
        return {
          ...base,
          kind: kw === 'LISTEN' ? 'listen' : 'unlisten',
          command: kw,
          channel: { name: sig[1].text === '*' ? null : identName(sig[1]), payload: '' },
        };
      }
      case 'NOTIFY': {
        if (!sig[1] || (sig[1].type !== 'word' && sig[1].type !== 'quoted'))
          throw pgError('42601', 'syntax error: NOTIFY needs a channel name');
        let payload = '';
        if (sig[2]?.text === ',') {
          if (sig[3]?.type !== 'string' || sig.length > 4)
            throw pgError(
              '42601',
              `syntax error at or near "${sig[3]?.text ?? 'end of input'}": NOTIFY's payload is a string literal`,
            );
          payload = sig[3].text.slice(1, -1).split("''").join("'");
        } else if (sig.length > 2) throw pgError('42601', `syntax error at or near "${sig[2].text}"`);
        if (Buffer.byteLength(payload) >= 8000) throw pgError('22023', 'payload string too long');
        return { ...base, kind: 'notify', command: 'NOTIFY', channel: { name: identName(sig[1]), payload } };
      }
      case 'COPY':
        return analyzeCopy(sig, tokens, this.#engine.schema, this);
      case 'DECLARE':
        return analyzeDeclare(sig, tokens, declaredTypes, this);
      case 'FETCH':
      case 'MOVE':
        return analyzeFetch(sig, kw === 'MOVE');
      case 'CLOSE': {
        const all = w(1) === 'ALL';
        if (!sig[1]) throw pgError('42601', 'syntax error at end of input: CLOSE needs a cursor name');
        return {
          ...base,
          kind: 'close-cursor',
          command: all ? 'CLOSE CURSOR ALL' : 'CLOSE CURSOR',
          cursor: { name: all ? null : identName(sig[1]) },
        };
      }
      case 'TRUNCATE':
        return analyzeTruncate(sig, this.#engine.schema);
      case 'CREATE':
      case 'ALTER':
      case 'DROP':
        // whatever follows (CREATE EXTENSION, CREATE INDEX ON t, ...): SQLite's parser said `near
        // "EXTENSION": syntax error` for the forms it lacks
        throw pgError(
          '0A000',
          `schema statements (${kw}) are not accepted; change the schema files (db.schema_paths) and run \`patina reload\``,
        );
      case 'COMMENT':
      case 'GRANT':
      case 'REVOKE':
      case 'SECURITY':
      case 'REASSIGN':
      case 'CLUSTER':
      case 'REFRESH':
        throw pgError(
          '0A000',
          `${kw} is not supported by Patina: its schema comes from the schema files (db.schema_paths) and its users from its configuration`,
        );
      case 'EXPLAIN':
        return analyzeExplain(sig, tokens, declaredTypes, this);
      case 'LOCK':
        return { ...base, kind: 'noop', command: lockTable(sig) };
      case 'PREPARE':
        return analyzePrepare(sig, tokens);
      case 'EXECUTE':
        return analyzeExecute(sig, tokens);
      case 'DEALLOCATE':
        return analyzeDeallocate(sig, tokens);
      case 'ANALYZE':
      case 'ANALYSE':
      case 'VACUUM': {
        const { tag, warnings } = maintenance(tokens.map((t) => t.text).join(''), this.#engine.schema);
        return { ...base, kind: 'noop', command: tag, ...(warnings.length > 0 ? { warnings } : {}) };
      }
      case 'DISCARD':
      case 'CHECKPOINT':
        return { ...base, kind: 'noop', command: kw === 'DISCARD' ? `DISCARD ${w(1) || 'ALL'}` : kw };
    }
    checkReach(tokens.map((t) => t.text).join(''), 'statement'); // every statement, catalog and FROM-less ones too
    checkBareFunctionCalls(tokens); // `current_user()`: PostgreSQL's 42601 (SQLite has the function)
    const notify = pgNotifyCall(sig);
    if (!notify && sig.some((t) => t.type === 'word' && t.text.toLowerCase() === 'pg_notify'))
      throw pgError(
        '0A000',
        'pg_notify is supported as a statement of its own, SELECT pg_notify(channel, payload) with each a string literal, a parameter or NULL (or NOTIFY channel, payload)',
      );
    if (notify)
      return {
        ...base,
        kind: 'notify',
        command: 'SELECT',
        columns: [{ name: 'pg_notify', declType: 'void' }],
        paramTypes: new Array<number>(maxParam(sig)).fill(OID.text),
        channel: notify,
      };
    // (a write runs on the writer even when it reads unnest or generate_series, which every connection has)
    const text = tokens.map((t) => t.text).join(' '); // lifted literals come without spaces
    // text PostgreSQL's parser refuses is its 42601, also where SQLite would run it (`SELECT 1 LIMIT
    // 1,2`, SQLite's offset and count); the passes below read this text's tree, parsed once
    try {
      parseTree(text);
    } catch (err) {
      throw syntaxError(text, err, tokens) ?? err;
    }
    // `WITH d AS (DELETE ... RETURNING *) ...`: its parts analysed one by one (sql/modifying-with.ts)
    if (kw === 'WITH') {
      const modifying = analyzeModifyingWith(
        sig,
        text,
        (toks) => this.#analyzeStatement(toks, declaredTypes),
        (sql) =>
          this.#engine.writer
            .prepare(sql)
            .columns()
            .map((c) => c.name),
      );
      if (modifying) return modifying;
    }
    // B'101', X'1F': PostgreSQL's bit strings, which Patina has no values of (sql/bit-strings.ts)
    const bits = bitStringRefusal(sig);
    if (bits) throw bits;
    // two FROM items of one name (`FROM t, t`) are PostgreSQL's 42712, read before the select list
    if (mayNameTwice(sig)) checkFromNames(text, this.#engine.schema, tokens);
    // a bare tableoid beside another table (`FROM a, b`: 42702) or inside a join (42703), as PostgreSQL says
    if (mayNameTableoid(sig)) checkBareTableoid(text, this.#engine.schema, tokens);
    // an unqualified name of information_schema, off search_path: PostgreSQL's 42P01 (SQLite found it attached)
    if (mayNameOffPath(sig, this.#engine.schema))
      checkSearchPathNames(text, tokens, this.#engine.schema, this.#searchPath());
    // a call of string literals alone PostgreSQL cannot resolve (`generate_series('1', '2')`): its 42725 or 42804
    if (mayCallUnknown(sig)) checkUnknownCalls(text, tokens);
    // a call of a function PostgreSQL does not have (SQLite's instr, printf, ...) is its 42883 at the name
    if (mayCallForeign(sig)) checkForeignFunctions(text, tokens, this.#engine.schema, declaredTypes);
    // SQLite's row id (`rowid`, `_rowid_`, `oid`) where no column has the name: PostgreSQL's 42703
    const rowids = rowidNames(sig);
    if (rowids.length > 0) checkRowidColumns(text, tokens, rowids, this.#engine.schema);
    // a type name that is no type is PostgreSQL's 42704 at the name (the translation passed it through)
    if (mayNameTypes(sig)) checkTypeNames(text, tokens, this.#dialect.database);
    // a quoted name of another case than every name it could mean is PostgreSQL's 42703 or 42P01
    // (SQLite matched it without case)
    if (mayQuoteCase(sig)) checkQuotedNames(text, tokens, this.#engine.schema);
    // a cast between types PostgreSQL has no cast for is its 42846 at the cast (sql/cast-paths.ts)
    if (mayCast(sig)) checkCastPaths(text, tokens, this.#engine.schema, declaredTypes);
    // a string literal its cast's type refuses is the input function's error at the literal
    if (mayCast(sig) || mayNameTypes(sig)) checkLiteralInput(text, tokens);
    // a statement that does not begin with its command (WITH ... UPDATE, a query in parentheses): the tree's
    let command = kw === 'WITH' || kw === '' ? (statementCommand(text) ?? (kw || 'SELECT')) : kw;
    if (command === 'VALUES' || command === 'TABLE') command = 'SELECT';
    if (command === 'REPLACE') command = 'INSERT';
    const write = WRITES.has(command);
    const local =
      !write &&
      (catalogRelations(sig) || ((kw === 'SELECT' || kw === 'VALUES') && hasNoFrom(sig))) &&
      !seriesOffThread(sig, this.#local.catalogOnlyFunctions());
    // an ORDER BY name two different items have is PostgreSQL's 42702 (SQLite sorted by one), read before
    // the groups as PostgreSQL reads them
    // a negative LIMIT or OFFSET is PostgreSQL's 2201W or 2201X (SQLite's no limit, no offset)
    checkLimitSigns(sig);
    // a join's USING list naming a column twice is PostgreSQL's 42701 (SQLite joined on it once)
    checkUsingLists(sig, text, this.#engine.schema);
    if (mayOrderByName(sig))
      try {
        checkOrderNames(text, this.#engine.schema);
      } catch (err) {
        // (an ORDER BY term outside a SELECT DISTINCT list: at the term, in the text as written)
        const at = (err as { location?: number }).location;
        if (err instanceof PgError && err.position === undefined && at !== undefined)
          err.position = writtenAt(Buffer.from(text).subarray(0, at).toString().length, tokens);
        throw err;
      }
    // a constant ORDER BY or GROUP BY term PostgreSQL refuses (`GROUP BY ''`, a position past the
    // list): thrown once SQLite has taken the statement, or in place of its refusal of the term
    const termError = mayHoldTerms(sig) ? constantTermError(text, tokens, this.#engine.schema) : null;
    // a column outside the groups of a grouped query is PostgreSQL's 42803 (SQLite took any row's)
    // (and `o.v` is looked for only in the innermost FROM naming o, 42703 when that lacks v)
    const grouping = !local && mayGroup(sig);
    let guards: number[] = [];
    try {
      if (grouping || (!(local && catalogRelations(sig, true)) && mayNestAliases(sig)))
        guards = checkGrouping(text, this.#engine.schema, grouping, tokens);
    } catch (err) {
      throw termFirst(err, termError);
    }
    // a scalar subquery of more than one row is PostgreSQL's 21000 (SQLite took the first row)
    const wholeGuards: number[] = [];
    if (maySubquery(sig) && !(local && catalogRelations(sig)))
      for (const g of manyRowScalars(text, this.#engine.schema))
        if (g.whole && !guards.includes(g.at)) wholeGuards.push(g.at);
        else if (!guards.includes(g.at)) guards.push(g.at);
    const nParams = Math.max(maxParam(sig), declaredTypes.length);
    // from the parse tree where it tells (declared types kept), then from the tokens
    let fromTree: number[] | null = null;
    try {
      if (nParams > 0 && declaredTypes.filter((d) => d).length < nParams)
        fromTree = treeParamTypes(text, this.#engine.schema, nParams, declaredTypes);
    } catch (err) {
      // (an unknown made text compared with another type: its 42883 at the operator, as written)
      const at = (err as { location?: number }).location;
      if (err instanceof PgError && err.position === undefined && at !== undefined)
        err.position = writtenAt(Buffer.from(text).subarray(0, at).toString().length, tokens);
      throw err;
    }
    // a value of a type PostgreSQL does not assign to its column is its 42804 (ARRAY['1'] into bigint[],
    // `date - date` into an interval)
    if (command === 'INSERT' || command === 'UPDATE')
      checkAssignments(text, tokens, this.#engine.schema, declaredTypes, fromTree ?? declaredTypes);
    // a parameter PostgreSQL makes text (`SELECT * FROM (VALUES (1, $1)) v`, `(SELECT $1)`) written
    // into a column of another type is its 42804 (Patina wrote the text: a binary value's bytes)
    if (mayWriteTextParams(command, sig)) {
      const w = textParamWrite(text, this.#engine.schema, declaredTypes);
      if (w) {
        const err = new PgError(
          'user',
          `column "${w.column}" is of type ${TYPE_DISPLAY[w.type]} but expression is of type text`,
          '42804',
        );
        err.hint = 'You will need to rewrite or cast the expression.';
        err.position = writtenAt(Buffer.from(text).subarray(0, w.at).toString().length, tokens);
        throw err;
      }
    }
    // a JSON builder of a table's row passed through a subquery: 0A000 (sql/carried-rows.ts)
    if (mayBuildOfCarriedRows(sig)) checkCarriedRows(text, this.#engine.schema);
    let sql: string;
    // (a parameter or literal cast to bpchar: its trailing spaces dropped but where printed, bpchar-casts.ts)
    const bpchars =
      mayCastToBpchar(sig) || declaredTypes.includes(OID.bpchar) ? bpcharCasts(text, declaredTypes) : null;
    try {
      // (the operators of a parameter read by the type it was given: `$1 + interval '1 day'` in
      // `ts BETWEEN $1 AND $1 + interval '1 day'` is a timestamp's, `$1 AT TIME ZONE 'UTC'` a timestamptz's)
      const marked = this.#markTypedOperators(sig, tokens, text, fromTree ?? declaredTypes);
      let guarded = guards.length > 0 ? markAt(marked, guards, 'one-row') : marked;
      if (bpchars?.rtrim.length) guarded = markAt(guarded, bpchars.rtrim, 'text:rtrim', true);
      if (bpchars?.trimmed.length) guarded = markAt(guarded, bpchars.trimmed, 'chtrim', true);
      if (bpchars?.padded.length) guarded = markAt(guarded, bpchars.padded, 'bpchar-pad', true);
      if (wholeGuards.length > 0) guarded = markAt(guarded, wholeGuards, 'one-row-whole');
      // ARRAY[a, b] of arrays: a multi-dimensional array
      if (mayNestArrays(sig)) {
        const nests = nestedArrays(text, this.#engine.schema);
        if (nests.length > 0) guarded = markAt(guarded, nests, 'array-nest');
      }
      // `*` over a USING or NATURAL join spreads the merged columns first, as PostgreSQL does
      // (and a USING or NATURAL join over jsonb columns is written with ON, by jsonb's equality: jsonb-using.ts)
      const stars = !local && mayJoinUsing(sig) ? usingStarLists(text, this.#engine.schema) : null;
      // a json builder's text has PostgreSQL's spacing where it leaves the statement
      const layouts = mayBuildJson(sig) ? jsonLayouts(text, this.#engine.schema) : null;
      // a subquery's or WITH query's unaliased items keep PostgreSQL's names to the query around it
      const names = !(local && catalogRelations(sig)) && mayFigureNames(sig) ? figuredAliases(text) : null;
      // (and a column named by a word SQLite reads as its keyword, `s.exists`, is quoted)
      const keywords = mayNameKeywordColumns(sig) ? keywordColumns(text) : null;
      sql = translate(
        stars?.stars.size ||
          stars?.joins.size ||
          stars?.usings.ons.size ||
          layouts?.layouts.size ||
          names?.size ||
          keywords?.length
          ? edited(guarded, stars, layouts, names, keywords)
          : guarded,
        this.#dialect,
        local,
      );
    } catch (err) {
      throw termFirst(explainRefusal(text, err, tokens), termError);
    }
    const paramTypes = inferParamTypes(sig, this.#engine.schema, nParams, fromTree ?? declaredTypes);
    // a regular expression in a write, which the writer has not (SQLite's no such function when it ran)
    if (write) checkReadOnlyCalls(sql);
    let st;
    try {
      st = this.#local.prepare(sql);
    } catch (err) {
      if (!local && /no such function: patina_/.test((err as Error).message)) st = this.#engine.writer.prepare(sql);
      else if (local && catalogRelations(sig, true) && readsCatalogRelation(sig)) {
        // (a catalog relation Patina does not model; a query of user tables that fails is an error)
        // what Patina refuses by name is refused here too (pg_dump -j's pg_export_snapshot())
        const refusal = explainRefusal(text, err, tokens);
        // (but a system column a catalog table's rows lack is PostgreSQL's 42703 there)
        if ((refusal as { sqlstate?: string } | null)?.sqlstate === '0A000')
          throw systemColumnError(text, err, this.#engine.schema) ?? refusal;
        // a relation or column PostgreSQL lacks too is its error there (catalog-names.ts)
        const named = catalogNameError(text, tokens, err, this.#engine.schema);
        if (named) throw named;
        log.debug({ ...errorFields(err), sql }, 'catalog query answered with no rows');
        return {
          kind: 'sql',
          command,
          sql,
          local,
          readonly: true,
          columns: selectListNames(tokens).map((name) => ({ name, declType: 'text' })),
          paramTypes,
          empty: true,
        };
      } else throw termFirst(explainRefusal(text, err, tokens), termError);
    }
    if (termError) throw termError;
    let columns: ColumnDesc[] | null = null;
    if (st.reader) {
      const cols = st.columns();
      const items = kw === 'SELECT' ? selectListTypes(sig) : null;
      const typed = items && items.length === cols.length ? items : null;
      // PostgreSQL's parse tree types what SQLite cannot declare (aggregates, functions, CASE)
      const returning = WRITES.has(command) && sig.some((t) => isWord(t, 'RETURNING'));
      const tree =
        command === 'SELECT' || returning
          ? cachedResultColumns(text, this.#engine.schema, fromTree ?? declaredTypes)
          : null;
      const parsed = tree && tree.length === cols.length ? tree : null;
      // a SELECT of no items (`SELECT FROM t`): rows of no columns (SQLite read its NULL, empty-select.ts)
      if (cols.length === 1 && cols[0].name === 'NULL' && selectsNothing(text)) columns = [];
      else
        columns = cols.map((c, i) => {
          const t = typed?.[i];
          const p = parsed?.[i];
          // a set operation's column is typed by all its branches (SQLite declares the first one's)
          const declType = p?.setop ? null : declaredType(c.type);
          return {
            name: p?.name ?? t?.name ?? pgColumnName(c.name, sql),
            declType,
            // (a bare parameter under an alias, `$1 AS a`, has the parameter's type as `$1` has: text when open)
            oid: declType
              ? 0
              : p?.oid ||
                (p?.setop
                  ? 0
                  : t?.oid ||
                    (t?.param ? expressionOid(`$${t.param}`, paramTypes) : expressionOid(c.name, paramTypes))),
            ...(p?.typmod !== undefined ? { typmod: p.typmod } : {}),
            ...(p?.scale !== undefined && !declType ? { scale: p.scale } : {}),
            ...(p?.scaleIsMinimum && !declType ? { scaleIsMinimum: true } : {}),
            ...(p?.scaleParams?.length && !declType ? { scaleParams: p.scaleParams } : {}),
            ...(p?.scaleOffsets && !declType ? { scaleOffsets: p.scaleOffsets } : {}),
            ...(p?.computed && !declType ? { computed: true } : {}),
            ...(p?.pad !== undefined && !declType ? { pad: p.pad } : {}),
            // (a catalog relation's column: its OID and attnum, as PostgreSQL's RowDescription names them)
            ...(local ? (c.name.startsWith('(') ? {} : catalogColumnOrigin(c)) : this.#origin(c)),
          };
        });
    }
    const positional = st.readonly && !local ? positionalSql(sql, paramTypes.length) : undefined;
    // a multi-row upsert: its rows' keys, which must not repeat (PostgreSQL's 21000)
    const upsert =
      command === 'INSERT' && sig.some((t) => isWord(t, 'CONFLICT')) ? upsertKeys(text, this.#engine.schema) : null;
    const scaleParams = [...new Set(columns?.flatMap((c) => c.scaleParams ?? []) ?? [])].map((k) => k - 1);
    return {
      kind: 'sql',
      command,
      sql,
      local,
      readonly: st.readonly,
      columns,
      paramTypes,
      positional,
      ...(scaleParams.length > 0 ? { scaleParams } : {}),
      ...(bpchars?.kept.length ? { keptParams: bpchars.kept.map((k) => k - 1) } : {}),
      ...(upsert ? { upsertKeys: upsert } : {}),
      ...(command === 'SELECT' && hasLockingClause(sig) ? { locks: true } : {}),
    };
  }
}

/**
 * The SQL with $1..$n replaced by `?` when they appear each once, in order, and are all the
 * statement's parameters (so the list of values binds by position as it binds by name); else undefined.
 */
export function positionalSql(sql: string, params: number): string | undefined {
  if (params === 0) return undefined;
  let next = 1;
  let text = '';
  let same = '';
  for (const t of lexPg(sql)) {
    same += t.text;
    if (t.type !== 'param') text += t.text;
    else if (t.text !== `$${next++}`) return undefined;
    else text += '?';
  }
  // every parameter used, and the tokens are the whole text (nothing the lexer left out)
  return next === params + 1 && same === sql ? text : undefined;
}

const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE']);

/** Whether the tokens may hold a `*` over a USING or NATURAL join or an aliased join: a cheap test before parsing. */
function mayJoinUsing(sig: PgToken[]): boolean {
  return (
    (sig.some((t) => t.type === 'op' && t.text === '*') &&
      sig.some((t) => isWord(t, 'USING') || isWord(t, 'NATURAL') || isWord(t, 'JOIN'))) ||
    (sig.some((t) => isWord(t, 'JOIN')) && sig.some((t) => isWord(t, 'USING') || isWord(t, 'NATURAL')))
  );
}

/**
 * The tokens with the one at each byte offset of `stars.stars` (in the tokens joined by spaces)
 * replaced by the tokens of its text, the select items at the offsets of `stars.aliases` or `names`
 * given that alias, the expressions at the offsets of `layouts` wrapped in __pg_json_layout, and
 * the keywords of the column references at the offsets of `keywords` quoted.
 */
function edited(
  tokens: PgToken[],
  stars: StarEdits | null,
  layouts: JsonLayouts | null,
  names: Map<number, string> | null,
  keywords: number[] | null = null,
): PgToken[] {
  const before = new Map<number, PgToken[]>();
  const after = new Map<number, PgToken[]>();
  const replace = new Map<number, PgToken>();
  if (keywords?.length) {
    const at = new Set(keywords);
    for (let i = 0, offset = 0; i < tokens.length; offset += Buffer.byteLength(tokens[i++].text) + 1)
      if (at.has(offset)) quoteKeywordFields(tokens, i, replace);
  }
  if (layouts?.layouts.size) jsonLayoutEdits(tokens, layouts, before, after, replace);
  if (stars?.usings.ons.size) onJoinEdits(tokens, stars.usings, before, after, replace);
  if (stars?.joins.size) {
    let at = 0;
    for (let i = 0; i < tokens.length; i++) {
      const join = stars.joins.get(at);
      at += Buffer.byteLength(tokens[i].text) + 1;
      const open = join ? joinOpener(tokens, i, join.alias) : -1;
      if (!join || open < 0) continue;
      // `(m JOIN u USING (q)) AS j` → `(SELECT "m"."q" AS "q", ... FROM m JOIN u USING (q)) AS j`
      before.set(open + 1, [
        { type: 'word', text: 'SELECT' },
        ...lexPg(join.list),
        { type: 'word', text: 'FROM' },
        ...(before.get(open + 1) ?? []),
      ]);
    }
  }
  const aliases = new Map([...(names ?? []), ...(stars?.aliases ?? [])]);
  if (aliases.size) {
    let at = 0;
    for (let i = 0; i < tokens.length; i++) {
      const name = aliases.get(at);
      at += Buffer.byteLength(tokens[i].text) + 1;
      if (name === undefined) continue;
      const last = itemEnd(tokens, i);
      after.set(last, [
        ...(after.get(last) ?? []),
        { type: 'word', text: 'AS' },
        { type: 'quoted', text: `"${name.replace(/"/g, '""')}"` },
      ]);
    }
  }
  if (stars?.renames.size) {
    let at = 0;
    for (let i = 0; i < tokens.length; i++) {
      const name = stars.renames.get(at);
      at += Buffer.byteLength(tokens[i].text) + 1;
      if (name === undefined) continue;
      // (the item's last token is its alias)
      const last = itemEnd(tokens, i);
      if (tokens[last]?.type === 'word' || tokens[last]?.type === 'quoted')
        replace.set(last, { type: 'quoted', text: `"${name.replace(/"/g, '""')}"` });
    }
  }
  let offset = 0;
  const out: PgToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const star = stars?.stars.get(offset);
    offset += Buffer.byteLength(tokens[i].text) + 1;
    out.push(
      ...(before.get(i) ?? []),
      ...(star !== undefined ? lexPg(star) : [replace.get(i) ?? tokens[i]]),
      ...(after.get(i) ?? []),
    );
    // `j.*` (an aliased join's, at its name): the `.` and `*` go too
    if (star !== undefined && tokens[i].type !== 'op')
      for (let k = 0; k < 2; k++) {
        while (tokens[i + 1]?.type === 'space' || tokens[i + 1]?.type === 'comment')
          offset += Buffer.byteLength(tokens[++i].text) + 1;
        offset += Buffer.byteLength(tokens[++i].text) + 1;
      }
  }
  return out;
}

/** The '(' before tokens[i] (a join's first table) whose ')' is followed by `[AS] alias`, else -1. */
function joinOpener(tokens: PgToken[], i: number, alias: string): number {
  const skip = (k: number, step: number) => {
    while (tokens[k] && (tokens[k].type === 'space' || tokens[k].type === 'comment')) k += step;
    return k;
  };
  for (let p = skip(i - 1, -1); p >= 0 && tokens[p].type === 'punct' && tokens[p].text === '('; p = skip(p - 1, -1)) {
    const c = closer(tokens, p);
    if (c < 0) return -1;
    let k = skip(c + 1, 1);
    if (isWord(tokens[k], 'AS')) k = skip(k + 1, 1);
    if (tokens[k] && (tokens[k].type === 'word' || tokens[k].type === 'quoted') && identName(tokens[k]) === alias)
      return p;
  }
  return -1;
}

/** Words that end a select list's last item. */
const LIST_END = new Set([
  'FROM',
  'INTO',
  'WHERE',
  'GROUP',
  'HAVING',
  'WINDOW',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'FETCH',
  'FOR',
]);

/** The index of the last token of the select item that begins at tokens[i]. */
function itemEnd(tokens: PgToken[], i: number): number {
  let depth = 0;
  let j = i;
  for (; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.type === 'space' || t.type === 'comment') continue;
    if (t.type === 'punct' && (t.text === '(' || t.text === '[')) depth++;
    else if (t.type === 'punct' && (t.text === ')' || t.text === ']')) {
      if (depth === 0) break;
      depth--;
    } else if (
      depth === 0 &&
      ((t.type === 'punct' && t.text === ',') || (t.type === 'word' && LIST_END.has(t.text.toUpperCase())))
    )
      break;
  }
  while (j - 1 > i && (tokens[j - 1].type === 'space' || tokens[j - 1].type === 'comment')) j--;
  return j - 1;
}

/** The tokens with those at the byte offsets `at` (in the tokens joined by spaces) marked `kind`. */
function markAt(tokens: PgToken[], at: number[], kind: string, unmarked = false): PgToken[] {
  const out = tokens.slice();
  let offset = 0;
  for (let i = 0; i < out.length; i++) {
    if (at.includes(offset) && !(unmarked && out[i].arith)) out[i] = { ...out[i], arith: kind };
    offset += Buffer.byteLength(out[i].text) + 1;
  }
  return out;
}
