import { hiddenName } from './sql-text';
import { valueTable } from './value-twins';
import type Database from 'better-sqlite3';
import { installDateFunctions } from './dates';
import { arrayText, installPgFunctions } from './pg-functions';
import { sqlStateError } from '../errors';
import { Lru } from '../lru';
import { compileRegex, installPgRegexpSearch } from './pg-regexp-search';

/**
 * The functions installReadFunctions adds that the writer lacks: the regular expressions (the PG
 * front end refuses a write that calls one by name, protocols/pg/sql/read-only-calls.ts).
 */
export const READ_ONLY_FUNCTIONS: ReadonlySet<string> = new Set([
  'regexp',
  'regexp_replace',
  'regexp_match',
  'regexp_split_to_array',
  'regexp_split_to_table',
  '__pg_regexp_matches',
  '__pg_substring_regex',
  'regexp_count',
  'regexp_instr',
  'regexp_like',
  'regexp_substr',
]);

/**
 * SQL functions SQLite lacks that users (and the PG dialect's `~`, `~*`) expect, on connections that
 * run reads: `regexp(pattern, value)`, which makes `value REGEXP pattern` work; a pattern starting
 * with `(?i)` matches case-insensitively. Not on the writer: a pathological pattern there would
 * stall every write, while a read worker stuck on one can be killed by its timeout. Also the date
 * functions (dates.ts), which the writer has too.
 */
