// Array text as PostgreSQL stores it: '{ a , "b" }'::text[] is {a,b}, '{1.50, 2e0}'::float8[] is
// {1.5,2}, '{t,false}'::bool[] is {t,f}. Patina keeps an array as its text, so the text must be the
// one PostgreSQL prints for equality (`tags = '{a,b}'`), output and the elements read back
// (`tags[1]`) to match. Bind (protocols/pg/types/values.ts), a cast to an array type, a value
// written into an array column (protocols/pg/sql/translate), COPY FROM and the array functions
// (arrayElements in pg-functions.ts) read array text through here.
import { sqlStateError } from '../errors';
import { decimalText, parseDecimal } from './decimal';
import { floatText } from './float-text';
import { castDate, castInterval, castTimestamp, castTimestamptz, dateTimeInput } from './dates';
import { jsonbText } from './jsonb';
import { arrayText, pgBool, pgFloat, pgInteger } from './pg-functions';
import { byteaInput } from './pg-strings';

/** Element types whose arrays are kept in PostgreSQL's form, by the name PostgreSQL's errors give them. */
export type ElementKind =
  | 'smallint'
  | 'integer'
  | 'bigint'
  | 'numeric'
  | 'real'
  | 'double precision'
  | 'boolean'
  | 'text'
  | 'uuid'
  | 'date'
  | 'timestamp without time zone'
  | 'timestamp with time zone'
  | 'time without time zone'
  | 'json'
  | 'jsonb'
  | 'interval'
  | 'bytea';

const KINDS = new Set<string>([
  'smallint',
  'integer',
  'bigint',
  'numeric',
  'real',
  'double precision',
  'boolean',
  'text',
  'uuid',
  'date',
  'timestamp without time zone',
  'timestamp with time zone',
  'time without time zone',
  'json',
  'jsonb',
  'interval',
  'bytea',
]);
export const isElementKind = (k: string): k is ElementKind => KINDS.has(k);

// (PostgreSQL's detail, such as 'Unexpected end of input.', is not carried: the SQLSTATE and message are)
const malformed = (s: string) => sqlStateError('22P02', `malformed array literal: "${s}"`);
const space = (c: string | undefined) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';

/** Array text read as a tree: elements (null for NULL) and, in a multi-dimensional array, sub-arrays. */
export type ArrayTree = (string | null | ArrayTree)[];

/**
 * The elements of one-dimensional array text as array_in reads them (white space around an element
 * dropped, quotes and backslashes undone, an unquoted NULL a NULL); null for text this does not read
 * as one dimension (more dimensions, explicit bounds). 22P02 for text that is no array.
 */
export function parseArrayText(s: string): (string | null)[] | null {
  const tree = parseArrayTree(s);
  return tree === null || tree.some(Array.isArray) ? null : (tree as (string | null)[]);
}

/**
 * Array text written with its bounds (`[0:2]={1,2,3}`, `[0:1][2:3]={{1,2},{3,4}}`, as PostgreSQL
 * prints an array whose lower bound is not 1): each dimension's lower bound and the text after `=`;
 * null for text without them.
 */
