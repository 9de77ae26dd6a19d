import { performance } from 'node:perf_hooks';

/** Seconds since `t0` (a performance.now() reading), rounded to microseconds: what responses report as "time". */
export function secondsSince(t0: number): number {
  return Math.round((performance.now() - t0) * 1000) / 1e6;
}
