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

/** The clock as timestamptz text in the stored form, to the microsecond: '2026-11-27 08:55:12.123456+00'. */
export function clockMicrosText(): string {
  const us = nowMicros();
  const d = new Date(Number(us / 1000n));
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(us % 1_000_000n, 6)}+00`
  );
}
