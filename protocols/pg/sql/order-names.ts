// `ORDER BY n` where two items of the select list are named n and are not the same expression
// (`SELECT n, n::text AS n`, `SELECT a AS x, b AS x`): PostgreSQL cannot tell which to sort by and
// says 42702 `ORDER BY "n" is ambiguous` (its findTargetlistEntrySQL92); SQLite sorted by one of
// them. GROUP BY likewise, where the name is no column of its FROM (there the column wins).
import type { Schema } from '../../../src/engine/schema/model';
import { pgError } from '../sqlstate';
import { figuredName } from './column-names';
import { tablesOf } from './grouping';
import type { PgToken } from './lexer';
import { parseTree } from './parse';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Whether the tokens may hold an ORDER BY or a GROUP BY (a cheap test before the tree's). */
export function mayOrderByName(sig: PgToken[]): boolean {
  return sig.some(
    (t, i) => t.type === 'word' && /^(order|group)$/i.test(t.text) && sig[i + 1]?.text.toUpperCase() === 'BY',
  );
}

/** Throws PostgreSQL's 42702 for an ORDER BY or GROUP BY name two different select items have. */
export function checkOrderNames(sql: string, schema: Schema): void {
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return; // the translation or SQLite reports it
  }
  const visit = (n: Node): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    if (n.SelectStmt) checkQuery(n.SelectStmt, schema);
    for (const k in n) visit(n[k]);
  };
  visit(tree.stmts);
}

function checkQuery(q: Node, schema: Schema): void {
  // a set operation's ORDER BY reads its result's columns, named by its first branch: two of them
  // are never the same column
  const setop = q.op && q.op !== 'SETOP_NONE';
  let first = q;
  while (first?.op && first.op !== 'SETOP_NONE') first = first.larg;
  const items: { name: string; val: Node }[] = [];
  for (const t of first?.targetList ?? []) {
    const r = t.ResTarget;
    // (`*` spreads names this check does not list: it may miss an ambiguity, never invent one)
    if (!r || r.val?.ColumnRef?.fields?.some((f: Node) => f.A_Star)) continue;
    items.push({ name: r.name ?? figuredName(r.val), val: setop ? { column: items.length } : r.val });
  }
  const ambiguous = (name: string) => {
    const named = items.filter((it) => it.name === name);
    return named.some((it) => !sameExpression(it.val, named[0].val));
  };
  for (const s of q.sortClause ?? []) {
    const name = bareName(s.SortBy?.node);
    if (name !== null && ambiguous(name)) throw pgError('42702', `ORDER BY "${name}" is ambiguous`);
  }
  if (setop || !q.groupClause) return;
  // GROUP BY n takes the FROM's column n first: only a name none of its tables has is looked for
  // among the items (a FROM of anything but tables is not known here, and left alone)
  const tables = new Map<string, string>();
  if (!tablesOf(q.fromClause, schema, new Set(), tables)) return;
  const fromColumn = (name: string) =>
    [...tables.values()].some((t) => schema.tables.get(t)?.columns.some((c) => c.name.toLowerCase() === name));
  for (const g of q.groupClause) {
    const name = bareName(g);
    if (name !== null && !fromColumn(name) && ambiguous(name))
      throw pgError('42702', `GROUP BY "${name}" is ambiguous`);
  }
}

/** The name of an ORDER BY or GROUP BY term that is one bare name (`n`, not `t.n` nor `n + 1`), else null. */
function bareName(n: Node): string | null {
  const f = n?.ColumnRef?.fields;
  return f?.length === 1 && f[0].String ? f[0].String.sval : null;
}

/**
 * Whether two select items are the same expression, as PostgreSQL compares them after reading
 * them: locations aside, and `n` the same column as `t.n` (a name that resolves alone is the one
 * column of that name in the FROM).
 */
function sameExpression(a: Node, b: Node): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a.ColumnRef && b.ColumnRef) {
    const x = strings(a.ColumnRef.fields);
    const y = strings(b.ColumnRef.fields);
    const n = Math.min(x.length, y.length);
    return n > 0 && x.slice(-n).every((f, i) => f === y.slice(-n)[i]);
  }
  const keys = (o: Node) => Object.keys(o).filter((k) => k !== 'location');
  const ka = keys(a);
  const kb = keys(b);
  return ka.length === kb.length && ka.every((k) => k in b && sameExpression(a[k], b[k]));
}
