// Writes protocols/pg/catalog/pg-type-rows.ts: PostgreSQL 15's pg_type rows of the types Patina
// announces (types/oids.ts PG_TYPES), so that drivers and tools that read pg_type (Npgsql's type
// loading, pgjdbc, psql's \dT, pg_dump's storage and alignment) see PostgreSQL's own: function names
// (json_in, date_recv), typispreferred, typcategory, typmodin/out, typanalyze, storage, alignment.
// Also the rows of pg_catalog's other types, those Patina has no values of (inet, money, ranges,
// pseudo-types, ...): clients that build a type map from pg_type at connect (Ruby pg's
// BasicTypeMapForQueries, Rails, pgjdbc's getTypeInfo) look them up by name. With them: each
// type's format_type name and comment, pg_range's rows, and the names of the row types of
// PostgreSQL's own relations and of information_schema's types (a cast to one is no unknown type).
// Needs a build (dist/) and a PostgreSQL 15 server:
//   node scripts/pg-type.js <port> [user] [database]
const fs = require('node:fs');
const path = require('node:path');
const { pg15 } = require('./pg15');

const { PG_TYPES } = require(path.resolve(__dirname, '..', 'dist', 'protocols', 'pg', 'types', 'oids.js'));
const out = path.resolve(__dirname, '..', 'protocols', 'pg', 'catalog', 'pg-type-rows.ts');
const { psql, version } = pg15('pg-type.js');
const oids = PG_TYPES.map((t) => t[0]);
const ROW = `json_build_array(oid::int, typname, typlen, typbyval, typtype, typcategory, typispreferred, typdelim,
          typelem::int, typarray::int, typinput::text, typoutput::text, typreceive::text, typsend::text, typmodin::text,
          typmodout::text, typanalyze::text, typsubscript::text, typalign, typstorage, typcollation::int)`;
const json = (sql) => JSON.parse(psql(sql) || '[]');
const rows = json(`SELECT json_agg(${ROW} ORDER BY oid) FROM pg_type WHERE oid = ANY ('{${oids.join(',')}}'::oid[])`);
const missing = oids.filter((o) => !rows.some((r) => r[0] === o));
if (missing.length > 0) throw new Error(`PostgreSQL has no type of OID ${missing.join(', ')}`);
// pg_catalog's other types: not the row types of its relations, nor their arrays
const OTHER = `typnamespace = 'pg_catalog'::regnamespace AND typtype <> 'c'
  AND NOT EXISTS (SELECT 1 FROM pg_type e WHERE e.oid = t.typelem AND e.typtype = 'c')
  AND NOT oid = ANY ('{${oids.join(',')}}'::oid[])`;
const others = json(`SELECT json_agg(${ROW} ORDER BY oid) FROM pg_type t WHERE ${OTHER}`);
const names = json(`SELECT json_agg(json_build_array(oid::int, format_type(oid, NULL)) ORDER BY oid) FROM pg_type t WHERE ${OTHER}`);
const comments = json(`SELECT json_agg(json_build_array(oid::int, obj_description(oid, 'pg_type')) ORDER BY oid)
  FROM pg_type t WHERE (${OTHER} OR oid = ANY ('{${oids.join(',')}}'::oid[])) AND obj_description(oid, 'pg_type') IS NOT NULL`);
const ranges = json(`SELECT json_agg(json_build_array(rngtypid::int, rngsubtype::int, rngmultitypid::int, rngcollation::int,
  rngsubopc::int, rngcanonical::text, rngsubdiff::text) ORDER BY rngtypid) FROM pg_range`);
const rowTypes = json(`SELECT json_agg(typname ORDER BY typname) FROM pg_type t
  WHERE typnamespace = 'pg_catalog'::regnamespace AND NOT (${OTHER}) AND NOT oid = ANY ('{${oids.join(',')}}'::oid[])`);
const infoTypes = json(`SELECT json_agg(typname ORDER BY typname) FROM pg_type WHERE typnamespace = 'information_schema'::regnamespace`);
const lines = (a) => a.map((r) => `  ${JSON.stringify(r)},`).join('\n');
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
${lines(rows)}
];

/** pg_catalog's other types (Patina has no values of them; not its relations' row types), as PG_TYPE_ROWS. */
// biome-ignore format: generated
export const OTHER_TYPE_ROWS: PgTypeRow[] = [
${lines(others)}
];

/** The other types' names as format_type prints them: [oid, name]. */
// biome-ignore format: generated
export const OTHER_TYPE_NAMES: [number, string][] = [
${lines(names)}
];

/** The comments of the types of both lists (pg_description, classoid pg_type): [oid, description]. */
// biome-ignore format: generated
export const TYPE_COMMENTS: [number, string][] = [
${lines(comments)}
];

/** pg_range's rows: [rngtypid, rngsubtype, rngmultitypid, rngcollation, rngsubopc, rngcanonical, rngsubdiff]. */
// biome-ignore format: generated
export const PG_RANGE_ROWS: [number, number, number, number, number, string, string][] = [
${lines(ranges)}
];

/** The names of pg_catalog's row types (of its relations) and their arrays: types, though pg_type does not list them here. */
// biome-ignore format: generated
export const CATALOG_ROW_TYPE_NAMES: string[] = ${JSON.stringify(rowTypes)};

/** The names of information_schema's types (its domains, its views' row types, their arrays). */
// biome-ignore format: generated
export const INFORMATION_SCHEMA_TYPE_NAMES: string[] = ${JSON.stringify(infoTypes)};
`,
);
console.log(`${rows.length} + ${others.length} types written to ${path.relative(process.cwd(), out)}`);
