// Writes protocols/pg/catalog/pg-function-names.ts: the names of every function PostgreSQL 15 has
// in pg_catalog and in information_schema (sql/foreign-functions.ts refuses a call of any other
// name as PostgreSQL does, where SQLite has a function of that name). Needs a PostgreSQL 15 server:
//   node scripts/pg-function-names.js <port> [user] [database]
const fs = require('node:fs');
const path = require('node:path');
const { pg15 } = require('./pg15');

const out = path.resolve(__dirname, '..', 'protocols', 'pg', 'catalog', 'pg-function-names.ts');
const { psql, version } = pg15('pg-function-names.js');
const names = (schema) =>
  JSON.parse(
    psql(
      `SELECT json_agg(DISTINCT proname ORDER BY proname) FROM pg_proc WHERE pronamespace = '${schema}'::regnamespace`,
    ),
  );
const catalog = names('pg_catalog');
const infoSchema = names('information_schema');
// about 2,900 names: a few per line
const lines = (list) => {
  const rows = [];
  for (let i = 0; i < list.length; i += 8) rows.push(`  ${list.slice(i, i + 8).join(' ')}`);
  return rows.join('\n');
};
fs.writeFileSync(
  out,
  `// Written by scripts/pg-function-names.js from PostgreSQL ${version}: do not edit.
// The names of the functions PostgreSQL 15 has in pg_catalog and in information_schema.

/** pg_catalog's function names (${catalog.length}). */
export const PG_CATALOG_FUNCTIONS: ReadonlySet<string> = new Set(
  \`
${lines(catalog)}
\`
    .trim()
    .split(/\\s+/),
);

/** information_schema's function names. */
export const INFORMATION_SCHEMA_FUNCTIONS: ReadonlySet<string> = new Set(
  \`${infoSchema.join(' ')}\`.split(' '),
);
`,
);
console.log(`${catalog.length} + ${infoSchema.length} function names written to ${out}`);
