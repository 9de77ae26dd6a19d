// ANALYZE and VACUUM: ORMs' migration tools, pg_restore scripts and DBAs' habits send them. Patina
// keeps its SQLite file itself (SQLite's planner needs no statistics for the key and index lookups
// the schema declares, and the file is compacted by the agent, not by a statement), so each is
// accepted with PostgreSQL's command tag and does nothing, once it is checked as PostgreSQL 15's
// ExecVacuum and vacuum() check it: its options (an unknown one is 42601 at its place, a value of
// the wrong kind 42601, FULL with PARALLEL 0A000), a column list without ANALYZE (0A000), the
// tables it names (42P01, with no position, as there) and their listed columns (42703, 42701). A
// catalog relation Patina models is named as well (`ANALYZE pg_class`), a view among them skipped
// with PostgreSQL's WARNING.
import { parseTree } from '../sql/parse';
import { type CatalogRelation, catalogRelation } from './catalog-relation';
import type { Schema } from '../../../src/engine/schema/model';
import { PgError, pgError, pgErrorAt } from '../sqlstate';
import { syntaxError } from '../sql/unsupported';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** PostgreSQL's MAX_PARALLEL_WORKER_LIMIT: VACUUM's PARALLEL goes up to it. */
const MAX_PARALLEL_WORKERS = 1024;

/**
 * The command tag of an ANALYZE or VACUUM statement `sql` (as written), with the WARNINGs PostgreSQL
 * sends for it (a catalog view is skipped), or PostgreSQL's error for it.
 */
export function maintenance(sql: string, schema: Schema): { tag: 'ANALYZE' | 'VACUUM'; warnings: string[] } {
  let stmt: Node;
  try {
    stmt = (parseTree(sql) as Node).stmts?.[0]?.stmt?.VacuumStmt;
  } catch (err) {
    throw syntaxError(sql, err) ?? err;
  }
  if (!stmt) throw pgError('42601', 'syntax error: expected ANALYZE or VACUUM');
  const vacuum = !!stmt.is_vacuumcmd;
  const o = options(stmt.options ?? [], vacuum, sql);
  if (o.full && o.parallel > 0) throw pgError('0A000', 'VACUUM FULL cannot be performed in parallel');
  const rels: Node[] = (stmt.rels ?? []).map((r: Node) => r.VacuumRelation).filter(Boolean);
  if (!(o.analyze || !vacuum) && rels.some((r) => r.va_cols?.length))
    throw pgError('0A000', 'ANALYZE option must be specified when a column list is provided');
  if (vacuum && o.full && o.disablePageSkipping)
    throw pgError('0A000', 'VACUUM option DISABLE_PAGE_SKIPPING cannot be used with FULL');
  if (vacuum && o.full && !o.processToast) throw pgError('0A000', 'PROCESS_TOAST required with VACUUM FULL');
  // every table is looked up before any is processed (PostgreSQL's error names no place)
  const tables = rels.map((r) => {
    const rel = r.relation;
    const name = String(rel.relname);
    const table = lookUp(rel.schemaname, name, schema);
    if (!table)
      throw unplaced(
        pgError('42P01', `relation "${rel.schemaname ? `${rel.schemaname}.` : ''}${name}" does not exist`),
      );
    return table;
  });
  const warnings: string[] = [];
  rels.forEach((r, i) => {
    if (tables[i].view) {
      // a view (pg_stat_activity, information_schema.tables) is skipped, its column list unread
      warnings.push(
        `skipping "${r.relation.relname}" --- cannot ${vacuum ? 'vacuum' : 'analyze'} non-tables or special system tables`,
      );
      return;
    }
    const seen = new Set<string>();
    for (const c of (r.va_cols ?? []).map((v: Node) => String(v.String?.sval))) {
      const def = tables[i].columns.includes(c);
      if (!def) throw unplaced(pgError('42703', `column "${c}" of relation "${r.relation.relname}" does not exist`));
      if (seen.has(c))
        throw unplaced(pgError('42701', `column "${c}" of relation "${r.relation.relname}" appears more than once`));
      seen.add(c);
    }
  });
  return { tag: vacuum ? 'VACUUM' : 'ANALYZE', warnings };
}

