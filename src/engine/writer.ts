import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { PatinaError, fromSqliteError } from '../errors';
import type { ColumnInfo } from './read-protocol';
import { type SqlParams, narrowInteger } from './values';
import { secondsSince } from './elapsed';
import { shareLiterals } from './literals';
import { type PinnedClock, withClock } from './micro-clock';
import { Lru } from '../lru';
import { declaredType } from './schema/stored-types';
import { type FedPart, type Feed, failedIn, failedPart, runFeeds } from './fed-rows';

/** One statement with its parameters. */
export interface Statement {
  sql: string;
  params?: SqlParams;
  /** The PG session's now() and statement_timestamp(), pinned while it runs (micro-clock.ts). */
  clock?: PinnedClock;
  /** Statements run first, on the same transaction, each one's rows bound by name for the rest (fed-rows.ts); `params` is then a record. */
  feeds?: readonly Feed[];
}

/** What one statement did: rows changed, time taken, and rows for statements that return them. */
export interface StatementResult {
  rowsAffected: number;
  time: number;
  columns?: ColumnInfo[];
  rows?: unknown[][];
}

/**
 * Hooks of change capture around write transactions (src/crdt implements them). A transaction holds
 * one or more units: a unit is what one client asked for (one HTTP request, one autocommit PG
 * statement, one PG block), and each unit is its own change with its own version, even when a group
 * commit puts several units in one SQLite transaction.
 */
export interface CommitHooks<C> {
  /** Inside the transaction, at the end of a unit: what it changed, or null when nothing did. */
  endUnit(db: Database.Database): C | null;
  /** A unit was rolled back to its savepoint: forget what its triggers gathered. */
  unitRolledBack(): void;
  /** Inside the transaction, right before COMMIT: keep with the data what must survive a crash. */
  beforeCommit(db: Database.Database): void;
  /** After COMMIT: the changes of its units, in order. */
  afterCommit(changes: C[]): void;
  /** After a rollback of the whole transaction, to forget everything its units gathered. */
  afterRollback(): void;
  /** The client rolled back to one of its own savepoints inside the unit: some touched rows may be unchanged now. */
  rolledBackToSavepoint(): void;
  /** Runs `fn` with capture quiet (writes that are rolled back anyway: Writer.tryOut). */
  quietly<T>(fn: () => T): T;
  /**
   * Makes capture quiet until the transaction or savepoint open now is rolled back (the switch is
   * kept in the transaction): for a try-out about to be undone, one statement instead of two.
   */
  quietUntilRollback(): void;
  /**
   * Units that interleave their statements in one transaction (PG blocks sharing a held one): the
   * transaction begins; each unit gets its version when a statement of it first changes rows, in
   * that order (so that the versions committed have no gaps).
   */
  beginShared(): void;
  /** The next statements are `to`'s (its version and seqs stamp their clocks); `from`'s were before. */
  enterUnit(from: SharedUnit | null, to: SharedUnit): void;
  /** After a statement of `unit` that may have changed rows: gives it its version if it did. */
  afterUnitStatement(unit: SharedUnit): void;
  /** Inside the transaction, at its end: the changes of the units sharing it, in version order. */
  endSharedUnits(units: SharedUnit[]): C[];
}

/** A unit of a transaction whose units interleave (CommitHooks.enterUnit): its version once it changed rows, its next seq. */
export interface SharedUnit {
  version: number | null;
  seq: number;
}

/** One write waiting for a group commit: what it runs on the writer, inside its unit. */
export interface GroupMember<C> {
  run(lease: WriterLease<C>): unknown;
  /** Tried out only: rolled back to its savepoint whatever happens, capture quiet. */
  discard: boolean;
  /** A try-out that may run inside a held transaction only while this says so (Writer.hold). */
  inHold?: () => boolean;
  resolve(r: { value: unknown; change: C | null }): void;
  reject(err: unknown): void;
  settled: boolean;
}

/** A unit's outcome: its value and change, or the error that rolled it back. */
export type UnitOutcome<T, C> = { ok: true; value: T; change: C | null } | { ok: false; error: unknown };

/** Most writes one group commit takes; the rest wait for the next. */
const GROUP_LIMIT = 512;

