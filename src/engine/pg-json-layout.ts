// PostgreSQL's json (not jsonb) keeps the text its builders write: json_build_object puts ` : `
// between a key and its value and `, ` between members (`{"a" : 1, "b" : 2}`), json_build_array and
// json_agg `, ` (json_agg of rows or arrays `, \n `), json_object_agg `{ "a" : 1 }`; row_to_json and
// to_json write none. SQLite's JSON functions write the compact form. printJsonLayout reprints a
// compact document by a layout the analysis read off the parse tree (sql/json-layout.ts):
//   c         the value as it is (row_to_json, to_json, a scalar, a builder's document)
//   v         a json column or `::json` value, which PostgreSQL's builders keep as written: the
//             translation passes its text as a string marked by a leading U+0001
//             (__pg_json_verbatim), printed here as that text
//   O(L,...)  json_build_object: a layout per member, in order
//   R(L,...)  a whole row (row_to_json(t), json_agg(t)): compact, a layout per column (v for json)
//   A(L,...)  json_build_array: a layout per element
//   G(L)      json_agg: every element by L (Gn: rows or arrays, `, \n ` between them)
//   M(L)      json_object_agg: every value by L

type Layout =
  | { kind: 'c' | 'v' }
  | { kind: 'O' | 'A' | 'R'; items: Layout[] }
  | { kind: 'G' | 'Gn' | 'M'; item: Layout };

const RAW: Layout = { kind: 'c' };
const VERBATIM: Layout = { kind: 'v' };

/** The mark __pg_json_verbatim puts before a json value's text (a string in SQLite's document). */
export const VERBATIM_MARK = '\u0001';
const parsed = new Map<string, Layout>();

function parseLayout(text: string): Layout {
  let i = 0;
  const node = (): Layout => {
    const kind = text[i] === 'G' && text[i + 1] === 'n' ? 'Gn' : text[i];
    i += kind.length;
    if (kind === 'c') return RAW;
    if (kind === 'v') return VERBATIM;
    if (text[i] !== '(') throw new Error(`bad JSON layout ${text}`);
    i++;
    const items: Layout[] = [];
    if (text[i] !== ')') {
      items.push(node());
      while (text[i] === ',') {
        i++;
        items.push(node());
      }
    }
    if (text[i++] !== ')') throw new Error(`bad JSON layout ${text}`);
    if (kind === 'O' || kind === 'A' || kind === 'R') return { kind, items };
    if (kind === 'G' || kind === 'Gn' || kind === 'M') return { kind, item: items[0] ?? RAW };
    throw new Error(`bad JSON layout ${text}`);
  };
  return node();
}

const space = (s: string, i: number) => {
  while (i < s.length && (s[i] === ' ' || s[i] === '\n' || s[i] === '\t' || s[i] === '\r')) i++;
  return i;
};

/** The end of the JSON value starting at s[i] (no leading space). */
function valueEnd(s: string, i: number): number {
  let depth = 0;
  for (; i < s.length; i++) {
    const c = s[i];
    if (c === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === '\\') i++;
      if (depth === 0) return i + 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return i; // the end of a scalar in a container
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (c === ',' || c === ' ' || c === '\n' || c === '\t' || c === '\r')) return i;
  }
  return i;
}

/** The value at s[i] printed by `layout`, and the index after it. */
function print(s: string, i: number, layout: Layout): [string, number] {
  i = space(s, i);
  const open = s[i];
  if (layout.kind === 'v' && s.startsWith('"\\u0001', i)) {
    const end = valueEnd(s, i);
    return [(JSON.parse(s.slice(i, end)) as string).slice(1), end];
  }
  if (
    layout.kind === 'c' ||
    layout.kind === 'v' ||
    (open !== '{' && open !== '[') ||
    (open === '{') !== (layout.kind === 'O' || layout.kind === 'M' || layout.kind === 'R')
  ) {
    const end = valueEnd(s, i);
    return [s.slice(i, end), end];
  }
  const parts: string[] = [];
  let j = space(s, i + 1);
  let k = 0;
  while (j < s.length && s[j] !== '}' && s[j] !== ']') {
    const child = 'items' in layout ? (layout.items[k] ?? RAW) : 'item' in layout ? layout.item : RAW;
    let key = '';
    if (open === '{') {
      const keyEnd = valueEnd(s, j);
      key = `${s.slice(j, keyEnd)}${layout.kind === 'R' ? ':' : ' : '}`;
      j = space(s, keyEnd) + 1; // past ':'
    }
    const [value, next] = print(s, j, child);
    parts.push(key + value);
    k++;
    j = space(s, next);
    if (s[j] === ',') j = space(s, j + 1);
  }
  const end = j + 1; // past the closing bracket
  if (layout.kind === 'M') return [parts.length ? `{ ${parts.join(', ')} }` : '{}', end];
  // (json_agg breaks the line before a row or an array, not before a null)
  if (layout.kind === 'Gn')
    return [`[${parts.map((p, n) => (n === 0 ? p : p === 'null' ? `, ${p}` : `, \n ${p}`)).join('')}]`, end];
  const sep = layout.kind === 'R' ? ',' : ', ';
  return [open === '{' ? `{${parts.join(sep)}}` : `[${parts.join(sep)}]`, end];
}

/** A compact JSON document as PostgreSQL's json builders of `layout` write it. */
export function printJsonLayout(doc: string, layout: string): string {
  let l = parsed.get(layout);
  if (!l) {
    l = parseLayout(layout);
    if (parsed.size < 1000) parsed.set(layout, l);
  }
  return print(doc, 0, l)[0];
}
