// Writes protocols/pg/catalog/pg-proc-rows.ts: PostgreSQL 15's pg_proc rows (with their
// descriptions and what pg_get_function_arguments, _identity_arguments, _result and
// pg_get_functiondef say of each) for the functions Patina runs (catalog/function-names.ts), every
// signature whose argument and result types pg_type lists (catalog/pg-type-rows.ts: all of
// pg_catalog's but its relations' row types), as psql's \df lists them: `upper(anyrange)` beside
// `upper(text)`, `sum(money)`. Needs a build (dist/) and a PostgreSQL 15 server:
//   node scripts/pg-proc.js <port> [user] [database]
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { pg15 } = require('./pg15');

const dist = path.resolve(__dirname, '..', 'dist', 'protocols', 'pg');
const { FUNCTION_NAMES } = require(path.join(dist, 'catalog', 'function-names.js'));
const { OTHER_TYPE_ROWS, PG_TYPE_ROWS } = require(path.join(dist, 'catalog', 'pg-type-rows.js'));
const out = path.resolve(__dirname, '..', 'protocols', 'pg', 'catalog', 'pg-proc-rows.ts');

// any, anyelement, anyarray, anynonarray, anycompatible(array|nonarray), void
const PSEUDO = [2276, 2283, 2277, 2776, 5077, 5078, 5079, 2278];
const allowed = `'{${[...PG_TYPE_ROWS, ...OTHER_TYPE_ROWS].map((t) => t[0]).join(',')}}'::oid[]`;
const names = `'{${[...FUNCTION_NAMES].join(',')}}'::text[]`;
const query = `
SELECT json_agg(json_build_array(p.oid::int, p.proname, p.prokind, p.proretset, p.provolatile, p.proparallel, p.proisstrict,
         p.prolang::int, p.procost, p.prorows, p.provariadic::int, p.pronargs, p.pronargdefaults, p.prorettype::int,
         p.proargtypes::text, p.proallargtypes::int[], p.proargmodes, p.proargnames, p.prosrc, obj_description(p.oid, 'pg_proc'),
         pg_get_function_arguments(p.oid), pg_get_function_identity_arguments(p.oid), pg_get_function_result(p.oid),
         CASE WHEN p.prokind <> 'a' THEN pg_get_functiondef(p.oid) END) ORDER BY p.proname, p.oid)
  FROM pg_proc p
 WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname = ANY (${names})
   AND p.prorettype = ANY (${allowed}) AND p.proargtypes::oid[] <@ ${allowed}
   AND coalesce(p.proallargtypes, '{}') <@ ${allowed}`;
const { psql, version } = pg15('pg-proc.js');
const rows = JSON.parse(psql(query));
const pseudo = JSON.parse(
  psql(`SELECT json_object_agg(oid::int, format_type(oid, NULL)) FROM pg_type WHERE oid = ANY ('{${PSEUDO.join(',')}}')`),
);
fs.writeFileSync(
  out,
  `// Written by scripts/pg-proc.js from PostgreSQL ${version}: do not edit.
// pg_proc's rows of the functions Patina runs (catalog/function-names.ts), each as
// [oid, proname, prokind, proretset, provolatile, proparallel, proisstrict, prolang, procost, prorows,
//  provariadic, pronargs, pronargdefaults, prorettype, proargtypes, proallargtypes, proargmodes,
//  proargnames, prosrc, description, pg_get_function_arguments, pg_get_function_identity_arguments,
//  pg_get_function_result, pg_get_functiondef (null for an aggregate)].
export type PgProcRow = [
  number, string, string, boolean, string, string, boolean, number, number, number, number, number, number, number,
  string, number[] | null, string[] | null, string[] | null, string, string | null, string, string, string, string | null,
];

/** The pseudo-types functions take (format_type's names). */
export const PSEUDO_TYPES: Record<number, string> = ${JSON.stringify(pseudo)};

// biome-ignore format: generated
export const PG_PROC_ROWS: PgProcRow[] = [
${rows.map((r) => `  ${JSON.stringify(r)},`).join('\n')}
];
`,
);
// (its header as biome formats it, so a run on the same server leaves the file as committed)
execFileSync(path.resolve(__dirname, '..', 'node_modules', '.bin', 'biome'), ['format', '--write', out], { stdio: 'ignore' });
console.log(`${rows.length} functions written to ${out}`);
