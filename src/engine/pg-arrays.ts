import { hiddenName } from './sql-text';
import { valueTable } from './value-twins';
import type Database from 'better-sqlite3';
import { sqlStateError } from '../errors';
import { addInterval, dateArithmetic, inputStyleOf, timetzSortKey, withInputStyle } from './dates';
import {
  type ArrayTree,
  type KeyedKind,
  arrayBounds,
  arrayInput,
  arrayKey,
  arraySortKey,
  elementKey,
  isElementKind,
  isKeyedKind,
  parseArrayText,
  parseArrayTree,
  treeText,
} from './pg-array-input';
import { arrayElements, arrayText, byteaHex, byteaOfValue } from './pg-functions';
import { assignSubscripts } from './pg-array-assign';
import { arrayElementValues } from './pg-json-functions';
import { jsonPathQueryTexts } from './pg-jsonpath-functions';

// PostgreSQL's array functions over Patina's arrays (PostgreSQL's text '{a,b}', see
// protocols/pg/types/array.ts): on every connection a PG statement runs on, so that `tags[1]` and
// array_length(tags, 1) work on a table's rows as on the catalog.
export function installPgArrayFunctions(db: Database.Database): void {
  const fn = (name: string, f: (...args: unknown[]) => unknown) =>
    db.function(name, { varargs: true, deterministic: true }, f as (...args: unknown[]) => never);
  // an array cast to, or written into a column of, an array type: in PostgreSQL's form, each element
  // read as its type (src/engine/pg-array-input.ts); `lenient` for one an expression built
  const arrayIn = (arr: unknown, kind: unknown, lenient: unknown) => {
    if (arr === null || arr === undefined) return null;
    const k = String(kind);
    const text = typeof arr === 'string' ? arr : String(arr);
    // the catalog's int2vector ('1 2') and JSON arrays are left to the functions that read them
    if (!isElementKind(k) || /^\s*(-?\d+(\s+-?\d+)*)?\s*$/.test(text)) return arr as string;
    return arrayInput(text, k, lenient === 1 || lenient === 1n);
  };
  db.function('__pg_array_in', { deterministic: true }, arrayIn);
  // (dates and intervals in the session's input style, when it is not MDY: 'dmy', 'mdy+sql')
  db.function('__pg_array_in', { deterministic: true }, (arr: unknown, kind: unknown, lenient: unknown, o: unknown) =>
    withInputStyle(inputStyleOf(o), () => arrayIn(arr, kind, lenient)),
  );
  // a || b of arrays ('aa'), an array and an element ('as') or an element and an array ('sa')
  db.function('__pg_array_cat', { deterministic: true }, (kind: unknown, a: unknown, b: unknown) => {
    const k = String(kind);
    // '?': a side of unknown type, an array when its value reads as one (or is NULL)
    const isArray = (c: string, v: unknown) =>
      c === 'a' || (c === '?' && (v === null || (typeof v === 'string' && /^\s*\{.*\}\s*$/s.test(v))));
    const elements = (v: unknown) => {
      if (v === null) return [];
      if (typeof v === 'string' && !/^\s*[{[]/.test(v))
        throw sqlStateError('22P02', `malformed array literal: "${v.slice(0, 80)}"`);
      return arrayElements(v);
    };
    if (k === 'aa' && a === null && b === null) return null;
    if (isArray(k[0], a) && isArray(k[1], b)) {
      const multi = catMulti(a, b);
      if (multi !== null) return multi;
    }
    // (an element added to a multi-dimensional array is array_append's or array_prepend's 22000)
    const left = isArray(k[0], a) ? elements(isArray(k[1], b) ? a : flat(a)) : [a];
    const right = isArray(k[1], b) ? elements(isArray(k[0], a) ? b : flat(b)) : [b];
    // (the first array with elements keeps its lower bound, as PostgreSQL's: '[0:1]={1,2}' || 3 is '[0:2]={1,2,3}')
    const lower =
      isArray(k[0], a) && left.length > 0 ? lowerOf(a) : isArray(k[1], b) && right.length > 0 ? lowerOf(b) : 1;
    return boundedText([...left, ...right], lower);
  });
  // PostgreSQL's: an empty string is the empty array, an empty separator keeps the string whole, a
  // NULL one splits into characters, and a field equal to the third argument is NULL
  fn('string_to_array', (str, sep, nullStr) => {
    if (str === null) return null;
    const s = String(str);
    if (s === '') return '{}';
    const fields = sep === null ? [...s] : String(sep) === '' ? [s] : s.split(String(sep));
    const none = nullStr === null || nullStr === undefined ? null : String(nullStr);
    return arrayText(none === null ? fields : fields.map((f) => (f === none ? null : f)));
  });
  // (a NULL separator makes it NULL, as PostgreSQL's: String(null) joined with 'null')
  fn('array_to_string', (arr, sep, nullStr) =>
    arr === null || sep === null
      ? null
      : allElements(arr)
          .map((e) => (e === null ? (nullStr ?? null) : String(e)))
          .filter((e) => e !== null)
          .join(String(sep)),
  );
  // (from the position `start` on when given: array_position('{a,b,a}', 'a', 2) is 3)
  // (a NULL element finds the first NULL, as IS NOT DISTINCT FROM: array_positions' rule)
  fn('array_position', (arr, elem, start) => {
    if (arr === null) return null;
    oneDimension(arr, 'searching for');
    const from = startOf(start);
    const x = elem === null ? null : valueText(elem);
    const at = arrayElements(arr).findIndex(
      (e, i) => i >= from && (x === null ? e === null : e !== null && String(e) === x),
    );
    return at < 0 ? null : at + lowerOf(arr);
  });
  // every place of the element (a NULL one finds the NULLs, as IS NOT DISTINCT FROM): '{1,3}', '{}'
  fn('array_positions', (arr, elem) => {
    if (arr === null) return null;
    oneDimension(arr, 'searching for');
    const x = elem === null ? null : valueText(elem);
    const at: number[] = [];
    arrayElements(arr).forEach((e, k) => {
      if (x === null ? e === null : e !== null && String(e) === x) at.push(k + lowerOf(arr));
    });
    return arrayText(at);
  });
  // '[1:2][1:3]', NULL for an empty array (Patina's arrays start at 1)
  fn('array_dims', (arr) => {
    if (arr === null) return null;
    const { lens, lbs } = dimensionsOf(arr);
    return lens.length === 0 ? null : lens.map((n, d) => `[${lbs[d]}:${lbs[d] + n - 1}]`).join('');
  });
  // the array without its last n elements (of its first dimension)
  fn('trim_array', (arr, n) => {
    if (arr === null || n === null) return null;
    const multi = MULTI.test(String(arr)) ? parseArrayTree(String(arr)) : null;
    const items = multi ?? arrayElements(arr);
    const k = Number(n);
    if (!(k >= 0 && k <= items.length))
      throw sqlStateError('2202E', `number of elements to trim must be between 0 and ${items.length}`);
    const kept = items.slice(0, items.length - k);
    return multi ? (kept.length ? treeText(kept as ArrayTree, (x) => x) : '{}') : arrayText(kept);
  });
  // array_fill(value, '{2,3}'): the array of those lengths, each element the value
  fn('array_fill', (value, dims, lower) => {
    if (dims === null || lower === null)
      throw sqlStateError('22004', 'dimension array or low bound array cannot be null');
    if (MULTI.test(String(dims))) throw sqlStateError('2202E', 'wrong number of array subscripts');
    const lengths = arrayElements(dims);
    if (lengths.some((d) => d === null)) throw sqlStateError('22004', 'dimension values cannot be null');
    if (lower !== undefined) {
      const lows = arrayElements(lower);
      if (lows.length !== lengths.length) throw sqlStateError('2202E', 'wrong number of array subscripts');
      if (lows.some((l) => l === null)) throw sqlStateError('22004', 'dimension values cannot be null');
      if (lows.some((l) => Number(l) !== 1) && lengths.length > 0 && !lengths.some((d) => Number(d) === 0))
        throw sqlStateError('0A000', 'array_fill with a lower bound other than 1 is not supported');
    }
    const ns = lengths.map(Number);
    if (ns.some((d) => d < 0) || ns.reduce((a, b) => a * b, 1) > 134217727)
      throw sqlStateError('54000', 'array size exceeds the maximum allowed (134217727)');
    if (ns.length === 0 || ns.includes(0)) return '{}';
    const element = value === null ? null : valueText(value);
    const build = (d: number): ArrayTree =>
      Array.from({ length: ns[d] }, () => (d + 1 < ns.length ? build(d + 1) : element));
    return treeText(build(0), (x) => x);
  });
  // of a dimension (NULL for one the array does not have); a multi-dimensional array's by its
  // shape, one written with its bounds by them
  const dimension = (arr: unknown, dim: unknown) => {
    if (arr === null || dim === null) return null;
    const d = dim === undefined ? 1 : Number(dim);
    const { lens, lbs } = dimensionsOf(arr);
    return d >= 1 && d <= lens.length ? { len: lens[d - 1], lb: lbs[d - 1] } : null;
  };
  fn('array_upper', (arr, dim) => {
    const x = dimension(arr, dim);
    return x && x.lb + x.len - 1;
  });
  fn('array_lower', (arr, dim) => dimension(arr, dim)?.lb ?? null);
  fn('array_length', (arr, dim) => dimension(arr, dim)?.len ?? null);
  fn('array_ndims', (arr) => (arr === null ? null : dimensionsOf(arr).lens.length || null));
  fn('cardinality', (arr) => {
    if (arr === null) return null;
    const { lens } = dimensionsOf(arr);
    return lens.length === 0 ? 0 : lens.reduce((a, b) => a * b, 1);
  });
  // int2vector and oidvector (stored '1 2') count from 0, arrays ('{1,2}') from 1
  fn('__pg_elem', (arr, i) =>
    arr === null || i === null
      ? null
      : MULTI.test(String(arr)) || arrayBounds(String(arr))
        ? subscripts(String(arr), ['e'], [i])
        : (arrayElements(arr)[Number(i) - (/^\s*[{[]/.test(String(arr)) ? 1 : 0)] ?? null),
  );
  // ARRAY[[1,2],[3,4]], ARRAY[ARRAY[1,2], ...]: the sub-arrays one dimension down, of one shape
  // (2202E as in PostgreSQL otherwise, also for a NULL or empty one beside others; '{}' when all are)
  fn('__pg_array_nest', (...subs) => {
    const texts = subs.filter((x) => x !== null && !/^\s*\{\s*\}\s*$/.test(String(x))).map(String);
    if (texts.length === 0) return '{}';
    if (texts.length < subs.length)
      throw sqlStateError('2202E', 'multidimensional arrays must have array expressions with matching dimensions');
    const shapes = texts.map((x) => (MULTI.test(x) ? shape(x) : [arrayElements(x).length])?.join(','));
    if (shapes.some((x) => x !== shapes[0]))
      throw sqlStateError('2202E', 'multidimensional arrays must have array expressions with matching dimensions');
    return `{${texts.map((x) => x.trim()).join(',')}}`;
  });
  // m[i][j], m[1:2][2] of a multi-dimensional array ('e' an element's subscript, 'lu:' a slice's
  // bounds as __pg_slice's): the subscripts, one or two arguments each
  fn('__pg_subscripts', (arr, spec, ...args) =>
    arr === null ? null : subscripts(String(arr), String(spec).split(','), args),
  );
  // arr[lo:hi] ('lu' says which bounds were written; an omitted one is the array's end): the
  // elements between them, counted from 1 again; NULL when a written bound is NULL
  db.function('__pg_slice', { deterministic: true }, (arr: unknown, lo: unknown, hi: unknown, given: unknown) => {
    const g = String(given);
    if (arr === null || (g.includes('l') && lo === null) || (g.includes('u') && hi === null)) return null;
    if (MULTI.test(String(arr)) || arrayBounds(String(arr))) return subscripts(String(arr), [`${g}:`], [lo, hi]);
    const xs = arrayElements(arr);
    const from = g.includes('l') ? Math.max(1, Number(lo)) : 1;
    const to = g.includes('u') ? Math.min(xs.length, Number(hi)) : xs.length;
    return arrayText(from > to ? [] : xs.slice(from - 1, to));
  });
  // arr[n] = x in an UPDATE's SET or an INSERT's column list (protocols/pg/sql/translate/element-assignments.ts)
  fn('__pg_array_set', (arr, n, x) => setElement(arr, n, x));
  // arr[1:2] = src, m[1][2] = x (src/engine/pg-array-assign.ts): the subscripts as __pg_subscripts'
  fn('__pg_array_assign', (arr, spec, value, ...args) => assignSubscripts(arr, String(spec).split(','), args, value));
  // (an array with bounds keeps its lower bound: the first one's with elements in array_cat)
  const elementsOf = (arr: unknown) => (arr === null ? [] : arrayElements(flat(arr)));
  fn('array_append', (arr, x) => boundedText([...elementsOf(arr), x], lowerOf(arr)));
  fn('array_prepend', (x, arr) => boundedText([x, ...elementsOf(arr)], lowerOf(arr)));
  fn('array_cat', (a, b) => {
    if (a === null && b === null) return null;
    const multi = catMulti(a, b);
    if (multi !== null) return multi;
    const [xs, ys] = [a === null ? [] : arrayElements(a), b === null ? [] : arrayElements(b)];
    return boundedText([...xs, ...ys], xs.length > 0 ? lowerOf(a) : lowerOf(b));
  });
  fn('array_replace', (arr, from, to) =>
    arr === null
      ? null
      : (replaceAll(arr, (e) => (from === null ? e === null : e !== null && String(e) === valueText(from)), to) ??
        boundedText(
          arrayElements(arr).map((e) =>
            (from === null ? e === null : e !== null && String(e) === valueText(from)) ? to : e,
          ),
          lowerOf(arr),
        )),
  );
  // @>, <@ and && of arrays (the analysis tells them from jsonb's @> by their operands' types): NULL
  // elements match nothing, as in PostgreSQL; numeric and boolean elements by their value ('kind',
  // from the analysis: 1.50 is 1.5, true is t)
  const keyOf = (kind: unknown) => (isKeyedKind(kind) ? (e: unknown) => elementKey(e, kind) : valueText);
  const members = (arr: unknown, key: (e: unknown) => string) =>
    new Set(
      allElements(arr)
        .filter((e) => e !== null)
        .map(key),
    );
  const contains = (a: unknown, b: unknown, kind: unknown) => {
    if (a === null || b === null) return null;
    const key = keyOf(kind);
    const have = members(a, key);
    return allElements(b).every((e) => e !== null && have.has(key(e))) ? 1 : 0;
  };
  fn('__pg_array_contains', (a, b, kind) => contains(a, b, kind));
  fn('__pg_array_contained', (a, b, kind) => contains(b, a, kind));
  fn('__pg_array_overlap', (a, b, kind) => {
    if (a === null || b === null) return null;
    const key = keyOf(kind);
    const have = members(a, key);
    return allElements(b).some((e) => e !== null && have.has(key(e))) ? 1 : 0;
  });
  // numeric and boolean arrays compared (=, <>) by their elements' values: '{1.50}' = '{1.5}'
  db.function('__pg_array_key', { deterministic: true }, (kind: unknown, arr: unknown) =>
    arr === null || arr === undefined || !isKeyedKind(kind) ? (arr as null) : arrayKey(String(arr), kind),
  );
  // <, >, ORDER BY of arrays of numbers, booleans and text: by their elements ('{9}' < '{10}', '{}' first);
  // of a timetz ('timetz', or 'timetz@zone' for a literal without an offset): by its instant, then offset
  db.function('__pg_array_sortkey', { deterministic: true }, (kind: unknown, arr: unknown) =>
    typeof kind === 'string' && /^timetz(@|$)/.test(kind)
      ? timetzSortKey(arr, kind.slice(7) || 'UTC')
      : arr === null || arr === undefined || !(isKeyedKind(kind) || kind === 'text')
        ? (arr as null)
        : arraySortKey(String(arr), kind),
  );
  // array_agg of arrays (the analysis renames the call): an array of one more dimension, as
  // PostgreSQL's array_agg(anyarray) builds it ({{1,2},{3,4}}); array_agg made a text of each
  const lengths = (t: ArrayTree): number[] => (Array.isArray(t[0]) ? [t.length, ...lengths(t[0])] : [t.length]);
  const arraysOf = {
    start: () => ({ parts: [] as string[], shape: '' }),
    step: (acc: { parts: string[]; shape: string }, v: unknown) => {
      if (v === null || v === undefined) throw sqlStateError('22004', 'cannot accumulate null arrays');
      const tree = parseArrayTree(String(v));
      if (tree !== null && tree.length === 0) throw sqlStateError('2202E', 'cannot accumulate empty arrays');
      const dims = tree === null ? String(v) : lengths(tree).join(',');
      if (acc.parts.length > 0 && dims !== acc.shape)
        throw sqlStateError('2202E', 'cannot accumulate arrays of different dimensionality');
      acc.shape = dims;
      acc.parts.push(tree === null ? String(v) : treeText(tree, (x) => x));
      return acc;
    },
    result: (acc: { parts: string[] }) => (acc.parts.length === 0 ? null : `{${acc.parts.join(',')}}`),
  };
  db.aggregate('__pg_array_agg_arrays', arraysOf);
  // ARRAY(SELECT arr ...) likewise, of no rows the empty array
  db.aggregate('__pg_array_sub_arrays', {
    ...arraysOf,
    result: (acc: { parts: string[] }) => `{${acc.parts.join(',')}}`,
  });
  // max() and min() of such arrays by the same order ('{10}' above '{9}', '{}' below all); SQLite's
  // picked by the text. Of equal keys the later value, as array_larger and array_smaller keep it
  // ('{1.5}' after '{1.50}'); over a window the frame's values in order, dropped oldest first (inverse)
  // (and of timetz values, 'timetz': by the instant, then the offset, timetz_larger's order)
  const sortKey = (kind: KeyedKind | 'text' | 'timetz', v: unknown) =>
    v === null || v === undefined
      ? null
      : Buffer.from((kind === 'timetz' ? timetzSortKey(v, 'UTC') : arraySortKey(String(v), kind)) ?? '');
  for (const kind of ['numeric', 'boolean', 'text', 'timetz'] as const)
    for (const max of [false, true]) {
      const better = (key: Buffer, best: Buffer) => (max ? key.compare(best) >= 0 : key.compare(best) <= 0);
      db.aggregate(`__pg_array_${max ? 'max' : 'min'}_${kind}`, {
        start: () => ({ key: null as Buffer | null, value: null as unknown }),
        step: (a: { key: Buffer | null; value: unknown }, v: unknown) => {
          const key = sortKey(kind, v);
          return key === null || (a.key !== null && !better(key, a.key)) ? a : { key, value: v };
        },
        result: (a: { value: unknown }) => (a.value ?? null) as string | null,
      });
      db.aggregate(`__pg_array_${max ? 'max' : 'min'}_${kind}_w`, {
        start: () => [] as [Buffer | null, unknown][],
        step: (a: [Buffer | null, unknown][], v: unknown) => {
          a.push([sortKey(kind, v), v]);
          return a;
        },
        inverse: (a: [Buffer | null, unknown][]) => {
          a.shift();
          return a;
        },
        result: (a: [Buffer | null, unknown][]) => {
          let best: [Buffer, unknown] | null = null;
          for (const [key, v] of a) if (key !== null && (best === null || better(key, best[0]))) best = [key, v];
          return (best?.[1] ?? null) as string | null;
        },
      });
    }
  // the elements x = ANY (arr) and x > ALL (arr) compare with: one NULL for a NULL array (x'00', as
  // translate/arrays.ts passes it: SQLite calls no table-valued function with NULL; the comparison is NULL, as in PostgreSQL, not false or true over no elements); of a numeric or
  // boolean array as SQLite holds such values (numbers, 1 and 0), so that 1.5 finds '1.50' and true 't';
  // of a bytea array as blobs (its elements are kept as hex text)
  db.table('__pg_elems_as', {
    columns: ['value'],
    parameters: ['arr', 'kind'].map(hiddenName),
    *rows(arr: unknown, kind: unknown) {
      if (Buffer.isBuffer(arr) && arr.length === 1 && arr[0] === 0) return yield [null as never];
      for (const x of allElements(arr)) yield [(x === null ? null : asValue(x, kind)) as never];
    },
  });
  // array_position, array_replace and array_remove of a numeric or boolean array (the analysis
  // renames the call): elements matched by value, a boolean written back as t or f
  for (const kind of ['numeric', 'boolean'] as KeyedKind[]) {
    const key = (e: unknown) => elementKey(e, kind);
    const out = (x: unknown) => (x === null || kind !== 'boolean' ? x : key(x));
    fn(`__pg_array_position_${kind}`, (arr, elem, start) => {
      if (arr === null) return null;
      oneDimension(arr, 'searching for');
      const k = elem === null ? null : key(elem);
      const from = startOf(start);
      const at = arrayElements(arr).findIndex(
        (e, i) => i >= from && (k === null ? e === null : e !== null && key(e) === k),
      );
      return at < 0 ? null : at + 1;
    });
    fn(`__pg_array_positions_${kind}`, (arr, elem) => {
      if (arr === null) return null;
      oneDimension(arr, 'searching for');
      const k = elem === null ? null : key(elem);
      const at: number[] = [];
      arrayElements(arr).forEach((e, i) => {
        if (k === null ? e === null : e !== null && key(e) === k) at.push(i + 1);
      });
      return arrayText(at);
    });
    fn(`__pg_array_replace_${kind}`, (arr, from, to) => {
      if (arr === null) return null;
      const k = from === null ? null : key(from);
      const multi = replaceAll(arr, (e) => (k === null ? e === null : e !== null && key(e) === k), out(to));
      if (multi !== null) return multi;
      return arrayText(
        arrayElements(arr).map((e) => ((k === null ? e === null : e !== null && key(e) === k) ? out(to) : e)),
      );
    });
    fn(`__pg_array_remove_${kind}`, (arr, x) => {
      if (arr === null) return null;
      oneDimension(arr, 'removing');
      const k = x === null ? null : key(x);
      return arrayText(arrayElements(arr).filter((e) => (k === null ? e !== null : e === null || key(e) !== k)));
    });
  }
  // the set-returning unnest and generate_series as table-valued functions, on every connection so
  // that a write may read them (INSERT ... SELECT ... FROM generate_series(1, 100) g)
  valueTable(db, 'unnest', {
    columns: ['value'],
    parameters: ['arr'].map(hiddenName),
    *rows(arr: unknown) {
      for (const x of unnestValues(arr)) yield [x as never];
    },
  });
  valueTable(db, 'generate_series', {
    columns: ['value'],
    // (`zone`: of timestamptz with the session in a zone other than UTC, whose days a step's are)
    parameters: ['start', 'stop', 'step', 'zone'].map(hiddenName),
    *rows(start: unknown, stop: unknown, step: unknown, zone: unknown) {
      for (const x of seriesValues(start, stop, step, zone)) yield [x as never];
    },
  });
  valueTable(db, 'generate_subscripts', {
    columns: ['value'],
    parameters: ['arr', 'dim', 'reverse'].map(hiddenName),
    *rows(arr: unknown, dim: unknown, reverse: unknown) {
      for (const x of subscriptValues(arr, dim, reverse)) yield [x as never];
    },
  });
  // Several set-returning calls in one select list (`SELECT unnest(k), generate_subscripts(k, 1)`):
  // PostgreSQL runs them in step, as many rows as the longest gives, the shorter ones NULL after
  // their end (translate/standard-forms.ts joins this for them). Each call is a name and up to three
  // arguments; value N is call N's. An argument that is NULL comes as an empty blob (SQLite gives no
  // row at all for a table-valued function's NULL argument), as do the arguments a call does not have.
  db.table('__pg_srf_zip', {
    columns: ZIP_COLUMNS,
    parameters: ZIP_PARAMETERS,
    *rows(...args: unknown[]) {
      const lists: unknown[][] = [];
      for (let k = 0; k < ZIP_CALLS; k++) {
        const [name, a, b, c] = args.slice(k * 4, k * 4 + 4).map(noValue);
        if (name === null) break;
        lists.push([...zipped(String(name), a, b, c)]);
      }
      const n = Math.max(0, ...lists.map((l) => l.length));
      for (let i = 0; i < n; i++) {
        const row = new Array(ZIP_CALLS).fill(null);
        for (let k = 0; k < lists.length; k++) row[k] = i < lists[k].length ? lists[k][i] : null;
        yield row as never;
      }
    },
  });
  fn('array_remove', (arr, x) => {
    if (arr === null) return null;
    oneDimension(arr, 'removing');
    const kept = arrayElements(arr).filter((e) => (x === null ? e !== null : String(e) !== valueText(x)));
    return boundedText(kept, lowerOf(arr));
  });
}

/** A value as an element of array text: a blob (a bytea) as the hex text arrays keep it in. */
const valueText = (x: unknown): string => (x instanceof Uint8Array ? byteaHex(x) : String(x));

/** An element of a numeric, boolean or bytea array as SQLite holds such a value: a number (NaN as its text), 1 or 0, a blob. */
function asValue(x: unknown, kind: unknown): unknown {
  if (kind === 'bytea') return byteaOfValue(x);
  if (kind === 'bpchar') return typeof x === 'string' ? x.replace(/ +$/, '') : x;
  if (kind === 'boolean') return elementKey(x, 'boolean') === 't' ? 1 : 0;
  if (kind !== 'numeric' || typeof x !== 'string') return x;
  const k = elementKey(x, 'numeric');
  if (!/^-?\d+(\.\d+)?$/.test(k)) return k; // NaN, Infinity
  if (k.includes('.')) return Number(k);
  const n = BigInt(k);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : Number(k);
}

/** The calls one __pg_srf_zip runs in step at most, and its columns and parameters. */
export const ZIP_CALLS = 4;
const ZIP_COLUMNS = Array.from({ length: ZIP_CALLS }, (_, k) => `v${k + 1}`);
const ZIP_PARAMETERS = Array.from({ length: ZIP_CALLS }, (_, k) => [`f${k + 1}`, `a${k + 1}`, `b${k + 1}`, `c${k + 1}`])
  .flat()
  .map(hiddenName);
/** The set-returning functions __pg_srf_zip runs. */
export const ZIPPED_FUNCTIONS = new Set(['unnest', 'generate_series', 'generate_subscripts', 'jsonb_path_query']);
/** And those that run in step only in `ROWS FROM (...)` (translate/rows-from.ts). */
export const ZIPPED_IN_FROM = new Set([
  ...ZIPPED_FUNCTIONS,
  'json_array_elements',
  'jsonb_array_elements',
  'json_array_elements_text',
  'jsonb_array_elements_text',
]);

/** An argument of __pg_srf_zip: an empty blob, or none, is NULL. */
const noValue = (x: unknown) =>
  x === undefined || x === null || (x instanceof Uint8Array && x.length === 0) ? null : x;

function zipped(name: string, a: unknown, b: unknown, c: unknown): Iterable<unknown> {
  if (name === 'unnest') return unnestValues(a);
  if (name === 'generate_series') return seriesValues(a, b, c ?? undefined); // (a step not given is 1)
  if (name === 'generate_subscripts') return subscriptValues(a, b, c);
  // (target, path, vars: the translation writes '{}' for vars not given; silent is not taken here)
  if (name === 'jsonb_path_query') return a === null || b === null || c === null ? [] : jsonPathQueryTexts([a, b, c]);
  if (/^jsonb?_array_elements(_text)?$/.test(name)) return arrayElementValues(name, a);
  throw sqlStateError('0A000', `${name}() beside other set-returning functions in a select list is not supported`);
}

/** unnest(arr): every element in order, whatever the dimensions. */
function unnestValues(arr: unknown): unknown[] {
  return arr === null || arr === undefined ? [] : allElements(arr);
}

// (a number's text too: generate_series('1', '2') gave the strings '1', '11', '111', ... without end)
const num = (v: unknown) => (typeof v === 'bigint' || typeof v === 'string' ? Number(v) : (v as number));

/** A numeric's NaN and infinities as SQLite holds them (text); a timestamp's infinity is lower case. */
const NUMERIC_SPECIAL = /^(NaN|-?Infinity)$/;

/** generate_series's 22023 for a NaN or infinite numeric bound or step, in PostgreSQL's words. */
function finiteBound(v: number, what: string): void {
  if (Number.isNaN(v)) throw sqlStateError('22023', `${what} cannot be NaN`);
  if (!Number.isFinite(v)) throw sqlStateError('22023', `${what} cannot be infinity`);
}

/** generate_series(start, stop[, step]) of integers, numbers or timestamps (with an interval step). */
function* seriesValues(start: unknown, stop: unknown, step: unknown, zone?: unknown): Generator<unknown> {
  if (start === null || stop === null || step === null) return;
  if (typeof start === 'string' && !/^\s*[-+]?\d+\s*$/.test(start) && !NUMERIC_SPECIAL.test(start)) {
    // timestamps, a step of an interval (PostgreSQL's timestamp form); a timestamptz's days are the
    // session zone's (`zone`, when not UTC)
    const end = addInterval(stop, '00:00:00', 1);
    const kind = typeof zone === 'string' ? `tstz+iv@${zone}` : null;
    const next = (v: string) =>
      kind ? (dateArithmetic(kind, v, step ?? '1 day') as string | null) : addInterval(v, step ?? '1 day', 1);
    let v = addInterval(start, '00:00:00', 1);
    if (v === null || end === null) return;
    const first = next(v);
    if (first === null) return;
    if (first === v) throw sqlStateError('22023', 'step size cannot equal zero');
    const up = first > v;
    while (up ? v <= end : v >= end) {
      yield v;
      const n = next(v);
      if (n === null) return;
      v = n;
    }
    return;
  }
  const st = step === null || step === undefined ? 1 : num(step);
  // PostgreSQL's refusals (a numeric NaN or infinity ran without end, or gave no row)
  finiteBound(num(start), 'start value');
  finiteBound(num(stop), 'stop value');
  finiteBound(st, 'step size');
  if (st === 0) throw sqlStateError('22023', 'step size cannot equal zero');
  // integers as integers (a JS number would be a REAL: 'x' || g was 'x1.0')
  for (let i = num(start); st > 0 ? i <= num(stop) : i >= num(stop); i += st) yield Number.isInteger(i) ? BigInt(i) : i;
}

/**
 * generate_subscripts(arr, dim[, reverse]): the subscripts of a dimension. int2vector and oidvector
 * (stored '1 2', the catalog's indkey) count from 0 as in PostgreSQL, arrays from 1; none for a
 * NULL or empty array or a dimension it does not have.
 */
function* subscriptValues(arr: unknown, dim: unknown, reverse: unknown): Generator<number> {
  if (arr === null || arr === undefined || dim === null || dim === undefined) return;
  const text = String(arr);
  const d = num(dim);
  const vector = !/^\s*[{[]/.test(text);
  const n = MULTI.test(text) ? (shape(text)?.[d - 1] ?? 0) : d === 1 ? arrayElements(arr).length : 0;
  const low = vector ? 0 : 1;
  const back = reverse === 1 || reverse === 1n || reverse === true;
  for (let i = 0; i < n; i++) yield back ? low + n - 1 - i : low + i;
}

/** Array text of more than one dimension ('{{1,2},{3,4}}'). */
const MULTI = /^\s*\{\s*\{/;

/**
 * Every element of an array in order, whatever its dimensions (as unnest, ANY, @>, <@ and && read
 * a multi-dimensional array: `{{1,2},{3,4}}` is 1, 2, 3, 4); arrayElements' reading of one dimension.
 */
function allElements(arr: unknown): unknown[] {
  const bounded = typeof arr === 'string' ? arrayBounds(arr) : null;
  if (bounded) return allElements(bounded.body);
  if (typeof arr !== 'string' || !MULTI.test(arr)) return arrayElements(arr);
  let tree: ArrayTree | null;
  try {
    tree = parseArrayTree(arr);
  } catch {
    return arrayElements(arr);
  }
  if (tree === null) return arrayElements(arr);
  const out: unknown[] = [];
  const walk = (xs: ArrayTree) => {
    for (const x of xs)
      if (Array.isArray(x)) walk(x);
      else out.push(typeof x === 'string' && /^-?\d+$/.test(x) ? arrayElements(`{${x}}`)[0] : x);
  };
  walk(tree);
  return out;
}

/**
 * array_replace of a multi-dimensional array: every element `match` takes replaced by `to`, the
 * shape kept, as PostgreSQL's array_replace does; null for an array of one dimension.
 */
function replaceAll(arr: unknown, match: (e: unknown) => boolean, to: unknown): string | null {
  if (typeof arr !== 'string' || !MULTI.test(arr)) return null;
  let tree: ArrayTree | null;
  try {
    tree = parseArrayTree(arr);
  } catch {
    return null;
  }
  if (tree === null) return null;
  const swap = (xs: ArrayTree): ArrayTree =>
    xs.map((x) =>
      Array.isArray(x) ? swap(x) : match(x) ? (to === null || to === undefined ? null : valueText(to)) : x,
    );
  return treeText(swap(tree), (x) => x);
}

/**
 * a || b (array_cat) where either is multi-dimensional, as PostgreSQL's array_cat: arrays of one
 * number of dimensions joined along the first, one of one dimension fewer added as a last (or first)
 * element; 2202E when the shapes do not fit. Null when neither is multi-dimensional.
 */
function catMulti(a: unknown, b: unknown): string | null {
  // (an array written with its bounds is read without them: `[0:1][1:2]={{1,2},{3,4}}`)
  const body = (x: unknown) => arrayBounds(String(x))?.body ?? String(x);
  const multi = (x: unknown) => typeof x === 'string' && MULTI.test(body(x));
  if (!multi(a) && !multi(b)) return null;
  const tree = (x: unknown): ArrayTree | null => (x === null ? [] : parseArrayTree(body(x)));
  const [ta, tb] = [tree(a), tree(b)];
  if (ta === null || tb === null) return null;
  if (ta.length === 0) return b === null ? String(a) : String(b);
  if (tb.length === 0) return String(a);
  const dims = (t: ArrayTree | string | null): number[] => {
    const out: number[] = [];
    for (let x = t; Array.isArray(x) && x.length > 0; x = x[0]) out.push(x.length);
    return out;
  };
  // each dimension as its length and lower bound, which must agree below the first, as in PostgreSQL
  const shapeOf = (x: unknown, t: ArrayTree) => {
    const lbs = arrayBounds(String(x))?.lbs;
    return dims(t).map((n, d) => ({ n, lb: lbs?.[d] ?? 1 }));
  };
  const [da, db] = [shapeOf(a, ta), shapeOf(b, tb)];
  const same = (x: typeof da, y: typeof da) =>
    x.length === y.length && x.every((e, i) => e.n === y[i].n && e.lb === y[i].lb);
  let out: ArrayTree | null = null;
  // (the bounds of the first array, or of the second when the first is an element of it)
  let lbs = da.map((e) => e.lb);
  if (da.length === db.length && same(da.slice(1), db.slice(1))) out = [...ta, ...tb];
  else if (da.length === db.length + 1 && same(da.slice(1), db)) out = [...ta, tb];
  else if (db.length === da.length + 1 && same(db.slice(1), da)) {
    out = [ta, ...tb];
    lbs = db.map((e) => e.lb);
  }
  if (out === null) throw sqlStateError('2202E', 'cannot concatenate incompatible arrays');
  const text = treeText(out, (x) => x);
  if (lbs.every((lb) => lb === 1)) return text;
  return `${dims(out)
    .map((n, d) => `[${lbs[d]}:${lbs[d] + n - 1}]`)
    .join('')}=${text}`;
}

/**
 * The index array_position starts its search at: its third argument, a position (0 when none is
 * given); a NULL one is PostgreSQL's 22004.
 */
function startOf(start: unknown): number {
  if (start === undefined) return 0;
  if (start === null) throw sqlStateError('22004', 'initial position must not be null');
  return Math.max(0, Number(start) - 1);
}

/**
 * The array with its element n set to x, as PostgreSQL assigns `arr[n] = x`: a NULL or empty array
 * becomes the one element at n, a subscript past either end extends the array with NULLs (before its
 * first, the lower bound moves: `[0:3]={x,1,2,3}`, printed with its bounds as PostgreSQL prints
 * them); a NULL subscript is 22004, one subscript of a multi-dimensional array 2202E.
 */
function setElement(arr: unknown, n: unknown, x: unknown): string {
  if (n === null || n === undefined) throw sqlStateError('22004', 'array subscript in assignment must not be null');
  const at = Number(n);
  let lower = at;
  let xs: (string | null)[] = [];
  if (arr !== null && arr !== undefined) {
    const text = String(arr);
    const bounds = /^\s*\[(-?\d+):(-?\d+)\]\s*=\s*(\{.*\})\s*$/s.exec(text);
    if (MULTI.test(bounds ? bounds[3] : text) || /^\s*\[[^\]]*\]\s*\[/.test(text))
      throw sqlStateError('2202E', 'wrong number of array subscripts');
    xs = parseArrayText(bounds ? bounds[3] : text) ?? [];
    if (xs.length > 0) lower = bounds ? Number(bounds[1]) : 1;
  }
  const value = x === null || x === undefined ? null : x instanceof Uint8Array ? byteaHex(x) : String(x);
  // (PostgreSQL's MaxArraySize)
  const size = Math.max(lower + xs.length - 1, at) - Math.min(lower, at) + 1;
  if (size > 134217727) throw sqlStateError('54000', 'array size exceeds the maximum allowed (134217727)');
  if (at < lower) {
    xs = [value, ...Array<null>(lower - at - 1).fill(null), ...xs];
    lower = at;
  } else {
    while (xs.length < at - lower) xs.push(null);
    xs[at - lower] = value;
  }
  return boundedText(xs, lower);
}

/** 0A000 for a multi-dimensional array where PostgreSQL's function reads one dimension only. */
function oneDimension(arr: unknown, what: string): void {
  if (typeof arr === 'string' && MULTI.test(arr))
    throw sqlStateError('0A000', `${what} elements in multidimensional arrays is not supported`);
}

/** An array array_append or array_prepend adds to: 22000 for a multi-dimensional one, as PostgreSQL refuses it. */
function flat(arr: unknown): unknown {
  if (typeof arr === 'string' && MULTI.test(arrayBounds(arr)?.body ?? arr))
    throw sqlStateError('22000', 'argument must be empty or one-dimensional array');
  return arr;
}

/**
 * An array's dimensions and their lower bounds: those written before it (`[0:2]={1,2,3}`) or 1;
 * none for an empty array. One-dimensional text is read as arrayElements reads it (int2vector's '1 2' too).
 */
function dimensionsOf(arr: unknown): { lens: number[]; lbs: number[] } {
  const text = String(arr);
  const bounded = arrayBounds(text);
  const body = bounded ? bounded.body : text;
  const n = MULTI.test(body) ? null : arrayElements(body).length;
  const lens = n === null ? (shape(body) ?? []) : n > 0 ? [n] : [];
  return { lens, lbs: lens.map((_, d) => bounded?.lbs[d] ?? 1) };
}

/** One-dimensional array text whose first element's subscript is `lower`: written before it when that is not 1 (`[0:2]={1,2,3}`). */
function boundedText(xs: unknown[], lower: number): string {
  const body = arrayText(xs);
  return lower === 1 || xs.length === 0 ? body : `[${lower}:${lower + xs.length - 1}]=${body}`;
}

/** The subscript of an array's first element (of its first dimension): its written lower bound, else 1. */
const lowerOf = (arr: unknown): number => (typeof arr === 'string' ? (arrayBounds(arr)?.lbs[0] ?? 1) : 1);

/** The lengths of a multi-dimensional array's dimensions (null for text not read here). */
function shape(text: string): number[] | null {
  let tree: ArrayTree | null;
  try {
    tree = parseArrayTree(text);
  } catch {
    return null;
  }
  const lengths: number[] = [];
  for (let x: ArrayTree | string | null = tree; Array.isArray(x) && x.length > 0; x = x[0]) lengths.push(x.length);
  return tree === null ? null : lengths;
}

/**
 * The subscripts of array text as PostgreSQL applies them: without a slice, an element where there
 * is one subscript per dimension (NULL otherwise, or out of bounds); with one, every subscript a
 * slice (`[n]` is `[1:n]`, a missing bound the dimension's end, dimensions not subscripted whole),
 * '{}' where a range is empty or there are more subscripts than dimensions; NULL for a NULL subscript.
 */
function subscripts(text: string, specs: string[], args: unknown[]): unknown {
  // (an array written with its bounds, '[0:1]={1,2}', is subscripted by them)
  const bounded = arrayBounds(text);
  let tree: ArrayTree | null;
  try {
    tree = parseArrayTree(bounded ? bounded.body : text);
  } catch {
    return null;
  }
  if (tree === null) return null;
  const lb = (d: number) => bounded?.lbs[d] ?? 1;
  const lengths: number[] = [];
  for (let x: ArrayTree | string | null = tree; Array.isArray(x) && x.length > 0; x = x[0]) lengths.push(x.length);
  const slice = specs.some((s) => s !== 'e');
  const ranges: [number, number][] = [];
  let k = 0;
  for (const spec of specs) {
    if (spec === 'e') {
      const n = args[k++];
      if (n === null || n === undefined) return null;
      ranges.push([slice ? 1 : Number(n), Number(n)]);
    } else {
      const [lo, hi] = [args[k++], args[k++]];
      if ((spec.includes('l') && lo === null) || (spec.includes('u') && hi === null)) return null;
      ranges.push([
        spec.includes('l') ? Number(lo) : Number.MIN_SAFE_INTEGER,
        spec.includes('u') ? Number(hi) : Number.MAX_SAFE_INTEGER,
      ]);
    }
  }
  if (!slice) {
    if (specs.length !== lengths.length) return null;
    let x: ArrayTree | string | null = tree;
    ranges.forEach(([n], d) => {
      x = Array.isArray(x) ? (x[n - lb(d)] ?? null) : null;
    });
    return typeof x === 'string' && /^-?\d+$/.test(x) ? arrayElements(`{${x}}`)[0] : x;
  }
  if (lengths.length === 0 || specs.length > lengths.length) return '{}';
  // (the bounds as offsets from each dimension's first element)
  const bounds = lengths.map((len, d): [number, number] => {
    const [lo, hi] = ranges[d] ?? [lb(d), lb(d) + len - 1];
    return [Math.max(1, lo - lb(d) + 1), Math.min(len, hi - lb(d) + 1)];
  });
  if (bounds.some(([lo, hi]) => lo > hi)) return '{}';
  const cut = (x: ArrayTree, d: number): ArrayTree =>
    x.slice(bounds[d][0] - 1, bounds[d][1]).map((y) => (Array.isArray(y) ? cut(y, d + 1) : y));
  return treeText(cut(tree, 0), (x) => x);
}
