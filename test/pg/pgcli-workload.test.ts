// pgcli as a user runs it (test/fixtures/pgcli-workload/workload.py): the catalog queries its
// completer refreshes from (search path, schemata, tables, views, columns, foreign keys, data types,
// functions) and its backslash commands (pgspecial's \dt, \d, \d table, \d+ table, \df, \dn, \di,
// \dT, \dv, \ds, \dD, \dE, \dm, \db), through pgcli's own PGExecute. The same script runs on
// PostgreSQL 15 and on Patina; what it prints must be the same.
// Found: \db showed each tablespace's location as `Not supported` (pg_proc did not list
// pg_tablespace_location, and it answered NULL; PostgreSQL's is '').
// Not compared: \l and \du (PostgreSQL's postgres and template databases, its predefined roles), the
// sizes of \dt+ and \di+, \dx (plpgsql), \dF (text search configurations), \dn+'s access privileges.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { WORKLOAD_SCHEMA } from '../fixtures/workload-schema';

const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'pgcli-workload', 'workload.py');
const SCHEMA = `${WORKLOAD_SCHEMA}\nCREATE INDEX books_author ON books (author_id);`;

/** What the script printed (Debian's python3, with pgcli and pgspecial). */
function workload(port: number): [string, unknown][] {
  const r = spawnSync('/usr/bin/python3', [SCRIPT, String(port)], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${SCRIPT} on ${port}:\n${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout);
}

describe('pgcli workload against PostgreSQL 15', function () {
  this.timeout(180_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => pair?.dispose());

  it("completion's catalog queries and the backslash commands answer as on PostgreSQL (\\db's location is '')", () => {
    const postgres = workload(pair.postgresPort);
    const patina = workload(pair.patinaPort);
    assert.deepEqual(
      patina.map((s) => s[0]),
      postgres.map((s) => s[0]),
    );
    const on = (name: string) => JSON.stringify(postgres.find((s) => s[0] === name)?.[1]);
    assert.match(on('\\d+ books'), /numeric\(10,2\)/); // the oracle described the table
    assert.match(on('\\db'), /"pg_default","tester",""/);
    for (let k = 0; k < postgres.length; k++) assert.deepEqual(patina[k], postgres[k], postgres[k][0]);
  });
});
