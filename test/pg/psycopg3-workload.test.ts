// psycopg 3 as an application uses it (test/fixtures/psycopg3-workload/workload.py): executemany,
// which sends its statements in a pipeline before one Sync, with autocommit on and off;
// conn.pipeline() with writes and reads, a failing statement in the middle (psycopg's
// PipelineAborted for the rest), SET, SET LOCAL and set_config in a pipeline, the results read
// after it, the rows stored and the settings after each step. The same script runs on PostgreSQL 15
// and on Patina; what it prints must be the same.
// Where psycopg raises a pipeline's error (at a later execute, or at the pipeline's end) depends on
// when its answer arrives, so the steps that do not wait keep only the error; the step that reads
// inside the pipeline waits after each execute. Found: a SET or set_config before a failing
// statement of the pipeline was kept (PostgreSQL rolls it back with the pipeline's implicit
// transaction), and a SET LOCAL before the pipeline's first write had no effect (it lasts to the
// Sync there); a SET in a nested conn.transaction() (a savepoint) that failed was kept after its
// ROLLBACK TO, and SET TRANSACTION ISOLATION LEVEL after a query was taken (PostgreSQL's 25001).
import assert from 'node:assert/strict';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { fixture, pythonSteps, sameSteps } from '../helpers/workload';
import { WORKLOAD_SCHEMA as SCHEMA } from '../fixtures/workload-schema';

const SCRIPT = fixture('psycopg3-workload', 'workload.py');

describe('psycopg 3 workload against PostgreSQL 15', function () {
  this.timeout(180_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA }, rows: [] });
  });
  after(() => pair?.dispose());

  it('every step sees what it saw on PostgreSQL (pipelines, executemany, a failing statement, settings)', () => {
    const postgres = pythonSteps(SCRIPT, pair.postgresPort);
    const patina = pythonSteps(SCRIPT, pair.patinaPort);
    assert.equal(postgres.length, 22); // every step ran on the oracle
    const aborted = postgres.filter((s) => JSON.stringify(s).includes('PipelineAborted'));
    assert.ok(aborted.length > 0, 'a failing statement aborted the rest of a pipeline on PostgreSQL');
    sameSteps(patina, postgres);
  });
});
