// A function of one value in FROM, which PostgreSQL reads as a one-row table (TypeORM connects with
// `SELECT * FROM current_schema()`; `FROM now() AS t(at)`): SQLite knows only tables and
// table-valued functions there ("no such table"), so the call becomes a one-row subquery whose
// column the alias names (its column list, else the alias, else the function):
//   FROM current_schema()   ->   FROM (SELECT current_schema() AS "current_schema") AS "current_schema"
import { SCALAR_IN_FROM } from '../type-signatures';
import { NOT_FROM_ALIAS, type Tok, closer, fromItemStarts, identText, isPunct, isWord } from '../tokens';

const quoted = (name: string): Tok => ({ type: 'quoted', text: `"${name.replace(/"/g, '""')}"` });

export function rewriteScalarFrom(toks: Tok[]): Tok[] {
  if (!toks.some((t, i) => t.type === 'word' && SCALAR_IN_FROM.has(t.text.toLowerCase()) && isPunct(toks[i + 1], '(')))
    return toks;
  const out: Tok[] = [];
  const itemStarts = fromItemStarts();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    // the item's start: after FROM, JOIN, or a comma of a FROM list (pg_catalog.f too)
    const starts = itemStarts(toks, i);
    let at = i;
    if (isWord(t, 'PG_CATALOG') && isPunct(toks[i + 1], '.')) at = i + 2;
    const f = toks[at];
    if (
      !starts ||
      f?.type !== 'word' ||
      !SCALAR_IN_FROM.has(f.text.toLowerCase()) ||
      !isPunct(toks[at + 1], '(') ||
      inCallSyntax(toks, i)
    ) {
      out.push(t);
      continue;
    }
    const close = closer(toks, at + 1);
    if (close < 0) {
      out.push(t);
      continue;
    }
    // [AS] alias [(column)]
    let j = close + 1;
    if (isWord(toks[j], 'AS')) j++;
    let alias = f.text.toLowerCase();
    let column: string | null = null;
    const a = toks[j];
    if ((a?.type === 'word' && !NOT_FROM_ALIAS.has(a.text.toUpperCase())) || a?.type === 'quoted') {
      alias = identText(a);
      j++;
      if (isPunct(toks[j], '(')) {
        const end = closer(toks, j);
        if (end > j + 1) column = identText(toks[j + 1]);
        j = end + 1;
      }
    } else j = close + 1;
    out.push(
      // (marked: `SELECT a FROM abs(-1) AS a(x)` selects the value, not a row of it, json-values.ts)
      { type: 'punct', text: '(', scalarFrom: true },
      { type: 'word', text: 'SELECT' },
      ...toks.slice(at, close + 1),
      { type: 'word', text: 'AS' },
      quoted(column ?? alias),
      { type: 'punct', text: ')' },
      { type: 'word', text: 'AS' },
      quoted(alias),
    );
    i = j - 1;
  }
  return out;
}

/** The calls whose arguments SQL writes with FROM: `extract(epoch FROM now())` is no FROM list. */
const FROM_CALLS = new Set(['EXTRACT', 'SUBSTRING', 'TRIM', 'OVERLAY', 'POSITION']);

/** Whether toks[i] stands inside such a call's parentheses (the '(' it is in follows its name). */
function inCallSyntax(toks: readonly Tok[], i: number): boolean {
  let depth = 0;
  for (let k = i - 1; k >= 0; k--) {
    if (isPunct(toks[k], ')')) depth++;
    else if (isPunct(toks[k], '(') && depth-- === 0)
      return toks[k - 1]?.type === 'word' && FROM_CALLS.has(toks[k - 1].text.toUpperCase());
  }
  return false;
}