/**
 * How long other writers wait for a block that holds the writer between its statements (hold())
 * before its transaction is rolled back and it goes on without the writer.
 */
export const HOLD_WAIT_MS = 5;

/**
 * The transaction held between their statements by one or more PG blocks (Writer.hold): each block
 * is a member; they commit together, in one unit, once every member asked to commit.
 */
interface Held<C> {
  lease: WriterLease<C>;
  members: HeldMember<C>[];
  timer: NodeJS.Timeout | null;
  /** No other block joins it (closeHeld). */
  closed: boolean;
  /** The member whose unit capture stamps now (CommitHooks.enterUnit). */
  current: HeldMember<C> | null;
}

/** One block of a held transaction (Writer.hold). */
export class HeldMember<C = unknown> {
  /** Asked to commit: waits for the other members (or for a preemption). */
  finished = false;
  /** Settles the member's wait for the shared commit: true committed, false preempted. */
  waiter: { resolve(committed: boolean): void; reject(err: unknown): void } | null = null;
  /** Its own unit of the shared transaction: its own version and changeset. */
  readonly unit: SharedUnit = { version: null, seq: 0 };
  constructor(
    readonly held: Held<C>,
    readonly preempted: () => void,
  ) {}

  /** The shared transaction (its statements run on it). */
  get lease(): WriterLease<C> {
    return this.held.lease;
  }
}

const STMT_CACHE = 256;

/** A record of named parameters (not a Buffer, array or other value). */
function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/**
 * The one writer connection. A lease holds it for one transaction at a time; everything that writes
 * (HTTP, PG sessions, merges, schema changes) takes a lease, so writes are serialized.
 */
export class Writer<C = unknown> {
  readonly db: Database.Database;
  #hooks: CommitHooks<C> | null = null;
  #tail: Promise<void> = Promise.resolve();
  readonly #cache = new Lru<string, Database.Statement>(STMT_CACHE);
  /** Statements that ran as the shared statement of their shape. */
  sharedRuns = 0;
  /** Shapes of literal writes that did not prepare (a literal where SQL wants one, e.g. VARCHAR(10)). */
  readonly #unshaped = new Lru<string, true>(STMT_CACHE);
  #changes: Database.Statement;
  #totalChanges: Database.Statement;
  /** The transaction control statements every write runs, prepared once (exec parses them each time). */
  readonly control: Record<
    'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo',
    Database.Statement
  >;
  #commits = 0;
  #persistCommits: ((n: number) => void) | null = null;
  readonly #commitListeners: (() => void)[] = [];
  /** Writes waiting for the next group commit, and whether one is scheduled. */
  #queue: GroupMember<C>[] = [];
  #groupScheduled = false;
  /** The block holding the writer between its statements, if any (hold()). */
  #held: Held<C> | null = null;
  /** A held transaction being opened (hold() waits for the writer): blocks that come meanwhile join it. */
  #forming: { held: Held<C>; open: Promise<boolean> } | null = null;
  #heldPassScheduled = false;
  /** Leases asked for by others than the group commit and hold(), not yet released. */
  #outsideLeases = 0;

