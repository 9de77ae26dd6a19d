// pgcli as a user runs it (test/fixtures/pgcli-workload/workload.py): the catalog queries its
// completer refreshes from (search path, schemata, tables, views, columns, foreign keys, data types,
// functions) and its backslash commands (pgspecial's \dt, \d, \d table, \d+ table, \df, \dn, \di,
// \dT, \dv, \ds, \dD, \dE, \dm, \db, \du, \dx, \dn+, \sf), through pgcli's own PGExecute. The same script runs on
// PostgreSQL 15 and on Patina; what it prints must be the same.
// Found: \db showed each tablespace's location as `Not supported` (pg_proc did not list
// pg_tablespace_location, and it answered NULL; PostgreSQL's is ''); \du listed no predefined role,
// \dx no plpgsql, \dn+ no access privileges, \sf now no source (`%(pattern)s::regproc::oid` was 0).
// Not compared: \l (PostgreSQL's postgres and template databases), the sizes of \dt+ and \di+,
// \dF (text search configurations).
import assert from 'node:assert/strict';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { fixture, pythonSteps, sameSteps } from '../helpers/workload';
import { WORKLOAD_SCHEMA } from '../fixtures/workload-schema';

const SCRIPT = fixture('pgcli-workload', 'workload.py');
const SCHEMA = `${WORKLOAD_SCHEMA}\nCREATE INDEX books_author ON books (author_id);`;

describe('pgcli workload against PostgreSQL 15', function () {
  this.timeout(180_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => pair?.dispose());

  it("completion's catalog queries and the backslash commands answer as on PostgreSQL (\\db's location is '', \\du lists the predefined roles, \\sf now its source)", () => {
    const postgres = pythonSteps(SCRIPT, pair.postgresPort);
    const patina = pythonSteps(SCRIPT, pair.patinaPort);
    const on = (name: string) => JSON.stringify(postgres.find((s) => s[0] === name)?.[1]);
    assert.match(on('\\d+ books'), /numeric\(10,2\)/); // the oracle described the table
    assert.match(on('\\db'), /"pg_default","tester",""/);
    assert.match(on('\\du'), /"pg_monitor",false,true,false,false,false,-1,null,\["pg_read_all_settings"/);
    assert.match(on('\\sf now'), /CREATE OR REPLACE FUNCTION pg_catalog\.now\(\)/);
    sameSteps(patina, postgres);
  });
});
