// Writes protocols/pg/catalog/pg-type-rows.ts: PostgreSQL 15's pg_type rows of the types Patina
// announces (types/oids.ts PG_TYPES), so that drivers and tools that read pg_type (Npgsql's type
// loading, pgjdbc, psql's \dT, pg_dump's storage and alignment) see PostgreSQL's own: function names
// (json_in, date_recv), typispreferred, typcategory, typmodin/out, typanalyze, storage, alignment.
// Needs a build (dist/) and a PostgreSQL 15 server:
//   node scripts/pg-type.js <port> [user] [database]
const fs = require('node:fs');
const path = require('node:path');
const { pg15 } = require('./pg15');

const { PG_TYPES } = require(path.resolve(__dirname, '..', 'dist', 'protocols', 'pg', 'types', 'oids.js'));
const out = path.resolve(__dirname, '..', 'protocols', 'pg', 'catalog', 'pg-type-rows.ts');
const { psql, version } = pg15('pg-type.js');
const oids = PG_TYPES.map((t) => t[0]);
const rows = JSON.parse(
  psql(`SELECT json_agg(json_build_array(oid::int, typname, typlen, typbyval, typtype, typcategory, typispreferred, typdelim,
          typelem::int, typarray::int, typinput::text, typoutput::text, typreceive::text, typsend::text, typmodin::text,
          typmodout::text, typanalyze::text, typsubscript::text, typalign, typstorage, typcollation::int) ORDER BY oid)
        FROM pg_type WHERE oid = ANY ('{${oids.join(',')}}'::oid[])`),
);
const missing = oids.filter((o) => !rows.some((r) => r[0] === o));
if (missing.length > 0) throw new Error(`PostgreSQL has no type of OID ${missing.join(', ')}`);
fs.writeFileSync(
  out,
  `// Written by scripts/pg-type.js from PostgreSQL ${version}: do not edit.
// pg_type's rows of the types Patina announces (types/oids.ts PG_TYPES), each as
// [oid, typname, typlen, typbyval, typtype, typcategory, typispreferred, typdelim, typelem, typarray,
//  typinput, typoutput, typreceive, typsend, typmodin, typmodout, typanalyze, typsubscript, typalign,
//  typstorage, typcollation].
export type PgTypeRow = [
  number, string, number, boolean, string, string, boolean, string, number, number,
  string, string, string, string, string, string, string, string, string, string, number,
];

// biome-ignore format: generated
export const PG_TYPE_ROWS: PgTypeRow[] = [
${rows.map((r) => `  ${JSON.stringify(r)},`).join('\n')}
];
`,
);
console.log(`${rows.length} types written to ${path.relative(process.cwd(), out)}`);