  constructor(db: Database.Database) {
    this.db = db;
    this.#changes = db.prepare('SELECT changes()');
    this.#totalChanges = db.prepare('SELECT total_changes()').pluck();
    this.control = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT patina_unit'),
      release: db.prepare('RELEASE patina_unit'),
      rollbackTo: db.prepare('ROLLBACK TO patina_unit'),
    };
  }

  /**
   * Counts, from `initial`, the committed transactions that changed rows; `persist` writes the new
   * count inside the transaction itself, so the count on disk always names the data beside it.
   */
  countCommits(initial: number, persist: (n: number) => void): void {
    this.#commits = initial;
    this.#persistCommits = persist;
  }

  /**
   * How many transactions that changed rows have committed (persisted): the position of the
   * committed state. Between two JS tasks it always names what a new read transaction sees.
   */
  get commits(): number {
    return this.#commits;
  }

  setHooks(hooks: CommitHooks<C>): void {
    this.#hooks = hooks;
  }

  /** Calls `fn` right after every COMMIT of the writer (before the change is published). */
  onCommit(fn: () => void): void {
    this.#commitListeners.push(fn);
  }

  _notifyCommit(): void {
    for (const fn of this.#commitListeners) fn();
  }

  /** Waits for the writer and holds it until the lease is released. */
  lease(): Promise<WriterLease<C>> {
    this.#outsideLeases++;
    this.#waitForHolder();
    return this.#lease(() => this.#outsideLeases--);
  }

  #lease(onRelease: (() => void) | null): Promise<WriterLease<C>> {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const ready = this.#tail.then(
      () =>
        new WriterLease<C>(this, () => {
          onRelease?.();
          release();
        }),
    );
    this.#tail = this.#tail.then(() => held);
    return ready;
  }

  /**
   * A transaction for a PG block that runs its statements on it directly, held between them, when
   * nothing else waits to write; null when something does. While it is held, other blocks'
   * statements are tried out inside it (Writer.tryOut, rolled back to a savepoint), and everything
   * that commits or takes a lease waits for its end, at most HOLD_WAIT_MS: then the transaction is
   * rolled back and `preempted` is called (its holder goes on without the writer). When `join`,
   * a block may also join the transaction other blocks hold (a member): they commit together
   * (finishHeld), and a preemption ends them all.
   */
  async hold(preempted: () => void, join = false): Promise<HeldMember<C> | null> {
    const now = this.#held;
    if (now) {
      if (!join || !this.#joinable(now)) return null;
      const member = new HeldMember<C>(now, preempted);
      now.members.push(member);
      return member;
    }
    const forming = this.#forming;
    if (forming) {
      // the transaction is being opened: join it, once open
      if (!join) return null;
      const member = new HeldMember<C>(forming.held, preempted);
      forming.held.members.push(member);
      return (await forming.open) ? member : null;
    }
    if (!this.#idle()) return null;
    const held: Held<C> = {
      lease: null as unknown as WriterLease<C>,
      members: [],
      timer: null,
      closed: false,
      current: null,
    };
    const member = new HeldMember<C>(held, preempted);
    held.members.push(member);
    held.current = member; // the unit BEGIN leaves open is the first member's
    const open = this.#openHeld(held);
    this.#forming = { held, open };
    try {
      return (await open) ? member : null;
    } finally {
      if (this.#forming?.held === held) this.#forming = null;
    }
  }

  /** Opens the transaction `held`'s members will share, once the writer is free; false when something else wants it by then. */
  async #openHeld(held: Held<C>): Promise<boolean> {
    const lease = await this.#lease(null);
    this.#forming = null;
    if (!this.#idle() || !this.db.open) {
      lease.release();
      return false;
    }
    try {
      lease.begin();
      this.#hooks?.beginShared();
    } catch (err) {
      lease.release();
      throw err;
    }
    held.lease = lease;
    this.#held = held;
    lease._onRelease(() => this.#unhold(held));
    if (this.#queue.length > 0) this.#scheduleHeldPass();
    return true;
  }

  /** Nothing holds, takes or waits for the writer to commit (try-outs may wait: they run inside a hold). */
  #idle(): boolean {
    return this.#held === null && this.#outsideLeases === 0 && !this.#queue.some((m) => !m.discard);
  }

  /** Another block may join the held transaction: nothing else waits for it, and no member asked to commit yet. */
  #joinable(held: Held<C>): boolean {
    return (
      !held.closed &&
      held.timer === null &&
      this.#outsideLeases === 0 &&
      !held.members.some((m) => m.finished) &&
      !this.#queue.some((m) => !m.discard)
    );
  }

  /** No other block joins the held transaction of `member` from now on. */
  closeHeld(member: HeldMember<C>): void {
    member.held.closed = true;
  }

  /**
   * Runs one statement of `member`'s block on its held transaction, as part of its own unit (a
   * statement that cannot write, `writes` false, stamps no clock: capture's unit is not switched).
   */
  runHeld(member: HeldMember<C>, s: Statement, where: string, writes = true): StatementResult {
    const held = member.held;
    if (!writes) return held.lease.run(s, where);
    if (held.current !== member) {
      this.#hooks?.enterUnit(held.current?.unit ?? null, member.unit);
      held.current = member;
    }
    const r = held.lease.run(s, where);
    if (r.rowsAffected > 0) this.#hooks?.afterUnitStatement(member.unit);
    return r;
  }

  /** How many blocks share the held transaction of `member` now (0: it no longer holds). */
  sharing(member: HeldMember<C>): number {
    return this.#held === member.held ? member.held.members.length : 0;
  }

  /** Rolls back the held transaction of `member` now (every member goes on without the writer). */
  preempt(member: HeldMember<C>): void {
    if (this.#held === member.held) this.#preempt(member.held);
  }

  /**
   * Keeps the held transaction of `member` as an ordinary lease (others wait for it without bound,
   * as for any lease): true when it is the only member; else the transaction is preempted, false.
   */
  keep(member: HeldMember<C>): boolean {
    const held = member.held;
    if (this.#held !== held) return false;
    if (held.members.length > 1) {
      this.#preempt(held);
      return false;
    }
    this.#unhold(held);
    this.#outsideLeases++;
    held.lease._onRelease(() => this.#outsideLeases--);
    return true;
  }

  /**
   * The member's block asked to commit. When every member has, the shared transaction commits now
   * as one unit (true; throws when COMMIT fails); else the member waits for the others: true once
   * they committed, false when the transaction was preempted (the block then commits by replay).
   */
  finishHeld(member: HeldMember<C>): boolean | Promise<boolean> {
    const held = member.held;
    if (this.#held !== held) return false;
    member.finished = true;
    if (!held.members.every((m) => m.finished)) {
      this.#waitForHolder(); // a member that went idle holds the others back HOLD_WAIT_MS at most
      return new Promise((resolve, reject) => (member.waiter = { resolve, reject }));
    }
    this.#unhold(held);
    const waiting = held.members.filter((m) => m !== member);
    try {
      held.lease.commitShared(held.members.map((m) => m.unit));
    } catch (err) {
      for (const m of waiting) m.waiter?.reject(err);
      throw err;
    } finally {
      held.lease.release();
    }
    for (const m of waiting) m.waiter?.resolve(true);
    return true;
  }

  /** The member's block ends without committing (rollback, failure, closed connection): the transaction is rolled back. */
  leaveHeld(member: HeldMember<C>): void {
    const held = member.held;
    if (this.#held !== held) return;
    if (held.members.length === 1) {
      held.lease.release(); // rolls back
      return;
    }
    held.members.splice(held.members.indexOf(member), 1);
    member.waiter?.reject(new PatinaError('unavailable', 'the connection was closed'));
    this.#preempt(held);
  }

  #preempt(held: Held<C>): void {
    if (this.#held !== held) return;
    this.#unhold(held);
    held.lease.rollback();
    for (const m of held.members) {
      m.preempted();
      m.waiter?.resolve(false);
    }
    held.lease.release();
  }

  #unhold(held: Held<C>): void {
    if (this.#held !== held) return;
    this.#held = null;
    if (held.timer) clearTimeout(held.timer);
    // try-outs that came after the last pass go to a group commit now
    if (this.#queue.length > 0 && !this.#groupScheduled) {
      this.#groupScheduled = true;
      setImmediate(() => void this.#commitGroup());
    }
  }

  /** Something waits to commit or to take a lease: the holder has HOLD_WAIT_MS to end. */
  #waitForHolder(): void {
    const held = this.#held;
    if (!held || held.timer) return;
    held.timer = setTimeout(() => this.#preempt(held), HOLD_WAIT_MS);
  }

  #scheduleHeldPass(): void {
    if (this.#heldPassScheduled) return;
    this.#heldPassScheduled = true;
    setImmediate(() => {
      this.#heldPassScheduled = false;
      this.#runHeldTryOuts();
    });
  }

  /** Runs the waiting try-outs inside the held transaction, each rolled back to its savepoint. */
  #runHeldTryOuts(): void {
    const held = this.#held;
    if (!held) return;
    const now = (m: GroupMember<C>) => m.discard && (!m.inHold || m.inHold());
    const tryOuts = this.#queue.filter(now);
    if (tryOuts.length < this.#queue.filter((m) => m.discard).length) this.#waitForHolder(); // some wait for its end
    if (tryOuts.length === 0) return;
    this.#queue = this.#queue.filter((m) => !now(m));
    const left = held.lease.tryOuts(tryOuts, () => this.#held === held);
    if (left.length > 0) {
      // the held transaction was lost (a statement rolled it back): the rest go to a group
      this.#queue.unshift(...left);
      if (this.#held === held) this.#preempt(held);
      return;
    }
    if (!this.db.inTransaction) this.#preempt(held);
  }

  /**
   * Runs statements in one transaction, all or nothing; errors name the failing statement (1-based).
   *
   * Group commit: writes that arrive in the same turn of the event loop (and those that arrive while
   * the writer is held by someone else) run in one SQLite transaction, each in its own savepoint, so
   * that one COMMIT (one WAL append) acknowledges them all. Each is still its own unit: a failing
   * write rolls back only its savepoint, and each gets its own change and version. A write is
   * answered only after the COMMIT that holds it.
   */
  async transaction(statements: Statement[]): Promise<{ results: StatementResult[]; change: C | null }> {
    const { value, change } = await this.group((lease) => statements.map((s, i) => lease.run(s, `statement ${i + 1}`)));
    return { results: value, change };
  }

  /** Runs `run` as one unit of the next group commit (see transaction); answers after its COMMIT. */
  group<T>(run: (lease: WriterLease<C>) => T): Promise<{ value: T; change: C | null }> {
    return this.#enqueue(run, false);
  }

  /**
   * Runs `run` on the writer and undoes it (a savepoint of the next group commit rolled back, capture
   * quiet): what statements would do now, changing nothing. It may see writes of the same group
   * that are not committed yet; whoever relies on the answer checks it again when it commits
   * (protocols/pg/session/deferred-block.ts). While a block holds the writer (hold()), it runs inside
   * that block's transaction when `inHold` says it may (by default), else after it.
   */
  async tryOut<T>(run: (lease: WriterLease<C>) => T, inHold?: () => boolean): Promise<T> {
    return (await this.#enqueue(run, true, inHold)).value;
  }

  #enqueue<T>(
    run: (lease: WriterLease<C>) => T,
    discard: boolean,
    inHold?: () => boolean,
  ): Promise<{ value: T; change: C | null }> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ run, discard, inHold, resolve: resolve as GroupMember<C>['resolve'], reject, settled: false });
      if (this.#held) {
        if (discard) return this.#scheduleHeldPass();
        this.#waitForHolder();
      }
      if (!this.#groupScheduled) {
        this.#groupScheduled = true;
        setImmediate(() => void this.#commitGroup());
      }
    });
  }

  async #commitGroup(): Promise<void> {
    let lease: WriterLease<C>;
    try {
      lease = await this.#lease(null);
    } catch (err) {
      this.#failQueue(err);
      return;
    }
    try {
      const members = this.#queue.splice(0, GROUP_LIMIT);
      if (this.#queue.length > 0) setImmediate(() => void this.#commitGroup());
      else this.#groupScheduled = false;
      if (!this.db.open) {
        for (const m of members) m.reject(new PatinaError('unavailable', 'the database is closed'));
        return;
      }
      try {
        lease.runGroup(members);
      } catch (err) {
        for (const m of members) if (!m.settled) m.reject(err);
      }
    } finally {
      lease.release();
    }
  }

  #failQueue(err: unknown) {
    const q = this.#queue;
    this.#queue = [];
    this.#groupScheduled = false;
    for (const m of q) m.reject(err);
  }

  /**
   * The statement that runs `sql` with `args`. A write with its values in the text and no
   * parameters runs as the statement of its shape with the values bound (see literals.ts), so that
   * distinct texts do not each leave a prepared statement behind; everything else by its text.
   */
  statement(sql: string, args: unknown[]): { st: Database.Statement; args: unknown[] } {
    const exact = this.#cache.get(sql);
    if (exact) return { st: exact, args };
    // (the PG front end's texts: the literals it lifted are $n, bound by name from one record, and
    // those it left in the text, `SET s = 'v' || 5`, are shared here, bound in order beside it)
    const named = args.length === 1 && isRecord(args[0]);
    if (args.length === 0 || named) {
      const shape = shareLiterals(sql, named);
      if (shape) {
        const st = this.#shape(shape.sql);
        if (st) {
          this.sharedRuns++;
          return { st, args: named ? [args[0], ...shape.values] : shape.values };
        }
      }
    }
    return { st: this.prepare(sql), args };
  }

  /** The statement of a shape, or null (remembered) when the shape does not prepare: its text runs instead. */
  #shape(sql: string): Database.Statement | null {
    const st = this.#cache.get(sql);
    if (st) return st;
    if (this.#unshaped.get(sql)) return null;
    try {
      return this.#add(sql, this.db.prepare(sql));
    } catch {
      this.#unshaped.set(sql, true);
      return null;
    }
  }

  /** A prepared statement, cached by its text. */
  prepare(sql: string): Database.Statement {
    const st = this.#cache.get(sql);
    if (st) return st;
    const shape = shareLiterals(sql);
    if (shape) {
      // described by its shape: same columns, and no statement left behind per text
      const shaped = this.#shape(shape.sql);
      if (shaped) return shaped;
    }
    return this.#add(sql, this.db.prepare(sql));
  }

  /**
   * The statement of exactly this text, cached by it (never a shape's: a data-modifying WITH query's
   * statements, fed-rows.ts, bind their parameters by name alone).
   */
  exact(sql: string): Database.Statement {
    return this.#cache.get(sql) ?? this.#add(sql, this.db.prepare(sql));
  }

  #add(sql: string, st: Database.Statement): Database.Statement {
    this.#cache.set(sql, st);
    return st;
  }

  /** How many prepared statements the cache holds (for /metrics). */
  get cachedStatements(): number {
    return this.#cache.size;
  }

  /** Forgets prepared statements; the schema changed. */
  clearCache(): void {
    this.#cache.clear();
    this.#unshaped.clear();
  }

  _hooks(): CommitHooks<C> | null {
    return this.#hooks;
  }

  _changes(): number {
    return Number(this.#changes.pluck().get() as bigint);
  }

  _totalChanges(): number {
    return Number(this.#totalChanges.get() as bigint);
  }

  /** Inside the transaction, before COMMIT: persists the next count if rows changed since `since`. */
  _countCommit(since: number | null): number | null {
    if (!this.#persistCommits || (since !== null && this._totalChanges() === since)) return null;
    const next = this.#commits + 1;
    this.#persistCommits(next);
    return next;
  }

  _committed(n: number | null): void {
    if (n !== null) this.#commits = n;
  }
}

/** A statement's result columns, kept per prepared statement (read-only: shared by its results). */
const COLUMNS = new WeakMap<Database.Statement, ColumnInfo[]>();

function columnsOf(st: Database.Statement): ColumnInfo[] {
  let columns = COLUMNS.get(st);
  if (!columns)
    COLUMNS.set(st, (columns = st.columns().map((c) => ({ name: c.name, declType: declaredType(c.type) }))));
  return columns;
}

/** The writer, held: begin, run statements, commit or roll back, release. */
export class WriterLease<C> {
  readonly #w: Writer<C>;
  readonly #release: () => void;
  #onRelease: (() => void) | null = null;
  #released = false;
  /** total_changes() at BEGIN (null when the transaction was begun some other way). */
  #changesAtBegin: number | null = null;

  constructor(w: Writer<C>, release: () => void) {
    this.#w = w;
    this.#release = release;
  }

  get db(): Database.Database {
    return this.#w.db;
  }

  get inTransaction(): boolean {
    return this.#w.db.inTransaction;
  }

  begin(): void {
    this.#w.control.begin.run();
    this.#changesAtBegin = this.#w._totalChanges();
  }

  /** Runs one statement; SQLite errors come back as PatinaErrors prefixed with `where`. */
  run(s: Statement, where: string): StatementResult {
    return s.clock ? withClock(s.clock, () => this.#run(s, where)) : this.#run(s, where);
  }

  #run(s: Statement, where: string): StatementResult {
    if (s.feeds) return this.#runFed(s, s.feeds, where);
    const t0 = performance.now();
    const p = s.params;
    let st: Database.Statement;
    let args: unknown[] = p === undefined ? [] : Array.isArray(p) ? p : [p];
    try {
      ({ st, args } = this.#w.statement(s.sql, args));
    } catch (err) {
      // better-sqlite3 refuses more than one statement in one text with a RangeError, not a SqliteError
      if (err instanceof RangeError)
        throw new PatinaError('user', `${where}: ${err.message}; give each statement on its own`);
      throw fromSqliteError(err, `${where}: `);
    }
    return this.#exec(st, args, t0, where);
  }

  /**
   * A statement its feeds run before (fed-rows.ts), each by its exact text (its parameters are bound
   * by name alone); a failure carries the part it failed in, with that part's parameters.
   */
  #runFed(s: Statement, feeds: readonly Feed[], where: string): StatementResult {
    const t0 = performance.now();
    let part: FedPart = { sql: s.sql, params: {} };
    try {
      const bound = runFeeds(feeds, (s.params ?? {}) as Record<string, unknown>, (sql) => this.#w.exact(sql));
      part = { sql: s.sql, params: bound };
      return this.#exec(this.#w.exact(s.sql), [bound], t0, where);
    } catch (err) {
      const failed = err instanceof PatinaError ? err : fromSqliteError(err, `${where}: `);
      throw failedIn(failed, failedPart(err) ?? part);
    }
  }

  /** Runs a prepared statement with its arguments: rows for a reader, changes for the rest. */
  #exec(st: Database.Statement, args: unknown[], t0: number, where: string): StatementResult {
    try {
      if (st.reader) {
        const rows = st.raw(true).all(...args) as unknown[][];
        for (const row of rows)
          for (let i = 0; i < row.length; i++) if (typeof row[i] === 'bigint') row[i] = narrowInteger(row[i] as bigint);
        const columns = columnsOf(st);
        const rowsAffected = st.readonly ? 0 : this.#w._changes();
        return { rowsAffected, time: secondsSince(t0), columns, rows };
      }
      const info = st.run(...args);
      return { rowsAffected: info.changes, time: secondsSince(t0) };
    } catch (err) {
      if (err instanceof RangeError || err instanceof TypeError)
        throw new PatinaError('user', `${where}: ${err.message}`);
      throw fromSqliteError(err, `${where}: `);
    }
  }

  /** Commits the transaction as one unit; returns what change capture gathered (null when nothing changed). */
  commit(): C | null {
    const hooks = this.#w._hooks();
    let change: C | null = null;
    try {
      if (hooks) change = hooks.endUnit(this.#w.db);
    } catch (err) {
      this.rollback();
      throw fromSqliteError(err, 'commit: ');
    }
    this.commitUnits(change === null ? [] : [change]);
    return change;
  }

  /** Commits a transaction whose units interleaved (Writer.hold's blocks sharing it), each its own change. */
  commitShared(units: SharedUnit[]): C[] {
    const hooks = this.#w._hooks();
    let changes: C[] = [];
    try {
      if (hooks) changes = hooks.endSharedUnits(units);
    } catch (err) {
      this.rollback();
      throw fromSqliteError(err, 'commit: ');
    }
    this.commitUnits(changes);
    return changes;
  }

  /** Commits a transaction whose units already ended (see unit()); publishes their changes in order. */
  commitUnits(changes: C[]): void {
    const hooks = this.#w._hooks();
    let counted: number | null = null;
    try {
      hooks?.beforeCommit(this.#w.db);
      counted = this.#w._countCommit(this.#changesAtBegin);
      this.#w.control.commit.run();
    } catch (err) {
      this.rollback();
      throw fromSqliteError(err, 'commit: ');
    } finally {
      this.#changesAtBegin = null;
    }
    this.#w._committed(counted);
    this.#w._notifyCommit();
    if (hooks && changes.length > 0) hooks.afterCommit(changes);
  }

  /**
   * Runs `fn` as one unit inside the open transaction: in a savepoint when `savepoint` (a failure then
   * undoes this unit only), its change taken at its end. A failure without a savepoint, or one that
   * made SQLite roll back the whole transaction, leaves no transaction open.
   */
  unit<T>(fn: () => T, savepoint: boolean, discard = false): UnitOutcome<T, C> {
    const db = this.#w.db;
    const hooks = this.#w._hooks();
    const c = this.#w.control;
    if (savepoint) c.savepoint.run();
    try {
      if (discard) {
        // Without a savepoint (a try-out alone in its group), the group's ROLLBACK undoes it, and
        // capture's quiet switch with it.
        hooks?.quietUntilRollback();
        const value = fn();
        if (savepoint) {
          c.rollbackTo.run();
          c.release.run();
        }
        return { ok: true, value, change: null };
      }
      const value = fn();
      const change = hooks ? hooks.endUnit(db) : null;
      if (savepoint) c.release.run();
      return { ok: true, value, change };
    } catch (error) {
      if (savepoint && db.inTransaction) {
        c.rollbackTo.run();
        c.release.run();
        hooks?.unitRolledBack();
      } else this.rollback();
      return { ok: false, error };
    }
  }

  /**
   * Runs try-outs inside the open transaction, each undone at once, capture quiet: one savepoint for
   * all of them, rolled back to after each (ROLLBACK TO keeps it open, and undoes the quiet switch).
   * Settles each member; returns those not run because the transaction was lost (a failing
   * statement made SQLite roll it back) or `still()` said the transaction is no longer theirs.
   */
  tryOuts(members: GroupMember<C>[], still: () => boolean): GroupMember<C>[] {
    const db = this.#w.db;
    const hooks = this.#w._hooks();
    const c = this.#w.control;
    let i = 0;
    c.savepoint.run();
    try {
      for (; i < members.length; i++) {
        if (!still() || !db.inTransaction) break;
        const m = members[i];
        let r: UnitOutcome<unknown, C>;
        try {
          hooks?.quietUntilRollback();
          r = { ok: true, value: m.run(this), change: null };
        } catch (error) {
          r = { ok: false, error };
        }
        if (db.inTransaction) c.rollbackTo.run();
        else this.rollback();
        m.settled = true;
        if (r.ok) m.resolve({ value: r.value, change: null });
        else m.reject(r.error);
      }
    } finally {
      if (db.inTransaction) c.release.run();
    }
    return members.slice(i);
  }

  /** Runs one of the client's own SAVEPOINT, RELEASE or ROLLBACK TO statements (a PG block holding the writer). */
  savepoint(sql: string, rollsBack: boolean): void {
    this.#w.db.exec(sql);
    if (rollsBack) this.#w._hooks()?.rolledBackToSavepoint();
  }

  /**
   * One group commit: each member's statements as one unit, then one COMMIT, then each member is
   * answered. When a member's failure rolled back the whole transaction (INSERT OR ROLLBACK), the
   * members before it are run again in a new one: none of them was answered yet.
   */
  runGroup(members: GroupMember<C>[]): void {
    const db = this.#w.db;
    for (;;) {
      const live = members.filter((m) => !m.settled);
      if (live.length === 0) return;
      this.begin();
      const done: { m: GroupMember<C>; value: unknown; change: C | null }[] = [];
      let lost = false;
      for (const m of live) {
        const r = this.unit(() => m.run(this), live.length > 1, m.discard);
        if (r.ok) {
          done.push({ m, value: r.value, change: r.change });
          continue;
        }
        m.settled = true;
        m.reject(r.error);
        if (!db.inTransaction) {
          lost = live.length > 1 || m.discard;
          break;
        }
      }
      if (lost) {
        this.#w._hooks()?.afterRollback();
        continue;
      }
      if (!db.inTransaction) return; // the one member failed and rolled back
      if (done.every((d) => d.m.discard)) {
        // Only try-outs: nothing to keep. A COMMIT would write the pages they touched and undid to the
        // WAL again, and count a commit that changed nothing.
        this.rollback();
        for (const d of done) d.m.resolve({ value: d.value, change: null });
        return;
      }
      try {
        this.commitUnits(done.flatMap((d) => (d.change === null ? [] : [d.change])));
      } catch (err) {
        for (const d of done) d.m.reject(err);
        return;
      }
      for (const d of done) d.m.resolve({ value: d.value, change: d.change });
      return;
    }
  }

  rollback(): void {
    if (this.#w.db.inTransaction) this.#w.control.rollback.run();
    this.#changesAtBegin = null;
    this.#w._hooks()?.afterRollback();
  }

  /** Gives the writer back; rolls back a transaction left open (a client that went away). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    if (this.#w.db.inTransaction) this.rollback();
    this.#onRelease?.();
    this.#release();
  }

  _onRelease(fn: () => void): void {
    this.#onRelease = fn;
  }
}
