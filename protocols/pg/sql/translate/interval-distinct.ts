// SELECT DISTINCT of intervals by their length, as PostgreSQL compares them (`1 day` and `24 hours`
// are one row; SQLite's DISTINCT compared their text). The analysis marks the interval items of a
// plain DISTINCT ('iv-distinct', sql/typed-operators.ts); the DISTINCT becomes a GROUP BY of every
// item, the other items by position and the intervals by their expression marked 'iv-group', which
// null-order.ts's rewriteIntervalGroups then groups by __pg_interval_key:
//
//   SELECT DISTINCT a, iv AS d FROM t ORDER BY d  →  SELECT a, iv AS d FROM t GROUP BY 1, iv ORDER BY d
import { type Tok, closerAfter, isOp, isPunct, isWord, topLevelItems } from '../tokens';
import { exactSortKey, quotedName } from './exact-order';

const mark = (t: Tok | undefined): string | undefined =>
  t && 'sortKey' in t && (t.sortKey?.startsWith('iv-distinct') || t.sortKey?.startsWith('arr-distinct:'))
    ? t.sortKey
    : undefined;

/** A DISTINCT item's mark as its group's: 'iv-group', or 'arr-group:kind' of a numeric or boolean array; and its alias. */
function groupOf(m: string): { group: string; alias: string } {
  const a = /^arr-distinct:(\w+):?(.*)$/s.exec(m);
  return a ? { group: `arr-group:${a[1]}`, alias: a[2] } : { group: 'iv-group', alias: m.slice('iv-distinct:'.length) };
}

/** Where a select list ends: its FROM or the next clause at its depth. */
const LIST_ENDS = new Set(['FROM', 'WHERE', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION', 'EXCEPT', 'INTERSECT', 'INTO']); // biome-ignore format: a word list
/** Where GROUP BY goes: before the first of these after the FROM and WHERE clauses. */
const GROUP_BEFORE = new Set(['WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION', 'EXCEPT', 'INTERSECT']); // biome-ignore format: a word list

/** The select item an ORDER BY term's first token names: by position (`1`) or output name; -1 if neither. */
export const termIndex = (t: Tok, names: readonly string[]): number =>
  t.type === 'number' && /^\d+$/.test(t.text)
    ? Number(t.text) - 1
    : t.type === 'word' || t.type === 'quoted'
      ? names.indexOf(identOf(t))
      : -1;

export const identOf = (t: Tok) =>
  t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase();

/** The end (exclusive) of the clause starting at `from` at its own depth: before a word of `ends`, `)`, `;` or the end. */
function clauseEnd(toks: Tok[], from: number, ends: Set<string>): number {
  let depth = 0;
  for (let i = from; i < toks.length; i++) {
    const t = toks[i];
    if (isPunct(t, '(') || isPunct(t, '[')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']')) {
      if (depth-- === 0) return i;
    } else if (depth === 0 && (isPunct(t, ';') || (t.type === 'word' && ends.has(t.text.toUpperCase())))) return i;
  }
  return toks.length;
}

export function rewriteIntervalDistinct(toks: Tok[]): Tok[] {
  toks = rewriteIntervalUnion(toks);
  if (!toks.some((t) => mark(t) !== undefined)) return toks;
  const out = toks.slice();
  for (let s = out.length - 2; s >= 0; s--) {
    if (!(isWord(out[s], 'SELECT') && isWord(out[s + 1], 'DISTINCT') && !isWord(out[s + 2], 'ON'))) continue;
    const listEnd = clauseEnd(out, s + 2, LIST_ENDS);
    const items = topLevelItems(out, s + 2, listEnd);
    if (!items.some(([a]) => mark(out[a]) !== undefined)) continue;
    const terms: Tok[] = [];
    items.forEach(([a, b], k) => {
      if (terms.length > 0) terms.push({ type: 'punct', text: ',' });
      const m = mark(out[a]);
      if (m === undefined) {
        terms.push({ type: 'number', text: String(k + 1) });
        return;
      }
      // the item without its alias: `iv AS d`, `iv d`
      let end = b;
      const { group, alias } = groupOf(m);
      if (alias && end - a >= 2 && identOf(out[end - 1]) === alias) {
        end--;
        if (isWord(out[end - 1], 'AS')) end--;
      }
      const expr = out.slice(a, end);
      terms.push({ ...expr[0], sortKey: group } as Tok, ...expr.slice(1));
    });
    for (const [a] of items) if (mark(out[a]) !== undefined) out[a] = { ...out[a], sortKey: undefined } as Tok;
    const at = clauseEnd(out, listEnd, GROUP_BEFORE);
    out.splice(at, 0, { type: 'word', text: 'GROUP' }, { type: 'word', text: 'BY' }, ...terms);
    out.splice(s + 1, 1); // DISTINCT
  }
  return out;
}

const unionMark = (t: Tok | undefined): string | undefined =>
  t && 'sortKey' in t && t.sortKey?.startsWith('iv-union:') ? t.sortKey : undefined;

const TAIL = new Set(['ORDER', 'LIMIT', 'OFFSET', 'FETCH']);
const SET_OPS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);