/** A relation as ANALYZE and VACUUM see it: its column names, and whether it is a view (skipped). */
type Relation = CatalogRelation;

/**
 * The relation a name resolves to: a table of the schema (in public), or a catalog relation Patina
 * models (pg_catalog's, searched first as PostgreSQL's search_path does, or information_schema's when
 * so qualified); undefined when none.
 */
function lookUp(schemaName: string | undefined, name: string, schema: Schema): Relation | undefined {
  const catalog =
    schemaName === undefined || schemaName === 'pg_catalog'
      ? catalogRelation('pg_catalog', name)
      : schemaName === 'information_schema'
        ? catalogRelation('information_schema', name)
        : undefined;
  if (catalog || (schemaName && schemaName !== 'public')) return catalog;
  const table = schema.tables.get(name.toLowerCase());
  return table && { columns: table.columns.map((c) => c.name.toLowerCase()), view: false };
}

/** An error PostgreSQL gives no position (the connection would otherwise point at the name it says). */
function unplaced(err: ReturnType<typeof pgError>): ReturnType<typeof pgError> {
  if (err instanceof PgError) err.unplaced = true;
  return err;
}

/** The options that matter to the checks after the list is read. */
interface Options {
  analyze: boolean;
  full: boolean;
  disablePageSkipping: boolean;
  processToast: boolean;
  parallel: number;
}

/** Reads the option list in order, as ExecVacuum does (an ANALYZE takes VERBOSE and SKIP_LOCKED only). */
function options(list: Node[], vacuum: boolean, sql: string): Options {
  const o: Options = { analyze: false, full: false, disablePageSkipping: false, processToast: true, parallel: 0 };
  const at = (d: Node) =>
    Buffer.from(sql)
      .subarray(0, Math.max(0, d.location ?? 0))
      .toString().length;
  for (const item of list) {
    const d = item.DefElem;
    if (!d) continue;
    const name = String(d.defname);
    if (name === 'verbose' || name === 'skip_locked') boolean(d);
    else if (!vacuum) throw pgErrorAt('42601', `unrecognized ANALYZE option "${name}"`, at(d));
    else if (name === 'analyze') o.analyze = boolean(d);
    else if (name === 'freeze') boolean(d);
    else if (name === 'full') o.full = boolean(d);
    else if (name === 'disable_page_skipping') o.disablePageSkipping = boolean(d);
    else if (name === 'index_cleanup') {
      if (d.arg && String(d.arg.String?.sval ?? '').toLowerCase() !== 'auto') boolean(d);
    } else if (name === 'process_toast') o.processToast = boolean(d);
    else if (name === 'truncate') boolean(d);
    else if (name === 'parallel') {
      if (!d.arg)
        throw pgErrorAt('42601', `parallel option requires a value between 0 and ${MAX_PARALLEL_WORKERS}`, at(d));
      if (!d.arg.Integer) throw pgError('42601', 'parallel requires an integer value');
      o.parallel = d.arg.Integer.ival ?? 0;
      if (o.parallel < 0 || o.parallel > MAX_PARALLEL_WORKERS)
        throw pgErrorAt('42601', `parallel workers for vacuum must be between 0 and ${MAX_PARALLEL_WORKERS}`, at(d));
    } else throw pgErrorAt('42601', `unrecognized VACUUM option "${name}"`, at(d));
  }
  return o;
}

/** An option's boolean value as PostgreSQL's defGetBoolean reads it (none is true; 0, 1, true/false/on/off). */
function boolean(d: Node): boolean {
  const a = d.arg;
  if (!a) return true;
  if (a.Integer) {
    const v = a.Integer.ival ?? 0;
    if (v === 0 || v === 1) return v === 1;
  } else {
    const s = String(a.String?.sval ?? a.Float?.fval ?? a.Boolean?.boolval ?? '').toLowerCase();
    if (s === 'true' || s === 'on') return true;
    if (s === 'false' || s === 'off') return false;
  }
  throw pgError('42601', `${d.defname} requires a Boolean value`);
}
