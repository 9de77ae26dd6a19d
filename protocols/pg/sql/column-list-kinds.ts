// The names a column list gives a subquery's or WITH query's columns (`FROM (SELECT name FROM t)
// q(z)`, `WITH c(z) AS (SELECT name FROM t)`), each with the kind of the select item it renames, for
// the cheap test of the tokens in typed-operators-hint.ts: `z + 1` there is PostgreSQL's 42883 `text
// + integer`, which the parse tree finds (text-columns.ts) once the statement is parsed; without the
// kind the statement was not parsed, and SQLite answered 1.
import type { PgToken } from './lexer';
import { isPunct, isWord } from './tokens';

/** The index of the token closing the parenthesis at sig[open] (forwards) or opening the one at sig[close] (`back`), or -1. */
function matching(sig: PgToken[], at: number, back = false): number {
  const [into, out] = back ? [')', '('] : ['(', ')'];
  for (let k = at + (back ? -1 : 1), depth = 0; k >= 0 && k < sig.length; k += back ? -1 : 1) {
    if (isPunct(sig[k], into)) depth++;
    else if (isPunct(sig[k], out)) {
      if (depth === 0) return k;
      depth--;
    }
  }
  return -1;
}

/** The select items of the SELECT at sig[at], to its FROM (or its query's end) at the same depth. */
function selectItems(sig: PgToken[], at: number): PgToken[][] {
  const items: PgToken[][] = [[]];
  const first = isWord(sig[at + 1], 'DISTINCT') || isWord(sig[at + 1], 'ALL') ? at + 2 : at + 1;
  for (let k = first, depth = 0; k < sig.length; k++) {
    const x = sig[k];
    if (isPunct(x, '(')) depth++;
    else if (isPunct(x, ')')) {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && (isWord(x, 'FROM') || isWord(x, 'WHERE') || isWord(x, 'UNION'))) break;
    if (depth === 0 && isPunct(x, ',')) items.push([]);
    else items[items.length - 1].push(x);
  }
  return items;
}

/** The kind of a select item that is a column (`x`, `t.x`, under an alias) or a string literal (text); null otherwise. */
function itemKind(item: PgToken[], kindOf: (name: string) => string | null): string | null {
  let toks = item;
  if (toks.length >= 3 && isWord(toks[toks.length - 2], 'AS')) toks = toks.slice(0, -2);
  else if (toks.length === 2 && toks[1].type === 'word') toks = toks.slice(0, 1);
  if (toks.length === 3 && isPunct(toks[1], '.')) toks = toks.slice(2);
  if (toks.length !== 1) return null;
  if (toks[0].type === 'string') return 'text';
  return toks[0].type === 'word' ? kindOf(toks[0].text.toLowerCase()) : null;
}

/** Adds to `out` the kind of each name of a subquery's or WITH query's column list (by `kindOf` of the item it renames). */
export function columnListKinds(
  sig: PgToken[],
  kindOf: (name: string) => string | null,
  out: Map<string, string>,
): void {
  const withs = sig.some((x) => isWord(x, 'WITH'));
  for (let i = 1; i < sig.length; i++) {
    if (!isPunct(sig[i], '(') || sig[i - 1].type !== 'word') continue;
    // the query renamed: a subquery before its alias (`(SELECT ...) [AS] q (z)`), a WITH query after
    // its list (`WITH c (z) AS [NOT] [MATERIALIZED] (SELECT ...)`, also after a comma); a call is neither
    const before = isWord(sig[i - 2], 'AS') ? i - 3 : i - 2;
    const aliased = isPunct(sig[before], ')');
    const named = withs && (isWord(sig[i - 2], 'WITH') || isWord(sig[i - 2], 'RECURSIVE') || isPunct(sig[i - 2], ','));
    if (!aliased && !named) continue;
    const close = matching(sig, i);
    const list = close > i ? sig.slice(i + 1, close) : [];
    if (list.length === 0 || !list.every((x, k) => (k % 2 === 0 ? x.type === 'word' : isPunct(x, ',')))) continue;
    let select = -1;
    if (aliased) select = matching(sig, before, true) + 1;
    else if (isWord(sig[close + 1], 'AS')) {
      let k = close + 2;
      while (isWord(sig[k], 'NOT') || isWord(sig[k], 'MATERIALIZED')) k++;
      if (isPunct(sig[k], '(')) select = k + 1;
    }
    if (select <= 0 || !isWord(sig[select], 'SELECT')) continue;
    const items = selectItems(sig, select);
    list.forEach((name, k) => {
      const kind = k % 2 === 0 && items[k / 2] ? itemKind(items[k / 2], kindOf) : null;
      if (kind) out.set(name.text.toLowerCase(), kind);
    });
  }
}
