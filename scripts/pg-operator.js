// Writes protocols/pg/catalog/pg-operator-rows.ts: PostgreSQL 15's pg_operator rows (with their
// descriptions) whose operand and result types pg_type lists (catalog/pg-type-rows.ts), as the
// catalog's pg_operator holds them: psql's \do, to_regoper and to_regoperator read them. Needs a
// build (dist/) and a PostgreSQL 15 server:
//   node scripts/pg-operator.js <port> [user] [database]
const fs = require('node:fs');
const path = require('node:path');
const { pg15 } = require('./pg15');

const dist = path.resolve(__dirname, '..', 'dist', 'protocols', 'pg');
const { OTHER_TYPE_ROWS, PG_TYPE_ROWS } = require(path.join(dist, 'catalog', 'pg-type-rows.js'));
const out = path.resolve(__dirname, '..', 'protocols', 'pg', 'catalog', 'pg-operator-rows.ts');

// (0: a prefix operator's missing left operand)
const allowed = `'{0,${[...PG_TYPE_ROWS, ...OTHER_TYPE_ROWS].map((t) => t[0]).join(',')}}'::oid[]`;
const query = `
SELECT json_agg(json_build_array(o.oid::int, o.oprname, o.oprkind, o.oprcanmerge, o.oprcanhash, o.oprleft::int,
         o.oprright::int, o.oprresult::int, o.oprcom::int, o.oprnegate::int, o.oprcode::text, o.oprrest::text,
         o.oprjoin::text, obj_description(o.oid, 'pg_operator')) ORDER BY o.oid)
  FROM pg_operator o
 WHERE o.oprnamespace = 'pg_catalog'::regnamespace
   AND ARRAY[o.oprleft, o.oprright, o.oprresult] <@ ${allowed}`;
const { psql, version } = pg15('pg-operator.js');
const rows = JSON.parse(psql(query));
fs.writeFileSync(
  out,
  `// Written by scripts/pg-operator.js from PostgreSQL ${version}: do not edit.
// pg_operator's rows of pg_catalog whose types pg_type lists, each as [oid, oprname, oprkind,
// oprcanmerge, oprcanhash, oprleft, oprright, oprresult, oprcom, oprnegate, oprcode, oprrest,
// oprjoin, description].

export type PgOperatorRow = [
  number, string, string, boolean, boolean, number, number, number, number, number, string, string, string, string | null,
];

// biome-ignore format: generated
export const PG_OPERATOR_ROWS: PgOperatorRow[] = [
${rows.map((r) => `  ${JSON.stringify(r)},`).join('\n')}
];
`,
);
console.log(`${rows.length} operators written to ${out}`);
