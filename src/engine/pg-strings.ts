import { createHash, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { pgFormat, quoteIdent, quoteLiteral } from './pg-format';
import { sqlStateError } from '../errors';

// PostgreSQL's string functions that SQLite lacks or spells differently, as ORMs and hand-written
// SQL call them (left, lpad, split_part, initcap, md5, ...). On every connection a PG statement can
// run on, as the strict casts of pg-functions.ts are. NULL in, NULL out, as PostgreSQL's are strict.

const chars = (x: unknown) => [...String(x)];
const count = (x: unknown) => (typeof x === 'bigint' ? Number(x) : Number(x));

/** The longest text repeat, lpad and rpad make (PostgreSQL's limit is 1 GB; the agent's memory is shared). */
const MAX_CHARS = 100_000_000;

function checkLength(n: number): void {
  if (n > MAX_CHARS)
    throw sqlStateError('54000', `requested length too large: at most ${MAX_CHARS.toLocaleString('en')} characters`);
}

/** lpad/rpad: `s` cut or filled to `n` characters with `fill` repeated (PostgreSQL cuts on the right either way). */
function pad(s: unknown, n: unknown, fill: unknown, left: boolean): string {
  const cs = chars(s);
  const len = Math.max(0, count(n));
  checkLength(len);
  if (cs.length >= len) return cs.slice(0, len).join('');
  const f = chars(fill === undefined ? ' ' : fill);
  if (f.length === 0) return cs.join('');
  const need = len - cs.length;
  const filler = Array.from({ length: need }, (_, i) => f[i % f.length]).join('');
  return left ? filler + cs.join('') : cs.join('') + filler;
}

/**
 * One character's upper case as PostgreSQL's towupper gives it in a UTF8 database (C.UTF-8 or a
 * glibc locale): Unicode's simple mapping, one character for one. JavaScript's toUpperCase is the
 * full mapping, which makes two of some (ß is SS, ﬁ is FI): those keep the character, but the Greek
 * vowels with a iota below, whose simple mapping is their capital with the iota (ᾳ is ᾼ).
 */
function upperChar(c: string): string {
  const u = c.toUpperCase();
  if (u.length === 1 || (u.length === 2 && u.codePointAt(0)! > 0xffff)) return u;
  const code = c.codePointAt(0)!;
  if ((code >= 0x1f80 && code <= 0x1faf && (code & 0xf) < 8) || code === 0x1fb3 || code === 0x1fc3 || code === 0x1ff3)
    return String.fromCodePoint(code >= 0x1fb0 ? code + 9 : code + 8);
  return c;
}

/** One character's lower case, as towlower (İ is i; JavaScript's full mapping adds a combining dot). */
const lowerChar = (c: string): string => (c === '\u0130' ? 'i' : c.toLowerCase());

/**
 * Text to the case PostgreSQL's lower() or upper() gives in a UTF8 database: every letter, one
 * character at a time (no final sigma, no ß to SS); ASCII text takes the quick way.
 */
export function pgCase(x: unknown, upper: boolean): unknown {
  if (x === null || x === undefined) return null;
  // SQLite's text of a value that is not text (its lower() took any value: an INTEGER comes as a
  // bigint, a REAL as a number), a blob's bytes as UTF-8
  const s =
    typeof x === 'string'
      ? x
      : x instanceof Uint8Array
        ? Buffer.from(x).toString('utf8')
        : typeof x === 'number' && Number.isInteger(x) && Math.abs(x) < 1e15
          ? `${x}.0`
          : String(x);
  if (/^[\x00-\x7f]*$/.test(s)) return upper ? s.toUpperCase() : s.toLowerCase();
  let out = '';
  for (const c of s) out += upper ? upperChar(c) : lowerChar(c);
  return out;
}

/** initcap: the first letter of each run of letters and digits upper case, the rest lower case. */
function initcap(s: string): string {
  let out = '';
  let inWord = false;
  for (const c of s) {
    const alnum = /[\p{Alphabetic}\p{N}]/u.test(c);
    out += alnum ? (inWord ? lowerChar(c) : upperChar(c)) : c;
    inWord = alnum;
  }
  return out;
}

/** split_part(s, delimiter, n): the n-th field (from the end when negative), '' past the last. */
function splitPart(s: string, delim: string, n: number): string {
  if (n === 0) throw sqlStateError('22023', 'field position must not be zero');
  const parts = delim === '' ? [s] : s.split(delim);
  const at = n > 0 ? n - 1 : parts.length + n;
  return parts[at] ?? '';
}

export function installPgStringFunctions(db: Database.Database): void {
  const fn = (name: string, f: (...args: unknown[]) => unknown, deterministic = true) =>
    db.function(name, { deterministic, varargs: true }, (...args: unknown[]) =>
      args.some((a) => a === null) ? null : (f(...args) as never),
    );
  for (const name of ['char_length', 'character_length']) fn(name, (s) => chars(s).length);
  // quoting as PostgreSQL's: an identifier quoted unless plain and no reserved word, a literal as
  // E'...' when it holds a backslash (they were the catalog connection's only: 42883 beside a table)
  fn('quote_ident', (s) => quoteIdent(String(s)));
  fn('quote_literal', (s) => quoteLiteral(String(s)));
  db.function('quote_nullable', { deterministic: true }, (s: unknown) =>
    s === null ? 'NULL' : quoteLiteral(String(s)),
  );
  // PostgreSQL's format() (SQLite's format is printf): not strict, a NULL argument is formatted
  db.function('__pg_format', { deterministic: true, varargs: true }, (fmt: unknown, ...args: unknown[]) =>
    pgFormat(fmt, args),
  );
  fn('strpos', (s, sub) => {
    const at = String(s).indexOf(String(sub));
    return at < 0 ? 0 : chars(String(s).slice(0, at)).length + 1;
  });
  fn('left', (s, n) => {
    const cs = chars(s);
    const k = count(n);
    return (k >= 0 ? cs.slice(0, k) : cs.slice(0, Math.max(0, cs.length + k))).join('');
  });
  fn('right', (s, n) => {
    const cs = chars(s);
    const k = count(n);
    return (k >= 0 ? cs.slice(Math.max(0, cs.length - k)) : cs.slice(Math.min(cs.length, -k))).join('');
  });
  fn('lpad', (s, n, f) => pad(s, n, f, true));
  fn('rpad', (s, n, f) => pad(s, n, f, false));
  fn('repeat', (s, n) => {
    const k = Math.max(0, count(n));
    checkLength(String(s).length * k);
    return String(s).repeat(k);
  });
  fn('reverse', (s) => chars(s).reverse().join(''));
  fn('split_part', (s, d, n) => splitPart(String(s), String(d), count(n)));
  fn('initcap', (s) => initcap(String(s)));
  // lower() and upper() of every letter (SQLite's change ASCII letters only); the PG dialect calls these
  db.function('__pg_lower', { deterministic: true, safeIntegers: true }, (x: unknown) => pgCase(x, false) as string);
  db.function('__pg_upper', { deterministic: true, safeIntegers: true }, (x: unknown) => pgCase(x, true) as string);
  // md5(bytea) hashes the bytes (String() of a blob was its UTF-8 reading, losing the bytes that are no UTF-8)
  fn('md5', (s) =>
    createHash('md5')
      .update(s instanceof Uint8Array ? s : typeof s === 'string' ? s : String(s))
      .digest('hex'),
  );
  fn('gen_random_uuid', () => randomUUID(), false);
  // text cast to bytea as PostgreSQL reads it: \x and hex digits, else the escape format
  // starts_with(s, prefix), true when s begins with prefix (as text, by code points)
  db.function('starts_with', { deterministic: true }, (x: unknown, p: unknown) =>
    x === null || p === null ? null : String(x).startsWith(String(p)) ? 1 : 0,
  );
  // bytea LIKE bytea (translate/like.ts): the bytes matched, % and _ per byte, as PostgreSQL's
  // byte-wise LIKE (SQLite's GLOB read the blob as text, stopping at a zero byte)
  db.function('__pg_bytea_like', { deterministic: true, varargs: true }, (x: unknown, p: unknown, e?: unknown) => {
    if (x === null || p === null || e === null) return null;
    const bytes = (v: unknown) => (v instanceof Uint8Array ? v : byteaInput(String(v)));
    const esc = e === undefined ? 0x5c : bytes(e);
    if (typeof esc !== 'number' && esc.length > 1)
      throw sqlStateError('22025', 'invalid escape string', 'user', 'Escape string must be empty or one character.');
    return byteaLike(bytes(x), bytes(p), typeof esc === 'number' ? esc : esc.length === 0 ? -1 : esc[0]) ? 1 : 0;
  });
  db.function('__pg_bytea', { deterministic: true }, (x: unknown) =>
    x === null || x === undefined ? null : x instanceof Uint8Array ? x : byteaInput(String(x)),
  );
  // bytea || bytea (a side given as text read as bytea input, as PostgreSQL reads an untyped literal there)
  db.function('__pg_bytea_concat', { deterministic: true }, (a: unknown, b: unknown) => {
    if (a === null || a === undefined || b === null || b === undefined) return null;
    const bytes = (x: unknown) => (x instanceof Uint8Array ? x : byteaInput(String(x)));
    return Buffer.concat([bytes(a), bytes(b)]);
  });
  // bytea to and from text (hex, base64, escape), the SHA-2 digests, div()
  fn('encode', (b, f) => encode(bytesOf(b), String(f).toLowerCase()));
  fn('decode', (t, f) => decode(String(t), String(f).toLowerCase()));
  for (const alg of ['sha224', 'sha256', 'sha384', 'sha512'])
    fn(alg, (b) => createHash(alg).update(bytesOf(b)).digest());
  fn('div', (a, b) => {
    const x = Number(a);
    const y = Number(b);
    // (numeric's NaN, the text NaN: Number makes it NaN, which SQLite would make NULL)
    if (Number.isNaN(x) || Number.isNaN(y)) return 'NaN';
    if (y === 0) throw sqlStateError('22012', 'division by zero');
    return Math.trunc(x / y);
  });
  fn('cbrt', (x) => Math.cbrt(Number(x)));
  fn('ascii', (s) => String(s).codePointAt(0) ?? 0);
  fn('chr', (n) => {
    const c = Number(n);
    if (c < 0) throw sqlStateError('22023', 'character number must be positive');
    if (c === 0) throw sqlStateError('54000', 'null character not permitted');
    if (c >= 0xd800 && c <= 0xdfff) throw sqlStateError('54000', `requested character not valid for encoding: ${n}`);
    if (!Number.isInteger(c) || c < 0 || c > 0x10ffff)
      throw sqlStateError('54000', `requested character too large for encoding: ${n}`);
    return String.fromCodePoint(c);
  });
  // btrim, ltrim and rtrim (the PG front end calls these): of text the characters of the set (a
  // space by default) cut from the ends, as SQLite's trim; of a bytea (a blob) its bytes, a blob
  // (SQLite's made text of them)
  for (const [name, left, right] of [
    ['__pg_btrim', true, true],
    ['__pg_ltrim', true, false],
    ['__pg_rtrim', false, true],
  ] as const)
    fn(name, (s, set) => trim(s, set, left, right));
  // overlay(x PLACING y FROM a [FOR b]): y in place of the b characters of x from a (b: y's length)
  fn('__pg_overlay', (x, y, a, b) => {
    // of a bytea, its bytes (byteaoverlay), y read as bytea input where it came as text (an
    // untyped literal); as characters, a blob's bytes became replacement characters
    if (x instanceof Uint8Array) {
      const ys = y instanceof Uint8Array ? y : byteaInput(String(y));
      const at = count(a);
      const len = b === undefined ? ys.length : count(b);
      if (at < 1 || len < 0) throw sqlStateError('22011', 'negative substring length not allowed');
      return Buffer.concat([x.subarray(0, at - 1), ys, x.subarray(Math.min(at - 1 + len, x.length))]);
    }
    const cs = chars(x);
    const start = count(a);
    const n = b === undefined ? chars(y).length : count(b);
    // PostgreSQL's overlay is substring(x, 1, a - 1) || y || substring(x, a + n): a before 1 is a negative length
    if (start < 1 || n < 0) throw sqlStateError('22011', 'negative substring length not allowed');
    return [...cs.slice(0, Math.max(start - 1, 0)), String(y), ...cs.slice(Math.max(start - 1 + n, 0))].join('');
  });
  fn('bit_length', (s) => (s instanceof Uint8Array ? s.length : Buffer.byteLength(String(s))) * 8);
  // (an empty format is NULL, as PostgreSQL's numeric_to_number answers it)
  fn('to_number', (s, f) => (String(f) === '' ? null : toNumber(String(s), String(f))));
  // SIMILAR TO's pattern as the regular expression `regexp` runs (protocols/pg/sql/translate/like.ts)
  db.function('__pg_similar', { deterministic: true, varargs: true }, (p: unknown, e?: unknown) =>
    p === null || p === undefined || e === null ? null : similarToRegex(String(p), e === undefined ? '\\' : String(e)),
  );
  // translate(s, from, to): each character of `from` becomes the one at its place in `to`, or is dropped
  fn('translate', (s, from, to) => {
    const f = chars(from);
    const t = chars(to);
    const map = new Map<string, string>();
    f.forEach((c, i) => {
      if (!map.has(c)) map.set(c, t[i] ?? '');
    });
    return chars(s)
      .map((c) => map.get(c) ?? c)
      .join('');
  });
  // substr/substring as PostgreSQL counts: positions before 1 are cut off, not counted from the end
  // (SQLite's substr('hello', -1, 3) is 'o', PostgreSQL's 'h'); a negative length is an error
  fn('__pg_substr', (s, start, n) => substring(s, count(start), n === undefined ? undefined : count(n)));
}

/** `s` without the characters (bytes of a bytea) of `set` at its start (`left`) and end (`right`). */
function trim(s: unknown, set: unknown, left: boolean, right: boolean): unknown {
  // (an untyped literal beside a bytea is bytea input, as PostgreSQL reads it)
  const bytes = s instanceof Uint8Array || set instanceof Uint8Array;
  const xs: (string | number)[] = bytes ? [...bytesOf(s)] : chars(s);
  const cut = new Set<string | number>(
    set === undefined ? [' '] : bytes ? [...(set instanceof Uint8Array ? set : bytesOf(set))] : chars(set),
  );
  let from = 0;
  let to = xs.length;
  while (left && from < to && cut.has(xs[from])) from++;
  while (right && to > from && cut.has(xs[to - 1])) to--;
  return bytes ? Buffer.from(xs.slice(from, to) as number[]) : (xs as string[]).slice(from, to).join('');
}

/** PostgreSQL's substr(s, start [, n]) over characters (bytes of a bytea). */
function substring(s: unknown, start: number, n: number | undefined): unknown {
  if (n !== undefined && n < 0) throw sqlStateError('22011', 'negative substring length not allowed');
  const end = n === undefined ? Infinity : start + n; // exclusive, 1-based
  const from = Math.max(start, 1) - 1;
  const to = end === Infinity ? undefined : Math.max(end - 1, from);
  if (s instanceof Uint8Array) return s.subarray(from, to);
  return chars(s).slice(from, to).join('');
}

/** A bytea operand: a blob as it is, text as its UTF-8 bytes (an unknown literal PostgreSQL would read as bytea text). */
function bytesOf(x: unknown): Buffer {
  if (x instanceof Uint8Array) return Buffer.from(x);
  const t = String(x);
  return t.startsWith('\\x') ? Buffer.from(t.slice(2), 'hex') : Buffer.from(t, 'utf8');
}

function encode(b: Buffer, format: string): string {
  if (format === 'hex') return b.toString('hex');
  if (format === 'base64') return (b.toString('base64').match(/.{1,76}/g) ?? ['']).join('\n');
  if (format === 'escape') {
    let out = '';
    for (const c of b)
      out += c === 92 ? '\\\\' : c === 0 || c > 127 ? '\\' + c.toString(8).padStart(3, '0') : String.fromCharCode(c);
    return out;
  }
  throw sqlStateError('22023', `unrecognized encoding: "${format}"`);
}

function decode(t: string, format: string): Buffer {
  if (format === 'hex') {
    const h = t.replace(/\s+/g, '');
    const bad = /[^0-9a-fA-F]/.exec(h);
    if (bad) throw sqlStateError('22023', `invalid hexadecimal digit: "${bad[0]}"`);
    if (h.length % 2) throw sqlStateError('22023', 'invalid hexadecimal data: odd number of digits');
    return Buffer.from(h, 'hex');
  }
  if (format === 'base64') return Buffer.from(t.replace(/\s+/g, ''), 'base64');
  if (format === 'escape') {
    const out: number[] = [];
    for (let i = 0; i < t.length; i++) {
      if (t[i] === '\\' && t[i + 1] === '\\') out.push(92), i++;
      else if (t[i] === '\\' && /^[0-7]{3}$/.test(t.slice(i + 1, i + 4)))
        out.push(parseInt(t.slice(i + 1, i + 4), 8)), (i += 3);
      else out.push(...Buffer.from(t[i], 'utf8'));
    }
    return Buffer.from(out);
  }
  throw sqlStateError('22023', `unrecognized encoding: "${format}"`);
}

/**
 * bytea's text under bytea_output = escape, as PostgreSQL's byteaout: printable ASCII as itself, a
 * backslash doubled, any other byte as \ and three octal digits ('A\377'). (encode(b, 'escape')
 * escapes fewer: only NUL and bytes above 0x7f.)
 */
export function byteaEscapeText(b: Uint8Array): string {
  let out = '';
  for (const c of b)
    out += c === 92 ? '\\\\' : c < 0x20 || c > 0x7e ? `\\${c.toString(8).padStart(3, '0')}` : String.fromCharCode(c);
  return out;
}

/** bytea's text input: `\\x` then hex digits (spaces between pairs allowed), else the escape format. */
export function byteaInput(t: string): Buffer {
  if (t.startsWith('\\x')) return decode(t.slice(2), 'hex');
  for (let i = 0; i < t.length; i++)
    if (t[i] === '\\' && t[i + 1] !== '\\' && !/^[0-3][0-7]{2}$/.test(t.slice(i + 1, i + 4)))
      throw sqlStateError('22P02', 'invalid input syntax for type bytea');
    else if (t[i] === '\\') i += t[i + 1] === '\\' ? 1 : 3;
  return decode(t, 'escape');
}

/**
 * A SIMILAR TO pattern as a JavaScript regular expression, as PostgreSQL's similar_escape reads it:
 * anchored at both ends; `%` any characters and `_` one (newlines too); `|`, `*`, `+`, `?`, `{m,n}`,
 * groups and bracket expressions as in a regular expression; `.`, `^`, `$` and other characters
 * literal; the escape character (default `\`) makes the next one literal.
 */
export function similarToRegex(p: string, esc: string): string {
  if (esc.length > 1) throw sqlStateError('22025', 'invalid escape string: it must be empty or one character');
  const cs = chars(p);
  let out = '';
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i];
    if (esc !== '' && c === esc) {
      const next = cs[++i];
      if (next === undefined)
        throw sqlStateError('2201B', 'invalid regular expression: pattern ends in the escape character');
      out += next.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
    } else if (c === '[') {
      // a bracket expression, up to its closing ] (one right after [ or [^ belongs to it)
      let j = i + 1;
      if (cs[j] === '^') j++;
      if (cs[j] === ']') j++;
      while (j < cs.length && cs[j] !== ']') j++;
      out += cs
        .slice(i, j + 1)
        .join('')
        .replace(/\\/g, '\\\\');
      i = j;
    } else if (c === '%') out += '[\\s\\S]*';
    else if (c === '_') out += '[\\s\\S]';
    else if ('|*+?{}()'.includes(c)) out += c;
    else out += c.replace(/[\\^$.\]/-]/g, '\\$&');
  }
  return `^(?:${out})$`;
}

