// Writes protocols/pg/catalog/pg-settings-rows.ts: PostgreSQL 15's settings (pg_settings) as a
// freshly initialised server has them, for SET's checks (an unknown name is 42704, one that cannot
// be set in a session 55P02, a bad boolean or enum 22023), SHOW, current_setting and pg_settings.
// Values a test server gets from its command line or data folder are written as a packaged server's
// defaults. Needs a PostgreSQL 15 server:
//   node scripts/pg-settings.js <port> [user] [database]
const fs = require('node:fs');
const path = require('node:path');
const { pg15 } = require('./pg15');

const out = path.resolve(__dirname, '..', 'protocols', 'pg', 'catalog', 'pg-settings-rows.ts');
const { psql, version } = pg15('pg-settings.js');

// [shown, setting] of what the server's command line, its folder or the client set
const PACKAGED = {
  port: ['5432', '5432'],
  listen_addresses: ['localhost', 'localhost'],
  unix_socket_directories: ['/var/run/postgresql', '/var/run/postgresql'],
  shared_buffers: ['128MB', '16384'],
  fsync: ['on', 'on'],
  TimeZone: ['UTC', 'UTC'],
  application_name: ['', ''],
  data_directory: ['', ''],
  config_file: ['', ''],
  hba_file: ['', ''],
  ident_file: ['', ''],
};
const rows = JSON.parse(
  psql(`SELECT json_agg(json_build_array(name, current_setting(name), setting, unit, category, short_desc, context,
          vartype, enumvals, min_val, max_val, boot_val, source) ORDER BY name) FROM pg_settings`),
);
for (const r of rows) {
  const source = r.pop();
  if (PACKAGED[r[0]]) [r[1], r[2]] = PACKAGED[r[0]];
  else if (!['default', 'configuration file', 'override'].includes(source))
    throw new Error(`${r[0]} comes from ${source}: add its packaged default to PACKAGED`);
}
fs.writeFileSync(
  out,
  `// Written by scripts/pg-settings.js from PostgreSQL ${version}: do not edit.
// pg_settings' rows as a new PostgreSQL 15 server has them, each as
// [name, shown (SHOW's text), setting, unit, category, short_desc, context, vartype, enumvals,
//  min_val, max_val, boot_val].
export type PgSettingRow = [
  string, string, string, string | null, string, string, string, string, string[] | null,
  string | null, string | null, string | null,
];

// biome-ignore format: generated
export const PG_SETTING_ROWS: PgSettingRow[] = [
${rows.map((r) => `  ${JSON.stringify(r)},`).join('\n')}
];
`,
);
console.log(`${rows.length} settings written to ${path.relative(process.cwd(), out)}`);
