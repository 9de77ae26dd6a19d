// A catalog query SQLite cannot prepare is answered with no rows (analyze.ts): a client's query may
// read what Patina does not model, and an empty answer lets it go on. A name PostgreSQL 15 lacks
// too is no such case: there the statement fails, and so it does here. A relation that neither
// pg_catalog, information_schema nor the schema has (`SELECT * FROM pg_nosuch`) is 42P01 `relation
// "pg_nosuch" does not exist`, a column no relation in reach has (`SELECT nosuch FROM pg_class`)
// 42703 with PostgreSQL's HINT and position (missing-column.ts, over the catalog relations' columns
// of range-table.ts). Both were answered with no rows. A system column a catalog table's rows do not
// answer here (a view's `xmin`, a bare one beside a join: translate/system-columns.ts) is 42703 as
// there, not the 0A000 of a table of the database's rows.
import type { Schema } from '../../../src/engine/schema/model';
import { catalogRelation } from '../catalog/catalog-relation';
import { PgError, pgError } from '../sqlstate';
import type { PgToken } from './lexer';
import { withColumnHint } from './missing-column';
import { parseTree } from './parse';
import { writtenAt } from './type-names';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The schemas whose relations are known here (a name in another is not placed). */
const KNOWN_SCHEMAS = new Set(['pg_catalog', 'information_schema', 'public']);

/**
 * PostgreSQL's error for catalog query `sql` (`tokens` joined by single spaces), which SQLite refused with `err`, when it names a
 * relation or a column PostgreSQL does not have; null when the refusal is Patina's own (a function
 * or a form it lacks), for which the query is answered with no rows.
 */
export function catalogNameError(
  sql: string,
  tokens: readonly PgToken[],
  err: unknown,
  schema: Schema,
): unknown | null {
  const read = relationsOf(sql);
  if (!read) return null;
  const { ctes, relations } = read;
  // (PostgreSQL reads the relations before any column)
  relations.sort((a, b) => Number(a.location ?? 0) - Number(b.location ?? 0));
  const tables = new Set([...schema.tables.keys()].map((k) => k.toLowerCase()));
  for (const r of relations) {
    const name = String(r.relname);
    const inSchema = r.schemaname ? String(r.schemaname) : undefined;
    if (inSchema !== undefined && !KNOWN_SCHEMAS.has(inSchema)) continue;
    if (inSchema === undefined && ctes.has(name)) continue;
    if ((inSchema === undefined || inSchema === 'public') && tables.has(name.toLowerCase())) continue;
    if ((inSchema === undefined || inSchema === 'pg_catalog') && catalogRelation('pg_catalog', name)) continue;
    if (inSchema === 'information_schema' && catalogRelation('information_schema', name)) continue;
    return pgError('42P01', `relation "${inSchema ? `${inSchema}.` : ''}${name}" does not exist`);
  }
  const named = withColumnHint(err, sql, schema);
  if (named === err) return null;
  // (the place in the statement as written: `sql` is its tokens joined by single spaces)
  if (named instanceof PgError && named.position !== undefined) named.position = writtenAt(named.position, tokens);
  return named;
}

/**
 * PostgreSQL's 42703 for a system column SQLite did not find (`err`) in catalog query `sql` when
 * the query reads no table of the database; null otherwise (a table's rows have no system columns
 * here: unsupported.ts's 0A000). The HINT and position are withColumnHint's.
 */
export function systemColumnError(sql: string, err: unknown, schema: Schema): unknown | null {
  const m = /no such column: (?:("?)([^".\s]+)\1\.)?"?(xmin|xmax|cmin|cmax|ctid)"?(?:$|\s)/i.exec(
    (err as Error | null)?.message ?? '',
  );
  if (!m) return null;
  const read = relationsOf(sql);
  if (!read) return null;
  const { ctes, relations } = read;
  const tables = new Set([...schema.tables.keys()].map((k) => k.toLowerCase()));
  for (const r of relations) {
    const name = String(r.relname).toLowerCase();
    if ((!r.schemaname || r.schemaname === 'public') && tables.has(name) && !ctes.has(name)) return null;
  }
  const column = m[3].toLowerCase();
  return pgError('42703', m[2] ? `column ${m[2]}.${column} does not exist` : `column "${column}" does not exist`);
}

/** The WITH queries' names and the relations of statement `sql`; null when it does not parse. */
export function relationsOf(sql: string): { ctes: Set<string>; relations: Node[] } | null {
  let tree: Node;
  try {
    tree = parseTree(sql);
  } catch {
    return null;
  }
  const ctes = new Set<string>();
  const relations: Node[] = [];
  collectRelations(tree.stmts, ctes, relations);
  return { ctes, relations };
}

/** The WITH queries' names and the relations (RangeVars of FROM, JOIN, a write's target) of a tree. */
export function collectRelations(n: Node, ctes: Set<string>, out: Node[]): void {
  if (n === null || typeof n !== 'object') return;
  if (Array.isArray(n)) {
    for (const x of n) collectRelations(x, ctes, out);
    return;
  }
  if (n.CommonTableExpr?.ctename) ctes.add(String(n.CommonTableExpr.ctename));
  if (n.RangeVar) out.push(n.RangeVar);
  // (an INSERT's, UPDATE's or DELETE's target comes unwrapped)
  if (n.relation?.relname !== undefined) out.push(n.relation);
  for (const k in n) collectRelations(n[k], ctes, out);
}
