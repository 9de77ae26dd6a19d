import { performance } from 'node:perf_hooks';
import type { Changeset, RowChange } from '../bus/changeset';
import type { DataReader } from './data-reader';
import { Abandoned, Slicer } from './slicer';
import { SharedEvaluator } from './shared-evaluation';
import type { SnapshotResult, SnapshotRunner } from './snapshot-runner';
import type { SubscriptionStore } from './store';
import type { Outcome, Subscription } from './subscription';
import { type ChangedKeys, WakeIndex } from './wake-index';
import { errorFields, log } from '../observability/log';

/**
 * Changed keys that subscriptions nobody listens to may keep, each and in all, before those over the
 * limit keep none and are re-run in full when a listener attaches (see #defer).
 */
const LATER_SUB_KEYS = 1_000;
const LATER_KEYS = 50_000;

/** How long a batch may wait for changesets that keep coming, and up to how many changed rows (see #gather). */
const GATHER_MS = 20;
const GATHER_ROWS = 10_000;

/** A piece of work of the matcher's one queue. */
type Task = () => Promise<void>;

/** A subscription's outcome in a piece of work, with the position it reflects when not the read's. */
type Evaluated = [Subscription, Outcome, number?];

/**
 * Takes changesets from the feed at commit (only queueing them: nothing is evaluated on the commit
 * path) and brings the subscriptions they concern up to date, in commit order. Everything the live
 * queries do to the store (a batch of queued changesets, a new subscription's first result, a
 * re-run's diff, start-up re-runs) goes through one queue of work, done one piece at a time, each
 * piece in one read transaction on the DataReader (a WAL snapshot: it keeps its state while the
 * writer goes on) and one store transaction. Each piece is sliced (see slicer.ts): it pauses every
 * few milliseconds so that the agent's thread keeps serving HTTP, PostgreSQL, the writer and
 * signals, however large the changeset or the result. Changesets queued meanwhile make the next batch.
 *
 * Restricted subscriptions are evaluated right there (the cost follows the changed rows). Keyed and
 * multiset ones, which re-run in full, go to the SnapshotRunner's thread: they may lag, but each run
 * reads one committed state and only a state newer than the stored one is applied, so they stay
 * exact and ordered.
 */
export class Matcher {
  readonly index = new WakeIndex();
  readonly #store: SubscriptionStore;
  readonly #reader: DataReader;
  readonly #runner: SnapshotRunner | null;
  readonly #drop: (sub: Subscription, message: string) => void;
  /** Told of each subscription whose change log grew, once the store committed. */
  readonly #logged: (sub: Subscription) => void;
  readonly #slicer: Slicer;
  readonly #shared: SharedEvaluator;
  readonly #subs = new Set<Subscription>();
  #queue: Changeset[] = [];
  /** Changed rows queued, and in the batch under way. */
  #queuedRows = 0;
  #batchRows = 0;
  readonly #tasks: Task[] = [];
  #pumping: Promise<void> | null = null;
  /** When the oldest changeset not yet matched was queued (ms since epoch), the batch under way included. */
  #queuedSince = 0;
  #batchSince = 0;
  #scheduled = false;
  /** Tables of subscriptions being made: their changes must queue before the subscription joins the index. */
  readonly #pendingTables = new Map<string, number>();
  /** Store deletions asked for while a piece of work held the store transaction. */
  #deferred: (() => void)[] = [];
  #inWork = false;
  /** Full re-runs to do, and those under way on the runner. */
  readonly #dirty = new Set<Subscription>();
  #running: Subscription[] = [];
  /** Subscription evaluations done by shared statements (see SharedEvaluator), since start. */
  #together = 0;
  /** The position of the last batch. */
  #flushedAt = 0;
  #closed = false;
  #idle: (() => void)[] = [];
  /** Whether the changes of subscriptions without listeners may wait (not with an in-memory store). */
  readonly #mayWait: boolean;
  /** Changed keys of restricted subscriptions without listeners, not matched yet (see #defer). */
  #later = new Map<Subscription, ChangedKeys>();
  #laterKeys = 0;
  /** Subscriptions without listeners that kept too many changed keys: re-run in full when one attaches. */
  readonly #stale = new Set<Subscription>();
  /** Subscriptions marked stale in the store (those of #later and #stale, and those being caught up). */
  readonly #marked = new Set<Subscription>();
  /** Subscriptions of #later that got a listener: their keys go with the next batch. */
  readonly #due = new Set<Subscription>();
  /** Full re-runs queued or under way on this thread (reconcile), counted per subscription. */
  readonly #rerunning = new Map<Subscription, number>();
  /** The subscriptions of the piece of work under way, until their outcomes are adopted. */
  readonly #evaluating = new Set<Subscription>();

