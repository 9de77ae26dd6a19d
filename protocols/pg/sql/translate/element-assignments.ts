// Assignment to an array's element, which SQLite's grammar has no place for (it was 42601 `near
// "("`): `UPDATE t SET arr[2] = 5` becomes `SET arr = __pg_array_set(arr, 2, 5)` (several
// elements of one column one call inside the other, in the order written, as PostgreSQL applies
// them to the row's old value), and `INSERT INTO t (id, arr[1], arr[2]) VALUES (1, 10, 20)` writes
// `arr` built from NULL the same way, in each row of its VALUES; INSERT ... SELECT reads its query
// as a WITH query of numbered columns and builds `arr` from those. __pg_array_set
// (src/engine/pg-arrays.ts) extends the array with NULLs past either end, as PostgreSQL does. A
// slice (`arr[1:2] = '{9,8}'`, `arr[:2]`, `arr[2:]`) or several subscripts (`m[1][2] = 5`) are
// __pg_array_assign's (src/engine/pg-array-assign.ts), given the subscripts as __pg_subscripts is.
import { pgError } from '../../sqlstate';
import { type Tok, closerAfter, identText, isOp, isPunct, isWord, topLevelItems } from '../tokens';
import { asText, textMark } from './assignment';
import { insertTarget } from './insert-defaults';
import { queryEnd } from './insert-select';
import type { DialectContext } from './translate';
import { setClause } from './update-defaults';

const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
const punct = (text: string): Tok => ({ type: 'punct', text });
const word = (text: string): Tok => ({ type: 'word', text });

/** A target `name[subscript]...`: the name and each subscript's tokens; null for a plain name or other forms. */
export function elementTarget(item: readonly Tok[], from: number, to: number): { name: Tok; subs: Tok[][] } | null {
  if (!isName(item[from]) || !isPunct(item[from + 1], '[')) return null;
  const subs: Tok[][] = [];
  let at = from + 1;
  while (at < to && isPunct(item[at], '[')) {
    const close = closerAfter(item as Tok[], at, '[', ']');
    subs.push(item.slice(at + 1, close));
    at = close + 1;
  }
  // (arr[1].f: a field of an element)
  if (at !== to) throw pgError('0A000', 'assignment to a field of an array element is not supported by Patina');
  return { name: item[from], subs };
}

/** Where a subscript's `:` is (a slice's), outside parentheses; -1 for an element's subscript. */
function colonAt(sub: readonly Tok[]): number {
  let depth = 0;
  for (let k = 0; k < sub.length; k++) {
    const t = sub[k];
    if (isPunct(t, '(') || isPunct(t, '[')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']')) depth--;
    else if (depth === 0 && (isPunct(t, ':') || isOp(t, ':'))) return k;
  }
  return -1;
}

const parenthesised = (toks: Tok[]): Tok[] => [punct('('), ...toks, punct(')')];

/**
 * One assignment's call around `base`: `__pg_array_set(base, (i), (v))` for one subscript, else
 * `__pg_array_assign(base, 'e,lu:', (v), (i), (lo), (hi))` (a bound not written is NULL).
 */
function setCall(base: Tok[], subs: Tok[][], value: Tok[]): Tok[] {
  const colons = subs.map(colonAt);
  if (subs.length === 1 && colons[0] < 0)
    return [
      word('__pg_array_set'),
      punct('('),
      ...base,
      punct(','),
      ...parenthesised(subs[0]),
      punct(','),
      ...parenthesised(value),
      punct(')'),
    ];
  const bound = (toks: Tok[]) => (toks.length > 0 ? parenthesised(toks) : [word('NULL')]);
  const spec = subs.map((sub, k) => {
    const c = colons[k];
    return c < 0 ? 'e' : `${c > 0 ? 'l' : ''}${c < sub.length - 1 ? 'u' : ''}:`;
  });
  const args = subs.flatMap((sub, k): Tok[] => {
    const c = colons[k];
    return c < 0
      ? [punct(','), ...parenthesised(sub)]
      : [punct(','), ...bound(sub.slice(0, c)), punct(','), ...bound(sub.slice(c + 1))];
  });
  return [
    word('__pg_array_assign'),
    punct('('),
    ...base,
    punct(','),
    { type: 'string', text: `'${spec.join(',')}'` },
    punct(','),
    ...parenthesised(value),
    ...args,
    punct(')'),
  ];
}

/**
 * The calls of each assignment in order, one inside the other. A value marked with a numeric's
 * scale (an element of a numeric[] column: sql/zoned-assignments.ts) is printed at it, as ARRAY[...]
 * prints its elements (`nums[1] = 1.50` is {1.50}; SQLite's double was {1.5}).
 */
