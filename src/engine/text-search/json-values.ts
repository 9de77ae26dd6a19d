// What to_tsvector of json or jsonb and json(b)_to_tsvector index: a document's values of the kinds
// a filter names, in document order (iterate_json_values, iterate_jsonb_values). The document is
// read as text token by token rather than through JSON.parse, which would move keys that look like
// integers to the front of an object (jsonb's text already has PostgreSQL's key order).
import { sqlStateError } from '../../errors';

export type JsonValueKind = 'string' | 'numeric' | 'boolean' | 'key';

const FLAG_HINT = 'Possible values are: "string", "numeric", "boolean", "key", and "all".';

/** parse_jsonb_index_flags: a filter (a string or an array of strings, case-insensitive; not an object) as its kinds. */
export function jsonFilterKinds(filter: string): Set<JsonValueKind> {
  const kinds = new Set<JsonValueKind>();
  const add = (v: unknown) => {
    if (typeof v !== 'string') throw sqlStateError('22023', 'flag array element is not a string', 'user', FLAG_HINT);
    const flag = v.toLowerCase();
    if (flag === 'all') for (const k of ['string', 'numeric', 'boolean', 'key'] as const) kinds.add(k);
    else if (flag === 'string' || flag === 'numeric' || flag === 'boolean' || flag === 'key') kinds.add(flag);
    else throw sqlStateError('22023', `wrong flag in flag array: "${v}"`, 'user', FLAG_HINT);
  };
  const doc: unknown = JSON.parse(filter);
  if (Array.isArray(doc)) for (const v of doc) add(v);
  else if (doc === null || typeof doc !== 'object') add(doc);
  else throw sqlStateError('22023', 'wrong flag type, only arrays and scalars are allowed');
  return kinds;
}

/** The document's values of the given kinds (a number as written, a boolean as true or false), in order. */
export function jsonValues(doc: string, kinds: Set<JsonValueKind>): string[] {
  const out: string[] = [];
  // a string token, which is a key when a colon follows it
  const str = /"(?:[^"\\]|\\.)*"/y;
  const literal = /-?(?:\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
  let i = 0;
  while (i < doc.length) {
    const c = doc[i];
    if (c === '"') {
      str.lastIndex = i;
      const m = str.exec(doc);
      if (!m) break;
      i = str.lastIndex;
      let j = i;
      while (j < doc.length && /\s/.test(doc[j])) j++;
      const kind: JsonValueKind = doc[j] === ':' ? 'key' : 'string';
      if (kinds.has(kind)) out.push(JSON.parse(m[0]) as string);
    } else if (c === '-' || (c >= '0' && c <= '9') || c === 't' || c === 'f' || c === 'n') {
      literal.lastIndex = i;
      const m = literal.exec(doc);
      if (!m) break;
      i = literal.lastIndex;
      if (m[0] === 'true' || m[0] === 'false') {
        if (kinds.has('boolean')) out.push(m[0]);
      } else if (m[0] !== 'null' && kinds.has('numeric')) out.push(m[0]);
    } else i++;
  }
  return out;
}
