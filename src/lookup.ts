/**
 * A table looked up by names users write (functions, types, settings, units, encodings, zones): a
 * copy of `entries` with no prototype. A plain object literal answers `constructor`, `toString` or
 * `__proto__` from Object.prototype, so `SELECT constructor(1)` found a function where a clock was
 * looked for and failed inside the front end, and `SHOW constructor` printed JavaScript source.
 */
export function lookup<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}
