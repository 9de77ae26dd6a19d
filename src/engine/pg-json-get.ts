import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';

// A json (not jsonb) value read out of a document with ->, ->>, #> or #>> keeps the text it was
// written with in PostgreSQL ('{"a": {"b":  1}}'::json -> 'a' is {"b":  1}): json is kept as text and
// its operators slice it. SQLite's -> reprints the value compactly, so the PG front end calls these
// where the parse tree types the operand json (protocols/pg/sql/typed-operators.ts marks them,
// translate/jsonb-ops.ts writes the calls). They give text, which SQLite's JSON functions would
// embed as a string: the analysis marks only reads whose value leaves as text (a result column, an
// operand of another of them, ->> and #>>).

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

const bad = (text: string) => sqlStateError('22P02', `invalid input syntax for type json: "${text}"`);

/** Index of the first non-space at or after i. */
function skip(s: string, i: number): number {
  while (i < s.length && WS.has(s.charCodeAt(i))) i++;
  return i;
}

/** The end of the JSON value starting at s[i] (no space before it). */
function valueEnd(s: string, i: number): number {
  const c = s[i];
  if (c === '"') {
    for (let j = i + 1; j < s.length; j++) {
      if (s[j] === '\\') j++;
      else if (s[j] === '"') return j + 1;
    }
    throw bad(s);
  }
  if (c === '{' || c === '[') {
    const close = c === '{' ? '}' : ']';
    let j = skip(s, i + 1);
    if (s[j] === close) return j + 1;
    for (;;) {
      if (c === '{') {
        j = skip(s, valueEnd(s, j));
        if (s[j] !== ':') throw bad(s);
        j = skip(s, j + 1);
      }
      j = skip(s, valueEnd(s, j));
      if (s[j] === close) return j + 1;
      if (s[j] !== ',') throw bad(s);
      j = skip(s, j + 1);
    }
  }
  const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(s.slice(i, i + 400));
  if (!m) throw bad(s);
  return i + m[0].length;
}

/** The text of the member `key` of an object (the last of duplicates, as PostgreSQL's), or element `k` of an array (negative from the end). */
function member(s: string, key: string | number): string | undefined {
  const open = s[skip(s, 0)];
  if ((open === '{') !== (typeof key === 'string') || (open !== '{' && open !== '[')) return undefined;
  const values = parts(s);
  let found: [string | null, number, number] | undefined;
  if (typeof key === 'string') {
    for (const v of values) if (v[0] === key) found = v;
  } else found = values[key < 0 ? values.length + key : key];
  return found ? s.slice(found[1], found[2]) : undefined;
}

/**
 * The members of an object (each name, duplicates kept, in the document's order) or the elements of
 * an array (name null) of json text: where each value's text starts and ends.
 */
function parts(s: string): [string | null, number, number][] {
  const i = skip(s, 0);
  const open = s[i];
  const values: [string | null, number, number][] = [];
  let j = skip(s, i + 1);
  const close = open === '{' ? '}' : ']';
  if (s[j] !== close)
    for (;;) {
      let name: string | null = null;
      if (open === '{') {
        const end = valueEnd(s, j);
        name = JSON.parse(s.slice(j, end)) as string;
        j = skip(s, end);
        if (s[j] !== ':') throw bad(s);
        j = skip(s, j + 1);
      }
      const end = valueEnd(s, j);
      values.push([name, j, end]);
      j = skip(s, end);
      if (s[j] === close) break;
      if (s[j] !== ',') throw bad(s);
      j = skip(s, j + 1);
    }
  return values;
}

/**
 * json's (not jsonb's) members or elements as json_each and json_array_elements give them: each
 * value's text as written (`{"y" : [3,  4]}`, `1e2`), every member of duplicate keys, in the
 * document's order. `doc` has been checked to be an object or an array (jsonOperand).
 */
export function jsonParts(doc: string): [string | null, string][] {
  return parts(doc).map(([name, from, to]) => [name, doc.slice(from, to)]);
}

/** A path's elements from PostgreSQL's text[] text ('{a,1}'), or null when one is NULL. */
function pathOf(p: unknown): string[] | null {
  const t = String(p).trim();
  if (t === '{}') return [];
  // (ARRAY['a', 'b'], which the translation makes a JSON array)
  if (t.startsWith('[')) {
    const xs = JSON.parse(t) as unknown[];
    return xs.some((x) => x === null) ? null : xs.map(String);
  }
  if (!t.startsWith('{') || !t.endsWith('}')) throw sqlStateError('22P02', `malformed array literal: "${t}"`);
  const parts = t.slice(1, -1).match(/"(?:[^"\\]|\\.)*"|[^,]+/g) ?? [];
  const out: string[] = [];
  for (const x of parts) {
    const v = x.trim();
    if (/^null$/i.test(v)) return null;
    out.push(v.startsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v);
  }
  return out;
}

/** The value at a path: a key of an object, an integer index of an array; undefined where there is none. */
function atPath(s: string, path: string[]): string | undefined {
  let cur: string | undefined = s.trim();
  for (const p of path) {
    if (cur === undefined) return undefined;
    const open = cur[0];
    if (open === '[') {
      if (!/^\s*-?\d+\s*$/.test(p)) return undefined;
      cur = member(cur, Number(p));
    } else cur = open === '{' ? member(cur, p) : undefined;
  }
  return cur;
}

/** ->> and #>> (and json_each_text's values): a string unquoted, JSON null NULL, anything else its text as written. */
export function asText(v: string | undefined): string | null {
  if (v === undefined || v === 'null') return null;
  return v[0] === '"' ? (JSON.parse(v) as string) : v;
}

const key = (k: unknown): string | number => (typeof k === 'number' || typeof k === 'bigint' ? Number(k) : String(k));

export function installPgJsonGet(db: Database.Database): void {
  const opts = { deterministic: true, safeIntegers: true };
  const text = (j: unknown) => (Buffer.isBuffer(j) ? j.toString('utf8') : String(j));
  db.function('__pg_json_get', opts, (j: unknown, k: unknown) =>
    j === null || k === null ? null : (member(text(j), key(k)) ?? null),
  );
  db.function('__pg_json_get_text', opts, (j: unknown, k: unknown) =>
    j === null || k === null ? null : asText(member(text(j), key(k))),
  );
  db.function('__pg_json_get_path', opts, (j: unknown, p: unknown) => {
    const path = j === null || p === null ? null : pathOf(p);
    return path === null ? null : (atPath(text(j), path) ?? null);
  });
  db.function('__pg_json_get_path_text', opts, (j: unknown, p: unknown) => {
    const path = j === null || p === null ? null : pathOf(p);
    return path === null ? null : asText(atPath(text(j), path));
  });
}
