// A relation of PostgreSQL 15's pg_catalog or information_schema by its schema and name: its
// columns in PostgreSQL's order and whether it is a view. What ANALYZE and VACUUM check names
// against (maintenance.ts) and what a catalog query's names resolve to (sql/range-table.ts), so a
// name PostgreSQL has not is its 42P01 or 42703 there too.
import { INFORMATION_SCHEMA_COLUMNS, PG_CATALOG_COLUMNS } from './pg-catalog-columns';
import { PG_CATALOG_RELATIONS } from './pg-catalog-relations';

/** A catalog relation: its column names, and whether it is a view (no system columns, not analyzed). */
export interface CatalogRelation {
  columns: string[];
  view: boolean;
}

/** pg_catalog's and information_schema's relations by qualified name: whether each is a view. */
let catalogKinds: Map<string, boolean> | null = null;

/** The relation `name` of `schemaName`; undefined when PostgreSQL 15 has none of that name there. */
export function catalogRelation(
  schemaName: 'pg_catalog' | 'information_schema',
  name: string,
): CatalogRelation | undefined {
  // (an unquoted name came folded; a quoted one in other case names no catalog relation)
  // (prototype-less lookups: no name of Object's reads as one)
  const columns = (schemaName === 'pg_catalog' ? PG_CATALOG_COLUMNS : INFORMATION_SCHEMA_COLUMNS)[name];
  if (!columns) return undefined;
  catalogKinds ??= new Map(PG_CATALOG_RELATIONS.map(([qualified, , kind]) => [qualified, kind === 'v']));
  return { columns: columns.map(([c]) => c), view: catalogKinds.get(`${schemaName}.${name}`) ?? false };
}
