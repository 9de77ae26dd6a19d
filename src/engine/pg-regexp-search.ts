// PostgreSQL 15's regexp_count, regexp_instr, regexp_like and regexp_substr (they were 42883), and the
// pattern compilation every regexp function shares. JavaScript's regular expressions stand in for
// PostgreSQL's, as for regexp_replace (functions.ts): the same for the common classes, quantifiers
// and groups. Positions count characters from 1, as PostgreSQL's; flags are `i` and `c` (case), a
// `g` is refused by these four as there.
import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';

/** A pattern with PostgreSQL's flags: `i` and `c` (the last one wins), `g` kept for the caller. */
export function compileRegex(pattern: unknown, flags: unknown = ''): RegExp {
  const f = String(flags ?? '');
  // (PostgreSQL names the first option it does not know)
  const bad = /[^gic]/.exec(f);
  if (bad) throw sqlStateError('22023', `invalid regular expression option: "${bad[0]}"`);
  const insensitive = f.lastIndexOf('i') > f.lastIndexOf('c');
  try {
    return new RegExp(String(pattern), `${f.includes('g') ? 'g' : ''}${insensitive ? 'i' : ''}`);
  } catch (err) {
    throw sqlStateError('2201B', `invalid regular expression: ${(err as Error).message}`);
  }
}

const int = (x: unknown) => Number(x);

function checkParameter(name: string, value: number, least: number): void {
  if (!(value >= least)) throw sqlStateError('22023', `invalid value for parameter "${name}": ${value}`);
}

/** The pattern with its flags, refusing `g` as the function's own error. */
function searchPattern(fn: string, pattern: unknown, flags: unknown): RegExp {
  const re = compileRegex(pattern, flags);
  if (re.global) throw sqlStateError('22023', `${fn}() does not support the "global" option`);
  return new RegExp(re.source, `gd${re.flags}`); // (d: each group's offsets, for regexp_instr)
}

/**
 * The matches of `re` in `s` from character `start` (1 first) on, each as its character offsets
 * and groups, the search resuming after each match (a character further after an empty one).
 */
function* matches(s: string, re: RegExp, start: number): Generator<{ from: number; to: number; m: RegExpExecArray }> {
  const cs = [...s];
  if (start - 1 > cs.length) return;
  re.lastIndex = cs.slice(0, start - 1).join('').length;
  const chars = (units: number) => [...s.slice(0, units)].length;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    yield { from: chars(m.index), to: chars(m.index + m[0].length), m };
    if (m[0].length === 0) re.lastIndex++;
  }
}

/** The n-th match from `start`, or undefined. */
function nth(s: string, re: RegExp, start: number, n: number) {
  let k = 0;
  for (const x of matches(s, re, start)) if (++k === n) return x;
  return undefined;
}

/** A group's character offsets in `s` (the whole match for 0), or undefined when it took no part. */
function groupSpan(s: string, m: RegExpExecArray, sub: number): { from: number; to: number } | undefined {
  const at = m.indices?.[sub];
  if (!at) return undefined;
  const chars = (units: number) => [...s.slice(0, units)].length;
  return { from: chars(at[0]), to: chars(at[1]) };
}

export function installPgRegexpSearch(db: Database.Database): void {
  const fn = (name: string, f: (...args: unknown[]) => unknown) =>
    db.function(name, { deterministic: true, varargs: true }, (...args: unknown[]) =>
      args.some((a) => a === null) ? null : (f(...args) as never),
    );
  // regexp_count(s, p [, start [, flags]]): how many matches from start
  fn('regexp_count', (s, p, start = 1, flags = '') => {
    checkParameter('start', int(start), 1);
    let k = 0;
    for (const _ of matches(String(s), searchPattern('regexp_count', p, flags), int(start))) k++;
    return k;
  });
  // regexp_like(s, p [, flags]): whether it matches
  fn('regexp_like', (s, p, flags = '') => (nth(String(s), searchPattern('regexp_like', p, flags), 1, 1) ? 1 : 0));
  // regexp_instr(s, p [, start [, n [, endoption [, flags [, subexpr]]]]]): where the n-th match (or
  // its group) begins, or after it ends with endoption 1; 0 for none
  fn('regexp_instr', (s, p, start = 1, n = 1, end = 0, flags = '', sub = 0) => {
    checkParameter('start', int(start), 1);
    checkParameter('n', int(n), 1);
    if (int(end) !== 0 && int(end) !== 1)
      throw sqlStateError('22023', `invalid value for parameter "endoption": ${int(end)}`);
    checkParameter('subexpr', int(sub), 0);
    const x = nth(String(s), searchPattern('regexp_instr', p, flags), int(start), int(n));
    const span = x && int(sub) < x.m.length ? groupSpan(String(s), x.m, int(sub)) : undefined;
    if (!span) return 0;
    return (int(end) === 1 ? span.to : span.from) + 1;
  });
  // regexp_substr(s, p [, start [, n [, flags [, subexpr]]]]): the n-th match's (or its group's) text, NULL for none
  fn('regexp_substr', (s, p, start = 1, n = 1, flags = '', sub = 0) => {
    checkParameter('start', int(start), 1);
    checkParameter('n', int(n), 1);
    checkParameter('subexpr', int(sub), 0);
    const x = nth(String(s), searchPattern('regexp_substr', p, flags), int(start), int(n));
    if (!x) return null;
    if (int(sub) === 0) return x.m[0];
    return int(sub) < x.m.length ? (x.m[int(sub)] ?? null) : null;
  });
}
