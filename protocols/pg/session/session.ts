// One PostgreSQL session: where each statement runs, and its transaction.
//
// Where a statement runs: catalog queries on the front end's local connection; other reads through
// engine.read (point reads in-process, the rest on a cancellable read worker); reads after a write inside a transaction on the
// writer (to see their own writes); writes through the writer, one engine transaction per
// autocommit statement; a BEGIN block's statements on the transaction it holds while nothing else
// writes (Writer.hold), else tried out and replayed at COMMIT (deferred-block.ts), or on a lease
// from its first write to its COMMIT (SAVEPOINT, RETURNING, COPY, long blocks).
// What a statement is comes from the session's Analyzer (sql/analyze.ts); the transaction, and
// where an open block's writes go, is transaction.ts's.
import { checkWriteStatement } from '../../../src/engine/classify';
import type { ReadCursor } from '../../../src/engine/read-pool';
import type { SqlValue } from '../../../src/engine/values';
import type { Statement, StatementResult, WriterLease } from '../../../src/engine/writer';
import { failedPart } from '../../../src/engine/fed-rows';
import { PatinaError } from '../../../src/errors';
import type { LocalDb, SessionFacts } from '../catalog/local-db';
import { readsStats } from '../catalog/relation-stats';
import { catalogOffThread } from '../sql/local-statements';
import { columnConverters } from '../copy/format';
import { oidOfDeclType } from '../types/oids';
import { type CopyIn, copyIntoTable } from '../copy/copy-in';
import { Analyzer } from '../sql/analyze';
import { boundParamTypes } from '../sql/bpchar-casts';
import type { Analyzed, ColumnDesc } from '../sql/analyzed';
import { atPlace, PgError, pgError } from '../sqlstate';
import { isUtcZone } from '../../../src/engine/dates';
import { type PinnedClock, SessionClock, nowMicros, pinClock } from '../../../src/engine/micro-clock';
import { pgConstraintError } from './constraint-errors';
import { type PortalCursor, SqlCursors } from './cursors';
import { NO_OUTCOME, type Outcome, type PgEngine } from './engine';
import { explainText } from './explain';
import { argumentScales, argumentValues } from './execute-arguments';
import { PreparedStatements } from './prepared';
import { regtypeOid } from '../types/reg-input';
import { lexPg } from '../sql/lexer';
import { PARAM_SCALE, paramScaledAnalysis } from '../sql/json-builders';
import { notifyArguments } from './notifications';
import { paramRecord } from './params';
import { checkUpsertKeys } from '../sql/upsert-rows';
import { AdvisoryWait, SleepRequest } from './advisory-locks';
import {
  GUC_DEFAULTS,
  NO_RESET_ALL,
  REPORTED_SETTINGS,
  SettingsMap,
  VERSION_TEXT,
  applySetting,
  checkSetting,
  cleanAscii,
  durationMs,
  reportedValue,
  settingOn,
  showRows,
} from './settings';
import { Transaction, type TxState } from './transaction';
import { inputStyleIn, type OutputStyles, outputStylesOf } from '../types/output-styles';
import { databaseCounts } from '../statement-counts';
import { TransactionSettings, savepointName } from './transaction-settings';
import { checkModes, defaultIsolation, isolationAsked, parseTakesSnapshot, takesSnapshot } from './transaction-modes';
import { opensPipelineTransaction } from './pipeline-transaction';
import { noPreparedTransaction, preparedTransactionsDisabled } from './two-phase';

/** LISTEN/NOTIFY as a session uses them; the connection wires them to the agent's channels. */
export interface SessionChannels {
  listen(channel: string): void;
  /** null: every channel (UNLISTEN *). */
  unlisten(channel: string | null): void;
  notify(channel: string, payload: string): void;
  /** The channels this session listens on (pg_listening_channels()). */
  listening(): string[];
}

export type { TxState } from './transaction';

const complete = (columns: ColumnDesc[] | null, all: unknown[][]): Outcome => ({ columns, all, rows: null });
/** A transaction's NOTIFYs when it sent none (no array made per transaction). */
const NO_NOTIFIES: readonly [string, string][] = [];
const NONE = NO_OUTCOME;

let lastXid = 0;
/**
 * A new transaction id: increasing within the agent and across its restarts (at least the clock's
 * microseconds), as PostgreSQL's 64-bit txid_current() increases; per agent, not cluster-wide.
 */
function nextXid(): number {
  lastXid = Math.max(lastXid + 1, Date.now() * 1000);
  return lastXid;
}

/** No ParameterStatus to send (the usual answer, shared). */
const NO_CHANGES: [string, string][] = [];