/**
 * to_number(text, format) for the number patterns BI tools write: digits by `9` and `0`, the point
 * by `.` or `D`, group separators (`,`, `G`) and `FM` skipped, a sign from `-`, `S`, `MI` or `PR`'s
 * angle brackets. What the format does not place is ignored, as PostgreSQL reads loosely outside FX.
 */
function toNumber(s: string, format: string): number {
  const f = format.toUpperCase();
  const point = f.includes('D') || f.includes('.');
  let t = s.trim();
  let neg = false;
  if (/^<.*>$/.test(t)) {
    neg = true;
    t = t.slice(1, -1);
  }
  if (/-/.test(t)) neg = true;
  const decimalSep = f.includes('D') || f.includes('.') ? '.' : null;
  let digits = '';
  let seenPoint = false;
  for (const c of t) {
    if (c >= '0' && c <= '9') digits += c;
    else if (point && c === decimalSep && !seenPoint) {
      digits += '.';
      seenPoint = true;
    }
  }
  if (digits === '' || digits === '.') throw sqlStateError('22P02', `invalid input syntax for type numeric: "${s}"`);
  const v = Number(digits);
  return neg ? -v : v;
}

/**
 * Whether bytes `x` match LIKE pattern `p` (% any run, _ any byte, `esc` the escape byte or -1 for
 * none), as PostgreSQL's MatchText over bytes: a pattern ending in the escape is 22025.
 */
export function byteaLike(x: Uint8Array, p: Uint8Array, esc: number): boolean {
  // (the places tried after a % that failed: each once, not once per way of reaching it)
  const failed = new Set<number>();
  const match = (i: number, j: number): boolean => {
    const key = i * (p.length + 1) + j;
    if (failed.has(key)) return false;
    const found = step(i, j);
    if (!found) failed.add(key);
    return found;
  };
  const step = (i: number, j: number): boolean => {
    for (; j < p.length; j++) {
      const c = p[j];
      if (c === esc) {
        if (j + 1 === p.length) throw sqlStateError('22025', 'LIKE pattern must not end with escape character');
        if (i >= x.length || x[i] !== p[++j]) return false;
        i++;
      } else if (c === 0x25) {
        // a run of % matches anything: try each rest of x
        while (p[j + 1] === 0x25) j++;
        if (j + 1 === p.length) return true;
        for (let k = i; k <= x.length; k++) if (match(k, j + 1)) return true;
        return false;
      } else if (c === 0x5f) {
        if (i >= x.length) return false;
        i++;
      } else {
        if (i >= x.length || x[i] !== c) return false;
        i++;
      }
    }
    return i === x.length;
  };
  return match(0, 0);
}
