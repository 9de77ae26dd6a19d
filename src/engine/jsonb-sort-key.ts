// A jsonb value's sort key: text whose bytes (SQLite's BINARY order) sort as PostgreSQL orders
// jsonb (compareJsonb in jsonb.ts, its compareJsonbContainers), so that ORDER BY a jsonb column
// sorts `7` before `100` now that a number document is stored as its text (schema/stored-types.ts).
// Each value's key is self-delimiting and no key is a prefix of a greater one, so a container's
// key, its elements' keys one after another, sorts element by element.
import { type Json, byKey } from './jsonb';
import { numberSortKey } from './pg-array-input';

/** A string by its bytes, then \x01 (bytes \x00-\x02 escaped after \x02, still in their order). */
const stringKey = (s: string): string => `${s.replace(/[\x00-\x02]/g, (c) => `\x02${c}`)}\x01`;

/** A value inside a document: its kind's rank (null, string, number, boolean, array, object), then it. */
function valueKey(v: Json): string {
  if (v === null) return '0';
  if (typeof v === 'string') return `1${stringKey(v)}`;
  if (typeof v === 'boolean') return v ? '31' : '30';
  if (Array.isArray(v)) return `4${count(v.length)}${v.map(valueKey).join('')}`;
  if (v instanceof Map) return `5${count(v.size)}${pairsKey(v)}`;
  // (a positive number's digits end with '!', before any digit: 1 before 1.5; a negative's with ':')
  const n = numberSortKey(v.num);
  return `2${n.startsWith('C') ? `${n}!` : n}`;
}

/** An object's pairs in jsonb's key order (shorter keys first), each key then its value. */
const pairsKey = (m: Map<string, Json>): string =>
  [...m.keys()]
    .sort(byKey)
    .map((k) => stringKey(k) + valueKey(m.get(k)!))
    .join('');

const count = (n: number): string => String(n).padStart(10, '0');

/**
 * The key of a whole document: a top-level scalar is a one-element array to PostgreSQL, before an
 * array of one element; arrays (fewer elements first) before objects (fewer pairs first).
 */
export function jsonbSortKey(v: Json): string {
  if (v instanceof Map) return `B${count(v.size)}${pairsKey(v)}`;
  if (Array.isArray(v)) return `A${count(v.length)}1${v.map(valueKey).join('')}`;
  return `A${count(1)}0${valueKey(v)}`;
}
