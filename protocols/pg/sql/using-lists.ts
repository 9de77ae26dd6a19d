// A join's USING list naming a column twice (`JOIN u USING (id, id)`) is PostgreSQL's 42701
// `column name "id" appears more than once in USING clause` (no position there either); SQLite
// joins on the column once and runs it. Read off the tokens, the tree parsed only when a list holds
// a name twice. A USING or NATURAL join one of whose sides is a join holding the merged name twice
// (`(u JOIN v ON ...) NATURAL JOIN w`, `u JOIN v ON true JOIN w USING (id)`) is PostgreSQL's 42702
// `common column name "id" appears more than once in left table` (SQLite joined on one of them).
import type { Schema } from '../../../src/engine/schema/model';
import { pgError } from '../sqlstate';
import { type PgToken, identName } from './lexer';
import { parseTree } from './parse';
import { usingMiss } from './sqlite-refusals';
import { isWord } from './tokens';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Throws PostgreSQL's 42701 for a USING list of a join that names a column twice. */
export function checkUsingLists(sig: readonly PgToken[], text: string, schema: Schema): void {
  const listedTwice = sig.some((t, i) => isWord(t, 'USING') && twice(sig, i + 1));
  // (a side of such a join is a join: the statement has two JOINs)
  const merging = sig.some((t) => isWord(t, 'NATURAL') || isWord(t, 'USING'));
  if (!listedTwice && !(merging && sig.filter((t) => isWord(t, 'JOIN')).length > 1)) return;
  let tree: Node;
  try {
    tree = parseTree(text);
  } catch {
    return;
  }
  // PostgreSQL reads the join's sides first: a relation it lacks is its 42P01 (SQLite's here)
  const ctes = new Set<string>();
  for (const n of nodes(tree)) if (n.CommonTableExpr) ctes.add(String(n.CommonTableExpr.ctename).toLowerCase());
  const known = (r: Node) =>
    (!r.schemaname || r.schemaname === 'public') &&
    (ctes.has(String(r.relname).toLowerCase()) ||
      [...schema.tables.keys()].some((k) => k.toLowerCase() === String(r.relname).toLowerCase()));
  const all = [...nodes(tree)];
  if (!all.every((n) => !n.RangeVar || known(n.RangeVar))) return;
  for (const n of all) {
    const names: string[] = (n.JoinExpr?.usingClause ?? []).map((s: Node) => String(s.String?.sval));
    const again = names.find((x, i) => names.indexOf(x) !== i);
    if (again !== undefined) throw pgError('42701', `column name "${again}" appears more than once in USING clause`);
  }
  const ambiguous = usingMiss(tree, schema);
  if (ambiguous?.code === '42702') throw pgError(ambiguous.code, ambiguous.message);
}

/** Whether the tokens from `i` are a parenthesized list of names holding one name twice. */
function twice(sig: readonly PgToken[], i: number): boolean {
  if (sig[i]?.text !== '(') return false;
  const seen = new Set<string>();
  for (let j = i + 1; j < sig.length; j += 2) {
    const t = sig[j];
    if (t.type !== 'word' && t.type !== 'quoted') return false;
    const name = identName(t);
    if (seen.has(name)) return true;
    seen.add(name);
    if (sig[j + 1]?.text !== ',') return false;
  }
  return false;
}

/** Every node of the tree below `n`, parents before their children. */
function* nodes(n: Node): Generator<Node> {
  if (Array.isArray(n)) for (const x of n) yield* nodes(x);
  else if (n && typeof n === 'object') {
    yield n;
    for (const k of Object.keys(n)) yield* nodes(n[k]);
  }
}