export function arrayBounds(s: string): { lbs: number[]; body: string } | null {
  const m = /^\s*((?:\[\s*-?\d+\s*:\s*-?\d+\s*\])+)\s*=\s*(\{.*\})\s*$/s.exec(s);
  return m ? { lbs: [...m[1].matchAll(/\[\s*(-?\d+)\s*:/g)].map((x) => Number(x[1])), body: m[2] } : null;
}

/** Array text as a tree (parseArrayText's reading, sub-arrays included); null for explicit bounds. 22P02 for no array. */
export function parseArrayTree(s: string): ArrayTree | null {
  let i = 0;
  while (space(s[i])) i++;
  if (s[i] === '[') return null;
  if (s[i] !== '{') throw malformed(s);
  const [tree, end] = readLevel(s, i);
  i = end;
  while (space(s[i])) i++;
  if (i < s.length) throw malformed(s);
  return tree;
}

/** The array at s[at] === '{': its items and the index after its '}'. */
function readLevel(s: string, at: number): [ArrayTree, number] {
  let i = at + 1;
  const out: ArrayTree = [];
  while (space(s[i])) i++;
  if (s[i] === '}') return [out, i + 1];
  for (;;) {
    while (space(s[i])) i++;
    if (s[i] === '{') {
      const [sub, end] = readLevel(s, i);
      out.push(sub);
      i = end;
      while (space(s[i])) i++;
      if (s[i] !== ',' && s[i] !== '}') throw malformed(s);
      if (s[i++] === '}') return [out, i];
      continue;
    }
    let item = '';
    let literal = false; // quoted or escaped somewhere: never NULL, never empty by accident
    let kept = 0; // item's length up to its last quoted or escaped character (trailing space cut after it)
    let closed = false; // after a closing quote only white space may come
    for (;;) {
      const c = s[i];
      if (c === undefined) throw malformed(s);
      if (c === ',' || c === '}') break;
      if (closed && !space(c)) throw malformed(s);
      if (c === '{') throw malformed(s);
      if (c === '"') {
        if (item.trim() !== '' || literal) throw malformed(s);
        literal = true;
        item = '';
        for (i++; s[i] !== '"'; i++) {
          if (s[i] === '\\') i++;
          if (s[i] === undefined) throw malformed(s);
          item += s[i];
        }
        kept = item.length;
        closed = true;
      } else if (c === '\\') {
        if (s[i + 1] === undefined) throw malformed(s);
        item += s[++i];
        literal = true;
        kept = item.length;
      } else if (!closed) item += c;
      i++;
    }
    let end = item.length;
    while (end > kept && space(item[end - 1])) end--;
    const text = item.slice(0, end);
    if (text === '' && !literal) throw malformed(s);
    out.push(!literal && text.toUpperCase() === 'NULL' ? null : text);
    if (s[i++] === '}') return [out, i];
  }
}

/**
 * The dimensions of a tree, 22P02 where array_in refuses it: sub-arrays beside elements, or
 * sub-arrays of different lengths ('{{1,2},{3}}') or empty ones ('{{},{}}').
 */
function dimensions(tree: ArrayTree, s: string): number[] {
  if (tree.length === 0) return [];
  const subs = tree.filter(Array.isArray) as ArrayTree[];
  if (subs.length === 0) return [tree.length];
  if (subs.length !== tree.length || subs.some((x) => x.length === 0)) throw malformed(s);
  const inner = dimensions(subs[0], s);
  for (const sub of subs.slice(1)) if (dimensions(sub, s).join(',') !== inner.join(',')) throw malformed(s);
  return inner.length === 0 ? [] : [tree.length, ...inner];
}

/** A tree's text as PostgreSQL prints it ('{{1,2},{3,4}}'), each element through `f`. */
export function treeText(tree: ArrayTree, f: (x: string) => string): string {
  return `{${tree
    .map((x) => (Array.isArray(x) ? treeText(x, f) : arrayText([x === null ? null : f(x)]).slice(1, -1)))
    .join(',')}}`;
}

const UUID = /^\{?((?:[0-9a-f]{4}-?){7}[0-9a-f]{4})\}?$/i;

/**
 * One element read as its type reads text and printed as PostgreSQL prints it. `lenient` for an
 * array an expression built (ARRAY[1.5, 2] into bigint[]): a decimal into an integer type rounds,
 * as the assignment of a numeric does; text input (`lenient` false) is read strictly.
 */
function element(x: string, kind: ElementKind, lenient: boolean): string {
  switch (kind) {
    case 'smallint':
    case 'integer':
    case 'bigint': {
      if (lenient && /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(x) && !/^\s*[+-]?\d+\s*$/.test(x))
        return String(pgInteger(Number(x), kind));
      return String(pgInteger(x, kind));
    }
    case 'numeric': {
      const d = parseDecimal(x);
      if (d === null) throw sqlStateError('22P02', `invalid input syntax for type numeric: "${x}"`);
      return decimalText(d);
    }
    case 'real':
    case 'double precision': {
      const v = pgFloat(x, kind);
      return v === 'NaN'
        ? 'NaN'
        : floatText(kind === 'real' ? Math.fround(v as number) : (v as number), kind === 'real');
    }
    case 'boolean':
      return pgBool(x) ? 't' : 'f';
    case 'uuid':
      return uuidIn(x);
    // dates and times as their columns keep them (a year BC as '/9956', a timestamptz in UTC
    // without '+00'), read as the cast reads them (22007, 22008 as PostgreSQL fails)
    case 'date':
      return castDate(x)!;
    case 'timestamp without time zone':
      return castTimestamp(x)!;
    case 'timestamp with time zone':
      return castTimestamptz(x)!.replace(/\+00$/, '');
    case 'time without time zone':
      return dateTimeInput('time', x);
    // json keeps its text, jsonb its own form ({"a": 1}); 22P02 for text that is no JSON
    case 'json':
      if (jsonbText(x) === null) throw sqlStateError('22P02', 'invalid input syntax for type json');
      return x;
    case 'jsonb': {
      const j = jsonbText(x);
      if (j === null) throw sqlStateError('22P02', 'invalid input syntax for type json');
      return j;
    }
    // an interval as its column keeps it ('1 day 02:00:00'), bytea in hex ('\\x6162')
    case 'interval': {
      const iv = castInterval(x);
      if (iv === null) throw sqlStateError('22007', `invalid input syntax for type interval: "${x}"`);
      return iv;
    }
    case 'bytea':
      return `\\x${byteaInput(x).toString('hex')}`;
    case 'text':
      return x;
  }
}

/**
 * Array text of `kind` elements in PostgreSQL's form ('{ 1 , null }' as '{1,NULL}'), each element
 * read as its type reads it (22P02, 22003 as PostgreSQL fails), sub-arrays of a multi-dimensional
 * array too; text with explicit bounds ('[0:1]={1,2}') as it is. `lenient`: see element().
 */
export function arrayInput(s: string, kind: ElementKind, lenient = false): string {
  const tree = parseArrayTree(s);
  if (tree === null) {
    // one dimension with its bounds ('[0:2]={1,2,3}', what `arr[0] = 1` makes): its elements read
    // the same (the bounds of more dimensions and bounds that do not fit are left as written)
    const bounded = /^\s*(\[-?\d+:-?\d+\])\s*=\s*(\{.*\})\s*$/s.exec(s);
    const inner = bounded ? parseArrayTree(bounded[2]) : null;
    if (!bounded || inner === null || inner.some(Array.isArray)) return s;
    const [lo, hi] = bounded[1]
      .slice(1, -1)
      .split(/:(?=-?\d+$)/)
      .map(Number);
    if (hi - lo + 1 !== inner.length) return s;
    return `${bounded[1]}=${arrayInput(bounded[2], kind, lenient)}`;
  }
  if (!tree.some(Array.isArray))
    return arrayText(tree.map((x) => (x === null ? null : element(x as string, kind, lenient))));
  // more dimensions: the same elements, the sub-arrays checked as array_in checks them
  dimensions(tree, s);
  return treeText(tree, (x) => element(x, kind, lenient));
}

/** Element kinds whose equal values may be written apart ('1.50' and '1.5', 'true' and 't'). */
export type KeyedKind = 'numeric' | 'boolean';
export const isKeyedKind = (k: unknown): k is KeyedKind => k === 'numeric' || k === 'boolean';

/**
 * One element's text as its type compares it for equality: a numeric without its scale (1.50 and
 * 1.5 are one value, as PostgreSQL's numeric_eq says), a boolean as t or f. 22P02 for no such value.
 */
export function elementKey(x: unknown, kind: KeyedKind): string {
  if (kind === 'boolean') return pgBool(x) ? 't' : 'f';
  const s = typeof x === 'string' ? x : String(x);
  const d = parseDecimal(s);
  if (d === null) throw sqlStateError('22P02', `invalid input syntax for type numeric: "${s}"`);
  return decimalText({ ...d, frac: d.frac.replace(/0+$/, '') });
}

/** Array text whose elements are their keys (elementKey), for equality; NULL elements stay NULL. */
export function arrayKey(s: string, kind: KeyedKind): string {
  const xs = parseArrayText(s);
  if (xs === null) return s;
  return arrayText(xs.map((x) => (x === null ? null : elementKey(x, kind))));
}

/** Stored array text with each element through `f` (dates printed as PostgreSQL prints them); the text itself where it reads as no array. */
export function mapArrayText(s: string, f: (x: string) => string): string {
  try {
    const tree = parseArrayTree(s);
    return tree === null ? s : treeText(tree, f);
  } catch {
    return s;
  }
}

/**
 * A key whose bytes sort as PostgreSQL orders arrays of `kind`: element by element (numbers by
 * value, false before true, text by its bytes, a NULL element after every value), a shorter array
 * before a longer one it begins. One-dimensional arrays only; other text is its own key.
 */
export function arraySortKey(s: string, kind: KeyedKind | 'text'): string {
  const xs = parseArrayText(s);
  if (xs === null) return s;
  // (text by its bytes, as the C collation orders it: each element after \x02, a NULL \x03)
  if (kind === 'text') return xs.map((x) => (x === null ? '\x03' : `\x02${x}`)).join('\x01');
  return xs
    .map((x) => (x === null ? '\x7f' : kind === 'boolean' ? elementKey(x, kind) : numberSortKey(x)))
    .join('\x01');
}

/** A numeric's key whose bytes sort as its value: negatives, zero, positives, NaN (as PostgreSQL's numeric orders them). */
export function numberSortKey(x: string): string {
  const d = parseDecimal(x);
  if (d === null) throw sqlStateError('22P02', `invalid input syntax for type numeric: "${x}"`);
  if (d.special === 'NaN') return 'E';
  if (d.special) return d.neg ? '0' : 'D';
  const digits = (d.int + d.frac).replace(/0+$/, '');
  const lead = digits.length - digits.replace(/^0+/, '').length;
  if (digits.slice(lead) === '') return 'B';
  // the exponent of the first significant digit, offset to stay positive, then the digits from it
  const exp = String(d.int.length - lead + 500000).padStart(7, '0');
  const mantissa = digits.slice(lead);
  if (!d.neg) return `C${exp}${mantissa}`;
  // a negative: both complemented, and a shorter mantissa (a smaller magnitude) after a longer one
  const flip = (t: string) => t.replace(/\d/g, (c) => String(9 - Number(c)));
  return `A${flip(exp)}${flip(mantissa)}:`;
}

/** uuid's input: PostgreSQL's forms (hyphens after groups of four, braces, none; no spaces) as it prints them; 22P02 else. */
export function uuidIn(x: string): string {
  const m = UUID.exec(x);
  if (!m || x.startsWith('{') !== x.endsWith('}'))
    throw sqlStateError('22P02', `invalid input syntax for type uuid: "${x}"`);
  const h = m[1].replace(/-/g, '').toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
