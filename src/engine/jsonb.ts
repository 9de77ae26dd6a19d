// JSON values as jsonb models them: objects as Maps (the last of duplicate keys kept), numbers as
// their text (exact, 64-bit integers and long decimals included). jsonb's text as PostgreSQL prints
// it: keys sorted (shorter first, then by bytes), ', ' and ': ' between items, numbers as numeric
// prints them ('2e2' is 200), strings re-escaped.
import { sqlStateError } from '../errors';
import { decimalText, parseDecimal } from './decimal';

export type Json = null | boolean | { num: string } | string | Json[] | Map<string, Json>;

/** Reads JSON keeping each number's text; throws on anything else. */
export function parseJson(s: string): Json {
  let i = 0;
  const space = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`invalid JSON at ${i}`);
  };
  const value = (): Json => {
    space();
    const c = s[i];
    if (c === '{') {
      i++;
      const m = new Map<string, Json>();
      space();
      if (s[i] === '}') return (i++, m);
      for (;;) {
        space();
        if (s[i] !== '"') fail();
        const k = string();
        space();
        if (s[i++] !== ':') fail();
        m.delete(k); // the last of duplicate keys wins
        m.set(k, value());
        space();
        if (s[i] === '}') return (i++, m);
        if (s[i++] !== ',') fail();
      }
    }
    if (c === '[') {
      i++;
      const a: Json[] = [];
      space();
      if (s[i] === ']') return (i++, a);
      for (;;) {
        a.push(value());
        space();
        if (s[i] === ']') return (i++, a);
        if (s[i++] !== ',') fail();
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const)
      if (s.startsWith(word, i)) return ((i += word.length), v);
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(s.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
    return { num: m![0] };
  };
  const string = (): string => {
    const m = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(s.slice(i));
    if (!m) fail();
    i += m![0].length;
    return JSON.parse(m![0]) as string;
  };
  const v = value();
  space();
  if (i !== s.length) fail();
  return v;
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** A string as JSON, escaped as PostgreSQL's escape_json writes it. */
export function quote(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what gets escaped
  return `"${s.replace(/["\\\u0000-\u001f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** jsonb's order of object keys: shorter first, then by bytes. */
export function byKey(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length - y.length || Buffer.compare(x, y);
}

export function printJsonb(v: Json): string {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'string') return quote(v);
  if (Array.isArray(v)) return `[${v.map(printJsonb).join(', ')}]`;
  if (v instanceof Map)
    return `{${[...v.keys()]
      .sort(byKey)
      .map((k) => `${quote(k)}: ${printJsonb(v.get(k)!)}`)
      .join(', ')}}`;
  return decimalText(parseDecimal(v.num)!);
}

/** A json or jsonb operand: its parsed value, or 22P02 as PostgreSQL answers text that is no JSON. */
export function jsonOperand(x: unknown): Json {
  try {
    return parseJson(typeof x === 'string' ? x : String(x));
  } catch {
    throw sqlStateError('22P02', `invalid input syntax for type json: ${JSON.stringify(String(x)).slice(0, 80)}`);
  }
}

/** jsonb's text of JSON text; null when it is no JSON. */
export function jsonbText(s: string): string | null {
  try {
    return printJsonb(parseJson(s));
  } catch {
    return null;
  }
}

// jsonb's operators that SQLite lacks (PostgreSQL's jsonb_contains, jsonb_exists, jsonb_extract_path
// and jsonb_delete_path), on parsed values. protocols/pg/sql/translate/pg-semantics.ts turns `a @> b` and the
// others into calls of the SQL functions src/engine/pg-functions.ts makes of these.

/** A number's value as text without an exponent or trailing zeros ('1.50' and '15e-1' are '1.5'). */
function numberKey(text: string): string {
  const d = parseDecimal(text)!;
  return decimalText({ ...d, frac: d.frac.replace(/0+$/, '') });
}

function sameScalar(a: Json, b: Json): boolean {
  if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || a instanceof Map || Array.isArray(b) || b instanceof Map) return false;
  return numberKey(a.num) === numberKey(b.num);
}

const isContainer = (v: Json): v is Json[] | Map<string, Json> => Array.isArray(v) || v instanceof Map;

/**
 * `a @> b`: every key and value of an object in b is in a's object, every element of an array in b is
 * in a's array (containers contained by some container of a), scalars equal. At the top level an
 * array contains a scalar that is one of its elements (PostgreSQL stores a lone scalar as an array).
 */
export function jsonbContains(a: Json, b: Json): boolean {
  if (Array.isArray(a) && !isContainer(b)) return a.some((x) => !isContainer(x) && sameScalar(x, b));
  return contains(a, b);
}

function contains(a: Json, b: Json): boolean {
  if (a instanceof Map) {
    if (!(b instanceof Map)) return false;
    for (const [k, v] of b) {
      if (!a.has(k)) return false;
      const x = a.get(k)!;
      if (isContainer(v) ? !contains(x, v) : isContainer(x) || !sameScalar(x, v)) return false;
    }
    return true;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return false;
    return b.every((v) =>
      isContainer(v) ? a.some((x) => contains(x, v)) : a.some((x) => !isContainer(x) && sameScalar(x, v)),
    );
  }
  return !isContainer(b) && sameScalar(a, b);
}

/** `a ? key`: a key of a's object, a string element of its array, or a's string itself. */
export function jsonbHasKey(a: Json, key: string): boolean {
  if (a instanceof Map) return a.has(key);
  if (Array.isArray(a)) return a.some((x) => x === key);
  return a === key;
}

/** The element of an array a path step names ('-1' is the last), or undefined. */
function arrayIndex(a: Json[], step: string): number | undefined {
  if (!/^\s*[+-]?\d+\s*$/.test(step)) return undefined;
  const n = Number(step);
  const i = n < 0 ? a.length + n : n;
  return i >= 0 && i < a.length ? i : undefined;
}

/** `a #> path`: the value at the path (object keys, array indexes), or undefined when there is none. */
export function jsonbPath(a: Json, path: string[]): Json | undefined {
  let v: Json | undefined = a;
  for (const step of path) {
    if (v instanceof Map) v = v.get(step);
    else if (Array.isArray(v)) {
      const i = arrayIndex(v, step);
      v = i === undefined ? undefined : v[i];
    } else return undefined;
    if (v === undefined) return undefined;
  }
  return v;
}

/**
 * jsonb's `a -> i` (jsonb_array_element): element i of an array, -1 the last, undefined past either
 * end or of an object. A scalar is the one element of its array in jsonb's own layout (a raw
 * scalar is stored as a one-element array marked scalar), so `'"a"'::jsonb -> 0` and `-> -1` are
 * "a" in PostgreSQL; json's is NULL there (SQLite's -> too).
 */
export function jsonbElement(a: Json, i: number): Json | undefined {
  if (a instanceof Map) return undefined;
  const xs = Array.isArray(a) ? a : [a];
  const k = i < 0 ? xs.length + i : i;
  return k >= 0 && k < xs.length ? xs[k] : undefined;
}

/**
 * `a - key`, `a - keys` (text[]) and `a - index`: an object without those keys, an array without
 * its string elements equal to one of them or without the element at the index ('-1' the last).
 */
export function jsonbMinus(a: Json, keys: string[] | null, index: number | null): Json {
  if (!isContainer(a)) throw sqlStateError('22023', 'cannot delete from scalar');
  if (index !== null) {
    if (!Array.isArray(a)) throw sqlStateError('22023', 'cannot delete from object using integer index');
    const i = index < 0 ? a.length + index : index;
    return i >= 0 && i < a.length ? a.filter((_, k) => k !== i) : a;
  }
  const drop = new Set(keys);
  if (Array.isArray(a)) return a.filter((x) => typeof x !== 'string' || !drop.has(x));
  return new Map([...a].filter(([k]) => !drop.has(k)));
}

/** `a #- path`: a without the value at the path (a itself when there is none). */
export function jsonbDeletePath(a: Json, path: (string | null)[]): Json {
  if (!isContainer(a)) throw sqlStateError('22023', 'cannot delete path in scalar');
  // (an empty document is itself, whatever the path: PostgreSQL looks at none of it)
  if ((a instanceof Map ? a.size : a.length) === 0) return a;
  return deletePath(a, path, 0);
}

function deletePath(a: Json, path: (string | null)[], at: number): Json {
  if (at >= path.length) return a;
  const step = path[at];
  if (step === null) throw sqlStateError('22004', `path element at position ${at + 1} is null`);
  if (!isContainer(a)) return a;
  const last = at === path.length - 1;
  if (a instanceof Map) {
    if (!a.has(step)) return a;
    const out = new Map(a);
    if (last) out.delete(step);
    else out.set(step, deletePath(a.get(step)!, path, at + 1));
    return out;
  }
  if (!/^\s*[+-]?\d+\s*$/.test(step))
    throw sqlStateError('22P02', `path element at position ${at + 1} is not an integer: "${step}"`);
  const i = arrayIndex(a, step);
  if (i === undefined) return a;
  const out = [...a];
  if (last) out.splice(i, 1);
  else out[i] = deletePath(a[i], path, at + 1);
  return out;
}

/** jsonb's rank of a value's kind in its order: null, string, number, boolean, then arrays, objects. */
function kindRank(v: Json): number {
  if (v === null) return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 3;
  if (Array.isArray(v)) return 16;
  if (v instanceof Map) return 17;
  return 2;
}

/** Two numbers' order by value, exactly. */
export function compareNumbers(a: string, b: string): number {
  const x = parseDecimal(a)!;
  const y = parseDecimal(b)!;
  const zx = !/[1-9]/.test(x.int + x.frac);
  const zy = !/[1-9]/.test(y.int + y.frac);
  const sx = zx ? 0 : x.neg ? -1 : 1;
  const sy = zy ? 0 : y.neg ? -1 : 1;
  if (sx !== sy) return sx < sy ? -1 : 1;
  if (sx === 0) return 0;
  const width = Math.max(x.frac.length, y.frac.length);
  const [ix, iy] = [x.int.replace(/^0+/, ''), y.int.replace(/^0+/, '')];
  let c = ix.length - iy.length;
  if (c === 0) {
    const [fx, fy] = [x.frac.padEnd(width, '0'), y.frac.padEnd(width, '0')];
    c = ix + fx < iy + fy ? -1 : ix + fx > iy + fy ? 1 : 0;
  }
  return sx < 0 ? -Math.sign(c) : Math.sign(c);
}

/**
 * PostgreSQL's order of jsonb values (compareJsonbContainers, the order of `ORDER BY` and `<` on
 * jsonb): an object after an array after a boolean after a number after a string after null; of
 * two arrays the longer, a top-level scalar before an array of as many elements; of two objects the
 * one of more pairs, then pair by pair in key order (shorter keys first); elements one by one;
 * strings by their bytes (the C collation), numbers by value. A negative number, 0 or a positive one.
 */
export function compareJsonb(a: Json, b: Json): number {
  // a top-level scalar is a one-element "raw scalar" array to PostgreSQL
  const top = (v: Json) => (Array.isArray(v) || v instanceof Map ? v : { raw: v });
  const x = top(a);
  const y = top(b);
  const rawX = !Array.isArray(x) && !(x instanceof Map);
  const rawY = !Array.isArray(y) && !(y instanceof Map);
  if (rawX || rawY) {
    const lx = rawX ? 1 : Array.isArray(x) ? x.length : -1;
    const ly = rawY ? 1 : Array.isArray(y) ? y.length : -1;
    if (lx >= 0 && ly >= 0) {
      // both arrays to PostgreSQL: fewer elements first, else the raw scalar first
      if (lx !== ly) return lx > ly ? 1 : -1;
      if (rawX !== rawY) return rawX ? -1 : 1;
      return compareValues(a, b);
    }
    // a raw scalar (an array) against an object
    return rawX ? -1 : 1;
  }
  return compareValues(a, b);
}

function compareValues(a: Json, b: Json): number {
  const [ka, kb] = [kindRank(a), kindRank(b)];
  if (ka !== kb) return ka < kb ? -1 : 1;
  if (a === null || b === null) return 0;
  if (typeof a === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b as string));
  if (typeof a === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a)) {
    const bb = b as Json[];
    if (a.length !== bb.length) return a.length > bb.length ? 1 : -1;
    for (let i = 0; i < a.length; i++) {
      const c = compareValues(a[i], bb[i]);
      if (c !== 0) return c;
    }
    return 0;
  }
  if (a instanceof Map) {
    const bm = b as Map<string, Json>;
    if (a.size !== bm.size) return a.size > bm.size ? 1 : -1;
    const xs = [...a.keys()].sort(byKey);
    const ys = [...bm.keys()].sort(byKey);
    for (let i = 0; i < xs.length; i++) {
      const c = Buffer.compare(Buffer.from(xs[i]), Buffer.from(ys[i])) || compareValues(a.get(xs[i])!, bm.get(ys[i])!);
      if (c !== 0) return c;
    }
    return 0;
  }
  return compareNumbers((a as { num: string }).num, (b as { num: string }).num);
}

/** A key SQLite's `->` reads as that key: not empty, not starting with `$`, no quote or backslash. */
export const safeKey = (k: string): boolean => k !== '' && !k.startsWith('$') && !/["\\]/.test(k);
/** The SQLite JSON path of one object key (`$."a.b"`), escaped as the stored jsonb writes its keys. */
export const jsonPathKey = (k: string): string => `$.${quote(k)}`;