export class Session {
  readonly #engine: PgEngine;
  readonly #local: LocalDb;
  readonly #readonlyListener: boolean;
  readonly #timeoutMs: number;
  readonly facts: SessionFacts;
  #zone: { setting: string; zone: string | null } = { setting: 'UTC', zone: null };
  /** The output styles for the IntervalStyle, bytea_output, DateStyle and TimeZone settings they were made for (outputStyles). */
  #styles: {
    /** The settings' change count when these were read (SettingsMap.changes). */
    at: number;
    interval: string | undefined;
    bytea: string | undefined;
    date: string | undefined;
    zone: string | undefined;
    search: string | undefined;
    styles: OutputStyles;
  } | null = null;
  /** What each statement is, cached by its text. */
  readonly analyzer: Analyzer;
  /** Its prepared statements, Parse's and PREPARE's. */
  readonly prepared: PreparedStatements;
  /** The text of the client's Query message now running (what pg_prepared_statements shows of a PREPARE). */
  sourceText = '';
  readonly #t: Transaction;
  #cursor: ReadCursor | null = null;
  #closed = false;
  /** LISTEN/NOTIFY; null until the connection wires them. */
  channels: SessionChannels | null = null;
  /** NOTIFYs of the open transaction, delivered at its commit. */
  readonly #notifies: [string, string][] = [];
  /** The settings SET in the open transaction (by savepoint): their values before it, and after it if it commits. */
  readonly #txSettings = new TransactionSettings();
  /** A statement of the open transaction (a block, an implicit one, a pipeline's) took its snapshot: its modes are fixed (transaction-modes.ts). */
  #snapshot = false;
  /** The isolation level the open transaction asked for (BEGIN's, SET TRANSACTION's; null: the session's default). */
  #isolation: string | null = null;
  readonly #cursors = new SqlCursors<ColumnDesc[] | null>();
  /** The extended protocol's named portal of a name, which FETCH and MOVE reach as a cursor (PostgreSQL's are one namespace); the connection's. */
  portalCursor: (name: string) => PortalCursor<ColumnDesc[] | null> | undefined = () => undefined;
  /** SQL's CLOSE of a named portal of Bind (null: CLOSE ALL's of every one); false when none; the connection's. */
  closePortal: (name: string | null) => boolean = () => false;
  /** Notices (WARNING) for the connection to send. */
  onNotice: (code: string, message: string) => void = () => undefined;
  /** The settings' values at login (startup parameters applied), which RESET goes back to as in PostgreSQL. */
  #resetValues: Readonly<Record<string, string>> = GUC_DEFAULTS;
  /** This transaction's id once txid_current() asked for it (0: none yet). */
  #xid = 0;
  /**
   * now() and statement_timestamp() (micro-clock.ts): the transaction's start, taken by its first
   * statement (BEGIN's, or the first of a simple query's implicit transaction) and kept to its end,
   * and the statement's start.
   */
  #clock = new SessionClock(0n, 0n);
  /** The reported settings' values as the client was last told them (ParameterStatus), in REPORTED_SETTINGS' order. */
  #reported: string[] = [];
  /** The settings' change count when #reported was last compared with them (SettingsMap.changes). */
  #reportedAt = -1;
  /** client_encoding as the connection converts text in it. */
  #encoding = 'UTF8';
  /** client_encoding changed (its name as SHOW prints it): the connection's text is converted from now on. */
  onClientEncoding: (name: string) => void = () => undefined;

  constructor(
    engine: PgEngine,
    local: LocalDb,
    opts: {
      readonly: boolean;
      timeoutMs: number;
      user: string;
      database: string;
      pid: number;
      applicationName: string;
    },
  ) {
    this.#engine = engine;
    this.#local = local;
    this.#readonlyListener = opts.readonly;
    this.#timeoutMs = opts.timeoutMs;
    this.facts = {
      user: opts.user,
      database: opts.database,
      version: VERSION_TEXT,
      pid: opts.pid,
      settings: new SettingsMap(Object.entries(GUC_DEFAULTS)),
    };
    this.facts.settings.set('application_name', cleanAscii(opts.applicationName));
    this.facts.settings.set('session_authorization', opts.user);
    this.facts.listening = () => this.channels?.listening() ?? [];
    this.facts.notice = (code, message) => this.onNotice(code, message);
    this.facts.xid = () => this.#transactionId();
    this.facts.settingChecked = (name, value) => this.#checkModes({ name, value });
    this.facts.settingChanged = (name, before, local) => {
      // (in a transaction, or a pipeline before its Sync, its end settles it: transaction-settings.ts)
      if (this.#t.state !== 'idle' || this.#pipelined) this.#txSettings.keep(this.facts.settings, name, before, local);
      this.#followEncoding();
    };
    this.analyzer = new Analyzer(engine, local, {
      user: opts.user,
      database: opts.database,
      version: VERSION_TEXT,
      zone: () => this.outputZone,
      styles: () => this.outputStyles,
      searchPath: () => this.facts.settings.get('search_path') ?? 'public',
    });
    this.prepared = new PreparedStatements(this.analyzer);
    this.facts.prepared = () => this.prepared.rows();
    this.#t = new Transaction(
      engine,
      opts.timeoutMs,
      (committed) => this.#transactionEnded(committed),
      () => this.#closed,
    );
  }

  /** The transaction's state, as ReadyForQuery tells it. */
  get tx(): TxState {
    return this.#t.state;
  }

  /** A statement's error fails the open block (the connection marks it so). */
  set tx(state: TxState) {
    if (state === 'failed') this.#fail();
    else this.#t.state = state;
  }

  /**
   * A statement of the open transaction failed: it is failed until its end, and the settings of its
   * innermost savepoint (else its own) are put back at once, as PostgreSQL's abort puts them back.
   */
  #fail(): void {
    if (this.#t.state !== 'open') return;
    this.#t.state = 'failed';
    if (this.#txSettings.changed) {
      this.#txSettings.failed(this.facts.settings);
      this.#followEncoding();
    }
  }

  /** A new transaction starts: no snapshot taken, its isolation level the session's default. */
  #newTransaction(): void {
    this.#snapshot = false;
    this.#isolation = null;
  }

  /** Parse of a statement in a block: PostgreSQL's parse analysis takes the transaction's snapshot for a query. */
  parsed(an: Analyzed): void {
    if (this.#t.state === 'open' && parseTakesSnapshot(an)) this.#snapshot = true;
  }

  /**
   * A change of the transaction's modes (BEGIN's, SET TRANSACTION's, SET transaction_isolation)
   * past its first query or in a savepoint: 25001, as PostgreSQL's check hooks (transaction-modes.ts).
   */
  #checkModes(s: Analyzed['setting']): void {
    if (!s) return;
    const settings = this.facts.settings;
    if (this.#snapshot || this.#txSettings.savepoints > 0)
      checkModes(s, {
        snapshot: this.#snapshot,
        savepoints: this.#txSettings.savepoints,
        isolation: this.#isolation ?? defaultIsolation(settings),
        readOnly: settingOn(settings.get('transaction_read_only')),
      });
    this.#isolation = isolationAsked(s) ?? this.#isolation;
  }

  /** The open transaction is the implicit one of a multi-statement simple query. */
  get implicit(): boolean {
    return this.#t.implicit;
  }

  /** Starts the implicit transaction of a simple query of several statements (as PostgreSQL does). */
  beginImplicit(): void {
    this.#tick();
    this.#newTransaction();
    this.#t.state = 'open';
    this.#t.implicit = true;
  }

  /** Ends the implicit transaction: commits when every statement succeeded, else rolls back. */
  endImplicit(ok: boolean): void {
    this.#t.endImplicit(ok);
  }

  /**
   * Runs an analyzed statement with bound parameters. The outcome comes synchronously when nothing
   * has to wait (point reads, catalog queries, transaction control), so that a connection can answer
   * a pipelined batch without a promise per message; writes and streamed reads return a promise.
   */
  execute(an: Analyzed, params: SqlValue[], extended = false): Outcome | Promise<Outcome> {
    if (this.#xid !== 0 && this.#t.state === 'idle') this.#xid = 0;
    // (the statements of a simple query of several share its clock, as PostgreSQL's message does;
    // so do the Executes of an extended-protocol pipeline before its Sync, PostgreSQL's implicit
    // transaction, outside a block: now() is the first one's start, statement_timestamp() each one's)
    this.#inPipeline = extended && (this.#pipelined || this.#t.implicit);
    this.#extended = extended;
    if (!this.#t.implicit) {
      if (extended && this.#pipelined && this.#t.state === 'idle') this.#tickStatement();
      else {
        this.#tick();
        // (a statement outside a block and a pipeline is a transaction of its own)
        if (this.#t.state === 'idle') this.#newTransaction();
      }
      this.#pipelined = extended && this.#t.state === 'idle';
      // a pipeline's first write with more Executes behind it before Sync opens its implicit
      // transaction, which Sync ends (pipeline-transaction.ts)
      if (this.#pipelined && opensPipelineTransaction(an) && this.moreBeforeSync()) {
        this.#t.state = 'open';
        this.#t.implicit = true;
      }
    } else if (extended) this.#tickStatement();
    // (a statement outside a block is its own transaction: its id, and pg_stat_database's count)
    const autocommit = this.#t.state === 'idle' && (an.kind === 'sql' || an.kind === 'execute');
    if (!this.#snapshot && takesSnapshot(an)) this.#snapshot = true;
    try {
      const r = this.#execute(an, params);
      if (r instanceof Promise) {
        return r.then(
          (o) => {
            if (autocommit) databaseCounts.commits++;
            return o;
          },
          (err) => {
            this.#fail();
            if (autocommit) databaseCounts.rollbacks++;
            throw err;
          },
        );
      }
      if (autocommit) databaseCounts.commits++;
      return r;
    } catch (err) {
      this.#fail();
      if (autocommit) databaseCounts.rollbacks++;
      throw err;
    }
  }

  /** Whether the Executes since the last Sync, outside a block, share the first one's transaction clock. */
  #pipelined = false;

  /** An Execute of a pipeline runs: whether an Execute came before it since the last Sync, outside a block. */
  #inPipeline = false;

  /**
   * Whether another Execute follows the running one before the next Sync, or the Sync is not read
   * yet (the connection looks at the messages it holds): the first write opens the pipeline's
   * implicit transaction then, else it commits on its own as before.
   */
  moreBeforeSync: () => boolean = () => false;

  /**
   * A Sync: the pipeline's implicit transaction ends, committed, or rolled back when a message
   * failed (this throws when the commit fails); the next Execute starts a transaction of its own (its now()).
   */
  pipelineEnded(): void {
    this.#pipelined = false;
    const failed = this.#pipelineFailed;
    this.#pipelineFailed = false;
    if (this.#t.implicit) this.#t.endImplicit(true);
    // (settings of a pipeline that opened no transaction: kept, or put back when a message failed)
    else if (this.#t.state === 'idle' && this.#txSettings.changed) this.#settleSettings(!failed);
    if (this.#t.state === 'idle') {
      this.#newTransaction();
      if (this.#pipelineModes) this.#endModes();
      this.#pipelineModes = false;
    }
  }

  /** A SET of the pipeline, no transaction being open, changed the transaction's modes or their defaults: Sync ends them. */
  #pipelineModes = false;

  /**
   * A message of the extended protocol failed (the connection skips to Sync): the pipeline's
   * implicit transaction rolls back at Sync, and the settings it changed with it.
   */
  messageFailed(): void {
    // (in a block too, as any error in PostgreSQL's: a Bind or an Execute of no such portal)
    if (this.#t.state === 'open') this.#fail();
    else if (this.#pipelined) this.#pipelineFailed = true;
  }

  /** A message of the pipeline failed, no transaction being open: Sync puts its settings back. */
  #pipelineFailed = false;

  /** The running statement came by the extended protocol (Execute). */
  #extended = false;

  /**
   * PostgreSQL's implicit transaction of a pipeline (TBLOCK_STARTED): no transaction block, though
   * it lasts to the Sync; the statement runs outside a block, or in the pipeline's transaction.
   */
  #outsideBlock(): boolean {
    return this.#t.state === 'idle' || (this.#t.implicit && this.#extended && this.#pipelined);
  }

  /** A statement of the transaction whose clock runs starts: its own start, the transaction's kept. */
  #tickStatement(): void {
    const c = this.#clock;
    this.#clock = new SessionClock(c.xactUs, nowMicros(), c.xactTextMade);
  }

  /** A statement starts: its clock, and the transaction's when none is open (micro-clock.ts). */
  #tick(): void {
    const now = nowMicros();
    const c = this.#clock;
    this.#clock =
      this.#t.state === 'idle' || c.xactUs === 0n
        ? new SessionClock(now, now)
        : new SessionClock(c.xactUs, now, c.xactTextMade);
  }

  /** The clock a statement's SQL reads, when it reads one (now(), statement_timestamp(): __pg_now). */
  #clockFor(sql: string): PinnedClock | undefined {
    return sql.includes('_now(') ? this.#clock.plain() : undefined;
  }

  #execute(an: Analyzed, params: SqlValue[]): Outcome | Promise<Outcome> {
    const t = this.#t;
    if (an.kind === 'sql' && t.state !== 'failed') return this.#runSql(an, params); // the common case, first
    const none = NONE;
    if (
      t.state === 'failed' &&
      an.kind !== 'rollback' &&
      an.kind !== 'commit' &&
      !(an.kind === 'savepoint' && an.command === 'ROLLBACK')
    ) {
      throw pgError('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
    }
    switch (an.kind) {
      case 'empty':
        return none;
      case 'begin':
        if (!t.implicit && t.state !== 'idle') {
          this.onNotice('25001', 'there is already a transaction in progress');
          // (its modes still apply, as PostgreSQL's: to a transaction past its first query, 25001)
          this.#checkModes(an.setting);
          return none;
        }
        // (the implicit transaction of a simple query or pipeline may have taken its snapshot)
        this.#checkModes(an.setting);
        if (t.implicit) t.implicit = false;
        else t.state = 'open';
        // READ ONLY / READ WRITE, else the session's default_transaction_read_only; DEFERRABLE so
        this.facts.settings.set(
          'transaction_read_only',
          an.setting?.value ?? (settingOn(this.facts.settings.get('default_transaction_read_only')) ? 'on' : 'off'),
        );
        this.facts.settings.set(
          'transaction_deferrable',
          an.setting?.deferrable?.value ??
            (settingOn(this.facts.settings.get('default_transaction_deferrable')) ? 'on' : 'off'),
        );
        return none;
      case 'commit':
        // (an implicit transaction's too, as PostgreSQL: it ends it, with the warning)
        if (t.state === 'idle' || t.implicit) this.onNotice('25P01', 'there is no transaction in progress');
        t.implicit = false;
        this.#endModes();
        return t.commit();
      case 'rollback':
        // (an implicit transaction's too, as PostgreSQL: it ends it, with the warning)
        if (t.state === 'idle' || t.implicit) this.onNotice('25P01', 'there is no transaction in progress');
        if (an.prepares !== undefined) {
          // PREPARE TRANSACTION, PostgreSQL 15's with max_prepared_transactions = 0: a pipeline's
          // implicit transaction (its TBLOCK_STARTED) commits, as after COMMIT; a block, or a simple
          // query's implicit one, rolls back and fails; outside one, or in a failed block, it is ROLLBACK
          const pipeline = t.implicit && this.#pipelined;
          t.implicit = false;
          this.#endModes();
          if (pipeline) return t.commit();
          if (t.state === 'open') {
            t.rollback();
            throw preparedTransactionsDisabled();
          }
        }
        t.implicit = false;
        this.#endModes();
        t.rollback();
        return none;
      case 'savepoint':
        if (t.state === 'idle' || t.implicit)
          throw pgError(
            '25P01',
            `${an.command === 'ROLLBACK' ? 'ROLLBACK TO SAVEPOINT' : an.command} can only be used in transaction blocks`,
          );
        return t.savepoint(an, this.#readonlyListener).then((o) => {
          // (each savepoint a level of the settings, as PostgreSQL's subtransactions: transaction-settings.ts)
          const name = savepointName(an.sql);
          if (an.command === 'SAVEPOINT') this.#txSettings.savepoint(name);
          else if (an.command === 'RELEASE') this.#txSettings.release(name);
          else {
            this.#txSettings.rollbackTo(this.facts.settings, name);
            this.#followEncoding();
          }
          return o;
        });
      case 'set': {
        const { deferrable, isolation } = an.setting ?? {};
        if (
          an.setting?.name === 'transaction_read_only' ||
          deferrable?.name === 'transaction_deferrable' ||
          isolation?.name === 'transaction_isolation'
        ) {
          // (a simple query's implicit transaction is a block, a pipeline's none, as PostgreSQL's)
          if (this.#outsideBlock()) this.onNotice('25P01', 'SET TRANSACTION can only be used in transaction blocks');
          this.#checkModes(an.setting);
          // (they apply to a simple query's or pipeline's implicit transaction too, to its end)
          if (t.state === 'idle' && !this.#pipelined) return none;
        } else this.#checkModes(an.setting);
        // (a pipeline's transaction keeps its modes to its Sync, which takes the defaults then)
        if (t.state === 'idle' && this.#pipelined) this.#pipelineModes = true;
        if (isolation?.name === 'default_transaction_isolation') {
          // SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL: the session's default
          const before = this.facts.settings.get(isolation.name);
          applySetting(this.facts.settings, isolation, this.#resetValues);
          if (t.state !== 'idle' || this.#pipelined)
            this.#txSettings.keep(this.facts.settings, isolation.name, before, false);
        }
        if (deferrable) {
          // (the transaction's lasts to its end; SET SESSION CHARACTERISTICS' default is settled so)
          const before = this.facts.settings.get(deferrable.name);
          this.facts.settings.set(deferrable.name, deferrable.value);
          if ((t.state !== 'idle' || this.#pipelined) && !NO_RESET_ALL.has(deferrable.name))
            this.#txSettings.keep(this.facts.settings, deferrable.name, before, false);
        }
        if (an.setting?.local && this.#outsideBlock()) {
          this.onNotice('25P01', 'SET LOCAL can only be used in transaction blocks');
          // (it lasts to the end of its transaction: at once alone, to the Sync in a pipeline)
          if (!this.#pipelined) {
            if (an.setting.name) checkSetting(an.setting.name, an.setting.value);
            return none;
          }
        }
        if ((t.state !== 'idle' || this.#pipelined) && an.setting?.name) {
          // as in PostgreSQL, the transaction's end settles it: a rollback puts back the value from
          // before the transaction, a commit the last value SET without LOCAL (or that one); a
          // pipeline's Sync too, when no transaction is open (transaction-settings.ts); RESET ALL's
          // each setting so
          const names =
            an.setting.name === 'all'
              ? [...this.facts.settings.keys()].filter((name) => !NO_RESET_ALL.has(name))
              : [an.setting.name];
          const before = names.map((name) => this.facts.settings.get(name));
          applySetting(this.facts.settings, an.setting, this.#resetValues);
          for (const [i, name] of names.entries())
            if (!NO_RESET_ALL.has(name))
              // (the transaction's modes end with it: #endModes)
              this.#txSettings.keep(this.facts.settings, name, before[i], an.setting.local === true);
          this.#followEncoding();
          return none;
        }
        // (a change of a reported setting, RESET ALL's too, is reported before ReadyForQuery: parameterChanges)
        applySetting(this.facts.settings, an.setting, this.#resetValues);
        this.#followEncoding();
        if (t.state === 'idle' && !this.#pipelined) this.#endModes();
        return none;
      }
      case 'show':
        return complete(an.columns, showRows(this.facts.settings, an.setting!.name));
      case 'noop':
        // (ANALYZE may run in a transaction block; VACUUM and DISCARD ALL may not, as in PostgreSQL)
        if (an.command === 'DISCARD ALL') {
          this.#preventInBlock('DISCARD ALL');
          this.#discardAll();
        }
        if (an.command === 'VACUUM') this.#preventInBlock('VACUUM');
        if (an.command === 'COMMIT PREPARED' || an.command === 'ROLLBACK PREPARED') {
          this.#preventInBlock(an.command);
          throw noPreparedTransaction(an.prepares ?? '');
        }
        // (LOCK TABLE needs one, a pipeline's implicit transaction not being one: 25P01 as PostgreSQL's)
        if (an.command === 'LOCK TABLE' && this.#outsideBlock())
          throw pgError('25P01', 'LOCK TABLE can only be used in transaction blocks');
        for (const w of an.warnings ?? []) this.onNotice('01000', w);
        return none;
      case 'sql':
        return this.#runSql(an, params);
      case 'explain':
        return this.#runExplain(an, params);
      case 'listen':
        if (!this.channels) throw pgError('0A000', 'LISTEN is not available on this connection');
        this.channels.listen(an.channel!.name!);
        return none;
      case 'unlisten':
        this.channels?.unlisten(an.channel!.name);
        return none;
      case 'notify': {
        // NOTIFY ch, 'x' or SELECT pg_notify(ch, x), whose arguments may be parameters
        const [name, payload] = notifyArguments(an.channel!, params);
        if (t.state === 'open')
          this.#notifies.push([name, payload]); // delivered at commit, as in PostgreSQL
        else this.channels?.notify(name, payload);
        return an.columns ? complete(an.columns, [['']]) : none;
      }
      case 'copy':
        throw pgError(
          '0A000',
          'COPY through the extended query protocol is not supported by Patina: send it as a simple query (psql, pg-copy-streams and psycopg2 do)',
        );
      case 'declare':
        return this.#declareCursor(an, params);
      case 'fetch':
        return this.#fetchCursor(an);
      case 'prepare':
        this.#prepare(an);
        return none;
      case 'execute':
        return this.#executePrepared(an, params);
      case 'deallocate': {
        const name = an.prepared!.name;
        if (name === null) this.prepared.clear();
        else if (!this.prepared.delete(name)) throw pgError('26000', `prepared statement "${name}" does not exist`);
        return none;
      }
      case 'close-cursor': {
        // (a portal of Bind too, as PostgreSQL's CLOSE and CLOSE ALL close portals)
        const name = an.cursor!.name;
        const cursor = this.#cursors.close(name);
        if (!this.closePortal(name) && !cursor) throw pgError('34000', `cursor "${name}" does not exist`);
        return none;
      }
    }
  }

  async #declareCursor(an: Analyzed, params: SqlValue[]): Promise<Outcome> {
    const { name, hold, inner, scroll } = an.cursor!;
    // (a pipeline's implicit transaction is none, as in PostgreSQL: #outsideBlock)
    if (!hold && this.#outsideBlock()) throw pgError('25P01', 'DECLARE CURSOR can only be used in transaction blocks');
    if (this.#cursors.has(name!)) throw pgError('42P03', `cursor "${name}" already exists`);
    const out = await this.#runSql(inner!, params);
    this.#cursor = null; // a later CancelRequest is for a later statement, not this cursor's read
    this.#cursors.open(name!, hold!, out.columns, out.all, out.rows, scroll);
    return NONE;
  }

  async #fetchCursor(an: Analyzed): Promise<Outcome> {
    const { name, count, move, dir } = an.cursor!;
    // (asyncpg's Cursor.forward() is `MOVE FORWARD n "__asyncpg_portal_1__"`, its Bind's portal)
    const portal = this.#cursors.has(name!) ? undefined : this.portalCursor(name!);
    const { columns, rows, moved } = portal
      ? {
          columns: portal.columns,
          ...(await portal.fetch(count!, move!, dir ?? 'forward', (a, list) =>
            // (a SHOW's portal too: its rows are the statement's)
            a.kind === 'sql' ? this.#runSql(a, list) : this.#execute(a, list),
          )),
        }
      : await this.#cursors.fetch(name!, count!, move!, dir);
    if (move) return { columns: null, all: [], rows: null, affected: moved, tag: `MOVE ${moved}` };
    return { columns, all: rows, rows: null, tag: `FETCH ${rows.length}` };
  }

  /** The columns of the SQL cursor `name` (DECLARE), which Describe of a portal so named tells; undefined if none. */
  cursorColumns(name: string): ColumnDesc[] | undefined {
    return this.#cursors.columnsOf(name) ?? undefined;
  }

  /**
   * PREPARE: the types of its list (42704 for a name of no type; a modifier is dropped, as
   * PostgreSQL's PREPARE drops it), the statement analysed as Parse analyses it, then named.
   */
  #prepare(an: Analyzed) {
    const { name, types, body, at, bodyAt } = an.prepared!;
    const oids = types!.map((t, k) => {
      try {
        return regtypeOid(t.replace(/\s*\([^)]*\)/g, ''));
      } catch (err) {
        throw atPlace(err, at![k]);
      }
    });
    try {
      this.prepared.add(name!, body!, oids, this.sourceText || body!, true);
    } catch (err) {
      // an error placed in the statement is placed in PREPARE's text (psql's caret at the operator)
      if (err instanceof PgError && err.position !== undefined) err.position += bodyAt ?? 0;
      throw err;
    }
  }

  /**
   * EXECUTE: the prepared statement run with its arguments (prepared.ts' argumentValues), its
   * result and tag the statement's own (`INSERT 0 1`, `SELECT 2`).
   */
  #executePrepared(an: Analyzed, outer: SqlValue[]): Outcome | Promise<Outcome> {
    const { p, inner, values, scales } = this.#preparedCall(an, outer);
    const run = (params: SqlValue[]) => {
      // (the arguments' scales: for result columns at their parameters' scale, and written into the
      // statement where a numeric parameter is printed at its own, as Bind writes the text sent's in:
      // `EXECUTE p(1.50)` into a text column is 1.50)
      const argScales =
        inner.scaleParams || inner.sql.includes(PARAM_SCALE)
          ? argumentScales(an.prepared!.args!, (sql) => this.#scaleOf(sql), scales)
          : undefined;
      const paramScales = inner.scaleParams ? argScales : undefined;
      this.prepared.ran(p);
      const out = this.#execute(
        paramScaledAnalysis(inner, (k) => argScales?.[k - 1] ?? 0),
        params,
      );
      return out instanceof Promise
        ? out.then((o) => ({ ...o, of: inner, paramScales }))
        : { ...out, of: inner, paramScales };
    };
    return values instanceof Promise ? values.then(run) : run(values);
  }

  /** The numeric scale the analysis gives a query's one column (its typmod's, or the expression's), if it tells one. */
  #scaleOf(sql: string): number | undefined {
    try {
      const c = this.analyzer.cached(`T${sql}`, () => lexPg(sql)).columns?.[0];
      if (c?.typmod !== undefined && c.typmod >= 4) return (c.typmod - 4) & 0xffff;
      return c?.scale;
    } catch {
      return undefined; // (an argument that does not analyse fails as argumentValues evaluates it)
    }
  }

  /** EXECUTE's prepared statement (26000 for none), its analysis now, and its arguments' values. */
  #preparedCall(an: Analyzed, outer: SqlValue[]) {
    const name = an.prepared!.name!;
    const p = this.prepared.get(name);
    const inner = this.prepared.inZone(p);
    const evaluate = (sql: string) =>
      this.#execute(
        this.analyzer.cached(`T${sql}`, () => lexPg(sql)),
        outer,
      );
    const order = inputStyleIn(this.outputStyles);
    const { args, at } = an.prepared!;
    // (the type an argument has as SQL tells it: none when only its value would)
    const typeOf = (sql: string) => this.analyzer.cached(`T${sql}`, () => lexPg(sql)).columns?.[0]?.oid || undefined;
    const scales: (number | undefined)[] = [];
    // (a bpchar kept as sent is read as text, as Bind reads it: sql/bpchar-casts.ts)
    const types = boundParamTypes(inner);
    const values = argumentValues(name, args!, at!, types, this.outputZone, order, evaluate, typeOf, scales);
    return { p, inner, values, scales };
  }

  /** The columns a statement answers with: its own, for EXECUTE its prepared statement's, or for FETCH those of its cursor (34000 if none). */
  resultColumns(an: Analyzed): ColumnDesc[] | null {
    if (an.kind === 'execute') return this.prepared.inZone(this.prepared.get(an.prepared!.name!)).columns;
    if (an.kind !== 'fetch' || an.cursor!.move) return an.columns;
    const columns = this.#cursors.columnsOf(an.cursor!.name!) ?? this.portalCursor(an.cursor!.name!)?.columns;
    if (columns === undefined) throw pgError('34000', `cursor "${an.cursor!.name}" does not exist`);
    return columns;
  }

  /** The end of a transaction: NOTIFYs of a committed one go out, cursors without HOLD close. */
  /** The login's settings are applied: RESET goes back to them from now on. */
  settled(): void {
    this.#endModes();
    this.#resetValues = { ...GUC_DEFAULTS, ...Object.fromEntries(this.facts.settings) };
    // (the values the login reports, startup.ts' startupParameters: a change from them is reported)
    this.#reported = REPORTED_SETTINGS.map(([name]) => reportedValue(this.facts.settings, name));
    this.#encoding = reportedValue(this.facts.settings, 'client_encoding');
  }

  /**
   * ParameterStatus of each reported setting whose value is not the one the client was last told,
   * as PostgreSQL 15 sends them before ReadyForQuery, in its order, whatever changed them (SET, SET
   * LOCAL, RESET ALL, a transaction's end, DISCARD ALL, set_config); none for a value set back to the
   * one reported (pgjdbc tracks TimeZone and client_encoding, libpq DateStyle).
   */
  parameterChanges(): [string, string][] {
    const { changes } = this.facts.settings as SettingsMap;
    if (changes === this.#reportedAt) return NO_CHANGES;
    this.#reportedAt = changes;
    const out: [string, string][] = [];
    REPORTED_SETTINGS.forEach(([name, shown], i) => {
      const now = reportedValue(this.facts.settings, name);
      if (now === this.#reported[i]) return;
      this.#reported[i] = now;
      out.push([shown, now]);
    });
    return out;
  }

  /** client_encoding changed (SET, RESET, a transaction's end, set_config): the connection converts text in the new one from now on. */
  #followEncoding() {
    const now = reportedValue(this.facts.settings, 'client_encoding');
    if (now === this.#encoding) return;
    this.#encoding = now;
    this.onClientEncoding(now);
  }

  /** The id txid_current() gives this transaction: assigned at the first call, one per block or autocommit statement. */
  #transactionId(): number {
    if (this.#xid === 0) this.#xid = nextXid();
    return this.#xid;
  }

  /**
   * Outside a block (a block ends, a SET outside one, the login), the transaction's modes are the
   * session's defaults, as each statement's transaction takes them in PostgreSQL (SHOW
   * transaction_read_only after SET default_transaction_read_only = on is on).
   */
  #endModes() {
    const s = this.facts.settings;
    s.set('transaction_read_only', settingOn(s.get('default_transaction_read_only')) ? 'on' : 'off');
    s.set('transaction_deferrable', settingOn(s.get('default_transaction_deferrable')) ? 'on' : 'off');
  }

  #transactionEnded(committed: boolean) {
    this.#xid = 0;
    if (committed) databaseCounts.commits++;
    else databaseCounts.rollbacks++;
    this.#local.advisory.releaseXact(this.facts.pid);
    if (this.#txSettings.changed || this.#txSettings.savepoints > 0) this.#settleSettings(committed);
    this.#newTransaction();
    this.#endModes(); // (after the settings: SET SESSION CHARACTERISTICS rolled back)
    const notifies = this.#notifies.length > 0 ? this.#notifies.splice(0) : NO_NOTIFIES;
    // a channel signalled more than once with the same payload in one transaction is heard once,
    // as in PostgreSQL (the first time's place in the order)
    const sent = committed && notifies.length > 1 ? new Set<string>() : null;
    if (committed)
      for (const [ch, payload] of notifies) {
        const key = `${ch}\0${payload}`;
        if (sent?.has(key)) continue;
        sent?.add(key);
        this.channels?.notify(ch, payload);
      }
    this.#cursors.transactionEnded();
  }

  /**
   * PostgreSQL's PreventInTransactionBlock: 25001 in a transaction block (a simple query's implicit
   * one too), or after another Execute of a pipeline before its Sync (XACT_FLAGS_PIPELINING).
   */
  #preventInBlock(command: string) {
    const t = this.#t;
    if (t.state !== 'idle' && !(t.implicit && this.#inPipeline))
      throw pgError('25001', `${command} cannot run inside a transaction block`);
    if (this.#inPipeline) throw pgError('25001', `${command} cannot be executed within a pipeline`);
  }

  /** The settings changed in the transaction (or pipeline) that ends: kept, or put back when it rolled back. */
  #settleSettings(committed: boolean) {
    this.#txSettings.settle(this.facts.settings, committed);
    this.#followEncoding();
  }

  /** COPY TO STDOUT: the rows of its read, streamed. */
  copyOut(an: Analyzed): Outcome | Promise<Outcome> {
    if (this.#t.state === 'failed')
      throw pgError('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
    this.#tick();
    return this.#runSql(an.copy!.read!, []);
  }

  /** COPY FROM STDIN: takes the writer (or the open block's lease) and returns where the rows go. */
  async copyIn(an: Analyzed): Promise<CopyIn> {
    if (this.#t.state === 'failed')
      throw pgError('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
    if (this.#readOnly()) throw pgError('25006', 'cannot execute COPY FROM in a read-only transaction');
    const { stmt, columns } = an.copy!;
    const table = stmt.table!;
    const def = this.#engine.schema.tables.get(table)!;
    const convert = columnConverters(def, columns, inputStyleIn(this.outputStyles));
    const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
    checkWriteStatement(sql, 'statement');
    const inBlock = this.#t.state === 'open';
    let lease: WriterLease<unknown>;
    if (inBlock) {
      await this.#t.ensureLease();
      lease = this.#t.lease!;
    } else {
      lease = await this.#engine.lease();
      if (this.#closed) {
        lease.release();
        throw new PatinaError('unavailable', 'the connection was closed');
      }
      lease.begin();
    }
    return copyIntoTable({
      lease,
      inBlock,
      schema: this.#engine.schema,
      table,
      columns,
      oids: columns.map((c) => oidOfDeclType(def.columns.find((d) => d.name === c)?.type)),
      sql,
      convert,
      failBlock: () => this.#fail(),
    });
  }

  async #runExplain(explained: Analyzed, outer: SqlValue[]): Promise<Outcome> {
    let an = explained;
    let list = outer;
    if (an.explain!.inner.kind === 'execute') {
      // EXPLAIN EXECUTE p(...): the prepared statement's plan with its arguments' values (ANALYZE runs it)
      const call = this.#preparedCall(an.explain!.inner, outer);
      list = await call.values;
      an = { ...an, explain: { inner: call.inner, run: an.explain!.run } };
      this.prepared.ran(call.p); // (PostgreSQL plans it, and counts the plan, for EXPLAIN alone too)
    }
    const { inner } = an.explain!;
    // (a data-modifying WITH query's rows are planned as none: the plan is of the statement around it)
    const params = inner.feeds
      ? { ...paramRecord(list), ...Object.fromEntries(inner.feeds.map((f) => [f.param, '[]'])) }
      : paramRecord(list);
    const eqp = `EXPLAIN QUERY PLAN ${inner.sql}`;
    let plan: unknown[][];
    try {
      plan = this.#local.run(this.#local.prepare(eqp), params, this.facts);
    } catch {
      // a write to a captured table prepares only on the writer (its triggers call the agent's functions)
      const lease = this.#t.lease ?? (await this.#engine.lease());
      try {
        plan = lease.run({ sql: eqp, params }, 'statement').rows ?? [];
      } finally {
        if (lease !== this.#t.lease) lease.release();
      }
    }
    const lines = await explainText(plan, an.explain!, () => this.#runSql(inner, list));
    return complete(
      an.columns,
      lines.map((l) => [l]),
    );
  }

  #runSql(an: Analyzed, list: SqlValue[]): Outcome | Promise<Outcome> {
    if (an.empty) return complete(an.columns, []);
    // (what runs here at once reads it; what runs later carries it: Statement.clock, ReadRequest.clock)
    pinClock(this.#clock);
    // SELECT ... FOR UPDATE in a block: on the writer, held to COMMIT (translate/locking.ts)
    if (an.locks && this.#t.state === 'open') return this.#write(an, paramRecord(list));
    if (an.positional !== undefined && an.readonly && !this.#t.lease && !this.#t.deferred) {
      // a point read binds its values by position: no object of named parameters to build and look up
      const rows = this.#engine.pointRead(an.positional, list);
      if (rows) return complete(an.columns, rows);
    }
    const params = paramRecord(list);
    if (an.local) {
      const run = () => this.#runLocal(an, params);
      // sizes, pages and row counts are read on a read worker first (catalog/relation-stats.ts)
      return readsStats(an.sql)
        ? this.#local.stats.refresh(this.#engine, this.#local.dataVersion(), this.#local.fileBytes()).then(run)
        : run();
    }
    if (!an.readonly) return this.#write(an, params);
    const lease = this.#t.lease;
    if (lease && !this.#t.held) {
      const r = lease.run({ sql: an.sql, params, clock: this.#clockFor(an.sql) }, 'statement');
      return complete(an.columns ?? r.columns ?? null, r.rows ?? []);
    }
    if (this.#t.deferred) return this.#t.runDeferred(an, { sql: an.sql, params, clock: this.#clockFor(an.sql) });
    const rows = an.positional === undefined ? this.#engine.pointRead(an.sql, params) : null; // in-process, at once
    if (rows) return complete(an.columns, rows);
    return this.#stream(
      an,
      this.#engine.read({
        sql: an.sql,
        params,
        format: 'values',
        clock: this.#clockFor(an.sql),
        ...this.#readTimeout(),
      }),
    );
  }

  /**
   * A statement on the catalog connection. One that takes an advisory lock another session holds
   * (pg_advisory_lock) waits for a release and runs again, as long as the session's
   * statement_timeout or lock_timeout allow (none: as long as it takes, as in PostgreSQL) and no
   * CancelRequest comes; an autocommit statement's transaction-level locks end with it.
   */
  #runLocal(an: Analyzed, params: Record<string, unknown> | undefined): Outcome | Promise<Outcome> {
    const workers = this.#local.workers;
    if (workers && catalogOffThread(an.sql)) {
      // (until the first worker is ready, here, as before: the first catalog query waits for no process)
      if (workers.ready) return this.#runOffThread(an, params);
      workers.warm();
    }
    try {
      return this.#localOnce(an, params);
    } catch (err) {
      if (err instanceof SleepRequest) return this.#sleepThenRun(an, params, err.ms);
      if (!(err instanceof AdvisoryWait)) throw err;
      return this.#waitForLock(an, params, err);
    }
  }

  /**
   * A catalog statement in a catalog worker (catalog/catalog-workers.ts), off the agent's thread:
   * statement_timeout, api.query_timeout and a CancelRequest stop it (57014), as a read on a worker.
   */
  async #runOffThread(an: Analyzed, params: Record<string, unknown> | undefined): Promise<Outcome> {
    const f = this.facts;
    const sessions = this.#local.sessions;
    const job = this.#local.workers!.run({
      sql: an.sql,
      params,
      facts: { user: f.user, database: f.database, version: f.version, pid: f.pid, settings: [...f.settings] },
      ...(sessions && an.sql.includes('pg_stat_activity') ? { activity: sessions.activity() } : {}),
      ...(f.prepared && an.sql.includes('pg_prepared_statements') ? { prepared: f.prepared() } : {}),
      clock: this.#clockFor(an.sql),
      ...this.#readTimeout(),
    });
    this.#lockWaitAbort = (err) => job.stop(err as Error);
    try {
      return complete(an.columns, await job.rows);
    } finally {
      this.#lockWaitAbort = null;
    }
  }

  /** One run on the catalog connection, what it took given back if it must wait; an autocommit statement's transaction-level locks end with it. */
  #localOnce(an: Analyzed, params: Record<string, unknown> | undefined): Outcome {
    const locks = this.#local.advisory;
    const rows = locks.during(() => this.#local.run(this.#local.prepare(an.sql), params, this.facts));
    if (this.#t.state === 'idle') locks.releaseXact(this.facts.pid);
    return complete(an.columns, rows);
  }

  /** pg_sleep: waits off the agent's thread (statement_timeout and a cancel end it, 57014), then runs the statement, `slept`. */
  async #sleepThenRun(an: Analyzed, params: Record<string, unknown> | undefined, ms: number): Promise<Outcome> {
    const st = durationMs(this.facts.settings.get('statement_timeout') ?? '0') ?? 0;
    let timer: NodeJS.Timeout | null = null;
    this.waitEvent = ['Timeout', 'PgSleep'];
    try {
      await new Promise<void>((resolve, reject) => {
        this.#lockWaitAbort = reject;
        if (st > 0 && st < ms)
          timer = setTimeout(() => reject(pgError('57014', 'canceling statement due to statement timeout')), st);
        else timer = setTimeout(resolve, ms);
      });
    } finally {
      if (timer) clearTimeout(timer);
      this.#lockWaitAbort = null;
      this.waitEvent = null;
    }
    if (this.#closed) throw pgError('57P01', 'the connection was closed');
    this.facts.slept = true;
    try {
      return this.#runLocal(an, params);
    } finally {
      this.facts.slept = false;
    }
  }

  async #waitForLock(an: Analyzed, params: Record<string, unknown> | undefined, first: AdvisoryWait): Promise<Outcome> {
    let wanted = first;
    const locks = this.#local.advisory;
    this.waitEvent = ['Lock', 'advisory'];
    locks.waiting(this.facts.pid, wanted.key, wanted.shared);
    const limit = (name: string) => durationMs(this.facts.settings.get(name) ?? '0') ?? 0;
    const st = limit('statement_timeout');
    const lt = limit('lock_timeout');
    const ms = Math.min(st > 0 ? st : Number.POSITIVE_INFINITY, lt > 0 ? lt : Number.POSITIVE_INFINITY);
    const why =
      lt > 0 && lt <= (st > 0 ? st : Number.POSITIVE_INFINITY)
        ? pgError('55P03', 'canceling statement due to lock timeout')
        : pgError('57014', 'canceling statement due to statement timeout');
    let timer: NodeJS.Timeout | null = null;
    const stop = new Promise<never>((_, reject) => {
      this.#lockWaitAbort = reject;
      if (Number.isFinite(ms)) timer = setTimeout(() => reject(why), ms);
    });
    stop.catch(() => {});
    try {
      for (;;) {
        await Promise.race([this.#local.advisory.released(), stop]);
        if (this.#closed) throw pgError('57P01', 'the connection was closed');
        try {
          return this.#localOnce(an, params);
        } catch (err) {
          if (!(err instanceof AdvisoryWait)) throw err;
          wanted = err;
          locks.waiting(this.facts.pid, wanted.key, wanted.shared);
        }
      }
    } finally {
      if (timer) clearTimeout(timer);
      this.#lockWaitAbort = null;
      this.waitEvent = null;
      locks.waiting(this.facts.pid, null, false);
    }
  }

  /**
   * DISCARD ALL, which connection pools send before they hand a connection to another client
   * (pgbouncer's server_reset_query): as PostgreSQL's, RESET ALL, UNLISTEN *, pg_advisory_unlock_all()
   * its cursors closed and its prepared statements dropped (DEALLOCATE ALL);
   * 25001 in a transaction block (#preventInBlock).
   */
  #discardAll() {
    applySetting(this.facts.settings, { name: 'all', value: null }, this.#resetValues);
    this.#followEncoding();
    this.channels?.unlisten(null);
    this.#local.advisory.releaseSession(this.facts.pid);
    this.#cursors.close(null);
    this.prepared.clear();
  }

  /** What the session waits for now, as pg_stat_activity shows it (Lock/advisory, Timeout/PgSleep); null for nothing. */
  waitEvent: [string, string] | null = null;

  /** Ends a wait for an advisory lock (CancelRequest, the connection's end). */
  #lockWaitAbort: ((err: unknown) => void) | null = null;

  /**
   * How long a read on a worker may run: api.query_timeout, or the session's statement_timeout when
   * that is set and shorter (then interrupted with PostgreSQL's words for it).
   */
  #readTimeout(): { timeoutMs: number; timeoutMessage?: string } {
    const st = durationMs(this.facts.settings.get('statement_timeout') ?? '0') ?? 0;
    if (st > 0 && (this.#timeoutMs <= 0 || st < this.#timeoutMs))
      return { timeoutMs: st, timeoutMessage: 'canceling statement due to statement timeout' };
    return { timeoutMs: this.#timeoutMs };
  }

  async #stream(an: Analyzed, cursor: ReadCursor): Promise<Outcome> {
    this.#cursor = cursor;
    try {
      await cursor.head();
    } catch (err) {
      this.#cursor = null;
      throw err;
    }
    return {
      columns: an.columns,
      all: null,
      rows: {
        next: async () => {
          const r = await cursor.next();
          if (r.done) this.#cursor = null;
          return r.done ? null : (r.value.rows ?? []);
        },
        cancel: () => {
          cursor.cancel('the portal was closed');
          this.#cursor = null;
        },
      },
    };
  }

  /**
   * Whether a write must be refused with 25006: a read-only listener, a transaction begun READ ONLY
   * (or SET TRANSACTION READ ONLY), or outside a transaction block default_transaction_read_only
   * (SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY, what BI tools set for safety).
   */
  #readOnly(): boolean {
    if (this.#readonlyListener) return true;
    // (a transaction's own mode: a block's, or a simple query's or pipeline's SET TRANSACTION READ ONLY)
    const inTransaction = this.#t.state !== 'idle' || this.#pipelined;
    return settingOn(
      this.facts.settings.get(inTransaction ? 'transaction_read_only' : 'default_transaction_read_only'),
    );
  }

  #write(an: Analyzed, params: Record<string, SqlValue> | undefined): Outcome | Promise<Outcome> {
    if (this.#readOnly())
      throw pgError(
        '25006',
        `cannot execute ${an.locks ? 'SELECT FOR UPDATE' : an.command} in a read-only transaction`,
      );
    if (an.upsertKeys) checkUpsertKeys(an.upsertKeys, params);
    const statements = (an.batch ?? [an.sql]).map((sql): Statement => {
      checkWriteStatement(sql, 'statement');
      if (!an.feeds) return { sql, params, clock: this.#clockFor(sql) };
      // a data-modifying WITH query: its statements first, feeding this one (sql/modifying-with.ts)
      for (const f of an.feeds) checkWriteStatement(f.sql, 'statement');
      const clock = this.#clockFor([sql, ...an.feeds.map((f) => f.sql)].join(' '));
      return { sql, params: params ?? {}, clock, feeds: an.feeds };
    });
    const t = this.#t;
    if (t.state === 'open' && !an.batch && t.defers(an)) {
      // a block's write on the transaction it holds answers at once: no promise per statement
      let r: Outcome | Promise<Outcome>;
      try {
        r = t.runDeferred(an, statements[0]);
      } catch (err) {
        throw this.#constraintError(err, an, params);
      }
      if (!(r instanceof Promise)) return r;
      return r.catch((err) => {
        throw this.#constraintError(err, an, params);
      });
    }
    return this.#writeOnLease(an, statements, params);
  }

  async #writeOnLease(
    an: Analyzed,
    statements: Statement[],
    params: Record<string, SqlValue> | undefined,
  ): Promise<Outcome> {
    const t = this.#t;
    let r: StatementResult;
    try {
      if (t.state === 'open') {
        await t.ensureLease();
        for (const s of statements) r = t.lease!.run(s, 'statement');
      } else {
        r = (await this.#engine.transaction(statements)).results[0];
      }
    } catch (err) {
      throw this.#constraintError(err, an, params);
    }
    return { columns: an.columns, all: r!.rows ?? [], rows: null, affected: r!.rowsAffected };
  }

  /**
   * The session's TimeZone when it is not UTC, which timestamptz text is printed and read in; null
   * for UTC (the default, whose text is the stored form: the rows' fast path).
   */
  get outputZone(): string | null {
    const z = this.facts.settings.get('timezone') ?? 'UTC';
    if (z !== this.#zone.setting) this.#zone = { setting: z, zone: isUtcZone(z) ? null : z };
    return this.#zone.zone;
  }

  /** The session's IntervalStyle, bytea_output and DateStyle, which text results and COPY print intervals, bytea and dates in (and dates are read in). */
  get outputStyles(): OutputStyles {
    // read per Bind and per Execute: one comparison while no setting changed
    const settings = this.facts.settings as SettingsMap;
    const kept = this.#styles;
    if (kept !== null && kept.at === settings.changes) return kept.styles;
    const interval = settings.get('intervalstyle');
    const bytea = settings.get('bytea_output');
    const date = settings.get('datestyle');
    // (the zone too: one that is UTC under another name prints its name in DateStyles other than ISO)
    const zone = settings.get('timezone');
    // (and the text search configuration the one-argument to_tsvector and text's @@ read)
    const search = settings.get('default_text_search_config');
    const styles =
      kept !== null &&
      kept.interval === interval &&
      kept.bytea === bytea &&
      kept.date === date &&
      kept.zone === zone &&
      kept.search === search
        ? kept.styles
        : outputStylesOf(settings);
    this.#styles = { at: settings.changes, interval, bytea, date, zone, search, styles };
    return styles;
  }

  /** A write's failure as PostgreSQL reports it (constraint errors named as PostgreSQL names them). */
  #constraintError(err: unknown, an: Analyzed, written: Record<string, SqlValue> | undefined): unknown {
    // (of a data-modifying WITH query's statement: the part that failed, the rows fed to it bound)
    const part = failedPart(err);
    const params = (part?.params as Record<string, SqlValue> | undefined) ?? written;
    return pgConstraintError(err, {
      schema: this.#engine.schema,
      sql: part?.sql ?? an.sql,
      params,
      keyExists: (table, cols, values) => this.#keyExists(table, cols, values),
      zone: this.outputZone,
      readRow: (sql) => {
        const db = this.#t.lease?.db ?? this.#local.db;
        try {
          const st = db.prepare(sql).raw(true);
          return ((params ? st.get(params) : st.get()) as SqlValue[] | undefined) ?? null;
        } catch {
          return null; // (a statement this reading does not fit: no DETAIL)
        }
      },
    });
  }

  /** Whether a row with this key exists, as this session sees the data (its open transaction, or the last commit). */
  #keyExists(table: string, columns: string[], values: SqlValue[]): boolean {
    const sql = `SELECT 1 FROM "${table}" WHERE ${columns.map((c) => `"${c}" = ?`).join(' AND ')}`;
    const db = this.#t.lease?.db ?? this.#local.db;
    return db.prepare(sql).get(...values) !== undefined;
  }

  /** CancelRequest: interrupts a read running on a worker (writes are short and run to the end). */
  cancel(): void {
    this.#cursor?.cancel('canceling statement due to user request');
    this.#cursor = null;
    this.#lockWaitAbort?.(pgError('57014', 'canceling statement due to user request'));
  }

  /** The connection ended: stop its read, roll back its transaction. */
  close(): void {
    this.#closed = true;
    this.cancel();
    this.#local.advisory.releaseAll(this.facts.pid); // a session's advisory locks end with it
    this.#cursors.close(null);
    this.#notifies.length = 0;
    this.#t.close();
  }
}
