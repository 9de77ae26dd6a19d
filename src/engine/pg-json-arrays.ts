import type Database from 'better-sqlite3';
import { pgDateText, timestamptzTextIn } from './dates';
import { floatText } from './float-text';
import { jsonbText } from './jsonb';
import { type ArrayTree, elementKey, parseArrayTree } from './pg-array-input';

// Arrays as PostgreSQL's JSON builders and array_to_json write them: Patina holds an array as
// PostgreSQL's array text ('{1,NULL,"a b"}'), which SQLite's JSON functions put in as a string.
// The translation (protocols/pg/sql/translate/json-values.ts) knows the array's type and calls
// __pg_json_array with how its elements print: numbers as JSON numbers (doubles in float text),
// booleans as true and false, dates and timestamps in ISO 8601 with a T (a timestamptz with its offset), json values as JSON
// (a json[] or jsonb[] column's kept as their text, `json` as stored, `jsonb` as jsonb prints it),
// anything else as a string of its text; NULL elements null, sub-arrays nested, bounds dropped.

/** How an array's elements are written (the translation's ARRAY_FLAGS). */
type ElementKind =
  | 'number'
  | 'float8'
  | 'float4'
  | 'boolean'
  | 'date'
  | 'timestamp'
  | 'timestamptz'
  | 'json'
  | 'jsonb'
  | 'string';

/** JSON's number syntax: a numeric's text that is not one (NaN, Infinity) is a string, as in PostgreSQL. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A timestamp as the JSON builders print it: ISO 8601 with a T, a timestamptz with its zone (`tz`
 * 1 for a timestamptz, 0 for a timestamp; a zone's name for a timestamptz with the session in that
 * zone, printed at its offset there: '2024-01-03T00:04:05+01:00').
 */
export function jsonTimestamp(v: string, tz: unknown): string {
  const zoned = typeof tz === 'string' && !/^\d$/.test(tz) && /^\d/.test(v) ? timestamptzTextIn(v, tz) : null;
  const x = zoned ?? v;
  // a timestamp written as a bare date is stored so: midnight
  const m = /^(\d{4,}|\/\d{4})(-\d\d-\d\d)(?:[ T](\d\d:\d\d:\d\d)(\.\d+)?(.*))?$/.exec(x);
  if (!m) return x;
  const frac = (m[4] ?? '').replace(/0+$/, '').replace(/^\.$/, '');
  const zone = zoned
    ? m[5].replace(/^([+-]\d\d)$/, '$1:00')
    : Number(tz)
      ? m[5] === '' || m[5] === '+00' || m[5] === 'Z'
        ? '+00:00'
        : m[5]
      : '';
  // a year BC is stored as '/' and 10000 minus it (src/engine/dates.ts): printed '0044-...T... BC'
  const bc = m[1].startsWith('/');
  const year = bc ? String(10_000 - Number(m[1].slice(1))).padStart(4, '0') : m[1];
  return `${year}${m[2]}T${m[3] ?? '00:00:00'}${frac}${zone}${bc ? ' BC' : ''}`;
}

/** One element's JSON text. */
function elementJson(x: string, kind: ElementKind, zone: unknown): string {
  switch (kind) {
    case 'number':
      return JSON_NUMBER.test(x) ? x : JSON.stringify(x);
    case 'float8':
    case 'float4': {
      // (PostgreSQL's float text, whatever text SQLite's arithmetic left: 1e+20, not 100000000000000000000)
      const f = /^\s*$/.test(x) ? x : floatText(Number(x), kind === 'float4');
      return JSON_NUMBER.test(f) ? f : JSON.stringify(f);
    }
    case 'boolean':
      return elementKey(x, 'boolean') === 't' ? 'true' : 'false';
    case 'date':
      return JSON.stringify(pgDateText(x, 'date') ?? x);
    case 'timestamp':
      return JSON.stringify(jsonTimestamp(x, 0));
    case 'timestamptz':
      return JSON.stringify(jsonTimestamp(x, zone ?? 1));
    case 'json':
      return x;
    case 'jsonb':
      return jsonbText(x) ?? x;
    default:
      return JSON.stringify(x);
  }
}

/** An array's text as a JSON array of `kind` elements; a text that reads as no array, a JSON string of it. */
export function jsonArray(text: string, kind: ElementKind, zone?: unknown): string {
  // explicit bounds ('[0:1]={1,2}'): PostgreSQL's JSON has the elements alone
  let tree: ArrayTree | null;
  try {
    tree = parseArrayTree(text.replace(/^\s*(\[[^\]]*\])+\s*=\s*/, ''));
  } catch {
    tree = null;
  }
  if (tree === null) return JSON.stringify(text);
  const json = (xs: ArrayTree): string =>
    `[${xs.map((e) => (e === null ? 'null' : Array.isArray(e) ? json(e) : elementJson(e, kind, zone))).join(',')}]`;
  return json(tree);
}

export function installPgJsonArrays(db: Database.Database): void {
  // an array in a json builder (the translation wraps the call in json(), so that it embeds)
  db.function('__pg_json_array', { deterministic: true, varargs: true }, (x: unknown, kind: unknown, zone: unknown) =>
    x === null || x === undefined ? null : jsonArray(String(x), kind as ElementKind, zone),
  );
  // array_to_json(a, pretty): with pretty, `,\n ` between the top-level elements, as PostgreSQL's array_dim_to_json
  db.function('__pg_array_to_json', { deterministic: true }, (doc: unknown, pretty: unknown) => {
    // (strict, as there: array_to_json(a, NULL) is NULL)
    if (doc === null || doc === undefined || pretty === null) return null;
    return pretty === undefined || !Number(pretty) ? String(doc) : topLevelBreaks(String(doc));
  });
}

/** A compact JSON array with a line break and a space after each comma between its top-level elements. */
function topLevelBreaks(doc: string): string {
  let depth = 0;
  let out = '';
  for (let i = 0; i < doc.length; i++) {
    const c = doc[i];
    out += c;
    if (c === '"') {
      for (i++; i < doc.length && doc[i] !== '"'; i++) {
        out += doc[i];
        if (doc[i] === '\\') out += doc[++i];
      }
      out += doc[i] ?? '';
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) out += '\n ';
  }
  return out;
}