/**
 * A UNION of intervals (marked 'iv-union:g' with the columns' kinds and names on its first item) as
 * the UNION ALL of its members grouped by every column, an interval by its length; its ORDER BY
 * sorts an interval column by its length too, as does another set operation's ('iv-union:s'):
 *
 *   SELECT iv FROM a UNION SELECT iv FROM b ORDER BY 1
 *     →  SELECT * FROM (SELECT iv FROM a UNION ALL SELECT iv FROM b) AS "__pg_u"
 *        GROUP BY __pg_interval_key("iv") ORDER BY __pg_interval_key("iv")
 */
function rewriteIntervalUnion(toks: Tok[]): Tok[] {
  const at = toks.findIndex((t) => unionMark(t) !== undefined);
  if (at < 0) return toks;
  const [, mode, kinds, json] = /^iv-union:([gsxe])([inxmbjt]+):(.*)$/.exec(unionMark(toks[at])!)!;
  // (a name given as { as: name } is an item's without a name of its own: it is given that one;
  // with `at`, a numeric handed over at that scale: __pg_numeric_at(item, at) AS name)
  const listed = JSON.parse(json) as (string | { as: string; at?: number; real?: boolean })[];
  const names = listed.map((x) => (typeof x === 'string' ? x : x.as));
  const out = toks.slice();
  out[at] = { ...out[at], sortKey: undefined } as Tok;
  // the first member's SELECT, at the item's depth (an opening parenthesis at that depth is the
  // item's own: its first token is inside, `SELECT (x - 1) ...`, `SELECT (x)::numeric ...`)
  let s = at - 1;
  for (let depth = 0; s >= 0; s--) {
    if (isPunct(out[s], ')')) depth++;
    else if (isPunct(out[s], '(')) depth = Math.max(0, depth - 1);
    else if (depth === 0 && isWord(out[s], 'SELECT')) break;
  }
  if (s < 0) return rewriteIntervalUnion(out);
  if (listed.some((x) => typeof x !== 'string')) {
    // (after its DISTINCT, DISTINCT ON (...) or ALL: `__pg_numeric_at(DISTINCT n, 2)` was 42601)
    let list = s + 1;
    if (isWord(out[list], 'ALL')) list++;
    else if (isWord(out[list], 'DISTINCT'))
      list = isWord(out[list + 1], 'ON') && isPunct(out[list + 2], '(') ? closerAfter(out, list + 2) + 1 : list + 1;
    const first = topLevelItems(out, list, clauseEnd(out, list, LIST_ENDS));
    if (first.length !== names.length) return rewriteIntervalUnion(out);
    for (let k = first.length - 1; k >= 0; k--) {
      const x = listed[k];
      if (typeof x === 'string') continue;
      let [a, b] = first[k];
      if (x.at !== undefined || x.real) {
        // the item without its own alias, then at its scale, or as a double (__pg_numeric_real)
        // (`1.50::numeric` is named by its cast's type, no alias: it was cut to `1.50::`, 42601)
        // (nor a qualified column's own name, `d.n`: it was cut to `d.`, 42601)
        if (
          b - a >= 2 &&
          identOf(out[b - 1]) === x.as.toLowerCase() &&
          !isOp(out[b - 2], '::') &&
          !isPunct(out[b - 2], '.')
        )
          b -= isWord(out[b - 2], 'AS') ? 2 : 1;
        const tail: Tok[] = x.real
          ? [{ type: 'punct', text: ')' }]
          : [
              { type: 'punct', text: ',' },
              { type: 'number', text: String(x.at) },
              { type: 'punct', text: ')' },
            ];
        const call: Tok = { type: 'word', text: x.real ? '__pg_numeric_real' : '__pg_numeric_at' };
        const expr = out.slice(a, b);
        out.splice(a, first[k][1] - a, call, { type: 'punct', text: '(' }, ...expr, ...tail);
        b = a + 2 + expr.length + tail.length;
      } else {
        b = first[k][1];
        // (the name given already, sql/figured-aliases.ts: given once)
        if (b - a >= 3 && isWord(out[b - 2], 'AS') && identOf(out[b - 1]) === x.as.toLowerCase()) {
          out.splice(b - 2, 2);
          b -= 2;
        }
      }
      out.splice(b, 0, { type: 'word', text: 'AS' }, { type: 'quoted', text: quotedName(x.as) });
    }
  }
  const end = clauseEnd(out, s, new Set());
  // the compound's ORDER BY, LIMIT, ...: after its last set operator, at its depth
  let lastUnion = -1;
  let tail = end;
  for (let i = s, depth = 0; i < end; i++) {
    if (isPunct(out[i], '(')) depth++;
    else if (isPunct(out[i], ')')) depth--;
    else if (depth === 0 && out[i].type === 'word' && SET_OPS.has(out[i].text.toUpperCase())) lastUnion = i;
    else if (depth === 0 && lastUnion >= 0 && out[i].type === 'word' && TAIL.has(out[i].text.toUpperCase())) {
      tail = i;
      break;
    }
  }
  if (lastUnion < 0) return rewriteIntervalUnion(out);
  const column = (k: number) => `"${names[k].replace(/"/g, '""')}"`;
  const key = (k: number): Tok => ({ type: 'group', text: `__pg_interval_key(${column(k)})` });
  // a numeric ('m') or boolean ('b') array by its elements' values, jsonb ('j') by its value
  const arrayKey = (k: number): Tok => ({ type: 'group', text: keyText(kinds[k], column(k)) });
  const pair = mode === 'x' || mode === 'e';
  const members: Tok[] = pair ? pairMembers(out, s, lastUnion, tail, mode, kinds, names) : [];
  for (let i = s, depth = 0; i < tail && !pair; i++) {
    const t = out[i];
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    members.push(t);
    if (mode === 'g' && depth === 0 && isWord(t, 'UNION') && !isWord(out[i + 1], 'ALL'))
      members.push({ type: 'word', text: 'ALL' });
  }
  const group: Tok[] = [];
  [...kinds].forEach((kind, k) => {
    if (k > 0) group.push({ type: 'punct', text: ',' });
    group.push(
      kind === 'i'
        ? key(k)
        : kind === 'm' || kind === 'b' || kind === 'j' || kind === 't'
          ? arrayKey(k)
          : kind === 'x'
            ? { type: 'group', text: keyText('x', column(k)) }
            : { type: 'number', text: String(k + 1) },
    );
  });
  // ORDER BY 1 or ORDER BY name of an interval column: by its length (of a jsonb column, by its key)
  const rest = out.slice(tail, end);
  const ordered = isWord(rest[0], 'ORDER') && isWord(rest[1], 'BY');
  if (mode === 's' && !ordered) return rewriteIntervalUnion(out);
  if (ordered) {
    const orderEnd = clauseEnd(rest, 2, new Set(['LIMIT', 'OFFSET', 'FETCH']));
    for (const [a] of topLevelItems(rest, 2, orderEnd)) {
      const t = rest[a];
      const k = termIndex(t, names);
      const single = a + 1 >= orderEnd || rest[a + 1].type === 'word' || isPunct(rest[a + 1], ',');
      if (k >= 0 && kinds[k] === 'i' && single) rest[a] = key(k);
      // a jsonb column in jsonb's order, a timetz one by its instant and offset
      if (k >= 0 && (kinds[k] === 'j' || kinds[k] === 't') && single) rest[a] = arrayKey(k);
      // an exact numeric column (sql/exact-columns.ts) by its number, NaN above all
      if (k >= 0 && kinds[k] === 'x' && single)
        rest[a] = { type: 'group', text: exactSortKey(`"${names[k].replace(/"/g, '""')}"`) };
    }
  }
  const grouped: Tok[] =
    mode !== 's' ? [{ type: 'word', text: 'GROUP' } as Tok, { type: 'word', text: 'BY' } as Tok, ...group] : [];
  const g = (text: string): Tok => ({ type: 'group', text });
  // exact numerics at two scales grouped as one: the first row's, as PostgreSQL's hashing keeps it
  // (its members' rows numbered in order, the group's least number picks its row)
  const firstSeen = mode !== 's' && kinds.includes('x');
  const wrapped: Tok[] = firstSeen
    ? [
        // (SELECT a word of its own: the passes after this one know a query by it)
        { type: 'word', text: 'SELECT' },
        g(
          `${names.map(quotedName).join(', ')} FROM (SELECT *, min("__pg_seq") FROM (SELECT *, row_number() OVER () AS "__pg_seq" FROM`,
        ),
        { type: 'punct', text: '(' },
        ...members,
        { type: 'punct', text: ')' },
        g(')'),
        ...grouped,
        g(') AS "__pg_u"'),
        ...rest,
      ]
    : [
        { type: 'word', text: 'SELECT' },
        { type: 'op', text: '*' },
        { type: 'word', text: 'FROM' },
        { type: 'punct', text: '(' },
        ...members,
        { type: 'punct', text: ')' },
        { type: 'word', text: 'AS' },
        { type: 'quoted', text: '"__pg_u"' },
        ...grouped,
        ...rest,
      ];
  return rewriteIntervalUnion([...out.slice(0, s), ...wrapped, ...out.slice(end)]);
}

