// Assignment to an array's element, which SQLite's grammar has no place for (it was 42601 `near
// "("`): `UPDATE t SET arr[2] = 5` becomes `SET arr = __pg_array_set(arr, 2, 5)` (several
// elements of one column one call inside the other, in the order written, as PostgreSQL applies
// them to the row's old value), and `INSERT INTO t (id, arr[1], arr[2]) VALUES (1, 10, 20)` writes
// `arr` built from NULL the same way, in each row of its VALUES. __pg_array_set
// (src/engine/pg-arrays.ts) extends the array with NULLs past either end, as PostgreSQL does.
import { pgError } from '../../sqlstate';
import { type Tok, closerAfter, identText, isOp, isPunct, isWord, topLevelItems } from '../tokens';
import { insertTarget } from './insert-defaults';
import type { DialectContext } from './translate';
import { setClause } from './update-defaults';

const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
const punct = (text: string): Tok => ({ type: 'punct', text });

/** A target `name[subscript]`: the name and the subscript's tokens; null for a plain name or other forms. */
function elementTarget(item: readonly Tok[], from: number, to: number): { name: Tok; index: Tok[] } | null {
  if (!isName(item[from]) || !isPunct(item[from + 1], '[')) return null;
  const close = closerAfter(item as Tok[], from + 1, '[', ']');
  if (close + 1 !== to) {
    // arr[1][2] (a multi-dimensional element) and arr[1].f
    throw pgError('0A000', 'assignment to an element of a multidimensional array is not supported by Patina');
  }
  const index = item.slice(from + 2, close);
  let depth = 0;
  for (const t of index) {
    if (isPunct(t, '(') || isPunct(t, '[')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']')) depth--;
    else if (depth === 0 && (isPunct(t, ':') || isOp(t, ':')))
      throw pgError('0A000', 'assignment to an array slice is not supported by Patina');
  }
  return { name: item[from], index };
}

/** `__pg_array_set(base, (i1), (v1))` nested for each assignment in order. */
function setCalls(base: Tok[], sets: { index: Tok[]; value: Tok[] }[]): Tok[] {
  let out = base;
  for (const s of sets) {
    if (s.value.length === 1 && isWord(s.value[0], 'DEFAULT'))
      throw pgError('0A000', 'cannot set an array element to DEFAULT');
    out = [
      { type: 'word', text: '__pg_array_set' },
      punct('('),
      ...out,
      punct(','),
      punct('('),
      ...s.index,
      punct(')'),
      punct(','),
      punct('('),
      ...s.value,
      punct(')'),
      punct(')'),
    ];
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
function rewriteSetElements(toks: Tok[], ctx: DialectContext): Tok[] {
  const clause = setClause(toks, ctx);
  if (!clause) return toks;
  const { set, end } = clause;
  const items = topLevelItems(toks, set + 1, end);
  const plain = new Set<string>();
  const elements = new Map<string, { name: Tok; sets: { index: Tok[]; value: Tok[] }[] }>();
  const order: (string | [number, number])[] = [];
  for (const [from, to] of items) {
    const eq = toks.findIndex((t, k) => k >= from && k < to && isOp(t, '='));
    if (isPunct(toks[from], '(')) {
      const close = closerAfter(toks, from);
      if (topLevelItems(toks, from + 1, close).some(([a, b]) => b > a + 1 && isPunct(toks[a + 1], '[')))
        throw pgError('0A000', 'assignment to an array element in a multiple-column SET is not supported by Patina');
    }
    const target = eq > from ? elementTarget(toks, from, eq) : null;
    if (!target) {
      if (isName(toks[from]) && eq === from + 1) plain.add(identText(toks[from]));
      order.push([from, to]);
      continue;
    }
    const name = identText(target.name);
    const entry = elements.get(name);
    if (entry) entry.sets.push({ index: target.index, value: toks.slice(eq + 1, to) });
    else {
      elements.set(name, { name: target.name, sets: [{ index: target.index, value: toks.slice(eq + 1, to) }] });
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
    const { name, sets } = elements.get(o) as { name: Tok; sets: { index: Tok[]; value: Tok[] }[] };
    out.push(name, { type: 'op', text: '=' }, ...setCalls([name], sets));
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
  if (!isWord(toks[target.at], 'VALUES'))
    throw pgError('0A000', 'INSERT into array elements from other than VALUES is not supported by Patina');
  const out = toks.slice(0, start + 1);
  columns.forEach((c, k) => {
    if (k > 0) out.push(punct(','));
    out.push(c.name);
  });
  out.push(toks[close], toks[target.at]);
  let i = target.at + 1;
  while (isPunct(toks[i], '(')) {
    const rowEnd = closerAfter(toks, i);
    const values = topLevelItems(toks, i + 1, rowEnd);
    if (values.length !== listed.length)
      throw pgError(
        '42601',
        values.length > listed.length
          ? 'INSERT has more expressions than target columns'
          : 'INSERT has more target columns than expressions',
      );
    out.push(toks[i]);
    columns.forEach((c, k) => {
      if (k > 0) out.push(punct(','));
      const value = (p: number) => toks.slice(values[p][0], values[p][1]);
      if (!c.element) out.push(...value(c.places[0]));
      else
        out.push(
          ...setCalls(
            [{ type: 'word', text: 'NULL' }],
            c.places.map((p) => ({ index: (targets[p] as { index: Tok[] }).index, value: value(p) })),
          ),
        );
    });
    out.push(toks[rowEnd]);
    i = rowEnd + 1;
    if (!isPunct(toks[i], ',')) break;
    out.push(toks[i]);
    i++;
  }
  return out.concat(toks.slice(i));
}
