// unnest of several arrays in FROM (`SELECT * FROM unnest($1::int[], $2::text[]) AS u(id, name)`,
// the bulk insert of asyncpg's and node-postgres's users): PostgreSQL zips the arrays into rows, the
// shorter padded with NULLs. SQLite's table-valued unnest takes one array (it answered no row for
// two), so the call becomes a subquery joining each array's elements by position:
//   (SELECT e1.value AS "id", e2.value AS "name" FROM __pg_elems(a) e1 FULL JOIN __pg_elems(b) e2
//    ON e2.key = e1.key) AS u
// Without a column list each column is named unnest, as in PostgreSQL. After a comma, JOIN or
// LATERAL, where its arguments may read an earlier item (which this subquery could not),
// rows-from.ts has already made it the zip of ROWS FROM (unnest(a), unnest(b)).
import { NOT_FROM_ALIAS, type Tok, closer, isPunct, isWord, topLevelItems } from '../tokens';

const word = (text: string): Tok => ({ type: 'word', text });
const punct = (text: string): Tok => ({ type: 'punct', text });
const quoted = (name: string): Tok => ({ type: 'quoted', text: `"${name.replace(/"/g, '""')}"` });
const isName = (t: Tok | undefined) => t !== undefined && (t.type === 'word' || t.type === 'quoted');
const nameOf = (t: Tok) => (t.type === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"') : t.text.toLowerCase());

export function rewriteMultiUnnest(toks: Tok[]): Tok[] {
  if (!toks.some((t) => isWord(t, 'UNNEST'))) return toks;
  const out: Tok[] = [];
  let n = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const before = toks[i - 1];
    const inFrom = isWord(before, 'FROM') || isWord(before, 'JOIN') || isPunct(before, ',');
    const close = inFrom && isWord(t, 'UNNEST') && isPunct(toks[i + 1], '(') ? closer(toks, i + 1) : -1;
    const args = close > 0 ? topLevelItems(toks, i + 2, close) : [];
    if (args.length < 2) {
      out.push(t);
      continue;
    }
    // [AS] alias [(c1, c2, ...)]
    let j = close + 1;
    if (isWord(toks[j], 'AS')) j++;
    let alias = `__pg_unnest${++n}`;
    let names: string[] = [];
    if (isName(toks[j]) && !NOT_FROM_ALIAS.has(toks[j].text.toUpperCase())) {
      alias = nameOf(toks[j]);
      j++;
      if (isPunct(toks[j], '(')) {
        const end = closer(toks, j);
        names = topLevelItems(toks, j + 1, end).map(([a]) => nameOf(toks[a]));
        j = end + 1;
      }
    } else j = close + 1;
    const e = (k: number) => `__pg_e${n}_${k}`;
    const group = (text: string): Tok => ({ type: 'group', text });
    const select: Tok[] = [word('SELECT')];
    args.forEach((_, k) => {
      if (k > 0) select.push(punct(','));
      select.push(group(`${e(k)}.value`), word('AS'), quoted(names[k] ?? 'unnest'));
    });
    select.push(word('FROM'));
    args.forEach(([a, b], k) => {
      if (k > 0) select.push(word('FULL'), word('JOIN'));
      select.push(word('__pg_elems'), punct('('), ...toks.slice(a, b), punct(')'), word(e(k)));
      // by position: the key of whichever earlier array still has elements there
      const earlier = Array.from({ length: k }, (_, m) => `${e(m)}.key`);
      if (k > 0)
        select.push(word('ON'), group(`${e(k)}.key = ${k === 1 ? earlier[0] : `coalesce(${earlier.join(', ')})`}`));
    });
    out.push(punct('('), ...select, punct(')'), word('AS'), quoted(alias));
    i = j - 1;
  }
  return out;
}