/** How a column of kind `kind` ('i' interval, 'm'/'b' numeric/boolean array, 'j' jsonb, 't' timetz, 'x' exact numeric or 'n' other: by itself) is compared. */
function keyText(kind: string, column: string): string {
  // timetz by its instant, then its offset (one key for one value: timetz_eq's time and offset)
  if (kind === 't') return `__pg_array_sortkey('timetz', ${column})`;
  if (kind === 'i') return `__pg_interval_key(${column})`;
  if (kind === 'm' || kind === 'b') return `__pg_array_key('${kind === 'm' ? 'numeric' : 'boolean'}', ${column})`;
  // jsonb by its value (src/engine/jsonb-sort-key.ts: one key for `1.50` and `1.5`)
  if (kind === 'j') return `__pg_jsonb_sortkey(${column})`;
  // an exact numeric (sql/exact-columns.ts) by its number at any scale
  if (kind === 'x') return `__pg_numeric_key(${column})`;
  return column;
}

/**
 * `A INTERSECT B` ('x') or `A EXCEPT B` ('e') as A's rows for which a row of B of the same values
 * (intervals by length, NULLs equal) exists or not; the caller groups them by the same keys:
 *
 *   SELECT iv FROM a INTERSECT SELECT iv FROM b  →  SELECT * FROM (SELECT iv FROM a) AS "__pg_l"
 *     WHERE EXISTS (SELECT 1 FROM (SELECT NULL AS "iv" WHERE 0 UNION ALL SELECT * FROM (SELECT iv FROM b))
 *     AS "__pg_r" WHERE __pg_interval_key("__pg_r"."iv") IS __pg_interval_key("__pg_l"."iv"))
 * (here the members only: the caller wraps them in SELECT * FROM (...) AS "__pg_u")
 */
