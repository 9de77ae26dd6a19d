// A bare `tableoid` where PostgreSQL cannot tell whose it is. Every table has the system column, so
// a query whose FROM list holds two tables or more side by side (`FROM a, b`) says 42702 `column
// reference "tableoid" is ambiguous`; a table inside a JOIN shows its system columns to no bare
// name (the join has none), so `FROM a JOIN b ON ...` says 42703 `column "tableoid" does not exist`
// with the HINT naming the join's first table. Subqueries, functions, WITH queries and views have
// none. translate/table-oids.ts answered both with the first table's OID. Each SELECT of the
// statement is read with its own FROM list (a UNION's branches, a subquery's); a table of the
// database with a column of that name makes it that column, as there.
import type { Schema } from '../../../src/engine/schema/model';
import { catalogRelation } from '../catalog/catalog-relation';
import { PgError, pgError } from '../sqlstate';
import type { PgToken } from './lexer';
import { parseTree } from './parse';
import { writtenAt } from './type-names';
import { strings } from './type-signatures';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Whether the statement's tokens name `tableoid` (the check parses the statement only then). */
export const mayNameTableoid = (tokens: readonly PgToken[]): boolean =>
  tokens.some((t) => t.type === 'word' && t.text.toLowerCase() === 'tableoid');

/** Throws PostgreSQL's 42702 or 42703 for a bare `tableoid` its SELECT cannot place. */
export function checkBareTableoid(text: string, schema: Schema, tokens: readonly PgToken[]): void {
  if ([...schema.tables.values()].some((t) => t.columns.some((c) => c.name.toLowerCase() === 'tableoid'))) return;
  let tree: Node;
  try {
    tree = parseTree(text);
  } catch {
    return;
  }
  const ctes = new Set<string>();
  collectCtes(tree, ctes);
  try {
    visit(tree, schema, ctes);
  } catch (e) {
    const at = (e as { location?: number }).location;
    if (e instanceof PgError && at !== undefined)
      e.position = writtenAt(Buffer.from(text).subarray(0, at).toString().length, tokens);
    throw e;
  }
}

function collectCtes(n: Node, out: Set<string>): void {
  if (n === null || typeof n !== 'object') return;
  if (n.CommonTableExpr?.ctename) out.add(String(n.CommonTableExpr.ctename));
  for (const k of Object.keys(n)) collectCtes(n[k], out);
}

/** A FROM item's relation when it is a table (of the database or the catalog, not a WITH query or view): the name it goes by. */
function tableName(r: Node, schema: Schema, ctes: Set<string>): string | null {
  const relname = String(r.relname);
  const schemaname = r.schemaname === undefined ? null : String(r.schemaname);
  const ref = r.alias?.aliasname === undefined ? relname : String(r.alias.aliasname);
  if (schemaname === null && ctes.has(relname)) return null;
  if (
    (schemaname === null || schemaname === 'public') &&
    [...schema.tables.keys()].some((k) => k.toLowerCase() === relname)
  )
    return ref;
  if ((schemaname === null || schemaname === 'pg_catalog') && catalogRelation('pg_catalog', relname)?.view === false)
    return ref;
  return null;
}

/** The first table inside a join, left to right (the one PostgreSQL's hint names); null for none. */
function firstTable(n: Node, schema: Schema, ctes: Set<string>): string | null {
  if (n?.RangeVar) return tableName(n.RangeVar, schema, ctes);
  if (n?.JoinExpr) return firstTable(n.JoinExpr.larg, schema, ctes) ?? firstTable(n.JoinExpr.rarg, schema, ctes);
  return null;
}

/** Each bare `tableoid` of a query's own lists (not its subqueries', read as queries of their own). */
function bareRefs(n: Node, out: Node[]): void {
  if (n === null || typeof n !== 'object' || n.SelectStmt || n.SubLink || n.RangeSubselect) return;
  if (Array.isArray(n)) {
    for (const x of n) bareRefs(x, out);
    return;
  }
  const fields = n.ColumnRef ? strings(n.ColumnRef.fields) : [];
  if (fields.length === 1 && fields[0] === 'tableoid') out.push(n.ColumnRef);
  for (const k of Object.keys(n)) bareRefs(n[k], out);
}

function visit(n: Node, schema: Schema, ctes: Set<string>): void {
  if (n === null || typeof n !== 'object') return;
  if (Array.isArray(n)) {
    for (const x of n) visit(x, schema, ctes);
    return;
  }
  if (n.SelectStmt) checkSelect(n.SelectStmt, schema, ctes);
  for (const k of Object.keys(n)) visit(n[k], schema, ctes);
}

/** One SELECT's bare references against its FROM list; a set operation's branches (larg, rarg: no SelectStmt key) each its own. */
function checkSelect(q: Node, schema: Schema, ctes: Set<string>): void {
  for (const branch of [q.larg, q.rarg]) if (branch) checkSelect(branch, schema, ctes);
  if (q.fromClause) {
    const refs: Node[] = [];
    for (const k of ['targetList', 'whereClause', 'groupClause', 'havingClause', 'sortClause']) bareRefs(q[k], refs);
    if (refs.length > 0) {
      const tables = q.fromClause.filter((f: Node) => f?.RangeVar && tableName(f.RangeVar, schema, ctes) !== null);
      const joined = q.fromClause.map((f: Node) => (f?.JoinExpr ? firstTable(f, schema, ctes) : null)).find(Boolean);
      let err: PgError | null = null;
      if (tables.length > 1) err = pgError('42702', 'column reference "tableoid" is ambiguous') as PgError;
      else if (tables.length === 0 && joined) {
        err = pgError('42703', 'column "tableoid" does not exist') as PgError;
        err.hint = `There is a column named "tableoid" in table "${joined}", but it cannot be referenced from this part of the query.`;
      }
      if (err) {
        (err as { location?: number }).location = refs[0].location;
        throw err;
      }
    }
  }
}
