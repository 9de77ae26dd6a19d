// A SELECT with no select list (`EXISTS (SELECT FROM t WHERE ...)`, `SELECT FROM t`), which
// PostgreSQL takes since 9.4, selects NULL for SQLite, which needs an item: inside EXISTS or IN the
// value is never read, and a statement's own rows are described and sent with the columns the
// analysis found in the parse tree, none.
import { parseTree } from '../parse';
import { type Tok, isPunct, isWord } from '../tokens';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** What may follow SELECT when its list is empty. */
const AFTER_EMPTY = new Set(['FROM', 'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'UNION', 'INTERSECT', 'EXCEPT']); // biome-ignore format: a word list

export function rewriteEmptySelect(toks: Tok[]): Tok[] {
  if (!toks.some((t, i) => isWord(t, 'SELECT') && emptyAfter(toks[i + 1]))) return toks;
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    out.push(toks[i]);
    if (isWord(toks[i], 'SELECT') && emptyAfter(toks[i + 1])) out.push({ type: 'word', text: 'NULL' });
  }
  return out;
}

/** Whether the token after SELECT shows its list empty. */
function emptyAfter(next: Tok | undefined): boolean {
  return (
    next === undefined ||
    isPunct(next, ')') ||
    isPunct(next, ';') ||
    (next.type === 'word' && AFTER_EMPTY.has(next.text.toUpperCase()))
  );
}

/** Whether the SELECT statement `text` (PostgreSQL's text) has no select list: its rows have no columns. */
export function selectsNothing(text: string): boolean {
  let s: Node;
  try {
    s = parseTree(text).stmts?.[0]?.stmt?.SelectStmt;
  } catch {
    return false;
  }
  while (s?.op && s.op !== 'SETOP_NONE') s = s.larg;
  return !!s && !s.valuesLists && !(s.targetList?.length > 0);
}
