import crypto from 'node:crypto';
import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Changeset } from '../bus/changeset';
import { PatinaError } from '../errors';
import { checkReadReach } from '../engine/classify';
import type { Schema } from '../engine/schema/model';
import type { SqlParams, SqlValue } from '../engine/values';
import { ClientStream } from './client-stream';
import { errorFields, log } from '../observability/log';
import { changeLine, columnsLine, eoqLine, errorLine, rowLine } from './events';
import { type PositionedWriter, DataReader } from './data-reader';
import { Matcher } from './matcher';
import { planQuery } from './query-plan';
import { SnapshotRunner } from './snapshot-runner';
import { SubscriptionStore } from './store';
import { Subscription } from './subscription';

export interface LiveOptions {
  /** Changes kept per subscription at the least. */
  retainChanges: number;
  /** Seconds a change is kept at the least. */
  retainSeconds: number;
  /** Seconds a subscription nobody listens to lives on. */
  idleSeconds: number;
  /** Events queued per client before it is cut off as too slow. */
  clientBuffer: number;
  /** Bytes of change lines queued per client before it is cut off as too slow. */
  clientBufferBytes: number;
  /** Changed rows waiting to be matched past which writes are held back (see admitWrite). */
  maxBacklogRows: number;
  /** Seconds a held write waits for the backlog to shrink before it is refused. */
  admitWaitSeconds: number;
}

/** The retry advice of a refused write. */
const RETRY_AFTER_SECONDS = 1;

/** Milliseconds of subscription work between two turns of the event loop (see slicer.ts). */
const SLICE_MS = 10;

/** What subscriptions need from the engine: the schema, the data file, and the writer's commit position. */
export interface LiveEngine {
  readonly schema: Schema;
  readonly path: string;
  readonly writer: PositionedWriter;
}

/** A listener's stream of NDJSON lines; close() ends it (the client went away). */
export interface Listener {
  lines: AsyncGenerator<string>;
  close(): void;
  /** Registers what to do once the stream is cut off with an error (a client too slow, the agent stopping). */
  onCut?(fn: () => void): void;
}

const PAGE = 512;
/**
 * How long rows asked for wait for the stored result to catch up with the commits before them, at
 * most; then the request ends with an error line (retry), never with rows that may lack them.
 */
const CATCH_UP_MS = 5000;

/**
 * The live queries of this agent. Changesets from the feed are only queued at commit; the Matcher
 * diffs the subscriptions they concern afterwards, in commit order and in batches, on a read
 * connection of its own (see matcher.ts), logs the changes in the store and only then hands them
 * to the listeners.
 */
/** Where subscriptions are kept: beside the database, never in the replicated data file. */
export function subscriptionStoreFile(dbPath: string): string {
  return dbPath === ':memory:' ? ':memory:' : `${dbPath}.subscriptions`;
}

