// Assignment to a slice of an array (`SET arr[1:2] = '{9,8}'`, `arr[:2]`, `arr[2:]`) and to an
// element of a multi-dimensional one (`SET m[1][2] = 5`), as PostgreSQL's array_set_slice and
// array_set_element do (arrayfuncs.c): __pg_array_assign (protocols/pg/sql/translate/
// element-assignments.ts writes the calls; one subscript of a one-dimensional array is pg-arrays.ts'
// __pg_array_set). Arrays are PostgreSQL's text, with their bounds when a lower bound is not 1
// (`[0:2]={1,2,3}`, `[1:1][2:2]={{5}}`), as PostgreSQL prints them.
import { sqlStateError } from '../errors';
import { type ArrayTree, arrayBounds, parseArrayTree, treeText } from './pg-array-input';
import { byteaHex } from './pg-functions';

/** An array's dimensions, their lower bounds and its elements in row-major order. */
interface Shaped {
  dims: number[];
  lbs: number[];
  items: (string | null)[];
}

const MAX_ITEMS = 134217727;
const subscriptError = (message: string, detail?: string) => {
  const e = sqlStateError('2202E', message);
  if (detail) e.detail = detail;
  return e;
};

/** Array text (with or without bounds) read as dimensions, bounds and elements; `{}` has no dimension. */
function shaped(text: string): Shaped {
  const bounded = arrayBounds(text);
  const tree = parseArrayTree(bounded ? bounded.body : text) as ArrayTree;
  const dims: number[] = [];
  for (let x: ArrayTree | string | null = tree; Array.isArray(x) && x.length > 0; x = x[0]) dims.push(x.length);
  const items: (string | null)[] = [];
  const walk = (xs: ArrayTree) => {
    for (const x of xs)
      if (Array.isArray(x)) walk(x);
      else items.push(x);
  };
  walk(tree);
  return { dims, lbs: dims.map((_, d) => bounded?.lbs[d] ?? 1), items };
}

/** The text of an array: `{}` without dimensions, its bounds before it when one does not start at 1. */
function arrayOut({ dims, lbs, items }: Shaped): string {
  if (dims.length === 0) return '{}';
  let k = 0;
  const build = (d: number): ArrayTree =>
    Array.from({ length: dims[d] }, () => (d + 1 < dims.length ? build(d + 1) : items[k++]));
  const body = treeText(build(0), (x) => x);
  if (lbs.every((l) => l === 1)) return body;
  return `${dims.map((n, d) => `[${lbs[d]}:${lbs[d] + n - 1}]`).join('')}=${body}`;
}

/** The offset of an element (its subscripts, one per dimension) in row-major order. */
function offsetOf(a: Shaped, at: number[]): number {
  let off = 0;
  for (let d = 0; d < a.dims.length; d++) off = off * a.dims[d] + (at[d] - a.lbs[d]);
  return off;
}

const elementText = (x: unknown): string | null =>
  x === null || x === undefined ? null : x instanceof Uint8Array ? byteaHex(x) : String(x);

/**
 * `arr[...] = value` of several subscripts or a slice: `specs` as __pg_subscripts reads them ('e'
 * an element's subscript, 'lu:' a slice's written bounds), `args` their values.
 */