export function setCalls(base: Tok[], sets: { subs: Tok[][]; value: Tok[] }[]): Tok[] {
  let out = base;
  for (const s of sets) {
    if (s.value.length === 1 && isWord(s.value[0], 'DEFAULT'))
      throw pgError('0A000', 'cannot set an array element to DEFAULT');
    const kind = textMark(s.value);
    out = setCall(out, s.subs, kind?.startsWith('numeric:') ? asText(kind, s.value) : s.value);
  }
  return out;
}

const hasElement = (toks: readonly Tok[]) =>
  toks.some((t, i) => isPunct(t, '[') && isName(toks[i - 1]) && !isWord(toks[i - 1], 'ARRAY'));

export function rewriteElementAssignments(toks: Tok[], ctx: DialectContext): Tok[] {
  if (!hasElement(toks)) return toks;
  return rewriteInsertElements(rewriteSetElements(toks, ctx), ctx);
}

/** SET arr[2] = 5, arr[3] = 6 → SET arr = __pg_array_set(__pg_array_set(arr, (2), (5)), (3), (6)). */
function rewriteSetElements(input: Tok[], ctx: DialectContext): Tok[] {
  const toks = splitRowSets(input, ctx);
  const clause = setClause(toks, ctx);
  if (!clause) return toks;
  const { set, end } = clause;
  const items = topLevelItems(toks, set + 1, end);
  const plain = new Set<string>();
  const elements = new Map<string, { name: Tok; sets: { subs: Tok[][]; value: Tok[] }[] }>();
  const order: (string | [number, number])[] = [];
  for (const [from, to] of items) {
    const eq = toks.findIndex((t, k) => k >= from && k < to && isOp(t, '='));
    const target = eq > from ? elementTarget(toks, from, eq) : null;
    if (!target) {
      if (isName(toks[from]) && eq === from + 1) plain.add(identText(toks[from]));
      order.push([from, to]);
      continue;
    }
    const name = identText(target.name);
    const entry = elements.get(name);
    if (entry) entry.sets.push({ subs: target.subs, value: toks.slice(eq + 1, to) });
    else {
      elements.set(name, { name: target.name, sets: [{ subs: target.subs, value: toks.slice(eq + 1, to) }] });
      order.push(name);
    }
  }
  if (elements.size === 0) return toks;
  for (const name of elements.keys())
    if (plain.has(name)) throw pgError('42601', `multiple assignments to same column "${name}"`);
  const out = toks.slice(0, set + 1);
  for (const o of order) {
    if (out.length > set + 1) out.push(punct(','));
    if (typeof o !== 'string') {
      out.push(...toks.slice(o[0], o[1]));
      continue;
    }
    const { name, sets } = elements.get(o) as { name: Tok; sets: { subs: Tok[][]; value: Tok[] }[] };
    out.push(name, { type: 'op', text: '=' }, ...setCalls([name], sets));
  }
  return out.concat(toks.slice(end));
}

/**
 * `SET (a, arr[1]) = (x, y)` (or `= ROW(x, y)`) with an element among its targets as `SET a = x,
 * arr[1] = y`: each value reads the row's old one either way. From a sub-SELECT: row-queries.ts.
 */
function splitRowSets(toks: Tok[], ctx: DialectContext): Tok[] {
  const clause = setClause(toks, ctx);
  if (!clause) return toks;
  const { set, end } = clause;
  const out = toks.slice(0, set + 1);
  for (const [from, to] of topLevelItems(toks, set + 1, end)) {
    if (out.length > set + 1) out.push(punct(','));
    const close = isPunct(toks[from], '(') ? closerAfter(toks, from) : -1;
    const targets = close > 0 ? topLevelItems(toks, from + 1, close) : [];
    if (!targets.some(([a, b]) => b > a + 1 && isPunct(toks[a + 1], '['))) {
      out.push(...toks.slice(from, to));
      continue;
    }
    let open = close + 2;
    if (isWord(toks[open], 'ROW')) open++;
    const row = isOp(toks[close + 1], '=') && isPunct(toks[open], '(') && closerAfter(toks, open) === to - 1;
    // (from a sub-SELECT: row-queries.ts)
    if (row && open === close + 2 && (isWord(toks[open + 1], 'SELECT') || isWord(toks[open + 1], 'WITH'))) {
      out.push(...toks.slice(from, to));
      continue;
    }
    if (!row)
      throw pgError(
        '0A000',
        'assignment to an array element from a sub-SELECT in a multiple-column SET is not supported by Patina',
      );
    const values = topLevelItems(toks, open + 1, to - 1);
    if (values.length !== targets.length) throw pgError('42601', 'number of columns does not match number of values');
    targets.forEach(([a, b], k) => {
      if (k > 0) out.push(punct(','));
      out.push(...toks.slice(a, b), { type: 'op', text: '=' }, ...toks.slice(values[k][0], values[k][1]));
    });
  }
  return out.concat(toks.slice(end));
}

