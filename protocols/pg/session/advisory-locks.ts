// PostgreSQL's advisory locks (pg_advisory_lock, pg_try_advisory_xact_lock, ... ): what migration
// tools (Rails', golang-migrate, Flyway) and job queues (Oban, good_job, que, graphile-worker) take
// so that one process at a time runs a migration or a job. One table for the agent's PG sessions,
// keyed by the lock's bigint or its two int4s, each held exclusive or shared, at session level
// (until unlocked or the session ends) or transaction level (until the transaction ends), counted
// as PostgreSQL counts them (taking a lock twice needs two unlocks). The locks are this agent's:
// another agent of the cluster has its own table (docs/postgres.md).
//
// The functions run on the catalog connection (catalog-functions.ts), synchronously; a lock that
// waits (pg_advisory_lock of a taken key) throws AdvisoryWait, and the session runs the statement
// again once a lock was released (Session.#runLocal), its statement_timeout and CancelRequest apply.

/** A statement must wait for a lock someone else holds (the session tries again after a release). */
export class AdvisoryWait extends Error {
  constructor(
    readonly key: string,
    readonly shared: boolean,
  ) {
    super(`waiting for advisory lock ${key}`);
  }
}

/** A statement called pg_sleep (or _for, _until): the session waits `ms`, then runs it again, `slept`. */
export class SleepRequest extends Error {
  constructor(readonly ms: number) {
    super(`sleeping ${ms} ms`);
  }
}

interface Holds {
  /** Exclusive at session level, exclusive at transaction level, shared likewise. */
  xs: number;
  xx: number;
  ss: number;
  sx: number;
}

const exclusive = (h: Holds) => h.xs + h.xx > 0;
const any = (h: Holds) => h.xs + h.xx + h.ss + h.sx > 0;

export class AdvisoryLocks {
  readonly #locks = new Map<string, Map<number, Holds>>();
  /** The keys each session holds: a transaction's end (every one of every session) looks at its own only. */
  readonly #keysOf = new Map<number, Set<string>>();
  #waiters: (() => void)[] = [];
  /** What the running statement took, so that a statement that must wait gives it back before it waits. */
  #taken: { pid: number; key: string; field: keyof Holds }[] | null = null;

  /** Takes `key` for session `pid` when no other session's hold conflicts; counted. */
  take(pid: number, key: string, shared: boolean, xact: boolean): boolean {
    let holders = this.#locks.get(key);
    if (holders) for (const [other, h] of holders) if (other !== pid && (shared ? exclusive(h) : any(h))) return false;
    if (!holders) this.#locks.set(key, (holders = new Map()));
    let mine = holders.get(pid);
    if (!mine) {
      holders.set(pid, (mine = { xs: 0, xx: 0, ss: 0, sx: 0 }));
      let keys = this.#keysOf.get(pid);
      if (!keys) this.#keysOf.set(pid, (keys = new Set()));
      keys.add(key);
    }
    const field: keyof Holds = shared ? (xact ? 'sx' : 'ss') : xact ? 'xx' : 'xs';
    mine[field]++;
    this.#taken?.push({ pid, key, field });
    return true;
  }

  /** pg_advisory_unlock: one session-level hold of `key` less; false when `pid` holds none (PostgreSQL's WARNING). */
  release(pid: number, key: string, shared: boolean): boolean {
    const h = this.#locks.get(key)?.get(pid);
    const field: keyof Holds = shared ? 'ss' : 'xs';
    if (!h || h[field] === 0) return false;
    h[field]--;
    this.#tidy(key, pid);
    this.#wake();
    return true;
  }

  /** The session's transaction ended (or its statement, outside one): its transaction-level locks go. */
  releaseXact(pid: number): void {
    this.#releaseWhere(pid, ['xx', 'sx']);
  }

  /** pg_advisory_unlock_all(): every session-level lock of `pid`. */
  releaseSession(pid: number): void {
    this.#releaseWhere(pid, ['xs', 'ss']);
  }

  /** The session ended: all its locks go. */
  releaseAll(pid: number): void {
    this.#releaseWhere(pid, ['xs', 'ss', 'xx', 'sx']);
  }

  /** Runs one statement's lock calls; when one of them must wait, what the statement took is given back first. */
  during<T>(fn: () => T): T {
    const outer = this.#taken;
    this.#taken = [];
    try {
      return fn();
    } catch (err) {
      if (err instanceof AdvisoryWait)
        for (const t of this.#taken.reverse()) {
          const h = this.#locks.get(t.key)?.get(t.pid);
          if (h && h[t.field] > 0) h[t.field]--;
          this.#tidy(t.key, t.pid);
        }
      throw err;
    } finally {
      this.#taken = outer;
    }
  }

  /** Settles at the next release of any lock. */
  released(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  readonly #waiting = new Map<number, { key: string; shared: boolean }>();

  /** Session `pid` waits for `key` (null: no longer), for pg_locks' rows not granted. */
  waiting(pid: number, key: string | null, shared: boolean): void {
    if (key === null) this.#waiting.delete(pid);
    else this.#waiting.set(pid, { key, shared });
  }

  /** pg_locks' rows: every lock held (granted), and the ones sessions wait for (not granted). */
  rows(): { pid: number; key: string; shared: boolean; granted: boolean }[] {
    const out: { pid: number; key: string; shared: boolean; granted: boolean }[] = [];
    for (const [key, holders] of this.#locks)
      for (const [pid, h] of holders) {
        if (h.xs + h.xx > 0) out.push({ pid, key, shared: false, granted: true });
        if (h.ss + h.sx > 0) out.push({ pid, key, shared: true, granted: true });
      }
    for (const [pid, w] of this.#waiting) out.push({ pid, ...w, granted: false });
    return out;
  }

  #releaseWhere(pid: number, fields: (keyof Holds)[]) {
    const keys = this.#keysOf.get(pid);
    if (!keys) return;
    let changed = false;
    for (const key of [...keys]) {
      const h = this.#locks.get(key)?.get(pid);
      if (!h) continue;
      for (const f of fields)
        if (h[f] > 0) {
          h[f] = 0;
          changed = true;
        }
      this.#tidy(key, pid);
    }
    if (changed) this.#wake();
  }

  #tidy(key: string, pid: number) {
    const holders = this.#locks.get(key);
    const h = holders?.get(pid);
    if (holders && h && !any(h)) {
      holders.delete(pid);
      const keys = this.#keysOf.get(pid);
      keys?.delete(key);
      if (keys?.size === 0) this.#keysOf.delete(pid);
    }
    if (holders && holders.size === 0) this.#locks.delete(key);
  }

  #wake() {
    const w = this.#waiters;
    if (w.length === 0) return;
    this.#waiters = [];
    for (const resolve of w) resolve();
  }
}
