// The PostgreSQL 15 server the catalog scripts read (pg-proc.js, pg-settings.js, pg-type.js,
// pg-catalog-columns.js): their arguments `<port> [user] [database]`, a psql call returning the
// unaligned output of one statement, and the server's version, refused unless it is 15.
const { execFileSync } = require('node:child_process');

/** Reads `<port> [user] [database]` from the command line (usage names the script) and checks the server. */
function pg15(script) {
  const [port, user = 'postgres', db = 'postgres'] = process.argv.slice(2);
  if (!port) throw new Error(`usage: node scripts/${script} <port> [user] [database]`);
  const psql = (sql) =>
    execFileSync('psql', ['-X', '-A', '-t', '-h', '127.0.0.1', '-p', port, '-U', user, '-d', db, '-c', sql], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    }).trim();
  const version = psql('SHOW server_version');
  if (!version.startsWith('15.')) throw new Error(`PostgreSQL ${version}: this table is PostgreSQL 15's`);
  return { psql, version };
}

module.exports = { pg15 };