export function installReadFunctions(db: Database.Database): void {
  installDateFunctions(db);
  installPgFunctions(db);
  // patina_id() counts on the writer (src/crdt/cluster-ids.ts); a read cannot keep what it hands out.
  db.function('patina_id', { deterministic: false }, () => {
    throw sqlStateError(
      '0A000',
      'patina_id() makes a key only in a write, e.g. INSERT INTO t (id, ...) VALUES (patina_id(), ...) RETURNING id',
    );
  });
  const cache = new Lru<string, RegExp>(1000);
  db.function('regexp', { deterministic: true }, (pattern: unknown, value: unknown) => {
    if (pattern === null || value === null) return null;
    const key = String(pattern);
    let re = cache.get(key);
    if (!re) {
      const ci = key.startsWith('(?i)');
      try {
        re = new RegExp(ci ? key.slice(4) : key, ci ? 'i' : '');
      } catch (err) {
        // A user error, not a fault of the agent: PostgreSQL's invalid_regular_expression.
        throw sqlStateError('2201B', `REGEXP: ${(err as Error).message}`);
      }
      cache.set(key, re);
    }
    return re.test(String(value)) ? 1 : 0;
  });
  // regexp_replace(source, pattern, replacement [, start [, N]] [, flags]): the first match, every
  // one with 'g' (or N 0), the N-th with N, searched from character `start` on (PostgreSQL 15's);
  // \1..\9 and \& in the replacement as PostgreSQL writes them. JavaScript's regular expressions
  // stand in for PostgreSQL's (the same for the common classes, quantifiers and groups).
  db.function('regexp_replace', { deterministic: true, varargs: true }, (...args: unknown[]) => {
    if (args.length < 3 || args.length > 6)
      throw sqlStateError(
        '42883',
        'function regexp_replace takes 3 to 6 arguments (source, pattern, replacement, start, N, flags)',
      );
    if (args.some((a) => a === null)) return null;
    const [source, pattern, replacement] = args.map(String);
    // a fourth argument is the flags when it is text, else the start (as PostgreSQL resolves the call)
    const flagsAt = args.length === 4 && typeof args[3] === 'string' ? 3 : args.length === 6 ? 5 : -1;
    const flags = flagsAt < 0 ? '' : String(args[flagsAt]);
    const start = flagsAt === 3 || args.length === 3 ? 1 : Number(args[3]);
    const n = args.length >= 5 ? Number(args[4]) : undefined;
    if (start <= 0) throw sqlStateError('22023', `invalid value for parameter "start": ${start}`);
    if (n !== undefined && n < 0) throw sqlStateError('22023', `invalid value for parameter "n": ${n}`);
    const bad = /[^gic]/.exec(flags);
    if (bad) throw sqlStateError('22023', `invalid regular expression option: "${bad[0]}"`);
    let re: RegExp;
    try {
      re = new RegExp(pattern, flags.lastIndexOf('i') > flags.lastIndexOf('c') ? 'gi' : 'g'); // (c: case again)
    } catch (err) {
      throw sqlStateError('2201B', `invalid regular expression: ${(err as Error).message}`);
    }
    // (start counts characters; the search runs on the whole text, so ^ matches at its start only)
    const cs = [...source];
    if (start - 1 > cs.length) return source;
    re.lastIndex = cs.slice(0, start - 1).join('').length;
    const all = n === 0 || (n === undefined && flags.includes('g'));
    const nth = n ?? 1;
    let out = '';
    let last = 0;
    let count = 0;
    for (let m = re.exec(source); m !== null; m = re.exec(source)) {
      count++;
      if (all || count === nth) {
        const match = m;
        const expanded = replacement.replace(/\\([1-9&\\])/g, (_x, c: string) =>
          c === '&' ? match[0] : c === '\\' ? '\\' : (match[Number(c)] ?? ''),
        );
        out += source.slice(last, m.index) + expanded;
        last = m.index + m[0].length;
        if (!all) break;
      }
      if (m[0].length === 0) re.lastIndex++;
    }
    return out + source.slice(last);
  });
  // regexp_count, regexp_instr, regexp_like, regexp_substr; the pattern compilation they share with these
  installPgRegexpSearch(db);
  // a match as PostgreSQL's text[]: the groups' texts, or the whole match when the pattern has none
  const matchArray = (m: RegExpMatchArray) => arrayText(m.length > 1 ? m.slice(1).map((x) => x ?? null) : [m[0]]);
  // substring(x FROM 'pattern'): the first group's text, else the whole match; NULL for none
  db.function('__pg_substring_regex', { deterministic: true }, (x: unknown, p: unknown) => {
    if (x === null || p === null) return null;
    const m = String(x).match(compileRegex(p));
    return m ? (m.length > 1 ? (m[1] ?? null) : m[0]) : null;
  });
  // regexp_match(s, p [, flags]): the first match as text[], NULL for none
  db.function('regexp_match', { deterministic: true, varargs: true }, (...args: unknown[]) => {
    if (args.length < 2 || args.length > 3)
      throw sqlStateError('42883', 'function regexp_match takes 2 or 3 arguments');
    if (args.some((a) => a === null)) return null;
    const m = String(args[0]).match(compileRegex(args[1], String(args[2] ?? '').replace('g', '')));
    return m ? matchArray(m) : null;
  });
  // regexp_split_to_array(s, p [, flags]): the texts between matches; a zero-length match at the start,
  // at the end or right after another match splits nothing (as PostgreSQL's)
  const split = (str: unknown, p: unknown, flags: unknown): string[] => {
    const s = String(str);
    const out: string[] = [];
    let start = 0;
    let lastEnd = -1;
    for (const m of s.matchAll(compileRegex(p, `${String(flags ?? '').replace('g', '')}g`))) {
      const at = m.index ?? 0;
      if (m[0].length === 0 && (at === 0 || at >= s.length || at === lastEnd)) continue;
      out.push(s.slice(start, at));
      start = lastEnd = at + m[0].length;
    }
    out.push(s.slice(start));
    return out;
  };
  db.function('regexp_split_to_array', { deterministic: true, varargs: true }, (...args: unknown[]) => {
    if (args.length < 2 || args.length > 3)
      throw sqlStateError('42883', 'function regexp_split_to_array takes 2 or 3 arguments');
    if (args.some((a) => a === null)) return null;
    return arrayText(split(args[0], args[1], args[2]));
  });
  // regexp_split_to_table(s, p [, flags]): the same texts, one row each
  valueTable(db, 'regexp_split_to_table', {
    columns: ['value'],
    parameters: ['s', 'p', 'flags'].map(hiddenName),
    *rows(str: unknown, p: unknown, flags: unknown) {
      if (str === null || p === null || str === undefined || p === undefined) return;
      for (const x of split(str, p, flags)) yield [x];
    },
  });
  // regexp_matches(s, p [, flags]): one row per match ('g': every one), each a text[]
  valueTable(db, '__pg_regexp_matches', {
    columns: ['value'],
    parameters: ['s', 'p', 'flags'].map(hiddenName),
    *rows(str: unknown, p: unknown, flags: unknown) {
      if (str === null || p === null || str === undefined || p === undefined) return;
      const f = flags === undefined || flags === null ? '' : String(flags);
      const re = compileRegex(p, f.includes('g') ? f : `${f}g`);
      for (const m of String(str).matchAll(re)) {
        yield [matchArray(m)];
        if (!f.includes('g')) return;
      }
    },
  });
}
