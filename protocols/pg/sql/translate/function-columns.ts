// A set-returning function in FROM with a column list, `unnest(b.tags) AS t(tag)`,
// `generate_series(1, n) AS s(i)`, `jsonb_each(doc) AS e(k, v)`: SQLite's table-valued functions take
// no column list ("near "(": syntax error"), so the list goes and the statement's references to its
// names become the function's own columns. A one-value function's column is then read through its
// alias alone (`t.tag` and a bare `tag` become `t`, which translate/set-returning.ts makes the
// value, as for `unnest(x) AS t`); jsonb_each's become `e.key` and `e.value`. A bare name is
// taken for the function's column unless a schema table the statement names has a column of that
// name (PostgreSQL would call that ambiguous).
import { type Tok, closer, identText, isPunct, isWord, topLevelItems } from '../tokens';
import { SelectItems } from './select-items';

/** Functions of one value column (read through the alias). */
const ONE_VALUE = new Set([
  'unnest', 'generate_series', 'json_array_elements', 'jsonb_array_elements', 'json_array_elements_text',
  'jsonb_array_elements_text', 'json_object_keys', 'jsonb_object_keys', 'regexp_split_to_table', 'jsonb_path_query',
]); // biome-ignore format: a word list
/** Functions of a key and a value. */
const KEY_VALUE = new Set(['json_each', 'jsonb_each', 'json_each_text', 'jsonb_each_text']);

export function rewriteFunctionColumns(toks: Tok[], hasColumn: (table: string, column: string) => boolean): Tok[] {
  const callsOne = (t: Tok, i: number) =>
    t.type === 'word' &&
    isPunct(toks[i + 1], '(') &&
    (ONE_VALUE.has(t.text.toLowerCase()) || KEY_VALUE.has(t.text.toLowerCase()));
  if (!toks.some(callsOne)) return toks;
  const renames = new Map<string, { alias: Tok; column: string | null }>(); // name -> alias.column
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const name = t.type === 'word' ? t.text.toLowerCase() : '';
    const before = toks[i - 1];
    const inFrom =
      isWord(before, 'FROM') || isWord(before, 'JOIN') || isPunct(before, ',') || isWord(before, 'LATERAL');
    const close =
      inFrom && (ONE_VALUE.has(name) || KEY_VALUE.has(name)) && isPunct(toks[i + 1], '(') ? closer(toks, i + 1) : -1;
    if (close < 0) {
      out.push(t);
      continue;
    }
    // unnest of several arrays has its own rewrite (unnest.ts), before this one
    if (name === 'unnest' && topLevelItems(toks, i + 2, close).length > 1) {
      out.push(t);
      continue;
    }
    let j = close + 1;
    if (isWord(toks[j], 'AS')) j++;
    const alias = toks[j];
    const listEnd =
      alias && (alias.type === 'word' || alias.type === 'quoted') && isPunct(toks[j + 1], '(')
        ? closer(toks, j + 1)
        : -1;
    if (listEnd < 0) {
      out.push(t);
      continue;
    }
    const names = topLevelItems(toks, j + 2, listEnd).map(([a, b]) => (b === a + 1 ? identText(toks[a]) : ''));
    const columns = ONE_VALUE.has(name) ? [null] : ['key', 'value'];
    if (names.includes('') || names.length > columns.length) {
      out.push(t);
      continue;
    }
    names.forEach((n, k) => renames.set(n, { alias, column: columns[k] }));
    out.push(...toks.slice(i, close + 1), { type: 'word', text: 'AS' }, alias);
    i = listEnd;
  }
  if (renames.size === 0) return toks;
  // a schema table the statement names that has a column of that name keeps it (PostgreSQL: ambiguous)
  const named = new Set(out.filter((t) => t.type === 'word' || t.type === 'quoted').map(identText));
  const isColumn = (column: string) => [...named].some((table) => hasColumn(table, column));
  // the references: alias.name, and a bare name no schema column has; one that is a whole item of a
  // select list keeps its name as the column's (`SELECT s.r FROM ...` is still a column r)
  const items = new SelectItems();
  const keepName = (i: number, n: number, name: string) => items.keepName(out, i, n, name);
  const result: Tok[] = [];
  for (let i = 0; i < out.length; i++) {
    const t = out[i];
    items.step(out, i);
    const named = t.type === 'word' || t.type === 'quoted';
    const dotted = named && isPunct(out[i + 1], '.') && (out[i + 2]?.type === 'word' || out[i + 2]?.type === 'quoted');
    if (dotted) {
      const r = renames.get(identText(out[i + 2]));
      if (r && identText(r.alias) === identText(t)) {
        const tail = keepName(i, 3, identText(out[i + 2]));
        result.push(t, ...(r.column ? [out[i + 1], { type: 'word' as const, text: r.column }] : []), ...tail);
        i += 2;
        continue;
      }
    }
    // a bare name: not a qualifier (`r.x`), a call, or an alias being defined
    const bare =
      named &&
      !isPunct(out[i - 1], '.') &&
      !isPunct(out[i + 1], '.') &&
      !isPunct(out[i + 1], '(') &&
      !isWord(out[i - 1], 'AS');
    const r = bare ? renames.get(identText(t)) : undefined;
    if (r && !isColumn(identText(t))) {
      result.push(
        r.alias,
        ...(r.column
          ? [
              { type: 'punct' as const, text: '.' },
              { type: 'word' as const, text: r.column },
            ]
          : []),
        ...keepName(i, 1, identText(t)),
      );
      continue;
    }
    result.push(t);
  }
  return result;
}
