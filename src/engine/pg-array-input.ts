// Array text as PostgreSQL stores it: '{ a , "b" }'::text[] is {a,b}, '{1.50, 2e0}'::float8[] is
// {1.5,2}, '{t,false}'::bool[] is {t,f}. Patina keeps an array as its text, so the text must be the
// one PostgreSQL prints for equality (`tags = '{a,b}'`), output and the elements read back
// (`tags[1]`) to match. Bind (protocols/pg/types/values.ts), a cast to an array type, a value
// written into an array column (protocols/pg/sql/translate), COPY FROM and the array functions
// (arrayElements in pg-functions.ts) read array text through here.
import { sqlStateError } from '../errors';
import { decimalText, parseDecimal } from './decimal';
import { floatText } from './float-text';
import { arrayText, pgBool, pgFloat, pgInteger } from './pg-functions';

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
  | 'uuid';

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
]);
export const isElementKind = (k: string): k is ElementKind => KINDS.has(k);

// (PostgreSQL's detail, such as 'Unexpected end of input.', is not carried: the SQLSTATE and message are)
const malformed = (s: string) => sqlStateError('22P02', `malformed array literal: "${s}"`);
const space = (c: string | undefined) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';

/**
 * The elements of one-dimensional array text as array_in reads them (white space around an element
 * dropped, quotes and backslashes undone, an unquoted NULL a NULL); null for text this does not read
 * (more dimensions, explicit bounds), which is kept as written. 22P02 for text that is no array.
 */
export function parseArrayText(s: string): (string | null)[] | null {
  let i = 0;
  while (space(s[i])) i++;
  if (s[i] === '[') return null;
  if (s[i] !== '{') throw malformed(s);
  i++;
  const out: (string | null)[] = [];
  while (space(s[i])) i++;
  if (s[i] === '}') i++;
  else
    for (;;) {
      while (space(s[i])) i++;
      if (s[i] === '{') return null; // nested
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
      if (s[i++] === '}') break;
    }
  while (space(s[i])) i++;
  if (i < s.length) throw malformed(s);
  return out;
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
    case 'uuid': {
      const m = UUID.exec(x.trim());
      if (!m || x.trim().startsWith('{') !== x.trim().endsWith('}'))
        throw sqlStateError('22P02', `invalid input syntax for type uuid: "${x}"`);
      const h = m[1].replace(/-/g, '').toLowerCase();
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
    case 'text':
      return x;
  }
}

/**
 * Array text of `kind` elements in PostgreSQL's form ('{ 1 , null }' as '{1,NULL}'), each element
 * read as its type reads it (22P02, 22003 as PostgreSQL fails); text this does not read (more
 * dimensions) as it is. `lenient`: see element().
 */
export function arrayInput(s: string, kind: ElementKind, lenient = false): string {
  const xs = parseArrayText(s);
  if (xs === null) return s;
  return arrayText(xs.map((x) => (x === null ? null : element(x, kind, lenient))));
}