function pairMembers(
  out: Tok[],
  s: number,
  op: number,
  tail: number,
  mode: string,
  kinds: string,
  names: string[],
): Tok[] {
  const right = out.slice(isWord(out[op + 1], 'DISTINCT') ? op + 2 : op + 1, tail);
  const quoted = names.map((n) => `"${n.replace(/"/g, '""')}"`);
  const empty = quoted.map((q) => `NULL AS ${q}`).join(', ');
  const same = quoted
    .map((q, k) => `${keyText(kinds[k], `"__pg_r".${q}`)} IS ${keyText(kinds[k], `"__pg_l".${q}`)}`)
    .join(' AND ');
  const g = (text: string): Tok => ({ type: 'group', text });
  const [open, close]: Tok[] = [
    { type: 'punct', text: '(' },
    { type: 'punct', text: ')' },
  ];
  return [
    ...[
      g('SELECT * FROM'),
      open,
      ...out.slice(s, op),
      close,
      g(`AS "__pg_l" WHERE ${mode === 'e' ? 'NOT ' : ''}EXISTS`),
    ],
    ...[open, g('SELECT 1 FROM'), open, g(`SELECT ${empty} WHERE 0 UNION ALL SELECT * FROM`), open, ...right, close],
    ...[close, g(`AS "__pg_r" WHERE ${same}`), close],
  ];
}
