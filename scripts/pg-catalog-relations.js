// Writes protocols/pg/catalog/pg-catalog-relations.ts: each table and view of PostgreSQL 15's
// pg_catalog and information_schema as pg_class knows it (its OID and kind, which of its columns are
// NOT NULL, their collations) and the indexes of the tables with their primary key and unique constraints, so that the
// catalog lists the system relations where PostgreSQL does (psql's \dS and \d pg_class, pgAdmin's
// Catalogs, DBeaver's system objects, pgjdbc's getTables with no schema). The columns themselves are
// pg-catalog-columns.ts's. Needs a PostgreSQL 15 server:
//   node scripts/pg-catalog-relations.js <port> [user] [database]
const fs = require('node:fs');
const path = require('node:path');
const { pg15 } = require('./pg15');

const out = path.resolve(__dirname, '..', 'protocols', 'pg', 'catalog', 'pg-catalog-relations.ts');
const { psql, version } = pg15('pg-catalog-relations.js');
const rows = JSON.parse(
  psql(`SELECT json_agg(json_build_array(n.nspname || '.' || c.relname, c.oid::int, c.relkind,
          (SELECT coalesce(json_agg(a.attnum ORDER BY a.attnum), '[]') FROM pg_attribute a
            WHERE a.attrelid = c.oid AND a.attnum > 0 AND a.attnotnull AND NOT a.attisdropped),
          (SELECT coalesce(json_agg(json_build_array(a.attnum, a.attcollation::int) ORDER BY a.attnum), '[]') FROM pg_attribute a
            WHERE a.attrelid = c.oid AND a.attnum > 0 AND a.attcollation <> 0 AND NOT a.attisdropped),
          (SELECT coalesce(json_agg(json_build_array(i.indexrelid::int, ic.relname, string_to_array(i.indkey::text, ' ')::int[],
                    i.indisunique, i.indisprimary, con.oid::int, pg_get_indexdef(i.indexrelid)) ORDER BY ic.relname), '[]')
             FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
             LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.contype IN ('p', 'u')
            WHERE i.indrelid = c.oid)) ORDER BY n.nspname, c.relname)
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname IN ('pg_catalog', 'information_schema') AND c.relkind IN ('r', 'v')`),
);
fs.writeFileSync(
  out,
  `// Written by scripts/pg-catalog-relations.js from PostgreSQL ${version}: do not edit.
// Each table and view of pg_catalog and information_schema as
// [schema.name, oid, relkind, NOT NULL attnums, [attnum, collation OID] of its collatable columns, indexes], each index as
// [oid, name, key attnums, unique, primary, OID of its primary key or unique constraint (null: none), definition].
export type PgCatalogIndex = [number, string, number[], boolean, boolean, number | null, string];
export type PgCatalogRelation = [string, number, 'r' | 'v', number[], [number, number][], PgCatalogIndex[]];

// biome-ignore format: generated
export const PG_CATALOG_RELATIONS: PgCatalogRelation[] = [
${rows.map((r) => `  ${JSON.stringify(r)},`).join('\n')}
];
`,
);
console.log(`${rows.length} relations written to ${path.relative(process.cwd(), out)}`);
