// `ORDER BY n` where two items of the select list are named n and are not the same expression
// (`SELECT n, n::text AS n`, `SELECT a AS x, b AS x`): PostgreSQL cannot tell which to sort by and
// says 42702 `ORDER BY "n" is ambiguous` (its findTargetlistEntrySQL92); SQLite sorted by one of
// them. GROUP BY likewise, where the name is no column of its FROM (there the column wins). And an
// ORDER BY term of a SELECT DISTINCT that is none of its items (`SELECT DISTINCT name FROM t ORDER
// BY id`) is 42P10, where SQLite sorted the distinct rows by some row's id.
import type { Schema } from '../../../src/engine/schema/model';
import { pgError } from '../sqlstate';
import { figuredName } from './column-names';
import { tablesOf } from './grouping';
import { failsToResolve, nearestColumnHint } from './missing-column';
import { Level, addCtes, fromNamespace, spread } from './range-table';
import type { PgToken } from './lexer';
import { isPlaceKey, parseTree } from './parse';
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
    if (n.SelectStmt) checkQuery(n.SelectStmt, sql, schema);
    for (const k in n) visit(n[k]);
  };
  visit(tree.stmts);
}

function checkQuery(q: Node, sql: string, schema: Schema): void {
  // a set operation's ORDER BY reads its result's columns, named by its first branch: two of them
  // are never the same column
  const setop = q.op && q.op !== 'SETOP_NONE';
  const level = new Level(schema, null);
  addCtes(q.withClause, level, {});
  let first = q;
  while (first?.op && first.op !== 'SETOP_NONE') first = first.larg;
  if (first !== q) addCtes(first?.withClause, level, {});
  const ns = fromNamespace(first?.fromClause, level);
  const items: { name: string; val: Node }[] = [];
  const aliases = new Set<string>();
  let unlisted = false;
  for (const t of first?.targetList ?? []) {
    const r = t.ResTarget;
    if (!r) continue;
    const star = spread(r.val, ns);
    // (`*` over what this check cannot list: it may miss an ambiguity, never invent one)
    if (star === null) {
      unlisted = true;
      continue;
    }
    if (star) {
      // each column `*` spreads is an item of its own, the column of the FROM item it comes from
      // (one of two columns of one name, `(SELECT 1 AS a, 2 AS a) s`, is no other item's)
      for (const c of star) {
        const twice = star.filter((o) => o.alias === c.alias && o.column === c.column).length > 1;
        const val = setop || twice ? { column: items.length } : columnRef(c.alias, c.column);
        items.push({ name: c.column, val });
      }
      continue;
    }
    if (r.name) aliases.add(r.name);
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
  if (setop && !unlisted && !first?.valuesLists) checkSetOrder(q, items);
  // SELECT DISTINCT (not DISTINCT ON): each ORDER BY term a position, an item's name or an item
  const plainDistinct = q.distinctClause?.length === 1 && Object.keys(q.distinctClause[0] ?? {}).length === 0;
  if (plainDistinct && !setop && !unlisted)
    for (const s of q.sortClause ?? []) {
      const term = s.SortBy?.node;
      const name = bareName(term);
      if (term?.A_Const?.ival !== undefined || (name !== null && items.some((it) => it.name === name))) continue;
      if (!items.some((it) => sameExpression(it.val, term))) {
        // at the term (its tree offset: the caller makes it the position in the text as written)
        const err = pgError('42P10', 'for SELECT DISTINCT, ORDER BY expressions must appear in select list');
        (err as { location?: number }).location = locationOf(term);
        throw err;
      }
    }
  // an alias read inside an ORDER BY or GROUP BY expression (`ORDER BY x + 1`): PostgreSQL reads
  // only a bare name as an item's alias, so there x is a column, 42703 when no FROM item has it
  // (SQLite sorted by the item)
  if (!setop)
    for (const term of [...(q.sortClause ?? []).map((s: Node) => s.SortBy?.node), ...(q.groupClause ?? [])]) {
      if (bareName(term) !== null) continue;
      for (const name of namesIn(term))
        if (aliases.has(name) && failsToResolve(sql, schema, [name]))
          throw pgError('42703', `column "${name}" does not exist`);
    }
  if (setop || !q.groupClause) return;
  // GROUP BY n takes the FROM's column n first: only a name none of its tables has is looked for
  // among the items (a FROM of anything but tables is not known here, and left alone)
  const tables = new Map<string, string>();
  if (!tablesOf(q.fromClause, schema, new Map(), tables)) return;
  const fromColumn = (name: string) =>
    [...tables.values()].some((t) => schema.tables.get(t)?.columns.some((c) => c.name.toLowerCase() === name));
  for (const g of q.groupClause) {
    const name = bareName(g);
    if (name !== null && !fromColumn(name) && ambiguous(name))
      throw pgError('42702', `GROUP BY "${name}" is ambiguous`);
  }
}

/** The tree offset an expression starts at: its node's own, or its first operand's (`a + 1`). */
function locationOf(n: Node): number | undefined {
  const node = n && typeof n === 'object' ? (Object.values(n)[0] as Node) : undefined;
  if (node?.kind !== undefined && node.lexpr) return locationOf(node.lexpr) ?? node.location;
  return typeof node?.location === 'number' && node.location >= 0 ? node.location : undefined;
}

/** A column reference's tree (`alias.column`, or the column alone). */
const columnRef = (alias: string | null, column: string): Node => ({
  ColumnRef: { fields: [...(alias === null ? [] : [alias]), column].map((sval) => ({ String: { sval } })) },
});

/** The one-field column references in an expression. */
function namesIn(n: Node, out: string[] = []): string[] {
  if (n === null || typeof n !== 'object') return out;
  if (Array.isArray(n)) for (const x of n) namesIn(x, out);
  else if (n.ColumnRef) {
    const f = n.ColumnRef.fields;
    if (f?.length === 1 && f[0].String) out.push(f[0].String.sval);
  } else for (const k in n) if (k !== 'location') namesIn(n[k], out);
  return out;
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
  const keys = (o: Node) => Object.keys(o).filter((k) => !isPlaceKey(k));
  const ka = keys(a);
  const kb = keys(b);
  return ka.length === kb.length && ka.every((k) => k in b && sameExpression(a[k], b[k]));
}

/**
 * A set operation's ORDER BY terms, up to the first expression: PostgreSQL sorts its result by the
 * result's columns only, so a name the first query's items do not give (one only a later query has)
 * is 42703 `column "x" does not exist`, a qualified name (`ORDER BY t.id`) 42P01 `missing FROM-clause
 * entry for table "t"`, each at the term; SQLite sorted by a branch's column. (An expression, which
 * SQLite refuses, is answered by set-operation-refusals.ts.)
 */
function checkSetOrder(q: Node, items: { name: string }[]): void {
  for (const s of q.sortClause ?? []) {
    const term = s.SortBy?.node;
    if (term?.A_Const) continue;
    const fields: unknown[] = (term?.ColumnRef?.fields ?? []).map((f: Node) => f.String?.sval);
    if (fields.length === 0 || !fields.every((f) => typeof f === 'string')) return;
    let err: Error | undefined;
    if (fields.length === 1 && items.some((it) => it.name === fields[0])) continue;
    if (fields.length === 1) {
      err = pgError('42703', `column "${fields[0]}" does not exist`);
      // (PostgreSQL's HINT naming the later query that has it, `*SELECT* 2`, else the one or two
      // nearest names of the queries: `Perhaps you meant to reference the column "*SELECT* 1.id"`)
      const rtes = branches(q).map((b, i) => ({
        alias: `*SELECT* ${i + 1}`,
        table: false,
        columns: b.valuesLists
          ? (b.valuesLists[0]?.List?.items ?? []).map((_: Node, j: number) => `column${j + 1}`)
          : (b.targetList ?? []).map((t: Node) => t.ResTarget?.name ?? figuredName(t.ResTarget?.val)),
      }));
      const k = rtes.findIndex((r) => r.columns.includes(fields[0]));
      // (not known where a query selects `*`)
      const star = branches(q).some((b) =>
        (b.targetList ?? []).some((t: Node) => t.ResTarget?.val?.ColumnRef?.fields?.some((f: Node) => f.A_Star)),
      );
      (err as { hint?: string }).hint =
        k > 0
          ? `There is a column named "${fields[0]}" in table "*SELECT* ${k + 1}", but it cannot be referenced from this part of the query.`
          : star
            ? undefined
            : nearestColumnHint(fields[0] as string, rtes);
    } else if (fields.length === 2) err = pgError('42P01', `missing FROM-clause entry for table "${fields[0]}"`);
    else return;
    (err as { location?: number }).location = term.ColumnRef.location;
    throw err;
  }
}

/** A set operation's plain queries from the left (PostgreSQL's `*SELECT* 1`, `*SELECT* 2`, ...). */
function branches(q: Node): Node[] {
  return q?.op && q.op !== 'SETOP_NONE' ? [...branches(q.larg), ...branches(q.rarg)] : [q];
}
