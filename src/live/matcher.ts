import type { Changeset, RowChange } from '../bus/changeset';
import type { DataReader } from './data-reader';
import type { SnapshotResult, SnapshotRunner } from './snapshot-runner';
import type { SubscriptionStore } from './store';
import type { ChangeRecord, Subscription } from './subscription';
import { WakeIndex } from './wake-index';

/**
 * Takes changesets from the feed at commit (only queueing them: nothing is evaluated on the commit
 * path) and brings the subscriptions they concern up to date, in commit order, on the agent's
 * thread once the commit's task is over. Changesets that queued up meanwhile are handled as one
 * batch: one read transaction on the DataReader, whose state is that of the last of them, and one
 * store transaction; a subscription gets one group of changes for the whole batch.
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
  readonly #subs = new Set<Subscription>();
  #queue: Changeset[] = [];
  /** When the oldest queued changeset was queued (ms since epoch); 0 while the queue is empty. */
  #queuedSince = 0;
  #scheduled = false;
  /** Full re-runs to do, and those under way on the runner. */
  readonly #dirty = new Set<Subscription>();
  #running: Subscription[] = [];
  /** The position of the last batch. */
  #flushedAt = 0;
  #closed = false;

  constructor(store: SubscriptionStore, reader: DataReader, runner: SnapshotRunner | null, drop: (sub: Subscription, message: string) => void) {
    this.#store = store;
    this.#reader = reader;
    this.#runner = runner;
    this.#drop = drop;
  }

  /** Follows a subscription whose stored result reflects `sub.position`. */
  add(sub: Subscription): void {
    this.#subs.add(sub);
    this.index.add(sub, () => this.#store.allRows(sub.id).map((r) => r.key));
    if (this.index.tracksRows(sub)) sub.onRow = (key, delta) => (delta > 0 ? this.index.rowAdded(sub, key) : this.index.rowRemoved(sub, key));
  }

  remove(sub: Subscription): void {
    this.#subs.delete(sub);
    this.#dirty.delete(sub);
    this.index.remove(sub);
    sub.onRow = null;
  }

  /** The feed observer: queues the changeset if a subscription reads one of its tables. */
  enqueue(cs: Changeset): void {
    if (this.#closed) return;
    for (const c of cs.changes) {
      if (!this.index.reads(c.table.toLowerCase())) continue;
      if (this.#queue.length === 0) this.#queuedSince = Date.now();
      this.#queue.push(cs);
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.flush();
        });
      }
      return;
    }
  }

  /** Changesets queued and not handled yet. */
  get queued(): number {
    return this.#queue.length;
  }

  /** How long the oldest queued changeset has waited, seconds (0 when none waits). */
  get lagSeconds(): number {
    return this.#queue.length === 0 ? 0 : (Date.now() - this.#queuedSince) / 1000;
  }

  /** Handles every queued changeset now, as one batch. */
  flush(): void {
    if (this.#queue.length === 0 || this.#closed) return;
    const batch = this.#queue;
    this.#queue = [];
    const now = Date.now();
    const out: [Subscription, ChangeRecord[]][] = [];
    const failed: [Subscription, unknown][] = [];
    this.#reader.at((position) => {
      const woken = this.index.wake(changesOf(batch));
      try {
        this.#store.transaction(() => {
          for (const [sub, keys] of woken) {
            if (sub.position >= position) continue; // made after these commits
            if (sub.plan.mode !== 'restricted' && this.#runner) {
              this.#dirty.add(sub);
              continue;
            }
            try {
              // No savepoint: a subscription that fails is dropped whole.
              const records = sub.apply(this.#reader.db, keys, now);
              sub.position = position;
              if (records.length > 0) out.push([sub, records]);
            } catch (err) {
              failed.push([sub, err]);
            }
          }
          this.#flushedAt = position;
          if (this.#dirty.size === 0 && this.#running.length === 0) this.#store.setMatched(position);
        });
      } catch (err) {
        // The log could not be written: these subscriptions no longer follow the data.
        out.length = 0;
        for (const sub of woken.keys()) failed.push([sub, err]);
      }
    });
    this.#finish(out, failed);
    this.#startRuns();
  }

  /**
   * Brings every subscription up to date at once (the agent is stopping): queued changesets and
   * pending full re-runs, all on this thread, then records that the store matches the data.
   */
  drain(): void {
    this.flush();
    const heavy = new Set([...this.#dirty, ...this.#running]);
    this.#dirty.clear();
    this.#running = [];
    this.#closed = true;
    this.#runner?.close();
    const now = Date.now();
    const out: [Subscription, ChangeRecord[]][] = [];
    const failed: [Subscription, unknown][] = [];
    this.#reader.at((position) => {
      this.#store.transaction(() => {
        for (const sub of heavy) {
          if (!this.#subs.has(sub) || sub.position >= position) continue;
          try {
            const records = sub.reconcile(this.#reader.db, now);
            sub.position = position;
            if (records.length > 0) out.push([sub, records]);
          } catch (err) {
            failed.push([sub, err]);
          }
        }
        this.#store.setMatched(position);
      });
    });
    this.#finish(out, failed);
  }

  #finish(out: [Subscription, ChangeRecord[]][], failed: [Subscription, unknown][]) {
    for (const [sub, records] of out) sub.deliver(records);
    for (const [sub, err] of failed) this.#drop(sub, `the subscription failed and was removed: ${(err as Error)?.message ?? err}`);
  }

  /** Sends the subscriptions that need a full re-run to the runner, if it is free. */
  #startRuns() {
    const runner = this.#runner;
    if (!runner || runner.busy || this.#dirty.size === 0 || this.#closed) return;
    const subs = [...this.#dirty];
    this.#dirty.clear();
    this.#running = subs;
    const here = (err: unknown) => {
      if (this.#closed) return;
      // The thread or its read transaction failed: re-run these here instead.
      process.stderr.write(`patina: subscription re-runs fell back to the agent's thread: ${(err as Error)?.message ?? err}\n`);
      this.#running = [];
      this.#reader.at((position) => this.#applyRun(subs, { id: 0, position, results: subs.map((s) => ({ key: s.id, rows: this.#fullRows(s) })) }));
    };
    runner.run(subs.map((s) => ({ key: s.id, sql: s.plan.fullSql, params: s.plan.params }))).then(
      (r) => (r.error !== undefined ? here(new Error(r.error)) : this.#applyRun(subs, r)),
      here,
    );
  }

  #fullRows(sub: Subscription): unknown[][] | undefined {
    try {
      return sub.fullRows(this.#reader.db);
    } catch {
      return undefined;
    }
  }

  #applyRun(subs: Subscription[], r: SnapshotResult) {
    if (this.#closed) return;
    this.#running = [];
    const byId = new Map(subs.map((s) => [s.id, s]));
    const now = Date.now();
    const out: [Subscription, ChangeRecord[]][] = [];
    const failed: [Subscription, unknown][] = [];
    try {
      this.#store.transaction(() => {
        for (const res of r.results) {
          const sub = byId.get(res.key);
          if (!sub || !this.#subs.has(sub)) continue;
          if (res.rows === undefined) {
            failed.push([sub, new Error(res.error ?? 'the query failed')]);
            continue;
          }
          if (sub.position >= r.position) continue; // already newer (made or re-run since)
          try {
            const records = sub.diffAll(res.rows, now);
            sub.position = r.position;
            if (records.length > 0) out.push([sub, records]);
          } catch (err) {
            failed.push([sub, err]);
          }
        }
        if (this.#dirty.size === 0 && this.#queue.length === 0) this.#store.setMatched(Math.max(r.position, this.#flushedAt));
      });
    } catch (err) {
      out.length = 0;
      for (const s of subs) failed.push([s, err]);
    }
    this.#finish(out, failed);
    this.#startRuns();
  }
}

function* changesOf(batch: Changeset[]): Iterable<RowChange> {
  for (const cs of batch) yield* cs.changes;
}
