// A column named by a word SQLite reads as a keyword: PostgreSQL names `EXISTS (...)` exists, CASE
// case, current_date current_date (column-names.ts), and a query around the subquery reads them
// back (`SELECT exists FROM (SELECT EXISTS (...)) s`, `s.case`, `ORDER BY exists`), where SQLite
// sees its keyword and says `near "FROM": syntax error`.
// PostgreSQL's tree tells which words are column references; those are quoted for SQLite.
import { PG_KEYWORDS } from '../catalog/keywords';
import type { PgToken } from './lexer';
import { parseTree } from './parse';
import { isPunct } from './tokens';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/**
 * The words SQLite 3.53 does not read as a column, bare or after `t.`: tried one by one over its
 * 147 keywords (`SELECT k FROM (SELECT 42 AS "k") s`, `s.k`, `WHERE k = 42`); the rest fall back
 * to names. current_date, current_time and current_timestamp read bare are SQLite's clock.
 */
const NOT_COLUMNS = new Set(
  (
    'add all alter and as autoincrement between case cast check collate commit constraint create ' +
    'current_date current_time current_timestamp default deferrable delete distinct drop else escape ' +
    'except exists foreign from group having in index insert intersect into is isnull join limit not ' +
    'nothing notnull null on or order primary raise references returning select set table then to ' +
    'transaction union unique update using values when where'
  ).split(' '),
);

/**
 * Words SQLite reads as columns but the translation's passes read as keywords (tokens.ts
 * NOT_FUNCTIONS: `by::text` was 42601 at the `::`, a cast with nothing before it), which PostgreSQL
 * takes as column names: quoted too.
 */
const PASS_KEYWORDS = new Set(['by', 'set']);

/** Whether SQLite or the passes would read the word as something other than a column. */
const needsQuotes = (w: string) => NOT_COLUMNS.has(w) || PASS_KEYWORDS.has(w);

/** PostgreSQL's reserved words, which it reads as a column only after `t.`. */
const PG_RESERVED = new Set(PG_KEYWORDS.filter(([, cat]) => cat === 'R' || cat === 'T').map(([w]) => w));

/** Whether the tokens may name a column by such a word (a cheap test before the tree's). */
export function mayNameKeywordColumns(sig: PgToken[]): boolean {
  return sig.some((t, i) => {
    if (t.type !== 'word') return false;
    const w = t.text.toLowerCase();
    // (ORDER BY, GROUP BY, PARTITION BY: the keyword)
    if (w === 'by' && ['ORDER', 'GROUP', 'PARTITION'].includes(sig[i - 1]?.text.toUpperCase())) return false;
    return needsQuotes(w) && (isPunct(sig[i - 1], '.') || !PG_RESERVED.has(w));
  });
}

/** The byte offsets in `sql` of the column references with a field SQLite or the passes would read as a keyword. */
export function keywordColumns(sql: string): number[] {
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return [];
  }
  const out: number[] = [];
  const visit = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    const ref = n.ColumnRef;
    if (ref?.location >= 0 && ref.fields?.some((f: Node) => needsQuotes(f.String?.sval))) out.push(ref.location);
    // a column assigned by UPDATE's SET (or ON CONFLICT's) or named in INSERT's list: `SET set = 1`
    for (const target of [
      ...(n.UpdateStmt?.targetList ?? []),
      ...(n.InsertStmt?.onConflictClause?.targetList ?? []),
      ...(n.InsertStmt?.cols ?? []),
    ]) {
      const rt = target.ResTarget;
      if (rt?.location >= 0 && needsQuotes(rt.name)) out.push(rt.location);
    }
    for (const k in n) visit(n[k]);
  };
  visit(tree.stmts);
  return out;
}

/**
 * Quotes the words of the column reference that begins at tokens[i] (`s . exists` → `s . "exists"`)
 * that SQLite would read as keywords, in `replace` (token index → its replacement).
 */
export function quoteKeywordFields(tokens: PgToken[], i: number, replace: Map<number, PgToken>): void {
  const skip = (k: number) => {
    while (tokens[k]?.type === 'space' || tokens[k]?.type === 'comment') k++;
    return k;
  };
  for (let k = i; tokens[k]; ) {
    const t = tokens[k];
    if (t.type === 'word' && needsQuotes(t.text.toLowerCase()))
      replace.set(k, { ...t, type: 'quoted', text: `"${t.text.toLowerCase()}"` });
    const dot = skip(k + 1);
    if (!isPunct(tokens[dot], '.')) return;
    k = skip(dot + 1);
  }
}