/** INSERT INTO t (id, arr[1], arr[2]) VALUES (1, 10, 20) → INSERT INTO t (id, arr) VALUES (1, <arr from NULL>). */
function rewriteInsertElements(toks: Tok[], ctx: DialectContext): Tok[] {
  const target = insertTarget(toks, ctx);
  if (!target?.listed) return toks;
  const close = target.at - 1;
  let start = close;
  while (start > 0 && !(isPunct(toks[start], '(') && closerAfter(toks, start) === close)) start--;
  const listed = topLevelItems(toks, start + 1, close);
  const targets = listed.map(([a, b]) => (b > a + 1 ? elementTarget(toks, a, b) : null));
  if (targets.every((t) => t === null)) return toks;
  // the columns written: each once, in the place of its first mention
  const columns: { name: Tok; places: number[]; element: boolean }[] = [];
  listed.forEach(([a], k) => {
    const name = targets[k]?.name ?? toks[a];
    const found = columns.find((c) => identText(c.name) === identText(name));
    if (found && (!found.element || targets[k] === null))
      throw pgError('42701', `column "${identText(name)}" specified more than once`);
    if (found) found.places.push(k);
    else columns.push({ name, places: [k], element: targets[k] !== null });
  });
  // one row's values of the columns, `value(p)` the one written for the list's p-th target
  const row = (value: (p: number) => Tok[]): Tok[] =>
    columns.flatMap((c, k): Tok[] => [
      ...(k > 0 ? [punct(',')] : []),
      ...(c.element
        ? setCalls(
            [word('NULL')],
            c.places.map((p) => ({ subs: (targets[p] as { subs: Tok[][] }).subs, value: value(p) })),
          )
        : value(c.places[0])),
    ]);
  const widthError = (width: number) =>
    pgError(
      '42601',
      width > listed.length
        ? 'INSERT has more expressions than target columns'
        : 'INSERT has more target columns than expressions',
    );
  const out = toks.slice(0, start + 1);
  columns.forEach((c, k) => {
    if (k > 0) out.push(punct(','));
    out.push(c.name);
  });
  out.push(toks[close]);
  if (!isWord(toks[target.at], 'VALUES')) {
    // INSERT ... SELECT (WITH ..., a parenthesised query): its columns numbered in a WITH query,
    // `INSERT INTO t (id, arr) WITH __pg_elements(c1, c2) AS (<query>) SELECT c1,
    // __pg_array_set(NULL, (1), (c2)) FROM __pg_elements WHERE true` (`WHERE true` for an ON
    // CONFLICT after it, as insert-select.ts writes it)
    const end = queryEnd(toks, target.at);
    let query = toks.slice(target.at, end);
    if (isPunct(query[0], '(') && closerAfter(query, 0) === query.length - 1) query = query.slice(1, -1);
    const width = ctx.selectWidth?.([...toks.slice(0, target.verb), ...query]) ?? null;
    if (width !== null && width !== listed.length) throw widthError(width);
    const names = listed.map((_, p) => `c${p + 1}`);
    out.push(word('WITH'), word('__pg_elements'), punct('('));
    names.forEach((n, p) => out.push(...(p > 0 ? [punct(',')] : []), word(n)));
    out.push(punct(')'), word('AS'), ...parenthesised(query), word('SELECT'));
    out.push(...row((p) => [word(names[p])]), word('FROM'), word('__pg_elements'), word('WHERE'), word('true'));
    return out.concat(toks.slice(end));
  }
  out.push(toks[target.at]);
  let i = target.at + 1;
  while (isPunct(toks[i], '(')) {
    const rowEnd = closerAfter(toks, i);
    const values = topLevelItems(toks, i + 1, rowEnd);
    if (values.length !== listed.length) throw widthError(values.length);
    out.push(toks[i], ...row((p) => toks.slice(values[p][0], values[p][1])), toks[rowEnd]);
    i = rowEnd + 1;
    if (!isPunct(toks[i], ',')) break;
    out.push(toks[i]);
    i++;
  }
  return out.concat(toks.slice(i));
}
