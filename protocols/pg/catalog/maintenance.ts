// ANALYZE and VACUUM: ORMs' migration tools, pg_restore scripts and DBAs' habits send them. Patina
// keeps its SQLite file itself (SQLite's planner needs no statistics for the key and index lookups
// the schema declares, and the file is compacted by the agent, not by a statement), so each is
// accepted with PostgreSQL's command tag and does nothing, once the tables it names are checked:
// a table that does not exist is 42P01, as in PostgreSQL.
import { parseTree } from '../sql/parse';
import type { Schema } from '../../../src/engine/schema/model';
import { pgError } from '../sqlstate';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** The command tag of an ANALYZE or VACUUM statement; 42P01 for a table the schema does not have. */
export function maintenance(sql: string, schema: Schema): 'ANALYZE' | 'VACUUM' {
  let stmt: Node;
  try {
    stmt = (parseTree(sql) as Node).stmts?.[0]?.stmt?.VacuumStmt;
  } catch (err) {
    const e = err as Error & { sqlDetails?: unknown };
    throw e.sqlDetails ? pgError('42601', e.message) : err;
  }
  if (!stmt) throw pgError('42601', 'syntax error: expected ANALYZE or VACUUM');
  for (const r of stmt.rels ?? []) {
    const rel = r.VacuumRelation?.relation;
    if (!rel) continue;
    const schemaName = rel.schemaname;
    const name = String(rel.relname);
    if ((schemaName && schemaName !== 'public') || !schema.tables.has(name.toLowerCase()))
      throw pgError('42P01', `relation "${schemaName ? `${schemaName}.` : ''}${name}" does not exist`);
  }
  return stmt.is_vacuumcmd ? 'VACUUM' : 'ANALYZE';
}
