// asyncpg as an application uses it (test/fixtures/asyncpg-workload/workload.py): executemany,
// fetch of every column type (binary), copy_records_to_table, copy_from_query / copy_from_table /
// copy_to_table, prepare() with get_attributes() and get_parameters(), transactions, cursor()
// iteration, a cursor's forward(), custom type codecs and errors. The same script runs on PostgreSQL
// 15 and on Patina; what it prints must be the same.
// Found: Cursor.forward() (`MOVE FORWARD n "__asyncpg_portal_1__"`, the portal of the cursor's Bind)
// was 34000 `cursor "__asyncpg_portal_1__" does not exist`: FETCH and MOVE did not reach a portal.
import assert from 'node:assert/strict';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { fixture, pythonSteps, sameSteps } from '../helpers/workload';
import { TYPES_SCHEMA as SCHEMA } from '../fixtures/workload-schema';

const SCRIPT = fixture('asyncpg-workload', 'workload.py');

describe('asyncpg workload against PostgreSQL 15', function () {
  this.timeout(180_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => pair?.dispose());

  it("every step sees what it saw on PostgreSQL (a cursor's forward() moves its portal)", () => {
    const postgres = pythonSteps(SCRIPT, pair.postgresPort);
    const patina = pythonSteps(SCRIPT, pair.patinaPort);
    const on = (name: string) => postgres.find((s) => s[0] === name)?.[1];
    assert.equal(on('cursor forward'), 1); // the oracle moved
    assert.deepEqual(on('cursor fetchrow after forward'), [4]);
    sameSteps(patina, postgres);
  });
});