  constructor(
    store: SubscriptionStore,
    reader: DataReader,
    runner: SnapshotRunner | null,
    drop: (sub: Subscription, message: string) => void,
    sliceMs: number,
    logged: (sub: Subscription) => void = () => undefined,
  ) {
    this.#logged = logged;
    this.#store = store;
    this.#reader = reader;
    this.#runner = runner;
    this.#drop = drop;
    this.#slicer = new Slicer(sliceMs);
    this.#shared = new SharedEvaluator(store, (sub, table) => this.index.holdsOn(sub, table));
    this.#mayWait = store.file !== ':memory:';
  }

  /**
   * Follows a subscription whose stored result reflects `sub.position`. `load` false leaves its
   * stored rows out of the wake index: the caller feeds them with loadRows before any write.
   */
  add(sub: Subscription, load = true): void {
    this.#subs.add(sub);
    this.index.add(sub, () => (load ? this.#store.allRows(sub.id).map((r) => r.key) : []));
    if (this.index.tracksRows(sub))
      sub.onRow = (key, delta) => (delta > 0 ? this.index.rowAdded(sub, key) : this.index.rowRemoved(sub, key));
  }

  /**
   * Feeds the stored rows of subscriptions added with `load` false to the wake index, a page at a
   * time, pausing every few milliseconds (start-up: the rows of every pinned subscription, which
   * may be many, without holding the thread; signals are still heard).
   */
  async loadRows(subs: Iterable<Subscription>): Promise<void> {
    for (const sub of subs) {
      if (!this.index.tracksRows(sub)) continue;
      for (let after = 0; ; ) {
        const page = this.#store.rowsPage(sub.id, after, 1024);
        if (page.length === 0) break;
        for (const r of page) this.index.rowAdded(sub, r.key);
        after = page[page.length - 1].rowId;
        await this.#slicer.pause();
      }
      await this.#slicer.pause();
    }
  }

  /** Stops following a subscription; `then` (its store deletion) runs once no piece of work holds the store. */
  remove(sub: Subscription, then: () => void): void {
    this.#subs.delete(sub);
    this.#dirty.delete(sub);
    if (this.#later.has(sub)) this.#takeLater(sub, undefined);
    this.#stale.delete(sub);
    this.#marked.delete(sub);
    this.#due.delete(sub);
    this.index.remove(sub);
    sub.onRow = null;
    if (this.#inWork) this.#deferred.push(then);
    else then();
  }

  /** Whether a subscription reads the table, or one being made will: what `enqueue` keeps. */
  reads(table: string): boolean {
    const t = table.toLowerCase();
    return this.index.reads(t) || this.#pendingTables.has(t);
  }

  /** The feed observer: queues the changeset if a subscription reads one of its tables. */
  enqueue(cs: Changeset): void {
    if (this.#closed) return;
    for (const c of cs.changes) {
      if (!this.reads(c.table)) continue;
      if (this.#queue.length === 0) this.#queuedSince = Date.now();
      this.#queue.push(cs);
      this.#queuedRows += cs.changes.length;
      this.#kick();
      return;
    }
  }

  /** Changesets queued and not handled yet. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Changed rows waiting to be matched, the batch under way included. */
  get backlog(): number {
    return this.#queuedRows + this.#batchRows;
  }

  /** Evaluations of subscriptions done together with others of the same SQL, since start. */
  get evaluatedTogether(): number {
    return this.#together;
  }

  /** How long the oldest changeset not yet matched has waited, seconds (0 when none waits). */
  get lagSeconds(): number {
    const since = this.#batchRows > 0 ? this.#batchSince : this.#queue.length > 0 ? this.#queuedSince : 0;
    return since === 0 ? 0 : (Date.now() - since) / 1000;
  }

  /**
   * Makes a subscription: `make` runs in the queue, inside a read transaction (its position given)
   * and a store transaction, and stores its first result; the subscription joins once that commits.
   */
  create(
    tables: Iterable<string>,
    make: (position: number, slicer: Slicer) => Promise<{ sub: Subscription; outcome: Outcome }>,
  ): Promise<Subscription> {
    if (this.#closed) return Promise.reject(new Error('the matcher is closed'));
    const names = [...tables];
    return new Promise<Subscription>((resolve, reject) => {
      this.#tasks.push(async () => {
        for (const t of names) this.#pendingTables.set(t, (this.#pendingTables.get(t) ?? 0) + 1);
        try {
          const { result } = await this.#work(async (position) => {
            const m = await make(position, this.#slicer);
            return { result: m.sub, outcomes: [[m.sub, m.outcome]] };
          });
          this.add(result);
          resolve(result);
        } catch (err) {
          reject(err);
          if (err instanceof Abandoned) throw err;
        } finally {
          for (const t of names) {
            const n = (this.#pendingTables.get(t) ?? 1) - 1;
            if (n > 0) this.#pendingTables.set(t, n);
            else this.#pendingTables.delete(t);
          }
        }
      });
      this.#kick();
    });
  }

  /**
   * Re-runs subscriptions in full and diffs them against their stored results (start-up, when the
   * store may have missed commits); records that the store matches the data when done.
   */
  reconcile(subs: Subscription[]): void {
    // behind until the re-run's outcome is adopted (isBehind), from now on: the task may wait its turn
    for (const sub of subs) this.#rerunning.set(sub, (this.#rerunning.get(sub) ?? 0) + 1);
    this.#tasks.push(async () => {
      try {
        await this.#evaluate(
          subs,
          (sub) => sub.reconcile(this.#reader.db, Date.now(), this.#slicer),
          (position) => {
            // (those whose changes wait are marked stale in the store: the mark says they may be behind)
            if (this.#dirty.size === 0 && this.#running.length === 0 && this.#queue.length === 0)
              this.#store.setMatched(position);
          },
        );
      } finally {
        for (const sub of subs) {
          const n = (this.#rerunning.get(sub) ?? 1) - 1;
          if (n > 0) this.#rerunning.set(sub, n);
          else this.#rerunning.delete(sub);
        }
      }
    });
    this.#kick();
  }

  /**
   * Stops: lets queued work and pending full re-runs finish for up to `budgetMs`, then abandons
   * what is under way (its store transaction rolls back; the start-up after re-runs what it
   * missed). Records that the store matches the data when everything was caught up.
   */
  async close(budgetMs: number): Promise<void> {
    if (this.#closed) return;
    const timer = setTimeout(() => this.#slicer.abandon(), budgetMs);
    try {
      await this.#untilIdle();
      // What waits keeps its stale mark: it is re-run when a listener attaches after the restart.
      for (const sub of [...this.#later.keys()]) this.#toStale(sub);
      const heavy = [...new Set([...this.#dirty, ...this.#running])].filter((s) => this.#subs.has(s));
      this.#dirty.clear();
      this.#running = [];
      this.#runner?.close();
      if (heavy.length > 0 && !this.#slicer.abandoned) {
        this.reconcile(heavy);
        await this.#untilIdle();
      }
      if (!this.#slicer.abandoned && this.#queue.length === 0 && this.#tasks.length === 0) {
        // Nothing queued: every commit that concerns a subscription was matched.
        const position = this.#reader.begin();
        try {
          this.#store.setMatched(position);
        } finally {
          this.#reader.end();
        }
      }
    } finally {
      clearTimeout(timer);
      this.#closed = true;
      this.#slicer.abandon();
      this.#runner?.close();
      await this.#pumping;
    }
  }

  #untilIdle(): Promise<void> {
    if (!this.#pumping && !this.#scheduled) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #kick() {
    if (this.#scheduled || this.#pumping || this.#closed) return;
    this.#scheduled = true;
    // After the committing task: the commit's own response goes first.
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#pumping || this.#closed) return;
      // Cleared in a callback, which runs after this assignment even when #pump had nothing to do
      // and returned without waiting (cleared inside it, the finished promise was assigned after).
      this.#pumping = this.#pump().finally(() => {
        this.#pumping = null;
        this.#startRuns();
        for (const w of this.#idle.splice(0)) w();
      });
    });
  }

  async #pump(): Promise<void> {
    this.#slicer.restart();
    try {
      while (!this.#slicer.abandoned) {
        const task = this.#tasks.shift();
        if (task) await task();
        else if (this.#queue.length > 0 || this.#due.size > 0) {
          await this.#gather();
          await this.#flush();
        } else break;
        await this.#slicer.pause();
      }
    } catch (err) {
      if (!(err instanceof Abandoned)) log.error(errorFields(err), 'subscription matching stopped');
    }
  }

  /**
   * One piece of work: a read transaction (its position given to `fn`) and a store transaction
   * around `fn`; after the commit, each outcome's head and position are adopted and its records
   * delivered. An outcome's position is the state it reflects (the read position unless it says).
   */
  async #work<T>(
    fn: (position: number) => Promise<{ result: T; outcomes: Evaluated[] }>,
  ): Promise<{ result: T; position: number }> {
    const position = this.#reader.begin();
    this.#inWork = true;
    let done: { result: T; outcomes: Evaluated[] };
    try {
      this.#store.begin();
      try {
        done = await fn(position);
        this.#store.commit();
      } catch (err) {
        this.#store.rollback();
        throw err;
      }
    } finally {
      this.#reader.end();
      this.#inWork = false;
      for (const d of this.#deferred.splice(0)) d();
    }
    for (const [sub, o, at] of done.outcomes) {
      sub.adopt(o);
      sub.position = Math.max(sub.position, at ?? position);
      if (o.records.length > 0) this.#logged(sub);
    }
    // Delivered sub by sub, pausing between them: a listener that attached meanwhile already has
    // these changes in its snapshot, and its client stream skips them (see ClientStream.push).
    for (const [sub, o] of done.outcomes) {
      if (o.records.length === 0) continue;
      sub.deliver(o.records);
      if (this.#slicer.due) await new Promise<void>((r) => setImmediate(r));
    }
    return { result: done.result, position };
  }

  /**
   * Evaluates subscriptions in one piece of work; one that fails is dropped. `fn` returns null to
   * leave a subscription as it is. `onDone` runs last inside the store transaction.
   */
  async #evaluate(
    subs: Iterable<Subscription>,
    fn: (sub: Subscription, position: number) => Promise<Outcome | [Outcome, number] | null>,
    onDone: (position: number) => void,
  ): Promise<void> {
    const failed: [Subscription, unknown][] = [];
    const list = [...subs];
    // (pieces of work run one at a time: the set is this piece's)
    for (const sub of list) this.#evaluating.add(sub);
    try {
      await this.#work(async (position) => {
        const outcomes: Evaluated[] = [];
        for (const sub of list) {
          await this.#slicer.pause();
          if (!this.#subs.has(sub)) continue;
          try {
            // No savepoint: a subscription that fails is dropped whole.
            const o = await fn(sub, position);
            if (o && this.#subs.has(sub)) outcomes.push(Array.isArray(o) ? [sub, o[0], o[1]] : [sub, o]);
          } catch (err) {
            if (err instanceof Abandoned) throw err;
            failed.push([sub, err]);
          }
        }
        // Caught up: a stale mark goes (one whose later changes wait again keeps it).
        for (const [sub] of outcomes)
          if (this.#marked.has(sub) && !this.#later.has(sub) && !this.#stale.has(sub)) {
            this.#store.setStale(sub.id, false);
            this.#marked.delete(sub);
          }
        onDone(position);
        return { result: null, outcomes };
      });
    } catch (err) {
      if (err instanceof Abandoned) throw err;
      // The log could not be written: these subscriptions no longer follow the data.
      for (const sub of list) failed.push([sub, err]);
    } finally {
      this.#evaluating.clear();
    }
    for (const [sub, err] of failed)
      this.#drop(sub, `the subscription failed and was removed: ${(err as Error)?.message ?? err}`);
  }

  /**
   * Under sustained writes, lets the changesets that keep coming join the batch before it starts: a
   * batch's fixed cost, above all its store commit (a page of rows and one of change log per woken
   * subscription, whatever the batch's size), is then shared by many writes. Waits one turn of the
   * event loop; only if a changeset came meanwhile (writes are arriving back to back) does it go on
   * waiting, a millisecond at a time while more keep coming, for no longer than the previous batch
   * took to match (at most GATHER_MS). A lone write's batch starts at the next turn; on an agent
   * whose batches match in a millisecond, writes at 1,000/s wait about that, not 20 ms.
   */
  async #gather(): Promise<void> {
    const t0 = performance.now();
    let n = this.#queue.length;
    await new Promise<void>((r) => setImmediate(r));
    // no longer than the last batch took to match: a quiet agent delivers at once, a busy one gathers
    const limit = Math.min(GATHER_MS, this.#lastFlushMs);
    while (
      this.#queue.length > n &&
      this.#queuedRows < GATHER_ROWS &&
      performance.now() - t0 < limit &&
      this.#tasks.length === 0 &&
      !this.#slicer.abandoned
    ) {
      n = this.#queue.length;
      await new Promise<void>((r) => setTimeout(r, 1));
    }
  }

  /** Handles every queued changeset as one batch. */
  async #flush(): Promise<void> {
    const started = performance.now();
    try {
      await this.#flushBatch();
    } finally {
      this.#lastFlushMs = performance.now() - started;
    }
  }

  /** How long the last batch took to match (ms): the longest a next batch gathers. */
  #lastFlushMs = 0;

  async #flushBatch(): Promise<void> {
    const batch = this.#queue;
    this.#inFlight = batch;
    this.#queue = [];
    this.#batchRows = this.#queuedRows;
    this.#batchSince = this.#queuedSince;
    this.#queuedRows = 0;
    try {
      const woken = this.#now(this.index.wake(batch.length === 1 ? batch[0].changes : changesOf(batch)));
      if (this.#toMark.length > 0) {
        // before any later batch can record that the store matches the data
        const marks = this.#toMark.splice(0);
        this.#store.transaction(() => {
          for (const sub of marks) this.#store.setStale(sub.id, true);
        });
      }
      if (woken.size === 0) return; // nothing to match now (nothing woken, or what waits)
      // Same-SQL restricted subscriptions are evaluated together, at the first one's turn.
      const groups = SharedEvaluator.groups(woken.keys());
      const done = new Map<Subscription, Outcome | Error>();
      await this.#evaluate(
        woken.keys(),
        async (sub, position) => {
          if (sub.position >= position) return null; // made after these commits
          if (sub.plan.mode !== 'restricted' && this.#runner) {
            this.#dirty.add(sub);
            return null;
          }
          const group = groups.get(sub);
          if (group) {
            for (const s of group) groups.delete(s);
            const members = group.filter((s) => this.#subs.has(s) && s.position < position);
            try {
              if (members.length > 1) {
                for (const [s, o] of await this.#shared.evaluate(
                  this.#reader.db,
                  members,
                  woken,
                  Date.now(),
                  this.#slicer,
                ))
                  done.set(s, o);
                this.#together += members.length;
              }
            } catch (err) {
              if (err instanceof Abandoned) throw err;
              // A read failed (one subscription's parameters, say): nothing was stored; one by one instead.
            }
          }
          const o = done.get(sub);
          if (o instanceof Error) throw o;
          if (o) return o;
          return sub.apply(this.#reader.db, woken.get(sub)!, Date.now(), this.#slicer);
        },
        (position) => {
          this.#flushedAt = position;
          if (this.#dirty.size === 0 && this.#running.length === 0) this.#store.setMatched(position);
        },
      );
    } finally {
      this.#batchRows = 0;
      this.#inFlight = [];
    }
  }

  /** The changesets of the batch being matched (none between batches). */
  #inFlight: Changeset[] = [];

  /**
   * Whether a subscription's stored result may not reflect every commit through `seq` (the feed's
   * order), which the writer counted as commit `at`, yet. Behind: its own changes wait (nobody
   * listened: kept keys, or a full re-run to do, queued or under way), whatever its position (a batch
   * may have matched some of its keys since). Otherwise caught up once its stored result reflects a
   * state at or after `at`; before that, behind while a changeset through `seq` is queued or being
   * matched, or it is being re-run or evaluated (until the outcome is stored and adopted: a listener
   * reads the committed store).
   */
  isBehind(sub: Subscription, seq: number, at: number): boolean {
    if (this.#stale.has(sub) || this.#later.has(sub) || this.#due.has(sub) || this.#rerunning.has(sub)) return true;
    if (sub.position >= at) return false;
    if (this.#dirty.has(sub) || this.#running.includes(sub) || this.#evaluating.has(sub)) return true;
    return (this.#queue.length > 0 && this.#queue[0].seq <= seq) || (this.#inFlight[0]?.seq ?? Infinity) <= seq;
  }

  /**
   * Of the subscriptions a batch woke, those to match now. A restricted subscription that nobody
   * listens to is not kept up write by write: it keeps the changed keys (see #defer) and is marked
   * stale in the store, and is brought up to date when a listener attaches (matchWaiting), from its
   * keys, or by a full re-run if it kept too many. A write that concerns only such subscriptions
   * costs its wake-index lookup. One matched now (it has a listener) takes its waiting keys along.
   * A change is matched against the state of its batch's read, whichever batch that is, and diffed
   * against the stored result, so it is the same change later, or part of a larger one.
   */
  #now(woken: Map<Subscription, ChangedKeys>): Map<Subscription, ChangedKeys> {
    const now = new Map<Subscription, ChangedKeys>();
    for (const [sub, keys] of woken) {
      if (this.#mayWait && sub.clients.size === 0 && sub.awaited === 0) {
        if (sub.plan.mode === 'restricted') this.#defer(sub, keys);
        else {
          // a full re-run when a listener attaches, not one per batch meanwhile
          this.#mark(sub);
          this.#stale.add(sub);
        }
      } else now.set(sub, this.#later.has(sub) ? this.#takeLater(sub, keys) : keys);
    }
    for (const sub of this.#due) {
      if (this.#later.has(sub)) now.set(sub, this.#takeLater(sub, now.get(sub)));
    }
    this.#due.clear();
    return now;
  }

  /** Subscriptions first marked stale by the batch under way: the mark is stored before it goes on. */
  readonly #toMark: Subscription[] = [];

  /**
   * Keeps a subscription's changed keys for when a listener attaches; past LATER_SUB_KEYS of its own
   * or LATER_KEYS in all, it keeps none and is re-run in full then (#toStale).
   */
  #defer(sub: Subscription, keys: ChangedKeys) {
    this.#mark(sub);
    if (this.#stale.has(sub)) return;
    const mine = this.#later.get(sub);
    let kept: number;
    if (mine) kept = addKeys(mine, keys);
    else if (this.index.shares(keys)) kept = addKeys(this.#later.set(sub, new Map()).get(sub)!, keys);
    else {
      // its own maps (woken by value or by the rows it holds): kept as they are
      this.#later.set(sub, keys);
      kept = 0;
      for (const k of keys.values()) kept += k.size;
    }
    this.#laterKeys += kept;
    let own = 0;
    for (const k of this.#later.get(sub)!.values()) own += k.size;
    if (own > LATER_SUB_KEYS) this.#toStale(sub);
    if (this.#laterKeys > LATER_KEYS) for (const s of [...this.#later.keys()]) this.#toStale(s);
  }

  /** Marks a subscription stale in the store (with the batch under way) unless it is already. */
  #mark(sub: Subscription) {
    if (this.#marked.has(sub)) return;
    this.#marked.add(sub);
    this.#toMark.push(sub);
  }

  /** A waiting subscription keeps no keys: it is re-run in full when a listener attaches. */
  #toStale(sub: Subscription) {
    if (this.#later.has(sub)) this.#takeLater(sub, undefined);
    this.#due.delete(sub);
    this.#stale.add(sub);
  }

  /** A subscription's waiting keys, with `more` added; it waits no longer. */
  #takeLater(sub: Subscription, more: ChangedKeys | undefined): ChangedKeys {
    const mine = this.#later.get(sub)!;
    this.#later.delete(sub);
    for (const keys of mine.values()) this.#laterKeys -= keys.size;
    if (more) addKeys(mine, more);
    return mine;
  }

  /** Subscriptions nobody listens to that are behind the data, waiting for a listener (see #now). */
  get behind(): number {
    return this.#later.size + this.#stale.size;
  }

  /**
   * A listener attached: a subscription that is behind is brought up to date at the next turn of the
   * queue, from its waiting keys with the next batch, or re-run in full and diffed if it kept none.
   */
  matchWaiting(sub: Subscription): void {
    if (this.#closed) return;
    if (this.#stale.delete(sub)) {
      if (sub.plan.mode === 'restricted' || !this.#runner) this.reconcile([sub]);
      else {
        // keyed and multiset ones re-run on the runner's thread, as for a write
        this.#dirty.add(sub);
        this.#kick();
      }
    } else if (this.#later.has(sub)) {
      this.#due.add(sub);
      this.#kick();
    }
  }

  /**
   * A subscription whose store mark says it may be behind (start-up): with `lazy` it is re-run when a
   * listener attaches, else the caller re-runs it now; either way the mark goes once it is caught up.
   */
  markedStale(sub: Subscription, lazy: boolean): void {
    this.#marked.add(sub);
    if (!lazy) return;
    this.#stale.add(sub);
    // its stored result reflects no known position: a re-run of any state is newer
    sub.position = -1;
  }

  /** Sends the subscriptions that need a full re-run to the runner, if it is free. */
  #startRuns() {
    const runner = this.#runner;
    if (!runner || runner.busy || this.#dirty.size === 0 || this.#closed || this.#slicer.abandoned) return;
    const subs = [...this.#dirty];
    this.#dirty.clear();
    this.#running = subs;
    const here = (err: unknown) => {
      if (this.#closed) return;
      // The thread or its read transaction failed: re-run these here instead.
      log.warn(errorFields(err), "subscription re-runs fell back to the agent's thread");
      this.#running = [];
      this.reconcile(subs);
    };
    runner.run(subs.map((s) => ({ key: s.id, sql: s.plan.fullSql, params: s.plan.params }))).then((r) => {
      if (r.error !== undefined) return here(new Error(r.error));
      if (this.#closed) return;
      this.#tasks.push(() => this.#applyRun(subs, r));
      this.#kick();
    }, here);
  }

  async #applyRun(subs: Subscription[], r: SnapshotResult): Promise<void> {
    this.#running = [];
    const byId = new Map(r.results.map((res) => [res.key, res]));
    await this.#evaluate(
      subs,
      async (sub) => {
        const res = byId.get(sub.id);
        if (!res) return null;
        if (res.rows === undefined) throw new Error(res.error ?? 'the query failed');
        if (sub.position >= r.position) return null; // already newer (made or re-run since)
        return [await sub.diffAll(res.rows, Date.now(), this.#slicer), r.position];
      },
      () => {
        if (this.#dirty.size === 0 && this.#queue.length === 0)
          this.#store.setMatched(Math.max(r.position, this.#flushedAt));
      },
    );
  }
}

/** Adds `from`'s keys to `into` (never sharing its maps: the wake index shares them); returns how many were new. */
function addKeys(into: ChangedKeys, from: ChangedKeys): number {
  let added = 0;
  for (const [table, keys] of from) {
    let mine = into.get(table);
    if (!mine) into.set(table, (mine = new Map()));
    for (const [k, pk] of keys) {
      if (mine.has(k)) continue;
      mine.set(k, pk);
      added++;
    }
  }
  return added;
}

/** The changes of a batch, in commit order. */
function changesOf(batch: Changeset[]): RowChange[] {
  const out: RowChange[] = [];
  for (const cs of batch) for (const c of cs.changes) out.push(c);
  return out;
}
