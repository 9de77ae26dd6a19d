// Writes protocols/pg/catalog/pg-catalog-columns.ts: every table and view of PostgreSQL 15's
// pg_catalog and information_schema with its columns in order and their types, so that the catalog
// connection has each relation and column a tool's query may name (empty where Patina has nothing to
// list): a query naming one Patina did not declare was answered with no rows at all (psql's
// \dconfig+ joins pg_parameter_acl). Needs a PostgreSQL 15 server:
//   node scripts/pg-catalog-columns.js <port> [user] [database]
const fs = require('node:fs');
const path = require('node:path');
const { pg15 } = require('./pg15');

const out = path.resolve(__dirname, '..', 'protocols', 'pg', 'catalog', 'pg-catalog-columns.ts');
const { psql, version } = pg15('pg-catalog-columns.js');
const relations = (schema) =>
  JSON.parse(
    psql(`SELECT json_object_agg(relname, cols ORDER BY relname) FROM (
          SELECT c.relname, json_agg(json_build_array(a.attname, format_type(a.atttypid, NULL)) ORDER BY a.attnum) AS cols
            FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
           WHERE c.relnamespace = '${schema}'::regnamespace AND c.relkind IN ('r', 'v')
           GROUP BY c.relname) r`),
  );
const rels = relations('pg_catalog');
const info = relations('information_schema');
const list = (o) =>
  Object.entries(o)
    .map(([name, cols]) => `  ${name}: ${JSON.stringify(cols)},`)
    .join('\n');
fs.writeFileSync(
  out,
  `// Written by scripts/pg-catalog-columns.js from PostgreSQL ${version}: do not edit.
// Every table and view of pg_catalog and of information_schema: its columns in order, each as
// [name, PostgreSQL's type].

// biome-ignore format: generated
export const PG_CATALOG_COLUMNS: Record<string, [string, string][]> = {
${list(rels)}
};

// biome-ignore format: generated
export const INFORMATION_SCHEMA_COLUMNS: Record<string, [string, string][]> = {
${list(info)}
};
`,
);
console.log(
  `${Object.keys(rels).length} + ${Object.keys(info).length} relations written to ${path.relative(process.cwd(), out)}`,
);