export function assignSubscripts(arr: unknown, specs: string[], args: unknown[], value: unknown): string {
  const slice = specs.some((s) => s !== 'e');
  const lower: (number | null)[] = [];
  const upper: (number | null)[] = [];
  let k = 0;
  const subscript = (x: unknown) => {
    if (x === null || x === undefined) throw sqlStateError('22004', 'array subscript in assignment must not be null');
    return Number(x);
  };
  for (const spec of specs) {
    if (spec === 'e') {
      const n = subscript(args[k++]);
      // (in a slice, [n] is [1:n], as PostgreSQL's parser makes it)
      lower.push(slice ? 1 : n);
      upper.push(n);
    } else {
      const [lo, hi] = [args[k++], args[k++]];
      lower.push(spec.includes('l') ? subscript(lo) : null);
      upper.push(spec.includes('u') ? subscript(hi) : null);
    }
  }
  const base: Shaped = arr === null || arr === undefined ? { dims: [], lbs: [], items: [] } : shaped(String(arr));
  const n = specs.length;
  if (!slice) return arrayOut(setElement(base, upper as number[], elementText(value)));
  // (a NULL source changes nothing; a NULL array is an empty one)
  if (value === null || value === undefined) return arrayOut(base);
  const source = shaped(String(value)).items;
  if (base.dims.length === 0) {
    if (lower.some((l) => l === null) || upper.some((u) => u === null))
      throw subscriptError(
        'array slice subscript must provide both boundaries',
        'When assigning to a slice of an empty array value, slice boundaries must be fully specified.',
      );
    const dims = lower.map((l, d) => (upper[d] as number) - (l as number) + 1);
    const count = dims.reduce((a, b) => a * b, 1);
    if (dims.some((x) => x <= 0) || count > MAX_ITEMS)
      throw sqlStateError('54000', `array size exceeds the maximum allowed (${MAX_ITEMS})`);
    if (source.length < count) throw subscriptError('source array too small');
    return arrayOut({ dims, lbs: lower as number[], items: source.slice(0, count) });
  }
  const a: Shaped = { dims: [...base.dims], lbs: [...base.lbs], items: [...base.items] };
  const nd = a.dims.length;
  if (nd < n) throw subscriptError('wrong number of array subscripts');
  for (let d = 0; d < nd; d++) {
    lower[d] = d < n ? (lower[d] ?? a.lbs[d]) : a.lbs[d];
    upper[d] = d < n ? (upper[d] ?? a.dims[d] + a.lbs[d] - 1) : a.dims[d] + a.lbs[d] - 1;
    if ((lower[d] as number) > (upper[d] as number))
      throw subscriptError('upper bound cannot be less than lower bound');
  }
  const lo = lower as number[];
  const hi = upper as number[];
  if (nd === 1) {
    // one dimension grows to take the slice, NULLs in any gap
    const before = Math.max(0, a.lbs[0] - lo[0]);
    const after = Math.max(0, hi[0] - (a.dims[0] + a.lbs[0] - 1));
    if (a.dims[0] + before + after > MAX_ITEMS)
      throw sqlStateError('54000', `array size exceeds the maximum allowed (${MAX_ITEMS})`);
    a.items = [...Array<null>(before).fill(null), ...a.items, ...Array<null>(after).fill(null)];
    a.dims[0] += before + after;
    a.lbs[0] -= before;
  } else {
    for (let d = 0; d < n; d++)
      if (lo[d] < a.lbs[d] || hi[d] >= a.dims[d] + a.lbs[d]) throw subscriptError('array subscript out of range');
  }
  // the source's elements in order, whatever its shape
  const span = lo.map((l, d) => hi[d] - l + 1);
  if (source.length < span.reduce((x, y) => x * y, 1)) throw subscriptError('source array too small');
  let next = 0;
  const fill = (d: number, at: number[]) => {
    for (let i = lo[d]; i <= hi[d]; i++) {
      if (d + 1 < nd) fill(d + 1, [...at, i]);
      else a.items[offsetOf(a, [...at, i])] = source[next++];
    }
  };
  fill(0, []);
  return arrayOut(a);
}

/** `m[i][j] = x`: within the bounds of a multi-dimensional array; an empty one becomes the one element. */
function setElement(base: Shaped, at: number[], x: string | null): Shaped {
  if (base.dims.length === 0) return { dims: at.map(() => 1), lbs: at, items: [x] };
  if (base.dims.length !== at.length) throw subscriptError('wrong number of array subscripts');
  if (at.some((i, d) => i < base.lbs[d] || i >= base.lbs[d] + base.dims[d]))
    throw subscriptError('array subscript out of range');
  const items = [...base.items];
  items[offsetOf(base, at)] = x;
  return { ...base, items };
}
