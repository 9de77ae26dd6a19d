import { hiddenName } from './sql-text';
import { valueTable } from './value-twins';
import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';
import { type Json, byKey, jsonOperand, jsonbDeletePath, printJsonb, quote } from './jsonb';
import { asText as partText, jsonParts } from './pg-json-get';
import { type ArrayTree, parseArrayTree } from './pg-array-input';

// PostgreSQL's JSON functions that SQLite has no equivalent of, or one of the same name that means
// something else (SQLite's jsonb_set returns its own binary JSONB, its json_each has other columns):
// the PG front end calls these as __pg_<name> (protocols/pg/sql/translate/words.ts renames them).
// The set-returning ones are table-valued functions, so `FROM jsonb_array_elements(t.tags) e` and
// `SELECT * FROM jsonb_each(x)` run as joins. jsonb's object keys come in its order (shorter first,
// then by bytes), json's in the document's. json's (not jsonb's) values are their text as written,
// as PostgreSQL's json functions slice it (`{"y" : [3,  4]}`, `1e2`), duplicate keys each a row.

/** The text value of a JSON value as ->> gives it: strings unquoted, null as NULL, containers as JSON. */
function asText(v: Json): string | null {
  if (v === null) return null;
  if (typeof v === 'string') return v;
  return printJsonb(v);
}

/**
 * An object's members; of anything else PostgreSQL's 22023 for `fn`, worded as its jsonfuncs.c
 * words it: json_each's (a parser callback's) `cannot deconstruct a scalar`, json_object_keys's and
 * jsonb_object_keys's `on an array`, jsonb_each's `on a non-object`.
 */
function entries(v: Json, jsonb: boolean, fn: string): [string, Json][] {
  if (!(v instanceof Map)) {
    const array = Array.isArray(v);
    const message = fn.endsWith('object_keys')
      ? `cannot call ${fn} on ${array ? 'an array' : 'a scalar'}`
      : jsonb
        ? `cannot call ${fn} on a non-object`
        : array
          ? 'cannot deconstruct an array as an object'
          : 'cannot deconstruct a scalar';
    throw sqlStateError('22023', message);
  }
  const keys = [...v.keys()];
  if (jsonb) keys.sort(byKey);
  return keys.map((k) => [k, v.get(k) as Json]);
}

/** An array's elements; of anything else 22023 as PostgreSQL words it for json's and jsonb's `fn`. */
function elements(v: Json, fn: string, jsonb: boolean): Json[] {
  if (!Array.isArray(v)) {
    const object = v instanceof Map;
    const message = jsonb
      ? `cannot extract elements from ${object ? 'an object' : 'a scalar'}`
      : `cannot call ${fn} on ${object ? 'a non-array' : 'a scalar'}`;
    throw sqlStateError('22023', message);
  }
  return v;
}

/**
 * The values of json_array_elements, jsonb_array_elements and their _text twins (`fn`) of `j`: json's
 * as written, jsonb's printed, the _text ones' strings unquoted; none of NULL. Also for
 * __pg_srf_zip (pg-arrays.ts), which runs them in step with other calls for `ROWS FROM (...)`.
 */
export function* arrayElementValues(fn: string, j: unknown): Generator<string | null> {
  if (j === null || j === undefined) return;
  const jsonb = fn.startsWith('jsonb');
  const asTexts = fn.endsWith('_text');
  const doc = elements(jsonOperand(j), fn, jsonb);
  if (!jsonb) for (const [, v] of jsonParts(text(j))) yield asTexts ? partText(v) : v;
  else for (const v of doc) yield asTexts ? asText(v) : printJsonb(v);
}

/**
 * json_strip_nulls of json text, as PostgreSQL's prints it: the document again without spaces,
 * object members whose value is null left out, keys in their order (duplicates too), numbers as
 * written, strings re-escaped. `s` is valid JSON (the caller has read it).
 */
