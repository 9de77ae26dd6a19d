// Where a result column of a catalog query comes from, as RowDescription tells it: the catalog
// relation's OID (PostgreSQL 15's, pg-catalog-relations.ts) and the column's attnum (its place in
// PostgreSQL's column list, pg-catalog-columns.ts). PostgreSQL names the relation a column is
// selected from as it is, a view's too; pgjdbc's ResultSetMetaData reads them back (getTableName,
// isNullable from pg_attribute), and they were 0, so a JDBC tool's grid over `SELECT relname FROM
// pg_class` named no table and said each column's nullability was unknown.
import { INFORMATION_SCHEMA_COLUMNS, PG_CATALOG_COLUMNS } from './pg-catalog-columns';
import { PG_CATALOG_RELATIONS } from './pg-catalog-relations';

/** `schema.relation` → its OID and its columns' attnums by name. */
let origins: Map<string, { oid: number; attnums: Map<string, number> }> | null = null;

function build(): Map<string, { oid: number; attnums: Map<string, number> }> {
  const m = new Map<string, { oid: number; attnums: Map<string, number> }>();
  for (const [qualified, oid] of PG_CATALOG_RELATIONS) {
    const [schema, name] = qualified.split('.');
    const cols = (schema === 'pg_catalog' ? PG_CATALOG_COLUMNS : INFORMATION_SCHEMA_COLUMNS)[name];
    if (!cols) continue;
    m.set(qualified, { oid, attnums: new Map(cols.map(([c], k) => [c, k + 1])) });
  }
  return m;
}

/**
 * The origin of a column SQLite says a catalog query read from `database.table` (the catalog
 * connection attaches pg_catalog and information_schema as databases); {} for any other column, or
 * one only Patina's table has.
 */
export function catalogColumnOrigin(c: {
  name: string;
  database?: string | null;
  table?: string | null;
  column?: string | null;
}): {
  tableOid?: number;
  attnum?: number;
} {
  const { database, table, column } = c;
  if (!table || !column || (database !== 'pg_catalog' && database !== 'information_schema')) return {};
  origins ??= build();
  const r = origins.get(`${database}.${table}`);
  const attnum = r?.attnums.get(column);
  return r && attnum !== undefined ? { tableOid: r.oid, attnum } : {};
}