export class Subscriptions {
  readonly #engine: LiveEngine;
  readonly #store: SubscriptionStore;
  readonly #opts: LiveOptions;
  readonly #reader: DataReader;
  /** A connection of its own for checking new subscriptions while the matcher holds the reader. */
  readonly #planner: DataReader;
  readonly #runner: SnapshotRunner | null;
  readonly #matcher: Matcher;
  readonly #byUuid = new Map<string, Subscription>();
  readonly #byKey = new Map<string, Subscription>();
  /** Subscriptions being made, by statement key: a second subscribe of the same statement waits for the first. */
  readonly #making = new Map<string, Promise<Subscription>>();
  /**
   * What the sweep looks at, so that it does not walk every subscription every second (10,000 of
   * them took about 5 ms of the thread a sweep): those with listeners; those without, in the order
   * they went quiet (so by listenedAt: the idle ones are at the front); those whose change log is
   * longer than retainChanges (the only ones that may have changes to prune).
   */
  readonly #listened = new Set<Subscription>();
  readonly #quiet = new Set<Subscription>();
  readonly #long = new Set<Subscription>();
  #timer: NodeJS.Timeout | null = null;
  #closed = false;
  #stopping = false;
  /** The agent's event-loop delay, the figure sliced matching keeps low; reset by each stats(). */
  readonly #loop: IntervalHistogram = monitorEventLoopDelay({ resolution: 5 });
  /** Subscriptions re-run at start-up because the store may have missed commits. */
  #rerunAtStart = 0;
  /** The feed's order of the last changeset committed (Changeset.seq). */
  #lastSeq = 0;
  /** Live change lines sent and clients cut off, since start. */
  readonly #tally = {
    sent: 0,
    cutOffs: 0,
    cutOff(limit: number) {
      this.cutOffs++;
      log.warn({ client_buffer: limit }, 'subscription client cut off: it fell behind');
    },
  };

  private constructor(engine: LiveEngine, store: SubscriptionStore, opts: LiveOptions) {
    this.#engine = engine;
    this.#store = store;
    this.#opts = opts;
    this.#reader = new DataReader(engine.path, engine.writer);
    this.#planner = new DataReader(engine.path, engine.writer);
    const memory = engine.path === ':memory:';
    this.#runner = memory ? null : new SnapshotRunner(engine.path);
    // An in-memory database has no second connection to hold a snapshot across turns: no pauses.
    this.#matcher = new Matcher(
      store,
      this.#reader,
      this.#runner,
      (sub, message) => this.#drop(sub, message),
      memory ? Infinity : SLICE_MS,
      (sub) => this.#logged(sub),
    );
  }

  /**
   * Opens the store and brings every persisted subscription up to date with the database. When the
   * store matched the data at the data's current commit position (a clean stop, or nothing written
   * since), the stored results stand; otherwise each is re-run and diffed against its stored result,
   * so changes committed after its last logged change (a crash between the data commit and the log)
   * become new changes. Call before any write.
   */
  static async open(engine: LiveEngine, storeFile: string, opts: LiveOptions): Promise<Subscriptions> {
    const live = new Subscriptions(engine, new SubscriptionStore(storeFile), opts);
    live.#loop.enable();
    const now = Date.now();
    const db = live.#planner.db;
    const position = live.#reader.begin();
    live.#reader.end();
    const current = live.#store.matched() === position;
    const stale: Subscription[] = [];
    const added: Subscription[] = [];
    let slice = performance.now();
    for (const stored of live.#store.list()) {
      try {
        const plan = planQuery(db, engine.schema, stored.sql, decodeParams(stored.params));
        if (JSON.stringify(plan.columns) !== JSON.stringify(stored.columns)) throw new Error('its columns changed');
        // Idle time counts from start-up: clients could not resume while the agent was down.
        const sub = new Subscription({ ...stored, listenedAt: Math.max(stored.listenedAt, now) }, plan, live.#store);
        if (current) sub.position = position;
        else stale.push(sub);
        live.#add(sub, false);
        // behind the data since nobody listened: re-run when a listener attaches (now, if every one is)
        if (stored.stale) live.#matcher.markedStale(sub, current);
        added.push(sub);
      } catch (err) {
        log.warn({ ...errorFields(err), subscription: stored.uuid }, 'subscription dropped at start-up');
        live.#store.deleteSubscription(stored.id);
      }
      // Sliced like the matcher's work (nothing writes before open returns): signals are heard.
      if (performance.now() - slice >= SLICE_MS) {
        await new Promise<void>((r) => setImmediate(r));
        slice = performance.now();
      }
    }
    await live.#matcher.loadRows(added);
    if (stale.length > 0) {
      // Re-run in the matcher's queue, sliced, before any batch of new writes.
      live.#rerunAtStart = stale.length;
      live.#matcher.reconcile(stale);
    } else {
      live.#store.setMatched(position);
    }
    const every = Math.max(100, Math.min(1000, (opts.idleSeconds * 1000) / 2));
    live.#timer = setInterval(() => live.sweep(), every);
    live.#timer.unref();
    return live;
  }

  /**
   * Whether a change of the table needs its row's values: a subscription reads the table, or one being
   * made will. Asked at commit, in the same turn as the changeset reaches `onChangeset`.
   */
  readsTable(table: string): boolean {
    return !this.#closed && this.#matcher.reads(table);
  }

  /** The feed observer: runs at commit, and only queues the changeset for the matcher. */
  onChangeset(cs: Changeset): void {
    this.#lastSeq = cs.seq;
    if (this.#closed) return;
    this.#matcher.enqueue(cs);
  }

  /** The subscription of this SQL and these parameters, if there is one. */
  find(sql: string, params: SqlParams | undefined): Subscription | undefined {
    return this.#byKey.get(statementKey(sql, params));
  }

  get(uuid: string): Subscription | undefined {
    return this.#byUuid.get(uuid);
  }

  /** Finds or creates the subscription of a statement; creating checks it and stores its result. */
  async subscribe(sql: string, params: SqlParams | undefined): Promise<Subscription> {
    checkReadReach(sql, 'query');
    const key = statementKey(sql, params);
    const existing = this.#byKey.get(key) ?? (await this.#making.get(key));
    if (existing && this.#byUuid.get(existing.uuid) === existing) return existing;
    if (this.#closed || this.#stopping) throw new PatinaError('unavailable', 'the agent is shutting down');
    // Checked at once on a connection of its own; made (its first result stored) in the matcher's queue.
    const plan = planQuery(this.#planner.db, this.#engine.schema, sql, params);
    const making = this.#matcher.create(plan.tables, async (_position, slicer) => {
      const now = Date.now();
      const uuid = crypto.randomUUID();
      const id = this.#store.insertSubscription(uuid, key, sql, encodeParams(params), plan.columns, now);
      const sub = new Subscription(
        {
          id,
          uuid,
          key,
          sql,
          params: null,
          columns: plan.columns,
          nextRowId: 1,
          lastChange: 0,
          listenedAt: now,
          stale: false,
        },
        plan,
        this.#store,
      );
      return { sub, outcome: await sub.initialize(this.#reader.db, slicer) };
    });
    this.#making.set(key, making);
    try {
      const sub = await making;
      this.#byUuid.set(sub.uuid, sub);
      this.#byKey.set(sub.key, sub);
      this.#quiet.add(sub);
      return sub;
    } catch (err) {
      if (err instanceof PatinaError) throw err;
      throw new PatinaError(
        this.#closed ? 'unavailable' : 'internal',
        `the subscription could not be made: ${(err as Error).message}`,
      );
    } finally {
      this.#making.delete(key);
    }
  }

  /**
   * A new listener. Without `from`: columns, the current rows, eoq, then changes. With `from`: the
   * logged changes after it, then live ones; an error line alone when they are no longer kept.
   */
  listen(uuid: string, from: number | undefined): Listener | undefined {
    const sub = this.#byUuid.get(uuid);
    if (!sub) return undefined;
    if (from !== undefined) {
      const last = sub.lastChange;
      const min = this.#store.minChange(sub.id) ?? last + 1;
      // Ahead of the log: the client holds changes this agent never made (another agent's subscription,
      // or a store that was reset); unlike changes no longer kept, waiting will not bring them.
      if (from > last)
        return ended(
          `change id ${from} is ahead of this subscription, whose last change id is ${last}: this agent never sent it (a different agent, or its subscription store was reset); re-read with GET /v1/subscriptions/${uuid} without from`,
        );
      if (from < min - 1)
        return ended(
          `changes after ${from} are no longer kept; re-subscribe without from to get the current rows; min change id: ${min}`,
        );
      const client = this.#attach(sub);
      return {
        lines: client.lines(this.#backfill(sub, client, from, last)),
        close: () => client.close(),
        onCut: (fn) => (client.onFail = fn),
      };
    }
    // Rows as of every commit acknowledged before this request (read your writes): when the stored
    // result is behind them, the rows wait until it caught up, as if listened meanwhile.
    const through = this.#lastSeq;
    const at = this.#engine.writer.commits;
    if (!this.#matcher.isBehind(sub, through, at)) return this.#listenNow(sub);
    let closed = false;
    let now: Listener | null = null;
    let cut: (() => void) | null = null;
    const self = this;
    const lines = (async function* () {
      sub.awaited++;
      try {
        self.#matcher.matchWaiting(sub);
        const deadline = Date.now() + CATCH_UP_MS;
        while (!closed && !self.#closed && self.#matcher.isBehind(sub, through, at) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 2));
      } finally {
        sub.awaited--;
      }
      if (closed) return;
      if (self.#byUuid.get(uuid) !== sub) {
        yield* ended(`subscription ${uuid} was removed`).lines;
        return;
      }
      if (self.#matcher.isBehind(sub, through, at)) {
        // The stored rows may lack a write acknowledged before the request: said, not sent.
        if (self.#closed) {
          yield* ended('the agent is shutting down; retry the request').lines;
          return;
        }
        const backlog = self.#matcher.backlog;
        log.warn({ subscription: uuid, queued_rows: backlog }, 'subscription rows could not catch up in time');
        yield* ended(
          `the subscription's rows could not be brought up to date with the writes acknowledged before this request within ${CATCH_UP_MS / 1000} s (the agent is busy: ${backlog} written rows wait to be matched); nothing was lost: retry the request`,
        ).lines;
        return;
      }
      now = self.#listenNow(sub);
      if (cut) now.onCut?.(cut);
      yield* now.lines;
    })();
    return {
      lines,
      close: () => {
        closed = true;
        now?.close();
      },
      onCut: (fn) => {
        cut = fn;
        now?.onCut?.(fn);
      },
    };
  }

  /** A listener of the rows as the store has them now, then the changes after them. */
  #listenNow(sub: Subscription): Listener {
    const snapshot = sub.openSnapshot();
    const client = this.#attach(sub);
    const prefix = snapshot
      ? snapshotLines(sub, snapshot)
      : [
          columnsLine(sub.plan.columns),
          ...this.#store
            .allRows(sub.id)
            .sort((a, b) => a.rowId - b.rowId)
            .map((r) => rowLine(r.rowId, r.cells)),
          eoqLine(sub.queryTime, sub.lastChange),
        ];
    return { lines: client.lines(prefix), close: () => client.close(), onCut: (fn) => (client.onFail = fn) };
  }

  /** Prunes change logs past retention and removes subscriptions idle too long. */
  sweep(now = Date.now()): void {
    if (this.#closed) return;
    const idleMs = this.#opts.idleSeconds * 1000;
    const idle: Subscription[] = [];
    for (const sub of this.#quiet) {
      if (now - sub.listenedAt < idleMs) break; // the rest went quiet later
      idle.push(sub);
    }
    for (const sub of idle) this.#drop(sub, 'removed: nobody listened to it');
    for (const sub of this.#long)
      this.#store.prune(sub.id, sub.lastChange - this.#opts.retainChanges, now - this.#opts.retainSeconds * 1000);
    if (this.#listened.size === 0) return;
    this.#store.transaction(() => {
      for (const sub of this.#listened) {
        sub.listenedAt = now;
        this.#store.setListened(sub.id, now);
      }
    });
  }

  /** Counts for GET /v1/health and the metrics; with `loop`, the event-loop delay since the previous such call. */
  stats(loop = false): {
    subscriptions: number;
    clients: number;
    queued_changesets: number;
    queued_rows: number;
    matcher_lag_seconds: number;
    rerun_at_start: number;
    behind_unlistened: number;
    changes_sent_total: number;
    clients_cut_off_total: number;
    evaluated_together_total: number;
    loop_delay_ms?: { p99: number; max: number };
  } {
    let clients = 0;
    for (const s of this.#byUuid.values()) clients += s.clients.size;
    const out = {
      subscriptions: this.#byUuid.size,
      clients,
      queued_changesets: this.#matcher.queued,
      queued_rows: this.#matcher.backlog,
      matcher_lag_seconds: this.#matcher.lagSeconds,
      behind_unlistened: this.#matcher.behind,
      rerun_at_start: this.#rerunAtStart,
      changes_sent_total: this.#tally.sent,
      clients_cut_off_total: this.#tally.cutOffs,
      evaluated_together_total: this.#matcher.evaluatedTogether,
    };
    if (!loop) return out;
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const delay = { p99: ms(this.#loop.percentile(99)), max: ms(this.#loop.max) };
    this.#loop.reset();
    return { ...out, loop_delay_ms: delay };
  }

  /** Changed rows written and not matched yet (what write admission looks at). */
  get backlog(): number {
    return this.#matcher.backlog;
  }

  /**
   * Backpressure for writers: admits at once while fewer than `maxBacklogRows` changed rows wait to
   * be matched; otherwise waits up to `admitWaitSeconds` for the matcher to catch up, then refuses (the caller
   * answers 503 with Retry-After). Admitted writes are never lost: a write of any size is admitted
   * below the limit, and every committed change is matched.
   */
  async admitWrite(): Promise<{ retryAfter: number; reason: string } | null> {
    const max = this.#opts.maxBacklogRows;
    if (this.#matcher.backlog < max) return null;
    const deadline = Date.now() + this.#opts.admitWaitSeconds * 1000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      if (this.#matcher.backlog < max) return null;
    }
    return {
      retryAfter: RETRY_AFTER_SECONDS,
      reason: `the agent is busy: ${this.#matcher.backlog} written rows are waiting to be matched against live subscriptions (subscriptions.max_backlog_rows is ${max}); retry after ${RETRY_AFTER_SECONDS} s`,
    };
  }

  /** Ends every listener's stream (the agent is stopping); the subscriptions stay for a restart. */
  endListeners(
    message = 'the agent is shutting down; resume with GET /v1/subscriptions/{id}?from=<last change id seen>',
  ): void {
    for (const sub of this.#byUuid.values()) for (const c of [...sub.clients]) c.fail(message);
  }

  /**
   * Stops: catches up with queued work for up to `budgetMs` (then the start-up after re-runs what
   * was missed), ends the listeners and closes the files.
   */
  async close(budgetMs = 2000): Promise<void> {
    if (this.#closed || this.#stopping) return;
    this.#stopping = true;
    if (this.#timer) clearInterval(this.#timer);
    try {
      // Changesets still queue meanwhile: the store is marked as matching the data only when none waits.
      await this.#matcher.close(budgetMs);
    } catch (err) {
      log.warn(errorFields(err), 'subscriptions could not catch up before stopping (start-up will)');
    }
    this.#closed = true;
    this.#loop.disable();
    this.endListeners();
    this.#runner?.close();
    this.#reader.close();
    this.#planner.close();
    const now = Date.now();
    try {
      this.#store.transaction(() => {
        for (const sub of this.#byUuid.values()) if (sub.clients.size > 0) this.#store.setListened(sub.id, now);
      });
    } finally {
      this.#store.close();
    }
  }

  #add(sub: Subscription, load = true) {
    this.#byUuid.set(sub.uuid, sub);
    this.#byKey.set(sub.key, sub);
    this.#quiet.add(sub);
    this.#logged(sub);
    this.#matcher.add(sub, load);
  }

  /** A subscription's change log grew (or was loaded): the sweep prunes it once it is longer than retainChanges. */
  #logged(sub: Subscription) {
    if (sub.lastChange > this.#opts.retainChanges && this.#byUuid.get(sub.uuid) === sub) this.#long.add(sub);
  }

  #drop(sub: Subscription, message: string) {
    if (this.#byUuid.get(sub.uuid) !== sub) return;
    this.#byUuid.delete(sub.uuid);
    this.#byKey.delete(sub.key);
    this.#listened.delete(sub);
    this.#quiet.delete(sub);
    this.#long.delete(sub);
    for (const c of [...sub.clients]) c.fail(message);
    this.#matcher.remove(sub, () => this.#store.deleteSubscription(sub.id));
  }

  #attach(sub: Subscription): ClientStream {
    const client = new ClientStream(
      { events: this.#opts.clientBuffer, bytes: this.#opts.clientBufferBytes },
      sub.lastChange,
      () => {
        sub.clients.delete(client);
        sub.listenedAt = Date.now();
        if (this.#closed || this.#byUuid.get(sub.uuid) !== sub) return;
        this.#store.setListened(sub.id, sub.listenedAt);
        if (sub.clients.size === 0) {
          this.#listened.delete(sub);
          this.#quiet.delete(sub); // re-added last: the quiet ones stay in the order they went quiet
          this.#quiet.add(sub);
        }
      },
      this.#tally,
    );
    sub.clients.add(client);
    // What changed while nobody listened is matched now, and reaches it as changes.
    this.#matcher.matchWaiting(sub);
    sub.listenedAt = Date.now();
    if (this.#byUuid.get(sub.uuid) === sub) {
      this.#listened.add(sub);
      this.#quiet.delete(sub);
    }
    return client;
  }

  /** Logged changes after..upTo, read page by page; an error if retention removed some meanwhile. */
  async *#backfill(sub: Subscription, client: ClientStream, after: number, upTo: number): AsyncGenerator<string> {
    let at = after;
    while (at < upTo) {
      if (this.#closed) return;
      const page = this.#store.changes(sub.id, at, upTo, PAGE);
      if (page.length === 0 || page[0].changeId !== at + 1) {
        client.fail(
          `changes after ${at} were removed while they were being sent; min change id: ${this.#store.minChange(sub.id) ?? sub.lastChange + 1}`,
        );
        return;
      }
      let s = '';
      for (const c of page) s += changeLine(c.kind, c.rowId, c.cells, c.changeId);
      at = page[page.length - 1].changeId;
      yield s;
    }
  }
}

async function* snapshotLines(
  sub: Subscription,
  snapshot: NonNullable<ReturnType<Subscription['openSnapshot']>>,
): AsyncGenerator<string> {
  try {
    yield columnsLine(sub.plan.columns);
    for (;;) {
      const page = snapshot.next(PAGE);
      if (page.length === 0) break;
      let s = '';
      for (const r of page) s += rowLine(r.rowId, r.cells);
      yield s;
    }
    yield eoqLine(sub.queryTime, snapshot.lastChange);
  } finally {
    snapshot.close();
  }
}

function ended(message: string): Listener {
  const lines = (async function* () {
    yield errorLine(message);
  })();
  return { lines, close: () => undefined };
}

/** The identity of a statement: its SQL text and its parameters, exactly. */
export function statementKey(sql: string, params: SqlParams | undefined): string {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([sql, encodeParams(params)]))
    .digest('hex');
}

/** Parameters as JSON that keeps 64-bit integers and BLOBs exact. */
export function encodeParams(params: SqlParams | undefined): string | null {
  if (params === undefined) return null;
  const enc = (v: SqlValue): unknown =>
    typeof v === 'bigint' ? { $i: v.toString() } : v instanceof Uint8Array ? { $b: Buffer.from(v).toString('hex') } : v;
  if (Array.isArray(params)) return JSON.stringify(params.map(enc));
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(params)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, enc(v)]),
    ),
  );
}

export function decodeParams(text: string | null): SqlParams | undefined {
  if (text === null) return undefined;
  const dec = (v: unknown): SqlValue => {
    if (v !== null && typeof v === 'object') {
      const o = v as { $i?: string; $b?: string };
      if (o.$i !== undefined) return BigInt(o.$i);
      if (o.$b !== undefined) return Buffer.from(o.$b, 'hex');
    }
    return v as SqlValue;
  };
  const parsed = JSON.parse(text) as unknown;
  if (Array.isArray(parsed)) return parsed.map(dec);
  return Object.fromEntries(Object.entries(parsed as Record<string, unknown>).map(([k, v]) => [k, dec(v)]));
}