function stripJsonNulls(s: string): string {
  let i = 0;
  const space = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  };
  const STRING = /"(?:[^"\\]|\\.)*"/y;
  const SCALAR = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
  const token = (re: RegExp): string => {
    re.lastIndex = i;
    const m = re.exec(s)![0];
    i += m.length;
    return m;
  };
  const value = (): string => {
    space();
    const c = s[i];
    if (c === '"') return quote(JSON.parse(token(STRING)) as string);
    if (c !== '{' && c !== '[') return token(SCALAR);
    i++;
    const close = c === '{' ? '}' : ']';
    const items: string[] = [];
    space();
    while (s[i] !== close) {
      if (c === '{') {
        space();
        const key = quote(JSON.parse(token(STRING)) as string);
        space();
        i++; // :
        const v = value();
        if (v !== 'null') items.push(`${key}:${v}`);
      } else items.push(value());
      space();
      if (s[i] === ',') i++;
      space();
    }
    i++;
    return c === '{' ? `{${items.join(',')}}` : `[${items.join(',')}]`;
  };
  return value();
}

/** jsonb_set(target, path, value [, create_missing]): the value at the path replaced (or added). */
function setPath(target: Json, path: string[], value: Json, create: boolean): Json {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (target instanceof Map) {
    if (!target.has(head) && (!create || rest.length > 0)) return target;
    const out = new Map(target);
    out.set(head, rest.length === 0 ? value : setPath(target.get(head) as Json, rest, value, create));
    return out;
  }
  if (Array.isArray(target)) {
    if (!/^-?\d+$/.test(head)) throw sqlStateError('22P02', `path element is not an integer: "${head}"`);
    let i = Number(head);
    if (i < 0) i += target.length;
    const out = [...target];
    if (i >= 0 && i < target.length) out[i] = rest.length === 0 ? value : setPath(target[i], rest, value, create);
    else if (create && rest.length === 0) {
      if (i < 0) out.unshift(value);
      else out.push(value);
    }
    return out;
  }
  return target;
}

/**
 * jsonb_insert(target, path, value [, insert_after]), as PostgreSQL's setPath inserting: into an
 * array before (or after) the element at the path's last index (a negative one from the end, past
 * either end at that end); into an object a new key, 22023 for a key it has; a path that leads
 * nowhere leaves the target as it is.
 */
function insertPath(target: Json, path: string[], value: Json, after: boolean, level = 0): Json {
  if (path.length === level) return target;
  const head = path[level];
  const last = level === path.length - 1;
  if (target instanceof Map) {
    if (!target.has(head)) {
      if (!last) return target;
      return new Map(target).set(head, value);
    }
    if (last) throw sqlStateError('22023', 'cannot replace existing key', 'user', HINT_SET);
    return new Map(target).set(head, insertPath(target.get(head) as Json, path, value, after, level + 1));
  }
  if (Array.isArray(target)) {
    if (!/^\s*[+-]?\d+\s*$/.test(head))
      throw sqlStateError('22P02', `path element at position ${level + 1} is not an integer: "${head}"`);
    let i = Number(head);
    if (i < 0) i = -i > target.length ? -1 : target.length + i;
    const out = [...target];
    if (!last) {
      if (i >= 0 && i < target.length) out[i] = insertPath(target[i], path, value, after, level + 1);
      return out;
    }
    const at = i < 0 ? 0 : i >= target.length ? target.length : after ? i + 1 : i;
    out.splice(at, 0, value);
    return out;
  }
  return target;
}

const HINT_SET = 'Try using the function jsonb_set to replace key value.';

function stripNulls(v: Json): Json {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (v instanceof Map) {
    const out = new Map<string, Json>();
    for (const [k, x] of v) if (x !== null) out.set(k, stripNulls(x));
    return out;
  }
  return v;
}

function pretty(v: Json, indent = ''): string {
  const inner = `${indent}    `;
  // an empty container puts its closing bracket on a line of its own, as PostgreSQL prints it
  if (Array.isArray(v))
    return v.length === 0 ? `[\n${indent}]` : `[\n${v.map((x) => inner + pretty(x, inner)).join(',\n')}\n${indent}]`;
  if (v instanceof Map) {
    if (v.size === 0) return `{\n${indent}}`;
    const keys = [...v.keys()].sort(byKey);
    return `{\n${keys.map((k) => `${inner}${printJsonb(k)}: ${pretty(v.get(k) as Json, inner)}`).join(',\n')}\n${indent}}`;
  }
  return printJsonb(v);
}

