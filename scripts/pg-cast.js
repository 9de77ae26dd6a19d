// Writes protocols/pg/types/pg-cast-rows.ts: PostgreSQL 15's pg_cast rows, the casts its parser
// finds between two types (a pair it has no row for, and no I/O conversion through text, is 42846
// 'cannot cast type smallint to boolean': sql/cast-paths.ts), also the catalog's pg_cast rows
// (catalog/local-db.ts). Needs a PostgreSQL 15 server:
//   node scripts/pg-cast.js <port> [user] [database]
const fs = require('node:fs');
const path = require('node:path');
const { pg15 } = require('./pg15');

const out = path.resolve(__dirname, '..', 'protocols', 'pg', 'types', 'pg-cast-rows.ts');
const { psql, version } = pg15('pg-cast.js');
const rows = JSON.parse(
  psql(
    `SELECT json_agg(json_build_array(oid::int, castsource::int, casttarget::int, castfunc::int, castcontext, castmethod) ORDER BY oid) FROM pg_cast`,
  ),
);
fs.writeFileSync(
  out,
  `// Written by scripts/pg-cast.js from PostgreSQL ${version}: do not edit.
// pg_cast's rows as [oid, castsource, casttarget, castfunc, castcontext, castmethod]: the pairs of
// types an explicit cast converts between (sql/cast-paths.ts), and the catalog's pg_cast (psql's \\dC).

// biome-ignore format: generated
export const PG_CAST_ROWS: [number, number, number, number, string, string][] = [
${rows.map((r) => `  ${JSON.stringify(r)},`).join('\n')}
];
`,
);
console.log(`${rows.length} casts written to ${out}`);
