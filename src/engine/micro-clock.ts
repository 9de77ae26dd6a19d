// The wall clock to the microsecond, for what PostgreSQL prints with microseconds from its clock
// (timeofday()): SQLite's clock and Date.now() have milliseconds only. The monotonic clock
// (process.hrtime) gives the microseconds, anchored to the wall clock at the process's start; the
// anchor is taken again from Date.now() when the two drift apart by more than a millisecond (the
// system clock set, NTP's steps), so a reading is never further from the wall clock than that.
import { performance } from 'node:perf_hooks';

/** Wall microseconds minus monotonic ones: first from the process's start (performance's, to the microsecond). */
let anchorUs =
  BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)) - process.hrtime.bigint() / 1000n;

/** Microseconds since 1970 UTC, now. */
export function nowMicros(): bigint {
  const mono = process.hrtime.bigint() / 1000n;
  const wallMs = BigInt(Date.now());
  let us = mono + anchorUs;
  const drift = us / 1000n - wallMs;
  if (drift > 1n || drift < -1n) {
    // (the wall clock is somewhere in its millisecond: its middle)
    anchorUs = wallMs * 1000n + 500n - mono;
    us = mono + anchorUs;
  }
  return us;
}

const pad = (n: number | bigint, w = 2) => String(n).padStart(w, '0');

/** The clock as timestamptz text, to the microsecond: '2026-11-27 08:55:12.123456+00'. */
export function clockMicrosText(): string {
  return `${wallText(nowMicros())}+00`;
}

/**
 * The clock as a timestamptz column keeps it (UTC, no offset, no trailing zeros of the fraction:
 * '2026-11-27 08:55:12.12345'), so that a value written from now() is equal to now().
 */
export function clockStoredText(): string {
  return wallText(nowMicros()).replace(/\.?0+$/, '');
}

/** UTC wall text of microseconds since 1970, with six digits of fraction. */
function wallText(us: bigint): string {
  const d = new Date(Number(us / 1000n));
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(us % 1_000_000n, 6)}`
  );
}

/**
 * The clock PostgreSQL's now() reads: the transaction's start (now(), transaction_timestamp(),
 * current_timestamp, localtimestamp, equal within a transaction) and the statement's
 * (statement_timestamp()), as a timestamptz column keeps them (clockStoredText). The PG session takes them and
 * pins them around what runs its statement (the writer's Lease.run, a read worker's job, the
 * in-process reads), so that a write replayed or a read on a worker sees the session's values.
 */
export interface PinnedClock {
  xact: string;
  stmt: string;
}

/** The clock as a timestamptz column keeps it, of microseconds since 1970 (clockStoredText's form). */
export function storedTextOf(us: bigint): string {
  return wallText(us).replace(/\.?0+$/, '');
}

/**
 * A PG session's readings (microseconds since 1970), made text only when a statement reads them: a
 * statement takes its start at every run, and formatting it cost more than the reading (0.65 µs
 * against 0.1; most statements read no clock). `plain()` gives the strings, for a message to a read
 * worker or a statement kept to COMMIT (a getter does not cross postMessage).
 */
export class SessionClock implements PinnedClock {
  readonly xactUs: bigint;
  readonly stmtUs: bigint;
  #xact: string | null = null;
  #stmt: string | null = null;

  constructor(xactUs: bigint, stmtUs: bigint, xactText: string | null = null) {
    this.xactUs = xactUs;
    this.stmtUs = stmtUs;
    this.#xact = xactText;
  }

  get xact(): string {
    this.#xact ??= storedTextOf(this.xactUs);
    return this.#xact;
  }

  get stmt(): string {
    this.#stmt ??= this.stmtUs === this.xactUs ? this.xact : storedTextOf(this.stmtUs);
    return this.#stmt;
  }

  /** The transaction's text if it was made (kept for the next statement of the same transaction). */
  get xactTextMade(): string | null {
    return this.#xact;
  }

  plain(): PinnedClock {
    return { xact: this.xact, stmt: this.stmt };
  }
}

let pinned: PinnedClock | null = null;

/** Pins `c` (null: none) for the statements run from now on; gives back the one pinned before. */
export function pinClock(c: PinnedClock | null): PinnedClock | null {
  const before = pinned;
  pinned = c;
  return before;
}

/** Runs `fn` (synchronous) with `c` pinned, when there is one. */
export function withClock<T>(c: PinnedClock | null | undefined, fn: () => T): T {
  if (!c) return fn();
  const before = pinClock(c);
  try {
    return fn();
  } finally {
    pinned = before;
  }
}

/** The pinned transaction's start (the clock when nothing is pinned). */
export const transactionClockText = (): string => pinned?.xact ?? clockStoredText();

/** The pinned statement's start (the clock when nothing is pinned). */
export const statementClockText = (): string => pinned?.stmt ?? clockStoredText();