function pathOf(args: unknown[]): string[] {
  return args.map((a) => String(a));
}

function extractPath(v: Json, path: string[]): Json | undefined {
  let cur: Json | undefined = v;
  for (const p of path) {
    if (cur instanceof Map) cur = cur.get(p);
    else if (Array.isArray(cur) && /^-?\d+$/.test(p)) {
      const i = Number(p);
      cur = cur[i < 0 ? cur.length + i : i];
    } else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/**
 * jsonb `a || b` as PostgreSQL's jsonb_concat: two objects merge (b's keys win), two arrays join, an
 * array takes the other value as an element at its end or start, any other two become an array.
 */
export function jsonbConcat(a: Json, b: Json): Json {
  if (a instanceof Map && b instanceof Map) return new Map([...a, ...b]);
  const items = (v: Json) => (Array.isArray(v) ? v : [v]);
  return [...items(a), ...items(b)];
}

/** A json argument's text (SQLite may pass a document as a blob). */
const text = (j: unknown) => (Buffer.isBuffer(j) ? j.toString('utf8') : String(j));

export function installPgJsonFunctions(db: Database.Database, arrayElements: (x: unknown) => unknown[]): void {
  db.function('__pg_jsonb_concat', { deterministic: true }, (a: unknown, b: unknown) =>
    a === null || b === null ? null : printJsonb(jsonbConcat(jsonOperand(a), jsonOperand(b))),
  );
  for (const jsonb of [true, false]) {
    const p = jsonb ? 'jsonb' : 'json';
    db.table(`__pg_${p}_each`, {
      columns: ['key', 'value'],
      parameters: ['j'].map(hiddenName),
      *rows(j: unknown) {
        if (j === null || j === undefined) return;
        const doc = jsonOperand(j);
        if (!jsonb) entries(doc, false, 'json_each'); // (its error where it is no object)
        if (!jsonb) yield* jsonParts(text(j));
        else for (const [k, v] of entries(doc, jsonb, `${p}_each`)) yield [k, printJsonb(v)];
      },
    });
    db.table(`__pg_${p}_each_text`, {
      columns: ['key', 'value'],
      parameters: ['j'].map(hiddenName),
      *rows(j: unknown) {
        if (j === null || j === undefined) return;
        const doc = jsonOperand(j);
        if (!jsonb) entries(doc, false, 'json_each_text');
        if (!jsonb) for (const [k, v] of jsonParts(text(j))) yield [k, partText(v)];
        else for (const [k, v] of entries(doc, jsonb, `${p}_each_text`)) yield [k, asText(v)];
      },
    });
    for (const fn of [`${p}_array_elements`, `${p}_array_elements_text`])
      valueTable(db, `__pg_${fn}`, {
        columns: ['value'],
        parameters: ['j'].map(hiddenName),
        *rows(j: unknown) {
          for (const v of arrayElementValues(fn, j)) yield [v];
        },
      });
    valueTable(db, `__pg_${p}_object_keys`, {
      columns: ['value'],
      parameters: ['j'].map(hiddenName),
      *rows(j: unknown) {
        if (j === null || j === undefined) return;
        const doc = jsonOperand(j);
        if (!jsonb) entries(doc, false, 'json_object_keys');
        if (!jsonb) for (const [k] of jsonParts(text(j))) yield [k];
        else for (const [k] of entries(doc, jsonb, `${p}_object_keys`)) yield [k];
      },
    });
    const fn = (name: string, f: (...args: unknown[]) => unknown) =>
      db.function(name, { deterministic: true, varargs: true }, (...args: unknown[]) =>
        args[0] === null || args[0] === undefined ? null : (f(...args) as never),
      );
    fn(`__pg_${p}_strip_nulls`, (j) =>
      jsonb ? printJsonb(stripNulls(jsonOperand(j))) : (jsonOperand(j), stripJsonNulls(text(j))),
    );
    fn(`__pg_${p}_extract_path`, (j, ...path) => {
      if (path.some((x) => x === null)) return null;
      const v = extractPath(jsonOperand(j), pathOf(path));
      return v === undefined ? null : printJsonb(v);
    });
    fn(`__pg_${p}_extract_path_text`, (j, ...path) => {
      if (path.some((x) => x === null)) return null;
      const v = extractPath(jsonOperand(j), pathOf(path));
      return v === undefined ? null : asText(v);
    });
  }
  // json_array_length and jsonb_array_length: 22023 of an object or a scalar (SQLite's answered 0)
  // a json_build_object key that is not a string literal (sql/translate/json-values.ts): its text, as
  // PostgreSQL makes one of a number (SQLite's json_object refused a number, 42000 `labels must be
  // TEXT`); NULL is PostgreSQL's 22023, worded as each builder words it
  db.function('__pg_json_key', { deterministic: true }, (x: unknown, n: unknown, jsonb: unknown) => {
    if (x === null) {
      const err = sqlStateError(
        '22023',
        Number(jsonb) ? `argument ${Number(n)}: key must not be null` : `argument ${Number(n)} cannot be null`,
      );
      if (!Number(jsonb)) (err as { hint?: string }).hint = 'Object keys should be text.';
      throw err;
    }
    return x instanceof Uint8Array ? Buffer.from(x).toString() : String(x);
  });
  // json_object(text[]) and json_object(keys text[], values text[]) and their jsonb twins, which
  // SQLite's json_object (of key and value arguments) took for one key and its value, or refused
  for (const jsonb of [false, true])
    db.function(
      jsonb ? '__pg_jsonb_object' : '__pg_json_object',
      { deterministic: true, varargs: true },
      (...args: unknown[]) => {
        if (args.some((a) => a === null || a === undefined)) return null;
        const pairs = args.length === 1 ? objectPairs(args[0]) : zippedPairs(args[0], args[1]);
        if (jsonb) return printJsonb(new Map(pairs.map(([k, v]) => [k, v])));
        // (json's own spacing, keys in the array's order: `{"a" : "1", "b" : null}`)
        return `{${pairs.map(([k, v]) => `${quote(k)} : ${v === null ? 'null' : quote(v)}`).join(', ')}}`;
      },
    );
  db.function('__pg_json_array_length', { deterministic: true }, (j: unknown) => {
    if (j === null || j === undefined) return null;
    const v = jsonOperand(j);
    if (Array.isArray(v)) return v.length;
    throw sqlStateError(
      '22023',
      v instanceof Map ? 'cannot get array length of a non-array' : 'cannot get array length of a scalar',
    );
  });
  db.function('__pg_jsonb_pretty', { deterministic: true }, (j: unknown) =>
    j === null || j === undefined ? null : pretty(jsonOperand(j)),
  );
  db.function('__pg_jsonb_insert', { deterministic: true, varargs: true }, (...args: unknown[]) => {
    const [target, path, value, after] = args;
    if (args.length < 3 || args.length > 4)
      throw sqlStateError(
        '42883',
        'function jsonb_insert takes 3 or 4 arguments (target, path, new_value, insert_after)',
      );
    if (target === null || path === null || value === null || after === null) return null;
    const t = jsonOperand(target);
    const keys = arrayElements(path).map((k) => String(k));
    if (!(t instanceof Map) && !Array.isArray(t) && keys.length > 0)
      throw sqlStateError('22023', 'cannot set path in scalar');
    return printJsonb(insertPath(t, keys, jsonOperand(value), after !== undefined && Number(after) !== 0));
  });
  // jsonb_set_lax(target, path, value [, create_if_missing [, null_value_treatment]]): jsonb_set, but
  // an SQL NULL value is treated as the fifth argument says (use_json_null by default), as PostgreSQL's
  db.function('__pg_jsonb_set_lax', { deterministic: true, varargs: true }, (...args: unknown[]) => {
    const [target, path, value, create = 1, treatment = 'use_json_null'] = args;
    if (args.length < 3 || args.length > 5)
      throw sqlStateError('42883', 'function jsonb_set_lax takes 3 to 5 arguments');
    if (target === null || path === null || create === null) return null;
    const treatments = '"delete_key", "return_target", "use_json_null", or "raise_exception"';
    if (treatment === null) throw sqlStateError('22023', `null_value_treatment must be ${treatments}`);
    const keys = arrayElements(path).map((k) => String(k));
    const set = (v: Json) => printJsonb(setPath(jsonOperand(target), keys, v, Number(create) !== 0));
    if (value !== null) return set(jsonOperand(value));
    switch (String(treatment)) {
      case 'raise_exception': {
        const err = sqlStateError('22004', 'JSON value must not be null');
        Object.assign(err, {
          detail: 'Exception was raised because null_value_treatment is "raise_exception".',
          hint: 'To avoid, either change the null_value_treatment argument or ensure that an SQL NULL is not passed.',
        });
        throw err;
      }
      case 'use_json_null':
        return set(null);
      case 'delete_key':
        return printJsonb(jsonbDeletePath(jsonOperand(target), keys));
      case 'return_target':
        return printJsonb(jsonOperand(target));
      default:
        throw sqlStateError('22023', `null_value_treatment must be ${treatments}`);
    }
  });
  db.function('__pg_jsonb_set', { deterministic: true, varargs: true }, (...args: unknown[]) => {
    const [target, path, value, create] = args;
    if (args.length < 3 || args.length > 4)
      throw sqlStateError('42883', 'function jsonb_set takes 3 or 4 arguments (target, path, value, create_missing)');
    // (strict, as PostgreSQL's: a NULL create_missing too)
    if (target === null || path === null || value === null || create === null) return null;
    const keys = arrayElements(path).map((k) => String(k));
    return printJsonb(
      setPath(jsonOperand(target), keys, jsonOperand(value), create === undefined || Number(create) !== 0),
    );
  });
}

/** A text[] argument of json_object as array_in reads it: nested levels for more dimensions. */
function textArray(a: unknown): ArrayTree {
  const tree = parseArrayTree(Buffer.isBuffer(a) ? a.toString('utf8') : String(a));
  if (tree === null) throw sqlStateError('0A000', 'json_object of an array with explicit bounds is not supported');
  return tree;
}

/** A key of json_object: 22004 for a NULL, as PostgreSQL words it. */
function objectKey(k: string | null | ArrayTree): string {
  if (k === null) throw sqlStateError('22004', 'null value not allowed for object key');
  return String(k);
}

/** json_object(text[]): key, value, key, value ... of one dimension, or {{key, value}, ...} of two. */
function objectPairs(a: unknown): [string, string | null][] {
  const tree = textArray(a);
  if (tree.length === 0) return [];
  const depth = (t: ArrayTree | string | null): number => (Array.isArray(t) ? 1 + depth(t[0] ?? null) : 0);
  const dims = depth(tree);
  if (dims === 1) {
    if (tree.length % 2 !== 0) throw sqlStateError('2202E', 'array must have even number of elements');
    const out: [string, string | null][] = [];
    for (let i = 0; i < tree.length; i += 2) out.push([objectKey(tree[i]), tree[i + 1] as string | null]);
    return out;
  }
  if (dims === 2) {
    if ((tree[0] as ArrayTree).length !== 2) throw sqlStateError('2202E', 'array must have two columns');
    return (tree as ArrayTree[]).map((row) => [objectKey(row[0]), row[1] as string | null]);
  }
  throw sqlStateError('2202E', 'wrong number of array subscripts');
}

/** json_object(keys, values): two arrays of one dimension and one length. */
function zippedPairs(k: unknown, v: unknown): [string, string | null][] {
  const [keys, values] = [textArray(k), textArray(v)];
  if (keys.some(Array.isArray) || values.some(Array.isArray))
    throw sqlStateError('2202E', 'wrong number of array subscripts');
  if (keys.length !== values.length) throw sqlStateError('2202E', 'mismatched array dimensions');
  return keys.map((key, i) => [objectKey(key), values[i] as string | null]);
}
