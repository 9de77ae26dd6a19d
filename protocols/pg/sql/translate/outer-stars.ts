// An outer query's `t.*` as a select item of a subquery, `WHERE EXISTS (SELECT t.* FROM u)` or
// `(SELECT t.*)` of a query over t: PostgreSQL spreads the outer row's columns there; SQLite's
// `t.*` names only a FROM item of its own query (`no such table: t`, read as 42P01). Such an item
// becomes the columns of the schema table the outer FROM item names, `t.id, t.v, ...`, when no
// FROM item of the subquery's own level takes the name. On the statement's tokens, first.
import type { PgToken } from '../lexer';
import { FROM_ENDS, NOT_FROM_ALIAS, type Tok, closer, enclosing, isPunct, isWord } from '../tokens';

/** The name a word or quoted token writes, folded as PostgreSQL folds it; null for other tokens. */
function nameOf(t: Tok | undefined): string | null {
  if (t?.type === 'word') return t.text.toLowerCase();
  if (t?.type === 'quoted') return t.text.slice(1, -1).split('""').join('"');
  return null;
}

/** The FROM items of the query level in toks(open, close): alias → table name (null: no table). */
function fromItems(toks: readonly Tok[], open: number, close: number): Map<string, string | null> {
  const out = new Map<string, string | null>();
  let inFrom = false;
  for (let k = open + 1; k < close; k++) {
    const t = toks[k];
    if (isPunct(t, '(')) {
      const end = closer(toks, k);
      if (end < 0) return out;
      const start = isWord(toks[k - 1], 'FROM') || isWord(toks[k - 1], 'JOIN') || isWord(toks[k - 1], 'LATERAL');
      if (inFrom && (start || isPunct(toks[k - 1], ','))) {
        let a = end + 1;
        if (isWord(toks[a], 'AS')) a++;
        const alias = nameOf(toks[a]);
        if (alias !== null && !(toks[a].type === 'word' && NOT_FROM_ALIAS.has(toks[a].text.toUpperCase())))
          out.set(alias, null);
      }
      k = end;
      continue;
    }
    if (isWord(t, 'FROM') || isWord(t, 'JOIN')) inFrom = true;
    else if (t.type === 'word' && FROM_ENDS.has(t.text.toUpperCase())) inFrom = false;
    const before = toks[k - 1];
    const starts = isWord(before, 'FROM') || isWord(before, 'JOIN') || (inFrom && isPunct(before, ','));
    if (!inFrom || !starts || nameOf(t) === null) continue;
    let at = k;
    if (isPunct(toks[at + 1], '.')) at += 2; // (schema.table)
    const table = nameOf(toks[at]);
    if (table === null || isPunct(toks[at + 1], '(')) continue;
    let a = at + 1;
    if (isWord(toks[a], 'AS')) a++;
    const aliasTok = toks[a];
    const alias =
      nameOf(aliasTok) !== null && !(aliasTok.type === 'word' && NOT_FROM_ALIAS.has(aliasTok.text.toUpperCase()))
        ? nameOf(aliasTok)
        : null;
    out.set(alias ?? table, table);
  }
  return out;
}

/** Whether toks[open] opens a query (SELECT or WITH after it; -1, the statement, does). */
const opensQuery = (toks: readonly Tok[], open: number) =>
  open < 0 || isWord(toks[open + 1], 'SELECT') || isWord(toks[open + 1], 'WITH');

export function rewriteOuterStars(toks: PgToken[], columns: (table: string) => string[] | null): PgToken[] {
  let out: PgToken[] | null = null;
  for (let i = toks.length - 3; i >= 0; i--) {
    const star = toks[i + 2];
    if (!isPunct(toks[i + 1], '.') || star?.text !== '*' || nameOf(toks[i]) === null) continue;
    const before = toks[i - 1];
    const item =
      isWord(before, 'SELECT') || isWord(before, 'DISTINCT') || isWord(before, 'ALL') || isPunct(before, ',');
    const open = enclosing(toks, i);
    if (!item || open < 0 || !opensQuery(toks, open)) continue;
    const name = nameOf(toks[i]) as string;
    if (fromItems(toks, open, closer(toks, open)).has(name)) continue;
    // the nearest outer query level whose FROM names it
    let table: string | null | undefined;
    for (let o = enclosing(toks, open); table === undefined; o = enclosing(toks, o)) {
      if (opensQuery(toks, o)) table = fromItems(toks, o, o < 0 ? toks.length : closer(toks, o)).get(name);
      if (o < 0) break;
    }
    const cols = table ? columns(table) : null;
    if (!cols || cols.length === 0) continue;
    out ??= [...toks];
    const spread: PgToken[] = [];
    cols.forEach((c, k) => {
      if (k > 0) spread.push({ type: 'punct', text: ',' });
      spread.push(toks[i], { type: 'punct', text: '.' }, { type: 'quoted', text: `"${c.replaceAll('"', '""')}"` });
    });
    out.splice(i, 3, ...spread);
  }
  return out ?? toks;
}
