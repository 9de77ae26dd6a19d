// Where each object and array of a jsonb document sits in PostgreSQL's binary jsonb (jsonb_util.c's
// convertToJsonb): a container is a 4-byte header and a 4-byte JEntry per element (per key and per
// value for an object), then the data: an object's keys (sorted as jsonb sorts them), then its
// values; strings are their UTF-8 bytes, true/false/null nothing, and a number (a numeric datum
// with a 4-byte length header) and a nested container start at a multiple of 4. jsonpath's
// .keyvalue() numbers the objects it reads by this offset (the `id` of its results).
import { type Json, byKey } from './jsonb';
import { parseDecimal } from './decimal';

const align = (n: number) => (n + 3) & ~3;

/** The bytes of a numeric datum: varlena header, numeric header (2, or 4 for the long form), base-10000 digits. */
function numericSize(text: string): number {
  const d = parseDecimal(text)!;
  const int = d.int.replace(/^0+/, '');
  const intPadded = int.padStart(Math.ceil(int.length / 4) * 4, '0');
  const fracPadded = d.frac.padEnd(Math.ceil(d.frac.length / 4) * 4, '0');
  const groups = (intPadded + fracPadded).match(/.{4}/g) ?? [];
  let first = groups.findIndex((g) => g !== '0000');
  if (first < 0) return 4 + 2; // zero: no digits
  let last = groups.length - 1;
  while (groups[last] === '0000') last--;
  const weight = intPadded.length / 4 - 1 - first;
  const short = d.frac.length <= 63 && weight >= -64 && weight <= 63;
  first = Math.max(first, 0);
  return 4 + (short ? 2 : 4) + 2 * (last - first + 1);
}

/** The offset of every container of `doc` from the start of its root container. */
export function containerOffsets(doc: Json): Map<object, number> {
  const out = new Map<object, number>();
  const container = (v: Json[] | Map<string, Json>, at: number): number => {
    out.set(v, at);
    const keys = v instanceof Map ? [...v.keys()].sort(byKey) : [];
    const values = v instanceof Map ? keys.map((k) => v.get(k) as Json) : v;
    let pos = at + 4 + 4 * (keys.length + values.length);
    for (const k of keys) pos += Buffer.byteLength(k);
    for (const x of values) pos = value(x, pos);
    return pos;
  };
  const value = (x: Json, pos: number): number => {
    if (x === null || typeof x === 'boolean') return pos;
    if (typeof x === 'string') return pos + Buffer.byteLength(x);
    if (Array.isArray(x) || x instanceof Map) return container(x, align(pos));
    return align(pos) + numericSize(x.num);
  };
  if (Array.isArray(doc) || doc instanceof Map) container(doc, 0);
  return out;
}
